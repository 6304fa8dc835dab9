"""003's words in the Polish rule texts (issue 38): the Battle steps, the actions, the verbs.

The official Polish rulebook (seed 003) names the Battle steps with plural imperatives
("Dołóżcie 1 Kryształ…", "Rozmieśćcie Oddziały na Celach Bitwy…"), calls placing Units on the
objectives "rozmieszczanie" and names the actions its own way. A reader who meets another form in
the answers, the sheet or ``havoc rule`` cannot match it with the rulebook on the table, so these
tests read the rendered Polish (the CLI, the catalogs) and require 003's forms.
"""

from __future__ import annotations

import pytest

from havoc.cli import main

BATTLE_STEP_RULES = {
    "battle-add-crystal": "A. Dołóżcie",
    "battle-place-units": "B. Rozmieśćcie Oddziały na Celach Bitwy",
    "battle-tactics-alternate": "C. Zagrywajcie karty Taktyk",
    "objectives-order": "D. Rozstrzygnijcie Cele Bitwy",
    "after-battle-winner-returns": "E. Przenieście",
    "retreat-adjacent-controlled": "F. Wycofajcie",
    "after-battle-remove-token": "G. Zdejmijcie żeton Bitwy",
}
ENGLISH_STEP_TITLES = {
    "battle-add-crystal": "A. Add a Crystal",
    "battle-place-units": "B. Place the Units",
    "battle-tactics-alternate": "C. Play Tactics cards",
    "objectives-order": "D. Resolve the Battle objectives",
    "after-battle-winner-returns": "E. Move the winner's Units back",
    "retreat-adjacent-controlled": "F. Retreat the loser's Units",
    "after-battle-remove-token": "G. Remove the Battle token",
}


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What the command prints (stdout and stderr), as a reader sees it."""
    try:
        main(list(args))
    except SystemExit:  # argparse
        pass
    out, err = capsys.readouterr()
    return out + err


def rule_text(capsys: pytest.CaptureFixture[str], rid: str, lang: str = "pl") -> str:
    return run_cli(capsys, "--lang", lang, "rule", rid)


# --- 1. the Battle steps ------------------------------------------------------------------------


def test_battle_steps_list_uses_003_imperatives(capsys: pytest.CaptureFixture[str]) -> None:
    text = rule_text(capsys, "battle-steps")
    for form in (
        "A. dołóżcie 1 Kryształ",
        "B. rozmieśćcie Oddziały na Celach Bitwy",
        "C. zagrywajcie karty Taktyk",
        "D. rozstrzygnijcie Cele Bitwy",
        "E. przenieście",
        "F. wycofajcie",
        "G. zdejmijcie żeton Bitwy",
    ):
        assert form in text, form
    for old in ("dołóż Kryształ", "ustaw Oddziały", "zagrywaj karty", "przegrany się wycofuje", "rozstawienie"):
        assert old not in text, old


@pytest.mark.parametrize(("rid", "title"), sorted(BATTLE_STEP_RULES.items()))
def test_each_step_rule_is_titled_with_its_letter_and_imperative(
    capsys: pytest.CaptureFixture[str], rid: str, title: str
) -> None:
    assert rule_text(capsys, rid).splitlines()[0].startswith(title)
    assert rule_text(capsys, rid, "en").splitlines()[0].startswith(ENGLISH_STEP_TITLES[rid])


def test_step_d_is_on_the_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    """The sheet's A–G block strips each title's letter: D must be there like the others."""
    from havoc.engine import rulebook

    rs = rulebook.load("cry-havoc")
    titles = [rs.rules[r].title for r in BATTLE_STEP_RULES]
    assert [t[:2] for t in titles] == ["A.", "B.", "C.", "D.", "E.", "F.", "G."]


def test_placing_units_is_rozmieszczanie(capsys: pytest.CaptureFixture[str]) -> None:
    for rid in ("battle-place-units", "battle-tactics-alternate", "objective-control-defender-tie"):
        text = rule_text(capsys, rid)
        for old in ("rozstawia", "Ustaw", "ustaw", "stawia ", "postawiła"):
            assert old not in text, (rid, old)
    assert "rozmieszcza" in rule_text(capsys, "battle-place-units")
