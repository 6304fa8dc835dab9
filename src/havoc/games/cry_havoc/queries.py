"""The query kinds: each turns a position and a question into an :class:`Answer`.

Most kinds are *generic*: every rule whose check lists the kind is evaluated, the answer is
"yes" when every requirement holds, and the figures are the rules' figures. A few kinds are
*mechanisms* that combine rule checks in an order the rules describe — retreat (which
neighbours qualify), battle (objectives in order, in :mod:`havoc.games.cry_havoc.battle`), score,
winner (tie-breaks), legal (probing every action). Numbers and conditions always come from
the checks and parameters in ``rules/``; this module only knows how to combine them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from havoc import record
from havoc.errors import InputError, Problem, RulebookError
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.position import Position, Region
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.ui import (
    deck_name,
    faction_name,
    figure_label,
    message_language,
    nui,
    region_names,
    skill_name,
    structure_name,
    ui,
    value_text,
)
from havoc.grammar import Noun
from havoc.interpreter.answer import Answer, Decision, Texts, deciding_overlay, decision, texts
from havoc.interpreter.engine import CompiledRule, Engine, RuleResult, engine, merge_figures
from havoc.interpreter.expr import ExprError
from havoc.rulebook.model import Ruleset


class Job:
    """One question being answered: the engine, the position, the query and the language."""

    __slots__ = ("_names", "eng", "lang", "pos", "q", "t")

    def __init__(self, eng: Engine, pos: Position, q: Query, lang: str, t: Texts) -> None:
        self.eng = eng
        self.pos = pos
        self.q = q
        self.lang = lang
        self.t = t
        self._names: dict[str, Noun] | None = None

    @property
    def actor(self) -> str | None:
        return self.q.faction

    def ctx(self, actor: str | None = None, q: Query | None = None, **kw: Any) -> Context:
        return Context(self.pos, q or self.q, actor if actor is not None else self.q.faction, **kw)

    def region(self, rid: str | None) -> Region | None:
        return self.pos.regions.get(rid) if rid else None

    def decide(self, result: RuleResult, note: str | None = None) -> Decision:
        return decision(self.t, self.eng.view.amendments, result, note)

    def fname(self, faction: str | None) -> Noun:
        return faction_name(faction, self.lang) if faction else Noun.plain("?")

    def rname(self, rid: str | None) -> Noun:
        """A Region of the table by its name in the asker's language ("Mgielnia", "Region A")."""
        if self._names is None:
            self._names = region_names(self.pos.regions, self.lang)
        if rid is None:
            return Noun.plain("?")
        return self._names.get(rid) or Noun.plain(rid)

    def rnames(self, rids: list[str], empty: str = "—") -> Noun:
        """Several Regions as one declinable list ("z Mgielnią, Wybrzeżem Feralas")."""
        return Noun.join([self.rname(r) for r in rids]) if rids else Noun.plain(empty)

    def titles(self, rule_ids: list[str]) -> str:
        """Rules named for people: their titles in the asker's language, not their IDs."""
        out = []
        for rid in rule_ids:
            rule = self.eng.view.rules.get(rid) or self.eng.rs.rules.get(rid)
            out.append(self.t.rule(rule)[0] if rule is not None else rid)
        return "; ".join(out)


def answer(rs: Ruleset, pos: Position, q: Query, lang: str = "en") -> Answer:
    """Answer one question about one position."""
    from havoc.games.cry_havoc import LABELS, questions

    job = Job(engine(rs, pos.variant), pos, q, lang, texts(rs, lang))
    kind = questions.get(q.kind)
    if kind is None:
        raise RulebookError([Problem("question-kinds", None, f"no handler for the question kind {q.kind!r}")])
    found: Answer = kind.handle(job)

    found.labels = LABELS
    return found


# --- generic kinds ------------------------------------------------------------------


def finish(
    job: Job,
    results: list[tuple[RuleResult, Context, str | None]],
    question: str,
    figures: dict[str, Any] | None = None,
    verdict: bool | None = None,
) -> Answer:
    """The answer from the rule results a kind's handler gathered: the rules that said no (or
    all of them), their figures, the fixes and exceptions; the verdict is "no rule said no"
    unless given. Every kind's handler ends here (the kind's declaration then settles yes_no)."""
    failed = [(r, c, n) for r, c, n in results if r.passed is False]
    if verdict is None:
        verdict = not failed
    shown = failed if failed else results
    decisions = [job.decide(r, n) for r, _, n in shown]
    figs = merge_figures([r for r, _, _ in results])
    if figures:
        figs.update(figures)
    hint = next((d.hint for d in decisions if d.hint), None)
    fixes: list[str] = []
    for r, c, _ in failed:
        fixes.extend(_fixes(job, r, c))
    unless = _exceptions(failed) if verdict is False else []
    for rid in unless:
        rule = job.eng.view.rules.get(rid) or job.eng.rs.rules.get(rid)
        if rule is not None:
            exception = job.decide(RuleResult(rule, None, {}, {}), ui("the exception", job.lang))
            exception.specific = True  # its text is what the player checks the card against
            decisions.append(exception)
    return Answer(
        kind=job.q.kind,
        question=question,
        verdict=verdict,
        rules=decisions,
        figures=figs,
        lang=job.lang,
        hint=hint,
        fixes=list(dict.fromkeys(fixes)),
        overlay=deciding_overlay(job.eng.rs, decisions),
        unless=unless,
    )


def _exceptions(failed: list[tuple[RuleResult, Context, str | None]]) -> list[str]:
    """The exception rules of a "no", when every rule that said no names one (else none)."""
    out: list[str] = []
    for r, _, _ in failed:
        check = r.rule.check
        if check is None or not check.unless:
            return []
        out.extend(check.unless)
    return list(dict.fromkeys(out))


def _generic(job: Job, ctx: Context, question: str) -> Answer:
    results = job.eng.evaluate(job.q.kind, ctx)
    return finish(job, [(r, ctx, None) for r in results], question)


def units_word(job: Job, n: int) -> str:
    """ "Unit" counted for ``n`` in the asker's language."""
    return job.t.term("unit", n)


def ask_move(job: Job) -> Answer:
    q, pos = job.q, job.pos
    assert q.frm is not None and q.to is not None
    path = [q.frm, *q.via, q.to]
    n = q.units if q.units is not None else 1
    question = ui("Can the {faction} move {count} {units} from {src} to {dst}?", job.lang).format(
        faction=job.fname(q.faction), count=n, units=units_word(job, n), src=job.rname(q.frm), dst=job.rname(q.to)
    )
    if q.via:
        question = question[:-1] + " " + ui("(through {regions})?", job.lang).format(regions=job.rnames(list(q.via)))
    steps = len(path) - 1
    results: list[tuple[RuleResult, Context, str | None]] = []
    seen: dict[str, int] = {}
    for i in range(steps):
        ctx = job.ctx(
            frm=pos.regions[path[i]],
            to=pos.regions[path[i + 1]],
            moved=q.moved_this_action if i == 0 else True,
            steps=steps,
        )
        note = f"{job.rname(path[i])} → {job.rname(path[i + 1])}" if steps > 1 else None
        # Rules about the start (own Units there, leaving a Battle) and the whole move (turn,
        # points) are checked once; each later step only for entering its Region.
        for r in job.eng.evaluate("move", ctx, only=None if i == 0 else _enters):
            at = seen.get(r.rule.id)
            if at is None:
                seen[r.rule.id] = len(results)
                results.append((r, ctx, note))
            elif r.passed is False and results[at][0].passed is not False:
                results[at] = (r, ctx, note)
    return finish(job, results, question)


def _enters(cr: CompiledRule) -> bool:
    return "to" in cr.needs


def ask_recruit(job: Job) -> Answer:
    q = job.q
    who = q.faction
    assert who is not None
    region = job.region(q.region) or job.pos.hq_of(who)
    if q.points is None:
        # No points given: the question is whether the Units could be recruited at all.
        job.q = q = record.replace(q, points=q.units if q.units is not None else job.pos.reserve(who))
    n = q.units if q.units is not None else 1
    question = ui("Can the {faction} recruit {count} {units}?", job.lang).format(
        faction=job.fname(who), count=n, units=units_word(job, n)
    )
    return _generic(job, job.ctx(region=region), question)


def _known_cost(job: Job) -> None:
    """The printed build cost of the question's Structure, from the rules (``<type>-build-cost``).

    Left out, the question uses it; given and different, the question describes another
    game (a located error, never an answer).
    """
    q = job.q
    if q.structure is None:
        return
    param = job.eng.rs.params.get(f"{q.structure}-build-cost")
    if param is None or isinstance(param.value, bool) or not isinstance(param.value, int):
        return
    if q.cost is None:
        job.q = record.replace(q, cost=param.value)
    elif q.cost != param.value:
        raise InputError(
            [
                Problem(
                    q.name,
                    None,
                    "cost: "
                    + ui(
                        "{cost}, but the rules give a {structure} a build cost of {printed} (parameter {param}); "
                        "leave cost out or give {printed}",
                        message_language(),
                    ).format(cost=q.cost, structure=q.structure, printed=param.value, param=param.name),
                )
            ]
        )


def _structure_name(job: Job) -> Noun:
    """A Structure's printed name in the asker's language, declinable ("Żniwiarkę")."""
    return structure_name(job.q.structure, job.lang)


def ask_build(job: Job) -> Answer:
    _known_cost(job)
    q = job.q
    if q.other_cost:
        question = ui(
            "Can the {faction} build a {structure} in {region}, spending {other} {points} in the same action on "
            "other Structures?",
            job.lang,
        ).format(
            faction=job.fname(q.faction),
            structure=_structure_name(job),
            region=job.rname(q.region),
            other=q.other_cost,
            points=nui("Build point", "Build points", q.other_cost, job.lang),
        )
    else:
        question = ui("Can the {faction} build a {structure} in {region}?", job.lang).format(
            faction=job.fname(q.faction), structure=_structure_name(job), region=job.rname(q.region)
        )
    return _generic(job, job.ctx(region=job.region(q.region)), question)


def ask_activate(job: Job) -> Answer:
    q = job.q
    question = ui("Can the {faction} activate their {structure} in {region}?", job.lang).format(
        faction=job.fname(q.faction), structure=_structure_name(job), region=job.rname(q.region)
    )
    return _generic(job, job.ctx(region=job.region(q.region)), question)


def ask_draw(job: Job) -> Answer:
    q = job.q
    question = ui("Can the {faction} draw Tactics cards from {deck}?", job.lang).format(
        faction=job.fname(q.faction), deck=deck_name(q.deck or "own", job.lang)
    )
    return _generic(job, job.ctx(), question)


def ask_enable(job: Job) -> Answer:
    question = ui("Can the {faction} enable scoring now?", job.lang).format(faction=job.fname(job.q.faction))
    return _generic(job, job.ctx(), question)


def ask_skill(job: Job) -> Answer:
    question = ui("Can the {faction} use their Skill {skill} now?", job.lang).format(
        faction=job.fname(job.q.faction), skill=skill_name(job.q.skill, job.lang)
    )
    return _generic(job, job.ctx(), question)


def _battle_of(job: Job, who: str | None) -> Region | None:
    """The question's region, else the next Battle Region where ``who`` fights."""
    if job.q.region:
        return job.pos.regions[job.q.region]
    battles = sorted((r for r in job.pos.regions.values() if r.battle), key=lambda r: r.battle.token if r.battle else 0)
    for r in battles:
        if who is None or who in r.sides():
            return r
    return None


def ask_tactic(job: Job) -> Answer:
    region = _battle_of(job, job.q.faction)
    question = ui("Can the {faction} play this Tactics card in the Battle in {region}?", job.lang).format(
        faction=job.fname(job.q.faction), region=job.rname(region.id if region else None)
    )
    return _generic(job, job.ctx(region=region), question)


def ask_discard(job: Job) -> Answer:
    question = ui("How many cards must the {faction} discard?", job.lang).format(faction=job.fname(job.q.faction))
    return _generic(job, job.ctx(), question)


def ask_prisoners(job: Job) -> Answer:
    q = job.q
    n = q.units if q.units is not None else 1
    question = ui("Can the {faction} buy back {count} {units} held as prisoners?", job.lang).format(
        faction=job.fname(q.faction), count=n, units=units_word(job, n)
    )
    return _generic(job, job.ctx(), question)


# --- retreat --------------------------------------------------------------------------


class Retreat:
    """Where a side may retreat to, and the rule results that said so."""

    __slots__ = ("destinations", "nest_on", "nests", "refused", "results")

    def __init__(
        self,
        destinations: list[str],
        results: list[tuple[RuleResult, Context, str | None]],
        refused: dict[str, list[str]],
        nests: bool = False,
        nest_on: list[str] | None = None,
    ) -> None:
        self.destinations = destinations
        self.results = results
        self.refused = refused  # neighbour -> the rules it failed
        self.nests = nests  # a rule replaces the retreat by a Trog Nest token (neutral Trogs)
        self.nest_on = nest_on or []  # where that token may go


def _needs_to(cr: CompiledRule) -> bool:
    return "to" in cr.needs


def _not_to(cr: CompiledRule) -> bool:
    return "to" not in cr.needs


def retreat_options(job: Job, who: str, region: Region) -> Retreat:
    """Which neighbours of ``region`` the ``who`` Units may retreat to, by the retreat rules.

    First the rules that test a destination, once per neighbour; then the rules about the
    retreat as a whole (no Region qualifies: the Reserve), told how many neighbours qualified.
    """
    q = record.replace(job.q, kind="retreat", faction=who)
    dest: list[str] = []
    nest_on: list[str] = []
    nests = False
    refused: dict[str, list[str]] = {}
    results: list[tuple[RuleResult, Context, str | None]] = []
    for rid in sorted(region.neighbours):
        ctx = Context(job.pos, q, who, region=region, frm=region, to=job.pos.regions[rid])
        rs = job.eng.evaluate("retreat", ctx, only=_needs_to)
        failed = [r.rule.id for r in rs if r.passed is False]
        if failed:
            refused[rid] = failed
        elif rs:
            dest.append(rid)
        for r in rs:
            results.append((r, ctx, rid))
        figs = merge_figures(rs)
        if C.F_PLACES_NEST in figs:
            nests = True
            if figs[C.F_PLACES_NEST]:
                nest_on.append(rid)
    ctx0 = Context(job.pos, q, who, region=region, frm=region, retreat_destinations=len(dest))
    results.extend((r, ctx0, None) for r in job.eng.evaluate("retreat", ctx0, only=_not_to))
    return Retreat(dest, results, refused, nests, nest_on)


def ask_retreat(job: Job) -> Answer:
    who = job.q.faction
    assert who is not None and job.q.frm is not None
    region = job.pos.regions[job.q.frm]
    opts = retreat_options(job, who, region)
    if job.q.to is not None:
        n = job.q.units if job.q.units is not None else 1
        question = ui("Can the {faction} retreat {count} {units} from {src} to {dst}?", job.lang).format(
            faction=job.fname(who), count=n, units=units_word(job, n), src=job.rname(region.id), dst=job.rname(job.q.to)
        )
        ctx = job.ctx(region=region, frm=region, to=job.pos.regions[job.q.to])
        ctx.retreat_destinations = len(opts.destinations)
        results: list[tuple[RuleResult, Context, str | None]] = [
            (r, ctx, None) for r in job.eng.evaluate("retreat", ctx)
        ]
        return finish(job, results, question)
    question = ui("Where may the {faction} retreat to from {region}?", job.lang).format(
        faction=job.fname(who), region=job.rname(region.id)
    )
    to_reserve = not opts.destinations and not opts.nests
    lines = []
    for rid in sorted(region.neighbours):
        if rid in opts.destinations:
            lines.append(f"{job.rname(rid)}: " + ui("yes", job.lang))
        else:
            why = job.titles(opts.refused.get(rid, []))
            lines.append(f"{job.rname(rid)}: " + ui("no", job.lang) + (f" [{why}]" if why else ""))
    if opts.nests:
        if opts.nest_on:
            lines.append(
                ui("The Trog Units leave the board; a Trog Nest token goes on one of: {regions}", job.lang).format(
                    regions=job.rnames(opts.nest_on)
                )
            )
        else:
            lines.append(
                ui("The Trog Units leave the board; no adjacent Region is free for a Trog Nest token.", job.lang)
            )
    elif to_reserve:
        lines.append(ui("No Region qualifies: the Units go back to the Reserve.", job.lang))
    # Cite each rule once: where it refused a neighbour, else where it allowed one.
    cited: dict[str, tuple[RuleResult, Context, str | None]] = {}
    for r, c, cand in opts.results:
        if r.rule.id not in cited or (r.passed is False and cited[r.rule.id][0].passed is not False):
            cited[r.rule.id] = (r, c, cand)
    decisions = [job.decide(r, str(job.rname(cand)) if cand else None) for r, _, cand in cited.values()]
    figs = merge_figures([r for r, _, _ in opts.results])
    figs.update({"destinations": opts.destinations, C.F_TO_RESERVE: to_reserve})
    if opts.nests:
        figs["nest-options"] = opts.nest_on
        figs[C.F_PLACES_NEST] = bool(opts.nest_on)
    return Answer(
        kind="retreat",
        question=question,
        verdict=bool(opts.destinations),
        rules=decisions,
        figures=figs,
        lang=job.lang,
        overlay=deciding_overlay(job.eng.rs, decisions),
        details={"destinations": opts.destinations, "refused": opts.refused, "to-reserve": to_reserve},
        lines=lines,
        yes_no=False,
    )


# --- score ------------------------------------------------------------------------------


def _gates(cr: CompiledRule) -> bool:
    return not cr.figures


def _with_figures(cr: CompiledRule) -> bool:
    return bool(cr.figures)


def vp_sum(figures: dict[str, Any]) -> int:
    """VP gained: the sum of every whole-number figure named ``…-vp``."""
    return sum(
        v for k, v in figures.items() if k.endswith(C.VP_SUFFIX) and isinstance(v, int) and not isinstance(v, bool)
    )


def ask_score(job: Job) -> Answer:
    """Each player's VP from the scoring rules; the asking faction's figures come first."""
    pos = job.pos
    asker = job.q.faction
    question = ui("What does each faction score this round?", job.lang)
    if asker is not None:
        question = ui("What do the {faction} score this round?", job.lang).format(faction=job.fname(asker))
    players = list(pos.players) + ([asker] if asker and asker not in pos.players else [])
    ctx0 = job.ctx(actor=asker or players[0])
    gates = job.eng.evaluate("score", ctx0, only=_gates)
    cited: list[tuple[RuleResult, Context, str | None]] = [(r, ctx0, None) for r in gates]
    per: dict[str, dict[str, Any]] = {}
    gained: dict[str, int] = {}
    mine: list[tuple[RuleResult, Context, str | None]] = []
    others: list[tuple[RuleResult, Context, str | None]] = []
    for f in players:
        ctx = job.ctx(actor=f)
        rs = job.eng.evaluate("score", ctx, only=_with_figures)
        figs = merge_figures(rs)
        per[f] = figs
        gained[f] = vp_sum(figs)
        (mine if f == asker else others).extend((r, ctx, job.fname(f)) for r in rs)
    figures: dict[str, Any] = dict(per.get(asker, {})) if asker else {}
    if asker:
        figures["vp"] = gained[asker]
    figures["vp-gained"] = gained
    figures["total-vp"] = {f: pos.faction(f).vp + gained[f] for f in players}
    event_lines: list[str] = []
    if asker and pos.events:
        moved, event_lines = _events_passed(job, pos.faction(asker).vp, figures["total-vp"][asker])
        figures[C.F_EVENTS_MOVED] = moved
    ans = finish(job, cited + mine + others, question, figures)
    ans.figures = figures
    if (
        not any(v for v in gained.values())
        and not any(r.passed is False for r in gates)
        and not (pos.is_final_round or pos.scoring_enabled_by)
    ):
        ans.lines.append(ui("Scoring is not enabled this round: nobody scores.", job.lang))
    for f in players:
        parts = ", ".join(f"{figure_label(k, job.lang)} {v}" for k, v in per[f].items() if k.endswith(C.VP_SUFFIX))
        vp_word = ui("VP", job.lang)
        ans.lines.append(
            f"{job.fname(f)}: +{gained[f]} {vp_word}"
            + (f" ({parts})" if parts else "")
            + f" → {figures['total-vp'][f]}"
        )
    ans.lines.extend(event_lines)
    ans.details = {
        "factions": {f: {"gained": gained[f], "figures": per[f], "total": figures["total-vp"][f]} for f in players}
    }
    return ans


def _events_passed(job: Job, old: int, new: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The Event stacks a Score token moving from ``old`` to ``new`` VP passes, in the order it
    passes them; each moves on top of the next stack on the track (rule ``events-passed``).

    A spot the token stops on is not passed; the track goes round after its last spot, and one
    scoring never takes a token round it more than once.
    """
    track = job.eng.int_param(C.P_SCORE_TRACK)
    stacks = dict(job.pos.events)
    moved: list[dict[str, Any]] = []
    lines: list[str] = []
    for vp in range(old + 1, min(new, old + track + 1)):
        spot = vp % track
        count = stacks.get(spot, 0)
        if not count:
            continue
        after = [s for s in sorted(stacks) if s > spot]
        nxt = after[0] if after else None
        moved.append({"from": spot, "to": nxt, "tokens": count})
        if nxt is None:
            lines.append(
                nui(
                    "The Score token passes {count} Event token on spot {spot}; the rulebook does not say where the last stack goes.",
                    "The Score token passes {count} Event tokens on spot {spot}; the rulebook does not say where the last stack goes.",
                    count,
                    job.lang,
                ).format(count=count, spot=spot)
            )
            continue
        stacks[spot] = 0
        stacks[nxt] += count
        lines.append(
            nui(
                "The Score token passes {count} Event token on spot {spot}: it goes on top of the stack on spot {next}.",
                "The Score token passes {count} Event tokens on spot {spot}: they go on top of the stack on spot {next}.",
                count,
                job.lang,
            ).format(count=count, spot=spot, next=nxt)
        )
    return moved, lines


# --- winner -----------------------------------------------------------------------------


def ask_winner(job: Job) -> Answer:
    """The winner: most ``final-vp``, then each ``tiebreak-…`` figure in rule order.

    With an asking faction, the verdict says whether it wins and the figures are its own.
    """
    pos = job.pos
    asker = job.q.faction
    question = (
        ui("Who wins the game?", job.lang)
        if asker is None
        else ui("Do the {faction} win the game?", job.lang).format(faction=job.fname(asker))
    )
    rules = job.eng.rules_for("winner")
    base = [cr for cr in rules if not any(n.startswith(C.TIEBREAK_PREFIX) for n in cr.figures)]
    breakers = [(cr, n) for cr in rules for n in cr.figures if n.startswith(C.TIEBREAK_PREFIX)]
    if not any(C.F_FINAL_VP in cr.figures for cr in base):
        raise RulebookError(
            [Problem(job.eng.rs.id, None, f"no rule checked for `winner` defines the figure {C.F_FINAL_VP!r}")]
        )
    cited: list[tuple[RuleResult, Context, str | None]] = []
    eligible: dict[str, int] = {}
    excluded: dict[str, list[str]] = {}
    mine: dict[str, Any] = {}
    # The Trogs compete when a rule in force gives them a final score (a variant where they
    # are the opponent); neutral Trogs get none and are left out.
    candidates = list(dict.fromkeys([*pos.players, *([asker] if asker else []), C.TROGS]))
    for f in candidates:
        ctx = job.ctx(actor=f)
        rs = [r for cr in base if (r := job.eng.evaluate_rule(cr, ctx)) is not None]
        if f not in pos.players and f != asker and C.F_FINAL_VP not in merge_figures(rs):
            continue
        cited.extend((r, ctx, job.fname(f)) for r in rs)
        if f == asker:
            mine.update(merge_figures(rs))
        failed = [r.rule.id for r in rs if r.passed is False]
        if failed:
            excluded[f] = failed
            continue
        vp = merge_figures(rs).get(C.F_FINAL_VP)
        if not isinstance(vp, int) or isinstance(vp, bool):
            raise RulebookError(
                [Problem(job.eng.rs.id, None, f"figure {C.F_FINAL_VP!r} must be a whole number, found {vp!r}")]
            )
        eligible[f] = vp
    keys: dict[str, list[int]] = {f: [v] for f, v in eligible.items()}
    tied = [f for f, v in eligible.items() if v == max(eligible.values())] if eligible else []
    used_breakers: list[str] = []
    for cr, fig in breakers:
        if len(tied) < 2:
            break
        values: dict[str, int] = {}
        for f in tied:
            ctx = job.ctx(actor=f)
            r = job.eng.evaluate_rule(cr, ctx)
            v = r.figures.get(fig) if r is not None else None
            values[f] = v if isinstance(v, int) and not isinstance(v, bool) else 0
            keys[f].append(values[f])
            if r is not None:
                cited.append((r, ctx, job.fname(f)))
                if f == asker:
                    mine.update(r.figures)
        best = max(values.values())
        tied = [f for f in tied if values[f] == best]
        used_breakers.append(fig)
    if asker in eligible and not used_breakers:
        # The asker's tie-break figures are still worth showing when they exist.
        for cr, _ in breakers:
            try:
                r = job.eng.evaluate_rule(cr, job.ctx(actor=asker))
            except InputError:
                continue
            if r is not None:
                mine.update(r.figures)
    winner = tied[0] if len(tied) == 1 else None
    order = sorted(eligible, key=lambda f: keys[f], reverse=True)
    figures: dict[str, Any] = {**mine, "winner": winner or "", "ranking": order}
    if used_breakers:
        figures["tie-broken-by"] = used_breakers
    verdict = (winner == asker) if asker is not None else winner is not None
    ans = finish(job, cited, question, figures, verdict=verdict)
    ans.figures = figures
    ans.yes_no = asker is not None
    ans.hint = None
    ans.fixes = []
    ans.lines = [ui("Winner: {faction}", job.lang).format(faction=job.fname(winner) if winner else "—")]
    for i, f in enumerate(order, 1):
        vp_word = ui("VP", job.lang)
        ans.lines.append(f"{i}. {job.fname(f)}: {eligible[f]} {vp_word}")
    for f, why in excluded.items():
        ans.lines.append(ui("{faction} cannot win", job.lang).format(faction=job.fname(f)) + f" [{job.titles(why)}]")
    if used_breakers:
        ans.lines.append(
            ui("Tie broken by", job.lang) + ": " + ", ".join(figure_label(b, job.lang) for b in used_breakers)
        )
    ans.details = {"winner": winner, "ranking": order, "keys": keys, "excluded": excluded}
    return ans


# --- the battle and its order -------------------------------------------------------------


# --- legal --------------------------------------------------------------------------------


def _probe(job: Job, kind: str, **changes: Any) -> Query:
    return record.replace(job.q, kind=kind, **changes)


def _fits(bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
    return lambda cr: cr.needs <= bound


def _ok(rs: list[RuleResult]) -> bool:
    return all(r.passed is not False for r in rs)


def _why(rs: list[RuleResult]) -> list[str]:
    return [r.rule.id for r in rs if r.passed is False]


_B0: frozenset[str] = frozenset()
_B_FROM = frozenset({"from"})
_B_MOVE = frozenset({"from", "to"})
_B_REGION = frozenset({"region"})
_B_STRUCT = frozenset({"region", "structure"})
_B_SKILL = frozenset({"skill"})


class _Legal:
    """The legal-actions report being built: each action kind is probed by a method of its own.

    Each probe works in two steps: first the rules that need nothing but the position (phase,
    turn, round); then, if those allow it, the rules about each candidate Region, Structure,
    Skill or deck, which give the limits.
    """

    def __init__(self, job: Job) -> None:
        assert job.q.faction is not None
        self.job, self.pos, self.who, self.eng, self.lang = job, job.pos, job.q.faction, job.eng, job.lang
        self.actions: list[dict[str, Any]] = []
        self.nothing = ui("nothing in the position to do it with", job.lang)

    def add(self, action: str, label: str, allowed: bool, limits: dict[str, Any], why: list[str], text: str) -> None:
        self.actions.append(
            {"action": action, "allowed": allowed, "limits": limits, "refused-by": why, "label": label, "text": text}
        )

    def gate(self, kind: str, q: Query, label: str) -> bool:
        rs = self.eng.evaluate(kind, Context(self.pos, q, self.who), only=_fits(_B0))
        if not _ok(rs):
            self.add(kind, label, False, {}, _why(rs), "")
            return False
        return True

    @staticmethod
    def detail(bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
        return lambda cr: bool(cr.needs) and cr.needs <= bound

    def parts(
        self,
    ) -> tuple[
        Position,
        str,
        Engine,
        str,
        str,
        Callable[[str, str, bool, dict[str, Any], list[str], str], None],
        Callable[[str, Query, str], bool],
        Callable[[frozenset[str]], Callable[[CompiledRule], bool]],
        Job,
    ]:
        """What a probe works with: position, faction, engine, language, the "nothing to do it
        with" words, and the report's add, gate and detail, and the job (one line per probe)."""
        return self.pos, self.who, self.eng, self.lang, self.nothing, self.add, self.gate, self.detail, self.job

    def probe_all(self) -> None:
        """Every kind that declares a legal probe, in the vocabulary's order of kinds."""
        from havoc.games.cry_havoc import questions

        for kind in questions.all_kinds():
            if kind.legal:
                getattr(self, kind.legal)()

    # The probes a kind may name as its `legal` (havoc check verifies each kind's name is one).
    PROBES = (
        "move",
        "recruit",
        "build",
        "activate",
        "draw_tactics",
        "enable_scoring",
        "use_skill",
        "play_tactic",
        "discard",
        "buy_back",
    )

    def move(self) -> None:
        """Move: from each Region with the faction's Units, how many may go and where."""
        pos, who, eng, lang, nothing, add, gate, detail, job = self.parts()
        mq = _probe(job, "move", units=1, points=None, frm=None, to=None, via=())
        if gate("move", mq, ui("Move", lang)):
            moves: dict[str, dict[str, Any]] = {}
            held: list[str] = []  # the rules that keep Units where they are (e.g. a Battle Region)
            for rid in sorted(pos.regions):
                region = pos.regions[rid]
                own = region.units.get(who, 0)
                if own <= 0:
                    continue
                leave = eng.evaluate("move", Context(pos, mq, who, frm=region), only=detail(_B_FROM))
                limit = merge_figures(leave).get("may-leave", own)
                if not _ok(leave) or not isinstance(limit, int) or limit <= 0:
                    held.extend(_why(leave) or [r.rule.id for r in leave if "may-leave" in r.figures])
                    continue
                dests = []
                for nid in sorted(region.neighbours):
                    c2 = Context(pos, mq, who, frm=region, to=pos.regions[nid])
                    if _ok(eng.evaluate("move", c2, only=lambda cr: "to" in cr.needs and cr.needs <= _B_MOVE)):
                        dests.append(nid)
                if dests:
                    moves[rid] = {"units": min(own, limit), "to": dests}
            text = "; ".join(f"{job.rname(rid)}: {m['units']} → {job.rnames(m['to'])}" for rid, m in moves.items())
            why_not = [] if moves else list(dict.fromkeys(held))
            add(
                "move",
                ui("Move", lang),
                bool(moves),
                {"from": moves} if moves else {},
                why_not,
                text or ("" if why_not else nothing),
            )

    def recruit(self) -> None:
        """Recruit: into the own HQ, as many as the Reserve holds (points permitting)."""
        pos, who, eng, lang, nothing, add, gate, detail, job = self.parts()
        hq = pos.hq_of(who)
        reserve = pos.reserve(who)
        rq = _probe(job, "recruit", units=1, points=max(reserve, 1), region=hq.id if hq else None)
        if gate("recruit", rq, ui("Recruit", lang)):
            rs = eng.evaluate("recruit", Context(pos, rq, who, region=hq), only=detail(_B_REGION)) if hq else []
            ok = _ok(rs) and reserve > 0
            units_text = ui("Units: up to {count}", lang).format(count=reserve) + (
                f" ({job.rname(hq.id)})" if hq else ""
            )
            add(
                "recruit",
                ui("Recruit", lang),
                ok,
                {"units": reserve, "region": hq.id if hq else None} if ok else {},
                _why(rs),
                units_text if ok else ("" if rs else nothing),
            )

    def build(self) -> None:
        """Build: in which listed Regions (any Structure type the rules allow there)."""
        pos, who, eng, lang, nothing, add, gate, detail, job = self.parts()
        bq = _probe(job, "build", units=None, points=None, structure=None)
        if gate("build", bq, ui("Build", lang)):
            build_ok = [
                rid
                for rid in sorted(pos.regions)
                if _ok(eng.evaluate("build", Context(pos, bq, who, region=pos.regions[rid]), only=detail(_B_REGION)))
            ]
            add(
                "build",
                ui("Build", lang),
                bool(build_ok),
                {"regions": build_ok} if build_ok else {},
                [],
                str(job.rnames(build_ok, nothing)),
            )

    def activate(self) -> None:
        """Activate: the faction's own Structures that the rules let it activate now."""
        pos, who, eng, lang, nothing, add, gate, detail, job = self.parts()
        aq0 = _probe(job, "activate", structure=None, activations=0)
        if gate("activate", aq0, ui("Activate", lang)):
            act_ok: list[str] = []
            act_names: list[str] = []  # the same, for people: "Żniwiarka (Region A)"
            for rid in sorted(pos.regions):
                region = pos.regions[rid]
                for s in region.structures:
                    if s.owner != who:
                        continue
                    aq = _probe(job, "activate", structure=s.type, region=rid, activations=0)
                    if _ok(eng.evaluate("activate", Context(pos, aq, who, region=region), only=detail(_B_STRUCT))):
                        act_ok.append(f"{s.type}@{rid}")
                        act_names.append(f"{structure_name(s.type, lang)} ({job.rname(rid)})")
            add(
                "activate",
                ui("Activate", lang),
                bool(act_ok),
                {"structures": act_ok} if act_ok else {},
                [],
                ", ".join(act_names) or nothing,
            )

    def draw_tactics(self) -> None:
        """Draw Tactics cards: from which decks."""
        pos, who, eng, lang, add, gate, job = self.pos, self.who, self.eng, self.lang, self.add, self.gate, self.job
        dq0 = _probe(job, "draw-tactics", deck=None)
        if gate("draw-tactics", dq0, ui("Draw Tactics cards", lang)):
            decks = [
                deck
                for deck in C.DECKS
                if _ok(
                    eng.evaluate(
                        "draw-tactics", Context(pos, _probe(job, "draw-tactics", deck=deck), who), only=_fits(_B0)
                    )
                )
            ]
            add(
                "draw-tactics",
                ui("Draw Tactics cards", lang),
                bool(decks),
                {"decks": decks} if decks else {},
                [],
                ", ".join(deck_name(d, lang) for d in decks),
            )

    def enable_scoring(self) -> None:
        """Enable scoring."""
        lang, add, gate, job = self.lang, self.add, self.gate, self.job
        if gate("enable-scoring", _probe(job, "enable-scoring"), ui("Enable scoring", lang)):
            add("enable-scoring", ui("Enable scoring", lang), True, {}, [], "")

    def use_skill(self) -> None:
        """Skills: which ready ones may be used now (besides the action)."""
        pos, who, eng, lang, nothing, add, gate, detail, job = self.parts()
        skills = sorted(pos.faction(who).skills)
        if skills and gate("use-skill", _probe(job, "use-skill", skill=skills[0]), ui("Use a Skill", lang)):
            usable = [
                skill
                for skill in skills
                if _ok(
                    eng.evaluate(
                        "use-skill", Context(pos, _probe(job, "use-skill", skill=skill), who), only=detail(_B_SKILL)
                    )
                )
            ]
            add(
                "use-skill",
                ui("Use a Skill", lang),
                bool(usable),
                {"skills": usable} if usable else {},
                [],
                ", ".join(skill_name(k, lang) for k in usable) or nothing,
            )

    def play_tactic(self) -> None:
        """The Battle Resolution phase: play a Tactics card in the Battle being resolved."""
        pos, who, eng, lang, add, job = self.pos, self.who, self.eng, self.lang, self.add, self.job
        fight = _battle_of(job, who)
        if fight is not None and fight.battle is not None:
            tq = _probe(job, "play-tactic", region=fight.id)
            rs = eng.evaluate("play-tactic", Context(pos, tq, who, region=fight), only=_fits(_B_REGION))
            add(
                "play-tactic",
                ui("Play a Tactics card", lang),
                _ok(rs),
                {"region": fight.id} if _ok(rs) else {},
                _why(rs),
                fight.id if _ok(rs) else "",
            )

    def discard(self) -> None:
        """The Draw Cards phase: discard down to the hand limit."""
        pos, who, eng, lang, add, job = self.pos, self.who, self.eng, self.lang, self.add, self.job
        if pos.faction(who).hand is not None:
            rs = eng.evaluate("discard", Context(pos, _probe(job, "discard"), who), only=_fits(_B0))
            must = merge_figures(rs).get("must-discard", 0)
            if _ok(rs) and isinstance(must, int) and must > 0:
                add("discard", ui("Discard", lang), True, {"must-discard": must}, [], str(must))

    def buy_back(self) -> None:
        """The Prisoners phase: how many own Units may be bought back."""
        pos, who, eng, lang, add, job = self.pos, self.who, self.eng, self.lang, self.add, self.job
        if pos.held_by_others(who):
            can = 0
            why: list[str] = []
            for n in range(1, pos.held_by_others(who) + 1):
                rs = eng.evaluate("prisoners", Context(pos, _probe(job, "prisoners", units=n), who), only=_fits(_B0))
                if not _ok(rs):
                    why = _why(rs)
                    break
                can = n
            add(
                "buy-back",
                ui("Buy back prisoners", lang),
                can > 0,
                {"units": can} if can else {},
                [] if can else why,
                ui("Units: up to {count}", lang).format(count=can) if can else "",
            )


def legal_probes() -> frozenset[str]:
    """The probes of the legal-actions report a kind may name (each a method of the report)."""
    return frozenset(p for p in _Legal.PROBES if callable(getattr(_Legal, p, None)))


def ask_legal(job: Job) -> Answer:
    """What the asking faction may do now: each action with its limits, from the rules.

    Each action kind is probed by its own method of :class:`_Legal`.
    """
    pos, who, eng = job.pos, job.q.faction, job.eng
    assert who is not None
    lang = job.lang
    question = ui("What may the {faction} do now?", lang).format(faction=job.fname(who))
    ctx = job.ctx()
    general = eng.evaluate("legal", ctx, only=_fits(_B0))
    cited: list[tuple[RuleResult, Context, str | None]] = [(r, ctx, None) for r in general]
    if not _ok(general):
        return finish(job, cited, question)  # a no: the kind's declaration says it is no yes/no question
    legal = _Legal(job)
    legal.probe_all()
    actions = legal.actions
    allowed = [a for a in actions if a["allowed"]]
    lines = [f"✓ {a['label']}" + (f" — {a['text']}" if a["text"] else "") for a in allowed]
    refused: dict[tuple[str, ...], list[str]] = {}
    for a in actions:
        if not a["allowed"]:
            key = tuple(a["refused-by"]) or (a["text"],)
            refused.setdefault(key, []).append(a["label"])
    for why_key, labels in refused.items():
        reason = job.titles([w for w in why_key if w]) if any(why_key) and actions_refused_by_rules(why_key) else ""
        reason = reason or ", ".join(w for w in why_key if w)
        lines.append(f"✗ {', '.join(labels)}" + (f" — {reason}" if reason else ""))
    figures = merge_figures(general)
    spot = figures.get("upcoming-position")
    if isinstance(spot, int) and not isinstance(spot, bool) and pos.upcoming_initiative and spot >= 1:
        # An Initiative card puts the token on that spot; the tokens from there on shift back.
        order = [f for f in pos.upcoming_initiative if f != who]
        order.insert(min(spot, len(order) + 1) - 1, who)
        figures["upcoming-order"] = order
    figures["actions"] = [a["action"] for a in allowed]
    ans = finish(job, cited, question, figures, verdict=bool(allowed))
    ans.lines = lines
    ans.details = {
        "faction": who,
        "phase": pos.phase,
        "actions": [{k: v for k, v in a.items() if k not in {"label", "text"}} for a in actions],
    }
    return ans


def actions_refused_by_rules(why: tuple[str, ...]) -> bool:
    """A refused action's reason is rule IDs (named by title) rather than a sentence."""
    return all(" " not in w for w in why if w)


# --- fixes: what would make a "no" legal ----------------------------------------------------

_FIELD_OF = {
    "query.units": "units",
    "query.points": "points",
    "query.cost": "cost",
    "query.activations-this-action": "activations",
    "query.position": "position",
}


def _fixes(job: Job, result: RuleResult, ctx: Context) -> list[str]:
    """For a failed requirement that bounds a number the question gives, say the bound."""
    check = result.rule.check
    if check is None or check.requires is None:
        return []
    ctx.figs = dict(result.figures)
    out: list[str] = []
    try:
        _explain(job, check.requires, ctx, out)
    except (ExprError, InputError, TypeError, ValueError, ArithmeticError):
        return out
    return out


def _literal_compare(e: Any) -> bool:
    """A comparison with a literal (``points = 0``: "not given") is no fix worth proposing."""
    if not isinstance(e, dict) or len(e) != 1:
        return False
    ((_, arg),) = e.items()
    return isinstance(arg, list) and any(isinstance(a, (int, str)) and not isinstance(a, bool) for a in arg)


def _explain(job: Job, e: Any, ctx: Context, out: list[str]) -> None:
    if not isinstance(e, dict) or len(e) != 1:
        return
    ((op, arg),) = e.items()
    if op in ("all", "any"):
        for child in arg:
            if not job.eng.sub(child)(ctx) and not _literal_compare(child):
                _explain(job, child, ctx, out)
        return
    flip = {"le": "ge", "lt": "gt", "ge": "le", "gt": "lt", "eq": "eq", "ne": "ne"}
    if op not in flip or not isinstance(arg, list) or len(arg) != 2:
        return
    left, right = arg
    if isinstance(right, dict) and right.get("fact") in _FIELD_OF:
        left, right, op = right, left, flip[op]
    if not (isinstance(left, dict) and left.get("fact") in _FIELD_OF):
        return
    bound = job.eng.sub(right)(ctx)
    if not isinstance(bound, int) or isinstance(bound, bool):
        return
    name = _FIELD_OF[left["fact"]]
    lang = job.lang
    if op in ("le", "lt"):
        value = bound if op == "le" else bound - 1
        if value < 1:
            return  # "at most 0" is no way to make it legal
        out.append(ui("{field}: at most {value}", lang).format(field=_field_word(name, lang), value=value))
    elif op in ("ge", "gt"):
        value = bound if op == "ge" else bound + 1
        out.append(ui("{field}: at least {value}", lang).format(field=_field_word(name, lang), value=value))
    elif op == "eq":
        out.append(ui("{field}: exactly {value}", lang).format(field=_field_word(name, lang), value=bound))


def _field_word(name: str, lang: str) -> str:
    """A question field as a word in the asker's language."""
    words = {
        "units": ui("Units", lang),
        "points": ui("points", lang),
        "cost": ui("Build points for the Structures", lang),
        "activations": ui("activations in this action", lang),
        "position": ui("Initiative spot", lang),
    }
    return words.get(name, name)


__all__ = ["Answer", "Decision", "Job", "answer", "retreat_options", "value_text", "vp_sum"]
