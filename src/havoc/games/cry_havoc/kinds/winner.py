"""The question kind ``winner``: who wins the game, and which tie-breaker decided it?"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem, RulebookError
from havoc.engine.interpreter.answer import Answer
from havoc.engine.interpreter.engine import RuleResult, merge_figures
from havoc.games.cry_havoc import contract as C
from havoc.games.cry_havoc.answering import Job, finish
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind
from havoc.games.cry_havoc.ui import figure_label, ui

if TYPE_CHECKING:
    from typing import Any


def ask_winner(job: Job) -> Answer:
    """The winner: most ``final-vp``, then each ``tiebreak-…`` figure in rule order.

    With an asking faction, the verdict says whether it wins and the figures are its own; the
    text is a report all the same (who wins, not "yes" or "no": a player asking "who wins?" wants
    the name). Before the game's end the question says it is asked "if the game ended now".
    """
    pos = job.pos
    asker = job.q.faction
    question = _question(job)
    rules = job.eng.rules_for("winner")
    base = [cr for cr in rules if not any(n.startswith(C.TIEBREAK_PREFIX) for n in cr.figures)]
    breakers = [(cr, n) for cr in rules for n in cr.figures if n.startswith(C.TIEBREAK_PREFIX)]
    if not any(C.F_FINAL_VP in cr.figures for cr in base):
        raise RulebookError(
            [
                Problem(
                    job.eng.rs.id,
                    None,
                    f"no rule checked for `winner` defines the figure {C.F_FINAL_VP!r}",
                    code=Code.FIGURE_MISSING,
                )
            ]
        )
    cited: list[tuple[RuleResult, Context, str | None]] = []
    eligible: dict[str, int] = {}
    excluded: dict[str, list[str]] = {}
    mine: dict[str, Any] = {}
    # The Trogs compete when a rule in force gives them a final score (a variant where they
    # are the opponent); neutral Trogs get none and are left out.
    candidates = list(dict.fromkeys([*pos.players, *([asker] if asker else []), C.TROGS]))
    for f in candidates:
        ctx = job.ctx(actor=f)
        rs = [r for cr in base if (r := job.eng.evaluate_rule(cr, ctx)) is not None]
        if f not in pos.players and f != asker and C.F_FINAL_VP not in merge_figures(rs):
            continue
        cited.extend((r, ctx, job.fname(f)) for r in rs)
        if f == asker:
            mine.update(merge_figures(rs))
        failed = [r.rule.id for r in rs if r.passed is False]
        if failed:
            excluded[f] = failed
            continue
        vp = merge_figures(rs).get(C.F_FINAL_VP)
        if not isinstance(vp, int) or isinstance(vp, bool):
            raise RulebookError(
                [
                    Problem(
                        job.eng.rs.id,
                        None,
                        f"figure {C.F_FINAL_VP!r} must be a whole number, found {vp!r}",
                        code=Code.FIGURE_INCONSISTENT,
                    )
                ]
            )
        eligible[f] = vp
    keys: dict[str, list[int]] = {f: [v] for f, v in eligible.items()}
    tied = [f for f, v in eligible.items() if v == max(eligible.values())] if eligible else []
    used_breakers: list[str] = []
    for cr, fig in breakers:
        if len(tied) < 2:
            break
        values: dict[str, int] = {}
        for f in tied:
            ctx = job.ctx(actor=f)
            r = job.eng.evaluate_rule(cr, ctx)
            v = r.figures.get(fig) if r is not None else None
            values[f] = v if isinstance(v, int) and not isinstance(v, bool) else 0
            keys[f].append(values[f])
            if r is not None:
                cited.append((r, ctx, job.fname(f)))
                if f == asker:
                    mine.update(r.figures)
        best = max(values.values())
        left = [f for f in tied if values[f] == best]
        if len(left) < len(tied):  # it split the tie: it decided (one that left everyone tied did not)
            used_breakers.append(fig)
        tied = left
    if asker in eligible and not used_breakers:
        # The asker's tie-break figures are still worth showing when they exist.
        for cr, _ in breakers:
            try:
                r = job.eng.evaluate_rule(cr, job.ctx(actor=asker))
            except InputError:
                continue
            if r is not None:
                mine.update(r.figures)
    winner = tied[0] if len(tied) == 1 else None
    order = sorted(eligible, key=lambda f: keys[f], reverse=True)
    figures: dict[str, Any] = {**mine, "winner": winner or "", "ranking": order}
    if used_breakers:
        figures["tie-broken-by"] = used_breakers
    verdict = (winner == asker) if asker is not None else winner is not None
    ans = finish(job, cited, question, figures, verdict=verdict)
    ans.figures = figures
    ans.yes_no = False  # "who wins?" is answered by a name (and the ranking), never by yes or no
    ans.hint = None
    ans.fixes = []
    ans.lines = _report(job, winner, order, eligible, excluded, used_breakers)
    ans.details = {"winner": winner, "ranking": order, "keys": keys, "excluded": excluded}
    return ans


def _report(
    job: Job,
    winner: str | None,
    order: list[str],
    eligible: dict[str, int],
    excluded: dict[str, list[str]],
    used_breakers: list[str],
) -> list[str]:
    """The answer's lines: the winner, the ranking, who cannot win, the tie-breakers that decided."""
    lines = [ui("Winner: {faction}", job.lang).format(faction=job.fname(winner) if winner else "—")]
    vp_word = ui("VP", job.lang)
    for i, f in enumerate(order, 1):
        lines.append(f"{i}. {job.fname(f)}: {eligible[f]} {vp_word}")
    for f, why in excluded.items():
        lines.append(ui("{faction} cannot win", job.lang).format(faction=job.fname(f)) + f" [{job.titles(why)}]")
    if used_breakers:
        lines.append(ui("Tie broken by", job.lang) + ": " + ", ".join(figure_label(b, job.lang) for b in used_breakers))
    return lines


def _question(job: Job) -> str:
    """The question restated: "who wins?" at the game's end, else "who would win if it ended now?"."""
    if _game_over(job.pos):
        return ui("Who wins the game?", job.lang)
    return ui("Who would win if the game ended now?", job.lang)


def _game_over(pos: Any) -> bool:
    """The game has ended: the Scoring phase of its final round (003: the game ends after it)."""
    return bool(pos.is_final_round and pos.phase == "scoring")


KIND = QuestionKind(
    name="winner",
    order=140,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Winner"),
    help="Who wins the game, and which tie-breaker decided it?",
    answers=ui("who wins"),
    needs=(),
    figures={
        "winner": HANDLER,
        "ranking": HANDLER,
        "tie-broken-by": HANDLER,
        "final-vp": ("end-winner", "solo-winner"),
        "tiebreak-prisoners": "end-tiebreak",
        "tiebreak-initiative": "end-tiebreak",
        "tiebreak-trogs": "solo-tie-is-a-loss",
    },
    per_side=(),
    no_actor=True,
    handler=ask_winner,
    offers=("faction",),
    verdict="yes-no",
)
