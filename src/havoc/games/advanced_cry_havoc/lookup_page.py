"""The chart lookup page of the Advanced Cry Havoc 2 site (``lookup.html`` in each language).

A small form per chart whose choices come from the charts themselves (weapon names, statuses,
modifier lines in the build's language), answered on the reader's device by the site's
in-browser engine (``POST /api/charts?ruleset=…`` of :mod:`havoc.assistant.webapi`, the same function as
``havoc charts … --json``). The page has no source document: the site extension writes it from
the theme's page template; the sidebar of every page and the home page link it. ``havoc-charts.js`` builds the forms.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from havoc.games.advanced_cry_havoc import tables as T
from havoc.sphinxext import gamepage
from havoc.sphinxext import labels as L

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from havoc.sphinxext.context import Context

PAGE = "lookup"
STATIC = Path(__file__).resolve().parent / "static"

WORDS = {
    key: L.label(text)
    for key, text in {
        "title": "Chart lookups",
        # where it is worked out (on this device, offline) is the engine's status line's to say, truly
        "intro": "Pick a chart, describe the situation and look it up. The answer is read from the "
        "same charts as this site's tables and names the rules it read.",
        "home-link": "Look up a chart: range, courage, modifiers…",
        "chart": "Chart",
        "side": "Mounted or on foot",
        "range": "Range of a weapon",
        "courage": "Courage",
        "impairment": "Impairment",
        "waking": "Waking up",
        "morale": "Morale or recovery check",
        "status": "Character status",
        "combat": "Combat: shifts and modifiers",
        "weapon": "Weapon",
        "distance": "Distance in hexes",
        "def": "DEF factor",
        "mounted": "Mounted",
        "foot": "On foot",
        "roll": "Die roll",
        "roll-optional": "Die roll (optional)",
        "courage-optional": "Courage (optional)",
        "mod": "Another modifier (a number)",
        "lines": "Modifier lines that apply",
        "per": "how many",
        "check": "Check",
        "check-morale": "Morale check",
        "check-recovery": "Recovery check",
        "status-name": "Status",
        "ranged": "Ranged combat",
        "close": "Close combat",
        "animal": "The target is an animal (or a mount)",
        "target": "The target's situation (column shifts)",
        "attacker": "The attacker's situation (die-roll modifiers)",
        "lookup": "Look up",
        "looking": "Looking up…",
        "answer": "Answer",
        "rules": "Rules read",
        "fix": "The lookup needs a fix:",
        "engine-loading": "Starting the lookups on this device…",
        "engine-runtime": "Loading the lookups (only the first time takes long; then they work without a network)…",
        "engine-engine": "Unpacking the rules engine…",
        "engine-rules": "Reading the rules…",
        "engine-download": "Downloading the lookups: {percent}% (only on the first visit; then they work without a network)…",
        "engine-ready": "The lookups run on this device and work without a network.",
        "engine-ready-keeping": "The lookups run on this device. Keeping them for use without a network…",
        "engine-no-wasm": "This browser cannot run the lookups (it has no WebAssembly).",
        "engine-storage": "The lookups could not start: this device has no room left for them.",
        "engine-start": "The lookups could not start in this browser.",
        "engine-damaged": "The lookups could not start: their files arrived damaged. Reload the page later to try again.",
        "engine-failed": "The lookup did not answer. Try again, or reload the page.",
        "engine-file": "Opened as a file, this page cannot start the lookups: open it from the site.",
    }.items()
}

# The modifier charts of each form field (rule IDs are in tables.py, the rule data in rules/).
LINES = {
    "impairment": T.IMPAIRMENT_MODS,
    "waking": T.WAKING_MODS,
    "morale": T.MORALE_MODS,
    "close-target": T.CC_SHIFTS,
    "close-attacker": T.CC_MODS,
    "ranged-target": T.RANGED_SHIFTS,
    "ranged-attacker": T.RANGED_MODS,
}


def choices(ctx: Context) -> dict[str, Any]:
    """Each chart's lines as the form offers them: the name in the build's language (the lookup
    matches it by its words), whether it takes a count, and its value as the chart prints it."""
    rs, lang = ctx.ruleset, ctx.lang

    def cell(rule_id: str, text: str) -> str:
        return ctx.translator.text(f"{rule_id}:table", text) if lang != "en" else text

    def names(rule_id: str) -> list[str]:
        seen: list[str] = []
        for row in T.table(rs, rule_id).rows:
            if cell(rule_id, row[0]) not in seen:
                seen.append(cell(rule_id, row[0]))
        return seen

    per = str(rs.param("per-mark"))
    lines = {}
    for field, rule_id in LINES.items():
        t = T.table(rs, rule_id)
        lines[field] = [
            {"name": cell(rule_id, row[0]), "value": cell(rule_id, row[1]), "per": len(row) > 2 and row[2] == per}
            for row in t.rows
        ]
    return {"weapons": names(T.WEAPONS), "statuses": names(T.STATUS), "lines": lines}


def engine_base(ctx: Context) -> str:
    """The site's ``_engine/`` from this ruleset's language folder (the engine is shared)."""
    from havoc.engine import rulebook

    where = rulebook.site_path(ctx.ruleset.id)
    depth = 1 + (len(where.split("/")) if where else 0)
    return "../" * depth + "_engine/"


def page_body(ctx: Context) -> str:
    words = {k: ctx.label(v) for k, v in WORDS.items()}
    rules = sorted({*LINES.values(), T.WEAPONS, T.POWER, T.OPEN, T.COURAGE, T.IMPAIRMENT, T.WAKING, T.STATUS})
    rules += [T.STATUS_OPEN, T.MORALE_READING, T.MORALE_COURAGE, T.COMBAT_TABLE]
    data = {
        "lang": ctx.lang,
        "ruleset": ctx.ruleset.id,
        "engine": engine_base(ctx),
        "words": words,
        "titles": {r: ctx.title(r) for r in rules if r in ctx.ruleset.rules},
        **choices(ctx),
    }
    return gamepage.page_body(words, ("havoc-charts", "havoc-charts"), ("havoc-charts-state", "hc-state"), data)


def _ours(app: Sphinx) -> Context | None:
    return gamepage.ours(app, __package__)


def collect_pages(app: Sphinx) -> Any:
    ctx = _ours(app)
    if ctx is None or app.builder.format != "html":
        return
    title = ctx.label(WORDS["title"])
    yield PAGE, {"title": title, "body": page_body(ctx), "havoc_lookup_page": True}, "page.html"


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    ctx = _ours(app)
    if ctx is None:
        return
    if pagename == PAGE:
        app.add_js_file("havoc-engine.js", loading_method="defer")
        app.add_js_file("havoc-charts.js", loading_method="defer")
        app.add_css_file("havoc-charts.css")
    elif pagename == app.config.root_doc and isinstance(context.get("body"), str):
        link = html.escape(ctx.label(WORDS["home-link"]))
        context["body"] = f'<p class="havoc-charts-link"><a href="{PAGE}.html">{link}</a></p>' + context["body"]


def setup_site(app: Sphinx) -> None:
    """What Advanced Cry Havoc 2 adds to its site: the chart lookup page, in the sidebar and linked from its home."""
    app.connect("builder-inited", gamepage.lister(__package__, PAGE, WORDS["title"]))  # sidebar and sitemap
    app.connect(
        "config-inited", gamepage.static_adder(__package__, STATIC), priority=600
    )  # after the site's own (a broken ruleset stops there)
    app.connect("html-collect-pages", collect_pages)
    app.connect("html-page-context", on_page_context)
