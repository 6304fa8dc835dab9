"""The ASGI application: the built site as static files and the assistant's JSON API.

Starlette rather than FastAPI: our request bodies are validated by havoc's own field tables
(the same located problems as the CLI), so FastAPI's pydantic models would be a second,
disagreeing validator, and its Swagger UI loads from a CDN. The OpenAPI description is
generated from the same field tables (:mod:`havoc.server.openapi`).

The application reads the ruleset and both languages' catalogs once, at start-up; a request
writes nothing to disk. Answering is a few hundred microseconds of Python, so it runs on the
event loop rather than in a thread pool (a thread hop would cost more than the work).
"""

from __future__ import annotations

import gc
import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from havoc import api, game
from havoc.errors import HavocError, InputError, Problem
from havoc.i18n import LANGUAGES, SOURCE_LANGUAGE, message_language, nui, set_message_language, ui
from havoc.rulebook.model import Ruleset
from havoc.server.openapi import POSITION_TEXT_MAX, QUESTION_TEXT_MAX
from havoc.server.site import Kept, SiteFiles, prepare, send

MAX_BODY = 256 * 1024
"""Request bodies larger than this are refused (413) while they are read."""

MAX_DEPTH = 64
"""Deepest nesting of lists and mappings a JSON body may have (as for YAML, havoc.yamlio.MAX_DEPTH):
a real position is a few levels deep, and the validators walk what they are given."""

BODY_TYPES = ("application/json", "application/yaml", "application/x-yaml", "text/yaml")
"""The Content-Types a body may have (none at all is read as JSON); any other is a 415."""

LIMIT_PATTERN = re.compile(r"[0-9]{1,3}")
"""?limit= as ASCII digits only (``str.isdigit`` also takes "²", which ``int`` refuses)."""

log = logging.getLogger("havoc.server")

Handler = Callable[[Request], Awaitable[Response]]
Work = Callable[[dict[str, Any], str], Response]
"""What an endpoint does with a parsed body and the asker's language (possibly in a worker thread)."""

HERE = Path(__file__).parent
JSON_TYPE = "application/json; charset=utf-8"


MAX_PROBLEMS = 50
"""Located problems listed in one error answer; the rest are counted ("and 19,950 more problems"):
a request with 20,000 unknown keys must not buy a 5.8 MiB answer."""


class HTTPProblem(Exception):
    """A request the API refuses: status, a short code, and a message in the asker's language."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        problems: list[dict[str, Any]] | None = None,
        lang: str | None = None,
        more: int = 0,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.problems = problems or []
        self.lang = lang or message_language()
        self.more = more  # problems found but not listed (counted before the list was cut)

    def response(self) -> Response:
        body: dict[str, Any] = {"error": self.code, "message": self.message}
        problems = self.problems[:MAX_PROBLEMS]
        more = self.more + len(self.problems) - len(problems)
        if more:
            text = nui("and {n} more problem", "and {n} more problems", more, self.lang)
            problems = [*problems, {"in": "request", "field": "", "message": text.format(n=more)}]
        if problems:
            body["problems"] = problems
        return _json(body, self.status)


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(body, status, headers=dict(headers or {}), media_type=JSON_TYPE)


def problem_json(where: str, p: Problem) -> dict[str, Any]:
    """A located problem as JSON: which input, the field path, the line, what was expected.

    The validators write ``field.path: expected …``; the path is split off so a form can put the
    message next to the field it names.
    """
    field, sep, rest = p.message.partition(": ")
    if not sep or " " in field or not field:
        field, rest = "", p.message
    # One vocabulary for every endpoint: the part of the request (position, question, request),
    # never the name a message gives the input in the asker's language.
    out: dict[str, Any] = {"in": p.file if p.file in ("request", "path") else where, "field": field}
    out["message"] = rest
    if p.line is not None:
        out["line"] = p.line
    return out


INLINE_BYTES = 16 * 1024
"""Bodies up to this size are answered on the event loop; larger ones in a worker thread."""
HEAVY_THREADS = 2
"""Worker threads answering large bodies at once (more would only queue for the one interpreter lock)."""
_heavy_limiter: anyio.CapacityLimiter | None = None


def _heavy() -> anyio.CapacityLimiter:
    global _heavy_limiter
    if _heavy_limiter is None:
        _heavy_limiter = anyio.CapacityLimiter(HEAVY_THREADS)
    return _heavy_limiter


POSITIONS_KEPT = 256
"""Validated positions kept in memory, most recently asked first (players ask several questions
about one table, and the page sends the whole table with each)."""
POSITION_KEY_LIMIT = 32 * 1024  # larger positions are validated every time rather than kept


class Api:
    """The handlers, bound to one loaded ruleset."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self._positions: OrderedDict[str, Any] = OrderedDict()
        self._kept_lock = threading.Lock()  # large bodies are answered in worker threads

    # --- request reading ------------------------------------------------------------
    @staticmethod
    def lang_of(request: Request, body: Mapping[str, Any] | None = None) -> str:
        """The request's language: the body's ``lang``, else ``?lang=``, else Accept-Language."""
        in_body = body is not None and "lang" in body
        wanted = body.get("lang") if body is not None else None
        if not in_body:
            wanted = request.query_params.get("lang")
        if wanted is None and not in_body:
            accept = request.headers.get("accept-language", "")
            for part in accept.split(","):
                code = part.split(";")[0].strip().lower()[:2]
                if code in LANGUAGES:
                    return code
            return SOURCE_LANGUAGE
        if not isinstance(wanted, str) or wanted not in LANGUAGES:
            raise HTTPProblem(
                422,
                "invalid-input",
                ui("The request has problems.", SOURCE_LANGUAGE),
                [
                    {
                        "in": "request",
                        "field": "lang",
                        "message": ui("expected one of {choices}, found {found}", SOURCE_LANGUAGE).format(
                            choices=", ".join(LANGUAGES), found=repr(wanted)
                        ),
                    }
                ],
            )
        return wanted

    @staticmethod
    async def read_body(request: Request) -> bytes:
        """The body, refused as soon as it passes :data:`MAX_BODY` (whatever Content-Length says)."""
        declared = request.headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
            raise HTTPProblem(413, "too-large", ui("The request is larger than 256 KiB.", Api.safe_lang(request)))
        size = 0
        chunks: list[bytes] = []
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise HTTPProblem(413, "too-large", ui("The request is larger than 256 KiB.", Api.safe_lang(request)))
            chunks.append(chunk)
        return b"".join(chunks)

    @staticmethod
    def safe_lang(request: Request) -> str:
        """The language from the URL or headers alone, for errors found before the body is read."""
        wanted = request.query_params.get("lang")
        if wanted in LANGUAGES:
            return str(wanted)
        for part in request.headers.get("accept-language", "").split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGUAGES:
                return code
        return SOURCE_LANGUAGE

    async def handle(self, request: Request, allowed: tuple[str, ...], work: Work) -> Response:
        """Read the body, then parse, validate and answer: on the event loop when the body is
        small (a thread hop would cost more than the work), in a worker thread when it is large
        enough that its parse and problems could hold up every other client."""
        raw = await self.read_body(request)
        if len(raw) <= INLINE_BYTES:
            return self._work(request, raw, allowed, work)
        return await anyio.to_thread.run_sync(self._work, request, raw, allowed, work, limiter=_heavy())

    def _work(self, request: Request, raw: bytes, allowed: tuple[str, ...], work: Work) -> Response:
        data, lang = self.parse(request, raw, allowed)
        return work(data, lang)

    def parse(self, request: Request, raw: bytes, allowed: tuple[str, ...]) -> tuple[dict[str, Any], str]:
        """The body as a mapping (JSON, or YAML when the Content-Type says so) and its language."""
        # the language of the errors found before the body's own ``lang`` is read (worked out only
        # when there is an error: the answer's language comes from the body)
        first = self.safe_lang
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype and ctype not in BODY_TYPES:
            raise HTTPProblem(
                415,
                "unsupported-media-type",
                ui("The request must be JSON (application/json) or YAML (application/yaml).", first(request)),
                [
                    {
                        "in": "header",
                        "field": "Content-Type",
                        "message": ui("expected one of {choices}", first(request)).format(
                            choices=", ".join(BODY_TYPES)
                        ),
                    }
                ],
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPProblem(400, "malformed", ui("The request is not UTF-8 text.", first(request))) from None
        data: Any
        if "yaml" in ctype:
            from havoc.yamlio import YamlError, loads

            try:
                data = loads(text, "request")
            except YamlError as exc:
                raise HTTPProblem(
                    400,
                    "malformed",
                    ui("The request is not valid YAML.", first(request)),
                    [problem_json("request", exc.problem)],
                ) from None
        else:
            try:
                data = json.loads(text)
            except RecursionError:
                raise too_deep(first(request)) from None
            except ValueError as exc:
                where: dict[str, Any] = {"in": "request", "field": "", "message": str(exc)}
                if isinstance(exc, json.JSONDecodeError):
                    where.update(message=ui("not valid JSON here", first(request)), line=exc.lineno, column=exc.colno)
                raise HTTPProblem(
                    400, "malformed", ui("The request is not valid JSON.", first(request)), [where]
                ) from None
        if not isinstance(data, dict):
            raise HTTPProblem(
                400, "malformed", ui("The request must be a JSON object with a position.", first(request))
            ) from None
        if _depth(data) > MAX_DEPTH:
            raise too_deep(first(request))
        lang = self.lang_of(request, data)
        set_message_language(lang)  # the located problems below come in the asker's language
        unknown = [k for k in data if k not in allowed]
        missing = "position" not in data
        if unknown or missing:
            problems = [
                {
                    "in": "request",
                    "field": str(k),
                    "message": ui("unknown field; expected one of {choices}", lang).format(choices=", ".join(allowed)),
                }
                for k in unknown[:MAX_PROBLEMS]
            ]
            if missing:
                problems.insert(
                    0, {"in": "request", "field": "position", "message": ui("expected a position (required)", lang)}
                )
            more = max(0, len(unknown) - MAX_PROBLEMS)
            raise HTTPProblem(422, "invalid-input", ui("The request has problems.", lang), problems, lang, more)
        return data, lang

    def position(self, data: Any, lang: str) -> Any:
        """The validated position; one asked about before comes from memory (never from disk).

        The interpreter only reads a position, so one validated Position can answer many
        questions; the key is the position as sent.
        """
        if isinstance(data, str):
            if len(data) > POSITION_TEXT_MAX:
                raise HTTPProblem(
                    422,
                    "invalid-input",
                    ui("The request has problems.", lang),
                    [
                        {
                            "in": "request",
                            "field": "position",
                            "message": f"expected at most {POSITION_TEXT_MAX} characters",
                        }
                    ],
                    lang,
                )
            key = "text:" + data
        elif isinstance(data, dict):
            # repr of JSON values is unambiguous and twice as fast as json.dumps; a table sent with
            # its keys in another order is only a miss
            key = repr(data)
        else:
            key = ""
        if key and len(key) <= POSITION_KEY_LIMIT:
            with self._kept_lock:
                found = self._positions.get(key)
                if found is not None:
                    self._positions.move_to_end(key)
                    return found
        pos = self._validate(data, lang)
        if key and len(key) <= POSITION_KEY_LIMIT:
            with self._kept_lock:
                self._positions[key] = pos
                if len(self._positions) > POSITIONS_KEPT:
                    self._positions.popitem(last=False)
        return pos

    def _validate(self, data: Any, lang: str) -> Any:
        try:
            if isinstance(data, str):
                return game.of(self.rs).parse_position_text(data, self.rs, "position")
            if isinstance(data, dict):
                return api.load_position(data, self.rs)
            raise InputError([Problem("position", None, f"expected a mapping or YAML/JSON text, found {_kind(data)}")])
        except InputError as exc:
            raise self.invalid(exc, "position", lang) from None

    def invalid(self, exc: InputError, where: str, lang: str) -> HTTPProblem:
        return HTTPProblem(
            422,
            "invalid-input",
            ui("The position or the question has problems.", lang),
            [problem_json(where, p) for p in exc.problems[:MAX_PROBLEMS]],
            lang,
            max(0, len(exc.problems) - MAX_PROBLEMS),
        )

    def answer(self, pos: Any, query: Any, lang: str) -> Response:
        try:
            q = api.load_query(query, pos, self.rs)
        except InputError as exc:
            raise self.invalid(exc, "question", lang) from None
        try:
            result = api.answer_for(self.rs, pos, q, lang)
        except InputError as exc:
            raise self.invalid(exc, "question", lang) from None
        # the C encoder's fast path (ASCII escapes): the same JSON values as `havoc ask --json`
        return Response(json.dumps(result.to_dict()), media_type=JSON_TYPE)

    # --- endpoints ----------------------------------------------------------------------
    async def health(self, request: Request) -> Response:
        return _json({"status": "ok"}, headers={"Cache-Control": "no-store"})

    async def ask(self, request: Request) -> Response:
        return await self.handle(request, ("position", "question", "lang"), self._ask)

    def _ask(self, data: dict[str, Any], lang: str) -> Response:
        pos = self.position(data["position"], lang)
        question = data.get("question")
        if question is None:
            raise HTTPProblem(
                422,
                "invalid-input",
                ui("The request has problems.", lang),
                [{"in": "request", "field": "question", "message": ui("expected a question (required)", lang)}],
            )
        if isinstance(question, list) and not all(isinstance(w, str) for w in question):
            question = None
        if isinstance(question, str) and len(question) > QUESTION_TEXT_MAX:
            raise HTTPProblem(
                422,
                "invalid-input",
                ui("The request has problems.", lang),
                [{"in": "request", "field": "question", "message": f"expected at most {QUESTION_TEXT_MAX} characters"}],
                lang,
            )
        if not isinstance(question, (dict, str, list)):
            raise HTTPProblem(
                422,
                "invalid-input",
                ui("The request has problems.", lang),
                [
                    {
                        "in": "request",
                        "field": "question",
                        "message": ui("expected a mapping ({ask: move, …}) or the compact words", lang),
                    }
                ],
            )
        return self.answer(pos, question, lang)

    def asking(self, kind: str, fields: tuple[str, ...]) -> Handler:
        """POST /api/<kind>: the question ``{ask: kind}`` with ``fields`` from the body."""

        def work(data: dict[str, Any], lang: str) -> Response:
            pos = self.position(data["position"], lang)
            return self.answer(pos, _query(kind, data, fields), lang)

        async def endpoint(request: Request) -> Response:
            return await self.handle(request, ("position", *fields, "lang"), work)

        return endpoint

    def extra(self, name: str) -> Callable[[Request], Awaitable[Response]]:
        """POST /api/<name> for one of the game's other deciders (EXTRA_ANSWERS): the decision,
        the rule that decided it and what it set aside."""

        async def decide(request: Request) -> Response:
            return await self.handle(request, ("position", "question", "lang"), work)

        def work(data: dict[str, Any], lang: str) -> Response:
            pos = self.position(data["position"], lang)
            question = data.get("question")
            if not isinstance(question, dict):
                raise HTTPProblem(
                    422,
                    "invalid-input",
                    ui("The request has problems.", lang),
                    [{"in": "request", "field": "question", "message": ui("expected a mapping", lang)}],
                )
            try:
                result = game.extra_answers(game.of(self.rs))[name](self.rs, pos, question, lang)
            except InputError as exc:
                raise self.invalid(exc, "question", lang) from None
            return Response(json.dumps(result.to_json()), media_type=JSON_TYPE)

        return decide

    async def rule(self, request: Request) -> Response:
        from havoc.i18n import translator
        from havoc.ruledata import rule_data

        lang = self.lang_of(request)
        rule_id = request.path_params["rule_id"]
        rid = self.rs.resolve(rule_id)
        if rid is None or rid not in self.rs.rules:
            import difflib

            close = difflib.get_close_matches(rule_id, list(self.rs.rules), n=3)
            return HTTPProblem(
                404,
                "not-found",
                ui("No rule has this ID.", lang),
                [
                    {
                        "in": "path",
                        "field": "id",
                        "message": ui("no rule {name}", lang).format(name=repr(rule_id)),
                        "did-you-mean": close,
                    }
                ],
            ).response()
        if rid != rule_id:
            url = str(request.url_for("rule", rule_id=rid))
            return RedirectResponse(f"{url}?lang={lang}", status_code=308)
        data = rule_data(self.rs, translator(lang, self.rs.id), self.rs.rules[rid])
        return self.cached(request, data)

    async def search(self, request: Request) -> Response:
        lang = self.lang_of(request)
        text = request.query_params.get("q", "")
        raw_limit = request.query_params.get("limit", "10")
        problems = []
        if not LIMIT_PATTERN.fullmatch(raw_limit) or not 1 <= int(raw_limit) <= 100:
            problems.append(
                {"in": "query", "field": "limit", "message": ui("expected a whole number from 1 to 100", lang)}
            )
        if len(text) > 500:
            problems.append({"in": "query", "field": "q", "message": ui("expected at most 500 characters", lang)})
        if problems:
            raise HTTPProblem(422, "invalid-input", ui("The request has problems.", lang), problems)
        try:
            from havoc.search import lookup
        except ImportError:
            raise HTTPProblem(503, "unavailable", ui("Search is not available in this installation.", lang)) from None
        hits = lookup(text, lang=lang, limit=int(raw_limit))
        return _json({"query": text, "lang": lang, "hits": [h.as_json() for h in hits]})

    async def labels(self, request: Request) -> Response:
        """The words an answer's JSON leaves as IDs (figures, factions), for a page to show."""
        lang = self.lang_of(request)
        words = game.of(self.rs).labels()
        figures = words.figures(lang)
        factions = {f: words.name(f, lang) for f in words.parties()}
        return self.cached(request, {"lang": lang, "figures": figures, "factions": factions})

    async def position_schema(self, request: Request) -> Response:
        return self.cached(request, _schema(self.rs))

    def cached(self, request: Request, data: Any) -> Response:
        """A response that depends only on the loaded rules: ETag, revalidated by the browser."""
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        import hashlib

        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        headers = {"ETag": etag, "Cache-Control": "public, max-age=0, must-revalidate", "Vary": "Accept-Language"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, headers=headers, media_type=JSON_TYPE)


def _schema(rs: Ruleset) -> dict[str, Any]:
    return game.of(rs).position_schema(rs)


def too_deep(lang: str) -> HTTPProblem:
    return HTTPProblem(
        400,
        "malformed",
        ui("The request is nested too deeply.", lang),
        [{"in": "request", "field": "", "message": f"nesting deeper than {MAX_DEPTH} levels"}],
    )


def _depth(data: Any) -> int:
    """How deep lists and mappings nest in ``data`` (without recursion: the input may be deep)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                break
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node if isinstance(v, (dict, list)))
    return deepest


def _kind(value: Any) -> str:
    return {list: "a list", int: "a number", float: "a number", bool: "yes/no", type(None): "nothing"}.get(
        type(value), type(value).__name__
    )


def _query(kind: str, data: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {"ask": kind}
    for key in keys:
        if key in data:  # a null is passed on, for the validator to refuse (the schema does)
            out[key] = data[key]
    return out


def guarded(handler: Handler, lang_fallback: Callable[[Request], str] = Api.safe_lang) -> Handler:
    """Turn refusals into their JSON responses; a rulebook that does not load is a 503."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except HTTPProblem as exc:
            return exc.response()
        except InputError as exc:
            lang = lang_fallback(request)
            return HTTPProblem(
                422,
                "invalid-input",
                ui("The position or the question has problems.", lang),
                [problem_json("request", p) for p in exc.problems[:MAX_PROBLEMS]],
                lang,
                max(0, len(exc.problems) - MAX_PROBLEMS),
            ).response()
        except HavocError as exc:
            return HTTPProblem(
                503,
                "rules-broken",
                ui("The rules on this server do not load.", lang_fallback(request)),
                [problem_json("rules", p) for p in exc.problems],
            ).response()
        except RecursionError:
            return too_deep(lang_fallback(request)).response()
        except (ValueError, OverflowError, UnicodeError, MemoryError):
            # Input the checks above should have caught reached a conversion that refused it: the
            # asker gets a 400 (it was their request), the log gets the trace (it is our bug).
            log.exception("a request was refused by an unexpected error: %s %s", request.method, request.url.path)
            return HTTPProblem(
                400, "malformed", ui("The request could not be read.", lang_fallback(request))
            ).response()

    return run


API_PREFIXES = ("/api/", "/openapi.json")


def create_app(site: Path | None, ruleset: str | None = None) -> ASGIApp:
    """The application for one ruleset, serving ``site`` (the built site folder) if given."""
    from havoc import rulebook
    from havoc.i18n import translator
    from havoc.server.openapi import DOCS_PAGE, openapi

    rs = rulebook.load(ruleset)
    for lang in LANGUAGES:  # warm the catalogs now: a request never reads or writes a file
        translator(lang)
        ui("Yes", lang)
    handlers = Api(rs)
    specs = {lang: _kept(json.dumps(openapi(rs, lang), ensure_ascii=False).encode(), JSON_TYPE) for lang in LANGUAGES}
    docs = _kept((HERE / DOCS_PAGE).read_bytes(), "text/html; charset=utf-8")

    async def openapi_json(request: Request) -> Response:
        return send(request, specs[Api.safe_lang(request)])

    async def docs_page(request: Request) -> Response:
        return send(request, docs)

    routes = [
        Route("/api/health", guarded(handlers.health), methods=["GET"]),
        Route("/api/ask", guarded(handlers.ask), methods=["POST"]),
        *(  # the question kinds the game declares as shortcuts (SHORTCUTS)
            Route(f"/api/{s.kind}", guarded(handlers.asking(s.kind, s.fields)), methods=["POST"])
            for s in game.shortcuts(game.of(rs) if rs.game else None).values()
        ),
        *(
            Route(f"/api/{name}", guarded(handlers.extra(name)), methods=["POST"])
            for name in (game.extra_answers(game.of(rs)) if rs.game else {})
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
            return HTTPProblem(404, "not-found", ui("There is no such address.", Api.safe_lang(request))).response()
        if files is not None:
            return await files.serve(request)
        return Response("Not found", 404, media_type="text/plain; charset=utf-8")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        answer = HTTPProblem(
            405, "method-not-allowed", ui("This address does not take this method.", Api.safe_lang(request))
        ).response()
        allow = (getattr(exc, "headers", None) or {}).get("Allow")
        if allow:  # the route's methods, as Starlette found them (RFC 9110: a 405 says what is allowed)
            answer.headers["Allow"] = allow
        return answer

    async def crashed(request: Request, exc: Exception) -> Response:
        # A crash is a bug (the tests look for these); the asker still gets JSON, not a trace.
        return HTTPProblem(500, "internal", "internal error").response()

    # The rulebook and catalogs live as long as the process: keep them out of the collector's
    # scans, so a collection during a request does not walk them (it shows in the p99).
    gc.collect()
    gc.freeze()
    api_app = Starlette(
        routes=routes,
        exception_handlers={404: not_found, 405: not_allowed, Exception: crashed},
    )
    if files is None:
        return api_app
    return SiteFirst(api_app, files)


class SiteFirst:
    """Pages go straight to the site's files; only /api/… and /openapi.json go through the router
    (matching a page's path against every API route first cost more than serving it)."""

    def __init__(self, api_app: Starlette, files: SiteFiles) -> None:
        self.api_app = api_app
        self.files = files

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith(API_PREFIXES):
            response = await self.files.serve(Request(scope, receive))
            await response(scope, receive, send)
            return
        await self.api_app(scope, receive, send)


def _kept(body: bytes, media_type: str) -> Kept:
    import hashlib

    return prepare(body, media_type, hashlib.blake2b(body, digest_size=12).hexdigest())
