"""A socket transport kept in memory, for driving the server's HTTP protocol without sockets.

Its one home: the server tests (tests/test_server_abuse.py: the deadlines a connection's bytes
arm) and the per-layer benchmark (benchmarks/bench_serve_parts.py: what uvicorn's protocol costs
per request) both hand it to :class:`havoc.web.server.limits.GuardedProtocol`'s ``connection_made``
and read back what was written. It lives in the package, not in tests/ or benchmarks/, because
both import it and neither should import the other; the server package is never part of the
phone's engine (havoc.web.offline leaves it out), so it costs the answer path nothing.
"""

from __future__ import annotations


class MemoryTransport:
    """Enough of an asyncio transport for uvicorn's protocol: what it writes is kept in
    :attr:`written`, :meth:`close` only marks it closing, reading is never paused."""

    SOCKNAME = ("127.0.0.1", 8000)
    PEERNAME = ("127.0.0.1", 50000)

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"sockname": self.SOCKNAME, "peername": self.PEERNAME}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass
