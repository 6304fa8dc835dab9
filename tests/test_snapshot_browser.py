"""The snapshot start (issue 40): a device's first start keeps the engine's memory (Pyodide's memory
snapshot, and its files, in IndexedDB) and later starts restore it instead of starting Python afresh.

Under Node (tests/snapshot_node.mjs): the pinned Pyodide made and restored a snapshot, and the
restored engine answers exactly as one started normally, with or without the option. The private
options are checked as honoured, not only present: the restored Python has havoc imported before
anything is unpacked, and a snapshot of another Pyodide build is refused by Pyodide itself.

In Chromium (the built site over loopback, the worker the site ships): the first visit says it
started normally and stored a snapshot; the next says it restored it and answers the same; an
entry that is damaged, of another build, or that Pyodide refuses, gives a normal start with the
right answer, and a good entry in its place.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_browser import ARGS, CHROMIUM, static_host
from test_engine_browser import offline_copy, run_node
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

pytestmark = [pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
RUNNER = REPO / "tests" / "snapshot_node.mjs"
LEAVE = yaml.safe_load((REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text(encoding="utf-8"))


def ask(units: int, lang: str) -> dict[str, Any]:
    question = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": units}
    return {
        "method": "POST",
        "path": "/api/ask",
        "body": json.dumps({"position": LEAVE, "question": question, "lang": lang}),
    }


REQUESTS = [ask(8, "pl"), ask(3, "en"), {"method": "GET", "path": "/api/labels", "query": {"lang": "pl"}}]


@pytest.fixture(scope="module")
def site(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    return offline_copy(real_site.out, tmp_path_factory, "snapshot")


def node(site: Path, snapshot: Path, mode: str) -> dict[str, Any]:
    return run_node(RUNNER, [str(site / "_engine"), str(snapshot), mode], REQUESTS)


def test_a_restored_engine_answers_as_a_started_one_under_node(site: Path, tmp_path: Path) -> None:
    snapshot = tmp_path / "engine.snapshot"
    made = node(site, snapshot, "make")
    assert made["restored"] is False and made["snapshotBytes"] == snapshot.stat().st_size > 10_000_000
    restored = node(site, snapshot, "restore")
    assert "error" not in restored, restored
    # the option honoured: Python came back with the engine imported, before any file was unpacked
    assert restored["restored"] is True and restored["labels"] == 200
    bare = node(site, snapshot, "bare")
    assert bare["restored"] is False
    assert restored["answers"] == made["answers"] == bare["answers"]
    assert [a["status"] for a in bare["answers"]] == [200, 200, 200]
    assert bare["answers"][0]["body"]["answer"] == "Nie"  # 8 may not leave a Battle against 3
    # a snapshot of another Pyodide build (its build id, bytes 16-48) is refused, not run
    data = bytearray(snapshot.read_bytes())
    data[16:20] = bytes(b ^ 0xFF for b in data[16:20])
    snapshot.write_bytes(bytes(data))
    assert "build id mismatch" in node(site, snapshot, "restore").get("error", "")


# --- Chromium ------------------------------------------------------------------------------------

READY = "() => window.havocEngine && window.havocEngine.state().stage === 'ready'"
STORED = "() => window.havocEngine.snapshot().state === 'stored'"
ASK = """async (reqs) => {
    const out = [];
    for (const r of reqs) out.push(await window.havocEngine.request(r.method, r.path, r.body || "", r.query || {}));
    return out;
}"""
# what the worker keeps: {fingerprint, bytes, pages, files, data: Blob, sha256}; ``how`` changes it
# in the page (the same origin's IndexedDB)
SPOIL = """async (how) => {
    const db = await new Promise((ok, no) => { const r = indexedDB.open("havoc-engine"); r.onsuccess = () => ok(r.result); r.onerror = no; });
    const store = (mode) => db.transaction("snapshots", mode).objectStore("snapshots");
    const entry = await new Promise((ok, no) => { const r = store("readonly").get("default"); r.onsuccess = () => ok(r.result); r.onerror = no; });
    const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
    if (how === "truncated") entry.data = entry.data.slice(0, Math.floor(entry.data.size / 2));
    if (how === "flipped") {
        const b = new Uint8Array(await entry.data.arrayBuffer());
        b[Math.floor(b.length / 3)] ^= 0xff;
        entry.data = new Blob([b]);
    }
    if (how === "moved") entry.files[0][0] = "/elsewhere";  // the data whole, a file's name not
    if (how === "stale") entry.fingerprint = "another build|" + entry.fingerprint;
    if (how === "refused") {  // whole (its SHA-256 matches) and of this build, but no memory Pyodide made
        const junk = new Uint8Array(entry.data.size).fill(7);
        entry.data = new Blob([junk]);
        entry.sha256 = hex(await crypto.subtle.digest("SHA-256", junk)) + ":" + entry.sha256.split(":")[1];
    }
    await new Promise((ok, no) => { const r = store("readwrite").put(entry, "default"); r.onsuccess = ok; r.onerror = no; });
    db.close();
    return [entry.fingerprint, entry.bytes, entry.data.size];
}"""


@pytest.fixture(scope="module")
def host(site: Path) -> Iterator[str]:
    with static_host(site) as base:
        yield base


def start(page: Any, url: str) -> tuple[dict[str, Any], list[Any]]:
    page.goto(url)
    page.wait_for_function(READY, timeout=240_000)
    state = page.evaluate("() => window.havocEngine.state()")
    return state, page.evaluate(ASK, REQUESTS)


@pytest.mark.browser
def test_the_second_start_restores_the_snapshot_and_a_bad_one_falls_back(host: str, site: Path) -> None:
    from playwright.sync_api import sync_playwright

    url = f"{host}/pl/assistant.html"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
        page = ctx.new_page()
        state, first = start(page, url)
        assert state["from"] == "start" and page.evaluate("() => window.havocEngine.snapshot().why") == "none"
        # the bundle inflated by the browser while Python loaded, not by Python after it
        assert state["unpack"] == "browser", state
        assert [a["status"] for a in first] == [200, 200, 200] and first[0]["body"]["answer"] == "Nie"
        page.wait_for_function(STORED, timeout=120_000)
        kept = page.evaluate("() => window.havocEngine.snapshot()")
        # the memory without its zero pages, and the engine's files
        assert kept["bytes"] > 10_000_000 and 0 < kept["stored"] < kept["bytes"] and kept["files"] > 100, kept

        # the entry is kept under the bundle's SHA-256, the Pyodide version and the worker's own
        # SHA-256 (a change of the worker's steps is another build)
        manifest = json.loads((site / "_engine" / "engine.json").read_text(encoding="utf-8"))
        worker = hashlib.sha256((site / "_engine" / "worker.js").read_bytes()).hexdigest()
        assert manifest["worker"] == worker
        assert page.evaluate(SPOIL, "")[0] == "|".join([manifest["sha256"], manifest["pyodide"], worker])

        state, again = start(page, url)
        assert state["from"] == "snapshot" and page.evaluate("() => window.havocEngine.snapshot().state") == "restored"
        assert state["unpack"] == "kept", state
        assert again == first
        # and a reader's shared question (#q=) is answered on screen by the restored engine
        linked = base64.urlsafe_b64encode(REQUESTS[0]["body"].encode()).decode().rstrip("=")
        page.goto(f"{url}#q={linked}")
        page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=120_000)
        assert page.evaluate("() => window.havocEngine.state().from") == "snapshot"
        assert "Nie" in page.inner_text("#ha-answer")

        for how, why in (
            ("truncated", "damaged"),
            ("flipped", "damaged"),
            ("moved", "damaged"),
            ("stale", "stale"),
            ("refused", "refused"),
        ):
            page.evaluate(SPOIL, how)
            state, fallen = start(page, url)
            assert state["from"] == "start", how
            assert fallen == first, how
            page.wait_for_function(STORED, timeout=120_000)
            assert page.evaluate("() => window.havocEngine.snapshot().why") == why, how
            # the bad entry was dropped and a good one stored: the next start restores again
            state, _ = start(page, url)
            assert state["from"] == "snapshot", how
        browser.close()
