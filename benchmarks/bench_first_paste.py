"""The first ask after choosing a rulebook example on the Ask page: what the YAML reader adds.

The page fills a chosen example's table in as YAML text (names in the page's language), so the
first ask after it is the first time the in-browser engine imports its YAML reader. On the built
site (build/site: ``havoc docs --lang all``) served by ``python -m http.server``, headless
Chromium with a phone viewport and the CPU throttled (CDP Emulation.setCPUThrottlingRate, default
4; Chromium throttles the page's renderer, its engine worker included, though not always fully:
the figures at rate 1 show how much), the Polish page's ask of the example is caught and replayed
straight to the engine three ways, each time on a fresh page: the table as a mapping (no YAML),
then as the page's YAML text (the reader imported), then as YAML again (a new text, the reader
warm). "first YAML - YAML again" is what warming the reader at the engine's start would save;
the goal: under ~300 ms on a phone, else warm the reader when the engine starts. Not in ``run.py``: it needs the
built site and takes about a minute.

    python benchmarks/bench_first_paste.py [RATE] [RUNS] [EXAMPLE]
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

SITE = Path(__file__).resolve().parents[1] / "build" / "site"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]

# the page's question is caught, not sent, then replayed with the table given three ways
CATCH = """() => {
  const engine = window.havocEngine;
  window.__request = engine.request.bind(engine);
  window.__sent = [];
  engine.request = (method, path, body, query) => {
    if (path === '/api/ask') { window.__sent.push(body); return new Promise(() => {}); }
    return window.__request(method, path, body, query);
  };
}"""
REPLAY = """async ([body, position]) => {
  body.position = position;
  const t = performance.now();
  const r = await window.__request('POST', '/api/ask', JSON.stringify(body));
  return [performance.now() - t, r.status];
}"""


def once(p: Any, base: str, rate: float, example: str) -> tuple[float, float, float]:
    """One fresh page: ms for the table as a mapping, as YAML first, as YAML again."""
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(f"{base}/pl/assistant.html")
        page.wait_for_function("window.havocEngine && window.havocEngine.state().stage === 'ready'", timeout=300_000)
        page.evaluate("() => window.havocEngine.request('GET', '/api/labels', '', {lang: 'pl'})")  # after the preload
        page.select_option("#ha-example", example)
        page.evaluate(CATCH)
        page.locator("button.ha-ask").first.click()
        page.wait_for_function("window.__sent.length > 0")
        body = json.loads(page.evaluate("window.__sent[0]"))
        text = body["position"]
        assert isinstance(text, str), "the example's table is no longer pasted as text"
        times = []
        for position in (yaml.safe_load(text), text, text + "\n# again\n"):
            ms, status = page.evaluate(REPLAY, [body, position])
            assert status == 200, status
            times.append(float(ms))
        return times[0], times[1], times[2]
    finally:
        browser.close()


def main() -> int:
    from playwright.sync_api import sync_playwright

    rate = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    example = sys.argv[3] if len(sys.argv) > 3 else "1"
    if not (SITE / "pl" / "assistant.html").is_file():
        print(f"no built site in {SITE}: run `havoc docs --lang all` first")
        return 1
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(SITE)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(0.5)
        with sync_playwright() as p:
            rows = [once(p, f"http://127.0.0.1:{port}", rate, example) for _ in range(runs)]
    finally:
        server.terminate()
        server.wait()
    for mapping, first, again in rows:
        print(f"CPU x{rate:g}: mapping {mapping:.0f} ms, first YAML {first:.0f} ms, YAML again {again:.0f} ms")
    added = statistics.median(first - again for _, first, again in rows)
    print(f"the YAML reader adds {added:.0f} ms to the first ask (median of {runs}; goal: under ~300 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
