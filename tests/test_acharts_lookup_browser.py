"""The Advanced Cry Havoc 2 chart lookup page in headless Chromium on a phone, with no network.

The ruleset's site is built as ``havoc docs`` builds it (both languages, the in-browser engine,
the service worker) and served by a plain static host. After the first visit the network is cut;
the lookup page then answers a range, a courage and a modifier lookup in English and in Polish
through the engine in the browser, and each answer is the one ``havoc charts`` gives for the
request the page sent.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import ARGS, CHROMIUM, PHONE, SCREENSHOTS, served
from test_engine_browser import ensure_pyodide, shared_engine

from havoc.cli import main
from havoc.engine import rulebook
from havoc.games.advanced_cry_havoc.charts import lookup

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RULESET = "advanced-cry-havoc"
READY = {"en": "work without a network", "pl": "także bez sieci"}
FIX = {"en": "distance: expected", "pl": "odległość: oczekiwano"}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    ensure_pyodide()
    out = tmp_path_factory.mktemp("acharts-offline") / "site"
    # the run's engine, as a second `havoc docs` finds the one it made: checked, found current, kept
    shutil.copytree(shared_engine(tmp_path_factory), out / "_engine")
    assert main(["docs", "--ruleset", RULESET, "--lang", "all", "-o", str(out)]) == 0
    assert (out / "sw.js").is_file() and (out / rulebook.site_path(RULESET) / "pl" / "lookup.html").is_file()
    with served(out) as base:
        yield base


def answer(pg: Any, lang: str) -> tuple[dict[str, Any], str]:
    """The request the page sent and the answer it shows, once it shows one."""
    pg.wait_for_selector("#hc-answer.hc-ok, #hc-answer.hc-error", timeout=120_000)
    assert pg.get_attribute("#hc-answer", "class") == "hc-answer hc-ok", pg.inner_text("#hc-answer")
    sent = json.loads(pg.get_attribute("#havoc-charts", "data-request"))
    assert sent.pop("lang") == lang
    return sent, pg.inner_text("#hc-answer .hc-text")


# Tap "Look up" the moment the engine says it is ready (after the page's own listener, which sends
# its warm-up lookup), and time it in the page to the answer shown: what a reader who taps at once
# waits for. Null when the engine was ready before this was set up (then the figure would flatter).
TIMED_TAP = """form => new Promise(resolve => {
  const out = document.getElementById("hc-answer");
  let armed = false, tapped = false;
  window.havocEngine.onstate(s => {
    if (s.stage !== "ready" || tapped) return;
    tapped = true;
    if (!armed) { resolve(null); return; }
    const t0 = performance.now();
    const seen = new MutationObserver(() => {
      if (/\\bhc-(ok|error)\\b/.test(out.className)) { seen.disconnect(); resolve(performance.now() - t0); }
    });
    seen.observe(out, {attributes: true});
    document.querySelector(form + " button.hc-go").click();
  });
  armed = true;
})"""


def first_lookup_ms(pg: Any, form: str) -> float:
    """How long the first lookup takes when tapped as the engine becomes ready (NaN, and a plain
    tap, when it was ready already)."""
    ms = pg.evaluate(TIMED_TAP, form)
    if ms is None:
        pg.click(f"{form} button.hc-go")
        return float("nan")
    return float(ms)


def expected(request: dict[str, Any], lang: str) -> str:
    """The CLI's answer to the same request, without its last line (the page links those rules)."""
    text = lookup(rulebook.load(RULESET), request, lang)["text"]
    return "\n".join(text.split("\n")[:-1])


def test_the_lookup_page_answers_with_the_network_cut(host: str) -> None:
    from playwright.sync_api import sync_playwright

    base = f"{host}/{rulebook.site_path(RULESET)}"
    figures: dict[str, float] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(**PHONE, service_workers="allow")
        pg = context.new_page()
        outside: list[str] = []
        pg.on("request", lambda r: outside.append(r.url) if not r.url.startswith((host, "data:", "blob:")) else None)
        started = time.perf_counter()
        pg.goto(f"{base}/en/lookup.html")
        figures["first lookup once ready, first visit (ms)"] = first_lookup_ms(pg, "form[data-chart=range]")
        answer(pg, "en")
        figures["first answer, first visit (s)"] = time.perf_counter() - started
        pg.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)

        context.set_offline(True)
        for lang in ("pl", "en"):
            started = time.perf_counter()
            pg.goto(f"{base}/{lang}/lookup.html")  # the Polish page was never opened before the network went
            assert pg.locator("#hc-state").inner_text()  # a loading state, then the engine's readiness
            pg.select_option("form[data-chart=range] select[name=weapon]", index=6)
            pg.fill("form[data-chart=range] input[name=distance]", "12")
            figures[f"first lookup once ready offline, {lang} (ms)"] = first_lookup_ms(pg, "form[data-chart=range]")
            sent, shown = answer(pg, lang)
            figures[f"first answer offline, {lang} (s)"] = time.perf_counter() - started
            assert sent["chart"] == "range" and sent["distance"] == "12"
            assert shown == expected(sent, lang)
            assert READY[lang] in pg.inner_text("#hc-state")
            # a bad number is a located message in the page's language, and no stale answer stays
            pg.fill("form[data-chart=range] input[name=distance]", "0")
            pg.click("form[data-chart=range] button.hc-go")
            pg.wait_for_selector("#hc-answer.hc-error", timeout=30_000)
            assert FIX[lang] in pg.inner_text("#hc-answer") and pg.locator("#hc-answer .hc-text").count() == 0

            pg.select_option("select[name=chart]", "courage")
            pg.fill("form[data-chart=courage] input[name=def]", "12")
            pg.check("form[data-chart=courage] input[value=mounted]")
            pg.click("form[data-chart=courage] button.hc-go")
            sent, shown = answer(pg, lang)
            assert sent == {"chart": "courage", "def": "12", "mounted": True}
            assert shown == expected(sent, lang)
            assert shown.startswith("DEF 12 (" + ("konny): odwaga 7" if lang == "pl" else "mounted): courage"))

            pg.select_option("select[name=chart]", "combat")
            combat = "form[data-chart=combat]"
            targets = pg.locator(f"{combat} .hc-lines[data-name=target] input[type=checkbox]")
            targets.nth(0).check()
            targets.nth(1).check()
            pg.locator(f"{combat} .hc-lines[data-name=attacker] select.hc-count").first.select_option("2")
            pg.click(f"{combat} button.hc-go")
            sent, shown = answer(pg, lang)
            assert len(sent["target"]) == 2 and sent["attacker"][0].endswith(":2") and not sent["ranged"]
            assert shown == expected(sent, lang)
            assert pg.locator("#hc-answer .hc-rules a").count() == 3  # shifts, modifiers, the combat table
            pg.screenshot(path=str(SCREENSHOTS / f"acharts-lookup-offline-{lang}-phone.png"), full_page=True)
        context.close()
        browser.close()
    assert not outside, outside
    print(" ".join(f"{k}: {v:.1f}" for k, v in figures.items()))  # for the record (-s), never asserted


def test_without_the_engine_the_page_says_so_in_its_language(host: str) -> None:
    """An engine that cannot start (its files are gone) is reported, and a tap gets no stale answer."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(**PHONE, service_workers="block")
        context.route("**/_engine/**", lambda route: route.abort())
        pg = context.new_page()
        pg.goto(f"{host}/{rulebook.site_path(RULESET)}/pl/lookup.html")
        pg.wait_for_selector("#havoc-charts[data-stage=failed]", state="attached", timeout=60_000)
        state = pg.inner_text("#hc-state")
        pg.click("form[data-chart=range] button.hc-go")
        pg.wait_for_selector("#hc-answer.hc-error", timeout=30_000)
        shown = pg.inner_text("#hc-answer")
        context.close()
        browser.close()
    assert state == "Sprawdzanie nie może się uruchomić w tej przeglądarce."
    assert shown == "Sprawdzanie nie dało odpowiedzi. Spróbuj ponownie albo wczytaj stronę od nowa."
