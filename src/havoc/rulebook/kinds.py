"""Which question kinds a game answers, found without importing the game: its ``kinds/`` folder.

A game package that answers questions may keep one module per question kind in a ``kinds/``
package (Cry Havoc's ``havoc/games/cry_havoc/kinds/move.py`` answers ``ask: move``). The list
of kinds is then the folder's listing, never a copy kept by hand: a new kind is a new module.
The order the kinds are listed in (``havoc ask --help``, the answers' JSON Schema, the positions
page's table) is each kind's own ``order=`` number in its declaration (``KIND = QuestionKind(…,
order=10)``), then the name; the number is read from the module's text, so listing the kinds
imports none of them (start-up time; the rulebook imports no game). A game whose vocabulary
lists ``question-kinds`` (the test fixtures' small games) keeps that list instead.

The folder is found from the game's dotted name through its top package's ``__path__`` (the
file system, no import): that works from a checkout, an installed copy and the browser's
bundle, which ships the sources of the game's modules.
"""

from __future__ import annotations

import os
import sys

FOLDER = "kinds"  # the package of a game that holds one module per question kind

# A kind's order number in its declaration: after `KIND = QuestionKind(`, `order=<digits>`
# (read with str methods: `re` is not imported on the answer path, start-up time).
_DECLARATION = "\nKIND = QuestionKind("
_ORDER = "order="


def kinds_folder(game: str) -> str | None:
    """The folder of ``game``'s kinds package (``…/cry_havoc/kinds``), or None when it has none."""
    if not game:
        return None
    top, *rest = game.split(".")
    package = sys.modules.get(top)
    bases = list(getattr(package, "__path__", ())) if package is not None else []
    if not bases:
        bases = [os.path.join(p or ".", top) for p in sys.path]
    for base in bases:
        folder = os.path.join(base, *rest, FOLDER)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return folder
    return None


def order_of(text: str) -> int | None:
    """The ``order=`` number a kind's module declares (its text), or None when it gives none."""
    at = text.find(_DECLARATION)
    while at >= 0:
        at = text.find(_ORDER, at + 1)
        if at > 0 and not (text[at - 1].isalnum() or text[at - 1] == "_"):
            digits = text[at + len(_ORDER) :].split(",", 1)[0].split(")", 1)[0].split("#", 1)[0].strip()
            return int(digits) if digits.isdigit() else None
    return None


def module_file(folder: str, kind: str) -> str:
    """The module of ``kind`` in a kinds folder (``end-of-move`` -> ``end_of_move.py``)."""
    return os.path.join(folder, f"{kind.replace('-', '_')}.py")


def declared_kinds(game: str) -> tuple[str, ...]:
    """The question kinds ``game`` declares, one per module of its kinds folder, in their order
    (each module's ``order=``, then the name; a module without a number comes after those with
    one). Empty when the game has no kinds folder."""
    folder = kinds_folder(game)
    if folder is None:
        return ()
    found: list[tuple[int, int, str]] = []
    for entry in os.listdir(folder):
        if not entry.endswith(".py") or entry.startswith("_"):
            continue
        try:
            with open(os.path.join(folder, entry), encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            text = ""  # unreadable: listed last, and the kind's check says why it does not load
        order = order_of(text)
        found.append((order is None, order or 0, entry[:-3].replace("_", "-")))
    return tuple(name for _none, _order, name in sorted(found))


__all__ = ["FOLDER", "declared_kinds", "kinds_folder", "module_file", "order_of"]
