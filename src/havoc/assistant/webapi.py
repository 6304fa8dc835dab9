"""The assistant's JSON API without a transport: one request module for the server and the phone.

The Ask page sends the same requests whether ``havoc serve`` or the phone itself answers, so the
reading of a request (its JSON, its language, its unknown and missing fields), the answering
(:class:`Engine`, calling :mod:`havoc.assistant.api`) and every refusal (:class:`Refused`: status, code,
message in the asker's language, located problems) live here once. :mod:`havoc.web.server.app` is
the HTTP transport around it (bytes, headers, Content-Type, YAML bodies, Accept-Language);
:func:`handle` is the in-browser one (Pyodide: no Starlette, no sockets). The parity tests
(tests/test_webapi_parity.py in-process, tests/test_engine_browser.py in Pyodide) compare them.

:func:`setup` points havoc at the bundle's folders; the bundle's verified cache (made at build
time by :func:`warm`) holds the validated rulesets and catalogs, so the phone parses no YAML and
no .po file and needs neither PyYAML's parser nor Babel to answer.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from havoc.assistant import api
from havoc.core.errors import Code, HavocError, InputError, Problem, split_field
from havoc.engine import game, rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.formats.spec import MOST_PROBLEMS, is_more, too_long
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, nui, set_message_language, ui

MAX_BODY = 256 * 1024
"""Request bodies larger than this are refused (413)."""

MAX_DEPTH = 64
"""Deepest nesting of lists and mappings a body may have (as for YAML, havoc.formats.yamlio.MAX_DEPTH):
a real position is a few levels deep, and the validators walk what they are given."""

MAX_PROBLEMS = MOST_PROBLEMS
"""Located problems listed in one error answer; the rest are counted ("and 19,950 more problems"),
or, when the validators stopped looking after these (:data:`havoc.formats.spec.MOST_PROBLEMS`), said to
be more ("and more problems"): a request with 20,000 unknown keys must not buy a 5.8 MiB answer,
nor 20,000 worded problems."""

MAX_BRACKETS = 4096
"""Opening brackets (``[`` and ``{``, strings' own counted too) a JSON body may hold, counted
before it is parsed: a table of the most Regions with the most Structures holds about 1,400, and
each bracket is a list or mapping the validators would walk."""

POSITION_TEXT_MAX = 40_000
"""Characters in a position sent as YAML/JSON text: any such text fits the 256 KiB body even with
every character escaped (``\\uXXXX``, 6 bytes), so a request the schema allows is never a 413."""
QUESTION_TEXT_MAX = 2_000
"""Characters in a question sent as compact words."""
QUESTION_WORDS_MAX = 64
"""Words in a question sent as a list of compact words (as many as the game's reader of the
compact form allows): refused before any word is read."""

POSITIONS_KEPT = 256
"""Validated positions kept in memory, most recently asked first (players ask several questions
about one table, and the page sends the whole table with each)."""
POSITION_KEY_LIMIT = 32 * 1024  # larger positions are validated every time rather than kept


class Refused(Exception):
    """A request refused: status, a short code, a message in the asker's language and the
    located problems (``more``: found but not listed, counted before the list was cut)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        problems: list[dict[str, Any]] | None = None,
        lang: str = SOURCE_LANGUAGE,
        more: int = 0,
        uncounted: bool = False,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.lang, self.more = status, code, message, lang, more
        self.problems = problems or []
        self.uncounted = uncounted  # the validators stopped looking: more problems, not counted

    def json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.code, "message": self.message}
        problems = self.problems[:MAX_PROBLEMS]
        more = self.more + len(self.problems) - len(problems)
        if self.uncounted:
            problems = [
                *problems,
                {
                    "in": "request",
                    "field": "",
                    "message": ui("and more problems", self.lang),
                    "code": Code.MORE_PROBLEMS,
                },
            ]
        elif more:
            text = nui("and {n} more problem", "and {n} more problems", more, self.lang)
            problems = [
                *problems,
                {"in": "request", "field": "", "message": text.format(n=more), "code": Code.MORE_PROBLEMS},
            ]
        if problems:
            body["problems"] = problems
        return body


def problem_json(where: str, p: Problem, fields: bool = False) -> dict[str, Any]:
    """A located problem as JSON: which input, the field path, the line, what was expected.

    The validators write ``field.path: expected …``; the path is split off so a form can put the
    message next to the field it names, and the game's wording of it (``where``) is added for
    people, and its ``code`` (:mod:`havoc.core.codes`) for programs. ``fields``: the request's top-level fields are the inputs
    (a lookup's), and a problem names the one it is in.
    """
    field, rest = split_field(p.message)
    # One vocabulary for every endpoint: the part of the request (position, question, request),
    # never the name a message gives the input in the asker's language.
    if fields:  # a lookup's own fields by name; a table or a question it reads, as /api/ask names them
        place = "question" if p.file == "query" else where if p.file == "" else p.file
    else:
        place = p.file if p.file in ("request", "path") else where
    out: dict[str, Any] = {"in": place, "field": field}
    if p.where:  # the field in the reader's words ("Region A › Oddziały (units) › Ludzie"), for people
        out["where"] = p.where
    out["message"] = rest
    if p.line is not None:
        out["line"] = p.line
    if p.code:  # which problem it is (havoc.core.codes): stable, for programs; the message is for people
        out["code"] = p.code
    return out


def request_problem(lang: str, field: str, message: str, code: str = Code.FIELD_VALUE) -> Refused:
    """One problem with the request's own fields (422), named by field (``code``: which, see :mod:`havoc.core.codes`)."""
    return Refused(
        422,
        "invalid-input",
        ui("The request has problems.", lang),
        [{"in": "request", "field": field, "message": message, "code": code}],
        lang,
    )


def invalid(exc: InputError, where: str, lang: str, fields: bool = False) -> Refused:
    """The validators' located problems with the position or the question (422); a list they
    cut short (its last problem :func:`havoc.formats.spec.is_more`) says "and more problems"."""
    found = exc.problems
    uncounted = bool(found) and is_more(found[-1])
    if uncounted:
        found = found[:-1]
    return Refused(
        422,
        "invalid-input",
        ui("The position or the question has problems.", lang),
        [problem_json(where, p, fields) for p in found[:MAX_PROBLEMS]],
        lang,
        max(0, len(found) - MAX_PROBLEMS),
        uncounted,
    )


def too_deep(lang: str) -> Refused:
    return Refused(
        400,
        "malformed",
        ui("The request is nested too deeply.", lang),
        [
            {
                "in": "request",
                "field": "",
                "message": f"nesting deeper than {MAX_DEPTH} levels",
                "code": Code.YAML_TOO_DEEP,
            }
        ],
        lang,
    )


def refusal(exc: BaseException, lang: str) -> Refused | None:
    """What an error escaping a handler is to the asker (None: a bug, not theirs): input the
    validators refused is a 422, rules that do not load a 503."""
    if isinstance(exc, Refused):
        return exc
    if isinstance(exc, InputError):
        return invalid(exc, "request", lang)
    if isinstance(exc, HavocError):
        return Refused(
            503,
            "rules-broken",
            ui("The rules on this server do not load.", lang),
            [problem_json("rules", p) for p in exc.problems],
            lang,
        )
    if isinstance(exc, RecursionError):
        return too_deep(lang)
    return None


def first_lang(query_lang: str | None, accept: str = "") -> str:
    """The language of refusals found before the body is read: ``?lang=``, else Accept-Language."""
    if query_lang in LANGUAGES:
        return str(query_lang)
    return _accepted(accept)


def _accepted(accept: str) -> str:
    if not accept:
        return SOURCE_LANGUAGE
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return SOURCE_LANGUAGE


def lang_of(body: Mapping[str, Any] | None, query_lang: str | None, accept: str = "") -> str:
    """The request's language: the body's ``lang``, else ``?lang=``, else Accept-Language."""
    in_body = body is not None and "lang" in body
    wanted = body.get("lang") if body is not None else None
    if not in_body:
        wanted = query_lang
        if wanted is None:
            return _accepted(accept)
    if not isinstance(wanted, str) or wanted not in LANGUAGES:
        choices = ui("expected one of {choices}, found {found}", SOURCE_LANGUAGE)
        message = choices.format(choices=", ".join(LANGUAGES), found=repr(wanted))
        raise request_problem(SOURCE_LANGUAGE, "lang", message, Code.REQUEST_LANGUAGE)
    return wanted


class _Twice(ValueError):
    """A JSON object gives one key twice (:func:`_unique`)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict, refusing a key given twice: JSON readers disagree on
    which one counts (the first, the last), so a body that gives two is not guessed at; YAML
    bodies refuse it too (:mod:`havoc.formats.yamlio`)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(key)
            seen.add(key)
    return out


def too_many_brackets(text: str, lang: str) -> Refused | None:
    """The refusal of a JSON body with more than :data:`MAX_BRACKETS` brackets (None: fewer),
    counted in C before the body is parsed."""
    found = text.count("[") + text.count("{")
    if found <= MAX_BRACKETS:
        return None
    message = nui("more than {most} bracket", "more than {most} brackets", MAX_BRACKETS, lang)
    return Refused(
        400,
        "malformed",
        ui("The request holds too many lists and mappings.", lang),
        [{"in": "request", "field": "", "message": message.format(most=MAX_BRACKETS), "code": Code.YAML_TOO_MANY}],
        lang,
    )


def decode_json(text: str, lang: str) -> Any:
    """The body's JSON value; malformed or too deeply nested JSON, or an object with a key
    given twice, is a located 400."""
    many = too_many_brackets(text, lang)
    if many is not None:
        raise many
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except RecursionError:
        raise too_deep(lang) from None
    except _Twice as exc:
        twice: dict[str, Any] = {"in": "request", "field": "", "message": ui("duplicate key {key}", lang)}
        twice["code"] = Code.YAML_DUPLICATE_KEY
        twice["message"] = twice["message"].format(key=repr(exc.key))
        raise Refused(400, "malformed", ui("The request is not valid JSON.", lang), [twice], lang) from None
    except ValueError as exc:
        where: dict[str, Any] = {"in": "request", "field": "", "message": str(exc), "code": Code.YAML_SYNTAX}
        if isinstance(exc, json.JSONDecodeError):
            where.update(message=ui("not valid JSON here", lang), line=exc.lineno, column=exc.colno)
        raise Refused(400, "malformed", ui("The request is not valid JSON.", lang), [where], lang) from None


def depth(data: Any, limit: int = MAX_DEPTH) -> int:
    """How deep lists and mappings nest in ``data``, counted no further than ``limit + 1`` (so the
    walk stops early on a deep input and its recursion is bounded)."""
    if isinstance(data, dict):
        values: Any = data.values()
    elif isinstance(data, list):
        values = data
    else:
        return 0
    if limit <= 0:
        return 1
    deepest = 0
    for v in values:
        if isinstance(v, (dict, list)):
            d = depth(v, limit - 1)
            if d > deepest:
                deepest = d
                if deepest >= limit:
                    break
    return deepest + 1


def _kind(value: Any) -> str:
    return {list: "a list", int: "a number", float: "a number", bool: "yes/no", type(None): "nothing"}.get(
        type(value), type(value).__name__
    )


Key = str | bytes
"""What a validated position is kept under: the position as sent ("" or b"": not kept). A str is
:func:`_position_key`'s, bytes the server's (the table's JSON text); the two never meet."""


def _position_key(data: Any) -> str:
    """The key a position is kept under ("" for one not kept): the position as sent."""
    if isinstance(data, str):
        key = "text:" + data
    elif isinstance(data, dict):
        # repr of JSON values is unambiguous and twice as fast as json.dumps; a table sent with
        # its keys in another order is only a miss
        key = repr(data)
    else:
        return ""
    return key if len(key) <= POSITION_KEY_LIMIT else ""


class Asked:
    """A request's body read and checked: its fields, its language, its position's key and the
    validated position when it was kept (None: validate ``data["position"]``)."""

    __slots__ = ("data", "kept", "key", "lang")

    def __init__(self, data: dict[str, Any], lang: str, key: Key, kept: Any = None) -> None:
        self.data, self.lang, self.key, self.kept = data, lang, key, kept


class Engine:
    """The handlers for one ruleset; validated positions are kept (players ask several questions
    about one table, and the page sends the whole table with each). Safe to call from worker
    threads (the server answers large bodies in one)."""

    def __init__(self, rs: Ruleset | str | None = None) -> None:
        self.rs = rs if isinstance(rs, Ruleset) else api.load_ruleset(rs)
        self._positions: OrderedDict[Key, Any] = OrderedDict()
        self._kept_lock = threading.Lock()

    # --- reading a request ----------------------------------------------------------------
    def read(
        self,
        data: Any,
        allowed: tuple[str, ...] | None,
        first: str,
        query_lang: str | None = None,
        accept: str = "",
        position: bool = True,
        key: Key | None = None,
        too_deep_in: Callable[[Any], bool] | None = None,
    ) -> Asked:
        """The decoded body checked: a mapping, not nested too deeply, its language, no unknown
        field (``allowed`` None: the lookup checks its own) and a position when one is needed.
        ``first`` is the language of the refusals found before the body's own ``lang`` is read;
        ``key`` the position's key when the transport made it while reading the body (the server:
        the table's own JSON text, see :func:`havoc.web.server.app.read_json`); ``too_deep_in`` the
        transport's own exact test of ``depth(data) > MAX_DEPTH`` for a body whose position is not
        kept (the server's: :func:`havoc.web.server.app.too_deep_in`, a fifth of the walk's time)."""
        if not isinstance(data, dict):
            raise Refused(400, "malformed", ui("The request must be a JSON object with a position.", first), lang=first)
        if not position:
            key = ""
        elif key is None:  # (b"": the transport found the table too large to keep, without a repr of it)
            key = _position_key(data.get("position"))
        kept = self._kept(key) if key else None
        if kept is not None:
            # a kept position was checked when it was first sent: only the rest's lists and
            # mappings are walked (1 + the deepest of them > MAX_DEPTH)
            deep = False
            for k, v in data.items():
                if isinstance(v, (dict, list)) and k != "position" and depth(v, MAX_DEPTH - 1) >= MAX_DEPTH:
                    deep = True
                    break
        elif too_deep_in is not None:
            deep = too_deep_in(data)
        else:
            deep = depth(data) > MAX_DEPTH
        if deep:
            raise too_deep(first)
        lang = lang_of(data, query_lang, accept)
        set_message_language(lang)  # the located problems below come in the asker's language
        unknown = [] if allowed is None else [k for k in data if k not in allowed]
        missing = position and "position" not in data
        if unknown or missing:
            choices = ui("unknown field; expected one of {choices}", lang).format(choices=", ".join(allowed or ()))
            problems = [
                {"in": "request", "field": str(k), "message": choices, "code": Code.FIELD_UNKNOWN}
                for k in unknown[:MAX_PROBLEMS]
            ]
            if missing:
                problems.insert(
                    0,
                    {
                        "in": "request",
                        "field": "position",
                        "message": ui("expected a position (required)", lang),
                        "code": Code.FIELD_MISSING,
                    },
                )
            more = max(0, len(unknown) - MAX_PROBLEMS)
            raise Refused(422, "invalid-input", ui("The request has problems.", lang), problems, lang, more)
        return Asked(data, lang, key, kept)

    # --- positions --------------------------------------------------------------------------
    def _kept(self, key: Key) -> Any:
        with self._kept_lock:
            found = self._positions.get(key)
            if found is not None:
                self._positions.move_to_end(key)
            return found

    def position_of(self, asked: Asked) -> Any:
        """The asked position: the one :meth:`read` found kept, else validated now."""
        if asked.kept is not None:
            return asked.kept
        return self.position(asked.data["position"], asked.lang, asked.key)

    def position(self, data: Any, lang: str, key: Key | None = None) -> Any:
        """The validated position; one asked about before comes from memory (never from disk).

        The interpreter only reads a position, so one validated Position can answer many
        questions; the key is the position as sent.
        """
        if isinstance(data, str) and len(data) > POSITION_TEXT_MAX:
            raise request_problem(
                lang, "position", f"expected at most {POSITION_TEXT_MAX} characters", Code.FIELD_TOO_MANY
            )
        if key is None:
            key = _position_key(data)
        if key:
            found = self._kept(key)
            if found is not None:
                return found
        pos = self._validate(data, lang)
        if key:
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
            raise InputError(
                [
                    Problem(
                        "position",
                        None,
                        f"expected a mapping or YAML/JSON text, found {_kind(data)}",
                        code=Code.REQUEST_SHAPE,
                    )
                ]
            )
        except InputError as exc:
            raise invalid(exc, "position", lang) from None

    # --- answering --------------------------------------------------------------------------
    def answer(self, pos: Any, question: Any, lang: str, rs: Ruleset | None = None) -> dict[str, Any]:
        """The answer's JSON values (as ``havoc ask --json``) to one question about ``pos``, by
        the server's rules or the view ``rs`` of them (an ``as-of`` layer)."""
        rules = rs or self.rs
        try:
            q = api.load_query(question, pos, rules)
            result = api.answer_for(rules, pos, q, lang)
        except InputError as exc:
            raise invalid(exc, "question", lang) from None
        out: dict[str, Any] = result.to_dict()
        return out

    def ask(self, asked: Asked) -> dict[str, Any]:
        """``/api/ask``: a position and a question (a mapping or the compact words)."""
        data, lang = asked.data, asked.lang
        pos = self.position_of(asked)
        question = data.get("question")
        if question is None:
            raise request_problem(lang, "question", ui("expected a question (required)", lang), Code.FIELD_MISSING)
        if isinstance(question, list) and len(question) > QUESTION_WORDS_MAX:
            raise request_problem(lang, "question", too_long(QUESTION_WORDS_MAX, len(question)), Code.FIELD_TOO_MANY)
        if isinstance(question, list) and not all(isinstance(w, str) for w in question):
            question = None
        if isinstance(question, str) and len(question) > QUESTION_TEXT_MAX:
            raise request_problem(
                lang, "question", f"expected at most {QUESTION_TEXT_MAX} characters", Code.FIELD_TOO_MANY
            )
        if not isinstance(question, (dict, str, list)):
            message = ui("expected a mapping ({ask: <kind>, …}) or the compact words", lang)
            raise request_problem(lang, "question", message, Code.FIELD_TYPE)
        rs = self.rs
        if "as-of" in data:  # the rules in force at an earlier layer or date (Ruleset.as_of)
            try:
                rs = api.rules_as_of(rs, data["as-of"], lang)
            except InputError as exc:
                problem = exc.problems[0]
                raise request_problem(lang, "as-of", problem.message, problem.code) from None
        return self.answer(pos, question, lang, rs)

    def fixed(self, kind: str, keys: tuple[str, ...], asked: Asked) -> dict[str, Any]:
        """``POST /api/<kind>`` for a kind the game declares as a shortcut: the question's fields at the top level."""
        pos = self.position_of(asked)
        question: dict[str, Any] = {"ask": kind}
        for k in keys:
            if k in asked.data:  # a null is passed on, for the validator to refuse (the schema does)
                question[k] = asked.data[k]
        return self.answer(pos, question, asked.lang)

    def decide(self, name: str, asked: Asked) -> dict[str, Any]:
        """One of the game's other deciders: the decision, the rule that decided it and what it set aside."""
        lang = asked.lang
        pos = self.position_of(asked)
        question = asked.data.get("question")
        if not isinstance(question, dict):
            raise request_problem(lang, "question", ui("expected a mapping", lang), Code.FIELD_TYPE)
        try:
            result = game.extra_answers(game.of(self.rs))[name](self.rs, pos, question, lang)
        except InputError as exc:
            raise invalid(exc, "question", lang) from None
        out: dict[str, Any] = result.to_json()
        return out

    def lookup(self, name: str, asked: Asked) -> dict[str, Any]:
        """A game's lookup without a position (the chart lookups of a ruleset's site page): the
        request's fields go to the game's function, as its command line's do."""
        fields = {k: v for k, v in asked.data.items() if k != "lang"}
        try:
            out: dict[str, Any] = game.lookups(game.of(self.rs))[name](self.rs, fields, asked.lang)
        except InputError as exc:
            raise invalid(exc, "request", asked.lang, fields=True) from None
        return out

    def labels(self, lang: str) -> dict[str, Any]:
        """The words an answer's JSON leaves as IDs (figures, factions), for a page to show."""
        words = game.of(self.rs).labels()
        return {
            "lang": lang,
            "figures": words.figures(lang),
            "factions": {f: words.name(f, lang) for f in words.parties()},
        }

    # --- the in-browser transport ------------------------------------------------------------
    def route(self, method: str, path: str, text: str, query: Mapping[str, str]) -> dict[str, Any]:
        name = path.removeprefix("/api/")
        first = first_lang(query.get("lang"))
        played = game.of(self.rs) if self.rs.game else None
        lookups = game.lookups(played) if played else {}
        extra = game.extra_answers(played) if played else {}
        shortcuts = game.shortcuts(played)  # the kinds the game gives an address of their own
        posts = {"ask", *shortcuts, *extra, *lookups}
        gets = {"health", "labels"}
        if name not in posts | gets:
            raise Refused(404, "not-found", ui("There is no such address.", first), lang=first)
        if (method == "GET") != (name in gets):
            raise Refused(405, "method-not-allowed", ui("This address does not take this method.", first), lang=first)
        if name == "health":
            return {"status": "ok"}
        if name == "labels":
            return self.labels(lang_of(None, query.get("lang")))
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BODY:
            raise Refused(413, "too-large", ui("The request is larger than 256 KiB.", first), lang=first)
        data = decode_json(text, first)
        if name == "ask":
            return self.ask(self.read(data, ("position", "question", "as-of", "lang"), first, query.get("lang")))
        if name in shortcuts:
            keys = shortcuts[name].fields
            return self.fixed(name, keys, self.read(data, ("position", *keys, "lang"), first, query.get("lang")))
        if name in lookups:
            return self.lookup(name, self.read(data, None, first, query.get("lang"), position=False))
        return self.decide(name, self.read(data, ("position", "question", "lang"), first, query.get("lang")))


_engines: dict[str, Engine] = {}


def handle(method: str, path: str, body: str = "", query: Mapping[str, str] | None = None) -> str:
    """One request, as JSON text ``{"status": …, "body": …}``: never an exception, never a traceback."""
    query = dict(query or {})
    try:
        name = query.get("ruleset", "")  # "": the default ruleset (the Ask page's)
        engine = _engines.get(name)
        if engine is None:
            if name and name not in rulebook.ruleset_names():
                first = first_lang(query.get("lang"))
                raise Refused(404, "not-found", ui("There is no such address.", first), lang=first)
            engine = _engines[name] = Engine(name or None)
        status, out = 200, engine.route(method.upper(), path, body, query)
    except Exception as exc:  # a bug is a 500 in JSON (the parity and fuzz tests look for these)
        refused = refusal(exc, first_lang(query.get("lang")))
        if refused is None:
            status, out = 500, {"error": "internal", "message": "internal error"}
        else:
            status, out = refused.status, refused.json()
    return json.dumps({"status": status, "body": out}, ensure_ascii=False)


def setup(root: str) -> None:
    """Point havoc at the unpacked bundle in ``root`` (rules, locales, the prebuilt cache) and,
    when the bundle is sealed, read the keys the build made for it (:mod:`havoc.core.sealed`)."""
    from havoc.core import sealed

    os.chdir(root)
    sealed.open_manifest(".")
    os.environ["HAVOC_RULES"] = "rules"  # relative: the cache keys name the files as the build did
    os.environ["HAVOC_LOCALES"] = "locales"
    os.environ["HAVOC_CACHE_DIR"] = "cache"
    key = os.path.join("cache", "key")
    if os.path.exists(key):  # archives carry no modes: the cache trusts only a 0600 key in a 0700 folder
        os.chmod("cache", 0o700)
        os.chmod(key, 0o600)


def _import_game(package_name: str) -> None:
    """Import every module of a game's package (module-level data, a game's vocabulary, included)."""
    import importlib
    import pkgutil

    package = importlib.import_module(package_name)
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), package_name + "."):
        importlib.import_module(info.name)


def preload(ruleset: str = "") -> None:
    """Import the game of ``ruleset`` (of the page shown; "" = the default ruleset) now: the worker
    does it right after it reports ready, so the first question does not wait for its modules."""
    rs = api.load_ruleset(ruleset or None)
    if rs.game:
        _import_game(rs.game)


def warm() -> None:
    """Fill the bundle's cache (run by the build in the staged bundle, after :func:`setup`): every
    ruleset and every language's catalogs, validated once here instead of on each phone."""
    from havoc.language.i18n import translator

    for name in rulebook.ruleset_names():
        loaded = rulebook.load(name)
        if loaded.game.startswith("havoc."):  # a game installed from elsewhere is not in the bundle
            _import_game(loaded.game)  # found through the ruleset, as every game is
    for lang in LANGUAGES:
        translator(lang)
        ui("Yes", lang)
    rs = api.load_ruleset()
    if rs.game.startswith("havoc."):
        game.of(rs).labels()
        Engine()
