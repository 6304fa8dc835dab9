/* havoc: the Advanced Cry Havoc 2 chart lookup page. Builds a small form per chart from the page's
 * JSON (choices read from the charts at build time, words in the page's language) and asks the
 * site's in-browser engine (havoc-engine.js: POST /api/charts?ruleset=…), which answers with the
 * same JSON as `havoc charts … --json`. Nothing is typed by name: weapons, statuses and modifier
 * lines are choices; only numbers are typed. */
(function () {
  "use strict";
  var box = document.getElementById("havoc-charts");
  if (!box) return;
  var D = JSON.parse(document.getElementById("havoc-charts-data").textContent);
  var W = D.words;
  var stateEl = document.getElementById("hc-state");
  var engine = window.havocEngine;
  var seq = 0;

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "hidden" || k === "checked" || k === "required") { if (attrs[k]) e[k] = true; }
      else e.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function field(label, input) {
    var id = "hc-f" + (++seq);
    input.id = id;
    return el("div", {"class": "hc-field"}, [el("label", {"for": id, text: label}), input]);
  }
  function number(name, min, value, required) {
    var a = {type: "number", name: name, inputmode: "numeric", step: "1"};
    if (min !== null) a.min = String(min);
    if (value !== null) a.value = String(value);
    if (required) a.required = true;
    return el("input", a);
  }
  function select(name, options) {
    return el("select", {name: name}, options.map(function (o) { return el("option", {value: o, text: o}); }));
  }
  function radios(name, options, legend) {
    var set = el("fieldset", {"class": "hc-radios"}, [el("legend", {text: legend})]);
    options.forEach(function (o, i) {
      var id = "hc-f" + (++seq);
      set.appendChild(el("span", {"class": "hc-choice"}, [
        el("input", {type: "radio", name: name, value: o[0], id: id, checked: i === 0}),
        el("label", {"for": id, text: o[1]})
      ]));
    });
    return set;
  }
  function lines(name, key, legend) {
    var set = el("fieldset", {"class": "hc-lines", "data-name": name}, [el("legend", {text: legend})]);
    fillLines(set, key);
    return set;
  }
  function fillLines(set, key) {
    Array.prototype.slice.call(set.querySelectorAll(".hc-line")).forEach(function (n) { n.remove(); });
    D.lines[key].forEach(function (line) {
      var id = "hc-f" + (++seq);
      var text = line.value + "  " + line.name;
      var input = line.per
        ? el("select", {id: id, "data-line": line.name, "class": "hc-count", "aria-label": line.name + " (" + W.per + ")"},
            [0, 1, 2, 3, 4, 5, 6].map(function (n) { return el("option", {value: String(n), text: n ? "×" + n : "—"}); }))
        : el("input", {type: "checkbox", id: id, "data-line": line.name});
      set.appendChild(el("div", {"class": "hc-line"}, [input, el("label", {"for": id, text: text})]));
    });
  }
  function chosen(form, name) {
    var set = form.querySelector('.hc-lines[data-name="' + name + '"]');
    var out = [];
    set.querySelectorAll("[data-line]").forEach(function (i) {
      if (i.type === "checkbox" && i.checked) out.push(i.dataset.line);
      else if (i.tagName === "SELECT" && i.value !== "0") out.push(i.dataset.line + ":" + i.value);
    });
    return out;
  }
  function value(form, name) {
    var i = form.elements[name];
    if (!i) return null;
    var v = i.value === undefined ? null : String(i.value).trim();
    return v === "" ? null : v;
  }

  var FORMS = {
    range: function () {
      return [field(W.weapon, select("weapon", D.weapons)), field(W.distance, number("distance", 1, 1, true))];
    },
    courage: function () {
      return [field(W.def, number("def", 1, 10, true)), radios("side", [["foot", W.foot], ["mounted", W.mounted]], W.side)];
    },
    impairment: function () {
      return [field(W.roll, number("roll", 0, 5, true)), lines("situations", "impairment", W.lines), field(W.mod, number("mod", null, null))];
    },
    waking: function () {
      return [field(W.roll, number("roll", 0, 5, true)), lines("situations", "waking", W.lines), field(W.mod, number("mod", null, null))];
    },
    morale: function () {
      return [
        radios("check", [["morale", W["check-morale"]], ["recovery", W["check-recovery"]]], W.check),
        lines("situations", "morale", W.lines),
        field(W["roll-optional"], number("roll", 0, null)),
        field(W["courage-optional"], number("courage", 1, null))
      ];
    },
    status: function () {
      return [field(W["status-name"], select("name", D.statuses))];
    },
    combat: function () {
      var mode = radios("mode", [["close", W.close], ["ranged", W.ranged]], W.combat);
      var animal = el("input", {type: "checkbox", name: "animal", id: "hc-f" + (++seq)});
      var target = lines("target", "close-target", W.target);
      var attacker = lines("attacker", "close-attacker", W.attacker);
      mode.addEventListener("change", function (ev) {
        fillLines(target, ev.target.value + "-target");
        fillLines(attacker, ev.target.value + "-attacker");
      });
      return [mode, el("div", {"class": "hc-line"}, [animal, el("label", {"for": animal.id, text: W.animal})]), target, attacker];
    }
  };

  function request(chart, form) {
    var r = {chart: chart, lang: D.lang};
    if (chart === "range") { r.weapon = value(form, "weapon"); r.distance = value(form, "distance"); }
    else if (chart === "courage") { r.def = value(form, "def"); r.mounted = form.elements.side.value === "mounted"; }
    else if (chart === "impairment" || chart === "waking") {
      r.roll = value(form, "roll"); r.situations = chosen(form, "situations");
      r.mods = value(form, "mod") === null ? [] : [value(form, "mod")];
    } else if (chart === "morale") {
      r.check = form.elements.check.value; r.situations = chosen(form, "situations");
      r.roll = value(form, "roll"); r.courage = value(form, "courage");
    } else if (chart === "status") { r.name = value(form, "name"); }
    else {
      r.ranged = form.elements.mode.value === "ranged"; r.animal = form.elements.animal.checked;
      r.target = chosen(form, "target"); r.attacker = chosen(form, "attacker");
    }
    return r;
  }

  var out = el("div", {"class": "hc-answer", id: "hc-answer", "aria-live": "polite"});
  function show(kind, nodes) {
    out.className = "hc-answer hc-" + kind;
    out.replaceChildren.apply(out, nodes);
  }
  function answer(body) {
    var rules = el("ul", {"class": "hc-rules"}, (body.rules || []).map(function (id) {
      return el("li", {}, [el("a", {href: "rule/" + id + ".html", text: D.titles[id] || id})]);
    }));
    var text = String(body.text).split("\n");
    if (rules.childNodes.length && text.length > 1) text.pop(); // the citation line: linked below instead
    show("ok", [el("h2", {text: W.answer}), el("pre", {"class": "hc-text", text: text.join("\n")}),
      el("p", {"class": "hc-rules-head", text: W.rules}), rules]);
  }
  function refused(body) {
    var items = (body.problems || []).map(function (p) {
      // "where": the field in the reader's words (else the request's own names for it)
      var said = p.where || [p["in"], p.field].filter(Boolean).join(": ");
      return el("li", {text: (said ? said + ": " : "") + p.message});
    });
    show("error", [el("p", {text: W.fix + " " + (body.message || "")}), el("ul", {}, items)]);
  }

  function ask(chart, form) {
    show("busy", [el("p", {text: W.looking})]);
    var started = performance.now();
    var body = JSON.stringify(request(chart, form));
    box.dataset.request = body; // what was asked, beside its answer (the browser test reads both)
    engine.request("POST", "/api/charts", body, {ruleset: D.ruleset, lang: D.lang})
      .then(function (res) {
        box.dataset.ms = String(Math.round(performance.now() - started));
        if (res.status === 200) answer(res.body); else refused(res.body || {});
      }, function () { show("error", [el("p", {text: W["engine-failed"]})]); });
  }

  var picker = select("chart", []);
  Object.keys(FORMS).forEach(function (c) { picker.appendChild(el("option", {value: c, text: W[c]})); });
  var forms = {};
  var holder = el("div", {"class": "hc-forms"});
  Object.keys(FORMS).forEach(function (c) {
    var form = el("form", {"class": "hc-form", "data-chart": c, hidden: c !== "range", novalidate: "novalidate"},
      FORMS[c]().concat([el("button", {type: "submit", "class": "hc-go", text: W.lookup})]));
    form.addEventListener("submit", function (ev) { ev.preventDefault(); ask(c, form); });
    forms[c] = form;
    holder.appendChild(form);
  });
  picker.addEventListener("change", function () {
    Object.keys(forms).forEach(function (c) { forms[c].hidden = c !== picker.value; });
    show("idle", []);
  });
  box.appendChild(field(W.chart, picker));
  box.appendChild(holder);
  box.appendChild(out);

  if (!engine || location.protocol === "file:") {
    stateEl.textContent = W[location.protocol === "file:" ? "engine-file" : "engine-start"];
    box.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    return;
  }
  var warmed = false;
  engine.onstate(function (s) {
    box.dataset.stage = s.stage;
    if (s.stage === "ready" && !warmed) {
      // one lookup nobody sees, sent at once: the engine compiles the charts' code (and their
      // names' stemmer) while the reader fills in the form, not after the first tap
      warmed = true;
      var warm = {chart: "range", weapon: D.weapons[0], distance: "1", lang: D.lang};
      engine.request("POST", "/api/charts", JSON.stringify(warm), {ruleset: D.ruleset, lang: D.lang}).catch(function () {});
    }
    if (s.stage !== "failed") { stateEl.textContent = engine.say(s, W); return; }
    var key = "engine-" + (s.reason === "no-wasm" || s.reason === "storage" || s.reason === "damaged" ? s.reason : "start");
    if (W[key]) stateEl.textContent = W[key];
  });
  engine.start(D.engine, D.ruleset); // the worker loads this ruleset first, not the default one
})();
