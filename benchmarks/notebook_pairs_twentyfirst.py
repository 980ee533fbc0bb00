r"""The "twentyfirst" set: 30 Jupyter-notebook crash/fix pairs for evaluating a
crash-prediction tool, written independently of the other pair sets.

Fields -- each entry of PAIRS is a tuple ``(name, setup, crash, fixed)`` of plain
strings:

* ``name``   -- library prefix (pandas_, numpy_, sklearn_, keras_, torch_,
  matplotlib_, seaborn_, xgboost_, lightgbm_, python_) plus a snake_case slug;
  unique within the set.
* ``setup``  -- the earlier notebook cells joined together, imports included.  It
  builds seeded synthetic data (np.random.default_rng, random.seed,
  torch.manual_seed, keras.utils.set_random_seed), may write the files it needs
  under relative paths in the current working directory, and pins thread pools
  to one thread (OMP_NUM_THREADS=1 set before imports, torch.set_num_threads(1),
  TF intra/inter-op threads 1, n_jobs=1 / nthread=1 / num_threads=1).
* ``crash``  -- the target cell as first written.  Executed after ``setup`` in the
  same namespace it raises an exception from a library or from Python itself.
* ``fixed``  -- the same cell after a small, realistic edit (setup unchanged).
  Executed after a fresh ``setup`` it completes and does the same work.

No cell uses raise, assert, print or time.sleep.

Layout:

* Pairs 1-15 are LONG: the crash cell does 2-5 s (aimed at about 3 s) of real
  single-threaded work before it fails, and the fixed cell takes about as long.
  The failure comes from data met late in a loop (a late daily CSV, chunk, fold,
  region, batch, test record, log line, sensor file, month or category) or from
  a step after the loop that combines or uses what the loop built (concat of
  per-store series, saving a trained model, scoring the best searched model).
  Loops vary: glob file lists, groupby, read_csv chunk iterators, enumerate over
  dicts, KFold splits, while loops, nested dict x ParameterGrid loops, DataLoader
  epochs, range-stepped streams and file line iteration; accumulations include
  lists, dicts of sets, running Series sums, a running ndarray sum, incremental
  model updates (partial_fit, keras fine-tuning, xgboost warm start).
* Pairs 16-30 are SHORT: the crash cell raises in well under 1 s (everyday
  mistakes: mismatched merge-key dtypes, wrong datetime format, removed
  DataFrame.append, pivot with duplicates, matmul shape mismatch, removed
  np.NaN, removed/renamed keywords, 1-D X, unfitted scaler, wrong loss target
  shape/dtype, numpy() on a grad tensor, x/y length mismatch, unparsable text).

Mix: pandas 7, numpy 3, sklearn 7, keras 3, torch 4, matplotlib 1, seaborn 1,
xgboost 1, lightgbm 1, python 2.

Long pairs (1-15):
 1 pandas_daily_csv_thousands_separator -- 76 daily CSVs; day 70 writes amounts as "1,234.50", astype(float) fails; fix read_csv(thousands=",").
 2 pandas_store_trends_concat_duplicate_dates -- per-store rolling-slope trends; one store's dates were loaded twice, pd.concat(axis=1) cannot reindex; fix drop_duplicates per group.
 3 pandas_chunked_csv_unit_suffix_qty -- chunked read_csv with running totals; a late chunk has "3kg" quantities so qty is object and qty*price fails; fix pd.to_numeric(errors="coerce").
 4 numpy_daily_profile_short_day -- 90 days of per-minute readings despiked with rolling median/MAD and summed into a profile; a late day has 1439 minutes; fix np.pad to 1440.
 5 sklearn_kfold_onehot_unseen_region -- unshuffled 5-fold CV of a OneHotEncoder+GBM pipeline; a new region exists only in the last fold; fix handle_unknown="ignore".
 6 sklearn_streaming_reviews_missing_text -- HashingVectorizer + SGD partial_fit over review batches; a late batch has NaN texts; fix fillna("").
 7 sklearn_model_search_best_svc_predict_proba -- nested model x grid CV search; the winning SVC pipeline has no predict_proba; fix decision_function.
 8 keras_region_finetune_extra_column -- one Keras MLP fine-tuned region by region; the last region carries an extra meter_id column; fix select feature_cols.
 9 keras_har_cnn_save_legacy_path -- Conv1D activity model trained, then saved to an extension-less path; fix ".keras".
10 torch_test_loader_overlong_sequence -- 3-epoch CNN training, then test DataLoader; a late test record has 65 tokens and default_collate fails; fix truncate to SEQ_LEN.
11 torch_online_stream_new_class_id -- single-pass prequential training over a chronological stream; a category id 6 launched late exceeds N_CLASSES=6; fix derive N_CLASSES from data.
12 xgboost_monthly_warm_start_string_flag -- monthly xgb.train warm starts; December's promo flag is "Y"/"N" and DMatrix rejects object dtype; fix map to 0/1.
13 lightgbm_per_category_dummies_json_chars -- per-category LightGBM on brand dummies; the last category's brands contain "," and quotes; fix sanitize column names.
14 python_log_parse_traceback_line -- regex + strptime parsing of 260k log lines; a late traceback line does not match and m.group fails; fix skip None matches.
15 seaborn_sensor_grid_header_space -- 3x4 grid of bootstrapped lineplots from sensor CSVs; the last file's header has spaces after commas; fix skipinitialspace=True.

Short pairs (16-30):
16 pandas_merge_int_key_with_string_key -- merge int customer_id with str customer_id; fix astype(int) on the lookup table.
17 pandas_to_datetime_wrong_format -- to_datetime with "%d/%m/%Y" on US dates; fix "%m/%d/%Y".
18 pandas_dataframe_append_removed -- DataFrame.append (removed in pandas 2); fix pd.concat.
19 pandas_pivot_duplicate_entries -- pivot on repeated respondent/question pairs; fix pivot_table(aggfunc="mean").
20 numpy_matmul_weight_shape_mismatch -- residuals use X instead of the bias-augmented Xb; fix Xb @ w.
21 numpy_nan_alias_removed -- np.NaN (removed in NumPy 2); fix np.nan.
22 sklearn_onehot_sparse_keyword_removed -- OneHotEncoder(sparse=False); fix sparse_output=False.
23 sklearn_single_feature_1d_input -- LinearRegression.fit on a Series; fix double brackets.
24 sklearn_scaler_transform_before_fit -- StandardScaler.transform before fit; fix fit_transform on train.
25 sklearn_rmse_squared_keyword_removed -- mean_squared_error(squared=False); fix root_mean_squared_error.
26 keras_categorical_loss_integer_labels -- categorical_crossentropy with integer labels; fix sparse_categorical_crossentropy.
27 torch_cross_entropy_float_targets -- CrossEntropyLoss with float class targets; fix dtype=torch.long.
28 torch_numpy_on_tensor_requiring_grad -- .numpy() on a prediction that requires grad; fix torch.no_grad().
29 matplotlib_plot_length_mismatch_after_dropna -- plotting full date column against a dropna'd series; fix align dates on pm.index.
30 python_json_loads_single_quoted_records -- json.loads on str(dict) lines; fix ast.literal_eval.
"""

PAIRS = [
    (
        'pandas_daily_csv_thousands_separator',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import glob
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
os.makedirs("data/daily", exist_ok=True)
days = pd.date_range("2024-03-01", periods=76, freq="D")
stores = [f"ST{i:02d}" for i in range(56)]
skus = [f"SKU{i:04d}" for i in range(300)]
for k, day in enumerate(days):
    n = 10000
    ts = day + pd.to_timedelta(np.sort(rng.integers(0, 86400, n)), unit="s")
    amount = np.round(rng.lognormal(4.2, 1.1, n), 2)
    df = pd.DataFrame({
        "ts": ts,
        "store": rng.choice(stores, n),
        "sku": rng.choice(skus, n),
        "qty": rng.integers(1, 6, n),
        "amount": amount,
    })
    if k == 69:
        # this day came from the new POS export, which formats amounts as "1,234.50"
        df["amount"] = [f"{v:,.2f}" for v in amount]
    df.to_csv(f"data/daily/sales_{day:%Y%m%d}.csv", index=False)
''',
        '''frames = []
for path in sorted(glob.glob("data/daily/sales_*.csv")):
    day = pd.read_csv(path, parse_dates=["ts"])
    day["amount"] = day["amount"].astype(float)
    day = day.sort_values(["store", "ts"])
    day["roll_med"] = day.groupby("store")["amount"].transform(lambda s: s.rolling(25, min_periods=1).median())
    day["hour"] = day["ts"].dt.hour
    hourly = (day.groupby(["store", "hour"])
                 .agg(revenue=("amount", "sum"), roll_med=("roll_med", "median"),
                      basket=("qty", "mean"), n_sku=("sku", "nunique"))
                 .reset_index())
    hourly["date"] = day["ts"].dt.normalize().iloc[0]
    frames.append(hourly)

daily_summary = pd.concat(frames, ignore_index=True)
store_trend = daily_summary.pivot_table(index="date", columns="store", values="revenue", aggfunc="sum")
store_trend.tail()
''',
        '''frames = []
for path in sorted(glob.glob("data/daily/sales_*.csv")):
    day = pd.read_csv(path, parse_dates=["ts"], thousands=",")
    day["amount"] = day["amount"].astype(float)
    day = day.sort_values(["store", "ts"])
    day["roll_med"] = day.groupby("store")["amount"].transform(lambda s: s.rolling(25, min_periods=1).median())
    day["hour"] = day["ts"].dt.hour
    hourly = (day.groupby(["store", "hour"])
                 .agg(revenue=("amount", "sum"), roll_med=("roll_med", "median"),
                      basket=("qty", "mean"), n_sku=("sku", "nunique"))
                 .reset_index())
    hourly["date"] = day["ts"].dt.normalize().iloc[0]
    frames.append(hourly)

daily_summary = pd.concat(frames, ignore_index=True)
store_trend = daily_summary.pivot_table(index="date", columns="store", values="revenue", aggfunc="sum")
store_trend.tail()
''',
    ),
    (
        'pandas_store_trends_concat_duplicate_dates',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
dates = pd.date_range("2022-01-01", "2023-12-31", freq="D")
parts = []
for i in range(95):
    base = rng.uniform(80, 400)
    season = 1 + 0.25 * np.sin(2 * np.pi * dates.dayofyear / 365.25 + rng.uniform(0, 6))
    weekly = 1 + 0.15 * (dates.dayofweek >= 5)
    sales = base * season * weekly * rng.lognormal(0, 0.12, len(dates))
    parts.append(pd.DataFrame({"store": f"S{i:02d}", "date": dates, "sales": sales.round(2),
                               "promo": rng.random(len(dates)) < 0.1}))
sales_df = pd.concat(parts, ignore_index=True)
# store S27 opened in April 2022
sales_df = sales_df[~((sales_df["store"] == "S27") & (sales_df["date"] < "2022-04-01"))]
# and its feed for November 2023 was loaded twice by the ETL job
dup = sales_df[(sales_df["store"] == "S27") & (sales_df["date"].dt.strftime("%Y-%m") == "2023-11")]
sales_df = pd.concat([sales_df, dup], ignore_index=True).sort_values(["store", "date"], kind="stable")

def slope(w):
    x = np.arange(len(w))
    return np.polyfit(x, w, 1)[0]
''',
        '''trend_feats = {}
for store, g in sales_df.groupby("store"):
    s = g.set_index("date")["sales"]
    smooth = s.rolling(7, min_periods=1).mean()
    trend = smooth.rolling(28, min_periods=28).apply(slope, raw=True)
    trend_feats[store] = trend / smooth.rolling(28, min_periods=28).mean()

trend_wide = pd.concat(trend_feats, axis=1)
rising = (trend_wide.iloc[-90:] > 0).mean().sort_values(ascending=False)
rising.head(10)
''',
        '''trend_feats = {}
for store, g in sales_df.groupby("store"):
    g = g.drop_duplicates(subset="date", keep="last")
    s = g.set_index("date")["sales"]
    smooth = s.rolling(7, min_periods=1).mean()
    trend = smooth.rolling(28, min_periods=28).apply(slope, raw=True)
    trend_feats[store] = trend / smooth.rolling(28, min_periods=28).mean()

trend_wide = pd.concat(trend_feats, axis=1)
rising = (trend_wide.iloc[-90:] > 0).mean().sort_values(ascending=False)
rising.head(10)
''',
    ),
    (
        'pandas_chunked_csv_unit_suffix_qty',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(314)
n = 1_650_000
cats = np.array(["produce", "dairy", "bakery", "meat", "frozen", "snacks", "beverages", "household", "pharmacy", "pet"])
tx = pd.DataFrame({
    "tx_id": np.arange(n),
    "customer": rng.integers(0, 40_000, n),
    "category": rng.choice(cats, n),
    "item": np.char.add("item_", rng.integers(0, 5000, n).astype(str)),
    "qty": rng.integers(1, 12, n).astype(object),
    "unit_price": rng.gamma(2.0, 3.5, n).round(2),
})
# the last warehouse feed (rows 552k-556k) reports weighed items with a unit suffix
late = np.arange(1_530_000, 1_534_000)
tx.loc[late[::7], "qty"] = [f"{q}kg" for q in rng.integers(1, 5, len(late[::7]))]
tx.to_csv("transactions.csv", index=False)
''',
        '''units = pd.Series(dtype=float)
revenue = pd.Series(dtype=float)
customers = {}
with pd.read_csv("transactions.csv", chunksize=8_000) as reader:
    for chunk in reader:
        chunk["item"] = chunk["item"].str.upper().str.replace("ITEM_", "SKU-", regex=False)
        qty = chunk["qty"]
        chunk["line_total"] = qty * chunk["unit_price"]
        units = units.add(qty.groupby(chunk["category"]).sum(), fill_value=0)
        revenue = revenue.add(chunk.groupby("category")["line_total"].sum(), fill_value=0)
        for cat, ids in chunk.groupby("category")["customer"]:
            customers.setdefault(cat, set()).update(ids.tolist())

summary = pd.DataFrame({"units": units, "revenue": revenue,
                        "customers": pd.Series({k: len(v) for k, v in customers.items()})})
summary.sort_values("revenue", ascending=False)
''',
        '''units = pd.Series(dtype=float)
revenue = pd.Series(dtype=float)
customers = {}
with pd.read_csv("transactions.csv", chunksize=8_000) as reader:
    for chunk in reader:
        chunk["item"] = chunk["item"].str.upper().str.replace("ITEM_", "SKU-", regex=False)
        qty = pd.to_numeric(chunk["qty"], errors="coerce")
        chunk["line_total"] = qty * chunk["unit_price"]
        units = units.add(qty.groupby(chunk["category"]).sum(), fill_value=0)
        revenue = revenue.add(chunk.groupby("category")["line_total"].sum(), fill_value=0)
        for cat, ids in chunk.groupby("category")["customer"]:
            customers.setdefault(cat, set()).update(ids.tolist())

summary = pd.DataFrame({"units": units, "revenue": revenue,
                        "customers": pd.Series({k: len(v) for k, v in customers.items()})})
summary.sort_values("revenue", ascending=False)
''',
    ),
    (
        'numpy_daily_profile_short_day',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

rng = np.random.default_rng(2024)
n_channels = 8
minute = np.arange(1440)
readings = {}
for d in range(90):
    day = f"2024-{1 + d // 30:02d}-{1 + d % 30:02d}"
    daily = 20 + 5 * np.sin(2 * np.pi * (minute - 300) / 1440)[:, None]
    arr = daily + rng.normal(0, 1.0, (1440, n_channels)) + rng.normal(0, 0.5, n_channels)
    spikes = rng.random((1440, n_channels)) < 0.002
    arr[spikes] += rng.normal(0, 15, spikes.sum())
    readings[day] = arr
# the logger dropped one minute on the DST change day
readings["2024-03-25"] = np.delete(readings["2024-03-25"], 120, axis=0)
''',
        '''profile_sum = np.zeros((1440, n_channels))
spectra = []
spike_counts = []
for i, (day, arr) in enumerate(readings.items()):
    windows = sliding_window_view(arr, 31, axis=0)
    med = np.median(windows, axis=-1)
    med = np.concatenate([np.repeat(med[:1], 15, axis=0), med, np.repeat(med[-1:], 15, axis=0)])
    mad = np.median(np.abs(windows - np.median(windows, axis=-1, keepdims=True)), axis=-1)
    mad = np.concatenate([np.repeat(mad[:1], 15, axis=0), mad, np.repeat(mad[-1:], 15, axis=0)])
    spikes = np.abs(arr - med) > 5 * 1.4826 * (mad + 1e-9)
    clean = np.where(spikes, med, arr)
    spectra.append(np.abs(np.fft.rfft(clean - clean.mean(axis=0), axis=0)) ** 2)
    spike_counts.append(spikes.sum(axis=0))
    profile_sum += clean

mean_profile = profile_sum / len(readings)
dominant_period = 1440 / np.argmax(np.mean(spectra, axis=0)[1:], axis=0).clip(1)
mean_profile.shape, dominant_period
''',
        '''profile_sum = np.zeros((1440, n_channels))
spectra = []
spike_counts = []
for i, (day, arr) in enumerate(readings.items()):
    if arr.shape[0] < 1440:
        arr = np.pad(arr, ((0, 1440 - arr.shape[0]), (0, 0)), mode="edge")
    windows = sliding_window_view(arr, 31, axis=0)
    med = np.median(windows, axis=-1)
    med = np.concatenate([np.repeat(med[:1], 15, axis=0), med, np.repeat(med[-1:], 15, axis=0)])
    mad = np.median(np.abs(windows - np.median(windows, axis=-1, keepdims=True)), axis=-1)
    mad = np.concatenate([np.repeat(mad[:1], 15, axis=0), mad, np.repeat(mad[-1:], 15, axis=0)])
    spikes = np.abs(arr - med) > 5 * 1.4826 * (mad + 1e-9)
    clean = np.where(spikes, med, arr)
    spectra.append(np.abs(np.fft.rfft(clean - clean.mean(axis=0), axis=0)) ** 2)
    spike_counts.append(spikes.sum(axis=0))
    profile_sum += clean

mean_profile = profile_sum / len(readings)
dominant_period = 1440 / np.argmax(np.mean(spectra, axis=0)[1:], axis=0).clip(1)
mean_profile.shape, dominant_period
''',
    ),
    (
        'sklearn_kfold_onehot_unseen_region',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import KFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(99)
n = 5000
loans = pd.DataFrame({
    "applied": pd.date_range("2021-01-01", periods=n, freq="4h"),
    "income": rng.lognormal(10.5, 0.5, n).round(0),
    "loan_amount": rng.lognormal(9.5, 0.7, n).round(0),
    "term_months": rng.choice([12, 24, 36, 60], n),
    "credit_score": rng.normal(680, 60, n).clip(300, 850).round(0),
    "employment": rng.choice(["salaried", "self_employed", "contract", "unemployed"], n, p=[0.6, 0.2, 0.15, 0.05]),
    "region": rng.choice(["north", "south", "east", "west"], n),
})
# the lender expanded to a new region near the end of the period
late = loans.index[-600:]
loans.loc[rng.choice(late, 150, replace=False), "region"] = "islands"
logit = (-3 + 0.00002 * loans["loan_amount"] - 0.000004 * loans["income"]
         - 0.01 * (loans["credit_score"] - 680) + (loans["employment"] == "unemployed") * 1.5)
loans["default"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
num_cols = ["income", "loan_amount", "term_months", "credit_score"]
cat_cols = ["employment", "region"]
''',
        '''X = loans[num_cols + cat_cols]
y = loans["default"]
prep = ColumnTransformer([
    ("num", StandardScaler(), num_cols),
    ("cat", OneHotEncoder(), cat_cols),
])
fold_auc = []
oof = np.zeros(len(loans))
for fold, (tr, va) in enumerate(KFold(n_splits=5).split(X)):
    model = Pipeline([("prep", prep), ("gbm", GradientBoostingClassifier(n_estimators=110, max_depth=3, random_state=0))])
    model.fit(X.iloc[tr], y.iloc[tr])
    oof[va] = model.predict_proba(X.iloc[va])[:, 1]
    fold_auc.append(roc_auc_score(y.iloc[va], oof[va]))

np.mean(fold_auc), roc_auc_score(y, oof)
''',
        '''X = loans[num_cols + cat_cols]
y = loans["default"]
prep = ColumnTransformer([
    ("num", StandardScaler(), num_cols),
    ("cat", OneHotEncoder(handle_unknown="ignore"), cat_cols),
])
fold_auc = []
oof = np.zeros(len(loans))
for fold, (tr, va) in enumerate(KFold(n_splits=5).split(X)):
    model = Pipeline([("prep", prep), ("gbm", GradientBoostingClassifier(n_estimators=110, max_depth=3, random_state=0))])
    model.fit(X.iloc[tr], y.iloc[tr])
    oof[va] = model.predict_proba(X.iloc[va])[:, 1]
    fold_auc.append(roc_auc_score(y.iloc[va], oof[va]))

np.mean(fold_auc), roc_auc_score(y, oof)
''',
    ),
    (
        'sklearn_streaming_reviews_missing_text',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.linear_model import SGDClassifier

rng = np.random.default_rng(5)
neutral = [f"w{i}" for i in range(3000)]
pos = ["great", "love", "excellent", "perfect", "recommend", "happy", "fast", "works", "sturdy", "fantastic"]
neg = ["broken", "refund", "terrible", "slow", "waste", "poor", "returned", "cheap", "disappointed", "awful"]
n = 90_000
labels = rng.integers(0, 2, n)
texts = []
for lab in labels:
    k = rng.integers(15, 45)
    words = list(rng.choice(neutral, k))
    words += list(rng.choice(pos if lab else neg, rng.integers(1, 4)))
    words += list(rng.choice(neg if lab else pos, rng.integers(0, 2)))
    rng.shuffle(words)
    texts.append(" ".join(words))
reviews = pd.DataFrame({"review_id": np.arange(n), "text": texts, "label": labels})
# a handful of late reviews were star-only ratings with no text
reviews.loc[[83_210, 83_877, 84_301], "text"] = np.nan
''',
        '''vec = HashingVectorizer(n_features=2**18, ngram_range=(1, 2), alternate_sign=False, norm="l2")
clf = SGDClassifier(loss="log_loss", alpha=1e-5, random_state=0)
batch_size = 2000
holdout = reviews.iloc[-4000:]
stream = reviews.iloc[:-4000]
start, seen, running_acc = 0, 0, []
while start < len(stream):
    batch = stream.iloc[start:start + batch_size]
    Xb = vec.transform(batch["text"])
    if seen:
        running_acc.append((clf.predict(Xb) == batch["label"].values).mean())
    clf.partial_fit(Xb, batch["label"], classes=[0, 1])
    seen += len(batch)
    start += batch_size

holdout_acc = clf.score(vec.transform(holdout["text"]), holdout["label"])
holdout_acc, np.mean(running_acc[-5:])
''',
        '''vec = HashingVectorizer(n_features=2**18, ngram_range=(1, 2), alternate_sign=False, norm="l2")
clf = SGDClassifier(loss="log_loss", alpha=1e-5, random_state=0)
batch_size = 2000
holdout = reviews.iloc[-4000:]
stream = reviews.iloc[:-4000]
start, seen, running_acc = 0, 0, []
while start < len(stream):
    batch = stream.iloc[start:start + batch_size]
    Xb = vec.transform(batch["text"].fillna(""))
    if seen:
        running_acc.append((clf.predict(Xb) == batch["label"].values).mean())
    clf.partial_fit(Xb, batch["label"], classes=[0, 1])
    seen += len(batch)
    start += batch_size

holdout_acc = clf.score(vec.transform(holdout["text"]), holdout["label"])
holdout_acc, np.mean(running_acc[-5:])
''',
    ),
    (
        'sklearn_model_search_best_svc_predict_proba',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import ParameterGrid, cross_val_score, train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

rng = np.random.default_rng(11)
n, d = 1400, 12
X = rng.normal(size=(n, d))
radius = np.sqrt((X[:, :6] ** 2).sum(axis=1))
y = (radius + rng.normal(0, 0.25, n) > np.sqrt(6)).astype(int)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
''',
        '''candidates = {
    "logreg": (LogisticRegression(max_iter=2000), {"C": [0.1, 1.0, 10.0]}),
    "knn": (KNeighborsClassifier(n_jobs=1), {"n_neighbors": [5, 15, 31]}),
    "rf": (RandomForestClassifier(random_state=0, n_jobs=1), {"n_estimators": [80], "max_depth": [6, None]}),
    "svc": (SVC(), {"C": [1.0, 10.0], "gamma": ["scale", 0.05]}),
}
results = []
for name, (est, grid) in candidates.items():
    for params in ParameterGrid(grid):
        model = make_pipeline(StandardScaler(), clone(est).set_params(**params))
        cv = cross_val_score(model, X_train, y_train, cv=5, scoring="roc_auc", n_jobs=1)
        results.append({"model": name, "params": params, "cv_auc": cv.mean(), "cv_std": cv.std()})

leaderboard = pd.DataFrame(results).sort_values("cv_auc", ascending=False)
top = leaderboard.iloc[0]
best = make_pipeline(StandardScaler(), clone(candidates[top["model"]][0]).set_params(**top["params"]))
best.fit(X_train, y_train)
test_auc = roc_auc_score(y_test, best.predict_proba(X_test)[:, 1])
leaderboard.head(), test_auc
''',
        '''candidates = {
    "logreg": (LogisticRegression(max_iter=2000), {"C": [0.1, 1.0, 10.0]}),
    "knn": (KNeighborsClassifier(n_jobs=1), {"n_neighbors": [5, 15, 31]}),
    "rf": (RandomForestClassifier(random_state=0, n_jobs=1), {"n_estimators": [80], "max_depth": [6, None]}),
    "svc": (SVC(), {"C": [1.0, 10.0], "gamma": ["scale", 0.05]}),
}
results = []
for name, (est, grid) in candidates.items():
    for params in ParameterGrid(grid):
        model = make_pipeline(StandardScaler(), clone(est).set_params(**params))
        cv = cross_val_score(model, X_train, y_train, cv=5, scoring="roc_auc", n_jobs=1)
        results.append({"model": name, "params": params, "cv_auc": cv.mean(), "cv_std": cv.std()})

leaderboard = pd.DataFrame(results).sort_values("cv_auc", ascending=False)
top = leaderboard.iloc[0]
best = make_pipeline(StandardScaler(), clone(candidates[top["model"]][0]).set_params(**top["params"]))
best.fit(X_train, y_train)
test_auc = roc_auc_score(y_test, best.decision_function(X_test))
leaderboard.head(), test_auc
''',
    ),
    (
        'keras_region_finetune_extra_column',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
import numpy as np
import pandas as pd
import tensorflow as tf
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
import keras
from keras import layers

keras.utils.set_random_seed(42)
rng = np.random.default_rng(42)
feature_cols = [f"f{i}" for i in range(10)]
w_true = rng.normal(size=10)
regions = {}
for r in ["alpine", "coastal", "delta", "highland", "metro", "plains", "valley"]:
    n = 1000
    X = rng.normal(size=(n, 10)) + rng.normal(0, 0.3, 10)
    df = pd.DataFrame(X, columns=feature_cols)
    df["load_mw"] = X @ w_true + 0.5 * np.sin(X[:, 0] * 2) + rng.normal(0, 0.3, n)
    regions[r] = df
# the "valley" utility also ships its internal meter id as a numeric column
regions["valley"].insert(4, "meter_id", rng.integers(10_000, 99_999, len(regions["valley"])))

model = keras.Sequential([
    keras.Input(shape=(10,)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse", metrics=["mae"])
''',
        '''region_scores = {}
for region, df in regions.items():
    X = df.drop(columns=["load_mw"]).to_numpy(dtype="float32")
    y = df["load_mw"].to_numpy(dtype="float32")
    hist = model.fit(X, y, epochs=2, batch_size=64, validation_split=0.2, verbose=0)
    region_scores[region] = hist.history["val_mae"][-1]

pd.Series(region_scores).sort_values()
''',
        '''region_scores = {}
for region, df in regions.items():
    X = df[feature_cols].to_numpy(dtype="float32")
    y = df["load_mw"].to_numpy(dtype="float32")
    hist = model.fit(X, y, epochs=2, batch_size=64, validation_split=0.2, verbose=0)
    region_scores[region] = hist.history["val_mae"][-1]

pd.Series(region_scores).sort_values()
''',
    ),
    (
        'keras_har_cnn_save_legacy_path',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
import numpy as np
import tensorflow as tf
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
import keras
from keras import layers

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
n, steps, channels, n_classes = 2850, 64, 3, 4
t = np.linspace(0, 4 * np.pi, steps)
y_all = rng.integers(0, n_classes, n)
freqs = np.array([0.5, 1.0, 2.0, 3.5])
X_all = (np.sin(freqs[y_all][:, None, None] * t[None, :, None] + rng.uniform(0, 6, (n, 1, channels)))
         + rng.normal(0, 0.6, (n, steps, channels))).astype("float32")
X_train, X_val = X_all[:2300], X_all[2300:]
y_train, y_val = y_all[:2300], y_all[2300:]
os.makedirs("models", exist_ok=True)
''',
        '''model = keras.Sequential([
    keras.Input(shape=(steps, channels)),
    layers.Conv1D(32, 5, activation="relu", padding="same"),
    layers.MaxPooling1D(2),
    layers.Conv1D(64, 5, activation="relu", padding="same"),
    layers.GlobalAveragePooling1D(),
    layers.Dense(32, activation="relu"),
    layers.Dense(n_classes, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=4, batch_size=32, verbose=0,
                    callbacks=[keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True)])
model.save("models/har_cnn_v1")
best_val_acc = max(history.history["val_accuracy"])
''',
        '''model = keras.Sequential([
    keras.Input(shape=(steps, channels)),
    layers.Conv1D(32, 5, activation="relu", padding="same"),
    layers.MaxPooling1D(2),
    layers.Conv1D(64, 5, activation="relu", padding="same"),
    layers.GlobalAveragePooling1D(),
    layers.Dense(32, activation="relu"),
    layers.Dense(n_classes, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=4, batch_size=32, verbose=0,
                    callbacks=[keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True)])
model.save("models/har_cnn_v1.keras")
best_val_acc = max(history.history["val_accuracy"])
''',
    ),
    (
        'torch_test_loader_overlong_sequence',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)
VOCAB, SEQ_LEN = 500, 64

def make_records(n):
    labels = rng.integers(0, 3, n)
    seqs = []
    for lab in labels:
        s = rng.integers(3, VOCAB, SEQ_LEN)
        hot = rng.choice(SEQ_LEN, 6, replace=False)
        s[hot] = lab  # class-marker tokens 0/1/2
        seqs.append(s.tolist())
    return seqs, labels.tolist()

train_seqs, train_labels = make_records(4000)
test_seqs, test_labels = make_records(2000)
# one test record was tokenized by the old pipeline that appended an <eos> marker
test_seqs[1400] = test_seqs[1400] + [1]
''',
        '''class TokenDataset(Dataset):
    def __init__(self, seqs, labels):
        self.seqs, self.labels = seqs, labels
    def __len__(self):
        return len(self.seqs)
    def __getitem__(self, i):
        return torch.tensor(self.seqs[i], dtype=torch.long), torch.tensor(self.labels[i])

class ConvClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.conv = nn.Conv1d(32, 64, 5, padding=2)
        self.head = nn.Linear(64, 3)
    def forward(self, x):
        h = torch.relu(self.conv(self.emb(x).transpose(1, 2)))
        return self.head(h.max(dim=2).values)

train_loader = DataLoader(TokenDataset(train_seqs, train_labels), batch_size=64, shuffle=True)
test_loader = DataLoader(TokenDataset(test_seqs, test_labels), batch_size=64, shuffle=False)
model = ConvClassifier()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(3):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()

model.eval()
preds = []
with torch.no_grad():
    for xb, yb in test_loader:
        preds.append(model(xb).argmax(dim=1))
test_acc = (torch.cat(preds) == torch.tensor(test_labels)).float().mean().item()
test_acc
''',
        '''class TokenDataset(Dataset):
    def __init__(self, seqs, labels):
        self.seqs, self.labels = seqs, labels
    def __len__(self):
        return len(self.seqs)
    def __getitem__(self, i):
        return torch.tensor(self.seqs[i][:SEQ_LEN], dtype=torch.long), torch.tensor(self.labels[i])

class ConvClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.conv = nn.Conv1d(32, 64, 5, padding=2)
        self.head = nn.Linear(64, 3)
    def forward(self, x):
        h = torch.relu(self.conv(self.emb(x).transpose(1, 2)))
        return self.head(h.max(dim=2).values)

train_loader = DataLoader(TokenDataset(train_seqs, train_labels), batch_size=64, shuffle=True)
test_loader = DataLoader(TokenDataset(test_seqs, test_labels), batch_size=64, shuffle=False)
model = ConvClassifier()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(3):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()

model.eval()
preds = []
with torch.no_grad():
    for xb, yb in test_loader:
        preds.append(model(xb).argmax(dim=1))
test_acc = (torch.cat(preds) == torch.tensor(test_labels)).float().mean().item()
test_acc
''',
    ),
    (
        'torch_online_stream_new_class_id',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(1)
torch.set_num_threads(1)
rng = np.random.default_rng(1)
n = 85_000
centers = rng.normal(0, 2.0, (7, 24))
cat_id = rng.choice(6, n)
# category 6 ("smart home") was launched near the end of the log
late = np.arange(int(n * 0.93), n)
cat_id[late[rng.random(len(late)) < 0.05]] = 6
events = pd.DataFrame(centers[cat_id] + rng.normal(0, 1.5, (n, 24)), columns=[f"x{i}" for i in range(24)])
events["category_id"] = cat_id
events["ts"] = pd.date_range("2024-01-01", periods=n, freq="37s")
feature_cols = [f"x{i}" for i in range(24)]
''',
        '''N_CLASSES = 6  # per the product data dictionary
net = nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
opt = torch.optim.SGD(net.parameters(), lr=0.02, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
X_all = torch.tensor(events[feature_cols].to_numpy(), dtype=torch.float32)
y_all = torch.tensor(events["category_id"].to_numpy(), dtype=torch.long)
prequential_hits, seen = 0, 0
batch = 32
for start in range(0, len(events), batch):
    xb, yb = X_all[start:start + batch], y_all[start:start + batch]
    logits = net(xb)
    prequential_hits += (logits.argmax(1) == yb).sum().item()
    seen += len(yb)
    loss = loss_fn(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()

prequential_acc = prequential_hits / seen
prequential_acc
''',
        '''N_CLASSES = int(events["category_id"].max()) + 1
net = nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
opt = torch.optim.SGD(net.parameters(), lr=0.02, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
X_all = torch.tensor(events[feature_cols].to_numpy(), dtype=torch.float32)
y_all = torch.tensor(events["category_id"].to_numpy(), dtype=torch.long)
prequential_hits, seen = 0, 0
batch = 32
for start in range(0, len(events), batch):
    xb, yb = X_all[start:start + batch], y_all[start:start + batch]
    logits = net(xb)
    prequential_hits += (logits.argmax(1) == yb).sum().item()
    seen += len(yb)
    loss = loss_fn(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()

prequential_acc = prequential_hits / seen
prequential_acc
''',
    ),
    (
        'xgboost_monthly_warm_start_string_flag',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import glob
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(12)
os.makedirs("monthly", exist_ok=True)
for m in range(1, 13):
    n = 9000
    df = pd.DataFrame({
        "price": rng.uniform(1, 50, n).round(2),
        "discount": rng.uniform(0, 0.4, n).round(3),
        "promo": rng.integers(0, 2, n),
        "stock": rng.integers(0, 500, n),
        "dow": rng.integers(0, 7, n),
        "competitor_price": rng.uniform(1, 50, n).round(2),
        "temp_c": rng.normal(15, 8, n).round(1),
    })
    df["units"] = np.maximum(0, 40 - 0.6 * df["price"] + 30 * df["discount"] + 8 * df["promo"]
                             + 0.3 * (df["competitor_price"] - df["price"]) + rng.normal(0, 4, n)).round()
    if m == 12:
        # December's extract came from the new BI tool, which writes flags as Y/N
        df["promo"] = np.where(df["promo"] == 1, "Y", "N")
    df.to_csv(f"monthly/sales_2023_{m:02d}.csv", index=False)
features = ["price", "discount", "promo", "stock", "dow", "competitor_price", "temp_c"]
params = {"objective": "reg:squarederror", "eta": 0.1, "max_depth": 7, "subsample": 0.8, "nthread": 1, "seed": 0}
''',
        '''booster = None
monthly_rmse = {}
for path in sorted(glob.glob("monthly/sales_2023_*.csv")):
    month = pd.read_csv(path)
    dmat = xgb.DMatrix(month[features], label=month["units"])
    if booster is not None:
        pred = booster.predict(dmat)
        monthly_rmse[path[-6:-4]] = float(np.sqrt(np.mean((pred - month["units"].to_numpy()) ** 2)))
    booster = xgb.train(params, dmat, num_boost_round=62, xgb_model=booster)

pd.Series(monthly_rmse)
''',
        '''booster = None
monthly_rmse = {}
for path in sorted(glob.glob("monthly/sales_2023_*.csv")):
    month = pd.read_csv(path)
    month["promo"] = month["promo"].replace({"Y": 1, "N": 0}).astype(int)
    dmat = xgb.DMatrix(month[features], label=month["units"])
    if booster is not None:
        pred = booster.predict(dmat)
        monthly_rmse[path[-6:-4]] = float(np.sqrt(np.mean((pred - month["units"].to_numpy()) ** 2)))
    booster = xgb.train(params, dmat, num_boost_round=62, xgb_model=booster)

pd.Series(monthly_rmse)
''',
    ),
    (
        'lightgbm_per_category_dummies_json_chars',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.metrics import mean_absolute_error

rng = np.random.default_rng(8)
categories = ["auto", "beauty", "books", "electronics", "garden", "grocery", "health", "kitchen", "sports", "toys"]
rows = []
for cat in categories:
    brands = [f"{cat[:3]}_brand_{j}" for j in range(12)]
    if cat == "toys":
        brands[3] = "Hasbro, Inc."
        brands[7] = 'Lego "Creator"'
    n = 3500
    df = pd.DataFrame({
        "category": cat,
        "brand": rng.choice(brands, n),
        "price": rng.lognormal(3, 0.6, n).round(2),
        "rating": rng.uniform(1, 5, n).round(1),
        "n_reviews": rng.poisson(40, n),
        "weeks_listed": rng.integers(1, 200, n),
    })
    df["weekly_sales"] = np.maximum(0, 60 - 0.5 * df["price"] + 6 * df["rating"] + 0.05 * df["n_reviews"]
                                    + rng.normal(0, 6, n)).round()
    rows.append(df)
catalog = pd.concat(rows, ignore_index=True)
params = {"objective": "regression", "learning_rate": 0.05, "num_leaves": 31, "min_data_in_leaf": 20,
          "num_threads": 1, "verbose": -1, "seed": 0}
''',
        '''models, maes = {}, {}
for cat, g in catalog.groupby("category"):
    X = pd.get_dummies(g.drop(columns=["category", "weekly_sales"]), columns=["brand"], dtype=float)
    y = g["weekly_sales"]
    cut = int(len(g) * 0.8)
    dtrain = lgb.Dataset(X.iloc[:cut], y.iloc[:cut])
    dvalid = lgb.Dataset(X.iloc[cut:], y.iloc[cut:], reference=dtrain)
    booster = lgb.train(params, dtrain, num_boost_round=500, valid_sets=[dvalid])
    models[cat] = booster
    maes[cat] = mean_absolute_error(y.iloc[cut:], booster.predict(X.iloc[cut:]))

pd.Series(maes).sort_values()
''',
        '''models, maes = {}, {}
for cat, g in catalog.groupby("category"):
    X = pd.get_dummies(g.drop(columns=["category", "weekly_sales"]), columns=["brand"], dtype=float)
    X.columns = X.columns.str.replace(r"[^0-9A-Za-z_]+", "_", regex=True)
    y = g["weekly_sales"]
    cut = int(len(g) * 0.8)
    dtrain = lgb.Dataset(X.iloc[:cut], y.iloc[:cut])
    dvalid = lgb.Dataset(X.iloc[cut:], y.iloc[cut:], reference=dtrain)
    booster = lgb.train(params, dtrain, num_boost_round=500, valid_sets=[dvalid])
    models[cat] = booster
    maes[cat] = mean_absolute_error(y.iloc[cut:], booster.predict(X.iloc[cut:]))

pd.Series(maes).sort_values()
''',
    ),
    (
        'python_log_parse_traceback_line',
        r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import random
import re
from collections import Counter, defaultdict
from datetime import datetime, timedelta

random.seed(3)
paths = ["/api/orders", "/api/cart", "/api/search", "/api/login", "/api/products", "/health"]
levels = ["INFO"] * 8 + ["WARN", "ERROR"]
t = datetime(2024, 5, 1)
os.makedirs("logs", exist_ok=True)
with open("logs/app.log", "w") as f:
    for i in range(260_000):
        t += timedelta(milliseconds=random.randint(5, 900))
        if i == 241_337:
            f.write("Traceback (most recent call last):\n")
            f.write('  File "/srv/app/handlers.py", line 88, in checkout\n')
            f.write("KeyError: 'cart_id'\n")
        f.write(f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} {random.choice(levels)} "
                f"[worker-{random.randint(1, 8)}] path={random.choice(paths)} "
                f"status={random.choice([200, 200, 200, 201, 304, 404, 500])} latency_ms={random.randint(3, 2500)}\n")
''',
        r'''LINE_RE = re.compile(r"^(\S+ \S+) (\w+) \[(worker-\d+)\] path=(\S+) status=(\d+) latency_ms=(\d+)$")
latency = defaultdict(list)
per_hour = Counter()
errors_by_worker = Counter()
with open("logs/app.log") as f:
    for line in f:
        m = LINE_RE.match(line.rstrip("\n"))
        ts = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f")
        level, worker, path, status, ms = m.group(2, 3, 4, 5, 6)
        latency[path].append(int(ms))
        per_hour[ts.replace(minute=0, second=0, microsecond=0)] += 1
        if level == "ERROR" or status == "500":
            errors_by_worker[worker] += 1

p95 = {p: sorted(v)[int(0.95 * len(v))] for p, v in latency.items()}
busiest_hour = per_hour.most_common(1)
p95, busiest_hour, errors_by_worker.most_common(3)
''',
        r'''LINE_RE = re.compile(r"^(\S+ \S+) (\w+) \[(worker-\d+)\] path=(\S+) status=(\d+) latency_ms=(\d+)$")
latency = defaultdict(list)
per_hour = Counter()
errors_by_worker = Counter()
with open("logs/app.log") as f:
    for line in f:
        m = LINE_RE.match(line.rstrip("\n"))
        if m is None:
            continue
        ts = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f")
        level, worker, path, status, ms = m.group(2, 3, 4, 5, 6)
        latency[path].append(int(ms))
        per_hour[ts.replace(minute=0, second=0, microsecond=0)] += 1
        if level == "ERROR" or status == "500":
            errors_by_worker[worker] += 1

p95 = {p: sorted(v)[int(0.95 * len(v))] for p, v in latency.items()}
busiest_hour = per_hour.most_common(1)
p95, busiest_hour, errors_by_worker.most_common(3)
''',
    ),
    (
        'seaborn_sensor_grid_header_space',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import glob
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

rng = np.random.default_rng(15)
os.makedirs("sensors", exist_ok=True)
for k in range(12):
    n = 2000
    hour = rng.integers(0, 24, n)
    reading = 50 + 10 * np.sin(2 * np.pi * (hour - 6) / 24) + rng.normal(0, 4 + k * 0.3, n)
    df = pd.DataFrame({"hour": hour, "reading": reading.round(2), "status": rng.choice(["ok", "ok", "ok", "warn"], n)})
    text = df.to_csv(index=False)
    if k == 11:
        # sensor 11's firmware writes "hour, reading, status" with spaces after the commas
        text = text.replace(",", ", ")
    with open(f"sensors/sensor_{k:02d}.csv", "w") as f:
        f.write(text)
''',
        '''files = sorted(glob.glob("sensors/sensor_*.csv"))
fig, axes = plt.subplots(3, 4, figsize=(16, 10), sharey=True)
stats = []
for ax, path in zip(axes.flat, files):
    df = pd.read_csv(path)
    sns.lineplot(data=df, x="hour", y="reading", errorbar=("ci", 95), n_boot=450, seed=0, ax=ax)
    sns.scatterplot(data=df.sample(300, random_state=0), x="hour", y="reading", hue="status",
                    s=8, alpha=0.4, ax=ax, legend=False)
    ax.set_title(os.path.basename(path))
    stats.append(df.groupby("hour")["reading"].agg(["mean", "std"]).assign(sensor=path))
fig.tight_layout()
fig.savefig("sensor_grid.png", dpi=60)
''',
        '''files = sorted(glob.glob("sensors/sensor_*.csv"))
fig, axes = plt.subplots(3, 4, figsize=(16, 10), sharey=True)
stats = []
for ax, path in zip(axes.flat, files):
    df = pd.read_csv(path, skipinitialspace=True)
    sns.lineplot(data=df, x="hour", y="reading", errorbar=("ci", 95), n_boot=450, seed=0, ax=ax)
    sns.scatterplot(data=df.sample(300, random_state=0), x="hour", y="reading", hue="status",
                    s=8, alpha=0.4, ax=ax, legend=False)
    ax.set_title(os.path.basename(path))
    stats.append(df.groupby("hour")["reading"].agg(["mean", "std"]).assign(sensor=path))
fig.tight_layout()
fig.savefig("sensor_grid.png", dpi=60)
''',
    ),
    (
        'pandas_merge_int_key_with_string_key',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(16)
orders = pd.DataFrame({
    "order_id": np.arange(1, 2001),
    "customer_id": rng.integers(1000, 1300, 2000),
    "total": rng.gamma(2.0, 40.0, 2000).round(2),
})
customers = pd.DataFrame({
    "customer_id": [str(c) for c in range(1000, 1300)],
    "segment": rng.choice(["consumer", "corporate", "home_office"], 300),
    "country": rng.choice(["US", "CA", "MX"], 300),
})
''',
        '''enriched = orders.merge(customers, on="customer_id", how="left")
enriched.groupby("segment")["total"].agg(["count", "mean", "sum"])
''',
        '''enriched = orders.merge(customers.astype({"customer_id": int}), on="customer_id", how="left")
enriched.groupby("segment")["total"].agg(["count", "mean", "sum"])
''',
    ),
    (
        'pandas_to_datetime_wrong_format',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(17)
dates = pd.date_range("2023-01-01", periods=500, freq="D")
visits = pd.DataFrame({
    "visit_date": dates.strftime("%m/%d/%Y"),
    "clinic": rng.choice(["north", "south", "central"], 500),
    "patients": rng.poisson(35, 500),
})
''',
        '''visits["visit_date"] = pd.to_datetime(visits["visit_date"], format="%d/%m/%Y")
weekly = visits.set_index("visit_date").groupby("clinic")["patients"].resample("W").sum()
weekly.head()
''',
        '''visits["visit_date"] = pd.to_datetime(visits["visit_date"], format="%m/%d/%Y")
weekly = visits.set_index("visit_date").groupby("clinic")["patients"].resample("W").sum()
weekly.head()
''',
    ),
    (
        'pandas_dataframe_append_removed',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(18)
experiments = pd.DataFrame({
    "run": [f"run_{i}" for i in range(5)],
    "lr": [0.1, 0.05, 0.01, 0.005, 0.001],
    "val_loss": rng.uniform(0.2, 0.6, 5).round(4),
})
new_run = {"run": "run_5", "lr": 0.0005, "val_loss": 0.1874}
''',
        '''experiments = experiments.append(new_run, ignore_index=True)
experiments.sort_values("val_loss").head(3)
''',
        '''experiments = pd.concat([experiments, pd.DataFrame([new_run])], ignore_index=True)
experiments.sort_values("val_loss").head(3)
''',
    ),
    (
        'pandas_pivot_duplicate_entries',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(19)
n = 3000
survey = pd.DataFrame({
    "respondent": rng.integers(1, 400, n),
    "question": rng.choice([f"Q{i}" for i in range(1, 11)], n),
    "score": rng.integers(1, 6, n),
})
''',
        '''wide = survey.pivot(index="respondent", columns="question", values="score")
wide.corr().round(2)
''',
        '''wide = survey.pivot_table(index="respondent", columns="question", values="score", aggfunc="mean")
wide.corr().round(2)
''',
    ),
    (
        'numpy_matmul_weight_shape_mismatch',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np

rng = np.random.default_rng(20)
X = rng.normal(size=(500, 8))
true_w = rng.normal(size=8)
y = X @ true_w + rng.normal(0, 0.1, 500)
''',
        '''Xb = np.hstack([np.ones((X.shape[0], 1)), X])
w = np.linalg.solve(Xb.T @ Xb, Xb.T @ y)
residuals = y - X @ w
rmse = np.sqrt(np.mean(residuals ** 2))
rmse
''',
        '''Xb = np.hstack([np.ones((X.shape[0], 1)), X])
w = np.linalg.solve(Xb.T @ Xb, Xb.T @ y)
residuals = y - Xb @ w
rmse = np.sqrt(np.mean(residuals ** 2))
rmse
''',
    ),
    (
        'numpy_nan_alias_removed',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
temps = pd.DataFrame({
    "station": rng.choice(["A", "B", "C"], 400),
    "temp_c": rng.normal(12, 6, 400).round(1),
})
temps.loc[rng.choice(400, 12, replace=False), "temp_c"] = -999.0
''',
        '''temps["temp_c"] = temps["temp_c"].replace(-999.0, np.NaN)
temps.groupby("station")["temp_c"].describe()
''',
        '''temps["temp_c"] = temps["temp_c"].replace(-999.0, np.nan)
temps.groupby("station")["temp_c"].describe()
''',
    ),
    (
        'sklearn_onehot_sparse_keyword_removed',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(22)
listings = pd.DataFrame({
    "neighbourhood": rng.choice(["Mitte", "Kreuzberg", "Neukölln", "Pankow"], 800),
    "room_type": rng.choice(["Entire home", "Private room", "Shared room"], 800),
    "price": rng.gamma(3, 30, 800).round(0),
})
''',
        '''enc = OneHotEncoder(sparse=False, handle_unknown="ignore")
onehot = enc.fit_transform(listings[["neighbourhood", "room_type"]])
encoded = pd.DataFrame(onehot, columns=enc.get_feature_names_out(), index=listings.index)
encoded.mean().round(3)
''',
        '''enc = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
onehot = enc.fit_transform(listings[["neighbourhood", "room_type"]])
encoded = pd.DataFrame(onehot, columns=enc.get_feature_names_out(), index=listings.index)
encoded.mean().round(3)
''',
    ),
    (
        'sklearn_single_feature_1d_input',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(23)
houses = pd.DataFrame({"sqft": rng.uniform(500, 3500, 300).round(0)})
houses["price"] = 50_000 + 180 * houses["sqft"] + rng.normal(0, 25_000, 300)
''',
        '''reg = LinearRegression()
reg.fit(houses["sqft"], houses["price"])
reg.coef_, reg.intercept_
''',
        '''reg = LinearRegression()
reg.fit(houses[["sqft"]], houses["price"])
reg.coef_, reg.intercept_
''',
    ),
    (
        'sklearn_scaler_transform_before_fit',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(24)
X = rng.normal(size=(1000, 6)) * [1, 10, 100, 1, 5, 50]
y = (X[:, 0] + X[:, 1] / 10 - X[:, 2] / 100 + rng.normal(0, 0.5, 1000) > 0).astype(int)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
scaler = StandardScaler()
''',
        '''X_train_s = scaler.transform(X_train)
X_test_s = scaler.transform(X_test)
clf = LogisticRegression().fit(X_train_s, y_train)
clf.score(X_test_s, y_test)
''',
        '''X_train_s = scaler.fit_transform(X_train)
X_test_s = scaler.transform(X_test)
clf = LogisticRegression().fit(X_train_s, y_train)
clf.score(X_test_s, y_test)
''',
    ),
    (
        'sklearn_rmse_squared_keyword_removed',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_squared_error, root_mean_squared_error
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(25)
X = rng.uniform(0, 10, (600, 4))
y = 3 * X[:, 0] + np.sin(X[:, 1]) * 5 + rng.normal(0, 1, 600)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
rf = RandomForestRegressor(n_estimators=50, random_state=0, n_jobs=1).fit(X_train, y_train)
''',
        '''pred = rf.predict(X_test)
rmse = mean_squared_error(y_test, pred, squared=False)
rmse
''',
        '''pred = rf.predict(X_test)
rmse = root_mean_squared_error(y_test, pred)
rmse
''',
    ),
    (
        'keras_categorical_loss_integer_labels',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
import numpy as np
import tensorflow as tf
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
import keras
from keras import layers

keras.utils.set_random_seed(26)
rng = np.random.default_rng(26)
X = rng.normal(size=(600, 12)).astype("float32")
y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)
model = keras.Sequential([keras.Input(shape=(12,)), layers.Dense(32, activation="relu"), layers.Dense(3, activation="softmax")])
''',
        '''model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=3, batch_size=64, verbose=0)
history.history["accuracy"][-1]
''',
        '''model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=3, batch_size=64, verbose=0)
history.history["accuracy"][-1]
''',
    ),
    (
        'torch_cross_entropy_float_targets',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(27)
torch.set_num_threads(1)
rng = np.random.default_rng(27)
df = pd.DataFrame(rng.normal(size=(256, 10)), columns=[f"f{i}" for i in range(10)])
df["label"] = rng.integers(0, 4, 256).astype(float)
net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
''',
        '''X = torch.tensor(df.drop(columns="label").values, dtype=torch.float32)
y = torch.tensor(df["label"].values, dtype=torch.float32)
loss_fn = nn.CrossEntropyLoss()
for step in range(20):
    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
loss.item()
''',
        '''X = torch.tensor(df.drop(columns="label").values, dtype=torch.float32)
y = torch.tensor(df["label"].values, dtype=torch.long)
loss_fn = nn.CrossEntropyLoss()
for step in range(20):
    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
loss.item()
''',
    ),
    (
        'torch_numpy_on_tensor_requiring_grad',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(28)
torch.set_num_threads(1)
x = torch.linspace(-3, 3, 200).unsqueeze(1)
y = torch.sin(x) + 0.1 * torch.randn_like(x)
net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(net.parameters(), lr=0.02)
for _ in range(150):
    opt.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
''',
        '''pred = net(x)
fig, ax = plt.subplots(figsize=(6, 4))
ax.scatter(x.numpy().ravel(), y.numpy().ravel(), s=6, alpha=0.5, label="data")
ax.plot(x.numpy().ravel(), pred.numpy().ravel(), color="red", label="fit")
ax.legend()
''',
        '''with torch.no_grad():
    pred = net(x)
fig, ax = plt.subplots(figsize=(6, 4))
ax.scatter(x.numpy().ravel(), y.numpy().ravel(), s=6, alpha=0.5, label="data")
ax.plot(x.numpy().ravel(), pred.numpy().ravel(), color="red", label="fit")
ax.legend()
''',
    ),
    (
        'matplotlib_plot_length_mismatch_after_dropna',
        '''import os
os.environ["OMP_NUM_THREADS"] = "1"
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

rng = np.random.default_rng(29)
aq = pd.DataFrame({"date": pd.date_range("2024-01-01", periods=365, freq="D"),
                   "pm25": rng.gamma(4, 6, 365).round(1)})
aq.loc[rng.choice(365, 20, replace=False), "pm25"] = np.nan
''',
        '''pm = aq["pm25"].dropna()
smooth = pm.rolling(7, min_periods=1).mean()
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(aq["date"], smooth, color="tab:blue")
ax.set_ylabel("PM2.5 (7-day mean)")
fig.autofmt_xdate()
''',
        '''pm = aq["pm25"].dropna()
smooth = pm.rolling(7, min_periods=1).mean()
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(aq.loc[pm.index, "date"], smooth, color="tab:blue")
ax.set_ylabel("PM2.5 (7-day mean)")
fig.autofmt_xdate()
''',
    ),
    (
        'python_json_loads_single_quoted_records',
        r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import ast
import json
import random

import pandas as pd

random.seed(30)
with open("events.txt", "w") as f:
    for i in range(300):
        rec = {"user": f"u{random.randint(1, 50)}", "event": random.choice(["view", "click", "buy"]),
               "value": round(random.random() * 100, 2)}
        f.write(str(rec) + "\n")
''',
        '''with open("events.txt") as f:
    records = [json.loads(line) for line in f if line.strip()]
events = pd.DataFrame(records)
events.pivot_table(index="user", columns="event", values="value", aggfunc="sum").head()
''',
        '''with open("events.txt") as f:
    records = [ast.literal_eval(line) for line in f if line.strip()]
events = pd.DataFrame(records)
events.pivot_table(index="user", columns="event", values="value", aggfunc="sum").head()
''',
    ),
]
