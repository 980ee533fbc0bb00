"""The def-use graph in notebook or history order, and the questions it answers."""

from __future__ import annotations

import os
from collections import defaultdict, deque
from types import MappingProxyType

from ._cellinfo import cell_infos, is_python2
from ._history import history as history_of
from ._historydb import read_history
from ._load import NotebookSource, load_notebook
from ._model import CellInfo, DepGraph, Edge, Notebook
from ._names import defined_by_kernel
from .errors import CellIndexError

__all__ = ["affected_by", "build_graph", "rerun_order"]


def build_graph(src: NotebookSource, order: str = "notebook", *,
                history: str | os.PathLike[str] | None = None) -> DepGraph:
    """Build the frozen def-use graph of a notebook's code cells.

    Args:
        src: anything `load_notebook` reads.
        order: "notebook" (top to bottom, as Restart & Run All runs it) or "history"
            (the live kernel session's cells by execution count).
        history: for order="history", IPython's `history.sqlite`: the live session's
            cells in the order of their last recorded runs instead of by count.

    Returns:
        A `DepGraph` whose edges go from the cell that last bound (or mutated) a name
        before a reader to that reader, labelled with the names; `backward_edges` go
        from the first cell later in the order that binds a name to a reader that finds
        it bound nowhere before (a definer below, in notebook order).

    Raises:
        NotebookError: unreadable input. ValueError: an unknown order.
    """
    nb = load_notebook(src)
    if order not in ("notebook", "history"):
        raise ValueError(f"order must be 'notebook' or 'history', not {order!r}")
    infos = cell_infos(nb)
    if order == "notebook":
        sequence = tuple(c.index for c in nb.cells if c.kind == "code")
    else:
        live = (read_history(history, nb) if history is not None else history_of(nb)).live
        last = {c.index: k for k, c in enumerate(live) if c.index >= 0}
        sequence = tuple(sorted(last, key=last.get))
    return _graph(nb, order, sequence, infos)


def _graph(nb: Notebook, order: str, sequence: tuple[int, ...], infos: dict[int, CellInfo]) -> DepGraph:
    providers: dict[str, list[int]] = {}
    labels: dict[tuple[int, int], set[str]] = defaultdict(set)
    upward: dict[tuple[int, int], set[str]] = defaultdict(set)
    later = _later_definers(sequence, infos)
    definitions: dict[str, list[int]] = defaultdict(list)
    uses: dict[str, list[int]] = defaultdict(list)
    pos_of = {index: k for k, index in enumerate(sequence)}
    for index in sequence:
        info = infos[index]
        for name in info.used_names:
            uses[name].append(index)
            for source in providers.get(name, ()):
                if source != index:
                    labels[(source, index)].add(name)
            if not providers.get(name) and not defined_by_kernel(name, nb.predefined, nb.is_python2):
                definer = next((d for d in later.get(name, ()) if d[0] > pos_of[index]), None)
                if definer is not None:
                    upward[(definer[1], index)].add(name)
        for name in info.defines:
            definitions[name].append(index)
            providers[name] = [index]
        for name in info.mutated_names - info.defines:
            chain = providers.setdefault(name, [])
            if index not in chain:
                chain.append(index)
        for name in info.deletes - info.defines:
            providers.pop(name, None)
    pos = pos_of
    backward = tuple(
        Edge(source=s, target=t, names=tuple(sorted(names)))
        for (s, t), names in sorted(upward.items(), key=lambda kv: (pos[kv[0][1]], pos[kv[0][0]]))
    )
    edges = tuple(
        Edge(source=s, target=t, names=tuple(sorted(names)))
        for (s, t), names in sorted(labels.items(), key=lambda kv: (pos[kv[0][1]], pos[kv[0][0]]))
    )
    hazards = frozenset(i for i in sequence if infos[i].non_idempotent or infos[i].syntax_error)
    return DepGraph(
        notebook=nb,
        order=order,  # type: ignore[arg-type]
        sequence=sequence,
        infos=MappingProxyType({i: infos[i] for i in sequence}),
        edges=edges,
        backward_edges=backward,
        hazards=hazards,
        definitions=MappingProxyType({k: tuple(v) for k, v in definitions.items()}),
        uses=MappingProxyType({k: tuple(v) for k, v in uses.items()}),
    )


def _later_definers(sequence: tuple[int, ...], infos: dict[int, CellInfo]) -> dict[str, list[tuple[int, int]]]:
    """name -> [(position in sequence, cell index)] of the cells binding it."""
    found: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for k, index in enumerate(sequence):
        for name in infos[index].defines:
            found[name].append((k, index))
    return found


def rerun_order(src: NotebookSource) -> tuple[int, ...] | None:
    """A run order of all code cells in which every read name is bound first, or None.

    Cells keep notebook order wherever that works: each step runs the first remaining
    cell whose inputs are all bound (a cell deleting a name that others still read
    waits). None when some name is read but bound by no other cell (and no cell has an
    `import *` or `%run` that might bind it), or when the reads form a cycle.
    """
    nb = load_notebook(src)
    infos = cell_infos(nb)
    python2 = is_python2(nb, infos)

    def is_always_defined(name: str) -> bool:
        return defined_by_kernel(name, nb.predefined, python2)

    bound_anywhere: dict[str, set[int]] = defaultdict(set)
    for index, info in infos.items():
        for name in info.defines:
            bound_anywhere[name].add(index)
    if not any(info.has_unknown_definitions for info in infos.values()):
        for index, info in infos.items():
            for name in info.used_names:
                if not is_always_defined(name) and not bound_anywhere.get(name, set()) - {index}:
                    return None  # read but bound by no other cell: no order can help
    needs = {
        index: {
            n for n in info.used_names
            if not is_always_defined(n) and n in bound_anywhere
        }
        for index, info in infos.items()
    }
    remaining = [c.index for c in nb.cells if c.kind == "code"]
    state: set[str] = set()
    order: list[int] = []
    while remaining:
        ready_cells = [i for i in remaining if needs[i] <= state]
        if not ready_cells:
            return None
        # a cell that deletes a name another waiting cell still reads goes last
        still_needed = set().union(*(needs[i] for i in remaining))
        ready = next((i for i in ready_cells if not infos[i].deletes & still_needed), ready_cells[0])
        remaining.remove(ready)
        order.append(ready)
        info = infos[ready]
        state |= info.defines
        state -= info.deletes - info.defines
    return tuple(order)


def affected_by(src: NotebookSource, cell_index: int) -> tuple[int, ...]:
    """The cells that must re-run after cell `cell_index` changes, in notebook order.

    These are the code cells below it that read, directly or through other cells, a
    name it binds or mutates (edges of the notebook-order graph).

    Raises:
        CellIndexError: `cell_index` is not the index of a code cell.
    """
    graph = build_graph(src, "notebook")
    if cell_index not in graph.sequence:
        raise CellIndexError(f"{graph.notebook.name}: cell {cell_index + 1} (index {cell_index}) "
                             "is not a code cell")
    out: dict[int, list[int]] = defaultdict(list)
    for edge in graph.edges:
        out[edge.source].append(edge.target)
    seen: set[int] = set()
    queue = deque([cell_index])
    while queue:
        for nxt in out[queue.popleft()]:
            if nxt not in seen and nxt != cell_index:
                seen.add(nxt)
                queue.append(nxt)
    return tuple(sorted(seen))
