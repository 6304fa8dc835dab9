"""The names Cry Havoc's mechanisms rely on: parameters, figures, and the vocabulary (data).

Rule *numbers* live in ``rules/`` as parameters; the mechanisms here only know their names.
Keeping every name in one module makes the contract between Python and the rule data easy
to read, and lets a test assert that the loaded ruleset defines every parameter listed here.
"""

from __future__ import annotations

import os

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, Problem, RulebookError

if TYPE_CHECKING:
    from typing import Any, Final

if TYPE_CHECKING:
    from havoc.engine.rulebook.model import Ruleset

# --- vocabulary: the identifiers of the table, from the game's loaded ruleset --------------------
RULES_FOLDER: Final = "cry-havoc"  # this game's own ruleset under the rules folder


def _ruleset() -> Ruleset:
    """The game's own ruleset as the rulebook loaded it (validated, cached): the one in the rules
    folder, else the one shipped with havoc (a folder of other games' rules still sets up every
    installed game's site extension). Its names are module constants, one set per process, so
    they come from the game's ruleset rather than from whichever ruleset is asked first."""
    from havoc.engine import rulebook

    if RULES_FOLDER in rulebook.ruleset_names():
        return rulebook.loaded(RULES_FOLDER)
    repo = os.path.realpath(__file__).rsplit(os.sep, 5)[0]  # <repo>/src/havoc/games/cry_havoc/contract.py
    return rulebook.loaded(os.path.join(repo, "rules", RULES_FOLDER))


def _vocabulary() -> dict[str, Any]:
    """The vocabulary of the game's ruleset, as the rulebook read and validated it."""
    rs = _ruleset()
    if not rs.vocabulary:
        raise RulebookError(
            [
                Problem(
                    f"{rs.id}/vocabulary.yaml",
                    None,
                    "the game needs a vocabulary (named lists)",
                    code=Code.VOCABULARY_MISSING,
                )
            ]
        )
    return rs.vocabulary


VOCABULARY: Final = _vocabulary()
FACTIONS: Final = tuple[str, ...](VOCABULARY["factions"])
TROGS: Final = str(VOCABULARY["neutral-faction"])
TERRAINS: Final = tuple[str, ...](VOCABULARY["terrains"])
DECKS: Final = tuple[str, ...](VOCABULARY["decks"])
PHASES: Final = tuple[str, ...](VOCABULARY["phases"])
STEPS: Final[dict[str, tuple[str, ...]]] = {k: tuple(v) for k, v in VOCABULARY["steps"].items()}
TROG_TOKENS: Final = tuple[str, ...](VOCABULARY["trog-tokens"])
SKILL_STATES: Final = tuple[str, ...](VOCABULARY["skill-states"])
OBJECTIVES: Final = tuple[str, ...](VOCABULARY["objectives"])  # resolved in this order
ITEMS: Final = tuple[str, ...](VOCABULARY["items"])
EXPERIENCE: Final = tuple[str, ...](VOCABULARY["experience"])
# one per module of kinds/, in each declaration's order= (havoc.engine.rulebook.declared_kinds): no list kept by hand
QUESTION_KINDS: Final = _ruleset().question_kinds
FINGERPRINT: Final = _ruleset().fingerprint  # the key of the rules these names come from (of what is made of them)
HOW_MANY: Final = tuple[str, ...](VOCABULARY["how-many"])

# --- parameters the mechanisms read (values come from rules/) ----------------------
P_UNITS: Final = "units-per-faction"
P_TROG_UNITS: Final = "trog-units"
P_ACTIONS_PER_ROUND: Final = "actions-per-round"
P_MAX_ROUNDS: Final = "max-rounds"
P_BATTLE_TOKENS: Final = "battle-tokens"
P_SCORE_TRACK: Final = "plus-fifty-threshold"  # spots on the Score track: counting goes round after it

MECHANISM_PARAMS: Final = (P_UNITS, P_TROG_UNITS, P_ACTIONS_PER_ROUND, P_MAX_ROUNDS, P_BATTLE_TOKENS, P_SCORE_TRACK)

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
# score: the Event stacks a Score token passes move on (rule events-passed)
F_EVENTS_MOVED: Final = "events-moved"
