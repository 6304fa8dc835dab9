"""What Cry Havoc adds to the site: the Ask page, the solo Trogs' page and the table of question kinds.

``{havoc-kinds}`` writes the positions page's table of question kinds from the kinds'
declarations (``kinds/<kind>.py``): each kind's name, what it answers and the figures its
answers give. Kinds in a row (in the vocabulary's order) that answer the same and give the same
figures share a row. A kind's words are ``ui("…")`` strings of its module, translated once in
the ``havoc`` catalog, which the site reads too (:func:`havoc.sphinxext.labels.ui_label`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from havoc.games.cry_havoc import ask_page, trogs_page
from havoc.games.cry_havoc import kind as registry
from havoc.sphinxext import labels as L
from havoc.sphinxext.base import HavocDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx

KIND = L.label("kind")
ANSWERS = L.label("what it answers")
FIGURES = L.label("figures")
NONE = L.label("none")
for _kind in registry.all_kinds():  # each kind's words: ui("…") in its module, translated in havoc.po
    L.ui_label(_kind.answers)
    L.ui_label(_kind.label)  # its name as a value of a question (`ask: move`) and in the Ask page's list
    if _kind.form_label:
        L.ui_label(_kind.form_label)


def rows() -> list[tuple[list[str], str, tuple[str, ...]]]:
    """The table's rows: (kinds, what they answer, figures), neighbours that agree merged."""
    out: list[tuple[list[str], str, tuple[str, ...]]] = []
    for kind in registry.all_kinds():
        if out and out[-1][1] == kind.answers and out[-1][2] == kind.figures:
            out[-1][0].append(kind.name)
        else:
            out.append(([kind.name], kind.answers, kind.figures))
    return out


def named(pairs: list[tuple[str, str]]) -> list[nodes.Node]:
    """Each (name, ID) as "name (`ID`)": the reader reads the name, and types the ID or the name."""
    out: list[nodes.Node] = []
    for i, (word, name) in enumerate(pairs):
        if i:
            out.append(nodes.Text(", "))
        if word and word != name:
            out += [nodes.Text(f"{word} ("), nodes.literal(name, name), nodes.Text(")")]
        else:
            out.append(nodes.literal(name, name))
    return out


def kind_names(kinds: list[str], lang: str) -> list[tuple[str, str]]:
    """The question kinds as (the name the answers give them in ``lang``, ID)."""
    from havoc.games.cry_havoc import labels

    return [(labels().kind(k, lang), k) for k in kinds]


def figure_names(figures: tuple[str, ...], lang: str) -> list[tuple[str, str]]:
    """A kind's figures as (the label an answer shows in ``lang``, ID)."""
    from havoc.games.cry_havoc import labels

    return [(labels().figure(f, lang), f) for f in figures]


class KindsDirective(HavocDirective):
    """``{havoc-kinds}``: the question kinds, what each answers and the figures it gives."""

    has_content = False

    def render(self) -> list[nodes.Node]:
        ctx, loc = self.ctx, self.get_location()
        group = nodes.tgroup(cols=3)
        group += [nodes.colspec(colwidth=1) for _ in range(3)]
        head = nodes.thead()
        hrow = nodes.row()
        for word in (KIND, ANSWERS, FIGURES):
            hrow += nodes.entry("", nodes.paragraph("", ctx.label(word, loc)))
        head += hrow
        group += head
        body = nodes.tbody()
        for kinds, answers, figures in rows():
            brow = nodes.row()
            brow += nodes.entry("", nodes.paragraph("", "", *named(kind_names(kinds, ctx.lang))))
            brow += nodes.entry("", nodes.paragraph("", ctx.label(answers, loc)))
            shown = named(figure_names(figures, ctx.lang)) if figures else [nodes.Text(ctx.label(NONE, loc))]
            brow += nodes.entry("", nodes.paragraph("", "", *shown))
            body += brow
        group += body
        table = nodes.table("", group, classes=["havoc-kinds"])
        return self.finish([table], self.renderer(), [])


class TableDirective(SphinxDirective):
    """``{havoc-table}``: a table written in IDs, the file format's reference on the English
    page; on a page in another language, the same table with that language's names ("Mgielnia",
    "Ludzie"), as the Ask page offers its examples (named_table). The keys stay: they are the
    format."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        import yaml

        from havoc.games.cry_havoc.named_table import as_written

        text = "\n".join(self.content) + "\n"
        lang = self.config.language or "en"
        if lang != "en":
            text = as_written(yaml.safe_load(text), lang)
        block = nodes.literal_block(text, text, language="yaml")
        block["translatable"] = False
        self.set_source_info(block)
        return [block]


def setup_site(app: Sphinx) -> None:
    """The Ask page's directive, the solo Trogs' page, ``{havoc-kinds}`` and ``{havoc-table}``."""
    ask_page.setup_site(app)
    trogs_page.setup_site(app)
    app.add_directive("havoc-kinds", KindsDirective)
    app.add_directive("havoc-table", TableDirective)
