"""The rules assistant's speed (issue 5): one `havoc ask` process, answers per second, legal actions.

Targets: a whole `havoc ask` process at most 3× `python3 -c pass`; at least 50,000 "can this
Unit move there" answers per second in-process on a 20-Region position (issue 26; it was
20,000); the legal-actions list in at most 1 ms. The answer rate is also given per CPU second
(what a machine shared with other work disturbs least).
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
TWENTY = REPO / "tests" / "fixtures" / "assistant" / "twenty.yaml"
ASK = ["ask", str(TWENTY), "move", "pilgrims", "from=example-08", "to=example-09", "units=2"]


def _env(cache: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["HAVOC_CACHE_DIR"] = cache
    # Measure what users get: compiled bytecode cached in __pycache__ (this sandbox sets
    # PYTHONDONTWRITEBYTECODE, which would recompile every module on every run).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _median_run(cmd: list[str], env: dict[str, str], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def process_ratio(repeat: int = 15) -> tuple[float, float]:
    """Median wall time of a whole `havoc ask …` (the installed command, as bench_startup times
    it, here on the 20-Region table) and of `python -c pass`, warm caches."""
    from bench_startup import havoc_command

    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        havoc = [*havoc_command(), *ASK]
        for _ in range(2):  # fill the rulebook cache and __pycache__ once
            subprocess.run(havoc, env=env, capture_output=True, check=True)
        bare = _median_run([sys.executable, "-c", "pass"], env, repeat)
        ask = _median_run(havoc, env, repeat)
    return ask, bare


def moves_per_second(seconds: float = 1.0, serialised: bool = False) -> tuple[float, float]:
    """In-process answers to "can this Unit move there?" on the 20-Region position: per second
    of wall time, and per CPU second. An answer's words (the question restated, the cited rules,
    the fixes) are worked out when it is shown; ``serialised`` also makes each answer's JSON
    values (``to_dict``), as ``havoc ask --json`` and the server do."""
    from havoc.assistant import api
    from havoc.games.cry_havoc.query import Query

    rs, pos = api.prepare(TWENTY)
    pairs = [
        (a, b)
        for a in sorted(pos.regions)
        if pos.regions[a].units.get("pilgrims")
        for b in sorted(pos.regions[a].neighbours)
    ]
    queries = [Query(kind="move", faction="pilgrims", frm=a, to=b, units=1) for a, b in pairs]
    for q in queries:  # warm: compile the checks, render the rule texts once
        api.answer_for(rs, pos, q)
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        if serialised:
            for q in queries:
                api.answer_for(rs, pos, q).to_dict()
        else:
            for q in queries:
                api.answer_for(rs, pos, q)
        n += len(queries)
    return n / (time.perf_counter() - t0), n / (time.process_time() - c0)


def legal_ms(repeat: int = 300) -> float:
    """Median time of the legal-actions list for the player whose turn it is."""
    from havoc.assistant import api
    from havoc.games.cry_havoc.query import Query

    rs, pos = api.prepare(TWENTY)
    q = Query(kind="legal", faction=pos.turn)
    api.answer_for(rs, pos, q)
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        api.answer_for(rs, pos, q)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000


def main() -> None:
    ask, bare = process_ratio()
    ratio = ask / bare
    print(
        f"havoc ask (whole process):      {ask * 1000:7.1f} ms   python3 -c pass: {bare * 1000:.1f} ms   "
        f"ratio {ratio:.2f}× (target ≤ 3×) {'ok' if ratio <= 3 else 'MISSED'}"
    )
    rate, cpu_rate = moves_per_second()
    print(
        f"can this Unit move there:       {rate:9,.0f} answers/s on a 20-Region position "
        f"({cpu_rate:,.0f} per CPU second) (target ≥ 50,000) {'ok' if rate >= 50_000 else 'MISSED'}"
    )
    rate, cpu_rate = moves_per_second(serialised=True)
    print(f"  ... with each answer's JSON:  {rate:9,.0f} answers/s ({cpu_rate:,.0f} per CPU second)")
    ms = legal_ms()
    print(f"legal actions list:             {ms:7.3f} ms (target ≤ 1 ms) {'ok' if ms <= 1 else 'MISSED'}")


if __name__ == "__main__":
    main()
