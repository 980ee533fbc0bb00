"""Golden notebooks: `golden/<name>.ipynb` with the expected findings beside it in
`golden/<name>.expected.json`, and the bundled examples. To accept new results after a
deliberate change, run with NBDEPS_UPDATE_GOLDEN=1 and review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import nbdeps

HERE = Path(__file__).resolve().parent
GOLDEN = sorted((HERE / "golden").glob("*.ipynb")) + sorted(
    (HERE.parents[2] / "examples" / "nbdeps").glob("*.ipynb"))
UPDATE = os.environ.get("NBDEPS_UPDATE_GOLDEN") == "1"


def expected_path(notebook: Path) -> Path:
    return HERE / "golden" / f"{notebook.stem}.expected.json"


@pytest.mark.parametrize("notebook", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_findings(notebook):
    findings = [f.to_dict() for f in nbdeps.check(notebook)]
    result = {
        "findings": findings,
        "runs_top_to_bottom": nbdeps.runs_top_to_bottom(notebook),
        "rerun_order": nbdeps.rerun_order(notebook),
    }
    result = json.loads(json.dumps(result))  # tuples -> lists, as stored
    path = expected_path(notebook)
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"{path.name} missing: run with NBDEPS_UPDATE_GOLDEN=1 and review it")
        path.write_text(json.dumps(result, indent=1) + "\n")
    assert result == json.loads(path.read_text())
