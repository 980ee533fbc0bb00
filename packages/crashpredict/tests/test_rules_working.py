"""Working code never flagged: typical scikit-learn, pandas, numpy and plotting cells.

The truth of each cell is established by running it (on a copy of the namespace) before the
rule engine is asked; every cell runs, so every verdict must be "no crash". These guard the
propagation layer and the value rules against false alarms on ordinary notebook code.
"""

from __future__ import annotations

import contextlib
import io
import warnings

import matplotlib
import pytest

matplotlib.use("Agg")

from crashpredict._rules import rules_engine  # noqa: E402

SKLEARN_SETUP = """
import numpy as np, pandas as pd
from sklearn.linear_model import LogisticRegression, LinearRegression, Ridge, SGDClassifier
from sklearn.ensemble import RandomForestClassifier, GradientBoostingRegressor, HistGradientBoostingClassifier, RandomForestRegressor
from sklearn.preprocessing import StandardScaler, OneHotEncoder, MinMaxScaler, LabelEncoder, PolynomialFeatures, OrdinalEncoder
from sklearn.decomposition import PCA, TruncatedSVD
from sklearn.compose import ColumnTransformer, make_column_transformer
from sklearn.pipeline import make_pipeline, Pipeline
from sklearn.model_selection import train_test_split, cross_val_score, GridSearchCV, KFold
from sklearn.metrics import *
from sklearn.impute import SimpleImputer, KNNImputer
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.cluster import KMeans
rng = np.random.default_rng(0)
n = 120
df = pd.DataFrame({'a': rng.normal(size=n), 'b': rng.normal(size=n), 'c': rng.choice(['x', 'y', 'z'], n),
                   'yb': rng.integers(0, 2, n), 'ym': rng.integers(0, 3, n), 'yr': rng.normal(size=n),
                   'txt': rng.choice(['good film', 'bad plot', 'great'], n), 'lab': rng.choice(['cat', 'dog'], n)})
df.loc[::11, 'b'] = np.nan
X = df[['a', 'b']].fillna(0).values
Xtr, Xte, ytr, yte = train_test_split(X, df['yb'], random_state=0)
rf = RandomForestClassifier(n_estimators=10, random_state=0).fit(Xtr, ytr)
reg = LinearRegression().fit(X, df['yr'])
sc = StandardScaler().fit(X)
"""

SKLEARN_CELLS = [
"p = rf.predict(Xte)\nprint(accuracy_score(yte, p), f1_score(yte, p), precision_score(yte, p), recall_score(yte, p))",
"proba = rf.predict_proba(Xte)[:, 1]\nprint(roc_auc_score(yte, proba), log_loss(yte, rf.predict_proba(Xte)))",
"print(confusion_matrix(yte, rf.predict(Xte)), classification_report(yte, rf.predict(Xte)))",
"pr = reg.predict(X)\nprint(mean_squared_error(df['yr'], pr), r2_score(df['yr'], pr), mean_absolute_error(df['yr'], pr))",
"rmse = np.sqrt(mean_squared_error(df['yr'], reg.predict(X)))",
"Xs = sc.transform(X)\nm = LogisticRegression().fit(Xs, df['yb'])\nprint(m.score(Xs, df['yb']))",
"Xp = PolynomialFeatures(2).fit_transform(X)\nm = Ridge().fit(Xp, df['yr'])\nm.predict(Xp[:5])",
"ct = make_column_transformer((OneHotEncoder(), ['c']), (SimpleImputer(), ['b']), remainder='passthrough')\nZ = ct.fit_transform(df[['a', 'b', 'c']])\nm = LogisticRegression().fit(Z, df['yb'])\nm.predict(ct.transform(df[['a', 'b', 'c']].head()))",
"pipe = make_pipeline(SimpleImputer(), StandardScaler(), LogisticRegression()).fit(df[['a', 'b']], df['ym'])\nprint(f1_score(df['ym'], pipe.predict(df[['a', 'b']]), average='macro'))",
"hgb = HistGradientBoostingClassifier().fit(df[['a', 'b']], df['yb'])\nhgb.predict(df[['a', 'b']])",
"le = LabelEncoder()\ndf['lab_code'] = le.fit_transform(df['lab'])\nle.inverse_transform(df['lab_code'][:3])",
"tf = TfidfVectorizer()\nT = tf.fit_transform(df['txt'])\nm = LogisticRegression().fit(T, df['yb'])\nm.predict(tf.transform(['good plot']))",
"km = KMeans(n_clusters=3, n_init=3, random_state=0).fit(X)\ndf['cl'] = km.labels_\nkm.predict(X[:4])",
"scores = cross_val_score(LogisticRegression(), X, df['yb'], cv=3)\nscores.mean()",
"gs = GridSearchCV(DecisionTreeClassifier(), {'max_depth': [2, 3]}, cv=3).fit(X, df['yb'])\ngs.best_estimator_.predict(X[:3])",
"Z = PCA(n_components=2).fit_transform(X)\nplt_x, plt_y = Z[:, 0], Z[:, 1]\nlen(plt_x) == len(plt_y)",
"kn = KNeighborsClassifier(3).fit(Xtr, ytr)\nbalanced_accuracy_score(yte, kn.predict(Xte))",
"svr = SVR().fit(X, df['yr'])\nexplained_variance_score(df['yr'], svr.predict(X))",
"dt = DecisionTreeRegressor(max_depth=3).fit(X, df['yb'])\naccuracy_score(df['yb'], dt.predict(X).round())",
"sgd = SGDClassifier(random_state=0).fit(X, df['ym'])\nprint(precision_score(df['ym'], sgd.predict(X), average='weighted', zero_division=0))",
"oe = OrdinalEncoder().fit(df[['c']])\ncodes = oe.transform(df[['c']])\nm = LinearRegression().fit(np.hstack([codes, X]), df['yr'])\nm.predict(np.hstack([codes, X])[:2])",
"kni = KNNImputer().fit_transform(df[['a', 'b']])\nLinearRegression().fit(kni, df['yr']).coef_",
"y_pred = (reg.predict(X) > 0).astype(int)\nprint(accuracy_score(df['yb'], y_pred))",
"m = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, df['yr'])\nimp = pd.Series(m.feature_importances_, index=['a', 'b'])\nimp.sort_values()",
"Xd = pd.get_dummies(df[['a', 'c']], columns=['c'])\nm = LogisticRegression().fit(Xd, df['yb'])\nm.predict(pd.get_dummies(df[['a', 'c']].head(30), columns=['c']))",
"X2 = df[['a', 'b']].copy()\nX2['b'] = X2['b'].fillna(X2['b'].mean())\nLogisticRegression().fit(X2, df['yb']).predict_proba(X2)[:3]",
"probs = LogisticRegression().fit(X, df['ym']).predict_proba(X)\nroc_auc_score(df['ym'], probs, multi_class='ovr')",
"preds = np.where(rf.predict_proba(Xte)[:, 1] > 0.3, 1, 0)\nprint(confusion_matrix(yte, preds))",
"X_tr, X_te, y_tr, y_te = train_test_split(df[['a', 'c']], df['lab'], test_size=0.3, random_state=1)\npre = ColumnTransformer([('oh', OneHotEncoder(handle_unknown='ignore'), ['c'])], remainder='passthrough')\nclf = Pipeline([('pre', pre), ('m', LogisticRegression())]).fit(X_tr, y_tr)\nprint(accuracy_score(y_te, clf.predict(X_te)), f1_score(y_te, clf.predict(X_te), pos_label='dog'))",
]

FRAME_SETUP = """
import numpy as np, pandas as pd
import matplotlib.pyplot as plt, seaborn as sns
rng = np.random.default_rng(0)
n = 50
df = pd.DataFrame({'date': pd.date_range('2024-01-01', periods=n).astype(str), 'cat': rng.choice(['a', 'b'], n),
                   'v': rng.normal(size=n), 'k': rng.integers(0, 5, n), 's': rng.choice(['1', '2', 'x'], n)})
df.loc[::7, 'v'] = np.nan
arr = rng.normal(size=(n, 3))
"""

FRAME_CELLS = [
"df['date'] = pd.to_datetime(df['date'])\ndf['month'] = df['date'].dt.month\ndf.groupby('month')['v'].mean()",
"df['v'] = df['v'].fillna(df['v'].median())\ndf['v'].astype(int).value_counts()",
"df['s_num'] = pd.to_numeric(df['s'], errors='coerce')\ndf['s_num'].fillna(0).astype(int).sum()",
"pivot = df.pivot_table(index='cat', columns='k', values='v', aggfunc='mean')\npivot.loc['a']",
"m = df.merge(df.groupby('cat', as_index=False)['v'].mean(), on='cat', suffixes=('', '_mean'))\nm['v_mean'].head()",
"df['ratio'] = df['v'] / df['k']\ndf.replace([np.inf, -np.inf], np.nan).dropna()['ratio'].max()",
"top = df.sort_values('v', ascending=False).head(3)\ntop.iloc[2]['cat']",
"df2 = df.set_index('date')\ndf2.loc[df2.index[0], 'v']",
"enc = pd.get_dummies(df, columns=['cat'], drop_first=True)\nenc['cat_b'].sum()",
"df['bin'] = pd.cut(df['k'], bins=[-1, 1, 3, 5], labels=['low', 'mid', 'high'])\ndf['bin'].value_counts()",
"counts = df['cat'].value_counts()\nplt.bar(counts.index, counts.values)\nplt.close('all')",
"fig, ax = plt.subplots(1, 2, figsize=(8, 3))\nax[0].hist(df['v'].dropna())\nax[1].scatter(df['k'], df['v'])\nplt.close('all')",
"sns.boxplot(x='cat', y='v', data=df)\nplt.close('all')",
"sns.histplot(df['v'].dropna(), kde=True)\nplt.close('all')",
"sns.lineplot(x=np.arange(n), y=df['v'].values)\nplt.close('all')",
"corr = df[['v', 'k']].corr()\nsns.heatmap(corr, annot=True)\nplt.close('all')",
"Z = (arr - arr.mean(axis=0)) / arr.std(axis=0)\ncov = Z.T @ Z / (len(Z) - 1)\nvals, vecs = np.linalg.eigh(cov)\nproj = Z @ vecs[:, -2:]\nproj.shape",
"w = np.random.randn(3)\nscores = arr @ w\nidx = np.argsort(scores)[::-1][:5]\narr[idx]",
"noise = np.random.normal(0, 0.1, arr.shape)\nnoisy = arr + noise\nnp.clip(noisy, -1, 1).mean(axis=1)",
"onehot = np.eye(5)[df['k'].values]\nonehot.sum(axis=0)",
"a = np.random.rand(10, 1)\nb = np.random.rand(10)\n(a * b).shape",
"m = np.random.rand(4, 4)\nm[np.triu_indices(4, 1)] = 0\nm @ np.ones(4)",
"x = np.linspace(0, 10, 100)\ny = np.sin(x)\nplt.plot(x, y, label='sin')\nplt.fill_between(x, y - 0.1, y + 0.1)\nplt.legend()\nplt.close('all')",
"imgs = np.random.rand(6, 8, 8)\nfig, axes = plt.subplots(2, 3)\nfor img, ax in zip(imgs, axes.ravel()):\n    ax.imshow(img)\nplt.close('all')",
"df.loc[df['k'] > 2, 'flag'] = 1\ndf['flag'] = df['flag'].fillna(0)\ndf['flag'].sum()",
"g = df.groupby(['cat', 'k']).agg(mean_v=('v', 'mean'), n=('v', 'size')).reset_index()\ng[g['n'] > 1]",
"s = df['s'].map({'1': 1, '2': 2}).fillna(-1).astype(int)\ns.unique()",
"df['cat'].str.upper().str.cat(sep=',')[:10]",
"wide = df.pivot_table(index='k', columns='cat', values='v')\nwide.plot(kind='bar')\nplt.close('all')",
"res = pd.concat([df.head(3), df.tail(3)], ignore_index=True)\nres.iloc[5]",
"labels = ['a', 'b', 'c']\nvals = np.random.rand(3)\nplt.pie(vals, labels=labels)\nplt.close('all')",
"fig = plt.figure()\nax = fig.add_subplot(111)\nax.plot(range(5), np.random.rand(5))\nplt.close('all')",
"cum = np.cumsum(np.random.rand(20))\nplt.step(range(20), cum)\nplt.xticks(range(0, 20, 5), ['a', 'b', 'c', 'd'])\nplt.close('all')",
]


def _namespace(setup: str) -> dict:
    ns: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(setup, "<setup>", "exec"), ns)
    return ns


@pytest.fixture(scope="module")
def sklearn_ns() -> dict:
    return _namespace(SKLEARN_SETUP)


@pytest.fixture(scope="module")
def frame_ns() -> dict:
    return _namespace(FRAME_SETUP)


def _fresh(ns: dict) -> dict:
    return {**ns, "df": ns["df"].copy()}


def _check(source: str, ns: dict) -> None:
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        exec(compile(source, "<cell>", "exec"), _fresh(ns))  # the truth: it runs
        plt = __import__("matplotlib.pyplot").pyplot
        plt.close("all")
        verdict = rules_engine(source, _fresh(ns))
    assert verdict.crash is False, verdict.explanation


@pytest.mark.parametrize("source", SKLEARN_CELLS)
def test_working_sklearn_cell_is_not_flagged(sklearn_ns: dict, source: str) -> None:
    _check(source, sklearn_ns)


@pytest.mark.parametrize("source", FRAME_CELLS)
def test_working_pandas_numpy_plot_cell_is_not_flagged(frame_ns: dict, source: str) -> None:
    _check(source, frame_ns)
