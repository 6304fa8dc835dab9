"""A table with a Battle token whose attacker is not given yet (issue 39's phone trial: a Battle
token made every question strict): questions that do not read the attacker are answered; those
that do are refused naming the attacker's field, in the asker's language; a required field left
out is reported at the field itself, never as a raw key under its parent."""

from __future__ import annotations

import json
from typing import Any

import pytest

from havoc.assistant import api, webapi
from havoc.core.errors import InputError

TABLE: dict[str, Any] = {
    "players": ["humans", "pilgrims"],
    "round": 2,
    "phase": "actions",
    "turn": "humans",
    "regions": {
        "example-a": {"units": {"pilgrims": 2, "humans": 1}, "control": "pilgrims", "battle": {"token": 1}},
        "example-b": {"units": {"humans": 3}, "control": "humans"},
    },
}

NEEDS = {
    "en": "Region A › battle › attacker",
    "pl": "Region A › Bitwa (battle) › Agresor (attacker)",
}
SAYS = {
    "en": "not given, and this question needs the Battle's attacker",
    "pl": "nie podano, a to pytanie wymaga wskazania Agresora w Bitwie",
}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_build_elsewhere_is_answered_without_the_attacker(lang: str) -> None:
    a = api.ask(TABLE, {"ask": "build", "faction": "humans", "region": "example-b", "structure": "airfield"}, lang)
    assert a.verdict is True


def _refused(table: dict[str, Any], query: dict[str, Any], lang: str) -> dict[str, Any]:
    """The one problem the API (the server's and the in-browser engine's) gives, in ``lang``."""
    body = {"position": table, "question": query, "lang": lang}
    out = json.loads(webapi.handle("POST", "/api/ask", json.dumps(body), {}))
    assert out["status"] == 422, out
    (problem,) = out["body"]["problems"]
    return dict(problem)


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize(
    "query",
    [{"ask": "battle"}, {"ask": "legal", "faction": "humans"}],
    ids=["battle", "legal"],
)
def test_a_question_that_reads_the_attacker_names_its_field(lang: str, query: dict[str, Any]) -> None:
    problem = _refused(TABLE, query, lang)
    assert problem["field"] == "regions.example-a.battle.attacker"
    assert problem["message"] == SAYS[lang]
    assert problem["where"] == NEEDS[lang]
    assert problem["code"] == "position.missing"
    with pytest.raises(InputError):  # the Python API refuses alike
        api.ask(TABLE, query, lang)


@pytest.mark.parametrize(
    ("lang", "where", "message"),
    [
        ("en", "Region A › battle › token", "required, but not given"),
        ("pl", "Region A › Bitwa (battle) › żeton (token)", "pole wymagane, a nie podano"),
    ],
)
def test_a_missing_required_field_is_reported_at_the_field(lang: str, where: str, message: str) -> None:
    table = json.loads(json.dumps(TABLE))
    table["regions"]["example-a"]["battle"] = {"attacker": "humans"}
    problem = _refused(table, {"ask": "battle"}, lang)
    assert (problem["field"], problem["message"], problem.get("where")) == (
        "regions.example-a.battle.token",
        message,
        where,
    )
