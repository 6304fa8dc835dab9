"""A ruleset's stored form: its files read once, their key, and the validated ruleset kept in the verified cache.

Validating the YAML is the slow part of a CLI call, and rule files change rarely. The key
is a digest of the very bytes the loader then parses (a :class:`Snapshot`), and of the
loader's own source, so an edit to a rule, a fact or the loader invalidates it, and an edit
made while a load runs can never leave the edited rules under the old key. Storage and
verification are :mod:`havoc.core.cache`'s.
"""

from __future__ import annotations

import os

from havoc import TYPE_CHECKING, __version__
from havoc.core import cache as store
from havoc.core.cache import cache_dir

if TYPE_CHECKING:
    from pathlib import Path

    from havoc.engine.rulebook.model import Ruleset

# Paths are strings here (os.path), made as pathlib would write them: a cached ruleset is found
# without importing pathlib (and urllib.parse and ipaddress with it). The loader, which runs
# only on a miss, gets them as Paths.
_CODE = store.sources(
    "havoc.engine.rulebook.model",
    "havoc.engine.rulebook.loader",
    "havoc.engine.rulebook.schema",
    "havoc.engine.rulebook.stored",
    "havoc.language.markup",
    "havoc.formats.yamlio",
    "havoc.core.cache",
)
# Where a ruleset's files are: its own top folder and these subfolders (never a recursive walk).
SUBFOLDERS = ("sections", "overlays", "variants", "charts")
MAX_FILES = 2_000


def _parts(path: str) -> list[str]:
    """The sort key pathlib gives a path (its parts), so that the key is the one it always was."""
    return path.split("/")


def listing(root: str | Path) -> list[str]:
    """The paths of the ruleset's files: the ``*.yaml`` of its top folder and :data:`SUBFOLDERS`."""
    top = os.fspath(root)
    paths: list[str] = []
    for folder in (top, *(os.path.join(top, s) for s in SUBFOLDERS)):
        try:
            # the names, not Path.glob: no pattern is compiled on every start-up
            paths.extend(sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".yaml")))
        except OSError:
            continue
        if len(paths) > MAX_FILES:
            break
    return paths[:MAX_FILES]


class Snapshot:
    """Every file of one ruleset, read once: the loader parses these bytes, the key hashes them."""

    def __init__(self, root: str | Path, paths: list[str] | None = None) -> None:
        """The files of ``root`` (``paths``: as :func:`listing` gave them just now)."""
        from havoc.core import safeio, sealed

        sealed.refuse(f"the rule files of {root}")
        self.root = root
        self._files: dict[str, bytes] = {}
        self._errors: dict[str, str] = {}
        self._as_paths: tuple[dict[Path, bytes], dict[Path, str]] | None = None
        for path in listing(root) if paths is None else paths:
            try:
                self._files[path] = safeio.read_bytes(path)
            except safeio.ReadError as exc:
                if os.path.lexists(path):
                    self._errors[path] = str(exc)

    def _paths(self) -> tuple[dict[Path, bytes], dict[Path, str]]:
        if self._as_paths is None:
            from pathlib import Path

            files = {Path(p): data for p, data in self._files.items()}
            self._as_paths = files, {Path(p): error for p, error in self._errors.items()}
        return self._as_paths

    @property
    def files(self) -> dict[Path, bytes]:
        """The bytes of each readable file, by its Path (for the loader)."""
        return self._paths()[0]

    @files.setter
    def files(self, files: dict[Path, bytes]) -> None:
        made = getattr(self, "_as_paths", None)  # (a test's snapshot made without __init__)
        self._as_paths = files, made[1] if made else {}

    @property
    def errors(self) -> dict[Path, str]:
        """Why each unreadable file could not be read, by its Path."""
        return self._paths()[1]

    @errors.setter
    def errors(self, errors: dict[Path, str]) -> None:
        made = getattr(self, "_as_paths", None)
        self._as_paths = (made[0] if made else {}), errors

    def glob(self, folder: Path) -> list[Path]:
        """The ``*.yaml`` files of ``folder`` (one of the ruleset's own folders), sorted."""
        return sorted(p for p in (*self.files, *self.errors) if p.parent == folder)

    def exists(self, path: Path) -> bool:
        return path in self.files or path in self.errors

    def key(self) -> str:
        chunks = [__version__.encode()]
        for path in sorted(self._files, key=_parts):
            chunks += [path.encode(), self._files[path]]
        for path in sorted(self._errors, key=_parts):
            chunks += [path.encode(), b"\0unreadable"]
        chunks.extend(store.code_bytes(code) for code in _CODE)
        return store.digest(*chunks)

    def content(self) -> str:
        """A hash of the rule files alone (their names within the folder and their bytes): the
        same for the same rules wherever they are read (a server, the in-browser bundle), unlike
        :meth:`key`, which also covers the code that reads them and where they lie."""
        top = os.fspath(self.root)
        chunks = []
        for path in sorted(self._files, key=_parts):
            chunks += [os.path.relpath(path, top).replace(os.sep, "/").encode(), self._files[path]]
        return store.digest(*chunks)


def keyed(root: str | Path, read: bool = False) -> tuple[Snapshot | None, str]:
    """The ruleset's key, and its files in ``root`` if they were read for it (``read``: always):
    a key the files' stat facts vouch for (:func:`havoc.core.cache.remembered`) reads none, and
    a caller that then misses the cache calls again with ``read``, so that what it builds and
    the key it stores it under come from the same bytes. In a sealed bundle, which ships no
    rule files (:mod:`havoc.core.sealed`), no files and the key the build recorded for them."""
    from havoc.core import sealed

    top = os.fspath(root)
    if sealed.active():
        return None, sealed.get("rules", top)
    paths = listing(root)
    if read:
        snapshot = Snapshot(root, paths)
        return snapshot, sealed.value("rules", top, snapshot.key)
    made: list[Snapshot] = []

    def key() -> str:
        made.append(Snapshot(root, paths))
        return made[0].key()

    found = sealed.value("rules", top, lambda: store.remembered(f"rules\0{__version__}\0{top}", [*paths, *_CODE], key))
    return (made[0] if made else None), found


def fingerprint(root: str | Path) -> str:
    """The key of the ruleset in ``root`` as its files are now."""
    return keyed(root)[1]


def read(root: str | Path, key: str) -> Ruleset | None:
    from havoc.engine.rulebook.model import Ruleset

    ruleset = store.get(f"rules-{os.path.basename(root)}", key, Ruleset)
    return ruleset if ruleset is not None and ruleset.fingerprint == key else None


def write(root: str | Path, ruleset: Ruleset) -> None:
    store.put(f"rules-{os.path.basename(root)}", ruleset.fingerprint, ruleset)


__all__ = ["Snapshot", "cache_dir", "fingerprint", "read", "write"]
