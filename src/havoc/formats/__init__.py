"""Reading what people hand havoc (YAML with lines, the schema framework)."""
