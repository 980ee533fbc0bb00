r"""Notebook crash/fix pairs, set "twentyeighth".

Thirty realistic machine-learning notebook cells, each given as
``(name, setup, crash, fixed)``:

* ``setup``  -- one notebook cell that builds small synthetic data in memory
  (no files, no network, no pretrained weights) and defines what the target
  cell uses.
* ``crash``  -- the target cell as the user wrote it; running ``setup`` then
  ``crash`` in a fresh interpreter raises a genuine library/Python error.
* ``fixed``  -- the same cell with the minimal fix; ``setup`` then ``fixed``
  runs clean and does the same work.

Mix by main library of the crashing cell: pandas 7, numpy 3, scikit-learn 7,
keras 3, torch 4, matplotlib 1, seaborn 1, xgboost 1, lightgbm 1, plain
python 2.

Fifteen pairs are LONG: the crash cell does a few seconds of genuine work
(loops over frames, groups, chunks, folds, batches, epochs) before the data
met late (the last month / group / chunk / fold / batch / epoch / source)
or the combination of what the loop collected makes it fail.  LONG pairs:

    pandas_monthly_frames_merge_key_dtype
    pandas_groupby_user_loop_empty_after_filter
    pandas_region_dict_pivot_duplicate_entries
    pandas_while_chunks_map_then_astype_int
    numpy_stft_loop_last_frame_too_short
    sklearn_per_store_svc_single_class
    sklearn_timeseries_split_unseen_category
    sklearn_hashing_stream_nan_text
    keras_shard_loop_extra_column
    keras_lr_schedule_list_runs_out
    torch_forward_view_fixed_batch_size
    torch_cat_bucketed_sequence_outputs
    xgboost_season_models_object_column
    lightgbm_category_models_poisson_negative_units
    python_corpus_sources_missing_key

The other fifteen are SHORT: common mistakes that fail in well under half a
second (wrong shapes, dtype mixes, unfitted estimators, wrong column names,
mismatched lengths, wrong loss inputs, ...).
"""

PAIRS = [
    # ------------------------------------------------------------------ pandas
    (
        "pandas_monthly_frames_merge_key_dtype",
        r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
stores = pd.DataFrame({
    "store_id": np.arange(60),
    "region": rng.choice(["north", "south", "east", "west"], 60),
    "size_m2": rng.integers(200, 2000, 60),
})
monthly = []
for m in range(1, 13):
    n = 450_000
    d = pd.DataFrame({
        "store_id": rng.integers(0, 60, n),
        "day": rng.integers(1, 29, n),
        "item": rng.integers(0, 400, n),
        "units": rng.poisson(3, n),
        "price": rng.gamma(2.0, 5.0, n).round(2),
    })
    d["month"] = m
    monthly.append(d)
# the December export came from the new POS system, which writes ids as text
monthly[-1]["store_id"] = monthly[-1]["store_id"].astype(str)
""",
        r"""
parts = []
for d in monthly:
    d = d.copy()
    d["revenue"] = d["units"] * d["price"]
    d = d.sort_values(["store_id", "item", "day"])
    d["item_cum_units"] = d.groupby(["store_id", "item"])["units"].cumsum()
    d["item_rank"] = d.groupby(["store_id", "day"])["revenue"].rank(ascending=False)
    d["price_z"] = (d["price"] - d.groupby("item")["price"].transform("mean")) / d.groupby("item")["price"].transform("std")
    daily = d.groupby(["store_id", "day"], as_index=False).agg(
        revenue=("revenue", "sum"),
        units=("units", "sum"),
        n_items=("item", "nunique"),
        top_price_z=("price_z", "max"),
    )
    daily["month"] = d["month"].iloc[0]
    daily = daily.merge(stores, on="store_id", how="left")
    daily["rev_per_m2"] = daily["revenue"] / daily["size_m2"]
    parts.append(daily)
sales = pd.concat(parts, ignore_index=True)
""",
        r"""
parts = []
for d in monthly:
    d = d.copy()
    d["store_id"] = d["store_id"].astype(int)
    d["revenue"] = d["units"] * d["price"]
    d = d.sort_values(["store_id", "item", "day"])
    d["item_cum_units"] = d.groupby(["store_id", "item"])["units"].cumsum()
    d["item_rank"] = d.groupby(["store_id", "day"])["revenue"].rank(ascending=False)
    d["price_z"] = (d["price"] - d.groupby("item")["price"].transform("mean")) / d.groupby("item")["price"].transform("std")
    daily = d.groupby(["store_id", "day"], as_index=False).agg(
        revenue=("revenue", "sum"),
        units=("units", "sum"),
        n_items=("item", "nunique"),
        top_price_z=("price_z", "max"),
    )
    daily["month"] = d["month"].iloc[0]
    daily = daily.merge(stores, on="store_id", how="left")
    daily["rev_per_m2"] = daily["revenue"] / daily["size_m2"]
    parts.append(daily)
sales = pd.concat(parts, ignore_index=True)
""",
    ),
    (
        "pandas_groupby_user_loop_empty_after_filter",
        r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(1)
n_users = 2500
counts = rng.integers(5, 30, n_users)
users = np.repeat([f"u{i:05d}" for i in range(n_users)], counts)
tx = pd.DataFrame({
    "user": users,
    "ts": pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 60, len(users)), unit="min"),
    "amount": rng.gamma(2.0, 30.0, len(users)).round(2),
})
# a few refunds spread over the users
ref = rng.random(len(tx)) < 0.03
tx.loc[ref, "amount"] *= -1
# an account that only ever received refunds (migrated from the old system)
only_refunds = pd.DataFrame({
    "user": "u99999",
    "ts": pd.Timestamp("2023-06-01") + pd.to_timedelta(np.arange(4), unit="D"),
    "amount": [-20.0, -35.5, -12.0, -8.25],
})
tx = pd.concat([tx, only_refunds], ignore_index=True)
""",
        r"""
feats = []
for user, g in tx.groupby("user"):
    purchases = g[g["amount"] > 0].sort_values("ts")
    first = purchases.iloc[0]
    gaps = purchases["ts"].diff().dt.total_seconds().div(3600)
    feats.append({
        "user": user,
        "first_ts": first["ts"],
        "first_amount": first["amount"],
        "n_purchases": len(purchases),
        "mean_gap_h": gaps.mean(),
        "max_gap_h": gaps.max(),
        "total": purchases["amount"].sum(),
        "refund_total": -g.loc[g["amount"] < 0, "amount"].sum(),
    })
user_feats = pd.DataFrame(feats).set_index("user")
""",
        r"""
feats = []
for user, g in tx.groupby("user"):
    purchases = g[g["amount"] > 0].sort_values("ts")
    if purchases.empty:
        continue
    first = purchases.iloc[0]
    gaps = purchases["ts"].diff().dt.total_seconds().div(3600)
    feats.append({
        "user": user,
        "first_ts": first["ts"],
        "first_amount": first["amount"],
        "n_purchases": len(purchases),
        "mean_gap_h": gaps.mean(),
        "max_gap_h": gaps.max(),
        "total": purchases["amount"].sum(),
        "refund_total": -g.loc[g["amount"] < 0, "amount"].sum(),
    })
user_feats = pd.DataFrame(feats).set_index("user")
""",
    ),
    (
        "pandas_region_dict_pivot_duplicate_entries",
        r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(2)
dates = pd.date_range("2021-01-01", periods=400, freq="D")
products = [f"p{i:03d}" for i in range(800)]
region_sales = {}
for region in ["north", "south", "east", "west", "central", "online"]:
    idx = pd.MultiIndex.from_product([dates, products], names=["date", "product"])
    d = idx.to_frame(index=False)
    d["qty"] = rng.poisson(5, len(d)).astype(float)
    region_sales[region] = d
# the online shop is fed by two warehouses: some (date, product) rows appear twice
on = region_sales["online"]
dup = on.sample(frac=0.05, random_state=0).assign(qty=lambda x: rng.poisson(2, len(x)).astype(float))
region_sales["online"] = pd.concat([on, dup], ignore_index=True).sort_values(["date", "product"], ignore_index=True)
""",
        r"""
wide = {}
for region, d in region_sales.items():
    d = d.copy()
    d["qty_detrended"] = d.groupby("product")["qty"].transform(
        lambda s: s - s.rolling(28, min_periods=1).median()
    )
    d["qty_clipped"] = d["qty_detrended"].clip(d["qty_detrended"].quantile(0.01), d["qty_detrended"].quantile(0.99))
    w = d.pivot(index="date", columns="product", values="qty_clipped")
    w = w.asfreq("D").fillna(0.0)
    wide[region] = w.rolling(7, min_periods=1).mean()
panel = pd.concat(wide, axis=1)
""",
        r"""
wide = {}
for region, d in region_sales.items():
    d = d.copy()
    d["qty_detrended"] = d.groupby("product")["qty"].transform(
        lambda s: s - s.rolling(28, min_periods=1).median()
    )
    d["qty_clipped"] = d["qty_detrended"].clip(d["qty_detrended"].quantile(0.01), d["qty_detrended"].quantile(0.99))
    w = d.pivot_table(index="date", columns="product", values="qty_clipped", aggfunc="sum")
    w = w.asfreq("D").fillna(0.0)
    wide[region] = w.rolling(7, min_periods=1).mean()
panel = pd.concat(wide, axis=1)
""",
    ),
    (
        "pandas_while_chunks_map_then_astype_int",
        r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n = 1_500_000
months = pd.date_range("2012-01-01", periods=96, freq="MS").strftime("%b-%Y").to_numpy()
loans = pd.DataFrame({
    "loan_amnt": rng.integers(1000, 40000, n),
    "grade": rng.choice(list("ABCD"), n, p=[0.3, 0.35, 0.25, 0.1]),
    "issue_d_str": rng.choice(months, n),
    "emp_length": rng.choice(["< 1 year", "1 year", "3 years", "5 years", "10+ years"], n),
    "term": rng.choice([" 36 months", " 60 months"], n),
    "int_rate": rng.uniform(5, 30, n).round(2),
})
# the newest loans (end of the table) were issued under a new grade "E"
tail = np.arange(n - 30_000, n)
loans.loc[tail[rng.random(len(tail)) < 0.05], "grade"] = "E"
grade_map = {"A": 0, "B": 1, "C": 2, "D": 3}
chunk_size = 50_000
""",
        r"""
start, parts = 0, []
while start < len(loans):
    c = loans.iloc[start:start + chunk_size].copy()
    c["grade_code"] = c["grade"].map(grade_map).astype(int)
    c["issue_d"] = pd.to_datetime(c["issue_d_str"], format="%b-%Y")
    c["emp_years"] = c["emp_length"].str.extract(r"(\d+)", expand=False).astype(float)
    c["term_m"] = c["term"].str.strip().str.split(" ").str[0].astype(int)
    c["rate_bucket"] = pd.cut(c["int_rate"], bins=[0, 10, 15, 20, 25, 40], labels=False)
    parts.append(c)
    start += chunk_size
loans_clean = pd.concat(parts, ignore_index=True)
""",
        r"""
start, parts = 0, []
while start < len(loans):
    c = loans.iloc[start:start + chunk_size].copy()
    c["grade_code"] = c["grade"].map(grade_map).fillna(-1).astype(int)
    c["issue_d"] = pd.to_datetime(c["issue_d_str"], format="%b-%Y")
    c["emp_years"] = c["emp_length"].str.extract(r"(\d+)", expand=False).astype(float)
    c["term_m"] = c["term"].str.strip().str.split(" ").str[0].astype(int)
    c["rate_bucket"] = pd.cut(c["int_rate"], bins=[0, 10, 15, 20, 25, 40], labels=False)
    parts.append(c)
    start += chunk_size
loans_clean = pd.concat(parts, ignore_index=True)
""",
    ),
    (
        "pandas_groupby_mean_with_text_columns",
        r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(4)
n = 2000
customers = pd.DataFrame({
    "customer_id": np.arange(n),
    "name": [f"cust_{i}" for i in range(n)],
    "segment": rng.choice(["retail", "smb", "enterprise"], n),
    "city": rng.choice(["Lyon", "Paris", "Nantes", "Lille"], n),
    "tenure_m": rng.integers(1, 120, n),
    "monthly_spend": rng.gamma(2.0, 50.0, n).round(2),
    "support_calls": rng.poisson(1.5, n),
})
""",
        r"""
segment_profile = customers.groupby("segment").mean()
segment_profile = segment_profile.sort_values("monthly_spend", ascending=False)
""",
        r"""
segment_profile = customers.groupby("segment").mean(numeric_only=True)
segment_profile = segment_profile.sort_values("monthly_spend", ascending=False)
""",
    ),
    (
        "pandas_dt_accessor_on_string_dates",
        r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n = 3000
days = pd.date_range("2022-01-01", "2023-12-31", freq="D")
orders = pd.DataFrame({
    "order_id": np.arange(n),
    "order_date": rng.choice(days, n).astype("datetime64[ns]").astype(str),
    "amount": rng.gamma(2.0, 40.0, n).round(2),
})
""",
        r"""
orders["month"] = orders["order_date"].dt.to_period("M")
orders["weekday"] = orders["order_date"].dt.day_name()
monthly_revenue = orders.groupby("month")["amount"].sum()
""",
        r"""
orders["order_date"] = pd.to_datetime(orders["order_date"])
orders["month"] = orders["order_date"].dt.to_period("M")
orders["weekday"] = orders["order_date"].dt.day_name()
monthly_revenue = orders.groupby("month")["amount"].sum()
""",
    ),
    (
        "pandas_assign_predictions_after_dropna",
        r"""
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(6)
def make(n):
    d = pd.DataFrame({
        "sqft": rng.integers(400, 4000, n).astype(float),
        "rooms": rng.integers(1, 8, n).astype(float),
        "age": rng.integers(0, 100, n).astype(float),
    })
    d["price"] = 120 * d["sqft"] + 5000 * d["rooms"] - 800 * d["age"] + rng.normal(0, 2e4, n)
    return d
train = make(1500)
test = make(500).drop(columns="price")
test.loc[rng.choice(500, 40, replace=False), "age"] = np.nan
features = ["sqft", "rooms", "age"]
model = LinearRegression().fit(train[features], train["price"])
""",
        r"""
X_test = test[features].dropna()
preds = model.predict(X_test)
test["predicted_price"] = preds
""",
        r"""
X_test = test[features].dropna()
preds = model.predict(X_test)
test.loc[X_test.index, "predicted_price"] = preds
""",
    ),
    # ------------------------------------------------------------------- numpy
    (
        "numpy_stft_loop_last_frame_too_short",
        r"""
import numpy as np

rng = np.random.default_rng(7)
sr = 16000
t = np.arange(sr * 180) / sr
signal = (np.sin(2 * np.pi * 440 * t) * (1 + 0.3 * np.sin(2 * np.pi * 0.5 * t))
          + 0.5 * np.sin(2 * np.pi * 1250 * t) * (t % 2 < 1)
          + 0.1 * rng.standard_normal(t.size))
n_fft, hop = 1024, 64
win = np.hanning(n_fft)
freqs = np.fft.rfftfreq(n_fft, 1 / sr)
""",
        r"""
feats = []
for start in range(0, len(signal), hop):
    frame = signal[start:start + n_fft] * win
    mag = np.abs(np.fft.rfft(frame))
    power = mag ** 2
    centroid = (freqs * mag).sum() / (mag.sum() + 1e-12)
    cum = np.cumsum(power)
    rolloff = freqs[np.searchsorted(cum, 0.85 * cum[-1])]
    flatness = np.exp(np.mean(np.log(power + 1e-12))) / (power.mean() + 1e-12)
    feats.append((centroid, rolloff, flatness))
feats = np.array(feats)
""",
        r"""
feats = []
for start in range(0, len(signal) - n_fft + 1, hop):
    frame = signal[start:start + n_fft] * win
    mag = np.abs(np.fft.rfft(frame))
    power = mag ** 2
    centroid = (freqs * mag).sum() / (mag.sum() + 1e-12)
    cum = np.cumsum(power)
    rolloff = freqs[np.searchsorted(cum, 0.85 * cum[-1])]
    flatness = np.exp(np.mean(np.log(power + 1e-12))) / (power.mean() + 1e-12)
    feats.append((centroid, rolloff, flatness))
feats = np.array(feats)
""",
    ),
    (
        "numpy_concatenate_features_wrong_axis",
        r"""
import numpy as np

rng = np.random.default_rng(8)
n = 1000
X_num = rng.normal(size=(n, 5))
cat = rng.integers(0, 12, n)
X_cat_onehot = np.eye(12)[cat]
X_num_scaled = (X_num - X_num.mean(axis=0)) / X_num.std(axis=0)
""",
        r"""
X = np.concatenate([X_num_scaled, X_cat_onehot])
X = np.hstack([np.ones((X.shape[0], 1)), X])
""",
        r"""
X = np.concatenate([X_num_scaled, X_cat_onehot], axis=1)
X = np.hstack([np.ones((X.shape[0], 1)), X])
""",
    ),
    (
        "numpy_nan_into_integer_array",
        r"""
import numpy as np

rng = np.random.default_rng(9)
ages = rng.integers(18, 90, 5000)
# 999 was used as "unknown" in the survey export
ages[rng.choice(5000, 120, replace=False)] = 999
""",
        r"""
unknown = ages == 999
ages[unknown] = np.nan
mean_age = np.nanmean(ages)
age_filled = np.where(np.isnan(ages), mean_age, ages)
""",
        r"""
unknown = ages == 999
ages = ages.astype(float)
ages[unknown] = np.nan
mean_age = np.nanmean(ages)
age_filled = np.where(np.isnan(ages), mean_age, ages)
""",
    ),
    # ------------------------------------------------------------ scikit-learn
    (
        "sklearn_per_store_svc_single_class",
        r"""
import numpy as np
import pandas as pd
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

rng = np.random.default_rng(10)
frames = []
feature_cols = [f"f{i}" for i in range(8)]
for s in range(24):
    n = 2000
    X = rng.normal(size=(n, 8))
    logit = X[:, 0] - 0.7 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + rng.normal(0, 1, n)
    y = (logit > 1.0).astype(int)
    d = pd.DataFrame(X, columns=feature_cols)
    d["store"] = f"store_{s:03d}"
    d["churn"] = y
    frames.append(d)
# a store that opened last month: nobody has churned there yet
new = pd.DataFrame(rng.normal(size=(300, 8)), columns=feature_cols)
new["store"] = "store_999"
new["churn"] = 0
df = pd.concat(frames + [new], ignore_index=True)
""",
        r"""
models, train_acc = {}, {}
for store, g in df.groupby("store"):
    Xg = g[feature_cols].to_numpy()
    yg = g["churn"].to_numpy()
    clf = make_pipeline(StandardScaler(), SVC(C=1.0, gamma="scale"))
    clf.fit(Xg, yg)
    models[store] = clf
    train_acc[store] = clf.score(Xg, yg)
acc = pd.Series(train_acc).sort_values()
""",
        r"""
models, train_acc = {}, {}
for store, g in df.groupby("store"):
    Xg = g[feature_cols].to_numpy()
    yg = g["churn"].to_numpy()
    if len(np.unique(yg)) < 2:
        continue
    clf = make_pipeline(StandardScaler(), SVC(C=1.0, gamma="scale"))
    clf.fit(Xg, yg)
    models[store] = clf
    train_acc[store] = clf.score(Xg, yg)
acc = pd.Series(train_acc).sort_values()
""",
    ),
    (
        "sklearn_timeseries_split_unseen_category",
        r"""
import numpy as np
import pandas as pd
from sklearn.model_selection import TimeSeriesSplit
from sklearn.preprocessing import OrdinalEncoder
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error

rng = np.random.default_rng(11)
n = 12000
df = pd.DataFrame({
    "date": pd.date_range("2019-01-01", periods=n, freq="h"),
    "temp": rng.normal(15, 8, n),
    "promo": rng.integers(0, 2, n),
    "price": rng.uniform(1, 5, n),
    "product_line": rng.choice(["bakery", "dairy", "produce", "frozen"], n),
})
# a new product line was launched near the end of the period
late = np.arange(int(n * 0.9), n)
df.loc[late[rng.random(len(late)) < 0.3], "product_line"] = "ready_meals"
df["demand"] = 50 + 2 * df["temp"] + 15 * df["promo"] - 6 * df["price"] + rng.normal(0, 5, n)
num_cols = ["temp", "promo", "price"]
""",
        r"""
tscv = TimeSeriesSplit(n_splits=5)
fold_mae = []
for tr_idx, va_idx in tscv.split(df):
    tr, va = df.iloc[tr_idx], df.iloc[va_idx]
    enc = OrdinalEncoder()
    Xtr = np.hstack([tr[num_cols].to_numpy(), enc.fit_transform(tr[["product_line"]])])
    Xva = np.hstack([va[num_cols].to_numpy(), enc.transform(va[["product_line"]])])
    model = RandomForestRegressor(n_estimators=80, min_samples_leaf=3, random_state=0, n_jobs=1)
    model.fit(Xtr, tr["demand"])
    fold_mae.append(mean_absolute_error(va["demand"], model.predict(Xva)))
cv_mae = float(np.mean(fold_mae))
""",
        r"""
tscv = TimeSeriesSplit(n_splits=5)
fold_mae = []
for tr_idx, va_idx in tscv.split(df):
    tr, va = df.iloc[tr_idx], df.iloc[va_idx]
    enc = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
    Xtr = np.hstack([tr[num_cols].to_numpy(), enc.fit_transform(tr[["product_line"]])])
    Xva = np.hstack([va[num_cols].to_numpy(), enc.transform(va[["product_line"]])])
    model = RandomForestRegressor(n_estimators=80, min_samples_leaf=3, random_state=0, n_jobs=1)
    model.fit(Xtr, tr["demand"])
    fold_mae.append(mean_absolute_error(va["demand"], model.predict(Xva)))
cv_mae = float(np.mean(fold_mae))
""",
    ),
    (
        "sklearn_hashing_stream_nan_text",
        r"""
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.linear_model import SGDClassifier

rng = np.random.default_rng(12)
vocab = np.array([f"tok{i}" for i in range(4000)])
pos_words, neg_words = vocab[:200], vocab[200:400]
n = 48_000
labels = rng.integers(0, 2, n)
texts = []
for lab in labels:
    base = rng.choice(vocab, 45)
    senti = rng.choice(pos_words if lab else neg_words, 5)
    texts.append(" ".join(np.concatenate([base, senti])))
reviews = pd.DataFrame({"text": texts, "label": labels})
# the most recent reviews include some with an empty body (stored as missing)
tail = np.arange(n - 3000, n)
reviews.loc[tail[rng.random(len(tail)) < 0.02], "text"] = np.nan

def stream(df, size):
    for i in range(0, len(df), size):
        yield df.iloc[i:i + size]
""",
        r"""
vec = HashingVectorizer(n_features=2**18, alternate_sign=False, ngram_range=(1, 2))
clf = SGDClassifier(loss="log_loss", alpha=1e-5, random_state=0)
seen = 0
for chunk in stream(reviews, 5000):
    Xc = vec.transform(chunk["text"])
    clf.partial_fit(Xc, chunk["label"], classes=[0, 1])
    seen += len(chunk)
""",
        r"""
vec = HashingVectorizer(n_features=2**18, alternate_sign=False, ngram_range=(1, 2))
clf = SGDClassifier(loss="log_loss", alpha=1e-5, random_state=0)
seen = 0
for chunk in stream(reviews, 5000):
    Xc = vec.transform(chunk["text"].fillna(""))
    clf.partial_fit(Xc, chunk["label"], classes=[0, 1])
    seen += len(chunk)
""",
    ),
    (
        "sklearn_predict_after_cross_val_score",
        r"""
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split, cross_val_score
from sklearn.linear_model import LogisticRegression

X, y = make_classification(n_samples=800, n_features=12, random_state=13)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=13)
model = LogisticRegression(max_iter=1000)
""",
        r"""
cv_scores = cross_val_score(model, X_train, y_train, cv=5)
test_pred = model.predict(X_test)
test_acc = (test_pred == y_test).mean()
""",
        r"""
cv_scores = cross_val_score(model, X_train, y_train, cv=5)
model.fit(X_train, y_train)
test_pred = model.predict(X_test)
test_acc = (test_pred == y_test).mean()
""",
    ),
    (
        "sklearn_single_feature_1d_array",
        r"""
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(14)
houses = pd.DataFrame({"sqft": rng.integers(400, 4000, 600).astype(float)})
houses["price"] = 150 * houses["sqft"] + rng.normal(0, 3e4, 600)
""",
        r"""
reg = LinearRegression()
reg.fit(houses["sqft"].values, houses["price"].values)
slope = reg.coef_[0]
""",
        r"""
reg = LinearRegression()
reg.fit(houses[["sqft"]].values, houses["price"].values)
slope = reg.coef_[0]
""",
    ),
    (
        "sklearn_random_forest_raw_string_column",
        r"""
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

rng = np.random.default_rng(15)
n = 1000
titanic = pd.DataFrame({
    "Pclass": rng.integers(1, 4, n),
    "Sex": rng.choice(["male", "female"], n),
    "Age": rng.integers(1, 80, n).astype(float),
    "Fare": rng.gamma(2.0, 15.0, n).round(2),
    "Embarked": rng.choice(["S", "C", "Q"], n),
})
titanic["Survived"] = ((titanic["Sex"] == "female") ^ (rng.random(n) < 0.2)).astype(int)
""",
        r"""
X = titanic.drop(columns="Survived")
y = titanic["Survived"]
rf = RandomForestClassifier(n_estimators=50, random_state=0, n_jobs=1)
rf.fit(X, y)
importances = pd.Series(rf.feature_importances_, index=X.columns)
""",
        r"""
X = pd.get_dummies(titanic.drop(columns="Survived"), columns=["Sex", "Embarked"], drop_first=True)
y = titanic["Survived"]
rf = RandomForestClassifier(n_estimators=50, random_state=0, n_jobs=1)
rf.fit(X, y)
importances = pd.Series(rf.feature_importances_, index=X.columns)
""",
    ),
    (
        "sklearn_roc_auc_two_column_proba",
        r"""
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

X, y = make_classification(n_samples=1200, n_features=10, weights=[0.8, 0.2], random_state=16)
X_train, X_test, y_train, y_test = train_test_split(X, y, stratify=y, random_state=16)
gb = GradientBoostingClassifier(n_estimators=50, random_state=16).fit(X_train, y_train)
""",
        r"""
proba = gb.predict_proba(X_test)
auc = roc_auc_score(y_test, proba)
""",
        r"""
proba = gb.predict_proba(X_test)[:, 1]
auc = roc_auc_score(y_test, proba)
""",
    ),
    # ------------------------------------------------------------------- keras
    (
        "keras_shard_loop_extra_column",
        r"""
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
feature_cols = [f"x{i}" for i in range(20)]
shards = []
for k in range(6):
    d = pd.DataFrame(rng.normal(size=(6000, 20)).astype("float32"), columns=feature_cols)
    d["target"] = (d["x0"] + d["x1"] * d["x2"] > 0).astype("float32")
    shards.append(d)
# the last shard was exported after someone added a QA flag column
shards[-1].insert(5, "qa_flag", np.float32(0.0))

model = keras.Sequential([
    keras.Input(shape=(20,)),
    layers.Dense(128, activation="relu"),
    layers.Dense(64, activation="relu"),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
""",
        r"""
history = []
for shard in shards:
    Xs = shard.drop(columns="target").to_numpy()
    ys = shard["target"].to_numpy()
    h = model.fit(Xs, ys, epochs=2, batch_size=128, verbose=0)
    history.append(h.history["loss"][-1])
""",
        r"""
history = []
for shard in shards:
    Xs = shard[feature_cols].to_numpy()
    ys = shard["target"].to_numpy()
    h = model.fit(Xs, ys, epochs=2, batch_size=128, verbose=0)
    history.append(h.history["loss"][-1])
""",
    ),
    (
        "keras_lr_schedule_list_runs_out",
        r"""
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
X = rng.normal(size=(6000, 30)).astype("float32")
y = (X[:, :3].sum(axis=1) + 0.5 * rng.normal(size=6000) > 0).astype("int32")
model = keras.Sequential([
    keras.Input(shape=(30,)),
    layers.Dense(64, activation="relu"),
    layers.Dropout(0.2),
    layers.Dense(32, activation="relu"),
    layers.Dense(2, activation="softmax"),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
lr_plan = [1e-3] * 4 + [5e-4] * 4 + [1e-4] * 2
""",
        r"""
def schedule(epoch, lr):
    return lr_plan[epoch]

hist = model.fit(
    X, y, epochs=12, batch_size=64, validation_split=0.2, verbose=0,
    callbacks=[keras.callbacks.LearningRateScheduler(schedule)],
)
""",
        r"""
def schedule(epoch, lr):
    return lr_plan[min(epoch, len(lr_plan) - 1)]

hist = model.fit(
    X, y, epochs=12, batch_size=64, validation_split=0.2, verbose=0,
    callbacks=[keras.callbacks.LearningRateScheduler(schedule)],
)
""",
    ),
    (
        "keras_categorical_crossentropy_integer_labels",
        r"""
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
X = rng.normal(size=(256, 16)).astype("float32")
y = rng.integers(0, 4, 256)
model = keras.Sequential([
    keras.Input(shape=(16,)),
    layers.Dense(32, activation="relu"),
    layers.Dense(4, activation="softmax"),
])
""",
        r"""
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
model.fit(X, y, epochs=1, batch_size=256, verbose=0)
""",
        r"""
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(X, y, epochs=1, batch_size=256, verbose=0)
""",
    ),
    # ------------------------------------------------------------------- torch
    (
        "torch_forward_view_fixed_batch_size",
        r"""
import numpy as np
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader

torch.set_num_threads(1)
torch.manual_seed(20)
BATCH_SIZE = 64
X = torch.randn(9_037, 1, 28, 28)
y = (X.mean(dim=(1, 2, 3)) > 0).long()
loader = DataLoader(TensorDataset(X, y), batch_size=BATCH_SIZE, shuffle=True,
                    generator=torch.Generator().manual_seed(20))
""",
        r"""
torch.set_num_threads(1)
class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(16 * 7 * 7, 2)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x)))
        x = x.view(BATCH_SIZE, -1)
        return self.fc(x)

net = SmallCNN()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
epoch_losses = []
for epoch in range(1):
    running = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(net(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    epoch_losses.append(running / len(loader.dataset))
""",
        r"""
torch.set_num_threads(1)
class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(16 * 7 * 7, 2)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        return self.fc(x)

net = SmallCNN()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
epoch_losses = []
for epoch in range(1):
    running = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(net(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    epoch_losses.append(running / len(loader.dataset))
""",
    ),
    (
        "torch_cat_bucketed_sequence_outputs",
        r"""
import numpy as np
import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence

torch.set_num_threads(1)
torch.manual_seed(21)
rng = np.random.default_rng(21)
vocab, emb_dim, hid = 5000, 64, 128
lengths = rng.integers(5, 120, 9000)
seqs = [torch.from_numpy(rng.integers(1, vocab, L)) for L in lengths]
# bucket by length so each batch needs little padding
order = np.argsort(lengths)
batches = [[seqs[i] for i in order[k:k + 64]] for k in range(0, len(order), 64)]

embed = nn.Embedding(vocab, emb_dim, padding_idx=0)
encoder = nn.GRU(emb_dim, hid, batch_first=True)
embed.eval(); encoder.eval()
""",
        r"""
outputs = []
with torch.no_grad():
    for batch in batches:
        x = pad_sequence(batch, batch_first=True, padding_value=0)
        out, h = encoder(embed(x))
        outputs.append(out)
doc_states = torch.cat(outputs, dim=0)
doc_vectors = doc_states[:, -1, :]
""",
        r"""
outputs = []
with torch.no_grad():
    for batch in batches:
        x = pad_sequence(batch, batch_first=True, padding_value=0)
        out, h = encoder(embed(x))
        outputs.append(h[-1])
doc_states = torch.cat(outputs, dim=0)
doc_vectors = doc_states
""",
    ),
    (
        "torch_cross_entropy_float_targets",
        r"""
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(22)
X = torch.randn(512, 20)
labels = np.random.default_rng(22).integers(0, 5, 512).astype("float32")
y = torch.from_numpy(labels)
clf = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
opt = torch.optim.Adam(clf.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
""",
        r"""
torch.set_num_threads(1)
for step in range(20):
    opt.zero_grad()
    logits = clf(X)
    loss = criterion(logits, y)
    loss.backward()
    opt.step()
""",
        r"""
torch.set_num_threads(1)
for step in range(20):
    opt.zero_grad()
    logits = clf(X)
    loss = criterion(logits, y.long())
    loss.backward()
    opt.step()
""",
    ),
    (
        "torch_float64_numpy_into_linear",
        r"""
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
rng = np.random.default_rng(23)
X_np = rng.normal(size=(1000, 8))
y_np = X_np @ rng.normal(size=8) + rng.normal(0, 0.1, 1000)
reg = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))
""",
        r"""
torch.set_num_threads(1)
X_t = torch.from_numpy(X_np)
y_t = torch.from_numpy(y_np).unsqueeze(1)
pred = reg(X_t)
mse = nn.functional.mse_loss(pred, y_t)
""",
        r"""
torch.set_num_threads(1)
X_t = torch.from_numpy(X_np).float()
y_t = torch.from_numpy(y_np).float().unsqueeze(1)
pred = reg(X_t)
mse = nn.functional.mse_loss(pred, y_t)
""",
    ),
    # -------------------------------------------------------------- matplotlib
    (
        "matplotlib_subplots_2d_axes_indexing",
        r"""
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rng = np.random.default_rng(24)
df = pd.DataFrame(rng.gamma(2.0, 1.0, size=(500, 6)),
                  columns=["age", "income", "balance", "tenure", "calls", "score"])
""",
        r"""
fig, axes = plt.subplots(2, 3, figsize=(12, 6))
for i, col in enumerate(df.columns):
    axes[i].hist(df[col], bins=30, color="steelblue")
    axes[i].set_title(col)
fig.tight_layout()
""",
        r"""
fig, axes = plt.subplots(2, 3, figsize=(12, 6))
axes = axes.ravel()
for i, col in enumerate(df.columns):
    axes[i].hist(df[col], bins=30, color="steelblue")
    axes[i].set_title(col)
fig.tight_layout()
""",
    ),
    # ----------------------------------------------------------------- seaborn
    (
        "seaborn_scatterplot_wrong_column_case",
        r"""
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(25)
n = 400
passengers = pd.DataFrame({
    "Age": rng.integers(1, 80, n).astype(float),
    "Fare": rng.gamma(2.0, 15.0, n).round(2),
    "Pclass": rng.integers(1, 4, n),
})
passengers["Survived"] = (rng.random(n) < 0.4).astype(int)
""",
        r"""
fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(data=passengers, x="Age", y="fare", hue="Survived", ax=ax)
ax.set_yscale("log")
""",
        r"""
fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(data=passengers, x="Age", y="Fare", hue="Survived", ax=ax)
ax.set_yscale("log")
""",
    ),
    # ----------------------------------------------------------------- xgboost
    (
        "xgboost_season_models_object_column",
        r"""
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(26)
feature_cols = ["temp", "humidity", "windspeed", "hour", "weekday", "weather"]
seasons = {}
for season in ["spring", "summer", "autumn", "winter"]:
    n = 20000
    d = pd.DataFrame({
        "temp": rng.normal(15, 8, n),
        "humidity": rng.uniform(20, 100, n),
        "windspeed": rng.gamma(2.0, 5.0, n),
        "hour": rng.integers(0, 24, n),
        "weekday": rng.integers(0, 7, n),
        "weather": rng.integers(1, 5, n),
    })
    d["rentals"] = (50 + 8 * d["temp"] - 0.5 * d["humidity"] + 20 * np.sin(d["hour"] / 24 * 2 * np.pi)
                    - 10 * d["weather"] + rng.normal(0, 10, n))
    seasons[season] = d
# winter came from the new weather API, which returns the code as text
seasons["winter"]["weather"] = seasons["winter"]["weather"].astype(str)
""",
        r"""
season_models, season_rmse = {}, {}
for season, d in seasons.items():
    X, y = d[feature_cols], d["rentals"]
    model = xgb.XGBRegressor(n_estimators=500, max_depth=6, learning_rate=0.1, n_jobs=1, random_state=0)
    model.fit(X, y)
    season_models[season] = model
    season_rmse[season] = float(np.sqrt(np.mean((model.predict(X) - y) ** 2)))
""",
        r"""
season_models, season_rmse = {}, {}
for season, d in seasons.items():
    X, y = d[feature_cols].astype({"weather": int}), d["rentals"]
    model = xgb.XGBRegressor(n_estimators=500, max_depth=6, learning_rate=0.1, n_jobs=1, random_state=0)
    model.fit(X, y)
    season_models[season] = model
    season_rmse[season] = float(np.sqrt(np.mean((model.predict(X) - y) ** 2)))
""",
    ),
    # ---------------------------------------------------------------- lightgbm
    (
        "lightgbm_category_models_poisson_negative_units",
        r"""
import numpy as np
import pandas as pd
import lightgbm as lgb

rng = np.random.default_rng(27)
frames = []
for cat in ["beverages", "dairy", "household", "snacks", "toys"]:
    n = 30000
    d = pd.DataFrame({
        "category": cat,
        "store": rng.integers(0, 50, n),
        "dow": rng.integers(0, 7, n),
        "price": rng.uniform(1, 20, n),
        "promo": rng.integers(0, 2, n),
        "lag_7": rng.poisson(6, n),
    })
    lam = np.exp(1.2 + 0.4 * d["promo"] - 0.05 * d["price"] + 0.05 * d["lag_7"])
    d["units"] = rng.poisson(lam)
    frames.append(d)
sales = pd.concat(frames, ignore_index=True)
# toys are reported as net units: post-holiday returns make some rows negative
toys = sales["category"] == "toys"
sales.loc[toys, "units"] -= rng.poisson(0.3, toys.sum())
feature_cols = ["store", "dow", "price", "promo", "lag_7"]
""",
        r"""
cat_models = {}
for cat, d in sales.groupby("category"):
    model = lgb.LGBMRegressor(objective="poisson", n_estimators=300, num_leaves=63,
                              learning_rate=0.05, n_jobs=1, verbose=-1, random_state=0)
    model.fit(d[feature_cols], d["units"])
    cat_models[cat] = model
""",
        r"""
cat_models = {}
for cat, d in sales.groupby("category"):
    model = lgb.LGBMRegressor(objective="poisson", n_estimators=300, num_leaves=63,
                              learning_rate=0.05, n_jobs=1, verbose=-1, random_state=0)
    model.fit(d[feature_cols], d["units"].clip(lower=0))
    cat_models[cat] = model
""",
    ),
    # ------------------------------------------------------------ plain python
    (
        "python_corpus_sources_missing_key",
        r"""
import random
from collections import Counter

random.seed(28)
words = [f"w{i}" for i in range(3000)]
def make_doc(key):
    n = random.randint(80, 200)
    return {key: " ".join(random.choices(words, k=n)), "label": random.choice(["pos", "neg"])}
sources = {
    "forum": [make_doc("text") for _ in range(8500)],
    "reviews": [make_doc("text") for _ in range(8500)],
    "tweets": [make_doc("text") for _ in range(8500)],
    # the scraped blog posts were stored with a different schema
    "blogs": [make_doc("body") for _ in range(3000)],
}
""",
        r"""
unigram, bigram = Counter(), Counter()
label_counts = Counter()
for source, docs in sources.items():
    for doc in docs:
        tokens = doc["text"].lower().split()
        unigram.update(tokens)
        bigram.update(zip(tokens, tokens[1:]))
        label_counts[(source, doc["label"])] += 1
vocab = [w for w, c in unigram.most_common(2000)]
""",
        r"""
unigram, bigram = Counter(), Counter()
label_counts = Counter()
for source, docs in sources.items():
    for doc in docs:
        tokens = doc.get("text", doc.get("body", "")).lower().split()
        unigram.update(tokens)
        bigram.update(zip(tokens, tokens[1:]))
        label_counts[(source, doc["label"])] += 1
vocab = [w for w, c in unigram.most_common(2000)]
""",
    ),
    (
        "python_json_dumps_numpy_metrics",
        r"""
import json
import numpy as np

rng = np.random.default_rng(29)
y_true = rng.integers(0, 2, 500)
y_pred = np.where(rng.random(500) < 0.85, y_true, 1 - y_true)
metrics = {
    "accuracy": (y_true == y_pred).mean().astype(np.float32),
    "n_pos": np.int64(y_true.sum()),
    "run": "baseline-v2",
}
""",
        r"""
payload = json.dumps({"model": "logreg", "metrics": metrics}, indent=2)
""",
        r"""
clean = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in metrics.items()}
payload = json.dumps({"model": "logreg", "metrics": clean}, indent=2)
""",
    ),
]
