"""The question kind ``winner``: who wins the game, and which tie-breaker decided it?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="winner",
    label=ui("winner"),
    help="Who wins the game, and which tie-breaker decided it?",
    answers="who wins",
    needs=(),
    figures=(
        "winner",
        "ranking",
        "tie-broken-by",
        "final-vp",
        "tiebreak-prisoners",
        "tiebreak-initiative",
        "tiebreak-trogs",
    ),
    per_side=(),
    no_actor=True,
    legal=None,
    handler="havoc.games.cry_havoc.queries:ask_winner",
    verdict="yes-no",
)
