"""The "Ask the rules" page in real headless Chromium on a phone, in Polish, against ``havoc serve``.

The server is the real one (uvicorn, started as ``havoc serve`` on a free loopback port) serving
the session's real site. The page is driven by keyboard and taps as a player would; nothing may
be loaded from outside the machine. Screenshots go to build/screenshots/.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import PHONE, SCREENSHOTS, browser  # noqa: F401 - browser is a shared fixture
from test_site import REPO, Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(real_site: Site) -> Iterator[str]:  # noqa: F811
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "havoc", "serve", "--site", str(real_site.out), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            if proc.poll() is not None:
                pytest.fail(f"havoc serve stopped: {proc.stdout.read() if proc.stdout else ''}")
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("havoc serve did not answer /api/health")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(**PHONE, locale="pl-PL")
    pg = context.new_page()
    outside: list[str] = []
    pg.on("request", lambda r: None if r.url.startswith((server, "data:", "blob:")) else outside.append(r.url))
    pg.goto(server + "/pl/assistant.html")
    pg.wait_for_function("() => document.querySelector('#ha-kind') !== null")
    yield pg
    assert outside == [], f"the page loaded from outside: {outside}"
    context.close()


def region_field(pg: Any, index: int, path: str) -> Any:
    return pg.locator(f'[data-path="region:{index}.{path}"]')


def test_how_many_may_leave_a_battle_in_polish(page: Any, server: str) -> None:
    pg = page
    assert pg.locator("html").get_attribute("lang") == "pl"
    pg.fill("#ha-region-0-name", "Pole bitwy")
    region_field(pg, 0, "units.humans").fill("8")
    region_field(pg, 0, "units.pilgrims").fill("3")
    region_field(pg, 0, "control").select_option("humans")
    region_field(pg, 0, "battle.token").fill("1")
    region_field(pg, 0, "battle.attacker").select_option("pilgrims")
    region_field(pg, 0, "adjacent").fill("Mgielnia")
    region_field(pg, 0, "adjacent").press("Tab")  # the Regions named so far become choices of the question
    pg.select_option("#ha-kind", "move")
    pg.locator('[data-path="q.faction"]').select_option("humans")
    pg.locator('[data-path="q.from"]').select_option("pole-bitwy")
    pg.locator('[data-path="q.to"]').select_option("foglands")
    pg.locator('[data-path="q.units"]').fill("2")
    pg.locator('[data-path="q.units"]').press("Enter")  # the keyboard submits the form

    answer = pg.locator("#ha-answer")
    answer.wait_for(state="visible")
    assert pg.locator(".ha-verdict").inner_text() == "Tak"
    leave = pg.locator('dd[data-figure="may-leave"]')
    assert leave.inner_text() == "2"
    label = leave.evaluate("e => e.previousElementSibling.textContent")
    assert label and label != "may-leave"  # the figure's name in Polish, not its ID
    link = pg.locator('a[data-rule="battle-region-leave"]')
    assert link.inner_text() == "Opuszczanie Regionu Bitwy"
    assert "do Mgielni" in pg.locator(".ha-question-text").inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / "ask-leave-pl-phone.png"), full_page=True)
    answer.screenshot(path=str(SCREENSHOTS / "ask-leave-pl-answer.png"))
    # the page fits the phone: nothing wider than the screen
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390

    # the position is in the address: a fresh page opened from the link shows the same table
    url = pg.url
    assert "#s=" in url
    other = pg.context.new_page()
    other.goto(url)
    other.wait_for_function("() => document.querySelector('#ha-region-0-name') !== null")
    assert other.input_value("#ha-region-0-name") == "Pole bitwy"
    assert other.locator('[data-path="region:0.units.humans"]').input_value() == "8"
    other.close()

    # the link leads to the rule's anchor on the site
    link.click()
    pg.wait_for_load_state()
    assert pg.url.endswith("#battle-region-leave")
    assert pg.locator("[id='battle-region-leave']").count() == 1


def test_a_battle_shows_who_wins_each_objective(page: Any) -> None:
    pg = page
    pg.select_option('[data-path="phase"]', "battle-resolution")
    pg.fill("#ha-region-0-name", "Pole bitwy")
    region_field(pg, 0, "units.humans").fill("4")
    region_field(pg, 0, "units.pilgrims").fill("4")
    region_field(pg, 0, "control").select_option("humans")
    region_field(pg, 0, "crystals").fill("1")
    region_field(pg, 0, "battle.token").fill("1")
    region_field(pg, 0, "battle.attacker").select_option("pilgrims")
    region_field(pg, 0, "adjacent").fill("Wybrzeże Feralas")
    pg.fill("#ha-region-1-name", "Wybrzeże Feralas")
    region_field(pg, 1, "control").select_option("pilgrims")
    region_field(pg, 1, "adjacent").fill("Pole bitwy")
    region_field(pg, 1, "adjacent").press("Tab")
    pg.select_option("#ha-kind", "battle")
    pg.locator('[data-path="q.region"]').select_option("pole-bitwy")
    for side in ("pilgrims", "humans"):
        for objective, n in (("control", "2"), ("prisoners", "1"), ("attrition", "1")):
            pg.fill(f"#ha-obj-{side}-{objective}", n)
    pg.locator("button.ha-ask").focus()
    pg.keyboard.press("Enter")

    pg.locator("#ha-answer").wait_for(state="visible")
    report = pg.locator(".ha-report li").all_inner_texts()
    text = "\n".join(report)
    assert any(line.startswith("1. Kontrola nad Regionem: wygrywają Ludzie") for line in report), text
    assert any(line.startswith("2. Pojmanie Jeńców: nikt") for line in report), text
    assert any(
        line.startswith("3. Wyniszczenie: Pielgrzymi zabijają 1 Oddział, Ludzie zabijają 1 Oddział") for line in report
    ), text
    assert "Wybrzeże Feralas" in text and "feralas-banks" not in text  # Regions by the names the player gave
    assert pg.locator('a[data-rule="objective-control-defender-tie"]').count() == 1
    assert pg.locator(".ha-verdict").count() == 0  # "how does it end" is not a yes/no question
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / "ask-battle-pl-phone.png"), full_page=True)


def test_errors_sit_next_to_the_field_they_name(page: Any) -> None:
    pg = page
    pg.fill("#ha-region-0-name", "Pole bitwy")
    region_field(pg, 0, "units.humans").fill("-2")
    pg.select_option("#ha-kind", "legal")
    pg.click("button.ha-ask")
    err = pg.locator(f"#{region_field(pg, 0, 'units.humans').get_attribute('id')}-err")
    err.wait_for(state="visible")
    assert "≥ 0" in err.inner_text()
    assert region_field(pg, 0, "units.humans").get_attribute("aria-invalid") == "true"


def test_opened_as_files_it_says_how_to_start_the_server(browser: Any, real_site: Site) -> None:  # noqa: F811
    context = browser.new_context(**PHONE, locale="pl-PL")
    pg = context.new_page()
    pg.goto((real_site.out / "pl" / "assistant.html").as_uri())
    box = pg.locator("#ha-offline")
    box.wait_for(state="visible")
    assert "havoc serve" in box.inner_text()
    assert "serwer" in box.inner_text()
    pg.screenshot(path=str(SCREENSHOTS / "ask-offline-pl-phone.png"))
    context.close()


def test_a_pasted_position_is_asked_and_its_errors_show_their_line(page: Any) -> None:
    pg = page
    pg.click(".ha-paste summary")
    text = "players: [humans, pilgrims]\nturn: humans\nround: first\nregions:\n  a: {units: {humans: 2}}\n"
    pg.fill("#ha-paste", text)
    assert pg.is_checked("#ha-use-paste")  # pasting switches the question to the pasted table
    pg.select_option("#ha-kind", "legal")
    pg.click("button.ha-ask")
    err = pg.locator("#ha-paste-err")
    err.wait_for(state="visible")
    assert "(3)" in err.inner_text() and "round" in err.inner_text()
    # the place of a pasted table's error is said by the table's names, in Polish ("where")
    bad = text.replace("round: first", "round: 2").replace(
        "a: {units: {humans: 2}}", "example-a: {units: {humans: -2}}"
    )
    pg.fill("#ha-paste", bad)
    pg.click("button.ha-ask")
    pg.wait_for_function("() => document.querySelector('#ha-paste-err').textContent.includes('(5)')")
    said = err.inner_text()
    assert "(5) Region A › Oddziały (units) › Ludzie: " in said, said
    assert "example-a" not in said and "humans" not in said, said
    pg.fill("#ha-paste", text.replace("round: first", "round: 2"))
    pg.click("button.ha-ask")
    pg.locator("#ha-answer").wait_for(state="visible")
    assert pg.locator("#ha-paste-err").is_hidden()
    assert pg.locator(".ha-question-text").inner_text()


def test_the_whole_question_by_keyboard_alone(page: Any) -> None:
    """Tab, type, arrow keys and Enter: no pointer, no scripted filling."""
    pg = page
    kb = pg.keyboard

    def tab_to(selector: str) -> None:
        for _ in range(80):
            kb.press("Tab")
            if pg.evaluate(f"document.activeElement === document.querySelector({selector!r})"):
                return
        pytest.fail(f"Tab never reached {selector}")

    tab_to("#ha-region-0-name")
    kb.type("Pole bitwy")
    kb.press("Tab")
    kb.type("8")  # Units: Humans
    kb.press("Tab")
    kb.type("3")  # Units: Pilgrims
    kb.press("Tab")
    kb.press("ArrowDown")  # Control: Humans
    tab_to('[data-path="region:0.battle.token"]')
    kb.type("1")
    kb.press("Tab")
    kb.press("ArrowDown")
    kb.press("ArrowDown")  # Attacker: Pilgrims
    tab_to('[data-path="region:0.adjacent"]')
    kb.type("Mgielnia")
    tab_to("#ha-kind")
    kb.press("ArrowDown")  # from "What can I do now?" to Move
    kb.press("Tab")
    kb.press("ArrowDown")  # Who asks: Humans
    kb.press("Tab")
    kb.press("ArrowDown")  # From: the first Region, Pole bitwy
    kb.press("Tab")
    kb.press("ArrowDown")
    kb.press("ArrowDown")  # To: Mgielnia
    tab_to('[data-path="q.units"]')
    kb.type("2")
    kb.press("Enter")
    pg.locator("#ha-answer").wait_for(state="visible")
    assert pg.locator('dd[data-figure="may-leave"]').inner_text() == "2"
    assert pg.evaluate("document.activeElement.id") == "ha-answer"  # the answer is read next
