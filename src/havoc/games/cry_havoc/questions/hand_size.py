"""The question kind ``hand-size``: how many cards does the faction hold?"""

from __future__ import annotations

from typing import Any

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="hand-size",
    label=ui("Hand size"),
    help="How many cards does the faction hold?",
    answers="how many cards the faction holds",
    needs=(),
    figures=("hand-size",),
    per_side=(),
    no_actor=False,
    legal=None,
    handler="havoc.games.cry_havoc.questions.hand_size:ask",
    verdict="none",
)


def ask(job: Any) -> Any:
    from havoc.games.cry_havoc.queries import finish

    who = job.q.faction
    n = job.pos.faction(who).hand or 0
    question = ui("How many cards does the {faction} hold?", job.lang).format(faction=job.fname(who))
    return finish(job, [], question, {"hand-size": n})
