"""The question kind ``recruit``: may the faction recruit Units into a Region now, and how many?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic, units_word
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kept import reserve as kept_reserve
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import B_REGION, Report, allowed, probe_query, refused_by, verdicts
from havoc.games.cry_havoc.ui import ui


def ask_recruit(job: Job) -> Answer:
    q = job.q
    who = q.faction
    assert who is not None
    region = job.region(q.region) or job.pos.hq_of(who)
    n = q.units if q.units is not None else 1
    question = ui("Can the {faction} recruit {count} {units}?", job.lang).format(
        faction=job.fname(who), count=n, units=units_word(job, n)
    )
    return generic(job, job.ctx(region=region), question)


def probe(report: Report) -> None:
    """Recruit: into the own HQ, as many as the Reserve holds (points permitting)."""
    pos, who, eng, lang, nothing, add, gate, _pick, job = report.parts()
    hq = pos.hq_of(who)
    reserve = kept_reserve(pos, who)
    rq = probe_query(job, "recruit", units=1, points=max(reserve, 1), region=hq.id if hq else None)
    if gate("recruit", rq, report.label):
        rs = verdicts(eng, "recruit", Context(pos, rq, who, region=hq), "detail", B_REGION) if hq else []
        ok = allowed(rs) and reserve > 0
        units_text = ui("Units: up to {count}", lang).format(count=reserve) + (f" ({job.rname(hq.id)})" if hq else "")
        add(
            "recruit",
            report.label,
            ok,
            {"units": reserve, "region": hq.id if hq else None} if ok else {},
            refused_by(rs),
            units_text if ok else ("" if rs else nothing),
        )


KIND = QuestionKind(
    name="recruit",
    order=20,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Recruit"),
    help="May the faction recruit Units into a Region now, and how many?",
    answers=ui("may these Units be recruited"),
    needs=(),
    figures={
        "may-recruit": "recruit-points",
    },
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_recruit,
    offers=("units", "points", "region"),
    bare=("region",),
    verdict="yes-no",
)
