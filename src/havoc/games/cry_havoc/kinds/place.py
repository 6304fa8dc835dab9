"""The question kind ``place``: may a Crystal or a Structure be placed in this Region?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, finish
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.ui import item_name, structure_name, ui


def ask_place(job: Job) -> Answer:
    q, lang = job.q, job.lang
    region = job.region(q.region)
    assert region is not None and q.item is not None
    if q.item == "structure" and q.structure:  # the Structure by its type ("umieścić Żniwiarkę")
        question = ui("May the {structure} be put in {region}?", lang).format(
            structure=structure_name(q.structure, lang), region=job.rname(region.id)
        )
    else:
        question = ui("May a {item} be put in {region}?", lang).format(
            item=item_name(q.item, lang), region=job.rname(region.id)
        )
    ctx = job.ctx(region=region)
    results = job.eng.evaluate("place", ctx)
    ans = finish(job, [(r, ctx, None) for r in results], question)
    if not results:
        ans.lines = [ui("No rule limits where it goes.", lang)]
    return ans


KIND = QuestionKind(
    name="place",
    order=170,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("May it be placed here?"),
    help="May a Crystal or a Structure be placed in this Region?",
    answers=ui("may a Crystal or Structure go in this Region"),
    needs=("region", "item"),
    figures={},
    per_side=(),
    no_actor=False,
    handler=ask_place,
    offers=("structure",),
    bare=("item", "region"),
    verdict="yes-no",
)
