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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from havoc.games.cry_havoc import words as site_words
from havoc.sphinxext import gamepage
from havoc.sphinxext import labels as L
from havoc.sphinxext.context import get_context

if TYPE_CHECKING:
    from sphinx.application import Sphinx

LINKS_MARK = "@HAVOC_RULE_LINKS@"
STATIC = Path(__file__).resolve().parent / "static"  # the page's script and styles (the game's, not the engine's)

# The question kinds first in the form's list, in the order a player needs them; every other
# declared kind (registry.all_kinds()) follows in the vocabulary's order, so none is left out.
FIRST_KINDS = ("legal", "move", "end-of-move", "battle", "score", "how-many", "setup")
# The six Region names known from the rulebook's examples; others are free.
KNOWN_REGIONS = {k: L.label(v) for k, v in site_words.KNOWN_REGIONS.items()}
VALUES = {k: L.label(v) for k, v in site_words.VALUES.items()}
KEYS = {k: L.label(v) for k, v in site_words.KEYS.items()}

# The in-browser engine's status lines, shared by Cry Havoc's pages it answers (the Ask and Trogs pages).
ENGINE_TEXTS = {
    "engine-loading": "Starting the assistant on this device…",
    "engine-runtime": "Loading the assistant (only the first time takes long; then it works without a network)…",
    "engine-engine": "Unpacking the rules engine…",
    "engine-rules": "Reading the rules…",
    "engine-download": "Downloading the assistant: {percent}% (only on the first visit; then it works without a network)…",
    "engine-ready": "The assistant runs on this device and works without a network.",
    "engine-ready-keeping": "The assistant runs on this device. Keeping it for use without a network…",
    "engine-no-wasm": "This browser cannot run the assistant (it has no WebAssembly).",
    "engine-storage": "The assistant could not start: this device has no room left for it.",
    "engine-start": "The assistant could not start in this browser.",
    "engine-damaged": "The assistant could not start: its files arrived damaged. Reload the page later to try again.",
    "engine-server": "Asking the assistant's server instead.",
    "engine-failed": "The assistant did not answer this question. Try again, or reload the page.",
}

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
        "of": "Which number",
        "item": "What is placed",
        "experience": "The players' experience",
        "skill": "Skill",
        "deck": "Deck",
        "card-terrain": "Terrain of the Tactics card",
        "position": "Spot on the Upcoming Initiative track",
        "during-action": "Asked in the middle of an action",
        "enabled-by": "Who enabled scoring this round",
        "final-round": "This is the final round",
        "trog-token": "Trog token",
        "exploration": "An Exploration token lies here",
        "start": "Describe the table",
        "start-help": "Start from a situation, then change what differs.",
        "start-blank": "An empty table",
        "tpl-battle": "A Battle in a Region",
        "tpl-actions": "My turn in the Actions phase",
        "tpl-prisoners": "The Prisoners phase",
        "tpl-round5": "The end of round 5",
        "tpl-solo": "A solo table (against the Trogs)",
        "region-letter": "Region {letter}",
        "needed": "Needed for this question.",
        "unknown-structure": "no Structure is called “{name}”: pick one from the list.",
        "examples": "Or a rulebook example",
        "objectives": "Units on the Battle objectives",
        "obj-control": "Region Control",
        "obj-prisoners": "Capture Prisoners",
        "obj-attrition": "Attrition",
        "capture-from": "Objective the Prisoner is taken from",
        "ask": "Ask",
        "share": "Copy a link to this position",
        "copied": "Link copied",
        "asking": "Asking…",
        "answer": "Answer",
        "figures": "Figures",
        "hint": "Hint",
        "fixes": "It would be allowed",
        "depends": "It depends on",
        "assumed": "Assumed, as the table does not say",
        "as-of": "Rules as of",
        "as-of-today": "today: the rulebook with every later ruling",
        "as-of-said": "Answered by the rules then in force",
        "assumed-tap": "Tap one to set it on the table.",
        "rules": "Deciding rules",
        "fix-fields": "Some fields need fixing; see the marks.",
        "unreachable": "The assistant's server did not answer.",
        "offline": "This page asks the assistant's server, and none is running here.",
        "offline-how": "Start it in the project folder with the command below, then open this page from the address it prints:",
        "example-note": "Invented Region names are fine: the printed map is not in our sources.",
        "yes": "yes",
        "no": "no",
        "kind-legal": "What can I do now?",
        "text-placeholder": "Ask a rules question…",
        "understood": "Understood",
        "text-unplaced": "Words not understood",
        "text-missing": "Still needed",
        "text-missing-form": "The form below asks the rest.",
        "text-put": "Put on the table",
        "pick": "choose…",
        "new-table": "New table",
        "pasted-table": "A pasted table",
        **ENGINE_TEXTS,
    }.items()
}


def form_kinds() -> list[str]:
    """Every declared question kind of the game, the common ones first."""
    from havoc.games.cry_havoc import kind as registry

    declared = [k.name for k in registry.all_kinds()]
    return [k for k in FIRST_KINDS if k in declared] + [k for k in declared if k not in FIRST_KINDS]


def form_label(kind: str) -> str:
    """A kind's words in the form's list (English): its declared form label (a question rather
    than the kind's plain name), else its label."""
    from havoc.games.cry_havoc.ui import form_label as label

    return label(kind)


def kind_fields(kind: str) -> list[str]:
    """The fields the form shows for a kind: who asks (unless it is about the table), what it needs, the rest."""
    from havoc.games.cry_havoc import kind as registry

    found = registry.get(kind)
    assert found is not None, kind
    fields = [] if found.no_actor else ["faction"]
    for name in (*found.needs, *found.offers):  # what it needs, then what its declaration offers
        if name not in fields:
            fields.append(name)
    return fields


def field_widget(name: str) -> dict[str, Any]:
    """How the form asks for one question field, from its type in the question format."""
    from havoc.games.cry_havoc.query import QFIELDS

    if name in ("faction", "from", "to", "region", "via", "objectives"):
        return {"type": {"from": "region", "to": "region", "region": "region", "via": "regions"}.get(name, name)}
    if name == "structure":
        return {"type": "enum", "choices": list(site_words.STRUCTURES)}
    if name == "skill":
        return {"type": "enum", "choices": list(site_words.SKILLS)}
    spec = QFIELDS[name]
    if spec.kind == "enum":
        return {"type": "enum", "choices": list(spec.choices or ())}
    if spec.kind in ("int", "bool"):
        return {"type": spec.kind}
    raise ValueError(f"the Ask page has no widget for the question field {name!r} ({spec.kind})")


def kind_form(kind: str, tr: Any) -> list[dict[str, Any]]:
    """The fields of a kind's form: name, widget type, choices with their labels, whether it is needed."""
    from havoc.games.cry_havoc import kind as registry

    found = registry.get(kind)
    needs = found.needs if found else ()
    out = []
    for name in kind_fields(kind):
        w = field_widget(name)
        if name == "capture-from":  # the objectives by the names the form's objectives table gives them
            w["choices"] = [[c, tr(WORDS["obj-" + c])] for c in w["choices"]]
        elif "choices" in w:
            w["choices"] = [[c, tr(VALUES[c]) if c in VALUES else c] for c in w["choices"]]
        w["name"] = name
        w["needed"] = name in needs
        out.append(w)
    return out


def kind_helps(lang: str) -> dict[str, str]:
    """Each kind's line of help (the one ``havoc ask --help`` prints), in the page's language."""
    from havoc.cli.lang import CLI_CONTEXT
    from havoc.games.cry_havoc import kind as registry
    from havoc.language.i18n import translator

    return {
        k.name: translator(lang).text(CLI_CONTEXT, k.help) if lang != "en" else k.help for k in registry.all_kinds()
    }


class AskDirective(SphinxDirective):
    """``{havoc-ask}``: the assistant's form (no content, no options)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from havoc.games.cry_havoc.contract import FACTIONS, OBJECTIVES, PHASES, TROG_TOKENS
        from havoc.games.cry_havoc.ui import vocabulary
        from havoc.language.dates import format_date

        ctx = get_context(self.env)
        loc = self.get_location()

        def tr(msgid: str) -> str:
            return ctx.label(msgid, loc)

        data: dict[str, Any] = {
            "lang": ctx.lang,
            "words": {k: tr(v) for k, v in WORDS.items()},
            "factions": {f: tr(VALUES[f]) for f in FACTIONS},
            # the layers an answer may be asked by (the "Rules as of" choice), each titled in the page's language
            "layers": [
                {
                    "id": layer["id"],
                    "title": ctx.text(f"source:{layer.get('source', layer['id'])}:title", layer["title"])
                    + (f" ({format_date(layer['date'], ctx.lang)})" if layer.get("date") else ""),
                }
                for layer in ctx.ruleset.layers()
            ],
            "phases": {p: tr(VALUES[p]) for p in PHASES},
            "objectives": list(OBJECTIVES),
            "kinds": {k: tr(form_label(k)) for k in form_kinds()},
            "forms": {k: kind_form(k, tr) for k in form_kinds()},
            "helps": kind_helps(ctx.lang),
            "structures": {k: tr(VALUES[k]) for k in site_words.STRUCTURES},
            "trog-tokens": {k: tr(VALUES[k]) for k in TROG_TOKENS},
            "keys": {k: tr(v) for k, v in KEYS.items()},
            "examples": self.examples(ctx),
            "known": {k: tr(v) for k, v in KNOWN_REGIONS.items()},
            # a pasted table's Region names, read as the engine reads them (every language's)
            "region-names": {name: list(ids) for name, ids in vocabulary("regions").items()},
            "links": LINKS_MARK,
        }
        blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
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

    def examples(self, ctx: Any) -> list[dict[str, Any]]:
        """The rulebook's stored examples a player may start from: title, the table as YAML with
        names in the page's language (named_table) and the question."""
        from havoc.assistant.examples import is_extra

        rs = ctx.ruleset
        out = []
        for rule in rs.rules.values():
            for ex in rule.examples:
                if is_extra(rs, ex):
                    continue  # the solo Trogs' decisions are not questions of this form
                title = ctx.text(f"{ex.id}:title", ex.title, self.get_location())
                out.append(offered(title, ex, ctx.lang))
        return out


def offered(title: str, ex: Any, lang: str) -> dict[str, Any]:
    """A stored example as the Ask and Trogs pages offer it: its table as the YAML a player
    writes in ``lang`` (names, not IDs), its question to match, and the players (by ID) the
    page's form needs before it reads the text."""
    from havoc.formats.spec import plain
    from havoc.games.cry_havoc.named_table import example

    data = plain(ex.position)
    text, question = example(data, plain(ex.query), lang)
    return {"title": title, "position": text, "question": question, "players": list(data.get("players", []))}


ASK_THIS = L.label("Answer this question")  # the search's offer to ask the assistant the words typed (site.po)
ASK_DOC = "assistant"  # the Ask page (docsbuild/assistant.md)


def on_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    if app.builder.format == "html" and ASK_DOC in app.env.found_docs:
        # every page's search offers to ask the typed words (assistant.html#t=…), in the page's language
        import html

        ask = {"href": app.builder.get_relative_uri(pagename, ASK_DOC), "label": get_context(app.env).label(ASK_THIS)}
        meta = html.escape(json.dumps(ask, ensure_ascii=False))
        context["metatags"] = context.get("metatags", "") + f'\n    <meta name="havoc-ask" content="{meta}">'
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
    # the Ask and Trogs pages' scripts and style, in this game's sites only
    app.connect(
        "config-inited", gamepage.static_adder(__package__, STATIC), priority=600
    )  # after the site's own (a broken ruleset stops there)
    app.add_directive("havoc-ask", AskDirective)
    app.connect("html-page-context", on_page_context)
