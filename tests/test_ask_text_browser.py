"""The Ask page's question box (issue 39): a question in the player's words, read by the engine in
the browser, its pieces shown as chips (``#havoc-understood``: ``data-field``, ``data-value``),
answered at once when nothing is missing, or the missing fields named and marked in the form;
``assistant.html#t=<sentence>`` asks as if typed; a sentence outside the rules is refused in the
page's language.

Each test asks on a page of the file's one phone (test_browser.phone_page): its storage emptied
first, as a new phone's, and its engine restored from the snapshot kept on that phone, which answers
exactly as a started one (test_snapshot_browser)."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import browser, phone_page, static_host, warm_phone  # noqa: F401 - shared fixtures
from test_engine_browser import offline_copy
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SETTLED = "#havoc-answer[data-state=done], #havoc-answer[data-state=error], #havoc-answer[data-state=needs]"


@pytest.fixture(scope="module")
def host(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # noqa: F811
    with static_host(offline_copy(real_site.out, tmp_path_factory, "text")) as base:
        yield base


def chips(page: Any) -> list[tuple[str, Any, str]]:
    found = page.eval_on_selector_all(
        "#havoc-understood .ha-chip", "cs => cs.map(c => [c.dataset.field, c.dataset.value, c.textContent])"
    )
    return [(f, json.loads(v), t) for f, v, t in found]


@pytest.mark.parametrize("width", [390, 320])
def test_a_linked_sentence_is_understood_and_answered(phone_page: Any, host: str, width: int) -> None:  # noqa: F811
    page = phone_page
    page.set_viewport_size({"width": width, "height": 844})  # before the page loads: a phone this wide
    page.goto(f"{host}/pl/assistant.html#t=" + urllib.parse.quote("co mogą teraz zrobić ludzie"))
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "done"
    assert chips(page) == [("question.faction", "humans", "Ludzie")]
    assert "Co mogą teraz zrobić Ludzie?" in page.inner_text("#ha-answer")
    assert page.input_value("#ha-text") == "co mogą teraz zrobić ludzie"
    # the box fits the phone: nothing of it off-screen
    right = page.eval_on_selector(".ha-text-row", "e => e.getBoundingClientRect().right")
    assert right <= width


def test_a_typed_question_short_of_a_field_names_it_and_sets_the_form(phone_page: Any, host: str) -> None:  # noqa: F811
    page = phone_page
    page.goto(f"{host}/en/assistant.html")
    page.wait_for_selector("#ha-text", state="attached")
    page.fill("#ha-text", "can the humans move 2 units")
    page.locator("button.ha-text-ask").tap()
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "needs"
    assert chips(page) == [("question.faction", "humans", "Humans"), ("question.units", 2, "2")]
    said = page.inner_text("#havoc-understood")
    assert "Still needed" in said
    assert "The Region the Units leave" in said and "The Region the Units enter" in said
    fields = page.eval_on_selector_all("#havoc-missing .ha-missing-field", "rs => rs.map(r => r.dataset.field)")
    assert fields == ["question.from", "question.to"]  # each asked by a list of Regions, right there
    assert page.input_value("#ha-kind") == "move"  # the form now holds the question, to finish there
    assert not page.is_visible("#ha-answer")  # never an answer from a guess


def test_a_sentence_outside_the_rules_is_refused_in_polish(phone_page: Any, host: str) -> None:  # noqa: F811
    page = phone_page
    page.goto(f"{host}/pl/assistant.html#t=" + urllib.parse.quote("jaki jest sens życia"))
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "error"
    assert "To nie jest pytanie o zasady gry." in page.inner_text("#havoc-understood")
    assert chips(page) == []


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_table_is_remembered_in_one_line_until_a_new_table(phone_page: Any, host: str, lang: str) -> None:  # noqa: F811
    """The table stays between visits (local storage) and reads as one line above the question
    box, in the page's language; "New table" clears it."""
    page = phone_page
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


# The phone trial's eight questions (issue 39), each typed once on a new table: the player's
# choices for what the sentence leaves out (a tap on a faction, a Region from the list), and
# the verdict, where it is a yes/no, that the answer must give.
TRIAL: dict[str, list[tuple[str, dict[str, str], str]]] = {
    "en": [
        ("how many of my 8 units may leave the battle against 3 pilgrims", {}, ""),
        ("who wins the battle: humans 1/1/2, pilgrims 2/0/1", {"attacker": "pilgrims"}, ""),
        ("what may the humans do now", {}, ""),
        ("how many VP do the pilgrims score this round", {}, ""),
        ("can the humans build an airfield in foglands", {}, "false"),
        ("where can the humans retreat from foglands", {}, ""),
        ("can the pilgrims recruit 5 units with 2 in their reserve", {"region": "foglands"}, "false"),
        ("how do we set up a game for 3 players", {}, ""),
    ],
    "pl": [
        ("ile z moich 8 oddziałów może opuścić bitwę przeciwko 3 pielgrzymom", {}, ""),
        ("kto wygrywa bitwę: ludzie 1/1/2, pielgrzymi 2/0/1", {"attacker": "pilgrims"}, ""),
        ("co mogą teraz zrobić ludzie", {}, ""),
        ("ile PZ zdobywają pielgrzymi w tej rundzie", {}, ""),
        ("czy ludzie mogą wznieść lotnisko w mgielni", {}, "false"),
        ("dokąd mogą się wycofać ludzie z mgielni", {}, ""),
        ("czy pielgrzymi mogą zrekrutować 5 oddziałów, mając 2 w rezerwie", {"region": "foglands"}, "false"),
        ("jak przygotować grę dla 3 graczy", {}, ""),
    ],
}
MAX_TAPS = 4  # plus the one typed sentence
MAX_SCREENS = 1.5  # the answer's top, counted from the page's top, in screen heights


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_trial_questions_typed_take_few_taps_and_little_scrolling(
    phone_page: Any,  # noqa: F811
    host: str,
    lang: str,
    width: int,
) -> None:
    """Each trial question, typed on a new table: answered within four taps (the Ask button and
    each choice the sentence left open: a faction one tap, a native list two), its answer's top
    within 1.5 screens of the page's top, with no error on the way."""
    page = phone_page
    page.set_viewport_size({"width": width, "height": 844})  # before the page loads: a phone this wide
    page.goto(f"{host}/{lang}/assistant.html")
    page.wait_for_selector("#ha-text", state="attached")
    counted: dict[str, tuple[int, float]] = {}
    for sentence, choices, verdict in TRIAL[lang]:
        page.locator("button.ha-new-table").tap()  # a new table: not one of the question's taps
        page.evaluate("window.scrollTo(0, 0)")
        page.fill("#ha-text", sentence)
        page.locator("button.ha-text-ask").tap()
        taps = 1
        for _ in range(MAX_TAPS):
            page.wait_for_selector(
                "#havoc-answer[data-state=done], #havoc-answer[data-state=error], #havoc-answer[data-state=needs]",
                state="attached",
                timeout=180_000,
            )
            if page.get_attribute("#havoc-answer", "data-state") != "needs":
                break
            row = page.locator("#havoc-missing .ha-missing-field").first
            leaf = (row.get_attribute("data-field") or "").split(".")[-1]
            assert leaf in choices, (sentence, leaf, page.inner_text("#havoc-understood"))
            page.evaluate("document.getElementById('havoc-answer').removeAttribute('data-state')")
            if row.locator("select").count():
                row.locator("select").select_option(choices[leaf])
                taps += 2  # a native list: open it, pick
            else:
                row.locator(f"button[data-value={choices[leaf]}]").tap()
                taps += 1
        state = page.get_attribute("#havoc-answer", "data-state")
        assert state == "done", (sentence, page.inner_text("#havoc-understood"))
        assert page.get_attribute("#havoc-answer", "data-verdict") == verdict, sentence
        assert page.is_visible("#ha-answer") and page.inner_text("#ha-answer").strip()
        assert not page.locator("#havoc-understood .ha-error").count(), page.inner_text("#havoc-understood")
        top = page.evaluate("document.getElementById('ha-answer').getBoundingClientRect().top + window.scrollY")
        screens = top / 844
        counted[sentence] = (taps, round(screens, 2))
        assert taps <= MAX_TAPS, (sentence, taps)
        assert screens <= MAX_SCREENS, (sentence, screens)
        right = page.evaluate("document.documentElement.scrollWidth")
        assert right <= width, (sentence, right)  # nothing wider than the phone
    print(f"\n{lang} {width}px:", counted)  # the closing note's figures (pytest -s)


@pytest.mark.parametrize(
    ("lang", "sentence", "other"),
    [
        ("en", "can the humans build an airfield in foglands", "Pilgrims"),
        ("pl", "czy ludzie mogą wznieść lotnisko w mgielni", "Pielgrzymi"),
    ],
)
def test_a_chip_read_wrong_is_put_right_with_two_taps(
    phone_page: Any,  # noqa: F811
    host: str,
    lang: str,
    sentence: str,
    other: str,
) -> None:
    """Each understood piece is a button: a tap opens the same choice a missing fact gets, a
    second tap picks, and the question is read and answered again with it (marked as told)."""
    page = phone_page
    page.goto(f"{host}/{lang}/assistant.html")
    page.wait_for_selector("#ha-text", state="attached")
    page.fill("#ha-text", sentence)
    page.locator("button.ha-text-ask").tap()
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "done"
    page.evaluate("document.getElementById('havoc-answer').removeAttribute('data-state')")
    page.locator('#havoc-understood .ha-chip[data-field="question.faction"] button').tap()
    assert page.is_visible("#havoc-edit")
    page.locator("#havoc-edit button[data-value=pilgrims]").tap()
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    assert page.get_attribute("#havoc-answer", "data-state") == "done"
    assert ("question.faction", "pilgrims", other) in chips(page)
    assert page.locator('#havoc-understood .ha-chip.ha-told[data-field="question.faction"]').count() == 1
    assert other in page.inner_text("#ha-answer .ha-question-text")
