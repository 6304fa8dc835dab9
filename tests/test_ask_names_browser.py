"""Names typed into the Ask page are read as a Polish player writes them.

The built site with its in-browser engine (the taps test's fixtures) on a phone in Polish: an
official Region name typed with or without its diacritics ("Mgielnia", "głębia sapos", "Glebia
Sapos") is that Region's key in the request; a Structure given by its Polish name ("Żniwiarka",
"zniwiarka") is the Structure's key, never a structure invented from the name; a name that is no
Structure stops the question with an error on that field, in Polish, with the field's label.
Regions are named as the cards read: a starting point's neighbours are "Region B", not a machine
ID, and "region b" typed in a list is that card. Every label heads its field with a capital.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_ask_taps_browser import host, site  # noqa: F401 - the built site with its engine is shared
from test_browser import PHONE, browser  # noqa: F401 - browser is a shared fixture
from test_site import real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Every request the page hands the engine, recorded before it goes (the answer is not awaited);
# the page asks through POST /api/interview (the answer with what it read of the table).
RECORD = """() => {
  const engine = window.havocEngine;
  window.__sent = [];
  const request = engine.request.bind(engine);
  engine.request = (method, path, body, query) => { window.__sent.push([path, body]); return request(method, path, body, query); };
}"""


def _open(browser: Any, host: str, structure: str = "", name: str = "") -> Any:  # noqa: F811
    """The Polish Ask page from the battle starting point, with the first Region's name and
    Structure as a player left them (a Structure name comes back from the stored form)."""
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/pl/assistant.html")
    page.wait_for_selector("#ha-kind", state="attached")
    page.locator("[data-template=tpl-battle]").first.tap()
    stored = json.loads(page.evaluate("localStorage.getItem('havoc-ask-state')"))
    stored["regions"][0]["name"] = name
    stored["regions"][0]["structure"] = structure
    stored["regions"][0]["owner"] = "humans" if structure else ""
    page.evaluate("s => localStorage.setItem('havoc-ask-state', s)", json.dumps(stored))
    page.goto(f"{host}/pl/assistant.html")
    page.wait_for_selector("#ha-kind", state="attached")
    page.evaluate(RECORD)
    return page


def _asked(page: Any) -> dict[str, Any]:
    page.locator("button.ha-ask").first.tap()
    page.wait_for_function("() => window.__sent.some(s => s[0] === '/api/interview')")
    sent = [json.loads(body) for path, body in page.evaluate("window.__sent") if path == "/api/interview"]
    return dict(sent[-1]["position"])


@pytest.mark.parametrize("typed", ["Mgielnia", "mgielnia", "Głębia Sapos", "glebia sapos"])
def test_a_polish_region_name_is_the_regions_key(browser: Any, host: str, typed: str) -> None:  # noqa: F811
    page = _open(browser, host, name=typed)
    regions = _asked(page)["regions"]
    page.context.close()
    key = "foglands" if typed.lower() == "mgielnia" else "sapos-deep"
    assert key in regions, sorted(regions)


@pytest.mark.parametrize("typed", ["Żniwiarka", "zniwiarka", "harvester"])
def test_a_polish_structure_name_is_the_structures_key(browser: Any, host: str, typed: str) -> None:  # noqa: F811
    page = _open(browser, host, structure=typed)
    regions = _asked(page)["regions"]
    page.context.close()
    structures = [s for r in regions.values() for s in r.get("structures", [])]
    assert structures == [{"type": "harvester", "owner": "humans"}], structures


def test_an_unknown_structure_is_an_error_on_its_field(browser: Any, host: str) -> None:  # noqa: F811
    page = _open(browser, host, structure="Palisada")
    page.locator("button.ha-ask").first.tap()
    page.wait_for_selector("#havoc-answer[data-state=error]", state="attached")
    field = page.locator('[data-path="region:0.structures"]').first
    assert field.get_attribute("aria-invalid") == "true"
    box = page.locator(".ha-field:has([data-path='region:0.structures'])").first
    label, message = box.locator("label").first.inner_text(), box.locator(".ha-error").first.inner_text()
    sent = page.evaluate("window.__sent.filter(s => s[0] === '/api/interview').length")
    page.context.close()
    assert label == "Rodzaj Budowli"  # the error stands under the field's own label
    assert message == "żadna Budowla nie nazywa się „Palisada”: wybierz jedną z listy.", message
    assert sent == 0  # the question never went out with a made-up structure


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_starting_points_name_neighbours_as_the_cards_read(browser: Any, host: str, lang: str) -> None:  # noqa: F811
    """A starting point fills the neighbours in with the names the cards show ("Region B"),
    never with a machine ID (``example-b``), and asks about the same table as before."""
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/{lang}/assistant.html")
    page.wait_for_selector("#ha-kind", state="attached")
    page.evaluate(RECORD)
    shown, sent = {}, {}
    for start in ("tpl-actions", "tpl-battle", "tpl-solo"):
        page.locator(f"[data-template={start}]").first.tap()
        shown[start] = page.evaluate(
            "[...document.querySelectorAll('#havoc-ask input, #havoc-ask textarea')].map(i => i.value).filter(v => v)"
        )
        before = page.evaluate("window.__sent.length")
        page.locator("button.ha-ask").first.tap()
        page.wait_for_function(f"() => window.__sent.slice({before}).some(s => s[0] === '/api/interview')")
        regions = json.loads(page.evaluate("window.__sent.filter(s => s[0] === '/api/interview').pop()[1]"))[
            "position"
        ]["regions"]
        sent[start] = {name: region.get("adjacent") for name, region in regions.items()}
    context.close()
    for start, values in shown.items():
        said = ", ".join(values).split(", ")  # a card's neighbours, one name each
        assert "Region B" in said and "Region A" in said, (start, values)
        assert not [v for v in values if "example-" in v], (start, values)
        expected = {"example-a": ["example-b"], "example-b": ["example-a"]}
        if start == "tpl-solo":  # the Trogs' HQ, the centre Region, next to the second card
            expected = {"example-a": ["example-b"], "example-b": ["example-a", "example-c"], "example-c": ["example-b"]}
        assert sent[start] == expected, (start, sent[start])


def test_a_neighbour_typed_as_the_card_reads_is_that_card(browser: Any, host: str) -> None:  # noqa: F811
    """A player who types "region b" (as the second card reads, any case) into the first card's
    neighbours means that card, not a third Region of the same name."""
    page = _open(browser, host)
    neighbours = page.locator('[data-path="region:0.adjacent"]').first
    neighbours.fill("region b")
    regions = _asked(page)
    page.context.close()
    assert sorted(regions["regions"]) == ["example-a", "example-b"], regions
    assert regions["regions"]["example-a"]["adjacent"] == ["example-b"], regions


def test_every_label_of_the_form_starts_with_a_capital(browser: Any, host: str) -> None:  # noqa: F811
    """A label heads its field: "Żeton Trogów", though the same words are "żeton Trogów" in a
    sentence (the catalog keeps them lowercase for that), for every kind of question."""
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{host}/pl/assistant.html")
    page.wait_for_selector("#ha-kind", state="attached")
    kinds = page.evaluate("[...document.querySelectorAll('#ha-kind option')].map(o => o.value)")
    small = set()
    for kind in kinds:
        page.locator("#ha-kind").select_option(kind)
        labels = page.evaluate("[...document.querySelectorAll('#havoc-ask label')].map(l => l.textContent.trim())")
        small |= {text for text in labels if text[:1].islower()}
    context.close()
    assert len(kinds) >= 10
    assert not small, sorted(small)
