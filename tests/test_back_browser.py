"""Back from a rule link, the Ask page is as it was (issue 40): the browser keeps the page whole in
its back/forward cache, so the engine does not start again and the answer is still on screen.

Playwright turns the back/forward cache off by default (``--disable-back-forward-cache``); a
phone's browser has it on, so these tests turn it back on. A page the cache refuses (an
``unload`` handler, ``Cache-Control: no-store``, a lock held) loads afresh, restarting the
engine: the test then fails, naming the reasons Chromium gives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import ARGS, CHROMIUM, static_host
from test_engine_browser import offline_copy
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def host(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # noqa: F811
    with static_host(offline_copy(real_site.out, tmp_path_factory, "back")) as base:
        yield base


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_back_from_a_rule_link_keeps_the_engine_and_the_answer(host: str, lang: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            ignore_default_args=["--disable-back-forward-cache"],
            viewport={"width": 390, "height": 844},
        )
        ctx.add_init_script("window.addEventListener('pageshow', e => { window.__restored = e.persisted; });")
        page = ctx.new_page()
        page.goto(f"{host}/{lang}/assistant.html")
        page.wait_for_function(
            "() => window.havocEngine && window.havocEngine.state().stage === 'ready'", timeout=240_000
        )
        page.locator("[data-template=tpl-battle]").first.click()
        page.locator("button.ha-ask").first.click()
        page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=120_000)
        answer = page.inner_text("#ha-answer")
        page.evaluate("() => { window.__same = 'this page'; }")
        reasons: list[Any] = []
        cdp = ctx.new_cdp_session(page)
        cdp.send("Page.enable")
        cdp.on("Page.backForwardCacheNotUsed", lambda e: reasons.append(e.get("notRestoredExplanations")))
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
