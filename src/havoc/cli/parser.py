"""The ``havoc`` command line's argparse parsers: built only for the command that runs.

:mod:`havoc.cli` parses a plain ``havoc ask``/``havoc lookup`` line itself (start-up time is
part of every answer); every other line, ``--help`` and every error come through here.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any


def build_parser(
    commands: dict[str, str], command: str | None = None, lang: str = "en", then: str | None = None
) -> argparse.ArgumentParser:
    """The parser; with ``command`` known, only that command's module is imported (with a game's
    name, ``then`` is the word after it: that game's command).

    Its help and argparse's messages are in ``lang`` (see :mod:`havoc.cli.lang`).
    """
    from havoc.cli import lang as clilang
    from havoc.language.i18n import LANGUAGES

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
    if command in commands:  # one engine command runs: only its parser is built, no game is looked at
        importlib.import_module(commands[command]).register(_Only(sub, {command}))
        clilang.translate(parser, lang)
        return parser
    from havoc.engine import game

    line = game.command_line(commands)
    if command in line.shared:  # several games have it: which one is the reader's to say
        from havoc.core.errors import Code, InputError, Problem
        from havoc.language.i18n import ui

        forms = ", ".join(f"havoc {name} {command}" for name in line.shared[command])
        message = ui("{command} is a command of several games: {forms}", lang).format(command=command, forms=forms)
        raise InputError([Problem("havoc", None, message, code=Code.REQUEST_USAGE)])
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
    from havoc.language.i18n import ui

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
    parsers are of this class too (argparse makes them of the root parser's class), so every
    command reads its options anywhere among its words (:meth:`parse_known_args`).
    """

    _intermixing = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Options may come anywhere among a command's words, as players type them: ``havoc
        trogs pos.yaml prisoner --shifted-priorities example-a humans=1/1/1`` reads the words after
        the option too (plain argparse takes a command's positionals in one run and refuses the
        rest). A parser with sub-commands parses as argparse does; its command's parser intermixes."""
        if self._intermixing or not _takes_words(self):
            return super().parse_known_args(args, namespace)
        usage = self.usage
        if usage is None:  # errors show the whole usage (argparse's own capture cuts a translated prefix)
            self.usage = self._usage()
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False
            self.usage = usage

    def _usage(self) -> str:
        """The usage line without its ``usage:`` prefix, as argparse would print it."""
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups, prefix="")
        return formatter.format_help().strip()

    def _get_formatter(self) -> argparse.HelpFormatter:
        make: Any = self.formatter_class  # typeshed declares only prog for it; every HelpFormatter takes width
        formatter: argparse.HelpFormatter = make(prog=self.prog, width=_columns() - 2)  # as HelpFormatter does
        return formatter


def _takes_words(parser: argparse.ArgumentParser) -> bool:
    """Whether ``parser`` reads a varying number of positional words (and no sub-command): the
    parsers whose words an option in between would cut short."""
    nargs = [a.nargs for a in parser._actions if not a.option_strings]  # the positionals
    return any(n in ("?", "*", "+") for n in nargs) and not any(
        n in (argparse.PARSER, argparse.REMAINDER) for n in nargs
    )


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
