"""What a Battle works out before it reads the objectives is kept with the table (kept.py): the
same table object asked other questions (other objectives, asker, language, capture order) and
tables that differ in one Unit or token answer exactly as a table asked nothing before."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc.engine import rulebook
from havoc.engine.interpreter.answer import render_text
from havoc.games.cry_havoc import kept, position_read
from havoc.games.cry_havoc.answering import answer
from havoc.games.cry_havoc.query import parse_query

FIXTURE = Path(__file__).parent / "fixtures" / "assistant" / "battle-walkthrough.yaml"


def _objectives(p: tuple[int, int, int], h: tuple[int, int, int]) -> dict[str, Any]:
    names = ("control", "prisoners", "attrition")
    return {"pilgrims": dict(zip(names, p, strict=True)), "humans": dict(zip(names, h, strict=True))}


# each asked in turn about one table object: the winner (so the side that retreats), the asker,
# the language and the capture order change from one question to the next
QUESTIONS: list[tuple[dict[str, Any], str]] = [
    ({"objectives": _objectives((3, 1, 0), (1, 1, 2))}, "en"),  # the Pilgrims win: the Humans retreat
    ({"objectives": _objectives((0, 1, 3), (3, 1, 0))}, "en"),  # the Humans win: the Pilgrims retreat
    ({"objectives": _objectives((0, 1, 3), (3, 1, 0)), "faction": "humans"}, "en"),
    ({"objectives": _objectives((3, 1, 0), (1, 1, 2)), "faction": "pilgrims"}, "pl"),
    ({"objectives": _objectives((2, 2, 0), (1, 0, 3)), "capture-from": "control"}, "pl"),
    ({"objectives": _objectives((4, 0, 0), (4, 0, 0))}, "en"),  # nobody is left to retreat
    ({}, "pl"),  # no objectives: the opening only
]


def _said(rs: Any, pos: Any, extra: dict[str, Any], lang: str) -> tuple[Any, str]:
    q = parse_query({"ask": "battle", "region": "example-battle", **extra}, pos)
    got = answer(rs, pos, q, lang)
    return got.to_dict(), render_text(got, explain=True)


def _fresh(rs: Any, table: dict[str, Any], extra: dict[str, Any], lang: str) -> tuple[Any, str]:
    """The answer on a table asked nothing before (a new object, nothing kept)."""
    kept._tables.clear()
    return _said(rs, position_read.parse(copy.deepcopy(table), rs), extra, lang)


def _tables() -> list[dict[str, Any]]:
    walk = yaml.safe_load(FIXTURE.read_text())
    walk["regions"]["example-c"]["control"] = "humans"  # a way out for the Humans
    blocked = copy.deepcopy(walk)  # the Pilgrims' Control token there instead: no way out
    blocked["regions"]["example-c"]["control"] = "pilgrims"
    more = copy.deepcopy(walk)  # one more Humans Unit in the Battle
    more["regions"]["example-battle"]["units"]["humans"] = 5
    return [walk, blocked, more]


def test_one_table_asked_other_questions_answers_as_fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = rulebook.load()
    monkeypatch.setattr(kept, "_tables", {})
    table = _tables()[0]
    fresh = [_fresh(rs, table, extra, lang) for extra, lang in QUESTIONS]
    kept._tables.clear()
    pos = position_read.parse(copy.deepcopy(table), rs)
    asked = [_said(rs, pos, extra, lang) for extra, lang in QUESTIONS]
    assert kept.of(pos)  # the opening was kept with the table
    assert asked == fresh
    # the retreats differ: the Humans' and the Pilgrims' (a kept retreat is the loser's own)
    assert asked[0][0]["figures"]["retreat-to"] != asked[1][0]["figures"]["retreat-to"]


def test_tables_that_differ_in_one_unit_answer_as_fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = rulebook.load()
    monkeypatch.setattr(kept, "_tables", {})
    walk, blocked, more = _tables()
    asks = [
        (walk, {"objectives": _objectives((3, 1, 0), (1, 1, 2))}),
        (blocked, {"objectives": _objectives((3, 1, 0), (1, 1, 2))}),
        (more, {"objectives": _objectives((3, 1, 0), (1, 1, 3))}),
    ]
    fresh = [_fresh(rs, t, extra, "en") for t, extra in asks]
    kept._tables.clear()
    asked = [_said(rs, position_read.parse(copy.deepcopy(t), rs), extra, "en") for t, extra in asks]  # in turn
    assert asked == fresh
    routes = [a[0]["figures"]["retreat-to"] for a in asked]
    assert routes[0] != routes[1]  # the enemy Control token next door closes the way out
    survivors = [a[0]["figures"]["survivors"]["humans"] for a in asked]
    assert survivors[2] == survivors[0] + 1  # the one more Unit survives the Attrition


def test_kept_tables_are_their_own_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = rulebook.load()
    monkeypatch.setattr(kept, "_tables", {})
    table = _tables()[0]
    first, equal = (position_read.parse(copy.deepcopy(table), rs) for _ in range(2))
    assert first == equal and kept.of(first) is not kept.of(equal)  # an equal table is another table
    kept.of(first)["x"] = 1
    assert kept.of(first) == {"x": 1} and kept.of(equal) == {}
    more = [position_read.parse(copy.deepcopy(table), rs) for _ in range(kept.TABLES_KEPT)]
    for pos in more:
        kept.of(pos)
    assert len(kept._tables) <= kept.TABLES_KEPT
    assert kept.of(first) == {}  # the oldest went: asked again, it starts afresh
    for n in range(kept.RESULTS_KEPT + 1):
        kept.put(kept.of(equal), n, n)
    assert len(kept.of(equal)) <= kept.RESULTS_KEPT
