"""Rule texts, conditions and example positions as docutils nodes.

Only free text goes through :mod:`havoc.language.markup`; everything structured (parameters, conditions,
positions, answers) is built as nodes here, so the site shows what the assistant uses, not a
hand-written copy of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from docutils import nodes
from sphinx import addnodes

from havoc.engine.conditions import OPS, Op
from havoc.language import markup
from havoc.sphinxext import labels as L
from havoc.sphinxext.context import Context


def xref(
    kind: str, target: str, children: Iterable[nodes.Node], docname: str, explicit: bool = True
) -> addnodes.pending_xref:
    """A reference into the havoc domain (resolved, with its tooltip, when pages are written).

    Without ``explicit`` the link text is the target's title, filled in when the page is written.
    """
    node = addnodes.pending_xref(
        "", refdomain="havoc", reftype=kind, reftarget=target, refexplicit=explicit, refwarn=True, refdoc=docname
    )
    node += list(children)
    return cast("addnodes.pending_xref", node)


def text_label(text: str, classes: list[str] | None = None) -> nodes.inline:
    return nodes.inline(text, text, classes=classes or [])


@dataclass
class Renderer:
    """Renders the texts of one page and remembers what they used (for dependencies)."""

    ctx: Context
    docname: str
    location: Any = None
    # Region IDs of the example being rendered → the names a reader sees ("Mgielnia", "Region A")
    regions: dict[str, str] = field(default_factory=dict)

    # --- free text --------------------------------------------------------------
    def blocks(self, context: str, msgid: str) -> list[nodes.Element]:
        """A translatable text (looked up by its catalog context) as paragraphs and lists."""
        text = self.ctx.text(context, msgid, self.location)
        out: list[nodes.Element] = []
        for block in markup.parse(text):
            if isinstance(block, markup.Paragraph):
                out.append(nodes.paragraph("", "", *self.inlines(block.inlines)))
            else:
                items = [nodes.list_item("", nodes.paragraph("", "", *self.inlines(item))) for item in block.items]
                out.append(nodes.bullet_list("", *items, bullet="-"))
        return out

    def inline_text(self, context: str, msgid: str) -> list[nodes.Node]:
        """A one-line text (a hint, a summary) as inline nodes."""
        text = self.ctx.text(context, msgid, self.location)
        return self.inlines(markup.parse_inline(" ".join(text.split())))

    def inlines(self, pieces: Iterable[markup.Inline]) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for piece in pieces:
            if isinstance(piece, markup.Text):
                out.append(nodes.Text(piece.text))
            elif isinstance(piece, markup.Emph):
                out.append(nodes.emphasis(piece.text, piece.text))
            elif isinstance(piece, markup.Param):
                value = self.value(self.ctx.param_value(piece.name))
                out.append(nodes.inline(value, value, classes=["havoc-param"]))
            elif isinstance(piece, markup.PluralWord):
                form = markup.choose_form(
                    piece.forms, self.ctx.param_value(piece.name), self.ctx.translator.plural_index
                )
                out.append(nodes.Text(form))
            else:
                classes = ["xref", "havoc", f"havoc-{piece.kind}"]
                out.append(
                    xref(
                        piece.kind,
                        piece.target,
                        [nodes.inline(piece.label, piece.label, classes=classes)],
                        self.docname,
                    )
                )
        return out

    def value(self, value: object) -> str:
        if isinstance(value, bool):
            return self.ctx.label(L.TRUE if value else L.FALSE)
        return markup.format_value(value)

    def rule_link(self, rule_id: str) -> addnodes.pending_xref:
        """A link titled with the rule's (or section's) current title, from the domain at write time."""
        placeholder = nodes.inline(rule_id, rule_id, classes=["xref", "havoc"])
        return xref("rule", rule_id, [placeholder], self.docname, explicit=False)

    def link_list(self, rule_ids: Iterable[str]) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for i, rid in enumerate(rule_ids):
            if i:
                out.append(nodes.Text(", "))
            out.append(self.rule_link(rid))
        return out

    # --- what the assistant checks ------------------------------------------------
    def expr_block(self, e: Any) -> list[nodes.Element]:
        """A condition as readable words: all/any become lists, the rest one line."""
        if isinstance(e, dict) and len(e) == 1:
            ((op, arg),) = e.items()
            spec = OPS.get(op)
            if spec is not None and spec.shows == "list" and isinstance(arg, list):
                head = self.ctx.label(spec.words[0])
                items = [nodes.list_item("", *self.expr_block(x)) for x in arg]
                return [
                    nodes.paragraph("", "", text_label(head, ["havoc-op"])),
                    nodes.bullet_list("", *items, bullet="-"),
                ]
            if spec is not None and spec.shows == "prefix":
                inner = self.expr_block(arg)
                head = nodes.paragraph("", "", text_label(self.ctx.label(spec.words[0]), ["havoc-op"]))
                if len(inner) == 1 and isinstance(inner[0], nodes.paragraph):
                    head += nodes.Text(" ")
                    head += inner[0].children
                    return [head]
                return [head, nodes.block_quote("", *inner)]
        return [nodes.paragraph("", "", *self.expr_inline(e))]

    def expr_inline(self, e: Any, nested: bool = False) -> list[nodes.Node]:
        ctx = self.ctx
        if isinstance(e, bool):
            return [text_label(ctx.label(L.TRUE if e else L.FALSE), ["havoc-value"])]
        if isinstance(e, (int, float)):
            return [text_label(markup.format_value(e), ["havoc-value"])]
        if isinstance(e, str):
            return self.data(e)
        if isinstance(e, list):
            return self._join([self.expr_inline(x, True) for x in e], ", ")
        if not isinstance(e, dict) or len(e) != 1:
            return [nodes.literal(repr(e), repr(e))]
        ((op, arg),) = e.items()
        if op == "fact":
            return self.fact(str(arg))
        if op == "param":
            value = self.value(ctx.param_value(str(arg)))
            return [
                nodes.inline(value, value, classes=["havoc-param"]),
                nodes.Text(" ("),
                self.param_name(str(arg)),
                nodes.Text(")"),
            ]
        if op == "figure":
            return [self.figure(str(arg))]
        spec = OPS.get(op)
        if spec is None:
            return [nodes.literal(repr(e), repr(e))]
        return self._operator(spec, arg, nested)

    def _operator(self, spec: Op, arg: Any, nested: bool) -> list[nodes.Node]:
        """An operator as the table says it reads (havoc.engine.conditions.OPS: shows, symbol, words)."""
        ctx = self.ctx
        words = [ctx.label(w) for w in spec.words]
        if spec.shows == "prefix":
            return [text_label(words[0], ["havoc-op"]), nodes.Text(" "), *self.expr_inline(arg, True)]
        if spec.shows == "member":
            left = self.expr_inline(arg[0], True)
            options = self._join([self.expr_inline(x, True) for x in arg[1]], ", ")
            return self._wrap(
                [*left, nodes.Text(" "), text_label(words[0], ["havoc-op"]), nodes.Text(" "), *options], nested
            )
        parts = [self.expr_inline(x, True) for x in arg]
        if spec.shows == "list":
            return self._wrap(self._join(parts, f" {words[1]} "), True)
        if spec.shows == "of":
            joined = (
                self._join(parts[:-1], ", ") + [nodes.Text(f" {words[1]} ")] + parts[-1] if len(parts) > 1 else parts[0]
            )
            return self._wrap([text_label(words[0], ["havoc-op"]), nodes.Text(" "), *joined], nested)
        if spec.shows == "divide":
            body = self._join(parts, f" {spec.symbol} ")
            return self._wrap([*body, nodes.Text(", "), text_label(words[0], ["havoc-op"])], nested)
        return self._wrap(self._join(parts, f" {spec.symbol} "), nested)

    def fact(self, name: str) -> list[nodes.Node]:
        self.ctx.record("fact", name)
        description = self.ctx.fact_description(name, self.location).strip().rstrip(".")
        out: list[nodes.Node] = []
        subject = {"from.": L.SUBJECT_FROM, "to.": L.SUBJECT_TO}.get(name.split(".", 1)[0] + ".")
        if subject is None and name.startswith("region."):
            subject = L.SUBJECT_REGION
        if subject:
            text = f"[{self.ctx.label(subject)}] "
            out.append(text_label(text, ["havoc-subject"]))
        out.append(nodes.inline(description, description, classes=["havoc-fact"]))
        return out

    @staticmethod
    def _join(parts: list[list[nodes.Node]], sep: str) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for i, part in enumerate(parts):
            if i:
                out.append(nodes.Text(sep))
            out.extend(part)
        return out

    @staticmethod
    def _wrap(body: list[nodes.Node], nested: bool) -> list[nodes.Node]:
        return [nodes.Text("("), *body, nodes.Text(")")] if nested else body

    # --- names of things the rules data identifies by ID ------------------------------
    def param_name(self, name: str) -> nodes.inline:
        """A parameter by its description in the reader's language (its ID only as a tooltip)."""
        p = self.ctx.ruleset.params.get(name)
        text = name
        if p is not None and p.description:
            text = self.ctx.text(f"param:{name}:description", p.description, self.location).strip().rstrip(".")
        return nodes.inline(text, text, classes=["havoc-param-name"])

    def figure(self, name: str) -> nodes.inline:
        """A figure of the assistant's answers by its label in the reader's language."""
        words = self.ctx.game_labels
        text = words.figure(name, self.ctx.lang) if words else name
        if not words or not words.has("figure", name):
            self.ctx.missing_label("figure", name, self.location)
        return nodes.inline(text, text, classes=["havoc-figure"])

    def kind(self, kind: str) -> nodes.inline:
        """A question kind as the words the reader knows ("Ruch", "How many?")."""
        words = self.ctx.game_labels
        text = words.kind(kind, self.ctx.lang) if words else kind
        if not words or not words.has("question kind", kind):
            self.ctx.missing_label("question kind", kind, self.location)
        return nodes.inline(text, text, classes=["havoc-kind"])

    def name_regions(self, keys: Iterable[str]) -> dict[str, str]:
        """Display names of an example's Regions: the known ones by name, invented ones by letter.

        ``example-b`` is "Region B"; other invented keys (``example-battle``) take the first
        letter no other Region of the example uses, so every Region has one short name.
        """
        names: dict[str, str] = {}
        keys = list(dict.fromkeys(keys))
        words = self.ctx.game_labels
        if words is not None and hasattr(words, "regions"):  # the game's names, declinable
            found: dict[str, str] = words.regions(keys, self.ctx.lang)
            return {k: v for k, v in found.items() if k in self.ctx.words["regions"] or k.startswith("example-")}
        used = {
            k[len("example-") :].upper() for k in keys if len(k) == len("example-") + 1 and k.startswith("example-")
        }
        letters = (c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in used)
        template = self.ctx.label(L.EXAMPLE_REGION_NAME)
        for key in keys:
            if key in self.ctx.words["regions"]:
                names[key] = self.ctx.label(self.ctx.words["regions"][key])
            elif key.startswith("example-"):
                rest = key[len("example-") :]
                letter = rest.upper() if len(rest) == 1 else next(letters)
                names[key] = template.format(letter=letter)
        return names

    # --- example positions ----------------------------------------------------------
    def key(self, key: str) -> nodes.Node:
        if key in self.regions:
            name = self.regions[key]
            return nodes.inline(name, name, classes=["havoc-key", "havoc-region"])
        text = self.ctx.words["keys"].get(key) or self.ctx.words["values"].get(key)
        if text is not None:
            label = self.ctx.label(text)
            return nodes.inline(label, label, classes=["havoc-key"])
        return nodes.literal(key, key, classes=["havoc-key"])

    def data(self, value: Any) -> list[nodes.Node]:
        """A position or answer value in short: lists joined, small mappings inline."""
        if isinstance(value, bool):
            return [nodes.Text(self.value(value))]
        if isinstance(value, (int, float)):
            return [nodes.Text(markup.format_value(value))]
        if isinstance(value, str):
            if value in self.regions:
                return [nodes.Text(self.regions[value])]
            if value in self.ctx.words["values"]:
                return [nodes.Text(self.ctx.label(self.ctx.words["values"][value]))]
            if value in self.ctx.words["regions"]:
                return [nodes.Text(self.ctx.label(self.ctx.words["regions"][value]))]
            return [nodes.literal(value, value)] if markup.ID_LIKE.match(value) else [nodes.Text(value)]
        if isinstance(value, list):
            return self._join([self.data(v) for v in value], ", ")
        if isinstance(value, dict):
            parts = []
            for k, v in value.items():
                phrase = self.phrase(str(k), v)
                if phrase is not None:
                    parts.append([nodes.inline(phrase, phrase, classes=["havoc-key"])])
                    continue
                named = self.named(str(k), v)
                if named is not None:  # "Budowle: Żniwiarka (Pielgrzymi)", not "rodzaj: harvester; …"
                    parts.append([self.key(str(k)), nodes.Text(f": {named}")])
                    continue
                inner = self.data(v)
                if isinstance(v, dict):
                    parts.append([self.key(str(k)), nodes.Text(" ("), *inner, nodes.Text(")")])
                else:  # "Kontrola: Ludzie", never "Kontrola Ludzie"
                    parts.append([self.key(str(k)), nodes.Text(": "), *inner])
            return self._join(parts, "; ")
        return [nodes.Text(str(value))]

    def phrase(self, key: str, value: Any) -> str | None:
        """A key that reads as a phrase before Region names, declined by the game's words
        ("sąsiaduje z Mgielnią, Regionem B"); None when the key is shown as "key: value"."""
        words = self.ctx.game_labels
        names = value if isinstance(value, list) else [value]
        if words is None or not hasattr(words, "phrase") or not all(isinstance(n, str) for n in names):
            return None
        if not names or not all(n in self.regions for n in names):
            return None
        found: str | None = words.phrase(key, [self.regions[n] for n in names], self.ctx.lang)
        return found

    def named(self, key: str, value: Any) -> str | None:
        """A value the game names as a whole (a Region's Structures by type and owner), or None."""
        words = self.ctx.game_labels
        if words is None or not hasattr(words, "named"):
            return None
        found: str | None = words.named(key, value, self.ctx.lang)
        return found

    def flags(self, owner: str, value: Any) -> tuple[list[str], Any]:
        """A party's yes/no flags as sentences the game says about it, and the rest of its
        mapping (no sentences, ``value`` as it is, when the game says none)."""
        words = self.ctx.game_labels
        if words is None or not hasattr(words, "flags"):
            return [], value
        found: tuple[list[str], Any] = words.flags(owner, value, self.ctx.lang)
        return found

    def mapping_list(self, mapping: dict[str, Any], classes: list[str]) -> nodes.bullet_list:
        """A mapping as "key: value" items; nested mappings of mappings get their own list."""
        items = []
        for k, v in mapping.items():
            sentences, v = self.flags(str(k), v)
            if sentences and not v:  # only flags: the item is their sentences ("Pielgrzymi spasowali")
                text = "; ".join(sentences)
                items.append(nodes.list_item("", nodes.paragraph("", "", nodes.Text(text))))
                continue
            para = nodes.paragraph("", "", self.key(str(k)), nodes.Text(": "))
            item = nodes.list_item("", para)
            if sentences:
                para.extend([*self.data(v), nodes.Text("; " + "; ".join(sentences))])
                items.append(item)
                continue
            named = self.named(str(k), v)
            if named is not None:
                para += nodes.Text(named)
            elif isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()):
                item += self.mapping_list(v, [])
            else:
                para.extend(self.data(v))
            items.append(item)
        return nodes.bullet_list("", *items, bullet="-", classes=classes)


def mark_untranslatable(node: nodes.Node) -> None:
    """Generated nodes carry rule texts already translated from rules.po: keep Sphinx's i18n off them.

    Inline nodes are left alone: Sphinx treats an inline with a ``translatable`` attribute as a
    translation placeholder and unwraps it.
    """
    for child in node.findall(nodes.TextElement):
        if not isinstance(child, nodes.Inline):
            child["translatable"] = False
