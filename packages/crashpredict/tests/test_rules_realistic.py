"""Realistic crash / near-miss pairs modelled on JunoBench (Kaggle ML notebooks).

Each pair is a crash cell and a minimally different cell that runs fine, over REAL objects.
The ground truth of every cell is established by actually running it on a deep copy of its
namespace, so a wrong expectation fails the test. Crashes the rules cannot catch precisely
are strict xfails; near misses must never be flagged.
"""

from __future__ import annotations

import copy
import types

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from crashpredict import predict  # noqa: E402


def _frame() -> pd.DataFrame:
    return pd.DataFrame({
        "id": [1, 2, 3, 4, 5, 6], "age": [23, 35, 41, 29, 52, 33],
        "income": [30.0, 52.5, 61.0, 40.2, 80.1, 45.0],
        "region": ["north", "south", "north", "east", "south", "east"],
        "grade": ["A", "B", "C", "A", "B", "C"],
        "price": ["1,200", "950", "1,010", "870", "2,300", "640"],
        "date": ["2021-01-03", "2021-02-11", "not a date", "2021-03-01", "2021-03-09",
                 "2021-04-22"],
        "target": [0, 1, 1, 0, 1, 0],
    })


def ns_pandas() -> dict:
    df = _frame()
    other = pd.DataFrame({"id": [1, 2, 3], "score": [0.1, 0.5, 0.9]})
    labelled = df.set_index(pd.Index(list("abcdef")))
    return {"pd": pd, "np": np, "plt": plt, "df": df, "other": other, "labelled": labelled,
            "row": pd.DataFrame({"id": [7], "age": [44]}), "acc": 0.9312,
            "config": {"epochs": 10, "lr": 1e-3, "batch_size": 32},
            "X_list": [[1.0, 2.0], [3.0, 4.0]], "arr": np.arange(12.0),
            "x": np.arange(10), "y": np.arange(10) ** 2, "y9": np.arange(9) ** 2,
            "names": ["lr", "rf", "svm"], "scores": [0.81, 0.86, 0.79]}


def ns_sklearn() -> dict:
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    rng = np.random.RandomState(0)
    X = rng.rand(20, 3)
    y = X @ [1.0, 2.0, 3.0]
    lin = LinearRegression().fit(X, y)
    from sklearn.metrics import accuracy_score, mean_squared_error
    df = _frame()
    fitted_df = LinearRegression().fit(df[["age", "income"]], df["target"])
    dummies = LinearRegression().fit(pd.get_dummies(df[["age", "region"]]), df["target"])
    test = pd.DataFrame({"age": [30, 40], "region": ["north", "west"]})
    return {"accuracy_score": accuracy_score, "mean_squared_error": mean_squared_error,
            "y_test": np.array([0, 1] * 5), "preds": np.array([0, 1] * 4),
            "preds10": np.array([1, 1] * 5), "dummies": dummies, "test": test,
            "y_pred": np.array([0.1, 0.9] * 5),
            "np": np, "pd": pd, "df": df, "X": X, "y": y, "y_short": y[:16],
            "y_text": np.array(["low", "high"] * 10), "y_cont": y,
            "y_class": (y > y.mean()).astype(int), "lin": lin, "fitted_df": fitted_df,
            "LinearRegression": LinearRegression, "LogisticRegression": LogisticRegression,
            "StandardScaler": StandardScaler, "train_test_split": train_test_split,
            "X_new": rng.rand(5, 4), "X_ok": rng.rand(5, 3), "x_row": rng.rand(3)}


def ns_torch() -> dict:
    torch = pytest.importorskip("torch")
    nn = torch.nn
    torch.manual_seed(0)
    return {"torch": torch, "nn": nn, "np": np, "net": nn.Linear(4, 2),
            "mlp": nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)),
            "batch": torch.zeros(5, 8), "feats64": np.zeros((5, 4)),
            "logits": torch.randn(5, 3), "targets": torch.tensor([0, 2, 1, 1, 0]),
            "loss_fn": nn.CrossEntropyLoss()}


def ns_plots() -> dict:
    sns = pytest.importorskip("seaborn")
    d = ns_pandas()
    d["sns"] = sns
    return d


_KERAS: dict = {}


def ns_keras() -> dict:
    """One small compiled model, shared by the (two) Keras pairs."""
    if not _KERAS:
        keras = pytest.importorskip("keras")
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="softmax")])
        model.compile(loss="categorical_crossentropy", optimizer="sgd")
        _KERAS.update({"np": np, "keras": keras, "model": model,
                       "X4": np.zeros((8, 4), "float32"), "X5": np.zeros((8, 5), "float32"),
                       "y_int": np.arange(8) % 3,
                       "y_hot": np.eye(3, dtype="float32")[np.arange(8) % 3]})
    return dict(_KERAS)


# (id, namespace factory, crash cell, near-miss cell, xfail reason or None)
PAIRS = [
    ("sklearn-numpy-feature-count", ns_sklearn, "pred = lin.predict(X_new)",
     "pred = lin.predict(X_ok)", None),
    ("sklearn-frame-feature-names", ns_sklearn,
     "pred = fitted_df.predict(df[['age', 'income', 'target']])",
     "pred = fitted_df.predict(df[['age', 'income']])", None),
    ("sklearn-1d-input", ns_sklearn, "lin.predict(x_row)", "lin.predict(x_row.reshape(1, -1))",
     None),
    ("split-inconsistent-lengths", ns_sklearn,
     "X_train, X_test, y_train, y_test = train_test_split(X, y_short, test_size=0.2)",
     "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)", None),
    ("split-unpack-count", ns_sklearn,
     "X_train, X_test = train_test_split(X, y, test_size=0.2)",
     "X_train, X_test = train_test_split(X, test_size=0.2)", None),
    ("regressor-string-labels", ns_sklearn, "model = LinearRegression().fit(X, y_text)",
     "model = LinearRegression().fit(X, y)", None),
    ("classifier-continuous-labels", ns_sklearn, "clf = LogisticRegression().fit(X, y_cont)",
     "clf = LogisticRegression().fit(X, y_class)", None),
    ("scaler-text-columns", ns_sklearn,
     "scaled = StandardScaler().fit_transform(df)",
     "scaled = StandardScaler().fit_transform(df[['age', 'income']])", None),
    ("merge-missing-key", ns_pandas, "merged = df.merge(other, on='cust_id')",
     "merged = df.merge(other, on='id')", None),
    ("groupby-missing-column", ns_pandas, "df.groupby('Region')['income'].mean()",
     "df.groupby('region')['income'].mean()", None),
    ("groupby-missing-value-column", ns_pandas, "df.groupby('region')['incme'].sum()",
     "df.groupby('region')['income'].sum()", None),
    ("loc-missing-label", ns_pandas, "labelled.loc['z', 'age']", "labelled.loc['a', 'age']",
     None),
    ("map-then-astype-nan", ns_pandas,
     "df['grade_num'] = df['grade'].map({'A': 1, 'B': 2}).astype(int)",
     "df['grade_num'] = df['grade'].map({'A': 1, 'B': 2, 'C': 3}).astype(int)", None),
    ("astype-float-thousands", ns_pandas, "df['price'] = df['price'].astype(float)",
     "df['price'] = df['price'].str.replace(',', '').astype(float)", None),
    ("to-datetime-bad-string", ns_pandas, "df['date'] = pd.to_datetime(df['date'])",
     "df['date'] = pd.to_datetime(df['date'], errors='coerce')", None),
    ("removed-append", ns_pandas, "df = df.append(row, ignore_index=True)",
     "df = pd.concat([df, row], ignore_index=True)", None),
    ("removed-iteritems", ns_pandas, "for name, col in df.iteritems():\n    print(name)",
     "for name, col in df.items():\n    print(name)", None),
    ("removed-np-float", ns_pandas, "ratio = np.float(acc)", "ratio = float(acc)", None),
    ("drop-without-axis", ns_pandas, "features = df.drop('target')",
     "features = df.drop('target', axis=1)", None),
    ("sort-removed", ns_pandas, "df.sort('age')", "df.sort_values('age')", None),
    ("list-shape", ns_pandas, "print(X_list.shape)", "print(np.array(X_list).shape)", None),
    ("str-plus-float", ns_pandas, "print('Accuracy: ' + acc)",
     "print('Accuracy: ' + str(acc))", None),
    ("dict-key-typo", ns_pandas, "n_epochs = config['epoch']", "n_epochs = config['epochs']",
     None),
    ("reshape-incompatible", ns_pandas, "grid = arr.reshape(4, 4)", "grid = arr.reshape(3, 4)",
     None),
    ("value-counts-plot-missing-column", ns_plots,
     "df['Region'].value_counts().plot(kind='bar')\nplt.close('all')",
     "df['region'].value_counts().plot(kind='bar')\nplt.close('all')", None),
    ("seaborn-missing-column", ns_plots, "sns.countplot(x='Region', data=df)\nplt.close('all')",
     "sns.countplot(x='region', data=df)\nplt.close('all')", None),
    ("plot-length-mismatch", ns_plots, "plt.plot(x, y9)\nplt.close('all')",
     "plt.plot(x, y)\nplt.close('all')", None),
    ("torch-linear-in-features", ns_torch, "out = net(torch.zeros(3, 5))",
     "out = net(torch.zeros(3, 4))", None),
    ("torch-sequential-in-features", ns_torch, "out = mlp(torch.zeros(5, 6))",
     "out = mlp(batch)", None),
    ("torch-float64-input", ns_torch, "out = net(torch.from_numpy(feats64))",
     "out = net(torch.from_numpy(feats64).float())", None),
    ("cross-entropy-float-targets", ns_torch, "loss = loss_fn(logits, targets.float())",
     "loss = loss_fn(logits, targets)", None),
    ("metric-length-mismatch", ns_sklearn, "print(accuracy_score(y_test, preds))",
     "print(accuracy_score(y_test, preds10))", None),
    ("metric-removed-keyword", ns_sklearn,
     "rmse = mean_squared_error(y_test, y_pred, squared=False)",
     "rmse = mean_squared_error(y_test, y_pred) ** 0.5", None),
    ("get-dummies-columns-differ", ns_sklearn,
     "X_test = pd.get_dummies(test)\npred = dummies.predict(X_test)",
     "X_test = pd.get_dummies(test).reindex(columns=dummies.feature_names_in_, fill_value=0)\n"
     "pred = dummies.predict(X_test)", None),
    ("groupby-mean-text-columns", ns_pandas, "summary = df.groupby('region').mean()",
     "summary = df.groupby('region').mean(numeric_only=True)", None),
    ("corr-text-columns", ns_plots, "sns.heatmap(df.corr(), annot=True)\nplt.close('all')",
     "sns.heatmap(df.corr(numeric_only=True), annot=True)\nplt.close('all')", None),
    ("zip-unpack-count", ns_pandas,
     "for name, score, rank in zip(names, scores):\n    print(name, score)",
     "for rank, (name, score) in enumerate(zip(names, scores)):\n    print(name, score)", None),
    ("array-reshape-columns", ns_pandas, "X = np.array(X_list).reshape(-1, 3)",
     "X = np.array(X_list).reshape(-1, 2)", None),
    ("torch-cat-shapes", ns_torch, "both = torch.cat([batch, logits], dim=0)",
     "both = torch.cat([batch, logits], dim=1)", None),
    ("keras-fit-input-shape", ns_keras, "model.fit(X5, y_hot, epochs=1, verbose=0)",
     "model.fit(X4, y_hot, epochs=1, verbose=0)", None),
    ("keras-int-labels-categorical", ns_keras, "model.fit(X4, y_int, epochs=1, verbose=0)",
     "model.fit(X4, y_hot, epochs=1, verbose=0)", None),
]


def _copy(ns: dict) -> dict:
    """A deep copy, sharing modules, classes, functions and Keras models (not copyable)."""
    memo: dict = {}
    for value in ns.values():
        if isinstance(value, (types.ModuleType, type, types.FunctionType)) or \
                type(value).__module__.startswith(("keras", "tensorflow")):
            memo[id(value)] = value
    return copy.deepcopy(ns, memo)


def _runs(source: str, ns: dict) -> BaseException | None:
    """Run the cell for real (on a copy) and return what it raised, if anything."""
    import contextlib
    import io
    import warnings
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            exec(compile(source, "<cell>", "exec"), _copy(ns))
    except Exception as exc:
        return exc
    finally:
        plt.close("all")
    return None


def _param(pair: tuple) -> pytest.param:
    ident, factory, crash, fine, reason = pair
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(factory, crash, id=ident, marks=marks)


@pytest.mark.parametrize(("factory", "source"), [_param(p) for p in PAIRS])
def test_realistic_crash_is_caught(factory, source: str) -> None:
    ns = factory()
    raised = _runs(source, ns)
    assert raised is not None, "ground truth: the crash cell must really raise"
    verdict = predict(source, ns)
    assert verdict.crash is True, verdict.explanation
    assert verdict.exception == type(raised).__name__ or isinstance(
        raised, _exception_class(verdict.exception)), (verdict.exception, repr(raised))


@pytest.mark.parametrize(("factory", "source"),
                         [pytest.param(p[1], p[3], id=p[0]) for p in PAIRS])
def test_realistic_near_miss_is_clean(factory, source: str) -> None:
    ns = factory()
    raised = _runs(source, ns)
    assert raised is None, f"ground truth: the near miss must run, got {raised!r}"
    verdict = predict(source, ns)
    assert verdict.crash is False, verdict.explanation


def _exception_class(name: str | None) -> type:
    import builtins
    found = getattr(builtins, name or "", None)
    return found if isinstance(found, type) and issubclass(found, BaseException) else \
        type("_NoMatch", (Exception,), {})


def _ns_guard() -> dict:
    from sklearn.neighbors import KNeighborsRegressor
    d = ns_sklearn()
    d["KNeighborsRegressor"] = KNeighborsRegressor
    return d


# Guards for the widened rules: close to a caught crash, but these run fine.
GUARDS = [
    ("neighbours regressor averages text labels without converting them",
     "knn = KNeighborsRegressor(n_neighbors=2).fit(X, y_text)"),
    ("three arrays split into six", "a, b, c, d, e, f = train_test_split(X, y, y_class)"),
    ("metric with keyword arguments", "accuracy_score(y_true=y_test, y_pred=preds10)"),
    ("zip over an empty list never unpacks", "for a, b, c in zip([], X):\n    pass"),
]


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in GUARDS])
def test_guard_is_clean(source: str) -> None:
    ns = _ns_guard()
    raised = _runs(source, ns)
    assert raised is None, f"ground truth: the guard must run, got {raised!r}"
    assert predict(source, ns).crash is False
