"""The real server (uvicorn with havoc's limits) against hostile clients, on loopback, bounded in time.

Each attack has a limit the server must hold: fresh clients are answered within 1 s while it goes
on, the server's memory grows by less than 50 MB, and SIGTERM stops it within 5 s. The head and
body deadlines are shortened to 1 s here so the test takes seconds (the README gives the real ones).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc.web.server.transport import MemoryTransport

LEAVE = yaml.safe_load((Path(__file__).parent / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text())
MB = 1024 * 1024

RUNNER = """
import sys, uvicorn
from pathlib import Path
from typing import Any
from havoc.web.server import create_app, limits
limits.LIMITS = limits.Limits(
    head_seconds=float(sys.argv[3]), body_seconds=float(sys.argv[3]), connections=int(sys.argv[4])
)
uvicorn.run(create_app(Path(sys.argv[1])), host="127.0.0.1", port=int(sys.argv[2]), log_level="error",
            access_log=False, **limits.uvicorn_settings())
"""


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], port: int) -> None:
        self.proc = proc
        self.port = port

    def rss(self) -> int:
        """The server's resident memory in bytes (Linux)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise AssertionError("no VmRSS")

    def health_seconds(self) -> float:
        """How long a fresh client waits for GET /api/health (a new connection each time)."""
        t0 = time.perf_counter()
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = _read_all(s)
        assert data.startswith(b"HTTP/1.1 200"), data[:100]
        return time.perf_counter() - t0


def _read_all(s: socket.socket) -> bytes:
    chunks = []
    while chunk := s.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(tmp: Path, deadline: float, connections: int = 1100) -> Server:
    site = tmp / "site"
    (site / "en").mkdir(parents=True, exist_ok=True)
    (site / "index.html").write_text("<!DOCTYPE html><title>root</title>")
    port = _free_port()
    log = (tmp / f"server-{port}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(site), str(port), str(deadline), str(connections)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = Server(proc, port)
    for _ in range(300):
        try:
            server.health_seconds()
            return server
        except OSError:
            if proc.poll() is not None:
                raise AssertionError((tmp / f"server-{port}.log").read_text()) from None
            time.sleep(0.05)
    raise AssertionError("the server did not start")


def _stop(server: Server) -> float:
    """SIGTERM; the seconds until the process is gone."""
    t0 = time.perf_counter()
    server.proc.send_signal(signal.SIGTERM)
    try:
        server.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()
        return float("inf")
    return time.perf_counter() - t0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = _start(tmp_path_factory.mktemp("abuse"), 1.0)
    s.health_seconds()
    yield s
    assert _stop(s) < 5


def test_header_bombs_are_cut_at_16_kib(server: Server) -> None:
    """Eight 64 MiB headers at once: each refused after its first 16 KiB, memory flat."""
    before = server.rss()

    def bomb() -> tuple[bytes, int]:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Bomb: ")
            sent = 0
            chunk = b"a" * 65536
            try:
                while sent < 64 * MB:
                    s.sendall(chunk)
                    sent += len(chunk)
            except OSError:  # the server closed the connection: what we want
                pass
            try:
                answer = s.recv(200)
            except OSError:
                answer = b""
            return answer, sent

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: bomb(), range(8)))
    for answer, sent in results:
        assert sent < 64 * MB, "a 64 MiB header was read to the end"
        assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer
    server.health_seconds()  # still answers (within its socket's 5 s timeout) after the bombs
    assert server.rss() - before < 50 * MB


async def _hold(port: int, count: int, payload: bytes, interval: float, seconds: float) -> list[bytes]:
    """``count`` connections each sending ``payload`` a byte every ``interval`` for up to ``seconds``;
    what each got back before the server closed it."""

    async def one() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        got = b""
        try:
            end = time.perf_counter() + seconds
            i = 0
            while time.perf_counter() < end:
                if i < len(payload):
                    writer.write(payload[i : i + 1])
                    i += 1
                try:
                    got += await asyncio.wait_for(reader.read(1024), interval)
                    if reader.at_eof():
                        return got
                except TimeoutError:
                    pass
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
        return got + b"<still open>"

    return await asyncio.gather(*(one() for _ in range(count)))


def test_slowloris_is_answered_408_and_fresh_clients_still_get_in(server: Server) -> None:
    before = server.rss()
    head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000

    async def run() -> tuple[list[bytes], list[bool]]:
        attack = asyncio.ensure_future(_hold(server.port, 200, head, 0.1, 4.0))
        await asyncio.sleep(0.5)
        during = []
        for _ in range(3):  # answered (each within its socket's 5 s timeout) while the attack holds on
            await asyncio.to_thread(server.health_seconds)
            during.append(not attack.done())
        return await attack, during

    answers, during = asyncio.run(run())
    assert all(during), during
    assert all(a.startswith(b"HTTP/1.1 408") for a in answers), {a[:40] for a in answers}
    assert server.rss() - before < 50 * MB


def test_a_thousand_idle_connections_leave_room_for_fresh_clients(server: Server) -> None:
    before = server.rss()

    async def run() -> tuple[list[bytes], list[bool]]:
        attack = asyncio.ensure_future(_hold(server.port, 1000, b"", 0.25, 3.0))
        await asyncio.sleep(0.6)
        during = []
        for _ in range(3):  # answered while the thousand connections are still held open
            await asyncio.to_thread(server.health_seconds)
            during.append(not attack.done())
        return await attack, during

    held, during = asyncio.run(run())
    assert all(during), during
    assert all(a.startswith(b"HTTP/1.1 408") for a in held), {a[:40] for a in held}
    assert server.rss() - before < 50 * MB


def test_connections_past_the_cap_are_refused_at_once(tmp_path: Path) -> None:
    """With a cap of 100 (2,048 in use): 150 connections at once, 50 answered 503 and closed."""
    capped = _start(tmp_path, 5.0, connections=100)
    try:
        over = asyncio.run(_hold(capped.port, 150, b"", 0.25, 1.5))
    finally:
        _stop(capped)
    refused = sum(a.startswith(b"HTTP/1.1 503") for a in over)
    assert refused == 50, [a[:40] for a in over]
    assert sum(a == b"<still open>" for a in over) == 100


@pytest.mark.parametrize("with_head", [0, 40], ids=["head-alone", "head-and-some-body"])
def test_a_trickled_body_is_cut(server: Server, with_head: int) -> None:
    """The body's deadline holds whether the head came alone or with the start of the body."""
    body = json.dumps({"position": LEAVE, "question": "legal"}).encode()
    head = b"POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(
        body
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(head + body[:with_head])
        body = body[with_head:]
        t0 = time.perf_counter()
        s.settimeout(0.1)
        got = b""
        sent = 0
        for byte in body:  # a byte per 0.1 s: the whole body would take far past the server's deadline
            try:
                s.sendall(bytes([byte]))
                sent += 1
            except OSError:
                break
            try:
                got += s.recv(1024)
                if got:
                    break
            except TimeoutError:
                pass
            if time.perf_counter() - t0 > 10:  # the test's own bound, not a measurement
                break
    assert got.startswith(b"HTTP/1.1 408"), got[:80]
    assert b"too slowly" in got and b"zbyt wolno" in got  # before the request's language is known: both
    assert sent < len(body), "the server waited for the whole trickled body"


def test_error_list_bombs_do_not_hold_up_other_clients(server: Server) -> None:
    body = json.dumps(
        {"position": LEAVE, "question": "legal", **{str(i): 0 for i in range(20_000)}}, separators=(",", ":")
    ).encode()
    raw = (
        b"POST /api/ask HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
        % (
            len(body),
            body,
        )
    )

    def bomb() -> bytes:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(raw)
            return _read_all(s)

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(10) as pool:
        futures = [pool.submit(bomb) for _ in range(10)]
        for _ in range(5):  # each answered (within its socket's 5 s timeout) beside the bombs
            server.health_seconds()
        answers = [f.result() for f in futures]
    for a in answers:
        assert a.startswith(b"HTTP/1.1 422") and len(a) < 16 * 1024, a[:80]


def test_shutdown_cuts_slow_clients(tmp_path: Path) -> None:
    server = _start(tmp_path, 60.0)  # deadlines far away: only the shutdown may cut these clients
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(20)]
    slow = socket.create_connection(("127.0.0.1", server.port))
    slow.sendall(b"POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{")
    time.sleep(0.3)
    try:
        seconds = _stop(server)
        told = slow.recv(100)
    finally:
        for s in [*idle, slow]:
            s.close()
    assert seconds != float("inf"), "SIGTERM did not end the server: it was killed"
    assert told.startswith(b"HTTP/1.1 503"), told  # cut by the shutdown (their own deadlines are 60 s away)


def test_serve_on_a_busy_port_says_so_in_one_line_and_exits_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "havoc", "serve", "--port", str(port), "--site", str(tmp_path / "nowhere")],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "HAVOC_CACHE_DIR": str(tmp_path / "cache")},
        )
    assert proc.returncode == 1
    assert proc.stdout == ""  # no "serving http://…" first
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"port {port}" in lines[0] and "in use" in lines[0], proc.stderr
    assert not (tmp_path / "nowhere").exists()  # nothing built for a server that cannot start


@pytest.mark.parametrize(("size", "status"), [(16_000, b"200"), (17_000, b"431")])
def test_the_head_limit_is_16_kib(server: Server, size: int, status: bytes) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
        answer = _read_all(s)
    assert answer.startswith(b"HTTP/1.1 " + status), answer[:60]


@pytest.mark.parametrize(
    ("sent", "deadline"),
    [(0, "body"), (40, "body"), (100, "")],
    ids=["head-alone", "head-and-some-body", "whole-request"],
)
def test_the_body_deadline_runs_while_the_body_is_coming(sent: int, deadline: str) -> None:
    """A body not all here when its headers end has its deadline armed; a request that arrives
    whole leaves no timer behind (it is being answered)."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from havoc.web.server.limits import GuardedProtocol

    async def app(scope: object, receive: object, send: object) -> None:
        return None

    loop = asyncio.new_event_loop()
    try:
        config = Config(app=app, http=GuardedProtocol, lifespan="off", log_level="error")
        protocol = GuardedProtocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        protocol.connection_made(MemoryTransport())  # type: ignore[arg-type]
        assert protocol._deadline_for == "head"
        head = b"POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        protocol.data_received(head + b" " * sent)
        assert protocol._deadline_for == deadline
        assert (protocol._deadline is not None) == bool(deadline)
        loop.run_until_complete(asyncio.sleep(0))  # the application's task runs (and ends)
    finally:
        loop.close()


@pytest.mark.parametrize(
    ("sent", "deadline"),
    [(b"", ""), (b"GET /api/he", "head"), (b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n", "")],
    ids=["nothing-yet", "part-of-a-head", "a-whole-request"],
)
def test_a_kept_alive_connections_next_head_has_its_deadline_from_the_answer(sent: bytes, deadline: str) -> None:
    """After an answer, a connection that sends nothing is closed by the keep-alive timer (no
    other timer runs); part of a head arms the head deadline, counted from the answer."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from havoc.web.server.limits import LIMITS, GuardedProtocol

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    loop = asyncio.new_event_loop()
    try:
        config = Config(app=app, http=GuardedProtocol, lifespan="off", log_level="error", timeout_keep_alive=5)
        protocol = GuardedProtocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        transport = MemoryTransport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        protocol.data_received(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        loop.run_until_complete(asyncio.sleep(0.01))  # answered
        assert transport.written and transport.written[0].startswith(b"HTTP/1.1 200")
        answered = loop.time()
        assert protocol.timeout_keep_alive_task is not None
        assert protocol._deadline is None
        if sent:
            protocol.data_received(sent)
        assert protocol._deadline_for == deadline
        if deadline:
            assert protocol._deadline is not None
            assert protocol._deadline.when() == pytest.approx(answered + LIMITS.head_seconds, abs=0.05)
        else:
            assert protocol._deadline is None
        loop.run_until_complete(asyncio.sleep(0.01))
        protocol.connection_lost(None)
    finally:
        loop.close()
