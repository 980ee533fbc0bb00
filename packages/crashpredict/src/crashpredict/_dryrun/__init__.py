"""The dry-run engine: run the target cell on a copy-on-write fork of the kernel.

``_fork`` forks and waits for the child within a budget (and retries on shrunk data over
it); ``_verdict`` turns what happened into a `Verdict` and merges it with the rules';
``_child`` is what runs in the forked child (silenced, under an alarm and a watchdog).
In the child: ``_overlay`` is the copy-on-write file layer, ``_probes`` answers read-only
probe programs, ``_sandbox`` is the audit-hook policy, ``_confine`` the kernel layer
(seccomp, Landlock, private shared mappings, swapped fds), ``_shrink`` cuts large data.
"""

from ._fork import (
    DEFAULT_BUDGET_S,
    KILL_MARGIN_S,
    OUTCOMES,
    RETRY_ROWS,
    DryRun,
    DryRunError,
    dry_run,
    fork_refusal,
)
from ._verdict import (
    CLEAN_OVERRIDES_BELOW,
    CLEAN_SHRUNK_OVERRIDES_BELOW,
    SHRUNK_CAN_CLEAR,
    SHRUNK_CLEAN_CONFIDENCE,
    combine_with_rules,
    dryrun_engine,
    dryrun_verdict,
)

__all__ = [
    "dry_run", "DryRun", "DryRunError", "dryrun_verdict", "dryrun_engine", "combine_with_rules",
    "fork_refusal", "OUTCOMES", "DEFAULT_BUDGET_S", "KILL_MARGIN_S", "CLEAN_OVERRIDES_BELOW",
    "CLEAN_SHRUNK_OVERRIDES_BELOW", "SHRUNK_CLEAN_CONFIDENCE", "SHRUNK_CAN_CLEAR", "RETRY_ROWS",
]
