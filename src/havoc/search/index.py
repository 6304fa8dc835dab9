"""The search index: one document per rule, glossary term and example, both languages at once.

Documents come from the rulebook model and the catalogs, never from rendered pages, so a result
is a rule (with its own anchor), not a page that happens to hold every word. Each document has
the fields title, summary, terms (the glossary terms it links), text and section, in English and
in Polish; a word of either language finds the rule, and the result is shown in the reader's.

Ranking is BM25F: a key's field frequencies are weighted (title > summary > terms > text >
section), length-normalised per field and saturated once per document. Every (key, document)
score is computed here and rounded, so the Python query and the browser's query add up exactly
the same numbers and rank alike.

The rulebook's structure is in the index too: which documents belong to a variant (ranked below
the base rules unless the query names the variant), each rule's display number ("11.4"), the
rules a glossary term governs (its ``see``), and the players' words of ``search.yaml``
(:mod:`havoc.search.players`).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from havoc.core.errors import Code, Problem, RulebookError
from havoc.engine.numbering import numbers
from havoc.engine.rulebook.model import Rule, Ruleset
from havoc.language.i18n import LANGUAGES, Translator, translator, ui
from havoc.search import players
from havoc.search import query as Q
from havoc.search import text as T

FORMAT = 1
FIELDS = ("title", "summary", "terms", "text", "section")
WEIGHTS = dict(zip(FIELDS, Q.FIELD_WEIGHTS, strict=True))  # title > summary > terms > text = section
KIND_BOOST = Q.KIND_BOOST
K1, B = Q.K1, Q.B
CONCEPT = "@"  # concept keys: "@" + term ID, shared by both languages
SYNONYM = "="  # keys of players' words that find rules: "=" + the entry's first word
PAGES_DIR = "rules"
GLOSSARY_PAGE = "glossary.html"


class Doc(NamedTuple):
    id: str  # the rule's ID (an example's rule), or term:<id>
    kind: str  # rule | term | example
    url: str  # site-relative: rules/<page>.html#<anchor>
    title: dict[str, str]  # per language
    section: dict[str, str]
    summary: dict[str, str]
    text: dict[str, str]  # plain text, for the snippet
    terms: tuple[str, ...]  # linked term IDs
    # what a result shows when it is not what is indexed: an example is shown as its rule
    shown_title: dict[str, str] | None = None
    shown_section: dict[str, str] | None = None
    variant: str = ""  # the variant overlay it belongs to ("" for base rules, errata, terms)


def _page(rs: Ruleset, rule: Rule) -> str:
    """The page a rule is rendered on: its section's, or its overlay's."""
    if rule.section_id and rs.sections[rule.section_id].origin == "base":
        return f"{PAGES_DIR}/{rule.section_id}.html"
    origin = rule.origin if rule.origin != "base" else rs.sections[rule.section_id].origin
    return f"{PAGES_DIR}/{origin}.html"


def _section_title(rs: Ruleset, rule: Rule, tr: Translator) -> str:
    if rule.section_id and rs.sections[rule.section_id].origin == "base":
        section = rs.sections[rule.section_id]
        return tr.text(f"{section.id}:title", section.title)
    overlay = rs.overlays[rule.origin]
    name = tr.text(f"{overlay.id}:title", overlay.title)
    if rule.section_id:
        section = rs.sections[rule.section_id]
        return f"{name}: {tr.text(f'{section.id}:title', section.title)}"
    return name


_TERM_LINK = re.compile(r"\]\(term:([a-z0-9-]+)\)")


def _linked_terms(*texts: str | None) -> list[str]:
    """The glossary terms a text links to (in the order they appear)."""
    return [m.group(1) for s in texts if s for m in _TERM_LINK.finditer(s)]


def documents(rs: Ruleset) -> list[Doc]:
    """Every searchable thing of the ruleset, in book order."""
    trs = {lang: translator(lang, rs.id) for lang in LANGUAGES}

    def each(context: str, msgid: str | None) -> dict[str, str]:
        if not msgid:
            return dict.fromkeys(LANGUAGES, "")
        return {lang: " ".join(tr.render(rs, context, msgid).split()) for lang, tr in trs.items()}

    docs: list[Doc] = []
    for rule in _book_order(rs):
        page = _page(rs, rule)
        origin = rs.overlays.get(rule.origin)
        variant = rule.origin if origin is not None and origin.kind == "variant" else ""
        section = {lang: _section_title(rs, rule, tr) for lang, tr in trs.items()}
        title = each(f"{rule.id}:title", rule.title)
        terms = tuple(dict.fromkeys([*rule.terms, *_linked_terms(rule.text, rule.summary)]))
        docs.append(
            Doc(
                rule.id,
                "rule",
                f"{page}#{rule.id}",
                title,
                section,
                each(f"{rule.id}:summary", rule.summary),
                each(f"{rule.id}:text", rule.text),
                terms,
                variant=variant,
            )
        )
        for ex in rule.examples:
            docs.append(
                Doc(
                    rule.id,
                    "example",
                    f"{page}#{rule.id}",
                    each(f"{ex.id}:title", ex.title),
                    title,
                    dict.fromkeys(LANGUAGES, ""),
                    each(f"{ex.id}:text", ex.text),
                    tuple(dict.fromkeys(_linked_terms(ex.text))),
                    shown_title=title,
                    shown_section=section,
                    variant=variant,
                )
            )
    for term in rs.terms.values():
        docs.append(
            Doc(
                f"term:{term.id}",
                "term",
                f"{GLOSSARY_PAGE}#term-{term.id}",
                {lang: tr.term_name(rs, term.id) for lang, tr in trs.items()},
                {lang: ui("Glossary", lang) for lang in LANGUAGES},
                dict.fromkeys(LANGUAGES, ""),
                each(f"term:{term.id}:definition", term.definition),
                (term.id,),
            )
        )
    return docs


def _book_order(rs: Ruleset) -> list[Rule]:
    ids = [rid for part in rs.parts for sid in part.section_ids for rid in rs.sections[sid].rule_ids]
    ids += [rid for rid in rs.rules if rid not in set(ids)]
    return [rs.rules[rid] for rid in dict.fromkeys(ids)]


def term_forms(rs: Ruleset, term_id: str, lang: str) -> list[str]:
    """The forms a reader may type for a term: its name's plural forms and listed inflections."""
    tr = translator(lang, rs.id)
    term = rs.terms[term_id]
    forms = [tr.term_name(rs, term_id), tr.term_name(rs, term_id, 2), tr.term_name(rs, term_id, 5)]
    if term.search_forms:
        forms += tr.text(f"term:{term_id}:search-forms", term.search_forms).split(",")
    return list(dict.fromkeys(f.strip().lower() for f in forms if f.strip()))


class Analyzer:
    """Turns one language's text into keys, remembering every surface form it saw.

    A word's key is its own stem; a word that is a form of a glossary term also carries that
    term's concept key. The concept joins the forms Snowball splits (kryształy, kryształów) and
    the two languages' names of a term, while the stem keeps a word's own meaning: "wykup" is
    listed under Prisoner, yet a rule that says "wykup" still beats one that only says "Jeniec".
    """

    def __init__(self, lang: str, concepts: dict[str, str]) -> None:
        self.lang = lang
        self.concepts = concepts
        self._keys: dict[str, tuple[str, ...]] = {}
        self.vocab: dict[str, set[str]] = defaultdict(set)
        # the last build's analysis of each text (valid for the same concepts and code): text ->
        # (its keys, its words); and what this build used, for the next one
        self.memo: dict[str, tuple[list[str], tuple[str, ...]]] = {}
        self.memo_named: dict[str, list[str]] = {}
        self.used: dict[str, tuple[list[str], tuple[str, ...]]] = {}
        self.used_named: dict[str, list[str]] = {}

    def recall(self, memo: Any) -> None:
        """Start from an earlier build's :meth:`remembered` analysis (made with the same concepts)."""
        if isinstance(memo, dict) and isinstance(memo.get("texts"), dict) and isinstance(memo.get("named"), dict):
            self.memo, self.memo_named = memo["texts"], memo["named"]

    def word_keys(self, word: str) -> tuple[str, ...]:
        ks = self._keys.get(word)
        if ks is None:
            f = T.fold(word)
            concept = self.concepts.get(f)
            ks = (T.key(word, self.lang), concept) if concept else (T.key(word, self.lang),)
            self._keys[word] = ks
            self.vocab[f].update(ks)
        return ks

    def keys(self, text: str) -> list[str]:
        """Every word's keys, and a hyphenated compound's joined form ("tie-break": tiebreak)."""
        found = self.used.get(text) or self.memo.get(text)
        if found is not None:
            for w in found[1]:  # the words' keys, as analysing the text would have noted them
                self.word_keys(w)
        else:
            ws = [w for w in T.words(text) if not T.is_stopword(w)] + T.compounds(text)
            out = [k for w in ws for k in self.word_keys(w)]
            found = (out, tuple(dict.fromkeys(ws)))
        self.used[text] = found
        return found[0]

    def named_terms(self, text: str, by_first: dict[str, list[tuple[list[str], str]]]) -> list[str]:
        """:func:`_named_terms` of ``text``, from the last build's analysis when it has the text."""
        found = self.used_named.get(text)
        if found is None:
            found = self.memo_named.get(text)
            if found is None:
                found = sorted(_named_terms(self, text, by_first))
            self.used_named[text] = found
        return found

    def remembered(self) -> dict[str, Any]:
        """What this build analysed, for the next build's :class:`Analyzer` (``memo``)."""
        return {"texts": self.used, "named": self.used_named}

    def stems(self, phrase: str) -> list[str]:
        """A phrase's words as stem keys, stopwords dropped (how a multi-word form is matched)."""
        return [self.word_keys(w)[0] for w in T.words(phrase) if not T.is_stopword(w)]


def _stems_key() -> str:
    """What a word's key depends on: the stemmers (snowballstemmer's version) and text.py."""
    from importlib.metadata import version

    from havoc.core import cache

    return cache.digest(b"search-stems", version("snowballstemmer").encode(), Path(T.__file__).read_bytes())


def _recall_stems() -> int:
    """Start from the keys of the words an earlier build stemmed (:mod:`havoc.core.cache`, verified):
    a rebuild after an edit stems only the words it has not seen. How many words are known."""
    from havoc.core import cache

    found = cache.get("search-stems", _stems_key(), dict)
    for lang, words in (found or {}).items():
        if isinstance(lang, str) and isinstance(words, dict):
            T.KEYS.setdefault(lang, {}).update(
                (w, k) for w, k in words.items() if isinstance(w, str) and isinstance(k, str)
            )
    return sum(len(ws) for ws in T.KEYS.values())


def _keep_stems(known: int) -> None:
    """Store the words' keys for the next build when this one stemmed new words."""
    from havoc.core import cache

    if sum(len(ws) for ws in T.KEYS.values()) > known:
        cache.put("search-stems", _stems_key(), {lang: dict(ws) for lang, ws in T.KEYS.items()})


def build(rs: Ruleset) -> dict[str, Any]:
    """The whole index (both languages' displays): see :func:`for_language` for the site's part."""
    known = _recall_stems()
    index = _build(rs)
    _keep_stems(known)
    return index


def _memo_key(concepts: dict[str, str], term_phrases: list[tuple[list[str], str]]) -> str:
    """What a text's analysis depends on besides the text: the concepts (glossary forms), the
    term phrases, the stemmers and the code."""
    from havoc.core import cache

    return cache.digest(
        _stems_key().encode(),
        Path(__file__).read_bytes(),
        repr(sorted(concepts.items())).encode(),
        repr(term_phrases).encode(),
    )


def _recall_analysis(key: str) -> dict[str, Any]:
    """The last build's analysis of each text per language (:mod:`havoc.core.cache`, verified), when
    it was made with the same concepts and code; else nothing."""
    from havoc.core import cache

    found = cache.get("search-analysis", key, dict)
    return found if found is not None and all(isinstance(v, dict) for v in found.values()) else {}


def _keep_analysis(key: str, analyzers: dict[str, Analyzer], before: dict[str, Any]) -> None:
    from havoc.core import cache

    now = {lang: an.remembered() for lang, an in analyzers.items()}
    if now != before:
        cache.put("search-analysis", key, now)


def _build(rs: Ruleset) -> dict[str, Any]:  # noqa: C901 - one pass over every document and field; splitting it would copy its shared tables
    docs = documents(rs)
    said = players.read(rs)
    groups = {lang: {tid: term_forms(rs, tid, lang) for tid in rs.terms} for lang in LANGUAGES}
    concepts: dict[str, str] = {}  # folded single-word form -> concept key (first term wins)
    for lang in LANGUAGES:
        for tid, forms in groups[lang].items():
            for form in forms:
                if len(T.words(form)) == 1 and not _fragment(form, forms, lang):
                    concepts.setdefault(T.fold(form), CONCEPT + tid)
    analyzers = {lang: Analyzer(lang, concepts) for lang in LANGUAGES}
    phrases: list[tuple[list[str], str]] = []  # multi-word forms, as stem keys -> concept key
    joined: dict[str, set[str]] = defaultdict(set)  # a multi-word form typed as one word -> keys
    for lang, an in analyzers.items():
        for tid, forms in groups[lang].items():
            for form in forms:
                stems = an.stems(form)
                if len(stems) > 1:
                    phrases.append((stems, CONCEPT + tid))
                    joined[T.fold("".join(T.words(form)))].add(CONCEPT + tid)  # "warparty"
    term_phrases = list(phrases)  # a rule text names a term by these; players' words do not count
    # a rebuild after an edit analyses only the texts the last build did not (their keys and
    # named terms depend on nothing else while the concepts, the term phrases and the code stay)
    memo_key = _memo_key(concepts, term_phrases)
    before = _recall_analysis(memo_key)
    for lang, an in analyzers.items():
        an.recall(before.get(lang))
    # players' words: single words extend the vocabulary (below), phrases are matched like terms
    said_keys: dict[str, set[str]] = defaultdict(set)  # folded word -> keys it adds
    said_like: dict[str, set[str]] = defaultdict(set)  # folded word -> rulebook words it means
    finds: dict[str, set[str]] = defaultdict(set)  # rule ID -> synonym keys that find it
    for syn in said.synonyms:
        target = ""
        if syn.rules:
            first = next(f for fs in syn.forms.values() for f in fs)
            target = SYNONYM + T.fold("".join(T.words(first)))
            for rid in syn.rules:
                finds[rid].add(target)
        elif syn.term:
            target = CONCEPT + syn.term
        for lang, said_forms in syn.forms.items():
            an = analyzers[lang]
            for form in said_forms:
                ws = T.words(form)
                stems = an.stems(form)
                if len(ws) == 1 and target:
                    said_keys[T.fold(ws[0])].add(target)
                elif len(ws) == 1:
                    said_like[T.fold(ws[0])].update(T.fold(w) for w in syn.like)
                elif len(stems) > 1 and target:
                    phrases.append((stems, target))
                    joined[T.fold("".join(ws))].add(target)

    governs: dict[str, list[str]] = defaultdict(list)
    for term in rs.terms.values():
        for rid in term.see:
            governs[rid].append(term.id)
    term_names = {tid: {lang: " ".join(term_forms(rs, tid, lang)[:3]) for lang in LANGUAGES} for tid in rs.terms}
    by_first: dict[str, list[tuple[list[str], str]]] = defaultdict(list)
    for stems, concept in term_phrases:
        by_first[stems[0]].append((stems, concept))
    fields_of: list[dict[str, Counter[str]]] = []
    for doc in docs:
        counts: dict[str, Counter[str]] = {f: Counter() for f in FIELDS}
        used = set(doc.terms)
        if doc.kind == "rule":
            # the players' words that find this rule, as strong as its title's words
            counts["title"].update(sorted(finds.get(doc.id, ())))
        for lang, an in analyzers.items():
            counts["title"].update(an.keys(doc.title[lang]))
            counts["summary"].update(an.keys(doc.summary[lang]))
            counts["text"].update(an.keys(doc.text[lang]))
            counts["section"].update(an.keys(doc.section[lang]))
            if doc.kind != "term":
                used.update(an.named_terms(f"{doc.title[lang]} . {doc.summary[lang]} . {doc.text[lang]}", by_first))
        for tid in sorted(used):
            for lang, an in analyzers.items():
                counts["terms"].update(an.keys(term_names[tid][lang]))
            # a glossary entry is its own term's best answer: its concept counts as title
            counts["title" if doc.kind == "term" else "terms"][CONCEPT + tid] += 2
        if doc.kind == "rule":
            # the rules a term governs (its "see") are about it, not merely using it
            for tid in governs.get(doc.id, ()):
                counts["title"][CONCEPT + tid] += 1
        fields_of.append(counts)

    n = len(docs)
    avg = {f: max(1.0, sum(sum(c[f].values()) for c in fields_of) / n) for f in FIELDS}
    df: Counter[str] = Counter()
    for counts in fields_of:
        df.update(set().union(*(c.keys() for c in counts.values())))
    postings: dict[str, list[float]] = {}
    idfs = {k: math.log(1 + (n - d + 0.5) / (d + 0.5)) for k, d in df.items()}
    # what the site ships instead of the scores (each is computed again from these, exactly)
    doc_lengths: list[list[int]] = []
    tallies: dict[str, list[tuple[int, tuple[int, ...]]]] = {}  # key -> (document, count per field)
    averages = [avg[f] for f in FIELDS]
    for i, (doc, counts) in enumerate(zip(docs, fields_of, strict=True)):
        lengths = [sum(counts[f].values()) for f in FIELDS]
        doc_lengths.append(lengths)
        for k in sorted(set().union(*(c.keys() for c in counts.values()))):
            tally = tuple(counts[f][k] for f in FIELDS)
            score = Q.bm25f(tally, lengths, averages, idfs[k], KIND_BOOST[doc.kind])
            if score > 0:
                postings.setdefault(k, []).extend((i, score))
                tallies.setdefault(k, []).append((i, tally))

    # a phrase's words are kept in the vocabulary even when no rule uses them ("tie breaker")
    phrase_keys = {k for keys, c in phrases if c in postings for k in keys}
    vocab: dict[str, set[str]] = defaultdict(set)
    for an in analyzers.values():
        for word, keys in an.vocab.items():
            vocab[word] |= {k for k in keys if k in postings or k in phrase_keys}
    for table in (said_keys, joined):
        for word, keys in table.items():
            vocab[word] |= {k for k in keys if k in postings}
    missing = sorted({w for ws in said_like.values() for w in ws} - set(vocab))
    if missing:
        name = f"rules/{rs.id}/{players.FILE}"
        raise RulebookError(
            [Problem(name, None, f"like: no rule uses the word {w!r}", code=Code.SEARCH_WORDS) for w in missing]
        )
    for word, likes in said_like.items():
        vocab[word] |= {k for w in likes for k in vocab[w]}
    _keep_analysis(memo_key, analyzers, before)
    numbered = numbers(rs)
    after = sorted({*(o.id for o in rs.overlays.values() if o.kind == "errata"), *said.after_base})
    rule_doc = {d.id: i for i, d in reversed(list(enumerate(docs))) if d.kind == "rule"}
    return {
        "format": FORMAT,
        "docs": docs,
        # the site's form of the postings (:func:`havoc.search.site.site_parts`)
        "tallies": {
            "avg": [avg[f] for f in FIELDS],
            "lengths": doc_lengths,
            "df": {k: df[k] for k in postings},
            "idf": {d: math.log(1 + (n - d + 0.5) / (d + 0.5)) for d in sorted({df[k] for k in postings})},
            "keys": tallies,
            "languages": {lang: sorted(an.vocab) for lang, an in analyzers.items()},
        },
        "postings": postings,
        "vocab": {w: sorted(ks) for w, ks in sorted(vocab.items()) if ks},
        "phrases": [[keys, c] for keys, c in _unique(phrases) if c in postings],
        "variants": {
            vid: {
                # the words that name it (each a set of words the query must all have)
                "names": [sorted({T.fold(w) for w in T.words(f)}) for f in said.variants.get(vid, (vid,))],
                "docs": [i for i, d in enumerate(docs) if _variant_of(rs, d, said) == vid],
            }
            for vid in sorted({*(o.id for o in rs.variants()), *said.variants})
        },
        # errata (and sections listed after-base): a little after the base rules, unless asked for
        "after": {
            gid: {
                "names": [sorted({T.fold(w) for w in T.words(f)}) for f in said.after_base.get(gid, (gid,))],
                "docs": [i for i, d in enumerate(docs) if _in_group(rs, d, gid)],
            }
            for gid in after
        },
        "term_names": {
            " ".join(T.fold(w) for w in T.words(form) if not T.is_stopword(w)): i
            for i, d in enumerate(docs)
            if d.kind == "term"
            for lang in LANGUAGES
            for form in groups[lang][d.id[len("term:") :]][:3]
        },
        "numbers": {T.fold(numbered[rid]): i for rid, i in sorted(rule_doc.items()) if rid in numbered},
    }


def _in_group(rs: Ruleset, doc: Doc, gid: str) -> bool:
    """Whether a rule or example document comes from overlay or section ``gid``."""
    rule = rs.rules.get(doc.id) if doc.kind != "term" else None
    return rule is not None and gid in (rule.origin, rule.section_id)


def _variant_of(rs: Ruleset, doc: Doc, said: players.PlayerWords) -> str:
    """The variant a document belongs to: its overlay, or a base section played only in one."""
    if doc.variant:
        return doc.variant
    rule = rs.rules.get(doc.id) if doc.kind != "term" else None
    if rule is not None and rule.section_id in said.variants:
        return rule.section_id
    return ""


def _named_terms(an: Analyzer, text: str, by_first: dict[str, list[tuple[list[str], str]]]) -> set[str]:
    """The multi-word terms a text names without linking them ("on Region Control")."""
    seq = [an.word_keys(w)[0] for w in T.words(text) if not T.is_stopword(w)]
    found = set()
    for i, stem in enumerate(seq):
        for stems, concept in by_first.get(stem, ()):
            if seq[i : i + len(stems)] == stems:
                found.add(concept[len(CONCEPT) :])
    return found


def _fragment(form: str, forms: list[str], lang: str) -> bool:
    """Whether a single word is only a piece of a term whose name is several words.

    "punkty" is listed under Punkty Zwycięstwa and "card" under Tactics card, but alone they are
    broader words (Recruit points, any card): they keep their own stem, not the term's concept.
    The term's own name (and its plural forms) are its first three forms.
    """
    name = [w for w in T.words(forms[0]) if not T.is_stopword(w)]
    if len(name) < 2:
        return False
    pieces = {T.key(w, lang) for f in forms[:3] for w in T.words(f)}
    return T.key(form, lang) in pieces


def _unique(items: Iterable[tuple[list[str], str]]) -> list[tuple[list[str], str]]:
    seen: set[tuple[str, ...]] = set()
    out = []
    for keys, concept in items:
        if tuple(keys) not in seen:
            seen.add(tuple(keys))
            out.append((keys, concept))
    return out


def for_language(index: dict[str, Any], lang: str) -> dict[str, Any]:
    """The part of the index one language's site ships: every key, each document shown in ``lang``."""
    docs: list[Doc] = index["docs"]
    return {
        "format": FORMAT,
        "lang": lang,
        "docs": [
            [
                d.id,
                d.kind,
                d.url,
                (d.shown_title or d.title)[lang],
                (d.shown_section or d.section)[lang],
                d.text[lang] or d.summary[lang],
            ]
            for d in docs
        ],
        "postings": index["postings"],
        "vocab": index["vocab"],
        "phrases": index["phrases"],
        "variants": index["variants"],
        "after": index["after"],
        "term_names": index["term_names"],
        "numbers": index["numbers"],
        "stopwords": sorted(T.FOLDED_STOPWORDS),
        "params": Q.PARAMS,
    }
