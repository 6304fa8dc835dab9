"""The question kind ``discard``: how many cards must the faction discard down to the hand limit?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import B0, Report, allowed, probe_query, verdicts
from havoc.games.cry_havoc.ui import ui


def ask_discard(job: Job) -> Answer:
    question = ui("How many cards must the {faction} discard?", job.lang).format(faction=job.fname(job.q.faction))
    return generic(job, job.ctx(), question)


def probe(report: Report) -> None:
    """The Draw Cards phase: discard down to the hand limit."""
    pos, who, eng, add, job = report.pos, report.who, report.eng, report.add, report.job
    if pos.faction(who).hand is not None:
        rs = verdicts(eng, "discard", Context(pos, probe_query(job, "discard"), who), "fits", B0)
        must = report.figures(rs).get("must-discard", 0)
        if allowed(rs) and isinstance(must, int) and must > 0:
            add("discard", report.label, True, {"must-discard": must}, [], str(must))


KIND = QuestionKind(
    name="discard",
    order=110,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Discard"),
    help="How many cards must the faction discard down to the hand limit?",
    answers=ui("how many cards must go"),
    needs=(),
    figures={
        "must-discard": "hand-limit",
    },
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_discard,
    form_label=ui("Discard down to the hand limit"),
    verdict="checked",
)
