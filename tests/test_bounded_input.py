"""Bounded input: hostile files, streams and paths give a located message and an exit code.

Each case here was a crash or hang before: a segfault on deep nesting, MemoryError on
/dev/zero, a hang on a FIFO, a walk of / for ``--ruleset /``, a traceback on bytes that are
not UTF-8, and ``1.0e+300`` crystals accepted. The CLI cases run in a subprocess, since a
segfault would take the test runner down with it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from havoc.assistant import api
from havoc.core.errors import InputError

REPO = Path(__file__).resolve().parents[1]
POSITION = REPO / "tests/fixtures/assistant/twenty.yaml"
DEEP = "[" * 30_000 + "\n"


def _havoc(*args: str, stdin: bytes | None = None, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    raw = subprocess.run(
        [sys.executable, "-m", "havoc", *args], input=stdin, capture_output=True, timeout=timeout, check=False
    )
    proc = subprocess.CompletedProcess(
        raw.args, raw.returncode, raw.stdout.decode("utf-8", "replace"), raw.stderr.decode("utf-8", "replace")
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _one_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = proc.stderr.strip().splitlines()
    assert lines and all(ln.startswith("error: ") for ln in lines), proc.stderr
    return proc.stderr


def test_deep_position_is_refused_not_a_segfault(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text(DEEP)
    proc = _havoc("legal", str(deep))
    assert proc.returncode == 2 and "deep.yaml:1: nesting deeper than" in _one_line(proc)


@pytest.mark.parametrize("text", ["- " * 30_000 + "x\n", "? " * 30_000 + "x\n", "{a: " * 20_000 + "\n"])
def test_other_deep_shapes_are_refused(tmp_path: Path, text: str) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text(text)
    proc = _havoc("legal", str(deep))
    assert proc.returncode == 2 and "nesting deeper than" in _one_line(proc)


def test_deep_query_file_is_refused(tmp_path: Path) -> None:
    deep = tmp_path / "query.yaml"
    deep.write_text(DEEP)
    proc = _havoc("ask", str(POSITION), "--query", str(deep))
    assert proc.returncode == 2 and "query.yaml:1: nesting deeper than" in _one_line(proc)


def test_deep_rule_file_is_refused(mini_copy: Path) -> None:
    (mini_copy / "mini/sections/01-draw.yaml").write_text(DEEP)
    proc = _havoc("check", "--ruleset", "mini")
    assert proc.returncode == 1 and "01-draw.yaml:1: nesting deeper than" in proc.stderr


def test_dev_zero_is_refused_without_reading_it() -> None:
    proc = _havoc("legal", "/dev/zero", timeout=20)
    assert proc.returncode == 2 and "not a regular file" in _one_line(proc)


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pos.fifo"
    os.mkfifo(fifo)
    proc = _havoc("legal", str(fifo), timeout=20)
    assert proc.returncode == 2 and "not a regular file" in _one_line(proc)


def test_a_folder_is_refused(tmp_path: Path) -> None:
    proc = _havoc("legal", str(tmp_path))
    assert proc.returncode == 2 and "a folder, not a file" in _one_line(proc)


def test_stdin_must_be_utf8() -> None:
    proc = _havoc("legal", "-", stdin=b"\xff")
    assert proc.returncode == 2 and "<stdin>: not UTF-8 text" in _one_line(proc)


def test_ruleset_slash_is_refused_without_a_walk() -> None:
    proc = _havoc("rules", "--ruleset", "/", timeout=20)
    assert proc.returncode == 1 and "no ruleset '/'" in _one_line(proc)


def test_ruleset_may_be_a_path_holding_ruleset_yaml() -> None:
    proc = _havoc("rules", "--ruleset", str(REPO / "rules/cry-havoc"))
    assert proc.returncode == 0 and "rules" in proc.stdout.splitlines()[0]


def test_a_growing_file_is_bounded_by_bytes_read(tmp_path: Path) -> None:
    """stat() says 0 for /proc files; the bound is on the bytes actually read."""
    from havoc.core import safeio

    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 2_000_000)
    with pytest.raises(safeio.ReadError, match="larger than"):
        safeio.read_bytes(big, 1_000_000)


@pytest.mark.parametrize("value", ["1.0e+300", "1e300", ".inf", "-1.0", "1000001.0", ".nan", "2.5"])
def test_impossible_numbers_in_a_position_are_refused(value: str) -> None:
    text = POSITION.read_text().replace(
        "crystals: 3, adjacent: [example-03", f"crystals: {value}, adjacent: [example-03"
    )
    import yaml

    data = yaml.safe_load(text)
    with pytest.raises(InputError, match=r"regions\.example-04\.crystals: expected a whole number"):
        api.score(data)


def test_whole_number_floats_within_range_are_accepted() -> None:
    text = POSITION.read_text().replace("crystals: 3, adjacent: [example-03", "crystals: 3.0, adjacent: [example-03")
    import yaml

    answer = api.score(yaml.safe_load(text))
    assert answer.verdict is not None
