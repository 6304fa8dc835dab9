"""The rules engine: the rulebook model, conditions, the interpreter, games' protocol."""
