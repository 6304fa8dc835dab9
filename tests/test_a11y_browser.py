"""Every page type, as a phone reader meets it, passes axe-core and holds still while it loads.

The real site (both languages, both rulesets, the in-browser engine) is served by a plain static
host and opened in headless Chromium on a phone viewport. axe-core (npm ``axe-core``, pinned in
package.json, its ``axe.min.js`` injected into the page) checks the home page, a rule page, the
glossary, search results, the Ask page (a starting point chosen and a question answered), the
solo rules, the solo Trogs' page, the page of position templates (code wider than a phone) and the
Advanced Cry Havoc 2 chart (one wider than a phone) and lookup pages: any critical or serious
violation fails; a box that scrolls is a tab stop, one that fits is not. On the pages with forms
every control must be at least 44×44 px to tap (the control or its label), and so must the links
under the phone's navigation and the rules' "What the assistant checks" folds. The link to the
Trogs' page sits under its page's title. The layout shift (CLS, Chromium's ``layout-shift``
entries, as Lighthouse sums them without input-caused shifts) of a rule page and the Ask page must
stay under 0.1. Verdicts keep their contrast in the light and the dark theme. A keyboard on a
phone-wide page meets furo's menu button (made one) and never the closed menu's unseen links.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import PHONE, browser, static_host  # noqa: F401 - browser is a shared fixture
from test_engine_browser import offline_copy
from test_site import REPO, Site, real_site  # noqa: F401 - the fixture is shared

from havoc.cli import main
from havoc.engine import rulebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
CHARTS = rulebook.site_path("advanced-cry-havoc")
LANGS = ("en", "pl")
SEARCH_WORD = {"en": "battle", "pl": "bitwa"}
MIN_TARGET = 44
MAX_CLS = 0.1


def ensure_axe() -> Path:
    """axe-core as package-lock.json pins it, installed when missing (never skipped)."""
    if not AXE.is_file():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=REPO, check=True, capture_output=True)
    return AXE


@pytest.fixture(scope="module")
def site(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """The real site with the chart ruleset's site and the in-browser engine beside it (the run's
    engine, which `havoc docs` finds current and keeps)."""
    out = offline_copy(real_site.out, tmp_path_factory, "a11y")
    assert main(["docs", "--ruleset", "advanced-cry-havoc", "--lang", "all", "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def host(site: Path) -> Iterator[str]:
    with static_host(site) as base:
        yield base


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:  # noqa: F811
    """A fresh phone for each test: no form kept from an earlier one (the Ask page stores it)."""
    context = browser.new_context(**PHONE, service_workers="block")
    yield context
    context.close()


def _ask_ready(page: Any) -> None:
    page.wait_for_selector("#ha-kind", state="attached")
    page.locator("[data-template=tpl-actions]").first.tap()


def _answered(page: Any) -> None:
    page.locator("button.ha-ask").first.tap()
    page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=180_000)


def _ask_answered(page: Any) -> None:
    _ask_ready(page)
    _answered(page)


def _trogs_ready(page: Any) -> None:
    page.wait_for_selector("#ht-decision", state="attached")


def _search_ready(page: Any) -> None:
    page.locator("ul.search li").first.wait_for()


# Each page type: its address under the language's folder, and what to do before checking it.
PAGES: dict[str, tuple[str, Any]] = {
    "home": ("{lang}/index.html", None),
    "rule": ("{lang}/rules/battle-regions.html", None),
    "glossary": ("{lang}/glossary.html", None),
    "search": ("{lang}/search.html?q={word}", _search_ready),
    "ask": ("{lang}/assistant.html", _ask_ready),
    "ask-answered": ("{lang}/assistant.html", _ask_answered),
    "solo": ("{lang}/rules/solo.html", None),
    "solo-trogs": ("{lang}/trogs.html", _trogs_ready),
    "charts-rule": (f"{CHARTS}/{{lang}}/rules/courage.html", None),
    "charts-wide": (f"{CHARTS}/{{lang}}/rules/combat-table.html", None),  # charts wider than a phone
    "positions": ("{lang}/positions.html", None),  # YAML lines longer than a phone is wide
    "charts-lookup": (f"{CHARTS}/{{lang}}/lookup.html", None),
}

# Pages with a form a thumb fills in, and the part of the page that holds it.
FORMS = {"ask": "#havoc-ask", "solo-trogs": "#havoc-trogs", "charts-lookup": "#havoc-charts"}


def _open(phone: Any, host: str, kind: str, lang: str) -> Any:
    address, ready = PAGES[kind]
    page = phone.new_page()
    page.goto(f"{host}/" + address.format(lang=lang, word=SEARCH_WORD[lang]))
    page.wait_for_load_state("load")
    if ready is not None:
        ready(page)
    return page


def add_axe(page: Any) -> None:
    """axe-core into ``page``, run by the browser's DevTools protocol as a tool's code is: the
    site's Content-Security-Policy allows no inline script (which ``add_script_tag`` writes)."""
    page.evaluate(ensure_axe().read_text(encoding="utf-8"))


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's critical and serious violations on ``page``, each with a few of its elements."""
    add_axe(page)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter(v => v.impact === 'critical' || v.impact === 'serious')
            .map(v => ({id: v.id, impact: v.impact, count: v.nodes.length,
                        where: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}))"""
    )
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", list(PAGES))
def test_no_critical_or_serious_axe_violation(audit: Any, kind: str, lang: str) -> None:
    found = audit(kind, lang)["axe"]
    assert not found, f"{kind} ({lang}):\n" + json.dumps(found, indent=1, ensure_ascii=False)


SMALL_TARGETS = """([root, least]) => {
  const small = [];
  for (const el of document.querySelectorAll(root + ' :is(input, select, button, textarea, summary)')) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
    let w = box.width, h = box.height;
    const label = el.closest('label') || (el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]'));
    if (label) { const l = label.getBoundingClientRect(); w = Math.max(w, l.width); h = Math.max(h, l.height); }
    if (w < least || h < least) small.push(`${el.tagName.toLowerCase()}[${el.type || ''}] ${el.id || el.className} ${Math.round(w)}×${Math.round(h)}`);
  }
  return small;
}"""


@pytest.fixture(scope="module")
def audit(browser: Any, host: str) -> Iterator[Callable[[str, str], dict[str, Any]]]:  # noqa: F811
    """What a page type shows a phone reader, looked at once per page load and shared by the tests
    that read it: axe-core's violations, and on a page with a form its controls' sizes (read
    before axe-core is added). Each page loads in a phone of its own, as a fresh reader opens it
    (the Ask page stores its form); the answered Ask page is the same page once the question is
    asked, as a reader gets it, so its engine starts once, not twice."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}

    def look(page: Any, kind: str, lang: str) -> None:
        found: dict[str, Any] = {}
        if kind in FORMS:
            found["small"] = page.evaluate(SMALL_TARGETS, [FORMS[kind], MIN_TARGET])
            found["count"] = page.evaluate(
                f"document.querySelectorAll('{FORMS[kind]} :is(input, select, button)').length"
            )
        found["axe"] = axe_violations(page)
        seen[(kind, lang)] = found

    def measured(kind: str, lang: str) -> dict[str, Any]:
        if (kind, lang) not in seen:
            context = browser.new_context(**PHONE, service_workers="block")
            try:
                page = _open(context, host, "ask" if kind == "ask-answered" else kind, lang)
                if kind in ("ask", "ask-answered"):
                    look(page, "ask", lang)
                    _answered(page)
                    look(page, "ask-answered", lang)
                else:
                    look(page, kind, lang)
            finally:
                context.close()
        return seen[(kind, lang)]

    yield measured


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", list(FORMS))
def test_every_control_is_big_enough_to_tap(audit: Any, kind: str, lang: str) -> None:
    small, count = audit(kind, lang)["small"], audit(kind, lang)["count"]
    assert count >= 3, f"{kind} ({lang}): the form is not there"
    assert not small, f"{kind} ({lang}): under {MIN_TARGET}×{MIN_TARGET} px: {small}"


# Every layout shift from the start of the load, as Lighthouse counts them on an emulated phone:
# Chromium marks shifts right after a load under emulation as "after input", though nobody
# touched the page, so none is left out (the test touches nothing before reading them).
WATCH_SHIFTS = """window.__havocShifts = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__havocShifts.push(
  {value: e.value, at: Math.round(e.startTime), what: (e.sources || []).map(s => s.node ? s.node.nodeName + '.' + s.node.className : '')}
); }).observe({type: 'layout-shift', buffered: true});"""

STEADY_PAGES = {
    "rule": PAGES["rule"],
    "ask": ("{lang}/assistant.html", None),
    "solo": PAGES["solo"],
    "solo-trogs": PAGES["solo-trogs"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", list(STEADY_PAGES))
def test_the_page_holds_still_while_it_loads(browser: Any, host: str, kind: str, lang: str) -> None:  # noqa: F811
    context = browser.new_context(**PHONE, service_workers="block")
    context.add_init_script(WATCH_SHIFTS)
    page = context.new_page()
    page.goto(f"{host}/" + STEADY_PAGES[kind][0].format(lang=lang))
    page.wait_for_load_state("networkidle")
    if kind == "ask":
        page.wait_for_selector("#ha-kind", state="attached")  # the form is built
    elif kind == "solo-trogs":
        page.wait_for_selector("#ht-decision", state="attached")
    page.wait_for_timeout(1500)  # late fonts, scripts and the engine's first words
    shifts = page.evaluate("window.__havocShifts")
    context.close()
    cls = sum(s["value"] for s in shifts)
    print(kind, lang, f"CLS {cls:.4f}")
    assert cls < MAX_CLS, f"{kind} ({lang}): CLS {cls:.3f}: {shifts}"


SIDEBAR_NUMBERS = """() => {
  const bad = [];
  for (const num of document.querySelectorAll('.sidebar-tree a.reference > .havoc-num')) {
    const box = num.getBoundingClientRect();
    if (!box.height) continue;
    const text = num.nextSibling;
    const range = document.createRange();
    range.selectNodeContents(text);
    const rects = [...range.getClientRects()].filter(r => r.width > 0);
    const gap = rects.length ? rects[0].left - box.right : 99;
    const line = parseFloat(getComputedStyle(num).lineHeight) || 24;
    if (box.height > line * 1.5 || gap < 3) bad.push(`${num.textContent}: ${Math.round(box.height)} px high, ${Math.round(gap)} px gap`);
  }
  return bad;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_sidebar_numbers_stand_apart_on_a_phone(phone: Any, host: str, lang: str) -> None:
    """In the phone's navigation drawer a rule's number sits on one line, a space before its title
    (the links there are flex boxes, where the space after the number would collapse)."""
    page = _open(phone, host, "rule", lang)
    page.evaluate("document.getElementById('__navigation').checked = true")
    page.wait_for_timeout(300)
    bad = page.evaluate(SIDEBAR_NUMBERS)
    count = page.evaluate("document.querySelectorAll('.sidebar-tree a.reference > .havoc-num').length")
    page.close()
    assert count >= 10, f"{lang}: the sidebar has no numbered rules"
    assert not bad, f"{lang}: {bad}"


SCROLL_STOPS = """() => [...document.querySelectorAll('pre, .havoc-chart-scroll')].filter(b => b.clientWidth).map(b => ({
  scrolls: b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1,
  stop: b.tabIndex === 0 && b.hasAttribute('tabindex')}))"""


def test_a_code_block_that_scrolls_is_a_tab_stop_and_one_that_fits_is_not(browser: Any, host: str) -> None:  # noqa: F811
    """On a phone a keyboard can reach (and scroll) a code block wider than the screen; on a wide
    screen, where it fits, it is no stop on the way (the wide charts are the axe test's)."""
    found = {}
    for name, viewport in (("phone", PHONE), ("desk", {"viewport": {"width": 1400, "height": 900}})):
        context = browser.new_context(**viewport, service_workers="block")
        page = context.new_page()
        page.goto(f"{host}/" + PAGES["positions"][0].format(lang="en"))
        page.wait_for_load_state("load")
        found[name] = page.evaluate(SCROLL_STOPS)
        context.close()
    for name, boxes in found.items():
        assert all(b["scrolls"] == b["stop"] for b in boxes), (name, boxes)
    assert sum(b["stop"] for b in found["phone"]) >= 2, found  # the page still has wide code to test
    assert sum(b["stop"] for b in found["desk"]) < sum(b["stop"] for b in found["phone"]), found


DRAWER_TARGETS = """() => [...document.querySelectorAll('.havoc-sidebar-links a, .havoc-sidebar-links span:not(.havoc-sep)')]
  .map(a => [a.textContent.trim(), Math.round(a.getBoundingClientRect().height)])"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_drawers_links_and_the_checks_fold_are_big_enough_to_tap(phone: Any, host: str, lang: str) -> None:
    """Under the phone's navigation, the indexes, the printable sheet, the other rulebooks and the
    languages are as tall as the navigation's own links; so is a rule's "What the assistant checks"."""
    page = _open(phone, host, "rule", lang)
    page.evaluate("document.getElementById('__navigation').checked = true")
    page.wait_for_timeout(300)
    links = page.evaluate(DRAWER_TARGETS)
    folds = page.evaluate(
        "[...document.querySelectorAll('article details.havoc-check > summary')].map(s => s.getBoundingClientRect().height)"
    )
    page.close()
    assert len(links) >= 5 and folds, (links, folds)
    assert all(h >= MIN_TARGET for _, h in links), links
    assert all(h >= MIN_TARGET for h in folds), folds


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("address", ["{lang}/assistant.html", "{lang}/rules/solo.html"])
def test_the_trogs_link_sits_under_the_pages_title(phone: Any, host: str, address: str, lang: str) -> None:
    """The page's title comes first, on screen and to a screen reader; the link to the Trogs'
    page follows it."""
    page = phone.new_page()
    page.goto(f"{host}/" + address.format(lang=lang))
    order = page.evaluate(
        """() => { const h1 = document.querySelector('article h1'), link = document.querySelector('.havoc-trogs-link');
        return link ? !!(h1.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING) : null; }"""
    )
    page.close()
    assert order is True, order


def test_the_battle_table_heads_only_what_it_holds(phone: Any, host: str) -> None:
    """The Battle's objectives table (factions by objectives) has no empty header cell in its corner."""
    page = phone.new_page()
    page.goto(f"{host}/en/assistant.html")
    page.wait_for_selector("#ha-kind", state="attached")
    page.locator("[data-template=tpl-battle]").first.tap()
    page.wait_for_selector("table.ha-objectives")
    add_axe(page)
    found = page.evaluate(
        """async () => (await axe.run('table.ha-objectives', {runOnly: ['empty-table-header', 'th-has-data-cells']}))
        .violations.map(v => v.id)"""
    )
    page.close()
    assert found == [], found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_yes_and_no_keep_their_contrast_in_either_theme(browser: Any, host: str, scheme: str) -> None:  # noqa: F811
    """The verdicts of the rules' examples (opened) and the Ask page's "No" are readable on the
    theme's light and dark backgrounds (furo follows the reader's system choice)."""
    context = browser.new_context(**PHONE, service_workers="block", color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{host}/en/rules/battle-regions.html")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    verdicts = page.locator(".havoc-verdict-yes, .havoc-verdict-no").count()
    add_axe(page)
    found = page.evaluate(CONTRAST)
    page.goto(f"{host}/en/assistant.html")
    page.wait_for_selector("#ha-kind", state="attached")
    page.locator("[data-template=tpl-battle]").first.tap()
    page.locator('[data-path="region:0.units.humans"]').fill("8")
    page.locator('[data-path="region:0.units.pilgrims"]').fill("3")
    page.locator("#ha-kind").select_option("move")
    page.locator('[data-path="q.units"]').fill("3")  # 8 defenders, 3 attackers: only 2 may leave
    page.locator('[data-path="q.to"]').select_option("example-b")  # the template leaves "To" to the player
    page.locator("button.ha-ask").first.tap()
    page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=180_000)
    no = page.locator(".ha-verdict-no").count()
    add_axe(page)
    found += page.evaluate(CONTRAST)
    context.close()
    assert verdicts >= 3 and no == 1, (verdicts, no)
    assert not found, found


CONTRAST = """async () => (await axe.run(document, {runOnly: ['color-contrast']})).violations
  .flatMap(v => v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary))"""


FOCUSED = """() => { const e = document.activeElement, r = e.getBoundingClientRect();
  return {what: e.tagName + '.' + String(e.className), inDrawer: !!e.closest('.sidebar-drawer, .toc-drawer'),
          menu: e.tagName === 'BUTTON' && !!e.closest('label.nav-overlay-icon'),
          onScreen: r.width > 0 && r.right > 0 && r.left < innerWidth}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_keyboard_on_a_phone_meets_the_menu_button_not_the_closed_menu(browser: Any, host: str, lang: str) -> None:  # noqa: F811
    """Tab from the top of a rule page as wide as a phone: no stop is in a closed drawer or off
    the screen (the skip link shows itself); the menu button is a stop, Enter opens the menu and
    goes into it, Escape closes it and comes back to the button."""
    context = browser.new_context(viewport=PHONE["viewport"], service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/" + PAGES["rule"][0].format(lang=lang))
    page.wait_for_load_state("load")
    stops = []
    for _ in range(12):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUSED))
    unseen = [s["what"] for s in stops if s["inDrawer"] or not (s["onScreen"] or "skip-to-content" in s["what"])]
    menu = "label.nav-overlay-icon button"
    page.locator(menu).focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(400)  # the drawer slides in (250 ms)
    opened, inside = page.evaluate("document.getElementById('__navigation').checked"), page.evaluate(FOCUSED)
    page.keyboard.press("Escape")
    closed, back = not page.evaluate("document.getElementById('__navigation').checked"), page.evaluate(FOCUSED)
    context.close()
    assert not unseen, unseen
    assert any(s["menu"] for s in stops), [s["what"] for s in stops]
    assert opened and inside["inDrawer"] and inside["onScreen"], inside
    assert closed and back["menu"], back


ICONS = """() => [...document.querySelectorAll('label.toc-overlay-icon, label.nav-overlay-icon')]
  .filter(l => l.getBoundingClientRect().width > 0).map(l => l.className)"""


def test_the_drawer_buttons_show_only_where_their_drawers_fold_away(browser: Any, host: str) -> None:  # noqa: F811
    """On a wide screen the navigation and the page's contents are columns of the page: no button
    to open them (one that did nothing was a stop for the keyboard); on a phone one of each, in the header."""
    found = {}
    for width in (1400, 390):
        context = browser.new_context(viewport={"width": width, "height": 844}, service_workers="block")
        page = context.new_page()
        page.goto(f"{host}/" + PAGES["rule"][0].format(lang="en"))
        page.wait_for_load_state("load")
        found[width] = sorted(page.evaluate(ICONS))
        context.close()
    assert found[1400] == [], found
    assert found[390] == ["nav-overlay-icon", "toc-overlay-icon toc-header-icon"], found


@pytest.mark.parametrize("address", ["pl/trogs.html", f"{CHARTS}/pl/lookup.html"])
def test_where_the_answer_is_worked_out_is_said_once(phone: Any, host: str, address: str) -> None:
    """That the page answers on this device, offline too, is the engine's status line's to say
    (it says so only once the engine runs); the introduction above it no longer says it again."""
    page = phone.new_page()
    page.goto(f"{host}/{address}")
    page.wait_for_function("() => document.querySelector('article').innerText.includes('bez sieci')", timeout=120_000)
    said = page.evaluate("document.querySelector('article').innerText.split('bez sieci').length - 1")
    page.close()
    assert said == 1, said


EXAMPLE_EDGES = """() => [...document.querySelectorAll('details.havoc-example')].map(d => {
  const b = d.getBoundingClientRect(), s = d.querySelector(':scope > summary').getBoundingClientRect(), c = getComputedStyle(d);
  return [Math.round(s.left - b.left - parseFloat(c.borderLeftWidth)), Math.round(b.right - parseFloat(c.borderRightWidth) - s.right),
          Math.round(s.height)]; })"""


def test_an_examples_title_is_a_full_width_target(phone: Any, host: str) -> None:
    """A folded example on a phone is its title: a band from the box's edge to its edge, 44 px
    high (it stopped short of both edges, a white strip each side)."""
    page = _open(phone, host, "rule", "pl")
    edges = page.evaluate(EXAMPLE_EDGES)
    page.close()
    assert edges, "the rule page has no example"
    assert all(left == 0 and right == 0 and height >= MIN_TARGET for left, right, height in edges), edges
