"""Load, validate and cache a ruleset from ``rules/``; the typed model every view reads."""

from __future__ import annotations

import os
from pathlib import Path

from havoc.errors import Problem, RulebookError
from havoc.rulebook import cache
from havoc.rulebook.model import Check, Example, Overlay, ParamDef, Part, Rule, Ruleset, Section, Term, View

DEFAULT_RULESET = "cry-havoc"

_memo: dict[tuple[Path, str], Ruleset] = {}


def load_ruleset(folder: Path) -> Ruleset:
    """Read and validate a ruleset folder, bypassing every cache."""
    from havoc.rulebook.loader import load_ruleset as _load

    return _load(folder)


def rules_root() -> Path:
    """The ``rules/`` folder: ``$HAVOC_RULES``, else the repository's, else ``./rules``."""
    env = os.environ.get("HAVOC_RULES")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[3] / "rules"
    if (repo / "facts.yaml").is_file():
        return repo
    return Path.cwd() / "rules"


def load(ruleset: str = DEFAULT_RULESET, root: Path | None = None, use_cache: bool = True) -> Ruleset:
    """The validated ruleset, from the in-process memo or the disk cache when unchanged."""
    folder = (root or rules_root()) / ruleset
    if not folder.is_dir():
        raise RulebookError([Problem(str(folder), None, f"no ruleset folder {ruleset!r} here")])
    key = cache.fingerprint(folder)
    memo = _memo.get((folder, key))
    if memo is not None and use_cache:
        return memo
    result = cache.read(folder, key) if use_cache else None
    if result is None:
        result = load_ruleset(folder)  # the YAML parser is imported only on a cache miss
        result.fingerprint = key
        if use_cache:
            cache.write(folder, result)
    _memo[(folder, key)] = result
    return result


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
    "load",
    "load_ruleset",
    "rules_root",
]
