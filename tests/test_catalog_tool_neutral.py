"""A catalog is judged by its messages, never by the tool or the day that wrote it.

Babel 2.19.0 (released after a green build) writes ``Generated-By: Babel 2.19.0`` and spells the
Polish plural rule anew (``n == 1 ? 0 : ... (n % 100 < 12 || n % 100 > 14) ...``); ``havoc check``
called every committed template "out of date" and ``make site`` failed on a fresh machine though
no message had changed. These tests rewrite the real catalogs as another tool would and expect
no complaint and no rewrite.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from havoc.cli import catalogs
from havoc.engine import rulebook

REPO = Path(__file__).resolve().parents[1]
OTHER_POLISH_RULE = (
    '"Plural-Forms: nplurals=3; plural=n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && '
    '(n % 100 < 12 || n % 100 > 14) ? 1 : 2;\\n"'
)


def _as_another_tool_wrote_it(root: Path) -> None:
    for path in root.rglob("*.po*"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r'"Generated-By: [^"\\]*\\n"', '"Generated-By: Babel 9.99.0\\\\n"', text)
        text = re.sub(r'"POT-Creation-Date: [^"\\]*\\n"', '"POT-Creation-Date: 2031-01-01 00:00+0000\\\\n"', text)
        text = re.sub(r'"Plural-Forms: [^"]*"', lambda _m: OTHER_POLISH_RULE, text) if "/pl/" in str(path) else text
        path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real catalogs with their templates extracted, as another tool wrote them: made once
    (extracting the templates is the slow part), copied afresh for each test."""
    root = tmp_path_factory.mktemp("rewritten") / "locales"
    shutil.copytree(REPO / "locales", root)
    catalogs.extract(rulebook.load("cry-havoc"), root)  # the templates, derived (not kept in git)
    _as_another_tool_wrote_it(root)
    return root


@pytest.fixture
def locales(rewritten: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "locales"
    shutil.copytree(rewritten, root)  # copy2: the same bytes and times, as if written there
    monkeypatch.setenv("HAVOC_LOCALES", str(root))
    return root


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_the_rewrite_really_changed_the_headers(locales: Path) -> None:
    po = (locales / "pl/LC_MESSAGES/havoc.po").read_text(encoding="utf-8")
    assert "Babel 9.99.0" in po and "n % 100 < 12" in po
    assert "Babel 9.99.0" in (locales / "havoc.pot").read_text(encoding="utf-8")


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_check_judges_messages_not_the_tool(locales: Path) -> None:
    report = catalogs.check_all(rulebook.load("cry-havoc"), locales)
    assert report.problems == []


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_an_update_after_a_tool_change_rewrites_no_file(locales: Path) -> None:
    before = {p: p.read_bytes() for p in locales.rglob("*.po*")}
    catalogs.update(rulebook.load("cry-havoc"), locales)
    assert {p: p.read_bytes() for p in locales.rglob("*.po*")} == before


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_real_message_change_is_still_out_of_date(locales: Path) -> None:
    po = locales / "pl/LC_MESSAGES/havoc.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "A Cry Havoc position."', 'msgid "X"', 1), "utf-8")
    report = catalogs.check_all(rulebook.load("cry-havoc"), locales)
    assert any("havoc.po" in p and "A Cry Havoc position." in p for p in report.problems), report.problems


def test_a_different_plural_rule_is_not_the_same_rule() -> None:
    polish = catalogs._plural_meaning(OTHER_POLISH_RULE.encode())
    spaced = catalogs._plural_meaning(
        b'"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"'
    )
    english = catalogs._plural_meaning(b'"Plural-Forms: nplurals=3; plural=(n != 1);\\n"')
    assert polish == spaced
    assert polish != english
