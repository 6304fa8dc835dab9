"""One rule as data, in a reader's language: what ``havoc rule --json`` prints and ``/api/rule`` serves."""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: `havoc rule` imports no typing
    from typing import Any

    from havoc.engine.rulebook.model import ParamDef, Rule, Ruleset
    from havoc.language.i18n import Translator


def rule_data(rs: Ruleset, tr: Translator, rule: Rule) -> dict[str, Any]:
    """Everything about one rule, in one language (the JSON form of ``havoc rule``)."""
    view = rs.view()
    section = rs.sections.get(rule.section_id)
    data: dict[str, Any] = {
        "id": rule.id,
        "title": tr.text(f"{rule.id}:title", rule.title),
        "section": {
            "id": rule.section_id,
            "title": tr.text(f"{rule.section_id}:title", section.title) if section else "",
        },
        "text": tr.render(rs, f"{rule.id}:text", rule.text),
        "summary": tr.render(rs, f"{rule.id}:summary", rule.summary) if rule.summary else None,
        "parameters": {n: _param_data(rs, tr, n, p) for n, p in rule.params.items()},
        "uses-parameters": sorted(_used_params(rule)),
        "see": [{"id": s, "title": title_of(rs, tr, s)} for s in rule.see],
        "terms": sorted(set(rule.terms) | _linked_terms(rule)),
        "term-names": [tr.term_name(rs, t) for t in sorted(set(rule.terms) | _linked_terms(rule)) if t in rs.terms],
        "source": {
            k: v
            for k, v in (
                ("seed", rule.source.seed),
                ("heading", rule.source.heading),
                ("doc", rule.source.doc),
                ("note", rule.source.note),
            )
            if v
        },
        "origin": rule.origin,
        "file": str(rule.loc),
        "examples": [
            {
                "id": ex.id,
                "title": tr.text(f"{ex.id}:title", ex.title),
                "text": tr.render(rs, f"{ex.id}:text", ex.text) if ex.text else None,
                "query": ex.query,
                "expect": ex.expect,
            }
            for ex in rule.examples
        ],
        "amended-by": [
            {"id": a.id, "title": tr.text(f"{a.id}:title", a.title), "text": tr.render(rs, f"{a.id}:text", a.text)}
            for a in view.amendments.get(rule.id, ())
        ],
    }
    if rule.op:
        data["overlay"] = {"op": rule.op, "target": rule.target}
    if rule.interpretation:
        data["interpretation"] = True  # our documented reading of an open point
    if rule.check:
        c = rule.check
        data["check"] = {
            "queries": list(c.queries),
            "applies-if": c.applies_if,
            "requires": c.requires,
            "figures": c.figures,
            "hint": tr.render(rs, f"{rule.id}:hint", c.hint) if c.hint else None,
        }
    return data


def title_of(rs: Ruleset, tr: Translator, ident: str) -> str:
    if ident in rs.rules:
        return tr.text(f"{ident}:title", rs.rules[ident].title)
    return tr.text(f"{ident}:title", rs.sections[ident].title)


def _used_params(rule: Rule) -> set[str]:
    from havoc.language import markup

    names: set[str] = set()
    for text in (rule.text, rule.summary or ""):
        for piece in markup.walk(markup.parse(text)):
            if isinstance(piece, (markup.Param, markup.PluralWord)):
                names.add(piece.name)
    return names


def _linked_terms(rule: Rule) -> set[str]:
    from havoc.language import markup

    return {p.target for p in markup.walk(markup.parse(rule.text)) if isinstance(p, markup.Ref) and p.kind == "term"}


def _unit_text(rs: Ruleset, unit: str, n: int, lang: str) -> str:
    if not rs.game:
        return unit
    from havoc.engine import game

    return game.of(rs).labels().unit(unit, n, lang)


def _param_data(rs: Ruleset, tr: Translator, name: str, p: ParamDef) -> dict[str, Any]:
    """A parameter's value, its counted unit and description in the reader's language (1 akcja, 5 akcji)."""
    counted = isinstance(p.value, int) and not isinstance(p.value, bool) and p.unit
    words = _unit_text(rs, p.unit, p.value, tr.lang) if counted else ""  # type: ignore[arg-type]
    description = tr.text(f"param:{name}:description", p.description) if p.description else None
    return {
        "value": p.value,
        "unit": p.unit,
        "text": f"{p.value} {words}".strip(),
        "description": description,
    }
