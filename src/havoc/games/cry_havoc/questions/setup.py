"""The question kind ``setup``: how does the game start for these players and their experience?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="setup",
    label=ui("Setup"),
    help="How does the game start for these players and their experience?",
    answers="what a game of this size sets up",
    needs=(),
    figures=(
        "two-player-board-side",
        "hq-units",
        "hq-control-tokens",
        "skills",
        "tokens-as-printed",
        "trog-hq-units",
        "tunnels",
    ),
    per_side=(),
    no_actor=True,
    legal=None,
    handler="havoc.games.cry_havoc.kinds:ask_setup",
    verdict="none",
)
