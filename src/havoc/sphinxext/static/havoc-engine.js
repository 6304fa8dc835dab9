/* havoc: the page's side of the in-browser assistant. Starts the Web Worker of <site>/_engine/
 * (Pyodide + the engine bundle) and passes it the Ask page's API requests; the worker answers
 * with the same JSON as `havoc serve`. window.havocEngine: start(engineURL, ruleset), request(method,
 * path, body, query) -> Promise<{status, body}>, onstate(fn) with {stage, ms, reason, detail, and
 * while the engine downloads done and total: bytes}; when
 * ready also from ("snapshot": restored from the memory a first start kept, or "start"), unpack
 * (how the engine's files came: "kept" with that memory, "browser", "python"), marks (the worker's
 * steps) and waited (ms from the worker's creation, as the page saw it); snapshot(): what became of that
 * memory this time ({state: "restored", "stored", "making", "refused", "stale", "damaged", ...}).
 */
(function () {
  "use strict";
  var worker = null, next = 0, pending = {}, listeners = [];
  var state = {stage: "idle"}, snapshot = {state: "none"}, t0 = 0;
  function set(s) { state = s; listeners.forEach(function (fn) { fn(s); }); }
  function fail(reason, detail) {
    set({stage: "failed", reason: reason, detail: detail});
    Object.keys(pending).forEach(function (id) { pending[id].reject(new Error(reason)); delete pending[id]; });
  }
  function start(base, ruleset) {  // ruleset: the page's, which the worker loads first ("" = default)
    if (worker || state.stage === "failed") return;
    if (typeof WebAssembly !== "object" || typeof Worker !== "function") { fail("no-wasm", ""); return; }
    set({stage: "loading"});
    t0 = performance.now();
    try { worker = new Worker(new URL("worker.js", new URL(base, location.href)), {type: "module", name: "havoc:" + (ruleset || "")}); }
    catch (e) { fail("start", String(e)); return; }
    worker.onmessage = function (ev) {
      var m = ev.data || {};
      if (m.kind === "progress") set({stage: m.stage, done: m.done, total: m.total});
      else if (m.kind === "ready") set({stage: "ready", ms: m.ms, from: m.from, marks: m.marks, unpack: m.unpack, waited: performance.now() - t0});
      else if (m.kind === "snapshot") snapshot = m;
      else if (m.kind === "failed") fail(m.reason, m.detail);
      else if (pending[m.id]) {
        var p = pending[m.id]; delete pending[m.id];
        if (m.status) p.resolve({status: m.status, body: m.body}); else p.reject(new Error(m.error || "engine"));
      }
    };
    worker.onerror = function (ev) { fail("start", ev.message || "worker"); };
  }
  function request(method, path, body, query) {
    if (state.stage === "failed") return Promise.reject(new Error(state.reason));
    return new Promise(function (resolve, reject) {
      var id = ++next;
      pending[id] = {resolve: resolve, reject: reject};
      worker.postMessage({id: id, method: method, path: path, body: body || "", query: query || {}});
    });
  }
  // The status line for state `s` in a page's words (its "engine-<stage>" texts): while the engine
  // downloads, how much has arrived ("engine-download", {percent}); once ready but before the
  // service worker keeps the site (a first visit), that it is not yet ready for use without a
  // network ("engine-ready-keeping"); the line is told again when the worker takes over.
  function say(s, words) {
    if (s.stage === "runtime" && s.total && words["engine-download"]) {
      return words["engine-download"].replace("{percent}", String(Math.min(99, Math.floor(100 * s.done / s.total))));
    }
    if (s.stage === "ready" && navigator.serviceWorker && !navigator.serviceWorker.controller && !kept && words["engine-ready-keeping"]) {
      return words["engine-ready-keeping"];
    }
    return words["engine-" + (s.stage === "idle" ? "loading" : s.stage)] || words["engine-loading"];
  }
  // A page back from the back/forward cache may be left uncontrolled by a worker that took over
  // meanwhile (sw.js: it does not claim a page there); the site is kept all the same
  var kept = false;
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", function () { set(state); });
    window.addEventListener("pageshow", function (ev) {
      if (!ev.persisted || navigator.serviceWorker.controller) return;
      navigator.serviceWorker.getRegistration().then(function (reg) {
        if (reg && reg.active && !kept) { kept = true; set(state); }
      }).catch(function () {});
    });
  }
  window.havocEngine = {
    start: start, request: request, say: say,
    state: function () { return state; },
    snapshot: function () { return snapshot; },
    onstate: function (fn) { listeners.push(fn); fn(state); }
  };
})();
