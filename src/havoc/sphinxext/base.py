"""The shared base of the havoc directives: the build's context, a renderer, dependencies."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from havoc.sphinxext.context import Context, get_context
from havoc.sphinxext.domain import HavocDomain, Obj
from havoc.sphinxext.render import Renderer, mark_untranslatable


class HavocDirective(SphinxDirective):
    """Renders part of the loaded ruleset; records which files it read so Sphinx re-reads it when they change."""

    @property
    def ctx(self) -> Context:
        return get_context(self.env)

    @property
    def docname(self) -> str:
        return self.env.current_document.docname

    @property
    def domain(self) -> HavocDomain:
        domain = self.env.get_domain(HavocDomain.name)
        assert isinstance(domain, HavocDomain)
        return domain

    def renderer(self) -> Renderer:
        return Renderer(self.ctx, self.docname, self.get_location())

    def note_object(self, kind: str, name: str, obj: Obj) -> None:
        self.domain.note_object(kind, name, obj, self.get_location())

    def run(self) -> list[nodes.Node]:
        """Render, recording every input the page uses (texts, labels, parameters, model objects)."""
        ctx = self.ctx
        ctx.start_recording()
        try:
            return self.render()
        finally:
            self.domain.note_inputs(self.docname, ctx.stop_recording())

    def render(self) -> list[nodes.Node]:
        raise NotImplementedError

    def finish(self, result: list[nodes.Node], renderer: Renderer, files: Iterable[Path]) -> list[nodes.Node]:
        """Depend on the file(s) the page is written from; keep Sphinx's i18n off the generated nodes.

        Inputs from elsewhere (a parameter defined in another section, a ruling in the errata,
        a translation in rules.po) are recorded instead and compared when the next build starts
        (:func:`havoc.sphinxext.domain.pages_to_reread`): a file-level dependency on them would
        re-read every page that uses any string of rules.po.
        """
        for path in sorted(set(files)):
            self.env.note_dependency(str(path))
        for node in result:
            mark_untranslatable(node)
        return result

    def problem(self, message: str) -> list[nodes.Node]:
        """An error in the page (a warning, so a build under -W fails) instead of a traceback."""
        return [self.state.document.reporter.error(message, line=self.lineno)]
