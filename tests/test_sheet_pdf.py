"""The printed sheets: two A4 pages, embedded fonts, extractable text in both languages.

Builds the real sheets once per run with WeasyPrint (about 2 s each; :func:`real_sheets`, shared
with tests/test_sheet_layout_pdf.py) and reads the PDFs back with pypdf, as a reader's PDF viewer
would.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import built_once

from havoc import quickref
from havoc.cli import main
from havoc.engine import rulebook
from havoc.engine.numbering import numbers
from havoc.language import markup
from havoc.language.i18n import Translator
from havoc.quickref.render import MIN_PT

pytest.importorskip("weasyprint")
pypdf = pytest.importorskip("pypdf")

pytestmark = pytest.mark.slow

A4 = (595.28, 841.89)  # points
POLISH_LETTERS = "ąćęłńóśźż"


def pdf_text(path: Path) -> str:
    """The PDF's text as a reader would search it: hyphenated breaks joined, spaces collapsed."""
    reader = pypdf.PdfReader(path)
    text = "\n".join(page.extract_text() for page in reader.pages)
    text = re.sub(r"[\u2010\u00ad]\s*\n\s*", "", text)  # a hyphen WeasyPrint added at a line break
    return re.sub(r"\s+", " ", text.replace("\u00a0", " "))


def contains(text: str, phrase: str) -> bool:
    """Case-insensitive (block headings are set in capitals) and blind to line breaks."""
    return re.sub(r"\s+", " ", phrase).casefold() in text.casefold()


RULESETS = ("cry-havoc", "advanced-cry-havoc")


# The day the run's sheets say they were made (their footer's "As of"): one fixed day, so the
# sheets are the same bytes whenever the run is and a test may read the footer's date.
SHEET_DAY = int(dt.datetime(2026, 12, 3, 12, tzinfo=dt.UTC).timestamp())


def _build_sheets(folder: Path) -> dict[tuple[str, str], tuple[Path, tuple[int, ...]]]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HAVOC_CACHE_DIR", str(folder / "cache"))
        mp.setenv("SOURCE_DATE_EPOCH", str(SHEET_DAY))
        built = {}
        for name in RULESETS:
            rs = rulebook.load(name)
            for lang in ("en", "pl"):
                pdf = folder / name / f"{lang}.pdf"
                sheet = quickref.build(lang, pdf, pdf.with_suffix(".html"), rs, rulebook.ruleset_folder(name))
                built[(name, lang)] = (pdf, sheet.columns)
        return built


def real_sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[Path, tuple[int, ...]]]:
    """Every ruleset's real sheet in both languages, (ruleset, lang) -> (its PDF, with its HTML
    beside it; its pages' columns): built once per run for both sheet test files and both xdist
    workers (conftest ``built_once``), into a scratch folder with a scratch cache, dated
    :data:`SHEET_DAY`. Read them only."""
    return built_once(tmp_path_factory, "sheets", _build_sheets)


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Both real sheets of the default ruleset (cry-havoc), by language."""
    built = real_sheets(tmp_path_factory)
    yield {lang: built[(rulebook.default_ruleset(), lang)][0] for lang in ("en", "pl")}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_exactly_two_a4_pages(sheets: dict[str, Path], lang: str) -> None:
    reader = pypdf.PdfReader(sheets[lang])
    assert len(reader.pages) == 2
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(A4, abs=0.5)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_fonts_are_embedded(sheets: dict[str, Path], lang: str) -> None:
    reader = pypdf.PdfReader(sheets[lang])
    seen = set()
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = descendant["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font["/BaseFont"]
            seen.add(str(font["/BaseFont"]))
    assert seen and all("Havoc-Sheet" in name for name in seen), seen


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_no_text_below_7pt(sheets: dict[str, Path], lang: str) -> None:
    sizes: set[float] = set()

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            sizes.add(round(abs(size * tm[3] * cm[3]), 2))

    for page in pypdf.PdfReader(sheets[lang]).pages:
        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= MIN_PT, sorted(sizes)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_phase_battle_step_and_objective_is_printed(sheets: dict[str, Path], lang: str) -> None:
    rs = rulebook.load()
    tr = Translator(lang, scope=rs.id)
    text = pdf_text(sheets[lang])

    def refs(rid: str) -> list[str]:
        pieces = markup.walk(markup.parse(rs.rules[rid].text))
        return [p.target for p in pieces if isinstance(p, markup.Ref) and p.kind == "rule"]

    phases = refs("round-phases")
    assert len(phases) == 6
    for rid in phases:
        sid = rs.rules[rid].section_id
        title = tr.text(f"{sid}:title", rs.sections[sid].title)
        assert contains(text, title), f"phase {title!r} is not on the {lang} sheet"
    steps = refs("battle-steps")
    assert len(steps) == 7
    for letter, rid in zip("ABCDEFG", steps, strict=True):
        title = re.sub(r"^[A-G]\. ", "", tr.text(f"{rid}:title", rs.rules[rid].title))
        assert f"§{numbers(rs)[rid]}" in text and contains(text, title), (
            f"battle step {letter} ({rid}) is not on the {lang} sheet"
        )
    for tid in ("region-control", "capture-prisoners", "attrition"):
        name = tr.term_name(rs, tid)
        assert contains(text, name), f"objective {name!r} is not on the {lang} sheet"
        assert f"§{numbers(rs)[f'objective-{tid}']}" in text


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_line_carries_its_rule_number_and_no_machine_name(sheets: dict[str, Path], lang: str) -> None:
    """Each line cites its rule by the number the site shows (§11.4); no rule ID or parameter name is printed."""
    rs = rulebook.load()
    html = sheets[lang].with_suffix(".html").read_text(encoding="utf-8")
    text = pdf_text(sheets[lang])
    flat = re.sub(r"\s+", " ", text)
    for rid in set(re.findall(r'data-rule="([a-z0-9-]+)"', html)):
        assert f"§{numbers(rs)[rid]}" in flat, rid
    machine = {i for i in (*rs.rules, *rs.sections, *rs.params) if "-" in i}
    leaked = sorted(i for i in machine if re.search(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])", flat))
    assert not leaked, f"machine names on the {lang} sheet: {leaked}"


def test_polish_letters_extract_correctly(mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Polish catalog's letters come out of the PDF as they went in (font coverage, ToUnicode)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    (mini_copy / "mini" / "sheet.yaml").write_text(
        "title: Quick reference\npages:\n"
        "  - blocks: [{id: draw, title: Drawing, rules: [draw-hand-limit]}]\n"
        "  - blocks: [{id: units, kind: terms, title: Terms, terms: [unit]}]\n"
    )
    catalog = Catalog(locale="pl")
    pangram = "Zażółć gęślą jaźń: Oddział, Jeńcy, Wyniszczenie"
    catalog.add(
        "Draw {draw-count}, keep {hand-limit}.",
        f"Dobierz {{draw-count}}, zatrzymaj {{hand-limit}}. {pangram}.",
        context="mini:draw-hand-limit:summary",
    )
    catalog.add("Drawing", "Dobór kart — żółć", context="mini:sheet:draw:title")
    catalog.add("Quick reference", "Ściągawka", context="mini:sheet:title")
    catalog.add(("Unit", "Units"), ("Oddział", "Oddziały", "Oddziałów"), context="mini:term:unit:name")
    catalog.add("A miniature of an army.", "Figurka armii; źdźbło.", context="mini:term:unit:definition")
    po = tmp_path / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as fh:
        write_po(fh, catalog)
    monkeypatch.setenv("HAVOC_LOCALES", str(tmp_path / "locales"))
    out = tmp_path / "pl.pdf"
    assert main(["sheet", "--ruleset", "mini", "--lang", "pl", "-o", str(out)]) == 0
    text = pdf_text(out)
    assert pangram in text
    assert "Dobierz 4, zatrzymaj 7." in text
    assert "DOBÓR KART — ŻÓŁĆ" in text  # block headings are set in capitals
    assert "Ściągawka" in text and "Oddział Figurka armii; źdźbło." in text
    for letter in POLISH_LETTERS:
        assert letter in text, letter


def test_overflow_fails_and_says_by_how_much(
    mini_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many = ", ".join(["draw-hand-limit"] * 400)
    (mini_copy / "mini" / "sheet.yaml").write_text(
        "title: Too much\npages:\n"
        f"  - blocks: [{{id: many, title: Many, rules: [{many}]}}]\n"
        "  - blocks: [{id: few, title: Few, rules: [draw-hand-limit]}]\n"
    )
    out = tmp_path / "en.pdf"
    code = main(["sheet", "--ruleset", "mini", "--lang", "en", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    m = re.search(r"page 1 overflows by (\d+) lines \((\d+) extra pages?; (\d+) pages produced, 2 allowed\)", err)
    assert m, err
    assert int(m.group(1)) > 100 and int(m.group(3)) > 2
    assert "never set below 7 pt" in err and "Traceback" not in err
    assert not out.exists()


def test_polish_sheet_is_really_polish(sheets: dict[str, Path]) -> None:
    """Fails until locales/pl/LC_MESSAGES/rules.po translates the summaries and the sheet's headings."""
    sheet = quickref.build_html("pl")
    assert not sheet.untranslated, f"{len(sheet.untranslated)} texts still in English, e.g. {sheet.untranslated[:5]}"
    text = pdf_text(sheets["pl"])
    for word in ("Oddział", "Jeńc", "Wyniszczenie"):
        assert contains(text, word), word
    for letter in POLISH_LETTERS:
        assert letter in text, letter


def test_png_previews(sheets: dict[str, Path], tmp_path: Path) -> None:
    import shutil

    from havoc.quickref.pdf import write_pngs

    if shutil.which("pdftoppm") is None:
        pytest.importorskip("pypdfium2")
    pdf = tmp_path / "en.pdf"
    shutil.copy(sheets["en"], pdf)
    pngs = write_pngs(pdf, dpi=40)
    assert [p.name for p in pngs] == ["en-1.png", "en-2.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)
