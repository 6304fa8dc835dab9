"""Problem and warning codes (havoc.core.codes): every problem carries one, every code is documented
in English and Polish, and the outputs for programs carry it; a -W site build can leave one
warning out by its code."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from havoc import cli
from havoc.core.codes import MEANINGS, WARNING_TYPE, WARNINGS, Code
from havoc.language.i18n import ui

SRC = Path(__file__).resolve().parents[1] / "src" / "havoc"
REPO = SRC.parents[1]


def _constants() -> dict[str, str]:
    return {k: v for k, v in vars(Code).items() if k.isupper()}


def _calls(name: str) -> list[tuple[Path, ast.Call]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                if (func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)) == name:
                    found.append((path, node))
    return found


def test_every_code_has_a_meaning_and_every_meaning_a_code() -> None:
    values = list(_constants().values())
    assert len(values) == len(set(values)), "two constants share a code"
    assert set(values) == set(MEANINGS)
    assert set(MEANINGS) >= WARNINGS
    for code in values:
        assert re.fullmatch(r"[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+", code), code


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_every_problem_made_in_src_names_its_code() -> None:
    """A new ``Problem(…)`` without ``code=`` fails here, at its file and line."""
    uncoded = [
        f"{path.relative_to(REPO)}:{call.lineno}"
        for path, call in _calls("Problem")
        if not any(k.arg == "code" for k in call.keywords)
    ]
    assert uncoded == []


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_every_code_named_in_src_exists() -> None:
    known = set(_constants())
    used = {
        (path.relative_to(REPO), node.attr)
        for path in sorted(SRC.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code"
    }
    assert used, "no code is used: the scan is broken"
    assert sorted(f"{p}: Code.{a}" for p, a in used if a not in known) == []


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_every_sphinx_warning_of_havoc_is_coded() -> None:
    """``suppress_warnings = ["havoc.<code>"]`` works only for a warning whose subtype is a code."""
    warned = [
        (path, call)
        for path, call in _calls("warning")
        if "sphinxext" in path.parts
        and getattr(call.func, "value", None) is not None
        and getattr(call.func.value, "id", "") == "logger"  # type: ignore[attr-defined]
    ]
    assert warned
    for path, call in warned:
        kw = {k.arg: k.value for k in call.keywords}
        where = f"{path.relative_to(REPO)}:{call.lineno}"
        assert isinstance(kw.get("type"), ast.Name) and kw["type"].id == "WARNING_TYPE", where
        subtype = kw.get("subtype")
        assert isinstance(subtype, ast.Attribute) and isinstance(subtype.value, ast.Name), where
        assert getattr(Code, subtype.attr) in WARNINGS, where


def test_every_meaning_is_said_in_polish() -> None:
    untranslated = [meaning for meaning in MEANINGS.values() if ui(meaning, "pl") == meaning]
    assert untranslated == []


def test_the_codes_page_lists_every_code() -> None:
    page = (REPO / "docsbuild" / "problem-codes.md").read_text(encoding="utf-8")
    assert "```{havoc-codes}\n```" in page and "```{havoc-codes}\n:warnings:\n```" in page
    assert "problem-codes" in (REPO / "docsbuild" / "index.md").read_text(encoding="utf-8")


# --- the outputs for programs ------------------------------------------------------------


def test_ask_json_errors_carry_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    line = ["ask", "tests/fixtures/assistant/leave-8-vs-3.yaml", "move", "humans", "from=example-a", "to=nowhere"]
    assert cli.main([*line, "--json"]) == 2
    err = json.loads(capsys.readouterr().err)
    assert err["exit"] == 2
    assert [p["code"] for p in err["problems"]] == [Code.POSITION_UNKNOWN_REGION]
    assert err["problems"][0]["field"] == "to"
    assert cli.main(line) == 2  # a person's error line is unchanged: no code in it
    said = capsys.readouterr().err
    assert said.startswith("error: ") and Code.POSITION_UNKNOWN_REGION not in said


def test_the_api_error_body_carries_the_code() -> None:
    from havoc.assistant import webapi

    def asked(body: dict[str, object]) -> tuple[int, list[dict[str, object]]]:
        out = json.loads(webapi.handle("POST", "/api/ask", json.dumps(body), None))
        return out["status"], out["body"]["problems"]

    status, problems = asked({"question": "legal"})  # a field of the request itself
    assert status == 422 and [p["code"] for p in problems] == [Code.FIELD_MISSING]
    status, problems = asked({"position": {"players": ["humans", "elves"]}, "question": "legal"})  # of a position
    assert status == 422 and [p["code"] for p in problems] == [Code.FIELD_VALUE]
    assert problems[0]["field"] == "players[1]"


# --- -W builds leave a warning out by its code -----------------------------------------------

_CONF = """\
import os, sys
sys.path.insert(0, os.path.dirname(__file__))
extensions = ["untranslated_check"]
language = "pl"
locale_dirs = ["locales"]
gettext_compact = False
"""
_EXT = """\
def setup(app):
    from havoc.sphinxext.theme_i18n import check_translated  # the site's own check, alone

    app.connect("doctree-read", check_translated)
    return {"parallel_read_safe": True}
"""
_CODES_EXT = """\
def setup(app):
    from havoc.sphinxext.codes import setup_codes

    setup_codes(app)
    return {"parallel_read_safe": True}
"""
_PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Title"\nmsgstr "Tytuł"\n'


def _build(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    out = root / f"_build{len(list(root.glob('_build*')))}"
    cmd = [sys.executable, "-m", "sphinx", "-q", "-W", "-E", "-b", "html", *extra, str(root), str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_strict_build_leaves_out_a_warning_suppressed_by_its_code(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(_CONF)
    (tmp_path / "untranslated_check.py").write_text(_EXT)
    (tmp_path / "index.rst").write_text("Title\n=====\n\nAn untranslated paragraph.\n")
    (tmp_path / "locales" / "pl" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "locales" / "pl" / "LC_MESSAGES" / "index.po").write_text(_PO)
    name = f"{WARNING_TYPE}.{Code.PAGE_UNTRANSLATED}"
    strict = _build(tmp_path)
    assert strict.returncode != 0 and f"[{name}]" in strict.stderr  # the warning names its code
    assert _build(tmp_path, "-D", f"suppress_warnings={name}").returncode == 0, "suppressed by its code"
    other = f"{WARNING_TYPE}.{Code.SITE_DUPLICATE}"
    assert _build(tmp_path, "-D", f"suppress_warnings={other}").returncode != 0, "another code leaves it"


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_the_codes_page_says_every_code_once_in_the_build_language(tmp_path: Path) -> None:
    """The ``havoc-codes`` directive, alone in a small Polish build: every code, its meaning in Polish."""
    (tmp_path / "conf.py").write_text(_CONF.replace("untranslated_check", "codes_only"))
    (tmp_path / "codes_only.py").write_text(_CODES_EXT)
    (tmp_path / "index.rst").write_text(".. havoc-codes::\n\n.. havoc-codes::\n   :warnings:\n")
    built = _build(tmp_path)
    assert built.returncode == 0, built.stderr
    html = next(tmp_path.glob("_build*/index.html")).read_text(encoding="utf-8")
    shown = re.findall(r'<span class="pre">([^<]+)</span>', html)
    assert sorted(shown) == sorted(f"havoc.{c}" if c in WARNINGS else c for c in MEANINGS)
    assert "Brakuje wymaganego pola." in html and MEANINGS[Code.FIELD_MISSING] not in html
