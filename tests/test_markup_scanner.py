"""The rule-text scanner (havoc.language.markup.parse, parse_inline) reads exactly what its patterns say:
the same pieces as ``re`` finds with them, on every text of the rules and the catalogs and on
random texts made of the markup's own characters."""

from __future__ import annotations

import random
import re

import pytest

from havoc.language import markup
from havoc.language.markup import Emph, Param, PluralWord, Ref, Text

_INLINE = re.compile(markup.INLINE)


def _by_re(text: str) -> tuple[object, ...]:
    """parse_inline as it was written with the pattern."""
    out: list[object] = []
    pos = 0
    for m in _INLINE.finditer(text):
        if m.start() > pos:
            out.append(Text(text[pos : m.start()]))
        if m.group("param"):
            forms = m.group("forms")
            out.append(
                Param(m.group("param")) if forms is None else PluralWord(m.group("param"), tuple(forms.split("|")))
            )
        elif m.group("kind"):
            out.append(Ref(m.group("kind"), m.group("target"), m.group("label")))
        else:
            out.append(Emph(m.group("emph")))
        pos = m.end()
    if pos < len(text):
        out.append(Text(text[pos:]))
    return tuple(out)


def _texts() -> list[str]:
    from havoc.engine import rulebook
    from havoc.language.i18n import load_catalog

    found: list[str] = []
    for name in rulebook.ruleset_names():
        rs = rulebook.load(name)
        for rule in rs.rules.values():
            found += [rule.title, rule.text, *(r for r in getattr(rule, "rulings", ()) if isinstance(r, str))]
    catalog = load_catalog("pl")
    found += list(catalog.singular.values())
    found += [form for forms in catalog.plural.values() for form in forms]
    return [t for t in found if isinstance(t, str)]


def _random_texts(n: int) -> list[str]:
    rnd = random.Random(26)
    pieces = ["{", "}", "[", "]", "(", ")", "*", ":", "|", "\n", " ", "\t", "\u00a0", "\u2029", "a", "z", "0", "-", "_"]
    pieces += ["term", "rule", "](term:", "](rule:", "{a-b", "{x:one|two}", "[Units](term:unit)", "*w*", "\n \n", "ą"]
    return ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30))) for _ in range(n)]


@pytest.mark.parametrize("source", ["rules and catalogs", "random"])
def test_the_scanner_reads_what_the_patterns_find(source: str) -> None:
    texts = _texts() if source != "random" else _random_texts(20_000)
    assert len(texts) > 1000
    for text in texts:
        assert markup.parse_inline(text) == _by_re(text), text
        assert markup._chunks(text) == re.split(markup.BLANK_LINES, text), text


def test_the_name_checks_accept_what_their_patterns_match() -> None:
    from havoc.engine.game import _module_name
    from havoc.games.cry_havoc.ui import _plain_id
    from havoc.language.markup import is_id as _is_name

    checks = [
        (re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$").match, _module_name),
        (re.compile(r"[a-z0-9][a-z0-9_-]*").fullmatch, _plain_id),
        (re.compile(r"^[a-z0-9][a-z0-9-]*$").match, _is_name),
    ]
    rnd = random.Random(26)
    texts = ["".join(rnd.choice("ab_z09.-\n Aą") for _ in range(rnd.randint(0, 8))) for _ in range(30_000)]
    for text in texts:
        for pattern, check in checks:
            assert bool(pattern(text)) == check(text), (text, check.__name__)
