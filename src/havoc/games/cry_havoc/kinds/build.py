"""The question kind ``build``: may the faction build this Structure in this Region now?"""

from __future__ import annotations

from havoc.core import record
from havoc.core.errors import Code, InputError, Problem
from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, generic
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.report import B_REGION, Report, probe_query, which
from havoc.games.cry_havoc.ui import message_language, nui, structure_name, ui
from havoc.language.grammar import Noun


def _known_cost(job: Job) -> None:
    """The printed build cost of the question's Structure, from the rules (``<type>-build-cost``).

    Left out, the question uses it; given and different, the question describes another
    game (a located error, never an answer).
    """
    q = job.q
    if q.structure is None:
        return
    param = job.eng.rs.params.get(f"{q.structure}-build-cost")
    if param is None or isinstance(param.value, bool) or not isinstance(param.value, int):
        return
    if q.cost is None:
        job.q = record.replace(q, cost=param.value)
    elif q.cost != param.value:
        from havoc.games.cry_havoc.query import field_word

        raise InputError(
            [
                Problem(
                    q.name,
                    None,
                    "cost: "
                    + ui(
                        "{cost}, but the rules give the {structure} a build cost of {printed} (parameter {param}); "
                        "leave {field} out or give {printed}",
                        message_language(),
                    ).format(
                        field=field_word("cost"),
                        cost=q.cost,
                        structure=structure_name(q.structure, message_language()),
                        printed=param.value,
                        param=param.name,
                    ),
                    code=Code.FIELD_VALUE,
                )
            ]
        )


def _structure_name(job: Job) -> Noun:
    """A Structure's printed name in the asker's language, declinable ("Żniwiarkę")."""
    return structure_name(job.q.structure, job.lang)


def ask_build(job: Job) -> Answer:
    _known_cost(job)
    q = job.q
    if q.other_cost:
        question = ui(
            "Can the {faction} build their {structure} in {region}, spending {other} {points} in the same action on "
            "other Structures?",
            job.lang,
        ).format(
            faction=job.fname(q.faction),
            structure=_structure_name(job),
            region=job.rname(q.region),
            other=q.other_cost,
            points=nui("Build point", "Build points", q.other_cost, job.lang),
        )
    else:
        question = ui("Can the {faction} build their {structure} in {region}?", job.lang).format(
            faction=job.fname(q.faction), structure=_structure_name(job), region=job.rname(q.region)
        )
    return generic(job, job.ctx(region=job.region(q.region)), question)


def probe(report: Report) -> None:
    """Build: in which listed Regions (any Structure type the rules allow there)."""
    pos, who, eng, _, nothing, add, gate, _pick, job = report.parts()
    bq = probe_query(job, "build", units=None, points=None, structure=None)
    if gate("build", bq, report.label):
        regions = pos.regions
        candidates = [(rid, regions[rid]) for rid in sorted(regions)]
        build_ok = which(eng, "build", "detail", B_REGION, Context(pos, bq, who), "region", candidates)
        add(
            "build",
            report.label,
            bool(build_ok),
            {"regions": build_ok} if build_ok else {},
            [],
            report.names(build_ok, nothing),
        )


KIND = QuestionKind(
    name="build",
    order=30,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Build"),
    help="May the faction build this Structure in this Region now?",
    answers=ui("may this Structure be built or activated"),
    needs=("region", "structure"),
    figures={
        "points-left": "build-points",
        "points-missing": "build-points",
    },
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_build,
    offers=("region", "structure", "points", "cost"),
    bare=("region",),
    verdict="yes-no",
)
