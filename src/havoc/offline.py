"""Build step of the site's in-browser assistant and offline cache (``havoc docs`` runs it).

``<site>/_engine/`` gets:

- ``pyodide/``: the WebAssembly CPython from the npm package ``pyodide`` (pinned in
  package.json, installed by ``npm ci``, which this build runs when it finds none), copied, so
  nothing is fetched from a third party at run time; in its standard library the modules the
  engine imports are bytecode instead of source;
- ``engine-<fingerprint>.zip``: havoc's answer path (no site, sheet, server or search code),
  PyYAML's pure-Python package (for pasted YAML positions), ``rules/``, ``locales/`` and a
  verified cache with every ruleset and catalog already validated, so the phone parses no
  YAML and no .po file and Babel stays out of the bundle; and the bytecode of its modules,
  made under Node by Pyodide's own Python (``engine_bytecode.mjs``), so the phone compiles no
  source on start (that halves the engine's start-up CPU time);
- ``engine.json``: which bundle and Pyodide version the page loads, and what was compiled;
  ``worker.js``.

``<site>/sw.js`` is the service worker: it precaches every file of the site (both languages,
every ruleset, the sheets, the search index, the engine) under one version, so a new build
replaces the cache as a whole.

Everything is built beside its final place and swapped in only when complete: a failed build
leaves the previous output.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from havoc import safeio

REPO = Path(__file__).resolve().parents[2]
SRC = Path(__file__).resolve().parent
STATIC = SRC / "sphinxext" / "static"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
# havoc's modules the answer path never imports: the site, the sheets, the server, the CLI and
# the catalog tools (Babel). Search stays: a game's name matching (the chart lines of Advanced
# Cry Havoc 2) folds and stems words with the search's own text functions.
LEFT_OUT = {
    "sphinxext",
    "quickref",
    "server",
    "commands",
    "cli.py",
    "__main__.py",
    "catalogs.py",
    "extract.py",
}
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


class EngineBuildError(Exception):
    """The engine could not be built (Pyodide missing, the cache could not be made)."""


def pyodide_dir() -> Path:
    """``$HAVOC_PYODIDE``, else the repository's ``node_modules/pyodide`` (``npm ci``)."""
    env = os.environ.get("HAVOC_PYODIDE")
    return Path(env) if env else REPO / "node_modules" / "pyodide"


def pyodide_version(folder: Path | None = None) -> str:
    data = json.loads(((folder or pyodide_dir()) / "package.json").read_text(encoding="utf-8"))
    return str(data["version"])


def _bundle_files() -> list[tuple[str, Path]]:
    """(name in the archive, source file) for the engine's code and data."""
    import snowballstemmer
    import yaml

    out: list[tuple[str, Path]] = []
    games_off = _off_answer_path()
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        if rel.parts[0] in LEFT_OUT or path.resolve() in games_off or "__pycache__" in rel.parts:
            continue
        out.append((f"havoc/{rel.as_posix()}", path))
    out += [(name, path) for name, path in _game_packages() if path.resolve() not in games_off]
    yaml_dir = Path(yaml.__file__).parent
    out += [(f"yaml/{p.name}", p) for p in sorted(yaml_dir.glob("*.py"))]
    stem_dir = Path(snowballstemmer.__file__).parent  # pure Python, the stemmer search.text uses
    out += [(f"snowballstemmer/{p.name}", p) for p in sorted(stem_dir.glob("*.py"))]
    from havoc.i18n import locales_root
    from havoc.rulebook import rules_root

    rules = rules_root()
    out += [
        (f"rules/{p.relative_to(rules).as_posix()}", p)
        for p in sorted(rules.rglob("*"))
        if p.is_file() and (p.suffix == ".yaml" or p.name == "default-ruleset") and not p.name.startswith(".")
    ]
    locales = locales_root()
    out += [(f"locales/{p.relative_to(locales).as_posix()}", p) for p in sorted(locales.glob("*/LC_MESSAGES/*.po"))]
    return out


def _game_modules() -> set[str]:
    """Every game package havoc knows: those shipped with it and those its rulesets name."""
    from havoc import game, rulebook

    named = {rulebook.load(name).game for name in rulebook.ruleset_names()}
    return set(game.installed()) | {module for module in named if module}


def _off_answer_path() -> set[Path]:
    """The files of the modules each game declares off its answer path (its commands, its site
    pages: ``OFF_ANSWER_PATH``), which the phone never imports."""
    import importlib.util

    from havoc import game

    out: set[Path] = set()
    for module in sorted(_game_modules()):
        for name in game.off_answer_path(game.load(module, module)):
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.origin is not None:
                out.add(Path(spec.origin).resolve())
    return out


def _game_packages() -> list[tuple[str, Path]]:
    """The game packages of rulesets whose game lives outside havoc (a game is its rules folder
    plus a package; the phone needs the package wherever it was installed)."""
    import importlib.util

    from havoc import rulebook

    out: list[tuple[str, Path]] = []
    seen: set[str] = set()
    for name in rulebook.ruleset_names():
        top = (rulebook.load(name).game or "").split(".")[0]
        if not top or top == "havoc" or top in seen:
            continue
        seen.add(top)
        spec = importlib.util.find_spec(top)
        if spec is None or spec.origin is None:
            continue
        origin = Path(spec.origin)
        if spec.submodule_search_locations:  # a package: every module under it
            base = origin.parent
            out += [
                (f"{top}/{p.relative_to(base).as_posix()}", p)
                for p in sorted(base.rglob("*.py"))
                if "__pycache__" not in p.parts
            ]
        else:
            out.append((origin.name, origin))
    return out


def build_bundle(stage: Path, stdlib_out: Path) -> tuple[bytes, dict[str, Any]]:
    """The engine archive: the files laid out in ``stage``, its cache warmed there by this very
    code (the cache keys hash the staged files), its bytecode made by Pyodide's Python (and
    ``stdlib_out``: see :func:`compile_bytecode`), then zipped in a fixed order with fixed dates.
    Returns the archive and what :func:`compile_bytecode` compiled."""
    shutil.rmtree(stage, ignore_errors=True)
    for name, src in _bundle_files():
        dest = stage / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAVOC_")}
    env["PYTHONPATH"] = "."
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    proc = subprocess.run(
        [sys.executable, "-s", "-c", "from havoc import webapi; webapi.setup('.'); webapi.warm()"],
        cwd=stage,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        raise EngineBuildError(f"the engine's cache could not be made:\n{proc.stderr.strip()}")
    games = {name.split("/")[0].removesuffix(".py") for name, _src in _game_packages()}
    compiled = compile_bytecode(stage, stdlib_out, ["havoc", *sorted(games)])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(p for p in stage.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(stage).as_posix(), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            zf.writestr(info, path.read_bytes())
    return buf.getvalue(), compiled


def compile_bytecode(stage: Path, stdlib_out: Path, packages: list[str]) -> dict[str, Any]:
    """Bytecode for the phone, made under Node by Pyodide's own Python (``engine_bytecode.mjs``):
    ``__pycache__`` beside every module of ``packages`` (havoc and the games) and beside the other
    modules of the staged bundle the engine imports, and ``stdlib_out``, Pyodide's standard
    library with the modules the engine imports as bytecode instead of source. Without it the
    phone compiles every module from source on each start (seconds of CPU)."""
    node = shutil.which("node")
    if node is None:
        raise EngineBuildError("Node is not installed: run scripts/ensure-system-deps")
    proc = subprocess.run(
        [
            node,
            str(SRC / "engine_bytecode.mjs"),
            str(pyodide_dir()),
            str(stage.resolve()),
            str(stdlib_out),
            ",".join(packages),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        raise EngineBuildError(f"the engine's bytecode could not be made:\n{proc.stderr.strip()[-3000:]}")
    counts: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return counts


def build_engine(top: Path) -> Path:
    """``top/_engine``: Pyodide, the bundle, its manifest and the worker; swapped in when complete."""
    source = pyodide_dir()
    missing = [n for n in PYODIDE_FILES if not (source / n).is_file()]
    if missing and "HAVOC_PYODIDE" not in os.environ and shutil.which("npm") and (REPO / "package-lock.json").is_file():
        # a checkout without node_modules/ (a fresh clone, a new worktree): the pinned, locked install
        proc = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"], cwd=REPO, capture_output=True, text=True, check=False
        )
        if proc.returncode:
            raise EngineBuildError(f"`npm ci` failed:\n{(proc.stderr or proc.stdout).strip()[-2000:]}")
        missing = [n for n in PYODIDE_FILES if not (source / n).is_file()]
    if missing:
        raise EngineBuildError(
            f"Pyodide is not installed in {source} (missing {', '.join(missing)}): run `npm ci` in the project folder"
        )
    stage = top / ".building-engine"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, stage / "pyodide" / name)
    bundle, compiled = build_bundle(top / ".building-engine-files", stage / "pyodide" / "python_stdlib.zip")
    shutil.rmtree(top / ".building-engine-files", ignore_errors=True)
    name = f"engine-{hashlib.blake2b(bundle, digest_size=8).hexdigest()}.zip"
    (stage / name).write_bytes(bundle)
    shutil.copyfile(STATIC / "havoc-engine-worker.js", stage / "worker.js")
    manifest = {"bundle": name, "pyodide": pyodide_version(source), "bytecode": compiled}
    (stage / "engine.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    final = top / "_engine"
    old = top / ".old-engine"
    shutil.rmtree(old, ignore_errors=True)
    if final.exists():
        os.replace(final, old)
    os.replace(stage, final)
    shutil.rmtree(old, ignore_errors=True)
    return final


def site_files(top: Path) -> list[str]:
    """Every file a reader may open, relative to ``top`` (no dot-files, build folders, sources)."""
    out = []
    for path in sorted(top.rglob("*")):
        rel = path.relative_to(top)
        if not path.is_file() or any(p.startswith(".") or p == "_sources" for p in rel.parts):
            continue
        if rel.as_posix() in ("sw.js", "objects.inv") or rel.name == "objects.inv":
            continue
        out.append(rel.as_posix())
    return out


def write_service_worker(top: Path) -> Path:
    """``top/sw.js``: the precache list (each file with a digest of its bytes, so a new build copies
    unchanged files from the old cache) and a version that changes with any file's bytes."""
    files = [[rel, hashlib.blake2b((top / rel).read_bytes(), digest_size=12).hexdigest()] for rel in site_files(top)]
    h = hashlib.blake2b(digest_size=8)
    for rel, digest in files:
        h.update(f"{rel}\0{digest}\0".encode())
    template = (STATIC / "havoc-sw.js").read_text(encoding="utf-8")
    text = template.replace('"@VERSION@"', json.dumps(h.hexdigest())).replace(
        "[/*@FILES@*/]", json.dumps(files, ensure_ascii=False, separators=(",", ":")).replace("],[", "],\n[")
    )
    path = top / "sw.js"
    safeio.write_text(path, text)
    return path
