"""CLI commands, one module each (see havoc.cli.COMMANDS), and the options they share."""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def add_ruleset_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ruleset",
        default=None,
        help="ruleset folder under rules/, or a path to one (default: the one named in rules/default-ruleset)",
    )


def add_output_options(p: argparse.ArgumentParser, lang_help: str, json_help: str) -> None:
    """``--lang`` and ``--json`` (and ``--ruleset``), for commands that print rule texts or answers."""
    from havoc.language.i18n import LANGUAGES

    p.add_argument("--lang", choices=LANGUAGES, default="en", help=f"{lang_help} (default: %(default)s)")
    p.add_argument("--json", action="store_true", help=json_help)
    add_ruleset_option(p)


def said(msgid: str, **values: object) -> str:
    """A progress or status line of a command in the message language (``HAVOC_LANG``, the locale),
    its ``{placeholders}`` filled in; a float given as ``seconds`` reads with the language's own
    decimal mark ("1.5 s", "1,5 s")."""
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    if isinstance(values.get("seconds"), float):
        from babel.numbers import format_decimal

        values["seconds"] = format_decimal(round(float(values["seconds"]), 1), format="0.0", locale=lang) + " s"  # type: ignore[arg-type]
    return ui(msgid, lang).format(**values)
