"""The server's memory of answers: a request asked again, byte for byte, is answered with the
bytes it was answered with before, without reading, validating or answering it again.

Players at different tables ask the same questions (every visitor who picks one of the Ask
page's stored examples sends the same body), and an answer is a function of the request alone:
the rules the server loaded, the address, the body's bytes and type, and the language the
headers and query give when the body names none. Those are the key, exactly as received, so a
kept answer is the one answering afresh would give; nothing is kept across processes (no
pickle, nothing on disk), only successful answers are kept (a refusal is made again), and the
memory is bounded both in entries and in bytes, the least recently asked going first.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Hashable

MOST_ANSWERS = 2048
"""Answers kept at most (the rules' stored examples in both languages are some 150)."""
MOST_ENV = "HAVOC_ANSWERS_KEPT"
"""Answers ``havoc serve`` keeps at most, instead of :data:`MOST_ANSWERS`; 0 keeps none, so that
a benchmark sending one body again and again measures answering it, not remembering it."""


def most_answers() -> int:
    """:data:`MOST_ENV` as a count of answers (a value that is no count: :data:`MOST_ANSWERS`)."""
    value = os.environ.get(MOST_ENV, "").strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else MOST_ANSWERS


MOST_BYTES = 16 * 1024 * 1024
"""Bytes kept at most, requests' and answers' together (a Battle's answer is about 13 KB)."""
LARGEST = 64 * 1024
"""A request and answer larger than this together is not kept (it would crowd out many)."""


class Answers:
    """A bounded least-recently-used map from a request's key to its answer's bytes, for one
    set of rules: :meth:`get` with other rules than those of the answers kept forgets them all.
    Safe to call from several threads (the server answers large bodies in one)."""

    def __init__(self, most: int = MOST_ANSWERS, most_bytes: int = MOST_BYTES, largest: int = LARGEST) -> None:
        self.most, self.most_bytes, self.largest = most, most_bytes, largest
        self._kept: OrderedDict[Hashable, tuple[bytes, int]] = OrderedDict()
        self._bytes = 0
        self._rules: object = None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def size(self) -> int:
        """The bytes kept (requests' and answers' together)."""
        return self._bytes

    def get(self, key: Hashable, rules: object) -> bytes | None:
        """The answer kept for ``key`` under ``rules`` (None: answer it, then :meth:`put`)."""
        with self._lock:
            if rules is not self._rules:  # the rules changed: no answer kept holds for them
                self._clear()
                self._rules = rules
            found = self._kept.get(key)
            if found is None:
                self.misses += 1
                return None
            self._kept.move_to_end(key)
            self.hits += 1
            return found[0]

    def put(self, key: Hashable, size: int, answer: bytes, rules: object) -> None:
        """Keep ``answer`` for ``key`` (``size``: the request's own bytes) under ``rules``."""
        cost = size + len(answer)
        if cost > self.largest:
            return
        with self._lock:
            if rules is not self._rules:
                self._clear()
                self._rules = rules
            old = self._kept.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._kept[key] = (answer, cost)
            self._bytes += cost
            while len(self._kept) > self.most or self._bytes > self.most_bytes:
                _, (_, freed) = self._kept.popitem(last=False)
                self._bytes -= freed

    def clear(self) -> None:
        """Forget every answer (the rules were changed in place)."""
        with self._lock:
            self._clear()

    def _clear(self) -> None:
        self._kept.clear()
        self._bytes = 0
