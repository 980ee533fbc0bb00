"""Notebook crash/fix pairs, ninth set: 30 realistic Kaggle-style machine-learning
notebook failures, each with the small edit that a Kaggle user would make.

Every entry of ``PAIRS`` is ``(name, setup, crash, fixed)``:

* ``setup``: the earlier notebook cells joined into one string (imports
  included).  It runs clean.
* ``crash``: the target cell.  Run after ``setup`` in the same namespace, it
  raises.
* ``fixed``: the same cell after the user's fix.  Run after ``setup`` in a
  fresh namespace, it runs clean and does the same work.

How it was made: written from scratch, without looking at the tool it judges.
All data is synthetic, made with ``numpy.random.default_rng`` Generators with
fixed seeds; nothing is downloaded (no data sets, no pretrained weights).  Set-ups
and cells may write small files (CSV, model files) into the current working
directory or a subfolder of it, and nowhere else.  CPU only.

Written and checked against (``/work/main/.venv/bin/python``, Python 3.11):
numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1, tensorflow 2.21.0 with keras
3.15.1 (``from tensorflow import keras``), torch 2.13.0+cpu, matplotlib 3.11.2,
seaborn 0.13.2, xgboost 3.2.0, lightgbm 4.7.0.  Every API change used below was
checked to be really gone/changed in these versions.

Mix by library (30):
  pandas 7 (0-6), numpy 3 (7-9), scikit-learn 7 (10-16), Keras 3 (17-19),
  torch 4 (20-23), matplotlib/seaborn 2 (24-25), xgboost/lightgbm 2 (26-27),
  plain Python 2 (28-29).

Root causes:
  API change in the installed versions (10): 0 DataFrame.append removed,
    5 read_csv(error_bad_lines=) removed, 7 np.float/np.int removed,
    10 OneHotEncoder(sparse=) renamed sparse_output, 11 mean_squared_error(
    squared=) removed, 17 Adam(lr=) not recognised in Keras 3, 18 Keras 3
    model.save() needs a .keras/.h5 extension, 23 torch.load weights_only=True
    default, 25 matplotlib style 'seaborn' renamed, 26 XGBClassifier.fit(
    early_stopping_rounds=) removed.
  Data confusion (11): 1 mixed date formats, 2 text in a numeric column only in
    later rows, 3 NaN from a left merge cast to int, 6 text column in a numeric
    group-by mean, 9 object array from mixed-type frame (wrong dtype),
    12 unseen category in test, 13 NaN only in the test set, 15 one-hot column
    mismatch train/test, 19 test frame still has the id column (shape
    mismatch), 27 object column where the model was trained on category dtype,
    29 malformed JSON only in later rows.
  Model confusion (3): 14 unfitted scaler, 16 1-D sample to predict (wrong
    input layout), 22 NHWC images fed to Conv2d (wrong input layout).
  Off-by-one / last batch (3): 8 1-based bootstrap loop writes one past the
    end of its result array, 21 BatchNorm1d gets a last batch of size 1,
    24 subplot grid one panel short.
  Notebook state (2): 4 cell re-run after it dropped columns, 28 shadowed
    builtin ``list``.
  File system (1): 20 torch.save into a missing ``models/`` folder.

Long vs immediate:
  Long (15): the crash cell does real work first (row-wise apply, group-bys over
    1-3.5M rows, bootstrap, CV loops, grid search, model fits, training loops,
    many plot panels, parsing loops) and raises only at the end of it, after
    roughly 2-6 s on a 2-CPU machine (always inside 1.5-10 s when checked):
    2, 3, 6, 8, 11, 12, 13, 15, 18, 19, 20, 21, 24, 27, 29.  Pair 21 raises at
    the end of its first epoch (the last, one-row batch), as a real run would.
    The two long torch set-ups call torch.set_num_threads(1) and the LightGBM
    and XGBoost cells use n_jobs=1, so their timing stays steady on a busy
    2-CPU box.
  Immediate (15): the crash cell raises at once (under 0.1 s): 0, 1, 4, 5, 7, 9,
    10, 14, 16, 17, 22, 23, 25, 26, 28.

Fixed cells that look risky but are fine on purpose:
  1 (to_datetime with errors='coerce' twice, then fillna), 2 (pd.to_numeric
  with errors='coerce' after stripping commas; the row-wise float() stays),
  4 (drop with errors='ignore' plus a guarded re-map, safe to re-run),
  13 (test NaN filled with train medians right before predict), 23
  (torch.load(weights_only=False), on the file the notebook itself wrote),
  26 (XGBoost fed NaN features natively), 27 (LightGBM fed NaN in a numeric
  test feature natively; only the category dtype is fixed), 28 (``del list``
  inside the cell), 29 (try/except falling back to ast.literal_eval).
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup, crash, fixed))


# ---------------------------------------------------------------------------
# pandas (0-6)
# ---------------------------------------------------------------------------

# 0 pandas / API change / immediate
_add(
    "pandas_append_fold_scores_removed",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
models = ['logreg', 'random_forest', 'lgbm']
fold_scores = {m: rng.uniform(0.78, 0.91, size=5).round(4) for m in models}
results = pd.DataFrame(columns=['model', 'fold', 'auc'])
""",
    r"""
for m in models:
    for fold, auc in enumerate(fold_scores[m]):
        results = results.append({'model': m, 'fold': fold, 'auc': auc}, ignore_index=True)

summary = results.groupby('model')['auc'].agg(['mean', 'std']).sort_values('mean', ascending=False)
summary
""",
    r"""
rows = []
for m in models:
    for fold, auc in enumerate(fold_scores[m]):
        rows.append({'model': m, 'fold': fold, 'auc': auc})
results = pd.DataFrame(rows, columns=results.columns)

summary = results.groupby('model')['auc'].agg(['mean', 'std']).sort_values('mean', ascending=False)
summary
""",
)

# 1 pandas / data: mixed date formats / immediate
_add(
    "pandas_to_datetime_mixed_export_formats",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(1)
n = 4000
ts = pd.date_range('2022-01-01', periods=n, freq='3h')
old_export = ts.strftime('%Y-%m-%d %H:%M:%S')
new_export = ts.strftime('%d/%m/%Y %H:%M')
order_date = np.where(np.arange(n) < 3100, old_export, new_export)
pd.DataFrame({
    'order_id': np.arange(100000, 100000 + n),
    'order_date': order_date,
    'amount': rng.gamma(2.0, 40.0, n).round(2),
}).to_csv('orders.csv', index=False)

df = pd.read_csv('orders.csv')
df.head()
""",
    r"""
df['order_date'] = pd.to_datetime(df['order_date'])
df['dow'] = df['order_date'].dt.dayofweek
df['month'] = df['order_date'].dt.month
daily = df.groupby(df['order_date'].dt.date)['amount'].sum()
daily.tail()
""",
    r"""
iso = pd.to_datetime(df['order_date'], format='ISO8601', errors='coerce')
dmy = pd.to_datetime(df['order_date'], format='%d/%m/%Y %H:%M', errors='coerce')
df['order_date'] = iso.fillna(dmy)
assert df['order_date'].notna().all()
df['dow'] = df['order_date'].dt.dayofweek
df['month'] = df['order_date'].dt.month
daily = df.groupby(df['order_date'].dt.date)['amount'].sum()
daily.tail()
""",
)

# 2 pandas / data: text in numeric column, later rows only / long
_add(
    "pandas_rowwise_revenue_price_with_commas",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(2)
n = 480_000
price = rng.gamma(2.0, 30.0, n).round(2).astype(str).astype(object)
# the last supplier batch was exported with thousands separators
late = np.arange(n - 1500, n)
price[late] = [f'{v:,.2f}' for v in rng.uniform(1000, 3000, len(late))]
pd.DataFrame({
    'order_id': np.arange(n),
    'price': price,
    'qty': rng.integers(1, 6, n),
    'discount': rng.choice([0.0, 0.05, 0.1, 0.2], n),
    'category': rng.choice(['toys', 'books', 'garden', 'tech'], n),
}).to_csv('transactions.csv', index=False)

df = pd.read_csv('transactions.csv')
df.dtypes
""",
    r"""
def revenue(row):
    price = float(row['price'])
    disc = row['discount'] if row['discount'] > 0 else 0.0
    return price * row['qty'] * (1 - disc)

df['revenue'] = df.apply(revenue, axis=1)
df.groupby('category')['revenue'].sum()
""",
    r"""
df['price'] = pd.to_numeric(df['price'].astype(str).str.replace(',', '', regex=False), errors='coerce')

def revenue(row):
    price = float(row['price'])
    disc = row['discount'] if row['discount'] > 0 else 0.0
    return price * row['qty'] * (1 - disc)

df['revenue'] = df.apply(revenue, axis=1)
df.groupby('category')['revenue'].sum()
""",
)

# 3 pandas / data: NaN after left merge cast to int / long
_add(
    "pandas_window_features_astype_int_nan",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n = 3_500_000
tx = pd.DataFrame({
    'customer_id': rng.integers(0, 150_000, n),
    'store_id': rng.integers(0, 300, n),
    'day': rng.integers(0, 365, n),
    'amount': rng.gamma(2.0, 25.0, n).round(2),
})
# 10,000 customers in the scoring file have no transactions yet
customers = pd.DataFrame({'customer_id': np.arange(160_000)})
""",
    r"""
feats = customers.copy()
for window in [7, 14, 30, 60, 90, 120, 180, 270, 365]:
    recent = tx[tx['day'] >= 365 - window]
    agg = recent.groupby('customer_id').agg(**{
        f'n_tx_{window}': ('amount', 'size'),
        f'sum_{window}': ('amount', 'sum'),
        f'mean_{window}': ('amount', 'mean'),
        f'std_{window}': ('amount', 'std'),
        f'max_{window}': ('amount', 'max'),
        f'n_stores_{window}': ('store_id', 'nunique'),
        f'n_days_{window}': ('day', 'nunique'),
    })
    feats = feats.merge(agg, on='customer_id', how='left')

count_cols = [c for c in feats.columns if c.startswith('n_')]
feats[count_cols] = feats[count_cols].astype(int)
feats.shape
""",
    r"""
feats = customers.copy()
for window in [7, 14, 30, 60, 90, 120, 180, 270, 365]:
    recent = tx[tx['day'] >= 365 - window]
    agg = recent.groupby('customer_id').agg(**{
        f'n_tx_{window}': ('amount', 'size'),
        f'sum_{window}': ('amount', 'sum'),
        f'mean_{window}': ('amount', 'mean'),
        f'std_{window}': ('amount', 'std'),
        f'max_{window}': ('amount', 'max'),
        f'n_stores_{window}': ('store_id', 'nunique'),
        f'n_days_{window}': ('day', 'nunique'),
    })
    feats = feats.merge(agg, on='customer_id', how='left')

count_cols = [c for c in feats.columns if c.startswith('n_')]
feats[count_cols] = feats[count_cols].fillna(0).astype(int)
feats.shape
""",
)

# 4 pandas / notebook state: cell re-run / immediate
_add(
    "pandas_rerun_cell_drop_columns",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
n = 891
df = pd.DataFrame({
    'PassengerId': np.arange(1, n + 1),
    'Name': [f'Passenger, Mr. No{i}' for i in range(n)],
    'Ticket': rng.integers(10000, 99999, n).astype(str),
    'Pclass': rng.integers(1, 4, n),
    'Sex': rng.choice(['male', 'female'], n),
    'Age': np.where(rng.random(n) < 0.2, np.nan, rng.normal(30, 14, n).clip(0.5, 80).round()),
    'Fare': rng.gamma(1.5, 20.0, n).round(2),
    'Survived': rng.integers(0, 2, n),
})

# --- cell 6 (already run once) ---
df = df.drop(columns=['PassengerId', 'Name', 'Ticket'])
df['Sex'] = df['Sex'].map({'male': 0, 'female': 1})
df['Age'] = df['Age'].fillna(df['Age'].median())
""",
    r"""
df = df.drop(columns=['PassengerId', 'Name', 'Ticket'])
df['Sex'] = df['Sex'].map({'male': 0, 'female': 1})
df['Age'] = df['Age'].fillna(df['Age'].median())
""",
    r"""
df = df.drop(columns=['PassengerId', 'Name', 'Ticket'], errors='ignore')
if df['Sex'].dtype == object:
    df['Sex'] = df['Sex'].map({'male': 0, 'female': 1})
df['Age'] = df['Age'].fillna(df['Age'].median())
""",
)

# 5 pandas / API change / immediate
_add(
    "pandas_read_csv_error_bad_lines_removed",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
words = np.array(['great', 'bad', 'okay', 'loved', 'hated', 'product', 'delivery',
                  'fast', 'slow', 'price', 'quality', 'again'])
lines = ['id,rating,review']
for i in range(3000):
    text = ' '.join(rng.choice(words, 6))
    if i % 397 == 0:
        text = text.replace(' ', ', ', 1)  # unquoted comma -> one extra field
    lines.append(f'{i},{rng.integers(1, 6)},{text}')
with open('reviews.csv', 'w') as f:
    f.write('\n'.join(lines) + '\n')
""",
    r"""
reviews = pd.read_csv('reviews.csv', error_bad_lines=False, warn_bad_lines=True)
print(reviews.shape)
reviews['rating'].value_counts().sort_index()
""",
    r"""
reviews = pd.read_csv('reviews.csv', on_bad_lines='skip')
print(reviews.shape)
reviews['rating'].value_counts().sort_index()
""",
)

# 6 pandas / data: text column in numeric group-by mean / long
_add(
    "pandas_lag_features_then_groupby_mean_text",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
n_stores, n_items, n_days = 100, 20, 1000         # 2,000,000 rows
dates = pd.date_range('2020-01-01', periods=n_days, freq='D')
store = np.repeat(np.arange(n_stores), n_items * n_days)
item = np.tile(np.repeat(np.arange(n_items), n_days), n_stores)
state = np.array(['CA', 'TX', 'WI'])[store % 3]
df = pd.DataFrame({
    'store': store,
    'item': item,
    'date': np.tile(dates.values, n_stores * n_items),
    'state': state,
    'sales': rng.poisson(20, n_stores * n_items * n_days).astype(np.float32),
})
""",
    r"""
g = df.groupby(['store', 'item'])['sales']
for lag in [1, 7, 14, 28, 56, 91]:
    df[f'lag_{lag}'] = g.shift(lag)
for w in [7, 14, 28, 56]:
    df[f'rmean_{w}'] = g.transform(lambda s: s.shift(1).rolling(w).mean())
    df[f'rstd_{w}'] = g.transform(lambda s: s.shift(1).rolling(w).std())
df['dow'] = df['date'].dt.dayofweek
df['month'] = df['date'].dt.month

store_profile = df.groupby('store').mean()
store_profile.head()
""",
    r"""
g = df.groupby(['store', 'item'])['sales']
for lag in [1, 7, 14, 28, 56, 91]:
    df[f'lag_{lag}'] = g.shift(lag)
for w in [7, 14, 28, 56]:
    df[f'rmean_{w}'] = g.transform(lambda s: s.shift(1).rolling(w).mean())
    df[f'rstd_{w}'] = g.transform(lambda s: s.shift(1).rolling(w).std())
df['dow'] = df['date'].dt.dayofweek
df['month'] = df['date'].dt.month

store_profile = df.groupby('store').mean(numeric_only=True)
store_profile.head()
""",
)

# ---------------------------------------------------------------------------
# numpy (7-9)
# ---------------------------------------------------------------------------

# 7 numpy / API change / immediate
_add(
    "numpy_float_int_aliases_removed",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(8)
n = 5000
df = pd.DataFrame(rng.normal(size=(n, 8)), columns=[f'f{i}' for i in range(8)])
df['target'] = (df['f0'] + 0.5 * df['f3'] + rng.normal(0, 0.5, n) > 0).astype(int)
features = [c for c in df.columns if c.startswith('f')]
""",
    r"""
X = df[features].to_numpy().astype(np.float)
y = df['target'].to_numpy().astype(np.int)
print(X.shape, X.dtype, y[:10])
""",
    r"""
X = df[features].to_numpy().astype(float)
y = df['target'].to_numpy().astype(int)
print(X.shape, X.dtype, y[:10])
""",
)

# 8 numpy / off-by-one: 1-based loop index runs past the end / long
_add(
    "numpy_bootstrap_auc_index_off_by_one",
    r"""
import numpy as np

rng = np.random.default_rng(9)
n = 50_000
y_valid = rng.integers(0, 2, n)
oof_pred = np.clip(0.3 * y_valid + rng.normal(0.35, 0.2, n), 0, 1)

def auc(y, p):
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    pos = y == 1
    n_pos = pos.sum()
    n_neg = len(y) - n_pos
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
""",
    r"""
n_boot = 2500
boot_auc = np.zeros(n_boot)
for b in range(1, n_boot + 1):
    idx = rng.integers(0, n, n)
    boot_auc[b] = auc(y_valid[idx], oof_pred[idx])
lo, hi = np.percentile(boot_auc, [2.5, 97.5])
print(f'AUC {auc(y_valid, oof_pred):.4f}  95% CI [{lo:.4f}, {hi:.4f}]')
""",
    r"""
n_boot = 2500
boot_auc = np.zeros(n_boot)
for b in range(n_boot):
    idx = rng.integers(0, n, n)
    boot_auc[b] = auc(y_valid[idx], oof_pred[idx])
lo, hi = np.percentile(boot_auc, [2.5, 97.5])
print(f'AUC {auc(y_valid, oof_pred):.4f}  95% CI [{lo:.4f}, {hi:.4f}]')
""",
)

# 9 numpy / data: object array from mixed-type frame / immediate
_add(
    "numpy_log1p_on_object_values",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(10)
n = 20_000
df = pd.DataFrame({
    'income': rng.lognormal(10.5, 0.6, n).round(0),
    'age': rng.integers(18, 80, n),
    'city': rng.choice(['Lyon', 'Paris', 'Nice', 'Lille'], n),
})
data = df[['income', 'age', 'city']].values
""",
    r"""
income_log = np.log1p(data[:, 0])
age_z = (data[:, 1] - data[:, 1].mean()) / data[:, 1].std()
X_num = np.column_stack([income_log, age_z])
X_num.shape
""",
    r"""
num = data[:, :2].astype(np.float64)
income_log = np.log1p(num[:, 0])
age_z = (num[:, 1] - num[:, 1].mean()) / num[:, 1].std()
X_num = np.column_stack([income_log, age_z])
X_num.shape
""",
)

# ---------------------------------------------------------------------------
# scikit-learn (10-16)
# ---------------------------------------------------------------------------

# 10 sklearn / API change / immediate
_add(
    "sklearn_onehot_sparse_kwarg_renamed",
    r"""
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(12)
def make(n):
    return pd.DataFrame({
        'Embarked': rng.choice(['S', 'C', 'Q'], n),
        'Pclass': rng.choice(['1', '2', '3'], n),
        'Deck': rng.choice(list('ABCDEFG'), n),
        'Fare': rng.gamma(1.5, 20.0, n),
    })
train, test = make(891), make(418)
cat_cols = ['Embarked', 'Pclass', 'Deck']
""",
    r"""
ohe = OneHotEncoder(sparse=False, handle_unknown='ignore')
X_cat_train = ohe.fit_transform(train[cat_cols])
X_cat_test = ohe.transform(test[cat_cols])
X_cat_train.shape, X_cat_test.shape
""",
    r"""
ohe = OneHotEncoder(sparse_output=False, handle_unknown='ignore')
X_cat_train = ohe.fit_transform(train[cat_cols])
X_cat_test = ohe.transform(test[cat_cols])
X_cat_train.shape, X_cat_test.shape
""",
)

# 11 sklearn / API change / long
_add(
    "sklearn_kfold_oof_rmse_squared_kwarg",
    r"""
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import KFold

rng = np.random.default_rng(13)
n = 6000
X = rng.normal(size=(n, 12))
y = 3 * X[:, 0] - 2 * X[:, 1] ** 2 + np.sin(3 * X[:, 2]) + X[:, 3] * X[:, 4] + rng.normal(0, 0.5, n)
""",
    r"""
kf = KFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(X))
for fold, (tr, va) in enumerate(kf.split(X)):
    model = RandomForestRegressor(n_estimators=60, max_features=0.5, random_state=fold, n_jobs=1)
    model.fit(X[tr], y[tr])
    oof[va] = model.predict(X[va])
    print(f'fold {fold} done')

rmse = mean_squared_error(y, oof, squared=False)
print(f'OOF RMSE: {rmse:.4f}')
""",
    r"""
from sklearn.metrics import root_mean_squared_error

kf = KFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(X))
for fold, (tr, va) in enumerate(kf.split(X)):
    model = RandomForestRegressor(n_estimators=60, max_features=0.5, random_state=fold, n_jobs=1)
    model.fit(X[tr], y[tr])
    oof[va] = model.predict(X[va])
    print(f'fold {fold} done')

rmse = root_mean_squared_error(y, oof)
print(f'OOF RMSE: {rmse:.4f}')
""",
)

# 12 sklearn / data: unseen category in test / long
_add(
    "sklearn_labelencoder_loop_unseen_test_value",
    r"""
import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

rng = np.random.default_rng(14)
levels = {
    'browser': ['chrome', 'firefox', 'safari', 'edge', 'opera', 'samsung'],
    'os': ['windows', 'macos', 'linux', 'android', 'ios'],
    'os_version': [f'v{i}.{j}' for i in range(8, 16) for j in range(4)],
    'country': [f'c{i:03d}' for i in range(180)],
    'region': [f'r{i:03d}' for i in range(400)],
    'language': ['en', 'fr', 'de', 'es', 'pt', 'it', 'nl', 'ja', 'zh', 'ko'],
    'channel': ['seo', 'sem', 'social', 'email', 'direct', 'affiliate'],
    'campaign': [f'cmp_{i}' for i in range(120)],
    'category': [f'cat_{i}' for i in range(40)],
    'publisher': [f'pub_{i}' for i in range(250)],
    'ad_size': ['300x250', '728x90', '160x600', '320x50', '300x600'],
    'device': ['desktop', 'mobile', 'tablet'],
}
cat_cols = list(levels)
def make(n):
    return pd.DataFrame({c: np.array(v, dtype=object)[rng.integers(0, len(v), n)]
                         for c, v in levels.items()})
train = make(1_500_000)      # click logs
test = make(300_000)
# a new device type shows up only in the test period
test.loc[rng.choice(len(test), 300, replace=False), 'device'] = 'smart_tv'
""",
    r"""
encoders = {}
for col in cat_cols:
    freq = train[col].value_counts(normalize=True)
    train[col + '_freq'] = train[col].map(freq)
    test[col + '_freq'] = test[col].map(freq).fillna(0)
    le = LabelEncoder()
    train[col] = le.fit_transform(train[col])
    test[col] = le.transform(test[col])
    encoders[col] = le
train.head()
""",
    r"""
encoders = {}
for col in cat_cols:
    freq = train[col].value_counts(normalize=True)
    train[col + '_freq'] = train[col].map(freq)
    test[col + '_freq'] = test[col].map(freq).fillna(0)
    le = LabelEncoder()
    le.fit(pd.concat([train[col], test[col]]))
    train[col] = le.transform(train[col])
    test[col] = le.transform(test[col])
    encoders[col] = le
train.head()
""",
)

# 13 sklearn / data: NaN only in test / long
_add(
    "sklearn_gridsearch_svc_then_predict_nan_test",
    r"""
import numpy as np
import pandas as pd
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

rng = np.random.default_rng(15)
n, p = 3000, 15
Xall = rng.normal(size=(n, p))
yall = (Xall[:, 0] * Xall[:, 1] + Xall[:, 2] - 0.5 * Xall[:, 3] + rng.normal(0, 0.7, n) > 0).astype(int)
cols = [f'v{i}' for i in range(p)]
train = pd.DataFrame(Xall[:2400], columns=cols)
train['target'] = yall[:2400]
test = pd.DataFrame(Xall[2400:], columns=cols)
mask = rng.random(test.shape) < 0.03
test = test.mask(mask)                     # missing sensor values in test only

train = train.dropna()
X_train, y_train = train[cols], train['target']
X_test = test[cols]
""",
    r"""
pipe = Pipeline([('scaler', StandardScaler()), ('svc', SVC())])
grid = {'svc__C': [0.3, 1, 3, 10], 'svc__gamma': ['scale', 0.03, 0.1]}
search = GridSearchCV(pipe, grid, cv=5, scoring='accuracy', n_jobs=1)
search.fit(X_train, y_train)
print(search.best_params_, round(search.best_score_, 4))

test_pred = search.predict(X_test)
pd.Series(test_pred).value_counts()
""",
    r"""
pipe = Pipeline([('scaler', StandardScaler()), ('svc', SVC())])
grid = {'svc__C': [0.3, 1, 3, 10], 'svc__gamma': ['scale', 0.03, 0.1]}
search = GridSearchCV(pipe, grid, cv=5, scoring='accuracy', n_jobs=1)
search.fit(X_train, y_train)
print(search.best_params_, round(search.best_score_, 4))

X_test = X_test.fillna(X_train.median())
test_pred = search.predict(X_test)
pd.Series(test_pred).value_counts()
""",
)

# 14 sklearn / model confusion: unfitted scaler / immediate
_add(
    "sklearn_standardscaler_not_fitted",
    r"""
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(16)
X = rng.normal(size=(4000, 10)) * rng.uniform(1, 500, 10)
y = (X[:, 0] / 100 + X[:, 1] / 300 + rng.normal(0, 1, 4000) > 0).astype(int)
X_train, X_valid, y_train, y_valid = train_test_split(X, y, test_size=0.2, random_state=0)
scaler = StandardScaler()
""",
    r"""
X_train_s = scaler.transform(X_train)
X_valid_s = scaler.transform(X_valid)
clf = LogisticRegression(max_iter=1000).fit(X_train_s, y_train)
print('valid acc:', clf.score(X_valid_s, y_valid))
""",
    r"""
X_train_s = scaler.fit_transform(X_train)
X_valid_s = scaler.transform(X_valid)
clf = LogisticRegression(max_iter=1000).fit(X_train_s, y_train)
print('valid acc:', clf.score(X_valid_s, y_valid))
""",
)

# 15 sklearn / data: get_dummies column mismatch / long
_add(
    "sklearn_rf_fit_then_get_dummies_test_mismatch",
    r"""
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor

rng = np.random.default_rng(17)
hoods = [f'hood_{i:02d}' for i in range(25)]
def make(n, hood_pool):
    d = pd.DataFrame({
        'sqft': rng.normal(1500, 400, n).clip(400),
        'beds': rng.integers(1, 6, n),
        'age': rng.integers(0, 100, n),
        'neighborhood': rng.choice(hood_pool, n),
        'style': rng.choice(['ranch', 'colonial', 'modern', 'victorian'], n),
    })
    return d
train = make(8000, hoods)
train['price'] = (train['sqft'] * 150 + train['beds'] * 8000 - train['age'] * 300
                  + train['neighborhood'].str[-2:].astype(int) * 2500 + rng.normal(0, 15000, len(train)))
test = make(2500, hoods[:22])          # the three rarest neighborhoods never appear in test
cat_cols = ['neighborhood', 'style']
""",
    r"""
X_train = pd.get_dummies(train.drop(columns=['price']), columns=cat_cols, dtype=float)
y_train = train['price']
model = RandomForestRegressor(n_estimators=150, min_samples_leaf=2, random_state=0, n_jobs=1)
model.fit(X_train, y_train)

X_test = pd.get_dummies(test, columns=cat_cols, dtype=float)
preds = model.predict(X_test)
preds[:5]
""",
    r"""
X_train = pd.get_dummies(train.drop(columns=['price']), columns=cat_cols, dtype=float)
y_train = train['price']
model = RandomForestRegressor(n_estimators=150, min_samples_leaf=2, random_state=0, n_jobs=1)
model.fit(X_train, y_train)

X_test = pd.get_dummies(test, columns=cat_cols, dtype=float).reindex(columns=X_train.columns, fill_value=0)
preds = model.predict(X_test)
preds[:5]
""",
)

# 16 sklearn / model confusion: 1-D sample (wrong input layout) / immediate
_add(
    "sklearn_predict_single_house_1d",
    r"""
import numpy as np
from sklearn.linear_model import Ridge

rng = np.random.default_rng(18)
n = 1500
X = np.column_stack([
    rng.integers(1, 6, n),          # bedrooms
    rng.integers(1, 4, n),          # bathrooms
    rng.normal(1600, 500, n),       # sqft
    rng.integers(1950, 2022, n),    # year built
    rng.integers(0, 2, n),          # garage
    rng.uniform(0.05, 1.0, n),      # lot acres
])
y = 20000 * X[:, 0] + 15000 * X[:, 1] + 120 * X[:, 2] + 500 * (X[:, 3] - 1950) + rng.normal(0, 20000, n)
model = Ridge(alpha=1.0).fit(X, y)
""",
    r"""
new_house = np.array([3, 2, 1450.0, 1998, 1, 0.25])
pred = model.predict(new_house)
print(f'Predicted price: {pred[0]:,.0f}')
""",
    r"""
new_house = np.array([3, 2, 1450.0, 1998, 1, 0.25])
pred = model.predict(new_house.reshape(1, -1))
print(f'Predicted price: {pred[0]:,.0f}')
""",
)

# ---------------------------------------------------------------------------
# Keras (17-19)
# ---------------------------------------------------------------------------

# 17 keras / API change / immediate
_add(
    "keras_adam_lr_kwarg_not_recognized",
    r"""
import numpy as np
from tensorflow import keras

rng = np.random.default_rng(19)
X_train = rng.normal(size=(3000, 20)).astype('float32')
y_train = (X_train[:, 0] + X_train[:, 1] * X_train[:, 2] > 0).astype('float32')

keras.utils.set_random_seed(0)
model = keras.Sequential([
    keras.Input(shape=(20,)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(1, activation='sigmoid'),
])
""",
    r"""
model.compile(optimizer=keras.optimizers.Adam(lr=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, validation_split=0.2, epochs=5, batch_size=64, verbose=0)
print(history.history['val_accuracy'][-1])
""",
    r"""
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, validation_split=0.2, epochs=5, batch_size=64, verbose=0)
print(history.history['val_accuracy'][-1])
""",
)

# 18 keras / API change: save needs an extension / long
_add(
    "keras_train_then_save_without_extension",
    r"""
import numpy as np
from tensorflow import keras

rng = np.random.default_rng(20)
X = rng.normal(size=(20000, 30)).astype('float32')
y = ((X[:, :5].sum(axis=1) + np.sin(X[:, 5] * 2)) > 0).astype('float32')
X_train, X_val, y_train, y_val = X[:16000], X[16000:], y[:16000], y[16000:]

keras.utils.set_random_seed(0)
model = keras.Sequential([
    keras.Input(shape=(30,)),
    keras.layers.Dense(256, activation='relu'),
    keras.layers.BatchNormalization(),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dropout(0.3),
    keras.layers.Dense(1, activation='sigmoid'),
])
""",
    r"""
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['AUC'])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val),
                    epochs=12, batch_size=128, verbose=0)
print('best val AUC:', max(history.history['val_AUC']))
model.save('best_model')
""",
    r"""
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['AUC'])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val),
                    epochs=12, batch_size=128, verbose=0)
print('best val AUC:', max(history.history['val_AUC']))
model.save('best_model.keras')
""",
)

# 19 keras / data: test frame still has the id column / long
_add(
    "keras_fit_then_predict_test_with_id_column",
    r"""
import numpy as np
import pandas as pd
from tensorflow import keras

rng = np.random.default_rng(22)
p = 24
cols = [f'feat_{i}' for i in range(p)]
train_df = pd.DataFrame(rng.normal(size=(15000, p)), columns=cols)
train_df.insert(0, 'id', np.arange(len(train_df)))
train_df['target'] = (train_df['feat_0'] - train_df['feat_1'] + 0.5 * train_df['feat_2'] ** 2 > 0.5).astype(int)
test_df = pd.DataFrame(rng.normal(size=(5000, p)), columns=cols)
test_df.insert(0, 'id', np.arange(15000, 20000))

X = train_df.drop(columns=['id', 'target']).values.astype('float32')
y = train_df['target'].values.astype('float32')

keras.utils.set_random_seed(1)
model = keras.Sequential([
    keras.Input(shape=(p,)),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
""",
    r"""
history = model.fit(X, y, validation_split=0.15, epochs=18, batch_size=128, verbose=0)
print('val acc:', history.history['val_accuracy'][-1])

test_pred = model.predict(test_df.values.astype('float32'), verbose=0).ravel()
submission = pd.DataFrame({'id': test_df['id'], 'target': (test_pred > 0.5).astype(int)})
submission.head()
""",
    r"""
history = model.fit(X, y, validation_split=0.15, epochs=18, batch_size=128, verbose=0)
print('val acc:', history.history['val_accuracy'][-1])

test_pred = model.predict(test_df.drop(columns=['id']).values.astype('float32'), verbose=0).ravel()
submission = pd.DataFrame({'id': test_df['id'], 'target': (test_pred > 0.5).astype(int)})
submission.head()
""",
)

# ---------------------------------------------------------------------------
# torch (20-23)
# ---------------------------------------------------------------------------

# 20 torch / file system: missing folder / long
_add(
    "torch_train_then_save_into_missing_models_dir",
    r"""
import numpy as np
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)
rng = np.random.default_rng(23)
X = rng.normal(size=(40000, 40)).astype(np.float32)
y = (X[:, 0] * X[:, 1] + X[:, 2:6].sum(axis=1) > 0).astype(np.float32)
X_train, y_train = torch.from_numpy(X[:32000]), torch.from_numpy(y[:32000]).unsqueeze(1)
X_val, y_val = torch.from_numpy(X[32000:]), torch.from_numpy(y[32000:]).unsqueeze(1)

model = nn.Sequential(nn.Linear(40, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
EPOCHS = 6
""",
    r"""
for epoch in range(EPOCHS):
    model.train()
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 256):
        idx = perm[i:i + 256]
        opt.zero_grad()
        loss = loss_fn(model(X_train[idx]), y_train[idx])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val_loss = loss_fn(model(X_val), y_val).item()
    print(f'epoch {epoch}: val_loss={val_loss:.4f}')

torch.save(model.state_dict(), 'models/mlp_fold0.pt')
""",
    r"""
import os

for epoch in range(EPOCHS):
    model.train()
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 256):
        idx = perm[i:i + 256]
        opt.zero_grad()
        loss = loss_fn(model(X_train[idx]), y_train[idx])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val_loss = loss_fn(model(X_val), y_val).item()
    print(f'epoch {epoch}: val_loss={val_loss:.4f}')

os.makedirs('models', exist_ok=True)
torch.save(model.state_dict(), 'models/mlp_fold0.pt')
""",
)

# 21 torch / last batch of size 1 into BatchNorm1d / long
_add(
    "torch_batchnorm_last_batch_of_one",
    r"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
torch.manual_seed(0)
rng = np.random.default_rng(24)
n = 64 * 400 + 1                      # 25,601 rows -> last batch has one row
X = torch.from_numpy(rng.normal(size=(n, 256)).astype(np.float32))
y = torch.from_numpy(rng.integers(0, 5, n))
dataset = TensorDataset(X, y)

model = nn.Sequential(
    nn.Linear(256, 1024), nn.BatchNorm1d(1024), nn.ReLU(),
    nn.Linear(1024, 512), nn.BatchNorm1d(512), nn.ReLU(),
    nn.Linear(512, 5),
)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
""",
    r"""
loader = DataLoader(dataset, batch_size=64, shuffle=True)
for epoch in range(2):
    model.train()
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f'epoch {epoch}: loss={total / len(dataset):.4f}')
""",
    r"""
loader = DataLoader(dataset, batch_size=64, shuffle=True, drop_last=True)
for epoch in range(2):
    model.train()
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f'epoch {epoch}: loss={total / len(dataset):.4f}')
""",
)

# 22 torch / model confusion: NHWC images to Conv2d / immediate
_add(
    "torch_conv2d_channels_last_images",
    r"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(25)
images = rng.random((512, 32, 32, 3), dtype=np.float32)     # as loaded with PIL / cv2: H, W, C
labels = rng.integers(0, 10, 512)

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(32, 10),
)
""",
    r"""
xb = torch.from_numpy(images[:64])
logits = model(xb)
loss = nn.functional.cross_entropy(logits, torch.from_numpy(labels[:64]))
loss.item()
""",
    r"""
xb = torch.from_numpy(images[:64]).permute(0, 3, 1, 2).contiguous()
logits = model(xb)
loss = nn.functional.cross_entropy(logits, torch.from_numpy(labels[:64]))
loss.item()
""",
)

# 23 torch / API change: torch.load weights_only default / immediate
_add(
    "torch_load_full_model_weights_only_default",
    r"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
torch.save(model, 'model_full.pt')            # saved the whole module, not the state_dict
X_test = torch.from_numpy(np.random.default_rng(26).normal(size=(100, 16)).astype(np.float32))
""",
    r"""
model = torch.load('model_full.pt')
model.eval()
with torch.no_grad():
    preds = model(X_test).squeeze(1)
preds[:5]
""",
    r"""
model = torch.load('model_full.pt', weights_only=False)   # our own file from the cell above
model.eval()
with torch.no_grad():
    preds = model(X_test).squeeze(1)
preds[:5]
""",
)

# ---------------------------------------------------------------------------
# matplotlib / seaborn (24-25)
# ---------------------------------------------------------------------------

# 24 seaborn / off-by-one: grid one panel short / long
_add(
    "seaborn_kde_grid_one_panel_short",
    r"""
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(27)
n = 10000
df = pd.DataFrame(rng.normal(size=(n, 36)) * rng.uniform(0.5, 3, 36) + rng.uniform(-2, 2, 36),
                  columns=[f'sensor_{i:02d}' for i in range(36)])
df['target'] = rng.integers(0, 2, n)
""",
    r"""
features = [c for c in df.columns if c != 'target']
fig, axes = plt.subplots(5, 7, figsize=(28, 17))
for i, col in enumerate(features):
    ax = axes[i // 7, i % 7]
    sns.histplot(data=df, x=col, hue='target', stat='density', common_norm=False,
                 bins=40, alpha=0.35, ax=ax)
    sns.kdeplot(data=df, x=col, hue='target', common_norm=False, ax=ax)
    ax.set_title(col)
plt.tight_layout()
plt.show()
""",
    r"""
import math

features = [c for c in df.columns if c != 'target']
nrows = math.ceil(len(features) / 7)
fig, axes = plt.subplots(nrows, 7, figsize=(28, 3.5 * nrows))
for i, col in enumerate(features):
    ax = axes[i // 7, i % 7]
    sns.histplot(data=df, x=col, hue='target', stat='density', common_norm=False,
                 bins=40, alpha=0.35, ax=ax)
    sns.kdeplot(data=df, x=col, hue='target', common_norm=False, ax=ax)
    ax.set_title(col)
for ax in axes.flat[len(features):]:
    ax.set_visible(False)
plt.tight_layout()
plt.show()
""",
)

# 25 matplotlib / API change: style renamed / immediate
_add(
    "matplotlib_style_seaborn_renamed",
    r"""
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

rng = np.random.default_rng(28)
df = pd.DataFrame({'SalePrice': rng.lognormal(12, 0.4, 1460)})
""",
    r"""
plt.style.use('seaborn')
fig, ax = plt.subplots(figsize=(8, 4))
ax.hist(np.log1p(df['SalePrice']), bins=50)
ax.set_title('log1p(SalePrice)')
plt.show()
""",
    r"""
plt.style.use('seaborn-v0_8')
fig, ax = plt.subplots(figsize=(8, 4))
ax.hist(np.log1p(df['SalePrice']), bins=50)
ax.set_title('log1p(SalePrice)')
plt.show()
""",
)

# ---------------------------------------------------------------------------
# xgboost / lightgbm (26-27)
# ---------------------------------------------------------------------------

# 26 xgboost / API change / immediate
_add(
    "xgboost_early_stopping_rounds_in_fit",
    r"""
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(29)
n = 5000
X = pd.DataFrame(rng.normal(size=(n, 12)), columns=[f'f{i}' for i in range(12)])
y = ((X['f0'] + X['f1'] * X['f2'] + rng.normal(0, 0.5, n)) > 0).astype(int)
X = X.mask(rng.random(X.shape) < 0.05)          # raw features keep their missing values
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=0)
""",
    r"""
model = xgb.XGBClassifier(n_estimators=1000, learning_rate=0.05, max_depth=5,
                          eval_metric='auc', tree_method='hist', n_jobs=1)
model.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], early_stopping_rounds=50, verbose=False)
print('best iteration:', model.best_iteration)
""",
    r"""
model = xgb.XGBClassifier(n_estimators=1000, learning_rate=0.05, max_depth=5,
                          eval_metric='auc', tree_method='hist', n_jobs=1,
                          early_stopping_rounds=50)
model.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], verbose=False)
print('best iteration:', model.best_iteration)
""",
)

# 27 lightgbm / data: object column instead of category in test / long
_add(
    "lightgbm_cv_then_predict_object_category",
    r"""
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.model_selection import StratifiedKFold

rng = np.random.default_rng(30)
cities = [f'city_{i}' for i in range(30)]
def make(n):
    d = pd.DataFrame(rng.normal(size=(n, 20)), columns=[f'num_{i}' for i in range(20)])
    d['city'] = rng.choice(cities, n)
    return d
train = make(30000)
train['target'] = ((train['num_0'] + train['num_1'] * train['num_2']
                    + train['city'].str[5:].astype(int) / 15 + rng.normal(0, 1, len(train))) > 1).astype(int)
train['city'] = train['city'].astype('category')
make(10000).to_csv('test.csv', index=False)
test = pd.read_csv('test.csv')
test.loc[rng.random(len(test)) < 0.05, 'num_3'] = np.nan   # missing readings in test
features = [c for c in train.columns if c != 'target']
""",
    r"""
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
models, scores = [], []
for fold, (tr, va) in enumerate(skf.split(train, train['target'])):
    clf = lgb.LGBMClassifier(n_estimators=200, learning_rate=0.05, num_leaves=31,
                             n_jobs=1, verbose=-1, random_state=fold)
    clf.fit(train.iloc[tr][features], train.iloc[tr]['target'],
            eval_set=[(train.iloc[va][features], train.iloc[va]['target'])])
    scores.append(clf.best_score_['valid_0']['binary_logloss'])
    models.append(clf)
print('CV logloss:', np.mean(scores))

test_pred = np.zeros(len(test))
for clf in models:
    test_pred += clf.predict_proba(test[features])[:, 1] / len(models)
test_pred[:5]
""",
    r"""
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
models, scores = [], []
for fold, (tr, va) in enumerate(skf.split(train, train['target'])):
    clf = lgb.LGBMClassifier(n_estimators=200, learning_rate=0.05, num_leaves=31,
                             n_jobs=1, verbose=-1, random_state=fold)
    clf.fit(train.iloc[tr][features], train.iloc[tr]['target'],
            eval_set=[(train.iloc[va][features], train.iloc[va]['target'])])
    scores.append(clf.best_score_['valid_0']['binary_logloss'])
    models.append(clf)
print('CV logloss:', np.mean(scores))

test['city'] = pd.Categorical(test['city'], categories=train['city'].cat.categories)
test_pred = np.zeros(len(test))
for clf in models:
    test_pred += clf.predict_proba(test[features])[:, 1] / len(models)
test_pred[:5]
""",
)

# ---------------------------------------------------------------------------
# plain Python (28-29)
# ---------------------------------------------------------------------------

# 28 python / notebook state: shadowed builtin / immediate
_add(
    "python_shadowed_list_builtin",
    r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
n = 891
df = pd.DataFrame({
    'Age': np.where(rng.random(n) < 0.2, np.nan, rng.normal(30, 14, n).round()),
    'Fare': rng.gamma(1.5, 20.0, n),
    'SibSp': rng.integers(0, 4, n),
    'Parch': rng.integers(0, 3, n),
    'Sex': rng.choice(['male', 'female'], n),
    'Embarked': rng.choice(['S', 'C', 'Q'], n),
})

# earlier cell: columns to impute
list = ['Age', 'Fare', 'SibSp', 'Parch']
for col in list:
    df[col] = df[col].fillna(df[col].median())
""",
    r"""
cat_feats = list(df.select_dtypes('object').columns)
num_feats = list(df.select_dtypes('number').columns)
print(cat_feats, num_feats)
""",
    r"""
del list   # an earlier cell rebound the builtin
cat_feats = list(df.select_dtypes('object').columns)
num_feats = list(df.select_dtypes('number').columns)
print(cat_feats, num_feats)
""",
)

# 29 python / data: malformed JSON only in later rows / long
_add(
    "python_json_loads_genres_single_quotes_late",
    r"""
import json
import numpy as np
import pandas as pd

rng = np.random.default_rng(32)
genre_names = ['Drama', 'Comedy', 'Action', 'Thriller', 'Romance', 'Horror',
               'Adventure', 'Crime', 'Family', 'Animation', 'Documentary', 'Fantasy']
n = 1_000_000
combos = [[int(a)] for a in range(12)] + [[a, b] for a in range(12) for b in range(12) if a < b]
combos += [[a, b, c] for a in range(12) for b in range(a + 1, 12) for c in range(b + 1, 12)]
as_json = np.array([json.dumps([{'id': g + 10, 'name': genre_names[g]} for g in cmb]) for cmb in combos], dtype=object)
as_repr = np.array([str([{'id': g + 10, 'name': genre_names[g]} for g in cmb]) for cmb in combos], dtype=object)
pick = rng.integers(0, len(combos), n)
genres = as_json[pick]
# the last rows came from a second scrape that stored Python reprs instead of JSON
genres[n - 3000:] = as_repr[pick[n - 3000:]]
movies = pd.DataFrame({'movie_id': np.arange(n), 'genres': genres,
                       'revenue': rng.lognormal(16, 1.5, n).round(0)})
""",
    r"""
from collections import Counter

genre_counts = Counter()
parsed = []
for s in movies['genres']:
    items = json.loads(s)
    names = [g['name'] for g in items]
    parsed.append(names)
    genre_counts.update(names)
movies['genre_list'] = parsed
movies['n_genres'] = movies['genre_list'].str.len()
genre_counts.most_common(5)
""",
    r"""
import ast
from collections import Counter

def parse_genres(s):
    try:
        return json.loads(s)
    except json.JSONDecodeError:
        return ast.literal_eval(s)

genre_counts = Counter()
parsed = []
for s in movies['genres']:
    items = parse_genres(s)
    names = [g['name'] for g in items]
    parsed.append(names)
    genre_counts.update(names)
movies['genre_list'] = parsed
movies['n_genres'] = movies['genre_list'].str.len()
genre_counts.most_common(5)
""",
)
