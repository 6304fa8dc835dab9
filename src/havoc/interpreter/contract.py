"""The names the interpreter's mechanisms rely on: parameters, figures, factions, phases.

Rule *numbers* live in ``rules/`` as parameters; the mechanisms here only know their names.
Keeping every name in one module makes the contract between Python and the rule data easy
to read, and lets a test assert that the loaded ruleset defines every parameter listed here.
"""

from __future__ import annotations

from typing import Final

# --- vocabulary of the position format (identifiers, not rule facts) -------------
FACTIONS: Final = ("humans", "pilgrims", "machines", "trogs")
TROGS: Final = "trogs"
TERRAINS: Final = ("mountains", "desert", "jungle", "ocean")
DECKS: Final = ("own", *TERRAINS)
PHASES: Final = ("events", "draw-cards", "actions", "battle-resolution", "prisoners", "scoring")
STEPS: Final[dict[str, tuple[str, ...]]] = {
    "events": ("resolve-events", "update-initiative", "refresh-skills"),
    "draw-cards": ("draw", "discard"),
    "actions": ("before-action", "during-action", "after-action"),
    "battle-resolution": (
        "add-crystal",
        "place-units",
        "play-tactics",
        "resolve-objectives",
        "return-survivors",
        "retreat",
        "remove-token",
    ),
    "prisoners": ("score-prisoners", "buy-back"),
    "scoring": ("score",),
}
TROG_TOKENS: Final = ("war-party", "nest")
SKILL_STATES: Final = ("ready", "exhausted")
OBJECTIVES: Final = ("control", "prisoners", "attrition")  # resolved in this order

# --- parameters the mechanisms read (values come from rules/) ----------------------
P_UNITS: Final = "units-per-faction"
P_TROG_UNITS: Final = "trog-units"
P_ACTIONS_PER_ROUND: Final = "actions-per-round"
P_MAX_ROUNDS: Final = "max-rounds"
P_BATTLE_TOKENS: Final = "battle-tokens"

MECHANISM_PARAMS: Final = (P_UNITS, P_TROG_UNITS, P_ACTIONS_PER_ROUND, P_MAX_ROUNDS, P_BATTLE_TOKENS)

# --- figures the mechanisms read from rule checks -----------------------------------
# battle (evaluated once per side, the side being the actor)
F_WINS_CONTROL: Final = "wins-control"
F_CONTROL_VP: Final = "control-vp"
F_PLACES_CONTROL: Final = "places-control-token"
F_PLACES_NEST: Final = "places-nest"
F_SURVIVORS_TO_HQ: Final = "survivors-to-hq"  # the winner's survivors go to its HQ (solo Trogs)
F_TAKES_PRISONERS: Final = "takes-prisoners"
F_PRISONERS_TAKEN: Final = "prisoners-taken"
F_KILLS: Final = "kills"
F_KILL_VP: Final = "kill-vp"
F_BATTLE_CRYSTALS: Final = "crystals-added"
# scoring and prisoners: every figure whose name ends in this suffix is VP gained
VP_SUFFIX: Final = "-vp"
# winner: the figure compared first, then every figure named tiebreak-…, in rule order
F_FINAL_VP: Final = "final-vp"
TIEBREAK_PREFIX: Final = "tiebreak-"
# retreat: a destination is allowed when every retreat rule's `requires` holds for it
F_TO_RESERVE: Final = "to-reserve"
