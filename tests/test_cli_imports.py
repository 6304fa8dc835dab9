"""What each ``havoc`` command imports: a short process's time is mostly its imports, so each
command has a stated ceiling of modules and the commands a player runs to answer something never
import argparse (each kind's own answer importing no other kind's module is
tests/test_kind_imports.py's, on the command line, and tests/test_kinds.py's, through the API).
A ceiling is today's count with a few modules of headroom: a change that pulls in a package
(argparse's 5, typing's 12, every kind's 9) fails here.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

P = "tests/fixtures/assistant/leave-8-vs-3.yaml"

# the command line, the most modules its process may hold at exit, whether it may import argparse
COMMANDS = [
    (["ask", P, "move", "humans", "from=example-a", "to=example-b", "units=2"], 96, False),
    (["--lang", "pl", "ask", P, "move", "humans", "from=example-a", "to=example-b", "units=2"], 96, False),
    (["ask", P, "--text", "may the humans move 2 units from region a to region b"], 98, False),
    (["lookup", "retreat"], 86, False),
    (["legal", P, "humans"], 108, False),
    (["--lang", "pl", "legal", P, "--json"], 128, False),
    (["score", P], 95, False),
    (["battle", P], 105, False),
    (["battle", P, "example-a", "humans=4/2/2", "pilgrims=1/1/1", "--as", "humans"], 105, False),
    (["trogs", "tests/fixtures/solo/move.yaml", "move"], 92, False),
    (["trogs", "tests/fixtures/solo/move.yaml", "move", "--units", "4", "--json"], 110, False),
    (["charts", "range", "English longbow", "3"], 96, False),
    (["charts", "status", "scared", "--json", "--lang", "pl"], 100, False),
    (["rule", "game-goal"], 65, False),
    (["rules"], 70, False),
]

_CODE = (
    "import atexit, sys\n"
    "from havoc.cli import main\n"
    "atexit.register(lambda: print(sorted(sys.modules), file=sys.stderr))\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _modules(line: list[str], cache: Path) -> list[str]:
    """The modules a second ``havoc`` process with ``line`` holds at exit (the first filled the caches)."""
    env = {**os.environ, "HAVOC_CACHE_DIR": str(cache)}
    run = None
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", _CODE, *line], capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
    assert run is not None
    found: list[str] = ast.literal_eval(run.stderr.strip().splitlines()[-1])  # the list printed above
    return found


@pytest.fixture(scope="module")
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for every command line here, as a player's own holds the rules, the manifest and
    the catalogs after any first command: each line's first process fills in only its own part
    (its table, its answer), not the whole ruleset again."""
    return tmp_path_factory.mktemp("commands") / "cache"


@pytest.mark.parametrize(("line", "ceiling", "argparse"), COMMANDS, ids=[" ".join(c[0][:3]) for c in COMMANDS])
def test_each_command_imports_no_more_than_its_ceiling(
    line: list[str], ceiling: int, argparse: bool, cache_folder: Path
) -> None:
    modules = _modules(line, cache_folder)
    assert len(modules) <= ceiling, f"havoc {' '.join(line)} imported {len(modules)} modules (at most {ceiling})"
    if not argparse:
        assert "argparse" not in modules, f"havoc {' '.join(line)} went through argparse"


def test_legal_imports_only_the_kinds_that_probe(cache_folder: Path) -> None:
    """``havoc legal`` runs every probe: it imports the kinds that declare one, and no other kind."""
    from havoc.games.cry_havoc import kind as registry

    modules = _modules(["legal", P], cache_folder)
    kinds = {m for m in modules if m.startswith("havoc.games.cry_havoc.kinds.")}
    probing = {registry.module_name(k.name) for k in registry.all_kinds() if k.probe is not None}
    assert kinds == {registry.module_name("legal"), *probing}


@pytest.mark.parametrize(
    "line",
    [
        ["legal", P, "humans", "--json"],
        ["score", P, "--lang", "pl"],
        ["--lang=pl", "legal", P, "--explain"],
        ["battle", P],
        ["battle", P, "example-battle", "pilgrims=2/1/1", "humans=2/1/1", "--json"],
        ["battle", P, "--as=humans", "example-battle", "humans=1/0/0", "--lang", "pl"],
        ["battle", P, "example-battle", "--as", "humans", "--explain"],
        ["rule", "game-goal"],
        ["rule", "--lang", "pl", "game-goal", "--json"],
        ["--lang=pl", "rule", "game-goal", "--ruleset", "cry-havoc"],
        ["trogs", "solo.yaml", "move"],
        ["trogs", "solo.yaml", "move", "--units", "4", "--from=example-a", "--steps", "2", "--json"],
        ["trogs", "solo.yaml", "place", "example-a", "humans=1/1/1", "--lang", "pl", "trogs=0/1/2"],
        ["trogs", "solo.yaml", "tactics", "--no-tactic-text", "example-a", "--ruleset", "cry-havoc"],
        ["--lang", "pl", "trogs", "solo.yaml", "prisoner", "--shifted-priorities", "--both"],
        ["charts", "range", "English longbow", "3"],
        ["charts", "range", "--json", "luk", "45", "--lang=pl"],
        ["charts", "status", "scared", "--ruleset", "advanced-cry-havoc"],
        ["--lang=pl", "charts", "status", "-"],
    ],
    ids=" ".join,
)
def test_a_plain_legal_score_battle_rule_trogs_or_charts_line_reads_as_argparse_reads_it(line: list[str]) -> None:
    from havoc import cli

    quick = cli.quick_parse(line, "en")
    assert quick is not None
    plain = [w for w in line if not w.startswith("-") and w not in ("en", "pl")]
    assert vars(quick) == vars(cli.build_parser(plain[0], "en").parse_args(line))


@pytest.mark.parametrize(
    "line",
    [
        ["legal", P, "a", "b"],
        ["legal", P, "-h"],
        ["score"],
        ["battle"],
        ["battle", P, "--as"],
        ["battle", P, "--as", "-x"],
        ["battle", P, "--a", "humans"],
        ["rule"],
        ["rule", "a", "b"],
        ["rule", "game-goal", "--lang", "all"],
        ["rule", "-h"],
        ["trogs", "solo.yaml"],
        ["trogs", "solo.yaml", "move", "--units", "four"],
        ["trogs", "solo.yaml", "move", "--units", "٤"],
        ["trogs", "solo.yaml", "move", "--unit", "4"],
        ["trogs", "solo.yaml", "move", "--both=yes"],
        ["trogs", "solo.yaml", "move", "--explain"],
        ["trogs", "solo.yaml", "move", "--lang", "de"],
        ["trogs", "solo.yaml", "move", "--from"],
        ["charts", "range", "English longbow"],
        ["charts", "range", "bow", "3", "4"],
        ["charts", "courage", "12", "--foot"],
        ["charts", "waking", "5", "--if", "aid"],
        ["charts", "--lang", "pl", "range", "bow", "3"],
        ["charts", "status", "scared", "--explain"],
    ],
    ids=" ".join,
)
def test_any_other_legal_score_battle_or_rule_line_is_left_to_argparse(line: list[str]) -> None:
    from havoc import cli

    assert cli.quick_parse(line, "en") is None


@pytest.mark.parametrize(
    ("line", "unneeded"),
    [
        # a table read before comes from the cache: neither the YAML reader nor the table's checks
        (
            ["ask", P, "move", "humans", "from=example-a", "to=example-b", "units=2"],
            ("havoc.formats.yamlio", "havoc.games.cry_havoc.position_read"),
        ),
        # the sentence reader: its names from the cache, no pattern compiled, no other lookup or decider
        (
            ["ask", P, "--text", "may the humans move 2 units from region a to region b"],
            ("re", "typing", "havoc.games.cry_havoc.solo.engine", "havoc.games.cry_havoc.interview"),
        ),
        # a chart's spellings from the cache: no stemmer; results as records: no dataclasses
        (
            ["charts", "range", "English longbow", "3"],
            ("dataclasses", "_havoc_snowballstemmer.english_stemmer", "typing"),
        ),
        # machine words only: no typed words (every catalog), no argparse's typing
        (["trogs", "tests/fixtures/solo/move.yaml", "move"], ("typing", "pathlib", "collections", "json")),
    ],
    ids=lambda v: " ".join(v[:3]) if isinstance(v, list) else "",
)
def test_a_command_imports_no_module_it_does_not_need(
    line: list[str], unneeded: tuple[str, ...], cache_folder: Path
) -> None:
    modules = set(_modules(line, cache_folder))
    assert not modules & set(unneeded), f"havoc {' '.join(line)} imported {sorted(modules & set(unneeded))}"


_OPENED = (
    "import atexit, sys\n"
    "from havoc.core import cache\n"
    "cache.TRUST_AFTER = -(10**12)  # the files count as old ones, however recently checked out\n"
    "opened = []\n"
    "def hook(event, args):  # a file opened by havoc's code, not by an import (of a module's source, too)\n"
    "    if event == 'open' and isinstance(args[0], str) and not sys._getframe(1).f_code.co_filename.startswith('<'):\n"
    "        opened.append(args[0])\n"
    "sys.addaudithook(hook)\n"
    "atexit.register(lambda: print(opened, file=sys.stderr))\n"
    "from havoc.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize(
    "line",
    [
        ["ask", P, "move", "humans", "from=example-a", "to=example-b", "units=2"],
        ["ask", P, "--text", "may the humans move 2 units from region a to region b"],
        ["lookup", "retreat"],
        ["legal", P, "humans"],
        ["rule", "game-goal"],
    ],
    ids=lambda v: " ".join(v[:3]),
)
def test_a_warm_command_reads_no_rule_catalog_or_source_file_for_its_keys(line: list[str], tmp_path: Path) -> None:
    """A second process finds its keys by the files' stat facts (cache.remembered): reading and
    hashing the rules, the catalogs and havoc's own code for them was most of a short lookup."""
    env = {**os.environ, "HAVOC_CACHE_DIR": str(tmp_path / "cache")}
    run = None
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", _OPENED, *line], capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
    assert run is not None
    opened: list[str] = ast.literal_eval(run.stderr.strip().splitlines()[-1])
    read = [p for p in opened if p.endswith((".po", ".py")) or (p.endswith(".yaml") and not p.endswith(P))]
    assert read == [], f"havoc {' '.join(line)} read {read}"
