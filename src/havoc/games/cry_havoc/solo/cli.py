"""``havoc trogs POSITION move|place|build|recruit|tactics|prisoner …``: the solo Trogs decide.

The command reads a solo position, asks the decision engine and prints the decision, the
priority that decided it, the candidates set aside (each with the reason it lost) and the
documented readings it relied on, as text in English or Polish or as JSON.
"""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, HavocError, InputError, Problem
from havoc.core.memo import memo
from havoc.games.cry_havoc.solo.engine import FIELDS, KINDS, TrogDecision
from havoc.language.i18n import ui

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

    from havoc.games.cry_havoc.position import Position
    from havoc.games.cry_havoc.typed import Words


class SoloLexicon:
    """The typed words of ``havoc trogs``: the solo Trogs' decisions and their fields, from the
    same catalog entries (``ui:word``) as the question format's ("ruch" is move in both)."""

    def __init__(self, first: str) -> None:
        from havoc.games.cry_havoc.typed import Words, reading_order, typed_word

        order = reading_order(first)
        self.decisions = Words((typed_word(k, lang), k) for lang in order for k in KINDS)
        self.fields = Words((typed_word(k, lang), k) for lang in order for k in FIELDS)


def solo_lexicon(lang: str) -> SoloLexicon:
    """The typed words of the solo Trogs' command line, shown first in ``lang``; made again when
    the catalogs are loaded again (as :func:`havoc.games.cry_havoc.typed.lexicon`)."""
    from havoc.games.cry_havoc.typed import catalogs_key

    return _solo_lexicon(lang, catalogs_key())


@memo(8)
def _solo_lexicon(lang: str, _catalogs: tuple[object, ...]) -> SoloLexicon:
    return SoloLexicon(lang)


def _when_needed(lang: str) -> Callable[[], SoloLexicon]:
    """:func:`solo_lexicon`, made on the first call: a line of machine words ("move", "units=2")
    never needs it, and making it reads every language's catalog."""
    made: list[SoloLexicon] = []

    def solo() -> SoloLexicon:
        if not made:
            made.append(solo_lexicon(lang))
        return made[0]

    return solo


def solo_tokens() -> list[str]:
    """The solo Trogs' decisions and fields, the machine words ``havoc trogs`` reads in a
    reader's words too (catalog context ``ui:word``, shared with the question format's)."""
    return list(dict.fromkeys((*KINDS, *FIELDS)))


EPILOG = """examples:
  havoc trogs pos.yaml move --units 4            # from the Trog HQ, 1 step
  havoc trogs pos.yaml move --from example-a --units 2 --steps 2
  havoc trogs pos.yaml place example-a humans=1/1/1
  havoc trogs pos.yaml tactics example-a humans=2/0/1 trogs=1/1/1 [--no-tactic-text]
  havoc trogs pos.yaml prisoner [example-a humans=1/1/1 trogs=1/2/0] [--shifted-priorities]
  havoc trogs pos.yaml build [--both]
  havoc trogs pos.yaml recruit --units 3
  havoc trogs pos.yaml move from=example-a units=2 steps=2   # the options as key=value words
placement: FACTION=CONTROL/PRISONERS/ATTRITION
fields as key=value: from=REGION units=N steps=N both=yes tactic-text=no shifted-priorities=yes"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", metavar="POSITION", help="the solo position file (YAML or JSON; - for stdin)")
    # the decision and the words are read by query_from, in the reader's words too (solo_lexicon)
    p.add_argument("kind", metavar="DECISION", help="what the Trogs decide: " + ", ".join(KINDS))
    p.add_argument(
        "words",
        metavar="REGION|FACTION=C/P/A",
        nargs="*",
        default=[],  # none is fine: argparse would otherwise list the words as required
        help="the Battle Region and the placements; a field as key=value (see below)",
    )
    # the decisions' question fields, with the words they are declared with (engine.FIELDS)
    p.add_argument("--units", type=int, help=FIELDS["units"].doc)
    p.add_argument("--from", dest="source", metavar="REGION", help=FIELDS["from"].doc)
    p.add_argument("--steps", type=int, help=FIELDS["steps"].doc)
    p.add_argument("--both", action="store_true", help=FIELDS["both"].doc)
    p.add_argument("--no-tactic-text", action="store_true", help=FIELDS["tactic-text"].doc)
    p.add_argument("--shifted-priorities", action="store_true", help=FIELDS["shifted-priorities"].doc)
    p.add_argument("--lang", choices=("en", "pl"), default="en", help="language of the answer (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the decision as JSON")
    p.add_argument("--ruleset", default="cry-havoc", help="ruleset folder under rules/ (default: cry-havoc)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    import argparse

    p = sub.add_parser(
        "trogs",
        help="what the solo variant's automated Trogs do, and why",
        description="Decide for the solo Trogs: the decision, the priority that decided it, and what it set aside.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(p)
    p.set_defaults(func=run)


# the fields in the order the question mapping gives them (as the options always set them)
_ORDER = ("units", "from", "steps", "both", "tactic-text", "shifted-priorities")


def query_from(args: argparse.Namespace, pos: Position | None = None) -> dict[str, Any]:
    """The decision question as a mapping (the form stored examples and the API use).

    The decision, a field (``from=…``, the options' words), a faction and a Region may be typed
    in the reader's words as the compact question's are (``ruch z=Mgielnia oddziały=2``; the
    catalog's ``ui:word`` entries, names through ``ui.vocabulary``: :mod:`typed`); Region names
    are read when the table ``pos`` is given."""
    from havoc.games.cry_havoc.contract import FACTIONS
    from havoc.games.cry_havoc.query import _word_value
    from havoc.games.cry_havoc.solo.engine import check_field, get, question_where
    from havoc.games.cry_havoc.typed import _Reading, spoken, typed_word
    from havoc.language.i18n import SOURCE_LANGUAGE

    lang = args.lang
    solo = _when_needed(lang)
    where = question_where()  # "pytanie" to a Polish reader, as havoc ask says it
    reading = _Reading(pos, where, lang) if pos is not None else None

    def look(words: Words, word: str) -> str | None:
        return reading.look(words, word) if reading is not None else words.find(word)

    kind = args.kind
    if kind not in KINDS:
        found = look(solo().decisions, kind)
        if found is None:
            hint = solo().decisions.near(kind)
            raise InputError(
                [
                    Problem(
                        where,
                        None,
                        ui("unknown decision {name}{hint}; expected one of {choices}", lang).format(
                            name=repr(kind),
                            hint=" " + ui("(did you mean {name}?)", lang).format(name=repr(hint)) if hint else "",
                            choices=solo().decisions.listing(),
                        ),
                        code=Code.REQUEST_USAGE,
                    )
                ]
            )
        kind = found
    q: dict[str, Any] = {"ask": "trogs", "decide": kind}
    objectives: dict[str, dict[str, int]] = {}
    given: dict[str, Any] = {}

    def region(key: str, word: str) -> str:
        return word if reading is None else reading.region(key, word)

    for word in args.words:
        if "=" not in word:
            if "region" in q:
                raise InputError(
                    [
                        Problem(
                            where,
                            None,
                            ui("one Region only, found {found}", lang).format(found=repr(word)),
                            code=Code.REQUEST_USAGE,
                        )
                    ]
                )
            q["region"] = region("region", word)
            continue
        key, _, raw = word.partition("=")
        field = key if key in FIELDS else None if key in FACTIONS else look(solo().fields, key)
        if field is not None and field in FIELDS:
            given[field] = region("from", raw) if field == "from" else _word_value(raw, FIELDS[field])
            continue
        parts = raw.split("/")
        if len(parts) != 3 or not all(x.isdigit() and len(x) <= 6 for x in parts):
            raise InputError(
                [
                    Problem(
                        where,
                        None,
                        f"{word}: "
                        + ui("expected FACTION=CONTROL/PRISONERS/ATTRITION, e.g. {example}", lang).format(
                            example=spoken(["place", "humans=1/1/1"], lang).split()[-1]
                        ),
                        code=Code.REQUEST_USAGE,
                    )
                ]
            )
        faction = key if key in FACTIONS or reading is None else reading.look(reading.lex.factions, key) or key
        objectives[faction] = dict(zip(("control", "prisoners", "attrition"), map(int, parts), strict=True))
    if reading is not None and reading.problems:
        raise InputError(reading.problems)
    if objectives:
        q["objectives"] = objectives
    for name, value in (("units", args.units), ("from", args.source), ("steps", args.steps)):
        if value is not None:
            given[name] = region(name, value) if name == "from" else value
    if args.both:
        given["both"] = True
    if args.no_tactic_text:
        given["tactic-text"] = False
    if args.shifted_priorities:
        given["shifted-priorities"] = True
    if lang != SOURCE_LANGUAGE:  # a field typed, or needed, is said as the reader types it ("oddziały")
        for name in (*given, *(n for n in get(kind).needed if n not in given)):
            if FIELDS[name].kind in ("int", "bool"):  # a Region is read by name above
                check_field(name, given.get(name), lang, said=typed_word(name, lang))
    q.update((name, given[name]) for name in _ORDER if name in given)
    return q


def run(args: argparse.Namespace) -> int:
    from havoc.assistant import api

    _, pos = api.prepare(args.position, args.ruleset)  # the table first: its Regions' names are read
    decision = api.decide(pos, "trogs", query_from(args, pos), lang=args.lang, ruleset=args.ruleset)
    if args.json:
        import json

        print(json.dumps(decision.to_json(), ensure_ascii=False, indent=2))
    else:
        print(render(decision))
    return 0


def render(d: TrogDecision) -> str:
    """The decision for people (:meth:`TrogDecision.to_text`)."""
    return d.to_text()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``havoc trogs`` with ``argv`` (the words after ``trogs``); located errors exit 2."""
    import argparse

    from havoc.language.i18n import set_message_language

    parser = argparse.ArgumentParser(
        prog="havoc trogs", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    args = parser.parse_intermixed_args(list(sys.argv[1:] if argv is None else argv))  # options anywhere, as havoc's
    set_message_language(args.lang)
    try:
        return run(args)
    except HavocError as exc:
        word = ui("error", args.lang)
        print("\n".join(f"{word}: {p.said()}" for p in exc.problems), file=sys.stderr)
        return exc.exit_code
    finally:
        set_message_language("en")
