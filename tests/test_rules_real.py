"""The real rules: they validate, they cover the official rulebook, and their facts live only in YAML."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from havoc.cli import main
from havoc.engine import rulebook

# The section headings of the official Polish rulebook (seed 003), in its order.
# Each must be the source heading of at least one section or rule.
HEADINGS_003 = [
    "CEL GRY",
    "ELEMENTY",
    "PRZYGOTOWANIE",
    "GRA DLA 4 GRACZY",
    "ROZGRYWKA",
    "1. WYDARZENIA",
    "ROZSTRZYGNIĘCIE WYDARZEŃ",
    "USTALENIE INICJATYWY",
    "REGENERACJA UŻYTYCH ZDOLNOŚCI",
    "2. DOBÓR KART",
    "OPIS KART",
    "3. AKCJE",
    "AKCJA: RUCH",
    "ZASADY DOTYCZĄCE REGIONÓW BITWY",
    "AKCJA: REKRUTACJA",
    "AKCJA: WZNIESIENIE BUDOWLI I/LUB AKTYWACJA BUDOWLI",
    "ZASADY DOTYCZĄCE BUDOWLI",
    "AKCJA: DOBIERZ 2 KARTY TAKTYK, ZATRZYMAJ 1",
    "AKCJA: AKTYWACJA PUNKTOWANIA",
    "UŻYWANIE ZDOLNOŚCI",
    "4. ROZSTRZYGNIĘCIE BITWY",
    "A. DOŁÓŻCIE 1 KRYSZTAŁ DO REGIONU BITWY",
    "B. ROZMIEŚĆCIE ODDZIAŁY NA CELACH BITWY",
    "C. ZAGRYWAJCIE KARTY TAKTYK",
    "D. ROZSTRZYGNIJCIE CELE BITWY",
    "KONTROLA NAD REGIONEM",
    "POJMANIE JEŃCÓW",
    "WYNISZCZENIE",
    "E. PRZENIEŚ NIEZNISZCZONE ODDZIAŁY Z POWROTEM DO REGIONU",
    "F. WYCOFAJ SWOJE ODDZIAŁY",
    "G. ZDEJMIJCIE Z TEGO REGIONU ŻETON BITWY",
    "WYJĄTEK DOT. TROGÓW",
    "5. JEŃCY",
    "6. PUNKTOWANIE (JEŚLI AKTYWNE)",
    "KONIEC GRY",
    "ZASADY GRY TROGAMI",
    "WYJAŚNIENIA",
    "O FRAKCJACH",
]
# SŁOWA KLUCZOWE (keywords) maps to the glossary rather than to a section.
KEYWORDS_003 = ["killed", "reserve", "crystal", "region", "adjacent", "occupied", "control", "hand"]


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFC", text).upper()
    text = re.sub(r"^[A-G0-9]\.\s*", "", text)  # "A. ", "4. " numbering is optional
    return re.sub(r"[^\w]+", " ", text).strip()


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_real_rules_check_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith("ok: Cry Havoc")


@pytest.mark.parametrize("heading", HEADINGS_003)
def test_every_section_of_003_maps_to_a_rule(heading: str) -> None:
    rs = rulebook.load()
    cited = [_norm(s.source.heading) for s in rs.sections.values() if s.source.heading]
    cited += [_norm(r.source.heading) for r in rs.rules.values() if r.source.heading]
    want = _norm(heading)
    assert any(want == c or want in c for c in cited), f"no section or rule cites 003 heading {heading!r}"


def test_keywords_of_003_are_in_the_glossary() -> None:
    rs = rulebook.load()
    assert [k for k in KEYWORDS_003 if k not in rs.terms] == []


def test_every_section_has_rules_and_every_needed_rule_a_summary() -> None:
    rs = rulebook.load()
    assert all(s.rule_ids for s in rs.sections.values())
    with_check = [r for r in rs.base_rules() if r.check]
    assert with_check, "action and battle rules carry conditions"
    assert [r.id for r in with_check if not r.summary] == []


def test_overlays_are_present_and_marked() -> None:
    rs = rulebook.load()
    assert {o.kind for o in rs.overlays.values()} == {"errata", "variant"}
    solo = [o for o in rs.variants()]
    assert solo and all(o.fan_made for o in solo)
    errata = [o for o in rs.overlays.values() if o.kind == "errata"]
    assert all(rs.rules[rid].source.doc for o in errata for rid in o.rule_ids)


def test_changing_the_hand_limit_in_yaml_changes_havoc_rule(
    rules_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rs = rulebook.load()
    owner = rs.params["hand-limit"].rule_id
    assert main(["rule", owner, "--json"]) == 0
    before = json.loads(capsys.readouterr().out)
    assert before["parameters"]["hand-limit"]["value"] == 7
    assert "7" in before["text"]
    path = rules_copy / rs.params["hand-limit"].loc.file.split("/", 1)[1]
    text = path.read_text()
    new = re.sub(r"(hand-limit:\s*\{\s*value:\s*)7", r"\g<1>9", text)
    assert new != text, "hand-limit is written as {value: 7}"
    path.write_text(new)
    assert main(["rule", owner, "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["parameters"]["hand-limit"]["value"] == 9
    assert after["text"] == before["text"].replace("7", "9")


def test_no_rule_wording_in_python() -> None:
    """Rule texts and titles live in rules/ only: none of them is typed into the package."""
    rs = rulebook.load()
    src = Path(__file__).resolve().parents[1] / "src" / "havoc"
    code = "\n".join(p.read_text() for p in src.rglob("*.py"))
    leaked = []
    for rule in rs.rules.values():
        for text in (rule.title, rule.text.split(".")[0]):
            snippet = text.strip()
            if len(snippet) >= 24 and snippet in code:
                leaked.append(f"{rule.id}: {snippet!r}")
    assert leaked == []
