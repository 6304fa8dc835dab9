"""Turn a layout, the rules and one language into the sheet's HTML.

The HTML is the single form of the sheet: WeasyPrint prints it to PDF, and the same file is a
standalone web page with a print stylesheet. Everything shown is looked up here in the
catalogs (summaries, titles, term names and the layout's headings), so a sheet can never say
something the rules do not.
"""

from __future__ import annotations

import datetime as dt
import html
import os
import re
from dataclasses import dataclass, field
from importlib import resources

from havoc.engine.numbering import numbers
from havoc.engine.rulebook.model import Ruleset
from havoc.language import markup
from havoc.language.dates import format_date
from havoc.language.i18n import Translator, ui
from havoc.language.languages import REGISTRY
from havoc.quickref.layout import MIN_PT as MIN_PT  # re-exported: the sheet's smallest type
from havoc.quickref.layout import Block, Item, Layout

# Type sizes in points. The sheet never goes below MIN_PT (havoc.quickref.layout); when the
# content does not fit two pages the build fails instead of shrinking (see havoc.quickref.pdf).
BODY_PT = 7.6
ID_PT = 7.0
LEADING = 1.2  # line height as a multiple of the body size
SHORT_BLOCK = 5  # entries; a block this short is kept in one column

# For splitting a full-width strip between its columns: the characters of body text that fill
# the page's whole width (A4 less margins, DejaVu Sans Condensed at BODY_PT averages about half
# an em a character) and what each line loses to its square, gap and rule ID.
PAGE_CHARS = 150
LINE_LOSS = 6
_TAG = re.compile(r"<[^>]+>")
_ENTITY = re.compile(r"&[#\w]+;")

_MARKS = {"decimal": lambda n: str(n), "upper-alpha": lambda n: chr(ord("A") + n - 1)}


@dataclass(slots=True)
class Lookup:
    """A translator that also counts which texts fell back to English."""

    tr: Translator
    ruleset: Ruleset
    missing: list[str] = field(default_factory=list)
    used: int = 0

    def text(self, context: str, msgid: str) -> str:
        self.used += 1
        catalog = self.tr.catalog
        if catalog is not None and (self.tr.key(context), msgid) not in catalog.singular:
            self.missing.append(context)
        return self.tr.text(context, msgid)

    def term(self, term_id: str) -> str:
        self.used += 1
        term = self.ruleset.terms[term_id]
        catalog = self.tr.catalog
        if catalog is not None and (self.tr.key(f"term:{term_id}:name"), term.name) not in catalog.plural:
            self.missing.append(f"term:{term_id}:name")
        return self.tr.term_name(self.ruleset, term_id)


# Polish typesetting never leaves a one-letter word (a, i, o, u, w, z) at the end of a line.
_HANGING = {code: re.compile(rf"(?<![\w\u00a0])([{lang.hanging}]) ") for code, lang in REGISTRY.items() if lang.hanging}


def typeset(text: str, lang: str) -> str:
    """Escape text for HTML and tie what the language's typesetting keeps together."""
    out = html.escape(text, quote=False)
    rule = _HANGING.get(lang)
    return rule.sub("\\1\u00a0", out) if rule else out


def inline_html(inlines: tuple[markup.Inline, ...], ruleset: Ruleset, tr: Translator) -> str:
    """Markup to HTML: numbers that are rule facts in bold, links as their label."""
    out: list[str] = []
    after_value = False
    for piece in inlines:
        if isinstance(piece, markup.Text):
            text = typeset(piece.text, tr.lang)
            if after_value and text.startswith(" "):
                text = "\u00a0" + text[1:]  # a number stays on the line of what it counts
            out.append(text)
        elif isinstance(piece, markup.Emph):
            out.append(f"<em>{typeset(piece.text, tr.lang)}</em>")
        elif isinstance(piece, markup.Param):
            out.append(f'<b class="n">{html.escape(markup.format_value(ruleset.param(piece.name)))}</b>')
        elif isinstance(piece, markup.PluralWord):
            out.append(html.escape(markup.choose_form(piece.forms, ruleset.param(piece.name), tr.plural_index)))
        else:
            # A link is its label on paper (no wrapper: WeasyPrint hyphenates badly across inline boxes).
            out.append(typeset(piece.label, tr.lang))
        after_value = isinstance(piece, markup.Param)
    return "".join(out)


def text_html(text: str, ruleset: Ruleset, tr: Translator) -> str:
    """A (short) text as inline HTML; paragraphs and list items are run together with spaces."""
    parts: list[str] = []
    for block in markup.parse(text):
        if isinstance(block, markup.Paragraph):
            parts.append(inline_html(block.inlines, ruleset, tr))
        else:
            parts.extend(inline_html(i, ruleset, tr) for i in block.items)
    return " ".join(parts)


@dataclass(slots=True)
class _Unit:
    """One entry of a list block: its HTML, and the HTML of each line or heading it shows."""

    html: str
    pieces: list[str]
    group: bool

    def lines(self, width: float) -> int:
        """About how many lines it takes in a column ``width`` of the page wide."""
        chars = max(10, int(PAGE_CHARS * width) - LINE_LOSS)
        total = 0
        for piece in self.pieces:
            for entry in piece.split("<li ") if "<li " in piece else [piece]:
                text = _ENTITY.sub("x", _TAG.sub("", entry))
                if text.strip():
                    total += -(-len(text) // chars)
        return total


def _partition(sizes: list[int], parts: int) -> list[tuple[int, int]]:
    """Split ``sizes`` into at most ``parts`` runs, in order, the tallest as short as can be.

    Earlier runs take as much as that height allows (as balanced columns fill): ``(start, end)``
    index pairs, always ``parts`` of them (trailing ones may be empty).
    """

    def fill(height: int) -> list[tuple[int, int]] | None:
        runs, start, used = [], 0, 0
        for i, size in enumerate(sizes):
            if used + size > height and i > start:
                runs.append((start, i))
                start, used = i, 0
            used += size
        runs.append((start, len(sizes)))
        return runs if len(runs) <= parts else None

    height = max(sizes, default=0)
    while (runs := fill(height)) is None:
        height += 1
    n = len(sizes)
    return runs + [(n, n)] * (parts - len(runs))


def _ref(number: str) -> str:
    """A line's reference: the rule's display number on the site ("§11.4"), small and grey."""
    return f'<span class="rid">§{html.escape(number)}</span>'


class SheetRenderer:
    """Renders one language's sheet; keeps count of the texts not yet translated."""

    def __init__(
        self,
        ruleset: Ruleset,
        layout: Layout,
        lang: str,
        translator: Translator | None = None,
        made: dt.date | None = None,
    ) -> None:
        self.rs = ruleset
        self.made = made or made_on()
        self.layout = layout
        self.lang = lang
        self.tr = translator or Translator(lang, scope=ruleset.id)
        self.look = Lookup(self.tr, ruleset)
        self.numbers = numbers(ruleset)

    # --- lines ------------------------------------------------------------------------------
    def summary(self, rid: str) -> str:
        rule = self.rs.rules[rid]
        return text_html(self.look.text(f"{rid}:summary", rule.summary or ""), self.rs, self.tr)

    def title(self, ident: str) -> str:
        obj = self.rs.rules.get(ident) or self.rs.sections[ident]
        return typeset(self.look.text(f"{ident}:title", obj.title), self.lang)

    def line(self, rid: str, titles: bool, mark: str | None = None) -> str:
        lead = f'<span class="mark">{mark}</span>' if mark else ""
        title = self.title(rid)
        if mark and title.startswith(f"{mark}. "):
            title = title[len(mark) + 2 :]  # the badge already shows the step's letter
        stop = "" if title[-1:] in ".?!:" else "."
        head = f'<b class="rt">{title}{stop}</b> ' if titles else ""
        out = f'<li class="line" data-rule="{rid}">{lead}{head}{self.summary(rid)}{_ref(self.numbers[rid])}</li>'
        # Errata and rulings in force travel with the rule they amend.
        for ruling in self.rs.view().amendments.get(rid, ()):
            if ruling.summary:
                out += f'<li class="line ruling" data-rule="{ruling.id}">{self.summary(ruling.id)}{_ref(self.numbers[ruling.id])}</li>'
        return out

    def _section_rules(self, item: Item) -> list[str]:
        if item.rules is not None:
            return list(item.rules)
        return [r for r in self.rs.sections[item.id].rule_ids if self.rs.rules[r].summary]

    # --- blocks ---------------------------------------------------------------------------------
    def block(self, block: Block, columns: int = 1) -> str:
        classes = ["block", f"block-{block.kind}"]
        if block.span == "all":
            classes.append("span-all")
        if block.column_break:
            classes.append("column-break")
        if block.numbering:
            classes.append("numbered")
        if self._short(block):
            classes.append("keep")  # a short block is never split between columns
        heading = typeset(self.look.text(f"sheet:{block.id}:title", block.title), self.lang)
        if block.kind == "chart" and not block.lead and block.chart:
            heading += _ref(self.numbers[block.chart])  # no lead to carry the rule's number
        if columns > 1 and block.kind == "list":
            body = self._strip(block, columns)
        else:
            body = {"list": self._list, "table": self._table, "terms": self._terms, "chart": self._chart}[block.kind](
                block
            )
        if columns > 1 and block.kind in ("table", "terms"):  # a chart is one table, never split into columns
            body = f'<div class="across" style="column-count: {columns}">{body}</div>'
        return f'<section class="{" ".join(classes)}" id="block-{block.id}">\n<h2>{heading}</h2>\n{body}\n</section>'

    def _short(self, block: Block) -> bool:
        size = len(block.rows) + len(block.terms)
        for item in block.items:
            size += len(self._section_rules(item)) + 1 if item.id in self.rs.sections else 1
        return size <= SHORT_BLOCK

    def _list(self, block: Block) -> str:
        return "\n".join(self._list_html(self._list_units(block)))

    def _strip(self, block: Block, columns: int) -> str:
        """A full-width list block in ``columns`` side by side, split between its entries.

        The split is chosen here, from the entries' estimated line counts, instead of letting
        WeasyPrint balance a multi-column box: balancing lays the strip out once per trial
        height (five or six times), a third of the page's layout time. An entry (a rule's line
        or a whole section) is never split between columns.
        """
        units = self._list_units(block)
        width = 1.0 / columns
        parts = _partition([u.lines(width) for u in units], columns)
        cols = "".join(
            '<div class="strip-column">' + "\n".join(self._list_html(units[a:b])) + "</div>" for a, b in parts
        )
        return f'<div class="strip" style="--columns: {columns}">{cols}</div>'

    def _list_units(self, block: Block) -> list[_Unit]:
        units: list[_Unit] = []
        n = 0

        def mark() -> str | None:
            nonlocal n
            n += 1
            return _MARKS[block.numbering](n) if block.numbering else None

        for item in block.items:
            titles = block.titles if item.titles is None else item.titles
            if item.id in self.rs.sections:
                rules = [self.line(r, titles) for r in self._section_rules(item)]
                m = mark()
                lead = f'<span class="mark">{m}</span>' if m else ""
                head = f"<h3>{lead}{self.title(item.id)}{_ref(self.numbers[item.id])}</h3>"
                units.append(
                    _Unit(
                        f'<div class="group" data-section="{item.id}">{head}<ul class="lines">{"".join(rules)}</ul></div>',
                        [head, *rules],
                        group=True,
                    )
                )
            else:
                line = self.line(item.id, titles, mark())
                units.append(_Unit(line, [line], group=False))
        return units

    @staticmethod
    def _list_html(units: list[_Unit]) -> list[str]:
        """Sections as they are; runs of single lines gathered into one list."""
        out: list[str] = []
        lines: list[str] = []
        for unit in units:
            if unit.group:
                if lines:
                    out.append('<ul class="lines">' + "".join(lines) + "</ul>")
                    lines = []
                out.append(unit.html)
            else:
                lines.append(unit.html)
        if lines:
            out.append('<ul class="lines">' + "".join(lines) + "</ul>")
        return out

    def _table(self, block: Block) -> str:
        head = ""
        if block.header:
            cells = "".join(
                f"<th>{html.escape(self.look.text(f'sheet:{block.id}:header-{n}', h), quote=False)}</th>"
                for n, h in enumerate(block.header, 1)
            )
            head = f"<thead><tr>{cells}</tr></thead>"
        rows = []
        for row in block.rows:
            value = html.escape(markup.format_value(self.rs.param(row.param)))
            rows.append(
                f'<tr data-rule="{row.rule}"><td class="num">{value}</td>'
                f"<td>{self.summary(row.rule)}{_ref(self.numbers[row.rule])}</td></tr>"
            )
        return f'<table class="values">{head}<tbody>{"".join(rows)}</tbody></table>'

    def _chart(self, block: Block) -> str:
        """A rule's chart: its summary, then its table (words translated, numbers as printed)."""
        from havoc.language.i18n import has_words

        assert block.chart is not None
        rule = self.rs.rules[block.chart]
        table = rule.table
        assert table is not None

        def cell(text: str) -> str:
            shown = self.look.text(f"{rule.id}:table", text) if has_words(text) else text
            return typeset(shown, self.lang)

        head = "".join(f"<th>{cell(c)}</th>" for c in table.columns)
        body = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>" for row in table.rows)
        lead = (
            f'<p class="chart-lead">{self.summary(rule.id)}{_ref(self.numbers[rule.id])}</p>'
            if rule.summary and block.lead
            else ""
        )
        return f'{lead}<table class="chart" data-rule="{rule.id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'

    def _terms(self, block: Block) -> str:
        items = []
        for tid, _line in block.terms:
            term = self.rs.terms[tid]
            name = html.escape(self.look.term(tid), quote=False)
            definition = text_html(self.look.text(f"term:{tid}:definition", term.definition), self.rs, self.tr)
            items.append(f'<p class="term-entry" data-term="{tid}"><b class="tn">{name}</b> {definition}</p>')
        return f'<div class="terms">{"".join(items)}</div>'

    def flow(self, blocks: tuple[Block, ...], columns: int) -> str:
        """Runs of column blocks as multi-column flows; ``span: all`` blocks between them, full width.

        A full-width block sets its own body in the page's columns, so a strip such as "the
        round at a glance" reads across the page without nesting one multi-column box in another.
        """
        out: list[str] = []
        run: list[str] = []

        def close() -> None:
            if run:
                out.append(f'<div class="flow" style="column-count: {columns}">\n' + "\n".join(run) + "\n</div>")
                run.clear()

        for block in blocks:
            if block.span == "all":
                close()
                out.append(self.block(block, columns))
            else:
                run.append(self.block(block))
        close()
        return "\n".join(out)

    # --- the footer: which rules, as of when ----------------------------------------------------
    def layers(self) -> list[str]:
        """The layers the sheet prints, in the order an answer names them (the ruleset's
        ``layers``: the printed rulebook, then each errata source in force by date), each titled
        in the sheet's language, with its date where it has one."""
        out = []
        for layer in self.rs.provenance(None, self.lang)["layers"]:
            title = str(layer["title"])
            when = format_date(layer.get("date"), self.lang, short=True)
            out.append(f"{title} ({when})" if when and when not in title else title)
        return out

    def footer(self) -> str:
        """The sheet's last line: the layers it includes and the day it was made."""
        made = format_date(self.made, self.lang, short=True) or self.made.isoformat()
        text = ui("Rules: {layers}. As of {date}.", self.lang).format(layers=" + ".join(self.layers()), date=made)
        return f'<footer class="colophon">{typeset(html.escape(text, quote=False), self.lang)}</footer>'

    # --- the document ---------------------------------------------------------------------------
    def document(self) -> str:
        """The whole sheet as one self-contained HTML file (its CSS inlined)."""
        lo = self.layout
        title = typeset(self.look.text("sheet:title", lo.title), self.lang)
        subtitle = typeset(self.look.text("sheet:subtitle", lo.subtitle), self.lang) if lo.subtitle else ""
        legend = text_html(self.look.text("sheet:legend", lo.legend), self.rs, self.tr) if lo.legend else ""
        game = html.escape(self.rs.title)
        pages = []
        for n, page in enumerate(lo.pages, 1):
            blocks = self.flow(page.blocks, page.columns)
            if n == 1:
                head = (
                    f'<header class="masthead"><h1><span class="game">{game}</span> {title}</h1>'
                    f'<p class="subtitle">{subtitle}</p><p class="legend">{legend}</p></header>'
                )
            else:
                head = f'<header class="runhead"><span class="game">{game}</span> {title}</header>'
            size = f' style="--body: {page.body_pt:g}pt"' if page.body_pt else ""
            # In print the footer is a running element (sheet.css): it sits in the bottom margin of
            # every page from the first, taking no line from the rules; on screen it ends page 1.
            foot = "\n" + self.footer() if n == 1 else ""
            pages.append(
                f'<section class="page" id="sheet-page-{n}"{size}>\n{head}{foot}\n{blocks}\n'
                f'<span class="end" id="sheet-page-{n}-end"></span>\n</section>'
            )
        css = stylesheet()
        return (
            f'<!DOCTYPE html>\n<html lang="{self.lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{game} — {title}</title>\n"
            f'<meta name="generator" content="havoc sheet ({self.rs.id} {self.rs.fingerprint[:12]})">\n'
            f"<style>\n{css}\n</style>\n</head>\n<body>\n" + "\n".join(pages) + "\n</body>\n</html>\n"
        )


def made_on() -> dt.date:
    """The sheet's date: ``SOURCE_DATE_EPOCH`` when set (a reproducible build), else today (UTC)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date()
    return dt.datetime.now(dt.UTC).date()


def stylesheet() -> str:
    """The sheet's CSS, with the type sizes filled in from this module's constants."""
    css = resources.files("havoc.quickref").joinpath("sheet.css").read_text(encoding="utf-8")
    sizes = f":root {{ --body: {BODY_PT}pt; --id: {ID_PT}pt; --leading: {LEADING}; }}\n"
    return sizes + css
