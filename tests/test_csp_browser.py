"""The real built site under its own Content-Security-Policy, in headless Chromium: not one violation.

The policy (:mod:`havoc.web.policy`) is in every page as a ``<meta>`` (for static hosts) and in
every answer of ``havoc serve`` as a header (which also governs the workers: the engine's and the
service worker). Both are tried: the site on a plain static host (the meta alone) and behind
``havoc serve`` (header and meta). Every ``securitypolicyviolation`` event and every console
message about the policy fails the test; the pages must also still work: search finds rules, the
service worker takes over, and the Ask page's engine (Pyodide, WebAssembly) starts and answers.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_browser import PHONE, browser, static_host  # noqa: F401 - browser is a shared fixture
from test_engine_browser import offline_copy
from test_site import REPO, Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEAVE = yaml.safe_load((REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text(encoding="utf-8"))
QUESTION = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 8}
PAGES = [
    "/index.html",
    "/en/index.html",
    "/pl/index.html",
    "/en/glossary.html",
    "/en/positions.html",
    "/en/trogs.html",
    "/pl/rules/battle.html",
    "/en/rule/battle-region-leave.html",  # a redirect page: its inline script runs
]
WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__violations.push([e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber, e.sample].join(' | '));
});
"""
META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.fixture(scope="module")
def site(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """The real site as `havoc docs` finishes it: with the engine and the service worker."""
    return offline_copy(real_site.out, tmp_path_factory, "csp")


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """``havoc serve`` over the site, on a free loopback port."""
    from test_server_browser import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "havoc", "serve", "--site", str(site), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_every_page_carries_the_policy_allowing_exactly_its_inline_code(site: Path) -> None:
    pages = [p for p in site.rglob("*.html") if "_sources" not in p.parts]
    assert len(pages) > 100
    for path in pages:
        page = path.read_text(encoding="utf-8")
        metas = META.findall(page)
        assert len(metas) == 1, path
        csp = metas[0]
        assert "frame-ancestors" not in csp and "'unsafe-inline'" not in csp, path
        assert page.index("Content-Security-Policy") < page.find("<script") or "<script" not in page, path
        script_src = next(d for d in csp.split("; ") if d.startswith("script-src "))
        for attrs, body in re.findall(r"<script\b([^>]*)>(.*?)</script>", page, re.S):
            if "src=" not in attrs and "application/json" not in attrs:
                assert sha256(body) in script_src, (path, body[:80])


def _visit(browser: Any, base: str) -> list[str]:  # noqa: F811
    """Every page, the search, the service worker and an answer from the in-browser engine; the
    policy violations and console complaints about it seen on the way."""
    context = browser.new_context(**PHONE, locale="en-GB", service_workers="allow")
    context.add_init_script(WATCH)
    seen: list[str] = []

    def watch(pg: Any) -> None:
        pg.on(
            "console",
            lambda m: seen.append(f"console {pg.url}: {m.text}") if "Content Security Policy" in m.text else None,
        )
        pg.on("pageerror", lambda e: seen.append(f"error {pg.url}: {e}"))

    context.on("page", watch)
    pg = context.new_page()

    def violations() -> list[str]:
        found = [f"{pg.url}: {v}" for v in pg.evaluate("window.__violations")]
        pg.evaluate("window.__violations = []")
        return found

    for path in PAGES:
        response = pg.goto(base + path)
        assert response is not None and response.ok, path
        pg.wait_for_load_state("load")
        seen += violations()

    # Sphinx's translations load without eval (havoc-plural.js): Polish plural forms, by n
    pg.goto(base + "/pl/index.html")
    assert pg.evaluate("() => Documentation.LOCALE") == "pl"
    forms = pg.evaluate("() => [1, 2, 4, 5, 12, 21, 22, 25, 102, 0].map(n => Documentation.PLURAL_EXPR(n))")
    assert forms == [0, 1, 1, 2, 2, 2, 1, 2, 1, 2]
    seen += violations()

    # the watcher sees what the policy refuses: an inline script no hash allows (in a page of
    # its own, whose complaints are expected)
    control = context.browser.new_context(**PHONE, service_workers="block") if context.browser else None
    assert control is not None
    probe = control.new_page()
    probe.add_init_script(WATCH)
    probe.goto(base + "/en/index.html")
    probe.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.head.append(s); }"
    )
    probe.wait_for_timeout(300)  # the violation event is dispatched after the refusal
    assert probe.evaluate("window.__ran") is None, "an inline script with no hash ran: no policy in force"
    assert any("script-src" in v for v in probe.evaluate("window.__violations"))
    control.close()

    pg.goto(base + "/en/index.html")
    pg.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=180_000)
    pg.goto(base + "/en/search.html?q=battle")
    pg.wait_for_function("() => document.querySelectorAll('#search-results ul.search > li').length > 0", timeout=30_000)
    seen += violations()

    body = json.dumps({"position": LEAVE, "question": QUESTION, "lang": "en"}).encode()
    pg.goto(base + "/en/assistant.html#q=" + base64.urlsafe_b64encode(body).decode().rstrip("="))
    pg.wait_for_selector(
        "#havoc-answer[data-state=done], #havoc-answer[data-state=error]", state="attached", timeout=180_000
    )
    assert pg.get_attribute("#havoc-answer", "data-state") == "done"
    assert pg.get_attribute("#havoc-answer", "data-engine") == "ready"  # the browser's engine answered
    assert pg.locator("#ha-answer .ha-verdict").inner_text() == "No"
    seen += violations()
    context.close()
    return seen


def test_the_site_on_a_static_host_breaks_no_rule_of_its_policy(browser: Any, site: Path) -> None:  # noqa: F811
    with static_host(site) as base:
        seen = _visit(browser, base)
        assert seen == [], "\n".join(seen)


def test_the_site_behind_havoc_serve_breaks_no_rule_of_its_policy(browser: Any, served: str) -> None:  # noqa: F811
    with urllib.request.urlopen(served + "/en/assistant.html") as r:
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    seen = _visit(browser, served)
    assert seen == [], "\n".join(seen)

    # the API's own page (inline script and style, allowed by their hashes in its header)
    context = browser.new_context(**PHONE)
    context.add_init_script(WATCH)
    pg = context.new_page()
    pg.goto(served + "/api/docs")
    pg.wait_for_function("() => document.querySelectorAll('#ops section').length > 5")
    pg.locator("#ops section").first.locator("button").click()
    pg.wait_for_function("() => /^200 /.test(document.querySelector('#ops section pre').textContent)")
    assert pg.evaluate("window.__violations") == []
    context.close()
