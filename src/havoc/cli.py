"""The ``havoc`` command line: one entry point, commands registered by their modules.

Heavy dependencies (Sphinx, WeasyPrint) are imported only inside the commands that need them,
so answering a rules question stays a fast process.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from havoc.errors import HavocError

# Each module has register(subparsers) and sets args.func(args) -> int. The command names map
# to their module so that running one command imports only its module (start-up time is part
# of every answer); a test keeps this map equal to what the modules register.
COMMANDS = {
    "check": "havoc.commands.rules",
    "rules": "havoc.commands.rules",
    "rule": "havoc.commands.rules",
    "schema": "havoc.commands.rules",
    "catalog": "havoc.commands.catalog",
    "sheet": "havoc.commands.sheet",
    "docs": "havoc.commands.docs",
    "lookup": "havoc.commands.lookup",
    "serve": "havoc.commands.serve",
    "ask": "havoc.commands.ask",
}


def all_commands() -> dict[str, str]:
    """The commands ``havoc <command>`` runs: the engine's and each game's command no other game
    has (every game's are also ``havoc <game> <command>``, see :func:`havoc.game.command_line`)."""
    from havoc import game

    return game.command_line(COMMANDS).short


EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


def build_parser(command: str | None = None, lang: str = "en", then: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` known, only that command's module is imported (with a game's
    name, ``then`` is the word after it: that game's command).

    Its help and argparse's messages are in ``lang`` (see :mod:`havoc.clilang`).
    """
    from havoc import clilang
    from havoc.i18n import LANGUAGES

    parser = _Parser(
        prog="havoc",
        description="A rulebook as data: check it, read it, build its site and sheets, ask it.",
    )
    from havoc import __version__

    parser.add_argument("--version", action="version", version=f"havoc {__version__}")
    parser.add_argument(
        "--lang",
        dest="root_lang",
        choices=LANGUAGES,
        help="language of the help, the messages and the answers (default: HAVOC_LANG, else the locale, else en)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    if command in COMMANDS:  # one engine command runs: only its parser is built, no game is looked at
        importlib.import_module(COMMANDS[command]).register(_Only(sub, {command}))
        clilang.translate(parser, lang)
        return parser
    from havoc import game

    line = game.command_line(COMMANDS)
    if command in line.shared:  # several games have it: which one is the reader's to say
        from havoc.errors import InputError, Problem
        from havoc.i18n import ui

        forms = ", ".join(f"havoc {name} {command}" for name in line.shared[command])
        message = ui("{command} is a command of several games: {forms}", lang).format(command=command, forms=forms)
        raise InputError([Problem("havoc", None, message)])
    if command in line.short:  # one command runs: only its parser is built (a module may register several)
        importlib.import_module(line.short[command]).register(_Only(sub, {command}))
    elif command in line.games:  # one game's command, or the list of them
        played = line.games[command]
        _mount(sub, played, line, lang, {then} if then in played.commands else set(played.commands))
    else:  # --help, or a word that is no command: every command, for the list and the error
        _register(sub, line.short)
        for played in line.games.values():
            _mount(sub, played, line, lang, set(played.commands))
    clilang.translate(parser, lang)
    return parser


def _register(sub: Any, commands: dict[str, str]) -> None:
    """Register ``commands`` (name -> module), each module once, only those of its commands."""
    for module in dict.fromkeys(commands.values()):
        importlib.import_module(module).register(_Only(sub, {n for n, m in commands.items() if m == module}))


def _mount(sub: Any, played: Any, line: Any, lang: str, wanted: set[str]) -> None:
    """``havoc <game> …``: the game's own sub-command list with its commands (those in ``wanted``
    built); its help, in ``lang`` already, names them and the forms they have."""
    from havoc.i18n import ui

    about = ui("{game}'s commands: {commands}", lang).format(game=played.title, commands=", ".join(played.commands))
    only = [c for c in played.commands if c in line.shared]
    if only:  # another game has a command of the same name: `havoc <command>` is neither's
        about += " " + ui("(only as havoc {name} …: {commands})", lang).format(
            name=played.name, commands=", ".join(only)
        )
    forms = ui("Each is `havoc {name} COMMAND`; one no other game has is also `havoc COMMAND`.", lang)
    p = sub.add_parser(played.name, help=about, description=about, epilog=forms.format(name=played.name))
    p.in_language = True  # clilang leaves its texts as they are
    sub._choices_actions[-1].in_language = True
    inner = p.add_subparsers(dest="game_command", metavar="COMMAND")
    inner.required = True
    by_module = {n: m for n, m in played.commands.items() if n in wanted}
    for module in dict.fromkeys(by_module.values()):
        importlib.import_module(module).register(_Only(inner, {n for n, m in by_module.items() if m == module}))


class _Only:
    """The sub-command list as a command module sees it, keeping only the parsers of ``commands``:
    the parsers it adds for its other commands are never built."""

    def __init__(self, sub: Any, commands: set[str]) -> None:
        self._sub = sub
        self._commands = commands

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if name in self._commands or self._commands & set(kwargs.get("aliases", ())):
            return self._sub.add_parser(name, **kwargs)
        return _Skipped()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sub, name)


class _Skipped:
    """A parser that is not built: whatever a command module does to it is dropped."""

    def __getattr__(self, name: str) -> Any:
        return _skipped

    def __setattr__(self, name: str, value: Any) -> None:
        pass


def _skipped(*args: Any, **kwargs: Any) -> _Skipped:
    return _Skipped()


class _Parser(argparse.ArgumentParser):
    """argparse's parser, laying out help at the terminal's width without importing ``shutil``.

    argparse makes a help formatter for every argument it adds, and each asks
    ``shutil.get_terminal_size``; importing ``shutil`` (with ``bz2``, ``lzma``, ``fnmatch``) is a
    measurable part of a short ``havoc ask``. The width is worked out the same way. Sub-commands'
    parsers are of this class too (argparse makes them of the root parser's class).
    """

    def _get_formatter(self) -> argparse.HelpFormatter:
        make: Any = self.formatter_class  # typeshed declares only prog for it; every HelpFormatter takes width
        formatter: argparse.HelpFormatter = make(prog=self.prog, width=_columns() - 2)  # as HelpFormatter does
        return formatter


def _columns() -> int:
    """``shutil.get_terminal_size().columns``: ``COLUMNS``, else the terminal's, else 80."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def main(argv: Sequence[str] | None = None) -> int:
    from havoc import clilang

    words = list(sys.argv[1:] if argv is None else argv)
    lang = clilang.detect(words)
    undo = clilang.install(lang)  # argparse's own messages (usage, errors) in that language
    from havoc.i18n import set_message_language

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
    if getattr(args, "ruleset", "") is None and not getattr(args, "every_ruleset", False):
        # the default ruleset is data (rules/default-ruleset); a command that does every ruleset
        # when none is named (docs, sheet) keeps None
        from havoc.rulebook import default_ruleset

        args.ruleset = default_ruleset()
    from havoc.i18n import set_message_language

    chosen = getattr(args, "lang", None)  # errors in --lang, else in the language the command line asked for
    set_message_language(chosen if isinstance(chosen, str) and chosen != "all" else lang)
    try:
        code: int = args.func(args)
        return code
    except HavocError as exc:
        print(_format_problems(exc), file=sys.stderr)
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


def _format_problems(exc: HavocError) -> str:
    from havoc.i18n import message_language, nui, ui

    lang = message_language()  # a command with --lang sets it
    word = ui("error", lang)
    lines = [f"{word}: {p}" for p in exc.problems]
    if len(exc.problems) > 1:
        n = len(exc.problems)
        lines.append(nui("{n} problem", "{n} problems", n, lang).format(n=n))
    return "\n".join(lines)
