"""A message that tells a reader to fill in a field names it as the reader knows it: a Polish
reader gets the field's label with the key after it ("w polu Regiony (regions)"), as the error
places do, never the bare machine key ("w regions", "pole faction")."""

from __future__ import annotations

from pathlib import Path

import pytest

from havoc.cli import main

LEAVE = Path(__file__).parent / "fixtures" / "assistant" / "leave-8-vs-3.yaml"


def _ask(tmp_path: Path, capsys: pytest.CaptureFixture[str], question: str, *, lang: str, turn: bool = True) -> str:
    table = tmp_path / "stół.yaml"
    lines = LEAVE.read_text(encoding="utf-8").splitlines(keepends=True)
    table.write_text("".join(x for x in lines if turn or not x.startswith("turn:")), encoding="utf-8")
    query = tmp_path / "pytanie.yaml"
    query.write_text(question, encoding="utf-8")
    assert main(["--lang", lang, "ask", str(table), "--query", str(query)]) == 2
    return capsys.readouterr().err


CASES = [
    (
        "ask: move\nfaction: humans\nfrom: example-a\nto: zzz\n",
        True,
        "nieznany Region 'zzz'; dopisz go w polu Regiony (regions) opisu stołu",
        "unknown Region 'zzz'; list it under the position's regions",
    ),
    (
        "ask: move\nfaction: humans\nfrom: example-a\nto: example-b\nvia: [zzz]\n",
        True,
        "nieznany Region 'zzz'; dopisz go w polu Regiony (regions) opisu stołu",
        "unknown Region 'zzz'; list it under the position's regions",
    ),
    (
        "ask: move\nfrom: example-a\nto: example-b\n",
        False,
        "która Frakcja pyta? podaj pole Frakcja (faction) albo pole Kolej (turn) w opisie stołu",
        "which faction asks? give faction (or turn in the position)",
    ),
    (
        "ask: how-many\nof: may-leave\nfaction: humans\n",
        True,
        "ile może wyjść: podaj pole z (from), Region, z którego wychodzą",
        "how many may leave: give from, the Region they leave",
    ),
    (
        "ask: battle\nfaction: humans\nregion: example-a\ncard-units: {humans: 1}\n",
        True,
        "dokłada lub zdejmuje Oddziały, w polu karta (card)",
        "name the card that adds or removes Units (card)",
    ),
    (
        "ask: use-skill\nfaction: pilgrims\nskill: scouting\n",
        True,
        "Pielgrzymi nie mają Zdolności 'Zwiad (scouting)'; dopisz ją w polu Pielgrzymi › Zdolności (skills) opisu stołu",
        "the Pilgrims have no Skill 'scouting'; list it under the position's Pilgrims › skills",
    ),
    (
        "ask: build\nfaction: humans\nregion: foglands\nstructure: harvester\ncost: 9\n",
        True,
        "pomiń pole koszt (cost) albo podaj 2",
        "leave cost out or give 2",
    ),
]


@pytest.mark.parametrize(("question", "turn", "pl", "en"), CASES, ids=[c[2][:40] for c in CASES])
def test_a_field_to_fill_in_is_named_by_its_label_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], question: str, turn: bool, pl: str, en: str
) -> None:
    said = _ask(tmp_path, capsys, question, lang="pl", turn=turn)
    assert pl in said, said
    for bare in (" w regions", "pole faction", "pole from", "pole card", "pole turn", "w factions.", "pomiń cost"):
        assert bare not in said, said
    assert en in _ask(tmp_path, capsys, question, lang="en", turn=turn)


def test_a_table_naming_an_unknown_neighbour_names_the_regions_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "stół.yaml"
    table.write_text(LEAVE.read_text(encoding="utf-8").replace("adjacent: [example-a]}", "adjacent: [zzz]}", 1))
    assert main(["--lang", "pl", "ask", str(table), "ruch", "ludzie", "z=Region-A", "do=Region-B"]) == 2
    assert "nieznany Region 'zzz'; dopisz go w polu Regiony (regions)" in capsys.readouterr().err


def test_the_polish_help_names_the_tables_turn_by_label_and_key(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "ask", "--help"])
    out = capsys.readouterr().out
    assert "pole Kolej (turn) opisu stołu" in out and "pole turn" not in out, out
