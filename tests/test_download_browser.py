"""The first visit downloads each file once (issue 40): the Ask page's engine and the service
worker's offline copy share the browser's HTTP cache instead of racing for the same files.

A fresh browser profile with a disk cache (a persistent context, as a phone's browser has; a
private window's memory cache keeps no 9 MB file, so it proves nothing either way) opens the Ask
page of the built site, waits until the engine is ready and the service worker controls the page,
and counts the bytes of every response that came from the network, per URL."""

from __future__ import annotations

import collections
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import ARGS, CHROMIUM, static_host
from test_engine_browser import offline_copy
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    return offline_copy(real_site.out, tmp_path_factory, "download")


@pytest.fixture(scope="module")
def host(site: Path) -> Iterator[str]:
    with static_host(site) as base:
        yield base


def first_visit(host: str, profile: Path, then: Any = None, said: list[str] | None = None) -> dict[str, list[int]]:
    """URL -> the body size of each response to it that crossed the network (cache hits and
    304s carry no body, and so count nothing); ``then(context, page)`` runs after, offline;
    ``said`` gets what the engine's status line showed, in order."""
    said = [] if said is None else said
    from playwright.sync_api import sync_playwright

    seen: dict[str, list[int]] = collections.defaultdict(list)
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=ARGS, headless=True, viewport={"width": 390, "height": 844}
        )

        def finished(req: Any) -> None:
            response = req.response()
            if response is None or response.from_service_worker or response.status == 304:
                return
            size = req.sizes()["responseBodySize"]
            if size > 0:
                seen[req.url].append(size)

        ctx.on("requestfinished", finished)
        page = ctx.new_page()
        # every text the engine's status line shows, in order (the progress is over in seconds)
        page.add_init_script(
            """window.havocSaid = [];
            new MutationObserver(() => {
              const p = document.getElementById('ha-engine');
              const said = window.havocSaid;
              if (p && p.textContent && said[said.length - 1] !== p.textContent) said.push(p.textContent);
            }).observe(document, {subtree: true, childList: true, characterData: true});"""
        )
        page.goto(f"{host}/en/assistant.html")
        page.wait_for_function(
            "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)", timeout=240_000
        )
        page.wait_for_function(
            "() => window.havocEngine && window.havocEngine.state().stage === 'ready'", timeout=240_000
        )
        page.wait_for_function("() => window.havocSaid.some(t => t.endsWith('works without a network.'))")
        said.extend(page.evaluate("window.havocSaid"))
        if then is not None:
            then(ctx, page)
        ctx.close()
    return seen


def test_the_first_visit_fetches_no_file_twice(host: str, site: Path, tmp_path: Path) -> None:
    """No URL comes twice, and no content either: each site's identical copy of the theme's files
    is downloaded once. A rule's permanent link (a page that only sends the reader on, not
    downloaded at all) still lands on its section offline."""
    import hashlib

    from havoc.web.offline import precached

    kept, moved = precached(site)
    stub = next(rel for rel in moved if rel.startswith("pl/rule/"))
    landed: list[str] = []

    def offline_link(ctx: Any, page: Any) -> None:
        ctx.set_offline(True)
        page.goto(f"{host}/{stub}")
        page.wait_for_load_state()
        landed.append(page.url)

    said: list[str] = []
    seen = first_visit(host, tmp_path / "profile", offline_link, said)
    # the status line said how much had arrived, then that the offline copy was being kept, then ready
    import re

    percents = [int(m.group(1)) for t in said if (m := re.match(r"Downloading the assistant: (\d+)%", t))]
    assert percents and percents == sorted(percents) and len(set(percents)) > 3, said
    assert said[-1] == "The assistant runs on this device and works without a network.", said
    assert "The assistant runs on this device. Keeping it for use without a network…" in said, said
    twice = {url: sizes for url, sizes in seen.items() if len(sizes) > 1}
    assert not twice, twice
    base = host.rstrip("/") + "/"
    by_content: dict[str, list[str]] = {}
    for url in seen:
        rel = url.split("#")[0].split("?")[0].removeprefix(base)
        if rel in kept:
            by_content.setdefault(hashlib.sha256((site / rel).read_bytes()).hexdigest(), []).append(rel)
    assert not [rels for rels in by_content.values() if len(rels) > 1]
    assert not [url for url in seen if "/rule/" in url], "a rule's link page was downloaded"
    assert landed == [f"{base}{moved[stub]}"], (landed, moved[stub])
    engine = [url for url in seen if "/_engine/" in url]
    assert any(url.endswith("pyodide.asm.wasm") for url in engine), "the engine was not downloaded at all"
    # and nothing but the site's own files (and its service worker) came over
    listed = set(_listed(site)) | {"sw.js"}
    base = host.rstrip("/") + "/"
    strays = [url for url in seen if url.split("#")[0].split("?")[0].removeprefix(base) not in listed]
    assert not [u for u in strays if not u.endswith("/")], strays  # a folder URL is its index.html


def _listed(site: Path) -> list[str]:
    from havoc.web.offline import precached

    return precached(site)[0]


def test_the_first_visit_size_is_what_the_readme_says(site: Path) -> None:
    """The README's figure for the first visit (compressed, as a host that gzips sends it) is
    the built site's, within a tenth."""
    import re

    from test_site import REPO

    from havoc.web.offline import first_visit as downloaded

    total = downloaded(site)["total"]
    said = re.search(r"about (\d+(?:\.\d)?) MB compressed on\s+the first visit", (REPO / "README.md").read_text())
    assert said, "the README no longer states the first visit's size"
    assert abs(float(said.group(1)) * 1e6 - total) <= total / 10, (said.group(1), total / 1e6)
