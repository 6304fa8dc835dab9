"""An option may stand anywhere among a command's words, as a player types it: the line with the
option in the middle reads exactly as the line with it last (argparse alone refuses the words
after an option once a command's optional positionals have been taken)."""

from __future__ import annotations

import argparse

import pytest

from havoc import cli
from havoc.cli import parser as cliparser

ASSIST = "tests/fixtures/assistant/leave-8-vs-3.yaml"
WALK = "tests/fixtures/assistant/battle-walkthrough.yaml"
SOLO = "tests/fixtures/solo/battle.yaml"

# (the words before the option, the option, the words after it): every command that reads a
# varying number of words, and the charts' fixed ones, in English and in Polish
LINES = [
    (["trogs", SOLO, "prisoner"], ["--shifted-priorities"], ["example-a", "humans=1/1/1", "trogs=1/2/0"]),
    (
        ["--lang", "pl", "trogs", SOLO, "jeniec"],
        ["--shifted-priorities"],
        ["example-a", "ludzie=1/1/1", "trogi=1/2/0"],
    ),
    (["trogs", SOLO, "prisoner"], ["--json"], ["example-a", "humans=1/1/1", "trogs=1/2/0"]),
    (["cry-havoc", "trogs", SOLO, "tactics"], ["--no-tactic-text"], ["example-a", "humans=2/0/1", "trogs=1/1/1"]),
    (["ask", ASSIST, "move"], ["--json"], ["humans", "from=example-a", "to=example-b", "units=2"]),
    (["ask", ASSIST, "ruch"], ["--lang", "pl"], ["ludzie", "z=example-a", "do=example-b", "oddziały=2"]),
    (["battle", WALK], ["--json"], ["example-battle", "pilgrims=2/1/1", "humans=2/1/1"]),
    (["battle", WALK, "example-battle"], ["--as", "humans"], ["pilgrims=2/1/1", "humans=2/1/1"]),
    (["--lang", "pl", "battle", WALK, "example-battle"], ["--json"], ["pielgrzymi=2/1/1", "ludzie=2/1/1"]),
    (["legal", ASSIST], ["--json"], ["pilgrims"]),
    (["--lang", "pl", "score", ASSIST], ["--explain"], ["pielgrzymi"]),
    (["lookup", "hand"], ["--json"], ["limit"]),
    (["lookup", "limit"], ["--lang", "pl"], ["kart"]),
    (["charts", "range", "english-longbow"], ["--json"], ["45"]),
    (["--lang", "pl", "charts", "morale", "--if", "banner"], ["--roll", "6"], ["morale"]),
]


def _run(words: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(words)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(("before", "option", "after"), LINES, ids=lambda w: " ".join(w))
def test_an_option_among_the_words_reads_as_the_option_last(
    before: list[str], option: list[str], after: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    last = _run([*before, *after, *option], capsys)
    assert last[0] == 0, last[2]
    assert last[1]
    assert _run([*before, *option, *after], capsys) == last


def test_an_unknown_option_among_the_words_is_still_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["trogs", SOLO, "prisoner", "--nosuch", "example-a", "humans=1/1/1"])
    assert exc.value.code == 2
    out = capsys.readouterr()
    assert "unrecognized arguments: --nosuch" in out.err and not out.out


def test_optional_words_are_not_reported_as_required(capsys: pytest.CaptureFixture[str]) -> None:
    """A missing DECISION is the error; the Region and placements it may take are not required."""
    with pytest.raises(SystemExit) as exc:
        cli.main(["--lang", "pl", "trogs", SOLO])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "DECYZJA" in err.splitlines()[-1]
    assert "FRAKCJA=" not in err.splitlines()[-1]
    assert "użycie: havoc trogs" in err  # the usage keeps its translated prefix and the positionals
    assert "STÓŁ DECYZJA" in err


def _leaves(parser: argparse.ArgumentParser, name: str) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(name, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                found.extend(_leaves(sub, f"{name} {word}"))
    return found


def test_every_command_taking_a_varying_number_of_words_intermixes() -> None:
    """A command added later with optional words gets the same reading (its parser is havoc's)."""
    taking = [(name, p) for name, p in _leaves(cli.build_parser(None, "en"), "havoc") if cliparser._takes_words(p)]
    names = {name for name, _ in taking}
    assert {"havoc ask", "havoc lookup", "havoc trogs", "havoc battle", "havoc legal", "havoc score"} <= names
    assert all(isinstance(p, cliparser._Parser) for _, p in taking)
