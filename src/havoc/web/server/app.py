"""The ASGI application: the built site as static files and the assistant's JSON API.

Starlette rather than FastAPI: our request bodies are validated by havoc's own field tables
(the same located problems as the CLI), so FastAPI's pydantic models would be a second,
disagreeing validator, and its Swagger UI loads from a CDN. The OpenAPI description is
generated from the same field tables (:mod:`havoc.web.server.openapi`).

This module is the HTTP transport only: reading a request's fields, answering and every
refusal are :mod:`havoc.assistant.webapi`'s, which the in-browser engine runs too. The application reads
the ruleset and both languages' catalogs once, at start-up; a request writes nothing to disk.
Answering is a few hundred microseconds of Python, so it runs on the event loop rather than in
a thread pool (a thread hop would cost more than the work), and questions and pages are taken
at the front door (:class:`Front`) rather than through the router and middleware.
"""

from __future__ import annotations

import gc
import json
import logging
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio
import anyio.to_thread
import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from havoc.assistant.webapi import (
    MAX_BODY,
    MAX_DEPTH,
    MAX_PROBLEMS,
    POSITION_KEY_LIMIT,
    POSITIONS_KEPT,
    Asked,
    Engine,
    Refused,
    decode_json,
    depth,
    first_lang,
    lang_of,
    problem_json,
    refusal,
    too_many_brackets,
)
from havoc.core.errors import Code, HavocError, InputError
from havoc.engine import game
from havoc.engine.rulebook.model import Ruleset
from havoc.language.i18n import LANGUAGES, ui
from havoc.web import policy as webpolicy
from havoc.web.server.answers import Answers, most_answers
from havoc.web.server.site import Kept, SiteFiles, prepare, same_site, send

__all__ = ["MAX_BODY", "MAX_DEPTH", "MAX_PROBLEMS", "Refused", "create_app"]

LIMIT_PATTERN = re.compile(r"[0-9]{1,3}")
"""?limit= as ASCII digits only (``str.isdigit`` also takes "²", which ``int`` refuses)."""

BODY_TYPES = ("application/json", "application/yaml", "application/x-yaml", "text/yaml")
"""The Content-Types a body may have; any other, or none, is a 415. None is not read as JSON: a
web page may send a body without one (or as text/plain) to any address with no CORS check, so a
page on another site could otherwise make a local ``havoc serve`` work for it."""

log = logging.getLogger("havoc.web.server")

Handler = Callable[[Request], Awaitable[Response]]
Work = Callable[[Asked], Any]
"""What an endpoint does with a read body: the JSON values of its answer (possibly in a worker thread)."""

HERE = Path(__file__).parent
JSON_TYPE = "application/json; charset=utf-8"


def encode(data: Any) -> bytes:
    """An answer's or a refusal's JSON values as the bytes sent: compact UTF-8 by orjson, about
    four times as fast as the standard library's encoder (a Battle's 13 KB answer: 27 against
    103 µs). A value orjson refuses (a lone surrogate echoed from a request, an
    integer past 64 bits) is written by the standard library, in ASCII escapes."""
    try:
        return orjson.dumps(data)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(data, separators=(",", ":")).encode()


_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
"""bytes.translate's table: every digit to "0", every other byte to a space."""
_LONG_NUMBER = b"0" * 19


def read_json(raw: bytes, text: str, lang: str) -> tuple[Any, bytes | None]:
    """The JSON body's values, and the key its position is kept under (None: the engine's own).

    orjson reads a body in a third of the standard library's time, and writes the position back
    in a tenth of the time a key made from the parsed table's repr took. The key is that JSON
    text: the same table gives the same text, and two different tables never do (ints, floats
    and booleans are written apart, and orjson never reads a NaN or an infinity). Where orjson
    would read a value otherwise than json.loads (a number of 19 digits or more, read as a
    float; NaN; a lone surrogate) or refuse the body, json.loads reads it, as it reads every
    body of the in-browser engine, and words the refusal (:func:`havoc.assistant.webapi.decode_json`).
    """
    if _LONG_NUMBER not in raw.translate(_DIGITS):
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
        else:
            position = data.get("position") if isinstance(data, dict) else None
            if not isinstance(position, dict):
                return data, None
            try:
                key = orjson.dumps(position)
            except orjson.JSONEncodeError:  # nested deeper than orjson writes: refused as too deep
                return data, b""
            return data, key if len(key) <= POSITION_KEY_LIMIT else b""
    return decode_json(text, lang), None


_JSON_SPACE = b" \t\n\r"
"""The four bytes JSON reads as white space (``bytes.strip()`` would take two more)."""
_TABLE_END_TRIES = 8
"""Closing braces tried, from the body's end, as the end of a kept table's text (a Battle
question's mapping has three or four of its own after the table)."""
_UNCHECKED = None
TABLE_TEXT_BYTES = 1024
"""Bodies from this size on are read through :class:`TableTexts`; a smaller one (a table of a
Region or two) is read whole as fast as its table's text is found."""


def _members(text: bytes) -> dict[str, Any] | None:
    """The members of a JSON object's text, as :func:`read_json` reads them; None when it is not
    one, has no member, names a position or has a number orjson reads otherwise than json.loads."""
    if _LONG_NUMBER in text.translate(_DIGITS):
        return None
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not value or "position" in value:
        return None
    return value


def _table_start(raw: bytes) -> tuple[dict[str, Any], int] | None:
    """The members before ``"position": {`` in a body that is a JSON object, and where the
    table's text begins; None for any other body (or one this cannot tell)."""
    at = raw.find(b'"position"')
    if at < 0:
        return None
    head = raw[:at].rstrip(_JSON_SPACE)
    if head.lstrip(_JSON_SPACE) == b"{":
        before: dict[str, Any] | None = {}
    elif head.endswith(b","):  # the members before, written as an object of their own
        before = _members(head[:-1] + b"}")
    else:
        return None
    if before is None:
        return None
    i, n = at + len(b'"position"'), len(raw)
    while i < n and raw[i] in _JSON_SPACE:
        i += 1
    if i >= n or raw[i] != 0x3A:  # ":"
        return None
    i += 1
    while i < n and raw[i] in _JSON_SPACE:
        i += 1
    if i >= n or raw[i] != 0x7B:  # "{"
        return None
    return before, i


def _member_ends(raw: bytes, end: int) -> bool:
    """A member's value may end before ``end``: white space, then a comma or a closing brace."""
    n = len(raw)
    while end < n and raw[end] in _JSON_SPACE:
        end += 1
    return end < n and raw[end] in b",}"


def _rest_after(raw: bytes, end: int) -> dict[str, Any] | None:
    """The members after a table's text ending before ``end``: ``}`` or ``, members }``."""
    tail = raw[end:].lstrip(_JSON_SPACE)
    if tail[:1] == b",":
        return _members(b"{" + tail[1:])
    if tail.rstrip(_JSON_SPACE) == b"}":
        return {}
    return None


class TableTexts:
    """The JSON texts of the tables asked about lately, as they were sent: the next question
    about one of them reads only the rest of its body (a 20-Region table's text is 3.4 KB, its
    question 60 bytes: reading the whole body and writing its table back takes 19 µs, finding the
    table's text and reading the rest 5).

    A body ``{…, "position": T, …}`` where T is the text of a table seen before has the values
    :func:`read_json` gives: T is one whole JSON value (it was read on its own when first found
    again), so a reader of the body takes exactly T as the position, and the members before and
    after T are read (and checked) as objects of their own. Anything else (another layout, a
    table not seen, a member named position twice, a body that is not JSON) is read whole.
    """

    def __init__(self, most: int = POSITIONS_KEPT) -> None:
        self.most = most
        # text -> (its value, its key as read_json makes it, its objects' members as _keys_in
        # counts them); _UNCHECKED: not yet read on its own
        self._texts: OrderedDict[bytes, tuple[Any, bytes, int] | None] = OrderedDict()
        self._lock = threading.Lock()

    def read(self, raw: bytes) -> tuple[dict[str, Any], bytes, int] | None:
        """The body's values, its table's key and the members of the table's objects (:func:`_keys_in`
        of the table, counted once per text), when its table is one of these texts (None: read it whole)."""
        start = _table_start(raw)
        if start is None:
            return None
        before, at = start
        end = len(raw.rstrip(_JSON_SPACE)) - 1  # the body's own closing brace is not the table's
        for _ in range(_TABLE_END_TRIES):
            end = raw.rfind(b"}", at, end)
            if end < 0:
                return None
            if not _member_ends(raw, end + 1):
                continue
            text = raw[at : end + 1]
            with self._lock:
                if text not in self._texts:
                    continue
                entry = self._texts[text]
                self._texts.move_to_end(text)
            after = _rest_after(raw, end + 1)
            if after is None:
                return None
            if entry is _UNCHECKED:
                entry = self._check(text)
                if entry is None:
                    return None
            value, key, members = entry
            return {**before, "position": value, **after}, key, members
        return None

    def _check(self, text: bytes) -> tuple[Any, bytes, int] | None:
        """A text found again read on its own: one whole JSON object (else it is forgotten)."""
        try:
            value = orjson.loads(text)
            key = orjson.dumps(value)
        except (orjson.JSONDecodeError, orjson.JSONEncodeError):  # (nested deeper than orjson writes)
            value, key = None, b""
        with self._lock:
            if not isinstance(value, dict) or not key or len(key) > POSITION_KEY_LIMIT:
                self._texts.pop(text, None)
                return None
            members = _keys_in(value)
            self._texts[text] = (value, key, members)
        return value, key, members

    def remember(self, raw: bytes, data: Any) -> None:
        """Note the text of the table in a body :func:`read_json` read (with a key): the closing
        brace from the end after which the body's other members follow."""
        start = _table_start(raw)
        if start is None:
            return
        before, at = start
        rest = {k: v for k, v in data.items() if k != "position"}
        end = len(raw.rstrip(_JSON_SPACE)) - 1
        for _ in range(_TABLE_END_TRIES):
            end = raw.rfind(b"}", at, end)
            if end < 0 or end - at >= POSITION_KEY_LIMIT:
                return
            after = _rest_after(raw, end + 1)
            if after is not None and {**before, **after} == rest:
                text = raw[at : end + 1]
                with self._lock:
                    if text not in self._texts:
                        self._texts[text] = _UNCHECKED
                        if len(self._texts) > self.most:
                            self._texts.popitem(last=False)
                return


_INDENTED_AT_LIMIT = b"\n" + b" " * (2 * MAX_DEPTH)
"""A line of orjson's two-space indented JSON that is an item of a list or mapping nested
:data:`MAX_DEPTH` deep (only such lines are indented this far)."""
DEPTH_FROM_TEXT_BYTES = 16 * 1024
"""Bodies up to this size have their nesting measured from orjson's indented text (up to a few
hundred times as long as a hostile body); larger ones are walked."""


def too_deep_in(data: Any) -> bool:
    """``depth(data) > MAX_DEPTH``, five times as fast for a new 20-Region table (6 against 35 µs).

    orjson writes the value indented, two spaces a level, and its strings never hold a raw line
    break: a value nested deeper than the limit has a list or mapping nested exactly
    :data:`MAX_DEPTH` deep with an item in it, and so a line indented that far. No such line:
    not too deep. Such a line (a body nested 64 deep, which no table is) or a value orjson does
    not write (nested past its own limit, a key that is not text): the walk decides.
    """
    try:
        text = orjson.dumps(data, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        return depth(data) > MAX_DEPTH
    return _INDENTED_AT_LIMIT in text and depth(data) > MAX_DEPTH


def _keys_in(data: Any) -> int:
    """The members of every object in a JSON value: as many as the body's colons when no key is
    given twice and no text holds a colon (orjson keeps the last of two; see :meth:`Api.parse`)."""
    count = 0
    stack = [data]
    while stack:
        value = stack.pop()
        items: Any = value.values() if value.__class__ is dict else value
        if value.__class__ is dict:
            count += len(value)
        for item in items:
            if item.__class__ is dict or item.__class__ is list:
                stack.append(item)
    return count


def _colons_written(data: Any, key: bytes | None) -> int | None:
    """The colons in orjson's text of a body's value ``data`` (None: orjson does not write it),
    for a body with no ``\\u`` escape: as many as the body's own colons exactly when no key is
    given twice, and a third of :func:`_keys_in`'s time for a Battle Region's small table.

    Without ``\\u`` escapes a colon in a text is a colon in the body and in orjson's text alike
    (orjson writes ":" as itself), and every member is written with one colon: the counts differ
    only by the colons of members left out, the first of a key given twice and what its value
    held. ``key``, orjson's text of the position (:func:`read_json`), is not written again."""
    try:
        if key and data.__class__ is dict and "position" in data:
            rest = orjson.dumps({k: v for k, v in data.items() if k != "position"})
            return key.count(b":") + 1 + rest.count(b":")  # (+1: the colon after "position")
        return orjson.dumps(data).count(b":")
    except orjson.JSONEncodeError:  # (nested deeper than orjson writes)
        return None


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    return Response(encode(data), status, headers=dict(headers or {}), media_type=JSON_TYPE)


def refused(exc: Refused) -> Response:
    return _json(exc.json(), exc.status)


def vary_language(response: Response) -> Response:
    """Mark a response whose words follow Accept-Language, so that a cache keeps one per language."""
    have = response.headers.get("vary", "")
    if "accept-language" not in have.lower():
        response.headers["Vary"] = f"{have}, Accept-Language" if have else "Accept-Language"
    return response


INLINE_BYTES = 16 * 1024
"""Bodies up to this size are answered on the event loop; larger ones in a worker thread."""
INLINE_YAML_BYTES = 2 * 1024
"""The same for YAML bodies, about ten times as costly a byte to read (a 12 KiB table of wrong
values cost 10 ms, on the loop every other client waited for it: benchmarks/bench_hostile.py)."""
HEAVY_THREADS = 1
"""Worker threads answering large bodies at once: one, since a second only queues for the one
interpreter lock, and every thread that wants it makes the event loop's small answers wait
longer (a normal ask's p99 under four clients sending the costliest bodies: 19-26 ms with one,
30-40 ms with two; benchmarks/bench_hostile.py)."""
SWITCH_INTERVAL = 0.0005
"""Seconds a thread holds the interpreter lock before another waiting one gets it (see create_app)."""
_heavy_limiter: anyio.CapacityLimiter | None = None


def _heavy() -> anyio.CapacityLimiter:
    global _heavy_limiter
    if _heavy_limiter is None:
        _heavy_limiter = anyio.CapacityLimiter(HEAVY_THREADS)
    return _heavy_limiter


def safe_lang(request: Request) -> str:
    """The language from the URL or headers alone, for errors found before the body is read."""
    return first_lang(request.query_params.get("lang"), request.headers.get("accept-language", ""))


def request_lang(request: Request) -> str:
    """A GET request's language: ``?lang=``, else Accept-Language (an unknown ``?lang=`` is a 422)."""
    return lang_of(None, request.query_params.get("lang"), request.headers.get("accept-language", ""))


class Head:
    """What a POST's transport needs from its request line and headers, read once."""

    __slots__ = ("accept", "ctype", "declared", "query_lang")

    def __init__(self, ctype: str, query_lang: str | None, accept: str, declared: str) -> None:
        self.ctype, self.query_lang, self.accept, self.declared = ctype, query_lang, accept, declared

    @classmethod
    def of_request(cls, request: Request) -> Head:
        headers = request.headers
        return cls(
            headers.get("content-type", ""),
            request.query_params.get("lang"),
            headers.get("accept-language", ""),
            headers.get("content-length", ""),
        )

    @classmethod
    def of_scope(cls, scope: Scope) -> Head:
        """As :meth:`of_request` reads them: a header's first value, a query parameter's last."""
        found: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name in _HEAD_NAMES and name not in found:
                found[name] = value
        query = scope.get("query_string", b"")
        query_lang = dict(parse_qsl(query.decode("latin-1"), keep_blank_values=True)).get("lang") if query else None
        return cls(
            found.get(b"content-type", b"").decode("latin-1"),
            query_lang,
            found.get(b"accept-language", b"").decode("latin-1"),
            found.get(b"content-length", b"").decode("latin-1"),
        )

    def first(self) -> str:
        """The language of refusals found before the body is read."""
        return first_lang(self.query_lang, self.accept)

    def too_large(self) -> Refused:
        return Refused(413, "too-large", ui("The request is larger than 256 KiB.", self.first()))

    def check_declared(self) -> None:
        """A body declared larger than :data:`MAX_BODY` is refused before it is read (and one
        that is longer than declared is cut off while it is read)."""
        declared = self.declared
        if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
            raise self.too_large()


_HEAD_NAMES = frozenset({b"content-type", b"accept-language", b"content-length"})
_JSON_TYPE_BYTES = JSON_TYPE.encode("latin-1")


def _json_head(length: int) -> list[tuple[bytes, bytes]]:
    """The headers Starlette's Response writes for a JSON body (the same bytes either way)."""
    return [(b"content-length", str(length).encode("latin-1")), (b"content-type", _JSON_TYPE_BYTES)]


class Api:
    """The HTTP transport around one :class:`havoc.assistant.webapi.Engine`: bytes, headers, Content-Type
    and YAML bodies here; reading, answering and refusing there."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.engine = Engine(rs)
        self.tables = TableTexts()
        # answers to requests asked before, for these rules (bounded, in memory only)
        self.answers = Answers(most_answers())
        # responses that depend only on the rules and the language: a rule's texts, the labels,
        # the position schema (at most rules × languages entries, made on first ask)
        self._made: dict[tuple[str, ...], tuple[bytes, str]] = {}

    async def handle(self, request: Request, allowed: tuple[str, ...] | None, work: Work) -> Response:
        """A POST through Starlette's router (the front door answers these itself, see :class:`Front`)."""
        head = Head.of_request(request)
        size = 0
        chunks: list[bytes] = []
        head.check_declared()
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise head.too_large()
            chunks.append(chunk)
        status, body = await self.answer(head, b"".join(chunks), allowed, work)
        return Response(body, status, media_type=JSON_TYPE)

    async def posted(
        self, scope: Scope, receive: Receive, send: Send, allowed: tuple[str, ...] | None, work: Work
    ) -> None:
        """A POST answered straight from the ASGI scope: the same checks, answer and refusals as
        :meth:`handle`, without building Starlette's request, router match and middleware stack
        for each question (the work a bare ``/api/health`` costs)."""
        head = Head.of_scope(scope)
        try:
            head.check_declared()
            size = 0
            chunks: list[bytes] = []
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # nobody to answer
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > MAX_BODY:
                    raise head.too_large()
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
            status, body = await self.answer(head, b"".join(chunks), allowed, work)
        except Exception as exc:
            answer = problem_response(exc, head.first, f"POST {scope['path']}")
            if answer is None:  # a bug: the asker still gets JSON, the log gets the trace
                await refused(Refused(500, "internal", "internal error"))(scope, receive, send)
                raise
            await answer(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": status, "headers": _json_head(len(body))})
        await send({"type": "http.response.body", "body": body})

    async def answer(self, head: Head, raw: bytes, allowed: tuple[str, ...] | None, work: Work) -> tuple[int, bytes]:
        """Parse, validate and answer: on the event loop when the body is small (a thread hop
        would cost more than the work), in a worker thread when it is large enough that its parse
        and problems could hold up every other client."""
        key: tuple[Any, ...] | None = None
        if len(raw) <= self.answers.largest:  # asked before, byte for byte: the same answer (answers.py)
            key = (work, head.ctype, head.query_lang, head.accept, raw)
            found = self.answers.get(key, self.engine.rs)
            if found is not None:
                return 200, found
        if len(raw) <= (INLINE_YAML_BYTES if "yaml" in head.ctype.lower() else INLINE_BYTES):
            status, body = self._work(head, raw, allowed, work)
        else:
            status, body = await anyio.to_thread.run_sync(self._work, head, raw, allowed, work, limiter=_heavy())
        if key is not None:
            self.answers.put(key, len(raw), body, self.engine.rs)
        return status, body

    def _work(self, head: Head, raw: bytes, allowed: tuple[str, ...] | None, work: Work) -> tuple[int, bytes]:
        # the same JSON values as `havoc ask --json`
        return 200, encode(work(self.parse(head, raw, allowed)))

    def parse(self, head: Head, raw: bytes, allowed: tuple[str, ...] | None) -> Asked:
        """The body as a mapping (JSON, or YAML when the Content-Type says so), read by the engine."""
        # the language of the errors found before the body's own ``lang`` is read (the answer's
        # comes from the body): worked out once, here
        first = head.first()
        ctype = head.ctype.split(";")[0].strip().lower()
        if ctype not in BODY_TYPES:
            raise Refused(
                415,
                "unsupported-media-type",
                ui("The request must be JSON (application/json) or YAML (application/yaml).", first),
                [
                    {
                        "in": "header",
                        "field": "Content-Type",
                        "message": ui("expected one of {choices}", first).format(choices=", ".join(BODY_TYPES)),
                        "code": Code.REQUEST_SHAPE,
                    }
                ],
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, "malformed", ui("The request is not UTF-8 text.", first)) from None
        data: Any
        key: bytes | None = None
        if "yaml" in ctype:
            from havoc.formats.yamlio import MOST_VALUES, YamlError, loads
            from havoc.language.i18n import set_message_language

            set_message_language(first)  # (the YAML reader's problems are worded in it)
            try:  # (a top level that is no mapping is refused at its first event, too many values while parsed)
                data = loads(text, "request", most=MOST_VALUES, mapping=True)
            except YamlError as exc:
                raise Refused(
                    400,
                    "malformed",
                    ui("The request is not valid YAML.", first),
                    [problem_json("request", exc.problem)],
                ) from None
        else:
            many = too_many_brackets(text, first)  # before the body is parsed
            if many is not None:
                raise many
            large = len(raw) >= TABLE_TEXT_BYTES
            known = self.tables.read(raw) if large else None
            members: int | None = None
            if known is not None:
                data, key, table_members = known
                # _keys_in(data) without walking the kept table again (a 20-Region table's walk
                # is most of the count)
                members = len(data) + table_members
                for name, value in data.items():
                    if name != "position" and (value.__class__ is dict or value.__class__ is list):
                        members += _keys_in(value)
            else:
                data, key = read_json(raw, text, first)
                if data.__class__ is dict or data.__class__ is list:
                    members = _colons_written(data, key) if b"\\u" not in raw else None
                    if members is None:
                        members = _keys_in(data)
            # orjson keeps the last of a key given twice: a body whose objects have fewer members
            # (or whose value written back has fewer colons) than it has colons (a key twice, or a
            # colon in a text) is read again by the standard library, which refuses a key given
            # twice (as YAML bodies do)
            if members is not None and members != text.count(":"):
                decode_json(text, first)
            if known is None and key and large:
                self.tables.remember(raw, data)
        deep = too_deep_in if len(raw) <= DEPTH_FROM_TEXT_BYTES else None
        return self.engine.read(
            data, allowed, first, head.query_lang, head.accept, position=allowed is not None, key=key, too_deep_in=deep
        )

    # --- endpoints ----------------------------------------------------------------------
    async def health(self, request: Request) -> Response:
        return _json({"status": "ok"}, headers={"Cache-Control": "no-store"})

    def posting(self, allowed: tuple[str, ...] | None, work: Work) -> Handler:
        """The endpoint of a POST whose body ``work`` answers (marked for :class:`Front`)."""

        async def endpoint(request: Request) -> Response:
            return await self.handle(request, allowed, work)

        endpoint.body_work = (allowed, work)  # type: ignore[attr-defined]
        return endpoint

    def asking(self, kind: str, fields: tuple[str, ...]) -> Handler:
        """POST /api/<kind>: the question ``{ask: kind}`` with ``fields`` from the body."""

        def work(asked: Asked) -> dict[str, Any]:
            return self.engine.fixed(kind, fields, asked)

        return self.posting(("position", *fields, "lang"), work)

    def extra(self, name: str) -> Handler:
        """POST /api/<name> for one of the game's other deciders (EXTRA_ANSWERS): the decision,
        the rule that decided it and what it set aside."""

        def work(asked: Asked) -> dict[str, Any]:
            return self.engine.decide(name, asked)

        return self.posting(("position", "question", "lang"), work)

    def lookup(self, name: str) -> Handler:
        """POST /api/<name> for one of the game's lookups (LOOKUPS, e.g. the game's text reader): the body's
        fields go to the game's function, which checks them itself (no position needed)."""

        def work(asked: Asked) -> dict[str, Any]:
            return self.engine.lookup(name, asked)

        return self.posting(None, work)

    async def rule(self, request: Request) -> Response:
        from havoc.engine.ruledata import rule_data
        from havoc.language.i18n import translator

        lang = request_lang(request)
        rule_id = request.path_params["rule_id"]
        rid = self.rs.resolve(rule_id)
        if rid is None or rid not in self.rs.rules:
            import difflib

            close = difflib.get_close_matches(rule_id, list(self.rs.rules), n=3)
            problem = Refused(
                404,
                "not-found",
                ui("No rule has this ID.", lang),
                [
                    {
                        "in": "path",
                        "field": "id",
                        "message": ui("no rule {name}", lang).format(name=repr(rule_id)),
                        "code": Code.RULE_UNKNOWN_ID,
                        "did-you-mean": close,
                    }
                ],
            )
            return refused(problem)
        if rid != rule_id:
            # a path, never an absolute URL made from the Host header: a redirect stays on this site
            path = same_site(request.url_for("rule", rule_id=rid).path)
            return RedirectResponse(f"{path}?lang={lang}", status_code=308)
        rule = self.rs.rules[rid]
        return self.cached(request, ("rule", rid, lang), lambda: rule_data(self.rs, translator(lang, self.rs.id), rule))

    async def search(self, request: Request) -> Response:
        lang = request_lang(request)
        text = request.query_params.get("q", "")
        raw_limit = request.query_params.get("limit", "10")
        problems = []
        if not LIMIT_PATTERN.fullmatch(raw_limit) or not 1 <= int(raw_limit) <= 100:
            problems.append(
                {
                    "in": "query",
                    "field": "limit",
                    "message": ui("expected a whole number from 1 to 100", lang),
                    "code": Code.FIELD_VALUE,
                }
            )
        if len(text) > 500:
            problems.append(
                {
                    "in": "query",
                    "field": "q",
                    "message": ui("expected at most 500 characters", lang),
                    "code": Code.FIELD_TOO_MANY,
                }
            )
        if problems:
            raise Refused(422, "invalid-input", ui("The request has problems.", lang), problems)
        try:
            from havoc.search import lookup
        except ImportError:
            raise Refused(503, "unavailable", ui("Search is not available in this installation.", lang)) from None
        hits = lookup(text, lang=lang, limit=int(raw_limit))
        return _json({"query": text, "lang": lang, "hits": [h.as_json() for h in hits]})

    async def labels(self, request: Request) -> Response:
        """The words an answer's JSON leaves as IDs (figures, factions), for a page to show."""
        lang = request_lang(request)
        return self.cached(request, ("labels", lang), lambda: self.engine.labels(lang))

    async def position_schema(self, request: Request) -> Response:
        return self.cached(request, ("schema",), lambda: _schema(self.rs))

    def cached(self, request: Request, key: tuple[str, ...], make: Callable[[], Any]) -> Response:
        """A response that depends only on the loaded rules (and the language): made, encoded and
        given its ETag once per key, then served from memory and revalidated by the browser."""
        found = self._made.get(key)
        if found is None:
            import hashlib

            body = json.dumps(make(), ensure_ascii=False, separators=(",", ":")).encode()
            etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
            found = self._made[key] = (body, etag)
        body, etag = found
        headers = {"ETag": etag, "Cache-Control": "public, max-age=0, must-revalidate", "Vary": "Accept-Language"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, headers=headers, media_type=JSON_TYPE)


def _schema(rs: Ruleset) -> dict[str, Any]:
    return game.of(rs).position_schema(rs)


def problem_response(exc: BaseException, lang: Callable[[], str], where: str) -> Response | None:
    """The JSON answer to an error escaping a handler: the asker's input refused is a 422, a
    rulebook that does not load a 503 (:func:`havoc.assistant.webapi.refusal`); None for a bug."""
    if isinstance(exc, Refused):
        return refused(exc)
    if isinstance(exc, (InputError, HavocError, RecursionError)):
        answer = refusal(exc, lang())
        return refused(answer) if answer is not None else None
    if isinstance(exc, (ValueError, OverflowError, UnicodeError, MemoryError)):
        # Input the checks above should have caught reached a conversion that refused it: the
        # asker gets a 400 (it was their request), the log gets the trace (it is our bug).
        log.exception("a request was refused by an unexpected error: %s", where)
        return refused(Refused(400, "malformed", ui("The request could not be read.", lang())))
    return None


def guarded(handler: Handler, lang_fallback: Callable[[Request], str] = safe_lang, by_language: bool = True) -> Handler:
    """Turn refusals into their JSON responses (:func:`problem_response`); a bug goes on to the
    application's crash handler (a 500 in JSON). A GET's answer, refusals included, is in the
    asker's language (``?lang=``, else Accept-Language), so it says ``Vary: Accept-Language``
    unless ``by_language`` is False (a POST's body is not cached: its headers stay as the front
    door sends them)."""

    async def run(request: Request) -> Response:
        try:
            response = await handler(request)
        except Exception as exc:
            where = f"{request.method} {request.url.path}"
            answer = problem_response(exc, lambda: lang_fallback(request), where)
            if answer is None:
                raise
            response = answer
        return vary_language(response) if by_language and request.method in ("GET", "HEAD") else response

    run.body_work = getattr(handler, "body_work", None)  # type: ignore[attr-defined]
    return run


API_PREFIXES = ("/api/", "/openapi.json")


def create_app(site: Path | None, ruleset: str | None = None, allowed_hosts: Collection[str] | None = None) -> ASGIApp:
    """The application for one ruleset, serving ``site`` (the built site folder) if given.

    ``allowed_hosts``: the Host headers answered (:class:`Hosts`; ``havoc serve`` always gives
    them); None answers any (an application embedded behind a server of its own)."""
    from havoc.engine import rulebook
    from havoc.language.i18n import translator
    from havoc.web.server.openapi import DOCS_PAGE, openapi

    rs = rulebook.load(ruleset)
    for lang in LANGUAGES:  # warm the catalogs now: a request never reads or writes a file
        translator(lang)
        ui("Yes", lang)
    handlers = Api(rs)
    specs = {
        lang: _kept(json.dumps(openapi(rs, lang), ensure_ascii=False).encode(), JSON_TYPE, b"Accept-Language")
        for lang in LANGUAGES
    }
    docs = _kept((HERE / DOCS_PAGE).read_bytes(), "text/html; charset=utf-8")

    async def openapi_json(request: Request) -> Response:
        return send(request, specs[Head.of_request(request).first()])

    async def docs_page(request: Request) -> Response:
        return send(request, docs)

    routes = [
        Route("/api/health", guarded(handlers.health, by_language=False), methods=["GET"]),
        Route(
            "/api/ask",
            guarded(handlers.posting(("position", "question", "as-of", "lang"), handlers.engine.ask)),
            methods=["POST"],
        ),
        *(
            # the question kinds the game declares as shortcuts (SHORTCUTS)
            Route(f"/api/{s.kind}", guarded(handlers.asking(s.kind, s.fields)), methods=["POST"])
            for s in game.shortcuts(game.of(rs) if rs.game else None).values()
        ),
        *(
            Route(f"/api/{name}", guarded(handlers.extra(name)), methods=["POST"])
            for name in (game.extra_answers(game.of(rs)) if rs.game else {})
        ),
        *(
            Route(f"/api/{name}", guarded(handlers.lookup(name)), methods=["POST"])
            for name in (game.lookups(game.of(rs)) if rs.game else {})
        ),
        Route("/api/rules/{rule_id}", guarded(handlers.rule), methods=["GET"], name="rule"),
        Route("/api/search", guarded(handlers.search), methods=["GET"]),
        Route("/api/labels", guarded(handlers.labels), methods=["GET"]),
        Route("/api/schema/position", guarded(handlers.position_schema), methods=["GET"]),
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/api/docs", docs_page, methods=["GET"]),
    ]
    files = SiteFiles(site) if site is not None else None

    async def not_found(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            return vary_language(
                refused(Refused(404, "not-found", ui("There is no such address.", safe_lang(request))))
            )
        if files is not None:
            return await files.serve(request)
        return Response("Not found", 404, media_type="text/plain; charset=utf-8")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        answer = vary_language(
            refused(
                Refused(405, "method-not-allowed", ui("This address does not take this method.", safe_lang(request)))
            )
        )
        allow = (getattr(exc, "headers", None) or {}).get("Allow")
        if allow:  # the route's methods, as Starlette found them (RFC 9110: a 405 says what is allowed)
            answer.headers["Allow"] = allow
        return answer

    async def crashed(request: Request, exc: Exception) -> Response:
        # A crash is a bug (the tests look for these); the asker still gets JSON, not a trace.
        return refused(Refused(500, "internal", "internal error"))

    # The rulebook and catalogs live as long as the process: keep them out of the collector's
    # scans, so a collection during a request does not walk them (it shows in the p99).
    gc.collect()
    gc.freeze()
    # A large body is answered in a worker thread; the event loop's small answers wait for the
    # interpreter lock at most this long at each step (the default 5 ms, several times over,
    # was most of a normal ask's p99 while four clients sent the costliest bodies the limits
    # accept: benchmarks/bench_hostile.py)
    sys.setswitchinterval(SWITCH_INTERVAL)
    api_app = Starlette(
        routes=routes,
        exception_handlers={404: not_found, 405: not_allowed, Exception: crashed},
    )
    return Front(api_app, files, handlers, Hosts(allowed_hosts) if allowed_hosts is not None else None)


class Front:
    """The front door: pages go straight to the site's files, and the questions (POST bodies
    answered by the engine) straight to :meth:`Api.posted`; the rest of /api/… and
    /openapi.json goes through Starlette's router. Matching a page's path, or a question's,
    against every route and running the middleware stack cost more than answering it."""

    def __init__(self, api_app: Starlette, files: SiteFiles | None, handlers: Api, hosts: Hosts | None = None) -> None:
        self.api_app = api_app
        self.hosts = hosts
        self.files = files
        self.handlers = handlers
        self.posts: dict[str, tuple[tuple[str, ...], Work]] = {}
        for route in api_app.routes:
            body_work = getattr(getattr(route, "endpoint", None), "body_work", None)
            if isinstance(route, Route) and body_work is not None and route.methods == {"POST"}:
                self.posts[route.path] = body_work

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.api_app(scope, receive, send)
            return
        send = secured(send)
        if self.hosts is not None:
            refusal = self.hosts.refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        if not scope.get("root_path"):
            path = scope["path"]
            if not path.startswith(API_PREFIXES):
                if self.files is not None:
                    response = self.files.known(scope) or await self.files.serve(Request(scope, receive))
                    await response(scope, receive, send)
                    return
            elif scope["method"] == "POST":
                posted = self.posts.get(path)
                if posted is not None:
                    await self.handlers.posted(scope, receive, send, *posted)
                    return
        await self.api_app(scope, receive, send)


def _kept(body: bytes, media_type: str, vary: bytes = b"") -> Kept:
    import hashlib

    return prepare(body, media_type, hashlib.blake2b(body, digest_size=12).hexdigest(), vary=vary)


_SECURITY = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in webpolicy.headers()]
_CSP_NAME = webpolicy.CSP.lower().encode("latin-1")


def secured(send: Send) -> Send:
    """``send`` that adds the security headers (:mod:`havoc.web.policy`) to every answer's start;
    a page's own policy (made with its bytes, :func:`havoc.web.server.site.prepare`) is kept."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            have = message.get("headers") or []
            if not any(name == _CSP_NAME for name, _ in have):
                message = {**message, "headers": [*have, *_SECURITY]}
        await send(message)

    return sending


HOSTS_ENV = "HAVOC_ALLOWED_HOSTS"
"""More Host names ``havoc serve`` answers for, comma-separated (``--allowed-host`` adds too)."""
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")


class Hosts:
    """The Host headers answered: a defence against DNS rebinding, where a page on another site
    points its own name at 127.0.0.1 and so reads a local server's answers as its own.

    An entry ``name:port`` allows that exact Host; a bare ``name`` allows it on any port (behind
    a proxy the public port is not the bound one); ``*`` allows every Host. Names are compared
    without case; a Host missing or not listed is a 421 that names it and says how to allow it."""

    def __init__(self, entries: Collection[str]) -> None:
        split = [_split_port(e.strip().lower()) for e in entries if e.strip()]
        self.everything = ("*", None) in split
        self.exact = frozenset((name.rstrip("."), port) for name, port in split if port is not None)
        self.any_port = frozenset(name.rstrip(".") for name, port in split if port is None)

    @classmethod
    def bound(cls, host: str, port: int, extra: Collection[str] = ()) -> list[str]:
        """The entries of a server bound to ``host``:``port``: loopback and the bound name, on that
        port, and ``extra`` (``--allowed-host``, :data:`HOSTS_ENV`) as given."""
        names = [*LOOPBACK_NAMES]
        if host not in WILDCARDS:
            names.append(f"[{host}]" if ":" in host and not host.startswith("[") else host)
        entries = [f"{n}:{port}" for n in names]
        if port == 80:
            entries += names  # a browser leaves the default port out
        return [*entries, *extra]

    def allows(self, host: str) -> bool:
        if self.everything:
            return True
        name, port = _split_port(host.strip().lower())
        name = name.rstrip(".")  # "localhost." is the same name
        return (name, port) in self.exact or name in self.any_port

    def refusal(self, scope: Scope) -> Response | None:
        """None when the request's Host is allowed, else its 421 (in the asker's language)."""
        host = b""
        for name, value in scope["headers"]:
            if name == b"host":
                host = value
                break
        text = host.decode("latin-1")
        if text and self.allows(text):
            return None
        lang = Head.of_scope(scope).first()
        message = ui(
            "This server does not answer for the host {host}; start it with --allowed-host {host} "
            "(or set HAVOC_ALLOWED_HOSTS) to allow it.",
            lang,
        ).format(host=text or "''")
        return _json(Refused(421, "misdirected", message).json(), 421)


def _split_port(host: str) -> tuple[str, int | None]:
    """A Host's name and port (None when it gives none); a malformed port leaves the whole text
    as the name, which then matches nothing."""
    if host.startswith("["):
        end = host.find("]")
        name, rest = (host[: end + 1], host[end + 1 :]) if end >= 0 else (host, "")
        if not rest:
            return name, None
        digits = rest[1:] if rest.startswith(":") else ""
    else:
        name, sep, digits = host.rpartition(":")
        if not sep:
            return host, None
    if digits.isascii() and digits.isdigit() and len(digits) <= 5:
        return name, int(digits)
    return host, None
