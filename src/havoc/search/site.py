"""What the site ships for search: two index scripts per language and the query script's parts.

A phone downloads the index before its first search, so it is kept small (at 10x the rules
each language's first script stays under 300 KB gzipped):

- ``havoc-searchindex.js`` sets ``window.HAVOC_SEARCH_INDEX``: the documents shown in the
  site's language, the words of that language (and the keys they find), the postings of those
  keys, the term phrases, the stopwords, the ranking numbers and the interface's words. A query
  in the site's language is answered from it alone.
- ``havoc-searchindex-more.js`` sets ``window.HAVOC_SEARCH_MORE``: the other language's words
  and the postings only they find. The page loads it when a query has a word the first script
  does not know (a word of the other language, a typo, a prefix), so a Polish word still finds
  the rule on the English site; with both loaded, the engine holds the whole index. The first
  names the second's words and keys (not their postings), so the page knows exactly when a
  query (a typo, a word being typed, a stem) could be answered differently with it.

Postings are not shipped as scores (thousands of different numbers) but as what they are made
of: per key its document frequency (the idf of each frequency is listed once) and, per document
it occurs in, the gap from the previous document and the number of its tally (the key's count in
each field: a few hundred distinct tallies, most keys once in a text), packed into a string
(:func:`vlq`); per document its field lengths. The query engines compute each score again with
:func:`havoc.search.query.bm25f`, the same double operations in the same order, so Python and
the browser rank as the index does. Loaded by script tags (not fetch), so the site also
works opened from disk.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from havoc.language.i18n import nui, ui
from havoc.search.index import CONCEPT, SYNONYM, for_language
from havoc.search.query import VLQ_LAST, VLQ_MORE

HERE = Path(__file__).parent
ENGINE_JS = HERE / "engine.js"
FORMAT = 2
MORE_SCRIPT = "havoc-searchindex-more.js"


def vlq(numbers: list[int]) -> str:
    """Non-negative integers as one string, each in base 32, most significant digit first: its last
    digit from :data:`VLQ_LAST`, the ones before from :data:`VLQ_MORE` (shorter than JSON's
    numbers and commas, and better for gzip). :func:`havoc.search.query.unvlq` reads it back."""
    out = []
    for n in numbers:
        digits = VLQ_LAST[n & 31]
        n >>= 5
        while n:
            digits = VLQ_MORE[n & 31] + digits
            n >>= 5
        out.append(digits)
    return "".join(out)


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
    """One language's whole index as the site's query reads it: both scripts' data, merged."""
    first, more = site_parts(index, lang)
    return merged(first, more)


def merged(first: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """The first script's data with the more script's added (as engine.js ``addMore`` does)."""
    t, m = first["tallies"], more["tallies"]
    tallies = {**t, "rows": {**t["rows"], **m["rows"]}}
    return {**first, "vocab": {**first["vocab"], **more["vocab"]}, "tallies": tallies}


def site_parts(index: dict[str, Any], lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The data of ``havoc-searchindex.js`` (with the interface's words) and of
    ``havoc-searchindex-more.js`` for ``lang``'s site (see the module's docstring)."""
    part = for_language(index, lang)
    t = index["tallies"]
    seen = t["languages"]
    others = set().union(*(set(ws) for other, ws in seen.items() if other != lang)) - set(seen[lang])
    vocab = part["vocab"]
    first_vocab = {w: ks for w, ks in vocab.items() if w not in others}
    more_vocab = {w: ks for w, ks in vocab.items() if w in others}
    # a concept or a players' word is found through a phrase too: always in the first script
    first_keys = {k for ks in first_vocab.values() for k in ks} | {
        k for k in part["postings"] if k.startswith((CONCEPT, SYNONYM))
    }
    # tallies numbered by how often they occur (the commonest get one-digit numbers)
    counted = Counter(tally for row in t["keys"].values() for _, tally in row)
    patterns = {tally: i for i, (tally, _) in enumerate(sorted(counted.items(), key=lambda tc: (-tc[1], tc[0])))}
    rows: dict[str, str] = {}
    for key, row in t["keys"].items():
        out: list[int] = [t["df"][key]]
        last = 0
        for doc, tally in row:
            out += [doc - last, patterns[tally]]
            last = doc
        rows[key] = vlq(out)

    def tallies(keys: list[str]) -> dict[str, Any]:
        return {"rows": {k: rows[k] for k in keys}}

    own = sorted(k for k in rows if k in first_keys)
    rest = sorted(k for k in rows if k not in first_keys)
    pages: dict[str, int] = {}
    sections: dict[str, int] = {}
    docs = []
    for doc_id, kind, url, title, section, text in part["docs"]:
        page, _, anchor = url.partition("#")
        doc = [
            doc_id,
            kind,
            pages.setdefault(page, len(pages)),
            title,
            sections.setdefault(section, len(sections)),
            text,
        ]
        docs.append(doc if anchor == doc_id else [*doc, anchor])
    shipped = {k: v for k, v in part.items() if k not in ("postings", "vocab", "docs", "format", "numbers")}
    numbered = sorted((doc, number) for number, doc in part["numbers"].items())
    gaps = [doc - before for (doc, _), before in zip(numbered, [0, *(d for d, _ in numbered)], strict=False)]
    first = {
        **shipped,
        # the rules' display numbers in document order: their documents' gaps, the numbers
        "numbers": [vlq(gaps), " ".join(n for _, n in numbered)],
        "format": FORMAT,
        "docs": docs,
        "pages": list(pages),
        "sections": list(sections),
        "vocab": first_vocab,
        "tallies": {
            "avg": t["avg"],
            "lengths": vlq([n for lengths in t["lengths"] for n in lengths]),
            "patterns": [list(p) for p in patterns],
            "idf": {str(d): idf for d, idf in t["idf"].items()},  # by document frequency
            **tallies(own),
        },
        "more": MORE_SCRIPT,
        # what the second script adds, by name only: engine.js ``needsMore`` tells from them
        # whether a query (a typo, a prefix, a stem) could be answered differently with it
        "more_words": sorted(more_vocab),
        "more_keys": [k for k in rest if k not in more_vocab],
        "labels": labels(lang),
    }
    return first, {"lang": lang, "vocab": more_vocab, "tallies": tallies(rest)}


def index_script(index: dict[str, Any], lang: str) -> str:
    """``havoc-searchindex.js`` for one language's site: compact JSON behind one assignment."""
    return scripts(site_parts(index, lang))[0]


def scripts(parts: tuple[dict[str, Any], dict[str, Any]]) -> tuple[str, str]:
    """The two index scripts (``havoc-searchindex.js``, :data:`MORE_SCRIPT`) of :func:`site_parts`."""
    first, more = parts
    return _assign("HAVOC_SEARCH_INDEX", first), _assign("HAVOC_SEARCH_MORE", more)


def _assign(name: str, data: dict[str, Any]) -> str:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"window.{name}=" + body.replace("</", "<\\/") + ";\n"
