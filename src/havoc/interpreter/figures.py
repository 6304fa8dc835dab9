"""Which figures (the numbers and facts an answer reports) each question kind can give.

Listed here once, by name, so that ``havoc ask --help``, the docs and the JSON Schema of
answers say the same thing without loading the rulebook. The names are identifiers, not
rule facts: the values come from the rules' checks and the mechanisms. A test keeps this
list equal to what the rules define and the answers give (an unlisted figure fails it).
"""

from __future__ import annotations

from typing import Any, Final

FIGURES: Final[dict[str, tuple[str, ...]]] = {
    "move": ("points-needed", "may-leave", "gains-control", "units-lost", "trogs-join-army"),
    "recruit": ("may-recruit",),
    "build": ("points-left",),
    "activate": ("points-left",),
    "draw-tactics": (),
    "enable-scoring": (),
    "use-skill": (),
    "play-tactic": (),
    "battle": (
        "crystals-added",
        "wins-control",
        "control-vp",
        "places-control-token",
        "places-nest",
        "survivors-to-hq",
        "takes-prisoners",
        "prisoners-taken",
        "kills",
        "kill-vp",
        "not-fought",
        "control-winner",
        "vp-gained",
        "prisoners-by",
        "kills-by",
        "survivors",
        "units-in-region",
        "returned",
        "retreated",
        "retreat-to",
        "to-reserve",
        "control-token",
        "nest",
        "nest-options",
        "to-hq",
        "order",
    ),
    "retreat": ("destinations", "to-reserve", "places-nest", "nest-options"),
    "discard": ("must-discard",),
    "prisoners": ("buy-back-cost", "prisoners-vp", "vp-to-spend"),
    "score": ("vp", "vp-gained", "total-vp", "region-vp", "crystal-vp"),
    "winner": ("winner", "ranking", "tie-broken-by", "final-vp", "tiebreak-prisoners", "tiebreak-initiative"),
    "legal": ("actions", "upcoming-position", "upcoming-order"),
    "how-many": ("may-leave", "may-recruit", "must-discard", "may-buy-back"),
    "place": (),
    "end-of-move": (
        "reveals-exploration",
        "reveals-trog-token",
        "units-lost",
        "gains-control",
        "places-battle-token",
        "battle-token",
        "trogs-join-army",
    ),
    "setup": (
        "two-player-board-side",
        "hq-units",
        "hq-control-tokens",
        "skills",
        "tokens-as-printed",
        "trog-hq-units",
        "tunnels",
    ),
}

# Figures given per side of a Battle ({faction: value}) rather than for the asking faction.
PER_SIDE: Final = frozenset(
    {"vp-gained", "prisoners-by", "kills-by", "survivors", "units-in-region", "returned", "retreated", "total-vp"}
)


def help_text() -> str:
    """The figures of every kind, for ``havoc ask --help`` (English, like the rest of the help)."""
    import textwrap

    lines = ["figures each question kind reports (* one value per side):"]
    for kind, names in FIGURES.items():
        shown = ", ".join(n + ("*" if n in PER_SIDE else "") for n in names) or "(none: the verdict and the rules)"
        lines.extend(textwrap.wrap(shown, 84, initial_indent=f"  {kind:15} ", subsequent_indent=" " * 18))
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
