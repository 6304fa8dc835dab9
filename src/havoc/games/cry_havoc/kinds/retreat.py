"""The question kind ``retreat``: where may Units retreat from a Battle Region?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer, deciding_overlay
from havoc.engine.interpreter.engine import RuleResult, merge_figures
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job, finish, units_word
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.retreats import retreat_options
from havoc.games.cry_havoc.ui import ui


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
    decisions = [job.decide(r, str(job.rname(cand)) if cand else None, c) for r, c, cand in cited.values()]
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
    order=100,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Retreat"),
    help="Where may Units retreat from a Battle Region?",
    answers=ui("where the losing Units may go"),
    needs=("from",),
    figures={
        "destinations": HANDLER,
        "to-reserve": "retreat-to-reserve",
        "places-nest": "neutral-trogs-retreat",
        "nest-options": HANDLER,
    },
    per_side=(),
    no_actor=False,
    handler=ask_retreat,
    offers=("from", "to", "units"),
    bare=("from",),
    verdict="yes-no",
)
