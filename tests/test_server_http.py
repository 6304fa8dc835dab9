"""``havoc serve`` against a hostile web page: redirects, Content-Type, the Host header, security
headers, and the uvicorn internals the server's limits rest on.

A page on another site can make the browser send requests to a local ``havoc serve``: with no
CORS preflight when the body has no Content-Type (or a form's), and with its own origin's
privileges when its name is pointed at 127.0.0.1 (DNS rebinding). In process through Starlette's
client where the application decides; through a real server on loopback where the command
line or uvicorn does.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import time
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
from havoc.web.server.transport import MemoryTransport

REPO = Path(__file__).resolve().parents[1]
LEAVE = yaml.safe_load((REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text())
ASK = json.dumps({"position": LEAVE, "question": "legal"}).encode()
PAGE = (
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>en</title>'
    '<style>p{color:red}</style></head><body><p style="opacity: 50%">x</p>'
    '<script>document.body.dataset.theme = "auto";</script>'
    '<script type="application/json">{"not": "run"}</script></body></html>'
)


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    for lang in ("en", "pl"):
        (root / lang).mkdir()
        (root / lang / "index.html").write_text(PAGE)
    (root / "index.html").write_text("<!DOCTYPE html><title>root</title>")
    (root / "en" / "app.js").write_text("console.log(1)")
    return root


@pytest.fixture(scope="module")
def client(site: Path) -> Iterator[TestClient]:
    with TestClient(create_app(site), raise_server_exceptions=False) as c:
        yield c


# --- redirects never leave the site -------------------------------------------------------------


@pytest.mark.parametrize("path", ["/%2fen", "/%2f%2fen", "/%2f%2f%2fen"])
def test_a_folder_redirect_is_a_path_on_this_site(client: TestClient, path: str) -> None:
    """``//en`` as a Location is the host ``en`` (a network-path reference): a permanent redirect
    off the site, which the browser caches."""
    r = client.get(path, follow_redirects=False)
    assert r.status_code == 308
    location = r.headers["location"]
    assert location == "/en/", location


def test_the_raw_double_slash_is_redirected_on_the_site(tmp_path: Path) -> None:
    """The request line ``GET //en`` itself, through a real server (no client normalises it)."""
    with serving(tmp_path) as port:
        status, headers, _ = raw(port, b"GET //en HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
    assert status == 308
    assert headers["location"] == "/en/", headers["location"]


def test_a_retired_rule_redirects_to_a_path_not_to_the_host_it_was_asked_as(rules_copy: Path) -> None:
    (rules_copy / "cry-havoc" / "retired.yaml").write_text(
        "retired:\n  - {id: old-leave, successor: battle-region-leave, reason: renamed}\n"
    )
    with TestClient(create_app(None), base_url="http://evil.example") as c:
        r = c.get("/api/rules/old-leave?lang=pl", follow_redirects=False)
    assert r.status_code == 308
    assert r.headers["location"] == "/api/rules/battle-region-leave?lang=pl"


# --- a body is JSON only when it says so ----------------------------------------------------------


def test_a_body_without_a_json_or_yaml_content_type_is_415(client: TestClient) -> None:
    """What a page on another site can send with no CORS preflight (no Content-Type, a form's,
    text/plain) is refused before it is read, in the asker's language."""
    for ctype in (None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/jsonx"):
        for lang, words in (("en", "must be JSON"), ("pl", "JSON")):
            headers = {"Accept-Language": lang} if ctype is None else {"Content-Type": ctype, "Accept-Language": lang}
            r = client.post("/api/ask", content=ASK, headers=headers)
            assert r.status_code == 415, (ctype, r.status_code)
            body = r.json()
            assert body["error"] == "unsupported-media-type"
            assert words in body["message"]
            assert body["problems"][0]["field"] == "Content-Type"
    pl = client.post("/api/ask", content=ASK, headers={"Accept-Language": "pl"}).json()["message"]
    assert pl != client.post("/api/ask", content=ASK).json()["message"]  # the Polish is Polish


@pytest.mark.parametrize(
    "ctype", ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/yaml"]
)
def test_json_and_yaml_media_types_are_read(client: TestClient, ctype: str) -> None:
    assert client.post("/api/ask", content=ASK, headers={"Content-Type": ctype}).status_code == 200


# --- the Host header (DNS rebinding) ---------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class serving:
    """A real ``havoc serve`` on a free loopback port over a tiny site, until the block ends."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.tmp, self.args, self.env = tmp, args, env or {}

    def __enter__(self) -> int:
        site = self.tmp / "site"
        for lang in ("en", "pl"):
            (site / lang).mkdir(parents=True, exist_ok=True)
            (site / lang / "index.html").write_text(PAGE)
        (site / "index.html").write_text("<!DOCTYPE html><title>root</title>")
        self.port = free_port()
        cmd = [sys.executable, "-m", "havoc", "serve", "--site", str(site), "--port", str(self.port), *self.args]
        env = {k: v for k, v in os.environ.items() if k != "HAVOC_ALLOWED_HOSTS"}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**env, **self.env})
        for _ in range(300):
            assert self.proc.poll() is None, self.proc.stdout.read().decode() if self.proc.stdout else ""
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self.port
            except OSError:
                time.sleep(0.05)
        raise AssertionError("havoc serve did not start")

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def raw(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def health(port: int, host: bytes | None, lang: str = "en") -> tuple[int, dict[str, Any]]:
    head = b"GET /api/health HTTP/1.1\r\n" + (b"Host: " + host + b"\r\n" if host is not None else b"")
    status, _, body = raw(port, head + b"Accept-Language: " + lang.encode() + b"\r\nConnection: close\r\n\r\n")
    return status, json.loads(body) if body.startswith(b"{") else {}


def test_a_host_the_server_was_not_started_for_is_refused(tmp_path: Path) -> None:
    """A page whose own name resolves to 127.0.0.1 sends that name as Host: refused, saying how
    to allow it; the loopback names on the bound port are answered."""
    with serving(tmp_path) as port:
        p = str(port).encode()
        for host in (b"127.0.0.1:" + p, b"localhost:" + p, b"LocalHost:" + p, b"[::1]:" + p):
            assert health(port, host)[0] == 200, host
        for host in (b"evil.example:" + p, b"evil.example", b"127.0.0.1:1", b"localhost", b"127.0.0.1.evil.example"):
            status, body = health(port, host)
            assert status == 421, (host, status)
            assert body["error"] == "misdirected" and "--allowed-host" in body["message"]
            assert host.decode() in body["message"]
        status, body = health(port, b"evil.example", "pl")
        assert status == 421 and "Ten serwer" in body["message"]
        assert health(port, None)[0] in (400, 421)  # HTTP/1.1 requires a Host
        # a page of the site, not only the API
        status, _, _ = raw(port, b"GET /en/index.html HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        assert status == 421


def test_allowed_hosts_come_from_the_option_and_the_environment(tmp_path: Path) -> None:
    with serving(
        tmp_path,
        "--allowed-host",
        "rules.example",
        "--allowed-host",
        "exact.example:8443",
        env={"HAVOC_ALLOWED_HOSTS": "env.example, other.example"},
    ) as port:
        for host in (
            b"rules.example",
            b"rules.example:443",
            b"exact.example:8443",
            b"env.example:80",
            b"other.example",
        ):
            assert health(port, host)[0] == 200, host
        for host in (b"exact.example:8444", b"evil.example"):
            assert health(port, host)[0] == 421, host
        assert health(port, b"127.0.0.1:%d" % port)[0] == 200


def test_every_operation_documents_the_421(client: TestClient) -> None:
    """A client generated from /openapi.json knows the refusal a misdirected request gets."""
    for lang, word in (("en", "Host header"), ("pl", "Nagłówek Host")):
        spec = client.get(f"/openapi.json?lang={lang}").json()
        for path, operations in spec["paths"].items():
            for method, operation in operations.items():
                assert word in operation["responses"]["421"]["description"], (lang, method, path)


def test_the_help_documents_allowed_hosts_in_both_languages() -> None:
    for lang, word in (("en", "Host header"), ("pl", "nagłówkiem Host")):
        out = subprocess.run(
            [sys.executable, "-m", "havoc", "--lang", lang, "serve", "--help"], capture_output=True, text=True
        ).stdout
        assert "--allowed-host" in out and "HAVOC_ALLOWED_HOSTS" in out
        assert word in " ".join(out.split()), out
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "--allowed-host" in readme and "HAVOC_ALLOWED_HOSTS" in readme


# --- security headers on every answer ------------------------------------------------------------


def check_secured(headers: Any) -> str:
    csp = headers.get("content-security-policy")
    assert csp, dict(headers)
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp and "'wasm-unsafe-eval'" in csp
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("referrer-policy") == "no-referrer"
    assert headers.get("x-frame-options") == "DENY"
    return str(csp)


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    answers = [
        client.get("/en/index.html"),
        client.get("/en/app.js"),
        client.get("/en", follow_redirects=False),
        client.get("/nothing-here"),
        client.get("/api/health"),
        client.get("/api/nothing"),
        client.get("/api/ask"),
        client.post("/api/ask", content=ASK, headers={"Content-Type": "application/json"}),
        client.post("/api/ask", content=b"{", headers={"Content-Type": "application/json"}),
        client.post("/api/ask", content=ASK),
        client.get("/openapi.json"),
        client.get("/api/docs"),
        client.get("/api/rules/battle-region-leave"),
    ]
    page = client.get("/en/index.html")
    answers.append(client.get("/en/index.html", headers={"If-None-Match": page.headers["etag"]}))
    assert answers[-1].status_code == 304
    for r in answers:
        check_secured(r.headers)
        assert len(r.headers.get_list("content-security-policy")) == 1


def test_a_pages_policy_allows_its_own_inline_code_by_hash_and_nothing_else(client: TestClient) -> None:
    csp = check_secured(client.get("/en/index.html").headers)
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert sha256('document.body.dataset.theme = "auto";') in directives["script-src"]
    assert sha256('{"not": "run"}') not in directives["script-src"]  # a data block is not run
    assert sha256("p{color:red}") in directives["style-src"]
    assert directives["style-src-attr"] == ["'unsafe-hashes'", sha256("opacity: 50%")]
    # the API's own page: its inline script and style, hashed from the file served
    docs = client.get("/api/docs")
    inline = re.search(r"<script>(.*?)</script>", docs.text, re.S)
    assert inline is not None and sha256(inline.group(1)) in check_secured(docs.headers)
    # a script file's answer (a worker's policy comes from it) allows no inline code at all
    js = check_secured(client.get("/en/app.js").headers)
    assert "sha256-" not in js and "script-src 'self' 'wasm-unsafe-eval'" in js


def test_the_servers_own_refusals_carry_them_too() -> None:
    """A head over 16 KiB is answered by havoc's protocol before any application runs."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from havoc.web.server.limits import GuardedProtocol

    async def app(scope: object, receive: object, send: object) -> None:
        return None

    loop = asyncio.new_event_loop()
    try:
        config = Config(app=app, http=GuardedProtocol, lifespan="off", log_level="error")
        protocol = GuardedProtocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        transport = MemoryTransport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        protocol.data_received(b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 20_000)
        protocol.connection_lost(None)
    finally:
        loop.close()
    answer = b"".join(transport.written)
    assert answer.startswith(b"HTTP/1.1 431")
    head = answer.partition(b"\r\n\r\n")[0].decode().lower()
    assert "x-content-type-options: nosniff" in head and "frame-ancestors 'none'" in head


def test_the_root_page_carries_the_policy_as_a_meta(tmp_path: Path) -> None:
    """A static host sends no headers of ours: the policy is in the page (no frame-ancestors,
    which a <meta> cannot say), and it allows exactly the page's inline code."""
    from havoc.cli.commands.docs import write_root

    page = write_root(tmp_path, "Cry Havoc").read_text(encoding="utf-8")
    metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert len(metas) == 1, page[:400]
    csp = metas[0]
    assert "frame-ancestors" not in csp
    assert page.index("Content-Security-Policy") < page.index("<script")  # governs every script
    for body in re.findall(r"<script>(.*?)</script>", page, re.S):
        assert sha256(body) in csp
    for body in re.findall(r"<style>(.*?)</style>", page, re.S):
        assert sha256(body) in csp


# --- uvicorn's private protocol ------------------------------------------------------------------


def test_a_uvicorn_whose_protocol_changed_is_not_trusted_silently(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A release that renames a method the subclass overrides: the server says so and keeps the
    limits uvicorn has public settings for (head size through h11, connections), instead of a
    subclass whose overrides are never called."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from havoc.web.server import limits

    monkeypatch.delattr(HttpToolsProtocol, "on_response_complete")
    settings = limits.uvicorn_settings()
    assert settings["http"] is not limits.GuardedProtocol
    assert settings.get("h11_max_incomplete_event_size") == limits.LIMITS.head_bytes
    assert settings.get("limit_concurrency") == limits.LIMITS.connections + 1
    assert "on_response_complete" in capsys.readouterr().err


def test_the_limits_use_uvicorns_public_settings_too() -> None:
    from havoc.web.server import limits

    settings = limits.uvicorn_settings()
    assert settings["http"] is limits.GuardedProtocol
    assert settings.get("limit_concurrency") == limits.LIMITS.connections + 1  # a public cap as well
    assert settings["timeout_keep_alive"] == limits.LIMITS.idle_seconds


def test_the_private_protocol_is_the_one_the_limits_were_written_for() -> None:
    """The exact names and parameters of uvicorn's httptools protocol the subclass relies on,
    checked on its code and on a live connection: a uvicorn release that changes any fails here
    (uvicorn is pinned in requirements.lock; raise the pin only with this test passing)."""
    import inspect

    import uvicorn
    from uvicorn.config import Config
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.server import ServerState

    from havoc.web.server import limits

    assert hasattr(limits, "private_api_problems"), "the names the subclass relies on are not checked"
    pinned = re.search(r"^uvicorn==(\S+)", (REPO / "requirements.lock").read_text(), re.M)
    assert pinned is not None and uvicorn.__version__ == pinned.group(1)
    assert limits.private_api_problems() == []
    for name in limits.PRIVATE_METHODS:  # every override is of a method uvicorn itself defines
        assert name in vars(HttpToolsProtocol), name
    overridden = {n for n in vars(limits.GuardedProtocol) if callable(vars(limits.GuardedProtocol)[n])}
    assert overridden - {"_receive", "_arm", "_cancel", "_expired", "_refuse"} == set(limits.PRIVATE_METHODS)
    assert str(inspect.signature(HttpToolsProtocol.__init__)) == (
        "(self, config: 'Config', server_state: 'ServerState', app_state: 'dict[str, Any]', "
        "_loop: 'asyncio.AbstractEventLoop | None' = None) -> 'None'"
    )

    seen: dict[str, bool] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    loop = asyncio.new_event_loop()
    try:
        config = Config(app=app, http=limits.GuardedProtocol, lifespan="off", log_level="error")
        protocol = limits.GuardedProtocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        transport = MemoryTransport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        for name in limits.PRIVATE_STATE:
            seen[name] = hasattr(protocol, name)
        assert isinstance(protocol.connections, set) and protocol in protocol.connections
        protocol.data_received(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        loop.run_until_complete(asyncio.sleep(0.01))
        cycle = protocol.cycle
        for name in limits.CYCLE_STATE:
            seen[f"cycle.{name}"] = hasattr(cycle, name)
        assert cycle.response_started and cycle.response_complete and not cycle.disconnected
        assert isinstance(cycle.message_event, asyncio.Event)
        assert protocol.timeout_keep_alive_task is not None  # on_response_complete ran ours and uvicorn's
        assert protocol._state == "idle"
        protocol.connection_lost(None)
    finally:
        loop.close()
    assert all(seen.values()), seen
    assert transport.written[0].startswith(b"HTTP/1.1 200")


def _answered(app: Any, requests: list[bytes]) -> list[bytes]:
    """What GuardedProtocol writes, write by write, answering ``requests`` on one connection."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from havoc.web.server import limits

    loop = asyncio.new_event_loop()
    try:
        config = Config(app=app, http=limits.GuardedProtocol, lifespan="off", log_level="error")
        protocol = limits.GuardedProtocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        transport = MemoryTransport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        for request in requests:
            protocol.data_received(request)
            loop.run_until_complete(asyncio.sleep(0.01))
        protocol.connection_lost(None)
    finally:
        loop.close()
    return transport.written


def test_an_answers_head_goes_out_with_its_body_in_one_write() -> None:
    """One write per answer (the head and the body together: one system call and one TCP segment,
    not two), a HEAD answer's head still goes out though no body follows, and a streamed body's
    pieces are not held back: each goes out as it comes."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["path"] == "/stream":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            for piece in (b"one", b"two"):
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    get = b"GET /x HTTP/1.1\r\nHost: x\r\n\r\n"
    written = _answered(app, [get, get])
    assert len(written) == 2, written
    assert all(w.startswith(b"HTTP/1.1 200") and w.endswith(b"\r\n\r\nok") for w in written)
    (head,) = _answered(app, [b"HEAD /x HTTP/1.1\r\nHost: x\r\n\r\n"])
    assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n")
    streamed = _answered(app, [b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"])
    assert streamed[0].startswith(b"HTTP/1.1 200") and streamed[0].endswith(b"\r\n\r\n3\r\none\r\n")
    assert streamed[1:] == [b"3\r\ntwo\r\n", b"0\r\n\r\n"]


def test_a_100_continue_is_not_held_back() -> None:
    """The client waits for ``100 Continue`` before it sends its body: it goes out at once, and the
    answer (head and body in one write) after the body."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from havoc.web.server import limits

    async def app(scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": message["body"][:2]})

    loop = asyncio.new_event_loop()
    try:
        config = Config(app=app, http=limits.GuardedProtocol, lifespan="off", log_level="error")
        protocol = limits.GuardedProtocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        transport = MemoryTransport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        protocol.data_received(b"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        loop.run_until_complete(asyncio.sleep(0.01))
        assert transport.written == [b"HTTP/1.1 100 Continue\r\n\r\n"]
        protocol.data_received(b"hi")
        loop.run_until_complete(asyncio.sleep(0.01))
        assert len(transport.written) == 2 and transport.written[1].endswith(b"\r\n\r\nhi")
        protocol.connection_lost(None)
    finally:
        loop.close()
