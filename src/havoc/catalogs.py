"""Translation catalogs: extract templates, update catalogs, and check them.

Two gettext domains live in ``locales/``: ``rules`` (every string of the rule data, from
:func:`havoc.i18n.messages`) and ``havoc`` (interface strings in Python, written as
``ui("…")`` calls). Other ``.po`` files there (the site's narrative pages, theme strings) are
checked for completeness. A stale template, a missing or fuzzy translation, a lost
placeholder or link, or a wrong number of plural forms is an error of ``havoc check``.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from havoc import markup
from havoc.i18n import LANGUAGES, SOURCE_LANGUAGE, locales_root, messages
from havoc.rulebook.model import Ruleset

UI_CONTEXT = "ui"
SRC = Path(__file__).resolve().parent
HEADER_PROJECT = "havoc"


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)


def rules_template(ruleset: Ruleset) -> Catalog:
    """The template of the ``rules`` domain: every rule string with context and location."""
    cat = Catalog(project=HEADER_PROJECT, version="", fuzzy=False)
    for msg in messages(ruleset):
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


def ui_template() -> Catalog:
    """The template of the ``havoc`` domain: every ``ui("…")``/``nui("…", "…")`` string in the package."""
    cat = Catalog(project=HEADER_PROJECT, version="", fuzzy=False)
    keywords = {"ui": None, "nui": (1, 2)}
    for filename, lineno, message, comments, _ctx in extract_from_dir(
        str(SRC), method_map=[("**.py", "python")], keywords=keywords, comment_tags=("TRANSLATORS:",)
    ):
        loc = (f"src/havoc/{filename}", lineno)
        key = message[0] if isinstance(message, tuple) else message
        existing = cat.get(key, context=UI_CONTEXT)
        if existing is not None:
            existing.locations.append(loc)
            continue
        cat.add(message, locations=[loc], context=UI_CONTEXT, auto_comments=comments)
    return cat


def templates(ruleset: Ruleset) -> dict[str, Catalog]:
    return {"rules": rules_template(ruleset), "havoc": ui_template()}


def _render(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=0, omit_header=False, sort_output=False, include_previous=True)
    return buf.getvalue()


def _strip_header(data: bytes) -> bytes:
    """Template bytes without what changes when nothing a translator sees did: the creation date
    and the ``#:`` locations (a moved line of code or YAML is not a new message)."""
    volatile = (b'"POT-Creation-Date', b'"PO-Revision-Date', b"#:")
    return b"\n".join(ln for ln in data.splitlines() if not ln.startswith(volatile))


def extract(ruleset: Ruleset, root: Path | None = None, tmpls: dict[str, Catalog] | None = None) -> list[Path]:
    """Write ``locales/<domain>.pot`` for every domain; return the paths written."""
    root = root or locales_root()
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for domain, cat in (tmpls or templates(ruleset)).items():
        path = root / f"{domain}.pot"
        data = _render(cat)
        if not path.exists() or _strip_header(path.read_bytes()) != _strip_header(data):
            path.write_bytes(data)
        written.append(path)
    return written


def update(ruleset: Ruleset, root: Path | None = None) -> list[str]:
    """Merge the templates into each language's catalog (like ``pybabel update``)."""
    root = root or locales_root()
    tmpls = templates(ruleset)  # one extraction (it scans the whole package) serves every language
    extract(ruleset, root, tmpls)
    done = []
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        for domain, template in tmpls.items():
            path = root / lang / "LC_MESSAGES" / f"{domain}.po"
            if path.exists():
                with path.open("rb") as fh:
                    cat = read_po(fh, locale=lang)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                cat = Catalog(locale=lang, project=HEADER_PROJECT, version="", fuzzy=False)
            cat.update(template, no_fuzzy_matching=False, update_header_comment=False)
            cat.obsolete.clear()
            path.write_bytes(_render(cat))
            done.append(str(path))
    return done


def check_all(ruleset: Ruleset, root: Path | None = None) -> Report:
    """Every catalog complete and fresh; every translation keeps its placeholders and links."""
    root = root or locales_root()
    report = Report()
    if not any(root.glob("*.pot")) and not any(root.glob("*/LC_MESSAGES/*.po")):
        report.summary.append("no translation catalogs yet")
        return report
    tmpls = templates(ruleset)
    for domain, tmpl in tmpls.items():
        pot = root / f"{domain}.pot"
        if not pot.exists():
            report.problems.append(f"{_rel(pot)}: missing; run `havoc catalog update`")
        elif _strip_header(pot.read_bytes()) != _strip_header(_render(tmpl)):
            report.problems.append(f"{_rel(pot)}: out of date with the rules and code; run `havoc catalog update`")
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
        with path.open("rb") as fh:
            cat = read_po(fh, locale=lang, abort_invalid=True)
    except Exception as exc:  # Babel raises several types for a broken PO file
        report.problems.append(f"{_rel(path)}: not a valid PO file: {exc}")
        return 0
    rel = _rel(path)
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
    for inline in markup.walk(markup.parse(translation)):
        if isinstance(inline, markup.PluralWord) and len(inline.forms) != nplurals:
            report.problems.append(
                f"{where}: {{{inline.name}:…}} needs {nplurals} forms in this language, has {len(inline.forms)}"
            )
    if markup.link_targets(source) != markup.link_targets(translation):
        report.problems.append(f"{where}: links differ from the source (keep every [..](term:…)/(rule:…) target)")
    if markup.stray_brace(translation):
        report.problems.append(f"{where}: a brace that is not a {{placeholder}}")


_FORMAT = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


def _compare_format(where: str, source: str, translation: str, report: Report) -> None:
    """Interface and page strings: their Python format placeholders must survive translation."""
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
