"""A strict reader of ``.po`` syntax, so a broken catalog fails ``havoc check`` at its line.

Babel's reader is forgiving: a string with a stray quote or a missing ``msgstr`` is read as
something, and ``havoc catalog update`` would then write that something back, silently
replacing what the translator typed. This reader only checks (and remembers the ``#|``
previous msgids Babel does not keep); Babel still does the reading and writing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from havoc.errors import Problem

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
                problems.append(Problem(name, cur.line, "an entry without msgid"))
            elif not any(k.startswith("msgstr") for k in cur.fields):
                problems.append(Problem(name, cur.line, "an entry without msgstr"))
            else:
                k = (cur.obsolete, *cur.key)
                if k in seen:
                    problems.append(Problem(name, cur.line, f"duplicate entry (first at line {seen[k]})"))
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
                problems.append(Problem(name, number, f"{word}: expected one quoted string, found {rest[:40]!r}"))
                last = None
                continue
            if cur is None or (word in ("msgctxt", "msgid") and "msgid" in cur.fields):
                close()
                cur = Entry(number, obsolete, previous=_previous(" ".join(pending)))
                pending.clear()
            target = cur.fields
            key = "msgstr" if word.startswith("msgstr[") else word
            if key == "msgid_plural" and "msgid" not in target:
                problems.append(Problem(name, number, "msgid_plural before msgid"))
            if key == "msgstr" and "msgid" not in target:
                problems.append(Problem(name, number, "msgstr before msgid"))
            if word.startswith("msgstr[") and "msgid_plural" not in target:
                problems.append(Problem(name, number, f"{word} in an entry without msgid_plural"))
            if word == "msgstr" and "msgid_plural" in target:
                problems.append(Problem(name, number, "a plural entry needs msgstr[0], msgstr[1], …"))
            if word in target:
                problems.append(Problem(name, number, f"{word} given twice in one entry"))
            target[word] = _unescape(s.group(1))
            last = (target, word)
            continue
        if line.startswith('"'):
            s = _STRING.match(line)
            if s is None:
                problems.append(Problem(name, number, "a string with an unescaped or missing quote"))
            elif last is None:
                problems.append(Problem(name, number, "a string that continues nothing"))
            else:
                last[0][last[1]] += _unescape(s.group(1))
            continue
        problems.append(Problem(name, number, f"not a PO line: {line[:40]!r}"))
    close()
    return entries, problems
