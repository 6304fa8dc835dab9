"""The generated pages: one source stub per section and overlay, and ``rule/<id>`` redirects.

Sphinx only reads documents that exist as files, so (like autosummary) a tiny stub is written
for each section and overlay of the model into ``<srcdir>/<havoc_pages_dir>/``; the stub holds
one directive, and everything on the page is built from the model when it is read. A stub is
rewritten only when its content changes, so its date does not force a re-read.

A rule may move between sections; ``rule/<id>.html`` always leads to wherever it is now (and a
retired ID to its successor), so a link to it keeps working.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from havoc.language.languages import SOURCE, language
from havoc.sphinxext import labels as L
from havoc.sphinxext import stubs as sitestubs
from havoc.sphinxext.context import get_context
from havoc.sphinxext.domain import HavocDomain
from havoc.sphinxext.seo import page_url, rules_description, ruleset_url, shorten

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

REDIRECT_PREFIX = "rule"


def write_stubs(app: Sphinx) -> None:
    """Bring the stubs in ``<srcdir>/<havoc_pages_dir>/`` up to date with the model."""
    sitestubs.write_stubs(Path(app.srcdir) / app.config.havoc_pages_dir, get_context(app.env).ruleset)


REDIRECT = """<!DOCTYPE html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>{title}</title>
  <meta name="description" content="{description}">
  <meta property="og:title" content="{title}">
  <meta property="og:description" content="{description}">
  <meta property="og:site_name" content="{site}">
  <meta property="og:type" content="article">
  <meta property="og:locale" content="{locale}">
  <link rel="canonical" href="{canonical}">
  <meta http-equiv="refresh" content="0; url={uri}">
  <script>location.replace({uri_json});</script>
</head>
<body>
  <p>{message} <a href="{uri}">{title}</a> (<code>{rule_id}</code>)</p>
</body>
</html>
"""


def redirects(app: Sphinx) -> dict[str, str]:
    """``rule/<id>`` for every rule, section, overlay and retired ID -> the page it forwards to.

    Written directly, not through the theme: the theme would compute its navigation for each of
    the hundreds of pages, which costs more than the rest of an incremental build.
    """
    env = app.env
    domain = env.get_domain(HavocDomain.name)
    assert isinstance(domain, HavocDomain)
    ctx = get_context(env)
    targets: dict[str, tuple[str, bool]] = {}
    for (kind, name), _obj in domain.objects.items():
        if kind in ("rule", "section"):
            targets[name] = (name, False)
    for rid in ctx.ruleset.retired:
        successor = ctx.ruleset.resolve(rid)
        if successor and successor in targets:
            targets.setdefault(rid, (successor, True))
    pages = {}
    for name, (target, retired) in sorted(targets.items()):
        found = domain.find("rule", target)
        if found is None:
            continue
        obj = found[1]
        pagename = f"{REDIRECT_PREFIX}/{name}"
        uri = app.builder.get_relative_uri(pagename, obj.docname) + "#" + obj.anchor
        lang = app.config.language or SOURCE
        canonical = page_url(app, lang, obj.docname) + "#" + obj.anchor if ruleset_url(app) else uri
        rule = ctx.ruleset.rules.get(target)
        about = rules_description(ctx, (target,)) if rule is not None and rule.summary else obj.title
        pages[pagename] = REDIRECT.format(
            description=html.escape(shorten(about)),
            canonical=html.escape(canonical),
            lang=html.escape(app.config.language or "en"),
            title=html.escape(obj.title),
            site=html.escape(app.config.project),
            locale=language(app.config.language or SOURCE).locale,
            uri=html.escape(uri),
            uri_json=json.dumps(uri).replace("</", "<\\/"),
            message=html.escape(ctx.label(L.RULE_RETIRED if retired else L.RULE_MOVED)),
            rule_id=html.escape(name),
        )
    return pages


def write_redirects(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    suffix = getattr(app.builder, "out_suffix", ".html")
    wanted = redirects(app)
    for pagename, content in wanted.items():
        path = out / f"{pagename}{suffix}"
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if path.read_text(encoding="utf-8") == content:
                continue
        except OSError:
            pass
        path.write_text(content, encoding="utf-8")
    folder = out / REDIRECT_PREFIX
    for path in folder.glob(f"*{suffix}"):
        if f"{REDIRECT_PREFIX}/{path.stem}" not in wanted:
            path.unlink()


def setup_pages(app: Sphinx) -> None:
    app.add_config_value("havoc_pages_dir", sitestubs.PAGES_DIR, "env", types=[str])
    app.connect("build-finished", write_redirects)
