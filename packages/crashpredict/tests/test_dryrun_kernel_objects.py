"""A dry run never frees what the kernel held at the fork.

Freeing a kernel object in the child writes into pages it shares with the kernel, so each
is copied first: a cell that rebinds the name of a 30M-row frame (``df = df.drop(...)``)
spent 2 s of its budget in C code that no alarm interrupts, and the long pandas pair of
``make bench`` came back "no crash" for want of time. These tests watch the frees
themselves: an object whose ``__del__`` records that it ran, checked by the cell.
"""

from __future__ import annotations

import sys
import types

import pytest

from crashpredict._dryrun import dry_run

pytestmark = pytest.mark.usefixtures("no_new_children")

BUDGET = 5.0


@pytest.fixture()
def witness_module():
    """A module the cell imports to see whether a witness was freed in the child."""
    module = types.ModuleType("crashpredict_test_witness")
    module.freed = []

    class Witness:
        def __init__(self, name):
            self.name = name

        def __del__(self):
            module.freed.append(self.name)

    module.Witness = Witness
    sys.modules[module.__name__] = module
    yield module
    sys.modules.pop(module.__name__, None)


CHECK = "import crashpredict_test_witness as w\nassert not w.freed, w.freed\n"


def test_a_rebound_name_does_not_free_the_kernels_object(witness_module):
    namespace = {"table": witness_module.Witness("table")}
    result = dry_run("table = None\n" + CHECK, namespace, budget_s=BUDGET, retry_rows=None)
    assert result.outcome == "completed", (result.exception, result.message, result.reason)
    assert witness_module.freed == []  # nor, of course, in this process


def test_a_deleted_name_does_not_free_the_kernels_object(witness_module):
    namespace = {"model": witness_module.Witness("model")}
    result = dry_run("del model\n" + CHECK, namespace, budget_s=BUDGET, retry_rows=None)
    assert result.outcome == "completed", (result.exception, result.message, result.reason)


def test_the_kernels_objects_stay_visible_to_the_gc(witness_module):
    """Notebooks find their tensors with ``gc.get_objects()``: the child must see the
    kernel's objects there as the real run does (no ``gc.freeze()``)."""
    namespace = {"kept": witness_module.Witness("kept")}
    cell = ("import gc, crashpredict_test_witness as w\n"
            "assert any(type(o) is w.Witness for o in gc.get_objects())\n")
    result = dry_run(cell, namespace, budget_s=BUDGET, retry_rows=None)
    assert result.outcome == "completed", (result.exception, result.message, result.reason)


def test_the_cells_own_garbage_is_still_collected(witness_module):
    cell = ("import gc, crashpredict_test_witness as w\n"
            "x, y = w.Witness('x'), w.Witness('y')\nx.other, y.other = y, x\ndel x, y\n"
            "gc.collect()\nassert sorted(w.freed) == ['x', 'y'], w.freed\n")
    result = dry_run(cell, {}, budget_s=BUDGET, retry_rows=None)
    assert result.outcome == "completed", (result.exception, result.message, result.reason)


def test_shrinking_does_not_free_the_full_table(witness_module):
    """The shrunk retry replaces a table by its first rows: the full one stays alive."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"who": [witness_module.Witness(f"row{i}") for i in range(50)],
                          "v": range(50)})
    namespace = {"frame": frame}
    del frame
    cell = "frame = frame.head(3)\n" + CHECK
    result = dry_run(cell, namespace, budget_s=BUDGET, shrink=10)
    assert result.outcome == "completed", (result.exception, result.message, result.reason)
    assert result.shrunk


def test_without_the_hold_the_witness_sees_the_free(witness_module, monkeypatch):
    """The peer: the same cell with the hold switched off frees the kernel's object in the
    child, and the witness says so (so the tests above can fail)."""
    from crashpredict._dryrun import _child

    monkeypatch.setattr(_child, "_hold_kernel_objects", lambda namespace: None)
    namespace = {"table": witness_module.Witness("table")}
    result = dry_run("table = None\n" + CHECK, namespace, budget_s=BUDGET, retry_rows=None)
    assert result.outcome == "crashed" and result.exception == "AssertionError"
    assert "table" in result.message
    assert witness_module.freed == []  # the free happened in the child only
