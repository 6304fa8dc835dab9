"""The command line in the reader's language: argparse's own messages, every --help, usage.

The language is chosen before the parser is built: ``--lang`` anywhere on the command line,
else ``HAVOC_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``). argparse writes
its messages through the module-level ``gettext`` functions ``argparse._`` and
``argparse.ngettext``; while a command line is parsed they look the message up in havoc's
catalog (context ``ui``, the literal calls in :func:`_argparse_messages`). The help texts
of havoc's own commands are catalog entries under context ``cli``, collected from the parser
itself by :func:`help_texts` (``havoc catalog update`` adds them); a help made in the reader's
language already (a game's list of commands, marked ``in_language``) is left as it is.
"""

from __future__ import annotations

import os

from havoc import TYPE_CHECKING

# the registry itself, not havoc.language.i18n: working out the language imports nothing else, and
# argparse is imported only when a parser is built (havoc.cli reads a plain ask without it)
from havoc.language.languages import CODES as LANGUAGES
from havoc.language.languages import SOURCE as SOURCE_LANGUAGE

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterator, Sequence

CLI_CONTEXT = "cli"
METAVAR_CONTEXT = "cli:metavar"
"""The placeholders of usage lines (``POSITION``, ``FILE``): one word, upper case, in the
reader's language (``STÓŁ``, ``PLIK``), as the translated help texts name them."""


def language_code(value: str) -> str | None:
    """The language a ``HAVOC_LANG`` or locale value names, else None.

    Case and the locale's parts are not the language: ``PL``, ``pl_PL.UTF-8``, ``pl-PL``,
    ``pl_PL@euro`` and the language's own name (``Polski``) all name Polish.
    """
    word = value.strip().lower().split(".")[0].split("@")[0].replace("-", "_").split("_")[0]
    if word in LANGUAGES:
        return word
    from havoc.language.languages import REGISTRY

    return next((code for code, entry in REGISTRY.items() if entry.name.lower() == word), None)


def detect(words: Sequence[str], environ: dict[str, str] | None = None) -> str:
    """The language a command line asks for (``--lang``, ``HAVOC_LANG``, the locale), else English.

    A ``HAVOC_LANG`` that names no language is passed over (:func:`unknown_setting` says so);
    a locale that names none (``C``, ``de_DE``) means English, as for any program.
    """
    env = os.environ if environ is None else environ
    for i, word in enumerate(words):
        value = words[i + 1] if word == "--lang" and i + 1 < len(words) else None
        if word.startswith("--lang="):
            value = word.split("=", 1)[1]
        if value in LANGUAGES:
            return value
    wanted = language_code(env.get("HAVOC_LANG", ""))
    if wanted is not None:
        return wanted
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return language_code(value) or SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def unknown_setting(words: Sequence[str], lang: str, environ: dict[str, str] | None = None) -> str | None:
    """The warning for a ``HAVOC_LANG`` that names no language (in ``lang``, the language used
    instead), else None: a typo must not silently give another language than the one asked for.
    A command line with ``--lang`` does not read it, and is not warned."""
    env = os.environ if environ is None else environ
    value = env.get("HAVOC_LANG", "")
    if not value.strip() or language_code(value) is not None:
        return None
    if any(w == "--lang" or w.startswith("--lang=") for w in words):
        return None
    from havoc.language.i18n import ui
    from havoc.language.languages import REGISTRY

    accepted = ", ".join(f"{code} ({entry.name})" for code, entry in REGISTRY.items())
    return ui(
        "warning: HAVOC_LANG={value} names no language havoc speaks (it accepts {accepted}); using {language}",
        lang,
    ).format(value=value, accepted=accepted, language=REGISTRY[lang].name)


def install(lang: str) -> Callable[[], None]:
    """Route argparse's messages through the catalogs of ``lang``; returns the undo."""
    import argparse

    saved = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]  # argparse's gettext functions
    if lang == SOURCE_LANGUAGE:
        # argparse's messages as written: the stdlib's gettext would look for a system catalog
        # (importing ``locale``, a dozen file lookups) for each message of every parser built.
        def gettext(message: str) -> str:
            return message

        def ngettext(singular: str, plural: str, n: int) -> str:
            return singular if n == 1 else plural

    else:
        from havoc.language.i18n import nui, translator

        tr = translator(lang)

        def gettext(message: str) -> str:
            return tr.text("ui", message)

        def ngettext(singular: str, plural: str, n: int) -> str:
            return nui(singular, plural, n, lang)

    argparse._ = gettext  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]

    def undo() -> None:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]

    return undo


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    import argparse

    seen: set[int] = set()
    todo = [parser]
    while todo:
        p = todo.pop(0)
        if id(p) in seen:
            continue
        seen.add(id(p))
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())


def help_texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every help text, description, epilog and group title of ``parser`` and its subcommands."""
    import argparse

    out: list[str] = []
    for p in _parsers(parser):
        if not getattr(p, "in_language", False):  # a help made in the reader's language (a game's list)
            out.extend(t for t in (p.description, p.epilog) if t)
        out.extend(g.title for g in p._action_groups if g.title and g.title not in _ARGPARSE_TITLES)
        for action in p._actions:
            if action.help and action.help != argparse.SUPPRESS:
                out.append(action.help)
            if isinstance(action, argparse._SubParsersAction):
                out.extend(a.help for a in action._choices_actions if a.help and not getattr(a, "in_language", False))
        extra = getattr(p, "help_extra", None)  # texts a command's own formatter prints
        if extra is not None:
            out.extend(extra())
    # a text that starts with NUL is a command's marker for help it builds itself
    return [t for t in dict.fromkeys(out) if not t.startswith("\0")]


def _shown_metavar(action: argparse.Action) -> str | tuple[str, ...] | None:
    """The placeholder argparse shows for ``action`` (None: none, or its choices in braces)."""
    import argparse

    if action.nargs == 0 or action.help == argparse.SUPPRESS:
        return None
    if action.metavar is not None:
        return action.metavar
    if action.choices is not None:
        return None  # {en,pl}: what the reader types
    return action.dest.upper() if action.option_strings else action.dest


def metavars(parser: argparse.ArgumentParser) -> list[str]:
    """Every usage-line placeholder of ``parser`` and its subcommands (``FILE``, ``POSITION``)."""
    out: list[str] = []
    for p in _parsers(parser):
        for action in p._actions:
            shown = _shown_metavar(action)
            out.extend((shown,) if isinstance(shown, str) else shown or ())
    return list(dict.fromkeys(out))


_ARGPARSE_TITLES = {"positional arguments", "options"}


def translate(parser: argparse.ArgumentParser, lang: str) -> None:
    """Put ``parser``'s help texts in ``lang`` and make ``lang`` the default of its ``--lang``."""
    import argparse

    if lang == SOURCE_LANGUAGE:
        return
    from havoc.language.i18n import translator

    tr = translator(lang)

    def t(text: str | None) -> str | None:
        if not text or text == argparse.SUPPRESS or text.startswith("\0"):
            return text
        return tr.text(CLI_CONTEXT, text)

    for p in _parsers(parser):
        if not getattr(p, "in_language", False):
            p.description, p.epilog = t(p.description), t(p.epilog)
        for g in p._action_groups:
            if g.title and g.title not in _ARGPARSE_TITLES:
                g.title = t(g.title)
        for action in p._actions:
            shown = _shown_metavar(action)
            if isinstance(shown, str):
                action.metavar = tr.text(METAVAR_CONTEXT, shown)
            elif shown:
                action.metavar = tuple(tr.text(METAVAR_CONTEXT, m) for m in shown)
            action.help = t(action.help)
            if action.dest == "lang" and action.default == SOURCE_LANGUAGE:
                action.default = lang
            if isinstance(action, argparse._SubParsersAction):
                for a in action._choices_actions:
                    a.help = a.help if getattr(a, "in_language", False) else t(a.help)


def _argparse_messages() -> None:
    """argparse's own messages (Python 3.11+), as literal ``ui()`` calls for the extraction."""
    from havoc.language.i18n import ui

    ui("usage: ")
    ui("options")
    ui("positional arguments")
    ui("show this help message and exit")
    ui("%(prog)s: error: %(message)s\n")
    ui("argument %(argument_name)s: %(message)s")
    ui("the following arguments are required: %s")
    ui("invalid choice: %(value)r (choose from %(choices)s)")
    ui("invalid %(type)s value: %(value)r")
    ui("unrecognized arguments: %s")
    ui("expected one argument")
    ui("expected at least one argument")
    ui("expected at most one argument")
    ui("one of the arguments %s is required")
    ui("not allowed with argument %s")
    ui("ambiguous option: %(option)s could match %(matches)s")
    ui("ignored explicit argument %r")
    ui("unexpected option string: %s")
    ui("can't open '%(filename)s': %(error)s")
