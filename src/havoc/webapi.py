"""The assistant's JSON API without a server: what the site's in-browser engine (Pyodide) runs.

The Ask page sends the same requests whether ``havoc serve`` or the phone itself answers, so this
module answers ``GET /api/health``, ``GET /api/labels``, ``POST /api/ask|legal|battle|score`` and
the game's other deciders with the same status and JSON as :mod:`havoc.server.app`, calling
:mod:`havoc.api` directly (no Starlette, no sockets: the browser bundle carries neither). The
parity test (tests/test_engine_browser.py) runs the same requests through both and compares.

:func:`setup` points havoc at the bundle's folders; the bundle's verified cache (made at build
time by :func:`warm`) holds the validated rulesets and catalogs, so the phone parses no YAML and
no .po file and needs neither PyYAML's parser nor Babel to answer.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from havoc import api, game, rulebook
from havoc.errors import HavocError, InputError, Problem
from havoc.i18n import LANGUAGES, SOURCE_LANGUAGE, set_message_language, ui

MAX_BODY = 256 * 1024  # as the server's: larger requests are refused (413)


class Refused(Exception):
    """A request refused with a status, a code and a message in the asker's language."""

    def __init__(self, status: int, code: str, message: str, problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.problems = status, code, message, problems or []

    def json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.problems:
            body["problems"] = self.problems
        return body


def problem_json(where: str, p: Problem) -> dict[str, Any]:
    """A located problem as the server writes it (field path split off the message)."""
    field, sep, rest = p.message.partition(": ")
    if not sep or " " in field or not field:
        field, rest = "", p.message
    out: dict[str, Any] = {"in": where if p.file in ("position", "query", "") else p.file, "field": field}
    out["message"] = rest
    if p.line is not None:
        out["line"] = p.line
    return out


def _query_lang(query: Mapping[str, str]) -> str:
    wanted = query.get("lang")
    return str(wanted) if wanted in LANGUAGES else SOURCE_LANGUAGE


def _request_problem(lang: str, field: str, message: str) -> Refused:
    return Refused(
        422,
        "invalid-input",
        ui("The request has problems.", lang),
        [{"in": "request", "field": field, "message": message}],
    )


def _lang_of(data: Mapping[str, Any] | None, query: Mapping[str, str]) -> str:
    wanted = data.get("lang") if data is not None else None
    if wanted is None:
        wanted = query.get("lang")
    if wanted is None:
        return SOURCE_LANGUAGE  # a browser's Accept-Language is the page's own language: it always sends lang
    if not isinstance(wanted, str) or wanted not in LANGUAGES:
        raise _request_problem(SOURCE_LANGUAGE, "lang", f"expected one of {', '.join(LANGUAGES)}, found {wanted!r}")
    return wanted


def _body(
    text: str, query: Mapping[str, str], allowed: tuple[str, ...] | None, position: bool = True
) -> tuple[dict[str, Any], str]:
    lang = _query_lang(query)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BODY:
        raise Refused(413, "too-large", ui("The request is larger than 256 KiB.", lang))
    try:
        data = json.loads(text)
    except RecursionError:
        raise Refused(400, "malformed", ui("The request is nested too deeply.", lang)) from None
    except ValueError as exc:
        where: dict[str, Any] = {"in": "request", "field": "", "message": str(exc)}
        if isinstance(exc, json.JSONDecodeError):
            where.update(message=ui("not valid JSON here", lang), line=exc.lineno, column=exc.colno)
        raise Refused(400, "malformed", ui("The request is not valid JSON.", lang), [where]) from None
    if not isinstance(data, dict):
        raise Refused(400, "malformed", ui("The request must be a JSON object with a position.", lang))
    lang = _lang_of(data, query)
    set_message_language(lang)
    unknown = [k for k in data if allowed is not None and k not in allowed]  # None: the lookup checks
    problems = [
        {
            "in": "request",
            "field": str(k),
            "message": ui("unknown field; expected one of {choices}", lang).format(choices=", ".join(allowed or ())),
        }
        for k in unknown
    ]
    if position and "position" not in data:
        problems.insert(
            0, {"in": "request", "field": "position", "message": ui("expected a position (required)", lang)}
        )
    if problems:
        raise Refused(422, "invalid-input", ui("The request has problems.", lang), problems)
    return data, lang


_KINDS = {list: "a list", int: "a number", float: "a number", bool: "yes/no", type(None): "nothing"}


def _invalid(exc: InputError, where: str, lang: str) -> Refused:
    return Refused(
        422,
        "invalid-input",
        ui("The position or the question has problems.", lang),
        [problem_json(where, p) for p in exc.problems],
    )


class Engine:
    """The handlers for one ruleset; validated positions are kept (players ask several questions
    about one table, and the page sends the whole table with each)."""

    KEPT = 64

    def __init__(self, ruleset: str | None = None) -> None:
        self.rs = api.load_ruleset(ruleset)
        self._positions: dict[str, Any] = {}

    def position(self, data: Any, lang: str) -> Any:
        key = "text:" + data if isinstance(data, str) else repr(data) if isinstance(data, dict) else ""
        if key in self._positions:
            return self._positions[key]
        try:
            if isinstance(data, str):
                pos = game.of(self.rs).parse_position_text(data, self.rs, "position")
            elif isinstance(data, dict):
                pos = api.load_position(data, self.rs)
            else:
                kind = _KINDS.get(type(data), type(data).__name__)
                raise InputError([Problem("position", None, f"expected a mapping or YAML/JSON text, found {kind}")])
        except InputError as exc:
            raise _invalid(exc, "position", lang) from None
        if key:
            if len(self._positions) >= self.KEPT:
                self._positions.pop(next(iter(self._positions)))
            self._positions[key] = pos
        return pos

    def answer(self, pos: Any, question: Any, lang: str) -> dict[str, Any]:
        try:
            q = api.load_query(question, pos)
            result = api.answer_for(self.rs, pos, q, lang)
        except InputError as exc:
            raise _invalid(exc, "question", lang) from None
        out: dict[str, Any] = result.to_dict()
        return out

    def ask(self, text: str, query: Mapping[str, str]) -> dict[str, Any]:
        data, lang = _body(text, query, ("position", "question", "lang"))
        pos = self.position(data["position"], lang)
        question = data.get("question")
        if question is None:
            raise _request_problem(lang, "question", "expected a question (required)")
        if isinstance(question, list) and not all(isinstance(w, str) for w in question):
            question = None
        if not isinstance(question, (dict, str, list)):
            raise _request_problem(lang, "question", "expected a mapping ({ask: move, …}) or the compact words")
        return self.answer(pos, question, lang)

    def fixed(self, kind: str, keys: tuple[str, ...], text: str, query: Mapping[str, str]) -> dict[str, Any]:
        """``/api/legal``, ``/api/battle``, ``/api/score``: the question's fields at the top level."""
        data, lang = _body(text, query, ("position", *keys, "lang"))
        pos = self.position(data["position"], lang)
        return self.answer(pos, {"ask": kind, **{k: data[k] for k in keys if data.get(k) is not None}}, lang)

    def decide(self, name: str, text: str, query: Mapping[str, str]) -> dict[str, Any]:
        data, lang = _body(text, query, ("position", "question", "lang"))
        pos = self.position(data["position"], lang)
        question = data.get("question")
        if not isinstance(question, dict):
            raise _request_problem(lang, "question", "expected a mapping")
        try:
            result = game.extra_answers(game.of(self.rs))[name](self.rs, pos, question, lang)
        except InputError as exc:
            raise _invalid(exc, "question", lang) from None
        out: dict[str, Any] = result.to_json()
        return out

    def lookup(self, name: str, text: str, query: Mapping[str, str]) -> dict[str, Any]:
        """A game's lookup without a position (the chart lookups of a ruleset's site page): the
        request's fields go to the game's function, as its command line's do."""
        data, lang = _body(text, query, None, position=False)
        fields = {k: v for k, v in data.items() if k != "lang"}
        try:
            out: dict[str, Any] = game.lookups(game.of(self.rs))[name](self.rs, fields, lang)
        except InputError as exc:
            raise _invalid(exc, "request", lang) from None
        return out

    def labels(self, query: Mapping[str, str]) -> dict[str, Any]:
        lang = _lang_of(None, query)
        words = game.of(self.rs).labels()
        return {
            "lang": lang,
            "figures": words.figures(lang),
            "factions": {f: words.name(f, lang) for f in words.parties()},
        }

    def route(self, method: str, path: str, text: str, query: Mapping[str, str]) -> dict[str, Any]:
        name = path.removeprefix("/api/")
        played = game.of(self.rs) if self.rs.game else None
        lookups = game.lookups(played) if played else {}
        shortcuts = game.shortcuts(played)  # the kinds the game gives an address of their own
        posts = {"ask", *shortcuts, *(game.extra_answers(played) if played else {}), *lookups}
        gets = {"health", "labels"}
        if name not in posts | gets:
            raise Refused(404, "not-found", ui("There is no such address.", _query_lang(query)))
        if (method == "GET") != (name in gets):
            raise Refused(405, "method-not-allowed", ui("This address does not take this method.", _query_lang(query)))
        if name == "health":
            return {"status": "ok"}
        if name == "labels":
            return self.labels(query)
        if name == "ask":
            return self.ask(text, query)
        if name in shortcuts:
            return self.fixed(name, shortcuts[name].fields, text, query)
        if name in lookups:
            return self.lookup(name, text, query)
        return self.decide(name, text, query)


_engines: dict[str, Engine] = {}


def handle(method: str, path: str, body: str = "", query: Mapping[str, str] | None = None) -> str:
    """One request, as JSON text ``{"status": …, "body": …}``: never an exception, never a traceback."""
    query = dict(query or {})
    try:
        name = query.get("ruleset", "")  # "": the default ruleset (the Ask page's)
        engine = _engines.get(name)
        if engine is None:
            if name and name not in rulebook.ruleset_names():
                raise Refused(404, "not-found", ui("There is no such address.", _query_lang(query)))
            engine = _engines[name] = Engine(name or None)
        status, out = 200, engine.route(method.upper(), path, body, query)
    except Refused as exc:
        status, out = exc.status, exc.json()
    except InputError as exc:
        status, out = (
            422,
            Refused(
                422,
                "invalid-input",
                ui("The position or the question has problems.", _query_lang(query)),
                [problem_json("request", p) for p in exc.problems],
            ).json(),
        )
    except HavocError as exc:
        status, out = (
            503,
            Refused(
                503,
                "rules-broken",
                ui("The rules on this server do not load.", _query_lang(query)),
                [problem_json("rules", p) for p in exc.problems],
            ).json(),
        )
    except Exception:  # a bug: the page still gets JSON (the parity and fuzz tests look for these)
        status, out = 500, {"error": "internal", "message": "internal error"}
    return json.dumps({"status": status, "body": out}, ensure_ascii=False)


def setup(root: str) -> None:
    """Point havoc at the unpacked bundle in ``root`` (rules, locales, the prebuilt cache)."""
    os.chdir(root)
    os.environ["HAVOC_RULES"] = "rules"  # relative: the cache keys name the files as the build did
    os.environ["HAVOC_LOCALES"] = "locales"
    os.environ["HAVOC_CACHE_DIR"] = "cache"
    key = os.path.join("cache", "key")
    if os.path.exists(key):  # archives carry no modes: the cache trusts only a 0600 key in a 0700 folder
        os.chmod("cache", 0o700)
        os.chmod(key, 0o600)


def preload() -> None:
    """Import the default ruleset's game now: the phone compiles each module from source (no
    bytecode ships), and the worker does it right after it reports ready, not on the first question."""
    import importlib
    import pkgutil

    rs = api.load_ruleset()
    if not rs.game:
        return
    package = importlib.import_module(rs.game)
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), rs.game + "."):
        importlib.import_module(info.name)


def warm() -> None:
    """Fill the bundle's cache (run by the build in the staged bundle, after :func:`setup`): every
    ruleset and every language's catalogs, validated once here instead of on each phone."""
    import importlib
    import pkgutil

    import havoc.games
    from havoc import rulebook
    from havoc.i18n import translator

    for info in pkgutil.walk_packages(havoc.games.__path__, "havoc.games."):
        importlib.import_module(info.name)  # module-level data (a game's vocabulary) is cached too
    for name in rulebook.ruleset_names():
        rulebook.load(name)
    for lang in LANGUAGES:
        translator(lang)
        ui("Yes", lang)
    rs = api.load_ruleset()
    if rs.game.startswith("havoc."):  # a game installed from elsewhere is not in the bundle
        game.of(rs).labels()
        Engine()
