"""The typed model of a ruleset: what every view reads, never the YAML itself.

Records are ``NamedTuple``s rather than dataclasses: a ``havoc ask`` process creates these
classes at start-up and unpickles a cached ruleset, and tuples are the cheapest at both.
They are immutable; the loader builds them once. They are made by :mod:`havoc.core.tuples` (no
:mod:`typing` at run time), which reads the annotations as written: string annotations cost
nothing to make.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, NamedTuple
else:
    from havoc.core.tuples import NamedTuple

    Any = object  # named only in annotations and aliases


_EMPTY: Mapping[str, Any] = type(type.__dict__)({})  # types.MappingProxyType({}), without importing types

# The kinds of question a rule's check can be consulted for; the loader rejects others and the
# interpreter answers each (see rules/README.md, "Conditions").

# A condition or figure expression: plain JSON-like data, validated by the loader
# (see rules/README.md, "Conditions").
Expr = Any


class Loc(NamedTuple):
    """Where a thing is written: the file relative to the rules folder, and the line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class Source(NamedTuple):
    """Where a rule comes from: a seed document and heading, or an overlay's document."""

    seed: str | None = None
    heading: str | None = None
    doc: str | None = None
    note: str | None = None


class ParamDef(NamedTuple):
    name: str
    value: int | float | bool | str
    rule_id: str
    loc: Loc
    unit: str | None = None
    description: str | None = None
    type: str = "int"  # int | bool | text (see loader.PARAM_TYPES)
    minimum: int | None = None
    maximum: int | None = None


class Check(NamedTuple):
    queries: tuple[str, ...]
    applies_if: Expr | None = None
    requires: Expr | None = None
    figures: Mapping[str, Expr] = _EMPTY
    hint: str | None = None
    # Rules that state the exception a position cannot show (a card, Skill or Structure
    # effect): a "no" from this check is then "no, unless" that exception applies.
    unless: tuple[str, ...] = ()


class Example(NamedTuple):
    id: str
    rule_id: str
    title: str
    text: str | None
    position: dict[str, Any]
    query: dict[str, Any]
    expect: dict[str, Any]
    loc: Loc


class Table(NamedTuple):
    """A chart printed with a rule: column headings and rows of cells (text, as printed)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    loc: Loc


class Rule(NamedTuple):
    id: str
    title: str
    text: str
    section_id: str
    loc: Loc
    summary: str | None = None
    params: Mapping[str, ParamDef] = _EMPTY
    see: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    source: Source = Source()
    check: Check | None = None
    examples: tuple[Example, ...] = ()
    origin: str = "base"  # "base", or the overlay that wrote it
    op: str | None = None  # for overlay rules: add | amend | replace | remove
    target: str | None = None  # for overlay rules: the rule it changes
    table: Table | None = None  # a chart the rule prints (the page and the sheet show it)
    interpretation: bool = False  # our documented reading of an open point, not the source's own words
    text_only: str | None = None  # why the assistant does not check it (the completeness gate)


class Section(NamedTuple):
    id: str
    title: str
    loc: Loc
    rule_ids: tuple[str, ...]
    part_id: str | None
    intro: str | None = None
    source: Source = Source()
    origin: str = "base"


class Part(NamedTuple):
    id: str
    title: str
    section_ids: tuple[str, ...]


class Term(NamedTuple):
    id: str
    name: str
    plural: str
    definition: str
    loc: Loc
    search_forms: str | None = None
    see: tuple[str, ...] = ()


class Overlay(NamedTuple):
    """Errata or a variant: rules that add to, amend, replace or remove base rules by ID."""

    id: str
    title: str
    kind: str  # errata | variant
    fan_made: bool
    loc: Loc
    rule_ids: tuple[str, ...]
    section_ids: tuple[str, ...]
    intro: str | None = None
    sources: Mapping[str, Mapping[str, str]] = _EMPTY


class Retired(NamedTuple):
    id: str
    successor: str | None
    reason: str | None


class FactDef(NamedTuple):
    name: str
    type: str  # bool, int or string
    description: str
    values: str | None = None  # a string fact's values: the name of a list in the vocabulary
    # what a player would write for it ("{faction}' VP"; {faction}: the asking faction, {region}:
    # the fact's Region), filled in when an answer is shown; "" a fact that only chooses a branch
    # of a rule (the asking faction is the Trogs): not shown; None: its description is shown
    player: str | None = None


class View(NamedTuple):
    """The rules in force for one variant: base, then errata, then the variant."""

    rules: dict[str, Rule]
    amendments: dict[str, tuple[Rule, ...]]
    replaced_by: dict[str, Rule]
    removed: frozenset[str]


LAYER_RULEBOOK = "rulebook"  # the printed rules alone: what ``as_of`` takes for "before any erratum"


def _is_iso_date(text: str) -> bool:
    """YYYY, YYYY-MM or YYYY-MM-DD (without importing re: an answer's process never needs it)."""
    parts = text.split("-")
    sizes = [4, 2, 2][: len(parts)]
    return len(parts) <= 3 and all(
        len(p) == n and p.isascii() and p.isdigit() for p, n in zip(parts, sizes, strict=True)
    )


class Ruleset:
    """A whole validated ruleset; the one object every view is given."""

    __slots__ = (
        "_as_of",
        "_provenance",
        "_views",
        "as_of_cut",
        "content",
        "facts",
        "fingerprint",
        "game",
        "id",
        "overlays",
        "params",
        "parts",
        "publisher",
        "retired",
        "rules",
        "sections",
        "sources",
        "terms",
        "title",
        "version",
        "vocabulary",
        "year",
    )

    def __init__(
        self,
        *,
        id: str,
        title: str,
        publisher: str,
        year: int,
        sources: dict[str, dict[str, Any]],
        parts: tuple[Part, ...],
        sections: dict[str, Section],
        rules: dict[str, Rule],
        terms: dict[str, Term],
        params: dict[str, ParamDef],
        overlays: dict[str, Overlay],
        retired: dict[str, Retired],
        facts: dict[str, FactDef],
        fingerprint: str = "",
        game: str = "",
        vocabulary: dict[str, Any] | None = None,
        version: str = "",
    ) -> None:
        self.id = id
        self.title = title
        self.publisher = publisher
        self.year = year
        self.sources = sources
        self.parts = parts
        self.sections = sections
        self.rules = rules
        self.terms = terms
        self.params = params
        self.overlays = overlays
        self.retired = retired
        self.facts = facts
        self.fingerprint = fingerprint
        self.game = game  # the module of the game package ("" for rules without an assistant)
        self.vocabulary = vocabulary or {}  # vocabulary.yaml: the identifiers positions and conditions use
        self._views: dict[str | None, View] = {}
        self.version = version  # ruleset.yaml's version: with the fingerprint, what an answer was computed from
        self.content = ""  # a hash of the rule files alone (stored.Snapshot.content): what answers cite
        self.as_of_cut = ""  # a view of the rules in force at an earlier layer (as_of): that layer's ID or date
        self._as_of: dict[str, Ruleset] = {}
        self._provenance: dict[tuple[str | None, str], dict[str, Any]] = {}

    @property
    def question_kinds(self) -> tuple[str, ...]:
        """The kinds of question the ruleset's game answers: its vocabulary's ``question-kinds``
        when it lists them, else the modules of the game's ``kinds/`` folder, each in its
        declared order (:func:`havoc.engine.rulebook.declared_kinds`: read afresh, never cached
        with the rules, so a new kind's module shows without a rule file changing)."""
        if "question-kinds" in self.vocabulary:
            return tuple(self.vocabulary["question-kinds"])
        from havoc.engine.rulebook import declared_kinds

        return declared_kinds(self.game)

    def __repr__(self) -> str:
        return f"<Ruleset {self.id} {len(self.rules)} rules {self.fingerprint[:8]}>"

    def __getstate__(self) -> dict[str, Any]:
        state = {name: getattr(self, name) for name in self.__slots__}
        state["_views"] = {}
        state["_as_of"] = {}
        state["_provenance"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

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

    # --- layers: the printed rules, then each later source of the errata ---------------
    def errata_sources(self) -> list[tuple[str, Mapping[str, Any]]]:
        """The sources the errata in this ruleset cite, oldest first (an undated one after every
        dated one: a date it does not give is never guessed)."""
        found: dict[str, Mapping[str, Any]] = {}
        for overlay in self.overlays.values():
            if overlay.kind != "errata":
                continue
            cited = {self.rules[rid].source.doc for rid in overlay.rule_ids}
            for key, meta in overlay.sources.items():
                if key in cited:
                    found.setdefault(key, meta)
        return sorted(found.items(), key=lambda kv: (str(kv[1].get("date") or "\uffff"), kv[0]))

    def layers(self, variant: str | None = None) -> list[dict[str, Any]]:
        """The layers these rules are made of, in order: the printed rulebook (the authority),
        each errata source in force, then ``variant`` (id, title, date where the sources give one)."""
        out: list[dict[str, Any]] = []
        for key, meta in self.sources.items():
            if meta.get("authority"):
                out.append({"id": LAYER_RULEBOOK, "source": key, "title": str(meta.get("title", key))})
        for key, cited in self.errata_sources():  # (a view's overlays hold only the errata it keeps)
            layer = {"id": key, "title": str(cited.get("title", key))}
            if cited.get("date"):
                layer["date"] = str(cited["date"])
            out.append(layer)
        if variant is not None and variant in self.overlays:
            out.append({"id": variant, "title": self.overlays[variant].title})
        return out

    def provenance(self, variant: str | None = None, lang: str = "en") -> dict[str, Any]:
        """What an answer computed from these rules says it read: the ruleset's id, version and
        content fingerprint, the layers in force with their titles in ``lang`` (and the
        ``as_of`` cut of a view). Made once per variant and language: every answer carries it."""
        found = self._provenance.get((variant, lang))
        if found is not None:
            return found
        from havoc.language.i18n import translator

        tr = translator(lang, self.id)
        layers = []
        for layer in self.layers(variant):
            key = layer.get("source", layer["id"])
            context = f"{variant}:title" if layer["id"] == variant else f"source:{key}:title"
            layers.append({**layer, "title": tr.text(context, layer["title"])})
        out: dict[str, Any] = {"id": self.id, "version": self.version, "fingerprint": self.content or self.fingerprint}
        if self.as_of_cut:
            out["as-of"] = self.as_of_cut
        out["layers"] = layers
        self._provenance[(variant, lang)] = out
        return out

    def layer_names(self) -> list[str]:
        """What ``as_of`` takes besides a date: the printed rulebook, then each errata source."""
        return [LAYER_RULEBOOK, *(key for key, _ in self.errata_sources())]

    def as_of(self, cut: str) -> Ruleset:
        """The rules as they stood at ``cut``: the printed rulebook (``rulebook``), an errata
        source (its entries and every dated one up to its date), or an ISO date (every source
        dated then or before; an undated source is after every date). A view sharing this
        ruleset's data, with its own fingerprint (so no cache mixes the two); ValueError for a
        ``cut`` that names no layer and is no date."""
        found = self._as_of.get(cut)
        if found is not None:
            return found
        keep = self._sources_at(cut)
        view = object.__new__(Ruleset)
        for name in self.__slots__:
            object.__setattr__(view, name, getattr(self, name))
        view.overlays = {
            oid: (
                o
                if o.kind != "errata"
                else o._replace(rule_ids=tuple(r for r in o.rule_ids if self.rules[r].source.doc in keep))
            )
            for oid, o in self.overlays.items()
        }
        view.fingerprint = f"{self.fingerprint}@{cut}"
        view.content = f"{self.content}@{cut}"
        view.as_of_cut = cut
        view._views = {}
        view._as_of = {}
        view._provenance = {}
        self._as_of[cut] = view
        return view

    def _sources_at(self, cut: str) -> set[str]:
        sources = self.errata_sources()
        if cut == LAYER_RULEBOOK:
            return set()
        names = [key for key, _ in sources]
        if cut in names:
            i = names.index(cut)
            date = sources[i][1].get("date")
            if not date:  # an undated source: itself and every dated one
                return {k for k, m in sources if m.get("date")} | {cut}
            return {k for k, m in sources if m.get("date") and str(m["date"]) <= str(date)} | {cut}
        if _is_iso_date(cut):
            return {k for k, m in sources if m.get("date") and str(m["date"]) <= cut}
        raise ValueError(cut)

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
