"""A strict reader of ``.po`` syntax, so a broken catalog fails ``havoc check`` at its line.

Babel's reader is forgiving: a string with a stray quote or a missing ``msgstr`` is read as
something, and ``havoc catalog update`` would then write that something back, silently
replacing what the translator typed. This reader only checks (and remembers the ``#|``
previous msgids Babel does not keep); Babel still does the reading and writing.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from havoc.core.errors import Code, Problem

_STRING = re.compile(r'"((?:[^"\\]|\\["\\abfnrtv?\'0-7x])*)"\s*$')
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr\[(\d+)\]|msgstr)\s+(.*)$")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


@dataclass
class Entry:
    """One message as written: enough to find it again and to report where it is."""

    line: int
    obsolete: bool = False
    fields: dict[str, str] = field(default_factory=dict)
    previous: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.fields.get("msgctxt"), self.fields.get("msgid", "")


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


_PREVIOUS = re.compile(r'(msgctxt|msgid_plural|msgid)\s+((?:"(?:[^"\\]|\\.)*"\s*)+)')
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _previous(text: str) -> dict[str, str]:
    """The ``#|`` fields, read leniently: they are comments, a broken one is not an error."""
    return {m.group(1): "".join(_unescape(x) for x in _LITERAL.findall(m.group(2))) for m in _PREVIOUS.finditer(text)}


def parse(text: str, name: str) -> tuple[list[Entry], list[Problem]]:  # noqa: C901 - a line-by-line state machine of the .po grammar
    """Every entry of a PO file, and every syntax problem with its line."""
    entries: list[Entry] = []
    problems: list[Problem] = []
    cur: Entry | None = None
    last: tuple[dict[str, str], str] | None = None  # where a continuation string goes
    seen: dict[tuple[bool, str | None, str], int] = {}
    pending: list[str] = []  # the #| lines before the next entry

    def close() -> None:
        nonlocal cur, last
        if cur is not None:
            if "msgid" not in cur.fields:
                problems.append(Problem(name, cur.line, "an entry without msgid", code=Code.CATALOG_SYNTAX))
            elif not any(k.startswith("msgstr") for k in cur.fields):
                problems.append(Problem(name, cur.line, "an entry without msgstr", code=Code.CATALOG_SYNTAX))
            else:
                k = (cur.obsolete, *cur.key)
                if k in seen:
                    problems.append(
                        Problem(name, cur.line, f"duplicate entry (first at line {seen[k]})", code=Code.CATALOG_SYNTAX)
                    )
                else:
                    seen[k] = cur.line
                entries.append(cur)
        cur, last = None, None

    for number, raw in enumerate(text.split("\n"), start=1):  # not splitlines: \v, \f are text here
        line = raw.strip()
        obsolete = False
        if line.startswith("#~"):
            obsolete = True
            line = line[2:].strip()
            if not line:
                continue
        if not line:
            close()
            continue
        if line.startswith("#|"):
            # Previous msgids are comments, and Babel wraps comments at spaces, even inside a
            # quoted string: collect the lines and read them whole when the entry starts.
            if cur is not None and any(k.startswith("msgstr") for k in cur.fields):
                close()
            pending.append(line[2:].strip())
            continue
        if line.startswith("#"):
            if cur is not None and any(k.startswith("msgstr") for k in cur.fields):
                close()  # comments open the next entry
            continue
        m = _KEYWORD.match(line)
        if m is not None:
            word, rest = m.group(1), m.group(3)
            s = _STRING.match(rest)
            if s is None:
                problems.append(
                    Problem(
                        name,
                        number,
                        f"{word}: expected one quoted string, found {rest[:40]!r}",
                        code=Code.CATALOG_SYNTAX,
                    )
                )
                last = None
                continue
            if cur is None or (word in ("msgctxt", "msgid") and "msgid" in cur.fields):
                close()
                cur = Entry(number, obsolete, previous=_previous(" ".join(pending)))
                pending.clear()
            target = cur.fields
            key = "msgstr" if word.startswith("msgstr[") else word
            if key == "msgid_plural" and "msgid" not in target:
                problems.append(Problem(name, number, "msgid_plural before msgid", code=Code.CATALOG_SYNTAX))
            if key == "msgstr" and "msgid" not in target:
                problems.append(Problem(name, number, "msgstr before msgid", code=Code.CATALOG_SYNTAX))
            if word.startswith("msgstr[") and "msgid_plural" not in target:
                problems.append(
                    Problem(name, number, f"{word} in an entry without msgid_plural", code=Code.CATALOG_SYNTAX)
                )
            if word == "msgstr" and "msgid_plural" in target:
                problems.append(
                    Problem(name, number, "a plural entry needs msgstr[0], msgstr[1], …", code=Code.CATALOG_SYNTAX)
                )
            if word in target:
                problems.append(Problem(name, number, f"{word} given twice in one entry", code=Code.CATALOG_SYNTAX))
            target[word] = _unescape(s.group(1))
            last = (target, word)
            continue
        if line.startswith('"'):
            s = _STRING.match(line)
            if s is None:
                problems.append(
                    Problem(name, number, "a string with an unescaped or missing quote", code=Code.CATALOG_SYNTAX)
                )
            elif last is None:
                problems.append(Problem(name, number, "a string that continues nothing", code=Code.CATALOG_SYNTAX))
            else:
                last[0][last[1]] += _unescape(s.group(1))
            continue
        problems.append(Problem(name, number, f"not a PO line: {line[:40]!r}", code=Code.CATALOG_SYNTAX))
    close()
    return entries, problems


def wrap_width(text: str) -> int:
    """The width a catalog's strings are wrapped at, as Babel's ``width`` (0: not wrapped).

    A string is wrapped when one of its lines other than the last does not end with ``\\n``;
    its broken lines give the width. A file is wrapped when its wrapped strings
    outnumber its lines longer than that width (one entry wrapped by hand in a file of long
    lines is not a wrapped file). A new entry is then written as the file's others are.
    """
    from babel.messages.pofile import WORD_SEP  # how Babel cuts a string into words to wrap it

    longest, wrapped, upper = 0, 0, 10**6
    unbroken: list[int] = []  # the lengths of lines of strings not wrapped
    pieces: list[str] = []

    def close() -> None:
        nonlocal longest, wrapped, upper
        if len(pieces) > 1 and any(not p.endswith('\\n"') for p in pieces[:-1]):
            wrapped += 1
            for line, after in itertools.pairwise(pieces):
                # a line ending a paragraph (\n) or holding one long word is not where the wrapping broke it
                if line.endswith('\\n"') or not re.search(r"\s", line.strip('#~ "')):
                    continue
                longest = max(longest, len(line))
                # the next word did not fit: the width is at most the line with it
                upper = min(upper, len(line) + len(next((w for w in WORD_SEP.split(after.strip('#~ "')) if w), "")))
        else:
            unbroken.extend(len(p) for p in pieces)
        pieces.clear()

    for raw in text.split("\n"):
        line = raw.strip()
        body = line[2:].lstrip() if line.startswith("#~") else line
        m = _KEYWORD.match(body)
        if m is not None:
            close()
            if m.group(3).strip() != '""':  # `msgid ""` opens a wrapped string: not one of its lines
                pieces.append(line)
        elif body.startswith('"'):
            pieces.append(line)
        else:
            close()
    close()
    if not longest:
        return 0
    # a string that fits stays on its keyword's line: `msgstr[0] "…"` may pass the width by 10
    too_long = sum(n > longest + 11 for n in unbroken)
    if too_long > wrapped:
        return 0
    # any width from longest + 1 to upper wraps the file's strings as they are: a usual one if it may be
    return next((w for w in (76, 79, 80, 100, 120) if longest < w <= upper), longest + 1)


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """The runs of non-blank lines (one entry each, with its comments), as ``[start, end)``."""
    runs: list[tuple[int, int]] = []
    start = None
    for i, line in enumerate(lines):
        if line.strip():
            if start is None:
                start = i
        elif start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(lines)))
    return runs


def _meaning(lines: list[str]) -> tuple[object, ...]:
    """What an entry says, whatever its wrapping: its fields' strings, and its comments' words."""
    comments: dict[tuple[bool, str], list[str]] = {}
    fields: list[list[object]] = []
    for raw in lines:
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if line.startswith("#"):
            kind = line[1:2] if line[1:2] in ".,:|" else ""
            comments.setdefault((obsolete, kind), []).extend(line[1 + len(kind) :].split())
            continue
        m = _KEYWORD.match(line)
        literal = _STRING.match(m.group(3) if m is not None else line)
        if literal is None or (m is None and not fields):
            return ("as written", tuple(ln.rstrip() for ln in lines))  # not plain PO: only the same text matches
        if m is not None:
            fields.append([obsolete, m.group(1), ""])
        fields[-1][2] = str(fields[-1][2]) + _unescape(literal.group(1))
    return (tuple(sorted((k, tuple(v)) for k, v in comments.items())), tuple(tuple(f) for f in fields))


def keep_layout(old: str, new: str) -> str:
    """``new``, with each entry that says what an entry of ``old`` says written as ``old`` writes it.

    A catalog update rewrites the file with Babel, which has its own idea of line wrapping; a
    translator's tool or an older havoc may have had another. Untouched entries keep their
    bytes, so an update's diff shows only what changed.
    """
    if old == new:
        return new
    old_lines, new_lines = old.split("\n"), new.split("\n")
    old_blocks = ["\n".join(old_lines[a:b]) for a, b in _blocks(old_lines)]
    new_runs = _blocks(new_lines)
    same_text = {"\n".join(new_lines[a:b]) for a, b in new_runs}.intersection(old_blocks)
    # what the other old entries say, read only for them (an update changes a few entries)
    written: dict[tuple[object, ...], list[str]] = {}
    for block in old_blocks:
        if block not in same_text:
            written.setdefault(_meaning(block.split("\n")), []).append(block)
    out: list[str] = []
    done = 0
    for a, b in new_runs:
        out += new_lines[done:a]
        done = b
        text = "\n".join(new_lines[a:b])
        same = None if text in same_text else written.get(_meaning(new_lines[a:b]))
        out.append(same.pop(0) if same else text)
    out += new_lines[done:]
    return "\n".join(out)
