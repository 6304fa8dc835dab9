"""No machine names on the built site: what a reader sees is words in the page's language.

The identifiers the rules data uses (Region keys of examples, fact, figure, parameter, question
field and question-kind names) must not show in a page's visible text. They may stand where they
are anchors a reader cites: a rule's own ID label (``havoc-id``), the rule index, the redirect
pages of ``rule/``, and the code of the pages that document the position format for people who
type one (``positions``, ``assistant``).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_site import Site, real_site  # noqa: F401 - the fixture is shared

from havoc.engine import rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.games.cry_havoc.contract import FACTIONS, PHASES
from havoc.games.cry_havoc.contract import QUESTION_KINDS as QUERY_KINDS
from havoc.games.cry_havoc.words import KNOWN_REGIONS

pytestmark = pytest.mark.slow

# Pages that teach the position format: their code samples are what a player types.
FORMAT_PAGES = {"positions.html", "assistant.html"}
SKIPPED = {"havoc-ruleindex.html", "search.html", "genindex.html"}


def identifiers(rs: Ruleset, rules_root: Path) -> set[str]:
    """Every machine name of the rules data that a reader could meet by mistake."""
    ids: set[str] = set(QUERY_KINDS) | set(rs.params)
    for rule in rs.rules.values():
        if rule.check:
            ids.update(rule.check.figures)
        for ex in rule.examples:
            ids.update(map(str, (ex.position.get("regions") or {})))
            ids.update(k for k in ex.query if k != "ask")
            ids.update(str(v) for v in ex.query.values() if isinstance(v, str) and "-" in v)
            ids.update((ex.expect.get("figures") or {}).keys())
    ids.update(rs.facts)
    ids.update(
        f"{side}.{name.split('.', 1)[1]}" for name in rs.facts if name.startswith("region.") for side in ("from", "to")
    )
    ids.update(p for p in PHASES if "-" in p)
    # one-word kinds that are also everyday English words are machine names only on the Polish site
    machine = {i for i in ids if "-" in i or "." in i or i in QUERY_KINDS} - set(FACTIONS)
    return machine | set(KNOWN_REGIONS)  # Region keys (lower case) where a name should stand


class VisibleText(HTMLParser):
    """The text a reader sees, leaving out scripts, styles, rule-ID labels and (optionally) code."""

    def __init__(self, skip_code: bool) -> None:
        super().__init__()
        self.skip_code = skip_code
        self.stack: list[bool] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        hidden = (
            tag in ("script", "style", "head", "title")
            or "havoc-id" in classes
            or (self.skip_code and tag in ("pre", "code"))
        )
        if tag not in ("br", "img", "meta", "link", "input", "hr", "wbr", "source"):
            self.stack.append(hidden or bool(self.stack and self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("br", "img", "meta", "link", "input", "hr", "wbr", "source") and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def leaks(text: str, ids: set[str], lang: str) -> list[str]:
    found = []
    for ident in ids:
        if lang == "en" and ident in QUERY_KINDS and "-" not in ident:
            continue  # "move", "battle": English words on the English site
        if re.search(r"(?<![\w./-])" + re.escape(ident) + r"(?![\w/-])", text):
            found.append(ident)
    return sorted(found)


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_no_machine_names_in_visible_text(real_site: Site, lang: str) -> None:  # noqa: F811
    rs = rulebook.load(real_site.ruleset, real_site.rules)
    ids = identifiers(rs, real_site.rules)
    assert {"may-leave", "example-a", "foglands", "card-terrain", "to.is-battle-region"} <= ids
    problems = {}
    for page in sorted((real_site.out / lang).rglob("*.html")):
        rel = page.relative_to(real_site.out / lang)
        if rel.parts[0] in ("_sources", "_static", "rule") or rel.name in SKIPPED:
            continue
        parser = VisibleText(skip_code=rel.name in FORMAT_PAGES)
        parser.feed(page.read_text(encoding="utf-8"))
        text = re.sub(r"\s+", " ", " ".join(parser.parts))
        found = leaks(text, ids, lang)
        if found:
            problems[str(rel)] = found
    assert not problems, f"machine names in the visible text of the {lang} site: {problems}"


def test_the_check_catches_a_leak() -> None:
    parser = VisibleText(skip_code=False)
    parser.feed(
        '<p>Wartości: <code>may-leave</code> = 2</p><p class="havoc-meta"><code class="havoc-id">x-y</code></p>'
    )
    text = " ".join(parser.parts)
    assert leaks(text, {"may-leave", "x-y"}, "pl") == ["may-leave"]


def test_parameter_units_have_words() -> None:
    """Every unit a parameter declares is counted in words in both languages (1 akcja, 2 akcje, 5 akcji)."""
    from havoc.games.cry_havoc.ui import unit_text

    rs = rulebook.load()
    units = {p.unit for p in rs.params.values() if p.unit and isinstance(p.value, int)} - {"divisor"}
    for unit in units:
        assert unit_text(unit, 2, "en"), unit
        assert unit_text(unit, 5, "pl"), unit
    assert [unit_text("actions", n, "pl") for n in (1, 2, 5)] == ["Akcja", "Akcje", "Akcji"]
    assert [unit_text("actions", n, "en") for n in (1, 2)] == ["action", "actions"]


def test_a_to_z_index_and_home_page(real_site: Site) -> None:  # noqa: F811
    """The A–Z index lists rules and terms by title in each language; the home page starts with search."""
    pl = real_site.page("pl", "havoc-azindex.html")
    en = real_site.page("en", "havoc-azindex.html")
    assert "Indeks A–Ż" in pl and "A–Z index" in en
    assert "Agresor" in pl and "(termin)" in pl and re.search(r"\(zasada \d+\.\d+\)", pl)  # with its number
    assert "Attacker" in en and "(term)" in en
    # Polish letters sort in the Polish alphabet: Ł after L, Ż last
    letters = re.findall(r'<tr class="cap" id="cap-([^"]+)">', pl)
    assert letters[-1] == "Ż" and letters.index("W") < letters.index("Z") < letters.index("Ż")
    home = real_site.page("pl", "index.html")
    assert home.index('class="havoc-home-search"') < home.index("Runda w skrócie")
    assert 'href="rules/events.html#events"' in home


# --- the example boxes' grammar (issue 20) ------------------------------------------------------

# A name after a preposition or a label glued to its value without a colon: what a careful
# Polish reader must never meet in an example box.
BOX_GRAMMAR = [
    re.compile(
        r"\bz (?:Region [A-Z]|Mgielnia|Wybrzeże Feralas|Głębia Sapos|Pogorzelisko|Morze Camerona|Groty Świata)\b"
    ),
    re.compile(r"\b(?:Kontrola|Sztab) (?:Ludzie|Pielgrzymi|Maszyny|Trogi)\b"),
    re.compile(r"\bżeton Trogów (?:Horda|Siedlisko)"),
]


def box_grammar(text: str) -> list[str]:
    return [m.group(0) for pattern in BOX_GRAMMAR for m in pattern.finditer(text)]


def test_example_boxes_of_the_real_site_read_as_polish(real_site: Site) -> None:  # noqa: F811
    problems = {}
    for page in sorted((real_site.out / "pl").rglob("*.html")):
        rel = page.relative_to(real_site.out / "pl")
        if rel.parts[0] in ("_sources", "_static") or rel.name in SKIPPED:
            continue
        parser = VisibleText(skip_code=True)
        parser.feed(page.read_text(encoding="utf-8"))
        found = box_grammar(re.sub(r"\s+", " ", " ".join(parser.parts)))
        if found:
            problems[str(rel)] = sorted(set(found))
    assert not problems, f"example boxes with undeclined names or glued labels: {problems}"


def test_the_polish_first_steps_are_typed_in_polish_and_run(
    real_site: Site,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Polish Ask page's first commands name the factions and the question in Polish
    ("ludzie,pielgrzymi", "co-mogę"), as ``havoc`` reads them: each one, run as printed, works."""
    import shlex

    from havoc.cli import main

    page = (real_site.out / "pl" / "assistant.html").read_text(encoding="utf-8")
    spans = [re.sub(r"<[^>]+>", "", code) for code in re.findall(r"<code[^>]*>(.*?)</code>", page, re.S)]
    first = [c for c in spans if c.startswith(("havoc new ", "havoc ask stół.yaml co-mogę"))]
    assert [c.split()[1] for c in first] == ["new", "ask"], spans
    assert "humans" not in " ".join(first)
    monkeypatch.chdir(tmp_path)
    for command in first:
        assert main(shlex.split(command)[1:]) == 0, command


def _tables_and_commands(page: str) -> list[tuple[str, str]]:
    """Each ``havoc ask``/``havoc score`` command of a page, with the YAML table shown last before it."""
    import html as htmllib

    out, table = [], ""
    for pre, code in re.findall(r"<pre[^>]*>(.*?)</pre>|<code[^>]*>(.*?)</code>", page, re.S):
        if pre:
            text = htmllib.unescape(re.sub(r"<[^>]+>", "", pre))
            if not text.startswith("havoc "):
                table = text
        elif code:
            text = htmllib.unescape(re.sub(r"<[^>]+>", "", code))
            if text.startswith(("havoc ask stół.yaml ", "havoc score stół.yaml")):
                out.append((table, text))
    return out


def test_the_polish_positions_page_shows_polish_tables_and_commands_that_run(
    real_site: Site,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Opisywanie stołu" shows each table with Polish names (Mgielnia, Ludzie, Region A; the keys
    stay, they are the format) and asks it in Polish words: each command, run as printed on the
    table above it, answers."""
    import shlex

    from havoc.cli import main

    page = (real_site.out / "pl" / "positions.html").read_text(encoding="utf-8")
    cases = _tables_and_commands(page)
    assert len(cases) >= 8, cases
    monkeypatch.chdir(tmp_path)
    for table, command in cases:
        assert not re.search(r"example-|\b(humans|pilgrims|machines|foglands)\b", table + command), (table, command)
        (tmp_path / "stół.yaml").write_text(table, encoding="utf-8")
        assert main(shlex.split(command)[1:]) == 0, (command, table)
