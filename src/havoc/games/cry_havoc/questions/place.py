"""The question kind ``place``: may a Crystal or a Structure be placed in this Region?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="place",
    label=ui("May it be placed here?"),
    help="May a Crystal or a Structure be placed in this Region?",
    answers="may a Crystal or Structure go in this Region",
    needs=("region", "item"),
    figures=(),
    per_side=(),
    no_actor=False,
    legal=None,
    handler="havoc.games.cry_havoc.kinds:ask_place",
    verdict="yes-no",
)
