"""The interview (issue 39): what an answer read of the table, and what it assumed.

Over every stored example the watched table answers exactly as the table does, and what the
interview would ask (the fields it assumed) is only ever fields the answer read and the table
did not write: never more than the answer used."""

from __future__ import annotations

import json
from typing import Any

import pytest
import stored_examples

from havoc.assistant import api, webapi
from havoc.engine import rulebook
from havoc.games.cry_havoc import parse_position
from havoc.games.cry_havoc.interview import given_fields, interview

TABLE: dict[str, Any] = {
    "players": ["humans", "pilgrims"],
    "turn": "humans",
    "regions": {"example-a": {"units": {"humans": 3}}, "example-b": {"units": {}}},
}
MOVE = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 2}


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))


def test_every_stored_example_reads_the_same_and_asks_only_what_it_read() -> None:
    rs = rulebook.load()
    asked_in_all = read_in_all = 0
    items = list(stored_examples.asked(rs))
    assert len(items) > 50
    for item in items:
        data = _plain(item.ex.position)
        out = interview(rs, data, _plain(item.ex.query), "en")
        plain = api.answer_for(rs, item.pos, item.query, "en").to_dict()
        assert out["answer"] == plain, item.ex.id  # watching changes nothing
        given = given_fields(data, parse_position(data, rs))
        read = {r["field"] for r in out["read"]}
        asked = {r["field"] for r in out["assumed"]}
        assert asked <= read and not asked & given, item.ex.id
        assert all(r["given"] == (r["field"] not in asked) for r in out["read"]), item.ex.id
        asked_in_all += len(asked)
        read_in_all += len(read)
    assert asked_in_all <= read_in_all


@pytest.mark.parametrize(
    ("lang", "adjacent", "summary"),
    [
        (
            "en",
            "Region A › neighbouring Regions",
            "Assumed (not on the table): Phase: Actions phase; Region A › neighbouring Regions: none;",
        ),
        (
            "pl",
            "Region A › sąsiednie Regiony",
            "Przyjęto (tego nie ma na stole): Faza: faza Akcji; Region A › sąsiednie Regiony: brak;",
        ),
    ],
)
def test_a_move_without_adjacency_says_it_assumed_none(lang: str, adjacent: str, summary: str) -> None:
    out = interview(rulebook.load(), TABLE, MOVE, lang)
    assert out["answer"]["verdict"] is False
    fields = {r["field"]: r for r in out["assumed"]}
    assert fields["regions.example-a.adjacent"]["where"] == adjacent
    assert "regions.example-a.units" not in fields and "turn" not in fields  # on the table
    assert out["summary"].startswith(summary)


def test_once_the_table_gives_it_nothing_about_it_is_assumed() -> None:
    table = _plain(TABLE)
    table["phase"] = "actions"
    table["regions"]["example-a"]["adjacent"] = ["example-b"]
    out = interview(rulebook.load(), table, MOVE, "en")
    assert out["answer"]["verdict"] is True
    assumed = {r["field"] for r in out["assumed"]}
    assert "regions.example-a.adjacent" not in assumed and "phase" not in assumed


def test_the_api_answers_the_interview_and_refuses_a_bad_request_in_polish() -> None:
    body = {"position": TABLE, "question": MOVE, "lang": "pl"}
    out = json.loads(webapi.handle("POST", "/api/interview", json.dumps(body), {}))
    assert out["status"] == 200 and out["body"]["answer"]["answer"] == "Nie"
    bad = json.loads(webapi.handle("POST", "/api/interview", json.dumps({"position": [], "lang": "pl"}), {}))
    assert bad["status"] == 422
    assert bad["body"]["problems"][0]["field"] == "position"


def test_the_interview_answers_as_of_a_layer_too() -> None:
    body = {"position": TABLE, "question": MOVE, "as-of": "rulebook", "lang": "pl"}
    out = json.loads(webapi.handle("POST", "/api/interview", json.dumps(body), {}))
    assert out["status"] == 200 and out["body"]["answer"]["ruleset"]["as-of"] == "rulebook"
    bad = json.loads(webapi.handle("POST", "/api/interview", json.dumps({**body, "as-of": "jutro"}), {}))
    assert bad["status"] == 422 and bad["body"]["problems"][0]["field"] == "as-of"
    assert bad["body"]["problems"][0]["message"].startswith("żadna warstwa tych zasad")


def test_a_pasted_table_is_interviewed_and_its_problems_are_placed_as_the_ask_places_them() -> None:
    text = "players: [humans, pilgrims]\nturn: humans\nregions:\n  example-a: {units: {humans: 3}}\n  example-b: {units: {}}\n"
    body = {"position": text, "question": MOVE, "lang": "pl"}
    out = json.loads(webapi.handle("POST", "/api/interview", json.dumps(body), {}))
    assert out["status"] == 200
    assert {r["field"] for r in out["body"]["assumed"]} >= {"regions.example-a.adjacent", "phase"}
    assert "turn" not in {r["field"] for r in out["body"]["assumed"]}  # the pasted text gives it
    for bad in (
        "players: [humans\n",
        {"players": ["humans", "pilgrims"], "regions": {"example-a": {"units": {"humans": -1}}}},
    ):
        asked = {"position": bad, "question": MOVE, "lang": "pl"}
        one = json.loads(webapi.handle("POST", "/api/interview", json.dumps(asked), {}))["body"]["problems"]
        two = json.loads(webapi.handle("POST", "/api/ask", json.dumps(asked), {}))["body"]["problems"]
        assert one == two and one[0]["in"] == "position", (one, two)
