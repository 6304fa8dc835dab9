"""``havoc catalog``: keep the translation catalogs in step with the rules."""

from __future__ import annotations

import argparse
import sys

from havoc.cli.commands import add_ruleset_option
from havoc.engine import rulebook


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "catalog",
        help="extract, update or check the translation catalogs",
        description="Translation catalogs live in locales/: <domain>.pot templates and <lang>/LC_MESSAGES/<domain>.po.",
    )
    p.add_argument(
        "action",
        choices=["extract", "update", "check"],
        help="extract: write the .pot templates; update: also merge them into every .po; "
        "check: fail if a catalog is stale or a translation is missing",
    )
    add_ruleset_option(p)
    p.set_defaults(func=cmd_catalog)


def cmd_catalog(args: argparse.Namespace) -> int:
    from havoc.cli import catalogs
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    rs = rulebook.load(args.ruleset)
    if args.action in ("extract", "update"):
        # Only files whose messages changed are written, and only those are named.
        changed = [str(p) for p in catalogs.extract(rs)] if args.action == "extract" else catalogs.update(rs)
        for name in changed:
            print(ui("updated {path}", lang).format(path=name))
        if not changed:
            print(ui("the catalogs are up to date: nothing written", lang))
        return 0
    report = catalogs.check_all(rs)
    for problem in report.problems:
        print(f"error: {problem}", file=sys.stderr)
    if report.problems:
        print(
            f"{len(report.problems)} problem{'' if len(report.problems) == 1 else 's'} in the catalogs", file=sys.stderr
        )
        return 1
    print("ok: " + ", ".join(report.summary))
    return 0
