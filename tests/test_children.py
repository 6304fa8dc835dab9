"""Children that die with their parent (:mod:`havoc.core.children`): what ``havoc docs`` starts (the
engine step's Python and Node through ``subprocess``, the Sphinx worker's forked children) ends
when ``havoc docs`` is SIGKILLed, which runs no code of its own to end them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PARENT = """
import os, subprocess, sys, time
from havoc.core import children
how = sys.argv[1]
if how == "popen":
    kid = subprocess.Popen(["sleep", "600"], **children.popen_options()).pid
else:  # a forked child, as the Sphinx worker forks one per language
    parent = os.getpid()
    kid = os.fork()
    if kid == 0:
        children.die_with_parent(parent)
        time.sleep(600)
        os._exit(0)
print(kid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize("how", ["popen", "fork"])
def test_a_child_dies_when_its_parent_is_killed(how: str) -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, how], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    kid = int(parent.stdout.readline())
    try:
        assert _alive(kid)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 30  # only against a hang: the kernel signals it at once
        while _alive(kid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(kid)
    finally:
        if _alive(kid):
            os.kill(kid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait()
