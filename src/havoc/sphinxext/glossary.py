"""``havoc-glossary``: the key terms with their definitions, in the build's language.

Each term gets the anchor ``term-<id>``; links to it elsewhere show its definition on hover and
tap. Every inflected form a reader may type (the catalog's ``search-forms``) becomes a search
index entry for the term, so "oddziałów" finds the Unit entry first.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from havoc.language.languages import collation_key
from havoc.sphinxext import labels as L
from havoc.sphinxext.base import HavocDirective
from havoc.sphinxext.context import Context
from havoc.sphinxext.domain import Obj
from havoc.sphinxext.rule import labelled, term_tip

if TYPE_CHECKING:
    from sphinx.application import Sphinx


# Polish alphabetical order (it also sorts English correctly).
def term_anchor(term_id: str) -> str:
    return f"term-{term_id}"


def search_entries(ctx: Context, term_id: str, anchor: str) -> addnodes.index:
    """Search-index entries (one per inflected form) pointing at ``anchor``."""
    entries = [("single", form, anchor, "main", None) for form in ctx.term_forms(term_id)]
    return addnodes.index(entries=entries)


class GlossaryDirective(HavocDirective):
    """Render every glossary term, alphabetically in the build's language."""

    def render(self) -> list[nodes.Node]:
        ctx = self.ctx
        rs = ctx.ruleset
        r = self.renderer()
        files: set[Path] = {ctx.glossary_file()}
        ctx.record("terms")
        out: list[nodes.Node] = []
        for term in sorted(rs.terms.values(), key=lambda t: collation_key(ctx.term_name(t.id), ctx.lang)):
            name = ctx.term_name(term.id)
            anchor = term_anchor(term.id)
            sec = nodes.section(ids=[anchor], classes=["havoc-glossary-entry"])
            sec += nodes.title(name, name)
            sec += search_entries(ctx, term.id, anchor)
            self.note_object("term", term.id, Obj(self.docname, anchor, name, term_tip(ctx, term.id)))
            plural = plural_line(ctx, term.id)
            if plural:
                sec += nodes.paragraph(plural, plural, classes=["havoc-plural"])
            sec.extend(r.blocks(f"term:{term.id}:definition", term.definition))
            if term.see:
                sec += labelled(ctx, L.GLOSSARY_SEE, *r.link_list(term.see), classes=["havoc-see"])
            out.append(sec)
        return self.finish(out, r, files)


def plural_line(ctx: Context, term_id: str) -> str:
    """The plural forms shown under a headword, or "" when they only repeat it.

    A mass noun ("Kontrola", "Control") has no plural of its own: printing "Kontrola, Kontrola"
    under the headword "Kontrola" tells the reader nothing and looks like a typo.
    """
    name = ctx.term_name(term_id)
    forms = [f for f in dict.fromkeys(ctx.term_name(term_id, n) for n in (2, 5)) if f != name]
    return ", ".join(forms)


def setup_glossary(app: Sphinx) -> None:
    app.add_directive("havoc-glossary", GlossaryDirective)
