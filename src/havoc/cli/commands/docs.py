"""``havoc docs``: build the rules site in English and Polish (and serve it).

Each language is its own Sphinx build (``-D language=<lang>``, own doctree folder) in its own
process: Sphinx keeps translations in process-wide state, and two processes also build the two
languages at the same time. Warnings are errors (``-nW --keep-going``): a broken rule or term
reference, or a missing Polish string, fails the build. Sphinx is imported only by the child
processes, never by the CLI itself.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import html
import http.server
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import havoc
from havoc.cli.commands import add_ruleset_option, said
from havoc.core import safeio
from havoc.core.errors import Code, HavocError, Problem
from havoc.engine import rulebook
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE
from havoc.language.languages import REGISTRY
from havoc.web import policy as webpolicy

REPO = Path(havoc.__file__).resolve().parents[2]
SOURCE = REPO / "docsbuild"
DEFAULT_OUT = Path("build") / "site"
DEFAULT_DOCTREES = Path("build") / "doctrees"
DEFAULT_SHEETS = Path("build") / "sheets"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "docs",
        help="build the rules site (build/site/en, build/site/pl) and optionally serve it",
        description=(
            "Build the rules site from rules/ and the catalogs in locales/: build/site/<lang>/ for each "
            "language and build/site/index.html, which picks the reader's language. Warnings are errors."
        ),
    )
    p.add_argument(
        "--lang", choices=[*LANGUAGES, "all"], default="all", help="language to build (default: %(default)s)"
    )
    p.add_argument("--serve", action="store_true", help="then serve build/site on localhost until Ctrl-C")
    p.add_argument("--port", type=int, default=8000, help="port for --serve (default: %(default)s)")
    p.add_argument("--clean", action="store_true", help="rebuild from scratch (ignore the saved doctrees)")
    p.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT, help="site folder (default: %(default)s)")
    p.add_argument(
        "--update-catalog",
        action="store_true",
        help="extract the site's strings (pages, labels) to locales/site.pot and merge them into each "
        "language's site.po, instead of building",
    )
    p.add_argument(
        "--site-url",
        default=os.environ.get("HAVOC_SITE_URL", ""),
        metavar="URL",
        help="where the site is published (the folder of build/site/index.html), for absolute hreflang links, "
        "canonical links and sitemap.xml (default: $HAVOC_SITE_URL, else docsbuild/conf.py's havoc_site_url)",
    )
    add_ruleset_option(p)
    p.set_defaults(func=cmd_docs, every_ruleset=True)


@dataclass
class Result:
    lang: str
    code: int
    output: str
    seconds: float


def sphinx_command(
    builder: str,
    lang: str,
    out: Path,
    doctrees: Path,
    ruleset: str,
    sheets: Path,
    source: Path = SOURCE,
    clean: bool = False,
) -> list[str]:
    """The sphinx-build command line for one language (for the site, warnings are errors)."""
    cmd = [sys.executable, "-m", "sphinx", "-b", builder, "-q"]
    if builder == "html":
        cmd += ["-nW", "--keep-going"]
    cmd += ["-D", f"language={lang}", "-D", f"havoc_ruleset={ruleset}", "-D", f"havoc_sheets_dir={sheets.resolve()}"]
    cmd += ["-d", str(doctrees)]
    if clean:
        cmd.append("-E")
    return [*cmd, str(source), str(out)]


def work_dir(out: Path) -> Path:
    """Where Sphinx writes the site of ``out`` (``out/<lang>``) and keeps it between builds: a
    folder beside ``out``, never inside it (a static host would serve it), on the same filesystem
    (the site is put together from hard links to its files)."""
    out = Path(os.path.abspath(out))
    return out.parent / f".{out.name}.work"


def build_languages(
    langs: list[str],
    out: Path,
    doctrees: Path,
    ruleset: str,
    sheets: Path,
    source: Path = SOURCE,
    clean: bool = False,
    verbose: bool = False,
    work: Path | None = None,
) -> list[Result]:
    """Build the languages; return each one's outcome.

    Sphinx writes each language into ``work/<lang>`` (default :func:`work_dir`), its own folder
    kept from build to build (it holds the last build's pages, so an incremental build writes
    only what changed, and Sphinx's own files such as ``.buildinfo``); a language that built is
    then put in ``out/<lang>`` as hard links to those files, without Sphinx's dot-files, and a
    language that failed leaves ``out/<lang>`` as it was. ``havoc docs`` passes a staging copy
    of the site as ``out`` and publishes it only when everything built (:func:`cmd_docs`).

    A clean build runs one Sphinx process per language, all at once. An incremental build (every
    language has its saved environment) runs them in a single worker process, which imports
    Sphinx once (while this process brings the page stubs up to date) and then builds each
    language in a forked child, all at once (one after the other where it cannot fork or has one
    CPU): starting Python and importing Sphinx costs more than rebuilding the few pages an edit
    touches. Sphinx reports a page's warnings only when it reads the page, so after a failed build
    the next one starts afresh: otherwise an unchanged page with a missing translation would pass.
    Every child dies with this process (:mod:`havoc.core.children`).
    """
    from havoc.core import children

    started = time.perf_counter()
    work = work_dir(out) if work is None else work
    marker = {lang: doctrees / lang / "havoc-build-failed" for lang in langs}
    fresh = {
        lang: clean or marker[lang].exists() or not (doctrees / lang / "environment.pickle").exists() for lang in langs
    }
    together = len(langs) > 1 and not any(fresh.values())
    built = {lang: work / lang for lang in langs}
    for lang in langs:
        if fresh[lang]:  # every page is written again: start from an empty folder (nothing stale, nothing shared)
            shutil.rmtree(built[lang], ignore_errors=True)
        # marked failed until it succeeds: a build killed halfway (a page cut short in its folder,
        # newer than its source) makes the next one start afresh too, as a failed one does
        marker[lang].parent.mkdir(parents=True, exist_ok=True)
        marker[lang].touch()
    commands = {
        lang: [
            c
            for c in sphinx_command("html", lang, built[lang], doctrees / lang, ruleset, sheets, source, fresh[lang])
            if c != "-q" or not verbose
        ]
        for lang in langs
    }
    worker_proc = None
    if together:  # the worker brings the page stubs up to date (it loads the ruleset anyway)
        spec = json.dumps(
            {
                "stubs": [str(source), ruleset],
                "langs": {lang: [str(built[lang]), *cmd[3:]] for lang, cmd in commands.items()},
            }
        )
        worker_proc = subprocess.Popen(
            [sys.executable, "-m", "havoc.cli.commands.docs", spec],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            **children.popen_options(),
        )
    else:
        _sync_stubs(source, ruleset)
    outputs: dict[str, tuple[int, str, float]] = {}
    if worker_proc is not None:
        stdout, stderr = worker_proc.communicate()
        for chunk in stdout.split(WORKER_MARK)[1:]:
            head, _, printed = chunk.partition("\n")
            name, status = head.split()
            outputs[name] = (int(status), printed, time.perf_counter() - started)
        for lang in langs:
            outputs.setdefault(lang, (worker_proc.returncode or 1, stderr, time.perf_counter() - started))
    else:
        # Sphinx through this module (``--sphinx``): a language built on its kept pages writes no
        # file it shares with the site (see :func:`_writes_unshared`)
        procs = {
            lang: subprocess.Popen(
                [sys.executable, "-m", "havoc.cli.commands.docs", "--sphinx", *cmd[3:]],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                **children.popen_options(),
            )
            for lang, cmd in commands.items()
        }
        for lang, popen in procs.items():
            printed, _ = popen.communicate()
            outputs[lang] = (popen.returncode, printed, time.perf_counter() - started)
    results = []
    for lang in langs:
        code, printed, seconds = outputs[lang]
        if not code:
            marker[lang].unlink(missing_ok=True)
            place(built[lang], out / lang)
        results.append(Result(lang, code, printed, seconds))
    return results


def _hidden(folder: str, names: list[str]) -> list[str]:
    """The entries a published site leaves out: dot-files and dot-folders (Sphinx's ``.buildinfo``,
    the engine's ``.inputs.json``, build folders of earlier havoc versions), which a static
    host would serve."""
    return [name for name in names if name.startswith(".")]


def place(built: Path, dest: Path) -> None:
    """``dest`` made a copy of the folder ``built`` out of hard links to its files (copies where
    the system cannot link), without dot-files: a second of copying saved for a whole site, and
    safe because nothing writes into a file of ``built`` (see :func:`_writes_unshared`; a clean
    build starts from an empty folder). ``dest`` is in a staging folder no reader sees."""
    if dest.is_dir() and not dest.is_symlink():
        shutil.rmtree(dest)
    elif os.path.lexists(dest):
        os.unlink(dest)
    shutil.copytree(built, dest, symlinks=True, ignore=_hidden, copy_function=_link_or_copy)


def _sync_stubs(source: Path, ruleset: str) -> None:
    """Bring the page stubs up to date once, before the Sphinx processes start (they then find
    them current): two processes removing a gone section's stub at once could fail each other's
    build. Only where a build wrote stubs before (there is nothing stale to remove otherwise)."""
    from havoc.sphinxext import stubs as sitestubs

    folder = source / sitestubs.PAGES_DIR
    if sitestubs.generated(folder):
        sitestubs.write_stubs(folder, rulebook.load(ruleset))


def _link_or_copy(src: str | os.PathLike[str], dest: str | os.PathLike[str]) -> None:
    """``dest`` as a hard link to the file ``src`` (a copy where the system cannot link it)."""
    if not os.path.islink(src):
        try:
            os.link(src, dest)
            return
        except OSError:
            pass
    shutil.copy2(src, dest, follow_symlinks=False)


@contextlib.contextmanager
def _writes_unshared(root: Path) -> Any:
    """While it lasts, a file under ``root`` that shares its data with another (a hard link to
    the live site's, see :func:`place`) is unlinked before it is opened for writing, so the
    write makes a file of its own: the live site is never changed by a build. Every writer of
    a build opens its file with ``open`` (Sphinx's pages, inventory and copies, the theme's and
    havoc's files; ``shutil.copyfile`` and ``pathlib`` too) or replaces it whole (``os.replace``)."""
    import builtins
    import io
    import stat

    real_open = builtins.open
    # as given and as Sphinx resolves it (its output folder is the resolved path)
    tops = tuple({os.path.join(os.path.abspath(root), ""), os.path.join(os.path.realpath(root), "")})

    def unshared(path: Path, mode: str) -> None:
        try:
            st = os.lstat(path)
        except OSError:
            return
        if not stat.S_ISREG(st.st_mode) or st.st_nlink < 2:
            return
        if "w" in mode or "x" in mode:
            os.unlink(path)
            return
        tmp = f"{path}.unshared"  # appended to or updated in place: a copy of its own first
        shutil.copy2(path, tmp)
        os.replace(tmp, path)

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, os.PathLike)) and any(c in mode for c in "wax+"):
            path = os.fspath(file)
            if isinstance(path, str) and os.path.abspath(path).startswith(tops):
                unshared(Path(path), mode)
        return real_open(file, mode, *args, **kwargs)

    builtins.open = io.open = guarded_open
    try:
        yield
    finally:
        builtins.open = io.open = real_open


WORKER_MARK = "\n@@havoc-docs-language "


def worker(spec: str) -> int:
    """Build several languages in this process (``python -m havoc.cli.commands.docs``).

    Sphinx, its extensions and havoc are imported once; then, where the system can fork and has
    more than one CPU, one child per language builds it at the same time as the others (a
    maintainer waits the longest language, not the sum). Otherwise the languages are built one
    after the other. Each language's status and printed output follow a :data:`WORKER_MARK` line.
    """
    import gc

    # A rebuild loads each language's whole saved environment, then makes few new objects; at
    # Python's default thresholds the collector still walks that environment again and again
    # (a tenth of a one-word rebuild's time). Collect young objects less often: the build's
    # garbage is still collected, in fewer and larger passes.
    gc.set_threshold(50_000, 20, 20)

    job = json.loads(spec)
    langs: dict[str, list[str]] = job["langs"]
    prepare = functools.partial(_prepare, langs, Path(job["stubs"][0]), job["stubs"][1])
    forking = len(langs) > 1 and hasattr(os, "fork") and (os.cpu_count() or 1) > 1
    if forking:
        # While this process imports Sphinx and compiles the templates, a child of its own loads
        # the rules, brings the page stubs up to date and stores the search index.
        preparer = _fork(prepare)
        _preload(langs)
        _warm_templates(langs)
        if os.waitstatus_to_exitcode(os.waitpid(preparer, 0)[1]):
            return 1  # the stubs are not current: it said why
        _load_rulesets(langs)  # from the cache it stored: loaded once for every language
    else:
        # Every module is imported before the first build registers its language's translations:
        # Sphinx translates some names as their module is imported (the Python domain's "Python
        # Module Index"), which the next language's build in this process would show untranslated.
        _preload(langs)
        try:
            prepare(index=False)  # the first language's build makes the index; the next reuses it
        except Exception:
            return 1
    # What is loaded so far lives as long as the builds: the collector need not walk it again in
    # each of them (which, in a forked child, would also copy every page it touches).
    gc.collect()
    gc.freeze()
    chunks = _fork_languages(langs) if forking else {lang: _build_language(lang, args) for lang, args in langs.items()}
    for lang in langs:
        sys.stdout.write(chunks[lang])
    return 0


def _fork(task: Any) -> int:
    """Run ``task()`` in a forked child; its process id (it exits 0 when the task returned)."""
    from havoc.core.children import die_with_parent

    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            die_with_parent(parent)  # a fork clears the parent-death signal: set it again
            task()
            status = 0
        finally:
            os._exit(status)
    return pid


def _build_language(lang: str, args: list[str]) -> str:
    """Build one language in this process (``args``: its output folder, then Sphinx's
    arguments); its :data:`WORKER_MARK` line and printed output."""
    import io
    import traceback

    import sphinx.locale
    from sphinx.cmd.build import build_main

    sphinx.locale.translators.clear()  # Sphinx keeps the last language's translations process-wide
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            with _writes_unshared(Path(args[0])):
                code = build_main(args[1:])
        except BaseException:  # reported as this language's failure, never lost
            traceback.print_exc(file=buf)
            code = 2
    return f"{WORKER_MARK}{lang} {code}\n{buf.getvalue()}"


def _load_rulesets(langs: dict[str, list[str]]) -> list[Any]:
    """The rulesets the builds show (their ``-D havoc_ruleset=`` arguments), loaded; none where
    one does not load (its builds then report why)."""
    names = {arg.partition("=")[2] for args in langs.values() for arg in args if arg.startswith("havoc_ruleset=")}
    loaded = []
    for name in sorted(names):
        with contextlib.suppress(Exception):
            from havoc.engine import game

            rs = rulebook.load(name)
            game.of(rs)
            loaded.append(rs)
    return loaded


def _prepare(langs: dict[str, list[str]], source: Path, ruleset: str, index: bool = True) -> None:
    """Load the rules, bring the page stubs up to date (before any build reads them) and, with
    ``index``, store the search index. Why the stubs could not be written is printed (the caller
    reports it as each language's failure) and raised."""
    import traceback

    rulesets = _load_rulesets(langs)
    try:
        _sync_stubs(source, ruleset)
    except HavocError as exc:
        print("\n".join(str(p) for p in exc.problems), file=sys.stderr)
        raise
    except Exception:
        traceback.print_exc()
        raise
    if index:
        with contextlib.suppress(Exception):  # stored or not: a build makes what it does not find
            _store_search_index(rulesets, langs)


def _store_search_index(rulesets: list[Any], langs: dict[str, list[str]]) -> None:
    """Build the bilingual search index of each ruleset once and store it in havoc's cache, where
    every language's build finds it (:func:`havoc.search.stored.site_scripts`): after an edit
    each build would otherwise make the same index of both languages."""
    from havoc.search.stored import site_scripts

    for rs in rulesets:
        for lang in langs:
            site_scripts(rs, lang)


def _preload(langs: dict[str, list[str]]) -> None:
    """Import what every language's build imports once, before the children are forked (each
    child starts with them loaded, shared until written). No build state and no thread: a
    failure here is left to the builds, which report it."""
    import importlib

    import sphinx.application

    games: list[str] = []
    with contextlib.suppress(Exception):
        from havoc.sphinxext.extension import site_extensions

        games = site_extensions()
    names = [
        *sphinx.application.builtin_extensions,
        "sphinx.cmd.build",
        "sphinx.jinja2glue",
        "sphinx.util.console",
        "sphinx.ext.intersphinx",
        "sphinx.ext.mathjax",
        "sphinx.builders.latex.transforms",
        "jinja2.ext",
        "myst_parser.sphinx_ext.main",
        "myst_parser.sphinx_ext.directives",
        "myst_parser.sphinx_ext.mathjax",
        "myst_parser.sphinx_ext.myst_refs",
        "myst_parser.parsers.sphinx_",
        "xml.dom.minidom",
        "furo",
        "sphinx_basic_ng",
        "pygments.styles.native",
        "a11y_pygments.a11y_light.style",
        "a11y_pygments.a11y_dark.style",
        "a11y_pygments.a11y_high_contrast_light.style",
        "a11y_pygments.a11y_high_contrast_dark.style",
        "havoc.sphinxext",
        "havoc.sphinxext.gamepage",
        "havoc.assistant.examples",
        *games,
        *(f"docutils{part}.languages.{lang}" for lang in langs for part in ("", ".parsers.rst")),
    ]
    for name in names:
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def _warm_templates(langs: dict[str, list[str]]) -> None:
    """Compile the page templates once, before the children are forked (each would compile them
    again: a quarter of a one-word rebuild's work in each language)."""
    doctrees = [Path(args[args.index("-d") + 1]) for args in langs.values() if "-d" in args[:-1]]
    with contextlib.suppress(Exception):
        from havoc.sphinxext.extension import warm_templates

        warm_templates(doctrees)


def _fork_languages(langs: dict[str, list[str]]) -> dict[str, str]:
    """Build each language in a forked child at once; each child's report, or a failure for a
    child that died without one. The children write the havoc cache only through atomic
    replaces (:func:`havoc.core.cache.put`), so two of them storing an entry cannot tear it."""
    from havoc.core.children import die_with_parent

    parent = os.getpid()
    children: dict[str, tuple[int, int]] = {}
    for lang, args in langs.items():
        read_end, write_end = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: build, send the report, leave without running the parent's exit code
            status = 1
            try:
                die_with_parent(parent)  # a fork clears the parent-death signal: set it again
                os.close(read_end)
                for _, (_, other) in children.items():
                    os.close(other)
                report = _build_language(lang, args).encode("utf-8", "surrogateescape")
                with os.fdopen(write_end, "wb") as fh:
                    fh.write(report)
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        children[lang] = (pid, read_end)
    chunks = {}
    for lang, (pid, read_end) in children.items():
        with os.fdopen(read_end, "rb") as fh:
            data = fh.read().decode("utf-8", "replace")
        _, wait_status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(wait_status)
        if not data.startswith(WORKER_MARK):
            data = f"{WORKER_MARK}{lang} {code or 1}\nthe {lang} build stopped without a report (exit {code})\n{data}"
        chunks[lang] = data
    return chunks


def write_root(out: Path, title: str | None = None) -> Path:
    """``index.html`` at the site root: the reader's saved or browser language, with links to both."""
    links = "\n".join(
        f'    <li><a href="{lang}/index.html" hreflang="{lang}" lang="{lang}">{NAMES[lang]}</a></li>'
        for lang in LANGUAGES
    )
    title = title or rulebook.load().title
    page = ROOT_PAGE.replace("@LINKS@", links).replace("@LANGS@", ", ".join(f'"{lang}"' for lang in LANGUAGES))
    page = webpolicy.with_meta(page.replace("@TITLE@", html.escape(title)))  # the site's policy, as every page
    path = out / "index.html"
    safeio.write_text(path, page)
    return path


NAMES = {code: lang.name for code, lang in REGISTRY.items()}


class SiteUrlError(HavocError):
    """``--site-url`` is not an absolute http(s) address."""


def check_site_url(url: str) -> str:
    """The site's address, ending in ``/``; anything but an absolute http(s) URL is refused."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SiteUrlError(
            [
                Problem(
                    "--site-url",
                    None,
                    f"expected an absolute address such as https://example.org/rules/, found {url!r}",
                    code=Code.REQUEST_USAGE,
                )
            ]
        )
    return url.strip() if url.strip().endswith("/") else url.strip() + "/"


def remove_sitemap_index(top: Path) -> None:
    """A build without an address leaves no sitemap index or robots.txt of an earlier one."""
    for name, mark in (("sitemap.xml", "<sitemapindex"), ("robots.txt", "\nSitemap: ")):
        path = top / name
        with contextlib.suppress(OSError, UnicodeDecodeError):
            if mark in path.read_text(encoding="utf-8"):
                path.unlink()


def write_sitemap_index(top: Path, site_url: str) -> Path:
    """``sitemap.xml`` at the top: every language's (and ruleset's) sitemap; ``robots.txt`` names it."""
    from xml.sax.saxutils import escape

    maps = sorted(
        p.relative_to(top).as_posix()
        for p in top.glob("**/sitemap.xml")
        if p.parent != top and not any(part.startswith(".") for part in p.relative_to(top).parts)
    )
    rows = "".join(f"  <sitemap><loc>{escape(site_url + m)}</loc></sitemap>\n" for m in maps)
    index = top / "sitemap.xml"
    safeio.write_text(
        index,
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{rows}</sitemapindex>\n',
    )
    safeio.write_text(top / "robots.txt", f"User-agent: *\nAllow: /\n\nSitemap: {site_url}sitemap.xml\n")
    return index


ROOT_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>@TITLE@ — rules / zasady</title>
  <script>
    (function () {
      var langs = [@LANGS@];
      var choice = null;
      try { choice = localStorage.getItem("havoc-lang"); } catch (e) {}
      if (langs.indexOf(choice) < 0) {
        var wanted = (navigator.languages || [navigator.language || "en"]).map(function (l) { return l.toLowerCase().slice(0, 2); });
        choice = wanted.filter(function (l) { return langs.indexOf(l) >= 0; })[0] || "en";
      }
      location.replace(choice + "/index.html" + location.hash);
    })();
  </script>
  <style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:30rem;padding:0 1rem;line-height:1.5}</style>
</head>
<body>
  <h1>@TITLE@</h1>
  <p>Choose a language / Wybierz język:</p>
  <ul>
@LINKS@
  </ul>
</body>
</html>
"""


def update_catalog(ruleset: str, doctrees: Path) -> int:
    """Extract the site's strings with Sphinx's gettext builder and merge them into each site.po."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    from havoc.cli.catalogs import merge, read_catalog_bytes, read_checked, write_catalog
    from havoc.language.i18n import locales_root

    pot_dir = Path("build") / "gettext"
    cmd = sphinx_command("gettext", SOURCE_LANGUAGE, pot_dir, doctrees / "gettext", ruleset, DEFAULT_SHEETS, clean=True)
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    sys.stdout.write(proc.stdout + proc.stderr)
    if proc.returncode:
        return 1
    root = locales_root()
    with (pot_dir / "site.pot").open("rb") as fh:
        template = read_po(fh)
    template.header_comment = (
        "# The site's own strings: narrative pages (docsbuild/) and the labels of havoc.sphinxext."
    )
    pot = root / "site.pot"
    write_catalog(pot, template, read_catalog_bytes(pot) if pot.exists() else None, sort_output=True)
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        path = root / lang / "LC_MESSAGES" / "site.po"
        previous: dict[tuple[str | None, str], list[str]] = {}
        old = read_catalog_bytes(path) if path.exists() else None
        if old is not None:  # a broken site.po is refused at its line, never rewritten
            cat, previous = read_checked(path, old, lang)
        else:
            cat = Catalog(locale=lang, project="havoc", version="", fuzzy=False)
        cat = merge(cat, template, None, previous)  # reworded strings turn fuzzy, unused ones stay #~
        # the file's own layout (wrapping, every untouched entry's lines) is kept, as `havoc catalog update` keeps it
        write_catalog(path, cat, old, sort_output=True)
        missing = [m.id for m in cat if m.id and (not m.string or m.fuzzy)]
        print(f"{path}: {len(missing)} strings to translate or review")
    return 0


class BuiltPagesHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built pages only: no folder listings, no ``_sources/``, no dot-files
    (``.buildinfo``, build folders in progress)."""

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404, "Not found")
        return None

    def send_head(self) -> Any:
        from urllib.parse import unquote, urlsplit

        parts = [p for p in unquote(urlsplit(self.path).path).split("/") if p]
        if any(p.startswith(".") or p == "_sources" for p in parts):
            self.send_error(404, "Not found")
            return None
        return super().send_head()

    def end_headers(self) -> None:
        """The site's security headers on every answer, as ``havoc serve`` sends them. The pages'
        own ``<meta>`` policy (hashes of their inline code) governs scripts; the header adds only
        what a ``<meta>`` cannot say: no framing."""
        for name, value in webpolicy.OTHER_HEADERS:
            self.send_header(name, value)
        self.send_header(webpolicy.CSP, "frame-ancestors 'none'")
        super().end_headers()


def check_port(port: int) -> int:
    if not 0 <= port <= 65535:
        raise PortError(
            [
                Problem(
                    "--port",
                    None,
                    f"expected a port from 1 to 65535 (0: any free port), found {port}",
                    code=Code.REQUEST_USAGE,
                )
            ]
        )
    return port


def bind(out: Path, port: int) -> http.server.ThreadingHTTPServer:
    """The preview server, bound before the build so a busy port fails in a second, not after it."""
    handler = functools.partial(BuiltPagesHandler, directory=str(out))
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", check_port(port)), handler)
    except OSError as exc:
        why = "is in use" if exc.errno in (errno.EADDRINUSE, errno.EACCES) else f"cannot be used ({exc.strerror})"
        if exc.errno == errno.EACCES:
            why = "needs more privileges (use a port above 1023)"
        raise PortError([Problem("--port", None, f"port {port} {why}", code=Code.REQUEST_USAGE)]) from None


class PortError(HavocError):
    """The preview port is invalid or busy: exit 1 with one line."""


def serve(out: Path, port: int, server: http.server.ThreadingHTTPServer | None = None) -> None:
    with server or bind(out, port) as srv:
        address = f"http://127.0.0.1:{srv.server_address[1]}/"
        print(said("serving {folder} on {address} (Ctrl-C to stop)", folder=out, address=address))
        with contextlib.suppress(KeyboardInterrupt):
            srv.serve_forever()


def source_for(name: str) -> Path:
    """The Sphinx project of a ruleset's site: ``docsbuild/`` for the default ruleset; for another,
    ``rules/<name>/site/`` when it has one, else a generated project (the same configuration and
    templates, a home page with the ruleset's contents)."""
    if not rulebook.site_path(name):
        return SOURCE
    own = rulebook.ruleset_folder(name) / "site"
    if (own / "conf.py").is_file():
        return own
    rs = rulebook.load(name)
    folder = Path("build") / "sources" / name
    folder.mkdir(parents=True, exist_ok=True)
    conf = GENERATED_CONF.format(real=str(SOURCE / "conf.py"), ruleset=name, title=rs.title)
    home = ".. Generated by `havoc docs`: the ruleset's home page, titled in the reader's language.\n\n"
    home += ".. havoc-contents::\n   :home:\n"
    (folder / "index.md").unlink(missing_ok=True)  # an earlier generated home page
    for path, text in ((folder / "conf.py", conf), (folder / "index.rst", home)):
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            safeio.write_text(path, text)
    return folder


GENERATED_CONF = """\
# Generated by `havoc docs` for a ruleset without a site/ folder of its own: the main site's
# configuration and templates, this ruleset's rules and title.
from pathlib import Path

_real = Path({real!r})
exec(compile(_real.read_text(encoding="utf-8"), str(_real), "exec"), {{"__file__": str(_real)}}, _conf := {{}})
globals().update({{k: v for k, v in _conf.items() if not k.startswith("_") and k not in {{"Path", "locales_root", "annotations"}}}})
templates_path = [str(_real.parent / "_templates")]
havoc_ruleset = {ruleset!r}
project = html_title = {title!r}
"""


class _Engine:
    """The in-browser assistant's build (:func:`havoc.web.offline.prepare_engine`) in a thread of its
    own, started before the site's Sphinx builds: it needs none of their output, and it runs
    while this process only waits for theirs. What it makes is swapped in by :func:`_offline`
    only when every page built (else it is thrown away: the site and its engine stay as they were).
    Whatever it raised is said by :func:`_offline` or :meth:`discard`, never lost with its thread."""

    def __init__(self, top: Path, clean: bool) -> None:
        import threading

        self.top, self.clean = top, clean
        self.stage: Path | None = None
        self.error: BaseException | None = None
        self.said = False  # whether the error was said (once, whichever step ends the build)
        self.started = self.finished = time.perf_counter()
        self.thread = threading.Thread(target=self._run, name="havoc-engine", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from havoc.web.offline import prepare_engine

        try:
            self.stage = prepare_engine(self.top, self.clean)
        except BaseException as exc:  # handed to the main thread, which says it
            self.error = exc
        self.finished = time.perf_counter()

    def wait(self) -> Path | None:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.stage

    def discard(self) -> None:
        """Throw away what the thread made (the pages failed); say why it failed, if it did."""
        self.thread.join()
        if self.stage is not None:
            shutil.rmtree(self.stage, ignore_errors=True)
        if self.error is not None and not self.said:
            self.said = True
            _say_engine_error(self.error)


def _say_engine_error(exc: BaseException) -> None:
    """Why the engine did not build, in the reader's language, as one line: the thread's
    exception would otherwise end with the thread, or end the command as a traceback."""
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    if isinstance(exc, HavocError):
        why = "; ".join(p.said() for p in exc.problems)
    elif isinstance(exc, OSError) and exc.strerror:
        # a copy that failed names both files (shutil: the source, then where it was going)
        where = " → ".join(str(name) for name in (exc.filename, exc.filename2) if name)
        why = f"{where}: {exc.strerror}" if where else exc.strerror
    else:
        why = str(exc) or type(exc).__name__
    message = ui("the in-browser assistant did not build: {why}", lang).format(why=why)
    print(f"{ui('error', lang)}: {message}", file=sys.stderr)


def _offline(
    top: Path, clean: bool = False, engine: _Engine | None = None, work: Path | None = None, shown: Path | None = None
) -> bool:
    """The in-browser assistant (``_engine/``: left as it is when nothing it is made from changed;
    with ``clean``, made afresh; ``engine``: its build started earlier) and the service worker over
    the whole site; on failure the previous ones stay and why is said. ``work``: where the engine
    is built and kept (default ``top``); its ``_engine`` is then put in ``top`` as hard links.
    ``shown``: the folder ``top`` is published as (the one the message names)."""
    from havoc.web.offline import install_engine, write_service_worker

    work = top if work is None else work
    job = engine or _Engine(work, clean)
    try:
        stage = job.wait()
        made = install_engine(work, stage)
        if work != top:
            place(made, top / "_engine")
            made = top / "_engine"
        write_service_worker(top)
    except Exception as exc:  # a failed engine (no Node, a full disk, …) is a message, never a traceback
        job.said = True
        _say_engine_error(exc)
        return False
    made = (shown or top) / made.relative_to(top) if made.is_relative_to(top) else made
    took = job.finished - job.started
    if stage is None:
        print(said("the in-browser assistant is unchanged: {folder} ({seconds})", folder=made, seconds=took))
    else:
        print(said("built the in-browser assistant: {folder} ({seconds})", folder=made, seconds=took))
    return True


# --- publishing: the whole site at once, or nothing ------------------------------------------
#
# ``havoc docs -o build/site`` keeps, beside build/site (same parent, never inside):
#   .site.lock          held while a build runs (a second build of the same site waits for it)
#   .site.work/         what Sphinx and the engine build keep from build to build (not served)
#   .site.staging-XXXX  the next site, put together from hard links; renamed into place at the end
# A build that fails or is killed leaves build/site as it was; the next build removes what an
# interrupted one left.


def _sibling(top: Path, suffix: str) -> Path:
    return top.parent / f".{top.name}.{suffix}"


@contextlib.contextmanager
def _publish_lock(top: Path) -> Any:
    """Hold ``.<site>.lock`` beside the site while building it: two builds of one site would
    share their work folder and staging. The kernel releases it when the process ends, however
    it ends. Where the system has no ``flock`` (not POSIX) builds are not serialised."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    from havoc.language.i18n import message_language, ui

    path = _sibling(top, "lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(ui("waiting for another build of {folder} to finish", message_language()).format(folder=top))
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _remove_leftovers(top: Path) -> None:
    """What earlier builds of ``top`` left (the lock is held, so none of it is in use): staging
    folders of builds that were killed; the site itself, when a build was killed between the two
    renames of :func:`_exchange` where the system cannot swap two folders at once (the old site is
    put back). Dot-files inside the site (build folders of earlier versions, ``.buildinfo``) are
    left out of the next site by :func:`place`, and so gone once it is published."""
    aside = _sibling(top, "staging-old")
    if aside.is_dir() and (not top.exists() or (top.is_dir() and not any(top.iterdir()))):
        with contextlib.suppress(OSError):
            if top.exists():
                top.rmdir()
            os.rename(aside, top)
    for path in top.parent.glob(f".{top.name}.staging-*"):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                path.unlink()


LEFTOVERS = (".building-", ".old-", ".havoc-probe-", ".buildinfo")
"""Names at the top of a site that earlier havoc versions' builds left there (a host serves them)."""


def _ours(names: list[str]) -> set[str]:
    """The folders at the top of the site that the build makes: every language, the engine, each
    other ruleset's site (their dot-files are Sphinx's and havoc's, and are left out)."""
    return {
        *LANGUAGES,
        "_engine",
        *(rulebook.site_path(name).split("/")[0] for name in names if rulebook.site_path(name)),
    }


def _seed(top: Path, stage: Path, ours: set[str]) -> None:
    """``stage`` made the present site (hard links): what this build does not make (a language
    not asked for, another ruleset's site, a host's own files such as ``.nojekyll`` or
    ``.well-known/``) is published as it is; dot-files inside the folders the build makes
    (``ours``) and the leftovers of earlier havoc versions at the top are left out."""
    for entry in os.scandir(top):
        if entry.name.startswith(LEFTOVERS):
            continue
        src, dest = Path(entry.path), stage / entry.name
        if entry.is_dir(follow_symlinks=False):
            hide = _hidden if entry.name in ours else None
            shutil.copytree(src, dest, symlinks=True, ignore=hide, copy_function=_link_or_copy)
        else:
            _link_or_copy(src, dest)


def _check_replaceable(top: Path, ours: set[str]) -> None:
    """``top`` must be empty or a site havoc built: publishing replaces the folder as a whole, so
    ``-o`` naming a folder of other things (a home folder, a project) is refused, not replaced."""
    from havoc.language.i18n import message_language, ui

    names = {entry.name for entry in os.scandir(top)}
    if not names or names & {*ours, "sw.js"} or any(name.startswith(LEFTOVERS) for name in names):
        return
    text = ui("holds no site havoc built; give an empty or new folder (it is replaced as a whole)", message_language())
    raise PublishError([Problem(str(top), None, text, code=Code.FILE_UNWRITABLE)])


def _adopt(live: Path, work: Path) -> None:
    """A work folder not made yet (the first build since Sphinx wrote into the site itself) starts
    as the site's (hard links): the build stays incremental."""
    if live.is_dir() and not os.path.lexists(work):
        with contextlib.suppress(OSError):
            shutil.copytree(live, work, symlinks=True, copy_function=_link_or_copy)


RENAME_EXCHANGE = 2  # <linux/fs.h>


def _rename_exchange(a: Path, b: Path) -> bool:
    """Swap the folders ``a`` and ``b`` in one step (Linux's ``renameat2``); False where the system
    or the filesystem cannot (then nothing moved)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library older than glibc 2.28
        return False
    at_fdcwd = -100
    if call(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _exchange(stage: Path, top: Path) -> None:
    """Publish ``stage`` as ``top``; the old site is then at ``stage``.

    Where the kernel and filesystem swap two folders in one step (Linux 3.15+: ext4, xfs, btrfs,
    tmpfs, …), ``top`` is at every moment the whole old site or the whole new one. Elsewhere two
    renames: the site is missing for the time between them (microseconds), and a build killed
    just then is put back by the next (:func:`_remove_leftovers`)."""
    if _rename_exchange(stage, top):
        return
    aside = _sibling(top, "staging-old")
    os.rename(top, aside)
    try:
        os.rename(stage, top)
    except OSError:
        os.rename(aside, top)
        raise
    os.rename(aside, stage)


class PublishError(HavocError):
    """The finished site could not be put together or put in place: the published one stays."""


def _publish_problem(top: Path, exc: OSError) -> PublishError:
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    why = exc.strerror or str(exc)
    where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
    text = ui("the new site could not be put in place ({why}); the published site is unchanged", lang)
    return PublishError([Problem(str(top), None, text.format(why=where + why), code=Code.FILE_UNWRITABLE)])


def cmd_docs(args: argparse.Namespace) -> int:
    names = [args.ruleset] if args.ruleset else rulebook.ruleset_names()
    for name in names:
        rulebook.load(name)  # a broken ruleset fails here, with located errors, before Sphinx starts
    if args.update_catalog:
        return update_catalog(names[0], DEFAULT_DOCTREES)
    if args.site_url:
        os.environ["HAVOC_SITE_URL"] = check_site_url(args.site_url)  # read by conf.py in each Sphinx process
    top: Path = safeio.writable_dir(args.output)  # an unwritable -o fails now, not after the build
    top = Path(os.path.realpath(top))  # a linked site folder: replaced where it is, the link kept
    server = bind(top, args.port) if args.serve else None
    try:
        with _publish_lock(top):
            code = _build_and_publish(args, names, top)
    except BaseException:
        if server is not None:
            server.server_close()
        raise
    if code:
        if server is not None:
            server.server_close()
        return code
    if server is not None:
        serve(top, args.port, server)
    return 0


def _build_and_publish(args: argparse.Namespace, names: list[str], top: Path) -> int:
    """Everything (every ruleset's languages, the engine, ``sw.js``, the root files) built into a
    staging folder beside ``top``, then published in one step (:func:`_exchange`); on any failure
    or interruption the staging folder goes and ``top`` stays byte for byte as it was."""
    import tempfile

    from havoc.language.i18n import message_language, ui

    lang_ui = message_language()
    langs = list(LANGUAGES) if args.lang == "all" else [args.lang]
    _remove_leftovers(top)
    ours = _ours(names)
    _check_replaceable(top, ours)
    work = _sibling(top, "work")
    for name in names:
        where = rulebook.site_path(name)
        for lang in langs:
            _adopt(top / where / lang if where else top / lang, work / where / lang if where else work / lang)
    _adopt(top / "_engine", work / "_engine")
    work.mkdir(exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{top.name}.staging-", dir=top.parent))
    engine: _Engine | None = None
    try:
        try:
            _seed(top, stage, ours)
        except OSError as exc:
            raise _publish_problem(top, exc) from None
        engine = _Engine(work, args.clean)  # at the same time as the pages
        failed = False
        rel = {name: rulebook.site_path(name) for name in names}
        outs = {name: stage / rel[name] if rel[name] else stage for name in names}
        works = {name: work / rel[name] if rel[name] else work for name in names}

        def build(name: str) -> list[Result]:
            where = rel[name]
            return build_languages(
                langs,
                outs[name],
                DEFAULT_DOCTREES / where if where else DEFAULT_DOCTREES,
                name,
                DEFAULT_SHEETS / where if where else DEFAULT_SHEETS,
                sources[name],
                clean=args.clean,
                work=works[name],
            )

        # every ruleset's site at once (each its own processes, folders and sources): this process
        # only waits for them, and a small ruleset's build fills what the larger one leaves idle
        sources = {name: source_for(name) for name in names}  # made here, once, before the threads
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=len(names) or 1) as pool:
            built = dict(zip(names, pool.map(build, names), strict=True))
        for name in names:
            final = top / rel[name] if rel[name] else top
            for res in built[name]:
                if res.output.strip():
                    sys.stderr.write(res.output if res.output.endswith("\n") else res.output + "\n")
                if res.code:
                    failed = True
                    text = ui(
                        "the {lang} site of {ruleset} did not build (exit {code}); see the messages above", lang_ui
                    )
                    print(
                        f"{ui('error', lang_ui)}: {text.format(lang=res.lang, ruleset=name, code=res.code)}",
                        file=sys.stderr,
                    )
                else:
                    print(
                        said(
                            "built {lang}: {page} ({seconds})",
                            lang=res.lang,
                            page=final / res.lang / "index.html",
                            seconds=res.seconds,
                        )
                    )
        if failed:
            engine.discard()
        else:
            try:
                for name in names:
                    write_root(outs[name], rulebook.load(name).title)
                if args.site_url:
                    write_sitemap_index(stage, os.environ["HAVOC_SITE_URL"])
                else:
                    remove_sitemap_index(stage)
            except OSError as exc:
                engine.discard()
                raise _publish_problem(top, exc) from None
            failed = not _offline(stage, args.clean, engine, work, top)
        if failed:
            text = ui("the site was not published: {folder} is as it was", lang_ui).format(folder=top)
            print(f"{ui('error', lang_ui)}: {text}", file=sys.stderr)
            return 1
        try:
            _exchange(stage, top)
        except OSError as exc:
            raise _publish_problem(top, exc) from None
        print(said("site: {page}", page=top / "index.html"))
        return 0
    finally:
        if engine is not None:
            engine.discard()  # what it made, unless installed; why it failed, unless said
        shutil.rmtree(stage, ignore_errors=True)  # the staging of a failed build, or the old site


def run_sphinx(args: list[str]) -> int:
    """One Sphinx build (``python -m havoc.cli.commands.docs --sphinx <sphinx-build arguments>``)
    whose every write into its output folder (the last argument) makes a new file."""
    from sphinx.cmd.build import build_main

    with _writes_unshared(Path(args[-1])):
        return build_main(args)


if __name__ == "__main__":
    sys.exit(run_sphinx(sys.argv[2:]) if sys.argv[1:2] == ["--sphinx"] else worker(sys.argv[1]))
