"""``havoc sheet``: build the two-page quick-reference sheets (PDF and HTML) from ``rules/``."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from havoc.cli.commands import add_ruleset_option, said
from havoc.core import safeio
from havoc.core.errors import Code, Problem
from havoc.engine import rulebook
from havoc.language.i18n import LANGUAGES

DEFAULT_DIR = Path("build") / "sheets"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sheet",
        help="build the two-page quick-reference sheets (PDF + HTML)",
        description=(
            "Build the quick-reference sheet of each language: two A4 pages laid out by "
            "rules/<ruleset>/sheet.yaml from the rules' summaries. Writes build/sheets/<lang>.pdf "
            "and .html. Exits 1 if the layout names an unknown rule or the content does not fit "
            "two pages (text is never set below 7 pt)."
        ),
    )
    p.add_argument("--lang", choices=[*LANGUAGES, "all"], default="all", help="language (default: %(default)s)")
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="where to write: FILE.pdf (the HTML goes beside it), FILE.html (HTML only), or a folder; "
        "with --lang all a file name gets each language's code (FILE.en.pdf, FILE.pl.pdf); "
        "default: build/sheets/<lang>.pdf",
    )
    p.add_argument(
        "--png", action="store_true", help="also write page images <lang>-1.png, <lang>-2.png beside the PDF"
    )
    add_ruleset_option(p)
    p.set_defaults(func=cmd_sheet, every_ruleset=True)


def targets(lang: str, output: Path | None, several: bool) -> tuple[Path | None, Path]:
    """(PDF, HTML) paths for one language; a ``.html`` output means no PDF.

    A file name asked of several languages (``-o x.pdf`` with ``--lang all``, the default) is
    each language's file with its code before the suffix (``x.en.pdf``, ``x.pl.pdf``): a user who
    names a file gets files, never a folder of that name.
    """
    if output is None or output.suffix == "" or output.is_dir():
        folder = output if output is not None else DEFAULT_DIR
        return folder / f"{lang}.pdf", folder / f"{lang}.html"
    if several:
        output = output.with_name(f"{output.stem}.{lang}{output.suffix}")
    if output.suffix.lower() == ".html":
        return None, output
    return output, output.with_suffix(".html")


def _staging(final: Path) -> Path:
    """Where a sheet is written first: beside its final place, so the rename cannot cross disks."""
    return final.with_name(f".{final.name}.building")


def _publish(tmp: Path, final: Path) -> None:
    try:
        os.replace(tmp, final)
    except OSError as exc:
        raise safeio.OutputError(
            [Problem(str(final), None, f"cannot write: {exc.strerror or exc}", code=Code.FILE_UNWRITABLE)]
        ) from None


def cmd_sheet(args: argparse.Namespace) -> int:
    """The sheets of the named ruleset, or of every ruleset with a sheet layout (each ruleset but
    the default in a folder of its own name: build/sheets/advanced-cry-havoc/en.pdf)."""
    from havoc.quickref.layout import layout_path

    if args.ruleset:
        return _sheets(args, args.ruleset, args.output)
    if args.output is not None and args.output.suffix and not args.output.is_dir():
        # one file named: the default ruleset's sheet (the others with --ruleset, or -o FOLDER)
        return _sheets(args, rulebook.default_ruleset(), args.output)
    code = 0
    for name in rulebook.ruleset_names():
        if not layout_path(rulebook.ruleset_folder(name)).is_file():
            continue
        where = rulebook.site_path(name)
        output = args.output if args.output is not None else DEFAULT_DIR
        code = max(code, _sheets(args, name, output / where if where else args.output))
    return code


def _sheets(args: argparse.Namespace, name: str, output: Path | None) -> int:
    from havoc import quickref

    rs = rulebook.load(name)
    root = rulebook.ruleset_folder(name)
    langs = list(LANGUAGES) if args.lang == "all" else [args.lang]
    for lang in langs:
        pdf, page = targets(lang, output, len(langs) > 1)
        started = time.perf_counter()
        for target in (pdf, page):
            if target is not None:
                safeio.check_replaceable(target)  # a link or a device in the way is never replaced
                safeio.writable_dir(target.parent)  # an unwritable -o fails before the slow part
        staged = {final: _staging(final) for final in (pdf, page) if final is not None}
        try:
            sheet = quickref.build(lang, staged.get(pdf) if pdf else None, staged.get(page) if page else None, rs, root)
            for final, tmp in staged.items():  # all or nothing: the previous sheet stays until both are done
                _publish(tmp, final)
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith("weasyprint"):
                raise
            print(
                f"error: WeasyPrint is needed for the PDF ({exc}); install it with "
                "`pip install 'havoc[sheet]'`, or ask for HTML only with -o FILE.html",
                file=sys.stderr,
            )
            return 2
        except OSError as exc:
            raise safeio.OutputError(
                [
                    Problem(
                        str(exc.filename or pdf or page),
                        None,
                        f"cannot write: {exc.strerror or exc}",
                        code=Code.FILE_UNWRITABLE,
                    )
                ]
            ) from None
        finally:
            for tmp in staged.values():
                tmp.unlink(missing_ok=True)
        written = [p for p in (pdf, page) if p is not None]
        if args.png and pdf is not None:
            from havoc.quickref.pdf import write_pngs

            written += write_pngs(pdf)
        took = time.perf_counter() - started
        wrote = ", ".join(str(p) for p in written)
        print(said("{lang}: wrote {files} in {seconds}", lang=lang, files=wrote, seconds=took))
        if sheet.untranslated:
            first = ", ".join(sheet.untranslated[:3])
            print(
                f"warning: {lang}: {len(sheet.untranslated)} of {sheet.texts} texts have no translation yet "
                f"and are shown in English (first: {first})",
                file=sys.stderr,
            )
    return 0
