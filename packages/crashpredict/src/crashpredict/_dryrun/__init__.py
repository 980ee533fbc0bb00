"""The dry-run engine: run the target cell on a copy-on-write fork of the kernel.

``_fork`` forks and waits for the child within a budget, and turns what happened into a
`Verdict`; ``_child`` is what runs in the forked child (silenced, under an alarm);
``_sandbox`` is the side-effect policy installed there; ``_shrink`` cuts large data to its
first rows when asked.
"""

from ._fork import (
    CLEAN_OVERRIDES_BELOW,
    CLEAN_SHRUNK_OVERRIDES_BELOW,
    DEFAULT_BUDGET_S,
    KILL_MARGIN_S,
    OUTCOMES,
    RETRY_ROWS,
    SHRUNK_CAN_CLEAR,
    SHRUNK_CLEAN_CONFIDENCE,
    DryRun,
    DryRunError,
    combine_with_rules,
    dry_run,
    dryrun_engine,
    dryrun_verdict,
    fork_refusal,
)

__all__ = [
    "dry_run", "DryRun", "DryRunError", "dryrun_verdict", "dryrun_engine", "combine_with_rules",
    "fork_refusal", "OUTCOMES", "DEFAULT_BUDGET_S", "KILL_MARGIN_S", "CLEAN_OVERRIDES_BELOW",
    "CLEAN_SHRUNK_OVERRIDES_BELOW", "SHRUNK_CLEAN_CONFIDENCE", "SHRUNK_CAN_CLEAR", "RETRY_ROWS",
]
