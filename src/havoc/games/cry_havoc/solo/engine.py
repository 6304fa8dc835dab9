"""The solo Trogs decide: the variant's priority list run as a mechanism over a position.

Which priorities exist, their order (ranks), every threshold (the defenceless margin, how many
Units win an objective, the Traps in supply, where Prisoners come from) and every documented
reading of an open point are parameters of the solo overlay (``rules/cry-havoc/variants/
solo.yaml``). This module only knows *how* to apply them: filter candidates priority by
priority, count steps along the neighbours the position lists, fill objectives in order.
Each decision names the rule that decided it, the candidates it set aside with the reason
each lost, and the readings (``interpretation: true`` rules) it relied on.

The decisions are a registry of the same shape as the question kinds (``kind.py``, ``kinds/``):
each is one module, ``decisions/<name>.py``, holding its handler and ending in its
:class:`Decision` — its name, its words, the question fields it reads (typed by :data:`FIELDS`,
the same :class:`~havoc.formats.spec.Spec` the question format uses) and the handler. This module holds
what they share: the table as the Trogs see it, the priorities, reading a question's fields.
``havoc trogs``'s choices and the site's words for the decisions come from the declarations;
``havoc check`` resolves each (:func:`check`).
"""

from __future__ import annotations

import os
import sys
from _collections_abc import Mapping  # collections.abc's own, without importing collections (start-up time)

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem, RulebookError
from havoc.core.record import field, record
from havoc.engine.rulebook.model import Ruleset
from havoc.formats.spec import Spec
from havoc.games.cry_havoc.contract import OBJECTIVES, TROGS
from havoc.games.cry_havoc.position import Position, Region, attacker_of
from havoc.games.cry_havoc.ui import faction_name, faction_owner, objective_name, region_names
from havoc.language.grammar import Noun
from havoc.language.i18n import message_language, nui, ui

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any, Final

VARIANT = "solo"
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


@record
class SetAside:
    """A candidate the Trogs did not choose, the rule that set it aside and why."""

    option: str
    rule: str
    reason: str


@record
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

    def option_name(self, option: str) -> str:
        """A set-aside candidate for people: a Region or a Battle objective by its name."""
        if option in self.names:
            return self.names[option]
        return objective_name(option, self.lang) if option in OBJECTIVES else option

    @property
    def rule_ids(self) -> list[str]:
        ids = ([self.rule] if self.rule else []) + self.also + self.interpretations
        return list(dict.fromkeys(ids))

    def to_text(self) -> str:
        """The decision for people, as ``havoc trogs`` and ``havoc ask --text`` print it: what,
        decided by which rule, what lost and why, the readings used."""
        d = self
        lang = d.lang
        out = [d.question]
        out.extend("  " + line for line in d.lines)
        if d.rule:
            out.append(ui("Decided by", lang) + ": " + d.titles.get(d.rule, d.rule))
        also = [r for r in d.also if r != d.rule]
        if also:
            out.append(ui("Also applied", lang) + ": " + "; ".join(d.titles.get(r, r) for r in also))
        if d.set_aside:
            out.append(ui("Set aside", lang) + ":")
            for s in d.set_aside:
                out.append(f"  {d.option_name(s.option)} — {d.titles.get(s.rule, s.rule)}: {s.reason}")
        if d.interpretations:
            out.append(ui("Our readings of open points that applied", lang) + ":")
            out.extend("  " + d.titles.get(i, i) for i in d.interpretations)
        return "\n".join(out)

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
                    "option-name": self.option_name(s.option),
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
                        code=Code.POSITION_INVALID,
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
                        code=Code.POSITION_INVALID,
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
                        code=Code.POSITION_INVALID,
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
                [
                    Problem(
                        self.rs.id,
                        None,
                        f"the solo Trogs need parameter {name!r}, which no rule defines",
                        code=Code.PARAM_UNKNOWN,
                    )
                ]
            ) from None

    def count(self, name: str) -> int:
        value = self.param(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulebookError(
                [Problem(self.rs.id, None, f"parameter {name!r}: expected a whole number", code=Code.PARAM_TYPE)]
            )
        return value

    def flag(self, name: str) -> bool:
        value = self.param(name)
        if not isinstance(value, bool):
            raise RulebookError(
                [Problem(self.rs.id, None, f"parameter {name!r}: expected true or false", code=Code.PARAM_TYPE)]
            )
        return value

    def objective(self, name: str) -> str:
        value = self.param(name)
        if value not in OBJECTIVES:
            raise RulebookError(
                [
                    Problem(
                        self.rs.id,
                        None,
                        f"parameter {name!r}: expected one of {', '.join(OBJECTIVES)}",
                        code=Code.PARAM_TYPE,
                    )
                ]
            )
        return str(value)

    # the board
    def region(self, rid: Any, field_name: str) -> Region:
        if rid is None:
            known = self.known_regions()
            raise InputError(
                [
                    Problem(
                        question_where(),
                        None,
                        f"{field_name}: " + ui("missing; name one of: {known}", self.lang).format(known=known),
                        code=Code.FIELD_MISSING,
                    )
                ]
            )
        if not isinstance(rid, str) or rid not in self.pos.regions:
            # what to type (the ID) after the name a player knows: "Groty Świata (world-caverns)"
            known = self.known_regions()
            raise InputError(
                [
                    Problem(
                        question_where(),
                        None,
                        f"{field_name}: "
                        + ui("unknown Region {region}; the position lists: {known}", self.lang).format(
                            region=repr(rid), known=known
                        ),
                        code=Code.POSITION_UNKNOWN_REGION,
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
            todo = list(sources)  # the queue, read from its front (a list: no collections.deque to import)
            at = 0
            while at < len(todo):
                here = todo[at]
                at += 1
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


@record
class Pick:
    chosen: list[str]
    rule: str | None
    set_aside: list[SetAside]
    interpretations: list[str]


def pick_region(table: Table, candidates: list[str], arriving: int) -> Pick:
    """Run the priorities in rank order over ``candidates``; ``arriving`` Trogs would move in."""
    lang = table.lang
    aside: list[SetAside] = []
    interps: list[str] = []
    if len(candidates) <= 1:
        return Pick(candidates, R_PRIORITIES if candidates else None, aside, interps)
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
            return Pick(kept, rule, aside, interps)
    interps.append(I_FULL_TIE)
    return Pick(kept, None, aside, interps)


# --- the decisions -------------------------------------------------------------------------------


def question_where() -> str:
    """Where a question's problem is, in the words ``havoc ask`` uses ("pytanie" in Polish)."""
    return ui("query", message_language())


def start_decision(table: Table, kind: str, question: str) -> TrogDecision:
    names = {rid: str(table.rname(rid)) for rid in table.pos.regions}
    return TrogDecision(kind=kind, question=question, choice=None, rule=None, lang=table.lang, names=names)


# The question fields a decision reads besides ``decide`` (and ``region``/``objectives`` of a Battle,
# read by :func:`battle_of` and :func:`placement_of`): typed like the question format's fields; each
# one's words are its line in ``havoc trogs --help`` (a bool the command sets as a flag; ``tactic-text``
# is true unless ``--no-tactic-text``).
FIELDS: Final[Mapping[str, Spec]] = {
    "from": Spec("id", "move: where the Trogs start (default: the Trog HQ)"),
    "units": Spec("int", "move: Trog Units that move (default: all in --from); recruit: how many", minimum=1),
    "steps": Spec("int", "move: how many steps they may go (default 1)", minimum=1),
    "both": Spec("bool", "build: the Build icons pay for a Trap and a Brooding Pool"),
    "tactic-text": Spec("bool", "tactics: the card just drawn has no Tactic text"),  # (as --no-tactic-text)
    "shifted-priorities": Spec("bool", "prisoner: Shifted Priorities has been played"),
}
# The fields a Trogs question may have besides the question format's: its decision's and
# ``decide`` (an error's place names them in the reader's words, see question_places).
ASKED: Final[Mapping[str, Spec]] = {**FIELDS, "decide": Spec("id", "A Trog decision.")}


def read_field(query: Mapping[str, Any], name: str, lang: str, default: Any = None) -> Any:
    """A decision's question field, checked against its type in :data:`FIELDS` (``default`` when
    left out; a whole number without a default is needed)."""
    return check_field(name, query.get(name, default), lang)


def check_field(name: str, value: Any, lang: str, said: str | None = None) -> Any:
    """A field's value checked against its type in :data:`FIELDS`; its problem names the field
    ``said`` (``havoc trogs``: as the reader typed it, "oddziały", a yes/no as "tak"/"nie"),
    else by its machine word, as a question mapping gives it."""
    spec = FIELDS[name]
    shown = said or name
    if spec.kind == "bool":
        if not isinstance(value, bool):
            expected = (
                ui("expected yes or no, found {found}", lang)
                if said
                else ui("expected true or false, found {found}", lang)
            )
            raise InputError(
                [
                    Problem(
                        question_where(), None, f"{shown}: " + expected.format(found=repr(value)), code=Code.FIELD_VALUE
                    )
                ]
            )
        return value
    minimum = spec.minimum or 0
    if value is None:
        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    f"{shown}: " + ui("needed: a whole number from {minimum}", lang).format(minimum=minimum),
                    code=Code.FIELD_MISSING,
                )
            ]
        )
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    f"{shown}: "
                    + ui("expected a whole number from {minimum}, found {found}", lang).format(
                        minimum=minimum, found=repr(value)
                    ),
                    code=Code.FIELD_VALUE,
                )
            ]
        )
    return value


def finish_pick(table: Table, d: TrogDecision, pick: Pick) -> None:
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


def battle_of(table: Table, query: Mapping[str, Any]) -> tuple[Region, bool]:
    region = table.region(query.get("region"), "region")
    if region.battle is None or table.trogs(region) == 0 or table.enemy(region) == 0:
        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    "region: "
                    + ui("{region} holds no Battle between the Trogs and the {faction}", table.lang).format(
                        region=table.rname(region.id), faction=table.fname(table.player)
                    ),
                    code=Code.POSITION_NO_BATTLE,
                )
            ]
        )
    return region, attacker_of(table.pos, region) != TROGS


def placement_of(table: Table, query: Mapping[str, Any], faction: str, total: int | None) -> dict[str, int]:
    lang = table.lang
    raw = (query.get("objectives") or {}).get(faction) if isinstance(query.get("objectives"), Mapping) else None
    path = f"objectives.{faction}"
    if not isinstance(raw, Mapping):
        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    f"{path}: "
                    + ui("missing; give the {owner} Units on each objective, e.g. {example}", lang).format(
                        owner=faction_owner(faction, lang), example=f"{faction}=1/1/1"
                    ),
                    code=Code.FIELD_MISSING,
                )
            ]
        )
    out = {}
    for obj in OBJECTIVES:
        v = raw.get(obj, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(
                [
                    Problem(
                        question_where(),
                        None,
                        f"{path}.{obj}: " + ui("expected a whole number from 0", lang),
                        code=Code.FIELD_VALUE,
                    )
                ]
            )
        out[obj] = v
    if total is not None and sum(out.values()) != total:
        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    f"{path}: "
                    + nui(
                        "{placed} Unit placed, but the Region holds {have}",
                        "{placed} Units placed, but the Region holds {have}",
                        sum(out.values()),
                        lang,
                    ).format(placed=sum(out.values()), have=total),
                    code=Code.POSITION_UNITS,
                )
            ]
        )
    return out


def units_needed(table: Table, obj: str, theirs: int, defending: bool) -> tuple[int, str | None]:
    """Units the Trogs need on ``obj`` to win it, and the reading that set the number (if any)."""
    beat = table.count("solo-place-beat")
    if obj == "control" and defending and table.flag("solo-place-defender-tie"):
        return theirs, None
    if obj == "prisoners":
        return (theirs if table.flag("solo-prisoners-tie-wins") else theirs + beat), I_PRISONERS_TIE
    return theirs + beat, None


def add_titles(table: Table, d: TrogDecision) -> None:
    """Rule titles in the asker's language for every rule the decision names."""
    from havoc.engine.interpreter.answer import texts
    from havoc.games.cry_havoc import LABELS

    t = texts(table.rs, table.lang, LABELS)
    ids = set(d.rule_ids) | {s.rule for s in d.set_aside}
    for rid in ids:
        rule = table.rs.rules.get(rid)
        if rule is None:
            raise RulebookError(
                [
                    Problem(
                        table.rs.id,
                        None,
                        f"the solo Trogs cite rule {rid!r}, which does not exist",
                        code=Code.RULE_UNKNOWN_ID,
                    )
                ]
            )
        d.titles[rid] = t.rule(rule)[0]


# --- the decisions' declarations ------------------------------------------------------------------


class Decision:
    """What one solo Trogs decision is: its name, its words, the question fields it reads and its handler."""

    __slots__ = ("battle", "defaults", "fields", "handler", "line", "name", "needed", "path", "what")

    def __init__(
        self,
        *,
        name: str,
        handler: Callable[[Table, Mapping[str, Any]], TrogDecision],
        fields: tuple[str, ...] = (),
        what: str | None = None,
        battle: str = "",
        needed: tuple[str, ...] = (),
        defaults: Mapping[str, bool] | None = None,
    ) -> None:
        self.name = name  # the question's `decide:`
        self.handler = handler  # decides it: (table, question mapping) -> TrogDecision
        self.fields = fields  # the question fields it reads (FIELDS), besides a Battle's region and objectives
        self.what = what  # what it decides, in a few words, ui("…") (the site names an example's `decide:` by it)
        self.battle = battle  # "needed" / "optional": it reads a Battle's region and objectives; "": no Battle
        self.needed = needed  # fields the question must give (the page marks them)
        self.defaults = dict(defaults or {})  # a yes/no field's value when the question leaves it out
        caller = sys._getframe(1)  # where it is declared, for located messages
        self.path, self.line = caller.f_code.co_filename, caller.f_lineno

    def decide(self, table: Table, query: Mapping[str, Any]) -> TrogDecision:
        return self.handler(table, query)

    def problem(self, message: str) -> Problem:
        from havoc.games.cry_havoc.kind import _where as where

        return Problem(
            where(self.path), self.line, f"solo Trogs decision {self.name!r}: {message}", code=Code.GAME_DECISION
        )


# The decisions in their order (`havoc trogs`'s choices); each is declared in its own module,
# decisions/<name>.py, ending in DECISION = Decision(name=…), imported when first asked for.
KINDS: Final = ("move", "place", "build", "recruit", "tactics", "prisoner", "initiative")
PACKAGE = "havoc.games.cry_havoc.solo.decisions"


def module_path(name: str) -> str:
    """Where a decision's module is (or should be), relative to the repository."""
    from havoc.games.cry_havoc.kind import _where as where

    return where(os.path.join(os.path.dirname(os.path.realpath(__file__)), "decisions", f"{name}.py"))


def get(name: str) -> Decision:
    """The declared decision ``name`` (one of KINDS), from its module; a located RulebookError
    (as ``havoc check`` reports it) when the module is missing, does not load or declares none."""
    try:
        __import__(f"{PACKAGE}.{name}")  # importlib.import_module, without importing importlib (and warnings)
        found = getattr(sys.modules[f"{PACKAGE}.{name}"], "DECISION", None)
    except Exception as exc:  # a decision's module that fails to load is a located problem, not a traceback
        raise RulebookError(
            [
                Problem(
                    module_path(name),
                    None,
                    f"solo Trogs decision {name!r}: its module does not load: {exc}",
                    code=Code.GAME_DECISION,
                )
            ]
        ) from exc
    if not isinstance(found, Decision) or found.name != name:
        raise RulebookError(
            [
                Problem(
                    module_path(name),
                    None,
                    f"solo Trogs decision {name!r}: the module declares no DECISION = Decision(name={name!r}, …)",
                    code=Code.GAME_DECISION,
                )
            ]
        )
    return found


def all_decisions() -> Iterator[Decision]:
    return (get(name) for name in KINDS)


def check(decisions: Iterable[Decision] | None = None) -> list[Problem]:
    """What ``havoc check`` verifies of the decisions, as of the question kinds: each handler is a
    function, each field it reads is typed in FIELDS, and its words are translated in every havoc.po."""
    from havoc.games.cry_havoc.kind import _catalogs, _translated
    from havoc.language.i18n import UI_CONTEXT

    problems: list[Problem] = []
    if decisions is None:
        decisions = []
        for name in KINDS:
            try:
                decisions.append(get(name))
            except RulebookError as exc:
                problems.extend(exc.problems)
    decisions = list(decisions)
    for d in decisions:
        if not callable(d.handler):
            problems.append(d.problem(f"handler {d.handler!r} is no function (table, question -> TrogDecision)"))
        unknown = [f for f in d.fields if f not in FIELDS]
        if unknown:
            problems.append(d.problem(f"fields not typed in FIELDS (solo/engine.py): {', '.join(unknown)}"))
        stray = [f for f in (*d.needed, *d.defaults) if f not in d.fields]
        if stray:
            problems.append(d.problem(f"needed or defaulted but not among its fields: {', '.join(stray)}"))
        if d.battle not in ("", "needed", "optional"):
            problems.append(d.problem(f"battle is {d.battle!r}; expected 'needed', 'optional' or ''"))
    for lang, catalog in _catalogs("havoc"):
        for d in decisions:
            if d.what and not _translated(catalog, d.what, UI_CONTEXT):
                problems.append(
                    d.problem(
                        f"what it decides ({d.what!r}) has no {lang} translation in locales/{lang}/LC_MESSAGES/havoc.po; "
                        'write it as ui("…") in the declaration, run `havoc catalog update` and translate it'
                    )
                )
    return problems


_FORM_TYPES: Final = {"id": "region", "int": "count", "bool": "flag"}


def form(decision: Decision) -> list[dict[str, Any]]:
    """What the decision is asked with, as the Trogs page builds its form: each field's name, its
    kind of value (``count``, ``region``, ``flag``, ``objectives``), whether it is needed and a yes/no
    field's default, all from the declaration (its fields, typed once in FIELDS)."""
    out = [
        {
            "name": f,
            "type": _FORM_TYPES[FIELDS[f].kind],
            "needed": f in decision.needed,
            "default": decision.defaults.get(f),
        }
        for f in decision.fields
    ]
    if decision.battle:
        out.append({"name": "region", "type": "region", "needed": decision.battle == "needed", "default": None})
        out.append({"name": "objectives", "type": "objectives", "needed": False, "default": None})
    return out


def words() -> dict[str, str]:
    """What each decision decides, in English (the site's words for an example's ``decide:``)."""
    return {d.name: d.what for d in all_decisions() if d.what}


def decide(rs: Ruleset, pos: Position, query: Mapping[str, Any], lang: str = "en") -> TrogDecision:
    """The Trogs' decision for one question (``{"decide": "move", …}``); InputError for bad input,
    each field it names said in the reader's words too (``Problem.where``)."""
    try:
        return _decide(rs, pos, query, lang)
    except InputError as exc:
        from havoc.games.cry_havoc.question_places import worded

        raise InputError(worded(exc.problems, pos.regions, ASKED)) from None


def _decide(rs: Ruleset, pos: Position, query: Mapping[str, Any], lang: str) -> TrogDecision:
    kind = query.get("decide")
    if not isinstance(kind, str) or kind not in KINDS:
        raise InputError(
            [
                Problem(
                    question_where(),
                    None,
                    "decide: "
                    + ui("expected one of {choices}, found {found}", lang).format(
                        choices=", ".join(KINDS), found=repr(kind)
                    ),
                    code=Code.FIELD_VALUE,
                )
            ]
        )
    return get(str(kind)).decide(Table(rs, pos, lang), query)
