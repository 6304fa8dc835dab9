"""The home page's search field on a phone (issue 39's trial): its results drop down right under
the field, on the first screen, in both languages (they opened 555 px lower, off the screen)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import PHONE, browser, static_host  # noqa: F401 - browser is a shared fixture
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def host(real_site: Site) -> Iterator[str]:  # noqa: F811
    with static_host(real_site.out) as base:
        yield base


@pytest.mark.parametrize(("lang", "words"), [("en", "retreat"), ("pl", "odwrót")])
def test_the_results_drop_down_under_the_field(browser: Any, host: str, lang: str, words: str) -> None:  # noqa: F811
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/{lang}/index.html")
    field = page.locator("form.havoc-home-search input[type=search]")
    field.tap()
    field.type(words)
    page.wait_for_selector("form.havoc-home-search .havoc-search-pop:not([hidden]) a.havoc-result-title")
    place = page.evaluate(
        """() => {
          const input = document.querySelector('form.havoc-home-search input').getBoundingClientRect();
          const pop = document.querySelector('form.havoc-home-search .havoc-search-pop').getBoundingClientRect();
          const first = document.querySelector('form.havoc-home-search .havoc-search-pop a.havoc-result-title').getBoundingClientRect();
          return {gap: pop.top - input.bottom, first: first.bottom, screen: innerHeight};
        }"""
    )
    assert 0 <= place["gap"] <= 8, place  # right under the field
    assert place["first"] <= place["screen"], place  # the first result on the first screen
    context.close()


@pytest.mark.parametrize(
    ("lang", "words", "offer"),
    [
        (
            "en",
            "can the humans build an airfield in foglands",
            "Answer this question: can the humans build an airfield in foglands",
        ),
        (
            "pl",
            "czy ludzie mogą wznieść lotnisko w mgielni",
            "Odpowiedz na to pytanie: czy ludzie mogą wznieść lotnisko w mgielni",
        ),
    ],
)
def test_a_question_typed_in_the_search_is_offered_to_the_assistant(
    browser: Any,  # noqa: F811
    host: str,
    lang: str,
    words: str,
    offer: str,
) -> None:
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/{lang}/index.html")
    field = page.locator("form.havoc-home-search input[type=search]")
    field.tap()
    field.type(words)
    first = page.wait_for_selector("form.havoc-home-search .havoc-search-pop:not([hidden]) > a.havoc-search-ask")
    assert first.text_content() == offer
    href = first.get_attribute("href") or ""
    assert href.startswith("assistant.html#t=") and urllib.parse.unquote(href.split("#t=", 1)[1]) == words
    field.fill("retreat")  # a word or two is a search, not a question: no offer
    page.wait_for_function("() => !document.querySelector('form.havoc-home-search .havoc-search-ask')")
    context.close()
