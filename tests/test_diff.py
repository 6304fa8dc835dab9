"""``havoc diff A B``: two versions of a ruleset compared rule by rule (issue 41).

A synthetic pair of folders (a copy of the real rules, B edited by hand) holds one change of each
kind; compared A → B and B → A (which turns removed into added, a check removed into one added).
Then the real history: the repository's first commit of 2026-11-26 against HEAD.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from havoc.cli import main
from havoc.engine import diff
from havoc.engine.rulebook import rules_root

REPO = rules_root().parent

NEW_RULE = """  - id: move-extra
    title: An extra rule
    text: |
      A rule only the newer version has.
    summary: "A new rule."

"""
OLD_RULES = """
  - id: move-gone
    title: A rule that went away
    text: |
      Only the older version has this rule.
    summary: "Gone."

  - id: move-old
    title: A rule retired
    text: |
      Only the older version has this rule; its successor is move-points.
    summary: "Retired."
"""
ADJACENT_CHECK = """    check:
      queries: [move]
      requires: {fact: move.adjacent}
      hint: Move only between Regions that share an edge, opposite outer Regions, or (Trogs) Tunnels.
"""


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer holds {old[:40]!r}: the test's edit must follow it"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Folders A and B (each a checkout: rules/cry-havoc and locales/), B with one change of each kind."""
    root = tmp_path_factory.mktemp("diff")
    a, b = root / "a", root / "b"
    for side in (a, b):
        shutil.copytree(REPO / "rules" / "cry-havoc", side / "rules" / "cry-havoc")
        shutil.copytree(REPO / "locales", side / "locales")
    move_a = a / "rules" / "cry-havoc" / "sections" / "10-move.yaml"
    move_a.write_text(move_a.read_text(encoding="utf-8") + OLD_RULES, encoding="utf-8")
    move = b / "rules" / "cry-havoc" / "sections" / "10-move.yaml"
    _edit(move, "  - id: move-adjacent\n", NEW_RULE + "  - id: move-adjacent\n")  # added, and renumbers the rest
    _edit(move, "Discard any number of cards from your", "Discard as many cards as you like from your")
    _edit(
        move,
        "expect: {verdict: true, rules: [move-points, move-adjacent]}",
        "expect: {verdict: false, rules: [move-points]}",
    )
    _edit(move, ADJACENT_CHECK, "")
    retired = b / "rules" / "cry-havoc" / "retired.yaml"
    retired.write_text("retired:\n  - {id: move-old, successor: move-points, reason: merged}\n", encoding="utf-8")
    errata = b / "rules" / "cry-havoc" / "overlays" / "errata.yaml"
    _edit(errata, "matrix-max-terrain-cards: {value: 3,", "matrix-max-terrain-cards: {value: 4,")
    po = b / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    _edit(po, '"Odrzuć z [ręki](term:hand) dowolną liczbę kart.', '"Odrzuć z [ręki](term:hand) tyle kart, ile chcesz.')
    return a, b


def _changes(a: Path, b: Path) -> list[diff.Change]:
    from havoc.cli.commands.diff import read_version

    return diff.compare(read_version(str(a), "A", None, ""), read_version(str(b), "B", None, ""))


@pytest.fixture(scope="module")
def forward(pair: tuple[Path, Path]) -> list[diff.Change]:
    return _changes(*pair)


def _of(changes: list[diff.Change], kind: str) -> dict[str, diff.Change]:
    return {
        c.rule + (":" + c.detail if c.detail and kind in ("params", "example-expect") else ""): c
        for c in changes
        if c.kind == kind
    }


def test_added_removed_retired(forward: list[diff.Change]) -> None:
    assert list(_of(forward, "added")) == ["move-extra"]
    assert list(_of(forward, "removed")) == ["move-gone"]
    retired = _of(forward, "retired")
    assert list(retired) == ["move-old"]
    assert retired["move-old"].new == "move-points"


def test_renumbered(forward: list[diff.Change]) -> None:
    moved = _of(forward, "renumbered")
    assert moved["move-adjacent"].old == "10.2"
    assert moved["move-adjacent"].new == "10.3"
    assert "move-points" not in moved  # before the new rule: its number stays


def test_reworded_english_and_polish_word_by_word(forward: list[diff.Change]) -> None:
    change = _of(forward, "reworded")["move-points"]
    words = dict(change.words)
    assert ("-", "any number of") in words["text"]
    assert ("+", "as many") in words["text"]
    assert ("-", "dowolną liczbę kart.") in words["pl:text"]
    assert ("+", "tyle kart, ile chcesz.") in words["pl:text"]
    assert "summary" not in words  # unchanged fields are not listed


def test_params_checks_examples(forward: list[diff.Change]) -> None:
    param = _of(forward, "params")["faq-matrix-terrain:matrix-max-terrain-cards"]
    assert (param.old, param.new) == (3, 4)
    assert list(_of(forward, "check-removed")) == ["move-adjacent"]
    assert _of(forward, "check-added") == {}
    ex = _of(forward, "example-expect")["move-points:ex-move-points-4"]
    assert ex.old["verdict"] is True
    assert ex.new["verdict"] is False


def test_the_other_way_round(pair: tuple[Path, Path]) -> None:
    back = _changes(pair[1], pair[0])
    assert {"move-gone", "move-old"} <= set(_of(back, "added"))
    assert list(_of(back, "removed")) == ["move-extra"]
    assert list(_of(back, "check-added")) == ["move-adjacent"]


def test_same_version_no_changes(pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(pair[0]), str(pair[0])]) == 0
    assert "No changes." in capsys.readouterr().out
    assert main(["diff", str(pair[0]), str(pair[0]), "--lang", "pl"]) == 0
    assert "Brak zmian." in capsys.readouterr().out


def test_text_json_html(pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = (str(p) for p in pair)
    page = tmp_path / "diff.html"
    assert main(["diff", a, b, "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Rules added (1)" in out
    assert "move-adjacent — Only into adjacent Regions: 10.2 → 10.3" in out
    assert "[-any number of-] {+as many+}" in out
    html = page.read_text(encoding="utf-8")
    assert "<del>any number of</del>" in html
    assert "<ins>as many</ins>" in html
    assert main(["diff", a, b, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["added"] == 1
    assert data["summary"]["retired"] == 1
    assert data["a"]["fingerprint"]
    assert data["a"]["fingerprint"] != data["b"]["fingerprint"]
    assert "move-points" in data["translator"]


def test_polish_for_the_translator(pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    a, b = (str(p) for p in pair)
    assert main(["diff", a, b, "--lang", "pl"]) == 0
    out = capsys.readouterr().out
    assert "Dla tłumacza" in out
    assert "Dodane zasady (1)" in out
    assert "Przeredagowane (1)" in out
    assert "move-points — Punkty Ruchu" in out  # the rule by its Polish title
    assert "tekst (PL)" in out
    # what is no translator's business is not listed: numbers, parameters, checks, examples
    assert "Zmieniona numeracja" not in out
    assert "Zmienione parametry" not in out


def _first_of(day: str) -> str:
    got = subprocess.run(
        ["git", "-C", str(REPO), "log", f"--since={day} 00:00", f"--until={day} 23:59:59", "--format=%H"],
        capture_output=True,
        text=True,
        check=True,
    )
    commits = got.stdout.split()
    if not commits:
        pytest.fail(f"no commit of {day} in {REPO}: the real pair needs this repository's history")
    return commits[-1]


def test_real_history(capsys: pytest.CaptureFixture[str]) -> None:
    """The first commit of 2026-11-26 against HEAD: the Terrain decks' count became a parameter,
    the Battle steps were reworded, the setup rules got checks (all in the history since)."""
    old = _first_of("2026-11-26")
    assert main(["diff", old, "HEAD", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    kinds = {(c["kind"], c["rule"], c.get("detail", "")) for c in data["changes"]}
    assert ("params", "setup-terrain-decks", "terrain-decks") in kinds
    assert ("check-added", "setup-terrain-decks", "") in kinds
    assert ("reworded", "battle-steps", "") in kinds
    assert data["summary"]["reworded"] >= 1


@pytest.mark.parametrize(
    "lang, words", [("en", "nor a revision of this repository"), ("pl", "ani rewizja tego repozytorium")]
)
def test_unknown_revision(lang: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", lang, "diff", "no-such-revision-xyz", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "Traceback" not in err


def test_folder_that_is_no_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    assert main(["diff", str(tmp_path), "HEAD"]) == 2
    err = capsys.readouterr().err
    assert "A (" in err
    assert "not a ruleset folder" in err
    assert "Traceback" not in err


def test_broken_ruleset_folder(pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "rules" / "cry-havoc"
    shutil.copytree(pair[0] / "rules" / "cry-havoc", broken)
    (broken / "sections" / "10-move.yaml").write_text("id: move\nrules: [\n", encoding="utf-8")
    assert main(["diff", str(pair[0]), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "B (" in err
    assert "its rules do not load" in err


def test_word_diff_ignores_line_breaks() -> None:
    assert diff.word_diff("a b\nc", "a  b c") == (("=", "a b c"),)
    assert diff.word_diff("a b c", "a x c") == (("=", "a"), ("-", "b"), ("+", "x"), ("=", "c"))
