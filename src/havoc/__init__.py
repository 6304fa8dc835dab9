"""havoc: the Cry Havoc rulebook as data, with its site, sheets and rules assistant."""

__version__ = "0.1.0"
