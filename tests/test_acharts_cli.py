"""``havoc charts``: answers in English and Polish, JSON, located errors with exit 2; the chart check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from havoc.cli import main
from havoc.core.errors import Code
from havoc.engine import rulebook
from havoc.games.advanced_cry_havoc import api
from havoc.games.advanced_cry_havoc.tables import check_rules


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["charts", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_range_in_english_and_polish(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "range", "english longbow", "45")
    assert code == 0
    assert out.startswith("English longbow at 45 hexes: Medium range, power 4, ammunition unlimited")
    assert "rules: Ranged weapons data; Power by range band" in out
    code, out, _ = run(capsys, "range", "angielski łuk", "45", "--lang", "pl")
    assert code == 0
    assert out.startswith("Angielski łuk długi na 45 heksów: Średni zasięg, siła 4, amunicja bez ograniczeń")
    assert "zasady: Dane broni dystansowej; Siła według przedziału zasięgu" in out
    assert "Medium" not in out and "power" not in out and "acv-" not in out


def test_polish_plural_of_hexes(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "range", "sling", "1", "--lang", "pl")[1].startswith("Proca na 1 heks:")
    assert run(capsys, "range", "sling", "3", "--lang", "pl")[1].startswith("Proca na 3 heksy:")


def test_json_answers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "courage", "12", "--foot", "--json")
    data = json.loads(out)
    assert code == 0 and data["result"] == "8" and data["rules"] == ["acv-courage"]
    code, out, _ = run(capsys, "impairment", "7", "--mod=+1", "--json")
    data = json.loads(out)
    assert (data["value"], data["result"]) == (8, "Impaired")
    code, out, _ = run(capsys, "range", "throwing axe", "5", "--json")
    data = json.loads(out)
    assert data["status"] == "refused" and "source" in data["reason"]


def test_combat_refuses_the_result_and_explains(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "combat", "--target", "prone", "--target", "side hex", "--attacker", "zoi of an enemy:2")
    assert code == 0
    assert "column shift in total: +4" in out
    assert "die-roll modifier in total: +2" in out
    assert "not cumulative" in out
    assert "cannot be determined from the source" in out and "14 result cells" in out
    _, out, _ = run(capsys, "combat", "--target", "leżący", "--lang", "pl")
    assert "wynik: nie da się ustalić ze źródła" in out and "14 komórek" in out


def test_waking_and_morale(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "waking", "5")[1].startswith("5: Healthy and Impaired")
    assert run(capsys, "waking", "8", "--if", "aid", "--if", "enemy exerting:2")[1].startswith(
        "5: Healthy and Impaired"
    )
    out = run(capsys, "morale", "morale", "--if", "banner", "--if", "leader")[1]
    assert out.startswith("morale check: modifier in total: -2")


def test_morale_or_recovery_is_a_choice(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["charts", "morale", "--if", "enemy zoi"])
    assert exc.value.code == 2
    capsys.readouterr()
    code, out, _ = run(capsys, "morale", "morale", "--if", "enemy zoi")
    assert code == 0 and out.startswith("morale check: modifier in total: +0") and "recovery checks only" in out
    code, out, _ = run(capsys, "morale", "recovery", "--if", "enemy zoi", "--roll", "6", "--courage", "5")
    assert code == 0 and out.startswith("recovery check: modifier in total: +1")
    assert "modified roll: 7 (roll 6, modifiers +1)" in out and "courage: 5" in out
    assert "result: cannot be determined from the source" in out and "(left open)" in out


def test_ranged_at_an_animal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "combat", "--ranged", "--animal", "--target", "rear hex")
    assert code == 0 and out.startswith("column shift in total: +0")
    assert "not counted: does not apply to an animal" in out
    code, out, _ = run(capsys, "combat", "--ranged", "--animal", "--target", "armored")
    assert code == 0 and out.startswith("column shift in total: -2")


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["range", "musket", "3"], "weapon:"),
        (["range", "longbow", "3"], "weapon:"),
        (["range", "sling", "0"], "distance:"),
        (["courage", "0", "--foot"], "DEF:"),
        (["impairment", "-2"], "roll:"),
        (["combat", "--target", "dragon"], "dragon:"),
        (["combat", "--target", "prone:2"], "prone:2:"),
    ],
)
def test_bad_input_is_located_exit_2_no_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str], where: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {where}") and "Traceback" not in err


def test_errors_in_polish(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "range", "sling", "0", "--lang", "pl")
    assert code == 2 and err.startswith("błąd: odległość: oczekiwano odległości")


def test_courage_needs_mounted_or_foot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["charts", "courage", "5"])
    assert exc.value.code == 2


def test_the_api() -> None:
    assert api.weapon_range("foot lance", 10).band == "Long range"
    assert api.courage(20, mounted=True).result == "9"
    assert api.waking(7).result == "Stunned"
    assert api.combat(target=["heavy cover"]).shift_total == -3


def test_the_real_charts_parse() -> None:
    assert check_rules(rulebook.load("advanced-cry-havoc")) == []


def test_a_bad_cell_is_reported_at_its_rule(rules_copy: Path) -> None:
    path = rules_copy / "advanced-cry-havoc" / "sections" / "08-courage.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('["15-18", "11-12", 8]', '["15 to 18", "11-12", 8]'), encoding="utf-8")
    problems = check_rules(rulebook.load("advanced-cry-havoc", rules_copy, use_cache=False))
    assert len(problems) == 1
    p = problems[0]
    assert p.file == "rules/advanced-cry-havoc/sections/08-courage.yaml"
    lines = text.splitlines()
    assert (
        p.line == next(i for i, line in enumerate(lines) if line.startswith("      columns:")) + 1
    )  # the chart's line
    assert p.code == Code.RULE_TABLE and p.message.startswith("acv-courage.table.rows[1][0]: ")


def test_status_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "status", "scared")
    assert code == 0 and "  May interrupt: No" in out and "  If it becomes Stunned: Remove" in out
    code, out, _ = run(capsys, "status", "przestraszony", "--lang", "pl")
    assert code == 0 and out.startswith("Przestraszony\n") and "  Może przerwać: Nie" in out
    code, out, _ = run(capsys, "status", "engaged", "--json")
    data = json.loads(out)
    assert data["status"] == "refused" and "12.2.4" in data["reason"]


def test_the_engine_does_not_name_the_game() -> None:
    """Only the ruleset (its ``game`` key) leads the engine to this package."""
    src = Path(__file__).resolve().parents[1] / "src" / "havoc"
    package = src / "games" / "advanced_cry_havoc"
    naming = [
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if package not in p.parents and "advanced_cry_havoc" in p.read_text(encoding="utf-8")
    ]
    assert naming == []


def test_courage_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "courage", "12", "--foot")[1].startswith("DEF 12 (foot): courage 8\n")
    assert run(capsys, "courage", "12", "--mounted", "--lang", "pl")[1].startswith("DEF 12 (konny): odwaga 7\n")


def test_the_status_page_says_where_the_engaged_lines_agree() -> None:
    rs = rulebook.load("advanced-cry-havoc")
    text = " ".join(rs.rules["acv-status-undetermined"].text.split())
    assert "every column but the first" not in text
    assert "backing" in text and "Stunned" in text and "agree" in text
    rows = {r[0]: r for r in rs.rules["acv-status-effects"].table.rows}  # type: ignore[union-attr]
    first, second = rows["Engaged (first line)"], rows["Engaged (second line)"]
    same = [c for c, (a, b) in enumerate(zip(first, second, strict=True)) if a == b]
    assert same == [5, 8]  # backing and If it becomes Stunned (the ZOI column adds a footnote)


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("09-morale.yaml", 'value: "In an enemy ZOI (recovery checks only)"', 'value: "In enemy ZOI"', "recovery-only"),
        ("04-ranged-modifiers.yaml", 'value: "LOS through a rear hex (not animals)"', 'value: "Rear"', "not-animals"),
        ("03-ranged-weapons.yaml", '[Throwing axe, "5-6",', '[Throwing axe, "5",', "6 hexes between two bands"),
        ("03-ranged-weapons.yaml", '[Throwing axe, "5-6",', '[Throwing axe, "1-6",', "1 hexes is not between"),
    ],
)
def test_the_chart_check_catches_a_line_or_gap_the_lookups_rely_on(
    rules_copy: Path, file: str, old: str, new: str, message: str
) -> None:
    path = rules_copy / "advanced-cry-havoc" / "sections" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    problems = check_rules(rulebook.load("advanced-cry-havoc", rules_copy, use_cache=False))
    assert any(message in p.message and p.code == Code.RULE_TABLE for p in problems), problems


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["courage", "abc", "--foot"], "DEF:"),
        (["range", "sling", "two"], "distance:"),
        (["waking", "8", "--mod=+x"], "--mod:"),
        (["morale", "recovery", "--roll", "six"], "--roll:"),
        (["morale", "rally"], "check:"),
        (["courage", "5", "--foot", "--ruleset", "cry-havoc"], "--ruleset:"),
        (["courage", "5", "--foot", "--ruleset", "no-such-rules"], "ruleset:"),
    ],
)
def test_bad_numbers_and_a_wrong_ruleset_are_user_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], where: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {where}") and "usage:" not in err and "Traceback" not in err


def test_a_bad_number_in_polish(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "range", "proca", "dwa", "--lang", "pl")
    assert code == 2 and err == "błąd: odległość: oczekiwano liczby całkowitej, podano 'dwa'\n"


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_help_is_in_the_language_asked_and_its_examples_run(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    import shlex

    with pytest.raises(SystemExit):
        main(["charts", "morale", "-h", "--lang", lang])
    out = capsys.readouterr().out
    if lang == "pl":
        assert "język odpowiedzi" in out and "przykłady:" in out and "zmodyfikowany rzut" in out
        assert "language of the answer" not in out and "examples:" not in out
    examples = [line.strip() for line in out.splitlines() if line.strip().startswith("havoc charts ")]
    assert len(examples) == 9
    for line in examples:
        code, answer, err = run(capsys, *shlex.split(line)[2:])
        assert code == 0 and answer and err == "", line
