"""The engine knows no game: Cry Havoc is one game package, and a toy game needs nothing else.

- No faction, phase, ruleset or game-package name in the engine's code (identifiers and string
  literals outside ``havoc/games/``; docstrings and comments aside).
- A toy second game (``tests/fixtures/toy``: its rules folder and its package, nothing else)
  validates, answers a question and builds its site page.
- ``havoc check`` locates a question kind without a handler, a condition comparing a fact with a
  value of the wrong type, and a value the vocabulary does not know.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr
from pathlib import Path

import pytest
import yaml

from havoc.assistant import api
from havoc.cli import main
from havoc.core.errors import InputError, RulebookError
from havoc.engine import game, rulebook

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "havoc"
TOY = Path(__file__).parent / "fixtures" / "toy"


def _game_names() -> set[str]:
    """Every faction, phase and ruleset name of the rulesets in rules/, and each game package."""
    names: set[str] = set()
    for folder in (REPO / "rules").iterdir():
        if not (folder / "ruleset.yaml").is_file():
            continue
        meta = yaml.safe_load((folder / "ruleset.yaml").read_text())
        names.add(meta["id"])
        if meta.get("game"):
            names.add(meta["game"].rsplit(".", 1)[-1])
        vocab_file = folder / "vocabulary.yaml"
        if vocab_file.is_file():
            vocab = yaml.safe_load(vocab_file.read_text())
            names.update(vocab.get("factions", ()))
            names.update(vocab.get("phases", ()))
    return names


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _words(text: str) -> set[str]:
    """A literal's or identifier's words: whole IDs (`battle-resolution`) and their parts."""
    found = set(re.findall(r"[a-z0-9]+(?:[-_][a-z0-9]+)*", text.lower()))
    return found | {part for w in found for part in re.split(r"[-_]", w)} | {w.replace("_", "-") for w in found}


# Attributes of the standard library that happen to contain a game word (argparse's actions).
STDLIB_ATTRIBUTES = {"_actions", "_choices_actions"}


def _generic_hits(names: set[str], src: Path = SRC) -> list[str]:
    hits = []
    for path in sorted(src.rglob("*.py")):
        if "games" in path.relative_to(src).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                text = node.value
            elif isinstance(node, ast.Name):
                text = node.id
            elif isinstance(node, ast.Attribute):
                if node.attr in STDLIB_ATTRIBUTES:
                    continue
                text = node.attr
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                text = node.name
            elif isinstance(node, ast.arg):
                text = node.arg
            else:
                continue
            bad = _words(text) & names
            if bad:
                hits.append(f"{path.relative_to(src)}:{getattr(node, 'lineno', '?')}: {sorted(bad)} in {text[:60]!r}")
    return hits


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_the_engine_names_no_faction_phase_or_ruleset() -> None:
    names = _game_names()
    assert {"humans", "trogs", "battle-resolution", "cry-havoc", "cry_havoc"} <= names
    hits = _generic_hits(names)
    assert not hits, "game names in the engine's code:\n" + "\n".join(hits)


def test_the_scan_finds_a_planted_name(tmp_path: Path) -> None:
    """The scan is not blind: a faction named in a generic module is found, a docstring is not."""
    fake = tmp_path / "havoc"  # the planted module alone: the scan reads each file on its own
    fake.mkdir()
    (fake / "planted.py").write_text('"""Docstrings may say humans."""\nFACTION = "pilgrims"\n')
    hits = [h for h in _generic_hits(_game_names(), fake) if h.startswith("planted.py")]
    assert hits == ["planted.py:2: ['pilgrims'] in 'pilgrims'"]


# The engine's own words that are also a game's kind or command, where they mean the engine's thing.
ENGINE_WORDS = {
    ("cli/commands/docs.py", "build"): "the build folder",
    ("cli/commands/serve.py", "build"): "the build folder",
    ("cli/commands/sheet.py", "build"): "the build folder",
    ("quickref/__init__.py", "build"): "the build folder",
    ("sphinxext/__init__.py", "setup"): "Sphinx's entry point of an extension",
    ("search/__init__.py", "score"): "a search hit's score",
    ("engine/rulebook/stored.py", "charts"): "a ruleset's folder of chart files",
}
GENERIC = {"ask"}  # the engine's own command and question field


def _kind_names() -> set[str]:
    """Every question kind (the rulesets' vocabularies) and what each installed game mounts:
    its commands, shortcut kinds and their fields, other deciders and lookups."""
    names: set[str] = set()
    for folder in (REPO / "rules").iterdir():
        if (folder / "ruleset.yaml").is_file():
            names.update(rulebook.load(str(folder)).question_kinds)
    for module in game.installed():
        played = game.load(module)
        names.update(played.COMMANDS)
        for kind, declared in game.shortcuts(played).items():
            names.update((kind, *declared.fields))
        names.update(getattr(played, "EXTRA_ANSWERS", {}), getattr(played, "LOOKUPS", {}))
    return names - GENERIC


def _game_files() -> set[str]:
    """The file names of the installed games' modules the engine has no file of its own by
    (`new.py`, `ask_page.py`; not `cli.py` or `__init__.py`)."""
    engine = {p.name for p in SRC.rglob("*.py") if "games" not in p.relative_to(SRC).parts}
    engine |= {f"{p.parent.name}.py" for p in SRC.rglob("__init__.py") if "games" not in p.relative_to(SRC).parts}
    return {p.name for p in (SRC / "games").rglob("*.py")} - engine


def _kind_hits(names: set[str], src: Path = SRC) -> list[str]:
    """String literals naming a kind, command or shortcut field or a game's module: a literal
    without spaces split at / and : (`"/api/legal"`, `"legal"`, `"module:battle"`, `"new.py"`),
    and in prose a `havoc <name>`, `/api/<name>` or `ask: <name>`."""
    files = _game_files()
    hits = []
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src)
        if "games" in rel.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in skip:
                continue
            text = node.value.lower()
            if re.search(r"\s", text):
                words = set(re.findall(r"(?:\bhavoc |/api/|\bask:\s*)([a-z][a-z0-9_-]*)", text))
            else:
                words = set(re.split(r"[/:]", text))
            bad = {w for w in words if w in names or w.replace("_", "-") in names or w in files}
            bad = {w for w in bad if (rel.as_posix(), w) not in ENGINE_WORDS}
            if bad:
                hits.append(f"{rel}:{node.lineno}: {sorted(bad)} in {node.value[:60]!r}")
    return hits


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_the_engine_names_no_kind_or_command_of_a_game() -> None:
    """Kinds, commands and shortcuts are the game's: the engine mounts them from its declarations."""
    names = _kind_names()
    assert {"legal", "battle", "score", "objectives", "trogs", "move", "charts", "new"} <= names
    hits = _kind_hits(names)
    assert not hits, "a game's kinds or commands named in the engine's code:\n" + "\n".join(hits)


def test_the_kind_scan_finds_a_planted_route(tmp_path: Path) -> None:
    fake = tmp_path / "havoc"  # the planted module alone: the scan reads each file on its own
    fake.mkdir()
    (fake / "planted.py").write_text(
        '"""Docstrings may say legal."""\nROUTE = "/api/battle"\nHELP = "like `havoc score --json`"\nOK = "a legal move"\n'
        'ERROR = "expected a mapping ({ask: move, …})"\nPAGE = "ask_page.py"\nOWN = "cli.py"\n'
    )
    hits = [h for h in _kind_hits(_kind_names(), fake) if h.startswith("planted.py")]
    assert hits == [
        "planted.py:2: ['battle'] in '/api/battle'",
        "planted.py:3: ['score'] in 'like `havoc score --json`'",
        "planted.py:5: ['move'] in 'expected a mapping ({ask: move, …})'",
        "planted.py:6: ['ask_page.py'] in 'ask_page.py'",
    ]


# --- a toy second game ----------------------------------------------------------------


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The toy game's rules folder made the one havoc reads, and its package importable."""
    rules = tmp_path / "rules"
    shutil.copytree(TOY / "rules", rules)
    monkeypatch.setenv("HAVOC_RULES", str(rules))
    monkeypatch.syspath_prepend(str(TOY))
    monkeypatch.setenv("PYTHONPATH", f"{TOY}:{REPO / 'src'}")
    yield rules
    game._loaded.pop("toy_game", None)
    sys.modules.pop("toy_game", None)


def test_a_toy_game_validates_and_answers(toy: Path) -> None:
    rs = rulebook.load("toy")  # validated: conditions type-checked against the toy's facts
    assert game.check(rs) == []
    assert rs.game == "toy_game" and rs.question_kinds == ("won",)
    yes = api.ask({"points": 12, "colour": "red"}, "won", ruleset="toy")
    assert yes.verdict is True and yes.rule_ids == ["win-points"]
    no = api.ask({"points": 12, "colour": "blue"}, "won", ruleset="toy")
    assert no.verdict is False
    assert no.rules[0].facts == {"game.points": 12, "game.colour": "blue"}


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_toy_game_builds_its_site_page(toy: Path, tmp_path: Path) -> None:
    from havoc.cli.commands.docs import build_languages

    source = tmp_path / "test-toy"
    shutil.copytree(REPO / "tests" / "roots" / "test-toy", source)
    results = build_languages(["en"], tmp_path / "site", tmp_path / "doctrees", "toy", tmp_path / "no-sheets", source)
    assert results[0].code == 0, results[0].output
    page = (tmp_path / "site" / "en" / "rules" / "winning.html").read_text(encoding="utf-8")
    assert "Enough points" in page and "You win with" in page


# --- havoc check locates what the engine cannot run --------------------------------------


def _check_mini(mini_copy: Path, rel: str, old: str, new: str) -> str:
    path = mini_copy / "mini" / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    err = io.StringIO()
    with redirect_stderr(err):
        code = main(["check", "--ruleset", "mini"])
    assert code == 1
    assert "Traceback" not in err.getvalue()
    return err.getvalue()


def test_a_kind_without_a_handler_fails_check(mini_copy: Path) -> None:
    err = _check_mini(mini_copy, "vocabulary.yaml", "how-many, place", "how-many, fly, place")
    assert "vocabulary.yaml" in err and "'fly' is declared but the game havoc.games.cry_havoc has no handler" in err


def test_a_fact_compared_with_a_value_of_the_wrong_type_fails_check(mini_copy: Path) -> None:
    err = _check_mini(
        mini_copy,
        "sections/02-battle-regions.yaml",
        "{fact: from.is-battle-region}",
        "{eq: [{fact: game.phase}, 3]}",
    )
    assert re.search(
        r"02-battle-regions\.yaml:\d+: rule \S+\.check: .*compares fact game\.phase \(a name\) with 3", err
    ), err


def test_an_unknown_vocabulary_value_fails_check(mini_copy: Path) -> None:
    err = _check_mini(
        mini_copy,
        "sections/02-battle-regions.yaml",
        "{fact: from.is-battle-region}",
        "{eq: [{fact: game.phase}, prisonres]}",
    )
    assert "'prisonres' is not one of the phases in vocabulary.yaml (did you mean 'prisoners'?)" in err, err


def test_a_game_that_is_not_a_package_fails_check(mini_copy: Path) -> None:
    err = _check_mini(mini_copy, "ruleset.yaml", "game: havoc.games.cry_havoc", "game: havoc.core.errors")
    assert "'havoc.core.errors' is not a game package" in err


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_rule_chart_is_shown_as_a_table(toy: Path, tmp_path: Path) -> None:
    from havoc.cli.commands.docs import build_languages

    rs = rulebook.load("toy")
    table = rs.rules["win-points"].table
    assert table is not None and table.columns == ("Table colour", "Points needed")
    assert table.rows == (("red", "10"), ("blue", "never"))
    source = tmp_path / "test-toy"
    shutil.copytree(REPO / "tests" / "roots" / "test-toy", source)
    results = build_languages(["en"], tmp_path / "site", tmp_path / "doctrees", "toy", tmp_path / "no-sheets", source)
    assert results[0].code == 0, results[0].output
    page = (tmp_path / "site" / "en" / "rules" / "winning.html").read_text(encoding="utf-8")
    chart = page[page.index('class="havoc-chart') :]
    assert "Table colour" in chart and "never" in chart[: chart.index("</table>")]


def test_a_rule_table_row_of_the_wrong_width_is_located(toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = toy / "toy" / "sections" / "01-winning.yaml"
    path.write_text(path.read_text().replace("- [blue, never]", "- [blue]"))
    assert main(["check", "--ruleset", "toy"]) == 1
    err = capsys.readouterr().err
    assert re.search(
        r"01-winning\.yaml:\d+: rule win-points\.table\.rows: expected 2 cells \(one per column\), found 1", err
    ), err


@pytest.mark.slow
def test_every_ruleset_gets_its_site_with_a_switch_between_them(
    toy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`havoc docs` builds each ruleset under the rules folder; each site links to the others."""
    shutil.copytree(REPO / "rules" / "cry-havoc", toy / "cry-havoc")
    shutil.copy(REPO / "rules" / "default-ruleset", toy / "default-ruleset")
    monkeypatch.chdir(tmp_path)  # build/doctrees and the generated sources go here
    assert main(["docs", "--lang", "en", "-o", str(tmp_path / "site")]) == 0
    home = (tmp_path / "site" / "en" / "rules" / "move.html").read_text(encoding="utf-8")
    switch = home[home.index("havoc-sidebar-rulesets") :]
    assert 'href="../../toy/en/index.html"' in switch[: switch.index("</p>")]
    toy_page = (tmp_path / "site" / "toy" / "en" / "rules" / "winning.html").read_text(encoding="utf-8")
    switch = toy_page[toy_page.index("havoc-sidebar-rulesets") :]
    assert 'href="../../../en/index.html"' in switch[: switch.index("</p>")]
    assert (tmp_path / "site" / "toy" / "index.html").read_text(encoding="utf-8").count("<h1>Toy</h1>") == 1


# --- one schema framework: the rule files' format is declared once and published ---------------


def _conforms(value: object, schema: dict, path: str, out: list[str]) -> None:
    """A small JSON Schema check (the keywords our schemas use): type, properties, required, items."""
    kind = schema.get("type")
    if kind == "object" and not isinstance(value, dict):
        out.append(f"{path}: expected a mapping")
        return
    if kind == "array" and not isinstance(value, list):
        out.append(f"{path}: expected a list")
        return
    if kind == "string" and not isinstance(value, str):
        out.append(f"{path}: expected a text")
    if isinstance(value, dict) and kind == "object":
        props = schema.get("properties")
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{path}: missing {key}")
        for key, item in value.items():
            if props is not None and key in props:
                _conforms(item, props[key], f"{path}.{key}", out)
            elif schema.get("additionalProperties") is False:
                out.append(f"{path}: unknown field {key}")
            elif isinstance(schema.get("additionalProperties"), dict):
                _conforms(item, schema["additionalProperties"], f"{path}.{key}", out)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            _conforms(item, schema["items"], f"{path}[{i}]", out)


def test_every_rule_file_conforms_to_the_published_schema(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    schemas = {}
    for kind in ("ruleset", "section", "facts"):
        assert main(["schema", "--rules", kind]) == 0
        schemas[kind] = json.loads(capsys.readouterr().out)
    problems: list[str] = []
    for folder in sorted(p.parent for p in (REPO / "rules").glob("*/ruleset.yaml")):
        _conforms(yaml.safe_load((folder / "ruleset.yaml").read_text()), schemas["ruleset"], folder.name, problems)
        if (folder / "facts.yaml").is_file():
            _conforms(yaml.safe_load((folder / "facts.yaml").read_text()), schemas["facts"], "facts", problems)
        for section in sorted((folder / "sections").glob("*.yaml")):
            _conforms(yaml.safe_load(section.read_text()), schemas["section"], section.name, problems)
    assert not problems, problems[:10]
    bad: list[str] = []
    _conforms(
        {"id": "x", "title": "X", "rules": [{"id": "r", "title": "R", "text": "T", "colour": 1}]},
        schemas["section"],
        "s",
        bad,
    )
    assert bad == ["s.rules[0]: unknown field colour"]


def test_every_question_kind_module_resolves() -> None:
    """Each declared kind's module holds its handler (and its probe of the legal-actions report)."""
    from havoc.games.cry_havoc import kind as registry
    from havoc.games.cry_havoc.contract import QUESTION_KINDS

    kinds = list(registry.all_kinds())
    assert [k.name for k in kinds] == list(QUESTION_KINDS)
    for kind in kinds:
        module = registry.module_name(kind.name)
        assert callable(kind.handler) and kind.handler.__module__ == module, kind.name
        assert kind.probe is None or kind.probe.__module__ == module, kind.name


def test_havoc_check_runs_the_games_own_data_checks(rules_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game may check its rule data (a chart cell its lookups cannot read): `havoc check` runs it."""
    played = game.load(rulebook.load("advanced-cry-havoc").game)
    assert callable(getattr(played, "check_rules", None))
    path = rules_copy / "advanced-cry-havoc" / "sections" / "08-courage.yaml"
    text = path.read_text(encoding="utf-8")
    assert '"13 or more"' in text
    path.write_text(text.replace("13 or more", "thirteen", 1), encoding="utf-8")
    assert main(["check", "--ruleset", "advanced-cry-havoc"]) == 1
    err = capsys.readouterr().err
    assert "08-courage.yaml" in err and "thirteen" in err, err


def test_the_interpreter_is_given_the_game_and_imports_none() -> None:
    """No path from the interpreter to the game registry, type-only and function-local imports
    included (what import-linter's acyclic contract sees with exclude_type_checking_imports off)."""
    import grimp

    graph = grimp.build_graph("havoc", exclude_type_checking_imports=False, cache_dir=None)
    assert (
        graph.find_shortest_chain("havoc.engine.game", "havoc.engine.interpreter.answer") is not None
    )  # the graph sees type-only imports
    for module in (
        "havoc.engine.interpreter.engine",
        "havoc.engine.interpreter.answer",
        "havoc.engine.interpreter.expr",
    ):
        assert graph.find_shortest_chain(module, "havoc.engine.game") is None, module


def test_the_games_vocabulary_is_its_loaded_rulesets() -> None:
    """Cry Havoc's names come from its ruleset as the rulebook loaded it, not a second reading of a file."""
    from havoc.games.cry_havoc import contract

    assert rulebook.load("cry-havoc").vocabulary == contract.VOCABULARY
    assert rulebook.load("cry-havoc").question_kinds == contract.QUESTION_KINDS


# --- the generic command line: one `havoc ask` for every game; game commands never collide -------


def test_havoc_ask_answers_any_games_question(toy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`havoc ask` is the engine's: the toy game's position and question go to the toy's parsers."""
    import json

    pos = tmp_path / "pos.json"
    pos.write_text('{"points": 12, "colour": "red"}')
    assert main(["ask", str(pos), "won", "--ruleset", "toy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] is True and out["kind"] == "won"
    assert main(["ask", str(pos), "lost", "--ruleset", "toy"]) == 2
    assert "expected 'won', found 'lost'" in capsys.readouterr().err


@pytest.fixture
def toy_commands(toy: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The toy game installed beside the shipped ones, with commands of its own (set the returned
    dict's keys): each prints which game ran it."""
    import argparse

    import toy_game  # type: ignore[import-not-found]

    def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        for name in toy_game.COMMANDS:
            p = sub.add_parser(name, help="a toy command")
            p.set_defaults(func=lambda args, name=name: print(f"toy {name}") or 0)

    declared: dict[str, str] = {}
    shipped = game.installed()
    monkeypatch.setattr(toy_game, "COMMANDS", declared)
    monkeypatch.setattr(toy_game, "register", register, raising=False)
    monkeypatch.setattr(game, "installed", lambda: [*shipped, "toy_game"])
    yield declared


def test_two_games_commands_of_one_name_each_keep_their_own(
    toy_commands: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Each game's commands are `havoc <game> <command>`: a name two games have is theirs under
    their names, and `havoc <name>` says which forms there are; a name only one has stays short."""
    toy_commands.update({"legal": "toy_game", "toy-only": "toy_game", "ask": "toy_game"})
    assert main(["toy-game", "legal"]) == 0 and capsys.readouterr().out == "toy legal\n"
    assert main(["toy-game", "ask"]) == 0 and capsys.readouterr().out == "toy ask\n"
    assert main(["toy-only"]) == 0 and capsys.readouterr().out == "toy toy-only\n"
    assert main(["legal", "pos.yaml"]) == 2
    err = capsys.readouterr().err
    assert err == "error: havoc: legal is a command of several games: havoc cry-havoc legal, havoc toy-game legal\n"
    with pytest.raises(SystemExit) as done:
        main(["cry-havoc", "legal", "--help"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("usage: havoc cry-havoc legal ")
    with pytest.raises(SystemExit):
        main(["ask", "--help"])  # the engine's `ask` is not the toy's
    assert "usage: havoc ask [-h]" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("lang", "cry_havoc", "toy_game", "forms"),
    [
        (
            "en",
            "Cry Havoc's commands: legal, battle, score, new, trogs, understand (only as havoc cry-havoc …: legal)",
            "toy-game's commands: legal, toy-only (only as havoc toy-game …: legal)",
            "Each is `havoc toy-game COMMAND`; one no other game has is also `havoc COMMAND`.",
        ),
        (
            "pl",
            "polecenia gry Cry Havoc: legal, battle, score, new, trogs, understand (tylko jako havoc cry-havoc …: legal)",
            "polecenia gry toy-game: legal, toy-only (tylko jako havoc toy-game …: legal)",
            "Każde to `havoc toy-game POLECENIE`; to, którego nie ma żadna inna gra, działa też jako `havoc POLECENIE`.",
        ),
    ],
)
def test_help_lists_each_games_commands_and_their_forms(
    toy_commands: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    cry_havoc: str,
    toy_game: str,
    forms: str,
) -> None:
    toy_commands.update({"legal": "toy_game", "toy-only": "toy_game"})
    monkeypatch.setenv("COLUMNS", "400")  # one line each
    with pytest.raises(SystemExit):
        main(["--lang", lang, "--help"])
    rows = [re.match(r"^    (\S+)\s{2,}(\S.*)$", line) for line in capsys.readouterr().out.splitlines()]
    listed = {m[1]: m[2] for m in rows if m}
    assert listed["cry-havoc"] == cry_havoc and listed["toy-game"] == toy_game
    assert "toy-only" in listed and "legal" not in listed and "battle" in listed
    with pytest.raises(SystemExit):
        main(["--lang", lang, "toy-game", "--help"])
    out = capsys.readouterr().out
    assert out.rstrip().endswith(forms), out
    assert toy_game in out


def test_a_game_named_like_a_command_is_a_clear_error(
    toy_commands: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    toy_commands["cry-havoc"] = "toy_game"
    assert main(["new", "--help"]) == 1
    err = capsys.readouterr().err
    assert (
        "havoc.games.cry_havoc: COMMANDS: the game's name on the command line, 'cry-havoc', is already a command" in err
    )
    assert "Traceback" not in err


# --- the Game protocol: a small part every game has, an optional assistant ---------------------


def test_a_game_without_an_assistant_stubs_nothing() -> None:
    """Advanced Cry Havoc offers none of the assistant's names; the engine refuses its positions in its words."""
    import importlib

    package = importlib.import_module("havoc.games.advanced_cry_havoc")
    assert not [n for n in game.ASSISTANT if hasattr(package, n)]
    played = game.load("havoc.games.advanced_cry_havoc")
    assert not game.has_assistant(played) and game.has_assistant(game.load("havoc.games.cry_havoc"))
    with pytest.raises(InputError) as info:
        played.parse_position({}, None, "pos.yaml")
    assert str(info.value.problems[0]) == (
        "pos.yaml: Advanced Cry Havoc 2 has no position-based assistant; use `havoc charts` for lookups"
    )
    from havoc.language.i18n import set_message_language

    set_message_language("pl")  # the asker's language (conftest sets English back for the next test)
    with pytest.raises(InputError) as info:
        played.parse_position({}, None, "pos.yaml")
    assert str(info.value.problems[0]) == (
        "pos.yaml: Advanced Cry Havoc 2 nie ma asystenta odpowiadającego na pytania o stół; "
        "do wyszukiwania w tabelach użyj `havoc charts`"
    )
    assert played.question_kinds() == {} and played.labels().figures("en") == {}


def test_half_an_assistant_is_a_located_error(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import toy_game  # type: ignore[import-not-found]

    monkeypatch.delattr(toy_game, "labels")
    with pytest.raises(RulebookError) as info:
        game.load("toy_game", "toy/ruleset.yaml: game")
    assert str(info.value.problems[0]) == "toy/ruleset.yaml: game: 'toy_game' is not a game package: it lacks labels"


# --- what the site's in-browser engine leaves out is the game's to say -------------------------


def test_the_modules_a_game_declares_off_the_answer_path_are_left_out_and_never_imported() -> None:
    """Each game lists its modules no answer imports (OFF_ANSWER_PATH); the engine's bundle leaves
    exactly those out, and answering every stored example (and loading the lookups) imports none
    of them."""
    import subprocess

    from havoc.web import offline

    declared = {m for g in game.installed() for m in game.off_answer_path(game.load(g))}
    assert {"havoc.games.cry_havoc.ask_page", "havoc.games.advanced_cry_havoc.cli"} <= declared
    bundled = {name for name, _path in offline._bundle_files()}
    for module in declared:
        assert f"{module.replace('.', '/')}.py" not in bundled, module
    assert "havoc/games/cry_havoc/answering.py" in bundled
    script = (
        "import sys\n"
        "from havoc.assistant import examples; from havoc.engine import game, rulebook\n"
        "for name in rulebook.ruleset_names():\n"
        "    rs = rulebook.load(name)\n"
        "    ran, problems = examples.run_all(rs)\n"
        "    assert not problems, problems\n"
        "    game.lookups(game.of(rs))\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    imported = set(proc.stdout.split())
    assert {"havoc.games.cry_havoc.answering", "havoc.games.advanced_cry_havoc.charts"} <= imported
    assert not declared & imported


def test_a_module_declared_off_the_answer_path_that_does_not_exist_fails_check(
    toy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toy_game  # type: ignore[import-not-found]

    monkeypatch.setattr(toy_game, "OFF_ANSWER_PATH", ("toy_game.pages", "havoc.cli"), raising=False)
    problems = [str(p) for p in game.check(rulebook.load("toy"))]
    assert problems == [
        "toy_game: OFF_ANSWER_PATH: 'toy_game.pages' is not a module of the game toy_game",
        "toy_game: OFF_ANSWER_PATH: 'havoc.cli' is not a module of the game toy_game",
    ]
