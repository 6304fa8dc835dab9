"""``havoc-overlay``: the errata and the (fan-made) solo variant as pages.

An overlay changes base rules by ID; its page shows each entry with what it changes (a link to
the base rule), its source, and, for a variant, the sections it adds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from havoc.sphinxext import labels as L
from havoc.sphinxext.base import HavocDirective
from havoc.sphinxext.domain import Obj
from havoc.sphinxext.rule import meta_line, numbered_title, rule_section

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class OverlayDirective(HavocDirective):
    """Render overlay ``ID`` (errata or variant): sources, new sections, then the changed rules."""

    required_arguments = 1

    def render(self) -> list[nodes.Node]:
        ctx = self.ctx
        rs = ctx.ruleset
        oid = self.arguments[0]
        overlay = rs.overlays.get(oid)
        if overlay is None:
            return self.problem(f"havoc-overlay: no overlay {oid!r} in ruleset {rs.id!r}")
        r = self.renderer()
        files: set[Path] = {ctx.path(overlay.loc)}
        title = ctx.title(oid, self.get_location())
        page = nodes.section(ids=[oid], classes=["havoc-overlay", f"havoc-{overlay.kind}"])
        page += nodes.title(title, title)
        self.note_object("section", oid, Obj(self.docname, oid, title, "", title, -1))
        page += meta_line(ctx, oid, [])
        if overlay.fan_made:
            warn = nodes.warning("", nodes.paragraph("", ctx.label(L.FAN_MADE)), classes=["havoc-fan-made"])
            page += warn
        if overlay.intro:
            page.extend(r.blocks(f"{oid}:intro", overlay.intro))
        if overlay.sources:
            items = []
            for key, meta in overlay.sources.items():
                extra = ", ".join(str(meta[k]) for k in ("publisher", "date") if meta.get(k))
                text = ctx.text(f"source:{key}:title", str(meta.get("title", ""))) + (f" ({extra})" if extra else "")
                items.append(nodes.list_item("", nodes.paragraph(text, text)))
            head = ctx.label(L.SOURCES)
            page += nodes.rubric(head, head)
            page += nodes.bullet_list("", *items, bullet="-")
        own: set[str] = set()
        if overlay.section_ids:
            group = nodes.section(ids=[f"{oid}-sections"])
            head = ctx.label(L.VARIANT_SECTIONS)
            group += nodes.title(head, head)
            for sid in overlay.section_ids:
                section = rs.sections[sid]
                stitle = ctx.title(sid, self.get_location())
                sec = nodes.section(ids=[sid], classes=["havoc-section"])
                sec += numbered_title(ctx, sid, stitle)
                self.note_object("section", sid, Obj(self.docname, sid, stitle, "", title, -1))
                if section.intro:
                    sec.extend(r.blocks(f"{sid}:intro", section.intro))
                for rid in section.rule_ids:
                    own.add(rid)
                    sec += rule_section(self, r, rs.rules[rid], title, files)
                group += sec
            page += group
        changes = [rid for rid in overlay.rule_ids if rid not in own]
        if changes:
            group = nodes.section(ids=[f"{oid}-changes"])
            if overlay.section_ids:
                head = ctx.label(L.VARIANT_CHANGES)
                group += nodes.title(head, head)
            for rid in changes:
                group += rule_section(self, r, rs.rules[rid], title, files)
            if overlay.section_ids:
                page += group
            else:
                page.extend(group.children)
        return self.finish([page], r, files)


def setup_overlay(app: Sphinx) -> None:
    app.add_directive("havoc-overlay", OverlayDirective)
