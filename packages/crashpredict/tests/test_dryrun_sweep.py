"""The iterations a cut loop skipped, run newest first after the cell (beside the cell).

Beside the cell the dry run cuts a long loop once it has run half a second, so a bad file,
group or machine near the end of the loop (the 37th of 40) is skipped: the cut run ends
clean. Once it is done, the child runs the skipped iterations from the last back
(`Cutter.sweep_codes`), and counts a crash there only where it fails on the iteration's
own values (`Cutter.crashed_in_swept_iteration`). Each cell's truth is decided by running
it; the near misses are cells that run clean for real, where a sweep that trusted what it
sees would warn.
"""

from __future__ import annotations

import ast
import collections
import linecache
import re
import time
import warnings

import pytest

from crashpredict._dryrun import dryrun_verdict
from crashpredict._dryrun._fastforward import (Cutter, LoopInfo, _draws_before, _itemwise,
                                               _positions, _Rows, rewrite_cell)
from crashpredict_tests_cells import beside_the_cell  # registered by conftest.py
from crashpredict_tests_cells import raised_in_a_new_process
from crashpredict_tests_cells import raised_type as _raised_type

pytestmark = pytest.mark.usefixtures("no_new_children")

#: items of the loops below; each iteration sleeps STEP_S, so the cut (after 0.5 s beside
#: the cell) comes at about the 25th and the bad item (the 37th) is one it skips
ITEMS = 40
STEP_S = 0.02
BAD = 36


def _beside_the_cell(namespace: dict, cell: str):
    """The dry run of ``cell`` beside it, and its verdict."""
    result = beside_the_cell(namespace, cell, wait_s=30)
    return result, dryrun_verdict(result, cell)


def _exports(tmp_path, separators_at: int | None = BAD) -> dict:
    """Forty monthly CSV exports; the one at ``separators_at`` writes its amounts with
    thousands separators (read as text)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(7)
    folder = tmp_path / "exports"
    folder.mkdir(parents=True)
    for month in range(ITEMS):
        frame = pd.DataFrame({"k": rng.integers(0, 20, 300),
                              "amount": np.round(rng.lognormal(7, 1, 300), 2)})
        if month == separators_at:
            frame["amount"] = frame["amount"].map("{:,.2f}".format)
        frame.to_csv(folder / f"month_{month:02d}.csv", index=False)
    files = sorted(p.name for p in folder.iterdir())
    return {"np": np, "pd": pd, "time": time, "os": __import__("os"), "folder": str(folder),
            "files": files}


MONTHLY = """
parts = []
for name in sorted(os.listdir(folder)):
    time.sleep({step})
    df = pd.read_csv(os.path.join(folder, name){read})
    df['amount'] = df['amount'].astype(float)
    parts.append(df.groupby('k')['amount'].sum())
totals = pd.concat(parts, axis=1)
"""


def test_a_bad_file_the_cut_skipped_is_met_newest_first(tmp_path):
    """The 37th export of 40 has thousands separators: the real run fails there, late. The
    cut run skips it; the sweep meets it third and counts it (the failing expression reads
    only the frame the iteration read from its own file). Its fix reads the separators."""
    cell = MONTHLY.format(step=STEP_S, read="")
    assert _raised_type(cell, _exports(tmp_path / "truth")) == "ValueError"
    result, verdict = _beside_the_cell(_exports(tmp_path / "run"), cell)
    assert result.swept_iteration and result.cut_before_crash, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), verdict
    assert any("newest first" in line for line in verdict.evidence), verdict.evidence
    fixed = MONTHLY.format(step=STEP_S, read=", thousands=','")
    assert _raised_type(fixed, _exports(tmp_path / "truth_fixed")) is None
    result, verdict = _beside_the_cell(_exports(tmp_path / "run_fixed"), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    assert any("newest first" in c for c in result.cuts), result.cuts


JOINED_AFTER = """
parts = []
for name in sorted(os.listdir(folder)):
    time.sleep({step})
    parts.append(pd.read_csv(os.path.join(folder, name){read}))
orders = pd.concat(parts, ignore_index=True)
{between}orders['amount'] = orders['amount'].astype(float)
totals = orders.groupby('k')['amount'].sum()
"""


def test_a_bad_file_the_cut_skipped_is_met_where_the_cell_joins_the_files(tmp_path):
    """The same 37th export, read as it is and converted only after the loop, from the
    join of every file: each skipped iteration runs clean. Once they have run, the rest of
    the cell runs again on the join of every file's rows (the first files first, as in the
    real run), and its conversion fails on the separators' text wherever it stands. Its
    fix reads the separators."""
    cell = JOINED_AFTER.format(step=STEP_S, read="", between="")
    assert _raised_type(cell, _exports(tmp_path / "truth")) == "ValueError"
    result, verdict = _beside_the_cell(_exports(tmp_path / "run"), cell)
    assert result.rejoined and not result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 7), verdict
    assert any("run again" in line for line in verdict.evidence), verdict.evidence
    fixed = JOINED_AFTER.format(step=STEP_S, read=", thousands=','", between="")
    assert _raised_type(fixed, _exports(tmp_path / "truth_fixed")) is None
    result, verdict = _beside_the_cell(_exports(tmp_path / "run_fixed"), fixed)
    assert verdict.crash is not True and not result.rejoined, (verdict, result)


def _store_months() -> dict:
    """Forty stores' daily revenue over six months; the 37th is the 31st sent again, under
    its key written otherwise (``"S30 "``)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(17)
    frames = {f"s{k:02d}": pd.DataFrame({"month": np.repeat(np.arange(1, 7), 30),
                                         "revenue": rng.gamma(5.0, 200.0, 180)})
              for k in range(ITEMS - 1)}
    names = list(frames)
    frames = {**{n: frames[n] for n in names[:BAD]}, "S30 ": frames["s30"].copy(),
              **{n: frames[n] for n in names[BAD:]}}
    return {"pd": pd, "time": time, "store_frames": frames}


STORE_RECORDS = """
records = []
for raw, frame in store_frames.items():
    time.sleep({step})
    store = raw.strip().lower()
    monthly = frame.groupby("month")["revenue"].sum()
    for month, revenue in monthly.items():
        records.append({{"store": store, "month": month, "revenue": revenue}})
kpis = pd.DataFrame(records){dedupe}
table = kpis.pivot(index="store", columns="month", values="revenue")
"""


def test_records_of_a_store_sent_twice_are_pivoted_again_after_the_sweep():
    """A store's months, one record each, for forty stores: the 37th is the 31st again,
    under its key written otherwise, and the pivot of the records after the loop meets
    its months twice. Both are skipped by the cut; each runs clean in the sweep. The rest
    of the cell then runs again on the records of them all, made into a frame one row
    each (``pd.DataFrame(records)``, `_joined_list`), and the pivot fails as the real
    run's does. Its fix keeps a store's last records."""
    cell = STORE_RECORDS.format(step=STEP_S, dedupe="")
    assert _raised_type(cell, _store_months()) == "ValueError"
    result, verdict = _beside_the_cell(_store_months(), cell)
    assert result.rejoined and result.duplicates_kept, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 10), verdict
    fixed = STORE_RECORDS.format(step=STEP_S, dedupe='.drop_duplicates(["store", "month"], '
                                                      'keep="last")')
    assert _raised_type(fixed, _store_months()) is None
    result, verdict = _beside_the_cell(_store_months(), fixed)
    assert verdict.crash is not True and not result.rejoined, (verdict, result)


def _line_batches(stalled_at: int | None = BAD) -> dict:
    """Forty batches of a bottling line's readings, eight units each; in the batch
    ``stalled_at`` one unit's intake counter stalled at zero (its output per intake is
    infinite)."""
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(29)
    batches = []
    for b in range(ITEMS):
        readings = pd.DataFrame({"unit": np.repeat(np.arange(8), 40),
                                 "intake": rng.uniform(50, 80, 320),
                                 "output": rng.uniform(40, 70, 320),
                                 "temp": rng.normal(70, 3, 320)})
        if b == stalled_at:
            readings.loc[readings["unit"] == 3, "intake"] = 0.0
        batches.append((readings, pd.Series(rng.random(8) < 0.3, name="jam")))
    return {"np": np, "pd": pd, "time": time, "LogisticRegression": LogisticRegression,
            "batches": batches}


LINE_FEATURES = """
rows, flags = [], []
for readings, jams in batches:
    time.sleep({step})
    g = readings.groupby("unit")
    feats = g[["intake", "output", "temp"]].mean()
    feats["yield"] = g["output"].sum() / g["intake"].sum()
    rows.append(feats)
    flags.append(jams)
X = pd.concat(rows){clean}
y = pd.concat(flags).astype(int)
model = LogisticRegression(max_iter=500)
model.fit(X, y)
"""


def test_a_final_fit_refusing_the_join_of_what_the_loop_collected_is_met_after_the_sweep():
    """The 37th batch of 40 holds a unit whose intake stalled at zero: its yield is
    infinite, and the fit after the loop, on the join of every batch's features, refuses
    it. The cut run skips that batch and cuts the final fit (``max_iter`` to 2); the fit
    cut after the loop does not stop the rest of the cell from running again once the
    skipped batches have run (`Cutter.after_sweep_code`), and there the whole fit's input
    checks refuse the join, which holds every batch's rows as the real run's does
    (`Cutter.inputs_joined`). Its fix clears the infinite values."""
    cell = LINE_FEATURES.format(step=STEP_S, clean="")
    assert _raised_type(cell, _line_batches()) == "ValueError"
    result, verdict = _beside_the_cell(_line_batches(), cell)
    assert result.rejoined and not result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 13), verdict
    fixed = LINE_FEATURES.format(step=STEP_S,
                                 clean=".replace([np.inf, -np.inf], np.nan).fillna(0)")
    assert _raised_type(fixed, _line_batches()) is None
    result, verdict = _beside_the_cell(_line_batches(), fixed)
    assert verdict.crash is not True and not result.rejoined, (verdict, result)


UNIT_FEATURES = """
def unit_features(readings):
    g = readings.groupby("unit")
    feats = g[["intake", "output", "temp"]].mean()
    feats["yield"] = g["output"].sum() / g["intake"].sum()
    return feats
"""

LINE_FEATURES_BY_FUNCTION = """
rows, flags = [], []
for readings, jams in batches:
    time.sleep({step})
    rows.append(unit_features(readings))
    flags.append(jams)
X = pd.concat(rows){clean}
y = pd.concat(flags).astype(int)
model = LogisticRegression(max_iter=500)
model.fit(X, y)
"""


def _line_batches_and_features() -> dict:
    """`_line_batches`, and the notebook's function of a batch's features per unit."""
    namespace = {**_line_batches(), "__name__": "__main__"}
    linecache.cache["<unit_features>"] = (len(UNIT_FEATURES), None,
                                          UNIT_FEATURES.splitlines(True), "<unit_features>")
    exec(compile(UNIT_FEATURES, "<unit_features>", "exec"), namespace)  # noqa: S102
    return namespace


@pytest.mark.parametrize("clean", ["", ".replace([np.inf, -np.inf], np.nan).fillna(0)"])
def test_a_final_fit_refusing_a_join_of_what_a_pure_function_made_is_the_real_runs(clean):
    """The same line, each batch's features made by a function of the notebook's that
    depends on its argument alone (`_pure_function`) and changes none of it: what it
    makes of each batch is that batch's own, the skipped ones' too, so the whole fit's
    refusal of the join, run again after the sweep, is the real run's
    (`Cutter.inputs_joined`, with the notebook's pure functions). Its fix clears the
    infinite values."""
    cell = LINE_FEATURES_BY_FUNCTION.format(step=STEP_S, clean=clean)
    assert _raised_type(cell, _line_batches_and_features()) == (None if clean else "ValueError")
    result, verdict = _beside_the_cell(_line_batches_and_features(), cell)
    if clean:
        assert verdict.crash is not True and not result.rejoined, (verdict, result)
    else:
        assert result.rejoined, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 10), \
            verdict


def test_the_rest_runs_again_only_where_no_fit_was_cut_before_the_loop_ended():
    """Unit: a library fit cut in the loop (or where the cell's line is not known) keeps
    the rest of the cell from running again after the sweep; fits cut only after the loop
    do not (`Cutter.after_sweep_code`)."""
    tree = ast.parse("rows = []\nfor item in items:\n    rows.append(item)\n"
                     "X = pd.concat(rows)\nmodel.fit(X, y)\n")
    for lines, runs in (([], True), ([5], True), ([4, 5], True), ([2], False),
                        ([5, 3], False), ([None], False)):
        cutter = Cutter({0: LoopInfo(0, 2, "for item in items", "the cell", sweep=True)},
                        cell_tree=tree)
        if lines:
            cutter.library_cuts.append("a fit cut")
        cutter.cut_lines.extend(lines)
        assert (cutter.after_sweep_code(0, "<cell>") is not None) is runs, lines


def test_the_order_free_methods_of_a_join_are_read_through():
    """Unit: `_order_free_core` reads through methods that keep the rows (``.astype``,
    ``.values``), with arguments of no name a cut loop makes, and stops at any other."""
    from crashpredict._dryrun._fastforward import _joined_list, _order_free_core

    cases = {"pd.concat(parts).astype(int)": "parts",
             "pd.concat(parts, ignore_index=True).fillna(0).values": "parts",
             "np.concatenate(parts).astype(dtype)": "parts",
             "pd.concat(parts).head(100)": None,  # the first rows: the order counts
             "pd.concat(parts).fillna(last)": None,  # a value the loop made
             "pd.concat(parts).sample(50)": None}
    for source, listed in cases.items():
        node = ast.parse(source, mode="eval").body
        assert _joined_list(_order_free_core(node, set(), {"last", "parts"})) == listed, source


def test_what_the_cell_changes_before_the_join_again_is_not_claimed(tmp_path):
    """A near miss, clean for real: the cell strips the separators of every text amount
    after the join, in place, before the conversion. Run again, the rest of the cell strips
    them again: clean, and nothing is warned. Where the loop reads what the cell binds
    after it (the columns to keep), what the skipped iterations appended is not the real
    run's: not claimed (`_collected_only` with `continuing`)."""
    between = ("orders['amount'] = orders['amount'].astype(str).str.replace(',', '')\n")
    cell = JOINED_AFTER.format(step=STEP_S, read="", between=between)
    assert _raised_type(cell, _exports(tmp_path / "truth")) is None
    result, verdict = _beside_the_cell(_exports(tmp_path / "run"), cell)
    assert verdict.crash is not True and not result.rejoined, (verdict, result)

    import pandas as pd

    source = ("parts = []\nfor name in names:\n    parts.append(pd.read_csv(name)[cols])\n"
              "{rebind}orders = pd.concat(parts)\norders['amount'].astype(float)\n")
    for rebind, claimed in (("", True), ("cols = ['k']\n", False)):
        tree = ast.parse(source.format(rebind=rebind))
        cutter = Cutter({0: LoopInfo(0, 2, "for name in names", "the cell", sweep=True,
                                     names=frozenset({"name"}))},
                        cell_tree=tree, namespace={"pd": pd, "names": ["a"], "cols": ["amount"]})
        cutter.cut.append(0)
        cutter.entries[0] = 1
        cutter.continuing = 0
        join = tree.body[-2]
        assert cutter._collected_only("parts", cutter._cut_nodes(), set(), cutter.namespace,
                                      before=join) is claimed, rebind


def _streamed_reviews(missing_at: int | None = BAD) -> dict:
    """Forty batches of 50 short reviews; three of the batch ``missing_at`` have no text."""
    import numpy as np
    import pandas as pd
    from sklearn.feature_extraction.text import HashingVectorizer
    from sklearn.linear_model import SGDClassifier

    rng = np.random.default_rng(6)
    words = np.array(["good", "bad", "fine", "poor", "great", "awful", "ok", "meh"])
    labels = rng.integers(0, 2, ITEMS * 50)
    texts = [" ".join(rng.choice(words, 6)) for _ in labels]
    frame = pd.DataFrame({"text": texts, "label": labels})
    if missing_at is not None:
        frame.loc[[missing_at * 50 + 3, missing_at * 50 + 17, missing_at * 50 + 40],
                  "text"] = np.nan
    return {"np": np, "time": time, "stream": frame, "HashingVectorizer": HashingVectorizer,
            "SGDClassifier": SGDClassifier}


COUNTED_STREAM = """
vec = HashingVectorizer(n_features=2**12, alternate_sign=False)
clf = SGDClassifier(loss="log_loss", random_state=0)
start, batch_size, seen = 0, 50, 0
while start < len(stream):
    time.sleep({step})
    batch = stream.iloc[start:start + batch_size]
    Xb = vec.transform(batch["text"]{fill})
    clf.partial_fit(Xb, batch["label"], classes={classes})
    seen += len(batch)
    start += batch_size
"""


def test_a_bad_batch_of_a_counted_while_loop_is_met_newest_first():
    """A stream fitted batch by batch in a ``while`` loop that counts through the rows:
    three reviews of the 37th batch of 40 have no text, which the vectorizer refuses,
    late in the real run. The loop is the ``for`` over a ``range`` it is
    (`_counted_whiles`): cut, its skipped batches run newest first, and the 37th, read
    only from its own rows, fails as the real run's does. Its fix fills the missing
    texts."""
    cell = COUNTED_STREAM.format(step=STEP_S, fill="", classes="[0, 1]")
    assert _raised_type(cell, _streamed_reviews()) == "ValueError"
    result, verdict = _beside_the_cell(_streamed_reviews(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 8), verdict
    assert any("while start < len(stream)" in c for c in result.cuts), result.cuts
    fixed = COUNTED_STREAM.format(step=STEP_S, fill='.fillna("")', classes="[0, 1]")
    assert _raised_type(fixed, _streamed_reviews()) is None
    result, verdict = _beside_the_cell(_streamed_reviews(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("source, counted", [
    ("start, n = 0, 0\nwhile start < len(rows):\n    n += rows[start]\n    start += 2\n", True),
    ("i = 0\nwhile i < 10:\n    out.append(i)\n    i += step\n", True),
    # the body binds the counter, skips its step, or changes what the stop reads
    ("i = 0\nwhile i < 10:\n    i = i * 2\n    i += 1\n", False),
    ("i = 0\nwhile i < 10:\n    if i % 3:\n        continue\n    i += 1\n", False),
    ("i = 0\nwhile i < len(rows):\n    rows.pop()\n    i += 1\n", False),
    ("i = 0\nwhile i < len(rows):\n    rows = rows[1:]\n    i += 1\n", False),
    # the counter read after the loop, a float step, a test other than ``<``, an ``else``
    ("i = 0\nwhile i < 10:\n    out.append(i)\n    i += 1\nlast = i\n", False),
    ("i = 0\nwhile i < 10:\n    out.append(i)\n    i += 0.5\n", False),
    ("i = 0\nwhile i <= 10:\n    out.append(i)\n    i += 1\n", False),
    ("i = 0\nwhile i < 10:\n    out.append(i)\n    i += 1\nelse:\n    pass\n", False),
    # the counter's start not a literal the cell binds once, the step not above 0
    ("i = len(rows) // 2\nwhile i < 10:\n    out.append(i)\n    i += 1\n", False),
    ("i = 0\nwhile i < 10:\n    out.append(i)\n    i += back\n", False),
    # a continue of an inner loop is its own
    ("i = 0\nwhile i < 4:\n    for r in rows:\n        continue\n    i += 1\n", True),
    # a step clipped to the stop (`_clipped_step`): the last batch shorter
    ("done = 0\nwhile done < len(rows):\n    b = min(step, len(rows) - done)\n"
     "    out.append(sum(rows[done:done + b]))\n    done += b\n", True),
    ("start = 0\nwhile start < 7:\n    end = min(start + step, 7)\n"
     "    out.append(rows[start:end])\n    start = end\n", True),
    ("start = 0\nwhile start < 7:\n    end = min(7, start + 2)\n"
     "    out.append(end - start)\n    start = end\n", True),
    # clipped to another stop, its size bound again, or the step not the one clipped
    ("done = 0\nwhile done < len(rows):\n    b = min(step, 5 - done)\n"
     "    out.append(b)\n    done += b\n", False),
    ("done = 0\nwhile done < 8:\n    b = min(step, 8 - done)\n"
     "    b = b // 2 or 1\n    out.append(b)\n    done += b\n", False),
    ("start = 0\nwhile start < 7:\n    end = min(start + step, 7)\n"
     "    out.append(end)\n    start = end + 1\n", False),
    # ``min`` the cell's own
    ("min = max\ndone = 0\nwhile done < 8:\n    b = min(step, 8 - done)\n"
     "    out.append(b)\n    done += b\n", False),
    # the step followed by what names no counter (a count of the batches): the same
    ("start, k, n = 0, 0, 0\nwhile start < len(rows):\n    n += rows[start]\n"
     "    start += step\n    k += 1\n    out.append(-k)\n", True),
    # ...but not by what reads the counter, nor by a break
    ("start = 0\nwhile start < len(rows):\n    out.append(rows[start])\n"
     "    start += step\n    out.append(start)\n", False),
    ("start = 0\nwhile start < len(rows):\n    out.append(rows[start])\n"
     "    start += step\n    if out[-1] > 8:\n        break\n", False),
])
def test_a_while_loop_is_read_as_a_for_loop_only_where_it_counts_through_a_range(source,
                                                                                  counted):
    """Unit: `_counted_whiles`, and the same values either way where it applies."""
    from crashpredict._dryrun._fastforward import _counted_whiles

    def namespace():
        return {"rows": [3, 1, 4, 1, 5, 9, 2, 6], "out": [], "step": 3, "back": -1}

    tree = _counted_whiles(ast.parse(source), namespace())
    assert any(isinstance(n, ast.For) for n in tree.body) is counted, source
    if counted:
        as_written, as_read = namespace(), namespace()
        exec(compile(source, "<cell>", "exec"), as_written)  # noqa: S102 - the cell
        exec(compile(tree, "<cell>", "exec"), as_read)  # noqa: S102
        as_written.pop("__builtins__"), as_read.pop("__builtins__")
        counter = next(n.test.left.id for n in ast.parse(source).body
                       if isinstance(n, ast.While))
        as_written.pop(counter), as_read.pop(counter)  # one step past, or the last number
        assert as_written == as_read, source


def test_a_while_loop_over_a_frames_chunks_counts_through_a_range():
    """Unit: ``events.iloc[pos:pos + n].copy()`` selects a chunk and changes no frame, so
    a ``while`` loop whose stop is ``len(events)`` still counts through a range; a chunk
    filled in place (``inplace=True``) may write through to the frame, and does not."""
    import pandas as pd
    from crashpredict._dryrun._fastforward import _counted_whiles

    def namespace():
        return {"events": pd.DataFrame({"a": range(23), "b": [1.0, None] * 11 + [2.0]}),
                "parts": []}

    source = ("pos, n = 0, 5\nwhile pos < len(events):\n"
              "    chunk = events.iloc[pos:pos + n].copy()\n"
              "    parts.append(chunk['a'].sum() + chunk.loc[:, 'b'].fillna(0).sum())\n"
              "    pos += n\n")
    tree = _counted_whiles(ast.parse(source), namespace())
    assert isinstance(tree.body[1], ast.For), ast.unparse(tree)
    as_written, as_read = namespace(), namespace()
    exec(compile(source, "<cell>", "exec"), as_written)  # noqa: S102 - the cell
    exec(compile(tree, "<cell>", "exec"), as_read)  # noqa: S102
    assert as_written["parts"] == as_read["parts"] and len(as_read["parts"]) == 5
    in_place = source.replace("chunk = events.iloc[pos:pos + n].copy()",
                              "events.iloc[pos:pos + n].fillna(0, inplace=True)")
    tree = _counted_whiles(ast.parse(in_place), namespace())
    assert not any(isinstance(n, ast.For) for n in tree.body), ast.unparse(tree)


def _engagement(empty_at: int | None = BAD) -> dict:
    """Forty users' sessions; the user at ``empty_at`` has none (a filter upstream)."""
    import random

    rng = random.Random(3)
    users = {f"u{u:03d}": [{"pages": rng.randint(1, 30), "seconds": rng.randint(5, 900)}
                           for _ in range(rng.randint(1, 12))] for u in range(ITEMS)}
    if empty_at is not None:
        users[f"u{empty_at:03d}"] = []
    return {"time": time, "users": users, "deque": collections.deque}


QUEUE = """
pending = {queue}(sorted(users))
report = {{}}
while pending:
    uid = pending.{take}
    time.sleep({step})
    sessions = users[uid]
    pages = sum(s["pages"] for s in sessions)
    report[uid] = {{"pages_per_session": pages / {count},
                   "secs_per_page": sum(s["seconds"] for s in sessions) / max(pages, 1)}}
"""


@pytest.mark.parametrize("queue, take", [("list", "pop(0)"), ("list", "pop()"),
                                         ("deque", "popleft()")])
def test_a_bad_item_of_a_drained_queue_is_met_newest_first(queue, take):
    """A ``while`` loop that takes users off a sorted queue one by one: the 37th of 40 has
    no sessions, and its pages per session divide by zero, late in the real run. The loop
    is the ``for`` over the queue's items it is (`_drained`): cut, its skipped users run
    newest first, and the empty one fails on its own values. Its fix counts at least one
    session. Taken from the back (``pop()``), the empty user is the fourth: the run meets
    it before any cut. A ``collections.deque`` of the ids drains the same way."""
    cell = QUEUE.format(queue=queue, take=take, step=STEP_S, count="len(sessions)")
    assert _raised_type(cell, _engagement()) == "ZeroDivisionError"
    result, verdict = _beside_the_cell(_engagement(), cell)
    assert (verdict.crash, verdict.exception, verdict.line) == \
        (True, "ZeroDivisionError", 9), (verdict, result)
    if take != "pop()":
        assert any(c.startswith("while pending (line 4 of the cell)") for c in result.cuts), \
            result.cuts
        assert result.swept_iteration, result
    fixed = QUEUE.format(queue=queue, take=take, step=STEP_S, count="max(len(sessions), 1)")
    assert _raised_type(fixed, _engagement()) is None
    result, verdict = _beside_the_cell(_engagement(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("source, drained", [
    ("q = list(rows)\nwhile q:\n    r = q.pop(0)\n    out.append(r * 2)\n", True),
    ("q = sorted(rows)\nwhile q:\n    r = q.pop()\n    out.append(r)\n", True),
    ("q = [r + 1 for r in rows]\nwhile q:\n    r = q.pop(-1)\n    if r > 4:\n"
     "        continue\n    out.append(r)\n", True),
    ("q = deque(rows)\nwhile q:\n    r = q.popleft()\n    out.append(r)\n", True),
    ("while dq:\n    r = dq.pop()\n    out.append(r)\n", True),
    ("while rows:\n    r = rows.pop(0)\n    out.append(r)\n    if r == 4:\n        break\n",
     True),
    # the body names the queue, or a function of the notebook it calls does
    ("q = list(rows)\nwhile q:\n    r = q.pop(0)\n    if r > 3:\n        q.append(r - 3)\n",
     False),
    ("q = list(rows)\nwhile q:\n    r = q.pop(0)\n    out.append(len(q))\n", False),
    ("q = list(rows)\nwhile q:\n    r = q.pop(0)\n    seen(r)\n", False),
    ("q = list(rows)\nwhile q:\n    r = q.pop(0)\n    note(r)\n", False),
    ("def more(r):\n    q.append(r)\nq = list(rows)\nwhile q:\n    r = q.pop(0)\n"
     "    if r > 3:\n        more(r - 3)\n", False),
    # the queue read after the loop, taken from elsewhere, of a kind not known, an else
    ("q = list(rows)\nwhile q:\n    r = q.pop(0)\n    out.append(r)\nleft = q\n", False),
    ("q = list(rows)\nwhile q:\n    r = q.pop(1)\n    out.append(r)\n", False),
    ("q = make(rows)\nwhile q:\n    r = q.pop(0)\n    out.append(r)\n", False),
    ("while table:\n    r = table.pop(0)\n    out.append(r)\n", False),
    ("q = list(rows)\nwhile q:\n    r = q.pop(0)\n    out.append(r)\nelse:\n    pass\n",
     False),
    ("q = list(rows)\nq = q[1:]\nwhile q:\n    r = q.pop(0)\n    out.append(r)\n", False),
    # the cell's own import makes the deque; an item unpacked into names
    ("import collections\nq = collections.deque(rows)\nwhile q:\n    r = q.popleft()\n"
     "    out.append(r)\n", True),
    ("from collections import deque as Q\nq = Q(zip(rows, rows[1:]))\nwhile q:\n"
     "    r, s = q.popleft()\n    out.append(r * s)\n", True),
    # ...not where the import comes after the queue is made, inside a function, or the
    # name is bound again; nor where the unpacking binds the queue
    ("from collections import deque as Q\nq = Q(rows)\nfrom queue import Queue as Q\n"
     "while q:\n    r = q.popleft()\n    out.append(r)\n", False),
    ("q = Q(rows)\nfrom collections import deque as Q\nwhile q:\n    r = q.popleft()\n"
     "    out.append(r)\n", False),
    ("def f():\n    from collections import deque as Q\nq = Q(rows)\nwhile q:\n"
     "    r = q.popleft()\n    out.append(r)\n", False),
    ("from collections import deque as Q\nQ = list\nq = Q(rows)\nwhile q:\n"
     "    r = q.pop()\n    out.append(r)\n", False),
    ("q = list(rows)\nwhile q:\n    r, q = q.pop(0), [1]\n    out.append(r)\n", False),
])
def test_a_while_loop_is_read_as_a_for_loop_over_a_queue_only_where_it_drains_it(source,
                                                                                  drained):
    """Unit: `_drained`, and the same values either way where it applies."""
    from crashpredict._dryrun._fastforward import _counted_whiles

    def namespace():
        values = {"rows": [3, 1, 4, 1, 5, 9, 2, 6], "out": [], "deque": collections.deque,
                  "dq": collections.deque([7, 8, 9]), "table": {0: "a", 1: "b"},
                  "make": lambda rows: list(rows)}
        exec("def seen(r):\n    q.append(r)\n\n\ndef note(r):\n    seen(r)\n",  # noqa: S102
             values)  # the notebook's functions: one names the queue, one calls it
        return values

    tree = _counted_whiles(ast.parse(source), namespace())
    assert any(isinstance(n, ast.For) for n in tree.body) is drained, ast.unparse(tree)
    if drained:
        as_written, as_read = namespace(), namespace()
        exec(compile(source, "<cell>", "exec"), as_written)  # noqa: S102 - the cell
        exec(compile(tree, "<cell>", "exec"), as_read)  # noqa: S102
        # the queue: drained, or as it was; what the body made of its items: the same
        assert (as_written["out"], as_written["r"]) == (as_read["out"], as_read["r"]), source


def _readings(duplicated_in: int | None = BAD) -> dict:
    """Forty months of readings from three sensors, every 5 minutes for a day each; the
    month at ``duplicated_in`` holds readings sent twice (the same time and sensor)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(11)
    parts = []
    for month in pd.period_range("2021-01", periods=ITEMS, freq="M"):
        times = pd.date_range(month.start_time, periods=288, freq="5min")
        part = pd.DataFrame({"ts": np.repeat(times, 3), "sensor": ["t", "p", "h"] * 288,
                             "value": rng.normal(20, 3, 864)})
        if month == pd.Period("2021-01", "M") + (duplicated_in or 0) and \
                duplicated_in is not None:
            part = pd.concat([part, part.iloc[100:130].assign(value=0.0)])
        parts.append(part.assign(month=month))
    return {"pd": pd, "time": time, "readings": pd.concat(parts, ignore_index=True)}


PIVOTS = """
from collections import deque

pending = deque(sorted(readings["month"].unique()))
hourly = {{}}
while pending:
    month = pending.popleft()
    time.sleep({step})
    part = readings[readings["month"] == month]{dedupe}
    wide = part.pivot(index="ts", columns="sensor", values="value")
    hourly[month] = wide.resample("1h").mean()
year = pd.concat(hourly.values())
"""


def test_a_months_duplicates_in_a_queue_of_periods_the_cell_imports_are_met():
    """A ``while`` loop drains a ``collections.deque`` of months, imported by the cell
    itself (it is not in the namespace), and pivots each month's readings: the 37th month
    of 40 holds readings sent twice, which ``pivot`` refuses, late in the real run. The
    loop is the ``for`` over the queue (`_drained`, the deque found by `_before`), and its
    months, ``Period`` values that nothing changes (`_constant_items`), are the queue's as
    it was made: the sweep meets the month first and counts it. Its fix drops the
    duplicates."""
    cell = PIVOTS.format(step=STEP_S, dedupe="")
    assert _raised_type(cell, _readings()) == "ValueError"
    result, verdict = _beside_the_cell(_readings(), cell)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 10), \
        (verdict, result)
    assert result.swept_iteration, result
    fixed = PIVOTS.format(step=STEP_S,
                          dedupe='.drop_duplicates(["ts", "sensor"], keep="last")')
    assert _raised_type(fixed, _readings()) is None
    result, verdict = _beside_the_cell(_readings(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def _country_frames(text_last: bool = True) -> dict:
    """Eight countries' frames of amounts; the last country's were exported as text with a
    currency sign."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(21)
    frames = {c: pd.DataFrame({"amount": rng.gamma(2.0, 40.0, 500).round(2)})
              for c in ["DE", "FR", "IT", "ES", "NL", "BE", "AT", "PL"]}
    if text_last:
        frames["PL"]["amount"] = [f"PLN {a:.2f}" for a in frames["PL"]["amount"]]
    return {"np": np, "pd": pd, "time": time, "deque": collections.deque,
            "country_frames": frames}


COUNTRY_QUEUE = """
queue = deque(country_frames.items())
profiles = {{}}
while queue:
    country, frame = queue.popleft()
    time.sleep({step})
    amounts = frame["amount"]{parse}.astype(float)
    profiles[country] = np.percentile(amounts, [10, 50, 90])
"""


def test_the_last_item_of_a_queue_of_pairs_keyed_by_its_name_runs_after_the_cut():
    """A queue of (country, frame) pairs, each country's profile stored under its name: the
    last country's amounts are text, late in the real run. The drained loop's pairs are
    unpacked (`_drained`), and a store keyed by the pair's name looks nothing up
    (`_last_kind`: "batches", not "" as a lookup by an unpacked target would make it), so
    the cut runs the last pair at once, where its own values fail. Its fix parses the
    sign away."""
    cell = COUNTRY_QUEUE.format(step=0.15, parse="")
    assert _raised_type(cell, _country_frames()) == "ValueError"
    result, verdict = _beside_the_cell(_country_frames(), cell)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 7), \
        (verdict, result)
    assert result.last_iteration and not result.swept_iteration, result
    fixed = COUNTRY_QUEUE.format(step=0.15, parse='.astype(str).str.replace("PLN ", "")')
    assert _raised_type(fixed, _country_frames()) is None
    result, verdict = _beside_the_cell(_country_frames(), fixed)
    assert verdict.crash is not True, (verdict, result)
    from crashpredict._dryrun._fastforward import _last_kind
    for source, kind in (("for k, v in list(q):\n    out[k] = f(v)\n", "batches"),
                         ("for k, v in list(q):\n    out.append(table[k] + v)\n", ""),
                         ("for k in list(q):\n    out[k] = f(k)\n", "sequence")):
        assert _last_kind(ast.parse(source).body[0]) == kind, source


def _sources(duplicated: bool = True) -> dict:
    """Four tables of features by customer; the last (the CRM's) has a customer twice."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(5)
    ids = np.arange(100, 160)
    crm = pd.DataFrame({"customer_id": ids, "segment": rng.choice(["smb", "ent"], 60)})
    if duplicated:
        crm = pd.concat([crm, crm.iloc[[34]].assign(segment="ent")], ignore_index=True)
    tables = [(name, pd.DataFrame({"customer_id": rng.choice(ids, 400),
                                   "value": rng.gamma(2.0, 40.0, 400)}), "sum")
              for name in ("orders", "web", "support")]
    return {"pd": pd, "time": time, "sources": [*tables, ("crm", crm, None)]}


FEATURE_BLOCKS = """
blocks = []
for i, (name, table, how) in enumerate(sources):
    time.sleep(0.25)
    if how is None:
        block = table{dedupe}.set_index("customer_id")
    else:
        block = table.groupby("customer_id").agg(how)
    blocks.append(block.add_prefix(f"{{name}}_"))
features = pd.concat(blocks, axis=1)
"""


def test_a_loop_whose_cut_would_skip_nothing_runs_whole():
    """Four tables' feature blocks, joined by customer after the loop: the CRM's, the last,
    holds a customer twice, and the join cannot align it. Cut after three, the loop would
    run its last item next and skip none: it runs whole, so the join's failure is the real
    run's. (Cut, it was not trusted: a cut may change what a join of the loop's work
    holds.) Its fix keeps each customer's last row."""
    cell = FEATURE_BLOCKS.format(dedupe="")
    assert _raised_type(cell, _sources()) == "InvalidIndexError"
    result, verdict = _beside_the_cell(_sources(), cell)
    assert (verdict.crash, verdict.exception, verdict.line) == \
        (True, "InvalidIndexError", 10), (verdict, result)
    assert not result.cut_before_crash and not result.cuts, result
    fixed = FEATURE_BLOCKS.format(dedupe='.drop_duplicates("customer_id", keep="last")')
    assert _raised_type(fixed, _sources()) is None
    result, verdict = _beside_the_cell(_sources(), fixed)
    assert verdict.crash is not True, (verdict, result)


SITE_FEATURES = """
per_site = {{}}
for site, g in readings.groupby("site"):
    time.sleep(0.25)
    g = g.dropna(axis=1, how="all")
    per_site[site] = np.linalg.lstsq(g[{columns}].to_numpy(), g["load"].to_numpy(),
                                     rcond=None)[0] @ weights
"""


def _site_readings() -> dict:
    """Four sites' readings; only the newest site (the last) has a humidity column."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(9)
    frames = [pd.DataFrame({"site": f"site_{s}", "temp": rng.normal(15, 8, 200),
                            "wind": rng.gamma(2.0, 3.0, 200), "load": rng.normal(50, 3, 200),
                            "humidity": rng.uniform(20, 90, 200) if s == 3 else np.nan})
              for s in range(4)]
    return {"np": np, "time": time, "readings": pd.concat(frames, ignore_index=True),
            "weights": np.ones(2)}


def test_a_groupby_whose_cut_would_skip_nothing_runs_whole():
    """Four sites, a quarter of a second each: the cut would come after three and skip the
    last, the only one with a humidity column, whose three coefficients do not fit the
    two weights. A groupby's groups are counted (its total), so that cut would skip no
    item but the one the real run runs next: the loop runs whole, though no last item is
    known, and its failure is the real run's. Its fix selects the shared columns."""
    cell = SITE_FEATURES.format(columns='g.columns.drop(["site", "load"])')
    assert _raised_type(cell, _site_readings()) == "ValueError"
    result, verdict = _beside_the_cell(_site_readings(), cell)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), \
        (verdict, result)
    assert not result.cut_before_crash and not result.cuts, result
    fixed = SITE_FEATURES.format(columns='["temp", "wind"]')
    assert _raised_type(fixed, _site_readings()) is None
    result, verdict = _beside_the_cell(_site_readings(), fixed)
    assert verdict.crash is not True, (verdict, result)


def _weekly_orders() -> dict:
    """A year of past orders by channel, and forty weekly batches to score; the 37th week
    sells through a channel the past never had (a kiosk)."""
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    rng = np.random.default_rng(8)
    channels = ["web", "store", "phone"]
    hist = pd.DataFrame({"channel": rng.choice(channels, 3000),
                         "basket": rng.gamma(2.0, 30.0, 3000)})
    hist["returned"] = (rng.random(3000) < 0.1).astype(int)
    weekly = [pd.DataFrame({"channel": rng.choice(channels + ["kiosk"] * (w == BAD), 60),
                            "basket": rng.gamma(2.0, 30.0, 60)}) for w in range(ITEMS)]
    return {"pd": pd, "time": time, "hist": hist, "weekly": weekly,
            "make_pipeline": make_pipeline, "OneHotEncoder": OneHotEncoder,
            "LogisticRegression": LogisticRegression}


WEEKLY_SCORING = """
model = make_pipeline(OneHotEncoder(handle_unknown="{unknown}"),
                      LogisticRegression(max_iter=1000))
model.fit(hist[["channel"]], hist["returned"])
risk = []
for week, batch in enumerate(weekly):
    time.sleep({step})
    risk.append(model.predict_proba(batch[["channel"]])[:, 1].mean())
{after}"""


def test_a_late_unknown_category_for_a_model_fitted_before_the_loop_is_met():
    """A pipeline fitted once, before the loop, scores forty weekly batches; the 37th holds
    a channel its encoder never saw, which it refuses, late in the real run. The cut run
    skips that week; the sweep meets it. The model is changed only by the statements
    before the loop (`_prepared_before`), so the skipped week meets it as the real run
    did; the fit's iterations were cut, but an encoder's unknown category is an input
    check that fewer iterations do not change. Its fix ignores unknown channels."""
    cell = WEEKLY_SCORING.format(unknown="error", step=STEP_S, after="")
    assert _raised_type(cell, _weekly_orders()) == "ValueError"
    result, verdict = _beside_the_cell(_weekly_orders(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 8), verdict
    fixed = WEEKLY_SCORING.format(unknown="ignore", step=STEP_S, after="")
    assert _raised_type(fixed, _weekly_orders()) is None
    result, verdict = _beside_the_cell(_weekly_orders(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_model_the_cell_changes_after_the_loop_is_not_the_swept_iterations():
    """A near miss, clean for real: the loop scores with unknown channels ignored, and only
    after it does the cell make the encoder refuse them. After the whole cell, the 37th
    week fails; the real run's did not. The model is changed after the loop: not claimed."""
    after = 'model.set_params(onehotencoder__handle_unknown="error")\n'
    cell = WEEKLY_SCORING.format(unknown="ignore", step=STEP_S, after=after)
    assert _raised_type(cell, _weekly_orders()) is None
    result, verdict = _beside_the_cell(_weekly_orders(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def _machines(dead: int | None = BAD) -> dict:
    """Forty machines' sensor readings; the ``dead`` one has a sensor stuck at zero."""
    import numpy as np

    rng = np.random.default_rng(3)
    readings = {}
    for m in range(ITEMS):
        x = rng.normal(size=(400, 4))
        if m == dead:
            x[:, 2] = 0.0
        readings[f"m{m:02d}"] = x
    return {"np": np, "time": time, "readings": readings}


MAHALANOBIS = """
scores = {{}}
for m, x in readings.items():
    time.sleep({step})
    xc = x - x.mean(axis=0)
    cov = xc.T @ xc / (len(x) - 1)
    scores[m] = np.einsum('ij,jk,ik->i', xc, np.linalg.{inverse}(cov), xc).max()
"""


def test_a_singular_machine_of_a_dicts_items_is_met_after_the_cell():
    cell = MAHALANOBIS.format(step=STEP_S, inverse="inv")
    assert _raised_type(cell, _machines()) == "LinAlgError"
    result, verdict = _beside_the_cell(_machines(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception) == (True, "LinAlgError"), verdict
    fixed = MAHALANOBIS.format(step=STEP_S, inverse="pinv")
    assert _raised_type(fixed, _machines()) is None
    result, verdict = _beside_the_cell(_machines(), fixed)
    assert verdict.crash is not True, (verdict, result)


def _orders() -> dict:
    """1,500 orders; the 1,401st has its amount as ``'n/a'`` (fewer rows than the sibling on
    the first rows takes: the sweep alone finds it)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(11)
    amounts = [f"{v:.2f}" for v in rng.lognormal(4, 1, 1500)]
    amounts[1400] = "n/a"
    return {"pd": pd, "time": time,
            "orders": pd.DataFrame({"id": np.arange(1500), "amount": amounts,
                                    "qty": rng.integers(1, 9, 1500)})}


ROWS = """
spent = []
for {target} in orders.{method}:
    time.sleep(0.0006)
    spent.append({amount} * {qty})
"""


@pytest.mark.parametrize(("target", "method", "amount", "qty"), [
    ("i, row", "iterrows()", "float(row['amount'])", "row['qty']"),
    ("row", "itertuples(index=False)", "float(row.amount)", "row.qty"),
])
def test_a_bad_row_late_in_a_row_loop_is_met_newest_first(target, method, amount, qty):
    cell = ROWS.format(target=target, method=method, amount=amount, qty=qty)
    assert _raised_type(cell, _orders()) == "ValueError"
    result, verdict = _beside_the_cell(_orders(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 5), verdict
    fixed = cell.replace(amount, f"pd.to_numeric({amount.replace('float(', '')[:-1]}, "
                                 "errors='coerce')")
    assert _raised_type(fixed, _orders()) is None
    result, verdict = _beside_the_cell(_orders(), fixed)
    assert verdict.crash is not True, (verdict, result)


def _stores() -> dict:
    """Forty stores' daily sales; store 36 never reported a value (all NaN)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(9)
    frame = pd.DataFrame({"store": np.repeat(np.arange(ITEMS), 50),
                          "t": np.tile(np.arange(50)[::-1], ITEMS),
                          "v": rng.random(ITEMS * 50)})
    frame.loc[frame["store"] == BAD, "v"] = np.nan
    return {"np": np, "pd": pd, "time": time, "sales": frame}


STORES = """
firsts = []
for key, g in sales.groupby('store'):
    time.sleep({step})
    g = g.sort_values('t')
    firsts.append({first})
firsts = pd.Series(firsts)
"""


def test_a_late_group_of_a_groupby_is_met_with_the_list_the_cell_rebound_restored():
    """The 37th store of 40 has no value: ``.iloc[0]`` of its values fails, late in the real
    run. The sweep reads the groupby's groups again, newest first; the group is rebound from
    its own values first (``g = g.sort_values('t')``); and ``firsts``, which the cell made
    a series after the loop, is the loop's list again while the skipped groups run (a
    series has no ``append``: the bad group's own value would never be read)."""
    cell = STORES.format(step=STEP_S, first="g['v'].dropna().iloc[0]")
    assert _raised_type(cell, _stores()) == "IndexError"
    result, verdict = _beside_the_cell(_stores(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "IndexError", 6), verdict
    fixed = STORES.format(step=STEP_S, first="g['v'].dropna().iloc[0] if g['v'].notna().any() "
                                              "else float('nan')")
    assert _raised_type(fixed, _stores()) is None
    result, verdict = _beside_the_cell(_stores(), fixed)
    assert verdict.crash is not True, (verdict, result)


def _months(one_class: int | None = BAD) -> dict:
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LogisticRegression, SGDClassifier

    rng = np.random.default_rng(2)
    data = pd.DataFrame({"month": np.repeat(np.arange(ITEMS), 60), "a": rng.random(ITEMS * 60),
                         "b": rng.random(ITEMS * 60), "y": rng.integers(0, 2, ITEMS * 60)})
    if one_class is not None:
        data.loc[data["month"] == one_class, "y"] = 0  # that month's labels are one class
    return {"np": np, "pd": pd, "time": time, "LogisticRegression": LogisticRegression,
            "SGDClassifier": SGDClassifier, "data": data, "rng": np.random.default_rng(0)}


MONTHS = """
def fit_month(X, y):
    return LogisticRegression(max_iter=500).fit(X, y)

coefs = []
for m in range(40):
    time.sleep({step})
    part = data[data['month'] == m]
    model = {fit}
    coefs.append(model.coef_[0])
    boot = rng.integers(0, len(part), len(part))
coefs = np.array(coefs)
"""


def test_a_month_of_one_class_fails_in_a_function_of_the_cell_fitted_whole():
    """The 37th month's labels are all one class; the fit raises for it, in a function the
    cell defines before the loop, which reads only its arguments and a library's class. Its
    fits are cut to two iterations in the cut run, but run whole in the sweep, as the real
    run's. The bootstrap draw comes after the fit: it does not make the fit doubtful."""
    cell = MONTHS.format(step=STEP_S, fit="fit_month(part[['a', 'b']], part['y'])")
    assert _raised_type(cell, _months()) == "ValueError"
    result, verdict = _beside_the_cell(_months(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 3), verdict
    fixed = MONTHS.format(step=STEP_S, fit="fit_month(part[['a', 'b']], part['y']) if "
                                           "part['y'].nunique() > 1 else model")
    assert _raised_type(fixed, _months()) is None
    result, verdict = _beside_the_cell(_months(), fixed)
    assert verdict.crash is not True, (verdict, result)


# ---- near misses: clean for real, where a sweep that trusted what it sees would warn -----

def _text_frames() -> dict:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(5)
    frames = [pd.DataFrame({"amount": [f"{v:,.2f}" for v in rng.lognormal(7, 1, 200)]})
              for _ in range(ITEMS)]
    return {"np": np, "pd": pd, "time": time, "frames": frames}


def test_the_last_item_already_run_after_the_cut_is_not_run_again():
    """The cut run's last iteration converted the last frame's column in place; run again,
    its ``.str`` would meet numbers. The sweep starts one before it."""
    cell = ("for df in frames:\n    time.sleep(%s)\n"
            "    df['amount'] = df['amount'].str.replace(',', '').astype(float)\n" % STEP_S)
    assert _raised_type(cell, _text_frames()) is None
    result, verdict = _beside_the_cell(_text_frames(), cell)
    assert result.outcome == "completed" and verdict.crash is not True, (verdict, result)
    assert any("newest first" in c for c in result.cuts), result.cuts


def test_items_a_later_loop_changes_in_place_are_not_judged():
    """A second loop over the same frames, newest first, converts them after the first:
    the real run's first loop saw texts everywhere; the sweep would meet the frames the
    cut second loop converted (the 39th). What the loop runs over is named again: nothing
    swept is judged."""
    cell = ("lengths = []\nfor df in frames:\n    time.sleep(%s)\n"
            "    lengths.append(df['amount'].str.len().sum())\n"
            "for df in frames[::-1]:\n"
            "    df['amount'] = pd.to_numeric(df['amount'].str.replace(',', ''))\n" % STEP_S)
    assert _raised_type(cell, _text_frames()) is None
    result, verdict = _beside_the_cell(_text_frames(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_an_item_the_cell_changes_by_another_name_is_not_judged():
    """The cell puts a NaN into the 39th frame, by another name, after the loop: the real
    loop met it whole; the sweep would meet the NaN."""
    namespace = _text_frames()
    frames = namespace["frames"]
    for df in frames:
        df["amount"] = df["amount"].str.replace(",", "").astype(float)
    namespace["late"] = frames[-2]
    cell = ("counts = []\nfor df in frames:\n    time.sleep(%s)\n"
            "    counts.append(df['amount'].astype(int).sum())\n"
            "late.loc[0, 'amount'] = np.nan\n" % STEP_S)
    truth = _text_frames()
    for df in truth["frames"]:
        df["amount"] = df["amount"].str.replace(",", "").astype(float)
    truth["late"] = truth["frames"][-2]
    assert _raised_type(cell, truth) is None
    result, verdict = _beside_the_cell(namespace, cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_global_setting_made_after_the_loop_is_not_the_loops():
    """``np.seterr(all='raise')`` after the loop: the real loop divided by the zero
    machine's maximum with a warning only; the sweep would raise. Nothing is judged."""
    namespace = _machines()
    cell = ("import warnings\nwarnings.simplefilter('ignore')\nratios = []\n"
            "for m, x in readings.items():\n    time.sleep(%s)\n"
            "    ratios.append(float(np.abs(x[:, 2]).max() ** -1))\n"
            "old = np.seterr(all='raise')\n" % STEP_S)
    cell = cell.replace("** -1", "** -1.0")
    truth = _machines()
    try:
        assert _raised_type(cell, truth) is None
    finally:
        import numpy as np
        np.seterr(**truth["old"])
    result, verdict = _beside_the_cell(namespace, cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def _windows() -> dict:
    """Forty overlapping windows of one array (views), the first nine values at 2."""
    import math

    import numpy as np

    base = np.ones(9 * ITEMS + 50)
    base[:9] = 2.0
    return {"math": math, "time": time,
            "windows": [base[i:i + 50] for i in range(0, 9 * ITEMS, 9)]}


def test_items_that_overlap_what_an_iteration_changes_in_place_are_not_judged():
    """Each window doubles itself in place, so the next window's first value, shared with
    it, is 2 or more when its iteration reads it: the real run is clean. The last window,
    run after the cut, and the ones the sweep runs meet values the skipped iterations
    never doubled. The loop changes its items in place and they are arrays: neither its
    last iteration nor a swept one is judged."""
    cell = ("checks = []\nfor w in windows:\n    time.sleep(%s)\n"
            "    checks.append(math.sqrt(float(w[0]) - 2.0))\n    w[:] *= 2\n" % STEP_S)
    assert _raised_type(cell, _windows()) is None
    result, verdict = _beside_the_cell(_windows(), cell)
    assert result.outcome == "crashed" and result.exception == "ValueError", result
    assert not (result.last_iteration or result.swept_iteration), result
    assert verdict.crash is not True, (verdict, result)


def test_a_function_of_the_cell_that_keeps_state_is_not_judged():
    """``ratio`` counts its calls in a list of an earlier cell: in the real run the count
    is always one more than the value; the sweep's calls come after the cut run's, in
    another order (the 39th value at the 27th call: a square root of a negative). The
    function reads a global that is no module, class, number or text: nothing swept is
    judged."""
    cell = ("import math\ndef ratio(v):\n    calls.append(1)\n    return math.sqrt(len(calls) - v)\n"
            "out = []\nfor x in values:\n    time.sleep(%s)\n    out.append(ratio(x))\n" % STEP_S)
    assert _raised_type(cell, {"time": time, "values": [float(v) for v in range(ITEMS)],
                               "calls": []}) is None
    result, verdict = _beside_the_cell(
        {"time": time, "values": [float(v) for v in range(ITEMS)], "calls": []}, cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    assert any("newest first" in c for c in result.cuts), result.cuts


def test_a_file_the_cell_rewrites_after_the_loop_is_not_judged(tmp_path):
    """After the loop the cell rewrites the 39th export with separators: the real loop read
    it clean; the sweep would read it rewritten. A cell that writes files and reads some:
    nothing swept is judged."""
    def cell(folder):
        return MONTHLY.format(step=STEP_S, read="") + (
            f"bad = pd.read_csv('{folder}/month_38.csv')\n"
            "bad['amount'] = bad['amount'].map('{:,.2f}'.format)\n"
            f"bad.to_csv('{folder}/month_38.csv', index=False)\n")
    truth = _exports(tmp_path / "truth", separators_at=None)
    assert _raised_type(cell(truth["folder"]), truth) is None
    run = _exports(tmp_path / "run", separators_at=None)
    result, verdict = _beside_the_cell(run, cell(run["folder"]))
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_swept_iteration_fits_whole_as_the_real_one_does():
    """Each month's fit runs its 30 epochs (``tol=None``), and, from the 31st month, the
    cell divides by the epochs after the first two: the real run is clean. The cut run's
    fits keep two epochs (its kept months do not divide); the sweep's fits run whole, and
    divide by 28."""
    cell = ("rates = []\nfor m in range(40):\n    time.sleep(%s)\n"
            "    part = data[data['month'] == m]\n"
            "    clf = SGDClassifier(max_iter=30, tol=None, random_state=0).fit(part[['a', 'b']], "
            "part['y'])\n    if m >= 30:\n        rates.append(1.0 / (clf.n_iter_ - 2))\n"
            % STEP_S)
    assert _raised_type(cell, _months(None)) is None
    result, verdict = _beside_the_cell(_months(None), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


# ---- what is swept, and how its items are read ------------------------------------------------

def _loop(source: str) -> ast.For:
    return next(n for n in ast.parse(source).body if isinstance(n, ast.For))


@pytest.mark.parametrize(("source", "itemwise"), [
    ("for f in files:\n    df = read(f)\n", True),
    ("for i in range(9):\n    out.append(x[i])\n", True),
    ("for epoch in range(9):\n    train()\n    print(epoch, loss)\n", False),
    ("for epoch in range(9):\n    bar.set_description(f'epoch {epoch}')\n    step()\n", False),
    ("for f in files:\n    if f.endswith('x'):\n        break\n    read(f)\n", False),
    ("for f in files:\n    for line in f:\n        break\n    read(f)\n", True),
])
def test_only_loops_that_work_item_by_item_and_end_at_their_end_are_swept(source, itemwise):
    assert _itemwise(_loop(source)) is itemwise
    loops: dict = {}
    rewrite_cell(ast.parse(source), loops)
    assert loops[0].sweep is itemwise


def test_a_loop_inside_a_function_or_another_statement_is_not_swept():
    loops: dict = {}
    rewrite_cell(ast.parse("def f(files):\n    for f in files:\n        read(f)\n"
                           "if ok:\n    for f in files:\n        read(f)\n"), loops)
    assert [info.sweep for info in loops.values()] == [False, False]


def test_the_items_are_read_from_the_last_back_without_iterating():
    import collections

    import numpy as np
    import pandas as pd

    def items(value, done):
        found = _positions(value, done)
        return None if found is None else [(p, v if not hasattr(v, "tolist") else v.tolist())
                                           for p, v in found]

    assert items([1, 2, 3, 4], 2) == [(3, 4), (2, 3)]
    assert items(range(0, 10, 3), 1) == [(3, 9), (2, 6), (1, 3)]
    assert items({"a": 1, "b": 2, "c": 3}.items(), 1) == [(2, ("c", 3)), (1, ("b", 2))]
    assert items(collections.Counter("aab"), 0) == [(1, "b"), (0, "a")]
    assert items(np.arange(6).reshape(3, 2), 2) == [(2, [4, 5])]
    assert items(pd.Series([5, 6, 7], index=[9, 8, 7]), 1) == [(2, 7), (1, 6)]
    assert items(pd.DataFrame({"x": [1], "y": [2]}), 0) == [(1, "y"), (0, "x")]
    assert items(iter([1, 2]), 0) is None
    assert items((x for x in [1]), 0) is None


def test_rows_read_one_by_one_are_those_the_whole_frames_methods_yield():
    import numpy as np
    import pandas as pd

    frame = pd.DataFrame({"n": [1, 2, 3], "x": [0.5, np.nan, 2.0], "s": ["a", None, "c"],
                          "t": pd.to_datetime(["2024-01-01", "2024-02-01", "2024-03-01"])},
                         index=[10, 20, 30])
    for source, method, args in [(frame, "itertuples", ()), (frame, "itertuples", (False, None)),
                                 (frame["n"], "items", ()), (frame["t"], "items", ())]:
        expected = list(getattr(source, method)(*args))
        read = [item for _, item in _positions(_Rows(source, method, args, ()), 0)][::-1]
        assert repr(read) == repr(expected)
        assert [[type(v) for v in got] for got in read] == \
            [[type(v) for v in want] for want in expected]
    columns = [item for _, item in _positions(_Rows(frame, "items", (), ()), 0)][::-1]
    assert repr([(label, list(values.items())) for label, values in columns]) == \
        repr([(label, list(values.items())) for label, values in frame.items()])
    rows = [item for _, item in _positions(_Rows(frame, "iterrows", (), ()), 1)][::-1]
    for (label, row), (want_label, want_row) in zip(rows, list(frame.iterrows())[1:]):
        assert label == want_label and row.equals(want_row) and row.dtype == want_row.dtype
    assert _positions(_Rows(frame["n"], "iterrows", (), ()), 0) is None


def test_draws_up_to_the_failing_statement_or_a_container_named_again_are_not_judged():
    """Unit: a draw of random numbers on the way to the failing statement makes it
    doubtful (the sweep draws others), one after it does not; what the whole cell changes
    is not worked out (None) where the cell names the loop's container outside its header."""
    import numpy as np

    for source, draws in (("for f in files:\n    a = read(f)\n    b = check(a)\n"
                           "    k = rng.integers(9)\n", (False, False, True)),
                          ("for f in files:\n    k = np.random.rand()\n    b = check(f)\n",
                           (True, True))):
        loop = ast.parse(source).body[0]
        assert tuple(_draws_before(loop, statement) for statement in loop.body) == draws
    namespace = {"np": np, "files": ["a"], "handle": print}
    for source, changed in (("for f in files:\n    handle(f)\nfiles.sort()\n", None),
                            ("for f in files:\n    handle(f)\n", {"f"})):
        tree = ast.parse(source)
        cutter = Cutter({0: LoopInfo(0, 1, "", "the cell", sweep=True)}, cell_tree=tree)
        assert cutter._changed_by_cell(namespace, tree.body[0], 0) == changed, source


# ---- arrays collected by a cut loop, stacked after it ----------------------------------------

def _images(rows: int = ITEMS * 32 - 7) -> dict:
    """Forty batches of 32 small images, the last one 7 short."""
    import numpy as np

    rng = np.random.default_rng(5)
    return {"np": np, "time": time, "images": rng.random((rows, 8, 8))}


STACKED = """
feats = []
for start in range(0, len(images), 32):
    time.sleep({step})
    batch = images[start:start + 32]
    gx, gy = np.gradient(batch, axis=(1, 2))
    feats.append(np.stack([batch.mean(axis=(1, 2)), np.hypot(gx, gy).std(axis=(1, 2))], axis=1))
{between}X = {join}
"""


@pytest.mark.parametrize("join, fixed", [
    ("np.stack(feats)", "np.concatenate(feats)"),
    ("np.array(feats)", "np.vstack(feats)"),
])
def test_arrays_that_do_not_fit_together_are_stacked_as_in_the_whole_run(join, fixed):
    """The last batch is smaller: stacking the batches' features fails. The cut run's list
    holds the first batches and the last, each made from its own batch alone, so its
    failure is the whole run's: warned at once, before any sweep. Joined row after row,
    they fit."""
    cell = STACKED.format(step=STEP_S, between="", join=join)
    assert _raised_type(cell, _images()) == "ValueError"
    started = time.perf_counter()
    result, verdict = _beside_the_cell(_images(), cell)
    assert result.stacks_kept and not result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 8), verdict
    assert any("do not fit together" in line for line in verdict.evidence), verdict.evidence
    assert not any("newest first" in c for c in result.cuts), result.cuts
    assert time.perf_counter() - started < ITEMS * STEP_S * 4  # not the whole loop's work
    fixed_cell = STACKED.format(step=STEP_S, between="", join=fixed)
    assert _raised_type(fixed_cell, _images()) is None
    result, verdict = _beside_the_cell(_images(), fixed_cell)
    assert verdict.crash is not True and not result.stacks_kept, (verdict, result)


def _sessions() -> dict:
    """Twelve sensor sessions of three channels, each a few hundred windows long."""
    import numpy as np

    rng = np.random.default_rng(8)
    return {"np": np, "time": time, "WIN": 64, "STEP": 16,
            "sessions": {f"P{k:02d}": rng.normal(size=(int(rng.integers(300, 400)) * 16 + 9, 3))
                         for k in range(12)}}


SESSION_WINDOWS = """
windows, feats, owners = [], [], []
for pid, sig in sessions.items():
    for start in range(0, len(sig){end}, STEP):
        time.sleep({step})
        w = sig[start:start + WIN]
        feats.append(np.concatenate([w.mean(0), w.std(0)]))
        windows.append(w)
        owners.append(pid)
X_raw = np.stack(windows)
"""


def test_windows_collected_by_a_cut_inner_loop_are_stacked_as_in_the_whole_run():
    """Each session's windows run to its end, so its last ones are short: stacking them
    fails. The outer loop runs whole, each session's inner loop is cut to its first windows
    and its last, each made from its own session and start alone (the other lists the
    iteration grows change none of them): the cut run's list is some of the real run's
    windows, the short ones among them, so its failure is the real run's. Its fix stops
    at the last whole window."""
    cell = SESSION_WINDOWS.format(end="", step=0.002)
    assert _raised_type(cell, _sessions()) == "ValueError"
    result, verdict = _beside_the_cell(_sessions(), cell)
    assert result.stacks_kept and result.cuts, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 10), verdict
    fixed = SESSION_WINDOWS.format(end=" - WIN + 1", step=0.002)
    assert _raised_type(fixed, _sessions()) is None
    result, verdict = _beside_the_cell(_sessions(), fixed)
    assert verdict.crash is not True and not result.stacks_kept, (verdict, result)


def test_what_a_session_keeps_across_its_cut_inner_loop_is_not_the_real_runs():
    """A rolling buffer of every window so far, and per session the last 100 of it: the
    real run's buffer always holds 100, the cut run's fewer, growing, so its stack fails
    where the real one does not. The buffer is the cut loop's: nothing is warned."""
    cell = ("buf, windows = [], []\nfor pid, sig in sessions.items():\n"
            "    for start in range(0, len(sig) - WIN + 1, STEP):\n        time.sleep(0.002)\n"
            "        buf.append(sig[start:start + WIN])\n"
            "    windows.append(np.stack(buf[-100:]))\nX = np.stack(windows)\n")
    assert _raised_type(cell, _sessions()) is None
    result, verdict = _beside_the_cell(_sessions(), cell)
    assert verdict.crash is not True and not result.stacks_kept, (verdict, result)


def _regression_loaders() -> dict:
    """A training loader of 30 batches and a validation loader whose last batch holds one
    row (64 * 20 + 1 rows)."""
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset

    generator = torch.Generator().manual_seed(3)
    X, Xv = torch.randn(64 * 30, 8, generator=generator), torch.randn(64 * 20 + 1, 8,
                                                                      generator=generator)
    return {"torch": torch, "nn": nn, "time": time,
            "train_loader": DataLoader(TensorDataset(X, X.sum(1)), batch_size=64),
            "val_loader": DataLoader(TensorDataset(Xv, Xv.sum(1)), batch_size=64)}


VALIDATION = """
model = {model}
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for xb, yb in train_loader:
    time.sleep({step})
    opt.zero_grad()
    loss = ((model(xb).squeeze(-1) - yb) ** 2).mean()
    loss.backward()
    opt.step()
preds = []
with torch.no_grad():
    for xb, _ in val_loader:
        time.sleep({step})
        preds.append(model(xb).{squeeze})
val_pred = torch.cat(preds)
"""


def test_predictions_collected_under_no_grad_are_stacked_as_in_the_whole_run():
    """A model of torch's own layers, trained by a cut loop, predicts batch by batch under
    ``torch.no_grad()``; ``squeeze()`` makes the last batch's one prediction a
    zero-dimensional tensor, which ``torch.cat`` refuses. The ``with`` only turns
    gradients off (`_gradients_off`), and the model's outputs have the shapes its inputs
    give them however long it trained (`_library_layers`): the cut run's list holds the
    first predictions and the last, as the real run's does, so its failure is the real
    run's. Its fix squeezes the last axis only. A model of the notebook's own class may
    shape its outputs by their values: not claimed."""
    cell = VALIDATION.format(model="nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))",
                             step=STEP_S, squeeze="squeeze()")
    assert _raised_type(cell, _regression_loaders()) == "RuntimeError"
    result, verdict = _beside_the_cell(_regression_loaders(), cell)
    assert result.stacks_kept, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 15), verdict
    fixed = cell.replace("squeeze())", "squeeze(-1))")
    assert _raised_type(fixed, _regression_loaders()) is None
    result, verdict = _beside_the_cell(_regression_loaders(), fixed)
    assert verdict.crash is not True and not result.stacks_kept, (verdict, result)

    def own_class():
        namespace = _regression_loaders()
        exec("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"  # noqa: S102
             "        self.body = nn.Linear(8, 1)\n    def forward(self, x):\n"
             "        return self.body(x)\n", namespace)
        return namespace
    mine = VALIDATION.format(model="Net()", step=STEP_S, squeeze="squeeze()")
    assert _raised_type(mine, own_class()) == "RuntimeError"
    result, verdict = _beside_the_cell(own_class(), mine)
    assert not result.stacks_kept, result


EPOCHS = """
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
history = []
for epoch in range(3):
    preds = []
    for xb, yb in train_loader:
        time.sleep({step})
        out = model(xb)
        loss = ((out.squeeze(-1) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        preds.append(out.detach().squeeze())
    history.append(torch.cat(preds))
last_epoch = torch.{join}(preds)
"""


@pytest.mark.parametrize("join", ["stack", "cat"])
def test_predictions_collected_anew_each_epoch_are_stacked_as_in_the_whole_run(join):
    """Each epoch makes its list of the batches' predictions anew (``preds = []`` at the
    epoch's start) while training; after the epochs the cell stacks the last epoch's
    list, whose last batch is smaller: ``torch.stack`` refuses it. The epoch loop runs
    whole around the cut batch loop, so after it the list holds the cut run's last epoch's
    first predictions and its last, as the real run's holds them among all: the failure is
    the real run's. The optimizer's calls change the weights, never a shape
    (`_steps_weights`), and the epoch's ``torch.cat`` of the list makes a new tensor
    (`_copied_only`). The fix concatenates."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    def loaders() -> dict:
        namespace = _regression_loaders()
        generator = torch.Generator().manual_seed(5)
        X = torch.randn(64 * 30 + 9, 8, generator=generator)
        namespace["train_loader"] = DataLoader(TensorDataset(X, X.sum(1)), batch_size=64)
        return namespace

    cell = EPOCHS.format(step=STEP_S, join=join)
    assert _raised_type(cell, loaders()) == ("RuntimeError" if join == "stack" else None)
    result, verdict = _beside_the_cell(loaders(), cell)
    if join == "cat":
        assert verdict.crash is not True and not result.stacks_kept, (verdict, result)
    else:
        assert result.stacks_kept, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 16), \
            verdict


FORECASTER = """
class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 8, batch_first=True)
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        h0 = torch.zeros(1, {batch}, 8)
        c0 = torch.zeros(1, {batch}, 8)
        out, _ = self.lstm(x, (h0, c0))
        return self.head(out[:, -1])

model = Forecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for xb, yb in train_loader:
    time.sleep({step})
    opt.zero_grad()
    loss = ((model(xb) - yb) ** 2).mean()
    loss.backward()
    opt.step()
model.eval()
with torch.no_grad():
    val_pred = torch.cat([model(xb) for xb, _ in val_loader])
"""


@pytest.mark.parametrize("batch", ["32", "x.size(0)"])
def test_a_validation_under_no_grad_after_a_cut_training_loop_fails_as_the_real_one(batch):
    """A forecaster of the notebook's own class builds its LSTM's hidden state for the
    training batch size; trained by a loop of full batches (cut), it then predicts the
    validation batches in a comprehension under ``torch.no_grad()``, whose last batch is
    smaller: the LSTM refuses the hidden state's size. The statement is held by a
    ``with`` that only turns gradients off (`_after_the_loops`, ``held_ok``), reads the
    model, whose layers' shapes the training keeps (`_shaped_modules`), and a loader no
    loop changes; the comprehension's ``xb`` is its own, not the training loop's
    (`_without`): the failure is the real run's (`Cutter.inputs_kept`). The fix builds
    the state for the batch given."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    def loaders() -> dict:
        generator = torch.Generator().manual_seed(8)
        X, Xv = torch.randn(32 * 40, 6, 4, generator=generator), \
            torch.randn(32 * 3 + 5, 6, 4, generator=generator)
        return {"torch": torch, "nn": torch.nn, "time": time, "__name__": "__main__",
                "train_loader": DataLoader(TensorDataset(X, X[:, -1, :1]), batch_size=32),
                "val_loader": DataLoader(TensorDataset(Xv, Xv[:, -1, :1]), batch_size=32)}

    cell = FORECASTER.format(batch=batch, step=STEP_S)
    crash = batch == "32"
    assert _raised_type(cell, loaders()) == ("RuntimeError" if crash else None)
    result, verdict = _beside_the_cell(loaders(), cell)
    if crash:
        assert result.inputs_kept, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 11), \
            verdict
    else:
        assert verdict.crash is not True and not result.inputs_kept, (verdict, result)


def _signal(rows: int = ITEMS * 16 * 12 + 9) -> dict:
    """Eight channels of a recording, sliced into windows of 64 every 16 rows; its last
    rows do not fill a window."""
    import numpy as np

    rng = np.random.default_rng(4)
    return {"np": np, "time": time, "WIN": 64, "STEP": 16,
            "signal": rng.normal(size=(rows, 8))}


WINDOW_COMPREHENSIONS = """
def window_features(seg):
    time.sleep({step})
    spec = np.abs(np.fft.rfft(seg * np.hanning(len(seg))[:, None], axis=0)) ** 2
    bands = np.stack([b.sum(axis=0) for b in np.array_split(spec, 4, axis=0)])
    return np.concatenate([seg.mean(0), seg.std(0), np.log1p(bands).ravel()])

starts = range(0, len(signal){end}, STEP)
features = [window_features(signal[s:s + WIN]) for s in starts]
windows = [signal[s:s + WIN] for s in starts]
X_feat = np.vstack(features)
X_raw = np.stack(windows)
"""


def test_windows_stacked_after_a_comprehension_cut_short_are_the_whole_runs():
    """The windows run to the recording's end, so the last ones are short, and stacking
    them fails after a comprehension of 480 windows' features (2 s). The comprehension is
    the loop it is (`_comprehensions`): cut, it runs its first windows and its last; the
    features come from the cell's own function, which changes none of its arguments
    (`_leaves_its_arguments`). The windows' comprehension, quick, runs whole (a
    comprehension is cut only after `COMPREHENSION_CUT_S` of its own), so the stack
    reads nothing the cut loop changes (`inputs_kept`): its failure is the real run's,
    warned before any sweep. The cut names the comprehension as written. Its fix stops
    at the last whole window."""
    cell = WINDOW_COMPREHENSIONS.format(end="", step=0.004)
    assert _raised_type(cell, _signal()) == "ValueError"
    result, verdict = _beside_the_cell(_signal(), cell)
    assert result.inputs_kept and not result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 12), verdict
    assert [c.partition(":")[0] for c in result.cuts] == \
        ["[... for s in starts] (line 9 of the cell)"], result.cuts
    fixed = WINDOW_COMPREHENSIONS.format(end=" - WIN + 1", step=0.004)
    assert _raised_type(fixed, _signal()) is None
    result, verdict = _beside_the_cell(_signal(), fixed)
    assert verdict.crash is not True and not result.inputs_kept, (verdict, result)


WINDOW_LOOP = """
windows = []
for s in range(0, len(signal){end}, STEP):
    time.sleep({step})
    windows.append(signal[s:s + WIN])
X_raw = np.stack(windows)
"""


def test_windows_a_cut_loop_only_appends_are_stacked_as_in_the_whole_run():
    """A loop appends views of the recording, the last ones short, and the stack fails.
    Appending leaves the recording as it was (a list the cell only grows, and names
    elsewhere only in the stack: `Cutter._names_cut_loops_make`'s ``grown``), so the cut
    run's list is some of the real run's windows, the short last among them: warned
    before any sweep. Its fix stops at the last whole window."""
    cell = WINDOW_LOOP.format(end="", step=STEP_S)
    assert _raised_type(cell, _signal()) == "ValueError"
    result, verdict = _beside_the_cell(_signal(), cell)
    assert result.stacks_kept and not result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), verdict
    fixed = WINDOW_LOOP.format(end=" - WIN + 1", step=STEP_S)
    assert _raised_type(fixed, _signal()) is None
    result, verdict = _beside_the_cell(_signal(), fixed)
    assert verdict.crash is not True and not result.stacks_kept, (verdict, result)
    # the list handed whole to the notebook's own code, which may change what it holds
    handed = cell.replace("X_raw = ", "windows.reverse()\nX_raw = ")
    assert _raised_type(handed, _signal()) == "ValueError"
    result, verdict = _beside_the_cell(_signal(), handed)
    assert not result.stacks_kept, result


def _orders_by_customer(text_at: int | None = BAD) -> dict:
    """Forty customers' orders; the customer at ``text_at`` has amounts written as text."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(12)
    orders = pd.DataFrame({"customer": np.repeat([f"c{k:03d}" for k in range(ITEMS)], 25),
                           "amount": rng.gamma(2.0, 30.0, ITEMS * 25).round(2)})
    orders["amount"] = orders["amount"].astype(object)
    if text_at is not None:
        rows = orders.index[orders["customer"] == f"c{text_at:03d}"]
        orders.loc[rows, "amount"] = [f"{a:.2f} EUR" for a in orders.loc[rows, "amount"]]
    return {"np": np, "pd": pd, "time": time, "orders": orders}


PROFILE_COMPREHENSION = """
def profile(g):
    time.sleep({step})
    amounts = g["amount"]{convert}
    return {{"orders": len(g), "spent": amounts.sum(), "p90": np.percentile(amounts, 90)}}

profiles = {{c: profile(g) for c, g in orders.groupby("customer")}}
table = pd.DataFrame(profiles).T
"""


def test_a_bad_group_of_a_dict_comprehension_is_met_newest_first():
    """A dict comprehension over 40 customers' orders: the 37th customer's amounts are
    text, and their 90th percentile fails, late in the real run. Read as its loop, the
    comprehension is cut, and its skipped customers run newest first: the text group
    fails on its own values. Its fix parses the amounts."""
    cell = PROFILE_COMPREHENSION.format(step=STEP_S, convert=".astype(float)")
    assert _raised_type(cell, _orders_by_customer()) == "ValueError"
    result, verdict = _beside_the_cell(_orders_by_customer(), cell)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 4), \
        (verdict, result)
    assert result.swept_iteration, result
    fixed = PROFILE_COMPREHENSION.format(step=STEP_S, convert=(
        '.astype(str).str.replace(" EUR", "", regex=False).astype(float)'))
    assert _raised_type(fixed, _orders_by_customer()) is None
    result, verdict = _beside_the_cell(_orders_by_customer(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("source, read", [
    ("out = [x * 2 for x in rows if x > 1 if x < 9]\n", True),
    ("out = {x: x % 3 for x in rows}\n", True),
    ("out = {x % 3 for x in rows}\n", True),
    ("a, b = [(x, x + 1) for x in rows[:2]]\n", True),
    ("out = [sum(y for y in range(x)) for x in rows]\n", True),
    ("out = [(i, x) for i, x in enumerate(rows)]\n", True),
    ("x = 99\nout = [x + i for i in rows]\n", True),
    ("out = [x for x in rows]\nrows = [x for x in out]\n", True),
    ("out = [x + 1 for x in out]\n", True),
    # two clauses, a name bound inside, a lambda, the scope read, a key computed
    ("out = [x * y for x in rows for y in rows]\n", False),
    ("out = [(y := x) for x in rows]\n", False),
    ("out = [lambda: x for x in rows]\n", False),
    ("out = [locals() for x in rows]\n", False),
    ("out = [[x for x in range(x)] for x in rows]\n", False),
    ("out = {str(x): x for x in rows}\n", False),
    ("out = (x for x in rows)\n", False),
    ("out = sum([x for x in rows])\n", False),
])
def test_a_comprehension_is_read_as_its_loop_with_the_same_values(source, read):
    """Unit: `_comprehensions`: the same values either way, and no name of the cell bound
    by the loop's targets (``x`` keeps its value); refused where it would differ."""
    from crashpredict._dryrun._fastforward import _comprehensions

    def namespace():
        return {"rows": [3, 1, 4, 1, 5, 9, 2, 6], "out": [7], "x": "kept"}

    tree = _comprehensions(ast.parse(source), namespace())
    assert any(isinstance(n, ast.For) for n in tree.body) is read, ast.unparse(tree)
    if not read:
        return
    as_written, as_read = namespace(), namespace()
    exec(compile(source, "<cell>", "exec"), as_written)  # noqa: S102 - the cell
    exec(compile(tree, "<cell>", "exec"), as_read)  # noqa: S102
    as_written.pop("__builtins__"), as_read.pop("__builtins__")
    assert {name: as_read.get(name) for name in as_written} == as_written, ast.unparse(tree)
    # what the loop binds besides: its renamed targets and its container, new names
    assert all(re.fullmatch(r"_?[a-z]+[0-9]*_[0-9]*", name)
               for name in set(as_read) - set(as_written)), set(as_read) - set(as_written)


def test_a_notebook_function_leaves_its_arguments_only_where_nothing_changes_them():
    """Unit: `_leaves_its_arguments`: a function of the cell's whose body only reads its
    window leaves the window as it was; one that changes it in place, or through a view
    of it, or hands it to what may change it, or reads a global that is not a constant,
    does not."""
    import numpy as np
    from crashpredict._dryrun._fastforward import _leaves_its_arguments

    bodies = {
        "reads": ("    spec = np.abs(np.fft.rfft(seg, axis=0))\n"
                  "    return np.concatenate([seg.mean(0), spec.sum(0)])\n", True),
        "shifts": "    seg -= seg.mean(0)\n    return seg\n",
        "sorts": "    seg.sort(axis=0)\n    return seg[0]\n",
        "views": "    head = seg[:4]\n    head[0] = 0.0\n    return head\n",
        "copies_to": "    np.copyto(seg, 0.0)\n    return seg\n",
        "global": "    return seg.mean(0) + offsets[0]\n",
    }
    for name, body in bodies.items():
        body, leaves = body if isinstance(body, tuple) else (body, False)
        source = f"def f(seg):\n{body}"
        filename = f"<leaves-{name}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        namespace = {"np": np, "offsets": [1.0]}
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - the cell's function
        call = ast.parse("f(signal[0:64])").body[0].value
        assert _leaves_its_arguments(call, namespace) is leaves, name


@pytest.mark.parametrize("source, own", [
    ("for s in xs:\n    for i in range(len(s)):\n        out.append(s[i:i + 4])", True),
    ("for s in xs:\n    for i in range(len(s)):\n        w = s[i:i + 4]\n"
     "        other.append(w.sum())\n        out.append(w)", True),
    # an inner name the iteration before bound: the cut may have skipped that one
    ("for s in xs:\n    for i in range(len(s)):\n        out.append(w)\n        w = s[i:i + 4]",
     False),
    # an inner name read after the inner loop: its last iteration's, maybe not run
    ("for s in xs:\n    for i in range(len(s)):\n        w = s[i:i + 4]\n    out.append(w)", False),
    # the inner loop runs over what a cut loop changes
    ("for s in xs:\n    for i in range(len(buf)):\n        out.append(s[i])", False),
    ("for s in xs:\n    for i in range(len(s)):\n        out.append(s[i])\n"
     "    out.append(s[0])", True),
    ("for s in xs:\n    while s:\n        out.append(s.pop())", False),
    ("for s in xs:\n    for i in range(len(s)):\n        other.append(out)", False),
    # another list the iteration extends (``ids.extend([name] * len(feats))``)
    ("for s in xs:\n    w = s[:4]\n    other.extend([s] * len(w))\n    out.append(w)", True),
    ("for s in xs:\n    other.extend(out)\n    out.append(s)", False),
    ("for s in xs:\n    out.extend(s)", False),
])
def test_values_an_inner_loop_appends_are_its_own_only_where_its_iteration_makes_them(
        source, own):
    """Unit: `_own_items` with inner loops (``made``: what the cut loops change)."""
    from crashpredict._dryrun._fastforward import _own_items

    loop = ast.parse(source).body[0]
    assert _own_items(loop, "out", {"out", "other", "w", "i", "buf", "s"}) is own


@pytest.mark.parametrize("between", [
    # a second loop, cut too, trims every batch to the last one's size in place
    "for i in range(len(feats)):\n    time.sleep({step})\n    feats[i] = feats[i][:25]\n",
    # the notebook's function pads every batch to the full size, in a loop of its own
    # the notebook's function does it, with a loop of its own
    "pad(feats)\n",
])
def test_a_list_changed_after_the_loop_that_collected_it_is_not_claimed(between):
    """Near misses: after the loop every batch is trimmed or padded to the same size, so the
    real run stacks them clean. The cut run changes only some (its second loop is cut too),
    and fails: that failure is the cut's, and nothing is warned."""
    def namespace():
        ns = _images()
        source = (f"import time\nimport numpy as np\n\ndef pad(parts):\n    for i in range(len(parts)):\n"
                  f"        time.sleep({STEP_S * 10})\n"
                  f"        parts[i] = np.pad(parts[i], ((0, 32 - len(parts[i])), (0, 0)))\n")
        linecache.cache["<ipython-input-3>"] = (len(source), None, source.splitlines(True),
                                                "<ipython-input-3>")
        exec(compile(source, "<ipython-input-3>", "exec"), ns)  # noqa: S102 - the notebook's
        return ns

    cell = STACKED.format(step=STEP_S, between=between.format(step=STEP_S),
                          join="np.stack(feats)")
    assert _raised_type(cell, namespace()) is None
    result, verdict = _beside_the_cell(namespace(), cell)
    assert result.outcome == "crashed" and result.cut_before_crash, result
    assert verdict.crash is not True and not result.stacks_kept, (verdict, result)


def test_only_stacks_of_the_collected_list_by_numpy_or_torch_are_claimed():
    """Unit: what the list holds joined to something else, the notebook's own ``stack`` and
    an empty list's error are not claimed; ``np.stack(feats, axis=1)`` and ``torch.stack``
    are."""
    import numpy as np
    import torch

    def stack(parts):
        return np.stack(parts)

    def claimed(join, feats):
        cell = STACKED.format(step=0, between="", join=join)
        tree = ast.parse(cell)
        info = LoopInfo(0, 3, "for start in ...", "the cell",
                        names=frozenset({"start", "batch", "gx", "gy"}))
        cutter = Cutter({0: info}, cell_tree=tree)
        cutter.cut.append(0)
        cutter.entries[0] = 1
        namespace = {**_images(), "torch": torch, "stack": stack, "feats": feats}
        last = ast.Module(body=[tree.body[-1]], type_ignores=[])
        with pytest.raises(Exception) as raised:  # noqa: PT011 - the crash to judge
            exec(compile(last, "<cell>", "exec"), namespace)  # noqa: S102
        return cutter.stacks_kept(raised.value, None, "<cell>", namespace)

    ragged = [np.zeros((32, 2)), np.zeros((25, 2))]
    assert claimed("np.stack(feats)", ragged) is True
    assert claimed("np.stack(feats, axis=1)", ragged) is True
    assert claimed("torch.stack(feats)", [torch.zeros(32, 2), torch.zeros(25, 2)]) is True
    assert claimed("stack(feats)", ragged) is False
    assert claimed("np.stack(feats + [np.zeros((9, 2))])", ragged[:1]) is False
    assert claimed("np.stack(feats)", []) is False


# ---- series collected by a cut loop, joined side by side after it ---------------------------

def _store_days(dup_at: int | None = BAD) -> dict:
    """Forty stores' daily sales over 60 days; the one at ``dup_at`` opened a day late and
    its 31st day was loaded twice."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(4)
    dates = pd.date_range("2024-01-01", periods=60, freq="D")
    frames = []
    for k in range(ITEMS):
        frame = pd.DataFrame({"store": f"S{k:02d}", "region": f"R{k % 4}", "date": dates,
                              "sales": rng.gamma(5, 20, len(dates))})
        if k == dup_at:
            frame = pd.concat([frame.iloc[1:], frame.iloc[[30]]]).sort_values("date")
        frames.append(frame)
    return {"pd": pd, "time": time, "sales": pd.concat(frames, ignore_index=True)}


STORE_TRENDS = """
trends = {init}
for store, g in sales.groupby("store"):
    time.sleep({step})
    s = g{dedup}.set_index("date")["sales"]
    {collect}
{between}wide = pd.concat(trends, axis=1)
rising = (wide.diff().iloc[-10:] > 0).mean()
"""


@pytest.mark.parametrize("init, collect", [
    ("{}", "trends[store] = s.rolling(7, min_periods=1).mean()"),
    ("[]", "trends.append(s.rolling(7, min_periods=1).mean())"),
])
def test_series_with_a_label_twice_are_joined_side_by_side_as_in_the_whole_run(init, collect):
    """The 37th store's day loaded twice: the stores' series, joined side by side, cannot
    be aligned on their dates. The cut run skips that store and joins the others clean; the
    sweep makes its series from its own group alone and joins it with the first store's, as
    the real run's join holds both: warned, at the join's line, long before the real run
    has made every store's series. Its fix drops the repeated day."""
    cell = STORE_TRENDS.format(init=init, step=STEP_S, dedup="", collect=collect, between="")
    assert _raised_type(cell, _store_days()) == "ValueError"
    result, verdict = _beside_the_cell(_store_days(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 7), verdict
    assert "duplicate labels" in result.message, result
    # newest first, the sweep meets the 37th store of 40 as its fourth (not a timed bound:
    # this machine's load moves one, the order does not)
    swept = [re.search(r"then, after the cell, (\d+) of the iterations skipped", cut)
             for cut in result.cuts]
    assert [int(m[1]) for m in swept if m] == [ITEMS - 36], result.cuts
    fixed = STORE_TRENDS.format(init=init, step=STEP_S, collect=collect, between="",
                                dedup='.drop_duplicates(subset="date", keep="last")')
    assert _raised_type(fixed, _store_days()) is None
    result, verdict = _beside_the_cell(_store_days(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_series_with_a_label_twice_that_the_cut_run_joined_are_the_real_runs():
    """The 4th store's day loaded twice: the cut run makes its series and joins it side by
    side with the others, which fails as the real run's join of every store fails."""
    cell = STORE_TRENDS.format(init="{}", step=STEP_S, dedup="", between="",
                               collect="trends[store] = s.rolling(7, min_periods=1).mean()")
    assert _raised_type(cell, _store_days(3)) == "ValueError"
    result, verdict = _beside_the_cell(_store_days(3), cell)
    assert result.stacks_kept and not result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 7), verdict
    assert any("joined side by side" in line for line in verdict.evidence), verdict.evidence


#: the store loaded twice in the near misses: one the cut skips, of a region a later store has
DUP_REPLACED = 33


@pytest.mark.parametrize("collect, between", [
    # keyed by the region: a later store of the region replaces the bad one in the real run
    ('trends[g["region"].iloc[0]] = s.rolling(7, min_periods=1).mean()', ""),
    # every series made unique after the loop, in place
    ("trends[store] = s.rolling(7, min_periods=1).mean()",
     "for k in trends:\n    trends[k] = trends[k][~trends[k].index.duplicated()]\n"),
])
def test_a_join_of_what_the_real_run_does_not_hold_is_not_claimed(collect, between):
    """Near misses, clean for real: the dict's key repeats across stores (the 34th store's
    region is filled again by the 38th), or the cell makes every series
    unique after the loop. The sweep, newest first, leaves the bad store's series in the
    dict, or meets it before the cleaning: neither is the real run's join, and nothing is
    warned."""
    cell = STORE_TRENDS.format(init="{}", step=STEP_S, dedup="", collect=collect,
                               between=between)
    assert _raised_type(cell, _store_days(DUP_REPLACED)) is None
    result, verdict = _beside_the_cell(_store_days(DUP_REPLACED), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_only_a_dict_filled_under_the_loops_own_keys_is_checked_side_by_side():
    """Unit: the joins `stack_misfit` checks after the store loop: a dict filled under the
    group's key, or a list it grows; not a dict filled under a key that other stores share
    (a later one replaces an earlier one's series), nor a dict the cell changes after the
    loop."""
    def checked(collect, between="", init="{}"):
        cell = STORE_TRENDS.format(init=init, step=0, dedup="", collect=collect,
                                   between=between)
        tree = ast.parse(cell)
        info = LoopInfo(0, 3, "for store, g in ...", "the cell", sweep=True,
                        names=frozenset({"store", "g", "s"}))
        cutter = Cutter({0: info}, cell_tree=tree, namespace=_store_days())
        cutter.cut.append(0)
        cutter.entries[0] = 1
        return [listed for listed, _statement, _call in cutter._stacks_after(0)]

    rolled = "s.rolling(7, min_periods=1).mean()"
    assert checked(f"trends[store] = {rolled}") == ["trends"]
    assert checked(f"trends.append({rolled})", init="[]") == ["trends"]
    assert checked(f'trends[g["region"].iloc[0]] = {rolled}') == []
    assert checked(f"trends[store] = {rolled}",
                   "for k in trends:\n    trends[k] = trends[k].dropna()\n") == []
    assert checked(f"trends[store] = {rolled}\n    trends[store] = trends[store].dropna()") == []


def test_the_keys_a_loop_fills_a_dict_under_are_unique_only_from_its_header():
    """Unit: `_unique_key` reads a groupby's key, an enumerate's count, a range's number and
    a dict's key; not a list's item nor a series' label; `_collecting` takes pandas' join
    side by side, outer, and numpy's stacks."""
    import numpy as np
    import pandas as pd

    from crashpredict._dryrun._fastforward import _collecting, _unique_key

    namespace = {"d": {"a": 1}, "xs": [1, 1], "s": pd.Series([1, 2], index=["a", "a"]),
                 "df": pd.DataFrame({"k": [1]}), "pd": pd, "np": np}
    for header, key in (("for k, g in df.groupby('k'):", "k"), ("for i, x in enumerate(xs):", "i"),
                        ("for i in range(3):", "i"), ("for k, v in d.items():", "k"),
                        ("for k in d:", "k"), ("for k in d.keys():", "k"), ("for x in xs:", None),
                        ("for k, v in s.items():", None), ("for (k, g), w in zip(a, b):", None)):
        loop = ast.parse(header + "\n    pass").body[0]
        assert _unique_key(loop, namespace) == key, header
    for call, kind in (("pd.concat(parts, axis=1)", "columns"),
                       ("pd.concat(parts, axis='columns', sort=True)", "columns"),
                       ("pd.concat(parts, axis=1, join='inner')", None),
                       ("pd.concat(parts)", None), ("pd.concat(parts, axis=1, keys=ks)", None),
                       ("np.stack(parts)", "stack"), ("np.concat(parts, axis=1)", "stack")):
        node = ast.parse(call, mode="eval").body
        assert _collecting(node, namespace) == kind, call


def _products() -> dict:
    """Forty categories' products; one brand of the 37th has JSON characters in its name."""
    import lightgbm as lgb
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(2)
    frames = []
    for c in range(ITEMS):
        brands = [f"b{c}x{b}" for b in range(4)] + (["Smith, Jones & Co"] if c == BAD else [])
        frame = pd.DataFrame({"category": f"cat_{c:02d}", "brand": rng.choice(brands, 200),
                              "price": rng.gamma(2, 15, 200)})
        frame["sold"] = (frame["price"] + rng.normal(0, 9, 200) > 30).astype(int)
        frames.append(frame)
    return {"pd": pd, "lgb": lgb, "time": time, "products": pd.concat(frames, ignore_index=True),
            "params": {"objective": "binary", "num_threads": 1, "verbose": -1, "seed": 0}}


PER_CATEGORY = """
models = {{}}
for cat, g in products.groupby('category'):
    time.sleep({step})
    X = pd.get_dummies(g[['brand', 'price']], columns=['brand'], dtype=float){rename}
    models[cat] = lgb.train(params, lgb.Dataset(X, g['sold']), num_boost_round=5)
"""


def test_a_boosting_librarys_own_error_in_a_skipped_iteration_counts():
    """LightGBM refuses a feature name with JSON characters (its own error, no ValueError):
    raised in the 37th category's fit, which the sweep runs whole, on that iteration's own
    values. Its fix renames the columns. The frames shown are the cell's and LightGBM's, not
    the dry run's cap of the fit."""
    cell = PER_CATEGORY.format(step=STEP_S, rename="")
    assert _raised_type(cell, _products()) == "LightGBMError"
    result, verdict = _beside_the_cell(_products(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "LightGBMError", 6), verdict
    assert any(frame.startswith("lightgbm.") for frame in result.traceback), result.traceback
    assert not any("crashpredict" in frame for frame in result.traceback), result.traceback
    fixed = PER_CATEGORY.format(step=STEP_S, rename="\n    X.columns = X.columns.str.replace("
                                "r'[^0-9a-zA-Z_]', '_', regex=True)")
    assert _raised_type(fixed, _products()) is None
    result, verdict = _beside_the_cell(_products(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


# ---- a model trained in place, met again in a skipped iteration -----------------------------

def _shards(bad: int | None = BAD) -> dict:
    """Forty shards of 256 rows and labels 0-4; the ``bad`` one holds a few rows of label 5."""
    import numpy as np
    import torch
    from torch import nn

    torch.manual_seed(0)
    rng = np.random.default_rng(4)
    shards = []
    for k in range(ITEMS):
        y = rng.integers(0, 5, 256)
        if k == bad:
            y[rng.random(256) < 0.05] = 5
        shards.append((rng.normal(size=(256, 8)).astype(np.float32), y))
    return {"np": np, "torch": torch, "nn": nn, "time": time, "shards": shards,
            "N_CLASSES": 5}


STREAMED = """
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, {classes}))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
for x, y in shards:
    time.sleep({step})
    Xs, ys = torch.from_numpy(x), torch.from_numpy(y)
    for i in range(0, len(Xs), 64):
        loss = loss_fn(model(Xs[i:i + 64]), ys[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_a_label_past_the_models_classes_in_a_skipped_shard_is_met():
    """Shard 37 of 40 holds label 5, the model's head 5 classes: cross-entropy raises. The
    model the sweep meets was trained by the whole cell, but only its weights' values
    changed: the layers' shapes, which alone decide a target out of bounds, are the real
    run's. Its fix counts the classes from the data."""
    cell = STREAMED.format(step=STEP_S, classes="N_CLASSES")
    assert _raised_type(cell, _shards()) == "IndexError"
    result, verdict = _beside_the_cell(_shards(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "IndexError", 9), verdict
    fixed = STREAMED.format(step=STEP_S, classes="int(max(y.max() for _, y in shards)) + 1")
    assert _raised_type(fixed, _shards()) is None
    result, verdict = _beside_the_cell(_shards(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("use, kept", [
    ("out = model(xb)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel.train()", True),
    ("model.eval()\nsd = model.state_dict()", True),
    ("model.fc = nn.Linear(4, 3)", False),  # a new layer
    ("model[-1] = nn.Linear(4, 3)", False),
    ("model.half()", False),  # another dtype
    ("model.to(torch.float64)", False),
    ("prune(model)", False),  # handed to a call
    ("for k in range(3):\n    model = nn.Linear(4, k + 1)", False),  # bound in a loop
    ("model = nn.Linear(4, 2)\nmodel = nn.Linear(4, 3)", False),
])
def test_only_a_model_used_in_ways_that_keep_its_layers_shapes_counts_as_kept(use, kept):
    """Unit: `_shaped_modules` keeps a torch module the cell calls, trains through its
    parameters or switches between train and eval, not one it changes otherwise."""
    import torch
    from torch import nn

    from crashpredict._dryrun._fastforward import _shaped_modules

    namespace = {"model": nn.Sequential(nn.Linear(4, 2)), "torch": torch, "nn": nn,
                 "steps": [1, 2]}
    tree = ast.parse(use)
    assert _shaped_modules({"model", "steps"}, tree, namespace) == ({"model"} if kept else set())


NOTEBOOK_NET = """
class Net(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, n_classes)

    def forward(self, x):
{forward}
"""


def _labelled_rows(bad_last: bool = True) -> dict:
    """A loader over 40 batches of 16 rows and a smaller last one (5 rows), labels 0-4,
    in order; with ``bad_last``, one of the last rows holds label 5. The model's class
    is the notebook's own (defined in the namespace, as a cell defines it)."""
    import numpy as np
    import torch
    from torch import nn
    from torch.nn import functional as F
    from torch.utils.data import DataLoader, TensorDataset

    torch.manual_seed(0)
    rng = np.random.default_rng(5)
    n = ITEMS * 16 + 5
    y = rng.integers(0, 5, n)
    if bad_last:
        y[-2] = 5
    data = TensorDataset(torch.from_numpy(rng.normal(size=(n, 8)).astype(np.float32)),
                         torch.from_numpy(y))
    namespace = {"np": np, "torch": torch, "nn": nn, "F": F, "time": time, "y": y,
                 "loader": DataLoader(data, batch_size=16), "__name__": "__main__"}
    exec(NOTEBOOK_NET.format(forward="        return self.fc2(F.relu(self.fc1(x)))"),
         namespace)
    return namespace


LOADER_TRAINING = """
model = Net({classes})
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(2):
    model.train()
    for xb, yb in loader:
        time.sleep({step})
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_a_label_past_the_models_classes_in_a_loaders_last_batch_is_met():
    """The loader's last batch holds label 5; the notebook's own ``Net`` has 5 classes:
    cross-entropy raises there, in the first epoch. The cut run meets the last batch (the
    dataset's last rows) at once; a class index out of bounds there is the real run's,
    which meets the same rows with layers of the same shapes. Its fix counts the classes
    from the data."""
    cell = LOADER_TRAINING.format(step=STEP_S, classes=5)
    assert _raised_type(cell, _labelled_rows()) == "IndexError"
    result, verdict = _beside_the_cell(_labelled_rows(), cell)
    assert result.last_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "IndexError", 9), verdict
    fixed = LOADER_TRAINING.format(step=STEP_S, classes="int(y.max()) + 1")
    assert _raised_type(fixed, _labelled_rows()) is None
    result, verdict = _beside_the_cell(_labelled_rows(), fixed)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


@pytest.mark.parametrize("forward, changes", [
    ("        return self.fc2(F.relu(self.fc1(x)))", False),
    ("        x = x.float().to(self.fc1.weight.dtype)\n        return self.fc2(self.fc1(x))", False),
    ("        self.seen = x.shape[0]\n        return self.fc2(self.fc1(x))", True),  # stores
    ("        self.fc2.half()\n        return self.fc2(self.fc1(x))", True),  # another dtype
    ("        self.add_module('extra', nn.Linear(2, 2))\n        return self.fc2(self.fc1(x))",
     True),
    ("        setattr(self, 'fc2', nn.Linear(16, 3))\n        return self.fc2(self.fc1(x))", True),
    ("        return grow(self, x)", True),  # the notebook's function it calls changes it
])
def test_a_notebooks_own_module_that_may_change_its_layers_is_not_kept(forward, changes):
    """Unit: `_changes_its_layers` reads the notebook's own module classes (their methods
    but ``__init__``, and the notebook's functions they call): a store into the module, a
    call on it that changes its layers or dtype, or ``setattr``; a library module never."""
    from torch import nn

    from crashpredict._dryrun._fastforward import _changes_its_layers

    namespace = _labelled_rows(bad_last=False)
    exec("def grow(module, x):\n    module.fc3 = nn.Linear(2, 2)\n    return x\n", namespace)
    exec(NOTEBOOK_NET.format(forward=forward), namespace)
    assert _changes_its_layers(namespace["Net"](5), namespace) is changes
    assert _changes_its_layers(nn.Sequential(nn.Linear(2, 2)), namespace) is False


STREAMED_NET = STREAMED.replace(
    "nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, {classes}))", "Net({classes})")


@pytest.mark.parametrize("forward, judged", [
    ("        return self.fc2(F.relu(self.fc1(x)))", True),
    # stores into the module as it runs: its state is no longer what the real run's is
    ("        self.seen = x.shape[0]\n        return self.fc2(F.relu(self.fc1(x)))", False),
    # reads a global the cell may change
    ("        return self.fc2(F.relu(self.fc1(x))) * CONFIG['scale']", False),
    # draws random numbers
    ("        return self.fc2(F.dropout(F.relu(self.fc1(x)), 0.1))", False),
])
def test_a_label_past_the_classes_of_the_notebooks_own_module_is_met_in_a_skipped_shard(
        forward, judged):
    """As with ``nn.Sequential`` above, with the notebook's own ``Net``: its methods read
    only modules and constants and change nothing of it (`_pure_object`), so the sweep's
    failure on a skipped shard's own labels counts. A ``forward`` that stores into the
    module, reads a global the cell may change or draws random numbers is not judged."""
    def shards() -> dict:
        namespace = {**_shards(), "F": __import__("torch").nn.functional,
                     "CONFIG": {"scale": 1.0}, "__name__": "__main__"}
        exec(NOTEBOOK_NET.format(forward=forward), namespace)  # noqa: S102 - the notebook's
        return namespace

    cell = STREAMED_NET.format(step=STEP_S, classes="N_CLASSES")
    assert _raised_type(cell, shards()) == "IndexError"
    result, verdict = _beside_the_cell(shards(), cell)
    if judged:
        assert result.swept_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "IndexError", 9), \
            verdict
    else:
        assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    if judged:
        fixed = STREAMED_NET.format(step=STEP_S,
                                    classes="int(max(y.max() for _, y in shards)) + 1")
        assert _raised_type(fixed, shards()) is None
        result, verdict = _beside_the_cell(shards(), fixed)
        assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("source, instance_pure, class_pure", [
    ("class Scaler:\n    def __init__(self, k):\n        self.k = k\n"
     "    def __call__(self, x):\n        return x * self.k\n", True, True),
    # its call stores into the instance; made anew, it is no one else's
    ("class Scaler:\n    def __init__(self, k):\n        self.k = k\n"
     "    def __call__(self, x):\n        self.last = x\n        return x * self.k\n",
     False, True),
    # ``__init__`` reads a global the cell may change: only calling the class runs it
    ("class Scaler:\n    def __init__(self, k):\n        self.k = k * LIMITS['k']\n"
     "    def __call__(self, x):\n        return x * self.k\n", True, False),
    ("class Scaler:\n    def __init__(self, k):\n        global made\n        made = k\n"
     "    def __call__(self, x):\n        return x\n", True, False),
])
def test_the_notebooks_class_and_instances_are_pure_only_where_their_methods_are(
        source, instance_pure, class_pure):
    """Unit: `_pure_object`: a class of the notebook's (called, it runs ``__init__``) and
    its instances (``__init__`` aside) are pure where each method reads as globals only
    modules, builtins and constants and binds none; an instance, where none stores into
    it."""
    from crashpredict._dryrun._fastforward import _notebook_code, _pure_object

    namespace = {"__name__": "__main__", "LIMITS": {"k": 2}}
    exec(source, namespace)  # noqa: S102 - the notebook's class
    cls = namespace["Scaler"]
    assert _notebook_code([cls], namespace)  # a class called runs the notebook's code
    instance = cls.__new__(cls)
    instance.k = 2
    assert _pure_object(instance, namespace) is instance_pure
    assert _pure_object(cls, namespace) is class_pure
    assert _pure_object(len, namespace) is False


# ---- a number bound once before the loop, named in its header and body ----------------------

def _channels(window: int = 5) -> dict:
    """Rows for ITEMS windows of ``window`` rows; the window starting at BAD has a channel
    logged as zeros throughout, so its normal matrix is singular."""
    import numpy as np

    rng = np.random.default_rng(8)
    X = rng.normal(size=(ITEMS + window - 1, 3))
    X[BAD:BAD + window, 1] = 0.0
    return {"np": np, "time": time, "X": X}


WINDOWED = """
window, step = 5, 1
inverses = []
for start in range(0, len(X) - window + 1, step):
    time.sleep({step_s})
    Xw = X[start:start + window]
    inverses.append(np.linalg.{inv}(Xw.T @ Xw)){after}
"""


def test_a_singular_window_the_cut_skipped_is_met_with_the_windows_size_bound_before():
    """The cell binds the window's size once, before the loop, and its header and body
    read it: a number, which nothing changes in place, so the swept window is the real
    run's (`_constants_before`). Its fix takes the pseudo-inverse."""
    cell = WINDOWED.format(step_s=STEP_S, inv="inv", after="")
    assert _raised_type(cell, _channels()) == "LinAlgError"
    result, verdict = _beside_the_cell(_channels(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "LinAlgError", 7), verdict
    fixed = WINDOWED.format(step_s=STEP_S, inv="pinv", after="")
    assert _raised_type(fixed, _channels()) is None
    result, verdict = _beside_the_cell(_channels(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_size_the_cell_binds_again_after_the_loop_is_not_the_swept_windows():
    """The same size bound again after the loop: the sweep, run after the cell, would
    read the later one, so nothing swept is judged."""
    cell = WINDOWED.format(step_s=STEP_S, inv="inv", after="\nwindow = 3")
    assert _raised_type(cell, _channels()) == "LinAlgError"
    result, verdict = _beside_the_cell(_channels(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("source, constants", [
    ("window, step = 720, 1\nfor s in range(window):\n    pass\n", {"window", "step"}),
    ("window = 720\nfor s in range(window):\n    pass\nwindow = 3\n", set()),
    ("cols = ['a']\nfor s in cols:\n    pass\n", set()),  # a list: changed in place
    ("w = (1, 'a', None)\nfor s in w:\n    pass\n", {"w"}),
    ("w = (1, [2])\nfor s in w:\n    pass\n", set()),
    ("def f():\n    global w\n    w = 2\nw = 1\nfor s in range(w):\n    f()\n", set()),
])
def test_constants_bound_once_before_the_loop(source, constants):
    """Unit: `_constants_before`."""
    from crashpredict._dryrun._fastforward import _constants_before

    namespace: dict = {}
    exec(source, namespace)  # noqa: S102 - the cell
    tree = ast.parse(source)
    position = next(k for k, node in enumerate(tree.body) if isinstance(node, ast.For))
    assert _constants_before(tree, position, namespace) == constants


# ---- tensors that require grad, collected by a cut loop -------------------------------------

COLLECTED_PREDICTIONS = """
model = Net(5)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for xb, yb in loader:
    time.sleep({step}){change}
    loss = nn.functional.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()
preds = []
{collect}
scores = torch.cat(preds).numpy()
print(scores.shape, len(preds))
"""
_COLLECT = "for xb, _ in loader:\n    time.sleep({step})\n    preds.append(model(xb))"


@pytest.mark.parametrize("change, collect, judged", [
    ("", _COLLECT, True),
    # appended under a test on what the cut changed: the real run may take the other way
    ("", _COLLECT.replace("    preds.append", "    if loss.item() > 0:\n        preds.append"),
     False),
    # a grad mode set for what follows, not in a ``with``
    ("\n    torch.set_grad_enabled(True)", _COLLECT, False),
    # a parameter's grad switched in place by the training loop
    ("\n    model.fc1.weight.requires_grad = True", _COLLECT, False),
])
def test_predictions_that_require_grad_collected_by_a_cut_loop_are_met(change, collect,
                                                                       judged):
    """The test loop collects the notebook ``Net``'s outputs with gradients on, and the
    cell gives them to numpy after it: whether they require grad is the layers' and the
    grad mode's, not the weights', so the cut run's failure is the real run's
    (`Cutter.grads_kept`). Its fix collects under ``torch.no_grad()``. Not judged where
    the list is appended under a test, or the cell sets a grad mode or a parameter's
    grad outside a ``with``."""
    cell = COLLECTED_PREDICTIONS.format(step=STEP_S, change=change,
                                        collect=collect.format(step=STEP_S))
    assert _raised_type(cell, _labelled_rows(bad_last=False)) == "RuntimeError"
    result, verdict = _beside_the_cell(_labelled_rows(bad_last=False), cell)
    if not judged:
        assert verdict.crash is not True and not result.grads_kept, (verdict, result)
        return
    assert result.grads_kept, result
    line = cell.splitlines().index("scores = torch.cat(preds).numpy()") + 1
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", line), \
        verdict
    fixed = COLLECTED_PREDICTIONS.format(
        step=STEP_S, change=change, collect="with torch.no_grad():\n" + "\n".join(
            "    " + text for text in collect.format(step=STEP_S).splitlines()))
    assert _raised_type(fixed, _labelled_rows(bad_last=False)) is None
    result, verdict = _beside_the_cell(_labelled_rows(bad_last=False), fixed)
    assert verdict.crash is not True and not result.grads_kept, (verdict, result)


# ---- library calls that make new objects; a fitted estimator's predictions ------------------

def _monthly_topups(tmp_path, partial: bool = False) -> dict:
    """A classifier fitted on three channels, forty monthly files to score; the last one
    has no 'kiosk' rows, so its dummies lack a column the classifier was fitted on."""
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LogisticRegression, SGDClassifier

    rng = np.random.default_rng(6)
    cat_cols = ["channel"]

    def month(n, channels):
        return pd.DataFrame({"channel": rng.choice(channels, n), "amount": rng.gamma(2, 15, n)})

    train = month(400, ["app", "web", "kiosk"])
    X_train = pd.get_dummies(train, columns=cat_cols)
    y = (train["amount"] > 30).astype(int)
    clf = SGDClassifier(random_state=0) if partial else LogisticRegression()
    clf.fit(X_train, y)
    folder = tmp_path / "monthly"
    folder.mkdir(parents=True)
    files = []
    for m in range(ITEMS):
        path = folder / f"topups_{m:02d}.csv"
        month(200, ["app", "web", "kiosk"] if m < ITEMS - 1 else ["app", "web"]).to_csv(
            path, index=False)
        files.append(str(path))
    return {"pd": pd, "time": time, "clf": clf, "cat_cols": cat_cols, "files": files,
            "X_train": X_train}


SCORING = """
scored = []
for path in files:
    time.sleep({step})
    batch = pd.read_csv(path)
    Xb = pd.get_dummies(batch, columns=cat_cols){align}
    scored.append(clf.predict_proba(Xb)[:, 1].mean())
"""


def test_a_files_missing_dummy_column_in_the_last_iteration_counts(tmp_path):
    """The last monthly file lacks a channel: its dummies miss a column the classifier was
    fitted on, and `predict_proba` refuses them. `pd.get_dummies` changes neither the list
    of columns it is handed nor the batch, and a prediction changes no estimator, so the
    failure is on the last file's own values. Its fix aligns the columns."""
    cell = SCORING.format(step=STEP_S, align="")
    assert _raised_type(cell, _monthly_topups(tmp_path / "truth")) == "ValueError"
    result, verdict = _beside_the_cell(_monthly_topups(tmp_path / "run"), cell)
    assert result.last_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 7), verdict
    fixed = SCORING.format(step=STEP_S, align="\n    Xb = Xb.reindex(columns=X_train.columns, "
                           "fill_value=False)")
    assert _raised_type(fixed, _monthly_topups(tmp_path / "truth_fixed")) is None
    result, verdict = _beside_the_cell(_monthly_topups(tmp_path / "run_fixed"), fixed)
    assert verdict.crash is not True, (verdict, result)


@pytest.mark.parametrize("source, new", [
    ("pd.get_dummies(x, columns=cols)", True),
    ("np.linalg.inv(a)", True),
    ("np.log1p(a)", True),  # a ufunc
    ("np.fft.rfft2(a)", True),
    ("math.radians(x)", True),
    ("json.loads(line)", True),
    ("np.log1p(a, out=a)", False),
    ("np.asarray(x)", False),  # may share its argument's memory
    ("np.copyto(a, b)", False),
    ("np.random.shuffle(a)", False),
    ("json.load(fh)", False),  # moves the file's position
    ("pd.DataFrame(a)", False),
    ("df.fillna(0, inplace=True)", False),
])
def test_only_library_functions_that_make_new_objects_leave_their_arguments(source, new):
    """Unit: `_makes_new`, which `_handed` skips."""
    import json
    import math

    import numpy as np
    import pandas as pd

    from crashpredict._dryrun._fastforward import _makes_new

    namespace = {"np": np, "pd": pd, "math": math, "json": json, "df": pd.DataFrame()}
    assert _makes_new(ast.parse(source).body[0].value, namespace) is new


def test_a_prediction_changes_no_estimator_but_a_fit_or_an_in_place_step_may():
    """Unit: `_predicts`."""
    import numpy as np
    from sklearn.feature_selection import SelectKBest
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer, StandardScaler

    from crashpredict._dryrun._fastforward import _calls_in, _predicts

    clf = LogisticRegression()
    assert _predicts(["predict_proba"], clf) and _predicts(["score"], clf)
    assert not _predicts(["fit"], clf) and not _predicts(["partial_fit"], clf)
    assert not _predicts(["predict"], make_pipeline(StandardScaler(copy=False), clf))
    assert not _predicts(["predict"], np.zeros(3))
    # a transform changes no estimator, unless a step runs the notebook's function
    assert _predicts(["transform"], StandardScaler())
    assert not _predicts(["transform"], FunctionTransformer(np.log1p))
    assert not _predicts(["predict"], make_pipeline(FunctionTransformer(np.log1p), clf))
    # a selector's score function runs in its fit, never on what a prediction is given
    assert _predicts(["predict"], make_pipeline(SelectKBest(k=2), clf))
    # a method of what the prediction returns is not one of the estimator's
    namespace = {"clf": clf, "obj": object()}
    calls = _calls_in([ast.parse("clf.predict_proba(X)[:, 1].mean()")], namespace)
    assert [(name, chain) for name, chain, _ in calls] == [("clf", ["predict_proba"])]
    calls = _calls_in([ast.parse("obj.predict(X).append(1)")], namespace)
    assert ("obj", ["append", "predict"]) in [(name, chain) for name, chain, _ in calls]


# ---- the lines of a file the cell opens, read again from its end ----------------------------

def _rides(tmp_path, newline: str = "\n") -> dict:
    """Forty rides, one JSON record a line; the 37th (a cancelled ride of the new app) has
    no fare."""
    import json

    folder = tmp_path / "rides"
    folder.mkdir(parents=True)
    path = folder / "rides.jsonl"
    with open(path, "w", newline="") as fh:
        for k in range(ITEMS):
            ride = {"id": k, "zone": f"Z{k % 4}", "minutes": 3.0 + k}
            if k != BAD:
                ride["fare"] = 1.0 + 0.25 * ride["minutes"]
            fh.write(json.dumps(ride) + newline)
    return {"json": json, "time": time, "path": str(path)}


RIDES = """
revenue = {{}}
with open(path) as fh:
    for line_no, line in enumerate(fh, 1):
        time.sleep({step})
        ride = json.loads(line)
        revenue[ride['zone']] = revenue.get(ride['zone'], 0.0) + {fare}
"""


def test_a_bad_line_of_a_file_the_cut_skipped_is_met_from_its_end(tmp_path):
    """The 37th line of 40 is a ride with no fare: the real run fails there. The cut run
    reads the first lines; the sweep reads the file again from its end, line by line, and
    meets it fourth (the loop is in a ``with`` that opens the file; its body does not name
    the file). Its fix reads the fare with a default."""
    cell = RIDES.format(step=STEP_S, fare="ride['fare']")
    assert _raised_type(cell, _rides(tmp_path / "truth")) == "KeyError"
    result, verdict = _beside_the_cell(_rides(tmp_path / "run"), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 7), verdict
    fixed = RIDES.format(step=STEP_S, fare="ride.get('fare', 0.0)")
    assert _raised_type(fixed, _rides(tmp_path / "truth_fixed")) is None
    result, verdict = _beside_the_cell(_rides(tmp_path / "run_fixed"), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    assert any("newest first" in c for c in result.cuts), result.cuts


TRIPS = """
revenue, trips, fare = {{}}, defaultdict(list), 1.0
with open(path) as fh:
    for line in fh:
        time.sleep({step})
        ride = json.loads(line)
        zone_trips = trips[ride['zone']]
        zone_trips.append((ride['id'], ride['minutes']))
{between}        fare = ride['fare']
        revenue[ride['zone']] = revenue.get(ride['zone'], 0.0) + fare
"""


@pytest.mark.parametrize(("between", "claimed"), [
    ("", True),
    # the record is given the last fare seen where it has none: clean for real
    ("        ride.setdefault('fare', fare)\n", False),
])
def test_a_record_read_in_a_key_of_what_the_loop_grows_is_still_its_own(tmp_path, between,
                                                                         claimed):
    """Between reading the record and the failing lookup, the iteration looks up the
    zone's list of trips, which the loop grows: that statement reads the record, and
    changes only the list. The record stays the iteration's own, and its missing fare is
    met by the sweep. One that hands the record what the loop made is not its own."""
    from collections import defaultdict

    cell = TRIPS.format(step=STEP_S, between=between)
    truth = {**_rides(tmp_path / "truth"), "defaultdict": defaultdict}
    assert _raised_type(cell, truth) == ("KeyError" if claimed else None)
    result, verdict = _beside_the_cell({**_rides(tmp_path / "run"), "defaultdict": defaultdict},
                                       cell)
    assert (verdict.crash is True) is claimed, (verdict, result)
    if claimed:
        assert result.swept_iteration and verdict.line == 9, (verdict, result)


@pytest.mark.parametrize("source, swept", [
    ("for x in xs:\n    f(x)\n", True),
    ("with open(p) as fh:\n    for line in fh:\n        f(line)\n", True),
    ("with open(p) as fh, open(q) as gh:\n    for line in fh:\n        f(line)\n", True),
    # the body reads the file itself: its position is the real run's alone
    ("with open(p) as fh:\n    for line in fh:\n        f(line, next(fh))\n", False),
    # another context: the sweep would run outside it (gradients on again)
    ("with torch.no_grad():\n    for xb in batches:\n        f(xb)\n", False),
    ("with open(p) as fh:\n    if ok:\n        for line in fh:\n            f(line)\n", False),
])
def test_loops_swept_are_the_cells_own_or_in_a_with_that_only_opens_files(source, swept):
    """Unit: `_top_loops`."""
    from crashpredict._dryrun._fastforward import _top_loops

    tree = ast.parse(source)
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.For)]
    assert (list(_top_loops(tree)) == loops) is swept


@pytest.mark.parametrize("text", ["a\nbb\nccc\n", "a\nbb\nccc", "", "x\n", "\n\n\n",
                                  "é\nü\n" * 300 + "end"])
def test_a_files_lines_are_read_back_as_the_file_yields_them(tmp_path, text, monkeypatch):
    """Unit: `_positions` of a text file gives its lines from the last back, at their
    positions, across blocks of any size; a file with carriage returns gives none (its
    newline mode decides its lines)."""
    from crashpredict._dryrun import _fastforward

    path = tmp_path / "lines.txt"
    path.write_text(text, encoding="utf-8")
    with open(path, encoding="utf-8") as fh:
        lines = list(fh)
    for block in (1 << 16, 7, 1):
        monkeypatch.setattr(_fastforward, "_LINES_BLOCK", block)
        for done in (0, 2):
            with open(path, encoding="utf-8") as fh:
                read = _positions(fh, done)
                assert read is not None
                assert list(read) == list(enumerate(lines))[done:][::-1], (block, done)
    path.write_bytes(b"a\r\nb\r\n")
    with open(path) as fh:
        assert _positions(fh, 0) is None
    with open(path, "rb") as fh:
        assert _positions(fh, 0) is None


def test_a_fifos_lines_are_not_read_again(tmp_path):
    """Unit: `_file_lines` reads again only a regular file's lines: a FIFO's open would
    wait for a writer (the child's sweep, until its budget) and its lines are gone."""
    import os
    import signal
    import types

    from crashpredict._dryrun._fastforward import _file_lines

    fifo = tmp_path / "lines.fifo"
    os.mkfifo(fifo)
    opened = types.SimpleNamespace(name=str(fifo), mode="r", encoding="utf-8", errors="strict")
    class Blocked(BaseException):  # not an Exception: `_file_lines` must not catch it
        pass

    def blocked(signum, frame):
        raise Blocked("the FIFO's open blocked")

    previous = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(5)  # a blocking open fails the test instead of hanging it
    try:
        assert _file_lines(opened, 0) is None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    regular = tmp_path / "lines.txt"
    regular.write_text("a\nb\n", encoding="utf-8")
    opened.name = str(regular)
    assert list(_file_lines(opened, 0)) == [(1, "b\n"), (0, "a\n")]


def test_a_library_classs_own_methods_change_nothing_of_the_cell():
    """Unit: `_library_class`: ``datetime.strptime`` on the class makes a new object; a class
    of the notebook's, or an instance, may change itself."""
    import datetime

    from crashpredict._dryrun._fastforward import _library_class

    namespace = {"__name__": "__main__"}
    exec("class Meter:\n    pass\n", namespace)  # noqa: S102 - the notebook's class
    assert _library_class(datetime.datetime, namespace)
    assert not _library_class(namespace["Meter"], namespace)
    assert not _library_class(datetime.datetime(2024, 1, 1), namespace)


# ---- the first items of a list a cut loop appended to ----------------------------------------

def _training() -> dict:
    """A small regression model and twenty batches."""
    import numpy as np
    import torch
    from torch import nn

    torch.manual_seed(0)
    batches = [(torch.randn(16, 4), torch.randn(16, 1)) for _ in range(20)]
    model = nn.Linear(4, 1)
    return {"np": np, "torch": torch, "nn": nn, "time": time, "batches": batches,
            "model": model, "opt": torch.optim.SGD(model.parameters(), lr=0.01)}


TRAINING = """
losses = []
for epoch in range(4):
    for xb, yb in batches:
        time.sleep({step})
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append({kept})
    print(f"epoch {{epoch}}: {{len(losses)}} steps")
curve = np.asarray(losses)
"""


def test_losses_that_require_grad_given_to_numpy_after_the_loop_count():
    """The loop keeps each step's loss tensor, which requires grad; numpy refuses them
    after the loop. The cut run's first losses are the real run's first ones (it was the
    real run until its first cut); given those alone, numpy refuses them alike, so the
    real run's list, which holds them, fails too. Its fix keeps the numbers."""
    cell = TRAINING.format(step=STEP_S, kept="loss")
    assert _raised_type(cell, _training()) == "RuntimeError"
    result, verdict = _beside_the_cell(_training(), cell)
    assert result.items_kept and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 12), verdict
    assert any("first items" in line for line in verdict.evidence), verdict.evidence
    fixed = TRAINING.format(step=STEP_S, kept="loss.item()")
    assert _raised_type(fixed, _training()) is None
    result, verdict = _beside_the_cell(_training(), fixed)
    assert verdict.crash is not True, (verdict, result)


@pytest.mark.parametrize("body, only", [
    ("losses.append(loss)", True),
    ("losses.append(loss)\nprint(losses[-1], len(losses))", True),
    ("losses.append(loss)\nlosses[-1] = 0", False),
    ("losses.append(loss)\nlosses.pop(0)", False),
    ("losses.append(loss)\nclean(losses)", False),
    ("losses.append(losses[-1])", True),
])
def test_a_loop_that_only_appends_to_or_reads_a_list_changes_none_of_its_items(body, only):
    """Unit: `_appended_only`."""
    import textwrap

    from crashpredict._dryrun._fastforward import _appended_only

    loop = ast.parse("for x in xs:\n" + textwrap.indent(body, "    ")).body[0]
    assert _appended_only(loop, "losses") is only


def _specs(bad: int | None = BAD) -> dict:
    """Forty columns of a product catalogue's weights as texts (``'37 kg'``); in the
    ``bad`` one a supplier wrote ``'unknown'``."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(17)
    spec_cols = [f"w{k:02d}" for k in range(ITEMS)]
    specs = pd.DataFrame({c: [f"{v} kg" for v in rng.integers(1, 90, 200)] for c in spec_cols})
    if bad is not None:
        specs.loc[11, spec_cols[bad]] = "unknown"
    return {"np": np, "pd": pd, "time": time, "spec_cols": spec_cols, "specs": specs}


BY_COLUMN = """
for col in spec_cols:
    time.sleep({step})
    specs[col + '_raw'] = specs[col].str.len()
    specs[col] = specs[col].str.extract(r'(\\d+)', expand=False).astype({kind})
{after}"""


@pytest.mark.parametrize("after", ["", "print(specs.shape)\nsummary = specs.describe().T"])
def test_a_bad_column_the_cut_skipped_is_met_on_its_own_values(after):
    """Each iteration reads and writes only the columns its own item names, so the 37th
    column holds in its skipped iteration, run after the cell, what it held as the loop
    began, in the real run as in the sweep (`Cutter._keyed` for a swept item): the weight
    no number can be read from fails the cast there as it will for real (JunoBench
    pandas_5's class, on a frame too big to convert whole before the cut), also where the
    cell reads the frame after the loop. Its fix keeps the gap as a NaN."""
    cell = BY_COLUMN.format(step=STEP_S, kind="int", after=after)
    assert _raised_type(cell, _specs()) == "ValueError"
    result, verdict = _beside_the_cell(_specs(), cell)
    assert result.swept_iteration and result.cut_before_crash, result
    assert (verdict.crash, verdict.exception, verdict.line) == (
        True, "ValueError", 5), verdict
    fixed = BY_COLUMN.format(step=STEP_S, kind="float", after=after)
    assert _raised_type(fixed, _specs()) is None
    result, verdict = _beside_the_cell(_specs(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("after", [
    "specs['w36'] = 'unknown'",                         # the column stored into after the loop
    "specs.loc[11, 'w36'] = 'unknown'",                 # ...a cell of it
    "specs.update(pd.DataFrame({'w36': ['unknown']}, index=[11]))",  # ...by a method
    "specs.drop(columns='w36', inplace=True)",          # ...in place
])
def test_a_column_the_cell_changes_after_the_loop_is_not_the_skipped_iterations(after):
    """The real loop cast the 37th column whole; the cell then changed it. The sweep runs
    after the cell and meets what the cell put there: it says nothing of the real run."""
    cell = BY_COLUMN.format(step=STEP_S, kind="int", after=after)
    assert _raised_type(cell, _specs(bad=None)) is None
    result, verdict = _beside_the_cell(_specs(bad=None), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_column_an_earlier_item_fixes_is_not_the_skipped_iterations_own():
    """Each iteration also fixes the next column's unknown weights (``nxt[col]``, a key
    not made of the item alone): the 37th column is fixed by the 36th iteration in the
    real run, which ends clean. The sweep runs the 37th before the 36th (newest first)."""
    def namespace() -> dict:
        found = _specs()
        cols = found["spec_cols"]
        found["specs"]["spare"] = "0 kg"
        found["nxt"] = dict(zip(cols, [*cols[1:], "spare"]))
        return found

    cell = ("for col in spec_cols:\n    time.sleep(%s)\n"
            "    specs[col] = specs[col].str.extract(r'(\\d+)', expand=False).astype(int)\n"
            "    specs[nxt[col]] = specs[nxt[col]].replace('unknown', '0 kg')\n" % STEP_S)
    assert _raised_type(cell, namespace()) is None
    result, verdict = _beside_the_cell(namespace(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


# ---- the chunks of a CSV file read with ``chunksize`` -----------------------------------------

def _transactions(tmp_path, bad_chunk: int | None = 21) -> dict:
    """A POS export of 24 chunks of 500 rows, whose ``units`` are floats; in the
    ``bad_chunk`` an outage left three of them blank."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(21)
    n = 24 * 500
    tx = pd.DataFrame({"store": rng.integers(1, 9, n), "units": rng.poisson(2.5, n).astype(float),
                       "note": rng.choice(["none", "promo, 10%", 'said "hi"'], n)})
    if bad_chunk is not None:
        tx.loc[bad_chunk * 500 + np.array([3, 77, 401]), "units"] = np.nan
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "transactions.csv"
    tx.to_csv(path, index=False)
    return {"pd": pd, "time": time, "path": str(path)}


CHUNKED = """
parts = []
for chunk in pd.read_csv(path, chunksize=500):
    time.sleep({step})
    chunk['units'] = chunk['units']{fill}.astype(int)
    parts.append(chunk.groupby('store')['units'].sum())
{after}"""


CHUNKED_WITH = """
parts = []
with pd.read_csv(path, chunksize=500) as reader:
    for chunk in reader:
        time.sleep({step})
        chunk['units'] = chunk['units']{fill}.astype(int)
        parts.append(chunk.groupby('store')['units'].sum())
{after}"""


@pytest.mark.parametrize("template, line", [(CHUNKED, 5), (CHUNKED_WITH, 6)])
def test_a_bad_chunk_the_cut_skipped_is_met_from_the_files_end(tmp_path, template, line):
    """The 22nd chunk of 24 has blank units: the real run fails there, late. The cut run
    reads the first chunks; the sweep reads the file again from its end, each chunk parsed
    alone from its own lines (`_csv_chunks`), and meets it third. Each chunk is a new frame,
    which no other iteration shares, so its failure is the iteration's own. Its fix fills
    the blanks. A reader opened by ``with`` is closed when the sweep runs: the file is read
    again by its path."""
    cell = template.format(step=STEP_S * 2, fill="", after="")
    assert _raised_type(cell, _transactions(tmp_path / "truth")) == "IntCastingNaNError"
    result, verdict = _beside_the_cell(_transactions(tmp_path / "run"), cell)
    assert result.swept_iteration and result.cut_before_crash, result
    assert (verdict.crash, verdict.exception, verdict.line) == (
        True, "IntCastingNaNError", line), verdict
    fixed = template.format(step=STEP_S * 2, fill=".fillna(0)", after="")
    assert _raised_type(fixed, _transactions(tmp_path / "truth_fixed")) is None
    result, verdict = _beside_the_cell(_transactions(tmp_path / "run_fixed"), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    assert any("newest first" in c for c in result.cuts), result.cuts


def test_a_file_the_cell_rewrites_after_its_chunked_loop_is_not_judged(tmp_path):
    """After the loop the cell writes the export again, with blanks: the real loop read
    the clean file; the sweep would read the new one."""
    after = ("bad = pd.read_csv(path)\nbad.loc[10_500, 'units'] = float('nan')\n"
             "bad.to_csv(path, index=False)")
    cell = CHUNKED.format(step=STEP_S * 2, fill="", after=after)
    assert _raised_type(cell, _transactions(tmp_path / "truth", bad_chunk=None)) is None
    result, verdict = _beside_the_cell(_transactions(tmp_path / "run", bad_chunk=None), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("options", [
    {}, {"usecols": ["store", "units"]}, {"dtype": {"store": "int32"}},
    {"na_values": ["none"]}, {"sep": ","},
])
def test_a_csv_files_chunks_are_read_again_as_the_reader_yields_them(tmp_path, options):
    """Unit: `_csv_chunks` gives the reader's own chunks (values, dtypes, index), quoted
    fields with commas and quotes among them, from the last back to the first not read."""
    import pandas as pd

    from crashpredict._dryrun._fastforward import _csv_chunks

    path = _transactions(tmp_path)["path"]
    real = list(pd.read_csv(path, chunksize=700, **options))
    reader = pd.read_csv(path, chunksize=700, **options)
    next(reader)
    chunks = list(_csv_chunks(reader, 3))
    assert [k for k, _ in chunks] == list(range(len(real) - 1, 2, -1))
    for k, chunk in chunks:
        pd.testing.assert_frame_equal(chunk, real[k])
    reader.close()


def _transactions_text(bad_chunk: int | None = 21) -> dict:
    """`_transactions`' export as a text in memory (``csv_text``), as a notebook builds one
    or receives one from an API, with ``io``."""
    import io

    import pandas as pd

    namespace = _transactions(_text_dir(), bad_chunk)
    with open(namespace.pop("path"), encoding="utf-8") as file:
        namespace["csv_text"] = file.read()
    namespace.update(io=io, pd=pd)
    return namespace


def _text_dir():
    import pathlib
    import tempfile

    return pathlib.Path(tempfile.mkdtemp(prefix="crashpredict-text-"))


BUFFERED = """
parts = []
for i, chunk in enumerate(pd.read_csv(io.StringIO(csv_text), chunksize=500)):
    time.sleep({step})
    chunk['units'] = chunk['units']{fill}.astype(int)
    parts.append(chunk.groupby('store')['units'].sum())
"""


def test_a_bad_chunk_of_a_text_in_memory_is_met_from_its_end():
    """The chunked reader reads an ``io.StringIO`` of the export, not a file: the sweep
    reads the buffer's text again from its end, as it reads a file (`_csv_chunks`), and
    meets the 22nd chunk's blank units third. Its fix fills the blanks: no warning."""
    cell = BUFFERED.format(step=STEP_S * 2, fill="")
    assert _raised_type(cell, _transactions_text()) == "IntCastingNaNError"
    result, verdict = _beside_the_cell(_transactions_text(), cell)
    assert result.swept_iteration and result.cut_before_crash, result
    assert (verdict.crash, verdict.exception, verdict.line) == (
        True, "IntCastingNaNError", 5), verdict
    fixed = BUFFERED.format(step=STEP_S * 2, fill=".fillna(0)")
    assert _raised_type(fixed, _transactions_text()) is None
    result, verdict = _beside_the_cell(_transactions_text(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    assert any("newest first" in c for c in result.cuts), result.cuts


def test_a_text_buffers_chunks_are_read_again_as_the_reader_yields_them():
    """Unit: `_csv_chunks` gives a reader of an ``io.StringIO`` its own chunks, read from
    the text the buffer held (`_buffer_text`), not from what it holds after the loop."""
    import io

    import pandas as pd

    from crashpredict._dryrun._fastforward import _buffer_text, _csv_chunks

    text = _transactions_text()["csv_text"]
    real = list(pd.read_csv(io.StringIO(text), chunksize=700))
    buffer = io.StringIO(text)
    reader = pd.read_csv(buffer, chunksize=700)
    held = _buffer_text(reader)
    next(reader)
    buffer.seek(0)
    buffer.write("store,units,note\n9,9,x\n")  # written after the loop began
    chunks = list(_csv_chunks(reader, 3, held))
    assert [k for k, _ in chunks] == list(range(len(real) - 1, 2, -1))
    for k, chunk in chunks:
        pd.testing.assert_frame_equal(chunk, real[k])


def test_a_buffer_the_reader_did_not_read_from_its_start_is_not_read_again():
    """Unit: a buffer whose first line was read before the reader began (a title line
    skipped by hand) starts elsewhere than the reader did: its chunks would be counted
    from another row. Its first line names other columns than the reader's: nothing."""
    import io

    import pandas as pd

    from crashpredict._dryrun._fastforward import _buffer_text, _csv_chunks

    buffer = io.StringIO("POS export, week 12\nstore,units\n" + "1,2\n" * 50)
    buffer.readline()
    reader = pd.read_csv(buffer, chunksize=10)
    assert _csv_chunks(reader, 1, _buffer_text(reader)) is None
    assert _buffer_text(pd.read_csv(io.BytesIO(b"a\n1\n"), chunksize=1)) is None


@pytest.mark.parametrize("options, text", [
    ({"skiprows": [3]}, None), ({"comment": "#"}, None), ({"nrows": 900}, None),
    ({"index_col": 0}, None), ({"converters": {"units": float}}, None),
    ({"usecols": lambda c: c != "note"}, None), ({"header": None}, None),
    ({}, "store,units\n1,2\n\n3,4\n"),                 # a blank line pandas skips
    ({}, "store,units\r\n1,2\r\n3,4\r\n"),             # carriage returns
    ({}, 'store,note\n1,"two\nlines"\n3,x\n'),         # a field over two lines
    ({}, "\ufeffstore,units\n1,2\n3,4\n"),             # a byte-order mark
])
def test_chunks_are_not_read_again_where_a_line_may_not_be_a_row(tmp_path, options, text):
    """Unit: `_csv_chunks` reads nothing where a line may not be one row, or an option
    changes how the reader parses (it would take another chunk than the file's lines)."""
    import pandas as pd

    from crashpredict._dryrun._fastforward import _csv_chunks

    if text is None:
        path = _transactions(tmp_path)["path"]
    else:
        path = tmp_path / "odd.csv"
        path.write_bytes(text.encode("utf-8"))
    reader = pd.read_csv(path, chunksize=2, **options)
    assert _csv_chunks(reader, 0) is None
    reader.close()


# ---- the folds of a scikit-learn splitter -----------------------------------------------------

def _flows() -> dict:
    """Time-ordered network flows of classes 0, 1 and 3; a port scan (class 2) happened
    only in the fourth fifth of the log."""
    import numpy as np
    import xgboost as xgb
    from sklearn.model_selection import KFold, StratifiedKFold

    rng = np.random.default_rng(26)
    y = rng.choice([0, 1, 3], 1000, p=[0.7, 0.2, 0.1])
    y[600:800][rng.random(200) < 0.5] = 2
    X = rng.normal(size=(1000, 6)) + y[:, None] * 0.3
    return {"np": np, "xgb": xgb, "time": time, "X": X, "y": y, "KFold": KFold,
            "StratifiedKFold": StratifiedKFold, "kf": KFold(n_splits=5),
            "skf": StratifiedKFold(n_splits=5, shuffle=True, random_state=0)}


FOLDS = """
scores = []
for fold, (tr_idx, va_idx) in enumerate({split}):
    time.sleep(0.3)
    clf = xgb.XGBClassifier(n_estimators=5, max_depth=2, n_jobs=1)
    clf.fit(X[tr_idx], y[tr_idx])
    scores.append(clf.score(X[va_idx], y[va_idx]))
"""


def test_a_fold_the_cut_skipped_is_met_from_the_splitters_folds():
    """Unshuffled folds of a time-ordered log: the fourth fold's training rows lack the
    port scan, so XGBoost refuses classes [0 1 3]. The cut run keeps three folds; the
    splitter's folds, asked of it again as the loop began (`_split_folds`), are swept from
    the last back, and the fourth fails on its own values. Its fix stratifies."""
    cell = FOLDS.format(split="kf.split(X)")
    assert _raised_type(cell, _flows()) == "ValueError"
    result, verdict = _beside_the_cell(_flows(), cell)
    assert result.swept_iteration and result.cut_before_crash, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), verdict
    fixed = FOLDS.format(split="skf.split(X, y)")
    assert _raised_type(fixed, _flows()) is None
    result, verdict = _beside_the_cell(_flows(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    assert any("newest first" in c for c in result.cuts), result.cuts


@pytest.mark.parametrize("after", ["y[y == 2] = 5", "labels_view[labels_view == 2] = 5"])
def test_labels_the_cell_changes_after_its_fold_loop_are_not_the_folds(after):
    """The scan runs over the whole log, so every fold trains on all four classes and the
    real run is clean. After the loop the cell relabels the scans (5 for a report): the
    sweep's folds would train on classes [0 1 3 5], which XGBoost refuses."""
    def namespace() -> dict:
        found = _flows()
        found["y"][found["y"] == 2] = 0
        found["y"][::7] = 2
        found["labels_view"] = found["y"][:]  # a view an earlier cell made
        return found

    cell = FOLDS.format(split="kf.split(X)") + after + "\n"
    assert _raised_type(cell, namespace()) is None
    result, verdict = _beside_the_cell(namespace(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


BOUND_FOLDS = """
features, labels = X * 1.0, y.copy()
scores = []
for fold, (tr_idx, va_idx) in enumerate(kf.split(features)):
    time.sleep(0.3)
    clf = xgb.XGBClassifier(n_estimators=5, max_depth=2, n_jobs=1)
    clf.fit(features[tr_idx], labels[tr_idx])
    scores.append(clf.score(features[va_idx], labels[va_idx]))
{after}"""


def test_a_fold_of_what_the_cell_binds_before_its_loop_is_met():
    """The cell makes its features and labels itself, once, before the fold loop, and
    nothing in it changes them after (`_settled_before`): the swept fold reads what the
    real one does, and its failure counts."""
    cell = BOUND_FOLDS.format(after="")
    assert _raised_type(cell, _flows()) == "ValueError"
    result, verdict = _beside_the_cell(_flows(), cell)
    assert result.swept_iteration and result.cut_before_crash, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 7), verdict


@pytest.mark.parametrize("after", [
    "labels[labels == 2] = 5",                 # stored into after the loop
    "labels.put(np.flatnonzero(labels == 2), 5)",  # ...by a method of its own
    "np.place(labels, labels == 2, 5)",        # ...by a call it is handed
    "features, labels = features, labels + (labels == 2) * 3",  # bound again
    "view = labels[:]\nview[view == 2] = 5",  # through a view of it
    "labels.reshape(-1)[labels == 2] = 5",     # ...a view a method makes
])
def test_what_the_cell_binds_before_its_loop_and_changes_after_is_not_the_folds(after):
    """The labels relabelled after the loop: the swept folds would train on classes the
    real run's never saw. Each way of changing them leaves them unjudged."""
    def namespace() -> dict:
        found = _flows()
        found["y"][found["y"] == 2] = 0
        found["y"][::7] = 2
        return found

    cell = BOUND_FOLDS.format(after=after)
    assert _raised_type(cell, namespace()) is None
    result, verdict = _beside_the_cell(namespace(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_folds_drawn_from_a_moving_random_state_are_not_swept():
    """Unit: `_split_folds` asks again only splitters whose folds come out the same."""
    import numpy as np
    from sklearn.model_selection import (GroupKFold, KFold, RepeatedStratifiedKFold,
                                         ShuffleSplit, StratifiedKFold, TimeSeriesSplit)

    from crashpredict._dryrun._fastforward import _split_folds

    X, y = np.zeros((40, 2)), np.arange(40) % 2
    groups = np.arange(40) // 4
    for splitter, again in [
            (KFold(5), True), (KFold(5, shuffle=True, random_state=3), True),
            (StratifiedKFold(4, shuffle=True, random_state=1), True), (TimeSeriesSplit(3), True),
            (GroupKFold(5), True), (ShuffleSplit(3, random_state=2), True),
            (RepeatedStratifiedKFold(n_splits=2, n_repeats=2, random_state=0), True),
            (KFold(5, shuffle=True), False), (ShuffleSplit(3), False),
            (KFold(5, shuffle=True, random_state=np.random.RandomState(0)), False)]:
        generator = splitter.split(X, y, groups)
        folds = _split_folds(generator)
        if not again:
            assert folds is None, splitter
            continue
        real = list(generator)
        assert folds is not None and len(folds) == len(real), splitter
        for (train, test), (real_train, real_test) in zip(folds, real):
            assert (train == real_train).all() and (test == real_test).all(), splitter
    started = KFold(5).split(X)
    next(started)
    assert _split_folds(started) is None  # a generator already running: not from its start
    assert _split_folds(x for x in range(3)) is None


def test_what_a_change_in_place_reaches_through_views():
    """Unit: `_viewed_by` counts changed what a changed name was made from in the cell
    (not a module, a function or a constant it was made with), and what in the namespace
    shares memory with it: a numpy view, a frame's block, a series' values; not a copy."""
    import numpy as np
    import pandas as pd

    from crashpredict._dryrun._fastforward import _changed_after, _viewed_by

    X = np.arange(12.0).reshape(4, 3)
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]})
    namespace = {"np": np, "pd": pd, "X": X, "frame": frame, "window": 5, "frames": [frame],
                 "rows": X[1:], "flat": X.reshape(-1), "copied": X.copy(),
                 "values": frame.values, "column": frame["a"], "other": np.zeros(3),
                 "strange": type("Strange", (), {"__getattr__": lambda s, k: 1 / 0})()}
    tree = ast.parse("v = np.asarray(X[:window])\nv[0] = np.nan\n")
    assert _viewed_by(tree, {"v"}, namespace) == {"v", "X", "rows", "flat"}
    assert _viewed_by(None, {"values"}, namespace) == {"values", "frame", "column"}
    assert _viewed_by(None, {"column"}, namespace) >= {"column", "frame"}
    assert _viewed_by(None, {"other"}, namespace) == {"other"}
    assert _viewed_by(None, {"strange"}, namespace) == {"strange"}
    sources = {"df = frame.copy()": set(), "part = frame[frame['a'] > 1]": set(),
               "part = frame.loc[~mask, ['a']]": set(), "part = frame[['a', 'b']]": set(),
               "v = X[:2]": {"X"}, "v = X[1]": {"X"}, "w = model.coef_": {"model"},
               "v = X.reshape(-1).T": {"X"}, "v = X * 1.0": set(), "v = prep(X)": {"X"},
               "v = pd.DataFrame(X)": {"X"},
               "kept = list(frames)": {"frames"}, "kept = frames.copy()": {"frames"},
               "v = len(X)": set()}
    for line, expected in sources.items():
        tree = ast.parse(line + "\nv[0] = 0; df['a'] = 0; part['a'] = 0; w[0] = 0; kept.pop()")
        found = _viewed_by(tree, {"v", "df", "part", "w", "kept"}, namespace)
        assert found - {"v", "df", "part", "w", "kept"} - {"rows", "flat"} == expected, line
    cell = ast.parse("for c in cols:\n    frame[c] = frame[c] * 2\nvalues[0, 0] = 0\n")
    assert "frame" in _changed_after(cell, cell.body[0], namespace)
    cell = ast.parse("for c in cols:\n    frame[c] = frame[c] * 2\nprint(values[0, 0])\n")
    assert "frame" not in _changed_after(cell, cell.body[0], namespace)


def test_growing_a_list_changes_none_of_what_it_holds():
    """Unit: `_viewed_by` with the containers a cell only grows (`_grown_containers`):
    ``current = [events[0]]`` then ``current.append(ev)`` changes no event, nor the log
    ``events`` was sorted from; what is appended is held as it was. A list grown through
    another name for it (``rows = log``), an item changed in place (``current[0].append``,
    ``for s in sessions: s.append``), or a list handed to another call, is changed, with
    what it holds."""
    from crashpredict._dryrun._fastforward import (_grown_containers, _handed, _receivers,
                                                   _resized_in, _stored_into, _viewed_by)

    def changed(source: str, namespace: dict) -> set[str]:
        """As `Cutter._changed_by_cell` seeds and reads it."""
        body = ast.parse(source).body
        seeds = _stored_into(body) | _resized_in(body) | _receivers(body, namespace) | \
            _handed(body, namespace, grown=True)
        return _viewed_by(ast.Module(body=body, type_ignores=[]), seeds, namespace,
                          _grown_containers(body, namespace, seeds))

    namespace = {"log": [[(1, "a")]], "events": [(1, "a")], "ev": [2, "b"], "current": [],
                 "sessions": [], "rows": [], "other": [], "s": []}
    grown = ("events = sorted(log[0])\nsessions, current = [], [events[0]]\n"
             "current.append(ev)\nsessions.append(current)\n")
    assert changed(grown, namespace) == {"current", "sessions"}
    for more, reached in [("rows = log\nrows.append(ev)\n", {"log", "rows"}),
                          ("current[0].append(1)\n", {"log", "events"}),
                          ("for s in sessions:\n    s.append(1)\n", {"log", "events"}),
                          ("other.append(current)\nother[0].sort()\n", {"log", "events"}),
                          ("shuffle(current)\n", {"log", "events"})]:
        found = changed(grown + more, namespace)
        assert reached <= found, (more, found)
    assert "ev" not in _handed(ast.parse(grown).body, namespace, grown=True)
    assert "ev" in _handed(ast.parse(grown).body, namespace)


def test_a_comprehensions_own_targets_are_not_read_from_the_cell():
    """Unit: `_free_reads` leaves out the targets of a comprehension in its own parts
    (``[t for t, _ in events]`` reads ``events``), not a name read beside it nor its
    first iterable, and a lambda's parameters in its body."""
    from crashpredict._dryrun._fastforward import _free_reads

    def reads(source: str) -> set[str]:
        return _free_reads(ast.parse(source, mode="eval").body)

    assert reads("[t for t, _ in events]") == {"events"}
    assert reads("[t for t in times] + [t]") == {"times", "t"}
    assert reads("[x for x in x]") == {"x"}
    assert reads("{k: v * w for k, v in d.items() if v > lo}") == {"d", "w", "lo"}
    assert reads("[y for x in rows for y in x if y]") == {"rows"}
    assert reads("sorted(ps, key=lambda p, n=n0: p[n] + m)") == {"sorted", "ps", "n0", "m"}


DEVICE_STEPS = """
queue = deque(sorted(readings))
report = {{}}
while queue:
    device = queue.popleft()
    time.sleep({step})
    log = sorted(readings[device])
    stamps = [t for t, _ in log]
    steps = [later - earlier for earlier, later in zip(stamps, stamps[1:])]
    runs, run = [], [log[0]]
    for t, value in log[1:]:
        if value < run[-1][1]:
            runs.append(run)
            run = []
        run.append((t, value))
    runs.append(run)
    report[device] = {{"runs": len(runs), "mean_step": sum(steps) / {count}}}
"""


def _device_readings(single_at: int | None = BAD) -> dict:
    """Forty devices' timed readings; the device at ``single_at`` has sent one so far."""
    import random

    rng = random.Random(8)
    readings = {}
    for device in range(ITEMS):
        t, log = rng.randint(0, 86_400), []
        for _ in range(1 if device == single_at else rng.randint(5, 40)):
            t += rng.randint(1, 4000)
            log.append((t, rng.random()))
        readings[device] = log
    return {"time": time, "readings": readings, "deque": collections.deque}


def test_a_devices_steps_divide_by_zero_in_a_drained_queue_that_grows_runs():
    """The 37th device of 40 has sent a single reading: no steps between readings, and
    the mean step divides by zero, late. The iteration splits the device's readings into
    rising runs: ``run`` starts as a list of the first reading and grows, ``runs`` grows
    with it. Growing them changes no reading of the log (`_grown_containers`), and the
    stamps' comprehension reads the iteration's own readings, whatever else the cell binds
    to ``t`` (`_free_reads`): the skipped device's failure counts. Its fix divides by at
    least one."""
    cell = DEVICE_STEPS.format(step=STEP_S, count="len(steps)")
    assert _raised_type(cell, _device_readings()) == "ZeroDivisionError"
    result, verdict = _beside_the_cell(_device_readings(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == \
        (True, "ZeroDivisionError", 17), (verdict, result)
    fixed = DEVICE_STEPS.format(step=STEP_S, count="max(len(steps), 1)")
    assert _raised_type(fixed, _device_readings()) is None
    result, verdict = _beside_the_cell(_device_readings(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def _regions(one_class: int | None = BAD) -> dict:
    """Forty regions' customers; in the one at ``one_class`` nobody has churned yet."""
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(5)
    data = pd.DataFrame({"region": np.repeat(np.arange(ITEMS), 80), "a": rng.random(ITEMS * 80),
                         "b": rng.random(ITEMS * 80), "y": rng.integers(0, 2, ITEMS * 80)})
    if one_class is not None:
        data.loc[data["region"] == one_class, "y"] = 0
    return {"np": np, "time": time, "LogisticRegression": LogisticRegression, "data": data}


REGIONS = """
auc = {{}}
for r in range(40):
    time.sleep({step})
    part = data[data['region'] == r]
    model = LogisticRegression(max_iter=3000).fit(part[['a', 'b']], part['y'])
    auc[r] = {score}
"""


def test_a_late_item_a_fit_refuses_is_found_by_a_quick_pass():
    """The 37th region's labels are one class: its fit refuses them, late in the real
    run. The sweep first runs the skipped regions with the fits cut, in a copy of the
    namespace (`Cutter.quick_namespace`: the loop changes only the dict it fills); the
    refusal of one class comes before the fit iterates (`_ONE_CLASS_WORDS`: an input
    check), so the quick pass's failure counts as it is, without that region run whole
    (`test_the_iteration_a_quick_pass_doubts_is_run_whole_first` holds what a doubt
    does). Its fix skips such regions."""
    cell = REGIONS.format(step=STEP_S, score="model.score(part[['a', 'b']], part['y'])")
    assert _raised_type(cell, _regions()) == "ValueError"
    result, verdict = _beside_the_cell(_regions(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), verdict
    assert any(c.endswith("with the library fits cut (a quick pass)") for c in result.cuts), \
        result.cuts
    assert not any(c.endswith("of the iterations skipped, newest first") for c in result.cuts), \
        result.cuts
    fixed = cell.replace("    model =", "    if part['y'].nunique() < 2:\n        continue\n"
                         "    model =")
    assert _raised_type(fixed, _regions()) is None
    result, verdict = _beside_the_cell(_regions(), fixed)
    assert verdict.crash is not True, (verdict, result)


def test_the_iteration_a_quick_pass_doubts_is_run_whole_first():
    """Unit: a failure of the quick pass that would count but for its cut fits (not an
    input check) ends it and names its iteration (`Cutter.quick_found`); the sweep proper
    runs that item first, with its fits whole, and judges it as any other (a clean whole
    run claims nothing), then the others newest first, that one not again."""
    tree = ast.parse("for item in items:\n    pass\n")
    cutter = Cutter({0: LoopInfo(0, 1, "", "the cell", sweep=True)}, cell_tree=tree)
    items = [f"i{k}" for k in range(10)]
    cutter.sources[0], cutter.tails = (items, None), [(0, 2)]
    cutter.quick = True
    assert list(cutter.swept(0)) == items[:1:-1] and not cutter.whole
    cutter.quick = False
    cutter.quick_found[0] = (7, "i7")
    order = list(cutter.swept(0))
    assert order == ["i7", "i9", "i8", "i6", "i5", "i4", "i3", "i2"] and cutter.whole
    assert cutter.swept_counts[0] == 8 and cutter.quick_counts[0] == 8 and not cutter.quick_found


def test_a_quick_pass_runs_only_where_the_loop_changes_nothing_it_reads():
    """Unit: `Cutter.quick_namespace` copies the plain containers a loop's body fills and
    refuses one that changes in place what it did not make anew (a frame, its item, an
    item of a container its shallow copy would share)."""
    import pandas as pd

    frame = pd.DataFrame({"a": [1.0, 2.0]})
    namespace = {"frame": frame, "scores": [], "auc": {}, "frames": [frame], "pd": pd,
                 "r": 2, "f": frame, "rows": [{}]}  # (as the cut run left them)
    cases = {"for r in range(3):\n    part = frame[frame['a'] > r]\n    part['b'] = 1\n"
             "    auc[r] = part['b'].sum()\n    scores.append(r)\n": True,
             "for r in range(3):\n    part = frame\n    part['b'] = r\n": False,
             "for r in range(3):\n    frame['b'] = r\n": False,
             "for f in frames:\n    f['b'] = 1\n": False,
             "for r in range(3):\n    frame.to_csv(f'{r}.csv')\n": False,
             "for r in range(3):\n    rows.append({'r': r})\n": True,
             "for r in range(3):\n    rows[-1]['r'] = r\n": False,  # an item, shared
             "for r in range(3):\n    rows[0].update(r=r)\n": False}
    for cell, allowed in cases.items():
        tree = ast.parse(cell)
        cutter = Cutter({0: LoopInfo(0, 1, "", "the cell", sweep=True)}, cell_tree=tree)
        cutter.library_cuts.append("a fit cut")
        scratch = cutter.quick_namespace(0, namespace)
        assert (scratch is not None) is allowed, cell
        if scratch is not None:  # what the body fills is copied, nothing else
            for name in ("auc", "scores", "rows"):
                assert (scratch[name] is namespace[name]) is (name not in cell), (cell, name)
            assert scratch["frame"] is frame


NAMED_FIRST = """
names = sorted(os.listdir(folder))
parts = []
for name in names:
    time.sleep({step})
    df = pd.read_csv(os.path.join(folder, name))
    df['amount'] = df['amount'].astype(float)
    parts.append(df.groupby('k')['amount'].sum())
totals = pd.concat(parts, axis=1)
{after}"""


@pytest.mark.parametrize(("after", "found"), [
    ("", True),
    ("names.append('summary.csv')", False),  # the list the loop ran over, changed after it
])
def test_a_list_of_file_names_the_cell_makes_before_its_loop_is_swept(tmp_path, after, found):
    """The cell lists the exports itself, once, before the loop, and nothing changes the
    list (texts, which nothing changes in place): the 37th export's separators are met
    by the sweep. A list grown after the loop is not read so."""
    cell = NAMED_FIRST.format(step=STEP_S, after=after)
    assert _raised_type(cell, _exports(tmp_path / "truth")) == "ValueError"
    result, verdict = _beside_the_cell(_exports(tmp_path / "run"), cell)
    assert bool(result.swept_iteration) is found, result
    assert (verdict.crash is True) is found, verdict


def test_parameters_unpacked_and_a_pandas_constructors_arguments_are_not_handed():
    """Unit: ``Model(**params)`` gets a new dict of the values (a dict of numbers and
    texts is not handed; one holding a list is: the list is), and a pandas constructor
    copies a list of numbers it is given (``pd.Series(scores, index=cutoffs)``), not an
    array (a frame of it shares its memory)."""
    import pandas as pd

    from crashpredict._dryrun._fastforward import _handed

    namespace = {"pd": pd, "params": {"max_depth": 7, "objective": "reg:squaredlogerror"},
                 "grown": {"layers": [64, 32]}, "scores": [1.0, 2.0], "cutoffs": [64, 72],
                 "Model": dict}
    tree = ast.parse("a = Model(**params)\nb = Model(**grown)\n"
                     "s = pd.Series(scores, index=cutoffs)\nf = pd.DataFrame(table)\n")
    namespace["table"] = __import__("numpy").zeros((2, 2))
    assert _handed(tree.body, namespace) == {"grown", "table"}


def _admissions() -> dict:
    """Forty months of admissions, and a ward table in which one ward was entered twice."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(12)
    admissions = pd.DataFrame({"month": np.repeat(np.arange(ITEMS), 50),
                               "ward_id": rng.integers(0, 8, ITEMS * 50),
                               "days": rng.integers(1, 20, ITEMS * 50)})
    wards = pd.DataFrame({"ward_id": [*range(8), 3], "ward_name": [f"W{k}" for k in range(9)]})
    return {"pd": pd, "time": time, "admissions": admissions, "wards": wards}


MERGED = """
monthly = []
for month, m in admissions.groupby('month'):
    time.sleep({step})
    m = m.copy()
    m['long'] = m['days'] > m['days'].quantile(0.9)
    monthly.append(m)
stays = pd.concat(monthly, ignore_index=True)
stays = stays.merge({right}, on='ward_id', how='left', validate='many_to_one')
"""


@pytest.mark.parametrize(("right", "claimed"), [
    ("wards", True),
    ("wards.drop_duplicates('ward_id')", None),  # the fix: runs clean
    ("pd.concat(monthly)[['ward_id']].assign(n=1)", False),  # made by the loop
])
def test_a_merge_that_refuses_a_right_dataset_no_cut_loop_makes_is_the_real_runs(right, claimed):
    """After the month loop, cut, the merge's validation refuses the ward table's keys:
    that is checked whatever the left (the months kept) holds, so the real run's merge
    refuses them too (`Cutter.keys_kept`). A right dataset the loop makes is not read so."""
    cell = MERGED.format(step=STEP_S, right=right)
    truth = _raised_type(cell, _admissions())
    assert truth == (None if claimed is None else "MergeError")
    result, verdict = _beside_the_cell(_admissions(), cell)
    assert result.keys_kept is bool(claimed), result
    assert (verdict.crash is True) is bool(claimed), verdict


def _tables(renamed: bool = True) -> dict:
    """A base table of ids and a dict of feature tables keyed by their source (column
    names and values), each with the ids shuffled; in the last the key column was
    exported as ``ID`` (``renamed``). The notebook's function makes each a frame."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(21)
    base = pd.DataFrame({"id": np.arange(400), "v": rng.normal(size=400)})
    tables = {f"src{k:02d}": (["id", f"x{k}"], np.column_stack(
        [rng.permutation(400), rng.normal(size=400)])) for k in range(ITEMS)}
    if renamed:
        tables[f"src{ITEMS - 1:02d}"][0][0] = "ID"
    namespace = {"pd": pd, "time": time, "base": base, "tables": tables, "__name__": "__main__"}
    source = "def as_table(cols, values):\n    return pd.DataFrame(values, columns=cols)\n"
    linecache.cache["<as_table>"] = (len(source), None, source.splitlines(True), "<as_table>")
    exec(compile(source, "<as_table>", "exec"), namespace)  # noqa: S102 - an earlier cell
    return namespace


JOINED = """
merged = base
for name, (cols, values) in tables.items():
    time.sleep({step})
    t = as_table(cols, values)
    merged = merged.merge({right}, on='id', how='left')
"""


@pytest.mark.parametrize("right", ["t", "t.rename(columns={'ID': 'id'})"])
def test_a_merge_key_the_last_table_lacks_fails_whatever_the_left_holds(right):
    """Each source's table is merged into what the loop merged so far; the last source's
    key column is ``ID``. The cut loop's last iteration fails as the real one does:
    pandas looks each dataset's key up in it, so a right dataset of the iteration's own
    that lacks it fails the merge whatever the left (made by the cut loop) holds
    (`_merge_key_lacking`). The fix renames the column."""
    cell = JOINED.format(step=STEP_S, right=right)
    crash = right == "t"
    assert _raised_type(cell, _tables()) == ("KeyError" if crash else None)
    result, verdict = _beside_the_cell(_tables(), cell)
    if crash:  # (the last table met after the cell, its iteration skipped: the sweep)
        assert result.swept_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 6), \
            verdict
    else:
        assert verdict.crash is not True, verdict


def test_the_merge_dataset_that_lacks_the_key_is_found():
    """Unit: `_merge_key_lacking` names the dataset of a ``merge`` (a method's or
    pandas') that lacks the key a ``KeyError`` names, as a column and an index level; not
    one that holds it in its index, nor a key the call does not name by a constant, nor a
    dataset written as an expression, nor another error."""
    import pandas as pd

    from crashpredict._dryrun._fastforward import _merge_key_lacking

    namespace = {"pd": pd, "a": pd.DataFrame({"id": [1], "x": [2]}),
                 "b": pd.DataFrame({"ID": [1], "y": [3]}),
                 "c": pd.DataFrame({"y": [3]}, index=pd.Index([1], name="id")),
                 "key": "id"}

    def lacking(call: str, exc: BaseException = KeyError("id")):
        found = _merge_key_lacking(ast.parse(call).body[0].value, exc, namespace)
        return found.id if found is not None else None

    assert lacking("a.merge(b, on='id')") == "b"
    assert lacking("pd.merge(b, a, on=['id'])") == "b"
    assert lacking("a.merge(b, left_on='id', right_on='id')") == "b"
    assert lacking("b.merge(a, left_on='id', right_on='ID')") == "b"
    assert lacking("a.merge(c, on='id')") is None
    assert lacking("a.merge(b, on=key)") is None
    assert lacking("a.merge(b.head(), on='id')") is None
    assert lacking("a.merge(b, on='id')", KeyError("x")) is None
    assert lacking("a.merge(b, on='id')", ValueError("id")) is None


SUMMARISED = """
rows = []
for month, m in admissions.groupby('month'):
    time.sleep({step})
    rows.append({{'month': month, 'stays': len(m), 'long': int((m['days'] > 10).sum())}})
summary = pd.DataFrame(rows)
{merge}
"""


@pytest.mark.parametrize(("merge", "claimed"), [
    ("plan = budgets.merge(summary, on='month', how='left', validate='one_to_one')", True),
    ("plan = pd.merge(budgets, summary, on='month', validate='1:1')", True),
    ("plan = budgets.drop_duplicates('month').merge(summary, on='month', validate='1:1')",
     None),  # the fix: runs clean
    # the left dataset is made from what the loop made
    ("plan = pd.concat([summary, summary.tail(1)]).merge(budgets.drop_duplicates('month'), "
     "on='month', validate='one_to_many')", False),
])
def test_a_merge_that_refuses_a_left_dataset_no_cut_loop_makes_is_the_real_runs(merge, claimed):
    """The budget table lists a month twice; the monthly summary comes from a cut loop.
    ``validate`` checks the left dataset's keys whatever the right holds: the real run's
    merge refuses them too (`Cutter.keys_kept`). A left dataset the loop makes is not
    read so."""
    import numpy as np
    import pandas as pd

    def namespace() -> dict:
        return {**_admissions(), "budgets": pd.DataFrame(
            {"month": [*range(ITEMS), 7], "budget": np.arange(ITEMS + 1) * 10.0})}

    cell = SUMMARISED.format(step=STEP_S, merge=merge)
    truth = _raised_type(cell, namespace())
    assert truth == (None if claimed is None else "MergeError")
    result, verdict = _beside_the_cell(namespace(), cell)
    assert result.keys_kept is bool(claimed), result
    assert (verdict.crash is True) is bool(claimed), verdict


@pytest.mark.parametrize(("merge", "claimed"), [
    ("plan = summary.merge(budget_codes, on='month', how='left')", True),
    ("plan = pd.merge(budget_codes, summary, on='month')", True),
    # the fix: the codes read as numbers first
    ("budget_codes['month'] = budget_codes['month'].astype(int)\n"
     "plan = summary.merge(budget_codes, on='month', how='left')", None),
    # the key column changed after the frame is made: not read so
    ("summary['month'] = summary['month'] + 0.0\n"
     "plan = summary.merge(budget_codes, on='month', how='left')", False),
    # each side's key named apart: the message names the left's only
    ("plan = summary.merge(budget_codes, left_on='month', right_on='month')", False),
])
def test_group_keys_a_cut_loop_collected_merged_with_text_keys_are_the_real_runs(merge,
                                                                                 claimed):
    """One record per month of a groupby over an integer column, keyed by the month, cut;
    the budget table reads its months as zero-padded text. pandas refuses to merge
    integers with texts, and every key of that groupby is an integer: the real run's
    frame of records has the cut run's dtype under the key (`Cutter.key_types_kept`)."""
    import numpy as np
    import pandas as pd

    def namespace() -> dict:
        return {**_admissions(), "budget_codes": pd.DataFrame(
            {"month": [f"{k:02d}" for k in range(ITEMS)], "budget": np.arange(ITEMS) * 10.0})}

    cell = SUMMARISED.format(step=STEP_S, merge=merge)
    truth = _raised_type(cell, namespace())
    assert truth == (None if claimed is None else "ValueError")
    result, verdict = _beside_the_cell(namespace(), cell)
    assert result.key_types_kept is bool(claimed), result
    assert (verdict.crash is True) is bool(claimed), verdict


def _event_batches() -> dict:
    """Ten batches of 200 events, each naming the one before; the last batch's last 20
    events come from a new API version that says ``labels`` for ``tags``."""
    batches = [[{"user": f"u{b}_{i}", "prev": f"u{b}_{max(i - 1, 0)}", "tags": ["x", "y"]}
                for i in range(200)] for b in range(10)]
    for event in batches[-1][-20:]:
        event["labels"] = event.pop("tags")
    return {"time": time, "collections": collections, "batches": batches}


EVENTS = """
tag_counts = collections.Counter()
by_user = {{}}
for batch in batches:
    for event in batch:
        time.sleep(0.001)
        by_user[event['user']] = event
        for tag in {tags}:
            tag_counts[tag] += 1
"""


@pytest.mark.parametrize(("tags", "claimed"), [
    ("event['tags']", True),
    ("event.get('tags', event.get('labels'))", None),  # the fix: runs clean
    # the event before, looked up in what the cut loop fills: the cut skipped it
    ("by_user[event['prev']]['user']", False),
])
def test_a_crash_in_an_inner_loops_header_on_the_last_items_own_values(tags, claimed):
    """A loop over each batch's events, cut, in a loop over the batches: the last batch's
    last event has no ``tags``, and the inner loop over them fails in its header. What the
    header reads is the last event's own: the real run's (`_header_of`: a header is judged
    where it stands). A header that reads what the cut loop filled is not read so."""
    cell = EVENTS.format(tags=tags)
    truth = _raised_type(cell, _event_batches())
    assert truth == ("KeyError" if claimed else None)
    result, verdict = _beside_the_cell(_event_batches(), cell)
    if claimed is not None:  # the cut run meets a KeyError either way
        assert result.outcome == "crashed" and result.exception == "KeyError", result
    assert bool(result.last_iteration) is bool(claimed), result
    assert (verdict.crash is True) is bool(claimed), verdict


def _regional_stores(late_type: str | None = "kiosk") -> dict:
    """Forty regions' weekly sales, each a frame whose ``store_type`` is categorical with
    the types that region has; from region 30 on a ``late_type`` opened too."""
    import numpy as np
    import pandas as pd
    import xgboost as xgb

    rng = np.random.default_rng(31)
    regions = {}
    for r in range(ITEMS):
        types_here = ["mall", "street"] + ([late_type] if late_type and r >= 30 else [])
        frame = pd.DataFrame({"store_type": rng.choice(types_here, 60),
                              "area": rng.uniform(50, 500, 60), "staff": rng.integers(2, 30, 60)})
        frame["sales"] = frame["area"] * 3 + frame["staff"] * 40 + rng.normal(0, 50, 60)
        frame["store_type"] = frame["store_type"].astype("category")
        regions[r] = frame
    from sklearn.linear_model import LinearRegression
    return {"pd": pd, "np": np, "xgb": xgb, "time": time, "regions": regions,
            "LinearRegression": LinearRegression}


FINAL_FIT = """
region_r2 = {{}}
for r, df in regions.items():
    time.sleep({step})
{change}    model = LinearRegression().fit(df[['area', 'staff']], df['sales'])
    region_r2[r] = model.score(df[['area', 'staff']], df['sales'])
full = pd.concat(regions.values(), ignore_index=True)
{fix}final = xgb.XGBRegressor(n_estimators=40, max_depth=3, enable_categorical=True, n_jobs=1)
final.fit(full[['store_type', 'area', 'staff']], full['sales'])
summary = pd.Series(region_r2).describe()
"""


@pytest.mark.parametrize(("change", "fix", "claimed"), [
    ("", "", True),
    # the fix: the joined column made categorical again
    ("", "full['store_type'] = full['store_type'].astype('category')\n", None),
    # the loop changes each region's frame in place: the cut run changed only some
    ("    df['store_type'] = df['store_type'].cat.set_categories(['mall', 'street', 'kiosk'])\n",
     "", None),
])
def test_a_final_fit_that_reads_nothing_the_cut_loop_changes_is_the_real_runs(change, fix,
                                                                               claimed):
    """After a loop that scores each region's stores with a model of its own, the cell
    joins the regions' frames and fits one XGBoost model on them all. The late regions'
    ``store_type`` has a category more: joined, the column is plain objects, which
    XGBoost's data checks refuse. The statement that raised reads nothing the cut loop
    binds or changes (`Cutter.inputs_kept`): the real run's fit is refused alike, and the
    warning comes at the cut run's end. Where the loop changes each region's frame in
    place (through the loop's item: `_flows`), the cut run joins frames the real run
    changed and it did not: not read so (the real run is clean)."""
    cell = FINAL_FIT.format(step=STEP_S, change=change, fix=fix)
    truth = _raised_type(cell, _regional_stores())
    assert truth == (None if claimed is None else "ValueError")
    result, verdict = _beside_the_cell(_regional_stores(), cell)
    assert result.inputs_kept is bool(claimed), result
    assert (verdict.crash is True) is bool(claimed), verdict
    if claimed:
        fit_line = next(k for k, text in enumerate(cell.splitlines(), 1)
                        if text.startswith("final.fit("))
        assert verdict.line == fit_line and result.cut_before_crash, verdict
    if change:  # the cut run's join is refused: its failure is not the real run's
        quick = {**_regional_stores(), "STEP": 0}
        assert _raised_type(cell.replace("regions.items()", "list(regions.items())[:3]"),
                            quick) == "ValueError"


def test_a_final_fit_after_a_notebook_function_that_may_draw_is_not_read_as_kept():
    """After the loop the cell adds noise to the joined frame with a notebook function of
    its own, which draws from numpy's global generator (the cut loops may have drawn
    fewer from it): what the fit reads is not known to be the real run's, so the failure
    is not read as kept (`Cutter.inputs_kept`), whether or not it is the real run's."""
    namespace = {**_regional_stores(), "__name__": "__main__"}
    exec("def jitter(frame):\n    out = frame.copy()\n"  # noqa: S102 - an earlier cell
         "    out['area'] = out['area'] + np.random.normal(0, 1, len(out))\n"
         "    return out\n", namespace)
    cell = FINAL_FIT.format(step=STEP_S, change="", fix="full = jitter(full)\n")
    result, verdict = _beside_the_cell(namespace, cell)
    assert result.outcome == "crashed" and not result.inputs_kept, result


FOOTER = """
lines = iter(report.splitlines())
header = next(lines)
totals = []
for line in lines:
    time.sleep({step})
    if line == "END":
        break
    totals.append(sum(int(x) for x in line.split(",")))
checksum = int(next(lines))
"""


def test_an_iterator_the_cut_loop_reads_is_not_the_real_runs_after_it():
    """The loop reads a report's lines from an iterator up to its END line; after it, the
    next line is the checksum. Cut, the loop left the iterator at a row of numbers: the
    cut run's ``int`` fails on it, the real run's reads the checksum. The iterator the
    cut loop read is changed by it (`_iterators_named`): the failure may be the cut's
    (`Cutter.judge`), and is not read as the real run's (`Cutter.inputs_kept`). Before,
    a text that is no number counted as a failure no cut can cause: a false warning."""
    rows = "\n".join(",".join(str(k + j) for j in range(3)) for k in range(ITEMS))
    namespace = {"time": time, "report": f"a,b,c\n{rows}\nEND\n12345\n"}
    cell = FOOTER.format(step=STEP_S)
    assert _raised_type(cell, dict(namespace)) is None
    result, verdict = _beside_the_cell(dict(namespace), cell)
    assert not result.inputs_kept and verdict.crash is not True, (verdict, result)


def test_what_draws_random_numbers_after_the_loops():
    """Unit: `_draws_in` finds the random draws of statements (a generator's, numpy's,
    the ``random`` module's), and none where there are none."""
    from crashpredict._dryrun._fastforward import _draws_in

    def draws(source: str) -> bool:
        return _draws_in(ast.parse(source).body)

    assert draws("pick = rng.choice(ids, 5)")
    assert draws("x = np.random.default_rng().normal()")
    assert draws("sample = full.sample(frac=0.1)")
    assert draws("k = random.randint(0, 9)")
    assert not draws("full = pd.concat(parts)\nfinal.fit(full[feats], full['y'])")


def test_a_function_that_only_reads_a_table_of_constants_is_pure():
    """Unit: a notebook function that tests membership in a global set of constants, or
    reads a dict of them, is pure where the cell does not change the table; one that
    changes it, or a cell that does or binds it anew, is not."""
    from crashpredict._dryrun._fastforward import _runs_notebook_code

    namespace: dict = {"__name__": "__main__"}
    exec("COLD = {('SGP', 'RTM'), ('BUS', 'LAX')}\nRATES = {'SGP': 1.5}\n"
         "def lane(row):\n    return (row['o'], row['d']) in COLD\n"
         "def rate(row):\n    return RATES.get(row['o'], 1.0) * RATES[row['o']]\n"
         "def grow(row):\n    COLD.add((row['o'], row['d']))\n    return 1\n", namespace)
    for cell, runs in {"x = lane(r)\ny = rate(r)": False, "x = grow(r)": True,
                       "x = lane(r)\nCOLD.add(('A', 'B'))": True,
                       "x = rate(r)\nRATES['SGP'] = 2.0": True,
                       "for r in rows:\n    x = rate(r)\n    RATES = {'SGP': 2.0}": True}.items():
        nodes = ast.parse(cell).body
        assert _runs_notebook_code(nodes, namespace, pure_ok=True) is runs, cell
        assert _runs_notebook_code(nodes, namespace) is True, cell


def test_a_store_into_a_table_of_constants_is_no_read():
    """Unit: `_pure_function` reads the bytecode: ``RATES[row['o']] = v`` stores into the
    table (its key is made first, then the store), ``RATES[(a, b)]`` reads it, and so does
    ``sorted(RATES)``; ``rows.append(RATES)`` keeps it where it may be changed."""
    from crashpredict._dryrun._fastforward import _pure_function

    namespace: dict = {"__name__": "__main__"}
    exec("RATES = {'SGP': 1.5}\n"
         "def store(row):\n    RATES[row['o']] = 2.0\n    return 1\n"
         "def read(a, b):\n    return RATES[(a, b)] + len(a)\n"
         "def handed(rows):\n    rows.append(RATES)\n    return rows\n"
         "def listed(row):\n    return sorted(RATES)\n", namespace)
    assert _pure_function(namespace["listed"], namespace, containers_ok=True)
    assert _pure_function(namespace["read"], namespace, containers_ok=True)
    assert not _pure_function(namespace["read"], namespace)
    assert not _pure_function(namespace["store"], namespace, containers_ok=True)
    assert not _pure_function(namespace["handed"], namespace, containers_ok=True)


def test_a_function_that_builds_a_library_pipeline_is_pure():
    """Unit: a notebook function that calls a library's functions and classes it imported
    by name (``make_pipeline``) reads what ``sklearn.pipeline.make_pipeline`` would; and
    ``cross_val_score`` reads its arguments (it fits clones on rows it indexes out)."""
    from sklearn.model_selection import cross_val_score
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from crashpredict._dryrun._fastforward import _handed, _pure_function

    namespace: dict = {"__name__": "__main__", "make_pipeline": make_pipeline,
                       "StandardScaler": StandardScaler, "KNeighborsRegressor": KNeighborsRegressor,
                       "cross_val_score": cross_val_score, "aq": [[1.0]], "cols": ["a"]}
    exec("def knn_pipe():\n    return make_pipeline(StandardScaler(), KNeighborsRegressor())\n"
         "def drawn():\n    return make_pipeline(StandardScaler()), shuffle([1, 2])\n"
         "shuffle = __import__('random').shuffle\n", namespace)
    assert _pure_function(namespace["knn_pipe"], namespace)
    assert not _pure_function(namespace["drawn"], namespace)  # a random draw
    tree = ast.parse("s = cross_val_score(knn_pipe(), aq[cols], aq['y'], cv=5)")
    assert _handed(tree.body, namespace) == set()


def test_a_function_that_draws_from_a_generator_it_seeds_is_pure():
    """Unit: `_pure_function` lets a notebook function draw from a numpy generator it makes
    from a seed and keeps in a local (``r = np.random.default_rng(100 + i)``): its numbers
    are its argument's. Not a generator made with no seed or with ``None``, one handed in,
    a global one, one bound otherwise too, nor numpy's global generator."""
    import numpy as np

    from crashpredict._dryrun._fastforward import _pure_function

    namespace: dict = {"__name__": "__main__", "np": np,
                       "default_rng": np.random.default_rng, "rng": np.random.default_rng(0)}
    exec("def seeded(i):\n    r = np.random.default_rng(100 + i)\n"  # noqa: S102
         "    return r.normal(size=3) + r.exponential(2, 3)\n"
         "def kept_as_state(i):\n    r = np.random.RandomState(seed=i)\n    return r.rand(2)\n"
         "def imported(i):\n    r = default_rng(i)\n    return [r.random() for _ in range(2)]\n"
         "def fresh():\n    r = np.random.default_rng()\n    return r.normal()\n"
         "def unseeded():\n    r = np.random.default_rng(None)\n    return r.normal()\n"
         "def shared(i):\n    return rng.normal(size=i)\n"
         "def handed(r):\n    return r.normal()\n"
         "def rebound(i, other):\n    r = np.random.default_rng(i)\n    r = other\n"
         "    return r.normal()\n"
         "def global_state(i):\n    np.random.seed(i)\n    return np.random.normal()\n",
         namespace)
    for name in ("seeded", "kept_as_state", "imported"):
        assert _pure_function(namespace[name], namespace), name
        assert namespace[name](3) is not None
    for name in ("fresh", "unseeded", "shared", "handed", "rebound", "global_state"):
        assert not _pure_function(namespace[name], namespace), name


def test_a_function_that_reads_a_global_array_into_new_ones_is_pure():
    """Unit: a notebook function that reads a global numpy array only into new ones (``x @
    W``, ``(x - MEAN) / STD``, ``W.shape``, ``len(W)``) is pure where the cell changes
    neither the array nor a view of it; one that subscripts it (a view), changes it, hands
    it to a call, or reads an object array, is not."""
    import numpy as np

    from crashpredict._dryrun._fastforward import _pure_function, _runs_notebook_code

    W = np.arange(6.0).reshape(3, 2)
    namespace: dict = {"__name__": "__main__", "np": np, "W": W, "MEAN": np.zeros(3),
                       "STD": np.ones(3), "V": W[:2], "U": np.ones(4),
                       "BOXES": np.array([[1], "a"], dtype=object)}
    exec("def project(x):\n    return x @ W + len(W) + W.shape[0]\n"  # noqa: S102
         "def scaled(x):\n    return (x - MEAN) / STD > 0\n"
         "def row(i):\n    return W[i]\n"
         "def store(i):\n    W[0] = i\n    return i\n"
         "def filled():\n    W.fill(0)\n"
         "def handed(x):\n    return np.dot(x, W)\n"
         "def boxes(x):\n    return x + BOXES\n", namespace)
    for name in ("project", "scaled"):
        assert _pure_function(namespace[name], namespace, containers_ok=True), name
        assert not _pure_function(namespace[name], namespace), name
    for name in ("row", "store", "filled", "handed", "boxes"):
        assert not _pure_function(namespace[name], namespace, containers_ok=True), name
    for cell, runs in {"y = project(x)": False, "y = project(x)\nW[0] = 1": True,
                       "V[0] = 1\ny = project(x)": True,  # a view of ``W``
                       "U[0] = 1\ny = project(x)": False,
                       "for x in xs:\n    y = project(x)\n    W = W * 2": True,
                       "y = scaled(x)\nMEAN += 1": True}.items():
        assert _runs_notebook_code(ast.parse(cell).body, namespace, pure_ok=True) is runs, cell


def test_a_table_of_constants_handed_to_a_library_is_read():
    """Unit: a global list of constants a pure function hands to a library's class or
    function, or to a method, that only reads it (``pd.DataFrame(X, columns=FEATURES)``,
    ``df.drop(columns=DROPPED)``), or uses as a key (``df[FEATURES]``), is read; one it
    appends somewhere (kept, to be changed later) or hands to a notebook function is not."""
    import pandas as pd

    from crashpredict._dryrun._fastforward import _pure_function

    namespace: dict = {"__name__": "__main__", "pd": pd, "FEATURES": ["a", "b"]}
    exec("def frame(X):\n    return pd.DataFrame(X, columns=FEATURES)\n"  # noqa: S102
         "def pick(df):\n    return df[FEATURES].drop(columns=FEATURES[:1])\n"
         "def dropped(df):\n    return df.drop(columns=FEATURES)\n"
         "def kept(rows):\n    rows.append(FEATURES)\n    return rows\n"
         "def helper(cols):\n    cols.append('c')\n    return cols\n"
         "def mine(df):\n    return df[helper(FEATURES)]\n", namespace)
    for name in ("frame", "pick", "dropped"):
        assert _pure_function(namespace[name], namespace, containers_ok=True), name
    for name in ("kept", "mine"):
        assert not _pure_function(namespace[name], namespace, containers_ok=True), name


#: an earlier cell: chunks of a stream, each made by a function of its number alone (a
#: generator seeded by it, a global weight array, the column list); the last has a column
#: more
CHUNKS_SETUP = """
import time
import numpy as np
import pandas as pd
from sklearn.linear_model import SGDClassifier
feature_cols = [f'f{{k}}' for k in range(6)]
W = np.random.default_rng(3).normal(size=6)
N_CHUNKS = {n}

def load_chunk(i):
    r = np.random.default_rng({draw})
    X = r.normal(size=(200, 6))
    chunk = pd.DataFrame(X, columns=feature_cols)
    chunk['label'] = (X @ W + r.normal(0, 0.5, 200) > 0).astype(int)
    if i == N_CHUNKS - 1:
        chunk['session_len'] = r.exponential(30, 200)
    return chunk

clf = SGDClassifier(loss='log_loss', random_state=0)
"""

CHUNKS = """
i = 0
losses = []
while i < N_CHUNKS:
    time.sleep({step})
    chunk = load_chunk(i)
    X = chunk{select}
    clf.partial_fit(X, chunk['label'], classes=[0, 1])
    losses.append(clf.t_)
    i += 1
"""


def _chunks(draw: str = "100 + i") -> dict:
    namespace: dict = {"__name__": "__main__"}
    exec(CHUNKS_SETUP.format(n=ITEMS, draw=draw), namespace)  # noqa: S102 - an earlier cell
    return namespace


def test_a_skipped_chunk_made_by_a_seeded_function_meets_the_partial_fits_features():
    """A classifier trained chunk by chunk with ``partial_fit``; each chunk is made by a
    notebook function from its number alone (a generator it seeds with it, a global weight
    array it multiplies, the global column list). The last chunk has a column more, which
    the features the first ``partial_fit`` fixed refuse. The function is pure
    (`_pure_function`), so the sweep's last chunk is the real run's, and the cell reads of
    the classifier only a value it learnt: claimed. The fix selects the columns."""
    cell = CHUNKS.format(step=STEP_S, select=".drop(columns='label')")
    assert _raised_type(cell, _chunks()) == "ValueError"
    result, verdict = _beside_the_cell(_chunks(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 8), verdict
    fixed = CHUNKS.format(step=STEP_S, select="[feature_cols]")
    assert _raised_type(fixed, _chunks()) is None
    result, verdict = _beside_the_cell(_chunks(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_skipped_chunk_drawn_from_numpys_global_generator_is_not_trusted():
    """The same stream, but each chunk is drawn from a generator made with no seed: the
    sweep's last chunk is not the real run's (`_pure_function` refuses the function), so
    its failure is not read as the real run's, though the real run fails too."""
    cell = CHUNKS.format(step=STEP_S, select=".drop(columns='label')")
    assert _raised_type(cell, _chunks(draw="")) == "ValueError"
    result, verdict = _beside_the_cell(_chunks(draw=""), cell)
    assert not result.swept_iteration, result


#: an earlier cell: reviews, the newest with no text (stored as missing), and the
#: notebook's generator of chunks (fewer rows than a run on the first rows is made for)
GENERATED_SETUP = """
import time
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import HashingVectorizer
rng = np.random.default_rng(12)
words = np.array([f'tok{{k}}' for k in range(300)])
reviews = pd.DataFrame({{'text': [' '.join(rng.choice(words, 8)) for _ in range(1500)]}})
{missing}
def stream(df, size):
    for i in range(0, len(df), size):
        {yielded}
"""

GENERATED = """
vec = HashingVectorizer(n_features=2**12)
seen = 0
for chunk in stream(reviews, 40):
    time.sleep({step})
    Xc = vec.transform(chunk['text']{fill})
    seen += Xc.shape[0]
"""


def _reviews_stream(missing: bool = True, yielded: str = "yield df.iloc[i:i + size]") -> dict:
    """The reviews and their generator, defined as an earlier cell does (its source kept,
    as IPython keeps it)."""
    source = GENERATED_SETUP.format(
        missing="reviews.loc[1490, 'text'] = np.nan" if missing else "", yielded=yielded)
    filename = f"<ipython-input-stream-{missing}-{len(yielded)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict = {"__name__": "__main__"}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - an earlier cell
    return namespace


@pytest.mark.parametrize("fill", ["", ".fillna('')"])
def test_a_skipped_chunk_of_a_notebook_generator_is_made_anew_and_swept(fill):
    """The cell loops over the chunks a generator of the notebook's yields; the last
    chunk holds a review with no text, which the vectorizer refuses. The generator is
    left as written (`_driven_generators`): the cell's loop is cut, and after the cell the
    sweep asks the generator, a pure function that changes none of its arguments, for its
    items again (`_Regenerated`), newest first: the last chunk's failure is the real
    run's. The fix fills the missing text."""
    cell = GENERATED.format(step=STEP_S, fill=fill)
    assert _raised_type(cell, _reviews_stream()) == (None if fill else "ValueError")
    result, verdict = _beside_the_cell(_reviews_stream(), cell)
    if fill:
        assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    else:
        assert result.swept_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), \
            verdict


def test_a_notebook_generator_that_draws_is_not_made_anew():
    """The same stream, but the generator shuffles each chunk with numpy's global
    generator: made anew, its chunks would be others. It is not regenerated, so nothing
    skipped is swept (and its loop is cut as a function's loop was)."""
    yielded = "yield df.iloc[i:i + size].sample(frac=1.0)"
    cell = GENERATED.format(step=STEP_S, fill="")
    assert _raised_type(cell, _reviews_stream(yielded=yielded)) == "ValueError"
    result, verdict = _beside_the_cell(_reviews_stream(yielded=yielded), cell)
    assert not result.swept_iteration, result


def test_only_a_generator_that_leaves_its_arguments_is_made_anew():
    """Unit: `_Regenerated.of` takes a notebook generator not yet started whose function
    changes none of its arguments and calls only functions of the notebook's that no cut
    rewrites (no loop of their own), and makes the same items anew; not one that changes
    the frame it is handed (``inplace=``), nor one that calls a function of the
    notebook's with a loop (which the dry run may have cut), nor one already started."""
    from crashpredict._dryrun._fastforward import _Regenerated, rewrite_functions

    namespace = _reviews_stream()
    source = ("def sorting(df, size):\n    df.sort_values('text', inplace=True)\n"
              "    for i in range(0, len(df), size):\n        yield df.iloc[i:i + size]\n"
              "def helped(df, size):\n    for i in range(0, len(df), size):\n"
              "        yield head(df.iloc[i:i + size])\n"
              "def head(part):\n    return part.head(3)\n"
              "def looped(df, size):\n    for i in range(0, len(df), size):\n"
              "        yield firsts(df.iloc[i:i + size])\n"
              "def firsts(part):\n    kept = []\n    for k in range(3):\n"
              "        kept.append(part.iloc[k])\n    return kept\n")
    linecache.cache["<generators>"] = (len(source), None, source.splitlines(True),
                                       "<generators>")
    exec(compile(source, "<generators>", "exec"), namespace)  # noqa: S102 - an earlier cell
    reviews = namespace["reviews"]
    again = _Regenerated.of(namespace["stream"](reviews, 500), namespace)
    assert again is not None and [len(c) for c in again.items()] == [500, 500, 500]
    assert again.items()[2].equals(reviews.iloc[1000:1500])
    assert _Regenerated.of(namespace["sorting"](reviews, 500), namespace) is None
    helped = _Regenerated.of(namespace["helped"](reviews, 500), namespace)
    assert helped is not None and [len(c) for c in helped.items()] == [3, 3, 3]
    assert _Regenerated.of(namespace["looped"](reviews, 500), namespace) is None
    started = namespace["stream"](reviews, 500)
    next(started)
    assert _Regenerated.of(started, namespace) is None
    # a cell that names the generator elsewhere too: it is cut (rewritten), so its items
    # made again would be the cut ones
    cell = "for c in stream(reviews, 100):\n    n = len(c)\nalso = stream"
    assert rewrite_functions(compile(cell, "<cell>", "exec"), namespace, {},
                             ast.parse(cell)) == {"stream": {0}}
    assert _Regenerated.of(namespace["stream"](reviews, 500), namespace) is None


def test_a_generator_driven_by_the_cells_loop_only_is_left_as_written():
    """Unit: `_driven_generators` names a notebook generator the cell only loops over at
    its top level, each of whose outermost loops yields (a loop within one is each item's
    work), calling only the notebook's functions that no cut rewrites; not one the cell
    also hands on (``list(stream(...))``), nor one with a loop that yields nothing (work
    before its first item), nor one that calls a notebook function with a loop, nor a
    plain function."""
    from crashpredict._dryrun._fastforward import _driven_generators

    namespace = _reviews_stream()
    source = ("def prepared(df):\n    rows = []\n    for i in range(len(df)):\n"
              "        rows.append(i)\n    for r in rows:\n        yield r\n"
              "def plain(df):\n    return [df]\n"
              "def per_item(df, cols):\n    for i in range(len(df)):\n"
              "        row = {}\n        for c in cols:\n            row[c] = df[c].iloc[i]\n"
              "        yield row\n"
              "def tidied(df):\n    for i in range(len(df)):\n        yield tidy(df.iloc[i])\n"
              "def tidy(row):\n    return row.fillna('')\n"
              "def counted(df):\n    for i in range(len(df)):\n        yield count(df.iloc[i])\n"
              "def count(row):\n    n = 0\n    for v in row:\n        n += 1\n    return n\n")
    linecache.cache["<prepared>"] = (len(source), None, source.splitlines(True), "<prepared>")
    exec(compile(source, "<prepared>", "exec"), namespace)  # noqa: S102 - an earlier cell

    def driven(cell: str) -> set[str]:
        return _driven_generators(ast.parse(cell), namespace)

    assert driven("for c in stream(reviews, 10):\n    n = len(c)") == {"stream"}
    assert driven("for c in stream(reviews, 10):\n    n = len(c)\n"
                  "every = list(stream(reviews, 10))") == set()
    assert driven("for r in prepared(reviews):\n    n = r") == set()
    assert driven("for r in plain(reviews):\n    n = r") == set()
    assert driven("for r in per_item(reviews, ['text']):\n    n = r") == {"per_item"}
    assert driven("for r in tidied(reviews):\n    n = r") == {"tidied"}
    assert driven("for r in counted(reviews):\n    n = r") == set()


#: the notebook's generator of each chunk's text lengths, cast to integers, and its helper
#: (no loop of its own): a chunk with a missing text cannot be cast
MEASURED_SETUP = """
def lengths_of(df, size, cols):
    for i in range(0, len(df), size):
        out = df.iloc[i:i + size].copy()
        for c in cols:
            out[c] = trimmed(out[c]).str.len().astype(int)
        yield out
def trimmed(texts):
    return texts.str.strip()
"""

MEASURED = """
total = 0
for chunk in lengths_of({frame}, 40, ['text']):
    time.sleep({step})
    total += int(chunk['text'].sum())
{after}"""


def _measured(missing: bool = True) -> dict:
    """The reviews (the newest with no text where ``missing``) and `MEASURED_SETUP`'s
    generator, defined as an earlier cell does."""
    namespace = _reviews_stream(missing=missing)
    filename = f"<ipython-input-measured-{missing}>"
    linecache.cache[filename] = (len(MEASURED_SETUP), None, MEASURED_SETUP.splitlines(True),
                                 filename)
    exec(compile(MEASURED_SETUP, filename, "exec"), namespace)  # noqa: S102 - an earlier cell
    return namespace


@pytest.mark.parametrize("frame", ["reviews", "reviews.fillna('')"])
def test_a_notebook_generator_that_fails_making_a_late_item_fails_the_loops_header(frame):
    """The cell sums the text lengths a generator of the notebook's yields chunk by chunk;
    the generator (a loop over each chunk's columns within its own, and a helper of the
    notebook's with no loop) casts the lengths to integers, which the last chunk's missing
    text refuses: the real run fails in the loop's header, near its end. The cell's loop
    is cut; the sweep asks the generator again for its items (`_Regenerated`), and what
    making one raises is the real run's crash, at the header's line (`made_failure`). The
    fix hands the generator the texts filled."""
    cell = MEASURED.format(frame=frame, step=STEP_S, after="")
    assert _raised_type(cell, _measured()) == (None if "fillna" in frame else "IntCastingNaNError")
    result, verdict = _beside_the_cell(_measured(), cell)
    if "fillna" in frame:
        assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
    else:
        assert result.swept_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line) == \
            (True, "IntCastingNaNError", 3), verdict
        assert any("making item 38 failed" in cut for cut in result.cuts), result.cuts


def test_a_generators_failure_on_what_the_cell_changes_after_its_loop_is_not_trusted():
    """The same generator over texts all present; after its loop the cell blanks a text
    of the frame the generator was handed. The real run's loop met none missing (it runs
    clean); the generator asked again after the cell meets the blank one. That failure
    is not the real run's (the cell changes what the loop's header reads)."""
    cell = MEASURED.format(frame="reviews", step=STEP_S,
                           after="reviews.loc[1490, 'text'] = np.nan\n")
    assert _raised_type(cell, _measured(missing=False)) is None
    result, verdict = _beside_the_cell(_measured(missing=False), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


#: the notebook's generator of page events, drawn from the standard library's generator
#: seeded by its argument; the last event's duration is missing
PAGE_EVENTS_SETUP = """
import json
import random
import time

def stream_events(n, seed=0):
    rnd = random.Random(seed)
    pages = ["home", "search", "cart"]
    for i in range(n):
        evt = {"user": f"u{rnd.randrange(50)}", "page": rnd.choice(pages),
               "duration_ms": rnd.randint(50, 3000)}
        if i == n - 1:
            evt["duration_ms"] = None
        yield json.dumps(evt)
"""

PAGE_EVENTS = """
seconds = {{}}
for line in stream_events({n}{seed}):
    time.sleep({step})
    evt = json.loads(line)
    key = (evt["user"], evt["page"])
    seconds[key] = seconds.get(key, 0.0) + {duration} / 1000
"""


def _page_events() -> dict:
    """`PAGE_EVENTS_SETUP`, run as an earlier cell (its source kept, as IPython keeps it)."""
    filename = "<ipython-input-events>"
    linecache.cache[filename] = (len(PAGE_EVENTS_SETUP), None,
                                 PAGE_EVENTS_SETUP.splitlines(True), filename)
    namespace: dict = {"__name__": "__main__"}
    exec(compile(PAGE_EVENTS_SETUP, filename, "exec"), namespace)  # noqa: S102 - an earlier cell
    return namespace


@pytest.mark.parametrize("duration", ['evt["duration_ms"]', '(evt["duration_ms"] or 0)'])
def test_a_generator_drawing_from_a_seeded_random_random_is_made_anew(duration, monkeypatch):
    """The cell sums each page's seconds from a stream of events a generator of the
    notebook's draws from ``random.Random(seed)``, made in the generator from its
    argument: the same seed, the same events (`_seeded_maker`). The last event's duration
    is missing: the real run fails dividing ``None``, last. The cell's loop is cut and the
    sweep makes the events anew, newest first, keeping only the last ones
    (`_MOST_REGENERATED`, here 50 of 240): the last one fails first. The fix counts a
    missing duration as 0."""
    from crashpredict._dryrun import _fastforward

    monkeypatch.setattr(_fastforward, "_MOST_REGENERATED", 50)
    cell = PAGE_EVENTS.format(n=240, seed="", step=STEP_S, duration=duration)
    crash = "or 0" not in duration
    assert _raised_type(cell, _page_events()) == ("TypeError" if crash else None)
    result, verdict = _beside_the_cell(_page_events(), cell)
    if crash:
        assert result.swept_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "TypeError", 7), \
            verdict
    else:
        assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
        assert any("then, after the cell, 50 of the iterations skipped" in cut
                   for cut in result.cuts), result.cuts  # (the last 50, of 240)


def test_a_random_random_made_from_a_seed_draws_the_seeds_numbers():
    """Unit: `_pure_function` takes a function that draws only from the standard library's
    ``random.Random`` it makes from a seed (by the module, or the class imported), as it
    takes numpy's seeded generators; not one made with no seed or ``None``, nor the
    module's own global generator."""
    from crashpredict._dryrun._fastforward import _pure_function

    source = ("import random\nfrom random import Random\n"
              "def by_module(seed):\n    r = random.Random(seed)\n    return r.random()\n"
              "def by_class(seed):\n    r = Random(seed + 1)\n    return r.choice([1, 2])\n"
              "def unseeded():\n    r = random.Random()\n    return r.random()\n"
              "def fresh():\n    r = Random(None)\n    return r.random()\n"
              "def global_state():\n    return random.random()\n")
    namespace: dict = {"__name__": "__main__"}
    exec(compile(source, "<draws>", "exec"), namespace)  # noqa: S102 - an earlier cell
    assert [_pure_function(namespace[name], namespace) for name in (
        "by_module", "by_class", "unseeded", "fresh", "global_state")] == \
        [True, True, False, False, False]


def test_a_generator_seeded_with_none_is_not_made_anew():
    """The same stream called with ``seed=None``: ``random.Random(None)`` draws fresh
    entropy, so its events made anew would be others (`_seeded_with_none`): nothing
    skipped is swept, though the real run fails too."""
    cell = PAGE_EVENTS.format(n=240, seed=", seed=None", step=STEP_S, duration='evt["duration_ms"]')
    assert _raised_type(cell, _page_events()) == "TypeError"
    result, verdict = _beside_the_cell(_page_events(), cell)
    assert not result.swept_iteration and verdict.crash is not True, (verdict, result)


def test_a_classifiers_refusal_of_one_class_is_read_as_an_input_check():
    """Unit: scikit-learn's classifiers refuse labels of one class in ``fit`` before they
    iterate (LogisticRegression, the SVMs, SGD, gradient boosting): `raised_by_input_checks`
    reads it as a check of the data, which fewer iterations cannot cause; not another
    refusal of ``fit`` (a penalty the solver does not take)."""
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression, SGDClassifier
    from sklearn.svm import SVC, LinearSVC

    from crashpredict._dryrun._fastforward import raised_by_input_checks

    X, y = np.random.default_rng(0).normal(size=(20, 3)), np.zeros(20)
    for model in (LogisticRegression(), SVC(), LinearSVC(), SGDClassifier(),
                  GradientBoostingClassifier()):
        with pytest.raises(ValueError) as caught:
            model.fit(X, y)
        assert raised_by_input_checks(caught.value), model
    with pytest.raises(ValueError) as caught, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (``penalty`` is deprecated: still checked)
        LogisticRegression(penalty="l1", solver="lbfgs").fit(X, np.arange(20) % 2)
    assert not raised_by_input_checks(caught.value)


SEGMENTS = """
segment_models = {{}}
for seg in range(12):
    time.sleep({step})
    part = telco[telco["segment"] == seg]
{skip}    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=500))
    model.fit(part[feat_cols], part["churn"])
    segment_models[seg] = model
"""


def _telco() -> dict:
    """Twelve customer segments; the last has no churn on record (one class)."""
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(31)
    feat_cols = [f"f{i}" for i in range(6)]
    telco = pd.DataFrame(rng.normal(size=(12 * 400, 6)), columns=feat_cols)
    telco["segment"] = np.repeat(np.arange(12), 400)
    telco["churn"] = (telco["f0"] + rng.normal(0, 1, len(telco)) > 1.0).astype(int)
    telco.loc[telco["segment"] == 11, "churn"] = 0
    return {"time": time, "telco": telco, "feat_cols": feat_cols, "make_pipeline": make_pipeline,
            "StandardScaler": StandardScaler, "LogisticRegression": LogisticRegression}


@pytest.mark.parametrize("skip", ["", "    if part['churn'].nunique() < 2:\n        continue\n"])
def test_a_segment_with_one_class_fails_its_fit_whatever_the_iterations_cut(skip):
    """A model per segment; the last segment has one class. The cut run cuts the loop
    (its last segment run) and each fit's iterations; the last fit's refusal of one class
    comes before any iteration, so the cut of ``max_iter`` cannot cause it
    (`_ONE_CLASS_WORDS`): the last iteration's failure is the real run's. The fix skips a
    segment of one class."""
    cell = SEGMENTS.format(step=STEP_S, skip=skip)
    assert _raised_type(cell, _telco()) == (None if skip else "ValueError")
    result, verdict = _beside_the_cell(_telco(), cell)
    if skip:
        assert verdict.crash is not True, verdict
    else:
        assert result.last_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 7), \
            verdict


# ---- models whose shapes their first fit fixed: a skipped item of another width ----------

def _monthly_kinds(new_kind_from: int | None = BAD) -> dict:
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import SGDClassifier

    rng = np.random.default_rng(8)
    months = np.repeat(np.arange(ITEMS), 80)
    data = pd.DataFrame({"month": months, "a": rng.random(len(months)),
                         "b": rng.random(len(months)), "kind": rng.choice(["x", "y"], len(months)),
                         "y": rng.integers(0, 2, len(months))})
    if new_kind_from is not None:  # a product launched late: a kind the first months lack
        late = data.index[(data["month"] >= new_kind_from) & (rng.random(len(months)) < 0.2)]
        data.loc[late, "kind"] = "z"
    return {"np": np, "pd": pd, "time": time, "SGDClassifier": SGDClassifier, "data": data}


MONTHLY_SGD = """
clf = SGDClassifier(loss='log_loss', random_state=0)
next_month = {{}}
for m, part in data.groupby('month'):
    time.sleep({step})
    X_m = pd.get_dummies(part[['a', 'b', 'kind']], dtype=float){fix}
    if m > 0:
        next_month[m] = clf.predict_proba(X_m)[:, 1].mean()
    clf.partial_fit(X_m, part['y'], classes=[0, 1])
"""


def test_a_skipped_month_with_a_new_dummy_column_meets_the_partial_fits_features():
    """A classifier trained month by month with ``partial_fit``: its first call fixed its
    features, the first months' dummy columns. The 37th month has a new kind, so one more
    column: ``predict_proba`` refuses it. The sweep meets it on the classifier the whole
    cell trained, whose features are the real run's. The fix aligns the columns."""
    cell = MONTHLY_SGD.format(step=STEP_S, fix="")
    assert _raised_type(cell, _monthly_kinds()) == "ValueError"
    result, verdict = _beside_the_cell(_monthly_kinds(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 8), verdict
    fixed = MONTHLY_SGD.format(step=STEP_S, fix=".reindex(columns=['a', 'b', 'kind_x', "
                                                "'kind_y'], fill_value=0.0)")
    assert _raised_type(fixed, _monthly_kinds()) is None
    result, verdict = _beside_the_cell(_monthly_kinds(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_classifier_fitted_anew_each_month_is_not_the_real_runs():
    """The same months, but each month's ``fit`` sets the features anew: what the 37th
    month is scored with was fitted on the month before it, which the sweep does not run
    first. Not judged."""
    cell = MONTHLY_SGD.format(step=STEP_S, fix="").replace(
        "clf.partial_fit(X_m, part['y'], classes=[0, 1])", "clf.fit(X_m, part['y'])")
    assert _raised_type(cell, _monthly_kinds()) == "ValueError"
    result, verdict = _beside_the_cell(_monthly_kinds(), cell)
    assert not result.swept_iteration, result


#: stations of the Keras loop below: fewer, slower items (each sweeps with a whole fit)
STATIONS_N, STATION_S, STATION_BAD = 16, 0.1, 13


#: the notebook's earlier cell: one frame per station, a Keras model of three inputs
STATIONS_SETUP = """
import time
import numpy as np
import pandas as pd
import keras
keras.utils.set_random_seed(0)
rng = np.random.default_rng(9)
frames = {{}}
for k in range({n}):
    df = pd.DataFrame({{"station": f"S{{k:02d}}", "temp": rng.normal(15, 5, 64),
                       "rain": rng.exponential(1, 64), "wind": rng.gamma(2, 2, 64)}})
    df["y"] = 2 * df["temp"] - df["rain"] + rng.normal(0, 1, 64)
    if k == {missing_at}:
        df = df.drop(columns=["wind"])  # its wind sensor was down
    frames[f"S{{k:02d}}"] = df
model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
"""


def _stations(missing_at: int | None = STATION_BAD) -> dict:
    pytest.importorskip("keras")
    namespace: dict = {"__name__": "__main__"}
    exec(STATIONS_SETUP.format(n=STATIONS_N, missing_at=missing_at), namespace)  # noqa: S102
    return namespace


STATIONS = """
loss = {{}}
for station, df in frames.items():
    time.sleep({step})
    X = df{select}.to_numpy('float32')
    hist = model.fit(X, df['y'].to_numpy('float32'), epochs=1, batch_size=32, verbose=0)
    loss[station] = hist.history['loss'][-1]
"""


def test_a_skipped_station_missing_a_sensor_meets_the_keras_models_width():
    """One Keras model fitted station by station: the 14th of 16 stations lacks a column,
    so its rows are narrower than the model's input. The model the sweep meets was trained
    by the whole cell, but a fit changes only its weights: its width is the real run's. The
    fix selects the model's columns. The child's rules, which run first for a cell that
    fits, may see it before the sweep does: they walk each station's frame of the dict
    (unrolled), and a built model's fit leaves its input shape known to them."""
    cell = STATIONS.format(step=STATION_S, select=".drop(columns=['station', 'y'])")
    setup = STATIONS_SETUP.format(n=STATIONS_N, missing_at=STATION_BAD)
    assert raised_in_a_new_process(setup, cell) in ("ValueError", "InvalidArgumentError")
    result, verdict = _beside_the_cell(_stations(), cell)
    assert result.swept_iteration or result.found_by_rules, result
    assert verdict.crash is True and verdict.line == 6, verdict
    fixed = STATIONS.format(step=STATION_S, select=".reindex(columns=['temp', 'rain', 'wind'], "
                                                "fill_value=0.0)")
    assert raised_in_a_new_process(setup, fixed) is None
    result, verdict = _beside_the_cell(_stations(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


#: the notebook's earlier cell: a shop's products, four categories coded 1 to 4 in the
#: catalogue, a Keras classifier of four classes trained on codes made 0 to 3
CATEGORIES_SETUP = """
import time
import numpy as np
import keras
keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)
X_tr = rng.normal(size=(1280, 8)).astype("float32")
y_tr = (X_tr[:, :4].argmax(1)).astype("int64")
X_val = rng.normal(size=(200, 8)).astype("float32")
catalogue_codes = X_val[:, :4].argmax(1) + 1
model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(16, activation="relu"),
                          keras.layers.Dense(4, activation="softmax")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
"""


CATEGORIES = """
for epoch in range(2):
    for start in range(0, len(X_tr), 32):
        time.sleep({step})
        model.train_on_batch(X_tr[start:start + 32], y_tr[start:start + 32])
val_loss = model.evaluate(X_val, catalogue_codes{fix}, verbose=0)
"""


def test_labels_past_a_trained_models_classes_after_its_cut_training_are_the_cells_crash():
    """A Keras classifier of four classes trained batch by batch, cut, then evaluated on
    the catalogue's codes, 1 to 4: code 4 is past its classes. The training changed its
    weights, not its output's width (`_shaped_modules`), so the label the evaluation
    refuses is refused by the real run's model too (`Cutter.inputs_kept`, with
    `_about_a_models_shapes`). The fix makes the codes 0 to 3."""
    pytest.importorskip("keras")
    cell = CATEGORIES.format(step=STEP_S, fix="")
    assert raised_in_a_new_process(CATEGORIES_SETUP, cell) == "InvalidArgumentError"
    namespace: dict = {"__name__": "__main__"}
    exec(CATEGORIES_SETUP, namespace)  # noqa: S102
    result, verdict = _beside_the_cell(namespace, cell)
    assert result.inputs_kept and result.cut_before_crash, result
    assert (verdict.crash, verdict.line) == (True, 6), verdict
    fixed = CATEGORIES.format(step=STEP_S, fix=" - 1")
    assert raised_in_a_new_process(CATEGORIES_SETUP, fixed) is None
    namespace = {"__name__": "__main__"}
    exec(CATEGORIES_SETUP, namespace)  # noqa: S102
    result, verdict = _beside_the_cell(namespace, fixed)
    assert verdict.crash is not True and not result.inputs_kept, (verdict, result)


#: the notebook's earlier cell: seven weeks of a line's readings, the last with a sensor
#: more; a Keras regressor of eight inputs
WEEKS_SETUP = """
import time
import numpy as np
import pandas as pd
import keras
keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
cols = [f"r{k}" for k in range(8)]
weeks = []
for w in range(7):
    df = pd.DataFrame(rng.normal(size=(256, 8)), columns=cols)
    df["y"] = df[cols].sum(axis=1) + rng.normal(0, 0.1, 256)
    if w == 6:
        df.insert(3, "humidity", rng.normal(size=256))
    weeks.append(df)
model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
"""


WEEKS = """
next_week = []
for k, (this, after) in enumerate(zip(weeks[:-1], weeks[1:])):
    time.sleep(0.25)
    model.fit(this{select}.to_numpy('float32'), this['y'].to_numpy('float32'), epochs=3,
              verbose=0)
    next_week.append(model.evaluate(after{select}.to_numpy('float32'),
                                    after['y'].to_numpy('float32'), verbose=0))
"""


def test_a_keras_models_width_met_by_the_last_pair_of_weeks_is_the_cells_crash():
    """A Keras model fitted week by week and evaluated on the next, over ``enumerate(zip(
    weeks[:-1], weeks[1:]))``: the loop runs its last pair after its cut (its items,
    listed from what it zips, `_enumerated_zip`), whose next week has a column more. The
    fits were cut to fewer epochs, which change the model's weights, not its width, and
    the evaluation reads no fit's result (`Cutter._shapes_beside_cut_fits`), so its
    refusal is the real run's. The fix selects the model's columns."""
    cell = WEEKS.format(select=".drop(columns='y')")
    assert raised_in_a_new_process(WEEKS_SETUP, cell) in ("ValueError", "InvalidArgumentError")
    namespace: dict = {"__name__": "__main__"}
    exec(WEEKS_SETUP, namespace)  # noqa: S102
    result, verdict = _beside_the_cell(namespace, cell)
    assert result.last_iteration, result
    assert any("and the last" in c for c in result.cuts), result.cuts
    assert (verdict.crash, verdict.line) == (True, 7), verdict
    fixed = WEEKS.format(select="[cols]")
    assert raised_in_a_new_process(WEEKS_SETUP, fixed) is None
    namespace = {"__name__": "__main__"}
    exec(WEEKS_SETUP, namespace)  # noqa: S102
    result, verdict = _beside_the_cell(namespace, fixed)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


def test_an_enumerated_zip_runs_its_last_pair_and_counts_from_its_start():
    """Unit: ``for k, (a, b) in enumerate(zip(x, y), 1)`` has a last item, from what it
    zips (`_last_kind`: "batches"), rewritten to keep what it zips and where it counts
    from; a zip of generators has none."""
    from crashpredict._dryrun._fastforward import KEEP_ITERATIONS, Cutter, _last_kind, rewrite_cell

    source = "for k, (a, b) in enumerate(zip(xs, ys), 1):\n    out.append((k, a, b))\n"
    assert _last_kind(ast.parse(source).body[0]) == "batches"
    assert _last_kind(ast.parse(source.replace("(a, b)", "pair")).body[0]) == "batches"
    assert _last_kind(ast.parse(source.replace(", 1)", ", n)")).body[0]) == ""
    for xs, last in (([10, 20, 30, 40, 50], (5, (50, "e"))), ((x for x in range(5)), None)):
        loops: dict = {}
        tree = rewrite_cell(ast.parse(source), loops)
        cutter = Cutter(loops, cell_tree=ast.parse(source))
        namespace = {"__crashpredict_fast_forward__": cutter, "xs": xs, "ys": "abcde", "out": []}
        exec(compile(ast.fix_missing_locations(tree), "<cell>", "exec"), namespace)  # noqa: S102
        if last is None:  # cut after its first items, with no last one to run
            assert len(namespace["out"]) == KEEP_ITERATIONS, namespace["out"]
            continue
        assert namespace["out"][-1] == (5, 50, "e") and cutter.last_items[0] == last


@pytest.mark.parametrize("use, kept", [
    ("clf.partial_fit(X, y, classes=[0, 1])\np = clf.predict_proba(X)", True),
    ("s = clf.score(X, y)\nt = clf.decision_function(X)", True),
    ("clf.fit(X, y)", False),  # its features set anew
    ("clf.set_params(alpha=0.1)", False),
    ("c = clone(clf)", False),  # handed to a call
    ("clf.coef_ = None", False),
])
def test_only_an_estimator_partially_fitted_keeps_its_features(use, kept):
    """Unit: `_shaped_modules` keeps a scikit-learn estimator the cell only partially fits
    and scores, not one it fits anew, sets, hands or stores into."""
    from sklearn.linear_model import SGDClassifier

    from crashpredict._dryrun._fastforward import _shaped_modules

    namespace = {"clf": SGDClassifier(), "clone": __import__("sklearn.base").base.clone}
    assert _shaped_modules({"clf"}, ast.parse(use), namespace) == ({"clf"} if kept else set())


@pytest.mark.parametrize("use, built, kept", [
    ("h = model.fit(X, y, epochs=2)\np = model.predict(X)\nq = model(X)", None, True),
    ("model.compile(optimizer='sgd', loss='mse')\nmodel.evaluate(X, y)", None, True),
    ("h = model.fit(X, y)", frozenset({"model"}), True),
    ("h = model.fit(X, y)", frozenset(), False),  # not built when the sweep began
    ("model.add(keras.layers.Dense(2))", None, False),
    ("model.layers[0].trainable = False", None, False),
    ("model.load_weights('w.weights.h5')", None, False),
])
def test_only_a_keras_model_used_in_ways_that_keep_its_width_counts_as_kept(use, built, kept):
    """Unit: `_shaped_modules` keeps a library's Keras model the cell fits, compiles,
    calls or evaluates, built before a sweep; not one it adds layers to or changes."""
    keras = pytest.importorskip("keras")

    from crashpredict._dryrun._fastforward import _shaped_modules

    model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])
    namespace = {"model": model, "keras": keras}
    assert _shaped_modules({"model"}, ast.parse(use), namespace, built) == \
        ({"model"} if kept else set())


# ---- what the cell stacks after a swept loop: the skipped iterations' arrays count -------

def _recordings(short_at: int | None = BAD) -> dict:
    """Forty sensors' recordings; the one at ``short_at`` stopped early."""
    import numpy as np

    rng = np.random.default_rng(12)
    return {"np": np, "time": time, "recordings": {
        f"acc_{k:02d}": rng.normal(size=4096 - (300 if k == short_at else 0))
        for k in range(ITEMS)}}


RECORDED = """
win, hop = 256, 128
features = []
for name, sig in recordings.items():
    time.sleep({step})
{trim}    frames = np.lib.stride_tricks.sliding_window_view(sig, win)[::hop]
    if frames.shape[0] == 0:
        continue
    features.append(np.column_stack([frames.mean(axis=1), frames.std(axis=1)]))
{between}cube = {join}
"""


@pytest.mark.parametrize("join", ["np.stack(features)", "np.array(features)"])
def test_a_skipped_recording_that_stopped_early_fails_the_stack_after_the_loop(join):
    """The 37th of 40 sensors stopped early: its features have fewer windows, and the
    stack after the loop refuses them. The cut run's list fits (the first sensors and the
    last); the sweep runs the skipped sensors after the cell, each made from its own
    recording alone, so the list then holds two of the real run's arrays that do not fit:
    the real run's stack fails too, whatever the order. Warned at the stack's line, with
    numpy's message. Its fix trims every recording to the shortest."""
    cell = RECORDED.format(step=STEP_S, trim="", between="", join=join)
    assert _raised_type(cell, _recordings()) == "ValueError"
    result, verdict = _beside_the_cell(_recordings(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 10), verdict
    assert "shape" in result.message, result.message
    fixed = RECORDED.format(step=STEP_S, join=join, between="", trim=(
        "    sig = sig[:min(len(s) for s in recordings.values())]\n"))
    assert _raised_type(fixed, _recordings()) is None
    result, verdict = _beside_the_cell(_recordings(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


BANDED = """
win, hop = 256, 128
features, bands = [], []
for name, sig in recordings.items():
    time.sleep({step})
{trim}    frames = np.lib.stride_tricks.sliding_window_view(sig, win)[::hop]
    powers = []
    for lo in range(0, win, 8):
        powers += [frames[:, lo:lo + 8].var()]
    bands.append(powers)
    features.append(frames.std(axis=1))
spectra = np.vstack(features)
"""


def test_a_second_list_given_an_inner_loops_values_leaves_the_stack_check_alone():
    """Each sensor also lists its band powers, made by an inner loop that the cut cuts
    (its ``powers`` are not the iteration's own). That list is not the one stacked: the
    skipped sensor that stopped early still fails ``np.vstack`` of the features."""
    cell = BANDED.format(step=STEP_S, trim="")
    assert _raised_type(cell, _recordings()) == "ValueError"
    result, verdict = _beside_the_cell(_recordings(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 12), verdict
    fixed = BANDED.format(step=STEP_S, trim=(
        "    sig = sig[:min(len(s) for s in recordings.values())]\n"))
    assert _raised_type(fixed, _recordings()) is None
    result, verdict = _beside_the_cell(_recordings(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("between, join", [
    # the list trimmed after the loop, before the stack: clean for real
    ("n = min(len(f) for f in features)\nfeatures = [f[:n] for f in features]\n",
     "np.stack(features)"),
    # the stack only where the arrays fit: clean for real
    ("", "np.stack(features) if len({len(f) for f in features}) == 1 else None"),
])
def test_a_stack_the_cell_guards_or_a_list_it_trims_after_the_loop_is_not_judged(between, join):
    cell = RECORDED.format(step=STEP_S, trim="", between=between, join=join)
    assert _raised_type(cell, _recordings()) is None
    result, verdict = _beside_the_cell(_recordings(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_arrays_made_from_what_the_cell_changes_are_not_the_skipped_iterations_own():
    """Each sensor's recording is cut to a length the cell sets before the loop and sets
    again after it: the skipped iterations, run after the whole cell, cut theirs to the
    new length, which says nothing of the real run's arrays (all of one length). Clean
    for real, and not judged."""
    cell = ("keep = 4000\nfeatures = []\nfor name, sig in recordings.items():\n"
            f"    time.sleep({STEP_S})\n"
            "    features.append(sig[:keep])\nkeep = 10\ncube = np.stack(features)\n")
    assert _raised_type(cell, _recordings(short_at=None)) is None
    result, verdict = _beside_the_cell(_recordings(short_at=None), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_a_skipped_shard_with_a_column_more_meets_the_models_width():
    """Shard 37 of 40 has a ninth column: the model's first layer takes eight, and torch
    raises a ``RuntimeError`` of shapes. That is a failure of the shard's own values (its
    width) against layers whose shapes no training step changes: it counts as the
    ``IndexError`` of a label past the classes does. The fix selects the eight columns."""
    import numpy as np

    def shards() -> dict:
        namespace = _shards(bad=None)
        x, y = namespace["shards"][BAD]
        namespace["shards"][BAD] = (np.hstack([x, x[:, :1]]), y)
        return namespace

    cell = STREAMED.format(step=STEP_S, classes="N_CLASSES")
    assert _raised_type(cell, shards()) == "RuntimeError"
    result, verdict = _beside_the_cell(shards(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 9), verdict
    fixed = cell.replace("torch.from_numpy(x)", "torch.from_numpy(x[:, :8])")
    assert _raised_type(fixed, shards()) is None
    result, verdict = _beside_the_cell(shards(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


# ---- a loader's last batch that cannot be made: its rows, in order, are the real run's ---

def _reviews(long_at: range = range(2980, 3000)) -> dict:
    """Token ids of 600 training reviews and 3,000 test reviews, padded to 32 by the
    notebook's dataset; the test reviews at ``long_at`` (the last 20) are 100 long."""
    import numpy as np
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, Dataset

    torch.manual_seed(0)
    rng = np.random.default_rng(6)
    namespace = {"np": np, "torch": torch, "nn": nn, "time": time, "DataLoader": DataLoader,
                 "Dataset": Dataset, "__name__": "__main__", "max_len": 32,
                 "train_docs": [list(rng.integers(1, 100, int(rng.integers(3, 32))))
                                for _ in range(600)],
                 "test_docs": [list(rng.integers(1, 100, int(rng.integers(3, 32))
                                                 if k not in long_at else 100))
                               for k in range(3000)]}
    return namespace


REVIEWS_DATASET = """
class Reviews(Dataset):
    def __init__(self, docs):
        self.docs = docs
    def __len__(self):
        return len(self.docs)
    def __getitem__(self, i):
        ids = self.docs[i]{cut}
        return torch.tensor(ids + [0] * (max_len - len(ids)))
"""

REVIEWS = """
train_loader = DataLoader(Reviews(train_docs), batch_size=16, shuffle=True)
test_loader = DataLoader(Reviews(test_docs), batch_size=64)
model = nn.EmbeddingBag(100, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range({epochs}):
    for xb in train_loader:
        time.sleep({step})
        loss = model(xb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
{between}with torch.no_grad():
    {loop}:
        scores.append(model(xb).mean().item())
"""


def _review_namespace(cut: bool, long_at: range = range(2980, 3000)) -> dict:
    namespace = _reviews(long_at)
    exec(REVIEWS_DATASET.format(cut="[:max_len]" if cut else ""),  # noqa: S102 - the
         namespace)  # notebook's earlier cell
    return namespace


@pytest.mark.parametrize("loop", ["for xb in test_loader", "for k, xb in enumerate(test_loader)"])
def test_a_loaders_last_batch_that_cannot_be_collated_is_met_after_a_cut_training(loop):
    """The test reviews at the end are longer than the padding length and are never cut:
    the default collate cannot stack the last batch. The loader is sequential, so the
    real run's last batch holds the same rows; the dataset is the notebook's pure class,
    whose data and the globals it reads no cut loop changes. Making that batch fails at
    once in the cut run, raised where the loop reaches it: warned at the loop's line,
    while the real run is still training. Its fix cuts each review to the length."""
    cell = REVIEWS.format(step=0.002, between="scores = []\n", loop=loop, epochs=3)
    assert _raised_type(cell, _review_namespace(cut=False)) == "RuntimeError"
    result, verdict = _beside_the_cell(_review_namespace(cut=False), cell)
    assert result.last_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 15), verdict
    assert _raised_type(cell, _review_namespace(cut=True)) is None
    result, verdict = _beside_the_cell(_review_namespace(cut=True), cell)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


MID_BATCH = range(1500, 1505)  # in the 24th of 47 batches of 64


LISTED = "test_loader = DataLoader([Reviews(test_docs)[k] for k in range(3000)], batch_size=64)"


@pytest.mark.parametrize("loop, listed", [("for xb in test_loader", False),
                                          ("for k, xb in enumerate(test_loader)", False),
                                          ("for xb in test_loader", True)])
def test_a_skipped_batch_that_cannot_be_collated_is_met_after_a_cut_training(loop, listed):
    """Five long reviews in the middle of the test set: the cut run makes the batches its
    cut skips, collate only, in order, and meets the one that cannot be stacked. The
    loader is sequential: the real run's 24th batch holds the same rows. Its dataset is
    the notebook's class, or (``listed``) a plain list of the padded reviews."""
    cell = REVIEWS.format(step=0.002, between="scores = []\n", loop=loop, epochs=3)
    if listed:
        cell = cell.replace("test_loader = DataLoader(Reviews(test_docs), batch_size=64)", LISTED)
    assert _raised_type(cell, _review_namespace(False, MID_BATCH)) == "RuntimeError"
    result, verdict = _beside_the_cell(_review_namespace(False, MID_BATCH), cell)
    assert result.last_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 15), verdict
    assert _raised_type(cell, _review_namespace(True, MID_BATCH)) is None
    result, verdict = _beside_the_cell(_review_namespace(True, MID_BATCH), cell)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


def test_a_listed_dataset_the_cut_training_changes_is_not_claimed():
    # every 20th training step cuts one of the long test rows: the real run's 114 steps
    # cut all five, the cut run's dozen none
    cell = "steps = 0\n" + REVIEWS.format(
        step=0.002, between="scores = []\n", loop="for xb in test_loader", epochs=3).replace(
        "test_loader = DataLoader(Reviews(test_docs), batch_size=64)",
        "rows = [Reviews(test_docs)[k] for k in range(3000)]\n"
        "test_loader = DataLoader(rows, batch_size=64)").replace(
        "        opt.step()\n",
        "        opt.step()\n        steps += 1\n        if steps % 20 == 0:\n"
        "            rows[1499 + steps // 20] = rows[1499 + steps // 20][:32]\n")
    assert _raised_type(cell, _review_namespace(False, MID_BATCH)) is None
    result, verdict = _beside_the_cell(_review_namespace(False, MID_BATCH), cell)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


@pytest.mark.parametrize("long_at", [MID_BATCH, range(2980, 3000)])
def test_a_batch_the_loop_may_break_before_is_not_claimed(long_at):
    # the evaluation stops after ten batches: the real run never makes the 24th, nor the last
    # (a loop with a `break` has no last iteration to run after its cut)
    cell = REVIEWS.format(step=0.002, between="scores = []\n", loop="for xb in test_loader",
                          epochs=3)
    cell += "        if len(scores) == 10:\n            break\n"
    assert _raised_type(cell, _review_namespace(False, long_at)) is None
    result, verdict = _beside_the_cell(_review_namespace(False, long_at), cell)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


@pytest.mark.parametrize("between, grows", [
    # the padding length the dataset reads grows step by step: the real run's fits the
    # longest reviews by the end, the cut run's (fewer steps) does not
    ("scores = []\n", True),
    # shuffled: the real last batch holds other rows
    ("scores = []\ntest_loader = DataLoader(Reviews(test_docs), batch_size=64, shuffle=True)\n",
     False),
])
def test_a_last_batch_made_of_other_rows_or_state_is_not_claimed(between, grows):
    cell = REVIEWS.format(step=0.02 if grows else 0.002, between=between,
                          loop="for xb in test_loader", epochs=3)
    if grows:
        cell = cell.replace("        opt.step()\n", "        opt.step()\n        max_len += 1\n")
        assert _raised_type(cell, _review_namespace(cut=False)) is None
    result, verdict = _beside_the_cell(_review_namespace(cut=False), cell)
    assert not result.last_iteration, (verdict, result)
    if grows:
        assert verdict.crash is not True, verdict


def _districts(twice_at: int | None = BAD) -> dict:
    """Forty districts' households and zone tables; the one at ``twice_at`` lists a zone
    twice."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(21)
    households, zones = {}, {}
    for k in range(ITEMS):
        table = pd.DataFrame({"zone_id": np.arange(12), "kind": rng.choice(["urban", "rural"], 12)})
        if k == twice_at:
            table = pd.concat([table, table.iloc[[4]]], ignore_index=True)
        zones[f"D{k:02d}"] = table
        households[f"D{k:02d}"] = pd.DataFrame({"zone_id": rng.integers(0, 12, 500),
                                                "size": rng.integers(1, 6, 500)})
    return {"pd": pd, "time": time, "households": households, "zones": zones,
            "districts": sorted(households)}


DISTRICTS = """
people = {{}}
for d in districts:
    time.sleep({step})
    lookup = zones[d]{dedupe}.assign(weight=lambda z: 1.0 / z.groupby('kind')['zone_id'].transform('size'))
    hh = households[d].merge(lookup, on='zone_id', how='left', validate='many_to_one')
    people[d] = (hh['size'] * hh['weight']).groupby(hh['kind']).sum()
"""


def test_a_skipped_districts_zone_twice_is_refused_by_its_merge():
    """The 37th district's zone table lists a zone twice: ``validate='many_to_one'``
    refuses it. A frame's ``merge`` changes neither the frame nor what it is given, so the
    zone tables are the real run's as the sweep meets them. The fix drops the duplicate."""
    cell = DISTRICTS.format(step=STEP_S, dedupe="")
    assert _raised_type(cell, _districts()) == "MergeError"
    result, verdict = _beside_the_cell(_districts(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "MergeError", 6), verdict
    fixed = DISTRICTS.format(step=STEP_S, dedupe=".drop_duplicates('zone_id')")
    assert _raised_type(fixed, _districts()) is None
    result, verdict = _beside_the_cell(_districts(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("source, handed", [
    ("hh = households[d].merge(zones[d], on='zone_id')", set()),
    ("hh = frame.join(zones[d], on='zone_id')", set()),
    ("m = frame['zone_id'].isin(allowed)", set()),
    ("frame.merge(zones[d], inplace=True)", {"zones"}),  # (no such keyword: not known)
    ("hh = model.merge(zones[d])", {"zones"}),  # not a pandas object's method
])
def test_a_pandas_merge_reads_what_it_is_given(source, handed):
    """Unit: `_handed` does not count what a frame's ``merge``, ``join`` or ``isin`` is
    given (a frame in a dict of frames too); a ``merge`` of something else hands it."""
    import pandas as pd

    from crashpredict._dryrun._fastforward import _handed

    frame = pd.DataFrame({"zone_id": [1, 2]})
    namespace = {"households": {"D00": frame}, "zones": {"D00": frame}, "frame": frame,
                 "allowed": {1, 2}, "model": object(), "d": "D00"}
    assert _handed(ast.parse(source).body, namespace) == handed


def test_arrays_of_fits_the_cut_run_cut_are_not_stacked_against_whole_ones():
    """One forest per sensor, its trees' depths collected and stacked after the loop: the
    cut run's forests were cut to fewer trees, the sweep's are whole, so their arrays
    differ in length where the real run's do not. Clean for real, and not judged."""
    from sklearn.ensemble import RandomForestRegressor

    cell = ("depths = []\nfor name, sig in recordings.items():\n"
            f"    time.sleep({STEP_S})\n"
            "    rf = RandomForestRegressor(n_estimators=30, max_depth=3, random_state=0)\n"
            "    rf.fit(sig[:200].reshape(-1, 1), sig[1:201])\n"
            "    depths.append(np.array([t.get_depth() for t in rf.estimators_]))\n"
            "cube = np.stack(depths)\n")

    def namespace() -> dict:
        return {**_recordings(short_at=None), "RandomForestRegressor": RandomForestRegressor}

    assert _raised_type(cell, namespace()) is None
    result, verdict = _beside_the_cell(namespace(), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


# ---- a loop over zip(...): its last item and its skipped items, from what it zips -------

def _customers() -> dict:
    """Eight features of 500 customers, the last a date, and their lifetime value."""
    import matplotlib
    import numpy as np
    import pandas as pd

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import seaborn as sns

    rng = np.random.default_rng(29)
    frame = pd.DataFrame({f"f{k}": rng.normal(size=500) for k in range(7)})
    frame["last_login"] = pd.Timestamp("2024-06-30") - pd.to_timedelta(
        rng.integers(0, 90, 500), unit="D")
    frame["ltv"] = frame["f0"] * 3 + rng.normal(size=500)
    return {"np": np, "pd": pd, "plt": plt, "sns": sns, "time": time, "customers": frame}


PLOTTED = """
features = [c for c in customers.columns if c != 'ltv']
fig, axes = plt.subplots(2, 4)
for ax, col in zip({grid}, {features}):
    time.sleep(0.15)
    sns.regplot(data=customers, x=col, y='ltv', ax=ax, order=2, n_boot=50)
"""


@pytest.mark.parametrize("grid", ["axes.ravel()", "axes.flat"])
def test_the_last_item_of_a_zip_of_lists_is_run_after_the_cut(grid):
    """The last of eight plotted features is a date, which a quadratic fit cannot take:
    the real run fails in its last iteration. The loop over ``zip(axes.ravel(), features)``
    is cut; its last item, read from what it zips, runs after the cut, and the failure of
    its own column counts (Seaborn's plots only read the frame). The fix plots the days
    since the last login. ``axes.flat``, an iterator at its start, is read from its array."""
    cell = PLOTTED.format(grid=grid, features="features")
    assert _raised_type(cell, _customers()) is not None
    result, verdict = _beside_the_cell(_customers(), cell)
    assert result.last_iteration, result
    assert (verdict.crash, verdict.line) == (True, 6), verdict
    fixed = cell.replace("features = [", "customers['last_login'] = (pd.Timestamp('2024-07-01')"
                         " - customers['last_login']).dt.days\nfeatures = [")
    assert _raised_type(fixed, _customers()) is None
    result, verdict = _beside_the_cell(_customers(), fixed)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


@pytest.mark.parametrize("grid, features", [
    # a generator of the features: listing it would take the loop's items
    ("axes.ravel()", "(c for c in features)"),
    # an iterator over the grid already stepped: its items are not its array's
    ("cells", "features[1:]"),
])
def test_a_zip_over_what_iterating_consumes_has_no_last_item(grid, features):
    cell = PLOTTED.format(grid=grid, features=features).replace(
        "for ax, col", "cells = axes.flat\nnext(cells)\nfor ax, col")
    assert _raised_type(cell, _customers()) is not None
    result, verdict = _beside_the_cell(_customers(), cell)
    assert not result.last_iteration, result


ZIPPED = """
totals = []
for name, df in zip(names, frames):
    time.sleep({step})
    df = df.copy()
    df['amount'] = df['amount'].astype(float)
    totals.append(df['amount'].sum())
"""


def test_a_skipped_item_of_a_zip_is_met_by_the_sweep(tmp_path):
    """The 37th of 40 monthly frames, zipped with their names, holds its amounts as text
    with thousands separators: the sweep runs the skipped items, listed from what the loop
    zips, and meets it. Its fix strips the separators."""
    import pandas as pd

    def namespace() -> dict:
        found = _exports(tmp_path / str(time.monotonic_ns()))
        frames = [pd.read_csv(f"{found['folder']}/{name}") for name in found["files"]]
        return {**found, "names": list(found["files"]), "frames": frames}

    cell = ZIPPED.format(step=STEP_S)
    assert _raised_type(cell, namespace()) == "ValueError"
    result, verdict = _beside_the_cell(namespace(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), verdict
    fixed = cell.replace("df['amount'].astype(float)",
                         "df['amount'].astype(str).str.replace(',', '').astype(float)")
    assert _raised_type(fixed, namespace()) is None
    result, verdict = _beside_the_cell(namespace(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


# ---- a day of new ids, met by an embedding trained day by day ------------------------------

def _replay(new_from: int | None = BAD) -> dict:
    """Forty days of clicks by 200 users on 50 items; from day ``new_from`` on, some
    clicks come from users who signed up since (ids 200 and up)."""
    import numpy as np
    import pandas as pd
    import torch
    from torch import nn

    torch.manual_seed(0)
    rng = np.random.default_rng(3)
    day = np.repeat(np.arange(ITEMS), 300)
    user = rng.integers(0, 200, day.size)
    if new_from is not None:
        late = (day >= new_from) & (rng.random(day.size) < 0.1)
        user[late] = rng.integers(200, 220, late.sum())
    log = pd.DataFrame({"day": day, "user_id": user, "item_id": rng.integers(0, 50, day.size),
                        "clicked": (rng.random(day.size) < 0.2).astype("float32")})
    users = pd.DataFrame({"user_id": np.arange(200)})
    return {"np": np, "pd": pd, "torch": torch, "nn": nn, "time": time, "log": log,
            "users": users}


REPLAYED = """
n_users = {users}
n_items = int(log['item_id'].max()) + 1

class MF(nn.Module):
    def __init__(self, n_users, n_items):
        super().__init__()
        self.u = nn.Embedding(n_users, 8)
        self.i = nn.Embedding(n_items, 8)
    def forward(self, u, i):
        return (self.u(u) * self.i(i)).sum(1)

model = MF(n_users, n_items)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for d, g in log.groupby('day'):
    time.sleep({step})
    u = torch.as_tensor(g['user_id'].to_numpy())
    i = torch.as_tensor(g['item_id'].to_numpy())
    y = torch.as_tensor(g['clicked'].to_numpy())
    loss = nn.functional.binary_cross_entropy_with_logits(model(u, i), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_skipped_day_with_new_ids_meets_the_embeddings_size():
    """Day 37 of 40 brings users the embedding (sized from the user table) has no row
    for. The cell reads the log's largest item id before the loop (a summary, which
    changes none of the days the loop runs over), and the model's ``forward`` reads its
    own ``self.u``, not the loop's ``u``: the skipped day's failure is its own values
    against layers whose sizes no step changes. The fix sizes the embedding from the log."""
    cell = REPLAYED.format(users="users['user_id'].nunique()", step=STEP_S)
    assert _raised_type(cell, _replay()) == "IndexError"
    result, verdict = _beside_the_cell(_replay(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception) == (True, "IndexError"), verdict
    fixed = REPLAYED.format(users="int(log['user_id'].max()) + 1", step=STEP_S)
    assert _raised_type(fixed, _replay()) is None
    result, verdict = _beside_the_cell(_replay(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize(("source", "summarised"), [
    ("n = int(log['item_id'].max()) + 1", True),
    ("n = len(log)", True),
    ("n = log.shape[0]", True),
    ("cols = list(log.columns)", True),
    ("v = log['item_id'].values", False),
    ("log['item_id'] = 0", False),
    ("log.drop(columns='day', inplace=True)", False),
    ("show(log)", False),
    ("view = log", False),
    ("log.index.name = 'row'", False),
    ("log.columns.name = None", False),
])
def test_what_only_reads_a_summary_of_a_frame(source, summarised):
    from crashpredict._dryrun._fastforward import _summarised

    tree = ast.parse(source)
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    (name,) = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "log"]
    assert _summarised(name, parents) is summarised


# ---- an array the cell adds into in place, met by a short day -------------------------------

def _days(short_at: int | None = BAD) -> dict:
    """Forty days of per-minute readings of four sensors; the day at ``short_at`` lost a
    minute (1439 rows)."""
    import numpy as np

    rng = np.random.default_rng(6)
    readings = {f"day{d:02d}": rng.normal(20, 3, (1440, 4)) for d in range(40)}
    if short_at is not None:
        key = f"day{short_at:02d}"
        readings[key] = np.delete(readings[key], 120, axis=0)
    return {"np": np, "time": time, "readings": readings}


PROFILES = """
profile_sum = np.zeros((1440, 4))
for day, arr in readings.items():
    time.sleep({step})
    clean = np.clip(arr, 0, 40)
    profile_sum += clean
{after}mean_profile = profile_sum / len(readings)
"""


def test_a_short_day_added_in_place_into_a_running_sum_is_met_by_the_sweep():
    """numpy's in-place add keeps the running sum's shape: in any iteration it is the
    (1440, 4) it was made with, so the day of 1439 rows, skipped by the cut and run after
    the cell, fails as the real run's 37th iteration does. The fix resizes the day to 1440
    rows."""
    cell = PROFILES.format(step=STEP_S, after="")
    assert _raised_type(cell, _days()) == "ValueError"
    result, verdict = _beside_the_cell(_days(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 6), verdict
    fixed = cell.replace("clean = np.clip(arr, 0, 40)",
                         "clean = np.clip(np.resize(arr, (1440, 4)), 0, 40)")
    assert _raised_type(fixed, _days()) is None
    result, verdict = _beside_the_cell(_days(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("after", [
    "profile_sum = profile_sum.T\n",  # bound again after the loop: not the loop's shape
    "profile_sum.shape = (4, 1440)\n",  # reshaped in place
    "profile_sum.resize((4, 1440), refcheck=False)\n",
])
def test_a_running_sum_reshaped_after_the_loop_is_not_claimed(after):
    """Every day is whole: the real run is clean. The sweep runs after the whole cell,
    which reshaped the sum: its failures there say nothing."""
    cell = PROFILES.format(step=STEP_S, after=after)
    assert _raised_type(cell, _days(short_at=None)) is None
    result, verdict = _beside_the_cell(_days(short_at=None), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


# ---- a stream trained batch by batch over a range, met by a late class id -----------------

def _stream(new_class: bool = True) -> dict:
    """4,000 events of six categories in time order; near the end (but not in the last
    batch) a seventh category, id 6, appears."""
    import numpy as np
    import torch
    from torch import nn

    torch.manual_seed(0)
    rng = np.random.default_rng(12)
    n = 4000
    cat = rng.choice(6, n)
    if new_class:
        late = np.arange(3600, 3960)
        cat[late[rng.random(len(late)) < 0.05]] = 6
    X = rng.normal(size=(n, 8)) + cat[:, None] * 0.3
    return {"np": np, "torch": torch, "nn": nn, "time": time, "X": X, "cat": cat}


STREAM = """
N_CLASSES = {classes}
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
X_all = torch.tensor(X, dtype=torch.float32)
y_all = torch.tensor(cat, dtype=torch.long)
hits = 0
for start in range(0, len(X_all), 32):
    time.sleep({step})
    xb, yb = X_all[start:start + 32], y_all[start:start + 32]
    logits = net(xb)
    hits += (logits.argmax(1) == yb).sum().item()
    loss = loss_fn(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
{after}"""


def test_a_late_class_id_in_a_stream_trained_over_a_range_is_met_by_the_sweep():
    """The stream's 7th category appears only in its last tenth: the real run's loss
    fails there ("Target 6 is out of bounds"). The loop over ``range(0, len(X_all), 32)``
    keeps its numbers whatever the cell does with ``X_all``; the module and the loss (torch's
    own classes) read the batch without changing it, ``backward`` changes no tensor the
    cell names, and the model keeps its output width however it trains: the failure on a
    skipped batch is the iteration's own. The fix counts the classes in the data."""
    cell = STREAM.format(classes=6, step=STEP_S / 2, after="")
    assert _raised_type(cell, _stream()) == "IndexError"
    result, verdict = _beside_the_cell(_stream(), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "IndexError", 14), verdict
    fixed = STREAM.format(classes="int(cat.max()) + 1", step=STEP_S / 2, after="")
    assert _raised_type(fixed, _stream()) is None
    result, verdict = _beside_the_cell(_stream(), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


@pytest.mark.parametrize("after", [
    "y_all[-1] = 6\n",  # the labels changed after the loop: the sweep reads them so
    "y_all.add_(6)\n",  # ...in place, by a method
])
def test_labels_changed_after_the_stream_are_not_claimed(after):
    cell = STREAM.format(classes=6, step=STEP_S / 2, after=after)
    assert _raised_type(cell, _stream(new_class=False)) is None
    result, verdict = _beside_the_cell(_stream(new_class=False), cell)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)


def test_what_a_torch_module_does_with_its_inputs():
    """Of torch's own modules: a network and a loss read their inputs; one that works in
    place, or holds a hook of the user's, may change them."""
    import torch
    from torch import nn

    from crashpredict._dryrun._fastforward import _torch_reader

    assert _torch_reader(nn.Sequential(nn.Linear(4, 3), nn.ReLU()))
    assert _torch_reader(nn.CrossEntropyLoss())
    assert not _torch_reader(nn.Sequential(nn.ReLU(inplace=True), nn.Linear(4, 3)))
    hooked = nn.Linear(4, 3)
    hooked.register_forward_pre_hook(lambda module, args: None)
    assert not _torch_reader(hooked)

    class Mine(nn.Module):
        def forward(self, x):
            return x.mul_(2)

    assert not _torch_reader(Mine()) and not _torch_reader(torch.zeros(3))


# ---- log lines parsed by a compiled pattern, met by a traceback near the end ---------------

def _log(tmp_path, traceback_at: int | None = 3_600) -> dict:
    """4,000 access-log lines; at ``traceback_at`` a worker wrote a traceback (3 lines)
    into the log."""
    import random
    import re

    rng = random.Random(4)
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "app.log"
    with open(path, "w") as fh:
        for i in range(4_000):
            if i == traceback_at:
                fh.write("Traceback (most recent call last):\n  File \"app.py\", line 8\n"
                         "KeyError: 'cart_id'\n")
            fh.write(f"2024-05-01 10:{i // 60 % 60:02d}:{i % 60:02d} INFO "
                     f"path=/api/{rng.choice(['cart', 'search'])} ms={rng.randint(3, 900)}\n")
    return {"re": re, "time": time, "path": str(path)}


PARSED = """
LINE_RE = re.compile(r"^(\\S+ \\S+) (\\w+) path=(\\S+) ms=(\\d+)$")
latency = {{}}
with open(path) as f:
    for line in f:
        time.sleep({step})
        m = LINE_RE.match(line.rstrip("\\n"))
        {guard}latency.setdefault(m.group(3), []).append(int(m.group(4)))
"""


def test_a_line_no_pattern_matches_near_the_logs_end_is_met_by_the_sweep(tmp_path):
    """A traceback written into the log 400 lines before its end: the pattern does not
    match it, and ``m.group`` fails on None. The compiled pattern, bound before the loop,
    is immutable: its ``match`` changes nothing, so the failure on the skipped line is the
    iteration's own. The fix skips lines that do not match."""
    cell = PARSED.format(step=STEP_S / 20, guard="")
    assert _raised_type(cell, _log(tmp_path / "truth")) == "AttributeError"
    result, verdict = _beside_the_cell(_log(tmp_path / "run"), cell)
    assert result.swept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "AttributeError", 8), verdict
    fixed = PARSED.format(step=STEP_S / 20, guard="if m is None:\n            continue\n        ")
    assert _raised_type(fixed, _log(tmp_path / "truth_fixed")) is None
    result, verdict = _beside_the_cell(_log(tmp_path / "run_fixed"), fixed)
    assert verdict.crash is not True and not result.swept_iteration, (verdict, result)
