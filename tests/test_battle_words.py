"""A Battle's report lines and notes are kept once said (per ruleset and language, by what they
say): a Battle answered after others said its lines answers exactly as one answered with
nothing kept, in English and Polish, on tables whose Regions are lettered differently."""

from __future__ import annotations

import copy
from itertools import product
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc.engine import rulebook
from havoc.engine.interpreter.answer import render_text
from havoc.games.cry_havoc import position_read
from havoc.games.cry_havoc.answering import answer
from havoc.games.cry_havoc.kinds import battle
from havoc.games.cry_havoc.query import parse_query

FIXTURE = Path(__file__).parent / "fixtures" / "assistant" / "battle-walkthrough.yaml"


def _cases() -> list[tuple[dict[str, Any], dict[str, Any], str]]:
    walk = yaml.safe_load(FIXTURE.read_text())
    lettered = copy.deepcopy(walk)  # one more invented Region first: the Battle's is Region B here, A above
    lettered["regions"] = {"example-a": {"adjacent": []}, **lettered["regions"]}
    trogs = copy.deepcopy(walk)
    trogs["regions"]["example-battle"]["units"] = {"trogs": 3, "humans": 4}
    trogs["regions"]["example-battle"]["battle"]["attacker"] = "trogs"
    out = []
    for lang in ("en", "pl"):
        for table in (walk, lettered):
            for mine, theirs in product(
                ((2, 1, 1), (0, 4, 0), (1, 1, 2), (1, 0, 3)), ((1, 1, 2), (2, 2, 0), (0, 1, 3))
            ):
                objectives = {
                    "pilgrims": dict(zip(("control", "prisoners", "attrition"), mine, strict=True)),
                    "humans": dict(zip(("control", "prisoners", "attrition"), theirs, strict=True)),
                }
                out.append((table, {"ask": "battle", "region": "example-battle", "objectives": objectives}, lang))
        objectives = {"trogs": {"control": 3}, "humans": {"control": 2, "attrition": 2}}
        out.append((trogs, {"ask": "battle", "region": "example-battle", "objectives": objectives}, lang))
        out.append((walk, {"ask": "battle", "region": "example-battle"}, lang))  # no objectives given
    return out


def _answers(cases: list[tuple[dict[str, Any], dict[str, Any], str]]) -> list[tuple[Any, str]]:
    rs = rulebook.load()
    out = []
    for table, query, lang in cases:
        pos = position_read.parse(table, rs)
        got = answer(rs, pos, parse_query(query, pos), lang)
        out.append((got.to_dict(), render_text(got, explain=True)))
    return out


def test_kept_lines_say_what_fresh_ones_say(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases()
    monkeypatch.setattr(battle, "_said", {})
    kept = _answers(cases)  # each Battle after the others said their lines
    assert battle._said  # and they were kept
    fresh = []
    for case in cases:
        monkeypatch.setattr(battle, "_said", {})
        fresh += _answers([case])
    assert kept == fresh
    questions = {d["question"] for d, _ in kept}
    assert {"How does the Battle in Region A end?", "How does the Battle in Region B end?"} <= questions
    assert "Jak kończy się Bitwa w Regionie B?" in questions  # Polish asked too
