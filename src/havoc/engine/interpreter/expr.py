"""The condition language of ``check`` blocks, compiled once into Python closures.

Expressions are plain data (see ``rules/README.md``, "Conditions"). Compiling them when a
ruleset is first used, instead of walking the data on every question, is what makes
thousands of answers per second possible. While evaluating, every fact read is recorded with
its value in ``Context.used``: that record is what an answer cites. ``all``/``any`` stop at
the first deciding operand, so only the facts that mattered are cited.
"""

from __future__ import annotations

import _operator as operator  # the functions operator.py gives, without reading operator.py (start-up time)
from _collections_abc import Callable  # collections.abc without importing collections

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, Problem, RulebookError
from havoc.engine.conditions import OPS, _mul

if TYPE_CHECKING:
    from typing import Any, Final
else:
    Any = object  # named only in annotations and aliases

# The evaluation context is the game's (it reads the position and the question); the engine only
# needs its fact cache (``cache``), the facts read (``used``), the subject Regions (``subject``)
# and the figures of the check being evaluated (``figs``, ``fig_src``, ``fig_busy``).
Context = Any
Compiled = Callable[[Context], Any]
Resolver = Callable[[str], Any]  # a fact's name -> (implementation, subject) or None

_MISS: Final = object()


class ExprError(Exception):
    """A check that cannot be evaluated (a rule-data bug, reported as a RulebookError)."""


def _num(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ExprError(f"expected a whole number, found {value!r}")


def compile_expr(e: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    """Compile one expression; ``params`` gives a parameter's value (fixed per ruleset), ``resolve``
    the game's implementation of a fact."""
    if e is None or isinstance(e, (bool, int, float, str)):
        value = e
        return lambda ctx: value
    if isinstance(e, list):
        parts = [compile_expr(x, params, resolve) for x in e]
        return lambda ctx: [p(ctx) for p in parts]
    if not isinstance(e, dict) or len(e) != 1:
        raise ExprError(f"not an expression: {e!r}")
    ((op, arg),) = e.items()
    special = _SPECIAL.get(op)
    if special is not None:
        return special(arg, params, resolve)
    args = [compile_expr(x, params, resolve) for x in arg] if isinstance(arg, list) else []
    return _table_op(op, args)


def _c_fact(arg: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    return _fact(str(arg), resolve)


def _c_param(arg: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    value = params(str(arg))
    return lambda ctx: value


def _c_figure(arg: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    name = str(arg)
    return lambda ctx: _figure(ctx, name)


def _c_not(arg: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    inner = compile_expr(arg, params, resolve)
    return lambda ctx: not inner(ctx)


def _c_all(arg: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    args = [compile_expr(x, params, resolve) for x in arg]

    def all_of(ctx: Context) -> bool:
        for a in args:  # noqa: SIM110 - a plain loop is faster than all() over a generator
            if not a(ctx):
                return False
        return True

    return all_of


def _c_any(arg: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    args = [compile_expr(x, params, resolve) for x in arg]

    def any_of(ctx: Context) -> bool:
        for a in args:  # noqa: SIM110 - a plain loop is faster than any() over a generator
            if a(ctx):
                return True
        return False

    return any_of


def _c_in(arg: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    """The one operator with a literal list: compiled to a tuple lookup."""
    needle = compile_expr(arg[0], params, resolve)
    hay = tuple(arg[1]) if isinstance(arg[1], list) else ()
    return lambda ctx: needle(ctx) in hay


# The leaves and the operators that short-circuit or take a literal list; every other operator
# is evaluated from the one table (havoc.engine.conditions.OPS).
_SPECIAL: Final[dict[str, Callable[[Any, Callable[[str], Any], Resolver], Compiled]]] = {
    "fact": _c_fact,
    "param": _c_param,
    "figure": _c_figure,
    "not": _c_not,
    "all": _c_all,
    "any": _c_any,
    "in": _c_in,
}


def _table_op(op: str, args: list[Compiled]) -> Compiled:
    spec = OPS.get(op)
    if spec is None or spec.evaluate is None:
        raise ExprError(f"unknown operator {op!r}")
    fn = spec.evaluate
    if spec.result == "bool":  # a comparison (the table's operand types were checked on load)
        left, right = args[0], args[1]

        def compare(ctx: Context) -> bool:
            a, b = left(ctx), right(ctx)
            try:
                return bool(fn(a, b))
            except TypeError:
                raise ExprError(f"{op}: cannot compare {a!r} with {b!r}") from None

        return compare
    if len(args) == 2:  # a binary operator, or an n-ary one (add, max …) given two operands
        a0, a1 = args

        def binary(ctx: Context) -> Any:
            try:
                return fn(_num(a0(ctx)), _num(a1(ctx)))
            except ZeroDivisionError:
                raise ExprError("division by zero") from None

        return binary
    return lambda ctx: fn(*[_num(a(ctx)) for a in args])


def _fact(name: str, resolve: Resolver) -> Compiled:
    found = resolve(name)
    if found is None:
        raise ExprError(f"unknown fact {name!r} (the game does not implement it)")
    impl, subject = found
    fn = impl.fn
    if subject is None:

        def get(ctx: Context) -> Any:
            value = ctx.cache.get(name, _MISS)
            if value is _MISS:
                value = ctx.cache[name] = fn(ctx)
            ctx.used[name] = value
            return value

        return get

    def get_regional(ctx: Context) -> Any:
        value = ctx.cache.get(name, _MISS)
        if value is _MISS:
            value = ctx.cache[name] = fn(ctx, ctx.subject(subject))
        ctx.used[name] = value
        return value

    return get_regional


def _figure(ctx: Context, name: str) -> Any:
    value = ctx.figs.get(name, _MISS)
    if value is not _MISS:
        return value
    if name in ctx.fig_busy:
        raise ExprError(f"figure {name!r} refers to itself")
    src = ctx.fig_src.get(name)
    if src is None:
        raise ExprError(f"unknown figure {name!r}")
    ctx.fig_busy.add(name)
    try:
        value = ctx.figs[name] = src(ctx)
    finally:
        ctx.fig_busy.discard(name)
    return value


def rule_error(file: str, line: int, rule_id: str, exc: Exception) -> RulebookError:
    """A check that failed to evaluate is a bug in the rules, located at the rule."""
    return RulebookError([Problem(file, line, f"rule {rule_id}.check: {exc}", code=Code.RULE_CHECK)])


# --- checks as Python functions -----------------------------------------------------------------
# A check asked about over and over (a server, a program asking thousands of questions) is
# compiled a second time, into one Python function per expression: the same operations in the
# same order (facts read and cited in the same order, the same short-circuits and errors), without
# a closure call per operand. Only expressions compile_expr has already accepted come here.


def compile_source(e: Any, params: Callable[[str], Any], resolve: Resolver) -> Compiled:
    """``e`` (already compiled by :func:`compile_expr`, so known to be valid) as one function."""
    gen = _Gen(params, resolve)
    result = gen.expr(e)
    # the fact cache and the record of facts read, looked up once: no fact re-points them (the
    # engine sets ``used`` before each check, and a figure's check shares its rule's)
    head = " cache = ctx.cache\n used = ctx.used\n" if gen.reads_facts else ""
    head += gen.head()
    source = "def check(ctx):\n" + head + "".join(line + "\n" for line in gen.lines) + f" return {result}\n"
    env = gen.env
    exec(source, env)  # the source is made of temporaries and constants this module names, never of rule text
    check: Compiled = env["check"]
    return check


# The table's operators that are Python's own on whole numbers, bools and names, written inline
# (the same result as calling the table's function, without the call).
_INFIX: Final[dict[Callable[..., Any], str]] = {
    operator.eq: "==",
    operator.ne: "!=",
    operator.lt: "<",
    operator.le: "<=",
    operator.gt: ">",
    operator.ge: ">=",
    operator.sub: "-",
    _mul: "*",  # the product of whole numbers
    OPS["add"].evaluate: "+",  # type: ignore[dict-item]  # the sum of whole numbers
}


def _compare_error(op: str, a: Any, b: Any) -> ExprError:
    return ExprError(f"{op}: cannot compare {a!r} with {b!r}")


class _Gen:
    """Statements that evaluate one expression into temporaries (``t0``, ``t1`` …)."""

    def __init__(self, params: Callable[[str], Any], resolve: Resolver) -> None:
        self.params = params
        self.resolve = resolve
        self.lines: list[str] = []
        self.depth = 1
        self.env: dict[str, Any] = {
            "_MISS": _MISS,
            "_num": _num,
            "_figure": _figure,
            "ExprError": ExprError,
            "_compare_error": _compare_error,
        }
        self.count = 0
        self.reads_facts = False
        # facts already read on every path to the current statement: their temporary holds the
        # value (the fact cache never changes a value once read), so a later read only cites it
        self.known: dict[str, str] = {}
        self.subjects: dict[str, str] = {}  # subject -> the local holding its Region (None until needed)
        # a function run on an empty fact cache (``fresh``): the facts that may be in it by now, and
        # those the figures of the rule being written read (a figure read by name may run them)
        self.fresh = False
        self.maybe: set[str] = set()
        self.figure_facts: set[str] = set()

    def head(self) -> str:
        """The statements a function starts with: each subject Region's local, not yet looked up."""
        return "".join(f" {s} = None\n" for s in self.subjects.values())

    def emit(self, line: str) -> None:
        self.lines.append(" " * self.depth + line)

    def temp(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def const(self, value: Any) -> str:
        name = f"k{len(self.env)}"
        self.env[name] = value
        return name

    def expr(self, e: Any) -> str:
        if e is None or isinstance(e, (bool, int, float, str)):
            return self.const(e)
        if isinstance(e, list):
            parts = [self.expr(x) for x in e]
            t = self.temp()
            self.emit(f"{t} = [{', '.join(parts)}]")
            return t
        ((op, arg),) = e.items()
        if op == "fact":
            return self.fact(str(arg))
        if op == "param":
            return self.const(self.params(str(arg)))
        if op == "figure":
            t = self.temp()
            self.emit(f"{t} = _figure(ctx, {self.const(str(arg))})")
            self.maybe |= self.figure_facts  # the figure's own functions may have read these
            return t
        if op == "not":
            inner = self.expr(arg)
            t = self.temp()
            self.emit(f"{t} = not {inner}")
            return t
        if op in ("all", "any"):
            return self.chain(op == "all", list(arg))
        if op == "in":
            needle = self.expr(arg[0])
            hay = self.const(tuple(arg[1]) if isinstance(arg[1], list) else ())
            t = self.temp()
            self.emit(f"{t} = {needle} in {hay}")
            return t
        return self.table(op, arg if isinstance(arg, list) else [])

    def fact(self, name: str) -> str:
        found = self.resolve(name)
        if found is None:
            raise ExprError(f"unknown fact {name!r} (the game does not implement it)")
        impl, subject = found
        key, t = self.const(name), self.known.get(name)
        if t is not None:
            self.emit(f"used[{key}] = {t}")
            return t
        fn, t = self.const(impl.fn), self.temp()
        self.reads_facts = True
        self.known[name] = t
        # on a context whose cache was empty, a fact no earlier statement may have read is not
        # in the cache: it is read at once, without looking
        direct = self.fresh and name not in self.maybe
        self.maybe.add(name)
        pad = "" if direct else " "
        if not direct:
            self.emit(f"{t} = cache.get({key}, _MISS)")
            self.emit(f"if {t} is _MISS:")
        if subject is None:
            call = f"{fn}(ctx)"
        else:  # the subject Region, looked up on the first fact about it that is not cached yet
            s = self.subjects.get(subject)
            if s is None:
                s = self.subjects[subject] = f"s{len(self.subjects)}"
            looked = "@" + subject  # (no fact's name starts with @)
            if looked not in self.known:
                self.emit(f"{pad}if {s} is None:")
                self.emit(f"{pad} {s} = ctx.subject({self.const(subject)})")
                if direct:  # looked up on every path from here on
                    self.known[looked] = s
            call = f"{fn}(ctx, {s})"
        self.emit(f"{pad}{t} = cache[{key}] = {call}")
        self.emit(f"used[{key}] = {t}")
        return t

    def chain(self, every: bool, args: list[Any]) -> str:
        """``all`` (``every``) or ``any``: stops at the first operand that decides, as the closures do."""
        t = self.temp()
        self.emit(f"{t} = {not every}")
        depth, known = self.depth, None
        for a in args:
            value = self.expr(a)
            if known is None:  # what the first operand read is read on every path; the rest may not be
                known = dict(self.known)
            self.emit(f"if {value}:" if every else f"if not {value}:")
            self.depth += 1
        self.emit(f"{t} = {every}")
        self.depth = depth
        if known is not None:
            self.known = known
        return t

    def num(self, value: str) -> str:
        """``_num(value)`` into a temporary; a plain int (most operands) is itself, without the call."""
        n = self.temp()
        self.emit(f"{n} = {value} if {value}.__class__ is int else _num({value})")
        return n

    def table(self, op: str, args: list[Any]) -> str:
        spec = OPS[op]
        fn = self.const(spec.evaluate)
        t = self.temp()
        infix = _INFIX.get(spec.evaluate)  # type: ignore[arg-type]
        if spec.result == "bool":  # a comparison: both operands, then the operator
            a, b = self.expr(args[0]), self.expr(args[1])
            self.emit("try:")
            # the operands are bools, numbers or names (checked on load): the operator gives a bool
            self.emit(f" {t} = {a} {infix} {b}" if infix else f" {t} = bool({fn}({a}, {b}))")
            self.emit("except TypeError:")
            self.emit(f" raise _compare_error({self.const(op)}, {a}, {b}) from None")
            return t
        if len(args) == 2:  # binary: a division by zero anywhere inside is the rule's error
            self.emit("try:")
            self.depth += 1
            a = self.expr(args[0])
            n = self.num(a)
            b = self.num(self.expr(args[1]))
            self.emit(f"{t} = {n} {infix} {b}" if infix else f"{t} = {fn}({n}, {b})")
            self.depth -= 1
            self.emit("except ZeroDivisionError:")
            self.emit(' raise ExprError("division by zero") from None')
            return t
        nums = []
        for x in args:
            nums.append(self.num(self.expr(x)))
        self.emit(f"{t} = {f' {infix} '.join(nums)}" if infix else f"{t} = {fn}({', '.join(nums)})")
        return t
