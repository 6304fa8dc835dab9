"""``havoc docs`` publishes whole sites only: everything (each language, the engine, ``sw.js``,
the root files) is built beside the published folder and put in its place in one step at the
end. A build that fails, at any step, or is killed leaves the published site byte for byte as it
was and nothing of its own inside it; the next build removes what a killed one left; every
failure is said, the engine's too; the Sphinx processes die with ``havoc docs``.

Each test runs ``havoc docs`` as a user does (a process of its own) on the small ``mini`` ruleset
(tests/fixtures/mini, tests/roots/test-mini), with a stand-in for the engine step (the real one
runs Node for a minute: tests/test_engine_incremental.py covers it).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import copy_keeping_links

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parent
MINI_RULES = TESTS / "fixtures" / "mini"
ROOT = TESTS / "roots" / "test-mini"

# ``havoc docs`` with the fixture project as the default ruleset's site, scratch doctrees, and a
# stand-in engine step: $ENGINE says what it does ("ok:<text>", "fail").
DRIVER = """
import errno, json, os, shutil, sys
from pathlib import Path
from havoc.web import offline
from havoc.cli.commands import docs

cfg = json.loads(os.environ["PUBLISH_TEST"])
docs.source_for = lambda name: Path(cfg["source"])
docs.DEFAULT_DOCTREES = Path(cfg["doctrees"])
docs.DEFAULT_SHEETS = Path(cfg["sheets"])

def prepare_engine(top, clean=False):
    what = os.environ.get("ENGINE", "ok:engine 1")
    if what == "fail":
        raise OSError(errno.ENOSPC, "No space left on device", str(top / ".building-engine" / "engine.zip"))
    stage = top / ".building-engine"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    (stage / "engine.json").write_text(what[3:])
    return stage

offline.prepare_engine = prepare_engine
from havoc.cli import main
sys.exit(main(sys.argv[1:]))
"""

# Appended to the fixture project's conf.py for a build that is to be stopped: each Sphinx
# process says it is there, then waits (long past any test) where it would read the pages.
SLOW_CONF = """
import os as _os, time as _time
if _os.environ.get("SLOW_SPHINX"):
    (Path(_os.environ["SLOW_SPHINX"]) / str(_os.getpid())).write_text("here")
    _time.sleep(600)
"""


@dataclass
class Project:
    tmp: Path
    out: Path
    source: Path
    rules: Path

    def env(self, **extra: str) -> dict[str, str]:
        cfg = {"source": str(self.source), "doctrees": str(self.tmp / "doctrees"), "sheets": str(self.tmp / "sheets")}
        env = {k: v for k, v in os.environ.items() if k not in ("SLOW_SPHINX", "ENGINE")}
        env.update(HAVOC_RULES=str(self.rules), HAVOC_LOCALES=str(self.source / "locales"), HAVOC_LANG="en")
        env.update(PUBLISH_TEST=json.dumps(cfg), NO_COLOR="1")
        env.update(extra)
        return env

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-c", DRIVER, "docs", "-o", str(self.out), *args]

    def docs(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.command(*args), cwd=self.tmp, env=self.env(**env), capture_output=True, text=True, check=False
        )

    def edit_rule(self, old: str, new: str) -> None:
        """Reword a rule (its English, and the msgid its Polish translation is filed under)."""
        for path in (self.rules / "mini" / "sections" / "01-draw.yaml", self.po):
            text = path.read_text(encoding="utf-8")
            assert old in text
            path.write_text(text.replace(old, new), encoding="utf-8")

    @property
    def po(self) -> Path:
        return self.source / "locales" / "pl" / "LC_MESSAGES" / "rules.po"


def make_project(tmp: Path) -> Project:
    rules = tmp / "rules"
    shutil.copytree(MINI_RULES, rules)
    source = tmp / "test-mini"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns("rules", "*.mo"))
    with (source / "conf.py").open("a", encoding="utf-8") as fh:
        fh.write(SLOW_CONF)
    return Project(tmp, tmp / "public" / "site", source, rules)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


@pytest.fixture(scope="module")
def published_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The project built and published once for the whole file (a minute of builds saved), kept
    aside: (the folder each test's project is in, the kept copy)."""
    work = tmp_path_factory.getbasetemp() / "published"  # this worker's own: one test at a time
    project = make_project(work)
    proc = project.docs()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    kept = tmp_path_factory.mktemp("published-kept") / "project"
    copy_keeping_links(work, kept)
    return work, kept


@pytest.fixture
def published(published_once: tuple[Path, Path]) -> Iterator[Project]:
    """The project with a site built and published once (both languages, engine "engine 1"):
    each test gets it as the build left it, at the same place (the build's saved doctrees and
    work folder name their absolute paths, so a later build is the same incremental one)."""
    work, kept = published_once
    shutil.rmtree(work)
    copy_keeping_links(kept, work)
    yield Project(work, work / "public" / "site", work / "test-mini", work / "rules")


def snapshot(top: Path) -> dict[str, str]:
    """Every entry under ``top`` (dot-files too): a file's SHA-256, a folder's "dir", a link's target."""
    out = {}
    for path in sorted(top.rglob("*")):
        rel = path.relative_to(top).as_posix()
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def strays(top: Path) -> list[str]:
    """What a static host would serve that no reader should see: dot-files and dot-folders (but
    a host's own, which the site's owner put there)."""
    own = (".nojekyll", ".well-known")
    return sorted(p.relative_to(top).as_posix() for p in top.rglob(".*") if p.relative_to(top).parts[0] not in own)


def staging_beside(top: Path) -> list[str]:
    return sorted(p.name for p in top.parent.glob(f".{top.name}.staging*"))


def test_a_published_site_is_whole_and_has_no_build_files(published: Project) -> None:
    """Both languages, the root page, the engine and sw.js; no ``.buildinfo``, no build folder."""
    top = published.out
    for rel in ("index.html", "sw.js", "en/index.html", "pl/index.html", "_engine/engine.json"):
        assert (top / rel).is_file(), rel
    assert (top / "_engine" / "engine.json").read_text() == "engine 1"
    assert strays(top) == []
    assert staging_beside(top) == []
    listed = (top / "sw.js").read_text(encoding="utf-8")
    assert '"en/index.html"' in listed and '"_engine/engine.json"' in listed


def _break_polish(project: Project) -> str:
    """A Polish translation taken out (the Polish build fails); the catalog as it was."""
    text = project.po.read_text(encoding="utf-8")
    assert 'msgstr "Nikt nie wychodzi."' in text
    project.po.write_text(text.replace('msgstr "Nikt nie wychodzi."', 'msgstr ""'), encoding="utf-8")
    return text


@pytest.mark.parametrize("fails", ["a language", "the engine", "a language and the engine"])
def test_a_failed_build_leaves_the_published_site_byte_for_byte(published: Project, fails: str) -> None:
    """English and the engine change, then one step fails: nothing of the build is published (not
    the English pages that did build, not the new engine, not a new sw.js or root page), and every
    failure is said, the engine's (out of disk space here) too, even when the pages failed first."""
    before = snapshot(published.out)
    published.edit_rule("discard the rest to your", "throw the rest onto your")
    catalog = _break_polish(published) if "language" in fails else None
    proc = published.docs(ENGINE="fail" if "engine" in fails else "ok:engine 2")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert snapshot(published.out) == before
    assert staging_beside(published.out) == []
    if "language" in fails:
        assert "no pl translation of [solo-no-leave:text]" in proc.stderr
        assert "the pl site of mini did not build" in proc.stderr
    if "engine" in fails:
        assert "the in-browser assistant did not build" in proc.stderr
        assert "No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "was not published" in proc.stderr
    # fixed, the next build publishes everything at once
    if catalog is not None:
        published.po.write_text(catalog, encoding="utf-8")
    proc = published.docs(ENGINE="ok:engine 2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "throw the rest onto your" in (published.out / "en" / "rules" / "draw.html").read_text(encoding="utf-8")
    assert (published.out / "_engine" / "engine.json").read_text() == "engine 2"


def test_the_failure_is_said_in_polish(published: Project) -> None:
    """In the reader's language: the project's own interface catalog beside the fixture's."""
    shutil.copy(TESTS.parent / "locales" / "pl" / "LC_MESSAGES" / "havoc.po", published.po.parent)
    published.edit_rule("discard the rest to your", "throw the rest onto your")
    _break_polish(published)
    proc = published.docs(ENGINE="fail", HAVOC_LANG="pl")
    assert proc.returncode == 1
    assert "błąd: strona pl zbioru zasad mini nie zbudowała się" in proc.stderr
    assert "błąd: asystent w przeglądarce nie zbudował się" in proc.stderr
    assert "nie została opublikowana" in proc.stderr


def _descendants(pid: int) -> set[int]:
    """The processes under ``pid`` (children, their children, …), from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = set(), [pid]
    while todo:
        here = todo.pop()
        kids = {p for p, parent in parents.items() if parent == here}
        found |= kids
        todo += kids
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGINT"])
@pytest.mark.parametrize("kind", ["clean", "rebuild"])
def test_a_killed_build_leaves_the_site_and_its_children_go(published: Project, kind: str, how: str) -> None:
    """``havoc docs`` stopped while Sphinx builds (a clean build: a process per language; a
    rebuild: the worker and its forked children): the published site stays byte for byte, no
    staging is inside it, the Sphinx processes end with it (SIGKILL: by the kernel's parent-death
    signal; Ctrl-C: each gets it), and the next build removes what it left beside the site and
    what older builds left inside it."""
    top = published.out
    before = snapshot(top)
    published.edit_rule("discard the rest to your", "throw the rest onto your")
    here = published.tmp / "sphinx-here"
    here.mkdir()
    args = ("--clean",) if kind == "clean" else ()
    proc = subprocess.Popen(
        published.command(*args),
        cwd=published.tmp,
        env=published.env(SLOW_SPHINX=str(here)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        # Ctrl-C in a terminal reaches a job whose SIGINT is not ignored; a suite started in the
        # background of a non-interactive shell (`make test &`) hands SIG_IGN down to every child
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    kids: set[int] = set()
    try:
        deadline = time.monotonic() + 300  # only against a hang: Sphinx starts in seconds
        while len(list(here.iterdir())) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(list(here.iterdir())) == 2, "both languages' Sphinx should be waiting in conf.py"
        kids = _descendants(proc.pid)
        assert {int(p.name) for p in here.iterdir()} <= kids
        if how == "SIGKILL":
            os.kill(proc.pid, signal.SIGKILL)
        else:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole group
        proc.wait(timeout=120)
        deadline = time.monotonic() + 60
        while any(_alive(pid) for pid in kids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in kids if _alive(pid)] == []
    finally:
        for pid in kids:  # what an old havoc left running
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert snapshot(top) == before
    assert strays(top) == []
    if how == "SIGINT":
        assert staging_beside(top) == []  # cleaned up on the way out
    # leftovers of older havoc versions inside the site (served by a static host) and a staging
    # folder of a killed build beside it: the next build removes them all
    (top / ".building-engine").mkdir()
    (top / ".building-engine" / "engine.json").write_text("half built")
    (top / ".building-en").mkdir()
    (top / ".building-en" / "index.html").write_text("half built")
    (top / "en" / ".buildinfo").write_text("config: 1")
    (top.parent / f".{top.name}.staging-killed").mkdir()
    done = published.docs(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert strays(top) == []
    assert staging_beside(top) == []
    assert "throw the rest onto your" in (top / "en" / "rules" / "draw.html").read_text(encoding="utf-8")


def test_two_builds_at_once_publish_whole_sites(published: Project) -> None:
    """A second ``havoc docs`` of the same site while one runs waits for it (it says so); both
    publish a whole site: every file sw.js lists is there with the bytes it lists."""
    published.edit_rule("discard the rest to your", "throw the rest onto your")
    runs = [
        subprocess.Popen(
            published.command(),
            cwd=published.tmp,
            env=published.env(ENGINE=f"ok:engine {n}"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in (3, 4)
    ]
    outputs = [run.communicate() for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert any("waiting for another build" in out for out, _err in outputs)
    top = published.out
    assert strays(top) == [] and staging_beside(top) == []
    assert (top / "_engine" / "engine.json").read_text() in ("engine 3", "engine 4")
    assert "throw the rest onto your" in (top / "en" / "rules" / "draw.html").read_text(encoding="utf-8")
    # sw.js is the one made for exactly these files (no file of the other build mixed in)
    from havoc.web.offline import write_service_worker

    again = published.tmp / "again"
    shutil.copytree(top, again)
    assert write_service_worker(again).read_bytes() == (top / "sw.js").read_bytes()


def test_a_folder_that_is_no_site_is_refused_and_left_alone(project: Project) -> None:
    """Publishing replaces the output folder as a whole: ``-o`` naming a folder of other things
    (a home folder, a project) is refused with a message naming it, and nothing in it changes."""
    project.out.mkdir(parents=True)
    (project.out / "notes.txt").write_text("mine")
    (project.out / ".ssh").mkdir()
    (project.out / ".ssh" / "config").write_text("Host x")
    before = snapshot(project.out)
    proc = project.docs()
    assert proc.returncode == 1
    assert f"error: {project.out}: holds no site havoc built" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert snapshot(project.out) == before
    assert staging_beside(project.out) == []


def test_a_hosts_own_files_in_the_site_are_kept(published: Project) -> None:
    """What a host needs at the top of the site (``.nojekyll``, ``.well-known/``, a ``CNAME``)
    and havoc does not make is published again by each build, as it was."""
    top = published.out
    (top / ".nojekyll").write_text("")
    (top / "CNAME").write_text("rules.example.org")
    (top / ".well-known").mkdir()
    (top / ".well-known" / "security.txt").write_text("Contact: mailto:x@example.org")
    proc = published.docs()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (top / "CNAME").read_text() == "rules.example.org"
    assert (top / ".nojekyll").is_file()
    assert (top / ".well-known" / "security.txt").read_text() == "Contact: mailto:x@example.org"
