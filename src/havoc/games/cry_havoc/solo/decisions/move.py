"""The solo Trogs decision ``move``: where Trog Units move: the Regions within reach, filtered by the priorities."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.games.cry_havoc.contract import TROGS
from havoc.games.cry_havoc.solo.engine import (
    R_HQ_UNITS,
    R_NO_BATTLE_ENTRY,
    R_NO_OTHER_HQ,
    R_UNUSED,
    R_WAR_PARTY,
    Decision,
    SetAside,
    Table,
    TrogDecision,
    add_titles,
    finish_pick,
    pick_region,
    question_where,
    read_field,
    start_decision,
)
from havoc.language.i18n import nui, ui

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def decide_move(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Where Trog Units move: the Regions within reach, filtered by the priorities."""
    lang = table.lang
    src = table.region(query.get("from", table.hq.id), "from")
    if table.trogs(src) == 0:
        from havoc.games.cry_havoc.places import units_path  # (an error's wording: loaded on an error only)

        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    "from: "
                    + ui("{region} holds no Trog Units ({path})", lang).format(
                        region=table.rname(src.id), path=units_path(src.id, "trogs", lang, table.pos.regions)
                    ),
                    code=Code.POSITION_UNITS,
                )
            ]
        )
    units = read_field(query, "units", lang, table.trogs(src))
    if units > table.trogs(src):
        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    "units: "
                    + ui("{count} Trog Units would move, but {region} holds {have}", lang).format(
                        count=units, region=table.rname(src.id), have=table.trogs(src)
                    ),
                    code=Code.POSITION_UNITS,
                )
            ]
        )
    reach = read_field(query, "steps", lang, 1)
    d = start_decision(
        table,
        "move",
        nui(
            "Where does {count} Trog Unit from {region} move?",
            "Where do {count} Trog Units from {region} move?",
            units,
            lang,
        ).format(count=units, region=table.rname(src.id)),
    )
    dist = table.distances([src.id])
    candidates: list[str] = []
    for rid, region in table.pos.regions.items():
        if rid == src.id or rid not in dist or dist[rid] > reach:
            continue
        if region.outer:
            d.set_aside.append(SetAside(rid, R_UNUSED, ui("an outer Region is out of play", lang)))
        elif region.hq is not None and region.hq != TROGS:
            d.set_aside.append(SetAside(rid, R_NO_OTHER_HQ, ui("another faction's HQ cannot be entered", lang)))
        elif region.battle is not None:
            d.set_aside.append(SetAside(rid, R_NO_BATTLE_ENTRY, ui("a Battle Region cannot be entered", lang)))
        elif rid != table.hq.id:
            candidates.append(rid)
    if not candidates:
        raise InputError(
            [
                Problem(
                    table.pos.name,
                    None,
                    f"regions.{src.id}.adjacent: "
                    + ui(
                        "no Region the Trogs may enter is within {steps} of {region}; list its neighbours",
                        lang,
                    ).format(steps=f"{reach} " + nui("step", "steps", reach, lang), region=table.rname(src.id)),
                    code=Code.POSITION_INVALID,
                )
            ]
        )
    pick = pick_region(table, candidates, units)
    finish_pick(table, d, pick)
    if d.choice is not None:
        target = table.pos.regions[d.choice]
        d.figures = {"to": d.choice, "units": units, "from": src.id, "steps": dist[d.choice]}
        d.lines.insert(
            0,
            ui("The Trogs move {count} {units} from {src} to {dst}.", lang).format(
                count=units, units=table.units(units), src=table.rname(src.id), dst=table.rname(d.choice)
            ),
        )
        if table.enemy(target) > 0:
            d.also.append(R_HQ_UNITS)
            d.figures["battle"] = True
            d.figures["units-from"] = table.hq.id
            d.lines.append(
                ui(
                    "A Battle follows there; the Trog Units that fight in it come from the Trog HQ ({hq}).", lang
                ).format(hq=table.rname(table.hq.id))
            )
        if target.trog_token == "war-party":
            d.also.append(R_WAR_PARTY)
            d.figures["reveals"] = "war-party"
            d.lines.append(
                ui(
                    "The War Party token is revealed: add its Crystals, move its Trog Units to the Reserve and put a Trog Nest there.",
                    lang,
                )
            )
    else:
        d.figures = {"tied": d.tied, "units": units, "from": src.id}
    add_titles(table, d)
    return d


DECISION = Decision(name="move", handler=decide_move, fields=("from", "units", "steps"), what=ui("where they move"))
