"""Build step of the site's in-browser assistant and offline cache (``havoc docs`` runs it).

``<site>/_engine/`` gets:

- ``pyodide/``: the WebAssembly CPython from the npm package ``pyodide`` (pinned in
  package.json, installed by ``npm ci``, which this build runs when it finds none), copied, so
  nothing is fetched from a third party at run time; in its standard library the modules the
  engine imports are bytecode instead of source;
- ``engine-<fingerprint>.zip``: havoc's answer path (no site, sheet, server or search code),
  PyYAML's pure-Python package (for pasted YAML positions) and a verified cache with every
  ruleset and catalog already validated, so the phone parses no YAML and no .po file and Babel
  stays out of the bundle; and the bytecode of its modules, made under Node by Pyodide's own
  Python (``engine_bytecode.mjs``), so the phone compiles no source on start (that halves the
  engine's start-up CPU time). It is sealed (:func:`seal`, :mod:`havoc.core.sealed`): the keys
  and listings the engine would derive from the sources are in its ``sealed.json``, and the
  sources (``.py`` beside ``.pyc``, ``.po``, the rules' YAML) are left out;
- ``engine.json``: which bundle and Pyodide version the page loads, and what was compiled;
  ``worker.js``.

``<site>/sw.js`` is the service worker: it precaches every file of the site (both languages,
every ruleset, the sheets, the search index, the engine) under one version, so a new build
replaces the cache as a whole; it lists each file's SHA-256 and keeps no file whose bytes differ
(a host halfway through a deploy, a download cut short), and ``engine.json`` gives the bundle's,
which the engine's worker checks.

Everything is built beside its final place and swapped in only when complete: a failed build
leaves the previous output. The step is incremental (:func:`build_engine`): left as it is when
nothing it is made from changed; after an edit of rules or catalogs only, the bytecode (the Node
run, most of the step's CPU) comes from havoc's verified cache, and the result is the same, byte
for byte, as a clean build's (unless the edit changes which modules the engine imports: see
:func:`bytecode_key`); ``havoc docs --clean`` makes everything afresh.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import havoc
from havoc.core import children, safeio

# The package's own folder, not this module's: where a module sits inside the package is free.
REPO = Path(havoc.__file__).resolve().parents[2]
SRC = Path(havoc.__file__).resolve().parent
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
# Modules (and packages, with everything in them) the phone never imports, by dotted name.
LEFT_OUT = (
    "havoc.sphinxext",
    "havoc.quickref",
    "havoc.web.server",
    "havoc.cli.commands",
    "havoc.cli",
    "havoc.__main__",
    "havoc.cli.catalogs",
    "havoc.translation.extract",
    "havoc.web.policy",
)
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
# Pyodide's files the worker fetches (besides the bundle) and counts for the page's progress line
DOWNLOADED = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


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
        if _left_out(rel.with_suffix("").parts) or path.resolve() in games_off or "__pycache__" in rel.parts:
            continue
        out.append((f"havoc/{rel.as_posix()}", path))
    out += [(name, path) for name, path in _game_packages() if path.resolve() not in games_off]
    yaml_dir = Path(yaml.__file__).parent
    out += [(f"yaml/{p.name}", p) for p in sorted(yaml_dir.glob("*.py"))]
    out += _stemmer_files(Path(snowballstemmer.__file__).parent)
    from havoc.engine.rulebook import rules_root
    from havoc.language.i18n import locales_root

    rules = rules_root()
    out += [
        (f"rules/{p.relative_to(rules).as_posix()}", p)
        for p in sorted(rules.rglob("*"))
        if p.is_file() and (p.suffix == ".yaml" or p.name == "default-ruleset") and not p.name.startswith(".")
    ]
    locales = locales_root()
    out += [(f"locales/{p.relative_to(locales).as_posix()}", p) for p in sorted(locales.glob("*/LC_MESSAGES/*.po"))]
    return out


def _stemmer_files(folder: Path) -> list[tuple[str, Path]]:
    """The pure-Python Snowball stemmers ``havoc.search.text`` imports, by name, for the languages
    havoc speaks (with the package's shared modules), not the other 30-odd languages'."""
    from havoc.search.text import STEMMER_NAMES

    spoken = {f"{name}_stemmer.py" for name in STEMMER_NAMES.values()}
    return [
        (f"snowballstemmer/{p.name}", p)
        for p in sorted(folder.glob("*.py"))
        if not p.name.endswith("_stemmer.py") or p.name in spoken
    ]


def _game_modules() -> set[str]:
    """Every game package havoc knows: those shipped with it and those its rulesets name."""
    from havoc.engine import game, rulebook

    named = {rulebook.load(name).game for name in rulebook.ruleset_names()}
    return set(game.installed()) | {module for module in named if module}


def _left_out(parts: tuple[str, ...]) -> bool:
    """Whether the module at ``parts`` (its path inside the package) is in :data:`LEFT_OUT`."""
    name = ".".join(("havoc", *parts)).removesuffix(".__init__")
    return any(name == out or name.startswith(out + ".") for out in LEFT_OUT)


def _off_answer_path() -> set[Path]:
    """The files of the modules each game declares off its answer path (its commands, its site
    pages: ``OFF_ANSWER_PATH``), which the phone never imports."""
    import importlib.util

    from havoc.engine import game

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

    from havoc.engine import rulebook

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


# The bundle's cache warmed by the staged code itself (the folder it runs in comes first on the
# path), except for PyYAML: the installed one, with its LibYAML parser where there is one, reads
# the rules in half the time of the bundle's pure-Python copy and gives the same data (the
# server and the command line read them with it too). It records, with every source there, what
# the engine derives from them (the keys of the cache's entries, the rulesets, games and kinds:
# havoc.core.sealed) into the bundle's manifest, so the sealed bundle ships none of them.
WARM = """import sys
here = sys.path.pop(0)
try:
    import yaml
except ImportError:
    pass
sys.path.insert(0, here)
from havoc.core import sealed
sealed.record()
from havoc.assistant import webapi
webapi.setup(".")
webapi.warm()
from havoc.engine import game, rulebook
game.installed()
for name in rulebook.ruleset_names():
    rulebook.fingerprint(name)
    rulebook.declared_kinds(rulebook.load(name).game)
sealed.write(".")
"""


def build_bundle(
    stage: Path,
    stdlib_out: Path,
    files: list[tuple[str, bytes]] | None = None,
    packages: list[str] | None = None,
    reuse: bool = True,
    key: str = "",
) -> tuple[bytes, dict[str, Any]]:
    """The engine archive: ``files`` (default: :func:`_bundle_files`, read now) laid out in
    ``stage``, its cache warmed there by this very code (the cache keys hash the staged files),
    its bytecode made by Pyodide's Python (and ``stdlib_out``: see :func:`compile_bytecode`) or,
    with ``reuse``, taken from havoc's verified cache when nothing it is made from changed (see
    :func:`bytecode_key`), then zipped in a fixed order with fixed dates. Returns the archive and
    what :func:`compile_bytecode` compiled."""
    if files is None:
        files = [(name, path.read_bytes()) for name, path in _bundle_files()]
    if packages is None:
        packages = engine_packages()
    shutil.rmtree(stage, ignore_errors=True)
    for name, data in files:
        dest = stage / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    _bundle_cache_key(stage / "cache", files)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAVOC_") and k != "PYTHONPATH"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"  # a set in an entry is marshalled in one order on every build
    proc = subprocess.run(
        [sys.executable, "-s", "-c", WARM],
        cwd=stage,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        **children.popen_options(),  # ends with havoc docs, however that ends
    )
    if proc.returncode:
        raise EngineBuildError(f"the engine's cache could not be made:\n{proc.stderr.strip()}")
    key = key or bytecode_key(files, packages)
    compiled = _cached_bytecode(key, stage, stdlib_out) if reuse else None
    if compiled is None:
        compiled = compile_bytecode(stage, stdlib_out, packages)
        _keep_bytecode(key, stage, stdlib_out, compiled)
    compiled = {**compiled, "left_out": seal(stage)}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(p for p in stage.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(stage).as_posix(), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            zf.writestr(info, path.read_bytes())
    return buf.getvalue(), compiled


def seal(stage: Path) -> int:
    """Leave out of the staged bundle, once its cache is warm, its bytecode made and its manifest
    written (:mod:`havoc.core.sealed`), every source the engine then never reads: each module's
    ``.py`` where it has bytecode (which takes the source's place: ``__pycache__/x.<tag>.pyc``
    becomes ``x.pyc``, which Python imports without a source), the catalogs' ``.po`` and the rules'
    YAML (their validated forms are in the cache; ``rules/default-ruleset`` stays, a few bytes read
    on each start). A module kept as source alone (one the engine was never seen to import) still
    imports. How many files went."""
    gone = 0
    for pyc in sorted(stage.rglob("__pycache__/*.pyc")):
        source = pyc.parent.parent / f"{pyc.name.split('.')[0]}.py"
        if source.is_file():
            source.unlink()
            gone += 1
        pyc.replace(source.with_suffix(".pyc"))
    for folder in sorted(stage.rglob("__pycache__"), reverse=True):
        folder.rmdir()
    for path in sorted((stage / "locales").rglob("*.po")) + sorted((stage / "rules").rglob("*.yaml")):
        path.unlink()
        gone += 1
    for folder in sorted((p for p in stage.rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
    return gone


def engine_packages() -> list[str]:
    """The packages whose every module gets bytecode: havoc, the games installed elsewhere, and
    the stemmers (imported by name when a game matches names, which the build's run never asks)."""
    games = sorted({name.split("/")[0].removesuffix(".py") for name, _src in _game_packages()})
    return ["havoc", *games, "snowballstemmer"]


def _bundle_cache_key(folder: Path, files: list[tuple[str, bytes]]) -> None:
    """The key of the bundle's own cache (``cache/key``), made from the bundle's files instead of
    at random, so the same files give the same archive byte for byte (a build that changed
    nothing gives the phone nothing new to download). The key ships inside a public archive, so
    it keeps nothing secret there whichever way it is made: its tags only catch a damaged entry."""
    h = hashlib.blake2b(b"havoc engine bundle cache key", digest_size=32)
    for name, data in files:
        h.update(_chunk(name.encode()) + _chunk(data))
    folder.mkdir(mode=0o700, parents=True)
    os.chmod(folder, 0o700)
    fd = os.open(folder / "key", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(h.digest())


def _chunk(data: bytes) -> bytes:
    return len(data).to_bytes(8, "little") + data


def _exercised() -> bytes:
    """What ``engine_bytecode.mjs`` asks the engine (the default ruleset's stored examples): with
    the code, it decides which modules are imported and so get bytecode."""
    from havoc.engine import rulebook
    from havoc.formats.spec import plain

    name = rulebook.default_ruleset()
    rs = rulebook.load(name)
    asked = [[rule.id, plain(ex.query), plain(ex.position)] for rule in rs.rules.values() for ex in rule.examples]
    return json.dumps([name, asked], sort_keys=True, default=str).encode()


def bytecode_key(files: list[tuple[str, bytes]], packages: list[str]) -> str:
    """The cache key of the bytecode :func:`compile_bytecode` makes: every Python source of the
    bundle (the bytes each ``.pyc`` is made from), Pyodide's files (its Python compiles them, and
    its standard library is rewritten), the Node script and this module (how), the packages
    compiled whole, and the questions the script asks (which modules the engine imports).

    Left out, on purpose: the rest of ``rules/`` and ``locales/`` (a rule's wording, a
    translation), so a one-word edit reuses the bytecode. Such an edit could in principle make
    the engine import a module it did not before, or no longer import one: the reused bytecode
    then covers a slightly different set of modules than a clean build's (``--clean`` makes it
    afresh), and the bundle is still correct, only a module compiles on the phone or a ``.pyc``
    is shipped unused: each ``.pyc`` is made by the phone's own Python from the very source
    shipped beside it (or, in the standard library, from the source it replaces), and a module
    without one is compiled from its source at import."""
    chunks = [b"havoc engine bytecode 1", ",".join(packages).encode()]
    for path in (SRC / "engine_bytecode.mjs", Path(__file__)):
        chunks.append(path.read_bytes())
    source = pyodide_dir()
    for name in PYODIDE_FILES:
        chunks += [name.encode(), (source / name).read_bytes()]
    for name, data in files:
        if name.endswith(".py"):
            chunks += [name.encode(), data]
    chunks.append(_exercised())
    from havoc.core import cache

    return cache.digest(*chunks)


BYTECODE_KIND = "engine-bytecode"  # havoc's verified cache (havoc.core.cache): the kind of these entries


def _keep_bytecode(key: str, stage: Path, stdlib: Path, compiled: dict[str, Any]) -> None:
    """Store what :func:`compile_bytecode` made (every ``.pyc`` of the stage, by its place, and the
    rewritten standard library) in havoc's cache: plain bytes, tagged, written atomically and
    pruned with the rest of the cache; nothing in it is run by the build."""
    from havoc.core import cache

    pycs = {p.relative_to(stage).as_posix(): p.read_bytes() for p in sorted(stage.rglob("__pycache__/*.pyc"))}
    cache.put(BYTECODE_KIND, key, {"pyc": pycs, "stdlib": stdlib.read_bytes(), "compiled": compiled})


def _cached_bytecode(key: str, stage: Path, stdlib: Path) -> dict[str, Any] | None:
    """The bytecode :func:`_keep_bytecode` stored under ``key``, laid out in ``stage`` and at
    ``stdlib``, and what was compiled; None (a miss) for no entry, one that fails its tag (damaged,
    truncated, planted: :func:`havoc.core.cache.get` refuses it) or one of another shape, such as a
    ``.pyc`` for a module the stage does not have."""
    from havoc.core import cache

    entry = cache.get(BYTECODE_KIND, key, dict)
    if entry is None:
        return None
    pycs, library, compiled = entry.get("pyc"), entry.get("stdlib"), entry.get("compiled")
    if not (isinstance(pycs, dict) and isinstance(library, bytes) and isinstance(compiled, dict)):
        return None
    tag = compiled.get("tag")
    sources = {p.relative_to(stage).as_posix() for p in stage.rglob("*.py")}
    for rel, data in pycs.items():
        if not isinstance(rel, str) or not isinstance(data, bytes) or not isinstance(tag, str):
            return None
        *folder, pycache, name = rel.split("/")
        stem, _, ext = name.partition(".")
        if pycache != "__pycache__" or ext != f"{tag}.pyc" or "/".join([*folder, f"{stem}.py"]) not in sources:
            return None
    for rel, data in pycs.items():
        (stage / rel).parent.mkdir(exist_ok=True)
        (stage / rel).write_bytes(data)
    stdlib.write_bytes(library)
    return compiled


def compile_bytecode(stage: Path, stdlib_out: Path, packages: list[str]) -> dict[str, Any]:
    """Bytecode for the phone, made under Node by Pyodide's own Python (``engine_bytecode.mjs``):
    ``__pycache__`` beside every module of ``packages`` (:func:`engine_packages`) and beside the other
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
        **children.popen_options(),
    )
    if proc.returncode:
        raise EngineBuildError(f"the engine's bytecode could not be made:\n{proc.stderr.strip()[-3000:]}")
    counts: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return counts


def _pyodide_source() -> Path:
    """Pyodide's folder, installed (``npm ci``) when a checkout has none; EngineBuildError if missing."""
    source = pyodide_dir()
    missing = [n for n in PYODIDE_FILES if not (source / n).is_file()]
    if missing and "HAVOC_PYODIDE" not in os.environ and shutil.which("npm") and (REPO / "package-lock.json").is_file():
        # a checkout without node_modules/ (a fresh clone, a new worktree): the pinned, locked install
        proc = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
            **children.popen_options(),
        )
        if proc.returncode:
            raise EngineBuildError(f"`npm ci` failed:\n{(proc.stderr or proc.stdout).strip()[-2000:]}")
        missing = [n for n in PYODIDE_FILES if not (source / n).is_file()]
    if missing:
        raise EngineBuildError(
            f"Pyodide is not installed in {source} (missing {', '.join(missing)}): run `npm ci` in the project folder"
        )
    return source


def no_packages(lock: bytes) -> bytes:
    """Pyodide's package lock as the engine needs it: its ``info`` (the Python and platform the
    WebAssembly build is for, which Pyodide checks on start) and no packages, since the engine
    loads none (``packages: []``): the whole lock is a tenth of a megabyte each phone would
    download for nothing."""
    data = json.loads(lock)
    return (json.dumps({**data, "packages": {}}, indent=1, sort_keys=True) + "\n").encode()


STAMP = ".inputs.json"  # in _engine: what it was built from (a dot-file: never served, not in sw.js)


def _file_digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()


def _built_from(engine: Path, inputs: str) -> bool:
    """Whether ``engine`` is a complete build of ``inputs``: its stamp names them and every file
    is there, with the bytes the build wrote (a file changed, added or removed since: no)."""
    try:
        stamp = json.loads(safeio.read_bytes(engine / STAMP))
        present = {p.relative_to(engine).as_posix(): p for p in engine.rglob("*") if p.is_file() and p.name != STAMP}
        if not isinstance(stamp, dict) or stamp.get("inputs") != inputs:
            return False
        listed = stamp.get("files")
        if not isinstance(listed, dict) or set(listed) != set(present):
            return False
        return all(_file_digest(path) == listed[rel] for rel, path in present.items())
    except (OSError, ValueError, safeio.ReadError):
        return False


def build_engine(top: Path, clean: bool = False) -> Path:
    """``top/_engine``: Pyodide, the bundle, its manifest and the worker; swapped in when complete
    (:func:`prepare_engine`, then :func:`install_engine`)."""
    return install_engine(top, prepare_engine(top, clean))


def prepare_engine(top: Path, clean: bool = False) -> Path | None:
    """The new ``_engine`` made complete beside the present one (``top/.building-engine``), or
    None when the present one is current: nothing it is made from changed (the bundle's files,
    Pyodide's, the worker, this code, the Python that warms the bundle's cache: its stamp
    ``.inputs.json`` says what, and every file is checked against it). After an edit of data
    alone (rules, catalogs) the bytecode comes from havoc's verified cache (:func:`bytecode_key`)
    and only the bundle's cache and archive are made again. With ``clean``, everything is made
    afresh. Nothing under ``top/_engine`` changes until :func:`install_engine`."""
    source = _pyodide_source()
    final = top / "_engine"
    files = [(name, path.read_bytes()) for name, path in _bundle_files()]
    packages = engine_packages()
    key = bytecode_key(files, packages)
    worker = (STATIC / "havoc-engine-worker.js").read_bytes()
    h = hashlib.blake2b(_chunk(key.encode()) + _chunk(worker) + _chunk(sys.version.encode()), digest_size=20)
    for name, data in files:
        h.update(_chunk(name.encode()) + _chunk(data))
    inputs = h.hexdigest()
    if not clean and _built_from(final, inputs):
        return None
    stage = top / ".building-engine"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, stage / "pyodide" / name)
    lock = stage / "pyodide" / "pyodide-lock.json"
    lock.write_bytes(no_packages(lock.read_bytes()))
    bundle, compiled = build_bundle(
        top / ".building-engine-files",
        stage / "pyodide" / "python_stdlib.zip",
        files,
        packages,
        reuse=not clean,
        key=key,
    )
    shutil.rmtree(top / ".building-engine-files", ignore_errors=True)
    name = f"engine-{hashlib.blake2b(bundle, digest_size=8).hexdigest()}.zip"
    (stage / name).write_bytes(bundle)
    (stage / "worker.js").write_bytes(worker)
    # sha256: the worker checks the bundle it got against it (Web Crypto has SHA-256, not BLAKE2)
    manifest = {
        "bundle": name,
        "sha256": hashlib.sha256(bundle).hexdigest(),
        "pyodide": pyodide_version(source),
        "bytecode": compiled,
        # the worker's own code: part of the key its memory snapshots are kept under (what the
        # memory holds is what the worker did before taking it)
        "worker": hashlib.sha256(worker).hexdigest(),
        # what the worker downloads on a first visit, for the page's progress line (the rest is small)
        "download": {rel: (stage / rel).stat().st_size for rel in (name, *DOWNLOADED)},
    }
    (stage / "engine.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    made = {p.relative_to(stage).as_posix(): _file_digest(p) for p in sorted(stage.rglob("*")) if p.is_file()}
    (stage / STAMP).write_text(json.dumps({"inputs": inputs, "files": made}, indent=0) + "\n", encoding="utf-8")
    return stage


def install_engine(top: Path, stage: Path | None) -> Path:
    """Swap the engine :func:`prepare_engine` made in (None: the present one stays); ``top/_engine``."""
    final = top / "_engine"
    if stage is None:
        return final
    old = top / ".old-engine"
    shutil.rmtree(old, ignore_errors=True)
    if final.exists():
        os.replace(final, old)
    os.replace(stage, final)
    shutil.rmtree(old, ignore_errors=True)
    return final


def site_files(top: Path) -> list[str]:
    """Every file a reader may open, relative to ``top`` (no dot-files, build folders, sources,
    source maps)."""
    out = []
    for path in sorted(top.rglob("*")):
        rel = path.relative_to(top)
        if not path.is_file() or any(p.startswith(".") or p == "_sources" for p in rel.parts):
            continue
        if rel.as_posix() in ("sw.js", "objects.inv") or rel.name == "objects.inv":
            continue
        if rel.suffix == ".map":  # the theme's source maps: only a developer's tools ask for them
            continue
        out.append(rel.as_posix())
    return out


# A page that only sends the reader on (a rule's permanent link, ``rule/<id>.html``): its whole
# text is a few hundred bytes, and what it says is where to go.
_REFRESH = re.compile(rb'<meta http-equiv="refresh" content="0; url=([^"]+)">')
STUB_MAX = 4096


def moved_to(top: Path, rel: str) -> str | None:
    """Where the page ``rel`` only sends the reader (its target, relative to ``top``, with its
    ``#fragment``), or None for a page with content of its own."""
    if not rel.endswith(".html") or (top / rel).stat().st_size > STUB_MAX:
        return None
    found = _REFRESH.search((top / rel).read_bytes())
    if found is None:
        return None
    target = html.unescape(found.group(1).decode("utf-8"))
    if "://" in target or target.startswith("/"):
        return None
    path, hash_, fragment = target.partition("#")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))
    if resolved.startswith("../") or not (top / resolved).is_file():
        return None
    return resolved + hash_ + fragment


def precached(top: Path) -> tuple[list[str], dict[str, str]]:
    """What the service worker keeps: every file of :func:`site_files` but the pages that only
    send the reader on, which it answers from the map of where each sends (the second value).
    The map is a few kilobytes where the pages were a third of a megabyte on the first visit,
    and every rule's link still works offline."""
    kept: list[str] = []
    moved: dict[str, str] = {}
    for rel in site_files(top):
        target = moved_to(top, rel)
        if target is None:
            kept.append(rel)
        else:
            moved[rel] = target
    return kept, moved


_VERSIONED = re.compile(rb'(?:href|src)="([^":#?]+)(\?v=[0-9A-Za-z]+)"')


def versions(top: Path, kept: list[str]) -> dict[str, str]:
    """file -> the query the pages load it with (Sphinx's ``?v=<checksum>``). The service worker
    fetches that very URL, so a file the open page has just loaded comes from the browser's
    HTTP cache (whose key includes the query) instead of the network a second time."""
    out: dict[str, str] = {}
    files = set(kept)
    for rel in kept:
        if not rel.endswith(".html"):
            continue
        folder = posixpath.dirname(rel)
        for found in _VERSIONED.finditer((top / rel).read_bytes()):
            target = posixpath.normpath(posixpath.join(folder, found.group(1).decode("utf-8", "replace")))
            if target in files:
                out.setdefault(target, found.group(2).decode("ascii"))
    return out


def first_visit(top: Path, level: int = 6) -> dict[str, int]:
    """What the first visit downloads, compressed as a host that gzips sends it: every file the
    service worker keeps, once per distinct content (it downloads a file's twins once), and
    ``sw.js``; ``engine``: the part of it under ``_engine/``. The README's figure is this."""
    import gzip

    kept, _moved = precached(top)
    seen: dict[str, int] = {}
    engine = 0
    for rel in kept:
        data = (top / rel).read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            continue
        seen[digest] = len(gzip.compress(data, level))
        engine += seen[digest] if rel.startswith("_engine/") else 0
    worker = len(gzip.compress((top / "sw.js").read_bytes(), level)) if (top / "sw.js").is_file() else 0
    return {"total": sum(seen.values()) + worker, "engine": engine, "files": len(seen) + 1}


def write_service_worker(top: Path) -> Path:
    """``top/sw.js``: the precache list, each file with the SHA-256 of its bytes, which the worker
    checks every response against before it keeps it (Web Crypto's ``digest``, so the digest is
    SHA-256), and which also lets a new build copy unchanged files from the old cache; and a version
    that changes with any file's bytes and with the worker's own code, so two different ``sw.js``
    never share a cache name (a failed install deletes its own cache, never a working one)."""
    kept, moved = precached(top)
    queries = versions(top, kept)
    files = [[rel, hashlib.sha256((top / rel).read_bytes()).hexdigest()] for rel in kept]
    for entry in files:
        if entry[0] in queries:
            entry.append(queries[entry[0]])  # fetched as the pages load it
    template = (STATIC / "havoc-sw.js").read_text(encoding="utf-8")
    h = hashlib.blake2b(template.encode(), digest_size=8)
    for entry in files:
        h.update("\0".join(entry).encode() + b"\0\0")
    for rel, target in moved.items():
        h.update(f"{rel}\0>{target}\0".encode())
    text = (
        template.replace('"@VERSION@"', json.dumps(h.hexdigest()))
        .replace("[/*@FILES@*/]", json.dumps(files, ensure_ascii=False, separators=(",", ":")).replace("],[", "],\n["))
        .replace("{/*@MOVED@*/}", json.dumps(moved, ensure_ascii=False, separators=(",", ":")).replace(',"', ',\n"'))
    )
    path = top / "sw.js"
    safeio.write_text(path, text)
    return path
