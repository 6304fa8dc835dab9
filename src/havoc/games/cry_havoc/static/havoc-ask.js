/* havoc: the "Ask the rules" page. Builds a position and a question from a form (or pasted
 * YAML/JSON), asks the assistant running in this browser (havoc-engine.js: the same engine and
 * the same JSON as `havoc serve`'s POST ../api/ask), or `havoc serve` when the browser cannot run
 * it, and shows the verdict, the figures, the hint and the deciding rules linked on this site.
 *
 * The words, the vocabulary and the rule links come from the page (#havoc-ask-data, written by
 * havoc.sphinxext.ask in the page's language). The position lives in the URL (#s=…, a shareable
 * link) and in localStorage. Nothing is loaded from the internet.
 */
(function () {
  "use strict";
  var root = document.getElementById("havoc-ask");
  var blob = document.getElementById("havoc-ask-data");
  if (!root || !blob) return;
  var D = JSON.parse(blob.textContent);
  var W = D.words;
  var FACTIONS = Object.keys(D.factions);
  var API = "../api/";
  var ENGINE = "../_engine/"; // Pyodide and the engine bundle, built into the site
  var engine = window.havocEngine || null;
  var useServer = !engine; // the engine could not start here: ask `havoc serve` if one answers
  // the engine first: its worker loads Python on its own thread while this script builds the form
  if (engine && location.protocol !== "file:") engine.start(ENGINE);
  var STORE = "havoc-ask-state";
  var labels = null; // figure labels etc. from /api/labels, in this language
  var labelsLoaded = null; // a promise: answers wait for the labels they are shown with
  var online = false;

  // --- state -----------------------------------------------------------------------------
  function emptyRegion() {
    return {name: "", units: {}, control: "", battle: "", attacker: "", crystals: "", structure: "", owner: "", hq: "", adjacent: "",
            trog: "", exploration: false};
  }
  function initialState() {
    return {
      players: ["humans", "pilgrims"], round: "1", phase: "actions", turn: "humans",
      regions: [emptyRegion(), emptyRegion()], paste: "", usePaste: false, sides: {}, enabledBy: "", finalRound: false, variant: "",
      asked: false, q: {kind: "legal", obj: {}}, asOf: ""
    };
  }
  function encode(s) {
    var bytes = new TextEncoder().encode(JSON.stringify(s));
    var bin = "";
    bytes.forEach(function (b) { bin += String.fromCharCode(b); });
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function decode(text) {
    var bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return JSON.parse(new TextDecoder().decode(bytes));
  }
  function merge(saved) {
    var s = initialState();
    if (!saved || typeof saved !== "object") return s;
    Object.keys(s).forEach(function (k) { if (saved[k] !== undefined) s[k] = saved[k]; });
    s.q = Object.assign(initialState().q, saved.q || {});
    if (!Array.isArray(s.regions)) s.regions = [emptyRegion()];
    s.regions = s.regions.map(function (r) { return Object.assign(emptyRegion(), r); });
    if (!Array.isArray(s.players)) s.players = ["humans", "pilgrims"];
    return s;
  }
  function load() {
    var m = /[#&]s=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (m) { try { return merge(decode(m[1])); } catch (e) { /* a damaged link: fall through */ } }
    try { var saved = localStorage.getItem(STORE); if (saved) return merge(JSON.parse(saved)); } catch (e) {}
    return initialState();
  }
  var state = load();
  // #as-of=<layer>: a link pinned to the rules of an earlier layer (remembered like the rest)
  (function () { var m = /[#&]as-of=([a-z0-9-]+)/.exec(location.hash); if (m && (D.layers || []).some(function (l) { return l.id === m[1]; })) state.asOf = m[1]; })();
  function save(asked) {
    state.asked = !!asked; // a shared link opens with the answer only when it was asked as it stands
    try { localStorage.setItem(STORE, JSON.stringify(state)); } catch (e) {}
    try { history.replaceState(null, "", "#s=" + encode(state)); } catch (e) {}
    renderSummary();
  }
  // The remembered table in one line ("Runda 2 · Akcje · Czyja tura: Ludzie · Region A: Ludzie 8,
  // Pielgrzymi 3, Żeton Bitwy"), above the question box, with "New table" to start again.
  var summaryLine = null;
  function renderSummary() {
    if (!summaryLine) return;
    var parts = [];
    if (state.usePaste && (state.paste || "").trim()) parts.push(W["pasted-table"]);
    else {
      if (state.round) parts.push(W.round + " " + state.round);
      if (state.phase && D.phases[state.phase]) parts.push(D.phases[state.phase]);
      if (state.turn) parts.push(W.turn + ": " + (D.factions[state.turn] || state.turn));
      state.regions.forEach(function (r, i) {
        var id = rid(r, i);
        if (!id) return;
        var units = Object.keys(r.units || {}).filter(function (f) { return int(r.units[f]); })
          .map(function (f) { return (D.factions[f] || f) + " " + int(r.units[f]); });
        if (r.battle) units.push(W["battle-token"]);
        if (units.length) parts.push(shownName(id) + ": " + units.join(", "));
      });
    }
    summaryLine.textContent = parts.join(" · ");
  }

  // --- ids of Regions ----------------------------------------------------------------------
  // a name as typed, folded: no case, no diacritics (a phone's keyboard may lack them), words by "-"
  function fold(name) {
    return String(name || "").trim().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ł/g, "l").replace(/Ł/g, "L")
      .toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }
  // the key of an official name typed in the reader's language (or the key itself), else ""
  function officialKey(table, name) {
    var f = fold(name);
    if (!f) return "";
    if (table[f] !== undefined) return f;
    for (var id in table) { if (fold(table[id]) === f) return id; }
    return "";
  }
  function slug(name) {
    if (!String(name || "").trim()) return "";
    return officialKey(D.known, name) || fold(name) || "region";
  }
  // A structure's type: an official name (typed or restored from a link) or nothing at all.
  function structureKey(name) { return officialKey(D.structures, name); }
  // An unnamed Region is an invented one: "example-a" reads "Region A" (and declines) in answers.
  var LETTERS = "abcdefghijklmnopqrstuvwxyz";
  // (a card left empty, with neither name nor anything on it, is no Region of the table)
  function rid(r, i) { return slug(r.name) || (i < LETTERS.length && filled(r) ? "example-" + LETTERS[i] : ""); }
  function filled(r) {
    var any = Object.keys(r.units || {}).some(function (f) { return String(r.units[f]).trim() !== ""; });
    return any || ["control", "battle", "attacker", "crystals", "structure", "hq", "adjacent", "trog"].some(function (k) {
      return String(r[k] || "").trim() !== "";
    }) || !!r.exploration;
  }
  function letterName(id) {
    var m = /^example-([a-z])$/.exec(id);
    return m ? W["region-letter"].replace("{letter}", m[1].toUpperCase()) : "";
  }
  // A pasted table's Region keys as the engine reads them (position.py): an ID as it is, a
  // Region's name in any language by the page data's "region-names" (one name, one Region),
  // any other name folded. The keys as pasted name them in the answer's sentences.
  var pastedNames = {};
  function pastedId(key) {
    key = String(key).trim();
    if (/^[a-z0-9][a-z0-9-]*$/.test(key)) return key;
    var ids = (D["region-names"] || {})[fold(key)];
    return ids && ids.length === 1 ? ids[0] : fold(key);
  }
  function pastedKeys(text) {
    try {
      var data = JSON.parse(text);
      return data && data.regions && typeof data.regions === "object" ? Object.keys(data.regions) : [];
    } catch (e) { /* YAML: the keys one level under `regions:` */ }
    var inside = false, indent = -1, keys = [];
    text.split(/\r?\n/).forEach(function (line) {
      if (/^regions\s*:/.test(line)) { inside = true; indent = -1; return; }
      if (!inside || !line.trim() || /^\s*#/.test(line)) return;
      var m = /^(\s*)(?:"([^"]*)"|'([^']*)'|([^\s#:"'{\[,][^#:]*?))\s*:(?:\s|$)/.exec(line);
      if (!/^\s/.test(line)) { inside = false; return; }
      if (m && (indent < 0 || m[1].length === indent)) { indent = m[1].length; keys.push(m[2] || m[3] || m[4]); }
    });
    return keys;
  }
  function pastedIds() {
    var ids = [];
    pastedNames = {};
    pastedKeys(state.paste || "").forEach(function (key) {
      if (typeof key !== "string" || !key.trim()) return;
      var id = pastedId(key);
      if (!id || ids.indexOf(id) >= 0) return;
      ids.push(id);
      if (id !== key) pastedNames[id] = String(key).trim();
    });
    return ids;
  }
  function regionIds() {
    if (state.usePaste && state.paste.trim()) return pastedIds();
    var ids = state.regions.map(rid).filter(function (x) { return x; });
    state.regions.forEach(function (r) { names(r.adjacent).forEach(function (n) { if (ids.indexOf(n) < 0) ids.push(n); }); });
    return ids;
  }
  function shownName(id) {
    if (state.usePaste && state.paste.trim() && pastedNames[id]) return pastedNames[id];
    var r = state.regions.filter(function (x, i) { return rid(x, i) === id; })[0];
    if (r) return r.name.trim() || letterName(id);
    if (letterName(id)) return letterName(id);
    if (D.known[id]) return D.known[id];
    for (var i = 0; i < state.regions.length; i++) {
      var named = String(state.regions[i].adjacent || "").split(",").map(function (x) { return x.trim(); });
      for (var j = 0; j < named.length; j++) if (slug(named[j]) === id) return named[j];
    }
    return id;
  }

  // --- DOM helpers --------------------------------------------------------------------------
  var uid = 0;
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "class") e.className = attrs[k];
      else if (k.slice(0, 5) === "data-" || k.slice(0, 5) === "aria-" || k === "for" || k === "list") e.setAttribute(k, attrs[k]);
      else e[k] = attrs[k];
    });
    (children || []).forEach(function (c) { if (c) e.append(c); });
    return e;
  }
  function field(labelText, input, path, help) {
    input.id = input.id || "ha-f" + (++uid);
    if (path) input.dataset.path = path;
    input.dataset.label = labelText;
    var wrap = el("div", {"class": "ha-field"}, [el("label", {"for": input.id, text: capital(labelText)}), input.stepper || input]);
    if (help) {
      var h = el("small", {"class": "ha-help", id: input.id + "-help", text: help});
      input.setAttribute("aria-describedby", h.id);
      wrap.append(h);
    }
    wrap.append(el("span", {"class": "ha-error", id: input.id + "-err", hidden: true, "aria-live": "polite"}));
    return wrap;
  }
  // a label starts a line: its first letter is a capital even where the word is a common noun
  // used mid-sentence elsewhere ("żeton Trogów" in an answer, "Żeton Trogów" over its field)
  function capital(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : text; }
  function select(options, value, onChange, allowEmpty, emptyText) {
    var s = el("select");
    if (allowEmpty) s.append(el("option", {value: "", text: emptyText || "—"}));
    options.forEach(function (o) { s.append(el("option", {value: o[0], text: o[1]})); });
    s.value = value || "";
    s.addEventListener("change", function () { onChange(s.value); save(); });
    return s;
  }
  // a count: typed, or stepped with − and + (one tap each, no keyboard on a phone)
  function number(value, onChange, min) {
    var lo = min || 0;
    var i = el("input", {type: "number", inputMode: "numeric", min: String(lo), value: value === undefined ? "" : value});
    i.addEventListener("input", function () { onChange(i.value); save(); });
    function step(by) {
      var n = parseInt(i.value, 10);
      // an empty count stepped up is the first one (1), stepped down the least there may be
      n = isNaN(n) ? (by > 0 ? Math.max(lo, 1) : lo) : Math.max(lo, n + by);
      i.value = String(n); onChange(i.value); save();
      i.dispatchEvent(new Event("change", {bubbles: true}));
    }
    var minus = el("button", {type: "button", "class": "ha-step", text: "−", tabIndex: -1, "aria-hidden": "true"});
    var plus = el("button", {type: "button", "class": "ha-step", text: "+", tabIndex: -1, "aria-hidden": "true"});
    minus.addEventListener("click", function () { step(-1); });
    plus.addEventListener("click", function () { step(1); });
    i.stepper = el("div", {"class": "ha-stepper"}, [minus, i, plus]);
    return i;
  }
  function check(id, label, value, onChange) {
    var c = el("input", {type: "checkbox", id: id, checked: !!value});
    c.addEventListener("change", function () { onChange(c.checked); save(); });
    return el("div", {"class": "ha-field ha-wide"}, [el("label", {"class": "ha-check", "for": c.id}, [c, document.createTextNode(" " + label)])]);
  }
  function text(value, onChange, list) {
    var i = el("input", {type: "text", value: value || "", autocomplete: "off", spellcheck: false});
    if (list) i.setAttribute("list", list);
    i.addEventListener("input", function () { onChange(i.value); save(); });
    i.addEventListener("change", function () { renderQuestion(); });
    return i;
  }
  // the solo Trogs stand on the board without a player
  function unitFactions() {
    return state.variant === "solo" && state.players.indexOf("trogs") < 0 ? state.players.concat(["trogs"]) : state.players;
  }
  function structureOptions() {
    return Object.keys(D.structures).map(function (k) { return [k, D.structures[k]]; });
  }
  function factionOptions(only) {
    return (only || FACTIONS).map(function (f) { return [f, D.factions[f]]; });
  }

  // --- the form ------------------------------------------------------------------------------
  var form = el("form", {"class": "ha-form", noValidate: true});
  var tableBox = el("fieldset", {"class": "ha-table"});
  var regionsBox = el("fieldset", {"class": "ha-regions"});
  var pasteBox = el("details", {"class": "ha-paste"});
  var questionBox = el("fieldset", {"class": "ha-question"});
  var topErrors = el("div", {"class": "ha-top-errors", role: "alert", hidden: true});
  var askButton = el("button", {type: "submit", "class": "ha-ask", text: W.ask});
  var shareButton = el("button", {type: "button", "class": "ha-share", text: W.share});
  var answerBox = el("section", {"class": "ha-answer", id: "ha-answer", "aria-live": "polite", tabIndex: -1, hidden: true});
  var engineStatus = el("p", {"class": "ha-engine", id: "ha-engine", role: "status"});
  var datalist = el("datalist", {id: "ha-known"});
  Object.keys(D.known).forEach(function (id) { datalist.append(el("option", {value: D.known[id]})); });
  form.append(datalist, renderStart(), tableBox, regionsBox, pasteBox, questionBox, topErrors,
              el("div", {"class": "ha-buttons"}, [askButton, shareButton]));
  // the stable hook for tools: data-state (asking, done, error; needs: a typed question waits for a
  // fact it left out, asked under its chips), data-verdict, data-engine
  var hook = el("div", {id: "havoc-answer"}, [answerBox]);
  // The question box first: a question in the player's own words, read by the engine
  // (POST /api/understand) on the table above; what it understood is shown as chips.
  var textInput = el("input", {type: "search", id: "ha-text", name: "text", maxLength: 500, autocomplete: "off",
                               placeholder: W["text-placeholder"], "aria-label": W["text-placeholder"]});
  var textButton = el("button", {type: "submit", "class": "ha-text-ask", text: W.ask});
  var understoodBox = el("div", {id: "havoc-understood", "class": "ha-understood", "aria-live": "polite"});
  var textForm = el("form", {"class": "ha-text", role: "search"},
                    [el("div", {"class": "ha-text-row"}, [textInput, textButton]), understoodBox]);
  textForm.addEventListener("submit", function (ev) { ev.preventDefault(); askText(textInput.value); });
  summaryLine = el("p", {"class": "ha-summary", id: "ha-table-summary"});
  var newTable = el("button", {type: "button", "class": "ha-new-table", text: W["new-table"]});
  newTable.addEventListener("click", function () {
    startFrom("start-blank"); textInput.value = ""; told = {}; understoodBox.replaceChildren();
    answerBox.hidden = true; answerBox.replaceChildren(); delete hook.dataset.state; live = {};
  });
  // the answer right under the question box (and the engine's progress beside it), the form after
  root.append(el("div", {"class": "ha-summary-row"}, [summaryLine, newTable]), textForm, engineStatus, hook, form);
  renderSummary();

  // Starting points: a common situation to change rather than an empty table to fill.
  function reg(units, extra) { return Object.assign(emptyRegion(), {units: units}, extra || {}); }
  // a neighbour as the reader sees the card ("Region B"), not by its ID
  var A = letterName("example-a"), B = letterName("example-b"), C = letterName("example-c");
  var TEMPLATES = {
    "tpl-actions": function () {
      return {phase: "actions", turn: "humans", q: {kind: "legal", region: "example-a", from: "example-a", to: "example-b", obj: {}},
              sides: {humans: {hand: "5", prisoners: {}}},
              regions: [reg({humans: 3}, {adjacent: B, control: "humans"}), reg({pilgrims: 1}, {adjacent: A})]};
    },
    "tpl-battle": function () {
      // the Battle's Region only: a destination ("To") is the player's to state, never preset
      return {phase: "actions", turn: "humans", q: {kind: "battle", region: "example-a", from: "example-a", obj: {}},
              regions: [reg({humans: 4, pilgrims: 4}, {battle: "1", attacker: "pilgrims", control: "humans", adjacent: B}),
                        reg({}, {control: "humans", adjacent: A})]};
    },
    "tpl-prisoners": function () {
      return {phase: "prisoners", turn: "", q: {kind: "prisoners", faction: "humans", obj: {}},
              sides: {humans: {vp: "4", prisoners: {}}, pilgrims: {prisoners: {humans: 2}}}, regions: [reg({humans: 2}), reg({pilgrims: 2})]};
    },
    "tpl-round5": function () {
      return {round: "5", phase: "scoring", turn: "", finalRound: true, q: {kind: "winner", obj: {}},
              sides: {humans: {vp: "20", prisoners: {}}, pilgrims: {vp: "18", prisoners: {}}},
              regions: [reg({humans: 2}, {control: "humans", crystals: "3"}), reg({pilgrims: 2}, {control: "pilgrims", crystals: "1"})]};
    },
    "tpl-solo": function () {
      return {players: ["humans"], variant: "solo", phase: "actions", turn: "humans",
              q: {kind: "legal", obj: {}},
              // the solo Trogs keep their HQ (the centre Region): their decisions start from it
              regions: [reg({humans: 3}, {adjacent: B}), reg({trogs: 2}, {trog: "nest", adjacent: A + ", " + C}),
                        reg({trogs: 3}, {hq: "trogs", adjacent: B})]};
    }
  };
  function stored() { try { return !!localStorage.getItem(STORE); } catch (e) { return false; } }
  function startFrom(key) {
    var base = initialState();
    if (key !== "start-blank") Object.assign(base, TEMPLATES[key]());
    base.q = Object.assign(initialState().q, base.q);
    state = merge(base);
    save(); renderTable(); renderRegions(); renderPaste(); renderQuestion();
  }
  // a stored example: its position goes in the paste box (asked as it is), its question in the form
  function startFromExample(x) {
    var base = initialState();
    // the table as the player writes it (YAML, names in the page's language; made at build time)
    base.paste = typeof x.position === "string" ? x.position : JSON.stringify(x.position, null, 1);
    base.usePaste = true;
    base.players = (x.players || x.position.players || base.players).slice();
    var q = {kind: x.question.ask, obj: {}, extra: {}};
    var shown = formOf(q.kind).map(function (f) { return f.name; });
    Object.keys(x.question).forEach(function (k) {
      var v = x.question[k];
      if (k === "ask") return;
      if (shown.indexOf(k) < 0) { q.extra[k] = v; return; } // asked as the example has it (a card's Units …)
      if (k === "objectives") { Object.keys(v).forEach(function (f) { q.obj[f] = Object.assign({}, v[f]); }); }
      else if (Array.isArray(v)) q[k] = v.join(", ");
      else q[k] = typeof v === "number" ? String(v) : v;
    });
    base.q = q;
    state = merge(base);
    save(); renderTable(); renderRegions(); renderPaste(); renderQuestion();
  }
  function renderStart() {
    var box = el("div", {"class": "ha-start"});
    var keys = ["tpl-actions", "tpl-battle", "tpl-prisoners", "tpl-round5", "tpl-solo", "start-blank"];
    keys.forEach(function (k) {
      var b = el("button", {type: "button", "class": "ha-template", "data-template": k, text: W[k]});
      b.addEventListener("click", function () { startFrom(k); document.getElementById("ha-kind").focus(); });
      box.append(b);
    });
    var examples = D.examples || [];
    if (examples.length) {
      var pick = select(examples.map(function (x, i) { return [String(i), x.title]; }), "", function (v) {
        if (v !== "") startFromExample(examples[int(v)]);
      }, true, "—");
      pick.id = "ha-example";
      box.append(field(W.examples, pick));
    }
    return el("details", {"class": "ha-starts", open: !stored() && !/[#&][sq]=/.test(location.hash)},
              [el("summary", {text: W.start}), el("p", {"class": "ha-help", text: W["start-help"]}), box]);
  }

  function renderTable() {
    tableBox.replaceChildren(el("legend", {text: W.table}));
    var players = el("div", {"class": "ha-players", role: "group", "aria-label": W.players, "data-path": "players"});
    players.append(el("span", {"class": "ha-group-label", text: W.players}));
    FACTIONS.forEach(function (f) {
      var box = el("input", {type: "checkbox", id: "ha-player-" + f, checked: state.players.indexOf(f) >= 0});
      box.addEventListener("change", function () {
        state.players = FACTIONS.filter(function (g) { return document.getElementById("ha-player-" + g).checked; });
        save(); renderTable(); renderRegions(); renderQuestion();
        document.getElementById("ha-player-" + f).focus();
      });
      players.append(el("label", {"class": "ha-check", "for": box.id}, [box, document.createTextNode(" " + D.factions[f])]));
    });
    players.append(el("span", {"class": "ha-error", id: "ha-players-err", hidden: true}));
    players.id = "ha-players";
    var row = el("div", {"class": "ha-row"}, [
      field(W.round, number(state.round, function (v) { state.round = v; }, 1), "round"),
      field(W.phase, select(Object.keys(D.phases).map(function (p) { return [p, D.phases[p]]; }), state.phase,
                            function (v) { state.phase = v; }, true, W.none), "phase"),
      field(W.turn, select(factionOptions(state.players), state.turn, function (v) { state.turn = v; }, true, W.none), "turn")
    ]);
    tableBox.append(players, row);
    tableBox.append(el("div", {"class": "ha-row"}, [
      field(W["enabled-by"], select(factionOptions(state.players), state.enabledBy, function (v) { state.enabledBy = v; }, true, W.none), "scoring.enabled-by"),
      check("ha-final-round", W["final-round"], state.finalRound, function (v) { state.finalRound = v; })
    ]));
    // the rules answered by: today's (every layer), or as they stood at an earlier layer
    tableBox.append(el("div", {"class": "ha-row"}, [
      field(W["as-of"], select((D.layers || []).map(function (l) { return [l.id, l.title]; }), state.asOf,
                               function (v) { state.asOf = v; }, true, W["as-of-today"]), "as-of")
    ]));
    state.sides = state.sides || {};
    state.players.forEach(function (f) {
      var side = state.sides[f] = state.sides[f] || {};
      side.prisoners = side.prisoners || {};
      var box = el("div", {"class": "ha-row ha-side"}, [el("span", {"class": "ha-side-name", text: D.factions[f]})]);
      box.append(field(W.vp, number(side.vp, function (v) { side.vp = v; }), "side:" + f + ".vp"));
      box.append(field(W.hand, number(side.hand, function (v) { side.hand = v; }), "side:" + f + ".hand"));
      box.append(field(W.reserve, number(side.reserve, function (v) { side.reserve = v; }), "side:" + f + ".reserve"));
      state.players.forEach(function (g) {
        if (g === f) return;
        box.append(field(W["prisoners-of"] + ": " + D.factions[g],
                         number(side.prisoners[g], function (v) { side.prisoners[g] = v; }), "side:" + f + ".prisoners." + g));
      });
      tableBox.append(box);
    });
  }

  // a Region filled in without a name becomes "Region A, B…" among the question's choices
  regionsBox.addEventListener("change", function (ev) {
    if (!ev.target.closest(".ha-region") || ev.target.type === "text") return; // names re-render themselves
    renderQuestion(); // the question's fields only: the focus stays where it is
  });
  function renderRegions() {
    regionsBox.replaceChildren(el("legend", {text: W.regions}), el("p", {"class": "ha-help", text: W["example-note"]}));
    state.regions.forEach(function (r, i) {
      var card = el("div", {"class": "ha-region"});
      var name = text(r.name, function (v) { r.name = v; }, "ha-known");
      name.id = "ha-region-" + i + "-name";
      name.placeholder = letterName("example-" + (LETTERS[i] || ""));
      card.append(field(W["region-name"], name, "region-name:" + i, W["region-name-help"]));
      var units = el("div", {"class": "ha-row"});
      unitFactions().forEach(function (f) {
        units.append(field(W["units-of"] + ": " + D.factions[f],
                           number(r.units[f], function (v) { r.units[f] = v; }), "region:" + i + ".units." + f));
      });
      card.append(units);
      var opts = factionOptions(state.players);
      card.append(el("div", {"class": "ha-row"}, [
        field(W.control, select(opts, r.control, function (v) { r.control = v; }, true, W.none), "region:" + i + ".control"),
        field(W.hq, select(opts, r.hq, function (v) { r.hq = v; }, true, W.none), "region:" + i + ".hq"),
        field(W.crystals, number(r.crystals, function (v) { r.crystals = v; }), "region:" + i + ".crystals")
      ]));
      card.append(el("div", {"class": "ha-row"}, [
        field(W["battle-token"], number(r.battle, function (v) { r.battle = v; }, 1), "region:" + i + ".battle.token"),
        field(W.attacker, select(opts, r.attacker, function (v) { r.attacker = v; }, true, W.none), "region:" + i + ".battle.attacker")
      ]));
      card.append(el("div", {"class": "ha-row"}, [
        field(W["structure-type"], select(structureOptions(), structureKey(r.structure), function (v) { r.structure = v; }, true, W.none), "region:" + i + ".structures"),
        field(W["structure-owner"], select(opts, r.owner, function (v) { r.owner = v; }, true, W.none), "region:" + i + ".structures.owner")
      ]));
      card.append(el("div", {"class": "ha-row"}, [
        field(W["trog-token"], select(Object.keys(D["trog-tokens"]).map(function (t) { return [t, D["trog-tokens"][t]]; }), r.trog,
                                      function (v) { r.trog = v; }, true, W.none), "region:" + i + ".trog-token"),
        check("ha-region-" + i + "-exploration", W.exploration, r.exploration, function (v) { r.exploration = v; })
      ]));
      card.append(field(W.neighbours, text(r.adjacent, function (v) { r.adjacent = v; }, "ha-known"), "region:" + i + ".adjacent", W["names-help"]));
      var remove = el("button", {type: "button", "class": "ha-remove", text: W["remove-region"]});
      remove.addEventListener("click", function () { state.regions.splice(i, 1); save(); renderRegions(); renderQuestion(); });
      card.append(remove);
      regionsBox.append(card);
    });
    var add = el("button", {type: "button", "class": "ha-add", text: W["add-region"]});
    add.addEventListener("click", function () {
      state.regions.push(emptyRegion()); save(); renderRegions(); renderQuestion();
      document.getElementById("ha-region-" + (state.regions.length - 1) + "-name").focus();
    });
    regionsBox.append(add);
  }

  function renderPaste() {
    pasteBox.replaceChildren(el("summary", {text: W.paste}));
    var area = el("textarea", {id: "ha-paste", rows: 8, value: state.paste, spellcheck: false});
    area.addEventListener("input", function () { state.paste = area.value; if (area.value.trim()) { state.usePaste = true; use.checked = true; } save(); renderQuestion(); });
    var use = el("input", {type: "checkbox", id: "ha-use-paste", checked: !!state.usePaste});
    use.addEventListener("change", function () { state.usePaste = use.checked; save(); renderQuestion(); });
    pasteBox.append(field(W.paste, area, "paste"),
                    el("label", {"class": "ha-check", "for": use.id}, [use, document.createTextNode(" " + W["use-paste"])]));
    if (state.usePaste) pasteBox.open = true;
  }

  // The form of each question kind comes from the kind's declaration (D.forms, written by the
  // page's module from the game's question kinds): its fields, their widgets and choices.
  var LABEL = {"moved-this-action": "moved", structure: "structure-type"};
  function fieldLabel(name) { return W[LABEL[name] || name] || (D.keys || {})[name] || name; }
  function formOf(kind) { return D.forms[kind] || []; }

  function renderQuestion() {
    var q = state.q;
    if (!D.forms[q.kind]) q.kind = Object.keys(D.kinds)[0];
    if (q.extra && q.extraKind !== undefined && q.extraKind !== q.kind) q.extra = {};
    if (q.extra) q.extraKind = q.kind; // an example's extra fields go with its kind only
    questionBox.replaceChildren(el("legend", {text: W.question}));
    var kinds = Object.keys(D.kinds).map(function (k) { return [k, D.kinds[k]]; });
    var kind = select(kinds, q.kind, function (v) { q.kind = v; renderQuestion(); document.getElementById("ha-kind").focus(); });
    kind.id = "ha-kind";
    questionBox.append(field(W.kind, kind, "q.ask", (D.helps || {})[q.kind]));
    var ids = regionIds().map(function (id) { return [id, shownName(id)]; });
    var box = el("div", {"class": "ha-row"});
    formOf(q.kind).forEach(function (f) {
      var name = f.name, path = "q." + name, label = fieldLabel(name);
      var set = function (v) { q[name] = v; };
      if (f.type === "faction") box.append(field(label, select(factionOptions(state.players), q[name], set, true, W["whose-turn"]), path));
      else if (f.type === "region") {
        box.append(field(label, select(ids, q[name], set, true, "—"), path));
      } else if (f.type === "regions") box.append(field(label, text(q[name], set, "ha-known"), path, W["names-help"]));
      else if (f.type === "enum") {
        if (f.needed && !q[name]) q[name] = f.choices[0][0];
        box.append(field(label, select(f.choices, q[name], set, !f.needed, "—"), path));
      } else if (f.type === "bool") {
        var c = check("ha-q-" + name, label, q[name], set);
        c.querySelector("input").dataset.path = path;
        box.append(c);
      } else if (f.type === "objectives") box.append(objectives());
      else box.append(field(label, number(q[name], set), path));
    });
    questionBox.append(box);
  }

  function objectives() {
    var q = state.q;
    var table = el("table", {"class": "ha-objectives"});
    var head = el("tr", {}, [el("td")]); // the corner heads nothing: a header cell would be an empty one
    D.objectives.forEach(function (o) { head.append(el("th", {scope: "col", text: W["obj-" + o]})); });
    table.append(el("caption", {text: W.objectives}), el("thead", {}, [head]));
    var body = el("tbody");
    state.players.forEach(function (f) {
      var row = el("tr", {}, [el("th", {scope: "row", text: D.factions[f]})]);
      q.obj[f] = q.obj[f] || {};
      D.objectives.forEach(function (o) {
        var i = number(q.obj[f][o], function (v) { q.obj[f][o] = v; });
        i.setAttribute("aria-label", D.factions[f] + ": " + W["obj-" + o]);
        i.dataset.path = "q.objectives." + f + "." + o;
        i.id = "ha-obj-" + f + "-" + o;
        row.append(el("td", {}, [i.stepper || i]));
      });
      body.append(row);
    });
    table.append(body);
    return el("div", {"class": "ha-field ha-wide", "data-path": "q.objectives"}, [table,
      el("span", {"class": "ha-error", id: "ha-objectives-err", hidden: true})]);
  }

  // --- from the form to the request --------------------------------------------------------------
  function int(v) { var n = parseInt(v, 10); return isNaN(n) ? undefined : n; }
  function names(v) { return String(v || "").split(",").map(listedId).filter(function (x) { return x; }); }
  // A Region named in a list (neighbours, "through") is the card the page shows by that name,
  // "Region B" for an unnamed second card as well as a name typed on a card; else its own name.
  function listedId(name) {
    var f = fold(name);
    if (!f) return "";
    for (var i = 0; i < state.regions.length; i++) {
      var id = rid(state.regions[i], i);
      if (id && fold(state.regions[i].name.trim() || letterName(id)) === f) return id;
    }
    return slug(name);
  }
  var paths = {}; // API field path → form element id
  var unknown = []; // names the form could not read (problems said on their fields before asking)

  function position() {
    unknown = [];
    paths = {players: "ha-players", round: fieldId("round"), phase: fieldId("phase"), turn: fieldId("turn")};
    var p = {players: state.players.slice()};
    if (int(state.round) !== undefined) p.round = int(state.round);
    if (state.phase) p.phase = state.phase;
    if (state.turn) p.turn = state.turn;
    if (state.variant) p.variant = state.variant;
    var sides = {};
    state.players.forEach(function (f) {
      var side = (state.sides || {})[f], out = {};
      if (!side) return;
      ["vp", "hand", "reserve"].forEach(function (k) {
        if (int(side[k]) !== undefined) out[k] = int(side[k]);
        paths["factions." + f + "." + k] = fieldId("side:" + f + "." + k);
      });
      var held = {};
      Object.keys(side.prisoners || {}).forEach(function (g) {
        if (int(side.prisoners[g]) !== undefined && state.players.indexOf(g) >= 0) held[g] = int(side.prisoners[g]);
        paths["factions." + f + ".prisoners." + g] = fieldId("side:" + f + ".prisoners." + g);
      });
      if (Object.keys(held).length) out.prisoners = held;
      if (Object.keys(out).length) sides[f] = out;
    });
    if (Object.keys(sides).length) p.factions = sides;
    paths["scoring.enabled-by"] = fieldId("scoring.enabled-by");
    paths["scoring.final-round"] = "ha-final-round";
    if (state.enabledBy || state.finalRound) {
      p.scoring = {};
      if (state.enabledBy) p.scoring["enabled-by"] = state.enabledBy;
      if (state.finalRound) p.scoring["final-round"] = true;
    }
    var regions = {};
    state.regions.forEach(function (r, i) {
      var id = rid(r, i);
      if (!id) return;
      var pre = "regions." + id;
      var out = {};
      paths[pre] = fieldId("region-name:" + i);
      var units = {};
      Object.keys(r.units).forEach(function (f) {
        var n = int(r.units[f]);
        if (n !== undefined && unitFactions().indexOf(f) >= 0) { units[f] = n; }
        paths[pre + ".units." + f] = fieldId("region:" + i + ".units." + f);
      });
      if (Object.keys(units).length) out.units = units;
      if (r.control) out.control = r.control;
      if (r.hq) out.hq = r.hq;
      if (int(r.crystals) !== undefined) out.crystals = int(r.crystals);
      if (int(r.battle) !== undefined || r.attacker) out.battle = {token: int(r.battle), attacker: r.attacker || undefined};
      if (r.structure.trim()) {
        var type = structureKey(r.structure);
        if (!type) unknown.push({"in": "position", field: pre + ".structures", message: W["unknown-structure"].replace("{name}", r.structure.trim())});
        out.structures = [{type: type || r.structure.trim(), owner: r.owner || undefined}];
      }
      if (r.trog) out["trog-token"] = r.trog;
      if (r.exploration) out.exploration = true;
      paths[pre + ".trog-token"] = fieldId("region:" + i + ".trog-token");
      paths[pre + ".exploration"] = "ha-region-" + i + "-exploration";
      var adj = names(r.adjacent);
      if (adj.length) out.adjacent = adj;
      ["control", "hq", "crystals", "battle.token", "battle.attacker", "adjacent", "structures", "structures.owner"].forEach(function (k) {
        paths[pre + "." + k] = fieldId("region:" + i + "." + k);
      });
      paths[pre + ".battle"] = paths[pre + ".battle.token"];
      paths[pre + ".structures[0].type"] = paths[pre + ".structures"];
      paths[pre + ".structures[0].owner"] = paths[pre + ".structures.owner"];
      regions[id] = out;
    });
    // a neighbour named only in another Region's list is added, so the question can use it
    Object.keys(regions).forEach(function (id) {
      (regions[id].adjacent || []).forEach(function (n) { if (!regions[n]) regions[n] = {adjacent: [id]}; });
    });
    p.regions = regions;
    return p;
  }
  function fieldId(path) {
    var e = form.querySelector('[data-path="' + path.replace(/"/g, '\\"') + '"]');
    return e ? e.id : undefined;
  }
  function question() {
    var q = state.q, out = {ask: q.kind};
    if (q.extra && q.extra.ask === undefined) Object.assign(out, q.extra);
    formOf(q.kind).forEach(function (f) {
      var name = f.name, v = q[name];
      paths[name] = fieldId("q." + name);
      if (f.type === "faction" || f.type === "region" || f.type === "enum") { if (v) out[name] = v; }
      else if (f.type === "regions") { if (names(v).length) out[name] = names(v); }
      else if (f.type === "bool") { if (v) out[name] = true; }
      else if (f.type === "objectives") {
        var obj = {};
        q.obj = q.obj || {};
        unitFactions().concat(Object.keys(q.obj)).filter(function (g, i, all) { return all.indexOf(g) === i; }).forEach(function (g) {
          var side = {}, any = false;
          D.objectives.forEach(function (o) {
            var n = int((q.obj[g] || {})[o]);
            paths["objectives." + g + "." + o] = "ha-obj-" + g + "-" + o;
            if (n !== undefined) { side[o] = n; any = true; }
          });
          if (any) obj[g] = side;
        });
        if (Object.keys(obj).length) out.objectives = obj;
        paths.objectives = "ha-objectives";
      } else if (int(v) !== undefined) out[name] = int(v);
    });
    paths.ask = "ha-kind";
    return out;
  }

  // --- errors --------------------------------------------------------------------------------------
  function clearErrors() {
    form.querySelectorAll(".ha-error").forEach(function (e) { e.hidden = true; e.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (e) { e.removeAttribute("aria-invalid"); });
    topErrors.hidden = true; topErrors.replaceChildren();
  }
  function place(problem) {
    var where = problem["in"], path = problem.field || "", id;
    // a pasted table's line first, then the place and the message: "(5) Region A › Oddziały (units) › Ludzie: …"
    var line = problem.line ? "(" + problem.line + ") " : "";
    // an API path in the message ("(regions.north.units.humans)") is said in the reader's words
    var msg = String(problem.message).replace(/\(((?:[a-z0-9_-]+\.)+[a-z0-9_-]+)\)/g,
      function (m, p) { return "(" + pathLabel(p) + ")"; });
    if (state.usePaste && where === "position") id = "ha-paste";
    else {
      var key = path;
      while (key && !(id = paths[key])) {
        key = key.replace(/(\.[^.]*|\[\d+\])$/, "");
        if (key === path) break;
        path = key;
      }
      if (!id && where === "request" && problem.field === "position") id = state.usePaste ? "ha-paste" : undefined;
    }
    if (id === "ha-paste" && problem.field) msg = placeWords(problem) + ": " + msg;
    else if (input0(id) && problem.field && !err0(id)) msg = input0(id).dataset.label + ": " + msg;
    msg = line + msg;
    var input = id && document.getElementById(id);
    var err = input && (document.getElementById(id + "-err") || (input.closest(".ha-field, .ha-players") || input).querySelector(".ha-error"));
    if (!err) {
      topErrors.hidden = false;
      topErrors.append(el("p", {text: problem.field ? line + placeWords(problem) + ": " + msg.slice(line.length) : msg}));
      return null;
    }
    err.hidden = false;
    err.textContent = (err.textContent ? err.textContent + " " : "") + msg;
    if (input.matches("input, select, textarea")) input.setAttribute("aria-invalid", "true");
    return input;
  }

  // Where a problem is, in the reader's words: a pasted table's by the engine's ("where": "Region A ›
  // Oddziały (units) › Ludzie", the table's names and keys); what the form built, by the form's own
  // labels and the names typed in it (the engine knows "Północ" only as the key polnoc).
  function placeWords(problem) {
    if (problem.where && state.usePaste && problem["in"] === "position") return problem.where;
    return pathLabel(problem.field);
  }
  function input0(id) { return id && document.getElementById(id); }
  function err0(id) { return id && document.getElementById(id + "-err"); }
  // an API path said in the reader's words: "regions.north.units.humans" → "north, Units, Humans"
  function pathLabel(path) {
    return String(path).split(/\.|\[|\]/).filter(function (x) { return x && !/^\d+$/.test(x); }).map(function (x) {
      return D.factions[x] || (regionIds().indexOf(x) >= 0 ? shownName(x) : fieldLabel(x));
    }).join(", ");
  }

  // --- asking -----------------------------------------------------------------------------------------
  function request() {
    var body = {lang: D.lang};
    unknown = [];
    body.position = state.usePaste && state.paste.trim() ? state.paste : position();
    if (!state.usePaste) position(); // fills the field map even when the text is asked
    body.question = question();
    return body;
  }

  // One request to the assistant: the engine in this browser, else the server. Resolves [status, JSON].
  function call(method, path, body, query) {
    if (!useServer) {
      return engine.request(method, "/api/" + path, body ? JSON.stringify(body) : "", query || {})
        .then(function (r) { return [r.status, r.body]; });
    }
    var url = API + path + (query && query.lang ? "?lang=" + encodeURIComponent(query.lang) : "");
    var init = body ? {method: method, headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)} : undefined;
    return fetch(url, init).then(function (r) { return r.json().then(function (data) { return [r.status, data]; }); });
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var body = request();
    if (missing(body.question)) return;
    ask(body, true);
  });
  // a field the kind needs and the form leaves empty is marked here, before asking
  function missing(q) {
    clearErrors();
    var first = null;
    var unread = unknown.length > 0;
    unknown.forEach(function (p) { var i = place(p); first = first || i; });
    formOf(q.ask).forEach(function (f) {
      if (!f.needed || q[f.name] !== undefined) return;
      var i = place({"in": "question", field: f.name, message: W.needed});
      first = first || i;
    });
    if (first || unread) { hook.dataset.state = "error"; hook.dataset.verdict = ""; topErrors.hidden = false; topErrors.prepend(el("p", {"class": "ha-lead", text: W["fix-fields"]})); if (first) first.focus(); }
    return !!first || unread;
  }

  // The last answer of this tab, with the very request it answers: a page the browser loaded
  // afresh on the way back (its back/forward cache refused it) shows it at once, before the
  // engine is up, then asks again and redraws only if the engine answers otherwise (a new
  // build). sessionStorage: this tab's, gone with it; shown as text, as every answer is.
  var KEPT = "havoc-ask-answer";
  function keptAnswer(key) {
    try {
      var kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
      return kept && kept.key === key && kept.res && kept.res.answer ? kept.res : null;
    } catch (e) { return null; }
  }
  function keepAnswer(key, res) {
    try { sessionStorage.setItem(KEPT, JSON.stringify({key: key, res: res})); } catch (e) {}
  }
  function shown(res, body, fromForm) {
    if (fromForm) save(true);
    remember(body.position);
    show(res.answer, body.question);
    showAssumed(res.assumed || []);
  }

  function ask(body, fromForm, fromText, again) {
    stopSettling();
    clearErrors();
    // the answer with what it read of the table (POST /api/interview): what it had to assume is
    // shown under it, each a tap away from its field, so the player is asked only what mattered
    var sent = {position: body.position, question: body.question, lang: body.lang, stated: body.stated,
                "as-of": body["as-of"] || state.asOf || undefined};
    var key = JSON.stringify(sent);
    var kept = again ? keptAnswer(key) : null; // ("again": the question this page stood at, asked anew)
    live = {};
    if (kept) {
      shown(kept, body, false);
      hook.dataset.kept = "shown";
    } else {
      // the previous answer goes at once: it never stands under a question it did not answer
      answerBox.hidden = true;
      answerBox.replaceChildren();
      hook.dataset.state = "asking";
      hook.dataset.verdict = "";
      delete hook.dataset.kept;
    }
    if (useServer && !online) { if (kept) return; hook.dataset.state = "error"; showOffline(true); return; }
    askButton.disabled = true;
    if (!kept) askButton.textContent = W.asking;
    call("POST", "interview", sent)
      .then(function (res) { return (labelsLoaded || Promise.resolve()).then(function () { return res; }); })
      .then(function (res) {
        if (res[0] === 200) {
          keepAnswer(key, res[1]);
          if (kept && JSON.stringify(res[1]) === JSON.stringify(kept)) { hook.dataset.kept = "confirmed"; return; }
          if (kept) hook.dataset.kept = "redrawn";
          return shown(res[1], body, fromForm);
        }
        if (kept) { answerBox.hidden = true; answerBox.replaceChildren(); delete hook.dataset.kept; }
        hook.dataset.state = "error";
        var first = null;
        (res[1].problems || []).forEach(function (p) { var i = place(p); first = first || i; });
        if (fromText) {  // said where the eyes are: under the question asked in words
          var said = (res[1].problems || []).map(function (p) { return placeWords(p) + ": " + p.message; });
          understoodBox.append(el("p", {"class": "ha-error", role: "alert", text: said.join("; ") || res[1].message || String(res[0])}));
        }
        if (!(res[1].problems || []).length) { topErrors.hidden = false; topErrors.append(el("p", {text: res[1].message || String(res[0])})); }
        else { topErrors.hidden = false; topErrors.prepend(el("p", {"class": "ha-lead", text: W["fix-fields"]})); }
        (first || topErrors).focus && (first || topErrors).focus();
      })
      .catch(function () {
        if (kept) return; // the answer this tab had stays: nothing could ask it again here
        hook.dataset.state = "error";
        topErrors.hidden = false;
        topErrors.append(el("p", {text: useServer ? W.unreachable : W["engine-failed"]}));
        topErrors.focus && topErrors.focus();
      })
      .then(function () { askButton.disabled = false; askButton.textContent = W.ask; });
  }

  function value(v) {
    if (v === true) return W.yes;
    if (v === false) return W.no;
    if (Array.isArray(v)) return v.length ? v.map(value).join(", ") : "—";
    if (v && typeof v === "object") return Object.keys(v).map(function (k) { return (D.factions[k] || shownName(k)) + " " + value(v[k]); }).join(", ");
    if (typeof v === "string") return D.factions[v] || (regionIds().indexOf(v) >= 0 ? shownName(v) : v);
    return String(v);
  }

  // Region IDs in the answer's sentences read as the names the player typed (or the known names).
  function named(sentence) {
    var out = String(sentence || "");
    var ids = regionIds().concat(Object.keys(D.known)).sort(function (x, y) { return y.length - x.length; });
    ids.forEach(function (id) {
      var name = shownName(id);
      if (name === id) return;
      var re = new RegExp("(^|[^a-z0-9-])" + id.replace(/[-]/g, "\\-") + "(?=$|[^a-z0-9-])", "g");
      out = out.replace(re, function (m, pre) { return pre + name; });
    });
    return out;
  }

  function show(a, sent) {
    var verdict = a.verdict === null || a.verdict === undefined ? "" : a.verdict === true ? "yes" : "no"; // "no-unless" is a no
    var nodes = [el("h2", {text: W.answer})];
    nodes.push(el("p", {"class": "ha-question-text", text: named(a.question)}));
    // "what can I do", "how does the Battle end", "what do we score" are not yes/no questions
    // (the CLI shows no Yes/No for them either): their report or figures are the answer
    // (no verdict: a count, a setup, "cannot tell": the lines below are the answer, never a big "See below")
    if (!openQuestion(a.kind, sent) && verdict) nodes.push(el("p", {"class": "ha-verdict ha-verdict-" + verdict, text: a.answer}));
    // a question the table cannot decide: what the answer needs (never a guessed yes or no)
    if (a["cannot-tell-without"]) nodes.push(el("p", {"class": "ha-hint"}, [el("strong", {text: W.depends + ": "}), document.createTextNode(a["cannot-tell-without"].map(named).join("; "))]));
    var figs = a.figures || {};
    var keys = Object.keys(figs);
    if (a.verdict === false) {
      var keep = {};
      (a.rules || []).forEach(function (d) { Object.keys(d.figures || {}).forEach(function (k) { keep[k] = 1; }); });
      keys = keys.filter(function (k) { return keep[k]; });
    }
    if (a.report && a.report.length) {
      var ul = el("ul", {"class": "ha-report"});
      a.report.forEach(function (line) { ul.append(el("li", {text: named(line)})); });
      nodes.push(ul);
    } else if (keys.length) {
      var dl = el("dl", {"class": "ha-figures"});
      keys.forEach(function (k) {
        dl.append(el("dt", {text: (labels && labels.figures[k]) || k}), el("dd", {"data-figure": k, text: value(figs[k])}));
      });
      nodes.push(el("h3", {text: W.figures}), dl);
    }
    if (a.hint) nodes.push(el("p", {"class": "ha-hint"}, [el("strong", {text: W.hint + ": "}), document.createTextNode(named(a.hint))]));
    if (a["would-be-legal"] && a["would-be-legal"].length) {
      var fx = el("ul");
      a["would-be-legal"].forEach(function (f) { fx.append(el("li", {text: named(f)})); });
      nodes.push(el("p", {text: W.fixes + ":"}), fx);
    }
    var seen = {}, rules = el("ul", {"class": "ha-rules"});
    var order = (a.rules || []).slice().sort(function (x, y) { return weight(x) - weight(y); });
    order.forEach(function (d) {
      if (seen[d.id]) return;
      seen[d.id] = 1;
      var href = D.links[d.id];
      var title = href ? el("a", {href: href, text: d.title, "data-rule": d.id}) : el("span", {text: d.title});
      var mark = d.passed === false ? "✗ " : d.passed ? "✓ " : "• ";
      var li = el("li", {"class": d.passed === false ? "ha-failed" : ""}, [document.createTextNode(mark), title]);
      if (d["not-given"] && d["for"]) li.append(document.createTextNode(" — " + named(d["for"])));  // not checked: a fact left out
      if (d.passed === false || d.figures || d.conditional) li.append(el("p", {text: d.text}));
      rules.append(li);
    });
    if (order.length) nodes.push(el("h3", {text: W.rules}), rules);
    var from = a.ruleset || {};
    if (from["as-of"]) nodes.push(el("p", {"class": "ha-as-of", "data-as-of": from["as-of"], text: W["as-of-said"] + ": " +
      (from.layers || []).map(function (l) { return l.title; }).join(" + ")}));
    answerBox.replaceChildren.apply(answerBox, nodes);
    // for tools: the JSON verdict (true, false, no-unless), empty for a report
    hook.dataset.verdict = a.verdict === null || a.verdict === undefined || openQuestion(a.kind, sent) ? "" : String(a.verdict);
    hook.dataset.state = "done";
    answerBox.hidden = false;
    answerBox.focus({preventScroll: true});
    // the answer at the top of the screen, where the eyes go after the tap
    answerBox.scrollIntoView({block: "start"});
    // once more after the page settles (the sticky header, late fonts), so it stays at the top
    settling = [150, 600].map(function (ms) {
      return setTimeout(function () { if (window.scrollY + 1 < answerTop()) answerBox.scrollIntoView({block: "start"}); }, ms);
    });
  }
  // what the answer read but the table did not say: #havoc-assumed, one button per field
  // (data-field: its API path), which opens that field of the table
  function showAssumed(items) {
    live = {};
    items.forEach(function (r) { var id = fieldIdOf(r.field); if (id) live[id] = 1; });
    if (!items.length) return;
    var list = el("div", {id: "havoc-assumed", "class": "ha-chips"});
    items.forEach(function (r) {
      var chip = el("button", {type: "button", "class": "ha-chip ha-assumed", "data-field": r.field, text: named(r.where) + ": " + r.assumed});
      chip.addEventListener("click", function () { openField(r.field); });
      list.append(chip);
    });
    answerBox.append(el("h3", {text: W.assumed}), el("p", {"class": "ha-lead", text: W["assumed-tap"]}), list);
  }
  // the table of the last question answered, for the solo Trogs' page to start from (no YAML)
  function remember(table) {
    if (!table || typeof table !== "object") return;
    try { localStorage.setItem("havoc-table", JSON.stringify({position: table, summary: summaryLine ? summaryLine.textContent : ""})); } catch (e) {}
  }
  // the form's field of an API path (a field's own, else the nearest one above it)
  function fieldIdOf(path) {
    var key = path, id;
    while (key && !(id = paths[key])) {
      var up = key.replace(/(\.[^.]*|\[\d+\])$/, "");
      if (up === key) break;
      key = up;
    }
    return id || "";
  }
  // Answering live: once an answer stands, changing a fact it had to assume asks again at once
  // (no second tap on Ask), on the table as it now is
  var live = {}, liveTimer = null;
  form.addEventListener("change", function (ev) {
    var id = ev.target && ev.target.id;
    if (!id || !live[id]) return;  // (live holds only the fields of the answer standing now)
    clearTimeout(liveTimer);
    liveTimer = setTimeout(function () { if (live[id]) ask(request(), true); }, 400);
  });
  function openField(path) {
    var id = fieldIdOf(path);
    var input = id && document.getElementById(id);
    if (!input) { tableBox.scrollIntoView({block: "start"}); return; }
    var box = input.closest("details");
    if (box) box.open = true;
    input.scrollIntoView({block: "center"});
    input.focus({preventScroll: true});
  }
  // a later scroll must not move the page under a thumb that already reached for something else
  var settling = [];
  function stopSettling() { settling.forEach(clearTimeout); settling = []; }
  ["touchstart", "pointerdown", "keydown", "wheel", "input", "change", "focusin"].forEach(function (t) { window.addEventListener(t, stopSettling, {passive: true, capture: true}); });
  // where the answer's top would put the page (a reader who scrolled on is not pulled back)
  function answerTop() { return answerBox.getBoundingClientRect().top + window.scrollY - 80; }
  // mirrors the interpreter's Answer.yes_no, which the JSON does not carry
  function openQuestion(kind, q) {
    q = q || {};
    if (["legal", "battle", "score", "discard"].indexOf(kind) >= 0) return true;
    if (kind === "retreat") return !q.to;
    if (kind === "winner") return true; // answered by the winner's name, asked for a faction or not
    return false;
  }
  function weight(d) { return d.passed === false ? 0 : (d.figures || d.conditional) ? 1 : 2; }

  shareButton.addEventListener("click", function () {
    save();
    var done = function () { shareButton.textContent = W.copied; setTimeout(function () { shareButton.textContent = W.share; }, 2000); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(location.href).then(done, done);
    else done();
  });

  function showOffline(focus) {
    var box = document.getElementById("ha-offline");
    box.hidden = false;
    if (focus) { box.tabIndex = -1; box.focus(); }
  }

  function loadLabels() {
    labelsLoaded = call("GET", "labels", null, {lang: D.lang})
      .then(function (r) { if (r[0] === 200) labels = r[1]; }, function () {});
    return labelsLoaded;
  }
  function tryServer() {
    useServer = true;
    return fetch(API + "health").then(function (r) { if (!r.ok) throw new Error(); return r.json(); }).then(function () {
      online = true;
      engineStatus.textContent += " " + W["engine-server"];
      return loadLabels();
    }).catch(function () { if (!online) showOffline(false); });
  }
  // A typed question: understood on the table the page remembers, its pieces shown as chips,
  // each fact the answer still needs asked right under them (a tap on a faction, a Region from a
  // list), the situation it states put on the table (and said), and the answer asked at once.
  var told = {}, toldFor = "";  // what the player told since of the sentence's missing facts
  function askText(sentence, again) {
    sentence = String(sentence || "").trim();
    if (!sentence) return;
    if (!again || sentence !== toldFor) told = {};
    toldFor = sentence;
    var body = request();
    var pasted = typeof body.position === "string";
    understoodBox.replaceChildren();
    hook.dataset.state = "asking";
    call("POST", "understand", {text: sentence, lang: D.lang, position: pasted ? undefined : body.position, given: told}).then(function (res) {
      var u = res[1] || {};
      if (res[0] !== 200 || u.refusal) {
        hook.dataset.state = "error";
        var why = u.refusal || ((u.problems || [])[0] || {}).message || u.message || String(res[0]);
        understoodBox.append(el("p", {"class": "ha-error", role: "alert", text: why}));
        return;
      }
      var chips = el("ul", {"class": "ha-chips", "aria-label": W.understood});
      var editBox = el("div", {"class": "ha-missing ha-edit", id: "havoc-edit", hidden: true});
      (u.understood || []).forEach(function (p) {
        var chip = el("li", {"class": "ha-chip" + (p.told ? " ha-told" : ""), "data-field": p.field, "data-value": JSON.stringify(p.value), title: p.words});
        // a piece read wrong is put right with a tap: its chip opens the same choice a missing fact gets
        var edit = control({field: p.field, label: p.label}, u, function (v) { told[p.field] = v; askText(sentence, true); }, p.value);
        if (edit) {
          var b = el("button", {type: "button", "class": "ha-chip-edit", "aria-expanded": "false", text: named(p.shown)});
          b.addEventListener("click", function () {
            var open = b.getAttribute("aria-expanded") !== "true";
            chips.querySelectorAll(".ha-chip-edit").forEach(function (x) { x.setAttribute("aria-expanded", "false"); });
            editBox.replaceChildren();
            editBox.hidden = !open;
            if (!open) return;
            b.setAttribute("aria-expanded", "true");
            editBox.append(factRow(p.field, p.label, edit));
            var first = editBox.querySelector("button, select, input");
            if (first) first.focus({preventScroll: true});
          });
          chip.append(b);
        } else {
          chip.textContent = named(p.shown);
        }
        chips.append(chip);
      });
      understoodBox.append(el("p", {"class": "ha-understood-kind", text: named(u.summary)}), chips, editBox);
      if ((u.unplaced || []).length) understoodBox.append(el("p", {"class": "ha-help", text: W["text-unplaced"] + ": " + u.unplaced.join(", ")}));
      var q = u.question;
      var missing = u.missing || [];
      if (missing.length) {
        hook.dataset.state = "needs";
        askMissing(sentence, missing, u, q);
        return;
      }
      var stated = u.position || {};
      var put = pasted ? [] : adopt(stated, q);
      formQuestion(q);
      save(); renderTable(); renderRegions(); renderQuestion(); renderSummary();
      if (put.length) understoodBox.append(el("p", {"class": "ha-put", id: "havoc-put", text: W["text-put"] + ": " + put.join("; ")}));
      var asked = request();
      asked.question = q;
      if (pasted) asked.stated = stated;  // a pasted table: the engine lays the situation over it
      if (!D.forms[q.ask]) return decide(asked);  // one of the game's other deciders (the solo Trogs)
      ask(asked, false, true);
    }, function () {
      hook.dataset.state = "error";
      understoodBox.append(el("p", {"class": "ha-error", text: useServer ? W.unreachable : W["engine-failed"]}));
    });
  }
  // A question for one of the game's other deciders (POST /api/<name>: the solo Trogs), its
  // decision shown as the Trogs' page shows it: the lines, then the rules that decided it.
  function decide(body) {
    stopSettling();
    live = {};
    answerBox.hidden = true;
    answerBox.replaceChildren();
    hook.dataset.verdict = "";
    call("POST", body.question.ask, {position: body.position, question: body.question, lang: D.lang}).then(function (res) {
      var d = res[1] || {};
      if (res[0] !== 200) {
        hook.dataset.state = "error";
        var said = (d.problems || []).map(function (p) { return named(p.message); });
        understoodBox.append(el("p", {"class": "ha-error", role: "alert", text: said.join("; ") || d.message || String(res[0])}));
        return;
      }
      remember(body.position);
      var lines = el("ul", {"class": "ha-report"});
      (d.lines || []).forEach(function (line) { lines.append(el("li", {text: named(line)})); });
      var rules = el("ul", {"class": "ha-rules"});
      [{rule: d.rule, title: d["rule-title"]}].concat(d.interpretations || []).forEach(function (r) {
        if (!r.rule) return;
        var href = D.links[r.rule];
        rules.append(el("li", {}, [href ? el("a", {href: href, text: r.title || r.rule, "data-rule": r.rule}) : el("span", {text: r.title || r.rule})]));
      });
      answerBox.replaceChildren(el("h2", {text: W.answer}), el("p", {"class": "ha-question-text", text: named(d.question)}), lines,
                                el("h3", {text: W.rules}), rules);
      hook.dataset.state = "done";
      answerBox.hidden = false;
      answerBox.scrollIntoView({block: "start"});
    }, function () {
      hook.dataset.state = "error";
      understoodBox.append(el("p", {"class": "ha-error", text: useServer ? W.unreachable : W["engine-failed"]}));
    });
  }
  // the form's question set from a typed one (so the form shows what was asked)
  function formQuestion(q) {
    if (!D.forms[q.ask]) return;  // not a question of the form (the solo Trogs' decider)
    state.q = Object.assign(initialState().q, {kind: q.ask, obj: {}, extra: {}});
    Object.keys(q).forEach(function (k) {
      if (k === "ask") return;
      var v = q[k];
      if (k === "objectives") Object.keys(v).forEach(function (f) { state.q.obj[f] = Object.assign({}, v[f]); });
      else state.q[k] = Array.isArray(v) ? v.join(", ") : typeof v === "number" ? String(v) : v;
    });
  }
  // Each missing fact as one control under the chips: factions as buttons (one tap), Regions
  // from a list, a count as a number; every choice reads the sentence again with it told.
  function askMissing(sentence, missing, u, q) {
    var box = el("div", {"class": "ha-missing", id: "havoc-missing"}, [el("p", {"class": "ha-lead", text: W["text-missing"] + ":"})]);
    var placed = false;
    missing.forEach(function (m) {
      var asked = control(m, u, function (v) { told[m.field] = v; askText(sentence, true); });
      var row = factRow(m.field, m.label, asked);
      if (!asked) {  // no control of its own here: the form below asks it
        if (m.field.indexOf("question.") === 0) place({"in": "question", field: m.field.slice(9), message: W.needed});
        placed = true;
      }
      box.append(row);
    });
    if (placed) box.append(el("p", {"class": "ha-help", text: W["text-missing-form"]}));
    understoodBox.append(box);
    formQuestion(q);
    renderQuestion();
    var first = box.querySelector("button, select, input");
    if (first) first.focus({preventScroll: true});
  }
  // one fact of a typed question asked under its chips: its words, then its control (if any)
  function factRow(field, label, input) {
    return el("div", {"class": "ha-missing-field", "data-field": field}, [el("span", {"class": "ha-missing-label", text: capital(named(label))}), input]);
  }
  // The control that asks for one fact of a typed question (m.field: its API path): a faction
  // as buttons (one tap), a Region from a list, a count as a number; null when the form asks it.
  function control(m, u, choose, now) {
    var leaf = m.field.split(".").pop();
    var question = m.field.indexOf("question.") === 0;
    if (leaf === "faction" || leaf === "attacker") {
      var among = leaf === "attacker" ? sidesOf(u.position, m.field) : unitFactions();
      var buttons = el("div", {"class": "ha-chips"});
      among.forEach(function (f) {
        var b = el("button", {type: "button", "class": "ha-pick", "data-value": f, "aria-pressed": String(f === now), text: D.factions[f] || f});
        b.addEventListener("click", function () { choose(f); });
        buttons.append(b);
      });
      return buttons;
    }
    if (question && ["region", "from", "to"].indexOf(leaf) >= 0) {
      return select(regionChoices(), now || "", function (v) { if (v) choose(v); }, true, W.pick);
    }
    var count = (question && leaf === "units") || /^position\.regions\.[^.]+\.units\.[a-z-]+$/.test(m.field) ||
      /^position\.factions\.[a-z-]+\.reserve$/.test(m.field);
    if (count) {
      var n = el("input", {type: "number", min: "0", inputMode: "numeric", "class": "ha-missing-number", "aria-label": m.label,
                           value: typeof now === "number" ? String(now) : ""});
      n.addEventListener("change", function () { if (int(n.value) !== undefined) choose(int(n.value)); });
      return n;
    }
    return null;
  }
  // a Battle's sides as the sentence states them (the attacker is one of them), else the players
  function sidesOf(stated, field) {
    var id = field.split(".")[2];  // position.regions.<id>.battle.attacker
    var r = ((stated || {}).regions || {})[id] || {};
    var card = state.regions.filter(function (x, i) { return rid(x, i) === id; })[0];
    var sides = Object.keys(r.units || {}).concat(card ? Object.keys(card.units).filter(function (f) { return int(card.units[f]); }) : []);
    sides = sides.filter(function (f, i) { return sides.indexOf(f) === i; });
    return sides.length >= 2 ? sides : unitFactions();
  }
  // the table's Regions, then every known Region by its name in this language
  function regionChoices() {
    var out = [], seen = {};
    regionIds().forEach(function (id) { if (!seen[id]) { seen[id] = 1; out.push([id, shownName(id)]); } });
    Object.keys(D.known).forEach(function (id) { if (!seen[id]) { seen[id] = 1; out.push([id, D.known[id]]); } });
    return out;
  }
  function joinPlayer(f) {
    if (unitFactions().indexOf(f) < 0) state.players = FACTIONS.filter(function (g) { return g === f || state.players.indexOf(g) >= 0; });
  }
  // What a sentence states (a partial table) put on the page's table, Region by Region; what
  // changed is returned in words ("Region A: Humans 8, Pilgrims 3, Battle token 1").
  function adopt(stated, q) {
    var put = [];
    if (stated.players) {
      state.players = FACTIONS.filter(function (f) { return stated.players.indexOf(f) >= 0; });
      put.push(W.players + ": " + state.players.map(function (f) { return D.factions[f]; }).join(", "));
    }
    Object.keys(stated.factions || {}).forEach(function (f) {
      var side = (state.sides[f] = state.sides[f] || {prisoners: {}});
      var v = stated.factions[f];
      joinPlayer(f);
      if (v.reserve !== undefined) { side.reserve = String(v.reserve); put.push(D.factions[f] + ": " + W.reserve + " " + v.reserve); }
    });
    Object.keys(stated.regions || {}).forEach(function (id) {
      var v = stated.regions[id], said = [];
      var at = cardFor(id);
      var r = state.regions[at];
      Object.keys(v.units || {}).forEach(function (f) {
        joinPlayer(f);
        r.units[f] = String(v.units[f]);
        said.push((D.factions[f] || f) + " " + v.units[f]);
      });
      if (v.battle) {
        if (v.battle.token !== undefined) { r.battle = String(v.battle.token); said.push(W["battle-token"] + " " + v.battle.token); }
        if (v.battle.attacker) { r.attacker = v.battle.attacker; said.push(W.attacker + ": " + (D.factions[v.battle.attacker] || v.battle.attacker)); }
      }
      var now = rid(r, at);
      if (now !== id) {  // the card holding it reads otherwise ("Region C"): the question follows it
        ["from", "to", "region"].forEach(function (k) { if (q[k] === id) q[k] = now; });
      }
      put.push(shownName(now) + (said.length ? ": " + said.join(", ") : ""));
    });
    return put;
  }
  // the index of the card that is the Region ``id``, made when the table has none: a named
  // Region gets its name on the first free card, a stand-in "example-b" the second card
  function cardFor(id) {
    for (var i = 0; i < state.regions.length; i++) if (rid(state.regions[i], i) === id) return i;
    var free = function (i) { return state.regions[i] && !filled(state.regions[i]) && !String(state.regions[i].name || "").trim(); };
    var m = /^example-([a-z])$/.exec(id);
    if (m) {
      var k = LETTERS.indexOf(m[1]);
      while (state.regions.length <= k) state.regions.push(emptyRegion());
      if (free(k)) return k;
    } else {
      for (var j = 0; j < state.regions.length; j++) if (free(j)) { state.regions[j].name = D.known[id] || id; return j; }
    }
    state.regions.push(Object.assign(emptyRegion(), {name: m ? "" : (D.known[id] || id)}));
    return state.regions.length - 1;
  }
  // #q=<base64url of the JSON body of POST /api/ask>: asked at once, without a tap (for tools);
  // #t=<percent-encoded sentence>: a question in words, asked as if typed in the question box
  function linkedQuestion() {
    var t = /[#&]t=([^&]*)/.exec(location.hash);
    if (t) {
      var sentence;
      try { sentence = decodeURIComponent(t[1].replace(/\+/g, " ")); } catch (e) { return; }
      textInput.value = sentence;
      askText(sentence);
      return;
    }
    var m = /[#&]q=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (!m) {
      // a shared #s= link of a question that was asked opens with its answer
      if (/[#&]s=/.test(location.hash) && state.asked && !hook.dataset.state) ask(request(), true, false, true);
      return;
    }
    var body;
    try { body = decode(m[1]); } catch (e) { return; }
    if (body && typeof body === "object") ask(body);
  }

  renderTable(); renderRegions(); renderPaste(); renderQuestion();
  if (location.protocol === "file:") { showOffline(false); return; }
  if (!engine) { tryServer().then(linkedQuestion); return; }
  var labelsAsked = false; // a state told again (the service worker took over) asks nothing again
  engine.onstate(function (s) {
    hook.dataset.engine = s.stage;
    if (s.stage === "failed") {
      engineStatus.textContent = W["engine-" + s.reason] || W["engine-start"];
      tryServer().then(linkedQuestion);
    } else if (s.stage === "ready") {
      engineStatus.textContent = engine.say(s, W);
      if (!labelsAsked) { labelsAsked = true; loadLabels(); }
    } else if (s.stage !== "idle") {
      engineStatus.textContent = engine.say(s, W);
    }
  });
  linkedQuestion(); // the engine keeps it until it is ready
  window.addEventListener("hashchange", linkedQuestion); // a tool may ask the open page again
})();
