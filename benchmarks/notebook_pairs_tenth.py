"""Notebook crash/fix pairs, tenth set: 30 realistic Kaggle-style machine-learning
notebook failures, each with the small edit that a Kaggle user would make.

Every entry of ``PAIRS`` is ``(name, setup, crash, fixed)``:

* ``setup`` -- the earlier notebook cells joined into one string (imports
  included).  It runs clean.
* ``crash`` -- the target cell.  Executed after ``setup`` in the same namespace
  it raises an exception from the library or from Python itself (never an
  ``assert`` or ``raise`` written by the notebook author).
* ``fixed`` -- the same cell after the user's fix.  Executed after ``setup`` in a
  fresh namespace it runs clean and does the same work.

Indices below are 0-based positions in ``PAIRS``.

How it was made
---------------
Written from scratch, without looking at the tool it judges.  All data is
synthetic, made with ``numpy.random.default_rng`` (or ``random.seed``) with fixed
seeds; nothing is downloaded.  Files are written only into the current working
directory or a subfolder of it.  Everything runs on the CPU.  Each pair was
checked in fresh Python processes, each in a fresh temporary working directory
(setup + crash raises; setup + fixed runs clean), one pair at a time, twice.

Library versions checked against (``/work/main/.venv``): Python 3.11.7,
numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1, tensorflow 2.21.0 with
keras 3.15.1, torch 2.13.0+cpu, matplotlib 3.11.2, seaborn 0.13.2,
xgboost 3.2.0, lightgbm 4.7.0, scipy 1.17.1.

Mix by library (30)
-------------------
* pandas (7): 0-6
* numpy (3): 7-9
* scikit-learn (7): 10-16
* Keras, ``from tensorflow import keras`` (3): 17-19
* torch (4): 20-23
* matplotlib / seaborn (2): 24 (matplotlib), 25 (seaborn)
* xgboost / lightgbm (2): 26 (xgboost), 27 (lightgbm)
* plain Python (2): 28-29

Root causes
-----------
* API removed or changed in the installed versions (each checked to be really
  gone/changed): 1 ``DataFrame.append`` (pandas 2.0), 2 ``groupby().mean()`` no
  longer drops text columns (pandas 2.0 ``numeric_only=False``), 10
  ``OneHotEncoder(sparse=...)`` (now ``sparse_output``), 13
  ``mean_squared_error(squared=False)`` (now ``root_mean_squared_error``), 17
  Keras 3 ``model.save`` needs a ``.keras``/``.h5`` path, 21 ``torch.load``
  defaults to ``weights_only=True``, 24 ``plt.style.use("seaborn-whitegrid")``
  (now ``seaborn-v0_8-*``), 26 ``XGBClassifier.fit(early_stopping_rounds=...)``.
* Data confusion that only shows up in later rows / a few rows of big data:
  0 a second date format in the appended part of a log (pandas infers the format
  from the first row), 5 prices with thousands separators in the later scrape,
  3 a left merge gives NaN for stores missing from the lookup table and the int
  cast fails, 8 a few grayscale images among RGB ones, 15 NaN in a feature, 16 a
  hand-typed label with a trailing space makes a one-member class.
* Train/test mismatch: 11 new category in the test set (OneHotEncoder),
  14 ``get_dummies`` run separately on train and test (different columns),
  27 category dtype set on train only, test keeps object columns (lightgbm).
* Shape / dimension mismatch: 9 broadcasting without ``keepdims``, 18 integer
  labels with ``categorical_crossentropy``, 19 validation matrix still holds the
  target column, 22 LSTM hidden state sized for a full batch, last batch smaller.
* Wrong dtype / type / value passed to a library: 20 float64 numpy matrix into a
  float32 torch model, 23 1-based class labels for ``CrossEntropyLoss``,
  29 numpy ints into ``json.dump``.
* Index / label errors: 6 label-based ``.loc`` loop after ``dropna`` (index gaps
  late in the data), 25 one more feature than subplot axes.
* Wrong column names after a transformation: 4 MultiIndex columns after a
  dict-of-lists ``agg``.
* Estimator not fitted: 12 ``cross_val_score`` fits clones, then ``predict`` on
  the unfitted model.
* Numerical: 7 singular ``X^T X`` in a hand-written normal equation (a one-hot
  column that is all zeros after filtering).
* File path: 28 writing into an output folder that does not exist.

Long and short pairs
--------------------
Long (15; the crash comes only after about 2-5 s of real work in the target
cell on a 2-core CPU, raised at the end or late in the cell; the fixed cell
does the same work and runs clean): 0, 3, 5, 6, 8, 11, 12, 14, 17, 19, 20, 22,
25, 27, 28.

Short (15; the cell raises well under a second): 1, 2, 4, 7, 9, 10, 13, 15, 16,
18, 21, 23, 24, 26, 29.

Each setup runs in under about 10 s and the processes stay well under 2 GB of
memory.
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup, crash, fixed))


# ---------------------------------------------------------------------------
# [0] pandas: a later export of the POS log uses another date format
# ---------------------------------------------------------------------------
_add(
    "pandas_pos_log_chunked_mixed_date_format",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(101)
n_old, n_new = 1_830_000, 120_000
start = np.datetime64("2022-01-01T00:00:00")

secs = np.sort(rng.integers(0, 365 * 24 * 3600, n_old))
old = pd.DataFrame({
    "ts": start + secs.astype("timedelta64[s]"),
    "store": rng.integers(1, 41, n_old),
    "sku": rng.integers(1000, 1600, n_old),
    "qty": rng.integers(1, 6, n_old),
    "price": rng.gamma(2.0, 8.0, n_old).round(2),
})

# January 2023 comes from the new till system, exported by a different tool
secs_new = np.sort(rng.integers(365 * 24 * 3600, 396 * 24 * 3600, n_new))
new = pd.DataFrame({
    "ts": pd.Series(start + secs_new.astype("timedelta64[s]")).dt.strftime("%d/%m/%Y %H:%M"),
    "store": rng.integers(1, 41, n_new),
    "sku": rng.integers(1000, 1600, n_new),
    "qty": rng.integers(1, 6, n_new),
    "price": rng.gamma(2.0, 8.0, n_new).round(2),
})
old.to_csv("pos_log.csv", index=False)
new.to_csv("pos_log.csv", mode="a", header=False, index=False)   # appended to the same log
del old, new
print("rows written:", n_old + n_new)
''',
    r'''
daily_parts = []
for chunk in pd.read_csv("pos_log.csv", chunksize=100_000):
    chunk["ts"] = pd.to_datetime(chunk["ts"])
    chunk["revenue"] = chunk["qty"] * chunk["price"]
    chunk["date"] = chunk["ts"].dt.date
    chunk["hour"] = chunk["ts"].dt.hour
    chunk["is_weekend"] = chunk["ts"].apply(lambda t: t.weekday() >= 5)
    daily_parts.append(
        chunk.groupby(["store", "date"]).agg(
            revenue=("revenue", "sum"), n_tx=("qty", "size"), hour_sum=("hour", "sum"),
            weekend=("is_weekend", "max"),
        )
    )
daily = pd.concat(daily_parts).groupby(level=[0, 1]).sum()
daily["mean_hour"] = daily["hour_sum"] / daily["n_tx"]
print(daily.shape)
daily.head()
''',
    r'''
daily_parts = []
for chunk in pd.read_csv("pos_log.csv", chunksize=100_000):
    ts = pd.to_datetime(chunk["ts"], format="%Y-%m-%d %H:%M:%S", errors="coerce")
    chunk["ts"] = ts.fillna(pd.to_datetime(chunk["ts"], format="%d/%m/%Y %H:%M", errors="coerce"))
    chunk["revenue"] = chunk["qty"] * chunk["price"]
    chunk["date"] = chunk["ts"].dt.date
    chunk["hour"] = chunk["ts"].dt.hour
    chunk["is_weekend"] = chunk["ts"].apply(lambda t: t.weekday() >= 5)
    daily_parts.append(
        chunk.groupby(["store", "date"]).agg(
            revenue=("revenue", "sum"), n_tx=("qty", "size"), hour_sum=("hour", "sum"),
            weekend=("is_weekend", "max"),
        )
    )
daily = pd.concat(daily_parts).groupby(level=[0, 1]).sum()
daily["mean_hour"] = daily["hour_sum"] / daily["n_tx"]
print(daily.shape)
daily.head()
''',
)

# ---------------------------------------------------------------------------
# [1] pandas: DataFrame.append was removed in pandas 2.0
# ---------------------------------------------------------------------------
_add(
    "pandas_collect_cv_scores_dataframe_append",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(202)
cv_scores = {
    "logreg": 0.81 + rng.normal(0, 0.01, 5),
    "random_forest": 0.86 + rng.normal(0, 0.01, 5),
    "lightgbm": 0.88 + rng.normal(0, 0.01, 5),
    "knn": 0.77 + rng.normal(0, 0.02, 5),
}
''',
    r'''
results = pd.DataFrame(columns=["model", "fold", "auc"])
for name, scores in cv_scores.items():
    for fold, s in enumerate(scores):
        results = results.append({"model": name, "fold": fold, "auc": s}, ignore_index=True)

summary = results.groupby("model")["auc"].agg(["mean", "std"]).sort_values("mean", ascending=False)
summary
''',
    r'''
rows = []
for name, scores in cv_scores.items():
    for fold, s in enumerate(scores):
        rows.append({"model": name, "fold": fold, "auc": s})
results = pd.DataFrame(rows, columns=["model", "fold", "auc"])

summary = results.groupby("model")["auc"].agg(["mean", "std"]).sort_values("mean", ascending=False)
summary
''',
)

# ---------------------------------------------------------------------------
# [2] pandas: groupby().mean() no longer drops text columns silently
# ---------------------------------------------------------------------------
_add(
    "pandas_titanic_groupby_mean_text_columns",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(303)
n = 891
first = np.array(["John", "Mary", "William", "Anna", "James", "Elizabeth", "Thomas", "Margaret"])
last = np.array(["Smith", "Brown", "Kelly", "Olsen", "Andersson", "Murphy", "Palsson"])
df = pd.DataFrame({
    "PassengerId": np.arange(1, n + 1),
    "Pclass": rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    "Name": [f"{l}, {f}" for f, l in zip(rng.choice(first, n), rng.choice(last, n))],
    "Sex": rng.choice(["male", "female"], n, p=[0.65, 0.35]),
    "Age": rng.normal(30, 14, n).clip(0.5, 80).round(1),
    "Fare": rng.gamma(1.5, 20, n).round(2),
    "Embarked": rng.choice(["S", "C", "Q"], n, p=[0.72, 0.19, 0.09]),
})
df.loc[rng.random(n) < 0.2, "Age"] = np.nan
df["Survived"] = (rng.random(n) < np.where(df["Sex"] == "female", 0.74, 0.19)).astype(int)
''',
    r'''
class_means = df.groupby("Pclass").mean()
df["Age"] = df["Age"].fillna(df["Pclass"].map(class_means["Age"]))
df["Age"].isna().sum()
''',
    r'''
class_means = df.groupby("Pclass").mean(numeric_only=True)
df["Age"] = df["Age"].fillna(df["Pclass"].map(class_means["Age"]))
df["Age"].isna().sum()
''',
)

# ---------------------------------------------------------------------------
# [3] pandas: left merge with the store table gives NaN for new stores
# ---------------------------------------------------------------------------
_add(
    "pandas_sales_features_merge_new_stores_int_cast",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(404)
n = 1_000_000
day = np.sort(rng.integers(0, 120, n))
store = rng.integers(1, 49, n)
# two stores opened in the last three weeks of the period
late = day >= 100
store[late] = rng.integers(1, 51, late.sum())
tx = pd.DataFrame({
    "day": day,
    "store_id": store,
    "item_id": rng.integers(0, 150, n),
    "units": rng.poisson(3.0, n),
    "price": rng.gamma(3.0, 2.5, n).round(2),
})
stores = pd.DataFrame({
    "store_id": np.arange(1, 49),
    "region_code": rng.integers(1, 9, 48),
    "size_m2": rng.integers(300, 2500, 48),
})
tx.shape, stores.shape
''',
    r'''
tx = tx.sort_values(["store_id", "item_id", "day"]).reset_index(drop=True)
g = tx.groupby(["store_id", "item_id"])["units"]
tx["lag_1"] = g.shift(1)
for w in (7, 14, 28):
    tx[f"roll_{w}"] = g.transform(lambda s: s.rolling(w, min_periods=1).mean())
tx["item_mean"] = tx.groupby("item_id")["units"].transform("mean")
tx["revenue"] = tx["units"] * tx["price"]
tx = tx.merge(stores, on="store_id", how="left")
tx["region_code"] = tx["region_code"].astype(np.int32)
tx["size_m2"] = tx["size_m2"].astype(np.int32)
tx.info()
''',
    r'''
tx = tx.sort_values(["store_id", "item_id", "day"]).reset_index(drop=True)
g = tx.groupby(["store_id", "item_id"])["units"]
tx["lag_1"] = g.shift(1)
for w in (7, 14, 28):
    tx[f"roll_{w}"] = g.transform(lambda s: s.rolling(w, min_periods=1).mean())
tx["item_mean"] = tx.groupby("item_id")["units"].transform("mean")
tx["revenue"] = tx["units"] * tx["price"]
tx = tx.merge(stores, on="store_id", how="left")
tx["region_code"] = tx["region_code"].fillna(0).astype(np.int32)
tx["size_m2"] = tx["size_m2"].fillna(stores["size_m2"].median()).astype(np.int32)
tx.info()
''',
)

# ---------------------------------------------------------------------------
# [4] pandas: named column after a dict-of-lists agg (MultiIndex columns)
# ---------------------------------------------------------------------------
_add(
    "pandas_customer_agg_multiindex_column_name",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(505)
n = 60_000
trans = pd.DataFrame({
    "customer_id": rng.integers(0, 4000, n),
    "amount": rng.lognormal(3.0, 1.0, n).round(2),
    "days_since": rng.integers(0, 365, n),
    "channel": rng.choice(["web", "app", "store"], n),
})
''',
    r'''
agg = trans.groupby("customer_id").agg({"amount": ["mean", "sum", "count"], "days_since": ["min"]})
agg = agg.reset_index()
agg["avg_ticket"] = agg["amount_sum"] / agg["amount_count"]
agg["recency"] = agg["days_since_min"]
agg.head()
''',
    r'''
agg = trans.groupby("customer_id").agg({"amount": ["mean", "sum", "count"], "days_since": ["min"]})
agg.columns = ["_".join(c) for c in agg.columns]
agg = agg.reset_index()
agg["avg_ticket"] = agg["amount_sum"] / agg["amount_count"]
agg["recency"] = agg["days_since_min"]
agg.head()
''',
)

# ---------------------------------------------------------------------------
# [5] pandas: the later scrape writes prices with thousands separators
# ---------------------------------------------------------------------------
_add(
    "pandas_listings_price_thousands_separator_late_rows",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(606)
n = 1_000_000
cut = 800_000
price = rng.lognormal(6.0, 0.8, n).round(2)
price_col = price.astype(object)
price_col[cut:] = [f"{p:,.2f}" for p in price[cut:]]
hoods = np.array(["  downtown", "harbour ", "old town", "university", "north hills", "riverside "])
bed = rng.integers(0, 5, n)
bedrooms_text = np.where(bed == 0, "Studio", pd.Series(bed).astype(str).to_numpy() + " bedrooms")
pd.DataFrame({
    "id": np.arange(n),
    "name": rng.choice(["Cozy", "Bright", "Modern", "Charming", "Quiet"], n) + " "
            + rng.choice(["studio", "flat", "loft", "apartment with balcony", "room near the station"], n)
            + " in " + rng.choice(["the centre", "the old town", "a green area"], n),
    "neighbourhood": rng.choice(hoods, n),
    "room_type": rng.choice(["Entire home/apt", "Private room", "Shared room"], n),
    "bedrooms_text": bedrooms_text,
    "reviews": rng.poisson(20, n),
    "amenities": rng.choice(['{"Wifi","Kitchen"}', '{"Wifi","Heating","Washer"}', '{"Kitchen"}',
                             '{"Wifi","Kitchen","Free parking","Dryer","TV"}'], n),
    "price": price_col,
}).to_csv("listings.csv", index=False)
''',
    r'''
listings = pd.read_csv("listings.csv")
listings["neighbourhood"] = listings["neighbourhood"].str.strip().str.title()
listings["name_words"] = listings["name"].str.count(" ") + 1
listings["name_len"] = listings["name"].str.len()
listings["name_has_view"] = listings["name"].str.contains("balcony|view", case=False)
listings["bedrooms"] = listings["bedrooms_text"].str.extract(r"(\d+)", expand=False).astype(float).fillna(0)
listings["is_studio"] = listings["bedrooms_text"].str.contains("studio", case=False)
listings["room_type"] = listings["room_type"].str.lower().str.replace("/", "_").str.replace(" ", "_")
listings["reviews_per_month"] = listings["reviews"] / 12
listings["n_amenities"] = listings["amenities"].str.count(",") + 1
listings["has_wifi"] = listings["amenities"].str.contains("Wifi", regex=False)
listings["has_parking"] = listings["amenities"].str.contains("parking", case=False)
listings["price"] = listings["price"].astype(float)
listings["log_price"] = np.log1p(listings["price"])
listings.describe()
''',
    r'''
listings = pd.read_csv("listings.csv", thousands=",")
listings["neighbourhood"] = listings["neighbourhood"].str.strip().str.title()
listings["name_words"] = listings["name"].str.count(" ") + 1
listings["name_len"] = listings["name"].str.len()
listings["name_has_view"] = listings["name"].str.contains("balcony|view", case=False)
listings["bedrooms"] = listings["bedrooms_text"].str.extract(r"(\d+)", expand=False).astype(float).fillna(0)
listings["is_studio"] = listings["bedrooms_text"].str.contains("studio", case=False)
listings["room_type"] = listings["room_type"].str.lower().str.replace("/", "_").str.replace(" ", "_")
listings["reviews_per_month"] = listings["reviews"] / 12
listings["n_amenities"] = listings["amenities"].str.count(",") + 1
listings["has_wifi"] = listings["amenities"].str.contains("Wifi", regex=False)
listings["has_parking"] = listings["amenities"].str.contains("parking", case=False)
listings["price"] = listings["price"].astype(float)
listings["log_price"] = np.log1p(listings["price"])
listings.describe()
''',
)

# ---------------------------------------------------------------------------
# [6] pandas: label-based loop after dropna (index has gaps late in the data)
# ---------------------------------------------------------------------------
_add(
    "pandas_sensor_dropna_loop_loc_missing_label",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(707)
n = 600_000
sensor = pd.DataFrame({
    "timestamp": pd.date_range("2023-03-01", periods=n, freq="s"),
    "sensor_id": "pump_07",
    "reading": np.cumsum(rng.normal(0, 0.8, n)) + 50,
})
# the battery started failing late in the recording: some readings are missing
gaps = rng.choice(np.arange(400_000, n), 3_000, replace=False)
sensor.loc[gaps, "reading"] = np.nan
sensor["reading"].isna().sum()
''',
    r'''
clean = sensor.dropna(subset=["reading"])
jumps = []
for i in range(1, len(clean)):
    delta = clean.loc[i, "reading"] - clean.loc[i - 1, "reading"]
    if abs(delta) > 3.0:
        jumps.append(i)
print(len(jumps), "sudden jumps")
''',
    r'''
clean = sensor.dropna(subset=["reading"]).reset_index(drop=True)
jumps = []
for i in range(1, len(clean)):
    delta = clean.loc[i, "reading"] - clean.loc[i - 1, "reading"]
    if abs(delta) > 3.0:
        jumps.append(i)
print(len(jumps), "sudden jumps")
''',
)

# ---------------------------------------------------------------------------
# [7] numpy: normal equation with an empty one-hot column (singular X^T X)
# ---------------------------------------------------------------------------
_add(
    "numpy_normal_equation_empty_dummy_singular",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(808)
n = 5000
year_sold = rng.integers(2006, 2011, n)
houses = pd.DataFrame({
    "area": rng.normal(140, 40, n).clip(30),
    "rooms": rng.integers(1, 7, n),
    "age": rng.integers(0, 80, n),
    # zone "E" was merged into "D" by the city in 2009
    "zone": np.where(year_sold < 2009, rng.choice(["A", "B", "C", "D", "E"], n), rng.choice(["A", "B", "C", "D"], n)),
    "year_sold": year_sold,
})
houses["price"] = 1200 * houses["area"] + 9000 * houses["rooms"] - 300 * houses["age"] + rng.normal(0, 15000, n)
houses["zone"] = houses["zone"].astype("category")

# only the recent sales are used for the model
recent = houses[houses["year_sold"] >= 2009]
dummies = pd.get_dummies(recent["zone"], prefix="zone", drop_first=True, dtype=float)
X = np.column_stack([np.ones(len(recent)), recent[["area", "rooms", "age"]].to_numpy(float), dummies.to_numpy()])
y = recent["price"].to_numpy()
X.shape
''',
    r'''
theta = np.linalg.inv(X.T @ X) @ X.T @ y
pred = X @ theta
rmse = np.sqrt(np.mean((y - pred) ** 2))
print("RMSE:", round(rmse, 1))
''',
    r'''
theta = np.linalg.lstsq(X, y, rcond=None)[0]
pred = X @ theta
rmse = np.sqrt(np.mean((y - pred) ** 2))
print("RMSE:", round(rmse, 1))
''',
)

# ---------------------------------------------------------------------------
# [8] numpy: a few grayscale images among RGB ones break np.stack
# ---------------------------------------------------------------------------
_add(
    "numpy_image_folder_grayscale_stack_shape",
    r'''
import os
import numpy as np

rng = np.random.default_rng(909)
os.makedirs("images", exist_ok=True)
n_img = 4500
gray_ids = set(rng.choice(np.arange(4000, n_img), 6, replace=False).tolist())
for k in range(n_img):
    if k in gray_ids:
        img = rng.integers(0, 256, (96, 96), dtype=np.uint8)
    else:
        img = rng.integers(0, 256, (96, 96, 3), dtype=np.uint8)
    np.save(f"images/img_{k:05d}.npy", img)
labels = rng.integers(0, 2, n_img)
len(os.listdir("images"))
''',
    r'''
import glob

paths = sorted(glob.glob("images/*.npy"))
thumbs, feats = [], []
for p in paths:
    img = np.load(p).astype(np.float32) / 255.0
    hist = np.histogram(img, bins=32, range=(0.0, 1.0))[0] / img.size
    edges = np.abs(np.diff(img, axis=0)).mean() + np.abs(np.diff(img, axis=1)).mean()
    thumb = img.reshape(48, 2, 48, 2, -1).mean(axis=(1, 3))
    feats.append(np.r_[hist, edges, img.mean(), img.std()])
    thumbs.append(thumb)
X_thumb = np.stack(thumbs)
X_feat = np.stack(feats)
print(X_thumb.shape, X_feat.shape)
''',
    r'''
import glob

paths = sorted(glob.glob("images/*.npy"))
thumbs, feats = [], []
for p in paths:
    img = np.load(p).astype(np.float32) / 255.0
    if img.ndim == 2:
        img = np.stack([img] * 3, axis=-1)
    hist = np.histogram(img, bins=32, range=(0.0, 1.0))[0] / img.size
    edges = np.abs(np.diff(img, axis=0)).mean() + np.abs(np.diff(img, axis=1)).mean()
    thumb = img.reshape(48, 2, 48, 2, -1).mean(axis=(1, 3))
    feats.append(np.r_[hist, edges, img.mean(), img.std()])
    thumbs.append(thumb)
X_thumb = np.stack(thumbs)
X_feat = np.stack(feats)
print(X_thumb.shape, X_feat.shape)
''',
)

# ---------------------------------------------------------------------------
# [9] numpy: per-sample standardisation without keepdims
# ---------------------------------------------------------------------------
_add(
    "numpy_spectra_row_standardise_broadcast",
    r'''
import numpy as np

rng = np.random.default_rng(1010)
n_samples, n_wavelengths = 4000, 120
baseline = rng.normal(0, 3, (n_samples, 1))
X = rng.normal(0, 1, (n_samples, n_wavelengths)).cumsum(axis=1) + baseline
y = (X[:, 40:60].mean(axis=1) > X[:, 80:100].mean(axis=1)).astype(int)
X.shape
''',
    r'''
X_norm = (X - X.mean(axis=1)) / X.std(axis=1)
first_deriv = np.diff(X_norm, axis=1)
features = np.hstack([X_norm, first_deriv])
features.shape
''',
    r'''
X_norm = (X - X.mean(axis=1, keepdims=True)) / X.std(axis=1, keepdims=True)
first_deriv = np.diff(X_norm, axis=1)
features = np.hstack([X_norm, first_deriv])
features.shape
''',
)

# ---------------------------------------------------------------------------
# [10] scikit-learn: OneHotEncoder(sparse=...) was removed (now sparse_output)
# ---------------------------------------------------------------------------
_add(
    "sklearn_onehotencoder_sparse_keyword_removed",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1111)
n = 8000
df = pd.DataFrame({
    "workclass": rng.choice(["Private", "Self-emp", "Gov", "Unknown"], n),
    "education": rng.choice(["HS-grad", "Bachelors", "Masters", "Some-college", "Doctorate"], n),
    "sex": rng.choice(["Male", "Female"], n),
    "age": rng.integers(17, 90, n),
    "hours_per_week": rng.integers(5, 80, n),
})
df["income_gt_50k"] = (rng.random(n) < 0.24).astype(int)
cat_cols = ["workclass", "education", "sex"]

from sklearn.preprocessing import OneHotEncoder
''',
    r'''
enc = OneHotEncoder(sparse=False, handle_unknown="ignore")
onehot = enc.fit_transform(df[cat_cols])
onehot_df = pd.DataFrame(onehot, columns=enc.get_feature_names_out(cat_cols), index=df.index)
X = pd.concat([df[["age", "hours_per_week"]], onehot_df], axis=1)
X.shape
''',
    r'''
enc = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
onehot = enc.fit_transform(df[cat_cols])
onehot_df = pd.DataFrame(onehot, columns=enc.get_feature_names_out(cat_cols), index=df.index)
X = pd.concat([df[["age", "hours_per_week"]], onehot_df], axis=1)
X.shape
''',
)

# ---------------------------------------------------------------------------
# [11] scikit-learn: the test set has cities never seen in training
# ---------------------------------------------------------------------------
_add(
    "sklearn_pipeline_cv_then_unseen_test_category",
    r'''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(1212)
cities = [f"city_{k:02d}" for k in range(20)]


def make_frame(n, city_pool):
    d = pd.DataFrame({
        "city": rng.choice(city_pool, n),
        "plan": rng.choice(["basic", "plus", "pro"], n),
        "device": rng.choice(["ios", "android", "web"], n),
        "tenure": rng.integers(1, 72, n),
        "monthly": rng.normal(60, 20, n).round(2),
        "tickets": rng.poisson(1.2, n),
        "usage_gb": rng.gamma(2, 10, n),
    })
    logit = -1.0 + 0.03 * d["tickets"] * 10 - 0.02 * d["tenure"] + (d["plan"] == "basic") * 0.8
    d["churn"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return d


train = make_frame(12_000, cities)
# the company expanded: the test month contains two new cities
test = make_frame(3_000, cities + ["city_20", "city_21"]).drop(columns="churn")
cat_cols = ["city", "plan", "device"]
num_cols = ["tenure", "monthly", "tickets", "usage_gb"]
''',
    r'''
pre = ColumnTransformer([
    ("cat", OneHotEncoder(), cat_cols),
    ("num", StandardScaler(), num_cols),
])
clf = Pipeline([("pre", pre), ("gb", GradientBoostingClassifier(n_estimators=120, max_depth=3, random_state=0))])
scores = cross_val_score(clf, train[cat_cols + num_cols], train["churn"], cv=3, scoring="roc_auc")
print("CV AUC: %.4f +/- %.4f" % (scores.mean(), scores.std()))
clf.fit(train[cat_cols + num_cols], train["churn"])
test["churn_proba"] = clf.predict_proba(test[cat_cols + num_cols])[:, 1]
test[["city", "churn_proba"]].head()
''',
    r'''
pre = ColumnTransformer([
    ("cat", OneHotEncoder(handle_unknown="ignore"), cat_cols),
    ("num", StandardScaler(), num_cols),
])
clf = Pipeline([("pre", pre), ("gb", GradientBoostingClassifier(n_estimators=120, max_depth=3, random_state=0))])
scores = cross_val_score(clf, train[cat_cols + num_cols], train["churn"], cv=3, scoring="roc_auc")
print("CV AUC: %.4f +/- %.4f" % (scores.mean(), scores.std()))
clf.fit(train[cat_cols + num_cols], train["churn"])
test["churn_proba"] = clf.predict_proba(test[cat_cols + num_cols])[:, 1]
test[["city", "churn_proba"]].head()
''',
)

# ---------------------------------------------------------------------------
# [12] scikit-learn: cross_val_score fits clones, the model itself stays unfitted
# ---------------------------------------------------------------------------
_add(
    "sklearn_cross_val_score_then_predict_unfitted",
    r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(1313)
n, p = 9000, 24
X = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"f{k}" for k in range(p)])
y = ((X["f0"] + X["f3"] * X["f5"] - 0.5 * X["f7"] + rng.normal(0, 0.8, n)) > 0).astype(int)
X_test = pd.DataFrame(rng.normal(size=(2500, p)), columns=X.columns)
''',
    r'''
model = RandomForestClassifier(n_estimators=35, min_samples_leaf=2, random_state=42)
scores = cross_val_score(model, X, y, cv=5, scoring="accuracy")
print("CV accuracy:", scores.round(4), "mean", scores.mean().round(4))
submission = pd.DataFrame({"id": np.arange(len(X_test)), "target": model.predict(X_test)})
submission.to_csv("submission.csv", index=False)
''',
    r'''
model = RandomForestClassifier(n_estimators=35, min_samples_leaf=2, random_state=42)
scores = cross_val_score(model, X, y, cv=5, scoring="accuracy")
print("CV accuracy:", scores.round(4), "mean", scores.mean().round(4))
model.fit(X, y)
submission = pd.DataFrame({"id": np.arange(len(X_test)), "target": model.predict(X_test)})
submission.to_csv("submission.csv", index=False)
''',
)

# ---------------------------------------------------------------------------
# [13] scikit-learn: mean_squared_error(squared=False) was removed
# ---------------------------------------------------------------------------
_add(
    "sklearn_rmse_squared_keyword_removed",
    r'''
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(1414)
X = rng.normal(size=(6000, 15))
y = X @ rng.normal(size=15) * 3 + rng.normal(0, 2, 6000) + 50
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=0)
ridge = Ridge(alpha=1.0).fit(X_tr, y_tr)
''',
    r'''
from sklearn.metrics import mean_squared_error

preds = ridge.predict(X_va)
rmse = mean_squared_error(y_va, preds, squared=False)
print(f"Validation RMSE: {rmse:.3f}")
''',
    r'''
from sklearn.metrics import root_mean_squared_error

preds = ridge.predict(X_va)
rmse = root_mean_squared_error(y_va, preds)
print(f"Validation RMSE: {rmse:.3f}")
''',
)

# ---------------------------------------------------------------------------
# [14] scikit-learn: get_dummies on train and test separately -> different columns
# ---------------------------------------------------------------------------
_add(
    "sklearn_get_dummies_separately_feature_mismatch",
    r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor

rng = np.random.default_rng(1515)
hoods = ["NAmes", "CollgCr", "OldTown", "Edwards", "Somerst", "Gilbert", "NridgHt", "Sawyer"]
styles_train = ["1Story", "2Story", "1.5Fin", "SLvl", "SFoyer", "2.5Unf"]
styles_test = ["1Story", "2Story", "1.5Fin", "SLvl", "SFoyer"]


def make(n, styles):
    d = pd.DataFrame({
        "Neighborhood": rng.choice(hoods, n),
        "HouseStyle": rng.choice(styles, n),
        "GrLivArea": rng.normal(1500, 450, n).clip(400).round(),
        "OverallQual": rng.integers(1, 11, n),
        "YearBuilt": rng.integers(1900, 2010, n),
        "GarageCars": rng.integers(0, 4, n),
    })
    d["SalePrice"] = 60 * d["GrLivArea"] + 18000 * d["OverallQual"] + 400 * (d["YearBuilt"] - 1900) + rng.normal(0, 20000, n)
    return d


train = make(15_000, styles_train)
test = make(4_000, styles_test).drop(columns="SalePrice")
features = ["Neighborhood", "HouseStyle", "GrLivArea", "OverallQual", "YearBuilt", "GarageCars"]
''',
    r'''
X_train = pd.get_dummies(train[features])
X_test = pd.get_dummies(test[features])
y_train = np.log1p(train["SalePrice"])
gbr = GradientBoostingRegressor(n_estimators=320, max_depth=3, learning_rate=0.05, random_state=0)
gbr.fit(X_train, y_train)
print("train R2:", round(gbr.score(X_train, y_train), 4))
test_pred = np.expm1(gbr.predict(X_test))
pd.DataFrame({"Id": test.index, "SalePrice": test_pred}).to_csv("submission.csv", index=False)
''',
    r'''
X_train = pd.get_dummies(train[features])
X_test = pd.get_dummies(test[features]).reindex(columns=X_train.columns, fill_value=0)
y_train = np.log1p(train["SalePrice"])
gbr = GradientBoostingRegressor(n_estimators=320, max_depth=3, learning_rate=0.05, random_state=0)
gbr.fit(X_train, y_train)
print("train R2:", round(gbr.score(X_train, y_train), 4))
test_pred = np.expm1(gbr.predict(X_test))
pd.DataFrame({"Id": test.index, "SalePrice": test_pred}).to_csv("submission.csv", index=False)
''',
)

# ---------------------------------------------------------------------------
# [15] scikit-learn: missing incomes reach LogisticRegression
# ---------------------------------------------------------------------------
_add(
    "sklearn_credit_logreg_nan_income",
    r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(1616)
n = 20_000
credit = pd.DataFrame({
    "age": rng.integers(21, 75, n),
    "income": rng.lognormal(10.5, 0.5, n),
    "debt_ratio": rng.beta(2, 5, n),
    "n_open_lines": rng.poisson(8, n),
    "late_30_59": rng.poisson(0.3, n),
})
credit.loc[rng.random(n) < 0.15, "income"] = np.nan   # not reported by applicant
credit["default"] = (rng.random(n) < 0.07 + 0.2 * credit["debt_ratio"]).astype(int)
X_tr, X_va, y_tr, y_va = train_test_split(credit.drop(columns="default"), credit["default"], test_size=0.25, random_state=1)
''',
    r'''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
logreg.fit(X_tr, y_tr)
print("val AUC:", roc_auc_score(y_va, logreg.predict_proba(X_va)[:, 1]))
''',
    r'''
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

logreg = make_pipeline(SimpleImputer(strategy="median"), StandardScaler(), LogisticRegression(max_iter=1000))
logreg.fit(X_tr, y_tr)
print("val AUC:", roc_auc_score(y_va, logreg.predict_proba(X_va)[:, 1]))
''',
)

# ---------------------------------------------------------------------------
# [16] scikit-learn: a label typo makes a class with a single member
# ---------------------------------------------------------------------------
_add(
    "sklearn_stratified_split_label_typo_single_member",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1717)
n = 1500
species = rng.choice(["Adelie", "Chinstrap", "Gentoo"], n, p=[0.44, 0.2, 0.36]).astype(object)
species[1234] = "Gentoo "          # typed by hand in the field sheet
penguins = pd.DataFrame({
    "bill_length_mm": rng.normal(44, 5, n).round(1),
    "bill_depth_mm": rng.normal(17, 2, n).round(1),
    "flipper_length_mm": rng.normal(200, 14, n).round(),
    "body_mass_g": rng.normal(4200, 800, n).round(),
    "species": species,
})
X = penguins.drop(columns="species")
y = penguins["species"]

from sklearn.model_selection import train_test_split
''',
    r'''
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)
y_train.value_counts(normalize=True)
''',
    r'''
y = y.str.strip()
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)
y_train.value_counts(normalize=True)
''',
)

# ---------------------------------------------------------------------------
# [17] Keras: Keras 3 refuses to save to a path without .keras/.h5
# ---------------------------------------------------------------------------
_add(
    "keras_train_then_save_without_extension",
    r'''
import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(18)
rng = np.random.default_rng(1818)
n, p = 60_000, 30
X = rng.normal(size=(n, p)).astype("float32")
y = ((X[:, 0] + X[:, 1] * X[:, 2] - X[:, 5]) > 0).astype("float32")
X_tr, X_va, y_tr, y_va = X[:50_000], X[50_000:], y[:50_000], y[50_000:]

model = keras.Sequential([
    keras.Input(shape=(p,)),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
''',
    r'''
history = model.fit(X_tr, y_tr, validation_data=(X_va, y_va), epochs=9, batch_size=256, verbose=0)
print("best val acc:", max(history.history["val_accuracy"]))
model.save("churn_model")
''',
    r'''
history = model.fit(X_tr, y_tr, validation_data=(X_va, y_va), epochs=9, batch_size=256, verbose=0)
print("best val acc:", max(history.history["val_accuracy"]))
model.save("churn_model.keras")
''',
)

# ---------------------------------------------------------------------------
# [18] Keras: integer labels with categorical_crossentropy
# ---------------------------------------------------------------------------
_add(
    "keras_integer_labels_categorical_crossentropy",
    r'''
import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(19)
rng = np.random.default_rng(1919)
n = 6000
X = rng.random((n, 64)).astype("float32")
y = rng.integers(0, 10, n)
X_train, X_val, y_train, y_val = X[:5000], X[5000:], y[:5000], y[5000:]

model = keras.Sequential([
    keras.Input(shape=(64,)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
''',
    r'''
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=3, batch_size=64, verbose=0)
history.history["val_accuracy"][-1]
''',
    r'''
y_train_oh = keras.utils.to_categorical(y_train, 10)
y_val_oh = keras.utils.to_categorical(y_val, 10)
history = model.fit(X_train, y_train_oh, validation_data=(X_val, y_val_oh), epochs=3, batch_size=64, verbose=0)
history.history["val_accuracy"][-1]
''',
)

# ---------------------------------------------------------------------------
# [19] Keras: the validation matrix still contains the target column
# ---------------------------------------------------------------------------
_add(
    "keras_validation_features_include_target",
    r'''
import numpy as np
import pandas as pd
from tensorflow import keras

keras.utils.set_random_seed(20)
rng = np.random.default_rng(2020)
n, p = 440_000, 20
df = pd.DataFrame(rng.normal(size=(n, p)).astype("float32"), columns=[f"f{k}" for k in range(p)])
df["id"] = np.arange(n)
df["target"] = ((df["f0"] - df["f1"] + 0.5 * df["f2"] * df["f3"]) > 0).astype("float32")
train_df, val_df = df.iloc[:400_000], df.iloc[400_000:]

model = keras.Sequential([
    keras.Input(shape=(p,)),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["AUC"])
''',
    r'''
X_train = train_df.drop(columns=["id", "target"]).values
y_train = train_df["target"].values
X_val = val_df.drop(columns=["id"]).values
y_val = val_df["target"].values
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=2, batch_size=128, verbose=0)
print(history.history["val_AUC"][-1])
''',
    r'''
X_train = train_df.drop(columns=["id", "target"]).values
y_train = train_df["target"].values
X_val = val_df.drop(columns=["id", "target"]).values
y_val = val_df["target"].values
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=2, batch_size=128, verbose=0)
print(history.history["val_AUC"][-1])
''',
)

# ---------------------------------------------------------------------------
# [20] torch: float64 numpy test matrix fed to a float32 model after training
# ---------------------------------------------------------------------------
_add(
    "torch_regression_train_then_predict_float64",
    r'''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(21)
rng = np.random.default_rng(2121)
n, p = 40_000, 20
X = rng.normal(size=(n, p))
y = X @ rng.normal(size=p) + 0.5 * X[:, 0] ** 2 + rng.normal(0, 0.3, n)
X_train, y_train = X[:32_000], y[:32_000]
X_test = X[32_000:]          # kept as float64 numpy for the submission cell

train_ds = TensorDataset(torch.tensor(X_train, dtype=torch.float32), torch.tensor(y_train, dtype=torch.float32).unsqueeze(1))
train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
model = nn.Sequential(nn.Linear(p, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
''',
    r'''
for epoch in range(15):
    model.train()
    total = 0.0
    for xb, yb in train_dl:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: train mse {total / len(train_ds):.4f}")

model.eval()
with torch.no_grad():
    test_pred = model(torch.from_numpy(X_test)).squeeze(1).numpy()
test_pred[:5]
''',
    r'''
for epoch in range(15):
    model.train()
    total = 0.0
    for xb, yb in train_dl:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: train mse {total / len(train_ds):.4f}")

model.eval()
with torch.no_grad():
    test_pred = model(torch.from_numpy(X_test).float()).squeeze(1).numpy()
test_pred[:5]
''',
)

# ---------------------------------------------------------------------------
# [21] torch: torch.load defaults to weights_only=True since 2.6
# ---------------------------------------------------------------------------
_add(
    "torch_load_checkpoint_with_numpy_scaler",
    r'''
import numpy as np
import torch
from torch import nn

torch.manual_seed(22)
rng = np.random.default_rng(2222)
X = rng.normal(5, 2, size=(3000, 8))
mean, std = X.mean(axis=0), X.std(axis=0)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
# an earlier cell saved the model together with the scaler statistics
torch.save({"model_state": model.state_dict(), "mean": mean, "std": std, "epoch": 12}, "checkpoint.pt")
new_batch = rng.normal(5, 2, size=(16, 8))
''',
    r'''
ckpt = torch.load("checkpoint.pt")
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
model.load_state_dict(ckpt["model_state"])
xb = torch.tensor((new_batch - ckpt["mean"]) / ckpt["std"], dtype=torch.float32)
with torch.no_grad():
    print(model(xb).squeeze(1)[:4])
''',
    r'''
ckpt = torch.load("checkpoint.pt", weights_only=False)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
model.load_state_dict(ckpt["model_state"])
xb = torch.tensor((new_batch - ckpt["mean"]) / ckpt["std"], dtype=torch.float32)
with torch.no_grad():
    print(model(xb).squeeze(1)[:4])
''',
)

# ---------------------------------------------------------------------------
# [22] torch: LSTM hidden state sized for a full batch, last batch is smaller
# ---------------------------------------------------------------------------
_add(
    "torch_lstm_fixed_batch_hidden_last_batch",
    r'''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(23)
rng = np.random.default_rng(2323)
n_seq, seq_len, n_feat = 66_000, 40, 8
X = rng.normal(size=(n_seq, seq_len, n_feat)).astype(np.float32)
y = (X[:, -5:, 0].mean(axis=1) > 0).astype(np.int64)
BATCH_SIZE = 64
train_dl = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=BATCH_SIZE, shuffle=True)


class SeqClassifier(nn.Module):
    def __init__(self, n_feat, hidden=64):
        super().__init__()
        self.hidden = hidden
        self.lstm = nn.LSTM(n_feat, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 2)

    def init_hidden(self, batch_size):
        return (torch.zeros(1, batch_size, self.hidden), torch.zeros(1, batch_size, self.hidden))

    def forward(self, x, hc):
        out, hc = self.lstm(x, hc)
        return self.head(out[:, -1]), hc


model = SeqClassifier(n_feat)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
criterion = nn.CrossEntropyLoss()
''',
    r'''
for epoch in range(2):
    correct = 0
    for xb, yb in train_dl:
        hc = model.init_hidden(BATCH_SIZE)
        logits, _ = model(xb, hc)
        loss = criterion(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (logits.argmax(1) == yb).sum().item()
    print(f"epoch {epoch}: acc {correct / n_seq:.3f}")
''',
    r'''
for epoch in range(2):
    correct = 0
    for xb, yb in train_dl:
        hc = model.init_hidden(xb.size(0))
        logits, _ = model(xb, hc)
        loss = criterion(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (logits.argmax(1) == yb).sum().item()
    print(f"epoch {epoch}: acc {correct / n_seq:.3f}")
''',
)

# ---------------------------------------------------------------------------
# [23] torch: star ratings 1..5 used directly as CrossEntropy targets
# ---------------------------------------------------------------------------
_add(
    "torch_ratings_one_based_crossentropy_targets",
    r'''
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(24)
rng = np.random.default_rng(2424)
n = 8000
reviews = pd.DataFrame(rng.normal(size=(n, 50)).astype(np.float32), columns=[f"emb_{k}" for k in range(50)])
reviews["stars"] = rng.integers(1, 6, n)
X = torch.tensor(reviews.filter(like="emb_").values)
y = torch.tensor(reviews["stars"].values)
model = nn.Sequential(nn.Linear(50, 64), nn.ReLU(), nn.Linear(64, 5))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
''',
    r'''
loss_fn = nn.CrossEntropyLoss()
for epoch in range(20):
    perm = torch.randperm(n)
    for i in range(0, n, 256):
        idx = perm[i:i + 256]
        loss = loss_fn(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
print("final loss", loss.item())
''',
    r'''
loss_fn = nn.CrossEntropyLoss()
y = y - 1   # stars 1..5 -> classes 0..4
for epoch in range(20):
    perm = torch.randperm(n)
    for i in range(0, n, 256):
        idx = perm[i:i + 256]
        loss = loss_fn(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
print("final loss", loss.item())
''',
)

# ---------------------------------------------------------------------------
# [24] matplotlib: the old 'seaborn-*' style names are gone
# ---------------------------------------------------------------------------
_add(
    "matplotlib_old_seaborn_style_name",
    r'''
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

rng = np.random.default_rng(2525)
monthly = pd.DataFrame({
    "month": pd.date_range("2021-01-01", periods=36, freq="MS"),
    "sales": 1000 + np.cumsum(rng.normal(20, 60, 36)),
})
''',
    r'''
plt.style.use("seaborn-whitegrid")
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(monthly["month"], monthly["sales"], marker="o")
ax.set_title("Monthly sales")
fig.savefig("monthly_sales.png", dpi=80)
''',
    r'''
plt.style.use("seaborn-v0_8-whitegrid")
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(monthly["month"], monthly["sales"], marker="o")
ax.set_title("Monthly sales")
fig.savefig("monthly_sales.png", dpi=80)
''',
)

# ---------------------------------------------------------------------------
# [25] seaborn: 13 feature histograms into a 3x4 grid of axes
# ---------------------------------------------------------------------------
_add(
    "seaborn_feature_histograms_grid_too_small",
    r'''
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

rng = np.random.default_rng(2626)
n = 60_000
num_cols = [f"sensor_{k}" for k in range(13)]
data = pd.DataFrame({c: rng.gamma(1.5 + k * 0.3, 2.0, n) for k, c in enumerate(num_cols)})
data["label"] = rng.integers(0, 2, n)
''',
    r'''
fig, axes = plt.subplots(3, 4, figsize=(20, 12))
axes = axes.flatten()
for i, col in enumerate(num_cols):
    sns.histplot(data=data, x=col, hue="label", kde=True, bins=60, ax=axes[i])
    axes[i].set_title(col)
plt.tight_layout()
fig.savefig("feature_distributions.png", dpi=60)
''',
    r'''
fig, axes = plt.subplots(4, 4, figsize=(20, 16))
axes = axes.flatten()
for i, col in enumerate(num_cols):
    sns.histplot(data=data, x=col, hue="label", kde=True, bins=60, ax=axes[i])
    axes[i].set_title(col)
for ax in axes[len(num_cols):]:
    ax.set_visible(False)
plt.tight_layout()
fig.savefig("feature_distributions.png", dpi=60)
''',
)

# ---------------------------------------------------------------------------
# [26] xgboost: early_stopping_rounds is no longer a fit() argument
# ---------------------------------------------------------------------------
_add(
    "xgboost_fit_early_stopping_rounds_removed",
    r'''
import numpy as np
import xgboost as xgb
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(2727)
X = rng.normal(size=(8000, 20))
y = ((X[:, 0] + X[:, 1] ** 2 - X[:, 4]) > 1).astype(int)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=0)
''',
    r'''
model = xgb.XGBClassifier(n_estimators=400, learning_rate=0.05, max_depth=4, eval_metric="logloss")
model.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], early_stopping_rounds=30, verbose=False)
print("best iteration:", model.best_iteration)
''',
    r'''
model = xgb.XGBClassifier(n_estimators=400, learning_rate=0.05, max_depth=4, eval_metric="logloss",
                          early_stopping_rounds=30)
model.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], verbose=False)
print("best iteration:", model.best_iteration)
''',
)

# ---------------------------------------------------------------------------
# [27] lightgbm: category dtype set on train only, test keeps object columns
# ---------------------------------------------------------------------------
_add(
    "lightgbm_kfold_test_object_columns",
    r'''
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

rng = np.random.default_rng(2828)


def make(n):
    d = pd.DataFrame(rng.normal(size=(n, 12)), columns=[f"num_{k}" for k in range(12)])
    d["merchant_cat"] = rng.choice([f"m{k}" for k in range(30)], n)
    d["country"] = rng.choice(["US", "GB", "DE", "FR", "IN", "BR"], n)
    return d


train = make(120_000)
train["is_fraud"] = (rng.random(len(train)) < 0.05 + 0.1 * (train["num_0"] > 1)).astype(int)
test = make(30_000)
cat_cols = ["merchant_cat", "country"]
for c in cat_cols:
    train[c] = train[c].astype("category")
features = [c for c in train.columns if c != "is_fraud"]
X, y = train[features], train["is_fraud"]
X_test = test[features]
''',
    r'''
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
oof = np.zeros(len(X))
models = []
for fold, (tr_idx, va_idx) in enumerate(skf.split(X, y)):
    m = lgb.LGBMClassifier(n_estimators=150, learning_rate=0.05, num_leaves=63, verbose=-1, random_state=fold)
    m.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = m.predict_proba(X.iloc[va_idx])[:, 1]
    models.append(m)
print("OOF AUC:", roc_auc_score(y, oof))
test_pred = np.mean([m.predict_proba(X_test)[:, 1] for m in models], axis=0)
pd.DataFrame({"id": X_test.index, "is_fraud": test_pred}).to_csv("submission.csv", index=False)
''',
    r'''
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
oof = np.zeros(len(X))
models = []
for fold, (tr_idx, va_idx) in enumerate(skf.split(X, y)):
    m = lgb.LGBMClassifier(n_estimators=150, learning_rate=0.05, num_leaves=63, verbose=-1, random_state=fold)
    m.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = m.predict_proba(X.iloc[va_idx])[:, 1]
    models.append(m)
print("OOF AUC:", roc_auc_score(y, oof))
X_test = X_test.copy()
for c in cat_cols:
    X_test[c] = pd.Categorical(X_test[c], categories=X[c].cat.categories)
test_pred = np.mean([m.predict_proba(X_test)[:, 1] for m in models], axis=0)
pd.DataFrame({"id": X_test.index, "is_fraud": test_pred}).to_csv("submission.csv", index=False)
''',
)

# ---------------------------------------------------------------------------
# [28] plain Python: writing results into an output folder that does not exist
# ---------------------------------------------------------------------------
_add(
    "python_review_files_output_folder_missing",
    r'''
import csv
import json
import os
import random

random.seed(2929)
words = ("great terrible battery screen fast slow cheap expensive love hate return broken "
         "works perfect awful delivery quality price size colour fits recommend never again").split()
os.makedirs("data/reviews", exist_ok=True)
for k in range(2000):
    records = []
    for j in range(150):
        text = " ".join(random.choice(words) for _ in range(random.randint(8, 40)))
        records.append({"review_id": f"{k}-{j}", "stars": random.randint(1, 5), "text": text})
    with open(f"data/reviews/part_{k:04d}.json", "w") as f:
        json.dump(records, f)
len(os.listdir("data/reviews"))
''',
    r'''
positive = {"great", "fast", "cheap", "love", "works", "perfect", "recommend"}
negative = {"terrible", "slow", "expensive", "hate", "return", "broken", "awful", "never"}
rows = []
for fname in sorted(os.listdir("data/reviews")):
    with open(os.path.join("data/reviews", fname)) as f:
        for rec in json.load(f):
            tokens = rec["text"].lower().split()
            counts = {}
            for t in tokens:
                counts[t] = counts.get(t, 0) + 1
            pos = sum(c for t, c in counts.items() if t in positive)
            neg = sum(c for t, c in counts.items() if t in negative)
            bigrams = len(set(zip(tokens, tokens[1:])))
            trigrams = len(set(zip(tokens, tokens[1:], tokens[2:])))
            rows.append((rec["review_id"], rec["stars"], len(tokens), pos, neg, bigrams, trigrams, (pos - neg) / len(tokens)))

with open("output/review_features.csv", "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["review_id", "stars", "n_tokens", "pos", "neg", "n_bigrams", "n_trigrams", "polarity"])
    writer.writerows(rows)
print(len(rows), "rows written")
''',
    r'''
positive = {"great", "fast", "cheap", "love", "works", "perfect", "recommend"}
negative = {"terrible", "slow", "expensive", "hate", "return", "broken", "awful", "never"}
rows = []
for fname in sorted(os.listdir("data/reviews")):
    with open(os.path.join("data/reviews", fname)) as f:
        for rec in json.load(f):
            tokens = rec["text"].lower().split()
            counts = {}
            for t in tokens:
                counts[t] = counts.get(t, 0) + 1
            pos = sum(c for t, c in counts.items() if t in positive)
            neg = sum(c for t, c in counts.items() if t in negative)
            bigrams = len(set(zip(tokens, tokens[1:])))
            trigrams = len(set(zip(tokens, tokens[1:], tokens[2:])))
            rows.append((rec["review_id"], rec["stars"], len(tokens), pos, neg, bigrams, trigrams, (pos - neg) / len(tokens)))

os.makedirs("output", exist_ok=True)
with open("output/review_features.csv", "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["review_id", "stars", "n_tokens", "pos", "neg", "n_bigrams", "n_trigrams", "polarity"])
    writer.writerows(rows)
print(len(rows), "rows written")
''',
)

# ---------------------------------------------------------------------------
# [29] plain Python: json cannot serialise numpy integers
# ---------------------------------------------------------------------------
_add(
    "python_json_dump_numpy_int64_best_params",
    r'''
import json
import numpy as np

rng = np.random.default_rng(3030)
depths = np.array([3, 4, 5, 6, 8])
leaves = np.array([15, 31, 63, 127])
cv_grid = rng.uniform(0.80, 0.90, (len(depths), len(leaves)))
i, j = np.unravel_index(np.argmax(cv_grid), cv_grid.shape)
''',
    r'''
best = {"max_depth": depths[i], "num_leaves": leaves[j], "cv_auc": round(float(cv_grid[i, j]), 5)}
with open("best_params.json", "w") as f:
    json.dump(best, f, indent=2)
best
''',
    r'''
best = {"max_depth": int(depths[i]), "num_leaves": int(leaves[j]), "cv_auc": round(float(cv_grid[i, j]), 5)}
with open("best_params.json", "w") as f:
    json.dump(best, f, indent=2)
best
''',
)
