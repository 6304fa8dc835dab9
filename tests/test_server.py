"""``havoc serve``'s JSON API and static files, through Starlette's in-process client.

The answers must be those of ``havoc ask --json`` (the same function, the same JSON); bad input
gives 400/413/422 with located problems, never a 500; the static side serves only the built site.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "assistant"

with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx is what its client runs on here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from havoc.web.server import MAX_BODY, create_app  # noqa: E402
from havoc.web.server.app import secured  # noqa: E402


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FIXTURES / name).read_text())
    return data


LEAVE = fixture("leave-8-vs-3.yaml")
BATTLE = fixture("battle-walkthrough.yaml")
PLACED = {
    "pilgrims": {"control": 2, "prisoners": 1, "attrition": 1},
    "humans": {"control": 2, "prisoners": 1, "attrition": 1},
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny stand-in for build/site, with the files that must never be served."""
    root = tmp_path_factory.mktemp("site")
    (root / "en" / "_sources").mkdir(parents=True)
    (root / "en" / "_static").mkdir()
    (root / "en" / "empty").mkdir()
    (root / "index.html").write_text("<!DOCTYPE html><title>root</title>")
    (root / "en" / "index.html").write_text("<!DOCTYPE html><title>en</title>")
    (root / "en" / "_static" / "app.js").write_text("console.log(1)")
    (root / "en" / "_sources" / "index.md.txt").write_text("secret source")
    (root / "en" / ".buildinfo").write_text("config: x")
    (root.parent / "outside.txt").write_text("outside")
    (root / "en" / "link.txt").symlink_to(root.parent / "outside.txt")
    return root


@pytest.fixture(scope="module")
def client(site: Path) -> Iterator[TestClient]:
    with TestClient(create_app(site), raise_server_exceptions=False) as c:
        yield c


def cli_json(*args: str, stdin: str | None = None) -> Any:
    proc = subprocess.run(
        [sys.executable, "-m", "havoc", *args, "--json"], input=stdin, capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout)


# --- health, ask, legal, battle, score ------------------------------------------------------


def test_health(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_ask_gives_the_same_json_as_the_cli(client: TestClient, lang: str) -> None:
    words = "move humans from=example-a to=example-b units=2"
    r = client.post("/api/ask", json={"position": LEAVE, "question": words, "lang": lang})
    assert r.status_code == 200
    expected = cli_json("ask", str(FIXTURES / "leave-8-vs-3.yaml"), *words.split(), "--lang", lang)
    assert r.json() == expected
    assert r.json()["figures"]["may-leave"] == 2
    assert "battle-region-leave" in [d["id"] for d in r.json()["rules"]]


def test_ask_takes_a_question_mapping_a_word_list_and_position_text(client: TestClient) -> None:
    q = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 3}
    by_map = client.post("/api/ask", json={"position": LEAVE, "question": q}).json()
    by_list = client.post(
        "/api/ask",
        json={"position": LEAVE, "question": ["move", "humans", "from=example-a", "to=example-b", "units=3"]},
    ).json()
    text = (FIXTURES / "leave-8-vs-3.yaml").read_text()
    by_text = client.post("/api/ask", json={"position": text, "question": q}).json()
    assert by_map == by_list == by_text
    assert by_map["verdict"] is False and by_map["figures"]["may-leave"] == 2


def test_a_yaml_body_is_read(client: TestClient) -> None:
    body = yaml.safe_dump({"position": LEAVE, "question": "legal", "lang": "pl"}, allow_unicode=True)
    r = client.post("/api/ask", content=body.encode(), headers={"Content-Type": "application/yaml"})
    assert r.status_code == 200
    assert r.json()["lang"] == "pl" and r.json()["kind"] == "legal"


@pytest.mark.parametrize(
    ("path", "extra", "cli"),
    [
        ("/api/legal", {"faction": "pilgrims"}, ["legal", "@leave", "pilgrims"]),
        ("/api/score", {}, ["score", "@leave"]),
        ("/api/battle", {}, ["battle", "@battle"]),
        (
            "/api/battle",
            {"region": "example-battle", "objectives": PLACED, "faction": "humans"},
            ["battle", "@battle", "example-battle", "pilgrims=2/1/1", "humans=2/1/1", "--as", "humans"],
        ),
    ],
)
def test_legal_battle_score_match_the_cli(client: TestClient, path: str, extra: dict[str, Any], cli: list[str]) -> None:
    files = {"@leave": "leave-8-vs-3.yaml", "@battle": "battle-walkthrough.yaml"}
    pos = LEAVE if "@leave" in cli else BATTLE
    args = [str(FIXTURES / files[a]) if a in files else a for a in cli]
    for lang in ("en", "pl"):
        r = client.post(path, json={"position": pos, **extra, "lang": lang})
        assert r.status_code == 200, r.text
        assert r.json() == cli_json(*args, "--lang", lang)


def test_battle_says_who_wins_each_objective(client: TestClient) -> None:
    r = client.post("/api/battle", json={"position": BATTLE, "region": "example-battle", "objectives": PLACED})
    figures = r.json()["figures"]
    assert figures["control-winner"] == "humans"  # a tie on Region Control goes to the Defender
    assert figures["kills-by"] == {"pilgrims": 1, "humans": 1}


# --- 400, 413, 422 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "ctype"),
    [
        (b'{"position": ', "application/json"),
        (b"not json at all", "application/json"),
        (b"position: [unclosed", "application/yaml"),
        (b"\xff\xfe", "application/json"),
        (b"[1, 2]", "application/json"),
        (b'"a string"', "application/json"),
    ],
)
def test_malformed_bodies_are_400(client: TestClient, body: bytes, ctype: str) -> None:
    r = client.post("/api/ask", content=body, headers={"Content-Type": ctype})
    assert r.status_code == 400
    assert r.json()["error"] == "malformed"


@pytest.mark.parametrize(
    ("path", "body", "headers"),
    [
        ("/api/ask", {"position": LEAVE, "question": "legal", "lang": "pl"}, {}),
        ("/api/legal", {"position": LEAVE, "faction": "humans"}, {"Accept-Language": "pl-PL,pl;q=0.9"}),
        ("/api/battle", {"position": BATTLE, "region": "example-battle", "objectives": PLACED}, {}),
        ("/api/ask", {"position": LEAVE, "question": "fly", "extra": 1}, {}),
        ("/api/ask?lang=pl&lang=xx", {"position": LEAVE, "question": "legal"}, {}),
        ("/api/ask?lang=pl", b'{"position": ', {}),
        ("/api/ask", b"position: [unclosed", {"Content-Type": "application/yaml"}),
        ("/api/ask", b"{}", {"Content-Type": "text/html"}),
        ("/api/ask", b"x" * (MAX_BODY + 1), {}),
        ("/api/ask", {"position": {"a": [[[[]]]] * 20_000}, "question": "legal"}, {}),
    ],
)
def test_the_front_door_answers_questions_as_the_router_does(
    client: TestClient, path: str, body: Any, headers: dict[str, str]
) -> None:
    """Questions skip Starlette's router and middleware (:class:`havoc.web.server.app.Front`):
    the same status, headers and bytes as the routed endpoint, refusals included."""
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **headers}
    front = client.post(path, content=content, headers=headers)
    api_app = client.app.api_app  # type: ignore[attr-defined]

    async def router(scope: Any, receive: Any, send: Any) -> None:  # with the front door's security headers
        await api_app(scope, receive, secured(send))

    with TestClient(router) as routed:
        behind = routed.post(path, content=content, headers=headers)
    assert front.status_code == behind.status_code
    assert list(front.headers.raw) == list(behind.headers.raw) and front.content == behind.content


def test_a_400_says_where_the_json_breaks(client: TestClient) -> None:
    r = client.post("/api/ask", content=b'{\n "position": {,\n}', headers={"Content-Type": "application/json"})
    (p,) = r.json()["problems"]
    assert p["line"] == 2 and p["in"] == "request"


def test_bodies_over_256_kib_are_413(client: TestClient) -> None:
    big = b'{"position": "' + b"x" * MAX_BODY + b'"}'
    r = client.post("/api/ask", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.json()["error"] == "too-large"


def test_413_is_enforced_while_reading_not_only_by_content_length(client: TestClient) -> None:
    """A chunked body (no Content-Length) is cut off as soon as it passes the limit."""
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:
        for _ in range(64):  # 64 × 16 KiB = 1 MiB, four times the limit
            sent.append(1)
            yield b" " * 16384

    r = client.post("/api/ask", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert "content-length" not in {k.lower() for k in r.request.headers}


def test_a_body_just_under_the_limit_is_read(client: TestClient) -> None:
    body = json.dumps({"position": LEAVE, "question": "legal"}).encode()
    body = body[:-1] + b" " * (MAX_BODY - len(body)) + b"}"
    assert len(body) == MAX_BODY
    assert client.post("/api/ask", content=body, headers={"Content-Type": "application/json"}).status_code == 200


def test_an_invalid_position_is_422_with_located_problems(client: TestClient) -> None:
    bad = json.loads(json.dumps(LEAVE))
    bad["regions"]["example-a"]["units"]["humans"] = "eight"
    bad["players"] = ["humans", "orcs"]
    r = client.post("/api/ask", json={"position": bad, "question": "legal"})
    assert r.status_code == 422
    problems = r.json()["problems"]
    fields = {p["field"]: p for p in problems}
    assert fields["regions.example-a.units.humans"]["in"] == "position"
    assert "whole number" in fields["regions.example-a.units.humans"]["message"]
    assert "expected an ID or one of the names humans, pilgrims" in fields["players[1]"]["message"]
    # the CLI reports the same problems
    proc = subprocess.run(
        [sys.executable, "-m", "havoc", "legal", "-"], input=json.dumps(bad), capture_output=True, text=True
    )
    assert proc.returncode == 2
    for p in problems:  # each field said as the API's "where" says it, the machine path kept in "field"
        assert p["where"] != p["field"] and f"{p['where']}: {p['message']}" in proc.stderr
    assert fields["players[1]"]["where"] == "players › no. 2"
    assert fields["regions.example-a.units.humans"]["where"] == "Region A › units › Humans"


def test_position_text_errors_carry_lines(client: TestClient) -> None:
    text = "players: [humans, pilgrims]\nround: first\n"
    r = client.post("/api/ask", json={"position": text, "question": "legal"})
    assert r.status_code == 422
    (p,) = r.json()["problems"]
    assert p["field"] == "round" and p["line"] == 2


def test_an_invalid_question_is_422_in_the_question(client: TestClient) -> None:
    r = client.post("/api/ask", json={"position": LEAVE, "question": "move humans from=example-a to=nowhere"})
    assert r.status_code == 422
    (p,) = r.json()["problems"]
    assert p["in"] == "question" and p["field"] == "to"


def test_the_422_envelope_is_in_the_requests_language(client: TestClient) -> None:
    r = client.post("/api/ask", json={"position": {"players": ["orcs"]}, "question": "legal", "lang": "pl"})
    assert r.status_code == 422
    assert r.json()["message"] == "Sytuacja lub pytanie zawierają błędy."
    en = client.post("/api/ask", json={"position": {"players": ["orcs"]}, "question": "legal"})
    assert en.json()["message"] == "The position or the question has problems."


def test_the_422_problems_are_in_the_requests_language_and_do_not_leak(client: TestClient) -> None:
    bad = {"players": ["humans", "orcs"]}
    pl = client.post("/api/ask", json={"position": bad, "question": "legal", "lang": "pl"}).json()
    en = client.post("/api/ask", json={"position": bad, "question": "legal"}).json()
    (pl_problem,) = pl["problems"]
    (en_problem,) = en["problems"]
    assert pl_problem["field"] == en_problem["field"] == "players[1]"
    assert "expected an ID or one of the names" in en_problem["message"]
    assert pl_problem["message"] != en_problem["message"]
    assert "expected" not in pl_problem["message"]


@pytest.mark.parametrize(
    "body",
    [
        {"question": "legal"},
        {"position": LEAVE},
        {"position": LEAVE, "question": 5},
        {"position": LEAVE, "question": [1, 2]},
        {"position": 7, "question": "legal"},
        {"position": LEAVE, "question": "legal", "lang": "de"},
        {"position": LEAVE, "question": "legal", "colour": "red"},
        {"position": LEAVE, "question": ""},
    ],
)
def test_request_level_mistakes_are_422(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/ask", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["problems"]


def test_battle_with_bad_objectives_is_422(client: TestClient) -> None:
    r = client.post("/api/battle", json={"position": BATTLE, "region": "example-battle", "objectives": {"orcs": {}}})
    assert r.status_code == 422


# --- rules, schema, labels, OpenAPI ------------------------------------------------------------


def test_a_rule_is_rendered_once_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule's texts are rendered, encoded and hashed for its ETag on the first ask in a
    language; later asks are served from memory with the same bytes."""
    import havoc.engine.ruledata

    made: list[str] = []
    real = havoc.engine.ruledata.rule_data

    def counted(rs: Any, tr: Any, rule: Any) -> Any:
        made.append(rule.id)
        return real(rs, tr, rule)

    monkeypatch.setattr(havoc.engine.ruledata, "rule_data", counted)
    with TestClient(create_app(None)) as fresh:
        first = [fresh.get(f"/api/rules/battle-region-leave?lang={lang}") for lang in ("en", "pl")]
        again = [fresh.get(f"/api/rules/battle-region-leave?lang={lang}") for lang in ("en", "pl")]
    assert made == ["battle-region-leave", "battle-region-leave"]
    assert [r.content for r in first] == [r.content for r in again] and first[0].content != first[1].content
    assert [r.headers["etag"] for r in first] == [r.headers["etag"] for r in again]


def test_rule_in_both_languages(client: TestClient) -> None:
    en = client.get("/api/rules/battle-region-leave")
    pl = client.get("/api/rules/battle-region-leave?lang=pl")
    assert en.status_code == pl.status_code == 200
    assert pl.json()["title"] == "Opuszczanie Regionu Bitwy"
    assert en.json()["id"] == "battle-region-leave"
    assert en.headers["etag"] and "max-age" in en.headers["cache-control"]
    again = client.get("/api/rules/battle-region-leave", headers={"If-None-Match": en.headers["etag"]})
    assert again.status_code == 304


def test_a_retired_rule_id_redirects_to_its_successor(rules_copy: Path) -> None:
    (rules_copy / "cry-havoc" / "retired.yaml").write_text(
        "retired:\n  - {id: old-leave, successor: battle-region-leave, reason: renamed}\n"
    )
    with TestClient(create_app(None)) as c:
        r = c.get("/api/rules/old-leave?lang=pl", follow_redirects=False)
        assert r.status_code == 308
        assert r.headers["location"].endswith("/api/rules/battle-region-leave?lang=pl")
        assert c.get("/api/rules/old-leave?lang=pl").json()["title"] == "Opuszczanie Regionu Bitwy"


def test_an_unknown_rule_is_404_with_suggestions(client: TestClient) -> None:
    r = client.get("/api/rules/battle-region-leav")
    assert r.status_code == 404
    assert "battle-region-leave" in r.json()["problems"][0]["did-you-mean"]


def test_position_schema_is_the_clis(client: TestClient) -> None:
    r = client.get("/api/schema/position")
    assert r.status_code == 200
    proc = subprocess.run([sys.executable, "-m", "havoc", "schema"], capture_output=True, text=True, check=True)
    assert r.json() == json.loads(proc.stdout)
    assert client.get("/api/schema/position", headers={"If-None-Match": r.headers["etag"]}).status_code == 304


def test_labels_translate_figures(client: TestClient) -> None:
    pl = client.get("/api/labels?lang=pl").json()
    assert pl["figures"]["may-leave"] != "may-leave"
    assert pl["factions"]["humans"] == "Ludzie"


def test_openapi_lists_every_endpoint_and_docs_are_local(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.1")
    for path in ("/api/health", "/api/ask", "/api/legal", "/api/battle", "/api/score", "/api/rules/{id}",
                 "/api/search", "/api/schema/position", "/api/labels"):  # fmt: skip
        assert path in spec["paths"]
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and "openapi.json" in docs.text
    assert "http://" not in docs.text and "https://" not in docs.text  # nothing from a CDN


def test_search_validates_its_parameters(client: TestClient) -> None:
    assert client.get("/api/search?q=x&limit=0").status_code == 422
    assert client.get("/api/search?q=x&limit=many").status_code == 422
    assert client.get("/api/search?q=x&lang=xx").status_code == 422


def test_unknown_api_paths_and_methods(client: TestClient) -> None:
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/ask").status_code == 405
    assert client.get("/api/nothing").json()["error"] == "not-found"


# --- the static site -----------------------------------------------------------------------------


def test_a_page_asked_again_comes_from_memory_with_the_same_headers(site: Path) -> None:
    """The first ask resolves and reads the file; later asks are answered from memory (one stat)
    with the very headers the first got, in every representation (plain, gzip, 304 of each)."""
    (site / "en" / "again.html").write_text("<p>again</p>" * 200)
    asks: list[dict[str, str]] = [{}, {"Accept-Encoding": "gzip"}]
    for headers in asks:
        with TestClient(create_app(site)) as fresh:  # nothing found yet
            first = fresh.get("/en/again.html", headers=headers)
            again = fresh.get("/en/again.html", headers=headers)
            assert first.status_code == again.status_code == 200
            assert list(first.headers.raw) == list(again.headers.raw) and first.content == again.content
            tagged = {**headers, "If-None-Match": first.headers["etag"]}
            assert fresh.get("/en/again.html", headers=tagged).status_code == 304
    with TestClient(create_app(site)) as fresh:
        fresh.get("/en/again.html")
        assert fresh.get("/en/again.html", headers={"Accept-Encoding": "gzip"}).headers["content-encoding"] == "gzip"
        (site / "en" / "again.html").write_text("<p>changed</p>")  # a rebuilt page is read again
        assert fresh.get("/en/again.html").text == "<p>changed</p>"


def test_serves_the_site_with_etags(client: TestClient) -> None:
    r = client.get("/en/index.html")
    assert r.status_code == 200 and "<title>en</title>" in r.text
    assert r.headers["etag"] and r.headers["cache-control"]
    assert client.get("/en/index.html", headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    assert client.get("/").text == "<!DOCTYPE html><title>root</title>"
    assert client.get("/en/").text == r.text
    assert client.get("/en", follow_redirects=False).status_code == 308
    assert client.get("/en/_static/app.js").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/en/_sources/index.md.txt",
        "/en/.buildinfo",
        "/en/empty/",
        "/en/_static/",
        "/en/link.txt",
        "/en/../../outside.txt",
        "/%2e%2e/outside.txt",
        "/en/%2e%2e/%2e%2e/outside.txt",
        "/nothing.html",
    ],
)
def test_serves_nothing_outside_the_built_site(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404, path
    assert "secret" not in r.text and "outside" not in r.text and "config" not in r.text


def test_a_request_writes_nothing(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After start-up, answering writes no file: not in the site, not in the cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(cache))
    with TestClient(create_app(site)) as c:

        def snapshot() -> dict[str, int]:
            return {str(p): p.stat().st_mtime_ns for root in (site, cache) for p in root.rglob("*")}

        before = snapshot()
        for lang in ("en", "pl"):
            c.post("/api/ask", json={"position": LEAVE, "question": "legal", "lang": lang})
            c.post(
                "/api/battle", json={"position": BATTLE, "region": "example-battle", "objectives": PLACED, "lang": lang}
            )
            c.get(f"/api/rules/hand-limit?lang={lang}")
            c.get("/en/index.html")
        assert snapshot() == before


def test_the_cli_does_not_import_the_framework() -> None:
    code = (
        "import sys; from havoc import cli; cli.build_parser(); import havoc.assistant.api; "
        "print(any(m.split('.')[0] in ('starlette', 'uvicorn', 'fastapi') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_serve_binds_to_loopback_by_default() -> None:
    from havoc.cli import build_parser

    args = build_parser("serve").parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000 and args.workers == 1


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_kept_position_answers_like_a_fresh_one(site: Path) -> None:
    """The server keeps validated positions between questions: the answers must not depend on
    what was asked about the same table before (the interpreter must not change a position)."""
    import copy

    import stored_examples

    from havoc.assistant import api

    examples = stored_examples.examples()
    assert len(examples) > 10
    with TestClient(create_app(site)) as kept:
        for ex in examples:
            body = {"position": json.loads(json.dumps(ex.position)), "question": json.loads(json.dumps(ex.query))}
            first = kept.post("/api/ask", json=body).json()
            for other in examples[:8]:  # other questions about the same table
                kept.post("/api/ask", json={"position": body["position"], "question": copy.deepcopy(other.query)})
            again = kept.post("/api/ask", json=body).json()
            assert again == first, ex.id
            fresh = api.ask(body["position"], body["question"]).to_dict()
            assert json.loads(json.dumps(fresh)) == again, ex.id


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_every_server_message_has_a_polish_translation() -> None:
    from babel.messages.pofile import read_po

    from havoc.cli import catalogs

    with (REPO / "locales" / "pl" / "LC_MESSAGES" / "havoc.po").open("rb") as fh:
        po = read_po(fh, locale="pl")
    mine = [m for m in catalogs.ui_template() if m.id and any("web/server/" in loc[0] for loc in m.locations)]
    assert len(mine) >= 10
    for msg in mine:
        found = po.get(msg.id, context=msg.context)
        assert found is not None and found.string and not found.fuzzy, f"no Polish for {msg.id!r}"


def test_serve_builds_the_whole_site_only_when_a_part_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing language or root page: the site is built as ``havoc docs`` builds it (the engine
    and sw.js too, published whole), into the served folder. A folder with its pages is served as
    it is, with or without a service worker (a site of one's own is never rebuilt over)."""
    from havoc.cli.commands import docs, serve

    built: list[tuple[Path, str | None, str]] = []

    def fake_docs(args: Any) -> int:
        built.append((args.output, args.ruleset, args.lang))
        for lang in ("en", "pl"):
            (args.output / lang).mkdir(parents=True, exist_ok=True)
            (args.output / lang / "index.html").write_text("x")
        (args.output / "index.html").write_text("x")
        (args.output / "sw.js").write_text("x")
        return 0

    monkeypatch.setattr(docs, "cmd_docs", fake_docs)
    site = tmp_path / "site"
    assert serve.ensure_site(site, "cry-havoc") == 0
    assert built == [(site, "cry-havoc", "all")] and (site / "sw.js").is_file()
    assert serve.ensure_site(site, "cry-havoc") == 0
    assert len(built) == 1  # complete: not built again
    (site / "sw.js").unlink()
    assert serve.ensure_site(site, "cry-havoc") == 0
    assert len(built) == 1  # no service worker: served as it is
    for part in ("pl/index.html", "index.html"):
        (site / part).unlink()
        assert serve.ensure_site(site, "cry-havoc") == 0
    assert len(built) == 3


def test_a_failed_build_stops_serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from havoc.cli.commands import docs, serve

    monkeypatch.setattr(docs, "cmd_docs", lambda args: 1)
    assert serve.ensure_site(tmp_path / "site", "cry-havoc") == 1


@pytest.mark.parametrize("args", [["--workers", "0"], ["--port", "70000"]])
def test_serve_refuses_bad_options(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "havoc", "serve", *args], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "error:" in proc.stderr and "Traceback" not in proc.stderr
