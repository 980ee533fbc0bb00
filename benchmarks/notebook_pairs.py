"""A second set of crash/fix pairs for the notebook path: (name, setup, crashing cell, fixed cell).

Written on 2026-12-03, after the extension's notebook path was built, to find where it
misses: Kaggle-style cells whose crash comes from the data's values (a NaN past the head,
a category unseen at fit time, a class of one member, a dtype, a group too small), not
from names a reader could check. Small synthetic data built in each set-up; no network,
no GPU. The truth of each pair was decided by running set-up and cell in a fresh Python
process: every crashing cell raises there, every fixed one runs clean.

Unlike `bench_dryrun.PAIRS` these are not the rules' examples; changes followed what they
showed (the copy watch once a cell has raised, a dtype mismatch after a cut loop, a crash
after library cuts only, the rules' trials where no dry run follows), so they are not
unseen cases either: `bench_longcells.new_pairs` reports them as a check of the notebook
path, back to back and after a pause.
"""


_PD = "import numpy as np, pandas as pd\nrng = np.random.default_rng(0)\n"

_TABLE = _PD + (
    "n = 3000\n"
    "df = pd.DataFrame({'age': rng.integers(18, 90, n).astype(float),\n"
    "                   'income': rng.normal(5e4, 1e4, n),\n"
    "                   'household': rng.integers(1, 6, n),\n"
    "                   'city': rng.choice(['paris', 'lyon', 'nice'], n),\n"
    "                   'label': rng.integers(0, 2, n)})\n"
)

_TORCH = _PD + (
    "import torch\ntorch.manual_seed(0)\n"
    "n = 4000\n"
    "train = pd.DataFrame(rng.random((n, 8)), columns=[f'f{i}' for i in range(8)])\n"
    "train['y'] = (train.f0 + train.f1 > 1).astype(int)\n"
    "test = pd.DataFrame(rng.random((500, 8)), columns=[f'f{i}' for i in range(8)])\n"
    "model = torch.nn.Sequential(torch.nn.Linear(8, 64), torch.nn.ReLU(), torch.nn.Linear(64, 2))\n"
    "opt = torch.optim.Adam(model.parameters(), 1e-3)\n"
)

_TORCH_TRAIN = (
    "X = torch.tensor(train.drop(columns='y').values, dtype=torch.float32)\n"
    "Y = torch.tensor(train['y'].values)\n"
    "for epoch in range(60):\n"
    "    for i in range(0, n, 256):\n"
    "        loss = torch.nn.functional.cross_entropy(model(X[i:i+256]), Y[i:i+256])\n"
    "        opt.zero_grad(); loss.backward(); opt.step()\n"
)

_KERAS = _PD + (
    "import tensorflow as tf\n"
    "n = 2000\n"
    "df = pd.DataFrame({'rooms': rng.integers(1, 8, n), 'area': rng.normal(80, 20, n),\n"
    "                   'price': [f'{v:,.0f}' if v > 1000 else f'{v:.0f}'\n"
    "                             for v in rng.normal(600, 250, n)]})\n"
    "df['target'] = (df.area > 80).astype('float32')\n"
    "model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(16, activation='relu'),\n"
    "                             tf.keras.layers.Dense(1, activation='sigmoid')])\n"
    "model.compile('adam', 'binary_crossentropy')\n"
)

PAIRS = [
    # 1 astype(int) with a NaN far down the column
    ("astype int with a NaN past the head",
     _TABLE + "df.loc[2700, 'age'] = np.nan\n",
     "df['age'] = df['age'].astype(int)\ndf['age_group'] = df['age'] // 10",
     "df['age'] = df['age'].fillna(df['age'].median()).astype(int)\ndf['age_group'] = df['age'] // 10"),
    # 2 merge with an overlapping column: suffixes, then the old name
    ("merge suffixes then the old name",
     _TABLE + "cities = pd.DataFrame({'city': ['paris', 'lyon', 'nice'], 'income': [6e4, 5e4, 4.5e4],\n"
              "                       'pop': [2.1e6, 5.1e5, 3.4e5]})\n",
     "df = df.merge(cities, on='city', how='left')\ndf['rel_income'] = df['income'] / df['pop']",
     "df = df.merge(cities, on='city', how='left', suffixes=('', '_city'))\n"
     "df['rel_income'] = df['income'] / df['pop']"),
    # 3 LabelEncoder.transform on a test set with an unseen category
    ("LabelEncoder on an unseen test category",
     _TABLE + "from sklearn.preprocessing import LabelEncoder\n"
              "test = df.sample(500, random_state=1).copy()\n"
              "test.iloc[450, test.columns.get_loc('city')] = 'lille'\n"
              "le = LabelEncoder().fit(df['city'])\n",
     "df['city_code'] = le.transform(df['city'])\ntest['city_code'] = le.transform(test['city'])",
     "le = LabelEncoder().fit(pd.concat([df['city'], test['city']]))\n"
     "df['city_code'] = le.transform(df['city'])\ntest['city_code'] = le.transform(test['city'])"),
    # 4 stratify with a class of one member
    ("stratified split with a singleton class",
     _TABLE + "from sklearn.model_selection import train_test_split\n"
              "df['segment'] = rng.choice(['a', 'b', 'c'], n)\ndf.loc[1234, 'segment'] = 'vip'\n",
     "X_tr, X_te, y_tr, y_te = train_test_split(df[['age', 'income']], df['segment'],\n"
     "                                          test_size=0.2, stratify=df['segment'], random_state=0)",
     "df = df[df.groupby('segment')['segment'].transform('size') > 1]\n"
     "X_tr, X_te, y_tr, y_te = train_test_split(df[['age', 'income']], df['segment'],\n"
     "                                          test_size=0.2, stratify=df['segment'], random_state=0)"),
    # 5 np.concatenate of per-chunk one-hot blocks with different widths
    ("concatenate one-hot chunks of different widths",
     _TABLE + "df.loc[2500:, 'city'] = 'paris'\n",
     "blocks = []\nfor start in range(0, n, 500):\n"
     "    chunk = df.iloc[start:start + 500]\n"
     "    feats = pd.get_dummies(chunk[['age', 'income', 'city']], dtype=float)\n"
     "    blocks.append(feats.rolling(5, min_periods=1).mean().to_numpy())\n"
     "X = np.concatenate(blocks, axis=0)",
     "blocks = []\nall_cities = sorted(df['city'].unique())\nfor start in range(0, n, 500):\n"
     "    chunk = df.iloc[start:start + 500].copy()\n"
     "    chunk['city'] = pd.Categorical(chunk['city'], categories=all_cities)\n"
     "    feats = pd.get_dummies(chunk[['age', 'income', 'city']], dtype=float)\n"
     "    blocks.append(feats.rolling(5, min_periods=1).mean().to_numpy())\n"
     "X = np.concatenate(blocks, axis=0)"),
    # 6 torch.cat of a dropna'd numeric block with an un-dropped categorical block
    ("torch cat after dropna on one part",
     _TABLE + "import torch\ndf.loc[rng.choice(n, 7, replace=False), 'income'] = np.nan\n",
     "x_num = torch.tensor(df[['age', 'income']].dropna().values, dtype=torch.float32)\n"
     "x_cat = torch.tensor(df['city'].astype('category').cat.codes.values, dtype=torch.float32)\n"
     "X = torch.cat([x_num, x_cat.unsqueeze(1)], dim=1)",
     "x_num = torch.tensor(df[['age', 'income']].fillna(df['income'].mean()).values, dtype=torch.float32)\n"
     "x_cat = torch.tensor(df['city'].astype('category').cat.codes.values, dtype=torch.float32)\n"
     "X = torch.cat([x_num, x_cat.unsqueeze(1)], dim=1)"),
    # 7 torch training then predict on a float64 tensor built from a dataframe
    ("torch train then predict on float64",
     _TORCH,
     _TORCH_TRAIN + "preds = model(torch.tensor(test.values)).argmax(1)",
     _TORCH_TRAIN + "preds = model(torch.tensor(test.values, dtype=torch.float32)).argmax(1)"),
    # 8 Keras fed a dataframe with an object column (thousands separators)
    ("keras fit on an object column",
     _KERAS,
     "model.fit(df[['rooms', 'area', 'price']], df['target'], epochs=3, verbose=0)",
     "df['price'] = pd.to_numeric(df['price'].str.replace(',', ''))\n"
     "model.fit(df[['rooms', 'area', 'price']], df['target'], epochs=3, verbose=0)"),
    # 9 division by a zero count gives inf, then a sklearn fit
    ("division to inf then a regression fit",
     _TABLE + "from sklearn.linear_model import LinearRegression\ndf.loc[2222, 'household'] = 0\n",
     "df['income_pp'] = df['income'] / df['household']\n"
     "reg = LinearRegression().fit(df[['age', 'income_pp']], df['label'])",
     "df['income_pp'] = df['income'] / df['household'].replace(0, 1)\n"
     "reg = LinearRegression().fit(df[['age', 'income_pp']], df['label'])"),
    # 10 StandardScaler on a frame with inf from a log of zero
    ("log of zero then StandardScaler",
     _TABLE + "from sklearn.preprocessing import StandardScaler\ndf['visits'] = rng.integers(1, 50, n)\n"
              "df.loc[2950, 'visits'] = 0\n",
     "df['log_visits'] = np.log(df['visits'])\n"
     "scaled = StandardScaler().fit_transform(df[['age', 'income', 'log_visits']])",
     "df['log_visits'] = np.log1p(df['visits'])\n"
     "scaled = StandardScaler().fit_transform(df[['age', 'income', 'log_visits']])"),
    # 11 pd.to_datetime on a malformed date far down
    ("to_datetime on an impossible date",
     _TABLE + "dates = pd.date_range('2020-01-01', periods=n, freq='h').strftime('%Y-%m-%d %H:%M')\n"
              "df['when'] = list(dates)\ndf.loc[2801, 'when'] = '2020-02-30 10:00'\n",
     "df['when'] = pd.to_datetime(df['when'], format='%Y-%m-%d %H:%M')\ndf['hour'] = df['when'].dt.hour",
     "df['when'] = pd.to_datetime(df['when'], format='%Y-%m-%d %H:%M', errors='coerce')\n"
     "df['hour'] = df['when'].dt.hour"),
    # 12 groupby-apply result assigned as a column
    ("groupby apply assigned as a column",
     _TABLE,
     "df['income_rank'] = df.groupby('city').apply(lambda g: g['income'].rank(pct=True))",
     "df['income_rank'] = df.groupby('city')['income'].rank(pct=True)"),
    # 13 per-group cross-validation where one group is tiny
    ("per-group CV with a tiny group",
     _TABLE + "from sklearn.model_selection import cross_val_score\n"
              "from sklearn.ensemble import RandomForestClassifier\n"
              "df['region'] = rng.choice(['n', 's', 'e', 'w'], n)\ndf.loc[df.sample(3, random_state=3).index, 'region'] = 'islands'\n",
     "scores = {}\nfor region, g in df.groupby('region'):\n"
     "    clf = RandomForestClassifier(n_estimators=30, random_state=0)\n"
     "    scores[region] = cross_val_score(clf, g[['age', 'income']], g['label'], cv=5).mean()",
     "scores = {}\nfor region, g in df.groupby('region'):\n"
     "    if len(g) < 50:\n        continue\n"
     "    clf = RandomForestClassifier(n_estimators=30, random_state=0)\n"
     "    scores[region] = cross_val_score(clf, g[['age', 'income']], g['label'], cv=5).mean()"),
    # 14 a lag loop that runs off the end of the array
    ("lag loop one past the end",
     _PD + "prices = 100 * np.cumprod(1 + rng.normal(0, 0.01, 200_000))\n",
     "returns = []\nfor i in range(len(prices)):\n"
     "    returns.append(prices[i + 1] / prices[i] - 1)\nreturns = np.array(returns)",
     "returns = []\nfor i in range(len(prices) - 1):\n"
     "    returns.append(prices[i + 1] / prices[i] - 1)\nreturns = np.array(returns)"),
    # 15 bar plot: unique() keeps NaN, value_counts() drops it
    ("bar plot of unique vs value_counts with a NaN",
     _TABLE + "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
              "df.loc[2600, 'city'] = np.nan\n",
     "fig, ax = plt.subplots()\nax.bar(df['city'].unique(), df['city'].value_counts(sort=False))\n"
     "ax.set_title('rows per city')",
     "fig, ax = plt.subplots()\ncounts = df['city'].value_counts(sort=False)\n"
     "ax.bar(counts.index, counts.values)\nax.set_title('rows per city')"),
    # 16 xgboost classifier with labels 1..K
    ("xgboost with labels starting at 1",
     _TABLE + "from xgboost import XGBClassifier\ndf['grade'] = rng.integers(1, 4, n)\n",
     "clf = XGBClassifier(n_estimators=50, max_depth=3)\nclf.fit(df[['age', 'income', 'household']], df['grade'])",
     "clf = XGBClassifier(n_estimators=50, max_depth=3)\nclf.fit(df[['age', 'income', 'household']], df['grade'] - 1)"),
    # 17 pivot with a duplicated (user, item) entry
    ("pivot with a duplicated entry",
     _PD + "ratings = pd.DataFrame({'user': np.repeat(np.arange(300), 10),\n"
           "                        'item': np.tile(np.arange(10), 300),\n"
           "                        'rating': rng.integers(1, 6, 3000)})\n"
           "ratings = pd.concat([ratings, ratings.iloc[[2711]]], ignore_index=True)\n",
     "matrix = ratings.pivot(index='user', columns='item', values='rating')",
     "matrix = ratings.pivot_table(index='user', columns='item', values='rating', aggfunc='mean')"),
    # 18 get_dummies separately on train/test, fit then predict
    ("dummies of train and test differ",
     _TABLE + "from sklearn.ensemble import RandomForestClassifier\n"
              "test = df.sample(400, random_state=2).copy()\ntest.loc[test.city == 'nice', 'city'] = 'lyon'\n",
     "X_tr = pd.get_dummies(df[['age', 'income', 'city']])\nX_te = pd.get_dummies(test[['age', 'income', 'city']])\n"
     "clf = RandomForestClassifier(n_estimators=150, random_state=0).fit(X_tr, df['label'])\n"
     "pred = clf.predict(X_te)",
     "X_tr = pd.get_dummies(df[['age', 'income', 'city']])\n"
     "X_te = pd.get_dummies(test[['age', 'income', 'city']]).reindex(columns=X_tr.columns, fill_value=0)\n"
     "clf = RandomForestClassifier(n_estimators=150, random_state=0).fit(X_tr, df['label'])\n"
     "pred = clf.predict(X_te)"),
    # 19 torch embedding sized by nunique, ids not contiguous; crash in a later batch
    ("torch embedding with raw ids",
     _PD + "import torch\ntorch.manual_seed(0)\n"
           "ids = np.sort(rng.choice(np.arange(1000, 1500), 300, replace=False))\n"
           "inter = pd.DataFrame({'user': np.concatenate([rng.integers(0, 250, 6000), rng.integers(250, 300, 200)]),\n"
           "                      'y': rng.random(6200)})\n"
           "inter['user_id'] = ids[inter['user']]\ninter.loc[inter.index[:6000], 'user_id'] = inter['user'][:6000]\n"
           "emb = torch.nn.Embedding(inter['user_id'].nunique(), 16)\nhead = torch.nn.Linear(16, 1)\n"
           "opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), 0.05)\n",
     "u = torch.tensor(inter['user_id'].values)\ny = torch.tensor(inter['y'].values, dtype=torch.float32)\n"
     "for epoch in range(3):\n    for i in range(0, len(u), 64):\n"
     "        loss = ((head(emb(u[i:i+64])).squeeze(1) - y[i:i+64]) ** 2).mean()\n"
     "        opt.zero_grad(); loss.backward(); opt.step()",
     "inter['user_id'] = inter['user_id'].factorize()[0]\n"
     "u = torch.tensor(inter['user_id'].values)\ny = torch.tensor(inter['y'].values, dtype=torch.float32)\n"
     "for epoch in range(3):\n    for i in range(0, len(u), 64):\n"
     "        loss = ((head(emb(u[i:i+64])).squeeze(1) - y[i:i+64]) ** 2).mean()\n"
     "        opt.zero_grad(); loss.backward(); opt.step()"),
    # 20 keras sparse labels 1..K
    ("keras sparse labels starting at 1",
     _PD + "import tensorflow as tf\nX = rng.random((3000, 6)).astype('float32')\n"
           "stars = pd.Series(rng.integers(1, 6, 3000))\n"
           "model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(32, activation='relu'),\n"
           "                             tf.keras.layers.Dense(stars.nunique(), activation='softmax')])\n"
           "model.compile('adam', 'sparse_categorical_crossentropy')\n",
     "model.fit(X, stars.values, epochs=5, batch_size=64, verbose=0)",
     "model.fit(X, stars.values - 1, epochs=5, batch_size=64, verbose=0)"),
    # 21 iloc[0] on a filter that matches nothing
    ("iloc[0] on an empty filter",
     _TABLE + "df['score'] = rng.random(n) * 0.95\n",
     "best = df[df['score'] > 0.99].iloc[0]\nprint(best['city'])",
     "best = df.loc[df['score'].idxmax()]\nprint(best['city'])"),
    # 22 normal equations with a duplicated (collinear) feature
    ("normal equations with a collinear feature",
     _TABLE + "df['age_copy'] = df['age']\n",
     "X = np.column_stack([np.ones(n), df[['age', 'age_copy', 'income']].to_numpy()])\n"
     "beta = np.linalg.inv(X.T @ X) @ X.T @ df['label'].to_numpy()",
     "X = np.column_stack([np.ones(n), df[['age', 'age_copy', 'income']].to_numpy()])\n"
     "beta = np.linalg.pinv(X.T @ X) @ X.T @ df['label'].to_numpy()"),
    # 23 classifier on a continuous target
    ("classifier on a continuous target",
     _TABLE + "from sklearn.linear_model import LogisticRegression\n"
              "df['churn'] = (df['income'] / df['income'].max()).round(2)\n",
     "clf = LogisticRegression(max_iter=500).fit(df[['age', 'household']], df['churn'])",
     "clf = LogisticRegression(max_iter=500).fit(df[['age', 'household']], (df['churn'] > 0.5).astype(int))"),
    # 24 astype(float) on strings with a stray thousands separator
    ("astype float on a stray thousands separator",
     _TABLE + "df['rent'] = [f'{v:.2f}' for v in rng.normal(900, 300, n)]\ndf.loc[2444, 'rent'] = '1,250.00'\n",
     "df['rent'] = df['rent'].astype(float)\ndf['rent_share'] = df['rent'] * 12 / df['income']",
     "df['rent'] = df['rent'].str.replace(',', '').astype(float)\ndf['rent_share'] = df['rent'] * 12 / df['income']"),
]
