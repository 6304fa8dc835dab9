"""The site's and the server's security policy: one place for the headers every answer carries.

Both ``havoc serve`` (as response headers) and the static site (as a ``<meta http-equiv>`` in
every page, for hosts that send no headers) take their Content-Security-Policy from here, so the
two never disagree about what a page may load. The policy is what the site's own pages need and
nothing more:

- scripts and styles from the site itself (``'self'``), plus each inline ``<script>``/``<style>``
  block of a page by its SHA-256, computed from the page as it was written (the theme's inline
  code included: hashes are never written by hand, so a theme update cannot silently break a
  page or widen the policy);
- ``'wasm-unsafe-eval'``: the in-browser assistant is CPython compiled to WebAssembly (Pyodide),
  which the browser compiles at run time; it does not allow ``eval`` of JavaScript;
- ``style="…"`` attributes (the theme writes a few) by their hashes under ``'unsafe-hashes'``;
- workers (the engine's, the service worker) and fetches from the site only;
- images also as ``data:`` (the theme's icons are data: SVGs in its stylesheet);
- no plug-ins, no ``<base>`` elsewhere, forms only to the site, and (headers only, a ``<meta>``
  cannot say it) no framing by any page: ``frame-ancestors 'none'`` and ``X-Frame-Options``.

This module imports nothing beyond the standard library: the Sphinx extension, the ``docs``
command and the server all use it.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re

CSP = "Content-Security-Policy"

OTHER_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)
"""The headers every answer carries besides the policy."""

_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
_STYLE_ATTR = re.compile(r"""<[a-zA-Z][^>]*?\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.DOTALL)
_SRC = re.compile(r"\ssrc\s*=", re.IGNORECASE)
_TYPE = re.compile(r"""\stype\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
_META = re.compile(r"""[ \t]*<meta http-equiv="Content-Security-Policy" content="[^"]*">\n?""")
_CHARSET = re.compile(r"<meta charset=[^>]*>\n?", re.IGNORECASE)
_SCRIPT_TYPES = frozenset({"", "text/javascript", "application/javascript", "module"})
"""Inline script types the browser runs (a data block, ``application/json``, needs no hash)."""


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def inline_hashes(page: str) -> tuple[list[str], list[str], list[str]]:
    """The hashes of a page's inline scripts, inline style blocks and style attributes, in the
    order they first appear (each once)."""
    scripts: dict[str, None] = {}
    for m in _SCRIPT.finditer(page):
        attrs, body = m.group(1), m.group(2)
        kind = _TYPE.search(attrs)
        if _SRC.search(attrs) or (kind.group(1).lower() if kind else "") not in _SCRIPT_TYPES:
            continue
        scripts[_sha256(body)] = None
    styles = dict.fromkeys(_sha256(m.group(1)) for m in _STYLE.finditer(page))
    # an attribute's hash is of its value as the browser reads it: entities decoded
    attrs = dict.fromkeys(
        _sha256(html.unescape(m.group(1) if m.group(1) is not None else m.group(2))) for m in _STYLE_ATTR.finditer(page)
    )
    return list(scripts), list(styles), list(attrs)


def policy(page: str | None = None, *, meta: bool = False) -> str:
    """The Content-Security-Policy for ``page`` (an HTML text: its inline code is allowed by
    hash), or for any other answer (None: nothing inline at all). ``meta``: for a ``<meta>``,
    which must leave out ``frame-ancestors`` (browsers ignore it there and warn)."""
    scripts, styles, attrs = inline_hashes(page) if page else ([], [], [])
    directives = [
        "default-src 'self'",
        " ".join(["script-src 'self' 'wasm-unsafe-eval'", *scripts]),
        " ".join(["style-src 'self'", *styles]),
        " ".join(["style-src-attr", "'unsafe-hashes'", *attrs]) if attrs else "style-src-attr 'none'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ]
    if not meta:
        directives.append("frame-ancestors 'none'")
    return "; ".join(directives)


def headers(page: str | None = None) -> list[tuple[str, str]]:
    """Every security header of one answer (``page``: see :func:`policy`)."""
    return [(CSP, policy(page)), *OTHER_HEADERS]


def with_meta(page: str) -> str:
    """``page`` with its policy as the first thing after ``<meta charset>`` (before any script,
    so it governs them all), replacing a policy written by an earlier build; the hashes are of
    the page as it is now."""
    bare = _META.sub("", page)
    tag = f'<meta http-equiv="{CSP}" content="{html.escape(policy(bare, meta=True), quote=False)}">\n'
    m = _CHARSET.search(bare)
    if m is not None:
        return bare[: m.end()] + tag + bare[m.end() :]
    head = re.search(r"<head\b[^>]*>\n?", bare, re.IGNORECASE)
    if head is None:
        return bare  # not a page (a fragment): nothing to govern
    return bare[: head.end()] + tag + bare[head.end() :]
