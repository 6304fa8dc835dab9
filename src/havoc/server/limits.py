"""What one client may make ``havoc serve`` spend: bytes, connections and time.

uvicorn's own settings cover the size of a request's head (h11's incomplete-event limit), the
idle time between keep-alive requests and the graceful-shutdown wait. Three limits it does not
have are added by :class:`GuardedH11Protocol`, a thin subclass of its h11 protocol:

- a cap on open connections: one past it is answered 503 and closed at once (a file descriptor
  and a few kilobytes each; half-sent connections must not exhaust the process's descriptors);
- time to send the request line and headers (a slowloris client is answered 408 and closed);
- time to send the body (a body trickled a byte a second is cut the same way).

The h11 protocol rather than httptools: httptools has no limit on the size of a request's head
(a 64 MiB header was read and answered 200), h11 refuses past ``max_incomplete_event_size``.
The README lists each limit and why it is what it is.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


@dataclass(frozen=True)
class Limits:
    head_bytes: int = 16 * 1024
    """Request line and headers together; a browser sends 1-2 KiB, cookies included."""
    connections: int = 2048
    """Open connections at once (well under the descriptor limit, raised to fit at start-up)."""
    head_seconds: float = 10.0
    """From connecting (or the previous answer on a kept-alive connection) to the end of the headers."""
    body_seconds: float = 20.0
    """From the end of the headers to the end of the body: 256 KiB at 13 KB/s, a slow phone line."""
    idle_seconds: int = 5
    """A kept-alive connection with no new request is closed after this (uvicorn's default)."""
    shutdown_seconds: int = 5
    """On SIGINT/SIGTERM, requests still running after this are cancelled and the process exits."""


LIMITS = Limits()
"""The limits every worker applies (a test may replace it before the server starts)."""

_REFUSED = (
    b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\ncontent-length: %d\r\n%s\r\n%s"
)


def raw_response(status: int, reason: bytes, text: bytes, extra: bytes = b"") -> bytes:
    """A whole response written straight to the socket (before or instead of the application)."""
    return _REFUSED % (status, reason, len(text), extra, text)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a connection cap and deadlines for the head and the body."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._phase = ""  # "head" or "body": what the running deadline is for

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > LIMITS.connections:
            transport.write(
                raw_response(503, b"Service Unavailable", b"Too many connections.\n", b"retry-after: 1\r\n")
            )
            transport.close()
            return
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def shutdown(self) -> None:
        """Stopping: a client still sending its request is told so (503) and cut now, rather than
        waited for; requests already being answered finish (up to ``shutdown_seconds``)."""
        sending = self.conn.their_state is h11.SEND_BODY and not (self.cycle and self.cycle.response_started)
        if sending and not self.transport.is_closing():
            self.transport.write(raw_response(503, b"Service Unavailable", b"The server is stopping.\n"))
            self.transport.close()
            return
        super().shutdown()

    # --- the deadlines ----------------------------------------------------------------------
    def _watch(self) -> None:
        """Start, keep or stop the deadline for what the client is sending now."""
        if self.transport.is_closing():
            self._cancel()
            return
        their = self.conn.their_state
        if their is h11.IDLE and self.conn.our_state is h11.IDLE:
            self._arm("head", LIMITS.head_seconds)
        elif their is h11.SEND_BODY:
            self._arm("body", LIMITS.body_seconds)
        else:
            self._cancel()

    def _arm(self, phase: str, seconds: float) -> None:
        if self._phase == phase and self._deadline is not None:
            return  # still the same head or body: the deadline does not move with each byte
        self._cancel()
        self._phase = phase
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._phase = ""

    def _expired(self) -> None:
        """Too slow: a 408 if nothing has been answered yet, then the connection is closed."""
        self._deadline = None
        if self.transport.is_closing():
            return
        answering = self.cycle is not None and not self.cycle.response_complete
        if not (answering and self.cycle.response_started):
            self.transport.write(raw_response(408, b"Request Timeout", b"The request came too slowly.\n"))
        self.transport.close()


def raise_descriptor_limit(wanted: int) -> None:
    """Let the process hold ``wanted`` connections: lift the soft file limit toward the hard one."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + 256  # the rules, the site's files, the event loop, a margin
    if soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def uvicorn_settings() -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run``/``uvicorn.Config`` that apply :data:`LIMITS`."""
    raise_descriptor_limit(LIMITS.connections)
    return {
        "http": GuardedH11Protocol,
        "h11_max_incomplete_event_size": LIMITS.head_bytes,
        "timeout_keep_alive": LIMITS.idle_seconds,
        "timeout_graceful_shutdown": LIMITS.shutdown_seconds,
        "backlog": 1024,
        "ws": "none",
        "lifespan": "off",
    }
