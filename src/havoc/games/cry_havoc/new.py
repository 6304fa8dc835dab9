"""``havoc new POSITION.yaml``: write a commented position template a player can fill in.

The template is checked before it is written: it parses as a valid position, so a player
starts from something the assistant accepts and edits only what differs on their table.
The comments are in the reader's language (``--lang``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from havoc.cli.commands import add_ruleset_option


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from havoc.language.i18n import LANGUAGES

    p = sub.add_parser(
        "new",
        help="write a commented position template to fill in",
        description="Write a commented position template (YAML) for `havoc ask`, ready to fill in.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "examples:\n"
            "  havoc new pos.yaml\n"
            "  havoc new pos.yaml --players humans,pilgrims,machines --lang pl\n"
            "  havoc new - --players humans,machines,pilgrims,trogs   # print it\n"
            "\nThe docs page 'Describing the table' explains every field with templates."
        ),
    )
    p.add_argument("output", metavar="POSITION.yaml", help="the file to write (- prints it)")
    p.add_argument(
        "--players",
        default="humans,pilgrims",
        help="the factions in the game, comma-separated, in Initiative order (default: %(default)s)",
    )
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the comments (default: %(default)s)")
    p.add_argument("--force", action="store_true", help="replace the file if it exists")
    add_ruleset_option(p)
    p.set_defaults(func=cmd_new)


def _names(faction: str, lang: str) -> str:
    """A few names a position may give instead of IDs, in the reader's language: "Mgielnia,
    Ludzie: 3, faza Akcji, Góry"."""
    from havoc.games.cry_havoc import words
    from havoc.language.grammar import noun

    return ", ".join(
        [
            f"{noun(words.KNOWN_REGIONS['foglands'], lang)}:",
            f"{noun(words.FACTIONS[faction], lang)}: 3",
            str(noun(words.PHASES["actions"], lang)),
            str(noun(words.TERRAINS["mountains"], lang)),
            str(noun(words.STRUCTURES["harvester"], lang)),
        ]
    )


def template(players: list[str], lang: str, last_round: object, max_players: object) -> str:
    """The commented template for these players; the first one has the turn.

    The numbers the comments mention (the last round, the players for the Trogs) are the
    rules' parameters, passed in.
    """
    from havoc.games.cry_havoc.ui import faction_name, ui

    def c(text: str) -> str:
        return "# " + text

    first = players[0]
    lines = [
        c(ui("A Cry Havoc position: what is on the table. Fill in what your question is about;", lang)),
        c(ui("leave out what does not matter (the assistant then uses the rules' defaults).", lang)),
        c(ui("Check it with: havoc ask THIS-FILE legal", lang)),
        "",
        c(
            ui("The factions in the game, in Initiative order (the Trogs only in a game of {count}).", lang).format(
                count=max_players
            )
        ),
        f"players: [{', '.join(players)}]",
        c(ui("Round 1 to {last}; round {last} is always the last.", lang).format(last=last_round)),
        "round: 1",
        c(ui("Phase: events, draw-cards, actions, battle-resolution, prisoners or scoring.", lang)),
        "phase: actions",
        c(ui("Whose turn it is (in the Actions phase).", lang)),
        f"turn: {first}",
        c(ui("Optional: the step within the phase, e.g. draw (before drawing) in draw-cards.", lang)),
        "# step: draw",
        f"initiative: [{', '.join(players)}]",
        c(ui("Scoring this round: who enabled it (leave out if nobody did).", lang)),
        "# scoring: {enabled-by: " + first + "}",
        "",
        c(ui("Each faction off the board: Victory Points, Reserve, Prisoners held, Skills, cards in hand.", lang)),
        c(ui("Reserve left out: every Unit not on the listed Regions and not held as a Prisoner.", lang)),
        "factions:",
    ]
    for i, f in enumerate(players):
        lines.append(f"  {f}:   # {faction_name(f, lang)}")
        lines.append("    vp: 0")
        if i == 0:
            lines.append("    # hand: 5                        " + c(ui("cards in hand", lang)))
            lines.append("    # skills: {example-skill: ready} " + c(ui("ready or exhausted", lang)))
            other = players[1] if len(players) > 1 else first
            lines.append(f"    # prisoners: {{{other}: 1}}        " + c(ui("Units of other factions held", lang)))
    lines += [
        "",
        c(ui("Only the Regions the question is about, with their neighbours (adjacent).", lang)),
        c(ui("Invented Regions are named example-...; known names: foglands, scorch, sapos-deep,", lang)),
        c(ui("feralas-banks, camerons-sea, world-caverns.", lang)),
        c(ui("Names may stand for IDs, in any case: {names}.", lang).format(names=_names(first, lang))),
        "regions:",
        "  example-a:",
        "    terrain: jungle          " + c(ui("mountains, desert, jungle or ocean; none for outer Regions", lang)),
        "    adjacent: [example-b]",
        f"    units: {{{first}: 3}}      " + c(ui("Units per faction", lang)),
        f"    control: {first}         " + c(ui("whose Control token lies here", lang)),
        "    crystals: 1",
        "    # battle: {token: 1, attacker: "
        + first
        + "}   "
        + c(ui("a Battle token: its number and the attacker", lang)),
        "    # structures: [{type: example-structure, owner: " + first + "}]",
        "    # trog-token: war-party    " + c(ui("a face-down Trog token: war-party or nest", lang)),
        "    # exploration: true        " + c(ui("a face-down Exploration token", lang)),
        "  example-b:",
        "    adjacent: [example-a]",
        "  example-hq:",
        f"    hq: {first}                " + c(ui("an HQ Region: no Crystals, no Structures", lang)),
        f"    units: {{{first}: 4}}",
        f"    control: {first}",
        "",
    ]
    return "\n".join(lines)


def _faction_id(word: str) -> str:
    """A faction by ID or by name, as a position names it ("Ludzie", "pielgrzymi")."""
    from havoc.games.cry_havoc.ui import fold, vocabulary

    found = vocabulary("factions").get(fold(word), ())
    return found[0] if len(found) == 1 else word


def cmd_new(args: argparse.Namespace) -> int:
    from havoc.core.errors import Code, InputError, Problem
    from havoc.engine import rulebook
    from havoc.games.cry_havoc import position_read
    from havoc.games.cry_havoc.contract import FACTIONS
    from havoc.games.cry_havoc.ui import set_message_language, ui

    set_message_language(args.lang)

    players = [_faction_id(w.strip()) for w in args.players.split(",") if w.strip()]  # "Ludzie" is humans
    wrong = [w for w in players if w not in FACTIONS]
    if wrong or not players:
        raise InputError(
            [
                Problem(
                    "--players",
                    None,
                    ui("expected factions from {choices}, comma-separated; found {found}", args.lang).format(
                        choices=", ".join(FACTIONS), found=", ".join(wrong) or "—"
                    ),
                    code=Code.REQUEST_USAGE,
                )
            ]
        )
    rs = rulebook.load(args.ruleset)
    from havoc.games.cry_havoc.contract import P_MAX_ROUNDS

    text = template(players, args.lang, rs.param(P_MAX_ROUNDS), rs.param("max-players"))
    position_read.parse_text(text, rs, "--players")  # a bad --players is reported like a bad position
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    from havoc.core import safeio

    safeio.check_replaceable(out)  # --force replaces a regular file, never a link or a device
    if out.exists() and not args.force:
        raise InputError(
            [
                Problem(
                    str(out),
                    None,
                    ui("the file exists; choose another name or add --force", args.lang),
                    code=Code.FILE_EXISTS,
                )
            ]
        )
    safeio.write_text(out, text)  # atomic, and the mode the umask gives
    print(ui("wrote {file}", args.lang).format(file=out))
    return 0
