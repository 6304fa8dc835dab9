"""Print every performance figure the issues ask for: `make bench` or `python benchmarks/run.py`."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

MODULES = ["bench_rulebook", "bench_ask", "bench_site", "bench_sheet"]


def main() -> int:
    for name in MODULES:
        if not (Path(__file__).parent / f"{name}.py").exists():
            continue
        print(f"== {name} ==")
        importlib.import_module(name).main()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
