"""The question kinds added for players: how-many, place, end-of-move and setup.

Each is a mechanism over rule checks, like the kinds in :mod:`havoc.games.cry_havoc.queries`:
which rules apply and every number come from the checks and parameters in ``rules/``;
this module only knows in which order to read them and how to say the result in words.
"""

from __future__ import annotations

from typing import Any

from havoc import record
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.queries import Job, finish, units_word
from havoc.games.cry_havoc.ui import faction_owner, item_name, ui, value_text
from havoc.i18n import nui
from havoc.interpreter.answer import Answer
from havoc.interpreter.engine import RuleResult, merge_figures

Cited = list[tuple[RuleResult, Context, str | None]]


def _only(bound: frozenset[str]) -> Any:
    return lambda cr: cr.needs <= bound


def _ok(rs: list[RuleResult]) -> bool:
    return all(r.passed is not False for r in rs)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


# --- how-many ------------------------------------------------------------------------


def _may_leave(job: Job) -> tuple[int, Cited]:
    """Units that may move out of `from` now: every move rule about the start, with 0 moved."""
    pos, who = job.pos, job.q.faction
    assert who is not None and job.q.frm is not None
    region = pos.regions[job.q.frm]
    q = record.replace(job.q, kind="move", units=0, points=None, to=None, via=())
    ctx = Context(pos, q, who, frm=region)
    rs = job.eng.evaluate("move", ctx, only=_only(frozenset({"from"})))
    own = region.units.get(who, 0)
    figs = merge_figures(rs)
    n = min(own, _int(figs.get("may-leave", own))) if _ok(rs) else 0
    return n, [(r, ctx, None) for r in rs]


def _may_recruit(job: Job) -> tuple[int, Cited]:
    pos, who = job.pos, job.q.faction
    assert who is not None
    region = job.region(job.q.region) or pos.hq_of(who)
    points = job.q.points if job.q.points is not None else pos.reserve(who)
    q = record.replace(job.q, kind="recruit", units=0, points=points)
    ctx = Context(pos, q, who, region=region)
    rs = job.eng.evaluate("recruit", ctx)
    n = _int(merge_figures(rs).get("may-recruit", 0)) if _ok(rs) else 0
    return n, [(r, ctx, None) for r in rs]


def _must_discard(job: Job) -> tuple[int, Cited]:
    q = record.replace(job.q, kind="discard")
    ctx = job.ctx(q=q)
    rs = job.eng.evaluate("discard", ctx)
    return _int(merge_figures(rs).get("must-discard", 0)), [(r, ctx, None) for r in rs]


def _may_buy_back(job: Job) -> tuple[int, Cited]:
    """The most own Prisoners the rules let the faction buy back now (tried one more at a time)."""
    pos, who = job.pos, job.q.faction
    assert who is not None
    best = 0
    cited: Cited = []
    for n in range(1, pos.held_by_others(who) + 1):
        q = record.replace(job.q, kind="prisoners", units=n)
        ctx = Context(pos, q, who)
        rs = job.eng.evaluate("prisoners", ctx)
        cited = [(r, ctx, None) for r in rs]
        if not _ok(rs):
            break
        best = n
    if not cited:
        q = record.replace(job.q, kind="prisoners", units=0)
        ctx = Context(pos, q, who)
        cited = [(r, ctx, None) for r in job.eng.evaluate("prisoners", ctx)]
    return best, cited


HOW_MANY = {
    "may-leave": _may_leave,
    "may-recruit": _may_recruit,
    "must-discard": _must_discard,
    "may-buy-back": _may_buy_back,
}


def ask_how_many(job: Job) -> Answer:
    """A number, said in words: how many may leave, may be recruited, must go, may be bought back."""
    q, lang = job.q, job.lang
    assert q.of is not None
    n, cited = HOW_MANY[q.of](job)
    who = job.fname(q.faction)
    if q.of == "may-leave":
        question = ui("How many Units may the {faction} move out of {region}?", lang).format(
            faction=who, region=job.rname(q.frm)
        )
        line = ui("The {faction} may move {count} {units} out of {region}.", lang).format(
            faction=who, count=n, units=units_word(job, n), region=job.rname(q.frm)
        )
    elif q.of == "may-recruit":
        question = ui("How many Units may the {faction} recruit?", lang).format(faction=who)
        line = ui("The {faction} may recruit {count} {units}.", lang).format(
            faction=who, count=n, units=units_word(job, n)
        )
    elif q.of == "must-discard":
        question = ui("How many cards must the {faction} discard?", lang).format(faction=who)
        line = ui("The {faction} must discard {count} {cards}.", lang).format(
            faction=who, count=n, cards=nui("card", "cards", n, lang)
        )
    else:
        question = ui("How many of their Units held as Prisoners may the {faction} buy back?", lang).format(faction=who)
        line = ui("The {faction} may buy back {count} {units}.", lang).format(
            faction=who, count=n, units=units_word(job, n)
        )
    ans = finish(job, cited, question, {q.of: n})
    for d in ans.rules:
        # The count is the answer here, not something the question gave: drop the probe's own.
        if "query.units" in d.facts:
            d.facts = {k: v for k, v in d.facts.items() if k != "query.units"}
            d.said = [job.t.fact(k, v) for k, v in d.facts.items()]
    ans.figures = {q.of: n}
    ans.lines = [line]
    ans.details = {"of": q.of, "count": n}
    return ans


# --- place --------------------------------------------------------------------------


def ask_place(job: Job) -> Answer:
    q, lang = job.q, job.lang
    region = job.region(q.region)
    assert region is not None and q.item is not None
    item = item_name(q.item, lang)
    question = ui("May a {item} be put in {region}?", lang).format(item=item, region=job.rname(region.id))
    ctx = job.ctx(region=region)
    results = job.eng.evaluate("place", ctx)
    ans = finish(job, [(r, ctx, None) for r in results], question)
    if not results:
        ans.lines = [ui("No rule limits where it goes.", lang)]
    return ans


# --- end of a Move ------------------------------------------------------------------


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
    lost = _int(figs.get("units-lost", 0))
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


# --- setup --------------------------------------------------------------------------


def ask_setup(job: Job) -> Answer:
    """What each player sets up, for the position's player count and the players' experience."""
    lang = job.lang
    n = len(job.pos.players)
    exp = job.q.experience or "beginner"
    question = nui(
        "How is a game of {count} player set up for {experience}?",
        "How is a game of {count} players set up for {experience}?",
        n,
        lang,
    ).format(count=n, experience=value_text(exp, lang))
    ctx = Context(job.pos, job.q, job.q.faction or job.pos.players[0])
    rs = job.eng.evaluate("setup", ctx)
    ans = finish(job, [(r, ctx, None) for r in rs], question)
    ans.details = {"players": n, "experience": exp}
    return ans
