"""The solo Trogs decision ``prisoner``: where the Trogs take their Prisoner from."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.games.cry_havoc.contract import TROGS
from havoc.games.cry_havoc.solo.engine import (
    R_PRISONERS,
    Decision,
    Table,
    TrogDecision,
    add_titles,
    battle_of,
    placement_of,
    read_field,
    start_decision,
    units_needed,
)
from havoc.games.cry_havoc.ui import objective_name
from havoc.language.i18n import ui


def decide_prisoner(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Where the Trogs take their Prisoner from (and, given the objectives, whether they take one)."""
    lang = table.lang
    shifted = read_field(query, "shifted-priorities", lang, DECISION.defaults["shifted-priorities"])
    source = table.objective("solo-prisoner-source-shifted" if shifted else "solo-prisoner-source")
    d = start_decision(table, "prisoner", ui("Where do the Trogs take their Prisoner from?", lang))
    d.rule = R_PRISONERS
    d.figures = {"from": source, "shifted-priorities": shifted}
    takes = True
    if "region" in query:
        battle_of(table, query)
        theirs = placement_of(table, query, table.player, None)
        mine = placement_of(table, query, TROGS, None)
        need, reading = units_needed(table, "prisoners", theirs["prisoners"], False)
        if mine["prisoners"] == theirs["prisoners"] and reading:
            d.interpretations.append(reading)
        takes = mine["prisoners"] >= need and mine["prisoners"] > 0
        d.figures["takes"] = takes
        if not takes:
            d.choice = "none"
            d.lines.append(
                ui("The Trogs take no Prisoner: {mine} against {theirs} on Capture Prisoners.", lang).format(
                    mine=mine["prisoners"], theirs=theirs["prisoners"]
                )
            )
    if takes:
        d.choice = source
        d.lines.append(
            ui("The Trogs take their Prisoner from {objective}.", lang).format(objective=objective_name(source, lang))
        )
    add_titles(table, d)
    return d


DECISION = Decision(
    name="prisoner",
    handler=decide_prisoner,
    fields=("shifted-priorities",),
    defaults={"shifted-priorities": False},
    battle="optional",
    what=ui("where they take a Prisoner from"),
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any
