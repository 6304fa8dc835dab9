"""A compact question typed in Polish words is the same question as in machine words.

``ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=2`` must read to the very Query that
``move humans from=foglands to=scorch units=2`` reads to: every kind, every field the compact
form takes, every named value, every faction and every Region of the table below, with the
case and the diacritics a player types at the table. A Polish word that names nothing, or
more than one thing, is a located error in Polish naming the words to type.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from typing import Any

import pytest
import stored_examples

from havoc.assistant import api
from havoc.core.errors import InputError
from havoc.games.cry_havoc.commands import ASK_EXAMPLES, ask_epilog
from havoc.games.cry_havoc.contract import FACTIONS, QUESTION_KINDS
from havoc.games.cry_havoc.query import QFIELDS, parse_compact
from havoc.games.cry_havoc.typed import NOT_TYPED, Ambiguous, Words, spoken, to_machine, typed_word
from havoc.language import i18n

TABLE = """\
players: [humans, pilgrims, machines]
round: 2
phase: actions
turn: humans
factions:
  humans: {vp: 3, hand: 5, skills: {scouting: ready}}
  pilgrims: {vp: 2, hand: 4, skills: {teleport: ready}}
  machines: {vp: 1, hand: 3}
regions:
  foglands: {units: {humans: 3, pilgrims: 1}, control: humans, adjacent: [scorch, feralas-banks, sapos-deep]}
  scorch: {units: {humans: 2}, adjacent: [foglands, feralas-banks, world-caverns]}
  feralas-banks:
    units: {pilgrims: 2, humans: 1}
    control: pilgrims
    structures: [{type: harvester, owner: pilgrims}]
    adjacent: [foglands, scorch]
  sapos-deep: {units: {pilgrims: 2}, adjacent: [foglands]}
  world-caverns: {units: {humans: 2, pilgrims: 2}, battle: {token: 1, attacker: pilgrims}, adjacent: [scorch]}
  example-a: {units: {machines: 2}, adjacent: [camerons-sea]}
  camerons-sea: {units: {}, adjacent: [example-a]}
"""

# (machine words, the same question as a Polish player types it: any case, diacritics or not,
# a multi-word name quoted or joined by hyphens). Variants typed by hand for the kinds there were;
# every kind, a new one too, is also read from its own rule data's example (EXAMPLES below).
PAIRS = [
    ("move humans from=foglands to=scorch units=2", "ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=2"),
    ("move humans from=foglands to=scorch units=2", "RUCH Ludzie z=mgielnia do=POGORZELISKO oddzialy=2"),
    (
        "move pilgrims from=feralas-banks to=sapos-deep via=foglands units=1 points=2",
        "ruch pielgrzymi 'z=Wybrzeże Feralas' do=głębia-sapos przez=Mgielnia oddziały=1 punkty=2",
    ),
    (
        "move faction=machines from=example-a to=camerons-sea",
        "ruch frakcja=Maszyny 'z=Region A' 'do=Morze Camerona'",
    ),
    ("recruit pilgrims feralas-banks units=1 points=1", "rekrutacja pielgrzymi wybrzeze-feralas oddzialy=1 punkty=1"),
    (
        "build pilgrims sapos-deep structure=harvester points=5",
        "wzniesienie Pielgrzymi 'Głębia Sapos' budowla=żniwiarka punkty=5",
    ),
    (
        "activate pilgrims feralas-banks structure=harvester activations=1 cost=2 other-cost=1",
        "aktywacja pielgrzymi Wybrzeże-Feralas budowla=Zniwiarka aktywacje=1 koszt=2 inny-koszt=1",
    ),
    ("draw-tactics humans deck=mountains points=2", "dobranie-taktyk ludzie talia=góry punkty=2"),
    ("draw-tactics humans deck=own", "dobranie-taktyk ludzie talia=własna"),
    (
        "draw-tactics pilgrims deck=ocean card-terrain=desert",
        "dobranie-taktyk pielgrzymi talia=Ocean teren-karty=pustynia",
    ),
    ("enable-scoring machines during-action=yes", "aktywacja-punktowania maszyny w-trakcie-akcji=tak"),
    ("use-skill humans skill=scouting", "użycie-zdolności ludzie zdolność=Zwiad"),
    ("use-skill pilgrims skill=teleport", "uzycie-zdolnosci pielgrzymi zdolnosc=teleportacja"),
    (
        "play-tactic pilgrims world-caverns card=x1 card-terrain=jungle",
        "zagranie-taktyki pielgrzymi 'Groty Świata' karta=x1 teren-karty=dżungla",
    ),
    (
        "battle world-caverns pilgrims=2/0/0 humans=1/1/0 capture-from=attrition card=c1 card-units=humans:1,pilgrims:-1",
        "bitwa groty-swiata pielgrzymi=2/0/0 ludzie=1/1/0 jeńcy-z=wyniszczenie karta=c1 oddziały-karty=ludzie:1,pielgrzymi:-1",
    ),
    ("battle region=world-caverns capture-from=control", "bitwa region=Groty-Świata jeńcy-z=kontrola"),
    ("battle world-caverns capture-from=prisoners", "bitwa groty-świata jeńcy-z=jeńcy"),
    ("retreat pilgrims world-caverns", "odwrót pielgrzymi Groty-Świata"),
    ("discard humans", "odrzucenie ludzie"),
    ("prisoners humans", "jeńcy ludzie"),
    ("score", "punktowanie"),
    ("winner", "zwycięzca"),
    ("legal machines position=2", "co-mogę maszyny miejsce=2"),
    ("legal trogs", "co-moge trogi"),
    ("how-many humans may-leave from=foglands", "ile ludzie mogą-opuścić z=mgielnia"),
    ("how-many pilgrims of=may-buy-back", "ile pielgrzymi liczba=mogą-odbić"),
    ("how-many humans must-discard", "ile ludzie muszą-odrzucić"),
    ("how-many pilgrims may-recruit", "ile pielgrzymi moga-zrekrutowac"),
    ("place humans crystal scorch", "umieszczenie ludzie kryształ pogorzelisko"),
    (
        "place pilgrims structure foglands structure=harvester",
        "umieszczenie pielgrzymi budowla Mgielnia budowla=Żniwiarka",
    ),
    ("place humans item=crystal region=scorch", "umieszczenie ludzie co=kryształ region=Pogorzelisko"),
    ("end-of-move humans scorch moved-this-action=yes", "koniec-ruchu ludzie pogorzelisko weszły-w-tej-akcji=tak"),
    ("setup experienced", "przygotowanie doświadczeni"),
    ("setup veteran", "przygotowanie Weterani"),
    ("setup experience=beginner", "przygotowanie doświadczenie=początkujący"),
]


@pytest.fixture(scope="module")
def pos(tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("table") / "stół.yaml"
    path.write_text(TABLE, encoding="utf-8")
    return api.load_position(path)


@pytest.fixture(params=["pl", "en"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_message_language(request.param)
    yield request.param
    i18n.set_message_language("en")


def _machine(words: list[str]) -> Iterator[tuple[str, str]]:
    """(field, value) of every key=value and bare word of machine words (the kind as "ask")."""
    yield "ask", words[0]
    for w in words[1:]:
        key, eq, value = w.partition("=")
        yield (key, value) if eq else ("", w)


def test_the_pairs_cover_every_kind_field_value_faction_and_region(pos: object) -> None:
    """The pairs below are the whole vocabulary, not a sample."""
    seen: dict[str, set[str]] = {}
    for machine, _ in PAIRS:
        for key, value in _machine(machine.split()):
            seen.setdefault(key, set()).update(value.replace(":", ",").split(",") if key == "card-units" else [value])
    words = {v for vs in seen.values() for v in vs} | set(seen)
    assert set(QUESTION_KINDS) - {*EXAMPLES} <= seen["ask"]  # the others: their own examples (below)
    assert {f for f in QFIELDS if f not in NOT_TYPED and f != "faction"} <= set(seen), set(QFIELDS) - set(seen)
    assert "faction" in seen
    for name, spec in QFIELDS.items():
        if spec.kind == "enum" and name != "ask":
            assert set(spec.choices or ()) <= words, (name, set(spec.choices or ()) - words)
    assert set(FACTIONS) <= words
    assert set(pos.regions) <= words  # type: ignore[attr-defined]


def _example_questions() -> dict[str, tuple[Any, list[str]]]:
    """Each question kind's first example in the rule data that a compact question can say
    (every field a plain value), as (the example, its machine words): every declared kind has
    one (its rule data's examples), so a new kind is covered with no edit here."""
    out: dict[str, tuple[Any, list[str]]] = {}
    for ex in stored_examples.examples(api.load_ruleset()):
        words = [str(ex.query["ask"])]
        for key, value in ex.query.items():
            if isinstance(value, bool):
                value = "yes" if value else "no"
            if key != "ask" and not isinstance(value, (str, int)):
                break
            if key != "ask":
                words.append(f"{key}={value}")
        else:
            out.setdefault(words[0], (ex, words))
    return out


EXAMPLES = _example_questions()


def test_every_kind_has_an_example_a_compact_question_can_say() -> None:
    assert set(EXAMPLES) == set(QUESTION_KINDS)


@pytest.mark.parametrize("kind", list(EXAMPLES))
def test_each_kinds_example_said_in_polish_is_the_machine_question(lang: str, kind: str) -> None:
    """A kind's own example (its rule data), said in Polish words as the help says it, reads to
    the question the example asks, on the example's own position."""
    rs = api.load_ruleset()
    ex, machine = EXAMPLES[kind]
    asked = stored_examples.read(rs, ex)
    want = parse_compact(machine, asked.pos)  # type: ignore[arg-type]
    unnamed = [f for f in want.__slots__ if f != "name"]  # the same question, whatever it is named
    assert [getattr(want, f) for f in unnamed] == [getattr(asked.query, f) for f in unnamed], machine
    polish = shlex.split(spoken(machine, "pl"))
    assert parse_compact(polish, asked.pos) == want, polish  # type: ignore[arg-type]


@pytest.mark.parametrize(("machine", "polish"), PAIRS, ids=[p for _, p in PAIRS])
def test_a_question_in_polish_words_is_the_machine_question(pos: object, lang: str, machine: str, polish: str) -> None:
    want = parse_compact(machine.split(), pos)  # type: ignore[arg-type]
    assert parse_compact(shlex.split(polish), pos) == want  # type: ignore[arg-type]
    # the help's way of saying it reads back too
    assert parse_compact(shlex.split(spoken(machine.split(), "pl")), pos) == want  # type: ignore[arg-type]


def test_the_polish_help_examples_are_the_machine_examples(pos: object) -> None:
    """Each example of ``havoc --lang pl ask --help`` reads back to its machine words."""
    lines = [
        ln.split("stół.yaml ", 1)[1] for ln in ask_epilog("pl").splitlines() if ln.startswith("  havoc ask stół.yaml ")
    ]
    questions = [ln for ln in lines if not ln.startswith("--")]
    assert len(questions) == len(ASK_EXAMPLES)
    for typed, machine in zip(questions, ASK_EXAMPLES, strict=True):
        words = [w for w in shlex.split(typed) if not w.startswith("--") and w not in ("pl",)]
        want = [w for w in machine.split() if not w.startswith("--") and w != "pl"]
        assert "Mgielnia" in ask_epilog("pl")
        got, problems = to_machine(words, pos, "pytanie", "pl")  # type: ignore[arg-type]
        assert (got, problems) == (want, []), typed


def _refusal(words: str, pos: object) -> str:
    with pytest.raises(InputError) as exc:
        parse_compact(shlex.split(words), pos)  # type: ignore[arg-type]
    return str(exc.value)


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ("rusz ludzie", ["pytanie: nieznany rodzaj pytania 'rusz'", "ruch (move)", "co-mogę (legal)"]),
        ("ruch ludzie zz=Mgielnia do=Pogorzelisko", ["pytanie: nieznane pole 'zz'", "z (from)", "oddziały (units)"]),
        (
            "ruch ludzie z=Mglnia do=Pogorzelisko",
            ["pytanie: z: nieznany Region 'Mglnia'", "(czy chodziło o 'Mgielnia'?)"],
        ),
        ("dobranie-taktyk ludzie talia=górki", ["talia: nieznana wartość 'górki'", "góry (mountains)", "własna (own)"]),
        ("przygotowanie weteran", ["'weteran': oczekiwano pary klucz=wartość (np. oddziały=2)", "weterani (veteran)"]),
        ("ruch ludzi z=Mgielnia do=Pogorzelisko", ["'ludzi'", "Ludzie (humans)", "(czy chodziło o 'Ludzie'?)"]),
        ("ruch frakcja=elfy z=Mgielnia do=Pogorzelisko", ["Frakcja: nieznana wartość 'elfy'", "Pielgrzymi (pilgrims)"]),
        ("mvoe ludzie", ["nieznany rodzaj pytania 'mvoe' (czy chodziło o 'move'?)"]),
        # the reader's problems about a question typed in words name its fields as typed
        (
            "ruch ludzie z=Mgielnia do=Mgielnia",
            ["pytanie: do: ruch prowadzi do innego Regionu; pola z i do są takie same"],
        ),
        (
            "ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=9",
            ["pytanie: oddziały: 9 Oddziałów, a Ludzie mają w Mgielni 3"],
        ),
        ("ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=x", ["pytanie: oddziały: oczekiwano liczby całkowitej"]),
        ("ruch ludzie", ["to pytanie (ruch) wymaga pola 'z'", "to pytanie (ruch) wymaga pola 'do'"]),
        (
            "użycie-zdolności ludzie zdolność=Teleportacja",
            ["zdolność: Ludzie nie mają Zdolności 'Teleportacja (teleport)'", "wymienia: Zwiad (scouting)"],
        ),
        ("bitwa ludzie=1/x/1", ["'ludzie=1/x/1': rozmieszczenie to ludzie=KONTROLA/JEŃCY/WYNISZCZENIE"]),
    ],
)
def test_an_unknown_polish_word_is_refused_in_polish_naming_the_words(pos: object, words: str, said: list[str]) -> None:
    i18n.set_message_language("pl")
    try:
        text = _refusal(words, pos)
    finally:
        i18n.set_message_language("en")
    for part in said:
        assert part in text, (part, text)


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ("move humans zz=foglands to=scorch", "query: unknown field 'zz'; expected one of ask, faction, from, to"),
        (
            "move humans from=foglands to=foglands",
            "query: to: a move goes into another Region; from and to are the same",
        ),
        ("move", "query: this move question needs 'from'\nquery: this move question needs 'to'"),
        (
            "use-skill humans skill=teleport",
            "query: skill: the Humans have no Skill 'teleport'; the position lists scouting",
        ),
    ],
)
def test_an_english_reader_keeps_the_readers_own_errors(pos: object, words: str, said: str) -> None:
    """An English message names the machine words, as before: a typed word only adds a reading."""
    text = _refusal(words, pos)
    assert text.startswith(said), text


def test_a_name_for_two_regions_is_refused_naming_both(tmp_path: object) -> None:
    """``Region A`` is the invented ``example-a`` and the player's own ``a`` alike."""
    table = TABLE.replace("camerons-sea: {units: {}, adjacent: [example-a]}", "a: {units: {}, adjacent: [example-a]}")
    table = table.replace("adjacent: [camerons-sea]", "adjacent: [a]")
    path = tmp_path / "t.yaml"  # type: ignore[operator]
    path.write_text(table, encoding="utf-8")
    two = api.load_position(path)
    for lang in ("pl", "en"):
        i18n.set_message_language(lang)
        try:
            text = _refusal("ruch maszyny z=Region-A do=a", two)
        finally:
            i18n.set_message_language("en")
        assert "'Region-A'" in text and "Region A (example-a)" in text and "(a)" in text, text
    # the machine words still name each apart
    assert parse_compact(["move", "machines", "from=example-a", "to=a"], two).frm == "example-a"


def test_a_tables_own_region_named_in_polish_is_asked_by_that_name(tmp_path: object) -> None:
    """A table's Region key ``Północ`` is read as its own ``polnoc`` (as the Ask page's form folds
    it); the question names it as the table did: ``z=Północ``, ``z=polnoc``, ``z=PÓŁNOC``."""
    table = TABLE.replace(
        "camerons-sea: {units: {}, adjacent: [example-a]}", "Północ: {units: {}, adjacent: [example-a]}"
    )
    table = table.replace("adjacent: [camerons-sea]", "adjacent: [Północ]")
    path = tmp_path / "t.yaml"  # type: ignore[operator]
    path.write_text(table, encoding="utf-8")
    own = api.load_position(path)
    assert "polnoc" in own.regions  # type: ignore[attr-defined]
    for lang in ("pl", "en"):
        i18n.set_message_language(lang)
        try:
            for words, frm, to in (
                ("ruch maszyny 'z=Region A' do=Północ", "example-a", "polnoc"),
                ("move machines from=example-a to=PÓŁNOC", "example-a", "polnoc"),
                ("ruch maszyny z=Północ do='Region A'", "polnoc", "example-a"),
                ("ruch maszyny z=polnoc do=example-a", "polnoc", "example-a"),
            ):
                q = parse_compact(shlex.split(words), own)  # type: ignore[arg-type]
                assert (q.kind, q.faction, q.frm, q.to) == ("move", "machines", frm, to), words
        finally:
            i18n.set_message_language("en")


def test_diacritics_may_be_left_out_only_where_one_thing_is_meant() -> None:
    words = Words([("łąka", "meadow"), ("laka", "other"), ("Żniwiarka", "harvester")])
    assert words.find("ŁĄKA") == "meadow"  # typed in full: exactly that
    assert words.find("laka") == "other"
    assert words.find("zniwiarka") == words.find("Żniwiarka") == "harvester"
    with pytest.raises(Ambiguous):  # neither spelling: without diacritics it is both
        words.find("Łaka")
    two = Words([("łąka", "meadow"), ("łaka", "field")])
    with pytest.raises(Ambiguous) as exc:
        two.find("laka")
    assert exc.value.shown == ["łaka (field)", "łąka (meadow)"]
    assert Words([("Mgielnia", "foglands")]).find("nowhere") is None


def test_every_typed_word_names_one_thing_in_its_kind() -> None:
    """No two kinds, fields or values of one field share a Polish word, even without diacritics."""
    from havoc.games.cry_havoc.typed import lexicon

    lex = lexicon("pl")
    for words in (lex.kinds, lex.fields, lex.factions, *lex.values.values()):
        assert all(len(tokens) == 1 for tokens in words.folded.values()), words.folded
    assert typed_word("move", "pl") == "ruch" and typed_word("move", "en") == "move"


def test_the_shortcuts_take_polish_words_too(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``havoc legal stół.yaml pielgrzymi`` and ``havoc battle stół.yaml "Groty Świata" ludzie=…``
    (their Polish help's examples) answer as the machine words do."""
    from havoc.cli import main

    path = tmp_path / "stół.yaml"  # type: ignore[operator]
    path.write_text(TABLE, encoding="utf-8")
    outs = []
    for words in (
        ["legal", str(path), "pielgrzymi"],
        ["legal", str(path), "pilgrims"],
        ["battle", str(path), "Groty Świata", "pielgrzymi=1/1/0", "ludzie=2/0/0", "--as", "Ludzie"],
        ["battle", str(path), "world-caverns", "pilgrims=1/1/0", "humans=2/0/0", "--as", "humans"],
        ["score", str(path), "maszyny"],
        ["score", str(path), "machines"],
    ):
        assert main(["--lang", "pl", *words]) == 0, capsys.readouterr()
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and outs[2] == outs[3] and outs[4] == outs[5], outs
    assert outs[0].startswith("Co mogą teraz zrobić Pielgrzymi?"), outs[0]


def test_the_api_reads_polish_words_in_its_one_string_form(pos: object) -> None:
    """The API's compact string splits on spaces: a multi-word name is joined by hyphens there."""
    want = parse_compact(["move", "pilgrims", "from=feralas-banks", "to=foglands", "units=1"], pos)  # type: ignore[arg-type]
    assert api.load_query("ruch pielgrzymi z=wybrzeże-feralas do=Mgielnia oddziały=1", pos) == want  # type: ignore[arg-type]
    assert api.load_query(["ruch", "pielgrzymi", "z=Wybrzeże Feralas", "do=Mgielnia", "oddziały=1"], pos) == want  # type: ignore[arg-type]


def test_no_question_is_refused_with_a_polish_example(pos: object) -> None:
    i18n.set_message_language("pl")
    try:
        with pytest.raises(InputError) as exc:
            parse_compact([], pos)  # type: ignore[arg-type]
    finally:
        i18n.set_message_language("en")
    assert "np. „ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=2”" in str(exc.value), str(exc.value)
