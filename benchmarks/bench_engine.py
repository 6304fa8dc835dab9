"""The assistant in the browser (issue 22): sizes, start-up and answer times, Chromium and Node.

Uses the built site in build/site (``make site``; the engine and the service worker are added
to it when missing) served by ``python -m http.server``, no havoc process, and headless Chromium
with a phone viewport. Prints:

- what the site ships for the engine: Pyodide's files and the bundle, raw and gzip-compressed
  (what a static host that compresses sends);
- the first visit of the Ask page: the bytes the page itself loads (page, scripts, Pyodide, the
  bundle) and what the service worker precaches for offline use (the whole site), compressed;
- with the network cut after that visit: the engine ready from the warm cache, the first answer
  after that, and the median of later answers (the 8-vs-3 question and others about its table);
  and a shared ``#q=`` link opened until its answer is on screen (what a reader waits for);
- the same under Node (the engine alone: tests/engine_parity.mjs), with CPU time, which a busy
  machine does not inflate as it does wall time, and how many modules were compiled from
  source on the way (0: the bytecode the build makes with Pyodide's Python is used);
- the same question through ``havoc serve`` over loopback, for comparison;
- the snapshot start (issue 40), each figure against a bare ``loadPyodide()`` of the same Pyodide
  in a worker of the same page (a file served beside the site, not part of it), runs interleaved
  (engine, bare, engine, bare ...) and medians: the engine ready on a later visit (restored from
  the snapshot; goal ≤ 0.6× bare) and on a first visit (a fresh browser profile, the snapshot made
  after ready; goal ≤ 1.3× bare), the first answer asked at once after a restore (goal ≤ 150 ms),
  and back from a rule link to the answer on screen (the back/forward cache on, as on a phone;
  goal ≤ 300 ms); under Node, what Pyodide's ``_makeSnapshot`` option costs a start, interleaved.

``--snapshot``: only the snapshot start's figures; ``--snapshot --back``: only the way back from a
rule link (with, interleaved, the same steps between two empty pages: the harness's and the
browser's own floor); ``--site DIR``: another built site; ``--rounds N``: N rounds instead of 5.

Goals: first visit ≤ 8 MB compressed; ready from a warm cache ≤ 2 s; first answer ≤ 300 ms;
later answers ≤ 50 ms. The machine is not a phone: no CPU throttling is applied; on a shared,
busy machine wall times grow with the load (printed first), so Node's start also shows CPU time.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "build" / "site"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LEAVE = yaml.safe_load((REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml").read_text(encoding="utf-8"))
LATER = 20
THINK_MS = 2000  # between the engine's "ready" and the first question
# functions, not expressions: Playwright evals an expression, which the site's CSP refuses
ENGINE_READY = "() => document.querySelector('#havoc-answer').dataset.engine === 'ready'"


def body(units: int, lang: str = "pl") -> dict[str, Any]:
    question = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": units}
    return {"position": LEAVE, "question": question, "lang": lang}


def b64(data: dict[str, Any]) -> str:
    """The Ask page's ``#q=`` hook: base64url, no padding, of the JSON body of POST /api/ask."""
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 6))


def mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str) -> None:
    for _ in range(300):
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answered at {url}")


def ensure_site() -> None:
    if not (SITE / "en" / "assistant.html").is_file():
        raise SystemExit(f"{SITE} has no Ask page: run `make site` first")
    manifest = SITE / "_engine" / "engine.json"
    # an engine built before the bundle carried bytecode is rebuilt: the figures are of this code
    if not manifest.is_file() or "bytecode" not in manifest.read_text() or not (SITE / "sw.js").is_file():
        sys.path.insert(0, str(REPO / "src"))
        from havoc.web.offline import build_engine, write_service_worker

        build_engine(SITE)
        write_service_worker(SITE)


def sizes() -> None:
    engine = SITE / "_engine"
    manifest = json.loads((engine / "engine.json").read_text())
    print(f"Pyodide {manifest['pyodide']} and the engine bundle, as the site ships them (raw / gzip):")
    total = [0, 0]
    for path in sorted(engine.rglob("*")):
        if path.is_file():
            raw, small = path.stat().st_size, gz(path)
            total[0] += raw
            total[1] += small
            print(f"  {path.relative_to(engine).as_posix():40} {mb(raw):>10} {mb(small):>10}")
    print(f"  {'all':40} {mb(total[0]):>10} {mb(total[1]):>10}")


def local_file(url: str, base: str) -> Path | None:
    if not url.startswith(base):
        return None
    path = unquote(urlsplit(url).path).lstrip("/")
    file = SITE / (path or "index.html")
    if file.is_dir():
        file = file / "index.html"
    return file if file.is_file() else None


def chromium(base: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(**PHONE, locale="pl-PL", service_workers="allow")
        page = context.new_page()
        seen: set[str] = set()
        page.on("request", lambda r: seen.add(r.url.split("?")[0]))
        started = time.perf_counter()
        page.goto(f"{base}/pl/assistant.html")
        page.wait_for_function(ENGINE_READY, timeout=300_000)
        cold = time.perf_counter() - started
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=300_000)
        files = {f for u in seen if (f := local_file(u, base))}
        page_bytes = sum(gz(f) for f in files)
        from havoc.web.offline import first_visit

        visit = first_visit(SITE)
        print(f"Chromium (phone viewport), first visit of the Ask page on {base}:")
        print(f"  the page and the engine: {len(files)} files, {mb(page_bytes)} gzip")
        print(f"  engine ready on the first visit (cold): {cold:.2f} s")
        print(
            f"  the first visit in all, for offline use (the whole site, both languages, each content once; "
            f"the README's figure): {visit['files']} files, {mb(visit['total'])} gzip, of which the engine "
            f"{mb(visit['engine'])} (goal: ≤ 8 MB)"
        )

        context.set_offline(True)
        readies, firsts, laters = [], [], []
        for _ in range(3):
            page.goto("about:blank")
            t0 = time.perf_counter()
            page.goto(f"{base}/pl/assistant.html")
            page.wait_for_function(ENGINE_READY, timeout=120_000, polling=10)
            readies.append(time.perf_counter() - t0)
            page.wait_for_timeout(THINK_MS)  # a player fills in the form meanwhile; the worker compiles the game
            times = page.evaluate(
                """async (bodies) => {
                    const out = [];
                    for (const b of bodies) {
                        const t = performance.now();
                        const r = await window.havocEngine.request("POST", "/api/ask", JSON.stringify(b), {});
                        if (r.status !== 200) throw new Error(JSON.stringify(r.body));
                        out.push(performance.now() - t);
                    }
                    return out;
                }""",
                [body(8), *[body(1 + i % 8, "pl" if i % 2 else "en") for i in range(LATER)]],
            )
            firsts.append(times[0])
            laters.extend(times[1:])
        print("  offline, from the warm cache (3 page loads):")
        print(f"    engine ready after navigation: median {statistics.median(readies):.2f} s (goal: ≤ 2 s)")
        print(
            f"    first answer (8 vs 3, asked {THINK_MS / 1000:.0f} s after ready): "
            f"median {statistics.median(firsts):.0f} ms (goal: ≤ 300 ms)"
        )
        print(f"    later answers: median {statistics.median(laters):.1f} ms, max {max(laters):.1f} ms (goal: ≤ 50 ms)")
        linked = []
        for units in (8, 2, 5):  # a shared #q= link: the page opened, the engine started, the answer shown
            page.goto("about:blank")
            t0 = time.perf_counter()
            page.goto(f"{base}/pl/assistant.html#q={b64(body(units))}")
            page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=120_000)
            linked.append(time.perf_counter() - t0)
        print(f"    a #q= link opened to its answer on screen: median {statistics.median(linked):.2f} s")
        browser.close()


BARE_JS = """// a bare loadPyodide() of the site's Pyodide, for comparison (benchmarks/bench_engine.py)
const here = new URL("../_engine/pyodide/", import.meta.url).href;
const { loadPyodide } = await import(here + "pyodide.mjs");
const py = await loadPyodide({ indexURL: here, packages: [] });
py.runPython("1 + 1");
postMessage("loaded");
"""
# the page's clock from new Worker() to its message, as havoc-engine.js times the engine's "ready"
BARE = """() => new Promise((resolve, reject) => {
    const t0 = performance.now();
    const w = new Worker("/_bench/bare.js", {type: "module"});
    w.onmessage = () => { resolve(performance.now() - t0); w.terminate(); };
    w.onerror = (e) => reject(new Error(e.message || "bare worker"));
})"""
READY = "() => window.havocEngine && window.havocEngine.state().stage === 'ready'"
KEPT = "() => ['stored', 'restored', 'not-stored', 'unsupported'].includes(window.havocEngine.snapshot().state)"
FIRST = """async (b) => {
    const t = performance.now();
    const r = await window.havocEngine.request("POST", "/api/ask", JSON.stringify(b), {});
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return performance.now() - t;
}"""
ROUNDS = 5


def bench_root(tmp: Path) -> Path:
    """The site as links, plus /_bench/ (the bare worker and an empty page to run it in)."""
    (tmp / "_bench").mkdir(parents=True)
    for entry in SITE.iterdir():
        (tmp / entry.name).symlink_to(entry)
    (tmp / "_bench" / "bare.js").write_text(BARE_JS, encoding="utf-8")
    (tmp / "_bench" / "index.html").write_text("<!doctype html><title>bench</title>", encoding="utf-8")
    (tmp / "_bench" / "other.html").write_text("<!doctype html><title>elsewhere</title>", encoding="utf-8")
    return tmp


def ratio(a: list[float], b: list[float]) -> str:
    """Medians, their ratio, and the range of the ratios of each interleaved pair (a run against
    the bare run right after it): how dependable the median is on a loaded machine."""
    pairs = [x / y for x, y in zip(a, b, strict=True)]
    return (
        f"{statistics.median(a) / 1000:.2f} s vs {statistics.median(b) / 1000:.2f} s: "
        f"{statistics.median(a) / statistics.median(b):.2f}× (pairs {min(pairs):.2f}–{max(pairs):.2f}×)"
    )


def steps(marks: list[dict[str, int]]) -> str:
    """The worker's steps (ms since it began), medians over the runs, in the order they came."""
    names = sorted({k for m in marks for k in m}, key=lambda k: statistics.median(m.get(k, 0) for m in marks))
    return ", ".join(f"{k} {statistics.median(m[k] for m in marks if k in m):.0f}" for k in names)


def snapshot_start(base: str) -> None:
    from playwright.sync_api import sync_playwright

    ask = f"{base}/pl/assistant.html"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        # first visits: a fresh profile each (no HTTP cache, no snapshot), engine and bare in turn
        cold: list[float] = []
        cold_bare: list[float] = []
        cold_marks: list[dict[str, int]] = []
        cold_firsts: list[float] = []
        stored: list[dict[str, Any]] = []
        for _ in range(ROUNDS):
            ctx = browser.new_context(**PHONE, service_workers="block")
            page = ctx.new_page()
            page.goto(ask)
            page.wait_for_function(READY, timeout=300_000, polling=10)
            # asked at once: the snapshot is made after ready, and must not hold up the answer long
            cold_firsts.append(page.evaluate(FIRST, body(8)))
            state = page.evaluate("() => window.havocEngine.state()")
            assert state["from"] == "start", state
            cold.append(state["waited"])
            cold_marks.append(state["marks"])
            page.wait_for_function(KEPT, timeout=300_000)
            stored.append(page.evaluate("() => window.havocEngine.snapshot()"))
            ctx.close()
            ctx = browser.new_context(**PHONE, service_workers="block")
            page = ctx.new_page()
            page.goto(f"{base}/_bench/index.html")
            cold_bare.append(page.evaluate(BARE))
            ctx.close()
        kept = stored[-1]
        print(f"Chromium (phone viewport), the snapshot start on {base} ({ROUNDS} rounds interleaved, medians):")
        print(
            f"  the snapshot: {kept['state']}, memory {mb(kept.get('bytes', 0))}, stored "
            f"{mb(kept.get('stored', 0))} (zero pages left out, with the {kept.get('files', 0)} files); "
            f"copied in {kept.get('copyMs', 0):.0f} ms at ready, stored {kept.get('ms', 0):.0f} ms later in the background"
        )
        print(f"  first visit, engine ready (snapshot made after): {ratio(cold, cold_bare)} bare (goal: ≤ 1.3×)")
        print(f"    the first start's steps (ms since the worker began, medians): {steps(cold_marks)}")
        print(
            f"    first answer (8 vs 3) asked at once after ready, the snapshot being made: median "
            f"{statistics.median(cold_firsts):.0f} ms, {min(cold_firsts):.0f}–{max(cold_firsts):.0f} ms"
        )

        ctx = browser.new_context(**PHONE, service_workers="allow")
        page = ctx.new_page()
        page.goto(ask)
        page.wait_for_function(READY, timeout=300_000)
        page.wait_for_function(KEPT, timeout=300_000)
        # a later visit comes after the first one's offline copy is in: the service worker has
        # stored the whole site (and hashed every file) and controls the page, rather than doing
        # so beside the timed starts
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=300_000)
        warm: list[float] = []
        warm_bare: list[float] = []
        firsts: list[float] = []
        marks: list[dict[str, int]] = []
        for _ in range(ROUNDS):
            page.goto("about:blank")
            page.goto(ask)
            page.wait_for_function(READY, timeout=120_000, polling=10)
            firsts.append(page.evaluate(FIRST, body(8)))  # asked at once: nothing compiled meanwhile
            state = page.evaluate("() => window.havocEngine.state()")
            assert state["from"] == "snapshot", state
            warm.append(state["waited"])
            marks.append(state["marks"])
            warm_bare.append(page.evaluate(BARE))
        print(f"  later visit, engine ready (restored): {ratio(warm, warm_bare)} bare (goal: ≤ 0.6×)")
        print(f"    the restore's steps (ms since the worker began, medians): {steps(marks)}")
        print(
            f"  first answer (8 vs 3) asked at once after a restore: median {statistics.median(firsts):.0f} ms, "
            f"{min(firsts):.0f}–{max(firsts):.0f} ms (goal: ≤ 150 ms)"
        )
        ctx.close()
        browser.close()


def back_to_answer(base: str, profile: Path) -> None:
    """Back from a rule link: the page from the back/forward cache, its answer on screen (timed from
    here: Playwright's own round trips, a few ms, are in the figure)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            ignore_default_args=["--disable-back-forward-cache"],
            **PHONE,
        )
        # the answer on screen: the second frame after the page is shown again (the first one painted)
        ctx.add_init_script(
            "window.addEventListener('pageshow', e => { window.__restored = e.persisted;"
            " requestAnimationFrame(() => requestAnimationFrame(() => { window.__painted = true; })); });"
        )
        page = ctx.new_page()
        reasons: list[str] = []
        cdp = ctx.new_cdp_session(page)
        cdp.send("Page.enable")
        cdp.on("Page.backForwardCacheNotUsed", lambda e: reasons.append(json.dumps(e.get("notRestoredExplanations"))))
        page.goto(f"{base}/en/assistant.html")
        page.wait_for_function(READY, timeout=300_000)
        page.locator("[data-template=tpl-battle]").first.click()
        page.locator("button.ha-ask").first.click()
        page.wait_for_selector("#havoc-answer[data-state=done]", state="attached", timeout=120_000)
        # the floor: the same steps between two empty pages (Playwright's round trips, the
        # browser's own restore), interleaved with the Ask page's
        floor_page = ctx.new_page()
        floor_page.goto(f"{base}/_bench/index.html")
        times, kept, floor = [], [], []
        for _ in range(ROUNDS):
            page.locator("#havoc-answer a[href*='rules/']").first.click()
            page.wait_for_load_state("load")
            t0 = time.perf_counter()
            page.go_back(wait_until="commit")
            page.wait_for_function(
                "() => window.__painted && document.querySelector('#havoc-answer').dataset.state === 'done'"
                " && document.querySelector('#ha-answer').getBoundingClientRect().height > 0",
                polling=5,
                timeout=120_000,
            )
            times.append((time.perf_counter() - t0) * 1000)
            kept.append(page.evaluate("() => window.__restored"))
            page.evaluate("() => { window.__restored = undefined; window.__painted = false; }")
            floor_page.goto(f"{base}/_bench/other.html")
            t0 = time.perf_counter()
            floor_page.go_back(wait_until="commit")
            floor_page.wait_for_function("() => window.__painted", polling=5, timeout=120_000)
            floor.append((time.perf_counter() - t0) * 1000)
            floor_page.evaluate("() => { window.__painted = false; }")
        print(
            f"  back from a rule link to the answer on screen: median {statistics.median(times):.0f} ms, "
            f"{min(times):.0f}–{max(times):.0f} ms (goal: ≤ 300 ms); from the back/forward cache {sum(kept)} of "
            f"{len(kept)}; the same between two empty pages: median {statistics.median(floor):.0f} ms, "
            f"{min(floor):.0f}–{max(floor):.0f} ms"
        )
        for why in reasons:
            print(f"    not from the back/forward cache: {why[:400]}")
        ctx.close()


def node_snapshot(tmp: Path) -> None:
    """What Pyodide's _makeSnapshot option costs a start, and a restore, under Node (interleaved)."""
    runner = REPO / "tests" / "snapshot_node.mjs"
    snap = tmp / "engine.snapshot"
    runs: dict[str, list[dict[str, Any]]] = {"bare": [], "make": [], "restore": []}
    for _ in range(5):
        for mode in ("bare", "make", "restore"):
            proc = subprocess.run(
                ["node", str(runner), str(SITE / "_engine"), str(snap), mode],
                input="[]",
                capture_output=True,
                text=True,
                check=True,
            )
            runs[mode].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    med = {
        m: (statistics.median(r["loadMs"] for r in rs), statistics.median(r["readyMs"] for r in rs))
        for m, rs in runs.items()
    }
    print("Node, the snapshot options (5 rounds interleaved, medians; loadPyodide / ready with the rules):")
    print(f"  normal start: {med['bare'][0] / 1000:.2f} s / {med['bare'][1] / 1000:.2f} s")
    print(
        f"  with _makeSnapshot: {med['make'][0] / 1000:.2f} s / {med['make'][1] / 1000:.2f} s "
        f"({med['make'][1] / med['bare'][1]:.2f}× the normal start)"
    )
    print(
        f"  restored (_loadSnapshot, the bundle unpacked again): {med['restore'][0] / 1000:.2f} s / "
        f"{med['restore'][1] / 1000:.2f} s ({med['restore'][1] / med['bare'][1]:.2f}×)"
    )


def node() -> None:
    requests = [{"method": "POST", "path": "/api/ask", "body": json.dumps(body(8))}]
    requests += [
        {"method": "POST", "path": "/api/ask", "body": json.dumps(body(1 + i % 8, "pl" if i % 2 else "en"))}
        for i in range(LATER)
    ]
    proc = subprocess.run(
        ["node", str(REPO / "tests" / "engine_parity.mjs"), str(SITE / "_engine")],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    print("Node (the engine alone, files from disk):")
    print(
        f"  Pyodide loaded: {out['runtimeMs'] / 1000:.2f} s wall; with the bundle unpacked and havoc imported: "
        f"{out['startMs'] / 1000:.2f} s wall, {out['startCpuMs'] / 1000:.2f} s CPU (all threads)"
    )
    print(
        f"  ready (the rules loaded, as the worker reports it): {out['readyMs'] / 1000:.2f} s wall, "
        f"{out['readyCpuMs'] / 1000:.2f} s CPU (goal: ≤ 2 s); then the game's modules: {out['preloadMs']:.0f} ms"
    )
    print(f"  modules compiled from source rather than the shipped bytecode: {len(out['fromSource'])}")
    print(f"  first answer: {out['firstMs']:.0f} ms; later answers: median {out['laterMs']:.1f} ms")


def server() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "havoc", "serve", "--site", str(SITE), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/api/health")

        def ask(b: dict[str, Any]) -> float:
            req = urllib.request.Request(
                base + "/api/ask", json.dumps(b).encode(), {"Content-Type": "application/json"}, method="POST"
            )
            t = time.perf_counter()
            with urllib.request.urlopen(req, timeout=10) as r:
                r.read()
            return (time.perf_counter() - t) * 1000

        first = ask(body(8))
        later = [ask(body(1 + i % 8, "pl" if i % 2 else "en")) for i in range(LATER)]
        print("havoc serve over loopback (for comparison):")
        print(f"  first answer: {first:.1f} ms; later answers: median {statistics.median(later):.1f} ms")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> int:
    global SITE, ROUNDS
    if "--rounds" in sys.argv:  # more rounds: a steadier median on a loaded machine
        ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1])
    if "--site" in sys.argv:  # another built site (a copy, another build)
        SITE = Path(sys.argv[sys.argv.index("--site") + 1]).resolve()
    ensure_site()
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    sizes()
    only_snapshot = "--snapshot" in sys.argv  # just the snapshot start's figures (issue 40)
    with tempfile.TemporaryDirectory() as tmp:
        root = bench_root(Path(tmp) / "root")
        port = free_port()
        host = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(root)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(f"http://127.0.0.1:{port}/index.html")
            if not only_snapshot:
                chromium(f"http://127.0.0.1:{port}")
            if "--back" not in sys.argv:
                snapshot_start(f"http://127.0.0.1:{port}")
            back_to_answer(f"http://127.0.0.1:{port}", Path(tmp) / "profile")
        finally:
            host.terminate()
            host.wait(timeout=10)
        if "--back" not in sys.argv:
            node_snapshot(Path(tmp))
    if not only_snapshot:
        node()
        server()
    return 0


if __name__ == "__main__":
    sys.exit(main())
