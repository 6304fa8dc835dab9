"""A table kept in the cache is the table a fresh read gives, after a catalog's edit too.

A Polish player's table names things ("Pogorzelisko:", "Ludzie"); the catalogs say what the
names name. The cached copy of such a table is keyed by the catalogs it was read through, so a
translator's edit of a name reaches the next question; a table written in IDs is read without
any catalog and its cached copy never hashes one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import json, sys
from havoc.assistant import api
from havoc.core.errors import InputError
from havoc.language import i18n
try:
    pos = api.load_position(sys.argv[1])
    read = {"regions": sorted(pos.regions), "units": {r: dict(v.units) for r, v in sorted(pos.regions.items())}}
except InputError as exc:
    read = {"error": [p.message for p in exc.problems]}
read["catalogs"] = sorted(i18n.catalogs_read())
print(json.dumps(read, sort_keys=True))
"""

NAMED = """\
players: [Ludzie, Pielgrzymi]
regions:
  Pogorzelisko: {units: {Ludzie: 2}, adjacent: [foglands]}
  foglands: {units: {Pielgrzymi: 1}, adjacent: [Pogorzelisko]}
"""

IDS = """\
players: [humans, pilgrims]
regions:
  scorch: {units: {humans: 2}, adjacent: [foglands]}
  foglands: {units: {pilgrims: 1}, adjacent: [scorch]}
"""


def _read(table: Path, cache: Path, locales: Path) -> dict[str, object]:
    env = {**os.environ, "HAVOC_CACHE_DIR": str(cache), "HAVOC_LOCALES": str(locales), "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(table)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def _without_catalogs(read: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in read.items() if k != "catalogs"}


def test_a_named_table_from_the_cache_follows_an_edited_catalog(tmp_path: Path) -> None:
    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    table = tmp_path / "stół.yaml"
    table.write_text(NAMED, encoding="utf-8")
    cache = tmp_path / "cache"
    first = _read(table, cache, locales)
    assert first["regions"] == ["foglands", "scorch"], first
    assert _without_catalogs(_read(table, cache, locales)) == _without_catalogs(first)  # (from the cache)
    for po in (locales / "pl" / "LC_MESSAGES").glob("*.po"):  # the translator renames the Region
        po.write_text(po.read_text(encoding="utf-8").replace("Pogorzelisk", "Spalenisk"), encoding="utf-8")
    afresh = _read(table, tmp_path / "empty-cache", locales)
    assert afresh["regions"] != first["regions"], afresh  # the old name no longer names scorch
    assert _without_catalogs(_read(table, cache, locales)) == _without_catalogs(afresh)


def test_a_table_in_ids_is_kept_without_reading_a_catalog(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    table.write_text(IDS, encoding="utf-8")
    cache = tmp_path / "cache"
    first = _read(table, cache, ROOT / "locales")
    again = _read(table, cache, ROOT / "locales")
    assert first == again and first["regions"] == ["foglands", "scorch"], (first, again)
    assert again["catalogs"] == [], again  # no catalog read, nor hashed for the key
