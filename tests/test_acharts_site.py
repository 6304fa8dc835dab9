"""Advanced Cry Havoc 2 on the site: an introduction first, and chart tables that keep their
header row and first column in view on a phone (built into a scratch folder, real Chromium)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import browser, served  # noqa: F401 - one Chromium for the file
from test_site import Site, acv_site, real_site  # noqa: F401 - the session's sites, shared

from havoc.engine import rulebook

RULESET = "advanced-cry-havoc"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def test_the_introduction_comes_first_and_names_every_open_case() -> None:
    from havoc.language.i18n import translator

    rs = rulebook.load(RULESET)
    assert rs.parts[0].section_ids == ("about",)
    about = rs.sections["about"]
    assert about.rule_ids[:2] == ("acv-about-covers", "acv-about-open")  # then the abbreviations the charts use
    links = set(re.findall(r"\(rule:([a-z0-9-]+)\)", rs.rules["acv-about-open"].text))
    open_cases = {
        "acv-combat-table",
        "acv-morale-against-courage",
        "acv-ranged-undetermined",
        "acv-status-undetermined",
    }
    assert open_cases <= links
    tr = translator("pl", rs.id)
    polish = tr.text("acv-about-open:text", rs.rules["acv-about-open"].text)
    assert polish != rs.rules["acv-about-open"].text and "nigdy nie zgaduje" in polish
    assert set(re.findall(r"\(rule:([a-z0-9-]+)\)", polish)) >= open_cases


@pytest.fixture(scope="module")
def site(acv_site: Site) -> Iterator[str]:  # noqa: F811
    """The run's Advanced Cry Havoc 2 site (tests/test_site.py), its English pages served."""
    with served(acv_site.out) as base:
        yield base + "/en"


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize(
    ("page_name", "row", "tall"), [("status", 10, True), ("close-combat", 15, True), ("combat-table", 12, False)]
)
def test_a_chart_keeps_its_header_row_and_first_column_in_view_on_a_phone(
    browser: Any,  # noqa: F811
    site: str,
    page_name: str,
    row: int,
    tall: bool,
) -> None:
    page = browser.new_page(**PHONE)
    try:
        page.goto(f"{site}/rules/{page_name}.html")
        box = page.locator(".havoc-chart-scroll").first
        box.scroll_into_view_if_needed()
        scrolled = box.evaluate(
            "e => { e.scrollLeft = 10000; e.scrollTop = 10000; return [e.scrollLeft, e.scrollTop]; }"
        )
        page.wait_for_timeout(100)
        frame = box.bounding_box()
        head = box.locator("thead th").last.bounding_box()
        first = box.locator("tbody tr").nth(row).locator("td").first.bounding_box()
    finally:
        page.close()
    assert frame and head and first
    assert scrolled[0] > 0  # wider than a phone: it scrolls sideways in its box
    assert (scrolled[1] > 0) == tall  # a tall chart scrolls down in its box too (at most 80% of the screen)
    assert frame["height"] <= 0.8 * PHONE["viewport"]["height"] + 1
    if tall:  # scrolled down to its end, the header row is still at the top of the box
        assert head["y"] == pytest.approx(frame["y"], abs=1.5)
    assert first["x"] == pytest.approx(frame["x"], abs=1.5)  # the first column stays at the left


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "word"), [("en", "Rulebooks"), ("pl", "Podręczniki")])
def test_the_main_home_page_links_the_charts(real_site: Site, lang: str, word: str) -> None:  # noqa: F811
    home = real_site.page(lang, "index.html")
    block = home[home.index('class="havoc-home-rulebooks') :][:600]
    assert word in block
    assert f'href="../{rulebook.site_path(RULESET)}/{lang}/index.html">Advanced Cry Havoc 2</a>' in block
