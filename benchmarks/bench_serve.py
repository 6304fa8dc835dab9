"""`havoc serve` under load on loopback (issues 11, 26, 40): autocannon against the real server.

Starts the real server (uvicorn, one worker) on a free 127.0.0.1 port and drives it with
autocannon (npm, pinned in package.json; ``npm ci`` installs it) at 50 keep-alive connections.
The load client is Node's, not this process's: the asyncio client this benchmark had topped out
at 1.9-2.4k req/s, below what the server answers on /api/health, so its ratios and p99s were the
client's (issue 40). Each run shows whether the client could be the bottleneck: the client's
CPU time per request next to the server's, how much of one core the server had during the
health phase, and health again with two autocannon workers (threads) instead of one.

Phases, each for ``HAVOC_BENCH_SECONDS`` (default 3 s) and repeated ``HAVOC_BENCH_ROUNDS``
times (default 3), interleaved (health, ask, ..., health, ask, ...), figures the median over the
rounds, on the same server:

- health: GET /api/health, the bare server;
- examples: POST /api/ask with the rules' stored examples (each example's position and
  question, in English and Polish, as the Ask page sends them when a player picks one), over
  and over: the same requests many times;
- ask: POST /api/ask, all different (:func:`_bodies`: a Battle Region's leave question, moves
  across a 20-Region table, the legal-actions list, Battle resolutions, about some 1,300 tables,
  a few questions a table); no body is sent twice in a run, so nothing is answered from memory;
- understand: POST /api/understand, typed questions in both languages, none sent twice in a run;
- legal: POST /api/legal, each about a table of its own (:func:`_legal_bodies`);
- page: a 40 KB static page, gzip accepted.

Goals (issue 40): at 50 connections, p99 <= 25 ms and throughput >= 25% of health's for each
question phase; 0 errors (a failed request fails the run; a missed goal is printed as MISSED).
The server's CPU time per request (user + system, from /proc) is printed for each phase: it
hardly depends on what else the shared machine runs, unlike req/s, so health's CPU per request
as a share of a phase's is the ratio the phase would have on an idle core.

Without node or autocannon this prints why and exits 0 (a missing tool is no failed figure;
``python benchmarks/run.py`` counts a non-zero exit as a failure).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import shutil
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
# autocannon from the project's node_modules, or HAVOC_AUTOCANNON: a copy installed elsewhere
# (`npm install autocannon@9.0.0` in a scratch folder) when this checkout's node_modules has none
AUTOCANNON = Path(os.environ.get("HAVOC_AUTOCANNON") or REPO / "node_modules" / "autocannon")
REQUESTS = int(os.environ.get("HAVOC_BENCH_REQUESTS", "10000"))  # different asks per round
CONCURRENCY = 50
PHASE_SECONDS = int(os.environ.get("HAVOC_BENCH_SECONDS", "3"))  # autocannon stops each phase by itself
ROUNDS = int(os.environ.get("HAVOC_BENCH_ROUNDS", "3"))
CLIENT_TIMEOUT = 60.0  # seconds a phase's client may take in all before it is stopped
RATIO_TARGET = 0.25
P99_TARGET_MS = 25.0
QUESTIONS = ("examples", "ask", "understand", "legal")

DRIVER = r"""
'use strict'
// One load phase: autocannon at one address, then its figures as one line of JSON.
const fs = require('fs')
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const autocannon = require(cfg.module)
const bodies = (cfg.bodies || []).map((b) => Buffer.from(b))
const request = { method: cfg.method, path: cfg.path, headers: cfg.headers || {} }
let next = 0
if (bodies.length === 1) request.body = bodies[0]
else if (bodies.length > 1) {
  // one counter for all connections: no body is sent twice before every one has been sent
  request.setupRequest = (req) => { req.body = bodies[next++ % bodies.length]; return req }
}
const options = {
  url: cfg.url, connections: cfg.connections, duration: cfg.seconds, pipelining: 1, timeout: 10,
  requests: [request]
}
if (cfg.workers) options.workers = cfg.workers
// autocannon's own histogram keeps whole milliseconds: the exact latencies are kept here
// (with workers they stay in the worker threads, and autocannon's figures are given)
const latencies = []
const cpu0 = process.cpuUsage()
const instance = autocannon(options, (err, result) => {
  if (err) { console.error(String(err)); process.exit(2) }
  const cpu = process.cpuUsage(cpu0)
  latencies.sort((a, b) => a - b)
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
  const own = latencies.length > 0
  process.stdout.write(JSON.stringify({
    requests: result.requests.total, seconds: result.duration, ok: result['2xx'], non2xx: result.non2xx,
    errors: result.errors, timeouts: result.timeouts,
    p50: own ? at(0.5) : result.latency.p50, p99: own ? at(0.99) : result.latency.p99,
    client_cpu: (cpu.user + cpu.system) / 1e6, sent_bodies: next
  }) + '\n')
})
if (!cfg.workers) instance.on('response', (client, status, bytes, ms) => { latencies.push(ms) })
"""


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


@contextlib.contextmanager
def served(keep_answers: bool = False) -> Iterator[tuple[int, subprocess.Popen[str]] | None]:
    """A real `havoc serve` (uvicorn, one worker) over a stub site on a free loopback port, for as
    long as the block runs: its port and process, or None (its error printed) if it did not start.
    The benchmarks' requests say "Host: 127.0.0.1" without the port, which it allows on any port.

    It keeps no answers (``HAVOC_ANSWERS_KEPT=0``) unless ``keep_answers``: a benchmark that sends
    one body again and again (bench_hostile.py's) then measures answering it, not remembering it."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if not keep_answers:
            env["HAVOC_ANSWERS_KEPT"] = "0"
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


def _example_bodies() -> list[bytes]:
    """Every stored example the rules interpreter answers, as the Ask page asks it: its position
    and question (plain JSON values), in English and in Polish."""
    from havoc.assistant.examples import is_extra
    from havoc.engine import rulebook
    from havoc.formats.spec import plain

    rs = rulebook.load()
    out = []
    for rule in rs.rules.values():
        for ex in rule.examples:
            if is_extra(rs, ex):  # another decider's (the solo Trogs): its own address
                continue
            for lang in ("en", "pl"):
                body = {"position": plain(ex.position), "question": plain(ex.query), "lang": lang}
                out.append(json.dumps(body).encode())
    return out


UNDERSTAND_EN = (
    "can the {f} move {n} units from region b to region a",
    "how many of my {n} units may leave a battle against {m} humans",
    "can the {f} recruit {n} units with {m} in their reserve",
    "can the {f} build an airfield in foglands",
    "where do the {n} trogs move",
)
UNDERSTAND_PL = (
    "czy ludzie mogą przesunąć {n} oddziały z regionu B do regionu A",
    "ile oddziałów może wycofać obrońca z bitwy {n} na {m}",
    "czy pielgrzymi mogą aktywować sferę mocy w pogorzelisku",
)


def _understand_bodies() -> list[bytes]:
    """Typed questions for POST /api/understand, in both languages, as the Ask page's box sends
    them: all different (some 4,600 texts), so none is answered from memory."""
    out: dict[bytes, None] = {}
    for n in range(1, 31):
        for m in range(1, 31):
            for f in ("humans", "pilgrims", "machines"):
                for template in UNDERSTAND_EN:
                    text = template.format(f=f, n=n, m=m)
                    out[json.dumps({"text": text, "lang": "en"}).encode()] = None
            for template in UNDERSTAND_PL:
                out[json.dumps({"text": template.format(n=n, m=m), "lang": "pl"}).encode()] = None
    items = list(out)
    random.Random(3).shuffle(items)  # each round's share has every kind of question
    return items


def _client() -> str | None:
    """Why autocannon cannot run here (None: it can)."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (AUTOCANNON / "package.json").is_file():
        return f"autocannon is not installed in {AUTOCANNON.parent} (run `npm ci`)"
    return None


class Phase:
    """One phase's figures from autocannon and the server's CPU time."""

    def __init__(self, name: str, out: dict[str, Any], server_cpu: float | None) -> None:
        self.name = name
        self.count = int(out["requests"])
        self.seconds = float(out["seconds"])
        self.errors = int(out["errors"]) + int(out["timeouts"]) + int(out["non2xx"])
        self.rate = self.count / self.seconds if self.seconds else 0.0
        self.p50, self.p99 = float(out["p50"]), float(out["p99"])
        self.client_us = float(out["client_cpu"]) / self.count * 1e6 if self.count else float("inf")
        self.server_us = server_cpu / self.count * 1e6 if server_cpu is not None and self.count else None
        self.server_share = server_cpu / self.seconds if server_cpu is not None and self.seconds else None
        self.sent_bodies = int(out["sent_bodies"])


def _cannon(
    port: int, server_pid: int, name: str, method: str, path: str, bodies: list[bytes], workers: int = 0
) -> Phase:
    """One load phase: autocannon for PHASE_SECONDS, and the server's CPU time meanwhile."""
    headers = {"Content-Type": "application/json"} if bodies else {}
    if path.endswith(".html"):
        headers["Accept-Encoding"] = "gzip"
    cfg = {
        "module": str(AUTOCANNON),
        "url": f"http://127.0.0.1:{port}",
        "method": method,
        "path": path,
        "headers": headers,
        "connections": CONCURRENCY,
        "seconds": PHASE_SECONDS,
        "workers": workers,
        "bodies": [b.decode() for b in bodies],
    }
    with tempfile.TemporaryDirectory() as tmp:
        script, config = Path(tmp) / "driver.js", Path(tmp) / "phase.json"
        script.write_text(DRIVER)
        config.write_text(json.dumps(cfg))
        before = _cpu_seconds(server_pid)
        done = subprocess.run(
            ["node", str(script), str(config)], capture_output=True, text=True, timeout=CLIENT_TIMEOUT, check=False
        )
        after = _cpu_seconds(server_pid)
    if done.returncode != 0:
        raise SystemExit(f"autocannon failed ({name}): {done.stderr.strip()[-500:]}")
    cpu = after - before if before is not None and after is not None else None
    return Phase(name, json.loads(done.stdout.strip().splitlines()[-1]), cpu)


def _median(phases: list[Phase], attr: str) -> float:
    values = [getattr(p, attr) for p in phases if getattr(p, attr) is not None]
    return statistics.median(values) if values else float("nan")


def _load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"
    except OSError:
        return "load average unknown"


def main() -> int:
    why = _client()
    if why is not None:
        print(f"not measured: {why}")
        return 0
    examples = _example_bodies()
    bodies = _bodies(REQUESTS * ROUNDS + 300)
    warm, different = bodies[-300:], bodies[:-300]
    legal_all = _legal_bodies(different)
    understand = _understand_bodies()
    print(f"machine before: {_load()}")
    with served(keep_answers=True) as started:  # as `havoc serve` runs
        if started is None:
            return 1
        port, server = started
        pid = server.pid
        # warm-up: code paths and kept catalogs, not the measured tables
        _cannon(port, pid, "warm", "POST", "/api/ask", warm + examples)
        rounds: dict[str, list[Phase]] = {}
        for r in range(ROUNDS):
            mine = slice(r * REQUESTS, (r + 1) * REQUESTS)  # each round its own asks and tables
            plan: list[tuple[str, str, str, list[bytes], int]] = [
                ("health", "GET", "/api/health", [], 0),
                ("examples", "POST", "/api/ask", examples, 0),
                ("ask", "POST", "/api/ask", different[mine], 0),
                ("understand", "POST", "/api/understand", understand[r::ROUNDS], 0),
                ("legal", "POST", "/api/legal", legal_all[mine], 0),
                ("page", "GET", "/en/page.html", [], 0),
                ("health-2w", "GET", "/api/health", [], 2),
            ]
            for name, method, path, items, workers in plan:
                rounds.setdefault(name, []).append(_cannon(port, pid, name, method, path, items, workers))
    print(f"machine after: {_load()}")
    print(
        f"havoc serve, 1 worker, autocannon {_version()} at {CONCURRENCY} keep-alive connections on loopback, "
        f"{ROUNDS} interleaved rounds of {PHASE_SECONDS} s a phase; medians over the rounds"
    )
    health = _median(rounds["health"], "rate")
    health_us = _median(rounds["health"], "server_us")
    missed = []
    for name, phases in rounds.items():
        rate, p50, p99 = (_median(phases, a) for a in ("rate", "p50", "p99"))
        server_us, client_us = _median(phases, "server_us"), _median(phases, "client_us")
        ratio = rate / health if health else 0.0
        idle = health_us / server_us if server_us else float("nan")
        line = (
            f"{name:<10} {rate:7.0f} req/s ({ratio:4.0%} of health), p50 {p50:6.2f} ms, p99 {p99:6.2f} ms, "
            f"server CPU {server_us:5.0f} µs/request (health's share {idle:4.0%}), client CPU {client_us:4.0f} µs/request, "
            f"errors {sum(p.errors for p in phases)}"
        )
        print(line)
        if name in QUESTIONS:
            for what, ok, figure in (
                ("throughput", ratio >= RATIO_TARGET, f"{ratio:.0%} of health (goal >= {RATIO_TARGET:.0%})"),
                ("p99", p99 <= P99_TARGET_MS, f"p99 {p99:.1f} ms (goal <= {P99_TARGET_MS:.0f} ms)"),
            ):
                if not ok:
                    missed.append(f"{name} {what}: {figure}")
    h, h2 = rounds["health"], rounds["health-2w"]
    share = _median(h, "server_share")
    client_us, server_us = _median(h, "client_us"), _median(h, "server_us")
    print(
        f"is the client the bottleneck? on health the server used {share:.0%} of a core (one thread), the client "
        f"{client_us:.0f} µs of CPU a request against the server's {server_us:.0f}: on a core each, the client could "
        f"send {1e6 / client_us:.0f} req/s and the server answer {1e6 / server_us:.0f}; two autocannon workers gave "
        f"{_median(h2, 'rate') / health:.0%} of one worker's rate"
    )
    per_round = ", ".join(f"{p.rate:.0f}" for p in h)
    print(f"health req/s in each round: {per_round}")
    used = max((p.sent_bodies for p in rounds["ask"]), default=0)
    if used > REQUESTS:
        print(f"NOTE: a round sent {used} asks, more than its {REQUESTS} different bodies: some were sent twice")
    for m in missed:
        print(f"MISSED {m}")
    if not missed:
        print("goals (issue 40): every question phase p99 <= 25 ms and >= 25% of health's rate: ok")
    errors = sum(p.errors for phases in rounds.values() for p in phases)
    if errors:  # a failed request is a bug, not a slow figure
        print(f"ERRORS: {errors} failed requests")
        return 1
    return 0


def _version() -> str:
    try:
        return str(json.loads((AUTOCANNON / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return "?"


if __name__ == "__main__":
    sys.exit(main())
