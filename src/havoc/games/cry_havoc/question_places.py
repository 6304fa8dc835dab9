"""Where a question's problem is, in the reader's words: its field by the word the compact form
types for it ("do" for to, as the reader types it and ``--help`` lists it), the rest of its path
as :mod:`havoc.games.cry_havoc.places` words a table's. Apart from the table's wording, which the
table's reader imports: this one reads the question format and its typed words, which import the
table's reader."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.games.cry_havoc import places
from havoc.games.cry_havoc.position import TOP
from havoc.games.cry_havoc.query import QTOP
from havoc.games.cry_havoc.typed import Ambiguous, lexicon, typed_word
from havoc.games.cry_havoc.ui import fold
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, message_language

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from havoc.core.errors import Problem
    from havoc.formats.spec import Spec


def worded(problems: list[Problem], regions: Iterable[str], extra: Mapping[str, Spec] | None = None) -> list[Problem]:
    """A question's problems, each naming a field given its place in words (``where``), in the
    language of errors. ``regions``: the table's Region keys; ``extra``: the fields the question
    may have besides the question format's (the solo Trogs' own, passed by their engine)."""
    keys = [k for k in regions if isinstance(k, str)]
    return places.worded(problems, lambda path, lang: where(path, lang, keys, extra))


def where(path: str, lang: str, regions: Iterable[str] = (), extra: Mapping[str, Spec] | None = None) -> str:
    """A question's field path in the reader's words ("" when it is no field of the question or
    the table); a table's field the question's check found wrong (the solo Trogs') as the table's."""
    steps = places.path_steps(path)
    if not steps or not isinstance(steps[0], str):
        return ""
    assert QTOP.fields is not None
    fields = {**extra, **QTOP.fields} if extra else QTOP.fields
    key = _key(steps[0], fields, extra or {})
    if key is None:
        return places.where(path, TOP, lang, regions)
    said = [_label(key, lang)]
    return places.SEP.join(said + places.steps_said(fields.get(key), steps[1:], lang, regions, hint=False))


def _key(step: str, fields: Mapping[str, Spec], extra: Mapping[str, Spec]) -> str | None:
    """A question's field as its machine key: the key, or the word a reader typed for it ("do")."""
    if step in fields:
        return step
    try:
        found = lexicon(message_language()).fields.find(step)
    except Ambiguous:
        return None
    return found if found in fields else _extra_key(step, extra)


def _extra_key(step: str, extra: Mapping[str, Spec]) -> str | None:
    """An extra field typed in a reader's words ("kroki" for the solo Trogs' steps)."""
    for key in extra:
        if any(fold(typed_word(key, lang)) == fold(step) for lang in LANGUAGES):
            return key
    return None


def _label(key: str, lang: str) -> str:
    """A question's field as the Ask page's form labels it ("Oddziały", never the lower-case
    "oddziały" of the compact form), with the word a reader types for it after it where that is
    another word ("Dokąd (do)"); one without a label in ``lang`` by that word. English keeps the
    machine key, which its reader types."""
    word = typed_word(key, lang)
    shown = places.label(key, lang, hint=False)
    if lang == SOURCE_LANGUAGE:
        return shown if fold(word) == key else word
    if fold(shown) == key:  # no label of its own, or one the key spells ("Region"): the word, as a label
        shown = places.key_label(key, lang) or word
    if fold(shown) == fold(word):
        return shown
    return f"{shown} ({word})"
