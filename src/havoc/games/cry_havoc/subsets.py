"""Some of a kind's rules, evaluated as one: a step of a Battle, the retreat rules about a
destination, the rules a legal-actions probe reads.

A mechanism that reads only some rules of a kind (the Battle's Region Control, the retreat
rules that test a neighbour, a probe's candidates) would ask :meth:`Engine.evaluate` with
``only=``; that loop still tests every rule of the kind on every call. A :class:`Subset` picks
the rules once per engine, kind and key (a rule's figures and needs never change): in reading
order, as a set lookup for ``only=``, and those that can say no (a requirement). Once the
engine has compiled the kind's checks as functions (it does after a few questions), each of its
two loops is one generated function, made when first needed:

- :meth:`Subset.evaluate`, what ``evaluate`` does for those rules
  (:func:`~havoc.engine.interpreter.engine.rules_source`: the same results, facts, short-circuits and
  errors, in the same order);
- :meth:`Subset.holds`, whether none of them says no (:func:`~havoc.engine.interpreter.engine.
  holds_source`: the first no ends it, nothing recorded).

This is the one place such a choice is made: kinds/battle.py, retreats.py and the
legal-actions probes (report.py) all take theirs from :func:`subset`.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import HavocError
from havoc.engine.interpreter.engine import CompiledRule, Engine, RuleResult, holds_source, rules_source
from havoc.engine.interpreter.expr import ExprError, rule_error
from havoc.games.cry_havoc.facts import Context

if TYPE_CHECKING:  # (collections.abc is no import of the answer path: tests/test_kinds.py)
    from collections.abc import Callable, Hashable
    from typing import Any

    Program = Callable[[Context], list[RuleResult]]
    Yes = Callable[[Context], bool]


class Subset:
    """The rules of ``kind`` that ``test`` picks, for one engine: ``rules`` in reading order,
    ``only`` (``only=`` for the engine's own loop), ``judges`` (those with a requirement, the only
    ones that can say no), and the generated functions of each loop, ``programs`` (evaluate's)
    and ``yes`` (holds'), each for a context with an empty fact cache and for any: None, not
    made yet; (), cannot be (a check too deeply nested for Python keeps the loop)."""

    __slots__ = ("eng", "judges", "kind", "only", "programs", "rules", "yes")

    def __init__(self, eng: Engine, kind: str, test: Callable[[CompiledRule], bool]) -> None:
        self.eng = eng
        self.kind = kind
        self.rules = rules = tuple(cr for cr in eng.rules_for(kind) if test(cr))
        self.only = frozenset(rules).__contains__
        self.judges = tuple(cr for cr in rules if cr.rule.check is not None and cr.rule.check.requires is not None)
        self.programs: tuple[Program, ...] | None = None
        self.yes: tuple[Yes, ...] | None = None

    def evaluate(self, ctx: Context) -> list[RuleResult]:
        """What ``eng.evaluate(kind, ctx, only=<these rules>)`` gives."""
        programs = self.programs
        if programs is None:
            if self.kind not in self.eng.by_kind:  # asked only a few times yet: the engine's loop (and its count)
                return self.eng.evaluate(self.kind, ctx, only=self.only)
            programs = self.programs = _made(rules_source, self.rules, self.eng)
        if not programs:
            return self.eng.evaluate(self.kind, ctx, only=self.only)
        out = programs[0](ctx) if not ctx.cache else programs[1](ctx)
        return out if ctx.open is None else self.eng.settle(out, ctx)  # the facts left out (Engine.settle)

    def holds(self, ctx: Context) -> bool:
        """Whether none of these rules says no in ``ctx``: the verdict of :meth:`evaluate`.

        Only the judges are checked, in reading order (``applies-if``, then ``requires``; a figure
        the requirement reads is worked out when read, and a check that fails to evaluate is the
        rule's located error, as in :meth:`Engine.evaluate`); nothing is recorded and the first
        rule that says no ends it.
        """
        programs = self.yes
        if programs is None:
            if self.kind not in self.eng.by_kind:
                self.eng.rules_for(self.kind)  # counts the question, as evaluate does
                return self._holds(ctx)
            programs = self.yes = _made(holds_source, self.judges, self.eng)
        if not programs:
            return self._holds(ctx)
        return programs[0](ctx) if not ctx.cache else programs[1](ctx)

    def judge(self) -> Yes:
        """:meth:`holds` as one callable for new contexts (an empty fact cache): the generated
        function itself once the kind's checks are compiled as functions."""
        if self.kind in self.eng.by_kind:
            programs = self.yes
            if programs is None:
                programs = self.yes = _made(holds_source, self.judges, self.eng)
            if programs:
                return programs[0]
        return self.holds

    def _holds(self, ctx: Context) -> bool:
        """:meth:`holds` as a loop over the judges' checks."""
        ctx.used = {}
        for cr in self.judges:
            ctx.figs = {}
            ctx.fig_src = cr.figures
            try:
                applies = cr.applies
                if applies is not None and not applies(ctx):
                    continue
                if not cr.requires(ctx):  # type: ignore[misc]  # judges have a requirement
                    return False
            except HavocError:
                raise
            except (ExprError, TypeError, ValueError, ArithmeticError) as exc:
                raise rule_error(cr.rule.loc.file, cr.rule.loc.line, cr.rule.id, exc) from None
        return True


def _made(source: Callable[..., Any], rules: tuple[CompiledRule, ...], eng: Engine) -> tuple[Any, ...]:
    """``source`` (:func:`rules_source` or :func:`holds_source`) over ``rules``, for a fresh
    context and for any; () when a check is too deeply nested for Python."""
    try:
        return tuple(source(list(rules), eng.param, eng.resolve, fresh) for fresh in (True, False))
    except (SyntaxError, RecursionError, MemoryError):
        return ()


# by engine (itself: engines are kept for the process, see havoc.engine.interpreter.engine.engine), kind and key
_subsets: dict[tuple[Engine, str, Hashable], Subset] = {}


def subset(eng: Engine, kind: str, key: Hashable, test: Callable[[], Callable[[CompiledRule], bool]]) -> Subset:
    """The rules of ``kind`` that ``test()`` picks, made once per engine, kind and ``key`` (what
    the test depends on). A caller on a hot path may look in ``_subsets`` first (no call)."""
    k = (eng, kind, key)
    found = _subsets.get(k)
    if found is None:
        found = _subsets[k] = Subset(eng, kind, test())
    return found
