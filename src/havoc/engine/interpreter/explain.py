"""What would make a failed condition hold, in words: "Units: at most 3".

Explaining a "no" is generic: walk the condition that failed (into the parts of an ``all`` or
``any`` that failed, through a ``not`` by its operators' negations), read each comparison of a
number the asker gave with a bound (turned round with the operator table's ``mirror`` when the
number is on the right) and say the bound with the operator's words. The game supplies only its
words for the facts that are numbers of a question (``query.units`` -> "Units"); any other fact
is no fix the asker can make.
"""

from __future__ import annotations

from _collections_abc import Callable  # collections.abc without importing collections

from havoc import TYPE_CHECKING
from havoc.core.errors import InputError
from havoc.engine.conditions import OPS
from havoc.engine.interpreter.expr import ExprError
from havoc.language.i18n import ui

if TYPE_CHECKING:
    from typing import Any

# What can go wrong evaluating a part of a check again: the fixes found so far are kept.
_EVALUATION_ERRORS = (ExprError, InputError, TypeError, ValueError, ArithmeticError)

Word = Callable[[str, str], "str | None"]  # (fact, lang) -> the game's word for a number the asker gives


def fixes(condition: Any, holds: Callable[[Any], Any], word: Word, lang: str) -> list[str]:
    """The bounds that would make ``condition`` (which failed) hold, in words ("Units: at most
    3"): :func:`bounds`, each said with the game's word for its fact."""
    out = []
    for fact, how, value in bounds(condition, holds, word, lang):
        field = word(fact, lang)
        if field is not None:
            out.append(_bound(_SENTENCES[how](lang), field, value))
    return out


Bound = tuple[str, str, int]  # (the asker's fact, "le" / "ge" / "eq", the value)


def bounds(condition: Any, holds: Callable[[Any], Any], word: Word, lang: str) -> list[Bound]:
    """The bounds that would make ``condition`` (which failed) hold, each as (fact, how, value):
    ``query.units`` at most (``le``) 3. ``holds(part)`` evaluates one part of it in the question's
    context, ``word(fact, lang)`` is the game's word for a fact the asker gives (None for any
    other fact: no bound on it is proposed). Whether a bound alone makes the question legal is
    for the caller to find out (another part, or another rule, may still say no).

    The walk's shape (which parts are read, which comparisons are literal, where a number the
    asker may give can stand) depends on the condition alone: it is worked out once per condition
    (:func:`_plan`); each "no" explained then only evaluates its parts, in the same order."""
    out: list[Bound] = []
    found = _plans.get(id(condition))
    if found is None or found[0] is not condition:
        if len(_plans) >= _PLANS_KEPT:
            _plans.clear()
        found = _plans[id(condition)] = (condition, _plan(condition, False))
    walk = found[1]
    if walk is not None:
        try:  # noqa: SIM105 - a plain try: contextlib.suppress costs a context manager per "no" explained
            walk(holds, word, lang, out)
        except _EVALUATION_ERRORS:
            pass
    return out


# A walk of one condition: (holds, word, lang, out) -> None, adding its fixes to out.
if TYPE_CHECKING:  # an alias made at run time would need typing.Any
    Walk = Callable[[Callable[[Any], Any], Word, str, list[Bound]], None]
_plans: dict[int, tuple[Any, Walk | None]] = {}  # id(condition) -> (the condition, its walk)
_PLANS_KEPT = 4096  # checks of a ruleset's rules (a few hundred)


def _plan(e: Any, negated: bool) -> Walk | None:
    """:func:`_walk` of ``e`` with what depends only on ``e`` worked out now (None: it finds no
    fix and evaluates nothing). A part it cannot read ahead is walked as :func:`_walk` walks it."""
    try:
        return _planned(e, negated)
    except Exception:  # odd data: walked (and failing) exactly as before, when asked

        def as_before(holds: Callable[[Any], Any], word: Word, lang: str, out: list[Bound]) -> None:
            _walk(e, negated, holds, word, lang, out)

        return as_before


def _planned(e: Any, negated: bool) -> Walk | None:
    if not isinstance(e, dict) or len(e) != 1:
        return None
    ((op, arg),) = e.items()
    if op == "not":
        return _plan(arg, not negated)
    if op in ("all", "any"):
        if negated:  # "not all of these" has no one bound to say
            return None
        # every part is evaluated, in order (reading it may add to the facts the answer cites, or
        # stop the walk); only those that failed and are no literal comparison are walked into
        parts = tuple((child, None if _literal_compare(child) else _plan(child, False)) for child in arg)

        def each(holds: Callable[[Any], Any], word: Word, lang: str, out: list[Bound]) -> None:
            for child, walk in parts:
                if not holds(child) and walk is not None:
                    walk(holds, word, lang, out)

        return each
    spec = OPS.get(op)
    if spec is None or not spec.mirror or not isinstance(arg, list) or len(arg) != 2:
        return None
    if negated:
        op = spec.negation
    left, right = arg
    left_fact, right_fact = _fact(left), _fact(right)
    if left_fact is None and right_fact is None:
        return None
    mirrored = OPS[op].mirror

    def compare(holds: Callable[[Any], Any], word: Word, lang: str, out: list[Bound]) -> None:
        field = word(right_fact, lang) if right_fact is not None else None
        if field is not None:  # the asker's number on the right: turned round
            fact, bound, how = right_fact, holds(left), mirrored
        else:
            field = word(left_fact, lang) if left_fact is not None else None
            if field is None:
                return
            fact, bound, how = left_fact, holds(right), op
        if isinstance(bound, int) and not isinstance(bound, bool):
            _say(how, fact, bound, out)  # type: ignore[arg-type]  # a fact the asker gives

    return compare


def _fact(e: Any) -> str | None:
    """The fact ``e`` reads, when it is one (as :func:`_given` finds it)."""
    fact = e.get("fact") if isinstance(e, dict) else None
    return fact if isinstance(fact, str) else None


def _literal_compare(e: Any) -> bool:
    """A comparison with a literal (``points = 0``: "not given") is no fix worth proposing."""
    if not isinstance(e, dict) or len(e) != 1:
        return False
    ((_, arg),) = e.items()
    return isinstance(arg, list) and any(isinstance(a, (int, str)) and not isinstance(a, bool) for a in arg)


def _given(e: Any, word: Word, lang: str) -> str | None:
    """The asker's word for ``e`` when it is a fact the asker gives."""
    fact = e.get("fact") if isinstance(e, dict) else None
    return word(fact, lang) if isinstance(fact, str) else None


def _walk(e: Any, negated: bool, holds: Callable[[Any], Any], word: Word, lang: str, out: list[Bound]) -> None:
    if not isinstance(e, dict) or len(e) != 1:
        return
    ((op, arg),) = e.items()
    if op == "not":
        _walk(arg, not negated, holds, word, lang, out)
        return
    if op in ("all", "any"):
        if negated:  # "not all of these" has no one bound to say
            return
        for child in arg:
            if not holds(child) and not _literal_compare(child):
                _walk(child, False, holds, word, lang, out)
        return
    spec = OPS.get(op)
    if spec is None or not spec.mirror or not isinstance(arg, list) or len(arg) != 2:
        return
    if negated:
        op = spec.negation
    left, right = arg
    if _given(right, word, lang) is not None:
        left, right, op = right, left, OPS[op].mirror
    if _given(left, word, lang) is None:
        return
    bound = holds(right)
    if not isinstance(bound, int) or isinstance(bound, bool):
        return
    _say(op, _fact(left), bound, out)  # type: ignore[arg-type]  # a fact the asker gives


def _say(op: str, fact: str, bound: int, out: list[Bound]) -> None:
    """The bound the asker's number ``fact`` must keep, as ``le``, ``ge`` or ``eq`` a value."""
    if op in ("le", "lt"):
        value = bound if op == "le" else bound - 1
        if value < 1:
            return  # "at most 0" is no way to make it legal
        out.append((fact, "le", value))
    elif op in ("ge", "gt"):
        out.append((fact, "ge", bound if op == "ge" else bound + 1))
    elif op == "eq":
        out.append((fact, "eq", bound))


# A bound in words, by how: the game's word for the fact is {field}.
_SENTENCES: dict[str, Callable[[str], str]] = {
    "le": lambda lang: ui("{field}: at most {value}", lang),
    "ge": lambda lang: ui("{field}: at least {value}", lang),
    "eq": lambda lang: ui("{field}: exactly {value}", lang),
}


def _bound(sentence: str, field: str, value: int) -> str:
    """``sentence`` (an interface string in the asker's language) said of ``field`` and ``value``:
    kept by the sentence's own text (a "no" says the same few bounds again and again)."""
    key = (sentence, sentence.__class__, field, value)  # a Text fills its fields its own way
    found = _bounds.get(key)
    if found is None:
        if len(_bounds) >= _BOUNDS_KEPT:
            _bounds.clear()
        found = _bounds[key] = sentence.format(field=field, value=value)
    return found


_bounds: dict[tuple[str, type, str, int], str] = {}  # (sentence, its class, field, value) -> in words
_BOUNDS_KEPT = 4096


__all__ = ["Bound", "bounds", "fixes"]
