"""Game packages on the havoc engine, one per game (the engine finds them through havoc.engine.game)."""
