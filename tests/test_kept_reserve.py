"""A faction's Reserve is counted once per table (kept.reserve): the same table object asked
for another faction, and tables that differ in one Unit, list what a table asked nothing
before lists (the Recruit line's limit is the Reserve)."""

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
from havoc.games.cry_havoc.query import parse_compact

FIXTURE = Path(__file__).parent / "fixtures" / "assistant" / "leave-8-vs-3.yaml"


def _said(rs: Any, pos: Any, question: str) -> tuple[Any, str]:
    got = answer(rs, pos, parse_compact(question.split(), pos), "en")
    return got.to_dict(), render_text(got, explain=True)


def _fresh(rs: Any, table: dict[str, Any], question: str) -> tuple[Any, str]:
    kept._tables.clear()
    return _said(rs, position_read.parse(copy.deepcopy(table), rs), question)


def _recruits(said: tuple[Any, str]) -> Any:
    return next(a["limits"] for a in said[0]["details"]["actions"] if a["action"] == "recruit")


LEGAL = "legal faction=humans"
PILGRIMS = "recruit faction=pilgrims region=example-c units=1 points=20"  # may-recruit: their Reserve


def test_reserve_kept_per_table_and_faction(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = rulebook.load()
    monkeypatch.setattr(kept, "_tables", {})
    table = yaml.safe_load(FIXTURE.read_text())
    table["regions"]["example-c"] = {"hq": "pilgrims", "adjacent": ["example-b"]}
    one_more = copy.deepcopy(table)  # one more Humans Unit on the board: one fewer in their Reserve
    one_more["regions"]["example-b"]["units"] = {"humans": 1}
    asks = [(table, LEGAL), (table, PILGRIMS), (one_more, LEGAL)]
    fresh = [_fresh(rs, t, question) for t, question in asks]
    kept._tables.clear()
    pos = position_read.parse(copy.deepcopy(table), rs)
    other = position_read.parse(copy.deepcopy(one_more), rs)
    asked = [_said(rs, pos, LEGAL), _said(rs, pos, PILGRIMS), _said(rs, other, LEGAL)]
    assert asked == fresh
    assert ("reserve", "humans") in kept.of(pos) and ("reserve", "pilgrims") in kept.of(pos)
    assert pos.reserve("humans") != pos.reserve("pilgrims")
    assert asked[1][0]["figures"]["may-recruit"] == pos.reserve("pilgrims")
    humans, more = _recruits(asked[0]), _recruits(asked[2])
    assert humans["units"] == pos.reserve("humans") and more["units"] == humans["units"] - 1
