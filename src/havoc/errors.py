"""Located errors: every problem names its file, line and what was expected.

The CLI turns these into messages and an exit code; nothing user-facing ever sees a traceback.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from havoc.tuples import NamedTuple


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
    the message keeps the machine path for programs."""

    file: str
    line: int | None
    message: str
    where: str = ""

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
