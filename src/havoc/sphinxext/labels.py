"""The words the site's generated pages add around the rules ("Example", "Source", …).

They are English msgids translated in the ``site`` catalog (``locales/<lang>/LC_MESSAGES/site.po``),
the same catalog Sphinx's gettext builder fills from the narrative pages, so a translator has one
file for everything on the site that is not a rule. Each label is declared here once with
:func:`label`; the gettext builder hook (:func:`add_to_gettext_catalog`) puts every declared label
into ``site.pot``, and :class:`LabelCatalog` warns when the build's language lacks one.

A word the assistant says too (a question kind's label, what it answers) is written once, as a
``ui("…")`` string where it is declared, and translated once, in the ``havoc`` catalog's ``ui``
context: the site declares it with :func:`ui_label`, so it is not copied into ``site.pot``, and
:class:`LabelCatalog` reads it from ``havoc.po``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sphinx.util import logging

from havoc.core.codes import WARNING_TYPE, Code
from havoc.engine.conditions import OPS

logger = logging.getLogger(__name__)

DOMAIN = "site"
UI_DOMAIN = "havoc"  # the assistant's catalog; its `ui` context holds the words both say
_DECLARED: dict[str, None] = {}
_UI_DECLARED: dict[str, None] = {}


def label(msgid: str) -> str:
    """Declare a label (so it is extracted) and return its msgid."""
    _DECLARED.setdefault(msgid)
    return msgid


def ui_label(msgid: str) -> str:
    """Declare a word the site shows that the ``havoc`` catalog translates (context ``ui``), and
    return its msgid; it is not extracted into ``site.pot``."""
    _UI_DECLARED.setdefault(msgid)
    return msgid


def declared() -> list[str]:
    """The site's own labels (extracted into ``site.pot``); not the ``ui`` words it borrows."""
    _declare_installed_games()
    return list(_DECLARED)


def ui_declared() -> list[str]:
    """The words the site reads from the ``havoc`` catalog (context ``ui``)."""
    _declare_installed_games()
    return [m for m in _UI_DECLARED if m not in _DECLARED]


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
ALLOWED = label("Allowed")
NEVER = label("never")
HINT = label("What would make it legal")
AMENDED_BY = label("Ruling")
REPLACED_BY = label("Replaced in a variant")
REMOVED_BY = label("Does not apply in a variant")
ADDS_TO = label("Adds to")
AMENDS = label("Amends")
REPLACES = label("Replaces")
REMOVES = label("Removes")
FAN_MADE = label("Fan-made variant: not an official rule of the game.")
INTERPRETATION = label(
    "Our interpretation: the source leaves this open; the assistant follows this reading and says when it applied."
)
NOT_CHECKED = label("The assistant does not check this rule.")
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
RULEBOOKS = label("Rulebooks")
PRINT_SHEET = label("Printable quick-reference sheet (PDF)")
# the home page's line to the sheet ({sheet} is SHEET_LINK, a link to this language's PDF)
SHEET_LINE = label("At the table: the {sheet}, two A4 pages to print.")
SHEET_LINK = label("quick-reference sheet (PDF)")
OBJ_RULE = label("rule")
OBJ_TERM = label("term")
OBJ_SECTION = label("section")
EXAMPLE_REGIONS = label("Region A, B, …: invented Regions of an example (the printed map is not in our sources).")
# An invented example Region, shown by its letter; {letter} is kept as it is.
EXAMPLE_REGION_NAME = label("Region {letter}")

CONTENTS_OVERLAYS = label("Glossary, errata and variants")
# --- the changes since the printed rulebook (havoc.sphinxext.changes) ----------
CHANGES_TITLE = label("Changes since the printed rulebook")
CHANGES_LISTED = label("Listed in")
DATE_UNKNOWN = label("date unknown")
PRINTED_TEXT = label("The printed text")
CHANGE_IN_FULL = label("In full")
# --- what the assistant checks: the expression vocabulary ----------------------
# The operators' words come from the one operator table (havoc.engine.conditions.OPS).
OPERATOR_WORDS = [label(w) for op in OPS.values() for w in op.words]
TRUE = label("yes")
FALSE = label("no")
SUBJECT_FROM = label("the region moved from")
SUBJECT_TO = label("the region moved to")
SUBJECT_REGION = label("the region asked about")
# --- the game's words ------------------------------------------------------------
# The words of a game's positions and questions (keys, values, known Region names) come from
# its package (``site_words()``), so the site extension names no game. They are declared here
# as labels, so they are extracted into site.pot and checked like every other label.
# A game's table ``"ui"`` lists the English words among them that its ``havoc`` catalog translates
# (context ``ui``), declared with ui_label instead of label.
WORD_TABLES = ("regions", "keys", "values", "decisions")


def game_words(module: str) -> dict[str, dict[str, str]]:
    """``{"regions": …, "keys": …, "values": …, "decisions": …}``: identifier -> English label."""
    from havoc.engine import game

    found: dict[str, dict[str, str]] = {t: {} for t in WORD_TABLES}
    if not module:
        return found
    words = getattr(game.load(module), "site_words", None)
    tables = words() if words else {}
    borrowed = set(tables.get("ui", {}).values())
    for table, entries in tables.items():
        if table in found:
            found[table] = {k: ui_label(v) if v in borrowed else label(v) for k, v in entries.items()}
    return found


def _declare_installed_games() -> None:
    from havoc.engine import game

    for module in game.installed():
        if hasattr(game.load(module), "site_words"):
            game_words(module)


@dataclass
class LabelCatalog:
    """``site`` translations of one language, read from every locale dir in order (first wins),
    then the ``havoc`` catalog's ``ui`` words (a word the site has no own translation of)."""

    lang: str
    messages: dict[str, str] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    _warned: set[str] = field(default_factory=set)

    @classmethod
    def load(cls, lang: str, locale_dirs: list[Path]) -> LabelCatalog:
        cat = cls(lang)
        if lang == "en":
            return cat
        from havoc.language.i18n import UI_CONTEXT

        # the site's own labels (no context), then the words the code translates once (context ui)
        cat._read(locale_dirs, DOMAIN, None)
        cat._read(locale_dirs, UI_DOMAIN, UI_CONTEXT)
        return cat

    def _read(self, locale_dirs: list[Path], domain: str, context: str | None) -> None:
        """Add the translated, settled messages of ``context`` in each folder's ``domain`` catalog
        (a label already found keeps its first translation)."""
        for folder in locale_dirs:
            path = folder / self.lang / "LC_MESSAGES" / f"{domain}.po"
            if not path.is_file():
                continue
            self.files.append(path)
            for msgid, string in _settled(path.read_bytes(), self.lang, context).items():
                self.messages.setdefault(msgid, string)

    def get(self, msgid: str, location: Any = None) -> str:
        """The label in this language; a missing one is warned about once (an error under -W)."""
        if self.lang == "en":
            return msgid
        found = self.messages.get(msgid)
        if found is None:
            if msgid not in self._warned:
                self._warned.add(msgid)
                where = "havoc.po, context ui" if msgid in _UI_DECLARED and msgid not in _DECLARED else "site.po"
                logger.warning(
                    "no %s translation of the site label %r (add it to %s)",
                    self.lang,
                    msgid,
                    where,
                    type=WARNING_TYPE,
                    subtype=Code.LABEL_UNTRANSLATED,
                    location=location,
                )
            return msgid
        return found


# The labels of the language being built (set by the build context), for LazyLabel.
_current_labels: list[LabelCatalog] = []


def set_current_labels(labels: LabelCatalog | None) -> None:
    _current_labels[:] = [labels] if labels is not None else []


class LazyLabel:
    """A label translated when rendered (for class attributes such as an index's title)."""

    def __init__(self, msgid: str) -> None:
        self.msgid = label(msgid)

    def __str__(self) -> str:
        labels = _current_labels[0] if _current_labels else None
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


def _settled(data: bytes, lang: str, context: str | None) -> dict[str, str]:
    """The translated, settled messages of ``context`` in a catalog's bytes: parsed by Babel once
    and then kept in havoc's verified cache by those bytes (each build of the site reads the
    same catalogs; parsing them was a tenth of a rebuild after a one-word edit)."""

    from havoc.core import cache
    from havoc.language.i18n import read_po_bytes

    # the code that settles the messages is part of the key (see cache.code_bytes)
    key = cache.digest(b"site-labels", cache.code_bytes(__file__), lang.encode(), (context or "").encode(), data)
    found = cache.get("site-labels", key, dict)
    if found is not None and all(isinstance(k, str) and isinstance(v, str) for k, v in found.items()):
        return found
    messages: dict[str, str] = {}
    for msg in read_po_bytes(data, lang):
        if msg.id and (msg.context or None) == context and not msg.fuzzy and isinstance(msg.id, str) and msg.string:
            messages.setdefault(msg.id, str(msg.string))
    cache.put("site-labels", key, messages)
    return messages
