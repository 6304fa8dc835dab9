"""The solo Trogs decision ``initiative``: where the Trogs put their Initiative token."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.games.cry_havoc.contract import TROGS
from havoc.games.cry_havoc.solo.engine import R_TURN, Decision, Table, TrogDecision, add_titles, start_decision
from havoc.language.i18n import ui

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def decide_initiative(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Where the Trogs put their Initiative token when a card lets them choose: always first."""
    lang = table.lang
    d = start_decision(
        table, "initiative", ui("Where do the Trogs put their token on the Upcoming Initiative track?", lang)
    )
    d.choice, d.rule = "1", R_TURN
    others = [f for f in (table.pos.upcoming_initiative or table.pos.initiative) if f != TROGS]
    d.figures = {"position": 1, "upcoming-order": [TROGS, *others]}
    d.lines.append(ui("The Trogs always choose to go first: their token goes on the first spot.", lang))
    if others:
        d.lines.append(
            ui("Upcoming Initiative: {order}", lang).format(order=", ".join(table.fname(f) for f in [TROGS, *others]))
        )
    add_titles(table, d)
    return d


DECISION = Decision(name="initiative", handler=decide_initiative)
