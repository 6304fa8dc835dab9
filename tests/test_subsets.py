"""A Battle step's rules (and the retreat rules about a destination) evaluated by one generated
function give what the engine's loop over the kind's rules with ``only=`` gives, rule by rule:
the same verdicts, figures and facts read, in the same order, for a fresh context and for one
that has read facts before."""

from __future__ import annotations

from itertools import product
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc.engine import rulebook
from havoc.engine.interpreter import engine as engine_module
from havoc.games import cry_havoc
from havoc.games.cry_havoc import position_read, retreats
from havoc.games.cry_havoc.facts import BattleState, Context
from havoc.games.cry_havoc.kinds import battle
from havoc.games.cry_havoc.query import parse_query
from havoc.games.cry_havoc.subsets import subset

FIXTURE = Path(__file__).parent / "fixtures" / "assistant" / "battle-walkthrough.yaml"
STEPS = {
    "pre": battle.PRE,
    "control": battle.CONTROL,
    "prisoners": battle.PRISONERS,
    "attrition": battle.ATTRITION,
}


def _said(results: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.rule.id, r.passed, list(r.figures.items()), list(r.facts.items())) for r in results]


def _contexts(pos: Any, q: Any, kind: str) -> list[Context]:
    """Both sides with every placement of their Units on the objectives (a Battle's step), or
    each neighbour as a retreat destination."""
    region = pos.regions["example-battle"]
    out = []
    if kind == "retreat":
        for side, to in product(("pilgrims", "humans"), sorted(region.neighbours)):
            out.append(Context(pos, q, side, region=region, frm=region, to=pos.regions[to], retreat_destinations=1))
        return out
    splits = [(c, p, 4 - c - p) for c, p in product(range(5), range(5)) if c + p <= 4]
    for side, mine, theirs in product(("pilgrims", "humans"), splits, splits[::5]):
        other = "humans" if side == "pilgrims" else "pilgrims"
        placed = {
            side: dict(zip(("control", "prisoners", "attrition"), mine, strict=True)),
            other: dict(zip(("control", "prisoners", "attrition"), theirs, strict=True)),
        }
        out.append(Context(pos, q, side, region=region, battle=BattleState("pilgrims", "humans", placed)))
    return out


def _evaluations(monkeypatch: pytest.MonkeyPatch, uses: int) -> tuple[list[Any], list[Any], bool]:
    """Every step's and retreat test's results, by the Subset and by the engine's loop, in a
    fresh engine that compiles its checks as functions after ``uses`` questions."""
    monkeypatch.setattr(engine_module, "_engines", {})
    monkeypatch.setattr(engine_module, "_CLOSURE_USES", uses)
    rs = rulebook.load()
    pos = position_read.parse(yaml.safe_load(FIXTURE.read_text()), rs, "battle")
    q = parse_query({"ask": "battle", "region": "example-battle"}, pos)
    eng = engine_module.engine(rs, pos.variant, cry_havoc)
    tests: list[tuple[str, Any, Any]] = [
        *(("battle", key, battle._stage(names)) for key, names in STEPS.items()),
        ("retreat", "to", retreats._needs_to),
        ("retreat", "not to", retreats._not_to),
    ]
    by_subset, by_loop = [], []
    compiled = True
    for kind, key, test in tests:
        s = subset(eng, kind, ("test", key), lambda test=test: test)
        for ctx, again in zip(_contexts(pos, q, kind), _contexts(pos, q, kind), strict=True):
            by_subset.append(_said(s.evaluate(ctx)))
            by_loop.append(_said(eng.evaluate(kind, again, only=s.only)))
            if ctx.cache:  # and once more, with the facts it read kept (the function for any context)
                by_subset.append(_said(s.evaluate(ctx)))
                by_loop.append(_said(eng.evaluate(kind, again, only=s.only)))
        compiled = compiled and bool(s.programs)
    return by_subset, by_loop, compiled


def test_a_steps_rules_as_one_function_evaluate_as_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    closures_subset, closures_loop, compiled = _evaluations(monkeypatch, 10**9)  # never compiled
    assert not compiled
    assert closures_subset == closures_loop
    functions, loop, compiled = _evaluations(monkeypatch, 0)  # compiled from the first question
    assert compiled
    assert functions == loop == closures_loop
    assert sum(1 for found in loop if found) > 50  # the steps say something
    assert any(r[1] is False for found in loop for r in found)  # and some rule says no
