"""``class X(NamedTuple)`` without importing :mod:`typing` at run time.

:mod:`typing` (and the ``re``, ``enum`` and ``contextlib`` it imports) is a measurable part
of a short ``havoc ask``. Modules on that path write::

    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from havoc.tuples import NamedTuple

Type checkers see :class:`typing.NamedTuple`; at run time the class is made as ``typing``
makes it: :func:`collections.namedtuple` of the annotated fields (those with a value are the
defaults), with the class body's methods, docstring and constants set on it. The one
difference: ``__annotations__`` keeps the annotations as written, not checked by ``typing``.
"""

from __future__ import annotations

from collections import namedtuple

# What the class body may not set (it would break the tuple), and what typing never copies.
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make"})
_PROHIBITED |= {"_replace", "_asdict", "_source"}
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__", "__annotate__", "__annotate_func__"})
_SPECIAL |= {"__annotations_cache__"}


def _lazy(ns: dict[str, object]) -> dict[str, object]:
    """The annotations of a class body whose annotations Python evaluates lazily (3.14+, a
    module without ``from __future__ import annotations``), as names to forward references."""
    try:
        import annotationlib  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # before 3.14 annotations are in the namespace: this class has none
        return {}
    annotate = annotationlib.get_annotate_from_class_namespace(ns)
    if annotate is None:
        return {}
    found: dict[str, object] = annotationlib.call_annotate_function(annotate, annotationlib.Format.FORWARDREF)
    return found


class _Maker(type):
    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, object]) -> type:
        if ns.get("_root", False):
            return super().__new__(mcs, name, bases, ns)
        annotations: dict[str, object] = dict(ns.get("__annotations__") or _lazy(ns))  # type: ignore[call-overload]
        defaults: list[object] = []
        for field in annotations:
            if field in ns:
                defaults.append(ns[field])
            elif defaults:
                raise TypeError(f"Non-default namedtuple field {field} cannot follow default field")
        made: type = namedtuple(name, list(annotations), defaults=defaults, module=str(ns["__module__"]))  # type: ignore[misc]
        made.__annotations__ = annotations
        made.__new__.__annotations__ = annotations
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
            if key not in _SPECIAL and key not in annotations:
                setattr(made, key, value)
        return made


class NamedTuple(metaclass=_Maker):
    """The base of a named tuple class declared with annotations (see the module's docstring)."""

    _root = True
