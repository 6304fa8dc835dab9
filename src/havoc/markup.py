"""The small text markup of rule texts, parsed once and rendered by every view.

Rule texts are written once (in YAML, then translated in catalogs) and shown by Sphinx, the
printed sheet and the CLI. Parsing lives here so the three views cannot disagree about what
``{hand-limit}``, ``{hand-limit:card|cards}``, ``[Units](term:unit)`` or ``*word*`` mean.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from havoc.tuples import NamedTuple

_INLINE = re.compile(
    r"\{(?P<param>[a-z0-9][a-z0-9-]*)(?::(?P<forms>[^{}]*))?\}"
    r"|\[(?P<label>[^\]\[]+)\]\((?P<kind>term|rule):(?P<target>[a-z0-9][a-z0-9-]*)\)"
    r"|\*(?P<emph>[^*\n]+)\*"
)
_PLACEHOLDER = re.compile(r"\{[a-z0-9][a-z0-9-]*(?::[^{}]*)?\}")
_LINK = re.compile(r"\]\((?:term|rule):[a-z0-9-]+\)")


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
    """Split one line or paragraph into inline pieces."""
    out: list[Inline] = []
    pos = 0
    for m in _INLINE.finditer(text):
        if m.start() > pos:
            out.append(Text(text[pos : m.start()]))
        if m.group("param"):
            forms = m.group("forms")
            if forms is None:
                out.append(Param(m.group("param")))
            else:
                out.append(PluralWord(m.group("param"), tuple(forms.split("|"))))
        elif m.group("kind"):
            out.append(Ref(m.group("kind"), m.group("target"), m.group("label")))
        else:
            out.append(Emph(m.group("emph")))
        pos = m.end()
    if pos < len(text):
        out.append(Text(text[pos:]))
    return tuple(out)


def parse(text: str) -> tuple[Block, ...]:
    """Parse a text into paragraphs and bullet lists."""
    blocks: list[Block] = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
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
    return sorted(_PLACEHOLDER.findall(text))


def link_targets(text: str) -> list[str]:
    """The link targets of a text (a translation must keep the same set)."""
    return sorted(_LINK.findall(text))


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


ID_LIKE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def stray_brace(text: str) -> bool:
    """True if the text has a brace that is not part of a placeholder."""
    return "{" in _PLACEHOLDER.sub("", text) or "}" in _PLACEHOLDER.sub("", text)
