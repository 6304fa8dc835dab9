"""CLI commands, one module each (see havoc.cli.COMMANDS), and the options they share."""

from __future__ import annotations

import argparse

from havoc.rulebook import DEFAULT_RULESET


def add_ruleset_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", default=DEFAULT_RULESET, help="ruleset folder under rules/ (default: %(default)s)")


def add_output_options(p: argparse.ArgumentParser, lang_help: str, json_help: str) -> None:
    """``--lang`` and ``--json`` (and ``--ruleset``), for commands that print rule texts or answers."""
    from havoc.i18n import LANGUAGES

    p.add_argument("--lang", choices=LANGUAGES, default="en", help=f"{lang_help} (default: %(default)s)")
    p.add_argument("--json", action="store_true", help=json_help)
    add_ruleset_option(p)
