"""The site as an installable web app that works offline.

Every page registers the site's service worker (``havoc-offline.js``; the build writes ``sw.js``
with :mod:`havoc.web.offline`), so after one visit the whole site works without a network, and links
its language's web app manifest (``manifest.webmanifest``, written here), so a phone can add the
rulebook to its home screen, opening on that language's home page.

Each page also carries, in ``<meta name="havoc-offline">``, the words (site catalog) with which
``havoc-offline.js`` says that offline use is not ready yet and why, when the service worker could
not keep the site: the worker knows no language, the page does.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from havoc.core import safeio
from havoc.sphinxext import labels as L

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

MANIFEST = "manifest.webmanifest"

# What a page says when the service worker could not keep the site: a lead (no build kept yet, or
# only an earlier one), then why (the worker's reason: see havoc-sw.js).
OFFLINE_WORDS = {
    "none": L.label("Offline use is not ready yet: this site is not kept on this device."),
    "update": L.label(
        "Offline use of this site's new version is not ready yet: without a network you see the version kept earlier."
    ),
    "damaged": L.label(
        "Some of its files arrived damaged or from another version of the site (it may be being updated right now)."
        " It will be tried again on your next visit."
    ),
    "unreachable": L.label("Some of its files could not be downloaded. It will be tried again on your next visit."),
    "storage": L.label("This device has no room left to keep it."),
}


def on_config_inited(app: Sphinx, config: Config) -> None:
    from havoc.engine import rulebook

    # a ruleset other than the default has its site one folder down (build/site/<ruleset>/<lang>/)
    name = config.havoc_ruleset or rulebook.default_ruleset()
    top = "../" if not rulebook.site_path(name) else "../../"
    attributes: dict[str, Any] = {"loading_method": "defer", "data-top": top}
    app.add_js_file("havoc-offline.js", **attributes)


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    if app.builder.format != "html":
        return
    from havoc.sphinxext.context import get_context

    href = context["pathto"](MANIFEST, 1)
    ctx = get_context(app.env)
    words = json.dumps({k: ctx.label(v) for k, v in OFFLINE_WORDS.items()}, ensure_ascii=False)
    context["metatags"] = (
        context.get("metatags", "")
        + f'\n    <link rel="manifest" href="{href}">'
        + f'\n    <meta name="havoc-offline" content="{html.escape(words)}">'
    )


def on_build_finished(app: Sphinx, exc: Exception | None) -> None:
    if exc is not None or app.builder.format != "html":
        return
    title = str(app.config.html_title or app.config.project)
    manifest = {
        "name": title,
        "short_name": title,
        "lang": app.config.language,
        "start_url": "index.html",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#ffffff",
        "icons": [{"src": "_static/havoc-favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }
    safeio.write_text(Path(app.outdir) / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")


def setup_offline(app: Sphinx) -> None:
    app.connect("config-inited", on_config_inited, priority=500)
    app.connect("html-page-context", on_page_context)
    app.connect("build-finished", on_build_finished)
