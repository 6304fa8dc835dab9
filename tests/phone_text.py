"""A text answer read as one line per item: the lines it wraps in at a phone's width joined again.

The default text answer wraps at 60 columns (issue 38): a continued line is indented two more
than the line it continues. Tests that look for a sentence across those breaks read it here.
"""

from __future__ import annotations


def unwrap(text: str, width: int = 60) -> str:
    """``text`` with each wrapped line joined to the line it continues: one indented two more
    than it, whose first word would not have fitted on it."""
    out: list[str] = []
    base = -1  # the indentation of the line being continued
    last = ""  # the line before, as shown
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        word = line.split()[0] if line.strip() else ""
        if out and word and last.strip() and indent == base + 2 and len(last) + 1 + len(word) > width:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
            base = indent
        last = line
    return "\n".join(out)
