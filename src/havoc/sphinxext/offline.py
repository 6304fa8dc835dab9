"""Every page registers the site's service worker (``havoc-offline.js``; the build writes ``sw.js``
with :mod:`havoc.offline`), so after one visit the whole site works without a network."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


def on_config_inited(app: Sphinx, config: Config) -> None:
    from havoc import rulebook

    # a ruleset other than the default has its site one folder down (build/site/<ruleset>/<lang>/)
    name = config.havoc_ruleset or rulebook.default_ruleset()
    top = "../" if not rulebook.site_path(name) else "../../"
    attributes: dict[str, Any] = {"loading_method": "defer", "data-top": top}
    app.add_js_file("havoc-offline.js", **attributes)


def setup_offline(app: Sphinx) -> None:
    app.connect("config-inited", on_config_inited, priority=500)
