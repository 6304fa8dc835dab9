"""The condition language of ``check`` blocks: one operator table, and the type check.

Every operator is declared once in :data:`OPS`: how many operands it takes, their type and its
result type, and how it evaluates. The loader type-checks every condition against the facts'
declared types and the vocabulary's values (:func:`type_check`), the interpreter evaluates
with the same table (:mod:`havoc.engine.interpreter.expr`), so a condition that loads is one the
assistant can evaluate. Types: ``bool``, ``int``, ``string`` (with the name of the vocabulary
list its values come from, when declared), ``list`` and ``any`` (a figure, whose type is the
expression's that defines it).
"""

from __future__ import annotations

import _operator as operator  # the functions operator.py gives, without reading operator.py (start-up time)

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, Final, NamedTuple
else:
    from havoc.core.tuples import NamedTuple


class Op(NamedTuple):
    """One operator: operand count ("n" = one or more), operand and result types, evaluation,
    and how it reads on the site ("what the assistant checks")."""

    arity: int | str
    operand: str  # the type every operand must have ("any" = bool, int or string, compared alike)
    result: str
    evaluate: Callable[..., Any] | None  # None: evaluated specially (short-circuit, lookups)
    # How it reads: "infix" (operands joined by `symbol`), "list" (a list under words[0], inline
    # joined by words[1]), "prefix" (words[0] before the operand), "of" (words[0] then the
    # operands, the last after words[1]), "divide" (a ÷ b, then words[0]), "member" (a words[0] x, y)
    shows: str = "infix"
    symbol: str = ""  # never translated (=, ≤, +, ÷)
    words: tuple[str, ...] = ()  # English site labels, translated in site.po
    # A comparison read the other way round (a ≤ b is b ≥ a) and negated (not a ≤ b is a > b):
    # explaining a "no" (havoc.engine.interpreter.explain) reads every comparison as "the asker's number
    # <op> a bound".
    mirror: str = ""
    negation: str = ""


def _ceil(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return -((-a) // b)


def _floor(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def _mul(*xs: int) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


OPS: Final[Mapping[str, Op]] = {
    "all": Op("n", "bool", "bool", None, "list", words=("all of these:", "and")),
    "any": Op("n", "bool", "bool", None, "list", words=("at least one of these:", "or")),
    "not": Op(1, "bool", "bool", operator.not_, "prefix", words=("not:",)),
    "eq": Op(2, "any", "bool", operator.eq, symbol="=", mirror="eq", negation="ne"),
    "ne": Op(2, "any", "bool", operator.ne, symbol="≠", mirror="ne", negation="eq"),
    "lt": Op(2, "int", "bool", operator.lt, symbol="<", mirror="gt", negation="ge"),
    "le": Op(2, "int", "bool", operator.le, symbol="≤", mirror="ge", negation="gt"),
    "gt": Op(2, "int", "bool", operator.gt, symbol=">", mirror="lt", negation="le"),
    "ge": Op(2, "int", "bool", operator.ge, symbol="≥", mirror="le", negation="lt"),
    "in": Op(2, "any", "bool", None, "member", words=("is one of",)),
    "add": Op("n", "int", "int", lambda *xs: sum(xs), symbol="+"),
    "mul": Op("n", "int", "int", _mul, symbol="×"),
    "max": Op("n", "int", "int", max, "of", words=("the larger of", "and")),
    "min": Op("n", "int", "int", min, "of", words=("the smaller of", "and")),
    "sub": Op(2, "int", "int", operator.sub, symbol="−"),
    "div-ceil": Op(2, "int", "int", _ceil, "divide", "÷", ("rounded up",)),
    "div-floor": Op(2, "int", "int", _floor, "divide", "÷", ("rounded down",)),
}
LEAVES: Final = ("fact", "param", "figure")

_TYPE_WORDS = {"bool": "a yes/no value", "int": "a whole number", "string": "a name", "list": "a list"}


class Env(NamedTuple):
    """What a condition may name: facts (name -> (type, values list)), parameters, figures."""

    facts: Mapping[str, tuple[str, str | None]]
    vocabulary: Mapping[str, Any]
    params: Mapping[str, str]  # name -> int | bool | text
    figures: frozenset[str]
    subjects: Mapping[str, str]  # a subject read like another: from -> region


class Typed(NamedTuple):
    type: str
    values: str | None = None  # the vocabulary list a string's values come from


def _suggest(name: str, known: Any) -> str:
    import difflib  # only for a misspelt name

    hint = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {hint[0]!r}?)" if hint else ""


def fact_type(env: Env, name: str) -> tuple[str, str | None] | None:
    """A fact's declared type, reading ``from.x`` as ``region.x`` where the vocabulary says so."""
    found = env.facts.get(name)
    if found is not None:
        return found
    head, _, rest = name.partition(".")
    base = env.subjects.get(head)
    return env.facts.get(f"{base}.{rest}") if base else None


def type_check(e: Any, env: Env, path: str) -> list[str]:
    """Every problem of one expression, each starting with the path to the bad part."""
    problems: list[str] = []
    _check(e, env, path, problems)
    return problems


def _literal(e: Any) -> Typed | None:
    if isinstance(e, bool):
        return Typed("bool")
    if isinstance(e, int):
        return Typed("int")
    if isinstance(e, str):
        return Typed("string")
    if e is None:
        return Typed("any")
    return None


def _check(e: Any, env: Env, path: str, out: list[str]) -> Typed:
    lit = _literal(e)
    if lit is not None:
        return lit
    if isinstance(e, float):
        out.append(f"{path}: expected a whole number, found {e!r}")
        return Typed("int")
    if isinstance(e, list):
        for i, x in enumerate(e):
            _check(x, env, f"{path}[{i}]", out)
        return Typed("list")
    if not isinstance(e, dict) or len(e) != 1:
        out.append(f"{path}: expected a value or a one-key mapping such as {{fact: …}}, found {e!r}")
        return Typed("any")
    ((op, arg),) = e.items()
    if op in LEAVES:
        return _leaf(op, arg, env, path, out)
    spec = OPS.get(op)
    if spec is None:
        out.append(f"{path}: unknown operator {op!r}{_suggest(str(op), [*OPS, *LEAVES])}")
        return Typed("any")
    args = [arg] if spec.arity == 1 else arg
    if spec.arity != 1 and (not isinstance(arg, list) or not arg or (spec.arity == 2 and len(arg) != 2)):
        want = "a list of two operands" if spec.arity == 2 else "a non-empty list"
        out.append(f"{path}.{op}: expected {want}")
        return Typed(spec.result)
    if op == "in":
        _membership(args, env, f"{path}.in", out)
        return Typed("bool")
    types = [
        _check(a, env, f"{path}.{op}[{i}]" if spec.arity != 1 else f"{path}.{op}", out) for i, a in enumerate(args)
    ]
    if spec.operand == "any":
        _comparable(args, types, env, f"{path}.{op}", out)
    else:
        # arithmetic counts a yes/no as 1 or 0 ({mul: [{fact: draw-pending}, 3]}); comparisons do not
        ok = (spec.operand, "any", "bool") if spec.result == "int" else (spec.operand, "any")
        for i, t in enumerate(types):
            if t.type not in ok:
                where = f"{path}.{op}[{i}]" if spec.arity != 1 else f"{path}.{op}"
                out.append(f"{where}: {op} expects {_TYPE_WORDS[spec.operand]}, found {_describe(args[i], t)}")
    return Typed(spec.result)


def _leaf(op: str, arg: Any, env: Env, path: str, out: list[str]) -> Typed:
    if op == "fact":
        found = fact_type(env, arg) if isinstance(arg, str) else None
        if found is None:
            known = [
                *env.facts,
                *(
                    f"{s}.{f.partition('.')[2]}"
                    for s, b in env.subjects.items()
                    for f in env.facts
                    if f.startswith(b + ".")
                ),
            ]
            out.append(f"{path}: unknown fact {arg!r}{_suggest(str(arg), known)} (see the ruleset's facts.yaml)")
            return Typed("any")
        return Typed(*found)
    if op == "param":
        ptype = env.params.get(arg) if isinstance(arg, str) else None
        if ptype is None:
            out.append(f"{path}: unknown parameter {arg!r}{_suggest(str(arg), env.params)}")
            return Typed("any")
        return Typed({"text": "string"}.get(ptype, ptype))
    if arg not in env.figures:
        out.append(f"{path}: unknown figure {arg!r}; this check defines {sorted(env.figures)}")
    return Typed("any")


def _describe(e: Any, t: Typed) -> str:
    if isinstance(e, dict) and len(e) == 1:
        ((op, arg),) = e.items()
        if op in LEAVES:
            return f"{op} {arg} ({_TYPE_WORDS.get(t.type, t.type)})"
        return f"the result of {op} ({_TYPE_WORDS.get(t.type, t.type)})"
    return f"{e!r} ({_TYPE_WORDS.get(t.type, t.type)})"


def _comparable(args: list[Any], types: list[Typed], env: Env, path: str, out: list[str]) -> None:
    a, b = types
    if "any" not in (a.type, b.type) and a.type != b.type:
        out.append(f"{path}: compares {_describe(args[0], a)} with {_describe(args[1], b)}")
        return
    for typed, other in ((a, args[1]), (b, args[0])):
        if typed.values and isinstance(other, str) and not isinstance(other, bool):
            _known_value(other, typed.values, env, path, out)


def _membership(args: list[Any], env: Env, path: str, out: list[str]) -> None:
    needle = _check(args[0], env, f"{path}[0]", out)
    hay = args[1]
    if not isinstance(hay, list):
        out.append(f"{path}: the second operand must be a list of values")
        return
    for i, value in enumerate(hay):
        t = _literal(value)
        if t is None:
            out.append(f"{path}[1][{i}]: expected a plain value, found {value!r}")
        elif needle.type not in ("any",) and t.type not in (needle.type, "any"):
            out.append(f"{path}[1][{i}]: compares {_describe(args[0], needle)} with {_describe(value, t)}")
        elif needle.values and isinstance(value, str):
            _known_value(value, needle.values, env, f"{path}[1][{i}]", out)


def _known_value(value: str, values: str, env: Env, path: str, out: list[str]) -> None:
    allowed = env.vocabulary.get(values, ())
    if value and value not in allowed:
        out.append(f"{path}: {value!r} is not one of the {values} in vocabulary.yaml{_suggest(value, allowed)}")


__all__ = ["LEAVES", "OPS", "Env", "Op", "fact_type", "type_check"]
