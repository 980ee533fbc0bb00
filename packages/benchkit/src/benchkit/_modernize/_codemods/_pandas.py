"""pandas: the methods and arguments pandas 2.0 removed."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import PositionProvider

from ._base import (Rule, RuleTransformer, dotted, is_module, kwarg, qualified,
                    without)

_APPEND_ONLY_KWARGS = {"ignore_index", "verify_integrity", "sort"}
_REDUCTIONS = {"corr", "cov", "mean", "median", "sum", "std", "var", "min", "max", "prod",
               "quantile", "sem", "skew", "kurt", "rank"}


class _Append(RuleTransformer):
    """``df.append(other, ignore_index=...)`` -> ``pd.concat([df, other], ignore_index=...)``;
    a dict (a row) becomes ``pd.DataFrame([row])``, as append made of it."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def _is_target(self, call: cst.Call, original: cst.Call) -> bool:
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "append"):
            return False
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) != 1 or positional[0].star:
            return False
        receivers = self.scope.shared.setdefault("pandas-append", set())
        receiver = dotted(func.value)
        if any(a.keyword and a.keyword.value in _APPEND_ONLY_KWARGS for a in call.args):
            return True
        if self.on_error_line(original):
            if receiver:
                receivers.add(receiver)
            return True
        return receiver is not None and receiver in receivers

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if not self._is_target(updated, original):
            return updated
        pd = self.scope.alias_for("pandas", "pd")
        other = next(a for a in updated.args if a.keyword is None).value
        if isinstance(other, cst.Dict) or (isinstance(other, cst.List) and other.elements
                                           and all(isinstance(e.value, cst.Dict)
                                                   for e in other.elements)):
            # a dict was appended as one row (a list of dicts, as rows): concat needs a frame
            rows = other if isinstance(other, cst.List) else cst.List([cst.Element(other)])
            frame = cst.Call(func=cst.parse_expression(f"{pd}.DataFrame"), args=[cst.Arg(rows)])
            items = [cst.Element(updated.func.value), cst.Element(frame)]  # type: ignore[union-attr]
        elif isinstance(other, cst.List):  # df.append([a, b]) appends each
            items = [cst.Element(updated.func.value), *[  # type: ignore[union-attr]
                cst.Element(e.value) for e in other.elements]]
        else:
            items = [cst.Element(updated.func.value), cst.Element(other)]  # type: ignore[union-attr]
        kwargs = [a for a in updated.args if a.keyword is not None]
        args = [cst.Arg(cst.List(elements=items)), *kwargs]
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return self.mark(cst.Call(func=cst.parse_expression(f"{pd}.concat"), args=args))


class _Iteritems(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = updated.func
        if isinstance(func, cst.Attribute) and func.attr.value == "iteritems" and not updated.args:
            return self.mark(updated.with_changes(func=func.with_changes(attr=cst.Name("items"))))
        return updated


class _NumericOnly(RuleTransformer):
    """``df.corr()`` on a frame with text columns -> ``df.corr(numeric_only=True)``."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = updated.func
        if (isinstance(func, cst.Attribute) and func.attr.value in _REDUCTIONS
                and kwarg(updated, "numeric_only") is None and self.on_error_line(original)
                and not is_module(func.value, self.scope.aliases, "numpy")):
            args = list(updated.args)
            if args:
                args[-1] = args[-1].with_changes(comma=cst.Comma(
                    whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(cst.Arg(keyword=cst.Name("numeric_only"), value=cst.Name("True"),
                                equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                      cst.SimpleWhitespace(""))))
            return self.mark(updated.with_changes(args=tuple(args)))
        return updated


class _BadLines(RuleTransformer):
    """``read_csv(error_bad_lines=False)`` -> ``on_bad_lines='skip'``."""

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        name = qualified(updated.func, self.scope.aliases) or ""
        if not (name.startswith("pandas.read_") and kwarg(updated, "error_bad_lines")):
            return updated
        flag = kwarg(updated, "error_bad_lines").value  # type: ignore[union-attr]
        value = "'error'" if isinstance(flag, cst.Name) and flag.value == "True" else "'skip'"
        args = list(without(updated, "error_bad_lines", "warn_bad_lines"))
        if args:
            args[-1] = args[-1].with_changes(comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(cst.Arg(keyword=cst.Name("on_bad_lines"), value=cst.parse_expression(value),
                            equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                  cst.SimpleWhitespace(""))))
        return self.mark(updated.with_changes(args=tuple(args)))


class _PdNp(RuleTransformer):
    """``pd.np.X`` -> ``np.X`` (``pandas.np`` was removed in pandas 2.0)."""

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        value = updated.value
        if (isinstance(value, cst.Attribute) and value.attr.value == "np"
                and is_module(value.value, self.scope.aliases, "pandas")):
            np = self.scope.alias_for("numpy", "np")
            return self.mark(updated.with_changes(value=cst.Name(np)))
        return updated


RULES = (
    Rule(id="pandas-append", library="pandas",
         hint=re.compile(r"\.append\b"),
         rewrites="df.append(other, **kw) -> pd.concat([df, other], **kw) (a list argument is "
                  "spread into the list); adds `import pandas as pd` if pandas has no alias",
         applies="error: 'DataFrame'/'Series' object has no attribute 'append' (removed in "
                 "pandas 2.0); the call on the traceback's lines, other .append calls on the "
                 "same receiver, and calls with ignore_index/sort/verify_integrity",
         trigger=re.compile(r"'(DataFrame|Series)' object has no attribute 'append'"),
         make=_Append, example=("df = df.append(row, ignore_index=True)",
                                "df = pd.concat([df, row], ignore_index=True)")),
    Rule(id="pandas-iteritems", library="pandas",
         hint=re.compile(r"\.iteritems\b"),
         rewrites="x.iteritems() -> x.items()",
         applies="static: any call of .iteritems() with no arguments (gone from pandas 2.0 "
                 "and from Python 3 dicts)",
         make=_Iteritems, example=("for k, v in s.iteritems(): pass",
                                   "for k, v in s.items(): pass")),
    Rule(id="pandas-numeric-only", library="pandas",
         hint=re.compile(r"\.(corr|cov|mean|median|sum|std|var|min|max|prod|quantile|sem|skew|kurt|rank)\b"),
         rewrites="df.corr()/mean()/sum()/... -> the same call with numeric_only=True",
         applies="error: could not convert string to float / Could not convert ... to numeric "
                 "(pandas 2.0 made numeric_only=False the default); only the calls on the "
                 "traceback's lines",
         trigger=re.compile(r"could not convert string to float|Could not convert .* to numeric"
                            r"|unsupported operand type\(s\) for [+/]: '\w+' and 'str'"
                            r"|agg function failed \[how->\w+,dtype->object\]"),
         make=_NumericOnly, example=("c = df.corr()", "c = df.corr(numeric_only=True)")),
    Rule(id="pandas-bad-lines", library="pandas",
         hint=re.compile(r"error_bad_lines"),
         rewrites="read_*(error_bad_lines=False, warn_bad_lines=...) -> on_bad_lines='skip'",
         applies="static: a pandas read_* call with error_bad_lines (removed in pandas 2.0)",
         make=_BadLines, example=("d = pd.read_csv(p, error_bad_lines=False)",
                                  "d = pd.read_csv(p, on_bad_lines='skip')")),
    Rule(id="pandas-np-alias", library="pandas",
         hint=re.compile(r"\.np\."),
         rewrites="pd.np.X -> np.X (adds `import numpy as np` if numpy has no alias)",
         applies="static: the np attribute of a name imported as pandas (removed in 2.0)",
         make=_PdNp, example=("a = pd.np.zeros(2)", "a = np.zeros(2)")),
)

