"""Advanced Cry Havoc 2 on the havoc engine: its charts, read from the rule tables.

This game has no position-based assistant: its package offers only the small part of the
:class:`havoc.engine.game.Game` protocol (its command, its data checks, its site page) and chart
lookups (:mod:`.lookups`, the ``havoc charts`` command, :mod:`.api`).
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from havoc.core.errors import Problem as _P
    from havoc.engine.rulebook.model import Ruleset

COMMANDS: Mapping[str, str] = {"charts": "havoc.games.advanced_cry_havoc.cli"}
RULESET = "advanced-cry-havoc"  # the charts' ruleset, unless --ruleset names another
# The charts whose plain line `havoc` reads without argparse (havoc.cli.quick_parse; a test
# keeps each equal to argparse's reading): the chart's words, and the options every chart takes.
_CHART_OPTIONS = {"--lang": "lang:lang", "--json": "json:flag", "--ruleset": "ruleset:"}
QUICK_LINES: Mapping[str, Mapping[str, Any]] = {
    f"charts {chart}": {
        "function": "run",
        "set": {"chart": chart},
        "words": words,
        "options": _CHART_OPTIONS,
        "defaults": {"ruleset": RULESET},
    }
    for chart, words in (("range", ("weapon", "distance")), ("status", ("name",)))
}
# The lookups the site's in-browser engine answers (``POST /api/charts?ruleset=…``, see
# havoc.assistant.webapi): the same function, and so the same JSON, as ``havoc charts … --json``.
LOOKUPS: Mapping[str, str] = {"charts": "havoc.games.advanced_cry_havoc.charts:lookup"}
SITE_EXTENSION = "havoc.games.advanced_cry_havoc.lookup_page"  # the site's chart lookup page
# The modules no lookup imports (the command, the site page): left out of the site's in-browser engine.
OFF_ANSWER_PATH = ("havoc.games.advanced_cry_havoc.cli", "havoc.games.advanced_cry_havoc.lookup_page")

# No rules assistant (havoc.engine.game.Assistant): a question about a position is refused in these words.
TITLE = "Advanced Cry Havoc 2"
WITHOUT_ASSISTANT = "use `havoc charts` for lookups"


def mechanism_rules(rs: Ruleset) -> frozenset[str]:
    """The charts the lookups read: each lookup answers from its rule's table and cites it."""
    from havoc.games.advanced_cry_havoc import tables

    return frozenset(v for k, v in vars(tables).items() if k.isupper() and isinstance(v, str) and v.startswith("acv-"))


def check_rules(rs: Ruleset) -> list[_P]:
    """Every chart cell the lookups read parses (see :mod:`.tables`), located at its rule."""
    from havoc.games.advanced_cry_havoc.tables import check_rules as check

    return check(rs)
