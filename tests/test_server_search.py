"""GET /api/search: the rule search of ``havoc lookup`` (``havoc.search.lookup``) over HTTP.

The search core comes from the search branch; this file is meant to run once both are merged
(on the serve branch alone ``havoc.search`` does not exist and the endpoint answers 503).
"""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from havoc.web.server import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(None), raise_server_exceptions=False)


@pytest.mark.parametrize(
    ("q", "lang", "limit"),
    [("leave a battle", "en", 5), ("opuścić bitwę", "pl", 5), ("kryształów", "pl", 3), ("hand limit", "en", 10)],
)
def test_search_gives_the_hits_of_the_search_core(client: TestClient, q: str, lang: str, limit: int) -> None:
    from havoc.search import lookup

    r = client.get("/api/search", params={"q": q, "lang": lang, "limit": limit})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["query"] == q and body["lang"] == lang
    expected = [json.loads(json.dumps(h.as_json())) for h in lookup(q, lang=lang, limit=limit)]
    assert body["hits"] == expected
    assert 0 < len(body["hits"]) <= limit


def test_search_finds_the_leaving_rule_in_both_languages(client: TestClient) -> None:
    for q, lang in (("leave a battle region", "en"), ("opuszczanie regionu bitwy", "pl")):
        hits = client.get("/api/search", params={"q": q, "lang": lang}).json()["hits"]
        assert "battle-region-leave" in json.dumps(hits[:5]), (q, hits[:5])


def test_search_with_odd_input_never_fails(client: TestClient) -> None:
    for q in ("", " ", "\u0000", "ą" * 500, "*?[]", "' OR 1=1"):
        r = client.get("/api/search", params={"q": q, "lang": "pl"})
        assert r.status_code in (200, 422), (q, r.status_code, r.text)
