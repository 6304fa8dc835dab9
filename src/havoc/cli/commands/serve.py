"""``havoc serve``: the rules site and the assistant's JSON API, on loopback by default.

The web framework is imported only here, inside the command (through :mod:`havoc.web.server`), so
no other command pays for it. The site is built first (as ``havoc docs`` builds it) when
``build/site`` lacks a language.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from havoc.cli.commands import add_ruleset_option, said

DEFAULT_SITE = Path("build") / "site"
SITE_ENV = "HAVOC_SERVE_SITE"
RULESET_ENV = "HAVOC_SERVE_RULESET"
HOSTS_LIST_ENV = "HAVOC_SERVE_HOSTS"
"""The Host entries the workers answer (JSON: the bound ones and the allowed), set by cmd_serve."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the rules site and the assistant's JSON API (loopback only by default)",
        description=(
            "Serve build/site (both languages; built first if missing) and the JSON API under /api "
            "(OpenAPI at /openapi.json, an interactive page at /api/docs). Ctrl-C stops it."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default: %(default)s)")
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST",
        help="also answer requests for this Host header (NAME on any port, NAME:PORT, or * for any); repeatable, "
        "added to those in HAVOC_ALLOWED_HOSTS (comma-separated); by default only localhost, 127.0.0.1, [::1] "
        "and --host, on --port",
    )
    p.add_argument("--site", type=Path, default=DEFAULT_SITE, help="the built site folder (default: %(default)s)")
    add_ruleset_option(p)
    p.set_defaults(func=cmd_serve)


def ensure_site(site: Path, ruleset: str) -> int:
    """Build the site when ``site`` lacks a language or its root page (a folder that has them is
    served as it is, whatever else it holds or lacks).

    It is built as ``havoc docs -o SITE`` builds it: every language, the in-browser engine and
    ``sw.js``, staged and published in one step (so the Ask page works and the site works offline,
    and a failed build leaves what was there). It used to build the languages alone, straight into
    the folder, with no engine and no service worker."""
    from havoc.language.i18n import LANGUAGES

    if all((site / lang / "index.html").is_file() for lang in LANGUAGES) and (site / "index.html").is_file():
        return 0
    from havoc.cli.commands import docs

    print(said("building the site into {folder} first …", folder=site), file=sys.stderr)
    parser = argparse.ArgumentParser(prog="havoc")
    docs.register(parser.add_subparsers())
    return docs.cmd_docs(parser.parse_args(["docs", "-o", str(site), "--ruleset", ruleset]))


def app_factory() -> object:
    """The application a uvicorn worker builds (configured through the environment)."""
    from havoc.web.server import create_app

    hosts = os.environ.get(HOSTS_LIST_ENV)
    return create_app(
        Path(os.environ[SITE_ENV]), os.environ.get(RULESET_ENV), json.loads(hosts) if hosts is not None else None
    )


def allowed_hosts(host: str, port: int, given: list[str]) -> list[str]:
    """The Host entries answered: loopback and ``host`` on ``port``, then ``--allowed-host`` and
    :data:`havoc.web.server.app.HOSTS_ENV`'s (a defence against DNS rebinding: see the README)."""
    from havoc.web.server.app import HOSTS_ENV, Hosts

    extra = [*given, *os.environ.get(HOSTS_ENV, "").split(",")]
    return Hosts.bound(host, port, [e.strip() for e in extra if e.strip()])


def cmd_serve(args: argparse.Namespace) -> int:
    from havoc.core.errors import Code, InputError, Problem

    if args.workers < 1:
        raise InputError([Problem("--workers", None, "expected a whole number ≥ 1", code=Code.REQUEST_USAGE)])
    if not 0 < args.port < 65536:
        raise InputError([Problem("--port", None, "expected a port number from 1 to 65535", code=Code.REQUEST_USAGE)])
    busy = port_in_use(args.host, args.port)
    if busy:
        print(busy, file=sys.stderr)
        return 1
    try:
        import orjson  # noqa: F401  (the server's JSON encoder)
        import uvicorn
    except ImportError:
        print(said("error: `havoc serve` needs the serve extra: pip install -e '.[serve]'"), file=sys.stderr)
        return 1
    code = ensure_site(args.site, args.ruleset)
    if code:
        return code
    os.environ[SITE_ENV] = str(args.site.resolve())
    os.environ[RULESET_ENV] = args.ruleset
    os.environ[HOSTS_LIST_ENV] = json.dumps(allowed_hosts(args.host, args.port, args.allowed_host))
    from havoc.engine import rulebook

    rulebook.load(args.ruleset)  # a broken rulebook stops here with its located problems
    from havoc.web.server.limits import uvicorn_settings

    address = f"http://{args.host}:{args.port}/"
    print(said("serving {address} (the assistant: /en/assistant.html, API: /api/docs)", address=address))
    uvicorn.run(
        "havoc.cli.commands.serve:app_factory",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="warning",
        access_log=False,
        server_header=False,
        **uvicorn_settings(),
    )
    return 0


def port_in_use(host: str, port: int) -> str:
    """One line saying the port is taken (empty when it is free), checked before anything else
    is printed or built: uvicorn would say so only after our start-up line, and exit 3."""
    import errno
    import socket

    from havoc.language.i18n import message_language, ui

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        return ui("error: cannot listen on {host}: {reason}", message_language()).format(host=host, reason=exc.strerror)
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return ui(
                    "error: port {port} on {host} is in use (another `havoc serve`?); choose another with --port",
                    message_language(),
                ).format(port=port, host=host)
            return ui("error: cannot listen on {host}: {reason}", message_language()).format(
                host=host, reason=exc.strerror
            )
    return ""
