"""What every page a game's code writes and its reader's device answers has in common: the
page's shell (heading, introduction, the data its script reads, the engine's status line), the
test that a site belongs to the game, its listing in the sidebar and the game's static folder.

The Trogs' page and the chart lookups are such pages; each keeps only what is its own (its
words, its data, its script).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from havoc.sphinxext.context import get_context
from havoc.sphinxext.listed import list_page

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from havoc.sphinxext.context import Context


def ours(app: Sphinx, package: str) -> Context | None:
    """The build's context when its ruleset is the game ``package``'s, else None."""
    ctx = get_context(app.env)
    return ctx if ctx.ruleset.game == package else None


def lister(package: str, page: str, title: str) -> Callable[[Sphinx], None]:
    """A ``builder-inited`` handler listing ``page`` in every page's sidebar and the sitemap."""

    def list_in_sidebar(app: Sphinx) -> None:
        if ours(app, package) is not None and app.builder.format == "html":
            list_page(app, page, title)

    return list_in_sidebar


def static_adder(package: str, folder: Path) -> Callable[[Sphinx, Any], None]:
    """A ``config-inited`` handler adding the game's ``folder`` of scripts and styles to its own
    sites only (other games' sites never load them)."""

    def add_static(app: Sphinx, config: Any) -> None:
        from havoc.engine import rulebook
        from havoc.sphinxext.context import rules_root

        root = rules_root(config)
        if rulebook.load(config.havoc_ruleset or rulebook.default_ruleset(root), root).game == package:
            config.html_static_path = [*config.html_static_path, str(folder)]

    return add_static


def page_body(
    words: Mapping[str, str], box: tuple[str, str], state: tuple[str, str], data: Any, compact: bool = False
) -> str:
    """The page: its title and introduction (``words``), the box its script fills (``box``: class
    and id) holding the data as JSON (id ``<box id>-data``), and the engine's status line
    (``state``: class and id) saying it is starting."""
    separators = (",", ":") if compact else None
    blob = json.dumps(data, ensure_ascii=False, separators=separators).replace("</", "<\\/")
    (box_class, box_id), (state_class, state_id) = box, state
    return (
        f"<h1>{html.escape(words['title'])}</h1>"
        f"<p>{html.escape(words['intro'])}</p>"
        f'<div class="{box_class}" id="{box_id}">'
        f'<script type="application/json" id="{box_id}-data">{blob}</script>'
        f'<p class="{state_class}" id="{state_id}" role="status">{html.escape(words["engine-loading"])}</p>'
        "</div>"
    )
