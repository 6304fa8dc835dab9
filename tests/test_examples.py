"""Examples are tests: every worked example stored with a rule runs through the assistant.

An example is a position, a question and the expected answer. The verdict must match
exactly, every listed figure must have exactly the listed value, and the listed rules must
be among the rules the answer cites; for a "no", they must be exactly the rules that said no.
"""

from __future__ import annotations

from typing import Any

import pytest
import stored_examples

from havoc.engine import rulebook
from havoc.engine.rulebook.model import Example
from havoc.games.cry_havoc.answering import answer

# Solo Trog decisions (ask: trogs) run through their own engine: tests/test_solo_trogs.py.
EXAMPLES = stored_examples.examples()


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 25


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_example(ex: Example) -> None:
    rs = rulebook.load()
    _ex, pos, query = stored_examples.read(rs, ex)
    got = answer(rs, pos, query)
    expect: dict[str, Any] = ex.expect
    where = f"{ex.loc} ({ex.id})"
    assert got.verdict_value == expect["verdict"], (
        f"{where}: verdict {got.verdict_value}, expected {expect['verdict']}; cited {got.rule_ids}"
    )
    for name, value in (expect.get("figures") or {}).items():
        assert name in got.figures, f"{where}: no figure {name!r}; the answer has {sorted(got.figures)}"
        assert got.figures[name] == value, f"{where}: figure {name} = {got.figures[name]!r}, expected {value!r}"
    wanted = list(expect.get("rules") or [])
    missing = [r for r in wanted if r not in got.rule_ids]
    assert not missing, f"{where}: rules {missing} not cited; the answer cites {got.rule_ids}"
    if got.verdict is False and got.kind not in {"winner"}:
        said_no = sorted({d.id for d in got.rules if d.passed is False})
        if said_no:
            assert sorted(set(wanted) - set(got.unless)) == said_no, (
                f"{where}: the rules that said no are {said_no}, the example lists {wanted}"
            )


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_example_renders_in_both_languages(ex: Example) -> None:
    """The site renders every example: the answer must render as text and JSON, en and pl."""
    import json

    from havoc.engine.interpreter.answer import render_text

    rs = rulebook.load()
    _ex, pos, query = stored_examples.read(rs, ex)
    for lang in ("en", "pl"):
        got = answer(rs, pos, query, lang)
        assert render_text(got).strip()
        json.dumps(got.to_dict(), ensure_ascii=False)


SEED_003_WORKED_EXAMPLES = {
    # The worked examples of the official rulebook that issue 5 names, by what they show.
    "move examples": ["ex-move-points-4", "ex-move-three-regions", "ex-move-scorch-control", "ex-move-sapos-camerons"],
    "leaving a battle 8 vs 3": ["ex-leave-8-vs-3"],
    "recruit 5": ["ex-recruit-5"],
    "build with 5 points": ["ex-build-5"],
    "the battle walk-through": [
        "ex-battle-walkthrough-tactics",
        "ex-battle-walkthrough-control",
        "ex-battle-walkthrough-prisoners",
        "ex-battle-walkthrough-attrition",
        "ex-battle-walkthrough-retreat",
    ],
    "prisoner buy-back for 4 VP": ["ex-prisoners-buy-back-4"],
    "scoring 12 and 5": ["ex-scoring-pilgrims", "ex-scoring-machines"],
    "Trogs 7 crystals → 4": ["ex-trogs-7-crystals"],
}


@pytest.mark.parametrize("what", sorted(SEED_003_WORKED_EXAMPLES))
def test_rulebook_worked_examples_are_stored(what: str) -> None:
    ids = {ex.id for ex in EXAMPLES}
    missing = [e for e in SEED_003_WORKED_EXAMPLES[what] if e not in ids]
    assert not missing, f"{what}: no stored example {missing}"
