"""Every fact of ``rules/cry-havoc/facts.yaml``, implemented once, in a registry keyed by name.

A fact reads the position (and the question) and returns a bool, a whole number or a
string. Region facts are written once for ``region.*`` and serve ``from.*`` and ``to.*``
too. A test asserts that this registry and ``facts.yaml`` list exactly the same facts, so
the documentation the site shows under a rule is what the assistant really checks.
"""

from __future__ import annotations

from _collections_abc import Callable  # collections.abc without importing collections

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.engine.interpreter.engine import fact_names
from havoc.games.cry_havoc.contract import TROGS
from havoc.games.cry_havoc.kept import reserve as kept_reserve
from havoc.games.cry_havoc.position import Position, Region, attacker_of, defender_of
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.ui import message_language as _ml
from havoc.games.cry_havoc.ui import region_names, ui

if TYPE_CHECKING:
    from typing import Any, Final
else:
    Any = object  # named only in annotations and aliases

SUBJECTS: Final = ("region", "from", "to")


class BattleState:
    """Units on the Battle objectives while a battle is being resolved."""

    __slots__ = ("attacker", "defender", "placed")

    def __init__(self, attacker: str, defender: str, placed: dict[str, dict[str, int]]) -> None:
        self.attacker = attacker
        self.defender = defender
        self.placed = placed

    def opponent(self, side: str) -> str:
        return self.defender if side == self.attacker else self.attacker

    def left(self, side: str) -> int:
        return sum(self.placed.get(side, {}).values())


class Context:
    """One evaluation: the position, the question, the asking faction and the subject Regions.

    ``cache`` memoises facts within the evaluation; ``used`` collects the facts (with their
    values) one rule read, which is what an answer cites. A plain slotted class: one is made
    for every question, so construction cost matters.
    """

    __slots__ = (
        "actor",
        "battle",
        "cache",
        "fig_busy",
        "fig_src",
        "figs",
        "frm",
        "moved",
        "open",
        "pos",
        "q",
        "region",
        "retreat_destinations",
        "steps",
        "to",
        "used",
    )

    def __init__(
        self,
        pos: Position,
        q: Query,
        actor: str | None,
        region: Region | None = None,
        frm: Region | None = None,
        to: Region | None = None,
        battle: BattleState | None = None,
        moved: bool = False,
        steps: int = 1,
        retreat_destinations: int | None = None,
    ) -> None:
        self.pos = pos
        self.q = q
        self.actor = actor
        self.region = region
        self.frm = frm
        self.to = to
        self.battle = battle
        self.moved = moved  # the moving Units entered `from` during this action
        self.steps = steps  # Regions entered by the whole move (1 + those passed through)
        self.retreat_destinations = retreat_destinations  # worked out by the retreat mechanism
        self.cache: dict[str, Any] = {}
        self.open: dict[str, Any] | None = left_out(q)
        self.used: dict[str, Any] = {}
        self.figs: dict[str, Any] = {}
        self.fig_src: dict[str, Callable[[Context], Any]] = {}
        self.fig_busy: set[str] = set()

    def subject(self, name: str) -> Region:
        region = self.region if name == "region" else self.frm if name == "from" else self.to
        if region is None:
            raise InputError(
                [
                    Problem(
                        self.q.name,
                        None,
                        ui("this {kind} question needs {field} (a Region of the position)", _ml()).format(
                            kind=_said(self.q.kind), field=repr(_said(name))
                        ),
                        code=Code.QUERY_MISSING,
                    )
                ]
            )
        return region

    def who(self) -> str:
        if self.actor is None:
            raise InputError(
                [
                    Problem(
                        self.q.name,
                        None,
                        ui("this {kind} question needs {field}", _ml()).format(
                            kind=_said(self.q.kind), field=repr(_said("faction"))
                        ),
                        code=Code.QUERY_MISSING,
                    )
                ]
            )
        return self.actor


FactFn = Callable[[Context], Any]
RegionFactFn = Callable[[Context, Region], Any]


class FactImpl:
    """One fact: its name and type as documented, and the function that reads it."""

    __slots__ = ("fn", "name", "regional", "type")

    def __init__(self, name: str, type_: str, fn: Callable[..., Any], regional: bool) -> None:
        self.name = name
        self.type = type_  # bool | int | string
        self.fn = fn
        self.regional = regional


FACTS: dict[str, FactImpl] = {}


def fact(name: str, type_: str) -> Callable[[FactFn], FactFn]:
    def register(fn: FactFn) -> FactFn:
        FACTS[name] = FactImpl(name, type_, fn, False)
        return fn

    return register


def region_fact(name: str, type_: str) -> Callable[[RegionFactFn], RegionFactFn]:
    assert name.startswith("region.")

    def register(fn: RegionFactFn) -> RegionFactFn:
        FACTS[name] = FactImpl(name, type_, fn, True)
        return fn

    return register


def need(ctx: Context, path: str, what: str) -> InputError:
    """The error for a position that lacks what this question needs."""
    return InputError(
        [
            Problem(
                ctx.pos.name,
                None,
                f"{path}: "
                + ui("needed to answer this {kind} question ({what})", _ml()).format(kind=ctx.q.kind, what=what),
                code=Code.POSITION_MISSING,
            )
        ]
    )


def _all_factions(pos: Position) -> list[str]:
    return [*pos.players, *([TROGS] if TROGS not in pos.players else [])]


# --- game -------------------------------------------------------------------------


@fact("game.phase", "string")
def _phase(ctx: Context) -> str:
    return ctx.pos.phase


@fact("game.round", "int")
def _round(ctx: Context) -> int:
    return ctx.pos.round


@fact("game.action-round", "int")
def _action_round(ctx: Context) -> int:
    return ctx.pos.action_round


@fact("game.player-count", "int")
def _player_count(ctx: Context) -> int:
    return len(ctx.pos.players)


@fact("game.is-final-round", "bool")
def _final(ctx: Context) -> bool:
    return ctx.pos.is_final_round


@fact("game.scoring-enabled", "bool")
def _scoring_enabled(ctx: Context) -> bool:
    return ctx.pos.is_final_round or ctx.pos.scoring_enabled_by is not None


@fact("game.trog-reserve", "int")
def _trog_reserve(ctx: Context) -> int:
    return ctx.pos.reserve(TROGS)


@fact("game.draw-pending", "bool")
def _draw_pending(ctx: Context) -> bool:
    return ctx.pos.phase == "draw-cards" and ctx.pos.step == "draw"


@fact("game.trogs-are-player", "bool")
def _trogs_player(ctx: Context) -> bool:
    return ctx.pos.trogs_are_player


@fact("game.step", "string")
def _step(ctx: Context) -> str:
    return ctx.pos.step or ""


@fact("game.initiative-given", "bool")
def _initiative_given(ctx: Context) -> bool:
    return bool(ctx.pos.initiative)


@fact("game.event-stacks", "int")
def _event_stacks(ctx: Context) -> int:
    return len(ctx.pos.events)


@fact("game.variant", "string")
def _variant(ctx: Context) -> str:
    return ctx.pos.variant or ""


# --- actor ------------------------------------------------------------------------


@fact("actor.has-turn", "bool")
def _has_turn(ctx: Context) -> bool:
    who = ctx.who()
    return ctx.pos.turn is None or ctx.pos.turn == who


@fact("actor.is-trogs", "bool")
def _is_trogs(ctx: Context) -> bool:
    return ctx.who() == TROGS


@fact("actor.reserve", "int")
def _reserve(ctx: Context) -> int:
    return kept_reserve(ctx.pos, ctx.who())  # ctx.pos.reserve(...), once per table


@fact("actor.vp", "int")
def _vp(ctx: Context) -> int:
    return ctx.pos.faction(ctx.who()).vp


@fact("actor.hand-size", "int")
def _hand(ctx: Context) -> int:
    who = ctx.who()
    hand = ctx.pos.faction(who).hand
    if hand is None:
        raise need(ctx, f"factions.{who}.hand", ui("the number of cards in hand", _ml()))
    return hand


@fact("actor.prisoners-held", "int")
def _prisoners_held(ctx: Context) -> int:
    return sum(ctx.pos.faction(ctx.who()).prisoners.values())


@fact("actor.prisoners-not-yet-scored", "int")
def _prisoners_unscored(ctx: Context) -> int:
    pos = ctx.pos
    if pos.phase != "prisoners" or pos.step == "buy-back":
        return 0
    return sum(pos.faction(ctx.who()).prisoners.values())


@fact("actor.own-units-held-as-prisoners", "int")
def _own_held(ctx: Context) -> int:
    return ctx.pos.held_by_others(ctx.who())


@fact("actor.controlled-regions", "int")
def _controlled(ctx: Context) -> int:
    who = ctx.who()
    return sum(1 for r in ctx.pos.regions.values() if r.control == who)


@fact("actor.crystals-controlled", "int")
def _crystals_controlled(ctx: Context) -> int:
    who = ctx.who()
    return sum(r.crystals for r in ctx.pos.regions.values() if r.control == who)


@fact("actor.crystals-held", "int")
def _crystals_held(ctx: Context) -> int:
    who = ctx.who()

    def held(r: Region) -> bool:
        if r.control is not None:
            return r.control == who
        alone = r.units.get(who, 0) > 0 and all(n == 0 for f, n in r.units.items() if f != who)
        nest = who == TROGS and r.trog_token == "nest" and not any(n for f, n in r.units.items() if f != who)
        return alone or nest

    return sum(r.crystals for r in ctx.pos.regions.values() if held(r))


@fact("actor.has-passed", "bool")
def _passed(ctx: Context) -> bool:
    return ctx.pos.faction(ctx.who()).passed


@fact("actor.skill-exhausted", "bool")
def _skill_exhausted(ctx: Context) -> bool:
    who = ctx.who()
    skill = ctx.q.skill
    if skill is None:
        raise InputError(
            [
                Problem(
                    ctx.q.name,
                    None,
                    "skill: " + ui("name the Skill this question is about", _ml()),
                    code=Code.QUERY_MISSING,
                )
            ]
        )
    return ctx.pos.faction(who).skills.get(skill) == "exhausted"


@fact("actor.enabled-scoring", "bool")
def _enabled_scoring(ctx: Context) -> bool:
    return ctx.pos.scoring_enabled_by == ctx.who()


@fact("actor.initiative", "int")
def _initiative_spot(ctx: Context) -> int:
    who = ctx.who()
    if not ctx.pos.initiative:
        raise need(ctx, "initiative", ui("the order of the Initiative track", _ml()))
    return ctx.pos.initiative.index(who) + 1 if who in ctx.pos.initiative else 0


# --- regions (also from.* and to.*) -----------------------------------------------


@region_fact("region.is-battle-region", "bool")
def _is_battle(ctx: Context, r: Region) -> bool:
    return r.battle is not None


@region_fact("region.is-hq", "bool")
def _is_hq(ctx: Context, r: Region) -> bool:
    return r.hq is not None


@region_fact("region.is-own-hq", "bool")
def _is_own_hq(ctx: Context, r: Region) -> bool:
    return r.hq is not None and r.hq == ctx.who()


@region_fact("region.is-other-hq", "bool")
def _is_other_hq(ctx: Context, r: Region) -> bool:
    return r.hq is not None and r.hq != ctx.who()


@region_fact("region.is-outer", "bool")
def _is_outer(ctx: Context, r: Region) -> bool:
    return r.outer


@region_fact("region.has-terrain", "bool")
def _has_terrain(ctx: Context, r: Region) -> bool:
    return r.terrain is not None


@region_fact("region.terrain", "string")
def _terrain(ctx: Context, r: Region) -> str:
    return r.terrain or ""


@region_fact("region.is-controlled", "bool")
def _is_controlled(ctx: Context, r: Region) -> bool:
    return r.control is not None


@region_fact("region.controlled-by-actor", "bool")
def _controlled_by_actor(ctx: Context, r: Region) -> bool:
    return r.control is not None and r.control == ctx.who()


@region_fact("region.controlled-by-actor-at-action-start", "bool")
def _controlled_at_start(ctx: Context, r: Region) -> bool:
    who = ctx.who()
    at_start = ctx.pos.faction(who).controlled_at_action_start
    if at_start is None:
        return r.control == who
    return r.id in at_start


@region_fact("region.actor-units", "int")
def _actor_units(ctx: Context, r: Region) -> int:
    return r.units.get(ctx.who(), 0)


@region_fact("region.enemy-units", "int")
def _enemy_units(ctx: Context, r: Region) -> int:
    who = ctx.who()
    out = 0
    for f, n in r.units.items():  # a plain loop: read for every move question
        if f != who:
            out += n
    return out


@region_fact("region.has-enemy-units", "bool")
def _has_enemy(ctx: Context, r: Region) -> bool:
    who = ctx.who()
    for f, n in r.units.items():  # noqa: SIM110 - a plain loop: read for every move question
        if n > 0 and f != who:
            return True
    return False


@region_fact("region.has-trog-token", "bool")
def _has_trog_token(ctx: Context, r: Region) -> bool:
    return r.trog_token is not None


@region_fact("region.trog-token", "string")
def _trog_token(ctx: Context, r: Region) -> str:
    return r.trog_token or ""


@region_fact("region.has-exploration", "bool")
def _has_exploration(ctx: Context, r: Region) -> bool:
    return r.exploration


@region_fact("region.crystals", "int")
def _crystals(ctx: Context, r: Region) -> int:
    return r.crystals


@region_fact("region.actor-is-attacker", "bool")
def _is_attacker(ctx: Context, r: Region) -> bool:
    return r.battle is not None and attacker_of(ctx.pos, r) == ctx.who()


@region_fact("region.actor-is-defender", "bool")
def _is_defender(ctx: Context, r: Region) -> bool:
    if r.battle is None:
        return False
    if ctx.battle is not None and r is ctx.region:
        return ctx.battle.defender == ctx.who()
    return defender_of(ctx.pos, r) == ctx.who()


@region_fact("region.actor-to-play-tactics", "bool")
def _to_play(ctx: Context, r: Region) -> bool:
    b = r.battle
    if b is None:
        return False
    if b.to_play is None:
        # the table does not say whose turn it is in the exchange: read as "not yours" and
        # checked again as "yours" (Engine.settle), so a verdict it decides is "cannot tell"
        ctx.open = {**(ctx.open or {}), "region.actor-to-play-tactics": True}
        return False
    return b.to_play == ctx.who()


@region_fact("region.opponent-has-passed", "bool")
def _opponent_passed(ctx: Context, r: Region) -> bool:
    b = r.battle
    if b is None:
        return False
    who = ctx.who()
    attacker = attacker_of(ctx.pos, r)
    other = (
        (ctx.battle.defender if ctx.battle is not None and r is ctx.region else r.defender())
        if who == attacker
        else attacker
    )
    return other is not None and ctx.pos.faction(other).passed


@region_fact("region.has-query-structure", "bool")
def _has_structure(ctx: Context, r: Region) -> bool:
    kind = _structure(ctx)
    return any(s.type == kind for s in r.structures)


@region_fact("region.query-structure-owned-by-actor", "bool")
def _structure_owned(ctx: Context, r: Region) -> bool:
    kind, who = _structure(ctx), ctx.who()
    return any(s.type == kind and s.owner == who for s in r.structures)


def _structure(ctx: Context) -> str:
    if ctx.q.structure is None:
        raise InputError(
            [
                Problem(
                    ctx.q.name,
                    None,
                    "structure: " + ui("name the Structure type this question is about", _ml()),
                    code=Code.QUERY_MISSING,
                )
            ]
        )
    return ctx.q.structure


# --- query ------------------------------------------------------------------------


@fact("query.units", "int")
def _q_units(ctx: Context) -> int:
    return ctx.q.units if ctx.q.units is not None else 1


@fact("query.points", "int")
def _q_points(ctx: Context) -> int:
    # left out: 0 stands in, and the engine checks again with plenty (Context.open), so a rule
    # the points decide is "not checked" rather than failed as if nothing were spent
    return ctx.q.points or 0


# More points than any action can spend: the other end of "points not given".
_PLENTY = 1_000_000
_POINTS_OPEN: dict[str, Any] = {"query.points": _PLENTY}


def left_out(q: Query) -> dict[str, Any] | None:
    """The facts question ``q`` leaves out, each with the value farthest from its stand-in
    (:meth:`~havoc.engine.interpreter.engine.Engine.settle`): points not given are read as 0 and
    checked again as plenty. A context's ``open`` starts as this (a fact of the table may add
    itself when read); a context reused for another question is given it again."""
    return _POINTS_OPEN if q.points is None else None


@fact("query.item", "string")
def _q_item(ctx: Context) -> str:
    return ctx.q.item or ""


@fact("query.experience", "string")
def _q_experience(ctx: Context) -> str:
    return ctx.q.experience or "beginner"


@fact("query.deck", "string")
def _q_deck(ctx: Context) -> str:
    return ctx.q.deck or "own"


@fact("query.card-terrain", "string")
def _q_card_terrain(ctx: Context) -> str:
    return ctx.q.card_terrain or ""


@fact("query.activations-this-action", "int")
def _q_activations(ctx: Context) -> int:
    return ctx.q.activations


@fact("query.during-action", "bool")
def _q_during(ctx: Context) -> bool:
    if ctx.q.during_action is not None:
        return ctx.q.during_action
    return ctx.pos.step == "during-action"


@fact("query.scoring-enabled-this-round", "bool")
def _q_scoring_enabled(ctx: Context) -> bool:
    return ctx.pos.scoring_enabled_by is not None


@fact("query.position", "int")
def _q_position(ctx: Context) -> int:
    return ctx.q.position or 0


@fact("query.cost", "int")
def _q_cost(ctx: Context) -> int:
    return (ctx.q.cost or 0) + ctx.q.other_cost


@fact("query.steps", "int")
def _q_steps(ctx: Context) -> int:
    return ctx.steps


# --- move -------------------------------------------------------------------------


def _tunnel(ctx: Context, r: Region) -> bool:
    return r.tunnel or any(s.type == "tunnel" for s in r.structures)


@fact("move.adjacent", "bool")
def _adjacent(ctx: Context) -> bool:
    a, b = ctx.subject("from"), ctx.subject("to")
    if b.id in a.neighbours:
        return True
    return ctx.who() == TROGS and _tunnel(ctx, a) and _tunnel(ctx, b)


@fact("move.via-tunnel", "bool")
def _via_tunnel(ctx: Context) -> bool:
    a, b = ctx.subject("from"), ctx.subject("to")
    return b.id not in a.neighbours and _tunnel(ctx, a) and _tunnel(ctx, b)


@fact("move.unit-stopped", "bool")
def _stopped(ctx: Context) -> bool:
    a = ctx.subject("from")
    if not ctx.moved:
        return False
    who = ctx.who()
    return a.trog_token is not None or any(n > 0 for f, n in a.units.items() if f != who)


# --- battle -----------------------------------------------------------------------


def _battle_region(ctx: Context) -> Region:
    r = ctx.subject("region")
    if r.battle is None:
        raise InputError(
            [
                Problem(
                    ctx.q.name,
                    None,
                    "region: "
                    + ui("{region} holds no Battle token", _ml()).format(
                        region=region_names(ctx.pos.regions, _ml())[r.id]
                    ),
                    code=Code.POSITION_NO_BATTLE,
                )
            ]
        )
    return r


def _sides(ctx: Context) -> tuple[str, str | None]:
    if ctx.battle is not None:
        return ctx.battle.attacker, ctx.battle.defender
    r = _battle_region(ctx)
    assert r.battle is not None
    return attacker_of(ctx.pos, r), r.defender()


@fact("battle.attacker-units", "int")
def _b_attacker_units(ctx: Context) -> int:
    attacker, _ = _sides(ctx)
    return ctx.subject("region").units.get(attacker, 0)


@fact("battle.defender-units", "int")
def _b_defender_units(ctx: Context) -> int:
    _, defender = _sides(ctx)
    return ctx.subject("region").units.get(defender, 0) if defender else 0


@fact("battle.involves-neutral-trogs", "bool")
def _b_neutral(ctx: Context) -> bool:
    if ctx.pos.trogs_are_player:
        return False
    attacker, defender = _sides(ctx)
    return TROGS in (attacker, defender)


@fact("battle.retreat-destinations", "int")
def _b_retreat_destinations(ctx: Context) -> int:
    if ctx.retreat_destinations is None:
        raise InputError(
            [
                Problem(
                    ctx.q.name,
                    None,
                    "ask: " + ui("only a retreat question works out where Units may retreat", _ml()),
                    code=Code.QUERY_KIND,
                )
            ]
        )
    return ctx.retreat_destinations


@fact("battle.one-side-gone", "bool")
def _b_one_side_gone(ctx: Context) -> bool:
    return len(_battle_region(ctx).sides()) < 2


_NONE_PLACED: dict[str, int] = {}


def _placed(ctx: Context, side: str, objective: str) -> int:
    if ctx.battle is None:
        raise InputError(
            [
                Problem(
                    ctx.q.name,
                    None,
                    "objectives: " + ui("give the Units each side placed on the Battle objectives", _ml()),
                    code=Code.POSITION_MISSING,
                )
            ]
        )
    return ctx.battle.placed.get(side, {}).get(objective, 0)


def _opponent(ctx: Context) -> str:
    if ctx.battle is None:
        raise InputError(
            [
                Problem(
                    ctx.q.name,
                    None,
                    "objectives: " + ui("give the Units each side placed on the Battle objectives", _ml()),
                    code=Code.POSITION_MISSING,
                )
            ]
        )
    return ctx.battle.opponent(ctx.who())


def _objective_facts(objective: str) -> None:
    # read at every step of every Battle, for both sides: the usual case (a Battle being
    # resolved, a side asking) in a few lookups; anything else by the checked path (its error)
    def mine(ctx: Context) -> int:
        battle, actor = ctx.battle, ctx.actor
        if battle is None or actor is None:
            return _placed(ctx, ctx.who(), objective)
        return battle.placed.get(actor, _NONE_PLACED).get(objective, 0)

    def theirs(ctx: Context) -> int:
        battle, actor = ctx.battle, ctx.actor
        if battle is None or actor is None:
            return _placed(ctx, _opponent(ctx), objective)
        other = battle.defender if actor == battle.attacker else battle.attacker
        return battle.placed.get(other, _NONE_PLACED).get(objective, 0)

    fact(f"battle.actor-on-{objective}", "int")(mine)
    fact(f"battle.enemy-on-{objective}", "int")(theirs)


for _objective in ("control", "prisoners", "attrition"):
    _objective_facts(_objective)


# --- lookups ----------------------------------------------------------------------


def resolve(name: str) -> tuple[FactImpl, str | None] | None:
    """The implementation of a fact name as written in a check, and its subject Region."""
    impl = FACTS.get(name)
    if impl is not None:
        return (impl, "region") if impl.regional else (impl, None)
    head, _, rest = name.partition(".")
    if head in SUBJECTS:
        impl = FACTS.get(f"region.{rest}")
        if impl is not None and impl.regional:
            return impl, head
    return None


def all_factions(pos: Position) -> list[str]:
    """The players, then the neutral Trogs when they are not one."""
    return _all_factions(pos)


_NEEDS_BY_FACT = {
    "actor.skill-exhausted": "skill",
    "region.has-query-structure": "structure",
    "region.query-structure-owned-by-actor": "structure",
}


def needs_of(*exprs: Any) -> frozenset[str]:
    """What a rule's check reads that only some questions supply (so a probe can skip it)."""
    needs: set[str] = set()
    for e in exprs:
        for name in fact_names(e):
            head, _, rest = name.partition(".")
            if head in ("from", "to", "region"):
                needs.add(head)
                tail = f"region.{rest}"
            elif head == "move":
                needs.update(("from", "to"))
                tail = name
            elif head == "battle":
                needs.add("region")
                if rest.startswith(("actor-on-", "enemy-on-")):
                    needs.add("objectives")
                tail = name
            else:
                tail = name
            if tail in _NEEDS_BY_FACT:
                needs.add(_NEEDS_BY_FACT[tail])
    return frozenset(needs)


def _said(word: str) -> str:
    """A question's kind or field as a player types it in the message's language (never the
    machine word in a Polish message)."""
    from havoc.games.cry_havoc.query import _typed_names  # the typed question's own names

    return _typed_names(_ml())(word)
