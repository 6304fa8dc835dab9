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


# --- 2. the answer's shape ---------------------------------------------------------------------

SCREEN = (25, 60)  # lines, columns: a phone held upright
FOLDED = ("havoc ask … --explain",)


def _all_stored_answers() -> list[tuple[str, str, str]]:
    import stored_examples

    rs = api.load_ruleset()
    out = []
    for lang in LANGS:
        for item in stored_examples.asked(rs):
            out.append((item.ex.id, lang, render_text(api.answer_for(rs, item.pos, item.query, lang))))
    return out


def test_every_stored_answer_fits_a_phone_or_says_what_it_folded() -> None:
    lines, columns = SCREEN
    answers = _all_stored_answers()
    assert len(answers) > 100
    for ex_id, lang, shown in answers:
        rows = shown.splitlines()
        wide = [r for r in rows if len(r) > columns]
        assert not wide, f"{ex_id} ({lang}): wider than {columns} columns: {wide}"
        folded = any(mark in r for r in rows for mark in FOLDED)
        assert len(rows) <= lines or folded, f"{ex_id} ({lang}): {len(rows)} lines, nothing folded"
        assert len(rows) <= lines + 1 or not folded or rows[-1].startswith("+"), ex_id


@pytest.mark.parametrize(
    ("lang", "one", "more"),
    [("en", "Deciding rule:", "Deciding rules:"), ("pl", "Rozstrzyga:", "Rozstrzygają:")],
)
def test_the_heading_agrees_with_the_number_of_rules(lang: str, one: str, more: str) -> None:
    single = text(
        ACTIONS,
        {"ask": "build", "faction": "pilgrims", "region": "example-a", "structure": "power-orb", "points": 0},
        lang,
    )
    double = text(
        ACTIONS,
        {"ask": "build", "faction": "pilgrims", "region": "example-a", "structure": "harvester", "points": 0},
        lang,
    )
    for shown in (single, double):
        rows = shown.splitlines()
        heading = next(r for r in rows if r in (one, more))
        i = rows.index(heading) + 1
        rules = [r for r in rows[i:] if r.startswith("  ") and r[2] in "✗✓•"]
        assert heading == (one if len(rules) == 1 else more), shown


@pytest.mark.parametrize("lang", LANGS)
def test_the_battle_answer_does_not_lead_with_a_refused_retreat(lang: str) -> None:
    import yaml

    pos = yaml.safe_load(BATTLE)
    shown = render_text(
        api.ask(
            pos,
            {
                "ask": "battle",
                "region": "example-a",
                "objectives": {
                    "humans": {"control": 1, "prisoners": 0, "attrition": 2},
                    "pilgrims": {"control": 1, "prisoners": 1, "attrition": 1},
                },
            },
            lang,
        )
    )
    rows = shown.splitlines()
    first = next(r for r in rows if r.startswith("  ") and r[2:3] in ("✗", "✓", "•") and rows.index(r) > rows.index(""))
    assert not first.startswith("  ✗"), shown
    assert len(rows) <= SCREEN[0] and max(map(len, rows)) <= SCREEN[1]


BATTLE = """
players: [humans, pilgrims]
round: 2
phase: battle-resolution
turn: humans
factions:
  humans: {vp: 7}
  pilgrims: {vp: 4}
regions:
  example-a: {units: {humans: 3, pilgrims: 3}, control: pilgrims, battle: {token: 1, attacker: humans},
              adjacent: [feralas-banks]}
  example-b: {units: {pilgrims: 1}, control: pilgrims}
  feralas-banks: {units: {}}
"""
