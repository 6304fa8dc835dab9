"""The "Ask the rules" page: a form that builds a position and a question, and asks ``havoc serve``.

The directive ``havoc-ask`` writes a container and one JSON block: the interface words in the
build's language (site catalog labels, declared here), the vocabulary of the position format
(factions, phases, objectives, question kinds) and, filled in when the page is written, a link
to every rule's anchor on the site. ``havoc-ask.js`` builds the form from it; the page loads
nothing from the internet. Opened as plain files (no server answers ``/api/health``) it says how
to start the server.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from havoc.games.cry_havoc import words as site_words
from havoc.sphinxext import labels as L
from havoc.sphinxext.context import get_context

if TYPE_CHECKING:
    from sphinx.application import Sphinx

LINKS_MARK = "@HAVOC_RULE_LINKS@"

# The question kinds the form offers, in the order a player needs them (all are in QUERY_KINDS).
FORM_KINDS = ("legal", "move", "recruit", "build", "activate", "battle", "retreat", "prisoners", "score", "discard")

# The six Region names known from the rulebook's examples; others are free.
KNOWN_REGIONS = {k: L.label(v) for k, v in site_words.KNOWN_REGIONS.items()}
VALUES = {k: L.label(v) for k, v in site_words.VALUES.items()}

WORDS = {
    key: L.label(text)
    for key, text in {
        "table": "The table",
        "players": "Players",
        "round": "Round",
        "phase": "Phase",
        "turn": "Whose turn",
        "vp": "Victory Points",
        "hand": "Cards in hand",
        "reserve": "Units in the Reserve",
        "prisoners-of": "Prisoners held",
        "regions": "Regions",
        "region-name": "Region name",
        "region-name-help": "A name of your own (e.g. north) or a known one from the list.",
        "add-region": "Add a Region",
        "remove-region": "Remove this Region",
        "units-of": "Units",
        "control": "Control",
        "battle-token": "Battle token",
        "attacker": "Attacker",
        "crystals": "Crystals",
        "structure": "Structure",
        "structure-owner": "Structure owner",
        "hq": "HQ of",
        "neighbours": "Neighbours",
        "names-help": "Region names, separated by commas.",
        "none": "none",
        "paste": "Or paste a position (YAML or JSON)",
        "use-paste": "Ask about the pasted position instead of the form",
        "question": "The question",
        "kind": "What do you want to know?",
        "faction": "Who asks",
        "whose-turn": "whose turn it is",
        "from": "From",
        "to": "To",
        "via": "Through",
        "units": "How many Units",
        "points": "Points on the discarded cards",
        "region": "Region",
        "structure-type": "Structure type",
        "cost": "Cost of the Structures",
        "activations": "Already activated in this action",
        "moved": "These Units entered the Region earlier in this action",
        "objectives": "Units on the Battle objectives",
        "obj-control": "Region Control",
        "obj-prisoners": "Capture Prisoners",
        "obj-attrition": "Attrition",
        "ask": "Ask",
        "share": "Copy a link to this position",
        "copied": "Link copied",
        "asking": "Asking…",
        "answer": "Answer",
        "figures": "Figures",
        "hint": "Hint",
        "fixes": "It would be allowed with",
        "rules": "Deciding rules",
        "fix-fields": "Some fields need fixing; see the marks.",
        "unreachable": "The assistant's server did not answer.",
        "offline": "This page asks the assistant's server, and none is running here.",
        "offline-how": "Start it in the project folder with the command below, then open this page from the address it prints:",
        "example-note": "Invented Region names are fine: the printed map is not in our sources.",
        "yes": "yes",
        "no": "no",
        "kind-legal": "What can I do now?",
        "engine-loading": "Starting the assistant on this device…",
        "engine-runtime": "Loading the assistant (about 10 MB the first time; then it works without a network)…",
        "engine-engine": "Unpacking the rules engine…",
        "engine-rules": "Reading the rules…",
        "engine-ready": "The assistant runs on this device and works without a network.",
        "engine-no-wasm": "This browser cannot run the assistant (it has no WebAssembly).",
        "engine-storage": "The assistant could not start: this device has no room left for it.",
        "engine-start": "The assistant could not start in this browser.",
        "engine-server": "Asking the assistant's server instead.",
        "engine-failed": "The assistant did not answer this question. Try again, or reload the page.",
    }.items()
}


# Kinds whose form label is a question rather than the kind's plain name.
KIND_LABELS = {
    "legal": WORDS["kind-legal"],
    "battle": L.label("Who wins the Battle?"),
    "prisoners": L.label("Prisoners: buy back"),
    "score": L.label("Scoring"),
    "discard": L.label("Discard down to the hand limit"),
}


class AskDirective(SphinxDirective):
    """``{havoc-ask}``: the assistant's form (no content, no options)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from havoc.games.cry_havoc.contract import FACTIONS, OBJECTIVES, PHASES

        ctx = get_context(self.env)
        loc = self.get_location()

        def tr(msgid: str) -> str:
            return ctx.label(msgid, loc)

        data: dict[str, Any] = {
            "lang": ctx.lang,
            "words": {k: tr(v) for k, v in WORDS.items()},
            "factions": {f: tr(VALUES[f]) for f in FACTIONS},
            "phases": {p: tr(VALUES[p]) for p in PHASES},
            "objectives": list(OBJECTIVES),
            "kinds": {k: tr(KIND_LABELS.get(k) or VALUES[k]) for k in FORM_KINDS},
            "known": {k: tr(v) for k, v in KNOWN_REGIONS.items()},
            "links": LINKS_MARK,
        }
        blob = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
        blob = blob.replace(json.dumps(LINKS_MARK), LINKS_MARK)
        words = data["words"]
        markup = (
            '<div class="havoc-ask" id="havoc-ask">'
            f'<script type="application/json" id="havoc-ask-data">{blob}</script>'
            f'<noscript><p class="havoc-ask-offline">{html.escape(words["offline"])}</p></noscript>'
            '<div class="havoc-ask-offline" id="ha-offline" hidden role="status">'
            f"<p>{html.escape(words['offline'])} {html.escape(words['offline-how'])}</p>"
            "<pre><code>havoc serve</code></pre></div>"
            "</div>"
        )
        return [nodes.raw("", markup, format="html")]


def on_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    body = context.get("body")
    if not isinstance(body, str) or LINKS_MARK not in body:
        return
    domain: Any = app.env.get_domain("havoc")
    links = {}
    for (kind, name), obj in domain.objects.items():
        if kind == "rule":
            links[name] = f"{app.builder.get_relative_uri(pagename, obj.docname)}#{obj.anchor}"
    context["body"] = body.replace(LINKS_MARK, json.dumps(links, ensure_ascii=False).replace("</", "<\\/"))
    app.add_js_file("havoc-engine.js", loading_method="defer")  # the in-browser engine, before the page uses it
    app.add_js_file("havoc-ask.js", loading_method="defer")
    app.add_css_file("havoc-ask.css")


def setup_site(app: Sphinx) -> None:
    """What Cry Havoc adds to the site extension: the ``havoc-ask`` directive of the Ask page."""
    app.add_directive("havoc-ask", AskDirective)
    app.connect("html-page-context", on_page_context)
