"""The long fuzz campaign (`make fuzz`): at least 100,000 generated inputs, and what became of them.

Inputs are mutations of real ones (position files, questions, rule files, a Polish catalog,
cache entries) with nasty tokens spliced in: 30,000 ``[``, ``1.0e+300``, ``.nan``, invalid
UTF-8, aliases, broken quotes, cut files. Input ``i`` is drawn from ``Random(seed, i)``, so
any finding is reproduced with ``--start i --count 1``.

The inputs run in a worker process, so a segfault or a hang is counted, not fatal: the parent
restarts the worker after the input that killed it. A hang is an input that takes more than
2 s (an interval timer in the worker, and the parent's watchdog for time spent in C code).

Printed: inputs tried, accepted, clean errors, crashes (a Python exception other than havoc's
own errors: a traceback a user would see), signals, hangs, data lost (a translation gone, or
a second catalog update that changes something), impossible accepted (a position, ruleset or
answer holding a number no table can, or a cache entry served that is not what was stored).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"
HANG_SECONDS = 2.0
WATCHDOG_SECONDS = 30.0
KINDS = ["position"] * 4 + ["query"] * 2 + ["rule-file"] * 2 + ["catalog", "cache-file"]


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def generate(seed: int, i: int) -> tuple[str, Any]:
    """Input ``i`` of the campaign: (kind, value), the same on every run with the same seed."""
    import fuzz_targets as t

    rnd = random.Random(seed * 1_000_003 + i)
    kind = KINDS[i % len(KINDS)]
    if kind == "position":
        seed_bytes = rnd.choice(t.position_seeds())
        if rnd.random() < 0.4:
            return kind, t.mutate_structure(seed_bytes, rnd)
        return kind, t.mutate(seed_bytes, rnd)
    if kind == "query":
        return kind, t.mutate_words(rnd)
    if kind == "rule-file":
        return kind, (t.mutate(rnd.choice(t.rule_file_seeds()), rnd), rnd.randrange(2))
    if kind == "catalog":
        return kind, t.mutate(t.catalog_seed(), rnd)
    good = _good_entry()
    return kind, t.mutate(good, rnd) if rnd.random() < 0.9 else rnd.randbytes(rnd.randint(0, 200))


_GOOD: list[bytes] = []


def _good_entry() -> bytes:
    if not _GOOD:
        import fuzz_targets as t

        from havoc.core import cache

        cache.put("position", "fuzz", t.stored_position())
        _GOOD.append((cache.cache_dir() / "position-fuzz.bin").read_bytes())
    return _GOOD[0]


def run_one(kind: str, value: Any) -> str:
    import fuzz_targets as t

    from havoc.core import cache

    if kind == "position":
        return t.position(value)
    if kind == "query":
        return t.query(value)
    if kind == "rule-file":
        return t.rule_file(*value)
    if kind == "catalog":
        return t.catalog(value)
    return t.cache_file(value, cache.cache_dir())


def worker(seed: int, start: int, stop: int, findings: Path) -> int:
    """Run inputs start..stop-1, one line per input on stdout: ``<i> <outcome>``."""
    sys.path.insert(0, str(TESTS))
    sys.setrecursionlimit(10_000)
    signal.signal(signal.SIGALRM, _alarm)
    import fuzz_targets as t

    t.ruleset(), t.base_position(), t._mini_template(), _good_entry()  # warm: not part of any input's time
    out = sys.stdout
    for i in range(start, stop):
        try:
            kind, value = generate(seed, i)
        except Exception:  # the campaign's own bug, not havoc's: reported apart
            out.write(f"{i} generator generator-error\n")
            out.flush()
            continue
        signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
        try:
            outcome = run_one(kind, value)
        except Hang:
            outcome = "hang"
        except Exception:
            outcome = "crash"
            findings.mkdir(parents=True, exist_ok=True)
            (findings / f"crash-{seed}-{i}.txt").write_text(
                f"kind: {kind}\ninput: {value!r:.2000}\n\n{traceback.format_exc()}", encoding="utf-8"
            )
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if outcome in ("lost", "impossible", "hang"):
            findings.mkdir(parents=True, exist_ok=True)
            (findings / f"{outcome}-{seed}-{i}.txt").write_text(f"kind: {kind}\ninput: {value!r:.4000}\n")
        out.write(f"{i} {kind} {outcome}\n")
        out.flush()
    return 0


def campaign(seed: int, count: int, start: int, findings: Path) -> Counter[str]:
    """Run the inputs in worker processes; a worker killed by a signal or stuck is restarted."""
    totals: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    i = start
    end = start + count
    began = time.perf_counter()
    last_report = began
    while i < end:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(seed), str(i), str(end), str(findings)],
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        assert proc.stdout is not None
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            if not sel.select(timeout=WATCHDOG_SECONDS):
                proc.kill()  # stuck where the interval timer cannot reach (C code): a hang
                proc.wait()
                totals["hang"] += 1
                _note(findings, f"watchdog-{seed}-{i}.txt", generate_repr(seed, i))
                i += 1
                break
            line = proc.stdout.readline()
            if not line:
                code = proc.wait()
                if code != 0:  # died mid-input: a signal (segfault) or an abort
                    totals["signal" if code < 0 else "crash"] += 1
                    _note(findings, f"signal-{seed}-{i}.txt", f"exit {code}\n{generate_repr(seed, i)}")
                    i += 1
                break
            num, kind, outcome = line.split()
            totals[outcome] += 1
            kinds[kind] += 1
            i = int(num) + 1
            now = time.perf_counter()
            if now - last_report > 30:
                last_report = now
                done = i - start
                print(f"  … {done:,} inputs in {now - began:.0f} s", file=sys.stderr, flush=True)
        sel.close()
        proc.stdout.close()
    totals["_seconds"] = int(time.perf_counter() - began)
    for kind, n in kinds.items():
        totals[f"_kind:{kind}"] = n
    return totals


def generate_repr(seed: int, i: int) -> str:
    sys.path.insert(0, str(TESTS))
    try:
        kind, value = generate(seed, i)
    except Exception:
        return f"the generator itself failed on input {i}:\n{traceback.format_exc()}"
    return f"kind: {kind}\ninput: {value!r:.4000}\n"


def _note(findings: Path, name: str, text: str) -> None:
    findings.mkdir(parents=True, exist_ok=True)
    (findings / name).write_text(text, encoding="utf-8")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        seed, start, stop = (int(x) for x in sys.argv[2:5])
        return worker(seed, start, stop, Path(sys.argv[5]))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="inputs to try (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=8, help="campaign seed (default: %(default)s)")
    parser.add_argument("--start", type=int, default=0, help="first input number (to reproduce one finding)")
    parser.add_argument("--findings", type=Path, default=Path("build") / "fuzz", help="where findings are written")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="havoc-fuzz-") as tmp:
        os.environ["HAVOC_CACHE_DIR"] = str(Path(tmp) / "cache")  # never the user's cache
        totals = campaign(args.seed, args.count, args.start, args.findings)
    tried = sum(v for k, v in totals.items() if not k.startswith("_") and k != "generator-error")
    report = {
        "inputs tried": tried,
        "accepted": totals["accepted"],
        "clean errors": totals["refused"],
        "crashes (tracebacks)": totals["crash"],
        "signals": totals["signal"],
        f"hangs (> {HANG_SECONDS:g} s)": totals["hang"],
        "data lost": totals["lost"],
        "impossible accepted": totals["impossible"],
        "generator errors": totals["generator-error"],
        "seconds": totals["_seconds"],
        "by kind": {k.split(":", 1)[1]: v for k, v in sorted(totals.items()) if k.startswith("_kind:")},
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            if isinstance(value, dict):
                value = ", ".join(f"{k} {v:,}" for k, v in value.items())
            elif isinstance(value, int):
                value = f"{value:,}"
            print(f"{key:>22}: {value}")
        if any(totals[k] for k in ("crash", "signal", "hang", "lost", "impossible")):
            print(f"findings written to {args.findings}/ (reproduce one: --start N --count 1)")
    bad = sum(totals[k] for k in ("crash", "signal", "hang", "lost", "impossible"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
