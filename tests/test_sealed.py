"""A sealed bundle (havoc.core.sealed): the keys recorded with the sources there, used without them.

The in-browser bundle is sealed by the build (tests/test_engine_browser.py runs it under Node);
here the same steps run in-process on the small fixture ruleset and the real catalogs: record
while warming, leave the sources out, read the manifest, and get the same rules and catalog,
or a SealedError, never an answer made from whatever files are (not) there.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import MINI

from havoc.core import cache, sealed
from havoc.engine import game, rulebook
from havoc.engine.rulebook import stored
from havoc.language import i18n

PO = """msgid ""
msgstr ""
"Language: pl\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

msgctxt "ui"
msgid "Yes"
msgstr "Tak"
"""


@pytest.fixture
def unsealed() -> Iterator[None]:
    """Each test starts and ends as a checkout: nothing recorded, no manifest read."""
    sealed._sealed.clear()
    sealed._recording.clear()
    rulebook._memo.clear()
    yield
    sealed._sealed.clear()
    sealed._recording.clear()
    rulebook._memo.clear()


@pytest.fixture
def bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unsealed: None) -> Path:
    """A folder laid out as the bundle is (relative rules/, locales/, cache/), warmed while
    recording, its manifest written, then its rule files and catalogs left out, as :func:`seal`
    leaves them out."""
    shutil.copytree(MINI, tmp_path / "rules")
    (tmp_path / "locales" / "pl" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "locales" / "pl" / "LC_MESSAGES" / "havoc.po").write_text(PO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HAVOC_RULES", "rules")
    monkeypatch.setenv("HAVOC_LOCALES", "locales")
    monkeypatch.setenv("HAVOC_CACHE_DIR", "cache")
    sealed.record()
    for name in rulebook.ruleset_names():
        rulebook.load(name)
    i18n.load_catalog("pl")
    game.installed()
    rulebook.declared_kinds("havoc.games.cry_havoc")
    sealed.write(".")
    sealed._recording.clear()
    for path in [*(tmp_path / "rules").rglob("*.yaml"), *(tmp_path / "locales").rglob("*.po")]:
        path.unlink()
    rulebook._memo.clear()
    return tmp_path


def test_a_checkout_is_not_sealed(unsealed: None) -> None:
    assert not sealed.active()
    assert sealed.value("kinds", "x", lambda: ["a"]) == ["a"]  # computed, and not recorded
    assert sealed._recording == []
    sealed.refuse("anything")  # a checkout reads its files
    assert cache.code_bytes(i18n.__file__) == Path(i18n.__file__).read_bytes()


def test_the_sealed_bundle_answers_from_its_manifest_without_its_sources(bundle: Path) -> None:
    recorded = json.loads((bundle / sealed.MANIFEST).read_text(encoding="utf-8"))["values"]
    assert set(recorded["rules"]) == {"rules/mini"} and set(recorded["catalog"]) == {"locales/pl"}
    assert sealed.open_manifest(".") and sealed.active()
    assert rulebook.ruleset_names() == ["mini"]
    rs = rulebook.load("mini")
    assert rs.fingerprint == recorded["rules"]["rules/mini"] and rs.rules
    assert rulebook.fingerprint("mini") == rs.fingerprint
    catalog = i18n.load_catalog("pl")
    assert catalog.singular == {("ui", "Yes"): "Tak"}  # the cached catalog, not an empty one
    assert rulebook.declared_kinds("havoc.games.cry_havoc") == tuple(recorded["kinds"]["havoc.games.cry_havoc"])
    assert game.installed() == recorded["games"]["havoc.games"]
    with pytest.raises(rulebook.UnknownRuleset):
        rulebook.load("no-such-ruleset")  # not in the bundle: the user's error, as in a checkout


def test_a_sealed_bundle_never_reads_sources_for_a_key(bundle: Path) -> None:
    sealed.open_manifest(".")
    with pytest.raises(sealed.SealedError):
        cache.code_bytes(i18n.__file__)
    with pytest.raises(sealed.SealedError):
        stored.Snapshot("rules/mini")
    with pytest.raises(sealed.SealedError):
        i18n.catalog_sources("pl")
    with pytest.raises(sealed.SealedError):
        rulebook.declared_kinds("a.game.the.build.never.listed")


def test_a_sealed_bundle_missing_an_entry_fails_loudly(bundle: Path) -> None:
    """With the cache's entries gone, the rules and the catalog are errors, not files read again
    (there are none) nor an empty catalog, which would answer in English."""
    sealed.open_manifest(".")
    for entry in (bundle / "cache").glob("*.bin"):
        entry.unlink()
    with pytest.raises(sealed.SealedError):
        rulebook.load("mini")
    with pytest.raises(sealed.SealedError):
        i18n.load_catalog("pl")


def test_a_damaged_manifest_is_refused(tmp_path: Path, unsealed: None) -> None:
    assert not sealed.open_manifest(str(tmp_path))  # none: a checkout
    (tmp_path / sealed.MANIFEST).write_text('{"format": 0, "values": {}}', encoding="utf-8")
    with pytest.raises(sealed.SealedError):
        sealed.open_manifest(str(tmp_path))
    (tmp_path / sealed.MANIFEST).write_text("{", encoding="utf-8")
    with pytest.raises(sealed.SealedError):
        sealed.open_manifest(str(tmp_path))
    assert not sealed.active()
