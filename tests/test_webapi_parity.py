"""The server and the in-browser engine are two transports around one request module
(:mod:`havoc.assistant.webapi`): the same requests give the same status and JSON through both, here
in-process (tests/test_engine_browser.py repeats the comparison in Pyodide). The refusals the two
once worded apart are in the list: a null language, a body nested too deeply, a long question,
too many unknown fields, an unknown language for the labels.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from test_engine_browser import FIXTURES, by_server, post, requests

from havoc.assistant import webapi

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from havoc.web.server import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def refusals() -> list[dict[str, Any]]:
    leave = yaml.safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text(encoding="utf-8"))
    deep: Any = 1
    for _ in range(webapi.MAX_DEPTH + 1):
        deep = [deep]
    return [
        post("/api/ask", {"position": leave, "question": "legal", "lang": None}),
        post("/api/ask", {"position": leave, "question": deep, "lang": "pl"}),
        post("/api/ask", {"position": leave, "question": "move " * webapi.QUESTION_TEXT_MAX, "lang": "pl"}),
        post("/api/ask", {"position": "x" * (webapi.POSITION_TEXT_MAX + 1), "question": "legal"}),
        post("/api/legal", {"position": leave, **{f"k{i}": i for i in range(webapi.MAX_PROBLEMS + 5)}, "lang": "pl"}),
        post("/api/ask", {"question": "legal", "lang": "pl", "extra": 1}),
        post("/api/ask", {"position": [1], "question": "legal", "lang": "pl"}),
        {"method": "GET", "path": "/api/labels", "query": {"lang": "xx"}},
        post("/api/ask", "[" * 5000),
    ]


def test_the_server_and_the_engine_answer_alike(client: TestClient) -> None:
    sent = requests() + refusals()
    differ = []
    for req in sent:
        out = json.loads(webapi.handle(req["method"], req["path"], req.get("body", ""), req.get("query")))
        status, body = by_server(client, req)
        if (out["status"], out["body"]) != (status, body):
            differ.append((req["path"], req.get("body", "")[:200], status, out["status"], body, out["body"]))
    assert not differ, f"{len(differ)} of {len(sent)} differ; first: {differ[0]}"
    statuses = {
        json.loads(webapi.handle(r["method"], r["path"], r.get("body", ""), r.get("query")))["status"]
        for r in refusals()
    }
    assert statuses == {400, 422}
