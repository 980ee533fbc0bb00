"""Small queries on syntax-tree nodes used by the per-cell pass."""

from __future__ import annotations

import ast

from ._model import NameRef

__all__ = [
    "OPS",
    "flatten",
    "is_str",
    "magic_call",
    "outer",
    "read_names",
    "root_name",
    "short",
    "signature",
    "subexpressions",
    "unique_refs",
    "unparse",
]

OPS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^",
    ast.LShift: "<<", ast.RShift: ">>", ast.MatMult: "@",
}


def magic_call(node: ast.expr) -> tuple[str, str, list[str]] | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    attr = node.func.attr
    if attr not in ("run_line_magic", "run_cell_magic"):
        return None
    owner = node.func.value
    if not (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "get_ipython"):
        return None
    consts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if not consts:
        return None
    return ("line" if attr == "run_line_magic" else "cell"), consts[0], consts[1:]


def outer(node: ast.AST) -> list[ast.expr]:
    parts = list(getattr(node, "decorator_list", ()))
    if isinstance(node, ast.ClassDef):
        return parts + node.bases + [k.value for k in node.keywords]
    args = node.args
    parts += [d for d in (*args.defaults, *args.kw_defaults) if d is not None]
    if not isinstance(node, ast.Lambda):
        parts += [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.annotation]
        if node.returns is not None:
            parts.append(node.returns)
    return parts


def root_name(node: ast.expr) -> ast.Name | None:
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node if isinstance(node, ast.Name) else None


def unique_refs(loads: list[ast.Name], defined: set[str], offset: int) -> tuple[NameRef, ...]:
    seen: dict[str, NameRef] = {}
    for node in loads:
        if node.id not in defined and node.id not in seen:
            seen[node.id] = NameRef(name=node.id, line=node.lineno + offset, column=node.col_offset)
    return tuple(seen.values())


def is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def flatten(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [leaf for elt in target.elts for leaf in flatten(elt)]
    if isinstance(target, ast.Starred):
        return flatten(target.value)
    return [target]


def read_names(node: ast.expr) -> frozenset[str]:
    return frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))


def subexpressions(node: ast.expr) -> set[str]:
    return {unparse(n) for n in ast.walk(node) if isinstance(n, (ast.Subscript, ast.Attribute))}


def unparse(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # unparse can fail on odd constants; the text is only for messages
        return "<expr>"


def short(node: ast.AST | None, limit: int = 60) -> str:
    text = unparse(node) if node is not None else ""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def signature(call: ast.Call | None) -> str:
    """The operation without `inplace=`, so that `df.drop(..., inplace=True)` and
    `df = df.drop(...)` applied to the same object compare equal."""
    if call is None:
        return ""
    stripped = ast.Call(
        func=call.func,
        args=call.args,
        keywords=[k for k in call.keywords if k.arg != "inplace"],
    )
    return unparse(stripped)
