"""Positions: every impossible or malformed position gets a located error naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import stored_examples

from havoc.core.errors import InputError
from havoc.engine import rulebook
from havoc.games.cry_havoc import position_read
from havoc.games.cry_havoc.position import position_schema
from havoc.games.cry_havoc.position_read import parse_text

GOOD = """\
players: [humans, pilgrims]
round: 2
phase: actions
action-round: 1
turn: humans
initiative: [humans, pilgrims]
scoring: {enabled-by: pilgrims}
factions:
  humans: {vp: 4, reserve: 2, hand: 5, skills: {scouting: ready}, prisoners: {pilgrims: 1}}
  pilgrims: {vp: 3, controlled-at-action-start: [scorch]}
regions:
  foglands:
    terrain: jungle
    adjacent: [scorch]
    units: {humans: 8, pilgrims: 3}
    control: humans
    crystals: 1
    battle: {token: 1, attacker: pilgrims}
    structures: [{type: artillery, owner: humans}]
  scorch: {adjacent: [foglands], hq: pilgrims, control: pilgrims, units: {pilgrims: 2}, tunnel: true}
  camerons-sea: {outer: true, trog-token: nest, exploration: true}
"""


def _errors(text: str) -> list[str]:
    rs = rulebook.load()
    with pytest.raises(InputError) as caught:
        parse_text(text, rs, "pos.yaml")
    return [str(p) for p in caught.value.problems]


def test_good_position_reads_into_the_model() -> None:
    pos = parse_text(GOOD, rulebook.load(), "pos.yaml")
    assert pos.players == ("humans", "pilgrims")
    fog = pos.regions["foglands"]
    assert fog.units == {"humans": 8, "pilgrims": 3}
    assert fog.battle is not None and fog.battle.attacker == "pilgrims"
    assert fog.defender() == "humans"
    assert fog.neighbours == {"scorch"} and pos.regions["scorch"].neighbours == {"foglands"}
    assert pos.scoring_enabled_by == "pilgrims"
    assert pos.faction("humans").prisoners == {"pilgrims": 1}
    assert pos.hq_of("pilgrims") is pos.regions["scorch"]


def test_partial_position_is_fine() -> None:
    pos = parse_text("players: [machines, humans]\n", rulebook.load())
    assert pos.regions == {} and pos.phase == "actions"


def test_reserve_is_derived_from_the_units_per_faction_parameter() -> None:
    rs = rulebook.load()
    pos = parse_text(GOOD, rs, "pos.yaml")
    # The Pilgrims list no Reserve: 12 owned − 5 on the board − 1 held by the Humans.
    assert pos.reserve("pilgrims") == int(rs.param("units-per-faction")) - 5 - 1
    assert pos.reserve("humans") == 2


def _with(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


CASES = [
    # (case, position text, expected fragment of one error, including file:line)
    (
        "negative-count",
        _with("units: {humans: 8, pilgrims: 3}", "units: {humans: -1, pilgrims: 3}"),
        "pos.yaml:15: regions.foglands.units.humans: expected a whole number ≥ 0, found -1",
    ),
    (
        "unknown-faction",
        _with("units: {humans: 8, pilgrims: 3}", "units: {humans: 8, pilgrim: 3}"),
        "regions.foglands.units.pilgrim: unknown name 'pilgrim'; expected an ID or one of the names humans, pilgrims, machines, trogs (did you mean 'pilgrims'?)",
    ),
    (
        "unknown-player",
        _with("players: [humans, pilgrims]", "players: [humans, elves]"),
        "pos.yaml:1: players[1]: unknown name 'elves'; expected an ID or one of the names humans, pilgrims, machines, trogs",
    ),
    (
        "faction-not-playing",
        _with("control: humans\n    crystals", "control: machines\n    crystals"),
        "regions.foglands.control: no Machines among the players (Humans, Pilgrims)",
    ),
    (
        "unknown-field",
        _with("    terrain: jungle", "    terain: jungle"),
        "pos.yaml:13: regions.foglands: unknown field 'terain' (did you mean 'terrain'?)",
    ),
    ("unknown-top-field", _with("round: 2", "rund: 2"), "pos.yaml:2: unknown field 'rund' (did you mean 'round'?)"),
    (
        "unknown-region-ref",
        _with("adjacent: [scorch]", "adjacent: [scorchh]"),
        "regions.foglands.adjacent[0]: unknown Region 'scorchh'; list it under regions (did you mean 'scorch'?)",
    ),
    (
        "unknown-region-in-faction",
        _with("controlled-at-action-start: [scorch]", "controlled-at-action-start: [nowhere]"),
        "factions.pilgrims.controlled-at-action-start[0]: unknown Region 'nowhere'",
    ),
    (
        "too-many-units",
        _with("units: {humans: 8, pilgrims: 3}", "units: {humans: 11, pilgrims: 3}"),
        "factions.humans.reserve: the Humans own 12 Units, found 13 (11 on the board, 0 held as prisoners, 2 in the Reserve)",
    ),
    (
        "too-many-units-prisoners",
        _with("prisoners: {pilgrims: 1}", "prisoners: {pilgrims: 8}"),
        "the Pilgrims own 12 Units, found 13 (5 on the board, 8 held as prisoners)",
    ),
    (
        "battle-one-side",
        _with("units: {humans: 8, pilgrims: 3}", "units: {humans: 8}"),
        "regions.foglands.battle: a Battle token needs Units of two sides in the Region, found humans",
    ),
    (
        "battle-attacker-absent",
        _with("attacker: pilgrims", "attacker: humans").replace(
            "units: {humans: 8, pilgrims: 3}", "units: {humans: 8, pilgrims: 3}"
        ),
        "",
    ),  # humans attacking pilgrims is possible; checked below as a non-error
    (
        "crystal-in-hq",
        _with("hq: pilgrims, control: pilgrims", "hq: pilgrims, crystals: 2, control: pilgrims"),
        "regions.scorch.crystals: an HQ Region never holds Crystals",
    ),
    (
        "action-round",
        _with("action-round: 1", "action-round: 4"),
        "pos.yaml:4: action-round: expected an action round from 1 to 3, found 4",
    ),
    (
        "action-round-zero",
        _with("action-round: 1", "action-round: 0"),
        "action-round: expected a whole number ≥ 1, found 0",
    ),
    ("round", _with("round: 2", "round: 6"), "round: expected a round from 1 to 5, found 6"),
    ("wrong-type", _with("round: 2", "round: two"), "pos.yaml:2: round: expected a whole number ≥ 1, found 'two'"),
    ("bool-type", _with("tunnel: true", "tunnel: 1"), "regions.scorch.tunnel: expected true or false, found 1"),
    (
        "phase",
        _with("phase: actions", "phase: action"),
        "phase: unknown name 'action'; expected an ID or one of the names Events phase (events), Draw Cards phase (draw-cards), "
        "Actions phase (actions), Battle Resolution phase (battle-resolution), Prisoners phase (prisoners), "
        "Scoring phase (scoring) (did you mean 'Actions phase'?)",
    ),
    (
        "step-of-phase",
        _with("phase: actions", "phase: actions\nstep: buy-back"),
        "step: not a step of the Actions phase",
    ),
    ("turn", _with("turn: humans", "turn: machines"), "turn: no Machines among the players"),
    (
        "initiative",
        _with("initiative: [humans, pilgrims]", "initiative: [humans, humans]"),
        "initiative: expected each player once",
    ),
    (
        "two-hqs",
        _with("    crystals: 1\n", "    crystals: 1\n    hq: pilgrims\n"),
        "the Pilgrims HQ is already in Foglands (foglands)",
    ),
    (
        "own-prisoner",
        _with("prisoners: {pilgrims: 1}", "prisoners: {humans: 1}"),
        "a faction cannot hold its own Units as prisoners",
    ),
    (
        "structure-twice",
        _with(
            "structures: [{type: artillery, owner: humans}]",
            "structures: [{type: artillery, owner: humans}, {type: artillery, owner: humans}]",
        ),
        "only one Structure of a type may stand in a Region",
    ),
    (
        "structure-in-hq",
        _with(
            "hq: pilgrims, control: pilgrims",
            "hq: pilgrims, structures: [{type: harvester, owner: pilgrims}], control: pilgrims",
        ),
        "regions.scorch.structures: no Structure can stand in an HQ Region",
    ),
    (
        "neutral-trog-control",
        _with("trog-token: nest", "trog-token: nest, control: trogs"),
        "neutral Trogs never hold Control",
    ),
    (
        "trogs-not-in-3p",
        _with("players: [humans, pilgrims]", "players: [humans, pilgrims, trogs]"),
        "the Trogs are a player faction only in a 4-player game",
    ),
    (
        "battle-token-range",
        _with("token: 1", "token: 9"),
        "regions.foglands.battle.token: expected a Battle token from 1 to 8, found 9",
    ),
    ("missing-players", GOOD.replace("players: [humans, pilgrims]\n", ""), "players: required, but not given"),
    (
        "trog-token",
        _with("trog-token: nest", "trog-token: horde"),
        "regions.camerons-sea.trog-token: unknown name 'horde'; expected an ID or one of the names Trog War Party (war-party), Trog Nest (nest)",
    ),
    (
        "bad-region-id",
        _with("  camerons-sea:", "  ???:"),  # neither an ID nor a name
        "pos.yaml:21: regions.???: unknown name '???'; expected an ID or one of the names "
        "foglands, feralas-banks, sapos-deep, scorch, Cameron's Sea (camerons-sea), world-caverns",
    ),
    (
        "variant",
        _with("round: 2", "round: 2\nvariant: sollo"),
        "variant: unknown variant 'sollo'; expected one of Solo variant (fan-made) (solo) (did you mean 'solo'?)",
    ),
]


@pytest.mark.parametrize(("case", "text", "fragment"), [c for c in CASES if c[2]], ids=[c[0] for c in CASES if c[2]])
def test_bad_position_is_located(case: str, text: str, fragment: str) -> None:
    errors = _errors(text)
    assert any(fragment in e for e in errors), f"{case}: {fragment!r} not in {errors}"
    assert all(e.startswith("pos.yaml") for e in errors)


def test_attacker_may_be_either_side() -> None:
    parse_text(_with("attacker: pilgrims", "attacker: humans"), rulebook.load(), "pos.yaml")


def test_one_side_gone_is_allowed_at_battle_resolution() -> None:
    text = _with("units: {humans: 8, pilgrims: 3}", "units: {pilgrims: 3}").replace(
        "phase: actions", "phase: battle-resolution"
    )
    pos = parse_text(text, rulebook.load(), "pos.yaml")
    assert pos.regions["foglands"].sides() == ["pilgrims"]


def test_all_problems_are_reported_at_once() -> None:
    text = _with("round: 2", "round: -2").replace("units: {humans: 8, pilgrims: 3}", "units: {humans: x, pilgrims: 3}")
    errors = _errors(text)
    assert any("round" in e for e in errors) and any("units.humans" in e for e in errors)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("players: [humans\n", "pos.yaml:2: not valid YAML"),
        ("a: &x [1]\nb: *x\n", "anchors and aliases"),
        ("- just\n- a list\n", "expected a mapping, found a list"),
        ("players: [humans, pilgrims]\nplayers: [humans]\n", "duplicate key 'players'"),
        ("", "expected a mapping, found nothing"),
    ],
)
def test_malformed_text(text: str, fragment: str) -> None:
    errors = _errors(text)
    assert any(fragment in e for e in errors), errors


def test_alias_bomb_is_refused() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    assert any("aliases" in e for e in _errors(bomb))


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("players: [humans, pilgrims]\n" + "# padding\n" * 200_000)
    with pytest.raises(InputError) as caught:
        position_read.load(path, rulebook.load())
    assert "limit" in str(caught.value)


def test_json_positions_are_read_with_lines() -> None:
    data = json.loads(
        json.dumps({"players": ["humans", "pilgrims"], "regions": {"a": {"units": {"humans": -3}}}}, indent=1)
    )
    text = json.dumps(data, indent=1)
    errors = _errors(text)
    assert any(e.startswith("pos.yaml:") and "regions.a.units.humans" in e for e in errors), errors


def test_plain_mapping_input_has_no_lines() -> None:
    with pytest.raises(InputError) as caught:
        position_read.parse({"players": ["humans", "pilgrims"], "round": 0}, rulebook.load(), "api")
    assert str(caught.value.problems[0]) == "api: round: expected a whole number ≥ 1, found 0"


def test_limits_follow_the_parameters(rules_copy: Path) -> None:
    """The unit limit is the rules' parameter, not a number in Python."""
    comp = rules_copy / "cry-havoc/sections/02-components.yaml"
    comp.write_text(comp.read_text().replace("units-per-faction: {value: 12", "units-per-faction: {value: 14"))
    rs = rulebook.load()
    text = _with("units: {humans: 8, pilgrims: 3}", "units: {humans: 11, pilgrims: 3}")
    assert parse_text(text, rs, "pos.yaml").regions["foglands"].units["humans"] == 11


def test_schema_is_generated_from_the_same_table() -> None:
    schema = position_schema(rulebook.load())
    props = schema["properties"]
    assert schema["required"] == ["players"]
    assert props["action-round"]["maximum"] == 3 and props["round"]["maximum"] == 5
    region = props["regions"]["additionalProperties"]
    assert region["additionalProperties"] is False
    assert set(region["properties"]) >= {
        "terrain",
        "adjacent",
        "outer",
        "hq",
        "tunnel",
        "units",
        "control",
        "crystals",
        "battle",
        "structures",
        "trog-token",
        "exploration",
    }
    assert region["properties"]["units"]["properties"]["humans"]["minimum"] == 0
    assert set(props["factions"]["properties"]["humans"]["properties"]) >= {
        "vp",
        "reserve",
        "prisoners",
        "skills",
        "hand",
        "passed",
        "controlled-at-action-start",
    }
    assert "maximum" not in position_schema()["properties"]["round"]


def test_every_example_position_matches_the_schema() -> None:
    """The published schema accepts what the validator accepts (checked on the stored examples)."""
    schema = position_schema(rulebook.load())
    for ex in stored_examples.examples(extra=None):  # the solo Trogs' tables are positions too
        _conforms(ex.position, schema, ex.id)


def _conforms(value: object, schema: dict[str, object], where: str) -> None:
    """A tiny JSON Schema walker for the keywords the generator uses."""
    kind = schema.get("type")
    if kind == "object":
        assert isinstance(value, dict), where
        props = schema.get("properties", {})
        assert isinstance(props, dict)
        for key, item in value.items():
            if key in props:
                _conforms(item, props[key], f"{where}.{key}")
            else:
                extra = schema.get("additionalProperties")
                assert extra not in (False, None), f"{where}: {key} not allowed"
                if isinstance(extra, dict):
                    _conforms(item, extra, f"{where}.{key}")
    elif kind == "array":
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            _conforms(item, schema["items"], f"{where}[{i}]")  # type: ignore[arg-type]
    elif kind == "integer":
        assert isinstance(value, int) and value >= schema.get("minimum", 0), where  # type: ignore[operator]
    elif kind == "boolean":
        assert isinstance(value, bool), where
    elif kind == "string":
        assert isinstance(value, str), where
        if "enum" in schema:
            assert value in schema["enum"], where  # type: ignore[operator]


MANY_WRONG = {
    "players": ["humans", "pilgrims"],
    "factions": {
        "humans": {"prisoners": {"humans": 1, "machines": 2, "pilgrims": 12}, "reserve": 20},
        "machines": {"vp": 1},
    },
    "regions": {
        "r-a": {
            "adjacent": ["r-a", "nowhere", "r-b"],
            "units": {"machines": 1, "humans": 2},
            "control": "machines",
            "outer": True,
            "terrain": "jungle",
            "hq": "machines",
            "crystals": 1,
            "structures": [{"type": "harvester", "owner": "machines"}, {"type": "harvester", "owner": "humans"}],
            "battle": {"token": 1, "attacker": "machines"},
        },
        "r-b": {
            "adjacent": ["r-a", "elsewhere", "r-b"],
            "units": {"trogs": 1, "pilgrims": 3},
            "control": "trogs",
            "hq": "humans",
            "battle": {"token": 1, "attacker": "humans"},
        },
        "r-c": {"adjacent": ["r-b"], "units": {"humans": 1}, "hq": "humans", "control": "humans"},
    },
}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_table_with_every_kind_of_problem_lists_them_all_in_order(lang: str) -> None:
    """Every check that needs more than one field, each failing once or twice on one table: the
    checks skip a Region with nothing to say (no HQ, no Battle, neighbours all listed), and the
    list is the one the full checks gave before they did (the same problems, the same order)."""
    from havoc.language.i18n import set_message_language

    rs = rulebook.load()
    set_message_language(lang)
    try:
        with pytest.raises(InputError) as caught:
            position_read.parse(MANY_WRONG, rs)
    finally:
        set_message_language("en")
    assert [p.message for p in caught.value.problems] == (MANY_EN if lang == "en" else MANY_PL)


MANY_EN = [
    "factions.humans.prisoners.humans: a faction cannot hold its own Units as prisoners",
    "factions.humans.prisoners.machines: no Machines among the players (Humans, Pilgrims)",
    "factions.machines: no Machines among the players (Humans, Pilgrims)",
    "regions.r-a.adjacent[0]: a Region is not adjacent to itself",
    "regions.r-a.adjacent[1]: unknown Region 'nowhere'; list it under regions",
    "regions.r-a.units.machines: no Machines among the players (Humans, Pilgrims)",
    "regions.r-a.control: no Machines among the players (Humans, Pilgrims)",
    "regions.r-a.terrain: an outer Region has no terrain; leave terrain out or outer false",
    "regions.r-a.hq: no Machines among the players (Humans, Pilgrims)",
    "regions.r-a.crystals: an HQ Region never holds Crystals; expected 0 or no field",
    "regions.r-a.structures: no Structure can stand in an HQ Region",
    "regions.r-a.structures[0].owner: no Machines among the players (Humans, Pilgrims)",
    "regions.r-a.structures[1]: a second Harvester (harvester): only one Structure of a type may stand in a Region",
    "regions.r-a.battle.attacker: no Machines among the players (Humans, Pilgrims)",
    "regions.r-b.adjacent[1]: unknown Region 'elsewhere'; list it under regions",
    "regions.r-b.adjacent[2]: a Region is not adjacent to itself",
    "regions.r-b.control: neutral Trogs never hold Control (they leave a Trog Nest token instead)",
    "regions.r-b.battle.attacker: the attacker must have Units in the Region (pilgrims, trogs)",
    "regions.r-b.battle.token: Battle token 1 is already on Region r-a",
    "regions.r-c.hq: the Humans HQ is already in Region r-b",
    "factions.humans.reserve: the Humans own 12 Units, found 23 (3 on the board, 0 held as prisoners, 20 in the Reserve)",
    "regions.r-b.units.pilgrims: the Pilgrims own 12 Units, found 15 (3 on the board, 12 held as prisoners)",
]
MANY_PL = [
    "factions.humans.prisoners.humans: Frakcja nie może trzymać własnych Oddziałów jako Jeńców",
    "factions.humans.prisoners.machines: Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)",
    "factions.machines: Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)",
    "regions.r-a.adjacent[0]: Region nie sąsiaduje sam ze sobą",
    "regions.r-a.adjacent[1]: nieznany Region 'nowhere'; dopisz go w polu Regiony (regions)",
    "regions.r-a.units.machines: Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)",
    "regions.r-a.control: Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)",
    "regions.r-a.terrain: Region zewnętrzny nie ma Terenu; pomiń pole Teren (terrain) albo ustaw pole zewnętrzny (outer) na false",
    "regions.r-a.hq: Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)",
    "regions.r-a.crystals: w Regionie ze Sztabem nigdy nie ma Kryształów; oczekiwano 0 albo braku pola",
    "regions.r-a.structures: w Regionie ze Sztabem nie może stać żadna Budowla",
    "regions.r-a.structures[0].owner: Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)",
    "regions.r-a.structures[1]: Żniwiarka (harvester) po raz drugi: w Regionie może stać tylko jedna Budowla danego typu",
    "regions.r-a.battle.attacker: Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)",
    "regions.r-b.adjacent[1]: nieznany Region 'elsewhere'; dopisz go w polu Regiony (regions)",
    "regions.r-b.adjacent[2]: Region nie sąsiaduje sam ze sobą",
    "regions.r-b.control: neutralne Trogi nigdy nie mają Kontroli (zamiast tego zostawiają żeton Siedliska Trogów)",
    "regions.r-b.battle.attacker: Agresor musi mieć Oddziały w Regionie (pilgrims, trogs)",
    "regions.r-b.battle.token: żeton Bitwy 1 leży już w Regionie r-a",
    "regions.r-c.hq: Sztab Ludzi jest już w Regionie r-b",
    "factions.humans.reserve: Ludzie mają łącznie Oddziały w liczbie 12, znaleziono 23 (3 na planszy, 0 w niewoli, 20 w Rezerwie)",
    "regions.r-b.units.pilgrims: Pielgrzymi mają łącznie Oddziały w liczbie 12, znaleziono 15 (3 na planszy, 12 w niewoli)",
]


def test_many_unknown_regions_get_a_near_name_in_the_first_problems_only() -> None:
    """A near Region is looked for among all of a table's Regions; in each of thousands of problems
    it once cost a 256 KiB table a minute of CPU. The first problems still offer one."""
    regions = {f"zone-{i}": {"adjacent": [f"zone-{i}x"]} for i in range(40)}
    with pytest.raises(InputError) as caught:
        position_read.parse({"players": ["humans", "pilgrims"], "regions": regions}, rulebook.load())
    said = [str(p) for p in caught.value.problems]
    assert len(said) == 40 and "(did you mean 'zone-0'?)" in said[0]
    assert all("unknown Region" in s for s in said) and not any("did you mean" in s for s in said[25:])
