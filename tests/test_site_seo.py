"""What search engines and link previews read: descriptions, absolute alternates, the sitemap.

Built on the mini fixture project (tests/test_site.py), once with a site URL and once without.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_site import Site, build_site, mini_built_once, mini_env, mini_site  # noqa: F401 - the fixtures are shared

from havoc.cli.commands.docs import SiteUrlError, check_site_url, remove_sitemap_index, write_sitemap_index

pytestmark = pytest.mark.slow

URL = "https://rules.example.org/havoc/"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def _meta(page: str, name: str) -> str:
    found = re.findall(rf'<meta name="{name}" content="([^"]*)"', page)
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def _alternates(page: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"', page))


def _theme_pages(site: Site, lang: str) -> list[str]:
    """The pages the theme renders (not the rule/<id> redirects)."""
    return sorted(p for p in site.pages(lang) if not p.startswith("rule/"))


def test_with_a_site_url(mini_env: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """One build with the address configured (a build takes seconds), checked part by part."""
    source, rules = mini_env
    monkeypatch.setenv("HAVOC_SITE_URL", URL.rstrip("/"))  # without the slash: it is added
    site = build_site(source, tmp_path / "site", "mini", rules)
    _every_page_has_a_description_absolute_alternates_and_a_canonical_link(site)
    _a_rule_page_is_described_by_its_rules_summaries_in_its_language(site)
    _the_sitemap_lists_every_page_with_its_alternates(site)


def _every_page_has_a_description_absolute_alternates_and_a_canonical_link(site_with_url: Site) -> None:
    for lang in ("en", "pl"):
        for name in _theme_pages(site_with_url, lang):
            page = site_with_url.page(lang, name)
            assert len(_meta(page, "description")) > 5, (lang, name)
            assert _alternates(page) == {
                "en": f"{URL}en/{name}",
                "pl": f"{URL}pl/{name}",
                "x-default": f"{URL}index.html",
            }, (lang, name)
            assert re.search(rf'<link rel="canonical" href="{re.escape(URL + lang + "/" + name)}"', page), (lang, name)


def _a_rule_page_is_described_by_its_rules_summaries_in_its_language(site_with_url: Site) -> None:
    assert _meta(site_with_url.page("en", "rules/draw.html"), "description").startswith("Draw 4, keep 7.")
    assert _meta(site_with_url.page("pl", "rules/draw.html"), "description").startswith("Dobierz 4, zatrzymaj 7.")
    # a shared rule/<id> link previews its rule, and names its page by its absolute address
    redirect = site_with_url.page("pl", "rule/draw-hand-limit.html")
    assert _meta(redirect, "description") == "Dobierz 4, zatrzymaj 7."
    assert f'<link rel="canonical" href="{URL}pl/rules/draw.html#draw-hand-limit">' in redirect


def _the_sitemap_lists_every_page_with_its_alternates(site_with_url: Site) -> None:
    for lang in ("en", "pl"):
        tree = ET.parse(site_with_url.out / lang / "sitemap.xml")
        urls = {u.findtext(f"{SM}loc"): u for u in tree.getroot().iter(f"{SM}url")}
        wanted = {
            f"{URL}{lang}/{n}" for n in _theme_pages(site_with_url, lang) if n not in {"search.html", "genindex.html"}
        }
        assert set(urls) == wanted
        links = {x.get("hreflang"): x.get("href") for x in urls[f"{URL}{lang}/rules/draw.html"].iter(f"{XHTML}link")}
        assert links == {"en": f"{URL}en/rules/draw.html", "pl": f"{URL}pl/rules/draw.html"}
    index = write_sitemap_index(site_with_url.out, URL)
    locs = [e.text for e in ET.parse(index).getroot().iter(f"{SM}loc")]
    assert locs == [f"{URL}en/sitemap.xml", f"{URL}pl/sitemap.xml"]
    assert f"Sitemap: {URL}sitemap.xml" in (site_with_url.out / "robots.txt").read_text(encoding="utf-8")
    remove_sitemap_index(site_with_url.out)  # the next build has no address: no stale index is left
    assert not index.exists() and not (site_with_url.out / "robots.txt").exists()


def test_without_a_site_url_no_relative_alternates_and_no_sitemap(mini_site: Site) -> None:  # noqa: F811
    for lang in ("en", "pl"):
        page = mini_site.page(lang, "rules/draw.html")
        assert _alternates(page) == {}
        assert 'rel="canonical"' not in page
        assert _meta(page, "description")
        assert not (mini_site.out / lang / "sitemap.xml").exists()


@pytest.mark.parametrize(
    "bad", ["rules.example.org", "ftp://example.org/", "https://", "https://x.org/?a=1", "/havoc/"]
)
def test_a_site_url_must_be_absolute_http(bad: str) -> None:
    with pytest.raises(SiteUrlError, match="--site-url"):
        check_site_url(bad)
    assert check_site_url("https://x.org/rules") == "https://x.org/rules/"
