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

from havoc import TYPE_CHECKING
from havoc.core.memo import memo
from havoc.core.record import record
from havoc.search.text import fold, is_stopword, key, words

if TYPE_CHECKING:
    from collections.abc import Sequence

    from havoc.engine.rulebook.model import Ruleset

_BRACKETS = re.compile(r"\([^()]*\)?|\[[^\[\]]*\]?")  # a note, closed or left open at the end


@record(frozen=True)
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


@memo(1 << 14)
def stem(word: str, lang: str) -> str:
    """The search's key of a word (cached: a lookup stems the same few words again and again)."""
    return key(word, lang)


def _whole(text: str) -> str:
    return " ".join(fold(unicodedata.normalize("NFC", text)).split())


def spellings(rs: Ruleset, rule_id: str, column: int = 0) -> list[list[Spelling]]:
    """Each row's name (its cell in ``column``) in every language havoc speaks."""
    return [list(s) for s in _spellings(rs, rule_id, column)]


SPELLINGS = "chart-spellings"  # the cache's kind of entry for a table's spellings


@memo(64)
def _spellings(rs: Ruleset, rule_id: str, column: int) -> tuple[tuple[Spelling, ...], ...]:
    """Kept in the verified cache (plain data): spelling every row stems each word in every
    language and loads every language's catalog, most of a short ``havoc charts`` process. The
    key is made of what they are made of: the rules (their fingerprint), each catalog (its
    files' bytes), and the code that splits, folds and stems. A sealed bundle (the browser) has
    no sources to key by and keeps them in memory for the page's life: it spells them."""
    from havoc.core import cache, sealed
    from havoc.language import i18n
    from havoc.language.languages import CODES, SOURCE
    from havoc.search import text

    if not rs.fingerprint or sealed.active():  # a ruleset made in memory (tests), a sealed bundle
        return _spelled(rs, rule_id, column)
    chunks = [rs.fingerprint.encode(), rule_id.encode(), str(column).encode()]
    chunks += [i18n.catalog_key(lang).encode() for lang in CODES if lang != SOURCE]
    chunks += [cache.code_bytes(path) for path in (__file__, text.__file__, i18n.__file__)]
    key = cache.digest(*chunks)
    found = cache.get(SPELLINGS, key, tuple)
    if found is not None:
        return tuple(tuple(Spelling(*s) for s in forms) for forms in found)
    made = _spelled(rs, rule_id, column)
    names = Spelling.__record_fields__  # type: ignore[attr-defined]
    cache.put(SPELLINGS, key, tuple(tuple(tuple(getattr(s, n) for n in names) for s in forms) for forms in made))
    return made


def _spelled(rs: Ruleset, rule_id: str, column: int) -> tuple[tuple[Spelling, ...], ...]:
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


@record(frozen=True)
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
