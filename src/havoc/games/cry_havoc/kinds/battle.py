"""Resolving a Battle: the mechanism that runs the battle rules in the book's order.

The order of the steps (add Crystals, resolve Region Control, then Capture Prisoners, then
Attrition, then survivors return or retreat, then the token goes) is the mechanism and lives
here. *Who* wins an objective, how many prisoners are taken, how many Units are killed and
what each is worth come from the figures of the rules checked for ``battle``, evaluated once
per side with that side as the actor. A rule takes part in a step when it defines one of
that step's figures (see :mod:`havoc.games.cry_havoc.contract`); a later rule (the neutral-Trog
exceptions) overrides an earlier one's figure.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem, RulebookError
from havoc.engine.interpreter.answer import Answer, Decision, Texts, deciding_overlay, decision
from havoc.engine.interpreter.engine import CompiledRule, Engine, RuleResult, merge_figures
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job, Who
from havoc.games.cry_havoc.facts import BattleState, Context
from havoc.games.cry_havoc.kept import of as kept_of
from havoc.games.cry_havoc.kept import put
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.position import Region, attacker_of
from havoc.games.cry_havoc.retreats import Retreat, _values, retreat_options
from havoc.games.cry_havoc.subsets import Subset, subset
from havoc.games.cry_havoc.ui import faction_name, nui, objective_name, region_names, ui
from havoc.games.cry_havoc.ui import message_language as _ml
from havoc.language.grammar import Noun

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# rule results a Battle cites, with the context they were evaluated in and for whom (a step's note)
Cited = tuple[list[RuleResult], Context, str | None]

F_NOT_FOUGHT = "not-fought"
PRE = frozenset({F_NOT_FOUGHT, C.F_BATTLE_CRYSTALS})
CONTROL = frozenset({C.F_WINS_CONTROL, C.F_CONTROL_VP, C.F_PLACES_CONTROL, C.F_PLACES_NEST, C.F_SURVIVORS_TO_HQ})
PRISONERS = frozenset({C.F_TAKES_PRISONERS, C.F_PRISONERS_TAKEN})
ATTRITION = frozenset({C.F_KILLS, C.F_KILL_VP})
STEPS = (PRE, CONTROL, PRISONERS, ATTRITION)
CAPTURE_ORDER = ("attrition", "control", "prisoners")  # default: the taker weakens the enemy's Attrition


def _in_stage(cr: CompiledRule, names: frozenset[str]) -> bool:
    """A rule takes part in a step when it defines one of the step's figures; the rules with no
    figures at all (the order of the steps, who may fight) are read before the Battle."""
    return bool(names.intersection(cr.figures)) or (not cr.figures and names is PRE)


def _stage(names: frozenset[str]) -> Callable[[CompiledRule], bool]:
    return lambda cr: _in_stage(cr, names)


_steps: dict[int, tuple[Engine, dict[frozenset[str], Subset]]] = {}


def _later(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    """``fn(*args)``, called later (functools.partial, without importing functools and the
    collections it imports: a Battle's answer is a short process)."""
    return lambda: fn(*args)


def _steps_of(eng: Engine) -> dict[frozenset[str], Subset]:
    """Each step's rules of an engine (looked up once per Battle, not once per step and side)."""
    found = _steps.get(id(eng))
    if found is None or found[0] is not eng:
        found = _steps[id(eng)] = (
            eng,
            {names: subset(eng, "battle", names, _later(_stage, names)) for names in STEPS},
        )
    return found[1]


if TYPE_CHECKING:
    Said = dict[tuple[Any, ...], Any]  # what a Battle said, in one ruleset's words and language
_said: dict[tuple[int, str], tuple[Texts, Said]] = {}
_LINES_KEPT = 4096


def _kept(t: Texts) -> Said:
    """The lines kept for a ruleset's texts in a language (dropped with them: as
    :func:`~havoc.engine.interpreter.answer.texts`, one per ruleset and language)."""
    key = (id(t.rs), t.lang)
    found = _said.get(key)
    if found is None or found[0] is not t:
        found = _said[key] = (t, {})
    return found[1]


def _line(kept: Said, key: tuple[Any, ...], say: Callable[[], str]) -> str:
    """A line of the report, written once per what it says: ``key`` is the step and all it
    depends on (faction IDs, counts, the table's Region IDs where it names a Region), ``say``
    writes it. Battles say the same few lines again and again (two factions, small counts):
    the words of those values never change for a ruleset and language. Bounded, as the
    answer's other kept words."""
    found: str | None = kept.get(key)
    if found is None:
        if len(kept) >= _LINES_KEPT:
            kept.clear()
        found = kept[key] = say()
    return found


def _int(figs: dict[str, Any], name: str, default: int = 0) -> int:
    v = figs.get(name, default)
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def resolve(job: Job) -> Answer:
    """Resolve the Battle in the question's Region (or list the battle order without one).

    The verdict says whether the Battle is fought. The figures are the asking faction's own
    (what the rules gave it at each step: ``wins-control``, ``kills`` …) plus the outcome
    for both sides (``control-winner``, ``vp-gained``, ``survivors`` …).
    """
    if job.q.region is None:
        return _order(job)
    pos, q, eng, lang = job.pos, job.q, job.eng, job.lang
    region = pos.regions[job.q.region]
    if region.battle is None:
        raise InputError(
            [
                Problem(
                    q.name,
                    None,
                    "region: "
                    + ui("{region} holds no Battle token; Battle Regions here: {regions}", _ml()).format(
                        region=_rn(job, region.id, _ml()), regions=_rns(job, _battles(job), _ml())
                    ),
                    code=Code.POSITION_NO_BATTLE,
                )
            ]
        )
    attacker = attacker_of(pos, region)
    defender = region.defender()
    asker = q.faction
    opening = kept_of(pos).get(("battle", eng, job.t, _values(q)))
    if opening is None:
        opening = _open(job, region, asker or attacker, defender)
    kept = opening.kept  # the lines said before in this language with this ruleset's words
    question = opening.question
    cited: list[Cited] = []
    mine: dict[str, Any] = {}
    steps = opening.steps
    notes = opening.notes

    contexts: dict[str, Context] = {}  # one per side, for its three steps

    def run(side: str, names: frozenset[str], state: BattleState) -> dict[str, Any]:
        ctx = contexts.get(side)
        if ctx is None:
            ctx = contexts[side] = Context(pos, q, side, region=region, battle=state)
        else:  # the Battle's state has moved on since the last step: nothing read before holds
            ctx.cache = {}  # (as a new context's)
        rs = steps[names].evaluate(ctx)
        cited.append((rs, ctx, notes[side][names]))
        figs = merge_figures(rs)
        if side == asker:
            mine.update(figs)
        return figs

    pre = opening.figures
    mine.update(pre)
    lines = [opening.heading]
    if not opening.fought or defender is None:
        remaining = region.sides()
        holder = remaining[0] if remaining else None
        lines.append(ui("Only one side is left: no Battle is fought; the token is removed.", lang))
        if holder:
            lines.append(
                _line(
                    kept,
                    ("holder", holder),
                    lambda: ui("{faction} take Control of the Region.", lang).format(faction=job.fname(holder)),
                )
            )
        pre_rs = opening.results
        failed: list[Cited] = [([r], opening.ctx, None) for r in pre_rs if r.passed is False] or [
            (pre_rs, opening.ctx, None)
        ]
        # Step A (the Crystal) belongs to a Battle that is fought: none is added here.
        gone = {**mine, C.F_BATTLE_CRYSTALS: 0, "control-winner": holder or ""}
        return _answer(
            job,
            question,
            _decide(job, failed),
            gone,
            lines,
            verdict=False,
            details={"fought": False, "control": holder},
        )

    added = opening.added
    lines.append(opening.crystals)
    sides = (attacker, defender)
    if not q.objectives:
        from havoc.games.cry_havoc.typed import typed_faction  # only when the Units are not given

        lines.append(
            ui("Give the Units on the objectives to resolve it, e.g. {example}", lang).format(
                example=" ".join(f"{typed_faction(side, lang)}=2/1/1" for side in (attacker, defender))
            )
        )
        return _answer(
            job,
            question,
            list(opening.decisions),
            {**mine, C.F_BATTLE_CRYSTALS: added},
            lines,
            verdict=True,
            details={"fought": True, "sides": list(sides)},
        )
    placed = _placement(job, region, sides)
    state = BattleState(attacker, defender, placed)
    a, d = sides  # (the comprehensions over the two sides written out: one call fewer each)
    start = {a: dict(placed[a]), d: dict(placed[d])}

    # 1. Region Control.
    control = {a: run(a, CONTROL, state), d: run(d, CONTROL, state)}
    winners = [s for s, figs in control.items() if figs.get(C.F_WINS_CONTROL)]
    if len(winners) != 1:
        raise RulebookError(
            [
                Problem(
                    eng.rs.id,
                    None,
                    f"the rules checked for `battle` give {len(winners)} winners of Region Control (figure {C.F_WINS_CONTROL!r}); expected exactly one",
                    code=Code.FIGURE_INCONSISTENT,
                )
            ]
        )
    won = winners[0]
    lost = attacker if won == defender else defender
    vp = dict.fromkeys(sides, 0)
    control_vp = _int(control[won], C.F_CONTROL_VP)
    vp[won] += control_vp
    on_w, on_l = start[won]["control"], start[lost]["control"]
    lines.append(
        _line(
            kept,
            ("1", won, on_w, on_l, control_vp),
            lambda: ui("1. Region Control: {faction} win ({won}:{lost}), +{vp} VP", lang).format(
                faction=job.fname(won), won=on_w, lost=on_l, vp=control_vp
            ),
        )
    )

    # 2. Capture Prisoners.
    prisoners = {a: run(a, PRISONERS, state), d: run(d, PRISONERS, state)}
    takers = [s for s in sides if prisoners[s].get(C.F_TAKES_PRISONERS)]
    if len(takers) > 1:
        raise RulebookError(
            [
                Problem(
                    eng.rs.id,
                    None,
                    "the rules checked for `battle` let both sides take prisoners",
                    code=Code.FIGURE_INCONSISTENT,
                )
            ]
        )
    taken = dict.fromkeys(sides, 0)
    taken_from: dict[str, dict[str, int]] = {a: {}, d: {}}
    for taker in takers:
        victim = state.opponent(taker)
        want = _int(prisoners[taker], C.F_PRISONERS_TAKEN)
        order = ((q.capture_from,) if q.capture_from else ()) + CAPTURE_ORDER
        taken[taker], taken_from[victim] = _remove(state.placed[victim], want, order)
    if takers:
        taker, count = takers[0], taken[takers[0]]
        on_t, on_v = start[taker]["prisoners"], start[state.opponent(taker)]["prisoners"]
        lines.append(
            _line(
                kept,
                ("2", taker, count, on_t, on_v),
                lambda: nui(
                    "2. Capture Prisoners: {faction} take {count} Prisoner ({taker}:{other})",
                    "2. Capture Prisoners: {faction} take {count} Prisoners ({taker}:{other})",
                    count,
                    lang,
                ).format(faction=job.fname(taker), count=count, taker=on_t, other=on_v),
            )
        )
        assumed = _capture_assumed(job, taker, count, taken_from[state.opponent(taker)], start[state.opponent(taker)])
        if assumed:
            lines.append(assumed)
    else:
        assumed = None
        on_a, on_d = start[attacker]["prisoners"], start[defender]["prisoners"]
        lines.append(
            _line(
                kept,
                ("2-", on_a, on_d),
                lambda: ui("2. Capture Prisoners: nobody takes any ({a}:{d})", lang).format(a=on_a, d=on_d),
            )
        )

    # 3. Attrition (both sides at once, after the prisoners left the objectives).
    attrition = {a: run(a, ATTRITION, state), d: run(d, ATTRITION, state)}
    kills = {a: min(_int(attrition[a], C.F_KILLS), state.left(d)), d: min(_int(attrition[d], C.F_KILLS), state.left(a))}
    for s in sides:
        _remove(state.placed[state.opponent(s)], kills[s], ("control", "prisoners", "attrition"))
        vp[s] += _int(attrition[s], C.F_KILL_VP)
    lines.append(
        _line(
            kept,
            ("3", attacker, kills[attacker], defender, kills[defender]),
            lambda: ui("3. Attrition: {first}, {second}", lang).format(
                first=_kills(job, attacker, kills[attacker]), second=_kills(job, defender, kills[defender])
            ),
        )
    )

    # E/F. Survivors return, or retreat.
    survivors = {a: state.left(a), d: state.left(d)}
    to_hq = dict.fromkeys(sides, 0)
    home = bool(control[won].get(C.F_SURVIVORS_TO_HQ))
    if home:
        to_hq[won] = survivors[won]
    lines.append(_line(kept, ("E", won, survivors[won], home), lambda: _survivors_line(job, won, survivors[won], home)))
    retreat, retreat_cited = opening.retreat(job, lost, region)
    nests = retreat.nests
    nest_on = list(retreat.nest_on) if nests and survivors[lost] else []
    lines.append(
        _line(
            kept,
            (
                "F",
                lost,
                survivors[lost],
                retreat.nests,
                tuple(retreat.nest_on),
                tuple(retreat.destinations),
                opening.named,
            ),
            lambda: _retreat_line(job, lost, survivors[lost], retreat),
        )
    )
    places_control = bool(control[won].get(C.F_PLACES_CONTROL, True))
    places_nest = bool(control[won].get(C.F_PLACES_NEST, False))
    if places_nest:
        lines.append(
            ui("G. A Trog Nest token goes on the Region instead of a Control token; the Battle token is removed.", lang)
        )
    elif places_control:
        lines.append(
            _line(
                kept,
                ("G", won),
                lambda: ui(
                    "G. {faction} put their Control token on the Region; the Battle token is removed.", lang
                ).format(faction=job.fname(won)),
            )
        )
    else:
        lines.append(ui("G. The Battle token is removed.", lang))
    lines.append(
        _line(
            kept,
            ("VP", attacker, vp[attacker], defender, vp[defender]),
            lambda: ui("VP", lang) + ": " + ", ".join(f"{job.fname(s)} +{vp[s]}" for s in sides),
        )
    )

    figures: dict[str, Any] = {
        **mine,
        C.F_BATTLE_CRYSTALS: added,
        "control-winner": won,
        "vp-gained": vp,
        "prisoners-by": taken,
        "kills-by": kills,
        "survivors": survivors,
        "units-in-region": {a: region.units.get(a, 0), d: region.units.get(d, 0)},
        "returned": {s: survivors[s] if s == won and not to_hq[s] else 0 for s in sides},
        "to-hq": to_hq,
        "retreated": {s: survivors[s] if s == lost else 0 for s in sides},
        "retreat-to": [] if nests else list(retreat.destinations),
        C.F_TO_RESERVE: survivors[lost] > 0 and not retreat.destinations and not nests,
        "control-token": won if places_control and not places_nest else "",
        "nest": places_nest,
        "nest-options": nest_on,
    }
    details = {
        "fought": True,
        "token": region.battle.token,
        "attacker": attacker,
        "defender": defender,
        "objectives": start,
        "captured-from": taken_from,
        "capture-assumed": assumed is not None,  # where the Prisoners came from was assumed (capture-from not given)
        "after": {a: dict(state.placed[a]), d: dict(state.placed[d])},
        "crystals": region.crystals + added,
    }
    decisions = [*opening.decisions, *_decide_steps(job, cited)]
    if survivors[lost] > 0:
        decisions += retreat_cited
    return _answer(job, question, decisions, figures, lines, verdict=True, details=details)


_NONE_YET = object()


def _notes(job: Job, side: str) -> dict[frozenset[str], str]:
    """Whose step a rule was checked for ("Pilgrims: Region Control"), for each step of ``side``
    (kept per language and faction, as the lines are)."""
    kept = _kept(job.t)
    key = ("notes", side)
    found: dict[frozenset[str], str] | None = kept.get(key)
    if found is None:
        if len(kept) >= _LINES_KEPT:
            kept.clear()
        lang, who = job.lang, job.fname(side)
        found = kept[key] = {
            CONTROL: f"{who}: " + ui("Region Control", lang),
            PRISONERS: f"{who}: " + ui("Capture Prisoners", lang),
            ATTRITION: f"{who}: " + ui("Attrition", lang),
        }
    return found


def _retreat_note(job: Job, lost: str, to: str | None) -> str:
    """Where a retreat rule was checked for: a neighbour, or (None) the Reserve."""
    where = ui("retreat", job.lang) + f" → {job.rname(to)}" if to else ui("retreat to the Reserve", job.lang)
    return job.fname(lost) + ": " + where


def _retreat_line(job: Job, lost: str, left: int, retreat: Retreat) -> str:
    """Step F for the loser: no Units left, a Trog Nest token, a retreat, or back to the Reserve."""
    t, lang = job.t, job.lang
    if left == 0:
        return ui("F. {faction}: no Units left to retreat", lang).format(faction=job.fname(lost))
    if retreat.nests:
        return ui("F. The Trog Units leave the board; a Trog Nest token goes on one of: {regions}", lang).format(
            regions=job.rnames(retreat.nest_on)
        )
    if len(retreat.destinations) == 1:
        return ui("F. {faction} retreat {count} {units} {region:to}", lang).format(
            faction=job.fname(lost), count=left, units=t.term("unit", left), region=job.rname(retreat.destinations[0])
        )
    if retreat.destinations:
        return ui("F. {faction} retreat {count} {units} to one of: {regions}", lang).format(
            faction=job.fname(lost),
            count=left,
            units=t.term("unit", left),
            regions=job.rnames(retreat.destinations),
        )
    return ui("F. {faction} send {count} {units} back to the Reserve (no Region qualifies)", lang).format(
        faction=job.fname(lost), count=left, units=t.term("unit", left)
    )


def _kills(job: Job, side: str, count: int) -> str:
    """What one side kills in Attrition: "the Humans kill 2 Units", or "kill no one" (not "kill 0")."""
    if not count:
        return ui("{faction} kill no one", job.lang).format(faction=job.fname(side))
    return nui("{faction} kill {count} Unit", "{faction} kill {count} Units", count, job.lang).format(
        faction=job.fname(side), count=count
    )


def _capture_assumed(job: Job, taker: str, count: int, source: dict[str, int], placed: dict[str, int]) -> str | None:
    """The assumption a Battle makes when the question does not say where the Prisoners come
    from (the book lets the taker choose any objective, and the choice changes Attrition): said,
    with the field that changes it. None when the question said it (``capture-from``) or there
    was no choice (no Prisoner, or the enemy's Units stood on no other objective)."""
    if job.q.capture_from or not count:
        return None
    other = next((o for o in CAPTURE_ORDER if o not in source and placed.get(o)), None)
    if other is None:
        return None
    from havoc.games.cry_havoc.typed import typed_word  # only when an assumption is said

    lang = job.lang
    where = ", ".join(objective_name(o, lang) for o in source)
    example = f"{typed_word('capture-from', lang)}={typed_word(other, lang)}"
    return nui(
        "Assumed: {faction} take the Prisoner from {objectives}; to take it from another objective, add {example}",
        "Assumed: {faction} take the {count} Prisoners from {objectives}; to take them from another objective, add {example}",
        count,
        lang,
    ).format(faction=job.fname(taker), count=count, objectives=where, example=example)


def _heading(job: Job, token: int, attacker: str, defender: str | None) -> str:
    """The Battle's first line: who attacks and who defends (or that no Defender is left)."""
    return _line(
        _kept(job.t), ("head", token, attacker, defender), lambda: _say_heading(job, token, attacker, defender)
    )


def _say_heading(job: Job, token: int, attacker: str, defender: str | None) -> str:
    if defender is None:
        return ui("Battle token {token}: {attacker} attack; no Defender is left", job.lang).format(
            token=token, attacker=job.fname(attacker)
        )
    return ui("Battle token {token}: {attacker} attack, {defender} defend", job.lang).format(
        token=token, attacker=job.fname(attacker), defender=job.fname(defender)
    )


def _survivors_line(job: Job, won: str, count: int, home: bool) -> str:
    """Step E for the winner: its survivors stay, or (the solo Trogs) go to its HQ."""
    units = job.t.term("unit", count)
    if home:
        return ui("E. {faction} move {count} {units} to their HQ", job.lang).format(
            faction=job.fname(won), count=count, units=units
        )
    return ui("E. {faction} keep {count} {units} in the Region", job.lang).format(
        faction=job.fname(won), count=count, units=units
    )


def _remove(objectives: dict[str, int], count: int, order: tuple[str, ...]) -> tuple[int, dict[str, int]]:
    """Take up to ``count`` Units off the objectives in ``order``; how many went, from where."""
    done = 0
    where: dict[str, int] = {}
    for obj in dict.fromkeys(order):
        while done < count and objectives.get(obj, 0) > 0:
            objectives[obj] -= 1
            where[obj] = where.get(obj, 0) + 1
            done += 1
    return done, where


def _placement(job: Job, region: Region, sides: tuple[str, str]) -> dict[str, dict[str, int]]:
    """The Units each side placed on the objectives, checked against the table (and the card)."""
    q = job.q
    objectives = q.objectives
    if not q.card_units and len(objectives) == 2:  # the usual question: both sides, no card
        placed = {}
        for side in sides:
            given = objectives.get(side)
            if given is None:
                break
            counts = {o: given.get(o, 0) for o in C.OBJECTIVES}
            if sum(counts.values()) != region.units.get(side, 0):
                break
            placed[side] = counts
        else:
            return placed
    return _checked_placement(job, region, sides)


def _checked_placement(job: Job, region: Region, sides: tuple[str, str]) -> dict[str, dict[str, int]]:
    """:func:`_placement` with each problem found, located (a placement that does not fit)."""
    q, pos = job.q, job.pos
    problems = []
    for side in q.objectives:
        if side not in sides:
            problems.append(
                Problem(
                    q.name,
                    None,
                    f"objectives.{side}: "
                    + ui("not a side of this Battle ({sides})", _ml()).format(sides=", ".join(sides)),
                    code=Code.QUERY_FIELD,
                )
            )
    for side in q.card_units:
        if side not in sides:
            problems.append(
                Problem(
                    q.name,
                    None,
                    f"card-units.{side}: "
                    + ui("not a side of this Battle ({sides})", _ml()).format(sides=", ".join(sides)),
                    code=Code.QUERY_FIELD,
                )
            )
    placed = {}
    for side in sides:
        if side not in q.objectives:
            problems.append(
                Problem(
                    q.name,
                    None,
                    f"objectives.{side}: "
                    + ui(
                        "missing; give both sides' Units on the objectives ({faction} has {count} in the Region)", _ml()
                    ).format(faction=faction_name(side, _ml()), count=region.units.get(side, 0)),
                    code=Code.POSITION_MISSING,
                )
            )
            continue
        counts = {o: q.objectives.get(side, {}).get(o, 0) for o in C.OBJECTIVES}
        total = sum(counts.values())
        in_region = region.units.get(side, 0)
        change = q.card_units.get(side, 0)
        want = in_region + change
        if change > 0 and change > pos.reserve(side):
            problems.append(
                Problem(
                    q.name,
                    None,
                    f"card-units.{side}: "
                    + nui(
                        "the card adds {count} Unit, but the {faction} have {have} in the Reserve",
                        "the card adds {count} Units, but the {faction} have {have} in the Reserve",
                        change,
                        _ml(),
                    ).format(count=change, faction=faction_name(side, _ml()), have=pos.reserve(side)),
                    code=Code.POSITION_UNITS,
                )
            )
        if total != want:
            from havoc.games.cry_havoc.places import units_path  # (an error's wording: loaded on an error only)

            by_card = ui(" and {change} by {card}", _ml()).format(change=f"{change:+d}", card=q.card) if change else ""
            problems.append(
                Problem(
                    q.name,
                    None,
                    f"objectives.{side}: "
                    + nui(
                        "{total} Unit placed, but the {faction} have {have} in {region}",
                        "{total} Units placed, but the {faction} have {have} in {region}",
                        total,
                        _ml(),
                    ).format(
                        total=total,
                        faction=faction_name(side, _ml()),
                        have=in_region,
                        region=_rn(job, region.id, _ml()),
                    )
                    + by_card
                    + ": "
                    + ui(
                        "place exactly {want} ({path}); a card that adds or removes Units is named with card= and card-units=",
                        _ml(),
                    ).format(want=want, path=units_path(region.id, side, _ml(), job.pos.regions)),
                    code=Code.POSITION_UNITS,
                )
            )
        placed[side] = counts
    if problems:
        raise InputError(problems)
    return placed


def _rn(job: Job, rid: str, lang: str) -> Noun:
    """A Region named in an error (the message language may differ from the answer's)."""
    return region_names(job.pos.regions, lang).get(rid) or Noun.plain(rid)


def _rns(job: Job, rids: list[str], lang: str) -> Noun:
    names = region_names(job.pos.regions, lang)
    return Noun.join([names.get(r) or r for r in rids]) if rids else Noun.plain("—")


def _battles(job: Job) -> list[str]:
    regs = [r for r in job.pos.regions.values() if r.battle is not None]
    return [r.id for r in sorted(regs, key=lambda r: r.battle.token if r.battle else 0)]


def _order(job: Job) -> Answer:
    lang = job.lang
    question = ui("In what order are the Battles resolved?", lang)
    lines = []
    order = _battles(job)
    for i, rid in enumerate(order, 1):
        r = job.pos.regions[rid]
        assert r.battle is not None
        lines.append(f"{i}. {job.rname(rid)} — " + _heading(job, r.battle.token, attacker_of(job.pos, r), r.defender()))
    if not order:
        lines.append(ui("No Battle tokens on the listed Regions.", lang))
    return _answer(job, question, [], {"order": order}, lines, verdict=None, details={"order": order})


def _decide(job: Job, cited: list[Cited]) -> list[Decision]:
    """The rules cited, each once per note (a rule is checked once per step and side, a retreat
    rule once per neighbour), in the asker's language, by the answer's words (job.decide)."""
    t, amendments = job.t, job.eng.view.amendments
    seen: dict[str | None, set[str]] = {}
    decisions: list[Decision] = []
    add = decisions.append
    for rs, ctx, note in cited:
        ids = seen.get(note)
        if ids is None:
            ids = seen[note] = set()
        who = Who(job, ctx)  # what each rule looked at, said in a player's words
        for r in rs:
            rid = r.rule.id
            if rid not in ids:
                ids.add(rid)
                d = decision(t, amendments, r, note)
                d.who = who
                add(d)
    return decisions


def _decide_steps(job: Job, cited: list[Cited]) -> list[Decision]:
    """:func:`_decide` for the steps of a Battle: each side's step has a note of its own and one
    evaluation checks each rule once, so nothing repeats (unless two notes read alike: then as
    :func:`_decide`)."""
    if len({note for _, _, note in cited}) != len(cited):
        return _decide(job, cited)
    t, amendments = job.t, job.eng.view.amendments
    out = []
    for rs, ctx, note in cited:
        who = Who(job, ctx)  # what each rule looked at, said in a player's words
        for r in rs:
            d = decision(t, amendments, r, note)
            d.who = who
            out.append(d)
    return out


def _answer(
    job: Job,
    question: str,
    decisions: list[Decision],
    figures: dict[str, Any],
    lines: list[str],
    verdict: bool | None,
    details: dict[str, Any],
) -> Answer:
    return Answer(
        kind="battle",
        question=question,
        verdict=verdict,
        rules=decisions,
        figures=figures,
        lang=job.lang,
        overlay=deciding_overlay(job.eng.rs, decisions),
        details=details,
        lines=lines,
        yes_no=False,
    )


class _Opening:
    """What resolving a Battle works out before it reads the Units on the objectives: the rules
    read before the Battle (step A's Crystals, whether it is fought), cited; the lines that do not
    depend on the objectives; and, once a side has lost, where it may retreat, cited. The six ways
    Units may stand on the objectives of one table share them: kept with the table
    (:mod:`havoc.games.cry_havoc.kept`) under the engine, the language's texts and every value of
    the question but its mappings (no rule reads those: the objectives are read through the
    Battle's state, which the opening has not got)."""

    __slots__ = (
        "added",
        "crystals",
        "ctx",
        "decisions",
        "figures",
        "fought",
        "heading",
        "kept",
        "named",
        "notes",
        "question",
        "results",
        "retreats",
        "steps",
    )

    def __init__(self, job: Job, region: Region, actor: str, defender: str | None) -> None:
        assert region.battle is not None
        eng, lang = job.eng, job.lang
        self.steps = steps = _steps_of(eng)
        self.ctx = ctx = Context(job.pos, job.q, actor, region=region)
        self.results = rs = steps[PRE].evaluate(ctx)
        self.figures = figs = merge_figures(rs)
        self.fought = not figs.get(F_NOT_FOUGHT) and all(r.passed is not False for r in rs)
        self.decisions = _decide(job, [(rs, ctx, None)])  # as cited by a Battle that is fought (note: none)
        self.retreats: dict[str, tuple[Retreat, list[Decision]]] = {}
        self.kept = kept = _kept(job.t)
        # a Region's name depends on the table's Region IDs (the invented ones are lettered in order)
        self.named = named = tuple(job.pos.regions)
        self.question = _line(
            kept,
            ("Q", region.id, named),
            lambda: ui("How does the Battle in {region} end?", lang).format(region=job.rname(region.id)),
        )
        attacker = attacker_of(job.pos, region)
        self.heading = _heading(job, region.battle.token, attacker, defender)
        self.added = added = _int(figs, C.F_BATTLE_CRYSTALS)
        total = region.crystals + added
        self.crystals = _line(
            kept,
            ("A", added, total),
            lambda: ui("A. Crystals: +{added} (now {total})", lang).format(added=added, total=total),
        )
        sides = (attacker, defender) if defender else (attacker,)
        self.notes = {side: _notes(job, side) for side in sides}

    def retreat(self, job: Job, lost: str, region: Region) -> tuple[Retreat, list[Decision]]:
        """Where ``lost`` may retreat, and the retreat rules a Battle cites when Units are left to
        retreat: where they allowed a Region, or, if none qualified, where they refused."""
        found = self.retreats.get(lost)
        if found is None:
            retreat = retreat_options(job, lost, region)
            kept, named = self.kept, self.named
            cited: list[Cited] = []
            shown = [x for x in retreat.results if x[2] in retreat.destinations] or retreat.results
            last: object = _NONE_YET  # a neighbour's rules come together: one note for them
            for r, c, n in shown:  # no Region (n is None): the Units go to the Reserve
                if n is last:
                    cited[-1][0].append(r)
                else:
                    cited.append(
                        (
                            [r],
                            c,
                            _line(
                                kept,
                                ("to", lost, n, named),
                                _later(_retreat_note, job, lost, n),
                            ),
                        )
                    )
                    last = n
            found = self.retreats[lost] = (retreat, _decide(job, cited))
        return found


def _open(job: Job, region: Region, actor: str, defender: str | None) -> _Opening:
    """The Battle's opening in ``region`` (see :class:`_Opening`), kept with the table."""
    opening = _Opening(job, region, actor, defender)
    return put(kept_of(job.pos), ("battle", job.eng, job.t, _values(job.q)), opening)  # type: ignore[no-any-return]


KIND = QuestionKind(
    name="battle",
    order=90,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Battle"),
    help="Who wins each objective of the Battle in a Region, and what follows (or the order of Battles)?",
    answers=ui("how the Battle ends, for both sides"),
    needs=(),
    figures={
        "crystals-added": "battle-add-crystal",
        "wins-control": (
            "objective-region-control",
            "objective-control-defender-tie",
            "neutral-trogs-win-control",
            "solo-trogs-win-control",
        ),
        "control-vp": (
            "objective-region-control",
            "objective-control-defender-tie",
            "neutral-trogs-win-control",
            "solo-trogs-win-control",
        ),
        "places-control-token": (
            "objective-region-control",
            "objective-control-defender-tie",
            "neutral-trogs-win-control",
            "solo-trogs-win-control",
        ),
        "places-nest": ("neutral-trogs-win-control", "solo-trogs-win-control"),
        "takes-prisoners": "objective-capture-prisoners",
        "prisoners-taken": "objective-capture-prisoners",
        "kills": "objective-attrition",
        "kill-vp": ("objective-attrition-vp", "solo-kill-vp"),
        "not-fought": HANDLER,
        "control-winner": HANDLER,
        "vp-gained": HANDLER,
        "prisoners-by": HANDLER,
        "kills-by": HANDLER,
        "survivors": HANDLER,
        "units-in-region": HANDLER,
        "returned": HANDLER,
        "retreated": HANDLER,
        "retreat-to": HANDLER,
        "to-reserve": "retreat-to-reserve",
        "control-token": HANDLER,
        "nest": HANDLER,
        "nest-options": HANDLER,
        "to-hq": HANDLER,
        "survivors-to-hq": "solo-trogs-win-control",
        "order": HANDLER,
    },
    per_side=("vp-gained", "prisoners-by", "kills-by", "survivors", "units-in-region", "returned", "retreated"),
    no_actor=True,
    handler=resolve,
    offers=("region", "objectives", "capture-from"),  # where the Prisoners come from: else assumed, and said
    bare=("region",),
    form_label=ui("Who wins the Battle?"),
    verdict="checked",
)
