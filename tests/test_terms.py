"""Every Polish catalog uses the rulebook's terms: a variant spelling listed in
``locales/pl/terms.yaml`` fails, wherever a translator wrote it (issue 20)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[1]
PL = REPO / "locales" / "pl"


def variants() -> dict[str, str]:
    """variant -> the official term it stands for."""
    entries = yaml.safe_load((PL / "terms.yaml").read_text(encoding="utf-8"))
    return {v: e["term"] for e in entries for v in e["variants"]}


def misspelt(text: str, table: dict[str, str]) -> list[str]:
    return [f"{v!r} (use: {term})" for v, term in table.items() if re.search(rf"(?<!\w){re.escape(v)}(?!\w)", text)]


def test_no_variant_of_an_official_term_in_any_catalog() -> None:
    table = variants()
    found = []
    files = sorted((PL / "LC_MESSAGES").glob("*.po"))
    assert {f.name for f in files} >= {"havoc.po", "rules.po", "site.po", "sphinx.po"}
    for path in files:
        with path.open("rb") as fh:
            cat = read_po(fh, locale="pl")
        for msg in cat:
            if not msg.id or (msg.context or "").endswith(":search-forms"):
                continue
            strings = msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]
            for s in strings:
                found.extend(f"{path.name} [{msg.context}] {bad}" for bad in misspelt(str(s or ""), table))
    assert not found, "\n".join(found)


def test_the_list_catches_a_variant() -> None:
    table = variants()
    assert misspelt("Faza Dobierania Kart trwa.", table) and misspelt("gracz, który uruchomił Punktację", table)
    assert misspelt("Zapytaj zasady", table) and misspelt("Zdobywa 2 VP", table)
    assert not misspelt("Faza Doboru kart; gracz, który Aktywował Punktowanie, zdobywa 2 PZ.", table)
