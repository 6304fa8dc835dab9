"""How long whole ``havoc ask`` and ``havoc lookup`` processes take, against ``python3 -c pass``.

All three are timed interleaved in the same run (so load on the machine hits them alike), after
a warm-up that fills the caches a player's second question finds filled (the rulebook, the
catalogs, the search index). Prints the medians, the ratios (targets: ask at most 3×, lookup at
most 3.5×) and ``-X importtime``'s most expensive imports of one ``havoc ask``.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
POSITION = REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml"
QUESTION = ["move", "humans", "from=example-a", "to=example-b", "units=2"]
LOOKUP = ["lookup", "retreat from battle"]
RUNS = int(os.environ.get("BENCH_RUNS", "25"))


def timed(cmd: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """The wall time of one process; its CPU time (user + system) is appended to ``cpu``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def havoc_command() -> list[str]:
    """The installed ``havoc`` command a player runs (``python -m havoc`` only where it is not
    installed: runpy's own imports would add about 2 ms to every figure)."""
    script = Path(sys.executable).with_name("havoc")
    return [str(script)] if script.exists() else [sys.executable, "-m", "havoc"]


def main() -> int:
    with tempfile.TemporaryDirectory() as cache:
        # As installed for a player: bytecode is written once and reused (this machine's shell sets
        # PYTHONDONTWRITEBYTECODE, which would make every run compile every module from source).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["HAVOC_CACHE_DIR"] = cache
        script = Path(sys.executable).with_name("havoc")
        havoc = havoc_command()
        ask = [*havoc, "ask", str(POSITION), *QUESTION]
        lookup = [*havoc, *LOOKUP]
        empty = [sys.executable, "-c", "pass"]  # the same interpreter (a pyenv shim would flatter us)
        for _ in range(2):  # warm-up: the rulebook, catalog, position and search index caches
            timed(ask, env)
            timed(lookup, env)
        bare: list[float] = []
        asks: list[float] = []
        lookups: list[float] = []
        cpu: dict[str, list[float]] = {"pass": [], "ask": [], "lookup": []}
        for _ in range(RUNS):
            bare.append(timed(empty, env, cpu["pass"]))
            asks.append(timed(ask, env, cpu["ask"]))
            lookups.append(timed(lookup, env, cpu["lookup"]))
        b, a, w = statistics.median(bare), statistics.median(asks), statistics.median(lookups)
        print(f"python -c pass (same interpreter): median {b * 1000:.1f} ms")
        print(f"havoc ask (whole process, warm caches): median {a * 1000:.1f} ms  ratio {a / b:.2f}x (target <= 3x)")
        print(
            f"havoc lookup (whole process, warm caches): median {w * 1000:.1f} ms  ratio {w / b:.2f}x (target <= 3.5x)"
        )
        # CPU time is what a busy shared machine disturbs least (a process waiting for a core
        # costs wall time, not CPU time): the same ratios from it, for comparing runs.
        cb, ca, cw = (statistics.median(cpu[k]) for k in ("pass", "ask", "lookup"))
        print(
            f"CPU time (user + system), medians: pass {cb * 1000:.1f} ms, ask {ca * 1000:.1f} ms "
            f"(ratio {ca / cb:.2f}x), lookup {cw * 1000:.1f} ms (ratio {cw / cb:.2f}x)"
        )
        # the installed command's own imports (``-m havoc`` would add runpy's: importlib.util,
        # contextlib, functools and collections, which a player's havoc ask never imports)
        where = [str(script)] if script.exists() else ["-m", "havoc"]
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", *where, "ask", str(POSITION), *QUESTION],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
    rows: list[tuple[int, int, str]] = []
    for line in proc.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[0].strip().isdigit():
            rows.append((int(parts[0]), int(parts[1]), parts[2].strip()))
    total = sum(own for own, _, _ in rows)
    print(
        f"-X importtime: {len(rows)} modules, {total / 1000:.1f} ms of imports; the most expensive (own, cumulative):"
    )
    for own, cumulative, name in sorted(rows, reverse=True)[:12]:
        print(f"  {own / 1000:6.1f} ms {cumulative / 1000:6.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
