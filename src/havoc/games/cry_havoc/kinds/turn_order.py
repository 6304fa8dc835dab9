"""The question kind ``turn-order``: in what order do the players act in the Actions phase, whose
turn is it, and who acts next?

The order is the Initiative track's, first spot first, in every action round of the Round
(``actions-sequence``); an Initiative card moves a token on the Upcoming Initiative track only,
which becomes the Initiative track at the next Round's Events phase (``initiative-card``,
``initiative-update``). So "who acts first in action round 2 after the Humans played their
Initiative card in round 1?" is the first on the Initiative track, whatever the card did.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.engine.interpreter.engine import RuleResult
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Cited, Job, finish
from havoc.games.cry_havoc.facts import need
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.ui import ui

if TYPE_CHECKING:
    from typing import Any

    from havoc.engine.interpreter.answer import Answer

# The rules that say the order (cited with their texts: they are what the answer rests on).
_ORDER_RULES = ("actions-sequence", "initiative-card", "initiative-update")


def ask_turn_order(job: Job) -> Answer:
    pos, lang = job.pos, job.lang
    order = list(pos.initiative)
    if not order:
        raise need(job.ctx(), "initiative", ui("the order of the Initiative track", lang))
    question = ui("In what order do the players take their Actions?", lang)
    rules = job.eng.view.rules
    cited: Cited = [(RuleResult(rules[rid], None, {}, {}), job.ctx(), None) for rid in _ORDER_RULES if rid in rules]
    figures: dict[str, Any] = {"acting-order": order, "first-to-act": order[0]}
    now = pos.turn if pos.phase == "actions" and pos.turn in order else None
    if now is not None:
        figures["next-to-act"] = nxt = _next(order, now, pos.action_round, job.eng.int_param(C.P_ACTIONS_PER_ROUND))
    ans = finish(job, cited, question, figures)
    ans.figures = figures
    ans.lines.append(
        ui("In every action round of this Round: {order} (the Initiative track, first spot first)", lang).format(
            order=", ".join(f"{i}. {job.fname(f)}" for i, f in enumerate(order, 1))
        )
    )
    if now is not None:
        ans.lines.append(
            ui("Action round {round}: the {faction} take their Action now.", lang).format(
                round=pos.action_round, faction=job.fname(now)
            )
        )
        if nxt is None:
            ans.lines.append(ui("They are the last: the Actions phase ends after their Action.", lang))
        elif order.index(nxt) == 0:
            ans.lines.append(
                ui("Next: the {faction}, first in action round {round}.", lang).format(
                    faction=job.fname(nxt), round=pos.action_round + 1
                )
            )
        else:
            ans.lines.append(ui("Next: the {faction}.", lang).format(faction=job.fname(nxt)))
    upcoming = list(pos.upcoming_initiative)
    if upcoming and upcoming != order:
        ans.lines.append(
            ui(
                "The Upcoming Initiative track ({order}), changed by an Initiative card, takes effect only in the "
                "next Round's Events phase.",
                lang,
            ).format(order=", ".join(str(job.fname(f)) for f in upcoming))
        )
    return ans


def _next(order: list[str], now: str, action_round: int, rounds: int) -> str | None:
    """Who acts after ``now``: the next on the track, or the first in the next action round
    (None after the last player's last Action of the phase)."""
    i = order.index(now)
    if i + 1 < len(order):
        return order[i + 1]
    return order[0] if action_round < rounds else None


KIND = QuestionKind(
    name="turn-order",
    order=125,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Turn order"),
    help="In what order do the players act in the Actions phase, and who acts next?",
    answers=ui("the order of the Actions"),
    needs=(),
    figures={
        "acting-order": HANDLER,
        "first-to-act": HANDLER,
        "next-to-act": HANDLER,
    },
    figure_words={
        "acting-order": ui("order of the Actions"),
        "first-to-act": ui("first to act"),
        "next-to-act": ui("next to act"),
    },
    per_side=(),
    no_actor=True,
    handler=ask_turn_order,
    verdict="none",
)
