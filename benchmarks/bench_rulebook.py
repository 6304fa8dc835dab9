"""Cold and cached load times of the ruleset (issue 2)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time


def _time(fn: object, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    from havoc.engine import rulebook
    from havoc.engine.rulebook import load_ruleset, rules_root, stored

    folder = rules_root() / rulebook.default_ruleset()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HAVOC_CACHE_DIR"] = tmp
        cold = _time(lambda: load_ruleset(folder), 5)

        def cached_disk() -> None:
            rulebook._memo.clear()
            rulebook.load()

        rulebook.load()  # fill the disk cache
        disk = _time(cached_disk, 20)
        memo = _time(rulebook.load, 200)
        fp = _time(lambda: stored.fingerprint(folder), 50)
        cli = _time(
            lambda: subprocess.run(
                [sys.executable, "-m", "havoc", "rule", "battle-region-leave"], check=True, capture_output=True
            ),
            5,
        )
        base = _time(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 5)
    rs = rulebook.load()
    print(f"ruleset: {len(rs.rules)} rules, {len(rs.sections)} sections, {len(rs.terms)} terms")
    print(f"load, cold (parse + validate YAML):        {cold * 1000:8.1f} ms")
    print(f"load, cached on disk (hash + unpickle):    {disk * 1000:8.1f} ms")
    print(f"load, cached in process:                   {memo * 1000:8.3f} ms (of which hashing {fp * 1000:.2f} ms)")
    print(f"`havoc rule ID` whole process:             {cli * 1000:8.1f} ms (python -c pass: {base * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
