"""The question kind ``activate``: may the faction activate this Structure now?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="activate",
    label=ui("Activate"),
    help="May the faction activate this Structure now?",
    answers="may this Structure be built or activated",
    needs=("region", "structure"),
    figures=("points-left", "points-missing"),
    per_side=(),
    no_actor=False,
    legal="activate",
    handler="havoc.games.cry_havoc.queries:ask_activate",
    verdict="yes-no",
)
