"""The files of a ruleset, read once; their key; and the verified cache of validated rulesets.

Validating the YAML is the slow part of a CLI call, and rule files change rarely. The key
is a digest of the very bytes the loader then parses (a :class:`Snapshot`), and of the
loader's own source, so an edit to a rule, a fact or the loader invalidates it, and an edit
made while a load runs can never leave the edited rules under the old key. Storage and
verification are :mod:`havoc.cache`'s.
"""

from __future__ import annotations

import os
from pathlib import Path

from havoc import __version__
from havoc import cache as store
from havoc.cache import cache_dir

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)

if TYPE_CHECKING:
    from havoc.rulebook.model import Ruleset

_CODE = [Path(__file__).with_name(n) for n in ("model.py", "loader.py", "schema.py", "cache.py")] + [
    Path(__file__).parent.parent / n for n in ("markup.py", "yamlio.py", "cache.py")
]
# Where a ruleset's files are: its own top folder and these subfolders (never a recursive walk).
SUBFOLDERS = ("sections", "overlays", "variants", "charts")
MAX_FILES = 2_000


class Snapshot:
    """Every file of one ruleset, read once: the loader parses these bytes, the key hashes them."""

    def __init__(self, root: Path) -> None:
        from havoc import safeio

        self.root = root
        self.files: dict[Path, bytes] = {}
        self.errors: dict[Path, str] = {}
        paths: list[Path] = []
        for folder in (root, *(root / s for s in SUBFOLDERS)):
            try:
                # the names, not Path.glob: no pattern is compiled on every start-up
                paths.extend(sorted(folder / n for n in os.listdir(folder) if n.endswith(".yaml")))
            except OSError:
                continue
            if len(paths) > MAX_FILES:
                break
        for path in paths[:MAX_FILES]:
            try:
                self.files[path] = safeio.read_bytes(path)
            except safeio.ReadError as exc:
                if path.exists() or path.is_symlink():
                    self.errors[path] = str(exc)

    def glob(self, folder: Path) -> list[Path]:
        """The ``*.yaml`` files of ``folder`` (one of the ruleset's own folders), sorted."""
        return sorted(p for p in (*self.files, *self.errors) if p.parent == folder)

    def exists(self, path: Path) -> bool:
        return path in self.files or path in self.errors

    def key(self) -> str:
        chunks = [__version__.encode()]
        for path in sorted(self.files):
            chunks += [str(path).encode(), self.files[path]]
        for path in sorted(self.errors):
            chunks += [str(path).encode(), b"\0unreadable"]
        for code in _CODE:
            try:
                chunks.append(code.read_bytes())
            except OSError:
                chunks.append(b"\0missing")
        return store.digest(*chunks)


def fingerprint(root: Path) -> str:
    """The key of the ruleset in ``root`` as its files are now."""
    return Snapshot(root).key()


def read(root: Path, key: str) -> Ruleset | None:
    from havoc.rulebook.model import Ruleset

    ruleset = store.get(f"rules-{root.name}", key, Ruleset)
    return ruleset if ruleset is not None and ruleset.fingerprint == key else None


def write(root: Path, ruleset: Ruleset) -> None:
    store.put(f"rules-{root.name}", ruleset.fingerprint, ruleset)


__all__ = ["Snapshot", "cache_dir", "fingerprint", "read", "write"]
