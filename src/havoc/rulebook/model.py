"""The typed model of a ruleset: what every view reads, never the YAML itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# A condition or figure expression: plain JSON-like data, validated by the loader
# (see rules/README.md, "Conditions").
Expr = Any


@dataclass(frozen=True, slots=True)
class Loc:
    """Where a thing is written: the file relative to the rules folder, and the line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Source:
    """Where a rule comes from: a seed document and heading, or an overlay's document."""

    seed: str | None = None
    heading: str | None = None
    doc: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class ParamDef:
    name: str
    value: int | float | bool | str
    rule_id: str
    loc: Loc
    unit: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Check:
    queries: tuple[str, ...]
    applies_if: Expr | None = None
    requires: Expr | None = None
    figures: dict[str, Expr] = field(default_factory=dict)
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class Example:
    id: str
    rule_id: str
    title: str
    text: str | None
    position: dict[str, Any]
    query: dict[str, Any]
    expect: dict[str, Any]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    title: str
    text: str
    section_id: str
    loc: Loc
    summary: str | None = None
    params: dict[str, ParamDef] = field(default_factory=dict)
    see: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    source: Source = field(default_factory=Source)
    check: Check | None = None
    examples: tuple[Example, ...] = ()
    origin: str = "base"  # "base", or the overlay that wrote it
    op: str | None = None  # for overlay rules: add | amend | replace | remove
    target: str | None = None  # for overlay rules: the rule it changes


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    title: str
    loc: Loc
    rule_ids: tuple[str, ...]
    part_id: str | None
    intro: str | None = None
    source: Source = field(default_factory=Source)
    origin: str = "base"


@dataclass(frozen=True, slots=True)
class Part:
    id: str
    title: str
    section_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Term:
    id: str
    name: str
    plural: str
    definition: str
    loc: Loc
    search_forms: str | None = None
    see: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Overlay:
    """Errata or a variant: rules that add to, amend, replace or remove base rules by ID."""

    id: str
    title: str
    kind: str  # errata | variant
    fan_made: bool
    loc: Loc
    rule_ids: tuple[str, ...]
    section_ids: tuple[str, ...]
    intro: str | None = None
    sources: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Retired:
    id: str
    successor: str | None
    reason: str | None


@dataclass(frozen=True, slots=True)
class FactDef:
    name: str
    type: str
    description: str


@dataclass(frozen=True, slots=True)
class View:
    """The rules in force for one variant: base, then errata, then the variant."""

    rules: dict[str, Rule]
    amendments: dict[str, tuple[Rule, ...]]
    replaced_by: dict[str, Rule]
    removed: frozenset[str]


@dataclass(slots=True)
class Ruleset:
    id: str
    title: str
    publisher: str
    year: int
    sources: dict[str, dict[str, Any]]
    parts: tuple[Part, ...]
    sections: dict[str, Section]
    rules: dict[str, Rule]
    terms: dict[str, Term]
    params: dict[str, ParamDef]
    overlays: dict[str, Overlay]
    retired: dict[str, Retired]
    facts: dict[str, FactDef]
    fingerprint: str = ""
    _views: dict[str | None, View] = field(default_factory=dict, repr=False)

    # --- lookups -------------------------------------------------------------
    def param(self, name: str) -> int | float | bool | str:
        """A parameter's value by name (the only way code should read a rule number)."""
        return self.params[name].value

    def resolve(self, rule_id: str) -> str | None:
        """Follow retired IDs to their successor; None if the ID never existed or has none."""
        seen: set[str] = set()
        while rule_id not in self.rules and rule_id not in self.sections:
            retired = self.retired.get(rule_id)
            if retired is None or retired.successor is None or rule_id in seen:
                return None
            seen.add(rule_id)
            rule_id = retired.successor
        return rule_id

    def base_rules(self) -> list[Rule]:
        return [r for r in self.rules.values() if r.origin == "base"]

    def overlay_rules(self, overlay_id: str) -> list[Rule]:
        return [self.rules[r] for r in self.overlays[overlay_id].rule_ids]

    def variants(self) -> list[Overlay]:
        return [o for o in self.overlays.values() if o.kind == "variant"]

    def view(self, variant: str | None = None) -> View:
        """The rules in force: the base rules, every errata overlay, then ``variant`` if any."""
        cached = self._views.get(variant)
        if cached is not None:
            return cached
        rules = {r.id: r for r in self.base_rules()}
        amendments: dict[str, list[Rule]] = {}
        replaced: dict[str, Rule] = {}
        removed: set[str] = set()
        layers = [o for o in self.overlays.values() if o.kind == "errata"]
        if variant is not None:
            layers.append(self.overlays[variant])
        for overlay in layers:
            for rid in overlay.rule_ids:
                rule = self.rules[rid]
                if rule.op == "add":
                    rules[rule.id] = rule
                elif rule.op == "amend" and rule.target:
                    amendments.setdefault(rule.target, []).append(rule)
                    rules[rule.id] = rule
                elif rule.op == "replace" and rule.target:
                    replaced[rule.target] = rule
                    rules.pop(rule.target, None)
                    rules[rule.id] = rule
                elif rule.op == "remove" and rule.target:
                    removed.add(rule.target)
                    rules.pop(rule.target, None)
        view = View(rules, {k: tuple(v) for k, v in amendments.items()}, replaced, frozenset(removed))
        self._views[variant] = view
        return view
