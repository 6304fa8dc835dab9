"""``havoc-contents``: the book's outline as toctrees (one per part), from the model.

The outline lives in ``ruleset.yaml``; writing it again in a page would let the two disagree.
The generated section and overlay pages are listed here, so the sidebar follows the rulebook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes

from havoc.sphinxext import labels as L
from havoc.sphinxext.base import HavocDirective
from havoc.sphinxext.render import mark_untranslatable, xref

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class generated_toctree(addnodes.toctree):
    """A toctree whose caption is already in the build's language (from rules.po).

    Sphinx would otherwise extract the caption into site.pot and look it up in site.po.
    """

    def preserve_original_messages(self) -> None:
        pass

    def extract_original_messages(self) -> list[str]:
        return []


def toctree(parent: str, docnames: list[str], caption: str) -> nodes.compound:
    """A toctree node as Sphinx's ``toctree`` directive builds it."""
    node = generated_toctree()
    node["parent"] = parent
    node["entries"] = [(None, d) for d in docnames]
    node["includefiles"] = list(docnames)
    node["maxdepth"] = 1
    node["caption"] = caption
    node["rawcaption"] = caption
    node["glob"] = False
    node["hidden"] = False
    node["includehidden"] = False
    node["numbered"] = 0
    node["titlesonly"] = True
    node["rawentries"] = []
    return nodes.compound("", node, classes=["toctree-wrapper", "havoc-contents"])


class ContentsDirective(HavocDirective):
    """The parts and sections of the ruleset, then the glossary, errata and variants."""

    # glossary: the docname of the glossary page; home: the page is the ruleset's home, titled
    # with the ruleset's title in the reader's language (a generated site of a second ruleset)
    option_spec = {"glossary": str, "home": directives.flag}  # noqa: RUF012

    def render(self) -> list[nodes.Node]:
        ctx = self.ctx
        rs = ctx.ruleset
        folder = self.config.havoc_pages_dir
        r = self.renderer()
        ctx.record("outline")
        out: list[nodes.Node] = []
        for part in rs.parts:
            caption = ctx.text(f"{part.id}:title", part.title, self.get_location())
            out.append(toctree(self.docname, [f"{folder}/{sid}" for sid in part.section_ids], caption))
        extra = [self.options["glossary"]] if "glossary" in self.options else []
        extra += [f"{folder}/{oid}" for oid in rs.overlays]
        if extra:
            out.append(toctree(self.docname, extra, ctx.label(L.CONTENTS_OVERLAYS)))
        text, az = ctx.label(L.RULE_INDEX), ctx.label(L.AZ_INDEX)
        out.append(
            nodes.paragraph(
                "",
                "",
                xref("index", "ruleindex", [nodes.inline(text, text)], self.docname),
                nodes.Text(" · "),
                xref("index", "azindex", [nodes.inline(az, az)], self.docname),
                classes=["havoc-index-link"],
            )
        )
        done = self.finish(out, r, {ctx.ruleset_file()})
        if "home" not in self.options:
            return done
        title = ctx.text("ruleset:title", rs.title, self.get_location())
        home = nodes.section(ids=["home"], classes=["havoc-home"])
        home += nodes.title(title, title)
        mark_untranslatable(home)  # already in the reader's language, from rules.po
        home.extend(done)
        return [home]


def _skip(self: object, node: nodes.Node) -> None:
    raise nodes.SkipNode


def setup_contents(app: Sphinx) -> None:
    # Registered so docutils knows the node; like a toctree, it is never written (resolved before).
    skip = (_skip, None)
    app.add_node(generated_toctree, html=skip, latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_directive("havoc-contents", ContentsDirective)
