"""Stored examples are checks: ``havoc check`` runs every one, not only the test suite.

An example is a position, a question and the expected answer, stored with the rule it
illustrates. A wrong ``expect`` or an example position the assistant refuses is a problem of
the rulebook, reported at the example's file:line like any other.
"""

from __future__ import annotations

from typing import Any

from havoc.core.errors import Code, HavocError, Problem
from havoc.engine.rulebook.model import Example, Ruleset


def is_extra(rs: Ruleset, ex: Example) -> bool:
    """Whether the example asks one of the game's other deciders (``EXTRA_ANSWERS``, such as the
    solo variant's automated side) rather than a question of the rules interpreter."""
    from havoc.engine import game

    return bool(rs.game) and ex.query.get("ask") in game.extra_answers(game.of(rs))


def run(rs: Ruleset, ex: Example) -> list[Problem]:
    """What is wrong with one example (nothing when the assistant agrees with it)."""
    from havoc.assistant import api
    from havoc.engine import game

    def problem(message: str) -> Problem:
        return Problem(ex.loc.file, ex.loc.line, f"example {ex.id}: {message}", code=Code.EXAMPLE_FAILED)

    try:
        pos = game.of(rs).parse_position(ex.position, rs, f"example {ex.id}")
    except HavocError as exc:
        return [problem(f"position: {p.message}") for p in exc.problems]
    got: Any
    if is_extra(rs, ex):  # another decider of the game (game.EXTRA_ANSWERS)
        decide = game.extra_answers(game.of(rs))[str(ex.query["ask"])]
        try:
            got = decide(rs, pos, ex.query)
        except HavocError as exc:
            return [problem(f"the decider refused: {p.message}") for p in exc.problems]
    else:
        try:
            query = api.load_query(ex.query, pos, rs)
        except HavocError as exc:
            return [problem(f"query: {p.message}") for p in exc.problems]
        try:
            got = api.answer_for(rs, pos, query)
        except HavocError as exc:
            return [problem(f"the assistant refused the question: {p.message}") for p in exc.problems]
    expect: dict[str, Any] = ex.expect
    out: list[Problem] = []
    verdict = getattr(got, "verdict_value", got.verdict)  # true, false, null or "no-unless"
    if "verdict" in expect and verdict != expect["verdict"]:
        out.append(problem(f"expect.verdict is {expect['verdict']!r}, the assistant answers {verdict!r}"))
    figures = expect.get("figures") or {}
    for name, value in figures.items() if isinstance(figures, dict) else ():
        if name not in got.figures:
            out.append(
                problem(f"expect.figures.{name}: the answer has no such figure ({', '.join(sorted(got.figures))})")
            )
        elif got.figures[name] != value:
            out.append(problem(f"expect.figures.{name} is {value!r}, the assistant computes {got.figures[name]!r}"))
    wanted = [str(r) for r in expect.get("rules") or []]
    missing = [r for r in wanted if r not in got.rule_ids]
    if missing:
        out.append(
            problem(f"expect.rules: {', '.join(missing)} not cited (the answer cites {', '.join(got.rule_ids)})")
        )
    return out


def run_all(rs: Ruleset) -> tuple[int, list[Problem]]:
    """How many examples ran, and every problem they found."""
    examples = [ex for rule in rs.rules.values() for ex in rule.examples]
    problems = [p for ex in examples for p in run(rs, ex)]
    return len(examples), problems
