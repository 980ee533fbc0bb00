"""Notebook crash/fix pairs, twelfth set: 30 realistic Kaggle-style machine-learning notebook failures, each with the small edit that a Kaggle user would make.

Each entry of PAIRS is a tuple (name, setup, crash, fixed):

- name: short identifier, prefixed with the library the notebook is about.
- setup: the earlier notebook cells joined into one string (imports included). It runs clean.
- crash: the target cell. Executed after setup in the same namespace, it raises an exception from the library or from Python itself (never an `assert` or a `raise` written by the notebook author).
- fixed: the same cell after the user's fix. Executed after setup in a fresh namespace, it runs clean and does the same work.

Indices below are 0-based positions in PAIRS.

How it was made
---------------
Every pair was written by hand as a notebook fragment. All data is synthetic and
made in setup with seeded generators (numpy.random.default_rng, random.seed,
torch.manual_seed, keras.utils.set_random_seed); nothing is downloaded, no
pretrained weights are used, and files (CSV, JSON, JSON-lines, model files,
PNG figures) are written only under the current working directory, through
relative paths.

A checker script ran, for every pair, setup+crash in one fresh Python process
and setup+fixed in another fresh process, each in a fresh temporary working
directory, with TF_CPP_MIN_LOG_LEVEL=3, one process at a time (never in
parallel). Both cells were compiled and run with exec() in a plain namespace
dict whose __name__ is "__main__". For the crash run it recorded the exception
type and the time from the start of the crash cell to the exception. For the
fixed run it recorded that the cell ran clean and how long it took. It also
checked that the code of setup, crash and fixed has no `raise` or `assert`
statement (via ast), and recorded setup time and peak RSS. The full check was
run twice on the final file. Both times, all 60 runs were as expected: 30 crash
cells raised and 30 fixed cells ran clean, with the same exception type in the
two rounds.
Setups took at most 6.0 s. Peak RSS of any run was at most 974 MB.

The work sizes of the long cells were tuned to raise after about 2.5-3 s on
the 2-core checking machine. CPU timings on that VM vary from run to run. For
example, multi-threaded torch training varied up to 3x between runs, so the
two long torch setups ([20], [22]) call torch.set_num_threads(1), the XGBoost
loop uses n_jobs=1, and the LightGBM params use num_threads=1.

Checked against: Python 3.11.7, numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1,
tensorflow 2.21.0 with keras 3.15.1, torch 2.13.0+cpu, matplotlib 3.11.2,
seaborn 0.13.2, xgboost 3.2.0, lightgbm 4.7.0, scipy 1.17.1 (CPU only, Linux).

Mix by library (30)
-------------------
- pandas (7): 0, 1, 2, 3, 4, 5, 6
- numpy (3): 7, 8, 9
- scikit-learn (7): 10, 11, 12, 13, 14, 15, 16
- Keras via `from tensorflow import keras` (3): 17, 18, 19
- torch (4): 20, 21, 22, 23
- matplotlib (1): 24
- seaborn (1): 25
- xgboost (1): 26
- lightgbm (1): 27
- plain Python (2): 28, 29

Root causes
-----------
- API removed or default changed in the installed versions:
  1 (DataFrame.append removed in pandas 2.0 -> AttributeError),
  3 (groupby().mean() no longer drops text columns, numeric_only=False in pandas 2.0 -> TypeError),
  7 (np.trapz removed in NumPy 2.4 -> AttributeError),
  10 (OneHotEncoder(sparse=...) removed, now sparse_output -> TypeError),
  13 (mean_squared_error(squared=False) removed in scikit-learn 1.6 -> TypeError),
  17 (Keras 3 model.save() needs a .keras or .h5 path -> ValueError),
  22 (torch.load defaults to weights_only=True since torch 2.6 -> UnpicklingError),
  24 (matplotlib style 'seaborn' renamed to 'seaborn-v0_8' -> OSError),
  25 (DataFrame.corr() numeric_only default False in pandas 2.0, inside a seaborn heatmap -> ValueError).
- Data problem that appears only in late files, rows, groups or batches:
  0 (last daily CSV files use capitalised column names -> KeyError),
  2 (one store-day reported twice near the end -> pivot ValueError),
  5 (rows appended from a second source use a day-first timestamp format -> to_datetime ValueError),
  20 (dataset size leaves a final mini-batch of one sample for BatchNorm1d -> ValueError),
  26 (a store late in the loop has missing sales labels -> XGBoostError),
  28 (one late JSON-lines record has "text": null -> AttributeError).
- Train/test or fit/predict mismatch:
  11 (city in test never seen by OneHotEncoder -> ValueError),
  15 (test frame still carries the id column -> feature-names ValueError),
  27 (train columns are pandas category, test columns still object -> LightGBM ValueError).
- Unfitted estimator: 14 (cross_val_score fits clones only; predicting with the original pipeline -> NotFittedError).
- dtype problems:
  6 (merge key int64 vs object strings from JSON -> ValueError),
  21 (float64 tensors from NumPy into float32 Linear weights -> RuntimeError),
  29 (np.int64 values are not JSON serialisable -> TypeError).
- Shape and layout problems:
  9 (standardising with statistics along the wrong axis -> broadcast ValueError),
  18 (single sample passed to Keras predict as a 1-D vector -> ValueError),
  19 (categorical_crossentropy with integer labels -> target/output rank ValueError),
  23 (.view() on a transposed, non-contiguous tensor -> RuntimeError).
- Index/label semantics: 4 (Series[-1] on a RangeIndex is a label lookup -> KeyError).
- Numerical problems and missing values:
  8 (an all-zero, gap-filled regressor makes X'X exactly singular in a late window -> LinAlgError),
  12 (NaN from a left merge reaches LogisticRegression -> ValueError),
  16 (log of a zero recency gives -inf before StandardScaler/KMeans -> ValueError).

Long and short
--------------
Times are from the start of the crash cell to the exception, measured in the
two final check runs (run 1 / run 2) on a 2-core CPU machine.

Long (15), 2.38-3.09 s of real work before raising:
  [0] pandas_daily_files_renamed_columns: 2.94 s / 2.68 s
  [2] pandas_pivot_duplicate_store_day: 3.08 s / 2.88 s
  [5] pandas_to_datetime_mixed_formats_late_rows: 2.98 s / 2.94 s
  [8] numpy_rolling_ols_singular_matrix: 2.95 s / 2.88 s
  [11] sklearn_onehot_unknown_category_at_predict: 2.81 s / 2.83 s
  [13] sklearn_mse_squared_argument_removed: 2.97 s / 2.86 s
  [14] sklearn_predict_after_cross_val_not_fitted: 2.77 s / 2.67 s
  [16] sklearn_kmeans_log_zero_recency_inf: 2.84 s / 2.74 s
  [17] keras_save_without_keras_extension: 2.38 s / 2.48 s
  [20] torch_batchnorm_last_batch_size_one: 2.97 s / 3.00 s
  [22] torch_load_full_model_weights_only: 3.06 s / 2.99 s
  [25] seaborn_heatmap_corr_with_text_columns: 2.60 s / 2.56 s
  [26] xgboost_per_store_models_nan_label: 2.66 s / 2.69 s
  [27] lightgbm_test_category_left_as_object: 2.74 s / 2.68 s
  [28] python_vocab_loop_none_text: 2.97 s / 3.09 s

Short (15), each under 0.05 s (well under 1 s):
  [1] pandas_dataframe_append_removed: 0.004 s / 0.004 s
  [3] pandas_groupby_mean_text_columns: 0.001 s / 0.001 s
  [4] pandas_series_negative_index_label: 0.000 s / 0.000 s
  [6] pandas_merge_int_vs_object_key: 0.001 s / 0.001 s
  [7] numpy_trapz_removed_roc_auc: 0.004 s / 0.004 s
  [9] numpy_standardize_wrong_axis_broadcast: 0.000 s / 0.000 s
  [10] sklearn_onehot_sparse_argument_removed: 0.000 s / 0.000 s
  [12] sklearn_logreg_nan_after_merge: 0.002 s / 0.002 s
  [15] sklearn_predict_test_with_id_column: 0.000 s / 0.000 s
  [18] keras_predict_single_sample_1d: 0.024 s / 0.028 s
  [19] keras_categorical_loss_with_integer_labels: 0.046 s / 0.041 s
  [21] torch_float64_input_float32_weights: 0.003 s / 0.002 s
  [23] torch_view_on_transposed_tensor: 0.008 s / 0.005 s
  [24] matplotlib_seaborn_style_renamed: 0.000 s / 0.000 s
  [29] python_json_dump_numpy_int64: 0.000 s / 0.000 s
"""


PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup, crash, fixed))


# [0] pandas: daily store files are aggregated in a loop; files from the last week use capitalised column names
_add(
    "pandas_daily_files_renamed_columns",
    r'''
import glob
import os

import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
os.makedirs('data/sales', exist_ok=True)
items = pd.DataFrame({'item': np.arange(1, 301),
                      'category': rng.choice(['grocery', 'drinks', 'household', 'snacks', 'frozen'], 300),
                      'cost_ratio': rng.uniform(0.4, 0.8, 300).round(2)})
days = pd.date_range('2023-03-01', periods=92, freq='D')
for i, day in enumerate(days):
    n = 75_000
    df = pd.DataFrame({
        'date': day.strftime('%Y-%m-%d'),
        'store': rng.integers(1, 51, n),
        'item': rng.integers(1, 301, n),
        'units': rng.poisson(3, n),
        'price': np.round(rng.uniform(0.5, 30.0, n), 2),
    })
    if i >= 86:
        df = df.rename(columns={'units': 'Units', 'price': 'Price'})
    df.to_csv(f'data/sales/sales_{day:%Y%m%d}.csv', index=False)
print(len(glob.glob('data/sales/*.csv')), 'daily files')
''',
    r'''
daily = []
for path in sorted(glob.glob('data/sales/*.csv')):
    df = pd.read_csv(path, parse_dates=['date'])
    df['revenue'] = df['units'] * df['price']
    df['weekday'] = df['date'].dt.dayofweek
    df = df.merge(items, on='item', how='left')
    df['margin'] = df['revenue'] * (1 - df['cost_ratio'])
    agg = (df.groupby(['store', 'item'], as_index=False)
             .agg(units=('units', 'sum'), revenue=('revenue', 'sum'), margin=('margin', 'sum'),
                  n_tx=('units', 'size')))
    mix = df.pivot_table(index='store', columns='category', values='revenue', aggfunc='sum')
    agg = agg.merge(mix.div(mix.sum(axis=1), axis=0).add_prefix('share_'), on='store', how='left')
    agg['date'] = df['date'].iloc[0]
    agg['weekday'] = df['weekday'].iloc[0]
    daily.append(agg)
sales = pd.concat(daily, ignore_index=True)
print(sales.shape)
''',
    r'''
daily = []
for path in sorted(glob.glob('data/sales/*.csv')):
    df = pd.read_csv(path, parse_dates=['date'])
    df.columns = df.columns.str.strip().str.lower()
    df['revenue'] = df['units'] * df['price']
    df['weekday'] = df['date'].dt.dayofweek
    df = df.merge(items, on='item', how='left')
    df['margin'] = df['revenue'] * (1 - df['cost_ratio'])
    agg = (df.groupby(['store', 'item'], as_index=False)
             .agg(units=('units', 'sum'), revenue=('revenue', 'sum'), margin=('margin', 'sum'),
                  n_tx=('units', 'size')))
    mix = df.pivot_table(index='store', columns='category', values='revenue', aggfunc='sum')
    agg = agg.merge(mix.div(mix.sum(axis=1), axis=0).add_prefix('share_'), on='store', how='left')
    agg['date'] = df['date'].iloc[0]
    agg['weekday'] = df['weekday'].iloc[0]
    daily.append(agg)
sales = pd.concat(daily, ignore_index=True)
print(sales.shape)
''',
)

# [1] pandas: model comparison table built with DataFrame.append, removed in pandas 2.0
_add(
    "pandas_dataframe_append_removed",
    r'''
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

X, y = make_classification(n_samples=2000, n_features=15, n_informative=6, random_state=1)
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.25, random_state=1)
models = {
    'logreg': LogisticRegression(max_iter=500),
    'tree': DecisionTreeClassifier(max_depth=5, random_state=1),
    'naive_bayes': GaussianNB(),
}
''',
    r'''
results = pd.DataFrame(columns=['model', 'accuracy', 'f1', 'auc'])
for name, model in models.items():
    model.fit(X_train, y_train)
    pred = model.predict(X_val)
    proba = model.predict_proba(X_val)[:, 1]
    results = results.append({'model': name,
                              'accuracy': accuracy_score(y_val, pred),
                              'f1': f1_score(y_val, pred),
                              'auc': roc_auc_score(y_val, proba)}, ignore_index=True)
results.sort_values('auc', ascending=False)
''',
    r'''
rows = []
for name, model in models.items():
    model.fit(X_train, y_train)
    pred = model.predict(X_val)
    proba = model.predict_proba(X_val)[:, 1]
    rows.append({'model': name,
                 'accuracy': accuracy_score(y_val, pred),
                 'f1': f1_score(y_val, pred),
                 'auc': roc_auc_score(y_val, proba)})
results = pd.DataFrame(rows, columns=['model', 'accuracy', 'f1', 'auc'])
results.sort_values('auc', ascending=False)
''',
)

# [2] pandas: rolling store features, then pivot to a date x store matrix; one store-day was reported twice
_add(
    "pandas_pivot_duplicate_store_day",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
dates = pd.date_range('2022-01-01', '2023-12-31', freq='D')
stores = np.arange(1, 201)
sales = (pd.MultiIndex.from_product([stores, dates], names=['store', 'date'])
           .to_frame(index=False))
sales['sales'] = rng.gamma(2.0, 150.0, len(sales)).round(2)
sales['promo'] = rng.random(len(sales)) < 0.1
resent = sales[(sales['store'] == 117) & (sales['date'] == '2023-12-30')]
sales = pd.concat([sales, resent.assign(sales=resent['sales'] * 1.02)], ignore_index=True)
sales = sales.sort_values(['store', 'date'], kind='stable').reset_index(drop=True)
print(sales.shape)
''',
    r'''
g = sales.groupby('store')['sales']
sales['sales_7d'] = g.transform(lambda s: s.rolling(7, min_periods=1).mean())
sales['sales_28d'] = g.transform(lambda s: s.rolling(28, min_periods=1).mean())
sales['p90_14d'] = g.transform(lambda s: s.rolling(14, min_periods=1).apply(lambda w: np.percentile(w, 90), raw=True))
sales['dow'] = sales['date'].dt.dayofweek
sales['dow_ratio'] = sales['sales'] / sales.groupby(['store', 'dow'])['sales'].transform('mean')

wide = sales.pivot(index='date', columns='store', values='sales_7d')
corr = wide.pct_change().corr()
print(wide.shape, corr.shape)
''',
    r'''
g = sales.groupby('store')['sales']
sales['sales_7d'] = g.transform(lambda s: s.rolling(7, min_periods=1).mean())
sales['sales_28d'] = g.transform(lambda s: s.rolling(28, min_periods=1).mean())
sales['p90_14d'] = g.transform(lambda s: s.rolling(14, min_periods=1).apply(lambda w: np.percentile(w, 90), raw=True))
sales['dow'] = sales['date'].dt.dayofweek
sales['dow_ratio'] = sales['sales'] / sales.groupby(['store', 'dow'])['sales'].transform('mean')

wide = sales.pivot_table(index='date', columns='store', values='sales_7d', aggfunc='mean')
corr = wide.pct_change().corr()
print(wide.shape, corr.shape)
''',
)

# [3] pandas: groupby().mean() over a frame with text columns (numeric_only default changed in pandas 2.0)
_add(
    "pandas_groupby_mean_text_columns",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n = 891
pclass = rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55])
df = pd.DataFrame({
    'PassengerId': np.arange(1, n + 1),
    'Survived': (rng.random(n) < np.where(pclass == 1, 0.63, np.where(pclass == 2, 0.47, 0.24))).astype(int),
    'Pclass': pclass,
    'Name': [f'Passenger{i}, {t} John' for i, t in zip(range(n), rng.choice(['Mr.', 'Mrs.', 'Miss.', 'Master.'], n))],
    'Sex': rng.choice(['male', 'female'], n, p=[0.65, 0.35]),
    'Age': np.where(rng.random(n) < 0.2, np.nan, rng.normal(30, 14, n).clip(0.4, 80).round(1)),
    'SibSp': rng.poisson(0.5, n),
    'Parch': rng.poisson(0.4, n),
    'Ticket': [f'A/{x}' for x in rng.integers(1000, 99999, n)],
    'Fare': np.round(rng.gamma(2.0, 16.0, n) * (4 - pclass), 2),
    'Cabin': np.where(rng.random(n) < 0.77, None, 'C85'),
    'Embarked': rng.choice(['S', 'C', 'Q'], n, p=[0.72, 0.19, 0.09]),
})
df.head()
''',
    r'''
class_summary = df.groupby('Pclass').mean()
class_summary[['Survived', 'Age', 'Fare']].round(2)
''',
    r'''
class_summary = df.groupby('Pclass').mean(numeric_only=True)
class_summary[['Survived', 'Age', 'Fare']].round(2)
''',
)

# [4] pandas: last close taken with s[-1] on a RangeIndex Series (label lookup, not position)
_add(
    "pandas_series_negative_index_label",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
dates = pd.bdate_range('2021-01-04', periods=750)
close = 100 * np.exp(np.cumsum(rng.normal(0.0004, 0.015, len(dates))))
prices = pd.DataFrame({'date': dates, 'close': close.round(2),
                       'volume': rng.integers(1_000_000, 5_000_000, len(dates))})
prices = prices[prices['volume'] > 1_200_000].reset_index(drop=True)
prices['return'] = prices['close'].pct_change()
prices.tail()
''',
    r'''
first_close = prices['close'][0]
last_close = prices['close'][-1]
total_return = last_close / first_close - 1
ann_vol = prices['return'].std() * np.sqrt(252)
print(f'Total return: {total_return:.2%}, annualised vol: {ann_vol:.2%}')
''',
    r'''
first_close = prices['close'].iloc[0]
last_close = prices['close'].iloc[-1]
total_return = last_close / first_close - 1
ann_vol = prices['return'].std() * np.sqrt(252)
print(f'Total return: {total_return:.2%}, annualised vol: {ann_vol:.2%}')
''',
)

# [5] pandas: transaction features, then to_datetime; rows appended from the mobile app use a day-first format
_add(
    "pandas_to_datetime_mixed_formats_late_rows",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n_web, n_app = 920_000, 50_000
ts_web = pd.Timestamp('2023-01-01') + pd.to_timedelta(rng.integers(0, 300 * 86400, n_web), unit='s')
ts_app = pd.Timestamp('2023-10-28') + pd.to_timedelta(rng.integers(0, 60 * 86400, n_app), unit='s')
merchants = np.array(['TESCO', 'AMAZON', 'SHELL', 'STARBUCKS', 'UBER', 'IKEA', 'ZARA', 'NETFLIX'])
cities = np.array(['LONDON', 'LEEDS', 'BRISTOL', 'ONLINE', 'YORK', 'BATH'])
channel = rng.choice(['POS', 'WEB', 'CONTACTLESS'], n_web + n_app)
desc = (pd.Series(channel) + ' PURCHASE ' + pd.Series(rng.integers(1000, 9999, n_web + n_app)).astype(str)
        + ' ' + pd.Series(rng.choice(merchants, n_web + n_app)) + ' ' + pd.Series(rng.choice(cities, n_web + n_app)))
tx = pd.DataFrame({
    'timestamp': np.concatenate([ts_web.strftime('%Y-%m-%d %H:%M:%S'), ts_app.strftime('%d/%m/%Y %H:%M')]),
    'description': desc.values,
    'amount': np.round(rng.lognormal(3.0, 1.0, n_web + n_app), 2),
})
print(tx.shape)
''',
    r'''
parts = tx['description'].str.split(' ')
tx['channel'] = parts.str[0]
tx['merchant'] = parts.str[3]
tx['city'] = tx['description'].str.extract(r'([A-Z]+)$', expand=False)
tx['is_online'] = tx['description'].str.contains('WEB|ONLINE', regex=True)
tx['ref'] = tx['description'].str.extract(r'PURCHASE (\d+)', expand=False).astype(int)
tx['amount_decile'] = pd.qcut(tx['amount'], 10, labels=False)
tx['merchant_share'] = tx.groupby('merchant')['amount'].transform(lambda s: s / s.sum())
tx['ts'] = pd.to_datetime(tx['timestamp'])
tx['hour'] = tx['ts'].dt.hour
tx['month'] = tx['ts'].dt.month
print(tx.groupby('month')['amount'].sum())
''',
    r'''
parts = tx['description'].str.split(' ')
tx['channel'] = parts.str[0]
tx['merchant'] = parts.str[3]
tx['city'] = tx['description'].str.extract(r'([A-Z]+)$', expand=False)
tx['is_online'] = tx['description'].str.contains('WEB|ONLINE', regex=True)
tx['ref'] = tx['description'].str.extract(r'PURCHASE (\d+)', expand=False).astype(int)
tx['amount_decile'] = pd.qcut(tx['amount'], 10, labels=False)
tx['merchant_share'] = tx.groupby('merchant')['amount'].transform(lambda s: s / s.sum())
ts = pd.to_datetime(tx['timestamp'], format='%Y-%m-%d %H:%M:%S', errors='coerce')
tx['ts'] = ts.fillna(pd.to_datetime(tx['timestamp'], format='%d/%m/%Y %H:%M', errors='coerce'))
tx['hour'] = tx['ts'].dt.hour
tx['month'] = tx['ts'].dt.month
print(tx.groupby('month')['amount'].sum())
''',
)

# [6] pandas: merge on store_id where the store metadata came from JSON with string ids
_add(
    "pandas_merge_int_vs_object_key",
    r'''
import json

import numpy as np
import pandas as pd

rng = np.random.default_rng(6)
train = pd.DataFrame({
    'store_id': rng.integers(1, 46, 6000),
    'week': rng.integers(1, 53, 6000),
    'weekly_sales': np.round(rng.gamma(3.0, 5000.0, 6000), 2),
})
meta = [{'store_id': str(i), 'type': str(rng.choice(['A', 'B', 'C'])), 'size': int(rng.integers(30000, 220000))}
        for i in range(1, 46)]
with open('stores.json', 'w') as f:
    json.dump(meta, f)
with open('stores.json') as f:
    stores = pd.DataFrame(json.load(f))
stores.dtypes
''',
    r'''
train = train.merge(stores, on='store_id', how='left')
train['sales_per_sqft'] = train['weekly_sales'] / train['size']
train.groupby('type')['sales_per_sqft'].describe()
''',
    r'''
stores['store_id'] = stores['store_id'].astype(int)
train = train.merge(stores, on='store_id', how='left')
train['sales_per_sqft'] = train['weekly_sales'] / train['size']
train.groupby('type')['sales_per_sqft'].describe()
''',
)
# [7] numpy: hand-rolled ROC curve integrated with np.trapz, removed in NumPy 2.4
_add(
    "numpy_trapz_removed_roc_auc",
    r'''
import numpy as np

rng = np.random.default_rng(8)
n = 5000
y_true = (rng.random(n) < 0.3).astype(int)
scores = np.clip(0.35 * y_true + rng.normal(0.35, 0.2, n), 0, 1)
''',
    r'''
thresholds = np.linspace(0, 1, 201)[::-1]
tpr, fpr = [], []
for t in thresholds:
    pred = scores >= t
    tpr.append(np.sum(pred & (y_true == 1)) / np.sum(y_true == 1))
    fpr.append(np.sum(pred & (y_true == 0)) / np.sum(y_true == 0))
auc = np.trapz(tpr, fpr)
print(f'AUC = {auc:.4f}')
''',
    r'''
thresholds = np.linspace(0, 1, 201)[::-1]
tpr, fpr = [], []
for t in thresholds:
    pred = scores >= t
    tpr.append(np.sum(pred & (y_true == 1)) / np.sum(y_true == 1))
    fpr.append(np.sum(pred & (y_true == 0)) / np.sum(y_true == 0))
auc = np.trapezoid(tpr, fpr)
print(f'AUC = {auc:.4f}')
''',
)

# [8] numpy: rolling OLS betas per ticker via the normal equations; one sector's index is all zeros (filled gaps)
_add(
    "numpy_rolling_ols_singular_matrix",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(88)
n_days, n_tickers = 1700, 260
sectors = ['energy', 'financials', 'health', 'industrials', 'materials', 'tech', 'utilities']
market = rng.normal(0.0003, 0.011, n_days)
sector_ret = {s: 0.6 * market + rng.normal(0, 0.008, n_days) for s in sectors}
sector_ret['utilities'] = np.full(n_days, np.nan)          # vendor file missing for this sector
sector_ret = pd.DataFrame(sector_ret).fillna(0.0)
tickers = pd.DataFrame({'ticker': [f'T{i:03d}' for i in range(n_tickers)],
                        'sector': sorted(rng.choice(sectors, n_tickers, p=[.15, .15, .15, .15, .15, .2, .05]))})
returns = np.empty((n_days, n_tickers))
for j, sec in enumerate(tickers['sector']):
    returns[:, j] = (rng.normal(0, 0.3) + rng.normal(1, 0.2) * market
                     + rng.normal(0.5, 0.2) * sector_ret[sec].to_numpy() + rng.normal(0, 0.012, n_days))
window, step = 120, 2
print(tickers['sector'].value_counts())
''',
    r'''
betas = {}
for j, (tic, sec) in enumerate(zip(tickers['ticker'], tickers['sector'])):
    X_full = np.column_stack([np.ones(n_days), market, sector_ret[sec].to_numpy()])
    rows = []
    for start in range(0, n_days - window + 1, step):
        X = X_full[start:start + window]
        y = returns[start:start + window, j]
        XtX_inv = np.linalg.inv(X.T @ X)
        b = XtX_inv @ X.T @ y
        resid = y - X @ b
        se = np.sqrt(np.diag(XtX_inv) * resid.var(ddof=3))
        rows.append(np.concatenate([b, b / se]))
    betas[tic] = np.array(rows)
print(len(betas), 'tickers done')
''',
    r'''
betas = {}
for j, (tic, sec) in enumerate(zip(tickers['ticker'], tickers['sector'])):
    X_full = np.column_stack([np.ones(n_days), market, sector_ret[sec].to_numpy()])
    rows = []
    for start in range(0, n_days - window + 1, step):
        X = X_full[start:start + window]
        y = returns[start:start + window, j]
        XtX_inv = np.linalg.pinv(X.T @ X)
        b = XtX_inv @ X.T @ y
        resid = y - X @ b
        se = np.sqrt(np.diag(XtX_inv) * resid.var(ddof=3))
        with np.errstate(divide='ignore', invalid='ignore'):
            rows.append(np.concatenate([b, b / se]))
    betas[tic] = np.array(rows)
print(len(betas), 'tickers done')
''',
)

# [9] numpy: manual standardisation with statistics taken along the wrong axis
_add(
    "numpy_standardize_wrong_axis_broadcast",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(9)
df = pd.DataFrame(rng.normal([50, 3, 120, 0.5, 8, 1000, 30, 2], [10, 1, 25, 0.1, 3, 300, 8, 0.5], size=(1200, 8)),
                  columns=['age', 'tenure', 'monthly_fee', 'usage_ratio', 'calls', 'data_mb', 'sms', 'complaints'])
X = df.to_numpy()
''',
    r'''
mu = X.mean(axis=1)
sigma = X.std(axis=1)
X_std = (X - mu) / sigma
cov = X_std.T @ X_std / (len(X_std) - 1)
eigvals = np.linalg.eigvalsh(cov)[::-1]
print('explained variance ratio:', np.round(eigvals / eigvals.sum(), 3))
''',
    r'''
mu = X.mean(axis=0)
sigma = X.std(axis=0)
X_std = (X - mu) / sigma
cov = X_std.T @ X_std / (len(X_std) - 1)
eigvals = np.linalg.eigvalsh(cov)[::-1]
print('explained variance ratio:', np.round(eigvals / eigvals.sum(), 3))
''',
)
# [10] scikit-learn: OneHotEncoder(sparse=False), the argument was renamed to sparse_output
_add(
    "sklearn_onehot_sparse_argument_removed",
    r'''
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(10)
n = 3000
df = pd.DataFrame({
    'age': rng.integers(17, 80, n),
    'workclass': rng.choice(['Private', 'Self-emp', 'Federal-gov', 'Local-gov'], n),
    'education': rng.choice(['HS-grad', 'Bachelors', 'Masters', 'Some-college', 'Doctorate'], n),
    'marital_status': rng.choice(['Married', 'Never-married', 'Divorced'], n),
    'occupation': rng.choice(['Tech-support', 'Sales', 'Exec-managerial', 'Craft-repair'], n),
    'hours_per_week': rng.integers(10, 70, n),
    'income_gt_50k': rng.integers(0, 2, n),
})
cat_cols = ['workclass', 'education', 'marital_status', 'occupation']
''',
    r'''
ohe = OneHotEncoder(sparse=False, handle_unknown='ignore')
X_cat = ohe.fit_transform(df[cat_cols])
X_cat_df = pd.DataFrame(X_cat, columns=ohe.get_feature_names_out(cat_cols), index=df.index)
X = pd.concat([df[['age', 'hours_per_week']], X_cat_df], axis=1)
print(X.shape)
''',
    r'''
ohe = OneHotEncoder(sparse_output=False, handle_unknown='ignore')
X_cat = ohe.fit_transform(df[cat_cols])
X_cat_df = pd.DataFrame(X_cat, columns=ohe.get_feature_names_out(cat_cols), index=df.index)
X = pd.concat([df[['age', 'hours_per_week']], X_cat_df], axis=1)
print(X.shape)
''',
)

# [11] scikit-learn: random-forest pipeline trains, then the test set contains a city never seen in training
_add(
    "sklearn_onehot_unknown_category_at_predict",
    r'''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(11)
cities = [f'city_{i:02d}' for i in range(20)]

def make_frame(n, city_pool):
    df = pd.DataFrame({
        'city': rng.choice(city_pool, n),
        'plan': rng.choice(['basic', 'plus', 'premium'], n),
        'tenure_months': rng.integers(1, 72, n),
        'monthly_charges': rng.normal(65, 20, n).round(2),
        'support_calls': rng.poisson(1.5, n),
        'data_gb': rng.gamma(2.0, 6.0, n).round(1),
    })
    logit = -1.0 + 0.35 * df['support_calls'] - 0.03 * df['tenure_months'] + 0.01 * df['monthly_charges']
    df['churn'] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return df

train = make_frame(20_000, cities)
test = make_frame(8_000, cities + ['city_new_branch'])
num_cols = ['tenure_months', 'monthly_charges', 'support_calls', 'data_gb']
cat_cols = ['city', 'plan']
X_train, y_train = train[num_cols + cat_cols], train['churn']
X_test = test[num_cols + cat_cols]
''',
    r'''
preprocess = ColumnTransformer([
    ('num', StandardScaler(), num_cols),
    ('cat', OneHotEncoder(), cat_cols),
])
clf = Pipeline([('prep', preprocess),
                ('rf', RandomForestClassifier(n_estimators=50, min_samples_leaf=3, random_state=0))])
clf.fit(X_train, y_train)
test['churn_proba'] = clf.predict_proba(X_test)[:, 1]
test[['city', 'churn_proba']].head()
''',
    r'''
preprocess = ColumnTransformer([
    ('num', StandardScaler(), num_cols),
    ('cat', OneHotEncoder(handle_unknown='ignore'), cat_cols),
])
clf = Pipeline([('prep', preprocess),
                ('rf', RandomForestClassifier(n_estimators=50, min_samples_leaf=3, random_state=0))])
clf.fit(X_train, y_train)
test['churn_proba'] = clf.predict_proba(X_test)[:, 1]
test[['city', 'churn_proba']].head()
''',
)

# [12] scikit-learn: logistic regression on a frame whose merged income column has gaps (NaN)
_add(
    "sklearn_logreg_nan_after_merge",
    r'''
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.impute import SimpleImputer

rng = np.random.default_rng(12)
n = 4000
loans = pd.DataFrame({'customer_id': np.arange(n), 'loan_amount': rng.gamma(2.0, 5000.0, n).round(0),
                      'term_months': rng.choice([12, 24, 36, 60], n), 'age': rng.integers(19, 75, n)})
bureau = pd.DataFrame({'customer_id': rng.choice(n, int(n * 0.93), replace=False)})
bureau['income'] = rng.lognormal(10.5, 0.5, len(bureau)).round(0)
bureau['n_open_loans'] = rng.poisson(2, len(bureau))
df = loans.merge(bureau, on='customer_id', how='left')
df['default'] = (rng.random(n) < 0.12 + 0.05 * (df['loan_amount'] > 15000)).astype(int)
features = ['loan_amount', 'term_months', 'age', 'income', 'n_open_loans']
X_train, X_val, y_train, y_val = train_test_split(df[features], df['default'], test_size=0.2,
                                                  random_state=12, stratify=df['default'])
''',
    r'''
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000, class_weight='balanced'))
clf.fit(X_train, y_train)
print('val accuracy:', round(clf.score(X_val, y_val), 3))
''',
    r'''
clf = make_pipeline(SimpleImputer(strategy='median'), StandardScaler(),
                    LogisticRegression(max_iter=1000, class_weight='balanced'))
clf.fit(X_train, y_train)
print('val accuracy:', round(clf.score(X_val, y_val), 3))
''',
)

# [13] scikit-learn: gradient boosting trains, then RMSE via mean_squared_error(squared=False), removed in 1.6
_add(
    "sklearn_mse_squared_argument_removed",
    r'''
import numpy as np
import pandas as pd
from sklearn.datasets import make_regression
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error, mean_squared_error, root_mean_squared_error
from sklearn.model_selection import train_test_split

X, y = make_regression(n_samples=12_000, n_features=20, n_informative=12, noise=15.0, random_state=13)
y = y + 300
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=13)
''',
    r'''
gbr = GradientBoostingRegressor(n_estimators=80, max_depth=4, learning_rate=0.08, subsample=0.8, random_state=13)
gbr.fit(X_train, y_train)
pred = gbr.predict(X_val)
rmse = mean_squared_error(y_val, pred, squared=False)
mae = mean_absolute_error(y_val, pred)
print(f'RMSE {rmse:.2f}  MAE {mae:.2f}')
''',
    r'''
gbr = GradientBoostingRegressor(n_estimators=80, max_depth=4, learning_rate=0.08, subsample=0.8, random_state=13)
gbr.fit(X_train, y_train)
pred = gbr.predict(X_val)
rmse = root_mean_squared_error(y_val, pred)
mae = mean_absolute_error(y_val, pred)
print(f'RMSE {rmse:.2f}  MAE {mae:.2f}')
''',
)

# [14] scikit-learn: cross_val_score fits clones only, so predicting with the original pipeline fails
_add(
    "sklearn_predict_after_cross_val_not_fitted",
    r'''
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X, y = make_classification(n_samples=25_000, n_features=30, n_informative=15, weights=[0.8, 0.2],
                           random_state=14)
X_train, y_train = X[:20_000], y[:20_000]
X_test = X[20_000:]
pipe = make_pipeline(StandardScaler(), ExtraTreesClassifier(n_estimators=56, min_samples_leaf=2, random_state=14))
''',
    r'''
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=14)
scores = cross_val_score(pipe, X_train, y_train, cv=cv, scoring='roc_auc')
print(f'CV AUC {scores.mean():.4f} +/- {scores.std():.4f}')
test_proba = pipe.predict_proba(X_test)[:, 1]
submission = pd.DataFrame({'id': np.arange(len(X_test)), 'target': test_proba})
submission.to_csv('submission.csv', index=False)
''',
    r'''
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=14)
scores = cross_val_score(pipe, X_train, y_train, cv=cv, scoring='roc_auc')
print(f'CV AUC {scores.mean():.4f} +/- {scores.std():.4f}')
pipe.fit(X_train, y_train)
test_proba = pipe.predict_proba(X_test)[:, 1]
submission = pd.DataFrame({'id': np.arange(len(X_test)), 'target': test_proba})
submission.to_csv('submission.csv', index=False)
''',
)

# [15] scikit-learn: predicting on the raw test frame, which still carries the id column
_add(
    "sklearn_predict_test_with_id_column",
    r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor

rng = np.random.default_rng(15)

def make_houses(n, start_id):
    df = pd.DataFrame({
        'id': np.arange(start_id, start_id + n),
        'sqft': rng.normal(1800, 500, n).clip(400).round(0),
        'bedrooms': rng.integers(1, 6, n),
        'bathrooms': rng.integers(1, 4, n),
        'year_built': rng.integers(1920, 2022, n),
        'lot_size': rng.gamma(2.0, 3000.0, n).round(0),
    })
    return df

train = make_houses(3000, 1)
train['price'] = (120 * train['sqft'] + 15000 * train['bathrooms'] + 800 * (train['year_built'] - 1920)
                  + rng.normal(0, 30000, len(train))).round(0)
test = make_houses(1000, 3001)
X_train = train.drop(columns=['id', 'price'])
y_train = train['price']
model = RandomForestRegressor(n_estimators=100, max_depth=10, random_state=15, n_jobs=1).fit(X_train, y_train)
''',
    r'''
test_pred = model.predict(test)
submission = pd.DataFrame({'id': test['id'], 'price': test_pred.round(0)})
submission.to_csv('submission.csv', index=False)
submission.head()
''',
    r'''
test_pred = model.predict(test[X_train.columns])
submission = pd.DataFrame({'id': test['id'], 'price': test_pred.round(0)})
submission.to_csv('submission.csv', index=False)
submission.head()
''',
)

# [16] scikit-learn: RFM features per customer, log-transformed; recency is 0 for last-day buyers -> -inf
_add(
    "sklearn_kmeans_log_zero_recency_inf",
    r'''
import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(16)
n_tx, n_customers = 160_000, 8_000
tx = pd.DataFrame({
    'customer_id': rng.integers(0, n_customers, n_tx),
    'invoice_date': pd.Timestamp('2023-01-01') + pd.to_timedelta(rng.integers(0, 365, n_tx), unit='D'),
    'quantity': rng.integers(1, 12, n_tx),
    'unit_price': rng.gamma(2.0, 4.0, n_tx).round(2),
    'category': rng.choice(['home', 'garden', 'toys', 'kitchen', 'party', 'gifts'], n_tx),
})
tx['amount'] = tx['quantity'] * tx['unit_price']
snapshot = tx['invoice_date'].max()
''',
    r'''
def customer_features(g):
    dates = np.sort(g['invoice_date'].unique())
    gaps = np.diff(dates).astype('timedelta64[D]').astype(float)
    return pd.Series({
        'recency': (snapshot - dates[-1]).days,
        'frequency': g['invoice_date'].nunique(),
        'monetary': g['amount'].sum(),
        'avg_gap': gaps.mean() if len(gaps) else 365.0,
        'n_categories': g['category'].nunique(),
        'avg_basket': g.groupby('invoice_date')['amount'].sum().mean(),
    })

rfm = tx.groupby('customer_id').apply(customer_features, include_groups=False)
rfm_log = np.log(rfm[['recency', 'frequency', 'monetary', 'avg_gap', 'avg_basket']])
X = StandardScaler().fit_transform(rfm_log)
km = KMeans(n_clusters=5, n_init=10, random_state=16).fit(X)
rfm['segment'] = km.labels_
rfm.groupby('segment').mean()
''',
    r'''
def customer_features(g):
    dates = np.sort(g['invoice_date'].unique())
    gaps = np.diff(dates).astype('timedelta64[D]').astype(float)
    return pd.Series({
        'recency': (snapshot - dates[-1]).days,
        'frequency': g['invoice_date'].nunique(),
        'monetary': g['amount'].sum(),
        'avg_gap': gaps.mean() if len(gaps) else 365.0,
        'n_categories': g['category'].nunique(),
        'avg_basket': g.groupby('invoice_date')['amount'].sum().mean(),
    })

rfm = tx.groupby('customer_id').apply(customer_features, include_groups=False)
rfm_log = np.log1p(rfm[['recency', 'frequency', 'monetary', 'avg_gap', 'avg_basket']])
X = StandardScaler().fit_transform(rfm_log)
km = KMeans(n_clusters=5, n_init=10, random_state=16).fit(X)
rfm['segment'] = km.labels_
rfm.groupby('segment').mean()
''',
)
# [17] keras: churn MLP trains for several epochs, then model.save() without the .keras extension (Keras 3)
_add(
    "keras_save_without_keras_extension",
    r'''
import numpy as np
import pandas as pd
from tensorflow import keras

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
n, d = 40_000, 24
X = rng.normal(size=(n, d)).astype('float32')
w = rng.normal(size=d)
y = (X @ w + rng.normal(0, 2.0, n) > 0.5).astype('float32')
X_train, X_val, y_train, y_val = X[:32_000], X[32_000:], y[:32_000], y[32_000:]

model = keras.Sequential([
    keras.layers.Input(shape=(d,)),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss='binary_crossentropy', metrics=['AUC'])
''',
    r'''
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=7, batch_size=128, verbose=0)
print(pd.DataFrame(history.history).round(4).tail(3))
model.save('churn_model')
''',
    r'''
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=7, batch_size=128, verbose=0)
print(pd.DataFrame(history.history).round(4).tail(3))
model.save('churn_model.keras')
''',
)

# [18] keras: predicting a single customer passes a 1-D vector instead of a batch of one
_add(
    "keras_predict_single_sample_1d",
    r'''
import numpy as np
import pandas as pd
from tensorflow import keras

keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
feature_names = [f'f{i}' for i in range(20)]
df = pd.DataFrame(rng.normal(size=(2000, 20)), columns=feature_names)
df['target'] = (df['f0'] + 0.5 * df['f3'] - df['f7'] > 0).astype(int)
model = keras.Sequential([
    keras.layers.Input(shape=(20,)),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
model.fit(df[feature_names].to_numpy('float32'), df['target'].to_numpy(), epochs=3, batch_size=64, verbose=0)
new_customer = df.loc[1234, feature_names].to_numpy('float32')
''',
    r'''
proba = model.predict(new_customer, verbose=0)
print(f'churn probability for customer 1234: {proba[0, 0]:.3f}')
''',
    r'''
proba = model.predict(new_customer.reshape(1, -1), verbose=0)
print(f'churn probability for customer 1234: {proba[0, 0]:.3f}')
''',
)

# [19] keras: softmax classifier compiled with categorical_crossentropy but fed integer class labels
_add(
    "keras_categorical_loss_with_integer_labels",
    r'''
import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
n_classes = 10
centers = rng.normal(0, 3, size=(n_classes, 32))
y_train = rng.integers(0, n_classes, 6000)
X_train = (centers[y_train] + rng.normal(size=(6000, 32))).astype('float32')
model = keras.Sequential([
    keras.layers.Input(shape=(32,)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(n_classes, activation='softmax'),
])
''',
    r'''
model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, epochs=5, batch_size=64, validation_split=0.2, verbose=0)
print('val accuracy:', round(history.history['val_accuracy'][-1], 3))
''',
    r'''
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, epochs=5, batch_size=64, validation_split=0.2, verbose=0)
print('val accuracy:', round(history.history['val_accuracy'][-1], 3))
''',
)
# [20] torch: MLP with BatchNorm1d; the last mini-batch of each epoch holds a single sample
_add(
    "torch_batchnorm_last_batch_size_one",
    r'''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(20)
torch.set_num_threads(1)
rng = np.random.default_rng(20)
n, d = 64 * 4000 + 1, 40
X = rng.normal(size=(n, d)).astype('float32')
y = (X[:, :5].sum(axis=1) + rng.normal(0, 1, n) > 0).astype('float32')
train_ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
model = nn.Sequential(
    nn.Linear(d, 256), nn.BatchNorm1d(256), nn.ReLU(),
    nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(),
    nn.Linear(128, 1),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
''',
    r'''
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
for epoch in range(2):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb).squeeze(1), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    print(f'epoch {epoch}: loss {running / len(train_ds):.4f}')
''',
    r'''
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True, drop_last=True)
for epoch in range(2):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb).squeeze(1), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    print(f'epoch {epoch}: loss {running / len(train_ds):.4f}')
''',
)

# [21] torch: tensors built straight from float64 NumPy arrays meet float32 Linear weights
_add(
    "torch_float64_input_float32_weights",
    r'''
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(21)
rng = np.random.default_rng(21)
df = pd.DataFrame(rng.normal(size=(3000, 12)), columns=[f'x{i}' for i in range(12)])
df['y'] = df['x0'] * 2 - df['x5'] + rng.normal(0, 0.3, len(df))
X_train = df.drop(columns='y').to_numpy()
y_train = df['y'].to_numpy()
model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
''',
    r'''
X_t = torch.tensor(X_train)
y_t = torch.tensor(y_train).unsqueeze(1)
for step in range(200):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X_t), y_t)
    loss.backward()
    optimizer.step()
print('final MSE:', round(loss.item(), 4))
''',
    r'''
X_t = torch.tensor(X_train, dtype=torch.float32)
y_t = torch.tensor(y_train, dtype=torch.float32).unsqueeze(1)
for step in range(200):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X_t), y_t)
    loss.backward()
    optimizer.step()
print('final MSE:', round(loss.item(), 4))
''',
)

# [22] torch: whole model saved with torch.save(model) after training; torch.load now defaults to weights_only=True
_add(
    "torch_load_full_model_weights_only",
    r'''
import numpy as np
import torch
from torch import nn

torch.manual_seed(22)
torch.set_num_threads(1)
rng = np.random.default_rng(22)
n, d = 40_000, 32
X = torch.from_numpy(rng.normal(size=(n, d)).astype('float32'))
y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).long()
model = nn.Sequential(nn.Linear(d, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
''',
    r'''
for epoch in range(11):
    perm = torch.randperm(n)
    for i in range(0, n, 128):
        idx = perm[i:i + 128]
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
        loss.backward()
        optimizer.step()
    print(f'epoch {epoch}: last batch loss {loss.item():.4f}')
torch.save(model, 'mlp_full.pt')

reloaded = torch.load('mlp_full.pt')
reloaded.eval()
with torch.no_grad():
    acc = (reloaded(X).argmax(1) == y).float().mean().item()
print('reloaded model accuracy:', round(acc, 4))
''',
    r'''
for epoch in range(11):
    perm = torch.randperm(n)
    for i in range(0, n, 128):
        idx = perm[i:i + 128]
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
        loss.backward()
        optimizer.step()
    print(f'epoch {epoch}: last batch loss {loss.item():.4f}')
torch.save(model, 'mlp_full.pt')

reloaded = torch.load('mlp_full.pt', weights_only=False)
reloaded.eval()
with torch.no_grad():
    acc = (reloaded(X).argmax(1) == y).float().mean().item()
print('reloaded model accuracy:', round(acc, 4))
''',
)

# [23] torch: sequence tagger flattens a transposed conv output with .view() (non-contiguous tensor)
_add(
    "torch_view_on_transposed_tensor",
    r'''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(23)
rng = np.random.default_rng(23)
batch, seq_len, n_feat, n_tags = 32, 50, 6, 4
xb = torch.from_numpy(rng.normal(size=(batch, seq_len, n_feat)).astype('float32'))
yb = torch.from_numpy(rng.integers(0, n_tags, size=(batch, seq_len)))
''',
    r'''
class SeqTagger(nn.Module):
    def __init__(self, n_feat, n_tags, hidden=64):
        super().__init__()
        self.conv = nn.Conv1d(n_feat, hidden, kernel_size=5, padding=2)
        self.head = nn.Linear(hidden, n_tags)

    def forward(self, x):                        # x: (batch, seq, feat)
        h = torch.relu(self.conv(x.transpose(1, 2)))  # (batch, hidden, seq)
        h = h.transpose(1, 2)                     # (batch, seq, hidden)
        return self.head(h.view(-1, h.size(-1)))  # (batch * seq, tags)

tagger = SeqTagger(n_feat, n_tags)
logits = tagger(xb)
loss = F.cross_entropy(logits, yb.view(-1))
loss.backward()
print('loss:', round(loss.item(), 4))
''',
    r'''
class SeqTagger(nn.Module):
    def __init__(self, n_feat, n_tags, hidden=64):
        super().__init__()
        self.conv = nn.Conv1d(n_feat, hidden, kernel_size=5, padding=2)
        self.head = nn.Linear(hidden, n_tags)

    def forward(self, x):                        # x: (batch, seq, feat)
        h = torch.relu(self.conv(x.transpose(1, 2)))  # (batch, hidden, seq)
        h = h.transpose(1, 2)                     # (batch, seq, hidden)
        return self.head(h.reshape(-1, h.size(-1)))  # (batch * seq, tags)

tagger = SeqTagger(n_feat, n_tags)
logits = tagger(xb)
loss = F.cross_entropy(logits, yb.view(-1))
loss.backward()
print('loss:', round(loss.item(), 4))
''',
)
# [24] matplotlib: plt.style.use('seaborn'); the style was renamed to 'seaborn-v0_8' in Matplotlib 3.6
_add(
    "matplotlib_seaborn_style_renamed",
    r'''
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

rng = np.random.default_rng(24)
history = pd.DataFrame({'epoch': np.arange(1, 31)})
history['train_loss'] = 0.9 * np.exp(-history['epoch'] / 8) + 0.1 + rng.normal(0, 0.01, 30)
history['val_loss'] = 0.9 * np.exp(-history['epoch'] / 10) + 0.15 + rng.normal(0, 0.015, 30)
''',
    r'''
plt.style.use('seaborn')
fig, ax = plt.subplots(figsize=(8, 4))
ax.plot(history['epoch'], history['train_loss'], label='train')
ax.plot(history['epoch'], history['val_loss'], label='validation')
ax.set_xlabel('epoch')
ax.set_ylabel('loss')
ax.legend()
fig.savefig('learning_curve.png', dpi=100)
plt.close(fig)
''',
    r'''
plt.style.use('seaborn-v0_8')
fig, ax = plt.subplots(figsize=(8, 4))
ax.plot(history['epoch'], history['train_loss'], label='train')
ax.plot(history['epoch'], history['val_loss'], label='validation')
ax.set_xlabel('epoch')
ax.set_ylabel('loss')
ax.legend()
fig.savefig('learning_curve.png', dpi=100)
plt.close(fig)
''',
)

# [25] seaborn: EDA loop of per-feature plots, then a correlation heatmap over a frame with text columns
_add(
    "seaborn_heatmap_corr_with_text_columns",
    r'''
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

rng = np.random.default_rng(25)
n = 18_000
df = pd.DataFrame({
    'age': rng.integers(18, 90, n),
    'bmi': rng.normal(28, 5, n).round(1),
    'glucose': rng.normal(105, 25, n).round(0),
    'blood_pressure': rng.normal(80, 12, n).round(0),
    'cholesterol': rng.normal(200, 35, n).round(0),
    'heart_rate': rng.normal(72, 10, n).round(0),
    'insulin': rng.gamma(2.0, 40.0, n).round(0),
    'creatinine': rng.normal(1.0, 0.25, n).round(2),
    'sleep_hours': rng.normal(7, 1.2, n).round(1),
    'smoker': rng.choice(['yes', 'no'], n, p=[0.2, 0.8]),
    'region': rng.choice(['north', 'south', 'east', 'west'], n),
})
df['stroke'] = (rng.random(n) < 0.03 + 0.002 * (df['age'] - 18) / 7).astype(int)
num_cols = ['age', 'bmi', 'glucose', 'blood_pressure', 'cholesterol', 'heart_rate', 'insulin',
            'creatinine', 'sleep_hours']
''',
    r'''
for col in num_cols:
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    sns.histplot(data=df, x=col, hue='stroke', kde=True, stat='density', common_norm=False, ax=axes[0])
    sns.boxplot(data=df, x='region', y=col, hue='smoker', ax=axes[1])
    sns.violinplot(data=df, x='stroke', y=col, ax=axes[2])
    fig.savefig(f'eda_{col}.png', dpi=80)
    plt.close(fig)

plt.figure(figsize=(9, 7))
sns.heatmap(df.corr(), annot=True, fmt='.2f', cmap='coolwarm')
plt.savefig('corr_heatmap.png', dpi=80)
plt.close()
''',
    r'''
for col in num_cols:
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    sns.histplot(data=df, x=col, hue='stroke', kde=True, stat='density', common_norm=False, ax=axes[0])
    sns.boxplot(data=df, x='region', y=col, hue='smoker', ax=axes[1])
    sns.violinplot(data=df, x='stroke', y=col, ax=axes[2])
    fig.savefig(f'eda_{col}.png', dpi=80)
    plt.close(fig)

plt.figure(figsize=(9, 7))
sns.heatmap(df.corr(numeric_only=True), annot=True, fmt='.2f', cmap='coolwarm')
plt.savefig('corr_heatmap.png', dpi=80)
plt.close()
''',
)

# [26] xgboost: one regressor per store in a loop; a recently opened store has missing sales labels
_add(
    "xgboost_per_store_models_nan_label",
    r'''
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(26)
frames = []
for store in range(1, 41):
    n = 2500
    f = pd.DataFrame({
        'store': store,
        'dow': rng.integers(0, 7, n),
        'promo': rng.integers(0, 2, n),
        'temperature': rng.normal(15, 8, n).round(1),
        'fuel_price': rng.normal(3.4, 0.3, n).round(3),
        'holiday': (rng.random(n) < 0.03).astype(int),
    })
    f['sales'] = (5000 + 800 * f['promo'] - 150 * f['dow'] + 40 * f['temperature']
                  + 2500 * f['holiday'] + rng.normal(0, 400, n)).round(0)
    if store == 38:
        f.loc[rng.choice(n, 60, replace=False), 'sales'] = np.nan
    frames.append(f)
sales = pd.concat(frames, ignore_index=True)
features = ['dow', 'promo', 'temperature', 'fuel_price', 'holiday']
''',
    r'''
models, scores = {}, {}
for store, g in sales.groupby('store'):
    cut = int(len(g) * 0.8)
    tr, va = g.iloc[:cut], g.iloc[cut:]
    model = xgb.XGBRegressor(n_estimators=400, max_depth=5, learning_rate=0.05, subsample=0.8,
                             n_jobs=1, random_state=26)
    model.fit(tr[features], tr['sales'])
    pred = model.predict(va[features])
    scores[store] = np.sqrt(np.nanmean((va['sales'] - pred) ** 2))
    models[store] = model
print(pd.Series(scores).describe())
''',
    r'''
models, scores = {}, {}
for store, g in sales.groupby('store'):
    g = g.dropna(subset=['sales'])
    cut = int(len(g) * 0.8)
    tr, va = g.iloc[:cut], g.iloc[cut:]
    model = xgb.XGBRegressor(n_estimators=400, max_depth=5, learning_rate=0.05, subsample=0.8,
                             n_jobs=1, random_state=26)
    model.fit(tr[features], tr['sales'])
    pred = model.predict(va[features])
    scores[store] = np.sqrt(np.nanmean((va['sales'] - pred) ** 2))
    models[store] = model
print(pd.Series(scores).describe())
''',
)

# [27] lightgbm: model trained with a pandas category column; the test frame still has it as plain strings
_add(
    "lightgbm_test_category_left_as_object",
    r'''
import lightgbm as lgb
import numpy as np
import pandas as pd

rng = np.random.default_rng(27)

def make_rentals(n):
    return pd.DataFrame({
        'neighbourhood': rng.choice([f'nb_{i}' for i in range(30)], n),
        'room_type': rng.choice(['entire_home', 'private_room', 'shared_room'], n, p=[0.6, 0.35, 0.05]),
        'accommodates': rng.integers(1, 9, n),
        'bedrooms': rng.integers(0, 5, n),
        'reviews': rng.poisson(25, n),
        'rating': rng.uniform(3.0, 5.0, n).round(2),
        'min_nights': rng.integers(1, 15, n),
    })

train = make_rentals(60_000)
train['price'] = (40 + 25 * train['accommodates'] + 30 * train['bedrooms']
                  + 60 * (train['room_type'] == 'entire_home') + rng.normal(0, 20, len(train))).round(0)
test = make_rentals(15_000)
cat_cols = ['neighbourhood', 'room_type']
for c in cat_cols:
    train[c] = train[c].astype('category')
features = cat_cols + ['accommodates', 'bedrooms', 'reviews', 'rating', 'min_nights']
''',
    r'''
params = {'objective': 'regression', 'learning_rate': 0.05, 'num_leaves': 63, 'min_data_in_leaf': 30,
          'feature_fraction': 0.9, 'verbose': -1, 'seed': 27, 'num_threads': 1}
dtrain = lgb.Dataset(train[features], label=train['price'], categorical_feature=cat_cols)
booster = lgb.train(params, dtrain, num_boost_round=2000)
test['price_pred'] = booster.predict(test[features])
test[['neighbourhood', 'room_type', 'price_pred']].head()
''',
    r'''
params = {'objective': 'regression', 'learning_rate': 0.05, 'num_leaves': 63, 'min_data_in_leaf': 30,
          'feature_fraction': 0.9, 'verbose': -1, 'seed': 27, 'num_threads': 1}
dtrain = lgb.Dataset(train[features], label=train['price'], categorical_feature=cat_cols)
booster = lgb.train(params, dtrain, num_boost_round=2000)
for c in cat_cols:
    test[c] = pd.Categorical(test[c], categories=train[c].cat.categories)
test['price_pred'] = booster.predict(test[features])
test[['neighbourhood', 'room_type', 'price_pred']].head()
''',
)

# [28] python: vocabulary/bigram counts over a JSON-lines review dump; one late review has "text": null
_add(
    "python_vocab_loop_none_text",
    r'''
import json
import random
import re
from collections import Counter

random.seed(28)
words = ['great', 'food', 'service', 'slow', 'friendly', 'staff', 'price', 'cheap', 'expensive', 'tasty',
         'cold', 'hot', 'clean', 'dirty', 'again', 'never', 'recommend', 'pizza', 'burger', 'coffee',
         'the', 'was', 'and', 'very', 'not', 'really', 'place', 'order', 'wait', 'time']
with open('reviews.jsonl', 'w') as f:
    for i in range(350_000):
        text = ' '.join(random.choices(words, k=random.randint(8, 40)))
        if random.random() < 0.3:
            text = text.capitalize() + '! ' + random.choice(words).upper() + '.'
        rec = {'review_id': i, 'stars': random.randint(1, 5), 'text': text}
        if i == 341_421:
            rec['text'] = None
        f.write(json.dumps(rec) + '\n')
token_re = re.compile(r"[a-z']+")
stop = {'the', 'was', 'and', 'very', 'really'}
''',
    r'''
vocab, bigrams, by_star = Counter(), Counter(), {s: Counter() for s in range(1, 6)}
lengths = []
with open('reviews.jsonl') as f:
    for line in f:
        rec = json.loads(line)
        tokens = [t for t in token_re.findall(rec['text'].lower()) if t not in stop]
        vocab.update(tokens)
        bigrams.update(zip(tokens, tokens[1:]))
        by_star[rec['stars']].update(tokens)
        lengths.append(len(tokens))
print(len(vocab), 'words;', bigrams.most_common(3))
''',
    r'''
vocab, bigrams, by_star = Counter(), Counter(), {s: Counter() for s in range(1, 6)}
lengths = []
with open('reviews.jsonl') as f:
    for line in f:
        rec = json.loads(line)
        tokens = [t for t in token_re.findall((rec['text'] or '').lower()) if t not in stop]
        vocab.update(tokens)
        bigrams.update(zip(tokens, tokens[1:]))
        by_star[rec['stars']].update(tokens)
        lengths.append(len(tokens))
print(len(vocab), 'words;', bigrams.most_common(3))
''',
)

# [29] python: saving the best hyper-parameters to JSON; values picked from NumPy arrays are np.int64
_add(
    "python_json_dump_numpy_int64",
    r'''
import json

import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier

X, y = make_classification(n_samples=1500, n_features=12, n_informative=5, random_state=29)
depths = np.arange(2, 12)
min_leaves = np.array([1, 5, 20])
cv_scores = np.array([[cross_val_score(DecisionTreeClassifier(max_depth=d, min_samples_leaf=m, random_state=29),
                                       X, y, cv=3).mean() for m in min_leaves] for d in depths])
''',
    r'''
i, j = np.unravel_index(np.argmax(cv_scores), cv_scores.shape)
best = {
    'max_depth': depths[i],
    'min_samples_leaf': min_leaves[j],
    'cv_accuracy': round(cv_scores[i, j], 4),
    'n_candidates': cv_scores.size,
}
with open('best_params.json', 'w') as f:
    json.dump(best, f, indent=2)
print(best)
''',
    r'''
i, j = np.unravel_index(np.argmax(cv_scores), cv_scores.shape)
best = {
    'max_depth': int(depths[i]),
    'min_samples_leaf': int(min_leaves[j]),
    'cv_accuracy': round(float(cv_scores[i, j]), 4),
    'n_candidates': int(cv_scores.size),
}
with open('best_params.json', 'w') as f:
    json.dump(best, f, indent=2)
print(best)
''',
)
