"""A spec's quick check (valid data's fast path) reads exactly what the located walk reads.

:meth:`havoc.formats.spec.Reader.read` tries the quick check first and walks the value again only when
it refuses it; so the quick check must accept exactly the values the walk finds no problem in,
and give the same result for them (3.0 read as 3, unknown fields never kept).
"""

from __future__ import annotations

import json
import random
from typing import Any

import fuzz_targets as t
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from havoc.formats.spec import Invalid, Reader, Spec
from havoc.formats.yamlio import loads
from havoc.games.cry_havoc.position import TOP
from havoc.games.cry_havoc.query import QTOP

BUDGET = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))

LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 2_000_000),
    st.sampled_from([3.0, 2.5, 1e300, float("nan"), -1.0]),
    st.sampled_from(["humans", "trogs", "example-a", "Example", "actions", "a\n", "", "harvester"]),
)
TREE = st.recursive(
    LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["units", "humans", "vp", "adjacent", "token", "x-y", "Bad"]), inner, max_size=3
        ),
    ),
    max_leaves=20,
)


def _same(spec: Spec, value: Any) -> None:
    walker = Reader("t")
    walked = walker.walk(value, spec, "", None)
    try:
        quick = spec.quick()(value)
    except Invalid:
        assert walker.problems, f"the quick check refused a value the walk accepts: {value!r}"
        return
    assert not walker.problems, f"the quick check accepted a value with problems: {walker.problems}"
    assert json.dumps(quick) == json.dumps(walked)  # the same values, ints as ints
    assert Reader("t").read(value, spec, "", None) == walked


NASTY: list[Any] = [
    None,
    True,
    0,
    -1,
    3.0,
    2.5,
    1_000_000,
    1_000_001,
    10**40,
    -(10**40),
    "humans",
    "Bad",
    "a\n",
    [],
    {},
    ["x"],
    {"Bad": 1},
    {"humans": 1},
    {"example-a": "humans"},
]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a tree (a key of a mapping, an item of a list)."""
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*path, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_paths(item, (*path, i)))
    return out


def _replaced(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(tree))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_every_value_in_every_place_of_a_seed_reads_the_same_both_ways() -> None:
    """Each seed position with each nasty value put in each of its places (bounds, types, IDs)."""
    for i in range(min(4, len(t.position_seeds()))):
        tree = _seed(i, False)
        for path in _paths(tree):
            for value in NASTY:
                _same(TOP, _replaced(tree, path, value))


def _seed(i: int, lines: bool) -> Any:
    return loads(t.position_seeds()[i].decode("utf-8"), "seed", lines=lines)


def test_every_seed_position_reads_the_same_both_ways() -> None:
    for i in range(len(t.position_seeds())):
        for lines in (True, False):
            _same(TOP, _seed(i, lines))


@BUDGET
@given(st.sampled_from(range(len(t.position_seeds()))), st.randoms(use_true_random=False))
def test_mutated_positions_read_the_same_both_ways(seed: int, rnd: random.Random) -> None:
    _same(TOP, json.loads(t.mutate_structure(t.position_seeds()[seed], rnd)))


@BUDGET
@given(st.dictionaries(st.sampled_from([*TOP.fields, "nope"]), TREE, max_size=5))  # type: ignore[list-item]
def test_generated_position_trees_read_the_same_both_ways(tree: dict[str, Any]) -> None:
    _same(TOP, tree)


@BUDGET
@given(st.dictionaries(st.sampled_from([*QTOP.fields, "nope"]), TREE, max_size=5))  # type: ignore[list-item]
def test_generated_questions_read_the_same_both_ways(tree: dict[str, Any]) -> None:
    _same(QTOP, tree)


class _Pretender(str):
    """A text that says it equals any other (and hashes as an ID does): never taken for an ID
    because an ID like it was seen before."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash("example-a")


def test_the_ids_seen_never_pass_a_value_that_is_not_an_id() -> None:
    from havoc.formats.spec import _IDS_SEEN, _IDS_SEEN_MOST

    ident = Spec("id", "an ID")
    neighbours = Spec("list", "IDs", item=ident)
    keyed = Spec("map", "by ID", item=Spec("int", "n"))
    for value in ("example-a", "humans", "a\n"):  # seen as IDs first
        _same(ident, value)
    for value in (_Pretender("Not An ID"), "Example-a", "example-a ", "-a", "", "a_b", 3, None, ["example-a"]):
        _same(ident, value)
        _same(neighbours, ["example-a", value])
        if isinstance(value, (str, int)) or value is None:
            _same(keyed, {"example-a": 1, value: 2})
    for i in range(_IDS_SEEN_MOST + 10):  # a stream of new IDs keeps the memory bounded
        _same(ident, f"id-{i}")
    assert 0 < len(_IDS_SEEN) <= _IDS_SEEN_MOST
