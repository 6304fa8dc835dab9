"""The question kind ``retreat``: where may Units retreat from a Battle Region?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="retreat",
    label=ui("retreat"),
    help="Where may Units retreat from a Battle Region?",
    answers="where the losing Units may go",
    needs=("from",),
    figures=("destinations", "to-reserve", "places-nest", "nest-options"),
    per_side=(),
    no_actor=False,
    legal=None,
    handler="havoc.games.cry_havoc.queries:ask_retreat",
    verdict="yes-no",
)
