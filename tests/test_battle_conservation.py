"""Battles neither create nor lose Units, and a placement that does not fit the table is refused.

Seed 003 ("B. Rozmieśćcie Oddziały na Celach Bitwy"): each side places its Units *from that
Battle Region* on the objectives. So for every faction, the Units back in the Region plus
those that retreat, were killed or were taken prisoner equal the Units that were in the
Region (plus or minus what a card named in the question added or removed).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from havoc.core.errors import InputError
from havoc.engine import rulebook
from havoc.games.cry_havoc import position_read
from havoc.games.cry_havoc.answering import answer
from havoc.games.cry_havoc.contract import FACTIONS
from havoc.games.cry_havoc.query import parse_compact, parse_query

PLAYERS = [f for f in FACTIONS if f != "trogs"]


@st.composite
def battles(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], dict[str, int]]:
    players = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=3, unique=True))
    attacker = draw(st.sampled_from([*players, "trogs"]))
    defender = draw(st.sampled_from([f for f in [*players, "trogs"] if f != attacker]))
    a_units = draw(st.integers(1, 8))
    d_units = draw(st.integers(1, 8))
    neighbours = draw(st.lists(st.sampled_from(["example-b", "example-c", "example-d"]), unique=True, max_size=3))
    regions: dict[str, Any] = {
        "example-a": {
            "units": {attacker: a_units, defender: d_units},
            "battle": {"token": 1, "attacker": attacker},
            "adjacent": neighbours,
        }
    }
    for n in neighbours:
        regions[n] = {"control": draw(st.sampled_from([None, *players]))}
        if regions[n]["control"] is None:
            del regions[n]["control"]
    pos = {"players": players, "round": 2, "phase": "battle-resolution", "regions": regions}

    def split(total: int) -> dict[str, int]:
        c = draw(st.integers(0, total))
        p = draw(st.integers(0, total - c))
        return {"control": c, "prisoners": p, "attrition": total - c - p}

    change = {}
    query: dict[str, Any] = {"ask": "battle", "region": "example-a", "faction": attacker}
    if draw(st.booleans()):
        change = {defender: draw(st.integers(-d_units, 0))}
        query.update(card="example-card", **{"card-units": change})
    query["objectives"] = {attacker: split(a_units), defender: split(d_units + change.get(defender, 0))}
    if draw(st.booleans()):
        query["capture-from"] = draw(st.sampled_from(["control", "prisoners", "attrition"]))
    return pos, query, {attacker: a_units, defender: d_units + change.get(defender, 0)}


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@settings(max_examples=150, deadline=None)
@given(battles())
def test_units_are_conserved(case: tuple[dict[str, Any], dict[str, Any], dict[str, int]]) -> None:
    pos_data, query_data, involved = case
    rs = rulebook.load()
    pos = position_read.parse(pos_data, rs)
    got = answer(rs, pos, parse_query(query_data, pos))
    f = got.figures
    sides = list(involved)
    for side in sides:
        enemy = next(s for s in sides if s != side)
        accounted = f["returned"][side] + f["retreated"][side] + f["kills-by"][enemy] + f["prisoners-by"][enemy]
        assert accounted == involved[side], (side, f)
        assert f["survivors"][side] == f["returned"][side] + f["retreated"][side]


POS = {
    "players": ["humans", "pilgrims"],
    "phase": "battle-resolution",
    "regions": {
        "swamp": {"units": {"pilgrims": 1, "humans": 2}, "battle": {"token": 1, "attacker": "pilgrims"}},
    },
}


def _ask(words: list[str]) -> Any:
    rs = rulebook.load()
    pos = position_read.parse(POS, rs)
    return answer(rs, pos, parse_compact(words, pos))


def test_a_battle_that_cannot_happen_is_refused() -> None:
    """Issue 9: 1 Pilgrim and 2 Humans; `pilgrims=5/0/0 humans=0/0/0` used to answer a win."""
    with pytest.raises(InputError) as err:
        _ask(["battle", "swamp", "pilgrims=5/0/0", "humans=0/0/0"])
    text = str(err.value)
    assert "objectives.pilgrims" in text and "exactly 1" in text
    assert "objectives.humans" in text and "exactly 2" in text


def test_a_named_card_may_add_a_unit() -> None:
    got = _ask(["battle", "swamp", "pilgrims=1/0/0", "humans=1/1/1", "card=air-support", "card-units=humans:1"])
    assert got.figures["units-in-region"] == {"pilgrims": 1, "humans": 2}
    assert got.figures["control-winner"] == "humans"


def test_card_units_need_the_card_named() -> None:
    with pytest.raises(InputError, match="card-units"):
        _ask(["battle", "swamp", "pilgrims=1/0/0", "humans=1/1/1", "card-units=humans:1"])


@pytest.mark.parametrize(
    ("words", "field"),
    [
        (["move", "humans", "from=example-a", "to=example-b", "units=5"], "units"),
        (["prisoners", "humans", "units=2"], "units"),
        (["retreat", "humans", "from=example-a", "to=example-b", "units=4"], "units"),
    ],
)
def test_counts_are_checked_against_the_table(words: list[str], field: str) -> None:
    rs = rulebook.load()
    pos = position_read.parse(
        {
            "players": ["humans", "pilgrims"],
            "turn": "humans",
            "factions": {"humans": {"reserve": 3}, "pilgrims": {"prisoners": {"humans": 1}}},
            "regions": {"example-a": {"units": {"humans": 3}, "adjacent": ["example-b"]}, "example-b": {}},
        },
        rs,
    )
    with pytest.raises(InputError) as err:
        parse_compact(words, pos)
    assert f"{field}:" in str(err.value)
