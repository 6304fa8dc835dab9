"""The assistant speaks Polish like the rulebook (issue 20): a fixed set of questions and errors.

Every question kind (the stored examples), the solo Trogs, the chart lookups and malformed input
(the CLI and the JSON API) are asked with ``--lang pl`` / ``"lang": "pl"``. What a Polish reader
sees must not hold a machine identifier that has a Polish name (``foglands``, ``example-a``,
``scouting``), an English word of the stop list, a backticked field name, or a count whose noun
disagrees with the Polish plural rule ("3 Oddziałów", "1 Oddziałów"). Where a message tells the
reader what to type, the IDs stand in parentheses, in quotes or in a field path; those are kept.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import stored_examples
import yaml
from babel import Locale

from havoc.assistant import api
from havoc.cli import main
from havoc.engine import game
from havoc.engine.interpreter.answer import render_text
from havoc.games.cry_havoc import words
from havoc.games.cry_havoc.contract import FACTIONS
from havoc.games.cry_havoc.solo.cli import render as render_trogs

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_site_text import box_grammar  # the site test's check, run here without a site build

from havoc.web.server import create_app

REPO = Path(__file__).resolve().parents[1]
ASSISTANT = REPO / "tests" / "fixtures" / "assistant"
SOLO = REPO / "tests" / "fixtures" / "solo"

# --- the checks -----------------------------------------------------------------------------

# Machine names that have a Polish name: the reader must meet the name, never these.
NAMED_IDS = {
    *words.KNOWN_REGIONS,
    *FACTIONS,
    *words.STRUCTURES,
    *words.SKILLS,
    "draw-cards",
    "battle-resolution",
    "mountains",
    "desert",
    "jungle",
    "beginner",
    "experienced",
    "veteran",
    "war-party",
    "play-tactics",
    "controlled-at-action-start",
    "attrition",
}
EXAMPLE_ID = re.compile(r"\bexample-[a-z0-9-]+")
# English words that never belong in a Polish sentence (whole words, any case).
STOP_WORDS = {
    "the", "and", "of", "from", "with", "not", "expected", "found", "unknown", "invalid", "error",
    "usage", "cannot", "file", "required", "field", "choose", "argument", "arguments", "value",
    "may", "must", "units", "unit", "crystal", "crystals", "vp", "skill", "structure", "scouting",
    "harvester", "question", "position", "valid", "json", "yes", "own", "deck", "turn", "enabled",
    "passed", "ruling", "veteran", "looked", "expecting", "delimiter", "such", "directory", "did", "find",
}  # fmt: skip
COUNTED = {  # noun form -> its plural category (one, few, many)
    "Oddział": "one", "Oddziały": "few", "Oddziałów": "many",
    "Kryształ": "one", "Kryształy": "few", "Kryształów": "many",
    "karta": "one", "karty": "few", "kart": "many",
    "żeton": "one", "żetony": "few", "żetonów": "many",
    "punkt": "one", "punkty": "few", "punktów": "many",
    "gracz": "one", "gracze": "few", "graczy": "many",
    "Akcja": "one", "Akcje": "few", "Akcji": "many",
}  # fmt: skip
COUNT = re.compile(r"(?<![\d.,:/+-])(\d+) (" + "|".join(sorted(COUNTED, key=len, reverse=True)) + r")\b")
PL = Locale("pl")
GENITIVE_PREPOSITIONS = {"dla", "do", "od", "bez", "z", "ze", "u", "według", "spośród", "oprócz", "około", "wśród"}
# Verbal nouns that govern the genitive like those prepositions: 003's action "Dobranie 2 kart
# Taktyk i zatrzymanie 1 z nich" (issue 38).
GENITIVE_PREPOSITIONS |= {"dobranie", "dobrania", "dobraniu", "dobraniem"}

# What a message shows for the reader to type: field paths, quoted input, "(id)" after a name,
# a list of accepted values; usage lines' metavars are upper case.
_TYPED = [
    re.compile(r"\S*/\S*"),  # a file's path
    re.compile(r"błąd: [^\s:]+(?::\d+)?: (?:[\w.*-]+: )?"),  # "błąd: pytanie: units: …" names the input and field
    re.compile(r"[\w-]+(?:\.[\w*-]+)+"),  # regions.example-a.units.humans
    re.compile(r"'[^']*'"),  # 'mvoe'
    re.compile(r"(?<=[A-ZĄĆĘŁŃÓŚŹŻa-ząćęłńóśźż] )\([a-z0-9-]+\)(?=[,;.):]|$| )"),  # Groty Świata (world-caverns)
    re.compile(r"(?:oczekiwano jedne[jgo]+ z(?: wartości)?|do wyboru): [^;)\n]*"),
    re.compile(r"\b[A-Z][A-Z_|/=.-]+\b"),  # POSITION, FACTION=C/P/A
    re.compile(r"\[-[^\]]*\]"),  # [--lang {en,pl}]
    re.compile(r"\{[a-z,]+\}"),  # {en,pl}
    re.compile(r"--[a-z-]+"),  # option names
    re.compile(r"\[[a-z0-9-]+\]"),  # [move-points]: an ID a reader may cite
]


def typed_removed(text: str) -> str:
    for pattern in _TYPED:
        text = pattern.sub(" ", text)
    return text


def problems(text: str) -> list[str]:
    """What is wrong with one Polish output (empty when it reads as Polish)."""
    found: list[str] = []
    if "`" in text:
        found.append(f"backticked name: {text[text.index('`') :][:40]!r}")
    found.extend(f"a name left out: {m.group(0)!r}" for m in re.finditer(r"\S+ → \?", text))  # "odwrót → ?"
    for m in COUNT.finditer(text):
        n, noun = int(m.group(1)), m.group(2)
        before = text[: m.start()].split()[-1:] or [""]
        if before[0].lower() in GENITIVE_PREPOSITIONS and n != 1 and COUNTED[noun] == "many":
            continue  # "dla 4 graczy", "z 3 Oddziałów": the preposition wants the genitive plural
        if PL.plural_form(n) != COUNTED[noun]:
            found.append(f"plural disagrees: {m.group(0)!r} ({PL.plural_form(n)} form needed)")
    plain = typed_removed(text)
    for word in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", plain.lower()):
        if word in NAMED_IDS:
            found.append(f"machine name {word!r}")
    found.extend(f"machine name {m.group(0)!r}" for m in EXAMPLE_ID.finditer(plain))
    for word in re.findall(r"[A-Za-z]+", plain):
        if word.lower() in STOP_WORDS:
            found.append(f"English word {word!r}")
    return found


def test_the_check_is_not_blind() -> None:
    assert problems("rozmieszczono 3 Oddziałów") and problems("1 Oddziałów") and problems("5 Kryształy")
    assert problems("Czy Ludzie mogą przesunąć 3 Oddziały z foglands do example-b?")
    assert problems("(stan gry bez pola `turn`)") and problems("expected a question (required)")
    assert problems("Zdolności scouting") and problems("Talia: own")
    assert not problems("Czy Ludzie mogą przesunąć 3 Oddziały z Mgielni do Regionu B?  Tak")
    assert not problems("1 Kryształ, 3 Kryształy, 5 Kryształów, 22 Oddziały, 25 Oddziałów, 50 PZ")
    assert not problems("błąd: pytanie: region: brak; wskaż jeden z Regionów: Groty Świata (world-caverns)")
    assert problems("Rekrutacja — Oddziały: najwyżej 3 (foglands)")
    assert problems("Nie ma dokąd się wycofać — Ludzie: odwrót → ?")


# --- the questions --------------------------------------------------------------------------


def _texts(value: Any) -> Iterator[str]:
    """The human-readable strings of an answer's JSON (keys, IDs and figures are for programs)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("question", "answer", "report", "title", "text", "said", "hint", "would-be-legal", "for"):
                yield from _texts(v)
            elif k in ("rules", "amended-by", "problems") and not (isinstance(v, list) and v and isinstance(v[0], str)):
                yield from _texts(v)  # a list of rule IDs is for programs
            elif k in ("message", "detail", "lines", "reason", "rule-title", "set-aside", "option-name"):
                yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)
    elif isinstance(value, str):
        yield value


def stored_answers() -> Iterator[tuple[str, str]]:
    """Every stored example (every question kind and the solo Trogs), answered in Polish."""
    rs = api.load_ruleset()
    for item in stored_examples.asked(rs, extra=None):
        ex = item.ex
        if item.query is None:
            decision = stored_examples.decide(rs, item, "pl")
            yield ex.id, render_trogs(decision)
            yield ex.id + " (JSON)", "\n".join(_texts(decision.to_json()))
            continue
        a = api.answer_for(rs, item.pos, item.query, "pl")
        yield ex.id, render_text(a)
        yield ex.id + " (JSON)", "\n".join(_texts(a.to_dict()))


def test_every_stored_question_reads_as_polish() -> None:
    kinds = set()
    bad = []
    for name, text in stored_answers():
        kinds.add(name)
        bad.extend(f"{name}: {p}" for p in problems(text))
    assert len(kinds) > 100  # 19 question kinds and the solo Trogs, text and JSON
    assert not bad, "\n".join(bad)


def test_every_kinds_explain_trace_names_facts_in_polish() -> None:
    """``havoc --lang pl ask --explain``: the trace names each fact a rule read by its Polish
    words, never by its path ("query.deck = Dżungla" before; the English trace keeps the paths)."""
    rs = api.load_ruleset()
    heads = {name.split(".")[0] for name in rs.facts} | set(rs.vocabulary.get("fact-subjects", {})) | {"position"}
    path = re.compile(r"\b(?:" + "|".join(sorted(heads)) + r")\.[a-z]")
    kinds, bad = set(), []
    for ex, pos, query in stored_examples.asked(rs):
        traced = render_text(api.answer_for(rs, pos, query, "pl"), explain=True)
        kinds.add(str(ex.query["ask"]))
        bad += [
            f"{ex.id}: {m.group(0)!r} in {line.strip()!r}" for line in traced.splitlines() for m in path.finditer(line)
        ]
        bad += [f"{ex.id}: {p}" for p in problems(traced)]
        english = render_text(api.answer_for(rs, pos, query, "en"), explain=True)
        assert "checked" not in english or path.search(english), english  # the paths stay in English
    assert kinds == set(rs.question_kinds)
    assert not bad, "\n".join(bad)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [humans, pilgrims\nround: 1\n")
    dup = tmp_path / "dup.yaml"
    dup.write_text("players: [humans]\nplayers: [pilgrims]\n")
    tab = tmp_path / "tab.yaml"
    tab.write_text("players:\n\t- humans\n")
    return {"bad": bad, "dup": dup, "tab": tab, "folder": tmp_path, "missing": tmp_path / "nothere.yaml"}


LEAVE = str(ASSISTANT / "leave-8-vs-3.yaml")
BATTLE = str(ASSISTANT / "battle-walkthrough.yaml")

CLI_QUESTIONS = [
    ["ask", LEAVE, "move", "humans", "from=example-a", "to=foglands", "units=3"],
    ["ask", LEAVE, "retreat", "pilgrims", "example-a"],
    ["ask", LEAVE, "how-many", "humans", "may-leave", "from=example-a"],
    ["ask", LEAVE, "use-skill", "humans", "skill=scouting"],
    ["ask", LEAVE, "draw-tactics", "humans", "deck=own"],
    ["legal", LEAVE],
    ["battle", BATTLE],
    ["battle", BATTLE, "example-battle", "pilgrims=2/1/1", "humans=2/1/1"],
    ["score", LEAVE],
    ["trogs", str(SOLO / "move.yaml"), "move", "--units", "2"],
    ["trogs", str(SOLO / "battle.yaml"), "place", "example-a", "humans=1/1/1"],
    ["charts", "range", "english longbow", "45"],
    ["charts", "courage", "12", "--foot"],
    ["charts", "status", "prone"],
    ["rule", "components-crystals"],
]


@pytest.mark.parametrize("words_", CLI_QUESTIONS, ids=lambda w: " ".join(w[:1] + w[2:4]))
def test_cli_questions_read_as_polish(capsys: pytest.CaptureFixture[str], words_: list[str]) -> None:
    code, out = run_cli(capsys, *words_, "--lang", "pl")
    assert code == 0, out
    assert not problems(out), "\n".join([out, *problems(out)])


CLI_ERRORS = [
    (["ask", "{bad}", "legal"], "niepoprawny YAML"),
    (["ask", "{dup}", "legal"], "powtórzony klucz"),
    (["ask", "{tab}", "legal"], "niepoprawny YAML"),
    (["ask", "{missing}", "legal"], "nie ma takiego pliku"),
    (["ask", "{folder}", "legal"], "to folder"),
    (["ask", LEAVE, "mvoe"], "czy chodziło o"),
    (["ask", LEAVE, "move", "humans", "units=abc"], "oczekiwano liczby"),
    (["ask", LEAVE, "move", "humans", "from=example-a", "to=nowhere"], "nieznany Region"),
    (["ask", LEAVE, "move", "humans", "from=example-a", "to=example-b", "units=9"], "mają w Regionie A 8"),
    (["battle", BATTLE, "example-c", "humans=1/1/1"], "nie ma żetonu Bitwy"),
    (["rule", "no-such-rule"], "nie ma zasady"),
    (["ask", LEAVE, "legal", "--bogus"], "nierozpoznane argumenty"),
    (["ask"], "wymagane są argumenty"),
    (["trogs", str(SOLO / "battle.yaml"), "place"], "wskaż jeden z Regionów"),
]


@pytest.mark.parametrize(("words_", "expect"), CLI_ERRORS, ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_cli_errors_read_as_polish(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path], words_: list[str], expect: str
) -> None:
    args = [w.format(**{k: str(v) for k, v in files.items()}) for w in words_]
    code, out = run_cli(capsys, *args, "--lang", "pl")
    assert code != 0 and expect in out, out
    assert not problems(out), "\n".join([out, *problems(out)])


def test_help_reads_as_polish(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``havoc --lang pl --help``, ``HAVOC_LANG=pl`` and a Polish locale all give Polish help."""
    code, out = run_cli(capsys, "--lang", "pl", "--help")
    assert code == 0 and out.startswith("użycie: havoc") and "pokaż tę pomoc i zakończ" in out
    monkeypatch.setenv("HAVOC_LANG", "pl")
    code, out = run_cli(capsys, "ask", "--help")
    assert "argumenty pozycyjne" in out and "plik z opisem stołu" in out
    monkeypatch.delenv("HAVOC_LANG")
    monkeypatch.setenv("LC_ALL", "pl_PL.UTF-8")
    code, out = run_cli(capsys, "legal", "--help")
    assert "opcje:" in out and "Wypisz Akcje" in out
    code, out = run_cli(capsys, "--lang", "pl", "ask", "--help")  # the question words and kinds too
    assert "słowa pytania (forma skrócona)" in out and "rodzaje pytań:" in out and "Dokąd mogą się wycofać" in out
    monkeypatch.setenv("LC_ALL", "C")
    code, out = run_cli(capsys, "legal", "--help")
    assert "options:" in out


# --- the JSON API ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    root = tmp_path_factory.mktemp("site")
    with TestClient(create_app(root), raise_server_exceptions=False) as c:
        yield c


POS = yaml.safe_load((ASSISTANT / "leave-8-vs-3.yaml").read_text())
WALK = yaml.safe_load((ASSISTANT / "battle-walkthrough.yaml").read_text())
API_ERRORS: list[tuple[str, Any]] = [
    ("/api/ask", b"{not json"),
    ("/api/ask", {"position": POS}),
    ("/api/ask", {"position": POS, "question": "legal", "extra": 1}),
    ("/api/ask", {"position": POS, "question": 5}),
    ("/api/ask", {"position": POS, "question": "move humans from=example-a to=nowhere"}),
    ("/api/ask", {"position": "players: [humans, pilgrims\n", "question": "legal"}),
    ("/api/ask", {"position": {**POS, "round": "x"}, "question": "legal"}),
    ("/api/battle", {"position": WALK, "region": "example-c"}),
    ("/api/battle", {"position": WALK, "region": "example-battle", "objectives": {"orcs": {}}}),
    ("/api/trogs", {"position": POS, "question": "move"}),
    ("/api/legal", {"question": "legal"}),
]


@pytest.mark.parametrize(("path", "body"), API_ERRORS)
def test_api_problems_read_as_polish(client: TestClient, path: str, body: Any) -> None:
    if isinstance(body, bytes):
        r = client.post(path + "?lang=pl", content=body, headers={"Content-Type": "application/json"})
    else:
        r = client.post(path, json={**body, "lang": "pl"})
    assert 400 <= r.status_code < 500, r.text
    data = r.json()
    for p in data.get("problems", []):
        assert p["in"] in {"position", "question", "request", "path", "query"}, p
    assert data.get("message") and data.get("problems"), data
    text = "\n".join([data["message"], *_texts(data["problems"])])
    assert not problems(text), "\n".join([json.dumps(data, ensure_ascii=False), *problems(text)])


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/ask", {"position": POS, "question": "move humans from=example-a to=foglands units=3"}),
        ("/api/legal", {"position": POS}),
        ("/api/battle", {"position": WALK, "region": "example-battle", "objectives": {
            "pilgrims": {"control": 2, "prisoners": 1, "attrition": 1},
            "humans": {"control": 2, "prisoners": 1, "attrition": 1}}}),
        ("/api/score", {"position": POS}),
    ],
)  # fmt: skip
def test_api_answers_read_as_polish(client: TestClient, path: str, body: dict[str, Any]) -> None:
    r = client.post(path, json={**body, "lang": "pl"})
    assert r.status_code == 200, r.text
    text = "\n".join(_texts(r.json()))
    assert not problems(text), "\n".join([text, *problems(text)])


# --- the site's example boxes (fast: the renderer alone, no site build) ----------------------


def _renderer(lang: str) -> Any:
    """The site's renderer of example boxes, alone (no Sphinx application)."""
    from types import SimpleNamespace

    from havoc.games import cry_havoc
    from havoc.language.i18n import locales_root
    from havoc.sphinxext.labels import LabelCatalog, game_words
    from havoc.sphinxext.render import Renderer

    labels = LabelCatalog.load(lang, [locales_root()])
    ctx = SimpleNamespace(
        lang=lang, words=game_words("havoc.games.cry_havoc"), game_labels=cry_havoc.labels(), label=labels.get
    )
    r = Renderer.__new__(Renderer)
    r.ctx, r.docname, r.location = ctx, "x", None
    return r


def _box_text(lang: str, position: dict[str, object]) -> str:
    """An example position as the site's example box shows it, in ``lang``."""
    r = _renderer(lang)
    regions = position.get("regions", {})
    assert isinstance(regions, dict)
    r.regions = r.name_regions(list(regions))
    list_node = r.mapping_list(position, ["havoc-position"])
    return " ".join(list_node.astext().split())


def test_example_boxes_decline_names() -> None:
    position = {
        "players": ["humans", "pilgrims"],
        "phase": "battle-resolution",
        "step": "play-tactics",
        "regions": {
            "example-a": {
                "control": "humans",
                "hq": "pilgrims",
                "adjacent": ["foglands", "feralas-banks", "example-b"],
            },
            "foglands": {"trog-token": "war-party", "adjacent": ["example-a"]},
            "feralas-banks": {"adjacent": ["example-a"]},
            "example-b": {"adjacent": ["example-a"]},
        },
    }
    pl = _box_text("pl", position)
    assert "sąsiaduje z Mgielnią, Wybrzeżem Feralas, Regionem B" in pl, pl
    assert "Kontrola: Ludzie" in pl and "Sztab: Pielgrzymi" in pl and "Zagrywanie kart Taktyk" in pl, pl
    assert not box_grammar(pl), box_grammar(pl)
    assert "play-tactics" not in pl and "war-party" not in pl and "trog-token" not in pl, pl
    en = _box_text("en", position)
    assert "adjacent to Foglands, Feralas Banks, Region B" in en and "Control: Humans" in en, en
    assert box_grammar("sąsiaduje z Region B; Kontrola Ludzie") == ["z Region B", "Kontrola Ludzie"]


def test_example_boxes_name_structures_by_type() -> None:
    """A Region's Structures as "Żniwiarka (Pielgrzymi)", an invented one as "Budowla A": never
    "rodzaj: example-structure; właściciel: …"."""
    position = {
        "players": ["pilgrims", "machines"],
        "regions": {
            "example-a": {
                "structures": [
                    {"type": "example-structure", "owner": "machines"},
                    {"type": "harvester", "owner": "pilgrims"},
                ]
            },
        },
    }
    pl = _box_text("pl", position)
    assert "Budowle: Budowla A (Maszyny), Żniwiarka (Pielgrzymi)" in pl, pl
    assert "example-structure" not in pl and "rodzaj" not in pl, pl
    en = _box_text("en", position)
    assert "Structures: Structure A (Machines), Harvester (Pilgrims)" in en, en


def test_example_boxes_say_the_event_stacks_and_skills() -> None:
    """The Score track's Event stacks as "na polach 15, 25 (2 żetony) Toru Punktacji", never
    "at: 15, at: 25" (an English key); an invented Skill as "Zdolność A", never example-skill."""
    position = {
        "players": ["pilgrims"],
        "scoring": {"events": [{"at": 15}, {"at": 25, "tokens": 2}]},
        "factions": {"pilgrims": {"skills": {"example-skill": "ready", "teleport": "exhausted"}}},
    }
    pl = _box_text("pl", position)
    assert "Wydarzenia: na polach 15, 25 (2 żetony) Toru Punktacji" in pl and "at:" not in pl, pl
    assert "Zdolności: Zdolność A (gotowa), Teleportacja (wykorzystana)" in pl and "example-" not in pl, pl
    en = _box_text("en", position)
    assert "Events: on spots 15, 25 (2 tokens) of the Score track" in en, en
    assert "Skills: Skill A (ready), Teleport (exhausted)" in en, en


def test_an_example_question_names_its_structure_not_a_region() -> None:
    """An example asking about an invented Structure shows "Budowla: Budowla A" (it once took the
    Structure's ID for an invented Region and said "Budowla: Region B")."""
    from havoc.sphinxext import rule as site_rule

    ex = next(e for r in api.load_ruleset().rules.values() for e in r.examples if e.id == "ex-activate-lost-control")
    r = _renderer("pl")
    r.regions = r.name_regions([*map(str, ex.position["regions"]), *site_rule._region_words(r, ex.query)])
    query = {k: v for k, v in ex.query.items() if k != "ask"}
    text = "".join(part.astext() for part in r.data(query))
    assert "Budowla: Budowla A" in text and "Region B" not in text, text


# --- names that decline: phases, decks, items (the case the sentence needs) ------------------


@pytest.mark.parametrize(
    ("words_", "expect"),
    [
        (["ask", LEAVE, "draw-tactics", "humans", "deck=mountains"], "z talii Gór?"),
        (["ask", LEAVE, "draw-tactics", "humans", "deck=own"], "z własnej talii?"),
        (["ask", LEAVE, "place", "item=crystal", "region=example-a"], "można umieścić Kryształ?"),
        (["ask", LEAVE, "setup", "veteran"], "dla 2 graczy (weterani)?"),
        # what the rule looked at names the deck, not the terrain ("…: Ocean")
        (["ask", LEAVE, "draw-tactics", "humans", "deck=ocean"], "Talia: talia Oceanu\n"),
        (["ask", LEAVE, "draw-tactics", "humans", "deck=own"], "Talia: własna talia\n"),
    ],
)
def test_names_take_the_case_of_the_sentence(
    capsys: pytest.CaptureFixture[str], words_: list[str], expect: str
) -> None:
    code, out = run_cli(capsys, *words_, "--lang", "pl")
    # the answer wraps at a phone's width (issue 38): the words are read across its line breaks
    assert code == 0 and " ".join(expect.split()) in " ".join(out.split()), out


STRUCTURES = str(ASSISTANT / "structures.yaml")


@pytest.mark.parametrize(
    ("words_", "lang", "expect"),
    [
        (["activate", "pilgrims", "example-a", "structure=harvester"], "pl", "aktywować Żniwiarkę w Regionie A?"),
        (["build", "pilgrims", "example-b", "structure=harvester"], "pl", "wznieść Żniwiarkę w Regionie B?"),
        (["place", "item=structure", "structure=harvester", "region=example-b"], "pl", "umieścić Żniwiarkę?"),
        (["place", "item=structure", "structure=harvester", "region=example-b"], "en", "May the Harvester be put"),
        (["build", "pilgrims", "example-b", "structure=airfield"], "en", "build their Airfield in Region B?"),
        # "Aktywacja" governs the genitive: never "Aktywacja Budowli — Żniwiarka (Region A)"
        (["legal"], "pl", "✓ Aktywacja Żniwiarki (Region A), Sfery Mocy (Region B)\n"),
        (["legal"], "en", "Activate — Harvester (Region A), Power Orb (Region B)"),
    ],
)
def test_a_structure_is_named_by_its_type_declined(
    capsys: pytest.CaptureFixture[str], words_: list[str], lang: str, expect: str
) -> None:
    """A Structure is its type's name in the case of the sentence ("zbudować Żniwiarkę"), never
    the word "Budowla" with the name after it, a key (harvester) or harvester@example-a."""
    code, out = run_cli(capsys, "ask", STRUCTURES, *words_, "--lang", lang)
    assert code == 0 and expect in out, out
    assert "harvester" not in out and "@" not in out, out


def test_english_questions_do_not_double_a_name() -> None:
    """The English question says "use their Skill A", never "use their Skill Skill A": an
    invented Skill or Structure is already named with its kind."""
    rs = api.load_ruleset()
    questions = [api.answer_for(rs, pos, query, "en").question for _ex, pos, query in stored_examples.asked(rs)]
    assert "Can the Pilgrims use their Skill A now?" in questions
    doubled = [q for q in questions if re.search(r"\b([A-Z]\w+) \1\b", q)]
    assert not doubled, doubled


def test_a_second_structure_of_a_type_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pos = tmp_path / "pos.yaml"
    pos.write_text(
        Path(STRUCTURES)
        .read_text()
        .replace("{type: power-orb, owner: pilgrims}", "{type: harvester, owner: pilgrims}, " * 2)
    )
    code, out = run_cli(capsys, "ask", str(pos), "legal", "--lang", "pl")
    assert code != 0 and "Żniwiarka (harvester) po raz drugi: w Regionie może stać tylko jedna Budowla" in out, out


SINGULAR_VERBS = {"może", "musi", "zdobywa", "wygrywa", "kładzie", "bierze", "odkrywa", "traci", "dostaje"}


def test_figure_labels_agree_with_the_factions() -> None:
    """A figure's label says what the asking faction does; every faction's Polish name is plural
    (Ludzie, Pielgrzymi, Maszyny, Trogi), so the verb is too: "Maszyny … muszą odrzucić: 2",
    never "musi odrzucić"."""
    from havoc.games.cry_havoc.ui import _figure_labels, faction_name

    assert all(PL.plural_form(2) == "few" and faction_name(f, "pl").endswith(("e", "i", "y")) for f in FACTIONS)
    labels = _figure_labels("pl")
    singular = {k: v for k, v in labels.items() if v.split()[0] in SINGULAR_VERBS}
    assert not singular, singular
    assert labels["must-discard"] == "muszą odrzucić" and labels["may-leave"] == "mogą opuścić", labels


def test_a_wrong_build_cost_names_the_structure(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["ask", STRUCTURES, "build", "pilgrims", "example-b", "structure=harvester", "cost=3"]
    code, out = run_cli(capsys, *args, "--lang", "pl")
    assert code != 0 and "koszt wzniesienia Żniwiarki to 2" in out, out
    code, out = run_cli(capsys, *args)
    assert code != 0 and "the rules give the Harvester a build cost of 2" in out, out


def test_a_wrong_step_names_the_phase_declined(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pos = tmp_path / "pos.yaml"
    pos.write_text(
        (ASSISTANT / "leave-8-vs-3.yaml").read_text().replace("phase: actions", "phase: actions\nstep: buy-back")
    )
    code, out = run_cli(capsys, "ask", str(pos), "legal", "--lang", "pl")
    assert code != 0 and "to nie jest krok fazy Akcji" in out, out
    # the steps by name (the Actions phase's are phrases, listed as they are), then the IDs to type
    assert "oczekiwano jednego z: przed Akcją (before-action), w trakcie Akcji (during-action), po Akcji" in out, out
    pos.write_text(pos.read_text().replace("phase: actions", "phase: battle-resolution"))
    code, out = run_cli(capsys, "ask", str(pos), "legal", "--lang", "pl")
    assert "krok fazy Rozstrzygnięcia Bitew; oczekiwano jednego z: Dołożenie Kryształu (add-crystal)," in out, out
    assert not problems(out), problems(out)


SAME_IN_POLISH = {("Ocean", "nom"), ("Ocean", "acc")}  # spelled as in English


def test_every_declinable_name_has_every_case() -> None:
    """The declension table: each name of each category has its six cases in Polish, all differing
    from the English (a case left out falls back to the nominative and reads wrong)."""
    from havoc.language.grammar import CASES, case_context
    from havoc.language.i18n import translator

    tr = translator("pl")
    categories = {
        "phases": words.PHASES, "steps": words.STEPS, "terrains": words.TERRAINS, "decks": words.DECKS,
        "experience": words.EXPERIENCE, "items": words.ITEMS, "trog tokens": words.TROG_TOKENS,
        "regions": words.KNOWN_REGIONS, "factions": words.FACTIONS, "structures": words.STRUCTURES,
        "skills": words.SKILLS,
    }  # fmt: skip
    missing = [
        f"{cat}: {name} [{case}]"
        for cat, names in categories.items()
        for name in names.values()
        for case in CASES
        if tr.text(case_context(case), name) in ("", name) and (name, case) not in SAME_IN_POLISH
    ]
    assert not missing, missing


# --- the OpenAPI description --------------------------------------------------------------------


def _descriptions(spec: Any) -> list[str]:
    out: list[str] = []
    if isinstance(spec, dict):
        for k, v in spec.items():
            if k in ("description", "summary") and isinstance(v, str):
                out.append(v)
            elif k != "examples":
                out.extend(_descriptions(v))
    elif isinstance(spec, list):
        for v in spec:
            out.extend(_descriptions(v))
    return out


def test_openapi_description_in_polish(client: TestClient) -> None:
    """``/openapi.json?lang=pl`` (or Accept-Language: pl) describes every operation and field in
    Polish; without either it stays English."""
    en = client.get("/openapi.json").json()
    pl = client.get("/openapi.json?lang=pl").json()
    assert client.get("/openapi.json", headers={"Accept-Language": "pl-PL,pl;q=0.9"}).json() == pl
    assert en["paths"]["/api/health"]["get"]["summary"] == "Is the server up?"
    assert pl["paths"]["/api/health"]["get"]["summary"] == "Czy serwer działa?"
    assert pl["paths"]["/api/trogs"]["post"]["summary"].startswith("Co robią Trogi")
    assert pl["components"]["schemas"]["Position"]["properties"]["round"]["description"] == "Bieżąca runda, od 1."
    same = [
        (e, p)
        for e, p in zip(_descriptions(en), _descriptions(pl), strict=True)
        if e == p and e != "JSON Schema 2020-12."
    ]
    assert len(_descriptions(pl)) > 100 and not same, same
    for text in _descriptions(pl):  # code spans (`havoc ask --json`, `regions`) are what a programmer types
        plain = re.sub(r"`[^`]*`", " ", text)
        assert not problems(plain), (text, problems(plain))


@pytest.mark.parametrize(
    "path",
    ["/openapi.json", "/api/rules/battle-region-leave", "/api/rules/no-such-rule", "/api/search?q=ruch",
     "/api/search?q=ruch&limit=0", "/api/labels", "/api/no-such-address"],
)  # fmt: skip
def test_answers_in_the_askers_language_vary_by_it(client: TestClient, path: str) -> None:
    """A GET answered in the Accept-Language's language says ``Vary: Accept-Language`` (and
    Accept-Encoding where it is compressed), so that no cache hands a Polish reader English."""
    for encoding in ("gzip", "identity"):
        r = client.get(path, headers={"Accept-Language": "pl", "Accept-Encoding": encoding})
        vary = [v.strip().lower() for v in r.headers.get("vary", "").split(",")]
        assert "accept-language" in vary, (encoding, r.status_code, r.headers)
        if r.headers.get("content-encoding") == "gzip":
            assert "accept-encoding" in vary, r.headers
    pl = client.get("/openapi.json", headers={"Accept-Language": "pl"})
    again = client.get("/openapi.json", headers={"Accept-Language": "pl", "If-None-Match": pl.headers["etag"]})
    assert again.status_code == 304 and "Accept-Language" in again.headers["vary"], again.headers
    assert "vary" not in client.get("/api/health").headers  # the same in every language


def test_unsupported_media_type_in_polish(client: TestClient) -> None:
    r = client.post("/api/ask?lang=pl", content=b"x", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    data = r.json()
    assert data["problems"][0]["message"].startswith("oczekiwano jednej z wartości: application/json"), data
    assert not problems(data["message"]), data


# --- every question kind, the solo Trogs and the charts, through the CLI and the JSON API --------


def _first_example_of_each_kind() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """One stored example per question kind (and the solo Trogs): its position and question."""
    from havoc.formats.spec import plain

    out: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for ex in stored_examples.examples(api.load_ruleset(), extra=None):
        out.setdefault(str(ex.query["ask"]), (plain(ex.position), plain(ex.query)))
    return out


KIND_EXAMPLES = _first_example_of_each_kind()


def test_the_kind_examples_cover_every_question_kind_and_the_trogs() -> None:
    rs = api.load_ruleset()
    assert set(KIND_EXAMPLES) == {*rs.question_kinds, *game.extra_answers(game.of(rs))}


@pytest.mark.parametrize("kind", sorted(KIND_EXAMPLES))
def test_every_kind_reads_as_polish_through_cli_and_api(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, client: TestClient, kind: str
) -> None:
    position, question = KIND_EXAMPLES[kind]
    pos = tmp_path / "pos.yaml"
    pos.write_text(yaml.safe_dump(position, allow_unicode=True))
    if kind == "trogs":  # the solo Trogs: their own command and endpoint
        decision = {k: v for k, v in question.items() if k != "ask"}
        r = client.post("/api/trogs", json={"position": position, "question": decision, "lang": "pl"})
        args = ["trogs", str(pos), str(decision.pop("decide"))]
        args += [f"--{k}={v}" for k, v in decision.items()]
    else:
        q = tmp_path / "q.yaml"
        q.write_text(yaml.safe_dump(question, allow_unicode=True))
        r = client.post("/api/ask", json={"position": position, "question": question, "lang": "pl"})
        args = ["ask", str(pos), "--query", str(q)]
    code, out = run_cli(capsys, *args, "--lang", "pl")
    assert code == 0, out
    assert not problems(out), "\n".join([out, *problems(out)])
    assert r.status_code == 200, r.text
    text = "\n".join(_texts(r.json()))
    assert text and not problems(text), "\n".join([text, *problems(text)])


TROG_DECISIONS = [
    ["move", "--units", "4"],
    ["move", "--from", "world-caverns", "--units", "2", "--steps", "2"],
    ["recruit", "--units", "3"],
    ["build", "--both"],
    ["initiative"],
]
TROG_BATTLE_DECISIONS = [
    ["place", "example-a", "humans=1/1/1"],
    ["tactics", "example-a", "humans=2/0/1", "trogs=1/1/1"],
    ["prisoner", "example-a", "humans=1/1/1", "trogs=1/2/0"],
]


@pytest.mark.parametrize("words_", TROG_DECISIONS + TROG_BATTLE_DECISIONS, ids=" ".join)
def test_every_trog_decision_reads_as_polish(capsys: pytest.CaptureFixture[str], words_: list[str]) -> None:
    fixture = SOLO / ("battle.yaml" if words_ in TROG_BATTLE_DECISIONS else "move.yaml")
    code, out = run_cli(capsys, "trogs", str(fixture), *words_, "--lang", "pl")
    assert code == 0, out
    assert not problems(out), "\n".join([out, *problems(out)])


def test_the_trog_decisions_cover_every_decider() -> None:
    from havoc.games.cry_havoc.solo.engine import KINDS

    assert {w[0] for w in TROG_DECISIONS + TROG_BATTLE_DECISIONS} == set(KINDS)


CHART_LOOKUPS = [
    ["range", "angielski łuk", "45"],
    ["range", "english longbow", "45"],
    ["courage", "12", "--foot"],
    ["impairment", "7", "--mod=+1", "--if", "opancerzona"],
    ["waking", "5", "--if", "pomoc", "--if", "wróg ZOI:2"],
    ["morale", "morale", "--if", "chorągwi", "--if", "dowódcy"],
    ["morale", "odzyskanie", "--if", "ZOI wroga", "--roll", "6", "--courage", "5"],
    ["status", "przestraszony"],
    ["status", "engaged"],
    ["combat", "--target", "leżący", "--target", "boczny heks", "--attacker", "ZOI wroga:2"],
    ["combat", "--ranged", "--animal", "--target", "tylny heks"],
]


def test_the_chart_lookups_cover_every_chart() -> None:
    from havoc.games.advanced_cry_havoc.charts import CHARTS

    assert {w[0] for w in CHART_LOOKUPS} == set(CHARTS)


def _chart_by_api(words_: list[str]) -> tuple[int, Any]:
    from havoc.assistant import webapi
    from havoc.cli import build_parser
    from havoc.games.advanced_cry_havoc.cli import request

    args = build_parser().parse_args(["charts", *words_])
    body = json.dumps({**request(args), "lang": "pl"})
    out = json.loads(webapi.handle("POST", "/api/charts", body, {"ruleset": "advanced-cry-havoc"}))
    return out["status"], out["body"]


@pytest.mark.parametrize("words_", CHART_LOOKUPS, ids=" ".join)
def test_every_chart_lookup_reads_as_polish(capsys: pytest.CaptureFixture[str], words_: list[str]) -> None:
    code, out = run_cli(capsys, "charts", *words_, "--lang", "pl")
    assert code == 0, out
    assert not problems(out), "\n".join([out, *problems(out)])
    status, body = _chart_by_api(words_)
    assert status == 200, body
    text = "\n".join(_texts(body))
    assert text and not problems(text), "\n".join([text, *problems(text)])


CHART_ERRORS = [
    (["range", "proca", "dwa"], "oczekiwano"),
    (["status", "d"], ""),
    (["combat", "--target", "dragon"], ""),
    (["morale", "both"], ""),
]


@pytest.mark.parametrize(("words_", "expect"), CHART_ERRORS, ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_chart_errors_read_as_polish(capsys: pytest.CaptureFixture[str], words_: list[str], expect: str) -> None:
    code, out = run_cli(capsys, "charts", *words_, "--lang", "pl")
    assert code == 2 and out.startswith("błąd") and expect in out, out
    assert not problems(out), "\n".join([out, *problems(out)])
    status, body = _chart_by_api(words_)
    assert status == 422, body
    text = "\n".join([body["message"], *_texts(body["problems"])])
    assert not problems(text), "\n".join([json.dumps(body, ensure_ascii=False), *problems(text)])


def test_ten_malformed_inputs_each_way() -> None:
    """The "Done when" asks for ten malformed inputs: the CLI and the API each meet more."""
    assert len(CLI_ERRORS) + len(CHART_ERRORS) >= 10 and len(API_ERRORS) >= 10


def test_a_faction_that_does_not_play_is_named_not_typed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A faction named in a table or a question but not among the players is said by its name,
    declined, with the players by name ("Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)"): not
    "'machines' nie ma w players (humans, pilgrims)", machine names a quote would hide."""
    table = (
        "players: [humans, pilgrims]\nturn: humans\nregions:\n  foglands: {units: {humans: 3}, adjacent: [scorch]}\n"
    )
    table += "  scorch: {units: {}, adjacent: [foglands]}\n"
    good = tmp_path / "good.yaml"
    good.write_text(table, encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(table.replace("{humans: 3}", "{humans: 3, machines: 2}"), encoding="utf-8")
    said = "Maszyn nie ma wśród graczy (Ludzie, Pielgrzymi)"
    for args, where in (
        (["ask", str(bad), "move", "humans", "from=foglands", "to=scorch"], "Mgielnia › Oddziały (units) › Maszyny: "),
        (["ask", str(good), "move", "machines", "from=foglands", "to=scorch"], "Frakcja: "),
        (["ask", str(good), "ruch", "maszyny", "z=Mgielnia", "do=Pogorzelisko"], "Frakcja: "),
    ):
        code, out = run_cli(capsys, *args, "--lang", "pl")
        assert code != 0 and where + said in out, out
        message = out.split(where, 1)[1]
        assert not any(re.search(rf"\b{f}\b", message) for f in FACTIONS), message
        assert not problems(out), problems(out)
    code, out = run_cli(capsys, "ask", str(good), "move", "machines", "from=foglands", "to=scorch")
    assert code != 0 and "faction: no Machines among the players (Humans, Pilgrims)" in out, out


@pytest.mark.parametrize(
    ("words_", "place", "english"),
    [
        (
            ["ask", LEAVE, "move", "humans", "from=example-a", "to=example-b", "units=9"],
            "(Region A › Oddziały (units) › Ludzie)",
            "(regions.example-a.units.humans)",
        ),
        (
            ["ask", LEAVE, "battle", "example-a", "humans=1/1/1", "pilgrims=1/1/1"],
            "(Region A › Oddziały (units) › Ludzie)",
            "(regions.example-a.units.humans)",
        ),
        (
            ["trogs", str(SOLO / "move.yaml"), "move", "--from", "example-a"],
            "(Region A › Oddziały (units) › Trogi)",
            "(regions.example-a.units.trogs)",
        ),
    ],
)
def test_where_the_units_stand_is_said_by_names(
    capsys: pytest.CaptureFixture[str], words_: list[str], place: str, english: str
) -> None:
    """An error that shows where a table lists a faction's Units names the Region and the faction
    in Polish, worded as every other table error words a place ("Region A › Oddziały (units) ›
    Ludzie"), not by a dotted path of English keys; the English message keeps the file's path."""
    code, out = run_cli(capsys, *words_, "--lang", "pl")
    assert code != 0 and place in out, out
    assert not problems(out), problems(out)  # (the battle's card hint too: "karta= i oddziały-karty=")
    code, out = run_cli(capsys, *words_)
    assert code != 0 and english in out, out


def test_the_polish_place_of_units_is_where_a_table_reads_them(tmp_path: Path) -> None:
    """ "Mgielnia › Oddziały (units) › Ludzie", as a Polish error shows it, leads to a place a table
    may write: the Region's and the faction's names as keys, the field's key after its label."""
    from havoc.games.cry_havoc.places import units_path

    place = units_path("foglands", "humans", "pl")
    assert place == "Mgielnia › Oddziały (units) › Ludzie"
    region, field, faction = place.split(" › ")
    key = field.split("(", 1)[1].rstrip(")")
    table = tmp_path / "t.yaml"
    table.write_text(
        f"players: [humans, pilgrims]\nregions:\n  {region}: {{{key}: {{{faction}: 3}}, adjacent: [scorch]}}\n"
        "  scorch: {units: {pilgrims: 1}, adjacent: [foglands]}\n",
        encoding="utf-8",
    )
    assert api.load_position(table).regions["foglands"].units == {"humans": 3}  # type: ignore[attr-defined]
    assert units_path("example-b", "trogs", "pl", ["example-a", "example-b"]) == "Region B › Oddziały (units) › Trogi"
    assert "regions" not in units_path("north", "machines", "pl") and "Maszyny" in units_path("north", "machines", "pl")


@pytest.mark.parametrize("command", ["legal", "score"])
def test_an_unknown_faction_of_legal_and_score_is_named_in_polish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """``havoc --lang pl legal STÓŁ orki`` says the field and the factions by name, as ``havoc
    ask`` does (``Frakcja: nieznana wartość …``), not the machine form ``query: faction: …``; a
    faction named in Polish is the machine word's question; English keeps its message."""
    pos = tmp_path / "pos.yaml"
    pos.write_text("players: [humans, pilgrims]\nturn: humans\nregions:\n  foglands: {units: {humans: 2}}\n")
    assert main(["--lang", "pl", command, str(pos), "orki"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("błąd: pytanie: Frakcja: nieznana wartość 'orki'; oczekiwano jednej z: Ludzie (humans)"), err
    assert "query" not in err and "faction" not in err, err
    assert (
        main(["--lang", "pl", "ask", str(pos), "co-mogę" if command == "legal" else "punktowanie", "Frakcja=orki"]) == 2
    )
    assert capsys.readouterr().err == err  # the same words as ask's
    assert main(["--lang", "pl", command, str(pos), "pilgrims", "--json"]) == 0
    machine = capsys.readouterr().out
    assert main(["--lang", "pl", command, str(pos), "Pielgrzymi", "--json"]) == 0
    assert capsys.readouterr().out == machine
    assert main([command, str(pos), "orcs"]) == 2
    assert "error: query: faction: expected one of humans, pilgrims" in capsys.readouterr().err
