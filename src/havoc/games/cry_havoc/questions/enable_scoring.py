"""The question kind ``enable-scoring``: may the faction enable scoring this round?"""

from havoc.games.cry_havoc.questions import QuestionKind

KIND = QuestionKind(
    name="enable-scoring",
    help="May the faction enable scoring this round?",
    needs=(),
    figures=(),
    per_side=(),
    no_actor=False,
    legal="enable_scoring",
    handler="havoc.games.cry_havoc.queries:ask_enable",
)
