"""The question kind ``draw-tactics``: may the faction draw Tactics cards now?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="draw-tactics",
    label=ui("Draw Tactics cards"),
    help="May the faction draw Tactics cards now?",
    answers="may it be done now",
    needs=(),
    figures=(),
    per_side=(),
    no_actor=False,
    legal="draw_tactics",
    handler="havoc.games.cry_havoc.queries:ask_draw",
    verdict="yes-no",
)
