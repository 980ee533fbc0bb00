"""`crashpredict check`: when the fork cannot answer for a reason a live kernel fixes (a
dead thread pool, the budget), the target runs in the disposable, jailed replay kernel
within the dry run's budget; a cell whose side effect the dry run refused never runs."""

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


@pytest.mark.parametrize("target", [
    "import subprocess\n\nsubprocess.run(['false'], check=True)",
    "import subprocess\nout = subprocess.run(['true'], check=True)",
])
def test_a_cell_whose_process_the_dry_run_refused_is_never_run(tmp_path, target):
    # before issue 22 these ran for real in the replay kernel; now a refused effect is
    # reported, never retried
    path = _notebook(tmp_path, "x = 1", target=target)
    before = _tree(tmp_path)
    verdict = check_notebook(path, engines=("rules", "dryrun"), timeout=60).verdict
    assert (verdict.crash, verdict.confidence, verdict.engine) == (None, 0.0, "rules"), verdict
    assert verdict.explanation.startswith("inconclusive: the cell tries a side effect that is "
                                          "refused (subprocess '")
    assert not any("replay kernel" in e for e in verdict.evidence)
    assert _tree(tmp_path) == before


def test_in_place_never_runs_the_target(tmp_path):
    path = _notebook(tmp_path, "x = 1", target="open('made.txt', 'w').write('x')\n"
                                                "import subprocess\nsubprocess.run(['true'])")
    result = check_notebook(path, engines=("rules", "dryrun"), timeout=60, in_place=True)
    assert not any("replay kernel" in e for e in result.verdict.evidence)
    assert result.verdict.crash is None  # the process is refused, and named
    assert not (tmp_path / "made.txt").exists()


def test_static_only_never_runs_the_target(tmp_path):
    path = _notebook(tmp_path, "x = 1", target="import subprocess\nsubprocess.run(['false'], check=True)")
    result = check_notebook(path, engines=("rules",), timeout=60)
    assert result.verdict.engine == "rules"
    assert not any("replay kernel" in e for e in result.verdict.evidence)


@pytest.mark.slow
@pytest.mark.parametrize(("earlier", "target"), [
    ("import tensorflow as tf\na = tf.ones((1500, 1500))\n_ = tf.matmul(a, a)",
     "c = tf.matmul(a, a)\n\nd = tf.reshape(c, (7, -1))"),
    # every convolution goes through oneDNN on the intra-op pool, even a small one
    ("import tensorflow as tf\nconv = tf.keras.layers.Conv2D(4, 3)\n"
     "x = tf.ones((8, 28, 28, 1))\n_ = conv(x)",
     "y = conv(x)\n\nz = tf.reshape(y, (7, -1))"),
], ids=["matmul", "conv2d"])
def test_a_tensorflow_cell_stuck_in_the_fork_is_answered_by_the_replay_kernel(tmp_path, earlier,
                                                                             target):
    pytest.importorskip("tensorflow")
    # TensorFlow's intra-op pool does not survive a fork once the parent used it; a large
    # op or a convolution then cannot finish in the child. The jailed replay kernel has a
    # live pool.
    path = _notebook(tmp_path, earlier, target=target)
    result = check_notebook(path, engines=("rules", "dryrun"), timeout=120,
                            options={"dryrun": {"budget_s": 30}})
    verdict = result.verdict
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "InvalidArgumentError", 3), \
        verdict
    if not any("ran in the jailed replay kernel" in e for e in verdict.evidence):
        # on some CPUs oneDNN runs this op without the intra-op pool (an AMD EPYC here, for
        # the convolution): the fork is not stuck and answers itself, rightly
        assert verdict.engine == "dryrun", verdict
        pytest.skip("the fork was not stuck on this CPU: no replay kernel was needed")
