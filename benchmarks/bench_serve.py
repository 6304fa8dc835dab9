"""`havoc serve` under load on loopback (issue 11): 10,000 asks at 50 concurrent, beside /api/health.

Starts the real server (uvicorn, one worker) on a free 127.0.0.1 port, then drives it from this
process with 50 keep-alive connections (a minimal asyncio HTTP/1.1 client: a heavier client
would measure itself). The same run measures GET /api/health and POST /api/ask, so the ratio
shows what answering costs over the bare server. The load is bounded: a fixed number of
requests, and the whole run stops after a time limit whatever happens.

Targets: ask throughput ≥ 50% of health's; ask p99 ≤ 50 ms at 50 concurrent on one worker;
0 errors. The asks are all different: a Battle Region's leave question, moves across a
20-Region position, the legal-actions list, Battle resolutions, in English and Polish, about
some 1,300 tables (a few questions each, as players ask at a game).
"""

from __future__ import annotations

import asyncio
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
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "assistant"
REQUESTS = int(os.environ.get("HAVOC_BENCH_REQUESTS", "10000"))
CONCURRENCY = 50
TIME_LIMIT = 300.0  # seconds for the whole run: the load stops by itself


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


def _report(name: str, latencies: list[float], errors: int, seconds: float) -> float:
    rate = len(latencies) / seconds if seconds else 0.0
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    print(
        f"{name:<8} {len(latencies):>6} requests in {seconds:6.2f} s: {rate:8.0f} req/s, "
        f"p50 {q[49] * 1000:6.2f} ms, p99 {q[98] * 1000:6.2f} ms, errors {errors}"
    )
    return rate


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
        env["HAVOC_CACHE_DIR"] = str(Path(tmp) / "cache")
        port = _free_port()
        site = _stub_site(Path(tmp) / "site")
        cmd = [sys.executable, "-m", "havoc", "serve", "--site", str(site), "--port", str(port), "--workers", "1"]
        server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(200):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                        break
                except OSError:
                    if server.poll() is not None:
                        print(server.stderr.read() if server.stderr else "the server stopped")
                        return 1
                    time.sleep(0.1)
            health = [_request("GET", "/api/health")]
            asks = [_request("POST", "/api/ask", b) for b in _bodies(REQUESTS)]
            warm = [_request("POST", "/api/ask", b) for b in _bodies(REQUESTS + 300)[-300:]]  # other tables
            deadline = time.perf_counter() + TIME_LIMIT
            asyncio.run(_load(port, warm + health, 500, deadline))  # warm-up: code paths, not these tables
            print(f"havoc serve, 1 worker, {CONCURRENCY} concurrent keep-alive connections on loopback")
            h = _report("health", *asyncio.run(_load(port, health, REQUESTS, deadline)))
            lat, errors, seconds = asyncio.run(_load(port, asks, REQUESTS, deadline))
            a = _report("ask", lat, errors, seconds)
            legal = [_request("POST", "/api/legal", _as_legal(b)) for b in _bodies(REQUESTS)]
            lg = _report("legal", *asyncio.run(_load(port, legal, REQUESTS, deadline)))
            page = [_request("GET", "/en/page.html", extra="Accept-Encoding: gzip\r\n")]
            st = _report("page", *asyncio.run(_load(port, page, REQUESTS, deadline)))
            if h:
                print(f"legal/health {lg / h:.0%}, static page (gzip)/health {st / h:.0%}")
            p99 = statistics.quantiles(lat, n=100)[98] * 1000 if len(lat) > 1 else float("inf")
            ratio = a / h if h else 0.0
            done = len(lat) == REQUESTS
            print(
                f"ask/health throughput: {ratio:.0%} (target ≥ 50%) {'ok' if ratio >= 0.5 else 'MISSED'}; "
                f"ask p99 {p99:.1f} ms (target ≤ 50 ms) {'ok' if p99 <= 50 else 'MISSED'}"
            )
            if errors or not done:  # a failed request is a bug, not a slow figure
                print(f"ERRORS: {errors} failed requests" + ("" if done else "; the time limit cut the run short"))
                return 1
            return 0
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    sys.exit(main())
