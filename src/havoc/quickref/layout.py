"""The sheet's layout, ``rules/<ruleset>/sheet.yaml``: which rules go where on the two pages.

What a player sees on the printed sheet is data, like the rules themselves: the layout names
blocks and the rule (or section) IDs whose ``summary`` they show; the wording comes from the
rules and their catalogs. This module reads the layout with located errors (file:line), checks
it against a loaded ruleset, and lists its translatable headings for the catalog extraction.
It never imports WeasyPrint.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from havoc.core.errors import Code, Problem, RulebookError
from havoc.engine.rulebook.schema import ID_RE, Reader
from havoc.formats.yamlio import LDict, LList, YamlError, load_file
from havoc.language import markup

if TYPE_CHECKING:
    from havoc.engine.rulebook.model import Ruleset
    from havoc.language.i18n import Message

LAYOUT_FILE = "sheet.yaml"
PAGES = 2  # front and back of one A4 sheet
MAX_COLUMNS = 4
KINDS = ("list", "table", "terms", "chart")
NUMBERINGS = ("decimal", "upper-alpha")
SPANS = ("column", "all")
# Type sizes in points: the sheet never goes below MIN_PT (a page may ask for larger body type,
# up to MAX_BODY_PT, to use room it has to spare).
MIN_PT = 7.0
MAX_BODY_PT = 10.0

TOP_FIELDS = {"title", "subtitle", "legend", "pages"}
PAGE_FIELDS = {"columns", "blocks", "body-pt"}
BLOCK_FIELDS = {
    "id",
    "title",
    "kind",
    "rules",
    "rows",
    "terms",
    "numbering",
    "titles",
    "span",
    "header",
    "column-break",
    "rule",
    "lead",
}
GROUP_FIELDS = {"section", "rules", "titles"}
ROW_FIELDS = {"rule", "param"}

TRANSLATOR_NOTE = "A heading on the printed quick-reference sheet: keep it short (one line of a narrow column)."


@dataclass(frozen=True, slots=True)
class Item:
    """One entry of a list block: a rule (one line) or a section (a sub-heading and its rules)."""

    id: str
    line: int
    rules: tuple[str, ...] | None = None  # for a section: the chosen rules (None: every summarized rule)
    titles: bool | None = None  # show rule titles before summaries (None: the block's choice)


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a table block: a rule's summary beside the value of one of its parameters."""

    rule: str
    param: str
    line: int


@dataclass(frozen=True, slots=True)
class Block:
    id: str
    title: str
    line: int
    kind: str = "list"
    items: tuple[Item, ...] = ()
    rows: tuple[Row, ...] = ()
    terms: tuple[tuple[str, int], ...] = ()
    numbering: str | None = None
    titles: bool = False
    span: str = "column"
    header: tuple[str, ...] = ()
    column_break: bool = False
    chart: str | None = None  # a chart block: the rule whose table it prints
    lead: bool = True  # a chart block: its rule's summary above the table (false: the table alone)


@dataclass(frozen=True, slots=True)
class PageSpec:
    columns: int
    blocks: tuple[Block, ...]
    line: int
    body_pt: float | None = None  # this page's body type, when larger than the sheet's


@dataclass(frozen=True, slots=True)
class Layout:
    file: str
    title: str
    subtitle: str | None
    legend: str | None
    pages: tuple[PageSpec, ...]
    line: int

    def blocks(self) -> Iterator[Block]:
        for page in self.pages:
            yield from page.blocks


def layout_path(ruleset_root: Path) -> Path:
    """Where a ruleset keeps its sheet layout (``ruleset_root`` is e.g. ``rules/cry-havoc``)."""
    return ruleset_root / LAYOUT_FILE


def _display(path: Path) -> str:
    """The path as the rule loader names files: relative to the folder that holds ``rules/``."""
    try:
        return str(path.relative_to(path.parent.parent.parent))
    except ValueError:
        return str(path)


def read_layout(ruleset_root: Path) -> Layout:
    """Read and structurally check ``sheet.yaml``; raise :class:`RulebookError` with every problem."""
    path = layout_path(ruleset_root)
    name = _display(path)
    try:
        data = load_file(path, name)
    except YamlError as exc:
        raise RulebookError([exc.problem]) from None
    problems: list[Problem] = []
    layout = _parse(Reader(name, problems), data)
    if problems or layout is None:
        raise RulebookError(problems or [Problem(name, None, "empty layout", code=Code.SHEET_LAYOUT)])
    return layout


def _parse(r: Reader, data: Any) -> Layout | None:
    top = r.mapping(data, "sheet", getattr(data, "line", 1), TOP_FIELDS, {"title", "pages"})
    if top is None:
        return None
    title = r.text(top, "title", "sheet") or ""
    pages: list[PageSpec] = []
    seen: dict[str, int] = {}
    page_items = r.items(top, "pages", "sheet")
    if "pages" in top and len(page_items) != PAGES:
        r.problem(
            top.line_of("pages"),
            f"sheet.pages: expected {PAGES} pages (front and back), found {len(page_items)}",
            code=Code.SHEET_LAYOUT,
        )
    for n, (value, line) in enumerate(page_items, 1):
        page = r.mapping(value, f"page {n}", line, PAGE_FIELDS, {"blocks"})
        if page is None:
            continue
        columns = page.get("columns", 3)
        if not isinstance(columns, int) or isinstance(columns, bool) or not 1 <= columns <= MAX_COLUMNS:
            r.problem(
                page.line_of("columns"),
                f"page {n}.columns: expected a whole number from 1 to {MAX_COLUMNS}, found {columns!r}",
                code=Code.SHEET_LAYOUT,
            )
            columns = 3
        body = page.get("body-pt")
        if body is not None and (
            not isinstance(body, (int, float)) or isinstance(body, bool) or not MIN_PT <= body <= MAX_BODY_PT
        ):
            r.problem(
                page.line_of("body-pt"),
                f"page {n}.body-pt: expected a type size from {MIN_PT:g} to {MAX_BODY_PT:g} points, found {body!r}",
                code=Code.SHEET_LAYOUT,
            )
            body = None
        blocks = [b for v, ln in r.items(page, "blocks", f"page {n}") if (b := _block(r, v, ln, seen)) is not None]
        pages.append(PageSpec(columns, tuple(blocks), page.line, float(body) if body is not None else None))
    return Layout(
        r.file, title, r.text(top, "subtitle", "sheet"), r.text(top, "legend", "sheet"), tuple(pages), top.line
    )


def _block(r: Reader, value: Any, line: int, seen: dict[str, int]) -> Block | None:
    d = r.mapping(value, "block", line, BLOCK_FIELDS, {"id", "title"})
    if d is None:
        return None
    bid = r.ident(d, "id", "block")
    what = f"block {bid or '?'}"
    if bid is not None:
        if bid in seen:
            r.problem(
                d.line_of("id"), f"{what}: duplicate block ID (first at line {seen[bid]})", code=Code.SHEET_LAYOUT
            )
        seen[bid] = d.line_of("id")
    kind = _choice(r, d, "kind", what, KINDS, "list") or "list"
    numbering = _choice(r, d, "numbering", what, NUMBERINGS, None)
    span = _choice(r, d, "span", what, SPANS, "column")
    titles = _flag(r, d, "titles", what)
    expects = {"list": "rules", "table": "rows", "terms": "terms", "chart": "rule"}[kind]
    for key in ("rules", "rows", "terms", "rule"):
        if key in d and key != expects:
            r.problem(d.line_of(key), f"{what}: a {kind} block lists {expects!r}, not {key!r}", code=Code.SHEET_LAYOUT)
    if expects not in d:
        r.problem(d.line, f"{what}: missing required field {expects!r}", code=Code.SHEET_LAYOUT)
    header: tuple[str, ...] = ()
    if "header" in d:
        raw = d["header"]
        if kind != "table":
            r.problem(d.line_of("header"), f"{what}: only a table block has a header", code=Code.SHEET_LAYOUT)
        elif not isinstance(raw, LList) or len(raw) != 2 or not all(isinstance(h, str) and h.strip() for h in raw):
            r.problem(
                d.line_of("header"),
                f"{what}.header: expected two column headings, e.g. [VP, Scored for]",
                code=Code.SHEET_LAYOUT,
            )
        else:
            header = tuple(h.strip() for h in raw)
    items = (
        tuple(i for v, ln in r.items(d, "rules", what) if (i := _item(r, v, ln, what)) is not None)
        if kind == "list"
        else ()
    )
    rows: list[Row] = []
    if kind == "table":
        for v, ln in r.items(d, "rows", what):
            row = r.mapping(v, f"{what} row", ln, ROW_FIELDS, ROW_FIELDS)
            if row is None:
                continue
            rule, param = r.ident(row, "rule", f"{what} row"), r.ident(row, "param", f"{what} row")
            if rule and param:
                rows.append(Row(rule, param, row.line))
    terms: list[tuple[str, int]] = []
    if kind == "terms":
        raw_terms = d.get("terms")
        if isinstance(raw_terms, LList):
            terms = list(zip(r.id_list(d, "terms", what), raw_terms.item_lines, strict=False))
        else:
            r.id_list(d, "terms", what)
    if bid is None:
        return None
    return Block(
        id=bid,
        title=r.text(d, "title", what) or bid,
        line=d.line,
        kind=kind,
        items=items,
        rows=tuple(rows),
        terms=tuple(terms),
        numbering=numbering,
        titles=bool(titles),
        span=span or "column",
        header=header,
        column_break=bool(_flag(r, d, "column-break", what)),
        chart=r.ident(d, "rule", what) if kind == "chart" else None,
        lead=_flag(r, d, "lead", what) is not False,
    )


def _item(r: Reader, value: Any, line: int, what: str) -> Item | None:
    if isinstance(value, str):
        if not ID_RE.match(value):
            r.problem(
                line,
                f"{what}.rules: expected a rule or section ID in lowercase-kebab-case, found {value!r}",
                code=Code.SHEET_LAYOUT,
            )
            return None
        return Item(value, line)
    g = r.mapping(value, f"{what} group", line, GROUP_FIELDS, {"section"})
    if g is None:
        return None
    sid = r.ident(g, "section", f"{what} group")
    chosen = r.id_list(g, "rules", f"{what} group") if "rules" in g else None
    if sid is None:
        return None
    return Item(sid, g.line, chosen, _flag(r, g, "titles", f"{what} group"))


def _choice(r: Reader, d: LDict, key: str, what: str, allowed: tuple[str, ...], default: str | None) -> str | None:
    value = d.get(key, default)
    if value is not default and value not in allowed:
        r.problem(
            d.line_of(key),
            f"{what}.{key}: expected one of {', '.join(allowed)}, found {value!r}",
            code=Code.SHEET_LAYOUT,
        )
        return default
    return value if isinstance(value, str) else default


def _flag(r: Reader, d: LDict, key: str, what: str) -> bool | None:
    value = d.get(key)
    if value is None or isinstance(value, bool):
        return value
    r.problem(d.line_of(key), f"{what}.{key}: expected true or false, found {value!r}", code=Code.SHEET_LAYOUT)
    return None


# --- checks against the rules ---------------------------------------------------------------


def check_layout(layout: Layout, ruleset: Ruleset) -> list[Problem]:
    """Every ID the layout names exists and has what the sheet shows (a summary, a parameter)."""
    problems: list[Problem] = []
    r = Reader(layout.file, problems)
    for block in layout.blocks():
        for item in block.items:
            if item.id in ruleset.sections:
                chosen = item.rules if item.rules is not None else ()
                members = set(ruleset.sections[item.id].rule_ids)
                for rid in chosen:
                    if rid not in members:
                        r.problem(
                            item.line,
                            f"block {block.id}: rule {rid!r} is not in section {item.id!r}" + _suggest(rid, members),
                            code=Code.SHEET_LAYOUT,
                        )
                    elif not ruleset.rules[rid].summary:
                        r.problem(
                            item.line, f"block {block.id}: rule {rid!r} has no summary to show", code=Code.SHEET_LAYOUT
                        )
                if item.rules is None and not any(ruleset.rules[x].summary for x in members):
                    r.problem(
                        item.line,
                        f"block {block.id}: no rule of section {item.id!r} has a summary",
                        code=Code.SHEET_LAYOUT,
                    )
            elif item.rules is not None:
                r.problem(
                    item.line,
                    f"block {block.id}: unknown section {item.id!r}" + _known(item.id, ruleset, sections=True),
                    code=Code.SHEET_LAYOUT,
                )
            else:
                _need_rule(r, ruleset, block.id, item.id, item.line)
        for row in block.rows:
            if not _need_rule(r, ruleset, block.id, row.rule, row.line):
                continue
            if row.param not in ruleset.params:
                r.problem(
                    row.line,
                    f"block {block.id}: unknown parameter {row.param!r}" + _suggest(row.param, ruleset.params),
                    code=Code.SHEET_LAYOUT,
                )
            elif row.param not in ruleset.rules[row.rule].params and row.param not in _used(
                ruleset.rules[row.rule].summary
            ):
                r.problem(
                    row.line,
                    f"block {block.id}: rule {row.rule!r} neither defines nor mentions parameter {row.param!r}"
                    f" (it is defined by {ruleset.params[row.param].rule_id!r})",
                    code=Code.SHEET_LAYOUT,
                )
            elif isinstance(ruleset.params[row.param].value, bool):
                r.problem(
                    row.line,
                    f"block {block.id}: parameter {row.param!r} is a yes/no value, not a number to tabulate",
                    code=Code.SHEET_LAYOUT,
                )
        chart = block.chart
        if (
            chart is not None
            and _need_rule(r, ruleset, block.id, chart, block.line)
            and ruleset.rules[chart].table is None
        ):
            r.problem(
                block.line, f"block {block.id}: rule {block.chart!r} has no table to print", code=Code.SHEET_LAYOUT
            )
        for tid, line in block.terms:
            if tid not in ruleset.terms:
                r.problem(
                    line,
                    f"block {block.id}: unknown term {tid!r}" + _suggest(tid, ruleset.terms),
                    code=Code.SHEET_LAYOUT,
                )
    return problems


def _used(text: str | None) -> set[str]:
    """The parameters a text shows (a table row's value must be one its summary speaks of)."""
    pieces = markup.walk(markup.parse(text or ""))
    return {p.name for p in pieces if isinstance(p, (markup.Param, markup.PluralWord))}


def _need_rule(r: Reader, ruleset: Ruleset, block: str, rid: str, line: int) -> bool:
    if rid in ruleset.rules:
        if not ruleset.rules[rid].summary:
            r.problem(line, f"block {block}: rule {rid!r} has no summary to show", code=Code.SHEET_LAYOUT)
            return False
        return True
    r.problem(line, f"block {block}: unknown rule or section {rid!r}" + _known(rid, ruleset), code=Code.SHEET_LAYOUT)
    return False


def _known(ident: str, ruleset: Ruleset, sections: bool = False) -> str:
    retired = ruleset.retired.get(ident)
    if retired is not None:
        succ = ruleset.resolve(ident)
        return f" (retired; use {succ!r})" if succ else " (retired)"
    pool = list(ruleset.sections) if sections else list(ruleset.rules) + list(ruleset.sections)
    return _suggest(ident, pool)


def _suggest(ident: str, pool: Any) -> str:
    hint = difflib.get_close_matches(ident, list(pool), n=1)
    return f" (did you mean {hint[0]!r}?)" if hint else ""


def load_layout(ruleset: Ruleset, ruleset_root: Path) -> Layout:
    """The layout, read and checked against ``ruleset``; any problem raises with every location."""
    layout = read_layout(ruleset_root)
    problems = check_layout(layout, ruleset)
    if problems:
        raise RulebookError(problems)
    return layout


# --- catalog extraction -------------------------------------------------------------------


def sheet_messages(ruleset_root: Path) -> Iterator[Message]:
    """The sheet's own translatable strings (its headings), for :func:`havoc.translation.messages.messages`.

    The sheet's lines are rule summaries, already in the catalogs under ``<rule-id>:summary``;
    only the headings written in ``sheet.yaml`` are new. A ruleset without a layout has none.
    """
    from havoc.language.i18n import Message

    path = layout_path(ruleset_root)
    if not path.is_file():
        return
    layout = read_layout(ruleset_root)
    data = load_file(path, layout.file)
    f = layout.file
    yield Message(
        "sheet:title", layout.title, f, data.line_of("title"), comment="The sheet's title, printed large on page 1."
    )
    for key in ("subtitle", "legend"):
        text = getattr(layout, key)
        if text:
            yield Message(f"sheet:{key}", text, f, data.line_of(key), comment="Printed under the sheet's title.")
    for block in layout.blocks():
        yield Message(f"sheet:{block.id}:title", block.title, f, block.line, comment=TRANSLATOR_NOTE)
        for n, heading in enumerate(block.header, 1):
            yield Message(
                f"sheet:{block.id}:header-{n}",
                heading,
                f,
                block.line,
                comment="A column heading of a table on the sheet.",
            )
