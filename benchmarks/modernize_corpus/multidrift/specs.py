"""The cells of the multi-drift notebooks: (as written then, as today's libraries need it
to do the same; ``None``: unchanged). See ``build.py``."""

CHURN = [
    ("import numpy as np\nimport pandas as pd\nfrom sklearn.ensemble import RandomForestClassifier\n"
     "from sklearn.model_selection import cross_val_score, train_test_split", None),
    ("rng = np.random.RandomState(0)\nn = 600\n"
     "df = pd.DataFrame({'tenure': rng.randint(1, 72, n),\n"
     "                   'charges': rng.normal(70, 20, n).round(2),\n"
     "                   'plan': rng.choice(['basic', 'plus', 'pro'], n),\n"
     "                   'region': rng.choice(['north', 'south'], n)})\n"
     "df['churn'] = ((df.charges > 80) & (df.tenure < 24) | (rng.rand(n) < 0.1)).astype(int)\n"
     "df.shape", None),
    ("df.groupby('plan').mean().round(3)",
     "df.groupby('plan').mean(numeric_only=True).round(3)"),
    ("X = pd.get_dummies(df[['tenure', 'charges', 'plan']])\ny = df.churn\nX.head(3)",
     "X = pd.get_dummies(df[['tenure', 'charges', 'plan']], dtype='uint8')\ny = df.churn\nX.head(3)"),
    ("clf = RandomForestClassifier(max_depth=6, random_state=0)\n"
     "scores = cross_val_score(clf, X, y)\nprint(len(scores), 'folds, mean accuracy', round(scores.mean(), 4))",
     "clf = RandomForestClassifier(max_depth=6, random_state=0, n_estimators=10)\n"
     "scores = cross_val_score(clf, X, y, cv=3)\nprint(len(scores), 'folds, mean accuracy', round(scores.mean(), 4))"),
    ("X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=1)\nclf.fit(X_tr, y_tr)\n"
     "print('test accuracy: %.4f' % clf.score(X_te, y_te))", None),
    ("pd.Series(clf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)", None),
]

NOTEBOOKS = [
    ("churn_forest", "# Churn: which plans leave (2019)", CHURN),
]

WINE = [
    ("import numpy as np\nfrom sklearn.datasets import load_wine\n"
     "from sklearn.cross_validation import train_test_split\nfrom sklearn.svm import SVC\n"
     "from sklearn.linear_model import LogisticRegression",
     "import numpy as np\nfrom sklearn.datasets import load_wine\n"
     "from sklearn.model_selection import train_test_split\nfrom sklearn.svm import SVC\n"
     "from sklearn.linear_model import LogisticRegression\n"
     "from sklearn.multiclass import OneVsRestClassifier"),
    ("X, y = load_wine(return_X_y=True)\n"
     "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=0)\n"
     "print(X_tr.shape, X_te.shape)", None),
    ("svc = SVC(C=10).fit(X_tr, y_tr)\nprint('SVC accuracy: %.3f' % svc.score(X_te, y_te))",
     "svc = SVC(C=10, gamma='auto').fit(X_tr, y_tr)\nprint('SVC accuracy: %.3f' % svc.score(X_te, y_te))"),
    ("lr = LogisticRegression(C=0.5, max_iter=3000).fit(X_tr, y_tr)\n"
     "print('logistic accuracy: %.3f' % lr.score(X_te, y_te))\nlr.predict_proba(X_te[:2]).round(3)",
     "lr = OneVsRestClassifier(LogisticRegression(C=0.5, max_iter=3000, solver='liblinear')).fit(X_tr, y_tr)\n"
     "print('logistic accuracy: %.3f' % lr.score(X_te, y_te))\nlr.predict_proba(X_te[:2]).round(3)"),
    ("agree = np.asscalar(np.sum(svc.predict(X_te) == lr.predict(X_te)))\n"
     "print('the two models agree on', agree, 'of', len(y_te))",
     "agree = np.sum(svc.predict(X_te) == lr.predict(X_te)).item()\n"
     "print('the two models agree on', agree, 'of', len(y_te))"),
]

SHOPS = [
    ("import numpy as np\nimport pandas as pd\nfrom sklearn.cluster import KMeans\n"
     "from sklearn.preprocessing import StandardScaler", None),
    ("rng = np.random.RandomState(7)\nn = 400\n"
     "df = pd.DataFrame({'spend': rng.gamma(2.0, 30.0, n).round(1),\n"
     "                   'visits': rng.poisson(6, n),\n"
     "                   'basket': rng.normal(25, 8, n).round(1),\n"
     "                   'city': rng.choice(['Lyon', 'Paris', 'Nantes', 'Lille'], n, p=[.4, .3, .2, .1])})\n"
     "df.describe().round(2)", None),
    ("big = df.ix[df.spend > 60, ['spend', 'visits']]\nbig.shape",
     "big = df.loc[df.spend > 60, ['spend', 'visits']]\nbig.shape"),
    ("Z = StandardScaler().fit_transform(df[['spend', 'visits', 'basket']])\n"
     "km = KMeans(n_clusters=7, random_state=0).fit(Z)\n"
     "print('inertia: %.2f' % km.inertia_)",
     "Z = StandardScaler().fit_transform(df[['spend', 'visits', 'basket']])\n"
     "km = KMeans(n_clusters=7, random_state=0, n_init=10).fit(Z)\n"
     "print('inertia: %.2f' % km.inertia_)"),
    ("counts = df.city.value_counts().reset_index()\ncounts",
     "counts = df.city.value_counts().rename(df.city.name).rename_axis(None).reset_index()\ncounts"),
    ("lyon = counts.loc[counts['index'] == 'Lyon', 'city'].iloc[0]\n"
     "print('share of Lyon: %.2f' % (lyon / len(df)))", None),
]

PRICES = [
    ("import pandas as pd", None),
    ("df = pd.DataFrame({'item': ['lamp', 'desk', 'chair', 'sofa', 'rug', 'shelf'],\n"
     "                   'price': ['$45', '$1,200', '$85', '$2,350', '$310', '$129'],\n"
     "                   'qty': [12, 2, 9, 1, 4, 6]})\ndf.head()", None),
    ("df['price'] = df.price.str.replace('[$,]', '').astype(float)\ndf.price.describe().round(2)",
     "df['price'] = df.price.str.replace('[$,]', '', regex=True).astype(float)\ndf.price.describe().round(2)"),
    ("df = df.append({'item': 'gift card', 'price': 50.0, 'qty': 30}, ignore_index=True)\nlen(df)",
     "df = pd.concat([df, pd.DataFrame([{'item': 'gift card', 'price': 50.0, 'qty': 30}])], ignore_index=True)\nlen(df)"),
    ("df.corr().round(3)", "df.corr(numeric_only=True).round(3)"),
    ("print('revenue: %.2f' % (df.price * df.qty).sum())", None),
]

LOANS = [
    ("import numpy as np\nimport pandas as pd\nfrom sklearn.externals import joblib\n"
     "from sklearn.linear_model import LogisticRegression\nfrom sklearn.ensemble import IsolationForest\n"
     "from sklearn.model_selection import train_test_split",
     "import numpy as np\nimport pandas as pd\nimport joblib\n"
     "from sklearn.linear_model import LogisticRegression\nfrom sklearn.ensemble import IsolationForest\n"
     "from sklearn.model_selection import train_test_split"),
    ("rng = np.random.RandomState(42)\nn = 800\nX = rng.normal(size=(n, 8))\n"
     "y = (X[:, 0] - 0.8 * X[:, 1] + 0.3 * X[:, 2] + rng.normal(0, 1, n) > 0).astype(int)\n"
     "X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)\nprint(y.mean())", None),
    ("model = LogisticRegression(penalty='l1', C=0.05).fit(X_tr, y_tr)\n"
     "print('kept features:', int((model.coef_ != 0).sum()))\n"
     "print('accuracy %.3f' % model.score(X_te, y_te))",
     "model = LogisticRegression(penalty='l1', C=0.05, solver='liblinear').fit(X_tr, y_tr)\n"
     "print('kept features:', int((model.coef_ != 0).sum()))\n"
     "print('accuracy %.3f' % model.score(X_te, y_te))"),
    ("joblib.dump(model, 'model.pkl')\nrestored = joblib.load('model.pkl')\n"
     "print(np.allclose(restored.coef_, model.coef_))", None),
    ("iso = IsolationForest(random_state=0).fit(X)\nflagged = int((iso.predict(X) == -1).sum())\n"
     "print('flagged', flagged)",
     "iso = IsolationForest(random_state=0, contamination=0.1).fit(X)\nflagged = int((iso.predict(X) == -1).sum())\n"
     "print('flagged', flagged)"),
    ("share = np.float(flagged) / len(X)\nprint('share flagged %.3f' % share)",
     "share = float(flagged) / len(X)\nprint('share flagged %.3f' % share)"),
]

NOTEBOOKS += [
    ("wine_svm_logistic", "# Wine: SVM against logistic regression (2018)", WINE),
    ("shop_segments", "# Shop customers in segments (2020)", SHOPS),
    ("price_cleanup", "# Cleaning a price list (2019)", PRICES),
    ("loan_sparse_logistic", "# Sparse logistic model for loans, and outliers (2018)", LOANS),
]

RIDGE = [
    ("import numpy as np\nfrom sklearn.datasets import load_diabetes\nfrom sklearn.linear_model import Ridge\n"
     "from sklearn.metrics import mean_squared_error\n"
     "from sklearn.model_selection import cross_val_score, train_test_split",
     "import numpy as np\nfrom sklearn.datasets import load_diabetes\nfrom sklearn.linear_model import Ridge\n"
     "from sklearn.metrics import root_mean_squared_error\nfrom sklearn.pipeline import make_pipeline\n"
     "from sklearn.preprocessing import StandardScaler\n"
     "from sklearn.model_selection import cross_val_score, train_test_split"),
    ("X, y = load_diabetes(return_X_y=True)\nX = X * np.array([1, 5, 20, 50, 100, 1, 1, 10, 30, 2])\n"
     "X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=3)\nprint(X_tr.shape)", None),
    ("ridge = Ridge(alpha=0.05, normalize=True).fit(X_tr, y_tr)\n"
     "print('rmse %.2f' % mean_squared_error(y_te, ridge.predict(X_te), squared=False))",
     "ridge = make_pipeline(StandardScaler(), Ridge(alpha=0.05 * len(X_tr))).fit(X_tr, y_tr)\n"
     "print('rmse %.2f' % root_mean_squared_error(y_te, ridge.predict(X_te)))"),
    ("scores = cross_val_score(Ridge(alpha=0.5), X, y, scoring='r2')\n"
     "print(len(scores), 'folds, r2 %.3f' % scores.mean())",
     "scores = cross_val_score(Ridge(alpha=0.5), X, y, scoring='r2', cv=3)\n"
     "print(len(scores), 'folds, r2 %.3f' % scores.mean())"),
]

TEAMS = [
    ("import numpy as np\nimport pandas as pd", None),
    ("rng = np.random.RandomState(5)\nn = 60\n"
     "df = pd.DataFrame({'team': rng.choice(['east', 'west', 'north'], n),\n"
     "                   'rep': rng.choice(['Ana', 'Bo', 'Cy', 'Di', 'Ed'], n),\n"
     "                   'deals': rng.randint(1, 9, n),\n"
     "                   'amount': rng.gamma(3.0, 800.0, n).round(2)})\ndf.head()", None),
    ("by_team = df.groupby('team').sum()\nby_team",
     "by_team = df.groupby('team').sum(numeric_only=True)\nby_team"),
    ("print(by_team.sort_values('amount').index.tolist())", None),
    ("df.mean().round(2)", "df.mean(numeric_only=True).round(2)"),
    ("per_rep = df.set_index('rep').amount\nprint('mean absolute deviation: %.2f' % per_rep.mad())",
     "per_rep = df.set_index('rep').amount\n"
     "print('mean absolute deviation: %.2f' % (per_rep - per_rep.mean()).abs().mean())"),
]

NOTEBOOKS += [
    ("diabetes_ridge", "# Diabetes progression with a normalised ridge (2018)", RIDGE),
    ("sales_teams", "# Sales by team (2020)", TEAMS),
]

DIGITS = [
    ("from sklearn.datasets import load_digits\nfrom sklearn.grid_search import GridSearchCV\n"
     "from sklearn.svm import SVC",
     "from sklearn.datasets import load_digits\nfrom sklearn.model_selection import GridSearchCV\n"
     "from sklearn.svm import SVC"),
    ("X, y = load_digits(return_X_y=True)\nX_tr, y_tr, X_te, y_te = X[:600], y[:600], X[600:900], y[600:900]\n"
     "print(X_tr.shape, X_te.shape)", None),
    ("grid = GridSearchCV(SVC(), {'C': [0.1, 1, 10]}).fit(X_tr, y_tr)\n"
     "print(grid.best_params_, round(grid.best_score_, 3))",
     "grid = GridSearchCV(SVC(gamma='auto'), {'C': [0.1, 1, 10]}, cv=3).fit(X_tr, y_tr)\n"
     "print(grid.best_params_, round(grid.best_score_, 3))"),
    ("print('held-out accuracy %.3f' % grid.score(X_te, y_te))", None),
]

NOTEBOOKS += [
    ("digits_grid_search", "# Digits: tuning an SVM (2017)", DIGITS),
]
