"""Catalogs never lose a translation: reworded, removed and renamed rules keep their Polish."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from test_catalogs import GOOD, _translate_all

from havoc import catalogs, rulebook
from havoc.cli import main


@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mini_copy: Path) -> Path:
    root = tmp_path / "locales"
    monkeypatch.setenv("HAVOC_LOCALES", str(root))
    catalogs.update(rulebook.load("mini"))
    _translate_all(root / "pl/LC_MESSAGES/rules.po", {**GOOD, "draw-hand-limit:title": "Limit kart na ręce"})
    _translate_all(root / "pl/LC_MESSAGES/havoc.po")
    return root


def _entry(po: Path, context: str) -> tuple[str, bool]:
    with po.open("rb") as fh:
        cat = read_po(fh, locale="pl")
    for msg in cat:
        if msg.context == context:
            return str(msg.string), msg.fuzzy
    raise AssertionError(f"no entry {context}")


def test_changed_english_keeps_the_old_polish_as_fuzzy_with_the_previous_msgid(
    locales: Path, mini_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text(draw.read_text().replace("title: Hand limit", "title: The hand size limit"))
    catalogs.update(rulebook.load("mini"))
    po = locales / "pl/LC_MESSAGES/rules.po"
    assert _entry(po, "mini:draw-hand-limit:title") == ("Limit kart na ręce", True)
    text = po.read_text()
    assert '#| msgid "Hand limit"\nmsgctxt "mini:draw-hand-limit:title"\nmsgid "The hand size limit"' in text
    # the previous msgid survives a second update too (Babel's reader alone would drop it)
    before = po.read_bytes()
    catalogs.update(rulebook.load("mini"))
    assert po.read_bytes() == before


def test_a_removed_rule_stays_obsolete_and_comes_back_translated(locales: Path, mini_copy: Path) -> None:
    draw = mini_copy / "mini/sections/01-draw.yaml"
    original = draw.read_text()
    draw.write_text(original.replace("    summary: Draw {draw-count}, keep {hand-limit}.\n", ""))
    catalogs.update(rulebook.load("mini"))
    po = locales / "pl/LC_MESSAGES/rules.po"
    assert '#~ msgctxt "mini:draw-hand-limit:summary"' in po.read_text()
    draw.write_text(original)
    catalogs.update(rulebook.load("mini"))
    assert _entry(po, "mini:draw-hand-limit:summary") == ("PL Draw {draw-count}, keep {hand-limit}.", False)
    assert "#~" not in po.read_text()


def test_a_rule_renamed_in_retired_yaml_carries_its_translations(locales: Path, mini_copy: Path) -> None:
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text(draw.read_text().replace("id: draw-hand-limit", "id: draw-keep-limit"))
    retired = mini_copy / "mini/retired.yaml"
    retired.write_text(retired.read_text() + "  - {id: draw-hand-limit, successor: draw-keep-limit, reason: renamed}\n")
    catalogs.update(rulebook.load("mini"))
    po = locales / "pl/LC_MESSAGES/rules.po"
    assert _entry(po, "mini:draw-keep-limit:title") == ("Limit kart na ręce", False)
    assert _entry(po, "mini:draw-keep-limit:text")[0] == GOOD["draw-hand-limit:text"]
    assert "mini:draw-hand-limit:title" not in po.read_text()


def test_a_second_update_changes_nothing(locales: Path) -> None:
    files = sorted(locales.rglob("*.po*"))
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in files}
    catalogs.update(rulebook.load("mini"))
    catalogs.update(rulebook.load("mini"))
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in files} == before


def test_a_broken_quote_fails_check_at_its_line_and_update_refuses(
    locales: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    po = locales / "pl/LC_MESSAGES/rules.po"
    lines = po.read_text().splitlines(keepends=True)
    n = next(i for i, ln in enumerate(lines) if ln.startswith('msgstr "Limit kart'))
    lines[n] = 'msgstr "Limit "kart" na ręce"\n'
    po.write_text("".join(lines))
    broken = po.read_bytes()
    assert main(["check", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    assert re.search(rf"rules\.po:{n + 1}: msgstr: expected one quoted string", err), err
    assert main(["catalog", "update", "--ruleset", "mini"]) == 1
    assert f"rules.po:{n + 1}:" in capsys.readouterr().err
    assert po.read_bytes() == broken


def test_an_unwritable_locales_folder_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, mini_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HAVOC_LOCALES", "/proc/havoc-x")
    assert main(["catalog", "update", "--ruleset", "mini"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: /proc/havoc-x") and "Traceback" not in err


def _catalog(entries: list[tuple[str | None, str | tuple[str, str], str | tuple[str, ...]]]) -> catalogs.Catalog:
    cat = catalogs.Catalog(locale="pl", project=catalogs.HEADER_PROJECT, version="", fuzzy=False)
    for context, msgid, string in entries:
        cat.add(msgid, string, context=context)
    return cat


def test_a_msgid_moved_to_another_context_keeps_its_translation() -> None:
    """``ui`` → ``cli`` with the same English keeps the Polish as it is (not fuzzy, not ``#~``);
    ``ui`` → ``ui:n`` (a plural added: the English changed) keeps it as the first form, fuzzy."""
    old = _catalog(
        [
            ("ui", "show the rules", "pokaż zasady"),
            ("ui", "{count} Unit", "{count} Oddział"),
            ("ui", "Mountains", "Góry"),
            ("ui", "Region", "Region"),
        ]
    )
    template = _catalog(
        [
            ("cli", "show the rules", ""),
            ("ui:n", ("{count} Unit", "{count} Units"), ("", "")),
            ("ui:gen", "Mountains", ""),  # a case form is never the nominative copied
            ("ui", "Region", ""),
        ]
    )
    merged = catalogs.merge(old, template)
    moved = merged.get("show the rules", context="cli")
    assert moved is not None and moved.string == "pokaż zasady" and not moved.fuzzy
    counted = merged.get("{count} Unit", context="ui:n")
    assert counted is not None and counted.string[0] == "{count} Oddział" and counted.fuzzy
    case = merged.get("Mountains", context="ui:gen")
    assert case is not None and case.string == ""
    obsolete = {k if isinstance(k, str) else k[0] for k in merged.obsolete}
    assert "show the rules" not in obsolete and "{count} Unit" not in obsolete
    assert "Mountains" in obsolete  # kept for a translator, not lost
