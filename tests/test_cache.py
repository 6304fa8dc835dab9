"""The one cache (havoc.core.cache): key and content from the same bytes, verified, never executing code.

Before: the key was computed from one read of the rule files and the model from a second,
so an edit during a cold load (then reverted) stayed cached under the original key; a
byte-flipped pickle was served as rules or ended in a MemoryError traceback; and anyone able
to write the cache folder could run code as the user.
"""

from __future__ import annotations

import os
import pickle
import random
import stat
import threading
import time
from pathlib import Path

import pytest

from havoc.cli import main
from havoc.core import cache
from havoc.engine import rulebook

TITLE = "title: Hand limit"


def _cache_dir() -> Path:
    return Path(os.environ["HAVOC_CACHE_DIR"])


def _entries(kind: str = "rules-mini") -> list[Path]:
    return sorted(_cache_dir().glob(f"{kind}-*.bin"))


def _fresh(mini_copy: Path) -> None:
    rulebook._memo.clear()
    for p in _entries():
        p.unlink()


def test_an_edit_between_key_and_parse_is_never_cached_under_the_old_key(
    mini_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deterministic version of the race: the file changes after the key is taken."""
    from havoc.engine.rulebook import loader

    _fresh(mini_copy)
    draw = mini_copy / "mini/sections/01-draw.yaml"
    original = draw.read_text()
    real = loader._read_facts

    def edit_then_read(b: object, path: Path) -> None:
        draw.write_text(original.replace(TITLE, "title: EDITED"))
        real(b, path)  # type: ignore[arg-type]

    monkeypatch.setattr(loader, "_read_facts", edit_then_read)
    rulebook.load("mini")
    monkeypatch.setattr(loader, "_read_facts", real)
    draw.write_text(original)  # the edit is reverted
    rulebook._memo.clear()
    assert rulebook.load("mini").rules["draw-hand-limit"].title == "Hand limit"


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_edits_during_cold_loads_never_give_wrong_rules(mini_copy: Path) -> None:
    draw = mini_copy / "mini/sections/01-draw.yaml"
    original = draw.read_text()
    edited = original.replace(TITLE, "title: EDITED")
    seen: dict[str, str] = {}
    for i in range(25):
        _fresh(mini_copy)
        stop = threading.Event()

        def flip(stop: threading.Event = stop, pause: float = 0.0005 * (i % 5)) -> None:
            while not stop.is_set():
                draw.write_text(edited)
                time.sleep(pause)
                draw.write_text(original)
                time.sleep(pause)

        t = threading.Thread(target=flip)
        t.start()
        try:
            for _ in range(3):
                rulebook._memo.clear()
                try:
                    rs = rulebook.load("mini")
                except rulebook.RulebookError:
                    continue  # a half-written file is a located error, never wrong rules
                title = rs.rules["draw-hand-limit"].title
                assert seen.setdefault(rs.fingerprint, title) == title, "one key, two different rulebooks"
        finally:
            stop.set()
            t.join()
        draw.write_text(original)
        rulebook._memo.clear()
        assert rulebook.load("mini").rules["draw-hand-limit"].title == "Hand limit"


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "garbage", "huge-length"])
def test_a_damaged_entry_is_rebuilt_silently(mini_copy: Path, damage: str, capsys: pytest.CaptureFixture[str]) -> None:
    _fresh(mini_copy)
    rulebook.load("mini")
    (entry,) = _entries()
    data = bytearray(entry.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0x40
    elif damage == "truncate":
        data = data[: len(data) // 3]
    elif damage == "empty":
        data = bytearray()
    elif damage == "garbage":
        data = bytearray(random.Random(7).randbytes(len(data)))  # the same garbage every run
    else:  # a pickle that asks for a 2**62-byte string: MemoryError/OverflowError before
        data = bytearray(cache.MAGIC + b"\0" * cache.TAG_SIZE + b"\x80\x05\x8e" + (2**62).to_bytes(8, "little"))
    entry.write_bytes(bytes(data))
    rulebook._memo.clear()
    assert main(["rule", "draw-hand-limit", "--ruleset", "mini"]) == 0
    out = capsys.readouterr()
    assert "Hand limit" in out.out and out.err == ""
    assert rulebook.load("mini").rules["draw-hand-limit"].title == "Hand limit"


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("touch PWNED",))


def test_a_planted_pickle_is_never_run(mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _fresh(mini_copy)
    rulebook.load("mini")
    (entry,) = _entries()
    entry.write_bytes(pickle.dumps(_Boom()))  # a plain pickle, as the old cache format was
    rulebook._memo.clear()
    rulebook.load("mini")
    assert not (tmp_path / "PWNED").exists()
    # even with the right tag (an attacker who has the key), the unpickler refuses callables
    secret = (_cache_dir() / cache.KEY_FILE).read_bytes()
    payload = cache.PICKLED + pickle.dumps(_Boom())
    key = entry.name.removeprefix("rules-mini-").removesuffix(".bin")
    entry.write_bytes(cache.MAGIC + cache._tag(secret, "rules-mini", key, payload) + payload)
    rulebook._memo.clear()
    assert rulebook.load("mini").rules["draw-hand-limit"].title == "Hand limit"
    assert not (tmp_path / "PWNED").exists()


def test_an_entry_from_another_key_is_foreign_and_rebuilt(mini_copy: Path) -> None:
    _fresh(mini_copy)
    rulebook.load("mini")
    (entry,) = _entries()
    stored = entry.read_bytes()
    key_file = _cache_dir() / cache.KEY_FILE
    key_file.write_bytes(bytes(range(32)))  # another user's key (cache folder copied here)
    cache._keys.clear()
    rulebook._memo.clear()
    assert rulebook.load("mini").rules["draw-hand-limit"].title == "Hand limit"
    assert entry.read_bytes() != stored  # re-signed with this key


def test_folder_and_files_are_private(mini_copy: Path) -> None:
    _fresh(mini_copy)
    rulebook.load("mini")
    assert stat.S_IMODE(_cache_dir().stat().st_mode) == 0o700
    assert stat.S_IMODE((_cache_dir() / cache.KEY_FILE).stat().st_mode) == 0o600
    for entry in _entries():
        assert stat.S_IMODE(entry.stat().st_mode) == 0o600


def test_an_unusable_cache_folder_just_means_no_cache(mini_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAVOC_CACHE_DIR", "/proc/havoc-no-cache")
    cache._keys.clear()
    rulebook._memo.clear()
    assert rulebook.load("mini").rules["draw-hand-limit"].title == "Hand limit"


def test_positions_and_catalogs_use_the_same_cache() -> None:
    from havoc.assistant import api
    from havoc.language.i18n import load_catalog

    api.legal(Path(__file__).parent / "fixtures/assistant/twenty.yaml")
    load_catalog("pl")
    assert _entries("position") and _entries("catalog-pl")
    for entry in _entries("position"):
        entry.write_bytes(entry.read_bytes()[:-5] + b"xxxxx")
    assert api.legal(Path(__file__).parent / "fixtures/assistant/twenty.yaml").verdict is not None


def test_what_is_read_once_per_process_reuses_the_ruleset_just_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's vocabulary (read once per process) takes the ruleset ``load`` has just read and
    hashed, instead of reading and hashing every rule file a second time."""
    rs = rulebook.load("cry-havoc")

    def no_reading(*args: object) -> None:
        raise AssertionError("the rule files were read again")

    monkeypatch.setattr(rulebook.stored, "Snapshot", no_reading)
    monkeypatch.setattr(rulebook.stored, "listing", no_reading)
    assert rulebook.loaded("cry-havoc") is rs
    with pytest.raises(AssertionError, match="read again"):
        rulebook.load("cry-havoc")  # load itself always looks at the files as they are now


def _counted(paths: list[Path]) -> tuple[list[int], object]:
    """A key of the files' bytes, and how many times it was computed."""
    calls = [0]

    def compute() -> str:
        calls[0] += 1
        return cache.digest(*(p.read_bytes() for p in paths))

    return calls, compute


def test_a_key_is_remembered_while_the_stat_facts_of_its_files_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stat facts vouch for a key only when its files are unchanged: a file replaced by one of
    the same size (a new inode, as an editor saves), one removed or one added reads them again."""
    monkeypatch.setattr(cache, "TRUST_AFTER", -(10**12))  # this test's files count as old ones
    paths = [tmp_path / "a.yaml", tmp_path / "b.yaml"]
    for p in paths:
        p.write_text("one")
    calls, compute = _counted(paths)
    first = cache.remembered("test", paths, compute)  # type: ignore[arg-type]
    assert cache.remembered("test", paths, compute) == first and calls == [1]  # type: ignore[arg-type]
    assert cache.remembered("other", paths, compute) == first and calls == [2]  # type: ignore[arg-type]
    (tmp_path / "new").write_text("two")
    os.replace(tmp_path / "new", paths[0])  # same size, new bytes
    second = cache.remembered("test", paths, compute)  # type: ignore[arg-type]
    assert second != first and calls == [3] and second == cache.digest(b"two", b"one")
    paths[1].unlink()
    with pytest.raises(FileNotFoundError):
        cache.remembered("test", paths, compute)  # type: ignore[arg-type]


def test_a_file_just_written_is_never_vouched_for_by_its_stat(tmp_path: Path) -> None:
    """A write in the same clock tick as the facts were taken could leave them as they were: the
    key of a file changed less than TRUST_AFTER ago is computed every time and never kept."""
    paths = [tmp_path / "a.yaml"]
    paths[0].write_text("one")
    calls, compute = _counted(paths)
    before = set(_entries(cache.REMEMBERED))
    for _ in range(2):
        cache.remembered("test", paths, compute)  # type: ignore[arg-type]
    assert calls == [2] and set(_entries(cache.REMEMBERED)) == before


def test_a_remembered_key_is_verified_like_any_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A remembered key is a tagged entry: one altered on disk is computed again, not believed."""
    monkeypatch.setattr(cache, "TRUST_AFTER", -(10**12))
    paths = [tmp_path / "a.yaml"]
    paths[0].write_text("one")
    calls, compute = _counted(paths)
    before = set(_entries(cache.REMEMBERED))
    key = cache.remembered("tampered", paths, compute)  # type: ignore[arg-type]
    (entry,) = set(_entries(cache.REMEMBERED)) - before
    data = entry.read_bytes()
    entry.write_bytes(data.replace(key.encode(), cache.digest(b"planted").encode()))
    assert cache.remembered("tampered", paths, compute) == key and calls == [2]  # type: ignore[arg-type]


def test_plain_data_is_marshalled_records_too_and_anything_else_is_pickled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from havoc.cli import Arguments
    from havoc.core.errors import Problem

    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "c"))
    cache._keys.clear()
    plain = {"docs": [("a", 1, 2.5, None, True)], ("ctx", "id"): frozenset({"x"})}
    record = Problem("f", 3, "m")
    other = {"args": [Arguments(lang="pl")]}  # a plain class: neither plain data nor a record
    cache.put("plain", "k", plain)
    cache.put("record", "k", record)
    cache.put("other", "k", other)
    head = len(cache.MAGIC) + cache.TAG_SIZE
    assert (tmp_path / "c" / "plain-k.bin").read_bytes()[head : head + 1] == cache.MARSHALLED
    assert (tmp_path / "c" / "record-k.bin").read_bytes()[head : head + 1] == cache.RECORDS
    assert (tmp_path / "c" / "other-k.bin").read_bytes()[head : head + 1] == cache.PICKLED
    assert cache.get("plain", "k", dict) == plain
    found = cache.get("record", "k", Problem)
    assert found == record and type(found) is Problem
    assert cache.get("other", "k", dict) == other
    assert cache.get("plain", "k", list) is None  # not what the caller expects: a miss


def _records_entry(kind: str, key: str, data: object) -> None:
    """Store ``data`` as a records payload with a valid tag, as someone holding the key could."""
    import marshal

    secret = (_cache_dir() / cache.KEY_FILE).read_bytes()
    payload = cache.RECORDS + marshal.dumps(data)
    (_cache_dir() / f"{kind}-{key}.bin").write_bytes(cache.MAGIC + cache._tag(secret, kind, key, payload) + payload)


@pytest.mark.parametrize(
    "classes",
    [
        ((("os", "system"),), ()),  # another module's callable
        ((("builtins", "tuple"),), ()),
        ((("havoc.assistant.api", "ask"),), ()),  # one of havoc's functions, not a class
        ((("havoc.core.errors", "InputError"),), ()),  # an exception class
        ((("havoc.engine.rulebook.model", "Ruleset"),), ()),  # a class, but not a tuple record
        ((), (("havoc.core.errors", "Problem"),)),  # a tuple record where state is restored
        ((("havoc.engine.rulebook.model", "Rule.__new__"),), ()),
    ],
)
def test_a_records_entry_builds_only_havocs_own_record_classes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, classes: tuple[object, object]
) -> None:
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "c"))
    cache._keys.clear()
    cache.put("plain", "k", {"a": 1})  # makes the folder and its key
    node = (cache._RECORD, 0, ("touch PWNED",), ()) if classes[0] else (cache._STATEFUL, 0, ("x",), False)
    _records_entry("record", "k", (*classes, True, node))
    monkeypatch.chdir(tmp_path)
    assert cache.get("record", "k", object) is None
    assert not (tmp_path / "PWNED").exists()


def test_records_keep_their_classes_fields_and_sharing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import pickle

    from havoc.assistant import api

    rs = rulebook.load("cry-havoc")
    pos = api.load_position(Path(__file__).parent / "fixtures/assistant/twenty.yaml", rs)
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "c"))
    cache._keys.clear()
    for kind, value in (("rules", rs), ("position", pos)):
        cache.put(kind, "k", value)
        found = cache.get(kind, "k", type(value))
        assert found is not value
        assert pickle.dumps(found, protocol=5) == pickle.dumps(value, protocol=5)  # every class and field
    found = cache.get("rules", "k", type(rs))
    shared = [(r.id, p) for r in rs.rules.values() for p in r.params if r.params[p] is rs.params.get(p)]
    assert shared and all(found.rules[r].params[p] is found.params[p] for r, p in shared)
    cycle: list[object] = []
    cycle.append(cycle)
    cache.put("cycle", "k", [rs.parts[0], cycle])  # not records' business: a pickle, which keeps cycles
    again = cache.get("cycle", "k", list)
    assert again is not None and again[1][0] is again[1]


# Pruning. Before: nothing ever left the folder (one ruleset entry of ~0.6 MB per edit of a rule,
# one search index of ~2 MB per edit or code version, for ever: 183 MB in a developer's cache
# after a few days); and an entry of another havoc's format was deleted when read, so two
# checkouts of different code sharing the folder deleted each other's Polish catalog.


def _plant(folder: Path, name: str, size: int, age_days: float) -> Path:
    path = folder / name
    path.write_bytes(b"x" * size)
    when = time.time() - age_days * 86400
    os.utime(path, (when, when))
    return path


def _pruning_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "c"
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(folder))
    cache._keys.clear()
    cache.put("warm", "00", 1)  # makes the folder and its key, and prunes once
    return folder


def test_a_write_removes_entries_unused_for_weeks_and_keeps_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _pruning_folder(tmp_path, monkeypatch)
    old = _plant(folder, "rules-cry-havoc-" + "a" * 40 + ".bin", 10, cache.MAX_AGE / 86400 + 1)
    recent = _plant(folder, "rules-cry-havoc-" + "b" * 40 + ".bin", 10, 1)
    old_temp = _plant(folder, ".rules-cry-havoc-x.bin.abc.tmp", 10, 2)
    writing = _plant(folder, ".rules-cry-havoc-y.bin.def.tmp", 10, 0)  # a writer at work
    not_ours = _plant(folder, "notes.txt", 10, 400)  # never an entry: left alone
    (folder / cache.STAMP_FILE).unlink()
    cache.put("rules-cry-havoc", "c" * 40, {"fresh": 1})
    assert not old.exists() and not old_temp.exists()
    assert recent.exists() and writing.exists() and not_ours.exists()
    assert (folder / cache.KEY_FILE).exists()
    assert cache.get("rules-cry-havoc", "c" * 40, dict) == {"fresh": 1}


def test_pruning_runs_at_most_once_an_hour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _pruning_folder(tmp_path, monkeypatch)
    old = _plant(folder, "position-" + "a" * 40 + ".bin", 10, 100)
    cache.put("position", "b" * 40, 2)  # pruned a moment ago (by _pruning_folder): not again
    assert old.exists()
    stamp = folder / cache.STAMP_FILE
    when = time.time() - cache.PRUNE_EVERY - 5
    os.utime(stamp, (when, when))
    cache.put("position", "c" * 40, 3)
    assert not old.exists()


def test_the_folder_is_kept_under_its_size_cap_least_recently_used_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _pruning_folder(tmp_path, monkeypatch)
    monkeypatch.setattr(cache, "MAX_TOTAL_BYTES", 2500)
    oldest = _plant(folder, "search-pl-" + "1" * 40 + ".bin", 1000, 3)
    older = _plant(folder, "search-en-" + "2" * 40 + ".bin", 1000, 2)
    newer = _plant(folder, "catalog-pl-" + "3" * 40 + ".bin", 1000, 1)
    removed = cache.prune(force=True)
    assert removed == [oldest.name] and older.exists() and newer.exists()
    cache.put("position", "4" * 40, "y" * 900)  # the entry just written is never the one to go
    cache.prune(force=True, keep=str(folder / f"position-{'4' * 40}.bin"))
    assert not older.exists() and newer.exists()
    assert cache.get("position", "4" * 40, str) == "y" * 900


def test_a_hit_redates_its_entry_so_what_is_used_is_never_pruned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _pruning_folder(tmp_path, monkeypatch)
    cache.put("catalog-pl", "5" * 40, ("pl",))
    entry = folder / f"catalog-pl-{'5' * 40}.bin"
    when = time.time() - cache.MAX_AGE + 3600  # written long ago, about to be pruned
    os.utime(entry, (when, when))
    assert cache.get("catalog-pl", "5" * 40, tuple) == ("pl",)
    assert time.time() - entry.stat().st_mtime < 60
    assert cache.prune(force=True) == [] and entry.exists()


def test_an_entry_of_another_havocs_format_is_a_miss_but_never_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another checkout (other code, another MAGIC) shares the folder: its entry stays its own."""
    folder = _pruning_folder(tmp_path, monkeypatch)
    other = folder / f"catalog-pl-{'6' * 40}.bin"
    other.write_bytes(b"havoc-cache-2\n" + b"\0" * 32 + b"an older havoc's catalog")
    assert cache.get("catalog-pl", "6" * 40, tuple) is None
    assert other.exists()
    damaged = folder / f"catalog-pl-{'7' * 40}.bin"
    damaged.write_bytes(cache.MAGIC + b"\0" * 32 + b"ours, but the tag fails")
    assert cache.get("catalog-pl", "7" * 40, tuple) is None
    assert not damaged.exists()


def test_a_catalogs_key_covers_the_code_that_parses_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two checkouts whose catalog code differs never store their Polish catalog under one name."""
    from havoc.language import i18n

    monkeypatch.setenv("HAVOC_LOCALES", str(Path(__file__).resolve().parents[1] / "locales"))  # not found by __file__
    _pruning_folder(tmp_path, monkeypatch)  # a folder of its own: the session's may hold other checkouts' entries
    i18n.load_catalog("pl")
    (first,) = _entries("catalog-pl")
    changed = tmp_path / "i18n.py"
    changed.write_bytes(Path(i18n.__file__).read_bytes() + b"\n# another version\n")
    monkeypatch.setattr(i18n, "__file__", str(changed))
    i18n.load_catalog("pl")
    assert len(_entries("catalog-pl")) == 2 and first.exists()


@pytest.mark.parametrize("kind", ["site-labels", "translations-js"])
def test_the_sites_catalog_entries_are_keyed_by_the_code_that_makes_them(
    kind: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As the Polish catalog's: checkouts whose site code differs never share one entry."""
    from havoc.sphinxext import labels, theme_i18n

    root = Path(__file__).resolve().parents[1]
    folder = _pruning_folder(tmp_path, monkeypatch)
    module = labels if kind == "site-labels" else theme_i18n

    def make() -> object:
        if kind == "site-labels":
            return labels._settled((root / "locales" / "pl" / "LC_MESSAGES" / "site.po").read_bytes(), "pl", None)
        return theme_i18n._translations_js("pl", [root / "locales" / "pl" / "LC_MESSAGES" / "sphinx.po"])

    first = make()
    assert len(list(folder.glob(f"{kind}-*.bin"))) == 1
    changed = tmp_path / "module.py"
    changed.write_bytes(Path(module.__file__).read_bytes() + b"\n# another version\n")
    monkeypatch.setattr(module, "__file__", str(changed))
    assert make() == first  # the same messages, made again by "other" code
    assert len(list(folder.glob(f"{kind}-*.bin"))) == 2
