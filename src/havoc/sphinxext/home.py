"""``havoc-search-box``: a large search field, for the home page (a player arrives to look a rule up).

The field submits to the site's search page (``search.html?q=…``), where the rule search answers;
its words are the search's own labels in the build's language.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class SearchBox(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        from havoc.search.site import labels

        words = labels(self.config.language or "en")
        up = "../" * self.env.docname.count("/")
        placeholder = html.escape(words["placeholder"])
        form = (
            f'<form class="havoc-home-search" method="get" action="{up}search.html" role="search">'
            f'<input type="search" name="q" placeholder="{placeholder}" aria-label="{placeholder}" '
            'enterkeyhint="search" autocomplete="off">'
            "</form>"
        )
        return [nodes.raw("", form, format="html")]


class Rulebooks(SphinxDirective):
    """The other rulebooks built beside this one, on the home page (the menu lists them last)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from havoc.sphinxext import labels as L
        from havoc.sphinxext.context import get_context
        from havoc.sphinxext.langswitch import ruleset_links
        from havoc.sphinxext.render import mark_untranslatable

        others = [book for book in ruleset_links(self.env.app, self.env.docname) if not book["current"]]
        if not others:
            return []
        head = get_context(self.env).label(L.RULEBOOKS)
        items = [
            nodes.list_item(
                "",
                nodes.paragraph(
                    "", "", nodes.reference(book["title"], book["title"], refuri=book["url"], classes=["havoc-ruleset"])
                ),
            )
            for book in others
        ]
        out = nodes.container(
            "", nodes.rubric(head, head), nodes.bullet_list("", *items), classes=["havoc-home-rulebooks"]
        )
        mark_untranslatable(out)  # titles and the label are already in the reader's language
        return [out]


class SheetLink(SphinxDirective):
    """A plain line to the printable sheet of the page's language, when one was built (the menu
    links it too, but a player reads the page, not the menu)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from havoc.sphinxext import labels as L
        from havoc.sphinxext.context import get_context
        from havoc.sphinxext.render import mark_untranslatable

        if not self.config.havoc_sheet_file:
            return []
        ctx = get_context(self.env)
        before, _, after = ctx.label(L.SHEET_LINE).partition("{sheet}")
        link = ctx.label(L.SHEET_LINK)
        up = "../" * self.env.docname.count("/")
        para = nodes.paragraph("", "", classes=["havoc-sheet-link"])
        para += nodes.Text(before)
        para += nodes.reference(link, link, refuri=f"{up}sheet.pdf")
        para += nodes.Text(after)
        mark_untranslatable(para)  # already in the reader's language
        return [para]


def setup_home(app: Sphinx) -> None:
    app.add_directive("havoc-search-box", SearchBox)
    app.add_directive("havoc-rulebooks", Rulebooks)
    app.add_directive("havoc-sheet-link", SheetLink)
