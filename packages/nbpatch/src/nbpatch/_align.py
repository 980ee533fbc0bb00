"""Cell alignment: pair the cells of two notebooks by id, then content, then position.

The result is a list of ``(i, j)`` pairs (cell ``i`` of the first notebook is cell ``j`` of
the second). Unpaired cells are deletions and insertions; pairs out of order are moves.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz, process

from ._notebook import source_of

__all__ = ["align", "longest_increasing"]

# fuzz.ratio (0-100) from which two cells of the same type count as "the same cell, edited".
SIMILAR = 60.0
# Above this many candidate comparisons, only cells in the same gap between anchors are
# compared, which keeps the worst case (two long notebooks, every cell edited) bounded.
GLOBAL_LIMIT = 250_000
_CANDIDATES = 5

Cells = Sequence[Mapping[str, Any]]


def _by_id(a: Cells, b: Cells, pairs: dict[int, int]) -> None:
    where = {}
    seen: set[str] = set()
    for i, cell in enumerate(a):
        cid = cell.get("id")
        if isinstance(cid, str) and cid:
            if cid in seen:  # duplicated id: unusable as a key
                where.pop(cid, None)
            else:
                where[cid] = i
            seen.add(cid)
    used: set[str] = set()
    for j, cell in enumerate(b):
        cid = cell.get("id")
        i = where.get(cid) if isinstance(cid, str) else None
        if i is None or cid in used:
            continue
        used.add(cid)
        if a[i].get("cell_type") == cell.get("cell_type"):
            pairs[i] = j


def _by_content(a: Cells, b: Cells, pairs: dict[int, int], fixed_a: set[int],
                fixed_b: set[int]) -> None:
    taken_b = set(pairs.values()) | fixed_b
    exact: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, cell in enumerate(a):
        if i not in pairs and i not in fixed_a:
            exact[(cell.get("cell_type"), source_of(cell))].append(i)
    for j, cell in enumerate(b):
        if j in taken_b:
            continue
        bucket = exact.get((cell.get("cell_type"), source_of(cell)))
        if bucket:
            pairs[bucket.pop(0)] = j
            taken_b.add(j)
    free_a = [i for i in range(len(a)) if i not in pairs and i not in fixed_a]
    free_b = [j for j in range(len(b)) if j not in taken_b]
    if not free_a or not free_b or len(free_a) * len(free_b) > GLOBAL_LIMIT:
        return
    _similar(a, b, free_a, free_b, pairs)


def _similar(a: Cells, b: Cells, free_a: list[int], free_b: list[int],
             pairs: dict[int, int]) -> None:
    """Greedy best-first pairing of cells whose sources are similar enough."""
    candidates: list[tuple[float, int, int, int]] = []
    by_type: dict[str, list[int]] = defaultdict(list)
    for i in free_a:
        by_type[a[i].get("cell_type")].append(i)
    for j in free_b:
        pool = by_type.get(b[j].get("cell_type"))
        if not pool:
            continue
        choices = [source_of(a[i]) for i in pool]
        found = process.extract(
            source_of(b[j]), choices, scorer=fuzz.ratio, score_cutoff=SIMILAR,
            limit=_CANDIDATES,
        )
        for _text, score, k in found:
            i = pool[k]
            candidates.append((-score, abs(i - j), i, j))
    candidates.sort()
    used_b: set[int] = set()
    for _score, _dist, i, j in candidates:
        if i not in pairs and j not in used_b:
            pairs[i] = j
            used_b.add(j)


def longest_increasing(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of pairs increasing in both indices (pairs sorted by ``j``)."""
    ordered = sorted(pairs, key=lambda p: p[1])
    tails: list[int] = []  # i-value ending the best chain of each length
    ends: list[int] = []  # index into ordered of that chain's end
    back = [-1] * len(ordered)
    for k, (i, _j) in enumerate(ordered):
        pos = bisect.bisect_left(tails, i)
        if pos == len(tails):
            tails.append(i)
            ends.append(k)
        else:
            tails[pos] = i
            ends[pos] = k
        back[k] = ends[pos - 1] if pos else -1
    chain: list[tuple[int, int]] = []
    k = ends[-1] if ends else -1
    while k >= 0:
        chain.append(ordered[k])
        k = back[k]
    return chain[::-1]


def _by_position(a: Cells, b: Cells, pairs: dict[int, int], fixed_a: set[int],
                 fixed_b: set[int]) -> None:
    """Pair the leftover cells of each gap between in-order anchors, by type, in order."""
    chain = longest_increasing(list(pairs.items()))
    taken_b = set(pairs.values()) | fixed_b
    bounds = [(-1, -1), *chain, (len(a), len(b))]
    for (i0, j0), (i1, j1) in zip(bounds, bounds[1:]):
        left_a = [i for i in range(i0 + 1, i1) if i not in pairs and i not in fixed_a]
        left_b = [j for j in range(j0 + 1, j1) if j not in taken_b]
        start = 0
        for i in left_a:
            for k in range(start, len(left_b)):
                if b[left_b[k]].get("cell_type") == a[i].get("cell_type"):
                    pairs[i] = left_b[k]
                    taken_b.add(left_b[k])
                    start = k + 1
                    break


def align(a: Cells, b: Cells) -> list[tuple[int, int]]:
    """Pair cells of ``a`` with cells of ``b``: by id, then content similarity, then position.

    Two cells sharing an id but not a type are never paired with anything (the old cell is
    deleted, the new one inserted). Returns the pairs sorted by ``i``.
    """
    pairs: dict[int, int] = {}
    _by_id(a, b, pairs)
    ids_b = {c.get("id") for c in b if c.get("id")}
    ids_a = {c.get("id") for c in a if c.get("id")}
    fixed_a = {i for i, c in enumerate(a) if i not in pairs and c.get("id") in ids_b}
    paired_b = set(pairs.values())
    fixed_b = {j for j, c in enumerate(b) if j not in paired_b and c.get("id") in ids_a}
    _by_content(a, b, pairs, fixed_a, fixed_b)
    _by_position(a, b, pairs, fixed_a, fixed_b)
    return sorted(pairs.items())
