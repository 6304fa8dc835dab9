"""The condition language of ``check`` blocks, compiled once into Python closures.

Expressions are plain data (see ``rules/README.md``, "Conditions"). Compiling them when a
ruleset is first used, instead of walking the data on every question, is what makes
thousands of answers per second possible. While evaluating, every fact read is recorded with
its value in ``Context.used``: that record is what an answer cites. ``all``/``any`` stop at
the first deciding operand, so only the facts that mattered are cited.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Final

from havoc.errors import Problem, RulebookError
from havoc.games.cry_havoc.facts import Context, resolve

Compiled = Callable[[Context], Any]

_MISS: Final = object()

_CMP: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}


class ExprError(Exception):
    """A check that cannot be evaluated (a rule-data bug, reported as a RulebookError)."""


def _num(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ExprError(f"expected a whole number, found {value!r}")


def _div_ceil(a: int, b: int) -> int:
    if b == 0:
        raise ExprError("division by zero")
    return -((-a) // b)


def _div_floor(a: int, b: int) -> int:
    if b == 0:
        raise ExprError("division by zero")
    return a // b


def compile_expr(e: Any, params: Callable[[str], Any]) -> Compiled:
    """Compile one expression; ``params`` gives a parameter's value (fixed per ruleset)."""
    if e is None or isinstance(e, (bool, int, float, str)):
        value = e
        return lambda ctx: value
    if isinstance(e, list):
        parts = [compile_expr(x, params) for x in e]
        return lambda ctx: [p(ctx) for p in parts]
    if not isinstance(e, dict) or len(e) != 1:
        raise ExprError(f"not an expression: {e!r}")
    ((op, arg),) = e.items()
    if op == "fact":
        return _fact(str(arg))
    if op == "param":
        pvalue = params(str(arg))
        return lambda ctx: pvalue
    if op == "figure":
        fname = str(arg)
        return lambda ctx: _figure(ctx, fname)
    if op == "not":
        inner = compile_expr(arg, params)
        return lambda ctx: not inner(ctx)
    args = [compile_expr(x, params) for x in arg] if isinstance(arg, list) else []
    if op == "all":

        def all_of(ctx: Context) -> bool:
            for a in args:  # noqa: SIM110 - a plain loop is faster than all() over a generator
                if not a(ctx):
                    return False
            return True

        return all_of
    if op == "any":

        def any_of(ctx: Context) -> bool:
            for a in args:  # noqa: SIM110 - a plain loop is faster than any() over a generator
                if a(ctx):
                    return True
            return False

        return any_of
    if op in _CMP:
        fn, left, right = _CMP[op], args[0], args[1]

        def compare(ctx: Context) -> bool:
            a, b = left(ctx), right(ctx)
            try:
                return bool(fn(a, b))
            except TypeError:
                raise ExprError(f"{op}: cannot compare {a!r} with {b!r}") from None

        return compare
    if op == "in":
        needle = args[0]
        hay = tuple(arg[1]) if isinstance(arg[1], list) else ()
        return lambda ctx: needle(ctx) in hay
    if op == "add":
        return lambda ctx: sum(_num(a(ctx)) for a in args)
    if op == "mul":

        def mul(ctx: Context) -> int:
            out = 1
            for a in args:
                out *= _num(a(ctx))
            return out

        return mul
    if op == "max":
        return lambda ctx: max(_num(a(ctx)) for a in args)
    if op == "min":
        return lambda ctx: min(_num(a(ctx)) for a in args)
    if op == "sub":
        a0, a1 = args
        return lambda ctx: _num(a0(ctx)) - _num(a1(ctx))
    if op == "div-ceil":
        a0, a1 = args
        return lambda ctx: _div_ceil(_num(a0(ctx)), _num(a1(ctx)))
    if op == "div-floor":
        a0, a1 = args
        return lambda ctx: _div_floor(_num(a0(ctx)), _num(a1(ctx)))
    raise ExprError(f"unknown operator {op!r}")


def _fact(name: str) -> Compiled:
    found = resolve(name)
    if found is None:
        raise ExprError(f"unknown fact {name!r} (not implemented in havoc.games.cry_havoc.facts)")
    impl, subject = found
    fn = impl.fn
    if subject is None:

        def get(ctx: Context) -> Any:
            value = ctx.cache.get(name, _MISS)
            if value is _MISS:
                value = ctx.cache[name] = fn(ctx)
            ctx.used[name] = value
            return value

        return get

    def get_regional(ctx: Context) -> Any:
        value = ctx.cache.get(name, _MISS)
        if value is _MISS:
            value = ctx.cache[name] = fn(ctx, ctx.subject(subject))
        ctx.used[name] = value
        return value

    return get_regional


def _figure(ctx: Context, name: str) -> Any:
    value = ctx.figs.get(name, _MISS)
    if value is not _MISS:
        return value
    if name in ctx.fig_busy:
        raise ExprError(f"figure {name!r} refers to itself")
    src = ctx.fig_src.get(name)
    if src is None:
        raise ExprError(f"unknown figure {name!r}")
    ctx.fig_busy.add(name)
    try:
        value = ctx.figs[name] = src(ctx)
    finally:
        ctx.fig_busy.discard(name)
    return value


def rule_error(file: str, line: int, rule_id: str, exc: Exception) -> RulebookError:
    """A check that failed to evaluate is a bug in the rules, located at the rule."""
    return RulebookError([Problem(file, line, f"rule {rule_id}.check: {exc}")])
