"""The printable quick-reference sheet, when one has been built: copied in and linked.

The sheet is made by another command (``havoc sheet``) into ``build/sheets/<lang>.pdf``; the site
must build without it. Whether it exists is a config value, so its appearing rewrites every page
(the link is in the sidebar of each).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


def on_config_inited(app: Sphinx, config: Config) -> None:
    folder = config.havoc_sheets_dir
    if folder:
        pdf = Path(app.confdir, folder) / f"{config.language or 'en'}.pdf"
        config.havoc_sheet_file = str(pdf) if pdf.is_file() else ""


def on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None and app.builder.format == "html" and app.config.havoc_sheet_file:
        source = Path(app.config.havoc_sheet_file)
        if source.is_file():
            shutil.copyfile(source, Path(app.outdir) / "sheet.pdf")


def setup_sheet(app: Sphinx) -> None:
    app.add_config_value("havoc_sheets_dir", "", "html", types=[str])
    app.add_config_value("havoc_sheet_file", "", "html", types=[str])
    app.connect("config-inited", on_config_inited)
    app.connect("build-finished", on_build_finished)
