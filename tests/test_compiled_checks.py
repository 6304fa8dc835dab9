"""A check compiled as one Python function (what a server or a loop of questions runs) answers
exactly as the same check compiled as closures (what one short `havoc ask` runs): the same
verdicts, figures, facts cited in the same order, the same errors."""

from __future__ import annotations

from typing import Any

import pytest
import stored_examples

from havoc.assistant import api
from havoc.engine import rulebook
from havoc.engine.interpreter import engine as engine_module
from havoc.engine.interpreter.answer import render_text
from havoc.engine.interpreter.expr import ExprError, compile_expr, compile_source


class _Impl:
    def __init__(self, fn: Any) -> None:
        self.fn = fn


class _Ctx:
    """The little an expression needs of a game's context."""

    def __init__(self, facts: dict[str, Any]) -> None:
        self.facts = facts
        self.cache: dict[str, Any] = {}
        self.used: dict[str, Any] = {}
        self.figs: dict[str, Any] = {}
        self.fig_src: dict[str, Any] = {}
        self.fig_busy: set[str] = set()
        self.to = "there"

    def subject(self, name: str) -> str:
        return self.to


def _resolve(name: str) -> Any:
    if name.startswith("to."):
        return _Impl(lambda ctx, region: ctx.facts[name] if region == "there" else None), "to"
    return (_Impl(lambda ctx: ctx.facts[name]), None) if name != "missing" else None


def _both(e: Any, facts: dict[str, Any]) -> list[tuple[str, Any, dict[str, Any]]]:
    """What each compiled form gives: its value (or its error) and the facts it read, in order."""
    out = []
    for compile_ in (compile_expr, compile_source):
        fn = compile_(e, {"cap": 3}.__getitem__, _resolve)
        ctx = _Ctx(facts)
        try:
            got: Any = ("value", fn(ctx))
        except (ExprError, ZeroDivisionError, TypeError) as exc:
            got = ("error", f"{type(exc).__name__}: {exc}")
        out.append((*got, list(ctx.used.items())))
    return out


FACTS = {"a": 2, "b": 0, "yes": True, "no": False, "name": "x", "to.n": 5}


@pytest.mark.parametrize(
    "e",
    [
        {"all": [{"fact": "yes"}, {"fact": "no"}, {"fact": "a"}]},  # stops at the first "no"
        {"any": [{"fact": "no"}, {"fact": "yes"}, {"fact": "a"}]},  # stops at the first "yes"
        {"all": []},
        {"any": []},
        {"not": {"fact": "no"}},
        {"le": [{"fact": "a"}, {"param": "cap"}]},
        {"gt": [{"fact": "name"}, 1]},  # cannot compare: the same error
        {"eq": [{"fact": "to.n"}, 5]},
        {"in": [{"fact": "name"}, ["x", "y"]]},
        {"div-ceil": [{"fact": "a"}, {"fact": "b"}]},  # division by zero
        {"div-floor": [{"add": [{"fact": "a"}, 7]}, {"sub": [{"fact": "a"}, {"fact": "b"}]}]},
        {"add": [{"fact": "a"}, {"fact": "yes"}, 4]},
        {"max": [{"fact": "a"}, {"fact": "name"}, {"fact": "b"}]},  # not a number, after reading two facts
        {"sub": [{"fact": "name"}, {"fact": "a"}]},
        [{"fact": "a"}, {"not": {"fact": "yes"}}, "literal"],
        {"all": [{"any": [{"fact": "no"}, {"le": [{"fact": "b"}, 1]}]}, {"not": {"fact": "no"}}]},
    ],
)
def test_both_compiled_forms_agree(e: Any) -> None:
    closures, source = _both(e, FACTS)
    assert source == closures


def test_a_figure_is_read_as_the_closures_read_it() -> None:
    e = {"add": [{"figure": "base"}, 1]}
    for compile_ in (compile_expr, compile_source):
        ctx = _Ctx(FACTS)
        ctx.fig_src = {"base": compile_({"mul": [{"fact": "a"}, 3]}, {}.__getitem__, _resolve)}
        assert compile_(e, {}.__getitem__, _resolve)(ctx) == 7
        assert ctx.figs == {"base": 6} and ctx.used == {"a": 2}


def _answers() -> list[str]:
    """Every stored example's answer, as JSON and as text with the trace, in both languages."""
    rs = rulebook.load("cry-havoc")
    out = []
    for ex, pos, query in stored_examples.asked(rs):
        for lang in ("en", "pl"):
            got = api.answer_for(rs, pos, query, lang)
            out.append(f"{ex.id} {lang} {got.to_dict()!r}\n{render_text(got, True)}")
    return out


def test_every_example_answers_alike_with_either_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_module, "_engines", {})
    monkeypatch.setattr(engine_module, "_CLOSURE_USES", 10**9)  # closures only
    closures = _answers()
    assert not any(cr.fast for e in engine_module._engines.values() for cr in e._compiled.values())
    assert not any(e._programs for e in engine_module._engines.values())
    monkeypatch.setattr(engine_module, "_engines", {})
    monkeypatch.setattr(engine_module, "_CLOSURE_USES", 0)  # functions from the first question on
    source = _answers()
    assert all(cr.fast for e in engine_module._engines.values() for cr in e._compiled.values())
    # and each kind's rules as one function (what evaluate runs when no filter is given)
    assert all(p is not None for e in engine_module._engines.values() for p in e._programs.values())
    assert len(source) > 100
    assert source == closures


def _rule(rid: str, applies: Any = None, requires: Any = None, figures: dict[str, Any] | None = None) -> Any:
    from types import SimpleNamespace

    check = SimpleNamespace(applies_if=applies, requires=requires, figures=figures or {})
    return SimpleNamespace(id=rid, check=check, loc=SimpleNamespace(file="rules/x.yaml", line=7))


RULES = [
    _rule("always", requires={"all": [{"fact": "yes"}, {"le": [{"fact": "a"}, {"param": "cap"}]}]}),
    _rule("skipped", applies={"fact": "no"}, requires={"fact": "missing-never-read"}),
    _rule(
        "figures",
        applies={"fact": "yes"},
        requires={"le": [{"figure": "total"}, {"fact": "to.n"}]},
        figures={"total": {"add": [{"figure": "base"}, 1]}, "base": {"mul": [{"fact": "a"}, 2]}},
    ),
    _rule("no-requirement", figures={"only": {"fact": "name"}}),
    _rule("fails", requires={"not": {"fact": "yes"}}),
]


def _evaluated(rules: list[Any], program: bool, warm: bool = False) -> Any:
    """One kind's rules evaluated by the engine's loop or by the kind's one function."""
    eng: Any = engine_module.Engine.__new__(engine_module.Engine)
    crs = []
    for rule in rules:
        c = rule.check
        figs = {n: compile_source(e, {"cap": 3}.__getitem__, _resolve) for n, e in c.figures.items()}
        cr = engine_module.CompiledRule(
            rule,
            compile_source(c.applies_if, {"cap": 3}.__getitem__, _resolve) if c.applies_if is not None else None,
            compile_source(c.requires, {"cap": 3}.__getitem__, _resolve) if c.requires is not None else None,
            figs,
            frozenset(),
        )
        cr.fast = True
        crs.append(cr)
    eng.by_kind = {"k": crs}
    eng._programs = {
        "k": tuple(engine_module.rules_source(crs, {"cap": 3}.__getitem__, _resolve, fresh) for fresh in (True, False))
        if program
        else None
    }
    ctx = _Ctx(FACTS)
    if warm:  # a context that has read facts before: the function for any context
        ctx.cache.update({"a": FACTS["a"], "to.n": FACTS["to.n"]})
    try:
        found = eng.evaluate("k", ctx)
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))
    # and the context as the loop leaves it: the last rule's facts and figures (a "no" explained later reads them)
    last = (list(ctx.used.items()), list(ctx.figs.items()), list(ctx.fig_src))
    return [(r.rule.id, r.passed, list(r.figures.items()), list(r.facts.items())) for r in found], last


def test_a_kinds_rules_as_one_function_evaluate_as_the_loop() -> None:
    loop = _evaluated(RULES, program=False)
    assert [r[0] for r in loop[0]] == ["always", "figures", "no-requirement", "fails"]
    assert loop[1] == ([("yes", True)], [], [])
    assert _evaluated(RULES, program=True) == loop
    for i in range(len(RULES)):  # whichever rule comes last (with figures or without, applying or not)
        order = RULES[i:] + RULES[:i]
        for warm in (False, True):
            assert _evaluated(order, program=True, warm=warm) == _evaluated(order, program=False, warm=warm)


def test_a_failing_check_is_the_same_located_error_either_way() -> None:
    broken = [*RULES[:2], _rule("divides", requires={"eq": [{"div-ceil": [{"fact": "a"}, {"fact": "b"}]}, 1]})]
    loop = _evaluated(broken, program=False)
    assert loop[0] == "error" and "rule divides.check: division by zero" in loop[2]
    assert _evaluated(broken, program=True) == loop
    assert _evaluated(broken, program=True, warm=True) == _evaluated(broken, program=False, warm=True)


def _judged(rules: list[Any], warm: bool) -> Any:
    """The legal-actions probes' question of ``rules``: does none say no? (holds_source), with the facts read."""
    judges = [
        engine_module.CompiledRule(
            rule,
            compile_source(rule.check.applies_if, {"cap": 3}.__getitem__, _resolve)
            if rule.check.applies_if is not None
            else None,
            compile_source(rule.check.requires, {"cap": 3}.__getitem__, _resolve),
            {n: compile_source(e, {"cap": 3}.__getitem__, _resolve) for n, e in rule.check.figures.items()},
            frozenset(),
        )
        for rule in rules
        if rule.check.requires is not None
    ]
    ctx = _Ctx(FACTS)
    if warm:
        ctx.cache.update({"a": FACTS["a"], "to.n": FACTS["to.n"]})
    program = engine_module.holds_source(judges, {"cap": 3}.__getitem__, _resolve, fresh=not warm)
    try:
        return program(ctx), dict(ctx.used)
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))


def test_whether_no_rule_says_no_is_the_loops_verdict_as_one_function() -> None:
    for i in range(len(RULES)):
        order = RULES[i:] + RULES[:i]
        for warm in (False, True):
            loop = _evaluated(order, program=False, warm=warm)[0]
            said_no = [n for n, r in enumerate(loop) if r[1] is False]
            yes, used = _judged(order, warm)
            assert yes is not said_no  # "fails" says no, wherever it comes
            assert yes == (not said_no)
            # the facts read: those of the rules up to the first that says no (figures read when needed)
            expected: dict[str, Any] = {}
            for r in loop[: said_no[0] + 1] if said_no else loop:
                if r[0] != "no-requirement":
                    expected.update(r[3])
            if order.index(RULES[1]) < (order.index(RULES[4])):  # "skipped": its applies-if is read
                expected["no"] = False
            assert used == expected
    assert _judged(RULES[:4], warm=False)[0] is True  # without the rule that says no


def test_a_failing_check_is_its_located_error_in_the_probes_function_too() -> None:
    broken = [*RULES[:2], _rule("divides", requires={"eq": [{"div-ceil": [{"fact": "a"}, {"fact": "b"}]}, 1]})]
    assert _judged(broken, warm=False) == _evaluated(broken, program=False)
    assert _judged([*broken, RULES[4]], warm=True) == _evaluated(broken, program=False, warm=True)
    assert _judged([RULES[4], *broken], warm=False)[0] is False  # a no before it ends the question first


def _legal_lists() -> list[str]:
    """The legal-actions list of every faction on the assistant's fixture tables, en and pl."""
    from pathlib import Path

    from havoc.games.cry_havoc import position_read

    rs = rulebook.load()
    out = []
    for path in sorted((Path(__file__).parent / "fixtures" / "assistant").glob("*.yaml")):
        pos = position_read.parse_text(path.read_text(encoding="utf-8"), rs, path.stem)
        for faction in pos.players:
            query = api.load_query({"ask": "legal", "faction": faction}, pos, rs)
            for lang in ("en", "pl"):
                got = api.answer_for(rs, pos, query, lang)
                out.append(f"{path.stem} {faction} {lang} {got.to_dict()!r}\n{render_text(got, True)}")
    return out


def test_the_legal_actions_list_is_the_same_with_its_probes_as_generated_functions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from havoc.games.cry_havoc import subsets

    monkeypatch.setattr(engine_module, "_engines", {})
    monkeypatch.setattr(engine_module, "_CLOSURE_USES", 10**9)  # the probes' loops over closures
    closures = _legal_lists()
    assert not any(c.yes or c.programs for c in subsets._subsets.values() if c.eng in engine_module._engines.values())
    monkeypatch.setattr(engine_module, "_engines", {})
    monkeypatch.setattr(engine_module, "_CLOSURE_USES", 0)  # one generated function per probe from the first
    functions = _legal_lists()
    made = [c for c in subsets._subsets.values() if c.eng in engine_module._engines.values()]
    assert any(c.yes for c in made) and any(c.programs for c in made)
    assert len(functions) >= 16 and any("✓" in text for text in functions) and any("✗" in text for text in functions)
    assert functions == closures
