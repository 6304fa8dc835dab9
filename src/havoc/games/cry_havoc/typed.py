"""The words a player may type in a compact question besides the machine words.

``move humans from=foglands to=scorch units=2`` works in every language; a Polish player may
type the same question in Polish: ``ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=2``. This
module reads such words back to the machine words the question reader knows:

- question kinds, field names and the values of the fields with a few named values (``deck``,
  ``of``, ``experience`` …) by their typed words: catalog context ``ui:word``, one entry per
  machine word (English keeps the machine word);
- factions, Regions, Structures and Skills by every name a table may give them (``ui.vocabulary``,
  the one list of which names stand for which ID: "Ludzie", "Mgielnia", "Region A", "Żniwiarka",
  "Zwiad", in every catalog language), by the names the answers give the table's own things, and
  by their IDs: a table's own Region key ``Północ``, read as ``polnoc``, is ``z=Północ`` too.

A typed word is folded as every name is (``ui.fold``, as a table's names and the Ask page's form
fold them): no case, no diacritics, any run of spaces, ``_``, ``-`` or other signs one separator,
so a multi-word name is quoted in a shell (``z="Wybrzeże Feralas"``) or joined by hyphens
(``z=wybrzeze-feralas``, the only way in the API's one-string form, which splits on spaces).
Where a folded word names several things, the one written exactly so (diacritics included) is
meant, else the question is refused naming them. Only the full reader comes here (the quick
reader takes plain machine words); a machine word is never read as a typed one.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, Problem
from havoc.core.memo import memo
from havoc.games.cry_havoc import kind as registry
from havoc.games.cry_havoc.contract import FACTIONS, QUESTION_KINDS
from havoc.games.cry_havoc.fields import MOST_VIA, QFIELDS
from havoc.games.cry_havoc.ui import _plain_id, faction_name, fold, region_names, skill_name, structure_name, vocabulary
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, TYPED_CONTEXT, translator, ui

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from typing import Any

    from havoc.games.cry_havoc.position import Position

# Fields the compact form never names with key=value: the kind is the first word, and Units on
# the Battle objectives are given as FACTION=CONTROL/PRISONERS/ATTRITION. A question file names
# them as keys, in a reader's words too ("pytanie: ruch", "cele:").
NOT_TYPED = frozenset({"ask", "objectives"})


def _as_typed(word: str) -> str:
    """A word with its diacritics, case and separators aside: only to tell apart names that
    :func:`~havoc.games.cry_havoc.ui.fold` makes one ("łąka", "laka")."""
    return " ".join(word.lower().replace("_", " ").replace("-", " ").split())


class Ambiguous(Exception):
    """A word without its diacritics that names more than one thing (``shown``: each as shown)."""

    def __init__(self, word: str, shown: list[str]) -> None:
        super().__init__(word)
        self.word = word
        self.shown = shown


class Words:
    """The typed words of one kind of thing: machine words by the word folded as every name is
    (``ui.fold``, as a table's names and the Ask page's form are folded)."""

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        self.folded: dict[str, dict[str, str]] = {}  # folded word -> {machine word: a word as written}
        self.shown: dict[str, str] = {}  # machine word → the typed word shown for it (first language)
        for word, token in pairs:
            self.add(word, token)

    def add(self, word: str, token: str) -> None:
        folded = fold(word)
        if not folded:
            return
        self.folded.setdefault(folded, {}).setdefault(token, word)
        self.shown.setdefault(token, word)

    def named(self, what: str, tokens: Iterable[str]) -> Words:
        """These words with every name a table may give one of ``tokens`` (``ui.vocabulary``:
        the one list of which names stand for which ID) and each token itself."""
        keep = dict.fromkeys(tokens)
        for folded, ids in vocabulary(what).items():
            for token in ids:
                if token in keep:
                    self.folded.setdefault(folded, {}).setdefault(token, "")
        for token in keep:
            self.folded.setdefault(fold(token), {}).setdefault(token, token)
        return self

    def find(self, word: str) -> str | None:
        """The machine word ``word`` names; None for none; :class:`Ambiguous` for several (unless
        one of them is written exactly as typed, diacritics included)."""
        found = self.folded.get(fold(word))
        if not found:
            return None
        if len(found) > 1:
            typed = _as_typed(word)
            exact = [t for t, w in found.items() if _as_typed(w) == typed]
            if len(exact) == 1:
                return exact[0]
            raise Ambiguous(word, sorted(self.say(t) for t in found))
        return next(iter(found))

    def say(self, token: str) -> str:
        """A machine word as a reader types it, the machine word after it: "z (from)"."""
        word = self.shown.get(token, token)
        return token if fold(word) == token else f"{word} ({token})"

    def near(self, word: str) -> str | None:
        """The typed word closest to a misspelt one, if any is close."""
        import difflib

        # a misspelt machine word ("mvoe") is shown its machine word, a typed one its typed word
        typed = {**{t: t for t in self.shown if t.isascii()}, **{fold(w): w for w in self.shown.values()}}
        hint = difflib.get_close_matches(fold(word), list(typed), n=1, cutoff=0.6)
        return typed[hint[0]] if hint else None

    def listing(self) -> str:
        return ", ".join(self.say(t) for t in self.shown)

    def near_token(self, word: str) -> str | None:
        """The machine word whose name (in any language, or itself) is closest to ``word``."""
        import difflib

        hint = difflib.get_close_matches(fold(word), list(self.folded), n=1, cutoff=_NEAR)
        return next(iter(self.folded[hint[0]])) if hint else None


def typed_word(token: str, lang: str) -> str:
    """The word a reader of ``lang`` types for a kind, field or value (English: the machine word)."""
    return translator(lang).text(TYPED_CONTEXT, token)


def typed_tokens() -> Iterator[str]:
    """Every machine word of the question format with a typed word of its own (the catalogs'
    ``ui:word`` entries; the solo Trogs' own words: :func:`havoc.games.cry_havoc.solo.cli.solo_tokens`)."""
    yield from QUESTION_KINDS
    seen = set(QUESTION_KINDS)
    for name, spec in QFIELDS.items():
        if name in NOT_TYPED:
            if name not in seen:  # a question file's key ("pytanie", "cele")
                seen.add(name)
                yield name
            continue
        for token in (name, *(spec.choices or () if spec.kind == "enum" and name != "faction" else ())):
            if token not in seen:
                seen.add(token)
                yield token


def _others() -> list[str]:
    """The languages whose words are read besides the machine words."""
    return [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]


class Lexicon:
    """The typed words of the question format in every language, for any table."""

    def __init__(self, first: str) -> None:
        # the machine words last: read whatever their case ("Move"), shown in a reader's words
        order = reading_order(first)
        self.kinds = Words((typed_word(k, lang), k) for lang in order for k in QUESTION_KINDS)
        self.fields = Words((typed_word(k, lang), k) for lang in order for k in QFIELDS if k not in NOT_TYPED)
        self.keys = Words((typed_word(k, lang), k) for lang in order for k in QFIELDS)  # a question file's
        self.values = {
            name: Words((typed_word(c, lang), c) for lang in order for c in spec.choices or ())
            for name, spec in QFIELDS.items()
            if spec.kind == "enum" and name not in ("ask", "faction")
        }
        self.factions = Words((str(faction_name(f, lang)), f) for lang in order for f in FACTIONS).named(
            "factions", FACTIONS
        )


def lexicon(lang: str) -> Lexicon:
    """The typed words, shown first in ``lang`` (the words of the others read as well); made
    again when the catalogs are loaded again (each catalog language's translator is its key)."""
    return _lexicon(lang, catalogs_key())


@memo(8)
def _lexicon(lang: str, _catalogs: tuple[object, ...]) -> Lexicon:
    return Lexicon(lang)


def catalogs_key() -> tuple[object, ...]:
    """The other languages' translators: a key that changes when the catalogs are loaded again
    (for the typed words' caches)."""
    return tuple(translator(x) for x in _others())


def reading_order(lang: str) -> list[str]:
    """The languages whose words are read, ``lang`` first and the machine words last."""
    return list(dict.fromkeys([lang, *_others(), SOURCE_LANGUAGE]))


def regions(pos: Position, lang: str) -> Words:
    """The table's Regions by name ("Mgielnia", "Region A") in every language."""
    return _region_words(tuple(pos.regions), lang, catalogs_key())


@memo(64)
def _region_words(keys: tuple[str, ...], lang: str, _catalogs: tuple[object, ...]) -> Words:
    named = Words((str(n), rid) for x in reading_order(lang) for rid, n in region_names(keys, x).items())
    return named.named("regions", keys)  # a key folded names it too: "Północ" the table's polnoc


def _structure_ids(pos: Position) -> dict[str, None]:
    """The Structure types known from the sources and those standing on the table."""
    from havoc.games.cry_havoc import words

    types = dict.fromkeys(words.STRUCTURES)
    for region in pos.regions.values():
        for s in region.structures:
            types[s.type] = None
    return types


def _skill_ids(pos: Position) -> dict[str, None]:
    """The Skills known from the sources and those the table's factions list."""
    from havoc.games.cry_havoc import words

    ids = dict.fromkeys(words.SKILLS)
    for f in pos.players:
        ids.update(dict.fromkeys(pos.faction(f).skills))
    return ids


def structures(pos: Position, lang: str) -> Words:
    """Structure types by their names (see :func:`_structure_ids`)."""
    return _structure_words(tuple(_structure_ids(pos)), lang, catalogs_key())


@memo(64)
def _structure_words(types: tuple[str, ...], lang: str, _catalogs: tuple[object, ...]) -> Words:
    return Words((str(structure_name(t, x)), t) for x in reading_order(lang) for t in types).named("structures", types)


def skills(pos: Position, lang: str) -> Words:
    """Skills by their names (see :func:`_skill_ids`)."""
    return _skill_words(tuple(_skill_ids(pos)), lang, catalogs_key())


@memo(64)
def _skill_words(ids: tuple[str, ...], lang: str, _catalogs: tuple[object, ...]) -> Words:
    return Words((str(skill_name(s, x)), s) for x in reading_order(lang) for s in ids).named("skills", ids)


_SHOWN_MAX = 12  # names an error lists at most (a table may hold many Regions: errors stay short)


_NEAR = (
    0.62  # how alike a name must be to be suggested ("kula-mocy" for "Sfera Mocy": 0.63; "żniwa" for "Zwiad": 0.6, not)
)


def known_thing(key: str, word: str, pos: Position) -> bool:
    """A Structure type or Skill a question may name by this machine word: one known from the
    sources, one of the table's, or an invented one (``example-…``)."""
    ids = _structure_ids(pos) if key == "structure" else _skill_ids(pos)
    return word in ids or word.startswith("example-")


def unknown_thing(key: str, word: str, pos: Position, lang: str) -> str:
    """A Structure or Skill the question names that names nothing, with the nearest name
    ("nieznana Budowla „kula-mocy” — czy chodziło o Sferę Mocy?"), in the reader's words, or the
    known ones when none is near."""
    words = (structures if key == "structure" else skills)(pos, lang)
    near = words.near_token(word)
    name_of = structure_name if key == "structure" else skill_name
    if key == "structure":
        if near is not None:
            return ui("unknown Structure '{name}' — did you mean {near}?", lang).format(
                name=word, near=name_of(near, lang)
            )
        return ui("unknown Structure '{name}'; the known ones: {names}", lang).format(
            name=word, names=_some([str(name_of(t, lang)) for t in words.shown])
        )
    if near is not None:
        return ui("unknown Skill '{name}' — did you mean {near}?", lang).format(name=word, near=name_of(near, lang))
    return ui("unknown Skill '{name}'; the known ones: {names}", lang).format(
        name=word, names=_some([str(name_of(t, lang)) for t in words.shown])
    )


def _some(names: list[str]) -> str:
    return ", ".join(names[:_SHOWN_MAX]) + (", …" if len(names) > _SHOWN_MAX else "")


class _Reading:
    """One compact question's words read back to machine words, with the problems found."""

    def __init__(self, pos: Position, name: str, lang: str) -> None:
        self.pos = pos
        self.name = name
        self.lang = lang
        # Another language's reader is told here which words it may type; an English one gets
        # the reader's own messages, about the machine words, as before.
        self.strict = lang != SOURCE_LANGUAGE
        self.problems: list[Problem] = []
        self.line: int | None = None  # a question file's line of the word read (the compact form has none)
        self.keys_as_typed: dict[str, str] = {}  # a question file's fields as its keys name them ("from")
        self._tables: dict[str, Words] = {}
        self._lex: Lexicon | None = None

    @property
    def lex(self) -> Lexicon:
        """The typed words (looked up on the first word that is not a machine word)."""
        found = self._lex
        if found is None:
            found = self._lex = lexicon(self.lang)
        return found

    def table(self, what: str) -> Words:
        found = self._tables.get(what)
        if found is None:
            make = {"regions": regions, "structures": structures, "skills": skills}[what]
            found = self._tables[what] = make(self.pos, self.lang)
        return found

    def field_word(self, key: str) -> str:
        """A field as the question names it: a file's key as written, else the reader's word."""
        return self.keys_as_typed.get(key) or typed_word(key, self.lang)

    def say(self, message: str, code: str = Code.FIELD_VALUE) -> None:
        self.problems.append(Problem(self.name, self.line, message, code=code))

    def look(self, words: Words, word: str) -> str | None:
        """The machine word a typed word names; None for none (or several: said here, then
        the word itself is returned so that no second problem is said about it)."""
        try:
            return words.find(word)
        except Ambiguous as exc:
            self.say(
                ui("{word} may name {candidates}; type one of them in full", self.lang).format(
                    word=repr(word), candidates=", ".join(exc.shown)
                ),
                code=Code.QUERY_WORD,
            )
            return word

    def hint(self, words: Words, word: str) -> str:
        if len(self.problems) >= _HINTS_MOST:  # (each is a difflib search among every name)
            return ""
        near = words.near(word)
        return " " + ui("(did you mean {name}?)", self.lang).format(name=repr(near)) if near else ""

    def kind(self, word: str) -> str:
        if word in QUESTION_KINDS:
            return word
        found = self.look(self.lex.kinds, word)
        if found is None and self.strict:
            self.say(
                ui("unknown question kind {name}{hint}; expected one of {choices}", self.lang).format(
                    name=repr(word), hint=self.hint(self.lex.kinds, word), choices=self.lex.kinds.listing()
                ),
                code=Code.QUERY_KIND,
            )
        return found or word

    def bare(self, kind: str, word: str) -> str:
        """A word without ``=``: a faction, or a value of one of the kind's bare fields."""
        declared = registry.get(kind)
        fields = declared.bare if declared else ()
        if word in FACTIONS or any(
            word in (QFIELDS[f].choices or ()) if QFIELDS[f].kind == "enum" else word in self.pos.regions
            for f in fields
        ):
            return word
        tables = [self.lex.factions] + [
            self.lex.values[f] if QFIELDS[f].kind == "enum" else self.table("regions") for f in fields
        ]
        for words in tables:
            found = self.look(words, word)
            if found is not None:
                return found
        if self.strict:
            names = [w.say(t) for w in tables for t in w.shown]
            merged = Words((n, n) for w in tables for n in w.shown.values())
            self.say(
                ui("{word}: expected key=value (e.g. {example}) or one of {choices}{hint}", self.lang).format(
                    word=repr(word),
                    example=f"{typed_word('units', self.lang)}=2",
                    choices=_some(names),
                    hint=self.hint(merged, word),
                ),
                code=Code.QUERY_WORD,
            )
        return word

    def pair(self, word: str) -> str:
        """A ``key=value`` word (or a Battle placement ``FACTION=C/P/A``) in machine words."""
        key, _, raw = word.partition("=")
        if key not in QFIELDS and key not in FACTIONS:
            found = self.look(self.lex.fields, key) or self.look(self.lex.factions, key)
            if found is None:
                if self.strict:
                    self.say(
                        ui("unknown field {name}{hint}; expected one of {choices}", self.lang).format(
                            name=repr(key), hint=self.hint(self.lex.fields, key), choices=self.lex.fields.listing()
                        ),
                        code=Code.QUERY_FIELD,
                    )
                return word
            key = found
        spec = QFIELDS.get(key)
        if spec is None:  # a placement, or an ambiguous word said above
            return f"{key}={raw}"
        return f"{key}={self.value(key, spec.kind, raw, spec.choices)}"

    def value(self, key: str, kind: str, raw: str, choices: tuple[str, ...] | None) -> str:
        if key in ("from", "to", "region"):
            return self.region(key, raw)
        if key == "via":
            through = [w for w in raw.split(",") if w]
            if len(through) > MOST_VIA:  # a list past its limit is refused as typed: no name in it is read
                return raw
            return ",".join(self.region(key, w) for w in through)
        if key == "faction":
            return self.named(key, raw, FACTIONS, self.lex.factions)
        if kind == "enum" and key in self.lex.values:
            return self.named(key, raw, choices or (), self.lex.values[key])
        # a machine ID is taken as it is, without naming every Structure or Skill of the table
        if key in ("structure", "skill") and not known_thing(key, raw, self.pos):
            found = self.look(self.table("structures" if key == "structure" else "skills"), raw)
            # (a machine word in English is said by the question's check, query.parse_query; a word
            # that is no machine word is said here in every language, not as a malformed ID)
            if found is None and (self.strict or not _plain_id(raw)):
                self.say(f"{self.field_word(key)}: " + unknown_thing(key, raw, self.pos, self.lang))
            return found or raw
        if key == "card-units":
            parts = []
            for part in (w for w in raw.split(",") if w):
                side, colon, num = part.partition(":")
                if side not in FACTIONS:
                    side = self.look(self.lex.factions, side) or side
                parts.append(f"{side}{colon}{num}")
            return ",".join(parts)
        return raw

    def named(self, key: str, raw: str, choices: Iterable[str], words: Words) -> str:
        if raw in choices:
            return raw
        found = self.look(words, raw)
        if found is None and self.strict:
            self.say(
                ui("{field}: unknown value {name}{hint}; expected one of {choices}", self.lang).format(
                    field=self.field_word(key),
                    name=repr(raw),
                    hint=self.hint(words, raw),
                    choices=words.listing(),
                ),
                code=Code.FIELD_VALUE,
            )
        return found or raw

    def region(self, key: str, raw: str) -> str:
        if raw in self.pos.regions:
            return raw
        found = self.look(self.table("regions"), raw)
        if found is None and self.strict:
            from havoc.games.cry_havoc.places import label

            names = self.table("regions")
            self.say(
                f"{self.field_word(key)}: "
                + ui("unknown Region {name}; list it under the position's {field}", self.lang).format(
                    name=repr(raw), field=label("regions", self.lang)
                )
                + self.hint(names, raw),
                code=Code.POSITION_UNKNOWN_REGION,
            )
        return found or raw


_HINTS_MOST = 4
"""Problems of one question in which a near word is suggested: the first few, not 16 of a ``via``."""


def to_machine(words: Sequence[str], pos: Position, name: str, lang: str) -> tuple[list[str], list[Problem]]:
    """A compact question's words with every typed word read as its machine word, and the
    problems of the words that are neither (said here only to another language's reader)."""
    reading = _Reading(pos, name, lang)
    kind = reading.kind(words[0])
    out = [kind]
    for word in words[1:]:
        out.append(reading.pair(word) if "=" in word else reading.bare(kind, word))
    return out, reading.problems


def mapping_to_machine(data: Any, pos: Position, name: str, lang: str) -> tuple[Any, list[Problem], bool]:
    """A question file's mapping with every key and value typed in a reader's words read as its
    machine word, as the compact form's are (``{pytanie: ruch, frakcja: ludzie, z: Mgielnia,
    oddziały: 2}`` is ``{ask: move, faction: humans, from: foglands, units: 2}``); the lines
    kept, the problems of the words that are neither (said here only to another language's
    reader; anything else is left to the question's reader), and whether any key was typed."""
    if not isinstance(data, dict):
        return data, [], False
    reading = _Reading(pos, name, lang)
    typed_keys = False
    out: list[tuple[str, Any, Any]] = []  # (key, value, the key as typed)
    for key, value in data.items():
        reading.line = _line_of(data, key)
        field = key if not isinstance(key, str) or key in QFIELDS else reading.look(reading.lex.keys, key)
        if field is None:
            if reading.strict:
                reading.say(
                    ui("unknown field {name}{hint}; expected one of {choices}", lang).format(
                        name=repr(key), hint=reading.hint(reading.lex.keys, key), choices=reading.lex.keys.listing()
                    ),
                    code=Code.QUERY_FIELD,
                )
            out.append((key, value, key))
            continue
        typed_keys = typed_keys or field != key
        reading.keys_as_typed[field] = key
        out.append((field, _file_value(reading, field, value), key))
    _once(reading, data, out)
    if reading.strict and typed_keys and "ask" not in reading.keys_as_typed:  # 'pytanie', not 'ask'
        reading.line = _line_of(data, None)
        reading.say(
            ui("missing required field {name}", lang).format(name=repr(typed_word("ask", lang))),
            code=Code.FIELD_MISSING,
        )
    return _like(data, out), reading.problems, typed_keys


def _once(reading: _Reading, data: Any, items: list[tuple[Any, Any, Any]]) -> None:
    """Two keys of a file's mapping that name the same field or faction ("from" and "z") are a
    problem, never one of them silently dropped."""
    first: dict[Any, Any] = {}
    for key, _, typed in items:
        if key in first:
            reading.line = _line_of(data, typed)
            reading.say(
                ui("{first} and {second} name the same; list it once", reading.lang).format(
                    first=repr(first[key]), second=repr(typed)
                ),
                code=Code.FIELD_VALUE,
            )
        first.setdefault(key, typed)


def _file_value(reading: _Reading, field: str, value: Any) -> Any:
    """One field's value of a question file in machine words (see :func:`mapping_to_machine`)."""
    spec = QFIELDS.get(field)
    if spec is None:
        return value
    if field == "ask":
        return reading.kind(value) if isinstance(value, str) else value
    if isinstance(value, str):
        if spec.kind == "bool":
            from havoc.language.languages import no_words, yes_words

            low = value.lower()
            return True if low in yes_words() else False if low in no_words() else value
        if spec.kind in ("int", "map"):
            return value
        return reading.value(field, spec.kind, value, spec.choices)
    if field == "via" and isinstance(value, list) and len(value) <= MOST_VIA:  # (a longer one: refused as it is)
        items = []
        for i, item in enumerate(value):
            reading.line = _line_of(value, i)
            items.append(reading.region(field, item) if isinstance(item, str) else item)
        return _like_list(value, items)
    if field in ("objectives", "card-units") and isinstance(value, dict):
        sides = []
        for side, item in value.items():
            reading.line = _line_of(value, side)
            faction = reading.named(field, side, FACTIONS, reading.lex.factions) if isinstance(side, str) else side
            if field == "objectives" and isinstance(item, dict):
                places = [(_objective(reading, k, item), v, k) for k, v in item.items()]
                _once(reading, item, places)
                item = _like(item, places)
            sides.append((faction, item, side))
        _once(reading, value, sides)
        return _like(value, sides)
    return value


def _objective(reading: _Reading, key: Any, item: Any) -> Any:
    """A Battle objective's key ("kontrola", "Wyniszczenie") as its machine word."""
    if not isinstance(key, str):
        return key
    reading.line = _line_of(item, key)
    words = reading.lex.values["capture-from"]  # the objectives, as the compact form names them
    return reading.named("objectives", key, QFIELDS["capture-from"].choices or (), words)


def _line_of(data: Any, key: Any) -> int | None:
    """The line of a key of a file's mapping, or of an item of its list (None for plain data)."""
    from havoc.formats.yamlio import LDict, LList

    if isinstance(data, LDict):
        return data.line_of(key)
    if isinstance(data, LList) and isinstance(key, int) and key < len(data.item_lines):
        return data.item_lines[key]
    return None


def _like(data: Any, items: list[tuple[Any, Any, Any]]) -> Any:
    """A mapping of ``items`` (key, value, the key it was typed as) keeping ``data``'s lines."""
    from havoc.formats.yamlio import LDict

    if not isinstance(data, LDict):
        return {k: v for k, v, _ in items}
    out = LDict((k, v) for k, v, _ in items)
    out.line = data.line
    out.key_lines = {k: data.line_of(typed) for k, _, typed in items}
    return out


def _like_list(data: Any, items: list[Any]) -> Any:
    """A list of ``items`` keeping ``data``'s lines."""
    from havoc.formats.yamlio import LList

    if not isinstance(data, LList):
        return items
    out = LList(items)
    out.line = data.line
    out.item_lines = list(data.item_lines)
    return out


def typed_faction(faction: str, lang: str) -> str:
    """A faction as a reader of ``lang`` types it (``ludzie``; English: the machine word)."""
    return faction if lang == SOURCE_LANGUAGE else str(faction_name(faction, lang)).lower()


def spoken(words: Sequence[str], lang: str) -> str:
    """Compact machine words as a reader of ``lang`` types them, quoted for a shell where a name
    has a space: the help's examples (``ruch ludzie z=Mgielnia do="Wybrzeże Feralas"``)."""
    if lang == SOURCE_LANGUAGE:
        return " ".join(words)

    def region(rid: str) -> str:
        return str(region_names([rid], lang)[rid])

    def faction(f: str) -> str:
        return typed_faction(f, lang)

    def quoted(text: str) -> str:
        return f'"{text}"' if " " in text else text

    kind = words[0]
    out = [typed_word(kind, lang)]
    declared = registry.get(kind)
    for word in words[1:]:
        if word.startswith("-"):  # an option (--json)
            out.append(word)
        elif "=" not in word:
            enums = [f for f in declared.bare if QFIELDS[f].kind == "enum"] if declared else []
            if word in FACTIONS:
                out.append(faction(word))
            elif any(word in (QFIELDS[f].choices or ()) for f in enums):
                out.append(typed_word(word, lang))
            else:
                out.append(quoted(region(word)))
        else:
            key, _, raw = word.partition("=")
            if key in FACTIONS:
                out.append(f"{faction(key)}={raw}")
                continue
            spec = QFIELDS[key]
            if key in ("from", "to", "region"):
                value = region(raw)
            elif key == "via":
                value = ",".join(region(r) for r in raw.split(","))
            elif key == "faction":
                value = faction(raw)
            elif spec.kind == "enum":
                value = typed_word(raw, lang)
            elif key == "structure":
                value = str(structure_name(raw, lang))
            elif key == "skill":
                value = str(skill_name(raw, lang))
            else:
                value = raw
            out.append(f"{typed_word(key, lang)}={quoted(value)}")
    return " ".join(out)
