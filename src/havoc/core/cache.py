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
  is the fastest to read. havoc's own records (the model's NamedTuples, a position's
  ``@record`` classes, a Ruleset) are marshalled as plain data too, each record as its class's
  place in a list of class names and its fields (:func:`_encode`); reading one builds only
  classes of havoc's own modules, found by name (never a function, never another module's
  class), the way pickle would build them (a tuple's fields; a record's ``__setstate__``).
  Anything else is a pickle, read by an unpickler with the same allow-list: even a validly
  tagged entry cannot name ``os.system`` or any other callable. The tag keeps out
  corruption; the format (marshal, or the allow-list) keeps out code. Either alone would
  leave a gap. The payload's first byte says which format it is. (A short ``havoc ask``
  reads its ruleset and position without importing pickle, which imports ``functools`` and
  ``collections``: milliseconds of a process that answers in tens.)
- **Silent rebuild.** Any unreadable, corrupt, foreign or unexpected entry counts as a miss.
  A cache that cannot be written (read-only home, odd permissions) is simply not used.
- **Bounded.** Every edit of a rule and every new havoc writes new keys, and nothing reads the
  old ones again, so a write (a miss: the rare, slow path) prunes the folder at most once an
  hour (:func:`prune`): an entry nobody read or wrote for :data:`MAX_AGE` goes, and then the least
  recently used go until the folder holds at most :data:`MAX_TOTAL_BYTES`. A hit re-dates its
  entry at most once a day, so what any process (another checkout's havoc, too) still uses
  stays. Removing is an unlink: a reader that has the file open reads it whole, one that comes
  later finds no file and rebuilds, as on any miss.
- **Other havocs' entries are left alone.** Checkouts of different code may share one folder.
  An entry in another format (another ``MAGIC``) is only a miss, never deleted on sight: an
  older havoc that deleted the newer format's entries made Polish catalogs vanish from a shared
  cache while two checkouts took turns rebuilding them. Only an entry of our format whose tag
  fails (damage, a plant) is removed when read.
"""

from __future__ import annotations

import gc
import io
import marshal
import os
import stat
import sys

import havoc
from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
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
MARSHALLED, RECORDS, PICKLED = b"M", b"R", b"P"  # the payload's first byte: its format
TAG_SIZE = 32
KEY_FILE = "key"
STAMP_FILE = "pruned"  # its date: when the folder was last pruned
MAX_ENTRY_BYTES = 64_000_000
MAX_AGE = 14 * 86400  # seconds: an entry unused for this long is removed
MAX_TOTAL_BYTES = 256_000_000  # the folder's entries beyond this go, least recently used first
PRUNE_EVERY = 3600  # seconds between two prunings of one folder
FRESHEN_AFTER = 86400  # a hit re-dates an entry older than this (its date says when it was last used)
STALE_TEMP = 86400  # a writer's temporary file this old was left by a process that died


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
    from havoc.core.safeio import plain_path

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


def sources(*modules: str) -> list[str]:
    """The files of havoc's ``modules`` (dotted names, which tools and scripts/regroup.py can
    read), found from the package's folder without importing them (or importlib)."""
    src = os.path.dirname(os.path.dirname(havoc.__file__))  # __file__ as given: the key is made of it
    return [os.path.join(src, *name.split(".")) + ".py" for name in modules]


def code_bytes(path: str | Path) -> bytes:
    """The bytes of the code at ``path`` (a module's ``__file__``), for the key of an entry that
    code makes: checkouts of different code may share the cache folder, and one must never be
    answered from (or write over) an entry the other made in its own way. A sealed bundle ships
    no source to read (its keys come from its manifest): SealedError there."""
    from havoc.core import sealed

    sealed.refuse(f"the source {path}")
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return b"\0missing"


# A file whose last change (ctime, which no user can set back) is younger than this is not
# vouched for by its stat facts: a write in the same clock tick as the facts were taken could
# leave them as they were (git's "racily clean" files). Nanoseconds.
TRUST_AFTER = 2_000_000_000
REMEMBERED = "remembered"  # the kind of the entries :func:`remembered` keeps


def _facts(paths: Sequence[str | Path]) -> bytes | None:
    """What a file's stat says of each of ``paths`` (its size, change and modification times,
    inode and device; None for one that is not there), or None when they cannot vouch for its
    bytes: a file changed less than :data:`TRUST_AFTER` ago, or a system whose ctime is not
    the time of the last change (Windows': its creation)."""
    if os.name != "posix":
        return None
    from time import time_ns

    recent = time_ns() - TRUST_AFTER
    facts: list[Any] = []
    for name in paths:
        path = os.fspath(name)
        try:
            st = os.stat(path)
        except OSError:
            facts.append((path, None))
            continue
        if st.st_ctime_ns > recent or st.st_mtime_ns > recent:
            return None
        facts.append((path, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev))
    return marshal.dumps(facts)


def remembered(what: str, paths: Sequence[str | Path], compute: Callable[[], str]) -> str:
    """``compute()``, a key made of the bytes of the files at ``paths`` read now (and of nothing
    else that can change but ``what``, which names it), or the key it gave before for these very
    files, as their stat facts vouch.

    Reading and hashing the files a key is made of (the rules, the catalogs, the code that reads
    them: a megabyte for ``havoc lookup``) was most of what a short process did besides
    importing. A key computed is remembered in the verified cache (tagged like any entry; a
    string, read with marshal) under the files' stat facts (:func:`_facts`), taken before the
    files were read and the same again after, and only for files last changed well before
    that: any later write of a file changes its ctime (set by the system to the time of the
    write, never by its owner), so facts once seen again mean the same bytes. Where the facts
    cannot vouch (a file just written, another system) the key is computed every time, as
    before. On a miss the caller still builds from bytes it reads itself, under the key of
    those bytes."""
    facts = _facts(paths)
    if facts is None:
        return compute()
    name = digest(what.encode(), facts)
    found = get(REMEMBERED, name, str)
    if found is not None:
        return found
    made = compute()
    if _facts(paths) == facts:  # nothing changed while compute() read them
        put(REMEMBERED, name, made)
    return made


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


# The records format: ``marshal.dumps((tuple_classes, state_classes, is_node, root))``, the
# class lists as (module, name) pairs. A value of plain data is stored as itself; a value
# holding a record is a node, a tuple whose first item says what it is (``wrapped``: which of
# its items are nodes themselves; a value met twice is one object again, as pickle keeps it):
_RECORD = 0  # (0, class, fields, wrapped): a NamedTuple of tuple_classes[class]
_STATEFUL = 1  # (1, class, state, is_node): state_classes[class] given its __getstate__()
_DICT = 2  # (2, keys, values, wrapped)
_LIST = 3  # (3, items, wrapped)
_TUPLE = 4  # (4, items, wrapped)
_FIRST = 5  # (5, slot, node): a node met more than once, kept in a slot when first read
_AGAIN = 6  # (6, slot): that node again
_PLAIN = frozenset({str, int, float, bool, type(None), bytes, complex})
_BUILTIN = (str, int, float, bytes, complex, tuple, list, dict, set, frozenset)


class _Encoder:
    """A value as plain data for the records format; ValueError for anything it cannot store as
    pickle would (a set of records, a record as a key, a cycle, a class of another module)."""

    def __init__(self, value: Any) -> None:
        self.classes: tuple[dict[type, int], dict[type, int]] = ({}, {})
        self.seen: dict[int, int] = {}  # id -> times met (each record and container)
        self.slots: dict[int, int] = {}  # id -> slot, for what is met more than once
        self.keep: list[Any] = []
        self.states: dict[int, Any] = {}  # id -> the state a stateful record gave
        self._count(value, set())
        self.wrapped, self.root = self._encode(value)

    def payload(self) -> bytes:
        tables = tuple(tuple((c.__module__, c.__qualname__) for c in table) for table in self.classes)
        return marshal.dumps((*tables, self.wrapped, self.root))

    @staticmethod
    def _kind(cls: type) -> int | None:
        """_RECORD, _STATEFUL or None (plain data or a container) for a class; ValueError for others."""
        if cls in _PLAIN or cls in (dict, list, tuple, set, frozenset):
            return None
        if not cls.__module__.startswith(_ALLOWED_MODULES) or "." in cls.__qualname__:
            raise ValueError(cls)
        own = cls.__dict__
        if issubclass(cls, tuple) and "__getnewargs__" in own and "_fields" in own:
            return _RECORD  # a NamedTuple class itself (a subclass of one may hold more)
        plain = cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__  # type: ignore[comparison-overlap]
        if plain and "__setstate__" in own and "__getstate__" in own and not issubclass(cls, _BUILTIN):
            return _STATEFUL  # (a str or dict subclass holds what __getstate__ may not give)
        raise ValueError(cls)

    def _count(self, value: Any, active: set[int]) -> None:
        cls = type(value)
        if cls in _PLAIN:
            return
        kind = self._kind(cls)
        if id(value) in active:
            raise ValueError("a cycle")
        n = self.seen[id(value)] = self.seen.get(id(value), 0) + 1
        if n > 1:
            return
        active.add(id(value))
        self.keep.append(value)  # ids stay unique while the value is encoded
        if kind == _STATEFUL:
            state = self.states[id(value)] = value.__getstate__()  # (a new object on each call)
            self._count(state, active)
        elif cls is dict:
            for item in value.values():
                self._count(item, active)
        elif cls in (set, frozenset):
            if any(self._holds_record(item) for item in value):
                raise ValueError("a record in a set")
        else:  # a tuple, a list, a record
            for item in value:
                self._count(item, active)
        active.discard(id(value))

    def _encode(self, value: Any) -> tuple[bool, Any]:
        """(False, ``value`` itself) when it is plain data, else (True, its node)."""
        cls = type(value)
        if cls in _PLAIN or cls in (set, frozenset):
            return False, value
        slot = self.slots.get(id(value))
        if slot is not None:
            return True, (_AGAIN, slot)
        wrapped, node = self._node(value, cls)
        if wrapped and self.seen[id(value)] > 1:
            slot = self.slots[id(value)] = len(self.slots)
            node = (_FIRST, slot, node)
        return wrapped, node

    def _items(self, values: Any) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        encoded = [self._encode(v) for v in values]
        return tuple(v for _, v in encoded), tuple(i for i, (wrapped, _) in enumerate(encoded) if wrapped)

    def _node(self, value: Any, cls: type) -> tuple[bool, Any]:
        kind = self._kind(cls)
        if kind == _RECORD:
            items, wrapped = self._items(value)
            return True, (_RECORD, self._class(cls, 0), items, wrapped)
        if kind == _STATEFUL:
            is_node, state = self._encode(self.states[id(value)])
            return True, (_STATEFUL, self._class(cls, 1), state, is_node)
        if cls is dict:
            for k in value:
                if self._holds_record(k):
                    raise ValueError("a record as a key")
            items, wrapped = self._items(value.values())
            return (False, value) if not wrapped else (True, (_DICT, tuple(value), items, wrapped))
        items, wrapped = self._items(value)
        if not wrapped:
            return False, value
        return True, (_LIST if cls is list else _TUPLE, items, wrapped)

    def _holds_record(self, value: Any) -> bool:
        if type(value) in _PLAIN:
            return False
        if self._kind(type(value)) is not None:
            return True
        return isinstance(value, (tuple, frozenset)) and any(self._holds_record(v) for v in value)

    def _class(self, cls: type, table: int) -> int:
        return self.classes[table].setdefault(cls, len(self.classes[table]))


def _encode_records(value: Any) -> bytes:
    """A value holding havoc's records as marshalled plain data (ValueError when it cannot be)."""
    return _Encoder(value).payload()


def _resolve(names: Any, record: bool) -> tuple[type, ...]:
    """The classes a records entry names, each one of havoc's own (as pickle's allow-list)."""
    found = []
    for module, name in names:
        if not isinstance(module, str) or not module.startswith(_ALLOWED_MODULES) or "." in name:
            raise ValueError(f"{module}.{name} is not allowed in a havoc cache")
        if module not in sys.modules:
            __import__(module)
        cls = getattr(sys.modules[module], name)
        if not isinstance(cls, type) or issubclass(cls, BaseException):
            raise ValueError(f"{module}.{name} is not allowed in a havoc cache")
        if record != issubclass(cls, tuple) or (not record and "__setstate__" not in cls.__dict__):
            raise ValueError(f"{module}.{name} is not a record")
        found.append(cls)
    return tuple(found)


def _decode_records(data: Any) -> Any:
    records, stateful = _resolve(data[0], True), _resolve(data[1], False)
    slots: dict[int, Any] = {}
    new = tuple.__new__

    def decode(node: tuple[Any, ...]) -> Any:
        op = node[0]
        if op == _RECORD:
            fields = node[2]
            if node[3]:
                fields = list(fields)
                for i in node[3]:
                    fields[i] = decode(fields[i])
            return new(records[node[1]], fields)
        if op == _DICT:
            values = list(node[2])
            for i in node[3]:
                values[i] = decode(values[i])
            return dict(zip(node[1], values, strict=True))
        if op in (_LIST, _TUPLE):
            items = list(node[1])
            for i in node[2]:
                items[i] = decode(items[i])
            return items if op == _LIST else tuple(items)
        if op == _STATEFUL:
            cls = stateful[node[1]]
            obj = cls.__new__(cls)
            obj.__setstate__(decode(node[2]) if node[3] else node[2])
            return obj
        if op == _FIRST:
            made = slots[node[1]] = decode(node[2])
            return made
        if op == _AGAIN:
            return slots[node[1]]
        raise ValueError(f"not a records node: {op!r}")

    return decode(data[3]) if data[2] else data[3]


def get(kind: str, key: str, expected: type[T]) -> T | None:
    """The cached value of ``kind``/``key`` if it is present, intact, ours and an ``expected``."""
    folder = _folder()
    secret = _user_key(folder)
    if secret is None:
        return None
    path = _entry(folder, kind, key)
    try:
        from havoc.core import safeio

        data = safeio.read_bytes(path, MAX_ENTRY_BYTES)
    except Exception:
        return None
    head = len(MAGIC) + TAG_SIZE
    payload = data[head:]
    if not data.startswith(MAGIC):
        return None  # another havoc's format (a checkout of other code may share the folder): not ours to delete
    if len(data) < head or data[len(MAGIC) : head] != _tag(secret, kind, key, payload):
        try:  # noqa: SIM105 - not contextlib.suppress: a short process imports no contextlib
            os.unlink(path)
        except OSError:
            pass
        return None
    # The cyclic garbage collector is paused while the entry is read: building its many
    # thousands of containers (none of them garbage) would otherwise start a collection every
    # few hundred, and reading a search index took three times as long.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if payload[:1] == MARSHALLED:
            value = marshal.loads(memoryview(payload)[1:])
        elif payload[:1] == RECORDS:
            value = _decode_records(marshal.loads(memoryview(payload)[1:]))
        elif payload[:1] == PICKLED:
            value = _unpickler()(io.BytesIO(memoryview(payload)[1:])).load()
        else:
            return None
    except Exception:  # a tagged but unusable entry (an older model, say) is just a miss
        return None
    finally:
        if collecting:
            gc.enable()
    if not isinstance(value, expected):
        return None
    _freshen(path)
    return value


def _freshen(path: str) -> None:
    """Re-date an entry just used, when its date is more than a day old: pruning goes by it."""
    from time import time

    try:
        if time() - os.stat(path).st_mtime > FRESHEN_AFTER:
            os.utime(path)
    except OSError:
        pass


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
            payload = RECORDS + _encode_records(value)
        except (ValueError, RecursionError):  # not only havoc's records and plain data
            try:
                payload = PICKLED + _pickle().dumps(value, protocol=5)  # the highest this Python reads
            except Exception:
                return
    from havoc.core import safeio

    path = _entry(folder, kind, key)
    try:
        safeio.write_bytes(path, MAGIC + _tag(secret, kind, key, payload) + payload, mode=0o600)
    except safeio.OutputError:
        return
    prune(folder, keep=path)


def _is_entry(name: str) -> bool:
    """``kind-key.bin`` with a hexadecimal key: an entry (never the key file, the stamp or a temporary file)."""
    if not name.endswith(".bin") or name.startswith("."):
        return False
    kind, _, key = name[:-4].rpartition("-")
    return bool(kind) and bool(key) and all(c in "0123456789abcdef" for c in key)


def prune(folder: str | Path | None = None, keep: str = "", force: bool = False) -> list[str]:
    """Remove the entries of ``folder`` (the cache folder) unused for :data:`MAX_AGE`, then the
    least recently used until the rest fit in :data:`MAX_TOTAL_BYTES`, never ``keep`` (the entry
    just written); also writers' temporary files left for a day. At most once per
    :data:`PRUNE_EVERY` unless ``force``; the names removed, for tests."""
    from time import time

    folder = os.fspath(folder) if folder is not None else _folder()
    now = time()
    stamp = os.path.join(folder, STAMP_FILE)
    try:
        if not force and now - os.stat(stamp).st_mtime < PRUNE_EVERY:
            return []
    except FileNotFoundError:
        pass
    except OSError:
        return []
    try:  # dated first: another process writing now does not prune the folder again
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600))
        os.utime(stamp)
    except OSError:
        return []
    entries: list[tuple[float, int, str]] = []
    doomed: list[str] = []
    try:
        with os.scandir(folder) as found:
            for item in found:
                name = item.name
                entry = _is_entry(name)
                if not entry and not (name.startswith(".") and name.endswith(".tmp")):
                    continue
                try:
                    st = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(st.st_mode) or item.path == keep:
                    continue
                age = now - st.st_mtime
                if not entry:
                    if age > STALE_TEMP:
                        doomed.append(name)
                elif age > MAX_AGE:
                    doomed.append(name)
                else:
                    entries.append((st.st_mtime, st.st_size, name))
    except OSError:
        return []
    total = sum(size for _, size, _ in entries)
    if keep:
        try:  # noqa: SIM105 - a short process imports no contextlib
            total += os.stat(keep).st_size
        except OSError:
            pass
    for _, size, name in sorted(entries):  # the least recently used first
        if total <= MAX_TOTAL_BYTES:
            break
        doomed.append(name)
        total -= size
    removed = []
    for name in doomed:
        try:
            os.unlink(os.path.join(folder, name))
            removed.append(name)
        except OSError:
            continue
    return removed
