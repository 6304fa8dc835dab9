// havoc search on the site: results as you type under every search field (the phone header's,
// the sidebar's), and the full list on search.html?q=… in Sphinx's markup
// (#search-results > p.search-summary + ul.search > li > a), so tools that read Sphinx's search
// page keep working. The index (_static/havoc-searchindex.js) is loaded on first use, its other
// language's part (havoc-searchindex-more.js) when a query has a word the first part lacks.
(function () {
  "use strict";
  if (typeof document === "undefined") return;

  var engine = null;
  var waiting = [];
  var POP_LIMIT = 6;
  var PAGE_LIMIT = 30;

  function root() {
    var r = document.documentElement.getAttribute("data-content_root");
    return r === null || r === "./" ? "" : r;
  }

  function load(name, then) {
    var s = document.createElement("script");
    s.src = root() + "_static/" + name;
    s.onload = then;
    document.head.appendChild(s);
  }

  // callback(engine) once the index can answer `query`: the site language's part first; the
  // rest (the other language's words) only when the query has a word the first part lacks.
  function withEngine(query, callback) {
    if (engine && !engine.needsMore(query)) return callback(engine);
    waiting.push([query, callback]);
    if (waiting.length > 1) return;
    var flush = function () {
      var queue = waiting;
      waiting = [];
      queue.forEach(function (qc) { withEngine(qc[0], qc[1]); });
    };
    var more = function () {
      if (window.HAVOC_SEARCH_MORE) {
        engine.addMore(window.HAVOC_SEARCH_MORE);
        return flush();
      }
      load(engine.more, function () { engine.addMore(window.HAVOC_SEARCH_MORE); flush(); });
    };
    var start = function () {
      engine = new HavocSearchEngine.Engine(window.HAVOC_SEARCH_INDEX);
      if (waiting.some(function (qc) { return engine.needsMore(qc[0]); })) return more();
      flush();
    };
    if (engine) return more();
    if (window.HAVOC_SEARCH_INDEX) return start();
    load("havoc-searchindex.js", start);
  }

  function labels() {
    return (window.HAVOC_SEARCH_INDEX && window.HAVOC_SEARCH_INDEX.labels) || {};
  }

  function found(n) {
    var forms = labels().found || ["{n}", "{n}", "{n}"];
    var cat = "other";
    try { cat = new Intl.PluralRules(document.documentElement.lang || "en").select(n); } catch (e) { /* old browser */ }
    var form = cat === "one" ? forms[0] : cat === "few" ? forms[1] : cat === "many" ? forms[2] : forms[1];
    return form.replace("{n}", String(n));
  }

  // The snippet as text nodes, matched words in <mark> (never innerHTML: no entities shown raw).
  function fillSnippet(el, text, marks) {
    var at = 0;
    marks.forEach(function (m) {
      if (m[0] > at) el.appendChild(document.createTextNode(text.slice(at, m[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(m[0], m[1]);
      el.appendChild(mark);
      at = m[1];
    });
    if (at < text.length) el.appendChild(document.createTextNode(text.slice(at)));
  }

  function item(eng, result, width) {
    var doc = eng.docs[result.doc]; // [rule id, kind, url, title, section, text]
    var li = document.createElement("li");
    li.className = "havoc-result havoc-result-" + doc[1];
    var a = document.createElement("a");
    a.href = root() + doc[2];
    a.className = "havoc-result-title";
    a.textContent = doc[3];
    li.appendChild(a);
    var sec = document.createElement("span");
    sec.className = "havoc-result-section";
    sec.textContent = doc[4];
    li.appendChild(sec);
    var snip = eng.snippet(doc[5], result.keys, width);
    var p = document.createElement("p");
    p.className = "context";
    if (doc[1] === "example") {
      // the words were found in one of the rule's worked examples
      var tag = document.createElement("span");
      tag.className = "havoc-result-kind";
      tag.textContent = (labels().example || "Example") + ": ";
      p.appendChild(tag);
    }
    fillSnippet(p, snip[0], snip[1]);
    li.appendChild(p);
    return li;
  }

  // --- the search page ------------------------------------------------------------------

  function renderPage(query) {
    var box = document.getElementById("search-results");
    if (!box) return;
    withEngine(query, function (eng) {
      // every matching rule counts in the summary; the list shows the best PAGE_LIMIT
      var all = query.trim() ? eng.search(query, eng.docs.length) : [];
      var results = all.slice(0, PAGE_LIMIT);
      box.textContent = "";
      var h = document.createElement("h2");
      h.textContent = labels().results || "Search results";
      box.appendChild(h);
      var summary = document.createElement("p");
      summary.className = "search-summary";
      summary.setAttribute("role", "status");
      var ul = document.createElement("ul");
      ul.className = "search";
      results.forEach(function (r) { ul.appendChild(item(eng, r, 220)); });
      box.appendChild(summary);
      box.appendChild(ul);
      summary.textContent = all.length ? found(all.length) : (labels().none || "No results.");
    });
  }

  // --- results as you type under a search field -------------------------------------------

  // the game's assistant, as its pages name it (<meta name="havoc-ask">: href, label), or null
  function askMeta() {
    var m = document.querySelector('meta[name="havoc-ask"]');
    if (!m) return null;
    try { return JSON.parse(m.getAttribute("content")); } catch (e) { return null; }
  }
  function askOffer(q) {
    var ask = askMeta();
    var words = q.trim().split(/\s+/);
    if (!ask || !ask.href || (words.length < 3 && q.indexOf("?") < 0)) return null;
    var a = document.createElement("a");
    a.className = "havoc-search-ask";
    a.href = ask.href + "#t=" + encodeURIComponent(q.trim());
    a.textContent = (ask.label || "Answer this question") + ": " + q.trim();
    return a;
  }

  function attach(input) {
    var form = input.form;
    var pop = document.createElement("div");
    pop.className = "havoc-search-pop";
    pop.setAttribute("aria-live", "polite");
    pop.hidden = true;
    pop.id = "havoc-search-pop-" + Math.random().toString(36).slice(2, 8);
    input.setAttribute("autocomplete", "off");
    // a field whose results drop down under it is a combobox: only that role may say it is expanded
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", pop.id);
    input.setAttribute("aria-expanded", "false");
    (form || input.parentNode).appendChild(pop);
    var active = -1;

    function links() { return pop.querySelectorAll("a.havoc-search-ask, a.havoc-result-title, a.havoc-search-all"); }
    function close() { pop.hidden = true; input.setAttribute("aria-expanded", "false"); active = -1; }

    function update() {
      var q = input.value;
      if (!q.trim()) { close(); pop.textContent = ""; return; }
      withEngine(q, function (eng) {
        if (input.value !== q) return; // a newer query is on its way
        var t0 = window.performance ? performance.now() : 0;
        var results = eng.search(q, POP_LIMIT);
        pop.textContent = "";
        // words that read as a question (three or more, or a "?") may be asked of the game's
        // assistant, where the site has one: its page reads them as typed (…#t=<words>)
        var offer = askOffer(q);
        if (offer) pop.appendChild(offer);
        var ul = document.createElement("ul");
        ul.className = "search";
        results.forEach(function (r) { ul.appendChild(item(eng, r, 120)); });
        if (results.length) pop.appendChild(ul);
        else {
          var none = document.createElement("p");
          none.className = "havoc-search-none";
          none.textContent = labels().none || "No results.";
          pop.appendChild(none);
        }
        var all = document.createElement("a");
        all.className = "havoc-search-all";
        all.href = root() + "search.html?q=" + encodeURIComponent(q);
        all.textContent = labels().all || "All results";
        pop.appendChild(all);
        pop.hidden = false;
        input.setAttribute("aria-expanded", "true");
        active = -1;
        if (window.performance) window.HAVOC_SEARCH_LAST_MS = performance.now() - t0;
      });
    }

    input.addEventListener("input", update);
    input.addEventListener("focus", function () { withEngine("", function () {}); if (input.value.trim()) update(); });
    input.addEventListener("keydown", function (ev) {
      var ls = links();
      if (ev.key === "Escape") { close(); return; }
      if (pop.hidden || !ls.length) return;
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        active = ev.key === "ArrowDown" ? Math.min(ls.length - 1, active + 1) : Math.max(-1, active - 1);
        ls.forEach(function (l, i) { l.classList.toggle("havoc-active", i === active); });
        if (active >= 0) ls[active].scrollIntoView({ block: "nearest" });
      } else if (ev.key === "Enter" && active >= 0) {
        ev.preventDefault();
        window.location.href = ls[active].href;
      }
    });
    document.addEventListener("click", function (ev) {
      if (!pop.contains(ev.target) && ev.target !== input) close();
    });
  }

  function init() {
    var onSearchPage = !!document.getElementById("search-results");
    var params = new URLSearchParams(window.location.search);
    var query = params.get("q") || "";
    var inputs = document.querySelectorAll("form[role=search] input[name=q]");
    inputs.forEach(function (input) {
      if (onSearchPage) {
        input.value = query;
        input.addEventListener("input", function () {
          var q = input.value;
          inputs.forEach(function (other) { if (other !== input) other.value = q; });
          var url = new URL(window.location.href);
          url.searchParams.set("q", q);
          window.history.replaceState(null, "", url.toString());
          renderPage(q);
        });
      } else {
        attach(input);
      }
    });
    if (onSearchPage) renderPage(query);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
