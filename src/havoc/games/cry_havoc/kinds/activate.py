"""The question kind ``activate``: may the faction activate this Structure now?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import B_STRUCT, Report, judge, probe_query
from havoc.games.cry_havoc.ui import structure_name, ui


def ask_activate(job: Job) -> Answer:
    q = job.q
    question = ui("Can the {faction} activate their {structure} in {region}?", job.lang).format(
        faction=job.fname(q.faction), structure=structure_name(q.structure, job.lang), region=job.rname(q.region)
    )
    return generic(job, job.ctx(region=job.region(q.region)), question)


def probe(report: Report) -> None:
    """Activate: the faction's own Structures that the rules let it activate now."""
    pos, who, eng, lang, nothing, _add, gate, _pick, job = report.parts()
    aq0 = probe_query(job, "activate", structure=None, activations=0)
    if gate("activate", aq0, report.label):
        act_ok: list[str] = []
        act_names: list[str] = []  # the same, for people, in the line's case: "Żniwiarki (Region A)"
        allows = judge(eng, "activate", "detail", B_STRUCT)
        for rid in sorted(pos.regions):
            region = pos.regions[rid]
            for s in region.structures:
                if s.owner != who:
                    continue
                aq = probe_query(job, "activate", structure=s.type, region=rid, activations=0)
                if allows(Context(pos, aq, who, region=region)):
                    act_ok.append(f"{s.type}@{rid}")
                    act_names.append(
                        # TRANSLATORS: one Structure of the line "Activate — {structures}", in the case that line gives it.
                        ui("{structure} ({region})", lang).format(
                            structure=structure_name(s.type, lang), region=job.rname(rid)
                        )
                    )
        names = ", ".join(act_names)
        report.add(
            "activate",
            report.label,
            bool(act_ok),
            {"structures": act_ok} if act_ok else {},
            [],
            names or nothing,
            # TRANSLATORS: a line of what the faction may do now; {structures} lists "{structure} ({region})".
            ui("Activate — {structures}", lang).format(structures=names) if names else "",
        )


KIND = QuestionKind(
    name="activate",
    order=40,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Activate"),
    help="May the faction activate this Structure now?",
    answers=ui("may this Structure be built or activated"),
    needs=("region", "structure"),
    figures={
        "points-left": "build-points",
        "points-missing": "build-points",
    },
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_activate,
    offers=("region", "structure", "cost", "activations"),
    bare=("region",),
    verdict="yes-no",
)
