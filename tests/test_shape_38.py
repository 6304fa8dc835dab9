"""Answers a player reads at a glance (issue 38, item 3): the shape of an answer on a phone.

A report (score, winner, setup, legal, how many) is a question with an answer, never a "yes" or
"no"; the text answer leads with the verdict and its figures, then the few rules that decided,
each with what it looked at in a player's words, then the rest folded into one line.
"""

from __future__ import annotations

from typing import Any

import pytest

from havoc.assistant import api
from havoc.engine.interpreter.answer import render_text

LANGS = ("en", "pl")

ACTIONS: dict[str, Any] = {
    "players": ["humans", "pilgrims"],
    "round": 2,
    "phase": "actions",
    "turn": "pilgrims",
    "factions": {"humans": {"vp": 7, "prisoners": {"pilgrims": 1}}, "pilgrims": {"vp": 4}},
    "regions": {
        "example-a": {
            "units": {"pilgrims": 2},
            "control": "pilgrims",
            "structures": [{"type": "harvester", "owner": "pilgrims"}],
        },
        "example-b": {"units": {"humans": 3}, "control": "humans"},
    },
}

YES_NO = {"en": ("Yes", "No"), "pl": ("Tak", "Nie")}


def text(pos: dict[str, Any], query: dict[str, Any], lang: str) -> str:
    return render_text(api.ask(pos, query, lang))


# --- 1. reports have no yes or no ------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "query",
    [
        {"ask": "winner", "faction": "pilgrims"},
        {"ask": "winner"},
        {"ask": "score", "faction": "humans"},
        {"ask": "legal", "faction": "pilgrims"},
    ],
)
def test_a_report_is_not_answered_yes_or_no(query: dict[str, Any], lang: str) -> None:
    a = api.ask(ACTIONS, query, lang)
    head = render_text(a).splitlines()[0]
    assert not any(head.endswith(w) for w in YES_NO[lang]), head
    assert a.to_dict()["answer"] not in YES_NO[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_the_winner_mid_game_is_the_winner_if_the_game_ended_now(lang: str) -> None:
    now = {"en": "if the game ended now", "pl": "gdyby gra skończyła się teraz"}[lang]
    head = text(ACTIONS, {"ask": "winner", "faction": "pilgrims"}, lang).splitlines()[0]
    assert now in head
    end = ACTIONS | {"round": 5, "phase": "scoring"}
    assert now not in text(end, {"ask": "winner"}, lang).splitlines()[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_tie_break_line_names_only_what_decided(lang: str) -> None:
    pos = {
        "players": ["humans", "machines"],
        "round": 5,
        "phase": "scoring",
        "initiative": ["humans", "machines"],
        "factions": {
            "humans": {"vp": 31, "prisoners": {"machines": 1}},
            "machines": {"vp": 31, "prisoners": {"humans": 1}},
        },
    }
    a = api.ask(pos, {"ask": "winner"}, lang)
    assert a.figures["tie-broken-by"] == ["tiebreak-initiative"]
    prisoners = {"en": "prisoners", "pl": "jeńc"}[lang]
    line = next(x for x in render_text(a).splitlines() if x.strip().startswith(("Tie broken", "Remis")))
    assert prisoners not in line.lower(), line
