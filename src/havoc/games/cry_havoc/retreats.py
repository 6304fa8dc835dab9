"""Where a side may retreat after a Battle: the retreat rules asked for each neighbour.

Shared by the ``retreat`` kind and the ``battle`` kind (whose outcome includes the retreat), so
neither kind's answer imports the other's module.
"""

from __future__ import annotations

from _operator import attrgetter  # operator's own, without operator.py (start-up time)

from havoc import TYPE_CHECKING
from havoc.core import record
from havoc.engine.interpreter.engine import CompiledRule, RuleResult, merge_figures
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.position import Region
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.report import probe_query
from havoc.games.cry_havoc.subsets import subset

if TYPE_CHECKING:
    from typing import Any


class Retreat:
    """Where a side may retreat to, and the rule results that said so."""

    __slots__ = ("destinations", "nest_on", "nests", "refused", "results")

    def __init__(
        self,
        destinations: list[str],
        results: list[tuple[RuleResult, Context, str | None]],
        refused: dict[str, list[str]],
        nests: bool = False,
        nest_on: list[str] | None = None,
    ) -> None:
        self.destinations = destinations
        self.results = results
        self.refused = refused  # neighbour -> the rules it failed
        self.nests = nests  # a rule replaces the retreat by a Trog Nest token (neutral Trogs)
        self.nest_on = nest_on or []  # where that token may go


def _needs_to(cr: CompiledRule) -> bool:
    return "to" in cr.needs


def _not_to(cr: CompiledRule) -> bool:
    return "to" not in cr.needs


# the question's fields but its mappings (the Units on a Battle's objectives, a card's Units)
_MAPPINGS = ("objectives", "card_units")
_values = attrgetter(*(f for f in Query.__record_fields__ if f not in _MAPPINGS))  # type: ignore[attr-defined]
_kept: dict[tuple[Any, ...], Query] = {}
_KEPT = 4096


def _retreat_query(job: Job, who: str) -> Query:
    """The question the retreat rules are asked: the asked one as a retreat by ``who``.

    A Battle's question names the Units on the objectives, which no retreat rule reads (no fact
    reads a question's mappings): the retreat after a Battle asks the question without them,
    kept by value, as :func:`probe_query` keeps a probe, not a fresh copy every Battle.
    """
    q = job.q
    if not (q.objectives or q.card_units):
        return probe_query(job, "retreat", faction=who)
    key = (_values(q), who)
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= _KEPT:
            _kept.clear()
        found = _kept[key] = record.replace(q, kind="retreat", faction=who, objectives={}, card_units={})
    return found


def retreat_options(job: Job, who: str, region: Region) -> Retreat:
    """Which neighbours of ``region`` the ``who`` Units may retreat to, by the retreat rules.

    First the rules that test a destination, once per neighbour; then the rules about the
    retreat as a whole (no Region qualifies: the Reserve), told how many neighbours qualified.
    """
    q = _retreat_query(job, who)
    to_rules = subset(job.eng, "retreat", "to", lambda: _needs_to)
    dest: list[str] = []
    nest_on: list[str] = []
    nests = False
    refused: dict[str, list[str]] = {}
    results: list[tuple[RuleResult, Context, str | None]] = []
    for rid in sorted(region.neighbours):
        ctx = Context(job.pos, q, who, region=region, frm=region, to=job.pos.regions[rid])
        rs = to_rules.evaluate(ctx)
        failed = [r.rule.id for r in rs if r.passed is False]
        if failed:
            refused[rid] = failed
        elif rs:
            dest.append(rid)
        for r in rs:
            results.append((r, ctx, rid))
        figs = merge_figures(rs)
        if C.F_PLACES_NEST in figs:
            nests = True
            if figs[C.F_PLACES_NEST]:
                nest_on.append(rid)
    ctx0 = Context(job.pos, q, who, region=region, frm=region, retreat_destinations=len(dest))
    results.extend((r, ctx0, None) for r in subset(job.eng, "retreat", "not to", lambda: _not_to).evaluate(ctx0))
    return Retreat(dest, results, refused, nests, nest_on)
