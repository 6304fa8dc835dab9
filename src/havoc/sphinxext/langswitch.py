"""The language switcher: every page links to the same page in the other language.

The languages are built side by side (``build/site/en/…``, ``build/site/pl/…``) from the same
sources, so the same page name exists in each; the link is relative, so the site works from any
folder or host. Search engines get absolute alternates instead (:mod:`havoc.sphinxext.seo`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from havoc.language.languages import REGISTRY
from havoc.sphinxext import labels as L
from havoc.sphinxext.context import get_context

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

NAMES = {code: lang.name for code, lang in REGISTRY.items()}


def language_links(app: Sphinx, pagename: str) -> list[dict[str, Any]]:
    current = app.config.language or "en"
    up = "../" * (pagename.count("/") + 1)
    suffix = getattr(app.builder, "out_suffix", ".html")
    return [
        {
            "lang": lang,
            "name": NAMES.get(lang, lang),
            "url": f"{up}{lang}/{pagename}{suffix}",
            "current": lang == current,
        }
        for lang in app.config.havoc_languages
    ]


def ruleset_links(app: Sphinx, pagename: str) -> list[dict[str, Any]]:
    """The other rulebooks built beside this one, each linked at its home page in this language."""
    books = _rulebooks(app)
    if len(books) < 2:
        return []
    current = get_context(app.env).ruleset.id
    here = next((where for name, _, where in books if name == current), current)
    lang = app.config.language or "en"
    up = "../" * (pagename.count("/") + 1 + (1 if here else 0))  # to the top of the site
    suffix = getattr(app.builder, "out_suffix", ".html")
    return [
        {
            "id": name,
            "title": title,
            "url": f"{up}{where + '/' if where else ''}{lang}/index{suffix}",
            "current": name == current,
        }
        for name, title, where in books
    ]


def _rulebooks(app: Sphinx) -> list[tuple[str, str, str]]:
    """Every ruleset beside this one: name, title, folder under the site. Read once per build,
    not for every page (each other ruleset would be loaded and fingerprinted per page)."""
    from havoc.engine import rulebook

    found: list[tuple[str, str, str]] | None = getattr(app.builder, "_havoc_rulebooks", None)
    if found is None:
        ctx = get_context(app.env)
        root = ctx.folder.parent
        names = rulebook.ruleset_names(root)
        found = (
            [
                (
                    name,
                    ctx.ruleset.title if name == ctx.ruleset.id else rulebook.load(name, root).title,
                    rulebook.site_path(name, root),
                )
                for name in names
            ]
            if len(names) > 1
            else []
        )
        app.builder._havoc_rulebooks = found  # type: ignore[attr-defined]
    return found


def on_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    ctx = get_context(app.env)
    links = language_links(app, pagename)
    context["havoc_languages"] = links
    context["havoc_other_languages"] = [link for link in links if not link["current"]]
    context["havoc_rulesets"] = ruleset_links(app, pagename)
    context["havoc_labels"] = {
        "language": ctx.label(L.LANGUAGE),
        "rule_index": ctx.label(L.RULE_INDEX),
        "az_index": ctx.label(L.AZ_INDEX),
        "print_sheet": ctx.label(L.PRINT_SHEET),
        "rulebooks": ctx.label(L.RULEBOOKS),
    }
    sheet = app.config.havoc_sheet_file
    context["havoc_sheet"] = context["pathto"]("sheet.pdf", 1) if sheet else ""


def setup_langswitch(app: Sphinx) -> None:
    app.add_config_value("havoc_languages", ["en", "pl"], "html", types=[list])
    app.connect("html-page-context", on_page_context)
