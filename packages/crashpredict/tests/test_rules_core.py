"""Rules on names, attributes, keys, calls, files, imports and syntax: crashes and near misses.

Each case is (source, namespace) -> expected (exception, crash_type, line) or None.
"""

from __future__ import annotations

import types

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crashpredict import predict


def frame() -> pd.DataFrame:
    return pd.DataFrame({"age": [20, 30, 40], "Total_Gross": ["1", "2", "3"],
                         "city": ["a", "b", "c"]})


def base_ns() -> dict:
    def scale(values, factor, *, clip=False):
        return values

    from sklearn.linear_model import LinearRegression
    from sklearn.model_selection import train_test_split

    data = frame()
    return {"pd": pd, "np": np, "df": data, "frame": data, "arr": np.zeros((3, 4)),
            "train_test_split": train_test_split, "LinearRegression": LinearRegression,
            "scale": scale, "cfg": {"lr": 0.1}, "items": [1, 2, 3],
            "cols": ["age", "city"], "strs": pd.Series(["46.0", "12"])}


CRASHES = [
    # names
    ("undefined name", "model.fit(X, y)", ("NameError", "variable not found", 1)),
    ("used before its assignment in the cell", "print(total)\ntotal = 1",
     ("NameError", "variable not found", 1)),
    ("deleted earlier in the cell", "del df\ndf.head()", ("NameError", "variable not found", 2)),
    # attributes
    ("ndarray has no join", "arr.join(df)", ("AttributeError", "attribute error", 1)),
    ("removed DataFrame.append", "df = df.append(df)", ("AttributeError", "attribute error", 1)),
    ("removed np.float", "x = np.float(3)", ("AttributeError", "attribute error", 1)),
    ("not a column either", "df.agee.mean()", ("AttributeError", "attribute error", 1)),
    ("method of a module that has none", "pd.read_cvs('a.csv')",
     ("AttributeError", "attribute error", 1)),
    # keys
    ("missing column", "x = 1\ndf['Total Gross']", ("KeyError", "key error", 2)),
    ("missing columns in a list", "df[['age', 'salary']]", ("KeyError", "key error", 1)),
    ("drop of a missing column", "df.drop(columns='salary', inplace=True)",
     ("KeyError", "key error", 1)),
    ("drop with axis=1", "df = df.drop(['salary'], axis=1)", ("KeyError", "key error", 1)),
    ("loc column", "df.loc[0, 'salary']", ("KeyError", "key error", 1)),
    ("merge key", "df.merge(df, on='id')", ("KeyError", "key error", 1)),
    ("groupby key", "df.groupby('region').age.mean()", ("KeyError", "key error", 1)),
    ("dict key", "cfg['epochs']", ("KeyError", "key error", 1)),
    ("list index", "items[3]", ("IndexError", "index error", 1)),
    ("array index", "arr[5, 0]", ("IndexError", "index error", 1)),
    ("too many indices", "arr[0, 0, 0]", ("IndexError", "index error", 1)),
    ("iloc bounds", "df.iloc[10]", ("IndexError", "index error", 1)),
    ("mapped column read back", "df['city'] = df['city'].map({'a': 1, 'b': 2, 'c': 3})\n"
                                "df['city'].str.upper()", ("AttributeError", "attribute error", 2)),
    ("list stored in a dict", "d = {}\nd['k'] = [1]\nd['k'][3]", ("IndexError", "index error", 3)),
    ("loop over a non-empty array", "for row in arr:\n    df['salary']",
     ("KeyError", "key error", 2)),
    ("loop over enumerate of a list", "for i, v in enumerate(items):\n    cfg['epochs']",
     ("KeyError", "key error", 2)),
    ("key in the second loop item", "for c in ['age', 'zip']:\n    x = df[c]",
     ("KeyError", "key error", 2)),
    ("deterministic split then fewer features",
     "a, b, c, d = train_test_split(df[['age']], df['age'], random_state=0)\n"
     "m = LinearRegression().fit(a, c)\nm.predict(df[['age', 'city']])",
     ("ValueError", "feature name mismatch", 3)),
    ("column through a tracked list", "wanted = cols + ['zip']\ndf[wanted]",
     ("KeyError", "key error", 2)),
    ("loop over a literal list", "for c in ['age', 'zip']:\n    print(df[c].mean())",
     ("KeyError", "key error", 2)),
    # values
    ("astype int of float strings", "strs.astype('int')", ("ValueError", "value error", 1)),
    ("int of a float string", "n = int('46.0')", ("ValueError", "value error", 1)),
    ("list.remove of a missing item", "items.remove(7)", ("ValueError", "value error", 1)),
    ("mean of text", "df['city'].mean()", ("TypeError", "type error", 1)),
    # calls
    ("user function: missing argument", "scale(items)", ("TypeError", "invalid argument", 1)),
    ("user function: unexpected keyword", "scale(items, 2, clamp=True)",
     ("TypeError", "invalid argument", 1)),
    ("cell-defined function", "def f(a, b):\n    return a\nf(1, 2, 3)",
     ("TypeError", "invalid argument", 3)),
    ("library: removed positional axis", "df.drop('age', 1)", ("TypeError", "invalid argument", 1)),
    # plain Python
    ("calling a tuple", "n = df.shape()", ("TypeError", "type error", 1)),
    ("subscripting a function", "scale[0]", ("TypeError", "type error", 1)),
    ("indexing dict keys", "first = cfg.keys()[0]", ("TypeError", "type error", 1)),
    ("unpacking the wrong count", "rows, cols, depth = df.shape", ("ValueError", "value error", 1)),
    ("str plus float", "print('lr: ' + cfg['lr'])", ("TypeError", "type error", 1)),
    ("division by zero", "ratio = len(items) / 0", ("ZeroDivisionError", "data value violation", 1)),
    # pandas re-runs and accessors
    ("insert an existing column", "df.insert(0, 'age', 1)", ("ValueError", "value error", 1)),
    ("pop a missing column", "df.pop('salary')", ("KeyError", "key error", 1)),
    ("columns of the wrong length", "df.columns = ['a', 'b']", ("ValueError", "value error", 1)),
    (".str on numbers", "df['age'].str.strip()", ("AttributeError", "attribute error", 1)),
    # raise / assert
    ("unconditional raise", "raise ValueError('stop')", ("ValueError", "value error", 1)),
    ("false assertion", "assert len(items) == 4", ("AssertionError", "data value violation", 1)),
    # imports, files, syntax
    ("module not installed", "import not_a_real_module_xyz",
     ("ModuleNotFoundError", "module not found", 1)),
    ("name removed from a module", "from json import loadz",
     ("ImportError", "module not found", 1)),
    ("missing file", "data = pd.read_csv('no/such/train.csv')",
     ("FileNotFoundError", "file not found", 1)),
    ("missing file through os.path.join", "import os\n"
     "data = pd.read_csv(os.path.join('no', 'such', 'train.csv'))",
     ("FileNotFoundError", "file not found", 2)),
    ("missing folder", "import os\nfiles = os.listdir('no/such/folder')",
     ("FileNotFoundError", "file not found", 2)),
    ("float format of a string", "print(f'{cfg}: {items[0]:.2f} {df.columns[0]:.2f}')",
     ("ValueError", "value error", 1)),
    ("float format of an array", "print(f'{arr:.3f}')", ("TypeError", "type error", 1)),
    ("syntax error", "for x in range(3)\n    print(x)", ("SyntaxError", "syntax error", 1)),
]

NEAR_MISSES = [
    ("defined earlier in the cell", "X = df[['age']]\nX.mean()"),
    ("bound by a for loop", "for i in range(2):\n    j = i\nprint(j)"),
    ("conditionally defined", "if df.shape[0] > 100:\n    big = True\nprint(big)"),
    ("guarded by try", "try:\n    df['salary']\nexcept KeyError:\n    pass"),
    ("column added earlier in the cell", "df['salary'] = 1\ndf['salary'].mean()"),
    ("frame rebound by an unknown call", "df = scale(df, 2)\ndf['salary']"),
    ("frame changed by a user function", "def add(d):\n    d['salary'] = 1\nadd(df)\n"
                                          "df['salary']"),
    ("column attribute access", "df.age.mean()"),
    ("drop with errors='ignore'", "df.drop(columns='salary', errors='ignore')"),
    ("branch not taken", "if False:\n    df['salary']"),
    ("or short-circuit", "ok = 'salary' in df or df['salary']"),
    ("star import may define it", "from math import *\nprint(pi)"),
    ("global set by a function", "def setup():\n    global X\n    X = 1\nsetup()\nprint(X)"),
    ("dict key added earlier", "cfg['epochs'] = 3\ncfg['epochs']"),
    ("list stored in a dict then changed", "lst = [1]\nd = {}\nd['k'] = lst\n"
                                           "lst.append(2)\nd['k'][1]"),
    ("column added through an alias", "X = df\nX['salary'] = 1\ndf['salary']"),
    ("changed through a namespace alias", "frame.insert(0, 'salary', 1)\ndf['salary']"),
    ("list index in range", "items[-3]"),
    ("kwargs forwarding", "scale(*items)"),
    ("module attribute that exists", "np.float64(3)"),
    ("file written earlier in the cell", "df.to_csv('out.csv')\npd.read_csv('out.csv')"),
    ("IPython magic", "%time x = 1"),
    ("shell escape", "!ls"),
    ("fine float strings", "strs.astype('float').astype('int')"),
    ("mutated by an inplace call", "df.rename(columns={'age': 'salary'}, inplace=True)\n"
                                   "df['salary']"),
    ("lambda body never runs here", "f = lambda: df['salary']"),
    ("calling a function", "n = len(df)"),
    ("float format of a float", "print(f'{cfg[\"lr\"]:.3f} {arr.mean():.2f}')"),
    ("loop over an iterable that may be empty", "for batch in scale(items, 1):\n"
                                                "    df['salary']"),
    ("loop over an empty list", "for v in []:\n    df['salary']"),
    ("zip is a one-shot iterator", "z = zip(items, items)\nfor a, b in z:\n    pass\n"
                                   "for a, b in z:\n    df['salary']"),
    ("subscripting a dict", "cfg['lr']"),
    ("star-unpacking", "first, *rest = items"),
    ("str plus str", "print('lr: ' + str(cfg['lr']))"),
    ("%-formatting", "print('%d items' % len(items))"),
    (".str on text", "df['city'].str.strip()"),
    ("columns of the right length", "df.columns = ['a', 'b', 'c']"),
    ("installed earlier in the cell", "%pip install not_a_real_module_xyz\n"
                                      "import not_a_real_module_xyz"),
    ("shell install earlier in the cell", "!pip install not_a_real_module_xyz\n"
                                          "import not_a_real_module_xyz"),
    ("%run may define names", "%run setup.py\nprint(defined_by_setup)"),
    ("%time assignment", "%time total = 1\nprint(total)"),
    ("exec may define names", "exec('q = 1')\nprint(q)"),
    ("IPython display builtin", "display(df)"),
    ("possible break before the crash", "for c in ['age', 'zip']:\n    if c == 'age':\n"
                                        "        break\n    df[c]"),
    ("function body never runs here", "def f():\n    return df['salary']"),
]


@pytest.mark.parametrize(("source", "expected"), [pytest.param(s, e, id=i) for i, s, e in CRASHES])
def test_crash_is_predicted(source: str, expected: tuple) -> None:
    verdict = predict(source, base_ns())
    assert (verdict.crash, verdict.exception, verdict.crash_type, verdict.line) == (
        True, *expected), verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES])
def test_near_miss_is_not_flagged(source: str) -> None:
    verdict = predict(source, base_ns())
    assert verdict.crash is False, verdict.explanation


def test_explanation_names_the_values() -> None:
    verdict = predict("df['Total Gross']", base_ns())
    assert "df has no column 'Total Gross'" in verdict.explanation
    assert "did you mean 'Total_Gross'?" in verdict.explanation


def test_a_cut_column_list_shows_the_renamed_column_first() -> None:
    # the ninth of nine columns is the renamed one: a list cut at eight used to hide it
    columns = ["price", "qty", "zone", "name", "size", "color", "kind", "weight", "Region"]
    ns = {"df": pd.DataFrame({c: [1, 2] for c in columns})}
    verdict = predict("df['region']", ns)
    assert verdict.explanation == (
        "df has no column 'region'; its 9 columns are ['Region', 'price', 'qty', 'zone', "
        "'name', 'size', 'color', 'kind', ... 1 more] (closest first); did you mean 'Region'?")
    plain = predict("df['nothing_like_it']", ns)  # no close match: notebook order, as before
    assert "its 9 columns are ['price', 'qty', 'zone', 'name', 'size', 'color', 'kind', " \
           "'weight', ... 1 more]" in plain.explanation and "closest" not in plain.explanation


def test_removed_method_gets_specific_advice() -> None:
    verdict = predict("df.append(df)", base_ns())
    assert "removed in pandas 2.0; use pd.concat" in verdict.explanation
    assert verdict.library == "pandas"


def test_lazy_module_getattr_is_not_flagged() -> None:
    lazy = types.ModuleType("lazy")
    lazy.__getattr__ = lambda name: 1  # type: ignore[attr-defined]
    assert predict("lazy.anything", {"lazy": lazy}).crash is False


def test_object_with_getattr_is_not_flagged() -> None:
    class Dynamic:
        def __getattr__(self, name):
            return name
    assert predict("d.whatever", {"d": Dynamic()}).crash is False


def test_properties_are_not_run() -> None:
    class Boom:
        @property
        def value(self):
            raise RuntimeError("side effect")
    assert predict("b.value.x", {"b": Boom()}).crash is False


def test_user_functions_are_never_called() -> None:
    calls = []

    def spy(x):
        calls.append(x)
        return x
    predict("y = spy(1)\ny.missing", {"spy": spy})
    assert calls == []


def test_namespace_is_not_mutated() -> None:
    ns = base_ns()
    predict("df.drop(columns='age', inplace=True)\nitems.remove(1)\ncfg['x'] = 1", ns)
    assert list(ns["df"].columns) == ["age", "Total_Gross", "city"]
    assert ns["items"] == [1, 2, 3] and ns["cfg"] == {"lr": 0.1}


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abdfx()[]'\"=.+-:\n 0123", max_size=40))
def test_never_raises_on_any_source(source: str) -> None:
    verdict = predict(source, base_ns())
    assert verdict.crash in (True, False, None)


class _Spy:
    """Records every dunder the engine might be tempted to call."""

    calls: list[str] = []

    def __getattr__(self, name):
        _Spy.calls.append(f"getattr {name}")
        raise AttributeError(name)

    def __eq__(self, other):
        _Spy.calls.append("eq")
        return False

    def __hash__(self):
        _Spy.calls.append("hash")
        return 1

    def __len__(self):
        _Spy.calls.append("len")
        return 1

    def __bool__(self):
        _Spy.calls.append("bool")
        return True

    def __repr__(self):
        _Spy.calls.append("repr")
        return "Spy"

    def __iter__(self):
        _Spy.calls.append("iter")
        return iter(())

    def __getitem__(self, key):
        _Spy.calls.append("getitem")
        return 1

    def __call__(self, *args):
        _Spy.calls.append("call")
        return 1

    def __add__(self, other):
        _Spy.calls.append("add")
        return 1


@pytest.mark.parametrize("source", [
    "spy.x", "spy[spy]", "d = {spy: 1}\nd[spy]", "if spy:\n    y = 1", "for v in spy:\n    pass",
    "len(spy)", "spy(1)", "spy + 1", "spy == 1", "[spy, spy][0].x", "str(spy)", "f'{spy}'",
    "items.remove(spy)", "cfg[spy]", "df[spy]", "assert spy", "a, b = spy",
])
def test_user_objects_run_no_code(source: str) -> None:
    _Spy.calls = []
    ns = base_ns()
    ns["spy"] = _Spy()
    verdict = predict(source, ns)
    assert verdict.crash in (True, False)
    assert _Spy.calls == []


@pytest.mark.parametrize("cell, raises", [
    ("del list\nfeats = list(df.columns)", None),  # the builtin, uncovered
    ("feats = list(df.columns)", "TypeError"),  # the global list is not callable
    ("del total\nprint(total)", "NameError"),  # no builtin of that name
])
def test_a_global_deleted_in_the_cell_uncovers_the_builtin(cell, raises) -> None:
    """An earlier cell rebound ``list``; this one deletes it: ``list`` is the builtin again."""
    ns = {"df": pd.DataFrame({"a": [1]}), "list": ["Age", "Fare"], "total": 3}
    verdict = predict(cell, ns)
    try:
        exec(cell, dict(ns))  # noqa: S102 - the truth
    except Exception as exc:  # noqa: BLE001
        truth = type(exc).__name__
    else:
        truth = None
    assert truth == raises
    assert (verdict.exception if verdict.crash else None) == raises, verdict
