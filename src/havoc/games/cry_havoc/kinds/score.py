"""The question kind ``score``: what does each faction score this round?"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.engine.interpreter.answer import Answer
from havoc.engine.interpreter.engine import CompiledRule, RuleResult, merge_figures
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job, finish
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.ui import figure_label, nui, ui

if TYPE_CHECKING:
    from typing import Any


def _gates(cr: CompiledRule) -> bool:
    return not cr.figures


def _with_figures(cr: CompiledRule) -> bool:
    return bool(cr.figures)


def vp_sum(figures: dict[str, Any]) -> int:
    """VP gained: the sum of every whole-number figure named ``…-vp``."""
    return sum(
        v for k, v in figures.items() if k.endswith(C.VP_SUFFIX) and isinstance(v, int) and not isinstance(v, bool)
    )


def ask_score(job: Job) -> Answer:
    """Each player's VP from the scoring rules; the asking faction's figures come first."""
    pos = job.pos
    asker = job.q.faction
    question = ui("What does each faction score this round?", job.lang)
    if asker is not None:
        question = ui("What do the {faction} score this round?", job.lang).format(faction=job.fname(asker))
    players = list(pos.players) + ([asker] if asker and asker not in pos.players else [])
    ctx0 = job.ctx(actor=asker or players[0])
    gates = job.eng.evaluate("score", ctx0, only=_gates)
    cited: list[tuple[RuleResult, Context, str | None]] = [(r, ctx0, None) for r in gates]
    per: dict[str, dict[str, Any]] = {}
    gained: dict[str, int] = {}
    mine: list[tuple[RuleResult, Context, str | None]] = []
    others: list[tuple[RuleResult, Context, str | None]] = []
    for f in players:
        ctx = job.ctx(actor=f)
        rs = job.eng.evaluate("score", ctx, only=_with_figures)
        figs = merge_figures(rs)
        per[f] = figs
        gained[f] = vp_sum(figs)
        (mine if f == asker else others).extend((r, ctx, job.fname(f)) for r in rs)
    figures: dict[str, Any] = dict(per.get(asker, {})) if asker else {}
    if asker:
        figures["vp"] = gained[asker]
    figures["vp-gained"] = gained
    figures["total-vp"] = {f: pos.faction(f).vp + gained[f] for f in players}
    event_lines: list[str] = []
    if asker and pos.events:
        moved, event_lines = _events_passed(job, pos.faction(asker).vp, figures["total-vp"][asker])
        figures[C.F_EVENTS_MOVED] = moved
    ans = finish(job, cited + mine + others, question, figures)
    ans.figures = figures
    if (
        not any(v for v in gained.values())
        and not any(r.passed is False for r in gates)
        and not (pos.is_final_round or pos.scoring_enabled_by)
    ):
        ans.lines.append(ui("Scoring is not enabled this round: nobody scores.", job.lang))
    for f in players:
        parts = ", ".join(f"{figure_label(k, job.lang)} {v}" for k, v in per[f].items() if k.endswith(C.VP_SUFFIX))
        vp_word = ui("VP", job.lang)
        ans.lines.append(
            f"{job.fname(f)}: +{gained[f]} {vp_word}"
            + (f" ({parts})" if parts else "")
            + f" → {figures['total-vp'][f]}"
        )
    ans.lines.extend(event_lines)
    ans.details = {
        "factions": {f: {"gained": gained[f], "figures": per[f], "total": figures["total-vp"][f]} for f in players}
    }
    return ans


def _events_passed(job: Job, old: int, new: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The Event stacks a Score token moving from ``old`` to ``new`` VP passes, in the order it
    passes them; each moves on top of the next stack on the track (rule ``events-passed``).

    A spot the token stops on is not passed; the track goes round after its last spot, and one
    scoring never takes a token round it more than once.
    """
    track = job.eng.int_param(C.P_SCORE_TRACK)
    stacks = dict(job.pos.events)
    moved: list[dict[str, Any]] = []
    lines: list[str] = []
    for vp in range(old + 1, min(new, old + track + 1)):
        spot = vp % track
        count = stacks.get(spot, 0)
        if not count:
            continue
        after = [s for s in sorted(stacks) if s > spot]
        nxt = after[0] if after else None
        moved.append({"from": spot, "to": nxt, "tokens": count})
        if nxt is None:
            lines.append(
                nui(
                    "The Score token passes {count} Event token on spot {spot}; the rulebook does not say where the last stack goes.",
                    "The Score token passes {count} Event tokens on spot {spot}; the rulebook does not say where the last stack goes.",
                    count,
                    job.lang,
                ).format(count=count, spot=spot)
            )
            continue
        stacks[spot] = 0
        stacks[nxt] += count
        lines.append(
            nui(
                "The Score token passes {count} Event token on spot {spot}: it goes on top of the stack on spot {next}.",
                "The Score token passes {count} Event tokens on spot {spot}: they go on top of the stack on spot {next}.",
                count,
                job.lang,
            ).format(count=count, spot=spot, next=nxt)
        )
    return moved, lines


KIND = QuestionKind(
    name="score",
    order=130,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Score"),
    help="What does each faction score this round?",
    answers=ui("what each faction scores"),
    needs=(),
    figures={
        "vp": HANDLER,
        "vp-gained": HANDLER,
        "total-vp": HANDLER,
        "region-vp": "scoring-regions",
        "crystal-vp": ("scoring-crystals", "trogs-crystals-half", "solo-trogs-crystals"),
        "events-moved": HANDLER,
    },
    per_side=("vp-gained", "total-vp"),
    no_actor=True,
    handler=ask_score,
    form_label=ui("Scoring"),
    verdict="checked",
)
