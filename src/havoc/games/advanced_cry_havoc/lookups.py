"""Chart lookups as pure functions: each reads the rule tables and cites the rules it used.

A lookup either gives a result, or refuses with the reason the rules themselves give (a rule's
summary or a cell of the table of open cases): it never fills a gap the source leaves.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem, RulebookError
from havoc.core.record import record
from havoc.games.advanced_cry_havoc import names as N
from havoc.games.advanced_cry_havoc import tables as T
from havoc.games.advanced_cry_havoc.names import Match
from havoc.language.i18n import message_language, ui

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from havoc.engine.rulebook.model import Ruleset, Table

FOUND, OUT_OF_RANGE, NO_BAND, REFUSED = "found", "out-of-range", "no-band", "refused"
NOT_COVERED = "not-covered"  # a number the chart has no line for


@record(frozen=True)
class RangeResult:
    status: str  # found | out-of-range | no-band | refused
    weapon: str  # the weapon's name as printed in the chart (English)
    distance: int
    band: str | None = None  # the band's heading
    power: int | None = None
    ammo: int | None = None  # None: unlimited
    specials: str = ""  # special-rule letters
    reason: str | None = None  # why it is refused (the rules' own words, English)
    rules: tuple[str, ...] = ()


@record(frozen=True)
class RowResult:
    status: str  # found | not-covered
    value: int  # the number looked up (DEF factor or modified roll)
    result: str | None  # the cell read (courage, effect, final condition)
    row: int | None  # the chart row it came from
    reason: str | None = None
    rules: tuple[str, ...] = ()
    applied: tuple[Applied, ...] = ()


@record(frozen=True)
class Applied:
    """One modifier row that was asked for, what it counts for, and why not if it does not."""

    rule: str
    row: int
    label: str
    value: int  # per occurrence
    count: int = 1
    counted: bool = True
    why_not: str | None = None  # "not-cumulative" | "not-animal"


@record(frozen=True)
class CombatResult:
    shifts: tuple[Applied, ...]
    modifiers: tuple[Applied, ...]
    shift_total: int
    modifier_total: int
    status: str = REFUSED  # the combat table itself cannot be read
    reason: str | None = None
    rules: tuple[str, ...] = ()


def as_dict(result: Any) -> dict[str, Any]:
    """A result as plain data, each field by name, the records in it as dicts too (as
    :func:`dataclasses.asdict` gives them; the results are records, so that a short ``havoc
    charts`` never imports dataclasses and inspect)."""
    return {name: _plain(getattr(result, name)) for name in type(result).__record_fields__}


def _plain(value: Any) -> Any:
    if hasattr(type(value), "__record_fields__"):
        return as_dict(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def field_label(name: str) -> str:
    """An argument's name in the language of errors (a reader never meets "distance" in Polish);
    anything else (the words a reader typed, an option such as --mod) as it is."""
    lang = message_language()
    words = {
        "weapon": ui("weapon", lang),
        "distance": ui("distance", lang),
        "roll": ui("roll", lang),
        "status": ui("status", lang),
        "check": ui("check", lang),
        "courage": ui("courage", lang),
    }
    return words.get(name, name)


def field_words(name: str) -> str:
    """A request's field as the reader knows it (the API's ``where``): :func:`field_label`'s
    words and the page's other fields' (the errors' own place names keep their machine words)."""
    lang = message_language()
    words = {
        "chart": ui("chart", lang),
        "name": ui("name", lang),
        "mounted": ui("mounted", lang),
        "situations": ui("situations", lang),
        "target": ui("target", lang),
        "attacker": ui("attacker", lang),
    }
    return words.get(name) or field_label(name)


def _bad(field_name: str, message: str, code: str = Code.FIELD_VALUE) -> InputError:
    """A located input error (the message is already in the language of errors)."""
    return InputError([Problem(field_label(field_name), None, message, code=code)])


def find_row(rs: Ruleset, rule_id: str, name: str, field_name: str) -> int:
    """The row of a chart that ``name`` names by its words (see :mod:`.names`), in any language.

    Nothing named, or two lines named, is a located error listing the lines in the reader's
    language, or in the language the name was typed in when that is another.
    """
    found = _match(rs, rule_id, name, field_name)
    if len(found.rows) == 1:
        return found.rows[0]
    lang = message_language()
    shown = lang if lang in found.langs or not found.langs else found.langs[0]
    listed = ", ".join(_shown(rs, rule_id, i, shown) for i in found.rows)
    raise _bad(field_name, ui("{name!r} is ambiguous; it could be: {rows}", lang).format(name=name, rows=listed))


def name_rows(rs: Ruleset, rule_id: str, name: str, field_name: str) -> tuple[int, ...]:
    """Every row ``name`` may name (one, or several when ambiguous); none is a located error."""
    return _match(rs, rule_id, name, field_name).rows


def _match(rs: Ruleset, rule_id: str, name: str, field_name: str) -> Match:

    lang = message_language()
    if not " ".join(name.split()):
        raise _bad(field_name, ui("expected a name from the chart, found nothing", lang))
    lines = N.spellings(rs, rule_id)
    found = N.match(name, lines)
    if not found.rows:
        listed = ", ".join(_shown(rs, rule_id, i, lang) for i in range(len(lines)))
        raise _bad(
            field_name,
            ui("{name!r} is not in the chart; expected one of: {rows}", lang).format(name=name, rows=listed),
        )
    return found


def _shown(rs: Ruleset, rule_id: str, row: int, lang: str) -> str:
    """A line's name as the reader reads it (the catalog's translation of its first cell)."""
    from havoc.language.i18n import translator

    cell = T.table(rs, rule_id).rows[row][0]
    return translator(lang, rs.id).text(f"{rule_id}:table", cell)


def _summary(rs: Ruleset, rule_id: str) -> str:
    return rs.rules[rule_id].summary or rs.rules[rule_id].title


def range_lookup(rs: Ruleset, weapon: str, distance: int) -> RangeResult:
    """A weapon and a distance in hexes → its band, power and ammunition, or why there is none."""
    if distance < 1:
        raise _bad(
            "distance",
            ui("expected a distance in hexes of at least 1, found {n}", message_language()).format(n=distance),
        )
    weapons, power, open_cases = T.table(rs, T.WEAPONS), T.table(rs, T.POWER), T.table(rs, T.OPEN)
    row = weapons.rows[find_row(rs, T.WEAPONS, weapon, "weapon")]
    name, klass, specials = row[0], row[1], row[2]
    ammo = T.ammo(row[7])
    letters = "" if specials == T.GAP else specials

    def result(status: str, rules: tuple[str, ...], **more: Any) -> RangeResult:
        return RangeResult(status, name, distance, specials=letters, ammo=ammo, rules=rules, **more)

    bands = [
        (heading, T.band(cell))
        for heading, cell in zip(weapons.columns[T.BAND_COLUMNS], row[T.BAND_COLUMNS], strict=True)
    ]
    for heading, b in bands:
        if b is not None and b.holds(distance):
            prow = next(p for p in power.rows if p[0] == klass)
            pw = T.whole(prow[power.columns.index(heading)])
            return result(FOUND, (T.WEAPONS, T.POWER), band=heading, power=pw)
    # No band holds it; one rule for a dash in every row (rule acv-ranged-weapons says it):
    # beyond the last band out of range, before the first no band, between two bands open.
    held = [b for _, b in bands if b is not None]
    if distance > max((b.hi or 0 for b in held), default=0):
        return result(OUT_OF_RANGE, (T.WEAPONS,))
    if distance < min((b.lo or 0 for b in held), default=0):
        return result(NO_BAND, (T.WEAPONS,))
    for case in open_cases.rows:
        if case[0] == name and (b := T.band(case[1])) is not None and b.holds(distance):
            return result(REFUSED, (T.OPEN, T.WEAPONS), reason=case[2])
    raise RulebookError(  # check_rules reports a gap the open cases do not cover; never reached on good rules
        [
            Problem(
                f"rules/{rs.id}", None, f"{T.OPEN}: no open case for {name} at {distance} hexes", code=Code.RULE_TABLE
            )
        ]
    )


@record(frozen=True)
class StatusResult:
    status: str  # found | refused
    name: str  # the status line as printed (English)
    effects: tuple[tuple[str, str], ...] = ()  # (column heading, cell) after the status name
    reason: str | None = None
    rules: tuple[str, ...] = ()


def status(rs: Ruleset, name: str) -> StatusResult:
    """A character status → what it allows and what it becomes; the lines the source leaves
    open (both ENGAGED lines) are refused with the reason the rules give."""
    t, open_cases = T.table(rs, T.STATUS), T.table(rs, T.STATUS_OPEN)
    reasons = {row[0]: row[1] for row in open_cases.rows}
    rows = name_rows(rs, T.STATUS, name, "status")
    labels = [t.rows[i][0] for i in rows]
    if all(label in reasons for label in labels):  # only open lines named (both ENGAGED lines): refused
        return StatusResult(REFUSED, labels[0], reason=reasons[labels[0]], rules=(T.STATUS_OPEN, T.STATUS))
    row = t.rows[find_row(rs, T.STATUS, name, "status")]
    return StatusResult(FOUND, row[0], tuple(zip(t.columns[1:], row[1:], strict=True)), rules=(T.STATUS,))


def _band_row(t: Table, column: int, value: int) -> int | None:
    for i, row in enumerate(t.rows):
        b = T.band(row[column])
        if b is not None and b.holds(value):
            return i
    return None


def courage(rs: Ruleset, def_factor: int, mounted: bool) -> RowResult:
    """A DEF factor (mounted or foot) → courage."""
    if def_factor < 1:
        raise _bad("DEF", ui("expected a DEF factor of at least 1, found {n}", message_language()).format(n=def_factor))
    t = T.table(rs, T.COURAGE)
    i = _band_row(t, 0 if mounted else 1, def_factor)
    if i is None:
        return RowResult(NOT_COVERED, def_factor, None, None, None, (T.COURAGE,))
    return RowResult(FOUND, def_factor, t.rows[i][2], i, None, (T.COURAGE,))


def select(rs: Ruleset, rule_id: str, wanted: Sequence[str]) -> list[tuple[int, int]]:
    """Modifier rows named by the user ("prone", "enemy zoi:2") → (row, count) pairs."""
    t = T.table(rs, rule_id)
    out: list[tuple[int, int]] = []
    for w in wanted:
        label, _, n = w.rpartition(":") if ":" in w else (w, "", "1")
        if not n.isdigit() or int(n) < 1:
            raise _bad(w, ui("expected NAME or NAME:COUNT with a count of at least 1", message_language()))
        i = find_row(rs, rule_id, label, w)
        if int(n) > 1 and not _per(rs, t, i):
            msg = ui("{row!r} counts once; only the lines marked {mark} take a count", message_language())
            raise _bad(w, msg.format(row=_shown(rs, rule_id, i, message_language()), mark=rs.param("per-mark")))
        if any(j == i for j, _ in out):
            raise _bad(
                w,
                ui("{row!r} is named twice; give a count instead (NAME:COUNT)", message_language()).format(
                    row=_shown(rs, rule_id, i, message_language())
                ),
            )
        out.append((i, int(n)))
    return out


def _per(rs: Ruleset, t: Table, i: int) -> bool:
    return len(t.columns) > 2 and t.rows[i][2] == str(rs.param("per-mark"))


def apply(
    rs: Ruleset, rule_id: str, chosen: Sequence[tuple[int, int]], excluded: Mapping[int, str] | None = None
) -> list[Applied]:
    """The chosen rows with the chart's own rules applied: ``excluded`` rows (row → why) do not
    count, and of the ones marked not cumulative only the strongest (the most beneficial) counts."""
    t = T.table(rs, rule_id)
    roles = T.LAYOUT[rule_id]
    value_of = T.shift if roles[1] == "shift" else T.modifier
    nc = str(rs.param("nc-mark"))
    marks = [t.rows[i][2] if len(t.columns) > 2 else "" for i, _ in chosen]
    rows = [Applied(rule_id, i, t.rows[i][0], value_of(t.rows[i][1]), n) for i, n in chosen]
    out: list[Applied] = []
    kept: list[tuple[Applied, str]] = []
    for a, m in zip(rows, marks, strict=True):
        if excluded and a.row in excluded:
            out.append(_drop(a, excluded[a.row]))
        else:
            kept.append((a, m))
    best = max((a for a, m in kept if m == nc), key=lambda a: abs(a.value), default=None)
    for a, m in kept:
        out.append(a if m != nc or a is best else _drop(a, "not-cumulative"))
    return sorted(out, key=lambda a: a.row)


def not_for_animals(rs: Ruleset, rule_id: str) -> dict[int, str]:
    """The shifts that do not count against an animal: in close combat every line not marked
    for animals, in ranged combat the one line the chart names "not animals"."""
    t = T.table(rs, rule_id)
    if rule_id == T.RANGED_SHIFTS:
        name = str(rs.param("not-animals"))
        return {i: "not-animal" for i, row in enumerate(t.rows) if row[0] == name}
    only = str(rs.param("animal-mark"))
    return {i: "not-animal" for i, row in enumerate(t.rows) if row[2] != only}


def _drop(a: Applied, why: str) -> Applied:
    return Applied(a.rule, a.row, a.label, a.value, a.count, False, why)


def total(applied: Sequence[Applied]) -> int:
    return sum(a.value * a.count for a in applied if a.counted)


def roll_lookup(
    rs: Ruleset,
    chart: str,
    mods_rule: str,
    roll: int,
    extra: Sequence[int] = (),
    situations: Sequence[str] = (),
) -> RowResult:
    """A die roll plus modifiers (numbers, or situations named from the chart) → the row it lands on."""
    if roll < 0:
        raise _bad("roll", ui("expected a die roll of 0 or more, found {n}", message_language()).format(n=roll))
    applied = apply(rs, mods_rule, select(rs, mods_rule, situations)) if situations else []
    value = roll + sum(extra) + total(applied)
    t = T.table(rs, chart)
    i = _band_row(t, 0, value)
    rules = (chart, mods_rule)
    if i is None:
        return RowResult(NOT_COVERED, value, None, None, None, rules, tuple(applied))
    return RowResult(FOUND, value, t.rows[i][1], i, None, rules, tuple(applied))


def impairment(
    rs: Ruleset,
    roll: int,
    extra: Sequence[int] = (),
    situations: Sequence[str] = (),
) -> RowResult:
    """A die roll with modifiers → the impairment effect."""
    return roll_lookup(rs, T.IMPAIRMENT, T.IMPAIRMENT_MODS, roll, extra, situations)


def waking(
    rs: Ruleset,
    roll: int,
    extra: Sequence[int] = (),
    situations: Sequence[str] = (),
) -> RowResult:
    """A die roll with modifiers → the final condition of a waking-up check."""
    return roll_lookup(rs, T.WAKING, T.WAKING_MODS, roll, extra, situations)


CHECKS = ("morale", "recovery")


@record(frozen=True)
class ModifierResult:
    applied: tuple[Applied, ...]
    total: int
    rules: tuple[str, ...]
    check: str = "morale"  # morale | recovery
    roll: int | None = None  # the die roll, when given
    modified: int | None = None  # the roll with the modifiers
    courage: int | None = None  # the courage it is checked against, when given
    status: str = FOUND  # found (the modifiers) | refused (a roll against courage: open)
    reason: str | None = None


def morale(
    rs: Ruleset,
    situations: Sequence[str],
    check: str = "morale",
    roll: int | None = None,
    courage: int | None = None,
) -> ModifierResult:
    """The situations of a morale or recovery check → the modifiers that count (the
    recovery-only line only in a recovery check; negatives not cumulative). With a roll, the
    modified roll; its result against courage is refused: the charts never say how it is read."""
    lang = message_language()
    if check not in CHECKS:
        raise _bad("check", ui("expected a morale or a recovery check, found {check!r}", lang).format(check=check))
    if roll is not None and roll < 0:
        raise _bad("roll", ui("expected a die roll of 0 or more, found {n}", lang).format(n=roll))
    if courage is not None and courage < 1:
        raise _bad("courage", ui("expected a courage of at least 1, found {n}", lang).format(n=courage))
    t = T.table(rs, T.MORALE_MODS)
    only = str(rs.param("recovery-only"))
    excluded = {i: "recovery-only" for i, row in enumerate(t.rows) if row[0] == only} if check != "recovery" else {}
    applied = apply(rs, T.MORALE_MODS, select(rs, T.MORALE_MODS, situations), excluded)
    reading = (T.MORALE_READING,) if any(a.why_not == "not-cumulative" for a in applied) else ()
    n = total(applied)
    if roll is None and courage is None:
        return ModifierResult(tuple(applied), n, (T.MORALE_MODS, *reading), check)
    return ModifierResult(
        tuple(applied),
        n,
        (T.MORALE_MODS, *reading, *((T.COURAGE,) if courage is not None else ()), T.MORALE_COURAGE),
        check,
        roll,
        None if roll is None else roll + n,
        courage,
        REFUSED,
        _summary(rs, T.MORALE_COURAGE),
    )


def combat(
    rs: Ruleset,
    target: Sequence[str] = (),
    attacker: Sequence[str] = (),
    animal: bool = False,
    ranged: bool = False,
) -> CombatResult:
    """A described situation → the column shifts and die-roll modifiers that apply, with the
    non-cumulative and animal rules applied; the result itself is refused (the table is unreadable)."""
    shifts_rule, mods_rule = (T.RANGED_SHIFTS, T.RANGED_MODS) if ranged else (T.CC_SHIFTS, T.CC_MODS)
    excluded = not_for_animals(rs, shifts_rule) if animal else {}
    shifts = apply(rs, shifts_rule, select(rs, shifts_rule, target), excluded)
    mods = apply(rs, mods_rule, select(rs, mods_rule, attacker))
    return CombatResult(
        tuple(shifts),
        tuple(mods),
        total(shifts),
        total(mods),
        REFUSED,
        _summary(rs, T.COMBAT_TABLE),
        (shifts_rule, mods_rule, T.COMBAT_TABLE),
    )
