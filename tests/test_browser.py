"""The real site in real headless Chromium (Debian's ``chromium``): switcher, tooltips, Polish search.

Serves the session's real site (built by tests/test_site.py's fixture) from a localhost thread.
Screenshots of a rule page on a 390×844 phone viewport go to build/screenshots/.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_site import REPO, Site, acv_site, real_site  # noqa: F401 - the fixtures are shared

from havoc.engine import rulebook

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


@contextlib.contextmanager
def static_host(folder: Path) -> Iterator[str]:
    """``folder`` served by ``python -m http.server`` in a process of its own (a plain static host,
    no havoc), until the block ends; yields its base URL once it answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(base + "/index.html", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Python's static file handler without a log line per request."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def served(folder: Path, handler: type[http.server.SimpleHTTPRequestHandler] = QuietHandler) -> Iterator[str]:
    """``folder`` served by ``handler`` on a thread of this process (which a test can watch or
    hold, unlike :func:`static_host`'s process), until the block ends; yields its base URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def server(real_site: Site) -> Iterator[str]:  # noqa: F811
    with served(real_site.out) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


# --- a phone whose in-browser engine has started once -------------------------------------------

ENGINE_READY = "() => window.havocEngine && window.havocEngine.state().stage === 'ready'"
SNAPSHOT_SETTLED = "() => ['stored', 'not-stored', 'unsupported'].includes(window.havocEngine.snapshot().state)"


@pytest.fixture(scope="module")
def warm_phone(browser: Any, host: str) -> Iterator[Any]:
    """A phone (one browser context, for every test of the module that takes :func:`phone_page`)
    whose in-browser engine has started once on the module's ``host`` and kept its memory snapshot.

    Starting Python afresh is most of an engine start (12-15 s on the test machine, plus seconds
    storing the snapshot); a later start on the same phone restores the snapshot (3-4 s). A fresh
    phone for each test started afresh every time, and a page left before its snapshot was stored
    kept none, so each reload of the Ask page started afresh too. The snapshot is the engine's
    memory, not the reader's: a restored engine answers exactly as a started one
    (test_snapshot_browser), so a test on this phone asks the same questions of the same engine."""
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/en/assistant.html")
    page.wait_for_function(ENGINE_READY, timeout=240_000)
    page.wait_for_function(SNAPSHOT_SETTLED, timeout=240_000)
    assert page.evaluate("window.havocEngine.snapshot().state") == "stored"
    page.close()
    yield context
    context.close()


def forget(context: Any, host: str) -> None:
    """Empty what the site keeps in ``context`` for the reader (its local storage: the Ask page's
    table and form, the theme), as on a phone that never opened it; the engine's snapshot stays."""
    page = context.new_page()
    page.goto(f"{host}/_engine/engine.json")  # any file of the site's origin: the smallest load
    page.evaluate("localStorage.clear()")
    page.close()


@pytest.fixture
def phone_page(warm_phone: Any, host: str) -> Iterator[Any]:
    """A new page of :func:`warm_phone` for one test, the reader's storage empty (:func:`forget`):
    the Ask page on it starts with nothing remembered, as on a fresh phone, and its engine restores
    the snapshot. Every page the test opened on the phone is closed after it."""
    forget(warm_phone, host)
    page = warm_phone.new_page()
    yield page
    for opened in warm_phone.pages:
        opened.close()


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


def test_switcher_keeps_the_rule_anchor_and_the_query(browser: Any, server: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/pl/{RULE_PAGE}?from=share#battle-region-leave")
    page.locator(".mobile-header a.havoc-lang").click()
    page.wait_for_url(f"{server}/en/{RULE_PAGE}?from=share#battle-region-leave")
    # a rule followed after the page loaded (a link within the page) is kept too
    page.goto(f"{server}/en/{RULE_PAGE}")
    page.evaluate("location.hash = 'battle-region-no-entry'")
    page.locator(".mobile-header a.havoc-lang").click()
    page.wait_for_url(f"{server}/pl/{RULE_PAGE}#battle-region-no-entry")
    page.close()


def test_examples_and_metadata_fold_on_a_phone_and_open_on_a_wide_screen(browser: Any, server: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/pl/{RULE_PAGE}")
    example = page.locator("details.havoc-example").first
    meta = page.locator("details.havoc-meta-box").first
    assert example.get_attribute("open") is None and meta.get_attribute("open") is None
    assert not page.locator("details.havoc-example .havoc-example-facts").first.is_visible()
    example.locator("summary").click()
    assert example.get_attribute("open") is not None
    assert page.locator("details.havoc-example .havoc-example-facts").first.is_visible()
    meta.locator("summary").click()
    assert meta.locator("code.havoc-id").is_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "folded-pl-phone.png"))
    # a link to an example opens it, even on a phone
    page.goto(f"{server}/pl/{RULE_PAGE}#ex-leave-8-vs-3")
    assert page.locator("details#ex-leave-8-vs-3").get_attribute("open") is not None
    page.close()
    wide = browser.new_page(viewport={"width": 1280, "height": 900})
    wide.goto(f"{server}/en/{RULE_PAGE}")
    assert wide.locator("details.havoc-example").first.get_attribute("open") is not None
    assert wide.locator("details.havoc-meta-box code.havoc-id").first.is_visible()
    wide.close()


def test_touch_targets_in_the_phone_header_are_44_px(browser: Any, server: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/pl/{RULE_PAGE}")
    for selector in (".mobile-header a.havoc-lang", ".mobile-header .theme-toggle", ".mobile-header .toc-overlay-icon"):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (selector, box)
    page.close()


def test_print_shows_examples_in_full_without_navigation(browser: Any, server: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/pl/{RULE_PAGE}")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator("details.havoc-example").first.get_attribute("open") is not None
    assert not page.locator(".mobile-header").is_visible()
    assert not page.locator(".skip-to-content").first.is_visible()
    page.close()


# --- the reader's place and the floating controls on a phone --------------------------------

ACV = "advanced-cry-havoc"


@pytest.fixture(scope="module")
def acv_server(acv_site: Site) -> Iterator[str]:  # noqa: F811
    """The Advanced Cry Havoc 2 site, both languages, served like the main one."""
    with served(acv_site.out) as base:
        yield base


def _settled(page: Any) -> None:
    """Wait until smooth scrolling has stopped (furo scrolls smoothly to an anchor)."""
    last = None
    for _ in range(40):
        now = page.evaluate("window.scrollY")
        if now == last:
            return
        last = now
        page.wait_for_timeout(100)


def _header_bottom(page: Any) -> float:
    return float(page.evaluate("document.querySelector('.mobile-header').getBoundingClientRect().bottom"))


def _rule_top(page: Any, rule_id: str) -> float:
    return float(page.evaluate(f"document.getElementById({rule_id!r}).getBoundingClientRect().top"))


@pytest.mark.parametrize(
    ("site", "path", "rule_id", "into"),
    [
        ("main", RULE_PAGE, "battle-region-leave", 0),
        ("main", RULE_PAGE, "battle-region-attacker-marker", 150),  # scrolled past its title: still this rule
        ("acv", "rules/morale.html", "acv-morale-modifiers", 0),
    ],
)
@pytest.mark.parametrize(("lang", "other"), [("en", "pl"), ("pl", "en")])
def test_language_switch_keeps_the_rule_scrolled_to_without_an_anchor(
    browser: Any, request: pytest.FixtureRequest, site: str, path: str, rule_id: str, into: int, lang: str, other: str
) -> None:
    base = request.getfixturevalue("server" if site == "main" else "acv_server")
    page = browser.new_page(**PHONE)
    page.goto(f"{base}/{lang}/{path}")
    top = _header_bottom(page)
    # scroll by hand (no anchor in the address): the rule's top just under the header, or above it
    page.evaluate(f"window.scrollBy(0, {_rule_top(page, rule_id) - top + into})")
    _settled(page)
    assert abs(_rule_top(page, rule_id) - (top - into)) < 2, "the page is too short to scroll the rule up"
    assert "#" not in page.url
    page.locator(".mobile-header a.havoc-lang").click()
    page.wait_for_url(f"{base}/{other}/{path}#{rule_id}")
    _settled(page)
    assert page.locator("html").get_attribute("lang") == other
    top = _header_bottom(page)
    at = _rule_top(page, rule_id)
    assert top <= at <= top + 40, f"{rule_id} is at {at}px, the header ends at {top}px"
    # its title is the first thing the reader sees under the header, not hidden behind it
    title = page.locator(f"#{rule_id} > :is(h1, h2, h3, h4, h5, h6)").first.bounding_box()
    assert title is not None and title["y"] >= top
    page.close()


def test_switch_at_the_top_of_a_page_adds_no_anchor(browser: Any, server: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{server}/en/{RULE_PAGE}")
    href = page.locator(".mobile-header a.havoc-lang").get_attribute("href")
    assert href is not None and href.endswith(f"pl/{RULE_PAGE}")
    page.close()


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("viewport", [(390, 844), (412, 915), (360, 740)])
def test_back_to_top_never_covers_the_search_field_or_the_text(
    browser: Any, server: str, lang: str, viewport: tuple[int, int]
) -> None:
    """Nor is its label cut ("Powrót na g…" on a 360 px phone)."""
    width, height = viewport
    page = browser.new_page(**{**PHONE, "viewport": {"width": width, "height": height}})
    page.goto(f"{server}/{lang}/{RULE_PAGE}")
    pill = page.locator(".back-to-top")
    field = page.locator(".mobile-header .havoc-header-search input")
    seen = 0
    # down the page and back up in steps: furo shows the control while the reader scrolls up
    for step in [600] * 4 + [-150] * 6:
        page.mouse.wheel(0, step)
        page.wait_for_timeout(150)
        if not pill.is_visible():
            continue
        seen += 1
        label = pill.locator("span").evaluate("e => [e.scrollWidth, e.clientWidth, e.textContent]")
        assert label[0] <= label[1], f"the back-to-top label {label[2]!r} is cut: {label[0]} px in {label[1]} px"
        box, search = pill.bounding_box(), field.bounding_box()
        assert box is not None and search is not None
        assert not _overlap(box, search), f"back to top {box} covers the search field {search}"
        header = page.locator(".mobile-header").bounding_box()
        assert header is not None and box["y"] + box["height"] <= header["y"] + header["height"], (
            "back to top floats over the text below the header"
        )
        for button in page.locator(
            ".mobile-header :is(a.havoc-lang, .theme-toggle, .nav-overlay-icon, .toc-overlay-icon)"
        ).all():
            other = button.bounding_box()
            if other is not None and button.is_visible():
                assert not _overlap(box, other), f"back to top {box} covers a header button {other}"
    assert seen, "the back-to-top control never showed while scrolling up"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{lang}-back-to-top-{width}.png"))
    page.close()
