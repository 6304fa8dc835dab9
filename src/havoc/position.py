"""Positions: a snapshot of what is on the table, read from YAML or JSON and validated.

A position is what players can see: who plays, the round, phase and turn, each faction's
VP, Reserve, prisoners and Skills, and the Regions a question is about. It may be partial:
only the Regions that matter, with their neighbours. One field table (``FIELDS``) drives
both the validation and the published JSON Schema, so the two cannot disagree. Every error
names its field (``regions.foglands.units.humans``), its line when the input came from a
file, and what was expected; nothing else ever escapes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from havoc.errors import InputError, Problem
from havoc.i18n import ui
from havoc.interpreter.contract import (
    FACTIONS,
    P_ACTIONS_PER_ROUND,
    P_BATTLE_TOKENS,
    P_MAX_ROUNDS,
    P_TROG_UNITS,
    P_UNITS,
    PHASES,
    SKILL_STATES,
    STEPS,
    TERRAINS,
    TROG_TOKENS,
    TROGS,
)

if TYPE_CHECKING:
    from havoc.rulebook.model import Ruleset

# PyYAML (through havoc.yamlio) is imported only where text is parsed: a position read from
# the cache or given as a mapping never pays for it. Line-aware mappings and lists from
# havoc.yamlio are recognised by their line bookkeeping.


def _is_ldict(value: Any) -> bool:
    return isinstance(value, dict) and hasattr(value, "key_lines")


def _is_llist(value: Any) -> bool:
    return isinstance(value, list) and hasattr(value, "item_lines")


def _lines(value: Any) -> Any:
    """The value as its line-aware self (after _is_ldict/_is_llist said it is one)."""
    return value


ID_RE: Final = re.compile(r"^[a-z0-9][a-z0-9-]*$")
MAX_INT: Final = 1_000_000  # no count on a game table comes near; bounds every figure derived from one
MAX_REGIONS: Final = 200  # a printed board has far fewer; bounds the work a hostile file can cause


# --- the field table ------------------------------------------------------------


class Spec:
    """One field of the format: its kind, what it means, and its limits."""

    __slots__ = ("choices", "doc", "fields", "item", "keys", "kind", "minimum", "required")

    def __init__(
        self,
        kind: str,
        doc: str,
        minimum: int | None = None,
        choices: tuple[str, ...] = (),
        item: Spec | None = None,
        keys: str | None = None,
        fields: Mapping[str, Spec] | None = None,
        required: tuple[str, ...] = (),
    ) -> None:
        self.kind = kind  # int | bool | enum | id | list | map | object
        self.doc = doc
        self.minimum = minimum
        self.choices = choices
        self.item = item  # list items, map values
        self.keys = keys  # map keys: "faction" or "id"
        self.fields = fields  # object fields
        self.required = required


def _int(doc: str, minimum: int = 0) -> Spec:
    return Spec("int", doc, minimum=minimum)


def _bool(doc: str) -> Spec:
    return Spec("bool", doc)


def _enum(doc: str, choices: tuple[str, ...]) -> Spec:
    return Spec("enum", doc, choices=choices)


FACTION = _enum("A faction.", FACTIONS)
REGION_REF = Spec("id", "The ID of a Region listed under `regions`.")

STRUCTURE = Spec(
    "object",
    "A Structure standing in the Region.",
    fields={"type": Spec("id", "The Structure type, e.g. harvester."), "owner": FACTION},
    required=("type", "owner"),
)
BATTLE = Spec(
    "object",
    "The Battle token on the Region: its number (the battle order) and the attacking faction.",
    fields={
        "token": _int("The number on the Battle token (battles are resolved in rising order).", 1),
        "attacker": FACTION,
    },
    required=("token", "attacker"),
)
REGION = Spec(
    "object",
    "One Region of the board (only the Regions a question is about are needed).",
    fields={
        "terrain": _enum("The Region's terrain; leave out for outer Regions, which have none.", TERRAINS),
        "adjacent": Spec(
            "list", "Regions adjacent to this one (shared edge or opposite outer Regions).", item=REGION_REF
        ),
        "outer": _bool("An outer Region at the planet's edge, marked with an arrow."),
        "hq": _enum("The faction whose HQ is in this Region.", FACTIONS),
        "tunnel": _bool("The Region holds a Tunnel (printed or built); Trogs treat Tunnel Regions as adjacent."),
        "units": Spec("map", "Units per faction in the Region.", keys="faction", item=_int("Units of this faction.")),
        "control": _enum("The faction whose Control token lies here.", FACTIONS),
        "crystals": _int("The Crystal value in the Region (green 1, yellow 3, red 5, added up)."),
        "battle": BATTLE,
        "structures": Spec("list", "Structures standing in the Region.", item=STRUCTURE),
        "trog-token": _enum("A face-down Trog token: a War Party or a Nest.", TROG_TOKENS),
        "exploration": _bool("A face-down Exploration token lies here."),
    },
)
FACTION_STATE = Spec(
    "object",
    "What one faction has off the board.",
    fields={
        "vp": _int("Victory Points."),
        "reserve": _int("Units in the Reserve (left out: every Unit not on the listed Regions or held as a prisoner)."),
        "prisoners": Spec(
            "map",
            "Prisoners this faction holds, by the faction that owns them.",
            keys="faction",
            item=_int("Prisoners of that faction."),
        ),
        "skills": Spec(
            "map", "Skill cards by ID: ready or exhausted.", keys="id", item=_enum("The Skill's state.", SKILL_STATES)
        ),
        "hand": _int("Cards in hand."),
        "passed": _bool("Passed in the tactics step of the current battle."),
        "controlled-at-action-start": Spec(
            "list", "Regions this faction controlled when the current action began.", item=REGION_REF
        ),
    },
)
SCORING = Spec(
    "object",
    "The scoring state of the round.",
    fields={
        "enabled-by": _enum("The faction that enabled scoring this round.", FACTIONS),
        "final-round": _bool("The Enable Final Scoring event has been resolved: this is the last round."),
    },
)
ALL_STEPS: Final = tuple(sorted({s for steps in STEPS.values() for s in steps}))
FIELDS: Final[Mapping[str, Spec]] = {
    "players": Spec("list", "The factions in the game (the Trogs only when a player plays them).", item=FACTION),
    "variant": Spec("id", "The variant in force (e.g. solo); left out for the base game."),
    "round": _int("The current round, from 1.", 1),
    "phase": _enum("The current phase.", PHASES),
    "step": _enum("The step within the phase.", ALL_STEPS),
    "action-round": _int("The action round of the Actions phase, from 1.", 1),
    "turn": _enum("The faction whose turn it is.", FACTIONS),
    "initiative": Spec("list", "The Initiative track, first to last.", item=FACTION),
    "upcoming-initiative": Spec(
        "list",
        "The Upcoming Initiative track, first to last (an Initiative card's answer gives its new order).",
        item=FACTION,
    ),
    "scoring": SCORING,
    "factions": Spec("map", "Per faction: VP, Reserve, prisoners, Skills, hand.", keys="faction", item=FACTION_STATE),
    "regions": Spec("map", "The Regions the question is about, by ID.", keys="id", item=REGION),
}
TOP: Final = Spec("object", "A Cry Havoc position.", fields=FIELDS, required=("players",))


# --- the typed model --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Battle:
    token: int
    attacker: str


@dataclass(frozen=True, slots=True)
class Structure:
    type: str
    owner: str


@dataclass(slots=True)
class Region:
    id: str
    terrain: str | None = None
    adjacent: tuple[str, ...] = ()
    outer: bool = False
    hq: str | None = None
    tunnel: bool = False
    units: dict[str, int] = field(default_factory=dict)
    control: str | None = None
    crystals: int = 0
    battle: Battle | None = None
    structures: tuple[Structure, ...] = ()
    trog_token: str | None = None
    exploration: bool = False
    neighbours: frozenset[str] = frozenset()  # adjacency made symmetric

    def sides(self) -> list[str]:
        """Factions with Units here, in a stable order."""
        return [f for f in FACTIONS if self.units.get(f, 0) > 0]

    def defender(self) -> str | None:
        if self.battle is None:
            return None
        others = [f for f in self.sides() if f != self.battle.attacker]
        return others[0] if others else None


@dataclass(slots=True)
class FactionState:
    vp: int = 0
    reserve: int | None = None
    prisoners: dict[str, int] = field(default_factory=dict)
    skills: dict[str, str] = field(default_factory=dict)
    hand: int | None = None
    passed: bool = False
    controlled_at_action_start: tuple[str, ...] | None = None


@dataclass(slots=True)
class Position:
    """A validated position; build it with :func:`parse` or :func:`load`."""

    players: tuple[str, ...]
    variant: str | None = None
    round: int = 1
    phase: str = "actions"
    step: str | None = None
    action_round: int = 1
    turn: str | None = None
    initiative: tuple[str, ...] = ()
    upcoming_initiative: tuple[str, ...] = ()
    scoring_enabled_by: str | None = None
    final_round: bool = False
    factions: dict[str, FactionState] = field(default_factory=dict)
    regions: dict[str, Region] = field(default_factory=dict)
    name: str = "position"
    unit_totals: dict[str, int] = field(default_factory=dict)  # every Unit a faction owns (a rule parameter)
    last_round: int | None = None  # the last round a game can have (a rule parameter)

    @property
    def is_final_round(self) -> bool:
        """The final round: the event was resolved, or no game goes on past this round."""
        return self.final_round or (self.last_round is not None and self.round >= self.last_round)

    def faction(self, name: str) -> FactionState:
        """A faction's state; one not listed has the defaults (0 VP, no prisoners …).

        The default is not stored: answering a question never changes the position, so a server
        can keep one validated position for many questions.
        """
        state = self.factions.get(name)
        return state if state is not None else FactionState()

    def on_board(self, faction: str) -> int:
        return sum(r.units.get(faction, 0) for r in self.regions.values())

    def held_by_others(self, faction: str) -> int:
        return sum(s.prisoners.get(faction, 0) for f, s in self.factions.items() if f != faction)

    def reserve(self, faction: str) -> int:
        """The Reserve as given, else every Unit not on the listed Regions or held as a prisoner."""
        given = self.faction(faction).reserve
        if given is not None:
            return given
        return max(0, self.unit_totals.get(faction, 0) - self.on_board(faction) - self.held_by_others(faction))

    def hq_of(self, faction: str) -> Region | None:
        for region in self.regions.values():
            if region.hq == faction:
                return region
        return None

    @property
    def trogs_are_player(self) -> bool:
        return TROGS in self.players


# --- reading --------------------------------------------------------------------

_BAD: Final = object()


def _ml() -> str:
    """The language of error messages (set by the command from ``--lang``)."""
    from havoc.interpreter.ui import message_language

    return message_language()


def _kind(value: Any) -> str:
    from havoc.interpreter.ui import message_language

    lang = message_language()
    if value is None:
        return ui("nothing", lang)
    if isinstance(value, bool):
        return ui("a boolean", lang)
    if isinstance(value, (int, float)):
        return f"{value!r}"
    if isinstance(value, str):
        return f"{value!r}" if len(value) <= 40 else ui("a long text", lang)
    if isinstance(value, list):
        return ui("a list", lang)
    if isinstance(value, dict):
        return ui("a mapping", lang)
    return type(value).__name__


def suggest(name: str, known: list[str] | tuple[str, ...]) -> str:
    """' (did you mean 'x'?)' for a near miss, else ''."""
    import difflib

    hint = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return " " + ui("(did you mean {name}?)", _ml()).format(name=repr(hint[0])) if hint else ""


class Reader:
    """Walks a value against a :class:`Spec`, collecting located problems."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def problem(self, line: int | None, path: str, message: str) -> None:
        self.problems.append(Problem(self.file, line, f"{path}: {message}" if path else message))

    def read(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        kind = spec.kind
        if kind == "int":
            if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_INT:
                value = int(value)  # 3.0 is 3; 1e300 is refused below as what it is, not a 301-digit int
            if isinstance(value, bool) or not isinstance(value, int):
                self.problem(line, path, _at_least(spec.minimum, _kind(value)))
                return _BAD
            if spec.minimum is not None and value < spec.minimum:
                self.problem(line, path, _at_least(spec.minimum, _short_number(value)))
                return _BAD
            if value > MAX_INT:
                found = _short_number(value)
                self.problem(
                    line,
                    path,
                    ui("expected a whole number ≤ {most}, found {found}", _ml()).format(most=MAX_INT, found=found),
                )
                return _BAD
            return value
        if kind == "bool":
            if not isinstance(value, bool):
                self.problem(line, path, ui("expected true or false, found {found}", _ml()).format(found=_kind(value)))
                return _BAD
            return value
        if kind == "enum":
            if not isinstance(value, str) or value not in spec.choices:
                near = suggest(value, spec.choices) if isinstance(value, str) else ""
                self.problem(
                    line,
                    path,
                    ui("expected one of {choices}, found {found}", _ml()).format(
                        choices=", ".join(spec.choices), found=_kind(value)
                    )
                    + near,
                )
                return _BAD
            return value
        if kind == "id":
            if not isinstance(value, str) or not ID_RE.match(value):
                self.problem(
                    line,
                    path,
                    ui("expected an ID in lowercase-kebab-case (like example-a), found {found}", _ml()).format(
                        found=_kind(value)
                    ),
                )
                return _BAD
            return value
        if kind == "list":
            return self._list(value, spec, path, line)
        if kind == "map":
            return self._map(value, spec, path, line)
        return self._object(value, spec, path, line)

    def _list(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        if not isinstance(value, list):
            self.problem(line, path, ui("expected a list, found {found}", _ml()).format(found=_kind(value)))
            return _BAD
        assert spec.item is not None
        lines = _lines(value).item_lines if _is_llist(value) else [None] * len(value)
        out = []
        for i, (item, item_line) in enumerate(zip(value, lines, strict=False)):
            got = self.read(item, spec.item, f"{path}[{i}]", item_line or line)
            if got is not _BAD:
                out.append(got)
        return out

    def _map(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        if not isinstance(value, dict):
            self.problem(line, path, ui("expected a mapping, found {found}", _ml()).format(found=_kind(value)))
            return _BAD
        assert spec.item is not None
        out: dict[str, Any] = {}
        for key, item in value.items():
            key_line = _lines(value).line_of(key) if _is_ldict(value) else line
            sub = f"{path}.{key}"
            if spec.keys == "faction":
                if not isinstance(key, str) or key not in FACTIONS:
                    self.problem(
                        key_line,
                        sub,
                        ui("unknown faction {name}; expected one of {choices}", _ml()).format(
                            name=repr(key), choices=", ".join(FACTIONS)
                        )
                        + (suggest(key, FACTIONS) if isinstance(key, str) else ""),
                    )
                    continue
            elif not isinstance(key, str) or not ID_RE.match(key):
                self.problem(
                    key_line, sub, ui("expected an ID in lowercase-kebab-case (like example-a) as the key", _ml())
                )
                continue
            got = self.read(item, spec.item, sub, key_line)
            if got is not _BAD:
                out[key] = got
        return out

    def _object(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        if not isinstance(value, dict):
            self.problem(line, path, ui("expected a mapping, found {found}", _ml()).format(found=_kind(value)))
            return _BAD
        assert spec.fields is not None
        out: dict[str, Any] = {}
        known = list(spec.fields)
        for key, item in value.items():
            key_line = _lines(value).line_of(key) if _is_ldict(value) else line
            sub = f"{path}.{key}" if path else str(key)
            fspec = spec.fields.get(key)
            if fspec is None:
                self.problem(
                    key_line,
                    path,
                    ui("unknown field {name}{hint}; expected one of {choices}", _ml()).format(
                        name=repr(key), hint=suggest(str(key), known), choices=", ".join(known)
                    ),
                )
                continue
            got = self.read(item, fspec, sub, key_line)
            if got is not _BAD:
                out[key] = got
        for key in spec.required:
            if key not in value:
                self.problem(
                    _lines(value).line if _is_ldict(value) else line,
                    path,
                    ui("missing required field {name}", _ml()).format(name=repr(key)),
                )
        return out


def _at_least(minimum: int | None, found: str) -> str:
    if minimum is None:
        return ui("expected a whole number, found {found}", _ml()).format(found=found)
    return ui("expected a whole number ≥ {least}, found {found}", _ml()).format(least=minimum, found=found)


def _short_number(value: int) -> str:
    """A number as a message shows it: a 300-digit integer is not printed whole."""
    if abs(value) < 10**30:
        return str(value)
    digits = int(value.bit_length() * 0.30103) + 1
    return ui("a number of about {digits} digits", _ml()).format(digits=digits)


def _param_int(rs: Ruleset | None, name: str) -> int | None:
    if rs is None or name not in rs.params:
        return None
    value = rs.param(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse(data: Any, rs: Ruleset | None = None, name: str = "position") -> Position:
    """Validate position data (plain or line-aware) into a :class:`Position`, or raise InputError."""
    r = Reader(name)
    d = r.read(data, TOP, "", data.line if _is_ldict(data) or _is_llist(data) else None)
    if d is _BAD or r.problems:
        raise InputError(r.problems or [Problem(name, None, "expected a mapping")])

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
    _check(pos, d, rs, r, line_of)
    if r.problems:
        raise InputError(r.problems)
    return pos


def _build(d: dict[str, Any], name: str) -> Position:
    regions: dict[str, Region] = {}
    for rid, rd in d.get("regions", {}).items():
        battle = rd.get("battle")
        regions[rid] = Region(
            id=rid,
            terrain=rd.get("terrain"),
            adjacent=tuple(dict.fromkeys(rd.get("adjacent", ()))),
            outer=rd.get("outer", False),
            hq=rd.get("hq"),
            tunnel=rd.get("tunnel", False),
            units={f: n for f, n in rd.get("units", {}).items() if n > 0},
            control=rd.get("control"),
            crystals=rd.get("crystals", 0),
            battle=Battle(battle["token"], battle["attacker"])
            if battle and "token" in battle and "attacker" in battle
            else None,
            structures=tuple(
                Structure(s["type"], s["owner"]) for s in rd.get("structures", ()) if "type" in s and "owner" in s
            ),
            trog_token=rd.get("trog-token"),
            exploration=rd.get("exploration", False),
        )
    neighbours: dict[str, set[str]] = {rid: set() for rid in regions}
    for rid, region in regions.items():
        for other in region.adjacent:
            if other in regions and other != rid:
                neighbours[rid].add(other)
                neighbours[other].add(rid)
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
        factions=factions,
        regions=regions,
        name=name,
    )


def _check(pos: Position, d: dict[str, Any], rs: Ruleset | None, r: Reader, line_of: Any) -> None:
    """The checks that need more than one field: references, counts, impossible states."""
    players = pos.players
    if len(set(players)) != len(players):
        r.problem(line_of("players"), "players", ui("a faction is listed twice", _ml()))
    # A variant (the solo mode) may change who plays; the base game has 2-4 players.
    if pos.variant is None and not 2 <= len(players) <= len(FACTIONS):
        r.problem(
            line_of("players"),
            "players",
            ui("expected 2 to {most} factions, found {count}", _ml()).format(most=len(FACTIONS), count=len(players)),
        )
    if pos.variant is None and TROGS in players and len(players) != len(FACTIONS):
        r.problem(
            line_of("players"),
            "players",
            ui("the Trogs are a player faction only in a 4-player game; leave them out (they are neutral)", _ml()),
        )
    if rs is not None and pos.variant is not None and pos.variant not in {o.id for o in rs.variants()}:
        known = [o.id for o in rs.variants()]
        r.problem(
            line_of("variant"),
            "variant",
            ui("unknown variant {name}; expected one of {choices}", _ml()).format(
                name=repr(pos.variant), choices=", ".join(known) or "—"
            )
            + suggest(pos.variant, known),
        )

    def must_play(faction: str | None, path: str, *keys: str, neutral_ok: bool = False) -> None:
        if faction is None or faction in players or (neutral_ok and faction == TROGS):
            return
        r.problem(
            line_of(*keys),
            path,
            ui("{name} is not in players ({players})", _ml()).format(name=repr(faction), players=", ".join(players)),
        )

    must_play(pos.turn, "turn", "turn")
    must_play(pos.scoring_enabled_by, "scoring.enabled-by", "scoring", "enabled-by")
    for key, order in (("initiative", pos.initiative), ("upcoming-initiative", pos.upcoming_initiative)):
        if order and sorted(order) != sorted(players):
            r.problem(
                line_of(key),
                key,
                ui("expected each player once ({players}), found {found}", _ml()).format(
                    players=", ".join(players), found=", ".join(order)
                ),
            )
    if pos.step is not None and pos.step not in STEPS[pos.phase]:
        r.problem(
            line_of("step"),
            "step",
            ui("not a step of the {phase} phase; expected one of {choices}", _ml()).format(
                phase=pos.phase, choices=", ".join(STEPS[pos.phase])
            )
            + suggest(pos.step, STEPS[pos.phase]),
        )
    rounds = _param_int(rs, P_MAX_ROUNDS)
    pos.last_round = rounds
    if rounds is not None and pos.round > rounds:
        r.problem(
            line_of("round"),
            "round",
            ui("expected a round from 1 to {last}, found {found}", _ml()).format(last=rounds, found=pos.round),
        )
    actions = _param_int(rs, P_ACTIONS_PER_ROUND)
    if actions is not None and pos.action_round > actions:
        r.problem(
            line_of("action-round"),
            "action-round",
            ui("expected an action round from 1 to {last}, found {found}", _ml()).format(
                last=actions, found=pos.action_round
            ),
        )
    if len(pos.regions) > MAX_REGIONS:
        r.problem(
            line_of("regions"),
            "regions",
            ui("at most {most} Regions, found {count}", _ml()).format(most=MAX_REGIONS, count=len(pos.regions)),
        )

    for fname, state in pos.factions.items():
        must_play(fname, f"factions.{fname}", "factions", fname, neutral_ok=True)
        for owner in state.prisoners:
            if owner == fname:
                r.problem(
                    line_of("factions", fname, "prisoners", owner),
                    f"factions.{fname}.prisoners.{owner}",
                    ui("a faction cannot hold its own Units as prisoners", _ml()),
                )
            else:
                must_play(
                    owner, f"factions.{fname}.prisoners.{owner}", "factions", fname, "prisoners", owner, neutral_ok=True
                )
        for i, rid in enumerate(state.controlled_at_action_start or ()):
            _region_ref(
                pos,
                r,
                rid,
                f"factions.{fname}.controlled-at-action-start[{i}]",
                line_of("factions", fname, "controlled-at-action-start", str(i)),
            )

    hqs: dict[str, str] = {}
    tokens: dict[int, str] = {}
    max_tokens = _param_int(rs, P_BATTLE_TOKENS)
    for rid, region in pos.regions.items():
        base = f"regions.{rid}"
        for i, other in enumerate(region.adjacent):
            if other == rid:
                r.problem(
                    line_of("regions", rid, "adjacent", str(i)),
                    f"{base}.adjacent[{i}]",
                    ui("a Region is not adjacent to itself", _ml()),
                )
            else:
                _region_ref(pos, r, other, f"{base}.adjacent[{i}]", line_of("regions", rid, "adjacent", str(i)))
        for faction in region.units:
            must_play(faction, f"{base}.units.{faction}", "regions", rid, "units", faction, neutral_ok=True)
        if region.control is not None:
            if region.control == TROGS and not pos.trogs_are_player:
                r.problem(
                    line_of("regions", rid, "control"),
                    f"{base}.control",
                    ui("neutral Trogs never hold Control (they leave a Trog Nest token instead)", _ml()),
                )
            else:
                must_play(region.control, f"{base}.control", "regions", rid, "control")
        if region.outer and region.terrain is not None:
            # Seed 003 (C. Zagrywajcie karty Taktyk): outer Regions have no terrain.
            r.problem(
                line_of("regions", rid, "terrain"),
                f"{base}.terrain",
                ui("an outer Region has no terrain; leave terrain out or outer false", _ml()),
            )
        if region.hq is not None:
            # A variant (the solo mode) may give the automated Trogs an HQ though no player runs them.
            must_play(region.hq, f"{base}.hq", "regions", rid, "hq", neutral_ok=pos.variant is not None)
            if region.hq in hqs:
                r.problem(
                    line_of("regions", rid, "hq"),
                    f"{base}.hq",
                    ui("the {faction} HQ is already in Region {region}", _ml()).format(
                        faction=region.hq, region=repr(hqs[region.hq])
                    ),
                )
            hqs[region.hq] = rid
            if region.crystals:
                r.problem(
                    line_of("regions", rid, "crystals"),
                    f"{base}.crystals",
                    ui("an HQ Region never holds Crystals; expected 0 or no field", _ml()),
                )
            if region.structures:
                r.problem(
                    line_of("regions", rid, "structures"),
                    f"{base}.structures",
                    ui("no Structure can stand in an HQ Region", _ml()),
                )
        seen_types: set[str] = set()
        for i, s in enumerate(region.structures):
            must_play(
                s.owner,
                f"{base}.structures[{i}].owner",
                *("regions", rid, "structures", str(i), "owner"),
                neutral_ok=pos.variant is not None,  # the solo Trogs build Traps and Brooding Pools
            )
            if s.type in seen_types:
                r.problem(
                    line_of("regions", rid, "structures", str(i)),
                    f"{base}.structures[{i}]",
                    ui("a second {name}: only one Structure of a type may stand in a Region", _ml()).format(
                        name=repr(s.type)
                    ),
                )
            seen_types.add(s.type)
        if region.battle is not None:
            b = region.battle
            bline = line_of("regions", rid, "battle")
            must_play(b.attacker, f"{base}.battle.attacker", "regions", rid, "battle", "attacker", neutral_ok=True)
            sides = region.sides()
            if len(sides) > 2:
                r.problem(
                    bline,
                    f"{base}.battle",
                    ui("a Battle has two sides, found Units of {sides}", _ml()).format(sides=", ".join(sides)),
                )
            elif len(sides) < 2 and pos.phase != "battle-resolution":
                r.problem(
                    bline,
                    f"{base}.battle",
                    ui("a Battle token needs Units of two sides in the Region, found {sides}", _ml()).format(
                        sides=", ".join(sides) or "—"
                    ),
                )
            elif b.attacker not in sides and len(sides) == 2:
                r.problem(
                    line_of("regions", rid, "battle", "attacker"),
                    f"{base}.battle.attacker",
                    ui("the attacker must have Units in the Region ({sides})", _ml()).format(sides=", ".join(sides)),
                )
            if b.token in tokens:
                r.problem(
                    line_of("regions", rid, "battle", "token"),
                    f"{base}.battle.token",
                    ui("Battle token {token} is already on Region {region}", _ml()).format(
                        token=b.token, region=repr(tokens[b.token])
                    ),
                )
            tokens[b.token] = rid
            if max_tokens is not None and b.token > max_tokens:
                r.problem(
                    line_of("regions", rid, "battle", "token"),
                    f"{base}.battle.token",
                    ui("expected a Battle token from 1 to {last}, found {found}", _ml()).format(
                        last=max_tokens, found=b.token
                    ),
                )

    # Unit counts: board + Reserve + held as prisoners never exceed what the faction owns.
    per_faction = _param_int(rs, P_UNITS)
    trog_units = _param_int(rs, P_TROG_UNITS)
    for faction in FACTIONS:
        total = trog_units if faction == TROGS else per_faction
        if total is None:
            continue
        pos.unit_totals[faction] = total
        board = pos.on_board(faction)
        held = pos.held_by_others(faction)
        reserve = pos.factions[faction].reserve if faction in pos.factions else None
        count = board + held + (reserve or 0)
        if count > total:
            from havoc.interpreter.ui import faction_name

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
            )


def _busiest(pos: Position, faction: str) -> str:
    region = max(pos.regions.values(), key=lambda reg: reg.units.get(faction, 0), default=None)
    if region is None or not region.units.get(faction):
        return f"factions.{faction}.prisoners"
    return f"regions.{region.id}.units.{faction}"


def _region_ref(pos: Position, r: Reader, rid: str, path: str, line: int | None) -> None:
    if rid not in pos.regions:
        known = list(pos.regions)
        r.problem(
            line,
            path,
            ui("unknown Region {name}; list it under regions", _ml()).format(name=repr(rid)) + suggest(rid, known),
        )


def load(path: str | Path, rs: Ruleset | None = None) -> Position:
    """Read and validate a position file (YAML or JSON)."""
    from havoc.yamlio import YamlError, load_file

    p = Path(path)
    try:
        data = load_file(p, str(path))
    except YamlError as exc:
        raise InputError([exc.problem]) from None
    return parse(data, rs, str(path))


def parse_text(text: str, rs: Ruleset | None = None, name: str = "position") -> Position:
    """Read and validate position text (YAML or JSON)."""
    from havoc.yamlio import YamlError, loads

    try:
        data = loads(text, name)
    except YamlError as exc:
        raise InputError([exc.problem]) from None
    return parse(data, rs, name)


# --- JSON Schema ------------------------------------------------------------------


def _schema(spec: Spec) -> dict[str, Any]:
    out: dict[str, Any] = {"description": spec.doc}
    if spec.kind == "int":
        out.update(type="integer", minimum=spec.minimum or 0)
    elif spec.kind == "bool":
        out["type"] = "boolean"
    elif spec.kind == "enum":
        out.update(type="string", enum=list(spec.choices))
    elif spec.kind == "id":
        out.update(type="string", pattern=ID_RE.pattern)
    elif spec.kind == "list":
        assert spec.item is not None
        out.update(type="array", items=_schema(spec.item))
    elif spec.kind == "map":
        assert spec.item is not None
        out["type"] = "object"
        if spec.keys == "faction":
            out["properties"] = {f: _schema(spec.item) for f in FACTIONS}
            out["additionalProperties"] = False
        else:
            out["propertyNames"] = {"pattern": ID_RE.pattern}
            out["additionalProperties"] = _schema(spec.item)
    else:
        assert spec.fields is not None
        out.update(
            type="object",
            properties={k: _schema(v) for k, v in spec.fields.items()},
            additionalProperties=False,
        )
        if spec.required:
            out["required"] = list(spec.required)
    return out


def position_schema(rs: Ruleset | None = None) -> dict[str, Any]:
    """The JSON Schema of positions, generated from the same field table the validator reads.

    With a ruleset, the limits that are rule parameters (rounds, action rounds, Battle tokens)
    are filled in as maximums.
    """
    schema = _schema(TOP)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://havoc.invalid/schema/position.json",
        "title": "Cry Havoc position",
        **schema,
    }
    props = schema["properties"]
    for key, pname in (("round", P_MAX_ROUNDS), ("action-round", P_ACTIONS_PER_ROUND)):
        value = _param_int(rs, pname)
        if value is not None:
            props[key]["maximum"] = value
    tokens = _param_int(rs, P_BATTLE_TOKENS)
    if tokens is not None:
        props["regions"]["additionalProperties"]["properties"]["battle"]["properties"]["token"]["maximum"] = tokens
    return schema
