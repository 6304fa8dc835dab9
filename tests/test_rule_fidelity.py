"""What a rule says is what the assistant answers: the wrong verdicts of the second audit (issue 19).

Each test is a table question a player asked, with the answer the rules give (seed 003, the
official rulebook; seed 002 for the solo variant). Each one failed before the fix.
"""

from __future__ import annotations

from typing import Any

import pytest

from havoc import api
from havoc.interpreter.answer import Answer, render_text


def cited(a: Answer) -> set[str]:
    return {d.id for d in a.rules}


def said_no(a: Answer) -> set[str]:
    return {d.id for d in a.rules if d.passed is False}


# --- retreat never onto a Battle Region (003 lines 421-424 and 470-471) ---------------------

RETREAT: dict[str, Any] = {
    "players": ["humans", "pilgrims", "machines"],
    "round": 2,
    "phase": "battle-resolution",
    "regions": {
        "example-battle": {
            "units": {"humans": 3, "pilgrims": 2},
            "control": "humans",
            "battle": {"token": 1, "attacker": "pilgrims"},
            "adjacent": ["example-b", "example-c"],
        },
        "example-b": {
            "units": {"pilgrims": 2, "machines": 3},
            "control": "pilgrims",
            "battle": {"token": 2, "attacker": "machines"},
            "adjacent": ["example-battle"],
        },
        "example-c": {"adjacent": ["example-battle"]},
    },
}


def test_retreat_into_a_controlled_battle_region_is_refused_by_both_rules() -> None:
    a = api.ask(RETREAT, {"ask": "retreat", "faction": "pilgrims", "from": "example-battle", "to": "example-b"})
    assert a.verdict is False
    assert said_no(a) == {"battle-region-no-entry", "move-no-other-hq"}


def test_with_no_region_left_the_units_go_to_the_reserve() -> None:
    a = api.ask(RETREAT, {"ask": "retreat", "faction": "pilgrims", "from": "example-battle"})
    assert a.figures["destinations"] == [] and a.figures["to-reserve"] is True
    assert a.details["to-reserve"] is True
    assert "retreat-to-reserve" in cited(a)
    assert "Reserve" in render_text(a)


def test_a_controlled_neighbour_without_a_battle_still_qualifies() -> None:
    pos = {
        **RETREAT,
        "regions": {**RETREAT["regions"], "example-c": {"control": "pilgrims", "adjacent": ["example-battle"]}},
    }
    a = api.ask(pos, {"ask": "retreat", "faction": "pilgrims", "from": "example-battle"})
    assert a.figures["destinations"] == ["example-c"] and a.figures["to-reserve"] is False


def test_the_battle_mechanism_does_not_send_the_loser_onto_a_battle_region() -> None:
    objectives = {
        "humans": {"control": 2, "prisoners": 1, "attrition": 0},
        "pilgrims": {"control": 1, "prisoners": 0, "attrition": 1},
    }
    a = api.battle(RETREAT, "example-battle", objectives, faction="pilgrims")
    assert a.figures["control-winner"] == "humans"
    assert a.figures["retreat-to"] == [] and a.figures["to-reserve"] is True


# --- neutral Trogs' retreat: one story (003 lines 792-796) --------------------------------------

NEUTRAL: dict[str, Any] = {
    "players": ["humans", "pilgrims"],
    "round": 1,
    "phase": "battle-resolution",
    "regions": {
        "example-a": {
            "units": {"humans": 3, "trogs": 1},
            "battle": {"token": 1, "attacker": "humans"},
            "adjacent": ["example-n", "example-c"],
        },
        "example-n": {"adjacent": ["example-a"]},
        "example-c": {"control": "humans", "adjacent": ["example-a"]},
    },
}


def test_neutral_trogs_retreat_is_a_nest_not_the_reserve() -> None:
    a = api.ask(NEUTRAL, {"ask": "retreat", "faction": "trogs", "from": "example-a"})
    assert a.figures["to-reserve"] is False and a.details["to-reserve"] is False
    assert a.figures["nest-options"] == ["example-n"] and a.figures["places-nest"] is True
    assert "retreat-adjacent-controlled" not in cited(a)  # its hint sends Units to "your Reserve"
    assert "Reserve" not in render_text(a)


# --- no Control and no Battle for a faction with no Units there ------------------------------


def test_end_of_move_without_units_gives_no_control() -> None:
    pos = {
        "players": ["pilgrims", "humans"],
        "round": 1,
        "phase": "actions",
        "turn": "pilgrims",
        "regions": {"example-a": {}},
    }
    a = api.ask(pos, {"ask": "end-of-move", "faction": "pilgrims", "region": "example-a"})
    assert a.figures["gains-control"] is False
    assert "put their Control token" not in render_text(a)


def test_end_of_move_with_units_still_gives_control() -> None:
    pos = {
        "players": ["pilgrims", "humans"],
        "round": 1,
        "phase": "actions",
        "turn": "pilgrims",
        "regions": {"example-a": {"units": {"pilgrims": 2}}},
    }
    a = api.ask(pos, {"ask": "end-of-move", "faction": "pilgrims", "region": "example-a"})
    assert a.figures["gains-control"] is True


# --- a Battle that is not fought adds no Crystal (003 lines 600-603) -----------------------------


def test_no_crystal_when_the_battle_is_not_fought() -> None:
    pos = {
        "players": ["humans", "pilgrims"],
        "round": 2,
        "phase": "battle-resolution",
        "regions": {
            "example-a": {"units": {"pilgrims": 3}, "control": "humans", "battle": {"token": 1, "attacker": "pilgrims"}}
        },
    }
    a = api.ask(pos, {"ask": "battle", "faction": "pilgrims", "region": "example-a"})
    assert a.verdict is False and a.figures["crystals-added"] == 0
    text = render_text(a)
    assert "—" not in text.splitlines()[1] and "no Defender is left" in text


# --- the hand limit after the Draw Cards phase draw only (003 lines 362-364) -------------------


def test_no_discard_in_the_actions_phase() -> None:
    pos = {
        "players": ["pilgrims", "humans"],
        "round": 2,
        "phase": "actions",
        "turn": "pilgrims",
        "factions": {"pilgrims": {"hand": 8}},
    }
    assert api.ask(pos, {"ask": "discard", "faction": "pilgrims"}).figures["must-discard"] == 0
    assert api.ask(pos, {"ask": "how-many", "of": "must-discard", "faction": "pilgrims"}).figures["must-discard"] == 0
    drawn = {**{k: v for k, v in pos.items() if k != "turn"}, "phase": "draw-cards"}
    assert api.ask(drawn, {"ask": "discard", "faction": "pilgrims"}).figures["must-discard"] == 1


# --- legal at place-units; build without enough points ---------------------------------------


def test_legal_while_placing_units_offers_no_tactics() -> None:
    pos = {
        "players": ["humans", "pilgrims"],
        "round": 1,
        "phase": "battle-resolution",
        "step": "place-units",
        "regions": {
            "example-battle": {"units": {"humans": 3, "pilgrims": 4}, "battle": {"token": 1, "attacker": "pilgrims"}}
        },
    }
    assert "play-tactic" not in api.legal(pos, "pilgrims").figures["actions"]
    later = {**pos, "step": "play-tactics"}
    assert "play-tactic" in api.legal(later, "pilgrims").figures["actions"]


def test_build_without_enough_points_reports_what_is_missing() -> None:
    pos = {
        "players": ["pilgrims", "machines"],
        "round": 2,
        "phase": "actions",
        "turn": "pilgrims",
        "regions": {"example-a": {"units": {"pilgrims": 2}, "control": "pilgrims"}},
    }
    a = api.ask(
        pos, {"ask": "build", "faction": "pilgrims", "region": "example-a", "structure": "harvester", "points": 1}
    )
    assert a.verdict is False and "build-points" in said_no(a)
    assert a.figures["points-left"] == 0 and a.figures["points-missing"] == 1


# --- solo (seed 002) ------------------------------------------------------------------------


def _solo(**extra: Any) -> dict[str, Any]:
    return {"players": ["humans"], "variant": "solo", "round": 5, "phase": "scoring", **extra}


def test_solo_player_may_not_enter_an_outer_region() -> None:
    pos = {
        "players": ["humans"],
        "variant": "solo",
        "round": 1,
        "phase": "actions",
        "turn": "humans",
        "regions": {
            "example-hq": {
                "hq": "humans",
                "units": {"humans": 3},
                "control": "humans",
                "adjacent": ["sapos-deep", "example-b"],
            },
            "sapos-deep": {"outer": True, "adjacent": ["example-hq"]},
            "example-b": {"adjacent": ["example-hq"]},
        },
    }
    no = api.ask(pos, {"ask": "move", "faction": "humans", "from": "example-hq", "to": "sapos-deep"})
    assert no.verdict is False and said_no(no) == {"solo-unused-regions"}
    assert api.ask(pos, {"ask": "move", "faction": "humans", "from": "example-hq", "to": "example-b"}).verdict is True
    base = {k: v for k, v in pos.items() if k != "variant"} | {"players": ["humans", "pilgrims"]}
    assert api.ask(base, {"ask": "move", "faction": "humans", "from": "example-hq", "to": "sapos-deep"}).verdict is True


def test_solo_winner_must_beat_the_trogs() -> None:
    tie = api.ask(
        _solo(factions={"humans": {"vp": 25, "prisoners": {"trogs": 2}}, "trogs": {"vp": 25}}),
        {"ask": "winner", "faction": "humans"},
    )
    assert tie.verdict is False and tie.figures["winner"] == "trogs"
    assert {"solo-winner", "solo-tie-is-a-loss"} <= cited(tie) and "end-tiebreak" not in cited(tie)
    behind = api.ask(
        _solo(factions={"humans": {"vp": 25}, "trogs": {"vp": 30}}), {"ask": "winner", "faction": "humans"}
    )
    assert behind.verdict is False and behind.figures["winner"] == "trogs"
    ahead = api.ask(_solo(factions={"humans": {"vp": 26}, "trogs": {"vp": 25}}), {"ask": "winner", "faction": "humans"})
    assert ahead.verdict is True and ahead.figures["winner"] == "humans"


def test_neutral_trogs_never_win_the_base_game() -> None:
    pos = {
        "players": ["humans", "pilgrims"],
        "round": 5,
        "phase": "scoring",
        "factions": {"humans": {"vp": 10}, "pilgrims": {"vp": 9}, "trogs": {"vp": 50}},
    }
    a = api.ask(pos, {"ask": "winner"})
    assert a.figures["winner"] == "humans" and "trogs" not in a.figures["ranking"]


def test_solo_trogs_play_desert_cards_in_any_terrain() -> None:
    pos = {
        "players": ["humans"],
        "variant": "solo",
        "round": 2,
        "phase": "battle-resolution",
        "regions": {
            "example-a": {
                "terrain": "mountains",
                "units": {"humans": 2, "trogs": 2},
                "battle": {"token": 1, "attacker": "humans"},
            }
        },
    }
    q = {"ask": "play-tactic", "region": "example-a", "card-terrain": "desert"}
    trogs = api.ask(pos, {**q, "faction": "trogs"})
    assert trogs.verdict is True and "solo-terrain-tactics" in cited(trogs) and trogs.overlay == "solo"
    assert api.ask(pos, {**q, "faction": "humans"}).verdict is False
    assert api.ask(pos, {**q, "faction": "trogs", "card-terrain": "ocean"}).verdict is False


# --- English answers: counts agree with nouns, plural possessives, no empty slots ----------------


def test_end_of_move_question_uses_the_plural_possessive() -> None:
    pos = {
        "players": ["humans", "pilgrims"],
        "round": 1,
        "phase": "actions",
        "turn": "humans",
        "regions": {"example-a": {"units": {"humans": 1}}},
    }
    a = api.ask(pos, {"ask": "end-of-move", "faction": "humans", "region": "example-a"})
    assert "the Humans' Move" in a.question and "Humans's" not in a.question


def test_one_unit_goes_back() -> None:
    pos = {
        "players": ["humans", "pilgrims"],
        "round": 1,
        "phase": "actions",
        "turn": "humans",
        "factions": {"trogs": {"reserve": 0}},
        "regions": {"example-a": {"units": {"humans": 2}, "trog-token": "war-party"}},
    }
    text = render_text(api.ask(pos, {"ask": "end-of-move", "faction": "humans", "region": "example-a"}))
    assert "1 Unit goes back to the Reserve" in text and "1 Unit go back" not in text


def test_solo_trog_lines_agree_with_their_counts() -> None:
    from havoc.games.cry_havoc.solo import trogs as decide_trogs

    pos = {
        "players": ["humans"],
        "variant": "solo",
        "round": 2,
        "phase": "actions",
        "factions": {"trogs": {"reserve": 1}},
        "regions": {
            "world-caverns": {"hq": "trogs", "units": {"trogs": 2}, "adjacent": ["example-a", "example-b"]},
            "example-a": {"adjacent": ["world-caverns", "example-x"]},
            "example-b": {"adjacent": ["world-caverns"]},
            "example-x": {"units": {"humans": 6}, "adjacent": ["example-a"]},
        },
    }
    recruit = decide_trogs(pos, {"decide": "recruit", "units": 3})
    said = "\n".join([recruit.question, *recruit.lines])
    assert "Only 1 Trog Unit is in the Reserve." in said
    move = decide_trogs(pos, {"decide": "move", "units": 1})
    assert move.question.startswith("Where does 1 Trog Unit")
    reasons = " ".join(s.reason for s in move.set_aside)
    assert "the Humans' Units" in reasons and "the Humans Units" not in reasons


def test_rule_overlay_line_has_no_empty_parentheses(capsys: pytest.CaptureFixture[str]) -> None:
    from havoc.cli import main

    assert main(["rule", "solo-setup-trog-structures"]) == 0
    out = capsys.readouterr().out
    assert "overlay: solo (add)" in out.splitlines() and "()" not in out and "(add )" not in out
