"""Shared fixtures: isolated caches, the real rules, and a scratch copy of a ruleset to break."""

from __future__ import annotations

import os
import pickle
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from filelock import FileLock
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

T = TypeVar("T")


def shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole run: under pytest-xdist (``make test`` runs two
    workers) each worker has its own basetemp inside the controller's one, which all share."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], T]) -> T:
    """What ``build(folder)`` returns, built once per run however many xdist workers ask.

    The whole real site takes minutes to build: two workers each building it would cost more
    than running the tests in parallel saves. The first worker to ask builds it under a file lock
    in a folder of the run's own temporary root (so nothing outlives the run or is reused from an
    older checkout) and pickles what ``build`` returned; the others wait on the lock and read it.
    A build that raises leaves nothing behind: the next worker that asks tries again and fails
    the same way, so each worker's tests report the failure.
    """
    folder = shared_root(tmp_path_factory) / f"shared-{name}"
    done = folder.with_suffix(".pickle")
    with FileLock(str(folder.with_suffix(".lock"))):
        if done.exists():
            loaded: T = pickle.loads(done.read_bytes())
            return loaded
        if folder.exists():  # a build that failed half-way in another worker
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        value = build(folder)
        done.write_bytes(pickle.dumps(value))
        return value


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
