"""Which figures (the numbers and facts an answer reports) each question kind can give.

Each kind declares its own (``kinds/<kind>.py``, with the rules each comes from); this reads
them from the kinds' manifest (no kind's module imported) so that ``havoc ask --help``, the docs
and the JSON Schema of answers say the same thing without loading the rulebook. The names are
identifiers, not rule facts: the values come from the rules' checks and the mechanisms.
``havoc check`` verifies each figure's source and that every figure a rule defines is claimed.
"""

from __future__ import annotations

from typing import Any, Final

from havoc.games.cry_havoc import kind as registry

# Derived from the question kinds' own declarations (havoc.games.cry_havoc.kind).
FIGURES: Final[dict[str, tuple[str, ...]]] = registry.figures()
# Figures given per side of a Battle ({faction: value}) rather than for the asking faction.
PER_SIDE: Final = registry.per_side()


def help_text(lang: str = "en") -> str:
    """The figures of every kind, for ``havoc ask --help`` (their names are the JSON's keys)."""
    import textwrap

    from havoc.language.i18n import ui

    lines = [ui("figures each question kind reports (* one value per side):", lang)]
    if lang == "en":
        for kind, names in FIGURES.items():
            shown = ", ".join(n + ("*" if n in PER_SIDE else "") for n in names) or ui(
                "(none: the verdict and the rules)", lang
            )
            lines.extend(textwrap.wrap(shown, 84, initial_indent=f"  {kind:15} ", subsequent_indent=" " * 18))
        return "\n".join(lines)
    # another language: each kind as its reader types it, each figure by its label, the names
    # (the JSON's keys) in parentheses
    from havoc.games.cry_havoc.typed import lexicon
    from havoc.games.cry_havoc.ui import figure_label

    kinds = lexicon(lang).kinds
    for kind, names in FIGURES.items():
        shown = "; ".join(f"{figure_label(n, lang)} ({n}{'*' if n in PER_SIDE else ''})" for n in names) or ui(
            "(none: the verdict and the rules)", lang
        )
        head = kinds.say(kind)
        if len(head) > 15:
            lines.append(f"  {head}")
            head = ""
        lines.extend(
            textwrap.wrap(shown, 84, initial_indent=f"  {head:15} ", subsequent_indent=" " * 18, break_on_hyphens=False)
        )
    return "\n".join(lines)


def answer_schema() -> dict[str, Any]:
    """The JSON Schema of ``havoc ask --json`` answers, with the figures of each kind."""
    per_kind = [
        {
            "if": {"properties": {"kind": {"const": kind}}},
            "then": {"properties": {"figures": {"propertyNames": {"enum": list(names)}}}},
        }
        for kind, names in FIGURES.items()
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://havoc.invalid/schema/answer.json",
        "title": "Cry Havoc rules assistant answer",
        "type": "object",
        "required": ["kind", "question", "verdict", "answer", "figures", "rules", "overlay", "lang"],
        "properties": {
            "kind": {"enum": list(FIGURES), "description": "The question kind."},
            "question": {"type": "string", "description": "The question, in the asker's language."},
            "verdict": {
                "description": (
                    "true (yes), false (no), null (the answer is a number, a list or a report), or "
                    '"no-unless": no, unless a card, Skill or Structure effect the position does not '
                    "show allows it; `unless` then lists the rules stating that exception."
                ),
                "oneOf": [{"type": "boolean"}, {"type": "null"}, {"const": "no-unless"}],
            },
            "answer": {"type": "string", "description": "The verdict in words, in the asker's language."},
            "figures": {
                "type": "object",
                "description": "The figures the question implies; Battle figures marked per side are {faction: value}.",
            },
            "rules": {"type": "array", "description": "The rules that decided it, with the facts each one read."},
            "unless": {"type": "array", "items": {"type": "string"}, "description": "For no-unless: exception rules."},
            "overlay": {"type": "string"},
            "lang": {"type": "string"},
            "hint": {"type": "string"},
            "would-be-legal": {"type": "array", "items": {"type": "string"}},
            "details": {"type": "object"},
            "report": {"type": "array", "items": {"type": "string"}},
            "said": {"type": "array", "items": {"type": "string"}},
        },
        "allOf": per_kind,
    }
