"""How long a whole ``havoc ask`` process takes, against ``python3 -c pass`` in the same run.

Both are timed interleaved (so load on the machine hits both alike), after a warm-up that fills
the caches a player's second question finds filled. Prints the medians, the ratio (target: at
most 3×) and ``-X importtime``'s most expensive imports of one ``havoc ask``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
POSITION = REPO / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml"
QUESTION = ["move", "humans", "from=example-a", "to=example-b", "units=2"]
RUNS = 25


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - started


def main() -> int:
    with tempfile.TemporaryDirectory() as cache:
        # As installed for a player: bytecode is written once and reused (this machine's shell sets
        # PYTHONDONTWRITEBYTECODE, which would make every run compile every module from source).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["HAVOC_CACHE_DIR"] = cache
        script = Path(sys.executable).with_name("havoc")  # the installed command a player runs
        ask = [str(script) if script.exists() else sys.executable, *([] if script.exists() else ["-m", "havoc"])]
        ask += ["ask", str(POSITION), *QUESTION]
        empty = [sys.executable, "-c", "pass"]  # the same interpreter (a pyenv shim would flatter us)
        for _ in range(2):  # warm-up: the rulebook, catalog and position caches
            timed(ask, env)
        bare: list[float] = []
        havoc: list[float] = []
        for _ in range(RUNS):
            bare.append(timed(empty, env))
            havoc.append(timed(ask, env))
        b, h = statistics.median(bare), statistics.median(havoc)
        print(f"python -c pass (same interpreter): median {b * 1000:.1f} ms")
        print(f"havoc ask (whole process, warm caches): median {h * 1000:.1f} ms")
        print(f"ratio: {h / b:.2f}x (target <= 3x)")
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "havoc", "ask", str(POSITION), *QUESTION],
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
