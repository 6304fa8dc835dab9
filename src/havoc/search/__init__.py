"""Rule-level search in English and Polish: one core for the site, ``havoc lookup`` and the API.

``lookup("ilu oddziałów może wycofać się z bitwy", lang="pl")`` returns the rules (glossary
terms, examples) that answer it, best first, shown in ``lang``; a query in either language finds
the rule on either language's side through the shared rule ID. The site ships the same index
(:func:`havoc.search.index.for_language`) and repeats the query in ``havoc-search.js``.
"""

from __future__ import annotations

import time
from functools import lru_cache

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.core.record import record
from havoc.language.i18n import LANGUAGES
from havoc.search.query import Engine
from havoc.search.stored import language_index, stored_index

if TYPE_CHECKING:
    from typing import Any

__all__ = ["Hit", "engine", "lookup"]


@record(frozen=True)
class Hit:
    """One result: a rule (or glossary term, or example) with where to read it."""

    rule_id: str
    kind: str  # rule | term | example
    title: str
    section: str
    snippet: str  # plain text of the rule in the asked language
    url: str  # site-relative, rules/<page>.html#<rule-id>
    score: float
    highlights: tuple[tuple[int, int], ...] = ()  # [start, end) of matched words in snippet

    def as_json(self) -> dict[str, Any]:
        return {
            "rule_id": self.rule_id,
            "kind": self.kind,
            "title": self.title,
            "section": self.section,
            "snippet": self.snippet,
            "highlights": [list(h) for h in self.highlights],
            "url": self.url,
            "score": round(self.score, 4),
        }


@lru_cache(maxsize=8)
def _engine(fingerprint: str, ruleset: str, lang: str) -> Engine:
    found = stored_index(fingerprint, lang)
    if found is None:  # built (or stored by another fingerprint) from the ruleset itself
        from havoc.engine import rulebook

        found = language_index(rulebook.load(ruleset), lang)
    return Engine(found)


_CHECKED: dict[str, tuple[float, str]] = {}
RECHECK_SECONDS = 2.0


def engine(lang: str = "en", ruleset: str | None = None) -> Engine:
    """The query engine of one language, made once per process from the current rules (the
    index itself comes from the disk cache while the rules, catalogs and search code are unchanged).

    Whether the rule files changed is checked at most every couple of seconds (hashing them
    costs more than a query), so a long-running server still picks up edited rules.
    """
    from havoc.engine import rulebook

    if lang not in LANGUAGES:
        raise InputError(
            [
                Problem(
                    "lang", None, f"expected one of {', '.join(LANGUAGES)}, found {lang!r}", code=Code.REQUEST_LANGUAGE
                )
            ]
        )
    name = ruleset or rulebook.default_ruleset()
    now = time.monotonic()
    checked = _CHECKED.get(name)
    if checked is None or now - checked[0] > RECHECK_SECONDS:
        checked = _CHECKED[name] = (now, rulebook.fingerprint(name))  # the files read and hashed, not loaded
    return _engine(checked[1], name, lang)


def lookup(text: str, lang: str = "en", limit: int = 10, *, ruleset: str | None = None) -> list[Hit]:
    """The rules that answer ``text`` (either language), best first, shown in ``lang``."""
    eng = engine(lang, ruleset)
    hits = []
    for result in eng.search(text, limit):
        doc_id, kind, url, title, section, body = eng.docs[result.doc]
        snippet, marks = eng.snippet(body, result.keys)
        hits.append(Hit(doc_id, kind, title, section, snippet, url, result.score, tuple(marks)))
    return hits
