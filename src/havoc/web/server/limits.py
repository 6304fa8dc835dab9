"""What one client may make ``havoc serve`` spend: bytes, connections and time.

uvicorn's own settings cover the idle time between keep-alive requests and the graceful-shutdown
wait. The limits it does not have are added by :class:`GuardedProtocol`, a thin subclass of its
httptools protocol (the C parser: about twice the requests per second of the pure-Python h11):

- the size of the request line and headers: httptools keeps reading a header it has not seen
  the end of (a 64 MiB header was read and answered 200), so the head is fed to it a piece at a
  time and refused (431) once it passes the limit;
- a cap on open connections: one past it is answered 503 and closed at once (a file descriptor
  and a few kilobytes each; half-sent connections must not exhaust the process's descriptors);
- time to send the request line and headers (a slowloris client is answered 408 and closed);
- time to send the body (a body trickled a byte a second is cut the same way).

The README lists each limit and why it is what it is.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from havoc.web import policy as webpolicy


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

_SECURITY = "".join(f"{name.lower()}: {value}\r\n" for name, value in webpolicy.headers()).encode("latin-1")
_REFUSED = (
    b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\ncontent-length: %d\r\n"
    + _SECURITY.replace(b"%", b"%%")
    + b"%s\r\n%s"
)


TOO_MANY, STOPPING, TOO_SLOW, TOO_BIG = "too-many", "stopping", "too-slow", "too-big"


@cache
def _both(which: str) -> bytes:
    """A refusal written before any request is read (so before its language is known): every language."""
    from havoc.language.i18n import LANGUAGES, ui

    def text(lang: str) -> str:
        return {
            TOO_MANY: ui("Too many connections; try again in a moment.", lang),
            STOPPING: ui("The server is stopping.", lang),
            TOO_SLOW: ui("The request came too slowly.", lang),
            TOO_BIG: ui("The request line and headers are larger than 16 KiB.", lang),
        }[which]

    return "".join(text(lang) + "\n" for lang in LANGUAGES).encode()


def raw_response(status: int, reason: bytes, text: bytes, extra: bytes = b"") -> bytes:
    """A whole response written straight to the socket (before or instead of the application)."""
    return _REFUSED % (status, reason, len(text), extra, text)


class JoinedWrites:
    """A connection's transport that sends an answer's head (status line and headers) with the
    first piece of its body, in one write: uvicorn writes the two apart, and each write on a
    socket is a system call, a TCP segment (the server sets no delay) and a wake-up of the
    client, which then reads the answer in two pieces.

    Only a head written once its answer has started is held (uvicorn's ``100 Continue`` goes at
    once: the client waits for it); it goes out with the next write, or when the answer is
    complete (a HEAD answer has no body), or before the connection is closed. Anything else is
    the socket's transport's own."""

    __slots__ = ("_headed", "_held", "_protocol", "_transport")

    def __init__(self, transport: asyncio.Transport, protocol: HttpToolsProtocol) -> None:
        self._transport = transport
        self._protocol = protocol
        self._held: bytes | None = None
        self._headed: object = None  # the request cycle whose head was written last

    def write(self, data: bytes) -> None:
        held = self._held
        if held is not None:
            self._held = None
            self._transport.write(held + data)
            return
        cycle = self._protocol.cycle
        if cycle is not None and cycle is not self._headed and cycle.response_started and not cycle.response_complete:
            # the first write once this request's answer has started is its head: its body comes next
            self._headed = cycle
            self._held = data
            return
        self._transport.write(data)

    def flush(self) -> None:
        held = self._held
        if held is not None:
            self._held = None
            if not self._transport.is_closing():
                self._transport.write(held)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a cap on connections and on the request's head, and
    deadlines for the head and the body.

    What the client is sending now is tracked from the parser's callbacks: ``idle`` (between
    requests), ``head`` (request line and headers), ``body``, ``done`` (waiting for our answer).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._deadline_for = ""  # "head" or "body"
        self._state = "idle"
        self._head_bytes = 0  # bytes received while the head is not complete
        # a kept-alive connection's next head: its deadline runs from this loop time, and is armed
        # only if bytes come that leave a head unfinished (uvicorn's shorter keep-alive timer
        # closes a connection that sends nothing; see on_response_complete)
        self._head_since: float | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # every write of the connection (uvicorn's and ours, in order) through one that sends an
        # answer's head with its body (super() has read the addresses and made the flow control
        # with the socket's own transport)
        self.transport = JoinedWrites(transport, self)  # type: ignore[assignment]
        if len(self.connections) > LIMITS.connections:
            self._refuse(503, b"Service Unavailable", TOO_MANY, b"retry-after: 1\r\n")
            return
        self._arm("head", LIMITS.head_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._receive(data)
        since, self._head_since = self._head_since, None
        if self.transport.is_closing():
            return
        if self._state == "body":
            # the body is still coming: its deadline runs from the end of the headers (armed
            # here rather than at the headers' end, so a request that arrives whole, as most do,
            # neither arms nor cancels a timer)
            self._arm("body", LIMITS.body_seconds)
        elif since is not None and self._state in ("idle", "head") and self._deadline is None:
            # part of the next request's head: its deadline, from the previous answer
            self._deadline_for = "head"
            self._deadline = self.loop.call_at(since + LIMITS.head_seconds, self._expired)

    def _receive(self, data: bytes) -> None:
        if self._state not in ("idle", "head"):
            super().data_received(data)
            return
        # The parser keeps a header it has not seen the end of: feed it a piece at a time while the
        # head is incomplete, never past the limit, and refuse a head that reaches it unfinished.
        pos = 0
        while pos < len(data):
            if self._state not in ("idle", "head"):
                super().data_received(data[pos:])
                return
            room = LIMITS.head_bytes - self._head_bytes
            if room <= 0:
                break
            piece = data[pos : pos + min(4096, room)]
            pos += len(piece)
            self._head_bytes += len(piece)
            super().data_received(piece)
            if self.transport.is_closing():
                return
        if self._state in ("idle", "head") and self._head_bytes >= LIMITS.head_bytes:
            self._refuse(431, b"Request Header Fields Too Large", TOO_BIG)

    # --- the parser's callbacks: what the client is sending now -----------------------------------
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._state = "head"
        if self._deadline is None and self._head_since is None:
            self._arm("head", LIMITS.head_seconds)  # a request pipelined behind another: its own

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._state = "body"  # its deadline: see data_received

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._state = "done"
        self._head_bytes = 0
        self._head_since = None  # a request pipelined behind this one has a deadline of its own
        self._cancel()

    def on_response_complete(self) -> None:
        self.transport.flush()  # type: ignore[attr-defined]  # (a HEAD answer's head: no body follows)
        super().on_response_complete()
        if self.transport.is_closing() or self.pipeline:
            return
        if self._state == "done":
            self._state = "idle"
        if self._state == "idle" and self.timeout_keep_alive_task is not None and self._lazy_head:
            # waiting for the next request: uvicorn's keep-alive timer closes the connection if
            # nothing comes, before the head deadline would; that deadline is armed only if part
            # of a head comes (data_received), so a request that arrives whole arms no timer
            self._head_since = self.loop.time()
        elif self._state in ("idle", "head"):
            self._arm("head", LIMITS.head_seconds)  # the next request's head, from now

    @property
    def _lazy_head(self) -> bool:
        return bool(self.timeout_keep_alive <= LIMITS.head_seconds)

    def shutdown(self) -> None:
        """Stopping: a client still sending its request is told so (503) and cut now, rather than
        waited for; requests already being answered finish (up to ``shutdown_seconds``)."""
        if self._state == "body" and not (self.cycle and self.cycle.response_started):
            self._refuse(503, b"Service Unavailable", STOPPING)
            return
        super().shutdown()

    # --- the deadlines ------------------------------------------------------------------------------
    def _arm(self, what: str, seconds: float) -> None:
        if self._deadline_for == what and self._deadline is not None:
            return  # the same head or body: the deadline does not move with each byte
        self._cancel()
        self._deadline_for = what
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._deadline_for = ""

    def _expired(self) -> None:
        """Too slow: a 408 if nothing has been answered yet, then the connection is closed."""
        self._deadline = None
        self._deadline_for = ""
        if self.transport.is_closing():
            return
        if self.cycle is not None and self.cycle.response_started and not self.cycle.response_complete:
            self.transport.close()  # mid-answer: nothing more can be said
            return
        self._refuse(408, b"Request Timeout", TOO_SLOW)

    def _refuse(self, status: int, reason: bytes, which: str, extra: bytes = b"") -> None:
        self._cancel()
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the application's answer, if it comes, goes nowhere
            self.cycle.message_event.set()
        self.transport.write(raw_response(status, reason, _both(which), extra))
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


PRIVATE_METHODS: dict[str, tuple[str, ...]] = {
    "__init__": ("self", "config", "server_state", "app_state", "_loop"),
    "connection_made": ("self", "transport"),
    "connection_lost": ("self", "exc"),
    "data_received": ("self", "data"),
    "on_message_begin": ("self",),
    "on_headers_complete": ("self",),
    "on_message_complete": ("self",),
    "on_response_complete": ("self",),
    "shutdown": ("self",),
}
"""What :class:`GuardedProtocol` overrides and calls through ``super()``, with the parameters of
uvicorn's httptools protocol it was written against (uvicorn's private API: it may change in
any release, so it is checked, here at start-up and in tests/test_server_http.py)."""
PRIVATE_STATE = (
    "connections",
    "transport",
    "cycle",
    "pipeline",
    "timeout_keep_alive_task",
    "timeout_keep_alive",
    "loop",
)
"""The protocol's attributes it reads."""
CYCLE_STATE = ("response_started", "response_complete", "disconnected", "message_event")
"""The attributes of uvicorn's request cycle it reads or sets (to drop an answer that comes too late)."""


def private_api_problems() -> list[str]:
    """How uvicorn's httptools protocol differs from what :class:`GuardedProtocol` relies on
    (empty: as written for). The attributes are checked on the classes' code, which assigns them;
    tests/test_server_http.py also checks them on a live connection."""
    import inspect

    problems = []
    for name, wanted in PRIVATE_METHODS.items():
        method = getattr(HttpToolsProtocol, name, None)
        if method is None or name not in vars(HttpToolsProtocol):
            problems.append(f"HttpToolsProtocol.{name} is gone")
            continue
        found = tuple(inspect.signature(method).parameters)
        if found != wanted:
            problems.append(f"HttpToolsProtocol.{name}{found} is not {wanted}")
    for cls, names in ((HttpToolsProtocol, PRIVATE_STATE), (RequestResponseCycle, CYCLE_STATE)):
        try:
            code = inspect.getsource(cls)
        except (OSError, TypeError):
            problems.append(f"the code of {cls.__name__} cannot be read")
            continue
        problems += [
            f"{cls.__name__} no longer sets {n}"
            for n in names
            if f"self.{n} = " not in code and f"self.{n}: " not in code
        ]
    return problems


def uvicorn_settings() -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run``/``uvicorn.Config`` that apply :data:`LIMITS`.

    Each limit uvicorn has a public setting for is given through it as well, so a uvicorn release
    that changed its private protocol loses only what the subclass adds: ``limit_concurrency``
    answers 503 past the cap (one past ours, which refuses first and at once), and if the protocol
    is not the one :class:`GuardedProtocol` was written for, the server says so and runs uvicorn's
    h11 protocol with ``h11_max_incomplete_event_size`` as the head limit (without the head and
    body deadlines) rather than a subclass whose limits may silently do nothing."""
    raise_descriptor_limit(LIMITS.connections)
    protocol: Any = GuardedProtocol
    fallback: dict[str, Any] = {}
    problems = private_api_problems()
    if problems:
        import sys

        from havoc.language.i18n import message_language, ui

        lang = message_language()
        print(
            ui(
                "warning: this uvicorn's HTTP protocol is not the one havoc's limits were written for ({what}); "
                "serving without the head and body deadlines",
                lang,
            ).format(what="; ".join(problems)),
            file=sys.stderr,
        )
        protocol = "h11"
        fallback = {"h11_max_incomplete_event_size": LIMITS.head_bytes}
    return {
        "http": protocol,
        **fallback,
        "limit_concurrency": LIMITS.connections + 1,
        "timeout_keep_alive": LIMITS.idle_seconds,
        "timeout_graceful_shutdown": LIMITS.shutdown_seconds,
        "backlog": 1024,
        "ws": "none",
        "lifespan": "off",
    }
