"""The CLI writes only where it was asked: never over a link or a device, with the umask's mode,
and ``havoc sheet -o FILE`` builds the one sheet the help promises."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from havoc import cli


def _new(out: Path, *extra: str, umask: int = 0o022) -> subprocess.CompletedProcess[str]:
    def set_umask() -> None:
        os.umask(umask)

    return subprocess.run(
        [sys.executable, "-m", "havoc", "new", str(out), *extra],
        capture_output=True,
        text=True,
        preexec_fn=set_umask,
        timeout=60,
    )


def test_new_force_does_not_replace_a_symbolic_link(tmp_path: Path) -> None:
    target = tmp_path / "mine.txt"
    target.write_text("my notes")
    link = tmp_path / "pos.yaml"
    link.symlink_to(target)
    proc = _new(link, "--force")
    assert proc.returncode != 0 and "not a regular file" in proc.stderr and "Traceback" not in proc.stderr
    assert link.is_symlink() and target.read_text() == "my notes"


def test_new_force_does_not_replace_a_named_pipe_or_a_device(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    proc = _new(fifo, "--force")
    assert proc.returncode != 0 and "not a regular file" in proc.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    proc = _new(Path("/dev/null"), "--force")
    assert proc.returncode != 0 and "not a regular file" in proc.stderr
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_new_force_replaces_a_regular_file(tmp_path: Path) -> None:
    out = tmp_path / "pos.yaml"
    out.write_text("old")
    assert _new(out).returncode != 0 and out.read_text() == "old"  # without --force: refused
    assert _new(out, "--force").returncode == 0
    assert "players" in out.read_text()


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_writes_the_mode_the_umask_gives(tmp_path: Path, umask: int, mode: int) -> None:
    out = tmp_path / "pos.yaml"
    proc = _new(out, umask=umask)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(out.stat().st_mode) == mode


def test_sheet_to_one_file_without_ruleset_builds_the_default_rulesets_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`havoc sheet --lang en -o FILE.pdf`: the default ruleset's sheet, exit 0 (the layout work is
    the sheet tests'; here the build is stood in for, to see which rulesets are built where)."""
    from havoc import quickref, rulebook

    built: list[tuple[str, str | None]] = []

    def fake_build(lang: str, pdf: Path | None, page: Path | None, rs: Any, root: Any) -> Any:
        built.append((rs.id, str(pdf) if pdf else None))
        for p in (pdf, page):
            if p is not None:
                p.write_bytes(b"%PDF stand-in")
        return SimpleNamespace(untranslated=[], texts=1)

    monkeypatch.setattr(quickref, "build", fake_build)
    out = tmp_path / "FILE.pdf"
    assert cli.main(["sheet", "--lang", "en", "-o", str(out)]) == 0
    assert [rs for rs, _ in built] == [rulebook.default_ruleset()]
    assert out.read_bytes() == b"%PDF stand-in" and (tmp_path / "FILE.html").is_file()
    assert not (tmp_path / "FILE.pdf" / "advanced-cry-havoc").exists()
    built.clear()
    folder = tmp_path / "sheets"
    assert cli.main(["sheet", "--lang", "en", "-o", str(folder)]) == 0  # a folder: every ruleset
    assert {rs for rs, _ in built} == {"cry-havoc", "advanced-cry-havoc"}
    capsys.readouterr()


def test_sheet_does_not_replace_a_symbolic_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "precious.pdf"
    target.write_bytes(b"mine")
    link = tmp_path / "FILE.pdf"
    link.symlink_to(target)
    assert cli.main(["sheet", "--lang", "en", "-o", str(link)]) != 0
    assert "not a regular file" in capsys.readouterr().err
    assert link.is_symlink() and target.read_bytes() == b"mine"
