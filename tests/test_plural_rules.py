"""A catalog's plural rule is read by havoc.language.i18n itself (no gettext on a short Polish ask):
the same numbers as gettext.c2py for every rule Babel knows."""

from __future__ import annotations

import gettext

import pytest
from babel.messages.plurals import PLURALS

from havoc.language.i18n import _plural_func, _plural_rule

RULES = sorted({expr for _, expr in PLURALS.values()} | {"n==1 ? 0 : n!=0 && 10/n>2 ? 1 : 2", "(n+1)*2-3 < n%7 < 1"})


@pytest.mark.parametrize("expr", RULES)
def test_each_rule_gives_the_forms_gettext_gives(expr: str) -> None:
    ours, theirs = _plural_rule(expr), gettext.c2py(expr)
    assert [ours(n) for n in range(2_000)] == [theirs(n) for n in range(2_000)]
    assert [ours(n) for n in (10**6 + 1, 10**9 + 22, 10**12 + 105)] == [
        theirs(n) for n in (10**6 + 1, 10**9 + 22, 10**12 + 105)
    ]


@pytest.mark.parametrize("bad", ["n ==", "(n == 1", "n ? 1", "n = 1", "x", "n == 1) ? 0 : 1", "n ** 2"])
def test_a_rule_it_cannot_read_is_left_to_gettext(bad: str) -> None:
    with pytest.raises(ValueError):
        _plural_rule(bad)
    with pytest.raises(ValueError):
        _plural_func(bad)  # gettext's own error
