"""The question kind ``use-skill``: may the faction use this Skill now?"""

from havoc.games.cry_havoc.questions import QuestionKind

KIND = QuestionKind(
    name="use-skill",
    help="May the faction use this Skill now?",
    needs=("skill",),
    figures=(),
    per_side=(),
    no_actor=False,
    legal="use_skill",
    handler="havoc.games.cry_havoc.queries:ask_skill",
)
