"""The docs page on positions: every template is a valid position whose stated answers are right.

A reader copies a template from ``docsbuild/positions.md`` and asks the question printed under
it; the page's ``% expect:`` comments (MyST comments, not shown) record what the page says the
answer is, and this test asks the assistant the same. The page must also list every question
kind with exactly the figures ``havoc.games.cry_havoc.figures`` gives.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc.engine import rulebook
from havoc.games.cry_havoc import position_read
from havoc.games.cry_havoc.answering import answer
from havoc.games.cry_havoc.figures import FIGURES
from havoc.games.cry_havoc.query import parse_compact

PAGE = Path(__file__).resolve().parents[1] / "docsbuild" / "positions.md"


def _cases() -> list[tuple[str, str, str]]:
    text = PAGE.read_text(encoding="utf-8")
    out = []
    for block in re.split(r"```(?:yaml|\{havoc-table\})\n", text)[1:]:
        body, rest = block.split("```", 1)
        rest = re.split(r"```(?:yaml|\{havoc-table\})", rest)[0]
        for line in re.findall(r"^% expect: (.*)$", rest, re.M):
            words, _, want = line.partition(" -> ")
            out.append((body, words, want))
    return out


CASES = _cases()


def test_every_template_states_an_answer() -> None:
    assert len(CASES) >= 7
    text = PAGE.read_text(encoding="utf-8")
    assert text.count("```yaml") + text.count("```{havoc-table}") == len({c[0] for c in CASES})


@pytest.mark.parametrize(("body", "words", "want"), CASES, ids=[c[1] for c in CASES])
def test_template_answers_as_the_page_says(body: str, words: str, want: str) -> None:
    rs = rulebook.load()
    pos = position_read.parse(yaml.safe_load(body), rs, "positions.md")
    got = answer(rs, pos, parse_compact(words.split(), pos))
    key, _, value = want.partition("=")
    actual: Any = got.verdict_value if key == "verdict" else got.figures.get(key)
    assert str(actual).lower() == value.lower(), f"{words}: {key} = {actual!r}, the page says {value}"


def test_the_page_lists_every_kind_with_its_figures() -> None:
    """The table is generated from the kinds' declarations (``{havoc-kinds}``), with FIGURES' figures."""
    from havoc.games.cry_havoc.site_pages import rows

    assert "```{havoc-kinds}\n```" in PAGE.read_text(encoding="utf-8")
    listed = {kind: set(figures) for kinds, _, figures in rows() for kind in kinds}
    assert set(listed) == set(FIGURES)
    for kind, names in FIGURES.items():
        assert listed[kind] == set(names), kind


@pytest.mark.parametrize(("body", "words", "want"), CASES, ids=[c[1] for c in CASES])
def test_the_polish_page_shows_the_template_in_polish_names(body: str, words: str, want: str) -> None:
    """``{havoc-table}`` on the Polish page: the same table with Polish names (named_table), no
    faction, phase or Region ID left, read as the same position."""
    from havoc.games.cry_havoc.named_table import as_written

    rs = rulebook.load()
    data = yaml.safe_load(body)
    shown = as_written(data, "pl")
    pos = position_read.parse(data, rs, "positions.md")
    pos_pl = position_read.parse_text(shown, rs, "positions.md")
    pos_pl.name = pos.name
    assert pos_pl == pos, shown
    if "Ludzie" not in body:  # (the names section's table is written in names already)
        assert shown != body
    assert "example-" not in shown
    for machine in ("humans", "pilgrims", "machines", "actions", "foglands", "feralas-banks", "draw", "prisoners"):
        assert not re.search(rf"(?<![\w-]){machine}(?![\w-]|:)", shown), (machine, shown)
