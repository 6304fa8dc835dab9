"""The question kind ``battle``: who wins each objective of the Battle in a Region, and what follows (or the order of Battles)?"""

from havoc.games.cry_havoc.questions import QuestionKind
from havoc.i18n import ui

KIND = QuestionKind(
    name="battle",
    label=ui("Battle"),
    help="Who wins each objective of the Battle in a Region, and what follows (or the order of Battles)?",
    needs=(),
    figures=(
        "crystals-added",
        "wins-control",
        "control-vp",
        "places-control-token",
        "places-nest",
        "survivors-to-hq",
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
        "to-hq",
        "order",
    ),
    per_side=("vp-gained", "prisoners-by", "kills-by", "survivors", "units-in-region", "returned", "retreated"),
    no_actor=True,
    legal=None,
    handler="havoc.games.cry_havoc.battle:resolve",
    verdict="checked",
)
