"""The question kind ``legal``: what may the faction do now, with the limits each action has?

The report itself and the helpers every probing kind shares are in
:mod:`havoc.games.cry_havoc.report` (not a kind's module): this kind runs every kind's probe,
so it is the one kind whose answer imports the other kinds' modules.
"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.engine.interpreter.engine import RuleResult, merge_figures
from havoc.games.cry_havoc.answering import Job, finish, passes
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.report import B0, Report, verdicts
from havoc.games.cry_havoc.ui import ui


def ask_legal(job: Job) -> Answer:
    """What the asking faction may do now: each action with its limits, from the rules.

    Each action kind is probed by its own method of :class:`Report`.
    """
    pos, who, eng = job.pos, job.q.faction, job.eng
    assert who is not None
    lang = job.lang
    question = ui("What may the {faction} do now?", lang).format(faction=job.fname(who))
    ctx = job.ctx()
    general = verdicts(eng, "legal", ctx, "fits", B0)
    cited: list[tuple[RuleResult, Context, str | None]] = [(r, ctx, None) for r in general]
    if not passes(general):
        return finish(job, cited, question)  # a no: the kind's declaration says it is no yes/no question
    legal = Report(job)
    legal.probe_all()
    actions = legal.actions
    allowed = [a for a in actions if a["allowed"]]
    lines = []
    refused: dict[tuple[str, ...], list[str]] = {}
    cites: dict[tuple[str, ...], list[str]] = {}  # a refused line's own rules, when its reason names none
    for a, (label, text, line) in zip(actions, legal.words, strict=True):
        rule = a.get("rule")
        if a["allowed"]:
            # each line cites its rule, by title (the JSON gives its ID: the Ask page links it)
            cited_rule = f" [{job.titles([rule])}]" if rule else ""
            lines.append("✓ " + (line or label + (f" — {text}" if text else "")) + cited_rule)
        else:
            key = tuple(a["refused-by"]) or (text,)
            refused.setdefault(key, []).append(label)
            if rule and not a["refused-by"]:
                cites.setdefault(key, []).append(rule)
    for why_key, labels in refused.items():
        reason = job.titles([w for w in why_key if w]) if any(why_key) and actions_refused_by_rules(why_key) else ""
        reason = reason or ", ".join(w for w in why_key if w)
        own = list(dict.fromkeys(cites.get(why_key, [])))
        cited_rule = f" [{job.titles(own)}]" if own else ""
        lines.append(f"✗ {', '.join(labels)}" + (f" — {reason}" if reason else "") + cited_rule)
    figures = merge_figures(general)
    spot = figures.get("upcoming-position")
    if isinstance(spot, int) and not isinstance(spot, bool) and pos.upcoming_initiative and spot >= 1:
        # An Initiative card puts the token on that spot; the tokens from there on shift back.
        order = [f for f in pos.upcoming_initiative if f != who]
        order.insert(min(spot, len(order) + 1) - 1, who)
        figures["upcoming-order"] = order
    figures["actions"] = [a["action"] for a in allowed]
    # each line's rule cited too (the JSON's rules: the Ask page links them), once, in line order
    seen = {r.rule.id for r, _, _ in cited}
    for a in actions:
        for rid in [a.get("rule"), *a["refused-by"]]:
            rule = eng.view.rules.get(rid) if isinstance(rid, str) else None  # (a reason in words is no rule)
            if rule is not None and rid not in seen:
                seen.add(rid)
                cited.append((RuleResult(rule, None, {}, {}), ctx, None))
    ans = finish(job, cited, question, figures, verdict=bool(allowed))
    ans.lines = lines
    ans.details = {
        "faction": who,
        "phase": pos.phase,
        "actions": actions,
    }
    return ans


def actions_refused_by_rules(why: tuple[str, ...]) -> bool:
    """A refused action's reason is rule IDs (named by title) rather than a sentence."""
    return all(" " not in w for w in why if w)


KIND = QuestionKind(
    name="legal",
    order=150,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("What may I do now?"),
    help="What may the faction do now, with the limits each action has?",
    answers=ui("what the faction may do now"),
    needs=(),
    figures={
        "actions": HANDLER,
        "upcoming-position": "initiative-card",
        "upcoming-order": HANDLER,
    },
    per_side=(),
    no_actor=False,
    handler=ask_legal,
    form_label=ui("What can I do now?"),
    verdict="checked",
)
