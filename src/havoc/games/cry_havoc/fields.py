"""The fields of a question (one place: the question reader, the typed words, the help and the
schema read them), apart from the reader so that the words a reader types can name them without
importing the reader."""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.formats.spec import Spec
from havoc.games.cry_havoc.contract import (
    DECKS,
    EXPERIENCE,
    HOW_MANY,
    ITEMS,
    OBJECTIVES,
    QUESTION_KINDS,
    TERRAINS,
)
from havoc.games.cry_havoc.position import FACTION, FACTION_KEYS, REGION_REF

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

KINDS: Final = QUESTION_KINDS
# Kinds about the whole table rather than one faction's move.
# `how-many` questions: the number each one returns (a figure of the rules).
# `place` questions: what is put on a Region.

MOST_VIA: Final = 16
"""Regions a move may pass through (``via``): a move pays a Move point a Region, and no hand of
cards pays for half as many; the limit is checked before a name in the list is read."""
MOST_WORDS: Final = 64
"""Words of a question in the compact form: more than every field of a question given twice."""

PLACEMENT = Spec(
    "object",
    "Units one side placed on each Battle objective (after any Tactics cards).",
    fields={o: Spec("int", f"Units on the {o} objective.", minimum=0) for o in OBJECTIVES},
)
QFIELDS: Final[Mapping[str, Spec]] = {
    "ask": Spec("enum", "The kind of question.", choices=KINDS),
    "faction": FACTION,
    "from": REGION_REF,
    "to": REGION_REF,
    "via": Spec("list", "Regions passed through between from and to, in order.", item=REGION_REF, most=MOST_VIA),
    "region": REGION_REF,
    "units": Spec("int", "How many Units the question moves, recruits or places.", minimum=0),
    "points": Spec("int", "Move, Recruit or Build points spent (icons on the discarded cards).", minimum=0),
    "structure": Spec("id", "A Structure type (e.g. harvester)."),
    "deck": Spec("enum", "The deck to draw from.", choices=DECKS),
    "card": Spec("id", "A card's ID (for the record; its effect is not modelled)."),
    "card-terrain": Spec(
        "enum", "The terrain of the Tactics card played (left out for a faction card).", choices=TERRAINS
    ),
    "skill": Spec("id", "A Skill's ID as listed under the faction's skills."),
    "activations": Spec("int", "How often the Structure was already activated in this action.", minimum=0),
    "during-action": Spec("bool", "The question is asked in the middle of an action."),
    "moved-this-action": Spec("bool", "The moving Units entered `from` during this same action."),
    "cost": Spec(
        "int", "Build points the Structures built or activated cost together (as printed on their tiles).", minimum=0
    ),
    "other-cost": Spec(
        "int",
        "Build points the same action also spends on other Structures (built or activated), besides `structure`.",
        minimum=0,
    ),
    "position": Spec(
        "int", "A spot on the Upcoming Initiative track (cards that change the Initiative), from 1.", minimum=1
    ),
    "objectives": Spec(
        "map", "Battle: the Units each side placed on the objectives.", keys=FACTION_KEYS, item=PLACEMENT
    ),
    "capture-from": Spec(
        "enum",
        "Battle: the objective a prisoner is taken from (default attrition, then control, then prisoners).",
        choices=OBJECTIVES,
    ),
    "of": Spec("enum", "how-many: the number asked for.", choices=HOW_MANY),
    "item": Spec("enum", "place: what is put on the Region.", choices=ITEMS),
    "experience": Spec("enum", "setup: the players' experience (which Skills they start with).", choices=EXPERIENCE),
    "card-units": Spec(
        "map",
        "Battle: Units a named card (`card`) added to the objectives (positive) or took off them (negative), per side.",
        keys=FACTION_KEYS,
        item=Spec("int", "Units added (positive) or removed (negative) by the card.", minimum=-99),
    ),
}
