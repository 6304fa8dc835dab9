"""Located errors: every problem names its file, line and what was expected.

The CLI turns these into messages and an exit code; nothing user-facing ever sees a traceback.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from havoc.tuples import NamedTuple


class Problem(NamedTuple):
    """One located problem in an input file."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.message}"


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
