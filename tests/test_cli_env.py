"""The environment a user sets is read as they meant it, or they are told why not (issue 36).

``HAVOC_LANG`` is read like a locale (any case, ``pl_PL.UTF-8``, ``pl-PL``, the language's own
name), and a value that names no language is a warning, never a silent English. A
``HAVOC_RULES`` that names no folder of rulesets is an error that names it, in the reader's
language, with exit 1 (``havoc check`` included: it used to check nothing and pass).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from havoc.cli import lang as clilang
from havoc.cli import main


@pytest.mark.parametrize(
    "value", ["pl", "PL", "Pl", "pl_PL", "pl_PL.UTF-8", "pl_PL.utf8", "pl-PL", "pl_PL@euro", "Polski", "polski", " pl "]
)
def test_havoc_lang_names_polish_in_any_spelling(value: str) -> None:
    assert clilang.detect([], {"HAVOC_LANG": value}) == "pl"
    assert clilang.unknown_setting([], "pl", {"HAVOC_LANG": value}) is None


@pytest.mark.parametrize("value", ["EN", "en_GB.UTF-8", "en-US", "English"])
def test_havoc_lang_names_english_in_any_spelling(value: str) -> None:
    assert clilang.detect([], {"HAVOC_LANG": value, "LANG": "pl_PL.UTF-8"}) == "en"


@pytest.mark.parametrize("value", ["pl-PL.UTF-8", "PL_pl", "pl_PL.UTF-8@euro"])
def test_a_locale_names_polish_in_any_spelling(value: str) -> None:
    assert clilang.detect([], {"LC_ALL": value}) == "pl"


def test_an_unknown_havoc_lang_is_a_warning_naming_it_and_what_it_accepts() -> None:
    env = {"HAVOC_LANG": "xx"}
    assert clilang.detect([], env) == "en"
    warning = clilang.unknown_setting([], "en", env)
    assert warning is not None
    assert "HAVOC_LANG=xx" in warning and "en (English)" in warning and "pl (Polski)" in warning
    assert warning.startswith("warning:") and warning.endswith("English")
    # passed over, not obeyed: the locale then decides, and the warning is in its language
    env = {"HAVOC_LANG": "xx", "LANG": "pl_PL.UTF-8"}
    assert clilang.detect([], env) == "pl"
    polish = clilang.unknown_setting([], "pl", env)
    assert polish is not None and polish.startswith("uwaga: HAVOC_LANG=xx") and "Polski" in polish
    # --lang on the command line: HAVOC_LANG is not read, nothing to warn about
    assert clilang.unknown_setting(["--lang", "pl", "rules"], "pl", env) is None


def _havoc(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("HAVOC_LANG", "LANG", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, "-m", "havoc", *args],
        capture_output=True,
        text=True,
        env={**base, "LC_ALL": "C.UTF-8", **env},
        timeout=120,
    )


@pytest.mark.parametrize("value", ["PL", "pl_PL.UTF-8", "pl-PL", "polski"])
def test_the_command_line_speaks_polish_for_havoc_lang(value: str) -> None:
    proc = _havoc("lookup", "--help", HAVOC_LANG=value)
    assert proc.returncode == 0 and proc.stdout.startswith("użycie: havoc lookup"), proc.stdout
    assert proc.stderr == ""


def test_the_command_line_warns_of_an_unknown_havoc_lang_and_speaks_english() -> None:
    proc = _havoc("lookup", "--help", HAVOC_LANG="xx")
    assert proc.returncode == 0 and proc.stdout.startswith("usage: havoc lookup")
    assert proc.stderr.startswith("warning: HAVOC_LANG=xx names no language") and "pl (Polski)" in proc.stderr


# --- HAVOC_RULES -------------------------------------------------------------------------------


def _rules_cases(tmp_path: Path) -> dict[str, tuple[Path, str, str]]:
    """Each wrong HAVOC_RULES: (path, what the English says, what the Polish says)."""
    a_file = tmp_path / "rules.txt"
    a_file.write_text("not a folder")
    empty = tmp_path / "empty"
    (empty / "notes").mkdir(parents=True)  # a folder, but no ruleset.yaml in any of its folders
    return {
        "missing": (tmp_path / "nonexistent", "names a folder that does not exist", "folder, który nie istnieje"),
        "file": (a_file, "names a file", "wskazuje plik"),
        "empty": (empty, "holds no ruleset", "bez żadnego zestawu zasad"),
    }


@pytest.mark.parametrize("case", ["missing", "file", "empty"])
@pytest.mark.parametrize("command", [["check"], ["lookup", "hand"], ["rules"], ["catalog", "update"]])
def test_a_wrong_havoc_rules_is_one_clear_error_and_exit_1(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: str,
    command: list[str],
) -> None:
    path, english, polish = _rules_cases(tmp_path)[case]
    monkeypatch.setenv("HAVOC_RULES", str(path))
    monkeypatch.setenv("HAVOC_LOCALES", str(tmp_path / "locales"))  # catalog update writes nothing real
    assert main(command) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: HAVOC_RULES ") and english in err, err
    assert err.count("\n") == 1 and "expected a ruleset name" not in err
    assert main(["--lang", "pl", *command]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"błąd: {path}: HAVOC_RULES ") and polish in err, err


def test_havoc_check_fails_when_there_is_no_rules_folder(tmp_path: Path) -> None:
    """The real command, as a user runs it: exit 1 and the folder named, no traceback."""
    proc = _havoc("check", HAVOC_RULES=str(tmp_path / "nonexistent"))
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: {tmp_path / 'nonexistent'}: HAVOC_RULES") and "Traceback" not in proc.stderr
    proc = _havoc("sheet", "--lang", "en", "-o", str(tmp_path / "out"), HAVOC_RULES=str(tmp_path / "nonexistent"))
    assert proc.returncode == 1 and "HAVOC_RULES" in proc.stderr and not (tmp_path / "out").exists()
