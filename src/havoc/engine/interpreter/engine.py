"""The rules in force for one ruleset and variant, with their checks compiled, by query kind.

An :class:`Engine` is built once per (ruleset, variant) and cached: it holds the compiled
``applies-if``/``requires``/``figures`` of every rule whose check lists a query kind, in
rulebook order. Evaluating a kind against a :class:`Context` gives one :class:`RuleResult`
per rule that applies; the mechanisms in ``queries`` and ``battle`` read those.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, HavocError, Problem, RulebookError
from havoc.engine.conditions import OPS
from havoc.engine.interpreter.expr import (
    Compiled,
    Context,
    ExprError,
    Resolver,
    _Gen,
    compile_expr,
    compile_source,
    rule_error,
)
from havoc.engine.rulebook.model import Rule, Ruleset

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol
else:
    Protocol = object  # named only in annotations and aliases


class FactSource(Protocol):
    """What the engine needs of a game: how its facts are read (a game package offers it).

    Its ``needs_of(*exprs)``, when it has one, says what a check reads that only some
    questions supply (so a probe can skip the rule).
    """

    def resolve_fact(self, name: str) -> Any: ...


class CompiledRule:
    """A rule's check, compiled: ``applies``/``requires``/``figures`` as closures."""

    __slots__ = ("applies", "fast", "figures", "needs", "requires", "rule")

    def __init__(
        self,
        rule: Rule,
        applies: Compiled | None,
        requires: Compiled | None,
        figures: dict[str, Compiled],
        needs: frozenset[str],
    ) -> None:
        self.rule = rule
        self.applies = applies
        self.requires = requires
        self.figures = figures
        self.needs = needs  # what a question must supply: from, to, region, structure, skill, objectives
        self.fast = False  # compiled as functions (Engine._speed_up), not closures


class RuleResult:
    """What one rule said about one question.

    ``open`` names the facts the question left out (:meth:`Engine.settle`) on which this rule's
    verdict hangs: the rule was not checked (``passed`` is None) for want of them. Its slot is
    set only then, so the hot loop that makes results never pays for it."""

    __slots__ = ("_open", "facts", "figures", "passed", "rule")
    _open: tuple[str, ...]  # set by Engine.settle only (read through ``open``)

    def __init__(self, rule: Rule, passed: bool | None, figures: dict[str, Any], facts: dict[str, Any]) -> None:
        self.rule = rule
        self.passed = passed  # the requirement held (None: the rule has no requirement)
        self.figures = figures
        self.facts = facts

    @property
    def open(self) -> tuple[str, ...]:
        """The left-out facts this rule could not be checked without (empty: it was checked)."""
        found: tuple[str, ...] = getattr(self, "_open", ())
        return found

    def __repr__(self) -> str:
        return f"RuleResult({self.rule.id}, passed={self.passed}, figures={self.figures}, facts={self.facts})"


_new_result = object.__new__
_MISSING = object()

# How many questions of a kind are answered with closures before its checks are compiled as
# functions (compiling costs about what 50 questions save): one `havoc ask`, or one legal-actions
# report on a 20-Region table (21 move probes), never pays for it; a server or a loop soon does.
_CLOSURE_USES = 50


class Engine:
    """Compiled checks of the rules in force, by query kind."""

    def __init__(self, rs: Ruleset, variant: str | None, played: FactSource) -> None:
        self.rs = rs
        self.variant = variant
        self.view = rs.view(variant)
        self.resolve = played.resolve_fact
        self.needs_of: Callable[..., frozenset[str]] = getattr(played, "needs_of", _no_needs)
        self.by_kind: dict[str, list[CompiledRule]] = {}
        # Which rules each kind consults, in reading order; compiled on first use, so a
        # process that answers one question compiles only the checks it needs.
        self._pending: dict[str, list[Rule]] = {}
        order = _reading_order(rs)
        for rule in sorted(self.view.rules.values(), key=lambda r: order.get(r.id, len(order))):
            if rule.check is not None:
                for kind in rule.check.queries:
                    self._pending.setdefault(kind, []).append(rule)
        self._compiled: dict[str, CompiledRule] = {}
        self._first: dict[str, list[CompiledRule]] = {}  # compiled as closures, not yet asked often
        self._asked: dict[str, int] = {}
        self._subs: dict[int, list[Any]] = {}  # id -> [the part, its compiled form, times asked]
        # each kind's rules evaluated by one Python function, once the kind is asked often
        # (for a context with an empty fact cache, for any context)
        self._programs: dict[str, tuple[Callable[[Context], list[RuleResult]], ...] | None] = {}

    def _compile(self, rule: Rule) -> CompiledRule:
        found = self._compiled.get(rule.id)
        if found is not None:
            return found
        check = rule.check
        assert check is not None
        try:
            found = CompiledRule(
                rule,
                compile_expr(check.applies_if, self.param, self.resolve) if check.applies_if is not None else None,
                compile_expr(check.requires, self.param, self.resolve) if check.requires is not None else None,
                {name: compile_expr(e, self.param, self.resolve) for name, e in check.figures.items()},
                self.needs_of(check.applies_if, check.requires, *check.figures.values()),
            )
        except ExprError as exc:
            raise rule_error(rule.loc.file, rule.loc.line, rule.id, exc) from None
        self._compiled[rule.id] = found
        return found

    def sub(self, e: Any) -> Compiled:
        """A compiled part of a check (explaining a "no" walks the parts); kept per expression:
        a closure for its first uses, a Python function (:func:`compile_source`) once it is
        asked for again and again, as the checks themselves are (:meth:`rules_for`)."""
        key = id(e)
        found = self._subs.get(key)
        if found is None or found[0] is not e:
            found = self._subs[key] = [e, compile_expr(e, self.param, self.resolve), 0]
        elif found[2] <= _CLOSURE_USES:
            found[2] += 1
            if found[2] > _CLOSURE_USES:
                try:  # noqa: SIM105 - contextlib costs a context manager; this runs once per part
                    found[1] = self.source(e)  # either form gives the same value, reading the same facts
                except (SyntaxError, RecursionError, MemoryError):
                    pass
        fn: Compiled = found[1]
        return fn

    def param(self, name: str) -> Any:
        """A parameter's value; a missing one is a rulebook problem, named."""
        p = self.rs.params.get(name)
        if p is None:
            raise RulebookError(
                [
                    Problem(
                        f"{self.rs.id}",
                        None,
                        f"the interpreter needs parameter {name!r}, which no rule defines",
                        code=Code.PARAM_UNKNOWN,
                    )
                ]
            )
        return p.value

    def int_param(self, name: str) -> int:
        value = self.param(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulebookError(
                [
                    Problem(
                        self.rs.id,
                        None,
                        f"parameter {name!r} must be a whole number, found {value!r}",
                        code=Code.PARAM_TYPE,
                    )
                ]
            )
        return value

    def rules_for(self, kind: str) -> list[CompiledRule]:
        """The compiled checks of ``kind``, in reading order: as closures for its first questions
        (a short process compiles no source), as functions once it is asked about again and again."""
        found = self.by_kind.get(kind)
        if found is None:
            found = self._first.get(kind)
            if found is None:
                found = self._first[kind] = [self._compile(rule) for rule in self._pending.get(kind, ())]
            self._asked[kind] = asked = self._asked.get(kind, 0) + 1
            if asked > _CLOSURE_USES:
                for cr in found:
                    self._speed_up(cr)
                self._programs[kind] = self._program(found)
                self.by_kind[kind] = found
        return found

    def _speed_up(self, cr: CompiledRule) -> None:
        """A rule's check as Python functions (:func:`compile_source`), in place: every list and
        probe holding the rule gets them. A check too deeply nested for Python keeps its closures."""
        if cr.fast:
            return
        cr.fast = True
        check = cr.rule.check
        assert check is not None
        try:
            applies = self.source(check.applies_if) if check.applies_if is not None else None
            requires = self.source(check.requires) if check.requires is not None else None
            figures = {name: self.source(e) for name, e in check.figures.items()}
        except (SyntaxError, RecursionError, MemoryError):
            return
        # new objects, never the old ones changed: a thread answering with the closures meanwhile
        # (a server) finishes with them; either form gives the same answer
        cr.applies, cr.requires, cr.figures = applies, requires, figures

    def _program(self, rules: list[CompiledRule]) -> tuple[Callable[[Context], list[RuleResult]], ...] | None:
        """The loop of :meth:`evaluate` over ``rules`` as one Python function, every check written
        out in it (:func:`rules_source`), for a context with an empty fact cache and for any; None
        when a check is too deeply nested for Python."""
        if not all(cr.fast for cr in rules):
            return None
        try:
            return tuple(rules_source(rules, self.param, self.resolve, fresh) for fresh in (True, False))
        except (SyntaxError, RecursionError, MemoryError):
            return None

    def source(self, e: Any) -> Compiled:
        return compile_source(e, self.param, self.resolve)

    def evaluate(self, kind: str, ctx: Context, only: Callable[[CompiledRule], bool] | None = None) -> list[RuleResult]:
        """Every rule of ``kind`` that applies in ``ctx``, with its verdict, figures and facts
        (with the facts the question left out taken into account: :meth:`settle`)."""
        out: list[RuleResult]
        if only is None:
            programs = self._programs.get(kind)
            if programs is not None:
                out = programs[0](ctx) if not ctx.cache else programs[1](ctx)
                return out if getattr(ctx, "open", None) is None else self.settle(out, ctx)
        out = []
        add = out.append
        new = _new_result
        for cr in self.by_kind.get(kind) or self.rules_for(kind):
            if only is not None and not only(cr):
                continue
            # evaluate_rule, inline: this loop is most of what answering a question costs
            used: dict[str, Any] = {}
            figures = cr.figures
            figs: dict[str, Any] = {}
            ctx.used = used
            ctx.figs = figs
            ctx.fig_src = figures
            try:
                applies = cr.applies
                if applies is not None and not applies(ctx):
                    continue
                if figures:
                    for name, fn in figures.items():
                        if name not in figs:  # a figure another one used is already there
                            figs[name] = fn(ctx)
                requires = cr.requires
                passed = bool(requires(ctx)) if requires is not None else None
            except HavocError:
                raise
            except (ExprError, TypeError, ValueError, ArithmeticError) as exc:
                raise rule_error(cr.rule.loc.file, cr.rule.loc.line, cr.rule.id, exc) from None
            r = new(RuleResult)  # RuleResult(cr.rule, passed, figs, used), without the call of __init__
            r.rule = cr.rule
            r.passed = passed
            r.figures = figs
            r.facts = used
            add(r)
        return out if getattr(ctx, "open", None) is None else self.settle(out, ctx)

    def settle(self, out: list[RuleResult], ctx: Context) -> list[RuleResult]:
        """The results ``out`` with the facts the question left out (``ctx.open``: each fact's
        name and a value as far from the one it was read with as the question allows, e.g. points
        given as 0 and as plenty) taken into account: a rule that read one is evaluated again with
        those values. Where its verdict changes, the rule is not checked (``passed`` None, its
        ``open`` naming the facts), since the question did not say; a figure that changes is left
        out, since it would be a guess. Either way the left-out fact is cited as ``None`` (not
        given), never as the stand-in it was read with. Returns ``out``, changed in place."""
        opened: dict[str, Any] = ctx.open
        for r in out:
            facts = r.facts
            hit = [name for name in opened if name in facts]
            if not hit:
                continue
            cr = self._compiled[r.rule.id]
            cache, kept = ctx.cache, (ctx.used, ctx.figs, ctx.fig_src)
            before = {name: cache.get(name, _MISSING) for name in hit}
            for name in hit:
                cache[name] = opened[name]
            try:
                other = self.evaluate_rule(cr, ctx)
            finally:
                for name, value in before.items():
                    if value is _MISSING:
                        cache.pop(name, None)
                    else:
                        cache[name] = value
                ctx.used, ctx.figs, ctx.fig_src = kept
            if other is None or other.passed != r.passed:
                r.passed = None
                r._open = tuple(hit)
            figures = r.figures
            for name in [n for n, v in figures.items() if other is None or other.figures.get(n, _MISSING) != v]:
                del figures[name]
            for name in hit:
                facts[name] = None
        return out

    def evaluate_rule(self, cr: CompiledRule, ctx: Context) -> RuleResult | None:
        used: dict[str, Any] = {}
        figs: dict[str, Any] = {}
        ctx.used = used
        ctx.figs = figs
        ctx.fig_src = cr.figures
        try:
            if cr.applies is not None and not cr.applies(ctx):
                return None
            for name, fn in cr.figures.items():
                if name not in figs:  # a figure another one used is already there
                    figs[name] = fn(ctx)
            passed = bool(cr.requires(ctx)) if cr.requires is not None else None
        except ExprError as exc:
            raise rule_error(cr.rule.loc.file, cr.rule.loc.line, cr.rule.id, exc) from None
        except HavocError:
            raise
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise rule_error(cr.rule.loc.file, cr.rule.loc.line, cr.rule.id, exc) from None
        return RuleResult(cr.rule, passed, figs, used)


_EVALUATION_ERRORS = (ExprError, TypeError, ValueError, ArithmeticError)


def rules_source(
    rules: list[CompiledRule], params: Callable[[str], Any], resolve: Resolver, fresh: bool = False
) -> Callable[[Context], list[RuleResult]]:
    """What :meth:`Engine.evaluate` does for ``rules`` (with no filter), as one Python function:
    each rule's ``applies-if``, figures and ``requires`` written out in turn (:class:`~havoc.
    interpreter.expr._Gen`, the same statements :func:`compile_source` makes), so the facts are
    read and cited in the same order, with the same short-circuits, results and errors, without
    a call per check or a loop over the rules. A ``fresh`` function is for a context whose fact
    cache is empty (it reads a fact it cannot have read yet without looking in the cache)."""
    gen = _Gen(params, resolve)
    gen.fresh = fresh
    gen.env.update(_new=_new_result, _Result=RuleResult, HavocError=HavocError, _errors=_EVALUATION_ERRORS)
    gen.env["_rule_error"] = _rule_error
    gen.emit("out = []")
    gen.emit("add = out.append")
    gen.emit("cache = ctx.cache")
    figures = ""
    for cr in rules:
        check = cr.rule.check
        assert check is not None
        rule, figures = gen.const(cr.rule), gen.const(cr.figures)
        gen.figure_facts = {name for e in check.figures.values() for name in fact_names(e)}
        gen.emit("used = {}")
        gen.emit("figs = {}")
        if _names_figure(check.applies_if, check.requires, *check.figures.values()):
            # a figure read by name is worked out by the engine's own functions, which find the
            # rule's facts, figures and their sources on the context
            gen.emit("ctx.used = used")
            gen.emit("ctx.figs = figs")
            gen.emit(f"ctx.fig_src = {figures}")
        opened = _open_rule(gen, check.applies_if)
        for name, e in check.figures.items():
            key = gen.const(name)
            gen.emit(f"if {key} not in figs:")  # a figure another one used is already there
            gen.depth += 1
            inside = dict(gen.known)
            value = gen.expr(e)
            gen.emit(f"figs[{key}] = {value}")
            gen.known = inside
            gen.depth -= 1
        passed = "None"
        if check.requires is not None:
            passed = gen.expr(check.requires)
            if not _gives_bool(check.requires):
                passed = f"bool({passed})"
        gen.emit("r = _new(_Result)")
        gen.emit(f"r.rule = {rule}")
        gen.emit(f"r.passed = {passed}")
        gen.emit("r.figures = figs")
        gen.emit("r.facts = used")
        gen.emit("add(r)")
        _close_rule(gen, opened, rule)
    if rules:  # the context as the engine's loop leaves it: the last rule's facts, figures and sources
        gen.emit("ctx.used = used")
        gen.emit("ctx.figs = figs")
        gen.emit(f"ctx.fig_src = {figures}")
    program: Callable[[Context], list[RuleResult]] = _function(gen, "evaluate", "out")
    return program


def holds_source(
    rules: list[CompiledRule] | tuple[CompiledRule, ...],
    params: Callable[[str], Any],
    resolve: Resolver,
    fresh: bool = False,
) -> Callable[[Context], bool]:
    """Whether no rule of ``rules`` says no in a context, as one Python function: each rule's
    ``applies-if`` then ``requires`` written out in turn (the statements of :func:`rules_source`),
    the first no ending it. Nothing is recorded but the facts read (in a fresh ``ctx.used``, as the
    closures record them); a figure read by name is worked out from the rule's own sources; a
    check that fails to evaluate is the rule's located error. For the rules that can say no of a
    probe asked again and again (the legal-actions report's candidates); ``fresh`` as there."""
    gen = _Gen(params, resolve)
    gen.fresh = fresh
    gen.env.update(HavocError=HavocError, _errors=_EVALUATION_ERRORS, _rule_error=_rule_error)
    gen.emit("used = ctx.used = {}")
    gen.emit("cache = ctx.cache")
    for cr in rules:
        check = cr.rule.check
        assert check is not None and check.requires is not None
        rule = gen.const(cr.rule)
        gen.figure_facts = {name for e in check.figures.values() for name in fact_names(e)}
        if _names_figure(check.applies_if, check.requires):
            gen.emit("ctx.figs = {}")
            gen.emit(f"ctx.fig_src = {gen.const(cr.figures)}")
        opened = _open_rule(gen, check.applies_if)
        passed = gen.expr(check.requires)
        gen.emit(f"if not {passed}:")
        gen.emit(" return False")
        _close_rule(gen, opened, rule)
    program: Callable[[Context], bool] = _function(gen, "holds", "True")
    return program


def _open_rule(gen: _Gen, applies_if: Any) -> tuple[int, dict[str, str] | None]:
    """Open a rule's ``try:`` (and its ``applies-if``) in generated code; what :func:`_close_rule` restores."""
    gen.emit("try:")
    depth = gen.depth
    gen.depth += 1
    known = None
    if applies_if is not None:
        applies = gen.expr(applies_if)
        known = dict(gen.known)  # what the rule reads once it applies is read on some paths only
        gen.emit(f"if {applies}:")
        gen.depth += 1
    return depth, known


def _close_rule(gen: _Gen, opened: tuple[int, dict[str, str] | None], rule: str) -> None:
    """Close a rule opened by :func:`_open_rule`: a check that fails to evaluate is the rule's located error."""
    gen.depth, known = opened
    if known is not None:
        gen.known = known
    gen.emit("except HavocError:")
    gen.emit(" raise")
    gen.emit("except _errors as exc:")
    gen.emit(f" raise _rule_error({rule}, exc) from None")


def _function(gen: _Gen, name: str, result: str) -> Any:
    """The generated lines as the function ``name(ctx)`` returning ``result``."""
    source = f"def {name}(ctx):\n" + gen.head() + "".join(line + "\n" for line in gen.lines) + f" return {result}\n"
    env = gen.env
    exec(source, env)  # made of temporaries and constants this module names, never of rule text
    return env[name]


def _names_figure(*exprs: Any) -> bool:
    """Some expression reads a figure by name (``{figure: …}``)."""
    stack = list(exprs)
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "figure" in x:
                return True
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


def _gives_bool(e: Any) -> bool:
    """The expression's value is a bool as written (a comparison, ``not``, ``all``, ``any``, ``in``)."""
    if not isinstance(e, dict) or len(e) != 1:
        return False
    ((op, _),) = e.items()
    spec = OPS.get(op)
    return spec is not None and spec.result == "bool"


def _rule_error(rule: Rule, exc: Exception) -> RulebookError:
    return rule_error(rule.loc.file, rule.loc.line, rule.id, exc)


def fact_names(e: Any) -> set[str]:
    """Every fact an expression reads (statically, whatever the values)."""
    out: set[str] = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            for op, arg in x.items():
                if op == "fact" and isinstance(arg, str):
                    out.add(arg)
                else:
                    stack.append(arg)
        elif isinstance(x, list):
            stack.extend(x)
    return out


def _no_needs(*exprs: Any) -> frozenset[str]:
    return frozenset()


def _reading_order(rs: Ruleset) -> dict[str, int]:
    """Rules in book order (parts, sections, rules), then overlay rules: later ones override."""
    order: dict[str, int] = {}
    for part in rs.parts:
        for sid in part.section_ids:
            for rid in rs.sections[sid].rule_ids:
                order.setdefault(rid, len(order))
    for overlay in rs.overlays.values():
        for rid in overlay.rule_ids:
            order.setdefault(rid, len(order))
    for rid in rs.rules:
        order.setdefault(rid, len(order))
    return order


_engines: dict[tuple[int, str, str | None], Engine] = {}


def engine(rs: Ruleset, variant: str | None, played: FactSource) -> Engine:
    """The cached engine of a ruleset (keyed by its identity and content) and variant, reading
    facts the way ``played`` (the ruleset's game, given by the caller) says."""
    key = (id(rs), rs.fingerprint, variant)
    found = _engines.get(key)
    if found is None or found.rs is not rs:
        found = _engines[key] = Engine(rs, variant, played)
    return found


def merge_figures(results: list[RuleResult]) -> dict[str, Any]:
    """Figures of every applying rule; a later rule (an exception, an overlay) overrides."""
    out: dict[str, Any] = {}
    for r in results:
        out.update(r.figures)
    return out
