"""The question kind ``how-many``: a number asked directly: Units that may leave or be recruited, cards to discard, prisoners to buy back."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core import record
from havoc.engine.interpreter.answer import Answer
from havoc.engine.interpreter.engine import merge_figures
from havoc.games.cry_havoc.answering import Cited, Job, finish, passes, units_word, whole
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.ui import nui, ui

if TYPE_CHECKING:
    from typing import Any


def _only(bound: frozenset[str]) -> Any:
    return lambda cr: cr.needs <= bound


def _may_leave(job: Job) -> tuple[int, Cited]:
    """Units that may move out of `from` now: every move rule about the start, with 0 moved."""
    pos, who = job.pos, job.q.faction
    assert who is not None and job.q.frm is not None
    region = pos.regions[job.q.frm]
    q = record.replace(job.q, kind="move", units=0, points=None, to=None, via=())
    ctx = Context(pos, q, who, frm=region)
    rs = job.eng.evaluate("move", ctx, only=_only(frozenset({"from"})))
    own = region.units.get(who, 0)
    figs = merge_figures(rs)
    n = min(own, whole(figs.get("may-leave", own))) if passes(rs) else 0
    return n, [(r, ctx, None) for r in rs]


def _may_recruit(job: Job) -> tuple[int, Cited]:
    pos, who = job.pos, job.q.faction
    assert who is not None
    region = job.region(job.q.region) or pos.hq_of(who)
    points = job.q.points if job.q.points is not None else pos.reserve(who)
    q = record.replace(job.q, kind="recruit", units=0, points=points)
    ctx = Context(pos, q, who, region=region)
    rs = job.eng.evaluate("recruit", ctx)
    n = whole(merge_figures(rs).get("may-recruit", 0)) if passes(rs) else 0
    return n, [(r, ctx, None) for r in rs]


def _must_discard(job: Job) -> tuple[int, Cited]:
    q = record.replace(job.q, kind="discard")
    ctx = job.ctx(q=q)
    rs = job.eng.evaluate("discard", ctx)
    return whole(merge_figures(rs).get("must-discard", 0)), [(r, ctx, None) for r in rs]


def _may_buy_back(job: Job) -> tuple[int, Cited]:
    """The most own Prisoners the rules let the faction buy back now (tried one more at a time)."""
    pos, who = job.pos, job.q.faction
    assert who is not None
    best = 0
    cited: Cited = []
    for n in range(1, pos.held_by_others(who) + 1):
        q = record.replace(job.q, kind="prisoners", units=n)
        ctx = Context(pos, q, who)
        rs = job.eng.evaluate("prisoners", ctx)
        cited = [(r, ctx, None) for r in rs]
        if not passes(rs):
            break
        best = n
    if not cited:
        q = record.replace(job.q, kind="prisoners", units=0)
        ctx = Context(pos, q, who)
        cited = [(r, ctx, None) for r in job.eng.evaluate("prisoners", ctx)]
    return best, cited


HOW_MANY = {
    "may-leave": _may_leave,
    "may-recruit": _may_recruit,
    "must-discard": _must_discard,
    "may-buy-back": _may_buy_back,
}


def ask_how_many(job: Job) -> Answer:
    """A number, said in words: how many may leave, may be recruited, must go, may be bought back."""
    q, lang = job.q, job.lang
    assert q.of is not None
    n, cited = HOW_MANY[q.of](job)
    who = job.fname(q.faction)
    if q.of == "may-leave":
        question = ui("How many Units may the {faction} move out of {region}?", lang).format(
            faction=who, region=job.rname(q.frm)
        )
        line = ui("The {faction} may move {count} {units} out of {region}.", lang).format(
            faction=who, count=n, units=units_word(job, n), region=job.rname(q.frm)
        )
    elif q.of == "may-recruit":
        question = ui("How many Units may the {faction} recruit?", lang).format(faction=who)
        line = ui("The {faction} may recruit {count} {units}.", lang).format(
            faction=who, count=n, units=units_word(job, n)
        )
    elif q.of == "must-discard":
        question = ui("How many cards must the {faction} discard?", lang).format(faction=who)
        line = ui("The {faction} must discard {count} {cards}.", lang).format(
            faction=who, count=n, cards=nui("card", "cards", n, lang)
        )
    else:
        question = ui("How many of their Units held as Prisoners may the {faction} buy back?", lang).format(faction=who)
        line = ui("The {faction} may buy back {count} {units}.", lang).format(
            faction=who, count=n, units=units_word(job, n)
        )
    ans = finish(job, cited, question, {q.of: n})
    for d in ans.rules:
        # The count is the answer here, not something the question gave: drop the probe's own.
        if "query.units" in d.facts:
            d.facts = {k: v for k, v in d.facts.items() if k != "query.units"}
            d.said = [job.t.fact(k, v) for k, v in d.facts.items()]
    ans.figures = {q.of: n}
    ans.lines = [line]
    ans.details = {"of": q.of, "count": n}
    return ans


KIND = QuestionKind(
    name="how-many",
    order=160,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("How many?"),
    help="A number asked directly: Units that may leave or be recruited, cards to discard, prisoners to buy back.",
    answers=ui("the number itself"),
    needs=("of",),
    figures={
        "may-leave": "battle-region-leave",
        "may-recruit": "recruit-points",
        "must-discard": "hand-limit",
        "may-buy-back": HANDLER,
    },
    per_side=(),
    no_actor=False,
    handler=ask_how_many,
    offers=("from", "region", "points"),
    bare=("of",),
    verdict="none",
)
