"""A sealed bundle: what a checkout derives from its sources on each start, derived once by the build.

The in-browser engine's bundle ships bytecode and a verified cache, not the sources they were
made from (a module's ``.py`` beside its ``.pyc``, the catalogs' ``.po``, the rules' YAML): the
phone never parses them, and they were a third of the bundle. What havoc otherwise reads from
those sources on every start (the keys of the cache entries, made from their bytes; which
rulesets, games and question kinds there are, found by listing their files) the build works
out once, in the staged bundle with every source present and by this very code, and writes to
:data:`MANIFEST`; the engine reads it from there (:func:`open_manifest`, called by
``webapi.setup``). A checkout (the command line, ``havoc serve``) has no manifest and goes on
reading its files, as before.

Trust: the manifest and the cache entries it names sit inside the bundle, which is verified as
a whole (the service worker checks it against the SHA-256 ``sw.js`` lists, the engine's worker
against ``engine.json``'s, and a memory snapshot is kept under that digest), so they are exactly
as trustworthy as the bundle's code itself; the cache still reads only marshalled data and
havoc's own records, never code, and checks each entry's tag, as everywhere.

A sealed engine never falls back on the files: a value the manifest lacks, or a source read for
a key (:func:`refuse`), is a :class:`SealedError`, so a bundle that misses something fails
loudly (in the build's own run, in the tests) instead of answering from an empty catalog or
another entry.
"""

from __future__ import annotations

import os

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

MANIFEST = "sealed.json"  # in the bundle's top folder, beside rules/, locales/ and cache/
FORMAT = 1

# kind -> name -> value: the manifest read (sealed), or what this process worked out while
# recording (the build's warm-up); both None in a checkout, which neither reads nor records.
_sealed: list[dict[str, dict[str, Any]]] = []
_recording: list[dict[str, dict[str, Any]]] = []


class SealedError(RuntimeError):
    """A sealed bundle lacks something the engine asked for: a build error, never the user's."""


def open_manifest(root: str) -> bool:
    """Read ``root``'s manifest, if it has one: from now on the engine takes its keys from it.
    Whether there was one."""
    import json  # only here: a checkout, which has no manifest, never imports it for this

    path = os.path.join(root, MANIFEST)
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        raise SealedError(f"{path} cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("values"), dict):
        raise SealedError(f"{path} is not a sealed bundle's manifest of format {FORMAT}")
    _sealed[:] = [data["values"]]
    return True


def active() -> bool:
    """Whether this engine runs from a sealed bundle (its sources are not there to read)."""
    return bool(_sealed)


def get(kind: str, name: str) -> Any:
    """The value the build recorded for ``kind``/``name``; SealedError when it recorded none."""
    found = _sealed[0].get(kind, {}) if _sealed else {}
    if name not in found:
        raise SealedError(f"the sealed bundle has no {kind} for {name!r}: the build's warm-up never asked for it")
    return found[name]


def names(kind: str) -> list[str]:
    """The names the manifest records a ``kind`` for (the rulesets it holds)."""
    return sorted(_sealed[0].get(kind, {})) if _sealed else []


def value(kind: str, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, recorded when the build is recording; from the manifest when sealed. The
    value must be JSON (strings, lists: a key, a listing)."""
    if _sealed:
        found: T = get(kind, name)
        return found
    made = compute()
    if _recording:
        _recording[0].setdefault(kind, {})[name] = made
    return made


def refuse(what: str) -> None:
    """SealedError when sealed: ``what`` (a source read for a key) is not in the bundle, and
    reading whatever file is there instead would key the wrong entry."""
    if _sealed:
        raise SealedError(f"a sealed bundle does not read {what}: its key must come from {MANIFEST}")


def record() -> None:
    """Record every :func:`value` from now on (the build, warming the staged bundle)."""
    _recording[:] = [{}]


def write(root: str) -> str:
    """Write what was recorded to ``root``'s manifest (sorted: the same bundle byte for byte)."""
    import json

    if not _recording:
        raise SealedError("nothing was recorded")
    path = os.path.join(root, MANIFEST)
    text = json.dumps({"format": FORMAT, "values": _recording[0]}, indent=0, sort_keys=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text + "\n")
    return path
