"""A question kind is checked where it is declared: `havoc check` resolves everything it names.

Its module, handler, probe, figure words, labels in every language and its docs entry: a kind
missing any of them is a located problem (the declaring file and the kind's name), never a traceback.
"""

from __future__ import annotations

import importlib
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
import stored_examples

from havoc.cli import main
from havoc.core.errors import Code, Problem, RulebookError
from havoc.engine import game, rulebook
from havoc.games.cry_havoc import kind as registry
from havoc.language.i18n import locales_root

LEAVE = Path(__file__).parent / "fixtures" / "assistant" / "leave-8-vs-3.yaml"

_TOY = """\
from havoc.games.cry_havoc.answering import generic
from havoc.games.cry_havoc.kind import QuestionKind


def ask_hand_size(job):
    return generic(job, job.ctx(), "How many cards?")


def probe_hand_size(report):
    pass


KIND = QuestionKind(
    name="hand-size",
    label={label!r},
    help="How many cards does the faction hold?",
    answers={answers!r},
    needs=(),
    figures=("must-discard",),
    {handler}
    {probe}
    verdict="none",
)
"""
_KIND_LINE = 13  # the line of `KIND = QuestionKind(` in the toy module


def _toy_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str = "toy_kind", **parts: str) -> Path:
    fill = {
        "label": "Discard",  # a label the catalogs translate
        "answers": "how many cards must go",  # words the site catalog translates
        "handler": "handler=ask_hand_size,",
        "probe": "",
    }
    fill.update(parts)
    path = tmp_path / f"{name}.py"
    path.write_text(_TOY.format(**fill))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)
    return path


def _toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **parts: str) -> registry.QuestionKind:
    """A throwaway kind, declared in a module of its own (as a real kind is)."""
    _toy_module(tmp_path, monkeypatch, **parts)
    kind: registry.QuestionKind = importlib.import_module("toy_kind").KIND
    return kind


def _check(kinds: list[registry.QuestionKind]) -> list[Problem]:
    from havoc.games.cry_havoc.ui import has_label

    return registry.check_kinds(kinds, lambda f: has_label("figure", f))


def test_every_shipped_kind_resolves() -> None:
    assert _check(list(registry.all_kinds())) == []
    assert registry.check_labels(registry.all_kinds()) == []
    assert game.check(rulebook.load("cry-havoc")) == []


def test_the_toy_kind_is_complete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = _toy(tmp_path, monkeypatch, probe="probe=probe_hand_size,")
    assert _check([kind]) == registry.check_labels([kind]) == []


def test_a_missing_handler_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = _toy(tmp_path, monkeypatch, handler="")
    [p] = _check([kind])
    assert p.file.endswith("toy_kind.py") and p.line == _KIND_LINE
    assert "'hand-size'" in p.message and p.code == Code.KIND_DECLARATION
    # Asking it is the same located error, never a traceback (TypeError: None is not callable).
    with pytest.raises(RulebookError, match="hand-size"):
        kind.handle(None)


@pytest.mark.parametrize("handler", ["handler='ask_hand_size',", "handler=42,"])
def test_a_handler_that_is_no_function_is_a_located_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, handler: str
) -> None:
    kind = _toy(tmp_path, monkeypatch, handler=handler)
    [p] = _check([kind])
    assert p.line == _KIND_LINE and "handler" in p.message


def test_a_probe_that_is_no_function_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = _toy(tmp_path, monkeypatch, probe="probe='hand_size',")
    [p] = _check([kind])
    assert p.file.endswith("toy_kind.py") and p.line == _KIND_LINE
    assert "'hand-size'" in p.message and "probe 'hand_size'" in p.message


def test_a_figure_without_words_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = _toy(tmp_path, monkeypatch)
    kind.figures = ("hand-size", "must-discard")
    [p] = _check([kind])
    assert (
        p.line == _KIND_LINE
        and "'hand-size'" in p.message
        and "figures without a label (figure_words in its declaration, or ui.py's figure labels): hand-size"
        in p.message
    )


def test_what_a_kind_answers_without_polish_is_a_located_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the positions page's table shows it: one entry in havoc.po (context ui), read by the site too
    kind = _toy(tmp_path, monkeypatch, answers="how many toys the faction holds")
    [p] = registry.check_labels([kind])
    assert p.line == _KIND_LINE and "what it answers ('how many toys the faction holds')" in p.message
    assert "havoc.po" in p.message and "site.po" not in p.message
    assert registry.check_labels(registry.all_kinds()) == []


def test_a_label_without_polish_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = _toy(tmp_path, monkeypatch, label="Toy count")
    [p] = registry.check_labels([kind])
    assert p.file.endswith("toy_kind.py") and p.line == _KIND_LINE
    assert "'hand-size'" in p.message and "'Toy count'" in p.message and "havoc.po" in p.message


def test_the_site_reads_a_kinds_words_from_havoc_po() -> None:
    """A kind's label, what it answers and its Ask-page label are one havoc.po entry each (context
    ui): the site declares them without copying them into site.pot and translates them from there."""
    from havoc.games.cry_havoc import site_pages  # noqa: F401 - declares the table's words
    from havoc.sphinxext.labels import LabelCatalog, declared, ui_declared

    move, discard = registry.get("move"), registry.get("discard")
    assert move is not None and discard is not None and discard.form_label
    words = (move.label, move.answers, discard.form_label)
    site_pot = (locales_root() / "site.pot").read_text(encoding="utf-8")
    for word in words:
        assert word in ui_declared() and word not in declared()
        assert f"msgid {word!r}".replace("'", '"') not in site_pot
    pl = LabelCatalog.load("pl", [locales_root()])
    assert [pl.get(w) for w in words] == [
        "Ruch",
        "czy te Oddziały mogą się tam przesunąć",
        "Odrzucanie do limitu kart na ręce",
    ]


def test_a_kind_without_its_docs_entry_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from havoc.games.cry_havoc import docs_pages

    kind = _toy(tmp_path, monkeypatch)
    pages = list(docs_pages())
    assert registry.check_docs([kind], pages) == []
    page = tmp_path / "positions.md"
    page.write_text("# Positions\n\nThe kinds are listed by hand.\n")
    [p] = registry.check_docs([kind], [page])
    assert p.file.endswith("toy_kind.py") and "'hand-size'" in p.message and "havoc-kinds" in p.message


def test_a_kind_module_that_does_not_load_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A typo in a kind's module (a NameError at import) is reported at the module, not raised."""
    package = tmp_path / "toykinds"
    package.mkdir()
    (package / "__init__.py").write_text("")
    _toy_module(package, monkeypatch, name="hand_size", handler="handler=ask_hand_sise,")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "PACKAGE", "toykinds")
    monkeypatch.setattr(registry, "QUESTION_KINDS", ("hand-size",))
    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setattr(registry, "_broken", {})
    monkeypatch.setattr(registry, "module_path", lambda kind: str(package / "hand_size.py"))
    assert registry.get("hand-size") is None
    [p] = registry.check(lambda f: True)
    assert p.file == str(package / "hand_size.py") and p.line == _KIND_LINE + 7  # the `handler=` line
    assert p.code == Code.KIND_MODULE and "'hand-size'" in p.message
    assert "NameError" in p.message and "ask_hand_sise" in p.message  # (what a maintainer needs to fix it)


def test_a_listed_kind_without_a_module_names_the_file_to_write(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "QUESTION_KINDS", ("toy-count",))
    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setattr(registry, "_broken", {})
    [p] = registry.check(lambda f: True)
    assert p.file == "src/havoc/games/cry_havoc/kinds/toy_count.py"
    assert p.code == Code.KIND_MODULE and "'toy-count'" in p.message


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_a_declared_kind_with_a_bad_handler_fails_havoc_check(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole path: a shipped kind whose handler goes missing makes `havoc check` fail, located."""
    kind = registry.get("discard")
    assert kind is not None
    monkeypatch.setattr(kind, "handler", None)
    problems = game.check(rulebook.load("cry-havoc"))
    assert [str(p) for p in problems] == [
        f"src/havoc/games/cry_havoc/kinds/discard.py:{kind.line}: question kind 'discard': "
        "names no handler (handler=the function that answers it)"
    ]
    assert main(["check", "--ruleset", "cry-havoc"]) == 1
    err = capsys.readouterr().err
    assert "kinds/discard.py" in err and "'discard'" in err and "Traceback" not in err


_ALLOWED = {"yes-no": {True, False, "no-unless"}, "checked": {True, False}, "none": {None}}


def test_every_kind_declares_a_known_verdict_and_a_label() -> None:
    for kind in registry.all_kinds():
        assert kind.verdict in _ALLOWED, kind.name
        assert kind.label.strip(), kind.name


def test_the_verdict_follows_the_kind_declaration() -> None:
    """One rule for every kind: the declared verdict type says what `verdict` may be.

    A count the rules impose (discard) or a report (legal, score, battle) is `checked`: the
    verdict says whether the rules checked hold; a number asked for (how-many) or what happens
    (end-of-move, setup) is `none`: the verdict is null. Only yes-no kinds print yes or no.
    """
    from havoc.games.cry_havoc.answering import answer

    rs = rulebook.load()
    seen: set[str] = set()
    for ex, pos, query in stored_examples.asked(rs):
        got = answer(rs, pos, query)
        kind = registry.get(got.kind)
        assert kind is not None
        assert got.verdict_value in _ALLOWED[kind.verdict], (ex.id, got.verdict_value)
        if kind.verdict != "yes-no":
            assert got.yes_no is False, ex.id
        seen.add(kind.verdict)
    assert seen == set(_ALLOWED)
    assert {k.name for k in registry.all_kinds() if k.verdict == "none"} >= {"how-many", "end-of-move", "setup"}
    assert {k.name for k in registry.all_kinds() if k.verdict == "checked"} >= {"discard", "legal", "score"}


def test_kind_labels_come_from_the_kind_declarations() -> None:
    from havoc.games.cry_havoc.ui import kind_label

    assert kind_label("enable-scoring") == registry.get("enable-scoring").label == "Enable scoring"  # type: ignore[union-attr]
    assert kind_label("enable-scoring", "pl") != "Enable scoring"  # translated through the ui catalog
    assert kind_label("trogs") == "What do the solo Trogs do?"


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
def test_every_kind_label_is_in_the_ui_catalog_with_polish() -> None:
    """A kind's label is a literal ui("…") in its module, so extraction finds it (and Polish has it)."""
    from havoc.cli import catalogs
    from havoc.games.cry_havoc.ui import kind_label

    template = catalogs.ui_template()
    for kind in registry.all_kinds():
        msg = template.get(kind.label, context=catalogs.UI_CONTEXT)
        assert msg is not None, kind.name
        where = f"src/havoc/games/cry_havoc/kinds/{kind.name.replace('-', '_')}.py"
        assert any(loc[0] == where for loc in msg.locations), (kind.name, msg.locations)
        assert kind_label(kind.name, "pl") != kind.label, kind.name


def test_the_positions_table_is_generated_from_the_kinds() -> None:
    """Each row is one run of neighbouring kinds (their declared order) that answer the same and
    give the same figures, as each declares them; neighbours that agree share a row, no others."""
    from havoc.games.cry_havoc.site_pages import rows

    kinds = list(registry.all_kinds())
    table = rows()
    assert [k for names, _, _ in table for k in names] == [k.name for k in kinds]
    for names, answers, figures in table:
        for name in names:
            declared = registry.get(name)
            assert declared is not None and (declared.answers, declared.figures) == (answers, figures), name
    for (_, answers, figures), (_, after, gives) in itertools.pairwise(table):
        assert (answers, figures) != (after, gives)  # else the two rows would be one
    assert any(len(names) > 1 for names, _, _ in table)  # the table merges (build, activate)


def test_a_kinds_words_are_in_its_declaration_only() -> None:
    """The site names a kind (`ask: enable-scoring`) by its declared label, as the answers and the
    legal-actions report do: no second spelling ("Enable Scoring") to translate twice. Only a
    kind's name that is also a phase or step (`discard`, `retreat`, `score`, `prisoners`) is said
    as that phase or step."""
    from havoc.games.cry_havoc import words
    from havoc.games.cry_havoc.contract import PHASES

    values = words.site_words()["values"]
    shared = {k.name for k in registry.all_kinds()} & set(words.VALUES)
    assert shared == {"discard", "retreat", "score", "prisoners"}
    assert "prisoners" in PHASES
    for kind in registry.all_kinds():
        if kind.name not in shared:
            assert values[kind.name] == kind.label, kind.name
    assert values["enable-scoring"] == "Enable scoring"


def test_a_kind_may_name_its_own_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A figure only one kind gives is labelled in that kind's declaration (figure_words)."""
    kind = _toy(tmp_path, monkeypatch)
    kind.figures = ("toys-held",)
    assert "without a label" in _check([kind])[0].message
    kind.figure_words = {"toys-held": "toys held"}
    assert _check([kind]) == []


def test_a_kind_may_not_relabel_a_shared_figure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared figure labels are looked up first (naming a figure imports no kind's module), so a
    kind's own words for one of them would never show: ``havoc check`` says so."""
    from havoc.games.cry_havoc.ui import label_clashes

    kind = _toy(tmp_path, monkeypatch)
    assert label_clashes([kind]) == []
    kind.figure_words = {"must-discard": "cards to throw away"}
    (problem,) = label_clashes([kind])
    assert "'must-discard'" in problem.message and "hand-size" in problem.message
    assert label_clashes() == []  # the shipped kinds


# Standard-library modules no kind's answer imports (`api.ask`, the answer read as text and as
# JSON, the caches filled): each costs a short process a millisecond or more. Measured before this
# list: collections.abc (and collections) came with 17 of the 19 kinds, typing, re, enum,
# contextlib and warnings with 7 (battle, retreat, score, winner, how-many, end-of-move, legal);
# none of the others with any.
HEAVY_STDLIB = (
    "collections.abc",
    "typing",
    "re",
    "enum",
    "contextlib",
    "warnings",
    "weakref",
    "importlib",
    "importlib.util",
    "json",
    "pathlib",
    "dataclasses",
    "inspect",
    "ast",
    "argparse",
    "gettext",
    "pickle",
    "_pickle",
    "textwrap",
    "unicodedata",
    "datetime",
    "hashlib",
    "locale",
    "tokenize",
    "copy",
    "string",
    "threading",
    "struct",
    "random",
    "fnmatch",
    "shutil",
    "tempfile",
    "subprocess",
    "logging",
    "decimal",
    "fractions",
    "difflib",
    "pprint",
    "traceback",
)
# functools (and the collections it imports) only where a kind uses it: a Battle's stages are
# functools.partial; the legal-actions report probes the Battle too
_FUNCTOOLS_KINDS = frozenset({"battle", "legal"})
# the legal-actions report runs every kind's probe: the one kind whose answer loads the others'
# modules (the probes' shared code is havoc.games.cry_havoc.report, no kind's module)
_IMPORTS_EVERY_KIND = "legal"


def _first_examples() -> dict[str, object]:
    """The first stored example of every declared kind (each kind has one: `havoc check` runs them)."""
    found: dict[str, object] = {}
    for ex in stored_examples.examples(rulebook.load()):
        found.setdefault(ex.query["ask"], ex)
    return found


def _asking(examples: list[object]) -> str:
    """Python code that answers each example as a player's question is answered (in Polish)."""
    from havoc.formats.spec import plain

    lines = ["from havoc.assistant import api", "from havoc.engine.interpreter.answer import render_text"]
    for ex in examples:
        lines.append(f"a = api.ask({plain(ex.position)!r}, {plain(ex.query)!r}, 'pl')")  # type: ignore[attr-defined]
        lines.append("render_text(a, True); a.to_dict()")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache filled by one earlier process that asked every kind's example: each kind's own
    process then starts as a player's second question does. (One filling process for all the
    kinds rather than one per kind: the same caches, a process start each kind saved.)"""
    cache = tmp_path_factory.mktemp("kinds-cache")
    env = {**os.environ, "HAVOC_CACHE_DIR": str(cache)}
    code = _asking(list(_first_examples().values()))
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return cache


@pytest.mark.parametrize("name", [k.name for k in registry.all_kinds()])
def test_answering_a_kind_imports_no_other_kinds_module(name: str, warm_cache: Path) -> None:
    """An answer of each kind (its first stored example, in a fresh process, the caches filled by
    an earlier one as for a player's second question) loads that kind's module and no other
    kind's, nor any module of HEAVY_STDLIB: naming a figure reads the kinds' manifest, never
    every kind's module."""
    ex = _first_examples()[name]
    heavy = HEAVY_STDLIB if name in _FUNCTOOLS_KINDS else (*HEAVY_STDLIB, "functools", "collections")
    code = (
        "import sys\n"
        + _asking([ex])
        + "print(sorted(m for m in sys.modules if m.startswith('havoc.games.cry_havoc.kinds.')))\n"
        + f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    )
    env = {**os.environ, "HAVOC_CACHE_DIR": str(warm_cache)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    kinds, stdlib = run.stdout.strip().splitlines()[-2:]
    own = f"havoc.games.cry_havoc.kinds.{name.replace('-', '_')}"
    if name == _IMPORTS_EVERY_KIND:  # its own module and every probing kind's, no other (the manifest says which probe)
        probing = {registry.module_name(k.name) for k in registry.all_kinds() if k.probe is not None}
        assert kinds == repr(sorted({own, *probing}))
    else:
        assert kinds == repr([own]), f"answering {name!r} imported other kinds' modules"
    assert stdlib == "[]", f"answering {name!r} imported heavy standard-library modules"


def test_asking_a_kind_whose_module_does_not_load_is_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """`havoc ask` on a broken kind module gets the same located problem as `havoc check`."""
    from havoc.games.cry_havoc import position_read
    from havoc.games.cry_havoc.answering import answer
    from havoc.games.cry_havoc.query import parse_query

    rs = rulebook.load()
    pos = position_read.parse({"players": ["humans", "pilgrims"], "turn": "humans", "regions": {}}, rs)
    query = parse_query({"ask": "setup"}, pos)
    monkeypatch.setattr(registry, "_loaded", {"setup": None})
    where = Problem("src/havoc/games/cry_havoc/kinds/setup.py", 9, "question kind 'setup': its module does not load")
    monkeypatch.setattr(registry, "_broken", {"setup": where})
    with pytest.raises(RulebookError) as caught:
        answer(rs, pos, query)
    assert caught.value.problems == [where]


# --- the list of kinds is the kinds folder's modules, in their declared order ----------------


def test_the_list_of_kinds_is_the_kinds_folders_modules_in_their_declared_order() -> None:
    """No hand-kept list: the game's vocabulary names no question kind, and the kinds are exactly
    the modules of kinds/, each at the place its own ``order=`` gives (ties and kinds without one
    by name), the same for the ruleset, the game's contract and the registry."""
    from havoc.games.cry_havoc import contract

    rs = rulebook.load("cry-havoc")
    assert "question-kinds" not in rs.vocabulary
    folder = Path(registry.__file__).parent / "kinds"
    modules = sorted(p.stem.replace("_", "-") for p in folder.glob("*.py") if not p.name.startswith("_"))
    declared = [k for k in (registry.get(name) for name in modules) if k is not None]
    assert [k.name for k in declared] == modules  # every module declares its kind
    expected = tuple(k.name for k in sorted(declared, key=lambda k: (k.order is None, k.order or 0, k.name)))
    assert rs.question_kinds == contract.QUESTION_KINDS == expected
    assert [k.name for k in registry.all_kinds()] == list(expected)


def test_a_new_module_in_a_games_kinds_folder_is_a_kind_in_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's kinds are found by listing its folder (read, not imported): a new module is a new
    kind, listed by its ``order=``; a private module (``_shared.py``) is none."""
    from havoc.engine.rulebook import declared_kinds

    kinds = tmp_path / "toygame" / "kinds"
    kinds.mkdir(parents=True)
    (tmp_path / "toygame" / "__init__.py").write_text("")
    (kinds / "__init__.py").write_text("")
    (kinds / "_shared.py").write_text("")
    for module, order in (
        ("zeta", "order=5,"),
        ("alpha_beta", "order=30,"),
        ("mid", "order=20,  # after zeta"),
        ("last", ""),
    ):
        (kinds / f"{module}.py").write_text(f"x = 1\n\nKIND = QuestionKind(\n    name={module!r},\n    {order}\n)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert declared_kinds("toygame") == ("zeta", "mid", "alpha-beta", "last")
    assert "toygame" not in sys.modules  # listed without importing the game
    assert declared_kinds("nosuchgame") == ()


def test_a_kinds_order_not_written_as_a_number_is_a_located_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lists read ``order=`` from the module's text: a declaration whose order is not a plain
    number there (a constant) would be listed out of place, so `havoc check` says where."""
    kind = registry.get("discard")
    assert kind is not None
    monkeypatch.setattr(kind, "order", 999)
    [p] = [p for p in registry.check_kinds([kind], lambda f: True) if "order" in p.message]
    assert p.file == kind.where and p.line == kind.line and "plain number" in p.message


def test_the_browsers_bundle_ships_every_kinds_module() -> None:
    """The engine's bundle has the kinds folder whole (as bytecode; the build lists the kinds for
    its sealed manifest from these very files)."""
    from havoc.web import offline

    names = {name for name, _path in offline._bundle_files()}
    folder = Path(registry.__file__).parent / "kinds"
    for path in folder.glob("*.py"):
        assert f"havoc/games/cry_havoc/kinds/{path.name}" in names


def test_a_kind_no_example_asks_is_a_located_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kind is shown by an example in the rule data (the tests read each kind from it): a
    kind without one is said by `havoc check` at its declaration, not first by a test."""
    rs = rulebook.load("cry-havoc")
    kinds = list(registry.all_kinds())
    assert registry.check_examples(kinds, rs.rules) == []
    discard = registry.get("discard")
    assert discard is not None
    rules = {
        rid: rule for rid, rule in rs.rules.items() if not any(ex.query.get("ask") == "discard" for ex in rule.examples)
    }
    [p] = registry.check_examples([discard], rules)  # (the rules left out may show other kinds too)
    assert (p.file, p.line) == (discard.where, discard.line) and "no example in the rules asks it" in p.message
