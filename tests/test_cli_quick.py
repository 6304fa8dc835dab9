"""``havoc ask`` and ``havoc lookup`` read a plain command line without argparse (start-up time);
whatever they read must be exactly what argparse reads, and anything else must go to argparse."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from havoc import cli

P = "tests/fixtures/assistant/leave-8-vs-3.yaml"
Q = ["move", "humans", "from=example-a", "to=example-b", "units=2"]

READ_QUICKLY = [
    ["ask", P, *Q],
    ["ask", P],
    ["ask", "-", *Q],
    ["ask", "", "move"],
    ["ask", "--json", P, *Q],
    ["ask", P, *Q, "--json", "--explain"],
    ["ask", P, *Q, "--lang", "pl"],
    ["ask", P, *Q, "--lang=pl", "--lang", "en"],
    ["--lang", "pl", "ask", P, *Q],
    ["--lang=pl", "ask", P, *Q, "--lang", "en"],
    ["ask", "--ruleset", "cry-havoc", P, *Q],
    ["ask", "--ruleset=nosuch", P, *Q],
    ["ask", P, "--query", "q.yaml"],
    ["ask", "--query=q.yaml", P, "move"],
    ["ask", P, "units=-1"],
    ["lookup", "retreat", "from", "battle"],
    ["lookup", "retreat from battle", "--lang", "pl"],
    ["lookup", "--json", "--limit", "2", "odwrót"],
    ["lookup", "odwrót", "--limit=007", "--ruleset", "cry-havoc"],
    ["lookup", "x", "--limit", " 3"],
    ["ask", P, "move", "--json", "humans"],  # options anywhere among the words, as argparse reads them
    ["ask", P, "move", "--lang", "pl", "humans", "--explain", "from=example-a"],
    ["lookup", "a", "--json", "b"],
    ["rule", "1.1"],
    ["rule", "game-goal", "--json", "--lang", "pl"],
    ["rules"],
    ["rules", "--lang", "pl", "--json"],
]

LEFT_TO_ARGPARSE = [
    [],
    ["ask"],
    ["ask", "--json"],
    ["ask", "-h"],
    ["ask", P, "--help"],
    ["ask", P, "--version"],
    ["--version", "ask", P],
    ["ask", P, "--exp", *Q],
    ["ask", P, "--json=1", "move"],
    ["ask", P, "--lang", "de", "move"],
    ["ask", P, "--lang"],
    ["ask", P, "--query", "-"],
    ["ask", P, "--", "move"],
    ["ask", P, "-x"],
    ["ask", P, "-5"],
    ["en", "ask", P],
    ["--lang", "de", "ask", P],
    ["askk", P],
    ["rule", "1.1", "1.2"],
    ["rules", "x"],
    ["lookup"],
    ["lookup", "--limit", "0", "x"],
    ["lookup", "--limit", "x", "x"],
    ["lookup", "--limit", "-1", "x"],
    ["lookup", "x", "--explain"],
    ["lookup", "x", "--query", "q"],
]


def _argparse(words: list[str], lang: str) -> dict[str, Any]:
    from havoc.cli import lang as clilang

    plain = [w for w in words if not w.startswith("-") and w not in ("en", "pl")]
    undo = clilang.install(lang)
    try:
        args = cli.build_parser(plain[0], lang, None).parse_args(words)
    finally:
        undo()
    return vars(args)


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("words", READ_QUICKLY, ids=" ".join)
def test_a_plain_line_reads_as_argparse_reads_it(words: list[str], lang: str) -> None:
    from havoc.cli import lang as clilang

    lang = clilang.detect(words, {"HAVOC_LANG": lang})
    quick = cli.quick_parse(words, lang)
    assert quick is not None
    assert vars(quick) == _argparse(words, lang)


@pytest.mark.parametrize("words", LEFT_TO_ARGPARSE, ids=" ".join)
def test_anything_else_is_left_to_argparse(words: list[str]) -> None:
    assert cli.quick_parse(words, "en") is None


# What a plain ask (its caches filled) does without: argparse; pickle and the functools,
# collections and contextlib it and most of the standard library import (milliseconds of it).
NOT_ON_THE_ASK_PATH = ("argparse", "gettext", "_pickle", "pickle", "functools", "collections", "contextlib", "typing")


@pytest.mark.parametrize("lang", [[], ["--lang", "pl"]], ids=["en", "pl"])
def test_a_plain_ask_imports_no_argparse_pickle_or_collections(lang: list[str]) -> None:
    line = [*lang, "ask", P, *Q, "--explain"]
    code = (
        "import sys, os; from havoc.cli import main\n"
        f"main({line!r})\n"  # fills the caches
        f"for m in {NOT_ON_THE_ASK_PATH!r}: sys.modules.pop(m, None)\n"
        "for m in [m for m in sys.modules if m.startswith('havoc')]: del sys.modules[m]\n"
        "from havoc.cli import main\n"
        f"main({line!r})\n"
        f"print(sorted(m for m in {NOT_ON_THE_ASK_PATH!r} if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_the_collector_paused_for_a_plain_ask_runs_again_after_it(capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    assert cli.main(["ask", P, *Q]) == 0
    assert gc.isenabled()
    assert cli.main(["ask", "missing.yaml", *Q]) == 2  # an error on the way out too
    assert gc.isenabled()
    capsys.readouterr()


_AS_THE_SCRIPT = "import sys; from havoc.cli import main; sys.argv[0] = 'havoc'; sys.exit(main())"


@pytest.mark.parametrize(
    "line",
    [
        ["ask", P, *Q],
        ["ask", P, "move", "humans", "from=nowhere"],  # refused: exit 2, the problems on stderr
        ["rule", "game-goal", "--json"],
        ["rule", "no-such-rule"],
        ["trogs", "tests/fixtures/solo/move.yaml", "move", "--lang", "pl"],
    ],
    ids=" ".join,
)
def test_a_plain_line_ends_its_process_at_once_with_all_its_output_and_its_status(
    line: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The havoc command ends a plain answering line without the interpreter's shutdown: what it
    prints and its exit status are those of the same line run in-process (no early exit)."""
    run = subprocess.run([sys.executable, "-c", _AS_THE_SCRIPT, *line], capture_output=True, text=True)
    status = cli.main(line)
    out, err = capsys.readouterr()
    assert (run.returncode, run.stdout, run.stderr) == (status, out, err)


def test_an_exit_handler_or_another_thread_keeps_the_usual_exit() -> None:
    """Something that waits for the exit (a coverage run's handler, a thread) still runs."""
    handler = "import atexit; atexit.register(lambda: print('handler ran')); " + _AS_THE_SCRIPT
    run = subprocess.run([sys.executable, "-c", handler, "rule", "game-goal"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.endswith("handler ran\n")
    # the thread prints once the main thread is done: only an exit that waits for it lets it
    thread = (
        "import threading; threading.Thread(target=lambda: (threading.main_thread().join(), print('thread ran'))).start(); "
        + _AS_THE_SCRIPT
    )
    run = subprocess.run([sys.executable, "-c", thread, "rule", "game-goal"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.endswith("thread ran\n")
