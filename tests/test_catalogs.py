"""Catalogs: extraction with context and location, update, and every kind of catalog error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from havoc.cli import catalogs, main
from havoc.engine import rulebook
from havoc.language.i18n import Translator, load_catalog

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mini_copy: Path) -> Path:
    root = tmp_path / "locales"
    monkeypatch.setenv("HAVOC_LOCALES", str(root))
    return root


def _translate_all(po: Path, fill: dict[str, str] | None = None) -> None:
    with po.open("rb") as fh:
        cat = read_po(fh, locale="pl")
    for msg in cat:
        if not msg.id:
            continue
        if isinstance(msg.id, tuple):
            msg.string = ("Oddział", "Oddziały", "Oddziałów")
        else:
            msg.string = (fill or {}).get((msg.context or "").removeprefix("mini:"), "PL " + msg.id)
        msg.flags.discard("fuzzy")
    with po.open("wb") as fh:
        write_po(fh, cat, width=0)


GOOD = {
    "draw-hand-limit:text": "Dobierz {draw-count} {draw-count:kartę|karty|kart}. Zatrzymaj {hand-limit}. [Regiony Bitwy](rule:battle-regions)"
}


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_extract_keeps_context_without_locations(locales: Path) -> None:
    rs = rulebook.load("mini")
    catalogs.update(rs)
    pot = (locales / "rules.pot").read_text()
    assert 'msgctxt "mini:draw-hand-limit:text"' in pot
    # no `#:` references at all, in templates or catalogs: moving code or YAML is no catalog churn
    for path in (*locales.glob("*.pot"), *locales.glob("*/LC_MESSAGES/*.po")):
        assert not re.search(r"^#:", path.read_text(), re.M), path
    assert 'msgid_plural "Units"' in pot
    assert "Keep every {placeholder}" in pot


def test_babel_entry_point_extractor_gives_contexts(mini_copy: Path) -> None:
    from babel.messages.extract import extract

    path = mini_copy / "mini" / "sections" / "02-battle-regions.yaml"
    with path.open("rb") as fh:
        found = list(extract("havoc-rules", fh))
    contexts = {ctx for _line, _msg, _comments, ctx in found}
    assert "mini:battle-region-leave:text" in contexts and "mini:ex-leave:title" in contexts


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_missing_translations_fail_then_pass(locales: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rs = rulebook.load("mini")
    catalogs.update(rs)
    assert main(["catalog", "check", "--ruleset", "mini"]) == 1
    assert "missing pl translation" in capsys.readouterr().err
    _translate_all(locales / "pl/LC_MESSAGES/rules.po", GOOD)
    _translate_all(locales / "pl/LC_MESSAGES/havoc.po")
    assert main(["catalog", "check", "--ruleset", "mini"]) == 0, capsys.readouterr().err
    tr = Translator("pl", load_catalog("pl", locales), scope=rs.id)
    assert tr.render(rs, "draw-hand-limit:text", rs.rules["draw-hand-limit"].text).startswith("Dobierz 4 karty.")
    assert tr.term_name(rs, "unit", 1) == "Oddział"
    assert tr.term_name(rs, "unit", 2) == "Oddziały"
    assert tr.term_name(rs, "unit", 5) == "Oddziałów"


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@pytest.mark.parametrize(
    ("translation", "problem"),
    [
        ("Dobierz karty. Zatrzymaj {hand-limit}. [R](rule:battle-regions)", "placeholders differ"),
        (
            "Dobierz {draw-count} {draw-count:karty|kart}. Zatrzymaj {hand-limit}. [R](rule:battle-regions)",
            "needs 3 forms",
        ),
        ("Dobierz {draw-count} {draw-count:kartę|karty|kart}. Zatrzymaj {hand-limit}.", "links differ"),
    ],
)
def test_broken_translations_are_located(
    locales: Path, capsys: pytest.CaptureFixture[str], translation: str, problem: str
) -> None:
    catalogs.update(rulebook.load("mini"))
    _translate_all(locales / "pl/LC_MESSAGES/rules.po", {"draw-hand-limit:text": translation})
    _translate_all(locales / "pl/LC_MESSAGES/havoc.po")
    assert main(["catalog", "check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    assert problem in err and "rules.po:" in err and "[mini:draw-hand-limit:text]" in err


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_stale_catalog_after_a_rule_changes(locales: Path, mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalogs.update(rulebook.load("mini"))
    _translate_all(locales / "pl/LC_MESSAGES/rules.po", GOOD)
    _translate_all(locales / "pl/LC_MESSAGES/havoc.po")
    assert main(["catalog", "check", "--ruleset", "mini"]) == 0, capsys.readouterr().err
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text(draw.read_text().replace("title: Hand limit", "title: Hand size limit"))
    assert main(["catalog", "check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    assert "missing pl entry [mini:draw-hand-limit:title]" in err
    assert "stale entry" in err
    catalogs.update(rulebook.load("mini"))
    assert main(["catalog", "check", "--ruleset", "mini"]) == 1
    assert "fuzzy" in capsys.readouterr().err


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_translation_may_add_a_plural_word(locales: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalogs.update(rulebook.load("mini"))
    fill = dict(GOOD)
    fill["draw-hand-limit:summary"] = "Dobierz {draw-count}, zatrzymaj {hand-limit} {hand-limit:kartę|karty|kart}."
    _translate_all(locales / "pl/LC_MESSAGES/rules.po", fill)
    _translate_all(locales / "pl/LC_MESSAGES/havoc.po")
    assert main(["catalog", "check", "--ruleset", "mini"]) == 0, capsys.readouterr().err


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_moving_a_line_does_not_make_the_template_stale(
    locales: Path, mini_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalogs.update(rulebook.load("mini"))
    _translate_all(locales / "pl/LC_MESSAGES/rules.po", GOOD)
    _translate_all(locales / "pl/LC_MESSAGES/havoc.po")
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text("# a comment that moves every line down\n" + draw.read_text())
    assert main(["catalog", "check", "--ruleset", "mini"]) == 0, capsys.readouterr().err


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_the_templates_are_derived_not_required(
    locales: Path, mini_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The .pot files are written by `havoc catalog update` for translators' tools and kept out of
    git: the catalogs are judged against the template extracted in memory, with or without them."""
    catalogs.update(rulebook.load("mini"))
    _translate_all(locales / "pl/LC_MESSAGES/rules.po", GOOD)
    _translate_all(locales / "pl/LC_MESSAGES/havoc.po")
    for pot in locales.glob("*.pot"):
        pot.unlink()
    assert main(["catalog", "check", "--ruleset", "mini"]) == 0, capsys.readouterr().err
    ignored = (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "/locales/havoc.pot" in ignored and "/locales/rules.pot" in ignored


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_moving_code_or_yaml_changes_no_catalog(locales: Path, mini_copy: Path) -> None:
    """A template or catalog names no file or line: an update after a move writes the same bytes."""
    catalogs.update(rulebook.load("mini"))
    files = sorted((*locales.glob("*.pot"), *locales.glob("*/LC_MESSAGES/*.po")))
    before = {p: catalogs._strip_dates(p.read_bytes()) for p in files}
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text("# a comment that moves every line down\n" + draw.read_text())
    catalogs.update(rulebook.load("mini"))
    assert {p: catalogs._strip_dates(p.read_bytes()) for p in files} == before


def test_the_ui_strings_are_extracted_again_whenever_a_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The extraction kept in havoc's cache is what Babel finds in the package as it is now: an
    edited, an added or a removed file extracts again; an unchanged package is not read again."""
    package = tmp_path / "havoc"
    (package / "kinds").mkdir(parents=True)
    (package / "a.py").write_text('ui("One")\n', encoding="utf-8")
    monkeypatch.setattr(catalogs, "SRC", package)

    def strings() -> list[object]:
        return [message for _file, _line, message, _comments in catalogs.ui_strings()]

    assert strings() == ["One"]
    (package / "a.py").write_text('ui("Two")\n', encoding="utf-8")
    assert strings() == ["Two"]
    (package / "kinds" / "b.py").write_text('# TRANSLATORS: counted\nnui("Unit", "Units")\n', encoding="utf-8")
    assert sorted(map(str, strings())) == ["('Unit', 'Units')", "Two"]
    assert ("kinds/b.py", 2, ("Unit", "Units"), ["TRANSLATORS: counted"]) in catalogs.ui_strings()
    (package / "a.py").unlink()
    assert strings() == [("Unit", "Units")]
    monkeypatch.setattr(catalogs, "extract_from_dir", lambda *a, **k: pytest.fail("read again"))
    assert strings() == [("Unit", "Units")]  # kept: nothing changed
