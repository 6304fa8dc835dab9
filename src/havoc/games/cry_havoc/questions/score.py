"""The question kind ``score``: what does each faction score this round?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="score",
    label=ui("Score"),
    help="What does each faction score this round?",
    answers="what each faction scores",
    needs=(),
    figures=("vp", "vp-gained", "total-vp", "region-vp", "crystal-vp", "events-moved"),
    per_side=("vp-gained", "total-vp"),
    no_actor=True,
    legal=None,
    handler="havoc.games.cry_havoc.queries:ask_score",
    verdict="checked",
)
