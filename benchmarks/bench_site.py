"""The rules site: clean builds of both languages at 1x, 3x and 10x the rules, the index size,
and the rebuild after editing one rule's text.

Works on scratch copies of rules/ and locales/ (HAVOC_RULES, HAVOC_LOCALES; the larger ones made
by ``synthetic.py``) and scratch output folders. Targets (issue 26): the clean build grows with
exponent <= 1.1 from 1x to 10x, the search index a language's site loads first stays <= 300 KB
gzipped at 10x (``synthetic.py`` makes copies that do not repeat their text, see there), and an
incremental rebuild takes at most 25% of the clean build (at 1x). ``BENCH_SITE_FACTORS=1,5,10``
picks other sizes.

Two figures for the incremental rebuild, CPU and wall, each as a share of its clean build:

- **the whole command** (first): ``havoc docs --lang all`` run as a user runs it (a new process,
  its own scratch ``build/`` folder), ``--clean`` and then after a one-word edit of one rule and
  its translation (``BENCH_SITE_REBUILDS`` times, a word more each time; the median). It counts
  everything the command does: loading the rulesets, both languages' Sphinx builds of every
  ruleset, the in-browser engine (the bundle's cache warmed, its bytecode made under Node by
  Pyodide or taken from the cache, the archive) and ``sw.js``. It does not count the sheets
  (``havoc docs`` only links the PDFs ``havoc sheet`` made, none here) nor a first ``npm ci``
  (Pyodide is installed already). The command has a cache folder of its own (``HAVOC_CACHE_DIR``),
  empty before the clean command, so that one makes every cache it uses (rulesets, search index,
  the engine's bytecode) and the rebuild finds what the clean command left, as a user's would.
- **the Sphinx builds alone** (second line, and the clean builds at each size): ``build_languages``
  for the default ruleset (both languages' Sphinx builds, staging and swapping), not the engine
  nor ``sw.js``.

CPU is this process's and every process it waited for (the command, its Sphinx processes, Node).
"""

from __future__ import annotations

import compileall
import gzip
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from havoc.cli.commands.docs import SOURCE, build_languages  # noqa: E402
from havoc.engine import rulebook  # noqa: E402
from havoc.language.i18n import LANGUAGES, Translator, locales_root  # noqa: E402
from havoc.search.site import MORE_SCRIPT  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
from synthetic import scaled  # noqa: E402


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


REBUILDS = int(os.environ.get("BENCH_SITE_REBUILDS", "3"))  # the whole command after an edit: the median
FACTORS = [int(f) for f in os.environ.get("BENCH_SITE_FACTORS", "1,3,10").split(",")]


def cpu_seconds() -> float:
    """CPU time of this process (which stages the sites and writes the page stubs) and of the
    build processes it waited for (with theirs: a worker's forked children)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def clean_build(base: Path, ruleset: str) -> tuple[float, float, int]:
    """A clean build of both languages (one process each, at once): wall and CPU seconds, pages."""
    out, doctrees = base / "site", base / "doctrees"
    cpu = cpu_seconds()
    started = time.perf_counter()
    results = build_languages(list(LANGUAGES), out, doctrees, ruleset, out / "no-sheets", SOURCE, clean=True)
    wall = time.perf_counter() - started
    after = cpu_seconds()
    for res in results:
        if res.code:
            raise SystemExit(f"the {res.lang} build failed:\n{res.output}")
    return wall, after - cpu, len(list((out / "en").rglob("*.html")))


def index_kb(site: Path) -> dict[str, tuple[float, float]]:
    """Each language's search index as the site ships it, gzipped (level 9), in KB: the script
    every search loads first, and the other language's words (loaded when a query has one)."""

    def kb(path: Path) -> float:
        return len(gzip.compress(path.read_bytes(), 9)) / 1024

    return {
        lang: (kb(site / lang / "_static" / "havoc-searchindex.js"), kb(site / lang / "_static" / MORE_SCRIPT))
        for lang in LANGUAGES
    }


def exponent(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of log(seconds) over log(size): 1 is linear, 2 quadratic."""
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    os.environ["NO_COLOR"] = "1"  # plain Sphinx output to count re-read pages (CI=true colours it)
    # As installed: havoc's modules compiled once, their bytecode reused by every build (this
    # machine's shell sets PYTHONDONTWRITEBYTECODE, which makes each Sphinx process compile every
    # havoc module from source again; bench_startup and bench_ask measure the same way). Compiled
    # before the clean builds, so they and the rebuild alike start from bytecode.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(REPO / "src" / "havoc", quiet=1)
    ruleset = rulebook.default_ruleset()
    source, catalogs = rulebook.rules_root(), locales_root()  # before HAVOC_RULES points at a copy
    walls: list[tuple[float, float]] = []
    cpus: list[tuple[float, float]] = []
    clean_1x = 0.0
    for factor in FACTORS:
        with tempfile.TemporaryDirectory(prefix="havoc-bench-site-") as tmp:
            base = Path(tmp)
            rules, locales = scaled(base, factor, ruleset, source, catalogs)
            os.environ["HAVOC_RULES"] = str(rules)
            os.environ["HAVOC_LOCALES"] = str(locales)
            os.environ["HAVOC_CACHE_DIR"] = str(base / "cache")  # a clean build starts with no caches
            rule_count = len(rulebook.load(ruleset, rules, use_cache=False).rules)
            wall, cpu, pages = clean_build(base, ruleset)
            walls.append((factor, wall))
            cpus.append((factor, cpu))
            kb = index_kb(base / "site")
            sizes = ", ".join(
                f"{lang} {first:.0f} KB (+{more:.0f} KB other language)" for lang, (first, more) in kb.items()
            )
            print(
                f"{factor:>2}x ({rule_count} rules, {pages} pages per language): clean build of both languages "
                f"{wall:.1f} s wall, {cpu:.1f} s CPU; search index gzipped: {sizes} (target <= 300 KB)"
            )
            if factor == 1:
                clean_1x = wall
                whole_command(base, rules, ruleset)
                incremental(base, rules, ruleset, wall, cpu)
    if len(FACTORS) > 1:
        print(
            f"clean build growth {FACTORS[0]}x -> {FACTORS[-1]}x: exponent {exponent(walls):.2f} (wall), "
            f"{exponent(cpus):.2f} (CPU) (target <= 1.1)"
        )
    if not clean_1x:
        print("(no 1x build: the incremental figure is measured at 1x)")


def havoc_docs(base: Path, *extra: str) -> tuple[float, float]:
    """``havoc docs --lang all`` (output in ``base/whole``, its build/ folder in ``base``): wall and CPU seconds."""
    cpu = cpu_seconds()
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "havoc", "docs", "--lang", "all", "-o", str(base / "whole"), *extra],
        cwd=base,
        env={**os.environ, "HAVOC_CACHE_DIR": str(base / "whole-cache")},  # its own: the clean command starts with none
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if proc.returncode:
        raise SystemExit(f"havoc docs failed:\n{proc.stderr[-3000:]}")
    return wall, cpu_seconds() - cpu


def whole_command(base: Path, rules: Path, ruleset: str) -> None:
    """The whole ``havoc docs --lang all``: clean, then after a one-word edit (restored after)."""
    saved = {
        p: (p.read_bytes(), p.stat().st_mtime_ns)
        for p in [*rules.rglob("*.yaml"), *locales_root().glob("*/LC_MESSAGES/*.po")]
    }
    wall, cpu = havoc_docs(base, "--clean")
    print(f"  havoc docs --lang all --clean (every ruleset, the engine, sw.js): {wall:.1f} s wall, {cpu:.1f} s CPU")
    runs = []
    for _ in range(REBUILDS):  # each after a word more: on a shared machine one run says little
        rule_id, file = edit_one_rule(rules, ruleset)
        runs.append(havoc_docs(base))
    print(f"  edited the text of rule {rule_id!r} ({file.name}) {REBUILDS} times, each followed by havoc docs")
    inc_wall = statistics.median(w for w, _ in runs)
    inc_cpu = statistics.median(c for _, c in runs)
    print(
        f"  whole havoc docs after a one-word edit (median of {REBUILDS}): {inc_wall:.2f} s wall = "
        f"{100 * inc_wall / wall:.0f}% of the clean command; {inc_cpu:.2f} s CPU = {100 * inc_cpu / cpu:.0f}% "
        f"(target <= 25%; each run: {', '.join(f'{w:.2f}/{c:.2f}' for w, c in runs)} s wall/CPU)"
    )
    for path, (data, mtime) in saved.items():  # the Sphinx-only figure below edits the same rule afresh
        if path.read_bytes() != data:  # as it was, date included: its build saw the files unedited
            path.write_bytes(data)
            os.utime(path, ns=(mtime, mtime))


def incremental(base: Path, rules: Path, ruleset: str, clean: float, clean_cpu: float) -> None:
    """Edit one word of one rule, rebuild both languages; print the time as a share of the clean build."""
    out, doctrees = base / "site", base / "doctrees"
    rule_id, file = edit_one_rule(rules, ruleset)
    print(f"  edited the text of rule {rule_id!r} ({file.name})")
    before = cpu_seconds()
    seconds, read = rebuild(list(LANGUAGES), out, doctrees, ruleset)
    cpu = cpu_seconds() - before
    for lang, pages_read in read.items():
        print(f"  {lang}: re-read {len(pages_read)} page(s): {', '.join(pages_read)}")
    print(
        f"  Sphinx alone (build_languages, default ruleset), both languages: {seconds:.2f} s wall = "
        f"{100 * seconds / clean:.0f}% of the clean build; {cpu:.2f} s CPU = {100 * cpu / clean_cpu:.0f}% (target <= 25%)"
    )
    if "really" not in (out / "en" / "rules" / f"{rs_section(rules, ruleset, rule_id)}.html").read_text(
        encoding="utf-8"
    ):
        raise SystemExit("the edit is not on the rebuilt page")


def rs_section(rules: Path, ruleset: str, rule_id: str) -> str:
    return rulebook.load(ruleset, rules, use_cache=False).rules[rule_id].section_id


if __name__ == "__main__":
    main()
