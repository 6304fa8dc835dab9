"""Bounded reads and atomic writes: the only way havoc touches files that people hand it.

A path on the command line may name a FIFO, a device (``/dev/zero``), a folder or a file that
grows while it is read; ``stat()`` says nothing reliable about any of them. So a read opens the
file without blocking, refuses anything that is not a regular file, and counts the bytes it
actually gets. A write goes to a temporary file in the target's own folder and is renamed into
place, so a reader (or a crash) never sees half a catalog, half a sheet or half a cache entry.
"""

from __future__ import annotations

import os
import stat

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, HavocError, Problem

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


# The language of these messages and their translation come from havoc.language.i18n, which reads its
# own catalogs through this module: it registers itself here (see :func:`use_translation`), so
# the dependency runs one way. Until it does, messages are English.
def _english() -> str:
    return "en"


def _untranslated(msgid: str, lang: str) -> str:
    return msgid


_language: Callable[[], str] = _english
_translate: Callable[[str, str], str] = _untranslated


def use_translation(language: Callable[[], str], translate: Callable[[str, str], str]) -> None:
    """Where the message language and the ``ui`` translations come from (called by havoc.language.i18n)."""
    global _language, _translate
    _language, _translate = language, translate


def ui(msgid: str, lang: str = "en") -> str:
    """An interface message in ``lang`` (a literal ``ui("…")`` call, so the extraction finds it)."""
    return msgid if lang == "en" else _translate(msgid, lang)


MAX_BYTES = 1_000_000  # the same limit as havoc.formats.yamlio's


class ReadError(Exception):
    """A file that could not be read: the message says why, in words for a user.

    The words are chosen when the error is raised (in the message language of that moment) and
    translated only when shown: the catalog loader itself reads files through here.
    """

    def __init__(self, msgid: str, *, code: str = Code.FILE_UNREADABLE, **fill: object) -> None:
        super().__init__(msgid)
        self.msgid, self.fill, self.lang = msgid, fill, _language()
        self.code = code  # which problem (havoc.core.codes): the Problem made of it keeps it

    def __str__(self) -> str:
        text = ui(self.msgid, self.lang)
        return text.format(**{k: _words(v, self.lang) for k, v in self.fill.items()}) if self.fill else text


class _Reason:
    """Why the system refused a file, in words (its errno), not the C library's English."""

    def __init__(self, exc: OSError) -> None:
        self.errno = exc.errno


def _words(value: object, lang: str) -> object:
    if not isinstance(value, _Reason):
        return value
    import errno

    reasons = {
        errno.ENOENT: ui("there is no such file", lang),
        errno.EACCES: ui("permission denied", lang),
        errno.EPERM: ui("permission denied", lang),
        errno.EISDIR: ui("this is a folder, not a file", lang),
        errno.ENOTDIR: ui("a part of the path is not a folder", lang),
    }
    code = value.errno or 0
    return reasons.get(code) or ui("the system refused it ({code})", lang).format(
        code=errno.errorcode.get(code, str(code))
    )


def _literal_messages() -> None:
    """The messages raised below, as literal ``ui()`` calls so the catalog extraction finds them."""
    ui("cannot read file: {reason}")
    ui("cannot read: {reason}")
    ui("this is a folder, not a file")
    ui("not a regular file (a pipe, device or socket cannot be read as a file)")
    ui("file is larger than the limit of {limit} bytes")
    ui("input is larger than the limit of {limit} bytes")
    ui("nothing to read from")
    ui("not UTF-8 text (byte {at} is {byte})")


class OutputError(HavocError):
    """An output (file or folder) that cannot be written: exit 1 with a one-line message."""


def plain_path(path: str | Path) -> str:
    """``str(Path(path))`` without importing pathlib (and urllib.parse and ipaddress with it): what
    every short process does (finding the rules, the cache) works with these strings."""
    text = os.fspath(path)
    lead = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
    parts = [p for p in text.split("/") if p and p != "."]
    return lead + "/".join(parts) if lead or parts else "."


def read_bytes(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file, at most ``limit`` of them (more is an error, not a cut)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise ReadError("cannot read file: {reason}", reason=_Reason(exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ReadError("this is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise ReadError("not a regular file (a pipe, device or socket cannot be read as a file)")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(65536, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise ReadError(
                    "file is larger than the limit of {limit} bytes", code=Code.INPUT_TOO_LARGE, limit=f"{limit:,}"
                )
        return b"".join(chunks)
    except OSError as exc:
        raise ReadError("cannot read file: {reason}", reason=_Reason(exc)) from None
    finally:
        os.close(fd)


def read_stream(stream: object, limit: int = MAX_BYTES) -> bytes:
    """At most ``limit`` bytes from a binary stream (standard input); more is an error."""
    reader = getattr(stream, "read", None)
    if reader is None:
        raise ReadError("nothing to read from")
    try:
        data = reader(limit + 1)
    except OSError as exc:
        raise ReadError("cannot read: {reason}", reason=_Reason(exc)) from None
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if not isinstance(data, bytes):
        raise ReadError("nothing to read from")
    if len(data) > limit:
        raise ReadError(
            "input is larger than the limit of {limit} bytes", code=Code.INPUT_TOO_LARGE, limit=f"{limit:,}"
        )
    return data


BOM = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark: some editors (Notepad, some translators' tools) start a file with it."""


def without_bom(data: bytes) -> bytes:
    """``data`` less a leading byte-order mark: for readers (Babel's PO reader) that take it for text."""
    return data[3:] if data.startswith(BOM) else data


def decode_utf8(data: bytes) -> str:
    """Text from bytes that must be UTF-8 (a byte-order mark is allowed and dropped)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(
            "not UTF-8 text (byte {at} is {byte})",
            code=Code.INPUT_NOT_UTF8,
            at=exc.start + 1,
            byte=f"0x{data[exc.start]:02x}",
        ) from None


def check_replaceable(path: Path) -> None:
    """Refuse an output that exists and is not a regular file.

    Writing renames a temporary file into place, which would replace a symbolic link, a device
    node or a named pipe with a regular file: havoc writes only where it was asked.
    """
    try:
        st = os.lstat(path)
    except OSError:
        return  # absent (or unreadable: the write itself will say so)
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(
            [
                Problem(
                    str(path), None, "not a regular file; havoc replaces only regular files", code=Code.FILE_UNWRITABLE
                )
            ]
        )


def write_bytes(path: str | Path, data: bytes, mode: int | None = None) -> None:
    """Write ``path`` atomically (temporary file in the same folder, then rename), with the mode
    the umask gives a new file (or the replaced file's mode).

    Raises :class:`OutputError` naming the path when the folder cannot be made or written, or when
    ``path`` exists and is not a regular file.
    """
    import tempfile  # only writers pay for it (it imports shutil, random, …)
    from pathlib import Path  # reading never needs it: a short process never imports it

    path = Path(path)
    check_replaceable(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        elif path.exists():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise OutputError(
            [Problem(str(path), None, f"cannot write: {exc.strerror or exc}", code=Code.FILE_UNWRITABLE)]
        ) from None
    finally:
        if tmp is not None:
            try:  # noqa: SIM105 - not contextlib.suppress: a short process imports no contextlib
                os.unlink(tmp)
            except OSError:
                pass


def write_text(path: Path, text: str) -> None:
    """:func:`write_bytes` for UTF-8 text."""
    write_bytes(path, text.encode("utf-8"))


def writable_dir(folder: Path) -> Path:
    """Make ``folder`` (and parents) and prove it can take a file, before any long work starts."""
    import tempfile
    from pathlib import Path

    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".havoc-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise OutputError(
            [Problem(str(folder), None, f"cannot write here: {exc.strerror or exc}", code=Code.FILE_UNWRITABLE)]
        ) from None
    return folder
