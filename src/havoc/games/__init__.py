"""Game packages: what only one game needs in Python (its facts, its question handlers)."""
