"""The question kind ``move``: may these Units move from one Region to another, and what happens when they arrive?"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.engine.interpreter.answer import Answer
from havoc.engine.interpreter.engine import CompiledRule
from havoc.games.cry_havoc.answering import Cited, Job, finish, finish_in, units_word
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import B_FROM, B_MOVE, Report, allowed, judge, probe_query, refused_by, verdicts
from havoc.games.cry_havoc.ui import ui

if TYPE_CHECKING:
    from typing import Any


def ask_move(job: Job) -> Answer:
    q, pos = job.q, job.pos
    assert q.frm is not None and q.to is not None
    regions = pos.regions
    if not q.via:  # one step: every rule of the kind, once
        ctx = Context(pos, q, q.faction, frm=regions[q.frm], to=regions[q.to], moved=q.moved_this_action)
        return finish_in(job, ctx, job.eng.evaluate("move", ctx), lambda: _question(job))
    path = [q.frm, *q.via, q.to]
    steps = len(path) - 1
    results: Cited = []
    seen: dict[str, int] = {}
    stepwise: set[str] = set()  # the rules checked at each step (entering its Region)
    for i in range(steps):
        ctx = job.ctx(
            frm=regions[path[i]],
            to=regions[path[i + 1]],
            moved=q.moved_this_action if i == 0 else True,
            steps=steps,
        )
        note = f"{job.rname(path[i])} → {job.rname(path[i + 1])}"
        # Rules about the start (own Units there, leaving a Battle) and the whole move (turn,
        # points) are checked once; each later step only for entering its Region.
        for r in job.eng.evaluate("move", ctx, only=None if i == 0 else _enters):
            if i:
                stepwise.add(r.rule.id)
            at = seen.get(r.rule.id)
            if at is None:
                seen[r.rule.id] = len(results)
                results.append((r, ctx, note))
            elif r.passed is False and results[at][0].passed is not False:
                results[at] = (r, ctx, note)
    # a rule about the start or the whole move (the turn, the points, leaving a Battle) is
    # labelled with the whole path, not with its first step
    whole = " → ".join(str(job.rname(r)) for r in path)
    results = [(r, c, n if r.rule.id in stepwise else whole) for r, c, n in results]
    return finish(job, results, lambda: _question(job))


def _question(job: Job) -> str:
    """The question restated in the asker's language ("Can the Pilgrims move 2 Units from … to …?")."""
    q = job.q
    n = q.units if q.units is not None else 1
    question = ui("Can the {faction} move {count} {units} from {src} to {dst}?", job.lang).format(
        faction=job.fname(q.faction), count=n, units=units_word(job, n), src=job.rname(q.frm), dst=job.rname(q.to)
    )
    if q.via:
        question = question[:-1] + " " + ui("(through {regions})?", job.lang).format(regions=job.rnames(list(q.via)))
    return question


def _enters(cr: CompiledRule) -> bool:
    return "to" in cr.needs


def probe(report: Report) -> None:
    """Move: from each Region with the faction's Units, how many may go and where."""
    pos, who, eng, _, nothing, add, gate, _pick, job = report.parts()
    mq = probe_query(job, "move", units=1, points=None, frm=None, to=None, via=())
    if gate("move", mq, report.label):
        moves: dict[str, dict[str, Any]] = {}
        held: list[str] = []  # the rules that keep Units where they are (e.g. a Battle Region)
        regions = pos.regions
        enters = judge(eng, "move", "enters", B_MOVE)  # worked out once for every Region's neighbours
        for rid in sorted(regions):
            region = regions[rid]
            own = region.units.get(who, 0)
            if own <= 0:
                continue
            ctx = Context(pos, mq, who, frm=region)
            leave = verdicts(eng, "move", ctx, "detail", B_FROM)
            limit = report.figures(leave).get("may-leave", own)
            if not allowed(leave) or not isinstance(limit, int) or limit <= 0:
                held.extend(refused_by(leave) or [r.rule.id for r in leave if "may-leave" in r.figures])
                continue
            # each neighbour in the same context, its fact cache emptied as a new context's (see which)
            dests = []
            for nid in sorted(region.neighbours):
                ctx.to = regions[nid]
                ctx.cache = {}
                if enters(ctx):
                    dests.append(nid)
            if dests:
                moves[rid] = {"units": min(own, limit), "to": dests}
        text = "; ".join(f"{job.rname(rid)}: {m['units']} → {report.names(m['to'], '—')}" for rid, m in moves.items())
        why_not = [] if moves else list(dict.fromkeys(held))
        add(
            "move",
            report.label,
            bool(moves),
            {"from": moves} if moves else {},
            why_not,
            text or ("" if why_not else nothing),
        )


KIND = QuestionKind(
    name="move",
    order=10,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Move"),
    help="May these Units move from one Region to another, and what happens when they arrive?",
    answers=ui("may these Units move there"),
    needs=("from", "to"),
    figures={
        "points-needed": "move-points",
        "may-leave": "battle-region-leave",
        "gains-control": ("move-end-control", "trogs-reveal-tokens", "trog-token-short-supply"),
        "units-lost": "trog-token-short-supply",
        "trogs-join-army": "trogs-reveal-tokens",
    },
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_move,
    offers=("from", "to", "via", "units", "points", "moved-this-action"),
    verdict="yes-no",
)
