"""The solo Trogs' page (``trogs.html`` in each language): what the automated Trogs decide, asked
in a few taps and answered on the reader's device.

The form comes from the decisions' declarations (``solo/decisions/<name>.py``, typed in ``FIELDS``: what each decision is
asked with, and how), its starting points are the rulebook's stored solo examples, and the
question goes to ``POST /api/trogs`` of the site's in-browser engine (:mod:`havoc.assistant.webapi`), or of
``havoc serve`` where the engine cannot start: the same function as ``havoc trogs``. The page has
no source document: the site extension writes it from the theme's page template; the sidebar, the Ask page
and the solo rules link it. ``havoc-trogs.js`` builds the form.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from havoc.games.cry_havoc import words as site_words
from havoc.games.cry_havoc.ask_page import ENGINE_TEXTS, offered
from havoc.sphinxext import gamepage
from havoc.sphinxext import labels as L

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from havoc.sphinxext.context import Context

PAGE = "trogs"

WORDS = {
    key: L.label(text)
    for key, text in {
        "title": "The solo Trogs decide",
        # where it is worked out (on this device, offline) is the engine's status line's to say, truly
        "intro": "In the solo variant nobody plays the Trogs: they follow fixed priorities. Start from a "
        "rulebook example, pick the decision and ask: the answer says what the Trogs do, the priority "
        "that decided it and what it set aside.",
        "link": "The solo Trogs' decisions, worked out for you",
        "example": "Start from a rulebook example",
        "from-ask": "The table of your last question on the Ask page",
        "describe": "Describe your own table with taps on the Ask page; it is offered here afterwards.",
        "decision": "Decision",
        "move": "Where the Trogs move",
        "place": "Where the Trogs place their Units on the Battle objectives",
        "build": "What the Trogs build",
        "recruit": "Where the Trogs recruit",
        "tactics": "Whether the Trogs play the Tactic card",
        "prisoner": "Where the Trogs take their Prisoner from",
        "initiative": "Who has the initiative against the Trogs",
        "from": "From",
        "units": "Trog Units",
        "steps": "Steps they may go",
        "region": "Battle Region",
        "objectives": "Units on the Battle objectives",
        "both": "The Build icons pay for a Trap and a Brooding Pool",
        "tactic-text": "The card just drawn has Tactic text",
        "shifted-priorities": "Shifted Priorities has been played",
        "default": "as the rules say",
        "position": "The table (YAML or JSON)",
        "ask": "Ask",
        "asking": "Deciding…",
        "decided-by": "Decided by",
        "set-aside": "Set aside",
        "readings": "Our readings of open points that applied",
        "fix": "The question needs a fix:",
        "needed": "Needed for this question.",
        "region-letter": "Region {letter}",
        "obj-control": "Region Control",
        "obj-prisoners": "Capture Prisoners",
        "obj-attrition": "Attrition",
        **ENGINE_TEXTS,
    }.items()
}


def examples(ctx: Context) -> list[dict[str, Any]]:
    """The rulebook's stored solo examples: title, position and the Trogs' question."""
    from havoc.assistant.examples import is_extra

    rs = ctx.ruleset
    out = []
    for rule in rs.rules.values():
        for ex in rule.examples:
            if is_extra(rs, ex) and ex.query.get("ask") == "trogs":
                title = ctx.text(f"{ex.id}:title", ex.title, None)
                out.append(offered(title, ex, ctx.lang))
    return out


def page_body(ctx: Context) -> str:
    from havoc.games.cry_havoc.contract import FACTIONS, OBJECTIVES
    from havoc.games.cry_havoc.solo.engine import KINDS, form, get
    from havoc.games.cry_havoc.ui import vocabulary

    words = {k: ctx.label(v) for k, v in WORDS.items()}
    data = {
        "lang": ctx.lang,
        "words": words,
        "decisions": list(KINDS),
        "fields": {kind: form(get(kind)) for kind in KINDS},
        "objectives": list(OBJECTIVES),
        "factions": {f: ctx.label(site_words.VALUES[f]) for f in FACTIONS},
        "known": {k: ctx.label(v) for k, v in site_words.KNOWN_REGIONS.items()},
        "examples": examples(ctx),
        # an example's table names its Regions and factions: read as the engine reads them
        "region-names": {name: list(ids) for name, ids in vocabulary("regions").items()},
        "faction-names": {name: list(ids) for name, ids in vocabulary("factions").items()},
    }
    box, state = ("havoc-ask havoc-trogs", "havoc-trogs"), ("ht-state", "ht-state")
    return gamepage.page_body(words, box, state, data, compact=True)


def _ours(app: Sphinx) -> Context | None:
    return gamepage.ours(app, __package__)


def collect_pages(app: Sphinx) -> Any:
    ctx = _ours(app)
    if ctx is None or app.builder.format != "html":
        return
    yield PAGE, {"title": ctx.label(WORDS["title"]), "body": page_body(ctx)}, "page.html"


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    ctx = _ours(app)
    if ctx is None:
        return
    if pagename == PAGE:
        app.add_js_file("havoc-engine.js", loading_method="defer")
        app.add_js_file("havoc-trogs.js", loading_method="defer")
        app.add_css_file("havoc-ask.css")
    elif pagename in ("assistant", "rules/solo") and isinstance(context.get("body"), str):
        up = "../" * pagename.count("/")
        link = html.escape(ctx.label(WORDS["link"]))
        para = f'<p class="havoc-trogs-link"><a href="{up}{PAGE}.html">{link}</a></p>'
        # under the page's title, not above it: the title is what a reader (and a screen reader) meets first
        head, title_end, rest = context["body"].partition("</h1>")
        context["body"] = head + title_end + para + rest if title_end else para + context["body"]


def setup_site(app: Sphinx) -> None:
    """The solo Trogs' page, in the sidebar and linked from the Ask page and the solo rules."""
    app.connect("builder-inited", gamepage.lister(__package__, PAGE, WORDS["title"]))  # sidebar and sitemap
    app.connect("html-collect-pages", collect_pages)
    app.connect("html-page-context", on_page_context)
