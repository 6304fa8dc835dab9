"""What every component reads during one build: the ruleset, the language and its catalogs.

One build is one language (``app.config.language``), so the ruleset, the rule-text translator
and the site labels are loaded once per build and shared by the directives, the domain and the
page hooks. The loaded objects are cached by their inputs; ``rulebook.load`` and the catalog
loader already memoise by file content, so a rebuild after an edit sees the new text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from havoc.core.codes import WARNING_TYPE, Code
from havoc.engine import rulebook
from havoc.engine.rulebook.model import Loc, Ruleset
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, Translator, locales_root
from havoc.sphinxext.labels import LabelCatalog, set_current_labels

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)


@dataclass
class Context:
    """The ruleset and the texts of one language, plus where each came from (for dependencies)."""

    ruleset: Ruleset
    lang: str
    translator: Translator
    folder: Path
    labels: LabelCatalog
    _warned: set[tuple[str, str]] = field(default_factory=set)
    _order: dict[str, int] | None = None
    _recording: list[tuple[str, ...]] | None = None
    _words: dict[str, dict[str, str]] | None = None

    # --- the game's words ------------------------------------------------------------
    @property
    def words(self) -> dict[str, dict[str, str]]:
        """The game's position and question words (keys, values, known Regions), as label msgids."""
        if self._words is None:
            from havoc.sphinxext.labels import game_words

            self._words = game_words(self.ruleset.game)
        return self._words

    @property
    def game_labels(self) -> Any:
        """The game's labels (figures, kinds, units), or None for a ruleset without a game."""
        if not self.ruleset.game:
            return None
        from havoc.engine import game

        return game.of(self.ruleset).labels()

    def unit_text(self, unit: str, n: int) -> str:
        """A parameter's counted unit in the reader's language (through the game's words)."""
        words = self.game_labels
        return words.unit(unit, n, self.lang) if words else unit

    # --- what a page used (for precise incremental builds) -----------------------
    def record(self, *key: str) -> None:
        """Note one input of the page being read (see :func:`input_digest`)."""
        if self._recording is not None:
            self._recording.append(key)

    def start_recording(self) -> None:
        self._recording = []

    def stop_recording(self) -> list[tuple[str, ...]]:
        keys, self._recording = self._recording or [], None
        return list(dict.fromkeys(keys))

    def current(self, key: tuple[str, ...]) -> str:
        """The present value of a recorded input (compared with the value when the page was read)."""
        rs = self.ruleset
        kind, *args = key
        if kind == "text":
            found = (
                self.translator.catalog.singular.get((self.translator.key(args[0]), args[1]))
                if self.translator.catalog
                else None
            )
            return found if found is not None else args[1]
        if kind == "label":
            return self.labels.messages.get(args[0], args[0]) if self.lang != SOURCE_LANGUAGE else args[0]
        if kind == "param":
            return repr(rs.params[args[0]].value) if args[0] in rs.params else ""
        if kind == "term-name":
            return self.term_name(args[0], int(args[1]) if args[1] else None) if args[0] in rs.terms else ""
        if kind == "rule":
            return repr(rs.rules.get(args[0]))
        if kind == "section":
            return repr(rs.sections.get(args[0]))
        if kind == "overlay":
            return repr(rs.overlays.get(args[0]))
        if kind == "view":
            rid = args[0]
            views = {o.id: rs.view(None if o.kind == "errata" else o.id) for o in rs.overlays.values()}
            return repr(
                sorted(
                    (
                        oid,
                        [a.id for a in v.amendments.get(rid, ())],
                        getattr(v.replaced_by.get(rid), "id", ""),
                        rid in v.removed,
                    )
                    for oid, v in views.items()
                )
            )
        if kind == "terms":
            return repr(sorted(rs.terms.items()))
        if kind == "outline":
            return repr((rs.parts, sorted(rs.overlays)))
        if kind == "sources":
            return repr(rs.sources)
        if kind == "fact":
            name = args[0]
            for prefix in ("from.", "to."):
                if name.startswith(prefix):
                    name = "region." + name[len(prefix) :]
            return repr(rs.facts.get(name) or rs.facts.get(args[0]))
        if kind == "homes":
            section = rs.sections.get(args[0])
            ids = set(section.rule_ids) if section else set()
            return repr(sorted(repr(t) for t in rs.terms.values() if ids & set(t.see)))
        return ""

    def param_value(self, name: str) -> int | float | bool | str:
        self.record("param", name)
        return self.ruleset.param(name)

    # --- texts ------------------------------------------------------------------
    def text(self, context: str, msgid: str, location: Any = None) -> str:
        """A rule text in the build's language; a missing translation is a warning (an error under -W)."""
        self.record("text", context, msgid)
        if self.lang == SOURCE_LANGUAGE:
            return msgid
        catalog = self.translator.catalog
        found = catalog.singular.get((self.translator.key(context), msgid)) if catalog else None
        if found is None:
            if (context, msgid) not in self._warned:
                self._warned.add((context, msgid))
                logger.warning(
                    "no %s translation of [%s] %r (run `havoc catalog update` and translate rules.po)",
                    self.lang,
                    context,
                    msgid if len(msgid) < 60 else msgid[:57] + "…",
                    type=WARNING_TYPE,
                    subtype=Code.CATALOG_UNTRANSLATED,
                    location=location,
                )
            return msgid
        return found

    def missing_label(self, what: str, name: str, location: Any = None) -> None:
        """A figure or question kind with no words to show: a warning (so ``-W`` fails the build)."""
        if (what, name) not in self._warned:
            self._warned.add((what, name))
            logger.warning(
                "the %s %r has no label; add one in the game package's labels and its Polish in havoc.po",
                what,
                name,
                type=WARNING_TYPE,
                subtype=Code.KIND_NO_LABEL,
                location=location,
            )

    def label(self, msgid: str, location: Any = None) -> str:
        self.record("label", msgid)
        return self.labels.get(msgid, location)

    def title(self, ident: str, location: Any = None) -> str:
        """The title of a rule, section or overlay by ID, in the build's language."""
        rs = self.ruleset
        if ident in rs.rules:
            return self.text(f"{ident}:title", rs.rules[ident].title, location)
        if ident in rs.sections:
            return self.text(f"{ident}:title", rs.sections[ident].title, location)
        if ident in rs.overlays:
            return self.text(f"{ident}:title", rs.overlays[ident].title, location)
        return ident

    def term_name(self, term_id: str, count: int | None = None) -> str:
        self.record("term-name", term_id, "" if count is None else str(count))
        return self.translator.term_name(self.ruleset, term_id, count)

    def term_forms(self, term_id: str) -> list[str]:
        """The forms a reader may search for: the name's plural forms and the listed inflections."""
        term = self.ruleset.terms[term_id]
        forms = [self.term_name(term_id), self.term_name(term_id, 2), self.term_name(term_id, 5)]
        if term.search_forms:
            forms += self.text(f"term:{term_id}:search-forms", term.search_forms).split(",")
        return list(dict.fromkeys(f.strip().lower() for f in forms if f.strip()))

    def fact_description(self, name: str, location: Any = None) -> str:
        """What a fact means, in the build's language (region facts are shared by from/to/region)."""
        rs = self.ruleset
        key = name
        if key not in rs.facts:
            for prefix in ("from.", "to."):
                if name.startswith(prefix) and "region." + name[len(prefix) :] in rs.facts:
                    key = "region." + name[len(prefix) :]
        fact = rs.facts.get(key)
        if fact is None:
            return name
        return self.text(f"fact:{key}:description", fact.description, location)

    def order(self) -> dict[str, int]:
        """Each rule's place in the book: parts, sections, rules, then the overlays."""
        if self._order is None:
            rs = self.ruleset
            ids = [rid for part in rs.parts for sid in part.section_ids for rid in rs.sections[sid].rule_ids]
            ids += [rid for overlay in rs.overlays.values() for rid in overlay.rule_ids]
            self._order = {rid: i for i, rid in enumerate(dict.fromkeys(ids))}
        return self._order

    # --- files ------------------------------------------------------------------
    def path(self, loc: Loc | str) -> Path:
        """The file a model location points at (locations are relative to the rules' parent)."""
        name = loc.file if isinstance(loc, Loc) else loc
        for base in (self.folder.parent.parent, self.folder.parent, self.folder):
            candidate = base / name
            if candidate.is_file():
                return candidate
        return self.folder / name

    def ruleset_file(self) -> Path:
        return self.folder / "ruleset.yaml"

    def glossary_file(self) -> Path:
        return self.folder / "glossary.yaml"


_contexts: dict[tuple[Any, ...], Context] = {}
_current: list[Context] = []


def input_digest(ctx: Context, keys: list[tuple[str, ...]]) -> str:
    """A digest of the present values of a page's inputs: unchanged digest, unchanged page."""
    import hashlib

    h = hashlib.sha256()
    for key in keys:
        h.update(repr(key).encode())
        h.update(ctx.current(key).encode())
    return h.hexdigest()


def rules_root(config: Config) -> Path:
    configured = getattr(config, "havoc_rules", None)
    return Path(configured) if configured else rulebook.rules_root()


def locale_dirs(config: Config, srcdir: Path) -> list[Path]:
    """Sphinx's ``locale_dirs`` as absolute paths (they are relative to the source folder)."""
    return [Path(srcdir, d) for d in config.locale_dirs]


def build_context(config: Config, srcdir: Path) -> Context:
    """Load (or reuse) the context for this configuration."""
    lang = config.language or SOURCE_LANGUAGE
    if lang not in LANGUAGES:
        raise ValueError(f"havoc: no catalogs for language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    root = rules_root(config)
    name = config.havoc_ruleset or rulebook.default_ruleset(root)
    ruleset = rulebook.load(name, root)
    dirs = locale_dirs(config, srcdir)
    key: tuple[Any, ...] = (
        str(root),
        name,
        ruleset.fingerprint,
        lang,
        str(locales_root()),
        tuple(map(str, dirs)),
    )
    folders = [locales_root(), *dirs]
    key += tuple(p.stat().st_mtime_ns for d in folders for p in sorted((d / lang / "LC_MESSAGES").glob("*.po")))
    ctx = _contexts.get(key)
    if ctx is None:
        ctx = Context(
            ruleset,
            lang,
            Translator(lang, scope=ruleset.id),
            rulebook.ruleset_folder(name, root),
            LabelCatalog.load(lang, dirs),
        )
        _contexts.clear()
        _contexts[key] = ctx
    _current[:] = [ctx]
    set_current_labels(ctx.labels)
    return ctx


def get_context(env: BuildEnvironment) -> Context:
    """The context of the build ``env`` belongs to."""
    if _current:
        return _current[0]
    return build_context(env.config, Path(env.srcdir))


def on_builder_inited(app: Sphinx) -> None:
    """Load the rules once at the start of a build (a broken ruleset stops the build here, clearly)."""
    _current.clear()
    set_current_labels(None)
    build_context(app.config, Path(app.srcdir))
