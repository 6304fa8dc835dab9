"""Everything around the pages in the build's language: labels in site.pot, the search UI's strings.

* The gettext builder gets every site label (and the source titles the pages cite), so
  ``site.pot`` holds all the site's own strings and ``site.po`` can be checked for completeness.
* Sphinx's Polish catalog lacks some strings of the search page (the "found N pages" plural);
  ``_static/translations.js`` is rebuilt from Sphinx's catalog with the project's ``sphinx.po``
  (``locales/<lang>/LC_MESSAGES/sphinx.po``) filling the gaps, as the templates already do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging

from havoc.core.codes import WARNING_TYPE, Code
from havoc.sphinxext import labels as L
from havoc.sphinxext.context import get_context, locale_dirs

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)


def data_labels(app: Sphinx) -> list[str]:
    """Strings of the rule data that are not in rules.po but appear on the pages (source titles)."""
    rs = get_context(app.env).ruleset
    titles = [str(s.get("title")) for s in rs.sources.values() if s.get("title")]
    titles += [str(s.get("title")) for o in rs.overlays.values() for s in o.sources.values() if s.get("title")]
    return list(dict.fromkeys(titles))


def on_env_updated(app: Sphinx, env: BuildEnvironment) -> None:
    if app.builder.name == "gettext":
        L.add_to_gettext_catalog(app.builder, data_labels(app))


def check_translated(app: Sphinx, doctree: nodes.document) -> None:
    """Every text of a narrative page needs a translation: Sphinx would silently show the English."""
    if (app.config.language or "en") == "en" or app.builder.name == "gettext":
        return
    from sphinx import addnodes

    from havoc.sphinxext.contents import generated_toctree

    for node in doctree.findall(nodes.Element):
        if isinstance(node, generated_toctree):
            continue
        if isinstance(node, addnodes.translatable):
            # Sphinx never marks these (toctrees) translated; a translated caption differs from the raw one.
            untranslated = bool(node.get("rawcaption")) and node.get("caption") == node.get("rawcaption")
            text = str(node.get("rawcaption", ""))
        else:
            untranslated = node.get("translated") is False
            text = " ".join(node.astext().split())
        if untranslated:
            logger.warning(
                "no %s translation of %r in site.po (run `havoc docs --update-catalog` and translate it)",
                app.config.language,
                text if len(text) < 60 else text[:57] + "…",
                type=WARNING_TYPE,
                subtype=Code.PAGE_UNTRANSLATED,
                location=node,
            )


def _read_po(path: Path, lang: str) -> Any:
    from havoc.language.i18n import read_po_bytes

    return read_po_bytes(path.read_bytes(), lang)


def translations_js(app: Sphinx) -> str:
    """Sphinx's JS message catalog for the language, gaps filled from the project's sphinx.po.

    Plural messages need the plural rule of the catalog they come from; Sphinx's Polish catalog
    counts four forms and ours (Babel's rule) three, so a plural message is kept only from a
    catalog whose rule is the one the file ends up with (the project's, when it has one).
    """
    import sphinx

    lang = app.config.language
    files = [Path(sphinx.__file__).parent / "locale" / lang / "LC_MESSAGES" / "sphinx.po"]
    files += [d / lang / "LC_MESSAGES" / "sphinx.po" for d in reversed(locale_dirs(app.config, Path(app.srcdir)))]
    return _translations_js(lang, [path for path in files if path.is_file()])


def _translations_js(lang: str, files: list[Path]) -> str:
    """:func:`translations_js` from the catalogs' files: made once and then kept in havoc's
    verified cache by the catalogs' bytes (every build of the site would parse them again)."""
    from havoc.core import cache

    key = cache.digest(  # the code that makes the script is part of it (see cache.code_bytes)
        b"translations-js", cache.code_bytes(__file__), lang.encode(), *(path.read_bytes() for path in files)
    )
    found = cache.get("translations-js", key, str)
    if found is not None:
        return found
    catalogs = [_read_po(path, lang) for path in files]
    plural_expr = catalogs[-1].plural_expr if catalogs else "(n != 1)"
    messages: dict[str, Any] = {}
    for cat in catalogs:
        for msg in cat:
            if not msg.id or msg.fuzzy:
                continue
            if isinstance(msg.id, tuple):
                strings = list(msg.string)
                if all(strings) and cat.plural_expr == plural_expr:
                    messages[msg.id[0]] = strings
            elif msg.string:
                messages[msg.id] = msg.string
    data = {"locale": lang, "messages": dict(sorted(messages.items())), "plural_expr": plural_expr}
    script = "Documentation.addTranslations(" + json.dumps(data, ensure_ascii=True, indent=1) + ");\n"
    cache.put("translations-js", key, script)
    return script


def on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html" or (app.config.language or "en") == "en":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    (static / "translations.js").write_text(translations_js(app), encoding="utf-8")


def setup_theme_i18n(app: Sphinx) -> None:
    app.connect("env-updated", on_env_updated)
    app.connect("doctree-read", check_translated)
    app.connect("build-finished", on_build_finished)
