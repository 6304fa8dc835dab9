"""Every page of the site carries the site's Content-Security-Policy as a ``<meta http-equiv>``.

A static host sends no headers of ours, so the policy travels in the pages themselves
(:mod:`havoc.web.policy` is its one definition; ``havoc serve`` sends the same one as a header).
It is written when the build has finished, into every HTML file of the output (theme pages and
the redirect pages alike), so the hashes that allow a page's inline scripts and styles are those
of the page as it was written, the theme's own inline code included. A file whose policy is
already right is left untouched (its ETag and the service worker's digest stay).

Sphinx's ``doctools.js`` compiles a language's plural rule with ``new Function``, which the
policy refuses; ``havoc-plural.js`` (added to every page here) reads it without.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from havoc.core import safeio
from havoc.web import policy as webpolicy

if TYPE_CHECKING:
    from sphinx.application import Sphinx

PLURAL_PRIORITY = 400
"""Where ``havoc-plural.js`` goes among the pages' scripts (Sphinx's own are 200, translations 500)."""
CSP_PRIORITY = 900
"""After every other ``build-finished`` handler (the default is 500): they write pages too."""


def add_policies(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    suffix = getattr(app.builder, "out_suffix", ".html")
    for path in sorted(Path(app.outdir).rglob(f"*{suffix}")):
        if any(part.startswith(("_sources", ".")) for part in path.relative_to(app.outdir).parts):
            continue
        page = path.read_text(encoding="utf-8")
        wanted = webpolicy.with_meta(page)
        if wanted != page:
            safeio.write_text(path, wanted)


def setup_csp(app: Sphinx) -> None:
    app.connect("build-finished", add_policies, priority=CSP_PRIORITY)
    # after doctools.js (priority 200), before Sphinx's translations.js (500), which it lets load
    # under the policy: see the file
    app.add_js_file("havoc-plural.js", priority=PLURAL_PRIORITY)
