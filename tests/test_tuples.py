"""havoc.core.tuples.NamedTuple makes the same classes as typing.NamedTuple (without importing typing)."""

from __future__ import annotations

import pickle
import subprocess
import sys
import typing

import pytest

from havoc.core import tuples
from havoc.core.tuples import NamedTuple


class Ours(NamedTuple):
    """A located problem."""

    file: str
    line: int | None
    message: str = "none"
    KIND = "problem"

    def where(self) -> str:
        return f"{self.file}:{self.line}"


class Theirs(typing.NamedTuple):
    """A located problem."""

    file: str
    line: int | None
    message: str = "none"
    KIND = "problem"

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def test_the_same_tuple_as_typing_makes() -> None:
    ours, theirs = Ours("f", 3), Theirs("f", 3)
    assert ours == theirs == ("f", 3, "none") and hash(ours) == hash(theirs)
    assert repr(ours) == repr(theirs).replace("Theirs", "Ours")
    assert Ours._fields == Theirs._fields and Ours._field_defaults == Theirs._field_defaults
    assert Ours.__doc__ == Theirs.__doc__ and Ours.KIND == Theirs.KIND and ours.where() == theirs.where()
    assert Ours.__mro__ == (Ours, tuple, object) and Ours.__module__ == __name__
    assert ours._replace(line=4) == Ours("f", 4) and type(ours._replace(line=4)) is Ours
    assert Ours._make(["a", None, "m"]) == Ours(file="a", line=None, message="m")
    assert ours._asdict() == theirs._asdict()
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert not hasattr(ours, "__dict__")


class Fresh(NamedTuple):
    a: int
    b: str = "d"


def test_made_by_name_with_defaults_and_unpickled_alike() -> None:
    assert pickle.loads(pickle.dumps(Fresh(1, "x"))) == (1, "x")  # all fields, in order
    assert Fresh(b="y", a=2) == (2, "y") and Fresh(3) == (3, "d") and Fresh(4, "z") == (4, "z")
    assert Fresh.__new__.__defaults__ is None  # put together in Python so far: nothing compiled
    made = [Fresh(a=i) for i in range(tuples.COMPILE_AFTER)]
    assert Fresh.__new__.__defaults__ == ("d",)  # namedtuple's own __new__ now
    assert made == [(i, "d") for i in range(tuples.COMPILE_AFTER)] and Fresh(5) == Fresh(a=5) == (5, "d")
    for wrong in [(), (1, "x", 2)]:
        with pytest.raises(TypeError):
            Fresh(*wrong)
    with pytest.raises(TypeError):
        Fresh(1, c=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Fresh._make([1])
    with pytest.raises(ValueError):
        Fresh(1)._replace(c=3)  # type: ignore[call-arg]
    assert Fresh.a.__doc__ == "Alias for field number 0" and Fresh.__match_args__ == ("a", "b")


def test_a_wrong_call_is_refused_before_compiling_too() -> None:
    """The records put together in Python before the compile refuse what namedtuple refuses."""
    for args, kwargs in [((), {}), ((1, "x", 2), {}), ((1,), {"c": 2}), ((1,), {"a": 2}), ((), {"b": "x"})]:

        class Early(NamedTuple):  # each wrong call meets a class that compiled nothing yet
            a: int
            b: str = "d"

        assert Early(b="y", a=2) == (2, "y") and Early(1) == (1, "d")
        with pytest.raises(TypeError):
            Early(*args, **kwargs)  # type: ignore[misc]


def test_what_typing_refuses_is_refused() -> None:
    with pytest.raises(TypeError):

        class Bad(NamedTuple):
            a: int = 1
            b: int

    with pytest.raises(AttributeError):

        class Worse(NamedTuple):
            a: int

            def _replace(self) -> None: ...


def test_a_plain_ask_imports_no_typing() -> None:
    code = (
        "import sys; from havoc.cli import main; import io, contextlib\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['ask', 'tests/fixtures/assistant/leave-8-vs-3.yaml',"
        " 'move', 'humans', 'from=example-a', 'to=example-b', 'units=2'])\n"
        "print('typing' in sys.modules)"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True) for _ in "12"]
    assert runs[1].stdout.strip() == "False"  # the second: the caches the first filled, as a player's next question
