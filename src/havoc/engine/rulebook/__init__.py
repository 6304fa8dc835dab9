"""Load, validate and cache a ruleset from ``rules/``; the typed model every view reads."""

from __future__ import annotations

import os
import sys

import havoc
from havoc import TYPE_CHECKING
from havoc.core import sealed
from havoc.core.errors import Code, Problem, RulebookError
from havoc.core.safeio import plain_path as _plain
from havoc.engine.rulebook import stored
from havoc.language.markup import is_id as _is_name

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from havoc.engine.rulebook.model import Check, Example, Overlay, ParamDef, Part, Rule, Ruleset, Section, Term, View

# The model's classes, imported when first named (``from havoc.engine.rulebook import Ruleset``) or when a
# cached ruleset is read: a command that needs only the rules' fingerprint (``havoc lookup``) never
# builds them.
_MODEL = frozenset({"Check", "Example", "Overlay", "ParamDef", "Part", "Rule", "Ruleset", "Section", "Term", "View"})


def __getattr__(name: str) -> Any:
    if name in _MODEL:
        from havoc.engine.rulebook import model

        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The ruleset commands use when none is named is data: the one line of ``rules/default-ruleset``.
DEFAULT_FILE = "default-ruleset"


def _with_ruleset(root: str | Path) -> list[str]:
    """The folders under ``root`` holding a ruleset.yaml, by name (listed, not ``Path.glob``:
    no pattern is compiled on every start-up); in a sealed bundle, which ships no rule files,
    those the build recorded (:mod:`havoc.core.sealed`)."""
    if sealed.active():
        top = os.fspath(root)
        return sorted(os.path.basename(f) for f in sealed.names("rules") if os.path.dirname(f) == top)
    return sorted(n for n in os.listdir(root) if os.path.exists(os.path.join(root, n, "ruleset.yaml")))


def _is_ruleset(folder: str) -> bool:
    """Whether ``folder`` holds a ruleset (its ruleset.yaml; sealed: one the build recorded)."""
    if sealed.active():
        return folder in sealed.names("rules")
    return os.path.isfile(os.path.join(folder, "ruleset.yaml"))


def default_ruleset(root: Path | None = None) -> str:
    """The name in ``<rules>/default-ruleset``, else the only (or first) ruleset folder."""
    return _default(_plain(root) if root else _root())


def _default(root: str) -> str:
    try:
        with open(os.path.join(root, DEFAULT_FILE), encoding="utf-8") as fh:
            name = fh.read().strip()
    except (OSError, UnicodeDecodeError):
        name = ""
    if name:
        return name
    try:
        found = _with_ruleset(root)
    except OSError:
        found = []
    return found[0] if found else ""


_memo: dict[tuple[str, str], Ruleset] = {}


def load_ruleset(folder: Path) -> Ruleset:
    """Read and validate a ruleset folder, bypassing every cache."""
    from havoc.engine.rulebook.loader import load_ruleset as _load

    return _load(folder)


def rules_root() -> Path:
    """The ``rules/`` folder: ``$HAVOC_RULES``, else the repository's, else ``./rules``."""
    from pathlib import Path

    return Path(_root())


def _root() -> str:
    """:func:`rules_root`, as a string."""
    env = os.environ.get("HAVOC_RULES")
    if env:
        return _plain(env)
    here = os.path.realpath(havoc.__file__)  # <repo>/src/havoc/__init__.py
    repo = os.path.join(here.rsplit(os.sep, 3)[0], "rules")
    if os.path.isfile(os.path.join(repo, DEFAULT_FILE)):
        return repo
    return os.path.join(os.getcwd(), "rules")


def root_problem(root: str | Path | None = None) -> Problem | None:
    """What is wrong with the rules folder, if anything: missing, a file, or holding no ruleset.

    Said in the message language, naming ``HAVOC_RULES`` when that is where the folder came from:
    a mistyped path must not come back as a puzzle about a ruleset name nobody typed."""
    top = _plain(root) if root else _root()
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    env = os.environ.get("HAVOC_RULES")
    told = bool(env) and top == _plain(env or "")
    if os.path.isdir(top):
        try:
            if _with_ruleset(top):
                return None
        except OSError:
            pass  # unreadable: as good as empty to whoever asked for its rules
        if told:
            said = ui("HAVOC_RULES names a folder that holds no ruleset (no folder in it has a ruleset.yaml)", lang)
        else:
            said = ui("the rules folder holds no ruleset (no folder in it has a ruleset.yaml)", lang)
    elif os.path.exists(top):
        if told:
            said = ui("HAVOC_RULES names a file; it must name the folder that holds the rulesets", lang)
        else:
            said = ui("the rules folder is a file, not a folder", lang)
    elif told:
        said = ui("HAVOC_RULES names a folder that does not exist; set it to the folder that holds the rulesets", lang)
    else:
        said = ui("there is no rules folder here; run havoc in the project's folder or set HAVOC_RULES", lang)
    return Problem(top, None, said, code=Code.RULESET_UNKNOWN)


def require_rules(root: Path | None = None) -> None:
    """Raise a :class:`RulebookError` (exit 1) naming the rules folder when it has no ruleset."""
    problem = root_problem(root)
    if problem is not None:
        raise RulebookError([problem])


def ruleset_names(root: Path | None = None) -> list[str]:
    """Every ruleset folder under the rules folder: the default first, then by name."""
    top = _plain(root) if root else _root()
    try:
        found = _with_ruleset(top)
    except OSError:
        found = []
    default = _default(top)
    return [default, *(n for n in found if n != default)] if default in found else found


def site_path(name: str, root: Path | None = None) -> str:
    """Where a ruleset's site and sheets go under the output folder: the default at the top,
    every other ruleset in a folder of its own name (``build/site/advanced-cry-havoc/en/``)."""
    return "" if name == default_ruleset(root) else name


class UnknownRuleset(RulebookError):
    """The ruleset named is neither a folder under the rules root nor a folder with ruleset.yaml."""


def ruleset_folder(ruleset: str, root: Path | None = None) -> Path:
    """The folder of ``ruleset``: a name under the rules root, or a path holding ``ruleset.yaml``.

    Never a walk of an arbitrary folder: ``--ruleset /`` is refused before anything is read.
    """
    from pathlib import Path

    return Path(_folder(ruleset, _plain(root) if root else None))


def _folder(ruleset: str, root: str | None = None) -> str:
    """:func:`ruleset_folder`, as a string."""
    if ruleset == "":  # no ruleset named and no default: most likely no rules folder at all
        problem = root_problem(root)
        if problem is not None:
            raise UnknownRuleset([problem])
    root = root or _root()
    if not isinstance(ruleset, str) or not ruleset or "\0" in ruleset:
        raise UnknownRuleset(
            [Problem("ruleset", None, f"expected a ruleset name, found {ruleset!r}", code=Code.RULESET_UNKNOWN)]
        )
    folder = _plain(os.path.join(root, ruleset)) if _is_name(ruleset) else _plain(ruleset)
    try:
        ok = _is_ruleset(folder)
    except (OSError, ValueError):
        ok = False
    if ok:
        return folder
    from pathlib import Path

    under = Path(root)
    known = sorted(p.parent.name for p in under.glob("*/ruleset.yaml")) if under.is_dir() else []
    listed = f"; rulesets under {under}: {', '.join(known)}" if known else ""
    raise UnknownRuleset(
        [
            Problem(
                "ruleset",
                None,
                f"no ruleset {ruleset!r}: expected a folder name under the rules folder, "
                f"or a path to a folder holding ruleset.yaml{listed}",
                code=Code.RULESET_UNKNOWN,
            )
        ]
    )


def load(ruleset: str | None = None, root: Path | None = None, use_cache: bool = True) -> Ruleset:
    """The validated ruleset (the default one when none is named), from the in-process memo or the
    disk cache when unchanged."""
    top = _plain(root) if root else _root()
    folder = _folder(ruleset or _default(top), top)
    snapshot, key = stored.keyed(folder)  # the rules are built from the bytes their key is made of
    memo = _memo.get((folder, key))
    if memo is not None and use_cache:
        return memo
    result = stored.read(folder, key) if use_cache else None
    if result is None and snapshot is None and not sealed.active():  # a key from stat facts: read the files now
        snapshot, key = stored.keyed(folder, read=True)
        result = stored.read(folder, key) if use_cache else None
    if result is None:
        if snapshot is None:  # sealed: no rule files to fall back on
            raise sealed.SealedError(f"the sealed bundle's cache has no valid entry for the ruleset {folder}")
        from pathlib import Path

        from havoc.engine.rulebook.loader import load_ruleset as _load

        result = _load(Path(folder), snapshot)  # the YAML parser is imported only on a cache miss
        result.fingerprint = key
        result.content = snapshot.content()
        if use_cache:
            stored.write(folder, result)
    _memo[(folder, key)] = result
    _latest[folder] = result
    return result


_latest: dict[str, Ruleset] = {}


def fingerprint(ruleset: str | None = None, root: Path | None = None) -> str:
    """The fingerprint :func:`load` would give the ruleset as its files are now, without loading it."""
    top = _plain(root) if root else _root()
    return stored.fingerprint(_folder(ruleset or _default(top), top))


def loaded(ruleset: str, root: Path | None = None) -> Ruleset:
    """The ruleset as this process last loaded it (else loaded now): for what is read once per
    process, such as a game's vocabulary, so that the files just read and hashed by :func:`load`
    are not read and hashed again."""
    found = _latest.get(_folder(ruleset, _plain(root) if root else None))
    return found if found is not None else load(ruleset, root)


# --- a game's question kinds: the modules of its kinds/ folder, found without importing it ------
# Which question kinds a game answers, found without importing the game: its ``kinds/`` folder.
#
# A game package that answers questions may keep one module per question kind in a ``kinds/``
# package (Cry Havoc's ``havoc/games/cry_havoc/kinds/move.py`` answers ``ask: move``). The list
# of kinds is then the folder's listing, never a copy kept by hand: a new kind is a new module.
# The order the kinds are listed in (``havoc ask --help``, the answers' JSON Schema, the positions
# page's table) is each kind's own ``order=`` number in its declaration (``KIND = QuestionKind(…,
# order=10)``), then the name; the number is read from the module's text, so listing the kinds
# imports none of them (start-up time; the rulebook imports no game). A game whose vocabulary
# lists ``question-kinds`` (the test fixtures' small games) keeps that list instead.
#
# The folder is found from the game's dotted name through its top package's ``__path__`` (the
# file system, no import): that works from a checkout, an installed copy and the browser's
# bundle, which ships the sources of the game's modules.

KINDS_FOLDER = "kinds"  # the package of a game that holds one module per question kind

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
        folder = os.path.join(base, *rest, KINDS_FOLDER)
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


def declared_kinds(game: str) -> tuple[str, ...]:
    """The question kinds ``game`` declares, one per module of its kinds folder, in their order
    (each module's ``order=``, then the name; a module without a number comes after those with
    one). Empty when the game has no kinds folder. A sealed bundle ships the modules' bytecode,
    not their text: there the build's list (:mod:`havoc.core.sealed`)."""
    return tuple(sealed.value("kinds", game, lambda: list(_remembered_kinds(game))))


def _remembered_kinds(game: str) -> tuple[str, ...]:
    """:func:`_declared_kinds`, which reads every kind's module, or what it found before while the
    modules' stat facts vouch for it (:func:`havoc.core.cache.remembered`): reading them was a
    measurable part of every short answer."""
    from havoc.core import cache

    folder = kinds_folder(game)
    if folder is None:
        return ()
    entries = _kind_modules(folder)
    found = cache.remembered(
        f"kinds\0{game}",
        [os.path.join(folder, e) for e in entries],
        lambda: "\0".join(_declared_kinds(folder, entries)),
    )
    return tuple(found.split("\0")) if found else ()


def _kind_modules(folder: str) -> list[str]:
    """The names of the kinds' modules in ``folder`` (listed, in the order the system lists them)."""
    return [e for e in os.listdir(folder) if e.endswith(".py") and not e.startswith("_")]


def _declared_kinds(folder: str, entries: list[str]) -> tuple[str, ...]:
    found: list[tuple[int, int, str]] = []
    for entry in entries:
        try:
            with open(os.path.join(folder, entry), encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            text = ""  # unreadable: listed last, and the kind's check says why it does not load
        order = order_of(text)
        found.append((order is None, order or 0, entry[:-3].replace("_", "-")))
    return tuple(name for _none, _order, name in sorted(found))


__all__ = [
    "Check",
    "Example",
    "Overlay",
    "ParamDef",
    "Part",
    "Rule",
    "RulebookError",
    "Ruleset",
    "Section",
    "Term",
    "View",
    "declared_kinds",
    "fingerprint",
    "kinds_folder",
    "load",
    "load_ruleset",
    "loaded",
    "order_of",
    "rules_root",
]
