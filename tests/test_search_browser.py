"""The built site's search in headless Chromium: the query subset through search.html?q=…,
Sphinx's result markup, clean snippets, and the phone header's field with results as you type.

Screenshots of the phone search (390×844) go to build/screenshots/search-<lang>-*.png.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

import pytest
from test_browser import ARGS, CHROMIUM, PHONE, SCREENSHOTS, server  # noqa: F401 - shared fixtures
from test_search import REQUIRED, TOP, query_set, top3_rate
from test_site import Site, anchors, real_site  # noqa: F401

from havoc.search import lookup

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Any:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _results(page: Any) -> list[dict[str, Any]]:
    page.wait_for_function(
        "() => document.querySelector('#search-results p.search-summary') && document.querySelector('#search-results p.search-summary').textContent.length > 0"
    )
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('#search-results ul.search > li')).map(li => ({
            href: li.querySelector('a').getAttribute('href'),
            title: li.querySelector('a').textContent,
            html: li.innerHTML,
            text: li.querySelector('p.context').textContent,
            marks: Array.from(li.querySelectorAll('mark')).map(m => [m.textContent,
                (m.previousSibling && m.previousSibling.textContent || '').slice(-1),
                (m.nextSibling && m.nextSibling.textContent || '').slice(0, 1)]),
        }))"""
    )


def _rule_id(href: str) -> str:
    path, anchor = href.split("#", 1)
    return f"term:{anchor[len('term-') :]}" if path.endswith("glossary.html") else anchor


def test_query_subset_top3_on_the_built_site(browser: Any, server: str, real_site: Site) -> None:  # noqa: F811
    queries = [q for q in query_set() if q.browser]
    assert len(queries) >= 20
    page = browser.new_page(**PHONE)
    found = {}
    for q in queries:
        page.goto(f"{server}/{q.lang}/search.html?q={urllib.parse.quote(q.text)}")
        results = _results(page)
        hrefs = [r["href"] for r in results]
        # the same ranking as the Python core, links to the rule's own anchor on a real page
        assert hrefs == [h.url for h in lookup(q.text, q.lang, len(hrefs))], q
        for href in hrefs[:TOP]:
            path, anchor = href.split("#", 1)
            assert anchor in anchors(real_site.page(q.lang, path)), href
        assert len(set(hrefs)) == len(hrefs), f"{q!r}: duplicates"
        for r in results:
            assert not re.search(r"&#?\w+;", r["title"] + r["text"]), r
            for word, before, after in r["marks"]:
                assert re.fullmatch(r"[^\W_]+", word), r
                assert not before.isalnum() and not after.isalnum(), (word, before, after)
        found[q] = [_rule_id(h) for h in hrefs]
    page.close()
    rate, misses = top3_rate(found)
    assert rate >= REQUIRED, f"browser top-3 {rate:.1%} < {REQUIRED:.0%}:\n" + "\n".join(misses)


@pytest.mark.parametrize(("lang", "query", "expect"), [("pl", "wykup jeńców", "prisoners"), ("en", "sztab", "hq")])
def test_phone_header_search_shows_results_as_you_type(
    browser: Any,
    server: str,  # noqa: F811
    lang: str,
    query: str,
    expect: str,
) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/{lang}/rules/battle.html")
    field = page.locator(".mobile-header .havoc-header-search input")
    box = field.bounding_box()
    assert box and box["y"] + box["height"] <= 844 / 4 and box["height"] >= 40, box  # one tap, at the top
    field.tap()
    page.keyboard.type(query, delay=15)
    page.locator(".havoc-search-pop:not([hidden]) li a").first.wait_for()
    hrefs = page.eval_on_selector_all(".havoc-search-pop li > a", "els => els.map(e => e.getAttribute('href'))")
    assert any(expect in h for h in hrefs[:TOP]), hrefs
    assert all(h.startswith("../") for h in hrefs)  # relative to this page, from rules/
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"search-{lang}-typing.png"))
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\.html\?q="))
    results = _results(page)
    assert results and page.locator("#search-results p.search-summary").text_content()
    page.screenshot(path=str(SCREENSHOTS / f"search-{lang}-page.png"))
    page.close()


def test_the_other_languages_index_loads_only_for_its_words(browser: Any, server: str) -> None:  # noqa: F811
    """Typing English on the English site reads the site's own index only; a Polish word loads
    the rest (havoc-searchindex-more.js), and then finds the rule too."""
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/en/rules/battle.html")
    field = page.locator(".mobile-header .havoc-header-search input")
    field.tap()
    page.keyboard.type("how many units may retreat", delay=15)
    page.locator(".havoc-search-pop:not([hidden]) li a").first.wait_for()
    assert page.evaluate("typeof window.HAVOC_SEARCH_INDEX") == "object"
    assert page.evaluate("typeof window.HAVOC_SEARCH_MORE") == "undefined"
    field.fill("")
    page.keyboard.type("odwrót", delay=15)
    page.wait_for_function("() => typeof window.HAVOC_SEARCH_MORE === 'object'")
    page.wait_for_function("() => document.querySelector('.havoc-search-pop li a[href*=\"retreat\"]') !== null")
    page.close()
