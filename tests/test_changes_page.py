"""The "Changes since the printed rulebook" page, the links between it and the amended rules,
and the quick-reference sheet's footer naming the layers of rules it prints (issue 41).

The page is checked on the mini fixture (where an erratum replaces a rule, so the printed text
is shown folded, and one source has no date) and on the real site (every entry of the real
errata overlay, both languages, links both ways). Expected titles and dates are the overlay's
own, looked up in the catalogs, so a new erratum is checked without editing this file.
"""

from __future__ import annotations

import datetime as dt
import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_site import MINI_RULES, REPO, Site, build_site, copy_root, mini_env, real_site  # noqa: F401 - fixtures shared

from havoc import quickref
from havoc.engine import rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.language.dates import format_date
from havoc.language.i18n import LANGUAGES, Translator

pytestmark = pytest.mark.slow

DATE_UNKNOWN = {"en": "date unknown", "pl": "data nieznana"}
TITLE = {"en": "Changes since the printed rulebook", "pl": "Zmiany od drukowanej instrukcji"}
PRINTED = {"en": "The printed text", "pl": "Tekst drukowany"}

MINI_REPLACE = """
  - id: faq2-hand-limit
    op: replace
    target: draw-hand-limit
    title: A smaller hand
    text: Keep at most five cards.
    summary: Keep five.
    source: {doc: faq2}
"""
MINI_PL = """
msgctxt "mini:faq2-hand-limit:title"
msgid "A smaller hand"
msgstr "Mniejsza ręka"

msgctxt "mini:faq2-hand-limit:text"
msgid "Keep at most five cards."
msgstr "Zachowaj najwyżej pięć kart."

msgctxt "mini:faq2-hand-limit:summary"
msgid "Keep five."
msgstr "Zachowaj pięć."

msgctxt "mini:source:faq2:title"
msgid "Second FAQ"
msgstr "Drugie FAQ"
"""


def text_of(page: str) -> str:
    """A page's words, without tags, as the reader sees them."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def section(page: str, anchor: str) -> str:
    """The HTML of the ``<section id=anchor>``, with the sections nested in it."""
    found = re.search(rf'<section [^>]*id="{re.escape(anchor)}"', page)
    assert found, anchor
    depth = 0
    for tag in re.finditer(r"<section[ >]|</section>", page[found.start() :]):
        depth += -1 if tag.group().startswith("</") else 1
        if depth == 0:
            return page[found.start() : found.start() + tag.end()]
    raise AssertionError(f"unclosed section {anchor}")


def errata_entries(rs: Ruleset) -> list[tuple[str, str, dict[str, str]]]:
    """(entry ID, target rule, its source's metadata) for every entry of the errata overlays."""
    out = []
    for overlay in rs.overlays.values():
        if overlay.kind == "errata":
            for rid in overlay.rule_ids:
                rule = rs.rules[rid]
                out.append((rid, rule.target or "", dict(overlay.sources.get(rule.source.doc or "", {}))))
    return out


def source_heading(rs: Ruleset, lang: str, doc: str) -> str:
    for overlay in rs.overlays.values():
        if doc in overlay.sources:
            return Translator(lang, scope=rs.id).text(f"source:{doc}:title", str(overlay.sources[doc]["title"]))
    raise AssertionError(doc)


def page_of(site: Site, lang: str, anchor: str) -> str:
    """The rules page (``rules/<section>.html``) on which ``anchor`` is a rule."""
    for name in sorted(site.pages(lang)):
        if name.startswith("rules/") and f'id="{anchor}"' in site.page(lang, name):
            return name
    raise AssertionError(f"no page holds {anchor}")


# --- the fixture project: a replaced rule and a source without a date ------------------------


@pytest.fixture(scope="module")
def mini_changes(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The mini site with a second, dated source, an erratum replacing a rule and the changes
    page, both languages: built once for the tests that read it (each building its own made the
    same files again)."""
    tmp_path = tmp_path_factory.mktemp("mini-changes")
    rules = tmp_path / "rules"
    shutil.copytree(MINI_RULES, rules)
    source = copy_root("test-mini", tmp_path)
    errata = rules / "mini" / "overlays" / "errata.yaml"
    text = errata.read_text(encoding="utf-8")
    text = text.replace(
        "  faq: {title: FAQ}\n", '  faq: {title: FAQ}\n  faq2: {title: Second FAQ, date: "2020-05-04"}\n'
    )
    errata.write_text(text + MINI_REPLACE, encoding="utf-8")
    po = source / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    po.write_text(po.read_text(encoding="utf-8") + MINI_PL, encoding="utf-8")
    shutil.copyfile(REPO / "docsbuild" / "changes.md", source / "changes.md")
    index = source / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8") + "\n```{toctree}\n:maxdepth: 1\n\nchanges\n```\n", encoding="utf-8"
    )
    with pytest.MonkeyPatch.context() as mp:  # as test_site.mini_env makes them the ones havoc reads
        mp.setenv("HAVOC_RULES", str(rules))
        mp.setenv("HAVOC_LOCALES", str(source / "locales"))
        mp.setenv("HAVOC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))  # as conftest's _isolated_cache
        return build_site(source, tmp_path / "site", "mini", rules)  # (for the build only: the tests read it)


def test_mini_page_groups_by_source_with_its_date_or_says_unknown(mini_changes: Site) -> None:
    for lang, may in (("en", "4 May 2020"), ("pl", "4 maja 2020")):
        page = mini_changes.page(lang, "changes.html")
        assert TITLE[lang] in page
        faq = text_of(section(page, "changes-faq"))
        assert DATE_UNKNOWN[lang] in faq and "faq-leave-wording" not in faq
        assert 'id="change-faq-leave-wording"' in section(page, "changes-faq")
        second = section(page, "changes-faq2")
        assert may in text_of(second) and 'id="change-faq2-hand-limit"' in second
        assert {"en": "Second FAQ", "pl": "Drugie FAQ"}[lang] in text_of(second)


def test_mini_replaced_rule_shows_the_printed_text_folded(mini_changes: Site) -> None:
    for lang, printed in (("en", "five"), ("pl", "pięć")):
        for name in ("changes.html", "rules/errata.html"):
            page = mini_changes.page(lang, name)
            box = re.search(r'<details class="havoc-printed-text">(.*?)</details>', page, re.S)
            assert box, (lang, name)
            words = text_of(box.group(1))
            assert PRINTED[lang] in words
            # the printed rule (draw 4, keep 7), not the erratum's new text
            assert "7" in words and printed not in words, words


def test_mini_links_go_both_ways(mini_changes: Site) -> None:
    for lang in LANGUAGES:
        page = mini_changes.page(lang, "changes.html")
        assert 'href="rules/battle-regions.html#battle-region-leave"' in section(page, "change-faq-leave-wording")
        assert 'href="rules/draw.html#draw-hand-limit"' in section(page, "change-faq2-hand-limit")
        assert 'href="../changes.html#change-faq-leave-wording"' in mini_changes.page(lang, "rules/battle-regions.html")
        assert 'href="../changes.html#change-faq2-hand-limit"' in mini_changes.page(lang, "rules/draw.html")


def test_mini_without_the_page_rule_pages_do_not_link_to_it(mini_env: tuple[Path, Path], tmp_path: Path) -> None:  # noqa: F811
    source, rules = mini_env
    site = build_site(source, tmp_path / "plain", "mini", rules, ("en",))
    assert "changes.html" not in site.page("en", "rules/battle-regions.html")


# --- the real site ------------------------------------------------------------------------------


def test_real_page_lists_every_erratum_with_source_and_date(real_site: Site) -> None:  # noqa: F811
    rs = rulebook.load()
    entries = errata_entries(rs)
    assert len(entries) >= 9
    for lang in LANGUAGES:
        page = real_site.page(lang, "changes.html")
        assert TITLE[lang] in page
        for rid, _target, meta in entries:
            doc = rs.rules[rid].source.doc or ""
            group = section(page, f"changes-{doc}")
            assert f'id="change-{rid}"' in group, (lang, rid)
            words = text_of(group)
            assert source_heading(rs, lang, doc) in words
            when = format_date(meta.get("date"), lang) or DATE_UNKNOWN[lang]
            assert when in words, (lang, rid, when)
            title = Translator(lang, scope=rs.id).text(f"{rid}:title", rs.rules[rid].title)
            assert html.unescape(title) in text_of(section(page, f"change-{rid}"))
    # the dates as a reader reads them, and none made up for the rulings that have none
    assert "19 August 2016" in real_site.page("en", "changes.html")
    assert "19 sierpnia 2016" in real_site.page("pl", "changes.html")
    assert "data nieznana" in text_of(section(real_site.page("pl", "changes.html"), "changes-rodiek-bgg"))


def test_real_page_and_rules_link_both_ways(real_site: Site) -> None:  # noqa: F811
    rs = rulebook.load()
    for lang in LANGUAGES:
        page = real_site.page(lang, "changes.html")
        assert 'href="changes.html"' in real_site.page(lang, "index.html")  # in the index's toctree
        for rid, target, _meta in errata_entries(rs):
            name = page_of(real_site, lang, target)
            assert f'href="{name}#{target}"' in section(page, f"change-{rid}"), (lang, rid)
            assert f'href="../changes.html#change-{rid}"' in real_site.page(lang, name), (lang, rid, name)


# --- the quick-reference sheet's footer ------------------------------------------------------------

# the layers in the order every answer names them (Ruleset.layers: by date, an undated source last)
FOOTER = {
    "en": (
        "Rules: Official Polish rulebook (Portal Games, 2016) + Official English rulebook (2016)"
        " + Official FAQ/Errata v1.0 (19 Aug 2016) + Designer rulings by Grant Rodiek. As of 3 Dec 2026."
    ),
    "pl": (
        "Zasady: Oficjalna polska instrukcja (Portal Games, 2016) + Oficjalna angielska instrukcja (2016)"
        " + Oficjalne FAQ i errata v1.0 (19.08.2016) + Wyjaśnienia autora gry, Granta Rodieka. Stan na 3.12.2026."
    ),
}
DAY = dt.datetime(2026, 12, 3, 12, tzinfo=dt.UTC)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sheet_footer_names_the_layers_and_the_date(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(DAY.timestamp())))
    sheet = quickref.build_html(lang)
    footer = re.search(r'<footer class="colophon">(.*?)</footer>', sheet.html, re.S)
    assert footer and text_of(footer.group(1)).replace("\u00a0", " ").strip() == FOOTER[lang]
    assert sheet.html.count('class="colophon"') == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_printed_sheet_keeps_two_pages_with_the_footer(lang: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The run's printed sheets (test_sheet_pdf.real_sheets, built once for every sheet test, on
    the same fixed day as here)."""
    pytest.importorskip("weasyprint")
    from test_sheet_pdf import SHEET_DAY, real_sheets

    assert int(DAY.timestamp()) == SHEET_DAY
    pdf, _columns = real_sheets(tmp_path_factory)[(rulebook.default_ruleset(), lang)]
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+2$", info, re.M)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    words = " ".join(text.replace("\u00a0", " ").split())
    assert FOOTER[lang] in words
