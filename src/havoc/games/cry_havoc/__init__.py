"""Cry Havoc: the Python that only this game needs (the solo Trogs' decisions first)."""
