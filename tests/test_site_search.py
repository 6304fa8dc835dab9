"""Polish search: the browser's stemmer (JavaScript, run in node) agrees with the index's (Python).

The word list is every Polish word of the rulebook's catalog and of the official Polish rulebook
seed, plus the glossary's inflected forms; the synonyms make each term's forms one search key.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from havoc.sphinxext import search_pl
from havoc.sphinxext.search_pl import SearchPolish, stemmer_js, synonym_map

REPO = Path(__file__).resolve().parents[1]
SEED = REPO.parent / "shared" / "seeds" / "003_7930065c51189d95.txt"
WORD = re.compile(r"[^\W\d_]+")


def polish_words() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in (REPO / "locales" / "pl" / "LC_MESSAGES").glob("*.po")]
    if SEED.is_file():
        texts.append(SEED.read_text(encoding="utf-8"))
    texts.append("kryształ kryształy kryształów oddział oddziałów jeniec jeńców bitwa bitwie źdźbło żółć")
    return sorted({w.lower() for text in texts for w in WORD.findall(text)})


def run_js(code: str) -> object:
    node = shutil.which("node")
    assert node, "node is needed to run the browser's stemmer"
    proc = subprocess.run([node, "-e", code], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


@pytest.mark.parametrize("with_synonyms", [False, True])
def test_js_and_python_stems_agree(with_synonyms: bool) -> None:
    words = polish_words()
    assert len(words) > 1000
    synonyms = (
        synonym_map([["kryształ", "kryształy", "kryształów", "kryształami"], ["jeniec", "jeńcy", "jeńców"]])
        if with_synonyms
        else {}
    )
    lang = SearchPolish({search_pl.SYNONYMS_OPTION: json.dumps(synonyms)})
    code = (
        stemmer_js(synonyms)
        + f"\nvar s = new Stemmer(); console.log(JSON.stringify({json.dumps(words)}.map(function (w) {{ return s.stemWord(w); }})));"
    )
    js = run_js(code)
    python = [lang.stem(w) for w in words]
    wrong = [(w, p, j) for w, p, j in zip(words, python, js, strict=True) if p != j]
    assert not wrong, f"{len(wrong)} words stem differently, e.g. {wrong[:5]}"


def test_synonyms_join_a_terms_forms() -> None:
    synonyms = synonym_map([["kryształ", "kryształy", "kryształów"], ["bitwa", "bitwie", "bitew"]])
    lang = SearchPolish({search_pl.SYNONYMS_OPTION: json.dumps(synonyms)})
    # Snowball alone splits these (kryształy -> kryszt, kryształów -> kryształ) ...
    assert search_pl.stem("kryształy") != search_pl.stem("kryształów")
    # ... the synonyms give every form of a term one key
    assert lang.stem("Kryształy") == lang.stem("kryształów") == lang.stem("kryształ")
    assert lang.stem("bitwie") == lang.stem("bitew")
    assert lang.stem("oddziałami") == search_pl.stem("oddziałami")


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_the_built_site_ships_the_tested_stemmer(tmp_path: Path) -> None:
    """The site's search script carries the Polish stemmer the Python search uses, word for word."""
    import os

    from test_site import ROOTS, build_languages

    rules = tmp_path / "rules"
    shutil.copytree(REPO / "tests" / "fixtures" / "mini", rules)
    source = tmp_path / "src"
    shutil.copytree(ROOTS / "test-mini", source)
    os.environ["HAVOC_RULES"], old = str(rules), os.environ.get("HAVOC_RULES")
    os.environ["HAVOC_LOCALES"], old_loc = str(source / "locales"), os.environ.get("HAVOC_LOCALES")
    try:
        results = build_languages(["pl"], tmp_path / "out", tmp_path / "dt", "mini", tmp_path, source)
    finally:
        for key, value in (("HAVOC_RULES", old), ("HAVOC_LOCALES", old_loc)):
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    assert results[0].code == 0, results[0].output
    out = tmp_path / "out" / "pl"
    assert not (out / "searchindex.js").exists()  # Sphinx's own page index is off: no page reads it
    script = (out / "_static" / "havoc-search.js").read_text(encoding="utf-8")
    assert "PolishStemmer" in script
    words = ["oddziałów", "oddziały", "oddział", "kryształami"]
    stems = run_js(
        "var window = {}, document = undefined;\n"
        + script
        + f"\nvar s = new PolishStemmer(); console.log(JSON.stringify({json.dumps(words)}.map(function (w) {{ return s.stemWord(w); }})));"
    )
    from havoc.search.text import snowball

    assert stems == [snowball(w, "pl") for w in words]
