"""The rule engine: predict a crash from the live objects, without running the cell.

``_engine`` holds the rule set (`RULES`) and `rules_engine`; one module per family of rules
(``_names``, ``_keys``, ``_arrays``, ``_sklearn``, ``_nn``, ``_misc``, ``_python``,
``_calls``); ``_values`` recognises live library objects without importing their libraries;
``_walk/`` is the evaluator the rules run under.
"""

from ._engine import RULES, rules_engine

__all__ = ["RULES", "rules_engine"]
