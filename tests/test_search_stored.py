"""The search index kept in havoc's verified cache: reused while nothing changed, never trusted blindly."""

from __future__ import annotations

from pathlib import Path

import pytest

from havoc.engine import rulebook
from havoc.search import index, stored


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(stored, "_memo", {})
    return tmp_path / "cache"


def _no_build(rs: object) -> None:
    raise AssertionError("the index was built again")


def _analysed(*args: object) -> None:
    raise AssertionError(f"analysed again: {args!r}")


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_second_process_reads_the_index_it_would_build(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = rulebook.load()
    built = {lang: index.for_language(index.build(rs), lang) for lang in ("en", "pl")}
    assert stored.language_index(rs, "pl") == built["pl"]  # a miss: built and stored
    monkeypatch.setattr(stored, "_memo", {})  # as in a new process
    monkeypatch.setattr(index, "build", _no_build)
    assert stored.language_index(rs, "en") == built["en"]
    assert stored.language_index(rs, "pl") == built["pl"]


def test_a_damaged_entry_is_rebuilt(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = rulebook.load()
    expected = stored.language_index(rs, "en")
    entries = sorted(fresh.glob("search-en-*.bin"))
    assert len(entries) == 1
    data = bytearray(entries[0].read_bytes())
    data[-10] ^= 0xFF
    entries[0].write_bytes(bytes(data))
    monkeypatch.setattr(stored, "_memo", {})
    assert stored.language_index(rs, "en") == expected


def test_the_key_follows_the_catalogs(fresh: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rs = rulebook.load()
    before = stored.key(rs)
    from havoc.language.i18n import locales_root

    copy = tmp_path / "locales" / "pl" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    for po in (locales_root() / "pl" / "LC_MESSAGES").glob("*.po"):
        (copy / po.name).write_bytes(po.read_bytes())
    monkeypatch.setenv("HAVOC_LOCALES", str(tmp_path / "locales"))
    assert stored.key(rs) == before  # the same bytes elsewhere: the same index
    (copy / "rules.po").write_bytes((copy / "rules.po").read_bytes() + b'\nmsgid "x"\nmsgstr "y"\n')
    assert stored.key(rs) != before


def test_a_lookup_with_the_index_stored_does_not_load_the_ruleset(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``havoc lookup`` needs the ruleset's fingerprint (its files read and hashed) to find the
    stored index, not the ruleset itself: a warm lookup unpickles no rulebook."""
    import havoc.search as search

    monkeypatch.setattr(search, "_CHECKED", {})
    search._engine.cache_clear()
    expected = search.lookup("retreat from battle", "pl")  # builds and stores the index
    monkeypatch.setattr(stored, "_memo", {})  # as in a new process
    monkeypatch.setattr(search, "_CHECKED", {})
    search._engine.cache_clear()

    def no_load(*args: object, **kwargs: object) -> None:
        raise AssertionError("the ruleset was loaded")

    monkeypatch.setattr(rulebook, "load", no_load)
    assert search.lookup("retreat from battle", "pl") == expected
    search._engine.cache_clear()


def test_the_sites_index_scripts_are_built_once_per_ruleset(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A site build reads both languages' index scripts from the cache after the first made them."""
    from havoc.search.site import scripts, site_parts

    rs = rulebook.load()
    whole = index.build(rs)
    expected = {lang: scripts(site_parts(whole, lang)) for lang in ("en", "pl")}
    assert stored.site_scripts(rs, "pl") == expected["pl"]  # a miss: built and stored
    monkeypatch.setattr(stored, "_memo", {})
    monkeypatch.setattr(index, "build", _no_build)
    assert stored.site_scripts(rs, "en") == expected["en"]
    assert stored.site_scripts(rs, "pl") == expected["pl"]
    assert stored.language_index(rs, "en") == index.for_language(whole, "en")  # stored with them


def test_a_rebuild_reuses_the_last_analysis_and_makes_the_same_index(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index built again from the last build's stems and text analysis (havoc's cache) is
    the index built from nothing, and a text the last build did not see is analysed anew."""
    from havoc.search import text as T

    rs = rulebook.load()
    monkeypatch.setattr(T, "KEYS", {})
    cold = index.build(rs)
    assert sorted(fresh.glob("search-analysis-*.bin")) and sorted(fresh.glob("search-stems-*.bin"))
    monkeypatch.setattr(T, "KEYS", {})
    monkeypatch.setattr(T, "snowball", _analysed)  # every word's stem comes from the last build
    monkeypatch.setattr(index, "_named_terms", _analysed)  # and every text's named terms
    assert index.build(rs) == cold
    monkeypatch.undo()
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(fresh))
    # a text the memo does not know: analysed as ever (the same keys as a fresh analyser's)
    an = index.Analyzer("en", {})
    an.recall({"texts": {"a retreat": (["bogus"], ("bogus",))}, "named": {}})
    assert an.keys("the retreats") == index.Analyzer("en", {}).keys("the retreats")
    assert an.keys("a retreat") == ["bogus"]  # what the memo says is what it is trusted for
