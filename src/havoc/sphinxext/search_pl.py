"""A Polish search language for Sphinx: Snowball stemming in Python and in the browser.

Sphinx has no Polish search language and silently falls back to the English stemmer, so
"oddziałów" would never find "oddziały". The index is stemmed here with snowballstemmer's
Polish stemmer; the browser stems the query with a JavaScript port of the same algorithm
(``search/polish-stemmer.js``), whose tables are generated from the Python stemmer so the two
cannot drift apart. Snowball cuts some game words inconsistently (kryształy → kryszt,
kryształów → kryształ), so the glossary's inflected forms are fed in as synonyms: every listed
form of a term stems to one shared key, in Python and in JavaScript alike.

The site's search page itself answers from the rule-level index of :mod:`havoc.search`: after an
HTML build this module writes ``_static/havoc-search.js`` (Snowball's English and Polish
stemmers, the query engine, the page's search interface), ``_static/havoc-searchindex.js``
(the index in the build's language) and ``_static/havoc-searchindex-more.js`` (the other
language's words, loaded when a query has one). Sphinx's own page index (``searchindex.js``) is switched
off: no page reads it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import snowballstemmer
from sphinx.search import SearchLanguage

from havoc.search.text import POLISH_STOPWORDS  # one list for Sphinx's index and the rule search

HERE = Path(__file__).parent
SYNONYMS_OPTION = "havoc_synonyms"


@cache
def _stemmer() -> Any:
    return snowballstemmer.stemmer("polish")


def stem(word: str) -> str:
    """The plain Snowball stem of a lowercased word (no synonyms)."""
    return str(_stemmer().stemWord(word.lower()))


def synonym_map(groups: Iterable[Iterable[str]]) -> dict[str, str]:
    """Map every single-word form of each group to one key: the stem of the group's first form.

    A form listed for two terms keeps the first term's key (a reader's word can only point one way).
    """
    result: dict[str, str] = {}
    for forms in groups:
        words = [f.strip().lower() for f in forms if f.strip() and " " not in f.strip()]
        if not words:
            continue
        key = stem(words[0])
        for word in words:
            result.setdefault(word, key)
    return result


def _js_among(name: str, table: list[Any]) -> str:
    rows = []
    for a in table:
        row = [json.dumps(a.s), str(a.substring_i), str(a.result)]
        if a.method is not None:
            row.append("r_" + a.method.__name__.rsplit("__r_", 1)[-1])
        rows.append("        [" + ", ".join(row) + "]")
    return f"    /** @const */ var {name} = [\n" + ",\n".join(rows) + "\n    ];\n"


def _js_grouping(name: str, chars: Iterable[str]) -> str:
    codes = sorted(ord(c) for c in chars)
    lo, hi = codes[0], codes[-1]
    bits = [0] * ((hi - lo) // 8 + 1)
    for c in codes:
        bits[(c - lo) >> 3] |= 1 << ((c - lo) & 7)
    return (
        f"    /** @const */ var {name} = [{', '.join(map(str, bits))}];\n"
        f"    /** @const */ var {name}_min = {lo};\n    /** @const */ var {name}_max = {hi};\n"
    )


@cache
def polish_stemmer_js() -> str:
    """The JavaScript ``PolishStemmer`` (needs Sphinx's ``BaseStemmer``), tables from the Python stemmer."""
    from snowballstemmer.polish_stemmer import PolishStemmer

    tables = [_js_grouping("g_v", PolishStemmer.g_v)]
    for attr in sorted(vars(PolishStemmer)):
        value = getattr(PolishStemmer, attr)
        if attr.startswith("a_"):
            tables.append(_js_among(attr, value))
        elif attr.startswith("as_"):
            tables.append(f"    /** @const */ var {attr} = {json.dumps(list(value))};\n")
    source = (HERE / "search" / "polish-stemmer.js").read_text(encoding="utf-8")
    return source.replace("    /*@TABLES@*/\n", "".join(tables))


def base_stemmer_js() -> str:
    """Sphinx's own Snowball ``BaseStemmer`` (the runtime every Snowball JS stemmer builds on)."""
    from sphinx.search import _MINIFIED_JS_PATH

    return (Path(_MINIFIED_JS_PATH) / "base-stemmer.js").read_text(encoding="utf-8")


def stemmer_js(synonyms: Mapping[str, str]) -> str:
    """The ``Stemmer`` class searchtools.js instantiates: synonyms first, then Snowball Polish."""
    return "\n".join(
        (
            base_stemmer_js(),
            polish_stemmer_js(),
            "var HAVOC_SYNONYMS = " + json.dumps(dict(sorted(synonyms.items())), ensure_ascii=True) + ";",
            "var Stemmer = function() {\n"
            "  var polish = new PolishStemmer();\n"
            "  this.stemWord = function(w) {\n"
            "    w = w.toLowerCase();\n"
            "    if (Object.prototype.hasOwnProperty.call(HAVOC_SYNONYMS, w)) return HAVOC_SYNONYMS[w];\n"
            "    return polish.stemWord(w);\n"
            "  };\n"
            "};",
        )
    )


class SearchPolish(SearchLanguage):
    """Polish: Snowball stems plus the glossary's inflected forms as synonyms."""

    lang = "pl"
    language_name = "Polish"
    stopwords = POLISH_STOPWORDS

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        raw = options.get(SYNONYMS_OPTION) or "{}"
        self.synonyms: dict[str, str] = json.loads(raw) if isinstance(raw, str) else dict(raw)
        self.js_stemmer_code = stemmer_js(self.synonyms)

    def stem(self, word: str) -> str:
        lower = word.lower()
        return self.synonyms.get(lower) or stem(lower)


def on_config_inited(app: Any, config: Any) -> None:
    """Feed the glossary's inflected forms (in the build's language) to the Polish search language."""
    if (config.html_search_language or config.language) != SearchPolish.lang:
        return
    from havoc.sphinxext.context import build_context

    ctx = build_context(config, Path(app.srcdir))
    groups = [ctx.term_forms(term_id) for term_id in ctx.ruleset.terms]
    options = dict(config.html_search_options or {})
    options[SYNONYMS_OPTION] = json.dumps(synonym_map(groups), ensure_ascii=False, sort_keys=True)
    config.html_search_options = options


# --- the site's rule-level search (havoc.search) -------------------------------------------


def english_stemmer_js() -> str:
    """Snowball's JavaScript English stemmer as Sphinx ships it (same algorithm as Python's)."""
    from sphinx.search import _MINIFIED_JS_PATH

    return (Path(_MINIFIED_JS_PATH) / "english-stemmer.js").read_text(encoding="utf-8")


@cache
def search_script() -> str:
    """``havoc-search.js``: both stemmers, the query engine and the page's search interface."""
    from havoc.search.site import ENGINE_JS

    parts = (
        base_stemmer_js(),
        english_stemmer_js(),
        polish_stemmer_js(),
        ENGINE_JS.read_text(encoding="utf-8"),
        (HERE / "search" / "ui.js").read_text(encoding="utf-8"),
    )
    return "\n".join(parts)


def _write(path: Path, text: str) -> None:
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o644)  # mkstemp makes it private; a web server must be able to read it
    os.replace(tmp, path)


def write_search_script(app: Any) -> None:
    """Write the query script into ``_static`` before the pages: each page's link to it carries
    its checksum (``?v=``), which Sphinx takes from the file there when it writes the page.
    Written after the pages, it gave a first build links without one and every later build the
    checksum of the script before it (so a page rewritten by a rebuild and one left as it was
    could differ)."""
    if getattr(app.builder, "format", None) == "html":
        _write(Path(app.outdir) / "_static" / "havoc-search.js", search_script())


def write_search_files(app: Any, exception: BaseException | None) -> None:
    """Write this language's index into ``_static`` after an HTML build."""
    if exception is not None or app.builder.format != "html":
        return
    from havoc.search.site import MORE_SCRIPT
    from havoc.search.stored import site_scripts
    from havoc.sphinxext.context import get_context

    lang = app.config.language or "en"
    static = Path(app.outdir) / "_static"
    # built once per ruleset fingerprint (and catalogs): a rebuild with unchanged rules reuses it
    first, more = site_scripts(get_context(app.env).ruleset, lang)
    _write(static / "havoc-searchindex.js", first)
    _write(static / MORE_SCRIPT, more)


def without_page_index(app: Any) -> None:
    """Switch off Sphinx's own page index: no page loads its ``searchindex.js`` (the site's
    search reads ``havoc-searchindex.js``), yet indexing every page cost each build time and
    wrote 60-250 KB. The search page itself is still written (:func:`search_page`)."""
    if getattr(app.builder, "format", None) != "html" or not getattr(app.builder, "search", False):
        return
    app.builder.search = False
    app.builder.havoc_search_page = True
    stale = Path(app.outdir) / app.builder.searchindex_filename
    stale.unlink(missing_ok=True)  # left by a build before this one; nothing would refresh it


def search_page(app: Any) -> Iterable[tuple[str, dict[str, Any], str]]:
    """``search.html`` (Sphinx writes it only with its page index on): the site's search page."""
    if getattr(app.builder, "havoc_search_page", False):
        yield ("search", {}, "search.html")


def on_html_page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    from havoc.search.site import labels

    context["havoc_search_labels"] = labels(app.config.language or "en")
    if getattr(app.builder, "havoc_search_page", False) and "hasdoc" in context:
        hasdoc = context["hasdoc"]  # the search page exists, though Sphinx's index is off
        context["hasdoc"] = lambda name: name == "search" or hasdoc(name)


def setup_search(app: Any) -> None:
    app.add_search_language(SearchPolish)
    app.connect("config-inited", on_config_inited)
    app.connect("build-finished", write_search_files)
    app.connect("builder-inited", without_page_index)
    app.connect("builder-inited", write_search_script)
    app.connect("html-collect-pages", search_page)
    app.connect("html-page-context", on_html_page_context)
    app.add_js_file("havoc-search.js", loading_method="defer")
    app.add_css_file("havoc-search.css")
