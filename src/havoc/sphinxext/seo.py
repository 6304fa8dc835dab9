"""What search engines and link previews read: a description of every page, absolute ``hreflang``
alternates and canonical links, and a sitemap per language.

The site's address is configured once (``havoc_site_url``: ``havoc docs --site-url`` or the
``HAVOC_SITE_URL`` environment variable): the URL of the top of the built site, where
``index.html`` picks the reader's language. Search engines accept only absolute alternates, so
without an address the build writes none of them (nor canonical links or a sitemap) rather than
relative ones that would be ignored or reported as invalid.

A rule page's description is the summaries of its rules (the lines the quick-reference sheet
prints) in the page's language; any other page's is its first paragraph.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import quoteattr

from havoc.core import safeio
from havoc.engine import rulebook
from havoc.language import markup
from havoc.sphinxext.context import get_context
from havoc.sphinxext.listed import listed

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

    from havoc.sphinxext.context import Context

DESCRIPTION_LENGTH = 160  # what result pages show; longer is cut at a word
NOT_LISTED = {"search", "genindex"}  # pages that are no answer to a search engine's query


def site_url(app: Sphinx) -> str:
    """The configured address of the top of the site, ending in ``/`` (or ``""``)."""
    url = str(app.config.havoc_site_url or "").strip()
    return url if not url or url.endswith("/") else url + "/"


def ruleset_url(app: Sphinx) -> str:
    """The address of this ruleset's site (the main one at the top, others in their folder)."""
    top = site_url(app)
    if not top:
        return ""
    ctx = get_context(app.env)
    where = rulebook.site_path(ctx.ruleset.id, ctx.folder.parent)
    return f"{top}{where}/" if where else top


def page_url(app: Sphinx, lang: str, pagename: str) -> str:
    suffix = getattr(app.builder, "out_suffix", ".html")
    return f"{ruleset_url(app)}{lang}/{pagename}{suffix}"


def alternates(app: Sphinx, pagename: str) -> list[dict[str, str]]:
    """The page in every language, plus ``x-default``: the root page that picks the language."""
    base = ruleset_url(app)
    if not base:
        return []
    links = [{"lang": lang, "url": page_url(app, lang, pagename)} for lang in app.config.havoc_languages]
    return [*links, {"lang": "x-default", "url": f"{base}index.html"}]


def shorten(text: str, limit: int = DESCRIPTION_LENGTH) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:–-")
    return cut + "…"


def _plain(ctx: Context, context: str, msgid: str) -> str:
    return markup.render_plain(ctx.text(context, msgid), ctx.ruleset.param, ctx.translator.plural_index)


def rules_description(ctx: Context, rule_ids: tuple[str, ...]) -> str:
    """The summaries of the rules, in the build's language (the sheet's lines for these rules)."""
    rules = ctx.ruleset.rules
    lines = [_plain(ctx, f"{rid}:summary", rules[rid].summary or "") for rid in rule_ids if rules[rid].summary]
    return " ".join(line if line.endswith((".", "!", "?", "…")) else line + "." for line in lines)


_PARAGRAPH = re.compile(r"<p(?:\s[^>]*)?>(.*?)</p>", re.S)
_TAG = re.compile(r"<[^>]+>")


def first_paragraph(body: str) -> str:
    for match in _PARAGRAPH.finditer(body):
        text = " ".join(html.unescape(_TAG.sub("", match.group(1))).split())
        if len(text) > 20:
            return text
    return ""


def description(app: Sphinx, pagename: str, context: dict[str, Any]) -> str:
    ctx = get_context(app.env)
    rs = ctx.ruleset
    prefix = f"{app.config.havoc_pages_dir}/"
    found = ""
    if pagename.startswith(prefix):
        ident = pagename[len(prefix) :]
        if ident in rs.sections:
            found = rules_description(ctx, rs.sections[ident].rule_ids)
            if not found and rs.sections[ident].intro:
                found = _plain(ctx, f"{ident}:intro", rs.sections[ident].intro or "")
        elif ident in rs.overlays:
            overlay = rs.overlays[ident]
            found = _plain(ctx, f"{ident}:intro", overlay.intro) if overlay.intro else ""
            found = found or rules_description(ctx, overlay.rule_ids)
    title = html.unescape(_TAG.sub("", str(context.get("title") or context.get("indextitle") or "")))
    if not found:
        found = first_paragraph(str(context.get("body", "")))
        if found and pagename == app.config.root_doc and title:
            found = f"{title}. {found}"  # the home page says what the site is, then how to use it
    site = str(context.get("docstitle", ""))
    return shorten(found or (f"{title} — {site}" if title else site))


def on_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    context["havoc_description"] = description(app, pagename, context)
    context["havoc_alternates"] = alternates(app, pagename)


def on_builder_inited(app: Sphinx) -> None:
    """Sphinx writes the canonical link of every page from ``html_baseurl``: this language's address."""
    base = ruleset_url(app)
    if base and app.builder.format == "html":
        app.config.html_baseurl = f"{base}{app.config.language or 'en'}/"


def listed_pages(app: Sphinx) -> list[str]:
    """Every page a reader may land on from a search: the documents and the rule indexes."""
    names = set(app.env.found_docs) | set(listed(app))  # and the pages made by code
    for index in getattr(app.builder, "domain_indices", []):
        names.add(f"{index[0]}")
    return sorted(n for n in names if n not in NOT_LISTED)


def sitemap(app: Sphinx) -> str:
    langs = list(app.config.havoc_languages)
    rows = []
    for name in listed_pages(app):
        links = "".join(
            f'\n    <xhtml:link rel="alternate" hreflang="{lang}" href={quoteattr(page_url(app, lang, name))}/>'
            for lang in langs
        )
        rows.append(
            f"  <url>\n    <loc>{html.escape(page_url(app, app.config.language or 'en', name))}</loc>{links}\n  </url>"
        )
    body = "\n".join(rows)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f"{body}\n</urlset>\n"
    )


def write_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    path = Path(app.outdir) / "sitemap.xml"
    if ruleset_url(app):
        safeio.write_text(path, sitemap(app))
    else:
        path.unlink(missing_ok=True)  # an address removed: no sitemap of the old one


def setup_seo(app: Sphinx) -> None:
    app.add_config_value("havoc_site_url", "", "html", types=[str])
    app.connect("builder-inited", on_builder_inited, priority=600)
    app.connect("html-page-context", on_page_context)
    app.connect("build-finished", write_sitemap)
