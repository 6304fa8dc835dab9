"""The question kind ``build``: may the faction build this Structure in this Region now?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="build",
    label=ui("Build"),
    help="May the faction build this Structure in this Region now?",
    answers="may this Structure be built or activated",
    needs=("region", "structure"),
    figures=("points-left", "points-missing"),
    per_side=(),
    no_actor=False,
    legal="build",
    handler="havoc.games.cry_havoc.queries:ask_build",
    verdict="yes-no",
)
