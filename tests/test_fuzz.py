"""Fuzzing in the test suite (a bounded budget; `make fuzz` runs the long campaign).

Every generated position, question, rule file, catalog and cache entry must be accepted or
refused with havoc's own located error: never a traceback, never a translation lost, never
an impossible number accepted, never a cache entry other than the one stored.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import fuzz_targets as t
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from havoc.core import cache

BUDGET = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=30,
)
POSITION_KEYS = ["players", "round", "phase", "turn", "factions", "regions", "initiative", "variant", "action-round"]


@pytest.fixture(autouse=True)
def _cache_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path_factory.mktemp("fuzz-cache")))
    cache._keys.clear()


def _clean(outcome: str) -> None:
    assert outcome in t.CLEAN, outcome


@BUDGET
@given(st.sampled_from(range(len(t.position_seeds()))), st.randoms(use_true_random=False))
def test_mutated_position_files(seed: int, rnd: random.Random) -> None:
    _clean(t.position(t.mutate(t.position_seeds()[seed], rnd)))


@BUDGET
@given(st.sampled_from(range(len(t.position_seeds()))), st.randoms(use_true_random=False))
def test_positions_with_nasty_values(seed: int, rnd: random.Random) -> None:
    _clean(t.position(t.mutate_structure(t.position_seeds()[seed], rnd)))


@BUDGET
@given(st.dictionaries(st.sampled_from(POSITION_KEYS), JSON, max_size=6))
def test_generated_position_trees(tree: dict[str, Any]) -> None:
    _clean(t.position(json.dumps(tree).encode()))


@BUDGET
@given(st.binary(max_size=300))
def test_arbitrary_bytes_as_a_position(data: bytes) -> None:
    _clean(t.position(data))


@BUDGET
@given(st.integers(65, 40_000), st.sampled_from(["[", "{a: ", "- ", "? "]))
def test_deep_nesting_is_refused(depth: int, opener: str) -> None:
    assert t.position((opener * depth).encode()) == t.REFUSED


@BUDGET
@given(
    st.one_of(
        st.lists(st.text(max_size=15), max_size=6),
        st.text(max_size=60),
        st.dictionaries(st.sampled_from(["ask", "faction", "from", "to", "units", "region", "objectives"]), JSON),
    )
)
def test_generated_questions(words: Any) -> None:
    _clean(t.query(words))


@BUDGET
@given(st.randoms(use_true_random=False))
def test_mutated_questions(rnd: random.Random) -> None:
    _clean(t.query(t.mutate_words(rnd)))


@BUDGET
@given(st.integers(0, 1), st.randoms(use_true_random=False))
def test_mutated_rule_files(which: int, rnd: random.Random) -> None:
    _clean(t.rule_file(t.mutate(t.rule_file_seeds()[which], rnd), which))


@BUDGET
@given(st.text(max_size=200))
def test_arbitrary_rule_file_text(text: str) -> None:
    _clean(t.rule_file(text.encode("utf-8", "surrogatepass")))


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@BUDGET
@given(st.randoms(use_true_random=False))
def test_mutated_catalogs_never_lose_a_translation(rnd: random.Random) -> None:
    _clean(t.catalog(t.mutate(t.catalog_seed(), rnd)))


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@BUDGET
@given(st.integers(1, 6), st.randoms(use_true_random=False))
def test_a_changed_plural_count_never_cuts_forms(nplurals: int, rnd: random.Random) -> None:
    """A header that says another number of plural forms must not cut a translator's forms."""
    text = t.catalog_seed().decode("utf-8").replace("nplurals=3;", f"nplurals={nplurals};")
    _clean(t.catalog(t.mutate(text.encode(), rnd) if rnd.random() < 0.3 else text.encode()))


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@BUDGET
@given(st.randoms(use_true_random=False))
def test_catalog_renames_never_lose_a_translation(rnd: random.Random) -> None:
    renamed = {"draw-hand-limit": "draw-keep", "battle-region-leave": "leave-battle"}
    _clean(t.catalog(t.mutate(t.catalog_seed(), rnd) if rnd.random() < 0.5 else t.catalog_seed(), renamed))


@BUDGET
@given(st.randoms(use_true_random=False))
def test_damaged_cache_entries(rnd: random.Random) -> None:
    folder = cache.cache_dir()
    cache.put("position", "fuzz", t.stored_position())
    good = (folder / "position-fuzz.bin").read_bytes()
    _clean(t.cache_file(t.mutate(good, rnd), Path(folder)))


@BUDGET
@given(st.binary(max_size=400))
def test_arbitrary_cache_entries(data: bytes) -> None:
    _clean(t.cache_file(cache.MAGIC + data, cache.cache_dir()))
