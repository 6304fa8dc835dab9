"""Every stored example's question, typed as a player would, by hand (issue 39, tests/data/understand_examples.yaml).

Each sentence must be read as the question it states, on the example's position as its table:
the kind and every field it gives (a field missing or wrong is a failure). A sentence marked
``known-miss`` must still be misread, so that a fix shows up and the mark is removed. Every
stored example must be listed in the file, so a new example without sentences fails here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from stored_examples import examples

from havoc.engine import rulebook
from havoc.formats.spec import plain
from havoc.games.cry_havoc.understand import understand

DATA = Path(__file__).parent / "data" / "understand_examples.yaml"
ENTRIES: list[dict[str, Any]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
POSITIONS = {ex.id: plain(ex.position) for ex in examples(rulebook.load(), extra=None)}
SENTENCES = [(e["example"], s) for e in ENTRIES for s in e["sentences"]]


_READ: dict[tuple[str, str, str], bool] = {}
"""Each sentence's verdict, kept: the rate test counts the verdicts the sentence tests reached
(in the same process: a test file runs whole in one) rather than reading all 290 again."""


def _right(example: str, sentence: dict[str, Any]) -> bool:
    """Whether the sentence is read as exactly the question it states."""
    key = (example, sentence["lang"], sentence["text"])
    if key not in _READ:
        read = understand(sentence["text"], sentence["lang"], POSITIONS[example])
        _READ[key] = bool(read["question"] == sentence["question"])
    return _READ[key]


def test_every_stored_example_is_listed() -> None:
    """A stored example missing from the file (or listed twice, or unknown) fails."""
    listed = Counter(e["example"] for e in ENTRIES)
    assert set(listed) == set(POSITIONS)
    assert all(n == 1 for n in listed.values())
    for e in ENTRIES:
        assert e["sentences"] or e.get("why") or e.get("todo"), e["example"]


@pytest.mark.parametrize(("example", "sentence"), SENTENCES, ids=[f"{e}-{s['lang']}-{s['text']}" for e, s in SENTENCES])
def test_sentence_is_understood(example: str, sentence: dict[str, Any]) -> None:
    """The sentence gives the kind and the fields it states; a known miss is still missed."""
    assert _right(example, sentence) != bool(sentence.get("known-miss"))


def test_rate_per_language(capsys: pytest.CaptureFixture[str]) -> None:
    """Prints the rate of sentences read right, per language; each written example has two
    sentences in each language."""
    for e in ENTRIES:
        if e["sentences"]:
            langs = Counter(s["lang"] for s in e["sentences"])
            assert langs["en"] >= 2 and langs["pl"] >= 2, e["example"]
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for example, s in SENTENCES:
        total[s["lang"]] += 1
        right[s["lang"]] += _right(example, s)
    todo = sum(1 for e in ENTRIES if e.get("todo"))
    with capsys.disabled():
        for lang in sorted(total):
            print(f"\nunderstood {lang}: {right[lang]}/{total[lang]}", end="")
        print(f"\nexamples still without sentences: {todo}/{len(ENTRIES)}")
