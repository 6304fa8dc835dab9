/* havoc: the rules assistant in a Web Worker (copied to <site>/_engine/worker.js by the build).
 * Loads the WebAssembly Python shipped beside it (./pyodide/), unpacks the engine bundle named by
 * ./engine.json and answers the Ask page's API requests with havoc.assistant.webapi, the same JSON as
 * `havoc serve`. Nothing is fetched from outside this site. The worker's name ("havoc:<ruleset>",
 * from havocEngine.start) says the ruleset of the page shown: it is loaded before the worker
 * reports ready and its game compiled right after, not the default ruleset's. Messages in: {id, method, path,
 * body, query}; out: {kind: "progress", stage}, {kind: "ready", ms}, {kind: "failed", reason,
 * detail}, {id, status, body}. tests/engine_parity.mjs runs the same steps under Node.
 * The bundle must have the SHA-256 engine.json lists (Web Crypto) and unpack: one that does not (a
 * download cut short, a stale copy in the HTTP cache) is fetched once more from the host itself
 * (cache: "reload", which the service worker passes to the network), never kept; if that one is
 * wrong too, the start fails with the reason "damaged" (the page says so in its language).
 */
const here = new URL("./", import.meta.url);
const ruleset = (self.name || "").replace(/^havoc:/, ""); // "": the default ruleset (the Ask page's)
let engine = null;

function post(msg) { self.postMessage(msg); }

function damaged(what) { return Object.assign(new Error(what), {reason: "damaged"}); }

function hex(buf) {
  return Array.prototype.map.call(new Uint8Array(buf), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
}

// The bundle's bytes, checked against engine.json's SHA-256 (where Web Crypto is: secure contexts).
async function bundle(manifest, mode) {
  const r = await fetch(new URL(manifest.bundle, here), {cache: mode});
  if (!r.ok) throw new Error("bundle " + r.status);
  const data = await r.arrayBuffer();
  if (manifest.sha256 && self.crypto && crypto.subtle) {
    if (hex(await crypto.subtle.digest("SHA-256", data)) !== manifest.sha256) throw damaged("the engine bundle is damaged");
  }
  return data;
}

function unpacked(py, data) {
  try { py.unpackArchive(data, "zip", {extractDir: "/havoc"}); return true; } catch (e) { return false; }
}

async function start() {
  const t0 = performance.now();
  if (typeof WebAssembly !== "object") throw Object.assign(new Error("no WebAssembly"), {reason: "no-wasm"});
  post({kind: "progress", stage: "runtime"});
  const runtime = import(new URL("pyodide/pyodide.mjs", here).href); // meanwhile: the manifest, the bundle
  runtime.catch(function () {}); // a failure is reported where it is awaited
  const manifest = await (await fetch(new URL("engine.json", here))).json();
  const first = bundle(manifest, "default");
  first.catch(function () {}); // awaited below
  const {loadPyodide} = await runtime;
  // no packages: the bundle has all the engine needs (its standard modules come with bytecode)
  const py = await loadPyodide({indexURL: new URL("pyodide/", here).href, packages: []});
  post({kind: "progress", stage: "engine"});
  let data = await first.catch(function () { return null; });
  if (!data || !unpacked(py, data)) {
    data = await bundle(manifest, "reload");
    if (!unpacked(py, data)) throw damaged("the engine bundle does not unpack");
  }
  py.runPython("import sys; sys.path.insert(0, '/havoc'); from havoc.assistant import webapi; webapi.setup('/havoc')");
  const handle = py.pyimport("havoc.assistant.webapi").handle;
  post({kind: "progress", stage: "rules"});
  handle("GET", "/api/labels", "", py.toPy(ruleset ? {lang: "en", ruleset: ruleset} : {lang: "en"})); // loads the rules from the bundle's cache
  engine = {py: py, handle: handle, preload: py.pyimport("havoc.assistant.webapi").preload};
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
