"""Positions: a snapshot of what is on the table, read from YAML or JSON and validated.

A position is what players can see: who plays, the round, phase and turn, each faction's
VP, Reserve, prisoners and Skills, and the Regions a question is about. It may be partial:
only the Regions that matter, with their neighbours. One field table (``FIELDS``) drives
both the validation and the published JSON Schema, so the two cannot disagree. Every error
names its field (``regions.foglands.units.humans``), its line when the input came from a
file, and what was expected; nothing else ever escapes.

A table may also name things as players say them ("Mgielnia:", "Ludzie", "faza Akcji"): one that
fails the quick check is read again with its names as the IDs they name (:mod:`.position_read`), and
its problems are located by the names as typed.
"""

from __future__ import annotations

# PyYAML (through havoc.formats.yamlio) is imported only where text is parsed: a position read from
# the cache or given as a mapping never pays for it. Line-aware mappings and lists from
# havoc.formats.yamlio are recognised by their line bookkeeping.
from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.core.record import field, record
from havoc.formats.spec import (
    KeySet,
    Spec,
    _ml,
    json_schema,
)
from havoc.games.cry_havoc.contract import (
    FACTIONS,
    P_ACTIONS_PER_ROUND,
    P_BATTLE_TOKENS,
    P_MAX_ROUNDS,
    PHASES,
    SKILL_STATES,
    STEPS,
    TERRAINS,
    TROG_TOKENS,
    TROGS,
)
from havoc.language.i18n import ui

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Final

    from havoc.engine.rulebook.model import Ruleset

# The most items each list and map of a table may hold (issue 36). Each is a few times what the
# rules allow, so a table a person writes never meets one; a longer one is refused (a located
# problem naming the field and the limit) before a name in it is read or a problem worded about
# its items, and together they bound the work any table costs (benchmarks/bench_hostile.py).
MOST_FACTIONS: Final = 16
"""players, initiative, upcoming-initiative: 2 to 4 players, 5 factions with the Trogs; more
than 5 only to word a faction written twice as such."""
MAX_REGIONS: Final = 64
"""regions, controlled-at-action-start: twice the 32 Regions of the printed board (the Regions
of the rules' vocabulary)."""
MOST_NEIGHBOURS: Final = 16
"""A Region's adjacent Regions: twice the most a Region of the board borders (8)."""
MOST_STRUCTURES: Final = 16
"""A Region's Structures: one of each type may stand in a Region (the rules)."""
MOST_SKILLS: Final = 64
"""A faction's Skills: more than twice the game's 28 Skill cards."""
MOST_EVENTS: Final = 64
"""Event stacks on the Score track: one a spot, the track has 50."""


# --- the field table ------------------------------------------------------------


def _int(doc: str, minimum: int = 0) -> Spec:
    return Spec("int", doc, minimum=minimum)


def _bool(doc: str) -> Spec:
    return Spec("bool", doc)


def _enum(doc: str, choices: tuple[str, ...], names: str = "") -> Spec:
    return Spec("enum", doc, choices=choices, names=names)


def _faction_enum(doc: str) -> Spec:
    """A faction, by ID or by name ("Ludzie")."""
    return _enum(doc, FACTIONS, "factions")


FACTION = _faction_enum("A faction.")


def _unknown_faction(name: str, choices: str, lang: str) -> str:
    return ui("unknown faction {name}; expected one of {choices}", lang).format(name=name, choices=choices)


FACTION_KEYS = KeySet(FACTIONS, _unknown_faction, "factions")
REGION_REF = Spec("id", "The ID of a Region listed under `regions`.", names="regions")

STRUCTURE = Spec(
    "object",
    "A Structure standing in the Region.",
    fields={"type": Spec("id", "The Structure type, e.g. harvester.", names="structures"), "owner": FACTION},
    required=("type", "owner"),
)
BATTLE = Spec(
    "object",
    "The Battle token on the Region: its number (the battle order) and the attacking faction.",
    fields={
        "token": _int("The number on the Battle token (battles are resolved in rising order).", 1),
        "attacker": FACTION,
        "to-play": _faction_enum(
            "Whose turn it is in the Battle's Tactics exchange: the side that plays a card or passes next "
            "(left out: not known, and a question it decides cannot be answered)."
        ),
    },
    required=("token",),
)
REGION = Spec(
    "object",
    "One Region of the board (only the Regions a question is about are needed).",
    fields={
        "terrain": _enum("The Region's terrain; leave out for outer Regions, which have none.", TERRAINS, "terrains"),
        "adjacent": Spec(
            "list",
            "Regions adjacent to this one (shared edge or opposite outer Regions).",
            item=REGION_REF,
            most=MOST_NEIGHBOURS,
        ),
        "outer": _bool("An outer Region at the planet's edge, marked with an arrow."),
        "hq": _faction_enum("The faction whose HQ is in this Region."),
        "tunnel": _bool("The Region holds a Tunnel (printed or built); Trogs treat Tunnel Regions as adjacent."),
        "units": Spec(
            "map", "Units per faction in the Region.", keys=FACTION_KEYS, item=_int("Units of this faction.")
        ),
        "control": _faction_enum("The faction whose Control token lies here."),
        "crystals": _int("The Crystal value in the Region (green 1, yellow 3, red 5, added up)."),
        "battle": BATTLE,
        "structures": Spec("list", "Structures standing in the Region.", item=STRUCTURE, most=MOST_STRUCTURES),
        "trog-token": _enum("A face-down Trog token: a War Party or a Nest.", TROG_TOKENS, "trog-tokens"),
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
            keys=FACTION_KEYS,
            item=_int("Prisoners of that faction."),
        ),
        "skills": Spec(
            "map",
            "Skill cards by ID: ready or exhausted.",
            item=_enum("The Skill's state.", SKILL_STATES, "skill-states"),
            names="skills",
            most=MOST_SKILLS,
        ),
        "hand": _int("Cards in hand."),
        "passed": _bool("Passed in the tactics step of the current battle."),
        "controlled-at-action-start": Spec(
            "list",
            "Regions this faction controlled when the current action began.",
            item=REGION_REF,
            most=MAX_REGIONS,
        ),
    },
)
EVENT_STACK = Spec(
    "object",
    "An unresolved Event stack on the Score track.",
    fields={
        "at": _int("The Score track spot (VP, from 0) the stack lies on."),
        "tokens": _int("How many face-down Event tokens the stack holds (default 1).", 1),
    },
    required=("at",),
)
SCORING = Spec(
    "object",
    "The scoring state of the round.",
    fields={
        "enabled-by": _faction_enum("The faction that enabled scoring this round."),
        "final-round": _bool("The Enable Final Scoring event has been resolved: this is the last round."),
        "events": Spec(
            "list",
            "The unresolved Event stacks on the Score track, by their spots (the printed spots are not in our sources).",
            item=EVENT_STACK,
            most=MOST_EVENTS,
        ),
    },
)
ALL_STEPS: Final = tuple(sorted({s for steps in STEPS.values() for s in steps}))
FIELDS: Final[Mapping[str, Spec]] = {
    "players": Spec(
        "list", "The factions in the game (the Trogs only when a player plays them).", item=FACTION, most=MOST_FACTIONS
    ),
    "variant": Spec("id", "The variant in force (e.g. solo); left out for the base game."),
    "round": _int("The current round, from 1.", 1),
    "phase": _enum("The current phase.", PHASES, "phases"),
    "step": _enum("The step within the phase.", ALL_STEPS, "steps"),
    "action-round": _int("The action round of the Actions phase, from 1.", 1),
    "turn": _faction_enum("The faction whose turn it is."),
    "initiative": Spec("list", "The Initiative track, first to last.", item=FACTION, most=MOST_FACTIONS),
    "upcoming-initiative": Spec(
        "list",
        "The Upcoming Initiative track, first to last (an Initiative card's answer gives its new order).",
        item=FACTION,
        most=MOST_FACTIONS,
    ),
    "scoring": SCORING,
    "factions": Spec(
        "map", "Per faction: VP, Reserve, prisoners, Skills, hand.", keys=FACTION_KEYS, item=FACTION_STATE
    ),
    "regions": Spec("map", "The Regions the question is about, by ID.", item=REGION, names="regions", most=MAX_REGIONS),
}
TOP: Final = Spec("object", "A Cry Havoc position.", fields=FIELDS, required=("players",))


# --- the typed model --------------------------------------------------------------


@record(frozen=True)
class Battle:
    token: int
    attacker: str | None = None  # None: the table does not say (read it through attacker_of)
    to_play: str | None = None  # whose turn it is in the Tactics exchange (None: not known)


def attacker_of(pos: Position, region: Region) -> str:
    """The attacker of the Battle in ``region``: a table may leave it out (a Build elsewhere needs
    no attacker), and a question whose answer reads it is then refused naming the field, never
    answered from a guess."""
    battle = region.battle
    assert battle is not None
    if battle.attacker is None:
        raise InputError(
            [
                Problem(
                    pos.name,
                    None,
                    f"regions.{region.id}.battle.attacker: "
                    + ui("not given, and this question needs the Battle's attacker", _ml()),
                    code=Code.POSITION_MISSING,
                )
            ]
        )
    return battle.attacker


def defender_of(pos: Position, region: Region) -> str | None:
    """The defender of the Battle in ``region`` (None: no other side has Units there); its
    attacker must be given (:func:`attacker_of`)."""
    attacker_of(pos, region)
    return region.defender()


@record(frozen=True)
class Structure:
    type: str
    owner: str


@record
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
        """The side that is not the attacker (None without a Battle or with its attacker not
        given: :func:`defender_of` refuses that instead of guessing)."""
        if self.battle is None or self.battle.attacker is None:
            return None
        others = [f for f in self.sides() if f != self.battle.attacker]
        return others[0] if others else None


@record
class FactionState:
    vp: int = 0
    reserve: int | None = None
    prisoners: dict[str, int] = field(default_factory=dict)
    skills: dict[str, str] = field(default_factory=dict)
    hand: int | None = None
    passed: bool = False
    controlled_at_action_start: tuple[str, ...] | None = None


@record
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
    events: tuple[tuple[int, int], ...] = ()  # unresolved Event stacks on the Score track: (spot, tokens)
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


def _param_int(rs: Ruleset | None, name: str) -> int | None:
    if rs is None or name not in rs.params:
        return None
    value = rs.param(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def position_schema(rs: Ruleset | None = None) -> dict[str, Any]:
    """The JSON Schema of positions, generated from the same field table the validator reads.

    With a ruleset, the limits that are rule parameters (rounds, action rounds, Battle tokens)
    are filled in as maximums.
    """
    schema = json_schema(TOP)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://havoc.invalid/schema/position.json",
        "title": "Cry Havoc position",
        **schema,
    }
    props = schema["properties"]
    players = props["players"]  # what the validator also checks about the list of players
    players.setdefault("minItems", 2)
    players.setdefault("maxItems", len(FACTIONS))
    players.setdefault("uniqueItems", True)
    for key, pname in (("round", P_MAX_ROUNDS), ("action-round", P_ACTIONS_PER_ROUND)):
        value = _param_int(rs, pname)
        if value is not None:
            props[key]["maximum"] = value
    tokens = _param_int(rs, P_BATTLE_TOKENS)
    if tokens is not None:
        props["regions"]["additionalProperties"]["properties"]["battle"]["properties"]["token"]["maximum"] = tokens
    return schema


def _faction(key: str) -> Any:
    from havoc.games.cry_havoc.ui import faction_name

    return faction_name(key, _ml())
