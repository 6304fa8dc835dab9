"""The site as an installable web app that works offline.

Every page registers the site's service worker (``havoc-offline.js``; the build writes ``sw.js``
with :mod:`havoc.offline`), so after one visit the whole site works without a network, and links
its language's web app manifest (``manifest.webmanifest``, written here), so a phone can add the
rulebook to its home screen, opening on that language's home page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from havoc import safeio

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

MANIFEST = "manifest.webmanifest"


def on_config_inited(app: Sphinx, config: Config) -> None:
    from havoc import rulebook

    # a ruleset other than the default has its site one folder down (build/site/<ruleset>/<lang>/)
    name = config.havoc_ruleset or rulebook.default_ruleset()
    top = "../" if not rulebook.site_path(name) else "../../"
    attributes: dict[str, Any] = {"loading_method": "defer", "data-top": top}
    app.add_js_file("havoc-offline.js", **attributes)


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    if app.builder.format != "html":
        return
    href = context["pathto"](MANIFEST, 1)
    context["metatags"] = context.get("metatags", "") + f'\n    <link rel="manifest" href="{href}">'


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
