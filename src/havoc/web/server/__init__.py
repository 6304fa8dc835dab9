"""``havoc serve``: the rules site and the assistant's JSON API on one ASGI server.

This package is the only one that imports the web framework (Starlette) and the server
(uvicorn); the CLI imports it only when ``havoc serve`` runs. The logic is :mod:`havoc.assistant.api`'s:
the server validates transport (size, syntax, language), then hands over.
"""

from __future__ import annotations

from havoc.web.server.app import MAX_BODY, create_app

__all__ = ["MAX_BODY", "create_app"]
