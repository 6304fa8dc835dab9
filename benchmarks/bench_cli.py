"""Each ``havoc`` command's whole process against ``python -c pass`` (issue 40: every command at
most 2.5x, CPU time), and the modules each imports.

All processes are timed interleaved in the same run (load on the machine hits them alike), after a
warm-up that fills the caches a player's second command finds filled. CPU time (user + system) is
what a shared machine disturbs least, so the target is read from it; wall time is printed beside.

``--against SCRIPT`` also times another checkout's ``havoc`` (a launcher script that puts its
``src`` first on sys.path and calls ``main()`` with no arguments, as the ``havoc`` script does:
``main(argv)`` is the library's call, which leaves the interpreter's shutdown as it is, several
milliseconds) in the same interleaved rounds: a before/after table from one run, under the same
load, rather than two runs an hour apart.
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
POSITION = str(REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml")
RUNS = int(os.environ.get("BENCH_RUNS", "20"))
TARGET = 2.5
SOLO = str(REPO / "tests" / "fixtures" / "solo" / "move.yaml")
# every command a player runs to answer something (the long-running and the build commands, serve,
# docs, sheet, check, catalog, are not short processes and have benchmarks of their own)
LINES = {
    "ask": ["ask", POSITION, "move", "humans", "from=example-a", "to=example-b", "units=2"],
    "ask-text": ["ask", POSITION, "--text", "may the humans move 2 units from region a to region b"],
    "lookup": ["lookup", "retreat from battle"],
    "legal": ["legal", POSITION, "humans"],
    "score": ["score", POSITION],
    "battle": ["battle", POSITION],
    "rule": ["rule", "game-goal"],
    "rules": ["rules"],
    "trogs": ["trogs", SOLO, "move"],
    "charts": ["charts", "range", "English longbow", "3"],
}
_COUNT = "import atexit, sys; atexit.register(lambda: print(len(sys.modules), file=sys.stderr)); from havoc.cli import main; sys.exit(main(sys.argv[1:]))"


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall and CPU time (user + system) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> int:
    script = Path(sys.executable).with_name("havoc")
    havoc = [str(script)] if script.exists() else [sys.executable, "-m", "havoc"]
    args = sys.argv[1:]
    against = [sys.executable, args[1]] if args[:1] == ["--against"] and len(args) == 2 else None
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["HAVOC_CACHE_DIR"] = cache
        lines = {"pass": [sys.executable, "-c", "pass"]} | {k: [*havoc, *v] for k, v in LINES.items()}
        if against is not None:
            lines |= {f"{k} (against)": [*against, *v] for k, v in LINES.items()}
        for cmd in lines.values():  # warm-up: bytecode and the caches
            timed(cmd, env)
        wall: dict[str, list[float]] = {k: [] for k in lines}
        cpu: dict[str, list[float]] = {k: [] for k in lines}
        for _ in range(RUNS):
            for name, cmd in lines.items():
                w, c = timed(cmd, env)
                wall[name].append(w)
                cpu[name].append(c)
        modules = {}
        for name, words in LINES.items():
            run = subprocess.run([sys.executable, "-c", _COUNT, *words], capture_output=True, text=True, env=env)
            modules[name] = run.stderr.strip().splitlines()[-1]
    bw, bc = statistics.median(wall["pass"]), statistics.median(cpu["pass"])
    print(f"python -c pass: wall {bw * 1000:.1f} ms, CPU {bc * 1000:.1f} ms (medians of {RUNS})")
    worst = 0.0
    for name in LINES:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        worst = max(worst, c / bc)
        before = ""
        if against is not None:
            aw, ac = statistics.median(wall[f"{name} (against)"]), statistics.median(cpu[f"{name} (against)"])
            before = f"  against: wall {aw / bw:.2f}x CPU {ac / bc:.2f}x"
        print(
            f"havoc {name:8} wall {w * 1000:6.1f} ms ({w / bw:.2f}x)  CPU {c * 1000:6.1f} ms ({c / bc:.2f}x)  "
            f"{modules[name]} modules{before}"
        )
    print(f"worst CPU ratio {worst:.2f}x (target <= {TARGET}x): {'met' if worst <= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
