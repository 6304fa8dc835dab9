"""Print every performance figure the issues ask for: `make bench` or `python benchmarks/run.py`.

Each benchmark runs in its own process, so one's environment (a temporary rules folder, a
cache directory) or warm imports cannot change another's figures.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = [
    "bench_rulebook",
    "bench_startup",
    "bench_cli",
    "bench_ask",
    "bench_serve",
    "bench_serve_parts",
    "bench_hostile",
    "bench_site",
    "bench_sheet",
    "bench_search",
    "bench_engine",
]


def main() -> int:
    failed = 0
    for name in MODULES:
        script = HERE / f"{name}.py"
        if not script.exists():
            continue
        print(f"== {name} ==", flush=True)
        failed += subprocess.run([sys.executable, str(script)], check=False).returncode != 0
        print(flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
