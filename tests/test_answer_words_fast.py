"""The shortcuts every answer's words take give what the long way gives, character for character.

A translated sentence is filled from its parts parsed once (:func:`havoc.language.i18n._fill`) instead of
through ``str.format`` with every value wrapped; these tests fill each interface string of the
Polish catalog both ways, with names, plain texts, numbers and other values, and compare the
text or the error.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from havoc.language import i18n
from havoc.language.i18n import Text, translator
from havoc.language.nouns import CASES, SPECS, Noun

MGIELNIA = Noun(
    {"nom": "Mgielnia", "gen": "Mgielni", "dat": "Mgielni", "acc": "Mgielnię", "ins": "Mgielnią", "loc": "Mgielni"}
)
VALUES: list[Any] = [MGIELNIA, Noun({"nom": "X"}), "abc", "", 3, -2, True, 2.5, None, Text("tekst"), ["a"]]


def _long_way(text: str, values: dict[str, Any]) -> str:
    """What Text.format gave before its parts were kept: str.format with each value wrapped."""
    return str.format(text, **{k: i18n._caseless(v, Noun, SPECS) for k, v in values.items()})


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


# --- compact questions -------------------------------------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures" / "assistant"


def _read(words: list[str], pos: Any) -> tuple[Any, ...]:
    from havoc.core.errors import InputError
    from havoc.games.cry_havoc.query import parse_compact

    try:
        q = parse_compact(words, pos)
    except InputError as exc:
        return ("refused", [(p.file, p.line, p.message) for p in exc.problems])
    return ("read", repr(q))


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("table", ["twenty.yaml", "leave-8-vs-3.yaml", "battle-walkthrough.yaml"])
def test_a_compact_question_reads_as_the_full_reading_reads_it(
    table: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The common compact questions are read straight to their Query; any question, right or
    wrong, reads to the same Query or the same located problems as the full reading gives."""
    from havoc.assistant import api
    from havoc.games.cry_havoc import query
    from havoc.games.cry_havoc.contract import FACTIONS

    i18n.set_message_language(lang)
    pos = api.load_position(FIXTURES / table)
    regions = sorted(pos.regions)
    kinds = ["move", "retreat", "recruit", "battle", "legal", "prisoners", "how-many", "build", "Move", "nope"]
    values = [*regions[:4], "nowhere", "Example-A", "", "0", "1", "2", "3", "9", "-1", "+2", "٣", "1000001", "x", "yes"]
    keys = ["from", "to", "region", "units", "points", "via", "skill", "faction", "moved-this-action", "colour"]
    bare = [*FACTIONS[:3], "trogs", regions[0], "north", "attrition"]
    rnd = random.Random(26)
    questions = [["move", "pilgrims", f"from={regions[0]}", f"to={regions[1]}", "units=1"], ["legal"], ["move"]]
    for _ in range(1500):
        words = [rnd.choice(kinds)]
        for _ in range(rnd.randint(0, 5)):
            words.append(rnd.choice(bare) if rnd.random() < 0.25 else f"{rnd.choice(keys)}={rnd.choice(values)}")
        questions.append(words)
    quick = query._quick_compact
    taken = 0
    for words in questions:
        fast = _read(words, pos)
        taken += quick(words, pos, "query") is not None
        with monkeypatch.context() as m:
            m.setattr(query, "_quick_compact", lambda *args: None)  # the full reading only
            assert _read(words, pos) == fast, words
    assert taken > 20  # the check compares the quick reading, not only the full one twice
    i18n.set_message_language("en")


# --- fixes ---------------------------------------------------------------------------------------


class _Parts:
    """A stand-in for evaluating a condition's parts: the given values in turn ("raise": the
    evaluation fails), each part asked for noted."""

    def __init__(self, values: list[Any], error: type[Exception]) -> None:
        self.left, self.error, self.seen = list(values), error, []

    def __call__(self, part: Any) -> Any:
        self.seen.append(part)
        value = self.left.pop(0) if self.left else False
        if value == "raise":
            raise self.error("no such fact")
        return value


def test_a_no_is_explained_as_the_walk_explains_it() -> None:
    """Each rule's failed condition, its shape planned once, gives the fixes the step-by-step walk
    gives, and evaluates the same parts in the same order (reading a part may add to the facts an
    answer cites), whatever the parts evaluate to and wherever an evaluation fails."""
    from havoc.assistant import api
    from havoc.engine.interpreter import explain
    from havoc.engine.interpreter.expr import ExprError

    conditions = [r.check.requires for r in api.load_ruleset().rules.values() if r.check and r.check.requires]
    conditions += [
        {"not": {"all": [{"fact": "a"}, {"lt": [{"fact": "query.units"}, 3]}]}},
        {"not": {"gt": [{"fact": "query.units"}, {"figure": "x"}]}},
        {"any": [{"eq": [4, {"fact": "query.points"}]}, {"ge": [{"fact": "query.units"}, {"param": "p"}]}]},
        {"all": 5},
        {"le": [{"fact": "query.units"}]},
        {"all": [{"all": [{"le": [{"fact": "query.units"}, {"fact": "query.points"}]}]}]},
    ]
    assert len(conditions) > 30

    def word(fact: str, lang: str) -> str | None:
        return {"query.units": "Units", "query.points": "points"}.get(fact)

    rnd = random.Random(26)
    checked = explained = 0
    for condition in conditions:
        for _ in range(40):
            values = [rnd.choice([True, False, 0, 1, 2, 3, -1, 5, "x", None, "raise"]) for _ in range(12)]
            planned, walked = _Parts(values, ExprError), _Parts(values, ExprError)
            found = explain.bounds(condition, planned, word, "en")
            expected: list[explain.Bound] = []
            with contextlib.suppress(*explain._EVALUATION_ERRORS):
                explain._walk(condition, False, walked, word, "en", expected)
            assert (found, planned.seen) == (expected, walked.seen), condition
            checked += 1
            explained += bool(found)
    assert checked > 1000 and explained > 50  # the fixes compared are not all empty
