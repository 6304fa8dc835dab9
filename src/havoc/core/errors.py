"""Located errors: every problem names its file, line and what was expected.

The CLI turns these into messages and an exit code; nothing user-facing ever sees a traceback.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from havoc.core.tuples import NamedTuple


class Code:
    """Which problem a :class:`Problem` is (or which warning the site's build gives): stable,
    dotted lower-case codes that programs, tests and ``suppress_warnings`` match, unlike the
    wording. Plain ``str`` constants, not an ``enum`` (its import alone costs more than all of
    these, on the answer path); :mod:`havoc.core.codes` says what each means and documents them."""

    # --- files and YAML ----------------------------------------------------------------
    INPUT_TOO_LARGE = "input.too-large"
    INPUT_NOT_UTF8 = "input.not-utf8"
    FILE_UNREADABLE = "file.unreadable"
    FILE_UNWRITABLE = "file.unwritable"
    FILE_EXISTS = "file.exists"
    YAML_SYNTAX = "yaml.syntax"
    YAML_ALIAS = "yaml.alias"
    YAML_TOO_DEEP = "yaml.too-deep"
    YAML_KEY = "yaml.key"
    YAML_DUPLICATE_KEY = "yaml.duplicate-key"
    YAML_NOT_MAPPING = "yaml.not-mapping"
    YAML_TOO_MANY = "yaml.too-many"
    YAML_VALUE = "yaml.value"

    # --- fields (a position, a question, a rule file) ----------------------------------------
    FIELD_TYPE = "field.type"
    FIELD_MISSING = "field.missing"
    FIELD_UNKNOWN = "field.unknown"
    FIELD_VALUE = "field.value"
    FIELD_TOO_MANY = "field.too-many"
    MORE_PROBLEMS = "input.more-problems"

    # --- the request: the command line and the API -------------------------------------------
    REQUEST_USAGE = "request.usage"
    REQUEST_LANGUAGE = "request.language"
    REQUEST_SHAPE = "request.shape"
    REQUEST_UNKNOWN_SHORTCUT = "request.unknown-shortcut"
    REQUEST_UNKNOWN_DECIDER = "request.unknown-decider"

    # --- a question --------------------------------------------------------------------------
    QUERY_EMPTY = "query.empty"
    QUERY_WORD = "query.word"
    QUERY_FIELD = "query.unknown-field"
    QUERY_MISSING = "query.missing"
    QUERY_KIND = "query.kind"

    # --- a position ----------------------------------------------------------------------------
    POSITION_INVALID = "position.invalid"
    POSITION_UNKNOWN_REGION = "position.unknown-region"
    POSITION_MISSING = "position.missing"
    POSITION_NO_BATTLE = "position.no-battle"
    POSITION_UNITS = "position.units"

    # --- rulesets and games --------------------------------------------------------------
    RULESET_UNKNOWN = "ruleset.unknown"
    RULESET_NO_GAME = "ruleset.no-game"
    GAME_PACKAGE = "game.package"
    GAME_OFF_ANSWER_PATH = "game.off-answer-path"
    GAME_COMMAND_CLASH = "game.command-clash"
    GAME_NO_SCHEMA = "game.no-schema"
    GAME_DECISION = "game.decision"
    VOCABULARY_MISSING = "vocabulary.missing"

    # --- rules, sections and texts --------------------------------------------------------
    RULE_UNKNOWN_ID = "rule.unknown-id"
    ID_DUPLICATE = "id.duplicate"
    ID_FILE_NAME = "id.file-name"
    RULE_RETIRED = "rule.retired"
    RULE_UNCHECKED = "rule.unchecked"
    RULE_TEXT_ONLY = "rule.text-only"
    RULE_CHECK = "rule.check"
    RULE_SOURCE = "rule.source"
    RULE_TABLE = "rule.table"
    SECTION_UNLISTED = "section.unlisted"
    SECTION_MISSING = "section.missing"
    TERM_UNKNOWN = "term.unknown"
    PARAM_UNKNOWN = "param.unknown"
    PARAM_TYPE = "param.type"
    TEXT_PLACEHOLDER = "text.placeholder"
    EXAMPLE_FAILED = "example.failed"
    SEARCH_WORDS = "search.words"

    # --- question kinds and figures ------------------------------------------------------
    KIND_MODULE = "kind.module"
    KIND_DECLARATION = "kind.declaration"
    KIND_UNHANDLED = "kind.unhandled"
    FIGURE_MISSING = "figure.missing"
    FIGURE_INCONSISTENT = "figure.inconsistent"
    FIGURE_UNCLAIMED = "figure.unclaimed"

    # --- catalogs (translations) -----------------------------------------------------------
    CATALOG_SYNTAX = "catalog.syntax"

    # --- the printable sheet -----------------------------------------------------------------
    SHEET_TOOL = "sheet.tool"
    SHEET_LAYOUT = "sheet.layout"
    SHEET_OVERFLOW = "sheet.overflow"

    # --- the site's build (Sphinx warnings: suppress_warnings = ["havoc.<code>"]) --------------
    CATALOG_UNTRANSLATED = "catalog.untranslated"
    LABEL_UNTRANSLATED = "label.untranslated"
    PAGE_UNTRANSLATED = "page.untranslated"
    KIND_NO_LABEL = "kind.no-label"
    SITE_DUPLICATE = "site.duplicate"


def split_field(message: str) -> tuple[str, str]:
    """A problem's message as (the field's machine path, what is wrong there): the validators
    write ``field.path: expected …``; ("", message) when it names no field. A path's first step
    is a field name (no space); a key after it may be a name as typed ("regions.Region b")."""
    field, sep, rest = message.partition(": ")
    if not sep or not field or " " in field.partition(".")[0].partition("[")[0]:
        return "", message
    return field, rest


class Problem(NamedTuple):
    """One located problem in an input file. ``where``: the field the message starts with, said
    in the reader's words (Region and faction names, the field's label), when the game words it;
    the message keeps the machine path for programs. ``code``: which problem it is, one of
    :class:`havoc.core.codes.Code` (stable, unlike the wording: programs and tests match it); last
    and defaulted so a positional ``Problem(file, line, message)`` stays right."""

    file: str
    line: int | None
    message: str
    where: str = ""
    code: str = ""

    def __str__(self) -> str:
        return f"{self._at()}: {self.message}"

    def said(self) -> str:
        """The problem for people (the CLI's error line): its field in words where the game
        gave them ("stół.yaml:9: Region A › Oddziały (units) › Ludzie: …"), else as ``str``."""
        if self.where:
            field, rest = split_field(self.message)
            if field:
                return f"{self._at()}: {self.where}: {rest}"
        return str(self)

    def _at(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


class HavocError(Exception):
    """Base of every error havoc reports to a user (never a programming error)."""

    exit_code = 1

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class RulebookError(HavocError):
    """The rules in ``rules/`` (or a catalog) are malformed or inconsistent."""


class InputError(HavocError):
    """A position or query given by a user is malformed or impossible."""

    exit_code = 2
