/* havoc: the site's service worker (written to <site>/sw.js by `havoc docs` with the build's file
 * list and version). The first visit stores every file of the site (both languages, every ruleset,
 * the sheets, the search index and the in-browser assistant) in one cache named after the build;
 * afterwards pages come from it, with or without a network. A new build installs a new cache in
 * full and the old one is deleted only when the new one takes over: never a mix of two builds.
 * Files whose bytes did not change (the WebAssembly Python, most pages) are copied from the old
 * cache rather than downloaded again. The server's /api/ is never cached.
 *
 * Nothing is kept unchecked: every file, downloaded or copied, must have the SHA-256 the build
 * listed for it (Web Crypto). A host in the middle of a deploy (this sw.js, the previous pages), a
 * download cut short or a stale copy in the browser's HTTP cache fails that check; the file is then
 * fetched once more, from the host itself (cache: "reload"), and if it still differs the install
 * fails: this build's cache is deleted, the previous build (if any) keeps serving, and the outcome
 * is left in the STATUS cache for the pages (havoc-offline.js), which say that offline use is not
 * ready and why. The browser tries the install again on a later visit.
 */
"use strict";
var VERSION = "@VERSION@";
// [path, SHA-256 of its bytes (hex), and the query the pages load it with, if any] for every
// file of the site
var FILES = [/*@FILES@*/];
var CACHE = "havoc-" + VERSION;
// path -> where that page only sends the reader (a rule's permanent link -> its section): such a
// page is not kept; the redirect is made here, with or without a network
var MOVED = {/*@MOVED@*/};
var BASE = new URL("./", self.location.href);
var INDEX = new URL("havoc-cache-index.json", BASE).href; // in each cache: path -> digest
// The last install's outcome, for the pages: not named "havoc-…", so no build's cleanup deletes it.
var STATUS = "havoc:offline-status";
var STATUS_KEY = new URL("havoc-offline-status.json", BASE).href;

function hex(buf) {
  return Array.prototype.map.call(new Uint8Array(buf), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
}

// A copy of `res` whose bytes have the SHA-256 `digest`, or null: the body is read once, checked,
// and a new response made from the very bytes checked (a body can be read only once).
function checked(res, digest) {
  return res.arrayBuffer().then(function (body) {
    return crypto.subtle.digest("SHA-256", body).then(function (got) {
      if (hex(got) !== digest) return null;
      return new Response(body, {status: res.status, statusText: res.statusText, headers: res.headers});
    });
  });
}

// One download of `url`: {res} when its bytes are the build's, else {why}.
function attempt(url, digest, mode) {
  return fetch(new Request(url, {cache: mode})).then(function (res) {
    if (!res.ok) return {why: "unreachable"};
    return checked(res, digest).then(function (ok) { return ok ? {res: ok} : {why: "damaged"}; });
  }, function () { return {why: "unreachable"}; });
}

// The file as the build made it: first as any fetch (a copy the browser already holds will do),
// and after a wrong or missing answer once more from the host, bypassing the HTTP cache.
function download(rel, url, digest) {
  return attempt(url, digest, "default").then(function (first) {
    return first.res ? first : attempt(url, digest, "reload");
  }).then(function (got) {
    if (got.res) return got.res;
    throw Object.assign(new Error(rel + ": " + got.why), {why: got.why, file: rel});
  });
}

function previous() {
  return caches.keys().then(function (keys) {
    var old = keys.filter(function (k) { return k.indexOf("havoc-") === 0 && k !== CACHE; });
    return Promise.all(old.map(function (k) {
      return caches.open(k).then(function (c) {
        return c.match(INDEX).then(function (r) { return r ? r.json().then(function (i) { return {cache: c, index: i}; }) : null; });
      });
    }));
  }).then(function (found) { return found.filter(function (x) { return x; }); });
}

// Pages of the site in the back/forward cache (havoc-offline.js says when a page goes there and
// when it comes back: {kind: "havoc-page", shown}). Chromium drops such a page when anything would
// run its scripts ("JavaScriptExecution": a message from here) or when a worker claims it
// ("ServiceWorkerClaim"), and going back to it then loads it afresh, the Ask page's engine and
// answer included. So a parked page is sent nothing (it looks again when it comes back), and the
// open pages are claimed when this build takes over only while none is parked, else once the
// last has come back; a page is taken as parked for at most PARKED_MS (a browser keeps one there
// for minutes, and one it dropped never says so). A page left unclaimed is still served by this
// worker from its next navigation on.
var PARKED_MS = 600000;
var parked = {}, claimLater = false;
function isParked(id) {
  if (parked[id] && Date.now() - parked[id] > PARKED_MS) delete parked[id];
  return !!parked[id];
}
function claimUnlessParked() {
  claimLater = Object.keys(parked).filter(isParked).length > 0;
  return claimLater ? Promise.resolve() : self.clients.claim();
}
self.addEventListener("message", function (ev) {
  var m = ev.data || {};
  if (m.kind !== "havoc-page" || !ev.source) return;
  if (m.shown) delete parked[ev.source.id];
  else parked[ev.source.id] = Date.now();
  if (claimLater && m.shown) ev.waitUntil(claimUnlessParked());
});

// Tell the site's open pages (controlled or not; not those parked) to look at STATUS again.
function tell() {
  return self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (all) {
    all.forEach(function (c) { if (!isParked(c.id)) c.postMessage({kind: "havoc-offline", version: VERSION}); });
  });
}

function record(outcome) {
  return caches.open(STATUS).then(function (c) {
    if (!outcome) return c.delete(STATUS_KEY);
    return c.put(STATUS_KEY, new Response(JSON.stringify(outcome), {headers: {"Content-Type": "application/json"}}));
  });
}

// Every file into this build's cache, each checked; settles only when all have (so no download
// still running can write into the cache after a failure has deleted it); rejects with the first
// failure, after every file was tried. At most PARALLEL files at a time: each body is held in
// memory while it is checked, so a phone never holds the whole site at once.
var PARALLEL = 6;
function fill(cache, olds) {
  var failures = [];
  function lanes(queue) {
    function next() {
      var f = queue.shift();
      if (!f) return Promise.resolve();
      return one(cache, olds, f).then(function (failed) { if (failed) failures.push(failed); return next(); });
    }
    var all = [];
    for (var i = 0; i < PARALLEL; i++) all.push(next());
    return Promise.all(all);
  }
  // files with the same bytes (each site's copy of the theme's scripts and styles) are
  // downloaded once and kept under each of their paths: one file per digest is queued
  var twins = {}, firsts = [];
  FILES.forEach(function (f) {
    if (twins[f[1]]) twins[f[1]].push(f[0]);
    else { twins[f[1]] = [f[0]]; firsts.push(f); }
  });
  var query = {};
  FILES.forEach(function (f) { if (f[2]) query[f[0]] = f[2]; });
  function one(cache, olds, f) { return oneOf(cache, olds, twins[f[1]], f[1], query); }
  // the pages first (the Ask pages before the rest), the assistant's engine last: a page whose
  // engine is still downloading it is waited for, so its files come from the browser's cache
  var engine = firsts.filter(isEngine), pages = firsts.filter(function (f) { return !isEngine(f); });
  pages.sort(function (a, b) { return isAsk(b) - isAsk(a); });
  return lanes(pages).then(engineSettled).then(function () { return lanes(engine); }).then(function () {
    if (failures.length) throw Object.assign(new Error("offline copy not ready"), failures[0], {count: failures.length});
  });
}
function isEngine(f) { return f[0].indexOf("_engine/") === 0; }
function isAsk(f) { return /(^|\/)assistant\.html$/.test(f[0]) ? 1 : 0; }

// Pages whose engine is still downloading (havoc-offline.js reports each stage); the install waits
// for them at most ENGINE_WAIT ms, and not for a page that has gone.
var ENGINE_WAIT = 120000;
var loading = {}, settledWaiters = [];
self.addEventListener("message", function (ev) {
  var m = ev.data || {};
  if (m.kind !== "havoc-engine" || !ev.source) return;
  if (["idle", "ready", "failed"].indexOf(m.stage) >= 0) delete loading[ev.source.id];
  else loading[ev.source.id] = true;
  settledWaiters.splice(0).forEach(function (fn) { fn(); });
});
function engineSettled() {
  var until = Date.now() + ENGINE_WAIT, finished = false, looking = false, timer = null;
  return new Promise(function (done) {
    function end() { if (!finished) { finished = true; clearInterval(timer); done(); } }
    function look() {
      if (finished || looking) return;
      var ids = Object.keys(loading);
      if (!ids.length || Date.now() >= until) return end();
      looking = true; // one look at a time: a page that closed without a word is noticed here
      Promise.all(ids.map(function (id) { return self.clients.get(id); })).then(function (found) {
        ids.forEach(function (id, k) { if (!found[k]) delete loading[id]; });
        looking = false;
        if (!Object.keys(loading).length) end(); else settledWaiters.push(look);
      }, function () { looking = false; end(); });
    }
    timer = setInterval(look, 500);
    look();
  });
}

// A copy of one of `rels` (all with the bytes `digest`) that needs no download, or null: an old
// build's cache's, else the browser's HTTP cache's (what the open page has just loaded); checked.
function kept(rels, digest, olds, query) {
  var tries = [];
  rels.forEach(function (rel) {
    var url = new URL(rel, BASE).href;
    olds.forEach(function (o) { if (o.index[rel] === digest) tries.push(function () { return o.cache.match(url); }); });
  });
  rels.forEach(function (rel) {
    var url = new URL(rel + (query[rel] || ""), BASE).href;
    tries.push(function () {
      return fetch(new Request(url, {cache: "only-if-cached", mode: "same-origin"})).then(function (r) {
        return r.ok ? r : null;
      }, function () { return null; });
    });
  });
  function next(i) {
    if (i >= tries.length) return Promise.resolve(null);
    return tries[i]().then(function (hit) {
      return hit ? checked(hit, digest).catch(function () { return null; }) : null;
    }).then(function (copy) { return copy || next(i + 1); });
  }
  return next(0);
}

// One file (and its twins: the same bytes at other paths) into the cache: null, or why it could
// not be ({why, file}).
function oneOf(cache, olds, rels, digest, query) {
  var rel = rels[0], url = new URL(rel + (query[rel] || ""), BASE).href;
  return kept(rels, digest, olds, query).then(function (copy) {
    return copy || download(rel, url, digest);
  }).then(function (res) {
    return res.arrayBuffer().then(function (body) {
      return Promise.all(rels.map(function (r) {
        var copy = new Response(body, {status: res.status, statusText: res.statusText, headers: res.headers});
        return cache.put(new URL(r, BASE).href, copy);
      }));
    });
  }).then(function () { return null; }, function (err) {
    return {why: err.why || (err && err.name === "QuotaExceededError" ? "storage" : "unreachable"), file: err.file || rel};
  });
}

self.addEventListener("install", function (ev) {
  ev.waitUntil(Promise.all([caches.open(CACHE), previous()]).then(function (r) {
    var cache = r[0];
    return fill(cache, r[1]).then(function () {
      var index = {};
      FILES.forEach(function (f) { index[f[0]] = f[1]; });
      // written last: a cache without its index is incomplete and never copied from
      return cache.put(INDEX, new Response(JSON.stringify(index), {headers: {"Content-Type": "application/json"}}));
    });
  }).then(function () {
    return record(null).then(tell);
  }, function (err) {
    // this build is not installed: its cache goes, the previous build's stays and keeps serving
    var outcome = {state: "failed", version: VERSION, reason: err.why || "unreachable", file: err.file || "", count: err.count || 1};
    return caches.delete(CACHE).then(function () { return record(outcome); }).then(tell).then(function () { throw err; });
  }));
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("havoc-") === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(claimUnlessParked));
});

// Answers come from this build's cache, whose every entry was checked at install. Nothing is ever
// written into it here: a file the cache lacks comes from the network as it is, unkept. A request
// that asks to bypass caches ("reload", "no-store": the assistant's worker retrying a file that
// failed to load) goes to the network first.
self.addEventListener("fetch", function (ev) {
  var req = ev.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (url.origin !== BASE.origin || url.pathname.indexOf(BASE.pathname) !== 0) return;
  var rel = url.pathname.slice(BASE.pathname.length);
  if (rel.indexOf("api/") === 0) return;
  if (rel === "" || rel.slice(-1) === "/") rel += "index.html";
  if (Object.prototype.hasOwnProperty.call(MOVED, rel)) {
    ev.respondWith(Response.redirect(new URL(MOVED[rel], BASE).href, 302));
    return;
  }
  var fromCache = function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(new URL(rel, BASE).href, {ignoreSearch: true}); });
  };
  if (req.cache === "reload" || req.cache === "no-store") {
    ev.respondWith(fetch(req).catch(function (err) {
      return fromCache().then(function (hit) { if (hit) return hit; throw err; });
    }));
    return;
  }
  ev.respondWith(fromCache().then(function (hit) { return hit || fetch(req); }));
});
