"""The built site as static files, and nothing else from the disk.

Only regular files under the site folder are served: no directory listings (a folder gives its
``index.html`` or 404), no dot-files, no ``_sources/`` (the page sources Sphinx may copy) and no
``.buildinfo``; a path that resolves outside the folder (``..``, a symbolic link) or does not
resolve at all (a symbolic link loop) is a 404.

A file is read whole into memory before the answer starts, so one that cannot be read is a clean
403/404/500 rather than a 200 cut short, and it is kept there (with its gzip form and ETag) until
its size or modification time changes: a page costs a ``stat``, not a read and a thread hop.
Text is sent gzip-compressed to clients that accept it, with ``Vary: Accept-Encoding``.
"""

from __future__ import annotations

import gzip
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

HIDDEN = frozenset({"_sources", ".buildinfo", ".doctrees"})

MAX_FILE = 32 * 1024 * 1024
"""Larger files are not served (the site's largest, a sheet PDF, is well under 1 MiB): every file
is read whole into memory, so this bounds what one request can make the server hold."""

CACHE_BYTES = 128 * 1024 * 1024
"""Memory the kept files may use; past it, the oldest kept files are dropped first."""

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/xml")
MIN_COMPRESS = 512  # below this, gzip's header costs more than it saves

TEXT_PLAIN = "text/plain; charset=utf-8"
_GZIP = re.compile(r"(?:^|,)\s*gzip\s*(?:;\s*q\s*=\s*(?P<q>[0-9.]+))?\s*(?:,|$)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Kept:
    """One file as it is served: its bytes, its gzip form (if smaller) and their ETags."""

    stamp: tuple[int, int, int]  # (mtime_ns, size, inode): a changed file is read again
    media: str
    body: bytes
    etag: str
    gzipped: bytes | None
    gzip_etag: str

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (``gzip;q=0`` refuses it)."""
    m = _GZIP.search(header)
    if m is None:
        return False
    q = m.group("q")
    try:
        return q is None or float(q) > 0
    except ValueError:
        return False


def _read(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(MAX_FILE + 1)


class SiteFiles:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._kept: dict[Path, Kept] = {}
        self._kept_bytes = 0

    def find(self, url_path: str) -> Path | None:
        """The file a URL path names, or None when it is not one we serve."""
        parts = [p for p in url_path.split("/") if p]
        if any(p.startswith(".") or p in HIDDEN or "\\" in p or "\x00" in p for p in parts):
            return None
        try:
            path = self.root.joinpath(*parts).resolve()
            if path != self.root and self.root not in path.parents:
                return None
            if path.is_dir():
                path = path / "index.html"
            return path if path.is_file() else None
        except (OSError, ValueError, RuntimeError):  # RuntimeError: a symbolic link loop (Python < 3.13)
            return None

    async def load(self, path: Path) -> Kept | Response:
        """The file from memory, or read again when it changed; a clean error when it cannot be read."""
        try:
            st = path.stat()
        except OSError:
            return Response("Not found", 404, media_type=TEXT_PLAIN)
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        kept = self._kept.get(path)
        if kept is not None and kept.stamp == stamp:
            return kept
        if st.st_size > MAX_FILE:
            return Response("Too large to serve", 500, media_type=TEXT_PLAIN)
        try:
            body = await anyio.to_thread.run_sync(_read, path)
        except PermissionError:
            return Response("Forbidden", 403, media_type=TEXT_PLAIN)
        except FileNotFoundError:
            return Response("Not found", 404, media_type=TEXT_PLAIN)
        except OSError:
            return Response("The file cannot be read", 500, media_type=TEXT_PLAIN)
        if len(body) > MAX_FILE:
            return Response("Too large to serve", 500, media_type=TEXT_PLAIN)
        kept = await anyio.to_thread.run_sync(self._prepare, path, stamp, body)
        self._keep(path, kept)
        return kept

    @staticmethod
    def _prepare(path: Path, stamp: tuple[int, int, int], body: bytes) -> Kept:
        media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if media.startswith("text/") or media in ("application/javascript", "image/svg+xml"):
            media += "; charset=utf-8"
        return prepare(body, media, f"{stamp[0]:x}-{stamp[1]:x}", stamp)

    def _keep(self, path: Path, kept: Kept) -> None:
        old = self._kept.pop(path, None)
        if old is not None:
            self._kept_bytes -= old.size
        if kept.size > CACHE_BYTES // 4:
            return
        while self._kept and self._kept_bytes + kept.size > CACHE_BYTES:
            oldest = next(iter(self._kept))
            self._kept_bytes -= self._kept.pop(oldest).size
        self._kept[path] = kept
        self._kept_bytes += kept.size

    async def serve(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return Response("Method not allowed", 405, headers={"Allow": "GET, HEAD"}, media_type=TEXT_PLAIN)
        url_path = request.url.path
        path = self.find(url_path)
        if path is None:
            return Response("Not found", 404, media_type=TEXT_PLAIN)
        if path.name == "index.html" and not url_path.endswith(("/", "index.html")):
            return RedirectResponse(url_path + "/", 308)  # so the folder's relative links work
        kept = await self.load(path)
        if isinstance(kept, Response):
            return kept
        return send(request, kept)


def prepare(body: bytes, media: str, tag: str, stamp: tuple[int, int, int] = (0, 0, 0)) -> Kept:
    """``body`` ready to serve: its gzip form when that saves at least a tenth, and both ETags."""
    gzipped = None
    if len(body) >= MIN_COMPRESS and media.startswith(COMPRESSIBLE):
        packed = gzip.compress(body, 9, mtime=0)
        if len(packed) < len(body) * 0.9:
            gzipped = packed
    return Kept(stamp, media, body, f'"{tag}"', gzipped, f'"{tag}-gz"')


def send(request: Request, kept: Kept) -> Response:
    """``kept`` for this request: gzip when accepted, 304 when the browser has it already."""
    headers = {"Cache-Control": "public, max-age=0, must-revalidate"}
    body, etag = kept.body, kept.etag
    if kept.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
        if accepts_gzip(request.headers.get("accept-encoding", "")):
            body, etag = kept.gzipped, kept.gzip_etag
            headers["Content-Encoding"] = "gzip"
    headers["ETag"] = etag
    if _matches(request.headers.get("if-none-match", ""), etag):
        headers.pop("Content-Encoding", None)
        return Response(status_code=304, headers=headers)
    return Response(body, headers=headers, media_type=kept.media)


def _matches(header: str, etag: str) -> bool:
    """If-None-Match against one ETag (a weak ``W/`` match is enough for a GET)."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    return any(t.strip().removeprefix("W/") == etag for t in header.split(","))
