"""Execution-history scenarios, each given as cells (source, execution count) in notebook
position order, with the findings expected (code, cell index) at warning/error level and
the info codes that must (not) appear."""

from __future__ import annotations

import json

import pytest

import nbdeps
from nbdeps._history import history


def serious(cells):
    return sorted((f.code, f.cell_index) for f in nbdeps.check(cells) if f.severity != "info")


def codes(cells):
    return {(f.code, f.cell_index) for f in nbdeps.check(cells)}


# (id, cells, expected error/warning findings)
SCENARIOS = [
    ("clean", [("x = 1", 1), ("y = x", 2)], []),
    ("never-defined", [("import pandas as pd", 1), ("model.fit(X, y)", 2)],
     [("ND101", 1), ("ND101", 1), ("ND101", 1)]),
    ("defined-below-ran-first", [("print(t)", 2), ("t = 1", 1)], [("ND201", 0)]),
    ("definer-reran-after-user", [("x = 1", 3), ("print(x)", 2)], []),
    ("definer-never-ran", [("x = 1", None), ("print(x)", 1)], [("ND104", 1)]),
    ("definer-in-old-session", [("y = 2", 1), ("x = 1", 5), ("print(x)", 2), ("z = y", 3)],
     []),
    ("deleted-then-used", [("x = 1", 1), ("del x", 2), ("print(x)", 3)], [("ND106", 2), ("ND202", 2)]),
    ("only-self-binds-after-read", [("x = x + 1", 1)], [("ND101", 0)]),
    ("star-import-covers", [("from not_installed_anywhere import *", 1), ("print(pi)", 2)], [("ND102", 1)]),
    ("read-above-an-unreadable-star-import", [("print(pi)", 2), ("from not_installed_anywhere import *", 1)],
     [("ND102", 0)]),
    ("star-import-of-an-installed-module-is-read", [("from math import *", 1), ("print(pi, nope)", 2)],
     [("ND101", 1)]),
    ("star-import-names-read-in-the-same-cell", [("from math import *\nr = sqrt(2) + pi", 1)], []),
    ("repeated-drop-inplace",
     [("df = load()", 1), ("df.drop(columns='a', inplace=True)", 2), ("df.drop(columns='a', inplace=True)", 3)],
     [("ND101", 0), ("ND402", 2)]),
    ("drop-after-reload-is-fine",
     [("df = load()", 3), ("df.drop(columns='a', inplace=True)", 4), ("df = load()", 5),
      ("df.drop(columns='a', inplace=True)", 6)],
     [("ND101", 0)]),
    ("rebinding-drop-twice",
     [("df = make()", 1), ("df = df.drop(columns='a')", 2), ("df = df.drop(columns='a')", 3)],
     [("ND101", 0), ("ND402", 2)]),
    ("unexecuted-notebook-top-to-bottom", [("print(u)", None), ("u = 1", None)], [("ND201", 0)]),
]


@pytest.mark.parametrize(("cells", "expected"), [s[1:] for s in SCENARIOS], ids=[s[0] for s in SCENARIOS])
def test_history_scenarios(cells, expected):
    assert serious(cells) == sorted(expected)


def test_definer_rerun_after_user_is_info_not_error():
    findings = nbdeps.check([("import pandas as pd", 7), ("df = pd.DataFrame()", 2), ("df.head()", 3)])
    assert [(f.code, f.severity, f.cell_index) for f in findings if f.code == "ND103"] == [("ND103", "info", 1)]
    assert all(f.severity == "info" for f in findings)


def test_stale_cell_and_downstream():
    cells = [("x = 1", 1), ("x = 2", 4), ("y = x * 10", 2), ("z = y + 1", 3)]
    found = codes(cells)
    assert ("ND301", 2) in found and ("ND302", 3) in found


def test_count_anomalies():
    cells = [("a = 1", 1), ("b = 2", None), ("c = a", 4), ("d = 1", 1), ("e = 2", 4)]
    found = codes(cells)
    assert ("ND501", 1) in found
    assert ("ND503", None) in found


def test_skipped_counts_and_out_of_order():
    found = codes([("a = 1", 1), ("b = a", 5), ("c = b", 3)])
    assert ("ND502", 2) in found and ("ND504", 1) in found


def test_sessions_split_on_repeated_counts_and_live_is_lowest_reaching():
    nb = nbdeps.load_notebook([("a = 1", 1), ("b = 2", 2), ("c = 3", 3), ("d = 1", 1), ("e = 2", 2)])
    h = history(nb)
    assert [[c.index for c in s] for s in h.sessions] == [[0, 1, 2], [3, 4]]
    assert [c.index for c in h.live] == [3, 4]


def test_name_from_earlier_session_only_is_a_warning():
    cells = [("k = 1", 1), ("m = 2", 2), ("x = 0", 1), ("print(k)", 2)]
    found = nbdeps.check(cells)
    assert [(f.code, f.cell_index) for f in found if f.code == "ND105"] == [("ND105", 3)]


def test_select_and_ignore_filter_by_prefix():
    cells = [("print(q)", 1), ("del z", 2)]
    assert {f.code for f in nbdeps.check(cells, select=["ND1"])} == {"ND101"}
    assert "ND101" not in {f.code for f in nbdeps.check(cells, ignore=["ND101"])}


def test_runs_top_to_bottom_and_rerun_order():
    cells = [("print(t)", 2), ("t = 1", 1)]
    assert nbdeps.runs_top_to_bottom(cells) is False
    assert nbdeps.rerun_order(cells) == (1, 0)
    assert nbdeps.runs_top_to_bottom([("t = 1", 1), ("print(t)", 2)]) is True
    assert nbdeps.rerun_order([("x = x + 1", 1)]) is None


def test_rerun_order_puts_a_deleting_cell_after_the_readers():
    assert nbdeps.rerun_order([("x = 1", 1), ("del x", 2), ("print(x)", 3)]) == (0, 2, 1)


def test_affected_by_follows_edges_transitively():
    cells = ["a = 1", "b = a", "c = b", "d = 5", "e = d + c"]
    assert nbdeps.affected_by(cells, 0) == (1, 2, 4)
    assert nbdeps.affected_by(cells, 3) == (4,)
    with pytest.raises(nbdeps.CellIndexError):
        nbdeps.affected_by(cells, 9)


def test_history_database_written_with_ipythons_schema(tmp_path):
    """A history.sqlite laid out as IPython writes it (sessions, history with source and
    source_raw), including a run of a cell edited since and rows of another notebook."""
    import sqlite3

    db = tmp_path / "history.sqlite"
    con = sqlite3.connect(db)
    con.executescript(
        "CREATE TABLE sessions (session integer primary key autoincrement, start timestamp, end timestamp, "
        "num_cmds integer, remark text);"
        "CREATE TABLE history (session integer, line integer, source text, source_raw text, "
        "PRIMARY KEY (session, line));")
    runs = {1: ["import os", "unrelated = 1"], 2: ["x = 1", "old_name = 5", "y = x + old_name", "del x"],
            3: ["z = y", "print(x)"]}
    for session, sources in runs.items():
        con.execute("INSERT INTO sessions VALUES (?, '2026-01-01', NULL, NULL, '')", (session,))
        for line, source in enumerate(sources, 1):
            con.execute("INSERT INTO history VALUES (?, ?, ?, ?)", (session, line, source, source))
    con.execute("INSERT INTO history VALUES ('two', 'x', NULL, 5)")  # junk another tool wrote
    con.commit()
    con.close()
    # cell 1 held `old_name = 5` when it ran; it was edited since and not re-run
    cells = [("x = 1", 1), ("new_name = 5", 2), ("y = x + old_name", 3), ("del x", 4), ("z = y", 1),
             ("print(x)", 2)]
    nb = nbdeps.load_notebook(cells)
    findings = {(f.code, f.cell_index) for f in nbdeps.check(nb, history=db) if f.severity != "info"}
    # the live session is session 3 (z = y, print(x)): y and x were bound only in session 2
    assert ("ND105", 4) in findings and ("ND105", 5) in findings
    # old_name: bound in no cell (ND101), but the run of the edited cell bound it in session 2
    assert ("ND101", 2) in findings
    from nbdeps._historydb import read_history

    hist = read_history(db, nb)
    assert [[c.index for c in s] for s in hist.sessions] == [[0, -1, 2, 3], [4, 5]]
    assert hist.exact
    assert nbdeps.build_graph(nb, "history", history=db).sequence == (4, 5)
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": src, "execution_count": n, "outputs": []}
        for src, n in cells]}))
    from nbdeps.cli import main

    assert main(["graph", str(path), "--order", "history", "--history", str(db), "-o", str(tmp_path / "g.json")]) == 0
    assert json.loads((tmp_path / "g.json").read_text())["sequence"] == [4, 5]
