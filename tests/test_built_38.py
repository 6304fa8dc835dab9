"""Issue 38, item 4 (Python side): the sentences the assistant builds read as written Polish
(and plain English), made from the catalogs' case and plural forms rather than from templates
with a number or a name dropped in.

Each test asks the CLI a question in both languages and reads the answer a player reads.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from phone_text import unwrap

from havoc.cli import main

# A Battle in Region A: the Humans attack, the Pilgrims defend; the Humans control the only
# neighbour, Feralas Banks, so a losing Human side has exactly one Region to retreat to.
BATTLE = """\
players: [humans, pilgrims]
round: 2
phase: battle-resolution
turn: humans
factions:
  humans: {vp: 7}
  pilgrims: {vp: 4}
regions:
  example-a: {units: {humans: 3, pilgrims: 3}, control: pilgrims, battle: {token: 1, attacker: humans}, adjacent: [feralas-banks]}
  example-b: {units: {pilgrims: 1}, control: pilgrims}
  feralas-banks: {units: {}, control: humans}
"""


@pytest.fixture
def battle(tmp_path: Path) -> Path:
    path = tmp_path / "battle.yaml"
    path.write_text(BATTLE)
    return path


def ask(capsys: pytest.CaptureFixture[str], lang: str, *words: str) -> tuple[int, str, str]:
    code = main(["--lang", lang, "ask", *words])
    out, err = capsys.readouterr()
    return code, unwrap(out), err  # read across the lines it wraps in at a phone's width


def _battle(capsys: pytest.CaptureFixture[str], path: Path, lang: str, *placed: str) -> str:
    code, out, err = ask(capsys, lang, str(path), "battle", "example-a", *placed)
    assert code == 0, err
    return out


# --- 1. the Battle summary -------------------------------------------------------------------


def test_single_retreat_names_the_region_with_its_preposition(battle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One Region to retreat to: "na Wybrzeże Feralas" (the preposition the name takes), not
    "do jednego z Regionów: Wybrzeże Feralas"."""
    pl = _battle(capsys, battle, "pl", "humans=1/0/2", "pilgrims=1/1/1")
    assert "F. Ludzie wycofują 1 Oddział na Wybrzeże Feralas" in pl, pl
    assert "jednego z" not in pl
    en = _battle(capsys, battle, "en", "humans=1/0/2", "pilgrims=1/1/1")
    assert "F. Humans retreat 1 Unit to Feralas Banks" in en, en
    assert "one of" not in en


def test_prisoners_counted_with_their_noun(battle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "biorą 1 Jeńca (1:0)": the count agrees with its noun, the taker's Units first, no spaces."""
    pl = _battle(capsys, battle, "pl", "humans=1/0/2", "pilgrims=1/1/1")
    assert "2. Pojmanie Jeńców: Pielgrzymi biorą 1 Jeńca (1:0)" in pl, pl
    summary = pl.split("Rozstrzygające")[0]
    assert "Jeńców: 1" not in summary and " : " not in summary
    en = _battle(capsys, battle, "en", "humans=1/0/2", "pilgrims=1/1/1")
    assert "2. Capture Prisoners: Pilgrims take 1 Prisoner (1:0)" in en, en
    assert "1. Region Control: Pilgrims win (1:1), +2 VP" in en


def test_attrition_kills_no_one(battle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A side with nobody on Attrition "nikogo nie zabija", never "zabijają 0"; a count has its noun."""
    pl = _battle(capsys, battle, "pl", "humans=3/0/0", "pilgrims=1/1/1")
    assert "3. Wyniszczenie: Ludzie nikogo nie zabijają, Pielgrzymi zabijają 1 Oddział" in pl, pl
    en = _battle(capsys, battle, "en", "humans=3/0/0", "pilgrims=1/1/1")
    assert "3. Attrition: Humans kill no one, Pilgrims kill 1 Unit" in en, en
    assert "kill 0" not in en


def test_prisoner_source_is_a_stated_assumption(battle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Where the Prisoner comes from changes Attrition: the answer says what it assumed and which
    field changes it; given that field, the assumption is gone and the outcome follows it."""
    pl = _battle(capsys, battle, "pl", "humans=1/0/2", "pilgrims=1/1/1")
    assert (
        "Założenie: Pielgrzymi biorą Jeńca z Celu Wyniszczenie; aby wziąć go z innego Celu, dopisz jeńcy-z=kontrola"
        in pl
    ), pl
    assert "Ludzie zabijają 1 Oddział" in pl
    en = _battle(capsys, battle, "en", "humans=1/0/2", "pilgrims=1/1/1")
    assert (
        "Assumed: Pilgrims take the Prisoner from Attrition; to take it from another objective, add capture-from=control"
        in en
    )
    # the field the line names works, in both languages: the Humans keep both Attrition Units
    pl = _battle(capsys, battle, "pl", "humans=1/0/2", "pilgrims=1/1/1", "jeńcy-z=kontrola")
    assert "Założenie" not in pl and "Ludzie zabijają 2 Oddziały" in pl, pl
    en = _battle(capsys, battle, "en", "humans=1/0/2", "pilgrims=1/1/1", "capture-from=control")
    assert "Assumed" not in en and "Humans kill 2 Units" in en, en


def test_no_assumption_without_a_choice(battle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The enemy's Units stand on one objective only: there was nothing to assume."""
    en = _battle(capsys, battle, "en", "humans=3/0/0", "pilgrims=1/1/1")
    assert "2. Capture Prisoners: Pilgrims take 1 Prisoner" in en and "Assumed" not in en, en


# --- 2. the site's example boxes and the catalogs' Region names after a preposition ----------


def _box(lang: str, position: dict[str, object]) -> str:
    """An example position as the site's example box shows it (the renderer alone, no build)."""
    from types import SimpleNamespace

    from havoc.games import cry_havoc
    from havoc.language.i18n import locales_root
    from havoc.sphinxext.labels import LabelCatalog, game_words
    from havoc.sphinxext.render import Renderer

    labels = LabelCatalog.load(lang, [locales_root()])
    r = Renderer.__new__(Renderer)
    r.ctx = SimpleNamespace(
        lang=lang, words=game_words("havoc.games.cry_havoc"), game_labels=cry_havoc.labels(), label=labels.get
    )
    r.docname, r.location = "x", None
    regions = position.get("regions", {})
    assert isinstance(regions, dict)
    r.regions = r.name_regions(list(regions))
    return " ".join(r.mapping_list(position, ["havoc-position"]).astext().split())


def test_passed_is_a_sentence_about_the_faction() -> None:
    """``passed: true`` reads "Pielgrzymi spasowali" (the verb agreeing with the faction: "Trogi
    spasowały"), never "Pielgrzymi: spasował: tak"."""
    position = {
        "players": ["humans", "pilgrims", "trogs"],
        "factions": {"pilgrims": {"passed": True}, "trogs": {"passed": True, "vp": 3}, "humans": {"passed": False}},
        "regions": {"example-a": {"control": "humans"}},
    }
    pl = _box("pl", position)
    assert "Pielgrzymi spasowali" in pl and "Ludzie nie spasowali" in pl, pl
    assert "Trogi: PZ: 3; Trogi spasowały" in pl, pl
    assert "spasował:" not in pl and ": tak" not in pl, pl
    en = _box("en", position)
    assert "The Pilgrims have passed" in en and "The Humans have not passed" in en, en
    assert "passed: yes" not in en, en


# A preposition that governs the genitive, locative or instrumental, followed by a Region's
# name in the nominative ("przy Region A") or by a name placeholder with no case ("w {region}").
_NOMINATIVE_AFTER = re.compile(
    r"\b(przy|w|we|z|ze|do|od|nad|pod|dla|bez|obok|u)\s+(`?Region [A-Z]\b|\{(region|regions|src|dst|from|to|hq)\})"
)


def test_no_region_in_the_nominative_after_a_preposition() -> None:
    """Every Polish catalog declines a Region named after a preposition ("przy Regionie A")."""
    from babel.messages.pofile import read_po

    from havoc.language.i18n import locales_root

    found = []
    for po in sorted((locales_root() / "pl" / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as fh:
            for msg in read_po(fh):
                texts = msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]
                found += [f"{po.name}: {t}" for t in texts if t and _NOMINATIVE_AFTER.search(t)]
    assert not found, found


# --- 3. Skills by name; 4. a name that names nothing ---------------------------------------

ACTIONS = """\
players: [humans, pilgrims]
round: 2
phase: actions
turn: pilgrims
factions:
  humans: {vp: 7, prisoners: {pilgrims: 1}}
  pilgrims: {vp: 4, skills: {harvest: ready, teleport: ready}}
regions:
  example-a: {units: {pilgrims: 2}, control: pilgrims, structures: [{type: harvester, owner: pilgrims}]}
  example-b: {units: {humans: 3}, control: humans}
"""


@pytest.fixture
def actions(tmp_path: Path) -> Path:
    path = tmp_path / "actions.yaml"
    path.write_text(ACTIONS)
    return path


def test_a_tables_own_skill_is_named_as_a_skill(actions: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Skill the sources give no name ("harvest", the table's own word) is said as a Skill
    ("użyć Zdolności harvest"), as a player's own Region is "Region north"; a known one by its
    printed name, typed in Polish too."""
    code, out, err = ask(capsys, "pl", str(actions), "use-skill", "pilgrims", "skill=harvest")
    assert code == 0, err
    assert out.startswith("Czy Pielgrzymi mogą teraz użyć Zdolności harvest?"), out
    code, out, err = ask(capsys, "en", str(actions), "use-skill", "pilgrims", "skill=harvest")
    assert out.startswith("Can the Pilgrims use their Skill harvest now?"), out
    code, out, err = ask(capsys, "pl", str(actions), "użycie-zdolności", "pielgrzymi", "zdolność=teleportacja")
    assert code == 0 and out.startswith("Czy Pielgrzymi mogą teraz użyć Teleportacji?"), (out, err)


def test_a_polish_word_for_a_skill_is_no_malformed_id(actions: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``zdolność=żniwa`` names no Skill: said so, with the known ones, never "expected an ID in
    lowercase-kebab-case"; a near miss is offered the Skill's name."""
    code, _, err = ask(capsys, "pl", str(actions), "use-skill", "pilgrims", "skill=żniwa")
    assert code != 0
    assert "Zdolność: nieznana Zdolność „żniwa”; znane Zdolności: " in err and "Teleportacja" in err, err
    assert "identyfikatora" not in err, err
    code, _, err = ask(capsys, "en", str(actions), "use-skill", "pilgrims", "skill=żniwa")
    assert code != 0 and "skill: unknown Skill 'żniwa'; the known ones: " in err and "kebab" not in err, err
    code, _, err = ask(capsys, "pl", str(actions), "use-skill", "pilgrims", "skill=teleprot")
    assert code != 0 and "nieznana Zdolność „teleprot” — czy chodziło o Teleportację?" in err, err
    code, _, err = ask(capsys, "en", str(actions), "use-skill", "pilgrims", "skill=teleprot")
    assert code != 0 and "unknown Skill 'teleprot' — did you mean Teleport?" in err, err


def test_an_unknown_structure_is_an_error_not_a_question(actions: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``structure=kula-mocy`` is never echoed into the question ("aktywować kula-mocy"): an
    error naming the field, with the nearest name in the reader's language and its case."""
    code, out, err = ask(capsys, "pl", str(actions), "activate", "pilgrims", "example-a", "structure=kula-mocy")
    assert code != 0 and not out, out
    assert "Budowla: nieznana Budowla „kula-mocy” — czy chodziło o Sferę Mocy?" in err, err
    code, out, err = ask(capsys, "en", str(actions), "activate", "pilgrims", "example-a", "structure=kula-mocy")
    assert code != 0 and not out, out
    assert "structure: unknown Structure 'kula-mocy' — did you mean Power Orb?" in err, err
    # an invented Structure (example-…) and a known one are still questions
    code, out, err = ask(capsys, "pl", str(actions), "activate", "pilgrims", "example-a", "structure=Żniwiarka")
    assert code == 0 and "Żniwiarkę" in out, err


def test_an_unknown_structure_in_a_question_file_is_located(
    actions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A question file's unknown Structure is said at its line, with the code of a field's value."""
    import json

    q = tmp_path / "q.yaml"
    q.write_text("ask: activate\nfaction: pilgrims\nregion: example-a\nstructure: power-orbb\n")
    code = main(["ask", str(actions), "--query", str(q), "--json"])
    _, err = capsys.readouterr()
    assert code != 0
    (problem,) = json.loads(err)["problems"]
    assert problem["code"] == "field.value" and problem["line"] == 4, problem
    assert problem["message"].endswith("unknown Structure 'power-orbb' — did you mean Power Orb?"), problem
    code = main(["--lang", "pl", "ask", str(actions), "--query", str(q)])
    _, err = capsys.readouterr()
    assert code != 0 and "q.yaml:4" in err and "czy chodziło o Sferę Mocy?" in err, err


# --- 5. error wording ---------------------------------------------------------------------


def test_a_bare_word_expects_a_key_value_pair(actions: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "oczekiwano pary klucz=wartość" (the verb governs the genitive), never "oczekiwano klucz=wartość"."""
    code, _, err = ask(capsys, "pl", str(actions), "move", "pilgrims", "zzz")
    assert code != 0 and "'zzz': oczekiwano pary klucz=wartość (np. oddziały=2)" in err, err
    code, _, err = ask(capsys, "en", str(actions), "move", "pilgrims", "zzz")
    assert code != 0 and "'zzz': expected key=value (e.g. units=2)" in err, err


@pytest.mark.parametrize(
    ("words", "pl", "en"),
    [
        (
            ["morale", "recovery", "--roll", "6", "--courage", "-5"],
            "odwaga: oczekiwano odwagi co najmniej 1, podano -5",
            "courage: expected a courage of at least 1, found -5",
        ),
        (
            ["range", "english longbow", "-45"],
            "odległość: oczekiwano odległości w heksach co najmniej 1, podano -45",
            "distance: expected a distance in hexes of at least 1, found -45",
        ),
    ],
)
def test_a_negative_number_is_a_number(words: list[str], pl: str, en: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A negative number is too small, never "not a whole number" (the charts' bare numbers)."""
    for lang, said in (("pl", pl), ("en", en)):
        code = main(["--lang", lang, "charts", *words])
        _, err = capsys.readouterr()
        assert code == 2 and said in err, err
        assert "liczby całkowitej" not in err and "whole number" not in err, err


def test_the_polite_pronoun_is_lower_case_inside_a_sentence() -> None:
    """One form of "you" in Polish: "ciebie", "twój" in lower case inside a sentence (as 003 and
    most of the catalogs write it), never "za Ciebie" beside "przez ciebie"."""
    from babel.messages.pofile import read_po

    from havoc.language.i18n import locales_root

    capital = re.compile(
        r"(?<!^)(?<![.!?:]\s)\b(Ciebie|Cię|Ci|Tobie|Tobą|Twój|Twoja|Twoje|Twoich|Twoim|Twoimi|Twoją|Twojej|Twojego|Twoi)\b"
    )
    found = []
    for po in sorted((locales_root() / "pl" / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as fh:
            for msg in read_po(fh):
                texts = msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]
                for text in texts:
                    found += [f"{po.name}: {ln}" for ln in (text or "").split("\n") if capital.search(ln.strip())]
    assert not found, found


def test_a_question_field_in_an_error_is_the_forms_label(actions: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Polish error names a question's field as the form labels it ("Oddziały", not the lower-case
    "oddziały"), the typed word after it where it is another ("Dokąd (do)"); English keeps the key."""
    code, _, err = ask(capsys, "pl", str(actions), "move", "pilgrims", "from=example-a", "to=example-b", "units=-5")
    assert code != 0 and "pytanie: Oddziały: oczekiwano liczby całkowitej ≥ 0, znaleziono -5" in err, err
    code, _, err = ask(capsys, "pl", str(actions), "ruch", "pielgrzymi", "z=example-a", "do=nigdzie")
    assert code != 0 and "pytanie: Dokąd (do): nieznany Region 'nigdzie'" in err, err
    code, _, err = ask(capsys, "en", str(actions), "move", "pilgrims", "from=example-a", "to=example-b", "units=-5")
    assert code != 0 and "query: units: expected a whole number ≥ 0, found -5" in err, err


# --- the preposition a Region's name takes, in every built sentence -------------------------

COAST = """\
players: [humans, pilgrims]
phase: battle-resolution
regions:
  feralas-banks: {units: {humans: 3, pilgrims: 3}, control: pilgrims, battle: {token: 1, attacker: humans}, adjacent: [foglands, example-b]}
  foglands: {units: {}, control: humans, adjacent: [feralas-banks]}
  example-b: {units: {pilgrims: 2}, control: pilgrims, adjacent: [feralas-banks]}
"""


def test_a_region_takes_its_own_preposition(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "na Wybrzeżu Feralas" and "w Mgielni", "na Wybrzeże Feralas" and "do Mgielni": the
    preposition is the name's, never "w Wybrzeżu Feralas" or "do Wybrzeża Feralas"."""
    path = tmp_path / "coast.yaml"
    path.write_text(COAST)
    code, out, err = ask(capsys, "pl", str(path), "battle", "feralas-banks", "humans=1/0/2", "pilgrims=1/1/1")
    assert code == 0 and out.startswith("Jak kończy się Bitwa na Wybrzeżu Feralas?"), (out, err)
    assert "F. Ludzie wycofują 1 Oddział do Mgielni" in out, out
    code, out, err = ask(capsys, "pl", str(path), "retreat", "humans", "from=feralas-banks", "to=foglands", "units=1")
    assert out.startswith("Czy Ludzie mogą wycofać 1 Oddział z Wybrzeża Feralas do Mgielni?"), (out, err)
    code, out, err = ask(capsys, "pl", str(path), "move", "pilgrims", "from=example-b", "to=feralas-banks", "units=1")
    assert out.startswith("Czy Pielgrzymi mogą przesunąć 1 Oddział z Regionu B na Wybrzeże Feralas?"), (out, err)
    code, _, err = ask(capsys, "pl", str(path), "battle", "foglands")
    assert code != 0 and "w Mgielni nie ma żetonu Bitwy" in err, err
    code, out, err = ask(capsys, "en", str(path), "battle", "feralas-banks", "humans=1/0/2", "pilgrims=1/1/1")
    assert out.startswith("How does the Battle in Feralas Banks end?"), out
    assert "F. Humans retreat 1 Unit to Foglands" in out, out


def test_a_negative_placement_is_too_small(battle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``ludzie=-1/0/2`` is three whole numbers, one below 0: said so, not "a placement is …"."""
    code, _, err = ask(capsys, "pl", str(battle), "battle", "example-a", "ludzie=-1/0/2", "pilgrims=1/1/1")
    assert code != 0 and "'ludzie=-1/0/2': oczekiwano liczby całkowitej ≥ 0, znaleziono -1" in err, err
    code, _, err = ask(capsys, "en", str(battle), "battle", "example-a", "humans=-1/0/2", "pilgrims=1/1/1")
    assert code != 0 and "'humans=-1/0/2': expected a whole number ≥ 0, found -1" in err, err
    code, _, err = ask(capsys, "en", str(battle), "battle", "example-a", "humans=1/0", "pilgrims=1/1/1")
    assert code != 0 and "a placement is humans=CONTROL/PRISONERS/ATTRITION" in err, err


def test_the_json_answer_says_the_capture_was_assumed(battle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A program reads the same assumption: ``capture-assumed`` beside ``captured-from``."""
    import json

    def details(*extra: str) -> dict[str, object]:
        code = main(["ask", str(battle), "battle", "example-a", "humans=1/0/2", "pilgrims=1/1/1", *extra, "--json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        found: dict[str, object] = json.loads(out)["details"]
        return found

    assumed = details()
    assert assumed["capture-assumed"] is True and assumed["captured-from"] == {
        "humans": {"attrition": 1},
        "pilgrims": {},
    }
    given = details("capture-from=control")
    assert given["capture-assumed"] is False and given["captured-from"] == {"humans": {"control": 1}, "pilgrims": {}}


def test_the_ask_form_lets_the_asker_say_where_the_prisoner_comes_from() -> None:
    """The Ask page's Battle form offers ``capture-from``, its objectives named as the form's
    objectives table names them, in the page's language."""
    from havoc.games.cry_havoc.ask_page import WORDS, kind_form
    from havoc.language.i18n import locales_root
    from havoc.sphinxext.labels import LabelCatalog

    for lang, label, names in (
        ("pl", "Cel, z którego zabiera się Jeńca", ["Kontrola nad Regionem", "Pojmanie Jeńców", "Wyniszczenie"]),
        ("en", "Objective the Prisoner is taken from", ["Region Control", "Capture Prisoners", "Attrition"]),
    ):
        labels = LabelCatalog.load(lang, [locales_root()])
        form = {f["name"]: f for f in kind_form("battle", labels.get)}
        assert "capture-from" in form and not form["capture-from"]["needed"], form
        assert [n for _, n in form["capture-from"]["choices"]] == names, form["capture-from"]
        assert labels.get(WORDS["capture-from"]) == label
