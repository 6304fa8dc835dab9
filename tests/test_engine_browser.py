"""The in-browser engine answers exactly as ``havoc serve``: the site's Pyodide and engine bundle,
run under Node (no browser needed), against the server's API through Starlette's client.

Every stored example of every ruleset (in English and Polish), the question fixtures (as JSON and
as pasted YAML), the Ask page's other requests and the refusals (bad JSON, unknown fields, a bad
language, an unknown address, a wrong method) must give the same status and the same JSON.
Node comes from scripts/ensure-system-deps; Pyodide from ``npm ci`` (installed here when missing).
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import stored_examples
import yaml

from havoc.engine import game, rulebook
from havoc.web.offline import build_engine, pyodide_dir

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from havoc.web.server import create_app

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "assistant"
RUNNER = REPO / "tests" / "engine_parity.mjs"


def ensure_pyodide() -> None:
    """Node and the pinned Pyodide, installed when missing (never skipped)."""
    if shutil.which("node") is None:
        subprocess.run(["bash", str(REPO / "scripts" / "ensure-system-deps")], check=True)
    if not (pyodide_dir() / "pyodide.asm.wasm").is_file():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=REPO, check=True, capture_output=True)


def shared_engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The in-browser engine (a site's ``_engine``), built once per run for every test file and
    every xdist worker (conftest ``built_once``); read it, or copy it to change it.

    The engine is made from havoc's code, rules and catalogs, never from a site's pages, so one
    build serves every site of the run. Each file making it again (the bundle, its cache, the
    bytecode when the cache is cold) cost seconds to a minute and a half of Node each."""
    from conftest import built_once

    def build(folder: Path) -> Path:
        ensure_pyodide()
        return build_engine(folder)

    return built_once(tmp_path_factory, "engine", build)


def offline_copy(built: Path, tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A copy of the built site ``built`` with its engine and service worker, as `havoc docs`
    makes them after the pages: one a test may change without touching the shared build.

    The run's engine (:func:`shared_engine`) is put in first, as a later ``havoc docs`` finds
    the one it built before: the offline step checks every file of it against its stamp, keeps
    it, and writes the service worker over the whole copy."""
    from havoc.cli.commands.docs import _offline as docs_offline_step

    ensure_pyodide()
    out = tmp_path_factory.mktemp(name) / "site"
    shutil.copytree(built, out)
    if not (out / "_engine").exists():
        shutil.copytree(shared_engine(tmp_path_factory), out / "_engine")
    assert docs_offline_step(out)
    return out


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the run's engine (:func:`shared_engine`), this file's own."""
    out = tmp_path_factory.mktemp("site") / "_engine"
    shutil.copytree(shared_engine(tmp_path_factory), out)
    return out


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def run_engine(engine: Path, requests: list[dict[str, Any]], ruleset: str = "") -> dict[str, Any]:
    """The requests through the bundle under Node, started as a page of ``ruleset`` starts it."""
    return run_node(RUNNER, [str(engine), *([ruleset] if ruleset else [])], requests)


def run_node(script: Path, args: list[str], requests: list[dict[str, Any]]) -> dict[str, Any]:
    """A Node script of the tests given ``requests`` as JSON on its input: the JSON of its last line."""
    proc = subprocess.run(
        ["node", str(script), *args],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def by_server(client: TestClient, req: dict[str, Any]) -> tuple[int, Any]:
    url = req["path"] + ("?" + "&".join(f"{k}={v}" for k, v in req["query"].items()) if req.get("query") else "")
    if req["method"] == "GET":
        r = client.get(url)
    else:
        r = client.request(
            req["method"], url, content=req.get("body", ""), headers={"Content-Type": "application/json"}
        )
    return r.status_code, r.json()


def post(path: str, body: Any) -> dict[str, Any]:
    return {"method": "POST", "path": path, "body": body if isinstance(body, str) else json.dumps(body)}


def requests() -> list[dict[str, Any]]:
    """What the parity test sends: the examples, the fixtures, the page's other calls, refusals."""
    out: list[dict[str, Any]] = []
    for name in rulebook.ruleset_names():
        rs = rulebook.load(name)
        if not rs.game or name != rulebook.default_ruleset():
            continue  # the Ask page and `havoc serve` answer the default ruleset
        for ex in stored_examples.examples(rs, extra=None):
            for lang in ("en", "pl"):
                out.append(post(*stored_examples.request(rs, ex, lang)))
        assert game.of(rs)
    leave_text = (FIXTURES / "leave-8-vs-3.yaml").read_text(encoding="utf-8")
    leave = yaml.safe_load(leave_text)
    battle = yaml.safe_load((FIXTURES / "battle-walkthrough.yaml").read_text(encoding="utf-8"))
    leaving = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 8}
    for lang in ("en", "pl"):
        out.append(post("/api/ask", {"position": leave, "question": leaving, "lang": lang}))
        out.append(
            post(
                "/api/ask",
                {"position": leave_text, "question": "move humans from=example-a to=foglands units=3", "lang": lang},
            )
        )
        out.append(post("/api/legal", {"position": leave, "lang": lang}))
        out.append(post("/api/battle", {"position": battle, "lang": lang}))
        out.append(post("/api/score", {"position": battle, "faction": "pilgrims", "lang": lang}))
        out.append({"method": "GET", "path": "/api/labels", "query": {"lang": lang}})
        out.append(post("/api/ask", {"position": {"players": ["humans"]}, "question": {"ask": "legal"}, "lang": lang}))
        out.append(post("/api/ask", {"position": leave, "question": {"ask": "fly"}, "lang": lang}))
        out.append(post("/api/ask", {"position": leave, "lang": lang, "extra": 1}))
        out.append(post("/api/ask", {"position": leave, "question": {"ask": "move", "from": "nowhere"}, "lang": lang}))
        # a table pasted with Polish names, and one with a name that names nothing
        named = leave_text.replace("humans", "Ludzie").replace("pilgrims", "Pielgrzymi").replace("example-", "Region ")
        out.append(post("/api/ask", {"position": named, "question": leaving, "lang": lang}))
        out.append(post("/api/legal", {"position": named.replace("Region a:", "Regon a:"), "lang": lang}))
    out += [
        {"method": "GET", "path": "/api/health"},
        post("/api/ask", "{not json"),
        post("/api/ask", "[1, 2]"),
        post("/api/ask", {"position": leave, "question": {"ask": "legal"}, "lang": "de"}),
        post("/api/nothing-here", {}),
        {"method": "GET", "path": "/api/ask"},
    ]
    return out


def test_engine_answers_as_the_server(engine: Path, client: TestClient) -> None:
    sent = requests()
    assert sum(r["path"] == "/api/ask" for r in sent) > 100
    result = run_engine(engine, sent)
    assert len(result["answers"]) == len(sent)
    differ = []
    for req, got in zip(sent, result["answers"], strict=True):
        status, body = by_server(client, req)
        if (got["status"], got["body"]) != (status, body):
            differ.append((req["path"], req.get("body", "")[:200], status, got["status"], body, got["body"]))
    assert not differ, f"{len(differ)} of {len(sent)} differ; first: {differ[0]}"
    assert 200 in {a["status"] for a in result["answers"]} and 422 in {a["status"] for a in result["answers"]}
    # the bundle's verified cache holds the rules and catalogs: Babel is neither shipped nor imported
    assert not [m for m in result["imported"] if m.startswith("babel")]


def test_the_engine_needs_no_yaml_parser_for_json_positions(engine: Path) -> None:
    leave = yaml.safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text(encoding="utf-8"))
    q = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 8}
    result = run_engine(engine, [post("/api/ask", {"position": leave, "question": q, "lang": "pl"})])
    answer = result["answers"][0]
    assert answer["status"] == 200 and answer["body"]["verdict"] is False and answer["body"]["answer"] == "Nie"
    assert result["imported"] == []  # neither PyYAML nor Babel: the rules come from the bundle's cache
    # to start and to answer, every module (Pyodide's own, havoc's) comes from the shipped bytecode:
    # the phone compiles no source
    assert result["fromSource"] == []


def test_the_bytecode_is_pyodides(engine: Path) -> None:
    """(That it is valid and of the source beside it, Pyodide itself checks: ``fromSource`` above.)"""
    import zipfile

    manifest = json.loads((engine / "engine.json").read_text())
    tag = manifest["bytecode"]["tag"]
    python = json.loads((engine / "pyodide" / "pyodide-lock.json").read_text())["info"]["python"]
    assert tag == "cpython-" + "".join(python.split(".")[:2])  # Pyodide's Python, not the build machine's
    bundle = zipfile.ZipFile(engine / manifest["bundle"])
    names = set(bundle.namelist())
    # sealed: each of havoc's modules is its bytecode alone, in the source's place (Python imports
    # it without a source, and refuses one of another Python's magic number: the runs above)
    compiled = [n for n in names if n.startswith("havoc/") and n.endswith(".pyc")]
    assert len(compiled) > 30 and manifest["bytecode"]["bundle"] >= len(compiled)
    assert not [n for n in names if n.startswith("havoc/") and (n.endswith(".py") or "__pycache__" in n)]
    for name in compiled:
        assert bundle.read(name)[4:8] == b"\x01\0\0\0"  # unchecked-hash: an archive's dates are not compared
    # the bytecode leaves out the docstrings of modules and functions (a tenth of the download),
    # and keeps a class's (a dataclass without one would build it on every start)
    webapi = bundle.read("havoc/assistant/webapi.pyc")
    doc = ast.get_docstring(ast.parse((REPO / "src" / "havoc" / "assistant" / "webapi.py").read_bytes()))
    assert doc and doc.split("\n")[0].encode() not in webapi
    stdlib = zipfile.ZipFile(engine / "pyodide" / "python_stdlib.zip").namelist()
    assert "asyncio/base_events.pyc" in stdlib and "json/decoder.pyc" in stdlib
    assert "json/decoder.py" not in stdlib  # the bytecode replaces the source: a smaller download
    assert "gettext.py" in stdlib and "gettext.pyc" not in stdlib  # never imported: source only
    # frozen into Pyodide's Python, or the pure-Python twin of a C module it has built in: never
    # read, whoever imports it
    for built_in in ("os.py", "codecs.py", "importlib/_bootstrap.py", "importlib/util.py", "_pydatetime.py"):
        assert built_in not in stdlib and built_in + "c" not in stdlib, built_in
    assert manifest["bytecode"]["stdlib"] == sum(n.endswith(".pyc") for n in stdlib)
    # no import of the engine's can reach these (doctest only from heapq's own self-test): not
    # downloaded at all; the codecs a text may come in stay
    for unreachable in ("doctest.py", "pdb.py", "unittest/__init__.py", "sqlite3/__init__.py", "encodings/cp1250.py"):
        assert unreachable not in stdlib, unreachable
    # named by an import inside a function, but never run in WebAssembly by the engine (no
    # processes, no network, a module's command line): engine_bytecode.mjs's NEVER
    for never in ("multiprocessing/__init__.py", "email/parser.py", "http/client.py", "argparse.py", "tarfile.py"):
        assert never not in stdlib, never
    assert manifest["bytecode"]["dropped"] > 100
    assert {"encodings/cp437.py", "encodings/idna.py"} <= set(stdlib) or "encodings/cp437.pyc" in stdlib


def test_the_bundle_leaves_out_what_the_answer_path_does_not_need(engine: Path) -> None:
    import zipfile

    manifest = json.loads((engine / "engine.json").read_text())
    names = zipfile.ZipFile(engine / manifest["bundle"]).namelist()
    assert "havoc/assistant/webapi.pyc" in names and "cache/key" in names
    assert any(n.startswith("cache/rules-cry-havoc-") for n in names)
    assert not [
        n for n in names if n.startswith(("havoc/sphinxext/", "havoc/web/server/", "havoc/quickref/", "babel/"))
    ]
    assert (engine / "pyodide" / "pyodide.asm.wasm").is_file() and (engine / "worker.js").is_file()


def test_the_bundle_is_sealed(engine: Path) -> None:
    """The phone takes its keys from the bundle's manifest (havoc.core.sealed), so the sources
    they are made from are left out, and every key names an entry the bundle's cache holds."""
    import zipfile

    from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE
    from havoc.search.text import STEMMER_NAMES

    manifest = json.loads((engine / "engine.json").read_text())
    bundle = zipfile.ZipFile(engine / manifest["bundle"])
    names = set(bundle.namelist())
    assert not [n for n in names if n.endswith((".po", ".yaml"))]
    assert "rules/default-ruleset" in names
    assert not [n for n in names if n.endswith(".pyc") and n[:-1] in names]  # no source beside bytecode
    stemmers = {n.rsplit("/", 1)[1].split(".")[0] for n in names if "_stemmer." in n}
    assert stemmers == {f"{name}_stemmer" for name in STEMMER_NAMES.values()}
    values = json.loads(bundle.read("sealed.json"))["values"]
    assert set(values["rules"]) == {f"rules/{name}" for name in rulebook.ruleset_names()}
    for folder, key in values["rules"].items():
        assert f"cache/rules-{folder.rsplit('/', 1)[1]}-{key}.bin" in names
    assert set(values["catalog"]) == {f"locales/{lang}" for lang in LANGUAGES if lang != SOURCE_LANGUAGE}
    for folder, key in values["catalog"].items():
        assert f"cache/catalog-{folder.rsplit('/', 1)[1]}-{key}.bin" in names
    assert values["games"]["havoc.games"] == game.installed()
    # every source went: each module's that has bytecode, every rule file, every catalog
    rule_files = [p for p in (REPO / "rules").rglob("*.yaml") if not p.name.startswith(".")]
    catalogs = list((REPO / "locales").glob("*/LC_MESSAGES/*.po"))
    pycs = [n for n in names if n.endswith(".pyc")]
    assert manifest["bytecode"]["left_out"] == len(pycs) + len(rule_files) + len(catalogs)


def test_a_sealed_bundle_without_an_entry_fails_loudly(engine: Path, tmp_path: Path) -> None:
    """A sealed engine never falls back on files it does not have: with the Polish catalog's entry
    gone, a Polish question is an internal error (500), not an answer in English."""
    import zipfile

    copy = tmp_path / "_engine"
    shutil.copytree(engine, copy)
    manifest = json.loads((copy / "engine.json").read_text())
    with zipfile.ZipFile(engine / manifest["bundle"]) as zin, zipfile.ZipFile(copy / manifest["bundle"], "w") as zout:
        for info in zin.infolist():
            if not info.filename.startswith("cache/catalog-pl-"):
                zout.writestr(info, zin.read(info))
    leave = yaml.safe_load((FIXTURES / "leave-8-vs-3.yaml").read_text(encoding="utf-8"))
    q = {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 8}
    asked = [post("/api/ask", {"position": leave, "question": q, "lang": lang}) for lang in ("en", "pl")]
    english, polish = run_engine(copy, asked)["answers"]
    assert english["status"] == 200 and english["body"]["answer"] == "No"
    assert polish["status"] == 500 and polish["body"]["error"] == "internal"


def test_a_failed_engine_build_leaves_the_previous_one(
    engine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from havoc.web.offline import EngineBuildError

    top = tmp_path / "site"
    shutil.copytree(engine, top / "_engine")
    before = sorted(p.name for p in (top / "_engine").iterdir())
    monkeypatch.setenv("HAVOC_PYODIDE", str(tmp_path / "no-pyodide"))
    with pytest.raises(EngineBuildError, match="npm ci"):
        build_engine(top)
    assert sorted(p.name for p in (top / "_engine").iterdir()) == before


def test_the_service_worker_lists_every_file_and_changes_with_any(tmp_path: Path) -> None:
    from havoc.web.offline import write_service_worker

    top = tmp_path / "site"
    for rel in ("index.html", "en/index.html", "pl/a b.html", "en/_static/x.js", "_engine/engine-1.zip"):
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(rel)
    for hidden in (".building-en/index.html", "en/_sources/index.md.txt", "en/.buildinfo"):
        (top / hidden).parent.mkdir(parents=True, exist_ok=True)
        (top / hidden).write_text("not served")

    def listed() -> tuple[str, list[str]]:
        text = write_service_worker(top).read_text(encoding="utf-8")
        version = json.loads(text.split("var VERSION = ", 1)[1].split(";", 1)[0])
        files = json.loads(text.split("var FILES = ", 1)[1].split(";\nvar CACHE", 1)[0])
        return version, files

    version, entries = listed()
    files = [rel for rel, _digest in entries]
    assert files == ["_engine/engine-1.zip", "en/_static/x.js", "en/index.html", "index.html", "pl/a b.html"]
    digests = dict(entries)
    assert listed()[0] == version  # the same build, the same cache
    (top / "en" / "index.html").write_text("changed")
    version2, entries2 = listed()
    assert version2 != version  # any changed byte: a new cache, replacing the old one whole
    # and only the changed file has a new digest: the others are copied from the old cache
    assert [rel for rel, d in entries2 if digests[rel] != d] == ["en/index.html"]
