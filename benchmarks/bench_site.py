"""The rules site: clean build of both languages, then the rebuild after editing one rule's text.

Works on a scratch copy of rules/ (HAVOC_RULES) and scratch output folders, as ``havoc docs``
builds (one Sphinx process per language, both at once). The target is an incremental rebuild
of at most 25% of the clean build: only the pages that show the edited rule are re-read.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from havoc import rulebook  # noqa: E402
from havoc.commands.docs import SOURCE, build_languages, sphinx_command  # noqa: E402
from havoc.i18n import LANGUAGES, Translator, locales_root  # noqa: E402


def edit_one_rule(rules: Path, ruleset: str) -> tuple[str, Path]:
    """Insert a word into the first line of one rule's text (a line that occurs once in its file).

    The translations follow (as after ``havoc catalog update`` and a translator's review), so the
    Polish page stays translated and the Polish build keeps passing.
    """
    rs = rulebook.load(ruleset, rules, use_cache=False)
    folder = rules / ruleset / "sections"
    for rule in rs.base_rules():
        file = next(p for p in folder.glob("*.yaml") if p.name.split("-", 1)[1] == f"{rule.section_id}.yaml")
        text = file.read_text(encoding="utf-8")
        key = " ".join(rule.text.splitlines()[0].split()[:4])
        if len(key) > 15 and text.count(key) == 1:
            first, rest = key.split(" ", 1)
            file.write_text(text.replace(key, f"{first} really {rest}"), encoding="utf-8")
            # a rule text's catalog context is scoped by its ruleset (Translator.key)
            context = Translator("en", None, rs.id).key(f"{rule.id}:text")
            follow_in_catalogs(context, rule.text, rule.text.replace(key, f"{first} really {rest}"))
            return rule.id, file
    raise SystemExit("no rule text to edit")


def follow_in_catalogs(context: str, old: str, new: str) -> None:
    from babel.messages.pofile import read_po, write_po

    followed = 0
    for path in (locales_root()).glob("*/LC_MESSAGES/rules.po"):
        with path.open("rb") as fh:
            cat = read_po(fh)
        msg = cat.get(old, context=context)
        if msg is None:
            continue
        followed += 1
        cat.delete(old, context=context)
        cat.add(new, msg.string, context=context, locations=msg.locations)
        with path.open("wb") as fh:
            write_po(fh, cat)
    if not followed:  # else the translated build fails on the edit, not on anything measured
        raise SystemExit(f"the edited text ({context}) is in no catalog")


def rebuild(langs: list[str], out: Path, doctrees: Path, ruleset: str) -> tuple[float, dict[str, list[str]]]:
    """Rebuild as ``havoc docs`` does; the wall time and the pages each language re-read."""
    started = time.perf_counter()
    results = build_languages(langs, out, doctrees, ruleset, out / "no-sheets", SOURCE, verbose=True)
    seconds = time.perf_counter() - started
    read = {}
    for res in results:
        if res.code:
            raise SystemExit(f"the {res.lang} rebuild failed:\n{res.output}")
        read[res.lang] = re.findall(r"reading sources\.\.\. \[[ \d]+%\] (\S+)", res.output)
        written = re.findall(r"writing output\.\.\. \[[ \d]+%\] (\S+)", res.output)
        print(f"  {res.lang}: wrote {len(written)} page(s)")
    return seconds, read


def main() -> None:
    os.environ["NO_COLOR"] = "1"  # plain Sphinx output to count re-read pages (CI=true colours it)
    ruleset = rulebook.default_ruleset()
    with tempfile.TemporaryDirectory(prefix="havoc-bench-site-") as tmp:
        base = Path(tmp)
        rules = base / "rules"
        shutil.copytree(rulebook.rules_root(), rules)
        shutil.copytree(locales_root(), base / "locales", ignore=shutil.ignore_patterns("*.mo"))
        os.environ["HAVOC_RULES"] = str(rules)
        os.environ["HAVOC_LOCALES"] = str(base / "locales")
        os.environ["HAVOC_CACHE_DIR"] = str(base / "cache")  # a clean build starts with no caches
        out, doctrees = base / "site", base / "doctrees"

        started = time.perf_counter()
        results = build_languages(list(LANGUAGES), out, doctrees, ruleset, out / "no-sheets", SOURCE, clean=True)
        clean = time.perf_counter() - started
        for res in results:
            if res.code:
                raise SystemExit(f"the {res.lang} build failed:\n{res.output}")
        pages = sum(1 for _ in (out / "en").rglob("*.html"))
        print(f"clean build, both languages in parallel: {clean:.1f} s ({pages} pages per language)")
        for res in results:
            print(f"  {res.lang}: {res.seconds:.1f} s")

        rule_id, file = edit_one_rule(rules, ruleset)
        print(f"edited the text of rule {rule_id!r} ({file.name})")
        seconds, read = rebuild(list(LANGUAGES), out, doctrees, ruleset)
        for lang, pages_read in read.items():
            print(f"  {lang}: re-read {len(pages_read)} page(s): {', '.join(pages_read)}")
        print(
            f"incremental rebuild, both languages (one process): {seconds:.1f} s = "
            f"{100 * seconds / clean:.0f}% of the clean build (target <= 25%)"
        )
        started = time.perf_counter()
        spec = {
            lang: sphinx_command(
                "html", lang, base / "seq" / lang, base / "seq-doctrees" / lang, ruleset, out / "no-sheets", clean=True
            )[3:]
            for lang in LANGUAGES
        }
        subprocess.run([sys.executable, "-m", "havoc.commands.docs", json.dumps(spec)], capture_output=True, check=True)
        sequential = time.perf_counter() - started
        print(
            f"for comparison, a clean build of both languages in one process: {sequential:.1f} s "
            f"(the incremental rebuild is {100 * seconds / sequential:.0f}% of it)"
        )
        if "really" not in (out / "en" / "rules" / f"{rs_section(rules, ruleset, rule_id)}.html").read_text(
            encoding="utf-8"
        ):
            raise SystemExit("the edit is not on the rebuilt page")


def rs_section(rules: Path, ruleset: str, rule_id: str) -> str:
    return rulebook.load(ruleset, rules, use_cache=False).rules[rule_id].section_id


if __name__ == "__main__":
    main()
