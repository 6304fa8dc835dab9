"""A name with its case forms (:class:`Noun`) and the cases a sentence may ask for.

Kept apart from :mod:`havoc.language.grammar` (which looks the forms up in the catalogs) because
:mod:`havoc.language.i18n` formats every translated string with these and must not import the catalogs'
users back.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

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
# Phrases a name may carry beside its cases, where the preposition is the name's own and not
# the sentence's: a Region's "to" ("do Mgielni", "na Wybrzeże Feralas") and "in" ("w Mgielni",
# "na Wybrzeżu Feralas"), each a catalog entry of its own (havoc.games.cry_havoc.ui).
PHRASES = ("to", "in")
# Every format spec a translated sentence may give a name: a case or a phrase (any other value
# given one shows as it is, see havoc.language.i18n.Text).
SPECS = frozenset(CASES) | frozenset(PHRASES)


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
        if spec in self.forms:  # a phrase a name carries beside its cases (a Region's "to": "na Wybrzeże Feralas")
            return self.forms[spec]
        if spec in PHRASES:  # a name without it (a Region the table does not hold): the name, never a crash
            return str(self)
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
        forms = [n.forms if isinstance(n, Noun) else {"nom": str(n)} for n in nouns]
        return Noun({c: sep.join([f.get(c) or f["nom"] for f in forms]) for c in CASES})
