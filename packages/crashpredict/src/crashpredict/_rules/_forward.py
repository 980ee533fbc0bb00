"""Follow a user ``nn.Module``'s ``forward`` by reading its source, never by calling it.

Only a straight chain is followed: assignments to plain names and one final ``return``,
whose expressions call the module's own built-in layers (``self.conv1(x)``), torch and
``torch.nn.functional`` functions, tensor methods (``x.view(x.size(0), -1)``) and integer
arithmetic. Each step runs on the meta device (``_meta``). Anything else (a branch, a
loop, a user function, a submodule that is itself a user module beyond a few levels, a
hook) stops the walk with no verdict: the dry run is the engine for that.
"""

from __future__ import annotations

import ast
import inspect
import operator
import sys
import textwrap
import types
from typing import Any

from ._meta import (
    MetaFailure,
    builtin_module_class,
    meta_failure_finding,
    meta_module,
    module_device,
    run_function,
    run_module,
    torch_function_ok,
    torch_math,
    wrap_output,
)
from ._values import is_abstract, is_tensor, is_torch_module
from ._walk._types import CallSite

__all__ = ["follow_forward"]

_MAX_DEPTH = 3
_INT_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
            ast.FloorDiv: operator.floordiv}
_TENSOR_OPS = {**_INT_OPS, ast.Div: operator.truediv, ast.MatMult: operator.matmul}


class _Stop(Exception):
    """The forward is not a straight chain we can follow."""


class _Self:
    __slots__ = ("module",)

    def __init__(self, module: Any) -> None:
        self.module = module


def _forward_tree(module: Any) -> ast.FunctionDef | None:
    forward = type(module).__dict__.get("forward")
    if not isinstance(forward, types.FunctionType):
        return None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(forward)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list:
        return None
    args = fn.args
    if len(args.args) != 2 or args.vararg or args.kwarg or args.kwonlyargs or args.defaults:
        return None
    return fn


class _Chain:
    """Abstract evaluation of one straight-chain forward on meta tensors."""

    def __init__(self, site: CallSite, cache: dict, device: str | None) -> None:
        self.site = site
        self.cache = cache
        self.device = device

    def run(self, module: Any, x: Any, depth: int) -> Any:
        if depth > _MAX_DEPTH or module._forward_hooks or module._forward_pre_hooks:
            raise _Stop
        fn = _forward_tree(module)
        if fn is None:
            raise _Stop
        glob = getattr(type(module).__dict__["forward"], "__globals__", {})
        env: dict[str, Any] = {fn.args.args[0].arg: _Self(module), fn.args.args[1].arg: x}
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        for stmt in body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                    stmt.targets[0], ast.Name):
                env[stmt.targets[0].id] = self.ev(stmt.value, env, glob, depth)
            elif isinstance(stmt, ast.Return) and stmt.value is not None:
                return self.ev(stmt.value, env, glob, depth)
            else:
                raise _Stop
        raise _Stop

    def ev(self, node: ast.expr, env: dict, glob: dict, depth: int) -> Any:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool,
                                                                   type(None)):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            value = glob.get(node.id)
            if isinstance(value, types.ModuleType) and value.__name__.startswith("torch"):
                return value
            raise _Stop
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            value = self.ev(node.operand, env, glob, depth)
            if type(value) is int:
                return -value
            raise _Stop
        if isinstance(node, ast.Tuple):
            return tuple(self.ev(e, env, glob, depth) for e in node.elts)
        if isinstance(node, ast.BinOp):
            return self._binop(node, env, glob, depth)
        if isinstance(node, ast.Attribute):
            return self._attribute(node, env, glob, depth)
        if isinstance(node, ast.Subscript):
            base = self.ev(node.value, env, glob, depth)
            key = self.ev(node.slice, env, glob, depth)
            if type(base) is tuple and type(key) is int and -len(base) <= key < len(base):
                return base[key]
            raise _Stop
        if isinstance(node, ast.Call):
            return self._call(node, env, glob, depth)
        raise _Stop

    def _binop(self, node: ast.BinOp, env: dict, glob: dict, depth: int) -> Any:
        left = self.ev(node.left, env, glob, depth)
        right = self.ev(node.right, env, glob, depth)
        if type(left) is int and type(right) is int and type(node.op) in _INT_OPS:
            return _INT_OPS[type(node.op)](left, right)
        torch = sys.modules["torch"]
        if (isinstance(left, torch.Tensor) or isinstance(right, torch.Tensor)) and type(
                node.op) in _TENSOR_OPS:
            return self._step(run_function, _TENSOR_OPS[type(node.op)], [left, right], {},
                              ast.unparse(node))
        raise _Stop

    def _attribute(self, node: ast.Attribute, env: dict, glob: dict, depth: int) -> Any:
        base = self.ev(node.value, env, glob, depth)
        torch = sys.modules["torch"]
        if isinstance(base, _Self):
            child = base.module._modules.get(node.attr)
            if child is None:
                raise _Stop
            return child
        if isinstance(base, types.ModuleType):
            value = base.__dict__.get(node.attr)
            if value is None and f"{base.__name__}.{node.attr}" in sys.modules:
                return sys.modules[f"{base.__name__}.{node.attr}"]
            if value is None:
                raise _Stop
            return value
        if isinstance(base, torch.Tensor) and node.attr in ("shape", "T", "ndim", "dtype"):
            value = getattr(base, node.attr)
            return tuple(value) if node.attr == "shape" else value
        raise _Stop

    def _call(self, node: ast.Call, env: dict, glob: dict, depth: int) -> Any:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            raise _Stop
        torch = sys.modules["torch"]
        args = [self.ev(a, env, glob, depth) for a in node.args]
        kwargs = {k.arg: self.ev(k.value, env, glob, depth) for k in node.keywords}
        text = ast.unparse(node)
        if isinstance(node.func, ast.Attribute):
            receiver = self.ev(node.func.value, env, glob, depth)
            if isinstance(receiver, torch.Tensor):
                method = getattr(receiver, node.func.attr, None)
                if method is None or not torch_function_ok(method) or node.func.attr in (
                        "to", "cuda", "cpu", "numpy"):
                    raise _Stop
                return self._step(run_function, method, args, kwargs, text, bound=True)
        func = self.ev(node.func, env, glob, depth)
        if is_torch_module(func):
            if kwargs or len(args) != 1:
                raise _Stop
            if builtin_module_class(type(func)):
                meta = meta_module(func, self.cache)
                if meta is None:
                    raise _Stop
                return self._step(run_module, meta, args, None, text)
            return self.run(func, args[0], depth + 1)
        if callable(func) and not isinstance(func, type) and torch_math(func):
            return self._step(run_function, func, args, kwargs, text)
        raise _Stop

    def _step(self, runner: Any, target: Any, args: list, kwargs: dict | None,
              text: str, bound: bool = False) -> Any:
        torch = sys.modules["torch"]
        if not bound and not any(isinstance(a, torch.Tensor) for a in args):
            raise _Stop
        if runner is run_module:
            out = run_module(target, args, text)
        else:
            out = run_function(target, args, kwargs or {}, text)
        if out is None:
            raise _Stop
        return out


def follow_forward(module: Any, x: Any, site: CallSite, cache: dict) -> Any:
    """The Abstract output of ``module(x)`` for a user module with a straight-chain forward.

    Reports the crash when a built-in layer in the chain rejects what reaches it; returns
    None when the chain cannot be followed.
    """
    from ._meta import meta_tensor

    meta = meta_tensor(x)
    if meta is None or not (is_abstract(x, "tensor") or is_tensor(x)):
        return None
    device = module_device(module)
    chain = _Chain(site, cache, device)
    try:
        out = chain.run(module, meta, 0)
    except _Stop:
        return None
    except MetaFailure as failure:
        call_text = site.text(site.node)
        site.walker.report(meta_failure_finding(
            failure, call_text if len(call_text) <= 80 else call_text[:77] + "...",
            (f"{type(module).__name__}.forward followed from its source (not run)",)),
            site.node)
        return None
    except Exception:
        return None
    x_device = x.device if is_abstract(x) else str(getattr(x, "device", "cpu"))
    return wrap_output(out, x_device)
