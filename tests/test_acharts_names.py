"""Naming a chart line: by whole words in either language, never by letters inside a word.

The first tests are the wrong answers a player met (each answered silently with the wrong
line, exit 0); the property tests run over every line of every chart a lookup names lines in,
in English and Polish.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from havoc.cli import main
from havoc.engine import rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.games.advanced_cry_havoc import names as N
from havoc.games.advanced_cry_havoc import tables as T
from havoc.search.text import fold, is_stopword

NAMED_CHARTS = (
    T.WEAPONS,
    T.IMPAIRMENT_MODS,
    T.WAKING_MODS,
    T.MORALE_MODS,
    T.CC_SHIFTS,
    T.CC_MODS,
    T.RANGED_SHIFTS,
    T.RANGED_MODS,
    T.STATUS,
)


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return rulebook.load("advanced-cry-havoc")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["charts", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_word_inside_a_bracketed_note_names_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    # "cover" is inside "recovery", and inside the note "(recovery checks only)"
    code, out, err = run(capsys, "morale", "recovery", "--if", "cover")
    assert code == 2 and out == "" and "'cover' is not in the chart" in err


def test_move_is_not_the_watch_line_did_not_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "combat", "--ranged", "--attacker", "move")
    assert code == 2 and out == "" and "'move' is not in the chart" in err
    code, out, _ = run(capsys, "combat", "--ranged", "--attacker", "spent mf")
    assert code == 0 and "+2  Spent any MF" in out


def test_enemy_zoi_on_waking_is_the_per_enemy_line_not_aid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waking", "7", "--if", "enemy zoi")
    assert code == 0
    assert out.startswith("6: Wounded and Impaired") and "Each enemy exerting a ZOI" in out and "aid" not in out


@pytest.mark.parametrize("name", ["d", "ed", "aged", "line"])
def test_letters_inside_a_status_name_are_not_the_engaged_refusal(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, err = run(capsys, "status", name)
    assert code == 2 and out == "" and "cannot be determined" not in err


def test_two_lines_named_is_ambiguous_with_the_candidates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "status", "s")
    assert code == 2 and out == ""
    assert "ambiguous" in err and "Stunned" in err and "Scared" in err and "Healthy" not in err
    code, _, err = run(capsys, "combat", "--target", "cover")
    assert code == 2 and "In light cover, In medium cover, In heavy cover" in err


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["morale", "morale", "--if", "Dowódca"], "Adjacent to a Good Order Leader"),
        (["morale", "morale", "--if", "dowodcy"], "Adjacent to a Good Order Leader"),  # inflected, no diacritics
        (["combat", "--target", "leżącego"], "Under a Prone marker"),
        (["combat", "--target", "lezacy"], "Under a Prone marker"),
        (["combat", "--target", "lezacego"], "Under a Prone marker"),  # inflected and without diacritics
        (["combat", "--target", "ciężkiej osłonie"], "In heavy cover"),
        (["impairment", "5", "--if", "ranna"], "Wounded character"),
    ],
)
def test_polish_names_inflected_or_without_diacritics_need_no_lang(
    capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    code, out, _ = run(capsys, *argv)
    assert code == 0 and line in out


def _stem_or_prefix(q: str, w: str, lang: str) -> bool:
    return (
        fold(w).startswith(fold(q))
        or N.stem(q, lang) == N.stem(w, lang)
        or N.stem(fold(q), lang) == N.stem(fold(w), lang)
    )


def _complete(q: str, forms: list[N.Spelling]) -> bool:
    """``q`` alone names every (non-function) word of one spelling of the line."""
    return any(all(_stem_or_prefix(q, w, s.lang) for w in s.words if not is_stopword(w)) for s in forms)


LINES = [(rule_id, lang) for rule_id in NAMED_CHARTS for lang in ("en", "pl")]


@pytest.mark.parametrize(("rule_id", "lang"), LINES)
def test_every_name_and_word_prefix_finds_its_line_only(rs: Ruleset, rule_id: str, lang: str) -> None:
    lines = N.spellings(rs, rule_id)
    assert len(lines) == len(T.table(rs, rule_id).rows) and all(len(forms) == 2 for forms in lines)
    checked = 0
    for i, forms in enumerate(lines):
        s = next(f for f in forms if f.lang == lang)
        assert N.match(s.text, lines).rows == (i,), s.text  # the whole name
        assert N.match(s.text.upper(), lines).rows == (i,), s.text
        for w in s.words:
            for n in range(1, len(w) + 1):
                p = w[:n]
                got = N.match(p, lines).rows
                # every line found has a word that begins with the prefix (or shares its stem)
                for j in got:
                    assert any(_stem_or_prefix(p, x, f.lang) for f in lines[j] for x in f.words), (p, j)
                # its own line is among them, unless one other line is named in full by it
                assert i in got or (len(got) == 1 and _complete(p, lines[got[0]])), (s.text, p, got)
                # a prefix that names a word of this line alone finds this line alone
                owners = {j for j, fs in enumerate(lines) for f in fs for x in f.words if _stem_or_prefix(p, x, f.lang)}
                if owners == {i} and not is_stopword(p):
                    assert got == (i,), (s.text, p, got)
                checked += 1
        # the prefixes of all its words together (three letters each) find it, or it and others
        short = " ".join(w[:3] for w in s.words if not is_stopword(w))
        assert i in N.match(short, lines).rows or len(N.match(short, lines).rows) == 1, (s.text, short)
    assert checked > 0


@pytest.mark.parametrize(("rule_id", "lang"), LINES)
def test_letters_inside_a_word_never_name_the_line(rs: Ruleset, rule_id: str, lang: str) -> None:
    lines = N.spellings(rs, rule_id)
    for i, forms in enumerate(lines):
        s = next(f for f in forms if f.lang == lang)
        for w in s.words:
            for cut in range(1, len(w) - 2):
                inner = w[cut:]
                if any(_stem_or_prefix(inner, x, f.lang) for f in forms for x in f.words):
                    continue  # it also begins a word of this line
                assert i not in N.match(inner, lines).rows, (s.text, inner)


def test_polish_wording_of_the_charts(rs: Ruleset, capsys: pytest.CaptureFixture[str]) -> None:
    from havoc.language.i18n import translator

    tr = translator("pl", rs.id)

    def cell(rule_id: str, text: str) -> str:
        return tr.text(f"{rule_id}:table", text)

    assert cell(T.WEAPONS, "Mounted lance") == "Kopia (konna)" and cell(T.WEAPONS, "Foot lance") == "Kopia (piesza)"
    assert cell(T.WEAPONS, "Early Welsh longbow") == "Wczesny długi łuk walijski"
    # a header agrees with the cells under it (masculine, like "Osłabiony")
    assert cell(T.STATUS, "If it becomes Impaired") == "Gdy zostanie Osłabiony"
    assert cell(T.STATUS, "If it becomes Stunned") == "Gdy zostanie Ogłuszony"
    assert [cell(T.COURAGE, c) for c in T.table(rs, T.COURAGE).rows[0][:2]] == ["19 lub więcej", "13 lub więcej"]
    assert cell(T.WAKING, "4 or less") == "4 lub mniej"
    for rid, rule in rs.rules.items():
        if rid.startswith("acv-erratum-prone"):
            assert not tr.text(f"{rid}:title", rule.title).startswith("Prone"), rid
    assert tr.text("source:004:title", "Advanced Cry Havoc 2 game charts (fan-made)").endswith("(fanowskie)")
    # "łuk długi" is both longbows now, not the English one alone
    code, _, err = run(capsys, "range", "łuk długi", "3", "--lang", "pl")
    assert code == 2 and "Wczesny długi łuk walijski" in err and "Angielski łuk długi" in err


def test_candidates_are_shown_in_the_language_the_name_was_typed_in(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "range", "luk", "3")  # Polish letters dropped, no --lang pl
    assert code == 2 and "Krótki łuk (konny)" in err and "Mounted short bow" not in err
    code, _, err = run(capsys, "range", "bow", "3", "--lang", "pl")
    assert code == 2 and err.startswith("błąd: broń: 'bow' jest niejednoznaczne") and "Mounted short bow" in err


def test_a_charts_spellings_come_from_the_verified_cache_as_they_were_made(
    rs: Ruleset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later process reads each chart's spellings from the cache (no stemming, no catalog read):
    the same spellings as made afresh, and a ruleset made in memory keeps no entry."""
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path))
    N._spellings.cache_clear()
    made = N.spellings(rs, T.WEAPONS, 0)
    entries = list(tmp_path.glob(f"{N.SPELLINGS}-*.bin"))
    assert len(entries) == 1
    N._spellings.cache_clear()
    assert N.spellings(rs, T.WEAPONS, 0) == made
    assert made == [list(forms) for forms in N._spelled(rs, T.WEAPONS, 0)]
    N._spellings.cache_clear()
