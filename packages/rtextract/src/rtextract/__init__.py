"""rtextract: bounded, side-effect-free runtime facts of live ML objects.

``describe(obj)`` turns a DataFrame, array, tensor, model or estimator into facts tagged
S (structure), R (representation) or V (values); ``select(cell)`` finds what a cell reads;
``snapshot(namespace, cell)`` describes those objects; ``render(snap)`` writes a prompt
block; ``kernel_snapshot(cell)`` does it inside a Jupyter kernel. Heavy libraries are
never imported here: an object is recognised by its type's module.

What callers need to read live objects safely is public too: ``safe_view(obj)`` (what may
be read without running user code), ``user_method``, ``user_classes``, ``user_content``,
``user_arrays`` and ``lookup_runs_user_code`` (the trust policy: which code is the
user's), ``safe_repr``, ``bounded_call`` (a real time bound for code that may reach user
code) and ``unreadable_memory`` (memory-mapped data whose file was truncated: reading it
would kill the process).
"""

from rtextract._builder import Deadline
from rtextract._describe import describe
from rtextract._kernel import kernel_snapshot
from rtextract._model import Access, Fact, Facts, Snapshot
from rtextract._render import render
from rtextract._select import select
from rtextract._snapshot import snapshot
from rtextract._mapped import unreadable_memory
from rtextract._bound import UserCodeTimeout, bounded_call, can_bound
from rtextract._trust import (
    lookup_runs_user_code,
    safe_repr,
    user_arrays,
    user_classes,
    user_content,
    user_method,
)
from rtextract._views import safe_view
from rtextract.errors import RtextractError, SnapshotFormatError

__version__ = "0.1.0"


def main(argv: list[str] | None = None) -> int:
    """The ``rtextract`` command (render a snapshot file, list a cell's accesses).

    Imported on first use so that ``import rtextract`` inside a user's kernel stays cheap.
    """
    from rtextract._cli import main as cli_main

    return cli_main(argv)


from rtextract._python import plain_wrappers

__all__ = [
    # describing one object
    "describe", "Facts", "Fact",
    # what a cell reads, and the snapshot of it
    "select", "Access", "snapshot", "Snapshot", "kernel_snapshot",
    # reading a live object without running the user's code
    "safe_view", "user_method", "user_classes", "user_content", "user_arrays",
    "lookup_runs_user_code",
    "safe_repr", "unreadable_memory", "plain_wrappers",
    # a real time bound for code that may reach user code
    "bounded_call", "can_bound", "Deadline", "UserCodeTimeout",
    # prompt text
    "render",
    # errors and CLI
    "RtextractError", "SnapshotFormatError", "main",
    "__version__",
]  # fmt: skip
