"""The ``havoc`` command line: one entry point, commands registered by their modules.

Heavy dependencies (Sphinx, WeasyPrint) are imported only inside the commands that need them,
so answering a rules question stays a fast process.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from havoc.errors import HavocError

# Each module has register(subparsers) and sets args.func(args) -> int.
COMMAND_MODULES = [
    "havoc.commands.rules",
    "havoc.commands.catalog",
]

EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="havoc",
        description="The Cry Havoc rulebook as data: check it, read it, build its site and sheets, ask it.",
    )
    from havoc import __version__

    parser.add_argument("--version", action="version", version=f"havoc {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except HavocError as exc:
        print(_format_problems(exc), file=sys.stderr)
        return getattr(exc, "exit_code", EXIT_RULES if exc.__class__.__name__ == "RulebookError" else EXIT_INPUT)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _format_problems(exc: HavocError) -> str:
    lines = [f"error: {p}" for p in exc.problems]
    if len(exc.problems) > 1:
        lines.append(f"{len(exc.problems)} problem" + ("" if len(exc.problems) == 1 else "s"))
    return "\n".join(lines)
