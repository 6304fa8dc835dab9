"""The ``havoc`` domain: rules, sections and glossary terms as Sphinx objects.

Like Sphinx's Python domain: the directives register objects while reading, the ``:rule:`` and
``:term:`` roles (and the links inside rule texts) are resolved when a page is written, and a
domain index lists every rule. A term link carries the term's definition as its title, which the
tooltip script shows on hover and tap. Link texts and tooltips come from the target's own page, so
a changed title or definition is followed by rewriting (not re-reading) the pages that link to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from sphinx.domains import Domain, Index, IndexEntry, ObjType
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.nodes import make_refnode

from havoc.core.codes import WARNING_TYPE, Code
from havoc.engine.numbering import numbers
from havoc.sphinxext.context import get_context, input_digest
from havoc.sphinxext.labels import LazyLabel

if TYPE_CHECKING:
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

INDEX_DOCNAME = "havoc-ruleindex"


class Obj(NamedTuple):
    docname: str
    anchor: str
    title: str
    tip: str = ""
    group: str = ""
    order: int = 0


class RuleIndex(Index):
    """Every rule, grouped by section in the book's order (the index page is ``havoc-ruleindex``)."""

    name = "ruleindex"
    localname = LazyLabel("Rule index")  # type: ignore[assignment]
    shortname = LazyLabel("rules")  # type: ignore[assignment]

    def generate(self, docnames: Iterable[str] | None = None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        domain = self.domain
        assert isinstance(domain, HavocDomain)
        number = numbers(get_context(domain.env).ruleset)
        wanted = set(docnames) if docnames is not None else None
        groups: dict[str, list[tuple[int, IndexEntry]]] = {}
        for (kind, name), obj in domain.objects.items():
            if kind != "rule" or (wanted is not None and obj.docname not in wanted):
                continue
            # the number first, as in the rule's title (the sheet cites it: "§11.4")
            shown = f"{number[name]} {obj.title}" if name in number else obj.title
            entry = IndexEntry(shown, 0, obj.docname, obj.anchor, name, "", "")
            groups.setdefault(obj.group, []).append((obj.order, entry))
        ordered = sorted(groups.items(), key=lambda kv: min(o for o, _ in kv[1]))
        return [(group, [e for _, e in sorted(entries, key=lambda x: x[0])]) for group, entries in ordered], False


class AZIndex(Index):
    """Every rule and glossary term by its title, A to Z in the page's language (``havoc-azindex``).

    The rule index follows the book; this one is for a reader who knows the word, not the chapter.
    """

    name = "azindex"
    localname = LazyLabel("A–Z index")  # type: ignore[assignment]
    shortname = LazyLabel("A–Z")  # type: ignore[assignment]

    def generate(self, docnames: Iterable[str] | None = None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        from havoc.language.languages import collation_key
        from havoc.sphinxext import labels as L

        domain = self.domain
        assert isinstance(domain, HavocDomain)
        ctx = get_context(domain.env)
        number = numbers(ctx.ruleset)
        kinds = {"rule": ctx.label(L.OBJ_RULE), "term": ctx.label(L.OBJ_TERM)}
        wanted = set(docnames) if docnames is not None else None
        groups: dict[str, list[IndexEntry]] = {}
        for (kind, name), obj in domain.objects.items():
            if kind not in kinds or (wanted is not None and obj.docname not in wanted) or not obj.title:
                continue
            letter = obj.title.lstrip("„“\"'(")[:1].upper()
            what = f"{kinds[kind]} {number[name]}" if kind == "rule" and name in number else kinds[kind]
            groups.setdefault(letter, []).append(IndexEntry(obj.title, 0, obj.docname, obj.anchor, what, "", ""))
        ordered = sorted(groups.items(), key=lambda kv: collation_key(kv[0], ctx.lang))
        return [
            (letter, sorted(entries, key=lambda e: collation_key(e.name, ctx.lang))) for letter, entries in ordered
        ], False


class HavocDomain(Domain):
    """Rules (and sections) by stable ID, glossary terms by term ID."""

    name = "havoc"
    label = "Havoc rules"
    object_types = {  # noqa: RUF012 - Sphinx reads these class attributes
        "rule": ObjType(LazyLabel("rule"), "rule"),  # type: ignore[arg-type]
        "section": ObjType(LazyLabel("section"), "rule"),  # type: ignore[arg-type]
        "term": ObjType(LazyLabel("term"), "term"),  # type: ignore[arg-type]
        "change": ObjType(LazyLabel("change"), "change"),  # type: ignore[arg-type]
    }
    roles = {  # noqa: RUF012
        "rule": XRefRole(innernodeclass=nodes.inline, warn_dangling=True),
        "term": XRefRole(innernodeclass=nodes.inline, warn_dangling=True),
    }
    indices = [RuleIndex, AZIndex]  # noqa: RUF012
    dangling_warnings = {  # noqa: RUF012
        "rule": "unknown rule or section ID %(target)r",
        "term": "unknown glossary term %(target)r",
        "change": "no entry %(target)r on the changes page",
        "index": "unknown havoc index %(target)r",
    }
    initial_data = {  # noqa: RUF012
        "objects": {},  # (kind, name) -> Obj
        "refs": {},  # docname -> set of (kind, name) it links to
        "written": {},  # (kind, name) -> Obj as of the last write (to find pages to rewrite)
        "inputs": {},  # docname -> (recorded input keys, digest of their values when read)
    }
    data_version = 3

    @property
    def objects(self) -> dict[tuple[str, str], Obj]:
        return self.data["objects"]  # type: ignore[no-any-return]

    @property
    def refs(self) -> dict[str, set[tuple[str, str]]]:
        return self.data["refs"]  # type: ignore[no-any-return]

    def note_object(self, kind: str, name: str, obj: Obj, location: Any = None) -> None:
        """Register a rule, section or term (an ID defined twice is a warning: anchors must be unique)."""
        old = self.objects.get((kind, name))
        if old is not None and old.docname != obj.docname:
            logger.warning(
                "havoc %s %r is rendered on both %s and %s",
                kind,
                name,
                old.docname,
                obj.docname,
                location=location,
                type=WARNING_TYPE,
                subtype=Code.SITE_DUPLICATE,
            )
        self.objects[kind, name] = obj

    def note_inputs(self, docname: str, keys: list[tuple[str, ...]]) -> None:
        """Add what a directive used to its page's inputs (a page may hold several directives)."""
        inputs: dict[str, tuple[list[tuple[str, ...]], str]] = self.data["inputs"]
        known = inputs.get(docname, ([], ""))[0]
        merged = list(dict.fromkeys([*known, *keys]))
        inputs[docname] = (merged, input_digest(get_context(self.env), merged))

    def clear_doc(self, docname: str) -> None:
        for key, obj in list(self.objects.items()):
            if obj.docname == docname:
                del self.objects[key]
        self.refs.pop(docname, None)
        self.data["inputs"].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key, obj in otherdata["objects"].items():
            if obj.docname in docnames:
                self.objects[key] = obj
        for docname, refs in otherdata["refs"].items():
            if docname in docnames:
                self.refs[docname] = refs
        for docname, inputs in otherdata["inputs"].items():
            if docname in docnames:
                self.data["inputs"][docname] = inputs

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        """Remember what each page links to, so a changed target rewrites exactly those pages."""
        from sphinx.addnodes import pending_xref

        found: set[tuple[str, str]] = set()
        for node in document.findall(pending_xref):
            if node.get("refdomain") == self.name:
                found.add(self._key(node["reftype"], node["reftarget"]))
        if found:
            self.refs[docname] = found

    def _key(self, kind: str, target: str) -> tuple[str, str]:
        if kind == "term":
            return ("term", target)
        if kind in ("index", "change"):
            return (kind, target)
        for k in ("rule", "section"):
            if (k, target) in self.objects:
                return (k, target)
        successor = get_context(self.env).ruleset.resolve(target)
        if successor and successor != target:
            return self._key(kind, successor)
        return ("rule", target)

    def find(self, kind: str, target: str) -> tuple[tuple[str, str], Obj] | None:
        key = self._key(kind, target)
        obj = self.objects.get(key)
        return (key, obj) if obj is not None else None

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> nodes.reference | None:
        if typ == "index":
            if target not in (RuleIndex.name, AZIndex.name):
                return None
            docname = f"{self.name}-{target}"
            ref = nodes.reference("", "", internal=True, refuri=builder.get_relative_uri(fromdocname, docname))
            ref += contnode
            return ref
        found = self.find(typ, target)
        if found is None:
            return None
        (kind, _name), obj = found
        if not node.get("refexplicit"):
            text = obj.title
            contnode = nodes.inline(text, text, classes=[*contnode.get("classes", []), f"havoc-{kind}"])
        ref = make_refnode(builder, fromdocname, obj.docname, obj.anchor, contnode, obj.tip or obj.title)
        ref["classes"].append(f"havoc-{'term' if kind == 'term' else 'rule'}-ref")
        return ref

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        results = []
        for typ in ("rule", "term"):
            ref = self.resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
            if ref is not None:
                results.append((f"havoc:{typ}", ref))
        return results

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for (kind, name), obj in self.objects.items():
            yield name, obj.title, kind, obj.docname, obj.anchor, 0 if kind == "section" else 1

    def get_full_qualified_name(self, node: nodes.Element) -> str | None:
        target = node.get("reftarget")
        return str(target) if target is not None else None


def pages_to_reread(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages whose recorded inputs (a translation, a parameter, a ruling …) have new values."""
    domain = env.get_domain(HavocDomain.name)
    assert isinstance(domain, HavocDomain)
    ctx = get_context(env)
    return sorted(
        doc
        for doc, (keys, digest) in domain.data["inputs"].items()
        if doc not in changed and doc not in removed and input_digest(ctx, keys) != digest
    )


def pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages whose links point at an object whose page, anchor, title or tooltip changed."""
    domain = env.get_domain(HavocDomain.name)
    assert isinstance(domain, HavocDomain)
    current = domain.objects
    written: dict[tuple[str, str], Obj] = domain.data["written"]
    changed = {k for k in current.keys() | written.keys() if current.get(k) != written.get(k)}
    domain.data["written"] = dict(current)
    if not changed or not written:
        return []
    return sorted(doc for doc, refs in domain.refs.items() if refs & changed and doc in env.all_docs)


def setup_domain(app: Sphinx) -> None:
    app.add_domain(HavocDomain)
    app.connect("env-get-outdated", pages_to_reread)
    app.connect("env-get-updated", pages_to_rewrite)
