"""Library access to the chart lookups, like :mod:`havoc.assistant.api`: name the ruleset, get a result.

Each function loads the ruleset (cached) and returns the structured result of
:mod:`.lookups`; :func:`~.lookups.as_dict` turns one into JSON-ready data.
"""

from __future__ import annotations

from collections.abc import Sequence

from havoc.engine.rulebook.model import Ruleset
from havoc.games.advanced_cry_havoc import RULESET, lookups
from havoc.games.advanced_cry_havoc.lookups import CombatResult, ModifierResult, RangeResult, RowResult


def load(ruleset: str = RULESET) -> Ruleset:
    from havoc.engine import rulebook

    return rulebook.load(ruleset)


def weapon_range(weapon: str, distance: int, ruleset: str = RULESET) -> RangeResult:
    """A weapon and a distance in hexes → band, power, ammunition (or out of range, or refused)."""
    return lookups.range_lookup(load(ruleset), weapon, distance)


def courage(def_factor: int, mounted: bool, ruleset: str = RULESET) -> RowResult:
    """A DEF factor, mounted or on foot → courage."""
    return lookups.courage(load(ruleset), def_factor, mounted)


def impairment(
    roll: int, mods: Sequence[int] = (), situations: Sequence[str] = (), ruleset: str = RULESET
) -> RowResult:
    """A die roll with modifiers (numbers or chart lines) → the impairment effect."""
    return lookups.impairment(load(ruleset), roll, mods, situations)


def waking(roll: int, mods: Sequence[int] = (), situations: Sequence[str] = (), ruleset: str = RULESET) -> RowResult:
    """A die roll with modifiers (numbers or chart lines) → the waking-up result."""
    return lookups.waking(load(ruleset), roll, mods, situations)


def morale(
    situations: Sequence[str],
    check: str = "morale",
    roll: int | None = None,
    courage: int | None = None,
    ruleset: str = RULESET,
) -> ModifierResult:
    """The situations of a morale or recovery check → the modifiers that count (and, with a
    roll, the modified roll; its result against courage is refused, the charts never give it)."""
    return lookups.morale(load(ruleset), situations, check, roll, courage)


def combat(
    target: Sequence[str] = (),
    attacker: Sequence[str] = (),
    animal: bool = False,
    ranged: bool = False,
    ruleset: str = RULESET,
) -> CombatResult:
    """A described situation → column shifts and die-roll modifiers (the result itself is refused)."""
    return lookups.combat(load(ruleset), target, attacker, animal, ranged)


__all__ = ["combat", "courage", "impairment", "load", "morale", "waking", "weapon_range"]
