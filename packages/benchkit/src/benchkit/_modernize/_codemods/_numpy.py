"""numpy: the builtin type aliases (removed in 1.24) and the names numpy 2.0 removed."""

from __future__ import annotations

import re

import libcst as cst

from ._base import Rule, RuleTransformer, expr, is_module

_BUILTINS = {"float": "float", "int": "int", "bool": "bool", "object": "object", "str": "str",
             "long": "int", "unicode": "str", "complex": "complex"}
_CONSTANTS = {"NaN": "nan", "NAN": "nan", "Inf": "inf", "Infinity": "inf", "PINF": "inf",
              "infty": "inf", "NINF": "-inf", "PZERO": "0.0", "NZERO": "-0.0"}
_RENAMED = {"product": "prod", "cumproduct": "cumprod", "alltrue": "all", "sometrue": "any",
            "in1d": "isin", "trapz": "trapezoid", "round_": "round", "float_": "float64",
            "complex_": "complex128", "unicode_": "str_", "string_": "bytes_",
            "row_stack": "vstack", "cfloat": "complex128", "longfloat": "longdouble",
            "singlecomplex": "complex64", "Inf_": "inf"}


class _BuiltinAliases(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        if is_module(updated.value, self.scope.aliases, "numpy") and updated.attr.value in _BUILTINS:
            return self.mark(cst.Name(_BUILTINS[updated.attr.value]))
        return updated


class _Constants(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        if is_module(updated.value, self.scope.aliases, "numpy") and updated.attr.value in _CONSTANTS:
            value = _CONSTANTS[updated.attr.value]
            np = updated.value.value  # type: ignore[union-attr]
            if value[0].isdigit() or value.startswith("-0"):
                return self.mark(expr(value))
            sign, name = ("-", value[1:]) if value.startswith("-") else ("", value)
            new = expr(f"{np}.{name}")
            return self.mark(cst.UnaryOperation(operator=cst.Minus(), expression=new) if sign else new)
        return updated


class _Renamed(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        if is_module(updated.value, self.scope.aliases, "numpy") and updated.attr.value in _RENAMED:
            return self.mark(updated.with_changes(attr=cst.Name(_RENAMED[updated.attr.value])))
        return updated


RULES = (
    Rule(id="numpy-builtin-aliases", library="numpy",
         hint=re.compile(r"\.(float|int|bool|object|str|long|unicode|complex)\b"),
         rewrites="np.float, np.int, np.bool, np.object, np.str, np.long, np.unicode, "
                  "np.complex -> the builtin type",
         applies="static: an attribute of a name imported as numpy (removed in numpy 1.24)",
         make=_BuiltinAliases, example=("x = np.zeros(3, dtype=np.float)",
                                        "x = np.zeros(3, dtype=float)")),
    Rule(id="numpy-constants", library="numpy",
         hint=re.compile(r"\.(NaN|NAN|Inf|Infinity|PINF|infty|NINF|PZERO|NZERO)\b"),
         rewrites="np.NaN, np.NAN -> np.nan; np.Inf, np.Infinity, np.PINF, np.infty -> np.inf; "
                  "np.NINF -> -np.inf",
         applies="static: an attribute of a name imported as numpy (removed in numpy 2.0)",
         make=_Constants, example=("x = [np.NaN, np.Inf]", "x = [np.nan, np.inf]")),
    Rule(id="numpy-renamed-functions", library="numpy",
         hint=re.compile(r"\.(product|cumproduct|alltrue|sometrue|in1d|trapz|round_|float_|complex_|unicode_|string_|row_stack|cfloat|longfloat|singlecomplex)\b"),
         rewrites="np.product/cumproduct/alltrue/sometrue/in1d/trapz/round_/row_stack and "
                  "np.float_/complex_/unicode_/string_ -> their numpy 2 names",
         applies="static: an attribute of a name imported as numpy (removed in numpy 2.0)",
         make=_Renamed, example=("p = np.product([1, 2])", "p = np.prod([1, 2])")),
)
