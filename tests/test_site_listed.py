"""The pages a game's code writes (the solo Trogs' page, the Advanced Cry Havoc 2 chart lookups)
are found like any other page: a link in the sidebar of every page, and an entry in the sitemap.

Both rulesets are built in both languages with a site address (so a sitemap is written), without
the in-browser engine (the pages are checked as HTML, not run).
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_site import Site, build_site

from havoc.cli.commands.docs import source_for
from havoc.engine import rulebook
from havoc.language.i18n import LANGUAGES

pytestmark = pytest.mark.slow

URL = "https://rules.example.org/havoc/"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
# ruleset -> the pages every sidebar must link, with their titles in each language
WANTED = {
    "cry-havoc": {
        "assistant.html": {"en": "Ask the rules", "pl": "Zapytaj o zasady"},
        "trogs.html": {"en": "The solo Trogs decide", "pl": "Decyzje Trogów w wariancie solo"},
    },
    "advanced-cry-havoc": {"lookup.html": {"en": "Chart lookups", "pl": "Sprawdzanie w tabelach"}},
}


def sidebar(page: str) -> str:
    start = page.index('<aside class="sidebar-drawer"')
    return page[start : page.index("</aside>", start)]


def sidebar_links(page: str) -> dict[str, tuple[str, bool]]:
    """Every link of the sidebar: its address -> (its text, whether it is the current page)."""
    found = {}
    for attrs, text in re.findall(r"<a ([^>]*)>(.*?)</a>", sidebar(page), re.S):
        href = re.search(r'href="([^"]*)"', attrs)
        words = " ".join(re.sub(r"<[^>]+>", " ", text).split())
        current = "current" in attrs or 'aria-current="page"' in attrs
        if href:
            found.setdefault(href.group(1), (words, current))
    return found


@pytest.mark.parametrize("ruleset", list(WANTED))
def test_generated_pages_are_in_every_sidebar_and_the_sitemap(
    ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HAVOC_SITE_URL", URL)
    site: Site = build_site(source_for(ruleset), tmp_path / "site", ruleset, rulebook.rules_root())
    base = f"{URL}{rulebook.site_path(ruleset)}/" if rulebook.site_path(ruleset) else URL
    for lang in LANGUAGES:
        names = sorted(n for n in site.pages(lang) if not n.startswith("rule/"))
        for wanted in WANTED[ruleset]:
            assert wanted in names, (lang, wanted)
        for name in names:
            links = sidebar_links(site.page(lang, name))
            for wanted, titles in WANTED[ruleset].items():
                if name == wanted:  # the page itself: marked as the current one
                    assert titles[lang] in [text for text, current in links.values() if current], (lang, name)
                    continue
                href = posixpath.relpath(wanted, posixpath.dirname(name) or ".")
                assert href in links, (lang, name, wanted, sorted(links))
                assert links[href][0] == titles[lang], (lang, name, links[href])
        sitemap = ET.parse(site.out / lang / "sitemap.xml")
        urls = {u.findtext(f"{SM}loc") for u in sitemap.getroot().iter(f"{SM}url")}
        for wanted in WANTED[ruleset]:
            assert f"{base}{lang}/{wanted}" in urls, (lang, wanted)
