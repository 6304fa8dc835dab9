"""Property test: random positions and questions give an answer or a located InputError, never anything else."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from havoc.assistant import api
from havoc.core.errors import InputError
from havoc.engine import rulebook
from havoc.engine.interpreter.answer import render_text
from havoc.games.cry_havoc.contract import DECKS, FACTIONS, OBJECTIVES, PHASES, STEPS, TERRAINS, TROG_TOKENS
from havoc.games.cry_havoc.query import KINDS, QFIELDS

REGIONS = ["foglands", "scorch", "example-a", "example-b", "example-c", "Bad Id"]
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.text(max_size=8), st.lists(st.integers(-1, 3), max_size=2)
)
FACTION = st.one_of(st.sampled_from(FACTIONS), st.sampled_from(["elves", ""]))
REGION = st.one_of(st.sampled_from(REGIONS[:-1]), st.sampled_from(REGIONS))
COUNT = st.one_of(st.integers(0, 6), st.integers(-2, 14), JUNK)


def strategies(junk: bool) -> tuple[st.SearchStrategy[dict[str, Any]], st.SearchStrategy[dict[str, Any]]]:
    """Positions and questions; with ``junk``, any value may be of the wrong type or out of range."""

    def maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(value, value, value, JUNK) if junk else value

    faction = FACTION if junk else st.sampled_from(FACTIONS)
    region = REGION if junk else st.sampled_from(REGIONS[:-1])
    count = COUNT if junk else st.integers(0, 5)
    extra: dict[str, Any] = {"terain": JUNK} if junk else {}
    region_dict = st.fixed_dictionaries(
        {},
        optional={
            "terrain": maybe(st.sampled_from(TERRAINS)),
            "adjacent": maybe(st.lists(region, max_size=4)),
            "outer": maybe(st.booleans()),
            "hq": maybe(faction),
            "tunnel": maybe(st.booleans()),
            "units": maybe(st.dictionaries(faction, count, max_size=3)),
            "control": maybe(faction),
            "crystals": maybe(st.integers(0, 6)),
            "battle": maybe(
                st.fixed_dictionaries(
                    {"token": maybe(st.integers(1 if not junk else 0, 9)), "attacker": maybe(faction)}
                )
            ),
            "structures": maybe(
                st.lists(
                    st.fixed_dictionaries(
                        {"type": maybe(st.sampled_from(["harvester", "tunnel"])), "owner": maybe(faction)}
                    ),
                    max_size=2,
                )
            ),
            "trog-token": maybe(st.sampled_from(TROG_TOKENS)),
            "exploration": maybe(st.booleans()),
            **extra,
        },
    )
    faction_dict = st.fixed_dictionaries(
        {},
        optional={
            "vp": maybe(st.integers(0, 40)),
            "reserve": maybe(st.integers(0, 12)),
            "prisoners": maybe(st.dictionaries(faction, count, max_size=2)),
            "skills": maybe(
                st.dictionaries(
                    st.sampled_from(["teleport", "scouting"]),
                    maybe(st.sampled_from(["ready", "exhausted"])),
                    max_size=2,
                )
            ),
            "hand": maybe(st.integers(0, 12)),
            "passed": maybe(st.booleans()),
            "controlled-at-action-start": maybe(st.lists(region, max_size=2)),
        },
    )
    positions = st.fixed_dictionaries(
        {
            "players": maybe(st.lists(faction, min_size=1, max_size=4, unique=True))
            if junk
            else st.sampled_from(
                [
                    ["humans", "pilgrims"],
                    ["machines", "pilgrims", "humans"],
                    ["humans", "pilgrims", "machines", "trogs"],
                ]
            )
        },
        optional={
            "variant": maybe(st.sampled_from(["solo", "nope"] if junk else ["solo"])),
            "round": maybe(st.integers(0 if junk else 1, 7 if junk else 5)),
            "phase": maybe(st.sampled_from(PHASES)),
            "action-round": maybe(st.integers(0 if junk else 1, 4 if junk else 3)),
            "turn": maybe(faction),
            "initiative": maybe(st.lists(faction, max_size=4)),
            "scoring": maybe(
                st.fixed_dictionaries({}, optional={"enabled-by": maybe(faction), "final-round": maybe(st.booleans())})
            ),
            "factions": maybe(st.dictionaries(faction, faction_dict, max_size=4)),
            "regions": maybe(st.dictionaries(region, region_dict, max_size=5)),
            **({"step": maybe(st.sampled_from(sorted({s for v in STEPS.values() for s in v})))} if junk else {}),
        },
    )
    objectives = st.dictionaries(
        faction,
        maybe(st.fixed_dictionaries({}, optional={o: maybe(st.integers(0, 5)) for o in OBJECTIVES})),
        max_size=3,
    )
    queries = st.fixed_dictionaries(
        {"ask": maybe(st.sampled_from(KINDS))},
        optional={
            "faction": maybe(faction),
            "from": maybe(region),
            "to": maybe(region),
            "via": maybe(st.lists(region, max_size=2)),
            "region": maybe(region),
            "units": maybe(st.integers(0, 14)),
            "points": maybe(st.integers(0, 8)),
            "cost": maybe(st.integers(0, 8)),
            "structure": maybe(st.sampled_from(["harvester", "tunnel"])),
            "deck": maybe(st.sampled_from(DECKS)),
            "card-terrain": maybe(st.sampled_from(TERRAINS)),
            "skill": maybe(st.sampled_from(["teleport", "scouting"])),
            "activations": maybe(st.integers(0, 2)),
            "during-action": maybe(st.booleans()),
            "moved-this-action": maybe(st.booleans()),
            "position": maybe(st.integers(1, 5)),
            "objectives": maybe(objectives),
            "capture-from": maybe(st.sampled_from(OBJECTIVES)),
            **({"nonsense": JUNK} if junk else {}),
        },
    )
    return positions, queries


positions, queries = strategies(junk=True)
clean_positions, clean_queries = strategies(junk=False)


@st.composite
def coherent(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A position that is usually valid, and a question about its own Regions and factions."""
    players = draw(
        st.sampled_from(
            [["humans", "pilgrims"], ["machines", "pilgrims", "humans"], ["humans", "pilgrims", "machines", "trogs"]]
        )
    )
    on_board = [*players, "trogs"] if "trogs" not in players else players
    ids = [f"example-{i}" for i in range(draw(st.integers(1, 6)))]
    regions: dict[str, Any] = {}
    hqs = iter(draw(st.permutations(players)))
    for rid in ids:
        region: dict[str, Any] = {
            "adjacent": draw(
                st.lists(st.sampled_from(ids), max_size=3, unique=True).map(
                    lambda xs, me=rid: [x for x in xs if x != me]
                )
            )
        }
        sides = draw(st.lists(st.sampled_from(on_board), max_size=2, unique=True))
        region["units"] = {f: draw(st.integers(0, 4)) for f in sides}
        present = [f for f in sides if region["units"][f] > 0]
        if len(present) == 2 and draw(st.booleans()):
            region["battle"] = {"token": len(regions) + 1, "attacker": draw(st.sampled_from(present))}
        if draw(st.booleans()):
            hq = next(hqs, None)
            if hq is not None:
                region["hq"] = hq
        if "hq" not in region and draw(st.booleans()):
            region["crystals"] = draw(st.integers(0, 5))
        if draw(st.booleans()):
            region["control"] = draw(st.sampled_from(players))
        if "hq" not in region and draw(st.booleans()):
            region["structures"] = [
                {"type": draw(st.sampled_from(["harvester", "tunnel"])), "owner": draw(st.sampled_from(players))}
            ]
        region["terrain"] = draw(st.sampled_from([*TERRAINS, None]))
        if region["terrain"] is None:
            del region["terrain"]
        if draw(st.booleans()):
            region["trog-token"] = draw(st.sampled_from(TROG_TOKENS))
        if draw(st.booleans()):
            region["tunnel"] = True
        regions[rid] = region
    factions = {
        f: {
            "vp": draw(st.integers(0, 30)),
            "hand": draw(st.integers(0, 10)),
            "skills": {"teleport": draw(st.sampled_from(["ready", "exhausted"]))},
            "passed": draw(st.booleans()),
        }
        for f in players
    }
    if draw(st.booleans()):
        a, b = players[0], players[1]
        factions[a]["prisoners"] = {b: draw(st.integers(0, 2))}
    pos = {
        "players": players,
        "round": draw(st.integers(1, 5)),
        "phase": draw(st.sampled_from(PHASES)),
        "action-round": draw(st.integers(1, 3)),
        "turn": draw(st.sampled_from(players)),
        "initiative": draw(st.permutations(players)),
        "scoring": draw(st.sampled_from([{}, {"enabled-by": players[0]}, {"final-round": True}])),
        "factions": factions,
        "regions": regions,
    }
    kind = draw(st.sampled_from(KINDS))
    query: dict[str, Any] = {"ask": kind, "faction": draw(st.sampled_from(on_board))}
    region_ids = st.sampled_from(ids)
    for key in ("from", "to", "region"):
        if (
            draw(st.booleans())
            or (kind in {"move", "retreat"} and key == "from")
            or (kind == "move" and key == "to")
            or (kind in {"build", "activate"} and key == "region")
        ):
            query[key] = draw(region_ids)
    if kind == "move" and query["from"] == query["to"]:
        query["via"] = [draw(region_ids)]
    if kind in {"build", "activate"}:
        query["structure"] = draw(st.sampled_from(["harvester", "tunnel"]))
    if kind == "use-skill":
        query["skill"] = "teleport"
    for key, strat in (
        ("units", st.integers(0, 6)),
        ("points", st.integers(0, 6)),
        ("cost", st.integers(0, 4)),
        ("moved-this-action", st.booleans()),
        ("card-terrain", st.sampled_from(TERRAINS)),
        ("position", st.integers(1, 4)),
    ):
        if draw(st.booleans()):
            query[key] = draw(strat)
    if kind == "battle" and draw(st.booleans()):
        query["objectives"] = {
            f: {o: draw(st.integers(0, 3)) for o in OBJECTIVES}
            for f in draw(st.lists(st.sampled_from(on_board), max_size=2, unique=True))
        }
    return pos, query


def _check(pos: dict[str, Any], query: Any, lang: str) -> None:
    try:
        answer = api.ask(pos, query, lang)
    except InputError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    assert answer.verdict in (True, False, None)
    assert render_text(answer)
    json.dumps(answer.to_dict(), ensure_ascii=False)


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(pos=positions, query=queries, lang=st.sampled_from(["en", "pl"]))
# what unseeded runs found (each run now draws the same examples: tests/conftest.py), kept here
@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@example(pos={"players": [], "variant": "solo"}, query={"ask": "score"}, lang="en")  # IndexError in score
def test_random_positions_and_queries(pos: dict[str, Any], query: dict[str, Any], lang: str) -> None:
    rulebook.load()
    _check(pos, query, lang)


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@SETTINGS
@given(
    pos=positions,
    words=st.lists(
        st.one_of(
            st.sampled_from(KINDS),
            st.sampled_from(FACTIONS),
            st.sampled_from(REGIONS),
            st.builds(lambda k, v: f"{k}={v}", st.sampled_from([*QFIELDS, "humans", "zzz"]), st.text(max_size=6)),
        ),
        max_size=6,
    ),
)
def test_random_compact_questions(pos: dict[str, Any], words: list[str]) -> None:
    _check(pos, words, "en")


PLAYABLE = st.fixed_dictionaries(
    {
        "players": st.just(["humans", "pilgrims"]),
        "turn": st.sampled_from(["humans", "pilgrims"]),
        "phase": st.sampled_from(PHASES),
        "initiative": st.just(["humans", "pilgrims"]),
        "regions": st.just(
            {
                "example-a": {
                    "units": {"humans": 3, "pilgrims": 2},
                    "battle": {"token": 1, "attacker": "pilgrims"},
                    "adjacent": ["example-b"],
                    "control": "humans",
                },
                "example-b": {"units": {"pilgrims": 2}, "adjacent": ["example-a", "example-c"], "control": "pilgrims"},
                "example-c": {"hq": "humans", "units": {"humans": 2}, "adjacent": ["example-b"], "control": "humans"},
            }
        ),
    }
)


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@SETTINGS
@given(pos=clean_positions, query=clean_queries, lang=st.sampled_from(["en", "pl"]))
def test_well_typed_positions_and_queries(pos: dict[str, Any], query: dict[str, Any], lang: str) -> None:
    """Well-typed but arbitrary: impossible counts, dangling references, odd questions."""
    _check(pos, query, lang)


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@SETTINGS
@given(case=coherent(), lang=st.sampled_from(["en", "pl"]))
def test_coherent_positions_and_questions(case: tuple[dict[str, Any], dict[str, Any]], lang: str) -> None:
    """Near-valid positions with questions about their own Regions: mostly answers, never a crash."""
    _check(case[0], case[1], lang)


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@SETTINGS
@given(pos=PLAYABLE, query=clean_queries)
def test_valid_positions_answer_or_name_the_problem(pos: dict[str, Any], query: dict[str, Any]) -> None:
    """On a valid position, most questions get answered; the rest get a located InputError."""
    _check(pos, query, "en")
