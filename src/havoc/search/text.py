"""Words and search keys: the one definition the index, ``lookup`` and the browser all follow.

A word becomes a *key* in three steps: lowercase, stem with its language's Snowball stemmer
, then fold the diacritics away so that "jencow" meets "jeńców". The
browser's query script (``havoc-search.js``) repeats these steps with Snowball's JavaScript
stemmers; the tests run both over every word of the rulebook.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

from havoc import TYPE_CHECKING
from havoc.language.languages import REGISTRY

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

# Letters and digits; the browser uses /[\p{L}\p{N}]+/gu on the NFC text, which is the same set.
_WORD = re.compile(r"[^\W_]+")
_MARKS = re.compile("[\u0300-\u036f]")

STEMMER_NAMES = {code: lang.stemmer for code, lang in REGISTRY.items()}

# Short function words that carry no meaning for search (deliberately small lists: a game word
# must never land here). Compared after folding, so "sie" is "się" too.
POLISH_STOPWORDS = frozenset(
    [
        "a",
        "aby",
        "ale",
        "albo",
        "ani",
        "az",
        "aż",
        "bo",
        "by",
        "być",
        "był",
        "była",
        "było",
        "były",
        "będzie",
        "co",
        "czy",
        "dla",
        "do",
        "gdy",
        "go",
        "i",
        "ich",
        "im",
        "iż",
        "ja",
        "jak",
        "jako",
        "je",
        "jego",
        "jej",
        "jest",
        "jeśli",
        "jeżeli",
        "już",
        "ją",
        "ku",
        "lub",
        "ma",
        "mi",
        "mnie",
        "mu",
        "na",
        "nad",
        "niż",
        "o",
        "od",
        "oraz",
        "po",
        "pod",
        "przez",
        "przy",
        "się",
        "są",
        "ta",
        "tak",
        "także",
        "te",
        "tego",
        "tej",
        "ten",
        "też",
        "to",
        "tu",
        "ty",
        "tym",
        "u",
        "w",
        "we",
        "więc",
        "z",
        "za",
        "ze",
        "że",
        "ile",
        "ilu",
        "kiedy",
        "jaki",
        "jaka",
        "jakie",
        "można",
        "mogę",
        "dzieje",
        "stanie",
    ]
)
ENGLISH_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "do",
        "does",
        "did",
        "for",
        "from",
        "has",
        "have",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "will",
        "with",
        "you",
        "your",
        "how",
        "many",
        "much",
        "can",
        "could",
        "should",
        "happen",
        "happens",
        "happened",
    ]
)
STOPWORDS = frozenset(unicodedata.normalize("NFC", w) for w in POLISH_STOPWORDS | ENGLISH_STOPWORDS)


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Lowercase without diacritics (ł → l too, which Unicode does not decompose)."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return unicodedata.normalize("NFC", _MARKS.sub("", decomposed)).replace("ł", "l")


def words(text: str) -> list[str]:
    """The lowercased words of a text, in order."""
    return _WORD.findall(unicodedata.normalize("NFC", text).lower())


_COMPOUND = re.compile(r"[^\W_]+(?:-[^\W_]+)+")


def compounds(text: str) -> list[str]:
    """The hyphenated words of a text, joined ("tie-break" -> "tiebreak"): typed either way."""
    return ["".join(m.group().split("-")) for m in _COMPOUND.finditer(unicodedata.normalize("NFC", text).lower())]


def spans(text: str) -> Iterator[tuple[int, int, str]]:
    """Each word's start, end and lowercased form (for highlighting whole words)."""
    for m in _WORD.finditer(text):
        yield m.start(), m.end(), m.group().lower()


def is_stopword(word: str) -> bool:
    return fold(word) in FOLDED_STOPWORDS


FOLDED_STOPWORDS = frozenset(fold(w) for w in STOPWORDS)


@cache
def _stemmer(lang: str) -> Any:
    """The pure-Python Snowball stemmer of ``lang`` (what ``snowballstemmer.stemmer`` gives).

    Only that language's module is imported: ``snowballstemmer``'s package imports all of its
    36 stemmers, which cost a short ``havoc lookup`` process more than answering it.
    """
    name = STEMMER_NAMES[lang]
    module = _stemmer_module(f"{name}_stemmer")
    return getattr(module, "".join(part.capitalize() for part in name.split("_")) + "Stemmer")()


_ALIAS = "_havoc_snowballstemmer"  # the stemmers' folder as a package whose __init__ is not run


def _stemmer_module(module: str) -> Any:
    import importlib
    import sys

    if "snowballstemmer" in sys.modules:  # already imported whole (a Sphinx build): use it
        return importlib.import_module(f"snowballstemmer.{module}")
    if _ALIAS not in sys.modules:
        from importlib.machinery import PathFinder
        from types import ModuleType

        spec = PathFinder.find_spec("snowballstemmer")
        if spec is None or not spec.submodule_search_locations:
            return importlib.import_module(f"snowballstemmer.{module}")
        package = ModuleType(_ALIAS)
        package.__path__ = list(spec.submodule_search_locations)
        package.__package__ = _ALIAS
        sys.modules[_ALIAS] = package
    return importlib.import_module(f"{_ALIAS}.{module}")


def snowball(word: str, lang: str) -> str:
    """The plain Snowball stem of a lowercased word."""
    return str(_stemmer(lang).stemWord(word))


# lang -> word -> its key: each word is stemmed once per process (an index build meets a word
# hundreds of times), and a build starts from the last build's words (:func:`remember_keys`)
KEYS: dict[str, dict[str, str]] = {}


def key(word: str, lang: str) -> str:
    """The search key of one lowercased word of ``lang``: its folded stem (numbers as they are)."""
    known = KEYS.get(lang)
    if known is None:
        known = KEYS[lang] = {}
    found = known.get(word)
    if found is None:
        found = known[word] = word if word.isdigit() else fold(snowball(word, lang))
    return found


def edit1(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` with one letter inserted, deleted, replaced, or two neighbours swapped."""
    la, lb = len(a), len(b)
    if a == b or abs(la - lb) > 1:
        return False
    i = 0
    while i < min(la, lb) and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1 :] == b[i + 1 :]:
            return True
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
    if la < lb:
        return a[i:] == b[i + 1 :]
    return a[i + 1 :] == b[i:]
