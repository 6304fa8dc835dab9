"""``havoc-codes``: the list of problem codes (:mod:`havoc.core.codes`) on the site, in its language.

The list is made from :data:`havoc.core.codes.MEANINGS`, never written by hand, so the page cannot
drift from the code; each meaning is said in the build's language from ``havoc.po`` (context
``ui``), and one without a translation is a warning (an error under ``-W``), as for any label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from havoc.core.codes import MEANINGS, WARNING_TYPE, WARNINGS, Code
from havoc.sphinxext.render import mark_untranslatable

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)


class CodesDirective(SphinxDirective):
    """The codes of problems (or, with ``:warnings:``, of the site build's warnings, written as
    ``suppress_warnings`` takes them: ``havoc.<code>``), each with what it means."""

    has_content = False
    option_spec = {"warnings": directives.flag}  # noqa: RUF012

    def run(self) -> list[nodes.Node]:
        from havoc.language.i18n import SOURCE_LANGUAGE, locales_root, ui

        lang = self.config.language or SOURCE_LANGUAGE
        warnings = "warnings" in self.options
        listed = nodes.definition_list(classes=["havoc-codes"])
        for code, meaning in MEANINGS.items():
            if (code in WARNINGS) != warnings:
                continue
            said = ui(meaning, lang)
            if lang != SOURCE_LANGUAGE and said == meaning:
                logger.warning(
                    "no %s translation of the meaning of the code %s (add it to havoc.po, context ui)",
                    lang,
                    code,
                    type=WARNING_TYPE,
                    subtype=Code.LABEL_UNTRANSLATED,
                    location=self.get_location(),
                )
            shown = f"{WARNING_TYPE}.{code}" if warnings else code
            term = nodes.term("", "", nodes.literal(shown, shown), ids=[nodes.make_id(f"code-{code}")])
            listed += nodes.definition_list_item("", term, nodes.definition("", nodes.paragraph(said, said)))
        # re-read when a meaning or its translation changes (the page is the only one that says them)
        import havoc.core.codes

        self.env.note_dependency(havoc.core.codes.__file__)
        self.env.note_dependency(str(locales_root() / lang / "LC_MESSAGES" / "havoc.po"))
        mark_untranslatable(listed)  # (already in the reader's language)
        return [listed]


def setup_codes(app: Sphinx) -> None:
    app.add_directive("havoc-codes", CodesDirective)
