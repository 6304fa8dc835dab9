"""The small text markup of rule texts, parsed once and rendered by every view.

Rule texts are written once (in YAML, then translated in catalogs) and shown by Sphinx, the
printed sheet and the CLI. Parsing lives here so the three views cannot disagree about what
``{hand-limit}``, ``{hand-limit:card|cards}``, ``[Units](term:unit)`` or ``*word*`` mean.

A rule text is parsed on every answer that cites it, so :func:`parse` reads it with a small
scanner rather than regular expressions (``re`` and the ``enum`` it imports are a measurable
part of a short ``havoc ask``); the patterns below say what it reads, and a test holds the
scanner to them. The checks of whole catalogs (placeholders, links) use the patterns.
"""

from __future__ import annotations

from _collections_abc import Callable, Iterator  # collections.abc without importing collections

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    import re
    from typing import NamedTuple
else:
    from havoc.core.tuples import NamedTuple

# What parse_inline reads, and where a paragraph ends (compiled only by the functions that use
# them with ``re``, and by the test of the scanner).
INLINE = (
    r"\{(?P<param>[a-z0-9][a-z0-9-]*)(?::(?P<forms>[^{}]*))?\}"
    r"|\[(?P<label>[^\]\[]+)\]\((?P<kind>term|rule):(?P<target>[a-z0-9][a-z0-9-]*)\)"
    r"|\*(?P<emph>[^*\n]+)\*"
)
BLANK_LINES = r"\n\s*\n"
_PLACEHOLDER = r"\{[a-z0-9][a-z0-9-]*(?::[^{}]*)?\}"
_LINK = r"\]\((?:term|rule):[a-z0-9-]+\)"
_ID_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_ID_REST = _ID_FIRST | {"-"}


class Text(NamedTuple):
    text: str


class Emph(NamedTuple):
    text: str


class Param(NamedTuple):
    """The value of a parameter."""

    name: str


class PluralWord(NamedTuple):
    """A word whose form follows the value of a parameter (forms in CLDR order)."""

    name: str
    forms: tuple[str, ...]


class Ref(NamedTuple):
    """A link to a glossary term (``kind='term'``) or a rule/section (``kind='rule'``)."""

    kind: str
    target: str
    label: str


Inline = Text | Emph | Param | PluralWord | Ref


class Paragraph(NamedTuple):
    inlines: tuple[Inline, ...]


class BulletList(NamedTuple):
    items: tuple[tuple[Inline, ...], ...]


Block = Paragraph | BulletList


def parse_inline(text: str) -> tuple[Inline, ...]:
    """Split one line or paragraph into inline pieces (what :data:`INLINE` finds, left to right)."""
    out: list[Inline] = []
    pos = at = 0
    end = len(text)
    while at < end:
        c = text[at]
        found: Inline | None = None
        after = at
        if c == "{":
            found, after = _param(text, at)
        elif c == "[":
            found, after = _ref(text, at)
        elif c == "*":
            close = at + 1
            while close < end and text[close] not in "*\n":
                close += 1
            if close > at + 1 and close < end and text[close] == "*":
                found, after = Emph(text[at + 1 : close]), close + 1
        if found is None:
            at += 1
            continue
        if at > pos:
            out.append(Text(text[pos:at]))
        out.append(found)
        pos = at = after
    if pos < len(text):
        out.append(Text(text[pos:]))
    return tuple(out)


def _id_end(text: str, at: int) -> int:
    """Where an ID (``[a-z0-9][a-z0-9-]*``) starting at ``at`` ends; ``at`` when there is none."""
    if at >= len(text) or text[at] not in _ID_FIRST:
        return at
    at += 1
    while at < len(text) and text[at] in _ID_REST:
        at += 1
    return at


def _param(text: str, at: int) -> tuple[Inline | None, int]:
    """``{name}`` or ``{name:form|form}`` at ``at``, and where it ends."""
    name_end = _id_end(text, at + 1)
    if name_end == at + 1 or name_end >= len(text):
        return None, at
    name = text[at + 1 : name_end]
    if text[name_end] == "}":
        return Param(name), name_end + 1
    if text[name_end] != ":":
        return None, at
    close = name_end + 1
    while close < len(text) and text[close] not in "{}":
        close += 1
    if close < len(text) and text[close] == "}":
        return PluralWord(name, tuple(text[name_end + 1 : close].split("|"))), close + 1
    return None, at


def _ref(text: str, at: int) -> tuple[Inline | None, int]:
    """``[label](term:id)`` or ``[label](rule:id)`` at ``at``, and where it ends."""
    close = at + 1
    while close < len(text) and text[close] not in "[]":
        close += 1
    if close == at + 1 or not text.startswith("](", close):
        return None, at
    kind = text[close + 2 : close + 6]
    if kind not in ("term", "rule") or text[close + 6 : close + 7] != ":":
        return None, at
    target_end = _id_end(text, close + 7)
    if target_end == close + 7 or text[target_end : target_end + 1] != ")":
        return None, at
    return Ref(kind, text[close + 7 : target_end], text[at + 1 : close]), target_end + 1


def _chunks(text: str) -> list[str]:
    """``re.split(BLANK_LINES, text)``: the text cut at each run of blank lines."""
    out: list[str] = []
    start = 0
    i = text.find("\n")
    while i != -1:
        j, last = i + 1, -1
        while j < len(text) and text[j].isspace():  # str.isspace is re's \s
            if text[j] == "\n":
                last = j
            j += 1
        if last == -1:
            i = text.find("\n", j)
        else:
            out.append(text[start:i])
            start = last + 1
            i = text.find("\n", start)
    out.append(text[start:])
    return out


def parse(text: str) -> tuple[Block, ...]:
    """Parse a text into paragraphs and bullet lists."""
    blocks: list[Block] = []
    for chunk in _chunks(text.strip()):
        lines = [ln.strip() for ln in chunk.splitlines() if ln.strip()]
        if not lines:
            continue
        para: list[str] = []
        items: list[str] = []
        for ln in lines:
            if ln.startswith("- "):
                if para:
                    blocks.append(Paragraph(parse_inline(" ".join(para))))
                    para = []
                items.append(ln[2:].strip())
            elif items and not para:
                items[-1] += " " + ln
            else:
                para.append(ln)
        if items:
            blocks.append(BulletList(tuple(parse_inline(i) for i in items)))
        if para:
            blocks.append(Paragraph(parse_inline(" ".join(para))))
    return tuple(blocks)


def walk(blocks: tuple[Block, ...]) -> Iterator[Inline]:
    """Every inline piece of a parsed text, in order."""
    for block in blocks:
        if isinstance(block, Paragraph):
            yield from block.inlines
        else:
            for item in block.items:
                yield from item


def placeholders(text: str) -> list[str]:
    """The placeholders of a text as written (a translation must keep the same set)."""
    import re

    return sorted(re.findall(_PLACEHOLDER, text))


def link_targets(text: str) -> list[str]:
    """The link targets of a text (a translation must keep the same set)."""
    import re

    return sorted(re.findall(_LINK, text))


ValueOf = Callable[[str], object]
PluralIndex = Callable[[int], int]


def render_inline_plain(inlines: tuple[Inline, ...], value_of: ValueOf, plural_index: PluralIndex) -> str:
    """Render inline pieces as plain text: links become their label."""
    parts: list[str] = []
    for piece in inlines:
        if isinstance(piece, (Text, Emph)):
            parts.append(piece.text)
        elif isinstance(piece, Param):
            parts.append(format_value(value_of(piece.name)))
        elif isinstance(piece, PluralWord):
            parts.append(choose_form(piece.forms, value_of(piece.name), plural_index))
        else:
            parts.append(piece.label)
    return "".join(parts)


def render_plain(text: str, value_of: ValueOf, plural_index: PluralIndex, width: int = 0) -> str:
    """Render a whole text as plain text (paragraphs, then "- " items)."""
    out: list[str] = []
    for block in parse(text):
        if isinstance(block, Paragraph):
            out.append(render_inline_plain(block.inlines, value_of, plural_index))
        else:
            out.append("\n".join("- " + render_inline_plain(i, value_of, plural_index) for i in block.items))
    return "\n\n".join(out)


def format_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def choose_form(forms: tuple[str, ...], value: object, plural_index: PluralIndex) -> str:
    """Pick the plural form for a number; a non-number takes the last form."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return forms[-1]
    index = plural_index(int(value)) if float(value).is_integer() else len(forms) - 1
    return forms[min(index, len(forms) - 1)]


def is_id(text: str) -> bool:
    """``ID_LIKE.match(text)`` (which also takes one newline at the end): an identifier such as
    ``hand-limit``, checked without compiling a pattern on every start-up."""
    text = text[:-1] if text.endswith("\n") else text
    return bool(text) and text[0] in _ID_FIRST and all(c in _ID_REST for c in text)


def __getattr__(name: str) -> re.Pattern[str]:
    if name == "ID_LIKE":  # compiled when first used (the loader, the site), not on every start-up
        import re

        return re.compile(r"^[a-z0-9][a-z0-9-]*$")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def stray_brace(text: str) -> bool:
    """True if the text has a brace that is not part of a placeholder."""
    import re

    return "{" in re.sub(_PLACEHOLDER, "", text) or "}" in re.sub(_PLACEHOLDER, "", text)
