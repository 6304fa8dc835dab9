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
CHECKS = ("morale", "recovery")  # the morale command's choice, as lookups.CHECKS

EPILOG = """\
examples:
  havoc charts range "english longbow" 45
  havoc charts courage 12 --foot
  havoc charts impairment 7 --mod=+1 --if armored
  havoc charts waking 5 --if aid --if "enemy exerting:2"
  havoc charts morale morale --if banner --if leader
  havoc charts morale recovery --if "enemy zoi" --roll 6 --courage 5
  havoc charts status scared
  havoc charts combat --target prone --target "side hex" --attacker "zoi of an enemy:2"
  havoc charts combat --ranged --target stunned --attacker wounded --json

A situation (--if, --target, --attacker) is a line of the chart, named by a word or a part of
it (English, or Polish with --lang pl); NAME:COUNT counts a line once per enemy where the chart
says so. A negative --mod is written --mod=-1.
Exit status: 0 answered (a refusal is an answer), 1 the rules are broken, 2 bad input.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from havoc.i18n import LANGUAGES

    p = sub.add_parser(
        "charts",
        help="look up the Advanced Cry Havoc 2 charts (range, courage, impairment, waking up, combat)",
        description="Look up the Advanced Cry Havoc 2 charts; every answer cites the rules it read.",
        epilog=EOFMARK,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the answer (default: %(default)s)")
    common.add_argument("--json", action="store_true", help="print the answer as JSON")
    common.add_argument("--ruleset", default=RULESET, help="the charts' ruleset (default: %(default)s)")
    charts = p.add_subparsers(dest="chart", metavar="CHART")
    charts.required = True
    r = charts.add_parser("range", parents=[common], help="a weapon and a distance in hexes: band, power, ammunition")
    r.add_argument("weapon", help="the weapon (a name or a part of it)")
    r.add_argument("distance", type=int, help="the distance in hexes")
    c = charts.add_parser("courage", parents=[common], help="a DEF factor: courage")
    c.add_argument("def_factor", type=int, metavar="DEF", help="the DEF factor")
    side = c.add_mutually_exclusive_group(required=True)
    side.add_argument("--mounted", action="store_true", help="a mounted character")
    side.add_argument("--foot", action="store_true", help="a foot character")
    for name, what in (("impairment", "impairment effect"), ("waking", "waking-up result")):
        w = charts.add_parser(name, parents=[common], help=f"a die roll with modifiers: the {what}")
        w.add_argument("roll", type=int, help="the die roll, before modifiers")
        w.add_argument("--mod", type=int, action="append", default=[], help="a modifier to add (repeat; --mod=-1)")
        w.add_argument("--if", dest="situations", action="append", default=[], help="a modifier line of the chart")
    m = charts.add_parser("morale", parents=[common], help="the situations of a morale or recovery check: modifiers")
    m.add_argument("check", choices=CHECKS, help="a morale check, or a recovery check (in the Cleanup phase)")
    m.add_argument("--if", dest="situations", action="append", default=[], help="a modifier line of the chart")
    m.add_argument("--roll", type=int, help="the die roll, to add the modifiers to")
    m.add_argument("--courage", type=int, help="the character's courage (see: havoc charts courage)")
    st = charts.add_parser("status", parents=[common], help="a character status: what it allows and becomes")
    st.add_argument("name", help="the status (a name or a part of it)")
    k = charts.add_parser(
        "combat", parents=[common], help="a described situation: column shifts and die-roll modifiers"
    )
    k.add_argument("--target", action="append", default=[], help="a column-shift line (the target's situation)")
    k.add_argument(
        "--attacker", action="append", default=[], help="a die-roll modifier line (the attacker's or shooter's)"
    )
    k.add_argument("--animal", action="store_true", help="the target is an animal (or a mount)")
    k.add_argument("--ranged", action="store_true", help="ranged combat (the shooter's charts)")
    p.set_defaults(func=run)


EOFMARK = EPILOG


def run(args: argparse.Namespace) -> int:
    from havoc import rulebook
    from havoc.games.advanced_cry_havoc import lookups as L
    from havoc.games.advanced_cry_havoc import tables as T
    from havoc.i18n import translator

    rs = rulebook.load(args.ruleset)
    tr = translator(args.lang, rs.id)
    view = _View(rs, tr)
    result: Any
    if args.chart == "range":
        result = L.range_lookup(rs, args.weapon, args.distance)
        text = view.range(result)
    elif args.chart == "courage":
        result = L.courage(rs, args.def_factor, args.mounted)
        text = view.courage(result, args.mounted)
    elif args.chart in ("impairment", "waking"):
        fn, chart = (L.impairment, T.IMPAIRMENT) if args.chart == "impairment" else (L.waking, T.WAKING)
        result = fn(rs, args.roll, args.mod, args.situations)
        text = view.row(result, chart, 1)
    elif args.chart == "status":
        result = L.status(rs, args.name)
        text = view.status(result)
    elif args.chart == "morale":
        result = L.morale(rs, args.situations, args.check, args.roll, args.courage)
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
