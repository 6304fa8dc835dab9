"""The search index of a ruleset, built once per fingerprint and kept in havoc's verified cache.

Building the index (stems of every word of every rule in both languages) costs hundreds of
milliseconds; ``havoc lookup``, the server and each Sphinx build need only one language's
part of it, unchanged until the rules, the catalogs or the search code change. So each
language's part (:func:`havoc.search.index.for_language`: plain lists, dicts, strings and
numbers) is stored with :mod:`havoc.core.cache` (keyed BLAKE2b tag, an unpickler that builds no
callable, atomic writes) under a key over exactly what the index is made from:

- the ruleset's fingerprint (every rule file, ``search.yaml`` among them, and the loader);
- the bytes of every translation catalog (titles and texts in Polish come from them);
- the source of the modules that build it and of the query that reads it.
"""

from __future__ import annotations

import os

from havoc import TYPE_CHECKING
from havoc.core import cache
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, catalog_paths, catalog_sources

if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from havoc.engine.rulebook.model import Ruleset

_CODE = cache.sources(  # os.path, not pathlib: a lookup never imports pathlib
    "havoc.search.index",
    "havoc.search.players",
    "havoc.search.text",
    "havoc.search.query",
    "havoc.search.stored",
    "havoc.search.site",
    "havoc.language.i18n",
    "havoc.engine.numbering",
    "havoc.language.languages",
)

_memo: dict[tuple[str, str], dict[str, Any]] = {}  # (index key, lang) -> that language's part


def key(rs: Ruleset) -> str:
    """The index's cache key: the ruleset's fingerprint, the catalogs and the search code."""
    return fingerprint_key(rs.fingerprint)


def fingerprint_key(fingerprint: str) -> str:
    """The index's cache key from the ruleset's fingerprint (which covers every rule file and
    its path, so names the ruleset), the catalogs and the search code.

    Made from the files as they are now on every call, so an edited catalog is never answered
    from an index of the text before it: read and hashed (a megabyte, most of a short lookup)
    unless their stat facts vouch for the key they gave before (:func:`havoc.core.cache.remembered`)."""
    listed = {lang: catalog_paths(lang) for lang in LANGUAGES if lang != SOURCE_LANGUAGE}

    def compute() -> str:  # of the files listed, the very ones whose stat facts are taken
        chunks = [fingerprint.encode()]
        for lang, paths in listed.items():
            for path, data in catalog_sources(lang, paths=paths):
                chunks += [lang.encode(), os.path.basename(path).encode(), data]
        for code in _CODE:
            try:
                with open(code, "rb") as fh:
                    chunks.append(fh.read())
            except OSError:
                chunks.append(b"\0missing")
        return cache.digest(*chunks)

    files = [path for paths in listed.values() for path in paths]
    return cache.remembered(f"search\0{fingerprint}", [*files, *_CODE], compute)


def language_index(rs: Ruleset, lang: str) -> dict[str, Any]:
    """The part of ``rs``'s search index one language's site ships and its query engine reads.

    From this process's memo, else the disk cache, else built (every language's part at once,
    since the costly analysis is shared) and stored. A ruleset without a fingerprint (loaded
    around the cache) is built every time.
    """
    if not rs.fingerprint:
        from havoc.search.index import build, for_language

        return for_language(build(rs), lang)
    k = key(rs)
    found = _stored(k, lang)
    if found is None:
        _build_and_store(rs, k)
        found = _memo[(k, lang)]
    return found


def site_scripts(rs: Ruleset, lang: str) -> tuple[str, str]:
    """The two index scripts of ``lang``'s site (:func:`havoc.search.site.scripts`), from the disk
    cache while nothing they are made of changed (a rebuild of the site reuses them), else built
    (with every language's lookup part) and stored."""
    k = key(rs)
    found = cache.get(f"search-site-{lang}", k, tuple)
    if not (isinstance(found, tuple) and len(found) == 2 and all(isinstance(s, str) for s in found)):
        found = _build_and_store(rs, k)[lang]
    return found


def _build_and_store(rs: Ruleset, k: str) -> dict[str, tuple[str, str]]:
    """Build the index once; store each language's lookup part and site scripts under ``k``."""
    from havoc.search.index import build, for_language  # the analysis only on a miss
    from havoc.search.site import scripts, site_parts

    index = build(rs)
    made = {}
    for other in LANGUAGES:
        part = for_language(index, other)
        cache.put(f"search-{other}", k, part)
        _memo[(k, other)] = part
        made[other] = scripts(site_parts(index, other))
        cache.put(f"search-site-{other}", k, made[other])
    return made


def stored_index(fingerprint: str, lang: str) -> dict[str, Any] | None:
    """One language's part of the index of the ruleset with this fingerprint, when this process
    or the disk cache has it (``havoc lookup`` then never loads the ruleset itself); else None."""
    return _stored(fingerprint_key(fingerprint), lang) if fingerprint else None


def _stored(k: str, lang: str) -> dict[str, Any] | None:
    found = _memo.get((k, lang))
    if found is None:
        found = cache.get(f"search-{lang}", k, dict)
        if found is None or found.get("lang") != lang or not isinstance(found.get("docs"), list):
            return None
        _memo[(k, lang)] = found
    return found
