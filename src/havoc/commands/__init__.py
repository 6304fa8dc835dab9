"""CLI commands, one module each (see havoc.cli.COMMANDS), and the options they share."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)


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
    from havoc.i18n import LANGUAGES

    p.add_argument("--lang", choices=LANGUAGES, default="en", help=f"{lang_help} (default: %(default)s)")
    p.add_argument("--json", action="store_true", help=json_help)
    add_ruleset_option(p)
