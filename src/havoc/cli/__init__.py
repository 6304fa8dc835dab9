"""The ``havoc`` command line: one entry point, commands registered by their modules.

Heavy dependencies (Sphinx, WeasyPrint) are imported only inside the commands that need them,
so answering a rules question stays a fast process.
"""

from __future__ import annotations

import gc
import sys

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence

    from havoc.core.errors import HavocError

# Each module has register(subparsers) and sets args.func(args) -> int. The command names map
# to their module so that running one command imports only its module (start-up time is part
# of every answer); a test keeps this map equal to what the modules register.
COMMANDS = {
    "check": "havoc.cli.commands.rules",
    "rules": "havoc.cli.commands.rules",
    "rule": "havoc.cli.commands.rules",
    "schema": "havoc.cli.commands.rules",
    "catalog": "havoc.cli.commands.catalog",
    "sheet": "havoc.cli.commands.sheet",
    "docs": "havoc.cli.commands.docs",
    "lookup": "havoc.cli.commands.lookup",
    "serve": "havoc.cli.commands.serve",
    "ask": "havoc.cli.commands.ask",
    "diff": "havoc.cli.commands.diff",
}


def all_commands() -> dict[str, str]:
    """The commands ``havoc <command>`` runs: the engine's and each game's command no other game
    has (every game's are also ``havoc <game> <command>``, see :func:`havoc.engine.game.command_line`)."""
    from havoc.engine import game

    return game.command_line(COMMANDS).short


EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


def build_parser(command: str | None = None, lang: str = "en", then: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` known, only that command's module is imported (with a game's
    name, ``then`` is the word after it: that game's command). See :mod:`havoc.cli.parser`."""
    from havoc.cli.parser import build_parser as build

    return build(COMMANDS, command, lang, then)


# The options of the two commands a player runs most, parsed here without argparse (importing
# it and building the parser is a measurable part of a short process): a flag, or an option
# that takes a value. Anything else on the line (-h, --version, an abbreviation, a typo, a
# value argparse would refuse) goes to argparse, which then gives its usual help or error; a
# test keeps the two parses equal. Options may come anywhere among the words, as in argparse
# (havoc.cli.parser intermixes them).
_QUICK: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "ask": (("--json", "--explain"), ("--query", "--text", "--as-of", "--lang", "--ruleset")),
    "lookup": (("--json",), ("--limit", "--lang", "--ruleset")),
    "rule": (("--json",), ("--lang", "--ruleset")),
    "rules": (("--json",), ("--lang", "--ruleset")),
}
# how many words each of those takes besides its options: (at least, at most; None: any number)
_POSITIONALS: dict[str, tuple[int, int | None]] = {"rule": (1, 1), "rules": (0, 0)}
# The options of a game's plain command (its QUICK_COMMANDS): those of every answering command.
_ANSWERING = (("--json", "--explain"), ("--lang", "--ruleset"))


def _game_command(command: str | None) -> tuple[str, Any] | None:
    """The module of a game's command and the game's package (what it declares of its lines:
    ``QUICK_LINES``, ``QUICK_COMMANDS``), or None (no game's command: argparse reads the line)."""
    from havoc.core.errors import HavocError
    from havoc.engine import game

    if command is None or command in COMMANDS:
        return None
    try:
        line = game.command_line(COMMANDS)
    except HavocError:  # a clash of names: argparse's path says it
        return None
    module = line.short.get(command)
    for one in line.games.values():
        if module is not None and one.commands.get(command) == module:
            return module, sys.modules[one.module]
    return None


def _declared_line(package: Any, command: str, then: Sequence[str]) -> dict[str, Any] | None:
    """The declared plain line of a game's command whose options are its own (the game's
    ``QUICK_LINES``, by the command's name, or by it and the word after it, ``then``: ``"charts
    range"``)."""
    lines = getattr(package, "QUICK_LINES", {})
    spec = lines.get(" ".join([command, *then])) or lines.get(command)
    return dict(spec) if spec is not None else None


def _scan(words: Sequence[str], kind_of: Callable[[str], str | None]) -> tuple[list[str], dict[str, Any]] | None:
    """The words of a plain line split into its positionals and its options (each option's name
    -> True for a flag, else its value as written), or None for anything argparse must read: an
    option ``kind_of`` does not know (None: an abbreviation, -h, "--", a typo), a flag given a
    value, a value missing or looking like an option, or not of its kind (``"int"``, whole
    numbers in ASCII digits; ``"lang"``, a language's code; ``"flag"``; any other: as written)."""
    from havoc.language.languages import CODES

    positionals: list[str] = []
    given: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "-" or not word.startswith("-"):
            positionals.append(word)
            continue
        name, eq, value = word.partition("=")
        kind = kind_of(name)
        if kind is None or (kind == "flag" and eq):
            return None
        if kind == "flag":
            given[name] = True
            continue
        if not eq:
            if i >= len(words):
                return None
            value, i = words[i], i + 1
        if value.startswith("-"):
            return None
        if (kind == "int" and not (value.isascii() and value.isdigit())) or (kind == "lang" and value not in CODES):
            return None
        given[name] = value
    return positionals, given


def _read_line(words: Sequence[str], spec: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """The arguments of the words after a command's name (and its ``set`` words) by its declared
    plain line, as argparse would give them, or None for anything argparse must read.

    ``words``: the positionals' names in order (``?NAME`` one that may be left out, ``*NAME`` a
    list of the words left); ``options``: each option's ``DEST:KIND`` (``flag``; ``int``, whole
    numbers in ASCII digits; ``lang``, a language's code; else a value as written); ``defaults``:
    the values of the options left out (else None, False for a flag); ``set``: fixed values."""
    options: dict[str, str] = spec.get("options", {})
    kinds = {o: v.partition(":") for o, v in options.items()}
    given: dict[str, Any] = {dest: (False if kind == "flag" else None) for dest, _, kind in kinds.values()}
    given.update(spec.get("defaults", {}))
    scanned = _scan(words, lambda name: kinds[name][2] if name in kinds else None)
    if scanned is None:
        return None
    positionals, found = scanned
    for name, value in found.items():
        dest, _, kind = kinds[name]
        given[dest] = int(value) if kind == "int" else value
    names: tuple[str, ...] = spec.get("words", ())
    single = [w for w in names if not w.startswith("*")]
    required = [w for w in single if not w.startswith("?")]
    rest = [w[1:] for w in names if w.startswith("*")]
    if len(positionals) < len(required) or (len(positionals) > len(single) and not rest):
        return None
    given.update((w.lstrip("?"), v) for w, v in zip(single, [*positionals, *[None] * len(single)], strict=False))
    given.update({name: positionals[len(single) :] for name in rest})
    given.update(spec.get("set", {}))
    if given.get("lang", "") is None:
        given["lang"] = lang
    return given


def _declared_parse(
    words: Sequence[str], declared: tuple[str, dict[str, Any]], lang: str, **common: Any
) -> Arguments | None:
    """The arguments of a game's command line by its declared plain line (:func:`_declared_line`),
    or None: argparse reads it."""
    module, spec = declared
    skip = len(spec.get("set", {}))  # the words the line's name holds ("charts range": range)
    named = _read_line(words[skip:], spec, lang)
    if named is None:
        return None
    __import__(module)
    return Arguments(**common, func=sys.modules[module].__dict__[spec["function"]], **named)


class Arguments:
    """A parsed command line (what argparse's Namespace holds), for the lines :func:`quick_parse` reads."""

    def __init__(self, **kwargs: Any) -> None:
        self.__dict__.update(kwargs)

    def __eq__(self, other: object) -> bool:
        return vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"Arguments({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def quick_parse(words: Sequence[str], lang: str) -> Arguments | None:
    """The arguments of a plain ``havoc ask``/``havoc lookup`` line (or a game's command's that
    declares its plain line), as argparse would give them, or None when argparse must read the
    line (help, errors, anything unusual)."""
    from havoc.language.languages import CODES

    at, root_lang = _root_lang(words, CODES)
    command = words[at] if at < len(words) else None
    optional: tuple[str, ...] = ()
    options: dict[str, str] = {}  # a game's own valued options -> their names in the arguments
    if command in _QUICK:
        flags, valued = _QUICK[command]
        module = COMMANDS[command]
    else:
        found = _game_command(command)
        if found is None:
            return None
        module, package = found
        spec = _declared_line(package, str(command), words[at + 1 : at + 2])
        if spec is not None:
            return _declared_parse(words[at + 1 :], (module, spec), lang, root_lang=root_lang, command=command)
        # the words after POSITION (QUICK_COMMANDS: each optional positional's name in order,
        # ``*NAME`` the list of all the words left, ``--OPTION=NAME`` an option that takes a value)
        declared = getattr(package, "QUICK_COMMANDS", {}).get(command)
        if declared is None:
            return None
        options = {w.partition("=")[0]: w.partition("=")[2] for w in declared if w.startswith("--")}
        optional = tuple(w for w in declared if not w.startswith("--"))
        flags, valued = _ANSWERING[0], (*_ANSWERING[1], *options)
    scanned = _scan(
        words[at + 1 :],
        lambda name: "flag" if name in flags else ("lang" if name == "--lang" else "") if name in valued else None,
    )
    if scanned is None:
        return None
    positionals, given = scanned
    least, most = _POSITIONALS.get(str(command), (1, None))
    if len(positionals) < least or (most is not None and len(positionals) > most):
        return None
    common = {
        "root_lang": root_lang,
        "command": command,
        "lang": given.get("--lang", lang),
        "json": given.get("--json", False),
        "ruleset": given.get("--ruleset"),
    }
    __import__(module)  # importlib.import_module, without importing importlib (and warnings)
    run = sys.modules[module].__dict__[f"cmd_{command}"]
    if command not in _QUICK:  # a game's command: POSITION [WORD ...] [REST ...]
        named = _game_words(positionals[1:], optional, {name: given.get(o) for o, name in options.items()})
        if named is None:
            return None
        return Arguments(**common, position=positionals[0], explain=given.get("--explain", False), func=run, **named)
    if command == "rule":
        return Arguments(**common, id=positionals[0], func=run)
    if command == "rules":
        return Arguments(**common, func=run)
    if command == "ask":
        position, *rest = positionals
        return Arguments(
            **common,
            position=position,
            words=rest,
            query=given.get("--query"),
            text=given.get("--text"),
            as_of=given.get("--as-of"),
            explain=given.get("--explain", False),
            func=run,
        )
    limit = 10
    if "--limit" in given:
        try:
            limit = int(given["--limit"])
        except ValueError:
            return None
        if limit < 1:
            return None
    return Arguments(**common, text=positionals, limit=limit, func=run)


def _root_lang(words: Sequence[str], codes: Sequence[str]) -> tuple[int, str | None]:
    """Where the command's name is, and the ``--lang`` before it (``havoc --lang pl ask …``), if any."""
    if words[:1] == ["--lang"] and len(words) > 1 and words[1] in codes:
        return 2, words[1]
    if words[:1] and words[0].startswith("--lang=") and words[0][7:] in codes:
        return 1, words[0][7:]
    return 0, None


def _game_words(rest: list[str], optional: tuple[str, ...], named: dict[str, Any]) -> dict[str, Any] | None:
    """The arguments a game's plain line gives by the words after POSITION (its ``QUICK_COMMANDS``
    entry's positionals, in order; ``*NAME`` takes the words left, as argparse's ``nargs="*"``
    does), added to ``named``; None when there are more words than it takes."""
    single = [w for w in optional if not w.startswith("*")]
    many = [w[1:] for w in optional if w.startswith("*")]
    if len(rest) > len(single) and not many:
        return None
    named.update(zip(single, [*rest, *[None] * len(single)], strict=False))
    named.update({name: rest[len(single) :] for name in many})
    return named


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``sys.argv`` when ``argv`` is None: the havoc command itself)."""
    if argv is not None:
        return _main(argv)
    try:
        code = _main(sys.argv[1:])
    finally:
        # The process exits next: what the command made (the rules, the modules) is frozen, so
        # that the collector does not walk all of it once more while the interpreter shuts down
        # (a fifth of a short havoc ask's time). Memory is returned at exit as ever.
        gc.freeze()
    if _quick:
        _exit_now(code)
    return code


# A plain answering line (read without argparse: :func:`quick_parse`) only printed its answer.
_quick: list[bool] = []


def _exit_now(code: int) -> None:
    """End the process of a plain answering line at once, its output written: the interpreter's
    shutdown (every module's objects and the cached rules taken apart one by one, only for the
    system to free the memory anyway) was a tenth of a short ``havoc ask``. Only when nothing
    else waits for the exit: no exit handler (a coverage run's), no other thread, and output
    that flushes (a closed pipe is left to the usual exit, which says so as before)."""
    import atexit
    import os

    threading = sys.modules.get("threading")
    if atexit._ncallbacks() or (threading is not None and threading.active_count() > 1):
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _main(argv: Sequence[str]) -> int:
    from havoc.cli import lang as clilang
    from havoc.core.errors import HavocError

    words = list(argv)
    lang = clilang.detect(words)
    warning = clilang.unknown_setting(words, lang)
    if warning:
        print(warning, file=sys.stderr)
    # A plain ask or lookup is a short process that makes few cycles and exits: the cyclic
    # garbage collector is paused while it runs (it would otherwise sweep every few hundred
    # objects the imports and the cached rules make), and runs again when main returns.
    collecting = gc.isenabled()
    gc.disable()
    try:
        args: Any = quick_parse(words, lang)
        if args is not None:
            _quick.append(True)
            return _run(args, lang)
    finally:
        if collecting:
            gc.enable()
    undo = clilang.install(lang)  # argparse's own messages (usage, errors) in that language
    from havoc.language.i18n import set_message_language

    set_message_language(lang)  # --help's own texts and parse errors come in it too
    try:
        plain = [w for w in words if not w.startswith("-") and w not in ("en", "pl")]
        command, then = [*plain, None, None][:2]
        try:
            parser = build_parser(command, lang, then)
        except HavocError as exc:  # a game named like a command
            print(_format_problems(exc), file=sys.stderr)
            return exc.exit_code
        args = parser.parse_args(words)
    finally:
        undo()
    return _run(args, lang)


def _run(args: Any, lang: str) -> int:
    """Run the parsed command line's command; a user's error is a message and an exit code."""
    from havoc.core.errors import HavocError
    from havoc.language.i18n import set_message_language

    chosen = getattr(args, "lang", None)  # errors in --lang, else in the language the command line asked for
    set_message_language(chosen if isinstance(chosen, str) and chosen != "all" else lang)
    try:
        if getattr(args, "ruleset", "") is None:
            from havoc.engine import rulebook

            if not getattr(args, "every_ruleset", False):
                args.ruleset = rulebook.default_ruleset()  # data: rules/default-ruleset
            if not args.ruleset:
                # no rules folder (a wrong HAVOC_RULES): said now, naming it; a command that does
                # every ruleset when none is named (check, docs, sheet) would otherwise do nothing
                # and say all is well
                rulebook.require_rules()
        code: int = args.func(args)
        return code
    except HavocError as exc:
        print(_json_problems(exc) if getattr(args, "json", False) is True else _format_problems(exc), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # an output that cannot be written, a full disk: one line, never a traceback
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_RULES
    finally:
        set_message_language("en")  # a library caller after this command gets English again


def _json_problems(exc: HavocError) -> str:
    """The problems for a program that asked for ``--json``: each located, worded, and coded
    (:mod:`havoc.core.codes`), so it matches the code rather than the words."""
    import json

    from havoc.core.errors import split_field

    problems = []
    for p in exc.problems:
        field, message = split_field(p.message)
        one: dict[str, object] = {"file": p.file, "field": field, "message": message, "code": p.code}
        if p.line is not None:
            one["line"] = p.line
        if p.where:
            one["where"] = p.where
        problems.append(one)
    return json.dumps({"exit": exc.exit_code, "problems": problems}, ensure_ascii=False, indent=2)


def _format_problems(exc: HavocError) -> str:
    from havoc.language.i18n import message_language, nui, ui

    lang = message_language()  # a command with --lang sets it
    word = ui("error", lang)
    lines = [f"{word}: {p.said()}" for p in exc.problems]
    from havoc.formats.spec import is_more

    if len(exc.problems) > 1 and not is_more(exc.problems[-1]):  # (a list cut short says so instead)
        n = len(exc.problems)
        lines.append(nui("{n} problem", "{n} problems", n, lang).format(n=n))
    return "\n".join(lines)
