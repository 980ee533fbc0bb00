"""matplotlib, file and import rules."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import os
import sys
import types
from typing import Any

from ._finding import Finding
from ._values import (
    Changed,
    Partial,
    is_abstract,
    is_frame,
    is_known,
    is_ndarray,
    is_series,
    is_tensor,
    meta_attr,
    safe_getattr,
    shape_of,
    type_root,
)
from ._walk._types import CallSite, Walker

__all__ = ["plot_call", "missing_file", "missing_folder", "missing_module", "torch_load"]


def _plot(exc: str, crash: str, text: str) -> Finding:
    return Finding(exception=exc, crash_type=crash, library="matplotlib", explanation=text,
                   confidence=0.93, rule="matplotlib")


def _one_dimensional(value: Any) -> bool:
    shape = shape_of(value)
    if shape is not None:
        return len(shape) == 1
    if is_series(value):
        return True
    return type(value) in (list, tuple) and all(type(v) in (int, float) for v in value)


def _length(value: Any) -> int | None:
    shape = shape_of(value) if is_abstract(value) else None
    if shape:
        return shape[0]
    if is_ndarray(value) or is_tensor(value) or is_series(value):
        return int(value.shape[0]) if value.ndim >= 1 else None
    if type(value) in (list, tuple, range):
        return len(value)
    return None


def plot_call(site: CallSite) -> Finding | None:
    """subplot indices beyond the grid, invalid image shapes, x/y length mismatches."""
    func, method = site.func, site.method
    if not is_known(func) or site.starred:
        return None
    root = type_root(func)
    if root != "matplotlib":
        return None
    name = method or (meta_attr(func, "__name__") or "")
    args = site.args
    if name in ("subplot", "add_subplot"):
        grid = None
        if len(args) == 3 and all(type(a) is int for a in args):
            grid = args
        elif len(args) == 1 and type(args[0]) is int and 111 <= args[0] <= 999:
            grid = (args[0] // 100, args[0] // 10 % 10, args[0] % 10)
        if grid is not None:
            rows, cols, num = grid
            if not 1 <= num <= rows * cols:
                return _plot("ValueError", "invalid argument",
                             f"num must be an integer with 1 <= num <= {rows * cols}, not "
                             f"{num}: a {rows}x{cols} grid has {rows * cols} subplots")
    if name == "imshow" and args and shape_of(args[0]) is not None:
        shape = shape_of(args[0]) or ()
        if not (len(shape) == 2 or (len(shape) == 3 and shape[-1] in (3, 4))):
            return _plot("TypeError", "invalid argument",
                         f"Invalid shape {shape} for image data: imshow needs (M, N), "
                         f"(M, N, 3) or (M, N, 4)")
    if name == "plot" and len(args) == 2 and not isinstance(args[1], str):
        a, b = _length(args[0]), _length(args[1])
        if a is not None and b is not None and a != b:
            return _plot("ValueError", "value error",
                         f"x and y must have same first dimension, but have lengths {a} and "
                         f"{b}")
    if name in ("bar", "barh") and len(args) >= 2:
        a, b = _length(args[0]), _length(args[1])
        if a is not None and b is not None and a != b and 1 not in (a, b):
            return _plot("ValueError", "value error",
                         f"shape mismatch: objects cannot be broadcast to a single shape: "
                         f"{a} positions and {b} heights")
    if name in ("xticks", "yticks") and len(args) >= 2:
        a, b = _length(args[0]), _length(args[1])
        if a is not None and b is not None and a != b:
            return _plot("ValueError", "value error",
                         f"The number of FixedLocator locations ({a}), usually from a call to "
                         f"set_ticks, does not match the number of labels ({b})")
    if name == "scatter" and len(args) >= 2:
        a, b = _length(args[0]), _length(args[1])
        if a is not None and b is not None and a != b:
            return _plot("ValueError", "value error",
                         f"x and y must be the same size: {a} vs {b}")
        c = site.kwargs.get("c")
        n = _length(c) if _one_dimensional(c) else None
        # three or four numbers are read as one RGB(A) colour
        if a is not None and a == b and n is not None and n not in (1, a, 3, 4):
            return _plot("ValueError", "value error",
                         f"'c' argument has {n} elements, which is inconsistent with 'x' and "
                         f"'y' with size {a}")
    return None


_READERS = {
    "pandas": frozenset({"read_csv", "read_excel", "read_json", "read_parquet", "read_table",
                         "read_pickle", "read_feather", "read_stata", "read_sas"}),
    "numpy": frozenset({"load", "loadtxt", "genfromtxt", "fromfile"}),
    "builtins": frozenset({"open"}),
    "posix": frozenset({"listdir", "scandir"}),
    "nt": frozenset({"listdir", "scandir"}),
    "PIL": frozenset({"open"}),
    "joblib": frozenset({"load"}),
    "torch": frozenset({"load"}),
    "keras": frozenset({"load_model"}),
    "tensorflow": frozenset({"load_model"}),
}
_WRITER_WORDS = ("to_csv", "save", "write", "dump", "download", "retrieve", "extract",
                 "unzip", "system", "run_line_magic", "run_cell_magic", "makedirs", "mkdir",
                 "copy", "move", "rename", "wget", "kaggle", "getoutput", "subprocess",
                 "chdir", "symlink", "to_excel", "to_parquet", "to_pickle", "export")


def missing_file(site: CallSite) -> Finding | None:
    """A reader called on a literal path that does not exist (relative to the kernel cwd)."""
    func = site.func
    if not is_known(func) or not site.args:
        return None
    root = type_root(func)
    name = (meta_attr(func, "__name__") or "")
    if name not in _READERS.get(root, ()):
        return None
    path = site.args[0]
    if not isinstance(path, str) or not path or "://" in path or any(c in path for c in "*?"):
        return None
    if name == "open":
        mode = site.args[1] if len(site.args) > 1 else site.kwargs.get("mode", "r")
        if not isinstance(mode, str) or any(c in mode for c in "wax+"):
            return None
    walker = site.walker
    if walker.environment_changed:
        return None
    line = site.node.lineno
    before = "\n".join(walker.lines[:line])
    if any(word in before for word in _WRITER_WORDS):
        return None
    full = os.path.expanduser(path)
    if os.path.exists(full):
        return None
    if name in ("listdir", "scandir") and not path:
        return None
    folder = os.path.dirname(os.path.abspath(full))
    hint = "" if os.path.isdir(folder) else f"; the folder {os.path.dirname(path)!r} " \
                                             f"does not exist either"
    return Finding(exception="FileNotFoundError", crash_type="file not found",
                   library=_lib(root), rule="missing-file", confidence=0.93,
                   explanation=f"{path!r} does not exist relative to the kernel's working "
                               f"directory {os.getcwd()!r}{hint}")


#: Writers that fail when the folder of the path they write does not exist, by the root
#: package of the callee and its name: where the path is (position, keyword), and what
#: they raise (measured: none of them makes the folder; Keras' ``.h5`` saving does, and is
#: not here).
_FOLDER_WRITERS: dict[tuple[str, str], tuple[int, str, str]] = {
    ("torch", "save"): (1, "f", "RuntimeError"),
    ("numpy", "save"): (0, "file", "FileNotFoundError"),
    ("numpy", "savez"): (0, "file", "FileNotFoundError"),
    ("numpy", "savez_compressed"): (0, "file", "FileNotFoundError"),
    ("numpy", "savetxt"): (0, "fname", "FileNotFoundError"),
    ("pandas", "to_csv"): (0, "path_or_buf", "OSError"),
    ("pandas", "to_json"): (0, "path_or_buf", "OSError"),
    ("pandas", "to_pickle"): (0, "path", "OSError"),
    ("matplotlib", "savefig"): (0, "fname", "FileNotFoundError"),
    ("seaborn", "savefig"): (0, "fname", "FileNotFoundError"),
    ("joblib", "dump"): (1, "filename", "FileNotFoundError"),
    ("io", "open"): (0, "file", "FileNotFoundError"),
    ("PIL", "save"): (0, "fp", "FileNotFoundError"),
    ("keras", "save"): (0, "filepath", "FileNotFoundError"),
    ("keras", "save_weights"): (0, "filepath", "FileNotFoundError"),
    ("xgboost", "save_model"): (0, "fname", "XGBoostError"),
    ("lightgbm", "save_model"): (0, "filename", "LightGBMError"),
}
#: Keras writes only these files itself (``.h5`` files through h5py, which makes the folder).
_KERAS_SUFFIXES = {"save": ".keras", "save_weights": ".weights.h5"}


def missing_folder(site: CallSite) -> Finding | None:
    """A writer given a path whose folder does not exist (relative to the kernel's working
    directory), where nothing the cell does before it can have made that folder: no shell
    command or magic, no call of the notebook's own code, no text before it that names the
    missing folder (an ``os.makedirs``, a ``Path.mkdir``, a library handed that name)."""
    func = site.func
    if not is_known(func) and isinstance(site.receiver, (Changed, Partial)) and site.method:
        # an object changed earlier in the cell (``df['b'] = ...``): its class is certain
        func = inspect.getattr_static(type(site.receiver.obj), site.method, None)
    if func is None or not is_known(func) or site.starred:
        return None
    root, name = type_root(func), meta_attr(func, "__name__") or ""
    spec = _FOLDER_WRITERS.get((root, name))
    if spec is None:
        return None
    position, keyword, exception = spec
    path = site.args[position] if len(site.args) > position else site.kwargs.get(keyword)
    if is_known(path) and isinstance(path, os.PathLike):
        try:
            path = os.fspath(path)
        except Exception:  # noqa: BLE001 - a strange path object: not this rule's
            return None
    if type(path) is not str or not path or "://" in path:
        return None
    if name == "open":
        mode = site.args[1] if len(site.args) > 1 else site.kwargs.get("mode", "r")
        if not isinstance(mode, str) or not any(c in mode for c in "wax"):
            return None
    if root == "keras" and not path.endswith(_KERAS_SUFFIXES[name]):
        return None  # another suffix: Keras refuses it for that, or h5py makes the folder
    walker = site.walker
    if walker.environment_changed or walker.namespace_dirty:
        return None
    full = os.path.abspath(os.path.expanduser(path))
    folder = os.path.dirname(full)
    if os.path.isdir(folder):
        return None
    missing = _missing_parts(folder)
    if missing is None or _may_make(site, missing):
        return None
    shown = os.path.dirname(path)
    message = {
        "RuntimeError": f"Parent directory {shown} does not exist.",
        "OSError": f"Cannot save file into a non-existent directory: {shown!r}",
    }.get(exception, f"[Errno 2] No such file or directory: {path!r}")
    return Finding(exception=exception, crash_type="file not found", library=_lib(root),
                   rule="missing-folder", confidence=0.93,
                   explanation=f"{message} (the folder {shown!r} does not exist relative to "
                               f"the kernel's working directory {os.getcwd()!r}, and nothing "
                               f"before this line in the cell makes it)")


def torch_load(site: CallSite) -> Finding | None:
    """``torch.load(path)`` with ``weights_only`` left to its default, which is True from
    torch 2.6: the file's pickle may hold only tensors, containers and plain values, and
    a checkpoint that also holds a numpy array or scalar (``{'model': ..., 'mean':
    feat_mean}``), a whole module (``torch.save(model, path)``), or any other class not
    allowed, is refused (``UnpicklingError``).
    Known where the file on disk holds such a class (`torch.serialization.
    get_unsafe_globals_in_checkpoint` reads its pickle without running it) and the cell
    does not write that path first, or where every ``torch.save`` of the cell before the
    load writes that path a dict written out with a value that is a numpy array or scalar
    of the namespace the cell does not bind again (the file on disk, if any, is refused
    too: whichever the load reads, it fails). Nothing is said where the cell makes the
    classes safe (``add_safe_globals``, ``safe_globals``), an earlier cell allowed classes
    of numpy, pandas, ``torch.nn`` or the user's own, or the environment forces the old
    default."""
    func = site.func
    torch = sys.modules.get("torch")
    if torch is None or site.starred or not is_known(func) or func is not getattr(torch, "load", None):
        return None
    serialization = getattr(torch, "serialization", None)
    unsafe_in = getattr(serialization, "get_unsafe_globals_in_checkpoint", None)
    if unsafe_in is None or len(site.args) > 2 or set(site.kwargs) - {"f", "map_location"}:
        return None  # weights_only, pickle_module, mmap given: not the default's
    if os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "").lower() in ("1", "y", "yes", "true"):
        return None
    path = site.args[0] if site.args else site.kwargs.get("f")
    if type(path) is not str or not path or "://" in path:
        return None
    walker = site.walker
    if walker.environment_changed or walker.namespace_dirty or "safe_globals" in walker.source:
        return None
    try:
        tree = ast.parse(walker.source)
    except SyntaxError:
        return None
    at = (site.node.lineno, site.node.col_offset)
    saves = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and (n.lineno, n.col_offset) < at
             and (isinstance(n.func, ast.Attribute) and n.func.attr == "save"
                  or isinstance(n.func, ast.Name) and n.func.id == "save")]
    written = {id(n.args[1]) for n in saves if len(n.args) > 1}
    if any(isinstance(n, ast.Constant) and n.value == path and id(n) not in written
           and (n.lineno, n.col_offset) < at for n in ast.walk(tree)):
        return None  # the path named before the load otherwise: copied, moved, removed
    full = os.path.expanduser(path)
    refused: list[str] = []
    if os.path.isfile(full):
        try:
            refused = list(unsafe_in(full))
        except Exception:  # noqa: BLE001 - not a checkpoint torch can read: not this rule's
            return None
        if not refused:
            return None
    if saves:
        found = _unsafe_saves(saves, path, tree, walker.namespace)
        if found is None:
            return None
        refused = refused or found
    if not refused:
        return None
    return Finding(exception="UnpicklingError", crash_type="type error", library="torch",
                   rule="torch-load-weights-only", confidence=0.93,
                   explanation=f"Weights only load failed: torch {torch.__version__} loads "
                               f"with weights_only=True by default, and {path!r} holds "
                               f"{', '.join(refused[:3])}, which it does not allow (pass "
                               f"weights_only=False for a checkpoint you trust, or save "
                               f"only tensors and plain values)")


def _unsafe_saves(saves: list[ast.Call], path: str, tree: ast.Module,
                  namespace: Any) -> list[str] | None:
    """The classes the cell's ``save`` calls write to ``path`` that torch's weights-only
    load refuses, where every ``torch.save`` of the cell to ``path`` writes a dict written
    out with such a value, or such a value itself (a numpy array or scalar, a pandas
    frame, a whole torch module, of the namespace, not bound again in the cell, or held
    by an object of it as an attribute, ``scaler.mean_``, whose attributes the cell
    neither stores nor calls a method of: `_refused_class`); None where one does not (or
    a save of a path not written out, which may be this one, or another ``save``)."""
    try:
        for entry in sys.modules["torch"].serialization.get_safe_globals():
            module = str(getattr(entry[0] if isinstance(entry, tuple) and entry else entry,
                                 "__module__", ""))
            if not module.startswith("torch") or module.startswith("torch.nn"):
                return None  # classes allowed by the user (torch allows a few of its own)
    except Exception:  # noqa: BLE001 - an older torch, a strange entry: not told
        return None
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
             and isinstance(n.ctx, (ast.Store, ast.Del))}
    # an object whose attribute the cell stores, or whose method it calls (``scaler.fit``
    # may set ``mean_`` anew), is not read: what the save writes may differ
    touched = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute)
               and isinstance(n.value, ast.Name) and (
                   isinstance(n.ctx, (ast.Store, ast.Del)) or any(
                       isinstance(c, ast.Call) and c.func is n for c in ast.walk(tree)))}

    def refused(node: ast.expr) -> str | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id not in bound | touched and node.value.id in namespace:
            # ``scaler.mean_``: an attribute the object holds, read without running code
            held = safe_getattr(namespace.get(node.value.id), node.attr)
            what = _refused_class(held)
            return f"{what} ({node.value.id}.{node.attr})" if what else None
        if not isinstance(node, ast.Name) or node.id in bound:
            return None
        what = _refused_class(namespace.get(node.id))
        return f"{what} ({node.id})" if what else None

    found: list[str] = []
    for call in saves:
        target = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "f"), None)
        if not (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                and call.func.value.id == "torch"
                and namespace.get("torch") is sys.modules.get("torch")):
            return None  # another save (a model's, ``from torch import save``): not told
        if not isinstance(target, ast.Constant) or type(target.value) is not str:
            return None  # a path not written out may be this one
        if target.value != path:
            continue  # another file (a checkpoint per epoch beside the final model)
        obj = call.args[0] if call.args else None
        if isinstance(obj, ast.Dict):
            unsafe = [what for what in map(refused, obj.values) if what]
        elif isinstance(obj, ast.Name):  # ``torch.save(model, path)``: the whole module
            unsafe = [what for what in [refused(obj)] if what]
        else:
            return None
        if not unsafe:
            return None
        found.extend(unsafe)
    return found


def _refused_class(held: Any) -> str | None:
    """What a weights-only load refuses of ``held``, a live value pickled whole: a numpy
    array or scalar, a pandas object, a torch module (its class is pickled by name:
    ``torch.save(model, path)``); None for anything else (tensors, plain values, or what
    is not told)."""
    kind = type(held)
    module = kind.__module__.partition(".")[0]
    if module == "numpy":
        return f"a numpy {kind.__name__}"
    if module == "pandas" and kind.__name__ in ("DataFrame", "Series"):
        return f"a pandas {kind.__name__}"
    torch = sys.modules.get("torch")
    base = getattr(getattr(torch, "nn", None), "Module", None)
    if base is not None and base in kind.__mro__:
        return f"a whole {kind.__name__} module (its class is pickled by name)"
    return None


def _missing_parts(folder: str) -> list[str] | None:
    """The names of ``folder``'s parts from the first that does not exist (None when a
    part is a file, or the folder cannot be read: not this rule's)."""
    parts: list[str] = []
    while not os.path.isdir(folder):
        if os.path.lexists(folder):
            return None
        head, tail = os.path.split(folder)
        if head == folder or not tail:
            return None
        parts.append(tail)
        folder = head
    return parts


def _may_make(site: CallSite, missing: list[str]) -> bool:
    """Whether something the cell does before this call may make a missing folder: a text
    before the call that names one of the missing parts (an ``os.makedirs('models')``, a
    checkpoint callback handed ``'models'``, ``!mkdir``), an import of a module not yet
    imported, or a name before it that holds such a text or is the user's own code that
    may make folders (`_code_may_make`). What the cell makes from library calls is the
    libraries' (a loss, a tensor): their code makes none of the user's folders."""
    walker = site.walker
    if walker.modules_changed:
        return True  # a module imported now runs its code
    at = (site.node.lineno, site.node.col_offset)
    lines = walker.lines
    before = "\n".join([*lines[:at[0] - 1], lines[at[0] - 1][:at[1]]]
                       if at[0] - 1 < len(lines) else lines)
    if any(part in before for part in missing):
        return True
    try:
        tree = ast.parse(walker.source)
    except SyntaxError:
        return True
    seen: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                (node.lineno, node.col_offset) < at and node.id in walker.namespace:
            if _code_may_make(walker.namespace[node.id], missing, walker.namespace, seen):
                return True
    return False


def _library(value: Any) -> bool:
    """Whether ``value`` (a module, a function, a class or an object) comes from an
    installed package or the standard library, by the file of its module."""
    if isinstance(value, types.ModuleType):
        module = value
    else:
        if isinstance(value, types.MethodType):
            value = value.__func__
        owner = value if isinstance(value, (type, types.FunctionType,
                                            types.BuiltinFunctionType)) else type(value)
        name = meta_attr(owner, "__module__")
        if name == "builtins":
            return True
        module = sys.modules.get(name) if isinstance(name, str) else None
        if module is None:
            return False
    path = getattr(module, "__file__", None)
    if not isinstance(path, str):
        return module.__name__ in sys.builtin_module_names
    return os.path.realpath(path).startswith(_LIBRARY_ROOTS)


def _library_roots() -> tuple[str, ...]:
    """The folders of the standard library and of installed packages."""
    import site as _site
    import sysconfig

    roots = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    try:
        roots.update(_site.getsitepackages())
    except AttributeError:  # an old virtualenv's site module
        pass
    return tuple(os.path.realpath(root) + os.sep for root in roots if root)


_LIBRARY_ROOTS = _library_roots()


def _user_code_of(value: Any) -> list[types.CodeType]:
    """The code objects of ``value``, the user's own (a function, or a class or an object of
    a class: the functions of its classes that are no library's). Read through the type's
    own slots: no ``__getattr__`` or metaclass of the user's runs."""
    if isinstance(value, types.MethodType):
        value = value.__func__
    if isinstance(value, types.FunctionType):
        return [value.__code__]
    cls = value if isinstance(value, type) else type(value)
    codes = []
    for klass in type.__getattribute__(cls, "__mro__"):
        if _library(klass):
            continue
        for attr in type.__getattribute__(klass, "__dict__").values():
            if isinstance(attr, (staticmethod, classmethod)):
                attr = attr.__func__
            if isinstance(attr, types.FunctionType):
                codes.append(attr.__code__)
    return codes


#: Names whose use in the notebook's code may make a folder or run what does.
_FOLDER_MAKERS = frozenset({
    "makedirs", "mkdir", "mkdtemp", "system", "popen", "Popen", "run", "call", "check_call",
    "check_output", "getoutput", "chdir", "copytree", "move", "rename", "renames",
    "unpack_archive", "extractall", "run_line_magic", "run_cell_magic", "exec", "eval",
    "symlink", "copy", "copy2", "replace",
})


def _code_may_make(value: Any, missing: list[str], namespace: Any, seen: set[int]) -> bool:
    """Whether ``value``, when it is the user's own code (a function, a class, an object of
    a class of theirs: no installed package's or the standard library's), may make a
    missing folder: its code (and the code of the user's functions and classes it names,
    and of its classes' methods) uses a name of `_FOLDER_MAKERS` or a text that holds a
    missing part; a module of the user's may. A library's function or object (numpy's,
    torch's) makes none of the user's folders."""
    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, (str, os.PathLike)):  # a setting the code reads (``OUT_DIR``)
        try:
            return any(part in os.fspath(value) for part in missing)
        except Exception:  # noqa: BLE001 - a strange path: it may name the folder
            return True
    try:
        if _library(value):
            return False
        if isinstance(value, types.ModuleType):
            return True  # the user's own module: any of its functions may
        codes = _user_code_of(value)
    except Exception:  # noqa: BLE001 - cannot read it: it may make the folder
        return True
    if not codes:
        return False
    names: set[str] = set()
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                codes.append(const)
            elif isinstance(const, str) and any(part in const for part in missing):
                return True
    if names & _FOLDER_MAKERS:
        return True
    return any(_code_may_make(namespace[name], missing, namespace, seen)
               for name in names if name in namespace and len(seen) < 50)


def _lib(root: str) -> str:
    return {"pandas": "pandas", "numpy": "numpy", "torch": "torch", "keras": "tensorflow",
            "tensorflow": "tensorflow"}.get(root, "python")


def missing_module(stmt: ast.stmt, walker: Walker) -> Finding | None:
    """``import x`` / ``from x import y`` where x is not installed or y does not exist."""
    if walker.environment_changed:
        return None  # e.g. `%pip install x` earlier in the cell
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            found = _check_module(alias.name)
            if found:
                return found
    elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
        found = _check_module(stmt.module)
        if found:
            return found
        module = sys.modules.get(stmt.module)
        if not isinstance(module, types.ModuleType) or type(module) is not types.ModuleType:
            return None
        if "__getattr__" in module.__dict__:
            return None
        for alias in stmt.names:
            if alias.name == "*" or alias.name in module.__dict__:
                continue
            sub = f"{stmt.module}.{alias.name}"
            if sub in sys.modules:
                continue
            if hasattr(module, "__path__"):
                try:
                    if importlib.util.find_spec(sub) is not None:
                        continue
                except (ImportError, ValueError):
                    return None
            return Finding(exception="ImportError", crash_type="module not found",
                           library=_lib(stmt.module.partition(".")[0]) if stmt.module.partition(
                               ".")[0] in ("pandas", "numpy", "torch", "keras", "tensorflow")
                           else ("sklearn" if stmt.module.startswith("sklearn") else "python"),
                           rule="import", confidence=0.95,
                           explanation=f"cannot import name '{alias.name}' from "
                                       f"'{stmt.module}': the installed module has no such "
                                       f"name")
    return None


def _check_module(dotted: str) -> Finding | None:
    top = dotted.partition(".")[0]
    if top in sys.modules:
        if dotted in sys.modules:
            return None
        parent = dotted.rpartition(".")[0]
        if parent not in sys.modules:
            return None
        try:
            if importlib.util.find_spec(dotted) is not None:
                return None
        except (ImportError, ValueError):
            return None
        missing = dotted
    else:
        try:
            if importlib.util.find_spec(top) is not None:
                return None
        except (ImportError, ValueError):
            return None
        missing = top
    return Finding(exception="ModuleNotFoundError", crash_type="module not found",
                   library="python", rule="import", confidence=0.95,
                   explanation=f"No module named '{missing}': it is not installed in the "
                               f"kernel's environment")




_SEABORN_VECTOR_PLOTS = frozenset({
    "scatterplot", "lineplot", "histplot", "kdeplot", "ecdfplot", "rugplot", "countplot",
    "barplot", "boxplot", "violinplot", "boxenplot", "stripplot", "swarmplot", "pointplot",
    "relplot", "displot", "catplot", "jointplot",
})
_SEABORN_VARIABLES = ("x", "y", "hue", "col", "row", "size", "style", "units", "weights")


#: Plots that put x= and y= vectors into one long-form table (pandas requires equal
#: lengths).
_SEABORN_LONG_FORM = frozenset({"lineplot", "scatterplot", "barplot", "boxplot",
                                "violinplot", "stripplot", "swarmplot", "pointplot"})


def seaborn_call(site: CallSite) -> Finding | None:
    """A seaborn plot naming a column (x=, y=, hue=, ...) that ``data`` does not have."""
    func = site.func
    if not is_known(func) or site.starred or type_root(func) != "seaborn":
        return None
    if (meta_attr(func, "__name__") or "") not in _SEABORN_VECTOR_PLOTS:
        return None
    data = site.kwargs.get("data", site.args[0] if site.args else None)
    if data is None and "x" in site.kwargs and "y" in site.kwargs:
        a, b = _length(site.kwargs["x"]), _length(site.kwargs["y"])
        if a is not None and b is not None and a != b and (
                meta_attr(func, "__name__") or "") in _SEABORN_LONG_FORM:
            return Finding(
                exception="ValueError", crash_type="value error", library="seaborn",
                rule="seaborn-lengths", confidence=0.93,
                explanation=f"All arrays must be of the same length: x has {a} values, y "
                            f"has {b}")
    if not is_frame(data) or type(data.columns).__name__ == "MultiIndex":
        return None
    for var in _SEABORN_VARIABLES:
        key = site.kwargs.get(var)
        if isinstance(key, str) and key not in data.columns and key not in data.index.names:
            cols = [str(c) for c in list(data.columns[:8])]
            return Finding(
                exception="ValueError", crash_type="invalid argument", library="seaborn",
                rule="seaborn-variable", confidence=0.93,
                explanation=f"Could not interpret value `{key}` for `{var}`: the data has no "
                            f"such column (columns: {cols}"
                            f"{', ...' if data.shape[1] > 8 else ''})")
    return None


_FRAME_PLOT_KEYS = {"plot": ("x", "y"), "boxplot": ("column", "by"), "hist": ("column", "by")}


def frame_plot_call(site: CallSite) -> Finding | None:
    """``df.plot(x=..., y=...)``, ``df.plot.scatter``, ``df.boxplot(column=...)`` naming a
    column the frame does not have (pandas raises KeyError)."""
    receiver, method = site.receiver, site.method
    if site.starred or method is None or not is_known(receiver):
        return None
    if is_frame(receiver) and method in _FRAME_PLOT_KEYS:
        frame, keys = receiver, _FRAME_PLOT_KEYS[method]
    elif type(receiver).__name__ == "PlotAccessor" and is_frame(getattr(receiver, "_parent",
                                                                       None)):
        frame, keys = receiver._parent, ("x", "y")
    else:
        return None
    if type(frame.columns).__name__ == "MultiIndex":
        return None
    for key in keys:
        value = site.kwargs.get(key)
        names = [value] if isinstance(value, str) else value if type(value) is list else []
        missing = [n for n in names if isinstance(n, str) and n not in frame.columns]
        if missing:
            cols = [str(c) for c in list(frame.columns[:8])]
            return Finding(exception="KeyError", crash_type="key error", library="pandas",
                           rule="frame-plot", confidence=0.93,
                           explanation=f"{key}={missing[0]!r} is not a column of "
                                       f"{site.text(site.node.func.value).removesuffix('.plot')}"
                                       f" (columns: {cols}{', ...' if frame.shape[1] > 8 else ''})")
    return None
