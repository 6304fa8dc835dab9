"""The languages havoc speaks: one entry each, so a third language is its catalogs plus one entry.

Everything that differs between languages and is not a translated string lives here: the name
a reader knows the language by, its plural rule, quotation marks, alphabetical order, the
words a reader types for yes and no, its Snowball stemmer, its locale, and the one-letter words
that must not end a printed line.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from havoc.core.tuples import NamedTuple


class Language(NamedTuple):
    code: str
    name: str  # in the language itself, for the language switch
    plural: str  # the gettext plural expression (CLDR)
    quotes: tuple[str, str]  # opening and closing quotation marks
    alphabet: str  # lowercase letters in dictionary order; others sort after, by code point
    yes: tuple[str, ...]  # words a reader types for yes (besides "yes", "true", "1")
    no: tuple[str, ...]
    stemmer: str  # the snowballstemmer algorithm
    locale: str  # for Open Graph and the like
    hanging: str = ""  # one-letter words typesetting keeps off the end of a line


SOURCE = "en"  # the language the rules are written in

REGISTRY: dict[str, Language] = {
    "en": Language(
        code="en",
        name="English",
        plural="(n != 1)",
        quotes=("“", "”"),
        alphabet="abcdefghijklmnopqrstuvwxyz",
        yes=("yes", "true", "1"),
        no=("no", "false", "0"),
        stemmer="english",
        locale="en_GB",
    ),
    "pl": Language(
        code="pl",
        name="Polski",
        plural="(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
        quotes=("„", "”"),
        alphabet="aąbcćdeęfghijklłmnńoóprsśtuvwxyzźż",
        yes=("tak",),
        no=("nie",),
        stemmer="polish",
        locale="pl_PL",
        hanging="aiouwzAIOUWZ",
    ),
}

CODES: tuple[str, ...] = tuple(REGISTRY)


def language(code: str) -> Language:
    """The registry entry of ``code`` (the source language for an unknown code)."""
    return REGISTRY.get(code) or REGISTRY[SOURCE]


def collation_key(text: str, code: str) -> list[int]:
    """Sort key in ``code``'s alphabetical order (Ł after L in Polish, not after Z)."""
    alphabet = language(code).alphabet
    return [alphabet.index(c) if c in alphabet else 100 + ord(c) for c in text.lower()]


def quote(text: str, code: str) -> str:
    opening, closing = language(code).quotes
    return f"{opening}{text}{closing}"


def yes_words() -> frozenset[str]:
    """Every word any language's reader may type for yes."""
    return frozenset(w for lang in REGISTRY.values() for w in (*lang.yes, "yes", "true", "1"))


def no_words() -> frozenset[str]:
    return frozenset(w for lang in REGISTRY.values() for w in (*lang.no, "no", "false", "0"))


__all__ = ["CODES", "REGISTRY", "SOURCE", "Language", "collation_key", "language", "no_words", "quote", "yes_words"]
