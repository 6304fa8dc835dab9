"""The question kind ``draw-tactics``: may the faction draw Tactics cards now?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job, generic
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.report import B0, Report, probe_query, which
from havoc.games.cry_havoc.ui import deck_name, ui


def ask_draw(job: Job) -> Answer:
    q = job.q
    question = ui("Can the {faction} draw Tactics cards from {deck}?", job.lang).format(
        faction=job.fname(q.faction), deck=deck_name(q.deck or "own", job.lang)
    )
    return generic(job, job.ctx(), question)


_candidates: dict[int, tuple[Query, list[tuple[str, Query]]]] = {}
_KEPT = 256


def _decks(job: Job, dq0: Query) -> list[tuple[str, Query]]:
    """Each deck with its probe question: the same for every list that asks ``dq0`` (a kept probe
    question, :func:`probe_query`), so looked up once for it rather than once per deck."""
    found = _candidates.get(id(dq0))
    if found is None or found[0] is not dq0:
        if len(_candidates) >= _KEPT:
            _candidates.clear()
        found = _candidates[id(dq0)] = (dq0, [(deck, probe_query(job, "draw-tactics", deck=deck)) for deck in C.DECKS])
    return found[1]


def probe(report: Report) -> None:
    """Draw Tactics cards: from which decks."""
    pos, who, eng, lang, add, gate, job = (
        report.pos,
        report.who,
        report.eng,
        report.lang,
        report.add,
        report.gate,
        report.job,
    )
    dq0 = probe_query(job, "draw-tactics", deck=None)
    if gate("draw-tactics", dq0, report.label):
        candidates = _decks(job, dq0)
        decks = which(eng, "draw-tactics", "fits", B0, Context(pos, dq0, who), "q", candidates)
        add(
            "draw-tactics",
            report.label,
            bool(decks),
            {"decks": decks} if decks else {},
            [],
            ", ".join(deck_name(d, lang) for d in decks),
        )


KIND = QuestionKind(
    name="draw-tactics",
    order=50,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Draw Tactics cards"),
    help="May the faction draw Tactics cards now?",
    answers=ui("may it be done now"),
    needs=(),
    figures={},
    per_side=(),
    no_actor=False,
    probe=probe,
    handler=ask_draw,
    offers=("deck",),
    verdict="yes-no",
)
