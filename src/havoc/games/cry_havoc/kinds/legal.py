"""The question kind ``legal``: what may the faction do now, with the limits each action has?"""

from __future__ import annotations

from collections.abc import Callable

from havoc import record
from havoc.games.cry_havoc.answering import Job, finish, passes
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind, all_kinds
from havoc.games.cry_havoc.position import Position
from havoc.games.cry_havoc.query import Query
from havoc.games.cry_havoc.ui import kind_label, ui
from havoc.interpreter.answer import Answer
from havoc.interpreter.engine import CompiledRule, Engine, RuleResult, merge_figures

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)
if TYPE_CHECKING:
    from typing import Any


def probe_query(job: Job, kind: str, **changes: Any) -> Query:
    return record.replace(job.q, kind=kind, **changes)


def fits(bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
    return lambda cr: cr.needs <= bound


def refused_by(rs: list[RuleResult]) -> list[str]:
    return [r.rule.id for r in rs if r.passed is False]


# What a probe's candidate supplies: a rule whose check reads more is left for the question itself.
B0: frozenset[str] = frozenset()
B_FROM = frozenset({"from"})
B_MOVE = frozenset({"from", "to"})
B_REGION = frozenset({"region"})
B_STRUCT = frozenset({"region", "structure"})
B_SKILL = frozenset({"skill"})


class Report:
    """The legal-actions report being built: each action kind is probed by a method of its own.

    Each probe works in two steps: first the rules that need nothing but the position (phase,
    turn, round); then, if those allow it, the rules about each candidate Region, Structure,
    Skill or deck, which give the limits.
    """

    def __init__(self, job: Job) -> None:
        assert job.q.faction is not None
        self.job, self.pos, self.who, self.eng, self.lang = job, job.pos, job.q.faction, job.eng, job.lang
        self.actions: list[dict[str, Any]] = []
        self.nothing = ui("nothing in the position to do it with", job.lang)
        self.label = ""  # the probing kind's label, in the asker's language

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
        self.actions.append(
            {
                "action": action,
                "allowed": allowed,
                "limits": limits,
                "refused-by": why,
                "label": label,
                "text": text,
                "line": line,
            }
        )

    def gate(self, kind: str, q: Query, label: str) -> bool:
        rs = self.eng.evaluate(kind, Context(self.pos, q, self.who), only=fits(B0))
        if not passes(rs):
            self.add(kind, label, False, {}, refused_by(rs), "")
            return False
        return True

    @staticmethod
    def detail(bound: frozenset[str]) -> Callable[[CompiledRule], bool]:
        return lambda cr: bool(cr.needs) and cr.needs <= bound

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
        Callable[[frozenset[str]], Callable[[CompiledRule], bool]],
        Job,
    ]:
        """What a probe works with: position, faction, engine, language, the "nothing to do it
        with" words, and the report's add, gate and detail, and the job (one line per probe)."""
        return self.pos, self.who, self.eng, self.lang, self.nothing, self.add, self.gate, self.detail, self.job

    def probe_all(self) -> None:
        """Every kind that declares a probe, in the vocabulary's order of kinds; each adds its
        lines under its own label (the kind's declared words)."""
        for kind in all_kinds():
            if kind.probe is not None:
                self.label = kind_label(kind.name, self.lang)
                kind.probe(self)


def ask_legal(job: Job) -> Answer:
    """What the asking faction may do now: each action with its limits, from the rules.

    Each action kind is probed by its own method of :class:`Report`.
    """
    pos, who, eng = job.pos, job.q.faction, job.eng
    assert who is not None
    lang = job.lang
    question = ui("What may the {faction} do now?", lang).format(faction=job.fname(who))
    ctx = job.ctx()
    general = eng.evaluate("legal", ctx, only=fits(B0))
    cited: list[tuple[RuleResult, Context, str | None]] = [(r, ctx, None) for r in general]
    if not passes(general):
        return finish(job, cited, question)  # a no: the kind's declaration says it is no yes/no question
    legal = Report(job)
    legal.probe_all()
    actions = legal.actions
    allowed = [a for a in actions if a["allowed"]]
    lines = ["✓ " + (a["line"] or a["label"] + (f" — {a['text']}" if a["text"] else "")) for a in allowed]
    refused: dict[tuple[str, ...], list[str]] = {}
    for a in actions:
        if not a["allowed"]:
            key = tuple(a["refused-by"]) or (a["text"],)
            refused.setdefault(key, []).append(a["label"])
    for why_key, labels in refused.items():
        reason = job.titles([w for w in why_key if w]) if any(why_key) and actions_refused_by_rules(why_key) else ""
        reason = reason or ", ".join(w for w in why_key if w)
        lines.append(f"✗ {', '.join(labels)}" + (f" — {reason}" if reason else ""))
    figures = merge_figures(general)
    spot = figures.get("upcoming-position")
    if isinstance(spot, int) and not isinstance(spot, bool) and pos.upcoming_initiative and spot >= 1:
        # An Initiative card puts the token on that spot; the tokens from there on shift back.
        order = [f for f in pos.upcoming_initiative if f != who]
        order.insert(min(spot, len(order) + 1) - 1, who)
        figures["upcoming-order"] = order
    figures["actions"] = [a["action"] for a in allowed]
    ans = finish(job, cited, question, figures, verdict=bool(allowed))
    ans.lines = lines
    ans.details = {
        "faction": who,
        "phase": pos.phase,
        "actions": [{k: v for k, v in a.items() if k not in {"label", "text", "line"}} for a in actions],
    }
    return ans


def actions_refused_by_rules(why: tuple[str, ...]) -> bool:
    """A refused action's reason is rule IDs (named by title) rather than a sentence."""
    return all(" " not in w for w in why if w)


KIND = QuestionKind(
    name="legal",
    label=ui("What may I do now?"),
    help="What may the faction do now, with the limits each action has?",
    answers=ui("what the faction may do now"),
    needs=(),
    figures=("actions", "upcoming-position", "upcoming-order"),
    per_side=(),
    no_actor=False,
    handler=ask_legal,
    form_label=ui("What can I do now?"),
    verdict="checked",
)
