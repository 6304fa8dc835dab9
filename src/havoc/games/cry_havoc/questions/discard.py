"""The question kind ``discard``: how many cards must the faction discard down to the hand limit?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="discard",
    label=ui("Discard"),
    help="How many cards must the faction discard down to the hand limit?",
    answers="how many cards must go",
    needs=(),
    figures=("must-discard",),
    per_side=(),
    no_actor=False,
    legal="discard",
    handler="havoc.games.cry_havoc.queries:ask_discard",
    verdict="checked",
)
