"""The work a request may cost is bounded (issue 36, part 5), not only its bytes.

Each list and map of a table and a question has a limit, refused with a located problem naming
the field and the limit before any name in it is read; problem lists stop being built after the
50 an answer lists; a JSON body's brackets and a YAML body's values are counted before it is
parsed; a YAML body must be a mapping from its first event; a JSON key given twice is refused as
YAML refuses it. Behaviour only (what is refused, how, and that the costly step never ran): the
costs themselves are benchmarks/bench_hostile.py's.
"""

from __future__ import annotations

import copy
import json
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from havoc import cli
from havoc.assistant import webapi
from havoc.formats import spec, yamlio
from havoc.games.cry_havoc import position_read, typed
from havoc.web.server import create_app

FIXTURES = Path(__file__).parent / "fixtures" / "assistant"
LEAVE = yaml.safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text())
TWENTY = yaml.safe_load((FIXTURES / "twenty.yaml").read_text())
MOVE = {"ask": "move", "faction": "pilgrims", "from": "example-08", "to": "example-09"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def _table(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(TWENTY)
    out.update(changes)
    return out


def _with_region(field: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(TWENTY)
    out["regions"]["example-08"][field] = value
    return out


def _with_faction(field: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(TWENTY)
    out["factions"]["pilgrims"][field] = value
    return out


# (what, the request's body, the field named, the limit): each one past its limit by one
PAST: list[tuple[str, dict[str, Any], str, int]] = [
    (
        "players",
        {"position": _table(players=["humans", "pilgrims"] * 8 + ["machines"]), "question": "legal"},
        "players",
        16,
    ),
    ("initiative", {"position": _table(initiative=["humans"] * 17), "question": "legal"}, "initiative", 16),
    (
        "upcoming-initiative",
        {"position": _table(**{"upcoming-initiative": ["humans"] * 17}), "question": "legal"},
        "upcoming-initiative",
        16,
    ),
    (
        "regions",
        {"position": _table(regions={f"r{i}": {} for i in range(65)}), "question": "legal"},
        "regions",
        64,
    ),
    (
        "neighbours",
        {"position": _with_region("adjacent", [f"Nowhere {i}" for i in range(17)]), "question": "legal"},
        "regions.example-08.adjacent",
        16,
    ),
    (
        "structures",
        {
            "position": _with_region("structures", [{"type": "harvester", "owner": "pilgrims"}] * 17),
            "question": "legal",
        },
        "regions.example-08.structures",
        16,
    ),
    (
        "skills",
        {"position": _with_faction("skills", {f"skill-{i}": "ready" for i in range(65)}), "question": "legal"},
        "factions.pilgrims.skills",
        64,
    ),
    (
        "controlled Regions",
        {
            "position": _with_faction("controlled-at-action-start", ["example-08"] * 65),
            "question": "legal",
        },
        "factions.pilgrims.controlled-at-action-start",
        64,
    ),
    (
        "score events",
        {"position": _table(scoring={"events": [{"at": i} for i in range(65)]}), "question": "legal"},
        "scoring.events",
        64,
    ),
    ("via", {"position": TWENTY, "question": {**MOVE, "via": ["Nowhere"] * 17}}, "via", 16),
    (
        "via, typed",
        {
            "position": TWENTY,
            "question": "move pilgrims from=example-08 to=example-09 via=" + ",".join(["Nowhere"] * 17),
        },
        "via",
        16,
    ),
]


def _problem_at(problems: list[dict[str, Any]], field: str) -> dict[str, Any]:
    found = [p for p in problems if p["field"] == field]
    assert found, (field, problems)
    return found[0]


@pytest.mark.parametrize(("what", "body", "field", "most"), PAST, ids=[p[0] for p in PAST])
def test_each_limit_is_a_located_422_naming_the_field_and_the_limit(
    client: TestClient, what: str, body: dict[str, Any], field: str, most: int
) -> None:
    count = most + 1
    r = client.post("/api/ask", json={**body, "lang": "en"})
    assert r.status_code == 422, r.text
    problem = _problem_at(r.json()["problems"], field)
    assert problem["message"] == f"too long: at most {most} items, found {count}"
    assert problem["in"] in ("position", "question")
    r = client.post("/api/ask", json={**body, "lang": "pl"})
    assert r.status_code == 422, r.text
    items = "elementy" if most % 10 in (2, 3, 4) and most % 100 not in (12, 13, 14) else "elementów"  # 64, 16
    assert _problem_at(r.json()["problems"], field)["message"] == f"najwyżej {most} {items}, znaleziono {count}"


@pytest.mark.parametrize(("what", "body", "field", "most"), PAST, ids=[p[0] for p in PAST])
def test_the_in_browser_engine_refuses_the_same(what: str, body: dict[str, Any], field: str, most: int) -> None:
    answer = json.loads(webapi.handle("POST", "/api/ask", json.dumps(body)))
    assert answer["status"] == 422
    assert "at most" in _problem_at(answer["body"]["problems"], field)["message"]


def test_the_polish_plural_follows_the_limit() -> None:
    from havoc.language.i18n import set_message_language

    set_message_language("pl")
    try:
        assert spec.too_long(1, 3) == "najwyżej 1 element, znaleziono 3"
        assert spec.too_long(64, 70) == "najwyżej 64 elementy, znaleziono 70"
        assert spec.too_long(16, 20) == "najwyżej 16 elementów, znaleziono 20"
    finally:
        set_message_language("en")


def test_a_long_list_is_refused_before_any_name_in_it_is_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """50,000 names as neighbours or via: not one is looked up (each lookup folds, searches the
    vocabulary and may suggest a near name)."""
    looked: list[str] = []
    for cls, name in ((position_read._Names, "name"), (typed._Reading, "region")):
        real = getattr(cls, name)

        def counting(self: Any, *args: Any, _real: Callable[..., Any] = real) -> Any:
            if any(isinstance(a, str) and (a.startswith("Nowhere") or a == "x") for a in args):
                looked.append(str(args))  # (a name of the long list: the question's from and to are read)
            return _real(self, *args)

        monkeypatch.setattr(cls, name, counting)
    table = _with_region("adjacent", [f"Nowhere {i}" for i in range(5_000)])
    r = client.post("/api/ask", json={"position": table, "question": "legal"})
    assert r.status_code == 422 and _problem_at(r.json()["problems"], "regions.example-08.adjacent")
    assert looked == []
    for question in (
        {**MOVE, "via": ["Nowhere"] * 5_000},
        "move pilgrims from=example-08 to=example-09 via=" + ",".join(["x"] * 500),
    ):
        r = client.post("/api/ask", json={"position": TWENTY, "question": question})
        assert r.status_code == 422 and _problem_at(r.json()["problems"], "via")
    r = client.post(
        "/api/ask",
        content=yaml.safe_dump({"position": TWENTY, "question": {**MOVE, "via": ["Nowhere"] * 100}}),
        headers={"content-type": "application/yaml"},
    )
    assert r.status_code == 422 and _problem_at(r.json()["problems"], "via")
    assert looked == []


def test_a_question_of_too_many_words_is_refused(client: TestClient) -> None:
    r = client.post("/api/ask", json={"position": LEAVE, "question": ["move"] * 65})
    assert r.status_code == 422
    assert _problem_at(r.json()["problems"], "question")["message"] == "too long: at most 64 items, found 65"
    r = client.post("/api/ask", json={"position": LEAVE, "question": " ".join(["move"] * 65)})
    assert r.status_code == 422
    assert "at most 64 items, found 65" in r.text


def test_a_chart_list_past_its_limit_is_refused() -> None:
    body = {"chart": "impairment", "roll": 5, "mods": ["+1"] * 33, "situations": [], "lang": "en"}
    answer = json.loads(webapi.handle("POST", "/api/charts", json.dumps(body), {"ruleset": "advanced-cry-havoc"}))
    assert answer["status"] == 422, answer
    assert any("at most 32 items, found 33" in p["message"] for p in answer["body"]["problems"])


def test_the_cli_refuses_a_long_list_with_the_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "pos.yaml"
    table.write_text(yaml.safe_dump(_table(players=["humans"] * 17)))
    assert cli.main(["ask", str(table), "legal"]) == 2
    err = capsys.readouterr().err
    assert str(table) in err and "players" in err and "at most 16 items, found 17" in err
    assert cli.main(["--lang", "pl", "ask", str(table), "legal"]) == 2
    assert "najwyżej 16 elementów, znaleziono 17" in capsys.readouterr().err


def test_the_cli_refuses_a_long_via(capsys: pytest.CaptureFixture[str]) -> None:
    through = ",".join(["example-03"] * 17)
    words = ["move", "pilgrims", "from=example-08", "to=example-09", f"via={through}"]
    assert cli.main(["ask", str(FIXTURES / "twenty.yaml"), *words]) == 2
    assert "at most 16 items, found 17" in capsys.readouterr().err


# --- problem lists stop at 50 ----------------------------------------------------------------------


def _counting_problems(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every located problem a Reader words, as it words it."""
    worded: list[str] = []
    real = spec.Problem

    def counting(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        worded.append(found.message)
        return found

    monkeypatch.setattr(spec, "Problem", counting)
    return worded


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_problems_stop_being_worded_after_the_50_listed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    worded = _counting_problems(monkeypatch)
    regions = {f"r{i}": {"units": {"elves": 1}, "crystals": -1, "terrain": "lava"} for i in range(60)}
    r = client.post("/api/ask", json={"position": {**LEAVE, "regions": regions}, "question": "legal", "lang": lang})
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert len(problems) == 51
    assert problems[-1] == {
        "in": "request",
        "field": "",
        "message": {"en": "and more problems", "pl": "i dalsze problemy"}[lang],
        "code": "input.more-problems",
    }
    assert len(worded) <= 51  # 180 problems in the table: the 50 listed and the "and more" were worded


def test_unknown_fields_stop_being_worded_after_50(monkeypatch: pytest.MonkeyPatch) -> None:
    worded = _counting_problems(monkeypatch)
    body = {"position": {**LEAVE, **{f"field-{i}": 0 for i in range(5_000)}}, "question": "legal"}
    answer = json.loads(webapi.handle("POST", "/api/ask", json.dumps(body)))
    assert answer["status"] == 422
    assert len(answer["body"]["problems"]) == 51 and answer["body"]["problems"][-1]["message"] == "and more problems"
    assert len(worded) <= 51


def test_the_cli_says_and_more_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "pos.yaml"
    table.write_text(json.dumps({**LEAVE, **{f"field-{i}": 0 for i in range(200)}}))  # (JSON is YAML, in order)
    assert cli.main(["ask", str(table), "legal"]) == 2
    err = capsys.readouterr().err
    assert "and more problems" in err and "field-49" in err and "field-60" not in err
    assert "51 problems" not in err  # (not counted: the rest were not looked for)


# --- what a body may be before it is parsed --------------------------------------------------------


def _counting_constructions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every YAML node the request's loader constructs."""
    made: list[int] = []
    real = yamlio._Loader.construct_object

    def counting(self: Any, node: Any, deep: bool = False) -> Any:
        made.append(1)
        return real(self, node, deep)

    monkeypatch.setattr(yamlio._Loader, "construct_object", counting)
    return made


def test_a_yaml_body_that_is_a_list_is_refused_from_its_first_event(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _counting_constructions(monkeypatch)
    r = client.post("/api/ask", content="- a\n" * 20_000, headers={"content-type": "application/yaml"})
    assert r.status_code == 400
    problem = r.json()["problems"][0]
    assert problem["message"] == "expected a mapping (key: value) at the top level" and problem["line"] == 1
    assert made == []
    r = client.post("/api/ask?lang=pl", content="- a\n" * 20, headers={"content-type": "application/yaml"})
    assert r.json()["problems"][0]["message"] == "oczekiwano słownika (klucz: wartość) na najwyższym poziomie"


def test_a_yaml_body_of_too_many_values_is_refused_before_it_is_built(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _counting_constructions(monkeypatch)
    body = "position:\n  players: [humans]\n  regions:\n" + "".join(f"    r{i}: {{}}\n" for i in range(3_000))
    r = client.post("/api/ask", content=body + "question: legal\n", headers={"content-type": "application/yaml"})
    assert r.status_code == 400
    problem = r.json()["problems"][0]
    assert problem["message"] == f"more than {yamlio.MOST_VALUES} values"
    assert problem["line"] > 500  # where the count passed the limit
    assert made == []


def test_a_yaml_body_just_past_the_values_is_refused_while_it_is_composed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body that may hold up to twice the limit is counted by the composer itself (one parse),
    and refused before a value is constructed."""
    made = _counting_constructions(monkeypatch)
    body = "position:\n  players: [humans]\n  regions:\n" + "".join(f"    r{i}: {{}}\n" for i in range(800))
    assert yamlio.MOST_VALUES < yamlio._values_at_most(body.encode()) <= 2 * yamlio.MOST_VALUES
    r = client.post("/api/ask", content=body + "question: legal\n", headers={"content-type": "application/yaml"})
    assert r.status_code == 400
    assert r.json()["problems"][0]["message"] == f"more than {yamlio.MOST_VALUES} values"
    assert made == []


def test_a_position_text_of_too_many_values_is_refused() -> None:
    text = "players: [humans]\nregions:\n" + "".join(f"  r{i}: {{}}\n" for i in range(3_000))
    answer = json.loads(webapi.handle("POST", "/api/ask", json.dumps({"position": text, "question": "legal"})))
    assert answer["status"] == 422
    assert any(f"more than {yamlio.MOST_VALUES} values" in p["message"] for p in answer["body"]["problems"])


def _counting_json(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every JSON parse of a request (orjson's and the standard library's)."""
    import orjson

    from havoc.web.server import app as server_app

    parsed: list[int] = []
    real_orjson, real_json = orjson.loads, json.loads

    def counting_orjson(raw: Any) -> Any:
        parsed.append(1)
        return real_orjson(raw)

    def counting_json(text: Any, **kwargs: Any) -> Any:
        parsed.append(1)
        return real_json(text, **kwargs)

    monkeypatch.setattr(server_app.orjson, "loads", counting_orjson)
    monkeypatch.setattr(webapi.json, "loads", counting_json)
    return parsed


@pytest.mark.parametrize(
    "body",
    [
        '{"position": ' + "[" * 100_000 + "]" * 100_000 + ', "question": "legal"}',
        json.dumps({"position": {"players": [[]] * 50_000}, "question": "legal"}),
        json.dumps(
            {"position": {"players": ["humans"], "regions": {f"r{i}": {} for i in range(5_000)}}, "question": "legal"}
        ),
    ],
    ids=["deep", "many lists", "many mappings"],
)
def test_a_json_body_of_too_many_brackets_is_refused_before_it_is_parsed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    parsed = _counting_json(monkeypatch)
    r = client.post("/api/ask", content=body, headers={"content-type": "application/json"})
    handled = webapi.handle("POST", "/api/ask", body, {"lang": "pl"})
    assert parsed == []  # (before the answers are read here)
    assert r.status_code == 400
    assert r.json()["problems"][0]["message"] == f"more than {webapi.MAX_BRACKETS} brackets"
    answer = json.loads(handled)
    assert answer["status"] == 400
    assert answer["body"]["problems"][0]["message"] == f"więcej niż {webapi.MAX_BRACKETS} nawiasów"


def _twice(inner: str) -> str:
    return '{"position": ' + inner + ', "question": "legal"}'


TWICE = {
    "a Region": _twice(
        '{"players": ["humans"], "regions": {"a": {"units": {"humans": 1}}, "a": {"units": {"humans": 9}}}}'
    ),
    "a field": _twice('{"players": ["humans"], "players": ["pilgrims"]}'),
    "a request's field": '{"position": {"players": ["humans"]}, "question": "legal", "question": "score"}',
    # the first of the two holds colons of its own (in a text, in a mapping's members)
    "with colons in the value left out": '{"position": {"players": ["humans"]}, "question": {"ask": "x:y"}, '
    '"question": "legal"}',
    # a colon written as an escape in the value kept makes up for the member left out: the
    # colons written back would match the body's own (so such a body is counted member by member)
    "behind an escaped colon": '{"position": {"players": ["humans"]}, "lang": "en", "lang": "\\u003a"}',
    "behind a colon in a text": '{"position": {"players": ["humans"], "variant": "a:b"}, "question": "legal", '
    '"question": "score"}',
    # a large body, read through the kept tables' texts
    "in a large body": _twice(json.dumps(TWENTY)[:-1] + ', "round": 1}'),
}


@pytest.mark.parametrize("body", list(TWICE.values()), ids=list(TWICE))
def test_a_json_key_given_twice_is_refused_as_yaml_refuses_it(client: TestClient, body: str) -> None:
    for _ in range(2):  # (the second time, a large body's table text is one the server keeps)
        r = client.post("/api/ask", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["problems"][0]["message"].startswith("duplicate key ")
    answer = json.loads(webapi.handle("POST", "/api/ask", body))
    assert answer["status"] == 400
    assert answer["body"]["problems"][0]["message"].startswith("duplicate key ")


def test_a_table_with_a_colon_in_a_text_is_still_read(client: TestClient) -> None:
    """The duplicate check counts colons: a colon in a text sends the body to the standard
    library's reader, which reads it as before."""
    table = _table(regions={**TWENTY["regions"], "example-21": {"terrain": "jungle"}})
    body = {"position": table, "question": "move pilgrims from=example-08 to=example-09 units=1", "lang": "en"}
    text = json.dumps(body).replace('"terrain": "jungle"}}', '"terrain": "jungle"}}, "variant": "a:b"', 1)
    r = client.post("/api/ask", content=text, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "a:b" in r.text  # (read: the variant named is unknown)
    assert client.post("/api/ask", json=body).status_code == 200


# --- the published schemas say the limits -----------------------------------------------------------


def test_the_schemas_say_the_limits(client: TestClient) -> None:
    schema = client.get("/api/schema/position").json()
    props = schema["properties"]
    assert props["players"]["maxItems"] == 16
    assert props["regions"]["maxProperties"] == 64
    region = props["regions"]["additionalProperties"]["properties"]
    assert region["adjacent"]["maxItems"] == 16 and region["structures"]["maxItems"] == 16
    described = client.get("/openapi.json").json()
    question = described["components"]["schemas"]["Question"]
    assert question["properties"]["via"]["maxItems"] == 16
    words = described["paths"]["/api/ask"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    forms = words["properties"]["question"]["anyOf"]
    assert any(f.get("type") == "array" and f.get("maxItems") == 64 for f in forms)
