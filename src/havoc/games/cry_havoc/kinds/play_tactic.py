"""The question kind ``play-tactic``: may the faction play a Tactics card in this Battle now?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.position import Region
from havoc.games.cry_havoc.report import B_REGION, Report, allowed, probe_query, refused_by, verdicts
from havoc.games.cry_havoc.ui import ui


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
    return generic(job, job.ctx(region=region), question)


def probe(report: Report) -> None:
    """The Battle Resolution phase: play a Tactics card in the Battle being resolved."""
    pos, who, eng, add, job = report.pos, report.who, report.eng, report.add, report.job
    fight = _battle_of(job, who)
    if fight is not None and fight.battle is not None:
        tq = probe_query(job, "play-tactic", region=fight.id)
        rs = verdicts(eng, "play-tactic", Context(pos, tq, who, region=fight), "fits", B_REGION)
        add(
            "play-tactic",
            report.label,
            allowed(rs),
            {"region": fight.id} if allowed(rs) else {},
            refused_by(rs),
            fight.id if allowed(rs) else "",
        )


KIND = QuestionKind(
    name="play-tactic",
    order=80,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Play a Tactics card"),
    help="May the faction play a Tactics card in this Battle now?",
    answers=ui("may it be done now"),
    needs=(),
    figures={},
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_tactic,
    offers=("region", "card-terrain"),
    bare=("region",),
    verdict="yes-no",
)
