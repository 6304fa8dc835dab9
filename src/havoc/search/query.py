"""Answering a query from the index; ``havoc-search.js`` is the same algorithm, step by step.

1. The query's words, stopwords dropped (the first 32).
2. Each word's keys: the keys its folded form had in the rulebook (which include the concept of a
   glossary term it is a form of); else its Polish and English stems (or, when a stem is itself a
   word of the rulebook, that word's keys: trogowie → trogow → trogów); else, for a word of 5+
   letters, the words one typo away (weight 0.7); else, for the last word only (the reader may
   still be typing), the words it begins (weight 0.8, 20 at most).
3. A run of words that spells a multi-word glossary term (on keys, so any inflection) adds
   that term's concept: "punkty zwycięstwa" means Victory Points, "punkty" alone does not.
4. A document scores, per word, its best key, summed over words; the sum is multiplied by
   (words matched / words)², so every word is optional but covering more of them wins.
5. Unless the query names a variant ("solo"), its documents are multiplied by ``VARIANT_WEIGHT``
   and rank below every base document that covers as many of the query's words: the base rules
   that decide a question come first, the variant's only when nothing else matches as well; a
   query that names it ("solo winner") multiplies them by ``NAMED_WEIGHT`` instead. A
   glossary term that covers fewer words than the best document, or any term when the best
   document covers ``TERM_QUESTION_WORDS`` words or more, is multiplied by ``TERM_PART_WEIGHT``:
   a question is answered by a rule, the term's definition answers its name.
6. A rule's display number typed as a whole word ("11.4", "§11.4", "S1.2", "E3") puts that rule
   first; then the glossary term whose name the whole query is ("HQ", "sztab", "Trog Nest"); the other
   words rank the rest (for a term, the rules it governs come next: the index gives them its
   concept as title).
7. Results are rules: an example counts as its rule, and a rule is listed once, where it ranks
   best (its own text or one of its examples).
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict

from havoc import TYPE_CHECKING
from havoc.search import text as T

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NamedTuple
else:
    from havoc.core.tuples import NamedTuple

TYPO_WEIGHT = 0.7
PREFIX_WEIGHT = 0.8
PREFIX_LIMIT = 20
TYPO_MIN, PREFIX_MIN = 5, 3
MAX_WORDS = 32  # a pasted paragraph is cut here: a question is never that long
VARIANT_WEIGHT = 0.4
AFTER_WEIGHT = 0.7
NAMED_WEIGHT = 2.0
TERM_PART_WEIGHT = 0.5
TERM_QUESTION_WORDS = 3  # a query of this many words is a question: a rule answers it
FLOOR_SHARE = 0.999
# a rule number as the numbering writes it ("11.4", "3.1s", "s1.2", "e3"), after folding
NUMBER = re.compile(r"^§?([0-9]+(?:\.[0-9]+)+[a-z]?|[a-z][0-9]+(?:\.[0-9]+)*)$")
NUMBER_TRIM = ".,;:!?()"
# BM25F (index.py scores with these; the site's index ships them, so the browser scores alike)
FIELD_WEIGHTS = (4.0, 2.5, 1.5, 1.0, 1.0)  # title, summary, terms, text, section (index.FIELDS)
K1, B = 1.2, 0.75
KIND_BOOST = {"rule": 1.0, "term": 1.0, "example": 0.55}
# Shipped in the site's index, so the browser's query uses the very same numbers.
PARAMS = {
    "k1": K1,
    "b": B,
    "field_weights": list(FIELD_WEIGHTS),
    "kind_boost": KIND_BOOST,
    "typo_weight": TYPO_WEIGHT,
    "prefix_weight": PREFIX_WEIGHT,
    "prefix_limit": PREFIX_LIMIT,
    "typo_min": TYPO_MIN,
    "prefix_min": PREFIX_MIN,
    "max_words": MAX_WORDS,
    "variant_weight": VARIANT_WEIGHT,
    "after_weight": AFTER_WEIGHT,
    "named_weight": NAMED_WEIGHT,
    "term_part_weight": TERM_PART_WEIGHT,
    "term_question_words": TERM_QUESTION_WORDS,
    "floor_share": FLOOR_SHARE,
}


def bm25f(counts: Sequence[int], lengths: Sequence[int], avg: Sequence[float], idf: float, boost: float) -> float:
    """One key's BM25F score in one document, rounded to thousandths: from the key's count in each
    field, the document's field lengths, the average field lengths and the key's idf.

    engine.js repeats it operation by operation (the same IEEE doubles in the same order, so the
    same number), and rounds as ``toFixed(3)`` does: half up, on the double's exact value. Python's
    ``round`` rounds a tie half to even, so a tie is rounded here by hand.
    """
    tf = 0.0
    for w, c, n, a in zip(FIELD_WEIGHTS, counts, lengths, avg, strict=True):
        if c:
            tf += w * c / (1 - B + B * n / a)
    raw = boost * idf * tf * (K1 + 1) / (K1 + tf)
    score = round(raw, 3)
    if abs(raw - score) * 2000 >= 0.999999:  # perhaps a tie (x.xxx5): decide on the exact value
        from decimal import ROUND_HALF_UP, Decimal

        score = float(Decimal(raw).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))
    return score


VLQ_LAST = "0123456789ABCDEFGHIJKLMNOPQRSTUV"  # a number's last base-32 digit (havoc.search.site.vlq)
VLQ_MORE = "abcdefghijklmnopqrstuvwxyz!$()*+"  # its digits before the last
_VLQ = {c: (i, False) for i, c in enumerate(VLQ_LAST)} | {c: (i, True) for i, c in enumerate(VLQ_MORE)}


def unvlq(text: str) -> list[int]:
    """The numbers :func:`havoc.search.site.vlq` packed into ``text``."""
    out: list[int] = []
    n = 0
    for c in text:
        digit, more = _VLQ[c]
        n = n * 32 + digit
        if not more:
            out.append(n)
            n = 0
    return out


def expand_numbers(packed: list[str]) -> dict[str, int]:
    """The site's rule numbers ([their documents' gaps (:func:`unvlq`), the numbers joined by
    spaces]) as the engine reads them: number -> document. engine.js alike."""
    docs, doc = [], 0
    for gap in unvlq(packed[0]):
        doc += gap
        docs.append(doc)
    return dict(zip(packed[1].split(), docs, strict=True)) if packed[1] else {}


def expand_docs(data: dict[str, Any]) -> list[list[str]]:
    """The site's documents ([id, kind, page number, title, section number, text, anchor if not
    the id]) as the engine reads them: [id, kind, url, title, section, text]. engine.js alike."""
    pages, sections = data["pages"], data["sections"]
    return [
        [d[0], d[1], f"{pages[d[2]]}#{d[6] if len(d) > 6 else d[0]}", d[3], sections[d[4]], d[5]] for d in data["docs"]
    ]


def unpack_tallies(data: dict[str, Any]) -> dict[str, list[float]]:
    """The postings from the site's form (:func:`havoc.search.site.site_parts`): per key its
    document frequency (whose idf the index lists) and (document gap, tally number) pairs, per document its kind and field lengths, the tallies
    (a key's count in each field) listed once. engine.js does the same."""
    t = data["tallies"]
    avg, lengths, patterns = t["avg"], unvlq(t["lengths"]), t["patterns"]
    boost = [KIND_BOOST[d[1]] for d in data["docs"]]
    postings: dict[str, list[float]] = {}
    for key, packed in t["rows"].items():
        row = unvlq(packed)
        idf = t["idf"][str(row[0])]  # by the key's document frequency, its first number
        post: list[float] = []
        doc = 0
        for i in range(1, len(row), 2):
            doc += row[i]
            at = len(avg) * doc
            post += [doc, bm25f(patterns[row[i + 1]], lengths[at : at + len(avg)], avg, idf, boost[doc])]
        postings[key] = post
    return postings


def pack_postings(postings: dict[str, list[float]]) -> dict[str, list[int]]:
    """Postings as the site ships them: per key, the gap from the previous document and the score
    in thousandths (scores are rounded to 0.001, so ``n / 1000`` is the very same number in Python
    and in JavaScript). Gaps are short numbers where document numbers grow with the rulebook."""
    packed = {}
    for key, post in postings.items():
        row: list[int] = []
        last = 0
        for i in range(0, len(post), 2):
            doc, score = int(post[i]), post[i + 1]
            thousandths = round(score * 1000)
            if doc < last or thousandths / 1000 != score:
                raise ValueError(f"postings of {key!r}: documents out of order or a score not in thousandths")
            row += [doc - last, thousandths]
            last = doc
        packed[key] = row
    return packed


def unpack_postings(packed: dict[str, list[int]]) -> dict[str, list[float]]:
    """:func:`pack_postings` undone (engine.js does the same)."""
    postings: dict[str, list[float]] = {}
    for key, row in packed.items():
        post: list[float] = []
        doc = 0
        for i in range(0, len(row), 2):
            doc += row[i]
            post += [doc, row[i + 1] / 1000]
        postings[key] = post
    return postings


class Result(NamedTuple):
    doc: int
    score: float
    keys: frozenset[str]  # the query's keys, for highlighting


class Engine:
    """One language's index, ready to query."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.lang: str = data["lang"]
        self.docs: list[list[str]] = expand_docs(data) if "pages" in data else data["docs"]
        self.postings: dict[str, list[float]] = (
            data["postings"]
            if "postings" in data
            else unpack_tallies(data)
            if "tallies" in data
            else unpack_postings(data["packed"])
        )
        self.vocab: dict[str, list[str]] = data["vocab"]
        self.words = sorted(self.vocab)
        self.phrases: list[tuple[list[str], str]] = [(list(k), c) for k, c in data["phrases"]]
        self._phrases_from: dict[str, list[int]] = defaultdict(list)  # first key -> phrase numbers
        # a glossary term's names, folded ("hq", "sztaby", "trog nest") -> its document
        self.term_names: dict[str, int] = data.get("term_names", {})
        for i, (keys, _) in enumerate(self.phrases):
            self._phrases_from[keys[0]].append(i)
        self.variants: dict[str, dict[str, list[Any]]] = data.get("variants", {})
        self.after: dict[str, dict[str, list[Any]]] = data.get("after", {})
        numbers = data.get("numbers", {})
        self.numbers: dict[str, int] = expand_numbers(numbers) if isinstance(numbers, list) else numbers
        self._deletes: dict[str, list[str]] | None = None
        # the same postings as (document, score) pairs (a faster loop in Python), made for a key
        # when a query first reads it: a short `havoc lookup` reads a handful of thousands
        self._pairs: dict[str, list[tuple[int, float]]] = {}
        self._tokens: dict[str, list[tuple[int, int, Sequence[str]]]] = {}

    def _pairs_of(self, key: str) -> list[tuple[int, float]]:
        """The postings of ``key`` as (document, score) pairs."""
        found = self._pairs.get(key)
        if found is None:
            v = self.postings.get(key)
            if v is None:  # not kept: a server's memory never grows with the words people type
                return []
            found = self._pairs[key] = list(zip(map(int, v[::2]), v[1::2], strict=True))
        return found

    # -- keys of one word ------------------------------------------------------------------

    def _typos(self, f: str) -> list[str]:
        """Vocabulary words one edit away (found through shared one-letter deletions)."""
        if self._deletes is None:
            deletes: dict[str, list[str]] = defaultdict(list)
            for w in self.words:
                if len(w) >= TYPO_MIN - 1:
                    for i in range(len(w)):
                        deletes[w[:i] + w[i + 1 :]].append(w)
                    deletes[w].append(w)
            self._deletes = dict(deletes)
        candidates: set[str] = set(self._deletes.get(f, ()))
        for i in range(len(f)):
            d = f[:i] + f[i + 1 :]
            candidates.update(self._deletes.get(d, ()))
            if d in self.vocab:
                candidates.add(d)
        return sorted(w for w in candidates if T.edit1(f, w))

    def _prefixed(self, f: str) -> list[str]:
        i = bisect.bisect_left(self.words, f)
        out: list[str] = []
        while i < len(self.words) and self.words[i].startswith(f) and len(out) < PREFIX_LIMIT:
            out.append(self.words[i])
            i += 1
        return out

    def word_keys(self, word: str, last: bool) -> list[tuple[str, float]]:
        f = T.fold(word)
        found = self.vocab.get(f)
        if found:
            return [(k, 1.0) for k in found]
        stems = [word] if word.isdigit() else [T.fold(T.snowball(word, lang)) for lang in ("pl", "en")]
        out = [(k, 1.0) for s in dict.fromkeys(stems) for k in ([s] if s in self.postings else self.vocab.get(s, []))]
        if not out and len(f) >= TYPO_MIN:
            out = [(k, TYPO_WEIGHT) for w in self._typos(f) for k in self.vocab[w]]
        if not out and last and len(f) >= PREFIX_MIN:
            out = [(k, PREFIX_WEIGHT) for w in self._prefixed(f) for k in self.vocab[w]]
        seen: dict[str, float] = {}
        for k, wt in out:
            seen.setdefault(k, wt)
        return list(seen.items())

    # -- the query -------------------------------------------------------------------------

    def split_numbers(self, query: str) -> tuple[list[int], str]:
        """The rules whose display numbers the query types, and the query without them."""
        found: list[int] = []
        rest: list[str] = []
        for chunk in query.split():
            m = NUMBER.match(T.fold(chunk).strip(NUMBER_TRIM))
            if m and m.group(1) in self.numbers and self.numbers[m.group(1)] not in found:
                found.append(self.numbers[m.group(1)])
            else:
                rest.append(chunk)
        return found, " ".join(rest)

    def query_words(self, query: str) -> tuple[list[int], list[str]]:
        """The rules the query names by number, and its other words (stopwords dropped)."""
        numbered, rest = self.split_numbers(query)
        return numbered, [w for w in T.words(rest) if not T.is_stopword(w)][:MAX_WORDS]

    def match(self, ws: list[str]) -> tuple[dict[int, float], dict[int, int], frozenset[str], dict[str, range]]:
        """Each document's summed score and how many query words it covers; the query's keys;
        the phrases found (concept -> the words it spans)."""
        total, covered, keys, extra, _ = self._match(ws)
        return total, covered, keys, extra

    def _match(
        self, ws: list[str]
    ) -> tuple[dict[int, float], dict[int, int], frozenset[str], dict[str, range], list[int]]:
        alts = [self.word_keys(w, i == len(ws) - 1) for i, w in enumerate(ws)]
        key_sets = [{k for k, _ in a} for a in alts]
        extra: dict[str, range] = {}  # concept -> the query words its phrase spans (first match)
        # only the phrases that start with one of the query's keys, in the index's order
        candidates = sorted({i for ks in key_sets for k in ks for i in self._phrases_from.get(k, ())})
        for keys, concept in (self.phrases[i] for i in candidates):
            n = len(keys)
            for start in range(len(ws) - n + 1):
                if all(keys[m] in key_sets[start + m] for m in range(n)):
                    extra.setdefault(concept, range(start, start + n))
                    break
        total: dict[int, float] = {}
        covered: dict[int, int] = {}
        bests: list[dict[int, float]] = []
        for a in alts:
            best: dict[int, float] = {}
            for k, wt in a:
                for d, score in self._pairs_of(k):
                    s = wt * score
                    if s > best.get(d, 0.0):
                        best[d] = s
            bests.append(best)
            for d, s in best.items():
                total[d] = total.get(d, 0.0) + s
                covered[d] = covered.get(d, 0) + 1
        # a phrase covers its words: "liczba graczy" finds the rule it names, whatever its words
        credited: dict[int, set[int]] = {}
        for concept, span in extra.items():
            for d, score in self._pairs_of(concept):
                total[d] = total.get(d, 0.0) + score
                covered.setdefault(d, 0)
                credited.setdefault(d, set()).update(p for p in span if d not in bests[p])
        for d, ps in credited.items():
            covered[d] += len(ps)
        # the glossary term the whole query names ("HQ", "sztab", "Trog Nest"), shown first
        name = " ".join(dict.fromkeys(T.fold(w) for w in ws))  # a doubled word is still the name
        named = [self.term_names[name]] if name in self.term_names else []
        return total, covered, frozenset(k for a in alts for k, _ in a) | frozenset(extra), extra, named

    def covers(self, ws: list[str]) -> dict[int, set[int]]:
        """Which query words each document covers (for tests and explanations; slower)."""
        out: dict[int, set[int]] = {}
        for p, w in enumerate(ws):
            for k, _ in self.word_keys(w, p == len(ws) - 1):
                for d, _ in self._pairs_of(k):
                    out.setdefault(d, set()).add(p)
        for concept, span in self.match(ws)[3].items():
            for d, _ in self._pairs_of(concept):
                out.setdefault(d, set()).update(span)
        return out

    def demoted(self, ws: list[str]) -> set[int]:
        """The documents of every variant the query does not name."""
        folded = {T.fold(w) for w in ws}
        out: set[int] = set()
        for variant in self.variants.values():
            if not any(folded.issuperset(name) for name in variant["names"]):
                out.update(variant["docs"])
        return out

    def amending(self, ws: list[str]) -> set[int]:
        """The documents shown a little after the base rules (errata …) the query does not ask for."""
        folded = {T.fold(w) for w in ws}
        out: set[int] = set()
        for group in self.after.values():
            if not any(folded.issuperset(name) for name in group["names"]):
                out.update(group["docs"])
        return out

    def preferred(self, ws: list[str]) -> set[int]:
        """The documents of the variants (and after-base groups) the query names: "solo winner"."""
        folded = {T.fold(w) for w in ws}
        out: set[int] = set()
        for group in (*self.variants.values(), *self.after.values()):
            if any(folded.issuperset(name) for name in group["names"]):
                out.update(group["docs"])
        return out

    def search(self, query: str, limit: int = 10) -> list[Result]:
        numbered, ws = self.query_words(query)
        if (not ws and not numbered) or limit <= 0:
            return []
        total, covered_by, matched, _, named = self._match(ws)
        demoted = self.demoted(ws)
        amending = self.amending(ws)
        preferred = self.preferred(ws)
        n = len(ws)
        most = max(covered_by.values(), default=0)
        scored = []
        # the lowest score of a base document covering at least c words, for c = n .. 1
        floor = [0.0] * (n + 2)
        for d in total:
            covered = covered_by[d]
            s = total[d] * ((covered / n) * (covered / n))
            if (covered < most or most >= TERM_QUESTION_WORDS) and self.docs[d][1] == "term":
                s = s * TERM_PART_WEIGHT  # a question of more words than the term is answered by a rule
            if d in preferred:
                s = s * NAMED_WEIGHT
            if d in amending:
                s = s * AFTER_WEIGHT
            if d in demoted:
                s = s * VARIANT_WEIGHT
            elif floor[covered] == 0.0 or s < floor[covered]:
                floor[covered] = s
            scored.append((s, d))
        for c in range(n - 1, 0, -1):
            if floor[c + 1] != 0.0 and (floor[c] == 0.0 or floor[c + 1] < floor[c]):
                floor[c] = floor[c + 1]
        # a variant's document ranks below every base document that covers as many words
        scored = [
            (min(s, floor[covered_by[d]] * FLOOR_SHARE) if d in demoted and floor[covered_by[d]] else s, d)
            for s, d in scored
        ]
        ranked = sorted(scored, key=lambda sd: (-sd[0], sd[1]))
        top = ranked[0][0] if ranked else 0.0
        # first the rules typed by number, then the terms the query names, then the rest
        front = numbered + [d for _, d in ranked if d in named and d not in numbered]
        ranked = [(top + len(front) - i, d) for i, d in enumerate(front)] + ranked
        out: list[Result] = []
        seen: set[str] = set()
        for s, d in ranked:
            rule_id = self.docs[d][0]
            if s <= 0 or rule_id in seen:
                continue
            seen.add(rule_id)
            out.append(Result(d, s, matched))
            if len(out) == limit:
                break
        return out

    # -- the snippet -----------------------------------------------------------------------

    def snippet(self, text: str, keys: frozenset[str], width: int = 200) -> tuple[str, list[tuple[int, int]]]:
        """A window of ``text`` around its matched words, and where those words are in it."""
        toks = self._tokens.get(text)
        if toks is None:
            # each word's keys as the vocabulary holds them (a frozenset each cost a lookup its time)
            vocab, fold = self.vocab, T.fold
            toks = self._tokens[text] = [(s, e, vocab.get(fold(w), ())) for s, e, w in T.spans(text)]
        hits = [(s, e) for s, e, ks in toks if not keys.isdisjoint(ks)]
        start, end = 0, len(text)
        if len(text) > width:
            best, best_n = 0, -1
            for s, _ in hits:
                n_in = sum(1 for s2, e2 in hits if s2 >= s and e2 <= s + width - 40)
                if n_in > best_n:
                    best, best_n = s, n_in
            begin = max(0, best - 40)
            starts = [s for s, _, _ in toks if s >= begin]
            start = starts[0] if begin > 0 and starts else 0
            ends = [e for _, e, _ in toks if e <= start + width]
            end = ends[-1] if ends else min(len(text), start + width)
            end = min(len(text), end + (1 if end < len(text) and text[end] in ".,;:!?)" else 0))
        prefix = "…" if start > 0 else ""
        suffix = "…" if end < len(text) else ""
        out = prefix + text[start:end] + suffix
        shift = len(prefix) - start
        return out, [(s + shift, e + shift) for s, e in hits if s >= start and e <= end]
