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
