"""Naming a chart line: by its words, in any language, never by letters inside a word.

A reader names a line ("enemy zoi", "dowódcy", "luk dlugi") and gets that line, a list of the
lines it could be ("ambiguous"), or a list of the lines there are. The rules of the match:

- a name is matched by its *words*: each word typed must begin a word of the line's name
  (lowercase, diacritics forgiven) or share its stem (Polish inflection forgiven) — using the
  search's own normalisation (:mod:`havoc.search.text`), so the charts and the search agree;
- words in brackets are notes, never names ("cover" does not find "(recovery checks only)");
- every line has a spelling in each language (the rule table's catalog), all tried at once,
  so a Polish name works without ``--lang pl``;
- a line named in full wins; else the only line whose every word is matched; else two or
  more lines are ambiguous.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from havoc.search.text import fold, is_stopword, key, words

if TYPE_CHECKING:
    from havoc.engine.rulebook.model import Ruleset

_BRACKETS = re.compile(r"\([^()]*\)?|\[[^\[\]]*\]?")  # a note, closed or left open at the end


@dataclass(frozen=True)
class Spelling:
    """One line's name in one language: the whole name and its words outside brackets."""

    lang: str
    text: str
    words: tuple[str, ...]
    folded: tuple[str, ...] = ()  # each word lowercased without diacritics
    stems: tuple[str, ...] = ()  # each word's search key (folded stem)
    bare: tuple[str, ...] = ()  # the key of each word typed without Polish letters ("lezacy")


def spelling(text: str, lang: str) -> Spelling:
    ws = tuple(words(_BRACKETS.sub(" ", text)))
    folded = tuple(fold(w) for w in ws)
    return Spelling(lang, text, ws, folded, tuple(stem(w, lang) for w in ws), tuple(stem(f, lang) for f in folded))


@lru_cache(maxsize=1 << 14)
def stem(word: str, lang: str) -> str:
    """The search's key of a word (cached: a lookup stems the same few words again and again)."""
    return key(word, lang)


def _whole(text: str) -> str:
    return " ".join(fold(unicodedata.normalize("NFC", text)).split())


def spellings(rs: Ruleset, rule_id: str, column: int = 0) -> list[list[Spelling]]:
    """Each row's name (its cell in ``column``) in every language havoc speaks."""
    return [list(s) for s in _spellings(rs, rule_id, column)]


@lru_cache(maxsize=64)
def _spellings(rs: Ruleset, rule_id: str, column: int) -> tuple[tuple[Spelling, ...], ...]:
    from havoc.language.i18n import translator
    from havoc.language.languages import CODES, SOURCE

    t = rs.rules[rule_id].table
    assert t is not None
    out = []
    for row in t.rows:
        cell = str(row[column])
        forms = [spelling(cell, SOURCE)]
        for lang in CODES:
            if lang != SOURCE:
                text = translator(lang, rs.id).text(f"{rule_id}:table", cell)
                forms.append(spelling(text, lang))
        out.append(tuple(forms))
    return tuple(out)


def word_matches(q: str, s: Spelling, k: int) -> bool:
    """A typed word names word ``k`` of a spelling: it begins it, or (inflected) shares its stem,
    with or without its diacritics (the stemmer reads "lezacego" and "leżącego" differently)."""
    return s.folded[k].startswith(fold(q)) or stem(q, s.lang) == s.stems[k] or stem(fold(q), s.lang) == s.bare[k]


def _query_words(query: str) -> list[str]:
    """The typed words, short function words dropped (unless they are all there is)."""
    typed = words(_BRACKETS.sub(" ", query))
    meant = [w for w in typed if not is_stopword(w)]
    return meant or typed


@dataclass(frozen=True)
class Match:
    """The rows a name finds: one row, several (ambiguous), or none."""

    rows: tuple[int, ...]
    langs: tuple[str, ...] = ()  # the languages whose spellings the name matched (for the reply)

    @property
    def found(self) -> int | None:
        return self.rows[0] if len(self.rows) == 1 else None


def match(query: str, lines: Sequence[Sequence[Spelling]]) -> Match:
    """The line(s) ``query`` names among ``lines`` (each a row's spellings)."""
    whole = _whole(query)
    if not whole:
        return Match(())
    exact = [i for i, forms in enumerate(lines) if any(_whole(s.text) == whole for s in forms)]
    if len(exact) == 1:
        return Match(tuple(exact), tuple(s.lang for s in lines[exact[0]] if _whole(s.text) == whole))
    typed = _query_words(query)
    if not typed:
        return Match(())
    hits: list[int] = []
    complete: list[int] = []
    langs: dict[str, None] = {}
    for i, forms in enumerate(lines):
        named = [s for s in forms if all(any(word_matches(q, s, k) for k in range(len(s.words))) for q in typed)]
        if not named:
            continue
        hits.append(i)
        langs.update((s.lang, None) for s in named)
        if any(
            all(any(word_matches(q, s, k) for q in typed) for k, w in enumerate(s.words) if not is_stopword(w))
            for s in named
        ):
            complete.append(i)
    if len(hits) > 1 and len(complete) == 1:
        return Match(tuple(complete), tuple(langs))
    return Match(tuple(hits), tuple(langs))
