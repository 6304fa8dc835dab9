"""A question kind is checked where it is declared: `havoc check` resolves its handler and probe."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from havoc import game, rulebook
from havoc.errors import RulebookError
from havoc.games.cry_havoc import questions


def _toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, handler: str, legal: str | None) -> questions.QuestionKind:
    """A throwaway kind, declared in a module of its own (as a real kind is)."""
    (tmp_path / "toy_kind.py").write_text(
        "from havoc.games.cry_havoc.questions import QuestionKind\n"
        "\n"
        "KIND = QuestionKind(\n"
        '    name="hand-size",\n'
        '    help="How many cards does the faction hold?",\n'
        "    needs=(),\n"
        '    figures=("hand-size",),\n'
        "    per_side=(),\n"
        "    no_actor=False,\n"
        f"    legal={legal!r},\n"
        f"    handler={handler!r},\n"
        ")\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("toy_kind", None)
    kind: questions.QuestionKind = importlib.import_module("toy_kind").KIND
    return kind


def test_every_shipped_kind_resolves() -> None:
    assert questions.check() == []
    assert game.check(rulebook.load("cry-havoc")) == []


def test_a_missing_handler_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = _toy(tmp_path, monkeypatch, "havoc.games.cry_havoc.queries:ask_hand_size", None)
    problems = questions.check_kinds([kind])
    assert len(problems) == 1
    p = problems[0]
    assert p.file.endswith("toy_kind.py") and p.line == 3
    assert "'hand-size'" in p.message and "ask_hand_size" in p.message
    # Asking it is the same located error, never a traceback (AttributeError).
    with pytest.raises(RulebookError, match="hand-size"):
        kind.handle(None)


@pytest.mark.parametrize(
    "handler", ["no.such.module:ask", "havoc.games.cry_havoc.queries", "havoc.games.cry_havoc.queries:Job.nope"]
)
def test_a_malformed_handler_is_a_located_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, handler: str
) -> None:
    kind = _toy(tmp_path, monkeypatch, handler, None)
    [p] = questions.check_kinds([kind])
    assert p.line == 3 and "handler" in p.message


def test_a_missing_probe_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = _toy(tmp_path, monkeypatch, "havoc.games.cry_havoc.queries:ask_discard", "hand_size")
    [p] = questions.check_kinds([kind])
    assert p.file.endswith("toy_kind.py") and p.line == 3
    assert "'hand-size'" in p.message and "'hand_size'" in p.message


def test_a_declared_kind_with_a_bad_handler_fails_havoc_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole path: a shipped kind whose handler goes missing makes `havoc check` fail, located."""
    kind = questions.get("discard")
    assert kind is not None
    monkeypatch.setattr(kind, "handler", "havoc.games.cry_havoc.queries:ask_gone")
    monkeypatch.setattr(kind, "_handle", None)
    problems = game.check(rulebook.load("cry-havoc"))
    assert [str(p) for p in problems] == [
        f"src/havoc/games/cry_havoc/questions/discard.py:{kind.line}: question kind 'discard': "
        "handler 'havoc.games.cry_havoc.queries:ask_gone' names no function (expected 'module:function')"
    ]
