"""A request's body is read with its position's key (:func:`havoc.webapi.decode_keyed`): the same
values as json.loads, the same refusals, and a key that only the same table's text shares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from havoc import webapi

LEAVE = yaml.safe_load((Path(__file__).parent / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text())

BODIES = [
    json.dumps({"position": LEAVE, "question": "legal", "lang": "pl"}),
    json.dumps({"question": "legal", "position": LEAVE}, indent=2),
    ' \n{ "position" :{"a":[1,2,{"b":null}]} , "position": {"c": 1.5e3}, "x": "\\u0105\\"}" }\r\n',
    '{"position": "players: [humans]", "question": "legal"}',
    '{"position": [1, 2], "question": {"ask": "legal"}}',
    "{}",
    " { } ",
    '{"a": NaN, "b": -Infinity}',
    "[1, 2]",
    '"text"',
    "12",
]

BROKEN = [
    "",
    "{",
    '{"position": {}',
    '{"position": {}} x',
    '{"position" {}}',
    '{"position": {},}',
    "{'position': {}}",
    '{"position": {"a": 1,}}',
    '{"a": "\x01"}',
    "\ufeff{}",
    "[" * 5000,
    '{"position": ' + "[" * 5000 + "]" * 5000 + "}",
]


@pytest.mark.parametrize("text", BODIES)
def test_the_values_are_json_loads_values(text: str) -> None:
    data, _ = webapi.decode_keyed(text, "en")
    # compared as text: NaN is not equal to itself, and a mapping's order counts here
    assert repr(data) == repr(json.loads(text))


@pytest.mark.parametrize("text", BROKEN)
def test_broken_bodies_are_refused_as_before(text: str) -> None:
    with pytest.raises(webapi.Refused) as keyed:
        webapi.decode_keyed(text, "pl")
    with pytest.raises(webapi.Refused) as plain:
        webapi.decode_json(text, "pl")
    assert (keyed.value.status, keyed.value.json()) == (plain.value.status, plain.value.json())


def test_only_the_same_table_shares_a_key() -> None:
    def key(position: object, question: str, lang: str = "en") -> str:
        return webapi.decode_keyed(json.dumps({"position": position, "question": question, "lang": lang}), "en")[1]

    other = json.loads(json.dumps(LEAVE))
    other["regions"]["example-a"]["units"]["humans"] = 7
    assert key(LEAVE, "legal") == key(LEAVE, "move humans from=example-a to=example-b units=1", "pl") != ""
    assert key(LEAVE, "legal") != key(other, "legal")
    assert webapi.decode_keyed('{"position": "players: [humans]"}', "en")[1] == ""  # text: keyed by the engine
    assert webapi.decode_keyed('{"position": {"a": 1}, "position": {"a": 2}}', "en")[1] == 'json:{"a": 2}'


def test_a_kept_table_answers_without_being_validated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = webapi.Engine()
    allowed = ("position", "question", "lang")
    first = json.dumps({"position": LEAVE, "question": "move humans from=example-a to=example-b units=1"})
    spaced = json.dumps({"question": "legal", "position": LEAVE}, indent=1)
    data, key = webapi.decode_keyed(first, "en")
    engine.ask(engine.read(data, allowed, "en", key=key))

    def never(*args: object) -> None:
        raise AssertionError("validated again")

    monkeypatch.setattr(engine, "_validate", never)
    data, key = webapi.decode_keyed(first.replace("units=1", "units=3"), "en")
    assert engine.ask(engine.read(data, allowed, "en", key=key))["kind"] == "move"
    data, key = webapi.decode_keyed(spaced, "en")  # the same table spaced otherwise: validated again
    with pytest.raises(AssertionError, match="validated again"):
        engine.ask(engine.read(data, allowed, "en", key=key))
