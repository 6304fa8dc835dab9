"""What the engine knows of games: a protocol, and loading the package a ruleset's ``game`` names.

The engine (rule files, conditions, answers, the site, the sheet, search, the server) knows no
game. A game is a rules folder (``ruleset.yaml`` naming the package, ``vocabulary.yaml``,
``facts.yaml``, the sections) plus a small package that offers, at module level, the small part
every game has (:class:`GameCore`: its commands; optionally its data checks, site pages, lookups
and shortcuts) and, if it has a rules assistant, all of :class:`Assistant`: how its positions and
questions are read, its facts, its question kinds and their handlers, and the words its answers
use. The engine is handed what it needs of a game (the interpreter is given it, never looks it
up). Packages import their heavy parts lazily, so naming a game costs nothing until a question
is asked.
"""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem, RulebookError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, NamedTuple, Protocol
else:
    from havoc.core.tuples import NamedTuple

if TYPE_CHECKING:
    from pathlib import Path

    from havoc.engine.interpreter.answer import Answer
    from havoc.engine.rulebook.model import Ruleset

_NAME_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz_")
_NAME_REST = _NAME_FIRST | frozenset("0123456789")


def _module_name(name: object) -> bool:
    r"""``re.match(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$", name)`` (which also takes one newline
    at the end), without importing re on every start-up."""
    if not isinstance(name, str):
        return False
    name = name[:-1] if name.endswith("\n") else name
    return all(p and p[0] in _NAME_FIRST and all(c in _NAME_REST for c in p) for p in name.split("."))


# The protocols a game meets, for type checkers alone: nothing checks them at run time, and
# making six classes was a measurable part of every short process's start-up.
if TYPE_CHECKING:

    class Labels(Protocol):
        """The words a game's answers and pages use for its identifiers, in a language."""

        def name(self, key: str, lang: str) -> str: ...  # a faction, side or other named party
        def figure(self, name: str, lang: str) -> str: ...
        def value(self, value: object, lang: str, values: str | None = None) -> str: ...  # values: its vocabulary list
        def kind(self, kind: str, lang: str) -> str: ...
        def unit(self, unit: str, n: int, lang: str) -> str: ...
        def has(self, what: str, name: str) -> bool: ...
        def figures(self, lang: str) -> dict[str, str]: ...  # every figure's label
        def parties(self) -> tuple[str, ...]: ...  # the named parties of a table (factions), in order
        def subject(self, head: str, lang: str) -> str: ...  # what a fact's subject (from, to) stands for

    class Kind(Protocol):
        """One question kind: its handler and what it declares (fields, figures, help)."""

        name: str
        fields: tuple[str, ...]
        figures: tuple[str, ...]
        help: str
        needs: tuple[str, ...]

        def handle(self, job: Any) -> Answer: ...

    class FactImpl(Protocol):
        fn: Callable[..., Any]
        type: str

    class GameCore(Protocol):
        """What every game package offers (module-level names): the commands it adds. Optional beside
        them: ``check_rules(rs)`` and ``mechanism_rules(rs)`` (its data checks), ``SITE_EXTENSION``
        (its site pages), ``LOOKUPS``, ``EXTRA_ANSWERS``, ``SHORTCUTS`` and ``OFF_ANSWER_PATH`` (its
        modules no answer imports, left out of the site's in-browser engine)."""

        COMMANDS: Mapping[str, str]  # extra CLI commands -> the module that registers them

    class Assistant(Protocol):
        """The optional part of a game: its rules assistant (positions, questions, answers, words).
        A game offers all of these names or none; one without them answers that it has none."""

        def parse_position(self, data: Any, rs: Ruleset | None, name: str = "position") -> Any: ...
        def parse_position_text(self, text: str, rs: Ruleset | None, name: str = "position") -> Any: ...
        def is_position(self, value: object) -> bool: ...
        def position_schema(self, rs: Ruleset | None) -> dict[str, Any]: ...
        def code_files(self) -> Sequence[str | Path]: ...  # what a cached position's validity depends on
        def parse_question(
            self, data: Mapping[str, Any], pos: Any, name: str = "query"
        ) -> Any: ...  # name: where errors point
        def parse_compact(self, words: Sequence[str], pos: Any) -> Any: ...
        def is_question(self, value: object) -> bool: ...
        def question_schema(self) -> dict[str, Any]: ...
        def answer(self, rs: Ruleset, pos: Any, question: Any, lang: str) -> Answer: ...
        def resolve_fact(self, name: str) -> tuple[FactImpl, str | None] | None: ...
        def question_kinds(self) -> Mapping[str, Kind]: ...
        def labels(self) -> Labels: ...

    class Game(GameCore, Assistant, Protocol):
        """A loaded game as the engine sees it: its own names, and the assistant part (its own, or
        one that says it has none, see :class:`_WithoutAssistant`)."""


_loaded: dict[str, Game] = {}


def load(module: str, where: str = "ruleset.yaml: game") -> Game:
    """The game package ``module`` (a dotted name); a located RulebookError if it is no game."""
    found = _loaded.get(module)
    if found is not None:
        return found
    if not isinstance(module, str) or not _module_name(module):
        raise RulebookError(
            [
                Problem(
                    where, None, f"expected the dotted module name of a game, found {module!r}", code=Code.GAME_PACKAGE
                )
            ]
        )
    try:
        __import__(module)  # importlib.import_module, without importing importlib (and warnings)
        mod = sys.modules[module]
    except ImportError as exc:
        raise RulebookError(
            [Problem(where, None, f"no game package {module!r} ({exc})", code=Code.GAME_PACKAGE)]
        ) from None
    missing = [n for n in _REQUIRED if not hasattr(mod, n)]
    offered = [n for n in ASSISTANT if hasattr(mod, n)]
    if offered:  # an assistant is all of its names or none
        missing += [n for n in ASSISTANT if n not in offered]
    if missing:
        raise RulebookError(
            [
                Problem(
                    where,
                    None,
                    f"{module!r} is not a game package: it lacks {', '.join(missing)}",
                    code=Code.GAME_PACKAGE,
                )
            ]
        )
    game: Game = mod if offered else _WithoutAssistant(mod)  # the checks above
    _loaded[module] = game
    return game


_REQUIRED = ("COMMANDS",)
ASSISTANT = (
    "parse_position",
    "parse_position_text",
    "is_position",
    "position_schema",
    "code_files",
    "parse_question",
    "parse_compact",
    "is_question",
    "question_schema",
    "answer",
    "resolve_fact",
    "question_kinds",
    "labels",
)


def has_assistant(played: object) -> bool:
    """Whether a loaded game has a rules assistant of its own."""
    return not isinstance(played, _WithoutAssistant)


class _PlainLabels:
    """Identifiers as they are: the words of a game without an assistant."""

    __slots__ = ()

    def name(self, key: str, lang: str) -> str:
        return key

    def figure(self, name: str, lang: str) -> str:
        return name

    def figures(self, lang: str) -> dict[str, str]:
        return {}

    def value(self, value: object, lang: str, values: str | None = None) -> str:
        return str(value)

    def kind(self, kind: str, lang: str) -> str:
        return kind

    def unit(self, unit: str, n: int, lang: str) -> str:
        return unit

    def has(self, what: str, name: str) -> bool:
        return False

    def parties(self) -> tuple[str, ...]:
        return ()

    def subject(self, head: str, lang: str) -> str:
        return ""


class _WithoutAssistant:
    """A game package without the assistant part, completed once here: every question about a
    position is refused with the game's own words (``TITLE``, and ``WITHOUT_ASSISTANT``: what to
    use instead), so no game stubs the assistant's names. Its other names are the package's."""

    def __init__(self, module: Any) -> None:
        self._module = module
        self._title = str(getattr(module, "TITLE", module.__name__))
        self._instead = str(getattr(module, "WITHOUT_ASSISTANT", ""))  # in the ui catalog (havoc catalog update)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def _refused(self, name: str) -> InputError:
        """The refusal in the asker's language (the language of messages the command or request set)."""
        from havoc.language.i18n import message_language, ui

        lang = message_language()
        text = ui("{game} has no position-based assistant", lang).format(game=self._title)
        if self._instead:
            text += "; " + ui(self._instead, lang)
        return InputError([Problem(name, None, text, code=Code.RULESET_NO_GAME)])

    def parse_position(self, data: Any, rs: Ruleset | None, name: str = "position") -> Any:
        raise self._refused(name)

    def parse_position_text(self, text: str, rs: Ruleset | None, name: str = "position") -> Any:
        raise self._refused(name)

    def is_position(self, value: object) -> bool:
        return False

    def position_schema(self, rs: Ruleset | None) -> dict[str, Any]:
        return {"type": "object", "description": f"{self._title} has no positions", "not": {}}

    def code_files(self) -> Sequence[str | Path]:
        from pathlib import Path

        return (Path(self._module.__file__).resolve(),)

    def parse_question(self, data: Mapping[str, Any], pos: Any, name: str = "query") -> Any:
        raise self._refused("query")

    def parse_compact(self, words: Sequence[str], pos: Any) -> Any:
        raise self._refused("query")

    def is_question(self, value: object) -> bool:
        return False

    def question_schema(self) -> dict[str, Any]:
        return {"type": "object", "not": {}}

    def answer(self, rs: Ruleset, pos: Any, question: Any, lang: str) -> Answer:
        raise self._refused("query")

    def resolve_fact(self, name: str) -> Any:
        return None  # no facts: nothing is evaluated against a position

    def question_kinds(self) -> Mapping[str, Kind]:
        return {}

    def labels(self) -> Labels:
        return _PLAIN_LABELS


_PLAIN_LABELS = _PlainLabels()


def of(rs: Ruleset) -> Game:
    """The game a ruleset's rules are played in (its ``game`` key)."""
    if not rs.game:
        raise RulebookError(
            [
                Problem(
                    f"{rs.id}/ruleset.yaml",
                    None,
                    "this ruleset names no game, so it has no rules assistant",
                    code=Code.RULESET_NO_GAME,
                )
            ]
        )
    return load(rs.game, f"{rs.id}/ruleset.yaml: game")


def check(rs: Ruleset) -> list[Problem]:
    """What ``havoc check`` verifies about the game: it loads, and every declared kind has a handler."""
    if not rs.game:
        return []
    try:
        game = of(rs)
    except RulebookError as exc:
        return list(exc.problems)
    handled = game.question_kinds()
    where = f"rules/{rs.id}/vocabulary.yaml"
    extra = getattr(game, "check_rules", None)  # what the game checks in the rule data itself
    problems = list(extra(rs)) if extra else []
    problems += [
        Problem(
            f"{rs.game}: OFF_ANSWER_PATH",
            None,
            f"{name!r} is not a module of the game {rs.game}",
            code=Code.GAME_OFF_ANSWER_PATH,
        )
        for name in off_answer_path(game)
        if not _is_module_of(name, rs.game)
    ]
    return problems + [
        Problem(
            where,
            None,
            f"question-kinds: {kind!r} is declared but the game {rs.game} has no handler for it",
            code=Code.KIND_UNHANDLED,
        )
        for kind in rs.question_kinds
        if kind not in handled
    ]


def off_answer_path(played: object) -> tuple[str, ...]:
    """The modules of a game no answer imports (its ``OFF_ANSWER_PATH``: its commands, its site
    pages), by dotted name: the site's in-browser engine leaves them out."""
    return tuple(getattr(played, "OFF_ANSWER_PATH", ()))


def _is_module_of(name: object, package: str) -> bool:
    import importlib.util

    if not isinstance(name, str) or not _module_name(name) or not name.startswith(f"{package}."):
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


class Coverage:
    """Which rules the assistant enforces and which are text only: the completeness gate.

    A rule is enforced when it has a check, when a mechanism of its game carries it out and
    cites it (the game's ``mechanism_rules``), when a check names it as its exception
    (``unless``), when it removes a base rule (the engine drops it), or when it is a ruling
    amending an enforced rule (shown with it). Every other rule must say why it is text only
    (``text-only:`` in the YAML).
    """

    __slots__ = ("enforced", "problems", "text_only")

    def __init__(self, enforced: list[str], text_only: list[str], problems: list[Problem]) -> None:
        self.enforced = enforced
        self.text_only = text_only
        self.problems = problems


def coverage(rs: Ruleset) -> Coverage:
    """Sort every rule of ``rs`` into enforced or text only; a rule that is neither is a problem."""
    mechanism: frozenset[str] = frozenset()
    problems: list[Problem] = []
    if rs.game:
        try:
            found = getattr(of(rs), "mechanism_rules", None)
        except RulebookError as exc:
            found, problems = None, list(exc.problems)
        mechanism = frozenset(found(rs)) if found else frozenset()

    # A rule a check names as its exception ("no, unless …") is cited whenever that check says no.
    exceptions = {x for r in rs.rules.values() if r.check is not None for x in r.check.unless}

    def checked(rid: str, seen: frozenset[str] = frozenset()) -> bool:
        rule = rs.rules.get(rid)
        if rule is None or rid in seen:
            return False
        if rule.check is not None or rid in mechanism or rid in exceptions or rule.op == "remove":
            return True
        return rule.op == "amend" and rule.target is not None and checked(rule.target, seen | {rid})

    enforced: list[str] = []
    text_only: list[str] = []
    for rid, rule in rs.rules.items():
        where = rule.loc.file
        if checked(rid):
            enforced.append(rid)
            if rule.text_only:
                problems.append(
                    Problem(
                        where,
                        rule.loc.line,
                        f"rule {rid}: enforced by the assistant, but marked text-only",
                        code=Code.RULE_TEXT_ONLY,
                    )
                )
        elif rule.text_only:
            text_only.append(rid)
        else:
            problems.append(
                Problem(
                    where,
                    rule.loc.line,
                    f"rule {rid}: nothing checks it; give it a `check`, or say why it is text only (`text-only: …`)",
                    code=Code.RULE_UNCHECKED,
                )
            )
    return Coverage(enforced, text_only, problems)


GAMES_PACKAGE = "havoc.games"  # where installed game packages live (each a subpackage)


def installed() -> list[str]:
    """The game packages shipped with havoc (subpackages of ``havoc.games``), by module name."""
    from havoc.core import sealed

    return list(sealed.value("games", GAMES_PACKAGE, _installed))


def _installed() -> list[str]:
    """:func:`installed`, found from the files (a sealed bundle ships no ``__init__.py``)."""
    import os

    __import__(GAMES_PACKAGE)  # importlib.import_module, without importing importlib (and warnings)
    namespace = sys.modules[GAMES_PACKAGE]
    found: set[str] = set()
    for folder in namespace.__path__:  # not pkgutil: it imports inspect, a cost on every `havoc ask`
        with os.scandir(folder) as entries:
            found.update(e.name for e in entries if e.is_dir() and os.path.isfile(os.path.join(e.path, "__init__.py")))
    return [f"{GAMES_PACKAGE}.{name}" for name in sorted(found) if name.isidentifier()]


def extra_answers(played: Game) -> dict[str, Any]:
    """The game's deciders besides its question kinds (``EXTRA_ANSWERS``: name -> "module:function"),
    each ``(rs, position, query mapping, lang) -> a decision with .to_json()``, loaded."""
    return {name: _target(target) for name, target in getattr(played, "EXTRA_ANSWERS", {}).items()}


def extra_answer_names(played: Game) -> list[str]:
    """The names of the game's :func:`extra_answers`, none of their modules imported (a question
    of another kind need not import the solo Trogs' engine to learn it is not theirs)."""
    return list(getattr(played, "EXTRA_ANSWERS", {}))


def lookups(played: Game) -> dict[str, Any]:
    """The game's lookups without a position (``LOOKUPS``: name -> "module:function"), each
    ``(rs, request mapping, lang) -> JSON-ready dict``, loaded (the site's engine answers them)."""
    return {name: _target(target) for name, target in getattr(played, "LOOKUPS", {}).items()}


def _target(target: object) -> Any:
    """The function a ``"module:function"`` names, its module imported."""
    module, _, func = str(target).partition(":")
    __import__(module)  # importlib.import_module, without importing importlib (and warnings)
    return getattr(sys.modules[module], func)


def text_reader(played: Game) -> tuple[str, Any] | None:
    """The game's lookup that reads a question typed in words (``TEXT_READER``, one of its
    ``LOOKUPS``) as ``(name, function)``, or None for a game that reads only forms; only that
    lookup's module is imported."""
    name = getattr(played, "TEXT_READER", None)
    target = getattr(played, "LOOKUPS", {}).get(name) if isinstance(name, str) else None
    found = _target(target) if target is not None else None
    return (name, found) if found is not None and isinstance(name, str) else None


class Shortcut(NamedTuple):
    """A question kind a game gives an address of its own (``SHORTCUTS``): ``havoc <kind>``,
    ``havoc.assistant.api.<kind>(position, *fields)`` and ``POST /api/<kind>`` ask ``{ask: kind, **fields}``."""

    kind: str
    fields: tuple[str, ...]  # the question's fields it takes, in the order of the positional arguments
    summary: str  # what it answers, in a line (English; the API description)


def shortcuts(played: Game | None) -> dict[str, Shortcut]:
    """The question kinds ``played`` declares as shortcuts, in its order (none for no game); read
    once per game (a server asks on every request). Not to be changed by the caller."""
    kept = _shortcuts.get(id(played))
    if kept is not None and kept[0] is played:
        return kept[1]
    declared = getattr(played, "SHORTCUTS", None) or {}
    found = {
        kind: Shortcut(kind, tuple(entry.get("fields", ())), str(entry.get("summary", "")))
        for kind, entry in declared.items()
    }
    _shortcuts[id(played)] = (played, found)
    return found


_shortcuts: dict[int, tuple[object, dict[str, Shortcut]]] = {}


def declared_shortcuts() -> dict[str, Shortcut]:
    """Every shortcut some installed game declares (the first game in name order wins a name's
    description; each call still asks the ruleset's own game)."""
    out: dict[str, Shortcut] = {}
    for module in installed():
        for kind, found in shortcuts(load(module, module)).items():
            out.setdefault(kind, found)
    return out


class GameCommands(NamedTuple):
    """One game's commands on the command line: ``havoc <name> <command>``."""

    name: str  # its name on the command line: the package's name, with hyphens (cry-havoc)
    title: str  # the game's ``TITLE``, else its name
    module: str  # its package
    commands: dict[str, str]  # command name -> the module registering it


class CommandLine(NamedTuple):
    """Every command of ``havoc``: the engine's and each game's, each game's under its own name
    (``havoc cry-havoc legal``), so two games never collide. A game's command no other game (and
    not the engine) has is also ``havoc legal``; one several games have is only in the long form."""

    short: dict[str, str]  # havoc <command> -> the module registering it (the engine's first)
    games: dict[str, GameCommands]  # a game's name on the command line -> its commands
    shared: dict[str, list[str]]  # a command several games have -> those games' names


def command_line(taken: Mapping[str, str] | None = None) -> CommandLine:
    """The commands: ``taken`` (the engine's) and those each installed game declares in its
    ``COMMANDS``, under the game's name. A game whose name is a command (the engine's or a short
    one), or a game's command named like a game, is a RulebookError naming both."""
    short = dict(taken or {})
    games: dict[str, GameCommands] = {}
    claims: dict[str, list[str]] = {}
    for module in installed():
        __import__(module)  # importlib.import_module, without importing importlib (and warnings)
        package = sys.modules[module]
        declared = dict(getattr(package, "COMMANDS", {}))
        if not declared:
            continue
        name = module.rsplit(".", 1)[-1].replace("_", "-")
        games[name] = GameCommands(name, str(getattr(package, "TITLE", name)), module, declared)
        for command in declared:
            claims.setdefault(command, []).append(name)
    shared = {command: names for command, names in claims.items() if len(names) > 1}
    for command, names in claims.items():
        if command not in short and command not in shared:
            short[command] = games[names[0]].commands[command]
    problems = [
        Problem(
            f"{g.module}: COMMANDS",
            None,
            f"the game's name on the command line, {g.name!r}, is already a command; a game's name "
            "and its commands are names no other command has",
            code=Code.GAME_COMMAND_CLASH,
        )
        for g in games.values()
        if g.name in short or g.name in shared
    ]
    if problems:
        raise RulebookError(problems)
    return CommandLine(short, games, shared)


__all__ = [
    "CommandLine",
    "Coverage",
    "Game",
    "GameCommands",
    "Kind",
    "Labels",
    "Shortcut",
    "check",
    "command_line",
    "coverage",
    "declared_shortcuts",
    "installed",
    "load",
    "of",
    "off_answer_path",
    "shortcuts",
]
