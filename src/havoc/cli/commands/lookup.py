"""``havoc lookup TEXT``: find the rules that answer a few words, in English or Polish.

The same core as the site's search page and ``havoc.assistant.api.lookup`` (:mod:`havoc.search`); a query
in either language finds the rule, shown in ``--lang``.
"""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING
from havoc.cli.commands import add_output_options
from havoc.core.errors import Code, InputError, Problem

if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "lookup",
        help="find the rules that answer a few words (English or Polish)",
        description=(
            "Search the rules, glossary and examples; words in either language, inflected forms, "
            "one typo and missing Polish diacritics are all fine. Best results first."
        ),
    )
    p.add_argument("text", nargs="+", help='what you are looking for, e.g. "hand limit"')
    p.add_argument("--limit", type=_positive, default=10, help="at most this many results (default: %(default)s)")
    add_output_options(p, "language of the results", "print JSON for programs")
    p.set_defaults(func=cmd_lookup)


def _positive(value: str) -> int:
    import argparse

    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {n}")
    return n


def cmd_lookup(args: argparse.Namespace) -> int:
    from havoc.language.i18n import ui
    from havoc.search import lookup

    text = " ".join(args.text).strip()
    if not text:
        raise InputError([Problem("lookup", None, "TEXT: expected some words to look for", code=Code.REQUEST_USAGE)])
    hits = lookup(text, args.lang, args.limit, ruleset=args.ruleset)
    if args.json:
        import json  # only for --json: a player's lookup does not load the JSON encoder

        json.dump([h.as_json() for h in hits], sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    if not hits:
        print(ui("No rule matches these words.", args.lang))
        return 0
    bold = sys.stdout.isatty()
    for n, hit in enumerate(hits, 1):
        print(f"{n}. {hit.title} — {hit.section}")
        tag = f"{ui('Example', args.lang)}: " if hit.kind == "example" else ""
        print("   " + tag + _marked(hit.snippet, hit.highlights, bold))
        print(f"   {hit.url}")
    return 0


def _marked(text: str, marks: tuple[tuple[int, int], ...], bold: bool) -> str:
    """The snippet with its matched words in bold on a terminal (plain text otherwise)."""
    if not bold:
        return text
    out, at = [], 0
    for start, end in marks:
        out += [text[at:start], "\033[1m", text[start:end], "\033[0m"]
        at = end
    out.append(text[at:])
    return "".join(out)
