"""Checks of the translation catalogs against the rules (filled in by the site work)."""

from __future__ import annotations

from dataclasses import dataclass, field

from havoc.rulebook.model import Ruleset


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)


def check_all(ruleset: Ruleset) -> Report:
    """Every catalog complete, fresh and keeping placeholders; no catalogs yet means nothing to check."""
    return Report()
