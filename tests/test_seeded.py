"""Property tests draw the same examples on every run (the Hypothesis profile of tests/conftest.py).

A property test that passes or fails by luck tells nothing when it passes: unseeded, one found
the score crash of a solo position with no players in only one run of three.
"""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st


def test_the_loaded_profile_is_derandomized_unless_exploring() -> None:
    exploring = os.environ.get("HAVOC_HYPOTHESIS") == "explore"
    loaded = settings.default
    assert loaded is not None and loaded.derandomize is not exploring
    assert exploring or loaded.database is None  # no replay of another run's failures


def test_a_property_test_draws_the_same_examples_twice() -> None:
    drawn: list[tuple[int, str]] = []

    @settings(settings.get_profile("havoc"), max_examples=30)
    @given(st.integers(), st.text(max_size=5))
    def probe(n: int, s: str) -> None:
        drawn.append((n, s))

    probe()
    first = list(drawn)
    drawn.clear()
    probe()
    assert drawn == first and len(set(first)) > 10
