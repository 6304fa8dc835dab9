"""``functools.lru_cache`` for the modules a short ``havoc ask`` imports, without :mod:`functools`.

Importing functools imports :mod:`collections`: measured on the project's 2-core machine
(``-X importtime``, bytecode cached) 0.8 ms for functools and 2.2 ms for collections, about 7%
of a 42 ms ``havoc ask`` process, which imports neither (tests/test_cli_quick.py holds it to
that; ``python -m havoc`` imports both anyway, through runpy). The few functions an ask
remembers results of need only a bounded dict. When it is
full the oldest result goes (lru_cache drops the least recently used: the same results, only
another choice of which to compute again). Like lru_cache it is safe across threads (at worst
two threads compute one result) and has ``cache_clear``.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Generic, ParamSpec, TypeVar

    P = ParamSpec("P")
    R = TypeVar("R")

    class Memoized(Generic[P, R]):
        __wrapped__: Callable[P, R]

        def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R: ...
        def cache_clear(self) -> None: ...


def memo(maxsize: int) -> Callable[[Callable[P, R]], Memoized[P, R]]:
    """Remember up to ``maxsize`` results of the function, by its (hashable) arguments."""

    def decorate(fn: Callable[P, R]) -> Memoized[P, R]:
        results: dict[Any, Any] = {}
        missing = object()

        def memoized(*args: Any, **kwargs: Any) -> Any:
            if not kwargs:  # the usual call, found at about lru_cache's speed
                try:
                    return results[args]
                except KeyError:
                    pass
            key = (args, tuple(kwargs.items())) if kwargs else args
            found = results.get(key, missing)
            if found is missing:
                found = fn(*args, **kwargs)
                if len(results) >= maxsize:
                    try:  # noqa: SIM105 - no contextlib (see the docstring)
                        del results[next(iter(results))]
                    except (KeyError, StopIteration, RuntimeError):  # another thread took it first
                        pass
                results[key] = found
            return found

        memoized.cache_clear = results.clear  # type: ignore[attr-defined]
        memoized.__wrapped__ = fn  # type: ignore[attr-defined]
        memoized.__name__ = fn.__name__
        memoized.__qualname__ = fn.__qualname__
        memoized.__doc__ = fn.__doc__
        memoized.__module__ = fn.__module__
        return memoized  # type: ignore[return-value]

    return decorate


__all__ = ["memo"]
