"""Print the sheet's HTML to PDF with WeasyPrint, and refuse a sheet that is not two pages.

WeasyPrint is imported here only, inside the functions, so the CLI starts without it. The
fonts are given as files (``@font-face``), not by family name: a missing font is then a clear
error naming the package to install, not a silent fallback that changes every line break.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from havoc.core.errors import Code, HavocError, Problem
from havoc.quickref.render import MIN_PT

FONT_FAMILY = "Havoc Sheet"
# (weight, style) -> file name; DejaVu Sans Condensed covers Polish (and all of Latin Extended-A).
FONT_FILES = {
    ("normal", "normal"): "DejaVuSansCondensed.ttf",
    ("bold", "normal"): "DejaVuSansCondensed-Bold.ttf",
    ("normal", "italic"): "DejaVuSansCondensed-Oblique.ttf",
    ("bold", "italic"): "DejaVuSansCondensed-BoldOblique.ttf",
}
FONT_PACKAGES = "fonts-dejavu-core fonts-dejavu-extra"
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")


class SheetError(HavocError):
    """The sheet cannot be built as asked (it overflows, or a font is missing)."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class Printed:
    pdf: bytes
    pages: int


def find_fonts() -> dict[tuple[str, str], Path]:
    """The font files of the sheet, from ``$HAVOC_FONT_DIR`` or the system's font folders."""
    folders = [Path(os.environ["HAVOC_FONT_DIR"])] if os.environ.get("HAVOC_FONT_DIR") else []
    folders += [Path(d).expanduser() for d in FONT_DIRS]
    found: dict[tuple[str, str], Path] = {}
    wanted = {name: key for key, name in FONT_FILES.items()}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.rglob("DejaVuSansCondensed*.ttf"):
            key = wanted.get(path.name)
            if key is not None and key not in found:
                found[key] = path
        if len(found) == len(FONT_FILES):
            return found
    missing = sorted(set(FONT_FILES.values()) - {p.name for p in found.values()})
    raise SheetError(
        [
            Problem(
                "fonts",
                None,
                f"font files not found: {', '.join(missing)}; install them with "
                f"`apt-get install -y {FONT_PACKAGES}` or set HAVOC_FONT_DIR to a folder holding them",
                code=Code.SHEET_TOOL,
            )
        ]
    )


def font_css() -> str:
    """``@font-face`` rules for the sheet's font, pointing at the files on this machine."""
    rules = []
    for (weight, style), path in sorted(find_fonts().items()):
        rules.append(
            f'@font-face {{ font-family: "{FONT_FAMILY}"; src: url("{path.as_uri()}"); '
            f"font-weight: {weight}; font-style: {style}; }}"
        )
    return "\n".join(rules)


def overflow(document: Any, columns: tuple[int, ...]) -> list[Problem]:
    """Which sheet pages spill over, and by how many lines of text.

    Every sheet page is a ``<section id="sheet-page-N">`` that starts a new physical page and
    ends in an anchor ``sheet-page-N-end``; a sheet page whose end lands on a later physical
    page overflows by the text lines laid out on those later pages.
    """
    where: dict[str, int] = {}
    for index, page in enumerate(document.pages):
        for name in page.anchors:
            where.setdefault(name, index)
    total = len(document.pages)
    allowed = len(columns)
    problems: list[Problem] = []
    for n in range(1, allowed + 1):
        start, end = where.get(f"sheet-page-{n}"), where.get(f"sheet-page-{n}-end")
        if start is None or end is None or end <= start:
            continue
        counts = [text_lines(document.pages[i], columns[n - 1]) for i in range(start + 1, end + 1)]
        lines = sum(c for c in counts if c is not None)
        by = f" by {lines} {'line' if lines == 1 else 'lines'}" if None not in counts else ""
        extra = end - start
        problems.append(
            Problem(
                "sheet",
                None,
                f"page {n} overflows{by} "
                f"({extra} extra {'page' if extra == 1 else 'pages'}; {total} pages produced, {allowed} allowed); "
                f"take rules out of sheet.yaml or shorten their summaries: text is never set below {MIN_PT:g} pt",
                code=Code.SHEET_OVERFLOW,
            )
        )
    if not problems and total != allowed:
        problems.append(Problem("sheet", None, f"{total} pages produced, {allowed} expected", code=Code.SHEET_OVERFLOW))
    return problems


def text_lines(page: Any, columns: int) -> int | None:
    """The lines of text laid out on a page, counted per column by their vertical position.

    A rule ID floated to the end of a line shares that line; one pushed below it takes a line
    of its own and is counted; a badge inside a line is part of it. This reads WeasyPrint's
    box tree, which is not public API: if it ever changes shape, the count is just left out.
    """
    try:
        from weasyprint.formatting_structure.boxes import LineBox

        box = page._page_box
        left, width = box.content_box_x(), box.width
    except (ImportError, AttributeError):
        return None
    seen: set[tuple[int, int]] = set()

    def note(child: Any) -> None:
        column = min(columns - 1, max(0, int((child.position_x - left) * columns / width)))
        seen.add((column, round(child.position_y / 3)))

    def visit(parent: Any, in_line: bool) -> None:
        for child in getattr(parent, "children", ()):
            if isinstance(child, LineBox):
                note(child)
                visit(child, True)
            elif child.is_floated():
                note(child)
            elif not in_line:
                visit(child, False)
            else:
                visit(child, True)

    try:
        visit(box, False)
    except AttributeError:
        return None
    return len(seen)


def write_pdf(html_text: str, columns: tuple[int, ...]) -> Printed:
    """The sheet as PDF bytes (fonts subset and embedded); ``columns``: each sheet page's count.

    Raises :class:`SheetError` saying by how much a page overflows instead of shrinking type.
    """
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    css = CSS(string=font_css(), font_config=fonts)
    document = HTML(string=html_text).render(stylesheets=[css], font_config=fonts)
    problems = overflow(document, columns)
    if problems:
        raise SheetError(problems)
    pdf = document.write_pdf(pdf_tags=True)  # tagged: screen readers follow the reading order
    return Printed(pdf, len(document.pages))


def write_pngs(pdf_path: Path, dpi: int = 110) -> list[Path]:
    """Page images beside the PDF (``<name>-1.png``, ``<name>-2.png``): previews for people and the site.

    Uses pypdfium2 when installed, else Poppler's ``pdftoppm`` (Debian: poppler-utils).
    """
    stem = pdf_path.with_suffix("")
    try:
        import pypdfium2
    except ModuleNotFoundError:
        pypdfium2 = None
    if pypdfium2 is not None:
        out = []
        document = pypdfium2.PdfDocument(str(pdf_path))
        for n, page in enumerate(document, 1):
            path = Path(f"{stem}-{n}.png")
            page.render(scale=dpi / 72).to_pil().save(path)
            out.append(path)
        return out
    import shutil
    import subprocess

    tool = shutil.which("pdftoppm")
    if tool is None:
        raise SheetError(
            [
                Problem(
                    "png",
                    None,
                    "neither pypdfium2 nor pdftoppm is installed; `apt-get install -y poppler-utils`",
                    code=Code.SHEET_TOOL,
                )
            ]
        )
    for old in pdf_path.parent.glob(f"{stem.name}-*.png"):
        old.unlink()
    subprocess.run([tool, "-r", str(dpi), "-png", str(pdf_path), str(stem)], check=True)
    return sorted(pdf_path.parent.glob(f"{stem.name}-*.png"))
