"""The shared notebook runner in real kernels: errors, time limits, kernel death, probes."""

from __future__ import annotations

import os
import time

import pytest

import nbpatch

pytestmark = pytest.mark.kernel


def test_stops_at_the_first_error_with_its_traceback_lines(nb, tmp_path):
    run = nbpatch.run_notebook(
        nb("# Title", "import os\nprint(os.getcwd())", "x = 1\n\ny = [][x]", "print('after')"),
        cwd=tmp_path, timeout=60)
    assert [(c.index, c.status) for c in run.cells] == [(1, "ok"), (2, "error"), (3, "not-run")]
    failed = run.failed
    assert (failed.ename, failed.evalue, failed.lines) == ("IndexError",
                                                           "list index out of range", (3,))
    assert any("y = [][x]" in line for line in failed.traceback)
    assert not any("\x1b[" in line for line in failed.traceback)
    assert run.stopped_at == 2 and not run.timed_out and not run.kernel_died
    assert run.notebook.cells[1].outputs[0].text == f"{tmp_path}\n"
    # the hidden set-up and probe cells take no execution count
    assert [c.get("execution_count") for c in run.notebook.cells[1:3]] == [1, 2]


def test_per_cell_timeout_kills_the_kernel_group_and_the_rest_is_not_run(nb, tmp_path):
    child = tmp_path / "child.pid"
    start = time.monotonic()
    run = nbpatch.run_notebook(
        nb("import subprocess, sys\n"
           f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'])\n"
           f"open({str(child)!r}, 'w').write(str(p.pid))",
           "import time\ntime.sleep(300)", "print('never')"),
        timeout=2, variables=("p",), score="1.0")
    assert time.monotonic() - start < 60
    assert [c.status for c in run.cells] == ["ok", "timeout", "not-run"]
    assert run.timed_out and run.stopped_at == 1
    assert run.score is None and run.score_error == "not evaluated: the notebook timed out"
    assert run.variables == {"p": {"unavailable": "the notebook timed out"}}
    pid = int(child.read_text())
    for _ in range(50):  # the subprocess the notebook started went down with the group
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the notebook's subprocess outlived the timeout")


def test_total_timeout_bounds_the_whole_notebook(nb):
    # each cell is well within the per-cell limit; together they are not (kernel start counts)
    run = nbpatch.run_notebook(nb(*["import time\ntime.sleep(2)"] * 6), timeout=60,
                               total_timeout=5)
    statuses = [c.status for c in run.cells]
    cut = statuses.index("timeout")
    assert statuses == ["ok"] * cut + ["timeout"] + ["not-run"] * (5 - cut)
    assert run.timed_out and run.elapsed_s < 30


def test_a_dying_kernel_is_an_error_of_that_cell(nb):
    run = nbpatch.run_notebook(nb("x = 1", "import os\nos._exit(1)", "y = 2"), timeout=60,
                               variables=("x",))
    assert [c.status for c in run.cells] == ["ok", "error", "not-run"]
    assert run.cells[1].ename == "DeadKernelError" and run.kernel_died
    assert run.variables == {"x": {"unavailable": "the kernel died"}}


def test_probe_reads_variables_and_score_without_touching_globals(nb):
    run = nbpatch.run_notebook(nb("acc = 0.75\nname = 'm'", "print(sorted(k for k in globals() "
                                  "if 'nbpatch' in k))"), variables=("acc", "name", "gone"),
                               score="acc * 2")
    assert run.notebook.cells[1].outputs[0].text == "[]\n"
    assert run.variables == {"acc": {"type": "builtins.float", "float": 0.75},
                             "name": {"type": "builtins.str", "value": "m"},
                             "gone": {"missing": True}}
    assert (run.score, run.score_error) == (1.5, None)


def test_unknown_kernel_is_a_run_error():
    with pytest.raises(nbpatch.RunError, match="cannot start kernel 'no-such-kernel'"):
        nbpatch.run_notebook({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                              "cells": []}, kernel_name="no-such-kernel")
