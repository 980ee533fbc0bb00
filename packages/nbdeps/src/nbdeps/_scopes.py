"""Python scoping for code nested in a cell: functions, lambdas, classes, comprehensions.

`free_loads(node)` lists the reads inside a nested scope that resolve outside it, which is
what a cell-level caller of the function (or the comprehension itself) reads from the
notebook's global namespace. Bindings inside the scope never leak, except walrus targets
in comprehensions and names declared `global`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["ScopeFacts", "alias_name", "free_loads", "stored_names", "target_names"]

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


@dataclass(slots=True)
class ScopeFacts:
    """Reads that escape a nested scope, and bindings it makes in the enclosing one."""

    loads: list[ast.Name] = field(default_factory=list)
    global_stores: set[str] = field(default_factory=set)  # `global x; x = ...`
    walrus_stores: list[str] = field(default_factory=list)  # `[y := f(v) for v in vs]`


def free_loads(node: ast.AST) -> ScopeFacts:
    """The reads of `node` (a def, lambda, class or comprehension) that resolve outside it.

    Decorators, default values and the first iterable of a comprehension belong to the
    enclosing scope; the caller visits them itself.
    """
    facts = ScopeFacts()
    if isinstance(node, _COMPS):
        _comprehension(node, facts, skip_first_iter=True)
    elif isinstance(node, ast.ClassDef):
        # the class body runs at once, its methods only when called: keep only the
        # reads made while the class statement itself executes
        _body_scope(node.body, set(), facts, is_class=True)
        deferred = {
            id(n)
            for stmt in node.body
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in ast.walk(stmt)
        }
        outer = {id(n) for stmt in node.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                 for part in _outer_parts(stmt) for n in ast.walk(part)}
        facts.loads = [n for n in facts.loads if id(n) not in deferred or id(n) in outer]
    else:
        _function(node, facts)
    return facts


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, facts: ScopeFacts) -> None:
    params = _param_names(node.args)
    body = [node.body] if isinstance(node, ast.Lambda) else node.body
    _body_scope(body, params, facts, is_class=False)


def _param_names(args: ast.arguments) -> set[str]:
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    return names


def _body_scope(body: list, params: set[str], facts: ScopeFacts, *, is_class: bool) -> None:
    declared_global: set[str] = set()
    declared_nonlocal: set[str] = set()
    for stmt in body:
        for sub in _walk_scope(stmt):
            if isinstance(sub, ast.Global):
                declared_global.update(sub.names)
            elif isinstance(sub, ast.Nonlocal):
                declared_nonlocal.update(sub.names)
    local = (params | stored_names(body)) - declared_global - declared_nonlocal
    facts.global_stores.update(declared_global & stored_names(body))
    for stmt in body:
        _collect(stmt, local, facts)


def _collect(node: ast.AST, local: set[str], facts: ScopeFacts) -> None:
    """Append the reads under `node` that are not in `local`, descending into nested scopes."""
    if isinstance(node, ast.Name):
        if isinstance(node.ctx, ast.Load) and node.id not in local:
            facts.loads.append(node)
        return
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        for expr in _outer_parts(node):
            _collect(expr, local, facts)
        inner = ScopeFacts()
        _function(node, inner)
        facts.loads.extend(n for n in inner.loads if n.id not in local)
        facts.global_stores |= inner.global_stores
        return
    if isinstance(node, ast.ClassDef):
        for expr in _outer_parts(node):
            _collect(expr, local, facts)
        inner = ScopeFacts()
        _body_scope(node.body, set(), inner, is_class=True)
        facts.loads.extend(n for n in inner.loads if n.id not in local)
        facts.global_stores |= inner.global_stores
        return
    if isinstance(node, _COMPS):
        _collect(node.generators[0].iter, local, facts)
        inner = ScopeFacts()
        _comprehension(node, inner, skip_first_iter=True)
        facts.loads.extend(n for n in inner.loads if n.id not in local)
        return
    for child in ast.iter_child_nodes(node):
        _collect(child, local, facts)


def _comprehension(node: ast.AST, facts: ScopeFacts, *, skip_first_iter: bool) -> None:
    local: set[str] = set()
    for gen in node.generators:
        local |= target_names(gen.target)
    parts: list[ast.AST] = []
    for i, gen in enumerate(node.generators):
        if not (i == 0 and skip_first_iter):
            parts.append(gen.iter)
        parts.extend(gen.ifs)
    parts.extend([node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt])
    for part in parts:
        for sub in ast.walk(part):
            if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                facts.walrus_stores.append(sub.target.id)
        _collect(part, local, facts)


def _outer_parts(node: ast.AST) -> list[ast.AST]:
    """The parts of a def/lambda/class evaluated in the enclosing scope."""
    parts: list[ast.AST] = list(getattr(node, "decorator_list", ()))
    if isinstance(node, ast.ClassDef):
        parts += node.bases + [k.value for k in node.keywords]
    else:
        args = node.args
        parts += [d for d in (*args.defaults, *args.kw_defaults) if d is not None]
    return parts


def _walk_scope(node: ast.AST):
    """Like ast.walk, but without entering nested functions, lambdas, classes or comprehensions."""
    yield node
    if isinstance(node, (*_SCOPES, *_COMPS)):
        return
    for child in ast.iter_child_nodes(node):
        yield from _walk_scope(child)


def stored_names(body: list) -> set[str]:
    """Every name bound directly in `body` (a statement list), not in nested scopes."""
    names: set[str] = set()
    for stmt in body:
        for sub in _walk_scope(stmt):
            names |= _binds(sub)
        # names bound by nested defs/classes themselves and by walruses in comprehensions
        for sub in _walk_nested_heads(stmt):
            names |= _binds(sub)
    return names


def _walk_nested_heads(node: ast.AST):
    for sub in _walk_scope(node):
        if isinstance(sub, _COMPS):
            for inner in ast.walk(sub):
                if isinstance(inner, ast.NamedExpr):
                    yield inner


def _binds(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return {node.id}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {alias_name(a) for a in node.names if a.name != "*"}
    if isinstance(node, ast.ExceptHandler) and node.name:
        return {node.name}
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return {node.name}
    if isinstance(node, ast.MatchMapping) and node.rest:
        return {node.rest}
    if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


def alias_name(alias: ast.alias) -> str:
    """The name an import binds: `import a.b` binds `a`, `import a.b as c` binds `c`."""
    return alias.asname or alias.name.split(".")[0]


def target_names(target: ast.AST) -> set[str]:
    """The names an assignment or loop target binds."""
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

