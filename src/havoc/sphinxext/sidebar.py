"""The sidebar's navigation tree: made once per build, not once per page from every page.

Furo asks Sphinx for the whole site's tree, titles only, on every page it writes. Sphinx makes
that tree by deep-copying each listed page's full table of contents (every rule heading of
every section) and only then dropping all but the page titles: each page's sidebar costs as
much as all the rule headings of the site, so a build grows with pages × rules. Here each
page's contents are cut to its title once per build, and the tree is resolved from those. The
result is the same tree (the same nodes, the same HTML): a table of contents is cut only where
Sphinx's own titles-only step would cut it the same way, and left whole where a page holds a
toctree of its own.

Even cut to titles, the tree of every page is every page's entry: resolved, rendered and then
parsed again by Furo (to add its expand buttons), which makes a build grow with pages × pages.
So the theme is handed one tree per folder, made for no page in particular (the links are
relative, so they are the same for every page of a folder), which Furo then turns into its
sidebar once; after the theme, each page's copy gets what Sphinx would have marked on it: the
``current`` classes on its entry and the lists holding it, ``#`` as its link and Furo's
``current-page``. That is text work on one small string per page. A tree with anything else to
mark (nested entries, a page listed twice, a link to a part of the page) is made the full way.
"""

from __future__ import annotations

import os
import posixpath
import re
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


THEME_CALL = {"collapse": False, "titles_only": True, "maxdepth": -1, "includehidden": True}  # Furo's call
NO_PAGE = "havoc-sidebar-no-page"  # a page name no project has: nothing in the tree is current
_TAG = re.compile(r"<(/?)(ul|li|a)\b([^>]*)>")
_CLASS = re.compile(r'\sclass="([^"]*)"')


class _SharedTree:
    """The page's ``toctree()`` for the theme: Furo's own call gets the folder's shared tree."""

    def __init__(self, app: Any, pagename: str, toctree: Callable[..., str]) -> None:
        self.app, self.pagename, self.toctree = app, pagename, toctree
        self.shared = False

    def __call__(self, **kwargs: Any) -> str:
        if kwargs != THEME_CALL:
            return self.toctree(**kwargs)
        self.shared = True
        folder = posixpath.dirname(self.pagename)
        cache = self.app.builder.__dict__.setdefault("_havoc_shared_trees", {})
        key = (folder, id(self.app.builder.env.tocs))
        if key not in cache:
            nowhere = posixpath.join(folder, NO_PAGE)
            cache[key] = _fast_toctree(self.app, lambda **kw: self.app.builder._get_local_toctree(nowhere, **kw))(
                **kwargs
            )
        return str(cache[key])

    def href(self) -> str:
        """The link to this page in the shared tree of its folder."""
        nowhere = posixpath.join(posixpath.dirname(self.pagename), NO_PAGE)
        return str(self.app.builder.get_relative_uri(nowhere, self.pagename))


def mark_current(tree: str, href: str) -> str | None:
    """``tree`` (a flat Furo sidebar made for no page) as Sphinx and Furo make it for the page
    linked as ``href``; None where that is not certain (then the tree is made the full way)."""
    if "has-children" in tree or "toctree-checkbox" in tree:
        return None
    target = f'<a class="reference internal" href="{href}">'
    if tree.count(target) != 1 or f'href="{href}#' in tree:
        return tree if target not in tree and f'href="{href}#' not in tree else None
    at = tree.index(target)
    stack: list[tuple[str, int, int]] = []  # open <ul>/<li>: name, start and end of the tag
    for m in _TAG.finditer(tree, 0, at):
        closing, name = m.group(1), m.group(2)
        if name == "a":
            continue
        if closing:
            if not stack or stack[-1][0] != name:
                return None
            stack.pop()
        else:
            stack.append((name, m.start(), m.end()))
    if not stack or stack[-1][0] != "li" or not any(name == "ul" for name, _, _ in stack):
        return None
    innermost = stack[-1][1]
    edits = [(at, at + len(target), '<a class="current reference internal" href="#">')]
    for name, start, end in stack:
        tag = tree[start:end]
        found = _CLASS.search(tag)
        classes = found.group(1).split() if found else []
        classes.append("current")
        if start == innermost:
            classes.append("current-page")
        attrs = f' class="{" ".join(classes)}"'
        new = tag[: found.start()] + attrs + tag[found.end() :] if found else f"<{name}{attrs}{tag[len(name) + 1 :]}"
        edits.append((start, end, new))
    for start, end, new in sorted(edits, reverse=True):
        tree = tree[:start] + new + tree[end:]
    return tree


def on_html_page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    toctree = context.get("toctree")
    if callable(toctree):
        context["toctree"] = _SharedTree(app, pagename, _fast_toctree(app, toctree))


def after_theme(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """Mark this page on the shared tree the theme made its sidebar from; give templates the
    page's own ``toctree()`` back."""
    shared = context.get("toctree")
    if not isinstance(shared, _SharedTree):
        return
    context["toctree"] = shared.toctree
    if not shared.shared or "furo_navigation_tree" not in context:
        return
    from furo.navigation import get_navigation_tree

    marked = mark_current(context["furo_navigation_tree"], shared.href())
    full = None
    if marked is None or os.environ.get("HAVOC_SIDEBAR_VERIFY"):
        full = get_navigation_tree(shared.toctree(**THEME_CALL))
        if marked is not None and marked != full:
            raise AssertionError(f"havoc: the shared sidebar of {pagename!r} differs from its own")
    context["furo_navigation_tree"] = marked if marked is not None else full


def setup_sidebar(app: Any) -> None:
    # around the theme's handler (priority 500), which renders the sidebar tree for every page
    app.connect("html-page-context", on_html_page_context, priority=400)
    app.connect("html-page-context", after_theme, priority=600)
