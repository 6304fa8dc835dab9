"""The question kind ``enable-scoring``: may the faction enable scoring this round?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import Report, probe_query
from havoc.games.cry_havoc.ui import ui


def ask_enable(job: Job) -> Answer:
    question = ui("Can the {faction} enable scoring now?", job.lang).format(faction=job.fname(job.q.faction))
    return generic(job, job.ctx(), question)


def probe(report: Report) -> None:
    """Enable scoring."""
    add, gate, job = report.add, report.gate, report.job
    if gate("enable-scoring", probe_query(job, "enable-scoring"), report.label):
        add("enable-scoring", report.label, True, {}, [], "")


KIND = QuestionKind(
    name="enable-scoring",
    order=60,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Enable scoring"),
    help="May the faction enable scoring this round?",
    answers=ui("may it be done now"),
    needs=(),
    figures={},
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_enable,
    verdict="yes-no",
)
