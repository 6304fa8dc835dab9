"""Games on the havoc engine: one package per game, found through its ruleset's ``game`` key."""
