"""Reading a table into a :class:`~havoc.games.cry_havoc.position.Position`: the validation against
the field table, the names players say read as the IDs they name (:class:`_Names`), and the checks
of what the field table cannot say (a Battle's tokens, the units a faction has, the Reserve).

Kept apart from :mod:`.position`, which holds the records and the field table: a table read from
the cache (nearly every question a player asks) never loads this module (start-up time).
"""

from __future__ import annotations

# Line-aware mappings and lists from havoc.formats.yamlio are recognised by their line bookkeeping.
from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.formats.spec import (
    _BAD,
    Invalid,
    Names,
    Reader,
    _is_id_quick,
    _is_ldict,
    _is_llist,
    _ml,
    by_ids,
    suggest,
)
from havoc.games.cry_havoc.contract import (
    FACTIONS,
    P_ACTIONS_PER_ROUND,
    P_BATTLE_TOKENS,
    P_MAX_ROUNDS,
    P_SCORE_TRACK,
    P_TROG_UNITS,
    P_UNITS,
    STEPS,
    TROGS,
)
from havoc.games.cry_havoc.position import (
    MAX_REGIONS,
    TOP,
    Battle,
    FactionState,
    Position,
    Region,
    Structure,
    _faction,
    _param_int,
)
from havoc.language.i18n import ui
from havoc.language.markup import is_id

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from havoc.engine.rulebook.model import Ruleset


def parse(data: Any, rs: Ruleset | None = None, name: str = "position") -> Position:
    """Validate position data (plain or line-aware) into a :class:`Position`, or raise InputError."""
    r = Reader(name)
    names: _Names | None = None
    variant_typed = None  # the variant as written, when it was read as an ID
    try:
        d = TOP.quick()(data)  # a table written in IDs (nearly all) is read in one pass
    except Invalid:
        line = data.line if _is_ldict(data) or _is_llist(data) else None
        if not r.bounded(data, TOP, "", line):  # a list past its limit: nothing in it is read
            raise InputError(_worded(r.problems, data)) from None
        names = _Names(data, r)
        typed = data.get("variant") if isinstance(data, dict) else None
        data = _variant_by_name(data, rs)  # "variant: Solo", "Wariant solo"
        if isinstance(data, dict) and typed != data.get("variant"):
            variant_typed = typed
        data = by_ids(data, TOP, names, line=line)  # "Mgielnia:", "Ludzie" as the IDs they name
        d = r.read(data, TOP, "", line)
    if d is _BAD or r.problems:
        problems = names.located(r.problems) if names else r.problems
        raise InputError(_worded(problems, data) or [Problem(name, None, "expected a mapping", code=Code.FIELD_TYPE)])

    def line_of(*keys: str) -> int | None:
        node: Any = data
        line: int | None = getattr(data, "line", None)
        for key in keys:
            if _is_ldict(node) and key in node:
                line = node.line_of(key)
                node = node[key]
            elif _is_llist(node) and key.isdigit() and int(key) < len(node):
                line = node.item_lines[int(key)]
                node = node[int(key)]
            else:
                break
        return line

    pos = _build(d, name)
    _check(pos, d, rs, r, line_of, variant_typed)
    if r.problems:
        raise InputError(_worded(names.located(r.problems) if names else r.problems, data))
    return pos


def load(path: str | Path, rs: Ruleset | None = None) -> Position:
    """Read and validate a position file (YAML or JSON)."""
    from pathlib import Path

    from havoc.formats.yamlio import YamlError, load_file

    p = Path(path)
    try:
        data = load_file(p, str(path))
    except YamlError as exc:
        raise InputError([exc.problem]) from None
    return parse(data, rs, str(path))


def parse_text(text: str, rs: Ruleset | None = None, name: str = "position") -> Position:
    """Read and validate position text (YAML or JSON)."""
    from havoc.formats.yamlio import MOST_VALUES, YamlError, loads

    try:
        data = loads(text, name, lines=False, most=MOST_VALUES)
    except YamlError as exc:
        raise InputError([exc.problem]) from None
    try:
        return parse(data, rs, name)
    except InputError:
        # A position with problems is read again, keeping lines, only to say where they are.
        return parse(loads(text, name), rs, name)


def _worded(problems: list[Problem], data: Any) -> list[Problem]:
    """The problems, each field said in the reader's words too (``Problem.where``)."""
    from havoc.games.cry_havoc.places import region_keys, where, worded

    keys = region_keys(data, MAX_REGIONS)
    return worded(problems, lambda path, lang: where(path, TOP, lang, keys))


_LISTED_MOST = 12  # names an error lists at most (a table may hold many Regions: errors stay short)
_NEAR_MOST = 4  # problems in which a near name is suggested (each costs a difflib search, ~1 ms among 64 names)


class _Names(Names):
    """How a table's names are read as IDs: the Regions by the table's own keys and the names
    known from the rulebook, the other things by their names (``ui.vocabulary``), all folded
    (no case, no diacritics). A text in lowercase-kebab-case is an ID: a Region key
    ``mgielnia`` is a Region of the player's own, ``Mgielnia`` is foglands, ``Północ`` the
    player's own ``polnoc``."""

    def __init__(self, data: Any, r: Reader) -> None:
        self.r = r
        self.said: set[str] = set()  # the places (as typed) whose problem is said here, not by the Reader
        self.typed: dict[str, str] = {}  # a key's place by IDs -> the key as typed
        self.mine: set[int] = set()  # the problems said here (their places are as typed)
        regions: Any = data.get("regions") if isinstance(data, dict) else None
        self.id_keys: set[str] = set()
        self.keys: dict[str, str | None] = {}  # the table's Region keys as typed -> their IDs (None: unread)
        self.region_lines: dict[str, int | None] = {}
        self._listed: dict[tuple[str, str], tuple[str, list[str]]] = {}  # what an error lists, made once
        if isinstance(regions, dict):
            lines: Any = regions if _is_ldict(regions) else None
            for key in regions:
                if isinstance(key, str):
                    self.region_lines[key] = lines.line_of(key) if lines is not None else None
                    self.keys[key] = key if is_id(key) else None
            self.id_keys = {key for key, rid in self.keys.items() if rid is not None}
            for key in list(self.keys):
                if self.keys[key] is None:
                    self.keys[key] = self._region_key(key)
        self.listed = {rid for rid in self.keys.values() if rid is not None}  # the table's Regions
        self.folded: dict[str, list[str]] = {}  # the keys folded -> the IDs they were read as
        for key, rid in self.keys.items():
            if rid is not None and rid not in self.folded.setdefault(_fold(key), []):
                self.folded[_fold(key)].append(rid)

    def name(self, vocabulary: str, text: str, path: str, line: int | None, choices: tuple[str, ...]) -> str:
        if self.r.full:  # the problems to list are found: no more names are looked up (or suggested)
            return text
        if vocabulary == "regions":
            return self._region(text, path, line)
        if not choices and is_id(text):
            return text  # an ID of one's own (a Structure, a Skill), as a Region key is
        found = self._lookup(vocabulary, text)
        if len(found) == 1:
            return found[0]
        self._unread(vocabulary, text, path, line, found)  # ("akcji", "pilgrms" too: named choices listed)
        return text

    def _region_key(self, text: str) -> str | None:
        """A Region key written as a name: the known Region it names, else a Region of the
        player's own by the name folded, as the Ask page's form reads a name ("Północ": polnoc);
        a name that is also another key's ID may be either."""
        folded = _fold(text)
        found = list(self._lookup("regions", text))
        if folded in self.id_keys and folded not in found:  # "Mgielnia" beside a key mgielnia
            found.append(folded)
        if len(found) == 1:
            return found[0]
        if not found and folded:
            return folded
        self._unread("regions", text, f"regions.{text}", self.region_lines.get(text), tuple(found))
        return None

    def _region(self, text: str, path: str, line: int | None) -> str:
        """A Region key, or a Region named in a Region's neighbours or a faction's Regions: a key
        of the table (as typed, or folded: "pogorzelisko" for a key "Pogorzelisko"), else a
        Region known by that name."""
        if text in self.keys:
            found = self.keys[text]
            if found is None:
                self.said.add(path)  # the key itself is said to be unknown
                return text
            return found
        ident = _is_id_quick(text)  # (a neighbour's ID recurs: a set lookup, not a walk of its letters)
        folded = text if ident else _fold(text)  # (an ID folds to itself)
        ids = list(self.folded.get(folded, ()))
        ids += [i for i in self._lookup("regions", text, folded) if i not in ids]
        if len(ids) == 1 and (ids[0] in self.listed or ident):
            return ids[0]  # (an ID not listed is said to be unknown by the table's checks)
        if len(ids) == 1:  # a Region known by this name, not on this table: said as it was typed
            _, names = self._listing("regions", "table", _ml())
            near = suggest(text, names) if len(self.mine) < _NEAR_MOST else ""
            self._say(line, path, _unknown_region(text) + near)
            return text
        if not ids and ident:
            return text  # a Region not listed: the table's checks say so
        self._unread("regions", text, path, line, tuple(ids), "table")
        return text

    def _lookup(self, vocabulary: str, text: str, folded: str | None = None) -> tuple[str, ...]:
        from havoc.games.cry_havoc.ui import vocabulary as names

        return names(vocabulary).get(_fold(text) if folded is None else folded, ())

    def _unread(
        self, vocabulary: str, text: str, path: str, line: int | None, found: tuple[str, ...], among: str = ""
    ) -> None:
        """Say that ``text`` names nothing (with what it may name: the known things, or
        ``among="table"``, the table's Regions) or more than one thing."""
        from havoc.games.cry_havoc.ui import known_names, names_text

        lang = _ml()
        if found:
            message = ui("{name} may name {choices}; write the ID of the one you mean", lang).format(
                name=repr(text), choices=names_text(known_names(vocabulary, lang, found))
            )
        else:
            listed, names = self._listing(vocabulary, among, lang)
            message = ui("unknown name {name}; expected an ID or one of the names {choices}", lang).format(
                name=repr(text), choices=listed
            )
            if len(self.mine) < _NEAR_MOST:  # (a near name is looked for in a few problems, not in thousands)
                message += suggest(text, names) if among else _near(vocabulary, text, lang)
        self._say(line, path, message)

    def _say(self, line: int | None, path: str, message: str) -> None:
        """A problem said here, at its place as typed (the Reader's word on it is left out)."""
        self.said.add(path)
        said = self.r.problem(line, path, message)
        if said is not None:
            self.mine.add(id(said))

    def _listing(self, vocabulary: str, among: str, lang: str) -> tuple[str, list[str]]:
        """The names an error lists (at most :data:`_LISTED_MOST`), and the names a near
        miss is looked for among; made once per table."""
        from havoc.games.cry_havoc.ui import known_names, names_text

        found = self._listed.get((vocabulary, among))
        if found is None:
            keys = [i for i in dict.fromkeys(self.keys.values()) if i is not None] if among else None
            names = known_names(vocabulary, lang, keys[:_LISTED_MOST] if keys is not None else None)
            listed = names_text(names) + (", …" if keys is not None and len(keys) > _LISTED_MOST else "")
            near = [n for n, _ in names] + ([k for k in self.keys if not is_id(k)][:_LISTED_MOST] if among else [])
            found = self._listed[(vocabulary, among)] = (listed or "—", near)  # (a key near as typed too)
        return found

    def renamed(self, path: str, typed: str) -> None:
        self.typed[path] = typed

    def twice(self, path: str, first: str, second: str, line: int | None) -> None:
        said = self.r.problem(
            line,
            path,
            ui("{first} and {second} name the same; list it once", _ml()).format(
                first=repr(first), second=repr(second)
            ),
            code=Code.FIELD_VALUE,
        )
        if said is not None:
            self.mine.add(id(said))

    def located(self, problems: list[Problem]) -> list[Problem]:
        """The problems with each place as the table names it ("regions.Mgielnia.units"),
        less the Reader's word on a name said here to be unknown."""
        out = []
        for p in problems:
            place, sep, rest = p.message.partition(": ")
            if not sep:
                out.append(p)
                continue
            if id(p) not in self.mine:
                parts, acc = [], ""
                for seg in place.split("."):
                    acc = f"{acc}.{seg}" if acc else seg
                    parts.append(self.typed.get(acc, seg))
                place = ".".join(parts)
                if place in self.said:
                    continue
            out.append(Problem(p.file, p.line, f"{place}: {rest}", code=p.code))
        return out


def _build(d: dict[str, Any], name: str) -> Position:
    regions: dict[str, Region] = {}
    for rid, rd in d.get("regions", {}).items():
        get = rd.get
        battle = get("battle")
        adjacent = get("adjacent")
        units = get("units")
        structures = get("structures")
        regions[rid] = Region(  # every field by its place (the generated __init__'s order)
            rid,
            get("terrain"),
            (tuple(adjacent) if len(set(adjacent)) == len(adjacent) else tuple(dict.fromkeys(adjacent)))
            if adjacent
            else (),
            get("outer", False),
            get("hq"),
            get("tunnel", False),
            ({f: n for f, n in units.items() if n > 0} if 0 in units.values() else units.copy()) if units else {},
            get("control"),
            get("crystals", 0),
            Battle(battle["token"], battle.get("attacker"), battle.get("to-play"))
            if battle and "token" in battle
            else None,
            tuple(Structure(s["type"], s["owner"]) for s in structures if "type" in s and "owner" in s)
            if structures
            else (),
            get("trog-token"),
            get("exploration", False),
        )
    neighbours: dict[str, set[str]] = {rid: set() for rid in regions}
    for rid, region in regions.items():
        mine = neighbours[rid]
        for other in region.adjacent:
            theirs = neighbours.get(other)
            if theirs is not None and other != rid:
                mine.add(other)
                theirs.add(rid)
    for rid, region in regions.items():
        region.neighbours = frozenset(neighbours[rid])
    factions = {}
    for fname, fd in d.get("factions", {}).items():
        cas = fd.get("controlled-at-action-start")
        factions[fname] = FactionState(
            vp=fd.get("vp", 0),
            reserve=fd.get("reserve"),
            prisoners={k: v for k, v in fd.get("prisoners", {}).items() if v > 0},
            skills=dict(fd.get("skills", {})),
            hand=fd.get("hand"),
            passed=fd.get("passed", False),
            controlled_at_action_start=tuple(cas) if cas is not None else None,
        )
    scoring = d.get("scoring", {})
    players = tuple(d.get("players", ()))
    initiative = tuple(d.get("initiative", ()))
    return Position(
        players=players,
        variant=d.get("variant"),
        round=d.get("round", 1),
        phase=d.get("phase", "actions"),
        step=d.get("step"),
        action_round=d.get("action-round", 1),
        turn=d.get("turn"),
        initiative=initiative,
        upcoming_initiative=tuple(d.get("upcoming-initiative", ())),
        scoring_enabled_by=scoring.get("enabled-by"),
        final_round=scoring.get("final-round", False),
        events=tuple(sorted((e["at"], e.get("tokens", 1)) for e in scoring.get("events", ()))),
        factions=factions,
        regions=regions,
        name=name,
    )


def _near(vocabulary: str, text: str, lang: str) -> str:
    """' (did you mean 'faza Akcji'?)' for a word near a name or an ID of the vocabulary, in
    any case or language ("akcji", "Akcji", "action"), said by its name in ``lang``."""
    import difflib

    from havoc.games.cry_havoc.ui import known_names
    from havoc.games.cry_havoc.ui import vocabulary as names

    known = names(vocabulary)
    hint = difflib.get_close_matches(_fold(text), list(known), n=1, cutoff=0.6)
    if not hint:
        return ""
    name, key = known_names(vocabulary, lang, known[hint[0]][:1])[0]
    name = key if _fold(name) == key else name  # as the list shows it ("pilgrims", "Actions phase")
    return " " + ui("(did you mean {name}?)", lang).format(name=repr(name))


def _unknown_variant(rs: Ruleset, name: str, lang: str) -> str:
    """A variant no overlay is: the variants by their titles in ``lang``, each with the ID to
    write ("Wariant solo (fanowski) (solo)"), and the ID meant if the word is near an ID or a
    title in any case or language ("sol", "wariant-solo": 'solo')."""
    import difflib

    from havoc.language.i18n import translator

    variants = rs.variants()
    shown = ", ".join(f"{translator(lang, rs.id).text(f'{o.id}:title', o.title)} ({o.id})" for o in variants)
    ids = _variant_names(rs)
    hint = difflib.get_close_matches(_fold(name), list(ids), n=1, cutoff=0.6)
    message = ui("unknown variant {name}; expected one of {choices}", lang).format(
        name=repr(name), choices=shown or "—"
    )
    return message + (" " + ui("(did you mean {name}?)", lang).format(name=repr(ids[hint[0]])) if hint else "")


def _variant_names(rs: Ruleset) -> dict[str, str]:
    """Every way a table may name a variant, folded (no case, no diacritics), with its ID: the ID
    and each language's title, with and without its note in brackets ("Wariant solo (fanowski)",
    "Wariant solo", "Solo variant")."""
    import re

    from havoc.language.i18n import LANGUAGES, translator

    ids: dict[str, str] = {}
    for o in rs.variants():
        ids.setdefault(_fold(o.id), o.id)
        for lang in LANGUAGES:
            title = translator(lang, rs.id).text(f"{o.id}:title", o.title)
            for said in (title, re.sub(r"\s*\([^)]*\)", "", title)):
                if _fold(said):
                    ids.setdefault(_fold(said), o.id)
    return ids


def _variant_by_name(data: Any, rs: Ruleset | None) -> Any:
    """A table whose variant is written as a name ("Solo", "Wariant solo") with the variant's
    ID instead; any other table as it is (an unknown name is then listed with the variants by
    their titles, a near one suggested: :func:`_unknown_variant`)."""
    text = data.get("variant") if isinstance(data, dict) else None
    if not isinstance(text, str) or is_id(text):
        return data
    found = _variant_names(rs).get(_fold(text)) if rs is not None else None
    if found is None:
        folded = _fold(text).replace(" ", "-")
        if not is_id(folded):
            return data  # not even an ID's shape: the Reader says what a variant is
        found = folded  # "Sol", "Wariant Sol": the checks list the variants and suggest one
    out = data.__class__({**data, "variant": found})
    if _is_ldict(data):
        out.line, out.key_lines = data.line, data.key_lines
    return out


def _fold(text: str) -> str:
    """``ui.fold`` (the one folding of names), imported only when a table has names."""
    from havoc.games.cry_havoc.ui import fold

    return fold(text)


def _check(
    pos: Position, d: dict[str, Any], rs: Ruleset | None, r: Reader, line_of: Any, variant_typed: str | None = None
) -> None:
    """The checks that need more than one field: references, counts, impossible states.
    ``variant_typed``: the variant as the table wrote it, when it was read as an ID's shape ("Sol")."""
    checks = _Checks(pos, rs, r, line_of)
    checks.variant_typed = variant_typed
    checks.run()


class _Checks:
    """The checks of a position that need more than one field: references, counts, impossible states."""

    def __init__(self, pos: Position, rs: Ruleset | None, r: Reader, line_of: Any) -> None:
        self.pos, self.rs, self.r, self.line_of = pos, rs, r, line_of
        self.hqs: dict[str, str] = {}
        self._names: dict[str, Any] | None = None
        self.tokens: dict[int, str] = {}
        self.max_tokens = _param_int(rs, P_BATTLE_TOKENS)
        self.may_hold_units = {*pos.players, TROGS}  # a Region's Units: a player's or the neutral Trogs'
        self.variant_typed: str | None = None

    def run(self) -> None:
        self.players()
        self.order_and_limits()
        self.event_stacks()
        self.factions()
        regions, players, may_hold = self.pos.regions, self.pos.players, self.may_hold_units
        known = regions.__contains__
        for rid, region in regions.items():
            if self.r.full:  # the problems an answer lists are found: the rest is not looked for
                break
            adjacent, control = region.adjacent, region.control
            if (  # what region() checks, asked at once: most Regions have nothing to say
                rid in adjacent
                or not all(map(known, adjacent))
                or not may_hold.issuperset(region.units)
                or (control is not None and control not in players)
                or (region.outer and region.terrain is not None)
            ):
                self.region(rid, region)
            if region.hq is not None:  # (each check below has nothing to say otherwise)
                self.region_hq(rid, region)
            if region.structures:
                self.region_structures(rid, region)
            if region.battle is not None:
                self.region_battle(rid, region)
        self.unit_totals()

    def event_stacks(self) -> None:
        """Event stacks on the Score track: one per spot, each on a spot of the track."""
        pos, r, line_of = self.pos, self.r, self.line_of
        spots = _param_int(self.rs, P_SCORE_TRACK)
        seen: set[int] = set()
        for at, _ in pos.events:
            path = "scoring.events"
            if at in seen:
                r.problem(
                    line_of("scoring", "events"),
                    path,
                    ui("two Event stacks on spot {at}", _ml()).format(at=at),
                    code=Code.POSITION_INVALID,
                )
            seen.add(at)
            if spots is not None and at >= spots:
                r.problem(
                    line_of("scoring", "events"),
                    path,
                    ui("the Score track has spots 0 to {last}, found {at}", _ml()).format(last=spots - 1, at=at),
                    code=Code.FIELD_VALUE,
                )

    def must_play(self, faction: str | None, path: str, *keys: str, neutral_ok: bool = False) -> None:
        """A faction named somewhere must be one of the players (the neutral Trogs where allowed)."""
        players = self.pos.players
        if faction is None or faction in players or (neutral_ok and faction == TROGS):
            return
        from havoc.games.cry_havoc.ui import not_a_player

        self.r.problem(
            self.line_of(*keys),
            path,
            not_a_player(faction, players, _ml()),
            code=Code.POSITION_INVALID,
        )

    def players(self) -> None:
        """Who plays: no faction twice, 2 to 4 players, the Trogs only with four, a known variant."""
        pos, rs, r, line_of = self.pos, self.rs, self.r, self.line_of
        players = pos.players
        if len(set(players)) != len(players):
            r.problem(line_of("players"), "players", ui("a faction is listed twice", _ml()), code=Code.POSITION_INVALID)
        # A variant (the solo mode) may change who plays; the base game has 2-4 players.
        if pos.variant is None and not 2 <= len(players) <= len(FACTIONS):
            r.problem(
                line_of("players"),
                "players",
                ui("expected 2 to {most} factions, found {count}", _ml()).format(
                    most=len(FACTIONS), count=len(players)
                ),
                code=Code.POSITION_INVALID,
            )
        if pos.variant is not None and not players:
            # a variant changes who plays (the solo player and the Trogs), never to nobody: every
            # question is asked for or about a player (score, winner, whose turn it is)
            r.problem(
                line_of("players"),
                "players",
                ui("expected at least one faction, found none", _ml()),
                code=Code.POSITION_INVALID,
            )
        if pos.variant is None and TROGS in players and len(players) != len(FACTIONS):
            r.problem(
                line_of("players"),
                "players",
                ui("the Trogs are a player faction only in a 4-player game; leave them out (they are neutral)", _ml()),
                code=Code.POSITION_INVALID,
            )
        if rs is not None and pos.variant is not None and pos.variant not in {o.id for o in rs.variants()}:
            r.problem(
                line_of("variant"),
                "variant",
                _unknown_variant(rs, self.variant_typed or pos.variant, _ml()),
                code=Code.FIELD_VALUE,
            )

    def order_and_limits(self) -> None:
        """Whose turn, the Initiative orders, the step, and the round limits from the rules."""
        pos, rs, r, line_of, must_play = self.pos, self.rs, self.r, self.line_of, self.must_play
        players = self.pos.players
        # A variant may give the automated Trogs a turn and a place on the Initiative tracks
        # (the solo Trogs: 002, "How to play"); the base game's neutral Trogs have neither.
        with_trogs = pos.variant is not None and TROGS not in players
        must_play(pos.turn, "turn", "turn", neutral_ok=with_trogs)
        must_play(pos.scoring_enabled_by, "scoring.enabled-by", "scoring", "enabled-by", neutral_ok=with_trogs)
        allowed = [sorted(players)] + ([sorted([*players, TROGS])] if with_trogs else [])
        for key, order in (("initiative", pos.initiative), ("upcoming-initiative", pos.upcoming_initiative)):
            if order and sorted(order) not in allowed:
                r.problem(
                    line_of(key),
                    key,
                    ui("expected each player once ({players}), found {found}", _ml()).format(
                        players=", ".join(players), found=", ".join(order)
                    ),
                    code=Code.POSITION_INVALID,
                )
        if pos.step is not None and pos.step not in STEPS[pos.phase]:
            from havoc.games.cry_havoc.ui import phase_name, value_text

            # each step by its name, then the ID to type: "przed Akcją (before-action)"
            steps = ", ".join(f"{value_text(s, _ml())} ({s})" for s in STEPS[pos.phase])
            r.problem(
                line_of("step"),
                "step",
                ui("not a step of the {phase}; expected one of {choices}", _ml()).format(
                    phase=phase_name(pos.phase, _ml()), choices=steps
                )
                + suggest(pos.step, STEPS[pos.phase]),
                code=Code.FIELD_VALUE,
            )
        rounds = _param_int(rs, P_MAX_ROUNDS)
        pos.last_round = rounds
        if rounds is not None and pos.round > rounds:
            r.problem(
                line_of("round"),
                "round",
                ui("expected a round from 1 to {last}, found {found}", _ml()).format(last=rounds, found=pos.round),
                code=Code.FIELD_VALUE,
            )
        actions = _param_int(rs, P_ACTIONS_PER_ROUND)
        if actions is not None and pos.action_round > actions:
            r.problem(
                line_of("action-round"),
                "action-round",
                ui("expected an action round from 1 to {last}, found {found}", _ml()).format(
                    last=actions, found=pos.action_round
                ),
                code=Code.FIELD_VALUE,
            )

    def factions(self) -> None:
        """Each faction state: a player, prisoners of others, Regions that exist."""
        pos, r, line_of, must_play = self.pos, self.r, self.line_of, self.must_play
        for fname, state in pos.factions.items():
            must_play(fname, f"factions.{fname}", "factions", fname, neutral_ok=True)
            for owner in state.prisoners:
                if owner == fname:
                    r.problem(
                        line_of("factions", fname, "prisoners", owner),
                        f"factions.{fname}.prisoners.{owner}",
                        ui("a faction cannot hold its own Units as prisoners", _ml()),
                        code=Code.POSITION_INVALID,
                    )
                else:
                    must_play(
                        owner,
                        f"factions.{fname}.prisoners.{owner}",
                        "factions",
                        fname,
                        "prisoners",
                        owner,
                        neutral_ok=True,
                    )
            for i, rid in enumerate(state.controlled_at_action_start or ()):
                if rid in pos.regions:
                    continue
                _region_ref(
                    pos,
                    r,
                    rid,
                    f"factions.{fname}.controlled-at-action-start[{i}]",
                    line_of("factions", fname, "controlled-at-action-start", str(i)),
                )

    def region(self, rid: str, region: Region) -> None:
        """A Region: its neighbours exist, its Units and Control belong to players, outer without terrain."""
        pos = self.pos
        adjacent, regions, control = region.adjacent, pos.regions, region.control
        if rid in adjacent or not all(map(regions.__contains__, adjacent)):  # (else nothing to say)
            self.region_adjacent(rid, region)
        if not self.may_hold_units.issuperset(region.units):
            for faction in region.units:
                self.must_play(
                    faction, f"regions.{rid}.units.{faction}", "regions", rid, "units", faction, neutral_ok=True
                )
        if control is not None and control not in pos.players:  # (a player's Control is never wrong)
            if control == TROGS and not pos.trogs_are_player:
                self.r.problem(
                    self.line_of("regions", rid, "control"),
                    f"regions.{rid}.control",
                    ui("neutral Trogs never hold Control (they leave a Trog Nest token instead)", _ml()),
                    code=Code.POSITION_INVALID,
                )
            else:
                self.must_play(control, f"regions.{rid}.control", "regions", rid, "control")
        if region.outer and region.terrain is not None:
            # Seed 003 (C. Zagrywajcie karty Taktyk): outer Regions have no terrain.
            self.r.problem(
                self.line_of("regions", rid, "terrain"),
                f"regions.{rid}.terrain",
                ui("an outer Region has no terrain; leave {terrain} out or {outer} false", _ml()).format(
                    terrain=_key_label("terrain"), outer=_key_label("outer")
                ),
                code=Code.POSITION_INVALID,
            )

    def region_adjacent(self, rid: str, region: Region) -> None:
        """A Region's neighbours: never itself, each listed under regions."""
        pos, r, line_of = self.pos, self.r, self.line_of
        base = f"regions.{rid}"
        for i, other in enumerate(region.adjacent):
            if other == rid:
                r.problem(
                    line_of("regions", rid, "adjacent", str(i)),
                    f"{base}.adjacent[{i}]",
                    ui("a Region is not adjacent to itself", _ml()),
                    code=Code.POSITION_INVALID,
                )
            elif other not in pos.regions:  # (the line is looked up only for a problem)
                _region_ref(pos, r, other, f"{base}.adjacent[{i}]", line_of("regions", rid, "adjacent", str(i)))

    def rname(self, rid: str) -> Any:
        """A Region of this position by the name a reader knows, with its ID to find it by:
        "Mgielnia (foglands)", "Region A (example-a)"; a player's own ID as it is."""
        from havoc.games.cry_havoc.ui import region_names

        if self._names is None:
            self._names = region_names(self.pos.regions, _ml())
        name = self._names.get(rid)
        if name is None:
            return repr(rid)
        if rid in str(name):  # a player's own ID: "Region north"
            return name
        from havoc.language.grammar import Noun

        return Noun({c: f"{name.case(c)} ({rid})" for c in name.forms})

    def region_hq(self, rid: str, region: Region) -> None:
        """An HQ: one per faction, never Crystals or Structures."""
        r, line_of, must_play = self.r, self.line_of, self.must_play
        base = f"regions.{rid}"
        if region.hq is not None:
            # A variant (the solo mode) may give the automated Trogs an HQ though no player runs them.
            must_play(region.hq, f"{base}.hq", "regions", rid, "hq", neutral_ok=self.pos.variant is not None)
            if region.hq in self.hqs:
                r.problem(
                    line_of("regions", rid, "hq"),
                    f"{base}.hq",
                    ui("the {faction} HQ is already in {region}", _ml()).format(
                        faction=_faction(region.hq), region=self.rname(self.hqs[region.hq])
                    ),
                    code=Code.POSITION_INVALID,
                )
            self.hqs[region.hq] = rid
            if region.crystals:
                r.problem(
                    line_of("regions", rid, "crystals"),
                    f"{base}.crystals",
                    ui("an HQ Region never holds Crystals; expected 0 or no field", _ml()),
                    code=Code.POSITION_INVALID,
                )
            if region.structures:
                r.problem(
                    line_of("regions", rid, "structures"),
                    f"{base}.structures",
                    ui("no Structure can stand in an HQ Region", _ml()),
                    code=Code.POSITION_INVALID,
                )

    def region_structures(self, rid: str, region: Region) -> None:
        """Structures: owned by a player, one of each type per Region."""
        r, line_of, must_play = self.r, self.line_of, self.must_play
        base = f"regions.{rid}"
        seen_types: set[str] = set()
        for i, s in enumerate(region.structures):
            must_play(
                s.owner,
                f"{base}.structures[{i}].owner",
                *("regions", rid, "structures", str(i), "owner"),
                neutral_ok=self.pos.variant is not None,  # the solo Trogs build Traps and Brooding Pools
            )
            if s.type in seen_types:
                from havoc.games.cry_havoc.ui import structure_name

                name = str(structure_name(s.type, _ml()))  # "Żniwiarka (harvester)": the name, then what was typed
                r.problem(
                    line_of("regions", rid, "structures", str(i)),
                    f"{base}.structures[{i}]",
                    ui("a second {name}: only one Structure of a type may stand in a Region", _ml()).format(
                        name=f"{name} ({s.type})" if name != s.type else repr(s.type)
                    ),
                    code=Code.POSITION_INVALID,
                )
            seen_types.add(s.type)

    def region_battle(self, rid: str, region: Region) -> None:
        """A Battle: two sides, an attacker with Units there, a token used once and within the rules."""
        pos, r, line_of, must_play = self.pos, self.r, self.line_of, self.must_play
        base = f"regions.{rid}"
        if region.battle is not None:
            b = region.battle
            bline = line_of("regions", rid, "battle")
            if b.attacker is not None:
                must_play(b.attacker, f"{base}.battle.attacker", "regions", rid, "battle", "attacker", neutral_ok=True)
            sides = region.sides()
            if len(sides) > 2:
                r.problem(
                    bline,
                    f"{base}.battle",
                    ui("a Battle has two sides, found Units of {sides}", _ml()).format(sides=", ".join(sides)),
                    code=Code.POSITION_INVALID,
                )
            elif len(sides) < 2 and pos.phase != "battle-resolution":
                r.problem(
                    bline,
                    f"{base}.battle",
                    ui("a Battle token needs Units of two sides in the Region, found {sides}", _ml()).format(
                        sides=", ".join(sides) or "—"
                    ),
                    code=Code.POSITION_INVALID,
                )
            if b.to_play is not None and len(sides) == 2 and b.to_play not in sides:
                r.problem(
                    line_of("regions", rid, "battle", "to-play"),
                    f"{base}.battle.to-play",
                    ui("whose turn it is in the Tactics exchange must be one of the Battle's two sides", _ml()),
                    code=Code.POSITION_INVALID,
                )
            if b.attacker is not None and b.attacker not in sides and len(sides) == 2:
                r.problem(
                    line_of("regions", rid, "battle", "attacker"),
                    f"{base}.battle.attacker",
                    ui("the attacker must have Units in the Region ({sides})", _ml()).format(sides=", ".join(sides)),
                    code=Code.POSITION_INVALID,
                )
            if b.token in self.tokens:
                r.problem(
                    line_of("regions", rid, "battle", "token"),
                    f"{base}.battle.token",
                    ui("Battle token {token} is already on {region}", _ml()).format(
                        token=b.token, region=self.rname(self.tokens[b.token])
                    ),
                    code=Code.POSITION_INVALID,
                )
            self.tokens[b.token] = rid
            if self.max_tokens is not None and b.token > self.max_tokens:
                r.problem(
                    line_of("regions", rid, "battle", "token"),
                    f"{base}.battle.token",
                    ui("expected a Battle token from 1 to {last}, found {found}", _ml()).format(
                        last=self.max_tokens, found=b.token
                    ),
                    code=Code.FIELD_VALUE,
                )

    def unit_totals(self) -> None:
        """Board + Reserve + held as prisoners never exceed the Units a faction owns."""
        pos, rs, r, line_of = self.pos, self.rs, self.r, self.line_of
        # Unit counts: board + Reserve + held as prisoners never exceed what the faction owns.
        per_faction = _param_int(rs, P_UNITS)
        trog_units = _param_int(rs, P_TROG_UNITS)
        # pos.on_board and pos.held_by_others of every faction, in one pass over the table
        on_board, held_by_others = dict.fromkeys(FACTIONS, 0), dict.fromkeys(FACTIONS, 0)
        for region in pos.regions.values():
            for owner, n in region.units.items():
                on_board[owner] += n
        for holder, state in pos.factions.items():
            for owner, n in state.prisoners.items():
                if owner != holder:
                    held_by_others[owner] += n
        for faction in FACTIONS:
            total = trog_units if faction == TROGS else per_faction
            if total is None:
                continue
            pos.unit_totals[faction] = total
            board = on_board[faction]
            held = held_by_others[faction]
            reserve = pos.factions[faction].reserve if faction in pos.factions else None
            count = board + held + (reserve or 0)
            if count > total:
                from havoc.games.cry_havoc.ui import faction_name

                lang = _ml()
                parts = [
                    ui("{count} on the board", lang).format(count=board),
                    ui("{count} held as prisoners", lang).format(count=held),
                ] + ([ui("{count} in the Reserve", lang).format(count=reserve)] if reserve is not None else [])
                path = f"factions.{faction}.reserve" if reserve else _busiest(pos, faction)
                keys = ("factions", faction, "reserve") if reserve else tuple(path.split("."))
                r.problem(
                    line_of(*keys),
                    path,
                    ui("the {faction} own {total} Units, found {count} ({parts})", lang).format(
                        faction=faction_name(faction, lang), total=total, count=count, parts=", ".join(parts)
                    ),
                    code=Code.POSITION_UNITS,
                )


def _busiest(pos: Position, faction: str) -> str:
    region = max(pos.regions.values(), key=lambda reg: reg.units.get(faction, 0), default=None)
    if region is None or not region.units.get(faction):
        return f"factions.{faction}.prisoners"
    return f"regions.{region.id}.units.{faction}"


def _key_label(key: str) -> str:
    """A table's key named in a message as the error places word it ("Regiony (regions)")."""
    from havoc.games.cry_havoc.places import label

    return label(key, _ml())


def _unknown_region(name: str) -> str:
    """The problem of a Region the table does not list, in the language of errors."""
    return ui("unknown Region {name}; list it under {field}", _ml()).format(
        name=repr(name), field=_key_label("regions")
    )


def _region_ref(pos: Position, r: Reader, rid: str, path: str, line: int | None) -> None:
    if rid not in pos.regions and not r.full:  # (a full list of problems takes no more)
        # a near Region is looked for in the first problems only: in each of thousands, among
        # thousands of Regions, it cost a hostile 256 KiB table a minute of CPU
        near = suggest(rid, list(pos.regions)) if len(r.problems) < _NEAR_MOST else ""
        r.problem(line, path, _unknown_region(rid) + near, code=Code.POSITION_UNKNOWN_REGION)
