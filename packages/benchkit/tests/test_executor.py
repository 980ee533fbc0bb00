"""The executor interface: a local process pool and Dask give the same records."""

from __future__ import annotations

import pytest

from benchkit import DaskExecutor, LocalExecutor, load_cases
from benchkit._run import case_to_task, error_record, run_task


@pytest.fixture
def malformed_tasks(tmp_path, write_case):
    # reproduced notebooks with no error output: each task ends "malformed" without a kernel
    for i in range(3):
        write_case(tmp_path, f"numpy_{i}", [("a = 1", 1)], [("a = 1", 1)], error_at=None)
    return [case_to_task(c, v, kind="verify", timeout=5) for c in load_cases(tmp_path) for v in c.versions]


def _strip(results):
    return sorted((r["case"], r["version"], r["status"], r["reason"]) for _, r in results)


def test_local_pool_runs_every_task(malformed_tasks):
    results = list(LocalExecutor(2).run(run_task, malformed_tasks, error_record))
    assert len(results) == 6
    assert {r["status"] for _, r in results} == {"malformed"}
    assert "no target cell" in results[0][1]["reason"]


def test_dask_local_cluster_gives_the_same_records(malformed_tasks):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        dask_results = list(DaskExecutor(client).run(run_task, malformed_tasks, error_record))
    local_results = list(LocalExecutor(1).run(run_task, malformed_tasks, error_record))
    assert _strip(dask_results) == _strip(local_results)


def test_dask_unreachable_scheduler_is_a_clear_error():
    pytest.importorskip("distributed")
    from benchkit import BenchkitError

    with pytest.raises(BenchkitError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        DaskExecutor("tcp://127.0.0.1:1", connect_timeout=2)


def test_jobs_must_be_positive():
    from benchkit import BenchkitError

    with pytest.raises(BenchkitError, match="at least 1"):
        LocalExecutor(0)


def _dies_on_two(task):
    """A task function whose worker dies (a segfault in a library) on task 2."""
    import os
    import signal
    import time

    if task["n"] == 2:
        os.kill(os.getpid(), signal.SIGSEGV)
    time.sleep(0.2)  # the others are still running when the worker dies
    return {"n": task["n"], "ok": True}


def test_a_worker_that_dies_fails_its_own_task_and_the_others_run():
    tasks = [{"n": n} for n in range(6)]
    failed = []

    def on_error(task, exc):
        failed.append((task["n"], type(exc).__name__))
        return {"n": task["n"], "ok": False, "why": str(exc)}

    results = {task["n"]: result for task, result in
               LocalExecutor(2).run(_dies_on_two, tasks, on_error)}
    assert sorted(results) == list(range(6))
    assert failed == [(2, "WorkerDied")], failed
    assert all(results[n]["ok"] for n in range(6) if n != 2)
    assert "worker process running it died" in results[2]["why"]
