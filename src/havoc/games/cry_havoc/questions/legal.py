"""The question kind ``legal``: what may the faction do now, with the limits each action has?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="legal",
    label=ui("What may I do now?"),
    help="What may the faction do now, with the limits each action has?",
    answers="what the faction may do now",
    needs=(),
    figures=("actions", "upcoming-position", "upcoming-order"),
    per_side=(),
    no_actor=False,
    legal=None,
    handler="havoc.games.cry_havoc.queries:ask_legal",
    verdict="checked",
)
