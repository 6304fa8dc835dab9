"""A table asked about again is read from its kept JSON text (:class:`havoc.web.server.app.TableTexts`):
every body read that way has exactly the values and the key :func:`read_json` gives it, and any
body it cannot read so (another layout, a table not seen, a body that is not JSON) is read whole."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import yaml

from havoc.assistant import webapi
from havoc.web.server.app import Api, Head, TableTexts, read_json

FIXTURES = Path(__file__).parent / "fixtures" / "assistant"
LEAVE = yaml.safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text())
TWENTY = yaml.safe_load((FIXTURES / "twenty.yaml").read_text())
TABLES: list[Any] = [
    LEAVE,
    TWENTY,
    {"a": "}", "b": '"position": {', "c": [1, {"d": '}, "lang": "en"}'}]},
    {"ząb": "\u0105\u2028", "n": [1.5, -0.0, 10**18], "e": {}, "f": [[], [{}]]},
    {"position": {"position": "}"}},
]
QUESTIONS: list[Any] = [
    "legal",
    "move humans from=example-a to=example-b units=1",
    'a "quoted" } word, "lang": "pl"}',
    {"ask": "battle", "objectives": {"humans": {"control": 1}, "pilgrims": {"attrition": 2}}},
    {"ask": "x", "n": [{"}": "{"}]},
    12345678901234567890123,  # orjson would read a float: the whole body goes to json.loads
]
SEPARATORS = [(",", ":"), (", ", ": "), (",\n ", " :\t"), (" ,\r\n", ":  ")]


def _body(rnd: random.Random, table: Any) -> str:
    """One request about ``table``: its members in any order, spaced any way, sometimes with a
    member twice, sometimes broken."""
    members: list[tuple[str, Any]] = [("position", table), ("question", rnd.choice(QUESTIONS))]
    if rnd.random() < 0.7:
        members.append(("lang", rnd.choice(["en", "pl", "xx"])))
    rnd.shuffle(members)
    if rnd.random() < 0.15:  # a member twice (the last one counts)
        members.insert(rnd.randint(0, len(members)), rnd.choice([("lang", "pl"), ("question", "legal")]))
    if rnd.random() < 0.05:
        members.insert(rnd.randint(0, len(members)), ("position", rnd.choice(TABLES)))
    comma, colon = rnd.choice(SEPARATORS)
    indent = rnd.choice([None, None, 1, "\t"])
    parts = [json.dumps(k) + colon + json.dumps(v, indent=indent, ensure_ascii=rnd.random() < 0.5) for k, v in members]
    text = rnd.choice(["", " ", "\n"]) + "{" + comma.join(parts) + "}" + rnd.choice(["", "\n", " \r\n"])
    if rnd.random() < 0.12:  # broken: cut, a trailing comma, something after, a space JSON does not take
        cut = rnd.randint(1, len(text) - 1)
        text = rnd.choice(
            [
                text[:cut],
                text[:-1] + ",}",
                text + "x",
                text.replace(comma, comma + "\x0b", 1),
                text[:cut] + text[cut + 1 :],
            ]
        )
    return text


def _whole(raw: bytes) -> Any:
    try:
        data, key = read_json(raw, raw.decode("utf-8"), "en")
    except webapi.Refused as exc:
        return ("refused", exc.status, exc.json())
    return (repr(data), key)


def test_a_body_read_from_a_kept_text_reads_as_the_whole_body_reads() -> None:
    rnd = random.Random(26)
    tables = TableTexts(most=6)  # small: texts are forgotten too
    taken = 0
    for _ in range(3000):
        raw = _body(rnd, rnd.choice(TABLES)).encode("utf-8")
        whole = _whole(raw)
        known = tables.read(raw)
        if known is not None:
            taken += 1
            assert (repr(known[0]), known[1]) == whole, raw[:300]
        elif whole[0] != "refused" and whole[1]:
            tables.remember(raw, json.loads(raw))
    assert taken > 500  # the kept texts were used, not only the whole reading


def test_a_text_is_used_only_once_read_on_its_own() -> None:
    """What remember notes is checked when first found again: a text that is not one whole value
    (here a table and the member after it, which a member given twice lets through) is forgotten."""
    tables = TableTexts()
    first = b'{"position": {"a": 1}, "question": {"b": 2}, "question": {"b": 2}}'
    tables.remember(first, json.loads(first))
    assert list(tables._texts) == [b'{"a": 1}, "question": {"b": 2}']  # noted as a guess
    again = b'{"position": {"a": 1}, "question": {"b": 2}, "lang": "pl"}'
    assert tables.read(again) is None  # read whole: {"a": 1}, "question": … is no table's text
    assert not tables._texts


def test_the_server_answers_alike_with_and_without_the_kept_texts() -> None:
    from havoc.assistant.api import load_ruleset

    rs = load_ruleset()
    kept, plain = Api(rs), Api(rs)
    plain.tables.read = lambda raw: None  # type: ignore[method-assign]
    head = Head("application/json", None, "", "")
    allowed = ("position", "question", "lang")
    rnd = random.Random(4)
    bodies = []
    for _ in range(40):
        pos = json.loads(json.dumps(TWENTY))  # (a small table's body is read whole)
        pos["regions"]["example-08"]["units"]["pilgrims"] = rnd.randint(1, 3)
        for n in (1, 2, 3):
            question = f"move pilgrims from=example-08 to=example-09 units={n}"
            members = [("lang", rnd.choice(["en", "pl"])), ("position", pos), ("question", question)]
            rnd.shuffle(members)
            bodies.append(json.dumps(dict(members), separators=rnd.choice(SEPARATORS)).encode())

    def outcome(api: Api, raw: bytes) -> Any:
        try:
            return api._work(head, raw, allowed, lambda asked: api.engine.ask(asked))
        except webapi.Refused as exc:
            return exc.status, exc.json()

    for raw in bodies:
        assert outcome(kept, raw) == outcome(plain, raw)
    assert len(kept.tables._texts) > 10


def test_a_kept_text_in_a_broken_body_is_refused_as_the_whole_body_is() -> None:
    tables = TableTexts()
    table = json.dumps(LEAVE)
    good = '{"lang": "pl", "position": ' + table + ', "question": "legal"}'
    for _ in range(2):  # noted, then read on its own when found again
        raw = good.encode()
        if tables.read(raw) is None:
            tables.remember(raw, json.loads(raw))
    assert tables.read(good.encode()) is not None
    broken = [
        good.replace('"position": ', '"position" '),
        good.replace('"position": ', '"position"x '),
        good.replace('"position": ', '"position";'),
        good.replace('"position": ', '"position":: '),
        good.replace('"position": ', '"position": : '),
        good.replace('"lang": "pl", ', '"lang": "pl" '),
        good.replace('"lang": "pl", ', '"lang": "pl",, '),
        good.replace('"lang": "pl", ', '"lang": "p"l", '),
        good.replace('{"lang"', '{{"lang"'),
        good.replace('{"lang"', '["lang"'),
        good.replace(', "question"', ' "question"'),
        good.replace(', "question"', ',, "question"'),
        good.replace('"legal"}', '"legal"'),
        good.replace('"legal"}', '"legal"}}'),
        good.replace('"legal"}', '"legal",}'),
        good.replace('"question": "legal"', '"question": "legal", "position": {}'),
        good.replace('"lang": "pl"', '"lang": "pl", "position": 1'),
    ]
    for text in broken:
        raw = text.encode()
        whole = _whole(raw)
        known = tables.read(raw)
        assert known is None or (repr(known[0]), known[1]) == whole, text[:80]
        if whole[0] == "refused":
            assert known is None, text[:80]


def test_a_kept_text_nested_deeper_than_orjson_writes_is_forgotten() -> None:
    tables = TableTexts()
    deep = b'{"a": ' + b"[" * 300 + b"]" * 300 + b"}"
    tables._texts[deep] = None  # noted (remember itself notes only tables orjson wrote back)
    raw = b'{"position": ' + deep + b', "question": "legal"}'
    assert tables.read(raw) is None and not tables._texts
