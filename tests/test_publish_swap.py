"""The last step of ``havoc docs``: the staging folder takes the site's place in one step, and
what a killed build left beside the site is cleared (or, killed between the two renames of the
fallback, the old site put back) by the next one. The whole command is in test_docs_publish.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from havoc.cli.commands import docs


def _site(folder: Path, text: str) -> Path:
    (folder / "en").mkdir(parents=True)
    (folder / "en" / "index.html").write_text(text)
    (folder / "index.html").write_text(text)
    return folder


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_the_staging_folder_takes_the_sites_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    if not exchange:
        monkeypatch.setattr(docs, "_rename_exchange", lambda a, b: False)
    top = _site(tmp_path / "site", "old")
    stage = _site(tmp_path / ".site.staging-1", "new")
    docs._exchange(stage, top)
    assert (top / "en" / "index.html").read_text() == "new"
    assert (stage / "en" / "index.html").read_text() == "old"  # the old site, to remove
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.staging-1", "site"]


def test_renameat2_swaps_two_folders_in_one_step(tmp_path: Path) -> None:
    """The kernel's one-step swap, where there is one (Linux, and this filesystem): True."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    assert docs._rename_exchange(a, b) is True
    assert (b / "x").read_text() == "a" and not (a / "x").exists()


def test_leftovers_of_killed_builds_are_removed_and_a_site_put_back(tmp_path: Path) -> None:
    top = tmp_path / "site"
    # killed between the two renames of the fallback: no site (an empty folder made since), the old one aside
    _site(tmp_path / ".site.staging-old", "old")
    top.mkdir()
    _site(tmp_path / ".site.staging-abc", "half built")
    (tmp_path / ".site.staging-link").symlink_to(tmp_path / "elsewhere")
    _site(tmp_path / "elsewhere", "not ours")
    docs._remove_leftovers(top)
    assert (top / "en" / "index.html").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "site"]
    assert (tmp_path / "elsewhere" / "index.html").read_text() == "not ours"  # a link is removed, not followed
