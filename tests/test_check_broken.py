"""`havoc check` fails with a located message, exit 1 and no traceback on every kind of bad input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from havoc.cli import main

DRAW = "mini/sections/01-draw.yaml"
BATTLE = "mini/sections/02-battle-regions.yaml"


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text()
    assert old in text, f"fixture changed: {old!r} not in {rel}"
    path.write_text(text.replace(old, new, 1))


CASES: list[tuple[str, str, str, str, str]] = [
    # (case, file, old, new, expected message fragment incl. file:line)
    ("malformed", DRAW, "rules:\n", "rules: [\n", f"{DRAW}:"),
    ("duplicate-id", BATTLE, "id: battle-region-leave", "id: draw-hand-limit", "duplicate ID 'draw-hand-limit'"),
    (
        "dangling-see",
        DRAW,
        "see: [battle-region-leave]",
        "see: [battle-region-leeve]",
        "no rule or section 'battle-region-leeve' (did you mean 'battle-region-leave'?)",
    ),
    ("dangling-text-link", DRAW, "(rule:battle-regions)", "(rule:nowhere)", "no rule or section 'nowhere'"),
    ("unknown-term", BATTLE, "(term:unit)", "(term:soldier)", "unknown glossary term 'soldier'"),
    (
        "unknown-param",
        DRAW,
        "keep {hand-limit}.",
        "keep {hand-limits}.",
        "unknown parameter {hand-limits} (did you mean 'hand-limit'?)",
    ),
    ("unknown-fact", BATTLE, "from.is-battle-region", "from.is-batle-region", "unknown fact 'from.is-batle-region'"),
    ("unknown-operator", BATTLE, "{all: [", "{every: [", "unknown operator 'every'"),
    ("unknown-figure", BATTLE, "{figure: may-leave}", "{figure: may-go}", "unknown figure 'may-go'"),
    ("unknown-query-kind", BATTLE, "queries: [move]", "queries: [walk]", "unknown question kind 'walk'"),
    ("unknown-field", DRAW, "    summary:", "    sumary:", "unknown field 'sumary' (did you mean 'summary'?)"),
    ("wrong-type", DRAW, "title: Hand limit", "title: [Hand, limit]", "expected non-empty text, found a list"),
    ("missing-text", DRAW, "    text: |\n", "    txt: |\n", "missing required field 'text'"),
    ("plural-forms", DRAW, "{draw-count:card|cards}", "{draw-count:card}", "needs 2 English forms"),
    (
        "overlay-target",
        "mini/overlays/errata.yaml",
        "target: battle-region-leave",
        "target: battle-region-leafe",
        "no base rule 'battle-region-leafe'",
    ),
    (
        "overlay-op",
        "mini/overlays/errata.yaml",
        "op: amend",
        "op: tweak",
        "expected one of add, amend, remove, replace",
    ),
    ("alias-bomb", DRAW, "id: draw\n", "id: draw\nx: &a [1, 1]\ny: [*a, *a]\n", "anchors and aliases"),
    (
        "retired-in-use",
        "mini/retired.yaml",
        "id: old-leave",
        "id: draw-hand-limit",
        "retired ID 'draw-hand-limit' is still in use",
    ),
    (
        "section-not-in-part",
        "mini/ruleset.yaml",
        "sections: [draw, battle-regions]",
        "sections: [draw]",
        "not listed in any part",
    ),
]


@pytest.mark.parametrize(("case", "rel", "old", "new", "expected"), CASES, ids=[c[0] for c in CASES])
def test_broken_rules_give_located_errors(
    mini_copy: Path, capsys: pytest.CaptureFixture[str], case: str, rel: str, old: str, new: str, expected: str
) -> None:
    _edit(mini_copy, rel, old, new)
    code = main(["check", "--ruleset", "mini"])
    _out, err = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in err
    assert expected in err
    # every message names a file, and (except whole-file problems) a line
    first = err.splitlines()[0]
    assert first.startswith("error: mini/") or first.startswith("error: rules/") or "mini/" in first
    assert ".yaml" in first


def test_oversized_file(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (mini_copy / DRAW).write_text("id: draw\n# " + "x" * 1_100_000 + "\n")
    assert main(["check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    assert f"{DRAW}: file is" in err and "limit" in err


def test_every_problem_is_reported_not_just_the_first(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(mini_copy, DRAW, "see: [battle-region-leave]", "see: [nope-one]")
    _edit(mini_copy, BATTLE, "(term:unit)", "(term:nope-two)")
    assert main(["check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    assert "nope-one" in err and "nope-two" in err and "2 problems" in err


def test_a_failed_check_writes_nothing(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache = Path(os.environ["HAVOC_CACHE_DIR"])
    before = sorted(cache.glob("*")) if cache.exists() else []
    before_rules = {p: p.read_bytes() for p in mini_copy.rglob("*.yaml")}
    _edit(mini_copy, DRAW, "see: [battle-region-leave]", "see: [nope]")
    before_rules = {p: p.read_bytes() for p in mini_copy.rglob("*.yaml")}
    assert main(["check", "--ruleset", "mini"]) == 1
    after = sorted(cache.glob("*")) if cache.exists() else []
    assert after == before
    assert {p: p.read_bytes() for p in mini_copy.rglob("*.yaml")} == before_rules


def test_missing_ruleset_folder(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--ruleset", "nope"]) == 1
    assert "no ruleset 'nope'" in capsys.readouterr().err
