"""``havoc trogs POSITION move|place|build|recruit|tactics|prisoner …``: the solo Trogs decide.

The command reads a solo position, asks the decision engine and prints the decision, the
priority that decided it, the candidates set aside (each with the reason it lost) and the
documented readings it relied on, as text in English or Polish or as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from havoc.errors import HavocError, InputError, Problem
from havoc.games.cry_havoc.solo.engine import FIELDS, KINDS, TrogDecision
from havoc.i18n import ui

EPILOG = """examples:
  havoc trogs pos.yaml move --units 4            # from the Trog HQ, 1 step
  havoc trogs pos.yaml move --from example-a --units 2 --steps 2
  havoc trogs pos.yaml place example-a humans=1/1/1
  havoc trogs pos.yaml tactics example-a humans=2/0/1 trogs=1/1/1 [--no-tactic-text]
  havoc trogs pos.yaml prisoner [--shifted-priorities] [example-a humans=1/1/1 trogs=1/2/0]
  havoc trogs pos.yaml build [--both]
  havoc trogs pos.yaml recruit --units 3
placement: FACTION=CONTROL/PRISONERS/ATTRITION"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", metavar="POSITION", help="the solo position file (YAML or JSON; - for stdin)")
    p.add_argument("kind", metavar="DECISION", choices=KINDS, help="what the Trogs decide: " + ", ".join(KINDS))
    p.add_argument("words", metavar="REGION|FACTION=C/P/A", nargs="*", help="the Battle Region and the placements")
    # the decisions' question fields, with the words they are declared with (engine.FIELDS)
    p.add_argument("--units", type=int, help=FIELDS["units"].doc)
    p.add_argument("--from", dest="source", metavar="REGION", help=FIELDS["from"].doc)
    p.add_argument("--steps", type=int, help=FIELDS["steps"].doc)
    p.add_argument("--both", action="store_true", help=FIELDS["both"].doc)
    p.add_argument("--no-tactic-text", action="store_true", help=FIELDS["tactic-text"].doc)
    p.add_argument("--shifted-priorities", action="store_true", help=FIELDS["shifted-priorities"].doc)
    p.add_argument("--lang", choices=("en", "pl"), default="en", help="language of the answer (default: en)")
    p.add_argument("--json", action="store_true", help="print the decision as JSON")
    p.add_argument("--ruleset", default="cry-havoc", help="ruleset folder under rules/ (default: cry-havoc)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "trogs",
        help="what the solo variant's automated Trogs do, and why",
        description="Decide for the solo Trogs: the decision, the priority that decided it, and what it set aside.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(p)
    p.set_defaults(func=run)


def query_from(args: argparse.Namespace) -> dict[str, Any]:
    """The decision question as a mapping (the form stored examples and the API use)."""
    lang = args.lang
    q: dict[str, Any] = {"ask": "trogs", "decide": args.kind}
    objectives: dict[str, dict[str, int]] = {}
    for word in args.words:
        if "=" not in word:
            if "region" in q:
                raise InputError(
                    [Problem("query", None, ui("one Region only, found {found}", lang).format(found=repr(word)))]
                )
            q["region"] = word
            continue
        faction, _, counts = word.partition("=")
        parts = counts.split("/")
        if len(parts) != 3 or not all(x.isdigit() and len(x) <= 6 for x in parts):
            raise InputError(
                [
                    Problem(
                        "query",
                        None,
                        f"{word}: " + ui("expected FACTION=CONTROL/PRISONERS/ATTRITION, e.g. humans=1/1/1", lang),
                    )
                ]
            )
        objectives[faction] = dict(zip(("control", "prisoners", "attrition"), map(int, parts), strict=True))
    if objectives:
        q["objectives"] = objectives
    for name, value in (("units", args.units), ("from", args.source), ("steps", args.steps)):
        if value is not None:
            q[name] = value
    if args.both:
        q["both"] = True
    if args.no_tactic_text:
        q["tactic-text"] = False
    if args.shifted_priorities:
        q["shifted-priorities"] = True
    return q


def run(args: argparse.Namespace) -> int:
    from havoc import api

    decision = api.decide(args.position, "trogs", query_from(args), lang=args.lang, ruleset=args.ruleset)
    if args.json:
        print(json.dumps(decision.to_json(), ensure_ascii=False, indent=2))
    else:
        print(render(decision))
    return 0


def render(d: TrogDecision) -> str:
    """The decision for people: what, decided by which rule, what lost and why, readings used."""
    lang = d.lang
    out = [d.question]
    out.extend("  " + line for line in d.lines)
    if d.rule:
        out.append(ui("Decided by", lang) + ": " + d.titles.get(d.rule, d.rule))
    also = [r for r in d.also if r != d.rule]
    if also:
        out.append(ui("Also applied", lang) + ": " + "; ".join(d.titles.get(r, r) for r in also))
    if d.set_aside:
        out.append(ui("Set aside", lang) + ":")
        for s in d.set_aside:
            out.append(f"  {d.option_name(s.option)} — {d.titles.get(s.rule, s.rule)}: {s.reason}")
    if d.interpretations:
        out.append(ui("Our readings of open points that applied", lang) + ":")
        out.extend("  " + d.titles.get(i, i) for i in d.interpretations)
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``havoc trogs`` with ``argv`` (the words after ``trogs``); located errors exit 2."""
    from havoc.i18n import set_message_language

    parser = argparse.ArgumentParser(
        prog="havoc trogs", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    set_message_language(args.lang)
    try:
        return run(args)
    except HavocError as exc:
        word = ui("error", args.lang)
        print("\n".join(f"{word}: {p}" for p in exc.problems), file=sys.stderr)
        return exc.exit_code
    finally:
        set_message_language("en")
