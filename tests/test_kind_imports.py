"""Each question kind asked on the command line imports only the modules its answer needs.

A short ``havoc ask`` is mostly its imports (issue 40): one stray import of a kind's module (a
figure label looked up in the wrong place once made ``havoc ask … discard`` import every kind)
costs every player's question milliseconds, and no answer shows it. So for EVERY kind, its first
stored example is asked as a player asks it, ``havoc ask POSITION --query QUESTION`` in a fresh
process (the caches filled by an earlier one, as for a player's second question), as text with
``--explain`` in Polish and as ``--json``, and the modules the process holds at exit are read.

What a kind's answer *needs*, precisely:

- its own module, ``havoc.games.cry_havoc.kinds.<kind>``;
- for a kind whose answer runs the other kinds' probes (the legal-actions report: ``legal``),
  the module of each kind that declares a probe (the kinds' manifest says which), and no other;
- no other module of ``havoc.games.cry_havoc.kinds`` (naming a kind or a figure reads the
  manifest, never a kind's module);
- none of the game's modules that no answer imports (its ``OFF_ANSWER_PATH``: the commands,
  the site pages), and not argparse (a plain ``havoc ask`` line is read without it).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import stored_examples

from havoc.engine import rulebook
from havoc.games import cry_havoc
from havoc.games.cry_havoc import kind as registry

KINDS_PACKAGE = "havoc.games.cry_havoc.kinds."

_CODE = (
    "import atexit, sys\n"
    "from havoc.cli import main\n"
    "atexit.register(lambda: print(sorted(sys.modules), file=sys.stderr))\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _first_examples() -> dict[str, object]:
    """The first stored example of every declared kind (each kind has one: `havoc check` runs them)."""
    found: dict[str, object] = {}
    for ex in stored_examples.examples(rulebook.load()):
        found.setdefault(ex.query["ask"], ex)
    return found


def needed_kinds(name: str) -> set[str]:
    """The kinds' modules an answer of ``name`` needs (see the module's docstring)."""
    own = {registry.module_name(name)}
    if name == "legal":  # the report runs every probe: the manifest names the kinds that have one
        own |= {registry.module_name(k.name) for k in registry.all_kinds() if k.probe is not None}
    return own


def _modules(words: list[str], env: dict[str, str]) -> list[str]:
    run = subprocess.run([sys.executable, "-c", _CODE, *words], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    found: list[str] = ast.literal_eval(run.stderr.strip().splitlines()[-1])  # the list printed at exit
    return found


@pytest.fixture(scope="module")
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for every kind's questions, as a player's own cache holds the rules, the
    manifest and the catalogs after the first question of any kind: each kind's first process
    then fills in only its own position and question, not the whole ruleset again."""
    return tmp_path_factory.mktemp("kinds") / "cache"


@pytest.mark.parametrize("name", [k.name for k in registry.all_kinds()])
def test_asking_a_kind_on_the_command_line_imports_only_what_its_answer_needs(
    name: str, tmp_path: Path, cache_folder: Path
) -> None:
    from havoc.formats.spec import plain

    ex = _first_examples()[name]
    position, question = tmp_path / "table.json", tmp_path / "question.json"
    position.write_text(json.dumps(plain(ex.position)), encoding="utf-8")
    question.write_text(json.dumps(plain(ex.query)), encoding="utf-8")
    env = {**os.environ, "HAVOC_CACHE_DIR": str(cache_folder)}
    line = ["ask", str(position), "--query", str(question)]
    _modules(line, env)  # fills the caches (the rules, the position, the manifest, the catalogs)
    needed = needed_kinds(name)
    off_path = set(cry_havoc.OFF_ANSWER_PATH)
    for words in ([*line, "--explain", "--lang", "pl"], [*line, "--json"]):
        modules = _modules(words, env)
        kinds = {m for m in modules if m.startswith(KINDS_PACKAGE)}
        assert kinds == needed, (
            f"havoc {' '.join(words[:1] + words[4:])} on a {name!r} question imported "
            f"{sorted(kinds - needed)} it does not need, or missed {sorted(needed - kinds)}"
        )
        assert not off_path & set(modules), f"a {name!r} answer imported {sorted(off_path & set(modules))}"
        assert "argparse" not in modules, f"a plain havoc ask of {name!r} went through argparse"


def test_the_needed_kinds_are_not_every_kind() -> None:
    """The test above could not pass by a definition that lets everything in: every kind but the
    report needs only itself, and the report not every kind (some kinds have no probe)."""
    names = [k.name for k in registry.all_kinds()]
    assert all(needed_kinds(n) == {registry.module_name(n)} for n in names if n != "legal")
    assert needed_kinds("legal") < {registry.module_name(n) for n in names}
