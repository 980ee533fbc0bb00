"""The oracle: notebooks used the way people use them, in a real kernel, and the truth
about them decided by running them again.

A simulated user writes cells, runs them in a real IPython kernel (mostly top down, some
out of order, re-runs), edits cells after running them, clears outputs, copies cells,
deletes cells and restarts the kernel. The notebook is saved as Jupyter saves it: each
code cell with its last execution count and outputs (one in five as Colab saves it: count
0 for a cell that ran without output). The truth comes from Restart & Run
All: the cells run top to bottom in a fresh kernel namespace, stopping at the first
error. A cell is *judged* when that run reached it; a judged cell is *bad* when it failed
there (`fails`) or when its saved outputs differ from the fresh ones (`differs`).

Scoring (per code): a warning/error finding on a judged cell is a true positive when
the cell's saved outputs differ, or when it fails with the error the finding predicts (a
SyntaxError for ND001, a NameError for the name codes, any other error for ND402); recall is
the share of failing cells that carry a warning/error finding. A cell that does not
compile changes nothing, so the re-run goes on past a SyntaxError; it stops at the first
other error.

`simulate(..., real=True)` also writes what hand-made and documentation notebooks hold
(issue 24): cells that do not parse (a pdb cheat sheet, a pasted prompt, a shell line, a
broken `def`), shell escapes and automagics, an extension's magic used through automagic
(`stamp -v` after `%load_ext stamp`), star imports and `%run` of modules the kernel has
but nbdeps cannot read (they sit on the kernel's path, not beside the notebook), helpers
whose branches read different globals, markdown cells, notebooks never run, and Python 2
notebooks saved without language metadata in nbformat 3 (the kernel runs the Python 3
twin of each Python 2 cell, which prints the same).

The kernel is one real IPython kernel (jupyter_client) reused for every notebook: a
restart is `get_ipython().reset(new_session=True)`, which empties the namespace, starts
the execution count at 1 and opens a new session in the history database, as a restart
does for code that changes no module state (the only code generated here). IPython's
history is kept in a real `history.sqlite`, so `nbdeps check --history` can be scored too.

Used by test_oracle.py (a hypothesis property and a seeded sample) and by
benchmarks/bench_nbdeps.py (the figure in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

TIMEOUT = 30
SERIOUS = ("warning", "error")

# Cell templates over a few names. Values are chosen so that a destructive operation
# fails exactly when it runs twice on one object (`xs` never gets 3 back, `d` never
# gets 'k' back, `set_index('day')` needs the column back from `reset_index`), which is
# what nbdeps claims; everything else is deterministic.
TEMPLATES = (
    "a = {n}",
    "b = a + {n}",
    "c = b * 2",
    "xs = [1, 2, 3]",
    "xs.append({n} * 10)",
    "xs.remove(3)",
    "d = {{'k': 1, 'j': 2}}",
    "d.pop('k')",
    "del a",
    "a += 1",
    "print(b)",
    "xs",
    "print(len(xs), c)",
    "def f(v):\n    return v + a",
    "f(1)",
    "import math\nr = math.sqrt({n})",
    "print(r, a)",
    "total = sum(xs) + a",
    "total",
    "e = c + total",
    "from math import *\nq = sqrt({n}) + pi",
    "print(q)",
    "import pandas as pd",
    "df = pd.DataFrame({{'day': [1, 2, 3], 'v': [{n}, 5, 6]}})",
    "df.set_index('day', inplace=True)",
    "df.reset_index(inplace=True)",
    "df['w'] = df['v'] * {n}",
    "df.dtypes",
    "df.shape",
)

# What real notebooks hold besides (issue 24). Each is deterministic in the oracle's kernel.
# Cells that do not parse: about one cell in twelve of a "real" notebook.
BROKEN_TEMPLATES = (
    "p[rint] expr   print the value of an expression\nc[ontinue]     continue execution",  # pdb notes
    "Now summarise the frame df and plot the first {n} rows",  # a pasted prompt
    "git clone https://example.org/repo.git",  # a shell line without `!`
    "shown = total * {n}\nplot the total against the day",  # code, then prose: the cell never runs
    "def scaled(v):\n    factor = v * {n}\n    return factor +\n",  # a broken def
)
REAL_TEMPLATES = (
    "print(factor)",
    "!echo step {n}",
    "pwd",
    "%load_ext stamp",
    "stamp -v",
    "from oracle_helpers import *",
    "h = helper_scale({n})",
    "print(HELPER_LIMIT)",
    "%run setup_vars.py",
    "print(RUN_SEED + {n})",
    "def model(v, init='zeros'):\n    if init == 'he':\n        return he_init(v)\n    return v * 0",
    "m = model({n}, init='zeros')",
    "m2 = model({n}, init='he')",
    "def he_init(v):\n    return v * 2",
)
# (Python 2 source, its Python 3 twin that prints the same)
PY2_TEMPLATES = (
    ('print "total", {n}', 'print("total", {n})'),
    ("for i in xrange({n}):\n    print i", "for i in range({n}):\n    print(i)"),
    ('label = "run"\nprint label', 'label = "run"\nprint(label)'),
    ("print a", "print(a)"),
    ("print b, c", "print(b, c)"),
)
# Names that an extension's magic, an unreadable star import or `%run` provide: the writer
# of a cell does not wait for them (people read them anywhere, above the source or below)
_FROM_ELSEWHERE = frozenset({"stamp", "v", "HELPER_LIMIT", "helper_scale", "RUN_SEED"})
_SYNTAX = ("SyntaxError", "IndentationError", "TabError")
_NAME = ("NameError", "UnboundLocalError")
# the error each code predicts in the re-run (None: any error but these two)
_PREDICTS = {"ND001": _SYNTAX, "ND402": None}
_HELPERS = {
    "oracle_helpers.py": "HELPER_LIMIT = 3\n\ndef helper_scale(v):\n    return v * HELPER_LIMIT\n",
    "stamp.py": ("def load_ipython_extension(ip):\n"
                 "    ip.register_magic_function(lambda line: print('stamp', line.strip()), 'line', 'stamp')\n"),
}


class Kernel:
    """One real IPython kernel, with its history in `folder/history.sqlite`."""

    def __init__(self, folder: Path) -> None:
        from jupyter_client import KernelManager

        self.history_file = folder / "history.sqlite"
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(extra_arguments=[f"--HistoryManager.hist_file={self.history_file}"])
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        # modules the kernel can import but nbdeps cannot read (not beside the notebook, not
        # installed), and a working folder holding a script for `%run`
        lib, cwd = folder / "kernel_lib", folder / "kernel_cwd"
        lib.mkdir(exist_ok=True)
        cwd.mkdir(exist_ok=True)
        for name, text in _HELPERS.items():
            (lib / name).write_text(text)
        (cwd / "setup_vars.py").write_text("RUN_SEED = 7\n")
        self.run(f"import os, sys; sys.path.insert(0, {str(lib)!r}); os.chdir({str(cwd)!r})", store=False)

    def run(self, source: str, store: bool = True) -> tuple[int | None, list[dict]]:
        """Execute `source`; return the execution count and the outputs as nbformat dicts."""
        msg_id = self.client.execute(source, store_history=store, allow_stdin=False)
        outputs: list[dict] = []
        while True:
            msg = self.client.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status" and content["execution_state"] == "idle":
                break
            if kind == "stream":
                outputs.append({"output_type": "stream", "name": content["name"], "text": content["text"]})
            elif kind in ("execute_result", "display_data"):
                out = {"output_type": kind, "data": content["data"], "metadata": {}}
                if kind == "execute_result":
                    out["execution_count"] = content["execution_count"]
                outputs.append(out)
            elif kind == "error":
                outputs.append({"output_type": "error", "ename": content["ename"],
                                "evalue": content["evalue"], "traceback": []})
        reply = self.client.get_shell_msg(timeout=TIMEOUT)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.client.get_shell_msg(timeout=TIMEOUT)
        return (reply["content"].get("execution_count") if store else None), outputs

    def restart(self) -> int:
        """A fresh namespace, counts from 1, a new history session; returns its number.
        An extension's magic is unregistered too, as a new kernel process would not have it."""
        self.run("get_ipython().reset(new_session=True)\n"
                 "get_ipython().magics_manager.magics['line'].pop('stamp', None)\n"
                 "get_ipython().extension_manager.loaded.discard('stamp')", store=False)
        _, out = self.run("print(get_ipython().history_manager.session_number)", store=False)
        return int(out[0]["text"])

    def save_history(self, sessions: range, target: Path) -> Path:
        """Copy the given sessions of the kernel's history database to `target`."""
        self.run("get_ipython().history_manager.writeout_cache()", store=False)
        shutil.copyfile(self.history_file, target)
        con = sqlite3.connect(target)
        with con:
            con.execute(f"DELETE FROM history WHERE session NOT BETWEEN {sessions.start} AND {sessions.stop - 1}")
            con.execute(f"DELETE FROM sessions WHERE session NOT BETWEEN {sessions.start} AND {sessions.stop - 1}")
        con.close()
        return target

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)

    def __enter__(self) -> Kernel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class _Cell:
    source: str
    id: str
    count: int | None = None
    outputs: list = field(default_factory=list)
    runs: str | None = None  # what the kernel runs, when not `source` (a Python 2 cell's twin)
    kind: str = "code"

    @property
    def code(self) -> str:
        return self.source if self.runs is None else self.runs


@lru_cache(maxsize=None)
def _names(source: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    import nbdeps

    info = nbdeps.analyze_cell(source)
    return info.used_names - {"print", "len", "sum"} - _FROM_ELSEWHERE, info.defines, info.deletes


def _source(rng: random.Random, defined: set[str] | None = None, style: str = "plain") -> str:
    """A cell; with `defined`, one that reads only those names (mostly: people also
    write cells that read what is not there yet). `style` "real" mixes in what real
    notebooks hold; "python2" writes Python 2 cells (returned as `py2\0py3` pairs)."""
    if style == "python2" and rng.random() < 0.4:
        py2, py3 = rng.choice(PY2_TEMPLATES)
        n = rng.randint(1, 9)
        return f"{py2.format(n=n)}\0{py3.format(n=n)}"
    pool = TEMPLATES
    if style == "real":
        roll = rng.random()
        pool = BROKEN_TEMPLATES if roll < 0.08 else REAL_TEMPLATES if roll < 0.4 else TEMPLATES
    options = pool
    if defined is not None and rng.random() < 0.9:
        options = [t for t in pool if _names(t.format(n=1))[0] <= defined] or list(pool)
    return rng.choice(options).format(n=rng.randint(1, 9))


def _new_cell(rng: random.Random, cells: list[_Cell], k: int, cell_id: str, style: str) -> _Cell:
    text = _source(rng, _above(cells, k), style)
    if "\0" in text:
        py2, py3 = text.split("\0")
        return _Cell(py2, cell_id, runs=py3)
    return _Cell(text, cell_id)


def _above(cells: list[_Cell], k: int) -> set[str]:
    defined: set[str] = set()
    for cell in cells[:k]:
        if cell.kind != "code":
            continue
        _, defines, deletes = _names(cell.code)
        defined = (defined | defines) - (deletes - defines)
    return defined


def simulate(rng: random.Random, kernel: Kernel, history_to: Path | None = None, real: bool = False) -> dict:
    """Use a notebook in `kernel` as a person does and return it as Jupyter saves it.

    With `real`, the notebook is one of three kinds: a working session mixing in what real
    notebooks hold (REAL_TEMPLATES), a documentation notebook (markdown between the code,
    never run), or a Python 2 notebook (saved without language metadata, as nbformat 3
    notebooks are; `to_file` writes it in nbformat 3)."""
    kind = "session"
    if real:
        kind = rng.choices(("session", "docs", "python2"), weights=(55, 25, 20))[0]
    style = {"session": "real" if real else "plain", "docs": "real", "python2": "python2"}[kind]
    first_session = kernel.restart()
    ids = iter(range(10_000))
    cells: list[_Cell] = []
    for _ in range(rng.randint(5, 9)):  # written top down, each reading what is above
        cells.append(_new_cell(rng, cells, len(cells), f"c{next(ids)}", style))
    cursor = 0  # the next cell when running top down
    steps = 0 if kind == "docs" else rng.randint(len(cells), 3 * len(cells))  # docs: never run
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.60 or not cells:
            if not cells:
                cells.append(_new_cell(rng, [], 0, f"c{next(ids)}", style))
            if rng.random() < 0.8:
                target = cursor % len(cells)  # top down
            else:
                target = rng.randrange(len(cells))  # out of order, or a re-run
            cell = cells[target]
            cell.count, cell.outputs = kernel.run(cell.code)
            cursor = target + 1
        elif roll < 0.72:
            k = rng.randrange(len(cells))
            edited = _new_cell(rng, cells, k, cells[k].id, style)  # edited after running, not re-run
            cells[k].source, cells[k].runs = edited.source, edited.runs
        elif roll < 0.81:
            k = rng.randrange(len(cells) + 1)
            cells.insert(k, _new_cell(rng, cells, k, f"c{next(ids)}", style))
        elif roll < 0.85:
            cells.pop(rng.randrange(len(cells)))
        elif roll < 0.91:
            cell = rng.choice(cells)
            cell.count, cell.outputs = None, []  # Clear Output
        elif roll < 0.96:
            k = rng.randrange(len(cells))
            copy = cells[k]
            cells.insert(k + 1, _Cell(copy.source, f"c{next(ids)}", copy.count, list(copy.outputs), copy.runs))
        else:
            kernel.restart()
            cursor = 0
    last_session = kernel.restart() - 1  # leave the user's sessions closed
    if history_to is not None:
        kernel.save_history(range(first_session, last_session + 1), history_to)
    if kind == "session" and rng.random() < 0.2:  # saved by Colab: a cell that ran without output has count 0
        for cell in cells:
            if cell.count is not None and not cell.outputs:
                cell.count = 0
    if kind == "docs":
        cells = _with_markdown(rng, cells, ids)
    return _saved(rng, cells, kind)


def _with_markdown(rng: random.Random, cells: list[_Cell], ids) -> list[_Cell]:
    out: list[_Cell] = []
    for cell in cells:
        if rng.random() < 0.4:
            out.append(_Cell(f"## Step {len(out)}\nWhat the next cell does.", f"m{next(ids)}", kind="markdown"))
        out.append(cell)
    return out


def _saved(rng: random.Random, cells: list[_Cell], kind: str) -> dict:
    """The notebook as Jupyter saves it; the code the kernel ran for each cell is kept in
    `twins` (cell index -> Python 3 code) when it differs from the source."""
    if kind == "python2":
        metadata: dict = {}  # an nbformat 3 notebook of the Python 2 days: no language saved
    else:
        metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                    "language_info": {"name": "python"}}
    saved = []
    for c in cells:
        if c.kind == "markdown":
            saved.append({"cell_type": "markdown", "id": c.id, "metadata": {}, "source": c.source})
        else:
            saved.append({"cell_type": "code", "id": c.id, "metadata": {}, "source": c.source,
                          "execution_count": c.count, "outputs": c.outputs})
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": metadata, "cells": saved}
    twins = {i: c.runs for i, c in enumerate(cells) if c.runs is not None}
    if twins:
        nb["metadata"] = dict(metadata, oracle_twins={str(i): code for i, code in twins.items()})
    return nb


def to_file(nb: dict, path: Path) -> Path:
    """Write the notebook as its user's Jupyter would: a Python 2 notebook (one with twins)
    in nbformat 3, without the oracle's own metadata; any other in nbformat 4."""
    data = json.loads(json.dumps(nb))
    twins = data["metadata"].pop("oracle_twins", None)
    if twins:
        import nbformat

        node = nbformat.from_dict(data)
        path.write_text(nbformat.writes(nbformat.convert(node, 3), version=3))
    else:
        path.write_text(json.dumps(data, indent=1))
    return path


@dataclass(frozen=True)
class Truth:
    """What Restart & Run All says about each code cell (by notebook index)."""

    judged: frozenset[int]
    fails: frozenset[int]
    differs: frozenset[int]
    errors: dict = field(default_factory=dict)  # failing cell -> the exception's name

    def confirms(self, code: str, index: int) -> bool:
        """The re-run bears the finding out: its outputs differ, or it fails as predicted."""
        if index in self.differs:
            return True
        if index not in self.fails:
            return False
        error = self.errors.get(index, "")
        expected = _PREDICTS.get(code, _NAME)
        if expected is None:
            return error not in _SYNTAX + _NAME
        return error in expected

    @property
    def bad(self) -> frozenset[int]:
        return self.fails | self.differs


def _shown(outputs: list[dict]) -> list[tuple]:
    seen = []
    for out in outputs:
        kind = out["output_type"]
        if kind == "stream":
            seen.append(("stream", out["text"]))
        elif kind == "error":
            seen.append(("error", out["ename"]))
        else:
            seen.append(("data", out["data"].get("text/plain")))
    return seen


def truth(nb: dict, kernel: Kernel) -> Truth:
    """Run the code cells top to bottom in a fresh namespace, stopping at the first error
    other than a SyntaxError (a cell that does not compile changes nothing)."""
    kernel.restart()
    twins = nb["metadata"].get("oracle_twins", {})
    judged, fails, differs, errors = set(), set(), set(), {}
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        judged.add(index)
        _, outputs = kernel.run(twins.get(str(index), cell["source"]), store=False)
        fresh = _shown(outputs)
        saved = _shown(cell["outputs"])
        if cell["execution_count"] is not None and saved != fresh:
            differs.add(index)
        failed = [name for kind, name in fresh if kind == "error"]
        if failed:
            fails.add(index)
            errors[index] = failed[0]
            if failed[0] not in _SYNTAX:
                break
    return Truth(judged=frozenset(judged), fails=frozenset(fails), differs=frozenset(differs), errors=errors)


@dataclass
class Score:
    """True and false positives per code, and the failures found or missed."""

    tp: Counter = field(default_factory=Counter)
    fp: Counter = field(default_factory=Counter)
    found: int = 0  # failing cells with a warning/error finding
    missed: int = 0  # failing cells without one
    misses: list = field(default_factory=list)  # (notebook, cell) of the misses, to read
    false: list = field(default_factory=list)  # (notebook, finding) of false positives
    notebooks: int = 0
    unjudged: int = 0  # warning/error findings below the first failure: not scored
    # cells that run but whose saved outputs differ: flagged at warning/error, at info only, not
    stale: Counter = field(default_factory=Counter)
    # failing cells per error the re-run raised, and per (error, code) those a finding of
    # that code predicted rightly: recall per code
    failures: Counter = field(default_factory=Counter)
    caught: Counter = field(default_factory=Counter)

    def add(self, nb: dict, verdict: Truth, findings, label: str = "") -> None:
        self.notebooks += 1
        flagged = set()
        for f in findings:
            if f.severity not in SERIOUS or f.cell_index is None:
                continue
            if f.cell_index not in verdict.judged:
                self.unjudged += 1
                continue
            flagged.add(f.cell_index)
            if verdict.confirms(f.code, f.cell_index):
                self.tp[f.code] += 1
            else:
                self.fp[f.code] += 1
                self.false.append((label, f))
        noted = {f.cell_index for f in findings if f.cell_index is not None}
        for index in verdict.differs - verdict.fails:
            self.stale["warning/error" if index in flagged else "info" if index in noted else "none"] += 1
        for index in verdict.fails:
            error = verdict.errors.get(index, "?")
            self.failures[error] += 1
            codes = {f.code for f in findings if f.cell_index == index and f.severity in SERIOUS
                     and verdict.confirms(f.code, index)}
            for code in codes:
                self.caught[(error, code)] += 1
            if codes:
                self.caught[(error, "")] += 1
            if index in flagged:
                self.found += 1
            else:
                self.missed += 1
                self.misses.append((label, index))

    def merge(self, other: Score) -> None:
        self.tp.update(other.tp)
        self.fp.update(other.fp)
        self.found += other.found
        self.missed += other.missed
        self.misses += other.misses
        self.false += other.false
        self.notebooks += other.notebooks
        self.unjudged += other.unjudged
        self.stale.update(other.stale)
        self.failures.update(other.failures)
        self.caught.update(other.caught)

    @property
    def precision(self) -> float:
        tp, fp = sum(self.tp.values()), sum(self.fp.values())
        return tp / (tp + fp) if tp + fp else 1.0

    @property
    def recall(self) -> float:
        total = self.found + self.missed
        return self.found / total if total else 1.0

    def recall_table(self) -> list[str]:
        """Markdown rows: error of the re-run, failing cells, those a finding predicting that
        error flags (in all, and per code), recall."""
        rows = []
        for error, total in sorted(self.failures.items(), key=lambda kv: -kv[1]):
            per_code = sorted((code, n) for (e, code), n in self.caught.items() if e == error and code)
            caught = self.caught[(error, "")]
            detail = ", ".join(f"{code} {n}" for code, n in per_code) or "-"
            rows.append(f"| {error} | {total} | {caught} ({detail}) | {caught / total:.2f} |")
        return rows

    def table(self) -> list[str]:
        """Markdown rows: code, true positives, false positives, precision."""
        rows = []
        for code in sorted(set(self.tp) | set(self.fp)):
            tp, fp = self.tp[code], self.fp[code]
            rows.append(f"| {code} | {tp} | {fp} | {tp / (tp + fp):.2f} |")
        return rows


def evaluate(seeds, *, history: bool = False, keep: Path | None = None,
             real: bool = False) -> tuple[Score, Score | None]:
    """Simulate, judge and score one notebook per seed in one kernel; with `history`,
    also score `check(..., history=history.sqlite)`. Notebooks are kept in `keep`; `real`
    simulates what real notebooks hold too."""
    import nbdeps

    with tempfile.TemporaryDirectory() as tmp, Kernel(Path(tmp)) as kernel:
        inferred, exact = Score(), (Score() if history else None)
        for seed in seeds:
            db = Path(tmp) / f"h{seed}.sqlite" if history else None
            nb = simulate(random.Random(seed), kernel, db, real=real)
            verdict = truth(nb, kernel)
            folder = keep or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            path = to_file(nb, folder / f"oracle_{seed}.ipynb")  # checked from the file, as a user would
            inferred.add(nb, verdict, nbdeps.check(path), str(seed))
            if exact is not None:
                exact.add(nb, verdict, nbdeps.check(path, history=db), str(seed))
        return inferred, exact
