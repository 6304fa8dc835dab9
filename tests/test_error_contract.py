"""One error contract: the API raises only InputError/RulebookError; the CLI prints one line.

Also: outputs are all or nothing (a failed Polish build keeps the previous site; a failed sheet
keeps the previous sheet) and the preview server serves built pages only.
"""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from havoc.assistant import api
from havoc.cli import main
from havoc.core.errors import InputError, RulebookError

REPO = Path(__file__).resolve().parents[1]
POSITION = REPO / "tests/fixtures/assistant/twenty.yaml"


def _pos() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(POSITION.read_text())
    return data


CASES: dict[str, Callable[[], object]] = {
    "an int faction key": lambda: api.legal({"players": ["humans", "pilgrims"], "factions": {1: {}}}),
    "None": lambda: api.legal(None),  # type: ignore[arg-type]
    "a list": lambda: api.legal([1]),  # type: ignore[arg-type]
    "objectives not per side": lambda: api.battle(_pos(), "example-07", {"humans": 5}),  # type: ignore[dict-item]
    "objectives not a mapping": lambda: api.battle(_pos(), "example-07", [1]),  # type: ignore[arg-type]
    "an unknown ruleset": lambda: api.legal(_pos(), ruleset="nope"),
    "an unknown ruleset for the schema": lambda: api.schema("nope"),
    "a ruleset path that is no ruleset": lambda: api.legal(_pos(), ruleset="/"),
    "an unknown language": lambda: api.legal(_pos(), lang="xx"),
    "a question that is None": lambda: api.ask(_pos(), None),  # type: ignore[arg-type]
    "a missing file": lambda: api.legal("/nonexistent/position.yaml"),
    "a device": lambda: api.legal("/dev/zero"),
    "a huge crystal count": lambda: api.score({**_pos(), "round": 1e300}),
    "a solo position with no players": lambda: api.score({"players": [], "variant": "solo"}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_api_raises_only_input_error(case: str) -> None:
    with pytest.raises(InputError) as info:
        CASES[case]()
    assert info.value.problems and all(str(p) for p in info.value.problems)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_variant_position_with_no_players_is_a_located_error_not_a_traceback(
    tmp_path: Path, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`players: []` with `variant: solo` was an IndexError in score (a traceback in the CLI, a 500
    from the API): now the position's own error, at its line, in the asker's language."""
    import json

    from havoc.assistant import webapi

    pos = tmp_path / "solo.yaml"
    pos.write_text("variant: solo\nplayers: []\n")
    words = {"en": "players: expected at least one faction, found none", "pl": "nie podano żadnej"}
    assert main(["score", str(pos), "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert err.startswith(("error: " if lang == "en" else "błąd: ") + f"{pos}:2: ") and words[lang] in err, err
    assert "Traceback" not in err
    for question in ("score", "winner"):
        assert main(["ask", str(pos), question, "--lang", lang]) == 2, question
        assert words[lang] in capsys.readouterr().err
    body = json.dumps({"position": {"players": [], "variant": "solo"}, "lang": lang})
    out = json.loads(webapi.handle("POST", "/api/score", body))
    assert out["status"] == 422, out
    [problem] = out["body"]["problems"]
    assert problem["field"] == "players" and words[lang].split(": ")[-1] in problem["message"], out


def test_broken_rules_are_a_rulebook_error(mini_copy: Path) -> None:
    (mini_copy / "mini/sections/01-draw.yaml").write_text("id: [\n")
    with pytest.raises(RulebookError):
        api.legal(_pos(), ruleset="mini")


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "havoc", *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _single_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    return lines[0]


def test_docs_output_under_a_file_is_one_line_exit_1(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    proc = _run("docs", "-o", str(tmp_path / "file" / "site"))
    assert proc.returncode == 1 and "cannot write here" in _single_error_line(proc)


def test_sheet_output_in_proc_is_one_line_exit_1() -> None:
    proc = _run("sheet", "--lang", "en", "-o", "/proc/x.pdf")
    assert proc.returncode == 1 and "/proc" in _single_error_line(proc)


def test_a_port_out_of_range_is_one_line_exit_1(tmp_path: Path) -> None:
    proc = _run("docs", "--serve", "--port", "99999", "-o", str(tmp_path / "site"))
    assert proc.returncode == 1 and "expected a port from 1 to 65535" in _single_error_line(proc)


def test_a_busy_port_is_one_line_exit_1(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        proc = _run("docs", "--serve", "--port", str(port), "-o", str(tmp_path / "site"))
    assert proc.returncode == 1 and f"port {port} is in use" in _single_error_line(proc)


# --- the preview server -----------------------------------------------------------------


@pytest.fixture
def preview(tmp_path: Path) -> Iterator[str]:
    from havoc.cli.commands.docs import BuiltPagesHandler

    site = tmp_path / "site"
    (site / "en" / "_sources").mkdir(parents=True)
    (site / "en" / "_static").mkdir()
    (site / "en" / "index.html").write_text("<p>rules</p>")
    (site / "en" / "_static" / "havoc.css").write_text("p{}")
    (site / "en" / "_sources" / "index.md.txt").write_text("source")
    (site / "en" / ".buildinfo").write_text("config: 123")
    (site / ".building-pl").mkdir()
    (site / ".building-pl" / "index.html").write_text("half built")

    class Quiet(BuiltPagesHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    def handler(*a: Any, **kw: Any) -> Quiet:
        return Quiet(*a, directory=str(site), **kw)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/en/index.html", 200),
        ("/en/", 200),
        ("/en/_static/havoc.css", 200),
        ("/", 404),  # a folder without index.html: no listing
        ("/en/_static/", 404),
        ("/en/_sources/index.md.txt", 404),
        ("/en/_sources/", 404),
        ("/en/.buildinfo", 404),
        ("/en/%2ebuildinfo", 404),
        ("/.building-pl/index.html", 404),
        ("/en/../en/.buildinfo", 404),
    ],
)
def test_the_preview_serves_built_pages_only(preview: str, path: str, status: int) -> None:
    assert _status(preview + path) == status


# --- all-or-nothing outputs ---------------------------------------------------------------


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_failed_build_keeps_the_previous_site(tmp_path: Path) -> None:
    from havoc.cli.commands.docs import build_languages

    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        "project = 'x'\n"
        "def setup(app):\n"
        "    app.add_config_value('havoc_ruleset', '', 'env')\n"
        "    app.add_config_value('havoc_sheets_dir', '', 'env')\n"
    )
    (source / "index.rst").write_text("Title\n=====\n\nVersion one.\n")
    out, dt = tmp_path / "out", tmp_path / "dt"
    assert build_languages(["pl"], out, dt, "cry-havoc", tmp_path, source)[0].code == 0
    assert "Version one." in (out / "pl" / "index.html").read_text()
    (source / "index.rst").write_text("Title\n=====\n\nVersion two :unknownrole:`x`.\n")  # a warning: -W fails
    result = build_languages(["pl"], out, dt, "cry-havoc", tmp_path, source)[0]
    assert result.code != 0
    assert "Version one." in (out / "pl" / "index.html").read_text()
    assert sorted(p.name for p in out.iterdir()) == ["pl"]  # no half-built folder left
    (source / "index.rst").write_text("Title\n=====\n\nVersion three.\n")
    assert build_languages(["pl"], out, dt, "cry-havoc", tmp_path, source)[0].code == 0
    assert "Version three." in (out / "pl" / "index.html").read_text()


def test_a_built_folder_is_placed_as_links_without_dot_files(tmp_path: Path) -> None:
    """A language Sphinx built (in its work folder, beside the site) is put in the staging site as
    hard links to its files, without Sphinx's ``.buildinfo`` or any other dot-file or dot-folder
    (a static host would serve them); what the staging copy had there before goes."""
    import os

    from havoc.cli.commands.docs import place

    built = tmp_path / ".site.work" / "en"
    (built / "rules").mkdir(parents=True)
    (built / "index.html").write_text("two")
    (built / "rules" / "a.html").write_text("a")
    (built / ".buildinfo").write_text("config: 1")
    (built / ".building-pl").mkdir()
    (built / ".building-pl" / "index.html").write_text("half built")
    dest = tmp_path / "stage" / "en"
    dest.mkdir(parents=True)
    (dest / "old.html").write_text("from the site before")
    place(built, dest)
    files = sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())
    assert files == ["index.html", "rules/a.html"]
    assert os.path.samefile(dest / "index.html", built / "index.html")


def test_a_failed_sheet_keeps_the_previous_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from havoc import quickref
    from havoc.core.errors import Problem

    page = tmp_path / "en.html"
    page.write_text("previous sheet")

    def half_then_fail(lang: str, pdf: Path | None, html: Path | None, *a: Any) -> None:
        assert html is not None and html != page
        html.write_text("half a sheet")
        raise RulebookError([Problem("sheet.yaml", 3, "does not fit two pages")])

    monkeypatch.setattr(quickref, "build", half_then_fail)
    assert main(["sheet", "--lang", "en", "-o", str(page)]) == 1
    assert page.read_text() == "previous sheet"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["en.html"]
    assert "sheet.yaml:3: does not fit two pages" in capsys.readouterr().err


@pytest.mark.parametrize("path", ["/en/index.html", "/en/_static/havoc.css", "/en/.buildinfo"])
def test_the_preview_sends_the_sites_security_headers(preview: str, path: str) -> None:
    """``havoc docs --serve`` answers as ``havoc serve`` does: no sniffing, no referrer, no
    framing, on pages, files and refusals alike."""
    try:
        with urllib.request.urlopen(preview + path, timeout=10) as resp:
            got = resp.headers
    except urllib.error.HTTPError as exc:
        got = exc.headers
    assert got["X-Content-Type-Options"] == "nosniff"
    assert got["Referrer-Policy"] == "no-referrer"
    assert got["X-Frame-Options"] == "DENY"
    assert got["Content-Security-Policy"] == "frame-ancestors 'none'"
