"""The drift knowledge base as one codemod rule: removals mined from the libraries.

The entries live in ``_modernize/drift/<library>.json`` (written by
``scripts/mine_drift.py``). What an entry rewrites depends on its kind:

- names and modules (``module-moved``, ``name-moved``, ``name-renamed``) and calls of a
  removed function (``function-to-method``, with a template) are resolved through the
  notebook's imports, so they apply wherever they appear (the match is the evidence);
- keywords (``keyword-renamed``, ``value-renamed``) of a function or class resolved through
  the imports apply wherever they appear; of a method (the receiver's type is unknown),
  only in notebooks that import the library;
- what depends on the receiver's type (``method-renamed``, ``keyword-removed`` of a method,
  ``positional-to-keyword`` of a method) applies only once the error names it: ``'Series'
  object has no attribute 'valid'``, ``got an unexpected keyword argument 'x'``, ``takes 2
  positional arguments but 3 were given``; then on every call of that method in the
  notebook, unless the name is also a method of a builtin type (then only on the lines the
  traceback points to).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import libcst as cst
from libcst.metadata import PositionProvider

from ._base import Rule, RuleTransformer, Scope, dotted, qualified
from ._removed import unfaithful_drop

__all__ = ["DRIFT_RULE", "KnowledgeBase", "knowledge_base", "Licence", "licence"]

DRIFT_DIR = Path(__file__).resolve().parents[1] / "drift"
_BUILTIN_METHODS = frozenset(
    n for t in (list, dict, set, str, bytes, tuple, int, float, frozenset) for n in dir(t))
_NAME_KINDS = {"module-moved", "name-moved", "name-renamed"}
_EMPTY = cst.Module([])
_ALIASES = {"numpy": "np", "pandas": "pd", "matplotlib.pyplot": "plt", "seaborn": "sns",
            "tensorflow": "tf", "scipy.stats": "stats"}


def _code(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


@dataclass(frozen=True, slots=True)
class KnowledgeBase:
    """The entries of every library, indexed the ways the rewrite looks them up."""

    entries: tuple[dict[str, Any], ...]
    names: Mapping[str, dict[str, Any]]            # old dotted path -> name/module entry
    calls: Mapping[str, dict[str, Any]]            # old function path -> function-to-method
    keywords: Mapping[tuple[str, str], list[dict[str, Any]]]  # (callable last name, kw)
    values: Mapping[tuple[str, str], list[dict[str, Any]]]
    positional: Mapping[str, list[dict[str, Any]]]  # callable last name -> entries
    methods: Mapping[str, list[dict[str, Any]]]     # attribute name -> method entries

    def by_id(self, entry_id: str) -> dict[str, Any] | None:
        return next((e for e in self.entries if e["id"] == entry_id), None)


def _last(path: str) -> str:
    parts = path.split(".")
    return parts[-2] if parts[-1] == "__init__" else parts[-1]


@lru_cache(maxsize=1)
def knowledge_base(directory: str | None = None) -> KnowledgeBase:
    """The knowledge base shipped in ``drift/`` (read once)."""
    entries: list[dict[str, Any]] = []
    for path in sorted(Path(directory or DRIFT_DIR).glob("*.json")):
        entries += json.loads(path.read_text())["entries"]
    names, calls = {}, {}
    keywords: dict[tuple[str, str], list] = {}
    values: dict[tuple[str, str], list] = {}
    positional: dict[str, list] = {}
    methods: dict[str, list] = {}
    for e in entries:
        kind = e["kind"]
        if kind in _NAME_KINDS:
            names.setdefault(e["old"], e)
        elif kind == "function-to-method":
            calls.setdefault(e["old"], e)
        elif kind in ("keyword-renamed", "keyword-removed"):
            keywords.setdefault((_last(e["old"]), e["keyword"]), []).append(e)
        elif kind == "value-renamed":
            values.setdefault((_last(e["old"]), e["keyword"]), []).append(e)
        elif kind == "positional-to-keyword":
            positional.setdefault(_last(e["old"]), []).append(e)
        elif kind == "method-renamed":
            methods.setdefault(e["old"].rsplit(".", 1)[-1], []).append(e)
    return KnowledgeBase(entries=tuple(entries), names=names, calls=calls, keywords=keywords,
                         values=values, positional=positional, methods=methods)


@dataclass(frozen=True, slots=True)
class Licence:
    """What the error lets the type-dependent entries rewrite."""

    attribute: tuple[str, str] | None = None   # (class name, missing attribute)
    keyword: tuple[str, str] | None = None     # (callable name, unexpected keyword)
    positional: str | None = None              # callable name given too many positionals


_ATTR = re.compile(r"'(\w+)' object has no attribute '(\w+)'")
_KW = re.compile(r"([\w.]+)\(\) got an unexpected keyword argument '(\w+)'")
_POS = re.compile(r"([\w.]+)\(\) takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:were|was) given")


def licence(error: str | None) -> Licence:
    if not error:
        return Licence()
    attr = _ATTR.search(error)
    kw = _KW.search(error)
    pos = _POS.search(error)
    return Licence(attribute=(attr.group(1), attr.group(2)) if attr else None,
                   keyword=(_callable(kw.group(1)), kw.group(2)) if kw else None,
                   positional=_callable(pos.group(1)) if pos else None)


def _callable(qualname: str) -> str:
    """``DataFrame.drop`` -> ``drop``; ``LogisticRegression.__init__`` -> ``LogisticRegression``."""
    return _last(qualname)


def _owner_ok(entry: dict[str, Any], cls: str) -> bool:
    owners = entry.get("owners")
    return not owners or cls in owners


def _library_root(entry: dict[str, Any]) -> str:
    return entry["old"].split(".")[0]


@dataclass(slots=True)
class _Args:
    """A call's arguments as code, for templates."""

    positional: list[str]
    keywords: list[tuple[str, str]]
    star: bool = False

    @classmethod
    def of(cls, call: cst.Call) -> _Args:
        out = cls([], [])
        for a in call.args:
            if a.star:
                out.star = True
            elif a.keyword is None:
                out.positional.append(_code(a.value))
            else:
                out.keywords.append((a.keyword.value, _code(a.value)))
        return out


_SLOT = re.compile(r"\{(\d+|rest|args|self|alias:[\w.]+)\}")


class _DriftTransformer(RuleTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        self.kb = knowledge_base()
        self.lic = licence(scope.error)
        self.applied_ids: list[str] = []
        self.roots = {v.split(".")[0] for v in scope.aliases.values()}

    # -- helpers ---------------------------------------------------------------------
    def hit(self, entry: dict[str, Any], node: cst.CSTNode) -> cst.CSTNode:
        self.applied_ids.append(entry["id"])
        return self.mark(node)

    def ref(self, path: str, module: bool = False) -> str:
        """How the notebook names ``path`` (a ``module`` or a name in one): its own alias,
        an alias of a parent module, or a new import."""
        aliases = self.scope.aliases
        for name, target in aliases.items():
            if target == path:
                return name
        best = None
        for name, target in aliases.items():
            if path.startswith(target + ".") and (best is None or len(target) > len(best[1])):
                best = (name, target)
        if best is not None:
            return best[0] + path[len(best[1]):]
        if path.startswith("builtins."):
            return path.split(".", 1)[1]
        parent, _, last = path.rpartition(".")
        if last[:1].isupper() and parent:
            line = f"from {parent} import {last}"
            # an import of the old function from that module is rewritten to this name
            in_place = any(v in self.kb.calls and v.rpartition(".")[0] == parent
                           for v in aliases.values())
            if line not in self.scope.imports and not in_place:
                self.scope.imports.append(line)
            aliases[last] = path
            return last
        home, rest = path, ""
        if not module and parent:
            home, rest = parent, "." + last
        return self.scope.alias_for(home, _ALIASES.get(home, home.split(".")[-1])) + rest

    def render(self, template: str, call: cst.Call, receiver: str | None,
               entry: dict[str, Any]) -> cst.BaseExpression | None:
        args = _Args.of(call)
        if args.star:
            return None
        renames = entry.get("keywords", {})
        keywords = [(renames.get(k, k), v) for k, v in args.keywords]
        used = {int(m) for m in re.findall(r"\{(\d+)\}", template)}
        if any(i >= len(args.positional) for i in used):
            return None
        rest = [p for i, p in enumerate(args.positional) if i not in used]
        rest += [f"{k}={v}" for k, v in keywords]
        if rest and "{rest}" not in template and "{args}" not in template:
            return None  # the template has no place for them: do not guess
        everything = [*args.positional, *[f"{k}={v}" for k, v in keywords]]

        def slot(match: re.Match[str]) -> str:
            key = match.group(1)
            if key.isdigit():
                return args.positional[int(key)]
            if key == "rest":
                return ", ".join(rest)
            if key == "args":
                return ", ".join(everything)
            if key == "self":
                return receiver or ""
            return self.ref(key.split(":", 1)[1])

        try:
            return cst.parse_expression(_SLOT.sub(slot, template))
        except cst.ParserSyntaxError:
            return None

    def licensed(self, name: str, original: cst.CSTNode) -> bool:
        """A type-dependent rewrite of ``name`` here: everywhere, unless builtin types
        have a method of that name (then only on the traceback's lines)."""
        if name in _BUILTIN_METHODS:
            return self.on_error_line(original)
        return True

    # -- imports ---------------------------------------------------------------------
    def _moved_module(self, module: str) -> tuple[str, dict[str, Any]] | None:
        parts = module.split(".")
        for k in range(len(parts), 0, -1):
            entry = self.kb.names.get(".".join(parts[:k]))
            if entry is not None and entry["kind"] == "module-moved":
                return entry["new"] + module[len(".".join(parts[:k])):], entry
        return None

    def leave_Import(self, original: cst.Import, updated: cst.Import):
        names = []
        for alias in updated.names:
            full = dotted(alias.name) or ""
            moved = self._moved_module(full)
            if moved is not None:
                alias = alias.with_changes(name=cst.parse_expression(moved[0]))
                self.applied_ids.append(moved[1]["id"])
                self.changed = True
            names.append(alias)
        return updated.with_changes(names=names)

    def leave_SimpleStatementLine(self, original, updated):
        body = updated.body
        if len(body) != 1 or not isinstance(body[0], cst.ImportFrom):
            return updated
        node = body[0]
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return updated
        module = dotted(node.module) or ""
        groups: dict[str, list[cst.ImportAlias]] = {}
        plain: list[cst.ImportAlias] = []  # ``from a import b`` where a.b is a moved module
        touched = False
        for alias in node.names:
            name = dotted(alias.name) or ""
            call = self.kb.calls.get(f"{module}.{name}")
            if call is not None and alias.asname is None:
                # a function that became a method or another call: its calls are rewritten
                # by the template; a class the template needs from the same module is
                # imported in its place, anything else on top of the notebook
                self.applied_ids.append(call["id"])
                self.changed = touched = True
                for path in re.findall(r"\{alias:([\w.]+)\}", call["template"]):
                    parent, _, last = path.rpartition(".")
                    if parent == module and last[:1].isupper():
                        self.scope.aliases.setdefault(last, path)
                        groups.setdefault(module, []).append(cst.ImportAlias(name=cst.Name(last)))
                continue
            target = self._target(module, name)
            if target is None:
                groups.setdefault(module, []).append(alias)
                continue
            new_module, new_name, entry = target
            self.applied_ids.append(entry["id"])
            self.changed = touched = True
            if not new_module:
                plain.append(alias.with_changes(name=cst.parse_expression(new_name)))
                continue
            asname = alias.asname
            groups.setdefault(new_module, []).append(
                alias.with_changes(name=cst.Name(new_name), asname=asname))
        if not touched:
            return updated
        if not groups and not plain:
            return cst.RemovalSentinel.REMOVE
        statements = []
        for mod, aliases in groups.items():
            aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            statements.append(node.with_changes(module=cst.parse_expression(mod), names=aliases,
                                                lpar=None, rpar=None)
                              if mod != module else node.with_changes(names=aliases))
        for alias in plain:
            statements.append(cst.Import(names=[alias.with_changes(comma=cst.MaybeSentinel.DEFAULT)]))
        lines = [updated.with_changes(body=[s]) for s in statements]
        return cst.FlattenSentinel(lines) if len(lines) > 1 else lines[0]

    def _target(self, module: str, name: str) -> tuple[str, str, dict[str, Any]] | None:
        """Where ``from module import name`` comes from today: (module, name, entry);
        module ``""`` when ``module.name`` became a top-level module (``import joblib``)."""
        full = f"{module}.{name}"
        entry = self.kb.names.get(full)
        if entry is not None:
            new = entry["new"]
            if entry["kind"] == "module-moved":
                if "." not in new:
                    return "", new, entry
                return new.rsplit(".", 1)[0], new.rsplit(".", 1)[1], entry
            if new.startswith("builtins."):
                return None
            return new.rsplit(".", 1)[0], new.rsplit(".", 1)[1], entry
        moved = self._moved_module(module)
        if moved is not None:
            return moved[0], name, moved[1]
        return None

    # -- names -----------------------------------------------------------------------
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        q = qualified(updated, self.scope.aliases)
        if q is not None:
            entry = self.kb.names.get(q)
            if entry is not None and not self._is_call_func(original):
                new = self.ref(entry["new"], module=entry["kind"] == "module-moved")
                return self.hit(entry, cst.parse_expression(new))
        lic = self.lic.attribute
        attr = updated.attr.value
        if lic is not None and lic[1] == attr and q is None:
            for entry in self.kb.methods.get(attr, ()):
                if (_owner_ok(entry, lic[0]) and entry.get("new") and not entry.get("template")
                        and self.licensed(attr, original)):
                    return self.hit(entry, updated.with_changes(attr=cst.Name(entry["new"])))
        return updated

    def _is_call_func(self, node: cst.CSTNode) -> bool:
        return id(node) in self._call_funcs

    def visit_Call(self, node: cst.Call) -> None:
        self._call_funcs.add(id(node.func))

    def visit_Module(self, node: cst.Module) -> None:
        self._call_funcs: set[int] = set()

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg):
        """A moved class passed as a value (``make_pipeline(Imputer(), ...)`` is a call;
        ``isinstance(x, Imputer)`` is this): its import line is rewritten, so the name is."""
        value = updated.value
        if isinstance(value, cst.Name):
            entry = self.kb.names.get(self.scope.aliases.get(value.value, ""))
            if (entry is not None and entry["kind"] != "module-moved"
                    and not entry["new"].startswith("builtins.")):
                new = entry["new"].rsplit(".", 1)[-1]
                if new != value.value:
                    return self.hit(entry, updated.with_changes(value=cst.Name(new)))
        return updated

    # -- calls -----------------------------------------------------------------------
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = updated.func
        q = qualified(func, self.scope.aliases)
        if q is not None:
            entry = self.kb.calls.get(q)
            if entry is not None:
                new = self.render(entry["template"], updated, None, entry)
                if new is not None:
                    return self.hit(entry, new)
            entry = self.kb.names.get(q)
            if entry is not None and entry["kind"] != "module-moved":
                new = entry["new"]
                if isinstance(func, cst.Name):  # its import line is rewritten to the new name
                    new_func = cst.Name(new.rsplit(".", 1)[-1])
                else:
                    new_func = cst.parse_expression(self.ref(new))
                updated = updated.with_changes(func=new_func)
                self.hit(entry, updated)
                q = new
        method = func.attr.value if isinstance(func, cst.Attribute) and q is None else None
        if method is not None:
            updated = self._method_call(original, updated, method)
            if not isinstance(updated, cst.Call):
                return updated
        name = _last(q) if q else method
        if name is None:
            return updated
        updated = self._keywords(original, updated, name, q)
        return self._positional(original, updated, name, q)

    def _method_call(self, original: cst.Call, updated: cst.Call, method: str):
        lic = self.lic.attribute
        if lic is None or lic[1] != method or not self.licensed(method, original):
            return updated
        for entry in self.kb.methods.get(method, ()):
            if _owner_ok(entry, lic[0]) and entry.get("template"):
                receiver = _code(updated.func.value)  # type: ignore[union-attr]
                tail = entry["template"].split("{self}", 1)[-1]
                k = tail.find(f".{method}(")
                if k > 0 and receiver.endswith(tail[:k]):
                    continue  # already rewritten: the template calls the method again
                new = self.render(entry["template"], updated, receiver, entry)
                if new is not None:
                    return self.hit(entry, new)
        return updated

    def _matches(self, entry: dict[str, Any], q: str | None) -> bool:
        if q is not None:
            return not entry.get("method") and (q == entry["old"] or (
                q.split(".")[0] == _library_root(entry) and _last(q) == _last(entry["old"])))
        return bool(entry.get("method")) and _library_root(entry) in self.roots

    def _keywords(self, original: cst.Call, updated: cst.Call, name: str, q: str | None) -> cst.Call:
        args = list(updated.args)
        changed = False
        for k, arg in enumerate(args):
            if arg.keyword is None:
                continue
            kw = arg.keyword.value
            for entry in self.kb.values.get((name, kw), ()):
                if self._matches(entry, q) and _same_literal(arg.value, entry["value"]):
                    args[k] = arg.with_changes(value=cst.parse_expression(entry["new"]))
                    self.applied_ids.append(entry["id"])
                    changed = True
                    break
            for entry in self.kb.keywords.get((name, kw), ()):
                if not self._matches(entry, q):
                    continue
                if entry["new"]:
                    args[k] = args[k].with_changes(keyword=cst.Name(entry["new"]))
                elif entry.get("method") and not (
                        self.lic.keyword == (name, kw) and self.licensed(name, original)):
                    continue  # dropping a method's keyword needs the error's word
                elif unfaithful_drop(name, kw, _code(arg.value)) is not None:
                    continue  # it did something nothing does today: no repair (the report says)
                else:
                    args[k] = None  # type: ignore[call-overload]
                self.applied_ids.append(entry["id"])
                changed = True
                break
        if not changed:
            return updated
        kept = [a for a in args if a is not None]
        if kept and kept[-1].comma is not cst.MaybeSentinel.DEFAULT:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        self.changed = True
        return updated.with_changes(args=kept)

    def _positional(self, original: cst.Call, updated: cst.Call, name: str, q: str | None) -> cst.Call:
        for entry in self.kb.positional.get(name, ()):
            if not self._matches(entry, q):
                continue
            if entry.get("method") and not (self.lic.positional == name
                                            and self.licensed(name, original)):
                continue
            new = _to_keywords(updated, entry["params"], entry.get("now", ()))
            if new is not None:
                self.applied_ids.append(entry["id"])
                self.changed = True
                return new
        return updated


def _same_literal(node: cst.BaseExpression, value: str) -> bool:
    try:
        return ast.literal_eval(_code(node)) == ast.literal_eval(value) and type(
            ast.literal_eval(_code(node))) is type(ast.literal_eval(value))
    except (ValueError, SyntaxError):
        return False


def _to_keywords(call: cst.Call, params: list[str], now: Any) -> cst.Call | None:
    """Positional arguments that today's signature reads differently become keywords."""
    args = list(call.args)
    if any(a.star for a in args):
        return None
    positional = [k for k, a in enumerate(args) if a.keyword is None]
    given = {a.keyword.value for a in args if a.keyword is not None}
    changed = False
    for i, k in enumerate(positional):
        if i < len(now) and i < len(params) and now[i] == params[i]:
            continue
        if i >= len(params) or params[i] in given:
            return None
        args[k] = args[k].with_changes(keyword=cst.Name(params[i]), equal=cst.AssignEqual(
            cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
        changed = True
    if not changed:
        return None
    # keywords must follow positionals: put the converted ones after the kept positionals
    kept = [a for a in args if a.keyword is None]
    rest = [a for a in args if a.keyword is not None]
    ordered = [*kept, *rest]
    ordered = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
               for a in ordered[:-1]] + [ordered[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
    return call.with_changes(args=ordered)


class _Factory:
    """``Rule.make`` for the knowledge base (a class, so the rule stays picklable)."""

    def __call__(self, scope: Scope) -> _DriftTransformer:
        return _DriftTransformer(scope)


DRIFT_RULE = Rule(
    id="drift-kb", library="all",
    rewrites="the drift knowledge base: moved modules and names, renamed methods, keywords "
             "and values, functions that became methods (see drift/*.json)",
    applies="names and keywords resolved through the imports: static; what depends on the "
            "receiver's type: after an error that names it",
    make=_Factory(), example=("import numpy as np\nr = np.rank(np.zeros((2, 2)))",
                              "import numpy as np\nr = np.ndim(np.zeros((2, 2)))"))
