"""``havoc docs``' engine step is incremental: after an edit of data alone it reuses the bytecode
(made under Node by Pyodide, seconds of CPU) from havoc's verified cache and builds exactly what a
clean build builds; it skips the whole step when nothing changed; a Python source edit, a damaged
cache entry or ``--clean`` make the bytecode afresh.

One test runs the real Node/Pyodide step (once: its first build is the run's shared engine); the
others count its calls with a stand-in that writes a ``.pyc`` per module from the source's bytes,
so what is reused is visible.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from havoc.core import cache
from havoc.web import offline
from havoc.web.offline import BYTECODE_KIND, build_engine, pyodide_dir, write_service_worker

REPO = Path(__file__).resolve().parents[1]
EDITED = "Whoever holds the most"  # a rule's wording in rules/cry-havoc/sections/01-overview.yaml


def ensure_pyodide() -> None:
    """Node and the pinned Pyodide, installed when missing (never skipped)."""
    if shutil.which("node") is None:
        subprocess.run(["bash", str(REPO / "scripts" / "ensure-system-deps")], check=True)
    if not (pyodide_dir() / "pyodide.asm.wasm").is_file():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=REPO, check=True, capture_output=True)


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Scratch copies of rules/ and locales/ and a cache folder of this test's own."""
    shutil.copytree(REPO / "rules", tmp_path / "rules")
    shutil.copytree(REPO / "locales", tmp_path / "locales", ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setenv("HAVOC_RULES", str(tmp_path / "rules"))
    monkeypatch.setenv("HAVOC_LOCALES", str(tmp_path / "locales"))
    monkeypatch.setenv("HAVOC_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def edit_a_word(rules: Path) -> None:
    path = rules / "cry-havoc" / "sections" / "01-overview.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(EDITED) == 1
    path.write_text(text.replace(EDITED, "Whoever really holds the most"), encoding="utf-8")


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def counting(monkeypatch: pytest.MonkeyPatch, fake: bool) -> list[Path]:
    """Count the calls of the Node step (the stage each got); with ``fake``, a stand-in for it."""
    calls: list[Path] = []
    real = offline.compile_bytecode

    def stand_in(stage: Path, stdlib_out: Path, packages: list[str]) -> dict[str, Any]:
        calls.append(stage)
        if not fake:
            return real(stage, stdlib_out, packages)
        for source in sorted(stage.rglob("*.py")):
            if source.relative_to(stage).parts[0] in packages:
                pyc = source.parent / "__pycache__" / f"{source.stem}.cpython-314.pyc"
                pyc.parent.mkdir(exist_ok=True)
                pyc.write_bytes(b"pyc of " + hashlib.sha256(source.read_bytes()).digest())
        stdlib_out.write_bytes(b"stdlib")
        return {"bundle": 1, "stdlib": 1, "tag": "cpython-314"}

    monkeypatch.setattr(offline, "compile_bytecode", stand_in)
    return calls


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"{BYTECODE_KIND}-*.bin"))


@pytest.fixture(scope="module")
def first_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any] | None]:
    """The run's engine (test_engine_browser.shared_engine: made once for every browser test from
    rules/ and locales/) and the bytecode entry its build made or reused, as the cache it was built
    with holds it (None: that cache keeps nothing). A module fixture, so that when this asks
    first the engine is made as the browser tests' fixtures make it, outside any test's own rules,
    locales and cache (conftest ``_isolated_cache``)."""
    from test_engine_browser import shared_engine

    ensure_pyodide()
    engine = shared_engine(tmp_path_factory)
    key = offline.bytecode_key([(n, p.read_bytes()) for n, p in offline._bundle_files()], offline.engine_packages())
    return engine, cache.get(BYTECODE_KIND, key, dict)


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_after_a_rules_edit_the_engine_reuses_its_bytecode_and_equals_a_clean_build(
    data: Path, monkeypatch: pytest.MonkeyPatch, first_build: tuple[Path, dict[str, Any] | None]
) -> None:
    """The first build is the run's engine (:func:`first_build`, from the same sources and rules
    this test copied), taken as this test's previous build with its bytecode put in this test's
    own cache: it spares one Node run of the two (a minute under load). The clean build after
    the edit is this test's own, made by Node."""
    ensure_pyodide()
    first, kept = first_build
    calls = counting(monkeypatch, fake=False)
    if kept is not None:
        key = offline.bytecode_key([(n, p.read_bytes()) for n, p in offline._bundle_files()], offline.engine_packages())
        cache.put(BYTECODE_KIND, key, kept)
        shutil.copytree(first, data / "inc" / "_engine")
    else:  # the run's engine left no bytecode to take (its cache keeps nothing): the first build is made here
        first = build_engine(data / "first")
        shutil.copytree(first, data / "inc" / "_engine")
        calls.clear()
    assert len(entries(data / "cache")) == 1
    edit_a_word(data / "rules")
    build_engine(data / "inc")
    assert calls == []  # the bytecode came from the cache: Node did not run
    assert tree(data / "inc" / "_engine") != tree(first)  # and the engine was made again, with the edit
    build_engine(data / "clean", clean=True)
    assert len(calls) == 1  # --clean makes it afresh, whatever the cache holds
    assert tree(data / "inc" / "_engine") == tree(data / "clean" / "_engine")
    manifest = json.loads((data / "inc" / "_engine" / "engine.json").read_text())
    bundle = manifest["bundle"]
    # the worker checks the bundle it got against this (Web Crypto: SHA-256)
    assert manifest["sha256"] == hashlib.sha256((data / "inc" / "_engine" / bundle).read_bytes()).hexdigest()
    import zipfile

    archive = zipfile.ZipFile(data / "inc" / "_engine" / bundle)
    [entry] = [n for n in archive.namelist() if n.startswith("cache/rules-cry-havoc-")]  # sealed: no YAML
    assert b"Whoever really holds" in archive.read(entry)  # the edit is in the bundle's validated rules
    key = json.loads(archive.read("sealed.json"))["values"]["rules"]["rules/cry-havoc"]
    assert entry == f"cache/rules-cry-havoc-{key}.bin"  # under the key the sealed engine takes
    sw = [write_service_worker(data / top).read_bytes() for top in ("inc", "clean")]
    assert sw[0] == sw[1]


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_an_unchanged_engine_is_left_as_it_is_and_a_changed_file_in_it_is_made_again(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting(monkeypatch, fake=True)
    built = build_engine(data / "site")
    before = tree(built)
    bundles: list[int] = []
    real = offline.build_bundle
    monkeypatch.setattr(offline, "build_bundle", lambda *a, **k: bundles.append(1) or real(*a, **k))
    build_engine(data / "site")
    assert bundles == [] and tree(built) == before  # nothing changed: nothing made, nothing moved
    (built / "worker.js").write_text("tampered")
    build_engine(data / "site")
    assert bundles == [1] and tree(built) == before and len(calls) == 1  # made again, bytecode reused


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_python_source_edit_makes_the_bytecode_again(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch, fake=True)
    build_engine(data / "site")
    edited = data / "webapi.py"
    edited.write_bytes((REPO / "src" / "havoc" / "assistant/webapi.py").read_bytes() + b"\n# edited\n")
    files = offline._bundle_files
    monkeypatch.setattr(
        offline, "_bundle_files", lambda: [(n, edited if n == "havoc/assistant/webapi.py" else p) for n, p in files()]
    )
    built = build_engine(data / "site")
    assert len(calls) == 2 and len(entries(data / "cache")) == 2
    bundle = json.loads((built / "engine.json").read_text())["bundle"]
    import zipfile

    pyc = zipfile.ZipFile(built / bundle).read("havoc/assistant/webapi.pyc")  # sealed: in the source's place
    assert pyc == b"pyc of " + hashlib.sha256(edited.read_bytes()).digest()


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@pytest.mark.parametrize("damage", ["flipped", "truncated"])
def test_a_damaged_bytecode_entry_is_refused_and_made_again(
    data: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    calls = counting(monkeypatch, fake=True)
    build_engine(data / "site")
    [entry] = entries(data / "cache")
    raw = bytearray(entry.read_bytes())
    assert raw[len(cache.MAGIC) + cache.TAG_SIZE :][:1] == cache.MARSHALLED  # plain data: no pickle, no code
    if damage == "flipped":
        raw[-5] ^= 0x01  # a bit of the payload: a stored .pyc or the standard library
    else:
        del raw[len(raw) // 2 :]
    entry.write_bytes(bytes(raw))
    edit_a_word(data / "rules")  # data only: an intact entry would be reused
    build_engine(data / "site")
    assert len(calls) == 2  # refused: Node ran again
    assert entry.read_bytes() != bytes(raw)  # and the entry was made again, intact


def test_havoc_docs_swaps_in_the_engine_built_beside_the_pages_only_when_they_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from havoc.cli.commands import docs
    from havoc.web.offline import EngineBuildError

    top = tmp_path / "site"
    (top / "_engine").mkdir(parents=True)
    (top / "_engine" / "engine.json").write_text("previous")

    def prepare(at: Path, clean: bool) -> Path:
        stage = at / ".building-engine"
        stage.mkdir()
        (stage / "engine.json").write_text("new")
        return stage

    monkeypatch.setattr(offline, "prepare_engine", prepare)
    docs._Engine(top, False).discard()  # the pages failed: the new engine is thrown away
    assert (top / "_engine" / "engine.json").read_text() == "previous"
    assert not (top / ".building-engine").exists()

    def fail(at: Path, clean: bool) -> Path:
        raise EngineBuildError("no Node")

    monkeypatch.setattr(offline, "prepare_engine", fail)
    assert not docs._offline(top, engine=docs._Engine(top, False))
    assert "no Node" in capsys.readouterr().err
    assert (top / "_engine" / "engine.json").read_text() == "previous"

    monkeypatch.setattr(offline, "prepare_engine", prepare)
    assert docs._offline(top, engine=docs._Engine(top, False))
    assert (top / "_engine" / "engine.json").read_text() == "new" and (top / "sw.js").is_file()


def test_the_service_worker_lists_each_files_sha256_and_its_version_covers_its_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sw.js lists the SHA-256 of every file's bytes (what the worker checks with Web Crypto before
    it keeps a file), and its version changes with its own code too, not only with the files: two
    different sw.js never share a cache name."""
    top = tmp_path / "site"
    (top / "en").mkdir(parents=True)
    (top / "en" / "index.html").write_bytes(b"<p>one</p>")
    (top / "engine.zip").write_bytes(bytes(range(256)))

    def listed() -> tuple[str, dict[str, str]]:
        text = write_service_worker(top).read_text(encoding="utf-8")
        version = json.loads(text.split("var VERSION = ", 1)[1].split(";", 1)[0])
        files = json.loads(text.split("var FILES = ", 1)[1].split(";\nvar CACHE", 1)[0])
        return version, dict(files)

    version, files = listed()
    assert files == {
        rel: hashlib.sha256((top / rel).read_bytes()).hexdigest() for rel in ("en/index.html", "engine.zip")
    }
    template = tmp_path / "static"
    template.mkdir()
    code = (offline.STATIC / "havoc-sw.js").read_text(encoding="utf-8")
    (template / "havoc-sw.js").write_text(code + "// the same files, another worker\n", encoding="utf-8")
    monkeypatch.setattr(offline, "STATIC", template)
    other, same_files = listed()
    assert same_files == files and other != version
