"""The real site in real headless Chromium (Debian's ``chromium``): switcher, tooltips, Polish search.

Serves the session's real site (built by tests/test_site.py's fixture) from a localhost thread.
Screenshots of a rule page on a 390×844 phone viewport go to build/screenshots/.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from test_site import REPO, Site, real_site  # noqa: F401 - the fixture is shared

from havoc import rulebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SCREENSHOTS = REPO / "build" / "screenshots"
RULE_PAGE = "rules/battle-regions.html"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server(real_site: Site) -> Iterator[str]:  # noqa: F811
    handler = functools.partial(_QuietHandler, directory=str(real_site.out))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def test_switcher_leads_to_the_same_page(browser: Any, server: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/pl/{RULE_PAGE}")
    assert page.locator("html").get_attribute("lang") == "pl"
    page.locator(".mobile-header a.havoc-lang").click()
    page.wait_for_url(f"{server}/en/{RULE_PAGE}")
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator(".mobile-header a.havoc-lang").click()
    page.wait_for_url(f"{server}/pl/{RULE_PAGE}")
    page.close()


def test_root_page_picks_the_browser_language(browser: Any, server: str) -> None:
    for locale, lang in (("pl-PL", "pl"), ("en-GB", "en"), ("de-DE", "en")):
        context = browser.new_context(locale=locale)
        page = context.new_page()
        page.goto(f"{server}/index.html")
        page.wait_for_url(re.compile(rf"/{lang}/index\.html$"))
        context.close()


def _first_term(page: Any) -> Any:
    link = page.locator("article a.havoc-term-ref").first
    link.scroll_into_view_if_needed()
    return link


def test_term_definition_on_hover(browser: Any, server: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/pl/{RULE_PAGE}")
    link = _first_term(page)
    link.hover()
    tip = page.locator("#havoc-tooltip")
    tip.wait_for(state="visible")
    text = tip.inner_text()
    assert len(text) > 10
    href = link.get_attribute("href")
    term_id = href.split("#term-")[1]
    glossary = browser.new_page()
    glossary.goto(f"{server}/pl/{href.replace('../', '')}")
    definition = glossary.locator(f"#term-{term_id} > p:not(.havoc-plural)").first.inner_text()
    assert " ".join(definition.split())[:30] == " ".join(text.split())[:30]
    page.close()
    glossary.close()


def test_term_definition_on_tap(browser: Any, server: str) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    url = f"{server}/pl/{RULE_PAGE}"
    page.goto(url)
    link = _first_term(page)
    link.tap()
    tip = page.locator("#havoc-tooltip")
    tip.wait_for(state="visible")
    assert page.url == url
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "pl-tooltip.png"))
    link.tap()
    page.wait_for_url(re.compile(r"/pl/glossary\.html#term-"))
    context.close()


@pytest.mark.parametrize(
    ("query", "term_id"),
    [("oddziałów", "unit"), ("jeńców", "prisoner"), ("kryształy", "crystal"), ("bitwie", "battle")],
)
def test_polish_search_finds_the_right_page(
    browser: Any,
    server: str,
    real_site: Site,  # noqa: F811
    query: str,
    term_id: str,
) -> None:
    rs = rulebook.load(real_site.ruleset, real_site.rules)
    term = rs.terms[term_id]
    wanted = {f"glossary.html#term-{term_id}"} | {
        f"rules/{rs.rules[r].section_id}.html" for r in term.see if r in rs.rules
    }
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/pl/search.html?q={query}")
    page.locator("ul.search li").first.wait_for()
    hrefs = [a.get_attribute("href") for a in page.locator("ul.search li > a").all()[:3]]
    page.close()
    top = [h.split("?")[0] for h in hrefs]
    assert any(h == w or h.split("#")[0] == w for h in top for w in wanted), (
        f"{query}: top 3 {top}, wanted one of {sorted(wanted)}"
    )


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_phone_screenshot_of_a_rule_page(browser: Any, server: str, lang: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/{lang}/{RULE_PAGE}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{lang}-rule.png"))
    example = page.locator(".havoc-example").first
    if example.count():
        example.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{lang}-example.png"))
    # nothing wider than the phone: no sideways scrolling
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{lang}: the page is {width}px wide"
    page.close()
