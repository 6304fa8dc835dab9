"""The solo Trogs decide: the variant's priority list run as a mechanism over a position.

Which priorities exist, their order (ranks), every threshold (the defenceless margin, how many
Units win an objective, the Traps in supply, where Prisoners come from) and every documented
reading of an open point are parameters of the solo overlay (``rules/cry-havoc/variants/
solo.yaml``). This module only knows *how* to apply them: filter candidates priority by
priority, count steps along the neighbours the position lists, fill objectives in order.
Each decision names the rule that decided it, the candidates it set aside with the reason
each lost, and the readings (``interpretation: true`` rules) it relied on.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from havoc.errors import InputError, Problem, RulebookError
from havoc.games.cry_havoc.contract import OBJECTIVES, TROGS
from havoc.games.cry_havoc.position import Position, Region
from havoc.games.cry_havoc.ui import faction_name, faction_owner, region_names
from havoc.grammar import Noun
from havoc.i18n import message_language, nui, ui
from havoc.rulebook.model import Ruleset

VARIANT = "solo"
KINDS = ("move", "place", "build", "recruit", "tactics", "prisoner", "initiative")


@dataclass(frozen=True)
class AskedWith:
    """One thing a decision is asked with: its key in the question (``havoc trogs``' options, the
    API's ``question``) and its kind of value. The site's Trogs page builds its form from these."""

    name: str
    type: str  # "count" (a whole number), "region" (one of the table's), "flag", "objectives"
    needed: bool = False
    default: bool | None = None  # a flag's value when the question leaves it out


# What each decision reads from its question (the deciders below read exactly these keys).
FIELDS: dict[str, tuple[AskedWith, ...]] = {
    "move": (AskedWith("from", "region"), AskedWith("units", "count"), AskedWith("steps", "count")),
    "place": (AskedWith("region", "region", needed=True), AskedWith("objectives", "objectives")),
    "build": (AskedWith("both", "flag", default=False),),
    "recruit": (AskedWith("units", "count", needed=True),),
    "tactics": (
        AskedWith("region", "region", needed=True),
        AskedWith("objectives", "objectives"),
        AskedWith("tactic-text", "flag", default=True),
    ),
    "prisoner": (
        AskedWith("shifted-priorities", "flag", default=False),
        AskedWith("region", "region"),
        AskedWith("objectives", "objectives"),
    ),
    "initiative": (),
}
TRAP = "trap"  # Structure type IDs of the position format
BROODING_POOL = "brooding-pool"

# Rule IDs of the solo overlay this mechanism cites (their content and numbers stay in YAML).
R_PRIORITIES = "solo-priorities"
R_DEFENCELESS = "solo-priority-defenceless"
R_CRYSTALS = "solo-priority-crystals"
R_NEAR_HQ = "solo-priority-near-hq"
R_NEAR_ENEMY = "solo-priority-near-enemy"
R_HQ_UNITS = "solo-priority-hq-units"
R_WAR_PARTY = "solo-war-party"
R_RECRUIT = "solo-recruit"
R_BUILD = "solo-build"
R_PLACE = "solo-battle-trog-placement"
R_TACTICS = "solo-battle-tactics"
R_PRISONERS = "solo-prisoners"
R_TURN = "solo-trog-turn-order"
R_UNUSED = "solo-unused-regions"
R_NO_OTHER_HQ = "move-no-other-hq"
R_NO_BATTLE_ENTRY = "battle-region-no-entry"
I_EMPTY = "solo-interp-empty-region"
I_FULL_TIE = "solo-interp-full-tie"
I_PRISONERS_TIE = "solo-interp-prisoners-tie"
I_LEFTOVER = "solo-interp-leftover-units"
I_DISTANCE = "solo-interp-distance"
I_BUILD_SITE = "solo-interp-build-site"

# Each region priority: its rule and the parameter holding its rank.
RANKS = {
    R_DEFENCELESS: "solo-rank-defenceless",
    R_CRYSTALS: "solo-rank-crystals",
    R_NEAR_HQ: "solo-rank-near-hq",
    R_NEAR_ENEMY: "solo-rank-near-enemy",
    R_HQ_UNITS: "solo-rank-hq-units",
}
FAR = 10**9  # an unreachable Region: farther than any reachable one (solo-interp-distance)


@dataclass
class SetAside:
    """A candidate the Trogs did not choose, the rule that set it aside and why."""

    option: str
    rule: str
    reason: str


@dataclass
class TrogDecision:
    """What the Trogs do, the rule that decided it, what lost and which readings applied."""

    kind: str
    question: str
    choice: str | None
    rule: str | None
    lang: str
    tied: list[str] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    interpretations: list[str] = field(default_factory=list)
    also: list[str] = field(default_factory=list)  # further rules the decision applied
    figures: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)  # rule ID → title in ``lang``
    names: dict[str, str] = field(default_factory=dict)  # Region ID → its name in ``lang``

    @property
    def verdict(self) -> bool:
        """A decision was reached (False: the Trogs do nothing, or the player must choose)."""
        return self.choice is not None

    @property
    def rule_ids(self) -> list[str]:
        ids = ([self.rule] if self.rule else []) + self.also + self.interpretations
        return list(dict.fromkeys(ids))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "question": self.question,
            "choice": self.choice,
            "tied": self.tied,
            "rule": self.rule,
            "rule-title": self.titles.get(self.rule or "", ""),
            "set-aside": [
                {
                    "option": s.option,
                    "option-name": self.names.get(s.option, s.option),
                    "rule": s.rule,
                    "rule-title": self.titles.get(s.rule, ""),
                    "reason": s.reason,
                }
                for s in self.set_aside
            ],
            "interpretations": [{"rule": i, "title": self.titles.get(i, "")} for i in self.interpretations],
            "rules": self.rule_ids,
            "figures": self.figures,
            "lines": self.lines,
            "lang": self.lang,
        }


# --- the table as the Trogs see it -----------------------------------------------------------


class Table:
    """A solo position with the Trogs' HQ, the player and the distances the priorities need."""

    def __init__(self, rs: Ruleset, pos: Position, lang: str) -> None:
        self.rs, self.pos, self.lang = rs, pos, lang
        self._names: dict[str, Noun] | None = None
        if pos.variant != VARIANT:
            found = repr(pos.variant) if pos.variant else ui("none (the base game)", lang)
            raise InputError(
                [
                    Problem(
                        pos.name,
                        None,
                        "variant: "
                        + ui(
                            "the Trogs decide only in the solo variant; expected variant: solo, found {found}", lang
                        ).format(found=found),
                    )
                ]
            )
        hq = pos.hq_of(TROGS)
        if hq is None:
            raise InputError(
                [
                    Problem(
                        pos.name,
                        None,
                        "regions: "
                        + ui("no Region has hq: trogs; the solo Trogs need their HQ (the centre Region)", lang),
                    )
                ]
            )
        self.hq: Region = hq
        humans = [f for f in pos.players if f != TROGS]
        if len(humans) != 1:
            raise InputError(
                [
                    Problem(
                        pos.name,
                        None,
                        "players: "
                        + ui("the solo variant has exactly one player besides the Trogs, found {count}", lang).format(
                            count=len(humans)
                        ),
                    )
                ]
            )
        self.player = humans[0]
        self.view = rs.view(VARIANT)
        self._dist: dict[tuple[str, ...], dict[str, int]] = {}

    # rules data
    def param(self, name: str) -> Any:
        try:
            return self.rs.param(name)
        except KeyError:
            raise RulebookError(
                [Problem(self.rs.id, None, f"the solo Trogs need parameter {name!r}, which no rule defines")]
            ) from None

    def count(self, name: str) -> int:
        value = self.param(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulebookError([Problem(self.rs.id, None, f"parameter {name!r}: expected a whole number")])
        return value

    def flag(self, name: str) -> bool:
        value = self.param(name)
        if not isinstance(value, bool):
            raise RulebookError([Problem(self.rs.id, None, f"parameter {name!r}: expected true or false")])
        return value

    def objective(self, name: str) -> str:
        value = self.param(name)
        if value not in OBJECTIVES:
            raise RulebookError(
                [Problem(self.rs.id, None, f"parameter {name!r}: expected one of {', '.join(OBJECTIVES)}")]
            )
        return str(value)

    # the board
    def region(self, rid: Any, field_name: str) -> Region:
        if rid is None:
            known = self.known_regions()
            raise InputError(
                [
                    Problem(
                        _where(),
                        None,
                        f"{field_name}: " + ui("missing; name one of: {known}", self.lang).format(known=known),
                    )
                ]
            )
        if not isinstance(rid, str) or rid not in self.pos.regions:
            # what to type (the ID) after the name a player knows: "Groty Świata (world-caverns)"
            known = self.known_regions()
            raise InputError(
                [
                    Problem(
                        _where(),
                        None,
                        f"{field_name}: "
                        + ui("unknown Region {region}; the position lists: {known}", self.lang).format(
                            region=repr(rid), known=known
                        ),
                    )
                ]
            )
        return self.pos.regions[rid]

    def links(self, rid: str) -> set[str]:
        """Neighbours for the Trogs: listed adjacency, and every other Tunnel Region from a Tunnel."""
        region = self.pos.regions[rid]
        out = set(region.neighbours)
        if region.tunnel:
            out |= {r.id for r in self.pos.regions.values() if r.tunnel and r.id != rid}
        return out

    def distances(self, sources: list[str]) -> dict[str, int]:
        """Steps from the nearest source to every Region (BFS); unreachable Regions are absent."""
        key = tuple(sorted(sources))
        found = self._dist.get(key)
        if found is None:
            found = {s: 0 for s in sources}
            todo = deque(sources)
            while todo:
                here = todo.popleft()
                for nxt in sorted(self.links(here)):
                    if nxt in self.pos.regions and nxt not in found:
                        found[nxt] = found[here] + 1
                        todo.append(nxt)
            self._dist[key] = found
        return found

    def enemy(self, region: Region) -> int:
        return region.units.get(self.player, 0)

    def trogs(self, region: Region) -> int:
        return region.units.get(TROGS, 0)

    def fname(self, faction: str) -> Noun:
        return faction_name(faction, self.lang)

    def rname(self, rid: str) -> Noun:
        """A Region by its name in the table's language ("Groty Świata", "Region A")."""
        if self._names is None:
            self._names = region_names(self.pos.regions, self.lang)
        return self._names.get(rid) or Noun.plain(rid)

    def known_regions(self) -> str:
        """The table's Regions for a player to type: "Groty Świata (world-caverns), Region north"."""
        return (
            ", ".join(
                str(self.rname(k)) if k in str(self.rname(k)) else f"{self.rname(k)} ({k})" for k in self.pos.regions
            )
            or "—"
        )

    def rnames(self, rids: list[str]) -> Noun:
        return Noun.join([self.rname(r) for r in rids]) if rids else Noun.plain("—")

    def units(self, n: int) -> str:
        return nui("Unit", "Units", n, self.lang)


# --- choosing a Region by the priorities --------------------------------------------------------


@dataclass
class _Pick:
    chosen: list[str]
    rule: str | None
    set_aside: list[SetAside]
    interpretations: list[str]


def pick_region(table: Table, candidates: list[str], arriving: int) -> _Pick:
    """Run the priorities in rank order over ``candidates``; ``arriving`` Trogs would move in."""
    lang = table.lang
    aside: list[SetAside] = []
    interps: list[str] = []
    if len(candidates) <= 1:
        return _Pick(candidates, R_PRIORITIES if candidates else None, aside, interps)
    regions = table.pos.regions
    margin = table.count("solo-defenceless-margin")
    empty_counts = table.flag("solo-empty-defenceless")

    def defenceless(rid: str) -> tuple[bool, str]:
        r = regions[rid]
        mine, theirs = table.trogs(r) + arriving, table.enemy(r)
        if theirs == 0 and not empty_counts:
            if I_EMPTY not in interps:
                interps.append(I_EMPTY)
            return False, ui("the {faction} have no Units there: an empty Region is not defenceless", lang).format(
                faction=table.fname(table.player)
            )
        ok = mine - theirs >= margin
        return ok, ui("the Trogs would have {mine} against {theirs}: not a majority", lang).format(
            mine=mine, theirs=theirs
        )

    hq_dist = table.distances([table.hq.id])
    enemy_at = [r.id for r in regions.values() if table.enemy(r) > 0]
    enemy_word = ui("the {owner} Units", lang).format(owner=faction_owner(table.player, lang))
    if not enemy_at:
        enemy_at = [r.id for r in regions.values() if r.control == table.player]
        enemy_word = ui("a Region the {faction} control", lang).format(faction=table.fname(table.player))
    enemy_dist = table.distances(enemy_at) if enemy_at else {}

    def step_text(d: int) -> str:
        return ui("unreachable", lang) if d >= FAR else f"{d} " + nui("step", "steps", d, lang)

    def keep_best(
        rids: list[str], rule: str, score: Callable[[str], int], why: Callable[[int, int], str], higher: bool = False
    ) -> list[str]:
        """Keep the best-scoring candidates; set the others aside with ``why(their score, best)``."""
        scores = {rid: score(rid) for rid in rids}
        best = max(scores.values()) if higher else min(scores.values())
        kept = [rid for rid in rids if scores[rid] == best]
        aside.extend(SetAside(rid, rule, why(scores[rid], best)) for rid in rids if rid not in kept)
        return kept

    def p_defenceless(rids: list[str]) -> list[str]:
        rated = [(rid, *defenceless(rid)) for rid in rids]
        kept = [rid for rid, ok, _ in rated if ok]
        if not kept:
            return rids  # nobody is defenceless: this priority does not decide
        aside.extend(SetAside(rid, R_DEFENCELESS, why) for rid, ok, why in rated if not ok)
        return kept

    def p_crystals(rids: list[str]) -> list[str]:
        return keep_best(
            rids,
            R_CRYSTALS,
            lambda rid: regions[rid].crystals,
            lambda this, best: ui("Crystals {this}, another Region has {best}", lang).format(this=this, best=best),
            higher=True,
        )

    def p_near_hq(rids: list[str]) -> list[str]:
        if I_DISTANCE not in interps:
            interps.append(I_DISTANCE)
        return keep_best(
            rids,
            R_NEAR_HQ,
            lambda rid: hq_dist.get(rid, FAR),
            lambda this, best: ui("{this} from the Trog HQ, another Region is {best} away", lang).format(
                this=step_text(this), best=step_text(best)
            ),
        )

    def p_near_enemy(rids: list[str]) -> list[str]:
        if not enemy_at:
            return rids  # no enemy Units and no enemy-controlled Region: this priority cannot decide
        if I_DISTANCE not in interps:
            interps.append(I_DISTANCE)
        return keep_best(
            rids,
            R_NEAR_ENEMY,
            lambda rid: enemy_dist.get(rid, FAR),
            lambda this, best: ui("{this} from {enemy}, another Region is {best} away", lang).format(
                this=step_text(this), enemy=enemy_word, best=step_text(best)
            ),
        )

    steps: dict[str, Callable[[list[str]], list[str]]] = {
        R_DEFENCELESS: p_defenceless,
        R_CRYSTALS: p_crystals,
        R_NEAR_HQ: p_near_hq,
        R_NEAR_ENEMY: p_near_enemy,
    }
    order = sorted(RANKS, key=lambda rule: (table.count(RANKS[rule]), rule))
    kept = list(candidates)
    for rule in order:
        step = steps.get(rule)
        if step is None:
            continue  # a priority that chooses no Region (Units from the HQ)
        kept = step(kept)
        if len(kept) == 1:
            return _Pick(kept, rule, aside, interps)
    interps.append(I_FULL_TIE)
    return _Pick(kept, None, aside, interps)


# --- the decisions -------------------------------------------------------------------------------


def _where() -> str:
    """Where a question's problem is, in the words ``havoc ask`` uses ("pytanie" in Polish)."""
    return ui("query", message_language())


def _start(table: Table, kind: str, question: str) -> TrogDecision:
    names = {rid: str(table.rname(rid)) for rid in table.pos.regions}
    return TrogDecision(kind=kind, question=question, choice=None, rule=None, lang=table.lang, names=names)


def _int_field(query: Mapping[str, Any], name: str, lang: str, default: int | None = None, minimum: int = 0) -> int:
    value = query.get(name, default)
    if value is None:
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    f"{name}: " + ui("needed: a whole number from {minimum}", lang).format(minimum=minimum),
                )
            ]
        )
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    f"{name}: "
                    + ui("expected a whole number from {minimum}, found {found}", lang).format(
                        minimum=minimum, found=repr(value)
                    ),
                )
            ]
        )
    return value


def _bool_field(query: Mapping[str, Any], name: str, lang: str, default: bool) -> bool:
    value = query.get(name, default)
    if not isinstance(value, bool):
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    f"{name}: " + ui("expected true or false, found {found}", lang).format(found=repr(value)),
                )
            ]
        )
    return value


def decide_move(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Where Trog Units move: the Regions within reach, filtered by the priorities."""
    lang = table.lang
    src = table.region(query.get("from", table.hq.id), "from")
    if table.trogs(src) == 0:
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    "from: "
                    + ui("{region} holds no Trog Units (regions.{region_id}.units.trogs)", lang).format(
                        region=table.rname(src.id), region_id=src.id
                    ),
                )
            ]
        )
    units = _int_field(query, "units", lang, table.trogs(src), minimum=1)
    if units > table.trogs(src):
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    "units: "
                    + ui("{count} Trog Units would move, but {region} holds {have}", lang).format(
                        count=units, region=table.rname(src.id), have=table.trogs(src)
                    ),
                )
            ]
        )
    reach = _int_field(query, "steps", lang, 1, minimum=1)
    d = _start(
        table,
        "move",
        nui(
            "Where does {count} Trog Unit from {region} move?",
            "Where do {count} Trog Units from {region} move?",
            units,
            lang,
        ).format(count=units, region=table.rname(src.id)),
    )
    dist = table.distances([src.id])
    candidates: list[str] = []
    for rid, region in table.pos.regions.items():
        if rid == src.id or rid not in dist or dist[rid] > reach:
            continue
        if region.outer:
            d.set_aside.append(SetAside(rid, R_UNUSED, ui("an outer Region is out of play", lang)))
        elif region.hq is not None and region.hq != TROGS:
            d.set_aside.append(SetAside(rid, R_NO_OTHER_HQ, ui("another faction's HQ cannot be entered", lang)))
        elif region.battle is not None:
            d.set_aside.append(SetAside(rid, R_NO_BATTLE_ENTRY, ui("a Battle Region cannot be entered", lang)))
        elif rid != table.hq.id:
            candidates.append(rid)
    if not candidates:
        raise InputError(
            [
                Problem(
                    table.pos.name,
                    None,
                    f"regions.{src.id}.adjacent: "
                    + ui(
                        "no Region the Trogs may enter is within {steps} of {region}; list its neighbours",
                        lang,
                    ).format(steps=f"{reach} " + nui("step", "steps", reach, lang), region=table.rname(src.id)),
                )
            ]
        )
    pick = pick_region(table, candidates, units)
    _finish_pick(table, d, pick)
    if d.choice is not None:
        target = table.pos.regions[d.choice]
        d.figures = {"to": d.choice, "units": units, "from": src.id, "steps": dist[d.choice]}
        d.lines.insert(
            0,
            ui("The Trogs move {count} {units} from {src} to {dst}.", lang).format(
                count=units, units=table.units(units), src=table.rname(src.id), dst=table.rname(d.choice)
            ),
        )
        if table.enemy(target) > 0:
            d.also.append(R_HQ_UNITS)
            d.figures["battle"] = True
            d.figures["units-from"] = table.hq.id
            d.lines.append(
                ui(
                    "A Battle follows there; the Trog Units that fight in it come from the Trog HQ ({hq}).", lang
                ).format(hq=table.rname(table.hq.id))
            )
        if target.trog_token == "war-party":
            d.also.append(R_WAR_PARTY)
            d.figures["reveals"] = "war-party"
            d.lines.append(
                ui(
                    "The War Party token is revealed: add its Crystals, move its Trog Units to the Reserve and put a Trog Nest there.",
                    lang,
                )
            )
    else:
        d.figures = {"tied": d.tied, "units": units, "from": src.id}
    _titles(table, d)
    return d


def _finish_pick(table: Table, d: TrogDecision, pick: _Pick) -> None:
    lang = table.lang
    d.set_aside.extend(pick.set_aside)
    d.interpretations.extend(i for i in pick.interpretations if i not in d.interpretations)
    if len(pick.chosen) == 1:
        d.choice, d.rule = pick.chosen[0], pick.rule
    else:
        d.tied = pick.chosen
        d.rule = I_FULL_TIE
        d.lines.append(
            ui("Every priority ties between {regions}: choose one of them at random.", lang).format(
                regions=table.rnames(pick.chosen)
            )
        )


def decide_recruit(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Recruited Trogs always go to the Trog HQ, as many as the Reserve holds."""
    lang = table.lang
    want = _int_field(query, "units", lang, minimum=1)
    have = table.pos.reserve(TROGS)
    got = min(want, have)
    d = _start(
        table,
        "recruit",
        nui("Where does {count} recruited Trog go?", "Where do {count} recruited Trogs go?", want, lang).format(
            count=want
        ),
    )
    d.choice, d.rule = table.hq.id, R_RECRUIT
    d.figures = {"to": table.hq.id, "recruited": got, "reserve": have}
    d.lines.append(
        ui("The Trogs recruit {count} {units} into their HQ ({hq}).", lang).format(
            count=got, units=table.units(got), hq=table.hq.id
        )
    )
    if got < want:
        d.lines.append(
            nui(
                "Only {have} Trog Unit is in the Reserve.", "Only {have} Trog Units are in the Reserve.", have, lang
            ).format(have=have)
        )
    _titles(table, d)
    return d


def _structures(table: Table, kind: str) -> list[str]:
    return [r.id for r in table.pos.regions.values() for s in r.structures if s.type == kind and s.owner == TROGS]


def decide_build(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Build a Trap where the priorities say, else activate; a Brooding Pool when Traps are out."""
    lang = table.lang
    both = _bool_field(query, "both", lang, False)
    d = _start(table, "build", ui("What do the Trogs build?", lang))
    d.rule = R_BUILD
    traps, pools = _structures(table, TRAP), _structures(table, BROODING_POOL)
    traps_left = table.count("solo-trog-traps") - len(traps)
    pools_left = table.count("solo-trog-brooding-pools") - len(pools)

    def sites(kind: str) -> list[str]:
        return [
            r.id
            for r in table.pos.regions.values()
            if table.trogs(r) > 0
            and r.hq is None
            and r.battle is None
            and not r.outer
            and not any(s.type == kind for s in r.structures)
        ]

    wanted: list[str] = []
    if traps_left > 0:
        wanted.append(TRAP)
    if pools_left > 0 and (traps_left <= 0 or both):
        wanted.append(BROODING_POOL)
    built: dict[str, str] = {}
    if wanted:
        d.interpretations.append(I_BUILD_SITE)
    for kind in wanted:
        where = sites(kind)
        if not where:
            continue
        pick = pick_region(table, where, 0)
        if len(pick.chosen) != 1:
            _finish_pick(table, d, pick)
            d.figures = {"build": kind, "tied": d.tied}
            d.choice = None
            _titles(table, d)
            return d
        d.set_aside.extend(pick.set_aside)
        d.interpretations.extend(i for i in pick.interpretations if i not in d.interpretations)
        if pick.rule and pick.rule != R_PRIORITIES:
            d.also.append(pick.rule)
        built[kind] = pick.chosen[0]
    if built:
        d.choice = "build"
        d.figures = {"build": built}
        for kind, rid in built.items():
            line = (
                ui("The Trogs build a Trap in {region}.", lang)
                if kind == TRAP
                else ui("The Trogs build a Brooding Pool in {region}.", lang)
            )
            d.lines.append(line.format(region=table.rname(rid)))
    elif traps or pools:
        d.choice = "activate"
        d.figures = {"activate": traps + pools}
        d.lines.append(
            ui("The Trogs activate their Traps ({traps}), then their Brooding Pools ({pools}).", lang).format(
                traps=table.rnames(traps), pools=table.rnames(pools)
            )
        )
    else:
        d.choice = "nothing"
        d.figures = {}
        d.lines.append(ui("Nothing happens: the Trogs can build nothing and have nothing to activate.", lang))
    _titles(table, d)
    return d


def _battle(table: Table, query: Mapping[str, Any]) -> tuple[Region, bool]:
    region = table.region(query.get("region"), "region")
    if region.battle is None or table.trogs(region) == 0 or table.enemy(region) == 0:
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    "region: "
                    + ui("{region} holds no Battle between the Trogs and the {faction}", table.lang).format(
                        region=table.rname(region.id), faction=table.fname(table.player)
                    ),
                )
            ]
        )
    return region, region.battle.attacker != TROGS


def _objectives(table: Table, query: Mapping[str, Any], faction: str, total: int | None) -> dict[str, int]:
    lang = table.lang
    raw = (query.get("objectives") or {}).get(faction) if isinstance(query.get("objectives"), Mapping) else None
    path = f"objectives.{faction}"
    if not isinstance(raw, Mapping):
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    f"{path}: "
                    + ui("missing; give the {owner} Units on each objective, e.g. {example}", lang).format(
                        owner=faction_owner(faction, lang), example=f"{faction}=1/1/1"
                    ),
                )
            ]
        )
    out = {}
    for obj in OBJECTIVES:
        v = raw.get(obj, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError([Problem(_where(), None, f"{path}.{obj}: " + ui("expected a whole number from 0", lang))])
        out[obj] = v
    if total is not None and sum(out.values()) != total:
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    f"{path}: "
                    + nui(
                        "{placed} Unit placed, but the Region holds {have}",
                        "{placed} Units placed, but the Region holds {have}",
                        sum(out.values()),
                        lang,
                    ).format(placed=sum(out.values()), have=total),
                )
            ]
        )
    return out


def _need(table: Table, obj: str, theirs: int, defending: bool) -> tuple[int, str | None]:
    """Units the Trogs need on ``obj`` to win it, and the reading that set the number (if any)."""
    beat = table.count("solo-place-beat")
    if obj == "control" and defending and table.flag("solo-place-defender-tie"):
        return theirs, None
    if obj == "prisoners":
        return (theirs if table.flag("solo-prisoners-tie-wins") else theirs + beat), I_PRISONERS_TIE
    return theirs + beat, None


def decide_place(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Fill the objectives in order with just enough Trogs to win each, as the variant says."""
    lang = table.lang
    region, defending = _battle(table, query)
    theirs = _objectives(table, query, table.player, table.enemy(region))
    left = table.trogs(region)
    d = _start(
        table,
        "place",
        ui("How do the Trogs place their Units in {region}?", lang).format(region=table.rname(region.id)),
    )
    d.rule = R_PLACE
    placed = dict.fromkeys(OBJECTIVES, 0)
    won: list[str] = []
    for obj in OBJECTIVES:
        need, reading = _need(table, obj, theirs[obj], defending)
        if reading and reading not in d.interpretations:
            d.interpretations.append(reading)
        if need <= left:
            placed[obj] = need
            left -= need
            won.append(obj)
        else:
            d.set_aside.append(
                SetAside(
                    obj,
                    R_PLACE,
                    ui("needs {need} {units} to win, only {left} left", lang).format(
                        need=need, units=table.units(need), left=left
                    ),
                )
            )
    if left > 0:
        extra = table.objective("solo-leftover-objective")
        placed[extra] += left
        d.interpretations.append(I_LEFTOVER)
    d.choice = "/".join(str(placed[o]) for o in OBJECTIVES)
    d.figures = {"placement": placed, "wins": won, "defending": defending}
    d.lines.append(
        ui(
            "The Trogs place {control} on Region Control, {prisoners} on Capture Prisoners, {attrition} on Attrition.",
            lang,
        ).format(**placed)
    )
    _titles(table, d)
    return d


def decide_tactics(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Whether the Trogs draw on: they stop once winning Region Control or on a card with no Tactic text."""
    lang = table.lang
    region, defending = _battle(table, query)
    theirs = _objectives(table, query, table.player, None)
    mine = _objectives(table, query, TROGS, None)
    text = _bool_field(query, "tactic-text", lang, True)
    d = _start(
        table,
        "tactics",
        ui("Do the Trogs draw another Tactics card in {region}?", lang).format(region=table.rname(region.id)),
    )
    d.rule = R_TACTICS
    tie_wins = defending and table.flag("solo-place-defender-tie")
    winning = mine["control"] > theirs["control"] or (tie_wins and mine["control"] == theirs["control"])
    d.figures = {"winning-control": winning, "draw": False}
    if winning:
        d.choice = "stop"
        d.lines.append(ui("The Trogs stop: they are winning Region Control.", lang))
    elif not text:
        d.choice = "stop"
        d.lines.append(ui("The Trogs stop: the card they drew has no Tactic text.", lang))
    else:
        d.choice = "draw"
        d.figures["draw"] = True
        d.lines.append(ui("The Trogs draw the top card of their deck and resolve only its Tactic text.", lang))
    _titles(table, d)
    return d


def decide_prisoner(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Where the Trogs take their Prisoner from (and, given the objectives, whether they take one)."""
    lang = table.lang
    shifted = _bool_field(query, "shifted-priorities", lang, False)
    source = table.objective("solo-prisoner-source-shifted" if shifted else "solo-prisoner-source")
    d = _start(table, "prisoner", ui("Where do the Trogs take their Prisoner from?", lang))
    d.rule = R_PRISONERS
    d.figures = {"from": source, "shifted-priorities": shifted}
    takes = True
    if "region" in query:
        _battle(table, query)
        theirs = _objectives(table, query, table.player, None)
        mine = _objectives(table, query, TROGS, None)
        need, reading = _need(table, "prisoners", theirs["prisoners"], False)
        if mine["prisoners"] == theirs["prisoners"] and reading:
            d.interpretations.append(reading)
        takes = mine["prisoners"] >= need and mine["prisoners"] > 0
        d.figures["takes"] = takes
        if not takes:
            d.choice = "none"
            d.lines.append(
                ui("The Trogs take no Prisoner: {mine} against {theirs} on Capture Prisoners.", lang).format(
                    mine=mine["prisoners"], theirs=theirs["prisoners"]
                )
            )
    if takes:
        d.choice = source
        d.lines.append(
            ui("The Trogs take their Prisoner from {objective}.", lang).format(objective=_objective_name(source, lang))
        )
    _titles(table, d)
    return d


def decide_initiative(table: Table, query: Mapping[str, Any]) -> TrogDecision:
    """Where the Trogs put their Initiative token when a card lets them choose: always first."""
    lang = table.lang
    d = _start(table, "initiative", ui("Where do the Trogs put their token on the Upcoming Initiative track?", lang))
    d.choice, d.rule = "1", R_TURN
    others = [f for f in (table.pos.upcoming_initiative or table.pos.initiative) if f != TROGS]
    d.figures = {"position": 1, "upcoming-order": [TROGS, *others]}
    d.lines.append(ui("The Trogs always choose to go first: their token goes on the first spot.", lang))
    if others:
        d.lines.append(
            ui("Upcoming Initiative: {order}", lang).format(order=", ".join(table.fname(f) for f in [TROGS, *others]))
        )
    _titles(table, d)
    return d


def _objective_name(obj: str, lang: str) -> str:
    return {
        "control": ui("Region Control", lang),
        "prisoners": ui("Capture Prisoners", lang),
        "attrition": ui("Attrition", lang),
    }[obj]


def _titles(table: Table, d: TrogDecision) -> None:
    """Rule titles in the asker's language for every rule the decision names."""
    from havoc.interpreter.answer import texts

    t = texts(table.rs, table.lang)
    ids = set(d.rule_ids) | {s.rule for s in d.set_aside}
    for rid in ids:
        rule = table.rs.rules.get(rid)
        if rule is None:
            raise RulebookError([Problem(table.rs.id, None, f"the solo Trogs cite rule {rid!r}, which does not exist")])
        d.titles[rid] = t.rule(rule)[0]


DECIDERS: dict[str, Callable[[Table, Mapping[str, Any]], TrogDecision]] = {
    "move": decide_move,
    "place": decide_place,
    "build": decide_build,
    "recruit": decide_recruit,
    "tactics": decide_tactics,
    "prisoner": decide_prisoner,
    "initiative": decide_initiative,
}


def decide(rs: Ruleset, pos: Position, query: Mapping[str, Any], lang: str = "en") -> TrogDecision:
    """The Trogs' decision for one question (``{"decide": "move", …}``); InputError for bad input."""
    kind = query.get("decide")
    if not isinstance(kind, str) or kind not in DECIDERS:
        raise InputError(
            [
                Problem(
                    _where(),
                    None,
                    "decide: "
                    + ui("expected one of {choices}, found {found}", lang).format(
                        choices=", ".join(KINDS), found=repr(kind)
                    ),
                )
            ]
        )
    return DECIDERS[str(kind)](Table(rs, pos, lang), query)
