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
import os
import re
from dataclasses import dataclass
from pathlib import Path

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import Scope

from havoc.web import policy as webpolicy

HIDDEN = frozenset({"_sources", ".buildinfo", ".doctrees"})

MAX_FILE = 32 * 1024 * 1024
"""Larger files are not served (the site's largest, a sheet PDF, is well under 1 MiB): every file
is read whole into memory, so this bounds what one request can make the server hold."""

CACHE_BYTES = 128 * 1024 * 1024
"""Memory the kept files may use; past it, the oldest kept files are dropped first."""

FOUND_KEPT = 8192
"""URL paths remembered with the file they resolved to (any that is changed is resolved again)."""

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/xml")
MIN_COMPRESS = 512  # below this, gzip's header costs more than it saves

TEXT_PLAIN = "text/plain; charset=utf-8"
_GZIP = re.compile(r"(?:^|,)\s*gzip\s*(?:;\s*q\s*=\s*(?P<q>[0-9.]+))?\s*(?:,|$)", re.IGNORECASE)


Head = tuple[tuple[bytes, bytes], ...]


@dataclass(frozen=True, slots=True)
class Kept:
    """One file as it is served: its bytes, its gzip form (if smaller), their ETags and the
    response headers of each answer it can be (plain, gzip, 304 for each), made once."""

    stamp: tuple[int, int, int]  # (mtime_ns, size, inode): a changed file is read again
    media: str
    body: bytes
    etag: str
    gzipped: bytes | None
    gzip_etag: str
    heads: tuple[Head, Head, Head, Head]  # plain 200, gzip 200, plain 304, gzip 304

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")


class Ready(Response):
    """A response whose status, headers and body were made before the request came."""

    def __init__(self, status: int, head: Head, body: bytes) -> None:
        self.status_code = status
        self.body = body
        self.background = None
        self.raw_headers = list(head)


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
        self._found: dict[str, Path] = {}  # URL path → the file it resolved to (checked by one stat)

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

    def known(self, scope: Scope) -> Ready | None:
        """A page asked for before and unchanged since (one ``stat``), answered straight from the
        ASGI scope; None for anything else (the full :meth:`serve` answers it)."""
        if scope["method"] not in ("GET", "HEAD") or scope.get("root_path"):
            return None
        path = self._found.get(scope["path"])
        if path is None:
            return None
        kept = self._kept.get(path)
        try:
            st = os.stat(path)
        except OSError:
            return None
        if kept is None or (st.st_mtime_ns, st.st_size, st.st_ino) != kept.stamp:
            return None
        accept = match = b""
        got_accept = got_match = False
        for name, value in scope["headers"]:
            if name == b"accept-encoding" and not got_accept:
                accept, got_accept = value, True
            elif name == b"if-none-match" and not got_match:
                match, got_match = value, True
        return answer(kept, accept.decode("latin-1"), match.decode("latin-1"))

    async def serve(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return Response("Method not allowed", 405, headers={"Allow": "GET, HEAD"}, media_type=TEXT_PLAIN)
        url_path = request.url.path
        known = self._found.get(url_path)
        if known is not None:
            remembered = self._kept.get(known)
            try:
                st = os.stat(known)
            except OSError:
                st = None
            if (
                remembered is not None
                and st is not None
                and (st.st_mtime_ns, st.st_size, st.st_ino) == remembered.stamp
            ):
                return send(request, remembered)  # unchanged since it was found: no resolving again
            del self._found[url_path]
        path = self.find(url_path)
        if path is None:
            return Response("Not found", 404, media_type=TEXT_PLAIN)
        if path.name == "index.html" and not url_path.endswith(("/", "index.html")):
            # so the folder's relative links work; always a path on this site: "//en" (or
            # "/%2fen") as a Location would be another host's address
            return RedirectResponse(same_site(url_path + "/"), 308)
        kept = await self.load(path)
        if isinstance(kept, Response):
            return kept
        if len(self._found) >= FOUND_KEPT:
            self._found.clear()
        self._found[url_path] = path
        return send(request, kept)


def same_site(path: str) -> str:
    """``path`` as a Location that stays on this origin: one leading slash, never two (a
    network-path reference, ``//host/``) nor a backslash a browser reads as one."""
    return "/" + path.replace("\\", "/").lstrip("/")


def prepare(body: bytes, media: str, tag: str, stamp: tuple[int, int, int] = (0, 0, 0), vary: bytes = b"") -> Kept:
    """``body`` ready to serve: its gzip form when that saves at least a tenth, both ETags and the
    headers of every answer (what Starlette's Response would write, in its order). ``vary`` names
    a request header the body depends on besides Accept-Encoding (``Accept-Language``)."""
    gzipped = None
    if len(body) >= MIN_COMPRESS and media.startswith(COMPRESSIBLE):
        packed = gzip.compress(body, 9, mtime=0)
        if len(packed) < len(body) * 0.9:
            gzipped = packed
    etag, gzip_etag = f'"{tag}"', f'"{tag}-gz"'
    if media.startswith("text/") and "charset=" not in media.lower():
        media += "; charset=utf-8"

    # the security headers (havoc.web.policy): a page's policy allows its own inline code by hash
    page = body.decode("utf-8", "replace") if media.startswith("text/html") else None
    secure = tuple((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in webpolicy.headers(page))

    def head(sent: bytes | None, tag: str, encoded: bool) -> Head:
        out = [(b"cache-control", b"public, max-age=0, must-revalidate")]
        varies = b", ".join(v for v in (b"Accept-Encoding" if gzipped is not None else b"", vary) if v)
        if varies:
            out.append((b"vary", varies))
        if gzipped is not None and encoded and sent is not None:
            out.append((b"content-encoding", b"gzip"))
        out.append((b"etag", tag.encode("latin-1")))
        if sent is not None:  # a 304 has neither length nor type
            out += [(b"content-length", str(len(sent)).encode()), (b"content-type", media.encode("latin-1"))]
        return (*out, *secure)

    heads = (
        head(body, etag, False),
        head(gzipped, gzip_etag, True) if gzipped is not None else (),
        head(None, etag, False),
        head(None, gzip_etag, True),
    )
    return Kept(stamp, media, body, etag, gzipped, gzip_etag, heads)


def answer(kept: Kept, accept_encoding: str, if_none_match: str) -> Ready:
    """``kept`` for a request: gzip when accepted, 304 when the browser has it already."""
    zipped = kept.gzipped is not None and accepts_gzip(accept_encoding)
    etag = kept.gzip_etag if zipped else kept.etag
    if _matches(if_none_match, etag):
        return Ready(304, kept.heads[3 if zipped else 2], b"")
    if zipped:
        assert kept.gzipped is not None
        return Ready(200, kept.heads[1], kept.gzipped)
    return Ready(200, kept.heads[0], kept.body)


def send(request: Request, kept: Kept) -> Response:
    """``kept`` for this request (see :func:`answer`)."""
    headers = request.headers
    return answer(kept, headers.get("accept-encoding", ""), headers.get("if-none-match", ""))


def _matches(header: str, etag: str) -> bool:
    """If-None-Match against one ETag (a weak ``W/`` match is enough for a GET)."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    return any(t.strip().removeprefix("W/") == etag for t in header.split(","))
