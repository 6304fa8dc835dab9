"""003's words in the Polish rule texts (issue 38): the Battle steps, the actions, the verbs.

The official Polish rulebook (seed 003) names the Battle steps with plural imperatives
("Dołóżcie 1 Kryształ…", "Rozmieśćcie Oddziały na Celach Bitwy…"), calls placing Units on the
objectives "rozmieszczanie" and names the actions its own way. A reader who meets another form in
the answers, the sheet or ``havoc rule`` cannot match it with the rulebook on the table, so these
tests read the rendered Polish (the CLI, the catalogs) and require 003's forms.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

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
    with contextlib.suppress(SystemExit):  # argparse's --help
        main(list(args))
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


# --- 2. the actions, the verbs, the glossary, the charts --------------------------------------

REPO = Path(__file__).resolve().parents[1]
CATALOGS = [REPO / "locales" / "pl" / "LC_MESSAGES" / f"{d}.po" for d in ("rules", "havoc", "site")]


def polish_texts() -> list[str]:
    """Every Polish text the catalogs hold (what any Polish page, sheet or answer can show)."""
    out: list[str] = []
    for path in CATALOGS:
        with path.open("rb") as fh:
            for msg in read_po(fh):
                if msg.id and msg.string:
                    out += [msg.string] if isinstance(msg.string, str) else [s for s in msg.string if s]
    return out


REJECTED = [
    "Dobór Taktyk",
    "Dobranie Taktyk",
    "Budowa / Aktywacja",
    "Budowa/Aktywacja",
    "usunięty z gry",
    "Kolejność Celów Bitwy",
    "Zagrywanie kart Taktyk na zmianę",
    "B. Ustaw Oddziały",
    "Zwycięzca wraca do Regionu",
    "Przegrany się wycofuje",
    "(2–3 graczy)",
    "Jeńców Trogów odkłada się",
    "za własnego Jeńca, który wraca",
]


@pytest.mark.parametrize("old", REJECTED)
def test_no_catalog_keeps_a_rejected_form(old: str) -> None:
    hits = [t for t in polish_texts() if old in t]
    assert not hits, hits


def test_no_catalog_names_the_tactics_action_without_its_cards() -> None:
    """003's action is "Dobranie 2 kart Taktyk i zatrzymanie 1 z nich", never the bare "Dobranie kart Taktyk"."""
    bare = [t for t in polish_texts() if re.search(r"Dobranie kart Taktyk(?! i zatrzymanie)", t)]
    assert not bare, bare


def test_actions_use_003_names(capsys: pytest.CaptureFixture[str]) -> None:
    text = rule_text(capsys, "actions-list")
    assert "Wzniesienie Budowli i/lub Aktywacja Budowli" in text
    assert "Dobranie 2 kart Taktyk i zatrzymanie 1 z nich" in text
    english = rule_text(capsys, "actions-list", "en")
    assert "Draw 2 Tactics cards and keep 1 of them" in english
    assert "Build/Activate" not in english
    assert rule_text(capsys, "draw-tactics-decks").count("Akcja: Dobranie 2 kart Taktyk i zatrzymanie 1 z nich") == 1


def test_the_sheet_names_the_actions_like_003() -> None:
    from havoc import quickref

    # the words, without the figures' markup and the typesetter's no-break spaces
    html = re.sub(r"<[^>]+>", "", quickref.build_html("pl").html).replace("\xa0", " ")
    assert "Akcja: Wzniesienie i/lub Aktywacja Budowli" in html
    assert "Akcja: Dobranie 2 kart Taktyk i zatrzymanie 1 z nich" in html
    assert "odbij własnego Jeńca do Rezerwy, tracąc 2 PZ" in html
    assert "Budowa / Aktywacja" not in html and "Dobranie Taktyk" not in html


def test_attackers_block_defenders(capsys: pytest.CaptureFixture[str]) -> None:
    """003: each Attacker Unit "blokuje" two Defender Units; "zatrzymuje" is not its word."""
    text = rule_text(capsys, "battle-region-leave")
    assert "blokuje 2" in text and "blokują" in text
    assert "zatrzym" not in text


def test_a_killed_unit_returns_to_the_reserve(capsys: pytest.CaptureFixture[str]) -> None:
    from havoc.engine import rulebook
    from havoc.language.i18n import Translator

    rs = rulebook.load("cry-havoc")
    for lang, gone, reserve in (("pl", "z gry", "wraca do [Rezerwy]"), ("en", "removed from play", "back to")):
        text = Translator(lang, scope=rs.id).text("term:killed:definition", rs.terms["killed"].definition)
        assert gone not in text and reserve in text, text


def test_the_neutral_trogs_prisoners_summary_says_whose_prisoners(capsys: pytest.CaptureFixture[str]) -> None:
    text = rule_text(capsys, "neutral-trogs-prisoners")
    assert "Jeńców wziętych przez Trogi" in text
    assert "Prisoners taken by the Trogs" in rule_text(capsys, "neutral-trogs-prisoners", "en")
    assert "gra dla 2 lub 3 graczy" in rule_text(capsys, "neutral-trogs-prisoners")  # the section's title


class _Names:
    """A stand-in for the Sphinx context: a term's name for a count, from a table."""

    def __init__(self, forms: dict[str, tuple[str, str, str]]) -> None:
        self.forms = forms

    def term_name(self, term_id: str, count: int | None = None) -> str:
        one, few, many = self.forms[term_id]
        return one if count is None else {2: few, 5: many}[count]


def test_glossary_does_not_repeat_a_headword_as_its_plural() -> None:
    from havoc.sphinxext.glossary import plural_line

    ctx = _Names({"control": ("Kontrola", "Kontrola", "Kontrola"), "unit": ("Oddział", "Oddziały", "Oddziałów")})
    assert plural_line(ctx, "control") == ""  # type: ignore[arg-type]
    assert plural_line(ctx, "unit") == "Oddziały, Oddziałów"  # type: ignore[arg-type]


def test_chart_abbreviations_are_explained(capsys: pytest.CaptureFixture[str]) -> None:
    for lang, words in (
        ("en", ("line of sight", "zone of influence", "Defence factor", "Offence factor")),
        ("pl", ("linia wzroku", "strefa wpływu", "Współczynnik obrony", "Współczynnik ataku")),
    ):
        text = run_cli(capsys, "--lang", lang, "rule", "--ruleset", "advanced-cry-havoc", "acv-abbreviations")
        for word in words:
            assert word.lower() in text.lower(), (lang, word)
    for rid, word in (
        ("acv-charge-conditions", "strefa"),
        ("acv-courage", "obrony"),
        ("acv-ranged-shifts", "linia wzroku"),
    ):
        assert word in run_cli(capsys, "--lang", "pl", "rule", "--ruleset", "advanced-cry-havoc", rid), rid


def test_weapon_letters_are_spelled_out_in_the_range_answer(capsys: pytest.CaptureFixture[str]) -> None:
    pl = run_cli(capsys, "--lang", "pl", "charts", "range", "early crossbow", "10")
    assert "F (broń o płaskim torze), S (broń powolna), N (nie wolno ruszać się i atakować)" in pl
    en = run_cli(capsys, "charts", "range", "sling", "10")
    assert "F (flat trajectory weapon), N (no move and attack allowed)" in en


# --- 3. `havoc rule`, the "Opisywanie stołu" page, `ask --help` --------------------------------


def test_rule_names_its_kinds_and_source_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    pl = rule_text(capsys, "move-points")
    assert "sprawdzana dla pytań: Ruch" in pl
    assert "sprawdzana dla pytań: move" not in pl
    assert "seed 003" not in pl and "źródło: Oficjalna polska instrukcja" in pl
    crystal = rule_text(capsys, "battle-add-crystal")
    assert "rozdział „A. DOŁÓŻCIE 1 KRYSZTAŁ DO REGIONU BITWY”" in crystal
    en = rule_text(capsys, "build-points", "en")
    assert "checked for: Build, Activate" in en and "source: Official Polish rulebook" in en
    assert "seed" not in en.split("source:")[1].splitlines()[0]


def test_rule_json_keeps_the_ids(capsys: pytest.CaptureFixture[str]) -> None:
    """The words are for people; the JSON stays the machine's (seed, kinds by ID)."""
    import json

    data = json.loads(run_cli(capsys, "--lang", "pl", "rule", "--json", "move-points"))
    assert data["source"]["seed"] == "003" and "move" in data["check"]["queries"]


def test_ask_help_names_the_page_by_its_title(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(run_cli(capsys, "--lang", "pl", "ask", "--help").split())  # the help wraps lines
    assert "„Opisywanie stołu”" in text
    assert "„Opis stołu”" not in text


def test_the_page_title_is_what_help_quotes() -> None:
    """The title `ask --help` and `new --help` quote is the Polish title of the positions page."""
    with (REPO / "locales" / "pl" / "LC_MESSAGES" / "site.po").open("rb") as fh:
        titles = {m.id: m.string for m in read_po(fh)}
    assert titles["Describing the table"] == "Opisywanie stołu"
    havoc = [t for t in polish_texts() if "Strona dokumentacji „Opis" in t or "dokumentacji „Opis" in t]
    assert havoc and all("„Opisywanie" in t for t in havoc), havoc


def test_positions_page_uses_polish_placeholders_and_explains_the_card() -> None:
    with (REPO / "locales" / "pl" / "LC_MESSAGES" / "site.po").open("rb") as fh:
        texts = {m.id: m.string for m in read_po(fh) if m.id}
    question = next(v for k, v in texts.items() if str(k).startswith("A question is `havoc ask"))
    assert "POZYCJA" not in question and "havoc ask STÓŁ PYTANIE" in question
    card = next(v for k, v in texts.items() if str(k).startswith("A Tactics card that added or removed"))
    assert "Ludzie zagrali Wsparcie lotnicze" in card and "1 Oddział" in card


def test_kinds_table_gives_names_beside_the_ids() -> None:
    from docutils import nodes

    from havoc.games.cry_havoc import site_pages

    kinds, _answers, figures = site_pages.rows()[0]
    cell = nodes.paragraph("", "", *site_pages.named(site_pages.kind_names(kinds, "pl"))).astext()
    assert cell.startswith("Ruch (move)")
    shown = nodes.paragraph("", "", *site_pages.named(site_pages.figure_names(figures, "pl"))).astext()
    assert "mogą opuścić (may-leave)" in shown
    english = nodes.paragraph("", "", *site_pages.named(site_pages.kind_names(kinds, "en"))).astext()
    assert english.startswith("Move (move)")


# --- 4. setup: every step of 003's setup, in its order ---------------------------------------


@pytest.mark.parametrize(
    ("players", "sections"),
    [
        (["humans", "pilgrims"], ["setup"]),
        (["humans", "pilgrims", "machines", "trogs"], ["setup", "setup-four-players"]),
    ],
)
def test_setup_answer_lists_every_setup_step_in_order(players: list[str], sections: list[str]) -> None:
    from havoc.assistant import api
    from havoc.engine import rulebook
    from havoc.engine.interpreter.answer import render_text
    from havoc.language.i18n import Translator

    rs = rulebook.load("cry-havoc")
    steps = [rid for sid in sections for rid in rs.sections[sid].rule_ids]
    ans = api.ask({"players": players}, {"ask": "setup", "experience": "veteran"}, "en")
    assert ans.rule_ids == steps  # the whole of 003's setup, board to Action marker (and the Trogs')
    text = render_text(api.ask({"players": players}, {"ask": "setup", "experience": "veteran"}, "pl"))
    tr = Translator("pl", scope=rs.id)
    titles = [tr.text(f"{rid}:title", rs.rules[rid].title) for rid in steps]
    shown = [line.strip()[2:] for line in text.splitlines() if line.strip().startswith("• ")]
    assert shown == titles, shown
    for figure in ("PZ każdego gracza na starcie: 0", "zakryte żetony Wydarzeń na Torze Punktacji: 4"):
        assert figure in text
    assert ("jeden z graczy gra Trogami: tak" in text) == ("trogs" in players)


# --- 6. the term list: every rule as `havoc rule --lang pl` prints it ---------------------------

# 003's forms a Polish reader must meet (the actions, the Battle steps, the verbs).
REQUIRED = [
    "Wzniesienie Budowli i/lub Aktywacja Budowli",
    "Dobranie 2 kart Taktyk i zatrzymanie 1 z nich",
    "A. Dołóżcie 1 Kryształ do Regionu Bitwy",
    "B. Rozmieśćcie Oddziały na Celach Bitwy",
    "C. Zagrywajcie karty Taktyk",
    "D. Rozstrzygnijcie Cele Bitwy",
    "G. Zdejmijcie żeton Bitwy",
    "rozmieszcza",
    "blokuje",
    "wraca do [Rezerwy]",
]
# Forms the editor rejected; matched case-insensitively (the sheet prints headings in capitals).
REJECTED_RENDERED = [
    "Dobór Taktyk",
    "BUDOWA / AKTYWACJA",
    "Budowa/Aktywacja",
    "usunięty z gry",
    "ustaw Oddziały",
    "rozstawia na Celach",
    "rozstawiają się",
    "Kontrola / Kontrola",
    "sprawdzana dla pytań: move",
    "seed 003",
    "„Opis stołu”",
    "(2–3 graczy)",
    "Zwycięzca wraca",
]


def rendered_polish() -> str:
    """Every rule of both rulesets as `havoc --lang pl rule` prints it, and every Polish catalog text."""
    from havoc.cli.commands.rules import rule_text
    from havoc.engine import rulebook

    out = []
    for name in ("cry-havoc", "advanced-cry-havoc"):
        rs = rulebook.load(name)
        out += [rule_text(rs, rid, "pl") for rid in rs.rules]
    return "\n".join(out + polish_texts())


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_the_term_list() -> None:
    corpus = rendered_polish()
    missing = [form for form in REQUIRED if form not in corpus]
    assert not missing, missing
    low = corpus.lower()
    found = [form for form in REJECTED_RENDERED if form.lower() in low]
    assert not found, found
    held_back = re.findall(r"zatrzymuj\w* \{?[\w-]*\}? ?\d* ?Oddzia", corpus)  # "zatrzymuje 2 Oddziały"
    assert not held_back, held_back


def test_the_english_page_explains_the_card_too() -> None:
    text = " ".join((REPO / "docsbuild" / "positions.md").read_text(encoding="utf-8").split())
    assert "says the Humans played Air Support and added 1 Unit" in text


def test_the_trogs_build_figure_has_a_label() -> None:
    """The second-Trap example's figure is shown on the solo page by its label, not as `build`."""
    from havoc.games.cry_havoc import labels

    assert labels().figure("build", "pl") == "Trogi wznoszą"
    assert labels().figure("build", "en") == "the Trogs build"
