"""A kind's figures are the kind's: its answers give the figures it declares and no other, each
declared with where it comes from, and the kinds' manifest names them without importing a kind.

``havoc check`` verifies each source (a rule whose check defines the figure, or the handler),
that every figure a rule defines is claimed by some kind, and that every label is translated,
each omission located; the manifest is read from the verified cache, made again when missing,
stale or damaged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import stored_examples

from havoc.core import cache
from havoc.engine import rulebook
from havoc.games.cry_havoc import kind as registry
from havoc.games.cry_havoc.answering import answer

_TOY = """\
from havoc.games.cry_havoc.answering import generic
from havoc.games.cry_havoc.kind import HANDLER, QuestionKind


def ask_toys(job):
    return generic(job, job.ctx(), "How many toys?")


KIND = QuestionKind(
    name="toys",
    label="Discard",
    help="How many toys?",
    answers="how many cards must go",
    needs=(),
    figures={figures},
    figure_words={words},
    handler=ask_toys,
    verdict="none",
)
"""
_KIND_LINE = 9  # the line of `KIND = QuestionKind(` in the toy module


def _toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, figures: str, words: str = "{}") -> registry.QuestionKind:
    """A throwaway kind declared in a module of its own, with these figures (Python source)."""
    import importlib

    (tmp_path / "toys_kind.py").write_text(_TOY.format(figures=figures, words=words))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("toys_kind", None)
    found: registry.QuestionKind = importlib.import_module("toys_kind").KIND
    return found


def _example(ex_id: str) -> stored_examples.Asked:
    rs = rulebook.load()
    return next(item for item in stored_examples.asked(rs) if item.ex.id == ex_id)


# --- an answer gives its kind's figures only ------------------------------------------------


def test_a_figure_a_consulted_rule_computes_for_another_kind_stays_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand-limit rule gains a figure for another kind (the ``tactics-hand`` exercise):
    ``discard``'s answers still give only ``must-discard``, the figure it declares."""
    discard = registry.get("discard")
    assert discard is not None
    handler = discard.handler
    assert handler is not None

    def with_another_kinds_figure(job: Any) -> Any:
        found = handler(job)
        found.figures = {**found.figures, "cards-free": 5}  # what a rule for `tactics-hand` would add
        return found

    monkeypatch.setattr(discard, "handler", with_another_kinds_figure)
    item = _example("ex-hand-limit-9")
    got = answer(rulebook.load(), item.pos, item.query)
    assert got.figures == {"must-discard": 2}
    assert got.to_dict()["figures"] == {"must-discard": 2}


def test_the_legal_report_line_gives_only_the_probing_kinds_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe reads its figures through the report (``Report.figures``): the ones its kind declares."""
    from havoc.games.cry_havoc.query import parse_query

    rs = rulebook.load()
    item = _example("ex-hand-limit-9")
    legal = parse_query({"ask": "legal", "faction": "machines"}, item.pos)
    [line] = [a for a in answer(rs, item.pos, legal).details["actions"] if a["action"] == "discard"]
    assert line["limits"] == {"must-discard": 2}
    discard = registry.get("discard")
    assert discard is not None
    monkeypatch.setattr(discard, "figures", ())
    monkeypatch.setattr(registry, "_loaded", dict(registry._loaded))  # the report's probes, worked out again
    assert [a for a in answer(rs, item.pos, legal).details["actions"] if a["action"] == "discard"] == []


# --- havoc check: each figure's source, every rule figure claimed ---------------------------


def test_the_shipped_kinds_figures_all_come_from_their_rules() -> None:
    assert registry.check_sources(registry.all_kinds(), rulebook.load().rules) == []


@pytest.mark.parametrize(
    ("figures", "said"),
    [
        ('{"must-discard": "hand-limit"}', None),
        ('{"toys-held": HANDLER}', None),
        (
            '{"must-discard": "draw-cards-draw"}',
            "comes from rule 'draw-cards-draw', whose check defines no 'must-discard'",
        ),
        ('{"must-discard": "no-such-rule"}', "comes from rule 'no-such-rule', which is no rule"),
        ('("must-discard",)', "figure 'must-discard' names no source"),
    ],
)
def test_a_figures_source_is_verified_at_the_declaration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, figures: str, said: str | None
) -> None:
    kind = _toy(tmp_path, monkeypatch, figures)
    problems = [p for p in registry.check_sources([kind], rulebook.load().rules) if p.file == kind.where]
    if said is None:
        assert problems == []
    else:
        [p] = problems
        assert p.line == _KIND_LINE and said in p.message and "'toys'" in p.message


def test_a_rules_figure_no_kind_claims_is_located_at_the_rule() -> None:
    """Without the discard kind, nothing claims the hand limit's figure: the rule file's line says so."""
    rs = rulebook.load()
    kinds = [k for k in registry.all_kinds() if k.name not in ("discard", "how-many")]
    problems = registry.check_sources(kinds, rs.rules)
    rule = rs.rules["hand-limit"]
    [p] = [p for p in problems if "'hand-limit'" in p.message]
    assert (p.file, p.line) == (rule.loc.file, rule.loc.line)
    assert "figure 'must-discard' is claimed by no question kind" in p.message
    assert "src/havoc/games/cry_havoc/kinds/discard.py" in p.message


def test_a_figure_label_without_polish_is_located_at_the_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "cache"))
    kind = _toy(tmp_path, monkeypatch, '{"toys-held": HANDLER}', '{"toys-held": "toys held in a hand"}')
    from havoc.games.cry_havoc.ui import _shared_figure_labels

    shared = _shared_figure_labels("en")
    [p] = registry.check_manifest([kind], shared)
    assert (p.file, p.line) == (kind.where, _KIND_LINE)
    assert "'toys-held'" in p.message and "pl translation" in p.message
    assert registry.check_manifest(registry.all_kinds(), shared) == []
    # a shared label without Polish is the kind's omission too
    assert registry.check_manifest([kind], {"toys-held": "toys held in a hand"}) == [p]


# --- the manifest: read from the verified cache, made again when it is not there -------------


def _fresh(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(folder))
    registry.forget_manifest()


def test_the_manifest_is_made_when_missing_and_read_when_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fresh(monkeypatch, tmp_path)
    monkeypatch.setattr(registry, "_loaded", {})  # as in a new process: no kind loaded yet
    made = registry.manifest()
    assert made == registry.build_manifest()
    assert cache.get(registry.MANIFEST, registry._manifest_key(), dict) == made  # stored, plain data
    assert made["kinds"]["discard"]["figures"] == ["must-discard"]
    assert made["kinds"]["discard"]["sources"] == {"must-discard": ["hand-limit"]}
    # the labels of figures a kind names itself (figure_words), as each declares them
    assert made["labels"] == {f: text for k in registry.all_kinds() for f, text in k.figure_words.items()}
    registry.forget_manifest()
    assert registry.manifest() == made
    registry.forget_manifest()


def test_a_damaged_or_stale_manifest_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh(monkeypatch, tmp_path)
    monkeypatch.setattr(registry, "_loaded", {})
    key = registry._manifest_key()
    cache.put(registry.MANIFEST, key, {"version": 1, "kinds": {"discard": {"figures": []}}, "labels": {}})
    assert registry.manifest()["kinds"]["discard"]["figures"] == ["must-discard"]  # missing fields: rebuilt
    registry.forget_manifest()
    real = cache.code_bytes

    def edited(path: str) -> bytes:
        return real(path) + (b"# edited" if path.endswith("discard.py") else b"")

    monkeypatch.setattr(cache, "code_bytes", edited)
    monkeypatch.setattr(cache, "TRUST_AFTER", 10**18)  # just edited: its stat facts vouch for no key
    assert registry._manifest_key() != key  # a kind's module edited: the cached manifest is stale
    registry.forget_manifest()


def _imported_kinds(code: str, folder: Path) -> str:
    """The kinds' modules a fresh process imports running ``code`` (the caches filled first)."""
    code += "\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('havoc.games.cry_havoc.kinds.')))\n"
    env = {**os.environ, "HAVOC_CACHE_DIR": str(folder)}
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return run.stdout.strip().splitlines()[-1]


def test_naming_a_figure_no_shared_label_names_imports_no_kind(tmp_path: Path) -> None:
    """The slowdown of the ``tactics-hand`` exercise: a figure without a shared label made the
    lookup import every kind's module; it reads the manifest instead."""
    code = (
        "from havoc.games.cry_havoc.ui import figure_label, value_text\n"
        "assert figure_label('cards-free', 'pl') == 'cards-free'\n"
        "assert value_text('tiebreak-toys', 'pl') == 'tiebreak-toys'\n"
    )
    assert _imported_kinds(code, tmp_path) == "[]"


def test_figures_help_and_schema_read_the_manifest(tmp_path: Path) -> None:
    code = (
        "from havoc.games.cry_havoc.figures import FIGURES, PER_SIDE, answer_schema, help_text\n"
        "assert FIGURES['discard'] == ('must-discard',) and 'vp-gained' in PER_SIDE\n"
        "answer_schema(); help_text('en')\n"
        "from havoc.games.cry_havoc.commands import kind_helps\n"
        "assert len(kind_helps()) == len(FIGURES)\n"
    )
    assert _imported_kinds(code, tmp_path) == "[]"


def test_another_ruleset_of_the_game_may_lack_a_kinds_source_rule() -> None:
    """A smaller ruleset of the game (the tests' mini one) has only some of the rules the kinds
    name: a figure whose rule it lacks is simply not given; a wrong figure still is a problem."""
    rs = rulebook.load()
    rules = {rid: rule for rid, rule in rs.rules.items() if rid != "move-points"}
    move = registry.get("move")
    assert move is not None
    kinds = list(registry.all_kinds())
    [p] = registry.check_sources(kinds, rules)
    assert p.file == move.where and "'move-points', which is no rule" in p.message
    assert registry.check_sources(kinds, rules, own=False) == []
    # its own rules (other IDs) are claimed by the name of the figure they give a kind they are for
    hand = rs.rules["hand-limit"]
    renamed = {"mini-hand-limit": hand._replace(id="mini-hand-limit")}
    discard = registry.get("discard")
    assert discard is not None
    assert registry.check_sources(kinds, renamed, own=False) == []  # (the rule may serve other kinds too)
    said = [p.message for p in registry.check_sources([discard], renamed)]  # as the game's own: by the rule's ID
    assert any("rule 'mini-hand-limit': its figure 'must-discard' is claimed by no question kind" in m for m in said)
