"""The rule files' format, declared once with the schema framework (:mod:`havoc.formats.spec`).

The loader takes the fields each kind of entry may have from here (so what it accepts and what
the published JSON Schema says cannot drift apart), and ``havoc schema --rules KIND`` prints the
JSON Schema of one kind of file for editors. The loader adds what a schema cannot say: IDs
unique across files, links that resolve, conditions that type-check, parameters in range.
"""

from __future__ import annotations

from typing import Any, Final

from havoc.formats.spec import Spec, json_schema


def _text(doc: str) -> Spec:
    return Spec("text", doc)


def _id(doc: str) -> Spec:
    return Spec("id", doc)


def _ids(doc: str) -> Spec:
    return Spec("list", doc, item=_id("An ID."))


CONDITION = Spec("any", "A condition or a number: a value, or a one-key mapping such as {fact: …} (rules/README.md).")

SOURCE = Spec(
    "any",
    'Where the rule comes from: a seed key such as "003", or {seed, heading, doc, note}.',
)

PARAM = Spec(
    "object",
    "A number (or yes/no, or text) the rule defines; texts show it as {name}.",
    fields={
        "value": Spec("any", "The value: a whole number (default), true/false (type: bool) or a text (type: text)."),
        "unit": _text("What it counts (cards, Units, VP …): the site and the sheet show it counted."),
        "description": _text("What the number is, in a few words (shown with its value)."),
        "type": Spec("enum", "int (default), bool or text.", choices=("int", "bool", "text")),
        "min": Spec("int", "The smallest value it may take (default 1)."),
        "max": Spec("int", "The largest value it may take (default 1000)."),
    },
    required=("value",),
)

CHECK = Spec(
    "object",
    "What the assistant checks for this rule.",
    fields={
        "queries": _ids("The question kinds this rule is consulted for."),
        "applies-if": CONDITION,
        "requires": CONDITION,
        "figures": Spec("map", "Figures the rule gives: name -> expression.", item=CONDITION),
        "hint": _text("What would make a refused action legal."),
        "unless": _ids("Rules stating the exception that could turn a no (cards, Skills, Structures)."),
    },
    required=("queries",),
)

EXAMPLE = Spec("any", "A worked example: id, title, text, and position, query, expect checked by `havoc check`.")

TABLE = Spec(
    "object",
    "A chart the rule prints: headings and rows, one cell per column.",
    fields={
        "columns": Spec("list", "The column headings.", item=Spec("any", "A heading.")),
        "rows": Spec("list", "The rows.", item=Spec("list", "One row.", item=Spec("any", "A cell: text or a number."))),
    },
    required=("columns", "rows"),
)

RULE = Spec(
    "object",
    "A rule.",
    fields={
        "id": _id("The rule's stable ID."),
        "title": _text("Its title."),
        "text": _text("Its text, with {parameter} placeholders and [links](rule:id) / (term:id)."),
        "summary": _text("One line for the quick-reference sheet."),
        "source": SOURCE,
        "params": Spec("map", "The numbers it defines.", item=PARAM),
        "see": _ids("Related rules."),
        "terms": _ids("Glossary terms it uses."),
        "check": CHECK,
        "examples": Spec("list", "Worked examples.", item=EXAMPLE),
        "table": TABLE,
        "interpretation": Spec("bool", "Our documented reading of a point the source leaves open (the site says so)."),
        "text-only": _text(
            "Why the assistant does not check this rule (for maintainers; the site says it is not checked). "
            "A rule without a check must say so: `havoc check` fails on a rule that is neither."
        ),
    },
    required=("id", "title", "text"),
)

OVERLAY_RULE = Spec(
    "object",
    "A rule of an overlay (errata or a variant): new, or changing a base rule.",
    fields={
        **(RULE.fields or {}),
        "op": Spec("enum", "What it does to the base rules.", choices=("add", "amend", "replace", "remove")),
        "target": _id("The base rule it amends, replaces or removes."),
        "section": _id("For op: add, the base section it joins."),
    },
    required=("id", "title", "op"),
)

SECTION = Spec(
    "object",
    "A section file (sections/NN-<id>.yaml).",
    fields={
        "id": _id("The section's ID (the file name without its number)."),
        "title": _text("Its title."),
        "source": SOURCE,
        "intro": _text("Text before its rules."),
        "rules": Spec("list", "Its rules, in reading order.", item=RULE),
    },
    required=("id", "title", "rules"),
)

RULESET = Spec(
    "object",
    "ruleset.yaml: the book's outline and the game it is played in.",
    fields={
        "id": _id("The ruleset's ID (its folder name)."),
        "title": _text("The book's title."),
        "publisher": _text("Who published the game."),
        "year": Spec("int", "The year it was published."),
        "version": _text(
            "The version of these rules files (raise it when a change alters what a player reads or an answer); "
            "every answer's JSON carries it with the content fingerprint."
        ),
        "game": _text(
            "The Python module of its game package (a subpackage of havoc.games, or any importable package)."
        ),
        "sources": Spec("map", "The documents rules cite, by key.", item=Spec("any", "A source: title, authority …")),
        "parts": Spec(
            "list",
            "The parts of the book.",
            item=Spec(
                "object",
                "A part.",
                fields={"id": _id("Its ID."), "title": _text("Its title."), "sections": _ids("Its sections.")},
                required=("id", "title", "sections"),
            ),
        ),
    },
    required=("id", "title", "parts"),
)

FACTS = Spec(
    "object",
    "facts.yaml: the facts conditions may read.",
    fields={
        "facts": Spec(
            "list",
            "The facts.",
            item=Spec(
                "object",
                "A fact.",
                fields={
                    "name": _text("subject.name, e.g. game.phase."),
                    "type": Spec("enum", "Its type.", choices=("bool", "int", "string")),
                    "values": _text("For a string fact: the vocabulary list its values come from."),
                    "description": _text("What it means (the site and the answers show it)."),
                    "player": _text(
                        "What a player would write for it, short, shown in answers before its value: "
                        "{faction} is the asking faction's name, {region} the fact's Region. Empty: a "
                        "fact that only chooses a branch of a rule, not shown (the full trace keeps it)."
                    ),
                },
                required=("name", "type", "description"),
            ),
        )
    },
    required=("facts",),
)

VOCABULARY = Spec(
    "map",
    "vocabulary.yaml: named lists of identifiers (factions, phases, question-kinds when the game has no kinds/ folder …).",
    item=Spec("any", "An identifier, a list of identifiers, or a mapping of lists."),
)

KINDS: Final[dict[str, Spec]] = {
    "ruleset": RULESET,
    "section": SECTION,
    "overlay-rule": OVERLAY_RULE,
    "facts": FACTS,
    "vocabulary": VOCABULARY,
}


def fields(spec: Spec) -> frozenset[str]:
    """The keys an object of this kind may have (what the loader accepts)."""
    return frozenset(spec.fields or ())


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one kind of rule file, for editors."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://havoc.invalid/schema/rules-{kind}.json",
        "title": f"havoc rule file: {kind}",
        **json_schema(KINDS[kind]),
    }


__all__ = ["KINDS", "RULE", "SECTION", "fields", "schema"]
