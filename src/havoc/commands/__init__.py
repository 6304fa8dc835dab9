"""CLI commands, one module each (see havoc.cli.COMMAND_MODULES)."""
