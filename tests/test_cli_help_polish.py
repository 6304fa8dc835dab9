"""Every ``--help`` of every command reads as Polish under ``--lang pl`` (issue 20).

The usage line's placeholders are Polish words (``STÓŁ``, ``PLIK``, not ``POSITION``, ``FILE``),
and no English word of a stop list is left in the prose. Typed things stay as typed: option
names, choices in braces, ``key=value`` words, the example command lines and the IDs a reader
types (``move``, ``humans``, ``may-leave``, the field ``position``, the command ``rules``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from havoc.cli import build_parser, main
from havoc.cli import lang as clilang

# Placeholders spelled the same in Polish.
SAME_IN_POLISH = {"PORT", "URL", "LIMIT", "REGION", "DEF", "MOD", "id", "morale|recovery"}
# English words that never belong in Polish prose (whole words, any case).
STOP_WORDS = {
    "the", "and", "of", "with", "for", "is", "are", "this", "that", "or", "default", "options", "usage",
    "arguments", "argument", "positional", "show", "help", "message", "exit", "file", "print", "write",
    "which", "each", "when", "only", "every", "examples", "question", "words", "answer",
    "faction", "instead", "whose", "reads", "writes", "standard", "input",
}  # fmt: skip
_TYPED = [
    re.compile(r"^\s*(?:\$ )?havoc .*$", re.M),  # an example command line
    re.compile(r"^\s*\{ask:.*$", re.M),  # an example question
    re.compile(r"#.*$", re.M),  # an example's comment is on its command line … (kept Polish by the catalog)
    re.compile(r"(?<![\w-])--?[\w-]+(?:=\S*)?"),  # option names
    re.compile(r"\{[^}]*\}"),  # choices
    re.compile(r"\S+=\S*"),  # key=value
    re.compile(r"\S*/\S*|\S+\.\S+"),  # paths, file names
    re.compile(r"\b[a-z][a-z-]*(?:,\s+[a-z][a-z-]*){3,}"),  # a list of IDs (fields, kinds, figures)
    re.compile(r"'[^']*'|„[^”]*”|\"[^\"]*\""),  # quoted input
    re.compile(r"\([a-z][a-z-]*\*?(?:;[^)]*)?\)"),  # a machine word after the reader's own ("ruch (move)")
]


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command line that has a help of its own: ``()``, ``("ask",)``, ``("charts", "range")``."""
    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


COMMANDS = sorted(set(commands(build_parser())))
ENGLISH_METAVARS = {m for m in clilang.metavars(build_parser()) if m not in SAME_IN_POLISH}


def english_in(text: str) -> list[str]:
    found = [m for m in ENGLISH_METAVARS if re.search(rf"(?<![\w=-]){re.escape(m)}(?![\w=-])", text)]
    # A lower-case placeholder ("text", "name") is an English word only where argparse shows it.
    found = [
        m for m in found if not m.islower() or re.search(rf"^\s+{re.escape(m)}\s|\s{re.escape(m)}\]?$", text, re.M)
    ]
    plain = text
    for pattern in _TYPED:
        plain = pattern.sub(" ", plain)
    found += [w for w in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", plain) if w.lower() in STOP_WORDS]
    return found


def test_the_check_is_not_blind() -> None:
    assert english_in("użycie: havoc ask [-h] [--query FILE] POSITION [QUESTION ...]")
    assert english_in("opcje:\n  -h, --help  show this help message and exit")
    assert not english_in("użycie: havoc ask [-h] [--query PLIK] STÓŁ [PYTANIE ...]\n  havoc ask pos.yaml move humans")


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "havoc")
def test_every_help_reads_as_polish(capsys: pytest.CaptureFixture[str], path: tuple[str, ...]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--lang", "pl", *path, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("użycie: havoc")
    assert not english_in(out), (english_in(out), out)


@pytest.mark.parametrize("how", ["env", "locale"])
def test_the_environment_picks_polish_placeholders(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    for var in ("HAVOC_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv(*(("HAVOC_LANG", "pl") if how == "env" else ("LANG", "pl_PL.UTF-8")))
    with pytest.raises(SystemExit):
        main(["ask", "--help"])
    out = capsys.readouterr().out
    assert "STÓŁ [PYTANIE ...]" in out and "[--query PLIK]" in out, out
    monkeypatch.setenv("HAVOC_LANG", "en")
    with pytest.raises(SystemExit):
        main(["ask", "--help"])
    assert "POSITION [QUESTION ...]" in capsys.readouterr().out


def test_the_courage_help_names_the_factor_as_the_polish_rules_do(capsys: pytest.CaptureFixture[str]) -> None:
    """Advanced Cry Havoc 2's Polish rules pages keep the charts' "DEF": the help, the chart
    list and the answer say "DEF" too, never a second term ("OBR") for the same factor."""
    from havoc.assistant import api
    from havoc.engine.ruledata import rule_data
    from havoc.language.i18n import translator

    rs = api.load_ruleset("advanced-cry-havoc")
    title = rule_data(rs, translator("pl", rs.id), rs.rules["acv-courage"])["title"]
    assert title == "Odwaga według DEF", title  # the Polish rules' term
    outs = []
    for words in (["charts", "courage", "--help"], ["charts", "--help"]):
        with pytest.raises(SystemExit):
            main(["--lang", "pl", *words])
        outs.append(capsys.readouterr().out)
    assert main(["--lang", "pl", "charts", "courage", "12", "--foot"]) == 0
    outs.append(capsys.readouterr().out)
    assert "współczynnik DEF" in outs[0] and "współczynnik DEF" in outs[1] and "DEF 12" in outs[2], outs
    assert not [o for o in outs if "OBR" in o], outs


def _machine_words() -> set[str]:
    """Every machine word a compact question or an answer's figures use, and the rulebook's
    Region IDs: what the Polish help may show only in parentheses, after the Polish word."""
    from havoc.games.cry_havoc.contract import FACTIONS, QUESTION_KINDS
    from havoc.games.cry_havoc.figures import FIGURES
    from havoc.games.cry_havoc.query import QFIELDS
    from havoc.games.cry_havoc.solo.engine import FIELDS, KINDS
    from havoc.games.cry_havoc.words import KNOWN_REGIONS

    words = {*QUESTION_KINDS, *QFIELDS, *FACTIONS, *KNOWN_REGIONS, *KINDS, *FIELDS}
    words |= {c for spec in QFIELDS.values() for c in (spec.choices or ())}
    words |= {n for names in FIGURES.values() for n in names}
    return words


# Machine words that are Polish words too ("DOŚW to początkujący"), or that Polish types alike.
SAME_WORD = {"to", "region", "ocean"}


def _machine_left(out: str) -> set[str]:
    """The machine words of a help outside parentheses, options, commands and the file form."""
    text = re.sub(r"^\s*\{ask:.*$", " ", out, flags=re.M)  # the query file form
    text = re.sub(r"(?<![\w-])--[\w-]+", " ", text)  # options
    text = re.sub(r"\bhavoc [\w-]+", " ", text)  # the commands (havoc ask, havoc new)
    while re.search(r"\([^()]*\)", text):
        text = re.sub(r"\([^()]*\)", " ", text)
    return {w for w in re.findall(r"(?<![\w-])[a-z][a-z-]*[a-z](?![\w-])", text) if w in _machine_words()} - SAME_WORD


def test_the_polish_ask_help_shows_machine_words_only_in_parentheses(capsys: pytest.CaptureFixture[str]) -> None:
    """Kinds, fields, values, factions, figures and Regions are named in Polish; the machine
    word follows in parentheses for scripts. Only the query file's own form, shown as the file
    holds it, keeps machine words (a question file is read in machine words)."""
    assert _machine_left("  RODZAJ    move, rekrutacja (recruit)\n  havoc ask stół.yaml ruch ludzie z=foglands") == {
        "move",
        "foglands",
    }  # the check is not blind
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "ask", "--help"])
    out = capsys.readouterr().out
    assert not _machine_left(out), _machine_left(out)
    assert "ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=2" in out  # the examples are Polish
    assert "example-" not in out and "foglands" not in out.replace("from: foglands", "")


def test_the_polish_trogs_help_shows_machine_words_only_in_parentheses(capsys: pytest.CaptureFixture[str]) -> None:
    """The solo Trogs' decisions, fields, factions and Regions are named in Polish (the words
    ``havoc trogs`` reads); the machine word follows in parentheses, options stay options."""
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "trogs", "--help"])
    out = capsys.readouterr().out
    assert not _machine_left(out), _machine_left(out)
    assert "example-" not in out and "pos.yaml" not in out, out
    assert 'havoc trogs stół.yaml ruch z="Region A" oddziały=2 kroki=2' in out  # the examples are Polish
    from havoc.games.cry_havoc.solo.cli import solo_lexicon
    from havoc.games.cry_havoc.solo.engine import FIELDS, KINDS

    pairs = re.findall(r"([\w-]+)\s+\(([a-z][a-z-]*)\)", out)  # a pair may wrap
    assert {t for _, t in pairs} >= set(KINDS), pairs
    lex = solo_lexicon("pl")
    for word, token in pairs:  # each Polish word is the one the command reads
        assert token in KINDS or token in FIELDS, (word, token)
        assert (lex.decisions if token in KINDS else lex.fields).find(word) == token, (word, token)


def test_each_polish_word_in_the_ask_help_is_the_one_a_player_types(capsys: pytest.CaptureFixture[str]) -> None:
    """ "ruch (move)": the word before a machine word in parentheses is the catalog's typed word
    (or the faction's name), so the help teaches the words the reader accepts."""
    from havoc.games.cry_havoc.contract import FACTIONS
    from havoc.games.cry_havoc.typed import lexicon, typed_tokens, typed_word
    from havoc.language.i18n import ui

    with pytest.raises(SystemExit):
        main(["--lang", "pl", "ask", "--help"])
    out = capsys.readouterr().out
    words = out.split(ui("figures each question kind reports (* one value per side):", "pl"))[0]
    typed = set(typed_tokens())
    pairs = re.findall(r"([\w-]+) \(([a-z][a-z-]*)[;)]", words)
    assert len(pairs) > 60, pairs
    lex = lexicon("pl")
    for word, token in pairs:
        if token in FACTIONS:
            assert lex.factions.find(word) == token, (word, token)
        elif token in typed:
            assert word == typed_word(token, "pl"), (word, token)
