/* havoc: the site's service worker (written to <site>/sw.js by `havoc docs` with the build's file
 * list and version). The first visit stores every file of the site (both languages, every ruleset,
 * the sheets, the search index and the in-browser assistant) in one cache named after the build;
 * afterwards pages come from it, with or without a network. A new build installs a new cache in
 * full and the old one is deleted only when the new one takes over: never a mix of two builds.
 * The server's /api/ is never cached.
 */
"use strict";
var VERSION = "@VERSION@";
var FILES = [/*@FILES@*/];
var CACHE = "havoc-" + VERSION;
var BASE = new URL("./", self.location.href);

self.addEventListener("install", function (ev) {
  ev.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(FILES.map(function (f) { return new Request(new URL(f, BASE), {cache: "reload"}); }));
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
