"""One verified disk cache for everything havoc derives from files: rulebooks, catalogs, positions.

A cache entry is only as trustworthy as the folder it sits in, so:

- **Key and content from the same bytes.** Callers read their sources once, compute the key
  with :func:`digest` from those bytes and build the value from the same bytes; an edit made
  during a load can never be stored under the key of the text before it.
- **Verified payload.** Each file is ``MAGIC + tag + payload``, the tag a keyed BLAKE2b of the
  kind, the key and the payload. The key (32 random bytes) is made once per user, kept in the
  cache folder with mode 0600; the folder is 0700. A flipped bit, a truncated file, an entry
  from another user or one planted by anyone without the key fails the tag and is rebuilt.
- **Nothing executes on load.** Plain data (dicts, lists, tuples, strings, numbers: a search
  index, a catalog) is stored with :mod:`marshal`, which builds values and calls nothing, and
  is the fastest to read. Anything else (the model's NamedTuples, a position) is a pickle,
  read by an unpickler that can only build havoc's own record classes and plain containers:
  even a validly tagged entry cannot name ``os.system`` or any other callable. The tag keeps
  out corruption; the format (marshal, or the allow-list) keeps out code. Either alone would
  leave a gap. The payload's first byte says which format it is.
- **Silent rebuild.** Any unreadable, corrupt, foreign or unexpected entry counts as a miss.
  A cache that cannot be written (read-only home, odd permissions) is simply not used.
"""

from __future__ import annotations

import contextlib
import gc
import io
import marshal
import os
import stat

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, TypeVar

    T = TypeVar("T")


def _pickle() -> Any:
    """The C pickle module alone, imported when an entry is a pickle (a search index, a catalog
    never needs it): pickle.py imports re, struct and a Jython probe, milliseconds of a short
    process that reads one cached ruleset."""
    try:
        import _pickle as pickle
    except ImportError:  # pragma: no cover - other Python builds
        import pickle  # type: ignore[no-redef]
    return pickle


try:  # the C module alone: hashlib would load OpenSSL, milliseconds on every command
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Python builds
    from hashlib import blake2b

MAGIC = b"havoc-cache-3\n"
MARSHALLED, PICKLED = b"M", b"P"  # the payload's first byte: its format
TAG_SIZE = 32
KEY_FILE = "key"
MAX_ENTRY_BYTES = 64_000_000


# Modules whose classes a cache payload may build; every one is plain data (NamedTuple,
# dataclass, Enum). Functions and anything outside this list are refused by find_class.
_ALLOWED_MODULES = ("havoc.",)
_ALLOWED_BUILTINS = {("builtins", "set"), ("builtins", "frozenset"), ("builtins", "slice")}


def cache_dir() -> Path:
    """``$HAVOC_CACHE_DIR``, else ``$XDG_CACHE_HOME/havoc``, else ``~/.cache/havoc``."""
    from pathlib import Path

    return Path(_folder())


def _folder() -> str:
    """:func:`cache_dir` as a string (os.path, not pathlib: a cache hit never imports pathlib)."""
    from havoc.safeio import plain_path

    env = os.environ.get("HAVOC_CACHE_DIR")
    if env:
        return plain_path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return plain_path(os.path.join(base, "havoc"))


def digest(*chunks: bytes) -> str:
    """A content key: BLAKE2b over the chunks, each length-prefixed so boundaries count."""
    h = blake2b(digest_size=20)
    for chunk in chunks:
        h.update(len(chunk).to_bytes(8, "little"))
        h.update(chunk)
    return h.hexdigest()


_keys: dict[str | Path, bytes | None] = {}


def _safe_folder(folder: str | Path) -> bool:
    """The folder is ours and closed to others (0700); made so when it is new."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return False
        if stat.S_IMODE(st.st_mode) & 0o077:
            os.chmod(folder, 0o700)
        return True
    except OSError:
        return False


def _user_key(folder: str | Path) -> bytes | None:
    """The per-user secret of this cache folder (made on first use), or None: no caching."""
    if folder in _keys:
        return _keys[folder]
    key: bytes | None = None
    if _safe_folder(folder):
        path = os.path.join(folder, KEY_FILE)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            try:
                st = os.fstat(fd)
                if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) & 0o077 == 0:
                    data = os.read(fd, 64)
                    key = data if len(data) == 32 else None
            finally:
                os.close(fd)
        except FileNotFoundError:
            key = _new_key(path)
        except OSError:
            key = None
    _keys[folder] = key
    return key


def _new_key(path: str) -> bytes | None:
    secret = os.urandom(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        _keys.pop(os.path.dirname(path), None)
        try:
            with open(path, "rb") as fh:
                return fh.read()[:32] or None
        except OSError:
            return None
    except OSError:
        return None
    with os.fdopen(fd, "wb") as fh:
        fh.write(secret)
    return secret


def _tag(secret: bytes, kind: str, key: str, payload: bytes) -> bytes:
    h = blake2b(key=secret, digest_size=TAG_SIZE)
    h.update(f"{kind}\0{key}\0".encode())
    h.update(payload)
    return h.digest()


def _entry(folder: str | Path, kind: str, key: str) -> str:
    return os.path.join(folder, f"{kind}-{key}.bin")


_unpicklers: list[type] = []


def _unpickler() -> type:
    """The unpickler that builds only havoc's own data classes and plain containers (made once)."""
    if not _unpicklers:
        pickle = _pickle()

        class Unpickler(pickle.Unpickler):  # type: ignore[misc,name-defined]
            def find_class(self, module: str, name: str) -> Any:
                if (module, name) in _ALLOWED_BUILTINS:
                    return super().find_class(module, name)
                if module.startswith(_ALLOWED_MODULES) and "." not in name:
                    obj = super().find_class(module, name)
                    if isinstance(obj, type) and not issubclass(obj, BaseException):
                        return obj
                raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a havoc cache")

        _unpicklers.append(Unpickler)
    return _unpicklers[0]


def get(kind: str, key: str, expected: type[T]) -> T | None:
    """The cached value of ``kind``/``key`` if it is present, intact, ours and an ``expected``."""
    folder = _folder()
    secret = _user_key(folder)
    if secret is None:
        return None
    path = _entry(folder, kind, key)
    try:
        from havoc import safeio

        data = safeio.read_bytes(path, MAX_ENTRY_BYTES)
    except Exception:
        return None
    head = len(MAGIC) + TAG_SIZE
    payload = data[head:]
    if not data.startswith(MAGIC) or len(data) < head or data[len(MAGIC) : head] != _tag(secret, kind, key, payload):
        with contextlib.suppress(OSError):
            os.unlink(path)
        return None
    # The cyclic garbage collector is paused while the entry is read: building its many
    # thousands of containers (none of them garbage) would otherwise start a collection every
    # few hundred, and reading a search index took three times as long.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if payload[:1] == MARSHALLED:
            value = marshal.loads(memoryview(payload)[1:])
        elif payload[:1] == PICKLED:
            value = _unpickler()(io.BytesIO(memoryview(payload)[1:])).load()
        else:
            return None
    except Exception:  # a tagged but unusable entry (an older model, say) is just a miss
        return None
    finally:
        if collecting:
            gc.enable()
    return value if isinstance(value, expected) else None


def put(kind: str, key: str, value: Any) -> None:
    """Store ``value`` (atomically, 0600); a cache that cannot be written is skipped."""
    folder = _folder()
    secret = _user_key(folder)
    if secret is None:
        return
    try:
        payload = MARSHALLED + marshal.dumps(value)
    except ValueError:  # not plain data (marshal refuses class instances, tuple subclasses)
        try:
            payload = PICKLED + _pickle().dumps(value, protocol=5)  # the highest this Python reads
        except Exception:
            return
    from havoc import safeio

    with contextlib.suppress(safeio.OutputError):
        safeio.write_bytes(_entry(folder, kind, key), MAGIC + _tag(secret, kind, key, payload) + payload, mode=0o600)
