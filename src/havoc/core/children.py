"""Child processes that die with the process that started them.

``havoc docs`` starts Sphinx processes, a worker that forks one child per language, Python to
warm the engine's cache, Node to compile its bytecode. When ``havoc docs`` itself is killed
(SIGKILL, an out-of-memory kill, a closed terminal's SIGHUP to it alone) nothing in it runs any
more, so it cannot end them: each child asks the kernel to send it SIGKILL when its parent goes
(Linux's ``prctl(PR_SET_PDEATHSIG)``), set in the child itself between fork and exec (it
survives exec) and again in each forked child (a fork clears it). Where the system has no such
call (not Linux), children are started as before.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

PR_SET_PDEATHSIG = 1


def _load_prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl()  # loaded here, once: the child between fork and exec only calls it


def die_with_parent(parent: int | None = None) -> None:
    """In a child: be killed when the parent ends; end now if it has ended already (between the
    fork and this call, when the signal would never come). ``parent``: the parent's process id
    as it was before the fork (default: the present parent)."""
    if _PRCTL is None:
        return
    expected = os.getppid() if parent is None else parent
    _PRCTL(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != expected:
        os._exit(1)


def popen_options() -> dict[str, Any]:
    """``subprocess`` keyword arguments for a child that dies with this process (none off Linux).

    The hook runs in the child between fork and exec and only calls ``prctl`` (loaded above)
    and ``getppid``: no import, no lock, so other threads of this process cannot block it."""
    if _PRCTL is None:
        return {}
    parent = os.getpid()
    return {"preexec_fn": lambda: die_with_parent(parent)}
