"""Catalogs never lose a translation: reworded, removed and renamed rules keep their Polish."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from test_catalogs import GOOD, _translate_all

from havoc.cli import catalogs, main
from havoc.engine import rulebook


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


def _blocks(text: str) -> list[str]:
    """A catalog's entries as written (each with its comments), the header first."""
    return [b for b in re.split(r"\n\s*\n", text) if b.strip()]


def _string_lines(block: str) -> list[str]:
    return [ln for ln in block.split("\n") if ln.startswith(("msg", '"'))]


def test_an_update_keeps_a_translators_wrapping_and_every_untouched_entry_byte_for_byte(
    locales: Path, mini_copy: Path
) -> None:
    """A catalog last saved by a translator's tool (wrapped at 79 columns) is updated without
    rewrapping: untouched entries keep their bytes, the reworded one is written at 79 too."""
    from babel.messages.pofile import write_po

    po = locales / "pl/LC_MESSAGES/rules.po"
    with po.open("rb") as fh:
        cat = read_po(fh, locale="pl")
    with po.open("wb") as fh:
        write_po(fh, cat, width=79, no_location=True)
    before = _blocks(po.read_text())
    assert any(len(_string_lines(b)) > 2 and '\\n"' not in b for b in before), "nothing wrapped: the test tests nothing"
    draw = mini_copy / "mini/sections/01-draw.yaml"
    longer = "Draw {draw-count}, then keep at most {hand-limit} of them and discard every other card to your own pile."
    draw.write_text(draw.read_text().replace("summary: Draw {draw-count}, keep {hand-limit}.", f"summary: {longer}"))
    catalogs.update(rulebook.load("mini"))
    after = _blocks(po.read_text())
    changed = [b for b in after if b not in before]
    assert len(changed) == 1 and "mini:draw-hand-limit:summary" in changed[0], changed
    assert [b for b in after if b in before] == [b for b in before if "mini:draw-hand-limit:summary" not in b]
    assert _entry(po, "mini:draw-hand-limit:summary") == ("PL Draw {draw-count}, keep {hand-limit}.", True)
    lines = _string_lines(changed[0])
    assert len(lines) > 2 and max(map(len, lines)) <= 79, changed[0]
    catalogs.update(rulebook.load("mini"))
    assert _blocks(po.read_text()) == after


def test_docs_update_catalog_keeps_site_po_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``havoc docs --update-catalog`` once rewrapped the whole site.po at 100 columns (it
    wrote with its own width, ``havoc catalog update`` with none): it adds a new string and
    leaves every other entry, and the file's wrapping, as they were."""
    import subprocess

    from babel.messages.pofile import write_po

    from havoc.cli.commands import docs

    long_en = "A position is a YAML (or JSON) file. Every field except players may be left out; " * 2
    long_pl = "Opis stołu to plik YAML (lub JSON). Każde pole poza players można pominąć; " * 2
    old = _catalog([(None, "Battle", "Bitwa"), (None, long_en.strip(), long_pl.strip()), (None, "Gone", "Nie ma")])
    root = tmp_path / "locales"
    (root / "pl/LC_MESSAGES").mkdir(parents=True)
    site_po = root / "pl/LC_MESSAGES/site.po"
    site_po.write_bytes(catalogs.render_po(old, width=0, sort_output=True))
    written = site_po.read_text()
    monkeypatch.setenv("HAVOC_LOCALES", str(root))
    monkeypatch.chdir(tmp_path)
    template = _catalog([(None, "Battle", ""), (None, long_en.strip(), ""), (None, "Deciding…", "")])

    def fake_gettext(cmd: list[str], **_kw: object) -> subprocess.CompletedProcess[str]:
        out = Path(cmd[-1])
        out.mkdir(parents=True, exist_ok=True)
        with (out / "site.pot").open("wb") as fh:
            write_po(fh, template, width=76)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(docs.subprocess, "run", fake_gettext)
    assert docs.update_catalog("cry-havoc", tmp_path / "doctrees") == 0
    capsys.readouterr()
    after = _blocks(site_po.read_text())
    kept = [b for b in _blocks(written)[1:] if "Gone" not in b]
    assert all(b in after for b in kept), (kept, after)
    assert 'msgid "Deciding…"\nmsgstr ""' in after
    assert any(b.startswith('#~ msgid "Gone"') for b in after)  # unused: kept for later, not lost
    assert max(len(ln) for ln in site_po.read_text().split("\n")) > 100  # not rewrapped
    files = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (site_po, root / "site.pot")}
    assert docs.update_catalog("cry-havoc", tmp_path / "doctrees") == 0
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in files} == files  # a second update writes nothing


def test_a_file_saved_with_windows_line_ends_keeps_them() -> None:
    """A catalog saved on Windows (CRLF) gets its new entry with CRLF too, and no entry changes
    its line ends: the file is not turned into a diff of every line."""
    old = _catalog([("ui", "Battle", "Bitwa"), ("ui", "Reserve", "Rezerwa")])
    data = catalogs.render_po(old).replace(b"\n", b"\r\n")
    new = _catalog([("ui", "Battle", "Bitwa"), ("ui", "Crystal", ""), ("ui", "Reserve", "Rezerwa")])
    out = catalogs.render_keeping(new, data)
    assert b"\n" not in out.replace(b"\r\n", b"")
    assert b'msgctxt "ui"\r\nmsgid "Crystal"\r\nmsgstr ""\r\n' in out
    for block in data.split(b"\r\n\r\n")[1:]:
        assert block in out


@pytest.mark.parametrize("width", [0, 60, 76, 79, 100])
def test_the_wrapping_width_is_read_from_the_file(width: int) -> None:
    """New entries are wrapped as the file's are: the width read from the file wraps its strings
    the same (a usual width exactly; 60 may read as 59, which wraps these lines alike)."""
    from havoc.language import pofile

    words = " ".join(f"word{i}" for i in range(40))
    cat = _catalog([("ui", f"{words} {n}", f"{words} PL {n}") for n in range(5)])
    text = catalogs.render_po(cat, width=width).decode()
    found = pofile.wrap_width(text)
    assert catalogs.render_po(cat, width=found).decode() == text
    if width != 60:
        assert found == width


def test_one_entry_wrapped_by_hand_does_not_wrap_a_file_of_long_lines() -> None:
    from havoc.language import pofile

    words = " ".join(f"word{i}" for i in range(40))
    text = catalogs.render_po(_catalog([("ui", f"{words} {n}", f"{words} PL {n}") for n in range(5)])).decode()
    line = next(ln for ln in text.split("\n") if ln.startswith("msgstr") and "PL 4" in ln)
    body = line.removeprefix('msgstr "')[:-1]
    hand = f'msgstr ""\n"{body[:50]}"\n"{body[50:]}"'
    assert pofile.wrap_width(text.replace(line, hand)) == 0


def test_a_catalog_saved_with_a_byte_order_mark_is_read_and_keeps_it(
    locales: Path, mini_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A translator's tool (Notepad, some PO editors) may start the file with UTF-8's byte-order
    mark: the catalog is read as written (never "Unknown or misformatted keyword on 0"), its
    translations are used, and an update writes it back with the mark, changing only what changed."""
    from havoc.language import i18n

    bom = b"\xef\xbb\xbf"
    po, pot = locales / "pl/LC_MESSAGES/rules.po", locales / "rules.pot"
    for path in (po, pot, locales / "pl/LC_MESSAGES/havoc.po"):
        path.write_bytes(bom + path.read_bytes())
    assert main(["check", "--ruleset", "mini"]) == 0, capsys.readouterr().err
    assert i18n.load_catalog("pl").singular[("mini:draw-hand-limit:title", "Hand limit")] == "Limit kart na ręce"
    before = po.read_bytes()
    catalogs.update(rulebook.load("mini"))
    assert po.read_bytes() == before  # nothing changed: nothing written, the mark kept
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text(draw.read_text().replace("title: Hand limit", "title: The hand size limit"))
    assert main(["catalog", "update", "--ruleset", "mini"]) == 0, capsys.readouterr().err
    after = po.read_bytes()
    assert after.startswith(bom) and after.count(bom) == 1 and pot.read_bytes().startswith(bom)
    assert _entry(po, "mini:draw-hand-limit:title") == ("Limit kart na ręce", True)
    changed = set(after.decode("utf-8-sig").split("\n\n")) ^ set(before.decode("utf-8-sig").split("\n\n"))
    assert all("draw-hand-limit:title" in block for block in changed), changed  # the one entry, nothing else


def test_catalog_update_names_only_the_files_it_wrote(
    locales: Path, mini_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A translator reads the command's output to know which file to open again: an update that
    changed nothing says so, and one that changed a rule names that domain's files only (it used
    to print "updated" for every catalog on every run)."""
    monkeypatch.setenv("HAVOC_LANG", "en")
    capsys.readouterr()
    assert main(["catalog", "update", "--ruleset", "mini"]) == 0
    assert capsys.readouterr().out == "the catalogs are up to date: nothing written\n"
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text(draw.read_text().replace("title: Hand limit", "title: The hand size limit"))
    assert main(["catalog", "update", "--ruleset", "mini"]) == 0
    named = sorted(Path(line.removeprefix("updated ")).name for line in capsys.readouterr().out.splitlines())
    assert named == ["rules.po", "rules.pot"]


def test_a_language_header_babel_does_not_know_keeps_every_plural_form(
    locales: Path, mini_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A translator's tool wrote ``Language: ql`` (a typo) into the Polish rules.po. Babel then
    knows no plural rule and writes two forms and no Plural-Forms line: the update cut every
    Polish plural to two and the next read lost the third (found by the catalog fuzz target).
    The file's own rule is kept, no form is lost, and ``havoc check`` names the header."""
    po = locales / "pl/LC_MESSAGES/rules.po"
    text = po.read_text(encoding="utf-8")
    assert '"Language: pl\\n"' in text
    po.write_text(text.replace('"Language: pl\\n"', '"Language: ql\\n"'), encoding="utf-8")
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text(draw.read_text().replace("title: Hand limit", "title: The hand size limit"))
    catalogs.update(rulebook.load("mini"))
    after = po.read_text(encoding="utf-8")
    assert 'msgstr[2] "Oddziałów"' in after
    assert "Plural-Forms: nplurals=3;" in after
    with po.open("rb") as fh:
        assert read_po(fh, locale="pl").num_plurals == 3
    capsys.readouterr()
    assert main(["check", "--ruleset", "mini"]) == 1
    assert "its header says Language: ql, but the file is under pl/" in capsys.readouterr().err


# Each test here takes seconds (a fuzzed server, catalogs updated and read again): in `make test`,
# not in the inner loop (`make test-fast`).
pytestmark = pytest.mark.slow
