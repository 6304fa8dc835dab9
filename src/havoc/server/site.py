"""The built site as static files, and nothing else from the disk.

Only regular files under the site folder are served: no directory listings (a folder gives its
``index.html`` or 404), no dot-files, no ``_sources/`` (the page sources Sphinx may copy) and no
``.buildinfo``; a path that resolves outside the folder (``..``, a symbolic link) is a 404.
Responses carry an ETag from the file's size and modification time, and the browser revalidates.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response

HIDDEN = frozenset({"_sources", ".buildinfo", ".doctrees"})


class SiteFiles:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def find(self, url_path: str) -> Path | None:
        """The file a URL path names, or None when it is not one we serve."""
        parts = [p for p in url_path.split("/") if p]
        if any(p.startswith(".") or p in HIDDEN or "\\" in p or "\x00" in p for p in parts):
            return None
        try:
            path = self.root.joinpath(*parts).resolve()
        except (OSError, ValueError):
            return None
        if path != self.root and self.root not in path.parents:
            return None
        if path.is_dir():
            path = path / "index.html"
        return path if path.is_file() else None

    async def serve(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return Response("Method not allowed", 405, media_type="text/plain; charset=utf-8")
        url_path = request.url.path
        path = self.find(url_path)
        if path is None:
            return Response("Not found", 404, media_type="text/plain; charset=utf-8")
        if path.name == "index.html" and not url_path.endswith(("/", "index.html")):
            return RedirectResponse(url_path + "/", 308)  # so the folder's relative links work
        st = path.stat()
        etag = f'"{st.st_mtime_ns:x}-{st.st_size:x}"'
        headers = {"ETag": etag, "Cache-Control": "public, max-age=0, must-revalidate"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if media.startswith("text/") or media in ("application/javascript", "image/svg+xml"):
            media += "; charset=utf-8"
        return FileResponse(path, headers=headers, media_type=media, stat_result=st)
