"""Sphinx configuration of the havoc rules site.

One source, two builds: ``havoc docs`` runs Sphinx once per language (``-D language=pl``) with its
own doctree folder, into ``build/site/<lang>/``. The rule pages are generated from ``rules/`` by
``havoc.sphinxext``; the narrative pages here are MyST and go through Sphinx's gettext builder
into ``locales/<lang>/LC_MESSAGES/site.po``.
"""

from __future__ import annotations

from os import environ as _environ
from pathlib import Path

from havoc.language.i18n import locales_root

ROOT = Path(__file__).resolve().parent.parent

project = "Cry Havoc"
author = "havoc"
language = "en"
root_doc = "index"
extensions = ["myst_parser", "havoc.sphinxext"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", ".gitignore"]
templates_path = ["_templates"]
# :rule: and :term: without a prefix mean the rulebook's, not Sphinx's standard glossary.
primary_domain = "havoc"
nitpicky = True

# --- the rulebook -----------------------------------------------------------------
havoc_ruleset = ""  # the ruleset to build; "" = the one named in rules/default-ruleset
havoc_pages_dir = "rules"
havoc_languages = ["en", "pl"]
havoc_sheets_dir = str(ROOT / "build" / "sheets")

# --- the address -------------------------------------------------------------------
# Where the built site is published (the folder holding index.html, en/ and pl/), e.g.
# "https://rules.example.org/cry-havoc/". Absolute hreflang alternates, canonical links and
# sitemap.xml are made from it; without it they are left out. `havoc docs --site-url URL` or the
# HAVOC_SITE_URL environment variable set it for one build.
havoc_site_url = _environ.get("HAVOC_SITE_URL", "")

# --- translation --------------------------------------------------------------------
locale_dirs = [str(locales_root())]
gettext_compact = "site"
gettext_location = False
gettext_uuid = False
gettext_additional_targets: list[str] = []

# --- HTML -------------------------------------------------------------------------------
html_theme = "furo"
html_title = "Cry Havoc"
html_use_index = False
html_domain_indices = True
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False
html_show_copyright = False
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "sidebar/search.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "havoc/sidebar-links.html",
        "sidebar/scroll-end.html",
    ]
}
html_theme_options = {
    "top_of_page_buttons": [],
    "navigation_with_keys": False,
}

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 2
