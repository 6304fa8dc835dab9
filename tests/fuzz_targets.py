"""What the fuzzers feed and what they judge: shared by tests/test_fuzz.py and benchmarks/fuzz.py.

Every target takes one generated input and returns an :class:`Outcome`: ``accepted``,
``refused`` (havoc's own located error), ``lost`` (a translation went missing or a second
merge changed something), ``impossible`` (a position or ruleset was accepted with a number no
table can hold, or the cache served something other than what was stored). Any other
exception escapes: that is a crash, and the caller counts it.
"""

from __future__ import annotations

import copy
import io
import math
import random
from dataclasses import fields, is_dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from havoc.assistant import api
from havoc.core import cache, safeio
from havoc.core.errors import HavocError
from havoc.engine import rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.formats.yamlio import YamlError
from havoc.games.cry_havoc import position as positions
from havoc.games.cry_havoc import position_read
from havoc.language import pofile

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "mini" / "mini"
MAX_FIGURE = 10**7  # no figure of a real table comes near; a 300-digit total is an accepted impossibility

ACCEPTED, REFUSED, LOST, IMPOSSIBLE = "accepted", "refused", "lost", "impossible"
CLEAN = (ACCEPTED, REFUSED)
Outcome = str


# --- seeds ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def ruleset() -> Ruleset:
    return rulebook.load(rulebook.default_ruleset(), REPO / "rules")


@lru_cache(maxsize=1)
def position_seeds() -> tuple[bytes, ...]:
    seeds = [p.read_bytes() for p in sorted((FIXTURES / "assistant").glob("*.yaml"))]
    import json

    for rule in ruleset().rules.values():
        for ex in rule.examples[:1]:
            seeds.append(json.dumps(ex.position).encode())
    return tuple(seeds)


@lru_cache(maxsize=1)
def base_position() -> positions.Position:
    """The table the question fuzzer asks about (answering may add defaults to it)."""
    return position_read.parse_text((FIXTURES / "assistant" / "twenty.yaml").read_text(), ruleset(), "twenty")


@lru_cache(maxsize=1)
def stored_position() -> positions.Position:
    """The value the cache fuzzer stores: its own object, never asked anything."""
    return position_read.parse_text((FIXTURES / "assistant" / "twenty.yaml").read_text(), ruleset(), "twenty")


QUERY_SEEDS = (
    "legal",
    "score",
    "battle example-07",
    "move humans from=example-01 to=example-02 units=2",
    "move pilgrims from=example-07 to=example-08 units=1",
    "recruit pilgrims region=example-05 units=1",
    "build machines region=example-12 structure=matrix",
    "discard humans",
)


@lru_cache(maxsize=1)
def rule_file_seeds() -> tuple[bytes, ...]:
    return tuple(p.read_bytes() for p in sorted((MINI / "sections").glob("*.yaml")))


@lru_cache(maxsize=1)
def catalog_seed() -> bytes:
    return (Path(__file__).resolve().parent / "roots/test-mini/locales/pl/LC_MESSAGES/rules.po").read_bytes()


# --- judges -----------------------------------------------------------------------------


def _numbers(value: Any, depth: int = 0) -> list[Any]:
    """Every number held anywhere in a position or answer (dataclasses, mappings, sequences)."""
    if depth > 20:
        return []
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, (int, float)):
        return [value]
    if is_dataclass(value) and not isinstance(value, type):
        return [n for f in fields(value) for n in _numbers(getattr(value, f.name), depth + 1)]
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in _numbers(k, depth + 1) + _numbers(v, depth + 1)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [n for v in value for n in _numbers(v, depth + 1)]
    return []


def _possible(value: Any) -> bool:
    for n in _numbers(value):
        if isinstance(n, float) and (math.isnan(n) or math.isinf(n) or abs(n) > MAX_FIGURE):
            return False
        if isinstance(n, int) and abs(n) > MAX_FIGURE:
            return False
    return True


def position(data: bytes) -> Outcome:
    """A position file's bytes: parsed, validated, then asked what is legal and the score."""
    rs = ruleset()
    try:
        text = safeio.decode_utf8(data)
        pos = position_read.parse_text(text, rs, "fuzz")
    except (HavocError, safeio.ReadError):
        return REFUSED
    if not _possible(pos) or any(
        n < 0 for n in _numbers(pos) if isinstance(n, (int, float)) and not isinstance(n, bool)
    ):
        return IMPOSSIBLE
    for words in ("legal", "score"):
        try:
            got = api.answer_for(rs, pos, api.load_query(words, pos))
        except HavocError:
            continue
        if not _possible(got.figures):
            return IMPOSSIBLE
    return ACCEPTED


def query(words: str | list[str] | dict[str, Any]) -> Outcome:
    """A question (compact words or a mapping) about a fixed, valid position."""
    rs = ruleset()
    pos = base_position()
    try:
        q = api.load_query(words, pos)
        got = api.answer_for(rs, pos, q, "pl" if len(str(words)) % 2 else "en")
    except HavocError:
        return REFUSED
    return ACCEPTED if _possible(got.figures) else IMPOSSIBLE


def rule_file(data: bytes, which: int = 0) -> Outcome:
    """One section file of the mini ruleset replaced by ``data``, loaded from memory."""
    from havoc.engine.rulebook import loader
    from havoc.engine.rulebook.stored import Snapshot

    snap = _mini_snapshot()
    files = dict(snap.files)
    section = sorted(p for p in files if p.parent.name == "sections")[which % 2]
    files[section] = data
    fake = Snapshot.__new__(Snapshot)
    fake.root, fake.files, fake.errors = snap.root, files, {}
    try:
        rs = loader.load_ruleset(snap.root, fake)
    except (HavocError, YamlError):
        return REFUSED
    for p in rs.params.values():
        if p.type == "int" and (
            isinstance(p.value, bool)
            or not isinstance(p.value, int)
            or not (p.minimum or 0) <= p.value <= (p.maximum or MAX_FIGURE)
        ):
            return IMPOSSIBLE
    return ACCEPTED


@lru_cache(maxsize=1)
def _mini_snapshot() -> Any:
    from havoc.engine.rulebook.stored import Snapshot

    return Snapshot(MINI)


@lru_cache(maxsize=1)
def _mini_template() -> Any:
    from havoc.cli import catalogs
    from havoc.engine.rulebook.loader import load_ruleset

    return catalogs.rules_template(load_ruleset(MINI, _mini_snapshot()))


def catalog(data: bytes, renamed: dict[str, str] | None = None) -> Outcome:
    """A translator's ``rules.po``: checked; when valid, merged twice with the template.

    Lost: a translation in the file is in neither the merged entries nor the obsolete ones.
    Also lost: a second merge that changes the file (update must be idempotent).
    """
    from babel.messages.pofile import read_po

    from havoc.cli import catalogs

    try:
        text = safeio.decode_utf8(data)
    except safeio.ReadError:
        return REFUSED
    _entries, problems = pofile.parse(text, "fuzz.po")
    if problems:
        return REFUSED
    try:
        old = read_po(io.BytesIO(data), locale="pl", abort_invalid=True)
    except Exception:  # Babel's own refusals of what our stricter reader let through
        return REFUSED
    before = {
        (m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string
        for m in [*old, *old.obsolete.values()]
        if m.id and (any(m.string) if isinstance(m.string, (tuple, list)) else m.string)
    }
    template = _mini_template()
    merged = catalogs.merge(old, template, renamed or {})
    kept = {str(s) for m in [*merged, *merged.obsolete.values()] for s in _strings(m.string)}
    for string in before.values():
        if not all(str(s) in kept for s in _strings(string) if s):
            return LOST
    once = catalogs.render_keeping(merged, data)  # as `havoc catalog update` writes it over the old file
    try:  # read back as the next `havoc catalog update` reads it: strictly
        reread = read_po(io.BytesIO(once), locale="pl", abort_invalid=True)
    except Exception:
        return LOST  # the next update would refuse what this one wrote
    if _translations(reread) != _translations(merged):
        return LOST  # an old entry's lines kept in place of a different new one
    again = catalogs.render_keeping(catalogs.merge(reread, template, renamed or {}, _previous(once)), once)
    return ACCEPTED if catalogs._strip_dates(once) == catalogs._strip_dates(again) else LOST


def _translations(cat: Any) -> dict[tuple[bool, str | None, Any], tuple[Any, ...]]:
    """Every entry's strings (less empty trailing plural forms, which Babel reads back as it likes)
    and whether it is fuzzy, by (obsolete, context, msgid)."""
    return {
        (obsolete, m.context, m.id if isinstance(m.id, str) else tuple(m.id)): (_filled(m.string), m.fuzzy)
        for obsolete, msgs in ((False, list(cat)), (True, list(cat.obsolete.values())))
        for m in msgs
        if m.id
    }


def _filled(value: Any) -> tuple[Any, ...]:
    forms = _strings(value)
    while len(forms) > 1 and not forms[-1]:
        forms.pop()
    return tuple(forms)


def _strings(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (tuple, list)) else [value]


def _previous(data: bytes) -> dict[tuple[str | None, str], list[str]]:
    entries, _ = pofile.parse(data.decode("utf-8"), "x")
    return {
        e.key: [v for k in ("msgid", "msgid_plural") if (v := e.previous.get(k)) is not None]
        for e in entries
        if e.previous.get("msgid") is not None and not e.obsolete
    }


def cache_file(data: bytes, folder: Path) -> Outcome:
    """A damaged or forged cache entry: read back, it must be a miss or exactly what was stored."""
    value = stored_position()
    key = "fuzz"
    cache.put("position", key, value)
    entry = folder / f"position-{key}.bin"
    entry.write_bytes(data)
    got = cache.get("position", key, positions.Position)
    if got is None:
        return REFUSED
    return ACCEPTED if got == value else IMPOSSIBLE


# --- mutation (for the long campaign; Hypothesis draws its own) -------------------------

NASTY = [
    b"[" * 30_000,
    b"{a: " * 5_000,
    b"- " * 20_000,
    b"1.0e+300",
    b"1e300",
    b".nan",
    b".inf",
    b"-.inf",
    b"9" * 5_000,
    b"-1",
    b"0",
    b"1000001",
    b"3.0",
    b"\xff\xfe",
    b"\x00",
    b"&a [1]",
    b"*a",
    b"!!python/object:os.system",
    b"~",
    b'"',
    b"'",
    b"\t",
    b"? ",
    b": ",
    b"\n  ",
    b"true",
    b"{}",
    b"[]",
    b"\\",
    b'msgstr "x"',
    b"#~ ",
    b'#| msgid "x"',
    "żółć".encode(),
    b"\xef\xbb\xbf",
]


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """One to four random edits: flips, cuts, duplications, and nasty tokens spliced in."""
    buf = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        choice = rnd.random()
        pos = rnd.randint(0, len(buf)) if buf else 0
        if choice < 0.2 and buf:
            i = rnd.randrange(len(buf))
            buf[i] ^= 1 << rnd.randrange(8)
        elif choice < 0.35 and buf:
            end = min(len(buf), pos + rnd.randint(1, 40))
            del buf[pos:end]
        elif choice < 0.5 and buf:
            end = min(len(buf), pos + rnd.randint(1, 80))
            buf[pos:pos] = buf[pos:end] * rnd.randint(1, 3)
        elif choice < 0.85:
            buf[pos:pos] = rnd.choice(NASTY)
        elif choice < 0.95:
            # replace a number with a nasty number
            digits = [i for i, b in enumerate(buf) if 48 <= b <= 57]
            if digits:
                i = rnd.choice(digits)
                buf[i : i + 1] = rnd.choice([b"1.0e+300", b"-4", b".nan", b"99999999999", b"2.5", b"0x10", b"1_0"])
        else:
            buf = buf[: rnd.randint(0, len(buf))]
    return bytes(buf[: safeio.MAX_BYTES + 100])


NASTY_VALUES: list[Any] = [
    1e300,
    -1,
    2**70,
    3.0,
    1000000.0,
    1000001,
    0,
    True,
    None,
    "x",
    "",
    [],
    {},
    [1, [2]],
    {"humans": 1e300},
    float("nan"),
    -0.0,
    "example-01",
    "humans",
]


PLAUSIBLE_VALUES: list[Any] = [0, 1, 2, 3, 5, 12, 2.0, "humans", "pilgrims", "machines", "trogs", True, False]


def mutate_structure(data: bytes, rnd: random.Random) -> bytes:
    """A position with one to three values (anywhere in the tree) replaced by nasty ones, as JSON."""
    import json

    import yaml

    tree = yaml.safe_load(data.decode("utf-8"))
    for _ in range(rnd.randint(1, 3)):
        node: Any = tree
        path: list[Any] = []
        while isinstance(node, (dict, list)) and node and (not path or rnd.random() < 0.75):
            key = rnd.choice(list(node)) if isinstance(node, dict) else rnd.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if path:
            parent, key = path[-1]
            parent[key] = copy.deepcopy(rnd.choice(NASTY_VALUES if rnd.random() < 0.5 else PLAUSIBLE_VALUES))
    return json.dumps(tree).encode()


def mutate_words(rnd: random.Random) -> str | list[str] | dict[str, Any]:
    words = rnd.choice(QUERY_SEEDS).split()
    junk = ["", "=", "units=1e300", "units=-1", "units=99999999999999999999", "from=", "to=Bad Id", "żółć", "x" * 300]
    for _ in range(rnd.randint(0, 3)):
        op = rnd.random()
        if op < 0.4:
            words.insert(rnd.randint(0, len(words)), rnd.choice(junk))
        elif op < 0.7 and words:
            words.pop(rnd.randrange(len(words)))
        elif words:
            i = rnd.randrange(len(words))
            words[i] = words[i][: rnd.randint(0, len(words[i]))] + rnd.choice(junk)
    if rnd.random() < 0.2:
        return {
            "ask": rnd.choice(["move", "battle", "score", 5, None, ["legal"]]),
            rnd.choice(["faction", "units", "from", "objectives"]): rnd.choice(
                [None, -1, 1e300, "humans", {"humans": 5}, [1], {"humans": {"control": 1e300}}]
            ),
        }
    return words if rnd.random() < 0.5 else " ".join(words)
