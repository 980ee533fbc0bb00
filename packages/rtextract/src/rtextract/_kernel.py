"""kernel_snapshot(): the snapshot of a live IPython kernel's namespace, as JSON.

A client (crashpredict) sends ``import rtextract; rtextract.kernel_snapshot(source)`` to
the kernel and reads the returned string; nothing is printed and the namespace is not
changed.
"""

from __future__ import annotations

import sys
from typing import Any

from rtextract._model import CATEGORIES
from rtextract._snapshot import DEFAULT_SNAPSHOT_BUDGET_MS, snapshot

__all__ = ["kernel_snapshot"]


def kernel_snapshot(cell_source: str, categories: str = CATEGORIES,
                    budget_ms: float = DEFAULT_SNAPSHOT_BUDGET_MS) -> str:
    """Snapshot the running IPython kernel's ``user_ns`` for ``cell_source``; return JSON.

    Outside IPython the ``__main__`` module's namespace is used instead, so the function
    also works in a plain interpreter.

    Example (in a kernel):
        >>> import rtextract, json
        >>> json.loads(rtextract.kernel_snapshot("df.head()"))["objects"][0][0]
        'df'
    """
    return snapshot(_user_namespace(), cell_source, categories=categories,
                    budget_ms=budget_ms).to_json()


def _user_namespace() -> dict[str, Any]:
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None) if ipython is not None else None
    shell = get() if callable(get) else None
    namespace = getattr(shell, "user_ns", None)
    if isinstance(namespace, dict):
        return namespace
    main = sys.modules.get("__main__")
    return vars(main) if main is not None else {}
