"""The question kind ``play-tactic``: may the faction play a Tactics card in this Battle now?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="play-tactic",
    label=ui("Play a Tactics card"),
    help="May the faction play a Tactics card in this Battle now?",
    answers="may it be done now",
    needs=(),
    figures=(),
    per_side=(),
    no_actor=False,
    legal="play_tactic",
    handler="havoc.games.cry_havoc.queries:ask_tactic",
    verdict="yes-no",
)
