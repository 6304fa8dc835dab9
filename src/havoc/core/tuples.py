"""``class X(NamedTuple)`` without importing :mod:`typing` at run time.

:mod:`typing` (and the ``re``, ``enum`` and ``contextlib`` it imports) is a measurable part
of a short ``havoc ask``. Modules on that path write::

    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from havoc.core.tuples import NamedTuple

Type checkers see :class:`typing.NamedTuple`; at run time the class is what ``typing`` makes:
the class :func:`collections.namedtuple` makes of the annotated fields (those with a value are
the defaults), with the class body's methods, docstring and constants set on it. Two
differences: ``__annotations__`` keeps the annotations as written, not checked by ``typing``;
and the class is made without :func:`eval`. ``namedtuple`` compiles each class's ``__new__``
from source (a tenth of a millisecond, for the dozens of record classes a short process
makes); here a class's ``__new__`` takes all its fields in order, and the first records made
another way (by keyword, with a default) are put together in Python; only the class's
:data:`COMPILE_AFTER`-th such record compiles ``namedtuple``'s own ``__new__`` for it. Unpickling a cached ruleset never needs it.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING

GenericAlias = type(list[int])  # types.GenericAlias, without importing types (start-up time)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# A class's records made by name or with defaults before its constructor is compiled (a named
# tuple's ``__new__`` here, a record's ``__init__`` in havoc.core.record): a short process makes
# a few of each (a compile costs more than a hundred of them), a server thousands.
COMPILE_AFTER = 64


def bound(
    fields: tuple[str, ...], args: tuple[Any, ...], kwargs: dict[str, Any], defaults: Mapping[str, Any]
) -> list[Any] | None:
    """A call's arguments as the values of ``fields`` in order, a field given by neither taken
    from ``defaults``; None for a call that does not read so (too many, a field missing, a
    keyword no field has), which the class's compiled constructor then refuses in its own words.
    The one reading of a call for both kinds of record made before :data:`COMPILE_AFTER`."""
    if len(args) > len(fields):
        return None
    values, named = list(args), 0
    for field in fields[len(args) :]:
        if field in kwargs:
            values.append(kwargs[field])
            named += 1
        elif field in defaults:
            values.append(defaults[field])
        else:
            return None
    return values if named == len(kwargs) else None


try:
    from _collections import _tuplegetter  # namedtuple's own field accessor
except ImportError:  # pragma: no cover - other Python builds
    from operator import itemgetter

    def _tuplegetter(index: int, doc: str) -> Any:
        return property(itemgetter(index), doc=doc)


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


def _namedtuple(name: str, fields: tuple[str, ...], defaults: tuple[object, ...], module: str) -> type:
    """``collections.namedtuple(name, fields, defaults=defaults, module=module)``, but for its
    ``__new__`` (see the module's docstring)."""
    n = len(fields)
    tuple_new = tuple.__new__

    field_defaults = dict(zip(fields[n - len(defaults) :], defaults, strict=True))
    uncompiled = [COMPILE_AFTER]  # records made by name or with defaults before compiling

    def __new__(cls: Any, *args: object, **kwargs: object) -> Any:
        if not kwargs and len(args) == n:
            return tuple_new(cls, args)
        uncompiled[0] -= 1
        values = bound(fields, args, kwargs, field_defaults) if uncompiled[0] > 0 else None
        if values is not None:
            return tuple_new(cls, values)
        return _compiled_new(cls)(cls, *args, **kwargs)  # (and its own error for a wrong call)

    __new__.__doc__ = f"Create new instance of {name}({', '.join(fields)})"

    @classmethod  # type: ignore[misc]
    def _make(cls: Any, iterable: Any) -> Any:
        result = tuple_new(cls, iterable)
        if len(result) != n:
            raise TypeError(f"Expected {n} arguments, got {len(result)}")
        return result

    _make.__func__.__doc__ = f"Make a new {name} object from a sequence or iterable"  # type: ignore[attr-defined]

    def _replace(self: Any, /, **kwds: object) -> Any:
        result = self._make(map(kwds.pop, fields, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    _replace.__doc__ = f"Return a new {name} object replacing specified fields with new values"
    shown = "(" + ", ".join(f"{f}=%r" for f in fields) + ")"

    def __repr__(self: tuple[object, ...]) -> str:
        """Return a nicely formatted representation string"""
        return self.__class__.__name__ + shown % self

    def _asdict(self: tuple[object, ...]) -> dict[str, object]:
        """Return a new dict which maps field names to their values."""
        return dict(zip(fields, self, strict=False))

    def __getnewargs__(self: tuple[object, ...]) -> tuple[object, ...]:
        """Return self as a plain tuple.  Used by copy and pickle."""
        return tuple(self)

    for method in (__new__, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):  # type: ignore[attr-defined]
        method.__qualname__ = f"{name}.{method.__name__}"
    namespace: dict[str, object] = {
        "__doc__": f"{name}({', '.join(fields)})",
        "__slots__": (),
        "_fields": fields,
        "_field_defaults": field_defaults,
        "__new__": __new__,
        "_make": _make,
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
        "__match_args__": fields,
        "__class_getitem__": classmethod(GenericAlias),
    }
    for index, field in enumerate(fields):
        namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
    made = type(name, (tuple,), namespace)
    made.__module__ = module
    return made


def _compiled_new(cls: Any) -> Any:
    """``namedtuple``'s ``__new__`` for ``cls`` (named arguments, defaults), compiled now and
    put on the class for every later record."""
    fields: tuple[str, ...] = cls._fields
    arguments = ", ".join(fields)
    namespace = {"_tuple_new": tuple.__new__, "__builtins__": {}, "__name__": f"namedtuple_{cls.__name__}"}
    body = f"({arguments},)" if arguments else "()"
    # the field names are identifiers from a class body
    made = eval(f"lambda _cls, {arguments}: _tuple_new(_cls, {body})", namespace)
    made.__name__ = "__new__"
    made.__qualname__ = f"{cls.__name__}.__new__"
    made.__doc__ = cls.__new__.__doc__
    made.__annotations__ = cls.__new__.__annotations__
    made.__defaults__ = tuple(cls._field_defaults.values()) or None
    made.__module__ = cls.__module__
    cls.__new__ = staticmethod(made)
    return made


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
        made = _namedtuple(name, tuple(annotations), tuple(defaults), str(ns["__module__"]))
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
