"""matplotlib and seaborn: renamed styles and removed plotting functions."""

from __future__ import annotations

import re

import libcst as cst

from ._base import Rule, RuleTransformer, kwarg, qualified, same_quotes, string_value

_DISTPLOT_KEEP = {"bins", "color", "label", "ax", "kde", "x"}


class _SeabornStyles(RuleTransformer):
    """``plt.style.use('seaborn-whitegrid')`` -> ``'seaborn-v0_8-whitegrid'``."""

    def _fix(self, node: cst.BaseExpression) -> cst.BaseExpression:
        value = string_value(node)
        if (isinstance(node, cst.SimpleString) and value is not None
                and (value == "seaborn" or value.startswith("seaborn-"))
                and not value.startswith("seaborn-v0_8")):
            self.changed = True
            return same_quotes(node, "seaborn-v0_8" + value[len("seaborn"):])
        return node

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        name = qualified(updated.func, self.scope.aliases) or ""
        if name not in ("matplotlib.pyplot.style.use", "matplotlib.style.use",
                        "matplotlib.pyplot.style.context", "matplotlib.style.context"):
            return updated
        if not updated.args:
            return updated
        first = updated.args[0]
        value = first.value
        if isinstance(value, (cst.List, cst.Tuple)):
            value = value.with_changes(elements=[e.with_changes(value=self._fix(e.value))
                                                 for e in value.elements])
        else:
            value = self._fix(value)
        return updated.with_changes(args=(first.with_changes(value=value), *updated.args[1:]))


class _Distplot(RuleTransformer):
    """``sns.distplot(x)`` -> ``sns.histplot(x, kde=True, stat='density')``."""

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = updated.func
        # ``from seaborn import distplot`` would need its import changed too: left alone
        if not isinstance(func, cst.Attribute) or qualified(func, self.scope.aliases) != "seaborn.distplot":
            return updated
        if any(a.keyword is None for a in updated.args[1:]) or any(
                a.keyword and a.keyword.value not in _DISTPLOT_KEEP for a in updated.args):
            return updated  # hist=, rug=, fit=, *_kws: no faithful one-call rewrite
        args = [a for a in updated.args if not (a.keyword and a.keyword.value == "kde")]
        kde = kwarg(updated, "kde")
        extra = [] if kde is not None and isinstance(kde.value, cst.Name) and kde.value.value == "False" \
            else ["kde=True"]
        extra.append("stat='density'")
        new_args = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                    for a in args]
        new_args += [cst.Arg(keyword=cst.Name(k), value=cst.parse_expression(v),
                             equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                   cst.SimpleWhitespace("")),
                             comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                     for k, v in (e.split("=", 1) for e in extra)]
        new_args[-1] = new_args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return self.mark(updated.with_changes(func=func.with_changes(attr=cst.Name("histplot")),
                                              args=new_args))


class _Factorplot(RuleTransformer):
    """``sns.factorplot(...)`` -> ``sns.catplot(..., kind='point')`` (factorplot's default)."""

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = updated.func
        if not (isinstance(func, cst.Attribute)
                and qualified(func, self.scope.aliases) == "seaborn.factorplot"):
            return updated
        args = list(updated.args)
        if kwarg(updated, "kind") is None:
            if args:
                args[-1] = args[-1].with_changes(comma=cst.Comma(
                    whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(cst.Arg(keyword=cst.Name("kind"), value=cst.parse_expression("'point'"),
                                equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                      cst.SimpleWhitespace(""))))
        return self.mark(updated.with_changes(func=func.with_changes(attr=cst.Name("catplot")),
                                              args=tuple(args)))


RULES = (
    Rule(id="matplotlib-seaborn-styles", library="matplotlib",
         hint=re.compile(r"seaborn"),
         rewrites="plt.style.use('seaborn[-x]') -> 'seaborn-v0_8[-x]' (also style.context)",
         applies="static: a seaborn style name in matplotlib's style.use/context (renamed in "
                 "3.6, removed in 3.8)",
         make=_SeabornStyles, example=("plt.style.use('seaborn-whitegrid')",
                                       "plt.style.use('seaborn-v0_8-whitegrid')")),
    Rule(id="seaborn-distplot", library="seaborn",
         hint=re.compile(r"distplot"),
         rewrites="sns.distplot(x[, bins, color, label, ax, kde]) -> sns.histplot(x, ..., "
                  "kde=True, stat='density')",
         applies="static: seaborn.distplot (deprecated in 0.11) with no hist=/rug=/fit=/*_kws "
                 "arguments",
         make=_Distplot, example=("sns.distplot(df['x'])",
                                  "sns.histplot(df['x'], kde=True, stat='density')")),
    Rule(id="seaborn-factorplot", library="seaborn",
         hint=re.compile(r"factorplot"),
         rewrites="sns.factorplot(...) -> sns.catplot(..., kind='point')",
         applies="static: seaborn.factorplot (removed in 0.12)",
         make=_Factorplot, example=("sns.factorplot(x='a', y='b', data=df)",
                                    "sns.catplot(x='a', y='b', data=df, kind='point')")),
)
