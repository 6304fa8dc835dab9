"""Players' words: ``rules/<ruleset>/search.yaml``, the vocabulary the rulebook does not use.

Players ask for "reinforcements", "posiłki" or a "tiebreak"; the rulebook says "no entry into a
Battle Region" and "Breaking a tie". The file maps such words (each language's, side by side) to
the rules that answer them, to a glossary term, or to words of the rulebook that mean the same,
and names the words that ask for a variant. It is data, like the rules: the index reads it, the
query code knows nothing of any game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from havoc.core.errors import Code, Problem, RulebookError
from havoc.engine.rulebook.model import Ruleset
from havoc.formats.yamlio import LDict, LList, YamlError, load_file
from havoc.language.i18n import LANGUAGES
from havoc.search import text as T

FILE = "search.yaml"


class Synonym(NamedTuple):
    forms: dict[str, tuple[str, ...]]  # language -> the player's words (a phrase: several words)
    rules: tuple[str, ...] = ()  # the rules these words find
    term: str | None = None  # ... or the glossary term they name
    like: tuple[str, ...] = ()  # ... or words of the rulebook they mean


class PlayerWords(NamedTuple):
    variants: dict[str, tuple[str, ...]]  # variant overlay or section ID -> the phrases that name it
    synonyms: tuple[Synonym, ...]
    after_base: dict[str, tuple[str, ...]]  # errata or a section shown after the base rules


EMPTY = PlayerWords({}, (), {})


def path_of(rs: Ruleset) -> Path | None:
    """The ruleset's ``search.yaml``, if it has one (a ruleset needs none)."""
    from havoc.engine import rulebook

    try:
        folder = rulebook.ruleset_folder(rs.id)
    except RulebookError:
        return None
    path = folder / FILE
    return path if path.is_file() else None


def read(rs: Ruleset) -> PlayerWords:
    """The players' words of ``rs``; a located :class:`RulebookError` when the file is wrong."""
    path = path_of(rs)
    if path is None:
        return EMPTY
    name = f"rules/{rs.id}/{FILE}"
    try:
        data = load_file(path, name)
    except YamlError as exc:
        raise RulebookError([exc.problem]) from None
    problems: list[Problem] = []
    words = _parse(rs, name, data, problems)
    if problems:
        raise RulebookError(problems)
    return words


def _strings(value: Any, name: str, line: int | None, what: str, problems: list[Problem]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        problems.append(Problem(name, line, f"{what}: expected a list of words", code=Code.SEARCH_WORDS))
        return ()
    return tuple(v.strip() for v in value)


def _parse(rs: Ruleset, name: str, data: Any, problems: list[Problem]) -> PlayerWords:
    if not isinstance(data, LDict) or set(data) - {"variants", "after-base", "synonyms"}:
        problems.append(
            Problem(
                name,
                getattr(data, "line", None),
                "expected the keys variants, after-base and synonyms",
                code=Code.SEARCH_WORDS,
            )
        )
        return EMPTY
    groups: dict[str, dict[str, tuple[str, ...]]] = {"variants": {}, "after-base": {}}
    for key, found in groups.items():
        for vid, forms in (data.get(key) or {}).items():
            line = data[key].line_of(vid)
            if vid not in rs.overlays and vid not in rs.sections:
                problems.append(
                    Problem(
                        name,
                        line,
                        f"{key}: {vid!r} is neither an overlay nor a section of {rs.id}",
                        code=Code.SEARCH_WORDS,
                    )
                )
            found[vid] = _strings(forms, name, line, f"{key}.{vid}", problems)
    synonyms: list[Synonym] = []
    items = data.get("synonyms") or LList()
    for k, item in enumerate(items):
        line = items.item_lines[k] if isinstance(items, LList) else None
        if not isinstance(item, LDict):
            problems.append(Problem(name, line, "synonyms: expected a mapping", code=Code.SEARCH_WORDS))
            continue
        unknown = set(item) - {*LANGUAGES, "rules", "term", "like"}
        targets = [t for t in ("rules", "term", "like") if t in item]
        if unknown or len(targets) != 1:
            problems.append(
                Problem(
                    name,
                    line,
                    "a synonym lists words per language and exactly one of rules, term, like",
                    code=Code.SEARCH_WORDS,
                )
            )
            continue
        forms = {lang: _strings(item[lang], name, line, lang, problems) for lang in LANGUAGES if lang in item}
        rules = _strings(item["rules"], name, line, "rules", problems) if "rules" in item else ()
        for rid in rules:
            if rid not in rs.rules:
                problems.append(Problem(name, line, f"rules: no rule {rid!r}", code=Code.RULE_UNKNOWN_ID))
        term = item.get("term")
        if term is not None and term not in rs.terms:
            problems.append(Problem(name, line, f"term: no glossary term {term!r}", code=Code.TERM_UNKNOWN))
        like = _strings(item["like"], name, line, "like", problems) if "like" in item else ()
        for lang, said in forms.items():
            for form in said:
                ws = T.words(form)
                if len(ws) > 1 and (like or sum(not T.is_stopword(w) for w in ws) < 2):
                    problems.append(
                        Problem(
                            name, line, f"{lang}: {form!r} cannot be matched as a phrase here", code=Code.SEARCH_WORDS
                        )
                    )
        synonyms.append(Synonym(forms, rules, term, like))
    return PlayerWords(groups["variants"], tuple(synonyms), groups["after-base"])
