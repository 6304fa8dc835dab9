"""Time to build one quick-reference sheet, PDF and HTML (issue 4: target at most 3 s).

Two figures: the whole `havoc sheet --lang en` process as a user runs it (Python start,
imports, rules from the cache, layout, PDF), and the stages inside one process.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 3.0


def main() -> None:
    from havoc import quickref, rulebook
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
            samples = []
            for _ in range(3):
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
            processes.append((lang, statistics.median(samples)))

        t0 = time.perf_counter()
        import weasyprint  # noqa: F401

        t_import = time.perf_counter() - t0
        rulebook._memo.clear()  # as in a fresh process: rules from the disk cache
        t0 = time.perf_counter()
        sheet = quickref.build_html("pl")
        t_html = time.perf_counter() - t0
        t0 = time.perf_counter()
        printed = pdf.write_pdf(sheet.html, sheet.columns)
        t_pdf = time.perf_counter() - t0

    for lang, seconds in processes:
        verdict = "ok" if seconds <= TARGET_S else "OVER TARGET"
        print(f"`havoc sheet --lang {lang}` whole process:  {seconds:6.2f} s  (target {TARGET_S:.0f} s: {verdict})")
    print(f"  import WeasyPrint:                    {t_import:6.2f} s")
    print(f"  pl: rules (cached) + catalog + HTML:  {t_html:6.2f} s")
    print(
        f"  pl: layout + overflow check + PDF:    {t_pdf:6.2f} s  ({printed.pages} pages, {len(printed.pdf) // 1024} KiB)"
    )


if __name__ == "__main__":
    main()
