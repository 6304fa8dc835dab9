"""havoc.core.record: the records a class makes before and after it compiles its ``__init__`` are alike."""

from __future__ import annotations

import pytest

from havoc.core import record as records
from havoc.core.record import field, record, replace


@record
class Move:
    units: int
    to: str = "b"
    via: list[str] = field(default_factory=list)


@record(frozen=True)
class Fixed:
    a: int
    b: int = 2


def test_records_are_the_same_before_and_after_the_compile() -> None:
    early = [Move(1), Move(2, "c"), Move(units=3, via=["x"]), Move(4, to="d")]
    assert "__init__" in Move.__dict__ and Move.__init__.__qualname__ != "Move.__init__"  # not compiled yet
    assert [(m.units, m.to, m.via) for m in early] == [(1, "b", []), (2, "c", []), (3, "b", ["x"]), (4, "d", [])]
    assert early[0].via is not early[1].via  # a fresh list each
    later = [Move(units=i) for i in range(records.COMPILE_AFTER)]
    assert Move.__init__.__qualname__ == "Move.__init__"  # the generated one now
    assert later[-1] == Move(records.COMPILE_AFTER - 1) and Move(5, "e") == replace(Move(5), to="e")


def test_a_wrong_call_is_refused_before_compiling_too() -> None:
    for args, kwargs in [((), {}), ((1, 2, 3), {}), ((1,), {"c": 2}), ((1,), {"a": 2}), ((), {"b": 1})]:

        @record(frozen=True)
        class Fresh:  # each wrong call meets a class that compiled nothing yet
            a: int
            b: int = 2

        with pytest.raises(TypeError):
            Fresh(*args, **kwargs)
    fixed = Fixed(1)
    assert (fixed.a, fixed.b) == (1, 2) and hash(fixed) == hash(Fixed(a=1, b=2))
    with pytest.raises(AttributeError):
        fixed.a = 3  # type: ignore[misc]
