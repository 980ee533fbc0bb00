"""What the tests decide a cell's truth by, and how they run it beside a cell.

Importable as ``crashpredict_tests_cells`` (conftest registers it: the tests use pytest's
importlib mode, where sibling helpers are not on ``sys.path``).
"""

from __future__ import annotations

import time
from typing import Any


def raised(source: str, namespace: dict) -> BaseException | None:
    """The truth: what ``source`` raises, run for real in ``namespace`` (None: it ran clean)."""
    try:
        exec(compile(source, "<cell>", "exec"), namespace)  # noqa: S102 - the truth of the case
    except Exception as exc:  # noqa: BLE001 - the truth of the case
        return exc
    return None


def raised_type(source: str, namespace: dict) -> str | None:
    """The name of what ``source`` raises, run for real (None: it ran clean)."""
    exc = raised(source, namespace)
    return None if exc is None else type(exc).__name__


def raised_in_a_new_process(setup: str, cell: str) -> str | None:
    """The name of what ``cell`` raises after ``setup``, run for real in a new interpreter
    (None: it ran clean): a Keras graph error raised in the tests' process would stay in
    TensorFlow's runtime, which the dry runs of later tests fork."""
    import subprocess
    import sys

    script = ("ns = {'__name__': '__main__'}\nexec(SETUP, ns)\ntry:\n    exec(CELL, ns)\n"
              "except Exception as exc:\n    print('RAISED', type(exc).__name__)\n")
    done = subprocess.run([sys.executable, "-c", f"SETUP = {setup!r}\nCELL = {cell!r}\n" + script],
                          capture_output=True, text=True, timeout=300, check=True)
    found = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("RAISED ")]
    return found[0] if found else None


def beside_the_cell(namespace: dict, cell: str, wait_s: float = 20) -> Any:
    """The dry run of ``cell`` as the notebook's one run makes it: a standby child of
    ``namespace``, armed, then given the cell; its `DryRun` once in."""
    from crashpredict._dryrun._beside import prepare_standby

    standby = prepare_standby(namespace)
    deadline = time.perf_counter() + 10
    while not standby.armed() and time.perf_counter() < deadline:
        time.sleep(0.01)
    beside = standby.start(cell)
    result = beside.wait(wait_s)
    assert beside.settle(10)
    return result
