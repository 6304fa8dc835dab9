"""The shortcuts every answer's words take give what the long way gives, character for character.

A translated sentence is filled from its parts parsed once (:func:`havoc.i18n._fill`) instead of
through ``str.format`` with every value wrapped; these tests fill each interface string of the
Polish catalog both ways, with names, plain texts, numbers and other values, and compare the
text or the error.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from havoc import i18n
from havoc.i18n import Text, translator
from havoc.nouns import CASES, Noun

MGIELNIA = Noun(
    {"nom": "Mgielnia", "gen": "Mgielni", "dat": "Mgielni", "acc": "Mgielnię", "ins": "Mgielnią", "loc": "Mgielni"}
)
VALUES: list[Any] = [MGIELNIA, Noun({"nom": "X"}), "abc", "", 3, -2, True, 2.5, None, Text("tekst"), ["a"]]


def _long_way(text: str, values: dict[str, Any]) -> str:
    """What Text.format gave before its parts were kept: str.format with each value wrapped."""
    return str.format(text, **{k: i18n._caseless(v, Noun, CASES) for k, v in values.items()})


def _outcome(fill: Any, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    try:
        found = fill(*args, **kwargs)
    except Exception as exc:  # the same error, with the same message, either way
        return ("error", type(exc), str(exc))
    return ("text", type(found), found)


def _fields(text: str) -> list[str]:
    from _string import formatter_parser

    try:
        return sorted({name for _, name, _, _ in formatter_parser(text) if name})
    except ValueError:
        return ["x"]


ODD = ["a{{b}}{x:gen}", "{x:>5}", "{x!r}", "{0}", "{", "}", "{x:{y}}", "", "{x.real}", "{x[0]}", "{x:gen}{x:ins}"]


def test_every_polish_sentence_fills_as_str_format_does() -> None:
    catalog = translator("pl").catalog
    assert catalog is not None
    strings = sorted({s for (context, _), s in catalog.singular.items() if context == "ui"} | set(ODD))
    assert len(strings) > 200  # the check reads the real catalog
    filled = 0
    for s in strings:
        names = _fields(s)
        for combo in itertools.islice(itertools.product(VALUES, repeat=len(names)), 30):
            given = dict(zip(names, combo, strict=True))
            assert _outcome(Text(s).format, **given) == _outcome(_long_way, s, given), (s, given)
            filled += 1
        if names:  # a field not given: the same KeyError
            assert _outcome(Text(s).format) == _outcome(_long_way, s, {}), s
    assert filled > 1000


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_name_takes_the_case_its_field_asks_for(case: str) -> None:
    assert Text(f"z {{src:{case}}}!").format(src=MGIELNIA) == f"z {MGIELNIA.case(case)}!"
    assert Text(f"{{n:{case}}} {{w:{case}}}").format(n=2, w="plain") == "2 plain"
