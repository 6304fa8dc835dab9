/* havoc: registers the site's service worker (<site>/sw.js), which keeps every page, the search
 * index, the sheets and the in-browser assistant for use without a network. The script's data-top
 * attribute is the site's top folder relative to this language's root.
 *
 * When the worker could not keep the site (a file it downloaded did not have the bytes the build
 * listed, or could not be downloaded, or the device is full), it leaves why in the cache STATUS
 * and tells the open pages; the page then says, in its language (the words are in
 * <meta name="havoc-offline">, from the site catalog), that offline use is not ready yet and why,
 * in #havoc-offline-status. The notice goes once an install succeeds.
 */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  var me = document.currentScript;
  var root = new URL(document.documentElement.dataset.content_root || "./", location.href);
  var top = new URL((me && me.dataset.top) || "../", root);
  var STATUS = "havoc:offline-status", STATUS_KEY = new URL("havoc-offline-status.json", top).href;

  function words() {
    var meta = document.querySelector('meta[name="havoc-offline"]');
    try { return JSON.parse(meta ? meta.content : "{}"); } catch (e) { return {}; }
  }

  function outcome() {
    if (typeof caches === "undefined") return Promise.resolve(null);
    return caches.open(STATUS).then(function (c) { return c.match(STATUS_KEY); })
      .then(function (r) { return r ? r.json() : null; }).catch(function () { return null; });
  }

  function show() {
    return Promise.all([outcome(), navigator.serviceWorker.getRegistration(top.href)]).then(function (r) {
      var s = r[0], reg = r[1], box = document.getElementById("havoc-offline-status");
      if (!s || s.state !== "failed") { if (box) box.remove(); return; }
      var W = words(), earlier = !!(reg && reg.active); // an earlier build still serves offline
      if (!box) {
        box = document.createElement("div");
        box.id = "havoc-offline-status";
        box.className = "havoc-offline-status";
        box.setAttribute("role", "status");
        document.body.appendChild(box);
      }
      box.textContent = [W[earlier ? "update" : "none"], W[s.reason] || W.unreachable].filter(Boolean).join(" ");
      box.dataset.reason = s.reason;
      box.dataset.file = s.file || "";
      box.dataset.earlier = earlier ? "yes" : "no";
    });
  }

  var registration = null;
  function changed(ev) { if (ev.target.state === "installed" || ev.target.state === "redundant") show(); }
  function found() { if (registration.installing) registration.installing.addEventListener("statechange", changed); }
  // The page hears of the install's progress only while it is shown: an event it would hear in the
  // back/forward cache (a worker's state changing) would make Chromium drop it from that cache
  // ("JavaScriptExecution"); back, it looks again.
  function listen(on) {
    if (!registration) return;
    var how = on ? "addEventListener" : "removeEventListener";
    registration[how]("updatefound", found);
    [registration.installing, registration.waiting, registration.active].forEach(function (w) { if (w) w[how]("statechange", changed); });
  }

  // The assistant's engine on this page (the Ask page) downloads its files while the service
  // worker installs: the worker is told how far the engine is, and fetches the engine's files
  // only once the page has them (then from the browser's HTTP cache), so none crosses the network twice.
  function engineNews(reg) {
    var engine = window.havocEngine;
    if (!engine) return;
    engine.onstate(function (s) {
      [reg.installing, reg.waiting, reg.active].forEach(function (w) {
        if (w) w.postMessage({kind: "havoc-engine", stage: s.stage});
      });
    });
  }

  // The worker is told when this page goes into the back/forward cache and when it comes back
  // out, so that it neither messages nor claims it meanwhile (either would drop it from that
  // cache: sw.js says why)
  function parked(shown) {
    var workers = registration ? [registration.installing, registration.waiting, registration.active] : [];
    if (navigator.serviceWorker.controller) workers.push(navigator.serviceWorker.controller);
    workers.forEach(function (w) { if (w) w.postMessage({kind: "havoc-page", shown: shown}); });
  }
  window.addEventListener("pagehide", function (ev) { if (ev.persisted) { listen(false); parked(false); } });
  window.addEventListener("pageshow", function (ev) { if (ev.persisted) { listen(true); parked(true); show(); } });

  navigator.serviceWorker.addEventListener("message", function (ev) {
    if (ev.data && ev.data.kind === "havoc-offline") show();
  });
  navigator.serviceWorker.startMessages();
  window.addEventListener("load", function () {
    show();
    navigator.serviceWorker.register(new URL("sw.js", top).href).then(function (reg) {
      registration = reg;
      engineNews(reg);
      listen(true);
    }).catch(function () {});
  });
})();
