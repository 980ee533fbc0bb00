"""rtextract: bounded, side-effect-free runtime facts of live ML objects.

``describe(obj)`` turns a DataFrame, array, tensor, model or estimator into facts tagged
S (structure), R (representation) or V (values); ``select(cell)`` finds what a cell reads;
``snapshot(namespace, cell)`` describes those objects; ``render(snap)`` writes a prompt
block; ``safe_view(obj)`` is what a caller may read without running user code; ``kernel_snapshot(cell)`` does it inside a Jupyter kernel. Heavy libraries are
never imported here: an object is recognised by its type's module.
"""

from rtextract._describe import describe
from rtextract._kernel import kernel_snapshot
from rtextract._model import Access, Fact, Facts, Snapshot
from rtextract._render import render
from rtextract._select import select
from rtextract._snapshot import snapshot
from rtextract._views import safe_view
from rtextract.errors import RtextractError, SnapshotFormatError

__version__ = "0.1.0"


def main(argv: list[str] | None = None) -> int:
    """The ``rtextract`` command (render a snapshot file, list a cell's accesses).

    Imported on first use so that ``import rtextract`` inside a user's kernel stays cheap.
    """
    from rtextract._cli import main as cli_main

    return cli_main(argv)


__all__ = [
    # describing one object
    "describe", "Facts", "Fact",
    # what a cell reads, and the snapshot of it
    "select", "Access", "snapshot", "Snapshot", "kernel_snapshot",
    # reading a live object without running the user's code
    "safe_view",
    # prompt text
    "render",
    # errors and CLI
    "RtextractError", "SnapshotFormatError", "main",
    "__version__",
]  # fmt: skip
