"""The question kind ``recruit``: may the faction recruit Units into a Region now, and how many?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="recruit",
    label=ui("Recruit"),
    help="May the faction recruit Units into a Region now, and how many?",
    answers="may these Units be recruited",
    needs=(),
    figures=("may-recruit",),
    per_side=(),
    no_actor=False,
    legal="recruit",
    handler="havoc.games.cry_havoc.queries:ask_recruit",
    verdict="yes-no",
)
