"""Rule data is typed: parameter values in range, and every stored example checked by ``havoc check``.

Before: ``units-per-faction: twelve``, ``.nan``, ``-12``, ``0`` and ``1e200`` passed ``havoc
check`` (the site then printed "nan Units"), and so did an example with a wrong ``expect`` or
an impossible position, because only the test suite ran the examples.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from havoc.cli import main

DRAW = "mini/sections/01-draw.yaml"
BATTLE = "mini/sections/02-battle-regions.yaml"


@pytest.fixture
def no_catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mini_copy: Path) -> Path:
    monkeypatch.setenv("HAVOC_LOCALES", str(tmp_path / "no-locales"))
    return mini_copy


def _line(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), start=1) if needle in ln)


def test_the_fixture_checks_clean(no_catalogs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--ruleset", "mini"]) == 0, capsys.readouterr().err
    assert "1 examples run" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["twelve", ".nan", "-12", "0", "1e200", "1.0e+200", "true", "7.5", "1001", ".inf"])
def test_a_bad_parameter_value_fails_check_at_its_line(
    no_catalogs: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    draw = no_catalogs / DRAW
    draw.write_text(draw.read_text().replace("hand-limit: {value: 7,", f"hand-limit: {{value: {value},"))
    assert main(["check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    line = _line(draw, "hand-limit: {value:")
    assert f"01-draw.yaml:{line}: rule draw-hand-limit.params.hand-limit.value: expected a whole number" in err, err


def test_a_declared_range_and_type_are_enforced(no_catalogs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    draw = no_catalogs / DRAW
    original = draw.read_text()
    draw.write_text(original.replace("hand-limit: {value: 7,", "hand-limit: {value: 0, min: 0,"))
    assert main(["check", "--ruleset", "mini"]) == 0, capsys.readouterr().err
    draw.write_text(original.replace("hand-limit: {value: 7,", "hand-limit: {value: 7, max: 6,"))
    assert main(["check", "--ruleset", "mini"]) == 1
    assert "expected a whole number from 1 to 6, found 7" in capsys.readouterr().err
    draw.write_text(original.replace("hand-limit: {value: 7,", "hand-limit: {value: 7, type: bool,"))
    assert main(["check", "--ruleset", "mini"]) == 1
    assert "expected true or false (type: bool), found 7" in capsys.readouterr().err
    draw.write_text(original.replace("hand-limit: {value: 7,", "hand-limit: {value: 7, type: colour,"))
    assert main(["check", "--ruleset", "mini"]) == 1
    assert "type: expected one of int, bool, text" in capsys.readouterr().err


def test_a_wrong_expect_fails_check_at_the_example(no_catalogs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = no_catalogs / BATTLE
    battle.write_text(battle.read_text().replace("figures: {may-leave: 2}", "figures: {may-leave: 5}"))
    assert main(["check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    line = _line(battle, "- id: ex-leave")
    assert (
        f"02-battle-regions.yaml:{line}: example ex-leave: expect.figures.may-leave is 5, the assistant computes 2"
        in err
    )


def test_a_wrong_verdict_fails_check(no_catalogs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = no_catalogs / BATTLE
    battle.write_text(battle.read_text().replace("expect: {verdict: true,", "expect: {verdict: false,"))
    assert main(["check", "--ruleset", "mini"]) == 1
    assert "example ex-leave: expect.verdict is False, the assistant answers True" in capsys.readouterr().err


def test_an_impossible_example_position_fails_check(no_catalogs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = no_catalogs / BATTLE
    battle.write_text(battle.read_text().replace("units: {humans: 8, pilgrims: 3}", "units: {humans: -4, pilgrims: 3}"))
    assert main(["check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    line = _line(battle, "- id: ex-leave")
    assert f"02-battle-regions.yaml:{line}: example ex-leave: position: regions.example-a.units.humans" in err, err
