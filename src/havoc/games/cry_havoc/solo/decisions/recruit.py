"""The solo Trogs decision ``recruit``: where recruited Trogs go."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.games.cry_havoc.contract import TROGS
from havoc.games.cry_havoc.solo.engine import (
    R_RECRUIT,
    Decision,
    Table,
    TrogDecision,
    add_titles,
    read_field,
    start_decision,
)
from havoc.language.i18n import nui, ui


def decide_recruit(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Recruited Trogs always go to the Trog HQ, as many as the Reserve holds."""
    lang = table.lang
    want = read_field(query, "units", lang)
    have = table.pos.reserve(TROGS)
    got = min(want, have)
    d = start_decision(
        table,
        "recruit",
        nui("Where does {count} recruited Trog go?", "Where do {count} recruited Trogs go?", want, lang).format(
            count=want
        ),
    )
    d.choice, d.rule = table.hq.id, R_RECRUIT
    d.figures = {"to": table.hq.id, "recruited": got, "reserve": have}
    d.lines.append(
        ui("The Trogs recruit {count} {units} into their HQ ({hq}).", lang).format(
            count=got, units=table.units(got), hq=table.rname(table.hq.id)
        )
    )
    if got < want:
        d.lines.append(
            nui(
                "Only {have} Trog Unit is in the Reserve.", "Only {have} Trog Units are in the Reserve.", have, lang
            ).format(have=have)
        )
    add_titles(table, d)
    return d


DECISION = Decision(
    name="recruit", handler=decide_recruit, fields=("units",), needed=("units",), what=ui("where recruits go")
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any
