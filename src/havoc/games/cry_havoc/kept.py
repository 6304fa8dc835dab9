"""What the kinds work out about one table once, for all the questions asked about it.

Players ask several questions about one table (a server keeps the validated Position and hands
the same object to each of them): the six ways the Units may stand on a Battle's objectives
share the Battle's opening rules and where its loser may retreat. :func:`of` gives a table's
own dict, in which a kind keeps such results under a key naming everything else they depend on
(the engine, the language's texts, the question's other values); a new table (another object,
even one that differs in a single Unit) starts empty. A Position is never changed once
validated (answering only reads it), so what was worked out from it stays true.

The tables are held here, so an object's ID is never reused while its results are kept; the
oldest table goes when more than :data:`TABLES_KEPT` are.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from havoc.games.cry_havoc.position import Position

TABLES_KEPT = 256  # as many as a server keeps validated (webapi.POSITIONS_KEPT)
RESULTS_KEPT = 64  # kept results per table (one per question shape asked about it)

_tables: dict[int, tuple[Position, dict[Any, Any]]] = {}


def of(pos: Position) -> dict[Any, Any]:
    """The results kept for the table ``pos`` (itself, not an equal one)."""
    found = _tables.get(id(pos))
    if found is None or found[0] is not pos:
        if len(_tables) >= TABLES_KEPT:
            try:
                del _tables[next(iter(_tables))]
            except (RuntimeError, StopIteration, KeyError):  # another thread changed them meanwhile
                _tables.clear()
        found = _tables[id(pos)] = (pos, {})
    return found[1]


def put(table: dict[Any, Any], key: Any, value: Any) -> Any:
    """Keep ``value`` under ``key`` in a table's dict (from :func:`of`); bounded, as the tables are."""
    if len(table) >= RESULTS_KEPT:
        table.clear()
    table[key] = value
    return value


def reserve(pos: Position, faction: str) -> int:
    """``pos.reserve(faction)``, worked out once per table: a faction's Reserve is read by the
    probe and two rules of one Recruit line, and counting it walks every Region of the table."""
    table = of(pos)
    key = ("reserve", faction)
    found: int | None = table.get(key)
    if found is None:
        found = put(table, key, pos.reserve(faction))
    return found
