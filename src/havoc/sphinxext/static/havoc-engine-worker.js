/* havoc: the rules assistant in a Web Worker (copied to <site>/_engine/worker.js by the build).
 * Loads the WebAssembly Python shipped beside it (./pyodide/), unpacks the engine bundle named by
 * ./engine.json and answers the Ask page's API requests with havoc.webapi, the same JSON as
 * `havoc serve`. Nothing is fetched from outside this site. The worker's name ("havoc:<ruleset>",
 * from havocEngine.start) says the ruleset of the page shown: it is loaded before the worker
 * reports ready and its game compiled right after, not the default ruleset's. Messages in: {id, method, path,
 * body, query}; out: {kind: "progress", stage}, {kind: "ready", ms}, {kind: "failed", reason,
 * detail}, {id, status, body}. tests/engine_parity.mjs runs the same steps under Node.
 */
const here = new URL("./", import.meta.url);
const ruleset = (self.name || "").replace(/^havoc:/, ""); // "": the default ruleset (the Ask page's)
let engine = null;

function post(msg) { self.postMessage(msg); }

async function start() {
  const t0 = performance.now();
  if (typeof WebAssembly !== "object") throw Object.assign(new Error("no WebAssembly"), {reason: "no-wasm"});
  post({kind: "progress", stage: "runtime"});
  const runtime = import(new URL("pyodide/pyodide.mjs", here).href); // meanwhile: the manifest, the bundle
  runtime.catch(function () {}); // a failure is reported where it is awaited
  const manifest = await (await fetch(new URL("engine.json", here))).json();
  const bundle = fetch(new URL(manifest.bundle, here)).then(function (r) {
    if (!r.ok) throw new Error("bundle " + r.status);
    return r.arrayBuffer();
  });
  const {loadPyodide} = await runtime;
  // no packages: the bundle has all the engine needs (its standard modules come with bytecode)
  const py = await loadPyodide({indexURL: new URL("pyodide/", here).href, packages: []});
  post({kind: "progress", stage: "engine"});
  py.unpackArchive(await bundle, "zip", {extractDir: "/havoc"});
  py.runPython("import sys; sys.path.insert(0, '/havoc'); from havoc import webapi; webapi.setup('/havoc')");
  const handle = py.pyimport("havoc.webapi").handle;
  post({kind: "progress", stage: "rules"});
  handle("GET", "/api/labels", "", py.toPy(ruleset ? {lang: "en", ruleset: ruleset} : {lang: "en"})); // loads the rules from the bundle's cache
  engine = {py: py, handle: handle, preload: py.pyimport("havoc.webapi").preload};
  return performance.now() - t0;
}

const ready = start().then(
  function (ms) {
    post({kind: "ready", ms: ms});
    engine.preload(ruleset); // before any question: the page's game's modules, compiled while the reader types
  },
  function (err) {
    post({kind: "failed", reason: err.reason || (/memory|quota|storage/i.test(String(err)) ? "storage" : "start"), detail: String(err)});
    throw err;
  }
);

self.onmessage = function (ev) {
  const m = ev.data || {};
  ready.then(function () {
    const q = engine.py.toPy(m.query || {});
    try {
      const out = JSON.parse(engine.handle(m.method || "GET", m.path, m.body || "", q));
      post({id: m.id, status: out.status, body: out.body});
    } finally { q.destroy(); }
  }).catch(function (err) {
    post({id: m.id, status: 0, body: null, error: String(err)});
  });
};
