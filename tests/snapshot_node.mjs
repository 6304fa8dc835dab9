// The snapshot start (issue 40) under Node: the built site's Pyodide and engine bundle, started the
// way _engine/worker.js starts them. Usage: node snapshot_node.mjs <engine dir> <snapshot file> <mode>
// mode "make": a normal start with Pyodide's _makeSnapshot option; after the rules (labels) and the
// game (preload) its memory is written to the snapshot file. "restore": Pyodide started from that
// file (_loadSnapshot), the bundle unpacked again and webapi.setup re-run, as the worker does after a
// restore. "bare": a normal start, no option. Reads a JSON list of requests on stdin; prints one JSON
// line: {mode, loadMs, readyMs, restored (havoc's web API already imported when Pyodide returned:
// the option honoured), snapshotBytes, answers: [{status, body}]}; an error: {mode, error}.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [engineDir, snapshotFile, mode] = process.argv.slice(2);
const requests = JSON.parse(readFileSync(0, "utf-8"));
const manifest = JSON.parse(readFileSync(join(engineDir, "engine.json"), "utf-8"));
const { loadPyodide } = await import(pathToFileURL(join(engineDir, "pyodide", "pyodide.mjs")).href);
const options = { indexURL: join(engineDir, "pyodide") + "/", packages: [] };
if (mode === "make") options._makeSnapshot = true;
if (mode === "restore") options._loadSnapshot = new Uint8Array(readFileSync(snapshotFile));
const t0 = performance.now();
let py;
try {
  py = await loadPyodide(options);
} catch (e) {
  console.log(JSON.stringify({ mode, error: String(e && e.message ? e.message : e).split("\n")[0] }));
  process.exit(0);
}
const loadMs = performance.now() - t0;
const restored = py.runPython("import sys; 'havoc.assistant.webapi' in sys.modules");
py.unpackArchive(new Uint8Array(readFileSync(join(engineDir, manifest.bundle))), "zip", { extractDir: "/havoc" });
if (mode === "restore") py.runPython("from havoc.assistant import webapi; webapi.setup('/havoc')");
else py.runPython("import sys; sys.path.insert(0, '/havoc'); from havoc.assistant import webapi; webapi.setup('/havoc')");
const webapi = py.pyimport("havoc.assistant.webapi");
const labels = JSON.parse(webapi.handle("GET", "/api/labels", "", py.toPy({ lang: "en" })));
const readyMs = performance.now() - t0;
let snapshotBytes = 0;
if (mode !== "restore") webapi.preload("");
if (mode === "make") {
  const bytes = py.makeMemorySnapshot();
  writeFileSync(snapshotFile, bytes);
  snapshotBytes = bytes.length;
}
const answers = [];
for (const r of requests) {
  const q = py.toPy(r.query || {});
  answers.push(JSON.parse(webapi.handle(r.method || "POST", r.path, r.body || "", q)));
  q.destroy();
}
console.log(JSON.stringify({ mode, loadMs, readyMs, restored, labels: labels.status, snapshotBytes, answers }));
