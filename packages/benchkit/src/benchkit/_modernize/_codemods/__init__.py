"""The offline codemod catalog: libcst rewrites for known API removals, and how to apply them.

``apply_codemods(source)`` rewrites one piece of code with the static rules (and, given the
error text and lines, the error-triggered ones); ``codemod_notebook`` does the same over a
notebook's code cells, keeping markdown, comments and cell ids.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import libcst as cst

from ._base import Rule, Scope, import_aliases
from ._drift import DRIFT_RULE
from ._keras import RULES as _KERAS
from ._numpy import RULES as _NUMPY
from ._pandas import RULES as _PANDAS
from ._plots import RULES as _PLOTS
from ._sklearn import RULES as _SKLEARN
from ._torch import RULES as _TORCH

__all__ = ["CODEMODS", "DRIFT_RULE", "Rule", "default_rules", "apply_codemods", "parse_cell", "render_cell", "aliases_of",
           "rewrite_cell"]

CODEMODS: Mapping[str, Rule] = MappingProxyType(
    {r.id: r for r in (*_NUMPY, *_PANDAS, *_SKLEARN, *_KERAS, *_TORCH, *_PLOTS)})

# IPython lines (magics, shell escapes, help) are not Python: they are hidden behind a
# marker comment while libcst works, and put back unchanged afterwards.
_MAGIC = re.compile(r"^([ \t]*)([%!?].*|[\w.]+\?\??[ \t]*)$")
_MARK = "#__benchkit_magic_{}__"


def parse_cell(source: str) -> tuple[cst.Module, tuple[str, ...]] | None:
    """The cell as a libcst module with its IPython lines masked, or ``None`` if not Python."""
    magics: list[str] = []
    lines = source.split("\n")
    for k, line in enumerate(lines):
        match = _MAGIC.match(line)
        if match:
            lines[k] = match.group(1) + _MARK.format(len(magics))
            magics.append(line)
    try:
        return cst.parse_module("\n".join(lines)), tuple(magics)
    except cst.ParserSyntaxError:
        return None


def render_cell(module: cst.Module, magics: Sequence[str]) -> str:
    text = module.code
    lines = text.split("\n")
    for k, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("#__benchkit_magic_"):
            index = int(stripped[len("#__benchkit_magic_"):-2])
            lines[k] = magics[index]
    return "\n".join(lines)


def aliases_of(sources: Sequence[str]) -> dict[str, str]:
    """Import-bound names of all ``sources`` together (a notebook's cells share one namespace)."""
    modules = [parsed[0] for parsed in map(parse_cell, sources) if parsed is not None]
    return import_aliases(modules)


def default_rules(rules: Sequence[str] | None = None) -> list[Rule]:
    """The catalog's rules (or those named), then the knowledge base (unless ``rules``
    names rules and leaves out ``drift-kb``)."""
    if rules is None:
        return [*CODEMODS.values(), DRIFT_RULE]
    return [DRIFT_RULE if r == DRIFT_RULE.id else CODEMODS[r] for r in rules]


def triggered(rule: Rule, error: str | None) -> bool:
    """A static rule always may run; an error-triggered one only after its error."""
    if rule.trigger is None:
        return True
    return error is not None and rule.trigger.search(error) is not None


def rewrite_cell(source: str, rules: Sequence[Rule], scope: Scope) -> tuple[str, tuple[str, ...]]:
    """``source`` rewritten by ``rules`` in order, and the ids of the rules that changed it.

    Import lines the rewrites need (``scope.imports``) are *not* added here; the caller
    decides where they go. Code libcst cannot parse comes back unchanged.
    """
    rules = [r for r in rules if r.hint is None or r.hint.search(source)]
    parsed = parse_cell(source) if rules else None
    if parsed is None:
        return source, ()
    module, magics = parsed
    applied: list[str] = []
    for _pass in range(3):
        bound = len(scope.aliases)
        for rule in rules:
            transformer = rule.make(scope)
            if transformer.METADATA_DEPENDENCIES:
                new = cst.MetadataWrapper(module, unsafe_skip_copy=True).visit(transformer)
            else:
                new = module.visit(transformer)
            if transformer.changed and new.code != module.code:
                # the knowledge base says which of its entries applied
                ids = getattr(transformer, "applied_ids", None)
                applied.extend([f"kb:{i}" for i in dict.fromkeys(ids)] if ids else [rule.id])
                module = new
        if len(scope.aliases) == bound:
            break  # no rule bound a new import name, so no rule can see more
    return render_cell(module, magics) if applied else source, tuple(dict.fromkeys(applied))


def _with_imports(source: str, imports: Sequence[str]) -> str:
    return "".join(f"{line}\n" for line in imports) + source if imports else source


def apply_codemods(source: str, *, error: str | None = None, lines: Sequence[int] = (),
                   rules: Sequence[str] | None = None) -> tuple[str, tuple[str, ...]]:
    """Rewrite ``source`` with the codemod catalog; return ``(new_source, applied_rule_ids)``.

    Args:
        source: Python code (IPython magics and shell lines are kept as they are).
        error: ``"ename: evalue"`` of the error this code raised; enables the
            error-triggered rules whose trigger matches it.
        lines: the lines (1-based) the traceback points to; error-triggered rules that work
            on the failing line rewrite only there.
        rules: ids of the rules to try (default: all of ``CODEMODS``, in catalog order, then
            the drift knowledge base, ``drift-kb``, whose entries report as ``kb:<entry id>``).

    Returns:
        The rewritten code (unchanged when no rule applied, or when it is not Python) and the
        ids of the rules that changed it. Needed imports (``import numpy as np``) are put
        on top.

    Example:
        >>> apply_codemods("import numpy as np\\nx = np.float(1)\\n")
        ('import numpy as np\\nx = float(1)\\n', ('numpy-builtin-aliases',))
    """
    chosen = [r for r in default_rules(rules) if triggered(r, error)]
    scope = Scope(aliases=aliases_of([source]), error=error,
                  error_lines=frozenset(lines) if error is not None else None)
    new, applied = rewrite_cell(source, chosen, scope)
    return (_with_imports(new, scope.imports) if applied else source), applied
