"""select(): which names, and which attribute/subscript chains after them, a cell reads
from the namespace it runs in.

A read counts when the name is not yet bound in the cell at that point (``df = df.dropna()``
reads ``df``), including reads inside lambdas, comprehensions, class bodies and functions
the cell defines and then uses. Builtins are left out.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any

from rtextract._model import Access

__all__ = ["access_text", "select"]

_BUILTINS = frozenset(dir(builtins))
_MAGIC_PREFIXES = ("%", "!", "?")


def select(cell_source: str) -> tuple[Access, ...]:
    """Return the accesses a cell makes to names it does not bind first, in source order.

    Args:
        cell_source: the cell's code; IPython magics and shell lines are ignored.

    Returns:
        A tuple of Access(name, path, line, text); ``model.layers[0].fit(x)`` gives
        ``Access("model", ("layers", 0), 1, "model.layers[0]")`` and ``Access("x", (), ...)``.

    Never raises: a cell that does not parse is read statement by statement, best effort.
    """
    try:
        trees = _parse(str(cell_source))
    except Exception:  # select() never raises
        return ()
    reader = _Reader()
    for tree in trees:
        try:
            reader.run(tree)
        except RecursionError:
            break
    return reader.result()


def _strip_magics(source: str) -> str:
    lines = []
    for line in source.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(_MAGIC_PREFIXES) or stripped.endswith("?") and not stripped.startswith("#"):
            lines.append(line[: len(line) - len(stripped)] + "pass")
        else:
            lines.append(line)
    return "\n".join(lines)


def _parse(raw: str) -> list[ast.Module]:
    for source in (raw, _strip_magics(raw)):
        try:
            return [ast.parse(source)]
        except (SyntaxError, ValueError):
            pass
    # best effort: every line that parses on its own, with its line number kept
    trees = []
    for number, line in enumerate(source.splitlines(), start=1):
        try:
            tree = ast.parse(line.strip())
        except (SyntaxError, ValueError):
            continue
        ast.increment_lineno(tree, number - 1)
        trees.append(tree)
    return trees


def access_text(name: str, path: tuple[Any, ...]) -> str:
    """Source-like text of an access: ``model.layers[0]``, ``df['col']``."""
    parts = [name]
    for step in path:
        if type(step) is int:
            parts.append(f"[{step}]")
        elif isinstance(step, str) and step.startswith("["):
            parts.append(step)
        else:
            parts.append(f".{step}")
    return "".join(parts)


def _literal_key(node: ast.expr) -> Any:
    """The path step of a literal subscript, or None when the subscript is not literal."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int):
        return -node.operand.value
    if isinstance(node, ast.Constant) and type(node.value) in (str, bytes, float, bool):
        return f"[{node.value!r}]"
    return None


class _Reader(ast.NodeVisitor):
    """Walks statements in order, tracking what is bound so far in each scope."""

    def __init__(self) -> None:
        self.scopes: list[set[str]] = [set()]
        self.found: dict[tuple[str, tuple[Any, ...]], Access] = {}
        self.order: list[tuple[int, int, tuple[str, tuple[Any, ...]]]] = []
        self.functions: dict[str, ast.AST] = {}
        self.pending: list[tuple[ast.AST, frozenset[str]]] = []
        self.done: set[int] = set()

    # -- bookkeeping -------------------------------------------------------------------
    def run(self, tree: ast.Module) -> None:
        for stmt in tree.body:
            self.visit(stmt)
        while self.pending:
            node, bound = self.pending.pop(0)
            if id(node) not in self.done:
                self.done.add(id(node))
                self._function_body(node, bound)

    def result(self) -> tuple[Access, ...]:
        return tuple(self.found[key] for _, _, key in sorted(self.order, key=lambda t: t[:2]))

    def bound(self, name: str) -> bool:
        return any(name in scope for scope in self.scopes) or name in _BUILTINS

    def bind(self, name: str) -> None:
        self.scopes[-1].add(name)

    def record(self, name: str, path: tuple[Any, ...], node: ast.AST) -> None:
        if name in self.functions and not path:
            fn = self.functions[name]
            self.pending.append((fn, frozenset().union(*self.scopes)))
        if self.bound(name):
            return
        key = (name, path)
        if key not in self.found:
            line = getattr(node, "lineno", 0)
            self.found[key] = Access(name, path, line, access_text(name, path))
            self.order.append((line, getattr(node, "col_offset", 0), key))

    def bind_target(self, target: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.bind_target(elt)
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value)
        else:  # attribute or subscript target: the base object is read
            self.visit_store_target(target)

    def visit_store_target(self, target: ast.AST) -> None:
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            chain = self.chain(target.value)
            if chain is not None:
                self.record(chain[0], chain[1], target)
            else:
                self.visit(target.value)
            if isinstance(target, ast.Subscript):
                self.visit(target.slice)

    # -- chains --------------------------------------------------------------------------
    def chain(self, node: ast.AST) -> tuple[str, tuple[Any, ...]] | None:
        """Name and literal path of ``a.b[0]['c']``; reads inside non-literal subscripts
        are visited and the path stops before them."""
        steps: list[Any] = []
        current = node
        while True:
            if isinstance(current, ast.Name):
                return current.id, tuple(reversed(steps))
            if isinstance(current, ast.Attribute):
                steps.append(current.attr)
                current = current.value
            elif isinstance(current, ast.Subscript):
                key = _literal_key(current.slice)
                if key is None:
                    self.visit(current.slice)
                    steps.clear()  # the path is only known up to the dynamic subscript
                else:
                    steps.append(key)
                current = current.value
            else:
                self.visit(current)
                return None

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.record(node.id, (), node)
        elif isinstance(node.ctx, ast.Store):
            self.bind(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._chain_read(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Load):
            self._chain_read(node)
        else:
            self.visit_store_target(node)

    def _chain_read(self, node: ast.AST) -> None:
        if not isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            self.visit_store_target(node)
            return
        chain = self.chain(node)
        if chain is not None:
            self.record(chain[0], chain[1], node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            # df.head(): the method is not data; the object it is called on is
            chain = self.chain(func.value)
            if chain is not None:
                self.record(chain[0], chain[1], func)
        else:
            self.visit(func)
        for arg in node.args:
            self.visit(arg)
        for keyword in node.keywords:
            self.visit(keyword.value)

    # -- statements in evaluation order --------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.bind_target(target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self.record(node.target.id, (), node.target)
        else:
            self.visit_store_target(node.target)
        self.visit(node.value)
        self.bind_target(node.target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self.bind_target(node.target)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.bind_target(node.target)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.iter)
        self.bind_target(node.target)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.bind_target(item.optional_vars)
        for stmt in node.body:
            self.visit(stmt)

    visit_AsyncWith = visit_With

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self.bind(node.name)
        for stmt in node.body:
            self.visit(stmt)

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name != "*":
                self.bind(alias.asname or alias.name.partition(".")[0])

    visit_ImportFrom = visit_Import

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        return None

    visit_Nonlocal = visit_Global

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.record(target.id, (), target)
            else:
                self.visit_store_target(target)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.pattern is not None:
            self.visit(node.pattern)
        if node.name:
            self.bind(node.name)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self.bind(node.name)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        for key in node.keys:
            self.visit(key)
        for pattern in node.patterns:
            self.visit(pattern)
        if node.rest:
            self.bind(node.rest)

    # -- scopes --------------------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._defaults(node.args)
        self.bind(node.name)
        if len(self.scopes) == 1:
            # body runs when called: read at the first use, with what is bound by then
            self.functions[node.name] = node
        else:
            self.pending.append((node, frozenset().union(*self.scopes)))

    visit_AsyncFunctionDef = visit_FunctionDef

    def _defaults(self, args: ast.arguments) -> None:
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)

    def _function_body(self, node: Any, bound: frozenset[str]) -> None:
        saved = self.scopes
        self.scopes = [set(bound), _locals(node)]
        try:
            for stmt in node.body if isinstance(node.body, list) else [node.body]:
                self.visit(stmt)
        finally:
            self.scopes = saved

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._defaults(node.args)
        # a lambda is almost always called where it is written (apply, map, sort keys)
        saved = self.scopes
        self.scopes = [*saved, _params(node.args)]
        try:
            self.visit(node.body)
        finally:
            self.scopes = saved

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expr in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(expr)
        self.scopes.append(set())
        try:
            for stmt in node.body:
                if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.visit(stmt)
        finally:
            self.scopes.pop()
        self.bind(node.name)

    def _comprehension(self, node: Any, *results: ast.AST) -> None:
        first, *rest = node.generators
        self.visit(first.iter)  # evaluated in the enclosing scope
        self.scopes.append(set())
        try:
            self.bind_target(first.target)
            for cond in first.ifs:
                self.visit(cond)
            for gen in rest:
                self.visit(gen.iter)
                self.bind_target(gen.target)
                for cond in gen.ifs:
                    self.visit(cond)
            for result in results:
                self.visit(result)
        finally:
            self.scopes.pop()

    def visit_ListComp(self, node: ast.ListComp) -> None:
        self._comprehension(node, node.elt)

    visit_SetComp = visit_ListComp
    visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node, node.key, node.value)


def _params(args: ast.arguments) -> set[str]:
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    if args.vararg:
        names.add(args.vararg.arg)
    if args.kwarg:
        names.add(args.kwarg.arg)
    return names


def _locals(node: Any) -> set[str]:
    """Names a function binds anywhere in its own scope (Python makes them all local)."""
    names = _params(node.args)
    stack = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(current.name)
            continue
        if isinstance(current, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(current, ast.Name) and isinstance(current.ctx, (ast.Store, ast.Del)):
            names.add(current.id)
        elif isinstance(current, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name.partition(".")[0]) for a in current.names)
        elif isinstance(current, ast.ExceptHandler) and current.name:
            names.add(current.name)
        elif isinstance(current, ast.Global | ast.Nonlocal):
            names.difference_update(current.names)
            continue
        stack.extend(ast.iter_child_nodes(current))
    return names
