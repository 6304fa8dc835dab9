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

from havoc.language.i18n import SOURCE_LANGUAGE, UI_CONTEXT, Translator, translator
from havoc.language.nouns import CASES, OBLIQUE, PHRASES, Noun

__all__ = ["CASES", "OBLIQUE", "PHRASES", "Noun", "case_comment", "case_context", "noun"]


def case_context(case: str) -> str:
    """The catalog context holding a name's form in ``case`` (the nominative is plain ``ui``)."""
    return UI_CONTEXT if case == "nom" else f"{UI_CONTEXT}:{case}"


def case_comment(case: str) -> str:
    return f"The name in the {CASES[case]}; keep every {{placeholder}}."


def noun(msgid: str, lang: str = SOURCE_LANGUAGE, **fill: object) -> Noun:
    """The declinable name ``msgid`` in ``lang``, every case looked up; ``fill`` fills its
    placeholders (``Region {letter}``). English names do not decline.

    A name is looked up once per language's catalog (a legal-actions list names the same decks
    and Regions on every request): kept by name, fill and the catalog's translator, at most
    :data:`_NOUNS_KEPT` of them (a player's own Region IDs fill names too).
    """
    tr = None if lang == SOURCE_LANGUAGE else translator(lang)
    key = (msgid, lang, *fill.items())
    try:
        found = _nouns.get(key)
    except TypeError:  # a fill value that is no key (none of the game's are): looked up afresh
        return _noun(msgid, lang, tr, fill)
    if found is not None and found[0] is tr:
        return found[1]
    made = _noun(msgid, lang, tr, fill)
    if len(_nouns) >= _NOUNS_KEPT:
        _nouns.clear()
    _nouns[key] = (tr, made)
    return made


_NOUNS_KEPT = 4096
_nouns: dict[tuple[object, ...], tuple[Translator | None, Noun]] = {}


def _noun(msgid: str, lang: str, tr: Translator | None, fill: dict[str, object]) -> Noun:
    if tr is None:
        text = msgid.format(**fill) if fill else msgid
        return Noun.plain(text)
    nom = tr.text(UI_CONTEXT, msgid)
    forms = {"nom": nom}
    for case in OBLIQUE:
        forms[case] = tr.text(case_context(case), msgid)
        if forms[case] == msgid:  # untranslated case: the nominative reads better than English
            forms[case] = nom
    if fill:
        forms = {c: f.format(**fill) for c, f in forms.items()}
    return Noun(forms)
