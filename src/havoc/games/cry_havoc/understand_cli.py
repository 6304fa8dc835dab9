"""``havoc understand "SENTENCE"``: what a typed question was read as (issue 39).

Prints the one-line summary, each understood piece (the words, the field, what they name), the
words it could not place and what the answer still needs, in English or Polish; ``--json`` gives
the same JSON as ``POST /api/understand``. Exit status 0 (a refusal is an answer), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from havoc.language.i18n import LANGUAGES

    p = sub.add_parser(
        "understand",
        help="read a question typed in your own words (English or Polish)",
        description="Read a rules question typed in your own words into the question `havoc ask` takes, "
        "and show what each word was taken for.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "examples:\n"
            '  havoc understand "can the machines move 2 units from sapos deep to world caverns"\n'
            '  havoc understand "czy pielgrzymi mogą aktywować sferę mocy w pogorzelisku" --lang pl --json'
        ),
    )
    p.add_argument("text", metavar="SENTENCE", help="the question, in quotes")
    p.add_argument("--lang", choices=LANGUAGES, default=None, help="language of the question and the output")
    p.add_argument("--json", action="store_true", help="print the JSON of POST /api/understand")
    p.set_defaults(func=cmd_understand)


def cmd_understand(args: argparse.Namespace) -> int:
    from havoc.core.errors import InputError
    from havoc.games.cry_havoc.understand import understand
    from havoc.language.i18n import ui

    lang = args.lang or getattr(args, "root_lang", None) or "en"
    try:
        out = understand(args.text, lang)
    except InputError as exc:
        for p in exc.problems:
            print(f"{p.where}: {p.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    print(out["summary"])
    for piece in out["understood"]:  # the field in words; its path is in --json
        print(f"  «{piece['words']}» → {piece['shown']}  ({piece['label']})")
    if out["unplaced"]:
        print(ui("Not understood: {words}", lang).format(words=", ".join(out["unplaced"])))
    for m in out["missing"]:
        print(ui("Still needed: {what}", lang).format(what=m["label"]))
    from havoc.games.cry_havoc.ui import form_label

    for alt in out["alternatives"]:
        print(ui("Or perhaps: {kind}", lang).format(kind=form_label(alt["question"]["ask"], lang)))
    return 0
