"""The legal-actions report and the probes' shared helpers: the questions a probe asks, the
subsets of rules it evaluates, and the :class:`Report` each probing kind adds its line to.

Not a question kind's module: every kind that probes (``kinds/<kind>.py``'s ``probe``) and the
``legal`` kind (which runs every probe) import it, so answering one kind never imports another
kind's module (``tests/test_kinds.py`` checks it for every kind).
"""

from __future__ import annotations

from _operator import attrgetter  # operator's own, without operator.py (start-up time)

from havoc import TYPE_CHECKING
from havoc.core import record
from havoc.engine.interpreter.engine import CompiledRule, Engine, RuleResult
from havoc.games.cry_havoc import kind as registry
from havoc.games.cry_havoc.answering import Job
from havoc.games.cry_havoc.facts import Context, left_out
from havoc.games.cry_havoc.position import Position
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.subsets import Subset, _subsets, subset
from havoc.games.cry_havoc.ui import kind_label, ui

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# the question's fields but its mappings (a question with any of those is not kept)
_MAPPINGS = ("objectives", "card_units")
_values = attrgetter(*(f for f in Query.__record_fields__ if f not in _MAPPINGS))  # type: ignore[attr-defined]
_probes: dict[tuple[Any, ...], Query] = {}  # probe questions already made, by question (its token) and changes
_tokens: dict[tuple[Any, ...], object] = {}  # a question's values -> the token that stands for them in _probes
_PROBES_KEPT = 4096
_last: tuple[Any, object] = (None, None)  # the question last probed, and its token


def probe_query(job: Job, kind: str, **changes: Any) -> Query:
    """The question a probe asks: the legal question's, as ``kind``, with ``changes``.

    Every report asks the same few of these, so they are kept by value (a frozen record); a
    question with objectives or card Units (mappings, not kept) is made afresh. A question's
    values (some thirty fields) are looked up once per question, as a token (an object of its
    own, never reused: a token of a cleared table can only miss) that keys its probes.
    """
    global _last, _probes, _tokens
    q = job.q
    if q.objectives or q.card_units:
        return record.replace(q, kind=kind, **changes)
    last = _last
    if last[0] is q:
        token = last[1]
    else:
        values = _values(q)
        token = _tokens.get(values)
        if token is None:
            if len(_tokens) >= _PROBES_KEPT:
                _tokens, _probes = {}, {}  # new tables (a thread with an old token misses, as it should)
            token = _tokens[values] = object()
        _last = (q, token)
    key = (token, kind, *changes.items())
    found = _probes.get(key)
    if found is None:
        if len(_probes) >= _PROBES_KEPT:
            _probes = {}
        # fresh mappings (empty, as the question's): the kept question shares nothing with it
        found = _probes[key] = record.replace(q, kind=kind, objectives={}, card_units={}, **changes)
    return found


def verdicts(eng: Engine, kind: str, ctx: Context, how: str, bound: frozenset[str]) -> list[RuleResult]:
    """``eng.evaluate(kind, ctx, only=picked(eng, kind, how, bound))``: the same results, by one
    generated function once the kind is asked often (:meth:`Subset.evaluate`)."""
    s = _subsets.get((eng, kind, (how, bound))) or _subset(eng, kind, how, bound)
    programs = s.programs
    if programs:  # made: what s.evaluate would call, without the call (a report asks this often)
        out = programs[0](ctx) if not ctx.cache else programs[1](ctx)
        return out if ctx.open is None else eng.settle(out, ctx)
    return s.evaluate(ctx)


def holds(eng: Engine, kind: str, ctx: Context, how: str, bound: frozenset[str]) -> bool:
    """Whether no rule of ``kind`` picked by ``how`` and ``bound`` (see :func:`picked`) says no in
    ``ctx``: the verdict of :meth:`Engine.evaluate` for a probe that needs nothing more, with
    nothing recorded (:meth:`Subset.holds`): a candidate Region, deck or Skill of the
    legal-actions list is a yes or a no."""
    s = _subsets.get((eng, kind, (how, bound))) or _subset(eng, kind, how, bound)
    programs = s.yes
    if programs:  # made: what s.holds would call, without the call (a report asks this often)
        return programs[0](ctx) if not ctx.cache else programs[1](ctx)
    return s.holds(ctx)


def judge(eng: Engine, kind: str, how: str, bound: frozenset[str]) -> Callable[[Context], bool]:
    """:func:`holds` for ``kind``, ``how`` and ``bound`` as one callable, for new contexts (an
    empty fact cache), worked out once for a probe's candidates (:meth:`Subset.judge`) once the
    kind is asked often; until then each call is a :func:`holds` (which counts the question)."""
    if kind in eng.by_kind:
        return (_subsets.get((eng, kind, (how, bound))) or _subset(eng, kind, how, bound)).judge()
    return lambda ctx: holds(eng, kind, ctx, how, bound)


def which(
    eng: Engine, kind: str, how: str, bound: frozenset[str], ctx: Context, field: str, candidates: list[tuple[Any, Any]]
) -> list[Any]:
    """The candidates (name, value) for which :func:`holds` says yes with ``ctx.<field>`` set to
    the value (a subject Region, a question): one context for them all, its fact cache emptied
    for each, as a new context's would be."""
    yes = judge(eng, kind, how, bound)
    out = []
    for name, value in candidates:
        setattr(ctx, field, value)
        ctx.cache = {}
        if yes(ctx):
            out.append(name)
    return out


def picked(eng: Engine, kind: str, how: str, bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
    """``only=`` for :meth:`Engine.evaluate`: the rules of ``kind`` whose needs are within ``bound``
    (``how`` = "fits": any; "detail": only those that need something; "enters": those that need
    "to"), as a set lookup worked out once per engine (:func:`~havoc.games.cry_havoc.subsets.subset`)."""
    return _subset(eng, kind, how, bound).only


def _subset(eng: Engine, kind: str, how: str, bound: frozenset[str]) -> Subset:
    """The rules of ``kind`` that ``how`` and ``bound`` pick (see :func:`picked`), once per engine."""
    return subset(eng, kind, (how, bound), lambda: _TESTS[how](bound))


def fits(bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
    return lambda cr: cr.needs <= bound


def _detail(bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
    return lambda cr: bool(cr.needs) and cr.needs <= bound


def _enters(bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
    return lambda cr: "to" in cr.needs and cr.needs <= bound


_TESTS: dict[str, Callable[[frozenset[str]], Callable[[CompiledRule], bool]]] = {
    "fits": fits,
    "detail": _detail,
    "enters": _enters,
}


def allowed(rs: list[RuleResult]) -> bool:
    """No rule among ``rs`` said no (:func:`~havoc.games.cry_havoc.answering.passes`, as a plain loop)."""
    for r in rs:  # noqa: SIM110 - a plain loop is faster than all() over a generator
        if r.passed is False:
            return False
    return True


def refused_by(rs: list[RuleResult]) -> list[str]:
    return [r.rule.id for r in rs if r.passed is False]


# What a probe's candidate supplies: a rule whose check reads more is left for the question itself.
B0: frozenset[str] = frozenset()
B_FROM = frozenset({"from"})
B_MOVE = frozenset({"from", "to"})
B_REGION = frozenset({"region"})
B_STRUCT = frozenset({"region", "structure"})
B_SKILL = frozenset({"skill"})
_FITS_B0 = ("fits", B0)  # a gate's key among the subsets (see _subset)


class Report:
    """The legal-actions report being built: each action kind is probed by a method of its own.

    Each probe works in two steps: first the rules that need nothing but the position (phase,
    turn, round); then, if those allow it, the rules about each candidate Region, Structure,
    Skill or deck, which give the limits.
    """

    def __init__(self, job: Job) -> None:
        assert job.q.faction is not None
        self.job, self.pos, self.who, self.eng, self.lang = job, job.pos, job.q.faction, job.eng, job.lang
        self.actions: list[dict[str, Any]] = []  # as the answer's details give them
        self.words: list[tuple[str, str, str]] = []  # each action's label, text and line, for people
        self.nothing = ui("nothing in the position to do it with", job.lang)
        self.label = ""  # the probing kind's label, in the asker's language
        self.kind = ""  # the probing kind's name: its lines cite its rule (action_rule)
        self.declared: tuple[str, ...] = ()  # the probing kind's figures: the only ones its line may give
        self.bare = Context(job.pos, job.q, self.who)  # the gates' context (no subject Region), reused

    def add(
        self,
        action: str,
        label: str,
        allowed: bool,
        limits: dict[str, Any],
        why: list[str],
        text: str,
        line: str = "",
    ) -> None:
        """One action of the report; ``line`` is its whole sentence where the label and the text
        make one ("Aktywacja Żniwiarki (Region A)"), else the line is "label — text"."""
        found = {"action": action, "allowed": allowed, "limits": limits, "refused-by": why}
        rule = action_rule(self.eng, self.kind) if self.kind else None
        if rule is not None:  # the rule the line cites (its title shown, its ID linked)
            found["rule"] = rule
        self.actions.append(found)
        self.words.append((label, text, line))

    def gate(self, kind: str, q: Query, label: str) -> bool:
        """Whether the rules that need nothing but the position allow the kind now; when they do
        not, its line names the rules that said no."""
        ctx = self.bare
        ctx.q = q
        ctx.open = left_out(q)
        ctx.cache = {}
        eng = self.eng
        s = _subsets.get((eng, kind, _FITS_B0)) or _subset(eng, kind, "fits", B0)
        programs = s.yes  # holds(), without its calls (every probe asks its gate)
        if programs[0](ctx) if programs else s.holds(ctx):
            return True
        ctx.cache = {}  # as a new context's
        rs = verdicts(self.eng, kind, ctx, "fits", B0)
        if not allowed(rs):
            self.add(kind, label, False, {}, refused_by(rs), "")
            return False
        return True

    def figures(self, rs: list[RuleResult]) -> dict[str, Any]:
        """The figures of ``rs`` the probing kind declares (``merge_figures``, a later rule
        overriding): a figure a rule computes for another kind never reaches this kind's line."""
        declared = self.declared
        out: dict[str, Any] = {}
        for r in rs:
            for name, value in r.figures.items():
                if name in declared:
                    out[name] = value
        return out

    def names(self, rids: list[str], empty: str) -> str:
        """Regions of the table by name, in a line ("Mgielnia, Region A"; ``empty`` for none)."""
        if not rids:
            return empty
        rname = self.job.rname
        return ", ".join([rname(r) for r in rids])

    def pick(self, kind: str, how: str, bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
        """``only=`` for this report's engine: see :func:`picked`."""
        return picked(self.eng, kind, how, bound)

    def parts(
        self,
    ) -> tuple[
        Position,
        str,
        Engine,
        str,
        str,
        Callable[[str, str, bool, dict[str, Any], list[str], str], None],
        Callable[[str, Query, str], bool],
        Callable[[str, str, frozenset[str]], Callable[[CompiledRule], bool]],
        Job,
    ]:
        """What a probe works with: position, faction, engine, language, the "nothing to do it
        with" words, and the report's add, gate and pick, and the job (one line per probe)."""
        return self.pos, self.who, self.eng, self.lang, self.nothing, self.add, self.gate, self.pick, self.job

    def probe_all(self) -> None:
        """Every kind that declares a probe, in the vocabulary's order of kinds; each adds its
        lines under its own label (the kind's declared words)."""
        for label, probe, declared, kind in _probing(self.lang):
            self.label = label
            self.declared = declared
            self.kind = kind
            probe(self)


if TYPE_CHECKING:  # each probing kind's label, probe and figures (no alias made at run time)
    _Probing = tuple[tuple[str, Callable[[Report], None], tuple[str, ...], str], ...]
_probes_of: tuple[Any, dict[str, _Probing]] = (None, {})


def _probing(lang: str) -> _Probing:
    """Every kind that declares a probe, in the vocabulary's order, as (its label in ``lang``, its
    probe, its figures): worked out once per language and set of loaded kinds (the registry loads each module
    once; a kind's label is its declared words). The manifest says which kinds probe, so ``legal``
    imports those kinds' modules only, not every kind's."""
    global _probes_of
    loaded, by_lang = _probes_of
    if loaded is not registry._loaded:
        by_lang = {}
        _probes_of = (registry._loaded, by_lang)
    found = by_lang.get(lang)
    if found is None:
        found = by_lang[lang] = tuple(
            (kind_label(kind.name, lang), kind.probe, kind.figures, kind.name)
            for kind in map(registry.get, [d.name for d in registry.declared() if d.probes])
            if kind is not None and kind.probe is not None
        )
    return found


def action_rule(eng: Any, kind: str) -> str | None:
    """The rule a report's line for ``kind`` cites: the first rule, in reading order, of those
    that give the kind's figures (its declaration says which: "Recruit points" for Recruit), else
    of those checked for the fewest kinds (the action's own rule rather than the turn order every
    action shares)."""
    key = (id(eng), kind)
    found = _action_rules.get(key, _MISSING)
    if found is _MISSING:
        declared = registry.get(kind)
        sources = {r for ids in (declared.sources.values() if declared else ()) for r in ids}
        best: tuple[bool, int, str] | None = None
        for cr in eng.rules_for(kind):
            check = cr.rule.check
            width = len(check.queries) if check is not None and check.queries else 99
            score = (cr.rule.id not in sources, width, cr.rule.id)
            if best is None or score[:2] < best[:2]:
                best = score
        found = _action_rules[key] = best[2] if best else None
    return found  # type: ignore[no-any-return]


_MISSING: Any = object()
_action_rules: dict[tuple[int, str], str | None] = {}
