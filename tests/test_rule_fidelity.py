"""What a rule says is what the assistant answers: the wrong verdicts of the second audit (issue 19).

Each test is a table question a player asked, with the answer the rules give (seed 003, the
official rulebook; seed 002 for the solo variant). Each one failed before the fix.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from havoc.assistant import api
from havoc.engine.interpreter.answer import Answer, render_text


def cited(a: Answer) -> set[str]:
    return {d.id for d in a.rules}


def said_no(a: Answer) -> set[str]:
    return {d.id for d in a.rules if d.passed is False}


def table(players: str, phase: str, round: int = 2, **more: Any) -> dict[str, Any]:
    """A position: the players ("humans pilgrims"), the phase, the round and what a test sets
    (``regions``, ``factions``, ``turn``, ``variant`` …; ``upcoming_initiative`` for
    ``upcoming-initiative``)."""
    return {"players": players.split(), "round": round, "phase": phase} | {
        key.replace("_", "-"): value for key, value in more.items()
    }


# --- retreat never onto a Battle Region (003 lines 421-424 and 470-471) ---------------------

RETREAT = table(
    "humans pilgrims machines",
    "battle-resolution",
    regions={
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
)


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

NEUTRAL = table(
    "humans pilgrims",
    "battle-resolution",
    1,
    regions={
        "example-a": {
            "units": {"humans": 3, "trogs": 1},
            "battle": {"token": 1, "attacker": "humans"},
            "adjacent": ["example-n", "example-c"],
        },
        "example-n": {"adjacent": ["example-a"]},
        "example-c": {"control": "humans", "adjacent": ["example-a"]},
    },
)


def test_neutral_trogs_retreat_is_a_nest_not_the_reserve() -> None:
    a = api.ask(NEUTRAL, {"ask": "retreat", "faction": "trogs", "from": "example-a"})
    assert a.figures["to-reserve"] is False and a.details["to-reserve"] is False
    assert a.figures["nest-options"] == ["example-n"] and a.figures["places-nest"] is True
    assert "retreat-adjacent-controlled" not in cited(a)  # its hint sends Units to "your Reserve"
    assert "Reserve" not in render_text(a)


# --- no Control and no Battle for a faction with no Units there ------------------------------


def test_end_of_move_without_units_gives_no_control() -> None:
    pos = table("pilgrims humans", "actions", 1, turn="pilgrims", regions={"example-a": {}})
    a = api.ask(pos, {"ask": "end-of-move", "faction": "pilgrims", "region": "example-a"})
    assert a.figures["gains-control"] is False
    assert "put their Control token" not in render_text(a)


def test_end_of_move_with_units_still_gives_control() -> None:
    pos = table("pilgrims humans", "actions", 1, turn="pilgrims", regions={"example-a": {"units": {"pilgrims": 2}}})
    a = api.ask(pos, {"ask": "end-of-move", "faction": "pilgrims", "region": "example-a"})
    assert a.figures["gains-control"] is True


# --- a Battle that is not fought adds no Crystal (003 lines 600-603) -----------------------------


def test_no_crystal_when_the_battle_is_not_fought() -> None:
    battle = {"units": {"pilgrims": 3}, "control": "humans", "battle": {"token": 1, "attacker": "pilgrims"}}
    pos = table("humans pilgrims", "battle-resolution", regions={"example-a": battle})
    a = api.ask(pos, {"ask": "battle", "faction": "pilgrims", "region": "example-a"})
    assert a.verdict is False and a.figures["crystals-added"] == 0
    text = render_text(a)
    assert "—" not in text.splitlines()[1] and "no Defender is left" in text


# --- the hand limit after the Draw Cards phase draw only (003 lines 362-364) -------------------


def test_no_discard_in_the_actions_phase() -> None:
    pos = table("pilgrims humans", "actions", turn="pilgrims", factions={"pilgrims": {"hand": 8}})
    assert api.ask(pos, {"ask": "discard", "faction": "pilgrims"}).figures["must-discard"] == 0
    assert api.ask(pos, {"ask": "how-many", "of": "must-discard", "faction": "pilgrims"}).figures["must-discard"] == 0
    drawn = {**{k: v for k, v in pos.items() if k != "turn"}, "phase": "draw-cards"}
    assert api.ask(drawn, {"ask": "discard", "faction": "pilgrims"}).figures["must-discard"] == 1


# --- legal at place-units; build without enough points ---------------------------------------


def test_legal_while_placing_units_offers_no_tactics() -> None:
    battle = {"units": {"humans": 3, "pilgrims": 4}, "battle": {"token": 1, "attacker": "pilgrims"}}
    pos = table("humans pilgrims", "battle-resolution", 1, step="place-units", regions={"example-battle": battle})
    assert "play-tactic" not in api.legal(pos, "pilgrims").figures["actions"]
    later = {**pos, "step": "play-tactics"}
    assert "play-tactic" in api.legal(later, "pilgrims").figures["actions"]


def test_build_without_enough_points_reports_what_is_missing() -> None:
    pos = table(
        "pilgrims machines",
        "actions",
        turn="pilgrims",
        regions={"example-a": {"units": {"pilgrims": 2}, "control": "pilgrims"}},
    )
    a = api.ask(
        pos, {"ask": "build", "faction": "pilgrims", "region": "example-a", "structure": "harvester", "points": 1}
    )
    assert a.verdict is False and "build-points" in said_no(a)
    assert a.figures["points-left"] == 0 and a.figures["points-missing"] == 1


def test_one_build_action_can_pay_for_two_structures() -> None:
    """`cost=` could not describe a second Structure (a Harvester's cost is fixed by the rules):
    `other-cost` is what the same action spends on other Structures, counted against the points."""
    pos = table(
        "pilgrims machines",
        "actions",
        turn="pilgrims",
        regions={"example-a": {"units": {"pilgrims": 2}, "control": "pilgrims"}},
    )
    q = {"ask": "build", "faction": "pilgrims", "region": "example-a", "structure": "harvester", "other-cost": 2}
    a = api.ask(pos, {**q, "points": 5})
    assert a.verdict is True and a.figures["points-left"] == 1
    a = api.ask(pos, {**q, "points": 3})
    assert a.verdict is False and a.figures["points-missing"] == 1
    assert "2 Build points" in a.question


# --- solo (seed 002) ------------------------------------------------------------------------


def _solo(**extra: Any) -> dict[str, Any]:
    return table("humans", "scoring", 5, variant="solo", **extra)


def test_solo_player_may_not_enter_an_outer_region() -> None:
    pos = table(
        "humans",
        "actions",
        1,
        variant="solo",
        turn="humans",
        regions={
            "example-hq": {
                "hq": "humans",
                "units": {"humans": 3},
                "control": "humans",
                "adjacent": ["sapos-deep", "example-b"],
            },
            "sapos-deep": {"outer": True, "adjacent": ["example-hq"]},
            "example-b": {"adjacent": ["example-hq"]},
        },
    )
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
    assert tie.figures["tie-broken-by"] == ["tiebreak-trogs"]
    assert {"solo-winner", "solo-tie-is-a-loss"} <= cited(tie) and "end-tiebreak" not in cited(tie)
    behind = api.ask(
        _solo(factions={"humans": {"vp": 25}, "trogs": {"vp": 30}}), {"ask": "winner", "faction": "humans"}
    )
    assert behind.verdict is False and behind.figures["winner"] == "trogs"
    ahead = api.ask(_solo(factions={"humans": {"vp": 26}, "trogs": {"vp": 25}}), {"ask": "winner", "faction": "humans"})
    assert ahead.verdict is True and ahead.figures["winner"] == "humans"


def test_neutral_trogs_never_win_the_base_game() -> None:
    pos = table(
        "humans pilgrims", "scoring", 5, factions={"humans": {"vp": 10}, "pilgrims": {"vp": 9}, "trogs": {"vp": 50}}
    )
    a = api.ask(pos, {"ask": "winner"})
    assert a.figures["winner"] == "humans" and "trogs" not in a.figures["ranking"]


def test_solo_trogs_play_desert_cards_in_any_terrain() -> None:
    battle = {"terrain": "mountains", "units": {"humans": 2, "trogs": 2}, "battle": {"token": 1, "attacker": "humans"}}
    pos = table("humans", "battle-resolution", variant="solo", regions={"example-a": battle})
    q = {"ask": "play-tactic", "region": "example-a", "card-terrain": "desert"}
    trogs = api.ask(pos, {**q, "faction": "trogs"})
    assert trogs.verdict is True and "solo-terrain-tactics" in cited(trogs) and trogs.overlay == "solo"
    assert api.ask(pos, {**q, "faction": "humans"}).verdict is False
    assert api.ask(pos, {**q, "faction": "trogs", "card-terrain": "ocean"}).verdict is False


# --- English answers: counts agree with nouns, plural possessives, no empty slots ----------------


def test_end_of_move_question_uses_the_plural_possessive() -> None:
    pos = table("humans pilgrims", "actions", 1, turn="humans", regions={"example-a": {"units": {"humans": 1}}})
    a = api.ask(pos, {"ask": "end-of-move", "faction": "humans", "region": "example-a"})
    assert "the Humans' Move" in a.question and "Humans's" not in a.question


def test_one_unit_goes_back() -> None:
    pos = table(
        "humans pilgrims",
        "actions",
        1,
        turn="humans",
        factions={"trogs": {"reserve": 0}},
        regions={"example-a": {"units": {"humans": 2}, "trog-token": "war-party"}},
    )
    text = render_text(api.ask(pos, {"ask": "end-of-move", "faction": "humans", "region": "example-a"}))
    text = " ".join(text.split())  # read across the lines it wraps in at a phone's width (issue 38)
    assert "1 Unit goes back to the Reserve" in text and "1 Unit go back" not in text


def test_solo_trog_lines_agree_with_their_counts() -> None:
    from havoc.games.cry_havoc.solo import trogs as decide_trogs

    pos = table(
        "humans",
        "actions",
        variant="solo",
        factions={"trogs": {"reserve": 1}},
        regions={
            "world-caverns": {"hq": "trogs", "units": {"trogs": 2}, "adjacent": ["example-a", "example-b"]},
            "example-a": {"adjacent": ["world-caverns", "example-x"]},
            "example-b": {"adjacent": ["world-caverns"]},
            "example-x": {"units": {"humans": 6}, "adjacent": ["example-a"]},
        },
    )
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


# --- the completeness gate: every rule is checked, or says why it is text only -------------------


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_check_counts_enforced_and_text_only_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from havoc.cli import main
    from havoc.engine import game, rulebook

    rs = rulebook.load("cry-havoc")
    covered = game.coverage(rs)
    assert not covered.problems
    assert len(covered.enforced) + len(covered.text_only) == len(rs.rules)
    assert all(rs.rules[rid].text_only for rid in covered.text_only)
    assert main(["check", "--ruleset", "cry-havoc"]) == 0
    out = capsys.readouterr().out
    assert f"{len(covered.enforced)} rules enforced, {len(covered.text_only)} text only (each with a reason)" in out
    assert main(["check", "--ruleset", "cry-havoc", "--text-only"]) == 0
    listed = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  text only: ")]
    assert len(listed) == len(covered.text_only)
    assert f"  text only: deck-reshuffle: {rs.rules['deck-reshuffle'].text_only}" in listed


def test_the_solo_rules_the_trog_engine_cites_exist() -> None:
    from havoc.engine import rulebook
    from havoc.games import cry_havoc

    rs = rulebook.load("cry-havoc")
    cited_by_engine = cry_havoc.mechanism_rules(rs)
    assert cited_by_engine and cited_by_engine <= set(rs.rules)


def _edit(path: Any, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_check_fails_on_a_rule_neither_checked_nor_text_only(
    rules_copy: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from havoc.cli import main

    round_file = rules_copy / "cry-havoc" / "sections" / "05-round.yaml"
    text = round_file.read_text(encoding="utf-8")
    start = text.index("  - id: round-end")
    line = next(ln for ln in text[start:].splitlines() if ln.strip().startswith("text-only:"))
    _edit(round_file, line + "\n", "")
    assert main(["check", "--ruleset", "cry-havoc"]) == 1
    assert "rule round-end: nothing checks it" in capsys.readouterr().err


def test_check_fails_on_a_checked_rule_marked_text_only(rules_copy: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from havoc.cli import main

    draw = rules_copy / "cry-havoc" / "sections" / "07-draw-cards.yaml"
    _edit(draw, "    title: Hand limit\n", "    title: Hand limit\n    text-only: not really\n")
    assert main(["check", "--ruleset", "cry-havoc"]) == 1
    assert "rule hand-limit: enforced by the assistant, but marked text-only" in capsys.readouterr().err


# --- property: nothing for a faction with no Units in the Region concerned -----------------------

BASE = ["humans", "pilgrims", "machines"]


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A 2-3 player position around example-a (with two neighbours) and an asking faction."""
    players = draw(st.lists(st.sampled_from(BASE), min_size=2, max_size=3, unique=True))
    everyone = [*players, "trogs"]
    units = draw(st.dictionaries(st.sampled_from(everyone), st.integers(0, 3), max_size=3))
    a: dict[str, Any] = {"units": units, "adjacent": ["example-b", "example-c"]}
    if draw(st.booleans()):
        a["control"] = draw(st.sampled_from(players))
    if draw(st.booleans()):
        a["battle"] = {"token": 1, "attacker": draw(st.sampled_from(everyone))}
    if draw(st.booleans()):
        a["trog-token"] = draw(st.sampled_from(["war-party", "nest"]))
    a["exploration"] = draw(st.booleans())
    a["crystals"] = draw(st.integers(0, 2))
    regions: dict[str, Any] = {"example-a": a}
    for rid in ("example-b", "example-c"):
        r: dict[str, Any] = {"adjacent": ["example-a"]}
        if draw(st.booleans()):
            r["control"] = draw(st.sampled_from(players))
        if draw(st.booleans()):
            r["battle"] = {"token": 2 if rid == "example-b" else 3, "attacker": draw(st.sampled_from(players))}
            r["units"] = {p: 1 for p in players[:2]}
        regions[rid] = r
    pos = table(" ".join(players), draw(st.sampled_from(["actions", "battle-resolution"])), regions=regions)
    return pos, draw(st.sampled_from(everyone))


def _try(pos: dict[str, Any], query: dict[str, Any]) -> Answer | None:
    from havoc.core.errors import InputError

    try:
        return api.ask(pos, query)
    except InputError:
        return None  # a question the position cannot ask is a located error, not an answer


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_nothing_for_a_faction_without_units_there(table: tuple[dict[str, Any], str]) -> None:
    pos, who = table
    region = pos["regions"]["example-a"]
    here = {f for f, n in region["units"].items() if n > 0}
    end = _try(pos, {"ask": "end-of-move", "faction": who, "region": "example-a"})
    if end is not None and who not in here:
        assert not end.figures["gains-control"] and not end.figures["places-battle-token"]
        assert not end.figures["reveals-exploration"] and not end.figures["reveals-trog-token"]
    if "battle" in region:
        fought = _try(pos, {"ask": "battle", "faction": who, "region": "example-a"})
        if fought is not None:
            winner = fought.figures.get("control-winner")
            assert not winner or winner in here
        sides = sorted(here)
        if len(sides) == 2:
            objectives = {s: {"control": region["units"][s], "prisoners": 0, "attrition": 0} for s in sides}
            full = _try(pos, {"ask": "battle", "faction": who, "region": "example-a", "objectives": objectives})
            if full is not None and full.verdict:
                assert full.figures["control-winner"] in here
                for fig in ("vp-gained", "prisoners-by", "kills-by", "retreated", "returned"):
                    assert all(f in here or not n for f, n in full.figures.get(fig, {}).items()), fig
        retreat = _try(pos, {"ask": "retreat", "faction": who, "from": "example-a"})
        if retreat is not None:
            assert not {d for d in retreat.figures["destinations"] if "battle" in pos["regions"][d]}


# --- the questions that could not be asked ------------------------------------------------------


def test_buy_back_decisions_go_in_initiative_order() -> None:
    pos = table(
        "humans pilgrims machines",
        "prisoners",
        initiative=["machines", "pilgrims", "humans"],
        factions={
            "pilgrims": {"vp": 4},
            "humans": {"vp": 4, "prisoners": {"pilgrims": 1}},
            "machines": {"prisoners": {"humans": 1}},
        },
    )
    for who, turn in (("machines", 1), ("pilgrims", 2), ("humans", 3)):
        a = api.ask(pos, {"ask": "prisoners", "faction": who, "units": 0 if who == "machines" else 1})
        assert a.figures["buy-back-turn"] == turn and "prisoners-buy-back-order" in cited(a)
    unknown = {k: v for k, v in pos.items() if k != "initiative"}
    a = api.ask(unknown, {"ask": "prisoners", "faction": "pilgrims", "units": 1})
    assert a.verdict is True and "buy-back-turn" not in a.figures


def test_solo_end_of_move_on_a_nest_brings_trogs_from_the_hq() -> None:
    """002 lines 93-96: in the solo variant the Trogs who fight on a Nest come from their HQ."""
    pos = table(
        "humans",
        "actions",
        variant="solo",
        turn="humans",
        factions={"trogs": {"reserve": 0}},
        regions={
            "world-caverns": {"hq": "trogs", "units": {"trogs": 4}},
            "example-a": {"units": {"humans": 2}, "trog-token": "nest"},
        },
    )
    a = api.ask(pos, {"ask": "end-of-move", "faction": "humans", "region": "example-a"})
    assert a.figures["trogs-from-hq"] is True and a.figures["places-battle-token"] is True
    assert a.figures["units-lost"] == 0 and "solo-war-party" in cited(a) and a.overlay == "solo"
    assert "Trog HQ" in render_text(a)
    base = {
        **{k: v for k, v in pos.items() if k != "variant"},
        "players": ["humans", "pilgrims"],
        "regions": {"example-a": pos["regions"]["example-a"]},
    }
    b = api.ask(base, {"ask": "end-of-move", "faction": "humans", "region": "example-a"})
    assert "trogs-from-hq" not in b.figures and b.figures["units-lost"] == 1


def test_solo_trogs_take_a_turn_and_go_first_on_the_initiative_track() -> None:
    """002 line 56: the solo Trogs always choose to go first; a solo position may say so."""
    from havoc.core.errors import InputError
    from havoc.games.cry_havoc.solo import trogs as decide_trogs

    pos = table(
        "humans",
        "actions",
        variant="solo",
        turn="trogs",
        initiative=["humans", "trogs"],
        upcoming_initiative=["humans", "trogs"],
        regions={"world-caverns": {"hq": "trogs", "units": {"trogs": 2}}},
    )
    d = decide_trogs(pos, {"decide": "initiative"})
    assert d.choice == "1" and d.figures["upcoming-order"] == ["trogs", "humans"]
    assert d.rule == "solo-trog-turn-order"
    base = {**{k: v for k, v in pos.items() if k not in ("variant", "regions")}, "players": ["humans", "pilgrims"]}
    with pytest.raises(InputError, match="turn"):
        api.legal(base, "humans")


def _event_table(vp: int, crystals: int, events: list[dict[str, int]]) -> dict[str, Any]:
    return table(
        "pilgrims humans",
        "scoring",
        scoring={"enabled-by": "pilgrims", "events": events},
        factions={"pilgrims": {"vp": vp}},
        regions={"example-a": {"control": "pilgrims", "crystals": crystals, "units": {"pilgrims": 1}}},
    )


def test_a_score_token_moves_the_event_stacks_it_passes() -> None:
    """003 "6. Punktowanie": a passed unresolved Event goes on top of the next stack at once."""
    # 12 + 1 (Region) + 5 (Crystals) = 18: past 15 and 17; the token stops on nothing.
    pos = _event_table(12, 5, [{"at": 15}, {"at": 17, "tokens": 2}, {"at": 25}])
    a = api.ask(pos, {"ask": "score", "faction": "pilgrims"})
    assert a.figures["total-vp"]["pilgrims"] == 18
    assert a.figures["events-moved"] == [{"from": 15, "to": 17, "tokens": 1}, {"from": 17, "to": 25, "tokens": 3}]
    assert "events-passed" in cited(a)
    stop = api.ask(_event_table(12, 2, [{"at": 15}, {"at": 25}]), {"ask": "score", "faction": "pilgrims"})
    assert stop.figures["total-vp"]["pilgrims"] == 15 and stop.figures["events-moved"] == []
    last = api.ask(_event_table(30, 5, [{"at": 33}]), {"ask": "score", "faction": "pilgrims"})
    assert last.figures["events-moved"] == [{"from": 33, "to": None, "tokens": 1}]
    assert "does not say where the last stack goes" in render_text(last)
    plain = api.ask(
        {k: v for k, v in pos.items() if k != "scoring"} | {"scoring": {"enabled-by": "pilgrims"}},
        {"ask": "score", "faction": "pilgrims"},
    )
    assert "events-moved" not in plain.figures and "events-passed" not in cited(plain)


def test_event_stacks_are_checked_when_a_position_is_read() -> None:
    from havoc.core.errors import Code, InputError

    with pytest.raises(InputError, match=r"scoring\.events") as info:  # two Event stacks on one spot
        api.ask(_event_table(12, 5, [{"at": 15}, {"at": 15}]), {"ask": "score", "faction": "pilgrims"})
    assert [p.code for p in info.value.problems] == [Code.POSITION_INVALID]
    with pytest.raises(InputError, match="found 50") as info:  # the Score track has spots 0 to 49
        api.ask(_event_table(12, 5, [{"at": 50}]), {"ask": "score", "faction": "pilgrims"})
    assert [p.code for p in info.value.problems] == [Code.FIELD_VALUE]


def test_the_trog_player_retreats_by_the_general_rules_and_says_so() -> None:
    pos = table(
        "humans pilgrims machines trogs",
        "battle-resolution",
        regions={
            "example-battle": {
                "units": {"humans": 3, "trogs": 2},
                "control": "humans",
                "battle": {"token": 1, "attacker": "trogs"},
                "adjacent": ["example-b"],
            },
            "example-b": {"control": "pilgrims", "adjacent": ["example-battle"]},
        },
    )
    a = api.ask(pos, {"ask": "retreat", "faction": "trogs", "from": "example-battle"})
    assert a.figures["to-reserve"] is True and "places-nest" not in a.figures
    assert {"trogs-retreat", "retreat-to-reserve"} <= cited(a)
    assert "neutral-trogs-retreat" not in cited(a)
