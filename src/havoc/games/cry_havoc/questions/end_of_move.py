"""The question kind ``end-of-move``: what happens, step by step, when a move ends in this Region?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="end-of-move",
    label=ui("End of a Move"),
    help="What happens, step by step, when a move ends in this Region?",
    answers="the four end steps of a Move",
    needs=("region",),
    figures=(
        "reveals-exploration",
        "reveals-trog-token",
        "units-lost",
        "gains-control",
        "places-battle-token",
        "battle-token",
        "trogs-join-army",
        "trogs-from-hq",
    ),
    per_side=(),
    no_actor=False,
    legal=None,
    handler="havoc.games.cry_havoc.kinds:ask_end_of_move",
    verdict="none",
)
