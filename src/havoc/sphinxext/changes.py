"""``havoc-changes``: the changes since the printed rulebook, one entry per erratum or ruling.

A player holding the printed rulebook wants to see, in one place, what the FAQ and the
designer's rulings change. The page groups the entries of every errata overlay by their source
(its title and date in the reader's language; a source without a date says so), and each entry
links to the rule it changes and to the ruling in full. Each entry is a ``change`` object of the
havoc domain, so an amended rule's page links back to it (:func:`change_link`); where an entry
replaces a rule, the printed text it replaces is shown folded.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from havoc.engine.rulebook.model import Overlay, Rule
from havoc.language.dates import format_date
from havoc.sphinxext import labels as L
from havoc.sphinxext.base import HavocDirective
from havoc.sphinxext.domain import Obj
from havoc.sphinxext.render import Renderer
from havoc.sphinxext.rule import CHANGES_PAGE, change_anchor, labelled, printed_text

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from havoc.sphinxext.context import Context

UNSOURCED = ""  # the group of entries that name no source document


def source_date(ctx: Context, meta: Mapping[str, object]) -> str:
    """A source's date in the reader's language, or the words for "date unknown" (never invented)."""
    return format_date(meta.get("date"), ctx.lang) or ctx.label(L.DATE_UNKNOWN)


def errata(ctx: Context) -> list[Overlay]:
    return [o for o in ctx.ruleset.overlays.values() if o.kind == "errata"]


class ChangesDirective(HavocDirective):
    """Every entry of the errata overlays, grouped by source in the overlay's order of sources."""

    def render(self) -> list[nodes.Node]:
        ctx = self.ctx
        rs = ctx.ruleset
        r = self.renderer()
        files: set[Path] = set()
        out: list[nodes.Node] = []
        for overlay in errata(ctx):
            files.add(ctx.path(overlay.loc))
            groups: dict[str, list[Rule]] = {key: [] for key in overlay.sources}
            for rid in overlay.rule_ids:
                rule = rs.rules[rid]
                doc = rule.source.doc or UNSOURCED
                groups.setdefault(doc if doc in overlay.sources else UNSOURCED, []).append(rule)
            for key, rules in groups.items():
                if rules:
                    out.append(self.group(r, overlay, key, rules))
        return self.finish(out, r, files)

    def group(self, r: Renderer, overlay: Overlay, key: str, rules: list[Rule]) -> nodes.section:
        """One source: its title, publisher and date, then its entries."""
        ctx = self.ctx
        meta = overlay.sources.get(key, {})
        title = ctx.text(f"source:{key}:title", str(meta.get("title", key))) if key else ctx.label(L.SOURCES)
        sec = nodes.section(ids=[f"changes-{key or 'unsourced'}"], classes=["havoc-changes-source"])
        sec += nodes.title(title, title)
        line = " · ".join(x for x in (str(meta.get("publisher") or ""), source_date(ctx, meta)) if x)
        sec += nodes.paragraph(line, line, classes=["havoc-changes-date"])
        for rule in rules:
            sec += self.entry(r, rule, title)
        return sec

    def entry(self, r: Renderer, rule: Rule, group: str) -> nodes.section:
        """One erratum: what it changes (a link to the rule), the change in words, the ruling in full."""
        ctx = self.ctx
        anchor = change_anchor(rule.id)
        title = ctx.title(rule.id, self.get_location())
        sec = nodes.section(ids=[anchor], classes=["havoc-change"])
        sec += nodes.title(title, title)
        self.note_object("change", rule.id, Obj(self.docname, anchor, title, "", group))
        ctx.record("rule", rule.id)
        if rule.target and rule.op in ("amend", "replace", "remove"):
            word = {"amend": L.AMENDS, "replace": L.REPLACES, "remove": L.REMOVES}[rule.op]
            sec += labelled(ctx, word, r.rule_link(rule.target), classes=["havoc-op-note"])
        if rule.summary:
            sec += nodes.paragraph("", "", *r.inline_text(f"{rule.id}:summary", rule.summary))
        else:
            sec.extend(r.blocks(f"{rule.id}:text", rule.text))
        sec += labelled(ctx, L.CHANGE_IN_FULL, r.rule_link(rule.id), classes=["havoc-see"])
        box = printed_text(self, r, rule)
        if box is not None:
            sec += box
        return sec


def setup_changes(app: Sphinx) -> None:
    app.add_config_value("havoc_changes_page", CHANGES_PAGE, "env", types=[str])
    app.add_directive("havoc-changes", ChangesDirective)
