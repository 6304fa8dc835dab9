"""A question file (``havoc ask STÓŁ --query pytanie.yaml``) may be written in a reader's words,
as the compact form is: every stored example's question written with Polish keys and values
(names of factions and Regions, words of kinds and values) is the machine question, gives its
answer, and a word that names nothing is a located error in Polish."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc import cli
from havoc.assistant.examples import is_extra
from havoc.core.errors import InputError
from havoc.engine import rulebook
from havoc.engine.rulebook.model import Example
from havoc.formats.yamlio import load_file
from havoc.games.cry_havoc import position_read
from havoc.games.cry_havoc.answering import answer
from havoc.games.cry_havoc.query import QFIELDS, parse_query
from havoc.games.cry_havoc.typed import typed_word
from havoc.games.cry_havoc.ui import faction_name, region_names, skill_name, structure_name
from havoc.language.i18n import set_message_language
from havoc.language.languages import REGISTRY

PL = "pl"


def _examples() -> list[Example]:
    rs = rulebook.load()
    return [ex for rule in rs.rules.values() for ex in rule.examples if not is_extra(rs, ex)]


EXAMPLES = _examples()


def _polish(query: dict[str, Any]) -> dict[str, Any]:
    """A machine question with every key and value as a Polish player writes it."""

    def region(rid: str) -> str:
        return str(region_names([rid], PL)[rid])

    def faction(f: str) -> str:
        return str(faction_name(f, PL))

    out: dict[str, Any] = {}
    for key, value in query.items():
        spec = QFIELDS[key]
        if key == "ask":
            value = typed_word(value, PL)
        elif key == "faction":
            value = faction(value)
        elif key in ("from", "to", "region"):
            value = region(value)
        elif key == "via":
            value = [region(r) for r in value]
        elif key == "structure":
            value = str(structure_name(value, PL))
        elif key == "skill":
            value = str(skill_name(value, PL))
        elif key == "objectives":
            value = {faction(f): {typed_word(o, PL): n for o, n in v.items()} for f, v in value.items()}
        elif key == "card-units":
            value = {faction(f): n for f, n in value.items()}
        elif spec.kind == "enum":
            value = typed_word(value, PL)
        elif spec.kind == "bool":
            value = REGISTRY[PL].yes[0] if value else REGISTRY[PL].no[0]
        out[typed_word(key, PL)] = value
    return out


def _plain(text: str) -> str:
    """Upper case, no Polish letters: what a player types on a keyboard without them."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L")) if c.isascii())


def _shouted(data: Any) -> Any:
    """The question in upper case without Polish letters; a card's ID (no name of its own) as it is."""
    if isinstance(data, dict):
        return {_shouted(k): v if k == typed_word("card", PL) else _shouted(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_shouted(v) for v in data]
    return _plain(data).upper() if isinstance(data, str) and not data.isdigit() else data


def _file(tmp_path: Path, name: str, data: dict[str, Any]) -> Any:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_file(path, name)


@pytest.fixture(autouse=True)
def _polish_messages() -> Any:
    set_message_language(PL)
    yield
    set_message_language("en")


def test_there_are_examples_with_typed_words() -> None:
    assert len(EXAMPLES) >= 25
    assert all(any(typed_word(k, PL) != k for k in ex.query) for ex in EXAMPLES)


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_a_stored_examples_question_as_a_polish_file_is_its_machine_question(ex: Example, tmp_path: Path) -> None:
    rs = rulebook.load()
    pos = position_read.parse(ex.position, rs, ex.id)
    machine = parse_query(_file(tmp_path, "q.yaml", dict(ex.query)), pos, "pytanie.yaml")
    polish = _polish(dict(ex.query))
    assert polish != ex.query
    for data in (polish, _shouted(polish)):  # any case, Polish letters optional
        typed = parse_query(_file(tmp_path, "q.yaml", data), pos, "pytanie.yaml")
        assert typed == machine, data
        assert answer(rs, pos, typed, PL).to_dict() == answer(rs, pos, machine, PL).to_dict()


ASSIST = "tests/fixtures/assistant/leave-8-vs-3.yaml"


def test_havoc_ask_reads_a_polish_question_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    polish = tmp_path / "pytanie.yaml"
    polish.write_text("pytanie: ruch\nfrakcja: Ludzie\nz: Region A\ndo: region-b\noddziały: 2\n", encoding="utf-8")
    machine = tmp_path / "question.yaml"
    machine.write_text("{ask: move, faction: humans, from: example-a, to: example-b, units: 2}\n", encoding="utf-8")
    outs = []
    for q in (polish, machine):
        assert cli.main(["--lang", "pl", "ask", ASSIST, "--query", str(q), "--json"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]


def _refused(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "pytanie.yaml"
    path.write_text(text, encoding="utf-8")
    rs = rulebook.load()
    pos = position_read.load(ASSIST, rs)
    with pytest.raises(InputError) as exc:
        parse_query(load_file(path, "pytanie.yaml"), pos, "pytanie.yaml")
    return [str(p) for p in exc.value.problems]


def test_a_word_that_names_nothing_is_a_located_polish_error(tmp_path: Path) -> None:
    said = _refused(tmp_path, "pytanie: ruhc\nfrakcja: ludzi\nz: Region Q\ndo: Region B\nzz: 1\n")
    assert said[0].startswith("pytanie.yaml:1: nieznany rodzaj pytania 'ruhc' (czy chodziło o 'ruch'?)")
    assert said[1].startswith("pytanie.yaml:2: frakcja: nieznana wartość 'ludzi' (czy chodziło o 'Ludzie'?)")
    assert "Ludzie (humans)" in said[1]
    assert said[2].startswith("pytanie.yaml:3: z: nieznany Region 'Region Q'")
    assert said[3].startswith("pytanie.yaml:5: nieznane pole 'zz'")
    assert "oddziały (units)" in said[3] and "pytanie (ask)" in said[3]


def test_two_keys_for_one_field_are_refused(tmp_path: Path) -> None:
    said = _refused(tmp_path, "pytanie: ruch\nz: Region A\nfrom: example-a\ndo: Region B\n")
    assert said == ["pytanie.yaml:3: 'z' i 'from' oznaczają to samo; wpisz to tylko raz"]


def test_a_polish_files_problems_name_its_fields_as_typed(tmp_path: Path) -> None:
    said = _refused(tmp_path, "pytanie: ruch\nfrakcja: ludzie\nz: Region A\ndo: Region B\noddziały: 20\n")
    assert len(said) == 1 and said[0].startswith("pytanie.yaml:5: oddziały: 20 Oddziałów")


HELP_TABLE = """\
players: [humans, pilgrims]
phase: actions
turn: humans
regions:
  foglands: {units: {humans: 3}, control: humans, adjacent: [scorch]}
  scorch: {adjacent: [foglands, world-caverns]}
  world-caverns: {units: {humans: 2, pilgrims: 4}, battle: {token: 1, attacker: pilgrims}, adjacent: [scorch]}
"""


@pytest.mark.parametrize("lang", ["en", PL])
def test_the_helps_file_examples_read_back_to_the_machine_examples(lang: str, tmp_path: Path) -> None:
    """Each question file of ``havoc ask --help`` (in Polish: in Polish words) is its machine example."""
    from havoc.games.cry_havoc.commands import FILE_EXAMPLES, ask_epilog, file_example

    table = tmp_path / "stół.yaml"
    table.write_text(HELP_TABLE, encoding="utf-8")
    pos = position_read.load(table, rulebook.load())
    shown = [file_example(q, lang) for q in FILE_EXAMPLES]
    assert all(f"  {line}\n" in ask_epilog(lang) for line in shown)
    if lang == PL:
        assert "Mgielnia" in shown[0] and "move" not in shown[0]
    for line, machine in zip(shown, FILE_EXAMPLES, strict=True):
        path = tmp_path / "q.yaml"
        path.write_text(line, encoding="utf-8")
        assert parse_query(load_file(path, "q.yaml"), pos, "q") == parse_query(dict(machine), pos, "q")


def test_a_machine_files_problems_name_its_machine_keys_and_the_names_to_write(tmp_path: Path) -> None:
    """A file in machine keys is told about its own keys ("faction:", not "frakcja:"), in Polish,
    with the factions by name and the ID to write."""
    said = _refused(tmp_path, "ask: move\nfaction: ludzi\nfrom: nowhere\nto: example-b\n")
    assert said[0].startswith("pytanie.yaml:2: faction: nieznana wartość 'ludzi' (czy chodziło o 'Ludzie'?)")
    assert "Ludzie (humans), Pielgrzymi (pilgrims)" in said[0]
    assert said[1].startswith("pytanie.yaml:3: from: nieznany Region 'nowhere'")


def test_a_battle_placement_names_its_factions_and_objectives_in_polish(tmp_path: Path) -> None:
    path = tmp_path / "pytanie.yaml"
    path.write_text("pytanie: bitwa\nregion: Region A\ncele:\n  ludzi: {kontrola: 4}\n  pielgrzymi: {kontrol: 4}\n")
    pos = position_read.load("tests/fixtures/assistant/battle-walkthrough.yaml", rulebook.load())
    with pytest.raises(InputError) as exc:
        parse_query(load_file(path, "pytanie.yaml"), pos, "pytanie.yaml")
    said = [str(p) for p in exc.value.problems]
    assert said[0].startswith("pytanie.yaml:4: cele: nieznana wartość 'ludzi' (czy chodziło o 'Ludzie'?)")
    assert "Ludzie (humans)" in said[0]
    assert said[1].startswith("pytanie.yaml:5: cele: nieznana wartość 'kontrol' (czy chodziło o 'kontrola'?)")
    assert "kontrola (control), jeńcy (prisoners), wyniszczenie (attrition)" in said[1]


def test_a_polish_file_without_its_kind_is_told_the_key_in_its_words(tmp_path: Path) -> None:
    assert _refused(tmp_path, "frakcja: ludzie\nz: Region A\n") == ["pytanie.yaml:1: brak wymaganego pola 'pytanie'"]
    assert _refused(tmp_path, "faction: humans\n") == ["pytanie.yaml:1: ask: pole wymagane, a nie podano"]
