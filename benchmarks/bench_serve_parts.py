"""Where `havoc serve`'s CPU per request goes (issue 26), in-process and without sockets.

bench_serve.py measures the real server's CPU per request under load; this splits it, over the
same request bodies (:func:`bench_serve._bodies`), into what each layer adds:

- engine: the body read, answered and encoded (``Api.parse`` + the endpoint's work + ``encode``);
- app: the ASGI application (:class:`havoc.web.server.app.Front`) called with a ready receive/send;
- protocol: the request's bytes fed to the server's own HTTP protocol (uvicorn's httptools
  protocol with havoc's limits, :class:`havoc.web.server.limits.GuardedProtocol`) on a uvloop event
  loop, its answer written to a transport that keeps the bytes: parsing, deadlines, the
  request/response cycle, the task per request, uvicorn's proxy-headers middleware.

What the real server spends beyond "protocol" is the sockets and the event loop's polling
(bench_serve's figure minus this one). Each layer starts from a fresh application that has
answered the same 300 other tables first (as bench_serve warms its server), so kept tables and
warm code are alike. CPU time of this process only: the machine's other load hardly changes it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_serve

from havoc.web.server.transport import MemoryTransport

COUNT = int(os.environ.get("HAVOC_BENCH_REQUESTS", "3000"))
CONNECTIONS = bench_serve.CONCURRENCY


def _app() -> Any:
    from havoc.web.server.app import create_app

    return create_app(None)


def _cpu(run: Callable[[], None]) -> float:
    t0 = time.process_time()
    run()
    return time.process_time() - t0


def engine_only(path: str, bodies: list[bytes], warm: list[bytes]) -> float:
    """CPU seconds to read, answer and encode ``bodies`` with the engine alone."""
    from havoc.web.server.app import Head, encode

    front = _app()
    head = Head("application/json", None, "", "")
    posts = front.posts

    def go(path: str, items: list[bytes]) -> None:
        allowed, work = posts[path]
        for body in items:
            encode(work(front.handlers.parse(head, body, allowed)))

    go("/api/ask", warm)
    return _cpu(lambda: go(path, bodies))


def _scope(method: str, path: str, body: bytes) -> dict[str, Any]:
    headers = [(b"host", b"127.0.0.1"), (b"content-length", str(len(body)).encode())]
    if body:
        headers.append((b"content-type", b"application/json"))
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": MemoryTransport.PEERNAME,
        "server": ("127.0.0.1", 8000),
        "state": {},
    }


def app_only(method: str, path: str, bodies: list[bytes], warm: list[bytes]) -> float:
    """CPU seconds for the ASGI application to answer ``bodies`` (receive and send ready)."""
    front = _app()

    async def one(method: str, path: str, body: bytes) -> None:
        sent: list[Any] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Any) -> None:
            sent.append(message)

        await front(_scope(method, path, body), receive, send)
        if sent[0]["status"] != 200:
            raise SystemExit(f"{path} answered {sent[0]['status']}")

    async def go(method: str, path: str, items: list[bytes]) -> float:
        t0 = time.process_time()
        for body in items:
            await one(method, path, body)
        return time.process_time() - t0

    async def main() -> float:
        await go("POST", "/api/ask", warm)
        return await go(method, path, bodies)

    return _loop_run(main())


def _loop_run(coro: Any) -> float:
    import uvloop

    return float(uvloop.run(coro))


def through_protocol(raws: list[bytes], warm: list[bytes]) -> float:
    """CPU seconds for the server's HTTP protocol and application to answer the raw requests
    ``raws``, spread over :data:`CONNECTIONS` connections, with no sockets."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from havoc.web.server.limits import uvicorn_settings

    front = _app()

    async def main() -> float:
        settings = uvicorn_settings()
        protocol_class = settings.pop("http")
        settings.pop("backlog")
        config = Config(app=front, log_level="warning", access_log=False, server_header=False, **settings)
        config.load()
        state = ServerState()
        loop = asyncio.get_running_loop()
        connections = []
        for _ in range(CONNECTIONS):
            protocol = protocol_class(config=config, server_state=state, app_state={}, _loop=loop)
            transport = MemoryTransport()
            protocol.connection_made(transport)
            connections.append((protocol, transport))

        async def go(items: list[bytes]) -> float:
            t0 = time.process_time()
            for i, raw in enumerate(items):
                protocol, transport = connections[i % CONNECTIONS]
                protocol.data_received(raw)
                while not (protocol.cycle is not None and protocol.cycle.response_complete):
                    await asyncio.sleep(0)  # the request's task runs
                if not transport.written[0].startswith(b"HTTP/1.1 200"):
                    raise SystemExit(f"answered {transport.written[0][:40]!r}")
                transport.written.clear()
            return time.process_time() - t0

        await go(warm)
        seconds = await go(raws)
        for protocol, _ in connections:
            protocol.connection_lost(None)
        return seconds

    return _loop_run(main())


def main() -> int:
    bodies = bench_serve._bodies(COUNT + 300)
    asks, warm = bodies[:COUNT], bodies[COUNT:]
    legal = bench_serve._legal_bodies(asks)
    warm_raw = [bench_serve._request("POST", "/api/ask", b) for b in warm]
    health_raw = [bench_serve._request("GET", "/api/health")] * COUNT

    def us(seconds: float) -> str:
        return f"{seconds / COUNT * 1e6:6.1f}"

    print(f"CPU µs per request in-process, {COUNT} requests (bench_serve's bodies), no sockets")
    print(f"{'':8}{'engine':>8}{'app':>8}{'protocol':>10}   app-engine  protocol-app")
    rows: list[tuple[str, float | None, float, float]] = [
        ("health", None, app_only("GET", "/api/health", [b""] * COUNT, warm), through_protocol(health_raw, warm_raw))
    ]
    for name, path, items in (("ask", "/api/ask", asks), ("legal", "/api/legal", legal)):
        raws = [bench_serve._request("POST", path, b) for b in items]
        rows.append(
            (
                name,
                engine_only(path, items, warm),
                app_only("POST", path, items, warm),
                through_protocol(raws, warm_raw),
            )
        )
    for name, engine, app, protocol in rows:
        e = us(engine) if engine is not None else "     -"
        extra = us(app - engine) if engine is not None else "     -"
        print(f"{name:<8}{e:>8}{us(app):>8}{us(protocol):>10}   {extra:>10}  {us(protocol - app):>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
