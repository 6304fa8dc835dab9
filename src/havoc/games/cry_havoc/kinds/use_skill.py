"""The question kind ``use-skill``: may the faction use this Skill now?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import B_SKILL, Report, probe_query, which
from havoc.games.cry_havoc.ui import skill_name, ui


def ask_skill(job: Job) -> Answer:
    question = ui("Can the {faction} use their {skill} now?", job.lang).format(
        faction=job.fname(job.q.faction), skill=skill_name(job.q.skill, job.lang)
    )
    return generic(job, job.ctx(), question)


def probe(report: Report) -> None:
    """Skills: which ready ones may be used now (besides the action)."""
    pos, who, eng, lang, nothing, add, gate, _pick, job = report.parts()
    skills = sorted(pos.faction(who).skills)
    if skills and gate("use-skill", probe_query(job, "use-skill", skill=skills[0]), report.label):
        candidates = [(skill, probe_query(job, "use-skill", skill=skill)) for skill in skills]
        usable = which(eng, "use-skill", "detail", B_SKILL, Context(pos, candidates[0][1], who), "q", candidates)
        add(
            "use-skill",
            report.label,
            bool(usable),
            {"skills": usable} if usable else {},
            [],
            ", ".join(skill_name(k, lang) for k in usable) or nothing,
        )


KIND = QuestionKind(
    name="use-skill",
    order=70,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Use a Skill"),
    help="May the faction use this Skill now?",
    answers=ui("may it be done now"),
    needs=("skill",),
    figures={},
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_skill,
    offers=("skill", "region"),
    verdict="yes-no",
)
