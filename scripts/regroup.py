"""Regroup src/havoc/ into packages that show its layers (issue 37), and rewrite every reference.

Run from the repository's top folder, on a clean tree: ``python scripts/regroup.py``. For each
entry of :data:`MOVES` it runs ``git mv`` and then rewrites, in every file git tracks, what names
the old module: ``from havoc.x import``, ``from havoc import x``, ``import havoc.x``, ``havoc.x``
in dotted strings (entry points, import-linter contracts, mock targets, the browser worker's
``pyimport``), and ``havoc/x.py`` paths (tests, docs, Makefile, CI). Running it again changes
nothing: a moved module is not moved twice and a rewritten reference no longer matches. It prints
what it moved and which files it rewrote, then sorts the imports it touched with ruff.

The games (src/havoc/games/) stay where they are, by design; only their imports are rewritten.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

# OLD dotted name -> NEW dotted name. Packages move whole; order matters only where a NEW name
# lies inside another move's NEW package (havoc.cli becomes a package before commands go in).
MOVES: dict[str, str] = {
    # core: no havoc import above it; records, bounded I/O, the verified cache, child processes
    "havoc.errors": "havoc.core.errors",
    "havoc.record": "havoc.core.record",
    "havoc.tuples": "havoc.core.tuples",
    "havoc.memo": "havoc.core.memo",
    "havoc.safeio": "havoc.core.safeio",
    "havoc.cache": "havoc.core.cache",
    "havoc.children": "havoc.core.children",
    "havoc.codes": "havoc.core.codes",
    # language: the languages, catalogs read at run time, the text markup, declined names
    "havoc.languages": "havoc.language.languages",
    "havoc.markup": "havoc.language.markup",
    "havoc.i18n": "havoc.language.i18n",
    "havoc.nouns": "havoc.language.nouns",
    "havoc.grammar": "havoc.language.grammar",
    "havoc.pofile": "havoc.language.pofile",
    # formats: reading what people hand havoc, with located problems in their language
    "havoc.yamlio": "havoc.formats.yamlio",
    "havoc.spec": "havoc.formats.spec",
    # engine: the rulebook, conditions, the interpreter, what it knows of games
    "havoc.rulebook": "havoc.engine.rulebook",
    "havoc.interpreter": "havoc.engine.interpreter",
    "havoc.conditions": "havoc.engine.conditions",
    "havoc.game": "havoc.engine.game",
    "havoc.ruledata": "havoc.engine.ruledata",
    "havoc.numbering": "havoc.engine.numbering",
    # assistant: the operations of havoc ask, as Python and as JSON requests (server and phone)
    "havoc.api": "havoc.assistant.api",
    "havoc.webapi": "havoc.assistant.webapi",
    "havoc.examples": "havoc.assistant.examples",
    # cli: the command line and its commands
    "havoc.cli": "havoc.cli",  # cli.py becomes cli/__init__.py (same name)
    "havoc.cliparser": "havoc.cli.parser",
    "havoc.clilang": "havoc.cli.lang",
    "havoc.commands": "havoc.cli.commands",
    # web: the server, the phone's bundle, the security policy both serve
    "havoc.server": "havoc.web.server",
    "havoc.offline": "havoc.web.offline",
    "havoc.webpolicy": "havoc.web.policy",
    # site: the Sphinx site's stubs join the Sphinx extension
    "havoc.sitestubs": "havoc.sphinxext.stubs",
    # the catalog tools behind `havoc catalog` and `havoc check` (they read the CLI's own help)
    "havoc.catalogs": "havoc.cli.catalogs",
    # translation: every translatable string of a ruleset, and Babel's extractor of rule files
    "havoc.messages": "havoc.translation.messages",
    "havoc.extract": "havoc.translation.extract",
}
NEW_PACKAGES = {
    "havoc.core": "Bottom layer: errors, records, bounded I/O, the verified cache, child processes.",
    "havoc.language": "The languages havoc speaks: run-time catalogs, the text markup, declined names.",
    "havoc.formats": "Reading what people hand havoc (YAML with lines, the schema framework).",
    "havoc.engine": "The rules engine: the rulebook model, conditions, the interpreter, games' protocol.",
    "havoc.assistant": "The rules assistant's operations: as Python (api) and as JSON requests (webapi).",
    "havoc.web": "The server, the phone's offline bundle and the security policy both serve.",
    "havoc.translation": "Every translatable string of a ruleset, listed once, and Babel's rule-file extractor.",
}
SRC = Path("src")
TEXT_SUFFIXES = {
    ".py",
    ".pyi",
    ".toml",
    ".cfg",
    ".ini",
    ".md",
    ".rst",
    ".txt",
    ".js",
    ".mjs",
    ".html",
    ".yaml",
    ".yml",
    ".sh",
    ".json",
}
TEXT_NAMES = {"Makefile", "run"}
SKIP = ("scripts/regroup.py", "package-lock.json", "locales/")


def path_of(name: str, package: bool) -> Path:
    """Where module ``name`` lives: its folder when it is a package, else its ``.py`` file."""
    base = SRC.joinpath(*name.split("."))
    return base if package else base.with_suffix(".py")


def is_package(name: str) -> bool:
    return path_of(name, True).is_dir()


def git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def ensure_package(name: str, done: list[str]) -> None:
    """Make ``name``'s folder a package (with a docstring saying what the layer holds)."""
    folder = path_of(name, True)
    init = folder / "__init__.py"
    if init.exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    init.write_text(f'"""{NEW_PACKAGES.get(name, "")}"""\n', encoding="utf-8")
    git("add", str(init))
    done.append(f"created {init}")


def move(old: str, new: str, done: list[str]) -> None:
    """``git mv`` module or package ``old`` to ``new`` (nothing when it was moved already)."""
    if old == new:  # a module becoming a package of the same name (cli.py -> cli/__init__.py)
        source = path_of(old, False)
        if source.is_file():
            target = path_of(new, True) / "__init__.py"
            tmp = source.with_suffix(".py.moving")
            git("mv", str(source), str(tmp))
            target.parent.mkdir(parents=True, exist_ok=True)
            git("mv", str(tmp), str(target))
            done.append(f"moved {source} -> {target}")
        return
    package = is_package(old)
    source = path_of(old, package)
    if not source.exists():
        return
    parent = new.rsplit(".", 1)[0]
    if parent != "havoc":
        ensure_package(parent, done)
    target = path_of(new, package)
    if target.is_dir() and not git("ls-files", str(target)):  # only a stale __pycache__ is there
        shutil.rmtree(target)
    git("mv", str(source), str(target))
    shutil.rmtree(source, ignore_errors=True)  # __pycache__ left behind by git mv
    done.append(f"moved {source} -> {target}")


def renames() -> list[tuple[str, str]]:
    """(old, new) dotted names, longest first so ``havoc.cliparser`` never reads as ``havoc.cli``."""
    return sorted(((o, n) for o, n in MOVES.items() if o != n), key=lambda p: -len(p[0]))


def dotted(text: str) -> str:
    """``havoc.old`` (as a whole dotted name or a prefix of one) -> ``havoc.new``."""
    for old, new in renames():
        text = re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w])", new, text)
    return text


def slashed(text: str) -> str:
    """``havoc/old.py`` and ``havoc/old/`` paths -> the new paths."""
    for old, new in renames():
        o, n = old.replace(".", "/"), new.replace(".", "/")
        text = re.sub(rf"(?<!\w){re.escape(o)}(?=\.py\b|/)", n, text)
        # a module's bytecode: havoc/__pycache__/webapi.cpython-314.pyc
        folder, _, name = n.rpartition("/")
        text = re.sub(
            rf"(?<!\w){re.escape(o.rpartition('/')[0])}/__pycache__/{re.escape(o.rpartition('/')[2])}(?=\.cpython)",
            f"{folder}/__pycache__/{name}",
            text,
        )
    # cli.py is now cli/__init__.py
    return re.sub(r"(?<!\w)havoc/cli\.py\b", "havoc/cli/__init__.py", text)


FROM_HAVOC = re.compile(r"^(?P<indent>[ \t]*)from havoc import (?P<names>\((?:[^()]*)\)|[^\n;\"'#]+)", re.M)
INLINE_FROM_HAVOC = re.compile(r"(?P<lead>[\"';] ?|; |\\n)from havoc import (?P<names>[\w, ]+?)(?=;|\"|'|\\n)")


def split_names(names: str) -> list[str]:
    names = names.strip()
    if names.startswith("("):
        names = names[1:-1]
    names = re.sub(r"#[^\n]*", "", names)
    return [n.strip() for n in names.replace("\n", ",").split(",") if n.strip()]


def target_of(name: str) -> str:
    """The package ``from havoc import name`` must now import ``name`` from."""
    base = name.split(" as ")[0].strip()
    new = MOVES.get(f"havoc.{base}")
    if not new or new == f"havoc.{base}":
        return "havoc"
    return new.rsplit(".", 1)[0]


def renamed_name(name: str) -> str:
    """``x`` or ``x as y`` with ``x`` renamed where the move renames the module itself."""
    base, _, alias = name.partition(" as ")
    base = base.strip()
    new = MOVES.get(f"havoc.{base}", f"havoc.{base}").rsplit(".", 1)[1]
    if new == base:
        return name
    return f"{new} as {alias.strip() or base}"


def from_imports(text: str, python: bool) -> str:
    """``from havoc import a, b`` -> one ``from <package> import`` per package a and b are now in."""

    def groups(names: list[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for name in names:
            out.setdefault(target_of(name), []).append(renamed_name(name))
        return out

    def line(match: re.Match[str]) -> str:
        names = split_names(match["names"])
        by = groups(names)
        if list(by) == ["havoc"]:
            return match[0]
        sep = "\n" + match["indent"] if python else "; "
        return match["indent"] + sep.join(f"from {pkg} import {', '.join(ns)}" for pkg, ns in by.items())

    def inline(match: re.Match[str]) -> str:
        by = groups(split_names(match["names"]))
        if list(by) == ["havoc"]:
            return match[0]
        return match["lead"] + "; ".join(f"from {pkg} import {', '.join(ns)}" for pkg, ns in by.items())

    text = FROM_HAVOC.sub(line, text)
    return INLINE_FROM_HAVOC.sub(inline, text)


def relative_to_package(text: str) -> str:
    """Paths relative to src/havoc/ (pyproject's package data, tests naming a module's file)."""
    for old, new in renames():
        o = old.removeprefix("havoc.").replace(".", "/")
        n = new.removeprefix("havoc.").replace(".", "/")
        # "havoc" / "webapi.py" (pathlib parts), then "rulebook/..." (a package's folder only: a
        # bare "i18n.py" or "cache/" in a test is as often a file or folder of its own)
        text = re.sub(rf"(?<=[\"']havoc[\"'] / [\"']){re.escape(o)}(?=(?:\.py)?[\"'])", n, text)
        if path_of(new, True).is_dir():
            text = re.sub(rf"(?<=[\"'(]){re.escape(o)}(?=/)", n, text)
    return re.sub(r"(?<=[\"']havoc[\"'] / [\"'])cli\.py(?=[\"'])", "cli/__init__.py", text)


def rewrite(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    new = from_imports(text, path.suffix in {".py", ".pyi"})
    new = dotted(new)
    new = slashed(new)
    if path.suffix == ".toml" or path.parts[:1] == ("tests",):
        new = relative_to_package(new)
    if new != text:
        path.write_text(new, encoding="utf-8")
        return True
    return False


def tracked() -> list[Path]:
    out = []
    for name in git("ls-files").splitlines():
        path = Path(name)
        if name.startswith(SKIP) or not path.is_file():
            continue
        if path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES:
            out.append(path)
    return out


def main() -> int:
    if not (SRC / "havoc" / "__init__.py").is_file():
        print("run from the repository's top folder", file=sys.stderr)
        return 2
    done: list[str] = []
    for old, new in MOVES.items():
        move(old, new, done)
    changed = [path for path in tracked() if rewrite(path)]
    for line in done:
        print(line)
    for path in changed:
        print(f"rewrote {path}")
    python = [str(p) for p in changed if p.suffix == ".py"]
    ruff = shutil.which("ruff") or str(Path(".venv/bin/ruff"))
    if python and Path(ruff).exists():
        subprocess.run([ruff, "check", "--quiet", "--select", "I", "--fix", *python], check=False)
        subprocess.run([ruff, "format", "--quiet", *python], check=False)
    if not done and not changed:
        print("nothing to do: the tree is regrouped already")
    return 0


if __name__ == "__main__":
    sys.exit(main())
