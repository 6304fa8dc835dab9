"""The theme's interface strings have Polish translations (Sphinx's catalog or locales/pl/.../sphinx.po).

Every string of the templates the site uses (furo's, Sphinx's basic theme's, ours) and the
permalink titles Sphinx's HTML writer adds must be translated, or a Polish page would show English.
"""

from __future__ import annotations

import gettext
import glob
import os
import re
from pathlib import Path
from typing import Any

import furo
import sphinx
from babel.messages.pofile import read_po
from jinja2 import Environment

REPO = Path(__file__).resolve().parents[1]
OURS = REPO / "locales" / "pl" / "LC_MESSAGES" / "sphinx.po"
# Templates of hosting services furo supports but this site does not use.
UNUSED = {
    "sidebar/rtd-versions.html",
    "sidebar/variant-selector.html",
    "changes/rstsource.html",
    "changes/frameset.html",
    "changes/versionchanges.html",
    "opensearch.xml",
    "defindex.html",
    "genindex-single.html",
    "genindex-split.html",
}


def template_strings() -> dict[str, str]:
    env = Environment(extensions=["jinja2.ext.i18n"])
    roots = [
        Path(furo.__file__).parent / "theme" / "furo",
        Path(sphinx.__file__).parent / "themes" / "basic",
        REPO / "docsbuild" / "_templates",
        REPO / "src" / "havoc" / "sphinxext" / "templates",
    ]
    found: dict[str, str] = {}
    for root in roots:
        for name in glob.glob(str(root / "**" / "*.html"), recursive=True):
            rel = os.path.relpath(name, root)
            if rel in UNUSED:
                continue
            for _line, _func, message in env.extract_translations(Path(name).read_text(encoding="utf-8")):
                key = message if isinstance(message, str) else message[0]
                if key:
                    found.setdefault(key, f"{root.name}/{rel}")
    writer = (Path(sphinx.__file__).parent / "writers" / "html5.py").read_text(encoding="utf-8")
    for text in re.findall(r"_\('(Link to this [a-z]+)'\)", writer):
        found.setdefault(text, "sphinx/writers/html5.py")
    return found


def test_every_theme_string_has_a_polish_translation() -> None:
    sphinx_pl = gettext.translation("sphinx", str(Path(sphinx.__file__).parent / "locale"), ["pl"])
    with OURS.open("rb") as fh:
        ours = {m.id: m.string for m in read_po(fh, locale="pl") if m.id and not m.fuzzy}
    missing = []
    for msgid, where in template_strings().items():
        if sphinx_pl._catalog.get(msgid):  # type: ignore[attr-defined]
            continue
        if ours.get(msgid):
            continue
        missing.append(f"{where}: {msgid!r}")
    assert not missing, "no Polish translation (add it to locales/pl/LC_MESSAGES/sphinx.po):\n" + "\n".join(missing)


def test_search_page_plural_is_translated() -> None:
    with OURS.open("rb") as fh:
        cat = read_po(fh, locale="pl")
    msg = cat.get("Search finished, found one page matching the search query.")
    assert msg is not None and all(msg.string)


def test_the_site_catalogs_parsed_once_read_the_same(tmp_path: Path, monkeypatch: Any) -> None:
    """The site's labels and the search page's JavaScript catalog, kept in havoc's cache by the
    catalogs' bytes, are what parsing the files gives; an edited catalog is parsed again."""
    from havoc.sphinxext import labels, theme_i18n

    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "cache"))
    site = (REPO / "locales" / "pl" / "LC_MESSAGES" / "site.po").read_bytes()
    first = labels._settled(site, "pl", None)
    assert first and labels._settled(site, "pl", None) == first
    edited = _edit_second_message(site)
    assert labels._settled(edited, "pl", None) != first
    made = theme_i18n._translations_js("pl", [OURS])
    assert theme_i18n._translations_js("pl", [OURS]) == made and "Documentation.addTranslations" in made
    copy = tmp_path / "sphinx.po"
    copy.write_bytes(_edit_second_message(OURS.read_bytes()))
    assert theme_i18n._translations_js("pl", [copy]) != made


def _edit_second_message(po: bytes) -> bytes:
    """The catalog with its second entry's translation changed (the first is the header)."""
    at = po.index(b'msgstr "', po.index(b'msgstr "') + 1) + len(b'msgstr "')
    return po[:at] + b"X" + po[at:]


def test_sphinx_compiles_only_the_catalogs_it_reads() -> None:
    """Sphinx reads its own catalog and the pages' (``site``); havoc reads rules.po and havoc.po
    itself, so a build does not compile them to .mo files nothing opens."""
    from types import SimpleNamespace

    from havoc.sphinxext.extension import compile_only_read_catalogs

    compiled: list[set[str]] = []
    builder = SimpleNamespace(compile_catalogs=lambda cats, message: compiled.append({c.domain for c in cats}))
    app = SimpleNamespace(config=SimpleNamespace(gettext_compact="site"), builder=builder)
    compile_only_read_catalogs(app)  # type: ignore[arg-type]
    from collections import namedtuple

    catalog = namedtuple("catalog", "domain")
    builder.compile_catalogs({catalog(d) for d in ("sphinx", "site", "rules", "havoc")}, "")
    assert compiled == [{"sphinx", "site"}]
