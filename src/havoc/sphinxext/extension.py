"""Wires the components of the extension together (one ``setup_<x>`` per component)."""

from __future__ import annotations

import importlib
import json
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2.bccache import Bucket, BytecodeCache
from sphinx.errors import ConfigError

from havoc import __version__
from havoc.core import cache, safeio
from havoc.core.errors import HavocError
from havoc.sphinxext.changes import setup_changes
from havoc.sphinxext.codes import setup_codes
from havoc.sphinxext.contents import setup_contents
from havoc.sphinxext.context import build_context
from havoc.sphinxext.csp import setup_csp
from havoc.sphinxext.domain import setup_domain
from havoc.sphinxext.glossary import setup_glossary
from havoc.sphinxext.home import setup_home
from havoc.sphinxext.langswitch import setup_langswitch
from havoc.sphinxext.listed import setup_listed
from havoc.sphinxext.offline import setup_offline
from havoc.sphinxext.overlay import setup_overlay
from havoc.sphinxext.pages import setup_pages, write_stubs
from havoc.sphinxext.rule import setup_rule
from havoc.sphinxext.search_pl import setup_search
from havoc.sphinxext.section import setup_section
from havoc.sphinxext.seo import setup_seo
from havoc.sphinxext.sheet import setup_sheet
from havoc.sphinxext.sidebar import setup_sidebar
from havoc.sphinxext.theme_i18n import setup_theme_i18n

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

HERE = Path(__file__).parent
# The code that turns the model into doctrees: when it changes, saved doctrees are stale.
RENDERING_CODE = (
    HERE,
    *map(Path, cache.sources("havoc.language.markup", "havoc.language.i18n", "havoc.language.grammar")),
)


def code_version(paths: tuple[Path, ...] = RENDERING_CODE) -> int:
    """A number that changes with the rendering code, given to Sphinx as ``env_version`` so an
    edited extension re-reads every page instead of serving doctrees made by the old code."""
    files = sorted(f for p in paths for f in (p.rglob("*.py") if p.is_dir() else [p]))
    crc = 0
    for f in files:
        crc = zlib.crc32(f.name.encode() + f.read_bytes(), crc)
    return crc


def on_config_inited(app: Sphinx, config: Config) -> None:
    """Load the ruleset first (a broken one stops here with its located errors) and add our assets."""
    try:
        build_context(config, Path(app.srcdir))
    except HavocError as exc:
        problems = "\n".join(f"  {p}" for p in exc.problems)
        raise ConfigError(f"havoc: the rules do not load:\n{problems}") from None
    config.templates_path = [*config.templates_path, str(HERE / "templates")]
    config.html_static_path = [*config.html_static_path, str(HERE / "static")]


class _CompiledTemplates(BytecodeCache):
    """The theme's templates compiled once per process, kept in memory only (never on disk: a
    cache must not run code it reads back). ``havoc docs`` builds the second language of an
    incremental build in the same process, which then skips compiling every template again."""

    def __init__(self) -> None:
        self.codes: dict[tuple[str, str, tuple[str, ...]], Any] = {}

    def _key(self, bucket: Bucket) -> tuple[str, str, tuple[str, ...]]:
        return (bucket.key, bucket.checksum, tuple(sorted(bucket.environment.extensions)))

    def load_bytecode(self, bucket: Bucket) -> None:
        bucket.code = self.codes.get(self._key(bucket))

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.codes[self._key(bucket)] = bucket.code


COMPILED_TEMPLATES = _CompiledTemplates()
TEMPLATES_RECORD = "havoc-templates.json"  # in a build's doctree folder: see record_templates


def record_templates(app: Sphinx, exception: BaseException | None) -> None:
    """Note, beside the saved doctrees, where the build found its page templates and which it
    loaded (folders and names: data, never code), so ``havoc docs`` can compile them once before
    it forks a rebuild's languages (:func:`warm_templates`) instead of once in each language."""
    bridge: Any = getattr(app.builder, "templates", None)
    environment = getattr(bridge, "environment", None)
    first = getattr(bridge, "templatepathlen", None)
    if exception is not None or environment is None or not isinstance(first, int):
        return
    record = {
        "confdir": str(app.confdir),
        "templates_path": [str(p) for p in app.config.templates_path],
        "dirs": [str(d) for loader in bridge.loaders[first:] for d in loader.searchpath],
        "names": sorted({key[1] for key in environment.cache} if environment.cache is not None else ()),
    }
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    path = Path(app.doctreedir) / TEMPLATES_RECORD
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except OSError:
        pass
    safeio.write_text(path, text)


def warm_templates(doctrees: list[Path]) -> int:
    """Compile the templates the builds with these doctree folders loaded last time (see
    :func:`record_templates`) into :data:`COMPILED_TEMPLATES`, in an environment made as
    Sphinx's template bridge makes it (the same loader folders, filters and extensions); the
    number compiled. A template is reused only under its name, file and source text, so a
    stale record costs only its compiling."""
    from gettext import NullTranslations
    from types import SimpleNamespace

    from sphinx.jinja2glue import BuiltinTemplateLoader

    chains: dict[tuple[str, tuple[str, ...], tuple[str, ...]], set[str]] = {}
    for folder in doctrees:
        try:
            record = json.loads((folder / TEMPLATES_RECORD).read_text(encoding="utf-8"))
            chain = (record["confdir"], tuple(record["templates_path"]), tuple(record["dirs"]))
            names = record["names"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if all(isinstance(x, str) for x in (chain[0], *chain[1], *chain[2], *names)):
            chains.setdefault(chain, set()).update(names)
    compiled = 0
    for (confdir, templates_path, dirs), names in chains.items():
        bridge = BuiltinTemplateLoader()
        builder = SimpleNamespace(
            config=SimpleNamespace(templates_path=list(templates_path)),
            confdir=Path(confdir),
            _translator=NullTranslations(),
        )
        bridge.init(builder, None, list(dirs))  # type: ignore[arg-type]
        bridge.environment.bytecode_cache = COMPILED_TEMPLATES
        for name in sorted(names):
            try:
                bridge.environment.get_template(name)
                compiled += 1
            except Exception:  # the build compiles (and reports) it itself
                continue
    return compiled


def on_builder_inited(app: Sphinx) -> None:
    build_context(app.config, Path(app.srcdir))
    write_stubs(app)
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if environment is not None and environment.bytecode_cache is None:
        environment.bytecode_cache = COMPILED_TEMPLATES
    compile_only_read_catalogs(app)


def compile_only_read_catalogs(app: Sphinx) -> None:
    """Sphinx compiles every catalog of the locale folders to a .mo file before it builds, yet it
    reads only its own (``sphinx``) and the pages' (``gettext_compact``: ``site``); havoc reads
    ``rules.po`` and ``havoc.po`` itself (:mod:`havoc.language.i18n`), so compiling them after each edit
    of a rule's translation was a rebuild's work for a file nothing opens."""
    compact = app.config.gettext_compact
    builder = app.builder
    if not isinstance(compact, str) or not hasattr(builder, "compile_catalogs"):
        return  # the pages' catalogs are named after the pages: leave Sphinx's own choice
    read = {"sphinx", compact}
    compile_all = builder.compile_catalogs

    def compile_read(catalogs: set[Any], message: str) -> None:
        compile_all({c for c in catalogs if c.domain in read}, message)

    builder.compile_catalogs = compile_read  # type: ignore[method-assign]


def site_extensions() -> list[str]:
    """The modules the installed games add to the site (``SITE_EXTENSION``: a ``setup_site(app)``)."""
    from havoc.engine import game

    found = []
    for module in game.installed():
        extension = getattr(game.load(module), "SITE_EXTENSION", None)
        if extension:
            found.append(extension)
    return found


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("havoc_ruleset", "", "env", types=[str])  # "" = rules/default-ruleset
    app.add_config_value("havoc_rules", "", "env", types=[str])
    app.connect("config-inited", on_config_inited, priority=400)
    app.connect("builder-inited", on_builder_inited)
    app.connect("build-finished", record_templates)
    setup_domain(app)
    setup_rule(app)
    setup_section(app)
    setup_overlay(app)
    setup_glossary(app)
    setup_changes(app)
    setup_contents(app)
    setup_pages(app)
    setup_langswitch(app)
    setup_listed(app)
    setup_seo(app)
    setup_search(app)
    setup_sidebar(app)
    setup_sheet(app)
    setup_theme_i18n(app)
    for module in site_extensions():
        importlib.import_module(module).setup_site(app)
    setup_home(app)
    setup_codes(app)
    setup_offline(app)
    setup_csp(app)
    app.add_css_file("havoc.css")
    app.add_js_file("havoc.js", loading_method="defer")
    return {
        "version": __version__,
        "env_version": code_version(),
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
