"""The question kind ``enable-scoring``: may the faction enable scoring this round?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="enable-scoring",
    label=ui("Enable scoring"),
    help="May the faction enable scoring this round?",
    answers="may it be done now",
    needs=(),
    figures=(),
    per_side=(),
    no_actor=False,
    legal="enable_scoring",
    handler="havoc.games.cry_havoc.queries:ask_enable",
    verdict="yes-no",
)
