"""One chart lookup from a request to its JSON answer: what ``havoc charts --json`` prints and
what the site's in-browser engine returns (``POST /api/charts`` of :mod:`havoc.assistant.webapi`).

The command line and the page build the same request (the chart and its fields, as the reader
typed them) and get the same answer from :func:`lookup`: the structured result of
:mod:`.lookups` with the answer's words (``text``) in the asked language. Bad input is an
:class:`~havoc.core.errors.InputError` located at its field, in the language of errors.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from havoc.engine.rulebook.model import Ruleset
    from havoc.games.advanced_cry_havoc.lookups import Applied
    from havoc.language.i18n import Translator

CHARTS = ("range", "courage", "impairment", "waking", "morale", "status", "combat")

# The words a reader types for the choice of the morale command, in any language.
CHECK_WORDS = {"morale": "morale", "recovery": "recovery", "odzyskanie": "recovery", "odzyskania": "recovery"}

# Each chart's fields: name -> kind ("text", "number", "signed", "flag", "list").
FIELDS: dict[str, dict[str, str]] = {
    "range": {"weapon": "text", "distance": "number"},
    "courage": {"def": "number", "mounted": "flag"},
    "impairment": {"roll": "signed", "mods": "list", "situations": "list"},
    "waking": {"roll": "signed", "mods": "list", "situations": "list"},
    "morale": {"check": "text", "situations": "list", "roll": "signed", "courage": "number"},
    "status": {"name": "text"},
    "combat": {"target": "list", "attacker": "list", "animal": "flag", "ranged": "flag"},
}
OPTIONAL = {("morale", "roll"), ("morale", "courage")}  # other text and number fields are required
MOST_LINES = 32
"""Chart lines a list field may name (situations, modifiers, targets): more than twice the
longest chart's (the combat table's 13); each named line is looked up, so a longer list is
refused before any is."""
# The field names errors show (the command line's own words for them).
SHOWN = {"def": "DEF", "mods": "--mod", "courage": "--courage"}


def number(text: str | None, field: str, signed: bool = False) -> int | None:
    """A whole number the reader typed; anything else is a located error (exit 2), never argparse's."""
    from havoc.core.errors import Code, InputError, Problem
    from havoc.language.i18n import message_language, ui

    if text is None:
        return None
    t = text.strip()
    # a negative number is a number, for every field: the field's own check says it is too small
    # ("a distance in hexes of at least 1, found -45"), never "not a whole number"
    body = t[1:] if t[:1] == "-" or (signed and t[:1] == "+") else t
    if not body.isdigit():
        from havoc.games.advanced_cry_havoc.lookups import field_label

        msg = ui("expected a whole number, found {text!r}", message_language()).format(text=text)
        raise InputError([Problem(field_label(field), None, msg, code=Code.FIELD_TYPE)])
    return int(t)


def whole(text: str, field: str, signed: bool = False) -> int:
    n = number(text, field, signed)
    assert n is not None
    return n


def _fields(chart: str, request: Mapping[str, Any]) -> dict[str, Any]:
    """The request's fields checked for their kind (a page may send numbers as numbers)."""
    from havoc.core.errors import Code, InputError, Problem
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    kinds = FIELDS[chart]
    problems = []
    out: dict[str, Any] = {}
    for name, value in request.items():
        kind = kinds.get(name)
        if kind is None:
            msg = ui("unknown field; expected one of {choices}", lang).format(choices=", ".join(kinds))
            problems.append(Problem(name, None, msg, code=Code.FIELD_UNKNOWN))
        elif kind == "flag":
            if not isinstance(value, bool):
                problems.append(Problem(name, None, ui("expected yes or no", lang), code=Code.FIELD_TYPE))
            out[name] = value is True
        elif kind == "list":
            if isinstance(value, list) and len(value) > MOST_LINES:
                from havoc.formats.spec import too_long

                problems.append(
                    Problem(SHOWN.get(name, name), None, too_long(MOST_LINES, len(value)), code=Code.FIELD_TOO_MANY)
                )
                value = []
            elif not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
                problems.append(Problem(name, None, ui("expected a list of chart lines", lang), code=Code.FIELD_TYPE))
                value = []
            out[name] = [str(v) for v in value]
        elif value is not None:
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                problems.append(
                    Problem(SHOWN.get(name, name), None, ui("expected text or a number", lang), code=Code.FIELD_TYPE)
                )
            out[name] = str(value)
    for name, kind in kinds.items():
        if name not in out:
            if kind not in ("flag", "list") and (chart, name) not in OPTIONAL:
                problems.append(
                    Problem(
                        SHOWN.get(name, name), None, ui("expected a value (required)", lang), code=Code.FIELD_MISSING
                    )
                )
            out[name] = False if kind == "flag" else [] if kind == "list" else None
    if problems:
        raise InputError(problems)
    return out


def lookup(rs: Ruleset, request: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """``{"chart": …, fields…}`` → the answer as ``havoc charts … --json`` prints it; a refused
    request's problems each name their field in the reader's words too (the API's ``where``)."""
    from havoc.core.errors import InputError
    from havoc.games.advanced_cry_havoc.lookups import field_words

    try:
        return _lookup(rs, request, lang)
    except InputError as exc:
        raise InputError([p._replace(where=field_words(p.file)) for p in exc.problems]) from None


def _lookup(rs: Ruleset, request: Mapping[str, Any], lang: str) -> dict[str, Any]:
    from havoc.core.errors import Code, InputError, Problem
    from havoc.games.advanced_cry_havoc import lookups as L
    from havoc.games.advanced_cry_havoc import tables as T
    from havoc.language.i18n import message_language, translator, ui

    chart = request.get("chart")
    if chart not in CHARTS:
        msg = ui("expected one of {choices}", message_language()).format(choices=", ".join(CHARTS))
        raise InputError([Problem("chart", None, msg, code=Code.FIELD_VALUE)])
    f = _fields(str(chart), {k: v for k, v in request.items() if k != "chart"})
    view = View(rs, translator(lang, rs.id))
    result: Any
    if chart == "range":
        result = L.range_lookup(rs, f["weapon"], whole(f["distance"], "distance"))
        text = view.range(result)
    elif chart == "courage":
        result = L.courage(rs, whole(f["def"], "DEF"), f["mounted"])
        text = view.courage(result, f["mounted"])
    elif chart in ("impairment", "waking"):
        fn, rule = (L.impairment, T.IMPAIRMENT) if chart == "impairment" else (L.waking, T.WAKING)
        mods = [whole(m, "--mod", signed=True) for m in f["mods"]]
        result = fn(rs, whole(f["roll"], "roll", signed=True), mods, f["situations"])
        text = view.row(result, rule, 1)
    elif chart == "status":
        result = L.status(rs, f["name"])
        text = view.status(result)
    elif chart == "morale":
        check = CHECK_WORDS.get(f["check"].strip().lower())
        if check is None:
            msg = ui("expected a morale or a recovery check, found {check!r}", message_language())
            raise InputError(
                [Problem(L.field_label("check"), None, msg.format(check=f["check"]), code=Code.FIELD_VALUE)]
            )
        roll, courage = number(f["roll"], "--roll", signed=True), number(f["courage"], "--courage")
        result = L.morale(rs, f["situations"], check, roll, courage)
        text = view.morale(result)
    else:
        result = L.combat(rs, f["target"], f["attacker"], f["animal"], f["ranged"])
        text = view.combat(result)
    out = {"chart": chart, "lang": lang, **L.as_dict(result), "text": text}
    if out.get("reason") and lang != "en":  # the rules' own words for a refusal, in the asked language
        out["reason"] = view.refusal(str(chart), result)
    return out


class View:
    """The words of an answer in one language: chart cells and rule titles through the catalog."""

    def __init__(self, rs: Ruleset, tr: Translator) -> None:
        self.rs, self.tr, self.lang = rs, tr, tr.lang

    def cell(self, rule_id: str, cell: str) -> str:
        return self.tr.text(f"{rule_id}:table", cell)

    def cite(self, rules: Sequence[str]) -> str:
        from havoc.language.i18n import ui

        # Titles only: a reader never sees a machine name (the IDs are in the --json answer).
        titles = "; ".join(self.tr.text(f"{r}:title", self.rs.rules[r].title) for r in rules)
        word = ui("rules", self.lang)
        return f"  {word}: {titles}"

    def refusal(self, chart: str, res: Any) -> str:
        """Why a lookup is refused, as its text says it (the JSON's ``reason``)."""
        from havoc.games.advanced_cry_havoc import tables as T

        if chart == "range":
            return self.cell(T.OPEN, res.reason)
        if chart == "status":
            return self.cell(T.STATUS_OPEN, res.reason)
        if chart == "morale":
            return self.reason(T.MORALE_COURAGE)
        if chart == "combat":
            return self.reason(T.COMBAT_TABLE)
        return str(res.reason)

    def reason(self, rule_id: str) -> str:
        rule = self.rs.rules[rule_id]
        return self.tr.text(f"{rule_id}:summary", rule.summary or rule.title)

    def range(self, res: Any) -> str:
        from havoc.games.advanced_cry_havoc import lookups as L
        from havoc.games.advanced_cry_havoc import tables as T
        from havoc.language.i18n import nui, ui

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
                body += "; " + ui("special rules", lang) + ": " + self.specials(res.specials)
        elif res.status == L.OUT_OF_RANGE:
            body = ui("out of range (beyond the long band)", lang)
        elif res.status == L.NO_BAND:
            body = ui("no band: the chart gives this weapon none at this distance", lang)
        else:
            body = ui("cannot be determined from the source", lang) + ": " + self.cell(T.OPEN, res.reason)
        return f"{head}: {body}\n{self.cite(res.rules)}"

    def specials(self, letters: str) -> str:
        """A weapon's special-rule letters, each with its meaning from the special rules chart.

        "FSN" alone means nothing to a reader who has not the chart at hand: each letter is
        followed by what it stands for ("F (flat trajectory weapon), S (slow weapon), …").
        """
        from havoc.games.advanced_cry_havoc import tables as T

        meanings = {row[0]: row[1] for row in T.table(self.rs, T.SPECIALS).rows}
        out = []
        for letter in letters:
            meaning = self.cell(T.SPECIALS, meanings[letter]) if letter in meanings else ""
            if meaning[1:2].islower():  # a sentence-case phrase reads on in lower case
                meaning = meaning[0].lower() + meaning[1:]
            out.append(f"{letter} ({meaning})" if meaning else letter)
        return ", ".join(out)

    def courage(self, res: Any, mounted: bool) -> str:
        from havoc.games.advanced_cry_havoc import lookups as L
        from havoc.language.i18n import ui

        side = ui("mounted", self.lang) if mounted else ui("foot", self.lang)
        if res.status != L.FOUND:
            return self.row(res, "", 0)
        head = ui("DEF {n} ({side}): courage {courage}", self.lang).format(n=res.value, side=side, courage=res.result)
        return f"{head}\n{self.cite(res.rules)}"

    def row(self, res: Any, chart: str, column: int) -> str:
        from havoc.games.advanced_cry_havoc import lookups as L
        from havoc.language.i18n import ui

        lines = self.applied(res.applied)
        if res.status == L.FOUND:
            head = ui("{n}: {result}", self.lang).format(n=res.value, result=self.cell(chart, res.result))
        else:
            head = ui("{n}: the chart has no line for this number", self.lang).format(n=res.value)
        return "\n".join([head, *lines, self.cite(res.rules)])

    def applied(self, applied: Sequence[Applied]) -> list[str]:
        from havoc.language.i18n import ui

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
        from havoc.language.i18n import ui

        head = ui("modifier in total: {n}", self.lang).format(n=f"{total:+d}")
        return "\n".join([head, *self.applied(applied), self.cite(rules)])

    def morale(self, res: Any) -> str:
        from havoc.games.advanced_cry_havoc import tables as T
        from havoc.language.i18n import ui

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
        from havoc.language.i18n import ui

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
        from havoc.language.i18n import ui

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
