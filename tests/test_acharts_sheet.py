"""The Advanced Cry Havoc 2 chart sheet: every chart of seed 004, a legend for every mark, two
A4 pages per language, type never below 7 pt, no word broken inside a chart cell."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from havoc import quickref
from havoc.engine import rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.games.advanced_cry_havoc import tables as T
from havoc.games.advanced_cry_havoc.tables import check_rules
from havoc.quickref.render import MIN_PT

RULESET = "advanced-cry-havoc"
# The tables of open cases restate their rule's summary row by row: the sheet lists the summary.
OPEN_TABLES = {T.OPEN, T.STATUS_OPEN}


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return rulebook.load(RULESET)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_sheet_carries_every_chart_of_the_rules(rs: Ruleset, lang: str) -> None:
    html = quickref.build_html(lang, rs).html
    charts = re.findall(r'<table class="chart" data-rule="([a-z0-9-]+)"', html)
    tables = [rid for rid, rule in rs.rules.items() if rule.table is not None]
    # the legend of abbreviations (ours, not a chart of 004) is a summary line on the sheet; its
    # table is on the rule's page
    assert sorted(charts) == sorted(set(tables) - OPEN_TABLES - {"acv-abbreviations"})
    assert len(charts) == len(set(charts))  # each once
    listed = set(re.findall(r'<li class="line[^"]*" data-rule="([a-z0-9-]+)"', html))
    assert OPEN_TABLES | {T.MORALE_COURAGE, T.COMBAT_TABLE, "acv-abbreviations"} <= listed  # summarised
    assert T.STATUS in charts and T.MARKS in charts  # 004's status summary and the legend of marks


def test_the_legend_explains_every_mark(rs: Ruleset) -> None:
    legend = {m.strip() for row in T.table(rs, T.MARKS).rows for m in row[0].split(",")}
    assert {"A", "*", "Z", "H", "F", "S", "N", "R"} <= legend
    printed = {
        cell
        for rid in (T.CC_SHIFTS, T.CC_MODS, T.MORALE_MODS, T.WAKING_MODS, "acv-combat-results")
        for row in T.table(rs, rid).rows
        for cell in row[2:]
        if cell
    }
    assert printed and printed <= legend


def test_a_mark_missing_from_the_legend_fails_the_check(rules_copy: Path) -> None:
    path = rules_copy / RULESET / "sections" / "07-combat-table.yaml"
    text = path.read_text(encoding="utf-8")
    line = '        - [H, "Combat results: unhorsed on a failed Task check"]\n'
    assert line in text
    path.write_text(text.replace(line, ""), encoding="utf-8")
    problems = check_rules(rulebook.load(RULESET, rules_copy, use_cache=False))
    assert [p.message for p in problems] == ["acv-chart-marks: expected a line for the mark 'H'"]


# --- the printed pages (slow: WeasyPrint lays out both) --------------------------------------

pypdf = pytest.importorskip("pypdf")
A4 = (595.28, 841.89)  # points


@pytest.fixture(scope="module")
def printed() -> Iterator[dict[str, tuple[object, bytes]]]:
    """Each language's laid-out document (to look inside the cells) and its PDF, as havoc sheet makes them."""
    pytest.importorskip("weasyprint")
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    from havoc.quickref.pdf import font_css

    rs = rulebook.load(RULESET)
    out = {}
    for lang in ("en", "pl"):
        fonts = FontConfiguration()
        css = CSS(string=font_css(), font_config=fonts)
        doc = HTML(string=quickref.build_html(lang, rs).html).render(stylesheets=[css], font_config=fonts)
        out[lang] = (doc, doc.write_pdf())
    yield out


def broken_in_cells(box: object, in_cell: bool = False) -> Iterator[str]:
    """Lines inside a table cell that end in a hyphen typesetting added (a word broken in two)."""
    in_cell = in_cell or getattr(box, "element_tag", None) in ("td", "th")
    text = getattr(box, "text", None)
    if in_cell and text and re.search(r"\w[\u2010\u00ad]$", text.rstrip()):
        yield text
    for child in getattr(box, "children", None) or ():
        yield from broken_in_cells(child, in_cell)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_two_a4_pages_never_below_7pt_and_no_word_broken_in_a_cell(
    printed: dict[str, tuple[object, bytes]], lang: str
) -> None:
    import io

    doc, pdf = printed[lang]
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 2
    sizes: set[float] = set()

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            sizes.add(round(abs(size * tm[3] * cm[3]), 2))

    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(A4, abs=0.5)
        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= MIN_PT, sorted(sizes)
    broken = [t for page in doc.pages for t in broken_in_cells(page._page_box)]  # type: ignore[attr-defined]
    assert broken == []
