"""Where a notebook's modernization writes: everything below its own output folder.

    <out>/work/                 copy of the notebook's folder: the kernel's working directory
    <out>/rounds/round-NN.ipynb the notebook as run in round NN, with that run's outputs
    <out>/rounds/round-NN.patch.json   the repair made after round NN (nbpatch JSON)
    <out>/rounds/round-NN.llm.json     the prompts and replies of that repair, if an LLM's
    <out>/trajectory.jsonl      one line per round (classification, error, score, time, tokens, cost)
    <out>/<name>.ipynb          the final notebook
    <out>/report.json           the ModernizeResult
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import nbpatch
from nbdeps import replace_file

from benchkit.errors import BenchkitError, CaseError

from ._model import ModernizeResult, Round, round_to_dict

__all__ = ["Trajectory", "copy_inputs", "COPY_LIMIT_BYTES"]

# a notebook folder larger than this is refused rather than copied for every notebook
COPY_LIMIT_BYTES = 1024 * 2**20


def _ignore(out_dir: Path):
    out = out_dir.resolve()

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = {n for n in names if n.startswith(".") or n.endswith(".ipynb")
                   or n == "__pycache__"}
        skipped |= {n for n in names if (Path(folder) / n).resolve() == out}
        return skipped
    return ignore


def copy_inputs(notebook: Path, out_dir: Path) -> Path:
    """Copy the notebook's folder (data files, helper modules; no notebooks, no hidden
    files, not ``out_dir`` itself) to ``out_dir/work`` and return that folder."""
    source = notebook.resolve().parent
    ignore = _ignore(out_dir)
    total = 0
    for root, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if d not in ignore(root, dirs)]
        for name in set(files) - ignore(root, files):
            path = Path(root) / name
            if path.is_file():
                total += path.stat().st_size
        if total > COPY_LIMIT_BYTES:
            raise CaseError(f"{notebook}: its folder holds over {COPY_LIMIT_BYTES >> 20} MiB; "
                            "move the notebook and its data to a folder of their own")
    work = out_dir / "work"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(source, work, ignore=ignore, symlinks=True)
    return work


class Trajectory:
    """Writes one notebook's rounds as they happen, so an interrupted run keeps them."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.rounds_dir = out_dir / "rounds"
        self.rounds_dir.mkdir(parents=True, exist_ok=True)
        self.log = out_dir / "trajectory.jsonl"
        self.log.write_text("", encoding="utf-8")

    def notebook(self, number: int, nb: Any) -> str:
        path = self.rounds_dir / f"round-{number:02d}.ipynb"
        nbpatch.write_notebook(nb, path)
        return str(path.relative_to(self.out_dir))

    def patch(self, number: int, patch: nbpatch.Patch) -> str:
        path = self.rounds_dir / f"round-{number:02d}.patch.json"
        path.write_text(patch.to_json() + "\n", encoding="utf-8")
        return str(path.relative_to(self.out_dir))

    def transcript(self, number: int, entries: list[dict[str, Any]]) -> None:
        path = self.rounds_dir / f"round-{number:02d}.llm.json"
        path.write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")

    def add(self, round_: Round) -> None:
        record = round_to_dict(round_)
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")

    def finish(self, result: ModernizeResult) -> None:
        replace_file(self.out_dir / "report.json",
                     (json.dumps(result.to_dict(), indent=1) + "\n").encode("utf-8"),
                     error=BenchkitError)
