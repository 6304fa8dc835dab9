"""The Ask page's question box (issue 39): a question in the player's words, read by the engine in
the browser, its pieces shown as chips (``#havoc-understood``: ``data-field``, ``data-value``),
answered at once when nothing is missing, or the missing fields named and marked in the form;
``assistant.html#t=<sentence>`` asks as if typed; a sentence outside the rules is refused in the
page's language."""

from __future__ import annotations

import json
import shutil
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import PHONE, browser, static_host  # noqa: F401 - browser is a shared fixture
from test_engine_browser import ensure_pyodide
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

from havoc.cli.commands.docs import _offline as docs_offline_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SETTLED = "#havoc-answer[data-state=done], #havoc-answer[data-state=error]"


@pytest.fixture(scope="module")
def host(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # noqa: F811
    ensure_pyodide()
    out = tmp_path_factory.mktemp("text") / "site"
    shutil.copytree(real_site.out, out)
    assert docs_offline_step(out)
    with static_host(out) as base:
        yield base


def chips(page: Any) -> list[tuple[str, Any, str]]:
    found = page.eval_on_selector_all(
        "#havoc-understood .ha-chip", "cs => cs.map(c => [c.dataset.field, c.dataset.value, c.textContent])"
    )
    return [(f, json.loads(v), t) for f, v, t in found]


@pytest.mark.parametrize("width", [390, 320])
def test_a_linked_sentence_is_understood_and_answered(browser: Any, host: str, width: int) -> None:  # noqa: F811
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/pl/assistant.html#t=" + urllib.parse.quote("co mogą teraz zrobić ludzie"))
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "done"
    assert chips(page) == [("question.faction", "humans", "Ludzie")]
    assert "Co mogą teraz zrobić Ludzie?" in page.inner_text("#ha-answer")
    assert page.input_value("#ha-text") == "co mogą teraz zrobić ludzie"
    # the box fits the phone: nothing of it off-screen
    right = page.eval_on_selector(".ha-text-row", "e => e.getBoundingClientRect().right")
    assert right <= width
    context.close()


def test_a_typed_question_short_of_a_field_names_it_and_sets_the_form(browser: Any, host: str) -> None:  # noqa: F811
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/en/assistant.html")
    page.wait_for_selector("#ha-text", state="attached")
    page.fill("#ha-text", "can the humans move 2 units")
    page.locator("button.ha-text-ask").tap()
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "error"
    assert chips(page) == [("question.faction", "humans", "Humans"), ("question.units", 2, "2")]
    said = page.inner_text("#havoc-understood")
    assert "Still needed: the Region the Units leave; the Region the Units enter" in said
    assert page.input_value("#ha-kind") == "move"  # the form now holds the question, to finish there
    assert not page.is_visible("#ha-answer")  # never an answer from a guess
    context.close()


def test_a_sentence_outside_the_rules_is_refused_in_polish(browser: Any, host: str) -> None:  # noqa: F811
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/pl/assistant.html#t=" + urllib.parse.quote("jaki jest sens życia"))
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "error"
    assert "To nie jest pytanie o zasady gry." in page.inner_text("#havoc-understood")
    assert chips(page) == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_table_is_remembered_in_one_line_until_a_new_table(browser: Any, host: str, lang: str) -> None:  # noqa: F811
    """The table stays between visits (local storage) and reads as one line above the question
    box, in the page's language; "New table" clears it."""
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/{lang}/assistant.html")
    page.wait_for_selector("[data-template=tpl-battle]", state="attached")
    page.locator("[data-template=tpl-battle]").first.tap()
    line = page.inner_text("#ha-table-summary")
    humans, pilgrims = ("Humans", "Pilgrims") if lang == "en" else ("Ludzie", "Pielgrzymi")
    assert f"Region A: {humans} 4, {pilgrims} 4" in line, line
    page.goto(f"{host}/{lang}/assistant.html")  # a later visit, no link: the same table
    page.wait_for_selector("#ha-table-summary", state="attached")
    assert page.inner_text("#ha-table-summary") == line
    page.locator("button.ha-new-table").tap()
    assert "Region A" not in page.inner_text("#ha-table-summary")
    context.close()
