"""Walk a target cell in execution order over the live namespace, without running it.

The walker keeps an abstract environment for the names the cell binds: a real value when
the binding is a side-effect-free expression it could evaluate (a literal, an attribute
read statically, a whitelisted pure library call), else UNKNOWN. Rules look at every
attribute, subscript, call and arithmetic node whose operands are real values, and the
first finding on a path that certainly runs stops the walk.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import re
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

import rtextract

from ..._model import crash_type_of
from .._finding import Finding
from .._siblings import free_names
from .._values import (
    DELETED,
    MISSING,
    UNKNOWN,
    Abstract,
    Changed,
    Partial,
    is_frame,
    is_known,
    is_ndarray,
    is_series,
    is_hostile,
    is_torch_module,
    safe_getattr,
    safe_message,
    unsafe_reason,
)
from ._effects import effects_of_call
from ._pure import getitem
from ._statements import StatementWalker
from ._types import CallSite, CellFunction, FitState, Located, Rules, Stop
from ._util import (
    _BINOPS,
    _COMPARE,
    _HARMLESS_MAGICS,
    _IPYTHON_BUILTINS,
    _MAX_UNROLL,
    _NAME_MAKERS,
    _PLAIN,
    _PROPAGATION_FLOOR_S,
    _SHELL_CALLS,
    _TRIAL_BUDGET_S,
    global_declarations,
    hashable,
    plain_value,
    small_items,
    stable,
    target_names,
    with_confidence,
)
from ._witness import item_witnesses, names_read, row_witnesses

__all__ = ["CallSite", "CellFunction", "CellWalker", "FitState", "Located", "Rules"]


#: A subscript of data holding user code may take this long even past the trial budget.
_SUBSCRIPT_MS = 250.0
_INDEXERS = frozenset({"_LocIndexer", "_iLocIndexer", "_AtIndexer", "_iAtIndexer"})


class CellWalker(StatementWalker):
    """Abstract execution of one cell over a live namespace.

    Args:
        source: the cell's Python source (IPython syntax already transformed).
        namespace: the kernel's user namespace (read only).
        rules: the rule set to apply.
        trial_budget_s: how long trials (library calls run on live values) may take in
            all; 0 runs none (the extension, when a dry run has the cell already).
    """

    def __init__(self, source: str, namespace: Mapping[str, Any], rules: Rules,
                 trial_budget_s: float = _TRIAL_BUDGET_S) -> None:
        self.source = source
        self.lines = source.splitlines()
        self._encoded: list[bytes] | None = None  # `text`'s lines, split as ast splits them
        self.namespace = namespace
        self.rules = rules
        self.env: dict[str, Any] = {}
        self.uncertain = 0
        self.loop_depth = 0
        self.notes: list[str] = []
        self.names_unreliable = False  # exec/globals()/star-import seen: names may appear
        self.namespace_dirty = False  # a user function with unknown effects ran
        self.deadline = time.perf_counter() + trial_budget_s
        self.propagation_deadline = time.perf_counter() + max(trial_budget_s,
                                                              _PROPAGATION_FLOOR_S)
        self.modules_changed = False  # a new module was imported: it may patch others
        self.environment_changed = False  # a shell command or magic ran (pip, cd, ...)
        self.fitted: dict[int, FitState] = {}
        self.maybe_bound: set[str] = set()
        self._stmt: ast.stmt | None = None
        self.original = source
        self.subject = ""  # source text of the object the current rule looks at
        self._free: Any = MISSING
        self.scratch: dict[str, Any] = {}
        # the row (item) a witness walk binds, said after what the walk finds there
        self.witness: str | None = None
        # a real time bound is possible (the main thread): library code that may reach
        # user code runs under it; without one, values holding user code are unknown
        self.bounded = rtextract.can_bound()
        self._checked: dict[int, tuple[Any, str | None]] = {}
        # torch's autograd mode in the walk is this thread's, as the cell's will be (the
        # kernel's main thread), and each ``with torch.no_grad():`` is entered while its
        # body is walked, so meta tensors require grad as the real ones will. Lost for good
        # by ``torch.set_grad_enabled(...)`` outside a ``with``; unsure inside the body of
        # a manager of user code or an unknown flag (`grad_certain`).
        self.grad_lost = threading.current_thread() is not threading.main_thread()
        self.grad_unsure = 0

    @property
    def grad_certain(self) -> bool:
        """Whether torch's autograd mode in the walk is certainly the cell's."""
        return not self.grad_lost and not self.grad_unsure

    # ----- entry -------------------------------------------------------------------
    def run(self, tree: ast.Module) -> Located | None:
        """Walk the module; return the first certain finding, or None."""
        self.maybe_bound = global_declarations(tree) | _IPYTHON_BUILTINS
        try:
            self.block(tree.body)
        except Stop as stop:
            return stop.located
        except RecursionError:
            self.notes.append("cell too deeply nested to walk")
        return None

    # ----- helpers for rules ---------------------------------------------------------
    def text(self, node: ast.AST) -> str:
        """The source text of ``node`` (as ``ast.get_source_segment`` reads it, from lines
        split once per walk: that function splits the whole cell, a character at a time,
        on each call)."""
        return _segment(self._segment_lines(), node) or ast.unparse(node)

    def _segment_lines(self) -> list[bytes]:
        lines = self._encoded
        if lines is None:
            lines = self._encoded = [line.encode() for line in _LINE_END.split(self.source)]
        return lines

    def lookup(self, name: str) -> Any:
        """The walker's value for a name: env, then namespace, then builtins (also for a
        name the cell deleted: ``del list`` of a global that hid the builtin uncovers it)."""
        if name in self.env:
            value = self.env[name]
            if value is DELETED and hasattr(builtins, name):
                return getattr(builtins, name)
            return value
        if name in self.namespace:
            value = self.namespace[name]
            if self.namespace_dirty and not stable(value):
                return UNKNOWN
            return self.tame(value, name)
        if hasattr(builtins, name):
            return getattr(builtins, name)
        return MISSING

    def free_names(self) -> frozenset[str] | None:
        """Names nbdeps says the original cell reads before binding (None: unknown)."""
        if self._free is MISSING:
            self._free = free_names(self.original)
        return self._free

    def tame(self, value: Any, what: str | ast.AST = "") -> Any:
        """A value read from the live world, or UNKNOWN when reading it could run user code
        (`is_hostile`), crash the kernel (memory of a truncated file mapping) or, without
        a time bound, run user code held in its data (`unsafe_reason`)."""
        if is_hostile(value):
            return UNKNOWN
        key = id(value)
        checked = self._checked.get(key)
        if checked is None or checked[0] is not value:
            checked = (value, unsafe_reason(value, self.bounded))
            self._checked[key] = checked  # the value is kept alive: its id stays its own
            if checked[1] is not None:
                what = self.text(what) if isinstance(what, ast.AST) else what
                self.notes.append(f"{what or 'a value'} not read: {checked[1]}")
        return UNKNOWN if checked[1] is not None else value

    def guarded(self, fn: Any, at_least_ms: float = 0.0, deadline: float | None = None) -> Any:
        """Run library code on live values (a trial, a propagation step): where a real
        time bound is possible it stops at the trial budget, or at ``deadline`` (or after
        ``at_least_ms``), since the values' data may reach user code (a user
        ExtensionArray, cells of user objects)."""
        if not self.bounded:
            return fn()
        end = self.deadline if deadline is None else deadline
        left_ms = max((end - time.perf_counter()) * 1000.0, at_least_ms)
        return rtextract.bounded_call(fn, rtextract.Deadline(left_ms, _TRIAL_BUDGET_S * 1000))

    def _getitem(self, base: Any, key: Any) -> Any:
        """``base[key]`` of a live value; under the time bound when pandas or numpy would
        meet user code in its data (a user ExtensionArray's ``__getitem__``)."""
        holder = base
        if type(base).__name__ in _INDEXERS and rtextract.user_classes(type(base)) == ():
            holder = safe_getattr(base, "obj")  # df.iloc, df.loc: the frame they index
        long_frames = time.perf_counter() < self.deadline  # trials left: their columns
        if not self.bounded or rtextract.user_content(holder) is None:
            return getitem(base, key, long_frames)
        try:
            return self.guarded(lambda: getitem(base, key, long_frames),
                                at_least_ms=_SUBSCRIPT_MS)
        except rtextract.UserCodeTimeout as exc:
            self.notes.append(f"subscript not evaluated: {exc}")
            return UNKNOWN

    def value_of(self, node: ast.expr) -> Any:
        """Evaluate an expression again without reporting (it was walked already)."""
        saved = self.uncertain
        self.uncertain += 1
        try:
            return self.ev(node)
        finally:
            self.uncertain = saved

    def fit_state(self, estimator: Any) -> FitState | None:
        """How the estimator was fitted earlier in this cell, if it was."""
        state = self.fitted.get(id(estimator))
        return state if state is not None and state.estimator is estimator else None

    def report(self, finding: Finding | None, node: ast.AST) -> None:
        """Stop the walk at a certain finding; ignore findings on uncertain paths."""
        if finding is None or self.uncertain:
            return
        if self.loop_depth and finding.confidence > 0.9:
            finding = with_confidence(finding, 0.9)
        if self.witness:
            finding = dataclasses.replace(finding, explanation=f"{finding.explanation} "
                                          f"({self.witness})")
        line = getattr(node, "lineno", None) or getattr(self._stmt, "lineno", 1)
        raise Stop(Located(finding, line))

    def _apply(self, rules: list, node: ast.AST, *args: Any) -> None:
        for rule in rules:
            try:
                found = rule(*args)
            except Stop:
                raise
            except Exception as exc:  # a broken rule must never break the user's kernel
                self.notes.append(f"rule {getattr(rule, '__name__', rule)} skipped: "
                                  f"{type(exc).__name__}: {safe_message(exc)}")
                continue
            self.report(found, node)

    def _propagate(self, hook: Any, *args: Any) -> Any:
        """Ask a propagation hook for the facts of a value; UNKNOWN when it has none."""
        if hook is None or time.perf_counter() > self.propagation_deadline:
            return UNKNOWN
        try:
            value = self.guarded(lambda: hook(*args), deadline=self.propagation_deadline)
        except Stop:
            raise
        except Exception as exc:  # propagation must never break the user's kernel
            self.notes.append(f"propagation skipped: {type(exc).__name__}: {safe_message(exc)}")
            return UNKNOWN
        return UNKNOWN if value is None else value

    # ----- expressions -----------------------------------------------------------------
    def truth(self, value: Any) -> bool | None:
        """Truthiness of a plain value; None when unknown or not plain."""
        # exact types: a subclass's __bool__ / __len__ is its own code
        if is_known(value) and type(value) in (*_PLAIN, tuple, list, dict, set):
            return bool(value)
        return None

    def ev(self, node: ast.expr | None) -> Any:
        """Evaluate an expression abstractly, applying the rules on the way."""
        if node is None:
            return UNKNOWN
        handler = getattr(self, f"_e_{type(node).__name__}", None)
        if handler is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.ev(child)
            return UNKNOWN
        return handler(node)

    def _e_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _e_Name(self, node: ast.Name) -> Any:
        if not isinstance(node.ctx, ast.Load):
            return UNKNOWN
        value = self.lookup(node.id)
        if value is MISSING or value is DELETED:
            if not self.names_unreliable and node.id not in self.maybe_bound:
                self._apply(self.rules.name, node, node.id, self)
            return UNKNOWN
        return value

    def _e_Attribute(self, node: ast.Attribute) -> Any:
        base = self.ev(node.value)
        if isinstance(base, Abstract):
            return self._propagate(self.rules.propagate_attribute, base, node.attr, node, self)
        if isinstance(base, Changed):
            self.subject = self.text(node.value)
            self._apply(self.rules.changed_attribute, node, base.obj, node.attr, self)
        if not is_known(base):
            return UNKNOWN
        self.subject = self.text(node.value)
        self._apply(self.rules.attribute, node, base, node.attr, self)
        return self.tame(safe_getattr(base, node.attr), node)

    def _e_Subscript(self, node: ast.Subscript) -> Any:
        base = self.ev(node.value)
        key = self.ev(node.slice)
        if isinstance(base, Partial):
            if hashable(key) and key in base.values:
                return base.values[key]
            if not hashable(key) or key in base.dirty:
                return UNKNOWN
            base = base.obj
        if isinstance(base, Abstract) or isinstance(key, Abstract):
            if (is_known(base) or isinstance(base, Abstract)) and (
                    is_known(key) or isinstance(key, Abstract)):
                return self._propagate(self.rules.propagate_subscript, base, key, node, self)
            return UNKNOWN
        if not is_known(base) or not is_known(key):
            return UNKNOWN
        self.subject = self.text(node.value)
        self._apply(self.rules.subscript, node, base, key, self)
        value = self.tame(self._getitem(base, key), node)
        if value is UNKNOWN:
            return self._propagate(self.rules.propagate_subscript, base, key, node, self)
        return value

    def _e_Slice(self, node: ast.Slice) -> Any:
        parts = [self.ev(p) if p is not None else None for p in (node.lower, node.upper,
                                                                  node.step)]
        if all(p is None or (is_known(p) and isinstance(p, (int, type(None)))) for p in parts):
            return slice(*parts)
        return UNKNOWN

    def _e_Tuple(self, node: ast.Tuple) -> Any:
        values = [self.ev(e) for e in node.elts]
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return UNKNOWN
        # Abstract items are kept: ``np.hstack([X, encoded])`` needs their shapes.
        return tuple(values) if all(is_known(v) or isinstance(v, Abstract) for v in values) \
            else UNKNOWN

    def _e_List(self, node: ast.List) -> Any:
        value = self._e_Tuple(node)  # type: ignore[arg-type]
        return list(value) if is_known(value) else UNKNOWN

    def _e_Set(self, node: ast.Set) -> Any:
        value = self._e_Tuple(node)  # type: ignore[arg-type]
        if not is_known(value) or not all(hashable(v) for v in value):
            return UNKNOWN  # hashing anything but plain values could run user code
        try:
            return set(value)
        except TypeError:
            return UNKNOWN

    def _e_Dict(self, node: ast.Dict) -> Any:
        keys = [self.ev(k) if k is not None else UNKNOWN for k in node.keys]
        values = [self.ev(v) for v in node.values]
        if all(is_known(k) and hashable(k) for k in keys) and all(is_known(v) for v in values):
            return dict(zip(keys, values))
        return UNKNOWN

    def _e_JoinedStr(self, node: ast.JoinedStr) -> Any:
        parts: list[Any] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
                continue
            assert isinstance(value, ast.FormattedValue)
            inner = self.ev(value.value)
            spec = self.ev(value.format_spec) if value.format_spec is not None else ""
            if isinstance(spec, str) and spec and is_known(inner):
                self._check_format(inner, spec, value)
            if value.conversion != -1 or spec != "" or not (
                    is_known(inner) and type(inner) in (str, int)):
                parts.append(UNKNOWN)
            else:
                parts.append(str(inner))
        return "".join(parts) if all(isinstance(p, str) for p in parts) else UNKNOWN

    def _check_format(self, value: Any, spec: str, node: ast.AST) -> None:
        """``f"{acc:.2f}"`` where acc is a string, a list or an array of several values."""
        if not (plain_value(value) or is_ndarray(value) or is_series(value)):
            return
        if is_ndarray(value) and value.dtype.hasobject:
            return  # a 0-d object array formats its element: the element's own code
        try:
            format(value, spec)
        except (ValueError, TypeError) as exc:
            name = type(exc).__name__
            self.report(Finding(
                exception=name, crash_type=crash_type_of(name), library="python",
                rule="format-spec", confidence=0.94,
                explanation=f"format spec '{spec}' cannot format {self.text(node.value)} "
                            f"(a {type(value).__name__}): {safe_message(exc)}"), node)

    def _e_BinOp(self, node: ast.BinOp) -> Any:
        left = self.ev(node.left)
        right = self.ev(node.right)
        return self.binop(node.op, left, right, node)

    def binop(self, op: ast.operator, left: Any, right: Any, node: ast.AST) -> Any:
        """Check and, for plain values, compute a binary operation."""
        if isinstance(left, Abstract) or isinstance(right, Abstract):
            if (is_known(left) or isinstance(left, Abstract)) and (
                    is_known(right) or isinstance(right, Abstract)):
                self._apply(self.rules.binop, node, op, left, right, self)
                return self._propagate(self.rules.propagate_binop, op, left, right, node, self)
            return UNKNOWN
        if not (is_known(left) and is_known(right)):
            return UNKNOWN
        self._apply(self.rules.binop, node, op, left, right, self)
        if isinstance(op, ast.Add) and type(left) is type(right) and type(left) in (
                list, tuple) and len(left) + len(right) <= 10_000:
            return left + right
        if isinstance(op, ast.Mult) and type(left) in (list, tuple) and type(right) is int \
                and len(left) * max(right, 0) <= 10_000:
            return left * right  # [[1, 2, 3]] * 8: the items are shared, as in Python
        if type(left) in _PLAIN and type(right) in _PLAIN and type(op) in _BINOPS:
            if isinstance(left, str) or isinstance(right, str):
                if not (isinstance(left, str) and isinstance(right, str)):
                    return UNKNOWN
            try:
                return _BINOPS[type(op)](left, right)
            except Exception:
                return UNKNOWN
        return self._propagate(self.rules.propagate_binop, op, left, right, node, self)

    def _e_UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.ev(node.operand)
        if is_known(value) and type(value) in (int, float, bool):
            if isinstance(node.op, ast.USub):
                return -value
            if isinstance(node.op, ast.Not):
                return not value
        return UNKNOWN

    def _e_BoolOp(self, node: ast.BoolOp) -> Any:
        self.ev(node.values[0])
        self.uncertain += 1
        try:
            for value in node.values[1:]:
                self.ev(value)
        finally:
            self.uncertain -= 1
        return UNKNOWN

    def _e_Compare(self, node: ast.Compare) -> Any:
        values = [self.ev(node.left), *(self.ev(c) for c in node.comparators)]
        if len(values) == 2 and not all(is_known(v) and plain_value(v) for v in values) and \
                all(is_known(v) or isinstance(v, Abstract) for v in values):
            return self._propagate(self.rules.propagate_compare, node.ops[0], values[0],
                                   values[1], node, self)
        if not all(is_known(v) and plain_value(v) for v in values):
            return UNKNOWN
        try:
            return all(_COMPARE[type(op)](a, b) for op, a, b in zip(
                node.ops, values, values[1:]))
        except Exception:
            return UNKNOWN

    def _e_IfExp(self, node: ast.IfExp) -> Any:
        truth = self.truth(self.ev(node.test))
        if truth is True:
            return self.ev(node.body)
        if truth is False:
            return self.ev(node.orelse)
        self.uncertain += 1
        try:
            self.ev(node.body)
            self.ev(node.orelse)
        finally:
            self.uncertain -= 1
        return UNKNOWN

    def _e_Lambda(self, node: ast.Lambda) -> Any:
        for default in node.args.defaults:
            self.ev(default)
        return UNKNOWN

    def _e_NamedExpr(self, node: ast.NamedExpr) -> Any:
        value = self.ev(node.value)
        self.bind(node.target, value)
        return value

    def _e_Starred(self, node: ast.Starred) -> Any:
        self.ev(node.value)
        return UNKNOWN

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp |
                       ast.DictComp) -> Any:
        first = node.generators[0]
        items = small_items(self.ev(first.iter))
        saved = dict(self.env)
        names = target_names(first.target)
        for gen in node.generators[1:]:
            names |= target_names(gen.target)
        computed: list[Any] | None = [] if items is not None and len(node.generators) == 1 \
            and isinstance(node, ast.ListComp) else None
        certain = items is not None and len(items) > 0
        self.uncertain += 0 if certain else 1
        try:
            for item in (items if certain else [UNKNOWN])[:_MAX_UNROLL * 8]:
                self.bind(first.target, item)
                keep = True
                for cond in first.ifs:
                    truth = self.truth(self.ev(cond))
                    if truth is None:
                        computed = None
                    keep = keep and truth is not False
                self.uncertain += 1 if first.ifs else 0
                try:
                    for gen in node.generators[1:]:
                        self.ev(gen.iter)
                        self.bind(gen.target, UNKNOWN)
                        for cond in gen.ifs:
                            self.ev(cond)
                    if isinstance(node, ast.DictComp):
                        self.ev(node.key)
                        element = self.ev(node.value)
                    else:
                        element = self.ev(node.elt)
                finally:
                    self.uncertain -= 1 if first.ifs else 0
                if computed is not None:
                    if not is_known(element):
                        computed = None
                    elif keep:
                        computed.append(element)
            if items is not None and len(items) > _MAX_UNROLL * 8:
                computed = None
        finally:
            self.uncertain -= 0 if certain else 1
            for name in names:
                if name in saved:
                    self.env[name] = saved[name]
                else:
                    self.env.pop(name, None)
        return computed if computed is not None else UNKNOWN

    _e_ListComp = _e_SetComp = _e_GeneratorExp = _e_DictComp = _comprehension

    def _e_Call(self, node: ast.Call) -> Any:
        receiver, method = UNKNOWN, None
        if isinstance(node.func, ast.Attribute):
            method = node.func.attr
            receiver = self.ev(node.func.value)
            func = UNKNOWN
            if isinstance(receiver, Abstract):  # its class must have the method
                self._propagate(self.rules.propagate_attribute, receiver, method, node.func,
                                self)
            if isinstance(receiver, Changed):  # so must a changed object's
                self.subject = self.text(node.func.value)
                self._apply(self.rules.changed_attribute, node.func, receiver.obj, method,
                            self)
            if is_known(receiver):
                self.subject = self.text(node.func.value)
                self._apply(self.rules.attribute, node.func, receiver, method, self)
                func = safe_getattr(receiver, method)
        else:
            func = self.ev(node.func)
        args, kwargs, starred = [], {}, False
        arg_names: list[str | None] = []
        kwarg_names: dict[str, str | None] = {}
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                starred = True
            args.append(self.ev(arg))
            arg_names.append(arg.id if isinstance(arg, ast.Name) else None)
        for kw in node.keywords:
            value = self.ev(kw.value)
            if kw.arg is None:
                starred = True
            else:
                kwargs[kw.arg] = value
                kwarg_names[kw.arg] = kw.value.id if isinstance(kw.value, ast.Name) else None
        self._note_dynamic(node, method, args)
        if method in ("apply", "map") and node.args and isinstance(node.args[0], ast.Lambda) \
                and not self.uncertain:
            self._walk_on_witnesses(node, receiver, method, kwargs)
        site = CallSite(node=node, func=func, receiver=receiver, method=method,
                        args=tuple(args), kwargs=kwargs, starred=starred,
                        arg_names=tuple(arg_names), kwarg_names=kwarg_names, walker=self)
        self._apply(self.rules.call, node, site)
        result: Any = UNKNOWN
        status = "skip"
        if self.rules.evaluate_call is not None and is_known(func) and not starred and \
                time.perf_counter() < self.deadline:
            try:
                status, result = self.guarded(lambda: self.rules.evaluate_call(site))
            except Stop:
                raise
            except Exception as exc:
                self.notes.append(f"evaluation of {self.text(node.func)} skipped: "
                                  f"{safe_message(exc)}")
                status, result = "skip", UNKNOWN
        if status != "pure" and result is UNKNOWN and not starred:
            result = self._propagate(self.rules.propagate_call, site)
            if result is not UNKNOWN and self._propagation_is_pure(site):
                status = "pure"
        result = self.tame(result, node)
        for hook in self.rules.after_call:
            try:
                replacement = hook(site, result)
                if replacement is not None:
                    result = replacement
            except Exception as exc:
                self.notes.append(f"after-call hook skipped: {type(exc).__name__}: "
                                  f"{safe_message(exc)}")
        if status != "pure":
            self._call_effects(site)
        return result

    def _walk_on_witnesses(self, node: ast.Call, receiver: Any, method: str,
                           kwargs: dict[str, Any]) -> None:
        """``s.apply(lambda v: ...)``, ``s.map(lambda v: ...)`` and ``df.apply(lambda r:
        ..., axis=1)`` call the lambda on every item (row): its body is walked on the
        first, the first missing and the first of another type (`item_witnesses` for a
        series, `row_witnesses` for a frame's rows)."""
        lam = node.args[0]
        params = lam.args  # type: ignore[attr-defined]
        if len(node.args) != 1 or len(params.args) != 1 or params.posonlyargs or \
                params.vararg or params.kwonlyargs or params.kwarg or params.defaults:
            return
        numpy = sys.modules.get("numpy")
        if is_series(receiver) and numpy is not None and \
                isinstance(receiver.dtype, numpy.dtype) and (not kwargs or method == "map" and (
                    set(kwargs) == {"na_action"} and kwargs["na_action"] is None)):
            what = self.text(node.func.value)  # type: ignore[attr-defined]
            make = lambda: item_witnesses(receiver, what)  # noqa: E731
        elif is_frame(receiver) and method == "apply" and set(kwargs) == {"axis"} and \
                type(kwargs["axis"]) in (int, str) and kwargs["axis"] in (1, "columns"):
            make = lambda: row_witnesses(receiver, "apply", names_read([lam]),  # noqa: E731
                                         last=False)
        else:
            return
        try:
            witnesses = self.guarded(make, at_least_ms=_SUBSCRIPT_MS)
        except Stop:
            raise
        except Exception as exc:  # a strange frame: the lambda is not walked
            self.notes.append(f"rows of {self.text(node.func)} not walked: "
                              f"{type(exc).__name__}: {safe_message(exc)}")
            return
        name = params.args[0].arg
        saved, outer = self.env.get(name, MISSING), self.witness
        try:
            for witness in witnesses:
                self.env[name] = self.tame(witness.value, name)
                self.witness = witness.why or outer
                self.ev(lam.body)  # type: ignore[attr-defined]
        finally:
            self.witness = outer
            if saved is MISSING:
                self.env.pop(name, None)
            else:
                self.env[name] = saved

    @staticmethod
    def _propagation_is_pure(site: CallSite) -> bool:
        """Propagated calls that change nothing the walker knows: meta runs of torch
        modules (built-in or a followed straight-chain forward), methods of abstract
        values."""
        if isinstance(site.receiver, Abstract) or isinstance(site.func, Abstract):
            return True
        return site.method is None and is_known(site.func) and is_torch_module(site.func)

    def _note_dynamic(self, node: ast.Call, method: str | None, args: list[Any]) -> None:
        """Magics, exec and globals() may define names and change any object."""
        name = method if method is not None else (
            node.func.id if isinstance(node.func, ast.Name) else None)
        if name in _SHELL_CALLS:
            self.environment_changed = True
        if name in ("run_line_magic", "run_cell_magic"):
            magic = args[0] if args and isinstance(args[0], str) else None
            if magic not in _HARMLESS_MAGICS:
                self.names_unreliable = True
                self.namespace_dirty = True
                self._forget({n for n, v in self.env.items() if is_known(v)})
        elif name in _NAME_MAKERS and method is None:
            self.names_unreliable = True
            self.namespace_dirty = True

    def _call_effects(self, site: CallSite) -> None:
        """A call that is not known to be pure may change its receiver and arguments."""
        effects_of_call(site)


#: Where ``ast`` ends a line (``\r\n``, ``\r`` or ``\n``, not a form feed): the line ends are
#: kept as the last characters of each line, as ``ast.get_source_segment`` keeps them.
_LINE_END = re.compile(r"(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)")


def _segment(lines: list[bytes], node: ast.AST) -> str | None:
    """``ast.get_source_segment(source, node)`` on the source's encoded ``lines``."""
    try:
        if node.end_lineno is None or node.end_col_offset is None:  # type: ignore[attr-defined]
            return None
        first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
        start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
    except AttributeError:
        return None
    try:
        if first == last:
            return lines[first][start:end].decode()
        middle = [line.decode() for line in lines[first + 1:last]]
        return "".join([lines[first][start:].decode(), *middle, lines[last][:end].decode()])
    except (IndexError, UnicodeDecodeError):
        return None
