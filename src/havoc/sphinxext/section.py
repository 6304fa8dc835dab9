"""``havoc-section``: one section of the rulebook as a page (its rules, in order)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from havoc.sphinxext import labels as L
from havoc.sphinxext.base import HavocDirective
from havoc.sphinxext.domain import Obj
from havoc.sphinxext.glossary import search_entries
from havoc.sphinxext.rule import labelled, meta_line, numbered_title, rule_section, source_nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class SectionDirective(HavocDirective):
    """Render base section ``ID`` with every rule in it; the page's anchors are the rule IDs."""

    required_arguments = 1

    def render(self) -> list[nodes.Node]:
        ctx = self.ctx
        rs = ctx.ruleset
        sid = self.arguments[0]
        section = rs.sections.get(sid)
        if section is None:
            return self.problem(f"havoc-section: no section {sid!r} in ruleset {rs.id!r}")
        r = self.renderer()
        files: set[Path] = {ctx.path(section.loc)}
        title = ctx.title(sid, self.get_location())
        sec = nodes.section(ids=[sid], classes=["havoc-section"])
        sec += numbered_title(ctx, sid, title)
        self.note_object("section", sid, Obj(self.docname, sid, title, "", title, -1))
        sec += meta_line(ctx, sid, source_nodes(ctx, section.source, None))
        if section.intro:
            sec.extend(r.blocks(f"{sid}:intro", section.intro))
        # A term's search forms also lead to the rules that say most about it (its `see`).
        homes: dict[str, str] = {}
        for term in rs.terms.values():
            for rid in term.see:
                if rid in section.rule_ids:
                    homes.setdefault(term.id, rid)
        ctx.record("homes", sid)
        for rid in section.rule_ids:
            rule_node = rule_section(self, r, rs.rules[rid], title, files)
            for term_id, home in sorted(homes.items()):
                if home == rid:
                    rule_node.insert(1, search_entries(ctx, term_id, rid))
            sec += rule_node
        added = [
            rule.id
            for rule in rs.rules.values()
            if rule.op == "add" and rule.section_id == sid and rule.origin != "base"
        ]
        if added:
            sec += labelled(ctx, L.VARIANT_CHANGES, *r.link_list(added), classes=["havoc-op-note"])
            for rid in added:
                ctx.record("rule", rid)
        return self.finish([sec], r, files)


def setup_section(app: Sphinx) -> None:
    app.add_directive("havoc-section", SectionDirective)
