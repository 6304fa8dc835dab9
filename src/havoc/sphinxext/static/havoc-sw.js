/* havoc: the site's service worker (written to <site>/sw.js by `havoc docs` with the build's file
 * list and version). The first visit stores every file of the site (both languages, every ruleset,
 * the sheets, the search index and the in-browser assistant) in one cache named after the build;
 * afterwards pages come from it, with or without a network. A new build installs a new cache in
 * full and the old one is deleted only when the new one takes over: never a mix of two builds.
 * Files whose bytes did not change (the WebAssembly Python, most pages) are copied from the old
 * cache rather than downloaded again. The server's /api/ is never cached.
 */
"use strict";
var VERSION = "@VERSION@";
// [path, digest of its bytes] for every file of the site
var FILES = [/*@FILES@*/];
var CACHE = "havoc-" + VERSION;
var BASE = new URL("./", self.location.href);
var INDEX = new URL("havoc-cache-index.json", BASE).href; // in each cache: path -> digest

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

self.addEventListener("install", function (ev) {
  ev.waitUntil(Promise.all([caches.open(CACHE), previous()]).then(function (r) {
    var cache = r[0], olds = r[1];
    return Promise.all(FILES.map(function (f) {
      var url = new URL(f[0], BASE).href;
      var same = olds.filter(function (o) { return o.index[f[0]] === f[1]; })[0];
      return (same ? same.cache.match(url) : Promise.resolve(null)).then(function (hit) {
        if (hit) return cache.put(url, hit);
        return fetch(new Request(url, {cache: "reload"})).then(function (res) {
          if (!res.ok) throw new Error(url + ": " + res.status);
          return cache.put(url, res);
        });
      });
    })).then(function () {
      var index = {};
      FILES.forEach(function (f) { index[f[0]] = f[1]; });
      // written last: a cache without its index is incomplete and never copied from
      return cache.put(INDEX, new Response(JSON.stringify(index), {headers: {"Content-Type": "application/json"}}));
    });
  }));
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("havoc-") === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (ev) {
  var req = ev.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (url.origin !== BASE.origin || url.pathname.indexOf(BASE.pathname) !== 0) return;
  var rel = url.pathname.slice(BASE.pathname.length);
  if (rel.indexOf("api/") === 0) return;
  if (rel === "" || rel.slice(-1) === "/") rel += "index.html";
  ev.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(new URL(rel, BASE).href, {ignoreSearch: true}).then(function (hit) {
      return hit || fetch(req);
    });
  }));
});
