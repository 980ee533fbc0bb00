"""The JunoBench sample cases through a real kernel: reproduced targets are predicted to
crash with the right exception class, fixed targets are not.

One kernel serves every case (``%reset -f`` and a chdir between replays) so heavy imports
are paid once. Cases whose notebooks import a package missing here are skipped.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crashpredict import KernelSession
from crashpredict._check import plan_check, read_code_cells

pytestmark = [pytest.mark.kernel, pytest.mark.slow]

SAMPLE = Path(__file__).resolve().parents[3] / "tests" / "junobench-sample"  # shipped in the repo
CASES = sorted(p.parent.name for p in SAMPLE.glob("*/case.json")) if SAMPLE.is_dir() else []


@pytest.fixture(scope="module")
def sample_kernel(tmp_path_factory: pytest.TempPathFactory):
    if not CASES:
        pytest.skip("the JunoBench sample is not present")
    work = tmp_path_factory.mktemp("junobench")
    for case in CASES:  # fixed notebooks write files: work on a copy
        shutil.copytree(SAMPLE / case, work / case)
    with KernelSession(work, timeout=300) as session:
        yield session, work


def _replay_and_predict(session: KernelSession, folder: Path, notebook: Path, target_id: str):
    target, before = plan_check(read_code_cells(notebook), cell=target_id, order="history",
                                path=notebook)
    assert session.run("%reset -f").ok
    assert session.run(f"import os as _os\n_os.chdir({str(folder)!r})\ndel _os").ok
    for cell in before:
        run = session.run(cell.source)
        if not run.ok:
            if run.ename == "ModuleNotFoundError":
                pytest.skip(f"{notebook.name} needs a package missing here: {run.evalue}")
            pytest.fail(f"replay of {notebook.name} failed at cell {cell.index}: "
                        f"{run.ename}: {run.evalue}")
    return session.predict(target.source)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("version", ["reproduced", "fixed"])
def test_sample_case(sample_kernel, case: str, version: str) -> None:
    session, work = sample_kernel
    labels = json.loads((work / case / "case.json").read_text())
    notebook = work / case / f"{case}_{version}.ipynb"
    verdict = _replay_and_predict(session, work / case, notebook, labels["target_cell_id"])
    if version == "reproduced":
        assert verdict.crash is True, verdict.explanation
        assert verdict.exception.lower() == labels["ename"], verdict
    else:
        assert verdict.crash is False, verdict.explanation
