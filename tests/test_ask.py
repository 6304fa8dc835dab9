"""The command line and the API of the rules assistant: output, languages, exit codes."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from havoc.assistant import api
from havoc.cli import main
from havoc.engine import rulebook
from havoc.games.cry_havoc import ui as ui_module

REPO = Path(__file__).resolve().parents[1]
TWENTY = Path(__file__).parent / "fixtures" / "assistant" / "twenty.yaml"

POSITION = """\
players: [humans, pilgrims]
round: 1
phase: actions
turn: humans
factions:
  humans: {vp: 3, hand: 9}
regions:
  example-a: {units: {humans: 8, pilgrims: 3}, control: humans, battle: {token: 1, attacker: pilgrims}, adjacent: [example-b]}
  example-b: {control: humans, adjacent: [example-a]}
  example-hq: {hq: humans, units: {humans: 1}, control: humans}
"""


@pytest.fixture
def pos_file(tmp_path: Path) -> Path:
    path = tmp_path / "pos.yaml"
    path.write_text(POSITION)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_ask_compact_form(pos_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["ask", str(pos_file), "move", "humans", "from=example-a", "to=example-b", "units=2"]
    code, out, err = run(capsys, *words, "--explain")
    assert code == 0, err
    assert out.startswith("Can the Humans move 2 Units from Region A to Region B?  Yes")
    assert "may leave: 2" in out and "[battle-region-leave]" in out and "from.enemy-units = 3" in out
    # Without --explain: words for players, no machine trace (issue 9).
    code, out, err = run(capsys, *words)
    out = " ".join(out.split())  # read across its lines, wrapped at a phone's width (issue 38)
    assert "may leave: 2" in out and "[battle-region-leave]" not in out and "from.enemy-units" not in out
    # what the rules looked at, in a player's words (issue 38)
    assert "Enemy Units in Region A: 3" in out and "Humans' Units in Region A: 8" in out


def test_ask_no_with_hint_and_bound(pos_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ask", str(pos_file), "move", "humans", "from=example-a", "to=example-b", "units=3")
    assert code == 0
    assert "?  No" in out.splitlines()[0]
    assert "Hint: Only the Defender may leave" in out and "with at most 2 Units" in out
    assert "✗ Leaving a Battle Region" in out and "[battle-region-leave]" not in out


def test_ask_json(pos_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "ask", str(pos_file), "move", "humans", "from=example-a", "to=example-b", "units=3", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["verdict"] is False and data["answer"] == "No"
    assert data["figures"]["may-leave"] == 2
    rule = data["rules"][0]
    assert rule["id"] == "battle-region-leave" and rule["title"] and rule["text"] and rule["passed"] is False
    assert rule["facts"]["from.actor-units"] == 8 and rule["hint"]
    assert data["would-be-legal"] == ["with at most 2 Units"]
    assert data["overlay"] in {"base", "errata"}


@pytest.mark.parametrize("suffix", ["yaml", "json"])
def test_ask_query_file(pos_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str) -> None:
    query = {"ask": "discard", "faction": "humans"}
    path = tmp_path / f"q.{suffix}"
    path.write_text(json.dumps(query) if suffix == "json" else "ask: discard\nfaction: humans\n")
    drawn = tmp_path / "drawn.yaml"  # the hand limit applies in the Draw Cards phase
    drawn.write_text(pos_file.read_text().replace("phase: actions\nturn: humans", "phase: draw-cards"))
    code, out, _ = run(capsys, "ask", str(drawn), "--query", str(path), "--json")
    assert code == 0 and json.loads(out)["figures"]["must-discard"] == 2


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["move", "humans", "from=example-a", "to=nowhere"], "query: to: unknown Region 'nowhere'"),
        (["move", "humans", "from=example-a", "too=example-b"], "unknown field 'too' (did you mean 'to'?)"),
        (["move", "elves"], "'elves': expected key=value"),
        (["fly", "humans"], "ask: expected one of move, recruit"),
        (
            ["move", "humans", "from=example-a", "to=example-b", "units=-1"],
            "units: expected a whole number ≥ 0, found -1",
        ),
        (["battle", "example-a", "humans=1/2"], "a placement is humans=CONTROL/PRISONERS/ATTRITION"),
        ([], "no question given"),
    ],
)
def test_bad_question_exits_2(
    pos_file: Path, capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    code, out, err = run(capsys, "ask", str(pos_file), *args)
    assert code == 2 and out == ""
    assert fragment in err and "Traceback" not in err


def test_bad_position_exits_2_with_located_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(POSITION.replace("humans: 8", "humans: -8").replace("round: 1", "rund: 1"))
    code, _, err = run(capsys, "ask", str(bad), "legal")
    assert code == 2
    assert f"error: {bad}:2: unknown field 'rund' (did you mean 'round'?)" in err
    assert f"error: {bad}:8: Region A › units › Humans: expected a whole number ≥ 0, found -8" in err
    assert "2 problems" in err


@pytest.mark.parametrize(
    ("content", "fragment"),
    [("players: [", "not valid YAML"), ("a: &x [1]\nb: *x\n", "aliases"), (None, "cannot read file")],
)
def test_hostile_position_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, fragment: str
) -> None:
    path = tmp_path / "p.yaml"
    if content is not None:
        path.write_text(content)
    code, _, err = run(capsys, "legal", str(path))
    assert code == 2 and fragment in err


def test_position_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        sys, "stdin", io.StringIO(POSITION.replace("phase: actions\nturn: humans", "phase: draw-cards"))
    )
    code, out, _ = run(capsys, "ask", "-", "discard", "humans")
    assert code == 0 and "must discard: 2" in out


def test_legal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "legal", str(TWENTY))
    assert code == 0
    assert out.startswith("What may the Pilgrims do now?\n")
    assert "✓ Move — Region E: 3 → Region D, Region J" in out
    assert "✓ Use a Skill — Teleport" in out
    code, out, _ = run(capsys, "legal", str(TWENTY), "humans", "--json")
    assert json.loads(out)["verdict"] is False


WALK = """\
players: [humans, pilgrims]
phase: battle-resolution
regions:
  example-battle: {units: {humans: 4, pilgrims: 4}, control: humans, battle: {token: 1, attacker: pilgrims}, adjacent: [feralas-banks]}
  feralas-banks: {control: pilgrims, adjacent: [example-battle]}
  example-b: {units: {humans: 1, pilgrims: 1}, battle: {token: 2, attacker: humans}, adjacent: [feralas-banks]}
"""


def test_battle_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "walk.yaml"
    path.write_text(WALK)
    code, out, _ = run(capsys, "battle", str(path))
    assert code == 0 and "1. Region A" in out and "2. Region B" in out
    code, out, _ = run(capsys, "battle", str(path), "example-battle", "pilgrims=2/1/1", "humans=2/1/1")
    assert code == 0
    assert "1. Region Control: Humans win (2:2), +2 VP" in out
    assert "2. Capture Prisoners: nobody takes any (1:1)" in out
    assert "3. Attrition: Pilgrims kill 1 Unit, Humans kill 1 Unit" in out
    assert "F. Pilgrims retreat 3 Units to Feralas Banks" in out
    code, out, _ = run(
        capsys, "battle", str(path), "example-battle", "pilgrims=2/1/1", "humans=2/1/1", "--as", "pilgrims", "--json"
    )
    data = json.loads(out)
    assert (
        data["figures"]["kills"] == 1
        and data["figures"]["kill-vp"] == 1
        and data["figures"]["control-winner"] == "humans"
    )


def test_score_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "score.yaml"
    path.write_text(
        "players: [pilgrims, machines]\nphase: scoring\nscoring: {enabled-by: pilgrims}\nregions:\n"
        "  a: {control: pilgrims, crystals: 3}\n  b: {control: pilgrims, crystals: 5}\n  c: {control: pilgrims}\n  d: {control: pilgrims}\n"
        "  m: {control: machines, crystals: 5}\n"
    )
    code, out, _ = run(capsys, "score", str(path))
    assert code == 0 and "Pilgrims: +12 VP" in out and "Machines: +5 VP" in out


def test_schema_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema")
    data = json.loads(out)
    assert (
        code == 0
        and data["$schema"].startswith("https://json-schema.org/")
        and data["properties"]["round"]["maximum"] == 5
    )
    assert api.schema() == data


def test_help_documents_the_query_forms(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["ask", "--help"])
    out = capsys.readouterr().out
    for fragment in (
        "KIND [FACTION] [key=value ...]",
        "havoc ask pos.yaml move humans from=foglands to=scorch units=2",
        "--query",
        "Exit status",
    ):
        assert fragment in out


# --- Polish ---------------------------------------------------------------------------------


@pytest.fixture
def polish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A locales folder with our havoc.po and a rules catalog that names the Unit in Polish."""
    root = tmp_path / "locales"
    (root / "pl" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(REPO / "locales" / "pl" / "LC_MESSAGES" / "havoc.po", root / "pl" / "LC_MESSAGES" / "havoc.po")
    (root / "pl" / "LC_MESSAGES" / "rules.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: pl\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgctxt "cry-havoc:term:unit:name"\nmsgid "Unit"\nmsgid_plural "Units"\nmsgstr[0] "Oddział"\nmsgstr[1] "Oddziały"\nmsgstr[2] "Oddziałów"\n\n'
        'msgctxt "cry-havoc:battle-region-leave:title"\nmsgid "Leaving a Battle Region"\nmsgstr "Opuszczanie Regionu Bitwy"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("HAVOC_LOCALES", str(root))
    ui_module.reset()
    yield root
    ui_module.reset()


@pytest.mark.parametrize(
    ("units", "word"),
    [(1, "1 Oddział"), (2, "2 Oddziały"), (4, "4 Oddziały"), (5, "5 Oddziałów"), (12, "12 Oddziałów")],
)
def test_polish_plural_forms(polish: Path, units: int, word: str) -> None:
    pos = {
        "players": ["humans", "pilgrims"],
        "turn": "humans",
        "regions": {"example-a": {"units": {"humans": 12}, "adjacent": ["example-b"]}, "example-b": {}},
    }
    a = api.ask(
        pos, {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": units}, lang="pl"
    )
    assert a.question == f"Czy Ludzie mogą przesunąć {word} z Regionu A do Regionu B?"


def test_polish_term_forms_follow_babel(polish: Path) -> None:
    from havoc.engine import game
    from havoc.engine.interpreter.answer import texts

    rs = rulebook.load()
    t = texts(rs, "pl", game.of(rs).labels())
    assert [t.term("unit", n) for n in (1, 2, 5, 12, 21, 22, 25, 112)] == [
        "Oddział",
        "Oddziały",
        "Oddziałów",
        "Oddziałów",
        "Oddziałów",
        "Oddziały",
        "Oddziałów",
        "Oddziałów",
    ]


def test_polish_answer(polish: Path, pos_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "ask", str(pos_file), "move", "humans", "from=example-a", "to=example-b", "units=3", "--lang", "pl"
    )
    assert code == 0
    # wrapped at a phone's width (issue 38): the question, then the verdict on a line of its own
    assert out.startswith("Czy Ludzie mogą przesunąć 3 Oddziały z Regionu A do Regionu\n  B?\nNie\n")
    assert "mogą opuścić: 2" in out and "przy najwyżej 2 Oddziałach" in " ".join(out.split())
    assert "✗ Opuszczanie Regionu Bitwy" in out and "battle-region-leave" not in out
    # what the rule looked at names the Region itself, as a player would (issue 38); the trace
    # below still says which Region the fact is about
    assert "Region A: tak" in " ".join(out.split()) and "(Region, z którego wychodzą Oddziały)" not in out
    code, out, _ = run(
        capsys,
        *["ask", str(pos_file), "move", "humans", "from=example-a", "to=example-b", "units=3", "--lang", "pl"],
        "--explain",
    )
    assert "✗ Opuszczanie Regionu Bitwy [battle-region-leave]" in out
    # the trace names the facts in Polish words too, never by their paths
    checked = next(line for line in out.splitlines() if "sprawdzono:" in line)
    assert "(Region, z którego wychodzą Oddziały): tak" in checked
    assert "from.is-battle-region" not in out
    code, out, _ = run(capsys, "ask", str(pos_file), "legal", "--lang", "pl", "--json")
    # a report ("what may I do now?") is not answered yes or no, in Polish words too
    assert json.loads(out)["answer"] == "Zobacz niżej"


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_every_ui_string_has_a_polish_translation() -> None:
    from babel.messages.pofile import read_po

    from havoc.cli import catalogs

    with (REPO / "locales" / "pl" / "LC_MESSAGES" / "havoc.po").open("rb") as fh:
        po = read_po(fh, locale="pl")
    assert "nplurals=3" in po.plural_forms
    for msg in catalogs.ui_template():
        if not msg.id or not any("engine/interpreter/" in loc[0] or "games/" in loc[0] for loc in msg.locations):
            continue
        found = po.get(msg.id, context=msg.context)
        assert found is not None and found.string and not found.fuzzy, f"no Polish for {msg.id!r}"


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_ui_strings_are_literal_calls() -> None:
    """Babel extracts ui("…") calls: a non-literal argument would never be translated."""
    import ast

    mine = [
        *sorted((REPO / "src" / "havoc" / "engine/interpreter").glob("*.py")),
        *sorted((REPO / "src" / "havoc" / "games").rglob("*.py")),
    ]
    for path in mine:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ui":
                if path.name == "ui.py" and node.args and ast.unparse(node.args[0]) == "label":
                    continue  # a question kind's label, declared as a literal ui("…") in its module (tests/test_kinds.py)
                assert node.args and isinstance(node.args[0], ast.Constant), (
                    f"{path}:{node.lineno}: ui() needs a literal string"
                )
            if isinstance(node, ast.JoinedStr):
                inner = [
                    n
                    for n in ast.walk(node)
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "ui"
                ]
                assert not inner, f"{path}:{node.lineno}: ui() inside an f-string is not extracted"


# --- the API and the process ------------------------------------------------------------------


def test_api_accepts_every_form(pos_file: Path) -> None:
    rs, pos = api.prepare(pos_file)
    a1 = api.ask(pos_file, "move humans from=example-a to=example-b units=2")
    a2 = api.ask(str(pos_file), ["move", "humans", "from=example-a", "to=example-b", "units=2"])
    a3 = api.ask(pos, {"ask": "move", "faction": "humans", "from": "example-a", "to": "example-b", "units": 2})
    assert a1.verdict is a2.verdict is a3.verdict is True
    assert api.legal(pos_file).verdict is True
    assert api.score(pos_file).kind == "score"
    assert rs is rulebook.load()


def test_the_cli_never_imports_sphinx_or_weasyprint(pos_file: Path) -> None:
    code = (
        "import sys; from havoc.cli import main; "
        f"rc = main(['ask', {str(pos_file)!r}, 'legal']); "
        "bad = [m for m in ('sphinx', 'weasyprint', 'docutils') if m in sys.modules]; "
        "print('HEAVY', bad); sys.exit(rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=_env())
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout


def test_the_process_exits_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [humans, pilgrims]\nround: x\n")
    done = subprocess.run(
        [sys.executable, "-m", "havoc", "ask", str(bad), "legal"], capture_output=True, text=True, cwd=REPO, env=_env()
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and "round: expected a whole number" in done.stderr


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_a_facts_words_are_kept_per_value_and_its_type() -> None:
    """What a rule looked at is said once per fact and value: yes/no is never a count's words."""
    from havoc.engine import game
    from havoc.engine.interpreter.answer import Texts

    rs = rulebook.load()
    t = Texts(rs, "en", game.of(rs).labels())
    assert t.fact("to.actor-units", 1).endswith(": 1")
    assert t.fact("to.actor-units", True).endswith(": yes")  # True == 1, but not the same words
    assert t.fact("to.actor-units", 1).endswith(": 1")
    assert t.fact("game.phase", "actions") == t.fact("game.phase", "actions")
    assert t.fact("game.phase", ["actions", "actions"]).endswith(": Actions phase, Actions phase")  # no key


def _question_values() -> Any:
    from hypothesis import strategies as st

    from havoc.games.cry_havoc.contract import FACTIONS, OBJECTIVES

    words = st.sampled_from(["move", "battle", "humans", "example-a", "Bad Id", "", "control", "harvester", "x" * 50])
    numbers = st.one_of(st.integers(-200, 2_000_000), st.sampled_from([0, 1, 2.0, 2.5, True, False]))
    placement = st.dictionaries(st.sampled_from([*OBJECTIVES, "moat"]), numbers, max_size=4)
    per_side = st.dictionaries(st.sampled_from([*FACTIONS, "elves", 3]), st.one_of(placement, numbers), max_size=3)
    return st.one_of(words, numbers, st.lists(words, max_size=3), per_side, st.none())


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_plain_question_reads_as_the_reader_reads_it() -> None:
    """The quick read of a plain question gives what the format's Reader gives, or leaves the
    question to the Reader (which then says what is wrong): never another value, never a pass
    for something the Reader refuses."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from havoc.formats.spec import Reader
    from havoc.games.cry_havoc.query import QFIELDS, QTOP, _read_plain

    keys = st.sampled_from([*QFIELDS, "colour"])

    @settings(max_examples=400, deadline=None)
    @given(st.dictionaries(keys, _question_values(), max_size=6))
    def check(data: dict[str, Any]) -> None:
        quick = _read_plain(data)
        r = Reader("query")
        slow = r.read(data, QTOP, "", None)
        if quick is not None:
            assert not r.problems and repr(quick) == repr(slow)  # 2 is not 2.0, nor True 1, at any depth

    check()
    asked = {"ask": "battle", "region": "example-a", "objectives": {"humans": {"control": 2, "attrition": 1}}}
    assert _read_plain(asked) == asked  # the usual questions take the quick read
    assert _read_plain({"ask": "move", "from": "example-a", "to": "example-b", "units": 2, "via": []}) is not None
