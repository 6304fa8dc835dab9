"""``havoc check``, ``havoc rules`` and ``havoc rule``: read and validate the rulebook."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from havoc import rulebook
from havoc.commands import add_output_options, add_ruleset_option
from havoc.i18n import Translator, nui, ui
from havoc.rulebook.model import ParamDef, Rule, Ruleset


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "check",
        help="validate the rules (and the translation catalogs)",
        description="Validate every rule file; exit 1 with located errors if any is wrong.",
    )
    add_ruleset_option(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "rules",
        help="print the tree of parts, sections and rules",
        description="Print the rulebook's outline: parts, sections and rule IDs with titles.",
    )
    _common(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "rule",
        help="print one rule with its parameters, links, source and examples",
        description="Print one rule (by ID; a retired ID leads to its successor).",
    )
    p.add_argument("id", help="the rule's ID, e.g. battle-region-leave")
    _common(p)
    p.set_defaults(func=cmd_rule)


def _common(p: argparse.ArgumentParser) -> None:
    add_output_options(p, "language of the texts", "print JSON for programs")


def cmd_check(args: argparse.Namespace) -> int:
    rs = rulebook.load(args.ruleset)
    checks = [
        f"{len(rs.rules)} rules",
        f"{len(rs.sections)} sections",
        f"{len(rs.terms)} terms",
        f"{len(rs.params)} parameters",
    ]
    from havoc import catalogs
    from havoc.quickref.layout import layout_path, load_layout

    sheet_root = rulebook.ruleset_folder(args.ruleset)
    if layout_path(sheet_root).is_file():
        load_layout(rs, sheet_root)
        checks.append("sheet layout")
    from havoc import examples

    ran, failed = examples.run_all(rs)  # examples are checks, not only tests
    if failed:
        from havoc.errors import RulebookError

        raise RulebookError(failed)
    report = catalogs.check_all(rs)
    if report.problems:
        for problem in report.problems:
            print(f"error: {problem}", file=sys.stderr)
        print(
            f"{len(report.problems)} problem{'' if len(report.problems) == 1 else 's'} in the catalogs", file=sys.stderr
        )
        return 1
    checks.append(f"{ran} examples run")
    checks.extend(report.summary)
    print(f"ok: {rs.title}: " + ", ".join(checks))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    rs = rulebook.load(args.ruleset)
    tr = Translator(args.lang)
    tree: list[dict[str, Any]] = [
        {
            "id": part.id,
            "title": tr.text(f"{part.id}:title", part.title),
            "sections": [_section_entry(rs, tr, sid) for sid in part.section_ids],
        }
        for part in rs.parts
    ]
    overlays: list[dict[str, Any]] = [
        {
            "id": o.id,
            "kind": o.kind,
            "fan-made": o.fan_made,
            "title": tr.text(f"{o.id}:title", o.title),
            "rules": [{"id": rid, "title": tr.text(f"{rid}:title", rs.rules[rid].title)} for rid in o.rule_ids],
        }
        for o in rs.overlays.values()
    ]
    if args.json:
        _dump({"ruleset": rs.id, "title": rs.title, "parts": tree, "overlays": overlays})
        return 0
    lang = args.lang
    n_sec, n_rules = len(rs.sections), len(rs.rules)
    sections = nui("{n} section", "{n} sections", n_sec, lang).format(n=n_sec)
    rules = nui("{n} rule", "{n} rules", n_rules, lang).format(n=n_rules)
    counts = f"{sections}, {rules}"
    print(f"{rs.title} ({rs.publisher}, {rs.year}): {counts}")
    for part in tree:
        print(f"\n{part['title']}")
        for sec in part["sections"]:
            print(f"  {sec['title']}  [{sec['id']}]")
            for rule in sec["rules"]:
                print(f"    {rule['id']:<34} {rule['title']}")
    for o in overlays:
        flag = " (" + ui("fan-made", lang) + ")" if o["fan-made"] else ""
        print(f"\n{o['title']}{flag}  [{o['id']}]")
        for rule in o["rules"]:
            print(f"    {rule['id']:<34} {rule['title']}")
    return 0


def _section_entry(rs: Ruleset, tr: Translator, sid: str) -> dict[str, Any]:
    s = rs.sections[sid]
    return {
        "id": sid,
        "title": tr.text(f"{sid}:title", s.title),
        "rules": [{"id": rid, "title": tr.text(f"{rid}:title", rs.rules[rid].title)} for rid in s.rule_ids],
    }


def cmd_rule(args: argparse.Namespace) -> int:
    rs = rulebook.load(args.ruleset)
    tr = Translator(args.lang)
    rid = rs.resolve(args.id)
    if rid is None or rid not in rs.rules:
        import difflib

        known = list(rs.rules)
        hint = difflib.get_close_matches(args.id, known, n=3)
        extra = f"; did you mean {', '.join(hint)}?" if hint else "; `havoc rules` lists them all"
        print(f"error: no rule {args.id!r}{extra}", file=sys.stderr)
        return 1
    data = rule_data(rs, tr, rs.rules[rid])
    if rid != args.id:
        data["retired-id"] = args.id
    if args.json:
        _dump(data)
        return 0
    print(format_rule(data, args.lang))
    return 0


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
        "parameters": {n: _param_data(tr, n, p) for n, p in rule.params.items()},
        "uses-parameters": sorted(_used_params(rule)),
        "see": [{"id": s, "title": _title(rs, tr, s)} for s in rule.see],
        "terms": sorted(set(rule.terms) | _linked_terms(rule)),
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


def _title(rs: Ruleset, tr: Translator, ident: str) -> str:
    if ident in rs.rules:
        return tr.text(f"{ident}:title", rs.rules[ident].title)
    return tr.text(f"{ident}:title", rs.sections[ident].title)


def _used_params(rule: Rule) -> set[str]:
    from havoc import markup

    names: set[str] = set()
    for text in (rule.text, rule.summary or ""):
        for piece in markup.walk(markup.parse(text)):
            if isinstance(piece, (markup.Param, markup.PluralWord)):
                names.add(piece.name)
    return names


def _linked_terms(rule: Rule) -> set[str]:
    from havoc import markup

    return {p.target for p in markup.walk(markup.parse(rule.text)) if isinstance(p, markup.Ref) and p.kind == "term"}


def _labels(lang: str) -> dict[str, str]:
    """The labels of ``havoc rule``, as literal ``ui()`` calls so the catalog extraction finds them."""
    return {
        "section": ui("section", lang),
        "overlay": ui("overlay", lang),
        "summary": ui("summary", lang),
        "parameter": ui("parameter", lang),
        "uses": ui("uses", lang),
        "see": ui("see", lang),
        "terms": ui("terms", lang),
        "source": ui("source", lang),
        "defined in": ui("defined in", lang),
        "checked for": ui("checked for", lang),
        "hint": ui("hint", lang),
        "ruling": ui("ruling", lang),
        "example": ui("example", lang),
    }


def _param_data(tr: Translator, name: str, p: ParamDef) -> dict[str, Any]:
    """A parameter's value, its counted unit and description in the reader's language (1 akcja, 5 akcji)."""
    from havoc.interpreter.ui import unit_text

    counted = isinstance(p.value, int) and not isinstance(p.value, bool) and p.unit
    words = unit_text(p.unit, p.value, tr.lang) if counted else ""  # type: ignore[arg-type]
    description = tr.text(f"param:{name}:description", p.description) if p.description else None
    return {
        "value": p.value,
        "unit": p.unit,
        "text": f"{p.value} {words}".strip(),
        "description": description,
    }


def format_rule(d: dict[str, Any], lang: str = "en") -> str:
    """One rule for people; the labels in ``lang`` like the texts."""
    lab = _labels(lang)
    lines = [f"{d['title']}  [{d['id']}]", f"{lab['section']}: {d['section']['title']} [{d['section']['id']}]"]
    if d.get("retired-id"):
        lines.append(ui("(the ID {id} is retired; this is its successor)", lang).format(id=d["retired-id"]))
    if d.get("overlay"):
        target = d["overlay"]["target"] or ""
        lines.append(f"{lab['overlay']}: {d['origin']} ({d['overlay']['op']} {target})".rstrip())
    if d.get("interpretation"):
        lines.append(ui("Our interpretation: the source leaves this open; havoc follows this reading.", lang))
    lines += ["", d["text"], ""]
    if d["summary"]:
        lines.append(f"{lab['summary']}: {d['summary']}")
    for name, p in d["parameters"].items():
        about = f" — {p['description']}" if p.get("description") else ""
        lines.append(f"{lab['parameter']} {name} = {p['text']}{about}")
    if d["uses-parameters"]:
        lines.append(f"{lab['uses']}: " + ", ".join(d["uses-parameters"]))
    if d["see"]:
        lines.append(f"{lab['see']}: " + ", ".join(f"{s['title']} [{s['id']}]" for s in d["see"]))
    if d["terms"]:
        lines.append(f"{lab['terms']}: " + ", ".join(d["terms"]))
    src = d["source"]
    if src:
        lines.append(f"{lab['source']}: " + ", ".join(f"{k} {v}" for k, v in src.items()))
    lines.append(f"{lab['defined in']}: {d['file']}")
    if d.get("check"):
        c = d["check"]
        lines.append(f"{lab['checked for']}: {', '.join(c['queries'])}")
        if c.get("hint"):
            lines.append(f"{lab['hint']}: {c['hint']}")
    for a in d["amended-by"]:
        lines += ["", f"{lab['ruling']}: {a['title']} [{a['id']}]", a["text"]]
    for ex in d["examples"]:
        lines += ["", f"{lab['example']}: {ex['title']} [{ex['id']}]"]
        if ex["text"]:
            lines.append(ex["text"])
    return "\n".join(lines)


def _dump(data: Any) -> None:
    import json

    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
