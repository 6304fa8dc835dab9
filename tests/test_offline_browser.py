"""The built site on a plain static host, in headless Chromium on a phone: one visit, then no network.

The site (pages, the in-browser engine, the service worker, as ``havoc docs`` builds them) is
served by ``python -m http.server`` with no havoc process. After the first visit the network is cut
(``context.set_offline(True)``); pages never opened, the search and the Ask page must still work,
and the 8-vs-3 question is answered in both languages by the engine in the browser. A question
that fails never leaves the previous answer on screen.
"""

from __future__ import annotations

import base64
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_browser import PHONE, SCREENSHOTS, browser, static_host  # noqa: F401 - browser is a shared fixture
from test_engine_browser import ensure_pyodide
from test_site import REPO, Site, real_site  # noqa: F401 - the fixture is shared

from havoc.commands.docs import _offline as docs_offline_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEAVE = yaml.safe_load((REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text(encoding="utf-8"))
QUESTION = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 8}
NO = {"en": "No", "pl": "Nie"}


def linked(lang: str, units: int = 8) -> str:
    """The Ask page's ``#q=`` hook: the base64url (no padding) of the POST /api/ask body."""
    body = json.dumps({"position": LEAVE, "question": {**QUESTION, "units": units}, "lang": lang}).encode()
    return "#q=" + base64.urlsafe_b64encode(body).decode().rstrip("=")


@pytest.fixture(scope="module")
def site(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """The real site as `havoc docs` finishes it: with the engine and the service worker."""
    ensure_pyodide()
    out = tmp_path_factory.mktemp("offline") / "site"
    shutil.copytree(real_site.out, out)
    assert docs_offline_step(out)  # what `havoc docs` runs after the pages: the engine, then sw.js
    assert (out / "sw.js").is_file() and (out / "_engine" / "engine.json").is_file()
    return out


@pytest.fixture(scope="module")
def host(site: Path) -> Iterator[str]:
    with static_host(site) as base:
        yield base


def answered(pg: Any) -> str:
    pg.wait_for_selector(
        "#havoc-answer[data-state=done], #havoc-answer[data-state=error]", state="attached", timeout=120_000
    )
    return str(pg.get_attribute("#havoc-answer", "data-state"))


def test_after_one_visit_the_site_and_the_assistant_work_offline(browser: Any, host: str, site: Path) -> None:  # noqa: F811
    context = browser.new_context(**PHONE, locale="pl-PL", service_workers="allow")
    pg = context.new_page()
    outside: list[str] = []
    pg.on("request", lambda r: outside.append(r.url) if not r.url.startswith((host, "data:", "blob:")) else None)
    pg.goto(f"{host}/pl/index.html")
    # the service worker takes over the page once every file of the site is in its cache
    pg.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
    cached = pg.evaluate(
        "caches.keys().then(ks => caches.open(ks.find(k => k.startsWith('havoc-')))).then(c => c.keys()).then(r => r.length)"
    )
    assert cached > 100

    context.set_offline(True)
    pg.goto(f"{host}/en/glossary.html")  # never opened before
    assert "Glossary" in pg.title()
    # installable: the page links its language's web app manifest, which opens that language
    manifest = pg.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["lang"] == "en" and manifest["start_url"] == "index.html" and manifest["display"] == "standalone"
    pg.goto(f"{host}/pl/search.html?q=odwr%C3%B3t")
    pg.wait_for_function("() => document.querySelectorAll('#search-results ul.search > li').length > 0", timeout=30_000)

    for lang in ("pl", "en"):
        pg.goto(f"{host}/{lang}/assistant.html{linked(lang)}")
        assert answered(pg) == "done"
        assert pg.get_attribute("#havoc-answer", "data-verdict") == "false"
        assert pg.locator("#ha-answer .ha-verdict").inner_text() == NO[lang]
        assert pg.get_attribute("#havoc-answer", "data-engine") == "ready"  # the browser's engine, no server
    pg.screenshot(path=str(SCREENSHOTS / "ask-offline-engine-en-phone.png"))
    # a tool changes the address of the open page: the new question is answered, no tap
    pg.evaluate("h => { location.hash = h; }", linked("en", units=2))
    pg.wait_for_function("() => document.querySelector('#havoc-answer').dataset.verdict === 'true'", timeout=30_000)
    assert pg.locator("#ha-answer .ha-verdict").inner_text() == "Yes"

    # a new question that fails takes the old answer off the screen
    pg.click(".ha-paste summary")
    pg.fill("#ha-paste", "players: [humans, pilgrims]\nround: first\n")
    pg.click("button.ha-ask")
    assert answered(pg) == "error"
    assert pg.locator("#ha-answer").is_hidden()
    assert pg.locator("#ha-answer").inner_text() == ""
    assert pg.locator("#ha-paste-err").is_visible()
    assert not outside, outside
    context.close()


def test_without_the_engine_the_page_says_so_in_its_language(browser: Any, host: str, site: Path) -> None:  # noqa: F811
    """An engine that cannot start (here: its files are gone) is reported, and no stale answer shows."""
    context = browser.new_context(**PHONE, locale="pl-PL", service_workers="block")
    context.route("**/_engine/**", lambda route: route.abort())
    pg = context.new_page()
    pg.goto(f"{host}/pl/assistant.html{linked('pl')}")
    pg.wait_for_selector("#havoc-answer[data-engine=failed]", state="attached", timeout=60_000)
    assert "Asystent nie mógł się uruchomić" in pg.inner_text("#ha-engine")
    pg.locator("#ha-offline").wait_for(state="visible")  # no server either: how to start one
    assert pg.locator("#ha-answer").is_hidden()
    context.close()


def test_a_new_build_replaces_the_cache_and_downloads_only_what_changed(
    browser: Any,  # noqa: F811
    site: Path,
    tmp_path: Path,
) -> None:
    """The host gets a new build: one page changed, and the WebAssembly Python is gone from the host.
    The new service worker still installs (it copies unchanged files from the old cache, it does
    not download them), and its cache holds the changed page."""
    from havoc.offline import write_service_worker

    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    with static_host(copy) as base:
        context = browser.new_context(**PHONE, service_workers="allow")
        pg = context.new_page()
        pg.goto(f"{base}/en/index.html")
        pg.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
        first = pg.evaluate("caches.keys()")

        page = copy / "en" / "glossary.html"
        page.write_text(page.read_text(encoding="utf-8").replace("</body>", "<p id=new-build>new</p></body>"))
        write_service_worker(copy)
        (copy / "_engine" / "pyodide" / "pyodide.asm.wasm").unlink()  # listed, unchanged, gone from the host
        installed = pg.evaluate(
            """async () => {
                const r = await navigator.serviceWorker.getRegistration();
                await r.update();
                const w = r.installing || r.waiting;
                if (!w) return "no new worker";
                if (w.state !== "installing") return w.state;
                return await new Promise(done => w.addEventListener("statechange", () => {
                    if (w.state !== "installing") done(w.state);
                }));
            }"""
        )
        assert installed == "installed"  # "redundant" if a file had to come from the host
        keys = pg.evaluate("caches.keys()")
        new = [k for k in keys if k not in first]
        assert len(new) == 1
        text = pg.evaluate(
            "k => caches.open(k).then(c => c.match(location.origin + '/en/glossary.html')).then(r => r.text())", new[0]
        )
        assert "new-build" in text
        wasm = pg.evaluate(
            "k => caches.open(k).then(c => c.match(location.origin + '/_engine/pyodide/pyodide.asm.wasm'))"
            ".then(r => r.arrayBuffer()).then(b => b.byteLength)",
            new[0],
        )
        assert wasm > 1_000_000  # copied from the old cache
        context.close()
