"""The question kind ``battle``: who wins each objective of the Battle in a Region, and what follows (or the order of Battles)?"""

from havoc.games.cry_havoc.questions import QuestionKind

KIND = QuestionKind(
    name="battle",
    help="Who wins each objective of the Battle in a Region, and what follows (or the order of Battles)?",
    needs=(),
    figures=(
        "crystals-added",
        "wins-control",
        "control-vp",
        "places-control-token",
        "places-nest",
        "takes-prisoners",
        "prisoners-taken",
        "kills",
        "kill-vp",
        "not-fought",
        "control-winner",
        "vp-gained",
        "prisoners-by",
        "kills-by",
        "survivors",
        "units-in-region",
        "returned",
        "retreated",
        "retreat-to",
        "to-reserve",
        "control-token",
        "nest",
        "nest-options",
        "order",
    ),
    per_side=("vp-gained", "prisoners-by", "kills-by", "survivors", "units-in-region", "returned", "retreated"),
    no_actor=True,
    legal=None,
    handler="havoc.games.cry_havoc.battle:resolve",
)
