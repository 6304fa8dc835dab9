"""Cry Havoc's question kinds: one module per kind, each declaring what the kind is.

A kind's module (``questions/move.py`` for ``move``) declares its ``KIND``: the fields a
question of that kind needs, the figures its answers give, a line of help, whether it is asked
for a faction, its probe in the legal-actions report, and where its handler is. The list of kinds is the vocabulary's
``question-kinds``; ``havoc check`` fails on a declared kind without a module. Everything that
lists kinds (the question format's fields, ``havoc ask --help``, the answers' JSON Schema, the
docs) is derived from here. A kind's module is imported only when that kind is asked about.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

from havoc.games.cry_havoc.contract import QUESTION_KINDS


class QuestionKind:
    """What one question kind is: its fields, figures, help and handler."""

    __slots__ = ("_handle", "fields", "figures", "handler", "help", "legal", "name", "needs", "no_actor", "per_side")

    def __init__(
        self,
        *,
        name: str,
        help: str,
        needs: tuple[str, ...],
        figures: tuple[str, ...],
        per_side: tuple[str, ...],
        no_actor: bool,
        legal: str | None,
        handler: str,
    ) -> None:
        self.name = name
        self.help = help
        self.needs = needs  # question fields it needs besides `ask` (and `faction`)
        self.fields = needs
        self.figures = figures
        self.per_side = per_side  # figures given per side of a Battle ({faction: value})
        self.no_actor = no_actor  # asked about the table, not for a faction
        self.legal = legal  # its probe in the legal-actions report (a method of queries._Legal), if any
        self.handler = handler  # "module:function", imported when first asked
        self._handle: Callable[[Any], Any] | None = None

    def handle(self, job: Any) -> Any:
        if self._handle is None:
            module, _, func = self.handler.partition(":")
            self._handle = getattr(importlib.import_module(module), func)
        return self._handle(job)


_loaded: dict[str, QuestionKind | None] = {}


def module_name(kind: str) -> str:
    return f"{__name__}.{kind.replace('-', '_')}"


def get(kind: str) -> QuestionKind | None:
    """The declared kind, or None when it has no module (``havoc check`` reports it)."""
    if kind not in _loaded:
        try:
            found = importlib.import_module(module_name(kind)).KIND
        except (ImportError, AttributeError):
            found = None
        _loaded[kind] = found if isinstance(found, QuestionKind) and found.name == kind else None
    return _loaded[kind]


def all_kinds() -> Iterator[QuestionKind]:
    """Every declared kind with a module, in the vocabulary's order."""
    for kind in QUESTION_KINDS:
        found = get(kind)
        if found is not None:
            yield found


def needs(kind: str) -> tuple[str, ...]:
    found = get(kind)
    return found.needs if found else ()


def figures() -> dict[str, tuple[str, ...]]:
    return {k.name: k.figures for k in all_kinds()}


def per_side() -> frozenset[str]:
    return frozenset(f for k in all_kinds() for f in k.per_side)


__all__ = ["QuestionKind", "all_kinds", "figures", "get", "needs", "per_side"]
