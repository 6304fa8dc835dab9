"""Some of a kind's rules, evaluated as one: a step of a Battle, the retreat rules about a destination.

A mechanism that reads only some rules of a kind at a step (the Battle's Region Control, the
retreat rules that test a neighbour) asks :meth:`Engine.evaluate` with ``only=``; that loop
still tests every rule of the kind on every call. A :class:`Subset` picks the step's rules
once per engine (a rule's figures and needs never change), and once the engine has compiled
the kind's checks as functions (it does after a few questions), evaluates them with one
generated function (:func:`~havoc.interpreter.engine.rules_source`: what ``evaluate`` does for
those rules, the same results, facts, short-circuits and errors, in the same order).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from havoc.games.cry_havoc.facts import Context
from havoc.interpreter.engine import CompiledRule, Engine, RuleResult, rules_source

Program = Callable[[Context], list[RuleResult]]


class Subset:
    """The rules of ``kind`` that ``test`` picks, in reading order, for one engine."""

    __slots__ = ("eng", "kind", "only", "programs", "rules")

    def __init__(self, eng: Engine, kind: str, test: Callable[[CompiledRule], bool]) -> None:
        self.eng = eng
        self.kind = kind
        picked = frozenset(cr for cr in eng.rules_for(kind) if test(cr))
        self.rules = picked
        self.only = picked.__contains__  # ``only=`` for the engine's own loop
        # (for a context with an empty fact cache, for any); None: not compiled yet; (): cannot be
        self.programs: tuple[Program, ...] | None = None

    def evaluate(self, ctx: Context) -> list[RuleResult]:
        """What ``eng.evaluate(kind, ctx, only=<these rules>)`` gives."""
        programs = self.programs
        if programs is None:
            compiled = self.eng.by_kind.get(self.kind)
            if compiled is None:  # asked only a few times yet: the engine's loop (and its count)
                return self.eng.evaluate(self.kind, ctx, only=self.only)
            programs = self.programs = self._compile(compiled)
        if not programs:  # a check too deeply nested for Python keeps the loop
            return self.eng.evaluate(self.kind, ctx, only=self.only)
        return programs[0](ctx) if not ctx.cache else programs[1](ctx)

    def _compile(self, compiled: list[CompiledRule]) -> tuple[Program, ...]:
        rules = [cr for cr in compiled if cr in self.rules]  # reading order
        if not all(cr.fast for cr in rules):
            return ()
        eng = self.eng
        try:
            return tuple(rules_source(rules, eng.param, eng.resolve, fresh) for fresh in (True, False))
        except (SyntaxError, RecursionError, MemoryError):
            return ()


_subsets: dict[tuple[int, str, Hashable], Subset] = {}


def subset(eng: Engine, kind: str, key: Hashable, test: Callable[[], Callable[[CompiledRule], bool]]) -> Subset:
    """The rules of ``kind`` that ``test()`` picks, made once per engine, kind and ``key`` (what
    the test depends on)."""
    k = (id(eng), kind, key)
    found = _subsets.get(k)
    if found is None or found.eng is not eng:
        found = _subsets[k] = Subset(eng, kind, test())
    return found
