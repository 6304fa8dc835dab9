"""Shared fixtures: isolated caches, the real rules, and a scratch copy of a ruleset to break."""

from __future__ import annotations

import ast
import itertools
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


def pytest_report_header(config: pytest.Config) -> str:
    """Says at the top of each run where its examples come from. Every other random choice in the
    tests is a random.Random with a fixed seed written in the test (tests/fuzz_targets.py's
    mutations draw from Hypothesis's seeded randoms), so a failure replays with the same command."""
    if settings.default.derandomize:
        return "hypothesis: profile havoc, derandomized (the same examples every run and in every xdist worker)"
    return "hypothesis: profile explore (fresh examples: a failure prints its seed, --hypothesis-seed=N replays it)"


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


def copy_keeping_links(src: Path, dest: Path) -> None:
    """``src`` copied to ``dest`` as it is: files with their dates, symbolic links as links, and
    files hard-linked to each other (a published page and its twin in the build's work folder)
    hard-linked in the copy too, so a build that wrote into a shared file would still be seen."""
    first: dict[tuple[int, int], str] = {}

    def copy(a: str, b: str) -> str:
        st = os.stat(a, follow_symlinks=False)
        if st.st_nlink > 1 and (st.st_dev, st.st_ino) in first:
            os.link(first[(st.st_dev, st.st_ino)], b)
        else:
            shutil.copy2(a, b)
            first[(st.st_dev, st.st_ino)] = b
        return b

    shutil.copytree(src, dest, symlinks=True, copy_function=copy)


# Markers a test may carry (pyproject.toml, --strict-markers): what a -m expression can select.
MARKERS = frozenset({"browser", "slow"})


def _module_marks(path: Path) -> frozenset[str]:
    """The markers a test module's ``pytestmark`` puts on every test in it (read, not imported)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return frozenset()
    marks: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute) and sub.value.attr == "mark":
                    marks.add(sub.attr)
    return frozenset(marks & MARKERS)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A module none of whose tests the -m expression can select is not even imported.

    `make test-fast` (-m "not slow and not browser") would otherwise import every browser and
    site module (Playwright, Schemathesis building its cases at import) only to deselect all
    their tests: seconds per worker of a run meant to take under a minute. A module is left out
    only when the expression is false for its own markers whatever markers a test in it adds,
    so no test that the expression selects is ever lost; anything unclear is collected.
    """
    markexpr = config.getoption("markexpr", default="")
    if not markexpr or collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    marks = _module_marks(collection_path)
    if not marks:
        return None
    try:
        from _pytest.mark.expression import Expression

        expression = Expression.compile(markexpr)
        others = sorted(MARKERS - marks)
        for n in range(len(others) + 1):
            for added in itertools.combinations(others, n):
                on = marks | set(added)
                if expression.evaluate(lambda name, /, on=on, **_kw: name in on):
                    return None
    except Exception:  # pytest's expression API is internal: if it moves, collect as before
        return None
    return True


# The test files that take longest (a whole `make test` run, --durations, longest first). Under
# xdist (`make test`, --dist loadfile --no-loadscope-reorder) each worker takes the next file
# when it runs out, so starting with the longest leaves no long file to finish alone at the end.
# The first three keep both workers busy while the run's shared builds are made: the first
# builds the real site (test_site.real_site), the second the in-browser engine
# (test_engine_browser.shared_engine, its first test's first build), and the third needs
# neither, so the worker done first does not sit waiting on the other's build.
# Only the order of files changes, never the order of tests in a file; a file not named here
# keeps its place after these. A stale list costs time, never a result.
LONGEST_FIRST = (
    "test_ask_taps_browser.py",
    "test_engine_incremental.py",
    "test_docs_publish.py",
    "test_snapshot_browser.py",
    "test_a11y_browser.py",
    "test_browser.py",
    "test_site.py",
    "test_ask_text_browser.py",
    "test_trogs_browser.py",
    "test_offline_browser.py",
    "test_sheet_layout_pdf.py",
    "test_site_listed.py",
    "test_ask_names_browser.py",
    "test_engine_apart.py",
    "test_catalogs.py",
    "test_changes_page.py",
    "test_catalog_keep.py",
    "test_fuzz.py",
    "test_csp_browser.py",
    "test_sheet_pdf.py",
    "test_site_text.py",
    "test_ask_words_browser.py",
    "test_acharts_webapi.py",
    "test_back_browser.py",
    "test_back_kept_browser.py",
    "test_verdict_38.py",
    "test_acharts_lookup_browser.py",
    "test_server_fuzz.py",
    "test_download_browser.py",
    "test_engine_browser.py",
    "test_understand_sentences.py",
    "test_understand_examples.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's tests keep their order


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test session gets its own cache so tests never see a developer's cache.

    Session and module fixtures are made before this (the run's shared builds: the real site, the
    in-browser engine, test_engine_browser.shared_engine): they use the cache a developer's own
    ``havoc docs`` uses, on purpose. Its entries are verified and keyed by everything they are
    made from, and the engine's bytecode in it (a minute of Node) is then made once per change of
    the code, not once per run: `make test-fast` takes seconds for the engine, not minutes."""
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
