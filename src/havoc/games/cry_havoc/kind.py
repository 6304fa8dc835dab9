"""What a question kind is, and the registry of Cry Havoc's kinds (one module per kind in ``kinds/``).

A kind's module (``kinds/move.py`` for ``move``) holds everything about that kind: its handler
(the function that answers it), its probe in the legal-actions report (if it has one), the
question sentences and words it says, and, at its end, its declaration ``KIND``: the label (the
kind's word for people, a ``ui("…")`` string so the catalogs translate it once), the fields a
question of that kind needs, the other fields the Ask page offers for it, the words a compact
question may give bare (``retreat pilgrims foglands``), the figures its answers give (each with
its source: the rules whose checks define it, by ID, or :data:`HANDLER`; an answer gives these
and no other figure, whatever the rules it consults compute), a line of help, whether it is asked for a faction, what it answers (the positions page's table) and what
its verdict says (:data:`VERDICTS`). The list of kinds is the ``kinds/`` folder's modules, each
in its declaration's ``order=`` (:func:`havoc.engine.rulebook.declared_kinds`; no list is kept by hand).
Everything that lists kinds (the question format's fields, ``havoc ask --help``, the answers'
JSON Schema, the positions page's table, the Ask page's form, the legal-actions report) is
derived from the declarations. A kind's module is imported only when that kind is asked about:
what lists kinds or names figures reads the kinds' manifest (:func:`manifest`: the declarations
as plain data in the verified cache, which ``havoc check`` writes and any reader makes again,
importing the kinds, when it is missing or stale).

``havoc check`` (:func:`check`) resolves everything a kind names — its module, handler, probe,
verdict type, figure words and their sources (:func:`check_sources`: every figure a rule defines
is claimed by a kind), labels in every language and its row on the positions page — and
reports a missing piece as a located problem (the declaring file, the kind's name), never a
traceback. This module imports neither the answering code nor the kinds' modules by name, so
the kinds may import it (and the answering code) without an import cycle.
"""

from __future__ import annotations

import sys

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, Problem, RulebookError
from havoc.games.cry_havoc.contract import QUESTION_KINDS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from pathlib import Path
    from typing import Any

PACKAGE = "havoc.games.cry_havoc.kinds"  # where each kind's module lives

# What a kind's answers say in `verdict` — the one rule, enforced when a question is answered:
#   yes-no:  a question "may …?"/"can …?": true, false or "no-unless";
#   checked: the answer is its figures (a report, a count the rules impose); the verdict says
#            whether every rule checked holds (true or false, never null);
#   none:    the answer is only its figures or lines (how many, what happens): always null.
VERDICTS = ("yes-no", "checked", "none")

# A figure's source when no rule's check defines it: the kind's handler works it out (a count,
# a list, a Battle's outcome per side), from what the rules it consults say.
HANDLER = "handler"


def _where(path: str) -> str:
    """A path relative to the repository when it is inside it."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[4]  # the repository
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return path


class QuestionKind:
    """What one question kind is: its fields, figures, words, handler and probe."""

    __slots__ = (
        "answers",
        "bare",
        "fields",
        "figure_words",
        "figures",
        "form_label",
        "handler",
        "help",
        "label",
        "line",
        "name",
        "needs",
        "no_actor",
        "offers",
        "order",
        "path",
        "per_side",
        "probe",
        "sources",
        "verdict",
    )

    def __init__(
        self,
        *,
        name: str,
        label: str,
        help: str,
        answers: str,
        needs: tuple[str, ...],
        figures: Mapping[str, str | tuple[str, ...]] | tuple[str, ...],
        per_side: tuple[str, ...] = (),
        no_actor: bool = False,
        handler: Callable[[Any], Any] | None = None,
        probe: Callable[[Any], None] | None = None,
        verdict: str,
        offers: tuple[str, ...] = (),
        bare: tuple[str, ...] = (),
        form_label: str | None = None,
        figure_words: Mapping[str, str] | None = None,
        order: int | None = None,
    ) -> None:
        self.name = name
        # where it comes in every list of kinds: read from the module's text without importing it
        # (havoc.engine.rulebook.declared_kinds), so written as a plain number; kinds without one come last, by name
        self.order = order
        self.label = label  # English; in other languages through the `ui` catalog
        self.verdict = verdict  # one of VERDICTS
        self.help = help
        self.answers = answers  # what it answers, in a few words (the positions page's table), ui("…")
        self.needs = needs  # question fields it needs besides `ask` (and `faction`)
        self.fields = needs
        self.offers = offers  # other fields it takes, offered by the Ask page's form too
        self.bare = bare  # fields a compact question may give as a bare word (an enum choice or a Region)
        self.form_label = form_label  # the Ask page's words for it when not its label, ui("…")
        # the figures its answers give, each with where it comes from: the rules whose checks
        # define it (their IDs: the expressions stay in rules/) or HANDLER (the handler works it
        # out); an answer gives these and no other (``handle``), whatever the rules it consults compute
        if isinstance(figures, dict):
            self.figures = tuple(figures)
            self.sources = {k: (v,) if isinstance(v, str) else tuple(v) for k, v in figures.items()}
        else:  # names alone: `havoc check` asks where each comes from
            self.figures = tuple(figures)
            self.sources = {}
        # labels of figures only this kind gives ({name: ui("…")}); the shared ones are in ui.py
        self.figure_words = dict(figure_words or {})
        self.per_side = per_side  # figures given per side of a Battle ({faction: value})
        self.no_actor = no_actor  # asked about the table, not for a faction
        self.handler = handler  # answers a question of this kind (job -> Answer)
        self.probe = probe  # adds this kind's line to the legal-actions report (report -> None), if any
        caller = sys._getframe(1)  # where the kind is declared, for located messages
        self.path, self.line = caller.f_code.co_filename, caller.f_lineno

    @property
    def where(self) -> str:
        """The declaring module's path, relative to the repository when it is inside it."""
        return _where(self.path)

    def resolve(self) -> Callable[[Any], Any]:
        """The handler function; a located RulebookError when the declaration names none."""
        if not callable(self.handler):
            raise RulebookError([self.problem("names no handler (handler=the function that answers it)")])
        return self.handler

    def handle(self, job: Any) -> Any:
        found = self.resolve()(job)
        figures = found.figures
        if figures:  # only the figures it declares: a figure a consulted rule computes for another kind stays out
            declared = self.figures
            for name in figures:
                if name not in declared:
                    found.figures = {k: v for k, v in figures.items() if k in declared}
                    break
        if self.verdict != "yes-no":  # the question asks for figures, not a yes or no
            found.yes_no = False
        if self.verdict == "none":
            found.verdict = None
        return found

    def problem(self, message: str, code: str = Code.KIND_DECLARATION) -> Problem:
        return Problem(self.where, self.line, f"question kind {self.name!r}: {message}", code=code)


_loaded: dict[str, QuestionKind | None] = {}
_broken: dict[str, Problem] = {}  # a kind whose module does not load: why, located


def module_name(kind: str) -> str:
    return f"{PACKAGE}.{kind.replace('-', '_')}"


def module_path(kind: str) -> str:
    """Where a kind's module is (or should be), relative to the repository."""
    from pathlib import Path

    return _where(str(Path(__file__).resolve().parent / "kinds" / f"{kind.replace('-', '_')}.py"))


def get(kind: str) -> QuestionKind | None:
    """The declared kind, or None when its module is missing or broken (``havoc check`` says which)."""
    if kind not in _loaded:
        found: Any = None
        try:
            __import__(module_name(kind))  # importlib.import_module, without importing importlib
            found = sys.modules[module_name(kind)].KIND
        except ModuleNotFoundError as exc:
            if exc.name != module_name(kind):  # the module is there but imports something that is not
                _broken[kind] = _load_problem(kind, exc)
        except Exception as exc:  # a kind's module that fails to load is a located problem, not a traceback
            _broken[kind] = _load_problem(kind, exc)
        ok = isinstance(found, QuestionKind) and found.name == kind
        if not ok and found is not None:
            _broken[kind] = Problem(
                module_path(kind),
                None,
                f"question kind {kind!r}: KIND declares no QuestionKind named {kind!r}",
                code=Code.KIND_DECLARATION,
            )
        _loaded[kind] = found if ok else None
    return _loaded[kind]


def broken(kind: str) -> Problem | None:
    """Why a declared kind's module does not load (None when it loads or is simply missing)."""
    get(kind)
    return _broken.get(kind)


def _load_problem(kind: str, exc: BaseException) -> Problem:
    """Where a kind's module fails to load: its file and line (the innermost frame in that file)."""
    path, line = module_path(kind), None
    tb = exc.__traceback__
    while tb is not None:
        if _where(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, SyntaxError) and exc.lineno:
        line = exc.lineno
    return Problem(
        path,
        line,
        f"question kind {kind!r}: its module does not load: {type(exc).__name__}: {exc}",
        code=Code.KIND_MODULE,
    )


def all_kinds() -> Iterator[QuestionKind]:
    """Every declared kind with a module, in their declared order."""
    for kind in QUESTION_KINDS:
        found = get(kind)
        if found is not None:
            yield found


def labels() -> dict[str, str]:
    """Every declared kind's label, in English (the vocabulary's order), from the manifest."""
    return {k.name: k.label for k in declared()}


def needs(kind: str) -> tuple[str, ...]:
    found = get(kind)
    return found.needs if found else ()


def figure_words() -> dict[str, str]:
    """The figure labels the kinds declare themselves (English), from the manifest."""
    return kind_figure_words()


def figures() -> dict[str, tuple[str, ...]]:
    """Each kind's figures, from the manifest (no kind's module imported when it is cached)."""
    return {k.name: k.figures for k in declared()}


def per_side() -> frozenset[str]:
    return frozenset(f for k in declared() for f in k.per_side)


# --- the manifest: what every kind declares, without importing the kinds' modules -----------

MANIFEST = "kinds-manifest"  # its entry in the verified cache (havoc.core.cache): plain data, never code
_MANIFEST_VERSION = 2  # 2: each kind says whether it probes


class Declared:
    """What the manifest keeps of one kind's declaration: everything that lists kinds (``havoc
    ask --help``, the answers' JSON Schema, the figure labels) reads this, not the kind's module."""

    __slots__ = (
        "bare",
        "figures",
        "help",
        "label",
        "line",
        "module",
        "name",
        "needs",
        "offers",
        "path",
        "per_side",
        "probes",
    )

    def __init__(self, name: str, entry: Mapping[str, Any]) -> None:
        self.name = name
        self.module: str = entry["module"]
        self.path: str = entry["path"]
        self.line: int = entry["line"]
        self.label: str = entry["label"]
        self.help: str = entry["help"]
        self.figures: tuple[str, ...] = tuple(entry["figures"])
        self.per_side: tuple[str, ...] = tuple(entry["per_side"])
        self.needs: tuple[str, ...] = tuple(entry["needs"])
        self.offers: tuple[str, ...] = tuple(entry["offers"])
        self.bare: tuple[str, ...] = tuple(entry["bare"])
        # whether the kind adds a line to the legal-actions report: `legal` imports only these kinds
        self.probes: bool = bool(entry["probes"])


def _entry(kind: QuestionKind) -> dict[str, Any]:
    return {
        "module": module_name(kind.name),
        "path": kind.where,
        "line": kind.line,
        "label": kind.label,
        "help": kind.help,
        "figures": list(kind.figures),
        "sources": {name: list(found) for name, found in kind.sources.items()},
        "per_side": list(kind.per_side),
        "needs": list(kind.needs),
        "offers": list(kind.offers),
        "bare": list(kind.bare),
        "probes": kind.probe is not None,
        "words": dict(kind.figure_words),
    }


def build_manifest() -> dict[str, Any]:
    """The manifest made afresh from the declarations (importing every kind's module): each
    kind's module, figures, their sources, per-side figures, fields and words; and the labels
    (English: the catalogs' msgids) of the figures the kinds label themselves (``figure_words``;
    the figures several kinds give are labelled in ui.py, which every answer imports anyway)."""
    kinds = {k.name: _entry(k) for k in all_kinds()}
    labels = {name: text for entry in kinds.values() for name, text in entry["words"].items()}
    return {"version": _MANIFEST_VERSION, "kinds": kinds, "labels": labels}


def _manifest_key() -> str:
    """The manifest's key: the bytes of the code it is made from (this module and every listed
    kind's module) and the list of kinds; an edit of any makes it stale. A sealed bundle ships
    that code as bytecode only: there the key the build recorded (:mod:`havoc.core.sealed`)."""
    from havoc.core import sealed

    return sealed.value("kinds-manifest", __name__, _code_key)


def _code_key() -> str:
    import os

    from havoc.core import cache

    here = os.path.dirname(__file__)
    code = [__file__, *(os.path.join(here, "kinds", f"{k.replace('-', '_')}.py") for k in QUESTION_KINDS)]
    head = [MANIFEST.encode(), "\0".join(QUESTION_KINDS).encode()]
    # the stat facts of the code may vouch for the key without reading it (cache.remembered)
    return cache.remembered(
        "kinds manifest\0" + "\0".join(QUESTION_KINDS), code, lambda: cache.digest(*head, *map(cache.code_bytes, code))
    )


_manifests: list[dict[str, Any]] = []  # the manifest this process read or made (at most one)


def manifest() -> dict[str, Any]:
    """The kinds' manifest: from the verified cache (``havoc check`` writes it), else made from
    the declarations (importing every kind) and stored; the declarations already loaded in this
    process when every kind is (nothing to import then, and a test's changes show)."""
    if _manifests:
        return _manifests[0]
    if all(_loaded.get(k) is not None for k in QUESTION_KINDS):
        found = build_manifest()
    else:
        from havoc.core import cache

        key = _manifest_key()
        got = cache.get(MANIFEST, key, dict)
        if got is None or got.get("version") != _MANIFEST_VERSION or not _well_formed(got):
            got = build_manifest()
            cache.put(MANIFEST, key, got)
        found = got
    _manifests.append(found)
    return found


def _well_formed(found: dict[str, Any]) -> bool:
    """A cached manifest lists exactly the vocabulary's kinds, each with every field (else rebuilt)."""
    kinds = found.get("kinds")
    if not isinstance(kinds, dict) or list(kinds) != [k for k in QUESTION_KINDS if k in kinds]:
        return False
    try:
        for name, entry in kinds.items():
            Declared(name, entry)
    except (KeyError, TypeError):
        return False
    return isinstance(found.get("labels"), dict)


def write_manifest() -> dict[str, Any]:
    """``havoc check``: the manifest made from the declarations, stored in the verified cache."""
    from havoc.core import cache

    _manifests.clear()
    found = build_manifest()
    cache.put(MANIFEST, _manifest_key(), found)
    _manifests.append(found)
    return found


def forget_manifest() -> None:
    """Forget the manifest read in this process (after a kind's declaration changed, in tests)."""
    _manifests.clear()


def declared() -> list[Declared]:
    """Every declared kind as the manifest keeps it, in the vocabulary's order."""
    return [Declared(name, entry) for name, entry in manifest()["kinds"].items()]


def kind_figure_words() -> dict[str, str]:
    """The figure labels the kinds declare themselves (English), from the manifest."""
    found: dict[str, str] = manifest()["labels"]
    return found


def check_sources(kinds: Iterable[QuestionKind], rules: Mapping[str, Any], own: bool = True) -> list[Problem]:
    """Where each figure comes from, verified against ``rules`` (a ruleset's rules, overlays'
    too): a declared figure's source is a rule whose check defines it, or the handler; and every
    figure a rule's check defines for a question kind is claimed by some kind (else no answer
    ever gives it: the rule file's line says which). ``own``: the rules are the game's own
    ruleset, which has every rule a kind names; another ruleset of the game (a test's smaller
    one) may lack some, and then simply gives no such figure, and its own rules' figures are
    claimed by a kind they are for that gives a figure of that name."""
    kinds = list(kinds)
    defines: dict[
        str, set[str]
    ] = {}  # rule ID -> the figures its check defines (an overlay's rule counts for its target)
    for rule in rules.values():
        check = rule.check
        if check is not None and check.figures:
            for rid in (rule.id, rule.target):
                if rid:
                    defines.setdefault(rid, set()).update(check.figures)
    problems: list[Problem] = []
    claimed: set[tuple[str, str]] = set()
    for kind in kinds:
        for name in kind.figures:
            sources = kind.sources.get(name)
            if not sources:
                problems.append(
                    kind.problem(
                        f"figure {name!r} names no source: figures={{{name!r}: the ID of the rule whose check "
                        "defines it, or HANDLER when the handler works it out}"
                    )
                )
                continue
            for source in sources:
                if source == HANDLER:
                    continue
                claimed.add((source, name))
                if source not in rules and source not in defines:
                    if own:
                        problems.append(
                            kind.problem(
                                f"figure {name!r} comes from rule {source!r}, which is no rule",
                                code=Code.FIGURE_MISSING,
                            )
                        )
                elif name not in defines.get(source, ()):
                    problems.append(
                        kind.problem(
                            f"figure {name!r} comes from rule {source!r}, whose check defines no {name!r}",
                            code=Code.FIGURE_MISSING,
                        )
                    )
    asked = set(QUESTION_KINDS)
    gives = {k.name: set(k.figures) for k in kinds}  # another ruleset's rules: claimed by the figure's name
    for rule in rules.values():
        check = rule.check
        if check is None or not check.figures or not asked.intersection(check.queries):
            continue
        for name in check.figures:
            if (rule.id, name) in claimed or (rule.target and (rule.target, name) in claimed):
                continue
            if not own and any(name in gives.get(q, ()) for q in check.queries):
                continue
            where = ", ".join(module_path(q) for q in check.queries if q in asked)
            problems.append(
                Problem(
                    str(rule.loc.file),
                    rule.loc.line,
                    f"rule {rule.id!r}: its figure {name!r} is claimed by no question kind, so no answer gives it: "
                    f"name it in the figures of the kind that reports it ({name!r}: {rule.id!r} in {where}), "
                    "or drop it from the check",
                    code=Code.FIGURE_UNCLAIMED,
                )
            )
    return problems


def check_manifest(kinds: Iterable[QuestionKind], shared: Mapping[str, str]) -> list[Problem]:
    """The manifest ``havoc check`` compiles: every figure label a kind gives (its own words, or
    ``shared``: the labels several kinds share, English) is translated in every language's
    havoc.po (context ``ui``), each omission at the kind's declaration (its module's file:line);
    a figure without a label is :func:`check_kinds`' to report. Writes the manifest to the
    verified cache (the game's package passes ``shared`` in: this module imports no words)."""
    from havoc.language.i18n import UI_CONTEXT

    kinds = list(kinds)
    write_manifest()
    labels = shared
    problems: list[Problem] = []
    catalogs = _catalogs("havoc")
    for kind in kinds:
        for name in kind.figures:
            msgid = labels.get(name) or kind.figure_words.get(name)
            if msgid is None:
                continue  # check_kinds says it has no label
            for lang, catalog in catalogs:
                if not _translated(catalog, msgid, UI_CONTEXT):
                    problems.append(
                        kind.problem(
                            f"the label of figure {name!r} ({msgid!r}) has no {lang} translation in "
                            f"locales/{lang}/LC_MESSAGES/havoc.po; run `havoc catalog update` and translate it"
                        )
                    )
    return problems


def check_kinds(kinds: Iterable[QuestionKind], named: Callable[[str], bool]) -> list[Problem]:
    """What ``havoc check`` verifies of declared kinds: each handler and probe is a function, its
    verdict type is known, and every figure has words (``named``)."""
    problems: list[Problem] = []
    for kind in kinds:
        try:
            kind.resolve()
        except RulebookError as exc:
            problems.extend(exc.problems)
        if kind.probe is not None and not callable(kind.probe):
            problems.append(kind.problem(f"probe {kind.probe!r} is no function (report -> None)"))
        unnamed = [f for f in kind.figures if f not in kind.figure_words and not named(f)]
        if unnamed:
            problems.append(
                kind.problem(
                    f"figures without a label (figure_words in its declaration, or ui.py's figure labels): "
                    f"{', '.join(unnamed)}"
                )
            )
        if kind.verdict not in VERDICTS:
            problems.append(kind.problem(f"verdict {kind.verdict!r} is none of {', '.join(VERDICTS)}"))
        problems.extend(_check_order(kind))
    return problems


def _check_order(kind: QuestionKind) -> list[Problem]:
    """The ``order=`` the lists of kinds read from the module's text (without importing it) is
    the declaration's own: a plain number, given once (else the kind is listed out of place)."""
    from havoc.engine.rulebook import order_of

    try:
        with open(kind.path, encoding="utf-8") as handle:
            read = order_of(handle.read())
    except (OSError, UnicodeDecodeError):
        return []
    if read != kind.order:  # None for both: no order, listed after the numbered kinds, by name
        return [kind.problem(f"order={kind.order!r} must be written as a plain number in KIND = QuestionKind(…)")]
    return []


def _catalogs(domain: str) -> list[tuple[str, Any]]:
    """Every translated language's catalog of ``domain`` (``havoc``), read as written."""

    from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, locales_root, read_po_bytes

    out = []
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        path = locales_root() / lang / "LC_MESSAGES" / f"{domain}.po"
        if path.is_file():
            out.append((lang, read_po_bytes(path.read_bytes(), lang)))
    return out


def _translated(catalog: Any, msgid: str, context: str | None = None) -> bool:
    found = catalog.get(msgid, context=context)
    return found is not None and bool(found.string) and not found.fuzzy


def check_labels(kinds: Iterable[QuestionKind]) -> list[Problem]:
    """Each kind's words are translated in every language's havoc.po (context ``ui``): its label
    (the assistant's and the site's name for it), what it answers (the positions page's table) and
    its Ask-page label. The site reads them from there too, so they are written and translated once."""
    from havoc.language.i18n import UI_CONTEXT

    kinds = list(kinds)
    problems: list[Problem] = []
    for lang, catalog in _catalogs("havoc"):
        for kind in kinds:
            words = (
                ("its label", kind.label),
                ("what it answers", kind.answers),
                ("its Ask-page label", kind.form_label),
            )
            for what, msgid in words:
                if msgid and not _translated(catalog, msgid, UI_CONTEXT):
                    problems.append(
                        kind.problem(
                            f"{what} ({msgid!r}) has no {lang} translation in locales/{lang}/LC_MESSAGES/havoc.po; "
                            'write it as ui("…") in the declaration, run `havoc catalog update` and translate it'
                        )
                    )
    return problems


def check_examples(kinds: Iterable[QuestionKind], rules: Mapping[str, Any]) -> list[Problem]:
    """Each kind is shown by at least one example in the rule data (a rule's ``examples:`` whose
    question asks it, every field a plain value, so a compact question can say it too): the
    examples are what ``havoc check`` runs, what the tests read every kind from (in Polish too)
    and what the site shows, so a kind without one is an omission, said at its declaration."""
    asked: set[str] = set()
    for rule in rules.values():
        for ex in rule.examples:
            query = ex.query if isinstance(ex.query, dict) else {}
            if all(isinstance(v, (str, int, bool)) for v in query.values()):
                asked.add(str(query.get("ask", "")))
    return [
        kind.problem(
            "no example in the rules asks it: give the rule its figures come from an example "
            f"(examples: [{{id: ex-…, position: …, query: {{ask: {kind.name}, …}}, expect: …}}]), "
            "each field of its query a plain value"
        )
        for kind in kinds
        if kind.name not in asked
    ]


def check_docs(kinds: Iterable[QuestionKind], pages: Iterable[Path]) -> list[Problem]:
    """The kinds have their docs entry: a page of the site writes the table of kinds (``{havoc-kinds}``),
    which has a row for every declared kind."""
    kinds, pages = list(kinds), [p for p in pages if p.is_file()]
    if not kinds or not pages or any("{havoc-kinds}" in p.read_text(encoding="utf-8") for p in pages):
        return []
    return [
        kind.problem("no page of the site lists it: the positions page lost its ```{havoc-kinds}``` table")
        for kind in kinds
    ]


def check(named: Callable[[str], bool], pages: Iterable[Path] = ()) -> list[Problem]:
    """Every declared kind's module, handler, probe, figure words, labels and docs entry exist.
    The game's package passes the figure-label test and the site's pages in, so this module
    imports neither the answering code nor its words."""
    declared = list(QUESTION_KINDS)
    kinds = [k for k in (get(name) for name in declared) if k is not None]
    broken = [_broken[name] for name in declared if name in _broken]
    missing = [
        Problem(
            module_path(name),
            None,
            f"question kind {name!r} is listed in the ruleset's vocabulary (question-kinds) but has no module: "
            f"write {module_path(name)} ending in KIND = QuestionKind(name={name!r}, …)",
            code=Code.KIND_MODULE,
        )
        for name in declared
        if get(name) is None and name not in _broken
    ]
    return missing + broken + check_kinds(kinds, named) + check_labels(kinds) + check_docs(kinds, pages)


__all__ = [
    "VERDICTS",
    "QuestionKind",
    "all_kinds",
    "broken",
    "check",
    "check_docs",
    "check_examples",
    "check_kinds",
    "check_labels",
    "figures",
    "get",
    "labels",
    "needs",
    "per_side",
]
