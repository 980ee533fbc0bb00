"""Branches of a called function: which of its global reads a given call can reach.

A helper `def model(init='zeros'): if init == 'he': return he_init()` reads `he_init`
only on the `'he'` branch, so the call `model(init='zeros')` never reads it. The branch
tests nbdeps decides are a parameter compared with a constant (`==`, `!=`, `in`,
`not in`, `is`, `is not`), a parameter's truth (`if verbose:`), their negation and an
`and` of them; the parameter's value comes from the call's constant arguments or from
the constant default. Any other test, a parameter the body rebinds, or a call with
`*args`/`**kwargs` leaves the branch undecided: its reads count, as before.
"""

from __future__ import annotations

import ast
import operator

from ._model import Branches, CallSite
from ._scopes import stored_names

__all__ = ["branches_of", "call_site", "opaque_call", "unreached"]

# (parameter, operator, constant, wanted truth): the branch runs when `param op constant`
# is `wanted`; "truthy" tests the parameter itself
Atom = tuple[str, str, object, bool]

_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
_EVAL = {
    "==": operator.eq, "!=": operator.ne, "is": lambda a, b: a is b, "is not": lambda a, b: a is not b,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b, "truthy": lambda a, _b: bool(a),
}
_NO_VALUE = object()


def branches_of(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Branches | None:
    """The reads of `node` that sit only under decidable branches, or None when none do."""
    args = node.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    params = set(positional) | {a.arg for a in args.kwonlyargs}
    if not params:
        return None
    guards: dict[str, set[tuple[Atom, ...]]] = {}
    always: set[str] = set()

    def block(stmts: list[ast.AST], guard: tuple[Atom, ...]) -> None:
        for stmt in stmts:
            visit(stmt, guard)
            if isinstance(stmt, ast.If) and not stmt.orelse and _exits(stmt.body):
                guard = guard + _atoms(stmt.test, params)[1]  # `if not x: return`: the rest needs x

    def visit(child: ast.AST, guard: tuple[Atom, ...]) -> None:
        if isinstance(child, (ast.If, ast.IfExp)):
            visit(child.test, guard)
            when, unless = _atoms(child.test, params)
            block(child.body if isinstance(child.body, list) else [child.body], guard + when)
            block(child.orelse if isinstance(child.orelse, list) else [child.orelse], guard + unless)
            return
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
            if guard:
                guards.setdefault(child.id, set()).add(guard)
            else:
                always.add(child.id)
        for grandchild in ast.iter_child_nodes(child):
            visit(grandchild, guard)

    block(node.body, ())
    if not any(name not in always for name in guards):
        return None  # the common case: no read sits only under a branch
    local = stored_names(node.body)
    rebound = params & local  # a rebound parameter no longer holds the call's value
    local |= params
    kept = {}
    for name, name_guards in guards.items():
        if name in always or name in local:
            continue
        trimmed = {tuple(a for a in g if a[0] not in rebound) for g in name_guards}
        if all(trimmed):  # a guard left without a decidable test: read on any call
            kept[name] = trimmed
    reads = tuple(sorted((name, tuple(sorted(g, key=repr))) for name, g in kept.items()))
    if not reads:
        return None
    defaults = _defaults(args, positional)
    return Branches(params=tuple(positional), defaults=defaults, reads=reads)


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise))


def _atoms(test: ast.expr, params: set[str]) -> tuple[tuple[Atom, ...], tuple[Atom, ...]]:
    """The atoms a branch's body needs and those its `else` needs (each possibly empty)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        when, unless = _atoms(test.operand, params)
        return unless, when
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        when = tuple(a for value in test.values for a in _atoms(value, params)[0])
        return when, ()  # the else of an `and` holds when any part fails: undecided
    atom = _atom(test, params)
    if atom is None:
        return (), ()
    param, op, value = atom
    return ((param, op, value, True),), ((param, op, value, False),)


def _atom(test: ast.expr, params: set[str]) -> tuple[str, str, object] | None:
    if isinstance(test, ast.Name) and test.id in params:
        return test.id, "truthy", None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS):
        return None
    left, right, op = test.left, test.comparators[0], _OPS[type(test.ops[0])]
    if isinstance(right, ast.Name) and right.id in params and op in ("==", "!="):
        left, right = right, left
    value = _constant(right)
    if isinstance(left, ast.Name) and left.id in params and value is not _NO_VALUE:
        return left.id, op, value
    return None


def _constant(node: ast.expr | None) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        values = tuple(_constant(e) for e in node.elts)
        return _NO_VALUE if any(v is _NO_VALUE for v in values) else values
    return _NO_VALUE


def _defaults(args: ast.arguments, positional: list[str]) -> tuple[tuple[str, object], ...]:
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return tuple((name, value) for name, d in pairs if (value := _constant(d)) is not _NO_VALUE)


def call_site(node: ast.Call, function: str) -> CallSite:
    """What a call `function(...)` passes, as far as constants tell."""
    known: list[tuple[int | str, object]] = []
    for i, arg in enumerate(node.args):
        if (value := _constant(arg)) is not _NO_VALUE:
            known.append((i, value))
    given = tuple(k.arg for k in node.keywords if k.arg is not None)
    for kw in node.keywords:
        if kw.arg is not None and (value := _constant(kw.value)) is not _NO_VALUE:
            known.append((kw.arg, value))
    starred = any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords)
    return CallSite(function=function, positional=len(node.args), given=given, known=tuple(known),
                    starred=starred)


def opaque_call(function: str) -> CallSite:
    """A reference to `function` that is not a plain call (`df.apply(function)`)."""
    return CallSite(function=function, positional=0, given=(), known=(), starred=True)


def unreached(branches: Branches, calls: tuple[CallSite, ...]) -> frozenset[str]:
    """The names that none of `calls` can read: every branch reading them is decided false."""
    if not calls:
        return frozenset()
    names = set()
    for name, guards in branches.reads:
        if all(_decided_false(guard, branches, call) for call in calls for guard in guards):
            names.add(name)
    return frozenset(names)


def _decided_false(guard: tuple[Atom, ...], branches: Branches, call: CallSite) -> bool:
    for param, op, constant, wanted in guard:
        value = _value(param, branches, call)
        if value is _NO_VALUE:
            continue
        try:
            if bool(_EVAL[op](value, constant)) != wanted:
                return True
        except TypeError:  # `1 in 'abc'`: undecided
            continue
    return False


def _value(param: str, branches: Branches, call: CallSite) -> object:
    if call.starred:
        return _NO_VALUE
    known = dict(call.known)
    index = branches.params.index(param) if param in branches.params else None
    if index is not None and index < call.positional:
        return known.get(index, _NO_VALUE)
    if param in call.given:
        return known.get(param, _NO_VALUE)
    return dict(branches.defaults).get(param, _NO_VALUE)
