"""Answering a question: the job a kind's handler works on, and the code every handler shares.

A question kind's module (``kinds/<kind>.py``) answers its questions; this module holds what
they all use: the :class:`Job` (engine, position, question, language), :func:`answer` (which
hands the job to the kind's handler), :func:`finish` (the answer from the rule results a
handler gathered: the rules that said no, their figures, the fixes and exceptions), the
generic answer (every rule checked for the kind) and the words of the question's numbers a fix
names ("Units: at most 3"; the interpreter explains the failed condition,
:mod:`havoc.engine.interpreter.explain`). Numbers and conditions always come from the checks and
parameters in ``rules/``; the kinds only know in which order to read them and how to say the result.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, HavocError, Problem, RulebookError
from havoc.engine.interpreter.answer import Answer, Cites, Decision, Texts, decision, late_answer, texts
from havoc.engine.interpreter.engine import Engine, RuleResult, engine
from havoc.engine.interpreter.explain import Bound, bounds
from havoc.engine.rulebook.model import Ruleset
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import broken as broken_kind
from havoc.games.cry_havoc.kind import get as get_kind
from havoc.games.cry_havoc.position import Position, Region
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.ui import _region_names, faction_name, nui, ui
from havoc.language.grammar import Noun

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# The rule results a handler cites: each with the context it was evaluated in and a note.
Cited = list[tuple[RuleResult, Context, str | None]]


class Job:
    """One question being answered: the engine, the position, the question and the language."""

    __slots__ = ("_names", "eng", "lang", "pos", "q", "t")

    def __init__(self, eng: Engine, pos: Position, q: Query, lang: str, t: Texts) -> None:
        self.eng = eng
        self.pos = pos
        self.q = q
        self.lang = lang
        self.t = t
        self._names: dict[str, Noun] | None = None

    @property
    def actor(self) -> str | None:
        return self.q.faction

    def ctx(self, actor: str | None = None, q: Query | None = None, **kw: Any) -> Context:
        return Context(self.pos, q or self.q, actor if actor is not None else self.q.faction, **kw)

    def region(self, rid: str | None) -> Region | None:
        return self.pos.regions.get(rid) if rid else None

    def decide(self, result: RuleResult, note: str | None = None, ctx: Context | None = None) -> Decision:
        """One rule cited; with ``ctx``, what it looked at is also said in a player's words."""
        d = decision(self.t, self.eng.view.amendments, result, note)
        if ctx is not None:
            d.who = Who(self, ctx)
        return d

    def fname(self, faction: str | None) -> Noun:
        return faction_name(faction, self.lang) if faction else Noun.plain("?")

    def rname(self, rid: str | None) -> Noun:
        """A Region of the table by its name in the asker's language ("Mgielnia", "Region A")."""
        if self._names is None:
            # the table's names as named once per table and language (read only here: no copy),
            # kept with the language's texts by the table's own Regions (every question about a
            # table names its Regions; making the key of the names by ID costs more than naming)
            regions, kept = self.pos.regions, self.t.kept
            found = kept.get(id(regions))
            if found is None or found[0] is not regions:
                if len(kept) >= _TABLES_KEPT:
                    kept.clear()
                found = kept[id(regions)] = (regions, _region_names(tuple(regions), self.lang))
            self._names = found[1]
        if rid is None:
            return Noun.plain("?")
        return self._names.get(rid) or Noun.plain(rid)

    def rnames(self, rids: list[str], empty: str = "—") -> Noun:
        """Several Regions as one declinable list ("z Mgielnią, Wybrzeżem Feralas")."""
        return Noun.join([self.rname(r) for r in rids]) if rids else Noun.plain(empty)

    def titles(self, rule_ids: list[str]) -> str:
        """Rules named for people: their titles in the asker's language, not their IDs."""
        out = []
        for rid in rule_ids:
            rule = self.eng.view.rules.get(rid) or self.eng.rs.rules.get(rid)
            out.append(self.t.rule(rule)[0] if rule is not None else rid)
        return "; ".join(out)


_TABLES_KEPT = 256  # tables whose Region names a language's texts keep


def answer(rs: Ruleset, pos: Position, q: Query, lang: str = "en") -> Answer:
    """Answer one question about one position: its kind's handler does (``kinds/<kind>.py``)."""
    played = _played or _game()
    kind = get_kind(q.kind)
    if kind is None:  # its module is missing or does not load: say where, as `havoc check` does
        raise RulebookError(
            [
                broken_kind(q.kind)
                or Problem(
                    "question-kinds", None, f"no handler for the question kind {q.kind!r}", code=Code.KIND_UNHANDLED
                )
            ]
        )
    labels = played.LABELS
    found: Answer = kind.handle(Job(engine(rs, pos.variant, played), pos, q, lang, texts(rs, lang, labels)))
    found.labels = labels
    return found


def _game() -> Any:
    """This game's package (imported once, not on every question: the package imports this module)."""
    global _played
    if _played is None:
        from havoc.games import cry_havoc

        _played = cry_havoc
    return _played


_played: Any = None


# --- generic kinds ------------------------------------------------------------------


def finish(
    job: Job,
    results: Cited,
    question: str | Callable[[], str],
    figures: dict[str, Any] | None = None,
    verdict: bool | None = None,
) -> Answer:
    """The answer from the rule results a kind's handler gathered: the rules that said no (or
    all of them), their figures, the fixes and exceptions; the verdict is "no rule said no"
    unless given; ``question`` is the question restated, or the function saying it when the
    answer is read. Every kind's handler ends here (the kind's declaration then settles yes_no)."""
    return _finish(job, [r for r, _, _ in results], lambda: results, None, question, figures, verdict)


def finish_in(job: Job, ctx: Context, results: list[RuleResult], question: str | Callable[[], str]) -> Answer:
    """:func:`finish` for rules evaluated in one context and cited without a note (most questions)."""
    return _finish(job, results, None, ctx, question, None, None)


def _finish(
    job: Job,
    evaluated: list[RuleResult],
    cited: Callable[[], Cited] | None,
    ctx: Context | None,
    question: str | Callable[[], str],
    figures: dict[str, Any] | None,
    verdict: bool | None,
) -> Answer:
    """The verdict and figures of ``evaluated`` now; what ``cited()`` cites when the answer is read
    (``cited`` None: ``evaluated`` itself, each rule evaluated in ``ctx`` and cited without a note)."""
    said_no = [r for r in evaluated if r.passed is False]
    # a fact the table does not give that a rule's verdict hangs on (Engine.settle): points left
    # out are "not checked" (the rule is skipped and says so); anything else makes the answer
    # "cannot tell" rather than a guess, unless another rule says no whatever it is
    needs = [] if said_no else [f for r in evaluated for f in r.open if f not in _SKIPPED_WHEN_LEFT_OUT]
    if verdict is None:
        verdict = None if needs else not said_no
    figs: dict[str, Any] = {}  # merge_figures: a later rule (an exception, an overlay) overrides
    for r in evaluated:
        if r.figures:
            figs.update(r.figures)
    if figures:
        figs.update(figures)
    unless = _exceptions(said_no) if verdict is False else []

    def citations() -> tuple[Cites, str | None, list[str], str]:
        """The rules that said no (or all of them), the hint, the fixes and the exceptions, in
        words: worked out when the answer is shown or serialised (:class:`LateAnswer`)."""
        eng = job.eng
        cites = Cites(job.t, eng.view.amendments)
        add = cites.add
        hint = None
        found: list[Bound] = []
        if cited is None:  # one context, no notes (finish_in): the rules as evaluated
            assert ctx is not None
            who = Who(job, ctx)
            if said_no:
                for r in said_no:  # cited before their fixes are read (see Cites.add)
                    add(r, who=who)
                hint = cites.hint()  # only a rule that said no gives its hint
                for r in said_no:
                    found.extend(_bounds(job, r, ctx))
            else:
                for r in evaluated:
                    add(r, who=who)
        else:
            results = cited()
            failed = [x for x in results if x[0].passed is False]
            if failed:
                for r, c, n in failed:
                    add(r, n, who=Who(job, c))
                hint = cites.hint()
                for r, c, _ in failed:
                    found.extend(_bounds(job, r, c))
            else:
                for r, c, n in results:
                    add(r, n, who=Who(job, c))
        for rid in unless:
            rule = eng.view.rules.get(rid) or eng.rs.rules.get(rid)
            if rule is not None:
                # its text is what the player checks the card against: cited as specific
                add(RuleResult(rule, None, {}, {}), ui("the exception", job.lang), True)
        return cites, hint, _proven(job, found), cites.overlay(eng.rs)

    found = late_answer(job.q.kind, question, verdict, figs, job.lang, unless, citations)
    if needs:
        found.needs = [_needed(f, job.lang) for f in dict.fromkeys(needs)]
    return found


# The facts a question may leave out and still be answered (the rule they decide is skipped):
# the README and `ask --help` promise "points left out are not checked".
_SKIPPED_WHEN_LEFT_OUT = frozenset({"query.points"})


def _needed(fact: str, lang: str) -> str:
    """What the table must say for a rule the position cannot decide, in the asker's words
    (with the field to fill in)."""
    if fact == "region.actor-to-play-tactics":
        return ui(
            "whose turn it is in the Battle's Tactics exchange (the Battle's field: to play in the Tactics exchange)",
            lang,
        )
    return fact


class Who:
    """Who and where a rule was checked for, named for a player when the answer is shown: the
    asking faction and the subject Regions of the context (a fact's player words fill them in,
    "PZ {faction:gen}" → "PZ Ludzi"). Named once, on first use; never for an answer only
    serialised."""

    __slots__ = ("ctx", "job", "names")

    def __init__(self, job: Job, ctx: Context) -> None:
        self.job, self.ctx = job, ctx
        self.names: dict[str, Any] | None = None

    def __call__(self) -> dict[str, Any]:
        names = self.names
        if names is None:
            job, ctx = self.job, self.ctx
            names = self.names = {
                "faction": job.fname(ctx.actor) if ctx.actor else None,
                "region": job.rname(ctx.region.id) if ctx.region is not None else None,
                "from": job.rname(ctx.frm.id) if ctx.frm is not None else None,
                "to": job.rname(ctx.to.id) if ctx.to is not None else None,
            }
        return names


def _exceptions(failed: list[RuleResult]) -> list[str]:
    """The exception rules of a "no", when every rule that said no names one (else none)."""
    out: list[str] = []
    for r in failed:
        check = r.rule.check
        if check is None or not check.unless:
            return []
        out.extend(check.unless)
    return list(dict.fromkeys(out))


def generic(job: Job, ctx: Context, question: str) -> Answer:
    """The answer of a generic kind: every rule checked for the kind, yes when none says no."""
    return finish_in(job, ctx, job.eng.evaluate(job.q.kind, ctx), question)


def passes(rs: list[RuleResult]) -> bool:
    """No rule among ``rs`` said no."""
    return all(r.passed is not False for r in rs)


def whole(value: Any) -> int:
    """A figure as a whole number (0 when it is none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def units_word(job: Job, n: int) -> str:
    """ "Unit" counted for ``n`` in the asker's language."""
    return job.t.term("unit", n)


# --- fixes: what would make a "no" legal ----------------------------------------------------


def _bounds(job: Job, result: RuleResult, ctx: Context) -> list[Bound]:
    """For a failed requirement that bounds a number the question gives, the bound (the
    interpreter walks the condition; this game says which facts are the question's numbers)."""
    check = result.rule.check
    if check is None or check.requires is None:
        return []
    ctx.figs = dict(result.figures)
    return bounds(check.requires, lambda part: job.eng.sub(part)(ctx), _question_number, job.lang)


class Fix(str):
    """A change that makes a "no" a yes, in words ("with at most 2 Units"); ``changes`` is the
    same change as the question's fields (``{"units": 2}``), which asking again has proven."""

    changes: dict[str, int]


# The question's fields the bounds of a fix set (a fact the question gives -> its field).
_FIELDS = {
    "query.units": "units",
    "query.points": "points",
    "query.cost": "cost",
    "query.activations-this-action": "activations",
    "query.position": "position",
}


def _proven(job: Job, found: list[Bound]) -> list[str]:
    """The fixes of a "no" that are real: each bound the failed conditions propose, alone, or (when
    none alone does) all of them together, kept only when asking again with that change gives a
    yes. A bound one rule proposes while another rule says no whatever the number is no fix
    (a Build in a Battle Region with more points is still refused)."""
    found = list(dict.fromkeys(found))
    if not found:
        return []
    out: list[str] = []
    for b in found:
        if _legal_with(job, [b]):
            out.append(_fix(job, [b]))
    if not out and len(found) > 1 and len({fact for fact, _, _ in found}) == len(found) and _legal_with(job, found):
        out.append(_fix(job, found))
    return out


def _legal_with(job: Job, changed: list[Bound]) -> bool:
    """Whether the question, with each bound's field set to its value, is answered yes."""
    from havoc.core import record

    changes = {_FIELDS[fact]: value for fact, _, value in changed if fact in _FIELDS}
    if len(changes) != len(changed):
        return False
    q = record.replace(job.q, **changes)
    try:
        again = answer(job.eng.rs, job.pos, q, job.lang)
    except (HavocError, ValueError, TypeError, KeyError):  # a change the question cannot take
        return False
    return again.verdict is True


def _fix(job: Job, changed: list[Bound]) -> str:
    """A proven fix in words, carrying its change (:class:`Fix`)."""
    joint = " " + ui("and", job.lang) + " "
    said = Fix(joint.join(_fix_words(fact, how, value, job.lang) for fact, how, value in changed))
    said.changes = {_FIELDS[fact]: value for fact, _, value in changed}
    return said


def _fix_words(fact: str, how: str, n: int, lang: str) -> str:
    """One bound as the rest of "It would be allowed …", with the noun in the case and number
    the sentence needs (Polish "przy najwyżej 2 Oddziałach")."""
    if fact == "query.units":
        if how == "le":
            return nui("with at most {count} Unit", "with at most {count} Units", n, lang).format(count=n)
        if how == "ge":
            return nui("with at least {count} Unit", "with at least {count} Units", n, lang).format(count=n)
        return nui("with exactly {count} Unit", "with exactly {count} Units", n, lang).format(count=n)
    if fact == "query.points":
        if how == "ge":
            return nui("with at least {count} point", "with at least {count} points", n, lang).format(count=n)
        return nui("with at most {count} point", "with at most {count} points", n, lang).format(count=n)
    if fact == "query.cost":
        return nui(
            "with the Structures costing at most {count} Build point",
            "with the Structures costing at most {count} Build points",
            n,
            lang,
        ).format(count=n)
    if fact == "query.activations-this-action":
        return nui(
            "with at most {count} activation in this action", "with at most {count} activations in this action", n, lang
        ).format(count=n)
    if how == "le":
        return ui("with an Initiative spot of at most {count}", lang).format(count=n)
    if how == "ge":
        return ui("with an Initiative spot of at least {count}", lang).format(count=n)
    return ui("with Initiative spot {count}", lang).format(count=n)


def _question_number(fact: str, lang: str) -> str | None:
    """A number the question gives (a fix may bound it: "Units: at most 3"), as a word in the
    asker's language; None for every other fact."""
    if fact == "query.units":
        return ui("Units", lang)
    if fact == "query.points":
        return ui("points", lang)
    if fact == "query.cost":
        return ui("Build points for the Structures", lang)
    if fact == "query.activations-this-action":
        return ui("activations in this action", lang)
    if fact == "query.position":
        return ui("Initiative spot", lang)
    return None


__all__ = [
    "Answer",
    "Cited",
    "Decision",
    "Job",
    "Who",
    "answer",
    "finish",
    "finish_in",
    "generic",
    "passes",
    "units_word",
    "whole",
]
