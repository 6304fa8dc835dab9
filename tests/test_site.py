"""The rules site: fixture projects and the real site, built in both languages with -nW --keep-going.

Each language is built the way ``havoc docs`` builds it (one Sphinx process per language), so a
missing Polish string, a broken rule or term reference or a stale catalog fails here exactly as it
fails for a user. The real site is built once per session (both languages) and shared with
tests/test_browser.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import built_once, copy_keeping_links

from havoc.cli.commands.docs import SOURCE, build_languages, sphinx_command, write_root
from havoc.engine import rulebook
from havoc.language.i18n import LANGUAGES

REPO = Path(__file__).resolve().parents[1]
ROOTS = Path(__file__).parent / "roots"
MINI_RULES = Path(__file__).parent / "fixtures" / "mini"

pytestmark = pytest.mark.slow


@dataclass
class Site:
    """A built site: ``out/<lang>/`` per language, plus what it was built from."""

    out: Path
    source: Path
    doctrees: Path
    rules: Path
    ruleset: str
    outputs: dict[str, str]

    def page(self, lang: str, name: str) -> str:
        return (self.out / lang / name).read_text(encoding="utf-8")

    def pages(self, lang: str) -> set[str]:
        return {str(p.relative_to(self.out / lang)) for p in (self.out / lang).rglob("*.html")}

    def rebuild(self, lang: str) -> subprocess.CompletedProcess[str]:
        """An incremental build of one language (verbose, so the re-read pages are listed)."""
        cmd = [
            c
            for c in sphinx_command(
                "html", lang, self.out / lang, self.doctrees / lang, self.ruleset, self.out / "no-sheets", self.source
            )
            if c != "-q"
        ]
        # Plain output: Sphinx colours its progress lines when CI=true, which hides the page names.
        env = {**os.environ, "NO_COLOR": "1"}
        return subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)


def build_site(source: Path, out: Path, ruleset: str, rules: Path, langs: tuple[str, ...] = LANGUAGES) -> Site:
    results = build_languages(list(langs), out, out.parent / "doctrees", ruleset, out / "no-sheets", source)
    site = Site(out, source, out.parent / "doctrees", rules, ruleset, {r.lang: r.output for r in results})
    for res in results:
        assert res.code == 0, f"the {res.lang} build of {source} failed:\n{res.output}"
    return site


def copy_root(name: str, dest: Path) -> Path:
    src = dest / name
    shutil.copytree(ROOTS / name, src, ignore=shutil.ignore_patterns("rules", "*.mo"))
    return src


@pytest.fixture
def mini_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """A scratch copy of the mini fixture project and its rules, made the ones havoc reads."""
    rules = tmp_path / "rules"
    shutil.copytree(MINI_RULES, rules)
    source = copy_root("test-mini", tmp_path)
    monkeypatch.setenv("HAVOC_RULES", str(rules))
    monkeypatch.setenv("HAVOC_LOCALES", str(source / "locales"))
    yield source, rules


def _mini_at(work: Path) -> Site:
    """The mini project's site at ``work`` (its rules, sources, site and doctrees), as built there."""
    source = work / "test-mini"
    return Site(work / "site", source, work / "doctrees", work / "rules", "mini", {})


@pytest.fixture(scope="module")
def mini_built_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The mini project built, both languages, once for this module's tests that edit and rebuild
    it, and kept aside: (the folder it was built in, the kept copy). See :func:`mini_site`."""
    work = tmp_path_factory.mktemp("mini-site")  # the importing module's own: one test at a time
    rules = work / "rules"
    shutil.copytree(MINI_RULES, rules)
    source = copy_root("test-mini", work)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HAVOC_RULES", str(rules))
        mp.setenv("HAVOC_LOCALES", str(source / "locales"))
        mp.setenv("HAVOC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))  # as _isolated_cache
        build_site(source, work / "site", "mini", rules)
    kept = tmp_path_factory.mktemp("mini-kept") / "work"
    copy_keeping_links(work, kept)
    return work, kept


@pytest.fixture
def mini_site(mini_built_once: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Site:
    """The mini site, both languages, of this test's own, which it may edit and rebuild: the
    module's one build put back, as that build left it (dates, hard links), at the very place it
    was built in (its doctrees and work folder name their absolute paths, so the test's rebuild
    is the same incremental one as right after a build of its own), its rules and catalogs the
    ones havoc reads."""
    work, kept = mini_built_once
    shutil.rmtree(work)
    copy_keeping_links(kept, work)
    site = _mini_at(work)
    monkeypatch.setenv("HAVOC_RULES", str(site.rules))
    monkeypatch.setenv("HAVOC_LOCALES", str(site.source / "locales"))
    return site


_REAL: list[Site] = []


def _build_real(folder: Path) -> Site:
    site = build_site(SOURCE, folder / "site", rulebook.default_ruleset(), rulebook.rules_root())
    write_root(site.out)
    return site


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The real site from rules/ and locales/, both languages, as ``havoc docs`` builds it: once
    per run, shared by every module that imports this fixture and by every xdist worker. Tests
    read it; a test that changes a site builds or copies its own."""
    if not _REAL:
        _REAL.append(built_once(tmp_path_factory, "real-site", _build_real))
    return _REAL[0]


ACV = "advanced-cry-havoc"


def _build_acv(folder: Path) -> Site:
    from havoc.cli.commands.docs import source_for

    return build_site(source_for(ACV), folder / "site", ACV, rulebook.rules_root())


@pytest.fixture(scope="session")
def acv_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The Advanced Cry Havoc 2 site, both languages, Sphinx's pages alone (``out/<lang>/``, no
    engine, no printable sheet): built once per run for every module and xdist worker, as
    :func:`real_site` is. Tests read it; a test that changes a site builds or copies its own."""
    return built_once(tmp_path_factory, "acv-site", _build_acv)


def anchors(html: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', html))


# --- the fixture project ---------------------------------------------------------------


def test_mini_builds_in_both_languages(mini_site: Site) -> None:
    assert "Leaving a Battle Region" in mini_site.page("en", "rules/battle-regions.html")
    pl = mini_site.page("pl", "rules/battle-regions.html")
    assert "Opuszczanie Regionu Bitwy" in pl
    assert "Wyjść może tylko obrońca." in pl
    # a plural word follows Polish plural rules: 4 -> "karty"
    assert 'Dobierz <span class="havoc-param">4</span> karty.' in mini_site.page("pl", "rules/draw.html")


def test_mini_term_links_carry_the_definition(mini_site: Site) -> None:
    en = mini_site.page("en", "rules/battle-regions.html")
    assert re.search(
        r'<a class="havoc-term-ref[^"]*" href="../glossary.html#term-unit" title="A miniature of an army.">', en
    )
    pl = mini_site.page("pl", "rules/battle-regions.html")
    assert 'title="Figurka armii."' in pl


def test_mini_examples_checks_and_params_render(mini_site: Site) -> None:
    en = mini_site.page("en", "rules/battle-regions.html")
    assert 'id="ex-leave"' in en and "Expected answer" in en
    # figures and parameters are shown by what they mean, not by their IDs
    assert '<span class="havoc-figure">may leave</span>' in en and ">may-leave<" not in en
    assert '<details class="havoc-check">' in en and "The region holds a Battle token" in en
    pl = mini_site.page("pl", "rules/battle-regions.html")
    assert "Co sprawdza asystent" in pl and "W Regionie leży żeton Bitwy" in pl and "Oczekiwana odpowiedź" in pl


def test_mini_overlays_and_retired_ids(mini_site: Site) -> None:
    solo = mini_site.page("en", "rules/solo.html")
    assert "Fan-made variant" in solo and 'id="solo-no-leave"' in solo and 'id="solo-setup"' in solo
    # the retired ID in the index page resolves to its successor
    assert 'href="rules/battle-regions.html#battle-region-leave"' in mini_site.page("en", "index.html")
    redirect = mini_site.page("en", "rule/old-leave.html")
    assert "../rules/battle-regions.html#battle-region-leave" in redirect


def test_mini_text_only_rules_say_so_in_both_languages(mini_site: Site) -> None:
    """A rule marked text-only says the assistant does not check it; a checked rule does not."""
    for lang, words in (("en", "The assistant does not check this rule."), ("pl", "Asystent nie sprawdza tej zasady.")):
        solo = mini_site.page(lang, "rules/solo.html")
        assert solo.count('class="havoc-text-only"') == 2 and words in solo
        assert words not in mini_site.page(lang, "rules/battle-regions.html")


def test_mini_rule_index(mini_site: Site) -> None:
    for lang, title in (("en", "Rule index"), ("pl", "Indeks zasad")):
        html = mini_site.page(lang, "havoc-ruleindex.html")
        assert title in html
        assert "rules/battle-regions.html#battle-region-leave" in html


def test_mini_indexes_show_each_rules_number(mini_site: Site) -> None:
    from havoc.engine.numbering import numbers

    rs = rulebook.load("mini", mini_site.rules)
    number = numbers(rs)["battle-region-leave"]  # derived from the outline, as the sheet cites it
    for lang, title, kind in (("en", "Leaving a Battle Region", "rule"), ("pl", "Opuszczanie Regionu Bitwy", "zasada")):
        ruleindex = mini_site.page(lang, "havoc-ruleindex.html")
        assert re.search(rf'#battle-region-leave"><code class="xref">{re.escape(number)} {title}</code>', ruleindex)
        azindex = mini_site.page(lang, "havoc-azindex.html")
        assert re.search(rf"{title}</code></a> <em>\({kind} {re.escape(number)}\)</em>", azindex), azindex


def test_mini_sheet_is_linked_only_when_built(mini_site: Site, tmp_path: Path) -> None:
    """In the menu, and in the home page's text ({havoc-sheet-link}, as the real home page has it)."""
    source, rules = mini_site.source, mini_site.rules
    index = source / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\n```{havoc-sheet-link}\n```\n", encoding="utf-8")
    assert "```{havoc-sheet-link}" in (SOURCE / "index.md").read_text(encoding="utf-8")
    site = build_site(source, mini_site.out, "mini", rules, ("en",))  # the edited home page, without sheets
    assert "sheet.pdf" not in site.page("en", "index.html")
    (source / "sheets").mkdir()
    (source / "sheets" / "en.pdf").write_bytes(b"%PDF-1.4 test")
    cmd = sphinx_command(
        "html", "en", tmp_path / "b" / "en", tmp_path / "b-doctrees", "mini", source / "sheets", source
    )
    subprocess.run(cmd, check=True, capture_output=True)
    assert (tmp_path / "b" / "en" / "sheet.pdf").read_bytes() == b"%PDF-1.4 test"
    home = (tmp_path / "b" / "en" / "index.html").read_text(encoding="utf-8")
    assert 'href="sheet.pdf"' in home
    line = re.search(r'<p class="havoc-sheet-link">(.*?)</p>', home)
    assert line and 'href="sheet.pdf">quick-reference sheet (PDF)</a>' in line.group(1), home


def test_broken_reference_fails_the_build(mini_env: tuple[Path, Path], tmp_path: Path) -> None:
    source, _rules = mini_env
    (source / "index.md").write_text(
        (source / "index.md").read_text(encoding="utf-8") + "\nSee {rule}`no-such-rule` and {term}`no-such-term`.\n",
        encoding="utf-8",
    )
    results = build_languages(["en"], tmp_path / "out", tmp_path / "dt", "mini", tmp_path, source)
    assert results[0].code != 0
    assert "unknown rule or section ID 'no-such-rule'" in results[0].output
    assert "unknown glossary term 'no-such-term'" in results[0].output


def test_missing_polish_rule_text_fails_the_build(mini_env: tuple[Path, Path], tmp_path: Path) -> None:
    source, _rules = mini_env
    po = source / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Nikt nie wychodzi."', 'msgstr ""'), encoding="utf-8")
    results = build_languages(["pl"], tmp_path / "out", tmp_path / "dt", "mini", tmp_path, source)
    assert results[0].code != 0
    assert "no pl translation of [solo-no-leave:text]" in results[0].output


def test_missing_polish_page_text_fails_the_build(mini_env: tuple[Path, Path], tmp_path: Path) -> None:
    source, _rules = mini_env
    (source / "index.md").write_text(
        (source / "index.md").read_text(encoding="utf-8") + "\nA sentence nobody translated.\n", encoding="utf-8"
    )
    results = build_languages(["pl"], tmp_path / "out", tmp_path / "dt", "mini", tmp_path, source)
    assert results[0].code != 0
    assert "no pl translation of 'A sentence nobody translated.' in site.po" in results[0].output


@pytest.mark.parametrize("cpus", [2, 1], ids=["forked", "one-after-the-other"])
def test_a_language_failing_in_a_rebuild_is_reported_and_the_other_is_built(
    mini_site: Site, monkeypatch: pytest.MonkeyPatch, cpus: int
) -> None:
    """Both languages rebuilt by one worker (a forked child each with 2+ CPUs, one after the other
    with one): the language that fails is reported failed with its warnings and keeps its previous
    site; the other language is built."""
    source = mini_site.source
    workers = _worker_with_cpus(monkeypatch, cpus)
    path = mini_site.rules / "mini" / "sections" / "01-draw.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("discard the rest to your", "throw the rest onto your"),
        encoding="utf-8",
    )
    po = source / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Nikt nie wychodzi."', 'msgstr ""'), encoding="utf-8")
    before = {name: mini_site.page("pl", name) for name in mini_site.pages("pl")}
    results = {
        r.lang: r
        for r in build_languages(
            ["en", "pl"], mini_site.out, mini_site.doctrees, "mini", mini_site.out / "no-sheets", source
        )
    }
    assert len(workers) == 1  # both languages in the one worker
    assert results["en"].code == 0, results["en"].output
    assert "throw the rest onto your" in mini_site.page("en", "rules/draw.html")
    assert results["pl"].code != 0
    assert "no pl translation of [solo-no-leave:text]" in results["pl"].output
    assert "solo-no-leave" not in results["en"].output
    assert {name: mini_site.page("pl", name) for name in mini_site.pages("pl")} == before
    assert (mini_site.doctrees / "pl" / "havoc-build-failed").exists()


def _worker_with_cpus(monkeypatch: pytest.MonkeyPatch, cpus: int) -> list[list[str]]:
    """Make ``build_languages`` start its rebuild worker as on a machine with ``cpus`` CPUs; the
    worker command lines it started."""
    from havoc.cli.commands import docs

    script = (
        f"import os, sys; os.cpu_count = lambda: {cpus}; "
        "from havoc.cli.commands.docs import worker; sys.exit(worker(sys.argv[1]))"
    )
    real_popen = subprocess.Popen
    workers = []

    def popen(cmd: list[str], **kwargs: object) -> object:
        if cmd[1:3] == ["-m", "havoc.cli.commands.docs"] and cmd[3] != "--sphinx":
            workers.append(cmd)
            cmd = [cmd[0], "-c", script, *cmd[3:]]
        return real_popen(cmd, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(docs.subprocess, "Popen", popen)
    return workers


def _files(top: Path) -> dict[str, bytes]:
    return {str(p.relative_to(top)): p.read_bytes() for p in sorted(top.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("cpus", [2, 1], ids=["forked", "one-after-the-other"])
def test_a_rebuild_writes_what_a_clean_build_writes(
    mini_site: Site, monkeypatch: pytest.MonkeyPatch, cpus: int
) -> None:
    """After an edit, both languages rebuilt by one worker (forked, or one after the other in one
    process) are byte for byte what a clean build of the same sources writes: no language's build
    leaks into the other's (as the English "Python Module Index" did into the Polish objects.inv)."""
    source = mini_site.source
    workers = _worker_with_cpus(monkeypatch, cpus)
    po = source / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    for path in (mini_site.rules / "mini" / "sections" / "01-draw.yaml", po):  # the translation follows
        text = path.read_text(encoding="utf-8")
        assert "discard the rest to your" in text
        path.write_text(text.replace("discard the rest to your", "throw the rest onto your"), encoding="utf-8")
    args = (["en", "pl"], mini_site.out, mini_site.doctrees, "mini", mini_site.out / "no-sheets", source)
    for res in build_languages(*args):
        assert res.code == 0, res.output
    assert len(workers) == 1
    rebuilt = {lang: _files(mini_site.out / lang) for lang in LANGUAGES}
    assert b"throw the rest onto your" in rebuilt["en"]["rules/draw.html"]
    for res in build_languages(*args, clean=True):
        assert res.code == 0, res.output
    for lang in LANGUAGES:
        clean = _files(mini_site.out / lang)
        assert rebuilt[lang].keys() == clean.keys()
        assert [name for name in clean if rebuilt[lang][name] != clean[name]] == [], lang


@pytest.mark.parametrize("cpus", [2, 1], ids=["forked", "one-after-the-other"])
def test_a_rebuild_never_writes_into_the_live_site(
    mini_site: Site, monkeypatch: pytest.MonkeyPatch, cpus: int, tmp_path: Path
) -> None:
    """The site's files are hard links to the files Sphinx keeps in its work folder, not copies:
    every file a rebuild writes is a new one, so each file the site had keeps its bytes (a reader
    of the published site, or a site a failed build leaves, never sees a page being rewritten)."""
    source = mini_site.source
    _worker_with_cpus(monkeypatch, cpus)
    po = source / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    yaml_file = mini_site.rules / "mini" / "sections" / "01-draw.yaml"
    args = (["en", "pl"], mini_site.out, mini_site.doctrees, "mini", mini_site.out / "no-sheets", source)
    for step, (old, new) in enumerate(
        (("discard the rest to your", "throw the rest onto your"), ("throw the rest", "toss the rest"))
    ):
        live = {lang: _files(mini_site.out / lang) for lang in LANGUAGES}
        held = tmp_path / f"held-{step}"  # the very files the site had (their inodes), held open by links
        for lang in LANGUAGES:
            shutil.copytree(mini_site.out / lang, held / lang, copy_function=os.link)
        for path in (yaml_file, po):
            path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        for res in build_languages(*args):
            assert res.code == 0, res.output
        assert new.encode() in (mini_site.out / "en" / "rules" / "draw.html").read_bytes()
        for lang in LANGUAGES:
            assert _files(held / lang) == live[lang], lang  # the old site's files, untouched
            shared = [p for p in (mini_site.out / lang).rglob("*") if p.is_file() and p.stat().st_nlink > 1]
            assert len(shared) > 10  # linked, not copied
            assert not [p for p in (mini_site.out / lang).rglob(".*")]  # no .buildinfo a host would serve


def test_the_templates_a_build_loaded_compile_before_a_rebuild(mini_site: Site, tmp_path: Path) -> None:
    """A build notes where it found its templates and which it loaded (beside its doctrees); the
    rebuild worker compiles exactly those once, before it forks the languages. A record whose
    folders are gone compiles nothing and fails nothing."""
    import json

    from havoc.sphinxext.extension import COMPILED_TEMPLATES, TEMPLATES_RECORD, warm_templates

    record = json.loads((mini_site.doctrees / "en" / TEMPLATES_RECORD).read_text(encoding="utf-8"))
    assert {"page.html", "!page.html", "search.html"} <= set(record["names"])
    COMPILED_TEMPLATES.codes.clear()
    assert warm_templates([mini_site.doctrees / lang for lang in LANGUAGES]) == len(record["names"])
    assert len(COMPILED_TEMPLATES.codes) >= len(record["names"])
    record["dirs"] = [str(tmp_path / "gone")]
    record["templates_path"] = []
    (tmp_path / TEMPLATES_RECORD).write_text(json.dumps(record), encoding="utf-8")
    assert warm_templates([tmp_path]) == 0


def test_editing_a_rule_text_rereads_only_its_page(mini_site: Site) -> None:
    path = mini_site.rules / "mini" / "sections" / "01-draw.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("discard the rest to your", "throw the rest onto your"),
        encoding="utf-8",
    )
    proc = mini_site.rebuild("en")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    read = re.findall(r"reading sources\.\.\. \[[ \d]+%\] (\S+)", proc.stdout)
    assert read == ["rules/draw"]
    assert "throw the rest onto your" in mini_site.page("en", "rules/draw.html")


def test_editing_a_polish_msgstr_changes_the_polish_page(mini_site: Site) -> None:
    po = mini_site.source / "locales" / "pl" / "LC_MESSAGES" / "rules.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "Nikt nie wychodzi."', 'msgstr "Nikt stąd nie wyjdzie."'),
        encoding="utf-8",
    )
    proc = mini_site.rebuild("pl")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Nikt stąd nie wyjdzie." in mini_site.page("pl", "rules/solo.html")


def test_a_changed_title_rewrites_the_pages_linking_to_it(mini_site: Site) -> None:
    """Link texts come from the target's page; the pages that link to it are rewritten, not re-read."""
    path = mini_site.rules / "mini" / "variants" / "solo.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("title: No leaving", "title: Nobody leaves"), encoding="utf-8"
    )
    proc = mini_site.rebuild("en")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ">Nobody leaves</span></a>" in mini_site.page("en", "rules/battle-regions.html")


# --- the real site -----------------------------------------------------------------------


def test_real_site_builds_in_both_languages(real_site: Site) -> None:
    for lang in LANGUAGES:
        assert (real_site.out / lang / "index.html").is_file()
    root = (real_site.out / "index.html").read_text(encoding="utf-8")
    assert 'href="en/index.html"' in root and 'href="pl/index.html"' in root and "navigator.language" in root


def test_every_page_exists_in_both_languages(real_site: Site) -> None:
    en, pl = real_site.pages("en"), real_site.pages("pl")
    assert en == pl
    assert len(en) > 20


def test_every_rule_has_its_anchor_on_both_sites(real_site: Site) -> None:
    rs = rulebook.load(real_site.ruleset, real_site.rules)
    for lang in LANGUAGES:
        found: dict[str, str] = {}
        for name in real_site.pages(lang):
            if name.startswith("rule/"):
                continue
            for anchor in anchors(real_site.page(lang, name)):
                found.setdefault(anchor, name)
        missing = [rid for rid in rs.rules if rid not in found]
        assert not missing, f"{lang}: rules without an anchor: {missing[:10]}"
        for rid in list(rs.rules) + list(rs.retired):
            redirect = real_site.page(lang, f"rule/{rid}.html")
            target = re.search(r'<link rel="canonical" href="\.\./([^"#]+)#([^"]+)">', redirect)
            assert target, rid
            assert target.group(2) in anchors(real_site.page(lang, target.group(1))), rid


def test_every_page_links_to_itself_in_the_other_language(real_site: Site) -> None:
    for lang, other in (("en", "pl"), ("pl", "en")):
        for name in real_site.pages(lang):
            if name.startswith("rule/"):
                continue
            html = real_site.page(lang, name)
            up = "../" * (name.count("/") + 1)
            assert f'class="havoc-lang" href="{up}{other}/{name}"' in html, f"{lang}/{name}"


def test_polish_pages_show_no_english_interface(real_site: Site) -> None:
    english = [
        ">Next<",
        ">Previous<",
        ">Search<",
        ">Contents<",
        "On this page",
        "Back to top",
        "Skip to content",
        'title="Link to this heading"',
        'placeholder="Search"',
        "Toggle site navigation",
        ">Expected answer<",
        ">Example: ",
        "What the assistant checks",
        "Made with",
        ">Rule index<",
    ]
    for name in real_site.pages("pl"):
        html = real_site.page("pl", name)
        for text in english:
            assert text not in html, f"pl/{name} shows {text!r}"
    translations = (real_site.out / "pl" / "_static" / "translations.js").read_text(encoding="utf-8")
    assert "Wyszukiwanie zako\\u0144czone" in translations


def test_real_glossary_terms_show_definitions(real_site: Site) -> None:
    rs = rulebook.load(real_site.ruleset, real_site.rules)
    for lang in LANGUAGES:
        glossary = real_site.page(lang, "glossary.html")
        for term_id in rs.terms:
            assert f'id="term-{term_id}"' in glossary
        linked = [
            name
            for name in real_site.pages(lang)
            if 'class="havoc-term-ref reference internal"' in real_site.page(lang, name)
        ]
        assert linked, lang
        for name in linked:
            for title in re.findall(
                r'class="havoc-term-ref reference internal" href="[^"]+" title="([^"]*)"', real_site.page(lang, name)
            ):
                assert title.strip(), f"{lang}/{name}: a term link without its definition"


def test_site_catalog_is_fresh(real_site: Site, tmp_path: Path) -> None:
    """site.po holds exactly what Sphinx's gettext builder extracts, all of it translated."""
    from babel.messages.pofile import read_po

    cmd = sphinx_command(
        "gettext", "en", tmp_path / "pot", tmp_path / "dt", real_site.ruleset, tmp_path, SOURCE, clean=True
    )
    subprocess.run(cmd, check=True, capture_output=True)
    with (tmp_path / "pot" / "site.pot").open("rb") as fh:
        wanted = {m.id for m in read_po(fh) if m.id}
    for lang in LANGUAGES[1:]:
        path = REPO / "locales" / lang / "LC_MESSAGES" / "site.po"
        with path.open("rb") as fh:
            po = read_po(fh, locale=lang)
        have = {m.id: m for m in po if m.id}
        assert not wanted - have.keys(), (
            f"{path}: missing, run `havoc docs --update-catalog`: {sorted(wanted - have.keys())[:5]}"
        )
        assert not have.keys() - wanted, f"{path}: stale entries: {sorted(have.keys() - wanted)[:5]}"
        untranslated = [k for k, m in have.items() if not m.string or m.fuzzy]
        assert not untranslated, f"{path}: untranslated: {untranslated[:5]}"


def test_incremental_rebuild_after_editing_one_rule(real_site: Site, rules_copy: Path, tmp_path: Path) -> None:
    """Edit a rule's text in a copy of rules/: after a rebuild the page shows it, and few pages were re-read."""
    site = build_site(SOURCE, tmp_path / "site", real_site.ruleset, rules_copy, ("en",))
    rs = rulebook.load(site.ruleset, rules_copy)
    folder = rules_copy / site.ruleset / "sections"
    for rule in rs.base_rules():
        file = next(p for p in folder.glob("*.yaml") if p.name.split("-", 1)[1] == f"{rule.section_id}.yaml")
        text = file.read_text(encoding="utf-8")
        key = " ".join(rule.text.splitlines()[0].split()[:4])
        if len(key) > 15 and text.count(key) == 1:
            break
    else:
        pytest.fail("no rule text to edit")
    first, rest = key.split(" ", 1)
    file.write_text(text.replace(key, f"{first} EDITED-MARKER {rest}"), encoding="utf-8")
    proc = site.rebuild("en")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "EDITED-MARKER" in site.page("en", f"rules/{rule.section_id}.html")
    read = re.findall(r"reading sources\.\.\. \[[ \d]+%\] (\S+)", proc.stdout)
    assert f"rules/{rule.section_id}" in read
    assert len(read) <= 5, read


def test_havoc_docs_command_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "havoc", "docs", "--help"], capture_output=True, text=True, check=True)
    assert "--serve" in proc.stdout and "--lang" in proc.stdout


def test_editing_the_extension_code_invalidates_saved_doctrees(tmp_path: Path) -> None:
    from havoc.sphinxext.extension import RENDERING_CODE, code_version

    copies = []
    for p in RENDERING_CODE:
        dest = tmp_path / p.name
        if p.is_dir():
            shutil.copytree(p, dest, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(p, dest)
        copies.append(dest)
    before = code_version(tuple(copies))
    assert before == code_version(tuple(copies))
    rule_py = tmp_path / "sphinxext" / "rule.py"
    rule_py.write_text(rule_py.read_text() + "\n# changed\n")
    assert code_version(tuple(copies)) != before


def test_sphinx_page_index_is_off_but_the_search_page_stays(mini_site: Site) -> None:
    """No page loads Sphinx's searchindex.js (the site's search has its own index), so it is not
    built; search.html and every page's link to it stay, and a stale index is removed."""
    source, rules, out = mini_site.source, mini_site.rules, mini_site.out
    en = out / "en"
    assert not (en / "searchindex.js").exists()
    assert (en / "_static" / "havoc-searchindex.js").is_file()
    assert 'id="search-results"' in (en / "search.html").read_text(encoding="utf-8")
    assert '<link rel="search"' in (en / "index.html").read_text(encoding="utf-8")
    (en / "searchindex.js").write_text("Search.setIndex({})", encoding="utf-8")
    build_site(source, out, "mini", rules, ("en",))  # incremental: warnings are errors
    assert not (en / "searchindex.js").exists()


def test_the_sidebar_cut_to_titles_changes_no_page(mini_site: Site, tmp_path: Path) -> None:
    """The sidebar's tree made from title-only contents and shared by all pages of a folder, each
    page marked on it (:mod:`havoc.sphinxext.sidebar`), is the tree Sphinx and Furo make for each
    page from every page's full contents: every page is byte for byte the same."""
    site, source = mini_site, mini_site.source
    plain = tmp_path / "plain"
    cmd = sphinx_command("html", "en", plain, tmp_path / "plain-doctrees", "mini", site.out / "no-sheets", source)
    assert cmd[1:3] == ["-m", "sphinx"]
    script = (
        "import sys; import havoc.sphinxext.sidebar as s; s.on_html_page_context = lambda *args: None; "
        "from sphinx.cmd.build import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run([sys.executable, "-c", script, *cmd[3:]], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    pages = site.pages("en")
    assert len(pages) > 5
    with_rules = 0
    for name in sorted(pages):
        fast = site.page("en", name)
        assert fast == (plain / name).read_text(encoding="utf-8"), name
        with_rules += 'class="sidebar-tree"' in fast
    assert with_rules > 5
