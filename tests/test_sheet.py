"""The sheet's layout and HTML: validation with locations, catalog messages, coverage, CLI.

These tests need no WeasyPrint; the printed PDF is tested in test_sheet_pdf.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from havoc import quickref
from havoc.cli import main
from havoc.core.errors import RulebookError
from havoc.engine import rulebook
from havoc.language import markup
from havoc.quickref import layout as sheet_layout
from havoc.quickref.render import BODY_PT, ID_PT, MIN_PT, stylesheet

MINI_SHEET = """\
title: Quick reference
subtitle: Mini
legend: Grey IDs name the rule.
pages:
  - columns: 3
    blocks:
      - id: draw
        title: Drawing
        rules: [draw]
      - id: steps
        title: Steps
        numbering: upper-alpha
        titles: true
        rules: [draw-hand-limit]
  - columns: 2
    blocks:
      - id: numbers
        kind: table
        title: Numbers
        header: [No., What]
        rows:
          - {rule: draw-hand-limit, param: hand-limit}
      - id: terms
        kind: terms
        title: Key terms
        terms: [unit]
"""


def write_sheet(rules: Path, text: str, ruleset: str = "mini") -> Path:
    path = rules / ruleset / "sheet.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(rules: Path) -> str:
    rs = rulebook.load("mini")
    with pytest.raises(RulebookError) as info:
        sheet_layout.load_layout(rs, rules / "mini")
    return "\n".join(str(p) for p in info.value.problems)


# --- layout ----------------------------------------------------------------------------------


def test_layout_reads_and_checks(mini_copy: Path) -> None:
    write_sheet(mini_copy, MINI_SHEET)
    lo = sheet_layout.load_layout(rulebook.load("mini"), mini_copy / "mini")
    assert [p.columns for p in lo.pages] == [3, 2]
    assert [b.id for b in lo.blocks()] == ["draw", "steps", "numbers", "terms"]
    assert lo.pages[1].blocks[0].rows[0].param == "hand-limit"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("rules: [draw]", "rules: [nope]"), r"sheet\.yaml:9: block draw: unknown rule or section 'nope'"),
        (
            ("rules: [draw]", "rules: [old-leave]"),
            r"unknown rule or section 'old-leave' \(retired; use 'battle-region-leave'\)",
        ),
        (("rules: [draw]", "rules: [draw-hand-limt]"), r"did you mean 'draw-hand-limit'\?"),
        (
            ("rules: [draw]", "rules: [battle-region-leave]"),
            r":9: block draw: rule 'battle-region-leave' has no summary",
        ),
        (
            ("  - columns: 2", "  - colums: 2"),
            r"sheet\.yaml:15: page 2: unknown field 'colums' \(did you mean 'columns'\?\)",
        ),
        (
            ("  - columns: 2", "  - columns: 2\n    body-pt: 6.5"),
            r"sheet\.yaml:16: page 2\.body-pt: expected a type size from 7 to 10 points, found 6\.5",
        ),
        (("param: hand-limit", "param: hand-limt"), r":22: block numbers: unknown parameter 'hand-limt'"),
        (("terms: [unit]", "terms: [unti]"), r":26: block terms: unknown term 'unti'"),
        (("numbering: upper-alpha", "numbering: roman"), r":12: block steps\.numbering: expected one of"),
        (("id: steps", "id: draw"), r":10: block draw: duplicate block ID \(first at line 7\)"),
        (("kind: table", "kind: tabel"), r"block numbers\.kind: expected one of list, table, terms"),
        (("header: [No., What]", "header: [No.]"), r"block numbers\.header: expected two column headings"),
        (
            ("rules: [draw]", "rules: [{section: draw, rules: [solo-hand]}]"),
            r"rule 'solo-hand' is not in section 'draw'",
        ),
    ],
)
def test_layout_errors_are_located(mini_copy: Path, edit: tuple[str, str], expected: str) -> None:
    old, new = edit
    assert old in MINI_SHEET
    write_sheet(mini_copy, MINI_SHEET.replace(old, new, 1))
    found = problems_of(mini_copy)
    assert re.search(expected, found), found
    assert "rules/mini/sheet.yaml:" in found


def test_layout_needs_two_pages(mini_copy: Path) -> None:
    one_page = MINI_SHEET[: MINI_SHEET.index("  - columns: 2")]
    write_sheet(mini_copy, one_page)
    assert "expected 2 pages (front and back), found 1" in problems_of(mini_copy)


def test_layout_error_exits_1_with_location(
    mini_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_sheet(mini_copy, MINI_SHEET.replace("rules: [draw]", "rules: [nope]"))
    code = main(["sheet", "--ruleset", "mini", "--lang", "en", "-o", str(tmp_path / "en.html")])
    assert code == 1
    err = capsys.readouterr().err
    assert "rules/mini/sheet.yaml:9: block draw: unknown rule or section 'nope'" in err
    assert "Traceback" not in err
    assert not (tmp_path / "en.html").exists()


def test_sheet_messages_give_context_file_and_line(mini_copy: Path) -> None:
    write_sheet(mini_copy, MINI_SHEET)
    found = {m.context: m for m in sheet_layout.sheet_messages(mini_copy / "mini")}
    assert found["sheet:title"].msgid == "Quick reference"
    assert found["sheet:draw:title"].msgid == "Drawing"
    assert (found["sheet:draw:title"].file, found["sheet:draw:title"].line) == ("rules/mini/sheet.yaml", 7)
    assert found["sheet:numbers:header-1"].msgid == "No."
    assert found["sheet:numbers:header-2"].msgid == "What"
    assert {"sheet:subtitle", "sheet:legend", "sheet:steps:title", "sheet:terms:title"} <= set(found)


def test_no_layout_no_messages(mini_copy: Path) -> None:
    assert list(sheet_layout.sheet_messages(mini_copy / "mini")) == []


# --- HTML ------------------------------------------------------------------------------------


def test_html_lines_carry_rule_ids_and_values(mini_copy: Path) -> None:
    write_sheet(mini_copy, MINI_SHEET)
    sheet = quickref.build_html("en", rulebook.load("mini"), mini_copy / "mini")
    html = sheet.html
    assert '<html lang="en">' in html
    assert 'data-rule="draw-hand-limit"' in html
    assert '<span class="rid">§' in html and "draw-hand-limit</span>" not in html  # cited by number, not ID
    assert 'Draw <b class="n">4</b>, keep <b class="n">7</b>.' in html  # parameter values, in bold
    assert '<span class="mark">A</span><b class="rt">Hand limit.</b>' in html  # numbering and titles
    assert '<td class="num">7</td>' in html  # table row: the parameter's value
    assert '<b class="tn">Unit</b> A miniature of an army.</p>' in html
    assert "<h2>Drawing</h2>" in html and "Draw cards" in html  # section sub-heading
    assert "@page" in html and "@media screen" in html  # print and screen stylesheet, inlined


def test_html_shows_rulings_under_the_rule_they_amend(mini_copy: Path) -> None:
    sections = mini_copy / "mini" / "sections" / "02-battle-regions.yaml"
    text = sections.read_text().replace(
        "    params:\n      leave-block-factor",
        "    summary: Defender leaves the excess.\n    params:\n      leave-block-factor",
        1,
    )
    sections.write_text(text)
    errata = mini_copy / "mini" / "overlays" / "errata.yaml"
    errata.write_text(
        errata.read_text().replace(
            "    text: The defender leaves only the excess.",
            "    text: The defender leaves only the excess.\n    summary: Only the excess leaves.",
        )
    )
    write_sheet(mini_copy, MINI_SHEET.replace("rules: [draw]", "rules: [draw, battle-region-leave]"))
    html = quickref.build_html("en", rulebook.load("mini"), mini_copy / "mini").html
    leave = html.index('data-rule="battle-region-leave"')
    ruling = html.index('class="line ruling" data-rule="faq-leave-wording"')
    assert leave < ruling


def test_polish_falls_back_to_english_and_says_so(
    mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HAVOC_LOCALES", str(tmp_path / "no-locales"))
    write_sheet(mini_copy, MINI_SHEET)
    sheet = quickref.build_html("pl", rulebook.load("mini"), mini_copy / "mini")
    assert '<html lang="pl">' in sheet.html
    assert "Draw <b" in sheet.html
    assert "draw-hand-limit:summary" in sheet.untranslated and "sheet:draw:title" in sheet.untranslated


def test_html_only_output_needs_no_weasyprint(
    mini_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_sheet(mini_copy, MINI_SHEET)
    out = tmp_path / "sheet.html"
    assert main(["sheet", "--ruleset", "mini", "--lang", "en", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert not out.with_suffix(".pdf").exists()
    assert "en: wrote" in capsys.readouterr().out


def test_cli_does_not_import_weasyprint() -> None:
    code = (
        "import sys; from havoc.cli import build_parser; build_parser(); "
        "import havoc.quickref, havoc.cli.commands.sheet; "
        "sys.exit(1 if 'weasyprint' in sys.modules else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_type_never_below_7pt() -> None:
    assert MIN_PT == 7.0
    assert BODY_PT >= MIN_PT and ID_PT >= MIN_PT
    css = stylesheet()
    for value in re.findall(r"font-size:\s*([^;]+);", css):
        value = value.strip()
        if value.startswith("var("):
            assert value in ("var(--body)", "var(--id)"), value
        else:
            m = re.fullmatch(r"([\d.]+)pt", value)
            assert m, f"font-size {value!r}: give sizes in pt so the minimum can be checked"
            assert float(m.group(1)) >= MIN_PT, value


# --- the real sheet --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_html() -> str:
    return quickref.build_html("en").html


def on_sheet(html: str) -> set[str]:
    return set(re.findall(r'data-(?:rule|section)="([a-z0-9-]+)"', html))


def test_real_layout_names_only_existing_rules() -> None:
    rs = rulebook.load()
    lo = sheet_layout.load_layout(rs, rulebook.rules_root() / rs.id)
    assert len(lo.pages) == 2
    contexts = [m.context for m in sheet_layout.sheet_messages(rulebook.rules_root() / rs.id)]
    assert len(contexts) == len(set(contexts))
    assert all(f"sheet:{b.id}:title" in contexts for b in lo.blocks())


@pytest.mark.parametrize(
    "section", ["battle-regions", "objectives", "after-battle", "end-of-game", "neutral-trogs", "trogs-faction"]
)
def test_real_sheet_has_every_rule_of(real_html: str, section: str) -> None:
    rs = rulebook.load()
    missing = [r for r in rs.sections[section].rule_ids if rs.rules[r].summary and r not in on_sheet(real_html)]
    assert not missing, f"section {section}: not on the sheet: {missing}"


def test_real_sheet_has_every_phase_step_and_limit(real_html: str) -> None:
    rs = rulebook.load()
    shown = on_sheet(real_html)
    phases = [
        p.target
        for p in markup.walk(markup.parse(rs.rules["round-phases"].text))
        if isinstance(p, markup.Ref) and p.kind == "rule"
    ]
    assert len(phases) == 6
    for rid in phases:
        assert rs.rules[rid].section_id in shown, f"phase section of {rid} is not on the sheet"
    steps = [
        p.target
        for p in markup.walk(markup.parse(rs.rules["battle-steps"].text))
        if isinstance(p, markup.Ref) and p.kind == "rule"
    ]
    assert len(steps) == 7
    assert set(steps) <= shown
    actions = next(p for p in rs.parts if p.id == "part-actions")
    for sid in actions.section_ids:
        limits = [r for r in rs.sections[sid].rule_ids if rs.rules[r].params]
        assert set(limits) <= shown, f"{sid}: limits missing from the sheet"
    solo = [r for r in rs.overlays["solo"].rule_ids if r in shown]
    assert solo, "the solo variant's Trogs are not on the sheet"


def test_real_sheet_tabulates_every_source_of_vp(real_html: str) -> None:
    """Every parameter counted in VP that a player gains is a row of the VP table."""
    rs = rulebook.load()
    rows = set(re.findall(r'<tr data-rule="([a-z0-9-]+)">', real_html))
    gains = {p.rule_id for p in rs.params.values() if p.unit == "VP" and p.rule_id in rs.view().rules}
    costs_or_thresholds = {r for r in gains if not re.search(r"\+\{", rs.rules[r].summary or "")}
    assert gains - costs_or_thresholds <= rows


def test_strip_split_keeps_order_and_evens_the_columns() -> None:
    from havoc.quickref.render import _partition

    assert _partition([2, 9, 7, 5, 3, 3, 1], 3) == [(0, 2), (2, 4), (4, 7)]  # 11, 12, 7: no split is under 12
    assert _partition([4, 4, 4, 4, 4, 4], 3) == [(0, 2), (2, 4), (4, 6)]
    assert _partition([20, 1, 1], 3) == [(0, 1), (1, 3), (3, 3)]  # an entry is never split; an empty column is kept
    assert _partition([], 2) == [(0, 0), (0, 0)]


def test_real_strip_puts_each_entry_whole_in_one_of_three_columns(real_html: str) -> None:
    strip = real_html.split('id="block-round"', 1)[1].split("</section>", 1)[0]
    columns = strip.split('<div class="strip-column">')[1:]
    assert len(columns) == 3
    sections = [re.findall(r'data-section="([a-z0-9-]+)"', c) for c in columns]
    assert all(sections), sections  # every column starts or holds a section, none is empty
    assert [s for c in sections for s in c] == ["events", "draw-cards", "actions", "battle", "prisoners", "scoring"]


def test_missing_font_names_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from havoc.quickref import pdf

    monkeypatch.setattr(pdf, "FONT_DIRS", ())
    monkeypatch.setenv("HAVOC_FONT_DIR", str(tmp_path))
    with pytest.raises(pdf.SheetError) as info:
        pdf.find_fonts()
    message = str(info.value)
    assert "DejaVuSansCondensed.ttf" in message and "apt-get install -y fonts-dejavu-core fonts-dejavu-extra" in message
