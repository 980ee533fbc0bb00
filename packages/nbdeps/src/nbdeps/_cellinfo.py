"""Per-cell facts: what a cell binds, reads before binding, deletes and mutates.

The pass runs over Python's `ast` after IPython's input transformation. It is flow
sensitive within a cell (a read after a binding earlier in the same cell is not a use)
and treats branches optimistically: a binding in any branch counts, so that a use after
an `if` never becomes a false "undefined" report.
"""

from __future__ import annotations

import ast
import dataclasses
import keyword
import re
from functools import lru_cache
from pathlib import Path

from ._model import CellInfo, Hazard, Mutation, NameRef, Notebook, SyntaxIssue
from ._branches import branches_of, call_site, opaque_call
from ._modules import installed_names, module_names, run_names
from ._names import is_always_defined
from ._scopes import alias_name, free_loads, target_names
from ._nodes import (
    OPS,
    flatten,
    is_str,
    magic_call,
    outer,
    read_names,
    root_name,
    short,
    signature,
    subexpressions,
    unique_refs,
    unparse,
)
from ._transform import AUTOMAGIC, parse_cell, parse_snippet

__all__ = ["analyze_cell", "cell_infos", "is_python2"]

# Methods that change their receiver in place (builtin containers, pandas, sklearn, torch).
_MUTATING = frozenset(
    "append extend insert remove pop clear sort reverse update setdefault popitem add "
    "discard difference_update intersection_update symmetric_difference_update "
    "fit partial_fit fit_transform".split()
)
# Mutating methods whose second run leaves the object as the first run did.
_IDEMPOTENT = frozenset(
    "fit partial_fit fit_transform sort update add discard clear setdefault difference_update "
    "intersection_update".split()
)
# In-place operations that fail when run a second time on their own result.
_DESTRUCTIVE_INPLACE = frozenset({"drop", "set_index", "pop", "insert"})
# Methods whose result, rebound to the receiver (`df = df.drop(...)`), fails on a re-run.
_DESTRUCTIVE_RESULT = frozenset({"drop", "set_index"})
# Methods that undo a destructive one, so that running the latter again works.
_UNDOES = {"reset_index": "set_index"}
# Cell magics whose body is Python run in the user namespace.
_PYTHON_CELL_MAGICS = frozenset({"time", "capture", "prun", "timeit", "debug"})
_PYTHON_LINE_MAGICS = frozenset({"time", "timeit", "prun", "debug"})


def analyze_cell(source: str) -> CellInfo:
    """Return what a cell's code binds, reads, deletes and mutates at cell level.

    IPython syntax is transformed first. Pure and cached; never raises on any string: a
    cell that does not parse gets `syntax_error` set and empty facts.

    Example:
        >>> info = analyze_cell("import pandas as pd\\ndf = pd.read_csv(path)")
        >>> sorted(info.defines), [u.name for u in info.uses]
        (['df', 'pd'], ['path'])
    """
    if not isinstance(source, str):
        raise TypeError(f"analyze_cell() takes a str, not {type(source).__name__}")
    return _analyze(source)


def cell_infos(nb: Notebook) -> dict[int, CellInfo]:
    """`analyze_cell` for every code cell, keyed by cell index.

    `from m import *` and `%run m.py` are resolved into the names they bind when the
    module can be read: beside the notebook file (the kernel's working folder) or, for
    star imports, installed where nbdeps runs (read from source, not imported).
    """
    infos = {c.index: _analyze(c.source) for c in nb.cells if c.kind == "code"}
    extensions = {name for info in infos.values() for name in info.extensions}
    if extensions:
        _read_extension_magics(nb, infos, extensions)
    folder = None if nb.path is None else Path(nb.path).resolve().parent
    for index, info in infos.items():
        if info.has_unknown_definitions:
            infos[index] = _resolve(info, folder)
    if not is_python2(nb, infos):
        # Python compiles a whole cell before it runs any of it: a cell that does not parse
        # raises SyntaxError and never reads, changes or calls anything (what it may bind
        # is kept, so that a name bound only there is not called undefined elsewhere)
        for index, info in infos.items():
            if info.syntax_error is not None:
                infos[index] = dataclasses.replace(info, uses=(), mutates=(), non_idempotent=(),
                                                   deferred_reads=(), calls=())
    return infos


def is_python2(nb: Notebook, infos: dict[int, CellInfo]) -> bool:
    """The kernel was Python 2: its metadata says so, or (no version saved) a cell that does
    not parse as Python 3 holds a Python 2 statement and its saved outputs show it ran
    without error, which it could not have done under Python 3."""
    if nb.is_python2:
        return True
    if nb.python_version is not None:
        return False
    for cell in nb.cells:
        issue = infos[cell.index].syntax_error if cell.kind == "code" else None
        if issue is not None and cell.ran_fine and (
                "Missing parentheses" in issue.message or "must be parenthesized" in issue.message
                or _PYTHON2.search(cell.source)):
            return True
    return False


# Python 2 only statements, at the start of a line: print and exec statements,
# `except E, e:`, `raise E, "text"` (not literals such as 0777 or `x`, which strings hold too)
_PYTHON2 = re.compile(
    r"^[ \t]*(?:print(?:[ \t]+(?![=(.\[,)])\S|[\"']|[ \t]*\(.*\)[ \t]*,)|exec[ \t]+[\"'\w]"
    r"|except[ \t]+[\w.]+[ \t]*,[ \t]*\w+[ \t]*:|raise[ \t]+[\w.]+[ \t]*,)", re.M)


# Line magics of widely used extensions whose name is not the extension's own
_EXTENSION_MAGICS = frozenset("memit mprun lprun sql tensorboard dotenv snakeviz watermark".split())
_COMMAND_LINE = re.compile(r"([A-Za-z_]\w*)(?:[ \t]+--?[A-Za-z]|[ \t]*$)", re.M)


def _read_extension_magics(nb: Notebook, infos: dict[int, CellInfo], extensions: set[str]) -> None:
    """Re-read the cells that use an extension's magics through automagic.

    After `%load_ext watermark`, IPython runs the line `watermark -iv` as `%watermark -iv`
    (automagic), although it also parses as Python (`watermark - iv`). A top-level line
    starting with a word that no cell binds is taken as such a magic when the word is a
    loaded extension's name, a known extension magic, or is followed by `-flag`; only in
    cells below the first one that loads an extension (above it, Restart & Run All has no
    such magic and Python reads the line).
    """
    bound = {name for info in infos.values() for name in info.defines}
    named = {e.split(".")[-1] for e in extensions} | _EXTENSION_MAGICS
    first = min(i for i, info in infos.items() if info.extensions)
    for cell in nb.cells:
        if cell.kind != "code" or cell.index <= first:
            continue
        words = set()
        for match in _COMMAND_LINE.finditer(cell.source):
            word = match.group(1)
            if word in bound or is_always_defined(word) or keyword.iskeyword(word):
                continue
            if word in named or match.group(0) != word:
                words.add(word)
        if words:
            infos[cell.index] = _analyze(cell.source, frozenset(words))


def _resolve(info: CellInfo, folder: Path | None) -> CellInfo:
    """Bind the names of star-imported and `%run` modules that can be read: beside the
    notebook first (the kernel's working folder), then installed. A module whose list of
    names may be incomplete binds what was found and stays an unknown source."""
    found: set[str] = set()
    star, hidden = [], []
    for module in info.star_imports:
        names = module_names(folder, module) if folder is not None else None
        complete = names is not None
        if names is None:
            names, complete = installed_names(module) or (frozenset(), False)
        found |= names
        if not complete:
            star.append(module)
    for magic in info.hidden_sources:
        names = run_names(folder, magic) if folder is not None else None
        if names is None:
            hidden.append(magic)
        else:
            found |= names
    if not found:
        return info
    # reads of these names in the cell itself come (nearly always) after the import
    return dataclasses.replace(
        info,
        defines=info.defines | found,
        uses=tuple(u for u in info.uses if u.name not in found),
        deferred_reads=tuple((fn, kept) for fn, refs in info.deferred_reads
                             if (kept := tuple(r for r in refs if r.name not in found))),
        star_imports=tuple(star),
        hidden_sources=tuple(hidden),
    )


@lru_cache(maxsize=4096)
def _analyze(source: str, magics: frozenset[str] = frozenset()) -> CellInfo:
    try:
        tree, python, error = parse_cell(source, magics)
    except RecursionError:
        return CellInfo(syntax_error=SyntaxIssue(message="nested too deeply to analyse", line=1, column=0))
    scanner = _CellScanner()
    if tree is None:
        try:
            _recover(scanner, python)
        except RecursionError:
            pass
        return dataclasses.replace(scanner.result(), syntax_error=_issue(error))
    try:
        scanner.block(tree.body)
    except RecursionError:  # pathological nesting: report what was seen so far
        pass
    return scanner.result()


# a statement that plausibly binds a name, read from a line that does not parse
_PLAUSIBLE = re.compile(
    r"^\s*(?:(?:def|class)\s+(?P<def>[A-Za-z_]\w*)"
    r"|(?P<targets>[A-Za-z_][\w\s,]*?)\s*=(?!=)"
    r"|for\s+(?P<loop>[A-Za-z_][\w\s,]*?)\s+in\b"
    r"|import\s+(?P<imports>[\w\s.,]+)$"
    r"|from\s+[\w.]+\s+import\s+(?P<froms>[\w\s,()]+)$)"
)


def _recover(scanner: _CellScanner, python: str) -> None:
    """Analyse what parses of a cell that does not: each top-level statement on its own
    (merged with up to three following ones when it spans them); a statement that still
    does not parse gives only the names its lines plausibly bind (`x = ...`, `def f`)."""
    lines = python.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines)
              if line[:1] not in ("", " ", "\t", "\n", "\r", "#", ")", "]", "}")
              and not line.startswith(("else", "elif", "except", "finally", "@"))] or [0]
    if starts[0] != 0:
        starts.insert(0, 0)
    bounds = starts + [len(lines)]
    k = 0
    while k < len(starts):
        for span in range(1, 5):
            end = bounds[min(k + span, len(starts))]
            tree = parse_snippet("".join(lines[bounds[k]:end]))
            if tree is not None:
                scanner.offset = bounds[k]
                scanner.block(tree.body)
                k += span
                break
        else:
            chunk = lines[bounds[k]:bounds[k + 1]]
            tree = parse_snippet(_PRINT_STATEMENT.sub(r"\1print(\2)", "".join(chunk)))
            if tree is not None:  # a Python 2 print statement: read what it prints
                scanner.offset = bounds[k]
                scanner.block(tree.body)
            else:
                _plausible_lines(scanner, chunk)
            k += 1
    scanner.offset = 0


# `print x, y` (Python 2): read as `print(x, y)`; `print >>f, x` as `print(f, x)`
_PRINT_STATEMENT = re.compile(r"^([ \t]*)print(?:[ \t]*>>[ \t]*|[ \t]+)(?![ \t]*[=(])(.*?),?[ \t]*$", re.M)


_SCOPE_HEAD = re.compile(r"(?:async\s+)?(?:def|class)\b")


def _plausible_lines(scanner: _CellScanner, lines: list[str]) -> None:
    """The names a statement that does not parse plausibly binds at cell level: lines in
    the body of a `def` or `class` bind names of that body, not of the cell."""
    body_of: int | None = None  # indentation of the def/class whose body is skipped
    for line in lines:
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if body_of is not None and indent > body_of:
            continue
        body_of = indent if _SCOPE_HEAD.match(stripped) else None
        _plausible(scanner, line)


def _plausible(scanner: _CellScanner, line: str) -> None:
    match = _PLAUSIBLE.match(line)
    if match is None:
        return
    words: list[str] = []
    if match["def"]:
        words = [match["def"]]
    for group in ("targets", "loop", "froms"):
        if match[group]:
            words += [w.strip("() ") for w in match[group].split(",")]
    if match["imports"]:
        words += [w.split()[-1].split(".")[0] for w in match["imports"].split(",") if w.split()]
    for word in words:
        if word.isidentifier() and " " not in word:
            scanner.bind(word)


def _namespace_call(node: ast.expr) -> bool:
    """`globals()` or `vars()` (at cell level both are the notebook's namespace)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args
            and node.func.id in ("globals", "vars", "locals"))


_CATCH_NAME_ERROR = frozenset({"NameError", "Exception", "BaseException"})


def _catches_name_error(kind: ast.expr | None) -> bool:
    """True for an `except` clause that catches NameError (bare, NameError, Exception...)."""
    if kind is None:
        return True
    kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    return any(isinstance(k, ast.Name) and k.id in _CATCH_NAME_ERROR for k in kinds)


def _issue(error: SyntaxError | None) -> SyntaxIssue:
    message = (error.msg if error is not None else None) or "invalid syntax"
    line = (error.lineno if error is not None else None) or 1
    column = max(((error.offset if error is not None else None) or 1) - 1, 0)
    return SyntaxIssue(message=message, line=line, column=column)


class _CellScanner:
    """Walks a cell's statements in order, keeping the names bound so far."""

    def __init__(self, line_offset: int = 0) -> None:
        self.offset = line_offset
        self.bound: set[str] = set()
        self.defines: set[str] = set()
        self.deletes: set[str] = set()
        self.uses: dict[str, NameRef] = {}
        self.mutates: list[Mutation] = []
        self.hazards: list[Hazard] = []
        self.star: list[str] = []
        self.hidden: list[str] = []
        self.self_rebinds: set[str] = set()
        self.undone: set[tuple[str, str]] = set()
        self.functions: dict[str, list[ast.Name]] = {}  # def name -> reads escaping it
        self.function_offsets: dict[str, int] = {}
        self.expanded: set[str] = set()
        self.extensions: list[str] = []
        self.branches: dict[str, object] = {}  # def name -> Branches
        self.calls: list = []  # CallSite of names the cell does not bind
        self.references: dict[str, int] = {}  # outside name -> loads at cell level
        self.called: dict[str, int] = {}  # outside name -> plain calls at cell level

    def result(self) -> CellInfo:
        return CellInfo(
            defines=frozenset(self.defines),
            uses=tuple(sorted(self.uses.values(), key=lambda r: (r.line, r.column))),
            deletes=frozenset(self.deletes),
            mutates=tuple(self.mutates),
            star_imports=tuple(self.star),
            hidden_sources=tuple(self.hidden),
            non_idempotent=tuple(self.hazards),
            rebinds_from_self=frozenset(self.self_rebinds),
            undoes=frozenset(self.undone),
            extensions=tuple(self.extensions),
            branches=tuple((name, b) for name, b in sorted(self.branches.items()) if name in self.functions),
            calls=tuple(self.calls) + tuple(opaque_call(name) for name, n in self.references.items()
                                            if n > self.called.get(name, 0) and name in self.called),
            deferred_reads=tuple(
                (name, refs)
                for name, loads in sorted(self.functions.items())
                if name not in self.expanded
                and (refs := unique_refs(loads, self.defines, self.function_offsets.get(name, 0)))
            ),
        )

    # -- names -----------------------------------------------------------------------

    def load(self, node: ast.Name) -> None:
        name = node.id
        if name not in self.bound:
            self.references[name] = self.references.get(name, 0) + 1
        if name not in self.bound and name not in self.uses:
            self.uses[name] = NameRef(name=name, line=node.lineno + self.offset, column=node.col_offset)
        if name in self.functions and name not in self.expanded:
            # a cell-level reference to a function defined in this cell: assume it is
            # called here (directly or passed to map/apply), so its globals are read now
            self.expanded.add(name)
            for inner in self.functions[name]:
                self.load(inner)

    def bind(self, name: str) -> None:
        self.bound.add(name)
        self.defines.add(name)
        self.functions.pop(name, None)

    # -- statements ------------------------------------------------------------------

    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, node: ast.stmt) -> None:
        handler = getattr(self, "_" + type(node).__name__, None)
        if handler is not None:
            handler(node)
        else:
            self.generic(node)

    def generic(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.stmt(child)
            elif isinstance(child, ast.expr):
                self.expr(child)
            else:
                self.generic(child)

    def _Expr(self, node: ast.Expr) -> None:
        value = node.value
        head = value
        while isinstance(head, ast.BinOp) and isinstance(head.op, ast.Sub):
            head = head.left  # `ls -la` parses as `ls - la`
        if isinstance(head, ast.Name) and head.id in AUTOMAGIC and head.id not in self.bound:
            return  # a bare `pwd` or `ls -la` line is IPython automagic, not a read
        if not self._magic(value):
            self.expr(value)

    def _Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Lambda) and all(isinstance(t, ast.Name) for t in node.targets):
            # `f = lambda ...` is a def: its body is read when f is called, not now
            for expr in outer(node.value):
                self.expr(expr)
            for target in node.targets:
                self.bind(target.id)
                self.functions[target.id] = free_loads(node.value).loads
            return
        self.expr(node.value)
        read = read_names(node.value)
        for target in node.targets:
            self.target(target, node.value, read)

    def _AnnAssign(self, node: ast.AnnAssign) -> None:
        self.expr(node.annotation)
        if node.value is not None:
            self.expr(node.value)
            self.target(node.target, node.value, read_names(node.value))

    def _AugAssign(self, node: ast.AugAssign) -> None:
        self.expr(node.value)
        target = node.target
        root = root_name(target)
        if root is None:
            self.expr(target)
            return
        from_outside = root.id not in self.bound
        self.load(root)
        if isinstance(target, ast.Name):
            self.bind(root.id)
        else:
            self._load_parts(target)
        text = unparse(target)
        self.mutates.append(self._mutation(root, "inplace", f"{text} {OPS.get(type(node.op), '?')}= ..."))
        if from_outside:
            self.hazards.append(
                Hazard(
                    line=node.lineno + self.offset,
                    column=node.col_offset,
                    names=(root.id,),
                    reason=f"`{text} {OPS.get(type(node.op), '?')}= ...` changes its own input on every run",
                )
            )
            if isinstance(target, ast.Name):
                self.self_rebinds.add(root.id)

    def _Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            for sub in flatten(target):
                self._delete(sub)

    def _delete(self, target: ast.expr) -> None:
        root = root_name(target)
        if isinstance(target, ast.Name):
            if target.id not in self.bound:
                self.load(target)
                self.hazards.append(
                    Hazard(
                        line=target.lineno + self.offset,
                        column=target.col_offset,
                        names=(target.id,),
                        reason=f"`del {target.id}` deletes a name this cell does not define; a second run raises NameError",
                        destructive=True,
                        signature=f"del {target.id}",
                    )
                )
            self.bound.discard(target.id)
            self.deletes.add(target.id)
            return
        if root is None:
            self.expr(target)
            return
        from_outside = root.id not in self.bound
        self.load(root)
        self._load_parts(target)
        text = unparse(target)
        kind = "subscript-delete" if isinstance(target, ast.Subscript) else "attribute-delete"
        self.mutates.append(self._mutation(root, kind, f"del {text}"))
        if from_outside:
            self.hazards.append(
                Hazard(
                    line=target.lineno + self.offset,
                    column=target.col_offset,
                    names=(root.id,),
                    reason=f"`del {text}` removes part of its input; a second run fails",
                    destructive=True,
                    signature=f"del {text}",
                )
            )

    def _Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.bind(alias_name(alias))

    def _ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name == "*":
                self.star.append("." * node.level + (node.module or ""))
            elif node.module != "__future__":
                self.bind(alias_name(alias))

    def _FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for expr in outer(node):
            self.expr(expr)
        facts = free_loads(node)
        self.defines.update(facts.global_stores)
        self.bind(node.name)
        self.functions[node.name] = facts.loads
        self.function_offsets[node.name] = self.offset
        branches = branches_of(node)
        if branches is not None:
            self.branches[node.name] = branches

    _AsyncFunctionDef = _FunctionDef

    def _ClassDef(self, node: ast.ClassDef) -> None:
        for expr in outer(node):
            self.expr(expr)
        facts = free_loads(node)
        # the class body runs now: its reads are this cell's reads
        for name in facts.loads:
            self.load(name)
        self.defines.update(facts.global_stores)
        self.bind(node.name)

    def _For(self, node: ast.For | ast.AsyncFor) -> None:
        self.expr(node.iter)
        for name in target_names(node.target):
            self.bind(name)
        self._load_target_parts(node.target)
        self.block(node.body)
        self.block(node.orelse)

    _AsyncFor = _For

    def _With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.expr(item.context_expr)
            if item.optional_vars is not None:
                self.target(item.optional_vars, None, frozenset())
        self.block(node.body)

    _AsyncWith = _With

    def _Try(self, node: ast.Try) -> None:
        if any(_catches_name_error(h.type) for h in node.handlers):
            # `try: model / except NameError: model = load()`: a read in the body cannot
            # raise out of the cell, nor can a `del` of a name that is not there
            known, hazards = set(self.uses), len(self.hazards)
            self.block(node.body)
            for name in set(self.uses) - known:
                del self.uses[name]
            self.hazards[hazards:] = [h for h in self.hazards[hazards:] if not h.signature.startswith("del ")
                                      or "[" in h.signature or "." in h.signature]
        else:
            self.block(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self.expr(handler.type)
            if handler.name:
                self.bind(handler.name)
            self.block(handler.body)
        self.block(node.orelse)
        self.block(node.finalbody)

    _TryStar = _Try

    def _Match(self, node: ast.Match) -> None:
        self.expr(node.subject)
        for case in node.cases:
            self._pattern(case.pattern)
            if case.guard is not None:
                self.expr(case.guard)
            self.block(case.body)

    def _pattern(self, pattern: ast.pattern) -> None:
        for sub in ast.walk(pattern):
            if isinstance(sub, ast.MatchValue):
                self.expr(sub.value)
            elif isinstance(sub, ast.MatchClass):
                self.expr(sub.cls)
            elif isinstance(sub, ast.MatchMapping):
                for key in sub.keys:
                    self.expr(key)
        for sub in ast.walk(pattern):
            name = getattr(sub, "name", None) if isinstance(sub, (ast.MatchAs, ast.MatchStar)) else None
            if isinstance(sub, ast.MatchMapping):
                name = sub.rest
            if name:
                self.bind(name)

    def _Global(self, node: ast.Global) -> None:
        pass  # at cell level `global x` changes nothing

    _Nonlocal = _Global

    # -- assignment targets ----------------------------------------------------------

    def target(self, target: ast.expr, value: ast.expr | None, read: frozenset[str]) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            start = len(self.hazards)
            for elt in target.elts:
                self.target(elt, None, read)
            self._join_unpacked(target, value, start)
            return
        if isinstance(target, ast.Starred):
            self.target(target.value, None, read)
            return
        if isinstance(target, ast.Name):
            from_outside = target.id not in self.bound and target.id in self.uses
            if target.id in read and from_outside:
                self._self_rebind(target, value)
            self.bind(target.id)
            return
        if isinstance(target, ast.Subscript) and _namespace_call(target.value):
            # `globals()['x'] = 1` binds x; `globals()[name] = 1` a name nobody can list
            if is_str(target.slice) and target.slice.value.isidentifier():
                self.bind(target.slice.value)
            else:
                self.expr(target.slice)
                self.hidden.append(f"{unparse(target.value)}[...] = ...")
            return
        root = root_name(target)
        if root is None:
            self.expr(target)
            return
        self.load(root)
        self._load_parts(target)
        kind = "subscript-assign" if isinstance(target, ast.Subscript) else "attribute-assign"
        text = unparse(target)
        self.mutates.append(self._mutation(root, kind, f"{text} = ..."))
        if value is not None and root.id not in self.bound and text in subexpressions(value):
            self.hazards.append(
                Hazard(
                    line=target.lineno + self.offset,
                    column=target.col_offset,
                    names=(root.id,),
                    reason=f"`{text}` is rebuilt from itself; a second run applies the change twice",
                )
            )

    def _self_rebind(self, target: ast.Name, value: ast.expr | None) -> None:
        self.self_rebinds.add(target.id)
        call = value if isinstance(value, ast.Call) else None
        method = call.func.attr if call is not None and isinstance(call.func, ast.Attribute) else None
        receiver = root_name(call.func.value) if method else None
        if method in _UNDOES and receiver is not None and receiver.id == target.id:
            self.undone.add((target.id, _UNDOES[method]))
        destructive = method in _DESTRUCTIVE_RESULT and receiver is not None and receiver.id == target.id
        reason = (
            f"`{target.id} = {short(value)}` rebinds {target.id} from itself"
            + ("; a second run fails (already applied)" if destructive else "; a second run applies it again")
        )
        self.hazards.append(
            Hazard(
                line=target.lineno + self.offset,
                column=target.col_offset,
                names=(target.id,),
                reason=reason,
                destructive=destructive,
                signature=signature(call) if destructive else "",
            )
        )

    def _join_unpacked(self, target: ast.expr, value: ast.expr | None, start: int) -> None:
        """`i, j = j, i + j` is one hazard, named by the whole statement, not one per name
        with the value left out (each element is bound without a value of its own)."""
        parts = [h for h in self.hazards[start:] if not h.destructive]
        if len(parts) != len(self.hazards) - start or not parts or value is None:
            return
        names = tuple(name for h in parts for name in h.names)
        pronoun = "itself" if len(names) == 1 else "themselves"
        del self.hazards[start:]
        self.hazards.append(
            Hazard(
                line=parts[0].line,
                column=target.col_offset,
                names=names,
                reason=f"`{_bare(target)} = {_bare(value)}` rebinds {', '.join(names)} from {pronoun}; "
                       "a second run applies it again",
            )
        )

    def _dynamic_binding(self, node: ast.Call, function: str) -> None:
        """`exec('x = 1')` binds what its code binds; `exec(code)` and `execfile(path)` bind
        names nobody can list (unknown definitions, as `%run`)."""
        if function == "exec" and len(node.args) == 1 and not node.keywords:
            if is_str(node.args[0]):
                self._embedded(node.args[0].value, node.lineno + self.offset - 1)
            else:
                self.hidden.append("exec(...)")
        elif function == "execfile" and node.args:
            self.hidden.append(f"execfile({short(node.args[0])})")

    def _load_parts(self, target: ast.expr) -> None:
        """Read the index/attribute-chain expressions of `df.loc[mask, 'c']`-style targets."""
        node = target
        while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
            if isinstance(node, ast.Subscript):
                self.expr(node.slice)
                node = node.value
            elif isinstance(node, ast.Attribute):
                node = node.value
            else:
                for arg in (*node.args, *(k.value for k in node.keywords)):
                    self.expr(arg)
                node = node.func

    def _load_target_parts(self, target: ast.expr) -> None:
        for sub in flatten(target):
            if not isinstance(sub, ast.Name):
                root = root_name(sub)
                if root is not None:
                    self.load(root)
                    self._load_parts(sub)

    # -- expressions -----------------------------------------------------------------

    def expr(self, node: ast.expr) -> None:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                self.load(node)
            return
        if isinstance(node, ast.NamedExpr):
            self.expr(node.value)
            self.bind(node.target.id)
            return
        if isinstance(node, ast.Lambda):
            for expr in outer(node):
                self.expr(expr)
            for name in free_loads(node).loads:
                self.load(name)
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            self.expr(node.generators[0].iter)
            facts = free_loads(node)
            for name in facts.loads:
                self.load(name)
            for name in facts.walrus_stores:
                self.bind(name)
            return
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id not in self.bound:
                self.called[node.func.id] = self.called.get(node.func.id, 0) + 1
                self.calls.append(call_site(node, node.func.id))
                self._dynamic_binding(node, node.func.id)
            elif (isinstance(node.func, ast.Attribute) and node.func.attr == "update"
                  and _namespace_call(node.func.value)):
                self.hidden.append(f"{unparse(node.func.value)}.update(...)")
            self.expr(node.func)
            for arg in node.args:
                self.expr(arg)
            for kw in node.keywords:
                self.expr(kw.value)
            self._call(node)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
            elif isinstance(child, ast.AST):
                self.generic(child)

    def _call(self, node: ast.Call) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute):
            return
        root = root_name(func.value)
        if root is None:
            return
        inplace = any(
            k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in node.keywords
        )
        if not inplace and func.attr not in _MUTATING:
            return
        if inplace and func.attr in _UNDOES:
            self.undone.add((root.id, _UNDOES[func.attr]))
        # DataFrame.insert(loc, column, value) fails once the column exists; list.insert does not
        destructive_insert = func.attr == "insert" and len(node.args) >= 3
        text = short(node)
        self.mutates.append(self._mutation(root, "method-call", text))
        if root.id in self.bound or func.attr in _IDEMPOTENT:
            return  # the cell made the object itself, or a second run changes nothing more
        ignores_errors = any(
            k.arg == "errors" and isinstance(k.value, ast.Constant) and k.value.value == "ignore"
            for k in node.keywords
        )
        keyed_pop = func.attr == "pop" and bool(node.args) and is_str(node.args[0])  # `d.pop('k')`, not `xs.pop(0)`
        destructive = not ignores_errors and (
            (inplace and func.attr in _DESTRUCTIVE_INPLACE and func.attr != "pop")
            or func.attr == "remove"
            or keyed_pop
            or destructive_insert
        )
        reason = (
            f"`{text}` changes {root.id} in place; a second run fails (already applied)"
            if destructive
            else f"`{text}` changes {root.id} in place; a second run applies it again"
        )
        self.hazards.append(
            Hazard(
                line=node.lineno + self.offset,
                column=node.col_offset,
                names=(root.id,),
                reason=reason,
                destructive=destructive,
                signature=signature(node) if destructive else "",
            )
        )

    def _mutation(self, root: ast.Name, kind: str, detail: str) -> Mutation:
        return Mutation(name=root.id, line=root.lineno + self.offset, column=root.col_offset, kind=kind, detail=detail)

    # -- IPython magics --------------------------------------------------------------

    def _magic(self, node: ast.expr) -> bool:
        """Handle `get_ipython().run_line_magic(...)` / `run_cell_magic(...)`; True if done."""
        magic = magic_call(node)
        if magic is None:
            return False
        kind, name, args = magic
        line = node.lineno + self.offset
        if kind == "line" and name in _PYTHON_LINE_MAGICS and args:
            self._embedded(args[0], line - 1)
        elif kind == "cell" and name in _PYTHON_CELL_MAGICS and len(args) == 2:
            if name == "capture":
                words = [w for w in args[0].split() if not w.startswith("-")]
                if words and words[0].isidentifier():
                    self.bind(words[0])
            self._embedded(args[1], line)
        elif kind == "line" and name == "run":
            self.hidden.append(f"%run {args[0] if args else ''}".strip())
        elif kind == "line" and name == "store" and args and args[0].split()[:1] == ["-r"]:
            names = [w for w in args[0].split()[1:] if w.isidentifier()]
            for store_name in names:
                self.bind(store_name)
            if not names:
                self.hidden.append("%store -r")
        elif kind == "line" and name == "pylab":
            self.star.append("pylab")
        elif kind == "line" and name in ("load_ext", "reload_ext") and args:
            self.extensions.extend(args[0].split())
        elif kind == "line" and name == "load":
            self.hidden.append(f"%load {args[0] if args else ''}".strip())
        self.expr(node.func)  # reads get_ipython, a builtin in IPython
        return True

    def _embedded(self, code: str, line_offset: int) -> None:
        tree = parse_snippet(code)
        if tree is None:
            return
        saved = self.offset
        self.offset = line_offset
        try:
            self.block(tree.body)
        finally:
            self.offset = saved


def _bare(node: ast.expr, limit: int = 60) -> str:
    """A tuple as written after `=`, without the parentheses `ast.unparse` adds."""
    text = unparse(node)
    if isinstance(node, ast.Tuple) and len(node.elts) > 1 and text[:1] == "(" and text[-1:] == ")":
        text = text[1:-1]
    return text if len(text) <= limit else text[: limit - 3] + "..."
