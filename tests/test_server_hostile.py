"""Inputs a hostile or careless client sends ``havoc serve``: each is a 4xx, never a 500 or a 200 cut short.

In process, through Starlette's client; the limits of the real server (headers, connections,
time) are in tests/test_server_abuse.py.
"""

from __future__ import annotations

import builtins
import gzip
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from havoc.web.server import create_app
from havoc.web.server.app import MAX_DEPTH

LEAVE = yaml.safe_load((Path(__file__).parent / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text())
PAGE = "<!DOCTYPE html><title>en</title>" + "<p>Cry Havoc</p>" * 400


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    (root / "en").mkdir()
    (root / "index.html").write_text("<!DOCTYPE html><title>root</title>")
    (root / "en" / "index.html").write_text(PAGE)
    (root / "en" / "secret.html").write_text("<p>the reader may not open this</p>")
    (root / "en" / "loop-a").symlink_to(root / "en" / "loop-b")
    (root / "en" / "loop-b").symlink_to(root / "en" / "loop-a")
    (root / "en" / "self").symlink_to(root / "en" / "self")
    return root


@pytest.fixture(scope="module")
def client(site: Path) -> Iterator[TestClient]:
    with TestClient(create_app(site), raise_server_exceptions=False) as c:
        yield c


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


# --- bodies the JSON parser or the validators would recurse into -----------------------------


@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_json_nested_past_the_parsers_limit_is_400(client: TestClient, depth: int) -> None:
    body = '{"position": ' + "[" * depth + "]" * depth + ', "question": "legal"}'
    r = client.post("/api/ask", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "malformed" and "Traceback" not in r.text


def test_json_nested_deeper_than_a_position_can_be_is_400(client: TestClient) -> None:
    import json

    for field in ("position", "question", "lang"):
        body = {"position": {}, "question": "legal", field: _nested(MAX_DEPTH + 1)}
        r = client.post("/api/ask", content=json.dumps(body), headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (field, r.text)
        assert "nested" in r.json()["message"]
    # the same in Polish
    r = client.post(
        "/api/ask?lang=pl",
        content=json.dumps({"position": _nested(MAX_DEPTH + 1)}),
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 400 and "zagnieżdż" in r.json()["message"]


def test_yaml_nested_deeply_is_400(client: TestClient) -> None:
    body = "position: " + "[" * 5000 + "]" * 5000 + "\nquestion: legal\n"
    r = client.post("/api/ask", content=body, headers={"Content-Type": "application/yaml"})
    assert r.status_code == 400, r.text


# --- query parameters ------------------------------------------------------------------------


@pytest.mark.parametrize("limit", ["%C2%B2", "%D9%A3", "1" * 5000, "-1", "+5", " 5", "5.0", ""])
def test_search_limit_that_is_not_ascii_digits_is_422(client: TestClient, limit: str) -> None:
    r = client.get(f"/api/search?q=battle&limit={limit}")
    assert r.status_code == 422, (limit, r.status_code)
    assert r.json()["problems"][0]["field"] == "limit"


# --- the static site ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/en/loop-a", "/en/loop-b/x.html", "/en/self", "/en/self/index.html"])
def test_a_symbolic_link_loop_in_the_site_is_404(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_an_unreadable_file_is_403_before_anything_is_sent(
    client: TestClient, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is opened before the status line goes out: no 200 with a body cut short.

    The tests run as root (who reads every file), so the refusal is the operating system's
    answer put in place of ``open``.
    """
    secret = str(site / "en" / "secret.html")
    real_open = builtins.open

    def refusing_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) == secret:
            raise PermissionError(13, "Permission denied", secret)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing_open)
    r = client.get("/en/secret.html")
    assert r.status_code == 403
    assert "reader" not in r.text


def test_pages_are_gzipped_for_clients_that_take_it(client: TestClient) -> None:
    plain = client.get("/en/index.html", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and plain.text == PAGE
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
    packed = client.get("/en/index.html", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
    assert packed.text == PAGE  # httpx undoes the gzip
    assert int(packed.headers["content-length"]) < len(PAGE) // 5
    assert packed.headers["etag"] != plain.headers["etag"]  # two representations, two ETags
    refused = client.get("/en/index.html", headers={"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers
    again = client.get("/en/index.html", headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["etag"]})
    assert again.status_code == 304 and again.headers["etag"] == packed.headers["etag"]


def test_the_openapi_document_is_gzipped_too(client: TestClient) -> None:
    r = client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.json()["openapi"].startswith("3.")
    raw = client.get("/openapi.json", headers={"Accept-Encoding": "identity"})
    assert len(gzip.compress(raw.content)) < len(raw.content)


def test_a_changed_file_is_served_fresh(client: TestClient, site: Path) -> None:
    page = site / "en" / "changing.html"
    page.write_text("<p>one</p>")
    assert client.get("/en/changing.html").text == "<p>one</p>"
    page.write_text("<p>two, longer</p>")
    assert client.get("/en/changing.html").text == "<p>two, longer</p>"
    page.unlink()
    assert client.get("/en/changing.html").status_code == 404


@pytest.mark.parametrize("error", [ValueError("invalid literal for int()"), RecursionError(), OverflowError()])
def test_an_input_error_no_check_caught_is_400_not_500(
    site: Path, monkeypatch: pytest.MonkeyPatch, error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    """The generic guard: a conversion deep inside that refuses the input is the asker's 400 (and a log line)."""
    from havoc.assistant import api

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(api, "load_query", refuse)
    with TestClient(create_app(site), raise_server_exceptions=False) as c:
        r = c.post("/api/ask", json={"position": LEAVE, "question": "legal"})
    assert r.status_code == 400, r.text
    assert "Traceback" not in r.text and "int()" not in r.text


# --- answered from memory (issue 26) ------------------------------------------------------------

_WATCHING: list[tuple[str, str]] | None = None
_FILE_EVENTS = frozenset({"open", "os.listdir", "os.scandir", "glob.glob", "os.readlink"})


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _WATCHING is not None and event in _FILE_EVENTS:
        _WATCHING.append((event, str(args[0]) if args else ""))


def test_a_hundred_asks_read_no_file(site: Path) -> None:
    """The ruleset, catalogs and rule texts are loaded once: asking opens, lists or globs nothing."""
    global _WATCHING
    import sys

    sys.addaudithook(_audit)  # an audit hook stays for the process; it records only while watching
    questions = ["legal", "move humans from=example-a to=example-b units=2", {"ask": "score"}]
    with TestClient(create_app(site)) as c:
        for q in questions:  # the first of each kind may import a module; that is start-up
            assert c.post("/api/ask", json={"position": LEAVE, "question": q}).status_code == 200
        _WATCHING = []
        try:
            for i in range(100):
                lang = ("en", "pl")[i % 2]
                position = {**LEAVE, "factions": {**LEAVE.get("factions", {})}}  # a new table each time
                position["factions"]["humans"] = {**position["factions"].get("humans", {}), "vp": i}
                r = c.post("/api/ask", json={"position": position, "question": questions[i % 3], "lang": lang})
                assert r.status_code == 200, r.text
            seen = list(_WATCHING)
            _WATCHING = []
            for lang in ("en", "pl", "en"):  # the other endpoints, the second time round
                for path in ("/api/legal", "/api/score"):
                    assert c.post(path, json={"position": LEAVE, "lang": lang}).status_code == 200
                for get in ("/api/rules/hand-limit", "/api/labels", "/api/search?q=battle", "/api/schema/position"):
                    assert c.get(f"{get}{'&' if '?' in get else '?'}lang={lang}").status_code == 200, get
                if lang == "en":
                    _WATCHING = []
            others = list(_WATCHING)
        finally:
            _WATCHING = None
    assert seen == [], seen[:10]
    assert others == [], others[:10]


# --- error answers are bounded ---------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "more"), [("en", "and 19950 more problems"), ("pl", "i jeszcze 19950 problemów")])
def test_a_422_lists_at_most_50_problems_then_counts_the_rest(client: TestClient, lang: str, more: str) -> None:
    import json

    from havoc.web.server.app import MAX_PROBLEMS

    body = {"position": LEAVE, "question": "legal", "lang": lang, **{f"{i}": 0 for i in range(20_000)}}
    raw = json.dumps(body, separators=(",", ":"))
    assert len(raw) < 256 * 1024
    r = client.post("/api/ask", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert len(problems) == MAX_PROBLEMS + 1 and problems[-1]["message"] == more
    assert len(r.content) < 16 * 1024


def test_a_position_with_thousands_of_problems_gets_a_bounded_422(client: TestClient) -> None:
    regions = {f"nowhere-{i}": {"units": {"nobody": -1}, "crystals": -1} for i in range(60)}  # (the most Regions: 64)
    r = client.post("/api/ask", json={"position": {**LEAVE, "regions": regions}, "question": "legal"})
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert len(problems) <= 51 and len(r.content) < 32 * 1024


# --- the API as its description says -------------------------------------------------------------


def test_a_405_says_which_methods_are_allowed(client: TestClient) -> None:
    for method, path, allowed in (
        ("GET", "/api/ask", {"POST"}),
        ("TRACE", "/api/legal", {"POST"}),
        ("DELETE", "/api/health", {"GET", "HEAD"}),
        ("PUT", "/openapi.json", {"GET", "HEAD"}),
        ("POST", "/en/index.html", {"GET", "HEAD"}),
    ):
        r = client.request(method, path)
        assert r.status_code == 405, (method, path)
        assert {m.strip() for m in r.headers["allow"].split(",")} == allowed, (method, path)


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_body_that_is_neither_json_nor_yaml_is_415(client: TestClient, ctype: str) -> None:
    import json

    r = client.post(
        "/api/ask", content=json.dumps({"position": LEAVE, "question": "legal"}), headers={"Content-Type": ctype}
    )
    assert r.status_code == 415
    assert r.json()["error"] == "unsupported-media-type"
    ok = client.post(
        "/api/ask",
        content=json.dumps({"position": LEAVE, "question": "legal"}),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert ok.status_code == 200


def test_the_openapi_verdict_admits_every_verdict_the_api_gives(client: TestClient) -> None:
    from havoc.engine.interpreter.answer import VERDICT_NO_UNLESS

    spec = client.get("/openapi.json").json()
    verdict = spec["components"]["schemas"]["Answer"]["properties"]["verdict"]
    assert verdict["enum"] == [True, False, None, VERDICT_NO_UNLESS]


def test_empty_texts_the_schema_refuses_the_server_refuses(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    request = spec["paths"]["/api/ask"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    position_text = request["properties"]["position"]["anyOf"][1]
    words, word_list = request["properties"]["question"]["anyOf"][1:]
    assert position_text["minLength"] == 1 and words["minLength"] == 1
    assert word_list["minItems"] == 1 and word_list["items"]["minLength"] == 1
    assert None not in request["properties"]["lang"]["enum"]
    for body in (
        {"position": ""},
        {"position": LEAVE, "question": ""},
        {"position": LEAVE, "question": []},
        {"position": LEAVE, "question": "legal", "lang": None},
        {"position": "x" * (position_text["maxLength"] + 1), "question": "legal"},
    ):
        assert client.post("/api/ask", json=body).status_code == 422, body


def test_a_page_swapped_for_a_link_outside_after_it_was_served_is_404(client: TestClient, site: Path) -> None:
    """The remembered URL → file is checked on every request: a swapped file is resolved again."""
    outside = site.parent / "outside-secret.txt"
    outside.write_text("secret outside the site")
    page = site / "en" / "swap.html"
    page.write_text("<p>inside</p>")
    assert client.get("/en/swap.html").text == "<p>inside</p>"
    page.unlink()
    page.symlink_to(outside)
    r = client.get("/en/swap.html")
    assert r.status_code == 404 and "secret" not in r.text
