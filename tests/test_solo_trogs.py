"""The solo Trogs decide by the overlay's priorities: every priority, tie rule and reading."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from havoc.assistant import api, examples
from havoc.cli import main
from havoc.core.errors import Code, HavocError, InputError
from havoc.engine import rulebook
from havoc.games.cry_havoc.solo import KINDS
from havoc.games.cry_havoc.solo import trogs as decide_trogs

HQ = "world-caverns"


def solo(regions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"players": ["humans"], "variant": "solo", "round": 2, "phase": "actions", "regions": regions, **extra}


def around_hq(trogs: int, **others: dict[str, Any]) -> dict[str, Any]:
    """The Trog HQ next to every listed Region."""
    regions: dict[str, Any] = {HQ: {"hq": "trogs", "units": {"trogs": trogs}, "adjacent": list(others)}}
    for rid, data in others.items():
        regions[rid] = {"adjacent": [HQ], **data}
    return solo(regions)


def set_param(rules: Path, name: str, value: str) -> None:
    path = rules / "cry-havoc" / "variants" / "solo.yaml"
    text = path.read_text()
    new, n = re.subn(rf"({re.escape(name)}: \{{value: )[^,}}]+", rf"\g<1>{value}", text)
    assert n == 1, name
    path.write_text(new)


def aside(d: Any) -> dict[str, str]:
    return {s.option: s.rule for s in d.set_aside}


# --- the five priorities ----------------------------------------------------------------------


FOUR_ON_TWO = around_hq(
    4,
    **{
        "example-a": {"units": {"humans": 2}, "control": "humans"},
        "example-b": {"crystals": 3},
        "example-c": {"crystals": 1, "units": {"humans": 5}},
    },
)


def test_defenceless_region_first_four_trogs_on_two() -> None:
    d = decide_trogs(FOUR_ON_TWO, {"decide": "move", "units": 4})
    assert d.choice == "example-a" and d.rule == "solo-priority-defenceless"
    assert aside(d) == {"example-b": "solo-priority-defenceless", "example-c": "solo-priority-defenceless"}
    assert "solo-interp-empty-region" in d.interpretations


def test_defenceless_margin_comes_from_the_rules(rules_copy: Path) -> None:
    set_param(rules_copy, "solo-defenceless-margin", "3")  # 4 against 2 is no longer enough
    d = decide_trogs(FOUR_ON_TWO, {"decide": "move", "units": 4})
    assert d.choice == "example-b" and d.rule == "solo-priority-crystals"


def test_three_crystals_over_one() -> None:
    pos = around_hq(2, **{"example-a": {"crystals": 1}, "example-b": {"crystals": 3}})
    d = decide_trogs(pos, {"decide": "move"})
    assert d.choice == "example-b" and d.rule == "solo-priority-crystals"
    assert aside(d) == {"example-a": "solo-priority-crystals"}


def test_closer_to_the_hq() -> None:
    # The Trogs stand in example-s, two steps from their HQ; both neighbours hold 1 Crystal.
    pos = solo(
        {
            HQ: {"hq": "trogs", "adjacent": ["example-near"]},
            "example-near": {"crystals": 1, "adjacent": [HQ, "example-s"]},
            "example-s": {"units": {"trogs": 2}, "adjacent": ["example-near", "example-far"]},
            "example-far": {"crystals": 1, "adjacent": ["example-s"]},
        }
    )
    d = decide_trogs(pos, {"decide": "move", "from": "example-s"})
    assert d.choice == "example-near" and d.rule == "solo-priority-near-hq"
    assert aside(d) == {"example-far": "solo-priority-near-hq"}
    assert d.set_aside[0].reason == "3 steps from the Trog HQ, another Region is 1 step away"
    assert "solo-interp-distance" in d.interpretations


def test_closer_to_the_enemy_units() -> None:
    pos = solo(
        {
            HQ: {"hq": "trogs", "units": {"trogs": 2}, "adjacent": ["example-a", "example-b"]},
            "example-a": {"adjacent": [HQ, "example-x"]},
            "example-b": {"adjacent": [HQ]},
            "example-x": {"units": {"humans": 6}, "adjacent": ["example-a"]},
        }
    )
    d = decide_trogs(pos, {"decide": "move"})
    assert d.choice == "example-a" and d.rule == "solo-priority-near-enemy"
    assert aside(d) == {"example-b": "solo-priority-near-enemy"}


def test_closer_to_an_enemy_controlled_region_when_no_units() -> None:
    pos = solo(
        {
            HQ: {"hq": "trogs", "units": {"trogs": 2}, "adjacent": ["example-a", "example-b"]},
            "example-a": {"adjacent": [HQ]},
            "example-b": {"adjacent": [HQ, "example-x"]},
            "example-x": {"control": "humans", "adjacent": ["example-b"]},
        }
    )
    d = decide_trogs(pos, {"decide": "move"})
    assert d.choice == "example-b" and d.rule == "solo-priority-near-enemy"


def test_battles_are_fought_with_units_from_the_hq() -> None:
    d = decide_trogs(FOUR_ON_TWO, {"decide": "move", "units": 4})
    assert "solo-priority-hq-units" in d.rule_ids
    assert d.figures["battle"] is True and d.figures["units-from"] == HQ
    calm = decide_trogs(around_hq(2, **{"example-a": {"crystals": 3}}), {"decide": "move"})
    assert "solo-priority-hq-units" not in calm.rule_ids and "battle" not in calm.figures


def test_priority_order_is_the_ranks_in_the_rules(rules_copy: Path) -> None:
    set_param(rules_copy, "solo-rank-crystals", "1")  # Crystals now come before defenceless
    set_param(rules_copy, "solo-rank-defenceless", "2")
    d = decide_trogs(FOUR_ON_TWO, {"decide": "move", "units": 4})
    assert d.choice == "example-b" and d.rule == "solo-priority-crystals"


def test_war_party_is_revealed() -> None:
    pos = around_hq(2, **{"example-a": {"trog-token": "war-party", "crystals": 1}})
    d = decide_trogs(pos, {"decide": "move"})
    assert d.choice == "example-a" and "solo-war-party" in d.rule_ids and d.figures["reveals"] == "war-party"


def test_tunnels_join_regions_for_the_trogs() -> None:
    pos = solo(
        {
            HQ: {"hq": "trogs", "units": {"trogs": 2}, "tunnel": True, "adjacent": ["example-a"]},
            "example-a": {"adjacent": [HQ]},
            "example-t": {"tunnel": True, "crystals": 5},
        }
    )
    d = decide_trogs(pos, {"decide": "move"})
    assert d.choice == "example-t" and d.rule == "solo-priority-crystals"


def test_regions_the_trogs_may_not_enter_are_set_aside_with_their_rule() -> None:
    pos = around_hq(
        2,
        **{
            "example-a": {"crystals": 1},
            "example-o": {"outer": True},
            "example-h": {"hq": "humans"},
            "example-b": {"units": {"humans": 1, "trogs": 1}, "battle": {"token": 1, "attacker": "humans"}},
        },
    )
    d = decide_trogs(pos, {"decide": "move"})
    assert d.choice == "example-a" and d.rule == "solo-priorities"
    assert aside(d) == {
        "example-o": "solo-unused-regions",
        "example-h": "move-no-other-hq",
        "example-b": "battle-region-no-entry",
    }


# --- tie rules and readings ---------------------------------------------------------------------


def test_when_every_priority_ties_the_player_picks_at_random() -> None:
    pos = around_hq(2, **{"example-a": {"crystals": 1}, "example-b": {"crystals": 1}})
    d = decide_trogs(pos, {"decide": "move"})
    assert d.choice is None and d.verdict is False
    assert d.tied == ["example-a", "example-b"]
    assert d.rule == "solo-interp-full-tie" and "solo-interp-full-tie" in d.interpretations


def test_empty_region_reading_can_be_changed_in_the_rules(rules_copy: Path) -> None:
    pos = around_hq(4, **{"example-a": {}, "example-b": {"crystals": 3, "units": {"humans": 5}}})
    d = decide_trogs(pos, {"decide": "move", "units": 4})
    assert d.choice == "example-b" and d.rule == "solo-priority-crystals"
    assert "solo-interp-empty-region" in d.interpretations
    set_param(rules_copy, "solo-empty-defenceless", "true")
    d = decide_trogs(pos, {"decide": "move", "units": 4})
    assert d.choice == "example-a" and d.rule == "solo-priority-defenceless"
    assert "solo-interp-empty-region" not in d.interpretations


BATTLE = solo(
    {
        HQ: {"hq": "trogs", "adjacent": ["example-a"]},
        "example-a": {
            "units": {"humans": 3, "trogs": 3},
            "battle": {"token": 1, "attacker": "humans"},
            "adjacent": [HQ],
        },
    },
    phase="battle-resolution",
)


def place(pos: dict[str, Any], humans: tuple[int, int, int]) -> Any:
    objectives = {"humans": dict(zip(("control", "prisoners", "attrition"), humans, strict=True))}
    return decide_trogs(pos, {"decide": "place", "region": "example-a", "objectives": objectives})


def with_units(humans: int, trogs: int, attacker: str = "humans") -> dict[str, Any]:
    pos = json.loads(json.dumps(BATTLE))
    pos["regions"]["example-a"]["units"] = {"humans": humans, "trogs": trogs}
    pos["regions"]["example-a"]["battle"]["attacker"] = attacker
    return pos


def test_placement_one_two_none_against_one_each() -> None:
    d = place(BATTLE, (1, 1, 1))
    assert d.figures["placement"] == {"control": 1, "prisoners": 2, "attrition": 0}
    assert d.figures["wins"] == ["control", "prisoners"]
    assert d.rule == "solo-battle-trog-placement" and d.interpretations == ["solo-interp-prisoners-tie"]
    assert aside(d) == {"attrition": "solo-battle-trog-placement"}


def test_prisoners_tie_reading_can_be_changed_in_the_rules(rules_copy: Path) -> None:
    set_param(rules_copy, "solo-prisoners-tie-wins", "true")
    d = place(BATTLE, (1, 1, 1))
    assert d.figures["placement"] == {"control": 1, "prisoners": 1, "attrition": 1}


def test_attacking_trogs_need_one_more_on_region_control() -> None:
    d = place(with_units(3, 3, attacker="trogs"), (1, 1, 1))
    assert d.figures["placement"] == {"control": 2, "prisoners": 0, "attrition": 1}
    assert d.figures["wins"] == ["control"] and "solo-interp-leftover-units" in d.interpretations


def test_defender_tie_comes_from_the_rules(rules_copy: Path) -> None:
    set_param(rules_copy, "solo-place-defender-tie", "false")
    d = place(BATTLE, (1, 1, 1))
    assert d.figures["placement"]["control"] == 2


def test_trogs_skip_an_objective_they_cannot_win() -> None:
    d = place(with_units(4, 2), (3, 0, 1))
    assert d.figures["placement"] == {"control": 0, "prisoners": 1, "attrition": 1}
    assert d.figures["wins"] == ["prisoners"]
    assert set(aside(d)) == {"control", "attrition"}


def test_leftover_units_go_on_attrition() -> None:
    d = place(with_units(3, 6), (1, 1, 1))
    assert d.figures["placement"] == {"control": 1, "prisoners": 2, "attrition": 3}
    assert "solo-interp-leftover-units" in d.interpretations
    assert "solo-interp-leftover-units" not in place(BATTLE, (1, 1, 1)).interpretations


# --- tactics, prisoners, recruiting, building -------------------------------------------------------


def tactics(trogs: tuple[int, int, int], humans: tuple[int, int, int], **more: Any) -> Any:
    names = ("control", "prisoners", "attrition")
    objectives = {"humans": dict(zip(names, humans, strict=True)), "trogs": dict(zip(names, trogs, strict=True))}
    return decide_trogs(BATTLE, {"decide": "tactics", "region": "example-a", "objectives": objectives, **more})


def test_tactics_until_winning_region_control() -> None:
    assert tactics((0, 2, 1), (1, 1, 1)).choice == "draw"
    assert tactics((1, 1, 1), (1, 1, 1)).choice == "stop"  # the Defender's tie wins
    assert tactics((0, 2, 1), (1, 1, 1), **{"tactic-text": False}).choice == "stop"
    assert tactics((0, 2, 1), (1, 1, 1)).rule == "solo-battle-tactics"


def test_prisoner_source() -> None:
    assert decide_trogs(BATTLE, {"decide": "prisoner"}).choice == "attrition"
    shifted = decide_trogs(BATTLE, {"decide": "prisoner", "shifted-priorities": True})
    assert shifted.choice == "control" and shifted.rule == "solo-prisoners"


def test_prisoner_source_comes_from_the_rules(rules_copy: Path) -> None:
    set_param(rules_copy, "solo-prisoner-source", "prisoners")
    assert decide_trogs(BATTLE, {"decide": "prisoner"}).choice == "prisoners"


def test_a_tie_on_capture_prisoners_takes_nobody() -> None:
    q = {"decide": "prisoner", "region": "example-a"}
    even = {"humans": {"control": 1, "prisoners": 1, "attrition": 1}, "trogs": {"control": 2, "prisoners": 1}}
    d = decide_trogs(BATTLE, {**q, "objectives": even})
    assert d.choice == "none" and d.figures["takes"] is False
    assert d.interpretations == ["solo-interp-prisoners-tie"]
    more = {"humans": {"control": 1, "prisoners": 1, "attrition": 1}, "trogs": {"control": 1, "prisoners": 2}}
    assert decide_trogs(BATTLE, {**q, "objectives": more}).choice == "attrition"


def test_recruits_go_to_the_hq_as_many_as_the_reserve_holds() -> None:
    pos = around_hq(1, **{"example-a": {}})
    pos["factions"] = {"trogs": {"reserve": 2}}
    d = decide_trogs(pos, {"decide": "recruit", "units": 3})
    assert d.choice == HQ and d.rule == "solo-recruit" and d.figures["recruited"] == 2


def building(structures: dict[str, list[dict[str, str]]] | None = None) -> dict[str, Any]:
    pos = around_hq(
        0,
        **{"example-a": {"units": {"trogs": 1}, "crystals": 3}, "example-b": {"units": {"trogs": 1}, "crystals": 1}},
    )
    for rid, items in (structures or {}).items():
        pos["regions"][rid]["structures"] = items
    return pos


def test_build_a_trap_where_the_priorities_say() -> None:
    d = decide_trogs(building(), {"decide": "build"})
    assert d.choice == "build" and d.figures["build"] == {"trap": "example-a"}
    assert d.rule == "solo-build" and "solo-priority-crystals" in d.rule_ids
    assert "solo-interp-build-site" in d.interpretations


def test_trogs_build_only_where_they_have_units() -> None:
    pos = building()
    pos["regions"]["example-a"]["units"] = {}
    pos["regions"]["example-c"] = {"crystals": 5, "adjacent": [HQ]}
    pos["regions"][HQ]["adjacent"].append("example-c")
    d = decide_trogs(pos, {"decide": "build"})
    assert d.figures["build"] == {"trap": "example-b"} and "solo-interp-build-site" in d.interpretations


TRAP = {"type": "trap", "owner": "trogs"}
POOL = {"type": "brooding-pool", "owner": "trogs"}


def three_sites(structures: dict[str, list[dict[str, str]]] | None = None) -> dict[str, Any]:
    """Three Regions with a Trog each (3, 1 and 0 Crystals): room for all three Trap tokens."""
    pos = building()
    pos["regions"][HQ]["adjacent"].append("example-c")
    pos["regions"]["example-c"] = {"adjacent": [HQ], "units": {"trogs": 1}}
    for rid, items in (structures or {}).items():
        pos["regions"][rid]["structures"] = items
    return pos


def test_the_trogs_hold_three_traps() -> None:
    """003's component list: the Trogs have 3 tokens of each Structure but the Tunnel (l.136-138)."""
    rs = rulebook.load("cry-havoc")
    assert rs.param("solo-trog-traps") == 3 and rs.param("solo-trog-brooding-pools") == 3


def test_one_or_two_traps_are_not_all_traps() -> None:
    """ "If all Traps are placed": with 1 or 2 of the 3 out, the Trogs build another Trap, no Pool."""
    one = decide_trogs(three_sites({"example-b": [TRAP]}), {"decide": "build"})
    assert one.figures["build"] == {"trap": "example-a"}
    two = decide_trogs(three_sites({"example-a": [TRAP], "example-b": [TRAP]}), {"decide": "build"})
    assert two.figures["build"] == {"trap": "example-c"}


def test_brooding_pool_once_the_traps_are_out_or_icons_pay_for_both() -> None:
    placed = three_sites({"example-a": [TRAP], "example-b": [TRAP], "example-c": [TRAP]})
    assert decide_trogs(placed, {"decide": "build"}).figures["build"] == {"brooding-pool": "example-a"}
    both = decide_trogs(building(), {"decide": "build", "both": True})
    assert both.figures["build"] == {"trap": "example-a", "brooding-pool": "example-a"}


def test_activate_traps_then_pools_when_nothing_is_left_to_build() -> None:
    full = three_sites({rid: [TRAP, POOL] for rid in ("example-a", "example-b", "example-c")})
    d = decide_trogs(full, {"decide": "build"})
    assert d.choice == "activate"
    assert d.figures["activate"] == ["example-a", "example-b", "example-c"] * 2  # the Traps, then the Pools


def test_trap_supply_comes_from_the_rules(rules_copy: Path) -> None:
    set_param(rules_copy, "solo-trog-traps", "1")
    placed = building({"example-b": [TRAP]})
    assert decide_trogs(placed, {"decide": "build"}).figures["build"] == {"brooding-pool": "example-a"}


def test_stored_example_shows_the_second_trap() -> None:
    """The stored example: one Trap out, Build icons for one Structure: the second Trap, no Pool."""
    rs = rulebook.load("cry-havoc")
    ex = next(ex for ex in rs.rules["solo-build"].examples if ex.id == "ex-solo-second-trap")
    traps = [r for r in ex.position["regions"].values() for s in r.get("structures", []) if s["type"] == "trap"]
    assert len(traps) == 1
    d = decide_trogs(ex.position, ex.query)
    assert d.figures["build"] == {"trap": "example-a"}
    assert examples.run(rs, ex) == []


# --- the solo Battle: the Trogs score like a player ----------------------------------------------


def test_solo_trogs_score_region_control_and_kills_and_go_home() -> None:
    objectives = {"humans": {"control": 1, "prisoners": 1, "attrition": 1}, "trogs": {"control": 1, "attrition": 2}}
    a = api.battle(BATTLE, "example-a", objectives, faction="trogs")
    assert a.figures["control-vp"] == 2 and a.figures["kill-vp"] == 1
    assert a.figures["vp-gained"] == {"humans": 1, "trogs": 3}
    assert a.figures["to-hq"] == {"humans": 0, "trogs": 1} and a.figures["nest"] is True
    neutral = {k: v for k, v in BATTLE.items() if k != "variant"}
    neutral["players"] = ["humans", "pilgrims"]
    neutral["regions"] = {"example-a": BATTLE["regions"]["example-a"] | {"adjacent": []}}
    b = api.battle(neutral, "example-a", objectives, faction="trogs")
    assert b.figures["vp-gained"]["trogs"] == 0 and b.figures["to-hq"]["trogs"] == 0


# --- stored examples, the CLI, errors --------------------------------------------------------------


def test_stored_examples_fail_when_their_answer_is_wrong(rules_copy: Path) -> None:
    path = rules_copy / "cry-havoc" / "variants" / "solo.yaml"
    text = path.read_text()
    path.write_text(text.replace("placement: {control: 1, prisoners: 2, attrition: 0}", "placement: {control: 2}"))
    rs = rulebook.load("cry-havoc")
    _, problems = examples.run_all(rs)
    assert [p for p in problems if "ex-solo-place-one-two-none" in p.message]


def test_stored_solo_examples_pass() -> None:
    rs = rulebook.load("cry-havoc")
    solo_examples = [ex for r in rs.rules.values() for ex in r.examples if ex.query.get("ask") == "trogs"]
    assert len(solo_examples) >= 3
    assert [p for ex in solo_examples for p in examples.run(rs, ex)] == []


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_cli_json_and_polish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = write(tmp_path, BATTLE)
    assert main(["trogs", pos, "place", "example-a", "humans=1/1/1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["choice"] == "1/2/0" and data["rule"] == "solo-battle-trog-placement"
    assert main(["trogs", pos, "place", "example-a", "humans=1/1/1", "--lang", "pl"]) == 0
    out = capsys.readouterr().out
    assert "Rozstrzyga" in out and "Decided by" not in out and "Region Control" not in out
    assert "Kontroli nad Regionem" in out and "Wyniszczenie —" in out


@pytest.mark.parametrize(
    ("data", "words", "message"),
    [
        ({"players": ["humans", "pilgrims"], "regions": {"example-a": {}}}, ["move"], "variant: the Trogs decide only"),
        (solo({"example-a": {}}), ["move"], "regions: no Region has hq: trogs"),
        (solo({HQ: {"hq": "trogs", "units": {"trogs": 2}}}), ["move"], "World Caverns › adjacent: "),
        (BATTLE, ["place", "example-z", "humans=1/1/1"], "region: unknown Region 'example-z'"),
        (BATTLE, ["place", "example-a", "humans=1/1/0"], "objectives › Humans: "),
        (BATTLE, ["place", "example-a", "humans=1/x/1"], "expected FACTION=CONTROL/PRISONERS/ATTRITION"),
        (BATTLE, ["move", "--from", HQ], "from: World Caverns holds no Trog Units"),
        (BATTLE, ["recruit"], "units: needed"),
        (BATTLE, ["move", "--from", "example-a", "--units", "4"], "units: 4 Trog Units would move"),
    ],
)
def test_bad_solo_positions_are_located_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, Any], words: list[str], message: str
) -> None:
    data = {k: v for k, v in data.items() if v is not None}
    code = main(["trogs", write(tmp_path, data), *words])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_api_refuses_a_non_solo_position() -> None:
    with pytest.raises(InputError, match="variant") as info:
        decide_trogs({"players": ["humans", "pilgrims"]}, {"decide": "move"})
    assert [p.code for p in info.value.problems] == [Code.POSITION_INVALID]


def test_solo_trogs_score_half_the_crystals_they_hold() -> None:
    pos = solo(
        {
            HQ: {"hq": "trogs", "units": {"trogs": 2}},
            "example-a": {"crystals": 3, "units": {"trogs": 1}},
            "example-b": {"crystals": 2, "trog-token": "nest"},
            "example-c": {
                "crystals": 1,
                "units": {"humans": 2, "trogs": 1},
                "battle": {"token": 1, "attacker": "trogs"},
            },
        },
        phase="scoring",
        round=5,
        scoring={"enabled-by": "humans", "final-round": True},
    )
    a = api.score(pos, "trogs")
    assert a.figures["crystal-vp"] == 3 and "solo-trogs-crystals" in a.rule_ids  # 5 held Crystals, half rounded up
    base = {**pos, "players": ["humans", "pilgrims"]}
    base.pop("variant")
    base["regions"] = {k: v for k, v in pos["regions"].items() if k != HQ}
    assert api.score(base, "trogs").figures.get("crystal-vp", 0) == 0  # neutral Trogs never score


def test_server_answers_the_trogs_question_like_the_api(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from havoc.web.server.app import create_app

    (tmp_path / "index.html").write_text("<!DOCTYPE html><title>root</title>")
    question = {
        "decide": "place",
        "region": "example-a",
        "objectives": {"humans": {"control": 1, "prisoners": 1, "attrition": 1}},
    }
    with TestClient(create_app(tmp_path), raise_server_exceptions=False) as client:
        reply = client.post("/api/trogs?lang=pl", json={"position": BATTLE, "question": {**question}})
        assert reply.status_code == 200
        assert reply.json() == decide_trogs(BATTLE, question, lang="pl").to_json()
        bad = client.post("/api/trogs", json={"position": BATTLE, "question": {"decide": "fly"}})
        assert bad.status_code == 422 and "decide" in bad.text
        assert "/api/trogs" in client.get("/openapi.json").json()["paths"]


def test_trogs_do_not_build_in_a_battle_region() -> None:
    pos = building()
    pos["regions"]["example-a"]["units"] = {"trogs": 1, "humans": 1}
    pos["regions"]["example-a"]["battle"] = {"token": 1, "attacker": "humans"}
    assert decide_trogs(pos, {"decide": "build"}).figures["build"] == {"trap": "example-b"}


def test_havoc_rule_marks_a_documented_reading(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "solo-interp-prisoners-tie", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["interpretation"] is True
    assert main(["rule", "solo-priority-crystals", "--json"]) == 0
    assert "interpretation" not in json.loads(capsys.readouterr().out)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**12) | st.text(max_size=12) | st.sampled_from(["example-a", HQ]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
    max_leaves=8,
)
FIELDS = ["decide", "units", "from", "steps", "region", "objectives", "both", "tactic-text", "shifted-priorities"]


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@settings(max_examples=300, deadline=None)
@given(
    decide=st.sampled_from([*KINDS, "fly"]) | JUNK,
    extra=st.dictionaries(st.sampled_from(FIELDS[1:]), JUNK, max_size=4),
    objectives=st.none()
    | st.dictionaries(
        st.sampled_from(["humans", "trogs", "x"]),
        st.dictionaries(st.sampled_from(["control", "prisoners", "attrition"]), st.integers(-1, 5) | JUNK),
    ),
)
def test_any_question_is_a_decision_or_a_located_error(decide: Any, extra: dict[str, Any], objectives: Any) -> None:
    query = {"decide": decide, **extra}
    if objectives is not None:
        query["objectives"] = objectives
        query["region"] = "example-a"
    for pos in (BATTLE, FOUR_ON_TWO):
        try:
            d = decide_trogs(pos, query)
        except HavocError as exc:
            assert exc.problems and all(p.message for p in exc.problems)
        else:
            json.dumps(d.to_json())


def test_each_decision_is_one_declaration() -> None:
    """The decisions are a registry like the question kinds: each declares its handler, the
    question fields it reads (typed once, in FIELDS) and its words, which the site shows."""
    from havoc.games.cry_havoc import site_words
    from havoc.games.cry_havoc.solo.engine import FIELDS, all_decisions, get

    decisions = {d.name: d for d in all_decisions()}
    assert tuple(decisions) == KINDS
    for name, decision in decisions.items():
        assert decision.name == name and callable(decision.handler) and decision.path.endswith(f"decisions/{name}.py")
        assert set(decision.fields) <= set(FIELDS), name
    assert site_words()["decisions"] == {n: d.what for n, d in decisions.items() if d.what}
    # their words are one havoc.po entry each (context ui), which the site reads: no copy in site.pot
    from havoc.language.i18n import locales_root
    from havoc.sphinxext.labels import LabelCatalog, declared

    move = get("move").what
    assert move and move not in declared()
    assert f'msgid "{move}"' not in (locales_root() / "site.pot").read_text(encoding="utf-8")
    assert LabelCatalog.load("pl", [locales_root()]).get(move) == "dokąd idą"


def test_a_decision_missing_a_piece_is_a_located_problem() -> None:
    """havoc check resolves a decision as it does a kind: its handler, fields and words."""
    from havoc.games.cry_havoc.solo import engine

    assert engine.check() == []
    line = sys._getframe().f_lineno + 1
    broken = engine.Decision(name="toy", handler="decide_toy", fields=("units", "dice"), what="how many toys")  # type: ignore[arg-type]
    problems = engine.check([broken])
    assert all(p.file == "tests/test_solo_trogs.py" and p.line == line for p in problems)
    messages = [p.message for p in problems]
    assert any("handler 'decide_toy' is no function" in m for m in messages)
    assert any("fields not typed in FIELDS (solo/engine.py): dice" in m for m in messages)
    assert any("('how many toys') has no pl translation" in m and "havoc.po" in m for m in messages)


def test_a_decision_module_that_does_not_load_is_a_located_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    from havoc.core.errors import RulebookError
    from havoc.games.cry_havoc.solo import engine

    monkeypatch.setattr(engine, "KINDS", (*engine.KINDS, "toy"))
    [p] = engine.check()
    assert p.file == "src/havoc/games/cry_havoc/solo/decisions/toy.py" and "'toy'" in p.message
    with pytest.raises(RulebookError, match="toy"):
        engine.get("toy")


def test_every_decision_declares_what_it_is_asked_with() -> None:
    """The Trogs page's form is the declaration: each decision has one, and every key a stored
    solo example asks with is declared for its decision."""
    import stored_examples

    from havoc.games.cry_havoc.solo.engine import KINDS, form, get

    forms = {kind: form(get(kind)) for kind in KINDS}
    assert forms["recruit"] == [{"name": "units", "type": "count", "needed": True, "default": None}]
    assert {f["name"]: f["default"] for f in forms["tactics"]} == {
        "tactic-text": True,
        "region": None,
        "objectives": None,
    }
    asked = [ex.query for ex in stored_examples.examples(extra=True)]
    assert asked
    for query in asked:
        declared = {f["name"] for f in forms[str(query["decide"])]}
        assert set(query) - {"ask", "decide"} <= declared, query


# Each decision asked with the machine words, then with the Polish words a player types (the
# catalog's ui:word entries, faction and Region names as a table writes them): one question.
POLISH_WORDS = [
    (["move", "--from", "example-a", "--units", "2", "--steps", "2"], ["ruch", "z=Region A", "oddziały=2", "kroki=2"]),
    (["move", "--units", "2"], ["RUCH", "oddzialy=2"]),
    (["place", "example-a", "humans=1/1/1"], ["umieszczenie", "Region A", "ludzie=1/1/1"]),
    (
        ["tactics", "example-a", "humans=2/0/1", "trogs=1/1/1", "--no-tactic-text"],
        ["taktyki", "region-a", "Ludzie=2/0/1", "trogi=1/1/1", "tekst-taktyki=nie"],
    ),
    (
        ["prisoner", "example-a", "humans=1/1/1", "trogs=1/2/0", "--shifted-priorities"],
        ["jeniec", "zmiana-priorytetow=tak", "Region A", "ludzie=1/1/1", "Trogi=1/2/0"],
    ),
    (["build", "--both"], ["wzniesienie", "obie=tak"]),
    (["recruit", "--units", "3"], ["rekrutacja", "oddziały=3"]),
    (["initiative"], ["inicjatywa"]),
]


def _trogs_query(words: list[str], lang: str) -> dict[str, Any]:
    import argparse

    from havoc.games.cry_havoc.solo import cli

    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(["pos.json", *words, "--lang", lang])
    return cli.query_from(args, api.load_position(BATTLE))


def test_every_decision_is_asked_alike_in_polish_words() -> None:
    from havoc.games.cry_havoc.solo.engine import KINDS as DECISIONS

    assert {m[0] for m, _ in POLISH_WORDS} == set(DECISIONS)
    for machine, polish in POLISH_WORDS:
        expected = _trogs_query(machine, "en")
        assert expected["decide"] == machine[0]
        for lang in ("pl", "en"):  # the words are read whatever the answer's language
            assert _trogs_query(polish, lang) == expected, (polish, lang)
        assert _trogs_query(machine, "pl") == expected  # the machine words in a Polish command


def test_a_polish_trogs_command_gives_the_machine_forms_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = write(tmp_path, BATTLE)
    assert main(["trogs", pos, "place", "example-a", "humans=1/1/1", "--json"]) == 0
    machine = capsys.readouterr().out
    assert main(["trogs", pos, "umieszczenie", "Region A", "ludzie=1/1/1", "--json"]) == 0
    assert capsys.readouterr().out == machine


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["rucht"], "nieznana decyzja 'rucht' (czy chodziło o 'ruch'?); oczekiwano jednej z: ruch (move)"),
        (["ruch", "z=Nigdzie"], "z: nieznany Region 'Nigdzie'"),
        (["umieszczenie", "Nigdzie", "ludzie=1/1/1"], "pytanie: region: nieznany Region 'Nigdzie'"),
        (["rekrutacja"], "pytanie: oddziały: brak: podaj liczbę całkowitą od 1"),
        (["ruch", "kroki=0"], "pytanie: kroki: oczekiwano liczby całkowitej od 1, znaleziono 0"),
        (["wzniesienie", "obie=może"], "pytanie: obie: oczekiwano tak lub nie, znaleziono 'może'"),
        (["umieszczenie", "Region A", "ludzie=1/x"], "np. ludzie=1/1/1"),
    ],
)
def test_a_polish_word_not_known_is_said_in_polish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str], message: str
) -> None:
    code = main(["trogs", write(tmp_path, BATTLE), *words, "--lang", "pl"])
    err = capsys.readouterr().err
    assert code == 2 and message in err, err


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize(
    "fixture, words",
    [
        ("move.yaml", ["move", "--units", "2"]),
        ("move.yaml", ["recruit", "--units", "2"]),
        ("move.yaml", ["build"]),
        ("battle.yaml", ["place", "example-a", "humans=1/1/1"]),
        ("battle.yaml", ["tactics", "example-a", "humans=2/0/1", "trogs=1/1/1"]),
        ("battle.yaml", ["prisoner", "example-a", "humans=1/1/1", "trogs=1/2/0"]),
        ("battle.yaml", ["recruit", "--units", "2"]),
    ],
)
def test_a_decision_names_regions_not_their_ids(
    fixture: str, words: list[str], lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the Trogs decide is told with the Regions' names ("into their HQ (World Caverns)"),
    never the table's IDs (world-caverns, example-a), in either language."""
    table = Path(__file__).parent / "fixtures" / "solo" / fixture
    assert main(["--lang", lang, "trogs", str(table), *words]) == 0
    said = capsys.readouterr().out
    assert said.strip()
    assert not re.findall(r"world-caverns|example-[a-z]+", said), said
