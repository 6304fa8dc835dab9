"""The words the site's generated pages add around the rules ("Example", "Source", …).

They are English msgids translated in the ``site`` catalog (``locales/<lang>/LC_MESSAGES/site.po``),
the same catalog Sphinx's gettext builder fills from the narrative pages, so a translator has one
file for everything on the site that is not a rule. Each label is declared here once with
:func:`label`; the gettext builder hook (:func:`add_to_gettext_catalog`) puts every declared label
into ``site.pot``, and :class:`LabelCatalog` warns when the build's language lacks one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sphinx.util import logging

logger = logging.getLogger(__name__)

DOMAIN = "site"
_DECLARED: dict[str, None] = {}


def label(msgid: str) -> str:
    """Declare a label (so it is extracted) and return its msgid."""
    _DECLARED.setdefault(msgid)
    return msgid


def declared() -> list[str]:
    return list(_DECLARED)


# --- rule pages ---------------------------------------------------------------
EXAMPLE = label("Example")
POSITION = label("Position")
QUESTION = label("Question")
ANSWER = label("Expected answer")
VERDICT_YES = label("Yes")
VERDICT_NO = label("No")
VERDICT_NO_UNLESS = label("No, unless a card, Skill or Structure allows it")
DECIDED_BY = label("Decided by")
FIGURES = label("Figures")
PARAMETERS = label("Parameters")
SOURCE = label("Source")
SEE_ALSO = label("See also")
RULE_ID = label("ID")
CHECKS = label("What the assistant checks")
CONSULTED_FOR = label("Consulted for")
APPLIES_IF = label("Applies when")
REQUIRES = label("Allowed only when")
HINT = label("What would make it legal")
AMENDED_BY = label("Ruling")
REPLACED_BY = label("Replaced in a variant")
REMOVED_BY = label("Does not apply in a variant")
ADDS_TO = label("Adds to")
AMENDS = label("Amends")
REPLACES = label("Replaces")
REMOVES = label("Removes")
FAN_MADE = label("Fan-made variant: not an official rule of the game.")
# What the solo Trogs are asked to decide (an example's `decide:`), in words.
TROG_DECISIONS = {
    "move": label("where they move"),
    "place": label("how they place their Units"),
    "build": label("what they build"),
    "recruit": label("where recruits go"),
    "tactics": label("whether they draw another Tactics card"),
    "prisoner": label("where they take a Prisoner from"),
}
INTERPRETATION = label(
    "Our interpretation: the source leaves this open; the assistant follows this reading and says when it applied."
)
SOURCES = label("Sources")
HEADING = label("heading")
VARIANT_SECTIONS = label("New sections")
VARIANT_CHANGES = label("Changes to the base rules")
GLOSSARY_SEE = label("More in")
RULE_INDEX = label("Rule index")
RULE_INDEX_SHORT = label("rules")
AZ_INDEX = label("A–Z index")
AZ_INDEX_SHORT = label("A–Z")
RULE_MOVED = label("This rule is now here:")
RULE_RETIRED = label("This rule ID is retired; its successor:")
LANGUAGE = label("Language")
PRINT_SHEET = label("Printable quick-reference sheet (PDF)")
OBJ_RULE = label("rule")
OBJ_TERM = label("term")
OBJ_SECTION = label("section")
EXAMPLE_REGIONS = label("Region A, B, …: invented Regions of an example (the printed map is not in our sources).")
# An invented example Region, shown by its letter; {letter} is kept as it is.
EXAMPLE_REGION_NAME = label("Region {letter}")

# The six Region names known from the rulebook's examples (rules/README.md); examples and the Ask
# page show them by name, and other example Regions as "Region A", "Region B" ….
KNOWN_REGIONS = {
    "foglands": label("Foglands"),
    "feralas-banks": label("Feralas Banks"),
    "sapos-deep": label("Sapos Deep"),
    "scorch": label("Scorch"),
    "camerons-sea": label("Cameron's Sea"),
    "world-caverns": label("World Caverns"),
}
CONTENTS_OVERLAYS = label("Glossary, errata and variants")
# --- what the assistant checks: the expression vocabulary ----------------------
ALL_OF = label("all of these:")
ANY_OF = label("at least one of these:")
NOT = label("not:")
ONE_OF = label("is one of")
LARGER_OF = label("the larger of")
SMALLER_OF = label("the smaller of")
ROUNDED_UP = label("rounded up")
ROUNDED_DOWN = label("rounded down")
AND = label("and")
OR = label("or")
TRUE = label("yes")
FALSE = label("no")
SUBJECT_FROM = label("the region moved from")
SUBJECT_TO = label("the region moved to")
SUBJECT_REGION = label("the region asked about")
# --- position and question keys -------------------------------------------------
KEYS = {
    key: label(text)
    for key, text in {
        "players": "Players",
        "variant": "Variant",
        "round": "Round",
        "phase": "Phase",
        "step": "Step",
        "action-round": "Action round",
        "turn": "Turn",
        "initiative": "Initiative",
        "scoring-enabled": "Scoring enabled",
        "final-round": "Final round",
        "factions": "Factions",
        "regions": "Regions",
        "ask": "Question",
        "card": "Card",
        "card-units": "Units the card added or removed",
        "card-terrain": "Terrain of the card",
        "of": "How many",
        "item": "What is placed",
        "experience": "Experience",
        "faction": "Faction",
        "from": "From",
        "to": "To",
        "region": "Region",
        "units": "Units",
        "points": "Points",
        "verdict": "Verdict",
        "control": "Control",
        "battle": "Battle",
        "token": "token",
        "attacker": "attacker",
        "adjacent": "adjacent to",
        "crystals": "Crystals",
        "structures": "Structures",
        "hand": "cards in hand",
        "vp": "VP",
        "reserve": "Reserve",
        "hq": "HQ",
        "outer": "outer",
        "terrain": "Terrain",
        "figures": "Figures",
        "rules": "Rules",
        "objectives": "Units on the objectives",
    }.items()
}


# Values that stand in positions and questions: shown as words, not codes, in the reader's
# language. Region IDs stay as code (the printed map's names are not in our sources).
VALUES = {
    key: label(text)
    for key, text in {
        "humans": "Humans",
        "pilgrims": "Pilgrims",
        "machines": "Machines",
        "trogs": "Trogs",
        "events": "Events",
        "draw-cards": "Draw Cards",
        "actions": "Actions",
        "battle-resolution": "Battle Resolution",
        "prisoners": "Prisoners",
        "scoring": "Scoring",
        "mountains": "Mountains",
        "desert": "Desert",
        "jungle": "Jungle",
        "ocean": "Ocean",
        "move": "Move",
        "recruit": "Recruit",
        "build": "Build",
        "activate": "Activate",
        "draw-tactics": "Draw Tactics cards",
        "enable-scoring": "Enable Scoring",
        "use-skill": "Use a Skill",
        "play-tactic": "Play a Tactics card",
        "retreat": "Retreat",
        "discard": "Discard",
        "score": "Score",
        "winner": "Winner",
        "legal": "Legal actions",
        "how-many": "How many?",
        "place": "May it be placed here?",
        "end-of-move": "End of a Move",
        "setup": "Setup",
        "may-leave": "may leave",
        "may-recruit": "may recruit",
        "must-discard": "must discard",
        "may-buy-back": "may buy back",
        "crystal": "Crystal",
        "structure": "Structure",
        "beginner": "beginners",
        "experienced": "experienced players",
        "veteran": "veterans",
        "war-party": "Trog War Party",
        "nest": "Trog Nest",
        "air-support": "Air Support",
        "control": "Region Control",
        "attrition": "Attrition",
    }.items()
}


@dataclass
class LabelCatalog:
    """``site`` translations of one language, read from every locale dir in order (first wins)."""

    lang: str
    messages: dict[str, str] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    _warned: set[str] = field(default_factory=set)

    @classmethod
    def load(cls, lang: str, locale_dirs: list[Path]) -> LabelCatalog:
        from babel.messages.pofile import read_po

        cat = cls(lang)
        if lang == "en":
            return cat
        for folder in locale_dirs:
            path = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
            if not path.is_file():
                continue
            cat.files.append(path)
            with path.open("rb") as fh:
                po = read_po(fh, locale=lang)
            for msg in po:
                if msg.id and not msg.context and not msg.fuzzy and isinstance(msg.id, str) and msg.string:
                    cat.messages.setdefault(msg.id, str(msg.string))
        return cat

    def get(self, msgid: str, location: Any = None) -> str:
        """The label in this language; a missing one is warned about once (an error under -W)."""
        if self.lang == "en":
            return msgid
        found = self.messages.get(msgid)
        if found is None:
            if msgid not in self._warned:
                self._warned.add(msgid)
                logger.warning(
                    "no %s translation of the site label %r (add it to site.po)",
                    self.lang,
                    msgid,
                    type="havoc",
                    subtype="i18n",
                    location=location,
                )
            return msgid
        return found


class LazyLabel:
    """A label translated when rendered (for class attributes such as an index's title)."""

    def __init__(self, msgid: str) -> None:
        self.msgid = label(msgid)

    def __str__(self) -> str:
        from havoc.sphinxext.context import current_labels

        labels = current_labels()
        return labels.get(self.msgid) if labels else self.msgid

    def __html__(self) -> str:
        from markupsafe import escape

        return str(escape(str(self)))


def add_to_gettext_catalog(builder: Any, extra: list[str]) -> None:
    """Put every declared label (and ``extra`` data strings) into the gettext builder's ``site`` catalog."""
    from sphinx.builders.gettext import MsgOrigin

    catalog = builder.catalogs[DOMAIN]
    source = str(Path(__file__))
    for msgid in [*declared(), *extra]:
        catalog.add(msgid, MsgOrigin(source, 0))
