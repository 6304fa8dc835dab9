"""Back from a rule link when the browser did NOT keep the page (issue 40): the answer is on
screen at once, before the engine is up, and the engine then asks again to confirm it.

A phone's browser may load the Ask page afresh on the way back (memory pressure, a page its
back/forward cache refuses): without a copy, the answer waited for the engine's whole start.
The page keeps its last answer with the request it answers in this tab's sessionStorage; these
tests run with the back/forward cache off (Playwright's default), so every way back is a fresh
load. The answer must be shown while the engine is not yet ready, and a kept answer that is not
what the engine says (another build's) is redrawn from the engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_back_browser import answered, browse
from test_browser import static_host
from test_engine_browser import offline_copy
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# When the answer is first shown on a load, the engine's stage then and whether it was the kept copy.
WATCH = """
new MutationObserver(() => {
  const hook = document.getElementById('havoc-answer');
  if (hook && hook.dataset.state === 'done' && window.__firstDone === undefined) {
    window.__firstDone = {stage: window.havocEngine ? window.havocEngine.state().stage : 'none', kept: hook.dataset.kept || ''};
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-state'], childList: true});
"""


@pytest.fixture(scope="module")
def host(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # noqa: F811
    with static_host(offline_copy(real_site.out, tmp_path_factory, "back-kept")) as base:
        yield base


def _first_shown(page: Any) -> dict[str, str]:
    page.wait_for_function("() => window.__firstDone !== undefined", timeout=120_000)
    return dict(page.evaluate("() => window.__firstDone"))


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_fresh_load_on_the_way_back_shows_the_answer_before_the_engine_is_up(
    host: str, lang: str, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = browse(p, tmp_path / "profile", back_forward_cache=False)
        ctx.add_init_script(WATCH)
        page = ctx.new_page()
        answer = answered(page, f"{host}/{lang}/assistant.html")
        page.locator("#havoc-answer a[href*='rules/']").first.click()
        page.wait_for_load_state("load")
        assert "/rules/" in page.url
        page.go_back(wait_until="load")
        first = _first_shown(page)
        assert page.evaluate("() => window.__restored") is False  # loaded afresh: no back/forward cache
        assert first["kept"] == "shown" and first["stage"] != "ready", first
        assert page.inner_text("#ha-answer") == answer
        # the engine, once up, asks the same question and finds the same answer: nothing redrawn
        page.wait_for_function(
            "() => document.getElementById('havoc-answer').dataset.kept === 'confirmed'", timeout=240_000
        )
        assert page.inner_text("#ha-answer") == answer
        assert page.get_attribute("#havoc-answer", "data-state") == "done"
        ctx.close()


def test_a_kept_answer_the_engine_does_not_give_is_redrawn(host: str, tmp_path: Path) -> None:
    """A kept copy is only a first look: one the engine answers otherwise (a rebuilt site's
    rules; here, a copy altered in sessionStorage) gives way to the engine's answer."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = browse(p, tmp_path / "profile", back_forward_cache=False)
        ctx.add_init_script(WATCH)
        page = ctx.new_page()
        answer = answered(page, f"{host}/en/assistant.html")
        page.evaluate(
            """() => { const kept = JSON.parse(sessionStorage.getItem('havoc-ask-answer'));
                       kept.res.answer.question = 'A question of another build';
                       sessionStorage.setItem('havoc-ask-answer', JSON.stringify(kept)); }"""
        )
        page.reload(wait_until="load")
        first = _first_shown(page)
        assert first["kept"] == "shown", first
        assert "A question of another build" in page.inner_text("#ha-answer")
        page.wait_for_function(
            "() => document.getElementById('havoc-answer').dataset.kept === 'redrawn'", timeout=240_000
        )
        assert page.inner_text("#ha-answer") == answer
        ctx.close()
