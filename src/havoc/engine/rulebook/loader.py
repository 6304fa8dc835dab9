"""Load a ruleset from ``rules/`` into the typed model and check it whole.

Reading and checking are one pass that collects every located problem; a ruleset with any
problem raises :class:`RulebookError` listing them all, so nothing downstream ever sees a
half-valid rulebook.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from havoc.core.errors import Code, Problem, RulebookError
from havoc.engine.rulebook import format
from havoc.engine.rulebook.model import (
    Check,
    Example,
    FactDef,
    Loc,
    Overlay,
    ParamDef,
    Part,
    Retired,
    Rule,
    Ruleset,
    Section,
    Source,
    Table,
    Term,
)
from havoc.engine.rulebook.schema import Reader
from havoc.engine.rulebook.stored import Snapshot
from havoc.formats.spec import plain
from havoc.formats.yamlio import LDict, LList, YamlError, loads
from havoc.language import markup

OPS = frozenset(["add", "amend", "replace", "remove"])
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
GAME_RE = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$")
EN_PLURAL_FORMS = 2

# What each kind of entry may hold comes from the one declaration of the format (rulebook.format),
# which `havoc schema --rules` also publishes as JSON Schema.
RULE_FIELDS = format.fields(format.RULE)
MAX_TABLE_CELLS = 2_000
OVERLAY_RULE_FIELDS = format.fields(format.OVERLAY_RULE)
SECTION_FIELDS = format.fields(format.SECTION)
RULESET_FIELDS = format.fields(format.RULESET)
CHECK_FIELDS = format.fields(format.CHECK)
TABLE_FIELDS = format.fields(format.TABLE)
FACT_SPEC = (
    format.FACTS.fields["facts"].item if format.FACTS.fields and format.FACTS.fields["facts"].item else format.FACTS
)
FACT_FIELDS = format.fields(FACT_SPEC)


class _Build:
    """Mutable state while a ruleset is being read."""

    def __init__(self, root: Path, snapshot: Snapshot) -> None:
        self.root = root
        self.snapshot = snapshot
        self.problems: list[Problem] = []
        self.sections: dict[str, Section] = {}
        self.rules: dict[str, Rule] = {}
        self.terms: dict[str, Term] = {}
        self.params: dict[str, ParamDef] = {}
        self.overlays: dict[str, Overlay] = {}
        self.retired: dict[str, Retired] = {}
        self.retired_locs: dict[str, Loc] = {}
        self.facts: dict[str, FactDef] = {}
        self.vocabulary: dict[str, Any] = {}
        self.vocabulary_file = ""
        self.ids: dict[str, Loc] = {}  # sections, rules, examples, overlays share one namespace
        # texts to check once everything is known: (loc, field, text)
        self.texts: list[tuple[Loc, str, str]] = []
        self.checks: list[tuple[Loc, str, Check]] = []
        self.refs: list[tuple[Loc, str, str, str]] = []  # (loc, what, kind, target)
        self.game = ""  # ruleset.yaml's game: where the question kinds are when the vocabulary lists none
        self._kinds: tuple[tuple[str, ...], str] | None = None

    def kinds(self) -> tuple[tuple[str, ...], str]:
        """The question kinds a check may name, and where they are declared (for the message):
        the vocabulary's ``question-kinds``, else the modules of the game's kinds folder."""
        if self._kinds is None:
            if "question-kinds" in self.vocabulary:
                where = f"declared in {self.vocabulary_file or 'vocabulary.yaml'} (question-kinds)"
                self._kinds = (tuple(self.vocabulary["question-kinds"]), where)
            else:
                from havoc.engine.rulebook import declared_kinds, kinds_folder

                folder = kinds_folder(self.game)
                where = f"the modules of {folder}" if folder else "none: the ruleset's game has no kinds folder"
                self._kinds = (declared_kinds(self.game), where)
        return self._kinds

    def rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent.parent))
        except ValueError:
            return str(path)

    def read(self, path: Path) -> tuple[Any, Reader]:
        reader = Reader(self.rel(path), self.problems)
        try:
            error = self.snapshot.errors.get(path)
            if error is not None:
                raise YamlError(Problem(reader.file, None, error, code=Code.FILE_UNREADABLE))
            data = self.snapshot.files.get(path)
            if data is None:
                raise YamlError(
                    Problem(reader.file, None, "cannot read file: No such file or directory", code=Code.FILE_UNREADABLE)
                )
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise YamlError(
                    Problem(reader.file, None, "file is not UTF-8 text", code=Code.INPUT_NOT_UTF8)
                ) from None
            return loads(text, reader.file), reader
        except YamlError as exc:
            self.problems.append(exc.problem)
            return None, reader

    def claim(self, ident: str, loc: Loc, reader: Reader) -> bool:
        first = self.ids.get(ident)
        if first is not None:
            reader.problem(loc.line, f"duplicate ID {ident!r} (first defined at {first})", code=Code.ID_DUPLICATE)
            return False
        self.ids[ident] = loc
        return True


def load_ruleset(root: Path, snapshot: Snapshot | None = None) -> Ruleset:
    """Read and validate ``root`` (a folder such as ``rules/cry-havoc``).

    With a ``snapshot`` the files are parsed from its bytes (the bytes the cache key was made
    from), never read again from the disk.
    """
    snapshot = snapshot or Snapshot(root)
    b = _Build(root, snapshot)
    if root / "ruleset.yaml" not in snapshot.files:
        raise RulebookError([Problem(str(root), None, "no ruleset.yaml in this folder", code=Code.RULESET_UNKNOWN)])
    _read_vocabulary(b, root / "vocabulary.yaml")
    _read_facts(b, root / "facts.yaml")
    meta = _read_meta(b, root / "ruleset.yaml")
    b.game = meta["game"]
    section_files = snapshot.glob(root / "sections")
    if not section_files:
        b.problems.append(Problem(b.rel(root / "sections"), None, "no section files found", code=Code.SECTION_MISSING))
    part_of = {sid: part.id for part in meta["parts"] for sid in part.section_ids}
    for path in section_files:
        data, reader = b.read(path)
        if data is None:
            continue
        section = _read_section(b, reader, data, data.line if isinstance(data, LDict) else 1, part_of)
        if section is not None:
            expected = path.stem.split("-", 1)[1] if path.stem[:2].isdigit() and "-" in path.stem else path.stem
            if section.id != expected:
                reader.problem(
                    section.loc.line,
                    f"section id {section.id!r} does not match the file name ({expected!r})",
                    code=Code.ID_FILE_NAME,
                )
    _read_glossary(b, root / "glossary.yaml")
    _read_retired(b, root / "retired.yaml")
    for kind, folder in (("errata", "overlays"), ("variant", "variants")):
        for path in snapshot.glob(root / folder):
            _read_overlay(b, path, kind)
    _cross_check(b, meta)
    if b.problems:
        raise RulebookError(b.problems)
    return Ruleset(
        id=meta["id"],
        title=meta["title"],
        publisher=meta["publisher"],
        year=meta["year"],
        version=meta["version"],
        sources=meta["sources"],
        parts=meta["parts"],
        sections=b.sections,
        rules=b.rules,
        terms=b.terms,
        params=b.params,
        overlays=b.overlays,
        retired=b.retired,
        facts=b.facts,
        game=meta["game"],
        vocabulary=b.vocabulary,
    )


# --- files -------------------------------------------------------------------


def _read_vocabulary(b: _Build, path: Path) -> None:
    """``vocabulary.yaml`` (optional): named lists of identifiers, and ``steps`` per phase-like key."""
    if path not in b.snapshot.files and path not in b.snapshot.errors:
        return
    data, r = b.read(path)
    if data is None:
        return
    b.vocabulary_file = r.file
    if not isinstance(data, LDict):
        r.problem(1, "vocabulary: expected a mapping of named lists of identifiers", code=Code.FIELD_TYPE)
        return
    for key, value in data.items():
        line = data.line_of(key)
        if isinstance(value, str) and ID_RE.match(value):
            b.vocabulary[key] = value
        elif isinstance(value, list) and all(isinstance(v, str) and ID_RE.match(v) for v in value):
            b.vocabulary[key] = tuple(value)
        elif isinstance(value, LDict) and all(
            isinstance(v, list) and all(isinstance(x, str) and ID_RE.match(x) for x in v) for v in value.values()
        ):
            b.vocabulary[key] = {k: tuple(v) for k, v in value.items()}
        else:
            r.problem(
                line,
                f"vocabulary.{key}: expected an identifier, a list of identifiers or a mapping of lists",
                code=Code.FIELD_TYPE,
            )


FACT_TYPES = ("bool", "int", "string")


def _read_facts(b: _Build, path: Path) -> None:
    """``facts.yaml`` (optional): the facts conditions may name, each with its type."""
    if path not in b.snapshot.files and path not in b.snapshot.errors:
        return
    data, r = b.read(path)
    if data is None:
        return
    top = r.mapping(data, "facts file", 1, {"facts"}, {"facts"})
    if top is None:
        return
    for item, line in r.items(top, "facts", "facts file"):
        d = r.mapping(item, "fact", line, set(FACT_FIELDS), set(FACT_SPEC.required))
        if d is None:
            continue
        name, typ, desc = d.get("name"), d.get("type"), r.text(d, "description", "fact")
        if not isinstance(name, str) or typ not in FACT_TYPES or desc is None:
            r.problem(line, "fact: expected a name, a type of bool/int/string and a description", code=Code.FIELD_TYPE)
            continue
        values = d.get("values")
        if values is not None and (typ != "string" or not isinstance(b.vocabulary.get(values), tuple)):
            lists = sorted(k for k, v in b.vocabulary.items() if isinstance(v, tuple))
            r.problem(
                d.line_of("values"),
                f"fact {name}.values: expected the name of a list in vocabulary.yaml for a string fact "
                f"({', '.join(lists) or 'no lists declared'}), found {values!r}",
                code=Code.FIELD_VALUE,
            )
            values = None
        if name in b.facts:
            r.problem(line, f"duplicate fact {name!r}", code=Code.ID_DUPLICATE)
        player = d.get("player")
        if player is not None and (not isinstance(player, str) or not _player_fields_known(player)):
            r.problem(
                d.line_of("player"),
                f"fact {name}.player: expected a short text whose fields are names ({{name}} or {{name:case}}), "
                f"found {player!r}",
                code=Code.FIELD_VALUE,
            )
            player = None
        b.facts[name] = FactDef(name, typ, desc, values, player)
        b.texts.append((Loc(r.file, line), f"fact {name}.description", desc))


def _player_fields_known(text: str) -> bool:
    """A fact's player words name their fields by plain names, each maybe with a case
    ({name:gen}); which names a game fills in, its own check says."""
    from _string import formatter_parser

    try:
        return all(
            f is None or (f.replace("-", "").isalnum() and f[:1].isalpha()) for _, f, _, _ in formatter_parser(text)
        )
    except ValueError:  # an unpaired brace
        return False


def _read_meta(b: _Build, path: Path) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "id": "",
        "title": "",
        "publisher": "",
        "year": 0,
        "version": "",
        "sources": {},
        "parts": (),
        "game": "",
    }
    data, r = b.read(path)
    if data is None:
        return meta
    d = r.mapping(data, "ruleset", 1, set(RULESET_FIELDS), set(format.RULESET.required))
    if d is None:
        return meta
    meta["id"] = r.ident(d, "id", "ruleset") or ""
    meta["title"] = r.text(d, "title", "ruleset") or ""
    meta["publisher"] = r.text(d, "publisher", "ruleset") or ""
    meta["version"] = r.text(d, "version", "ruleset") or ""
    game = d.get("game", "")
    if not isinstance(game, str) or (game and not GAME_RE.match(game)):
        r.problem(
            d.line_of("game"),
            f"ruleset.game: expected the dotted module name of a game package, found {game!r}",
            code=Code.GAME_PACKAGE,
        )
    else:
        meta["game"] = game
    year = d.get("year", 0)
    meta["year"] = year if isinstance(year, int) else 0
    sources = d.get("sources", {})
    if not isinstance(sources, dict):
        r.problem(d.line_of("sources"), "ruleset.sources: expected a mapping of source keys", code=Code.FIELD_TYPE)
    else:
        meta["sources"] = plain(sources)
    parts: list[Part] = []
    for item, line in r.items(d, "parts", "ruleset"):
        p = r.mapping(item, "part", line, {"id", "title", "sections"}, {"id", "title", "sections"})
        if p is None:
            continue
        pid = r.ident(p, "id", "part")
        title = r.text(p, "title", "part")
        if pid and title and b.claim(pid, Loc(r.file, line), r):
            parts.append(Part(pid, title, r.id_list(p, "sections", "part")))
            b.texts.append((Loc(r.file, line), f"{pid}.title", title))
    meta["parts"] = tuple(parts)
    meta["_file"] = r.file
    return meta


def _source(r: Reader, d: LDict, what: str, default_seed: str | None) -> Source:
    value = d.get("source")
    if value is None:
        return Source(seed=default_seed)
    s = r.mapping(value, f"{what}.source", d.line_of("source"), {"seed", "heading", "doc", "note"})
    if s is None:
        return Source(seed=default_seed)
    return Source(
        seed=r.text(s, "seed", f"{what}.source") or default_seed,
        heading=r.text(s, "heading", f"{what}.source"),
        doc=r.text(s, "doc", f"{what}.source"),
        note=r.text(s, "note", f"{what}.source"),
    )


def _read_section(
    b: _Build, r: Reader, data: Any, line: int, part_of: dict[str, str], origin: str = "base"
) -> Section | None:
    d = r.mapping(data, "section", line, SECTION_FIELDS, {"id", "title", "rules"})
    if d is None:
        return None
    sid = r.ident(d, "id", "section")
    title = r.text(d, "title", "section")
    if sid is None or title is None:
        return None
    loc = Loc(r.file, d.line)
    if not b.claim(sid, loc, r):
        return None
    source = _source(r, d, sid, None)
    intro = r.text(d, "intro", sid)
    b.texts.append((loc, f"{sid}.title", title))
    if intro:
        b.texts.append((Loc(r.file, d.line_of("intro")), f"{sid}.intro", intro))
    rule_ids: list[str] = []
    for item, item_line in r.items(d, "rules", sid):
        rule = _read_rule(b, r, item, item_line, sid, source.seed, origin)
        if rule is not None:
            rule_ids.append(rule.id)
    section = Section(sid, title, loc, tuple(rule_ids), part_of.get(sid), intro, source, origin)
    b.sections[sid] = section
    return section


def _read_rule(
    b: _Build,
    r: Reader,
    data: Any,
    line: int,
    section_id: str,
    default_seed: str | None,
    origin: str,
    overlay: bool = False,
) -> Rule | None:
    fields = OVERLAY_RULE_FIELDS if overlay else RULE_FIELDS
    required = {"id", "title", "op"} if overlay else {"id", "title", "text"}
    d = r.mapping(data, "rule", line, fields, required)
    if d is None:
        return None
    rid = r.ident(d, "id", "rule")
    if rid is None:
        return None
    what = f"rule {rid}"
    title = r.text(d, "title", what)
    text = r.text(d, "text", what)
    op = d.get("op") if overlay else None
    if overlay:
        if op not in OPS:
            r.problem(
                d.line_of("op"),
                f"{what}.op: expected one of {', '.join(sorted(OPS))}, found {op!r}",
                code=Code.FIELD_VALUE,
            )
        if op != "remove" and text is None:
            r.problem(d.line, f"{what}: missing required field 'text'", code=Code.FIELD_MISSING)
    loc = Loc(r.file, d.line)
    if title is None or (text is None and op != "remove") or not b.claim(rid, loc, r):
        return None
    summary = r.text(d, "summary", what)
    for fld, value in (("title", title), ("text", text), ("summary", summary)):
        if value:
            b.texts.append((Loc(r.file, d.line_of(fld)), f"{rid}.{fld}", value))
    params: dict[str, ParamDef] = {}
    if "params" in d:
        pmap = d["params"]
        if not isinstance(pmap, LDict):
            r.problem(
                d.line_of("params"), f"{what}.params: expected a mapping of parameter names", code=Code.FIELD_TYPE
            )
        else:
            for name, pdata in pmap.items():
                pline = pmap.line_of(name)
                p = r.mapping(pdata, f"{what}.params.{name}", pline, PARAM_FIELDS, {"value"})
                if p is None:
                    continue
                typed = _param_type(r, p, f"{what}.params.{name}")
                if typed is None:
                    continue
                ptype, lo, hi = typed
                value = p.get("value")
                if not _param_ok(r, p, f"{what}.params.{name}", value, ptype, lo, hi):
                    continue
                assert isinstance(value, (int, str, bool))
                if not markup.ID_LIKE.match(name):
                    r.problem(
                        pline,
                        f"{what}.params: parameter name {name!r} must be lowercase-kebab-case",
                        code=Code.FIELD_VALUE,
                    )
                    continue
                if name in b.params:
                    r.problem(
                        pline,
                        f"duplicate parameter {name!r} (first defined at {b.params[name].loc})",
                        code=Code.ID_DUPLICATE,
                    )
                    continue
                pd = ParamDef(
                    name,
                    value,  # checked by _param_ok
                    rid,
                    Loc(r.file, pline),
                    r.text(p, "unit", name),
                    r.text(p, "description", name),
                    ptype,
                    lo,
                    hi,
                )
                params[name] = pd
                b.params[name] = pd
    see = r.id_list(d, "see", what)
    terms = r.id_list(d, "terms", what)
    for target in see:
        b.refs.append((Loc(r.file, d.line_of("see")), f"{what}.see", "rule", target))
    for target in terms:
        b.refs.append((Loc(r.file, d.line_of("terms")), f"{what}.terms", "term", target))
    check = _read_check(b, r, d, what) if "check" in d else None
    examples = tuple(
        ex
        for item, ex_line in r.items(d, "examples", what)
        if (ex := _read_example(b, r, item, ex_line, rid)) is not None
    )
    overlay_target = r.ident(d, "target", what) if overlay else None
    table = _read_table(b, r, d, what, rid) if "table" in d else None
    interpretation = d.get("interpretation", False)
    if not isinstance(interpretation, bool):
        r.problem(d.line_of("interpretation"), f"{what}.interpretation: expected true or false", code=Code.FIELD_TYPE)
        interpretation = False
    rule = Rule(
        id=rid,
        title=title,
        text=text or "",
        section_id=section_id,
        loc=loc,
        summary=summary,
        params=params,
        see=see,
        terms=terms,
        source=_source(r, d, what, default_seed),
        check=check,
        examples=examples,
        origin=origin,
        op=op if isinstance(op, str) else None,
        target=overlay_target,
        table=table,
        interpretation=interpretation,
        text_only=r.text(d, "text-only", what),
    )
    b.rules[rid] = rule
    return rule


def _read_table(b: _Build, r: Reader, d: LDict, what: str, rid: str) -> Table | None:
    """A rule's chart: ``columns`` (headings) and ``rows``, each row one cell per column."""
    t = r.mapping(d["table"], f"{what}.table", d.line_of("table"), set(TABLE_FIELDS), set(format.TABLE.required))
    if t is None:
        return None
    where = f"{what}.table"

    def cells(value: Any, path: str, line: int) -> tuple[str, ...] | None:
        if not isinstance(value, list) or not value:
            r.problem(line, f"{path}: expected a non-empty list of cells", code=Code.FIELD_TYPE)
            return None
        out = []
        for i, cell in enumerate(value):
            if isinstance(cell, bool) or not isinstance(cell, (str, int)) or str(cell) != str(cell).strip():
                r.problem(line, f"{path}[{i}]: expected a text or a whole number, found {cell!r}", code=Code.FIELD_TYPE)
                return None
            out.append(str(cell))
        return tuple(out)

    columns = cells(t.get("columns"), f"{where}.columns", t.line_of("columns"))
    rows: list[tuple[str, ...]] = []
    for item, line in r.items(t, "rows", where):
        row = cells(item, f"{where}.rows", line)
        if row is None:
            continue
        if columns is not None and len(row) != len(columns):
            r.problem(
                line,
                f"{where}.rows: expected {len(columns)} cells (one per column), found {len(row)}",
                code=Code.RULE_TABLE,
            )
            continue
        rows.append(row)
    if columns is None:
        return None
    if len(columns) * (len(rows) + 1) > MAX_TABLE_CELLS:
        r.problem(t.line, f"{where}: at most {MAX_TABLE_CELLS} cells", code=Code.FIELD_TOO_MANY)
        return None
    for text in (*columns, *(c for row in rows for c in row)):
        b.texts.append((Loc(r.file, t.line), f"{rid}.table", text))
    return Table(columns, tuple(rows), Loc(r.file, t.line))


PARAM_FIELDS = format.fields(format.PARAM)
PARAM_TYPES = ("int", "bool", "text")
# A parameter is a count unless it says otherwise: a whole number from 1 (a rule that counts
# nothing has no parameter) to a bound no table reaches. `min: 0` (starting VP) and other
# ranges are declared next to the value; the site and the assistant then never meet "nan
# Units", a negative hand limit or a 200-digit figure.
PARAM_DEFAULT_MIN = 1
PARAM_DEFAULT_MAX = 1000
PARAM_MAX_TEXT = 200


def _param_type(r: Reader, p: LDict, where: str) -> tuple[str, int | None, int | None] | None:
    ptype = p.get("type", "int")
    if ptype not in PARAM_TYPES:
        r.problem(
            p.line_of("type"),
            f"{where}.type: expected one of {', '.join(PARAM_TYPES)}, found {ptype!r}",
            code=Code.FIELD_VALUE,
        )
        return None
    if ptype != "int":
        for key in ("min", "max"):
            if key in p:
                r.problem(p.line_of(key), f"{where}.{key}: only an int parameter has a range", code=Code.FIELD_VALUE)
                return None
        return ptype, None, None
    bounds: list[int] = []
    for key, default in (("min", PARAM_DEFAULT_MIN), ("max", PARAM_DEFAULT_MAX)):
        got = p.get(key, default)
        if isinstance(got, bool) or not isinstance(got, int) or abs(got) > 10**9:
            r.problem(p.line_of(key), f"{where}.{key}: expected a whole number, found {got!r}", code=Code.FIELD_TYPE)
            return None
        bounds.append(got)
    if bounds[0] > bounds[1]:
        r.problem(p.line_of("min"), f"{where}: min {bounds[0]} is above max {bounds[1]}", code=Code.FIELD_VALUE)
        return None
    return ptype, bounds[0], bounds[1]


def _param_ok(r: Reader, p: LDict, where: str, value: Any, ptype: str, lo: int | None, hi: int | None) -> bool:
    line = p.line_of("value")
    if ptype == "bool":
        if not isinstance(value, bool):
            r.problem(
                line, f"{where}.value: expected true or false (type: bool), found {_shown(value)}", code=Code.PARAM_TYPE
            )
            return False
        return True
    if ptype == "text":
        if not isinstance(value, str) or not value.strip() or len(value) > PARAM_MAX_TEXT:
            r.problem(
                line, f"{where}.value: expected a short text (type: text), found {_shown(value)}", code=Code.PARAM_TYPE
            )
            return False
        return True
    if isinstance(value, bool) or not isinstance(value, int):
        r.problem(
            line,
            f"{where}.value: expected a whole number from {lo} to {hi}, found {_shown(value)}",
            code=Code.PARAM_TYPE,
        )
        return False
    assert lo is not None and hi is not None
    if not lo <= value <= hi:
        r.problem(
            line,
            f"{where}.value: expected a whole number from {lo} to {hi}, found {_shown(value)}"
            + ("; declare `min:` if this parameter may be lower" if value < lo else ""),
            code=Code.PARAM_TYPE,
        )
        return False
    return True


def _shown(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return "a number too large"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _read_check(b: _Build, r: Reader, d: LDict, what: str) -> Check | None:
    c = r.mapping(
        d["check"],
        f"{what}.check",
        d.line_of("check"),
        set(CHECK_FIELDS),
        set(format.CHECK.required),
    )
    if c is None:
        return None
    queries = r.id_list(c, "queries", f"{what}.check")
    kinds, where = b.kinds()
    for q in queries:
        if q not in kinds:
            r.problem(
                c.line_of("queries"),
                f"{what}.check.queries: unknown question kind {q!r}{_suggest(q, kinds)}; the kinds are {where}",
                code=Code.QUERY_KIND,
            )
    figures: dict[str, Any] = {}
    if "figures" in c:
        if not isinstance(c["figures"], LDict):
            r.problem(
                c.line_of("figures"), f"{what}.check.figures: expected a mapping of figure names", code=Code.FIELD_TYPE
            )
        else:
            figures = {k: plain(v) for k, v in c["figures"].items()}
    unless = r.id_list(c, "unless", f"{what}.check")
    for target in unless:
        b.refs.append((Loc(r.file, c.line_of("unless")), f"{what}.check.unless", "rule", target))
    hint = r.text(c, "hint", f"{what}.check")
    if hint:
        b.texts.append((Loc(r.file, c.line_of("hint")), f"{what.split()[-1]}.hint", hint))
    check = Check(
        queries=queries,
        applies_if=plain(c["applies-if"]) if "applies-if" in c else None,
        requires=plain(c["requires"]) if "requires" in c else None,
        figures=figures,
        hint=hint,
        unless=tuple(unless),
    )
    b.checks.append((Loc(r.file, c.line), what, check))
    return check


def _read_example(b: _Build, r: Reader, data: Any, line: int, rule_id: str) -> Example | None:
    d = r.mapping(
        data,
        "example",
        line,
        {"id", "title", "text", "position", "query", "expect"},
        {"id", "title", "position", "query", "expect"},
    )
    if d is None:
        return None
    eid = r.ident(d, "id", "example")
    title = r.text(d, "title", f"example {eid}")
    if eid is None or title is None:
        return None
    loc = Loc(r.file, d.line)
    if not b.claim(eid, loc, r):
        return None
    for key in ("position", "query", "expect"):
        if not isinstance(d.get(key), dict):
            r.problem(d.line_of(key), f"example {eid}.{key}: expected a mapping", code=Code.FIELD_TYPE)
            return None
    text = r.text(d, "text", f"example {eid}")
    b.texts.append((loc, f"{eid}.title", title))
    if text:
        b.texts.append((Loc(r.file, d.line_of("text")), f"{eid}.text", text))
    return Example(eid, rule_id, title, text, plain(d["position"]), plain(d["query"]), plain(d["expect"]), loc)


def _read_glossary(b: _Build, path: Path) -> None:
    if not b.snapshot.exists(path):  # a ruleset may have no glossary
        return
    data, r = b.read(path)
    if data is None:
        return
    top = r.mapping(data, "glossary", 1, {"terms"}, {"terms"})
    if top is None:
        return
    for item, line in r.items(top, "terms", "glossary"):
        d = r.mapping(
            item,
            "term",
            line,
            {"id", "name", "plural", "definition", "search-forms", "see"},
            {"id", "name", "plural", "definition"},
        )
        if d is None:
            continue
        tid = r.ident(d, "id", "term")
        name, plural = r.text(d, "name", f"term {tid}"), r.text(d, "plural", f"term {tid}")
        definition = r.text(d, "definition", f"term {tid}")
        if not (tid and name and plural and definition):
            continue
        if tid in b.terms:
            r.problem(line, f"duplicate term {tid!r} (first defined at {b.terms[tid].loc})", code=Code.ID_DUPLICATE)
            continue
        loc = Loc(r.file, line)
        see = r.id_list(d, "see", f"term {tid}")
        for target in see:
            b.refs.append((loc, f"term {tid}.see", "rule", target))
        b.texts.append((Loc(r.file, d.line_of("definition")), f"term {tid}.definition", definition))
        b.terms[tid] = Term(tid, name, plural, definition, loc, r.text(d, "search-forms", f"term {tid}"), see)


def _read_retired(b: _Build, path: Path) -> None:
    if not b.snapshot.exists(path):
        return
    data, r = b.read(path)
    if data is None:
        return
    top = r.mapping(data, "retired file", 1, {"retired"}, {"retired"})
    if top is None:
        return
    for item, line in r.items(top, "retired", "retired file"):
        d = r.mapping(item, "retired ID", line, {"id", "successor", "reason"}, {"id"})
        if d is None:
            continue
        rid = r.ident(d, "id", "retired")
        if rid is None:
            continue
        successor = r.ident(d, "successor", "retired")
        b.retired[rid] = Retired(rid, successor, r.text(d, "reason", "retired"))
        b.retired_locs[rid] = Loc(r.file, line)
        if successor:
            b.refs.append((Loc(r.file, line), f"retired {rid}.successor", "rule", successor))


def _read_overlay(b: _Build, path: Path, kind: str) -> None:
    data, r = b.read(path)
    if data is None:
        return
    allowed = {"id", "title", "kind", "fan-made", "intro", "sources", "entries", "sections"}
    d = r.mapping(data, "overlay", 1, allowed, {"id", "title", "kind"})
    if d is None:
        return
    oid = r.ident(d, "id", "overlay")
    title = r.text(d, "title", "overlay")
    if d.get("kind") != kind:
        r.problem(
            d.line_of("kind"),
            f"overlay.kind: expected {kind!r} for a file in this folder, found {d.get('kind')!r}",
            code=Code.FIELD_VALUE,
        )
    if oid is None or title is None or not b.claim(oid, Loc(r.file, d.line), r):
        return
    if oid != path.stem:
        r.problem(d.line, f"overlay id {oid!r} does not match the file name ({path.stem!r})", code=Code.ID_FILE_NAME)
    intro = r.text(d, "intro", oid)
    b.texts.append((Loc(r.file, d.line_of("title")), f"{oid}.title", title))
    if intro:
        b.texts.append((Loc(r.file, d.line_of("intro")), f"{oid}.intro", intro))
    fan_made = d.get("fan-made", False)
    if not isinstance(fan_made, bool):
        r.problem(d.line_of("fan-made"), "overlay.fan-made: expected true or false", code=Code.FIELD_TYPE)
        fan_made = False
    sources = d.get("sources", {})
    if not isinstance(sources, dict):
        r.problem(d.line_of("sources"), "overlay.sources: expected a mapping of document keys", code=Code.FIELD_TYPE)
        sources = {}
    section_ids: list[str] = []
    for item, line in r.items(d, "sections", oid):
        section = _read_section(b, r, item, line, {}, origin=oid)
        if section is not None:
            section_ids.append(section.id)
    rule_ids = [rid for sid in section_ids for rid in b.sections[sid].rule_ids]
    for rid in rule_ids:  # rules written inside an overlay's own sections are additions
        rule = b.rules[rid]
        if rule.op is None:
            b.rules[rid] = _with(rule, op="add")
    for item, line in r.items(d, "entries", oid):
        section_id = item.get("section") if isinstance(item, dict) else None
        entry = _read_rule(b, r, item, line, section_id or "", None, oid, overlay=True)
        if entry is None:
            continue
        rule_ids.append(entry.id)
        if entry.op == "add" and not section_id:
            r.problem(line, f"rule {entry.id}: op 'add' needs a 'section' to add the rule to", code=Code.FIELD_MISSING)
        if entry.op in {"amend", "replace", "remove"} and not entry.target:
            r.problem(line, f"rule {entry.id}: op {entry.op!r} needs a 'target' rule ID", code=Code.FIELD_MISSING)
        if entry.source.doc and entry.source.doc not in sources:
            r.problem(
                line,
                f"rule {entry.id}.source.doc: unknown document {entry.source.doc!r}; expected one of {sorted(sources)}",
                code=Code.RULE_SOURCE,
            )
    b.overlays[oid] = Overlay(
        oid, title, kind, fan_made, Loc(r.file, d.line), tuple(rule_ids), tuple(section_ids), intro, plain(sources)
    )


def _with(rule: Rule, **changes: Any) -> Rule:
    return rule._replace(**changes)


# --- whole-ruleset checks ------------------------------------------------------


def _cross_check(b: _Build, meta: dict[str, Any]) -> None:
    meta_file = meta.get("_file", "ruleset.yaml")
    listed: dict[str, str] = {}
    for part in meta["parts"]:
        for sid in part.section_ids:
            if sid in listed:
                b.problems.append(
                    Problem(
                        meta_file,
                        None,
                        f"section {sid!r} is listed in both {listed[sid]!r} and {part.id!r}",
                        code=Code.SECTION_UNLISTED,
                    )
                )
            listed[sid] = part.id
            if sid not in b.sections or b.sections[sid].origin != "base":
                b.problems.append(
                    Problem(
                        meta_file,
                        None,
                        f"part {part.id!r} lists section {sid!r}, which has no file in sections/",
                        code=Code.SECTION_MISSING,
                    )
                )
    for section in b.sections.values():
        if section.origin == "base" and section.id not in listed:
            b.problems.append(
                Problem(
                    section.loc.file,
                    section.loc.line,
                    f"section {section.id!r} is not listed in any part of ruleset.yaml",
                    code=Code.SECTION_UNLISTED,
                )
            )
    known_docs = set(meta["sources"])
    for rule in b.rules.values():
        if rule.origin == "base" and rule.source.seed and known_docs and rule.source.seed not in known_docs:
            b.problems.append(
                Problem(
                    rule.loc.file,
                    rule.loc.line,
                    f"rule {rule.id}.source.seed: unknown source {rule.source.seed!r}; expected one of {sorted(known_docs)}",
                    code=Code.RULE_SOURCE,
                )
            )
        if rule.op in {"amend", "replace", "remove"} and rule.target:
            target_rule = b.rules.get(rule.target)
            if target_rule is None or target_rule.origin != "base":
                b.problems.append(
                    Problem(
                        rule.loc.file,
                        rule.loc.line,
                        f"rule {rule.id}.target: no base rule {rule.target!r}{_suggest(rule.target, b.rules)}",
                        code=Code.RULE_UNKNOWN_ID,
                    )
                )
        if rule.op == "add" and rule.section_id and rule.section_id not in b.sections:
            b.problems.append(
                Problem(
                    rule.loc.file,
                    rule.loc.line,
                    f"rule {rule.id}.section: no section {rule.section_id!r}{_suggest(rule.section_id, b.sections)}",
                    code=Code.RULE_UNKNOWN_ID,
                )
            )
    for loc, what, kind, target in b.refs:
        _check_ref(b, loc, what, kind, target)
    for rid in b.retired:
        if rid in b.ids:
            loc = b.retired_locs[rid]
            b.problems.append(
                Problem(
                    loc.file, loc.line, f"retired ID {rid!r} is still in use at {b.ids[rid]}", code=Code.RULE_RETIRED
                )
            )
    for loc, where, text in b.texts:
        _check_text(b, loc, where, text)
    for loc, what, check in b.checks:
        _check_check(b, loc, what, check)


def _suggest(name: str, known: Any) -> str:
    import difflib

    hint = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {hint[0]!r}?)" if hint else ""


def _check_ref(b: _Build, loc: Loc, what: str, kind: str, target: str) -> None:
    if kind == "term":
        if target not in b.terms:
            b.problems.append(
                Problem(
                    loc.file,
                    loc.line,
                    f"{what}: unknown glossary term {target!r}{_suggest(target, b.terms)}",
                    code=Code.TERM_UNKNOWN,
                )
            )
    elif target not in b.rules and target not in b.sections:
        if target in b.retired:
            b.problems.append(
                Problem(
                    loc.file,
                    loc.line,
                    f"{what}: {target!r} is retired; link its successor {b.retired[target].successor!r}",
                    code=Code.RULE_RETIRED,
                )
            )
        else:
            b.problems.append(
                Problem(
                    loc.file,
                    loc.line,
                    f"{what}: no rule or section {target!r}{_suggest(target, b.rules)}",
                    code=Code.RULE_UNKNOWN_ID,
                )
            )


def _check_text(b: _Build, loc: Loc, where: str, text: str) -> None:
    for piece in markup.walk(markup.parse(text)):
        if isinstance(piece, (markup.Param, markup.PluralWord)):
            if piece.name not in b.params:
                b.problems.append(
                    Problem(
                        loc.file,
                        loc.line,
                        f"{where}: unknown parameter {{{piece.name}}}{_suggest(piece.name, b.params)}",
                        code=Code.PARAM_UNKNOWN,
                    )
                )
            elif isinstance(piece, markup.PluralWord) and len(piece.forms) != EN_PLURAL_FORMS:
                b.problems.append(
                    Problem(
                        loc.file,
                        loc.line,
                        f"{where}: {{{piece.name}:…}} needs {EN_PLURAL_FORMS} English forms (one|other), found {len(piece.forms)}",
                        code=Code.TEXT_PLACEHOLDER,
                    )
                )
        elif isinstance(piece, markup.Ref):
            _check_ref(b, loc, where, piece.kind, piece.target)
    if "{" in text and markup.stray_brace(text):
        b.problems.append(
            Problem(
                loc.file,
                loc.line,
                f"{where}: a '{{' that is not a {{parameter}} placeholder",
                code=Code.TEXT_PLACEHOLDER,
            )
        )


def _check_check(b: _Build, loc: Loc, what: str, check: Check) -> None:
    """Type-check a rule's conditions against the facts, parameters and vocabulary (one table)."""
    from havoc.engine.conditions import Env, type_check

    subjects = {k: v[0] for k, v in b.vocabulary.get("fact-subjects", {}).items() if v}
    env = Env(
        facts={n: (f.type, f.values) for n, f in b.facts.items()},
        vocabulary=b.vocabulary,
        params={n: p.type for n, p in b.params.items()},
        figures=frozenset(check.figures),
        subjects=subjects,
    )
    problems: list[str] = []
    if check.applies_if is not None:
        problems += type_check(check.applies_if, env, "applies-if")
    if check.requires is not None:
        problems += type_check(check.requires, env, "requires")
    for name, fig in check.figures.items():
        problems += type_check(fig, env, f"figures.{name}")
    for msg in problems:
        b.problems.append(Problem(loc.file, loc.line, f"{what}.check: {msg}", code=Code.RULE_CHECK))


__all__ = ["LList", "load_ruleset"]
