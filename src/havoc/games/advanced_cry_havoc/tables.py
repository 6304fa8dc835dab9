"""Reading the charts: how each rule table's cells are parsed, and the check that they all do.

The numbers are the cells of the rule tables in ``rules/advanced-cry-havoc``; this module only
knows the *shape* of each chart (which column holds what), never a value.
"""

from __future__ import annotations

import re

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, Problem, RulebookError

if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from havoc.core.tuples import NamedTuple

if TYPE_CHECKING:
    from havoc.engine.rulebook.model import Ruleset, Table


class Band(NamedTuple):
    """A span of whole numbers as a chart prints it; ``None`` is open on that side."""

    lo: int | None
    hi: int | None

    def holds(self, n: int) -> bool:
        return (self.lo is None or n >= self.lo) and (self.hi is None or n <= self.hi)


GAP = "-"  # a cell printed as a dash: nothing there
UNLIMITED = "∞"

_ONE = re.compile(r"^(\d+)$")
_SPAN = re.compile(r"^(\d+)-(\d+)$")
_OPEN_UP = re.compile(r"^(\d+) or more$")  # 004 prints "13 & +"
_OPEN_DOWN = re.compile(r"^(\d+) or less$")  # 004 prints "4 or -"
_MOD = re.compile(r"^[+-]\d+$")
_SHIFT = re.compile(r"^(\d+) (Left|Right)$")


def band(cell: str) -> Band | None:
    """A band cell ("5-40", "3", "13 or more", "4 or less"); ``None`` for a dash (no band)."""
    if cell == GAP:
        return None
    if m := _ONE.match(cell):
        return Band(int(m[1]), int(m[1]))
    if m := _SPAN.match(cell):
        lo, hi = int(m[1]), int(m[2])
        if lo > hi:
            raise ValueError(f"band {cell!r} runs backwards")
        return Band(lo, hi)
    if m := _OPEN_UP.match(cell):
        return Band(int(m[1]), None)
    if m := _OPEN_DOWN.match(cell):
        return Band(None, int(m[1]))
    raise ValueError(f"expected a band (3, 5-40, 13 or more, 4 or less) or {GAP}, found {cell!r}")


def whole(cell: str) -> int:
    if not _ONE.match(cell):
        raise ValueError(f"expected a whole number, found {cell!r}")
    return int(cell)


def ammo(cell: str) -> int | None:
    """Shots carried; ``None`` is unlimited (∞)."""
    return None if cell == UNLIMITED else whole(cell)


def modifier(cell: str) -> int:
    if not _MOD.match(cell):
        raise ValueError(f"expected a signed modifier (+1, -2), found {cell!r}")
    return int(cell)


def shift(cell: str) -> int:
    """Columns to shift: left is negative, right positive ("2 Left" → -2)."""
    m = _SHIFT.match(cell)
    if not m:
        raise ValueError(f"expected a column shift (2 Left, 1 Right), found {cell!r}")
    return int(m[1]) * (-1 if m[2] == "Left" else 1)


def _text(cell: str) -> str:
    return cell


def _mark(cell: str) -> str:
    return cell


_PARSERS = {"band": band, "int": whole, "ammo": ammo, "mod": modifier, "shift": shift, "text": _text, "mark": _mark}

# The shape of each chart the lookups read: one role per column.
WEAPONS, POWER, OPEN = "acv-ranged-weapons", "acv-ranged-power", "acv-ranged-undetermined"
COURAGE = "acv-courage"
IMPAIRMENT, IMPAIRMENT_MODS = "acv-impairment", "acv-impairment-modifiers"
WAKING, WAKING_MODS = "acv-waking-up", "acv-waking-up-modifiers"
MORALE_MODS, MORALE_READING = "acv-morale-modifiers", "acv-morale-not-cumulative"
MORALE_COURAGE = "acv-morale-against-courage"
CC_SHIFTS, CC_MODS, COMBAT_TABLE = "acv-close-combat-shifts", "acv-close-combat-modifiers", "acv-combat-table"
RANGED_SHIFTS, RANGED_MODS = "acv-ranged-shifts", "acv-ranged-modifiers"
STATUS, STATUS_OPEN = "acv-status-effects", "acv-status-undetermined"
MARKS, SPECIALS = "acv-chart-marks", "acv-weapon-special-rules"
# The parameters whose values are marks printed in the charts (the legend must explain each).
MARK_PARAMS = ("animal-mark", "nc-mark", "per-mark", "stun-mark", "unhorse-mark")
BAND_COLUMNS = slice(3, 7)  # the four range bands of the weapons chart

LAYOUT: dict[str, tuple[str, ...]] = {
    WEAPONS: ("text", "text", "mark", "band", "band", "band", "band", "ammo"),
    POWER: ("text", "int", "int", "int", "int"),
    OPEN: ("text", "band", "text"),
    COURAGE: ("band", "band", "int"),
    IMPAIRMENT: ("band", "text"),
    IMPAIRMENT_MODS: ("text", "mod"),
    WAKING: ("band", "text"),
    WAKING_MODS: ("text", "mod", "mark"),
    MORALE_MODS: ("text", "mod", "mark"),
    CC_SHIFTS: ("text", "shift", "mark"),
    CC_MODS: ("text", "mod", "mark"),
    RANGED_SHIFTS: ("text", "shift"),
    RANGED_MODS: ("text", "mod"),
    STATUS: ("text",) * 9,
    STATUS_OPEN: ("text", "text"),
}


def table(rs: Ruleset, rule_id: str) -> Table:
    """The chart of a rule; a located error when the ruleset lacks it or it has the wrong shape."""
    where = f"rules/{rs.id}"
    rule = rs.rules.get(rule_id)
    if rule is None or rule.table is None:
        raise RulebookError(
            [Problem(where, None, f"rule {rule_id!r}: expected a rule with a table (a chart)", code=Code.RULE_TABLE)]
        )
    return rule.table


def check_rules(rs: Ruleset) -> list[Problem]:
    """Every chart the lookups read exists, has its columns, and every cell parses."""
    problems: list[Problem] = []
    for rule_id, roles in LAYOUT.items():
        try:
            t = table(rs, rule_id)
        except RulebookError as exc:
            problems += exc.problems
            continue
        where = t.loc.file
        if len(t.columns) != len(roles):
            problems.append(
                Problem(
                    where,
                    t.loc.line,
                    f"{rule_id}.table: expected {len(roles)} columns, found {len(t.columns)}",
                    code=Code.RULE_TABLE,
                )
            )
            continue
        for r, row in enumerate(t.rows):
            for c, (cell, role) in enumerate(zip(row, roles, strict=True)):
                try:
                    _PARSERS[role](cell)
                except ValueError as exc:
                    problems.append(
                        Problem(where, t.loc.line, f"{rule_id}.table.rows[{r}][{c}]: {exc}", code=Code.RULE_TABLE)
                    )
    problems += _check_links(rs)
    problems += _check_named_rows(rs)
    problems += _check_legend(rs)
    return problems


def _check_legend(rs: Ruleset) -> list[Problem]:
    """The legend of marks explains every mark the charts print, and only those."""
    try:
        legend, specials = table(rs, MARKS), table(rs, SPECIALS)
    except RulebookError as exc:
        return exc.problems
    listed = {m.strip() for row in legend.rows for m in row[0].split(",")}
    wanted = {str(rs.param(p)) for p in MARK_PARAMS} | {row[0] for row in specials.rows} | {GAP}
    out = []
    for mark in sorted(wanted - listed):
        out.append(
            Problem(
                legend.loc.file,
                legend.loc.line,
                f"{MARKS}: expected a line for the mark {mark!r}",
                code=Code.RULE_TABLE,
            )
        )
    for mark in sorted(listed - wanted):
        out.append(
            Problem(
                legend.loc.file, legend.loc.line, f"{MARKS}: {mark!r} is no mark the charts print", code=Code.RULE_TABLE
            )
        )
    return out


# Parameters that name a line of a chart (the lookups find the line by this name).
NAMED_ROWS = {"recovery-only": MORALE_MODS, "not-animals": RANGED_SHIFTS}


def _check_named_rows(rs: Ruleset) -> list[Problem]:
    """A parameter that names a chart line names one that is there."""
    out: list[Problem] = []
    for param, rule_id in NAMED_ROWS.items():
        rule = rs.rules.get(rule_id)
        if rule is None or rule.table is None:
            continue  # reported by check_rules
        pdef = rule.params.get(param)
        if pdef is None or pdef.value not in {row[0] for row in rule.table.rows}:
            found = "nothing" if pdef is None else repr(pdef.value)
            out.append(
                Problem(
                    rule.loc.file,
                    rule.loc.line,
                    f"{rule_id}.params.{param}: expected a line of its chart, found {found}",
                    code=Code.RULE_TABLE,
                )
            )
    return out


def _check_links(rs: Ruleset) -> list[Problem]:
    """The weapons chart and the power chart agree: same band headings, every class known."""
    try:
        weapons, power = table(rs, WEAPONS), table(rs, POWER)
    except RulebookError:
        return []
    out: list[Problem] = []
    if weapons.columns[BAND_COLUMNS] != power.columns[1:]:
        out.append(
            Problem(
                weapons.loc.file,
                weapons.loc.line,
                f"{WEAPONS}: band headings differ from {POWER}'s",
                code=Code.RULE_TABLE,
            )
        )
    out += _check_gaps(rs, weapons)
    classes = {row[0] for row in power.rows}
    for i, row in enumerate(weapons.rows):
        if row[1] not in classes:
            out.append(
                Problem(
                    weapons.loc.file,
                    weapons.loc.line,
                    f"{WEAPONS}.table.rows[{i}]: unknown power class {row[1]!r}",
                    code=Code.RULE_TABLE,
                )
            )
    return out


def gaps(row: tuple[str, ...]) -> list[int]:
    """The distances between a weapon's first and last band that no band holds (the open ones)."""
    held = [b for b in (band(c) for c in row[BAND_COLUMNS]) if b is not None]
    if not held:
        return []
    lo = min(b.lo or 1 for b in held)
    hi = max(b.hi or lo for b in held)
    return [d for d in range(lo, hi + 1) if not any(b.holds(d) for b in held)]


def _check_gaps(rs: Ruleset, weapons: Table) -> list[Problem]:
    """Every distance between two bands of a weapon is an open case, and every open case is one."""
    try:
        open_cases = table(rs, OPEN)
    except RulebookError as exc:
        return exc.problems
    out: list[Problem] = []
    try:
        listed = {
            (case[0], d) for case in open_cases.rows if (b := band(case[1])) for d in range(b.lo or 1, (b.hi or 0) + 1)
        }
        wanted = {(row[0], d) for row in weapons.rows for d in gaps(row)}
    except ValueError:
        return out  # a bad cell, reported by check_rules
    for name, d in sorted(wanted - listed):
        out.append(
            Problem(
                open_cases.loc.file,
                open_cases.loc.line,
                f"{OPEN}: {name} has no band at {d} hexes between two bands; expected an open case",
                code=Code.RULE_TABLE,
            )
        )
    for name, d in sorted(listed - wanted):
        out.append(
            Problem(
                open_cases.loc.file,
                open_cases.loc.line,
                f"{OPEN}: {name} at {d} hexes is not between two of its bands",
                code=Code.RULE_TABLE,
            )
        )
    return out
