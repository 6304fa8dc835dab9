"""The question kind ``end-of-move``: what happens, step by step, when a move ends in this Region?"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core import record
from havoc.engine.interpreter.answer import Answer
from havoc.engine.interpreter.engine import merge_figures
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job, finish, whole
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.ui import faction_owner, nui, ui

if TYPE_CHECKING:
    from typing import Any


def ask_end_of_move(job: Job) -> Answer:
    """The four end steps of a Move, in order, for the Region where the moving Units stopped.

    The position is the table right after the Units moved (they stand in ``region``). Which
    step does something, and what, comes from the figures of the rules checked for
    ``end-of-move``; the Battle token number is the lowest one not on the board.
    """
    pos, q, lang = job.pos, job.q, job.lang
    region = job.region(q.region)
    who = q.faction
    assert region is not None and who is not None
    q0 = record.replace(q, units=0)
    ctx = Context(pos, q0, who, region=region, to=region)
    rs = job.eng.evaluate("end-of-move", ctx)
    figs = merge_figures(rs)
    question = ui("What happens at the end of the {owner} Move in {region}?", lang).format(
        owner=faction_owner(who, lang), region=job.rname(region.id)
    )
    lines: list[str] = []
    lines.append(
        "1. "
        + (
            ui("Exploration: reveal the Exploration token; its bonus goes to the {faction}.", lang).format(
                faction=job.fname(who)
            )
            if figs.get("reveals-exploration")
            else ui("Exploration: no token here.", lang)
        )
    )
    lost = whole(figs.get("units-lost", 0))
    if figs.get("trogs-from-hq"):
        step2 = ui(
            "Trog Nest: set it aside; as many Trog Units as it shows come from the Trog HQ to fight here, "
            "and a Trog Tunnel goes on the Region if it has none.",
            lang,
        )
    elif not figs.get("reveals-trog-token"):
        step2 = ui("Trog token: none here.", lang)
    elif figs.get("trogs-join-army"):
        step2 = ui("Trog token: reveal it; its Trog Units join the Trog player's army here.", lang)
    elif lost:
        step2 = nui(
            "Trog token: reveal it; no Trog Units are left to place, so there is no Battle and {count} Unit goes back to the Reserve.",
            "Trog token: reveal it; no Trog Units are left to place, so there is no Battle and {count} Units go back to the Reserve.",
            lost,
            lang,
        ).format(count=lost)
    else:
        step2 = ui("Trog token: reveal it; it places its Trog Units and Crystals here.", lang)
    lines.append("2. " + step2)
    lines.append(
        "3. "
        + (
            ui("Control: the {faction} are alone here and put their Control token on the Region.", lang).format(
                faction=job.fname(who)
            )
            if figs.get("gains-control")
            else ui("Control: nobody takes Control here.", lang)
        )
    )
    token = 0
    if figs.get("places-battle-token"):
        used = {r.battle.token for r in pos.regions.values() if r.battle is not None}
        limit = job.eng.int_param(C.P_BATTLE_TOKENS)
        token = next((n for n in range(1, limit + 1) if n not in used), 0)
        lines.append(
            "4. "
            + ui("Battle: put Battle token {token} on the Region; the {faction} attack.", lang).format(
                token=token, faction=job.fname(who)
            )
        )
    else:
        lines.append("4. " + ui("Battle: no Battle here.", lang))
    figures: dict[str, Any] = {
        "reveals-exploration": bool(figs.get("reveals-exploration")),
        "reveals-trog-token": bool(figs.get("reveals-trog-token")),
        "units-lost": lost,
        "gains-control": bool(figs.get("gains-control")),
        "places-battle-token": bool(figs.get("places-battle-token")),
        "battle-token": token,
    }
    if figs.get("trogs-from-hq"):
        figures["trogs-from-hq"] = True
    ans = finish(job, [(r, ctx, None) for r in rs], question, figures)
    ans.figures = figures
    ans.lines = lines
    return ans


KIND = QuestionKind(
    name="end-of-move",
    order=180,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("End of a Move"),
    help="What happens, step by step, when a move ends in this Region?",
    answers=ui("the four end steps of a Move"),
    needs=("region",),
    figures={
        "reveals-exploration": "move-end-exploration",
        "reveals-trog-token": "move-end-trog-tokens",
        "units-lost": ("trog-token-short-supply", "solo-war-party"),
        "gains-control": ("move-end-control", "trogs-reveal-tokens", "trog-token-short-supply"),
        "places-battle-token": ("move-end-battle-tokens", "solo-war-party"),
        "battle-token": HANDLER,
        "trogs-join-army": "trogs-reveal-tokens",
        "trogs-from-hq": "solo-war-party",
    },
    per_side=(),
    no_actor=False,
    handler=ask_end_of_move,
    bare=("region",),
    verdict="none",
)
