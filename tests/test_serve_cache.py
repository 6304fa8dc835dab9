"""``havoc serve`` keeps its answers (:mod:`havoc.web.server.answers`): a request asked again,
byte for byte, gets the bytes answering it afresh gives; anything that changes an answer (the
address, the body, its type, the language from the query or headers, the rules) is another key;
refusals are not kept; the memory stays within its bounds."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
import stored_examples
from starlette.testclient import TestClient

from havoc.engine import rulebook
from havoc.web.server.answers import Answers
from havoc.web.server.app import create_app


@pytest.fixture(scope="module")
def apps() -> Iterator[tuple[Any, TestClient, TestClient]]:
    """One application that keeps answers and one that keeps none (it answers afresh each time)."""
    kept, fresh = create_app(None), create_app(None)
    fresh.handlers.answers = Answers(most=0)
    with TestClient(kept, raise_server_exceptions=False) as k, TestClient(fresh, raise_server_exceptions=False) as f:
        yield kept, k, f


def _examples() -> list[tuple[str, dict[str, Any]]]:
    rs = rulebook.load()
    return [stored_examples.request(rs, ex, lang) for ex in stored_examples.examples(rs, None) for lang in ("en", "pl")]


def _post(c: TestClient, path: str, body: bytes, **headers: str) -> Any:
    return c.post(path, content=body, headers={"Content-Type": "application/json", **headers})


def test_every_stored_example_asked_again_gets_the_fresh_answers_bytes(
    apps: tuple[Any, TestClient, TestClient],
) -> None:
    app, kept, fresh = apps
    answers = app.handlers.answers
    for path, body in _examples():
        raw = json.dumps(body).encode()
        first = _post(kept, path, raw)
        hits = answers.hits
        again = _post(kept, path, raw)
        afresh = _post(fresh, path, raw)
        assert first.status_code == again.status_code == afresh.status_code == 200, (path, body)
        assert answers.hits == hits + 1  # the second came from memory
        assert again.content == first.content == afresh.content
        assert again.headers["content-type"] == afresh.headers["content-type"]
    assert fresh.app.handlers.answers.hits == 0 and len(fresh.app.handlers.answers) == 0


def test_the_language_from_the_headers_or_the_query_is_part_of_the_key(
    apps: tuple[Any, TestClient, TestClient],
) -> None:
    _app, kept, fresh = apps
    path, body = _examples()[0]
    del body["lang"]  # the language then comes from ?lang= or Accept-Language
    raw = json.dumps(body).encode()
    seen = set()
    for query, headers in (("", {}), ("", {"Accept-Language": "pl"}), ("?lang=pl", {}), ("?lang=en", {})):
        for _ in range(2):
            got = _post(kept, path + query, raw, **headers)
            want = _post(fresh, path + query, raw, **headers)
            assert got.status_code == 200 and got.content == want.content, (query, headers)
        seen.add(got.content)
    assert len(seen) == 2  # English and Polish, each as afresh


def test_the_address_and_the_body_type_are_part_of_the_key(apps: tuple[Any, TestClient, TestClient]) -> None:
    _app, kept, fresh = apps
    body = {"position": {"players": ["humans", "pilgrims"], "turn": "humans"}, "faction": "humans", "lang": "pl"}
    raw = json.dumps(body).encode()
    legal = _post(kept, "/api/legal", raw)
    as_yaml = kept.post("/api/legal", content=raw, headers={"Content-Type": "application/yaml"})  # JSON is YAML
    assert legal.status_code == as_yaml.status_code == 200
    assert legal.content == as_yaml.content == _post(fresh, "/api/legal", raw).content
    # the same bytes at another address: that address's answer (here a refusal), not the kept one
    other = _post(kept, "/api/ask", raw)
    assert other.status_code == 422 and other.content == _post(fresh, "/api/ask", raw).content


def test_a_refusal_is_made_again_not_kept(apps: tuple[Any, TestClient, TestClient]) -> None:
    app, kept, _ = apps
    answers = app.handlers.answers
    raw = json.dumps({"position": {"players": ["nobody"]}, "question": "legal", "lang": "en"}).encode()
    before = len(answers)
    first, again = _post(kept, "/api/ask", raw), _post(kept, "/api/ask", raw)
    assert first.status_code == again.status_code == 422
    assert first.content == again.content
    assert len(answers) == before


def test_other_rules_forget_every_kept_answer(apps: tuple[Any, TestClient, TestClient]) -> None:
    app, kept, _ = apps
    path, body = _examples()[0]
    raw = json.dumps(body).encode()
    answer = _post(kept, path, raw).content
    answers, engine = app.handlers.answers, app.handlers.engine
    kept_before = len(answers)
    assert kept_before > 0 and answers.get((0,), engine.rs) is None
    assert len(answers) == kept_before  # a miss under the same rules forgets nothing
    rules = engine.rs
    try:
        engine.rs = copy.copy(rules)  # the same rules' words, another Ruleset: nothing kept holds for it
        hits = answers.hits
        assert _post(kept, path, raw).content == answer
        assert answers.hits == hits and len(answers) == 1
    finally:
        engine.rs = rules
        answers.clear()


def test_the_memory_keeps_its_bounds_and_forgets_the_least_recently_asked() -> None:
    rules = object()
    answers = Answers(most=3, most_bytes=100, largest=60)
    for k in "abc":
        answers.put(k, 1, b"x" * 9, rules)
    assert answers.get("a", rules) == b"x" * 9  # "a" is now the most recent
    answers.put("d", 1, b"y" * 9, rules)
    assert len(answers) == 3 and answers.get("b", rules) is None  # the least recent went
    assert [answers.get(k, rules) is not None for k in "acd"] == [True, True, True]
    answers.put("big", 10, b"z" * 51, rules)  # larger than `largest` together: not kept
    assert answers.get("big", rules) is None and answers.size == 30
    for i in range(4):  # 50 bytes each: only two fit in 100
        answers.put(i, 0, b"w" * 50, rules)
    assert answers.size <= 100 and len(answers) == 2 and answers.get(3, rules) is not None
    answers.put(3, 0, b"v" * 10, rules)  # the same key again: replaced, counted once
    assert answers.size == 60 and answers.get(3, rules) == b"v" * 10
    assert answers.get(3, object()) is None and len(answers) == 0 and answers.size == 0


def test_the_count_kept_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from havoc.web.server.answers import MOST_ANSWERS, MOST_ENV, most_answers

    for value, want in (
        ("0", 0),
        ("17", 17),
        (" 5 ", 5),
        ("", MOST_ANSWERS),
        ("-1", MOST_ANSWERS),
        ("²", MOST_ANSWERS),
    ):
        monkeypatch.setenv(MOST_ENV, value)
        assert most_answers() == want, value
    monkeypatch.setenv(MOST_ENV, "0")
    app = create_app(None)
    with TestClient(app) as c:
        path, body = _examples()[0]
        raw = json.dumps(body).encode()
        assert _post(c, path, raw).content == _post(c, path, raw).content
    assert app.handlers.answers.hits == 0 and len(app.handlers.answers) == 0
