"""The solo Trogs decision ``tactics``: whether the Trogs draw another Tactics card in a Battle."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.games.cry_havoc.contract import TROGS
from havoc.games.cry_havoc.solo.engine import (
    R_TACTICS,
    Decision,
    Table,
    TrogDecision,
    add_titles,
    battle_of,
    placement_of,
    read_field,
    start_decision,
)
from havoc.language.i18n import ui


def decide_tactics(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Whether the Trogs draw on: they stop once winning Region Control or on a card with no Tactic text."""
    lang = table.lang
    region, defending = battle_of(table, query)
    theirs = placement_of(table, query, table.player, None)
    mine = placement_of(table, query, TROGS, None)
    text = read_field(query, "tactic-text", lang, DECISION.defaults["tactic-text"])
    d = start_decision(
        table,
        "tactics",
        ui("Do the Trogs draw another Tactics card in {region}?", lang).format(region=table.rname(region.id)),
    )
    d.rule = R_TACTICS
    tie_wins = defending and table.flag("solo-place-defender-tie")
    winning = mine["control"] > theirs["control"] or (tie_wins and mine["control"] == theirs["control"])
    d.figures = {"winning-control": winning, "draw": False}
    if winning:
        d.choice = "stop"
        d.lines.append(ui("The Trogs stop: they are winning Region Control.", lang))
    elif not text:
        d.choice = "stop"
        d.lines.append(ui("The Trogs stop: the card they drew has no Tactic text.", lang))
    else:
        d.choice = "draw"
        d.figures["draw"] = True
        d.lines.append(ui("The Trogs draw the top card of their deck and resolve only its Tactic text.", lang))
    add_titles(table, d)
    return d


DECISION = Decision(
    name="tactics",
    handler=decide_tactics,
    fields=("tactic-text",),
    defaults={"tactic-text": True},
    battle="needed",
    what=ui("whether they draw another Tactics card"),
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any
