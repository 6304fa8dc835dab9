"""Cache of validated rulesets, keyed by the content of every rule file.

Validating the YAML is the slow part of a CLI call, and rule files change rarely. The cache
key is a hash of the rule files' bytes and of the loader's own source, so any edit to a rule,
a fact or the loader invalidates it; a stale or unreadable cache entry is just rebuilt.
"""

from __future__ import annotations

import os
import pickle
import zlib
from pathlib import Path

from havoc import __version__
from havoc.rulebook.model import Ruleset

_CODE = [Path(__file__).with_name(n) for n in ("model.py", "loader.py", "schema.py", "cache.py")] + [
    Path(__file__).parent.parent / n for n in ("markup.py", "yamlio.py")
]


def cache_dir() -> Path:
    env = os.environ.get("HAVOC_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "havoc"


def fingerprint(root: Path) -> str:
    """A key for every file the ruleset is read from, and for the code that reads it.

    Each file contributes its path, size and CRC-32: enough to notice any edit, and zlib is
    already loaded at start-up where hashlib's OpenSSL binding would add milliseconds to every
    command.
    """
    parts = [__version__]
    files = [*sorted(root.rglob("*.yaml")), root.parent / "facts.yaml", *_CODE]
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            parts.append(f"{path.name}:missing")
            continue
        parts.append(f"{path.relative_to(path.anchor)}:{len(data)}:{zlib.crc32(data):08x}")
    whole = "\n".join(parts).encode()
    return f"{zlib.crc32(whole):08x}{zlib.adler32(whole):08x}{len(whole):x}"


def read(root: Path, key: str) -> Ruleset | None:
    path = cache_dir() / f"{root.name}-{key}.pickle"
    try:
        with path.open("rb") as fh:
            ruleset = pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return ruleset if isinstance(ruleset, Ruleset) and ruleset.fingerprint == key else None


def write(root: Path, ruleset: Ruleset) -> None:
    """Store atomically; a cache that cannot be written is simply skipped."""
    import tempfile

    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(ruleset, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, folder / f"{root.name}-{ruleset.fingerprint}.pickle")
    except OSError:
        pass
