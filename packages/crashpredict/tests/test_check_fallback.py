"""`crashpredict check`: when the fork cannot answer, the target runs in the disposable
replay kernel (a private copy of the folder), within the dry run's budget."""

from __future__ import annotations

import hashlib
from pathlib import Path

import nbformat
import pytest

from crashpredict import check_notebook

pytestmark = pytest.mark.kernel


def _notebook(folder: Path, *sources: str, target: str) -> Path:
    cells = [nbformat.v4.new_code_cell(s, execution_count=n) for n, s in enumerate(sources, 1)]
    cells.append(nbformat.v4.new_code_cell(target))
    path = folder / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("target", "crash", "exception", "line"), [
    # a new process is blocked in the fork: the dry run cannot say, the replay kernel can
    ("import subprocess\n\nsubprocess.run(['false'], check=True)", True, "CalledProcessError", 3),
    ("import subprocess\nout = subprocess.run(['true'], check=True)", False, None, None),
])
def test_a_cell_the_fork_cannot_run_is_run_in_the_replay_kernel(tmp_path, target, crash,
                                                                exception, line):
    path = _notebook(tmp_path, "x = 1", target=target)
    before = _tree(tmp_path)
    result = check_notebook(path, engines=("rules", "dryrun"), timeout=60)
    verdict = result.verdict
    assert (verdict.crash, verdict.exception, verdict.line) == (crash, exception, line), verdict
    assert "dryrun" in verdict.engine
    assert any("ran in the replay kernel" in e for e in verdict.evidence)
    assert _tree(tmp_path) == before


def test_in_place_never_runs_the_target(tmp_path):
    path = _notebook(tmp_path, "x = 1", target="open('made.txt', 'w').write('x')\n"
                                                "import subprocess\nsubprocess.run(['true'])")
    result = check_notebook(path, engines=("rules", "dryrun"), timeout=60, in_place=True)
    assert not any("ran in the replay kernel" in e for e in result.verdict.evidence)
    assert not (tmp_path / "made.txt").exists()


def test_static_only_never_runs_the_target(tmp_path):
    path = _notebook(tmp_path, "x = 1", target="import subprocess\nsubprocess.run(['false'], check=True)")
    result = check_notebook(path, engines=("rules",), timeout=60)
    assert result.verdict.engine == "rules"
    assert not any("replay kernel" in e for e in result.verdict.evidence)


@pytest.mark.slow
def test_a_tensorflow_cell_stuck_in_the_fork_is_answered_by_the_replay_kernel(tmp_path):
    pytest.importorskip("tensorflow")
    # TensorFlow's intra-op pool does not survive a fork once the parent used it; a large
    # op then cannot finish in the child. The replay kernel has a live pool.
    path = _notebook(tmp_path, "import tensorflow as tf\na = tf.ones((1500, 1500))\n"
                               "_ = tf.matmul(a, a)",
                     target="c = tf.matmul(a, a)\n\nd = tf.reshape(c, (7, -1))")
    result = check_notebook(path, engines=("rules", "dryrun"), timeout=120,
                            options={"dryrun": {"budget_s": 30}})
    verdict = result.verdict
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "InvalidArgumentError", 3), \
        verdict
    assert any("ran in the replay kernel" in e for e in verdict.evidence)
