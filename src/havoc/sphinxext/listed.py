"""Pages a game's code writes (``html-collect-pages``: the Trogs' page, the chart lookups) found
like any document: a link in every page's sidebar and an entry in the sitemap.

A game lists its page when the builder starts (:func:`list_page`), before any page is written, so
every page's sidebar has it; the sitemap (:mod:`havoc.sphinxext.seo`) reads the same list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from havoc.sphinxext.context import get_context

if TYPE_CHECKING:
    from sphinx.application import Sphinx

ATTRIBUTE = "havoc_listed_pages"  # on the builder: page name -> its title's label (msgid)


def list_page(app: Sphinx, name: str, title: str) -> None:
    """List the generated page ``name`` (its title a declared label) in the sidebar and sitemap."""
    app.builder.__dict__.setdefault(ATTRIBUTE, {})[name] = title


def listed(app: Sphinx) -> dict[str, str]:
    return dict(getattr(app.builder, ATTRIBUTE, {}))


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    pages = listed(app)
    if not pages:
        context["havoc_pages"] = []
        return
    ctx = get_context(app.env)
    context["havoc_pages"] = [
        {"url": context["pathto"](name), "title": ctx.label(title), "current": name == pagename}
        for name, title in pages.items()
    ]


def setup_listed(app: Sphinx) -> None:
    app.connect("html-page-context", on_page_context)
