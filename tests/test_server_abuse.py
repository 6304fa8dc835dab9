"""The real server (uvicorn with havoc's limits) against hostile clients, on loopback, bounded in count.

Each attack has a limit the server must hold, checked by what happens rather than by how fast: a
fresh client is answered while every attacking connection is still held open, the attackers are
cut (408, 431, 503) before they finish, the server's memory grows by less than 50 MB, and SIGTERM
ends the process by itself (it is not killed). The head and body deadlines are shortened to 1 s
here so the cuts come in seconds (the README gives the real ones); the "fresh clients still get
in" tests use a server whose deadlines are far away, so that however slow the machine, the attack
is still on when the fresh client is answered. How fast the server answers under attack and how
fast SIGTERM stops it are figures of benchmarks/bench_hostile.py, not asserts here. Every wait
has a bound only against a hang (``HANG``), never one a slow machine could reach.
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

HANG = 120.0
"""Seconds after which a wait is taken for a hang: far past anything a loaded machine takes."""
FAR = 600.0
"""Head and body deadlines of the patient server: no attack ends by the server's clock."""
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

    def health(self) -> None:
        """A fresh client (a new connection) is answered 200 to GET /api/health."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=HANG) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = _read_all(s)
        assert data.startswith(b"HTTP/1.1 200"), data[:100]


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
    hang = time.monotonic() + HANG
    while time.monotonic() < hang:
        try:
            server.health()
            return server
        except OSError:
            if proc.poll() is not None:
                raise AssertionError((tmp / f"server-{port}.log").read_text()) from None
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


def _stop(server: Server) -> bool:
    """SIGTERM: whether the process ended by itself (killed only against a hang)."""
    server.proc.send_signal(signal.SIGTERM)
    try:
        server.proc.wait(timeout=HANG)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()
        return False
    return True


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Deadlines of 1 s: attackers are cut within seconds."""
    s = _start(tmp_path_factory.mktemp("abuse"), 1.0)
    yield s
    assert _stop(s), "SIGTERM did not end the server: it was killed"


@pytest.fixture(scope="module")
def patient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Deadlines of ``FAR``: an attack on it lasts until the test ends it."""
    s = _start(tmp_path_factory.mktemp("abuse-patient"), FAR)
    yield s
    assert _stop(s), "SIGTERM did not end the server: it was killed"


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
    server.health()  # still answers after the bombs
    assert server.rss() - before < 50 * MB


class Attack:
    """``count`` connections each sending ``payload`` a byte every ``interval`` until the server
    closes it or :meth:`end` is called (or, against a hang, ``HANG`` seconds pass)."""

    def __init__(self, port: int, count: int, payload: bytes, interval: float) -> None:
        self.port, self.count, self.payload, self.interval = port, count, payload, interval
        self.connected = 0
        self.closed = 0  # connections the server has closed (or refused)
        self._tries = 0
        self._connected = asyncio.Event()
        self._end = asyncio.Event()

    async def run(self) -> list[bytes]:
        """What each connection got back before the server closed it (``<still open>`` if it did not)."""
        return await asyncio.gather(*(self._one() for _ in range(self.count)))

    async def all_connected(self) -> None:
        """Every connection made (or refused)."""
        await asyncio.wait_for(self._connected.wait(), HANG)

    def end(self) -> None:
        self._end.set()

    def _tried(self) -> None:
        self._tries += 1
        if self._tries == self.count:
            self._connected.set()

    async def _one(self) -> bytes:
        got = b""
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except (ConnectionError, OSError):
            self.closed += 1
            self._tried()
            return got
        self.connected += 1
        self._tried()
        try:
            hang = time.monotonic() + HANG
            i = 0
            while not self._end.is_set() and time.monotonic() < hang:
                if i < len(self.payload):
                    writer.write(self.payload[i : i + 1])
                    i += 1
                try:
                    got += await asyncio.wait_for(reader.read(1024), self.interval)
                    if reader.at_eof():
                        self.closed += 1
                        return got
                except TimeoutError:
                    pass
        except (ConnectionError, OSError):
            self.closed += 1
            return got
        finally:
            writer.close()
        return got + b"<still open>"


async def _hold(port: int, count: int, payload: bytes, interval: float) -> list[bytes]:
    """An attack run until the server has closed every connection (or against a hang)."""
    return await Attack(port, count, payload, interval).run()


def _fresh_clients_during(server: Server, count: int, payload: bytes, interval: float) -> list[int]:
    """Three fresh clients answered while ``count`` connections attack; for each, how many attacking
    connections the server had closed by the time it was answered. The attack then ends."""

    async def run() -> list[int]:
        attack = Attack(server.port, count, payload, interval)
        task = asyncio.ensure_future(attack.run())
        await attack.all_connected()
        closed = []
        for _ in range(3):
            await asyncio.to_thread(server.health)
            closed.append(attack.closed)
        attack.end()
        held = await task
        assert all(a == b"<still open>" for a in held), {a[:40] for a in held}
        return closed

    return asyncio.run(run())


SLOW_HEAD = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000


def test_slowloris_is_answered_408(server: Server) -> None:
    """200 heads trickled a byte per 0.1 s (1,000 bytes: 100 s each): every one cut with a 408."""
    before = server.rss()
    answers = asyncio.run(_hold(server.port, 200, SLOW_HEAD, 0.1))
    assert all(a.startswith(b"HTTP/1.1 408") for a in answers), {a[:40] for a in answers}
    server.health()
    assert server.rss() - before < 50 * MB


def test_fresh_clients_get_in_while_a_slowloris_attack_holds_on(patient: Server) -> None:
    before = patient.rss()
    assert _fresh_clients_during(patient, 200, SLOW_HEAD, 0.1) == [0, 0, 0]  # none of the 200 cut yet
    assert patient.rss() - before < 50 * MB


def test_a_thousand_idle_connections_are_answered_408(server: Server) -> None:
    before = server.rss()
    held = asyncio.run(_hold(server.port, 1000, b"", 0.25))
    assert all(a.startswith(b"HTTP/1.1 408") for a in held), {a[:40] for a in held}
    server.health()
    assert server.rss() - before < 50 * MB


def test_a_thousand_idle_connections_leave_room_for_fresh_clients(patient: Server) -> None:
    before = patient.rss()
    assert _fresh_clients_during(patient, 1000, b"", 0.25) == [0, 0, 0]  # the thousand all held open
    assert patient.rss() - before < 50 * MB


def test_connections_past_the_cap_are_refused_at_once(tmp_path: Path) -> None:
    """With a cap of 100 (2,048 in use): 150 connections at once, 50 answered 503 and closed."""
    capped = _start(tmp_path, FAR, connections=100)

    async def run() -> list[bytes]:
        attack = Attack(capped.port, 150, b"", 0.25)
        task = asyncio.ensure_future(attack.run())
        # the 50 past the cap are answered and closed at once; the 100 within it are held until
        # the attack ends (their deadlines are far away)
        await attack.all_connected()
        hang = time.monotonic() + HANG
        while attack.closed < 50 and time.monotonic() < hang:
            await asyncio.sleep(0.05)
        attack.end()
        return await task

    try:
        over = asyncio.run(run())
    finally:
        assert _stop(capped)
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
    first, body = body[:with_head], body[with_head:]
    trickle = 300  # a byte per (at least) 0.1 s: 30 s or more, 30 times the server's 1 s deadline
    assert len(body) > trickle
    with socket.create_connection(("127.0.0.1", server.port), timeout=HANG) as s:
        s.sendall(head + first)
        s.settimeout(0.1)
        got = b""
        sent = 0
        for byte in body[:trickle]:
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
    assert got.startswith(b"HTTP/1.1 408"), got[:80]
    assert b"too slowly" in got and b"zbyt wolno" in got  # before the request's language is known: both
    assert sent < trickle  # cut mid-body (the rest of it was never sent)


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
        with socket.create_connection(("127.0.0.1", server.port), timeout=HANG) as s:
            s.sendall(raw)
            return _read_all(s)

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(10) as pool:
        futures = [pool.submit(bomb) for _ in range(10)]
        for _ in range(5):  # each answered beside the bombs
            server.health()
        answers = [f.result() for f in futures]
    for a in answers:
        assert a.startswith(b"HTTP/1.1 422") and len(a) < 16 * 1024, a[:80]


def test_shutdown_cuts_slow_clients(tmp_path: Path) -> None:
    server = _start(tmp_path, FAR)  # deadlines far away: only the shutdown may cut these clients
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(20)]
    slow = socket.create_connection(("127.0.0.1", server.port), timeout=HANG)
    slow.sendall(b"POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{")
    time.sleep(0.3)
    server.health()  # the server's loop has gone round since the slow client's head came
    try:
        stopped = _stop(server)
        told = slow.recv(100)
    finally:
        for s in [*idle, slow]:
            s.close()
    assert stopped, "SIGTERM did not end the server: it was killed"
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
            timeout=HANG,
            env={**os.environ, "HAVOC_CACHE_DIR": str(tmp_path / "cache")},
        )
    assert proc.returncode == 1
    assert proc.stdout == ""  # no "serving http://…" first
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"port {port}" in lines[0] and "in use" in lines[0], proc.stderr
    assert not (tmp_path / "nowhere").exists()  # nothing built for a server that cannot start


@pytest.mark.parametrize(("size", "status"), [(16_000, b"200"), (17_000, b"431")])
def test_the_head_limit_is_16_kib(server: Server, size: int, status: bytes) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=HANG) as s:
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
        asked = loop.time()
        protocol.data_received(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        loop.run_until_complete(asyncio.sleep(0.01))  # answered
        assert transport.written and transport.written[0].startswith(b"HTTP/1.1 200")
        answered = loop.time()
        assert protocol.timeout_keep_alive_task is not None
        assert protocol._deadline is None
        time.sleep(0.05)  # the next bytes come later than the answer: a deadline from them would show it
        if sent:
            protocol.data_received(sent)
        assert protocol._deadline_for == deadline
        if deadline:
            assert protocol._deadline is not None
            # from the answer (between the request and the moment it was seen answered), not from now
            assert asked + LIMITS.head_seconds <= protocol._deadline.when() <= answered + LIMITS.head_seconds
        else:
            assert protocol._deadline is None
        loop.run_until_complete(asyncio.sleep(0.01))
        protocol.connection_lost(None)
    finally:
        loop.close()
