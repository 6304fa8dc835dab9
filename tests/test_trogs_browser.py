"""The solo Trogs' page on a phone, in English and Polish: one decision asked in a few taps.

The built site with its in-browser engine (the taps test's fixtures). The form is the decisions'
declaration (each decision's own, solo.engine.form): every decision is offered, and a decision's fields are the ones
it declares. A stored solo example is picked, its decision asked, and the page must show what
``havoc trogs`` (``havoc.assistant.api.decide``) says for the request the page sent.

Each test asks on a page of the file's one phone (test_browser.phone_page): its storage emptied
first, as a new phone's, and its engine restored from the snapshot kept on that phone, which answers
exactly as a started one (test_snapshot_browser).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from test_ask_taps_browser import host, site  # noqa: F401 - the built site with its engine is shared
from test_browser import browser, phone_page, warm_phone  # noqa: F401 - shared fixtures
from test_site import real_site  # noqa: F401 - the fixture is shared

from havoc.assistant import api
from havoc.games.cry_havoc.places import where
from havoc.games.cry_havoc.position import TOP
from havoc.games.cry_havoc.solo.engine import KINDS, form, get
from havoc.games.cry_havoc.ui import fold, vocabulary

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RECORD = """() => {
  const engine = window.havocEngine;
  window.__sent = [];
  const request = engine.request.bind(engine);
  engine.request = (method, path, body, query) => { window.__sent.push([path, body]); return request(method, path, body, query); };
}"""


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_trogs_decision_is_answered_on_the_page(phone_page: Any, host: str, lang: str) -> None:  # noqa: F811
    page = phone_page
    page.goto(f"{host}/{lang}/trogs.html")
    page.wait_for_selector("#ht-decision", state="attached")
    page.evaluate(RECORD)
    offered = page.eval_on_selector_all("#ht-decision option", "os => os.map(o => o.value)")
    assert offered == list(KINDS)
    examples = page.eval_on_selector_all("#havoc-trogs select:not(#ht-decision)", "s => s[0].options.length")
    assert examples >= 2
    taps = 0
    # the move example: a native picker is two taps (open, pick)
    data = json.loads(page.inner_text("#havoc-trogs-data"))
    index = next(i for i, x in enumerate(data["examples"]) if x["question"]["decide"] == "move")
    page.locator("#havoc-trogs select").first.select_option(str(index))
    taps += 2
    shown = page.eval_on_selector_all("#havoc-trogs [data-name]", "es => es.map(e => e.dataset.name)")
    assert shown == [f["name"] for f in form(get("move"))]
    page.locator("button.ha-ask").tap()
    taps += 1
    page.wait_for_selector(
        "#havoc-trogs[data-state=done], #havoc-trogs[data-state=error]", state="attached", timeout=180_000
    )
    assert page.get_attribute("#havoc-trogs", "data-state") == "done", page.inner_text("#havoc-trogs")
    text = page.inner_text("#ht-answer")
    sent = json.loads([body for path, body in page.evaluate("window.__sent") if path == "/api/trogs"][-1])
    # a table edited wrong: its error's place is said in the reader's words (the API's "where")
    table = sent["position"] if isinstance(sent["position"], dict) else yaml.safe_load(sent["position"])
    table = json.loads(json.dumps(table))
    rid = next(iter(table["regions"]))
    units = table["regions"][rid].setdefault("units", {})
    # the example's table names the Trogs in the page's language ("Trogi"): that entry goes wrong
    trogs = next((k for k in units if vocabulary("factions").get(fold(k)) == ("trogs",)), "trogs")
    units[trogs] = -1
    page.locator("#havoc-trogs .ha-paste summary").tap()
    page.fill("#havoc-trogs textarea", json.dumps(table))
    page.locator("button.ha-ask").tap()
    page.wait_for_selector("#havoc-trogs[data-state=error]", state="attached", timeout=60_000)
    said = page.inner_text("#havoc-trogs .ha-top-errors")
    place = where(f"regions.{rid}.units.trogs", TOP, lang, list(table["regions"]))
    assert place and f"{place}: " in said and f"regions.{rid}" not in said, said
    assert taps <= 8
    assert sent["question"]["decide"] == "move" and sent["lang"] == lang
    asked = sent["position"] if isinstance(sent["position"], dict) else yaml.safe_load(sent["position"])
    decision = api.decide(asked, "trogs", sent["question"], lang)  # (a text would be a file's name)
    assert decision.question in text
    for line in decision.lines:
        assert line in text, (line, text)
    assert decision.titles[decision.rule] in text


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_table_described_on_the_ask_page_is_a_start_here(phone_page: Any, host: str, lang: str) -> None:  # noqa: F811
    """No YAML on a phone: a solo table described with taps on the Ask page (and asked about
    there) is the Trogs page's first start, and a decision is answered on it."""
    page = phone_page
    page.goto(f"{host}/{lang}/assistant.html")
    page.wait_for_selector("[data-template=tpl-solo]", state="attached")
    page.locator("[data-template=tpl-solo]").first.tap()
    page.fill("#ha-text", "what may the humans do now" if lang == "en" else "co mogą teraz zrobić ludzie")
    page.locator("button.ha-text-ask").tap()
    page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=180_000)
    page.goto(f"{host}/{lang}/trogs.html")
    page.wait_for_selector("#ht-decision", state="attached")
    start = page.locator("#havoc-trogs select").first
    assert start.input_value() == "ask"  # a solo table: where the page starts
    table = json.loads(page.input_value("#havoc-trogs textarea"))
    assert table["variant"] == "solo" and table["players"] == ["humans"]
    assert page.get_attribute("#ht-describe", "href") == "assistant.html"
    page.locator("#ht-decision").select_option("initiative")
    page.locator("button.ha-ask").tap()
    page.wait_for_selector(
        "#havoc-trogs[data-state=done], #havoc-trogs[data-state=error]", state="attached", timeout=180_000
    )
    assert page.get_attribute("#havoc-trogs", "data-state") == "done", page.inner_text("#havoc-trogs")


@pytest.mark.parametrize(
    ("lang", "sentence", "said"),
    [("en", "where do the 3 trogs move", "The Trogs move"), ("pl", "dokąd pójdą 3 trogowie", "Trogi przesuwają")],
)
def test_a_typed_question_for_the_solo_trogs_is_decided_on_the_ask_page(
    phone_page: Any,  # noqa: F811
    host: str,  # noqa: F811
    lang: str,
    sentence: str,
    said: str,
) -> None:
    """ "Where do the Trogs move?" typed on the Ask page, on a solo table: the Trogs' decision
    (POST /api/trogs), with the rule that decided it linked, not a refused question kind."""
    page = phone_page
    page.goto(f"{host}/{lang}/assistant.html")
    page.wait_for_selector("[data-template=tpl-solo]", state="attached")
    page.locator("[data-template=tpl-solo]").first.tap()
    page.fill("#ha-text", sentence)
    page.locator("button.ha-text-ask").tap()
    page.wait_for_selector(
        "#havoc-answer[data-state=done], #havoc-answer[data-state=error], #havoc-answer[data-state=needs]",
        state="attached",
        timeout=180_000,
    )
    assert page.get_attribute("#havoc-answer", "data-state") == "done", page.inner_text("#havoc-understood")
    assert said in page.inner_text("#ha-answer")
    assert page.locator("#ha-answer .ha-rules a[data-rule]").count() >= 1
