"""The rule engine: walk the target cell over the live namespace and apply every rule."""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping
from typing import Any

import rtextract
from nbdeps import ipython_to_python

from .._model import Verdict
from ._arrays import array_call, broadcast_binop
from ._calls import bad_arguments
from ._keys import column_length, missing_key, nan_into_integers
from ._misc import (
    frame_plot_call,
    missing_file,
    missing_folder,
    missing_module,
    plot_call,
    seaborn_call,
    torch_load,
)
from ._meta import warm_meta
from ._names import missing_attribute, removed_attribute, undefined_name
from ._propagate import (
    propagate_attribute,
    propagate_binop,
    propagate_call,
    propagate_compare,
    propagate_iter,
    propagate_subscript,
)
from ._nn import keras_call, torch_call
from ._reshape import pivot_duplicates
from ._python import (
    axis_assignment,
    bad_accessor,
    bad_unpack,
    not_callable,
    not_subscriptable,
    plain_binop,
    pruned_while_iterated,
)
from ._siblings import facts_line, names_on_line
from ._sklearn import record_fit, sklearn_call, split_result
from ._values import safe_message
from ._walk import CellWalker, Rules, evaluate_call

__all__ = ["RULES", "rules_engine"]

#: Every rule, by the node kind it looks at. Call rules run in this order, so the more
#: specific diagnoses (sklearn, torch, keras, shapes) come before the generic ones.
RULES = Rules(
    name=[undefined_name],
    attribute=[missing_attribute, bad_accessor],
    changed_attribute=[removed_attribute],
    subscript=[not_subscriptable, missing_key],
    call=[not_callable, sklearn_call, torch_call, keras_call, array_call, plot_call,
          seaborn_call, frame_plot_call, torch_load, missing_file, missing_folder,
          pivot_duplicates, bad_arguments],
    binop=[broadcast_binop, plain_binop],
    statement=[missing_module, pruned_while_iterated],
    unpack=[bad_unpack],
    store_item=[column_length, nan_into_integers],
    store_attribute=[axis_assignment],
    evaluate_call=evaluate_call,
    after_call=[record_fit, split_result],
    propagate_call=propagate_call,
    propagate_attribute=propagate_attribute,
    propagate_subscript=propagate_subscript,
    propagate_binop=propagate_binop,
    propagate_compare=propagate_compare,
    propagate_iter=propagate_iter,
)

_NO_RULE_CONFIDENCE = 0.6


def _syntax_verdict(exc: SyntaxError) -> Verdict:
    name = type(exc).__name__
    return Verdict(crash=True, confidence=0.99, exception=name, line=exc.lineno,
                   library="python", crash_type="syntax error",
                   explanation=f"the cell does not parse: {exc.msg} (line {exc.lineno})",
                   evidence=(), engine="rules")


#: The hard stop of a whole walk (the main thread only). Trials and propagation steps stop
#: at the walk's trial budget (1 s) already, and rule code calls no user code itself; this
#: stops what library code run by a rule might still reach (a user ExtensionArray's
#: method, a user estimator's tags inside a Pipeline's).
WALK_LIMIT_S = 3.0


def _walk(walker: CellWalker, tree: ast.Module) -> Any:
    if not walker.bounded:  # another thread: values holding user code are unknown instead
        return walker.run(tree)
    return rtextract.bounded_call(lambda: walker.run(tree),
                                  rtextract.Deadline(WALK_LIMIT_S * 1000.0))


def rules_engine(source: str, namespace: Mapping[str, Any], *,
                 trial_budget_s: float | None = None) -> Verdict:
    """Predict with the rules; never raises for any source or namespace.

    ``trial_budget_s``: how long the walk's trials (library calls on live values) may take
    in all (default 1 s); 0 runs none. With the default, torch's meta device is made ready
    first where torch is imported (`_meta.warm_meta`: seconds, once per process); with a
    budget given (the notebook's), layers run on it only once the notebook's own code has
    imported what it runs on (`_meta.meta_warm`: constructing an optimizer does).
    """
    code = ipython_to_python(source)
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return _syntax_verdict(exc)
    except (ValueError, RecursionError, MemoryError) as exc:
        return Verdict(crash=None, confidence=0.0, explanation=f"cannot parse: {exc}")
    if trial_budget_s is None and "torch" in sys.modules:
        warm_meta()  # the full rules only: the notebook's never wait for it (`_meta.meta_warm`)
    walker = CellWalker(code, namespace, RULES) if trial_budget_s is None else \
        CellWalker(code, namespace, RULES, trial_budget_s=max(0.0, float(trial_budget_s)))
    walker.original = source
    try:
        located = _walk(walker, tree)
    except rtextract.UserCodeTimeout:
        return Verdict(crash=None, confidence=0.0,
                       explanation=f"rule engine stopped after its time limit of "
                                   f"{WALK_LIMIT_S:g} s: a live object's code, or a library "
                                   f"call reaching it, did not return",
                       evidence=tuple(walker.notes))
    except Exception as exc:  # the walker itself must never break the kernel
        return Verdict(crash=None, confidence=0.0,
                       explanation=f"rule engine failed: {type(exc).__name__}: "
                                   f"{safe_message(exc)}",
                       evidence=tuple(walker.notes))
    if located is None:
        return Verdict(crash=False, confidence=_NO_RULE_CONFIDENCE,
                       explanation="no rule found a certain crash", evidence=tuple(walker.notes))
    finding = located.finding
    facts = []
    for name in names_on_line(code, located.line, namespace)[:2]:
        line = facts_line(name, namespace[name])
        if line:
            facts.append(line)
    evidence = (*finding.evidence, *facts, *(f"rule: {finding.rule}",) * bool(finding.rule),
                *walker.notes)
    return Verdict(crash=True, confidence=finding.confidence, exception=finding.exception,
                   line=located.line, library=finding.library, crash_type=finding.crash_type,
                   explanation=finding.explanation, evidence=tuple(evidence), engine="rules")
