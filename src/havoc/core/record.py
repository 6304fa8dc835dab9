"""Plain slotted record classes for the hot path, without importing :mod:`dataclasses`.

``havoc ask`` is a short process: importing ``dataclasses`` (and ``inspect``, which it pulls in)
and generating each class's methods with ``exec`` cost more than answering the question. A
``@record`` class is declared like a dataclass (annotations, defaults, :func:`field` with a
``default_factory``) and type checkers read it as one (PEP 681); it gets ``__slots__``, an
``__init__`` (positional or keyword), ``__eq__``, ``__repr__``, pickling, and with
``frozen=True`` immutability and a hash. :func:`replace` copies one with some fields changed.
Only the ``__init__`` is generated as source, and only once a class has made a few dozen
records (a short process compiles none; a server answers with plain slot assignments).
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.tuples import COMPILE_AFTER, bound

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform, overload

    T = TypeVar("T")
else:  # at run time the decorator only marks the function for type checkers

    def dataclass_transform(**kwargs: object) -> Callable[[Callable[..., object]], Callable[..., object]]:
        return lambda fn: fn


_MISSING = object()


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None) -> Any:
    """A field's default: a value, or a factory called for each new record (lists, dicts)."""
    if default_factory is not None:
        return _Factory(default_factory)
    return default


def _build(cls: type, frozen: bool) -> type:
    annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - inspect is what we avoid importing
    names = tuple(n for n in annotations if not n.startswith("_"))
    defaults: dict[str, Any] = {}
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    for name in names:
        if name in namespace:
            value = namespace.pop(name)
            if value is not _MISSING:
                defaults[name] = value
    namespace.update(_methods(cls.__name__, names, defaults, frozen))
    return type(cls.__name__, cls.__bases__, namespace)


def _init(clsname: str, names: tuple[str, ...], defaults: dict[str, Any], frozen: bool) -> Callable[..., None]:
    """The class's ``__init__``: its first records are filled in by a loop over the fields, and
    the :data:`COMPILE_AFTER`-th generates the class's own from its fields.

    A generated ``def __init__(self, a, b, c=…)`` assigns each slot directly (the hot path
    makes thousands of answers a second); generating it when the class is declared, or at its
    first record, would cost every short process an ``exec`` per class it uses, so only a
    class that makes many records compiles it, and puts it on the class in its own place. A
    call the loop cannot read (a missing or unknown argument) goes to the generated one, which
    says what is wrong as it always did.
    """
    setter = object.__setattr__ if frozen else setattr
    uncompiled = [COMPILE_AFTER]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        uncompiled[0] -= 1
        values = bound(names, args, kwargs, defaults) if uncompiled[0] > 0 else None
        if values is not None:
            for name, value in zip(names, values, strict=True):
                setter(
                    self, name, value.make() if value is defaults.get(name) and isinstance(value, _Factory) else value
                )
            return
        cls = self.__class__
        own = _generated_init(clsname, names, defaults, frozen)
        for klass in cls.__mro__:  # the record class itself (a subclass may inherit it)
            if klass.__dict__.get("__init__") is __init__:
                type.__setattr__(klass, "__init__", own)
        own(self, *args, **kwargs)

    return __init__


def _generated_init(
    clsname: str, names: tuple[str, ...], defaults: dict[str, Any], frozen: bool
) -> Callable[..., None]:
    required = [n for n in names if n not in defaults]
    if required != list(names[: len(required)]):  # a field without a default after one with: keywords
        return _keyword_init(clsname, names, defaults)
    env: dict[str, Any] = {"_setattr": object.__setattr__, "_MISSING": _MISSING}
    params, body = [], []
    for i, name in enumerate(names):
        value = defaults.get(name, _MISSING)
        if value is _MISSING:
            params.append(name)
        elif isinstance(value, _Factory):
            env[f"_f{i}"] = value.make
            params.append(f"{name}=_MISSING")
            body.append(f"  if {name} is _MISSING: {name} = _f{i}()")
        else:
            env[f"_d{i}"] = value
            params.append(f"{name}=_d{i}")
    for name in names:
        body.append(f"  _setattr(self, {name!r}, {name})" if frozen else f"  self.{name} = {name}")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["  pass"]) + "\n"
    exec(source, env)  # the source is made of the class's own field names only
    init: Callable[..., None] = env["__init__"]
    init.__qualname__ = f"{clsname}.__init__"
    return init


def _keyword_init(clsname: str, names: tuple[str, ...], defaults: dict[str, Any]) -> Callable[..., None]:
    setter = object.__setattr__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{clsname}() takes {len(names)} arguments, {len(args)} given")
        for name, value in zip(names, args, strict=False):
            setter(self, name, value)
        for name in names[len(args) :]:
            if name in kwargs:
                value = kwargs.pop(name)
            elif name in defaults:
                value = defaults[name]
                if isinstance(value, _Factory):
                    value = value.make()
            else:
                raise TypeError(f"{clsname}() missing argument {name!r}")
            setter(self, name, value)
        if kwargs:
            raise TypeError(f"{clsname}() got unexpected arguments {sorted(kwargs)}")

    return __init__


def _methods(clsname: str, names: tuple[str, ...], defaults: dict[str, Any], frozen: bool) -> dict[str, Any]:
    setter = object.__setattr__

    def values(self: Any) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in names)

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(values(self) == values(other))

    def __repr__(self: Any) -> str:
        return f"{clsname}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in names) + ")"

    def __getstate__(self: Any) -> tuple[Any, ...]:
        return values(self)

    def __setstate__(self: Any, state: tuple[Any, ...]) -> None:
        for name, value in zip(names, state, strict=True):
            setter(self, name, value)

    namespace: dict[str, Any] = dict(
        __slots__=names,
        __init__=_init(clsname, names, defaults, frozen),
        __eq__=__eq__,
        __repr__=__repr__,
        __getstate__=__getstate__,
        __setstate__=__setstate__,
        __record_fields__=names,
        __match_args__=names,
    )
    if frozen:

        def __setattr__(self: Any, name: str, value: Any) -> None:
            raise AttributeError(f"{clsname} is frozen: cannot set {name!r}")

        def __hash__(self: Any) -> int:
            return hash(values(self))

        namespace.update(__setattr__=__setattr__, __hash__=__hash__)
    else:
        namespace["__hash__"] = None
    return namespace


if TYPE_CHECKING:

    @overload
    def record(cls: type[T], /) -> type[T]: ...
    @overload
    def record(*, frozen: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field,))
def record(cls: Any = None, /, *, frozen: bool = False) -> Any:
    """Make ``cls`` a slotted record (see the module's docstring)."""
    if cls is None:
        return lambda c: _build(c, frozen)
    return _build(cls, frozen)


def replace(obj: T, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes`` (like :func:`dataclasses.replace`)."""
    names: tuple[str, ...] = obj.__class__.__record_fields__  # type: ignore[attr-defined]
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"{obj.__class__.__name__} has no field {sorted(unknown)}")
    return obj.__class__(**{n: changes[n] if n in changes else getattr(obj, n) for n in names})


__all__ = ["field", "record", "replace"]
