"""The question kind ``how-many``: a number asked directly: Units that may leave or be recruited, cards to discard, prisoners to buy back."""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="how-many",
    label=ui("How many?"),
    help="A number asked directly: Units that may leave or be recruited, cards to discard, prisoners to buy back.",
    answers="the number itself",
    needs=("of",),
    figures=("may-leave", "may-recruit", "must-discard", "may-buy-back"),
    per_side=(),
    no_actor=False,
    legal=None,
    handler="havoc.games.cry_havoc.kinds:ask_how_many",
    verdict="none",
)
