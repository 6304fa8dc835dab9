"""One rule as a page section: its text, parameters, source, rulings, examples and checks.

Shared by the section pages and the overlay pages. The section's ID is the rule's ID, so
``move.html#battle-region-leave`` is the rule's address for as long as the ID lives.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes

from havoc.engine.rulebook.model import Example, Overlay, Rule, Source
from havoc.language import markup
from havoc.language.i18n import SOURCE_LANGUAGE
from havoc.sphinxext import labels as L
from havoc.sphinxext.domain import Obj
from havoc.sphinxext.render import Renderer, xref

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.writers.html5 import HTML5Translator

    from havoc.sphinxext.base import HavocDirective
    from havoc.sphinxext.context import Context


class details(nodes.General, nodes.Element):  # type: ignore[misc]
    """A block the reader opens on demand (HTML ``<details>``): the checks are long on a phone."""


class summary(nodes.General, nodes.TextElement):  # type: ignore[misc]
    """The always-visible line of a :class:`details` block."""


def _visit_details(self: HTML5Translator, node: details) -> None:
    extra = {"open": "open"} if node.get("open") else {}
    self.body.append(self.starttag(node, "details", **extra))


def _depart_details(self: HTML5Translator, node: details) -> None:
    self.body.append("</details>\n")


def _visit_summary(self: HTML5Translator, node: summary) -> None:
    self.body.append(self.starttag(node, "summary", ""))


def _depart_summary(self: HTML5Translator, node: summary) -> None:
    self.body.append("</summary>\n")


def _pass(self: Any, node: nodes.Node) -> None:
    """Other builders show the content without the wrapper."""


CHANGES_PAGE = "changes"  # the default of the Sphinx option havoc_changes_page


def change_anchor(entry_id: str) -> str:
    """An erratum's anchor on the changes page (``havoc.sphinxext.changes``)."""
    return f"change-{entry_id}"


def has_changes_page(env: BuildEnvironment) -> bool:
    """Whether this site has the changes page (a fixture site may not): only then do rule pages link to it."""
    return str(env.config.havoc_changes_page) in env.found_docs


def change_link(d: HavocDirective, r: Renderer, entry_id: str) -> nodes.paragraph | None:
    """The line on an amended rule's page leading to its entry on the changes page."""
    if not has_changes_page(d.env):
        return None
    text = d.ctx.label(L.CHANGES_TITLE)
    link = xref("change", entry_id, [nodes.inline(text, text)], r.docname, explicit=True)
    return labelled(d.ctx, L.CHANGES_LISTED, link, classes=["havoc-changes-link"])


def printed_text(d: HavocDirective, r: Renderer, rule: Rule) -> details | None:
    """The printed rule an erratum replaces, folded, so the reader can compare."""
    rs = d.ctx.ruleset
    target = rs.rules.get(rule.target or "") if rule.op == "replace" else None
    if target is None:
        return None
    box = details(classes=["havoc-printed-text"])
    head = f"{d.ctx.label(L.PRINTED_TEXT)}: {d.ctx.title(target.id, d.get_location())}"
    box += summary(head, head)
    box.extend(r.blocks(f"{target.id}:text", target.text))
    return cast("details", box)


def numbered_title(ctx: Context, ident: str, title: str) -> nodes.title:
    """A rule's or section's title with its display number ("11.4"), the one the sheet cites."""
    from havoc.engine.numbering import numbers

    number = numbers(ctx.ruleset).get(ident)
    if number is None:
        return nodes.title(title, title)
    return nodes.title("", "", nodes.inline(number, number, classes=["havoc-num"]), nodes.Text(" "), nodes.Text(title))


def labelled(ctx: Context, msgid: str, *body: nodes.Node, classes: list[str] | None = None) -> nodes.paragraph:
    """A paragraph "Label: body" (the label is a site label, translated)."""
    text = ctx.label(msgid) + ": "
    para = nodes.paragraph("", "", nodes.strong(text, text), *body, classes=classes or [])
    return para


def source_nodes(ctx: Context, source: Source, overlay: Overlay | None) -> list[nodes.Node]:
    """Where a rule comes from: the source document (translated title) and its heading."""
    parts: list[list[nodes.Node]] = []
    if source.seed:
        ctx.record("sources")
        doc = ctx.ruleset.sources.get(source.seed, {})
        title = str(doc.get("title", source.seed))
        parts.append([nodes.emphasis("", ctx.text(f"source:{source.seed}:title", title))])
    if source.doc:
        meta = (overlay.sources if overlay else {}).get(source.doc, {})
        title = str(meta.get("title", source.doc))
        extra = ", ".join(str(meta[k]) for k in ("publisher", "date") if meta.get(k))
        text = ctx.text(f"source:{source.doc}:title", title) + (f" ({extra})" if extra else "")
        parts.append([nodes.emphasis("", text)])
    if source.heading:
        from havoc.language.languages import quote

        quoted = quote(source.heading, ctx.lang)
        parts.append([nodes.Text(f"{ctx.label(L.HEADING)} {quoted}")])
    if source.note and ctx.lang == SOURCE_LANGUAGE:  # notes on a source are in the rules' language
        parts.append([nodes.Text(source.note)])
    return Renderer._join(parts, ", ")


def meta_line(ctx: Context, rule_id: str, source: list[nodes.Node]) -> details:
    """The small line under a title: the rule's ID (to cite it) and its source.

    Folded on a phone (``havoc-fold``: open without the script and on wide screens, in print).
    """
    head = ctx.label(L.RULE_ID) + (" · " + ctx.label(L.SOURCE) if source else "")
    box = details(classes=["havoc-meta-box", "havoc-fold"], open=True)
    box += summary(head, head, classes=["havoc-meta-summary"])
    para = nodes.paragraph("", "", classes=["havoc-meta"])
    para += nodes.inline("", ctx.label(L.RULE_ID) + " ", classes=["havoc-meta-label"])
    para += nodes.literal(rule_id, rule_id, classes=["havoc-id"])
    if source:
        para += nodes.Text(" · ")
        para += nodes.inline("", ctx.label(L.SOURCE) + ": ", classes=["havoc-meta-label"])
        para += source
    box += para
    return cast("details", box)


def rule_section(d: HavocDirective, r: Renderer, rule: Rule, group: str, files: set[Path]) -> nodes.section:
    """The whole of one rule, as a section whose ID is the rule's ID."""
    ctx = d.ctx
    rs = ctx.ruleset
    ctx.record("rule", rule.id)
    title = ctx.title(rule.id, d.get_location())
    sec = nodes.section(ids=[rule.id], classes=["havoc-rule"])
    sec += numbered_title(ctx, rule.id, title)
    d.note_object("rule", rule.id, Obj(d.docname, rule.id, title, "", group, ctx.order().get(rule.id, 0)))
    overlay = rs.overlays.get(rule.origin)
    sec += meta_line(ctx, rule.id, source_nodes(ctx, rule.source, overlay))
    if rule.op and rule.op != "add" and rule.target:
        word = {"amend": L.AMENDS, "replace": L.REPLACES, "remove": L.REMOVES}[rule.op]
        sec += labelled(ctx, word, r.rule_link(rule.target), classes=["havoc-op-note"])
    elif (
        rule.op == "add"
        and rule.section_id
        and rule.section_id in rs.sections
        and rs.sections[rule.section_id].origin == "base"
    ):
        sec += labelled(ctx, L.ADDS_TO, r.rule_link(rule.section_id), classes=["havoc-op-note"])
    if rule.interpretation:
        note = nodes.note("", nodes.paragraph("", ctx.label(L.INTERPRETATION)), classes=["havoc-interpretation"])
        sec += note
    sec.extend(r.blocks(f"{rule.id}:text", rule.text))
    printed = (
        printed_text(d, r, rule)
        if rs.overlays.get(rule.origin, None) and rs.overlays[rule.origin].kind == "errata"
        else None
    )
    if printed is not None:
        sec += printed
    if rule.table is not None:
        sec += chart_table(ctx, rule)
    if rule.params:
        sec += params_paragraph(ctx, r, rule)
    sec.extend(overlay_notes(d, r, rule, files))
    for ex in rule.examples:
        sec += example_box(d, r, ex)
    if rule.check:
        sec += check_details(d, r, rule, files)
    elif rule.text_only:  # the completeness gate's mark: the reason is for maintainers
        sec += nodes.paragraph("", ctx.label(L.NOT_CHECKED), classes=["havoc-text-only"])
    if rule.see:
        sec += labelled(ctx, L.SEE_ALSO, *r.link_list(rule.see), classes=["havoc-see"])
    return sec


def chart_table(ctx: Context, rule: Rule) -> nodes.container:
    """A rule's chart as a table; words in the reader's language, numbers as printed.

    Wrapped in a scrolling container so a wide chart never widens the page on a phone.
    """
    from havoc.language.i18n import has_words

    table = rule.table
    assert table is not None

    def cell(text: str) -> str:
        return ctx.text(f"{rule.id}:table", text) if has_words(text) else text

    group = nodes.tgroup(cols=len(table.columns))
    group += [nodes.colspec(colwidth=1) for _ in table.columns]
    head = nodes.thead()
    hrow = nodes.row()
    for col in table.columns:
        hrow += nodes.entry("", nodes.paragraph("", cell(col)))
    head += hrow
    group += head
    body = nodes.tbody()
    for row in table.rows:
        brow = nodes.row()
        for value in row:
            brow += nodes.entry("", nodes.paragraph("", cell(value)))
        body += brow
    group += body
    node = nodes.table("", group, classes=["havoc-chart"])
    return nodes.container("", node, classes=["havoc-chart-scroll"])


def params_paragraph(ctx: Context, r: Renderer, rule: Rule) -> nodes.paragraph:
    """The numbers this rule defines, each with what it counts: the values the assistant uses."""
    parts: list[list[nodes.Node]] = []
    for name, p in rule.params.items():
        value = r.value(p.value)
        if isinstance(p.value, int) and not isinstance(p.value, bool) and p.unit:
            value = f"{value} {ctx.unit_text(p.unit, p.value)}".rstrip()
        parts.append([r.param_name(name), nodes.Text(": "), nodes.inline(value, value, classes=["havoc-param"])])
    return labelled(ctx, L.PARAMETERS, *Renderer._join(parts, "; "), classes=["havoc-params"])


def overlay_notes(d: HavocDirective, r: Renderer, rule: Rule, files: set[Path]) -> list[nodes.Node]:
    """Rulings that amend this base rule (in full), and variants that replace or drop it (as links)."""
    ctx = d.ctx
    rs = ctx.ruleset
    if rule.origin != "base":
        return []
    out: list[nodes.Node] = []
    ctx.record("view", rule.id)
    base = rs.view()
    for ruling in base.amendments.get(rule.id, ()):
        ctx.record("rule", ruling.id)
        box = nodes.admonition(classes=["havoc-ruling", "note"])
        head = f"{ctx.label(L.AMENDED_BY)}: {ctx.title(ruling.id, d.get_location())}"
        box += nodes.title(head, head)
        box.extend(r.blocks(f"{ruling.id}:text", ruling.text))
        box += meta_line(ctx, ruling.id, source_nodes(ctx, ruling.source, rs.overlays.get(ruling.origin)))
        back = change_link(d, r, ruling.id)
        if back is not None:
            box += back
        out.append(box)
    for overlay in rs.overlays.values():
        view = base if overlay.kind == "errata" else rs.view(overlay.id)
        if rule.id in view.replaced_by:
            word = L.REPLACES if overlay.kind == "errata" else L.REPLACED_BY
            out.append(labelled(ctx, word, r.rule_link(view.replaced_by[rule.id].id), classes=["havoc-op-note"]))
            back = change_link(d, r, view.replaced_by[rule.id].id) if overlay.kind == "errata" else None
            if back is not None:
                out.append(back)
        elif rule.id in view.removed:
            out.append(labelled(ctx, L.REMOVED_BY, r.rule_link(overlay.id), classes=["havoc-op-note"]))
    return out


def example_box(d: HavocDirective, r: Renderer, ex: Example) -> details:
    """A worked example: the position in short, the question and the expected answer.

    Folded on a phone, where a rule page would otherwise be mostly examples; open on a wide
    screen, without the script, when linked to, and in print.
    """
    ctx = d.ctx
    box = details(ids=[ex.id], classes=["admonition", "havoc-example", "havoc-fold"], open=True)
    head = f"{ctx.label(L.EXAMPLE)}: {ctx.text(f'{ex.id}:title', ex.title, d.get_location())}"
    box += summary(head, head, classes=["admonition-title"])
    if ex.text:
        box.extend(r.blocks(f"{ex.id}:text", ex.text))
    facts = nodes.definition_list(classes=["havoc-example-facts"])
    regions = dict(ex.position.get("regions") or {}) if ex.position else {}
    r.regions = r.name_regions([*map(str, regions), *_region_words(r, ex.query)])
    if ex.position:
        body = r.mapping_list(ex.position, ["havoc-position"])
        facts += _item(ctx, L.POSITION, body)
        if any(str(name).startswith("example-") for name in regions):
            note = nodes.paragraph("", "", nodes.Text(ctx.label(L.EXAMPLE_REGIONS)), classes=["havoc-note"])
            facts[-1][-1] += note
    if ex.query:
        query = dict(ex.query)
        ask = query.pop("ask", None)
        para = nodes.paragraph()
        if ask is not None:
            para += nodes.inline("", "", r.kind(str(ask)), classes=["havoc-ask"])
            decisions = ctx.words.get("decisions", {})
            decision = decisions.get(str(query.pop("decide", ""))) if "decide" in query else None
            if decision:  # a decision the game makes for a side (the solo Trogs): what, in words
                para += nodes.Text(" — " + ctx.label(decision))
            if query:
                para += nodes.Text(" — ")
        para.extend(r.data(query))
        facts += _item(ctx, L.QUESTION, para)
    facts += _item(ctx, L.ANSWER, *answer_nodes(ctx, r, ex.expect))
    r.regions = {}
    box += facts
    return cast("details", box)


def _region_words(r: Renderer, query: dict[str, Any]) -> list[str]:
    """Region IDs a question names that the position may not list (an example's own IDs; not
    an invented Structure or Skill, which the game names itself)."""
    return [
        str(v)
        for k, v in query.items()
        if isinstance(v, str) and str(v).startswith("example-") and r.named(str(k), v) is None
    ]


def answer_nodes(ctx: Context, r: Renderer, expect: dict[str, Any]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    rest = dict(expect)
    verdict = rest.pop("verdict", None)
    if verdict is not None:
        word = (
            ctx.label(L.VERDICT_YES if verdict else L.VERDICT_NO)
            if isinstance(verdict, bool)
            else ctx.label(L.VERDICT_NO_UNLESS)
            if verdict == "no-unless"
            else str(verdict)
        )
        yes = verdict is True
        out.append(
            nodes.paragraph(
                "",
                "",
                nodes.strong(word, word, classes=["havoc-verdict", "havoc-verdict-yes" if yes else "havoc-verdict-no"]),
            )
        )
    figures = rest.pop("figures", None)
    if isinstance(figures, dict) and figures:
        parts = [[r.figure(str(k)), nodes.Text(": "), *r.data(v)] for k, v in figures.items()]
        out.append(labelled(ctx, L.FIGURES, *Renderer._join(parts, "; ")))
    rules = rest.pop("rules", None)
    if rules:
        out.append(labelled(ctx, L.DECIDED_BY, *r.link_list(rules)))
    if rest:
        out.append(r.mapping_list(rest, []))
    return out


def _item(ctx: Context, msgid: str, *body: nodes.Node) -> nodes.definition_list_item:
    text = ctx.label(msgid)
    return nodes.definition_list_item("", nodes.term(text, text), nodes.definition("", *body))


def check_details(d: HavocDirective, r: Renderer, rule: Rule, files: set[Path]) -> details:
    """What the assistant checks for this rule, in words built from the facts' descriptions."""
    ctx = d.ctx
    check = rule.check
    assert check is not None
    box = details(classes=["havoc-check"])
    text = ctx.label(L.CHECKS)
    box += summary(text, text)
    body = nodes.definition_list()
    if check.queries:
        body += _item(
            ctx,
            L.CONSULTED_FOR,
            nodes.paragraph("", "", *Renderer._join([[r.kind(q)] for q in check.queries], ", ")),
        )
    if check.applies_if is not None:
        body += _item(ctx, L.APPLIES_IF, *r.expr_block(check.applies_if))
    if check.requires is False:  # "Allowed: never", not "Allowed only when: no"
        body += _item(ctx, L.ALLOWED, nodes.paragraph("", ctx.label(L.NEVER)))
    elif check.requires is not None:
        body += _item(ctx, L.REQUIRES, *r.expr_block(check.requires))
    if check.figures:
        items = []
        for name, expr in check.figures.items():
            para = nodes.paragraph("", "", r.figure(name), nodes.Text(" = "))
            para.extend(r.expr_inline(expr))
            items.append(nodes.list_item("", para))
        body += _item(ctx, L.FIGURES, nodes.bullet_list("", *items, bullet="-"))
    if check.hint:
        body += _item(ctx, L.HINT, nodes.paragraph("", "", *r.inline_text(f"{rule.id}:hint", check.hint)))
    box += body
    return cast("details", box)


def term_tip(ctx: Context, term_id: str) -> str:
    """A term's definition as plain text (the tooltip of every link to it)."""
    term = ctx.ruleset.terms[term_id]
    text = ctx.text(f"term:{term_id}:definition", term.definition)
    return markup.render_plain(text, ctx.ruleset.param, ctx.translator.plural_index)


def setup_rule(app: Sphinx) -> None:
    passthrough = (_pass, _pass)
    app.add_node(
        details,
        html=(_visit_details, _depart_details),
        latex=passthrough,
        text=passthrough,
        man=passthrough,
        texinfo=passthrough,
    )
    app.add_node(
        summary,
        html=(_visit_summary, _depart_summary),
        latex=passthrough,
        text=passthrough,
        man=passthrough,
        texinfo=passthrough,
    )
