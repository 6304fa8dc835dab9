"""What one change of ``rules/`` did to the rules a player reads: two versions compared rule by rule.

``havoc diff A B`` (:mod:`havoc.cli.commands.diff`) reads the two versions (git revisions or
folders) and hands them here as loaded rulesets plus their Polish rule catalogs; this module knows
no git and no files, only :class:`~havoc.engine.rulebook.model.Ruleset`. It sits beside
``rulebook`` and ``numbering`` (it needs both, and neither needs it).

A change is one small record; its ``kind`` is one of :data:`KINDS`, in the order a maintainer
reads them (what appeared or vanished first, then what moved, then what was rewritten).
"""

from __future__ import annotations

import difflib
import re

from havoc import TYPE_CHECKING
from havoc.engine.numbering import numbers
from havoc.engine.rulebook.model import Rule, Ruleset

if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from havoc.core.tuples import NamedTuple

KINDS = (
    "added",
    "removed",
    "retired",
    "renumbered",
    "reworded",
    "params",
    "check-added",
    "check-removed",
    "example-expect",
)

# The rule fields a player reads, and the catalog field each is translated under.
TEXT_FIELDS = ("title", "text", "summary")

_WORD = re.compile(r"\s+|[^\s]+")


class Change(NamedTuple):
    """One difference between the two versions, about one rule (``rule``: its ID in B, or in A
    when B has it no more)."""

    kind: str
    rule: str
    title: str
    old: Any = None
    new: Any = None
    # reworded: per field ("title", "text", "summary", "pl:title", …) the word diff as
    # ((op, words), …), op "=" kept, "-" only in A, "+" only in B
    words: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    detail: str = ""  # params: the parameter; example-expect: the example's ID

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "rule": self.rule, "title": self.title}
        if self.old is not None:
            out["before"] = self.old
        if self.new is not None:
            out["after"] = self.new
        if self.detail:
            out["detail"] = self.detail
        if self.words:
            out["words"] = {f: [[op, w] for op, w in parts] for f, parts in self.words}
        return out


class Version(NamedTuple):
    """One side of a comparison: the ruleset, its Polish rule texts (msgctxt → msgstr) and what it was read from."""

    ruleset: Ruleset
    polish: dict[str, str]
    label: str
    fingerprint: str = ""


def word_diff(old: str, new: str) -> tuple[tuple[str, str], ...]:
    """``old`` → ``new`` word by word: runs of ("=", kept), ("-", removed), ("+", added).

    Whitespace is kept as its own token so a run reads back exactly as written; a change of
    line breaks alone is no change (rule texts are wrapped YAML blocks)."""
    a = [w for w in _WORD.findall(old) if not w.isspace()]
    b = [w for w in _WORD.findall(new) if not w.isspace()]
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("=", " ".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("-", " ".join(a[i1:i2])))
        if j2 > j1:
            out.append(("+", " ".join(b[j1:j2])))
    return tuple(out)


def _same_words(old: str | None, new: str | None) -> bool:
    return (old or "").split() == (new or "").split()


def _rule_text(rule: Rule, field: str) -> str:
    return (getattr(rule, field) or "").strip()


def _polish(v: Version, rid: str, field: str) -> str:
    return v.polish.get(f"{v.ruleset.id}:{rid}:{field}", "").strip()


def compare(a: Version, b: Version) -> list[Change]:
    """Every change from ``a`` to ``b``, ordered by :data:`KINDS`, then by B's (or A's) rule order.

    Each ruleset must carry its content fingerprint (the numbering is cached by it)."""
    if not a.ruleset.fingerprint or not b.ruleset.fingerprint:
        raise ValueError("compare() needs rulesets with their fingerprint (see havoc.engine.rulebook.stored)")
    ra, rb = a.ruleset.rules, b.ruleset.rules
    na, nb = numbers(a.ruleset), numbers(b.ruleset)
    out: list[Change] = []
    for rid, rule in rb.items():
        if rid not in ra:
            out.append(Change("added", rid, rule.title, new=nb.get(rid)))
    for rid, rule in ra.items():
        if rid in rb:
            continue
        retired = b.ruleset.retired.get(rid)
        if retired is not None:
            succ = b.ruleset.resolve(rid) or retired.successor
            out.append(Change("retired", rid, rule.title, old=na.get(rid), new=succ, detail=retired.reason or ""))
        else:
            out.append(Change("removed", rid, rule.title, old=na.get(rid)))
    for rid, new in rb.items():
        old = ra.get(rid)
        if old is None:
            continue
        if na.get(rid) != nb.get(rid):
            out.append(Change("renumbered", rid, new.title, old=na.get(rid), new=nb.get(rid)))
        out.extend(_reworded(a, b, old, new))
        out.extend(_params(old, new))
        if old.check is None and new.check is not None:
            out.append(Change("check-added", rid, new.title, new=list(new.check.queries)))
        elif old.check is not None and new.check is None:
            out.append(Change("check-removed", rid, new.title, old=list(old.check.queries)))
        out.extend(_examples(old, new))
    rank = {k: i for i, k in enumerate(KINDS)}
    order = {rid: i for i, rid in enumerate([*rb, *(r for r in ra if r not in rb)])}
    out.sort(key=lambda c: (rank[c.kind], order.get(c.rule, 0)))
    return out


def _reworded(a: Version, b: Version, old: Rule, new: Rule) -> list[Change]:
    words: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for field in TEXT_FIELDS:
        before, after = _rule_text(old, field), _rule_text(new, field)
        if not _same_words(before, after):
            words.append((field, word_diff(before, after)))
    for field in TEXT_FIELDS:
        before, after = _polish(a, old.id, field), _polish(b, new.id, field)
        if not _same_words(before, after):
            words.append((f"pl:{field}", word_diff(before, after)))
    if not words:
        return []
    return [Change("reworded", new.id, new.title, words=tuple(words))]


def _params(old: Rule, new: Rule) -> list[Change]:
    out = []
    for name in sorted({*old.params, *new.params}):
        before = old.params[name].value if name in old.params else None
        after = new.params[name].value if name in new.params else None
        if before != after:
            out.append(Change("params", new.id, new.title, old=before, new=after, detail=name))
    return out


def _examples(old: Rule, new: Rule) -> list[Change]:
    before = {e.id: e for e in old.examples}
    out = []
    for ex in new.examples:
        was = before.get(ex.id)
        if was is not None and was.expect != ex.expect:
            out.append(Change("example-expect", new.id, new.title, old=was.expect, new=ex.expect, detail=ex.id))
    return out


def summary(changes: list[Change]) -> dict[str, int]:
    """How many changes of each kind (every kind listed, zeros too, so two summaries line up)."""
    counts = dict.fromkeys(KINDS, 0)
    for c in changes:
        counts[c.kind] += 1
    return counts


def for_translator(changes: list[Change]) -> list[Change]:
    """The changes a translator must look at again: a rule added, or whose English was reworded
    (its Polish may now say something else). A change of the Polish alone is the translator's own."""
    out = []
    for c in changes:
        if c.kind == "added" or (c.kind == "reworded" and any(not f.startswith("pl:") for f, _ in c.words)):
            out.append(c)
    return out
