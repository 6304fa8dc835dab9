"""Cry Havoc's question kinds: one module per kind, each declaring what the kind is.

A kind's module (``questions/move.py`` for ``move``) declares its ``KIND``: its label (the
kind's word for people, a ``ui("…")`` string so the catalogs translate it once), the fields a
question of that kind needs, the figures its answers give, a line of help, whether it is asked
for a faction, its probe in the legal-actions report, where its handler is, and what its
verdict says (:data:`VERDICTS`). The list of kinds is the vocabulary's
``question-kinds``; ``havoc check`` fails on a declared kind without a module. Everything that
lists kinds (the question format's fields, ``havoc ask --help``, the answers' JSON Schema, the
docs) is derived from here. A kind's module is imported only when that kind is asked about.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from havoc.errors import Problem, RulebookError
from havoc.games.cry_havoc.contract import QUESTION_KINDS

_ROOT = Path(__file__).resolve().parents[5]  # the repository (for paths in messages)


# What a kind's answers say in `verdict` — the one rule, enforced when a question is answered:
#   yes-no:  a question "may …?"/"can …?": true, false or "no-unless";
#   checked: the answer is its figures (a report, a count the rules impose); the verdict says
#            whether every rule checked holds (true or false, never null);
#   none:    the answer is only its figures or lines (how many, what happens): always null.
VERDICTS = ("yes-no", "checked", "none")


class QuestionKind:
    """What one question kind is: its fields, figures, help and handler."""

    __slots__ = (
        "_handle",
        "answers",
        "fields",
        "figures",
        "handler",
        "help",
        "label",
        "legal",
        "line",
        "name",
        "needs",
        "no_actor",
        "path",
        "per_side",
        "verdict",
    )

    def __init__(
        self,
        *,
        name: str,
        label: str,
        help: str,
        answers: str,
        needs: tuple[str, ...],
        figures: tuple[str, ...],
        per_side: tuple[str, ...],
        no_actor: bool,
        legal: str | None,
        handler: str,
        verdict: str,
    ) -> None:
        self.name = name
        self.label = label  # English; in other languages through the `ui` catalog
        self.verdict = verdict  # one of VERDICTS
        self.help = help
        self.answers = answers  # what it answers, in a few words (the positions page's table; site catalog)
        self.needs = needs  # question fields it needs besides `ask` (and `faction`)
        self.fields = needs
        self.figures = figures
        self.per_side = per_side  # figures given per side of a Battle ({faction: value})
        self.no_actor = no_actor  # asked about the table, not for a faction
        self.legal = legal  # its probe in the legal-actions report (a method of queries._Legal), if any
        self.handler = handler  # "module:function", imported when first asked
        self._handle: Callable[[Any], Any] | None = None
        caller = sys._getframe(1)  # where the kind is declared, for located messages
        self.path, self.line = caller.f_code.co_filename, caller.f_lineno

    @property
    def where(self) -> str:
        """The declaring module's path, relative to the repository when it is inside it."""
        try:
            return str(Path(self.path).resolve().relative_to(_ROOT))
        except ValueError:
            return self.path

    def resolve(self) -> Callable[[Any], Any]:
        """The handler function; a located RulebookError when ``handler`` names none."""
        if self._handle is None:
            module, sep, func = self.handler.partition(":")
            found: Any = None
            if sep and module and func:
                try:
                    found = getattr(importlib.import_module(module), func, None)
                except ImportError:
                    found = None
            if not callable(found):
                raise RulebookError(
                    [self.problem(f"handler {self.handler!r} names no function (expected 'module:function')")]
                )
            self._handle = found
        return self._handle

    def handle(self, job: Any) -> Any:
        found = self.resolve()(job)
        if self.verdict != "yes-no":  # the question asks for figures, not a yes or no
            found.yes_no = False
        if self.verdict == "none":
            found.verdict = None
        return found

    def problem(self, message: str) -> Problem:
        return Problem(self.where, self.line, f"question kind {self.name!r}: {message}")


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


def labels() -> dict[str, str]:
    """Every declared kind's label, in English (the vocabulary's order)."""
    return {k.name: k.label for k in all_kinds()}


def needs(kind: str) -> tuple[str, ...]:
    found = get(kind)
    return found.needs if found else ()


def figures() -> dict[str, tuple[str, ...]]:
    return {k.name: k.figures for k in all_kinds()}


def per_side() -> frozenset[str]:
    return frozenset(f for k in all_kinds() for f in k.per_side)


def check_kinds(kinds: Iterable[QuestionKind], probes: frozenset[str], named: Callable[[str], bool]) -> list[Problem]:
    """What ``havoc check`` verifies of declared kinds: each handler exists, its legal-actions probe
    is one of ``probes``, its verdict type is known, and every figure has words (``named``)."""
    problems: list[Problem] = []
    for kind in kinds:
        try:
            kind.resolve()
        except RulebookError as exc:
            problems.extend(exc.problems)
        unnamed = [f for f in kind.figures if not named(f)]
        if unnamed:
            problems.append(kind.problem(f"figures without a label in ui.py's figure labels: {', '.join(unnamed)}"))
        if kind.verdict not in VERDICTS:
            problems.append(kind.problem(f"verdict {kind.verdict!r} is none of {', '.join(VERDICTS)}"))
        if kind.legal is not None and kind.legal not in probes:
            problems.append(
                kind.problem(
                    f"legal {kind.legal!r} is no probe of the legal-actions report (known: {', '.join(sorted(probes))})"
                )
            )
    return problems


def check_site_words(kinds: Iterable[QuestionKind]) -> list[Problem]:
    """Each kind's ``answers`` (a cell of the positions page's table) is translated in every site.po."""
    from babel.messages.pofile import read_po

    from havoc.i18n import LANGUAGES, SOURCE_LANGUAGE, locales_root

    kinds = list(kinds)
    problems: list[Problem] = []
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        path = locales_root() / lang / "LC_MESSAGES" / "site.po"
        if not path.is_file():
            continue
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        for kind in kinds:
            found = catalog.get(kind.answers)
            if found is None or not found.string or found.fuzzy:
                problems.append(
                    kind.problem(
                        f"what it answers ({kind.answers!r}) has no {lang} translation in "
                        f"locales/{lang}/LC_MESSAGES/site.po; run `havoc docs --update-catalog` and translate it"
                    )
                )
    return problems


def check(probes: frozenset[str], named: Callable[[str], bool]) -> list[Problem]:
    """Every declared kind's handler, probe, figure words and site words exist (a kind without
    a module: :func:`havoc.game.check`). The game's package passes the report's probes and the
    figure-label test in, so this package imports neither the answering code nor its words."""
    kinds = list(all_kinds())
    return check_kinds(kinds, probes, named) + check_site_words(kinds)


__all__ = [
    "QuestionKind",
    "all_kinds",
    "check",
    "check_kinds",
    "check_site_words",
    "figures",
    "get",
    "labels",
    "needs",
    "per_side",
]
