"""A question typed in a player's own words (issue 39): what it is read as, in both languages.

Each sentence is checked for the kind, who asks and the fields, and for the situation it states;
a sentence that is no question about the rules is refused in the asker's language; a word off
by a typo or without its Polish letters still names the thing; the API and the command line
give the same reading."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from havoc.assistant import webapi
from havoc.games.cry_havoc.understand import understand

# (lang, sentence, the question's fields it must give, the position's facts it must state)
SENTENCES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    (
        "en",
        "can the machines move 2 units from sapos deep to world caverns",
        {"ask": "move", "faction": "machines", "from": "sapos-deep", "to": "world-caverns", "units": 2},
        {},
    ),
    (
        "en",
        "how many of my 6 units may leave a battle against 2 humans",
        {"ask": "how-many", "of": "may-leave", "from": "example-a"},  # the Battle the sentence sets up
        {"regions": {"example-a": {"units": {"humans": 2}, "battle": {"token": 1, "attacker": "humans"}}}},
    ),
    (
        "en",
        "who wins the battle: humans 1/1/2, machines 2/0/1",
        {
            "ask": "battle",
            "objectives": {
                "humans": {"control": 1, "prisoners": 1, "attrition": 2},
                "machines": {"control": 2, "prisoners": 0, "attrition": 1},
            },
            "region": "example-a",
        },
        # every Unit in a Battle stands on one objective: each side's Units are its sheet's sum
        {"regions": {"example-a": {"units": {"humans": 4, "machines": 3}, "battle": {"token": 1}}}},
    ),
    ("en", "how many VP do the pilgrims score this round", {"ask": "score", "faction": "pilgrims"}, {}),
    ("en", "what may the humans do now", {"ask": "legal", "faction": "humans"}, {}),
    (
        "pl",
        "czy maszyny mogą przesunąć 2 oddziały z głębi sapos do mgielni",
        {"ask": "move", "faction": "machines", "from": "sapos-deep", "to": "foglands", "units": 2},
        {},
    ),
    ("pl", "ile oddziałów może wycofać obrońca z bitwy 6 na 2", {"ask": "how-many", "of": "may-leave", "from": "example-a"}, {}),
    (
        "pl",
        "czy pielgrzymi mogą aktywować sferę mocy w pogorzelisku",
        {"ask": "activate", "faction": "pilgrims", "region": "scorch", "structure": "power-orb"},
        {},
    ),
    ("pl", "dokąd mogą się wycofać ludzie z mgielni", {"ask": "retreat", "faction": "humans", "from": "foglands"}, {}),
    ("pl", "jak przygotować grę dla 4 graczy", {"ask": "setup"}, {"players": ["humans", "pilgrims", "machines", "trogs"]}),
    # the same questions said otherwise, with typos and without Polish letters
    ("en", "may the pilgrims activate the power orb in scorch", {"ask": "activate", "faction": "pilgrims", "region": "scorch", "structure": "power-orb"}, {}),
    ("en", "where can the humans retreat from foglands", {"ask": "retreat", "faction": "humans", "from": "foglands"}, {}),
    ("en", "can the machines move 3 units from foglnds to scorch", {"ask": "move", "faction": "machines", "from": "foglands", "to": "scorch", "units": 3}, {}),
    ("pl", "czy maszyny moga przesunac trzy oddzialy z mgielni do pogorzeliska", {"ask": "move", "faction": "machines", "from": "foglands", "to": "scorch", "units": 3}, {}),
    ("pl", "co mogą teraz zrobić pielgrzymi", {"ask": "legal", "faction": "pilgrims"}, {}),
    ("pl", "ile punktów zwycięstwa zdobędą ludzie w tej rundzie", {"ask": "score", "faction": "humans"}, {}),
    ("pl", "czy ludzie mogą zbudować żniwiarkę w mgielni", {"ask": "build", "faction": "humans", "region": "foglands", "structure": "harvester"}, {}),
    ("en", "can the humans build a harvester in foglands", {"ask": "build", "faction": "humans", "region": "foglands", "structure": "harvester"}, {}),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "text", "question", "position"), SENTENCES, ids=[s[1] for s in SENTENCES])
def test_a_typed_question_is_read_as_the_player_means_it(
    lang: str, text: str, question: dict[str, Any], position: dict[str, Any]
) -> None:
    got = understand(text, lang)
    assert got["refusal"] is None
    assert got["question"] == question, got["understood"]
    for key, value in position.items():
        assert got["position"].get(key) == value, got["position"]
    # every piece says which words it took and what for, in the asker's language
    assert got["summary"] and all(p["words"] and p["field"] and p["shown"] for p in got["understood"])


def test_who_asks_is_never_guessed() -> None:
    """ "my Units" with no table: who asks is what the answer still needs, in the asker's words."""
    got = understand("ile oddziałów może wycofać obrońca z bitwy 6 na 2", "pl")
    assert "faction" not in got["question"]
    assert [m["field"] for m in got["missing"]] == ["question.faction"]
    assert got["missing"][0]["label"] == "kto pyta (Frakcja)"
    # with a table, "my" is the faction whose turn it is
    got = understand("how many of my 6 units may leave a battle against 2 humans", "en", {"turn": "pilgrims"})
    assert got["question"]["faction"] == "pilgrims"
    assert got["position"]["regions"]["example-a"]["units"] == {"pilgrims": 6, "humans": 2}


@pytest.mark.parametrize(
    ("lang", "text", "message"),
    [
        ("en", "what is the meaning of life", "This is not a question about the rules of the game."),
        ("pl", "jaki jest sens życia", "To nie jest pytanie o zasady gry."),
    ],
)
def test_a_sentence_outside_the_rules_is_refused_in_the_askers_language(lang: str, text: str, message: str) -> None:
    got = understand(text, lang)
    assert got["question"] is None and got["refusal"] == message and got["summary"] == message
    assert got["unplaced"]


def test_the_api_reads_the_same_and_bounds_the_text() -> None:
    body = {"text": "dokąd mogą się wycofać ludzie z mgielni", "lang": "pl"}
    out = json.loads(webapi.handle("POST", "/api/understand", json.dumps(body), {}))
    assert out["status"] == 200
    assert out["body"] == understand(body["text"], "pl")
    long = json.loads(webapi.handle("POST", "/api/understand", json.dumps({"text": "a" * 501, "lang": "pl"}), {}))
    assert long["status"] == 422
    assert long["body"]["problems"][0]["in"] == "text"
    assert long["body"]["problems"][0]["message"] == "Pytanie ma więcej niż 500 znaków."
    none = json.loads(webapi.handle("POST", "/api/understand", json.dumps({"lang": "en"}), {}))
    assert none["status"] == 422 and none["body"]["problems"][0]["in"] == "text"
    for table in (None, [None, None], "example-a"):  # no table is sent as an absent field, never as null
        body = {"text": "", "lang": "pl", "position": table}
        bad = json.loads(webapi.handle("POST", "/api/understand", json.dumps(body), {}))
        assert bad["status"] == 422, table
        assert bad["body"]["problems"] == [
            {
                "in": "request",
                "field": "position",
                "message": "Opis stołu musi być obiektem (klucz: wartość).",
                "code": "field.type",
            }
        ]


def test_the_command_line_shows_each_piece_in_polish() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "havoc",
            "understand",
            "czy maszyny mogą przesunąć 2 oddziały z głębi sapos do mgielni",
            "--lang",
            "pl",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "Ruch · Maszyny · Głębia Sapos · Mgielnia · 2"
    assert (
        "«do mgielni» → Mgielnia  (Region, do którego wchodzą Oddziały)" in run.stdout
    )  # the field in words, never its path
    assert "question." not in run.stdout
    js = subprocess.run(
        [sys.executable, "-m", "havoc", "understand", "what is the meaning of life", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert js.returncode == 0 and json.loads(js.stdout)["refusal"]


def test_ask_text_answers_on_the_table_or_says_what_is_missing(tmp_path: Any) -> None:
    """``havoc ask POSITION --text``: the table's own Regions by name ("z Regionu B"), "my" as the
    faction whose turn it is, and a question short of a field refused naming it (exit 2)."""
    table = tmp_path / "t.yaml"
    table.write_text(
        "players: [humans, pilgrims]\nround: 2\nphase: actions\nturn: humans\n"
        "regions:\n  example-a: {units: {pilgrims: 2}, adjacent: [example-b]}\n"
        "  example-b: {units: {humans: 3}, control: humans, adjacent: [example-a]}\n",
        encoding="utf-8",
    )

    def ask(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "havoc", *words], capture_output=True, text=True, check=False)

    pl = ask(
        "--lang",
        "pl",
        "ask",
        str(table),
        "--text",
        "czy mogę przesunąć 2 moje oddziały z regionu b do regionu a",
        "--json",
    )
    assert pl.returncode == 0, pl.stderr
    assert "Zrozumiano: Ruch · Ludzie · Region B · Region A · 2" in pl.stderr
    assert json.loads(pl.stdout)["question"].startswith("Czy Ludzie mogą przesunąć 2 Oddziały z Regionu B do Regionu")
    short = ask("--lang", "pl", "ask", str(table), "--text", "czy ludzie mogą przesunąć 2 oddziały")
    assert short.returncode == 2
    assert "w pytaniu brakuje: Region, z którego wychodzą Oddziały" in short.stderr
    assert "Traceback" not in short.stderr


def test_havoc_serve_reads_a_typed_question_as_the_browser_does() -> None:
    """POST /api/understand on `havoc serve` gives the in-browser engine's JSON; a long text is a
    422 naming the field in the asker's language; an unknown field is refused."""
    from starlette.testclient import TestClient

    from havoc.web.server.app import create_app

    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        body = {"text": "czy pielgrzymi mogą aktywować sferę mocy w pogorzelisku", "lang": "pl"}
        r = c.post("/api/understand", json=body)
        assert r.status_code == 200
        assert r.json() == understand(body["text"], "pl")
        long = c.post("/api/understand", json={"text": "x" * 501, "lang": "pl"})
        assert long.status_code == 422
        assert long.json()["problems"][0]["message"] == "Pytanie ma więcej niż 500 znaków."
        odd = c.post("/api/understand", json={"text": "move", "lang": "en", "extra": 1})
        assert odd.status_code == 422 and odd.json()["problems"][0]["in"] == "extra"
