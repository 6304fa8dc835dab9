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

from havoc.conditions import OPS
from havoc.errors import InputError
from havoc.i18n import ui
from havoc.interpreter.expr import ExprError

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)
if TYPE_CHECKING:
    from typing import Any

# What can go wrong evaluating a part of a check again: the fixes found so far are kept.
_EVALUATION_ERRORS = (ExprError, InputError, TypeError, ValueError, ArithmeticError)

Word = Callable[[str, str], "str | None"]  # (fact, lang) -> the game's word for a number the asker gives


def fixes(condition: Any, holds: Callable[[Any], Any], word: Word, lang: str) -> list[str]:
    """The bounds that would make ``condition`` (which failed) hold, in words: ``holds(part)``
    evaluates one part of it in the question's context, ``word(fact, lang)`` is the game's word for
    a fact the asker gives (None for any other fact)."""
    out: list[str] = []
    try:  # noqa: SIM105 - a plain try: contextlib.suppress costs a context manager per "no" explained
        _walk(condition, False, holds, word, lang, out)
    except _EVALUATION_ERRORS:
        pass
    return out


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


def _walk(e: Any, negated: bool, holds: Callable[[Any], Any], word: Word, lang: str, out: list[str]) -> None:
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
    field = _given(left, word, lang)
    if field is None:
        return
    bound = holds(right)
    if not isinstance(bound, int) or isinstance(bound, bool):
        return
    if op in ("le", "lt"):
        value = bound if op == "le" else bound - 1
        if value < 1:
            return  # "at most 0" is no way to make it legal
        out.append(ui("{field}: at most {value}", lang).format(field=field, value=value))
    elif op in ("ge", "gt"):
        value = bound if op == "ge" else bound + 1
        out.append(ui("{field}: at least {value}", lang).format(field=field, value=value))
    elif op == "eq":
        out.append(ui("{field}: exactly {value}", lang).format(field=field, value=bound))


__all__ = ["fixes"]
