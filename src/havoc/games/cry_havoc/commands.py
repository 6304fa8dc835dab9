"""``havoc legal``, ``battle`` and ``score`` (the shortcuts), and the help of ``havoc ask`` about Cry Havoc's questions.

Kept light at import: the interpreter is imported inside the command functions, so other
commands do not pay for it, and the assistant itself never imports Sphinx or WeasyPrint.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.cli.commands.ask import add_options, emit, speak

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from havoc.engine.interpreter.answer import Answer

# The examples of ``havoc ask --help``, in machine words; another language's help shows each in
# its reader's words (typed.spoken), as that reader may type it.
ASK_EXAMPLES = (
    "how-many humans may-leave from=foglands",
    "end-of-move pilgrims scorch",
    "setup veteran",
    "move humans from=foglands to=scorch units=2",
    "move pilgrims from=feralas-banks to=foglands via=scorch units=1 points=2",
    "recruit pilgrims units=5 points=5",
    "build pilgrims sapos-deep structure=harvester points=5",
    "use-skill pilgrims skill=teleport --lang pl",
    "battle world-caverns pilgrims=2/1/1 humans=2/1/1 --json",
)

# The question file form's examples, in machine words; another language's help shows each in
# its reader's words (file_example), as that reader may write the file.
FILE_EXAMPLES: tuple[dict[str, Any], ...] = (
    {"ask": "move", "faction": "humans", "from": "foglands", "to": "scorch", "units": 2},
    {
        "ask": "battle",
        "region": "world-caverns",
        "objectives": {"pilgrims": {"control": 2, "prisoners": 1, "attrition": 1}},
    },
)


def _ask_epilog_template(lang: str) -> str:
    """The fixed part of ``havoc ask --help``'s epilog in ``lang`` (the {…} lists are filled in)."""
    from havoc.language.i18n import ui

    return ui(
        """\
question words (the compact form):  KIND [FACTION] [key=value ...]
  KIND      {kinds}
  FACTION   {factions}
            (default: the position's `turn`)
  key=value any field of the query file form:
            {fields};
            lists take commas (via=a,b), yes/no for booleans, maps FACTION:N
            (card-units=humans:1);
            Units on the Battle objectives: FACTION=CONTROL/PRISONERS/ATTRITION
  A bare Region ID after these kinds names the region:
            {region_kinds};
            after {from_kinds} it names `from` (the Battle Region).
  Some fields in brief: units (default 1; never more than the table holds),
  points (the icons on the discarded cards; left out, points are not checked),
  cost (what the Structures cost; left out, the printed cost from the rules),
  via (Regions passed through), moved-this-action (the Units entered `from`
  earlier in this action), position (a spot on the Upcoming Initiative track),
  card + card-units (a Tactics card that added or removed Units in a Battle).
  The same words may be typed in Polish (`havoc --lang pl ask --help` lists them):
  in any case, with or without diacritics where that stays unambiguous; a name of
  several words is quoted or joined by hyphens (to=feralas-banks).

new kinds:
  how-many OF      OF is may-leave (with from=), may-recruit, must-discard or
                   may-buy-back: the answer is the number itself
  place ITEM R     may a crystal or structure (structure=TYPE) be put in Region R
  end-of-move R    the four end steps of a Move that ended in R, in order
  setup [EXP]      what a game of the position's player count sets up; EXP is
                   beginner, experienced or veteran

examples:
{examples}
  havoc ask pos.yaml --query question.yaml

the query file form (YAML or JSON): its keys and values are the words of the compact
form, as machine words or in Polish (the kind is the key ask, the Units on the Battle
objectives the key objectives):
{file_examples}

POSITION is a YAML or JSON file (`-` reads standard input); `havoc new POS.yaml` writes
a commented template, `havoc schema` prints its JSON Schema (`--answers`: the answers'),
and the docs page "Describing the table" explains it. A position lists only the
Regions the question is about, with their neighbours.

The answer gives the verdict (yes, no, or "no, unless" a card, Skill or Structure
allows it), the rules that decided it, a hint for a "no", and the figures; --json and
--explain add the facts each rule read.
Exit status: 0 answered (yes or no), 1 the rules are broken, 2 the position or question
is malformed (every problem is listed with its field and line).
""",
        lang,
    )


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    import argparse  # here: a plain `havoc legal` (read by havoc.cli.quick_parse) never imports it

    p = sub.add_parser(
        "legal",
        help="list what the player whose turn it is may do now",
        description="List the actions the faction whose turn it is (or FACTION) may take now, with their limits.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  havoc legal pos.yaml\n  havoc legal pos.yaml pilgrims --lang pl",
    )
    p.add_argument("position", metavar="POSITION", help="the position file (YAML or JSON; - for stdin)")
    p.add_argument("faction", metavar="FACTION", nargs="?", help="ask for this faction instead of whose turn it is")
    add_options(p)
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser(
        "battle",
        help="resolve a Battle (or list the battle order)",
        description="Resolve the Battle in REGION from the Units placed on the objectives; without REGION, list the battle order.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "placement: FACTION=CONTROL/PRISONERS/ATTRITION for each side, e.g.\n"
            "  havoc battle pos.yaml example-battle pilgrims=2/1/1 humans=2/1/1\n"
            "  havoc battle pos.yaml            # the order of the Battles"
        ),
    )
    p.add_argument("position", metavar="POSITION", help="the position file (YAML or JSON; - for stdin)")
    p.add_argument("region", metavar="REGION", nargs="?", help="the Battle Region")
    p.add_argument(
        "placement",
        metavar="FACTION=C/P/A",
        nargs="*",
        default=[],
        help="Units on Region Control / Capture Prisoners / Attrition",
    )
    p.add_argument("--as", dest="faction", metavar="FACTION", help="report the figures of this side")
    add_options(p)
    p.set_defaults(func=cmd_battle)

    p = sub.add_parser(
        "score",
        help="what each faction scores this round",
        description="Score the round from the position: the enabler's Region VP, everyone's Crystal VP (Trogs half).",
    )
    p.add_argument("position", metavar="POSITION", help="the position file (YAML or JSON; - for stdin)")
    p.add_argument("faction", metavar="FACTION", nargs="?", help="report this faction's figures first")
    add_options(p)
    p.set_defaults(func=cmd_score)


def ask_epilog(lang: str | None = None) -> str:
    """``havoc ask --help``'s epilog: the compact form, each kind in a line, and its figures;
    in the language of the command line (the message language while it is parsed). Another
    language's help names each word as its reader types it, the machine word after it in
    parentheses (for scripts), and gives the examples in the reader's words."""
    import textwrap

    from havoc.cli.lang import CLI_CONTEXT
    from havoc.games.cry_havoc import kind as registry
    from havoc.games.cry_havoc.contract import FACTIONS
    from havoc.games.cry_havoc.figures import help_text
    from havoc.games.cry_havoc.query import QFIELDS
    from havoc.games.cry_havoc.typed import NOT_TYPED, lexicon
    from havoc.language.i18n import message_language, translator, ui

    lang = lang or message_language()
    lex = lexicon(lang)
    kinds = registry.declared()  # the kinds' manifest: help imports no kind's module
    table = ui("pos.yaml", lang)  # the table file of the examples ("stół.yaml")

    def either(names: list[str]) -> str:
        return names[-1] if len(names) < 2 else ", ".join(names[:-1]) + " " + ui("or", lang) + " " + names[-1]

    fills = {
        "kinds": ", ".join(lex.kinds.say(k.name) for k in kinds),
        "factions": either([lex.factions.say(f) for f in FACTIONS]),
        "fields": ", ".join(lex.fields.say(f) for f in QFIELDS if f not in NOT_TYPED and f != "faction"),
        "region_kinds": either([lex.kinds.say(k.name) for k in kinds if "region" in k.bare]),
        "from_kinds": either([lex.kinds.say(k.name) for k in kinds if "from" in k.bare]),
        "examples": "\n".join(f"  havoc ask {table} {_example(line, lang)}" for line in ASK_EXAMPLES),
        "file_examples": "\n".join(f"  {file_example(q, lang)}" for q in FILE_EXAMPLES),
    }
    text = _ask_epilog_template(lang)
    for key, value in fills.items():
        if key not in ("examples", "file_examples"):  # a list starts a line at column 12 and wraps there
            value = textwrap.fill(
                value, 86, initial_indent=" " * 12, subsequent_indent=" " * 12, break_on_hyphens=False
            ).lstrip()
        text = text.replace("{" + key + "}", value)
    lines = [ui("question kinds:", lang)]
    for k in kinds:
        about = translator(lang).text(CLI_CONTEXT, k.help) if lang != "en" else k.help
        head = lex.kinds.say(k.name)
        if len(head) > 15:
            lines.append(f"  {head}")
            head = ""
        lines.extend(textwrap.wrap(about, 84, initial_indent=f"  {head:15} ", subsequent_indent=" " * 18))
    return text + "\n" + "\n".join(lines) + "\n\n" + help_text(lang)


def _example(line: str, lang: str) -> str:
    """An example's question in the reader's words; its options (``--json``) as they are."""
    from havoc.games.cry_havoc.typed import spoken

    words = line.split()
    cut = next((i for i, w in enumerate(words) if w.startswith("-")), len(words))
    return " ".join([spoken(words[:cut], lang), *words[cut:]])


def file_example(query: dict[str, Any], lang: str) -> str:
    """A question file's mapping (YAML flow style) in the words a reader of ``lang`` writes:
    ``{pytanie: ruch, frakcja: ludzie, z: Mgielnia, …}``."""
    from havoc.games.cry_havoc.typed import typed_faction, typed_word
    from havoc.games.cry_havoc.ui import region_names

    def flow(pairs: dict[str, str]) -> str:
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs.items()) + "}"

    def said(key: str, value: Any) -> str:
        if key == "objectives":  # {faction: {objective: units}}
            return flow(
                {
                    typed_faction(f, lang): flow({typed_word(o, lang): str(n) for o, n in placed.items()})
                    for f, placed in value.items()
                }
            )
        if key in ("from", "to", "region"):
            return value if lang == "en" else str(region_names([value], lang)[value])
        if key == "faction":
            return typed_faction(value, lang)
        return typed_word(value, lang) if isinstance(value, str) else str(value)

    return flow({typed_word(k, lang): said(k, v) for k, v in query.items()})


def kind_helps() -> list[str]:
    """What ``havoc ask --help`` prints about each question kind (catalog entries, context cli)."""
    from havoc.games.cry_havoc import kind as registry

    return [k.help for k in registry.declared()]


def _for_faction(args: argparse.Namespace, kind: str) -> Answer:
    """``havoc legal``/``havoc score`` for ``FACTION``: a machine word (or none) as the shortcut
    asks it; any other word read as the compact question ``KIND faction=WORD`` is, so a faction
    named in a reader's words ("pielgrzymi") is found and an unknown one is said in the reader's
    language, by name ("Frakcja: nieznana wartość 'orki'; oczekiwano jednej z: Ludzie (humans), …"),
    as ``havoc ask`` says it."""
    from havoc.assistant import api

    # The ruleset is loaded (its files read and hashed) once, here, before the game's names are
    # imported: the contract then reads the rules this load made instead of loading them again.
    rs, pos = api.prepare(args.position, args.ruleset)
    from havoc.games.cry_havoc.contract import FACTIONS

    if args.faction is None or args.faction in FACTIONS:  # as the shortcut (api.legal, api.score) asks it
        query = api.load_query({"ask": kind, **({"faction": args.faction} if args.faction else {})}, pos, rs)
        return api.answer_for(rs, pos, query, args.lang)
    from havoc.games.cry_havoc.query import parse_compact

    return api.answer_for(rs, pos, parse_compact([kind, f"faction={args.faction}"], pos), args.lang)


def cmd_legal(args: argparse.Namespace) -> int:
    speak(args.lang)
    return emit(_for_faction(args, "legal"), args.json, args.explain)


def cmd_battle(args: argparse.Namespace) -> int:
    speak(args.lang)
    from havoc.assistant import api

    rs, pos = api.prepare(args.position, args.ruleset)  # before the game's names: the rules are loaded once
    from havoc.games.cry_havoc.query import parse_compact

    words = ["battle"] + ([f"region={args.region}"] if args.region else []) + list(args.placement)
    if args.faction:
        words.append(f"faction={args.faction}")
    query = parse_compact(words, pos)
    return emit(api.answer_for(rs, pos, query, args.lang), args.json, args.explain)


def cmd_score(args: argparse.Namespace) -> int:
    speak(args.lang)
    return emit(_for_faction(args, "score"), args.json, args.explain)
