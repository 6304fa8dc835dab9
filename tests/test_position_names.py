"""A table written with names (a Polish player's "Mgielnia:", "Ludzie", "faza Akcji") reads as the
same table in IDs, and so gets the same answers; a name that names nothing or two things is a
located error in the asker's language, naming the field and the names it may be."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import stored_examples
import yaml

from havoc.assistant import api, webapi
from havoc.core.errors import InputError
from havoc.engine import rulebook
from havoc.formats.spec import plain
from havoc.games.cry_havoc import position, position_read, words
from havoc.games.cry_havoc.query import parse_query
from havoc.games.cry_havoc.ui import fold, set_message_language
from havoc.language.grammar import noun

FIXTURES = Path(__file__).parent / "fixtures" / "assistant"

IDS = """\
players: [humans, pilgrims]
phase: actions
step: before-action
turn: humans
initiative: [pilgrims, humans]
factions:
  humans: {vp: 2, skills: {scouting: ready}, prisoners: {pilgrims: 1}, controlled-at-action-start: [foglands]}
regions:
  foglands:
    terrain: mountains
    adjacent: [scorch, sapos-deep, example-a]
    units: {humans: 3, pilgrims: 1}
    control: humans
    structures: [{type: harvester, owner: humans}]
  scorch: {adjacent: [foglands], hq: pilgrims, units: {pilgrims: 2}}
  sapos-deep: {adjacent: [foglands], trog-token: war-party}
  example-a: {adjacent: [foglands], terrain: ocean}
"""

# The same table as a Polish player writes it, the words typed as they come (case, no diacritics).
POLISH = """\
players: [Ludzie, pielgrzymi]
phase: faza Akcji
step: przed Akcją
turn: LUDZIE
initiative: [Pielgrzymi, Ludzie]
factions:
  Ludzie: {vp: 2, skills: {Zwiad: gotowa}, prisoners: {Pielgrzymi: 1}, controlled-at-action-start: [mgielnia]}
regions:
  Mgielnia:
    terrain: Góry
    adjacent: [Pogorzelisko, Glebia Sapos, Region A]
    units: {Ludzie: 3, Pielgrzymi: 1}
    control: Ludzie
    structures: [{type: Żniwiarka, owner: ludzie}]
  Pogorzelisko: {adjacent: [MGIELNIA], hq: Pielgrzymi, units: {Pielgrzymi: 2}}
  Głębia Sapos: {adjacent: [Mgielnia], trog-token: Horda Trogów}
  Region A: {adjacent: [foglands], terrain: Ocean}
"""


@pytest.fixture(scope="module")
def rs() -> Any:
    return rulebook.load()


def _same(a: position.Position, b: position.Position) -> None:
    b.name = a.name
    assert a == b


def test_a_polish_table_reads_as_the_table_in_ids(rs: Any) -> None:
    _same(position_read.parse_text(IDS, rs), position_read.parse_text(POLISH, rs))


def test_names_and_ids_mix(rs: Any) -> None:
    mixed = POLISH.replace("  Pogorzelisko: {adjacent: [MGIELNIA]", "  scorch: {adjacent: [foglands]").replace(
        "players: [Ludzie, pielgrzymi]", "players: [humans, Pielgrzymi]"
    )
    _same(position_read.parse_text(IDS, rs), position_read.parse_text(mixed, rs))


def test_the_ask_page_words_are_names_too(rs: Any) -> None:
    """The form's phase list says "Akcje" (site catalog): a pasted table may too."""
    _same(position_read.parse_text(IDS, rs), position_read.parse_text(POLISH.replace("faza Akcji", "Akcje"), rs))


def test_a_name_of_ones_own_is_folded_as_the_form_folds_it(rs: Any) -> None:
    text = IDS + "  Północ: {adjacent: [example-a]}\n"
    pos = position_read.parse_text(
        text.replace("example-a: {adjacent: [foglands]", "example-a: {adjacent: [polnoc]"), rs
    )
    assert pos.regions["polnoc"].neighbours == {"example-a"}
    assert fold("Głębia Sapos") == "glebia-sapos" and fold("sapos-deep") == "sapos-deep"


# --- every stored example and fixture, in Polish names ------------------------------------------


def _pl(what: str, key: str, i: int = 0) -> str:
    """``key``'s Polish name, typed three ways in turn: as written, in capitals, folded."""
    known, lettered = words.NAMED[what]
    if key in known:
        name = str(noun(known[key], "pl"))
    elif lettered and key.startswith("example-") and len(key) == len("example-a"):
        name = str(noun(lettered, "pl", letter=key[-1].upper()))
    else:
        return key  # a player's own ID stays as it is (a table may mix IDs and names)
    return (name, name.upper(), fold(name).replace("-", " "))[i % 3]


def polish(data: dict[str, Any]) -> dict[str, Any]:
    """A position with every name a Polish player would write instead of its ID."""

    def f(x: str, i: int = 0) -> str:
        return _pl("factions", x, i)

    def r(x: str, i: int = 0) -> str:
        return _pl("regions", x, i)

    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("players", "initiative", "upcoming-initiative"):
            value = [f(x, i) for i, x in enumerate(value)]
        elif key in ("turn",):
            value = f(value, 1)
        elif key == "phase":
            value = _pl("phases", value)
        elif key == "step":
            value = _pl("steps", value, 1)
        elif key == "scoring" and "enabled-by" in value:
            value = {**value, "enabled-by": f(value["enabled-by"], 2)}
        elif key == "factions":
            value = {f(k): _faction_state(v) for k, v in value.items()}
        elif key == "regions":
            value = {r(k): _region(v) for k, v in value.items()}
        out[key] = value
    return out


def _faction_state(state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    if "prisoners" in out:
        out["prisoners"] = {_pl("factions", k, 1): v for k, v in out["prisoners"].items()}
    if "skills" in out:
        out["skills"] = {_pl("skills", k, 1): _pl("skill-states", v, 2) for k, v in out["skills"].items()}
    if "controlled-at-action-start" in out:
        out["controlled-at-action-start"] = [_pl("regions", x, 2) for x in out["controlled-at-action-start"]]
    return out


def _region(region: dict[str, Any]) -> dict[str, Any]:
    out = dict(region)
    for key in ("hq", "control"):
        if key in out:
            out[key] = _pl("factions", out[key], 2)
    if "terrain" in out:
        out["terrain"] = _pl("terrains", out["terrain"], 1)
    if "trog-token" in out:
        out["trog-token"] = _pl("trog-tokens", out["trog-token"])
    if "adjacent" in out:
        out["adjacent"] = [_pl("regions", x, i + 1) for i, x in enumerate(out["adjacent"])]
    if "units" in out:
        out["units"] = {_pl("factions", k, i): v for i, (k, v) in enumerate(out["units"].items())}
    if "battle" in out:
        out["battle"] = {**out["battle"], "attacker": _pl("factions", out["battle"]["attacker"], 1)}
    if "structures" in out:
        out["structures"] = [
            # (folded, "zniwiarka" would be an ID: a Structure of one's own, as in a table in IDs)
            {"type": _pl("structures", s["type"], 1), "owner": _pl("factions", s["owner"])}
            for s in out["structures"]
        ]
    return out


def test_every_stored_example_in_polish_names_answers_the_same(rs: Any) -> None:
    from havoc.engine.interpreter.answer import render_text

    checked = 0
    for ex in stored_examples.examples(rs):
        data = plain(ex.position)
        named = polish(data)
        pos, pos_pl = position_read.parse(data, rs, ex.id), position_read.parse(named, rs, ex.id)
        _same(pos, pos_pl)
        for lang in ("en", "pl"):
            a = api.answer_for(rs, pos, parse_query(ex.query, pos, ex.id), lang)
            b = api.answer_for(rs, pos_pl, parse_query(ex.query, pos_pl, ex.id), lang)
            assert a.to_dict() == b.to_dict(), ex.id
            assert render_text(a, explain=True) == render_text(b, explain=True), ex.id
        checked += 1
    assert checked >= 60


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*.yaml")))
def test_fixture_tables_in_polish_names_answer_the_same(rs: Any, fixture: str, tmp_path: Path) -> None:
    data = yaml.safe_load((FIXTURES / fixture).read_text(encoding="utf-8"))
    named = polish(data)
    assert named != data
    path = tmp_path / fixture  # a file, read by the CLI's loader (with lines)
    path.write_text(yaml.safe_dump(named, allow_unicode=True), encoding="utf-8")
    pos, pos_pl = api.load_position(FIXTURES / fixture, rs), api.load_position(path, rs)
    _same(pos, pos_pl)
    for faction in pos.players:
        for lang in ("en", "pl"):
            q = {"ask": "legal", "faction": faction}
            a = api.answer_for(rs, pos, parse_query(q, pos), lang)
            b = api.answer_for(rs, pos_pl, parse_query(q, pos_pl), lang)
            assert a.to_dict() == b.to_dict()


def _handle(path: str, body: dict[str, Any]) -> tuple[int, Any]:
    out = json.loads(webapi.handle("POST", path, json.dumps(body, ensure_ascii=False), None))
    return out["status"], out["body"]


@pytest.mark.parametrize("path", ["/api/ask", "/api/legal"])
def test_the_api_reads_polish_tables_as_json_and_as_yaml_text(path: str) -> None:
    """The server and the in-browser engine (one request module) answer a Polish table alike."""
    question = {"question": {"ask": "move", "faction": "humans", "from": "foglands", "to": "scorch", "units": 1}}
    if path == "/api/legal":
        question = {"faction": "humans"}
    by_ids = _handle(path, {"position": yaml.safe_load(IDS), **question, "lang": "pl"})
    assert by_ids[0] == 200
    assert _handle(path, {"position": yaml.safe_load(POLISH), **question, "lang": "pl"}) == by_ids
    assert _handle(path, {"position": POLISH, **question, "lang": "pl"}) == by_ids


# --- names that name nothing, or two things ---------------------------------------------------


def _errors(text: str, lang: str = "pl") -> list[str]:
    set_message_language(lang)
    try:
        with pytest.raises(InputError) as caught:
            position_read.parse_text(text, rulebook.load(), "stół.yaml")
    finally:
        set_message_language("en")
    return [str(p) for p in caught.value.problems]


def test_an_unknown_name_is_a_located_polish_error_with_the_names(rs: Any) -> None:
    errors = _errors(POLISH.replace("terrain: Góry", "terrain: Górki").replace("turn: LUDZIE", "turn: Ludzi"))
    assert (
        "stół.yaml:4: turn: nieznana nazwa 'Ludzi'; oczekiwano identyfikatora albo jednej z nazw: "
        "Ludzie (humans), Pielgrzymi (pilgrims), Maszyny (machines), Trogi (trogs) (czy chodziło o 'Ludzie'?)"
    ) in errors
    assert any(
        e.startswith("stół.yaml:10: regions.Mgielnia.terrain: nieznana nazwa 'Górki'")
        and "Góry (mountains), Pustynia (desert)" in e
        for e in errors
    ), errors
    assert len(errors) == 2


def test_an_unknown_region_named_in_a_list_names_the_tables_regions() -> None:
    errors = _errors(POLISH.replace("adjacent: [Pogorzelisko, ", "adjacent: [Pogorzelsko, "))
    assert errors == [
        "stół.yaml:11: regions.Mgielnia.adjacent[0]: nieznana nazwa 'Pogorzelsko'; oczekiwano identyfikatora "
        "albo jednej z nazw: Mgielnia (foglands), Pogorzelisko (scorch), Głębia Sapos (sapos-deep), "
        "Region A (example-a) (czy chodziło o 'Pogorzelisko'?)"
    ]


def test_a_polish_name_equal_to_another_regions_id_is_ambiguous() -> None:
    errors = _errors(POLISH + "  mgielnia: {adjacent: [Region A]}\n")
    assert "stół.yaml:9: regions.Mgielnia: 'Mgielnia' może oznaczać: Mgielnia (foglands), mgielnia; " in errors[0]
    assert "wpisz zamiast tego właściwy identyfikator" in errors[0]


def test_one_region_by_its_name_and_its_id_is_listed_twice() -> None:
    errors = _errors(POLISH + "  foglands: {}\n", "en")
    assert errors == ["stół.yaml:18: regions: 'Mgielnia' and 'foglands' name the same; list it once"]


def test_other_problems_are_located_by_the_names_typed() -> None:
    errors = _errors(POLISH.replace("units: {Ludzie: 3, Pielgrzymi: 1}", "units: {Ludzie: -3, Pielgrzymi: 1}"))
    assert errors == ["stół.yaml:12: regions.Mgielnia.units.Ludzie: oczekiwano liczby całkowitej ≥ 0, znaleziono -3"]


def test_an_id_like_typo_is_answered_with_the_names(rs: Any) -> None:
    """A lowercase word that is no ID ("horde") is told the choices by name, each with its ID,
    as a capitalised one is: not a bare list of IDs."""
    errors = _errors(IDS.replace("trog-token: war-party", "trog-token: horde"), "en")
    assert errors == [
        "stół.yaml:16: regions.sapos-deep.trog-token: unknown name 'horde'; expected an ID or one of the names "
        "Trog War Party (war-party), Trog Nest (nest)"
    ]


# Every unknown word in a field with names, lowercase (ID-shaped) or capitalised, in either table:
# the field as typed, the word, then the choices by name each with its ID (never a bare list of
# IDs), in the asker's language; and the near name when there is one.
_UNKNOWN_WORDS = [
    # (table, what is replaced, by what, the field as typed, a choice as listed in pl, in en, near in pl, in en)
    (
        "IDS",
        "phase: actions",
        "phase: akcji",
        "phase",
        "faza Akcji (actions)",
        "Actions phase (actions)",
        "faza Akcji",
        "Actions phase",
    ),
    (
        "IDS",
        "phase: actions",
        "phase: Akcji",
        "phase",
        "faza Akcji (actions)",
        "Actions phase (actions)",
        "faza Akcji",
        "Actions phase",
    ),
    (
        "POLISH",
        "phase: faza Akcji",
        "phase: action",
        "phase",
        "faza Akcji (actions)",
        "Actions phase (actions)",
        "faza Akcji",
        "Actions phase",
    ),
    (
        "IDS",
        "step: before-action",
        "step: zz",
        "step",
        "przed Akcją (before-action)",
        "before an action (before-action)",
        "",
        "",
    ),
    (
        "POLISH",
        "step: przed Akcją",
        "step: Zz",
        "step",
        "przed Akcją (before-action)",
        "before an action (before-action)",
        "",
        "",
    ),
    (
        "IDS",
        "terrain: mountains",
        "terrain: gorki",
        "regions.foglands.terrain",
        "Góry (mountains)",
        "mountains",
        "Góry",
        "mountains",
    ),
    ("POLISH", "terrain: Góry", "terrain: Bagno", "regions.Mgielnia.terrain", "Góry (mountains)", "mountains", "", ""),
    (
        "POLISH",
        "type: Żniwiarka",
        "type: Żniwiarz",
        "regions.Mgielnia.structures[0].type",
        "Żniwiarka (harvester)",
        "harvester, power-orb",
        "Żniwiarka",
        "harvester",
    ),
    ("IDS", "turn: humans", "turn: hummans", "turn", "Ludzie (humans)", "humans", "Ludzie", "humans"),
    (
        "IDS",
        "trog-token: war-party",
        "trog-token: horda",
        "regions.sapos-deep.trog-token",
        "Horda Trogów (war-party)",
        "Trog War Party (war-party)",
        "",
        "",
    ),
]


@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize("case", _UNKNOWN_WORDS, ids=[c[2] for c in _UNKNOWN_WORDS])
def test_an_unknown_word_in_any_case_lists_the_choices_by_name(rs: Any, case: tuple[str, ...], lang: str) -> None:
    table, old, new, field, listed_pl, listed_en, near_pl, near_en = case
    text = {"IDS": IDS, "POLISH": POLISH}[table]
    assert old in text
    (error,) = _errors(text.replace(old, new), lang)
    word = new.partition(": ")[2]
    place, _, message = error.partition(f" {field}: ")
    assert place.startswith("stół.yaml:") and message, error  # the place as the Ask page finds it
    start = "nieznana nazwa" if lang == "pl" else "unknown name"
    assert message.startswith(f"{start} {word!r}; "), error
    assert (listed_pl if lang == "pl" else listed_en) in message, error
    assert "oczekiwano jednej z wartości" not in message and "expected one of" not in message, error
    near = near_pl if lang == "pl" else near_en
    hint = "czy chodziło o" if lang == "pl" else "did you mean"
    assert (f"({hint} {near!r}?)" in message) if near else hint not in message, error


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [
        ("pl", "samotny", "nieznany wariant 'samotny'; oczekiwano jednego z: Wariant solo (fanowski) (solo)"),
        ("pl", "wariant-solo", "(solo) (czy chodziło o 'solo'?)"),
        ("en", "solo-variant", "expected one of Solo variant (fan-made) (solo) (did you mean 'solo'?)"),
        # a name (capitalised, with spaces) nothing names: said as typed, with the list and a near ID
        (
            "pl",
            "Wariant Sol",
            "nieznany wariant 'Wariant Sol'; oczekiwano jednego z: Wariant solo (fanowski) (solo) "
            "(czy chodziło o 'solo'?)",
        ),
        ("en", "Sol", "unknown variant 'Sol'; expected one of Solo variant (fan-made) (solo) (did you mean 'solo'?)"),
    ],
)
def test_an_unknown_variant_lists_the_variants_by_title_with_the_id_to_write(lang: str, typed: str, said: str) -> None:
    (error,) = _errors(IDS.replace("phase: actions", f"variant: {typed}\nphase: actions"), lang)
    assert error.startswith("stół.yaml:2: variant: ") and said in error, error


@pytest.mark.parametrize("typed", ["Solo", "SOLO", "Wariant solo", "wariant Solo (fanowski)", "Solo variant"])
def test_a_variant_named_by_its_title_in_any_case_or_language_reads_as_its_id(typed: str) -> None:
    text = (Path(__file__).parent / "fixtures" / "solo" / "battle.yaml").read_text(encoding="utf-8")
    assert "\nvariant: solo\n" in text
    rs = rulebook.load()
    named = position_read.parse_text(text.replace("\nvariant: solo\n", f"\nvariant: {typed}\n"), rs, "stół.yaml")
    assert named.variant == "solo"
    assert named == position_read.parse_text(text, rs, "stół.yaml")


def test_havoc_new_takes_names_and_its_template_says_names_work(capsys: pytest.CaptureFixture[str]) -> None:
    from havoc.cli import main

    assert main(["new", "-", "--players", "Ludzie,pielgrzymi", "--lang", "pl"]) == 0
    out = capsys.readouterr().out
    assert "players: [humans, pilgrims]" in out
    assert "# Zamiast identyfikatorów można pisać nazwy" in out and "Mgielnia:, Ludzie: 3, faza Akcji" in out


# --- the Ask page reads a pasted table's Region keys as the engine does ------------------------


def _run_node(code: str) -> Any:
    import shutil
    import subprocess

    node = shutil.which("node")
    assert node, "node is needed to run the Ask page's script"
    proc = subprocess.run([node, "-"], input=code, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def test_the_ask_page_reads_pasted_region_keys_as_the_engine_does(rs: Any) -> None:
    """The page offers a pasted table's Regions in the question's lists: by the IDs the engine
    reads the keys as (names folded alike, the same vocabulary), shown as they were pasted."""
    from havoc.games.cry_havoc.ask_page import STATIC
    from havoc.games.cry_havoc.ui import vocabulary

    script = (STATIC / "havoc-ask.js").read_text(encoding="utf-8")
    chunk = script[script.index("  function fold(name)") : script.index("  function regionIds()")]
    data = {"known": {}, "region-names": {n: list(ids) for n, ids in vocabulary("regions").items()}}
    text = POLISH + "  \"Północ \": {adjacent: [Region A]}\n  'Wybrzeże FERALAS': {}\n"
    odd = ["Głębia Sapos", "  ŻNIWIARKA ", "Cameron's Sea", "İstanbul", "a_b--c", "ß", "Région 7"]
    code = (
        f"var W = {{}}, D = {json.dumps(data)}, state = {{usePaste: true, paste: {json.dumps(text)}}};\n{chunk}\n"
        f"console.log(JSON.stringify([pastedIds(), pastedNames, {json.dumps(odd)}.map(fold)]));"
    )
    ids, shown, folded = _run_node(code)
    assert ids == list(position_read.parse_text(text, rs).regions)
    assert shown["sapos-deep"] == "Głębia Sapos" and shown["polnoc"] == "Północ" and shown["example-a"] == "Region A"
    assert folded == [fold(t) for t in odd]


def test_a_known_region_named_but_not_listed_is_said_as_typed() -> None:
    """ "Region a" names example-a; the table misspelt its key ("Regon a" is a Region of its own)."""
    text = POLISH.replace("  Region A: {adjacent: [foglands], terrain: Ocean}", "  Regon A: {adjacent: [foglands]}")
    errors = _errors(text, "en")
    assert errors == [
        "stół.yaml:11: regions.Mgielnia.adjacent[2]: unknown Region 'Region A'; list it under regions "
        "(did you mean 'Regon A'?)"
    ]


def test_the_api_names_the_field_as_typed() -> None:
    body = {"position": POLISH.replace("terrain: Ocean", "terrain: Oceam"), "question": "legal", "lang": "pl"}
    status, out = _handle("/api/ask", body)
    assert status == 422
    assert out["problems"] == [
        {
            "in": "position",
            "field": "regions.Region A.terrain",
            "where": "Region A › Teren (terrain)",
            "message": "nieznana nazwa 'Oceam'; oczekiwano identyfikatora albo jednej z nazw: Góry (mountains), "
            "Pustynia (desert), Dżungla (jungle), ocean (czy chodziło o 'ocean'?)",
            "line": 17,
            "code": "field.value",
        }
    ]
