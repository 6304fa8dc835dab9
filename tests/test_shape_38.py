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


# --- 3. what a rule looked at, in a player's words -------------------------------------------


def _looked_at(shown: str) -> str:
    """The "looked at" lines of a text answer, each read across the lines it wraps in."""
    flat = " ".join(shown.split())
    return flat


@pytest.mark.parametrize(
    ("lang", "said", "machine"),
    [
        ("en", ["Humans' VP: 7", "Pilgrims' VP: 4"], ["The asking faction", "asking faction is the Trogs"]),
        ("pl", ["PZ Ludzi: 7", "PZ Pielgrzymów: 4"], ["pytającej Frakcji", "Pytającą Frakcją są Trogi"]),
    ],
)
def test_the_winner_looked_at_each_factions_vp(lang: str, said: list[str], machine: list[str]) -> None:
    shown = _looked_at(text(ACTIONS, {"ask": "winner"}, lang))
    for words in said:
        assert words in shown, shown
    for words in machine:
        assert words not in shown, shown
    # the full trace keeps the fact's full description
    explained = render_text(api.ask(ACTIONS, {"ask": "winner"}, lang), explain=True)
    assert ("actor.vp = 7" if lang == "en" else "Punkty Zwycięstwa pytającej Frakcji: 7") in explained


SIDES = {"en": ("Humans", "Pilgrims"), "pl": ("Ludzi", "Pielgrzymów")}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "{side}' Units on Region Control: 1"),
        ("pl", "Oddziały {side} na Kontroli nad Regionem: 1"),
    ],
)
def test_the_battle_names_the_side_on_each_objective(lang: str, said: str) -> None:
    import yaml

    q = {
        "ask": "battle",
        "region": "example-a",
        "objectives": {
            "humans": {"control": 1, "prisoners": 0, "attrition": 2},
            "pilgrims": {"control": 1, "prisoners": 1, "attrition": 1},
        },
    }
    shown = _looked_at(render_text(api.ask(yaml.safe_load(BATTLE), q, lang)))
    assert any(said.format(side=side) in shown for side in SIDES[lang]), shown
    assert "asking faction" not in shown and "pytającej Frakcji" not in shown


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Humans' Units in Region A: 8"), ("pl", "Oddziały Ludzi w Regionie A: 8")],
)
def test_a_move_names_the_faction_and_the_region(lang: str, said: str) -> None:
    pos = {
        "players": ["humans", "pilgrims"],
        "phase": "actions",
        "turn": "humans",
        "regions": {
            "example-a": {
                "units": {"humans": 8, "pilgrims": 3},
                "control": "humans",
                "battle": {"token": 1, "attacker": "pilgrims"},
                "adjacent": ["example-b"],
            },
            "example-b": {"control": "humans", "adjacent": ["example-a"]},
        },
    }
    q = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 3}
    shown = _looked_at(text(pos, q, lang))
    assert said in shown, shown
    assert "(the Region the Units leave)" not in shown and "(Region, z którego wychodzą Oddziały)" not in shown


# --- 4. specific answers -------------------------------------------------------------------------

VIA: dict[str, Any] = {
    "players": ["humans", "pilgrims"],
    "phase": "actions",
    "turn": "pilgrims",
    "regions": {
        "example-a": {"units": {"humans": 3}, "control": "humans", "adjacent": ["example-b"]},
        "example-b": {"control": "humans", "adjacent": ["example-a", "example-c"]},
        "example-c": {"adjacent": ["example-b"]},
    },
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_move_through_regions_is_refused_under_its_whole_path(lang: str) -> None:
    q = {"ask": "move", "faction": "humans", "from": "example-a", "via": ["example-b"], "to": "example-c", "units": 2}
    a = api.ask(VIA, q, lang)
    assert a.verdict is False
    refused = [d for d in a.rules if d.passed is False]
    assert refused and all(d.note and d.note.count("→") == 2 for d in refused), [d.note for d in refused]
    assert any(r.startswith("  ✗") and r.count("→") == 2 for r in render_text(a).splitlines())


@pytest.mark.parametrize(("lang", "vp"), [("en", "VP for prisoners: 1"), ("pl", "PZ za Jeńców: 1")])
def test_prisoners_for_a_faction_say_the_buy_back_and_the_prisoners_vp(lang: str, vp: str) -> None:
    a = api.ask(ACTIONS, {"ask": "prisoners", "faction": "humans"}, lang)
    assert a.verdict is False and a.figures["prisoners-vp"] == 1
    rows = render_text(a).splitlines()
    assert f"  {vp}" in rows, rows
    # the buy-back's own answer and its reason stay: the rule that said no, with what it looked at
    assert any(r.startswith("  ✗") for r in rows) and any(r.strip().startswith(("looked at", "zasada")) for r in rows)


@pytest.mark.parametrize("lang", LANGS)
def test_each_line_of_what_may_i_do_cites_its_rule(lang: str) -> None:
    a = api.ask(ACTIONS, {"ask": "legal", "faction": "pilgrims"}, lang)
    rs = api.load_ruleset()
    actions = a.details["actions"]
    assert actions and all(act.get("rule") in rs.rules for act in actions), actions
    from havoc.engine.interpreter.answer import texts

    t = texts(rs, lang, a.labels)
    for act, line in zip([x for x in actions if x["allowed"]], [x for x in a.lines if x.startswith("✓")], strict=True):
        assert line.endswith(f"[{t.rule(rs.rules[act['rule']])[0]}]"), line


TROGS_BATTLE: dict[str, Any] = {
    "players": ["humans", "pilgrims"],
    "round": 2,
    "phase": "battle-resolution",
    "turn": "humans",
    "regions": {
        "example-a": {
            "units": {"humans": 4, "trogs": 3},
            "battle": {"token": 1, "attacker": "humans"},
            "adjacent": ["example-b"],
        },
        "example-b": {"units": {}},
    },
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_trogs_nest_rule_is_not_shown_failing_when_the_trogs_survive(lang: str) -> None:
    a = api.ask(TROGS_BATTLE, {"ask": "retreat", "faction": "trogs", "from": "example-a"}, lang)
    assert a.figures.get("places-nest") is True or any(d.figures.get("places-nest") for d in a.rules)
    rs = api.load_ruleset()
    from havoc.engine.interpreter.answer import texts

    title = texts(rs, lang, a.labels).rule(rs.rules["neutral-trogs-retreat"])[0]
    rows = render_text(a).splitlines()
    line = next(r for r in rows if r.startswith("  ") and r[2:3] in ("✗", "✓", "•") and title in r)
    assert line.startswith("  • "), rows
    assert not any(r.startswith("  ✗") for r in rows), rows
