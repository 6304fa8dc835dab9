"""The question kind ``prisoners``: what does buying back prisoners cost, and what do prisoners score?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic, units_word
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import B0, Report, allowed, probe_query, refused_by, verdicts
from havoc.games.cry_havoc.ui import figure_label, ui, value_text


def ask_prisoners(job: Job) -> Answer:
    q = job.q
    n = q.units if q.units is not None else 1
    question = ui("Can the {faction} buy back {count} {units} held as prisoners?", job.lang).format(
        faction=job.fname(q.faction), count=n, units=units_word(job, n)
    )
    ans = generic(job, job.ctx(), question)
    # every figure, the VP the Prisoners held score too: a "no" about buying back still answers
    # what the faction's Prisoners are worth (a "no" shows only the figures of the rules that
    # said no, and the Prisoners' VP come from another rule)
    ans.lines = [
        f"{figure_label(name, job.lang)}: {value_text(value, job.lang)}"
        for name in KIND.figures
        if (value := ans.figures.get(name)) is not None
    ]
    return ans


def probe(report: Report) -> None:
    """The Prisoners phase: how many own Units may be bought back."""
    pos, who, eng, lang, add, job = report.pos, report.who, report.eng, report.lang, report.add, report.job
    if pos.held_by_others(who):
        can = 0
        why: list[str] = []
        for n in range(1, pos.held_by_others(who) + 1):
            rs = verdicts(eng, "prisoners", Context(pos, probe_query(job, "prisoners", units=n), who), "fits", B0)
            if not allowed(rs):
                why = refused_by(rs)
                break
            can = n
        add(
            "buy-back",
            report.label,
            can > 0,
            {"units": can} if can else {},
            [] if can else why,
            ui("Units: up to {count}", lang).format(count=can) if can else "",
        )


KIND = QuestionKind(
    name="prisoners",
    order=120,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Buy back prisoners"),
    help="What does buying back prisoners cost, and what do prisoners score?",
    answers=ui("may these Prisoners be bought back"),
    needs=(),
    figures={
        "buy-back-cost": "prisoners-buy-back",
        "prisoners-vp": "prisoners-score",
        "vp-to-spend": "prisoners-buy-back",
        "buy-back-turn": "prisoners-buy-back-order",
    },
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_prisoners,
    offers=("units",),
    form_label=ui("Prisoners: buy back"),
    verdict="yes-no",
)
