"""Drift entries the libraries' sources cannot say by themselves, from their release notes.

Each is checked by ``mine_drift.py`` like a mined one: its "before" must fail today with the
error it names, its "after" must run. Templates (``{0}`` the first positional argument,
``{rest}`` the arguments not used by name, ``{args}`` all of them, ``{self}`` the receiver
of a method, ``{alias:module}`` the name the notebook binds to ``module``) say how a call is
rewritten when a name became a method or a different call.
"""

from __future__ import annotations

CURATED: list[dict] = []

PD = "import pandas as pd\nimport numpy as np\ns = pd.Series([1.0, 2.0, 3.0, 4.0])\n" \
     "df = pd.DataFrame({'a': [1.0, 2.0, 3.0], 'b': [4.0, 5.0, 6.0]}, index=['x', 'y', 'z'])\n"
SK = "import numpy as np\nX = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.5]] * 5)\n" \
     "y = np.array([0, 1, 0, 1] * 5)\nyr = X[:, 0] * 2.0\n"
MPL = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n" \
      "fig, ax = plt.subplots()\n"


def add(id: str, library: str, kind: str, old: str, *, setup: str, before: str, after: str,
        error: str, source: str, match: str | None = None, check: str = "run",
        **fields) -> None:
    """One entry; ``check`` "run" when before/after are real code the rewrite must fix,
    "signature" when they only probe the API."""
    CURATED.append({"id": id, "library": library, "kind": kind, "old": old, **fields,
                    "source": f"curated: {source}",
                    "test": {"setup": setup, "before": before, "error": error,
                             "match": match, "after": after, "check": check}})


# -- pandas --------------------------------------------------------------------------------
NOTES_023 = "pandas 0.23 release notes (the module-level moment functions, deprecated in 0.18, are removed)"
for stat in ("mean", "std", "sum", "min", "max", "median", "var", "count", "skew", "kurt", "apply",
             "quantile", "corr", "cov"):
    args = "2" if stat not in ("apply", "quantile", "corr", "cov") else "2"
    extra = {"apply": ", np.sum", "quantile": ", 0.5", "corr": "", "cov": ""}.get(stat, "")
    if stat in ("corr", "cov"):
        add(f"pandas:rolling_{stat}", "pandas", "function-to-method", f"pandas.rolling_{stat}",
            template=f"{{0}}.rolling({{rest}}).{stat}({{1}})", positional=[0, 1],
            setup=PD, before=f"pd.rolling_{stat}(s, s, 2)", error="AttributeError",
            after=f"r = s.rolling(2).{stat}(s)", source=NOTES_023)
        continue
    add(f"pandas:rolling_{stat}", "pandas", "function-to-method", f"pandas.rolling_{stat}",
        template=f"{{0}}.rolling({{rest}}).{stat}({'{2}' if extra else ''})",
        positional=[0, 2] if extra else [0],
        setup=PD, before=f"pd.rolling_{stat}(s, {args}{extra})", error="AttributeError",
        after=f"r = s.rolling({args}).{stat}({extra.lstrip(', ')})", source=NOTES_023)
    if stat in ("mean", "std", "sum", "min", "max", "median", "var", "count"):
        add(f"pandas:expanding_{stat}", "pandas", "function-to-method", f"pandas.expanding_{stat}",
            template=f"{{0}}.expanding({{rest}}).{stat}()", positional=[0],
            setup=PD, before=f"pd.expanding_{stat}(s)", error="AttributeError",
            after=f"r = s.expanding().{stat}()", source=NOTES_023)
for old, stat in (("ewma", "mean"), ("ewmstd", "std"), ("ewmvar", "var")):
    add(f"pandas:{old}", "pandas", "function-to-method", f"pandas.{old}",
        template=f"{{0}}.ewm({{rest}}).{stat}()", positional=[0],
        setup=PD, before=f"pd.{old}(s, span=2)", error="AttributeError",
        after=f"r = s.ewm(span=2).{stat}()", source=NOTES_023)
add("pandas:ewmcorr", "pandas", "function-to-method", "pandas.ewmcorr",
    template="{0}.ewm({rest}).corr({1})", positional=[0, 1], setup=PD,
    before="pd.ewmcorr(s, s, span=2)", error="AttributeError", after="r = s.ewm(span=2).corr(s)",
    source=NOTES_023)

REMOVED_1 = "pandas 1.0 release notes, removal of prior version deprecations"
REMOVED_2 = "pandas 2.0 release notes, removal of prior version deprecations"
for owner in ("DataFrame", "Series"):
    var = "df" if owner == "DataFrame" else "s"
    add(f"pandas:{owner}.ix", "pandas", "method-renamed", f"pandas.{owner}.ix", new="loc",
        owners=[owner], setup=PD, before=f"{var}.ix", error="AttributeError",
        after=f"{var}.loc", source=REMOVED_1 + " (.ix; .loc for labels, .iloc for positions)")
    add(f"pandas:{owner}.as_matrix", "pandas", "method-renamed", f"pandas.{owner}.as_matrix",
        template="{self}.to_numpy()", owners=[owner], setup=PD, before=f"{var}.as_matrix()",
        error="AttributeError", after=f"{var}.to_numpy()", source=REMOVED_1)
    add(f"pandas:{owner}.get_values", "pandas", "method-renamed", f"pandas.{owner}.get_values",
        template="{self}.to_numpy()", owners=[owner], setup=PD, before=f"{var}.get_values()",
        error="AttributeError", after=f"{var}.to_numpy()", source=REMOVED_1)
    add(f"pandas:{owner}.get_value", "pandas", "method-renamed", f"pandas.{owner}.get_value",
        template="{self}.at[{args}]", owners=[owner], setup=PD,
        before=f"{var}.get_value('x', 'a')" if owner == "DataFrame" else "s.get_value(0)",
        error="AttributeError",
        after="df.at['x', 'a']" if owner == "DataFrame" else "s.at[0]", source=REMOVED_1)
    add(f"pandas:{owner}.convert_objects", "pandas", "method-renamed",
        f"pandas.{owner}.convert_objects", template="{self}.infer_objects()", owners=[owner],
        setup=PD, before=f"{var}.convert_objects()", error="AttributeError",
        after=f"{var}.infer_objects()", source="pandas 0.21 release notes (infer_objects)")
    add(f"pandas:{owner}.mad", "pandas", "method-renamed", f"pandas.{owner}.mad",
        template="({self} - {self}.mean()).abs().mean()", owners=[owner], setup=PD,
        before=f"{var}.mad()", error="AttributeError", after=f"({var} - {var}.mean()).abs().mean()",
        source=REMOVED_2 + " (DataFrame.mad, Series.mad)")
add("pandas:Series.valid", "pandas", "method-renamed", "pandas.Series.valid",
    template="{self}.dropna({args})", owners=["Series"], setup=PD, before="s.valid()",
    error="AttributeError", after="s.dropna()", source=REMOVED_1 + " (Series.valid)")
add("pandas:Series.order", "pandas", "method-renamed", "pandas.Series.order",
    template="{self}.sort_values({args})", owners=["Series"], setup=PD, before="s.order()",
    error="AttributeError", after="s.sort_values()", source="pandas 0.20 release notes")
add("pandas:DataFrame.sort", "pandas", "method-renamed", "pandas.DataFrame.sort",
    template="{self}.sort_values({args})", keywords={"columns": "by"}, owners=["DataFrame"],
    setup=PD, before="df.sort(columns='a')", error="AttributeError",
    after="df.sort_values(by='a')", source="pandas 0.20 release notes (sort -> sort_values)")
add("pandas:DataFrame.lookup", "pandas", "method-renamed", "pandas.DataFrame.lookup",
    template="{self}.to_numpy()[{self}.index.get_indexer({0}), {self}.columns.get_indexer({1})]",
    owners=["DataFrame"], setup=PD, before="df.lookup(['x', 'z'], ['a', 'b'])",
    error="AttributeError",
    after="v = df.to_numpy()[df.index.get_indexer(['x', 'z']), df.columns.get_indexer(['a', 'b'])]\n"
          "assert list(v) == [1.0, 6.0]",
    source=REMOVED_2 + " (DataFrame.lookup; its 1.2 deprecation note: use factorize and NumPy indexing)")
add("pandas:DataFrame.get_dtype_counts", "pandas", "method-renamed",
    "pandas.DataFrame.get_dtype_counts", template="{self}.dtypes.value_counts()",
    owners=["DataFrame"], setup=PD, before="df.get_dtype_counts()", error="AttributeError",
    after="df.dtypes.value_counts()", source=REMOVED_1)
add("pandas:Series.nonzero", "pandas", "method-renamed", "pandas.Series.nonzero",
    template="{self}.to_numpy().nonzero()", owners=["Series"], setup=PD, before="s.nonzero()",
    error="AttributeError", after="s.to_numpy().nonzero()", source=REMOVED_1)
add("pandas:Series.ptp", "pandas", "method-renamed", "pandas.Series.ptp",
    template="({self}.max() - {self}.min())", owners=["Series"], setup=PD, before="s.ptp()",
    error="AttributeError", after="s.max() - s.min()", source=REMOVED_1)
add("pandas:DataFrame.from_items", "pandas", "function-to-method", "pandas.DataFrame.from_items",
    template="{alias:pandas}.DataFrame(dict({0}))", positional=[0], setup=PD,
    before="pd.DataFrame.from_items([('a', [1, 2])])", error="AttributeError",
    after="pd.DataFrame(dict([('a', [1, 2])]))", source=REMOVED_1)
for old in ("Int64Index", "UInt64Index", "Float64Index"):
    add(f"pandas:{old}", "pandas", "name-renamed", f"pandas.{old}", new="pandas.Index",
        setup=PD, before=f"pd.{old}([1, 2])", error="AttributeError", after="pd.Index([1, 2])",
        source=REMOVED_2)
add("pandas:scatter_matrix", "pandas", "name-moved", "pandas.scatter_matrix",
    new="pandas.plotting.scatter_matrix", setup=PD, before="pd.scatter_matrix",
    error="AttributeError", after="pd.plotting.scatter_matrix",
    source="pandas 0.20 release notes (plotting functions moved to pandas.plotting)")
add("pandas:tools.plotting", "pandas", "module-moved", "pandas.tools.plotting",
    new="pandas.plotting", setup="", before="from pandas.tools.plotting import scatter_matrix",
    error="ImportError", after="from pandas.plotting import scatter_matrix",
    source="pandas 0.20 release notes")
add("pandas:util.testing", "pandas", "module-moved", "pandas.util.testing", new="pandas.testing",
    setup="", before="import pandas.util.testing as tm", error="ImportError",
    after="import pandas.testing as tm", source=REMOVED_2)
add("pandas:io.json.json_normalize", "pandas", "name-moved", "pandas.io.json.json_normalize",
    new="pandas.json_normalize", setup="",
    before="from pandas.io.json import json_normalize", error="ImportError",
    after="from pandas import json_normalize", source=REMOVED_2)
add("pandas:Series.between(inclusive=True)", "pandas", "value-renamed", "pandas.Series.between",
    method=True, keyword="inclusive", value="True", new="'both'", setup=PD,
    before="s.between(1, 2, inclusive=True)", error="ValueError", after="s.between(1, 2, inclusive='both')",
    source="pandas 1.3 deprecation of boolean inclusive, removed in 2.0")
add("pandas:Series.between(inclusive=False)", "pandas", "value-renamed", "pandas.Series.between",
    method=True, keyword="inclusive", value="False", new="'neither'", setup=PD,
    before="s.between(1, 2, inclusive=False)", error="ValueError",
    after="s.between(1, 2, inclusive='neither')", source="pandas 1.3 deprecation, removed in 2.0")

# -- scikit-learn -------------------------------------------------------------------------
SKL = "scikit-learn release notes"
for old in ("cross_validation", "grid_search", "learning_curve"):
    add(f"scikit-learn:{old}", "scikit-learn", "module-moved", f"sklearn.{old}",
        new="sklearn.model_selection", setup="", before=f"import sklearn.{old}",
        error="ImportError", after="import sklearn.model_selection",
        source=f"{SKL} 0.18 (model_selection), module removed in 0.20")
add("scikit-learn:externals.joblib", "scikit-learn", "module-moved", "sklearn.externals.joblib",
    new="joblib", setup="", before="from sklearn.externals import joblib", error="ImportError",
    after="import joblib", source=f"{SKL} 0.23 (vendored joblib removed)")
add("scikit-learn:externals.six", "scikit-learn", "module-moved", "sklearn.externals.six",
    new="six", setup="", before="from sklearn.externals import six", error="ImportError",
    after="import six", source=f"{SKL} 0.23 (vendored six removed)")
add("scikit-learn:preprocessing.Imputer", "scikit-learn", "name-moved", "sklearn.preprocessing.Imputer",
    new="sklearn.impute.SimpleImputer", setup="",
    before="from sklearn.preprocessing import Imputer", error="ImportError",
    after="from sklearn.impute import SimpleImputer\nSimpleImputer(strategy='mean')",
    source=f"{SKL} 0.20 (sklearn.impute), Imputer removed in 0.22")
add("scikit-learn:SimpleImputer(axis=)", "scikit-learn", "keyword-removed", "sklearn.impute.SimpleImputer",
    keyword="axis", new=None, setup="from sklearn.impute import SimpleImputer\n",
    before="SimpleImputer(axis=0)", error="TypeError", match="axis",
    after="SimpleImputer()", source=f"{SKL} 0.20: SimpleImputer has no axis (columns only)")
add("scikit-learn:metrics.jaccard_similarity_score", "scikit-learn", "name-renamed",
    "sklearn.metrics.jaccard_similarity_score", new="sklearn.metrics.jaccard_score", setup="",
    before="from sklearn.metrics import jaccard_similarity_score", error="ImportError",
    after="from sklearn.metrics import jaccard_score\njaccard_score([0, 1], [0, 1])",
    source=f"{SKL} 0.21 (jaccard_score), removed in 0.23")
for old, display in (("plot_confusion_matrix", "ConfusionMatrixDisplay"),
                     ("plot_roc_curve", "RocCurveDisplay"),
                     ("plot_precision_recall_curve", "PrecisionRecallDisplay")):
    add(f"scikit-learn:metrics.{old}", "scikit-learn", "function-to-method", f"sklearn.metrics.{old}",
        template=f"{{alias:sklearn.metrics.{display}}}.from_estimator({{args}})",
        setup="import matplotlib\nmatplotlib.use('Agg')\n" + SK +
              "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression().fit(X, y)\n",
        before=f"from sklearn.metrics import {old}", error="ImportError",
        after=f"from sklearn.metrics import {display}\n{display}.from_estimator(m, X, y)",
        source=f"{SKL} 1.0 (Display.from_estimator), {old} removed in 1.2")
add("scikit-learn:neighbors.DistanceMetric", "scikit-learn", "name-moved",
    "sklearn.neighbors.DistanceMetric", new="sklearn.metrics.DistanceMetric", setup="",
    before="from sklearn.neighbors import DistanceMetric", error="ImportError",
    after="from sklearn.metrics import DistanceMetric\nDistanceMetric.get_metric('euclidean')",
    source=f"{SKL} 1.0 (moved), removed from neighbors in 1.3")
add("scikit-learn:ensemble.partial_dependence", "scikit-learn", "module-moved",
    "sklearn.ensemble.partial_dependence", new="sklearn.inspection", setup="",
    before="from sklearn.ensemble.partial_dependence import partial_dependence",
    error="ImportError", after="from sklearn.inspection import partial_dependence",
    source=f"{SKL} 0.21 (sklearn.inspection), removed in 0.23")
add("scikit-learn:datasets.samples_generator", "scikit-learn", "module-moved",
    "sklearn.datasets.samples_generator", new="sklearn.datasets", setup="",
    before="from sklearn.datasets.samples_generator import make_blobs", error="ImportError",
    after="from sklearn.datasets import make_blobs", source=f"{SKL} 0.22 (private modules), removed in 0.24")
for module in ("base", "samples_generator", "california_housing", "openml", "twenty_newsgroups"):
    pass
for cls, module, kw, value, new, fit in (
        ("DecisionTreeRegressor", "tree", "criterion", "'mse'", "'squared_error'", "yr"),
        ("DecisionTreeRegressor", "tree", "criterion", "'mae'", "'absolute_error'", "yr"),
        ("RandomForestRegressor", "ensemble", "criterion", "'mse'", "'squared_error'", "yr"),
        ("RandomForestRegressor", "ensemble", "criterion", "'mae'", "'absolute_error'", "yr"),
        ("ExtraTreesRegressor", "ensemble", "criterion", "'mse'", "'squared_error'", "yr"),
        ("GradientBoostingRegressor", "ensemble", "criterion", "'mse'", "'squared_error'", "yr"),
        ("GradientBoostingRegressor", "ensemble", "loss", "'ls'", "'squared_error'", "yr"),
        ("GradientBoostingRegressor", "ensemble", "loss", "'lad'", "'absolute_error'", "yr"),
        ("GradientBoostingClassifier", "ensemble", "loss", "'deviance'", "'log_loss'", "y"),
        ("SGDClassifier", "linear_model", "loss", "'log'", "'log_loss'", "y"),
        ("RandomForestClassifier", "ensemble", "max_features", "'auto'", "'sqrt'", "y"),
        ("ExtraTreesClassifier", "ensemble", "max_features", "'auto'", "'sqrt'", "y"),
        ("DecisionTreeClassifier", "tree", "max_features", "'auto'", "'sqrt'", "y"),
        ("RandomForestRegressor", "ensemble", "max_features", "'auto'", "1.0", "yr"),
        ("ExtraTreesRegressor", "ensemble", "max_features", "'auto'", "1.0", "yr"),
        ("LogisticRegression", "linear_model", "penalty", "'none'", "None", "y"),
        ("KMeans", "cluster", "algorithm", "'full'", "'lloyd'", None),
        ("KMeans", "cluster", "algorithm", "'auto'", "'lloyd'", None),
        ("HistGradientBoostingRegressor", "ensemble", "loss", "'least_squares'", "'squared_error'", "yr"),
        ("HistGradientBoostingClassifier", "ensemble", "loss", "'binary_crossentropy'", "'log_loss'", "y"),
        ("HistGradientBoostingClassifier", "ensemble", "loss", "'auto'", "'log_loss'", "y")):
    call = f"{cls}({kw}={{}}).fit(X{', ' + fit if fit else ''})"
    add(f"scikit-learn:{cls}({kw}={value})", "scikit-learn", "value-renamed",
        f"sklearn.{module}.{cls}", keyword=kw, value=value, new=new,
        setup=SK + f"from sklearn.{module} import {cls}\n",
        before=call.format(value), error="ValueError", after=call.format(new),
        source=f"{SKL}: {kw}={value} deprecated in 1.0-1.1, removed in 1.2-1.3; {new} is its name today")
add("scikit-learn:AgglomerativeClustering(affinity=)", "scikit-learn", "keyword-renamed",
    "sklearn.cluster.AgglomerativeClustering", keyword="affinity", new="metric",
    setup=SK + "from sklearn.cluster import AgglomerativeClustering\n",
    before="AgglomerativeClustering(affinity='euclidean').fit(X)", error="TypeError", match="affinity",
    after="AgglomerativeClustering(metric='euclidean').fit(X)", source=f"{SKL} 1.2, removed in 1.4")

# -- numpy -----------------------------------------------------------------------------------
NP = "import numpy as np\na = np.array([[1.0, 2.0], [3.0, 0.5]])\n"
add("numpy:rank", "numpy", "name-renamed", "numpy.rank", new="numpy.ndim", setup=NP,
    before="np.rank(a)", error="AttributeError", after="assert np.ndim(a) == 2",
    source="numpy 1.10 deprecation, removed in 1.18")
add("numpy:asscalar", "numpy", "function-to-method", "numpy.asscalar", template="{0}.item()",
    positional=[0], setup=NP, before="np.asscalar(np.array([1.5]))", error="AttributeError",
    after="assert np.array([1.5]).item() == 1.5", source="numpy 1.16 deprecation, removed in 1.23")
add("numpy:alen", "numpy", "function-to-method", "numpy.alen", template="len({0})",
    positional=[0], setup=NP, before="np.alen(a)", error="AttributeError", after="assert len(a) == 2",
    source="numpy 1.18 deprecation, removed in 1.23")
add("numpy:msort", "numpy", "function-to-method", "numpy.msort",
    template="{alias:numpy}.sort({0}, axis=0)", positional=[0], setup=NP, before="np.msort(a)",
    error="AttributeError", after="np.sort(a, axis=0)", source="numpy 1.24 deprecation, removed in 2.0")
add("numpy:math", "numpy", "module-moved", "numpy.math", new="math", setup=NP,
    before="np.math.factorial(3)", error="AttributeError", after="import math\nmath.factorial(3)",
    source="numpy 1.25 deprecation of the math alias, removed in 2.0")

# -- matplotlib ------------------------------------------------------------------------------
MPLN = "matplotlib release notes"
for target, var in (("matplotlib.axes.Axes.hist", "ax.hist"), ("matplotlib.pyplot.hist", "plt.hist")):
    add(f"matplotlib:{target.removeprefix('matplotlib.')}(normed=)", "matplotlib", "keyword-renamed",
        target, keyword="normed", new="density", method=target.startswith("matplotlib.axes"),
        setup=MPL, before=f"{var}([1, 2, 2, 3], normed=True)", error="AttributeError",
        match="normed", after=f"{var}([1, 2, 2, 3], density=True)",
        source=f"{MPLN} 2.1 (density), normed removed in 3.1")
add("matplotlib:Figure.add_subplot(axisbg=)", "matplotlib", "keyword-renamed",
    "matplotlib.figure.Figure.add_subplot", keyword="axisbg", new="facecolor", method=True,
    setup=MPL, before="fig.add_subplot(111, axisbg='w')", error="AttributeError", match="axisbg",
    after="fig.add_subplot(111, facecolor='w')", source=f"{MPLN} 2.0, axisbg removed in 2.2")
add("matplotlib:pyplot.subplot(axisbg=)", "matplotlib", "keyword-renamed",
    "matplotlib.pyplot.subplot", keyword="axisbg", new="facecolor",
    setup=MPL, before="plt.subplot(111, axisbg='w')", error="AttributeError", match="axisbg",
    after="plt.subplot(111, facecolor='w')", source=f"{MPLN} 2.0, axisbg removed in 2.2")
add("matplotlib:Axes.set_axis_bgcolor", "matplotlib", "method-renamed",
    "matplotlib.axes.Axes.set_axis_bgcolor", new="set_facecolor", owners=["Axes"],
    setup=MPL, before="ax.set_axis_bgcolor('w')", error="AttributeError",
    after="ax.set_facecolor('w')", source=f"{MPLN} 2.0, removed in 2.2")
add("matplotlib:Axes.set_color_cycle", "matplotlib", "method-renamed",
    "matplotlib.axes.Axes.set_color_cycle", template="{self}.set_prop_cycle(color={0})",
    owners=["Axes"], setup=MPL, before="ax.set_color_cycle(['r', 'g'])", error="AttributeError",
    after="ax.set_prop_cycle(color=['r', 'g'])", source=f"{MPLN} 1.5 (prop_cycle), removed in 2.0")
for old in ("matplotlib.cm.get_cmap", "matplotlib.pyplot.cm.get_cmap"):
    add(f"matplotlib:{old.removeprefix('matplotlib.')}", "matplotlib", "function-to-method", old,
        template="{alias:matplotlib.pyplot}.get_cmap({args})", setup=MPL + "import matplotlib.cm as cm\n",
        before=old.replace("matplotlib.pyplot", "plt").replace("matplotlib.cm", "cm") + "('viridis')",
        error="AttributeError", after="plt.get_cmap('viridis')",
        source=f"{MPLN} 3.7 deprecation of cm.get_cmap, removed in 3.9")
add("matplotlib:Axes.grid(b=)", "matplotlib", "keyword-renamed", "matplotlib.axes.Axes.grid",
    keyword="b", new="visible", method=True, setup=MPL, before="ax.grid(b=True)", error="ValueError",
    match="grid_b", after="ax.grid(visible=True)", source=f"{MPLN} 3.5 rename, removed in 3.7")
add("matplotlib:pyplot.grid(b=)", "matplotlib", "keyword-renamed", "matplotlib.pyplot.grid",
    keyword="b", new="visible", setup=MPL, before="plt.grid(b=True)", error="ValueError",
    match="grid_b", after="plt.grid(visible=True)", source=f"{MPLN} 3.5 rename, removed in 3.7")
for target, var in (("matplotlib.axes.Axes.boxplot", "ax.boxplot"),
                    ("matplotlib.pyplot.boxplot", "plt.boxplot")):
    add(f"matplotlib:{target.removeprefix('matplotlib.')}(labels=)", "matplotlib",
        "keyword-renamed", target, keyword="labels", new="tick_labels",
        method=target.startswith("matplotlib.axes"), setup=MPL,
        before=f"{var}([[1, 2, 3], [2, 3, 4]], labels=['a', 'b'])", error="TypeError",
        match="labels", after=f"{var}([[1, 2, 3], [2, 3, 4]], tick_labels=['a', 'b'])",
        source=f"{MPLN} 3.9 renamed labels to tick_labels (removed in 3.11)")
add("matplotlib:mlab.normpdf", "matplotlib", "function-to-method", "matplotlib.mlab.normpdf",
    template="{alias:scipy.stats}.norm.pdf({0}, {1}, {2})", positional=[0, 1, 2],
    setup=MPL + "import matplotlib.mlab as mlab\n", before="mlab.normpdf(0.0, 0.0, 1.0)",
    error="AttributeError", after="import scipy.stats\nscipy.stats.norm.pdf(0.0, 0.0, 1.0)",
    source=f"{MPLN} 2.2 deprecation, removed in 3.1")
add("matplotlib:mpl_toolkits.axes_grid", "matplotlib", "module-moved", "mpl_toolkits.axes_grid",
    new="mpl_toolkits.axes_grid1", setup="", before="import mpl_toolkits.axes_grid",
    error="ImportError", after="import mpl_toolkits.axes_grid1", source=f"{MPLN} 3.6 removal")

# -- seaborn ---------------------------------------------------------------------------------
SNS = "import matplotlib\nmatplotlib.use('Agg')\nimport seaborn as sns\nimport pandas as pd\n" \
      "d = pd.DataFrame({'x': ['a', 'b', 'a'], 'v': [1.0, 2.0, 3.0]})\n"
add("seaborn:lvplot", "seaborn", "name-renamed", "seaborn.lvplot", new="seaborn.boxenplot",
    setup=SNS, before="sns.lvplot(x='x', y='v', data=d)", error="AttributeError",
    after="sns.boxenplot(x='x', y='v', data=d)", source="seaborn 0.9 rename, removed in 0.12")
add("seaborn:factorplot", "seaborn", "function-to-method", "seaborn.factorplot",
    template="{alias:seaborn}.catplot({args}, kind='point')", setup=SNS,
    before="sns.factorplot(x='x', y='v', data=d)", error="AttributeError",
    after="sns.catplot(x='x', y='v', data=d, kind='point')", source="seaborn 0.9, removed in 0.12")

# -- Keras / TensorFlow ------------------------------------------------------------------------
KERAS = "import os\nos.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')\nimport keras\n" \
        "from keras import layers\n"
KN = "Keras 2 and 3 release notes"
for cls, old, new, call in (("Dense", "output_dim", "units", "{}=4"),
                            ("Dense", "init", "kernel_initializer", "4, {}='glorot_uniform'"),
                            ("Conv2D", "border_mode", "padding", "2, 3, {}='same'"),
                            ("Conv2D", "subsample", "strides", "2, 3, {}=(1, 1)"),
                            ("MaxPooling2D", "border_mode", "padding", "{}='same'"),
                            ("Dropout", "p", "rate", "{}=0.5"),
                            ("Dense", "W_regularizer", "kernel_regularizer", "4, {}=None")):
    add(f"keras:layers.{cls}({old}=)", "keras", "keyword-renamed" if new else "keyword-removed",
        f"keras.layers.{cls}", keyword=old, new=new, setup=KERAS,
        before=f"layers.{cls}({call.format(old)})", error="TypeError" if (cls, old) in {("Dropout", "p"), ("Dense", "output_dim")} else "ValueError",
        match=old if old != "output_dim" else "units", after=f"layers.{cls}({call.format(new)})" if new else
        f"layers.{cls}({call.format(old).rsplit(', ', 1)[0]})",
        source=f"{KN} (Keras 2 argument names; Keras 3 refuses the old ones)")
add("keras:Model.fit(nb_epoch=)", "keras", "keyword-renamed", "keras.Model.fit", keyword="nb_epoch",
    new="epochs", method=True, setup=KERAS, before="keras.Model.fit(None, nb_epoch=1)",
    error="TypeError", match="nb_epoch", check="signature",
    after="import inspect\nassert 'epochs' in inspect.signature(keras.Model.fit).parameters",
    source=f"{KN} (Keras 2 renamed nb_epoch)")
add("keras:Model.predict_proba", "keras", "method-renamed", "keras.Model.predict_proba",
    new="predict", owners=["Sequential", "Model", "Functional"], setup=KERAS,
    before="keras.Sequential().predict_proba", error="AttributeError",
    after="keras.Sequential().predict", source="TF 2.6 release notes (predict_proba removed)")

# -- torch -------------------------------------------------------------------------------------
TORCH = "import torch\nA = torch.eye(3)\n"
add("torch:matrix_rank", "torch", "name-moved", "torch.matrix_rank", new="torch.linalg.matrix_rank",
    setup=TORCH, before="torch.matrix_rank(A)", error="RuntimeError",
    after="torch.linalg.matrix_rank(A)", source="torch 1.9 deprecation; a stub raising since 1.13")
add("torch:chain_matmul", "torch", "function-to-method", "torch.chain_matmul",
    template="{alias:torch}.linalg.multi_dot([{args}])", setup=TORCH,
    before=None, error=None, after="torch.linalg.multi_dot([A, A, A])",
    source="torch 1.9 deprecation in favour of torch.linalg.multi_dot")
