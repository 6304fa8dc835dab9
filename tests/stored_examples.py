"""The rules' stored examples, read as the assistant reads them: one loop for the many tests
that ask every example.

Most examples are questions of the rules interpreter; some ask another decider of the game
(``game.EXTRA_ANSWERS``, such as the solo variant's automated Trogs), which reads the
question itself. Which is which, and how a position and a question are read, is decided here,
so a new kind of example is handled in one place.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from havoc.assistant.examples import is_extra
from havoc.engine import game, rulebook
from havoc.engine.rulebook.model import Example, Ruleset


class Asked(NamedTuple):
    """One example: its position read by the game, and its question read by the interpreter
    (``None`` for an example of another decider, which reads ``ex.query`` itself)."""

    ex: Example
    pos: Any
    query: Any


def examples(rs: Ruleset | None = None, extra: bool | None = False) -> list[Example]:
    """The stored examples of ``rs`` (the default ruleset), in rule order: those the rules
    interpreter answers (``extra=False``), those of the game's other deciders (``True``) or all
    (``None``)."""
    rs = rs or rulebook.load()
    return [ex for rule in rs.rules.values() for ex in rule.examples if extra is None or is_extra(rs, ex) == extra]


def asked(rs: Ruleset | None = None, extra: bool | None = False) -> list[Asked]:
    """:func:`examples`, each with its position and question parsed as ``havoc ask`` parses them
    (named by the example's ID). Parsed afresh at each call: answering may fill in a position."""
    rs = rs or rulebook.load()
    return [read(rs, ex) for ex in examples(rs, extra)]


def read(rs: Ruleset, ex: Example) -> Asked:
    """One example's position and question, parsed (see :func:`asked`)."""
    played = game.of(rs)
    pos = played.parse_position(ex.position, rs, ex.id)
    return Asked(ex, pos, None if is_extra(rs, ex) else played.parse_question(ex.query, pos, ex.id))


def decide(rs: Ruleset, item: Asked, lang: str = "en") -> Any:
    """The decision of another decider (the solo Trogs) for one of its examples."""
    return game.extra_answers(game.of(rs))[str(item.ex.query["ask"])](rs, item.pos, item.ex.query, lang)


def request(rs: Ruleset, ex: Example, lang: str) -> tuple[str, dict[str, Any]]:
    """The JSON API call that asks an example (``havoc serve``, the Ask and Trogs pages): another
    decider has its own path and takes the question without ``ask``."""
    from havoc.formats.spec import plain

    question = plain(ex.query)
    if is_extra(rs, ex):
        question = {k: v for k, v in question.items() if k != "ask"}
        return f"/api/{ex.query['ask']}", {"position": plain(ex.position), "question": question, "lang": lang}
    return "/api/ask", {"position": plain(ex.position), "question": question, "lang": lang}
