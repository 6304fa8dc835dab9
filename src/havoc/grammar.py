"""Names that decline: a name's case forms come from the catalogs, sentences pick the case.

A Polish sentence needs "z Mgielni", "do Pogorzeliska", "sąsiaduje z Mgielnią": the case a
preposition or verb governs. English needs none of it. So a name shown in a sentence is a
:class:`Noun` — a string (its nominative) that also knows its other cases — and a translated
sentence names the case it needs in the placeholder: the English ``from {src} to {dst}`` is
translated ``z {src:gen} do {dst:gen}``. ``str.format`` hands the ``gen`` to :meth:`Noun.__format__`.

Where the forms live (for translators): every declinable name is an entry of ``havoc.po``
under context ``ui`` (the nominative, as every interface string) and once more under each of
``ui:gen``, ``ui:dat``, ``ui:acc``, ``ui:ins`` and ``ui:loc`` (genitive, dative, accusative,
instrumental, locative), each with a comment giving the case's question words. A case left
untranslated falls back to the nominative (and ``havoc check`` reports it as missing).
The names come from the game package's ``nouns()``; ``havoc catalog update`` adds their entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from havoc.i18n import SOURCE_LANGUAGE, UI_CONTEXT, translator

# The cases a sentence may ask for, with what a translator is told about each.
CASES: dict[str, str] = {
    "nom": "nominative (kto? co?) — the name as a label",
    "gen": "genitive (kogo? czego?) — z/do/bez/od …: z Mgielni, do Pogorzeliska",
    "dat": "dative (komu? czemu?) — przypada Pielgrzymom",
    "acc": "accusative (kogo? co?) — na/przez …: na Wybrzeże Feralas, wznieść Żniwiarkę",
    "ins": "instrumental (z kim? z czym?) — sąsiaduje z Mgielnią, nad Regionem A",
    "loc": "locative (o kim? o czym?) — w/na …: w Regionie A, na Wybrzeżu Feralas",
}
OBLIQUE = tuple(c for c in CASES if c != "nom")


def case_context(case: str) -> str:
    """The catalog context holding a name's form in ``case`` (the nominative is plain ``ui``)."""
    return UI_CONTEXT if case == "nom" else f"{UI_CONTEXT}:{case}"


def case_comment(case: str) -> str:
    return f"The name in the {CASES[case]}; keep every {{placeholder}}."


class Noun(str):
    """A name: its nominative as the string, its other cases for ``{name:gen}`` and friends."""

    forms: Mapping[str, str]

    def __new__(cls, forms: Mapping[str, str]) -> Noun:
        self = super().__new__(cls, forms["nom"])
        self.forms = dict(forms)
        return self

    def case(self, case: str) -> str:
        return self.forms.get(case) or self.forms["nom"]

    def __format__(self, spec: str) -> str:
        if spec in CASES:
            return self.case(spec)
        return format(str(self), spec)

    def __reduce__(self) -> tuple[type, tuple[Mapping[str, str]]]:
        return (Noun, (dict(self.forms),))

    @staticmethod
    def plain(text: str) -> Noun:
        """A name that does not decline (a user's own Region ID, a number)."""
        return Noun({c: text for c in CASES})

    @staticmethod
    def join(nouns: Iterable[str], sep: str = ", ") -> Noun:
        """Several names as one, each case joined ("z Mgielnią, Wybrzeżem Feralas")."""
        items = [n if isinstance(n, Noun) else Noun.plain(str(n)) for n in nouns]
        return Noun({c: sep.join(n.case(c) for n in items) for c in CASES})


def noun(msgid: str, lang: str = SOURCE_LANGUAGE, **fill: object) -> Noun:
    """The declinable name ``msgid`` in ``lang``, every case looked up; ``fill`` fills its
    placeholders (``Region {letter}``). English names do not decline."""
    if lang == SOURCE_LANGUAGE:
        text = msgid.format(**fill) if fill else msgid
        return Noun.plain(text)
    tr = translator(lang)
    nom = tr.text(UI_CONTEXT, msgid)
    forms = {"nom": nom}
    for case in OBLIQUE:
        forms[case] = tr.text(case_context(case), msgid)
        if forms[case] == msgid:  # untranslated case: the nominative reads better than English
            forms[case] = nom
    if fill:
        forms = {c: f.format(**fill) for c, f in forms.items()}
    return Noun(forms)
