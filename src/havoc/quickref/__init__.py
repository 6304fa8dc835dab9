"""The printable quick-reference sheet: two A4 pages per language, generated from ``rules/``.

``sheet.yaml`` (in the ruleset folder) says which rules go where; the lines are the rules'
``summary`` fields in the reader's language. :func:`build_html` needs only the rules;
:func:`build` also prints the PDF with WeasyPrint, which is imported only then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from havoc.engine import rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.language.i18n import Translator
from havoc.quickref.layout import Layout, load_layout
from havoc.quickref.render import SheetRenderer


@dataclass(slots=True)
class Sheet:
    """One language's sheet: its HTML, and the texts that fell back to English."""

    lang: str
    html: str
    columns: tuple[int, ...]
    texts: int
    untranslated: list[str] = field(default_factory=list)


def build_html(
    lang: str,
    ruleset: Ruleset | None = None,
    ruleset_root: Path | None = None,
    translator: Translator | None = None,
) -> Sheet:
    """The sheet as a standalone HTML page (layout checked against the rules first)."""
    rs = ruleset or rulebook.load()
    root = ruleset_root or rulebook.rules_root() / rs.id
    layout: Layout = load_layout(rs, root)
    renderer = SheetRenderer(rs, layout, lang, translator)
    text = renderer.document()
    missing = sorted(set(renderer.look.missing))
    return Sheet(lang, text, tuple(p.columns for p in layout.pages), renderer.look.used, missing)


def build(
    lang: str,
    pdf_path: Path | None,
    html_path: Path | None,
    ruleset: Ruleset | None = None,
    ruleset_root: Path | None = None,
    translator: Translator | None = None,
) -> Sheet:
    """Write the sheet's PDF and/or HTML; a sheet that does not fit two pages writes nothing."""
    sheet = build_html(lang, ruleset, ruleset_root, translator)
    if pdf_path is not None:
        from havoc.quickref.pdf import write_pdf

        printed = write_pdf(sheet.html, sheet.columns)
        pdf_path.parent.mkdir(parents=True, exist_ok=True)
        pdf_path.write_bytes(printed.pdf)
    if html_path is not None:
        html_path.parent.mkdir(parents=True, exist_ok=True)
        html_path.write_text(sheet.html, encoding="utf-8")
    return sheet


__all__ = ["Sheet", "build", "build_html"]
