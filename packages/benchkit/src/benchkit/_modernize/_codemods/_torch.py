"""PyTorch: a 0-dim tensor indexed like a 1-element one, and torch.load's new default."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import PositionProvider

from ._base import Rule, RuleTransformer, kwarg, qualified


class _ScalarItem(RuleTransformer):
    """``loss.data[0]`` -> ``loss.item()`` on the lines the traceback names."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript):
        value = updated.value
        if not (isinstance(value, cst.Attribute) and value.attr.value == "data"
                and len(updated.slice) == 1 and isinstance(updated.slice[0].slice, cst.Index)):
            return updated
        index = updated.slice[0].slice.value
        if not (isinstance(index, cst.Integer) and index.value == "0" and self.on_error_line(original)):
            return updated
        return self.mark(cst.Call(func=value.with_changes(attr=cst.Name("item"))))


class _LoadWeightsOnly(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if (qualified(updated.func, self.scope.aliases) == "torch.load"
                and kwarg(updated, "weights_only") is None):
            args = list(updated.args)
            args[-1] = args[-1].with_changes(comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(cst.Arg(keyword=cst.Name("weights_only"), value=cst.Name("False"),
                                equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                      cst.SimpleWhitespace(""))))
            return self.mark(updated.with_changes(args=tuple(args)))
        return updated


RULES = (
    Rule(id="torch-scalar-item", library="torch",
         hint=re.compile(r"\.data\s*\[\s*0\s*\]"),
         rewrites="x.data[0] -> x.item()",
         applies="error: invalid index of a 0-dim tensor (since torch 0.5); only on the "
                 "traceback's lines",
         trigger=re.compile(r"invalid index of a 0-dim tensor"),
         make=_ScalarItem, example=("total += loss.data[0]", "total += loss.item()")),
    Rule(id="torch-load-weights-only", library="torch",
         hint=re.compile(r"\bload\s*\("),
         rewrites="torch.load(f) -> torch.load(f, weights_only=False)",
         applies="error: Weights only load failed (torch 2.6 made weights_only=True the "
                 "default); every torch.load call without weights_only. Only for files you "
                 "trust: it allows arbitrary unpickling",
         trigger=re.compile(r"Weights only load failed"),
         make=_LoadWeightsOnly, example=("m = torch.load(path)",
                                         "m = torch.load(path, weights_only=False)")),
)
