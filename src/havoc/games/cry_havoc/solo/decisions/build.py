"""The solo Trogs decision ``build``: what the Trogs build or activate."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.games.cry_havoc.contract import TROGS
from havoc.games.cry_havoc.solo.engine import (
    BROODING_POOL,
    I_BUILD_SITE,
    R_BUILD,
    R_PRIORITIES,
    TRAP,
    Decision,
    Table,
    TrogDecision,
    add_titles,
    finish_pick,
    pick_region,
    read_field,
    start_decision,
)
from havoc.language.i18n import ui


def _structures(table: Table, kind: str) -> list[str]:
    return [r.id for r in table.pos.regions.values() for s in r.structures if s.type == kind and s.owner == TROGS]


def decide_build(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Build a Trap where the priorities say, else activate; a Brooding Pool when Traps are out."""
    lang = table.lang
    both = read_field(query, "both", lang, DECISION.defaults["both"])
    d = start_decision(table, "build", ui("What do the Trogs build?", lang))
    d.rule = R_BUILD
    traps, pools = _structures(table, TRAP), _structures(table, BROODING_POOL)
    traps_left = table.count("solo-trog-traps") - len(traps)
    pools_left = table.count("solo-trog-brooding-pools") - len(pools)

    def sites(kind: str) -> list[str]:
        return [
            r.id
            for r in table.pos.regions.values()
            if table.trogs(r) > 0
            and r.hq is None
            and r.battle is None
            and not r.outer
            and not any(s.type == kind for s in r.structures)
        ]

    wanted: list[str] = []
    if traps_left > 0:
        wanted.append(TRAP)
    if pools_left > 0 and (traps_left <= 0 or both):
        wanted.append(BROODING_POOL)
    built: dict[str, str] = {}
    if wanted:
        d.interpretations.append(I_BUILD_SITE)
    for kind in wanted:
        where = sites(kind)
        if not where:
            continue
        pick = pick_region(table, where, 0)
        if len(pick.chosen) != 1:
            finish_pick(table, d, pick)
            d.figures = {"build": kind, "tied": d.tied}
            d.choice = None
            add_titles(table, d)
            return d
        d.set_aside.extend(pick.set_aside)
        d.interpretations.extend(i for i in pick.interpretations if i not in d.interpretations)
        if pick.rule and pick.rule != R_PRIORITIES:
            d.also.append(pick.rule)
        built[kind] = pick.chosen[0]
    if built:
        d.choice = "build"
        d.figures = {"build": built}
        for kind, rid in built.items():
            line = (
                ui("The Trogs build a Trap in {region}.", lang)
                if kind == TRAP
                else ui("The Trogs build a Brooding Pool in {region}.", lang)
            )
            d.lines.append(line.format(region=table.rname(rid)))
    elif traps or pools:
        d.choice = "activate"
        d.figures = {"activate": traps + pools}
        d.lines.append(
            ui("The Trogs activate their Traps ({traps}), then their Brooding Pools ({pools}).", lang).format(
                traps=table.rnames(traps), pools=table.rnames(pools)
            )
        )
    else:
        d.choice = "nothing"
        d.figures = {}
        d.lines.append(ui("Nothing happens: the Trogs can build nothing and have nothing to activate.", lang))
    add_titles(table, d)
    return d


DECISION = Decision(
    name="build", handler=decide_build, fields=("both",), defaults={"both": False}, what=ui("what they build")
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any
