"""Translation: catalogs, translators, plural forms (Babel), and the interface strings ``ui()``.

The list of every translatable string of a ruleset is :func:`havoc.translation.messages.messages`.
"""

from __future__ import annotations

import os
from _contextvars import ContextVar  # contextvars' own, without contextvars.py (start-up time)

import havoc
from havoc import TYPE_CHECKING
from havoc.core import safeio
from havoc.core.memo import memo
from havoc.language import markup
from havoc.language.languages import CODES, SOURCE

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path
    from typing import Any, NamedTuple, Protocol
else:
    from havoc.core.tuples import NamedTuple

    Protocol = object  # named only in annotations and aliases


class Ruleset(Protocol):
    """What a translator reads of a ruleset (a :class:`havoc.engine.rulebook.model.Ruleset`): its terms
    (each with ``name`` and ``plural``) and its parameters. A protocol, so that the rulebook,
    whose loader reports errors in the asker's language, and this module import in one direction."""

    @property
    def terms(self) -> Mapping[str, Any]: ...

    def param(self, name: str) -> Any: ...


LANGUAGES = CODES  # the registry's (havoc.language.languages): a language is its catalogs plus one entry there
SOURCE_LANGUAGE = SOURCE
DOMAIN = "rules"
ENGLISH_PLURAL = "(n != 1)"


def _english_plural(n: int) -> int:
    return int(n != 1)


class Message(NamedTuple):
    context: str
    msgid: str
    file: str
    line: int
    plural: str | None = None  # msgid_plural for term names
    comment: str | None = None


# --- catalogs -----------------------------------------------------------------


def locales_root() -> Path:
    from pathlib import Path

    return Path(_locales())


def _locales() -> str:
    """:func:`locales_root` as a string (finding a catalog never imports pathlib)."""
    env = os.environ.get("HAVOC_LOCALES")
    if env:
        return safeio.plain_path(env)
    return os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(havoc.__file__)))), "locales")


class Catalog(NamedTuple):
    """Translations of one language: (context, msgid) -> msgstr or plural msgstrs."""

    lang: str
    singular: dict[tuple[str, str], str]
    plural: dict[tuple[str, str], tuple[str, ...]]
    plural_expr: str


def _po_files(lang: str, root: str) -> list[str]:
    """The ``*.po`` files of a language, by name (listed, not globbed: no pattern compiled)."""
    folder = os.path.join(root, lang, "LC_MESSAGES")
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in sorted(names) if n.endswith(".po")]


def catalog_paths(lang: str, root: Path | None = None) -> list[str]:
    """The paths of a language's .po files (those :func:`catalog_sources` reads)."""
    return _po_files(lang, safeio.plain_path(root) if root else _locales())


def catalog_sources(lang: str, root: Path | None = None, paths: list[str] | None = None) -> list[tuple[str, bytes]]:
    """The bytes of a language's readable .po files (``paths``: as :func:`catalog_paths` gave
    them), by name: what its catalog is made from (a sealed bundle has none: :func:`load_catalog`)."""
    from havoc.core import sealed

    sealed.refuse(f"the catalogs of {lang}")
    files: list[tuple[str, bytes]] = []
    for p in catalog_paths(lang, root) if paths is None else paths:
        try:
            files.append((p, safeio.read_bytes(p, 20_000_000)))
        except safeio.ReadError:
            continue  # `havoc check` reports it; a reader gets the source language for it
    return files


def load_catalog(lang: str, root: Path | None = None) -> Catalog:
    """Read a language's .po catalogs (cached on disk by content, like the rulebook).

    Each file is read once; the cache key and the parsed catalog come from those bytes, and from
    this module's own code, which parses them: checkouts of different code sharing one cache
    folder then never store their catalogs under one name (an older havoc deleted the newer one's
    entry on sight, a newer parser would otherwise be answered from the older parser's catalog).
    A sealed bundle ships the catalog, not its .po files: the key is the one the build recorded
    (:mod:`havoc.core.sealed`), and a catalog missing from its cache is an error, never an empty one.
    """
    from havoc.core import cache, sealed

    name = os.path.join(safeio.plain_path(root) if root else _locales(), lang)
    files: list[tuple[str, bytes]] | None = None
    if sealed.active():
        key = sealed.get("catalog", name)
    else:
        key = sealed.value("catalog", name, lambda: _remembered_key(lang, root))
    cached = cache.get(f"catalog-{lang}", key, tuple)  # plain data: read with marshal, the fastest
    if cached is None and not sealed.active():  # a miss: the catalog and its key from bytes read now
        files = catalog_sources(lang, root)
        key = _catalog_key(lang, files)
        cached = cache.get(f"catalog-{lang}", key, tuple)
    if root is None:
        _keys[(lang, _locales())] = key
    if cached is not None and len(cached) == len(Catalog._fields):
        return Catalog(*cached)
    if sealed.active() or files is None:
        raise sealed.SealedError(f"the sealed bundle's cache has no valid catalog for {name}")
    catalog = _read_catalog(lang, files)
    cache.put(f"catalog-{lang}", key, tuple(catalog))
    return catalog


def _catalog_key(lang: str, files: list[tuple[str, bytes]]) -> str:
    """A catalog's cache key: its language, this module's code and its files' names and bytes."""
    from havoc.core import cache

    return cache.digest(
        lang.encode(),
        cache.code_bytes(__file__),
        *(x for p, data in files for x in (os.path.basename(p).encode(), data)),
    )


def _remembered_key(lang: str, root: Path | None = None) -> str:
    """:func:`_catalog_key` of the files as they are now, which their stat facts may vouch for
    without reading them (:func:`havoc.core.cache.remembered`)."""
    from havoc.core import cache

    paths = catalog_paths(lang, root)
    return cache.remembered(
        f"catalog\0{lang}", [*paths, __file__], lambda: _catalog_key(lang, catalog_sources(lang, root, paths))
    )


_keys: dict[tuple[str, str], str] = {}  # (language, locales folder) -> its catalog's key as last read


def catalog_key(lang: str) -> str:
    """The key of ``lang``'s catalog as :func:`load_catalog` makes it (its files' bytes and the
    code that reads them), read once per process: what a cache entry made from the catalog's
    texts is keyed by, so that the entry is found without loading the catalog itself."""
    from havoc.core import sealed

    at = (lang, _locales())
    found = _keys.get(at)
    if found is None:
        name = os.path.join(at[1], lang)
        found = sealed.get("catalog", name) if sealed.active() else _remembered_key(lang)
        _keys[at] = found
    return found


def catalogs_read() -> tuple[str, ...]:
    """The languages other than the source whose catalog this process has read or keyed so far
    (sorted): what anything made since may have been made from. A cache entry of a value read
    through names (a table written "Mgielnia: {units: {Ludzie: 3}}") is keyed by these
    catalogs too, so that a catalog's edit is never answered from a value read with the old
    one. It errs on the safe side: a catalog read for another reason counts as read."""
    here = _locales()
    return tuple(sorted({lang for lang, folder in _keys if folder == here and lang != SOURCE_LANGUAGE}))


def read_po_bytes(data: bytes, lang: str, *, strict: bool = False) -> Any:
    """Babel's catalog of a ``.po`` file's bytes, less a byte-order mark (Babel takes one for text:
    "Unknown or misformatted keyword on 0"); ``strict``: Babel refuses what it would skip. The one
    way every reader of a catalog (labels, checks, updates, the theme) reads one."""
    import io

    from babel.messages.pofile import read_po

    return read_po(io.BytesIO(safeio.without_bom(data)), locale=lang, abort_invalid=strict)


def _read_catalog(lang: str, files: list[tuple[str, bytes]]) -> Catalog:
    from babel.messages.plurals import get_plural

    singular: dict[tuple[str, str], str] = {}
    plural: dict[tuple[str, str], tuple[str, ...]] = {}
    for _path, data in files:
        try:
            cat = read_po_bytes(data, lang)
        except Exception:  # a broken catalog is `havoc check`'s to report; readers fall back to English
            continue
        for msg in cat:
            if not msg.id or msg.fuzzy:
                continue
            ctx = msg.context or ""
            if isinstance(msg.id, tuple):
                raw = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
                strings = tuple(str(s) for s in raw if s)
                if len(strings) == len(raw):
                    plural[(ctx, str(msg.id[0]))] = strings
            elif msg.string:
                singular[(ctx, str(msg.id))] = str(msg.string)
    return Catalog(lang, singular, plural, get_plural(lang).plural_expr)


@memo(8)
def _plural_func(expr: str) -> Callable[[int], int]:
    if expr == ENGLISH_PLURAL:  # the source language needs neither gettext nor Babel
        return _english_plural
    try:
        return _plural_rule(expr)
    except (ValueError, IndexError, RecursionError):  # not the usual grammar: gettext says why
        import gettext

        func: Callable[[int], int] = gettext.c2py(expr)
        return func


# A catalog's plural rule, read without gettext.c2py (which imports re, enum, functools and
# collections, milliseconds of a short Polish havoc ask, and compiles the rule with exec): the
# C grammar c2py reads (ternary, || && == != < > <= >= + - * / %, !, parentheses, n, whole
# numbers), evaluated as the Python c2py writes (and/or, // for /). A test holds it to c2py
# on every rule Babel knows.
_PLURAL_OPS: dict[str, tuple[int, Callable[[Any, Any], Any]]] = {
    "||": (1, lambda a, b: a or b),  # (each side is read only when needed: see _joined)
    "&&": (2, lambda a, b: a and b),
    "==": (3, lambda a, b: a == b),
    "!=": (3, lambda a, b: a != b),
    "<": (4, lambda a, b: a < b),
    ">": (4, lambda a, b: a > b),
    "<=": (4, lambda a, b: a <= b),
    ">=": (4, lambda a, b: a >= b),
    "+": (5, lambda a, b: a + b),
    "-": (5, lambda a, b: a - b),
    "*": (6, lambda a, b: a * b),
    "/": (6, lambda a, b: a // b),
    "%": (6, lambda a, b: a % b),
}


def _plural_tokens(expr: str) -> list[str]:
    tokens: list[str] = []
    i = 0
    while i < len(expr):
        c = expr[i]
        if c in " \t":
            i += 1
        elif c.isdigit():
            j = i
            while j < len(expr) and expr[j].isdigit():
                j += 1
            tokens.append(expr[i:j])
            i = j
        elif expr[i : i + 2] in _PLURAL_OPS:
            tokens.append(expr[i : i + 2])
            i += 2
        elif c in "n()?:!" or c in _PLURAL_OPS:
            tokens.append(c)
            i += 1
        else:
            raise ValueError(f"plural rule: unexpected {c!r}")
    return [*tokens, ""]


def _plural_rule(expr: str) -> Callable[[int], int]:
    if len(expr) > 1000:
        raise ValueError("plural rule too long")
    tokens = _plural_tokens(expr)
    at = [0]

    def take() -> str:
        token = tokens[at[0]]
        at[0] += 1
        return token

    def primary() -> Callable[[int], Any]:
        token = take()
        if token == "!":
            inner = primary()
            return lambda n: not inner(n)
        if token == "(":
            inner = conditional()
            if take() != ")":
                raise ValueError("plural rule: unbalanced parenthesis")
            return inner
        if token == "n":
            return lambda n: n
        if not token.isdigit():
            raise ValueError(f"plural rule: unexpected {token!r}")
        value = int(token)
        return lambda n: value

    def binary(priority: int) -> Callable[[int], Any]:
        left = primary()
        while tokens[at[0]] in _PLURAL_OPS and _PLURAL_OPS[tokens[at[0]]][0] >= priority:
            token = take()
            level, op = _PLURAL_OPS[token]
            left = _joined(token, op, left, binary(level + 1))
        return left

    def conditional() -> Callable[[int], Any]:
        test = binary(0)
        if tokens[at[0]] != "?":
            return test
        take()
        yes = conditional()
        if take() != ":":
            raise ValueError("plural rule: ? without :")
        no = conditional()
        return lambda n: yes(n) if test(n) else no(n)

    rule = conditional()
    if tokens[at[0]] != "":
        raise ValueError(f"plural rule: unexpected {tokens[at[0]]!r}")

    def plural(n: int) -> int:
        if not isinstance(n, int):  # what c2py's function says of a count that is not whole
            import gettext

            return int(gettext.c2py(expr)(n))
        return int(rule(n))

    return plural


def _joined(
    token: str, op: Callable[[Any, Any], Any], a: Callable[[int], Any], b: Callable[[int], Any]
) -> Callable[[int], Any]:
    if token == "||":  # short-circuit, as Python's or
        return lambda n: a(n) or b(n)
    if token == "&&":
        return lambda n: a(n) and b(n)
    return lambda n: op(a(n), b(n))


class Translator:
    """Look up rule texts in one language; English is the source and needs no catalog."""

    def __init__(self, lang: str = SOURCE_LANGUAGE, catalog: Catalog | None = None, scope: str = "") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
        self.lang = lang
        if catalog is None and lang != SOURCE_LANGUAGE:
            catalog = load_catalog(lang)
        self.catalog = catalog
        # The ruleset whose texts this translator reads: rule contexts are prefixed by its ID
        # (see :func:`messages`); interface strings (context ``ui``) are shared by every ruleset.
        self.scope = scope
        self._prefix = f"{scope}:" if scope else ""
        self._plural = _plural_func(catalog.plural_expr if catalog else ENGLISH_PLURAL)
        self.ui: dict[str, Text] = {}  # interface strings as :func:`ui` gave them (kept with the catalog)

    def scoped(self, ruleset_id: str) -> Translator:
        """This translator (same catalog) reading the texts of ``ruleset_id``."""
        return Translator(self.lang, self.catalog, ruleset_id)

    def key(self, context: str) -> str:
        """The catalog context of a text of this translator's ruleset (``ui`` is shared)."""
        return context if context == UI_CONTEXT else self._prefix + context

    def text(self, context: str, msgid: str) -> str:
        if self.catalog is None:
            return msgid
        return self.catalog.singular.get((self.key(context), msgid), msgid)

    def plural_index(self, n: int) -> int:
        return int(self._plural(abs(n)))

    def term_name(self, ruleset: Ruleset, term_id: str, count: int | None = None) -> str:
        """A term's name, in the plural form that fits ``count`` (None: the singular)."""
        term = ruleset.terms[term_id]
        forms: tuple[str, ...] = (term.name, term.plural)
        if self.catalog is not None:
            forms = self.catalog.plural.get((f"{self._prefix}term:{term_id}:name", term.name), forms)
        if count is None:
            return forms[0]
        return forms[min(self.plural_index(count), len(forms) - 1)]

    def render(self, ruleset: Ruleset, context: str, msgid: str) -> str:
        """A text in this language as plain text, parameters and plural words filled in."""
        return markup.render_plain(self.text(context, msgid), ruleset.param, self.plural_index)


UI_CONTEXT = "ui"
COUNT_CONTEXT = "ui:n"  # counted words (nui): "1 Kryształ", "3 Kryształy", "5 Kryształów"
TYPED_CONTEXT = "ui:word"  # the words a reader types for a game's machine words ("ruch" for "move")

# A context variable, not a global: a server answering several requests at once (threads or
# asyncio tasks) sets it per request, and each request's errors come in its own language.
_message_lang: ContextVar[str] = ContextVar("havoc_message_lang", default=SOURCE_LANGUAGE)


def set_message_language(lang: str) -> None:
    """The language of error messages in this context (the command's or request's ``lang``)."""
    _message_lang.set(lang)


def message_language() -> str:
    """The language error messages are written in (English unless a command chose one)."""
    return _message_lang.get()


@memo(16)
def translator(lang: str, scope: str = "") -> Translator:
    """One translator per language (and ruleset) per process: loading a catalog is the slow part."""
    if scope:
        return translator(lang).scoped(scope)
    return Translator(lang)


def has_words(cell: str) -> bool:
    """A table cell to translate: it holds a word, not only numbers, ranges and signs."""
    return any(c.isalpha() for c in cell)


def yes_no(verdict: bool | None, lang: str = SOURCE_LANGUAGE) -> str:
    """A verdict in words ("Yes", "No", or "See below" when the answer is not a yes or a no)."""
    if verdict is None:
        return ui("See below", lang)
    return ui("Yes", lang) if verdict else ui("No", lang)


class Text(str):
    """A translated interface string: its ``format`` lets any value take a case spec.

    A translation names the case a declinable name needs (``z {src:gen}``, see
    :mod:`havoc.language.grammar`); a value that is not such a name (a player's own Region ID, a
    number) is shown as it is rather than failing on the spec.
    """

    def format(self, /, *args: object, **kwargs: object) -> str:
        template = _templates.get(self)
        if template is None:
            template = _template(self)
        if template and not args:  # named fields only (every interface string): filled in place
            try:
                return _fill(template, kwargs)
            except KeyError:  # a field not given: str.format says which, as always
                pass
        from havoc.language.nouns import SPECS, Noun  # once per string formatted, not once per value

        return str.format(
            self,
            *[_caseless(a, Noun, SPECS) for a in args],
            **{k: _caseless(v, Noun, SPECS) for k, v in kwargs.items()},
        )


# A translated string's parts, parsed once: (text before, field name or None, its format spec,
# whether the spec is a case). An empty tuple: a string only str.format fills (positional or
# dotted fields, conversions, nested specs, a malformed brace).
Template = tuple[tuple[str, str | None, str, bool], ...]
_templates: dict[str, Template] = {}
_TEMPLATES_KEPT = 4096  # interface strings are a few hundred per language
_Noun: Any = None  # havoc.language.nouns.Noun, imported with the first template (not with this module)


def _template(text: str) -> Template:
    global _Noun
    from _string import formatter_parser

    from havoc.language.nouns import SPECS, Noun

    _Noun = Noun  # for _fill, which always runs after a first _template
    parts: list[tuple[str, str | None, str, bool]] = []
    try:
        for literal, name, spec, conversion in formatter_parser(text):
            if name is not None and (conversion or not name.isidentifier() or "{" in spec):
                parts = []
                break
            parts.append((literal, name, spec or "", spec in SPECS))
    except ValueError:
        parts = []
    if len(_templates) >= _TEMPLATES_KEPT:
        _templates.clear()
    found = _templates[str(text)] = tuple(parts)
    return found


def _fill(template: Template, values: Mapping[str, object]) -> str:
    """``template`` filled as :meth:`Text.format` fills it: a name takes the case its field asks
    for, any other value shows as it is (a text or number given a case spec ignores the spec)."""
    Noun = _Noun
    out: list[str] = []
    for literal, name, spec, case in template:
        out.append(literal)
        if name is None:
            continue
        value = values[name]
        cls = value.__class__
        if case:
            if cls is Noun:
                forms = value.forms  # type: ignore[attr-defined]
                out.append(forms.get(spec) or forms["nom"])
            elif isinstance(value, Noun):
                out.append(format(value, spec))
            elif isinstance(value, str):
                out.append(str.__str__(value))
            elif isinstance(value, (int, float)):
                out.append(format(value, ""))
            else:
                out.append(format(value, spec))
        elif not spec and (cls is Noun or cls is str):  # a name or text as it is (its nominative)
            out.append(str.__str__(value))
        elif isinstance(value, str) and not isinstance(value, Noun):
            out.append(format(str.__str__(value), spec))  # Text.format reads a text as a plain name
        else:
            out.append(format(value, spec))
    return "".join(out)


def _caseless(value: object, Noun: Any, CASES: object) -> object:
    if isinstance(value, Noun):
        return value
    if isinstance(value, str):
        return Noun.plain(value)
    if isinstance(value, (int, float)):
        return _Plain(value, CASES)
    return value


class _Plain:
    __slots__ = ("cases", "value")

    def __init__(self, value: object, cases: object) -> None:
        self.value, self.cases = value, cases

    def __format__(self, spec: str) -> str:
        return format(self.value, "" if spec in self.cases else spec)  # type: ignore[operator]

    def __repr__(self) -> str:  # {count!r}
        return repr(self.value)

    def __str__(self) -> str:  # {count!s}
        return str(self.value)


def ui(msgid: str, lang: str = SOURCE_LANGUAGE) -> str:
    """An interface string (a label, not rule data) in ``lang``; written as a literal ``ui("…")``
    call so ``havoc catalog extract`` finds it, translated under context ``ui`` in ``havoc.po``."""
    if lang == SOURCE_LANGUAGE:
        return msgid
    tr = translator(lang)
    found = tr.ui.get(msgid)  # an answer says a dozen of them: each made once per catalog
    if found is None:
        if len(tr.ui) >= _TEMPLATES_KEPT:
            tr.ui.clear()
        found = tr.ui[msgid] = Text(tr.text(UI_CONTEXT, msgid))
    return found


def nui(singular: str, plural: str, n: int, lang: str = SOURCE_LANGUAGE) -> str:
    """A counted interface word in the plural form ``n`` needs (Polish has three: 1, 2-4, 5+)."""
    if lang == SOURCE_LANGUAGE:
        return singular if n == 1 else plural
    tr = translator(lang)
    forms = tr.catalog.plural.get((COUNT_CONTEXT, singular)) if tr.catalog else None
    if not forms:
        return singular if n == 1 else plural
    return forms[min(tr.plural_index(n), len(forms) - 1)]


# File errors (havoc.core.safeio, which this module reads its catalogs through) speak the message language.
safeio.use_translation(message_language, ui)
