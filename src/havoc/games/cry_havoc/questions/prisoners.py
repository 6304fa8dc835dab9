"""The question kind ``prisoners``: what does buying back prisoners cost, and what do prisoners score?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="prisoners",
    label=ui("Buy back prisoners"),
    help="What does buying back prisoners cost, and what do prisoners score?",
    answers="may these Prisoners be bought back",
    needs=(),
    figures=("buy-back-cost", "prisoners-vp", "vp-to-spend", "buy-back-turn"),
    per_side=(),
    no_actor=False,
    legal="buy_back",
    handler="havoc.games.cry_havoc.queries:ask_prisoners",
    verdict="yes-no",
)
