"""The dependency graph: edges, orders, and hypothesis properties."""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

import nbdeps

NAMES = st.sampled_from(["a", "b", "c", "df", "xs", "model"])
STATEMENTS = st.one_of(
    st.builds("{} = {} + 1".format, NAMES, NAMES),
    st.builds("{} = [{} for _i in range(3)]".format, NAMES, NAMES),
    st.builds("{}.append({})".format, NAMES, NAMES),
    st.builds("{}['k'] = {}".format, NAMES, NAMES),
    st.builds("{} += {}".format, NAMES, NAMES),
    st.builds("del {}".format, NAMES),
    st.builds("import numpy as {}".format, NAMES),
    st.builds("def {}(p):\n    return p + {}".format, NAMES, NAMES),
    st.builds("for {} in {}:\n    pass".format, NAMES, NAMES),
    st.builds("with open({}) as {}:\n    pass".format, NAMES, NAMES),
    st.builds("print({}, {})".format, NAMES, NAMES),
    st.builds("{}.drop(columns='x', inplace=True)".format, NAMES),
    st.builds("%time {} = {}".format, NAMES, NAMES),
    st.builds("lambda q: q + {}".format, NAMES),
    st.just("try:\n    pass\nexcept Exception as err:\n    pass"),
)
CELL_SOURCES = st.lists(STATEMENTS, min_size=1, max_size=4).map("\n".join)
COUNTS = st.one_of(st.none(), st.integers(min_value=1, max_value=12))
NOTEBOOKS = st.lists(st.tuples(CELL_SOURCES, COUNTS), min_size=1, max_size=8)


def test_edges_are_labelled_with_names_from_definer_to_reader():
    graph = nbdeps.build_graph(["import pandas as pd", "df = pd.read_csv(p)", "df['a'] = 1", "print(df.a)"])
    assert [(e.source, e.target, e.names) for e in graph.edges] == [
        (0, 1, ("pd",)), (1, 2, ("df",)), (1, 3, ("df",)), (2, 3, ("df",))]
    assert graph.definitions["df"] == (1,)
    assert graph.uses["df"] == (2, 3)


def test_history_order_follows_counts_of_the_live_session():
    cells = [("x = 1", 2), ("x = 5", 1), ("y = x", 3), ("z = 0", None)]
    graph = nbdeps.build_graph(cells, order="history")
    assert graph.sequence == (1, 0, 2)
    assert [(e.source, e.target) for e in graph.edges] == [(0, 2)]
    assert [(e.source, e.target) for e in nbdeps.build_graph(cells).edges] == [(1, 2)]


def test_graph_is_frozen():
    graph = nbdeps.build_graph(["a = 1"])
    try:
        graph.order = "history"
    except AttributeError:
        pass
    else:
        raise AssertionError("DepGraph must be frozen")
    try:
        graph.infos[0] = None
    except TypeError:
        pass
    else:
        raise AssertionError("DepGraph.infos must be read-only")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_analyze_cell_never_raises_on_any_text(source):
    nbdeps.analyze_cell(source)


@settings(max_examples=60, deadline=None)
@given(CELL_SOURCES)
def test_valid_python_cells_parse_and_never_raise(source):
    info = nbdeps.analyze_cell(source)
    assert info.syntax_error is None
    for ref in info.uses:
        assert ref.line >= 1 and ref.column >= 0


@settings(max_examples=50, deadline=None)
@given(NOTEBOOKS, st.sampled_from(["notebook", "history"]))
def test_edges_only_go_forward_in_the_chosen_order(cells, order):
    graph = nbdeps.build_graph(cells, order=order)
    pos = {index: k for k, index in enumerate(graph.sequence)}
    for edge in graph.edges:
        assert pos[edge.source] < pos[edge.target]
    nbdeps.check(cells)  # and checking never raises


@settings(max_examples=50, deadline=None)
@given(NOTEBOOKS, st.integers(min_value=0, max_value=8), st.sampled_from(["pass", "1 + 1", "'text'", "%lsmagic"]))
def test_adding_a_cell_that_uses_no_names_changes_no_edge(cells, at, quiet):
    at = min(at, len(cells))
    before = nbdeps.build_graph(cells).edges
    after = nbdeps.build_graph(cells[:at] + [(quiet, None)] + cells[at:]).edges
    shift = lambda i: i + 1 if i >= at else i  # noqa: E731
    assert {(shift(e.source), shift(e.target), e.names) for e in before} == {
        (e.source, e.target, e.names) for e in after}


@settings(max_examples=40, deadline=None)
@given(NOTEBOOKS)
def test_rerun_order_binds_every_needed_name_first(cells):
    order = nbdeps.rerun_order(cells)
    if order is None:
        return
    nb = nbdeps.load_notebook(cells)
    bound_somewhere = set().union(*(nbdeps.analyze_cell(c.source).defines for c in nb.cells))
    state: set[str] = set()
    for index in order:
        info = nbdeps.analyze_cell(nb.cells[index].source)
        assert {n for n in info.used_names if n in bound_somewhere} <= state
        state |= info.defines
        state -= info.deletes - info.defines
    assert sorted(order) == [c.index for c in nb.cells]


def test_uses_are_really_free_in_a_plain_python_sense():
    # cross-check with Python's own symtable on a cell without nested scopes
    import symtable

    source = "import os\npath = os.getcwd()\nsize = len(path) + offset\n"
    table = symtable.symtable(source, "<cell>", "exec")
    assigned = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    referenced = {s.get_name() for s in table.get_symbols() if s.is_referenced()}
    info = nbdeps.analyze_cell(source)
    assert info.defines == frozenset(assigned)
    assert info.used_names == referenced - assigned
    ast.parse(source)
