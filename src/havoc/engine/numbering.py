"""Display numbers for people: "11.4" for the 4th rule of the book's 11th section.

IDs stay the anchors (URLs, catalogs, answers); these numbers are derived from the outline so a
printed sheet can point into the site in any language with a few characters. Sections of the
base book count 1, 2, …; an overlay's rules take its letter (errata "E3", a variant's sections
"S1.2", and a variant's replacement of rule 3.2 "3.2S"), so adding a ruling never renumbers the
book.
"""

from __future__ import annotations

from havoc.engine.rulebook.model import Ruleset

_CACHE: dict[str, dict[str, str]] = {}


def numbers(rs: Ruleset) -> dict[str, str]:
    """Every rule's and section's display number (cached per ruleset content)."""
    found = _CACHE.get(rs.fingerprint)
    if found is not None:
        return found
    out: dict[str, str] = {}
    base = 0
    per_overlay: dict[str, int] = {}
    for sid, section in rs.sections.items():
        if section.origin == "base":
            base += 1
            head = str(base)
        else:
            per_overlay[section.origin] = per_overlay.get(section.origin, 0) + 1
            head = f"{_letter(rs, section.origin)}{per_overlay[section.origin]}"
        out[sid] = head
        for k, rid in enumerate(section.rule_ids, start=1):
            out.setdefault(rid, f"{head}.{k}")
    loose: dict[str, int] = {}
    for rid, rule in rs.rules.items():
        if rid in out or rule.origin not in rs.overlays:
            continue
        letter = _letter(rs, rule.origin)
        if rule.op == "replace" and rule.target in out:
            out[rid] = f"{out[rule.target]}{letter}"  # the variant's own version of that rule
        else:
            loose[rule.origin] = loose.get(rule.origin, 0) + 1
            out[rid] = f"{letter}{loose[rule.origin]}"
    _CACHE[rs.fingerprint] = out
    return out


def _letter(rs: Ruleset, overlay_id: str) -> str:
    """An overlay's letter: the first letter of its ID, upper case (errata → E, solo → S)."""
    return overlay_id[:1].upper() or "X"
