"""The names a typed sentence is read against are in one order whatever the hash seed.

Two names of one length read at one place: the first in the list wins. Ordered by a set's
iteration, that winner (and with it an answer) changed from run to run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "assistant" / "leave-8-vs-3.yaml"

PROGRAM = f"""
import json
from havoc.games.cry_havoc import position_read, understand
pos = position_read.load({str(FIXTURE)!r})
print(json.dumps([understand.names(), understand._made_names(pos, ("example-a", "example-b", "foglands"))]))
"""


def _names_with_seed(seed: str) -> list[object]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_the_reading_names_do_not_follow_the_hash_seed() -> None:
    first = _names_with_seed("1")
    assert first[0] and first[1], "no names made"
    for seed in ("2", "3"):
        assert _names_with_seed(seed) == first, f"the names' order changed with PYTHONHASHSEED={seed}"
