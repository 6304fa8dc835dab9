"""``havoc charts``: look things up in the Advanced Cry Havoc 2 charts.

The answers come from :mod:`.lookups` (the rule tables); this module only reads the command
line and prints, in English or Polish. Bad input is a located message and exit status 2.
"""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from havoc.engine.rulebook.model import Ruleset

from havoc.games.advanced_cry_havoc import RULESET


def _epilog() -> str:
    from havoc.language.i18n import ui

    return ui(
        """\
examples:
  havoc charts range "english longbow" 45
  havoc charts courage 12 --foot
  havoc charts impairment 7 --mod=+1 --if armored
  havoc charts waking 5 --if aid --if "enemy exerting:2"
  havoc charts morale morale --if banner --if leader
  havoc charts morale recovery --if "enemy zoi" --roll 6 --courage 5
  havoc charts status scared
  havoc charts combat --target prone --target "side hex" --attacker "zoi of an enemy:2"
  havoc charts combat --ranged --animal --target "rear hex" --json

A situation (--if, --target, --attacker) is a line of the chart, named by its words or their
beginnings, in English or Polish (inflected, with or without Polish letters); words in brackets
are notes, not names. NAME:COUNT counts a line once per enemy where the chart says so. A
negative --mod is written --mod=-1.
Exit status: 0 answered (a refusal is an answer), 1 the rules are broken, 2 bad input."""
    )


def _parser_class() -> type[argparse.ArgumentParser]:
    """The class of a charts command's parser (made when a parser is built: a plain ``havoc
    charts range …`` line is read without argparse, see the game's ``QUICK_LINES``)."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        """A charts command's parser: its own help texts in the language of ``--lang`` (read from
        the words before parsing, so ``-h`` is in it too). argparse's own words are the CLI's."""

        lang = "en"

        def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
            words = list(sys.argv[1:] if args is None else args)
            _Parser.lang = "en"
            for i, w in enumerate(words):
                if w == "--lang" and i + 1 < len(words):
                    _Parser.lang = words[i + 1]
                elif w.startswith("--lang="):
                    _Parser.lang = w.partition("=")[2]
            return super().parse_known_args(args, namespace)

    return _Parser


def _languages() -> tuple[str, ...]:
    from havoc.language.i18n import LANGUAGES

    return tuple(LANGUAGES)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    import argparse

    from havoc.language.i18n import LANGUAGES, ui

    _Parser = _parser_class()

    # The help texts are ui() strings (so the catalog has them); _Parser shows them in --lang.
    p = sub.add_parser(
        "charts",
        help=ui("look up the Advanced Cry Havoc 2 charts (range, courage, impairment, waking up, combat)"),
        description=ui("Look up the Advanced Cry Havoc 2 charts; every answer cites the rules it read."),
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common = _Parser(add_help=False)
    common.add_argument(
        "--lang", choices=LANGUAGES, default="en", help=ui("language of the answer (default: %(default)s)")
    )
    common.add_argument("--json", action="store_true", help=ui("print the answer as JSON"))
    common.add_argument("--ruleset", default=RULESET, help=ui("the charts' ruleset (default: %(default)s)"))
    charts = p.add_subparsers(dest="chart", metavar="CHART", parser_class=_Parser)
    charts.required = True

    def chart(name: str, help_text: str) -> argparse.ArgumentParser:
        return charts.add_parser(
            name,
            parents=[common],
            help=help_text,
            description=help_text,
            epilog=_epilog(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    r = chart("range", ui("a weapon and a distance in hexes: band, power, ammunition"))
    r.add_argument("weapon", help=ui("the weapon (its name, or words of it)"))
    r.add_argument("distance", help=ui("the distance in hexes"))
    c = chart("courage", ui("a DEF factor: courage"))
    c.add_argument("def_factor", metavar="DEF", help=ui("the DEF factor"))
    side = c.add_mutually_exclusive_group(required=True)
    side.add_argument("--mounted", action="store_true", help=ui("a mounted character"))
    side.add_argument("--foot", action="store_true", help=ui("a foot character"))
    for name, what in (
        ("impairment", ui("a die roll with modifiers: the impairment effect")),
        ("waking", ui("a die roll with modifiers: the waking-up result")),
    ):
        w = chart(name, what)
        w.add_argument("roll", help=ui("the die roll, before modifiers"))
        w.add_argument("--mod", action="append", default=[], help=ui("a modifier to add (repeat; --mod=-1)"))
        w.add_argument("--if", dest="situations", action="append", default=[], help=ui("a modifier line of the chart"))
    m = chart("morale", ui("a morale or a recovery check: the modifiers that count, and the modified roll"))
    m.add_argument(
        "check", metavar="morale|recovery", help=ui("a morale check, or a recovery check (in the Cleanup phase)")
    )
    m.add_argument("--if", dest="situations", action="append", default=[], help=ui("a modifier line of the chart"))
    m.add_argument("--roll", help=ui("the die roll, to add the modifiers to"))
    m.add_argument("--courage", help=ui("the character's courage (see: havoc charts courage)"))
    st = chart("status", ui("a character status: what it allows and becomes"))
    st.add_argument("name", help=ui("the status (its name, or words of it)"))
    k = chart("combat", ui("a described situation: column shifts and die-roll modifiers"))
    k.add_argument("--target", action="append", default=[], help=ui("a column-shift line (the target's situation)"))
    k.add_argument(
        "--attacker", action="append", default=[], help=ui("a die-roll modifier line (the attacker's or shooter's)")
    )
    k.add_argument("--animal", action="store_true", help=ui("the target is an animal (or a mount)"))
    k.add_argument("--ranged", action="store_true", help=ui("ranged combat (the shooter's charts)"))
    p.set_defaults(func=run)


def _ruleset(name: str) -> Ruleset:
    """The charts' ruleset; a name that is no ruleset, or one without these charts, is bad input (exit 2)."""
    from havoc.core.errors import Code, InputError, Problem
    from havoc.engine import rulebook
    from havoc.engine.rulebook import UnknownRuleset
    from havoc.language.i18n import message_language, ui

    try:
        rs = rulebook.load(name)
    except UnknownRuleset as exc:
        raise InputError(exc.problems) from None
    if rs.game != __package__:
        msg = ui("{name!r} has no Advanced Cry Havoc 2 charts; expected --ruleset {default}", message_language())
        raise InputError(
            [Problem("--ruleset", None, msg.format(name=name, default=RULESET), code=Code.RULESET_UNKNOWN)]
        )
    return rs


def request(args: argparse.Namespace) -> dict[str, Any]:
    """The command line as the request :func:`.charts.lookup` answers (the page sends the same)."""
    fields: dict[str, tuple[str, ...]] = {
        "range": ("weapon", "distance"),
        "courage": ("def_factor", "mounted"),
        "impairment": ("roll", "mod", "situations"),
        "waking": ("roll", "mod", "situations"),
        "morale": ("check", "situations", "roll", "courage"),
        "status": ("name",),
        "combat": ("target", "attacker", "animal", "ranged"),
    }
    names = {"def_factor": "def", "mod": "mods"}
    return {"chart": args.chart, **{names.get(k, k): getattr(args, k) for k in fields[args.chart]}}


def run(args: argparse.Namespace) -> int:
    from havoc.games.advanced_cry_havoc.charts import lookup

    out = lookup(_ruleset(args.ruleset), request(args), args.lang)
    if args.json:
        import json

        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(out["text"] + "\n")
    return 0
