"""`havoc serve` under load on loopback (issues 11, 26): health, ask, legal and a 40 KB page at 50 connections.

Starts the real server (uvicorn, one worker) on a free 127.0.0.1 port, then drives it from this
process with 50 keep-alive connections (a minimal asyncio HTTP/1.1 client: a heavier client
would measure itself). One run measures GET /api/health, POST /api/ask, POST /api/legal and a
40 KB static page (gzip accepted), one after the other on the same server, so the ratios to
health show what answering and serving cost over the bare server. The load is bounded: each
phase stops after a fixed number of requests or PHASE_SECONDS, whichever comes first, and the
whole run stops after TIME_LIMIT whatever happens.

Targets (issue 26): ask and legal throughput each >= 50% of health's with p99 <= 20 ms, the
static page >= 50% of health's; 0 errors (a failed request fails the run; a missed figure is
printed as MISSED). The asks are all different: a Battle Region's leave question, moves across
a 20-Region position, the legal-actions list, Battle resolutions, in English and Polish, about
some 1,300 tables (a few questions each, as players ask at a game). The /api/legal requests are
all different too, and each is about a table of its own (:func:`_legal_bodies`): "what may I do
now" is asked once a table, after the table changed, so every legal request pays for reading and
checking a new table as well as for the list.

The server's CPU time per request (user + system, from /proc) is printed for each phase: it
hardly depends on what else the shared machine runs, unlike req/s.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "assistant"
REQUESTS = int(os.environ.get("HAVOC_BENCH_REQUESTS", "10000"))
CONCURRENCY = 50
PHASE_SECONDS = float(os.environ.get("HAVOC_BENCH_SECONDS", "4"))  # each measured phase stops by itself
TIME_LIMIT = 60.0  # seconds for the whole run: the load stops by itself
RATIO_TARGET = 0.5
P99_TARGET_MS = 20.0


def _bodies(count: int) -> list[bytes]:
    """``count`` different asks about a pool of tables, a few questions per table, as at a game.

    The tables are the fixtures with their Unit counts and scores changed (about 8 asks a table);
    no two requests are the same, so nothing is answered from a cache of answers.
    """
    leave = yaml.safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text())
    twenty = yaml.safe_load((FIXTURES / "twenty.yaml").read_text())
    battle = yaml.safe_load((FIXTURES / "battle-walkthrough.yaml").read_text())
    rnd = random.Random(11)
    out: dict[bytes, None] = {}
    while len(out) < count:
        kind = rnd.random()
        lang = rnd.choice(("en", "pl"))
        asks: list[tuple[dict[str, Any], Any]] = []
        if kind < 0.5:  # a Battle Region's leave question: may these Units go?
            pos = copy.deepcopy(leave)
            humans = rnd.randint(2, 11)
            pos["regions"]["example-a"]["units"] = {"humans": humans, "pilgrims": rnd.randint(1, 9)}
            # only counts the table holds: more Units than stand there is a 422, not a question
            asks = [(pos, f"move humans from=example-a to=example-b units={n}") for n in range(1, min(humans, 7) + 1)]
            asks.append((pos, "move pilgrims from=example-a to=example-b units=1"))
        elif kind < 0.8:  # moves across a 20-Region table, and what may I do now
            pos = copy.deepcopy(twenty)
            pilgrims = rnd.randint(1, 3)
            pos["regions"]["example-08"]["units"] = {"pilgrims": pilgrims}
            asks = [(pos, f"move pilgrims from=example-08 to=example-09 units={n}") for n in range(1, pilgrims + 1)]
            asks += [(pos, f"move pilgrims from=example-08 to=example-03 units={n}") for n in range(1, pilgrims + 1)]
            asks.append((pos, "legal"))
        else:  # how a Battle ends, from the Units on the objectives
            pos = copy.deepcopy(battle)
            a, d = rnd.randint(2, 8), rnd.randint(2, 8)
            pos["regions"]["example-battle"]["units"] = {"pilgrims": a, "humans": d}
            for _ in range(6):
                objectives = {side: _split(rnd, n) for side, n in (("pilgrims", a), ("humans", d))}
                asks.append((pos, {"ask": "battle", "region": "example-battle", "objectives": objectives}))
        pos.setdefault("factions", {}).setdefault("humans", {})["vp"] = rnd.randint(0, 40)  # another table
        for p, q in asks:
            out[json.dumps({"position": p, "question": q, "lang": lang}).encode()] = None
    return list(out)[:count]  # a table's questions come together, as they do at a game


def _as_legal(body: bytes) -> bytes:
    """An ask's table as a /api/legal request: what may the faction whose turn it is do now."""
    data = json.loads(body)
    pos = data["position"]
    faction = pos.get("turn") or pos["players"][0]  # a table in the Battle phase has no turn
    return json.dumps({"position": pos, "faction": faction, "lang": data["lang"]}).encode()


def _legal_bodies(bodies: list[bytes]) -> list[bytes]:
    """One /api/legal request per ask, no two alike and each about a table of its own.

    :func:`_as_legal` of consecutive asks gives the same table (about 8 asks a table), so each
    legal request's table is changed once more: the faction whose turn it is has 41, 42, …
    Victory Points (the asks' tables have 0-40), the next number for that table (in either
    language). Nothing is answered from a kept table or a cache of answers.
    """
    out: list[bytes] = []
    used: dict[str, int] = {}  # a table (with its own Victory Points) to the last number given it
    for body in bodies:
        data = json.loads(_as_legal(body))
        pos, faction = data["position"], data["faction"]
        mine = pos.setdefault("factions", {}).setdefault(faction, {})
        mine["vp"] = None  # the table less what this changes, in either language
        table = json.dumps(pos, sort_keys=True)
        mine["vp"] = used[table] = used.get(table, 40) + 1
        out.append(json.dumps({"position": pos, "faction": faction, "lang": data["lang"]}).encode())
    return out


def _split(rnd: random.Random, n: int) -> dict[str, int]:
    control = rnd.randint(0, n)
    prisoners = rnd.randint(0, n - control)
    return {"control": control, "prisoners": prisoners, "attrition": n - control - prisoners}


def _request(method: str, path: str, body: bytes = b"", extra: str = "") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n{extra}"
    if body:
        head += "Content-Type: application/json\r\n"
    return (head + "\r\n").encode() + body


async def _one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> int:
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


async def _load(port: int, raws: list[bytes], total: int, deadline: float) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    errors = 0
    next_index = 0

    async def worker() -> None:
        nonlocal errors, next_index
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while next_index < total and time.perf_counter() < deadline:
                raw = raws[next_index % len(raws)]
                next_index += 1
                t0 = time.perf_counter()
                try:
                    status = await _one(reader, writer, raw)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    errors += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                latencies.append(time.perf_counter() - t0)
                if status != 200:
                    errors += 1
        finally:
            writer.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    return latencies, errors, time.perf_counter() - t0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stub_site(root: Path) -> Path:
    """A placeholder site, with one page of a real page's size (about 40 KB of HTML) for the static figure."""
    for page in ("index.html", "en/index.html", "pl/index.html"):
        (root / page).parent.mkdir(parents=True, exist_ok=True)
        (root / page).write_text("<!DOCTYPE html><title>bench</title>")
    rule = "<section id='r{0}'><h2>Rule {0}</h2><p>A Unit may move to an adjacent Region unless it is in a Battle.</p></section>"
    (root / "en" / "page.html").write_text(
        "<!DOCTYPE html><title>page</title>" + "".join(rule.format(i) for i in range(300))
    )
    return root


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) the server process and its children have used so far (Linux's
    /proc; None elsewhere). Per request it hardly depends on what else the machine runs, unlike
    req/s on a busy shared machine, so it shows what each answer costs the server."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    try:
        stats = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    except OSError:
        return None
    family = {pid}
    for _ in range(3):  # the server, its workers, theirs
        family |= {p for p, (parent, _) in stats.items() if parent in family}
    for p in family:
        if p in stats:
            total += stats[p][1]
    return total if pid in stats else None


class Phase:
    """One endpoint's figures from one load phase."""

    def __init__(
        self, name: str, latencies: list[float], errors: int, seconds: float, cpu: float | None = None
    ) -> None:
        self.name, self.count, self.errors, self.seconds = name, len(latencies), errors, seconds
        self.rate = self.count / seconds if seconds else 0.0
        self.cpu_us = cpu / self.count * 1e6 if cpu is not None and self.count else None
        q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [float("inf")] * 99
        self.p50, self.p99 = q[49] * 1000, q[98] * 1000

    def line(self, health: Phase) -> str:
        ratio = self.rate / health.rate if health.rate else 0.0
        return (
            f"{self.name:<7} {self.count:>6} requests in {self.seconds:5.2f} s: {self.rate:7.0f} req/s "
            f"({ratio:4.0%} of health), p50 {self.p50:6.2f} ms, p99 {self.p99:6.2f} ms, errors {self.errors}"
            + (f", server CPU {self.cpu_us:5.0f} µs/request" if self.cpu_us is not None else "")
        )


def _verdicts(health: Phase, phases: list[Phase]) -> list[str]:
    """Each target of issue 26 with its figure from this run: ok or MISSED."""
    out = []
    for p in phases:
        ratio = p.rate / health.rate if health.rate else 0.0
        checks = [f"{ratio:.0%} of health (target >= {RATIO_TARGET:.0%}) {'ok' if ratio >= RATIO_TARGET else 'MISSED'}"]
        if p.name != "page":
            met = "ok" if p.p99 <= P99_TARGET_MS else "MISSED"
            checks.append(f"p99 {p.p99:.1f} ms (target <= {P99_TARGET_MS:.0f} ms) {met}")
        out.append(f"{p.name}: " + "; ".join(checks))
    return out


@contextlib.contextmanager
def served() -> Iterator[tuple[int, subprocess.Popen[str]] | None]:
    """A real `havoc serve` (uvicorn, one worker) over a stub site on a free loopback port, for as
    long as the block runs: its port and process, or None (its error printed) if it did not start.
    The benchmarks' requests say "Host: 127.0.0.1" without the port, which it allows on any port."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
        env["HAVOC_CACHE_DIR"] = str(Path(tmp) / "cache")
        port = _free_port()
        site = _stub_site(Path(tmp) / "site")
        cmd = [sys.executable, "-m", "havoc", "serve", "--site", str(site), "--port", str(port), "--workers", "1"]
        cmd += ["--allowed-host", "127.0.0.1"]
        server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(200):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                        break
                except OSError:
                    if server.poll() is not None:
                        print(server.stderr.read() if server.stderr else "the server stopped")
                        yield None
                        return
                    time.sleep(0.1)
            yield port, server
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


def main() -> int:
    with served() as started:
        if started is None:
            return 1
        port, server = started
        health = [_request("GET", "/api/health")]
        bodies = _bodies(REQUESTS + 300)
        asks = [_request("POST", "/api/ask", b) for b in bodies[:REQUESTS]]
        legal = [_request("POST", "/api/legal", b) for b in _legal_bodies(bodies[:REQUESTS])]
        warm = [_request("POST", "/api/ask", b) for b in bodies[REQUESTS:]]  # other tables
        page = [_request("GET", "/en/page.html", extra="Accept-Encoding: gzip\r\n")]
        end = time.perf_counter() + TIME_LIMIT
        asyncio.run(_load(port, warm + health + page, 600, end))  # warm-up: code paths, not these tables

        def phase(name: str, raws: list[bytes]) -> Phase:
            deadline = min(end, time.perf_counter() + PHASE_SECONDS)
            before = _cpu_seconds(server.pid)
            latencies, errors, seconds = asyncio.run(_load(port, raws, REQUESTS, deadline))
            after = _cpu_seconds(server.pid)
            cpu = after - before if before is not None and after is not None else None
            return Phase(name, latencies, errors, seconds, cpu)

        print(f"havoc serve, 1 worker, {CONCURRENCY} concurrent keep-alive connections on loopback")
        h = phase("health", health)
        others = [phase("ask", asks), phase("legal", legal), phase("page", page)]
        for p in [h, *others]:
            print(p.line(h))
        for verdict in _verdicts(h, others):
            print(verdict)
        if h.cpu_us:  # what the ratios would be were the server alone on its CPU
            print(
                "server CPU per request, health's as a share of each (the throughput ratio on an idle CPU): "
                + ", ".join(f"{p.name} {h.cpu_us / p.cpu_us:.0%}" for p in others if p.cpu_us)
            )
        errors = sum(p.errors for p in [h, *others])
        if errors:  # a failed request is a bug, not a slow figure
            print(f"ERRORS: {errors} failed requests")
            return 1
        return 0


if __name__ == "__main__":
    sys.exit(main())
