"""The browser's Snowball stemmers: Snowball's own output, stemming every word of the site as Python does.

The index is stemmed in Python (snowballstemmer) and the reader's query in the browser
(search/snowball/*.js, written by scripts/snowball-js), so a word is found only if both cut it
alike. The vocabulary is every word the search index stems (each ruleset, both languages) and
every word of the rules, the catalogs and the site's pages, each through both languages'
stemmers; all of it goes through one node process.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from havoc.engine import rulebook
from havoc.language.i18n import LANGUAGES
from havoc.search import index
from havoc.search import text as T
from havoc.sphinxext import search_pl

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "snowball-js"
HEADER = re.compile(
    r"\A// .*, written by scripts/snowball-js: do not edit\.\n"
    r"// Snowball commit (?P<commit>[0-9a-f]{40}) \((?P<release>[^)]+)\); sha256 of the rest of this file: (?P<sha>[0-9a-f]{64})\n"
    r"(?://.*\n)*\n"
)
GENERATED = re.compile(r"^(?://|#) Generated from (\S+\.sbl) by Snowball (\S+) - ", re.MULTILINE)
TEXTS = ("rules/**/*.yaml", "rules/**/*.md", "locales/**/*.po", "locales/*.pot", "docsbuild/*.md")


def pinned() -> str:
    found = re.search(r'^PIN = "([0-9a-f]{40})"', SCRIPT.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"{SCRIPT}: no PIN"
    return found.group(1)


def script_algorithms() -> set[str]:
    found = re.search(r"^ALGORITHMS = \(([^)]*)\)", SCRIPT.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"{SCRIPT}: no ALGORITHMS"
    return set(re.findall(r'"(\w+)"', found.group(1)))


def test_the_files_are_what_the_script_writes_from_the_pinned_commit() -> None:
    """A hand edit, a file of another commit or a stray file fails here (the script's header)."""
    files = sorted(p.name for p in search_pl.SNOWBALL_JS.glob("*.js"))
    assert files == sorted(["base-stemmer.js", *(f"{a}-stemmer.js" for a in script_algorithms())])
    for name in files:
        text = (search_pl.SNOWBALL_JS / name).read_text(encoding="utf-8")
        head = HEADER.match(text)
        assert head, f"{name}: no header of scripts/snowball-js"
        assert head["commit"] == pinned(), f"{name}: from Snowball {head['commit']}, the script pins {pinned()}"
        body = text[head.end() :]
        assert hashlib.sha256(body.encode("utf-8")).hexdigest() == head["sha"], f"{name}: edited after generation"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_same_snowball_release_as_the_python_stemmer(lang: str) -> None:
    """snowballstemmer moved to another Snowball release: run scripts/snowball-js at its commit."""
    name = T.STEMMER_NAMES[lang]
    python = GENERATED.search(Path(T._stemmer_module(f"{name}_stemmer").__file__).read_text(encoding="utf-8"))
    js = GENERATED.search((search_pl.SNOWBALL_JS / f"{name}-stemmer.js").read_text(encoding="utf-8"))
    assert python and js
    assert js.groups() == python.groups()


def vocabulary() -> list[str]:
    """Every word the search index stems (each ruleset, both languages) and every word of the texts."""
    seen: set[str] = set()
    key = T.key

    def recording(word: str, lang: str) -> str:
        seen.add(word)
        return key(word, lang)

    mp = pytest.MonkeyPatch()
    mp.setattr(T, "key", recording)
    try:
        for name in rulebook.ruleset_names():
            index.build(rulebook.load(name))
    finally:
        mp.undo()
    indexed = len(seen)
    assert indexed > 3000, indexed
    for pattern in TEXTS:
        for path in REPO.glob(pattern):
            seen.update(T.words(path.read_text(encoding="utf-8")))
    return sorted(w for w in seen if not w.isdigit())


def run_stemmers(words: list[str], folder: Path) -> dict[str, list[str]]:
    """lang -> each word's stem by the site's JavaScript stemmers (the words go in on stdin)."""
    node = shutil.which("node")
    assert node, "node is needed to run the browser's stemmers"
    stemmers = ", ".join(f"{lang}: new {T.STEMMER_NAMES[lang].capitalize()}Stemmer()" for lang in sorted(LANGUAGES))
    script = folder / "stem.js"
    script.write_text(
        search_pl.base_stemmer_js()
        + search_pl.english_stemmer_js()
        + search_pl.polish_stemmer_js()
        + f"var stemmers = {{{stemmers}}};\n"
        + "var words = JSON.parse(require('fs').readFileSync(0, 'utf8')), out = {};\n"
        + "for (var lang in stemmers) out[lang] = words.map(function (w) { return stemmers[lang].stemWord(w); });\n"
        + "process.stdout.write(JSON.stringify(out));\n",
        encoding="utf-8",
    )
    proc = subprocess.run([node, str(script)], input=json.dumps(words), capture_output=True, text=True, check=True)
    stems: dict[str, list[str]] = json.loads(proc.stdout)
    return stems


def test_python_and_javascript_stem_the_whole_vocabulary_alike(tmp_path: Path) -> None:
    words = vocabulary()
    js = run_stemmers(words, tmp_path)
    for lang in sorted(LANGUAGES):
        wrong = [(w, T.snowball(w, lang), j) for w, j in zip(words, js[lang], strict=True) if T.snowball(w, lang) != j]
        assert not wrong, f"{lang}: {len(wrong)} of {len(words)} words stem otherwise in the browser, e.g. {wrong[:8]}"
