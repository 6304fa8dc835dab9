"""The built site on a plain static host, in headless Chromium on a phone: one visit, then no network.

The site (pages, the in-browser engine, the service worker, as ``havoc docs`` builds them) is
served by ``python -m http.server`` with no havoc process. After the first visit the network is cut
(``context.set_offline(True)``); pages never opened, the search and the Ask page must still work,
and the 8-vs-3 question is answered in both languages by the engine in the browser. A question
that fails never leaves the previous answer on screen.
"""

from __future__ import annotations

import base64
import contextlib
import http.server
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_browser import PHONE, SCREENSHOTS, browser, served, static_host  # noqa: F401 - browser is a shared fixture
from test_engine_browser import offline_copy
from test_site import REPO, Site, real_site  # noqa: F401 - the fixture is shared

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
    out = offline_copy(real_site.out, tmp_path_factory, "offline")  # what `havoc docs` runs after the pages
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
    from havoc.web.offline import write_service_worker

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


# --- the service worker keeps nothing it did not check ------------------------------------------

NOT_READY = {
    "en": "Offline use is not ready yet",
    "pl": "Witryna nie jest jeszcze gotowa do pracy bez sieci",
}
UPDATE_NOT_READY = "Offline use of this site's new version is not ready yet"
DAMAGED = {"en": "arrived damaged or from another version of the site", "pl": "dotarła uszkodzona"}


@contextlib.contextmanager
def recorded_host(folder: Path, max_age: int = 0) -> Iterator[tuple[str, list[tuple[str, dict[str, str]]]]]:
    """``folder`` on a static host in this process that notes every request (path, headers), so a
    test can alter the files it serves and see what the browser asked for, and how. With
    ``max_age``, every answer may be kept that long in the HTTP cache, as many hosts allow."""
    seen: list[tuple[str, dict[str, str]]] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append((self.path.split("?")[0], {k.lower(): v for k, v in self.headers.items()}))
            super().do_GET()

        def end_headers(self) -> None:
            if max_age:
                self.send_header("Cache-Control", f"max-age={max_age}")
            super().end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    with served(folder, Handler) as base:
        yield base, seen


# the end of the service worker's install under way, if any: its last state
SETTLED = """async () => {
    const r = await navigator.serviceWorker.getRegistration();
    const w = r && r.installing;
    if (!w) return "none";
    return await new Promise(done => w.addEventListener("statechange", () => {
        if (w.state !== "installing") done(w.state);
    }));
}"""


def settled(pg: Any) -> str:
    """Wait until the page either is controlled by the service worker (the site was kept) or says
    that offline use is not ready; which one: "kept" or the notice's reason."""
    pg.wait_for_function(
        "() => navigator.serviceWorker.controller !== null || document.getElementById('havoc-offline-status') !== null",
        timeout=120_000,
    )
    reason = pg.evaluate("(document.getElementById('havoc-offline-status') || {dataset: {}}).dataset.reason")
    return str(reason) if reason else "kept"


def builds(pg: Any) -> list[str]:
    """The service worker's build caches (``havoc-<version>``)."""
    return [k for k in pg.evaluate("caches.keys()") if k.startswith("havoc-")]


def kept(pg: Any, rel: str) -> bool:
    """Whether any cache of the site holds ``rel``."""
    return bool(pg.evaluate("u => caches.match(new URL(u, location.origin).href).then(r => !!r)", "/" + rel))


def test_a_half_deployed_host_leaves_the_previous_build_serving(browser: Any, site: Path, tmp_path: Path) -> None:  # noqa: F811
    """The host has the new build's sw.js, but still the previous build's pages (a deploy half done):
    the page the new list names is not on the host. The new build is not installed; the old one
    keeps serving, offline too, and the page says the new version is not ready for offline use."""
    from havoc.web.offline import write_service_worker

    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    with recorded_host(copy) as (base, _seen):
        context = browser.new_context(**PHONE, service_workers="allow")
        pg = context.new_page()
        pg.goto(f"{base}/en/index.html")
        assert settled(pg) == "kept"
        first = builds(pg)
        assert len(first) == 1

        new = tmp_path / "new"  # the next build, of which only sw.js reaches the host
        shutil.copytree(copy, new)
        page = new / "en" / "glossary.html"
        page.write_text(page.read_text(encoding="utf-8").replace("</body>", "<p id=new-build>new</p></body>"))
        shutil.copyfile(write_service_worker(new), copy / "sw.js")
        state = pg.evaluate(
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
        assert state == "redundant"  # "installed" would keep the old page under the new build's name
        assert builds(pg) == first
        box = pg.wait_for_selector("#havoc-offline-status[data-reason=damaged]", timeout=30_000)
        assert box.get_attribute("data-file") == "en/glossary.html"
        assert box.get_attribute("data-earlier") == "yes"
        assert UPDATE_NOT_READY in box.inner_text() and DAMAGED["en"] in box.inner_text()

        context.set_offline(True)
        pg.goto(f"{base}/en/glossary.html")  # the previous build, whole
        assert "Glossary" in pg.title() and pg.locator("#new-build").count() == 0
        pg.wait_for_selector("#havoc-offline-status[data-reason=damaged]", timeout=30_000)  # said on every page
        context.close()


def test_a_truncated_engine_is_never_kept_and_the_next_load_installs(browser: Any, site: Path, tmp_path: Path) -> None:  # noqa: F811
    """The engine bundle on the host is cut short. Neither the service worker nor the assistant's
    worker keeps it; the pages say (in Polish) that offline use is not ready and why, the Ask page
    that the assistant's files arrived damaged. Once the right file is back, the next load installs
    the build, and the assistant answers offline."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    name = json.loads((copy / "_engine" / "engine.json").read_text(encoding="utf-8"))["bundle"]
    bundle = copy / "_engine" / name
    good = bundle.read_bytes()
    bundle.write_bytes(good[: len(good) // 2])
    with recorded_host(copy, max_age=3600) as (base, _seen):  # the HTTP cache keeps the cut copy too
        context = browser.new_context(**PHONE, locale="pl-PL", service_workers="allow")
        pg = context.new_page()
        pg.goto(f"{base}/pl/index.html")
        assert settled(pg) == "damaged"
        box = pg.locator("#havoc-offline-status")
        assert box.get_attribute("data-file") == f"_engine/{name}"
        assert box.get_attribute("data-earlier") == "no"
        assert NOT_READY["pl"] in box.inner_text() and DAMAGED["pl"] in box.inner_text()
        assert builds(pg) == [] and not kept(pg, f"_engine/{name}")

        pg.goto(f"{base}/pl/assistant.html{linked('pl')}")
        pg.wait_for_selector("#havoc-answer[data-engine=failed]", state="attached", timeout=120_000)
        assert "pliki dotarły uszkodzone" in pg.inner_text("#ha-engine")
        assert pg.evaluate(SETTLED) in ("none", "redundant")  # this visit's try at installing fails too
        assert not kept(pg, f"_engine/{name}")
        pg.goto(f"{base}/pl/trogs.html")  # the Trogs page says why before it turns to the server
        pg.wait_for_selector("#havoc-trogs[data-stage=failed]", state="attached", timeout=120_000)
        assert "pliki dotarły uszkodzone" in pg.inner_text("#ht-state")
        assert pg.evaluate(SETTLED) in ("none", "redundant")  # and its try at installing is over

        bundle.write_bytes(good)  # the right file is back
        pg.goto(f"{base}/pl/index.html")  # says the last try failed, until this one succeeds
        pg.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
        pg.wait_for_selector("#havoc-offline-status", state="detached", timeout=30_000)
        context.set_offline(True)
        pg.goto(f"{base}/pl/assistant.html{linked('pl')}")
        assert answered(pg) == "done"
        assert pg.locator("#ha-answer .ha-verdict").inner_text() == NO["pl"]
        size = pg.evaluate(
            "u => caches.match(new URL(u, location.origin).href).then(r => r.arrayBuffer()).then(b => b.byteLength)",
            f"/_engine/{name}",
        )
        assert size == len(good)
        context.close()


def test_the_assistant_refetches_a_cut_bundle_past_the_http_cache(browser: Any, site: Path, tmp_path: Path) -> None:  # noqa: F811
    """Without the service worker: the assistant's worker gets a cut-short bundle, which the HTTP
    cache may keep for an hour. The page says the assistant's files arrived damaged; once the right
    file is on the host, the next load of the page fetches it past the HTTP cache and answers."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    name = json.loads((copy / "_engine" / "engine.json").read_text(encoding="utf-8"))["bundle"]
    bundle = copy / "_engine" / name
    good = bundle.read_bytes()
    bundle.write_bytes(good[:-1000])
    with recorded_host(copy, max_age=3600) as (base, seen):
        context = browser.new_context(**PHONE, service_workers="block")
        pg = context.new_page()
        pg.goto(f"{base}/en/assistant.html{linked('en')}")
        pg.wait_for_selector("#havoc-answer[data-engine=failed]", state="attached", timeout=120_000)
        assert "its files arrived damaged" in pg.inner_text("#ha-engine")

        bundle.write_bytes(good)
        before = len(seen)
        pg.reload()
        assert answered(pg) == "done"
        assert pg.locator("#ha-answer .ha-verdict").inner_text() == NO["en"]
        asked = [headers for path, headers in seen[before:] if path == f"/_engine/{name}"]
        assert len(asked) == 1 and "no-cache" in asked[0].get("cache-control", "") + asked[0].get("pragma", "")
        context.close()


def test_a_page_with_a_wrong_byte_is_refetched_once_and_never_kept(browser: Any, site: Path, tmp_path: Path) -> None:  # noqa: F811
    """One byte of one page differs from the build's list. The worker fetches it once more from the
    host itself (past the HTTP cache), refuses it again, keeps nothing; opening the page online
    shows the host's copy and still keeps nothing."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    page = copy / "en" / "glossary.html"
    data = page.read_bytes()
    at = data.index(b"<title>") + len(b"<title>")
    page.write_bytes(data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1 :])  # G -> g
    with recorded_host(copy) as (base, seen):
        context = browser.new_context(**PHONE, service_workers="allow")
        pg = context.new_page()
        pg.goto(f"{base}/en/index.html")
        assert settled(pg) == "damaged"
        assert pg.get_attribute("#havoc-offline-status", "data-file") == "en/glossary.html"
        asked = [headers for path, headers in seen if path == "/en/glossary.html"]
        assert len(asked) == 2  # fetched again once, no more
        again = asked[1].get("cache-control", "") + asked[1].get("pragma", "")
        assert "no-cache" in again  # the second time past the HTTP cache, from the host
        assert builds(pg) == [] and not kept(pg, "en/glossary.html")

        pg.goto(f"{base}/en/glossary.html")
        assert pg.title().startswith("glossary") or "lossary" in pg.title()
        assert not kept(pg, "en/glossary.html")  # what pages fetch online is never stored unchecked
        context.close()
