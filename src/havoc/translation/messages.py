"""Every translatable string of a ruleset, listed once (rules, terms, facts, sheet).

Each has its context ``<ruleset>:<id>:<field>`` and its file:line. The Babel extractor, the
catalog check and every view's lookup use this same list, so a message cannot be extracted
under one context and looked up under another.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from havoc.language.i18n import Message, has_words

if TYPE_CHECKING:
    from havoc.engine.rulebook.model import Ruleset


def messages(ruleset: Ruleset) -> Iterator[Message]:
    """Every translatable string of a ruleset, in reading order, its context prefixed by the
    ruleset's ID (``cry-havoc:move-leave:title``): one catalog holds every ruleset's texts."""
    prefix = f"{ruleset.id}:"
    for msg in _messages(ruleset):
        yield msg._replace(context=prefix + msg.context)


def _messages(ruleset: Ruleset) -> Iterator[Message]:
    meta = f"rules/{ruleset.id}/ruleset.yaml"
    yield Message("ruleset:title", ruleset.title, meta, 0)
    for key, source in ruleset.sources.items():
        if isinstance(source, dict) and source.get("title"):
            yield Message(f"source:{key}:title", str(source["title"]), meta, 0)
    for overlay in ruleset.overlays.values():
        for key, meta_of in overlay.sources.items():
            if isinstance(meta_of, dict) and meta_of.get("title"):
                yield Message(f"source:{key}:title", str(meta_of["title"]), overlay.loc.file, overlay.loc.line)
    for part in ruleset.parts:
        ruleset.sections[part.section_ids[0]] if part.section_ids else None
        yield Message(f"{part.id}:title", part.title, f"rules/{ruleset.id}/ruleset.yaml", 0)
    for section in ruleset.sections.values():
        yield Message(f"{section.id}:title", section.title, section.loc.file, section.loc.line)
        if section.intro:
            yield Message(f"{section.id}:intro", section.intro, section.loc.file, section.loc.line)
        for rid in section.rule_ids:
            yield from _rule_messages(ruleset, rid)
    for overlay in ruleset.overlays.values():
        yield Message(f"{overlay.id}:title", overlay.title, overlay.loc.file, overlay.loc.line)
        if overlay.intro:
            yield Message(f"{overlay.id}:intro", overlay.intro, overlay.loc.file, overlay.loc.line)
        own = {rid for sid in overlay.section_ids for rid in ruleset.sections[sid].rule_ids}
        for rid in overlay.rule_ids:
            if rid not in own:
                yield from _rule_messages(ruleset, rid)
    for term in ruleset.terms.values():
        f, ln = term.loc.file, term.loc.line
        yield Message(f"term:{term.id}:name", term.name, f, ln, plural=term.plural)
        yield Message(f"term:{term.id}:definition", term.definition, f, ln)
        if term.search_forms:
            yield Message(
                f"term:{term.id}:search-forms",
                term.search_forms,
                f,
                ln,
                comment="Comma-separated: every inflected form a reader may search for.",
            )
    for fact in ruleset.facts.values():
        yield Message(f"fact:{fact.name}:description", fact.description, f"rules/{ruleset.id}/facts.yaml", 0)
        if fact.player:
            yield Message(
                f"fact:{fact.name}:player",
                fact.player,
                f"rules/{ruleset.id}/facts.yaml",
                0,
                comment="What a player writes for it, short; keep {faction} and {region}, with the case "
                "the phrase needs ({faction:gen}, {region:loc}).",
            )
    from havoc.engine.rulebook import rules_root
    from havoc.quickref.layout import sheet_messages

    yield from sheet_messages(rules_root() / ruleset.id)


def _rule_messages(ruleset: Ruleset, rid: str) -> Iterator[Message]:
    rule = ruleset.rules[rid]
    f, ln = rule.loc.file, rule.loc.line
    yield Message(f"{rid}:title", rule.title, f, ln)
    if rule.text:
        yield Message(f"{rid}:text", rule.text, f, ln, comment=_placeholder_note(rule.text))
    if rule.summary:
        yield Message(f"{rid}:summary", rule.summary, f, ln, comment=_placeholder_note(rule.summary))
    if rule.check and rule.check.hint:
        yield Message(f"{rid}:hint", rule.check.hint, f, ln)
    for name, param in rule.params.items():
        if param.description:
            yield Message(f"param:{name}:description", param.description, param.loc.file, param.loc.line)
    if rule.table is not None:  # a chart's words (headings, names); numbers stay as printed
        seen: set[str] = set()
        for cell in (*rule.table.columns, *(c for row in rule.table.rows for c in row)):
            if cell not in seen and has_words(cell):
                seen.add(cell)
                yield Message(f"{rid}:table", cell, rule.table.loc.file, rule.table.loc.line)
    for ex in rule.examples:
        yield Message(f"{ex.id}:title", ex.title, ex.loc.file, ex.loc.line)
        if ex.text:
            yield Message(f"{ex.id}:text", ex.text, ex.loc.file, ex.loc.line)


def _placeholder_note(text: str) -> str | None:
    if "{" not in text:
        return None
    return "Keep every {placeholder}; a {name:one|few|many} word takes this language's plural forms."
