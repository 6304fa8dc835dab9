"""A synthetic ruleset N times the size of a real one, for the build's scaling figures.

``scaled(dest, factor)`` writes ``dest/rules`` (a copy of the rules folder) and ``dest/locales``
(a copy of the catalogs) in which the ruleset has ``factor - 1`` extra copies of every section:
each copy's sections, rules, examples and parts get IDs ending in ``-x<k>``, its links, ``see``,
``unless`` and expected rules point into the same copy, and every catalog entry of a copied ID
is copied with the same renaming, so the copy is translated like its original and the Polish
build (warnings are errors) passes. The ruleset stays valid: the loader checks it as any other.

The copies do not repeat their original's words, which would flatter the search index (gzip
finds a repeated text, and a key whose documents recur every few hundred numbers packs into
the same short gaps): each copy reads its prose (titles, texts, summaries, intros, hints,
examples; in the source language from the YAML, in each translation from its catalog) through
its own shuffle of that language's vocabulary, so copy ``k`` says "kryształ" wherever the
original says "oddział", and the other copies other words. A copy's words are still the real
rules' words (the same stemmer, the same stopwords, kept as they are, the same shape and
length of every text, its markup, links and placeholders untouched), but every copy ranks,
stems and compresses as different text. What it does not model: a larger rulebook's larger
vocabulary (all copies share the original's words), so the index's word list stays its 1x size.

Run as a script to write one: ``python benchmarks/synthetic.py DEST --factor 10``.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from havoc.engine import rulebook  # noqa: E402
from havoc.language.i18n import SOURCE_LANGUAGE, locales_root  # noqa: E402
from havoc.search.text import is_stopword  # noqa: E402

_LINK = re.compile(r"\]\(rule:([a-z0-9][a-z0-9-]*)\)")
_PARAM = re.compile(r"\{([a-z0-9][a-z0-9-]*)((?::[^{}]*)?)\}")
# markup kept as it is (placeholders, link targets), else a word of letters (which a copy changes)
_TOKEN = re.compile(r"\{[^{}]*\}|\]\([^)]*\)|([^\W\d_]+)")
PROSE = frozenset({"title", "text", "summary", "intro", "hint"})  # the fields whose words a copy changes


def _vocabulary(texts: list[str]) -> list[str]:
    """The (lowercased) words of ``texts`` outside markup, stopwords left out, sorted."""
    found = {m.group(1).lower() for t in texts for m in _TOKEN.finditer(t) if m.group(1)}
    return sorted(w for w in found if not is_stopword(w))


def _shuffles(vocabulary: list[str], seed: str) -> dict[str, str]:
    """One copy's word for each word of a language: a seeded permutation of its vocabulary."""
    shuffled = list(vocabulary)
    random.Random(seed).shuffle(shuffled)
    return dict(zip(vocabulary, shuffled, strict=True))


def _respell(text: str, words: dict[str, str]) -> str:
    """``text`` with each word replaced by its counterpart in ``words`` (case kept), markup kept."""

    def one(m: re.Match[str]) -> str:
        w = m.group(1)
        new = words.get(w.lower()) if w else None
        if new is None:
            return m.group(0)
        if len(w) > 1 and w.isupper():
            return new.upper()
        return new[:1].upper() + new[1:] if w[0].isupper() else new

    return _TOKEN.sub(one, text)


def _ids(folder: Path) -> tuple[list[tuple[Path, dict[str, Any]]], set[str], set[str]]:
    """The section files (path, data), every ID a copy renames (sections, rules, examples) and
    every parameter name (parameters are named across the ruleset, so copies rename theirs)."""
    sections = []
    ids: set[str] = set()
    params: set[str] = set()
    for path in sorted((folder / "sections").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        sections.append((path, data))
        ids.add(data["id"])
        for rule in data.get("rules") or []:
            ids.add(rule["id"])
            params.update(rule.get("params") or {})
            for ex in rule.get("examples") or []:
                if isinstance(ex, dict) and "id" in ex:
                    ids.add(ex["id"])
    return sections, ids, params


class _Renamer:
    """One copy's renaming: IDs, parameter names, and both inside texts and conditions."""

    def __init__(self, ids: set[str], params: set[str], suffix: str, words: dict[str, dict[str, str]]) -> None:
        self.ids, self.params, self.suffix = ids, params, suffix
        self.words = words  # language -> this copy's word for each word

    def prose(self, s: str, lang: str = SOURCE_LANGUAGE) -> str:
        """A text of a prose field: renamed as :meth:`text`, in this copy's words of ``lang``."""
        return _respell(self.text(s), self.words.get(lang, {}))

    def name(self, i: str) -> str:
        return f"{i}{self.suffix}" if i in self.ids else i

    def param(self, p: str) -> str:
        return f"{p}{self.suffix}" if p in self.params else p

    def text(self, s: str) -> str:
        s = _LINK.sub(lambda m: f"](rule:{self.name(m.group(1))})", s)
        return _PARAM.sub(lambda m: "{" + self.param(m.group(1)) + m.group(2) + "}", s)

    def condition(self, c: Any) -> Any:
        if isinstance(c, dict):
            if set(c) == {"param"} and isinstance(c["param"], str):
                return {"param": self.param(c["param"])}
            return {k: self.condition(v) for k, v in c.items()}
        if isinstance(c, list):
            return [self.condition(v) for v in c]
        return c


def _copy_rule(rule: dict[str, Any], r: _Renamer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in rule.items():
        if key == "id":
            out[key] = r.name(value)
        elif key == "see":
            out[key] = [r.name(v) for v in value]
        elif key == "params":
            out[key] = {r.param(k): v for k, v in value.items()}
        elif isinstance(value, str):
            out[key] = r.prose(value) if key in PROSE else r.text(value)
        elif key == "check":
            check = {k: r.condition(v) for k, v in value.items()}
            if "unless" in check:
                check["unless"] = [r.name(v) for v in check["unless"]]
            if isinstance(check.get("hint"), str):
                check["hint"] = r.prose(check["hint"])
            out[key] = check
        elif key == "examples":
            examples = []
            for ex in value:
                ex = dict(ex)
                ex["id"] = r.name(ex["id"])
                for field in ("title", "text"):
                    if isinstance(ex.get(field), str):
                        ex[field] = r.prose(ex[field])
                expect = ex.get("expect")
                if isinstance(expect, dict) and isinstance(expect.get("rules"), list):
                    ex["expect"] = {**expect, "rules": [r.name(v) for v in expect["rules"]]}
                examples.append(ex)
            out[key] = examples
        else:
            out[key] = value
    return out


def _strings(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """A catalog entry's msgid or msgstr (a plural one is several strings) as strings."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _each(value: Any, change: Any) -> Any:
    """``change`` applied to a catalog entry's string, or to each of its plural forms."""
    return change(value) if isinstance(value, str) else tuple(change(x) for x in value)


def _prose(sections: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The source language's prose of the sections: what the copies respell."""
    out: list[str] = []
    for _path, data in sections:
        out += [v for k, v in data.items() if k in PROSE and isinstance(v, str)]
        for rule in data.get("rules") or []:
            out += [v for k, v in rule.items() if k in PROSE and isinstance(v, str)]
            hint = (rule.get("check") or {}).get("hint")
            out += [hint] if isinstance(hint, str) else []
            for ex in rule.get("examples") or []:
                out += [ex[f] for f in ("title", "text") if isinstance(ex, dict) and isinstance(ex.get(f), str)]
    return out


def _dump(path: Path, data: Any) -> None:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8")


def scaled(
    dest: Path, factor: int, ruleset: str | None = None, source: Path | None = None, catalogs: Path | None = None
) -> tuple[Path, Path]:
    """Write ``dest/rules`` and ``dest/locales``: copies of ``source`` (default: the rules folder)
    and ``catalogs`` (default: the locales folder) with ``ruleset`` (default: the default one)
    ``factor`` times."""
    from babel.messages.pofile import read_po, write_po

    source = source or rulebook.rules_root()
    ruleset = ruleset or rulebook.default_ruleset(source)
    rules, locales = dest / "rules", dest / "locales"
    shutil.copytree(source, rules)
    shutil.copytree(catalogs or locales_root(), locales, ignore=shutil.ignore_patterns("*.mo"))
    if factor <= 1:
        return rules, locales
    folder = rules / ruleset
    sections, ids, params = _ids(folder)
    outline_path = folder / "ruleset.yaml"
    outline = yaml.safe_load(outline_path.read_text(encoding="utf-8"))
    ids |= {part["id"] for part in outline["parts"]}
    for path, _data in sections:  # three digits, so the copies sort (and are numbered) after them
        path.rename(path.with_name(f"{int(path.name.split('-', 1)[0]):03d}-{path.name.split('-', 1)[1]}"))
    prefix = f"{ruleset}:"
    catalogs_read = []  # (path, language, catalog, the entries every copy repeats)
    for po in sorted(locales.glob("*/LC_MESSAGES/rules.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh)
        copied = []
        for m in catalog:
            if not m.id or not isinstance(m.context, str) or not m.context.startswith(prefix):
                continue
            head, _, rest = m.context[len(prefix) :].partition(":")
            if head in ids or (head == "param" and rest.split(":", 1)[0] in params):
                copied.append((m, head, rest))
        catalogs_read.append((po, po.parent.parent.name, catalog, copied))
    vocabularies = {SOURCE_LANGUAGE: _vocabulary(_prose(sections))}
    for _po, lang, _catalog, copied in catalogs_read:
        texts = [s for m, head, rest in copied if head != "param" and rest in PROSE for s in _strings(m.string)]
        vocabularies[lang] = _vocabulary(texts)
    copies = [
        _Renamer(ids, params, f"-x{k}", {lang: _shuffles(v, f"{lang}:{k}") for lang, v in vocabularies.items()})
        for k in range(2, factor + 1)
    ]
    number = len(sections)
    parts = list(outline["parts"])
    for r in copies:
        for _path, data in sections:
            copy = {
                key: ((r.prose(v) if key in PROSE else r.text(v)) if isinstance(v, str) else v)
                for key, v in data.items()
                if key != "rules"
            }
            copy["id"] = r.name(data["id"])
            copy["rules"] = [_copy_rule(rule, r) for rule in data.get("rules") or []]
            number += 1
            _dump(folder / "sections" / f"{number:03d}-{copy['id']}.yaml", copy)
        for part in outline["parts"]:
            prose = {k: r.prose(v) for k, v in part.items() if k in PROSE and isinstance(v, str)}
            parts.append({**part, **prose, "id": r.name(part["id"]), "sections": [r.name(s) for s in part["sections"]]})
    outline["parts"] = parts
    _dump(outline_path, outline)

    for po, lang, catalog, copied in catalogs_read:
        for r in copies:
            for m, head, rest in copied:
                if head == "param":
                    name, _, field = rest.partition(":")
                    context = f"{prefix}param:{r.param(name)}:{field}"
                    string, msgid = _each(m.string, r.text), _each(m.id, r.text)
                elif rest in PROSE:  # the copy's words: its msgid is the copied source text
                    context = f"{prefix}{r.name(head)}:{rest}"
                    string = _each(m.string, lambda x, r=r, lang=lang: r.prose(x, lang) if x else x)
                    msgid = _each(m.id, r.prose)
                else:
                    context = f"{prefix}{r.name(head)}:{rest}"
                    string, msgid = _each(m.string, r.text), _each(m.id, r.text)
                catalog.add(msgid, string, context=context, flags=m.flags)
        with po.open("wb") as fh:
            write_po(fh, catalog)
    return rules, locales


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="folder to write rules/ and locales/ into (must not exist)")
    parser.add_argument("--factor", type=int, default=10, help="how many times the rules (default: %(default)s)")
    args = parser.parse_args()
    rules, locales = scaled(args.dest, args.factor)
    rs = rulebook.load(rulebook.default_ruleset(rules), rules, use_cache=False)
    print(f"{len(rs.rules)} rules in {rules}; catalogs in {locales}")


if __name__ == "__main__":
    main()
