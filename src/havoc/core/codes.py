"""Stable codes for every problem havoc reports and every warning its Sphinx extension gives.

A :class:`~havoc.core.errors.Problem`'s message is worded for people and may change (and is said in
Polish too); its code says *which* problem it is and does not change: programs (``--json``
output, the API's error bodies), tests and ``suppress_warnings`` match the code. A code is
dotted lower-case, ``<area>.<what>`` — ``yaml.syntax``, ``rule.unknown-id`` — and is never
reused for another meaning: retire one by keeping it here, say so in its meaning.

The constants are :class:`havoc.core.errors.Code` (re-exported here), a plain class of ``str``, not
an ``enum``: every ``havoc ask`` and the browser's engine import errors.py, and ``enum`` alone
costs more to import than all of them, while this module (the meanings) stays off the answer
path. :data:`MEANINGS` is the registry the documentation page is generated from (the
``havoc-codes`` directive; their Polish is in ``havoc.po``, context ``ui``), so the page cannot
drift from the code; a test checks every constant has a meaning here. :data:`WARNINGS` are the
ones Sphinx reports as ``havoc.<code>``.

A new code: a constant in :class:`~havoc.core.errors.Code`, its meaning here (one sentence, for the
page), then ``havoc catalog update`` and its Polish in ``locales/pl/LC_MESSAGES/havoc.po``;
tests/test_codes.py fails until each is done, and on any ``Problem(…)`` made without a code.
"""

from __future__ import annotations

from havoc.core.errors import Code

__all__ = ["MEANINGS", "WARNINGS", "WARNING_TYPE", "Code", "is_code"]

MEANINGS: dict[str, str] = {
    # --- files and YAML ----------------------------------------------------------------
    Code.INPUT_TOO_LARGE: "The file or request is larger than havoc reads.",
    Code.INPUT_NOT_UTF8: "The file is not UTF-8 text.",
    Code.FILE_UNREADABLE: "The file cannot be read (missing, not allowed, or not a file).",
    Code.FILE_UNWRITABLE: "havoc cannot write the file or folder it was asked to write.",
    Code.FILE_EXISTS: "The file to create exists already; choose another name or force it.",
    Code.YAML_SYNTAX: "The file is not valid YAML (or JSON).",
    Code.YAML_ALIAS: "YAML anchors and aliases (&name / *name) are not allowed.",
    Code.YAML_TOO_DEEP: "The values are nested deeper than havoc reads.",
    Code.YAML_KEY: "A mapping key is not a plain value.",
    Code.YAML_DUPLICATE_KEY: "A mapping gives the same key twice.",
    Code.YAML_NOT_MAPPING: "The file does not hold a mapping (key: value) at the top level.",
    Code.YAML_TOO_MANY: "The file holds more values than havoc reads.",
    Code.YAML_VALUE: "A value cannot be used (e.g. a number too long to convert).",
    # --- fields (a position, a question, a rule file) ----------------------------------------
    Code.FIELD_TYPE: "A field holds the wrong kind of value (text for a number, a list for a mapping …).",
    Code.FIELD_MISSING: "A required field is missing.",
    Code.FIELD_UNKNOWN: "A field that is not known here (often a misspelling).",
    Code.FIELD_VALUE: "A field's value is not one of those allowed or out of its range.",
    Code.FIELD_TOO_MANY: "A list, mapping or text is longer than allowed.",
    Code.MORE_PROBLEMS: "There are more problems than are listed; fix these first.",
    # --- the request: the command line and the API -------------------------------------------
    Code.REQUEST_USAGE: "The command line or an option is used wrongly.",
    Code.REQUEST_LANGUAGE: "The language asked for is not one havoc speaks.",
    Code.REQUEST_SHAPE: "The request's position or question is not a mapping, a path or text.",
    Code.REQUEST_UNKNOWN_SHORTCUT: "The API shortcut named is not one of this game's.",
    Code.REQUEST_UNKNOWN_DECIDER: "The decider named is not one of this game's.",
    # --- a question --------------------------------------------------------------------------
    Code.QUERY_EMPTY: "No question was given.",
    Code.QUERY_WORD: "A word of the question cannot be read (not key=value, a faction or a Region).",
    Code.QUERY_FIELD: "The question names a field its kind does not have.",
    Code.QUERY_MISSING: "The question lacks something its kind needs (a Region, a faction …).",
    Code.QUERY_KIND: "The question kind is not one this game answers.",
    # --- a position ----------------------------------------------------------------------------
    Code.POSITION_INVALID: "The position's fields do not fit together or break a rule of the game.",
    Code.POSITION_UNKNOWN_REGION: "A Region is named that the position does not list.",
    Code.POSITION_MISSING: "The position lacks a fact the question needs.",
    Code.POSITION_NO_BATTLE: "The question is about a Battle where the position has none.",
    Code.POSITION_UNITS: "Unit counts do not add up (more placed or moved than there are).",
    # --- rulesets and games --------------------------------------------------------------
    Code.RULESET_UNKNOWN: "No ruleset of that name or at that path.",
    Code.RULESET_NO_GAME: "The ruleset names no game, so it has no rules assistant.",
    Code.GAME_PACKAGE: "The game named by a ruleset cannot be loaded or is not a game package.",
    Code.GAME_OFF_ANSWER_PATH: "A game's OFF_ANSWER_PATH names a module outside the game.",
    Code.GAME_COMMAND_CLASH: "A game's command-line name is already a havoc command.",
    Code.GAME_NO_SCHEMA: "The ruleset's game publishes no answer schema.",
    Code.GAME_DECISION: "A decision module of the game (e.g. an automated opponent's) is missing or broken.",
    Code.VOCABULARY_MISSING: "The game needs a vocabulary (named lists) the ruleset lacks.",
    # --- rules, sections and texts --------------------------------------------------------
    Code.RULE_UNKNOWN_ID: "A rule or section is named that the ruleset does not have.",
    Code.ID_DUPLICATE: "An ID (of a rule, section, term, fact or parameter) is defined twice.",
    Code.ID_FILE_NAME: "A section's or overlay's ID does not match its file's name.",
    Code.RULE_RETIRED: "A retired rule ID is used; use its successor.",
    Code.RULE_UNCHECKED: "Nothing checks a rule: give it a check, or say why it is text only.",
    Code.RULE_TEXT_ONLY: "A rule marked text-only is enforced by the assistant.",
    Code.RULE_CHECK: "A rule's check expression is not valid.",
    Code.RULE_SOURCE: "A rule cites a source document that is not listed.",
    Code.RULE_TABLE: "A rule's table (a chart) does not have the shape its game reads.",
    Code.SECTION_UNLISTED: "A section is listed in no part, or in two, of ruleset.yaml.",
    Code.SECTION_MISSING: "A section listed in ruleset.yaml has no file, or the ruleset has none.",
    Code.TERM_UNKNOWN: "A glossary term is named that the ruleset does not define.",
    Code.PARAM_UNKNOWN: "A parameter is used that no rule defines.",
    Code.PARAM_TYPE: "A parameter's value is not of the kind its user needs.",
    Code.TEXT_PLACEHOLDER: "A rule text's {placeholder} is malformed or has the wrong plural forms.",
    Code.EXAMPLE_FAILED: "A worked example's answer differs from the one the rules give.",
    Code.SEARCH_WORDS: "The player words (synonyms) of the search are malformed or name nothing.",
    # --- question kinds and figures ------------------------------------------------------
    Code.KIND_MODULE: "A question kind's module is missing or does not load.",
    Code.KIND_DECLARATION: "A question kind's declaration is incomplete or inconsistent.",
    Code.KIND_UNHANDLED: "A question kind is declared but the game has no handler for it.",
    Code.FIGURE_MISSING: "No rule checked for the kind defines a figure it needs.",
    Code.FIGURE_INCONSISTENT: "The rules checked give figures that contradict each other.",
    Code.FIGURE_UNCLAIMED: "A rule's check gives a figure that no question kind claims, so no answer shows it.",
    # --- catalogs (translations) -----------------------------------------------------------
    Code.CATALOG_SYNTAX: "A .po catalog is malformed.",
    # --- the printable sheet -----------------------------------------------------------------
    Code.SHEET_TOOL: "A font or program the printable sheet needs is not installed.",
    Code.SHEET_LAYOUT: "The sheet's layout file is malformed.",
    Code.SHEET_OVERFLOW: "The sheet does not fit its pages.",
    # --- the site's build (Sphinx warnings: suppress_warnings = ["havoc.<code>"]) --------------
    Code.CATALOG_UNTRANSLATED: "A rule text has no translation in rules.po for the language built.",
    Code.LABEL_UNTRANSLATED: "A site label has no translation for the language built.",
    Code.PAGE_UNTRANSLATED: "A text of a site page has no translation in site.po.",
    Code.KIND_NO_LABEL: "A figure or question kind has no label to show on the site.",
    Code.SITE_DUPLICATE: "A rule, section or term is rendered on two pages.",
}
"""Every code and what it means, in English, in the order declared (the page's order)."""

WARNINGS: frozenset[str] = frozenset(
    {
        Code.CATALOG_UNTRANSLATED,
        Code.LABEL_UNTRANSLATED,
        Code.PAGE_UNTRANSLATED,
        Code.KIND_NO_LABEL,
        Code.SITE_DUPLICATE,
    }
)
"""The codes the Sphinx extension warns with: ``suppress_warnings = ["havoc.<code>"]``."""

WARNING_TYPE = "havoc"
"""The ``type`` of every havoc Sphinx warning; its ``subtype`` is the code."""


def is_code(code: str) -> bool:
    """Whether ``code`` is one of the codes above (a test checks every use is)."""
    return code in MEANINGS
