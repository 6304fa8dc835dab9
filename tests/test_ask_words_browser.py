"""The phone trial's defects on the Ask page (issue 39), at 390 and 320 px, in both languages.

A new player on a 390 px phone found the Battle objectives' "+" buttons covered by the "−" of
the next column (the Attrition "+" half off-screen), the first "+" on an empty count giving 0,
and the Battle template presetting "To: Region B" (so "where may I retreat?" became a yes/no
about Region B). The form is drawn by the page's own script, so the built site is served as it
is (no engine needed): every "+" and "−" must be the element under its own centre and inside
the screen, one tap on an empty count must give 1, and no template may fill "To".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import PHONE, browser, static_host  # noqa: F401 - browser is a shared fixture
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDTHS = (390, 320)
LANGS = ("en", "pl")


@pytest.fixture(scope="module")
def host(real_site: Site) -> Iterator[str]:  # noqa: F811
    with static_host(real_site.out) as base:
        yield base


def phone(browser: Any, width: int) -> Any:  # noqa: F811
    """A phone of ``width`` CSS pixels, as the trial's (390) and the smallest common one (320)."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 740}}, service_workers="block")
    return context.new_page()


def shots() -> str:
    """Where the phone screenshots go (a scratch folder, made on first use)."""
    import os
    import tempfile

    folder = os.path.join(tempfile.gettempdir(), "havoc-ask-phone")
    os.makedirs(folder, exist_ok=True)
    return folder


def open_template(page: Any, host: str, lang: str, template: str) -> None:
    """The Ask page from ``template`` on ``page``, a new phone's (:func:`phone`): it remembers no
    table (a new browser context starts with empty storage, so one load is a first visit)."""
    page.goto(f"{host}/{lang}/assistant.html")
    page.wait_for_selector(f"[data-template={template}]")
    page.locator(f"[data-template={template}]").first.tap()


# every step button of the objectives table: is it the element a thumb hits at its centre, and
# inside the screen? (the one covering it, if any, is named)
STEP_BUTTONS = """() => [...document.querySelectorAll('.ha-objectives button.ha-step')].map(b => {
    b.scrollIntoView({block: 'center', behavior: 'instant'});
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const td = b.closest('td');
    return {text: b.textContent, cell: td ? td.querySelector('input').id : '',
            own: hit === b, hit: hit ? hit.outerHTML.slice(0, 80) : null,
            inside: r.left >= 0 && r.right <= window.innerWidth, width: r.width};
})"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_objective_step_button_can_be_tapped(browser: Any, host: str, lang: str, width: int) -> None:  # noqa: F811
    page = phone(browser, width)
    open_template(page, host, lang, "tpl-battle")
    buttons = page.evaluate(STEP_BUTTONS)
    page.locator(".ha-objectives").first.scroll_into_view_if_needed()
    page.screenshot(path=f"{shots()}/objectives-{lang}-{width}.png")
    # two sides by three objectives, each a "−" and a "+"
    assert len(buttons) >= 12, buttons
    for b in buttons:
        assert b["own"], (width, lang, b)
        assert b["inside"], (width, lang, b)
        assert b["width"] >= 24, (width, lang, b)  # a thumb's target, not a sliver
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_first_plus_on_an_empty_count_gives_one(browser: Any, host: str, lang: str, width: int) -> None:  # noqa: F811
    page = phone(browser, width)
    open_template(page, host, lang, "tpl-battle")
    inputs = page.locator(".ha-objectives tbody td input")
    assert inputs.count() >= 6
    for n in range(inputs.count()):
        cell = page.locator(".ha-objectives tbody td").nth(n)
        field = cell.locator("input")
        assert field.input_value() == ""
        # the "+" is the stepper's last button in the page's order (shown on top in the table)
        cell.locator("button.ha-step", has_text="+").tap()
        assert field.input_value() == "1", (lang, width, field.get_attribute("id"))
        cell.locator("button.ha-step", has_text="+").tap()
        assert field.input_value() == "2"
        cell.locator("button.ha-step", has_text="−").tap()
        assert field.input_value() == "1"
    # a count on the question's own form, stepped from empty, starts at 1 as well
    page.locator("#ha-kind").select_option("move")
    units = page.locator('[data-path="q.units"]')
    units.locator("xpath=..").locator("button.ha-step", has_text="+").tap()
    assert units.input_value() == "1"
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_battle_template_leaves_the_destination_to_the_player(
    browser: Any,  # noqa: F811
    host: str,
    lang: str,
    width: int,
) -> None:
    page = phone(browser, width)
    open_template(page, host, lang, "tpl-battle")
    # "where may I retreat?": a move out of the Battle, asked without a destination the player
    # never stated
    page.locator("#ha-kind").select_option("move")
    to = page.locator('[data-path="q.to"]')
    assert to.count() == 1
    assert to.input_value() == "", (lang, width, to.input_value())
    # the Battle's own Region is what the template states: it stays
    assert page.locator('[data-path="q.from"]').input_value() == "example-a"
    page.context.close()
