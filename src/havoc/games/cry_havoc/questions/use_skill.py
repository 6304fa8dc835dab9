"""The question kind ``use-skill``: may the faction use this Skill now?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="use-skill",
    label=ui("Use a Skill"),
    help="May the faction use this Skill now?",
    answers="may it be done now",
    needs=("skill",),
    figures=(),
    per_side=(),
    no_actor=False,
    legal="use_skill",
    handler="havoc.games.cry_havoc.queries:ask_skill",
    verdict="yes-no",
)
