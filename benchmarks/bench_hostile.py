"""`havoc serve` against hostile bodies (issue 36, part 5): what the costliest request costs.

Three figures:

1. the server CPU time of the costliest body the limits accept (every list and mapping within
   its limit, the nesting and YAML values within theirs): long ``via`` lists, many players, many
   Regions with many neighbours, every problem a table can have, unknown fields, question word
   lists, chart lists, YAML with its most values, as JSON and as YAML;
2. the CPU time of the costliest refusal (the same shapes past their limits, filling the 256 KiB
   body: 50,000 Regions in ``via``, 85,000 empty lists as ``players``, 100,000 brackets, a
   top-level YAML list, YAML aliases, duplicate keys);
3. p90/p99 of a normal ask at a real ``havoc serve`` (uvicorn, one worker, loopback, as
   bench_serve.py starts it) while four hostile clients send it the costliest bodies of 1 and 2
   without a pause;
4. at the same server, how long a fresh client waits for ``/api/health`` while 200 slowloris
   connections trickle their heads, and how long SIGTERM then takes to end the process
   (tests/test_server_abuse.py checks that both happen, not how fast: the budgets are here).

1 and 2 are measured in this process through the ASGI application (``time.process_time``: this
thread and the worker threads the server answers large bodies in), the best of a few runs.
Goals: the costliest accepted body at most 20 ms of CPU, the normal ask's p99 under 20 ms, a
fresh client under the slowloris attack answered within 1 s, SIGTERM ending the server within 5 s.
``HAVOC_BENCH_SECONDS`` sets how long the loaded phase runs (default 8 s).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
FIXTURES = REPO / "tests" / "fixtures" / "assistant"
MAX_BODY = 256 * 1024
SECONDS = float(os.environ.get("HAVOC_BENCH_SECONDS", "8"))
HOSTILE_CLIENTS = 4
CPU_GOAL_MS = 20.0
P99_GOAL_MS = 20.0
RUNS = 3
FRESH_GOAL_S = 1.0
STOP_GOAL_S = 5.0
SLOWLORIS = 200

STRUCTURES = ("harvester", "airfield", "artillery", "power-orb", "watchtower")
REGIONS, NEIGHBOURS, STRUCTURES_MOST, SKILLS, VIA, WORDS, YAML_VALUES = 64, 16, 16, 64, 16, 64, 1536
"""The limits of issue 36 (havoc.games.cry_havoc.position, .fields): the bodies "within the
limits" reach each of them."""

Body = tuple[str, str, str, bytes, bool]
"""(what it is, path, Content-Type, the body, within the limits)"""


def _yaml(value: Any) -> str:
    import yaml

    plain = json.loads(json.dumps(value))  # (no object twice: safe_dump would write an anchor)
    return yaml.safe_dump(plain, default_flow_style=None, sort_keys=False, width=10_000)


def _fill(make: Callable[[int], bytes], most: int = MAX_BODY - 64) -> bytes:
    """``make(n)`` for the largest n whose body fits in the 256 KiB limit (n doubled, then halved)."""
    n = 1
    while len(make(n * 2)) <= most:
        n *= 2
    lo, hi = n, n * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if len(make(mid)) <= most else (lo, mid)
    return make(lo)


def _table(regions: int, neighbours: int, structures: int = 0, skills: int = 0) -> dict[str, Any]:
    """A table of ``regions`` Regions, each with ``neighbours`` neighbours (names of the table)."""
    ids = [f"example-{i:03}" for i in range(regions)]
    out: dict[str, Any] = {
        "players": ["humans", "pilgrims", "machines", "trogs"],
        "round": 2,
        "phase": "actions",
        "action-round": 1,
        "turn": "pilgrims",
        "initiative": ["humans", "pilgrims", "machines", "trogs"],
        "factions": {
            "pilgrims": {"vp": 3, "hand": 5, "skills": {f"skill-{i}": "ready" for i in range(skills)}},
        },
        "regions": {},
    }
    for i, rid in enumerate(ids):
        out["regions"][rid] = {
            "terrain": ("jungle", "desert", "mountains", "ocean")[i % 4],
            # (no faction has more than its 12 Units on the board)
            "units": {"pilgrims": 1} if i < 11 else {"humans": 1} if i < 22 else {},
            "control": "pilgrims" if i < 11 else "humans" if i < 22 else None,
            "crystals": i % 4,
            "adjacent": [ids[(i + k) % regions] for k in range(1, neighbours + 1) if (i + k) % regions != i],
            # one Structure of each type a Region may hold (the HQ's Region none)
            "structures": [{"type": t, "owner": "pilgrims"} for t in STRUCTURES[: structures if i else 0]],
        }
    out["regions"][ids[0]]["hq"] = "pilgrims"
    for region in out["regions"].values():
        if region["control"] is None:
            del region["control"]
    return out


def _values(text: str) -> int:
    """The values of a YAML text (as havoc.formats.yamlio counts them)."""
    import yaml

    return sum(isinstance(e, yaml.NodeEvent) for e in yaml.parse(text, Loader=yaml.CSafeLoader))


def _ask(position: Any, question: Any) -> dict[str, Any]:
    return {"position": position, "question": question, "lang": "pl"}


def _named(n: int) -> dict[str, Any]:
    table = _table(n, NEIGHBOURS)
    table["regions"] = {f"Region {k}": v for k, v in table["regions"].items()}  # every name unread
    return _ask(table, "legal")


def _wrong(n: int) -> dict[str, Any]:
    table = _table(n, NEIGHBOURS, STRUCTURES_MOST, SKILLS)
    for region in table["regions"].values():  # every value wrong
        region.update(terrain="lava", units={"elves": "many"}, crystals=-1, control="nobody")
        region["adjacent"] = [f"Nowhere {i}" for i in range(NEIGHBOURS)]
        region["structures"] = [{"type": "Nothing", "owner": "elves"}] * STRUCTURES_MOST
    return _ask(table, "legal")


def _long_ids(n: int) -> dict[str, Any]:
    table = _table(n, NEIGHBOURS)
    rename = {rid: rid + "-" + "x" * 180 for rid in table["regions"]}
    table["regions"] = {
        rename[k]: {**v, "adjacent": [rename[a] for a in v["adjacent"]]} for k, v in table["regions"].items()
    }
    return {"position": table, "faction": "pilgrims"}


def _most(n: int) -> dict[str, Any]:
    return {"position": _table(n, NEIGHBOURS, STRUCTURES_MOST), "faction": "pilgrims"}


def _table_bodies(add: Callable[..., None]) -> list[Body]:
    """Tables of the most Regions (``add``: as JSON and YAML), and each as the largest YAML
    body within the YAML values."""
    out: list[Body] = []
    kinds: list[tuple[str, Callable[[int], dict[str, Any]], str]] = [
        ("named Regions, every neighbour unknown", _named, "/api/ask"),
        ("Regions, every value wrong", _wrong, "/api/ask"),
        (f"Regions x {NEIGHBOURS} neighbours, 190-letter IDs, legal", _long_ids, "/api/legal"),
        (f"Regions x {NEIGHBOURS} neighbours, legal", _most, "/api/legal"),
    ]
    for what, build, path in kinds:
        add(f"{REGIONS} {what}", build(REGIONS), True, path)
        n = REGIONS
        while n > 1 and _values(_yaml(build(n))) > YAML_VALUES:  # the most a YAML body holds
            n -= 1
        text = _yaml(build(n)).encode()
        out.append((f"{n} {what}, the most YAML values (YAML)", path, "application/yaml", text, True))
    return out


def _bodies() -> list[Body]:
    """The hostile bodies: every shape within its limits, and the same shapes past them."""
    import yaml

    leave = yaml.safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text())
    twenty = yaml.safe_load((FIXTURES / "twenty.yaml").read_text())
    out: list[Body] = []

    def add(name: str, data: Any, within: bool, path: str = "/api/ask", both: bool = True) -> None:
        out.append((name + " (JSON)", path, "application/json", json.dumps(data).encode(), within))
        if both:
            text = _yaml(data)
            fits = _values(text) <= YAML_VALUES
            out.append(
                (
                    name + " (YAML)" + ("" if fits else " past the YAML values"),
                    path,
                    "application/yaml",
                    text.encode(),
                    within and fits,
                )
            )

    move = {"ask": "move", "faction": "pilgrims", "from": "example-08", "to": "example-09"}
    add(f"via of {VIA} Regions", _ask(twenty, {**move, "via": ["example-03", "example-04"] * (VIA // 2)}), True)
    add(f"via of {VIA} unknown Regions", _ask(twenty, {**move, "via": [f"Region {i}" for i in range(VIA)]}), True)
    typed = "ruch pielgrzymi z=example-08 do=example-09 przez=" + ",".join(f"Region{i}" for i in range(VIA))
    add(f"via of {VIA} unknown Regions, typed", _ask(twenty, typed), True)
    big = _table(REGIONS, NEIGHBOURS, STRUCTURES_MOST, SKILLS)
    add(
        f"{REGIONS} Regions x {NEIGHBOURS} neighbours, move",
        _ask(big, {"ask": "move", "faction": "pilgrims", "from": "example-000", "to": "example-001"}),
        True,
    )
    add(f"{REGIONS} Regions x {NEIGHBOURS} neighbours, score", {"position": big}, True, "/api/score")

    out += _table_bodies(add)
    add(f"{16} players", _ask({**leave, "players": ["humans", "pilgrims"] * 8}, "legal"), True)
    add(f"{WORDS} question words", _ask(leave, ["move"] + ["humans"] * (WORDS - 1)), True)
    add("unknown fields", _ask({**leave, **{f"field-{i}": i for i in range(64)}}, "legal"), True)

    # past the limits, filling the body
    def via(n: int) -> bytes:
        return json.dumps(_ask(twenty, {**move, "via": ["example-03"] * n})).encode()

    out.append(("via of the most Regions a body holds (JSON)", "/api/ask", "application/json", _fill(via), False))

    def players(n: int) -> bytes:
        return json.dumps(_ask({"players": [[]] * n}, "legal"), separators=(",", ":")).encode()

    out.append(("players: the most empty lists (JSON)", "/api/ask", "application/json", _fill(players), False))

    def players_yaml(n: int) -> bytes:
        return ("position:\n  players:\n" + "  - []\n" * n + "question: legal\n").encode()

    out.append(("players: the most empty lists (YAML)", "/api/ask", "application/yaml", _fill(players_yaml), False))

    def regions(n: int) -> bytes:
        return json.dumps(_ask({"players": ["humans"], "regions": {f"r{i}": {} for i in range(n)}}, "legal")).encode()

    out.append(("the most Regions (JSON)", "/api/ask", "application/json", _fill(regions), False))

    def neighbours(n: int) -> bytes:
        pos = {"players": ["humans"], "regions": {"a": {"adjacent": [f"Region {i}" for i in range(n)]}}}
        return json.dumps(_ask(pos, "legal")).encode()

    out.append(("the most unknown neighbours (JSON)", "/api/ask", "application/json", _fill(neighbours), False))

    def problems(n: int) -> bytes:
        return json.dumps(_ask({"players": ["humans"], **{f"f{i}": 0 for i in range(n)}}, "legal")).encode()

    out.append(("the most unknown fields (JSON)", "/api/ask", "application/json", _fill(problems), False))

    def words(n: int) -> bytes:
        return json.dumps(_ask(leave, ["move"] * n)).encode()

    out.append(("the most question words (JSON)", "/api/ask", "application/json", _fill(words), False))

    def deep(n: int) -> bytes:
        return b'{"position": ' + b"[" * n + b"]" * n + b', "question": "legal"}'

    out.append(("the most brackets (JSON)", "/api/ask", "application/json", _fill(deep), False))

    def deep_yaml(n: int) -> bytes:
        return b"position: " + b"[" * n + b"]" * n + b"\nquestion: legal\n"

    out.append(("the most brackets (YAML)", "/api/ask", "application/yaml", _fill(deep_yaml), False))

    def top_list(n: int) -> bytes:
        return b"- a\n" * n

    out.append(("a top-level list (YAML)", "/api/ask", "application/yaml", _fill(top_list), False))

    def aliases(n: int) -> bytes:
        return b"x: &a [" + b"1," * n + b"1]\ny: *a\nposition: *a\n"

    out.append(("an anchor and its aliases (YAML)", "/api/ask", "application/yaml", _fill(aliases), False))

    def values_yaml(n: int) -> bytes:
        return (
            "position:\n  players: [humans]\n  regions:\n" + "".join(f"    r{i}: {{}}\n" for i in range(n))
        ).encode()

    out.append(("the most YAML values (YAML)", "/api/ask", "application/yaml", _fill(values_yaml), False))

    def twice(n: int) -> bytes:
        return b'{"position": {' + b'"players": [], ' * n + b'"players": ["humans"]}, "question": "legal"}'

    out.append(("one key given the most times (JSON)", "/api/ask", "application/json", _fill(twice), False))

    def text(n: int) -> bytes:
        return json.dumps(
            _ask("players: [humans]\nregions:\n" + "".join(f"  r{i}: {{}}\n" for i in range(n)), "legal")
        ).encode()

    out.append(("a position as YAML text, the most values (JSON)", "/api/ask", "application/json", _fill(text), False))
    return out


def _chart_cpu(bodies: list[Body]) -> list[tuple[float, int, int, Body]]:
    """Chart lookups through the in-browser engine's request module (``havoc serve`` has none)."""
    from havoc.assistant import webapi

    out = []
    for body in bodies:
        _, path, _, raw, _ = body
        best, status, size = float("inf"), 0, 0
        for _ in range(RUNS):
            t0 = time.process_time()
            answer = webapi.handle("POST", path, raw.decode(), {"ruleset": "advanced-cry-havoc"})
            best = min(best, (time.process_time() - t0) * 1000)
            status, size = json.loads(answer)["status"], len(answer)
        out.append((best, status, size, body))
    return out


def _charts() -> list[Body]:
    """Chart lookups of Advanced Cry Havoc 2 (answered by a server of that ruleset)."""
    out: list[Body] = []
    ok = {"chart": "impairment", "roll": 5, "mods": ["+1"] * 32, "situations": ["stunned"] * 32, "lang": "pl"}
    out.append(
        (
            "a chart: 32 modifiers and situations (JSON)",
            "/api/charts",
            "application/json",
            json.dumps(ok).encode(),
            True,
        )
    )

    def many(n: int) -> bytes:
        return json.dumps({"chart": "impairment", "roll": 5, "mods": ["+1"] * n, "situations": ["x"] * n}).encode()

    out.append(("a chart: the most modifiers (JSON)", "/api/charts", "application/json", _fill(many), False))
    return out


async def _call(app: Any, path: str, ctype: str, body: bytes) -> tuple[int, bytes]:
    """One POST through the ASGI application, in this process."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", ctype.encode()),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


def _measure(app: Any, bodies: list[Body]) -> list[tuple[float, int, int, Body]]:
    """Each body's CPU time (ms, the best of RUNS), status and answer size."""
    out = []
    for body in bodies:
        _, path, ctype, raw, _ = body
        best = float("inf")
        status, answer = 0, b""
        for _ in range(RUNS):
            t0 = time.process_time()
            status, answer = asyncio.run(_call(app, path, ctype, raw))
            best = min(best, (time.process_time() - t0) * 1000)
        out.append((best, status, len(answer), body))
    return out


def _report(title: str, rows: list[tuple[float, int, int, Body]]) -> tuple[float, Body | None]:
    print(title)
    for cpu, status, size, (name, _, _, raw, _) in sorted(rows, key=lambda r: -r[0]):
        print(f"  {cpu:8.2f} ms CPU  {status}  {len(raw) / 1024:6.1f} KiB in, {size / 1024:7.1f} KiB out  {name}")
    if not rows:
        return 0.0, None
    top = max(rows, key=lambda r: r[0])
    return top[0], top[3]


def _request(path: str, ctype: str, body: bytes) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


async def _one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> int:
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    close = False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
        if name.strip().lower() == b"connection" and b"close" in value.lower():
            close = True
    await reader.readexactly(length)
    return -status if close else status


async def _loaded(port: int, normal: list[bytes], hostile: list[bytes], seconds: float) -> tuple[list[float], int]:
    """The normal asks' latencies while HOSTILE_CLIENTS clients send ``hostile`` bodies in turn."""
    stop = time.perf_counter() + seconds
    latencies: list[float] = []
    hostile_sent = 0

    async def attacker(offset: int) -> None:
        nonlocal hostile_sent
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        i = offset
        try:
            while time.perf_counter() < stop:
                try:
                    status = await _one(reader, writer, hostile[i % len(hostile)])
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    status = -1
                hostile_sent += 1
                i += 1
                if status < 0:  # the server closed the connection: open another
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
        finally:
            writer.close()

    async def asker() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        i = 0
        try:
            await asyncio.sleep(0.5)  # the attack is under way
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                status = await _one(reader, writer, normal[i % len(normal)])
                latencies.append(time.perf_counter() - t0)
                if abs(status) != 200:
                    raise SystemExit(f"a normal ask was answered {status}")
                i += 1
                await asyncio.sleep(0.005)
        finally:
            writer.close()

    await asyncio.gather(asker(), *(attacker(k) for k in range(HOSTILE_CLIENTS if hostile else 0)))
    return latencies, hostile_sent


def _serve(normal: list[bytes], hostile: list[bytes]) -> tuple[float, float, float] | None:
    """p50/p90/p99 (ms) of the normal asks at a real `havoc serve` under the hostile clients."""
    from bench_serve import served

    with served() as started:
        if started is None:
            return None
        port, _server = started
        quiet, _ = asyncio.run(_loaded(port, normal, [], 2.0))  # no attack: the baseline
        q0 = statistics.quantiles(quiet, n=100)
        print(f"normal ask alone: p50 {q0[49] * 1000:.2f} ms, p90 {q0[89] * 1000:.2f} ms, p99 {q0[98] * 1000:.2f} ms")
        latencies, sent = asyncio.run(_loaded(port, normal, hostile, SECONDS))
        q = statistics.quantiles(latencies, n=100)
        print(
            f"{len(latencies)} normal asks while {HOSTILE_CLIENTS} hostile clients sent {sent} bodies in {SECONDS:.0f} s"
        )
        return q[49] * 1000, q[89] * 1000, q[98] * 1000


async def _slowloris_wait(port: int) -> float:
    """The longest of five fresh clients' waits for /api/health while SLOWLORIS connections each
    trickle a head a byte every 0.1 s (the server's real head deadline is far longer)."""
    end = asyncio.Event()

    async def slow() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000
        try:
            for i in range(len(head)):
                if end.is_set() or reader.at_eof():
                    return
                writer.write(head[i : i + 1])
                await asyncio.sleep(0.1)
        except OSError:
            pass
        finally:
            writer.close()

    attack = [asyncio.ensure_future(slow()) for _ in range(SLOWLORIS)]
    await asyncio.sleep(0.5)  # every connection open and trickling
    waits = []
    for _ in range(5):
        t0 = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        status = await _one(reader, writer, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        waits.append(time.perf_counter() - t0)
        writer.close()
        if abs(status) != 200:
            raise SystemExit(f"a fresh client was answered {status} under the slowloris attack")
    end.set()
    await asyncio.gather(*attack)
    return max(waits)


def _attacked() -> tuple[float, float] | None:
    """(the longest fresh-client wait under slowloris, seconds from SIGTERM to the end), or None."""
    import signal

    from bench_serve import served

    with served() as started:
        if started is None:
            return None
        port, server = started
        wait = asyncio.run(_slowloris_wait(port))
        t0 = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        return wait, time.perf_counter() - t0


def main() -> int:
    import logging

    from havoc.web.server.app import create_app

    logging.disable(logging.CRITICAL)  # a refusal the server logs is not this figure
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HAVOC_CACHE_DIR"] = str(Path(tmp) / "cache")
        os.environ["HAVOC_ANSWERS_KEPT"] = "0"  # each body answered, not remembered: the costliest stays the costliest
        app = create_app(None)
        bodies = _bodies()
        rows = _measure(app, bodies)
        charts = _chart_cpu(_charts())
    accepted = [r for r in rows + charts if r[3][4]]
    refusals = [r for r in rows + charts if not r[3][4]]
    top_ok, top_ok_body = _report("bodies within the limits (server CPU, best of 3):", accepted)
    top_no, top_no_body = _report("bodies past the limits:", refusals)
    print(f"costliest accepted: {top_ok:.2f} ms CPU ({top_ok_body[0] if top_ok_body else '-'})")
    print(f"costliest refusal: {top_no:.2f} ms CPU ({top_no_body[0] if top_no_body else '-'})")
    normal_body = json.dumps(
        _ask(
            json.loads(json.dumps(__import__("yaml").safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text()))),
            "move humans from=example-a to=example-b units=2",
        )
    ).encode()
    normal = [_request("/api/ask", "application/json", normal_body)]
    worst = sorted((r for r in rows if r[3][1] == "/api/ask" or r[3][1] == "/api/legal"), key=lambda r: -r[0])[:6]
    hostile = [_request(path, ctype, raw) for _, _, _, (_, path, ctype, raw, _) in worst]
    figures = _serve(normal, hostile)
    ok = top_ok <= CPU_GOAL_MS
    print(f"goal: costliest accepted <= {CPU_GOAL_MS:.0f} ms CPU: {'ok' if ok else 'MISSED'}")
    if figures is None:
        return 1
    p50, p90, p99 = figures
    print(f"normal ask under {HOSTILE_CLIENTS} hostile clients: p50 {p50:.2f} ms, p90 {p90:.2f} ms, p99 {p99:.2f} ms")
    print(f"goal: p99 < {P99_GOAL_MS:.0f} ms: {'ok' if p99 < P99_GOAL_MS else 'MISSED'}")
    attacked = _attacked()
    if attacked is None:
        return 1
    wait, stop = attacked
    print(f"fresh client under {SLOWLORIS} slowloris connections: longest wait of 5 {wait * 1000:.1f} ms")
    print(f"goal: within {FRESH_GOAL_S:.0f} s: {'ok' if wait <= FRESH_GOAL_S else 'MISSED'}")
    print(f"SIGTERM to the end of the process: {stop:.2f} s")
    print(f"goal: within {STOP_GOAL_S:.0f} s: {'ok' if stop <= STOP_GOAL_S else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
