"""Translation catalogs: extract templates, update catalogs, and check them.

Two gettext domains live in ``locales/``: ``rules`` (every string of the rule data, from
:func:`havoc.translation.messages.messages`) and ``havoc`` (interface strings in Python, written as
``ui("…")`` calls). Other ``.po`` files there (the site's narrative pages, theme strings) are
checked for completeness. A catalog out of date with the template (extracted in memory: the
``.pot`` files ``havoc catalog update`` writes are derived, for translators' tools, and not kept
in git), a missing or fuzzy translation, a lost placeholder or link, or a wrong number of plural
forms is an error of ``havoc check``.
"""

from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import write_po

import havoc
from havoc.core import safeio
from havoc.core.errors import Code, Problem, RulebookError
from havoc.engine.rulebook.model import Ruleset
from havoc.language import markup, pofile
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, TYPED_CONTEXT, _plural_func, locales_root, read_po_bytes
from havoc.translation.messages import messages

UI_CONTEXT = "ui"
COUNT_CONTEXT = "ui:n"
SRC = Path(havoc.__file__).resolve().parent
HEADER_PROJECT = "havoc"


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)


def rulesets(ruleset: Ruleset) -> list[Ruleset]:
    """``ruleset`` and every other ruleset under the rules folder: one ``rules`` catalog holds
    them all (contexts are prefixed by the ruleset's ID), so updating one never drops another's."""
    from havoc.engine import rulebook

    found = {ruleset.id: ruleset}
    root = rulebook.rules_root()
    for path in sorted(root.glob("*/ruleset.yaml")) if root.is_dir() else []:
        other = rulebook.load(path.parent.name, root)
        found.setdefault(other.id, other)
    # One order whichever ruleset was asked for (the default first, then by ID), so the template
    # written by `catalog update` equals the one `check --ruleset X` expects.
    first = rulebook.default_ruleset(root) if root.is_dir() else ruleset.id
    return sorted(found.values(), key=lambda rs: (rs.id != first, rs.id))


def rules_template(ruleset: Ruleset) -> Catalog:
    """The template of the ``rules`` domain: every rule string of every ruleset, with context and location."""
    cat = Catalog(project=HEADER_PROJECT, version="", fuzzy=False)
    for msg in (m for rs in rulesets(ruleset) for m in messages(rs)):
        msgid: str | tuple[str, str] = (msg.msgid, msg.plural) if msg.plural else msg.msgid
        existing = cat.get(msgid if isinstance(msgid, str) else msgid[0], context=msg.context)
        if existing is not None:
            existing.locations.append((msg.file, msg.line))
            continue
        cat.add(
            msgid,
            locations=[(msg.file, msg.line)],
            context=msg.context,
            auto_comments=[msg.comment] if msg.comment else [],
        )
    return cat


UI_STRINGS_KIND = "ui-strings"  # havoc's verified cache (havoc.core.cache): the kind of these entries


def ui_strings() -> list[tuple[str, int, str | tuple[str, ...], list[str]]]:
    """Every ``ui("…")``/``nui("…", "…")``/``said("…")`` call in the package as Babel extracts it:
    (file under the package, line, message, translator comments), in Babel's order.

    Babel tokenizes the whole package (seconds), and ``havoc catalog update`` and the checks of
    the catalogs ask for it on every run: the result is kept in havoc's verified cache (plain
    values, tagged, written atomically) under a key of every ``.py`` file's path and bytes and
    Babel's version, so any edit, added or removed file of the package extracts again."""
    import babel

    from havoc.core import cache

    chunks = [b"havoc ui strings 1", babel.__version__.encode()]
    for path in sorted(SRC.rglob("*.py")):
        chunks += [path.relative_to(SRC).as_posix().encode(), path.read_bytes()]
    key = cache.digest(*chunks)
    kept = cache.get(UI_STRINGS_KIND, key, list)
    if kept is not None:
        return [(str(f), int(n), tuple(m) if isinstance(m, (tuple, list)) else str(m), list(c)) for f, n, m, c in kept]
    keywords = {"ui": None, "nui": (1, 2), "said": None}  # said: havoc.cli.commands' status lines
    found = [
        (filename, lineno, message, list(comments))
        for filename, lineno, message, comments, _ctx in extract_from_dir(
            str(SRC), method_map=[("**.py", "python")], keywords=keywords, comment_tags=("TRANSLATORS:",)
        )
    ]
    cache.put(UI_STRINGS_KIND, key, found)
    return found


def ui_template() -> Catalog:
    """The template of the ``havoc`` domain: every ``ui("…")``/``nui("…", "…")`` string in the package."""
    cat = Catalog(project=HEADER_PROJECT, version="", fuzzy=False)
    for filename, lineno, message, comments in ui_strings():
        loc = (f"src/havoc/{filename}", lineno)
        key = message[0] if isinstance(message, tuple) else message
        # Counted words (nui) have a context of their own, so "Crystal" may be both a label
        # and the word counted in "3 Kryształy".
        ctx = COUNT_CONTEXT if isinstance(message, tuple) else UI_CONTEXT
        existing = cat.get(key, context=ctx)
        if existing is not None:
            existing.locations.append(loc)
            continue
        cat.add(message, locations=[loc], context=ctx, auto_comments=comments)
    _add_nouns(cat)
    _add_typed_words(cat)
    _add_help(cat)
    _add_api_docs(cat)
    _add_codes(cat)
    return _sorted(cat)


def _sorted(cat: Catalog) -> Catalog:
    """The template in a stable order (by context, then English), not in the order the code
    happens to hold the strings: moving a string to another module changes no catalog."""

    def key(msg: Message) -> tuple[str, str]:
        return (msg.context or "", str(msg.id[0] if isinstance(msg.id, (tuple, list)) else msg.id))

    out = Catalog(project=HEADER_PROJECT, version="", fuzzy=False)
    for msg in sorted((m for m in cat if m.id), key=key):
        out.add(
            msg.id,
            locations=msg.locations,
            flags=msg.flags,
            auto_comments=msg.auto_comments,
            context=msg.context,
        )
    return out


def _add_codes(cat: Catalog) -> None:
    """What each problem code means (:data:`havoc.core.codes.MEANINGS`), under context ``ui``: the
    site's page of codes (``havoc-codes``) says them in its language."""
    from havoc.core.codes import MEANINGS

    for meaning in MEANINGS.values():
        if cat.get(meaning, context=UI_CONTEXT) is None:
            cat.add(meaning, locations=[("src/havoc/core/codes.py", 0)], context=UI_CONTEXT)


def _add_api_docs(cat: Catalog) -> None:
    """The field descriptions of every installed game's position and question schemas, under
    context ``api``: the JSON API's description (``/openapi.json?lang=pl``) shows them translated."""
    from havoc.engine import game
    from havoc.formats.spec import API_CONTEXT, schema_descriptions

    for module in game.installed():
        played = game.load(module)
        where = (f"src/{module.replace('.', '/')}/__init__.py", 0)
        for schema in (played.position_schema(None), played.question_schema()):
            for text in schema_descriptions(schema):
                if cat.get(text, context=API_CONTEXT) is None:
                    cat.add(text, locations=[where], context=API_CONTEXT)
        instead = getattr(played, "WITHOUT_ASSISTANT", "")  # a game without an assistant: what to use instead
        if instead and cat.get(instead, context=UI_CONTEXT) is None:
            cat.add(instead, locations=[where], context=UI_CONTEXT)
        for shortcut in game.shortcuts(played).values():  # their OpenAPI summaries
            if shortcut.summary and cat.get(shortcut.summary, context=UI_CONTEXT) is None:
                cat.add(shortcut.summary, locations=[where], context=UI_CONTEXT)


def _add_help(cat: Catalog) -> None:
    """The help texts of every command (``havoc … --help``), under context ``cli``."""
    from havoc.cli import build_parser
    from havoc.cli import lang as clilang

    parser = build_parser()
    for text in clilang.help_texts(parser):
        if cat.get(text, context=clilang.CLI_CONTEXT) is None:
            cat.add(text, locations=[("src/havoc/cli/__init__.py", 0)], context=clilang.CLI_CONTEXT)
    for name in clilang.metavars(parser):
        if cat.get(name, context=clilang.METAVAR_CONTEXT) is None:
            cat.add(
                name,
                locations=[("src/havoc/cli/__init__.py", 0)],
                context=clilang.METAVAR_CONTEXT,
                auto_comments=["A placeholder of a usage line: one word, upper or lower case as in English."],
            )


def _add_nouns(cat: Catalog) -> None:
    """Each declinable name of every installed game, once per case (see :mod:`havoc.language.grammar`)."""
    from havoc.engine import game
    from havoc.language import grammar

    for module in game.installed():
        nouns = getattr(game.load(module), "nouns", None)
        for name, where in nouns() if nouns else ():
            for case in grammar.CASES:
                ctx = grammar.case_context(case)
                existing = cat.get(name, context=ctx)
                if existing is not None:
                    if (where, 0) not in existing.locations:
                        existing.locations.append((where, 0))
                    continue
                cat.add(name, locations=[(where, 0)], context=ctx, auto_comments=[grammar.case_comment(case)])


def _add_typed_words(cat: Catalog) -> None:
    """The words a reader types for each machine word of every installed game's compact
    questions (``ruch`` for ``move``), under context ``ui:word``."""
    from havoc.engine import game

    for module in game.installed():
        typed = getattr(game.load(module), "typed_words", None)
        for token, where in typed() if typed else ():
            existing = cat.get(token, context=TYPED_CONTEXT)
            if existing is not None:
                continue
            cat.add(
                token,
                locations=[(where, 0)],
                context=TYPED_CONTEXT,
                auto_comments=[
                    "A word a player types in a short question (havoc ask) instead of this machine word: "
                    "lower case, no spaces (join words with '-'), one meaning among the question's words."
                ],
            )


def templates(ruleset: Ruleset) -> dict[str, Catalog]:
    return {"rules": rules_template(ruleset), "havoc": ui_template()}


def _render(cat: Catalog) -> bytes:
    return render_po(cat)


def render_po(cat: Catalog, width: int = 0, sort_output: bool = False) -> bytes:
    """The catalog as ``.po`` bytes, with each previous msgid (``#|``) on one line and no
    ``#:`` line references: moving code or YAML changes no catalog (the context names a
    rule's entries; ``havoc check`` locates a message by its catalog line).

    Babel wraps ``#|`` lines like prose, at spaces and after hyphens, even inside the quoted
    string, so they cannot be read back exactly; written whole, a second update reads them
    as written and changes nothing.
    """
    from babel.messages.pofile import escape

    previous: dict[tuple[str | None, str], list[str]] = {}
    for msg in cat:
        if msg.id and msg.previous_id:
            previous[_key(msg)] = [str(p) for p in msg.previous_id]
    buf = io.BytesIO()
    saved = {k: m.previous_id for m in cat if m.id and (k := _key(m)) in previous}
    try:
        for msg in cat:
            if msg.id and _key(msg) in previous:
                msg.previous_id = []
        write_po(buf, cat, width=width, no_location=True, omit_header=False, sort_output=sort_output)
    finally:
        for msg in cat:
            if msg.id and _key(msg) in saved:
                msg.previous_id = saved[_key(msg)]
    if not previous:
        return buf.getvalue()
    text = buf.getvalue().decode("utf-8")
    lines = text.split("\n")
    entries, _problems = pofile.parse(text, "render")
    for entry in sorted(entries, key=lambda e: -e.line):
        ids = previous.get(entry.key) if not entry.obsolete else None
        if ids:
            words = ("msgid", "msgid_plural")
            lines[entry.line - 1 : entry.line - 1] = [f"#| {w} {escape(i)}" for w, i in zip(words, ids, strict=False)]
    return "\n".join(lines).encode("utf-8")


def render_keeping(cat: Catalog, old: bytes | None, sort_output: bool = False) -> bytes:
    """The catalog as ``.po`` bytes laid out as the file ``old`` is: its wrapping width for new
    entries, and the very lines it has for every entry that says the same (see
    :func:`havoc.language.pofile.keep_layout`). Whoever wrote the file last (a translator's tool, an
    older havoc), an update's diff shows only the entries that changed."""
    if old is None:
        return render_po(cat, sort_output=sort_output)
    bom = safeio.BOM if old.startswith(safeio.BOM) else b""  # a file saved with one keeps it
    text = old[len(bom) :].decode(
        "utf-8", errors="replace"
    )  # only compared with: an entry that decodes badly is rewritten
    crlf = "\r\n" in text  # saved on Windows: the new entries end their lines as the old ones do
    if crlf:
        text = text.replace("\r\n", "\n")
    new = render_po(cat, width=pofile.wrap_width(text), sort_output=sort_output).decode("utf-8")
    kept = _keep_plural_line(text, pofile.keep_layout(text, new))
    return bom + (kept.replace("\n", "\r\n") if crlf else kept).encode("utf-8")


def write_catalog(path: Path, cat: Catalog, old: bytes | None, sort_output: bool = False) -> bool:
    """Write ``cat`` to ``path`` (atomically) unless only its dates would change; say whether it did.

    The one writer of every catalog and template: ``havoc catalog update`` and ``havoc docs
    --update-catalog`` keep a file's layout alike."""
    data = render_keeping(cat, old, sort_output)
    if old is not None and _strip_dates(old) == _strip_dates(data):
        return False
    safeio.write_bytes(path, data)
    return True


def extract(ruleset: Ruleset, root: Path | None = None, tmpls: dict[str, Catalog] | None = None) -> list[Path]:
    """Write ``locales/<domain>.pot`` for every domain; return the paths whose messages changed
    (an unchanged template is not rewritten, so it is not reported as written either)."""
    root = root or locales_root()
    written = []
    for domain, cat in (tmpls or templates(ruleset)).items():
        path = root / f"{domain}.pot"
        if write_catalog(path, cat, path.read_bytes() if path.exists() else None):
            written.append(path)
    return written


def update(ruleset: Ruleset, root: Path | None = None) -> list[str]:
    """Merge the templates into each language's catalog, never dropping a translation.

    Unlike a plain ``pybabel update``: an entry whose English changed keeps its old
    translation as fuzzy with the previous msgid (matched by its rule-ID context, not by
    spelling); an entry of a rule renamed in ``retired.yaml`` moves to the successor's ID;
    anything no longer used stays in the file as an obsolete ``#~`` entry to be reused later.
    A catalog with a syntax error is refused, not rewritten. Files are written atomically
    and only when their content changes, so a second update changes nothing; the catalogs
    returned are the ones written.
    """
    root = root or locales_root()
    tmpls = templates(ruleset)  # one extraction (it scans the whole package) serves every language
    done = [str(path) for path in extract(ruleset, root, tmpls)]
    renamed = {
        f"{rs.id}:{old}": f"{rs.id}:{r.successor}"
        for rs in rulesets(ruleset)
        for old, r in rs.retired.items()
        if r.successor
    }
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        for domain, template in tmpls.items():
            path = root / lang / "LC_MESSAGES" / f"{domain}.po"
            old_bytes = None
            if path.exists():
                old_bytes = read_catalog_bytes(path)
                cat, previous = read_checked(path, old_bytes, lang)
            else:
                cat = Catalog(locale=lang, project=HEADER_PROJECT, version="", fuzzy=False)
                previous = {}
            if write_catalog(path, merge(cat, template, renamed, previous), old_bytes):
                done.append(str(path))
    return done


def read_catalog_bytes(path: Path) -> bytes:
    try:
        return safeio.read_bytes(path, limit=20_000_000)
    except safeio.ReadError as exc:
        raise RulebookError([Problem(_rel(path), None, str(exc), code=exc.code)]) from None


def read_checked(path: Path, data: bytes, lang: str) -> tuple[Catalog, dict[tuple[str | None, str], list[str]]]:
    """The catalog, after a strict syntax check; and the ``#|`` previous msgids Babel drops."""
    try:
        text = safeio.decode_utf8(data)
    except safeio.ReadError as exc:
        raise RulebookError([Problem(_rel(path), None, str(exc), code=exc.code)]) from None
    entries, problems = pofile.parse(text, _rel(path))
    if problems:
        raise RulebookError(problems)
    try:
        cat = read_po_bytes(data, lang, strict=True)
    except Exception as exc:  # Babel raises several types for a broken PO file
        raise RulebookError(
            [Problem(_rel(path), None, f"not a valid PO file: {exc}", code=Code.CATALOG_SYNTAX)]
        ) from None
    previous = {
        e.key: [v for k in ("msgid", "msgid_plural") if (v := e.previous.get(k)) is not None]
        for e in entries
        if e.previous.get("msgid") is not None and not e.obsolete
    }
    return cat, previous


def _key(msg: Message) -> tuple[str | None, str]:
    return msg.context, str(msg.id[0] if isinstance(msg.id, (tuple, list)) else msg.id)


def _has_text(msg: Message) -> bool:
    strings = msg.string if isinstance(msg.string, (tuple, list)) else [msg.string]
    return any(strings)


def merge(  # noqa: C901 - one pass must see every reuse rule at once (exact, renamed, reworded) so no translation is lost
    old: Catalog,
    template: Catalog,
    renamed: dict[str, str] | None = None,
    previous: dict[tuple[str | None, str], list[str]] | None = None,
) -> Catalog:
    """A new catalog for ``template`` that reuses every translation ``old`` has (see :func:`update`)."""
    from difflib import SequenceMatcher

    renamed = renamed or {}
    previous = previous or {}
    pool: dict[tuple[str | None, str], Message] = {}
    for msg in old.obsolete.values():
        if msg.id and _has_text(msg):
            pool[_key(msg)] = msg
    for msg in old:
        if msg.id:
            pool[_key(msg)] = msg  # the live entry wins over an obsolete one of the same key
    wanted = {_key(m) for m in template if m.id}
    by_context: dict[str | None, list[tuple[str | None, str]]] = {}
    for key, msg in pool.items():
        if key not in wanted and _has_text(msg):
            by_context.setdefault(key[0], []).append(key)
    per_context: dict[str | None, int] = {}
    for m in template:
        if m.id:
            per_context[m.context] = per_context.get(m.context, 0) + 1
    # A msgid that moved to another context ("ui" → "ui:n" or "cli") keeps its translation; not
    # into a case context, whose form differs from the nominative by definition (havoc.language.grammar).
    from havoc.language import grammar

    case_contexts = {grammar.case_context(c) for c in grammar.OBLIQUE}
    moved_from: dict[str, list[tuple[str | None, str]]] = {}
    for ctx, keys in by_context.items():
        for key in keys if ctx not in case_contexts else ():
            moved_from.setdefault(key[1], []).append(key)
    successor_of_context: dict[str, list[str]] = {}
    for ctx in by_context:
        if ctx and ":" in ctx:
            ident, fld = ctx.rsplit(":", 1)  # "cry-havoc:old-id" and "title"
            if ident in renamed:
                successor_of_context.setdefault(f"{renamed[ident]}:{fld}", []).append(ctx)

    new = old  # keeps the header (translator, team) as it is …
    # … except the plural rule, which is the language's (CLDR), as `havoc check` requires: a
    # damaged Plural-Forms line would make the next reader drop forms a translator wrote. A file
    # whose Language Babel does not know (no CLDR rule) keeps its own line: the default rule of
    # two forms would cut every Polish plural to two.
    if new.locale is not None:
        new._num_plurals = None
        new._plural_expr = None
    for m in list(new):
        if m.id:
            new.delete(m.id, context=m.context)
    new.obsolete = type(new.obsolete)()
    used: set[tuple[str | None, str]] = set()
    for tmsg in template:
        if not tmsg.id:
            continue
        key = _key(tmsg)
        msg = Message(
            tmsg.id,
            "" if not isinstance(tmsg.id, (tuple, list)) else ("",) * new.num_plurals,
            locations=list(tmsg.locations),
            auto_comments=list(tmsg.auto_comments),
            context=tmsg.context,
        )
        source = pool.get(key)
        fuzzy = False
        if source is not None:
            used.add(key)
            fuzzy = source.fuzzy
            msg.previous_id = list(previous.get(key, [])) if fuzzy else []
        elif key[1] in moved_from and tmsg.context not in case_contexts:
            source = pool[sorted(moved_from[key[1]], key=lambda k: k[0] or "")[0]]
            used.update(moved_from[key[1]])  # a copy: every new context may take it
            fuzzy = source.fuzzy  # the same English: still good (a new plural makes it fuzzy below)
            msg.previous_id = []
        else:
            cands = [
                c
                for ctx in (tmsg.context, *successor_of_context.get(tmsg.context or "", []))
                for c in by_context.get(ctx, [])
            ]
            cands = [c for c in cands if c not in used]
            best = None
            if len(cands) == 1 and (per_context.get(tmsg.context, 0) == 1 or cands[0][0] != tmsg.context):
                best = cands[0]
            elif cands:
                scored = [(SequenceMatcher(None, c[1], key[1]).ratio(), c) for c in cands]
                score, choice = max(scored)
                best = choice if score >= 0.6 else None
            if best is not None:
                used.add(best)
                source = pool[best]
                fuzzy = best[1] != key[1] or source.fuzzy
                old_id = source.id
                if best[1] != key[1]:
                    msg.previous_id = list(old_id) if isinstance(old_id, (tuple, list)) else [str(old_id)]
                else:
                    msg.previous_id = list(previous.get(best, []))
        if source is not None:
            msg.string = _fit(source.string, msg.id, new.num_plurals)
            msg.user_comments = [
                c for c in source.user_comments if not c.startswith("|")
            ]  # Babel reads #| as a comment
            auto = {"python-format", "python-brace-format"}  # Babel derives these from the msgid
            msg.flags = (set(source.flags) - {"fuzzy"} - auto) | (msg.flags & auto)
            if fuzzy or not _fits(source.string, msg.id, new.num_plurals):
                msg.flags.add("fuzzy")
        new[msg.id] = msg
        stored = new.get(msg.id, context=msg.context)
        if stored is not None:
            stored.previous_id = msg.previous_id
    for key, msg in pool.items():
        if key not in wanted and key not in used and _has_text(msg):
            new.obsolete[key[1] if key[0] is None else (key[1], key[0])] = msg  # Babel's own key order
    return new


def _fits(string: Any, msgid: Any, nplurals: int) -> bool:
    if isinstance(msgid, (tuple, list)):
        return isinstance(string, (tuple, list)) and len(string) == nplurals
    return isinstance(string, str)


def _fit(string: Any, msgid: Any, nplurals: int) -> Any:
    """The old translation in the shape the new entry needs (singular or n plural forms)."""
    if isinstance(msgid, (tuple, list)):
        forms = list(string) if isinstance(string, (tuple, list)) else [string]
        # Extra forms are kept (and the entry marked fuzzy): `havoc check` names the count; a
        # translator's text is never cut away by a merge.
        return tuple(forms + [""] * (nplurals - len(forms)))
    return string[0] if isinstance(string, (tuple, list)) else string


# Header lines that say when and with which tool a file was written, not what it says: an
# upgrade of Babel (2.18 -> 2.19 rewrote `Generated-By` and spelled the Polish plural rule
# anew) or another day must neither call a catalog out of date nor rewrite it.
_TOOL_LINES = (b'"POT-Creation-Date:', b'"PO-Revision-Date:', b'"Generated-By:')
_PLURAL_LINE = re.compile(rb'^"Plural-Forms:\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?);?\s*(?:\\n)?"$')
_PLURAL_SAMPLE = range(1000)  # every class of every rule Babel knows shows up below 1000


@functools.lru_cache(maxsize=64)
def _plural_meaning(line: bytes) -> bytes:
    """A ``Plural-Forms`` header line as what it means: the number of forms and the form it
    gives each n (two spellings of one rule, with other spaces or parentheses, compare equal).
    Kept by line (a thousand evaluations of the rule each; every catalog compare asks again)."""
    found = _PLURAL_LINE.match(line.strip())
    if not found:
        return line
    try:
        rule = _plural_func(found[2].decode("ascii"))
        forms = [rule(n) for n in _PLURAL_SAMPLE]
    except (ValueError, SyntaxError, UnicodeDecodeError, ZeroDivisionError):
        return line  # not read here: compared as written (havoc check reports a bad rule)
    return b"Plural-Forms: %s %s" % (found[1], ",".join(map(str, forms)).encode())


def _strip_dates(data: bytes) -> bytes:
    """The file's bytes less what only the clock or the writing tool put there (see _TOOL_LINES),
    with the plural rule compared by meaning."""
    return b"\n".join(
        _plural_meaning(ln) if ln.startswith(b'"Plural-Forms:') else ln
        for ln in data.splitlines()
        if not ln.startswith(_TOOL_LINES)
    )


def _keep_plural_line(old: str, new: str) -> str:
    """``new`` with the old file's own Plural-Forms line where both lines mean the same rule
    (a merge that changes entries does not also respell a translator's plural rule), or where
    Babel wrote none: it leaves the line out for a ``Language`` it does not know, and the next
    read would then cut every entry to two forms."""
    old_line = next((ln for ln in old.split("\n") if ln.startswith('"Plural-Forms:')), None)
    new_line = next((ln for ln in new.split("\n") if ln.startswith('"Plural-Forms:')), None)
    if old_line is not None and new_line is None:
        header, sep, rest = new.partition("\n\n")
        return header + "\n" + old_line + sep + rest
    if old_line is None or new_line is None or old_line == new_line:
        return new
    if _plural_meaning(old_line.encode()) != _plural_meaning(new_line.encode()):
        return new
    return new.replace(new_line, old_line, 1)


def check_all(ruleset: Ruleset, root: Path | None = None) -> Report:
    """Every catalog complete and fresh; every translation keeps its placeholders and links."""
    root = root or locales_root()
    report = Report()
    if not any(root.glob("*/LC_MESSAGES/*.po")):
        report.summary.append("no translation catalogs yet")
        return report
    # Each .po is judged against the template extracted here, in memory: the .pot files are
    # derived (``havoc catalog update`` writes them for tools such as Poedit) and not kept in
    # git, so a missing or older one on a translator's disk is no problem of the catalogs.
    tmpls = templates(ruleset)
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        nplurals = get_plural(lang).num_plurals
        counted = 0
        for domain, tmpl in tmpls.items():
            path = root / lang / "LC_MESSAGES" / f"{domain}.po"
            if not path.exists():
                report.problems.append(f"{_rel(path)}: missing; run `havoc catalog update` and translate it")
                continue
            counted += _check_po(path, lang, tmpl, nplurals, report)
        for other in sorted((root / lang / "LC_MESSAGES").glob("*.po")):
            if other.stem not in tmpls:
                counted += _check_po(other, lang, None, nplurals, report)
        report.summary.append(f"{counted} {lang} translations")
    return report


def _check_po(path: Path, lang: str, template: Catalog | None, nplurals: int, report: Report) -> int:
    try:
        data = safeio.read_bytes(path, limit=20_000_000)
        _entries, syntax = pofile.parse(safeio.decode_utf8(data), _rel(path))
    except safeio.ReadError as exc:
        report.problems.append(f"{_rel(path)}: {exc}")
        return 0
    if syntax:
        report.problems.extend(str(p) for p in syntax)
        return 0
    try:
        cat = read_po_bytes(data, lang, strict=True)
    except Exception as exc:  # Babel raises several types for a broken PO file
        report.problems.append(f"{_rel(path)}: not a valid PO file: {exc}")
        return 0
    rel = _rel(path)
    said = cat.mime_headers and dict(cat.mime_headers).get("Language")
    if said and said.replace("-", "_").split("_")[0].lower() != lang:
        # gettext tools and Babel take the header's word: another language's plural rule, or none
        report.problems.append(f"{rel}: its header says Language: {said}, but the file is under {lang}/; write {lang}")
    seen: set[tuple[str | None, str]] = set()
    count = 0
    for msg in cat:
        if not msg.id:
            continue
        key = str(msg.id[0] if isinstance(msg.id, tuple) else msg.id)
        seen.add((msg.context, key))
        line = msg.lineno or 0
        where = f"{rel}:{line} [{msg.context or ''}]"
        if template is not None and template.get(key, context=msg.context) is None:
            report.problems.append(f"{where}: stale entry no longer in the sources; run `havoc catalog update`")
            continue
        strings = list(msg.string) if isinstance(msg.string, (tuple, list)) else [msg.string]
        if msg.fuzzy:
            report.problems.append(f"{where}: translation is marked fuzzy (the English changed); review it")
            continue
        if not all(strings):
            report.problems.append(f"{where}: missing {lang} translation of {_short(key)!r}")
            continue
        if isinstance(msg.id, tuple) and len(strings) != nplurals:
            report.problems.append(f"{where}: needs {nplurals} plural forms, has {len(strings)}")
        for s in strings:
            if path.stem == "rules":
                _compare(where, key, str(s), nplurals, report)
            elif isinstance(msg.id, tuple):  # a plural form may drop the count ("one page")
                allowed = set(_FORMAT.findall(str(msg.id[0])) + _FORMAT.findall(str(msg.id[1])))
                if not set(_FORMAT.findall(str(s))) <= allowed:
                    report.problems.append(f"{where}: a placeholder that is not in the source: {str(s)!r}")
            else:
                _compare_format(where, key, str(s), report)
        count += 1
    if template is not None:
        for msg in template:
            if msg.id and (msg.context, msg.id[0] if isinstance(msg.id, tuple) else msg.id) not in seen:
                report.problems.append(
                    f"{rel}: missing {lang} entry [{msg.context}] {_short(str(msg.id))!r}; run `havoc catalog update`"
                )
    return count


def _compare(where: str, source: str, translation: str, nplurals: int, report: Report) -> None:
    # Compare parameter names: a translation may add a plural word ({n:…}) the English did not need.
    src = {p.strip("{}").split(":")[0] for p in markup.placeholders(source)}
    dst = {p.strip("{}").split(":")[0] for p in markup.placeholders(translation)}
    if src != dst:
        report.problems.append(f"{where}: placeholders differ: source {sorted(src)}, translation {sorted(dst)}")
    from havoc.language.nouns import CASES

    for inline in markup.walk(markup.parse(translation)):
        # a name in a case ({faction:gen}, a fact's player words) is not a plural word
        is_case = (
            len(inline.forms) == 1 and inline.forms[0] in CASES if isinstance(inline, markup.PluralWord) else False
        )
        if isinstance(inline, markup.PluralWord) and len(inline.forms) != nplurals and not is_case:
            report.problems.append(
                f"{where}: {{{inline.name}:…}} needs {nplurals} forms in this language, has {len(inline.forms)}"
            )
    if markup.link_targets(source) != markup.link_targets(translation):
        report.problems.append(f"{where}: links differ from the source (keep every [..](term:…)/(rule:…) target)")
    if markup.stray_brace(translation):
        report.problems.append(f"{where}: a brace that is not a {{placeholder}}")


_FORMAT = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*(?=[:}])")
_CASE_SPEC = re.compile(r"\{(\w*):(\w+)\}")


def _compare_format(where: str, source: str, translation: str, report: Report) -> None:
    """Interface and page strings: their Python format placeholders must survive translation.

    A translation may name the case a declinable name takes (``{src:gen}``, see
    :mod:`havoc.language.grammar`), or a phrase a name carries (a Region's ``{dst:to}``,
    ``{region:in}``: the preposition is the name's own); any other format spec is an error.
    """
    from havoc.language.grammar import CASES, PHRASES

    for name, spec in _CASE_SPEC.findall(translation):
        if spec not in CASES and spec not in PHRASES and f"{{{name}:{spec}}}" not in source:
            report.problems.append(f"{where}: {{{name}:{spec}}}: {spec!r} is not a case ({', '.join(CASES)})")
    if sorted(_FORMAT.findall(source)) != sorted(_FORMAT.findall(translation)):
        report.problems.append(
            f"{where}: placeholders differ: source {sorted(_FORMAT.findall(source))}, "
            f"translation {sorted(_FORMAT.findall(translation))}"
        )


def _short(text: str) -> str:
    return text if len(text) < 60 else text[:57] + "…"


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(locales_root().parent))
    except ValueError:
        return str(path)
