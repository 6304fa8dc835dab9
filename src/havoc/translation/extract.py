"""The Babel extractor for rule files (entry point ``babel.extractors: havoc-rules``).

``pybabel extract -F babel.cfg`` calls it once per YAML file; it loads the whole validated
ruleset the file belongs to and yields the messages written in that file, each as a
``pgettext`` call so the message keeps its ``<id>:<field>`` context. ``havoc catalog`` uses
the same :func:`havoc.translation.messages.messages` list directly.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from havoc.translation.messages import messages


def extract_rules(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    from havoc.engine.rulebook import load_ruleset

    path = Path(getattr(fileobj, "name", "")).resolve()
    root = next((p for p in path.parents if (p / "ruleset.yaml").is_file()), None)
    if root is None:
        return
    ruleset = load_ruleset(root)
    rel = str(path.relative_to(root.parent.parent))
    for msg in messages(ruleset):
        if msg.file != rel:
            continue
        comments = [msg.comment] if msg.comment else []
        if msg.plural:
            yield msg.line, "npgettext", (msg.context, msg.msgid, msg.plural), comments
        else:
            yield msg.line, "pgettext", (msg.context, msg.msgid), comments
