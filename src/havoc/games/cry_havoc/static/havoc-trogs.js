/* havoc: the solo Trogs' page. Builds the form of each decision from the page's JSON (the
 * decisions' declaration, solo.engine.FIELDS: what each is asked with and how), starts from a
 * stored solo example, and asks POST /api/trogs of the site's in-browser engine
 * (havoc-engine.js), or of `havoc serve` when the engine cannot start here: the same answer as
 * `havoc trogs … --json`. #havoc-trogs carries data-state (busy, done, error) for tools. */
(function () {
  "use strict";
  var box = document.getElementById("havoc-trogs");
  if (!box) return;
  var D = JSON.parse(document.getElementById("havoc-trogs-data").textContent);
  var W = D.words;
  var ENGINE = "../_engine/";
  var API = "../api/";
  var engine = window.havocEngine || null;
  var useServer = !engine;
  var stateEl = document.getElementById("ht-state");
  var seq = 0;

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "checked" || k === "hidden") e[k] = !!attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function field(label, input, name) {
    input.id = input.id || "ht-f" + (++seq);
    if (name) input.dataset.name = name;
    return el("div", {"class": "ha-field"}, [el("label", {"for": input.id, text: label}), input,
      el("span", {"class": "ha-error", id: input.id + "-err", hidden: true, "aria-live": "polite"})]);
  }
  function select(options, value) {
    var s = el("select");
    options.forEach(function (o) { s.appendChild(el("option", {value: o[0], text: o[1]})); });
    s.value = value === undefined || value === null ? "" : String(value);
    return s;
  }
  function number(value) {
    return el("input", {type: "number", inputmode: "numeric", min: "0", step: "1", value: value === undefined ? "" : String(value)});
  }

  // --- the table: a stored example's position, as text the reader may edit or replace ----------
  function positionOf(text) {
    try { return JSON.parse(text); } catch (e) { return text; } // YAML goes as text
  }
  // A name as the engine reads it (position.py): an ID as it is, a name of the page data's
  // vocabulary (Region or faction names in any language; one name, one thing), else folded.
  function fold(name) {
    return String(name || "").trim().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ł/g, "l").replace(/Ł/g, "L")
      .toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }
  function idOf(names, key) {
    key = String(key).trim().replace(/^(["'])(.*)\1$/, "$2");
    if (/^[a-z0-9][a-z0-9-]*$/.test(key)) return key;
    var ids = (names || {})[fold(key)];
    return ids && ids.length === 1 ? ids[0] : fold(key);
  }
  // the keys one level under a top-level YAML mapping (`regions:`)
  function yamlKeys(text, top) {
    var keys = [], inside = false, indent = -1, head = new RegExp("^" + top + "\\s*:");
    String(text).split(/\r?\n/).forEach(function (line) {
      if (head.test(line)) { inside = true; indent = -1; return; }
      if (!inside || !line.trim() || /^\s*#/.test(line)) return;
      if (!/^\s/.test(line)) { inside = false; return; }
      var m = /^(\s*)(?:"([^"]*)"|'([^']*)'|([^\s#:"'{\[,][^#:]*?))\s*:(?:\s|$)/.exec(line);
      if (m && (indent < 0 || m[1].length === indent)) { indent = m[1].length; keys.push(m[2] || m[3] || m[4]); }
    });
    return keys;
  }
  function regionIds(text) {
    var p = positionOf(text);
    var keys = p && typeof p === "object" ? Object.keys(p.regions || {}) : yamlKeys(text, "regions");
    var ids = [];
    keys.forEach(function (k) { var id = idOf(D["region-names"], k); if (id && ids.indexOf(id) < 0) ids.push(id); });
    return ids;
  }
  function players(text) {
    var p = positionOf(text), out = [];
    if (p && typeof p === "object") out = Array.isArray(p.players) ? p.players.slice() : [];
    else {
      var m = /^players\s*:\s*\[([^\]]*)\]/m.exec(String(text)); // players: [Ludzie, Pielgrzymi]
      var items = m ? m[1].split(",") : [];
      if (!m) { // or a block list under players:
        var b = /^players\s*:\s*\n((?:[ \t]*-[^\n]*\n?)+)/m.exec(String(text));
        items = b ? b[1].split("\n").map(function (l) { return l.replace(/^\s*-\s*/, ""); }) : [];
      }
      items.forEach(function (x) { if (x.trim()) out.push(idOf(D["faction-names"], x)); });
    }
    out = out.map(function (f) { return idOf(D["faction-names"], f); });
    if (out.indexOf("trogs") < 0) out.push("trogs");
    return out;
  }
  function regionName(id) {
    var m = /^example-([a-z])$/.exec(id);
    if (m) return W["region-letter"].replace("{letter}", m[1].toUpperCase());
    return D.known[id] || id;
  }

  // --- the form, from the declaration ------------------------------------------------------------
  var form = el("form", {"class": "ha-form", novalidate: "novalidate"});
  // The table of the player's last question on the Ask page (described there with taps, no YAML),
  // offered first when there is one; a solo table of it is where the page starts.
  var asked = null;
  try { asked = JSON.parse(localStorage.getItem("havoc-table") || "null"); } catch (e) { asked = null; }
  if (!asked || typeof asked.position !== "object" || !asked.position) asked = null;
  var starts = D.examples.map(function (x, i) { return [String(i), x.title]; });
  if (asked) starts.unshift(["ask", W["from-ask"] + (asked.summary ? ": " + asked.summary : "")]);
  var examplePick = select(starts, asked && asked.position.variant === "solo" ? "ask" : "0");
  var area = el("textarea", {rows: "6", spellcheck: "false"});
  var decision = select(D.decisions.map(function (k) { return [k, W[k]]; }), D.decisions[0]);
  decision.id = "ht-decision";
  var fieldsBox = el("div", {"class": "ha-row"});
  var topErrors = el("div", {"class": "ha-top-errors", role: "alert", hidden: true});
  var askButton = el("button", {type: "submit", "class": "ha-ask", text: W.ask});
  var answerBox = el("section", {"class": "ha-answer", id: "ht-answer", "aria-live": "polite", tabindex: "-1", hidden: true});
  var inputs = {};

  function renderFields(values) {
    values = values || {};
    fieldsBox.replaceChildren();
    inputs = {};
    D.fields[decision.value].forEach(function (f) {
      var v = values[f.name], input;
      if (f.type === "region") {
        var opts = regionIds(area.value).map(function (id) { return [id, regionName(id)]; });
        if (!f.needed) opts.unshift(["", W["default"]]);
        input = select(opts, v === undefined ? (f.needed && opts.length ? opts[0][0] : "") : v);
        fieldsBox.appendChild(field(W[f.name], input, f.name));
      } else if (f.type === "count") {
        input = number(v);
        input.placeholder = f.needed ? "" : W["default"];
        fieldsBox.appendChild(field(W[f.name], input, f.name));
      } else if (f.type === "flag") {
        input = el("input", {type: "checkbox", id: "ht-f" + (++seq), checked: v === undefined ? f["default"] : v});
        input.dataset.name = f.name;
        fieldsBox.appendChild(el("div", {"class": "ha-field"}, [el("label", {"class": "ha-check", "for": input.id}, [input, document.createTextNode(" " + W[f.name])]),
          el("span", {"class": "ha-error", id: input.id + "-err", hidden: true})]));
      } else if (f.type === "objectives") {
        input = objectives(values.objectives || {});
        fieldsBox.appendChild(input);
      }
      inputs[f.name] = {spec: f, input: input};
    });
  }
  function objectives(given) {
    var table = el("table", {"class": "ha-objectives", id: "ht-objectives"});
    var head = el("tr", {}, [el("th", {text: ""})]);
    D.objectives.forEach(function (o) { head.appendChild(el("th", {scope: "col", text: W["obj-" + o]})); });
    table.appendChild(el("caption", {text: W.objectives}));
    table.appendChild(el("thead", {}, [head]));
    var body = el("tbody");
    players(area.value).forEach(function (f) {
      var row = el("tr", {}, [el("th", {scope: "row", text: D.factions[f] || f})]);
      D.objectives.forEach(function (o) {
        var i = number((given[f] || {})[o]);
        i.setAttribute("aria-label", (D.factions[f] || f) + ": " + W["obj-" + o]);
        i.dataset.faction = f; i.dataset.objective = o;
        row.appendChild(el("td", {}, [i]));
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    return el("div", {"class": "ha-field ha-wide"}, [table, el("span", {"class": "ha-error", id: "ht-objectives-err", hidden: true})]);
  }
  function useExample(i) {
    if (i === "ask" && asked) {
      area.value = JSON.stringify(asked.position, null, 1);
      renderFields(question());
      return;
    }
    var x = D.examples[i];
    if (!x) return;
    area.value = typeof x.position === "string" ? x.position : JSON.stringify(x.position, null, 1);
    decision.value = x.question.decide;
    renderFields(x.question);
  }

  // --- asking ------------------------------------------------------------------------------------
  function question() {
    var q = {ask: "trogs", decide: decision.value};
    Object.keys(inputs).forEach(function (name) {
      var f = inputs[name].spec, i = inputs[name].input;
      if (f.type === "region") { if (i.value) q[name] = i.value; }
      else if (f.type === "count") { var n = parseInt(i.value, 10); if (!isNaN(n)) q[name] = n; }
      else if (f.type === "flag") { if (i.checked !== f["default"]) q[name] = i.checked; }
      else if (f.type === "objectives") {
        var obj = {};
        i.querySelectorAll("input").forEach(function (c) {
          var n = parseInt(c.value, 10);
          if (isNaN(n)) return;
          obj[c.dataset.faction] = obj[c.dataset.faction] || {};
          obj[c.dataset.faction][c.dataset.objective] = n;
        });
        if (Object.keys(obj).length) q.objectives = obj;
      }
    });
    return q;
  }
  function clearErrors() {
    form.querySelectorAll(".ha-error").forEach(function (e) { e.hidden = true; e.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (e) { e.removeAttribute("aria-invalid"); });
    topErrors.hidden = true; topErrors.replaceChildren();
  }
  function mark(name, message) {
    var entry = inputs[name];
    var target = entry && (entry.spec.type === "objectives" ? document.getElementById("ht-objectives") : entry.input);
    var err = target && document.getElementById((entry.spec.type === "objectives" ? "ht-objectives" : target.id) + "-err");
    if (!err) {
      topErrors.hidden = false;
      topErrors.appendChild(el("p", {text: (name ? (W[name] || name) + ": " : "") + message}));
      return;
    }
    err.hidden = false;
    err.textContent = message;
    if (target.matches("input, select")) target.setAttribute("aria-invalid", "true");
  }
  function refused(body) {
    topErrors.hidden = false;
    topErrors.appendChild(el("p", {"class": "ha-lead", text: W.fix + " " + (body.message || "")}));
    (body.problems || []).forEach(function (p) {
      var name = p.field || "", said = p.where || name; // "where": the field in the reader's words
      if (p["in"] === "position" || !inputs[name]) {
        topErrors.appendChild(el("p", {text: (said ? said + ": " : "") + p.message}));
      } else mark(name, p.message);
    });
  }
  function show(d) {
    var nodes = [el("p", {"class": "ha-question-text"}, [el("strong", {text: d.question})])];
    var lines = el("ul", {"class": "ht-lines"}, (d.lines || []).map(function (l) { return el("li", {text: l}); }));
    nodes.push(lines);
    if (d["rule-title"]) nodes.push(el("p", {}, [el("strong", {text: W["decided-by"] + ": "}), document.createTextNode(d["rule-title"])]));
    if ((d["set-aside"] || []).length) {
      nodes.push(el("p", {"class": "ht-head", text: W["set-aside"] + ":"}));
      nodes.push(el("ul", {}, d["set-aside"].map(function (s) {
        return el("li", {text: (s["option-name"] || s.option) + " — " + (s["rule-title"] || s.rule) + ": " + s.reason});
      })));
    }
    if ((d.interpretations || []).length) {
      nodes.push(el("p", {"class": "ht-head", text: W.readings + ":"}));
      nodes.push(el("ul", {}, d.interpretations.map(function (i) { return el("li", {text: i.title || i.rule}); })));
    }
    answerBox.replaceChildren.apply(answerBox, nodes);
    answerBox.hidden = false;
  }
  function call(body) {
    var text = JSON.stringify(body);
    if (!useServer) return engine.request("POST", "/api/trogs", text, {lang: D.lang}).then(function (r) { return [r.status, r.body]; });
    return fetch(API + "trogs?lang=" + D.lang, {method: "POST", headers: {"Content-Type": "application/json"}, body: text})
      .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); });
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    clearErrors();
    var q = question(), missing = false;
    D.fields[decision.value].forEach(function (f) {
      if (f.needed && q[f.name] === undefined) { mark(f.name, W.needed); missing = true; }
    });
    if (missing) { box.dataset.state = "error"; return; }
    box.dataset.state = "busy";
    askButton.disabled = true;
    answerBox.hidden = false;
    answerBox.replaceChildren(el("p", {text: W.asking}));
    var started = performance.now();
    call({position: positionOf(area.value), question: q, lang: D.lang}).then(function (res) {
      box.dataset.ms = String(Math.round(performance.now() - started));
      if (res[0] === 200) { show(res[1]); box.dataset.state = "done"; }
      else { answerBox.hidden = true; refused(res[1] || {}); box.dataset.state = "error"; }
    }, function () {
      answerBox.hidden = true;
      topErrors.hidden = false;
      topErrors.appendChild(el("p", {text: W["engine-failed"]}));
      box.dataset.state = "error";
    }).then(function () {
      askButton.disabled = false;
      answerBox.scrollIntoView({block: "start"});
    });
  });

  examplePick.addEventListener("change", function () { useExample(examplePick.value === "ask" ? "ask" : parseInt(examplePick.value, 10)); });
  decision.addEventListener("change", function () { renderFields(question()); });
  area.addEventListener("change", function () { renderFields(question()); });
  form.appendChild(field(W.example, examplePick));
  // a table of one's own is described on the Ask page, with taps; it comes back here as a start
  form.appendChild(el("p", {"class": "ha-help"}, [el("a", {href: "assistant.html", id: "ht-describe", text: W.describe})]));
  form.appendChild(field(W.decision, decision));
  form.appendChild(fieldsBox);
  var paste = el("details", {"class": "ha-paste"}, [el("summary", {text: W.position})]);
  paste.appendChild(field(W.position, area));
  form.appendChild(paste);
  form.appendChild(topErrors);
  form.appendChild(askButton);
  box.appendChild(form);
  box.appendChild(answerBox);
  useExample(examplePick.value === "ask" ? "ask" : 0);

  if (!engine || location.protocol === "file:") {
    useServer = true;
    stateEl.textContent = W["engine-server"];
    return;
  }
  engine.onstate(function (s) {
    box.dataset.stage = s.stage;
    if (s.stage === "failed") {
      // why it could not start (damaged files, no room, no WebAssembly), then where questions go
      var why = W["engine-" + s.reason];
      useServer = true;
      stateEl.textContent = (why ? why + " " : "") + W["engine-server"];
      return;
    }
    stateEl.textContent = engine.say(s, W);
  });
  engine.start(ENGINE);
})();
