"""The printed sheets use their space well: no word broken into a stub, no column left mostly empty.

Reads every sheet PDF (both rulesets, both languages) back with Poppler's ``pdftotext
-bbox-layout``, which gives each word with its position, as a reader's eye would see the page:

- a word WeasyPrint hyphenated at a line end (its hyphen is U+2010) keeps at least three letters
  before the break and carries at least three to the next line ("Szta-" / "by" is refused);
- no column but a page's last is more than a third empty at the bottom.

The helpers are checked on small PDFs made to fail, so the checks can fail.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("weasyprint")
pytestmark = pytest.mark.slow

HYPHEN = "\u2010"  # what WeasyPrint prints where it hyphenates a word
MIN_LETTERS = 3
MAX_EMPTY = 1 / 3
XHTML = "{http://www.w3.org/1999/xhtml}"
MM = 72 / 25.4
_MARGIN = re.compile(r"@page\s*{[^}]*margin:\s*([\d.]+)mm\s+([\d.]+)mm\s+([\d.]+)mm\s+([\d.]+)mm", re.S)
_LETTERS_END = re.compile(r"[^\W\d_]+$")
_LETTERS_START = re.compile(r"^[^\W\d_]+")


@dataclass(frozen=True)
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    lines: list[list[Word]]


def read_pages(pdf: Path) -> list[Page]:
    out = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", out))
    pages = []
    for page in root.iter(f"{XHTML}page"):
        lines = []
        for line in page.iter(f"{XHTML}line"):
            words = [
                Word(w.text or "", *(float(w.get(k, 0)) for k in ("xMin", "yMin", "xMax", "yMax")))
                for w in line.iter(f"{XHTML}word")
            ]
            if words:
                lines.append(words)
        pages.append(Page(float(page.get("width", 0)), float(page.get("height", 0)), lines))
    return pages


def _text(line: list[Word]) -> list[Word]:
    """A line without the rule numbers floated to its right (``§11.4``): they are not its text."""
    return [w for w in line if not w.text.startswith("§")]


def _continuation(lines: list[list[Word]], line: list[Word]) -> list[Word]:
    """The line a hyphenated line goes on with: the nearest one below it in the same column, else
    the top of the next column."""
    x0, x1 = line[0].x0, line[-1].x1
    bottom = max(w.y1 for w in line)
    half = (bottom - min(w.y0 for w in line)) / 2
    texts = [t for t in map(_text, lines) if t]
    below = [t for t in texts if min(w.y0 for w in t) > bottom - half and t[0].x0 < x1 and t[-1].x1 > x0]
    if not below:
        right = [t for t in texts if t[0].x0 > x1]
        if not right:
            return []
        nearest = min(t[0].x0 for t in right)
        below = [t for t in right if t[0].x0 < nearest + 8 * half]
    return min(below, key=lambda t: min(w.y0 for w in t))


def short_breaks(pages: list[Page]) -> list[str]:
    """Every hyphenated break with fewer than three letters on either side, as "page N: Szta-by"."""
    found = []
    for n, page in enumerate(pages, 1):
        for line in map(_text, page.lines):
            if not line or not line[-1].text.endswith(HYPHEN):
                continue
            head = _LETTERS_END.search(line[-1].text[:-1])
            nxt = _continuation(page.lines, line)
            tail = _LETTERS_START.match(nxt[0].text) if nxt else None
            before, after = head.group(0) if head else "", tail.group(0) if tail else ""
            if len(before) < MIN_LETTERS or len(after) < MIN_LETTERS:
                found.append(f"page {n}: {before}-{after}")
    return found


def page_margins(css: str) -> tuple[float, float, float, float]:
    """The @page margins (top, right, bottom, left) in points, as the sheet's CSS sets them."""
    m = _MARGIN.search(css)
    assert m, "no @page margin in the sheet's CSS"
    top, right, bottom, left = (float(v) * MM for v in m.groups())
    return top, right, bottom, left


def empty_at_bottom(page: Page, columns: int, margins: tuple[float, float, float, float]) -> list[float]:
    """How much of each column's height is empty below its last line (0 = full, 1 = empty)."""
    top, right, bottom, left = margins
    width = (page.width - left - right) / columns
    lowest = [top] * columns
    for line in page.lines:
        for w in line:
            c = min(columns - 1, max(0, int(((w.x0 + w.x1) / 2 - left) / width)))
            lowest[c] = max(lowest[c], w.y1)
    end = page.height - bottom
    return [(end - low) / (end - top) for low in lowest]


def unbalanced(pages: list[Page], columns: tuple[int, ...], margins: tuple[float, float, float, float]) -> list[str]:
    """Columns, other than each page's last, more than a third empty."""
    found = []
    for n, (page, count) in enumerate(zip(pages, columns, strict=True), 1):
        empty = empty_at_bottom(page, count, margins)
        found += [f"page {n} column {c + 1}: {e:.0%} empty" for c, e in enumerate(empty[:-1], 0) if e > MAX_EMPTY]
    return found


# --- the real sheets ---------------------------------------------------------------------------

SHEETS = [(rs, lang) for rs in ("cry-havoc", "advanced-cry-havoc") for lang in ("en", "pl")]


@dataclass
class Built:
    pdf: Path
    columns: tuple[int, ...]
    css: str


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[tuple[str, str], Built]]:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: apt-get install -y poppler-utils (scripts/ensure-system-deps)")
    from test_sheet_pdf import real_sheets

    from havoc.quickref.render import stylesheet

    made = real_sheets(tmp_path_factory)  # the run's sheets, shared with tests/test_sheet_pdf.py
    yield {(name, lang): Built(*made[(name, lang)], stylesheet()) for name, lang in SHEETS}


@pytest.mark.parametrize(("ruleset", "lang"), SHEETS)
def test_no_word_is_broken_into_a_stub(built: dict[tuple[str, str], Built], ruleset: str, lang: str) -> None:
    pages = read_pages(built[(ruleset, lang)].pdf)
    assert len(pages) == 2
    assert short_breaks(pages) == []


@pytest.mark.parametrize(("ruleset", "lang"), SHEETS)
def test_no_column_but_the_last_is_more_than_a_third_empty(
    built: dict[tuple[str, str], Built], ruleset: str, lang: str
) -> None:
    sheet = built[(ruleset, lang)]
    pages = read_pages(sheet.pdf)
    assert unbalanced(pages, sheet.columns, page_margins(sheet.css)) == []


# --- the checks can fail -----------------------------------------------------------------------

BAD = """<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><style>
@page {{ size: A4; margin: 7mm 7mm 8mm 7mm; }}
body {{ margin: 0; font: 9pt "DejaVu Sans"; }}
.flow {{ column-count: 3; column-gap: 4mm; column-fill: auto; height: 270mm; }}
p {{ margin: 0 0 2mm; }}
.narrow {{ width: 9mm; hyphens: manual; }}
</style></head><body>{body}</body></html>"""


def _print(tmp_path: Path, body: str) -> list[Page]:
    from weasyprint import HTML

    pdf = tmp_path / "bad.pdf"
    HTML(string=BAD.format(body=body)).write_pdf(pdf)
    return read_pages(pdf)


def test_the_break_check_finds_a_two_letter_stub(tmp_path: Path) -> None:
    pages = _print(tmp_path, '<p class="narrow">Wyznacz Szta&shy;by losowo</p><p class="narrow">Prze&shy;kazuje</p>')
    assert short_breaks(pages) == ["page 1: Szta-by"]


def test_the_fill_check_finds_a_column_left_empty(tmp_path: Path) -> None:
    lines = "".join(f"<p>Line {i}.</p>" for i in range(55))
    pages = _print(tmp_path, f'<div class="flow">{lines}</div>')
    margins = page_margins(BAD)
    empty = empty_at_bottom(pages[0], 3, margins)
    assert empty[0] < 0.1 and empty[1] > 0.5, empty
    assert unbalanced(pages, (3,), margins) == [f"page 1 column 2: {empty[1]:.0%} empty"]
