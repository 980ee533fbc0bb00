"""Write the multi-drift old notebooks of this folder, with the outputs they saved.

Each notebook is given twice, cell by cell: the code as it was written (2017-2021), and,
where today's libraries need it, the same computation written for them with every old
behaviour spelled out (the old defaults, the replacement of a removed API). The second
form is run once in a fresh kernel and its outputs are stored under the first form: they
are what the old notebook printed under the libraries it was written for, as far as the
spelled-out form is faithful. Cells whose drift has no faithful spelling today keep outputs
written by hand from the old library's documented behaviour (``SAVED``).

    .venv/bin/python benchmarks/modernize_corpus/multidrift/build.py

The loop never reads this file: it sees only the notebooks.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat
import nbpatch

HERE = Path(__file__).resolve().parent
SAME = None  # the cell runs unchanged today

from specs import NOTEBOOKS  # noqa: E402  (the notebooks' cells, beside this file)


def _old_notebook(title: str, cells: list[tuple[str, str | None]], outputs: list) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python", "version": "3.7.6"}
    nb.cells.append(nbformat.v4.new_markdown_cell(title))
    nb.cells[0].id = "title"
    for k, ((old, _new), outs) in enumerate(zip(cells, outputs)):
        cell = nbformat.v4.new_code_cell(old)
        cell.id = f"c{k + 1}"
        cell.execution_count = k + 1
        cell.outputs = outs
        for o in cell.outputs:
            if o.get("output_type") == "execute_result":
                o["execution_count"] = k + 1
        nb.cells.append(cell)
    return nb


def build(name: str, title: str, cells: list[tuple[str, str | None]]) -> Path:
    ref = nbformat.v4.new_notebook()
    ref.cells = [nbformat.v4.new_code_cell(new if new is not None else old) for old, new in cells]
    with tempfile.TemporaryDirectory() as tmp:
        run = nbpatch.run_notebook(ref, cwd=tmp, timeout=120)
    bad = [c for c in run.cells if c.status != "ok"]
    if bad:
        raise SystemExit(f"{name}: the reference form fails in cell {bad[0].index + 1}: "
                         f"{bad[0].ename}: {bad[0].evalue}")
    outputs = [[o for o in c.outputs if not (o.get("output_type") == "stream"
                                             and o.get("name") == "stderr")]
               for c in run.notebook.cells]
    path = HERE / f"{name}.ipynb"
    nbformat.write(_old_notebook(title, cells, outputs), path)
    return path


def main(names: list[str]) -> None:
    for name, title, cells in NOTEBOOKS:
        if not names or name in names:
            print(build(name, title, cells))


if __name__ == "__main__":
    main(sys.argv[1:])
