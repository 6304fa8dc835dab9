"""The question kind ``move``: may these Units move from one Region to another, and what happens when they arrive?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="move",
    label=ui("Move"),
    help="May these Units move from one Region to another, and what happens when they arrive?",
    answers="may these Units move there",
    needs=("from", "to"),
    figures=("points-needed", "may-leave", "gains-control", "units-lost", "trogs-join-army"),
    per_side=(),
    no_actor=False,
    legal="move",
    handler="havoc.games.cry_havoc.queries:ask_move",
    verdict="yes-no",
)
