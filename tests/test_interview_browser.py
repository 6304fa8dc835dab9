"""The Ask page says what the answer assumed (issue 39's interview): under the answer, each field
of the table the answer read but the table did not say is a button (``#havoc-assumed``,
``data-field`` its API path) that opens that field of the table, in the page's language.

Each test asks on a page of the file's one phone (test_browser.phone_page): its storage emptied
first, as a new phone's, and its engine restored from the snapshot kept on that phone, which answers
exactly as a started one (test_snapshot_browser)."""

from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import browser, phone_page, static_host, warm_phone  # noqa: F401 - shared fixtures
from test_engine_browser import offline_copy
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SETTLED = "#havoc-answer[data-state=done], #havoc-answer[data-state=error]"
TABLE: dict[str, Any] = {
    "players": ["humans", "pilgrims"],
    "turn": "humans",
    "regions": {"example-a": {"units": {"humans": 3}}, "example-b": {"units": {}}},
}
MOVE = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 2}


@pytest.fixture(scope="module")
def host(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # noqa: F811
    with static_host(offline_copy(real_site.out, tmp_path_factory, "interview")) as base:
        yield base


def assumed(page: Any) -> dict[str, str]:
    found = page.eval_on_selector_all(
        "#havoc-assumed .ha-assumed", "cs => cs.map(c => [c.dataset.field, c.textContent])"
    )
    return dict(found)


@pytest.mark.parametrize(
    ("lang", "heading", "chip"),
    [
        ("en", "Assumed, as the table does not say", "Region A › neighbouring Regions: none"),
        ("pl", "Przyjęte, bo stół tego nie mówi", "Region A › sąsiednie Regiony: brak"),
    ],
)
def test_a_linked_question_shows_what_its_answer_assumed(
    phone_page: Any,  # noqa: F811
    host: str,
    lang: str,
    heading: str,
    chip: str,
) -> None:
    body = json.dumps({"position": TABLE, "question": MOVE, "lang": lang}).encode()
    page = phone_page
    page.goto(f"{host}/{lang}/assistant.html#q=" + base64.urlsafe_b64encode(body).decode().rstrip("="))
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "done"
    chips = assumed(page)
    assert chips["regions.example-a.adjacent"] == chip
    assert "regions.example-a.units" not in chips and "turn" not in chips  # the table says those
    assert heading in page.inner_text("#ha-answer")


def test_tapping_an_assumption_opens_its_field(phone_page: Any, host: str) -> None:  # noqa: F811
    page = phone_page
    # a remembered table (the page's own #s= state) with the Humans in Foglands, then a typed question
    table = {"regions": [{"name": "Foglands", "units": {"humans": "3"}}, {"name": "Scorch"}]}
    state = base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")
    sentence = "can the humans move 2 units from foglands to scorch"
    page.goto(f"{host}/en/assistant.html#s={state}&t=" + urllib.parse.quote(sentence))
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    chips = assumed(page)
    assert chips, page.inner_text("#ha-answer")
    field = next(iter(chips))
    page.locator(f'#havoc-assumed .ha-assumed[data-field="{field}"]').tap()
    focused = page.evaluate("() => document.activeElement && document.activeElement.id")
    assert focused and focused not in ("ha-text", ""), (field, focused)
    # on screen once the page has scrolled to it (a smooth scroll takes a moment)
    page.wait_for_function(
        "() => { const r = document.activeElement.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
        timeout=5_000,
    )


def test_a_link_pinned_to_the_printed_rulebook_answers_by_it_in_polish(phone_page: Any, host: str) -> None:  # noqa: F811
    body = json.dumps({"position": TABLE, "question": MOVE, "lang": "pl"}).encode()
    page = phone_page
    link = "#as-of=rulebook&q=" + base64.urlsafe_b64encode(body).decode().rstrip("=")
    page.goto(f"{host}/pl/assistant.html{link}")
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "done"
    said = page.inner_text(".ha-as-of")
    assert said == "Odpowiedź według zasad obowiązujących wtedy: Oficjalna polska instrukcja (Portal Games, 2016)"
    assert page.get_attribute(".ha-as-of", "data-as-of") == "rulebook"
    chosen = page.eval_on_selector("[data-path='as-of']", "s => [s.value, s.options[s.selectedIndex].text]")
    assert chosen == ["rulebook", "Oficjalna polska instrukcja (Portal Games, 2016)"]
    options = page.eval_on_selector_all("[data-path='as-of'] option", "os => os.map(o => o.textContent)")
    assert "Oficjalne FAQ i errata v1.0 (19 sierpnia 2016)" in options


def test_changing_an_assumed_fact_answers_again_without_a_tap(phone_page: Any, host: str) -> None:  # noqa: F811
    """Live answering: with an answer shown, a fact it assumed (the Humans' Reserve) set in the
    form is asked again at once, and the answer follows it (Recruit refused with 0 in Reserve)."""
    page = phone_page
    page.goto(f"{host}/en/assistant.html")
    page.wait_for_selector("#ha-text", state="attached")
    page.fill("#ha-text", "what may the humans do now")
    page.locator("button.ha-text-ask").tap()
    page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=180_000)
    assert "✓ Recruit" in page.inner_text("#ha-answer .ha-report")
    assumed = page.eval_on_selector_all("#havoc-assumed [data-field]", "cs => cs.map(c => c.dataset.field)")
    assert "factions.humans.reserve" in assumed
    page.evaluate("document.getElementById('havoc-answer').removeAttribute('data-state')")
    page.locator('#havoc-assumed [data-field="factions.humans.reserve"]').tap()  # opens the field
    field = page.locator(":focus")
    field.fill("0")
    field.dispatch_event("change")
    page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=60_000)
    assert "✗ Recruit" in page.inner_text("#ha-answer .ha-report")  # an empty Reserve: refused now
