"""Cry Havoc (Portal Games, 2016) on the havoc engine: what the game offers the engine.

The names below are the :class:`havoc.engine.game.Game` protocol. Each imports its module only when
called, so naming the game (a ruleset's ``game`` key) costs nothing until a question is asked.
"""

from __future__ import annotations

import os

from havoc import TYPE_CHECKING
from havoc.core.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path
    from typing import Any

if TYPE_CHECKING:
    from havoc.engine.interpreter.answer import Answer
    from havoc.engine.rulebook.model import Ruleset

_HERE = os.path.dirname(os.path.realpath(__file__))  # os.path: an ask never imports pathlib

TITLE = "Cry Havoc"  # its name on the command line is cry-havoc (`havoc cry-havoc legal`)

# The commands this game adds to `havoc` (each module has register(subparsers)); `havoc ask` is
# the engine's, for every game (its help about the questions is ask_help below).
COMMANDS: Mapping[str, str] = {
    "legal": "havoc.games.cry_havoc.commands",
    "battle": "havoc.games.cry_havoc.commands",
    "score": "havoc.games.cry_havoc.commands",
    "new": "havoc.games.cry_havoc.new",
    "trogs": "havoc.games.cry_havoc.solo.cli",
    "understand": "havoc.games.cry_havoc.understand_cli",
}

# The commands among these whose line is POSITION, then these optional words (`*NAME`: all the words
# left, as a list), then only the options every answering command takes (--lang, --json, --ruleset,
# --explain) and those named here (`--OPTION=NAME`, one that takes a value): `havoc` reads such a
# plain line without argparse (havoc.cli.quick_parse), as it reads `havoc ask`'s.
QUICK_COMMANDS: Mapping[str, Sequence[str]] = {
    "legal": ("faction",),
    "score": ("faction",),
    "battle": ("region", "*placement", "--as=faction"),
}

# The commands with options of their own whose plain line `havoc` reads without argparse too: the
# function that runs it, its words (`?NAME` optional, `*NAME` the rest) and each option's
# DEST:KIND, as havoc.cli.quick_parse reads them (a test keeps each equal to argparse's reading).
QUICK_LINES: Mapping[str, Mapping[str, Any]] = {
    "trogs": {
        "function": "run",
        "words": ("position", "kind", "*words"),
        "options": {
            "--units": "units:int",
            "--from": "source:",
            "--steps": "steps:int",
            "--both": "both:flag",
            "--no-tactic-text": "no_tactic_text:flag",
            "--shifted-priorities": "shifted_priorities:flag",
            "--lang": "lang:lang",
            "--json": "json:flag",
            "--ruleset": "ruleset:",
        },
        "defaults": {"ruleset": "cry-havoc"},
    },
}

# The question kinds with an address of their own, mounted by the engine: `havoc <kind>`,
# havoc.assistant.api.<kind>(position, *fields) and POST /api/<kind> (with its OpenAPI entry); each with the
# question fields it takes, in the order of the positional arguments, and what it answers.
# Each summary is in the ui catalog (havoc catalog update collects it); the API shows it translated.
SHORTCUTS: Mapping[str, Mapping[str, Any]] = {
    "legal": {"fields": ("faction",), "summary": "What a faction may do now (like `havoc legal --json`)."},
    "battle": {
        "fields": ("region", "objectives", "faction"),
        "summary": "Resolve a Battle, or list the battle order (like `havoc battle --json`).",
    },
    "score": {"fields": ("faction",), "summary": "What each faction scores (like `havoc score --json`)."},
}

# Deciders besides the question kinds: the solo variant's automated Trogs (`ask: trogs` in a
# stored example, POST /api/trogs); each is (rs, position, query mapping, lang) -> a decision.
EXTRA_ANSWERS: Mapping[str, str] = {"trogs": "havoc.games.cry_havoc.solo:decide"}

# Lookups without a position's answer: a typed question read into the API's (POST /api/understand).
LOOKUPS: Mapping[str, str] = {
    "understand": "havoc.games.cry_havoc.understand:lookup",
    "interview": "havoc.games.cry_havoc.interview:lookup",  # what an answer read of the table, and assumed
}

# The lookup that reads a question typed in words (``havoc ask --text``, the Ask page's question box).
TEXT_READER = "understand"

# What this game adds to the site extension (a module with setup_site(app)): the Ask page and the table of kinds.
SITE_EXTENSION = "havoc.games.cry_havoc.site_pages"

# The modules no answer imports (the commands and the site pages): left out of the site's
# in-browser engine.
OFF_ANSWER_PATH: Sequence[str] = (
    "havoc.games.cry_havoc.commands",
    "havoc.games.cry_havoc.new",
    "havoc.games.cry_havoc.solo.cli",
    "havoc.games.cry_havoc.understand_cli",
    "havoc.games.cry_havoc.site_pages",
    "havoc.games.cry_havoc.ask_page",
    "havoc.games.cry_havoc.trogs_page",
)


def parse_position(data: Any, rs: Ruleset | None, name: str = "position") -> Any:
    from havoc.games.cry_havoc import position_read

    return position_read.parse(data, rs, name)


def parse_position_text(text: str, rs: Ruleset | None, name: str = "position") -> Any:
    from havoc.games.cry_havoc import position_read

    return position_read.parse_text(text, rs, name)


def is_position(value: object) -> bool:
    from havoc.games.cry_havoc.position import Position

    return isinstance(value, Position)


def position_schema(rs: Ruleset | None) -> dict[str, Any]:
    from havoc.games.cry_havoc.position import position_schema as schema

    return schema(rs)


def code_files() -> Sequence[str | Path]:
    """The code a validated position depends on (a cached one is stale when it changes): also
    the names a table may give instead of IDs (words.py, read as ui.py folds them)."""
    return tuple(
        os.path.join(_HERE, f) for f in ("position.py", "position_read.py", "contract.py", "words.py", "ui.py")
    )


def parse_question(data: Mapping[str, Any], pos: Any, name: str = "query") -> Any:
    try:
        return (_query or _questions()).parse_query(data, pos, name)
    except InputError as exc:
        raise in_words(exc, pos) from None


def parse_compact(words: Sequence[str], pos: Any) -> Any:
    try:
        return (_query or _questions()).parse_compact(words, pos)
    except InputError as exc:
        raise in_words(exc, pos) from None


def in_words(exc: InputError, pos: Any) -> InputError:
    """A question's problems, each field said in the reader's words too (``Problem.where``)."""
    from havoc.games.cry_havoc.question_places import worded

    return InputError(worded(exc.problems, pos.regions))


def is_question(value: object) -> bool:
    return isinstance(value, (_query or _questions()).Query)


def _questions() -> Any:
    """The question module, imported on the first question (not with the package), then kept:
    every ask reads it (an import statement per call costs a server about a microsecond each)."""
    global _query
    from havoc.games.cry_havoc import query

    _query = query
    return query


_query: Any = None


def ask_help(lang: str) -> str:
    """``havoc ask --help``'s epilog: the compact form of the questions, each kind and its figures."""
    from havoc.games.cry_havoc.commands import ask_epilog

    return ask_epilog(lang)


def ask_help_texts() -> list[str]:
    """The texts ``ask_help`` prints besides its own template (each kind's help), for the catalogs."""
    from havoc.games.cry_havoc.commands import kind_helps

    return kind_helps()


def answer_schema() -> dict[str, Any]:
    """The JSON Schema of answers, with the figures each question kind gives."""
    from havoc.games.cry_havoc.figures import answer_schema as schema

    return schema()


def question_schema() -> dict[str, Any]:
    from havoc.formats.spec import json_schema
    from havoc.games.cry_havoc.query import QTOP

    return json_schema(QTOP)


def answer(rs: Ruleset, pos: Any, question: Any, lang: str) -> Answer:
    global _answer
    if _answer is None:  # imported on the first question, not with the package; then kept
        from havoc.games.cry_havoc.answering import answer as answer_question

        _answer = answer_question
    try:
        return _answer(rs, pos, question, lang)
    except InputError as exc:  # a question the answer found impossible (more Units than the table has)
        raise in_words(exc, pos) from None


_answer: Callable[[Ruleset, Any, Any, str], Answer] | None = None


def site_words() -> dict[str, dict[str, str]]:
    """The English words of positions and questions the site shows (keys, values, known Regions,
    what the solo Trogs decide — each decision's own words)."""
    from havoc.games.cry_havoc.solo.engine import words as decisions
    from havoc.games.cry_havoc.words import site_words as words

    found = words()
    found["decisions"] = decisions()  # ui("…") words, like the kinds' labels: translated in havoc.po
    own = {v for t in ("regions", "keys", "values") for v in found[t].values()} - set(found["ui"].values())
    found["ui"] = {**found["ui"], **{f"decide:{k}": v for k, v in found["decisions"].items() if v not in own}}
    return found


def nouns() -> list[tuple[str, str]]:
    """The declinable names (English) and the file declaring them (havoc.language.grammar)."""
    from havoc.games.cry_havoc.words import nouns as names

    return [(n, "src/havoc/games/cry_havoc/words.py") for n in names()]


def typed_words() -> list[tuple[str, str]]:
    """The machine words of compact questions a reader may type in their own words (catalog
    context ``ui:word``), and the file declaring them."""
    from havoc.games.cry_havoc.solo.cli import solo_tokens
    from havoc.games.cry_havoc.typed import typed_tokens

    found = [(t, "src/havoc/games/cry_havoc/typed.py") for t in typed_tokens()]
    seen = {t for t, _ in found}
    return found + [(t, "src/havoc/games/cry_havoc/solo/cli.py") for t in solo_tokens() if t not in seen]


def mechanism_rules(rs: Ruleset) -> frozenset[str]:
    """Rules without a check that a mechanism carries out and cites: the solo Trogs' decisions."""
    from havoc.games.cry_havoc.solo import engine

    return frozenset(v for k, v in vars(engine).items() if k.startswith(("R_", "I_")) and isinstance(v, str))


def resolve_fact(name: str) -> Any:
    from havoc.games.cry_havoc.facts import resolve

    return resolve(name)


def needs_of(*exprs: Any) -> frozenset[str]:
    """What a check reads that only some questions supply (so a probe can skip the rule)."""
    from havoc.games.cry_havoc.facts import needs_of as needs

    return needs(*exprs)


def check_rules(rs: Ruleset) -> list[Any]:
    """What ``havoc check`` verifies of this game's code: everything each question kind names
    (module, handler, probe, figure words, labels in every language, its docs entry) exists;
    each declared figure comes from a rule of ``rs`` that defines it (or the handler) and every
    figure a rule defines is claimed by a kind; the kinds' manifest is compiled into the verified
    cache with every figure label translated; and each solo Trogs decision's handler, fields and words."""
    if not rs.question_kinds:
        return []
    from havoc.games.cry_havoc import kind
    from havoc.games.cry_havoc.contract import RULES_FOLDER
    from havoc.games.cry_havoc.solo import engine
    from havoc.games.cry_havoc.ui import _shared_figure_labels, has_label, label_clashes

    kinds = list(kind.all_kinds())
    return (
        kind.check(lambda figure: has_label("figure", figure), docs_pages())
        + kind.check_sources(kinds, rs.rules, own=rs.id == RULES_FOLDER)
        + (kind.check_examples(kinds, rs.rules) if rs.id == RULES_FOLDER else [])
        + kind.check_manifest(kinds, _shared_figure_labels("en"))
        + label_clashes()
        + engine.check()
        + player_words_check(rs)
    )


# The names a fact's player words may fill in (answering.Who gives them when an answer is shown):
# the asking faction and the fact's Region
PLAYER_WORD_FIELDS = ("faction", "region")


def player_words_check(rs: Ruleset) -> list[Any]:
    """Each fact's player words (facts.yaml ``player``) name only the fields an answer fills in."""
    from _string import formatter_parser

    from havoc.core.errors import Code, Problem

    out = []
    for fact in rs.facts.values():
        if not fact.player:
            continue
        unknown = sorted({f for _, f, _, _ in formatter_parser(fact.player) if f and f not in PLAYER_WORD_FIELDS})
        if unknown:
            out.append(
                Problem(
                    f"rules/{rs.id}/facts.yaml",
                    None,
                    f"fact {fact.name}.player names {unknown}; an answer fills in only "
                    + ", ".join("{" + f + "}" for f in PLAYER_WORD_FIELDS),
                    code=Code.FIELD_VALUE,
                )
            )
    return out


def docs_pages() -> Sequence[Path]:
    """The site's pages that may list the question kinds (the positions page's ``{havoc-kinds}``)."""
    from pathlib import Path

    return sorted((Path(_HERE).parents[3] / "docsbuild").glob("*.md"))  # none in an installed copy: nothing to check


def question_kinds() -> Mapping[str, Any]:
    """The question kinds this package answers, each declared in its own module (kinds/)."""
    from havoc.games.cry_havoc import kind

    return {k.name: k for k in kind.all_kinds()}


class _Labels:
    """Cry Havoc's words for its factions, figures, values, kinds and units."""

    __slots__ = ()

    def name(self, key: str, lang: str) -> str:
        from havoc.games.cry_havoc.ui import faction_name

        return faction_name(key, lang)

    def figure(self, name: str, lang: str) -> str:
        from havoc.games.cry_havoc.ui import figure_label

        return figure_label(name, lang)

    def figures(self, lang: str) -> dict[str, str]:
        from havoc.games.cry_havoc.ui import _figure_labels

        return _figure_labels(lang)

    def value(self, value: object, lang: str, values: str | None = None) -> str:
        from havoc.games.cry_havoc.ui import value_text

        return value_text(value, lang, values)

    def kind(self, kind: str, lang: str) -> str:
        from havoc.games.cry_havoc.ui import kind_label

        return kind_label(kind, lang)

    def unit(self, unit: str, n: int, lang: str) -> str:
        from havoc.games.cry_havoc.ui import unit_text

        return unit_text(unit, n, lang)

    def has(self, what: str, name: str) -> bool:
        from havoc.games.cry_havoc.ui import has_label

        return has_label(what, name)

    def regions(self, keys: Sequence[str], lang: str) -> dict[str, Any]:
        """Names of a table's Regions (declinable; "Mgielnia", "Region A")."""
        from havoc.games.cry_havoc.ui import region_names

        return region_names(keys, lang)

    def phrase(self, key: str, names: Sequence[str], lang: str) -> str | None:
        """A key that reads as a phrase before Region names ("adjacent to …"), declined."""
        from havoc.games.cry_havoc.ui import region_phrase
        from havoc.language.grammar import Noun

        return region_phrase(key, Noun.join(names), lang)

    def named(self, key: str, value: object, lang: str) -> str | None:
        """A value named as a whole: a Region's Structures ("Żniwiarka (Pielgrzymi)"), the
        Event stacks of the Score track, a faction's Skills, the Structure or Skill a question
        names ("Budowla A")."""
        from havoc.games.cry_havoc.ui import events_text, skill_name, structure_name, structures_text, value_text

        if key == "structures":
            return structures_text(value, lang)
        if key == "events":
            return events_text(value, lang)
        if key == "skills" and isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return ", ".join(f"{skill_name(k, lang)} ({value_text(v, lang)})" for k, v in value.items())
        if key in ("structure", "skill") and isinstance(value, str):
            return str((structure_name if key == "structure" else skill_name)(value, lang))
        return None

    def flags(self, owner: str, value: object, lang: str) -> tuple[list[str], object]:
        """A faction's yes/no flags said as sentences about it ("Pielgrzymi spasowali", not
        "Pielgrzymi: spasował: tak"), and what is left of its mapping to show as "key: value"."""
        from havoc.games.cry_havoc.ui import faction_flag

        if not isinstance(value, dict):
            return [], value
        said = [faction_flag(owner, k, v, lang) for k, v in value.items()]
        sentences = [x for x in said if x is not None]
        if not sentences:
            return [], value
        rest = {k: v for (k, v), x in zip(value.items(), said, strict=True) if x is None}
        return sentences, rest

    def subject(self, head: str, lang: str) -> str:
        """What a fact's subject (``from``, ``to``) stands for, in words."""
        from havoc.language.i18n import ui

        if head == "from":
            return ui("the Region the Units leave", lang)
        if head == "to":
            return ui("the Region the Units enter", lang)
        return ""

    def parties(self) -> tuple[str, ...]:
        """The named parties of a table (the factions), in their order."""
        from havoc.games.cry_havoc.contract import FACTIONS

        return FACTIONS


LABELS = _Labels()


def labels() -> _Labels:
    return LABELS
