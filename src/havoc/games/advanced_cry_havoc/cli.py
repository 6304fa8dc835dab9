"""``havoc charts``: look things up in the Advanced Cry Havoc 2 charts.

The answers come from :mod:`.lookups` (the rule tables); this module only reads the command
line and prints, in English or Polish. Bad input is a located message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from havoc.games.advanced_cry_havoc.lookups import Applied
    from havoc.i18n import Translator
    from havoc.rulebook.model import Ruleset

RULESET = "advanced-cry-havoc"

# The words a reader types for the choice of the morale command, in any language.
CHECK_WORDS = {"morale": "morale", "recovery": "recovery", "odzyskanie": "recovery", "odzyskania": "recovery"}


def _epilog() -> str:
    from havoc.i18n import ui

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


def _languages() -> tuple[str, ...]:
    from havoc.i18n import LANGUAGES

    return tuple(LANGUAGES)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from havoc.i18n import LANGUAGES, ui

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


def _number(text: str | None, field: str, signed: bool = False) -> int | None:
    """A whole number the reader typed; anything else is a located error (exit 2), never argparse's."""
    from havoc.errors import InputError, Problem
    from havoc.i18n import message_language, ui

    if text is None:
        return None
    t = text.strip()
    body = t[1:] if signed and t[:1] in "+-" else t
    if not body.isdigit():
        from havoc.games.advanced_cry_havoc.lookups import field_label

        msg = ui("expected a whole number, found {text!r}", message_language()).format(text=text)
        raise InputError([Problem(field_label(field), None, msg)])
    return int(t)


def _ruleset(name: str) -> Ruleset:
    """The charts' ruleset; a name that is no ruleset, or one without these charts, is bad input (exit 2)."""
    from havoc import rulebook
    from havoc.errors import InputError, Problem
    from havoc.i18n import message_language, ui
    from havoc.rulebook import UnknownRuleset

    try:
        rs = rulebook.load(name)
    except UnknownRuleset as exc:
        raise InputError(exc.problems) from None
    if rs.game != __package__:
        msg = ui("{name!r} has no Advanced Cry Havoc 2 charts; expected --ruleset {default}", message_language())
        raise InputError([Problem("--ruleset", None, msg.format(name=name, default=RULESET))])
    return rs


def run(args: argparse.Namespace) -> int:
    from havoc.errors import InputError, Problem
    from havoc.games.advanced_cry_havoc import lookups as L
    from havoc.games.advanced_cry_havoc import tables as T
    from havoc.i18n import message_language, translator, ui

    rs = _ruleset(args.ruleset)
    tr = translator(args.lang, rs.id)
    view = _View(rs, tr)
    result: Any
    if args.chart == "range":
        result = L.range_lookup(rs, args.weapon, _whole(args.distance, "distance"))
        text = view.range(result)
    elif args.chart == "courage":
        result = L.courage(rs, _whole(args.def_factor, "DEF"), args.mounted)
        text = view.courage(result, args.mounted)
    elif args.chart in ("impairment", "waking"):
        fn, chart = (L.impairment, T.IMPAIRMENT) if args.chart == "impairment" else (L.waking, T.WAKING)
        mods = [_whole(m, "--mod", signed=True) for m in args.mod]
        result = fn(rs, _whole(args.roll, "roll", signed=True), mods, args.situations)
        text = view.row(result, chart, 1)
    elif args.chart == "status":
        result = L.status(rs, args.name)
        text = view.status(result)
    elif args.chart == "morale":
        check = CHECK_WORDS.get(args.check.strip().lower())
        if check is None:
            msg = ui("expected a morale or a recovery check, found {check!r}", message_language())
            raise InputError([Problem(L.field_label("check"), None, msg.format(check=args.check))])
        roll, courage = _number(args.roll, "--roll", signed=True), _number(args.courage, "--courage")
        result = L.morale(rs, args.situations, check, roll, courage)
        text = view.morale(result)
    else:
        result = L.combat(rs, args.target, args.attacker, args.animal, args.ranged)
        text = view.combat(result)
    if args.json:
        out = {"chart": args.chart, "lang": args.lang, **L.as_dict(result), "text": text}
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(text + "\n")
    return 0


def _whole(text: str, field: str, signed: bool = False) -> int:
    n = _number(text, field, signed)
    assert n is not None
    return n


class _View:
    """The words of an answer in one language: chart cells and rule titles through the catalog."""

    def __init__(self, rs: Ruleset, tr: Translator) -> None:
        self.rs, self.tr, self.lang = rs, tr, tr.lang

    def cell(self, rule_id: str, cell: str) -> str:
        return self.tr.text(f"{rule_id}:table", cell)

    def cite(self, rules: Sequence[str]) -> str:
        from havoc.i18n import ui

        # Titles only: a reader never sees a machine name (the IDs are in the --json answer).
        titles = "; ".join(self.tr.text(f"{r}:title", self.rs.rules[r].title) for r in rules)
        word = ui("rules", self.lang)
        return f"  {word}: {titles}"

    def reason(self, rule_id: str) -> str:
        rule = self.rs.rules[rule_id]
        return self.tr.text(f"{rule_id}:summary", rule.summary or rule.title)

    def range(self, res: Any) -> str:
        from havoc.games.advanced_cry_havoc import lookups as L
        from havoc.games.advanced_cry_havoc import tables as T
        from havoc.i18n import nui, ui

        lang = self.lang
        head = nui("{weapon} at {n} hex", "{weapon} at {n} hexes", res.distance, lang).format(
            weapon=self.cell(T.WEAPONS, res.weapon), n=res.distance
        )
        ammo = ui("unlimited", lang) if res.ammo is None else str(res.ammo)
        if res.status == L.FOUND:
            body = ui("{band}, power {power}, ammunition {ammo}", lang).format(
                band=self.cell(T.WEAPONS, res.band), power=res.power, ammo=ammo
            )
            if res.specials:
                body += "; " + ui("special rules", lang) + ": " + res.specials
        elif res.status == L.OUT_OF_RANGE:
            body = ui("out of range (beyond the long band)", lang)
        elif res.status == L.NO_BAND:
            body = ui("no band: the chart gives this weapon none at this distance", lang)
        else:
            body = ui("cannot be determined from the source", lang) + ": " + self.cell(T.OPEN, res.reason)
        return f"{head}: {body}\n{self.cite(res.rules)}"

    def courage(self, res: Any, mounted: bool) -> str:
        from havoc.games.advanced_cry_havoc import lookups as L
        from havoc.i18n import ui

        side = ui("mounted", self.lang) if mounted else ui("foot", self.lang)
        if res.status != L.FOUND:
            return self.row(res, "", 0)
        head = ui("DEF {n} ({side}): courage {courage}", self.lang).format(n=res.value, side=side, courage=res.result)
        return f"{head}\n{self.cite(res.rules)}"

    def row(self, res: Any, chart: str, column: int) -> str:
        from havoc.games.advanced_cry_havoc import lookups as L
        from havoc.i18n import ui

        lines = self.applied(res.applied)
        if res.status == L.FOUND:
            head = ui("{n}: {result}", self.lang).format(n=res.value, result=self.cell(chart, res.result))
        else:
            head = ui("{n}: the chart has no line for this number", self.lang).format(n=res.value)
        return "\n".join([head, *lines, self.cite(res.rules)])

    def applied(self, applied: Sequence[Applied]) -> list[str]:
        from havoc.i18n import ui

        out = []
        for a in applied:
            count = f" ×{a.count}" if a.count > 1 else ""
            line = f"  {a.value:+d}{count}  {self.cell(a.rule, a.label)}"
            if a.why_not == "not-cumulative":
                line += " — " + ui("not counted: not cumulative, only the strongest of them counts", self.lang)
            elif a.why_not == "not-animal":
                line += " — " + ui("not counted: does not apply to an animal", self.lang)
            elif a.why_not == "recovery-only":
                line += " — " + ui("not counted: recovery checks only", self.lang)
            out.append(line)
        return out

    def modifiers(self, applied: Sequence[Applied], total: int, rules: Sequence[str]) -> str:
        from havoc.i18n import ui

        head = ui("modifier in total: {n}", self.lang).format(n=f"{total:+d}")
        return "\n".join([head, *self.applied(applied), self.cite(rules)])

    def morale(self, res: Any) -> str:
        from havoc.games.advanced_cry_havoc import tables as T
        from havoc.i18n import ui

        lang = self.lang
        head = ui("recovery check", lang) if res.check == "recovery" else ui("morale check", lang)
        lines = [
            head + ": " + ui("modifier in total: {n}", lang).format(n=f"{res.total:+d}"),
            *self.applied(res.applied),
        ]
        if res.modified is not None:
            lines.append(
                ui("modified roll: {n} (roll {roll}, modifiers {total})", lang).format(
                    n=res.modified, roll=res.roll, total=f"{res.total:+d}"
                )
            )
        if res.courage is not None:
            lines.append(ui("courage: {n}", lang).format(n=res.courage))
        if res.reason is not None:
            lines.append(
                ui("result: cannot be determined from the source", lang) + ": " + self.reason(T.MORALE_COURAGE)
            )
        lines.append(self.cite(res.rules))
        return "\n".join(lines)

    def status(self, res: Any) -> str:
        from havoc.games.advanced_cry_havoc import lookups as L
        from havoc.games.advanced_cry_havoc import tables as T
        from havoc.i18n import ui

        name = self.cell(T.STATUS, res.name)
        if res.status != L.FOUND:
            body = ui("cannot be determined from the source", self.lang) + ": " + self.cell(T.STATUS_OPEN, res.reason)
            return f"{name}: {body}\n{self.cite(res.rules)}"
        lines = [name]
        for heading, cell in res.effects:
            shown = self.cell(T.STATUS, cell) if cell else "—"
            lines.append(f"  {self.cell(T.STATUS, heading)}: {shown}")
        lines.append(self.cite(res.rules))
        return "\n".join(lines)

    def combat(self, res: Any) -> str:
        from havoc.games.advanced_cry_havoc import tables as T
        from havoc.i18n import ui

        lang = self.lang
        lines = [
            ui("column shift in total: {n} (negative: left, positive: right)", lang).format(n=f"{res.shift_total:+d}")
        ]
        lines += self.applied(res.shifts)
        lines.append(ui("die-roll modifier in total: {n}", lang).format(n=f"{res.modifier_total:+d}"))
        lines += self.applied(res.modifiers)
        lines.append(ui("result: cannot be determined from the source", lang) + ": " + self.reason(T.COMBAT_TABLE))
        lines.append(self.cite(res.rules))
        return "\n".join(lines)
