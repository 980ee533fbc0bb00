"""The rules walk a row loop's body, and an element-wise lambda, on a few real rows: the
first, the first NaN (or item of another type) of each column the body names, the loop's
last row. ``for _, row in df.iterrows(): row['Title'].lower()`` with NaN titles in the last
rows is a certain AttributeError, said before the cell starts with the row that breaks it.
Truth is decided by running each cell on a fresh namespace."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from crashpredict import predict
from crashpredict_tests_cells import raised  # registered by conftest.py


def ns() -> dict:
    rng = np.random.default_rng(1)
    n = 3000
    reviews = pd.DataFrame({
        "Title": [f"Lovely {w}" for w in rng.choice(["dress", "top", "skirt"], n)],
        "Rating": rng.integers(1, 6, n),
        "Age": rng.integers(18, 80, n).astype(float),
        "Note": np.nan,  # a column no body reads, NaN from its first row
    })
    reviews.loc[2900:, "Title"] = np.nan  # the late rows lost their titles
    reviews.loc[2950:, "Age"] = np.nan
    codes = pd.Series(["a1", "b2", "c3"] * 40 + [404] + ["d4"] * 9, name="code")
    counts = pd.DataFrame({"n": rng.integers(1, 4, 50), "w": rng.random(50)})  # all numbers
    prices = pd.DataFrame({"Close": rng.normal(100, 3, 40).round(2)})
    return {"np": np, "pd": pd, "reviews": reviews, "codes": codes, "counts": counts,
            "prices": prices, "clean": reviews.dropna(subset=["Title"])}


CRASHES = [  # (id, cell, exception, line, a word the explanation must hold)
    ("a row loop meets a NaN title", """
words = []
for idx, row in reviews.iterrows():
    words.extend(row['Title'].lower().split())
""", "AttributeError", 3, "2900"),
    ("itertuples meets a NaN title", """
lengths = []
for r in reviews.itertuples():
    lengths.append(len(r.Title.split()))
""", "AttributeError", 3, "2900"),
    ("an int of a NaN age in a row loop", """
for _, row in reviews.iterrows():
    decade = int(row['Age']) // 10
""", "ValueError", 2, "2950"),
    ("apply of a str method over NaN titles", """
reviews['title_lower'] = reviews['Title'].apply(lambda t: t.lower())
""", "AttributeError", 1, "2900"),
    ("map of a split over NaN titles", """
reviews['n_words'] = reviews['Title'].map(lambda t: len(t.split()))
""", "AttributeError", 1, "2900"),
    ("a row-wise apply over NaN titles", """
reviews['tagged'] = reviews.apply(lambda r: r['Title'].upper() + str(r['Rating']), axis=1)
""", "AttributeError", 1, "2900"),
    ("a number among string codes", """
prefixes = codes.apply(lambda c: c.upper()[0])
""", "AttributeError", 1, "404"),
    ("an all-number frame's rows hold floats", """
for _, row in counts.iterrows():
    repeats = list(range(row['n']))
""", "TypeError", 2, "cannot be interpreted as an integer"),
    ("the next row's price on the last row", """
moves = []
for idx, row in prices.iterrows():
    moves.append(prices.loc[idx + 1, 'Close'] - row['Close'])
""", "KeyError", 3, "last row"),
]

NEAR_MISSES = [
    ("titles filled before the apply",
     "reviews['t'] = reviews['Title'].fillna('').apply(lambda t: t.lower())"),
    ("a lambda that checks the type",
     "reviews['t'] = reviews['Title'].apply(lambda t: t.lower() if isinstance(t, str) else t)"),
    ("map that skips NaN", "reviews['t'] = reviews['Title'].map(lambda t: t.lower(), "
                           "na_action='ignore')"),
    ("a row loop that skips NaN titles", """
for idx, row in reviews.iterrows():
    if pd.isna(row['Title']):
        continue
    t = row['Title'].lower()
"""),
    ("a row loop that checks the type", """
for idx, row in reviews.iterrows():
    if isinstance(row['Title'], str):
        t = row['Title'].lower()
"""),
    ("the error caught in the loop", """
for idx, row in reviews.iterrows():
    try:
        t = row['Title'].lower()
    except AttributeError:
        t = ''
"""),
    ("str() of the title", """
for idx, row in reviews.iterrows():
    t = str(row['Title']).lower()
"""),
    ("a loop that stops before the NaN rows", """
for idx, row in reviews.iterrows():
    if idx >= 2000:
        break
    t = row['Title'].lower()
"""),
    ("the rows without a title dropped", """
for idx, row in reviews.dropna(subset=['Title']).iterrows():
    t = row['Title'].lower()
"""),
    ("a frame cleaned before", """
for idx, row in clean.iterrows():
    t = row['Title'].lower()
"""),
    ("NaN in a column the body does not read", """
for idx, row in reviews.iterrows():
    t = row['Title'][:3] if idx < 2900 else ''
    r = row['Rating'] + 1
"""),
    ("arithmetic on a NaN age", "reviews['age2'] = reviews['Age'].apply(lambda a: a * 2)"),
    ("an int of a count in an all-number frame", """
for _, row in counts.iterrows():
    repeats = list(range(int(row['n'])))
"""),
    ("the last row guarded", """
moves = []
for idx, row in prices.iterrows():
    if idx + 1 in prices.index:
        moves.append(prices.loc[idx + 1, 'Close'] - row['Close'])
"""),
    ("the frame written in the body", """
for idx, row in prices.iterrows():
    prices.loc[idx + 1, 'Close'] = row['Close'] * 1.01
    if idx >= 5:
        break
"""),
    ("string codes that are all strings", "prefixes = codes.iloc[:120].apply(lambda c: c.upper())"),
    ("apply with an extra argument",
     "reviews['t'] = reviews['Title'].apply(lambda t, d: d, args=('x',))"),
]


def _truth(source: str) -> BaseException | None:
    return raised(source, ns())


@pytest.mark.parametrize(("source", "exception", "line", "word"),
                         [pytest.param(s.strip() + "\n", e, n, w, id=i)
                          for i, s, e, n, w in CRASHES])
def test_a_bad_row_is_found(source: str, exception: str, line: int, word: str) -> None:
    raised = _truth(source)
    assert type(raised).__name__ == exception, raised
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception, verdict.line) == (True, exception, line), \
        verdict.explanation
    assert word in verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s.strip() + "\n", id=i) for i, s in NEAR_MISSES])
def test_rows_that_work_are_not_flagged(source: str) -> None:
    assert _truth(source) is None
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation


class _Loud:
    """An object whose every attribute read, comparison and hash raises."""

    def __getattribute__(self, name: str):  # noqa: ANN204
        raise RuntimeError(f"touched .{name}")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared")

    __hash__ = None  # type: ignore[assignment]


def test_hostile_items_are_not_read() -> None:
    """Items of user objects that raise on any touch: the walk raises nothing itself and
    reads none of them (what it says comes from no such read)."""
    items = pd.Series([_Loud(), "a", np.nan, _Loud(), 7], dtype=object)
    frame = pd.DataFrame({"v": items, "w": range(5)})
    for cell in ("y = items.apply(lambda v: v.lower())",
                 "y = frame.apply(lambda r: r['v'].lower(), axis=1)",
                 "for _, r in frame.iterrows():\n    y = r['v'].lower()",
                 "for r in frame.itertuples():\n    y = r.v.lower()"):
        with pytest.raises(RuntimeError):
            exec(cell, {"items": items, "frame": frame})
        verdict = predict(cell, {"items": items, "frame": frame})
        assert "touched" not in verdict.explanation and "compared" not in verdict.explanation


class _Label:
    """An index label whose repr raises (a user object as the index)."""

    def __repr__(self) -> str:
        raise RuntimeError("repr of a label")


def test_a_label_of_user_code_is_not_repr_d() -> None:
    frame = pd.DataFrame({"Title": ["a", np.nan, "c"]}, index=[_Label(), _Label(), _Label()])
    cell = "for _, row in frame.iterrows():\n    t = row['Title'].lower()\n"
    with pytest.raises(AttributeError):
        exec(cell, {"frame": frame})
    verdict = predict(cell, {"frame": frame})
    assert (verdict.crash, verdict.exception) == (True, "AttributeError"), verdict.explanation
    assert "repr of a label" not in verdict.explanation and "on row 1" in verdict.explanation


@pytest.mark.parametrize(("cell", "raises"), [
    ("x = range(v)", True), ("x = int(nan)", True), ("x = range(k)", False),
    ("x = int(v) + float(k)", False), ("x = str(v)", False)])
def test_a_builtin_called_on_a_numpy_number_is_tried(cell: str, raises: bool) -> None:
    space = {"v": np.float64(2.0), "nan": np.float64("nan"), "k": np.int64(3)}
    try:
        exec(cell, dict(space))
        truth = False
    except (TypeError, ValueError):
        truth = True
    assert truth is raises
    assert predict(cell, space).crash is raises
