"""``havoc ask POSITION QUESTION…``: one question about one position, for every game.

What a position and a question are is the ruleset's game's business (its ``parse_compact`` and
``parse_question``); so is the help about its questions (the game's optional ``ask_help(lang)``,
with the texts it prints listed by ``ask_help_texts()`` for the catalogs). The command itself
only reads the files, hands them to the game and prints the answer.
"""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING
from havoc.cli.commands import add_output_options

if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    import argparse

    from havoc.engine.game import Game
    from havoc.engine.interpreter.answer import Answer


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "ask",
        help="ask the rules assistant a question about a position",
        description="Answer a question about a position from the rules, citing the rules that decide it.",
        epilog=_EPILOG_MARK,
        formatter_class=_ask_help(),
    )
    p.help_extra = _help_texts  # type: ignore[attr-defined]  # texts its formatter prints (clilang.help_texts)
    p.add_argument("position", metavar="POSITION", help="the position file (YAML or JSON; - for stdin)")
    p.add_argument("words", metavar="QUESTION", nargs="*", default=[], help="the question in compact form (see below)")
    p.add_argument("--query", metavar="FILE", help="read the question from a YAML or JSON file instead")
    p.add_argument(
        "--text",
        metavar="SENTENCE",
        help="the question in your own words (English or Polish), read by the game (if it reads words)",
    )
    p.add_argument(
        "--as-of",
        metavar="LAYER",
        help="answer by the rules in force then: rulebook (the printed rules alone), an errata source "
        "(faq-1-0, …) or a date (YYYY-MM-DD)",
    )
    add_options(p)
    p.set_defaults(func=cmd_ask)


def add_options(p: argparse.ArgumentParser) -> None:
    """``--lang``, ``--json``, ``--ruleset`` and ``--explain``: what every command that answers takes."""
    add_output_options(p, "language of the answer", "print the answer as JSON")
    p.add_argument(
        "--explain", action="store_true", help="add the machine trace: rule IDs, fact names and values, overlays"
    )


# The epilog is the game's help about its questions; it is built only when the help is printed,
# so answering a question never imports what only the help needs.
_EPILOG_MARK = "\0ask-epilog"


def _default_game() -> Game | None:
    """The game of the default ruleset (whose questions ``havoc ask --help`` describes)."""
    from havoc.core.errors import HavocError
    from havoc.engine import game, rulebook

    try:
        rs = rulebook.load()
    except HavocError:  # help must print even when the rules are broken (`havoc check` says why)
        return None
    return game.of(rs) if rs.game else None


def _ask_help() -> type[argparse.HelpFormatter]:
    """The help formatter that prints the game's help about its questions as the epilog (a class
    made when a parser is built: a plain ``havoc ask`` never imports argparse)."""
    import argparse

    class AskHelp(argparse.RawDescriptionHelpFormatter):
        def add_text(self, text: str | None) -> None:
            if text is _EPILOG_MARK:
                from havoc.language.i18n import message_language

                helper = getattr(_default_game(), "ask_help", None)
                text = helper(message_language()) if helper else None
            super().add_text(text)

    return AskHelp


def _help_texts() -> list[str]:
    helper = getattr(_default_game(), "ask_help_texts", None)
    return list(helper()) if helper else []


def emit(answer: Answer, as_json: bool, explain: bool = False) -> int:
    """Print an answer: as text for people, or as JSON."""
    if as_json:
        import json

        json.dump(answer.to_dict(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        from havoc.engine.interpreter.answer import render_text

        print(render_text(answer, explain))
        source = answer.ruleset or {}
        if source.get("as-of"):  # an answer by earlier rules says so, naming what it read
            from havoc.language.dates import format_date
            from havoc.language.i18n import ui

            layers = " + ".join(str(layer["title"]) for layer in source.get("layers", []))
            day = format_date(source["as-of"], answer.lang)  # a date; a layer is named by its title
            said = (
                ui("Rules as of {date}: {layers}.", answer.lang)
                if day
                else ui("Rules then in force: {layers}.", answer.lang)
            )
            print(said.format(date=day, layers=layers))
    return 0


def speak(lang: str) -> None:
    """Error messages in the asker's language too, not only answers."""
    from havoc.language.i18n import set_message_language

    set_message_language(lang)


def cmd_ask(args: argparse.Namespace) -> int:
    speak(args.lang)
    from havoc.assistant import api
    from havoc.core.errors import Code, InputError, Problem
    from havoc.engine.game import of as game_of

    rs, pos = api.prepare(args.position, args.ruleset)
    if getattr(args, "as_of", None):
        rs = api.rules_as_of(rs, args.as_of, args.lang)
    played = game_of(rs)
    if getattr(args, "text", None):
        if args.words or args.query:
            from havoc.language.i18n import ui

            raise InputError(
                [
                    Problem(
                        "command line",
                        None,
                        ui(
                            "give the question either as words, with --query or with --text, not more than one",
                            args.lang,
                        ),
                        code=Code.REQUEST_USAGE,
                    )
                ]
            )
        rs, pos, query = _from_text(args, rs, pos, played)
        if isinstance(query, dict):  # one of the game's other deciders (the solo Trogs): its decision
            import json

            decision = api.decide(pos, str(query["ask"]), query, lang=args.lang, ruleset=args.ruleset)
            print(json.dumps(decision.to_json(), ensure_ascii=False, indent=2) if args.json else decision.to_text())
            return 0
        return emit(api.answer_for(rs, pos, query, args.lang), args.json, args.explain)
    if args.query:
        from havoc.formats.yamlio import YamlError, load_file

        try:
            data = load_file(_path(args.query), args.query)
        except YamlError as exc:
            raise InputError([exc.problem]) from None
        if args.words:
            from havoc.language.i18n import ui

            raise InputError(
                [
                    Problem(
                        "command line",
                        None,
                        ui("give the question either as words or with --query, not both", args.lang),
                        code=Code.REQUEST_USAGE,
                    )
                ]
            )
        query = played.parse_question(data, pos, args.query)
    else:
        query = played.parse_compact(args.words, pos)
    return emit(api.answer_for(rs, pos, query, args.lang), args.json, args.explain)


def _from_text(args: argparse.Namespace, rs: Any, pos: Any, played: Any) -> tuple[Any, Any, Any]:
    """The question of ``--text``, read by the game's text reader (``TEXT_READER``) with the table as its
    context; what it understood is said first (stderr), and a question that still needs a field
    is refused naming what, in the asker's language: never answered from a guess."""
    import sys

    from havoc.core.errors import Code, InputError, Problem
    from havoc.engine import game
    from havoc.language.i18n import ui

    found = game.text_reader(played)
    if found is None:
        raise InputError(
            [
                Problem(
                    "--text",
                    None,
                    ui("This game does not read questions in words.", args.lang),
                    code=Code.REQUEST_USAGE,
                )
            ]
        )
    reader = found[1]
    got = reader(rs, {"text": args.text, "position": pos}, args.lang)  # the game reads its own table
    if got.get("refusal"):
        raise InputError([Problem("--text", None, str(got["refusal"]), code=Code.FIELD_VALUE)])
    print(ui("Understood: {summary}", args.lang).format(summary=got["summary"]), file=sys.stderr)
    if got["missing"]:
        raise InputError(
            [
                Problem(
                    "--text",  # the field's path may hold a stand-in Region's key: the label says it in words
                    None,
                    ui("the question does not say {what}", args.lang).format(what=m["label"]),
                    code=Code.FIELD_MISSING,
                )
                for m in got["missing"]
            ]
        )
    if got.get("position"):  # the situation the sentence states, on the table: never set aside
        pos = _with_stated(args, rs, played, got["position"])
    if got["question"].get("ask") in game.extra_answer_names(played):
        return rs, pos, dict(got["question"])  # asked of that decider, not of the rules interpreter
    return rs, pos, played.parse_question(got["question"], pos, "--text")


def _with_stated(args: argparse.Namespace, rs: Any, played: Any, stated: dict[str, Any]) -> Any:
    """The table of ``args.position`` with what the sentence states merged in, validated again
    (a count the sentence gives that the table cannot hold is then a located error)."""
    from havoc.core.errors import Code, InputError, Problem
    from havoc.formats.spec import overlaid, plain
    from havoc.formats.yamlio import YamlError, load_file
    from havoc.language.i18n import ui

    if args.position == "-":
        message = ui(
            "the sentence states part of the table: give the table as a file, not on standard input", args.lang
        )
        raise InputError([Problem("--text", None, message, code=Code.REQUEST_USAGE)])
    try:
        data = plain(load_file(_path(args.position), args.position))
    except YamlError as exc:
        raise InputError([exc.problem]) from None
    return played.parse_position(overlaid(data, stated), rs, args.position)


def _path(name: str) -> Any:
    from pathlib import Path

    return Path(name)
