"""The sentence reader's word matching is read by hand (a short ``havoc ask --text`` imports no
``re`` and compiles no pattern): here it is held to the regular expressions it replaced, on the
reader's own cue words and on seeded random text (digits of other scripts, "/", "_", spaces of
every kind, letters with and without diacritics)."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from havoc.games.cry_havoc import understand as u
from havoc.games.cry_havoc.ui import fold

REPO = Path(__file__).resolve().parents[1]
SEED = 40
PREFIXES = r"(?:z|za|ze|po|prze|wy|u|do|od|s)?"
ALPHABET = "abzeoprwydsu ąéŁł1/2/٣\t\u00a0_-.,"
CUES = sorted({c for cues in (*u.CUES.values(), *u.HOW_MANY_OF.values(), *u.TROG_DECISIONS.values()) for c in cues})


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 16)))


def _fold_text(text: str) -> str:
    out = []
    for w in re.split(r"(\d+(?:/\d+)+)|\s+", text):
        if w:
            out.append(w if re.fullmatch(r"\d+(?:/\d+)+", w) else fold(w).replace("-", " "))
    return " ".join(out)


def test_a_cue_matches_where_its_pattern_did() -> None:
    rng = random.Random(SEED)
    for n in range(5000):
        cue = rng.choice([*CUES, "za", "s", "u "])
        text = _text(rng)
        if n % 2:  # half the texts hold the cue, after a prefix, a letter or nothing
            at = rng.randint(0, len(text))
            text = text[:at] + cue + text[at:]
        expected = re.search(r"(?<!\w)" + PREFIXES + re.escape(cue), text) is not None
        assert u._cue_at(text, cue) is expected, (SEED, text, cue)


@pytest.mark.parametrize(
    "text",
    ["wycofać 3 z 8", "przesunąć", "odwrót", "how many may leave", "1/1/2 humans", "zbudowali", "nuda", "go  to"],
)
def test_the_cue_counts_of_a_sentence_are_those_of_the_patterns(text: str) -> None:
    flat = " " + " ".join(u._words(text)) + " "
    for cues in u.CUES.values():
        expected = sum(1 for c in cues if re.search(r"(?<!\w)" + PREFIXES + re.escape(c), flat))
        assert u._has(flat, cues) == expected


def test_a_sentence_folds_and_splits_as_the_patterns_did() -> None:
    rng = random.Random(SEED)
    for _ in range(20000):
        text = _text(rng)
        folded = _fold_text(text)
        assert u.fold_text(text) == folded, (SEED, text)
        assert u._words(text) == re.findall(r"\d+(?:/\d+)+|\w+", folded), (SEED, text)


def test_the_names_a_sentence_is_read_against_are_kept_by_what_they_are_made_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The declined names come from the verified cache when nothing they are made of changed:
    the same list as made afresh; another table's Regions, or an edited catalog, is another entry."""
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "cache"))

    def entries() -> int:
        return len(list((tmp_path / "cache").glob(f"{u.READING_NAMES}-*.bin")))

    table = {"regions": {"example-a": {}, "example-b": {"structures": [{"type": "example-a"}]}}}
    made = u._reading_names(table)
    assert entries() == 1
    assert u._reading_names(table) == made
    assert set(made) >= set(u.names()) and (("region", "a"), "region", "example-a") in made
    u._reading_names({"regions": {"north": {}}})
    assert entries() == 2
    locales = tmp_path / "locales"
    shutil.copytree(REPO / "locales", locales)
    with (locales / "pl" / "LC_MESSAGES" / "havoc.po").open("a", encoding="utf-8") as po:
        po.write("\n# an edit\n")
    monkeypatch.setenv("HAVOC_LOCALES", str(locales))
    assert u._reading_names(table) == made
    assert entries() == 3
