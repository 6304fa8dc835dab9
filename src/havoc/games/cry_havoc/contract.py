"""The names Cry Havoc's mechanisms rely on: parameters, figures, and the vocabulary (data).

Rule *numbers* live in ``rules/`` as parameters; the mechanisms here only know their names.
Keeping every name in one module makes the contract between Python and the rule data easy
to read, and lets a test assert that the loaded ruleset defines every parameter listed here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from havoc.errors import Problem, RulebookError

# --- vocabulary: the identifiers of the table, read from the ruleset's vocabulary.yaml --------
RULES_FOLDER: Final = "cry-havoc"  # this game's own ruleset under the rules folder


def _vocabulary() -> dict[str, Any]:
    """``rules/cry-havoc/vocabulary.yaml``, through the verified cache (no YAML parser on a hit)."""
    from havoc import cache, safeio
    from havoc.rulebook import rules_root

    path = rules_root() / RULES_FOLDER / "vocabulary.yaml"
    if not path.is_file():  # a test's scratch rules folder holds other rulesets: the repository's
        path = Path(__file__).resolve().parents[4] / "rules" / RULES_FOLDER / "vocabulary.yaml"
    data = safeio.read_bytes(path, safeio.MAX_BYTES)
    key = cache.digest(b"vocabulary-2: plain builtins", data)
    found = cache.get("vocabulary", key, dict)
    if found is not None:
        return found
    from havoc.yamlio import loads

    vocab = loads(data.decode("utf-8"), str(path))
    if not isinstance(vocab, dict):
        raise RulebookError([Problem(str(path), 1, "vocabulary: expected a mapping of named lists")])
    from havoc.spec import plain as builtins_only

    plain = builtins_only(vocab)  # builtins only: a cache hit never imports the YAML parser's types
    cache.put("vocabulary", key, plain)
    return plain  # type: ignore[no-any-return]


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
QUESTION_KINDS: Final = tuple[str, ...](VOCABULARY["question-kinds"])
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
