"""The question kind ``score``: what does each faction score this round?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="score",
    label=ui("Score"),
    help="What does each faction score this round?",
    needs=(),
    figures=("events-moved", "vp", "vp-gained", "total-vp", "region-vp", "crystal-vp"),
    per_side=("vp-gained", "total-vp"),
    no_actor=True,
    legal=None,
    handler="havoc.games.cry_havoc.queries:ask_score",
    verdict="checked",
)
