"""Shared fixtures: isolated caches, the real rules, and a scratch copy of a ruleset to break."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Every run tries the same examples, on every machine: Hypothesis seeds each property test from
# the test's own code (derandomize) and replays no example database. Unseeded, a property test
# found the score crash of a position with no players in only one run of three, so a run could
# pass or fail by luck. To look for new failures, HAVOC_HYPOTHESIS=explore draws fresh examples
# (a failure prints the seed: pytest --hypothesis-seed=N replays it); turn what it finds into a
# plain test. The profile is loaded before the test modules, so their own settings inherit it.
settings.register_profile("havoc", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("explore" if os.environ.get("HAVOC_HYPOTHESIS") == "explore" else "havoc")

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "rules"
MINI = Path(__file__).parent / "fixtures" / "mini"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test session gets its own cache so tests never see a developer's cache."""
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    # The command line speaks the locale's language (havoc.cli.lang): tests expect English unless
    # they ask, whatever a developer's own locale is.
    monkeypatch.delenv("HAVOC_LANG", raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    # a command run in-process with --lang pl sets the language of messages for its context (one
    # command per process in real use): each test starts in English, whatever ran before it
    from havoc.language.i18n import SOURCE_LANGUAGE, set_message_language

    set_message_language(SOURCE_LANGUAGE)
    yield


@pytest.fixture
def rules_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch copy of the real rules/ folder, made the one havoc reads."""
    dest = tmp_path / "rules"
    shutil.copytree(RULES, dest)
    monkeypatch.setenv("HAVOC_RULES", str(dest))
    return dest


@pytest.fixture
def mini_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch copy of the small fixture ruleset (tests/fixtures/mini), made the one havoc reads."""
    dest = tmp_path / "rules"
    shutil.copytree(MINI, dest)
    monkeypatch.setenv("HAVOC_RULES", str(dest))
    return dest
