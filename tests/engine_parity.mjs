// The in-browser engine under Node: the built site's Pyodide (<site>/_engine/pyodide/) and engine
// bundle, the same steps as _engine/worker.js. Reads a JSON list of requests
// ([{method, path, body, query}]) on stdin; prints one JSON line: {runtimeMs (Pyodide itself), startMs,
// startCpuMs (the bundle unpacked and havoc imported too), readyMs, readyCpuMs (and the rules loaded: when the
// worker reports ready), preloadMs, firstMs, laterMs, imported, fromSource (modules compiled from source rather
// than loaded from the shipped bytecode), answers: [{status, body}]}. Used by tests/test_engine_browser.py and
// benchmarks/bench_engine.py.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const engineDir = process.argv[2];
const ruleset = process.argv[3] || ""; // the page's ruleset, as the worker is told it ("" = default)
const requests = JSON.parse(readFileSync(0, "utf-8"));
const t0 = performance.now();
const cpu0 = process.cpuUsage(); // CPU time, which a busy machine does not inflate as it does wall time
const manifest = JSON.parse(readFileSync(join(engineDir, "engine.json"), "utf-8"));
const { loadPyodide } = await import(pathToFileURL(join(engineDir, "pyodide", "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: join(engineDir, "pyodide") + "/", packages: [] });
const runtimeMs = performance.now() - t0;
py.unpackArchive(new Uint8Array(readFileSync(join(engineDir, manifest.bundle))), "zip", { extractDir: "/havoc" });
py.runPython("import sys; sys.path.insert(0, '/havoc'); from havoc.assistant import webapi; webapi.setup('/havoc')");
const handle = py.pyimport("havoc.assistant.webapi").handle;
const startMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const startCpuMs = (cpu.user + cpu.system) / 1000;
handle("GET", "/api/labels", "", py.toPy(ruleset ? { lang: "en", ruleset } : { lang: "en" })); // as the worker does before it reports ready
const readyMs = performance.now() - t0;
const cpuReady = process.cpuUsage(cpu0);
const readyCpuMs = (cpuReady.user + cpuReady.system) / 1000;
const t1 = performance.now();
py.pyimport("havoc.assistant.webapi").preload(ruleset); // as the worker does right after it reports ready
const preloadMs = performance.now() - t1;
const answers = [];
const times = [];
for (const r of requests) {
  const q = py.toPy(r.query || {});
  const t = performance.now();
  const out = JSON.parse(handle(r.method || "POST", r.path, r.body || "", q));
  times.push(performance.now() - t);
  q.destroy();
  answers.push(out);
}
const imported = py.runPython("import sys; sorted(m for m in sys.modules if m.split('.')[0] in ('yaml', 'babel'))").toJs();
const fromSource = py.runPython(`
import importlib.util, os, sys, zipfile, zipimport
def _valid(pyc, source):
    # Pyodide's magic number and the hash of the source beside it (bytecode of another Python or
    # of other source would be ignored, silently: the module compiled from source instead)
    return pyc[:4] == importlib.util.MAGIC_NUMBER and pyc[8:16] == importlib.util.source_hash(source)
def _from_source():
    out, listed = [], {}
    for name, m in sorted(sys.modules.items()):
        spec = getattr(m, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if not origin.endswith(".py"):
            continue
        if isinstance(spec.loader, zipimport.zipimporter):
            archive = spec.loader.archive
            if archive not in listed:
                listed[archive] = zipfile.ZipFile(archive)
            inner = origin[len(archive) + 1:]
            names = listed[archive].namelist()
            compiled = inner + "c" in names and _valid(listed[archive].read(inner + "c"), listed[archive].read(inner))
        else:
            cached = importlib.util.cache_from_source(origin)
            compiled = os.path.exists(cached) and _valid(open(cached, "rb").read(), open(origin, "rb").read())
        if not compiled:
            out.append(name)
    return out
_from_source()`).toJs();
const later = times.slice(1).sort((a, b) => a - b);
console.log(JSON.stringify({
  runtimeMs, startMs, startCpuMs, readyMs, readyCpuMs, preloadMs, firstMs: times[0], laterMs: later.length ? later[Math.floor(later.length / 2)] : null,
  imported, fromSource, answers,
}));
