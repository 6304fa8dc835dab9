"""The question kind ``setup``: how does the game start for these players and their experience?"""

from __future__ import annotations

from havoc.engine.interpreter.answer import Answer
from havoc.games.cry_havoc.answering import Job, finish
from havoc.games.cry_havoc.facts import Context
from havoc.games.cry_havoc.kind import QuestionKind
from havoc.games.cry_havoc.ui import nui, ui, value_text


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


KIND = QuestionKind(
    name="setup",
    order=190,  # where it comes in lists of kinds (havoc ask --help, the positions page)
    label=ui("Setup"),
    help="How does the game start for these players and their experience?",
    answers=ui("what a game of this size sets up"),
    needs=(),
    figures={
        "two-player-board-side": "setup-board",
        "event-tokens": "setup-events",
        "terrain-decks": "setup-terrain-decks",
        "hq-units": "setup-hqs",
        "hq-control-tokens": "setup-hqs",
        "faction-area": "setup-faction-area",
        "skills": "setup-skills",
        "start-vp": "setup-score-initiative",
        "tokens-as-printed": "setup-map",
        "trog-player": "setup-4p-trogs",
        "trog-hq-units": "setup-4p-trog-hq",
        "tunnels": "setup-4p-tunnels",
    },
    # the labels of the figures only setup gives (the shared ones are in ui.py)
    figure_words={
        "event-tokens": ui("face-down Event tokens on the Score track"),
        "start-vp": ui("VP each player starts with"),
        "terrain-decks": ui("Terrain Tactics decks shuffled"),
        "faction-area": ui("each player lays out faction board, Structures, Tactics deck and Reserve"),
        "trog-player": ui("one player plays the Trogs"),
    },
    per_side=(),
    no_actor=True,
    handler=ask_setup,
    offers=("experience",),
    bare=("experience",),
    verdict="none",
)
