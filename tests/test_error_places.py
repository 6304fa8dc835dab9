"""Where an error is, said in the reader's words: a table's or a question's problem names its field
by the table's names and the field's label (``Problem.where``, one wording in
``games/cry_havoc/places.py``, a question's own field in ``question_places.py``), in the CLI's
error lines and as the API's ``where``; the API's ``field`` stays the machine path for programs and for the pages to place the error by."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_polish_voice import problems as polish_problems

from havoc.assistant import webapi
from havoc.cli import main
from havoc.core.errors import InputError, Problem
from havoc.games.cry_havoc import position_read
from havoc.games.cry_havoc.places import where
from havoc.games.cry_havoc.position import TOP
from havoc.games.cry_havoc.question_places import where as question_where
from havoc.language.i18n import set_message_language

FIXTURES = Path(__file__).parent / "fixtures"
LEAVE = FIXTURES / "assistant" / "leave-8-vs-3.yaml"
SOLO_BATTLE = FIXTURES / "solo" / "battle.yaml"

# A machine name a Polish reader must not meet in a place (a key after its label, "Oddziały
# (units)", is the hint the issue allows, as --help gives it: taken out before looking).
MACHINE = re.compile(
    r"\b(?:example-[a-z0-9-]+|humans|pilgrims|machines|trogs|foglands|scorch|scouting|regions|factions"
    r"|units|skills|vp|adjacent|battle|attacker|players|terrain|to|from)\b"
)


def _machine_words(place: str) -> list[str]:
    return MACHINE.findall(re.sub(r" \([a-z0-9-]+\)", "", place))


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


def _places(err: str, file: str) -> list[str]:
    """The place each error line names (between ``file:line:`` and the message)."""
    return [m.group(1) for m in re.finditer(rf"^(?:błąd|error): {re.escape(file)}(?::\d+)?: (.+?): ", err, re.M)]


ID_TABLE_ERRORS = [
    ("humans: 8", "humans: -1", "Region A › Oddziały (units) › Ludzie"),
    ("vp: 2", "vp: -2", "Ludzie › PZ (vp)"),
    ("scouting: ready", "scouting: 3", "Ludzie › Zdolności (skills) › Zwiad"),
    ("token: 1", "token: 0", "Region A › Bitwa (battle) › żeton (token)"),
]


@pytest.mark.parametrize(("good", "bad", "said"), ID_TABLE_ERRORS, ids=[c[2] for c in ID_TABLE_ERRORS])
def test_a_polish_error_in_a_table_of_ids_names_its_place_by_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], good: str, bad: str, said: str
) -> None:
    table = tmp_path / "stół.yaml"
    text = LEAVE.read_text(encoding="utf-8")
    assert good in text
    table.write_text(text.replace(good, bad, 1), encoding="utf-8")
    code, err = _cli(capsys, "--lang", "pl", "ask", str(table), "co-mogę", "ludzie")
    assert code == 2
    assert _places(err, str(table)) == [said], err
    assert not _machine_words(said)
    assert not polish_problems(err.replace(str(table), "stół.yaml")), polish_problems(err)


def test_the_units_error_of_the_issue_reads_in_polish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "bad2.yaml"
    table.write_text(LEAVE.read_text(encoding="utf-8").replace("humans: 8", "humans: -1"), encoding="utf-8")
    code, err = _cli(capsys, "--lang", "pl", "ask", str(table), "ruch", "ludzie", "z=Region-A", "do=Region-B")
    assert code == 2
    line = f"błąd: {table}:9: Region A › Oddziały (units) › Ludzie: oczekiwano liczby całkowitej ≥ 0, znaleziono -1"
    assert err.strip() == line
    code, err = _cli(capsys, "ask", str(table), "move", "humans", "from=example-a", "to=example-b")
    assert err.strip() == f"error: {table}:9: Region A › units › Humans: expected a whole number ≥ 0, found -1"


NAMED_TABLE = """\
players: [Ludzie, Pielgrzymi]
phase: faza Akcji
turn: Ludzie
factions:
  Ludzie: {vp: 2, skills: {Zwiad: 5}, hand: -4}
regions:
  Mgielnia: {units: {Ludzie: -3}, adjacent: [Pogorzelisko]}
  Pogorzelisko: {units: {Pielgrzymi: 2}, adjacent: [Mgielnia], crystals: x}
"""


def test_a_polish_error_in_a_table_of_names_names_its_place_as_the_table_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "stół.yaml"
    table.write_text(NAMED_TABLE, encoding="utf-8")
    code, err = _cli(capsys, "--lang", "pl", "ask", str(table), "co-mogę")
    assert code == 2
    places = _places(err, str(table))
    assert places == [
        "Ludzie › Zdolności (skills) › Zwiad",
        "Ludzie › karty w ręce (hand)",
        "Mgielnia › Oddziały (units) › Ludzie",
        "Pogorzelisko › Kryształy (crystals)",
    ], err
    assert not any(_machine_words(p) for p in places)
    assert not polish_problems(err.replace(str(table), "stół.yaml")), polish_problems(err)


def test_a_question_field_is_the_forms_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _cli(capsys, "--lang", "pl", "ask", str(LEAVE), "ruch", "ludzie", "z=Region-A", "do=Pogorzelisko")
    assert code == 2 and err.startswith("błąd: pytanie: Dokąd (do): nieznany Region 'Pogorzelisko'"), err
    query = tmp_path / "pytanie.yaml"
    query.write_text("ask: move\nfaction: humans\nfrom: example-a\nto: example-b\nunits: -2\n", encoding="utf-8")
    code, err = _cli(capsys, "--lang", "pl", "ask", str(LEAVE), "--query", str(query))
    assert code == 2 and f"błąd: {query}:5: Oddziały: oczekiwano liczby całkowitej ≥ 0" in err, err
    code, err = _cli(capsys, "ask", str(LEAVE), "--query", str(query))
    assert code == 2 and f"error: {query}:5: units: expected a whole number ≥ 0" in err, err


def _post(path: str, body: dict[str, Any]) -> tuple[int, Any]:
    out = json.loads(webapi.handle("POST", path, json.dumps(body)))
    return out["status"], out["body"]


def test_the_api_adds_where_and_keeps_the_machine_field() -> None:
    bad = yaml.safe_load(LEAVE.read_text(encoding="utf-8"))
    bad["regions"]["example-a"]["units"]["humans"] = -1
    bad["factions"]["humans"]["skills"]["scouting"] = 3
    said = {
        "pl": {
            "regions.example-a.units.humans": "Region A › Oddziały (units) › Ludzie",
            "factions.humans.skills.scouting": "Ludzie › Zdolności (skills) › Zwiad",
        },
        "en": {
            "regions.example-a.units.humans": "Region A › units › Humans",
            "factions.humans.skills.scouting": "Humans › skills › Scouting",
        },
    }
    for lang, expected in said.items():
        for sent in (bad, yaml.safe_dump(bad)):  # a mapping, and a pasted table's text (with lines)
            status, out = _post("/api/ask", {"position": sent, "question": "legal", "lang": lang})
            assert status == 422
            assert {p["field"]: p["where"] for p in out["problems"]} == expected, out
            assert all(p["in"] == "position" for p in out["problems"])
    status, out = _post(
        "/api/ask",
        {
            "position": str(LEAVE.read_text()),
            "question": {"ask": "move", "from": "example-a", "to": "scorch"},
            "lang": "pl",
        },
    )
    assert status == 422 and [(p["field"], p["where"]) for p in out["problems"]] == [("to", "Dokąd (do)")], out


def test_the_trogs_api_says_where_too() -> None:
    table = yaml.safe_load(SOLO_BATTLE.read_text(encoding="utf-8"))
    question = {"decide": "place", "region": "example-a", "objectives": {"humans": {"control": 1, "attrition": -1}}}
    status, out = _post("/api/trogs", {"position": table, "question": question, "lang": "pl"})
    assert status == 422
    [p] = out["problems"]
    assert p["field"] == "objectives.humans.attrition"
    assert (
        p["where"] == "Oddziały na Celach (cele) › Ludzie › Wyniszczenie"
    )  # the form's label, the key a Polish file writes after it
    status, out = _post(
        "/api/trogs", {"position": table, "question": {"decide": "move", "from": "example-a", "units": 0}, "lang": "pl"}
    )
    assert status == 422 and [p["where"] for p in out["problems"]] == ["Oddziały"], out


def test_a_problem_without_a_field_has_no_where_and_str_keeps_the_machine_path() -> None:
    set_message_language("pl")
    try:
        with pytest.raises(InputError) as caught:
            position_read.parse({"players": ["humans"], "round": 0, "zzz": 1}, None, "stół")
    finally:
        set_message_language("en")
    by_field = {p.message.split(":")[0]: p for p in caught.value.problems}
    assert by_field["round"].where == "Runda (round)"
    assert str(by_field["round"]).startswith("stół: round: ")  # programs and logs: the machine path
    assert by_field["round"].said().startswith("stół: Runda (round): ")
    assert all(p.where == "" for p in caught.value.problems if not p.message.startswith("round"))
    assert Problem("f", 1, "not valid YAML: here").said() == "f:1: not valid YAML: here"


@pytest.mark.parametrize(
    ("path", "part", "said"),
    [
        ("regions.north.structures[1].type", "position", "Region north › Budowle (structures) › nr 2 › rodzaj (type)"),
        ("players[0]", "position", "Gracze (players) › nr 1"),
        ("regions.north.battle.attacker", "position", "Region north › Bitwa (battle) › Agresor (attacker)"),
        ("regions", "position", "Regiony (regions)"),
        ("przez[1]", "question", "przez › nr 2"),
        ("objectives.humans.prisoners", "question", "Oddziały na Celach (cele) › Ludzie › Pojmanie Jeńców"),
        ("no-such-field.x", "position", ""),
        ("not a path", "question", ""),
    ],
)
def test_where_words_each_step(path: str, part: str, said: str) -> None:
    if part == "position":
        assert where(path, TOP, "pl", ["north"]) == said
    else:
        assert question_where(path, "pl", ["north"]) == said


def test_the_charts_lookup_says_where_in_the_readers_words() -> None:
    """Advanced Cry Havoc 2's chart lookups name a refused field in the reader's words too."""
    query = {"ruleset": "advanced-cry-havoc"}
    for body, said in (
        ({"chart": "dice", "lang": "pl"}, "tabela"),
        ({"chart": "range", "weapon": "sling", "distance": "x", "lang": "pl"}, "odległość"),
        ({"chart": "combat", "target": "prone", "lang": "pl"}, "cel"),
        ({"chart": "combat", "target": "prone", "lang": "en"}, "target"),
    ):
        out = json.loads(webapi.handle("POST", "/api/charts", json.dumps(body), query))
        assert out["status"] == 422
        assert [p["where"] for p in out["body"]["problems"]] == [said], out
