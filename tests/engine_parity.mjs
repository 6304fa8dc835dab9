// The in-browser engine under Node: the built site's Pyodide (<site>/_engine/pyodide/) and engine
// bundle, the same steps as _engine/worker.js. Reads a JSON list of requests
// ([{method, path, body, query}]) on stdin; prints one JSON line: {startMs, firstMs, laterMs,
// answers: [{status, body}]}. Used by tests/test_engine_browser.py and benchmarks/bench_engine.py.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const engineDir = process.argv[2];
const requests = JSON.parse(readFileSync(0, "utf-8"));
const t0 = performance.now();
const manifest = JSON.parse(readFileSync(join(engineDir, "engine.json"), "utf-8"));
const { loadPyodide } = await import(pathToFileURL(join(engineDir, "pyodide", "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: join(engineDir, "pyodide") + "/", packages: [] });
py.unpackArchive(new Uint8Array(readFileSync(join(engineDir, manifest.bundle))), "zip", { extractDir: "/havoc" });
py.runPython("import sys; sys.path.insert(0, '/havoc'); from havoc import webapi; webapi.setup('/havoc')");
const handle = py.pyimport("havoc.webapi").handle;
const startMs = performance.now() - t0;
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
const later = times.slice(1).sort((a, b) => a - b);
console.log(JSON.stringify({
  startMs, firstMs: times[0], laterMs: later.length ? later[Math.floor(later.length / 2)] : null,
  imported, answers,
}));
