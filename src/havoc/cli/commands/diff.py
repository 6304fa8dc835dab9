"""``havoc diff A B``: what changed in the rules between two versions (git revisions or folders).

For maintainers (did this change of ``rules/`` do what I meant?) and translators (which Polish
texts must I read again?). A and B are each a git revision of this repository (its ``rules/`` and
``locales/`` trees are read with ``git archive`` into a scratch folder) or a folder: a ruleset
folder (holding ``ruleset.yaml``) or a checkout holding ``rules/<ruleset>/``. The comparison
itself is :mod:`havoc.engine.diff`.
"""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING
from havoc.cli.commands import add_output_options
from havoc.core.errors import Code, InputError, Problem

if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Any

    from havoc.engine.diff import Change, Version

CATALOG = ("locales", "pl", "LC_MESSAGES", "rules.po")
ARCHIVE_LIMIT = 64 * 1024 * 1024  # a revision's rules/ and locales/ trees are a few MB; more is not a ruleset
CONTEXT_WORDS = 6  # kept words shown either side of a change


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "diff",
        help="what changed in the rules between two versions (git revisions or folders)",
        description=(
            "Compare two versions of a ruleset rule by rule: rules added, removed or retired, "
            "renumbered, reworded (English and Polish, word by word), parameters, checks and "
            "examples whose expected answer changed. With --lang pl: what a translator must read again."
        ),
    )
    p.add_argument("a", metavar="EARLIER", help="the older version: a git revision (e.g. main~3) or a folder")
    p.add_argument("b", metavar="LATER", help="the newer version: a git revision or a folder")
    p.add_argument("--html", metavar="FILE", default=None, help="also write the comparison as an HTML page")
    add_output_options(p, "language of the report", "print JSON for programs")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    import tempfile
    from pathlib import Path

    from havoc.engine import diff

    with tempfile.TemporaryDirectory(prefix="havoc-diff-") as scratch:
        a = read_version(args.a, "A", args.ruleset, scratch)
        b = read_version(args.b, "B", args.ruleset, scratch)
    changes = diff.compare(a, b)
    if args.html:
        from havoc.core import safeio

        safeio.write_text(Path(args.html), html_page(a, b, changes, args.lang))
    if args.json:
        import json

        out = {
            "a": {"version": a.label, "ruleset": a.ruleset.id, "fingerprint": a.fingerprint},
            "b": {"version": b.label, "ruleset": b.ruleset.id, "fingerprint": b.fingerprint},
            "summary": diff.summary(changes),
            "changes": [c.as_json() for c in changes],
            "translator": [c.rule for c in diff.for_translator(changes)],
        }
        json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    print(text_report(a, b, changes, args.lang))
    return 0


# --- reading a version ---------------------------------------------------------------------


def read_version(spec: str, side: str, ruleset: str | None, scratch: str) -> Version:
    """Version ``spec`` (a folder, else a git revision) of ``ruleset``, loaded and validated."""
    import os
    from pathlib import Path

    from havoc.core.errors import RulebookError
    from havoc.engine.diff import Version
    from havoc.engine.rulebook import default_ruleset, stored
    from havoc.engine.rulebook.loader import load_ruleset

    name = ruleset or default_ruleset()  # data: rules/default-ruleset
    if os.path.isdir(spec):
        top = Path(spec)
        folder = top if (top / "ruleset.yaml").is_file() else top / "rules" / os.path.basename(name)
        if not (folder / "ruleset.yaml").is_file():
            raise _problem(side, spec, "not a ruleset folder (no ruleset.yaml in it, nor in rules/{name}/)", name=name)
    else:
        top = _archive(spec, side, os.path.join(scratch, side))
        folder = top / "rules" / os.path.basename(name)
        if not (folder / "ruleset.yaml").is_file():
            raise _problem(side, spec, "this revision has no ruleset {name}", name=name)
    try:
        rs = load_ruleset(folder)
    except RulebookError as exc:
        first = exc.problems[0] if exc.problems else None
        raise _problem(side, spec, "its rules do not load: {first}", first=str(first)) from None
    # the loader leaves the fingerprint to the cache; the numbering is cached by it, so each side needs its own
    rs.fingerprint = stored.fingerprint(folder)
    return Version(rs, _polish(folder), spec, rs.fingerprint)


def _polish(folder: Path) -> dict[str, str]:
    """msgctxt → msgstr of the Polish rule catalog beside the ruleset (none: no Polish to compare)."""
    from havoc.language import pofile

    for top in (folder, folder.parent.parent):
        path = top.joinpath(*CATALOG)
        if path.is_file():
            entries, _ = pofile.parse(path.read_text(encoding="utf-8"), str(path))
            return {
                e.fields["msgctxt"]: e.fields.get("msgstr", e.fields.get("msgstr[0]", ""))
                for e in entries
                if "msgctxt" in e.fields and not e.obsolete
            }
    return {}


def _archive(rev: str, side: str, into: str) -> Path:
    """The ``rules/`` and ``locales/`` trees of git revision ``rev``, unpacked under ``into``."""
    import io
    import os
    import subprocess
    import tarfile
    from pathlib import Path

    from havoc.engine.rulebook import rules_root

    repo = str(rules_root().parent)
    if rev.startswith("-"):
        raise _problem(side, rev, "not a folder, nor a revision of this repository")
    try:
        ok = subprocess.run(
            ["git", "-C", repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        raise _problem(side, rev, "not a folder, and git cannot be run to read it as a revision") from None
    if ok.returncode != 0:
        raise _problem(side, rev, "not a folder, nor a revision of this repository")
    commit = ok.stdout.strip()
    paths = [p for p in ("rules", "locales") if _has(repo, commit, p)]
    if "rules" not in paths:
        raise _problem(side, rev, "this revision has no rules/ folder")
    got = subprocess.run(
        ["git", "-C", repo, "archive", "--format=tar", commit, *paths], capture_output=True, check=False
    )
    if got.returncode != 0 or len(got.stdout) > ARCHIVE_LIMIT:
        raise _problem(side, rev, "its rules/ tree cannot be read from git")
    os.makedirs(into, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(got.stdout)) as tar:
        tar.extractall(into, filter="data")
    return Path(into)


def _has(repo: str, commit: str, path: str) -> bool:
    import subprocess

    got = subprocess.run(["git", "-C", repo, "cat-file", "-e", f"{commit}:{path}"], capture_output=True, check=False)
    return got.returncode == 0


def _problem(side: str, spec: str, message: str, **values: str) -> InputError:
    from havoc.language.i18n import message_language, ui

    words = {
        "not a ruleset folder (no ruleset.yaml in it, nor in rules/{name}/)": ui(
            "not a ruleset folder (no ruleset.yaml in it, nor in rules/{name}/)", message_language()
        ),
        "this revision has no ruleset {name}": ui("this revision has no ruleset {name}", message_language()),
        "its rules do not load: {first}": ui("its rules do not load: {first}", message_language()),
        "not a folder, nor a revision of this repository": ui(
            "not a folder, nor a revision of this repository", message_language()
        ),
        "not a folder, and git cannot be run to read it as a revision": ui(
            "not a folder, and git cannot be run to read it as a revision", message_language()
        ),
        "this revision has no rules/ folder": ui("this revision has no rules/ folder", message_language()),
        "its rules/ tree cannot be read from git": ui("its rules/ tree cannot be read from git", message_language()),
    }[message]
    shown = spec if len(spec) <= 80 else spec[:77] + "…"
    return InputError([Problem("diff", None, f"{side} ({shown}): {words.format(**values)}", code=Code.REQUEST_USAGE)])


# --- showing the changes -------------------------------------------------------------------


def _headings(lang: str) -> dict[str, str]:
    from havoc.language.i18n import ui

    return {
        "added": ui("Rules added", lang),
        "removed": ui("Rules removed", lang),
        "retired": ui("Rules retired (with their successor)", lang),
        "renumbered": ui("Numbering changed", lang),
        "reworded": ui("Reworded", lang),
        "params": ui("Parameters changed", lang),
        "check-added": ui("Checks added", lang),
        "check-removed": ui("Checks removed", lang),
        "example-expect": ui("Examples whose expected answer changed", lang),
    }


def _field_names(lang: str) -> dict[str, str]:
    from havoc.language.i18n import ui

    return {
        "title": ui("title", lang),
        "text": ui("text", lang),
        "summary": ui("summary", lang),
    }


def _title(a: Version, b: Version, c: Change, lang: str) -> str:
    """The rule's title in ``lang``: B's, else (a rule B has no more) A's."""
    if lang == "pl":
        for v in (b, a):
            found = v.polish.get(f"{v.ruleset.id}:{c.rule}:title")
            if found:
                return found
    return c.title


def _shown_words(parts: tuple[tuple[str, str], ...], marks: tuple[str, str, str, str]) -> str:
    """A word diff on one line: changes marked, long kept runs cut to a few words either side."""
    out = []
    for k, (op, words) in enumerate(parts):
        if op == "=":
            ws = words.split()
            if len(ws) > 2 * CONTEXT_WORDS:
                head = ws[:CONTEXT_WORDS] if k else []
                tail = ws[-CONTEXT_WORDS:] if k < len(parts) - 1 else []
                words = " ".join([*head, "…", *tail])
            out.append(words)
        elif op == "-":
            out.append(f"{marks[0]}{words}{marks[1]}")
        else:
            out.append(f"{marks[2]}{words}{marks[3]}")
    return " ".join(w for w in out if w)


def _value(v: Any) -> str:
    import json

    if v is None:
        return "—"
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def _expect_change(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = [k for k in {**old, **new} if old.get(k) != new.get(k)]
    return "; ".join(f"{k}: {_value(old.get(k))} → {_value(new.get(k))}" for k in keys)


def _line(a: Version, b: Version, c: Change, lang: str) -> list[str]:
    """One change as text lines (the first names the rule)."""
    from havoc.language.i18n import ui

    fields = _field_names(lang)
    head = f"{c.rule} — {_title(a, b, c, lang)}"
    if c.kind == "added":
        return [f"+ {head} ({c.new})"]
    if c.kind == "removed":
        return [f"- {head} ({c.old})"]
    if c.kind == "retired":
        successor = c.new or ui("no successor", lang)
        return [f"- {head} ({c.old}) → {successor}"]
    if c.kind == "renumbered":
        return [f"{head}: {c.old} → {c.new}"]
    if c.kind == "params":
        return [f"{head}: {c.detail}: {_value(c.old)} → {_value(c.new)}"]
    if c.kind in ("check-added", "check-removed"):
        return [f"{head}: {', '.join(c.new or c.old or [])}"]
    if c.kind == "example-expect":
        return [f"{head}: {c.detail}: {_expect_change(c.old, c.new)}"]
    lines = [head]
    for field, parts in c.words:
        lang_tag, _, name = field.rpartition(":")
        label = fields.get(name, name) + (" (PL)" if lang_tag else " (EN)")
        lines.append(f"    {label}: {_shown_words(parts, ('[-', '-]', '{+', '+}'))}")
    return lines


def text_report(a: Version, b: Version, changes: list[Change], lang: str) -> str:
    """The comparison for a terminal; in Polish, what a translator must read again."""
    from havoc.engine import diff
    from havoc.language.i18n import nui, ui

    shown = diff.for_translator(changes) if lang == "pl" else changes
    counts = diff.summary(shown)
    heads = _headings(lang)
    out = [
        ui("Changes in the rules from {a} to {b} ({ruleset})", lang).format(a=a.label, b=b.label, ruleset=b.ruleset.id)
    ]
    if lang == "pl":
        out.append(ui("For the translator: rules added, and rules whose English text changed.", lang))
    total = len(shown)
    out.append(
        nui("{n} change", "{n} changes", total, lang).format(n=total)
        + ": "
        + ", ".join(f"{heads[k]} {n}" for k, n in counts.items() if n)
    )
    for kind in diff.KINDS:
        these = [c for c in shown if c.kind == kind]
        if not these:
            continue
        out += ["", f"{heads[kind]} ({len(these)})"]
        for c in these:
            out += ["  " + x for x in _line(a, b, c, lang)]
    if not shown:
        out += ["", ui("No changes.", lang)]
    return "\n".join(out)


def html_page(a: Version, b: Version, changes: list[Change], lang: str) -> str:
    """The comparison as one self-contained page: word changes as <del> and <ins>."""
    from html import escape

    from havoc.engine import diff
    from havoc.language.i18n import ui

    shown = diff.for_translator(changes) if lang == "pl" else changes
    heads = _headings(lang)
    fields = _field_names(lang)
    title = ui("Changes in the rules from {a} to {b} ({ruleset})", lang).format(
        a=a.label, b=b.label, ruleset=b.ruleset.id
    )
    body = [f"<h1>{escape(title)}</h1>"]
    for kind in diff.KINDS:
        these = [c for c in shown if c.kind == kind]
        if not these:
            continue
        body.append(f"<h2>{escape(heads[kind])} ({len(these)})</h2><ul>")
        for c in these:
            if c.kind != "reworded":
                body.append(f"<li>{escape(_line(a, b, c, lang)[0])}</li>")
                continue
            body.append(f"<li><b>{escape(c.rule)}</b> — {escape(_title(a, b, c, lang))}<dl>")
            for field, parts in c.words:
                lang_tag, _, name = field.rpartition(":")
                label = fields.get(name, name) + (" (PL)" if lang_tag else " (EN)")
                words = " ".join(
                    escape(w)
                    if op == "="
                    else f"<{'del' if op == '-' else 'ins'}>{escape(w)}</{'del' if op == '-' else 'ins'}>"
                    for op, w in parts
                )
                body.append(f"<dt>{escape(label)}</dt><dd>{words}</dd>")
            body.append("</dl></li>")
        body.append("</ul>")
    if not shown:
        body.append(f"<p>{escape(ui('No changes.', lang))}</p>")
    style = "del{background:#fdd;text-decoration:line-through}ins{background:#dfd;text-decoration:none}body{font-family:sans-serif;max-width:60em;margin:auto}"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )
