from __future__ import annotations

from pathlib import Path

import pytest

from havoc.core.errors import Code
from havoc.formats.yamlio import MAX_BYTES, YamlError, load_file, loads


def test_lines_are_remembered() -> None:
    data = loads("a: 1\nb:\n  - x\n  - {c: 2}\n", "t.yaml")
    assert data == {"a": 1, "b": ["x", {"c": 2}]}
    assert data.line_of("b") == 2
    assert data["b"].item_lines == [3, 4]


@pytest.mark.parametrize(
    ("text", "line", "code"),
    [
        ("a: &x [1, 2]\nb: *x\n", 1, Code.YAML_ALIAS),
        ("a: [\n", 2, Code.YAML_SYNTAX),
        ("a: 1\na: 2\n", 2, Code.YAML_DUPLICATE_KEY),
        ("[" * 200 + "]" * 200, 1, Code.YAML_TOO_DEEP),
        ("? [a, b]\n: 1\n", 1, Code.YAML_KEY),
    ],
)
def test_bad_yaml_is_located(text: str, line: int, code: str) -> None:
    with pytest.raises(YamlError) as err:
        loads(text, "bad.yaml")
    assert err.value.problem.file == "bad.yaml"
    assert err.value.problem.line == line
    assert err.value.problem.code == code


def test_billion_laughs_is_rejected_quickly() -> None:
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        bomb += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
    with pytest.raises(YamlError) as err:
        loads(bomb, "bomb.yaml")
    assert err.value.problem.code == Code.YAML_ALIAS


def test_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * (MAX_BYTES + 10) + "\n")
    with pytest.raises(YamlError) as err:
        load_file(big)
    assert err.value.problem.code == Code.INPUT_TOO_LARGE


def test_non_utf8_file(tmp_path: Path) -> None:
    bad = tmp_path / "latin.yaml"
    bad.write_bytes("a: \xe9\n".encode("latin-1"))
    with pytest.raises(YamlError) as err:
        load_file(bad)
    assert err.value.problem.code == Code.INPUT_NOT_UTF8
