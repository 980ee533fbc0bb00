"""Mine benchkit modernize's drift knowledge base from the libraries themselves.

    .venv/bin/python scripts/mine_drift.py [--cache DIR] [--out DIR] [--offline]

What it does, per library (numpy, pandas, scikit-learn, matplotlib, seaborn, Keras):

1. ``pip download --no-deps`` the wheels of old releases (``RELEASES``) into ``--cache``
   (kept, so a second run needs no network; ``--offline`` uses only what is there) and
   unpacks their ``.py`` files. Nothing old is imported: the sources are read with ``ast``.
2. Walks every function, method and class of those sources and collects what the library
   said about its own removals: ``.. deprecated::`` notes, ``warnings.warn(...)`` messages,
   and the deprecation decorators (pandas ``deprecate_kwarg`` and
   ``deprecate_nonkeyword_arguments``, matplotlib ``rename_parameter`` / ``delete_parameter``
   / ``deprecated(alternative=...)``, scikit-learn ``@deprecated`` and
   ``_deprecate_positional_args``, seaborn ``_deprecate_positional_args``), and the old
   signatures and ``__all__`` lists.
3. Compares each against the installed (current) library, imported normally: a member,
   name or keyword that the old release had and today's lacks is a removal; the replacement
   is read from the library's own message ("use X instead", "renamed to", decorator
   arguments), or found where the name lives now (scikit-learn names that moved modules), or
   taken from ``CURATED`` (release-note entries for what the sources cannot say:
   ``pd.ewma`` became a method, TF 1 names, ...).
4. Builds a before/after test for every entry, runs it under today's versions, and keeps
   only the entries whose "before" fails with the claimed error and whose "after" runs.
5. Writes one JSON file per library to ``--out`` (default: the package's ``drift/``).

A run takes about two minutes with a warm cache (the downloads add ~1 minute); it is
deterministic for a given set of installed versions. Re-run it after upgrading the
pinned libraries and commit the JSON it writes.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import importlib
import inspect
import json
import re
import subprocess
import sys
import time
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "packages" / "benchkit" / "src" / "benchkit" / "_modernize" / "drift"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from drift_curated import CURATED  # noqa: E402

from benchkit._modernize._resolve import module_distance  # noqa: E402

# (distribution, version, python tag used to pick a wheel, platform, import name)
RELEASES = [
    ("numpy", "1.24.4", "3.8", "manylinux2014_x86_64", "numpy"),
    ("numpy", "1.26.4", "3.9", "manylinux2014_x86_64", "numpy"),
    ("pandas", "0.25.3", "3.7", "manylinux1_x86_64", "pandas"),
    ("pandas", "1.5.3", "3.8", "manylinux2014_x86_64", "pandas"),
    ("scikit-learn", "0.22.2.post1", "3.7", "manylinux1_x86_64", "sklearn"),
    ("scikit-learn", "0.24.2", "3.8", "manylinux2010_x86_64", "sklearn"),
    ("scikit-learn", "1.1.3", "3.8", "manylinux2014_x86_64", "sklearn"),
    ("scikit-learn", "1.2.2", "3.8", "manylinux2014_x86_64", "sklearn"),
    ("scikit-learn", "1.4.2", "3.9", "manylinux2014_x86_64", "sklearn"),
    ("matplotlib", "3.3.4", "3.8", "manylinux1_x86_64", "matplotlib"),
    ("matplotlib", "3.7.5", "3.8", "manylinux2014_x86_64", "matplotlib"),
    ("seaborn", "0.11.2", "3.8", "any", "seaborn"),
    ("keras", "2.12.0", "3.8", "any", "keras"),
]
LIBRARY = {"numpy": "numpy", "pandas": "pandas", "sklearn": "scikit-learn",
           "matplotlib": "matplotlib", "seaborn": "seaborn", "keras": "keras"}
ALIAS = {"numpy": "np", "pandas": "pd", "matplotlib": "matplotlib", "seaborn": "sns",
         "sklearn": "sklearn", "keras": "keras"}
# files never mined: tests, vendored code, private helpers of the build
SKIP = re.compile(r"/(tests?|testing|_vendor|externals|conftest|_build_utils|_testing|compat"
                  r"|estimator_checks|interchange|csvs|internals)[/.]")

# how a library's messages name the replacement of a removed API
_USE = [
    re.compile(r"[Uu]se\s+[`'\"]*(?:np\.|pd\.|pandas\.|numpy\.)?([A-Za-z_][\w.]*)[`'\"]*(?:\(\))?[`'\"]*\s+instead"),
    re.compile(r"[Pp]lease use\s+[`'\"]*([A-Za-z_][\w.]*)"),
    re.compile(r"(?:renamed|replaced)\s+(?:to|by|with)\s+[`'\"]*([A-Za-z_][\w.]*)"),
    re.compile(r"in favou?r of\s+[`'\"]*([A-Za-z_][\w.]*)"),
    re.compile(r"[Uu]se\s+[`'\"]*([A-Za-z_][\w.]*)[`'\"]*\s*(?:\.|$)"),
]


@dataclass(slots=True)
class Def:
    """One function, method or class of an old release, as ``ast`` saw it."""

    module: str
    owner: str | None
    name: str
    params: list[str]
    kwonly: list[str]
    varkw: bool
    decorators: list[ast.expr]
    texts: list[str]
    version: str
    file: str
    is_class: bool = False


@dataclass(slots=True)
class Miner:
    """Collects entries (by id, first wins) and the count of what was looked at."""

    entries: dict[str, dict] = field(default_factory=dict)
    looked: int = 0

    def add(self, entry: dict) -> None:
        self.entries.setdefault(entry["id"], entry)


def download(cache: Path, offline: bool) -> dict[tuple[str, str], Path]:
    """Wheels of ``RELEASES`` unpacked (``.py`` files only) below ``cache/src``."""
    cache.mkdir(parents=True, exist_ok=True)
    found = {}
    for dist, version, py, platform, _name in RELEASES:
        target = cache / "src" / f"{dist}-{version}"
        if not target.is_dir():
            wheel = next(cache.glob(f"{dist.replace('-', '_')}-{version}-*.whl"), None)
            if wheel is None and not offline:
                cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                       "--python-version", py, "-d", str(cache), "-q", f"{dist}=={version}"]
                if platform != "any":
                    cmd[5:5] = ["--platform", platform]
                subprocess.run(cmd, check=False, capture_output=True)
                wheel = next(cache.glob(f"{dist.replace('-', '_')}-{version}-*.whl"), None)
            if wheel is None:
                print(f"  skipped {dist} {version}: no wheel", file=sys.stderr)
                continue
            with zipfile.ZipFile(wheel) as zf:
                zf.extractall(target, [n for n in zf.namelist() if n.endswith(".py")])
        found[(dist, version)] = target
    return found


def _strings(node: ast.AST) -> list[str]:
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.append(sub.value)
        elif isinstance(sub, ast.JoinedStr):
            out.append("".join(v.value if isinstance(v, ast.Constant) else "{}" for v in sub.values))
    return out


def _warn_texts(func: ast.AST) -> list[str]:
    """Docstring deprecation notes and the strings near ``warnings.warn`` calls."""
    texts = []
    doc = ast.get_docstring(func) if isinstance(func, (ast.FunctionDef, ast.ClassDef)) else None
    if doc and "deprecated" in doc:
        match = re.search(r"\.\. deprecated::.*?(?:\n\s*\n|$)", doc, re.S)
        if match:
            texts.append(" ".join(match.group(0).split()))
    body = func.body if isinstance(func, (ast.FunctionDef, ast.ClassDef)) else []
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            continue
        src = _strings(stmt)
        if any(isinstance(n, ast.Attribute) and n.attr == "warn" for n in ast.walk(stmt)) or any(
                "deprecat" in s for s in src):
            texts.append(" ".join(" ".join(src).split()))
    return [t for t in texts if "deprecat" in t or "removed" in t or "renamed" in t]


def _decorator_texts(node: ast.AST) -> list[str]:
    """The message of a ``@deprecated("...")`` decorator (scikit-learn's, matplotlib's)."""
    out = []
    for dec in getattr(node, "decorator_list", ()):
        if isinstance(dec, ast.Call):
            name = dec.func.attr if isinstance(dec.func, ast.Attribute) else getattr(dec.func, "id", "")
            if "deprecat" in name:
                texts = _strings(dec)
                if texts:
                    out.append(" ".join(" ".join(texts).split()))
    return out


def walk_defs(root: Path, package: str, version: str) -> Iterator[Def]:
    base = root / package
    for path in sorted(base.rglob("*.py")):
        rel = "/" + str(path.relative_to(root))
        if SKIP.search(rel):
            continue
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        for node in tree.body:
            yield from _defs(node, module, None, version, rel)


def _defs(node: ast.AST, module: str, owner: str | None, version: str, file: str) -> Iterator[Def]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = node.args
        yield Def(module=module, owner=owner, name=node.name,
                  params=[p.arg for p in (*a.posonlyargs, *a.args)],
                  kwonly=[p.arg for p in a.kwonlyargs], varkw=a.kwarg is not None,
                  decorators=list(node.decorator_list),
                  texts=_decorator_texts(node) + _warn_texts(node),
                  version=version, file=file)
    elif isinstance(node, ast.ClassDef) and owner is None:
        yield Def(module=module, owner=None, name=node.name, params=[], kwonly=[], varkw=False,
                  decorators=list(node.decorator_list),
                  texts=_decorator_texts(node) + _warn_texts(node),
                  version=version, file=file, is_class=True)
        for item in node.body:
            yield from _defs(item, module, node.name, version, file)


def module_all(root: Path, package: str) -> dict[str, list[str]]:
    """``__all__`` of every public module of an old release."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        rel = "/" + str(path.relative_to(root))
        parts = path.relative_to(root).with_suffix("").parts
        if SKIP.search(rel) or any(p.startswith("_") and p != "__init__" for p in parts):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        for node in tree.body:
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                     for t in node.targets)
                    and isinstance(node.value, (ast.List, ast.Tuple))):
                names = [e.value for e in node.value.elts
                         if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                out[".".join(parts).removesuffix(".__init__")] = names
    return out


# -- the current libraries ----------------------------------------------------------------

def current(path: str):
    """The object at dotted ``path`` today, or ``None``."""
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                obj = importlib.import_module(".".join(parts[:k]))
        except Exception:
            continue
        for attr in parts[k:]:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    obj = getattr(obj, attr)
            except Exception:
                return None
        return obj
    return None


def public_path(d: Def, package: str) -> str | None:
    """Where users reach ``d``'s owner (or ``d``) today: the package's top level when the
    object there is defined in the same file as the old one, else its old public module."""
    name = d.owner or d.name
    if name.startswith("_"):
        return None
    top_obj = getattr(current(package), name, None)
    if top_obj is not None and _same_file(top_obj, d.file):
        return f"{package}.{name}"
    here = current(f"{d.module}.{name}")
    if _public_module(d.module) and here is not None:
        return f"{d.module}.{name}"
    if here is not None:  # defined in a private module: where the package exports it
        homes = [m for m in public_index(package).get(name, ()) if current(f"{m}.{name}") is here]
        if homes:
            return f"{min(homes, key=lambda m: (len(m.split('.')), len(m)))}.{name}"
    return None


def _same_file(obj, file: str) -> bool:
    try:
        where = inspect.getfile(inspect.unwrap(obj))
    except (TypeError, ValueError):
        return False
    return Path(where).stem == Path(file).stem


def signature_params(obj) -> tuple[set[str], bool] | None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    names = set(sig.parameters)
    varkw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values())
    return names, varkw


def replacement(texts: list[str]) -> str | None:
    for text in texts:
        for pattern in _USE:
            match = pattern.search(text)
            if match:
                value = match.group(1).rstrip(".")
                if value and value not in {"the", "a", "an", "it", "this", "that", "of"}:
                    return value
    return None


def _decorator(d: Def, *names: str) -> Iterator[ast.Call]:
    for dec in d.decorators:
        if isinstance(dec, ast.Call):
            func = dec.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in names:
                yield dec


def _literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except Exception:
        return None


def _call_args(dec: ast.Call) -> tuple[list, dict]:
    return [_literal(a) for a in dec.args], {k.arg: _literal(k.value) for k in dec.keywords}


# -- entries --------------------------------------------------------------------------------

def _kw_entry(package: str, owner_path: str, method: str | None, keyword: str, new: str | None,
              d: Def, how: str) -> dict:
    target = f"{owner_path}.{method}" if method else owner_path
    setup = f"import {package}\nimport {_module_of(owner_path)}\nimport inspect\n"
    # binding to today's signature refuses the keyword (no code of the library runs)
    self_arg = "None, " if method else ""
    before = f"inspect.signature({target}).bind_partial({self_arg}{keyword}=None)"
    after = (f"assert {new!r} in inspect.signature({target}).parameters" if new
             else f"assert {keyword!r} not in inspect.signature({target}).parameters")
    return {"id": f"{LIBRARY[package]}:{target.removeprefix(package + '.')}({keyword}=)",
            "library": LIBRARY[package], "kind": "keyword-renamed" if new else "keyword-removed",
            "old": target, "keyword": keyword, "new": new,
            "method": bool(method), "last_seen": d.version,
            "source": f"mined: {LIBRARY[package]} {d.version} {d.file.lstrip('/')} ({how})",
            "test": {"setup": setup, "before": before, "error": "TypeError",
                     "match": keyword, "after": after, "check": "signature"}}


def mine_keywords(miner: Miner, package: str, defs: list[Def]) -> None:
    """Keywords an old function or method took that today's does not."""
    for d in reversed(defs):  # newest release first: its messages are the latest word
        if d.is_class or d.name.startswith("_") and d.name != "__init__":
            continue
        if d.owner and d.owner.startswith("_") and d.owner not in {"_AxesBase"}:
            continue
        miner.looked += 1
        owner, name = d.owner, d.name
        owner_path = public_path(d, package)
        if owner_path is None:
            continue
        method = name if owner else None
        if method == "__init__":
            method = None
        obj = current(f"{owner_path}.{method}" if method else owner_path)
        if obj is None:
            continue
        sig = signature_params(obj)
        if sig is None:
            continue
        params, varkw = sig
        renamed = _declared_renames(d)
        before = {*d.params, *d.kwonly}
        appeared = [p for p in params if p not in before and p not in ("args", "kwargs")]
        for old in [p for p in (*d.params, *d.kwonly) if p not in ("self", "cls", "args", "kwargs")]:
            if old in params or old.startswith("_"):
                continue
            new = renamed.get(old)
            why = ", renamed per its deprecation decorator"
            if new is None:
                new, why = _renamed_in_texts(d.texts, old), ", renamed per its message"
            if new is not None and new not in params:
                new = None
            if new is None:
                # a keyword that disappeared while one of a close name appeared was renamed
                close = difflib.get_close_matches(old, appeared, n=1, cutoff=0.6)
                new = close[0] if close else None
                why = f", and today's has the close name {new!r} it lacked"
            if varkw and new is None:
                continue  # swallowed by **kwargs: the call may not fail
            how = "signature of the old release vs today's" + (why if new else "")
            miner.add(_kw_entry(package, owner_path, method, old, new, d, how))
        for old, new in renamed.items():
            if old not in params and (new is None or new in params):
                miner.add(_kw_entry(package, owner_path, method, old, new, d, "deprecation decorator"))


def _declared_renames(d: Def) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for dec in _decorator(d, "deprecate_kwarg"):
        args, kw = _call_args(dec)
        old = kw.get("old_arg_name", args[0] if args else None)
        new = kw.get("new_arg_name", args[1] if len(args) > 1 else None)
        if isinstance(old, str):
            out[old] = new if isinstance(new, str) else None
    for dec in _decorator(d, "_rename_parameter", "rename_parameter"):
        args, _ = _call_args(dec)
        if len(args) >= 3 and isinstance(args[1], str) and isinstance(args[2], str):
            out[args[1]] = args[2]
    for dec in _decorator(d, "_delete_parameter", "delete_parameter"):
        args, _ = _call_args(dec)
        if len(args) >= 2 and isinstance(args[1], str):
            out[args[1]] = None
    return out


def _renamed_in_texts(texts: list[str], old: str) -> str | None:
    q = r"[`'\"]*"
    for text in texts:
        for pattern in (rf"{q}{re.escape(old)}{q}\s+(?:was|is|has been)\s+(?:deprecated|renamed)"
                        rf"[^.]*?(?:[Uu]se|to|in favou?r of)\s+{q}(\w+){q}",
                        rf"{q}{re.escape(old)}{q}\s+(?:keyword|parameter|argument)\s+is\s+deprecated"
                        rf"[^.]*?[Uu]se\s+{q}(\w+){q}"):
            match = re.search(pattern, text)
            if match and match.group(1) != old:
                return match.group(1)
    return None


def mine_members(miner: Miner, package: str, defs: list[Def]) -> None:
    """Public methods of public classes that today's class lacks; the replacement is what
    the old deprecation message names, checked to exist today."""
    seen = set()
    for d in reversed(defs):  # newest release first: its message is the latest word
        if d.owner is None or d.name.startswith("_") or d.owner.startswith("_"):
            continue
        key = (d.owner, d.name)
        if key in seen:
            continue
        seen.add(key)
        owner_path = public_path(d, package)
        owner = current(owner_path) if owner_path else None
        if owner is None or not inspect.isclass(owner) or hasattr(owner, d.name):
            continue
        new = replacement(d.texts)
        if not new:
            continue
        new = new.split(".")[-1].removesuffix("()")
        if new == d.name or not hasattr(owner, new):
            continue
        setup = f"import {package}\nimport {_module_of(owner_path)}\n"
        miner.add({
            "id": f"{LIBRARY[package]}:{owner_path.removeprefix(package + '.')}.{d.name}",
            "library": LIBRARY[package], "kind": "method-renamed",
            "old": f"{owner_path}.{d.name}", "new": new, "owners": _owners(owner),
            "last_seen": d.version,
            "source": f"mined: {LIBRARY[package]} {d.version} {d.file.lstrip('/')}: "
                      f"{_clip(d.texts[0])}",
            "test": {"setup": setup, "before": f"{owner_path}.{d.name}", "error": "AttributeError",
                     "match": d.name, "after": f"{owner_path}.{new}", "check": "attribute"}})


def _module_of(path: str) -> str:
    """The module part of a dotted path to a class or function (what to import)."""
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        if inspect.ismodule(current(".".join(parts[:k]))):
            return ".".join(parts[:k])
    return parts[0]


def _owners(cls) -> list[str]:
    """The class and its public subclasses (an error names the runtime class)."""
    names = {cls.__name__}
    stack = [cls]
    while stack:
        for sub in stack.pop().__subclasses__():
            if not sub.__name__.startswith("_") and sub.__module__.split(".")[0] == cls.__module__.split(".")[0]:
                if sub.__name__ not in names:
                    names.add(sub.__name__)
                    stack.append(sub)
    return sorted(names)


def _clip(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def mine_functions(miner: Miner, package: str, defs: list[Def]) -> None:
    """Public module-level functions and classes that are gone today, with the replacement
    their old message names (checked to exist today)."""
    seen = set()
    for d in reversed(defs):
        if d.owner is not None or d.name.startswith("_") or (d.module, d.name) in seen:
            continue
        seen.add((d.module, d.name))
        mod = current(d.module)
        if mod is None or hasattr(mod, d.name):
            continue
        top = current(package)
        if not hasattr(top, d.name) and d.module != package and not _public_module(d.module):
            continue
        where = package if d.name in getattr(top, "__all__", ()) else d.module
        new = replacement(d.texts)
        if not new:
            continue
        new_path = _resolve_name(new, package, d.module)
        if new_path is None:
            continue
        _add_name(miner, package, f"{where}.{d.name}", new_path, d.version,
                  f"mined: {LIBRARY[package]} {d.version} {d.file.lstrip('/')}: {_clip(d.texts[0])}")


def _public_module(module: str) -> bool:
    return not any(p.startswith("_") for p in module.split("."))


def _resolve_name(text: str, package: str, module: str) -> str | None:
    text = text.removesuffix("()")
    for candidate in (text, f"{package}.{text}", f"{module}.{text}"):
        if "." in candidate and current(candidate) is not None:
            return candidate
    return None


def _add_name(miner: Miner, package: str, old: str, new: str, version: str, source: str) -> None:
    old_mod, _, old_name = old.rpartition(".")
    new_mod, _, new_name = new.rpartition(".")
    if current(old) is not None or current(new) is None:
        return
    kind = "name-renamed" if old_mod == new_mod else "name-moved"
    if current(old_mod) is not None and inspect.ismodule(current(old_mod)):
        before = f"import {old_mod}\n{old}"
        error = "AttributeError"
    else:
        before = f"from {old_mod} import {old_name}"
        error = "ImportError"
    after = (f"from {new_mod} import {new_name}" if inspect.ismodule(current(new_mod))
             else f"import {package}\n{new}")
    if error == "AttributeError" and inspect.ismodule(current(new_mod)):
        after = f"import {new_mod}\n{new}"
    miner.add({"id": f"{LIBRARY[package]}:{old.removeprefix(package + '.')}",
               "library": LIBRARY[package], "kind": kind, "old": old, "new": new,
               "last_seen": version, "source": source,
               "test": {"setup": "", "before": before, "error": error, "match": old_name,
                        "after": after, "check": "import"}})


def mine_moved_names(miner: Miner, package: str, root: Path, version: str) -> None:
    """Names in an old public module's ``__all__`` that are gone from that module today but
    live in another public module (scikit-learn moved many)."""
    index = public_index(package)
    for module, names in module_all(root, package).items():
        for name in names:
            if current(f"{module}.{name}") is not None:
                continue
            homes = index.get(name, [])
            if not homes:
                continue
            home = min(homes, key=lambda m: (module_distance(m, module), len(m)))
            _add_name(miner, package, f"{module}.{name}", f"{home}.{name}", version,
                      f"mined: {LIBRARY[package]} {version} {module}.__all__ has it; today it "
                      f"lives in {home}")


_INDEX: dict[str, dict[str, list[str]]] = {}


def public_index(package: str) -> dict[str, list[str]]:
    """Public name -> public modules that export it, over today's installed package."""
    if package in _INDEX:
        return _INDEX[package]
    import pkgutil

    top = importlib.import_module(package)
    index: dict[str, list[str]] = {}
    modules = [package] + [m.name for m in pkgutil.walk_packages(
        top.__path__, package + ".", onerror=lambda _n: None)
                           if _public_module(m.name) and not SKIP.search("/" + m.name.replace(".", "/") + "/")]
    for name in modules:
        mod = current(name)
        if mod is None:
            continue
        for attr in getattr(mod, "__all__", None) or [a for a in dir(mod) if not a.startswith("_")]:
            index.setdefault(attr, []).append(name)
    _INDEX[package] = index
    return index


def mine_numpy_expired(miner: Miner) -> None:
    """numpy 2 keeps a table of what it removed and what to use instead; numpy 1.24 one of
    the builtin aliases."""
    import numpy as np

    try:
        from numpy._expired_attrs_2_0 import __expired_attributes__ as expired
    except ImportError:
        expired = {}
    former = getattr(np, "__former_attrs__", {})
    for name, message in sorted({**former, **expired}.items()):
        match = re.search(r"`(np\.[\w.]+)`", message) or re.search(r"use `(\w+)` by itself", message)
        if not match:
            continue
        new = match.group(1)
        new_path = "numpy." + new[3:] if new.startswith("np.") else f"builtins.{new}"
        if new_path.endswith(name) or current(new_path) is None:
            continue
        table = "__expired_attributes__" if name in expired else "__former_attrs__"
        _add_name(miner, "numpy", f"numpy.{name}", new_path, "1.26" if name in expired else "1.23",
                  f"mined: numpy {np.__version__} numpy.{table}: {_clip(' '.join(message.split()))}")


def mine_positional(miner: Miner, package: str, defs: list[Def]) -> None:
    """Functions that warned about positional arguments and take them keyword-only today:
    the old parameter order lets a call's extra positional arguments become keywords."""
    for d in defs:
        decs = list(_decorator(d, "deprecate_nonkeyword_arguments"))
        plain = [x for x in d.decorators if isinstance(x, ast.Name) and x.id == "_deprecate_positional_args"]
        if not decs and not plain:
            continue
        owner_path = public_path(d, package)
        if owner_path is None:
            continue
        method = d.name if d.owner and d.name != "__init__" else None
        target = f"{owner_path}.{method}" if method else owner_path
        obj = current(target)
        if obj is None:
            continue
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            continue
        allowed = [p.name for p in sig.parameters.values()
                   if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        # sklearn 0.24 and seaborn 0.11 already had ``*``: their decorator mapped extra
        # positional arguments onto the keyword-only ones, in order
        old = [*d.params, *d.kwonly] if plain else list(d.params)
        if len(old) <= len(allowed) or any(p not in sig.parameters for p in old[:4]):
            continue
        skip = 1 if old and old[0] in ("self", "cls") else 0
        extra = old[len(allowed):]
        if not extra:
            continue
        allowed_n = len(allowed) - (1 if allowed and allowed[0] in ("self", "cls") else 0)
        params = old[skip:]
        args = ", ".join("None" for _ in params[: allowed_n + 1])
        call = (f"inspect.signature({target}).bind_partial("
                f"{'None, ' if method else ''}{args})")
        miner.add({"id": f"{LIBRARY[package]}:{target.removeprefix(package + '.')}(positional)",
                   "library": LIBRARY[package], "kind": "positional-to-keyword",
                   "old": target, "params": params, "allowed": allowed_n, "method": bool(method),
                   "now": [p for p in allowed if p not in ("self", "cls")],
                   "last_seen": d.version,
                   "source": f"mined: {LIBRARY[package]} {d.version} {d.file.lstrip('/')} "
                             f"(positional arguments deprecated; keyword-only today)",
                   "test": {"setup": f"import {package}\nimport {_module_of(owner_path)}\n"
                                     f"import inspect\n", "before": call,
                            "error": "TypeError", "match": "positional argument",
                            "after": f"sig = inspect.signature({target})\n"
                                     f"assert all(p in sig.parameters for p in {extra!r})",
                            "check": "signature"}})


# -- checking every entry under today's versions ------------------------------------------

def check(entry: dict) -> str | None:
    """Run the entry's test: ``None`` when "before" fails as claimed and "after" runs."""
    test = entry["test"]
    ns: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(test.get("setup", ""), ns)
        except Exception as exc:
            return f"setup failed: {type(exc).__name__}: {exc}"
        if test.get("before"):
            try:
                exec(test["before"], dict(ns))
            except Exception as exc:
                if not _is(exc, test["error"]):
                    return f"before raised {type(exc).__name__}, not {test['error']}: {exc}"
                if test.get("match") and test["match"] not in str(exc):
                    return f"before raised without {test['match']!r}: {exc}"
            else:
                return "before ran without error"
        try:
            exec(test["after"], dict(ns))
        except Exception as exc:
            return f"after failed: {type(exc).__name__}: {exc}"
    return None


def _is(exc: BaseException, name: str) -> bool:
    return any(k.__name__ == name for k in type(exc).__mro__)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/benchkit-drift-cache"))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--offline", action="store_true", help="use only wheels in --cache")
    args = parser.parse_args(argv)
    t0 = time.monotonic()
    roots = download(args.cache, args.offline)
    miner = Miner()
    mine_numpy_expired(miner)
    for dist, version, _py, _plat, package in RELEASES:
        root = roots.get((dist, version))
        if root is None:
            continue
        print(f"mining {dist} {version}", file=sys.stderr)
        defs = list(walk_defs(root, package, version))
        mine_members(miner, package, defs)
        mine_functions(miner, package, defs)
        mine_positional(miner, package, defs)
        if package in ("sklearn", "keras"):
            mine_moved_names(miner, package, root, version)
        # keywords: pooled per package below, so the newest release wins
        miner.entries.setdefault(f"__defs__{package}", {"defs": []})["defs"].extend(defs)
    for package in LIBRARY:
        pooled = miner.entries.pop(f"__defs__{package}", None)
        if pooled:
            mine_keywords(miner, package, pooled["defs"])
    for entry in CURATED:
        miner.entries[entry["id"]] = dict(entry)  # curated wins over mined
    kept, dropped = write(miner, args.out)
    print(f"{kept} entries kept, {dropped} dropped by their own test, "
          f"{time.monotonic() - t0:.0f} s", file=sys.stderr)
    return 0


def write(miner: Miner, out: Path) -> tuple[int, int]:
    by_library: dict[str, list[dict]] = {}
    dropped = 0
    for entry in miner.entries.values():
        problem = check(entry)
        if problem is not None:
            dropped += 1
            if entry["source"].startswith("curated"):
                print(f"  curated entry {entry['id']} fails its test: {problem}", file=sys.stderr)
            continue
        by_library.setdefault(entry["library"], []).append(entry)
    out.mkdir(parents=True, exist_ok=True)
    versions = {}
    for package, dist in LIBRARY.items():
        mod = current(package)
        versions[dist] = getattr(mod, "__version__", None)
    for library, entries in sorted(by_library.items()):
        entries.sort(key=lambda e: e["id"])
        (out / f"{library}.json").write_text(json.dumps(
            {"library": library, "checked_against": _versions(library), "entries": entries},
            indent=1, sort_keys=False) + "\n")
    return sum(map(len, by_library.values())), dropped


def _versions(library: str) -> dict[str, str]:
    names = {"scikit-learn": "sklearn", "tensorflow": "tensorflow", "keras": "keras"}
    mod = current(names.get(library, library))
    return {library: getattr(mod, "__version__", "?")}


if __name__ == "__main__":
    raise SystemExit(main())
