"""The solo Trogs decision ``place``: how the Trogs place their Units on a Battle's objectives."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.games.cry_havoc.contract import OBJECTIVES
from havoc.games.cry_havoc.solo.engine import (
    I_LEFTOVER,
    R_PLACE,
    Decision,
    SetAside,
    Table,
    TrogDecision,
    add_titles,
    battle_of,
    placement_of,
    start_decision,
    units_needed,
)
from havoc.language.i18n import ui

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def decide_place(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Fill the objectives in order with just enough Trogs to win each, as the variant says."""
    lang = table.lang
    region, defending = battle_of(table, query)
    theirs = placement_of(table, query, table.player, table.enemy(region))
    left = table.trogs(region)
    d = start_decision(
        table,
        "place",
        ui("How do the Trogs place their Units in {region}?", lang).format(region=table.rname(region.id)),
    )
    d.rule = R_PLACE
    placed = dict.fromkeys(OBJECTIVES, 0)
    won: list[str] = []
    for obj in OBJECTIVES:
        need, reading = units_needed(table, obj, theirs[obj], defending)
        if reading and reading not in d.interpretations:
            d.interpretations.append(reading)
        if need <= left:
            placed[obj] = need
            left -= need
            won.append(obj)
        else:
            d.set_aside.append(
                SetAside(
                    obj,
                    R_PLACE,
                    ui("needs {need} {units} to win, only {left} left", lang).format(
                        need=need, units=table.units(need), left=left
                    ),
                )
            )
    if left > 0:
        extra = table.objective("solo-leftover-objective")
        placed[extra] += left
        d.interpretations.append(I_LEFTOVER)
    d.choice = "/".join(str(placed[o]) for o in OBJECTIVES)
    d.figures = {"placement": placed, "wins": won, "defending": defending}
    d.lines.append(
        ui(
            "The Trogs place {control} on Region Control, {prisoners} on Capture Prisoners, {attrition} on Attrition.",
            lang,
        ).format(**placed)
    )
    add_titles(table, d)
    return d


DECISION = Decision(name="place", handler=decide_place, battle="needed", what=ui("how they place their Units"))
