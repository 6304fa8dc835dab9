"""The server's quick nesting test (orjson's indented text) refuses exactly what the walk refuses.

:func:`havoc.web.server.app.too_deep_in` replaces ``depth(data) > MAX_DEPTH`` for a body whose table
is new; a body it let through that the walk refuses would reach the validators nested past the
limit, and one it refused that the walk lets through would be a 400 for a good question.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from havoc.assistant.api import load_ruleset
from havoc.assistant.webapi import MAX_DEPTH, Refused, depth
from havoc.web.server.app import Api, Head, too_deep_in


def _chain(rnd: random.Random, levels: int) -> Any:
    """A value nested ``levels`` deep, each level a list or a mapping, with siblings and strings
    that look like JSON's structure (brackets, braces, line breaks, long runs of spaces)."""
    value: Any = rnd.choice([[], {}, 1, "x", None, "\n" + " " * 200 + "[", [" " * 130], {"k": {}}])
    if not isinstance(value, (list, dict)):
        value = [value]
    for _ in range(levels - 1):
        if rnd.random() < 0.5:
            siblings: list[Any] = [rnd.choice([0, "a\n  b", {}, [], 2.5, True]) for _ in range(rnd.randint(0, 2))]
            siblings.insert(rnd.randint(0, len(siblings)), value)
            value = siblings
        else:
            value = {f"k{i}": rnd.choice([0, "{\n}", [], {}]) for i in range(rnd.randint(0, 2))} | {"deep": value}
    return value


def test_the_quick_test_agrees_with_the_walk_around_the_limit() -> None:
    rnd = random.Random(26)
    seen = set()
    for _ in range(3000):
        data = _chain(rnd, rnd.randint(MAX_DEPTH - 3, MAX_DEPTH + 3))
        if rnd.random() < 0.3:  # a shallow branch beside it, or the deep one under a body's field
            data = {"position": data, "question": "legal", "lang": rnd.choice(["en", [[]]])}
        expected = depth(data) > MAX_DEPTH
        seen.add(expected)
        assert too_deep_in(data) == expected, json.dumps(data)[:200]
    assert seen == {True, False}


@pytest.mark.parametrize("levels", [1, 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2, 300, 5000])
@pytest.mark.parametrize("shape", ["list", "dict", "empty-list", "empty-dict", "scalar"])
def test_exact_at_every_shape(levels: int, shape: str) -> None:
    inner: Any = {"list": [1], "dict": {"a": 1}, "empty-list": [], "empty-dict": {}, "scalar": "s"}[shape]
    value: Any = inner
    for i in range(levels - (0 if shape == "scalar" else 1)):
        value = [value] if i % 2 else {"x": value}
    assert too_deep_in(value) == (depth(value) > MAX_DEPTH)


def test_values_orjson_does_not_write_are_walked() -> None:
    assert too_deep_in({1: [[]]}) is False  # a key that is not text (a YAML body's)
    assert too_deep_in({"n": 2**70}) is False
    nested: Any = 1
    for _ in range(MAX_DEPTH + 1):
        nested = {1: nested}
    assert too_deep_in(nested) is True


def _outcome(api: Api, body: bytes, quick: bool) -> tuple[int, Any]:
    head = Head("application/json", None, "", "")
    allowed = ("position", "question", "lang")
    try:
        # quick: the server's read; else the walk (the engine's read without the transport's test)
        asked = api.parse(head, body, allowed) if quick else api.engine.read(json.loads(body), allowed, "en")
    except Refused as exc:
        return exc.status, exc.json()
    return 200, asked.data


def test_the_server_refuses_exactly_what_the_engine_alone_refuses() -> None:
    api = Api(load_ruleset())
    rnd = random.Random(7)
    for _ in range(400):
        body = {"position": _chain(rnd, rnd.randint(MAX_DEPTH - 2, MAX_DEPTH + 2)), "question": "legal"}
        if rnd.random() < 0.3:
            body["lang"] = _chain(rnd, rnd.randint(MAX_DEPTH - 2, MAX_DEPTH + 2))
        raw = json.dumps(body).encode()
        api.engine._positions.clear()  # every table new: the quick test, never a kept table
        assert _outcome(api, raw, True) == _outcome(api, raw, False), raw[:200]
