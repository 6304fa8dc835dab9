"""What the site ships for search: one index script per language and the query script's parts.

The index script sets ``window.HAVOC_SEARCH_INDEX``: the documents shown in the site's language,
every key's postings, packed (both languages, so a Polish word finds the rule on the English site), the
vocabulary, the term phrases, the stopwords, the ranking numbers and the interface's words.
Loaded by a script tag (not fetch), so the site also works opened from disk.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from havoc.i18n import nui, ui
from havoc.search.index import for_language
from havoc.search.query import pack_postings

HERE = Path(__file__).parent
ENGINE_JS = HERE / "engine.js"


def labels(lang: str) -> dict[str, Any]:
    """The search interface's words in ``lang`` (the plural forms for 1, 2 and 5 results)."""

    def found(n: int) -> str:
        return nui("Found {n} rule", "Found {n} rules", n, lang)

    return {
        "placeholder": ui("Search the rules", lang),
        "results": ui("Search results", lang),
        "found": [found(1), found(2), found(5)],
        "none": ui("No rule matches these words.", lang),
        "example": ui("Example", lang),
        "all": ui("All results", lang),
    }


def index_data(index: dict[str, Any], lang: str) -> dict[str, Any]:
    return with_labels(for_language(index, lang), lang)


def with_labels(part: dict[str, Any], lang: str) -> dict[str, Any]:
    """One language's part of the index (:func:`for_language`) as the site ships it: the postings
    packed (:func:`havoc.search.query.pack_postings`), with the interface's words."""
    shipped = {k: v for k, v in part.items() if k != "postings"}
    return {**shipped, "packed": pack_postings(part["postings"]), "labels": labels(lang)}


def index_script(index: dict[str, Any], lang: str) -> str:
    """``havoc-searchindex.js`` for one language's site: compact JSON behind one assignment."""
    return part_script(for_language(index, lang), lang)


def part_script(part: dict[str, Any], lang: str) -> str:
    """:func:`index_script` from one language's part of the index (as the cache keeps it)."""
    body = json.dumps(with_labels(part, lang), ensure_ascii=False, separators=(",", ":"))
    return "window.HAVOC_SEARCH_INDEX=" + body.replace("</", "<\\/") + ";\n"
