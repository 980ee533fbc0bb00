"""Changed defaults: what an old notebook got without asking, and how to ask for it today.

A default that changed raises nothing: ``RandomForestClassifier()`` grew from 10 trees to
100, ``SVC()`` scales ``gamma`` by the data's variance, ``KMeans()`` runs k-means++ once
instead of ten times, and the printed score moves. Some changes do raise, deep inside the
library and naming no API (``groupby(...).mean()`` no longer drops text columns: ``TypeError:
agg function failed``; ``LogisticRegression(penalty='l1')`` now meets a solver that refuses
it). Either way the repair is the same: the old default spelled out, so the call does what
it did (``n_estimators=10``), and it is kept only when the run prints the old values again.

Each entry was read from the libraries' release notes and checked against the installed
signatures (``now`` is today's default; the tests compare it with ``inspect.signature``);
``position`` is the parameter's place among the positional ones (``None``: keyword-only;
the first place among the methods of an entry), so a call that may pass it positionally
is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst

from ._codemods import aliases_of, parse_cell, render_cell
from ._codemods._base import dotted, qualified
from ._codemods._removed import unfaithful_drop

__all__ = ["ChangedDefault", "CHANGED_DEFAULTS", "spell_out", "entries_in", "for_frames",
           "label", "unfaithful_calls"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangedDefault:
    """One default that changed: the callables, the keyword, its old value as code.

    ``callables`` are dotted paths resolved through the notebook's imports; ``methods``
    are method names whose receiver's type is unknown in the code (``GroupBy.mean``: any
    ``x.mean(...)`` whose receiver is not a module), matched by name. ``wrap`` is a
    template for the call when the keyword alone no longer does what the old default did
    (``{call}`` is the call with the keyword added), with the ``imports`` it needs;
    ``result`` a template for a changed *result* (``{call}``, ``{self}``: the receiver).
    """

    id: str
    library: str
    callables: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()   # "Owner.method"
    keyword: str = ""
    old: str = ""
    now: Any = None
    position: int | None = None
    since: str = ""
    why: str = ""
    wrap: str | None = None
    imports: tuple[str, ...] = ()
    result: str | None = None
    receiver: str | None = None  # the method is called on ``<x>.<receiver>`` (``s.str.replace``)

    def names(self) -> tuple[str, ...]:
        """The last names the entry matches (``RandomForestClassifier``, ``mean``)."""
        return (*(c.rsplit(".", 1)[-1] for c in self.callables),
                *(m.rsplit(".", 1)[-1] for m in self.methods))


_FOREST = tuple(f"sklearn.ensemble.{n}" for n in (
    "RandomForestClassifier", "RandomForestRegressor", "ExtraTreesClassifier",
    "ExtraTreesRegressor"))
_CV = tuple(f"sklearn.model_selection.{n}" for n in (
    "cross_val_score", "cross_val_predict", "cross_validate", "GridSearchCV",
    "RandomizedSearchCV", "learning_curve", "validation_curve"))
_GROUPBY = ("mean", "median", "sum", "std", "var", "prod")
_FRAME_STATS = ("mean", "median", "std", "var", "corr", "cov")

CHANGED_DEFAULTS: tuple[ChangedDefault, ...] = (
    ChangedDefault(id="sklearn-forest-n-estimators", library="scikit-learn", callables=_FOREST,
                   keyword="n_estimators", old="10", now=100, position=0, since="0.22",
                   why="forests grew from 10 to 100 trees"),
    ChangedDefault(id="sklearn-logistic-solver", library="scikit-learn",
                   callables=("sklearn.linear_model.LogisticRegression",),
                   keyword="solver", old="'liblinear'", now="lbfgs", since="0.22",
                   why="the solver became lbfgs (liblinear fitted one-vs-rest and penalised "
                       "the intercept; with three classes or more today's liblinear needs "
                       "OneVsRestClassifier for that)"),
    ChangedDefault(id="sklearn-logistic-ovr", library="scikit-learn",
                   callables=("sklearn.linear_model.LogisticRegression",),
                   keyword="solver", old="'liblinear'", now="lbfgs", since="0.22",
                   wrap="OneVsRestClassifier({call})",
                   imports=("from sklearn.multiclass import OneVsRestClassifier",),
                   why="multi_class='ovr' with liblinear, the old default for several "
                       "classes, is OneVsRestClassifier over liblinear today (multi_class "
                       "was removed in 1.8)"),
    ChangedDefault(id="sklearn-svm-gamma", library="scikit-learn",
                   callables=tuple(f"sklearn.svm.{n}" for n in ("SVC", "SVR", "NuSVC", "NuSVR",
                                                                "OneClassSVM")),
                   keyword="gamma", old="'auto'", now="scale", since="0.22",
                   why="gamma became 'scale' (1 / (n_features * X.var())) instead of "
                       "'auto' (1 / n_features)"),
    ChangedDefault(id="sklearn-kmeans-n-init", library="scikit-learn",
                   callables=("sklearn.cluster.KMeans",), keyword="n_init", old="10",
                   now="auto", since="1.4",
                   why="KMeans runs k-means++ once (n_init='auto': 1 run with k-means++, 10 with "
                       "init='random') instead of 10 times"),
    ChangedDefault(id="sklearn-minibatch-kmeans-n-init", library="scikit-learn",
                   callables=("sklearn.cluster.MiniBatchKMeans",), keyword="n_init",
                   old="3", now="auto", since="1.4",
                   why="MiniBatchKMeans runs k-means++ once ('auto') instead of 3 times"),
    ChangedDefault(id="sklearn-cv-folds", library="scikit-learn", callables=_CV, keyword="cv",
                   old="3", now=None, since="0.22",
                   why="cv=None means 5 folds instead of 3"),
    ChangedDefault(id="sklearn-linearsvc-dual", library="scikit-learn",
                   callables=("sklearn.svm.LinearSVC",), keyword="dual", old="True",
                   now="auto", since="1.5",
                   why="dual became 'auto' (the primal problem when n_samples > n_features)"),
    ChangedDefault(id="sklearn-isolation-forest-contamination", library="scikit-learn",
                   callables=("sklearn.ensemble.IsolationForest",), keyword="contamination",
                   old="0.1", now="auto", since="0.22",
                   why="the threshold is the one of the original paper ('auto') instead of "
                       "10% of the samples flagged"),
    ChangedDefault(id="sklearn-tsne-init", library="scikit-learn",
                   callables=("sklearn.manifold.TSNE",), keyword="init", old="'random'",
                   now="pca", since="1.2", why="TSNE starts from PCA instead of at random"),
    ChangedDefault(id="sklearn-tsne-learning-rate", library="scikit-learn",
                   callables=("sklearn.manifold.TSNE",), keyword="learning_rate", old="200.0",
                   now="auto", since="1.2",
                   why="TSNE's learning rate is max(N / early_exaggeration / 4, 50) instead "
                       "of 200"),
    ChangedDefault(id="pandas-get-dummies-dtype", library="pandas",
                   callables=("pandas.get_dummies",), keyword="dtype", old="'uint8'",
                   now=None, position=7, since="2.0",
                   why="dummy columns are bool instead of uint8 (True/False, and arithmetic "
                       "on them fails or changes)"),
    ChangedDefault(id="pandas-groupby-numeric-only", library="pandas",
                   methods=tuple(f"GroupBy.{m}" for m in _GROUPBY), keyword="numeric_only",
                   old="True", now=False, position=0, since="2.0",
                   why="a group-by reduction no longer drops the columns it cannot reduce "
                       "(text columns raise, or are concatenated by sum)"),
    ChangedDefault(id="pandas-frame-numeric-only", library="pandas",
                   methods=tuple(f"DataFrame.{m}" for m in _FRAME_STATS),
                   keyword="numeric_only", old="True", now=False, position=2, since="2.0",
                   why="DataFrame statistics no longer skip the columns that are not numbers"),
    ChangedDefault(id="pandas-str-replace-regex", library="pandas",
                   methods=("StringMethods.replace",), receiver="str", keyword="regex",
                   old="True", now=False, position=5, since="2.0",
                   why="Series.str.replace takes the pattern literally unless regex=True "
                       "(it was a regular expression when longer than one character)"),
    ChangedDefault(id="pandas-value-counts-name", library="pandas",
                   methods=("Series.value_counts",), since="2.0",
                   result="{call}.rename({self}.name).rename_axis(None)",
                   why="value_counts() is named 'count' ('proportion') and its index is "
                       "named after the Series, which renames the columns of reset_index()"),
    ChangedDefault(id="numpy-lstsq-rcond", library="numpy",
                   callables=("numpy.linalg.lstsq",), keyword="rcond", old="-1", now=None,
                   position=2, since="2.0",
                   why="lstsq cuts singular values below machine precision * max(M, N) "
                       "instead of below machine precision"),
)


def _method_of(call: cst.Call, aliases: Mapping[str, str]) -> tuple[str, str | None] | None:
    """(method name, the attribute its receiver ends with) of ``x.m(...)``, where ``x`` is
    not a module bound by an import (``np.sum`` is a function, not a method)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or qualified(func, aliases) is not None:
        return None
    receiver = func.value
    inner = receiver.attr.value if isinstance(receiver, cst.Attribute) else None
    return func.attr.value, inner


def _matches(entry: ChangedDefault, call: cst.Call, aliases: Mapping[str, str]) -> bool:
    q = qualified(call.func, aliases)
    if q is not None and entry.callables:
        return q in entry.callables or any(
            q.split(".")[0] == c.split(".")[0] and q.rsplit(".", 1)[-1] == c.rsplit(".", 1)[-1]
            for c in entry.callables)
    method = _method_of(call, aliases)
    if method is None or not entry.methods:
        return False
    name, inner = method
    if name not in {m.rsplit(".", 1)[-1] for m in entry.methods}:
        return False
    return entry.receiver is None or inner == entry.receiver


def _applicable(entry: ChangedDefault, call: cst.Call) -> bool:
    """The call leaves the default to the library (no such keyword, no ``**kwargs``, not
    passed by position) and, for ``str.replace``, has a pattern a regex reads otherwise."""
    if entry.result is not None:
        return True
    if any(a.star for a in call.args):
        return False
    if any(a.keyword is not None and a.keyword.value == entry.keyword for a in call.args):
        return False
    positional = [a for a in call.args if a.keyword is None]
    if entry.position is not None and len(positional) > entry.position:
        return False
    if entry.receiver == "str":
        pattern = positional[0].value if positional else None
        text = pattern.evaluated_value if isinstance(pattern, cst.SimpleString) else None
        return isinstance(text, str) and len(text) > 1 and re.escape(text) != text
    return True


_PURE = (cst.Name, cst.Attribute, cst.Subscript)


class _SpellOut(cst.CSTTransformer):
    """Adds ``keyword=old`` to the calls an entry matches (or rewrites their result)."""

    def __init__(self, entry: ChangedDefault, aliases: Mapping[str, str],
                 lines: frozenset[int] | None) -> None:
        super().__init__()
        self.entry, self.aliases, self.lines = entry, aliases, lines
        self.changed = False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        entry = self.entry
        if not _matches(entry, updated, self.aliases) or not _applicable(entry, updated):
            return updated
        if entry.result is not None:
            receiver = updated.func.value  # type: ignore[union-attr]
            if not isinstance(receiver, _PURE):
                return updated
            code = cst.Module([]).code_for_node
            text = entry.result.format(call=code(updated), self=code(receiver))
            self.changed = True
            return cst.parse_expression(text)
        args = list(updated.args)
        if args and args[-1].comma is not cst.MaybeSentinel.DEFAULT:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        if args:
            args[-1] = args[-1].with_changes(comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(cst.Arg(keyword=cst.Name(entry.keyword), value=cst.parse_expression(entry.old),
                            equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                  cst.SimpleWhitespace(""))))
        new = updated.with_changes(args=args)
        self.changed = True
        if entry.wrap is None:
            return new
        return cst.parse_expression(entry.wrap.format(call=cst.Module([]).code_for_node(new)))


def _spell(source: str, entry: ChangedDefault, aliases: Mapping[str, str]) -> str | None:
    parsed = parse_cell(source)
    if parsed is None:
        return None
    module, magics = parsed
    edit = _SpellOut(entry, aliases, None)
    new = module.visit(edit)
    if not edit.changed or new.code == module.code:
        return None
    return render_cell(new, magics)


def spell_out(sources: Mapping[int, str], entries: Sequence[ChangedDefault],
              cells: Sequence[int], method_cells: Sequence[int] | None = None) -> dict[int, str]:
    """The new sources of ``cells`` with every entry's old default spelled out (cells it
    does not change are left out). Imports a wrap needs go on top of the first code cell.

    Entries matched by a method's name alone (the receiver's type is unknown) change only
    ``method_cells`` (default: ``cells``): the cells a run can check.
    """
    aliases = aliases_of(list(sources.values()))
    out: dict[int, str] = {}
    imports: list[str] = []
    for entry in entries:
        chosen = cells if entry.callables or method_cells is None else method_cells
        for k in chosen:
            new = _spell(out.get(k, sources[k]), entry, aliases)
            if new is not None:
                out[k] = new
                imports += [i for i in entry.imports if i not in imports]
    if out and imports:
        first = min(sources)
        head = "".join(f"{line}\n" for line in imports if line not in sources[first])
        out[first] = head + out.get(first, sources[first])
    return out


def entries_in(sources: Mapping[int, str], cells: Sequence[int]
               ) -> Iterator[tuple[ChangedDefault, tuple[int, ...]]]:
    """The entries some call in ``cells`` leaves at a changed default, with those cells."""
    aliases = aliases_of(list(sources.values()))
    for entry in CHANGED_DEFAULTS:
        hit = tuple(k for k in cells if _spell(sources[k], entry, aliases) is not None)
        if hit:
            yield entry, hit


def for_frames(frames: Sequence[str]) -> tuple[ChangedDefault, ...]:
    """The entries of the functions a traceback went through (``GroupBy.mean``,
    ``LogisticRegression.fit``): the library function that raised or the object it
    belongs to, outermost frame first."""
    found: list[ChangedDefault] = []
    for frame in frames:
        module, _, qualname = frame.partition(":")
        parts = [p for p in qualname.split(".") if not p.startswith("<")]
        for entry in CHANGED_DEFAULTS:
            if entry in found or entry.library.replace("scikit-learn", "sklearn") != module.split(".")[0]:
                continue
            owners = {c.rsplit(".", 1)[-1] for c in entry.callables}
            methods = {tuple(m.split(".")) for m in entry.methods}
            if (owners & set(parts)) or any(tuple(parts[-2:]) == m for m in methods):
                found.append(entry)
    return tuple(found)


def label(entries: Sequence[ChangedDefault]) -> str:
    """What a candidate spells out, in words: ``n_estimators=10 (scikit-learn 0.22)``."""
    parts = []
    for e in entries:
        what = (f"{e.methods[0].split('.')[-1]}() result as before" if e.result
                else f"{e.keyword}={e.old}" + (" in " + e.wrap.split("(")[0] if e.wrap else ""))
        parts.append(f"{what} ({e.library} {e.since}: {e.id})")
    return "old default spelled out: " + ", ".join(parts)


def unfaithful_calls(sources: Mapping[int, str]) -> list[tuple[int, str]]:
    """(cell, note) for each call that still passes a removed keyword nothing replaces
    (``Ridge(normalize=True)``): no repair was made, and the note says why."""
    code = cst.Module([]).code_for_node
    found: list[tuple[int, str]] = []

    class Calls(cst.CSTVisitor):
        def __init__(self, cell: int) -> None:
            super().__init__()
            self.cell = cell

        def visit_Call(self, node: cst.Call) -> None:
            name = (dotted(node.func) or "").rsplit(".", 1)[-1]
            for a in node.args:
                if a.keyword is not None:
                    entry = unfaithful_drop(name, a.keyword.value, code(a.value))
                    if entry is not None:
                        found.append((self.cell, entry.note(name, code(a.value))))

    for k, source in sorted(sources.items()):
        parsed = parse_cell(source)
        if parsed is not None:
            parsed[0].visit(Calls(k))
    return found
