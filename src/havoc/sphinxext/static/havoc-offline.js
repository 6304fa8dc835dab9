/* havoc: registers the site's service worker (<site>/sw.js), which keeps every page, the search
 * index, the sheets and the in-browser assistant for use without a network. The script's data-top
 * attribute is the site's top folder relative to this language's root. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  var me = document.currentScript;
  var root = new URL(document.documentElement.dataset.content_root || "./", location.href);
  var top = new URL((me && me.dataset.top) || "../", root);
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(new URL("sw.js", top).href).catch(function () {});
  });
})();
