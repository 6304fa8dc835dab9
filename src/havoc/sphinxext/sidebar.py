"""The sidebar's navigation tree without every rule heading of every page, for every page.

Furo asks Sphinx for the whole site's tree, titles only, on every page it writes. Sphinx makes
that tree by deep-copying each listed page's full table of contents (every rule heading of
every section) and only then dropping all but the page titles: each page's sidebar costs as
much as all the rule headings of the site, so a build grows with pages × rules. Here each
page's contents are cut to its title once per build, and the tree is resolved from those. The
result is the same tree (the same nodes, the same HTML): a table of contents is cut only where
Sphinx's own titles-only step would cut it the same way, and left whole where a page holds a
toctree of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docutils import nodes
from sphinx import addnodes


def _titles_only(toc: nodes.Element) -> nodes.Element:
    """``toc`` as Sphinx's titles-only step leaves it (``toc`` itself where that is not sure)."""
    if any(True for _ in toc.findall(addnodes.toctree)):
        return toc  # sub-toctrees are moved, not dropped: Sphinx's own step handles those
    if any(len(top) > 2 for top in toc.children):
        return toc  # Sphinx drops only the second child; a third would then be dropped twice
    if not any(len(top) > 1 for top in toc.children):
        return toc
    cut = toc.deepcopy()
    for top in cut.children:
        if len(top) > 1:
            top.pop(1)
    return cut


class _Titles(dict[str, nodes.Element]):
    """``env.tocs`` with each page's contents cut to its title, made on first use per page."""

    def __init__(self, tocs: dict[str, nodes.Element]) -> None:
        super().__init__()
        self.tocs = tocs

    def __missing__(self, docname: str) -> nodes.Element:
        cut = self[docname] = _titles_only(self.tocs[docname])  # KeyError as Sphinx expects it
        return cut


def _fast_toctree(app: Any, toctree: Callable[..., str]) -> Callable[..., str]:
    def call(**kwargs: Any) -> str:
        if not kwargs.get("titles_only"):
            return toctree(**kwargs)
        env = app.builder.env
        tocs = env.tocs
        titles = getattr(app.builder, "_havoc_titles", None)
        if titles is None or titles.tocs is not tocs:
            titles = app.builder._havoc_titles = _Titles(tocs)
        env.tocs = titles
        try:
            return toctree(**kwargs)
        finally:
            env.tocs = tocs

    return call


def on_html_page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    toctree = context.get("toctree")
    if callable(toctree):
        context["toctree"] = _fast_toctree(app, toctree)


def setup_sidebar(app: Any) -> None:
    # before the theme's handler (priority 500), which renders the sidebar tree for every page
    app.connect("html-page-context", on_html_page_context, priority=400)
