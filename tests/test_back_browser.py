"""Back from a rule link, the Ask page is as it was (issue 40): the browser keeps the page whole in
its back/forward cache, so the engine does not start again and the answer is still on screen.

Playwright turns the back/forward cache off by default (``--disable-back-forward-cache``); a
phone's browser has it on, so these tests turn it back on. A page the cache refuses (an
``unload`` handler, ``Cache-Control: no-store``, a lock held) loads afresh, restarting the
engine: the test then fails, naming the reasons Chromium gives.

On a first visit the service worker installs while the reader asks; if it took over the open
pages (``clients.claim()``) while the Ask page was in that cache, Chromium would drop the page
("ServiceWorkerClaim"), and one told the worker's state changing there too ("JavaScriptExecution").
The last test holds one of the files the worker keeps until the reader is on the rule's page, so
that the worker takes over while the reader is there or on the way back."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import ARGS, CHROMIUM, served, static_host
from test_engine_browser import offline_copy
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    return offline_copy(real_site.out, tmp_path_factory, "back")


@pytest.fixture(scope="module")
def host(site: Path) -> Iterator[str]:
    with static_host(site) as base:
        yield base


HELD = "/pl/index.html"  # kept by the service worker, never opened by these tests


class _Holding(http.server.SimpleHTTPRequestHandler):
    """A static host that answers HELD only once ``release`` is set (the worker's install waits)."""

    release = threading.Event()
    asked = threading.Event()

    def do_GET(self) -> None:
        if self.path.split("?")[0] == HELD:
            self.asked.set()
            self.release.wait(timeout=240)
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture()
def holding(site: Path) -> Iterator[tuple[str, type[_Holding]]]:
    handler = type("Holding", (_Holding,), {"release": threading.Event(), "asked": threading.Event()})
    with served(site, handler) as base:
        try:
            yield base, handler
        finally:
            handler.release.set()  # before the host shuts down: no request is left held


def browse(p: Any, profile: Path, back_forward_cache: bool = True) -> Any:
    """A phone's browser, its back/forward cache on as a phone's is (Playwright's default is off:
    ``back_forward_cache=False`` keeps it so); ``window.__restored`` says whether a page came from it."""
    ctx = p.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=ARGS,
        headless=True,
        ignore_default_args=["--disable-back-forward-cache"] if back_forward_cache else None,
        viewport={"width": 390, "height": 844},
    )
    ctx.add_init_script("window.addEventListener('pageshow', e => { window.__restored = e.persisted; });")
    return ctx


def answered(page: Any, url: str) -> str:
    """The Ask page at ``url``, its engine ready and a Battle's question answered: the answer's text."""
    page.goto(url)
    page.wait_for_function("() => window.havocEngine && window.havocEngine.state().stage === 'ready'", timeout=240_000)
    page.locator("[data-template=tpl-battle]").first.click()
    page.locator("button.ha-ask").first.click()
    page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=120_000)
    return str(page.inner_text("#ha-answer"))


def why_not_kept(ctx: Any, page: Any) -> list[Any]:
    reasons: list[Any] = []
    cdp = ctx.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.on("Page.backForwardCacheNotUsed", lambda e: reasons.append(e.get("notRestoredExplanations")))
    return reasons


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_back_from_a_rule_link_keeps_the_engine_and_the_answer(host: str, lang: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = browse(p, tmp_path / "profile")
        page = ctx.new_page()
        answer = answered(page, f"{host}/{lang}/assistant.html")
        page.evaluate("() => { window.__same = 'this page'; }")
        reasons = why_not_kept(ctx, page)
        page.locator("#havoc-answer a[href*='rules/']").first.click()
        page.wait_for_load_state("load")
        assert "/rules/" in page.url
        page.go_back(wait_until="commit")
        page.wait_for_function("() => window.__restored !== undefined", timeout=30_000)
        restored = page.evaluate("() => [window.__restored, window.__same, window.havocEngine.state().stage]")
        assert restored == [True, "this page", "ready"], reasons
        assert page.get_attribute("#havoc-answer", "data-state") == "done"
        assert page.inner_text("#ha-answer") == answer
        ctx.close()


def test_the_service_worker_taking_over_meanwhile_leaves_the_page_in_the_cache(
    holding: tuple[str, type[_Holding]], tmp_path: Path
) -> None:
    """A first visit's service worker finishes its install while the reader reads a rule (held
    until then) and takes over around the time the reader goes back, a little later each round:
    each time the page comes back from the back/forward cache, its engine and answer with it.
    (Before the worker left parked pages alone, 3 of 5 such rounds loaded the page afresh:
    "ServiceWorkerClaim", and "JavaScriptExecution" for the worker's state told to the page.)"""
    from playwright.sync_api import sync_playwright

    host, handler = holding
    with sync_playwright() as p:
        for round_ in range(4):
            handler.release.clear()
            handler.asked.clear()
            ctx = browse(p, tmp_path / f"profile-{round_}")
            page = ctx.new_page()
            answer = answered(page, f"{host}/en/assistant.html")
            assert handler.asked.wait(timeout=240), "the service worker never asked for the held file"
            # the worker is still installing: nothing controls this page yet
            assert page.evaluate("() => navigator.serviceWorker.controller === null")
            page.evaluate("() => { window.__same = 'this page'; }")
            reasons = why_not_kept(ctx, page)
            page.locator("#havoc-answer a[href*='rules/']").first.click()
            page.wait_for_load_state("load")
            assert "/rules/" in page.url
            handler.release.set()  # the install completes and the worker takes over, about now
            page.wait_for_timeout(500 + 250 * round_)
            page.go_back(wait_until="commit")
            page.wait_for_function("() => window.__restored !== undefined", timeout=30_000)
            restored = page.evaluate("() => [window.__restored, window.__same, window.havocEngine.state().stage]")
            assert restored == [True, "this page", "ready"], (round_, reasons)
            assert page.inner_text("#ha-answer") == answer
            # the page, still open, is served by the worker from its next navigation on
            page.reload()
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
            ctx.close()
