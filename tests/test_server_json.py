"""``havoc serve`` reads JSON bodies with orjson (:func:`havoc.web.server.app.read_json`): the same
values as json.loads (the in-browser engine's reader), the same refusals, and a key for the
table that only the same table gets."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc.assistant import webapi
from havoc.web.server.app import read_json

LEAVE = yaml.safe_load((Path(__file__).parent / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text())

BODIES = [
    json.dumps({"position": LEAVE, "question": "legal", "lang": "pl"}),
    json.dumps({"question": "legal", "position": LEAVE}, indent=2),
    ' \n{ "position" :{"a":[1,2,{"b":null}]} , "position": {"c": 1.5e3}, "x": "\\u0105\\"}" }\r\n',
    '{"position": "players: [humans]", "question": "legal"}',
    '{"position": [1, 2], "question": {"ask": "legal"}}',
    '{"position": {"units": 123456789012345678901234567890}}',  # orjson would read a float
    '{"position": {"units": -9223372036854775809, "n": 18446744073709551615}}',
    '{"position": {"a": NaN, "b": -Infinity, "c": 1e400}}',
    '{"position": {"a": "\\ud800"}}',
    '{"position": {"a": -0.0, "b": 0.1, "c": 1E2, "d": 1.0000000000000002, "e": "\\u0000"}}',
    '{"position": {"a": ' + "[" * 300 + "]" * 300 + "}}",  # deeper than orjson writes
    "{}",
    "[1, 2]",
    '"text"',
]

BROKEN = [
    "",
    "{",
    '{"position": {}',
    '{"position": {}} x',
    '{"position" {}}',
    '{"position": {},}',
    "{'position': {}}",
    '{"a": "\x01"}',
    "\ufeff{}",
    '{"a": 1}\x00',
    "[" * 5000,
]


def read(text: str) -> tuple[Any, bytes | None]:
    return read_json(text.encode("utf-8", "surrogatepass"), text, "pl")


@pytest.mark.parametrize("text", BODIES)
def test_the_values_are_json_loads_values(text: str) -> None:
    data, _ = read(text)
    assert repr(data) == repr(json.loads(text))  # as text: NaN is not equal to itself, order counts


def test_floats_are_read_to_the_last_bit() -> None:
    rnd = random.Random(5)
    numbers = [rnd.uniform(-1e6, 1e6) for _ in range(300)] + [
        rnd.random() * 10 ** rnd.randint(-300, 300) for _ in range(300)
    ]
    text = json.dumps({"position": {"n": numbers}})
    assert read(text)[0] == json.loads(text)


@pytest.mark.parametrize("text", BROKEN)
def test_broken_bodies_are_refused_as_by_the_engine(text: str) -> None:
    with pytest.raises(webapi.Refused) as server:
        read(text)
    with pytest.raises(webapi.Refused) as engine:
        webapi.decode_json(text, "pl")
    assert (server.value.status, server.value.json()) == (engine.value.status, engine.value.json())


def key(position: Any, question: str = "legal", lang: str = "en") -> bytes | None:
    return read(json.dumps({"position": position, "question": question, "lang": lang}))[1]


def test_only_the_same_table_gets_the_same_key() -> None:
    other = json.loads(json.dumps(LEAVE))
    other["regions"]["example-a"]["units"]["humans"] = 7
    assert key(LEAVE) == key(LEAVE, "move humans from=example-a to=example-b units=1", "pl")
    assert key(LEAVE) != key(other)
    variants = [{"n": 1}, {"n": 1.0}, {"n": True}, {"n": "1"}, {"n": [1]}, {"n": 0.0}, {"n": -0.0}, {"n": None}]
    assert len({key(v) for v in variants}) == len(variants)
    assert key("players: [humans]") is None  # text: the engine keys it
    assert read('{"position": {"a": NaN}}')[1] is None  # read by json.loads: the engine keys it (nan, not null)


def test_a_kept_table_answers_without_being_validated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = webapi.Engine()
    allowed = ("position", "question", "lang")

    def ask(text: str) -> dict[str, Any]:
        data, key = read(text)
        return engine.ask(engine.read(data, allowed, "en", key=key))

    first = json.dumps({"position": LEAVE, "question": "move humans from=example-a to=example-b units=1"})
    ask(first)

    def never(*args: object) -> None:
        raise AssertionError("validated again")

    monkeypatch.setattr(engine, "_validate", never)
    assert ask(first.replace("units=1", "units=3"))["kind"] == "move"
    assert ask(json.dumps({"question": "legal", "position": LEAVE}, indent=1))["kind"] == "legal"  # another spacing
    other = json.loads(json.dumps(LEAVE))
    other["factions"]["humans"]["vp"] = 3
    with pytest.raises(AssertionError, match="validated again"):
        ask(json.dumps({"position": other, "question": "legal"}))
