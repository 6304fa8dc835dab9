"""Time to build one quick-reference sheet, PDF and HTML (issue 4: target at most 3 s).

Two figures: the whole `havoc sheet --lang en` process as a user runs it (Python start,
imports, rules from the cache, layout, PDF), and the stages inside one process. Each is given
in wall seconds and in CPU seconds (user + system, the process's own): on a shared, loaded
machine the wall time measures the other processes too, the CPU time hardly.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
TARGET_S = 3.0


def main() -> None:
    from havoc import quickref
    from havoc.engine import rulebook
    from havoc.quickref import pdf

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        os.environ["HAVOC_CACHE_DIR"] = str(out / "cache")
        rulebook.load()  # warm the rules cache, as any earlier command would
        # One file named, so one ruleset: the default one (with two rulesets, `-o FILE.pdf`
        # alone is refused by CLIs that write every ruleset's sheet).
        ruleset = rulebook.default_ruleset()
        processes = []
        for lang in ("en", "pl"):
            samples, cpu = [], []
            for _ in range(3):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "havoc",
                        "sheet",
                        "--lang",
                        lang,
                        "--ruleset",
                        ruleset,
                        "-o",
                        str(out / f"{lang}.pdf"),
                    ],
                    check=True,
                    capture_output=True,
                )
                samples.append(time.perf_counter() - t0)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            processes.append((lang, statistics.median(samples), statistics.median(cpu)))

        def timed(run: Callable[[], T]) -> tuple[T, float, float]:
            t0, c0 = time.perf_counter(), time.process_time()
            made = run()
            return made, time.perf_counter() - t0, time.process_time() - c0

        _, t_import, c_import = timed(lambda: __import__("weasyprint"))
        rulebook._memo.clear()  # as in a fresh process: rules from the disk cache
        sheet, t_html, c_html = timed(lambda: quickref.build_html("pl"))
        printed, t_pdf, c_pdf = timed(lambda: pdf.write_pdf(sheet.html, sheet.columns))

    print(f"{'':40}{'wall':>8}{'CPU':>8}")
    for lang, seconds, cpu_seconds in processes:
        verdict = "ok" if seconds <= TARGET_S else "OVER TARGET"
        print(
            f"{f'`havoc sheet --lang {lang}` whole process:':40}{seconds:7.2f}s{cpu_seconds:7.2f}s"
            f"  (target {TARGET_S:.0f} s wall: {verdict})"
        )
    print(f"{'  import WeasyPrint:':40}{t_import:7.2f}s{c_import:7.2f}s")
    print(f"{'  pl: rules (cached) + catalog + HTML:':40}{t_html:7.2f}s{c_html:7.2f}s")
    print(
        f"{'  pl: layout + overflow check + PDF:':40}{t_pdf:7.2f}s{c_pdf:7.2f}s"
        f"  ({printed.pages} pages, {len(printed.pdf) // 1024} KiB)"
    )


if __name__ == "__main__":
    main()
