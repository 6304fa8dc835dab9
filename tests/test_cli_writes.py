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
    from havoc import quickref
    from havoc.engine import rulebook

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


def _fake_sheets(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None, str | None]]:
    """Stand in for the sheet build (the layout work is the sheet tests'): which files, where."""
    from havoc import quickref

    built: list[tuple[str, str | None, str | None]] = []

    def fake_build(lang: str, pdf: Path | None, page: Path | None, rs: Any, root: Any) -> Any:
        built.append((lang, str(pdf) if pdf else None, str(page) if page else None))
        for p in (pdf, page):
            if p is not None:
                p.write_bytes(f"%PDF stand-in {lang}".encode())
        return SimpleNamespace(untranslated=[], texts=1)

    monkeypatch.setattr(quickref, "build", fake_build)
    return built


def test_sheet_to_a_pdf_name_for_every_language_writes_files_named_by_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`havoc sheet -o x.pdf` (every language, the default) writes x.en.pdf and x.pl.pdf with their
    HTML beside them, as --help says: never a folder named x.pdf."""
    built = _fake_sheets(monkeypatch)
    out = tmp_path / "x.pdf"
    assert cli.main(["sheet", "-o", str(out)]) == 0
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.en.html", "x.en.pdf", "x.pl.html", "x.pl.pdf"]
    assert (tmp_path / "x.pl.pdf").read_bytes() == b"%PDF stand-in pl"
    assert [lang for lang, _, _ in built] == ["en", "pl"]
    assert "x.pl.pdf" in capsys.readouterr().out


def test_sheet_to_a_pdf_name_for_one_language_writes_that_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_sheets(monkeypatch)
    out = tmp_path / "x.pdf"
    assert cli.main(["sheet", "--lang", "pl", "-o", str(out)]) == 0
    assert out.is_file() and out.read_bytes() == b"%PDF stand-in pl"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.html", "x.pdf"]  # no staging left
    capsys.readouterr()


def test_sheet_to_an_html_name_for_every_language_writes_html_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    built = _fake_sheets(monkeypatch)
    assert cli.main(["sheet", "--lang", "all", "-o", str(tmp_path / "x.html")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.en.html", "x.pl.html"]
    assert all(pdf is None for _, pdf, _ in built)
    capsys.readouterr()


def test_sheet_help_names_the_language_files_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    for lang, word in (("en", "FILE.pl.pdf"), ("pl", "PLIK.pl.pdf")):
        with pytest.raises(SystemExit):
            cli.main(["sheet", "--help", "--lang", lang])
        assert word in " ".join(capsys.readouterr().out.split())


def test_sheet_does_not_replace_a_symbolic_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "precious.pdf"
    target.write_bytes(b"mine")
    link = tmp_path / "FILE.pdf"
    link.symlink_to(target)
    assert cli.main(["sheet", "--lang", "en", "-o", str(link)]) != 0
    assert "not a regular file" in capsys.readouterr().err
    assert link.is_symlink() and target.read_bytes() == b"mine"


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", r"{0}: wrote \S+x\.{0}\.pdf, \S+x\.{0}\.html in \d+\.\d s"),
        ("pl", r"{0}: zapisano \S+x\.{0}\.pdf, \S+x\.{0}\.html w \d+,\d s"),
    ],
)
def test_the_sheets_progress_lines_speak_the_message_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, line: str
) -> None:
    """Status lines of havoc's own commands follow HAVOC_LANG like its errors, with the language's
    decimal mark (they were English only)."""
    import re

    _fake_sheets(monkeypatch)
    monkeypatch.setenv("HAVOC_LANG", lang)
    capsys.readouterr()
    assert cli.main(["sheet", "--lang", "all", "-o", str(tmp_path / "x.pdf")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all(
        re.fullmatch(line.format(code), got) for code, got in zip(("en", "pl"), out, strict=True)
    ), out
