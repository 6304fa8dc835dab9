"""``havoc check``, ``havoc rules`` and ``havoc rule``: read and validate the rulebook."""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING
from havoc.cli.commands import add_output_options, add_ruleset_option
from havoc.engine import rulebook
from havoc.engine.ruledata import rule_data
from havoc.language.i18n import Translator, nui, ui

if TYPE_CHECKING:  # a plain `havoc rule ID` (read by havoc.cli.quick_parse) imports neither argparse nor typing
    import argparse
    from typing import Any

    from havoc.engine.rulebook.model import Ruleset


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "check",
        help="validate the rules (and the translation catalogs)",
        description="Validate every rule file (of every ruleset unless --ruleset names one); exit 1 with "
        "located errors if any is wrong.",
    )
    add_ruleset_option(p)
    p.add_argument(
        "--text-only",
        action="store_true",
        help="also list the rules the assistant does not check, each with the reason",
    )
    p.set_defaults(func=cmd_check, every_ruleset=True)

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

    p = sub.add_parser(
        "schema",
        help="print a JSON Schema: of positions (default), answers, or a kind of rule file",
        description="Print the JSON Schema of the position format, of answers (--answers) or of a kind of "
        "rule file (--rules KIND), for editors and the docs.",
    )
    add_ruleset_option(p)
    p.add_argument(
        "--no-limits", action="store_true", help="leave out the maximums that come from the rules' parameters"
    )
    p.add_argument("--answers", action="store_true", help="print the JSON Schema of answers (--json) instead")
    p.add_argument(
        "--rules",
        metavar="KIND",
        choices=sorted(RULE_FILE_KINDS),
        help=f"print the JSON Schema of a kind of rule file: {', '.join(sorted(RULE_FILE_KINDS))}",
    )
    p.set_defaults(func=cmd_schema)


RULE_FILE_KINDS = ("ruleset", "section", "overlay-rule", "facts", "vocabulary")


def cmd_schema(args: argparse.Namespace) -> int:
    import json

    from havoc.assistant import api
    from havoc.engine import game

    if args.rules:
        from havoc.engine.rulebook import format

        schema: dict[str, Any] = format.schema(args.rules)
    elif args.answers:
        played = game.of(api.load_ruleset(args.ruleset))
        answers = getattr(played, "answer_schema", None)
        if answers is None:
            from havoc.core.errors import Code, InputError, Problem

            raise InputError(
                [Problem("--answers", None, "this ruleset's game publishes no answer schema", code=Code.GAME_NO_SCHEMA)]
            )
        schema = answers()
    else:
        schema = api.schema(args.ruleset, limits=not args.no_limits)
    json.dump(schema, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    add_output_options(p, "language of the texts", "print JSON for programs")


def cmd_check(args: argparse.Namespace) -> int:
    listing = bool(getattr(args, "text_only", False))
    if args.ruleset:
        return check_ruleset(args.ruleset, listing)
    code = 0
    for name in rulebook.ruleset_names():
        code = max(code, check_ruleset(name, listing))
    return code


def check_ruleset(name: str, list_text_only: bool = False) -> int:
    """Validate one ruleset: its files, its game, its examples, its sheet and the catalogs."""
    rs = rulebook.load(name)
    checks = [
        f"{len(rs.rules)} rules",
        f"{len(rs.sections)} sections",
        f"{len(rs.terms)} terms",
        f"{len(rs.params)} parameters",
    ]
    from havoc.cli import catalogs
    from havoc.quickref.layout import layout_path, load_layout

    sheet_root = rulebook.ruleset_folder(name)
    if layout_path(sheet_root).is_file():
        load_layout(rs, sheet_root)
        checks.append("sheet layout")
    from havoc.search import players

    if players.path_of(rs) is not None:
        from havoc.search.index import build

        build(rs)  # the players' words name real rules, terms and words (a located error if not)
        checks.append("players' words")
    from havoc.assistant import examples
    from havoc.core.errors import RulebookError
    from havoc.engine import game

    game_problems = game.check(rs)  # the game package loads and handles every declared kind
    if game_problems:
        raise RulebookError(game_problems)
    covered = game.coverage(rs)  # every rule is checked, or says why it is text only
    if covered.problems:
        raise RulebookError(covered.problems)
    ran, failed = examples.run_all(rs) if rs.game else (0, [])  # examples are checks, not only tests
    if failed:
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
    checks.append(f"{len(covered.enforced)} rules enforced, {len(covered.text_only)} text only (each with a reason)")
    checks.extend(report.summary)
    print(f"ok: {rs.title}: " + ", ".join(checks))
    if list_text_only:
        for rid in covered.text_only:
            print(f"  text only: {rid}: {rs.rules[rid].text_only}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    rs = rulebook.load(args.ruleset)
    tr = Translator(args.lang, scope=rs.id)
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
    tr = Translator(args.lang, scope=rs.id)
    rid = rs.resolve(args.id)
    if rid is None or rid not in rs.rules:
        import difflib

        known = list(rs.rules)
        hint = difflib.get_close_matches(args.id, known, n=3)
        lang = args.lang
        extra = (
            ui("did you mean {names}?", lang).format(names=", ".join(hint))
            if hint
            else ui("the command havoc rules lists them all", lang)
        )
        print(
            ui("error", lang) + ": " + ui("no rule {name}", lang).format(name=repr(args.id)) + f"; {extra}",
            file=sys.stderr,
        )
        return 1
    data = rule_data(rs, tr, rs.rules[rid])
    if rid != args.id:
        data["retired-id"] = args.id
    if args.json:
        _dump(data)
        return 0
    print(format_rule(data, args.lang, source=source_words(rs, tr, rid), checked=checked_words(rs, rid, args.lang)))
    return 0


def rule_text(rs: Ruleset, rid: str, lang: str) -> str:
    """One rule as ``havoc rule`` prints it (for the tests that read every rule as a reader does)."""
    tr = Translator(lang, scope=rs.id)
    data = rule_data(rs, tr, rs.rules[rid])
    return format_rule(data, lang, source=source_words(rs, tr, rid), checked=checked_words(rs, rid, lang))


def source_words(rs: Ruleset, tr: Translator, rid: str) -> str:
    """Where a rule comes from, as a reader names it: the document's title and the heading.

    The document keys of ruleset.yaml ("003") are the project's filing numbers; a player knows
    the rulebook by its title ("Oficjalna polska instrukcja …") and finds the place by its heading.
    """
    from havoc.language.i18n import SOURCE_LANGUAGE
    from havoc.language.languages import quote

    rule = rs.rules[rid]
    src, lang = rule.source, tr.lang
    parts: list[str] = []
    if src.seed:
        title = str(rs.sources.get(src.seed, {}).get("title", src.seed))
        parts.append(tr.text(f"source:{src.seed}:title", title))
    if src.doc:
        overlay = rs.overlays.get(rule.origin)
        meta = (overlay.sources if overlay else {}).get(src.doc, {})
        parts.append(tr.text(f"source:{src.doc}:title", str(meta.get("title", src.doc))))
    if src.heading:
        parts.append(ui("heading {heading}", lang).format(heading=quote(src.heading, lang)))
    if src.note and lang == SOURCE_LANGUAGE:  # notes on a source are in the rules' language
        parts.append(src.note)
    return ", ".join(parts)


def checked_words(rs: Ruleset, rid: str, lang: str) -> str:
    """The question kinds a rule is checked for, by the names the answers give them ("Ruch")."""
    from havoc.core.errors import RulebookError
    from havoc.engine import game

    check = rs.rules[rid].check
    if check is None:
        return ""
    try:
        labels = game.of(rs).labels()
    except RulebookError:  # a ruleset that names no game: its kinds have no names but their IDs
        return ", ".join(check.queries)
    return ", ".join(labels.kind(q, lang) for q in check.queries)


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


def format_rule(d: dict[str, Any], lang: str = "en", source: str | None = None, checked: str | None = None) -> str:
    """One rule for people; the labels in ``lang`` like the texts.

    ``source`` and ``checked`` are the source and the question kinds in a reader's words
    (``source_words``, ``checked_words``); without them the JSON's keys and IDs are shown.
    """
    lab = _labels(lang)
    lines = [f"{d['title']}  [{d['id']}]", f"{lab['section']}: {d['section']['title']} [{d['section']['id']}]"]
    if d.get("retired-id"):
        lines.append(ui("(the ID {id} is retired; this is its successor)", lang).format(id=d["retired-id"]))
    if d.get("overlay"):
        change = " ".join(w for w in (d["overlay"]["op"], d["overlay"]["target"]) if w)
        lines.append(f"{lab['overlay']}: {d['origin']}" + (f" ({change})" if change else ""))
    if d.get("interpretation"):
        lines.append(ui("Our interpretation: the source leaves this open; havoc follows this reading.", lang))
    lines += ["", d["text"], ""]
    if d["summary"]:
        lines.append(f"{lab['summary']}: {d['summary']}")
    for name, p in d["parameters"].items():
        if p.get("description"):  # the words first, the ID a text's {placeholder} uses after them
            lines.append(f"{lab['parameter']}: {p['description'].rstrip('.')} = {p['text']} [{name}]")
        else:
            lines.append(f"{lab['parameter']} [{name}] = {p['text']}")
    if d["uses-parameters"]:
        lines.append(f"{lab['uses']}: " + ", ".join(f"[{u}]" for u in d["uses-parameters"]))
    if d["see"]:
        lines.append(f"{lab['see']}: " + ", ".join(f"{s['title']} [{s['id']}]" for s in d["see"]))
    if d["terms"]:
        lines.append(f"{lab['terms']}: " + ", ".join(d.get("term-names") or d["terms"]))
    src = d["source"]
    if source:
        lines.append(f"{lab['source']}: {source}")
    elif src:
        lines.append(f"{lab['source']}: " + ", ".join(f"{k} {v}" for k, v in src.items()))
    lines.append(f"{lab['defined in']}: {d['file']}")
    if d.get("check"):
        c = d["check"]
        lines.append(f"{lab['checked for']}: {checked or ', '.join(c['queries'])}")
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
