"""The phone trial's eight questions (issue 39), typed as one sentence in English and in Polish:
each is read into the API's question and the situation it states, with nothing missing when
the sentence says it all; ``havoc ask --text`` answers on the table with that situation merged
in (a Reserve the sentence gives is never set aside)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from havoc.games.cry_havoc.understand import understand

# (sentence, language, the question's fields, the situation stated, what is still missing)
TRIAL: list[tuple[str, str, dict[str, Any], dict[str, Any], list[str]]] = [
    (
        "how many of my 8 units may leave the battle against 3 pilgrims",
        "en",
        {"ask": "how-many", "of": "may-leave", "from": "example-a"},
        {"regions": {"example-a": {"units": {"pilgrims": 3}, "battle": {"token": 1, "attacker": "pilgrims"}}}},
        ["question.faction"],  # "my": whose turn it is, which only a table says
    ),
    (
        "ile z moich 8 oddziałów może opuścić bitwę przeciwko 3 pielgrzymom",
        "pl",
        {"ask": "how-many", "of": "may-leave", "from": "example-a"},
        {"regions": {"example-a": {"units": {"pilgrims": 3}, "battle": {"token": 1, "attacker": "pilgrims"}}}},
        ["question.faction"],
    ),
    # who attacked decides a tied objective, and no sheet says it: asked, not assumed
    (
        "who wins the battle: humans 1/1/2, pilgrims 2/0/1",
        "en",
        {"ask": "battle", "region": "example-a"},
        {"regions": {"example-a": {"units": {"humans": 4, "pilgrims": 3}, "battle": {"token": 1}}}},
        ["position.regions.example-a.battle.attacker"],
    ),
    (
        "kto wygrywa bitwę: ludzie 1/1/2, pielgrzymi 2/0/1",
        "pl",
        {"ask": "battle", "region": "example-a"},
        {"regions": {"example-a": {"units": {"humans": 4, "pilgrims": 3}, "battle": {"token": 1}}}},
        ["position.regions.example-a.battle.attacker"],
    ),
    ("what may the humans do now", "en", {"ask": "legal", "faction": "humans"}, {}, []),
    ("co mogą teraz zrobić ludzie", "pl", {"ask": "legal", "faction": "humans"}, {}, []),
    ("how many VP do the pilgrims score this round", "en", {"ask": "score", "faction": "pilgrims"}, {}, []),
    ("ile PZ zdobywają pielgrzymi w tej rundzie", "pl", {"ask": "score", "faction": "pilgrims"}, {}, []),
    (
        "can the humans build an airfield in foglands",
        "en",
        {"ask": "build", "faction": "humans", "region": "foglands", "structure": "airfield"},
        {},
        [],
    ),
    (
        "czy ludzie mogą wznieść lotnisko w mgielni",  # 003's verb: "Wzniesienie Budowli"
        "pl",
        {"ask": "build", "faction": "humans", "region": "foglands", "structure": "airfield"},
        {},
        [],
    ),
    (
        "where can the humans retreat from foglands",
        "en",
        {"ask": "retreat", "faction": "humans", "from": "foglands"},
        {},
        [],
    ),
    (
        "dokąd mogą się wycofać ludzie z mgielni",
        "pl",
        {"ask": "retreat", "faction": "humans", "from": "foglands"},
        {},
        [],
    ),
    (
        "can the pilgrims recruit 5 units with 2 in their reserve",
        "en",
        {"ask": "recruit", "faction": "pilgrims", "units": 5},
        {"factions": {"pilgrims": {"reserve": 2}}},
        ["question.region"],  # recruited Units go to the HQ's Region, and no table says where
    ),
    (
        "czy pielgrzymi mogą zrekrutować 5 oddziałów, mając 2 w rezerwie",
        "pl",
        {"ask": "recruit", "faction": "pilgrims", "units": 5},
        {"factions": {"pilgrims": {"reserve": 2}}},
        ["question.region"],  # recruited Units go to the HQ's Region, and no table says where
    ),
    (
        "how do we set up a game for 3 players",
        "en",
        {"ask": "setup"},
        {"players": ["humans", "pilgrims", "machines"]},
        [],
    ),
    ("jak przygotować grę dla 3 graczy", "pl", {"ask": "setup"}, {"players": ["humans", "pilgrims", "machines"]}, []),
]


@pytest.mark.parametrize(("text", "lang", "question", "stated", "missing"), TRIAL, ids=[t[0] for t in TRIAL])
def test_each_trial_question_is_read_whole(
    text: str, lang: str, question: dict[str, Any], stated: dict[str, Any], missing: list[str]
) -> None:
    got = understand(text, lang)
    assert got["refusal"] is None, got
    assert {k: got["question"].get(k) for k in question} == question, got["question"]
    for key, value in stated.items():
        assert got["position"].get(key) == value, got["position"]
    assert [m["field"] for m in got["missing"]] == missing
    assert got["unplaced"] == [], got["unplaced"]


TABLE = """players: [humans, pilgrims]
round: 2
phase: actions
turn: pilgrims
regions:
  foglands: {units: {pilgrims: 3}, control: pilgrims, hq: pilgrims, adjacent: [scorch]}
  scorch: {units: {humans: 2}, control: humans, adjacent: [foglands]}
"""


@pytest.mark.parametrize(
    ("lang", "sentence", "said"),
    [
        ("en", "can the pilgrims recruit 5 units with 2 in their reserve", "Can the Pilgrims recruit 5 Units?  No"),
        (
            "pl",
            "czy pielgrzymi mogą zrekrutować 5 oddziałów, mając 2 w rezerwie",
            "Czy Pielgrzymi mogą zrekrutować 5 Oddziałów?  Nie",
        ),
    ],
)
def test_ask_text_answers_with_the_stated_situation_on_the_table(
    tmp_path: Path, lang: str, sentence: str, said: str
) -> None:
    table = tmp_path / "table.yaml"
    table.write_text(TABLE, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "havoc", "--lang", lang, "ask", str(table), "--text", sentence, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["verdict"] is False  # the Reserve of 2 the sentence gives, not the table's 8 and more
    text = subprocess.run(
        [sys.executable, "-m", "havoc", "--lang", lang, "ask", str(table), "--text", sentence],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert text.startswith(said), text


def test_a_stated_situation_with_the_table_on_stdin_is_refused_not_dropped() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "havoc",
            "--lang",
            "pl",
            "ask",
            "-",
            "--text",
            "czy pielgrzymi mogą zrekrutować 5 oddziałów, mając 2 w rezerwie",
        ],
        input=TABLE,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "podaj stół jako plik" in run.stderr


def _ask(lang: str, table: Path, sentence: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "havoc", "--lang", lang, "ask", str(table), "--text", sentence, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_battle_of_two_sheets_is_answered_once_the_attacker_is_said(tmp_path: Path) -> None:
    """The trial's "who wins" on an empty table: each side's Units are its sheet's sum, the Battle
    stands in a stand-in Region named in the question, and who attacked is asked, never assumed."""
    table = tmp_path / "t.yaml"
    table.write_text("players: [humans, pilgrims]\n", encoding="utf-8")
    asked = _ask("pl", table, "kto wygrywa bitwę: ludzie 1/1/2, pielgrzymi 2/0/1")
    assert asked.returncode != 0 and "Traceback" not in asked.stderr
    assert "kto zaatakował" in asked.stderr and "example-a" not in asked.stderr, asked.stderr
    run = _ask("en", table, "who wins the battle: humans 1/1/2, pilgrims 2/0/1, the humans attacked")
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["kind"] == "battle"
    # the same reading with the attacker told since, as the Ask page's picker gives it
    got = understand(
        "who wins the battle: humans 1/1/2, pilgrims 2/0/1",
        "en",
        given={"position.regions.example-a.battle.attacker": "pilgrims"},
    )
    assert got["missing"] == []
    assert got["position"]["regions"]["example-a"]["battle"] == {"token": 1, "attacker": "pilgrims"}


def test_a_battle_on_the_table_is_the_one_a_question_is_about() -> None:
    table = {
        "players": ["humans", "pilgrims"],
        "turn": "humans",
        "regions": {"scorch": {"units": {"humans": 8, "pilgrims": 3}, "battle": {"token": 2, "attacker": "pilgrims"}}},
    }
    got = understand("how many of my units may leave the battle", "en", table)
    assert got["question"] == {"ask": "how-many", "faction": "humans", "of": "may-leave", "from": "scorch"}
    assert got["missing"] == []
    assert "battle" not in got["position"].get("regions", {}).get("scorch", {})  # token 2 is kept, not renumbered


def test_the_defender_named_by_role_gets_the_counts_once_who_asks_is_told() -> None:
    table = {"players": ["humans", "pilgrims"]}
    got = understand("ile oddziałów może wycofać obrońca z bitwy 6 na 2", "pl", table)
    assert [m["field"] for m in got["missing"]] == ["question.faction"]  # the attacker follows from it
    got = understand("ile oddziałów może wycofać obrońca z bitwy 6 na 2", "pl", table, {"question.faction": "humans"})
    assert got["missing"] == []
    assert got["position"]["regions"]["example-a"] == {
        "units": {"humans": 6, "pilgrims": 2},
        "battle": {"token": 1, "attacker": "pilgrims"},
    }


def test_a_region_the_sentence_names_is_put_on_the_table(tmp_path: Path) -> None:
    """ "build in Foglands" on a table without Foglands: the sentence puts it there (not "unknown Region")."""
    got = understand("can the humans build an airfield in foglands", "en", {"regions": {"scorch": {}}})
    assert got["position"] == {"regions": {"foglands": {}}}
    assert (
        understand("can the humans build an airfield in foglands", "en", {"regions": {"foglands": {}}})["position"]
        == {}
    )
    table = tmp_path / "t.yaml"
    table.write_text("players: [humans, pilgrims]\n", encoding="utf-8")
    for lang, sentence in (
        ("en", "can the humans build an airfield in foglands"),
        ("pl", "dokąd mogą się wycofać ludzie z mgielni"),
    ):
        run = _ask(lang, table, sentence)
        assert run.returncode == 0, run.stderr


def test_recruiting_asks_where_only_without_an_hq_on_the_table() -> None:
    sentence = "can the pilgrims recruit 5 units with 2 in their reserve"
    got = understand(sentence, "en", {"regions": {"foglands": {"hq": "pilgrims"}}})
    assert got["missing"] == []
    got = understand(sentence, "en", {"regions": {"foglands": {}}})
    assert [m["label"] for m in got["missing"]] == ["the Region of their HQ"]
    got = understand(sentence, "en", {"regions": {"foglands": {}}}, {"question.region": "foglands"})
    assert got["missing"] == [] and got["question"]["region"] == "foglands"


def test_the_interview_lays_the_stated_situation_over_a_pasted_table() -> None:
    from havoc.core.errors import InputError
    from havoc.engine import rulebook
    from havoc.games.cry_havoc.interview import lookup

    rs = rulebook.load()
    got = understand("can the pilgrims recruit 5 units with 2 in their reserve", "en")
    fields = {
        "position": TABLE,  # the text as pasted on the page
        "question": got["question"],
        "stated": got["position"],
    }
    out = lookup(rs, fields, "en")
    assert out["answer"]["verdict"] is False  # the stated Reserve of 2, not the table's default
    with pytest.raises(InputError) as caught:
        lookup(rs, {**fields, "stated": "reserve 2"}, "en")
    assert "stated" in str(caught.value)


def test_a_typed_question_for_the_solo_trogs_gets_their_decision(tmp_path: Path) -> None:
    """ "where do the 4 trogs move" on a solo table: the solo Trogs' decision, as ``havoc trogs``
    gives it, in the asker's language; never a refused question kind."""
    table = tmp_path / "solo.yaml"
    table.write_text(
        """players: [humans]
variant: solo
round: 2
phase: actions
regions:
  world-caverns: {hq: trogs, units: {trogs: 4}, adjacent: [example-a, example-b]}
  example-a: {units: {humans: 2}, control: humans, adjacent: [world-caverns]}
  example-b: {crystals: 3, adjacent: [world-caverns]}
""",
        encoding="utf-8",
    )
    for lang, sentence, said in (
        ("en", "where do the 4 trogs move", "The Trogs move 4 Units"),
        ("pl", "dokąd pójdą 4 trogowie", "Trogi przesuwają 4 Oddziały"),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "havoc", "--lang", lang, "ask", str(table), "--text", sentence],
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        assert said in run.stdout, run.stdout
        assert "trogs ·" not in run.stderr  # the decider said in words, not by its machine name
    got = understand("where do the 4 trogs move", "en", {"variant": "solo", "players": ["humans"]})
    assert got["question"] == {"ask": "trogs", "decide": "move", "units": 4}
    # with a modal verb it is a player's question about the Trogs' rules, not their decision
    assert understand("can the trogs move 2 units", "en", {"variant": "solo"})["question"]["ask"] == "move"
