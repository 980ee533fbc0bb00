"""The saved outputs are the specification: what the old notebook printed, cell by cell,
against what the repaired notebook prints now.

An old notebook usually keeps the outputs of its last run. A modernized notebook that runs
to the end but prints another accuracy has not been reproduced: a changed default moved the
number without raising anything. This module reads the saved outputs once, compares each
code cell's new outputs with them and names the first place that differs, as a
``Deviation`` (the cell, the old value, the new one).

What is compared is what ``nbpatch`` compares in its equivalence check: stdout and
plain-text results (stderr, where warnings go, is left out), with memory addresses,
timings, progress bars and clock times blanked. Non-integer numbers match within the
tolerance (relative); integers (counts, shapes, labels) and the text around the numbers
(table headers, names) must be equal. Object reprs (``<Figure size ...>``,
``RandomForestClassifier(n_estimators=10)``: estimators print only the parameters that
differ from today's defaults) and pictures are not compared: their text changes with the
library's version while the object is the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nbformat import NotebookNode
from nbpatch._normalize import normalize_text, output_texts, texts_match

from ._classify import cell_label

__all__ = ["Deviation", "SavedOutputs", "saved_outputs", "deviations", "unsteady_cells",
           "DEFAULT_TOLERANCE"]

#: relative tolerance of non-integer numbers: printed scores differ in the last digits
#: between versions of BLAS or of a library's float formatting, not by a percent
DEFAULT_TOLERANCE = 0.01

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
# an object's repr: ``<matplotlib.legend.Legend at 0x...>``, ``<Figure size 640x480 ...>``,
# ``[<matplotlib.lines.Line2D at 0x...>]``, ``<image/png>`` (nbpatch's marker of a picture)
_OBJECT = re.compile(r"^\[?\s*<[^<>]*>\s*(,\s*<[^<>]*>\s*)*\]?$", re.S)
# an estimator's or a callable object's repr: ``Pipeline(steps=[...])``, ``SVC(gamma='auto')``
_CALL_REPR = re.compile(r"^[A-Z]\w*\((.|\n)*\)$")
# numpy 2 writes its scalars with their type: ``np.float64(0.5)``, ``np.True_``,
# ``np.str_('a')`` where numpy 1 wrote ``0.5``, ``True``, ``'a'`` (inside lists, tuples)
_NP_SCALAR = re.compile(r"\bnp\.(?:float|int|uint|complex|longdouble|str_|bytes_)\d*\(([^()]*)\)")
_NP_BOOL = re.compile(r"\bnp\.(True|False)_")


def _unversioned(text: str) -> str:
    """``text`` without what only the library's version changes (numpy scalars' reprs)."""
    return _NP_BOOL.sub(r"\1", _NP_SCALAR.sub(r"\1", text))


@dataclass(frozen=True, slots=True, kw_only=True)
class Deviation:
    """The first place where a code cell's new outputs differ from the saved ones.

    ``kind`` is ``value`` (the same text, a number off by more than the tolerance),
    ``text`` (other text: a table header, a dtype, a name) or ``missing`` (an output
    the old notebook saved is not printed any more, or a new one appears). ``old`` and
    ``new`` are the two values (for ``value``) or the two lines that differ.
    """

    cell: int  # 0-based index among all cells of the run notebook
    execution_count: int | None
    kind: str
    old: str
    new: str

    @property
    def message(self) -> str:
        where = cell_label(self.cell, self.execution_count)
        if self.kind == "value":
            return f"{where} prints {self.new} where the old notebook printed {self.old}"
        return f"{where} prints {self.new!r} where the old notebook printed {self.old!r}"


@dataclass(frozen=True, slots=True)
class SavedOutputs:
    """The comparable outputs the old notebook saved, by code cell (index and id)."""

    by_index: Mapping[int, tuple[str, ...]]
    by_id: Mapping[str, tuple[str, ...]]
    cells: int  # how many cells the old notebook has
    #: the cells whose saved outputs could not be read, in words (they are not compared)
    skipped: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.by_index)

    def of(self, nb: NotebookNode, index: int) -> tuple[str, ...] | None:
        """The saved outputs of ``nb``'s cell ``index`` (``None``: nothing saved for it).

        A repair keeps the cells in place, so the position is the key; a notebook whose
        cells were added or removed (an LLM's patch) is matched by cell id.
        """
        if len(nb.cells) == self.cells:
            return self.by_index.get(index)
        cell_id = nb.cells[index].get("id")
        return self.by_id.get(cell_id) if isinstance(cell_id, str) else None


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return value if isinstance(value, str) else ""


def _plain(outputs: Any) -> list[dict[str, Any]]:
    """The outputs as nbpatch reads them: multi-line strings joined (a notebook on disk
    may keep them as lists of lines), anything that is not an output dropped."""
    if not isinstance(outputs, Sequence) or isinstance(outputs, str):
        return []
    out = []
    for o in outputs:
        if not isinstance(o, Mapping):
            continue
        o = dict(o)
        if "text" in o:
            o["text"] = _text(o["text"])
        data = o.get("data")
        if isinstance(data, Mapping):
            o["data"] = {k: _text(v) if k.startswith("text/") else v for k, v in data.items()}
        elif "data" in o:
            o["data"] = {}
        out.append(o)
    return out


def comparable(outputs: Any) -> tuple[str, ...]:
    """A cell's outputs as the texts compared (object reprs and pictures left out)."""
    return tuple(_unversioned(t) for t in output_texts(_plain(outputs)) if not _is_repr(t))


def _is_repr(text: str) -> bool:
    """An object's repr, a picture's marker, or nothing at all."""
    bare = text.strip().replace("0x<address>", "0x")  # nbpatch blanks addresses so
    return not bare or bool(_OBJECT.match(bare) or _CALL_REPR.match(bare))


def saved_outputs(nb: NotebookNode) -> SavedOutputs:
    """What the old notebook saved: the code cells that hold a comparable output (an
    error it saved is no specification: the repair is meant to get past it)."""
    by_index: dict[int, tuple[str, ...]] = {}
    by_id: dict[str, tuple[str, ...]] = {}
    skipped: list[str] = []
    count = 0
    for k, cell in enumerate(nb.cells):
        if cell.get("cell_type") != "code":
            continue
        count += 1
        raw = cell.get("outputs", ())
        outputs = _plain(raw)
        if _unreadable(raw, outputs):
            skipped.append(f"{cell_label(k, count)}: its saved outputs are not a list of "
                           "outputs; not compared")
            continue
        if any(o.get("output_type") == "error" for o in outputs):
            continue
        texts = comparable(outputs)
        if texts:
            by_index[k] = texts
            if isinstance(cell.get("id"), str):
                by_id[cell["id"]] = texts
    return SavedOutputs(by_index=by_index, by_id=by_id, cells=len(nb.cells),
                        skipped=tuple(skipped))


def _unreadable(raw: Any, outputs: list[dict[str, Any]]) -> bool:
    """True when a cell's saved outputs are something else than a list of outputs."""
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return True
    return len(outputs) != len(raw)


def _first_difference(old: str, new: str, tolerance: float) -> tuple[str, str, str]:
    """(kind, old, new) of the first line pair of two texts that does not match."""
    lines_old, lines_new = old.split("\n"), new.split("\n")
    for a, b in zip(lines_old, lines_new):
        if texts_match(a, b, tolerance):
            continue
        if _NUMBER.sub("#", a) == _NUMBER.sub("#", b):
            for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b)):
                if not texts_match(x, y, tolerance):
                    return "value", x, y
        return "text", a.strip(), b.strip()
    if len(lines_old) != len(lines_new):
        k = min(len(lines_old), len(lines_new))
        return ("missing", "\n".join(lines_old[k:k + 1]) or "(nothing)",
                "\n".join(lines_new[k:k + 1]) or "(nothing)")
    return "text", old, new


def cell_deviation(saved: tuple[str, ...], cell: Any, index: int, count: int | None,
                   tolerance: float) -> Deviation | None:
    """The deviation of one executed cell from its saved outputs, if any."""
    now = comparable(cell.get("outputs", ()))
    for a, b in zip(saved, now):
        if not texts_match(a, b, tolerance):
            kind, old, new = _first_difference(a, b, tolerance)
            return Deviation(cell=index, execution_count=count, kind=kind, old=old, new=new)
    if len(saved) != len(now):
        k = min(len(saved), len(now))
        return Deviation(cell=index, execution_count=count, kind="missing",
                         old=_line(saved[k:]), new=_line(now[k:]))
    return None


def _line(texts: Sequence[str]) -> str:
    return normalize_text(texts[0]).split("\n")[0] if texts else "(nothing)"


def deviations(saved: SavedOutputs, executed: NotebookNode, tolerance: float = DEFAULT_TOLERANCE,
               stop: int | None = None) -> tuple[Deviation, ...]:
    """Every code cell of ``executed`` (before ``stop``, the failing cell) whose outputs
    differ from the saved ones; cells that did not run are not compared."""
    found = []
    count = 0
    end = len(executed.cells) if stop is None else stop
    for k, cell in enumerate(executed.cells[:end]):
        if cell.get("cell_type") != "code":
            continue
        count += 1
        expected = saved.of(executed, k)
        if expected is None:
            continue
        found_one = cell_deviation(expected, cell, k, count, tolerance)
        if found_one is not None:
            found.append(found_one)
    return tuple(found)


def matches_through(saved: SavedOutputs, executed: NotebookNode, end: int,
                    tolerance: float = DEFAULT_TOLERANCE) -> bool:
    """True when every code cell up to and including ``end`` prints what it saved."""
    return not deviations(saved, executed, tolerance, stop=end + 1)


def unsteady_cells(a: NotebookNode, b: NotebookNode, tolerance: float = DEFAULT_TOLERANCE
                   ) -> set[int]:
    """The code cells that printed other values in two runs of the same notebook (an
    unseeded model, a clock): what they saved is no specification. Cells that did not
    run in both are left out."""
    out = set()
    for k, (x, y) in enumerate(zip(a.cells, b.cells)):
        if x.get("cell_type") != "code":
            continue
        if any(o.get("output_type") == "error" for o in _plain(x.get("outputs", ())) +
               _plain(y.get("outputs", ()))):
            continue
        tx, ty = comparable(x.get("outputs", ())), comparable(y.get("outputs", ()))
        if len(tx) != len(ty) or not all(texts_match(p, q, tolerance) for p, q in zip(tx, ty)):
            out.add(k)
    return out


def without(saved: SavedOutputs, nb: NotebookNode, cells: set[int], why: str) -> SavedOutputs:
    """``saved`` with ``cells`` (of ``nb``) no longer compared; ``why`` goes to ``skipped``."""
    ids = {nb.cells[k].get("id") for k in cells}
    count, labels = 0, []
    for k, cell in enumerate(nb.cells):
        if cell.get("cell_type") == "code":
            count += 1
            if k in cells:
                labels.append(f"{cell_label(k, count)}: {why}; not compared")
    return replace(saved, by_index={k: v for k, v in saved.by_index.items() if k not in cells},
                   by_id={k: v for k, v in saved.by_id.items() if k not in ids},
                   skipped=(*saved.skipped, *labels))
