/* havoc: glossary tooltips that work with a mouse, a keyboard and a finger, and the language choice.
 *
 * A link to a glossary term carries the definition in its title attribute (so it works without
 * this script). Here the title becomes a small popover: shown on hover and focus; on a touch
 * screen the first tap shows it and a second tap on the same term follows the link.
 */
(function () {
  "use strict";
  var tip = null;
  var current = null;
  var lastPointer = "mouse";

  function tooltip() {
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "havoc-tooltip";
      tip.className = "havoc-tooltip";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }

  function place(link, box) {
    var r = link.getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    box.style.left = "0px";
    box.style.top = "0px";
    var w = box.offsetWidth;
    var h = box.offsetHeight;
    var left = Math.min(Math.max(8, r.left), Math.max(8, width - w - 8));
    var top = r.bottom + 6;
    if (top + h > window.innerHeight && r.top - h - 6 > 0) top = r.top - h - 6;
    box.style.left = left + window.scrollX + "px";
    box.style.top = top + window.scrollY + "px";
  }

  function show(link) {
    var box = tooltip();
    box.textContent = link.getAttribute("data-havoc-tip");
    box.hidden = false;
    link.setAttribute("aria-describedby", box.id);
    current = link;
    place(link, box);
  }

  function hide() {
    if (tip) tip.hidden = true;
    if (current) current.removeAttribute("aria-describedby");
    current = null;
  }

  function init() {
    fold();
    drawerButtons();
    tabStops();
    window.addEventListener("resize", tabStops);
    document.addEventListener("toggle", tabStops, true); // a folded block has no width until opened
    document.querySelectorAll("a.havoc-term-ref[title]").forEach(function (link) {
      link.setAttribute("data-havoc-tip", link.getAttribute("title"));
      link.removeAttribute("title");
      link.addEventListener("pointerenter", function (ev) {
        if (ev.pointerType === "mouse") show(link);
      });
      link.addEventListener("pointerleave", function (ev) {
        if (ev.pointerType === "mouse" && current === link) hide();
      });
      link.addEventListener("focus", function () {
        if (lastPointer !== "touch") show(link);
      });
      link.addEventListener("blur", function () {
        if (current === link && lastPointer !== "touch") hide();
      });
      link.addEventListener("click", function (ev) {
        if (lastPointer === "touch" && current !== link) {
          ev.preventDefault();
          show(link);
        }
      });
    });
    document.addEventListener("pointerdown", function (ev) {
      lastPointer = ev.pointerType || "mouse";
      if (current && !ev.target.closest("a.havoc-term-ref") && !(tip && tip.contains(ev.target))) hide();
    }, true);
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") hide();
    });
    window.addEventListener("resize", function () {
      if (current) place(current, tooltip());
    });
    var switches = document.querySelectorAll("a[data-havoc-lang]");
    var pending = false;
    function keepAll() {
      pending = false;
      switches.forEach(keepPlace);
    }
    switches.forEach(function (link) {
      // the same place in the other language: the rule being read and the search words come along
      keepPlace(link);
      link.addEventListener("click", function () {
        keepPlace(link);
        try {
          localStorage.setItem("havoc-lang", link.getAttribute("data-havoc-lang"));
        } catch (e) {
          /* private mode: the root page falls back to the browser's language */
        }
      });
    });
    // the link always points at the place (also for "open in a new tab" and copying the link)
    function later() {
      if (!pending) {
        pending = true;
        window.requestAnimationFrame(keepAll);
      }
    }
    window.addEventListener("scroll", later, { passive: true });
    window.addEventListener("hashchange", function () {
      moved = false;
      later();
    });
    ["wheel", "touchmove", "keydown"].forEach(function (name) {
      window.addEventListener(name, function () {
        moved = true;
      }, { passive: true });
    });
  }

  function keepPlace(link) {
    var base = link.getAttribute("data-havoc-base");
    if (base === null) {
      base = link.getAttribute("href").split("#")[0].split("?")[0];
      link.setAttribute("data-havoc-base", base);
    }
    link.setAttribute("href", base + window.location.search + placeHash());
  }

  // The sticky header's bottom edge: what is above it is hidden behind it.
  function headerBottom() {
    var header = document.querySelector(".mobile-header");
    if (!header || header.offsetParent === null) return 0;
    var r = header.getBoundingClientRect();
    return r.bottom > 0 ? r.bottom : 0;
  }

  // Rule and section ids are the same in every language, so the rule at the top of the viewport
  // (or the nearest one above it) is the reader's place, whether or not the address names it.
  var PLACES = "section.havoc-section[id], section.havoc-rule[id]";
  var moved = false; // has the reader scrolled by hand since the page (or its anchor) was opened?

  function placeHash() {
    var top = headerBottom();
    var hash = window.location.hash;
    var id = hash ? decodeURIComponent(hash.slice(1)) : "";
    var named = id ? document.getElementById(id) : null;
    var seen = false;
    if (named && !moved) return hash; // still where the address put the reader (maybe scrolling there)
    if (named) {
      var r = named.getBoundingClientRect();
      seen = r.top < window.innerHeight && r.bottom > top;
      // the reader is at the place the address names (a term, an example or a rule): keep it
      if (seen && r.top >= top - 8) return hash;
    }
    var place = null;
    if (window.scrollY >= 8) {
      var line = top + Math.min(48, (window.innerHeight - top) / 4);
      var all = document.querySelectorAll(PLACES);
      for (var i = 0; i < all.length; i++) {
        // document order is top-to-bottom order: the last one that starts above the line is the place
        if (all[i].getBoundingClientRect().top <= line) place = all[i];
        else break;
      }
    }
    if (seen && (!place || place.contains(named))) return hash; // the named place is the finer one
    return place ? "#" + encodeURIComponent(place.id) : "";
  }

  // Examples and rule details are folded on a phone (a rule page stays short at the table) and
  // open on a wide screen; printing always shows them in full.
  function unfoldAll() {
    document.querySelectorAll("details.havoc-fold").forEach(function (d) {
      d.setAttribute("data-havoc-was-open", d.open ? "1" : "0");
      d.open = true;
    });
  }
  function refold() {
    document.querySelectorAll("details.havoc-fold[data-havoc-was-open]").forEach(function (d) {
      d.open = d.getAttribute("data-havoc-was-open") === "1";
      d.removeAttribute("data-havoc-was-open");
    });
  }
  function fold() {
    var wide = window.matchMedia("(min-width: 50em)").matches;
    document.querySelectorAll("details.havoc-fold").forEach(function (d) {
      d.open = wide;
    });
    openTarget();
    document.documentElement.classList.add("havoc-folded"); // havoc.css stops faking the fold
  }
  function openTarget() {
    var id = window.location.hash ? decodeURIComponent(window.location.hash.slice(1)) : "";
    var target = id ? document.getElementById(id) : null;
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === "DETAILS" && el.classList.contains("havoc-fold")) el.open = true;
    }
  }
  // furo's menu and contents buttons are labels of hidden checkboxes, which a keyboard never
  // reaches. Each gets a real button inside: a tap or Enter toggles its drawer (from a keyboard,
  // going into it); Escape closes an open drawer and comes back to its button.
  function drawerButtons() {
    var buttons = [];
    document.querySelectorAll("label.nav-overlay-icon, label.toc-overlay-icon").forEach(function (label) {
      var box = document.getElementById(label.getAttribute("for") || "");
      var drawer = document.querySelector(box && box.id === "__toc" ? ".toc-drawer" : ".sidebar-drawer");
      if (!box || !drawer) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "havoc-drawer-button";
      if (box.getAttribute("aria-label")) button.setAttribute("aria-label", box.getAttribute("aria-label"));
      while (label.firstChild) button.appendChild(label.firstChild);
      label.appendChild(button);
      function opened(open) {
        box.checked = open;
        buttons.forEach(function (b) { if (b.box === box) b.button.setAttribute("aria-expanded", String(open)); });
      }
      buttons.push({button: button, box: box, drawer: drawer, opened: opened});
      button.setAttribute("aria-expanded", String(box.checked));
      box.addEventListener("change", function () { opened(box.checked); }); // the overlay closes it too
      button.addEventListener("click", function (ev) {
        ev.preventDefault();
        opened(!box.checked);
        var first = box.checked && ev.detail === 0 && drawer.querySelector("input:not([type=hidden]), a[href]");
        if (first) first.focus(); // a keyboard's click (no pointer) goes on into the drawer
      });
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.key !== "Escape") return;
      buttons.forEach(function (b) {
        if (!b.box.checked) return;
        var inside = b.drawer.contains(document.activeElement);
        b.opened(false);
        if (inside && b.button.offsetParent) b.button.focus();
      });
    });
  }

  // A box that scrolls (a wide chart or table, a long line of code on a phone) is a tab stop, so a
  // keyboard can scroll it too; one that fits is not (a stop that does nothing). Checked again
  // when the width changes, as pydata-sphinx-theme does for its code blocks.
  function tabStops() {
    document.querySelectorAll("pre, .havoc-chart-scroll, div.table-wrapper").forEach(function (box) {
      var style = getComputedStyle(box);
      var scrolls = (/auto|scroll/.test(style.overflowX) && box.scrollWidth > box.clientWidth + 1) ||
        (/auto|scroll/.test(style.overflowY) && box.scrollHeight > box.clientHeight + 1);
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("data-havoc-scrolls", "");
      } else if (!scrolls && box.hasAttribute("data-havoc-scrolls")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-havoc-scrolls");
      }
    });
  }
  window.addEventListener("hashchange", openTarget);
  window.addEventListener("beforeprint", unfoldAll);
  window.addEventListener("afterprint", refold);

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
