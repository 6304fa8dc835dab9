"""The question kind ``retreat``: where may Units retreat from a Battle Region?"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from havoc import record
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job, finish, units_word
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.kinds.legal import probe_query
from havoc.games.cry_havoc.position import Region
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.subsets import subset
from havoc.games.cry_havoc.ui import ui
from havoc.interpreter.answer import Answer, deciding_overlay
from havoc.interpreter.engine import CompiledRule, RuleResult, merge_figures


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


# the question's fields but its mappings (the Units on a Battle's objectives, a card's Units)
_MAPPINGS = ("objectives", "card_units")
_values = attrgetter(*(f for f in Query.__record_fields__ if f not in _MAPPINGS))  # type: ignore[attr-defined]
_kept: dict[tuple[Any, ...], Query] = {}
_KEPT = 4096


def _retreat_query(job: Job, who: str) -> Query:
    """The question the retreat rules are asked: the asked one as a retreat by ``who``.

    A Battle's question names the Units on the objectives, which no retreat rule reads (no fact
    reads a question's mappings): the retreat after a Battle asks the question without them,
    kept by value, as :func:`probe_query` keeps a probe, not a fresh copy every Battle.
    """
    q = job.q
    if not (q.objectives or q.card_units):
        return probe_query(job, "retreat", faction=who)
    key = (_values(q), who)
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= _KEPT:
            _kept.clear()
        found = _kept[key] = record.replace(q, kind="retreat", faction=who, objectives={}, card_units={})
    return found


def retreat_options(job: Job, who: str, region: Region) -> Retreat:
    """Which neighbours of ``region`` the ``who`` Units may retreat to, by the retreat rules.

    First the rules that test a destination, once per neighbour; then the rules about the
    retreat as a whole (no Region qualifies: the Reserve), told how many neighbours qualified.
    """
    q = _retreat_query(job, who)
    to_rules = subset(job.eng, "retreat", "to", lambda: _needs_to)
    dest: list[str] = []
    nest_on: list[str] = []
    nests = False
    refused: dict[str, list[str]] = {}
    results: list[tuple[RuleResult, Context, str | None]] = []
    for rid in sorted(region.neighbours):
        ctx = Context(job.pos, q, who, region=region, frm=region, to=job.pos.regions[rid])
        rs = to_rules.evaluate(ctx)
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
    results.extend((r, ctx0, None) for r in subset(job.eng, "retreat", "not to", lambda: _not_to).evaluate(ctx0))
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


KIND = QuestionKind(
    name="retreat",
    label=ui("Retreat"),
    help="Where may Units retreat from a Battle Region?",
    answers=ui("where the losing Units may go"),
    needs=("from",),
    figures=("destinations", "to-reserve", "places-nest", "nest-options"),
    per_side=(),
    no_actor=False,
    handler=ask_retreat,
    offers=("from", "to", "units"),
    bare=("from",),
    verdict="yes-no",
)
