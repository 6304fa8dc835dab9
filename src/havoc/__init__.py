"""havoc: the Cry Havoc rulebook as data, with its site, sheets and rules assistant."""

__version__ = "0.1.0"

TYPE_CHECKING = False
"""typing's flag without importing :mod:`typing` (start-up time: see :mod:`havoc.core.tuples`).

Every module writes ``from havoc import TYPE_CHECKING`` and guards its annotation-only imports
with ``if TYPE_CHECKING:``; mypy and ruff recognise the name, and this package is imported anyway."""
