"""havoc.core.memo: lru_cache's results without importing functools (a short ask's start-up)."""

from __future__ import annotations

from havoc.core.memo import memo


def test_a_result_is_computed_once_per_arguments_and_the_oldest_goes_when_full() -> None:
    calls: list[tuple[object, ...]] = []

    @memo(2)
    def square(n: int, scale: int = 1) -> int:
        """Doc."""
        calls.append((n, scale))
        return n * n * scale

    assert [square(2), square(2), square(3), square(2, scale=3), square(2, scale=3)] == [4, 4, 9, 12, 12]
    assert calls == [(2, 1), (3, 1), (2, 3)]
    assert square(2) == 4 and calls[-1] == (2, 1)  # the oldest (2) went when (2, scale=3) came
    assert square(2, scale=3) == 12 and len(calls) == 4
    square.cache_clear()
    assert square(3) == 9 and calls[-1] == (3, 1)
    assert square.__doc__ == "Doc." and square.__wrapped__(4) == 16
