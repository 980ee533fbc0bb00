r"""Twenty-ninth benchmark set: 30 unseen notebook crash/fix pairs.

Each entry of ``PAIRS`` is ``(name, setup, crash, fixed)``:

* ``setup``  -- the notebook's earlier cells joined into one source (imports,
  small synthetic data built in memory, helper definitions).  Runs clean.
* ``crash``  -- the target cell; run after ``setup`` it raises a genuine
  library / Python error (no ``raise``/``assert`` in the cell).
* ``fixed``  -- the same cell with the small edit a user would make; runs
  clean after the same ``setup``.

The pairs were written from scratch, without reading the crash-prediction
tool's code, docs or tests.  Crashing library: pandas 7, numpy 3,
scikit-learn 7, keras 3, torch 4, matplotlib 1, seaborn 1, xgboost 1,
lightgbm 1, plain Python 2.

15 pairs are LONG: the crash cell works for roughly 2-5 s (about 3 s on a
2-core machine) before it fails on data met late (the last month / file /
segment / batch / window holds a new category, a renamed column, a ragged
item, a bad dtype...) or on a combination made after a loop (stacking
arrays of differing shapes, merging on keys of differing dtypes, fitting on
accumulated features that hold NaN).  The other 15 are SHORT and fail
within half a second.
"""

PAIRS = [
    # ------------------------------------------------------------------ pandas
    # LONG: loop over dict items; the last month holds a region missing from
    # the tax table -> KeyError from Series.loc
    (
        "monthly_sales_new_region_keyerror",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
REGIONS = ["North", "South", "East", "West"]
ROWS_PER_MONTH = 500_000

monthly_sales = {}
for m in range(1, 13):
    region = rng.choice(REGIONS, ROWS_PER_MONTH).astype(object)
    if m == 12:
        region[:400] = "Central"   # new sales territory opened in December
    monthly_sales[f"2023-{m:02d}"] = pd.DataFrame({
        "store_id": rng.integers(0, 400, ROWS_PER_MONTH),
        "sku": rng.integers(0, 3000, ROWS_PER_MONTH),
        "region": region,
        "units": rng.poisson(3, ROWS_PER_MONTH),
        "unit_price": rng.gamma(2.0, 15.0, ROWS_PER_MONTH).round(2),
    })

region_tax = pd.Series({"North": 0.070, "South": 0.065, "East": 0.080, "West": 0.0725})
''',
        r'''
monthly_summary = []
for month, df in monthly_sales.items():
    df = df.assign(revenue=df["units"] * df["unit_price"])
    by_sku = df.groupby(["region", "store_id", "sku"], as_index=False)["revenue"].sum()
    by_sku["rank"] = by_sku.groupby("region")["revenue"].rank(ascending=False, method="first")
    for region, grp in by_sku.groupby("region"):
        tax = region_tax.loc[region]
        monthly_summary.append({
            "month": month,
            "region": region,
            "net_revenue": grp["revenue"].sum() * (1 - tax),
            "top_sku": grp.loc[grp["rank"].idxmin(), "sku"],
        })
summary_df = pd.DataFrame(monthly_summary)
''',
        r'''
monthly_summary = []
for month, df in monthly_sales.items():
    df = df.assign(revenue=df["units"] * df["unit_price"])
    by_sku = df.groupby(["region", "store_id", "sku"], as_index=False)["revenue"].sum()
    by_sku["rank"] = by_sku.groupby("region")["revenue"].rank(ascending=False, method="first")
    for region, grp in by_sku.groupby("region"):
        tax = region_tax.get(region, region_tax.mean())
        monthly_summary.append({
            "month": month,
            "region": region,
            "net_revenue": grp["revenue"].sum() * (1 - tax),
            "top_sku": grp.loc[grp["rank"].idxmin(), "sku"],
        })
summary_df = pd.DataFrame(monthly_summary)
''',
    ),
    # LONG: loop over a list of CSV files; the last export renamed a column
    (
        "sensor_csv_renamed_column_keyerror",
        r'''
import os
import tempfile
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
data_dir = tempfile.mkdtemp(prefix="sensors_")
ROWS_PER_FILE = 95_000
sensor_files = []
for day in range(1, 11):
    ts = pd.date_range(f"2024-03-{day:02d}", periods=ROWS_PER_FILE, freq="2s")
    df = pd.DataFrame({
        "timestamp": ts,
        "device_id": rng.integers(0, 400, ROWS_PER_FILE),
        "temperature": rng.normal(21, 3, ROWS_PER_FILE).round(2),
        "humidity": rng.uniform(20, 80, ROWS_PER_FILE).round(1),
        "pressure": rng.normal(1013, 5, ROWS_PER_FILE).round(1),
    })
    if day == 10:
        # firmware update: the gateway now exports humidity under a new name
        df = df.rename(columns={"humidity": "rel_humidity_pct"})
    path = os.path.join(data_dir, f"sensors_2024-03-{day:02d}.csv")
    df.to_csv(path, index=False)
    sensor_files.append(path)
''',
        r'''
frames = []
for path in sensor_files:
    raw = pd.read_csv(path, parse_dates=["timestamp"])
    raw = raw.sort_values(["device_id", "timestamp"])
    raw["temp_roll_1m"] = raw.groupby("device_id")["temperature"].transform(
        lambda s: s.rolling(30, min_periods=1).mean())
    raw["pressure_trend"] = raw.groupby("device_id")["pressure"].transform(
        lambda s: s.diff().rolling(30, min_periods=1).mean())
    raw["dew_point"] = raw["temperature"] - (100 - raw["humidity"]) / 5
    frames.append(raw)
sensors = pd.concat(frames, ignore_index=True)
''',
        r'''
frames = []
for path in sensor_files:
    raw = pd.read_csv(path, parse_dates=["timestamp"])
    raw = raw.rename(columns={"rel_humidity_pct": "humidity"})
    raw = raw.sort_values(["device_id", "timestamp"])
    raw["temp_roll_1m"] = raw.groupby("device_id")["temperature"].transform(
        lambda s: s.rolling(30, min_periods=1).mean())
    raw["pressure_trend"] = raw.groupby("device_id")["pressure"].transform(
        lambda s: s.diff().rolling(30, min_periods=1).mean())
    raw["dew_point"] = raw["temperature"] - (100 - raw["humidity"]) / 5
    frames.append(raw)
sensors = pd.concat(frames, ignore_index=True)
''',
    ),
    # LONG: groupby loop builds per-customer features; the merge after the loop
    # joins int64 ids with the CRM's string ids
    (
        "customer_features_merge_key_dtype",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
N_CUSTOMERS = 2300
N_TX = 120_000
transactions = pd.DataFrame({
    "customer_id": rng.integers(10_000, 10_000 + N_CUSTOMERS, N_TX),
    "ts": pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 3600, N_TX), unit="s"),
    "amount": rng.lognormal(3.0, 0.8, N_TX).round(2),
    "category": rng.choice(["grocery", "fuel", "travel", "dining", "online"], N_TX),
})
# labels exported from the CRM: ids arrive as strings
churn_labels = pd.DataFrame({
    "customer_id": [str(c) for c in range(10_000, 10_000 + N_CUSTOMERS)],
    "churned": rng.integers(0, 2, N_CUSTOMERS),
})
''',
        r'''
rows = []
for cust_id, g in transactions.groupby("customer_id"):
    g = g.sort_values("ts")
    gaps = g["ts"].diff().dt.total_seconds() / 86400
    rows.append({
        "customer_id": cust_id,
        "n_tx": len(g),
        "total_spend": g["amount"].sum(),
        "avg_gap_days": gaps.mean(),
        "max_gap_days": gaps.max(),
        "last_30d_spend": g.loc[g["ts"] >= g["ts"].max() - pd.Timedelta(days=30), "amount"].sum(),
        "top_category": g["category"].mode().iat[0],
    })
cust_features = pd.DataFrame(rows)
train_df = cust_features.merge(churn_labels, on="customer_id", how="inner")
''',
        r'''
rows = []
for cust_id, g in transactions.groupby("customer_id"):
    g = g.sort_values("ts")
    gaps = g["ts"].diff().dt.total_seconds() / 86400
    rows.append({
        "customer_id": cust_id,
        "n_tx": len(g),
        "total_spend": g["amount"].sum(),
        "avg_gap_days": gaps.mean(),
        "max_gap_days": gaps.max(),
        "last_30d_spend": g.loc[g["ts"] >= g["ts"].max() - pd.Timedelta(days=30), "amount"].sum(),
        "top_category": g["category"].mode().iat[0],
    })
cust_features = pd.DataFrame(rows)
churn_labels["customer_id"] = churn_labels["customer_id"].astype("int64")
train_df = cust_features.merge(churn_labels, on="customer_id", how="inner")
''',
    ),
    # LONG: while loop over weekly batches; the last batch re-sent a row, so
    # pivot finds duplicate (store, product) entries
    (
        "weekly_pivot_duplicate_entries",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
N_STORES, N_PRODUCTS, N_WEEKS = 500, 500, 24
stores = np.repeat(np.arange(N_STORES), N_PRODUCTS)
products = np.tile([f"P{p:04d}" for p in range(N_PRODUCTS)], N_STORES)
weekly_batches = []
for w in range(N_WEEKS):
    batch = pd.DataFrame({
        "week": w,
        "store": stores,
        "product": products,
        "qty": rng.poisson(20, len(stores)).astype(float),
    })
    if w == N_WEEKS - 1:
        # the POS system re-sent a corrected line for one store/product
        fix_row = batch.iloc[[1234]].assign(qty=5.0)
        batch = pd.concat([batch, fix_row], ignore_index=True)
    weekly_batches.append(batch)
''',
        r'''
week = 0
product_corr = []
while week < len(weekly_batches):
    batch = weekly_batches[week]
    wide = batch.pivot(index="store", columns="product", values="qty")
    share = wide.div(wide.sum(axis=1), axis=0)
    product_corr.append(share.corr(method="spearman").mean().rename(f"week_{week}"))
    week += 1
corr_by_week = pd.concat(product_corr, axis=1)
''',
        r'''
week = 0
product_corr = []
while week < len(weekly_batches):
    batch = weekly_batches[week]
    batch = batch.drop_duplicates(subset=["store", "product"], keep="last")
    wide = batch.pivot(index="store", columns="product", values="qty")
    share = wide.div(wide.sum(axis=1), axis=0)
    product_corr.append(share.corr(method="spearman").mean().rename(f"week_{week}"))
    week += 1
corr_by_week = pd.concat(product_corr, axis=1)
''',
    ),
    # SHORT: to_datetime with a fixed format meets a day-first date
    (
        "orders_to_datetime_mixed_format",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
dates = pd.date_range("2023-01-01", periods=500, freq="D").strftime("%Y-%m-%d").tolist()
dates[317] = "14/11/2023"   # one marketplace exports day-first dates
orders = pd.DataFrame({
    "order_id": np.arange(500),
    "order_date": dates,
    "total": rng.gamma(2, 40, 500).round(2),
})
''',
        r'''
orders["order_date"] = pd.to_datetime(orders["order_date"], format="%Y-%m-%d")
orders["order_month"] = orders["order_date"].dt.to_period("M")
monthly_totals = orders.groupby("order_month")["total"].sum()
''',
        r'''
orders["order_date"] = pd.to_datetime(orders["order_date"], format="mixed", dayfirst=True)
orders["order_month"] = orders["order_date"].dt.to_period("M")
monthly_totals = orders.groupby("order_month")["total"].sum()
''',
    ),
    # SHORT: astype(float) on prices with thousands separators
    (
        "price_strings_astype_float",
        r'''
import pandas as pd

listings = pd.DataFrame({
    "listing_id": [101, 102, 103, 104, 105, 106],
    "neighbourhood": ["Mitte", "Kreuzberg", "Mitte", "Pankow", "Neukoelln", "Kreuzberg"],
    "price": ["85.00", "120.00", "1,250.00", "64.50", "99.00", "2,100.00"],
})
''',
        r'''
listings["price"] = listings["price"].astype(float)
price_by_area = listings.groupby("neighbourhood")["price"].median().sort_values()
''',
        r'''
listings["price"] = listings["price"].str.replace(",", "", regex=False).astype(float)
price_by_area = listings.groupby("neighbourhood")["price"].median().sort_values()
''',
    ),
    # SHORT: both frames carry "price"; after the merge only price_x/price_y exist
    (
        "merge_overlapping_price_keyerror",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8)
products = pd.DataFrame({
    "product_id": np.arange(50),
    "category": rng.choice(["toys", "garden", "kitchen"], 50),
    "price": rng.uniform(5, 80, 50).round(2),
})
order_lines = pd.DataFrame({
    "order_id": np.arange(400),
    "product_id": rng.integers(0, 50, 400),
    "qty": rng.integers(1, 6, 400),
    "price": rng.uniform(5, 80, 400).round(2),   # price actually charged
})
''',
        r'''
lines = order_lines.merge(products, on="product_id", how="left")
lines["revenue"] = lines["qty"] * lines["price"]
revenue_by_cat = lines.groupby("category")["revenue"].sum()
''',
        r'''
lines = order_lines.merge(products, on="product_id", how="left", suffixes=("", "_list"))
lines["revenue"] = lines["qty"] * lines["price"]
revenue_by_cat = lines.groupby("category")["revenue"].sum()
''',
    ),
    # ------------------------------------------------------------------- numpy
    # LONG: generator from setup yields tiles; the right-edge tile is narrower,
    # so np.stack after the loop fails
    (
        "scan_tiles_stack_edge_tile",
        r'''
import numpy as np

rng = np.random.default_rng(13)
TILE = 128
scan = rng.normal(0.5, 0.15, size=(TILE * 33, TILE * 9 + 40)).astype(np.float32)

def iter_tiles(image, size):
    h, w = image.shape
    for r in range(0, h, size):
        for c in range(0, w, size):
            yield (r, c), image[r:r + size, c:c + size]

def local_contrast(tile, k=9):
    win = np.lib.stride_tricks.sliding_window_view(np.pad(tile, k // 2, mode="reflect"), (k, k))
    return win.std(axis=(-1, -2))
''',
        r'''
features = []
for (r, c), tile in iter_tiles(scan, TILE):
    norm = (tile - tile.mean()) / (tile.std() + 1e-6)
    spectrum = np.log1p(np.abs(np.fft.fftshift(np.fft.fft2(norm))))
    contrast = local_contrast(norm)
    features.append(np.stack([norm, spectrum, contrast]))
tile_batch = np.stack(features)
''',
        r'''
features = []
for (r, c), tile in iter_tiles(scan, TILE):
    tile = np.pad(tile, ((0, TILE - tile.shape[0]), (0, TILE - tile.shape[1])), mode="edge")
    norm = (tile - tile.mean()) / (tile.std() + 1e-6)
    spectrum = np.log1p(np.abs(np.fft.fftshift(np.fft.fft2(norm))))
    contrast = local_contrast(norm)
    features.append(np.stack([norm, spectrum, contrast]))
tile_batch = np.stack(features)
''',
    ),
    # SHORT: weights include an intercept, the design matrix does not
    (
        "design_matrix_bias_matmul",
        r'''
import numpy as np

rng = np.random.default_rng(2)
X_train = rng.normal(size=(200, 5))
y_train = X_train @ np.array([1.5, -2.0, 0.3, 0.0, 4.0]) + 3.0 + rng.normal(0, 0.1, 200)
X_aug = np.hstack([np.ones((200, 1)), X_train])
theta = np.linalg.lstsq(X_aug, y_train, rcond=None)[0]   # [intercept, w1..w5]
X_test = rng.normal(size=(50, 5))
''',
        r'''
y_pred = X_test @ theta
residual_sd = np.std(y_pred - (X_test @ np.array([1.5, -2.0, 0.3, 0.0, 4.0]) + 3.0))
''',
        r'''
y_pred = np.hstack([np.ones((len(X_test), 1)), X_test]) @ theta
residual_sd = np.std(y_pred - (X_test @ np.array([1.5, -2.0, 0.3, 0.0, 4.0]) + 3.0))
''',
    ),
    # SHORT: assigning NaN into an int64 array
    (
        "int_ages_nan_assignment",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4)
patients = pd.DataFrame({
    "patient_id": np.arange(300),
    "age": rng.integers(18, 90, 300),
})
patients.loc[[5, 77, 190], "age"] = -1   # sentinel for "unknown"
''',
        r'''
ages = patients["age"].to_numpy()
ages[ages < 0] = np.nan
mean_age = np.nanmean(ages)
''',
        r'''
ages = patients["age"].to_numpy().astype(float)
ages[ages < 0] = np.nan
mean_age = np.nanmean(ages)
''',
    ),
    # ------------------------------------------------------------ scikit-learn
    # LONG: manual KFold loop; a rare device type only appears in the last fold
    (
        "cv_folds_onehot_unseen_device",
        r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold
from sklearn.preprocessing import OneHotEncoder
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(17)
N = 6000
sessions = pd.DataFrame({
    "device_type": rng.choice(["mobile", "desktop", "tablet"], N, p=[0.6, 0.3, 0.1]),
    "browser": rng.choice(["chrome", "safari", "firefox", "edge"], N),
    "pages_viewed": rng.poisson(6, N),
    "session_minutes": rng.gamma(2, 4, N),
    "returning": rng.integers(0, 2, N),
})
sessions.loc[N - 25:, "device_type"] = "smart_tv"   # only logged since last week
sessions["converted"] = ((sessions["pages_viewed"] > 7) ^ (rng.random(N) < 0.2)).astype(int)
CAT_COLS = ["device_type", "browser"]
NUM_COLS = ["pages_viewed", "session_minutes", "returning"]
RF_TREES = 150
''',
        r'''
fold_auc = []
kf = KFold(n_splits=5, shuffle=False)
for fold, (tr_idx, va_idx) in enumerate(kf.split(sessions)):
    tr, va = sessions.iloc[tr_idx], sessions.iloc[va_idx]
    ohe = OneHotEncoder(sparse_output=False)
    X_tr = np.hstack([ohe.fit_transform(tr[CAT_COLS]), tr[NUM_COLS].to_numpy()])
    X_va = np.hstack([ohe.transform(va[CAT_COLS]), va[NUM_COLS].to_numpy()])
    rf = RandomForestClassifier(n_estimators=RF_TREES, min_samples_leaf=2, random_state=fold, n_jobs=1)
    rf.fit(X_tr, tr["converted"])
    fold_auc.append(roc_auc_score(va["converted"], rf.predict_proba(X_va)[:, 1]))
cv_auc = np.mean(fold_auc)
''',
        r'''
fold_auc = []
kf = KFold(n_splits=5, shuffle=False)
for fold, (tr_idx, va_idx) in enumerate(kf.split(sessions)):
    tr, va = sessions.iloc[tr_idx], sessions.iloc[va_idx]
    ohe = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
    X_tr = np.hstack([ohe.fit_transform(tr[CAT_COLS]), tr[NUM_COLS].to_numpy()])
    X_va = np.hstack([ohe.transform(va[CAT_COLS]), va[NUM_COLS].to_numpy()])
    rf = RandomForestClassifier(n_estimators=RF_TREES, min_samples_leaf=2, random_state=fold, n_jobs=1)
    rf.fit(X_tr, tr["converted"])
    fold_auc.append(roc_auc_score(va["converted"], rf.predict_proba(X_va)[:, 1]))
cv_auc = np.mean(fold_auc)
''',
    ),
    # LONG: rolling features built with a list comprehension, concatenated,
    # then fed to LogisticRegression -> NaN from the rolling warm-up rows
    (
        "rolling_features_nan_logreg",
        r'''
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

rng = np.random.default_rng(29)
N_TICKERS, N_DAYS = 500, 1500
prices = pd.DataFrame({
    "ticker": np.repeat([f"T{i:03d}" for i in range(N_TICKERS)], N_DAYS),
    "day": np.tile(np.arange(N_DAYS), N_TICKERS),
    "close": np.exp(np.cumsum(rng.normal(0, 0.01, N_TICKERS * N_DAYS))) * 100,
})
prices["ret_1d"] = prices.groupby("ticker")["close"].pct_change().fillna(0.0)
prices["target_up"] = (prices.groupby("ticker")["ret_1d"].shift(-1).fillna(0) > 0).astype(int)
WINDOWS = [5, 10, 20, 40, 60, 120]

def window_features(df, w):
    g = df.groupby("ticker")["ret_1d"]
    mean = g.transform(lambda s: s.rolling(w).mean())
    vol = g.transform(lambda s: s.rolling(w).std())
    skew = g.transform(lambda s: s.rolling(w).skew())
    return pd.DataFrame({f"mean_{w}": mean, f"vol_{w}": vol, f"skew_{w}": skew, f"z_{w}": mean / vol})
''',
        r'''
feature_blocks = [window_features(prices, w) for w in WINDOWS]
X = pd.concat(feature_blocks, axis=1)
y = prices["target_up"]
clf = LogisticRegression(max_iter=300)
clf.fit(X, y)
''',
        r'''
feature_blocks = [window_features(prices, w) for w in WINDOWS]
X = pd.concat(feature_blocks, axis=1)
y = prices["target_up"]
valid = X.notna().all(axis=1)
clf = LogisticRegression(max_iter=300)
clf.fit(X[valid], y[valid])
''',
    ),
    # LONG: nested grid loop; the last max_features value is the removed "auto"
    (
        "rf_grid_max_features_auto",
        r'''
import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

X, y = make_classification(n_samples=3000, n_features=25, n_informative=10, random_state=0)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=0)
MAX_FEATURES = ["log2", 0.3, 0.5, "auto"]
MAX_DEPTHS = [6, 12, None]
N_TREES = 40
''',
        r'''
grid_scores = {}
for max_features in MAX_FEATURES:
    for max_depth in MAX_DEPTHS:
        rf = RandomForestClassifier(n_estimators=N_TREES, max_features=max_features,
                                    max_depth=max_depth, random_state=0, n_jobs=1)
        rf.fit(X_tr, y_tr)
        grid_scores[(max_features, max_depth)] = rf.score(X_va, y_va)
best_params = max(grid_scores, key=grid_scores.get)
''',
        r'''
grid_scores = {}
for max_features in ["log2", 0.3, 0.5, "sqrt"]:
    for max_depth in MAX_DEPTHS:
        rf = RandomForestClassifier(n_estimators=N_TREES, max_features=max_features,
                                    max_depth=max_depth, random_state=0, n_jobs=1)
        rf.fit(X_tr, y_tr)
        grid_scores[(max_features, max_depth)] = rf.score(X_va, y_va)
best_params = max(grid_scores, key=grid_scores.get)
''',
    ),
    # LONG: one model per segment in a range loop; the last segment has no
    # churners at all
    (
        "segment_churn_single_class",
        r'''
import numpy as np
import pandas as pd
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, PolynomialFeatures
from sklearn.linear_model import LogisticRegression

rng = np.random.default_rng(31)
N_SEGMENTS, ROWS_PER_SEG, N_FEAT = 10, 30000, 12
feat_cols = [f"f{i}" for i in range(N_FEAT)]
telco = pd.DataFrame(rng.normal(size=(N_SEGMENTS * ROWS_PER_SEG, N_FEAT)), columns=feat_cols)
telco["segment"] = np.repeat(np.arange(N_SEGMENTS), ROWS_PER_SEG)
telco["churn"] = (telco["f0"] + 0.5 * telco["f3"] + rng.normal(0, 1, len(telco)) > 1.2).astype(int)
telco.loc[telco["segment"] == N_SEGMENTS - 1, "churn"] = 0   # enterprise: no churn on record yet
''',
        r'''
segment_models = {}
for seg in range(N_SEGMENTS):
    part = telco[telco["segment"] == seg]
    model = make_pipeline(StandardScaler(), PolynomialFeatures(degree=2), LogisticRegression(C=0.5, max_iter=500))
    model.fit(part[feat_cols], part["churn"])
    segment_models[seg] = model
''',
        r'''
segment_models = {}
for seg in range(N_SEGMENTS):
    part = telco[telco["segment"] == seg]
    if part["churn"].nunique() < 2:
        continue
    model = make_pipeline(StandardScaler(), PolynomialFeatures(degree=2), LogisticRegression(C=0.5, max_iter=500))
    model.fit(part[feat_cols], part["churn"])
    segment_models[seg] = model
''',
    ),
    # SHORT: scaler given a 1-D array
    (
        "scaler_1d_series_reshape",
        r'''
import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(6)
houses = pd.DataFrame({
    "sqft": rng.normal(1800, 400, 250).round(),
    "bedrooms": rng.integers(1, 6, 250),
})
''',
        r'''
scaler = StandardScaler()
houses["sqft_scaled"] = scaler.fit_transform(houses["sqft"].values)
''',
        r'''
scaler = StandardScaler()
houses["sqft_scaled"] = scaler.fit_transform(houses[["sqft"]]).ravel()
''',
    ),
    # SHORT: stratified split with a class holding a single sample
    (
        "stratified_split_singleton_class",
        r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(9)
tickets = pd.DataFrame({
    "length": rng.integers(10, 500, 400),
    "n_links": rng.integers(0, 5, 400),
    "topic": rng.choice(["billing", "login", "shipping", "refund"], 400),
})
tickets.loc[399, "topic"] = "legal"   # a single legal ticket
''',
        r'''
X_tr, X_te, y_tr, y_te = train_test_split(
    tickets[["length", "n_links"]], tickets["topic"], test_size=0.2,
    stratify=tickets["topic"], random_state=0)
''',
        r'''
topic_counts = tickets["topic"].value_counts()
tickets = tickets[tickets["topic"].map(topic_counts) >= 2]
X_tr, X_te, y_tr, y_te = train_test_split(
    tickets[["length", "n_links"]], tickets["topic"], test_size=0.2,
    stratify=tickets["topic"], random_state=0)
''',
    ),
    # SHORT: engineered column created for train only
    (
        "predict_missing_engineered_feature",
        r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor

rng = np.random.default_rng(10)
def make_cars(n):
    return pd.DataFrame({
        "year": rng.integers(2005, 2024, n),
        "mileage": rng.integers(5_000, 250_000, n),
        "engine_l": rng.choice([1.2, 1.6, 2.0, 3.0], n),
    })
cars_train, cars_test = make_cars(400), make_cars(100)
cars_train["age"] = 2024 - cars_train["year"]
price = 30000 - 900 * cars_train["age"] - 0.05 * cars_train["mileage"] + rng.normal(0, 800, 400)
gbr = GradientBoostingRegressor(n_estimators=50, random_state=0).fit(cars_train, price)
''',
        r'''
test_pred = gbr.predict(cars_test)
''',
        r'''
cars_test["age"] = 2024 - cars_test["year"]
test_pred = gbr.predict(cars_test[cars_train.columns])
''',
    ),
    # ------------------------------------------------------------------- keras
    # LONG: train for several epochs, then predict on a get_dummies test frame
    # that grew an extra column
    (
        "keras_fit_predict_dummies_mismatch",
        r'''
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
def make_customers(n, plans):
    return pd.DataFrame({
        "tenure": rng.integers(1, 72, n),
        "monthly_fee": rng.uniform(20, 120, n).round(2),
        "support_calls": rng.poisson(1.5, n),
        "plan": rng.choice(plans, n),
        "contract": rng.choice(["monthly", "annual", "two_year"], n),
    })
train_df = make_customers(6000, ["basic", "plus", "premium"])
test_df = make_customers(1500, ["basic", "plus", "premium", "family"])   # new plan launched
y_train = ((train_df["support_calls"] > 2) | (train_df["tenure"] < 6)).astype("float32").to_numpy()
X_train = pd.get_dummies(train_df, columns=["plan", "contract"], dtype="float32")
X_test = pd.get_dummies(test_df, columns=["plan", "contract"], dtype="float32")
mu, sd = X_train.mean(), X_train.std()
EPOCHS = 6
''',
        r'''
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    layers.Dense(64, activation="relu"),
    layers.Dropout(0.2),
    layers.Dense(32, activation="relu"),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["AUC"])
history = model.fit(((X_train - mu) / sd).to_numpy(), y_train, epochs=EPOCHS, batch_size=32,
                    validation_split=0.2, verbose=0)
test_scores = model.predict(((X_test - mu) / sd).to_numpy(), verbose=0)
''',
        r'''
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    layers.Dense(64, activation="relu"),
    layers.Dropout(0.2),
    layers.Dense(32, activation="relu"),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["AUC"])
history = model.fit(((X_train - mu) / sd).to_numpy(), y_train, epochs=EPOCHS, batch_size=32,
                    validation_split=0.2, verbose=0)
X_test = X_test.reindex(columns=X_train.columns, fill_value=0.0)
test_scores = model.predict(((X_test - mu) / sd).to_numpy(), verbose=0)
''',
    ),
    # SHORT: to_categorical on string labels
    (
        "keras_to_categorical_string_labels",
        r'''
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np
import pandas as pd
import keras
from sklearn.preprocessing import LabelEncoder

rng = np.random.default_rng(1)
reviews = pd.DataFrame({
    "len": rng.integers(5, 300, 200),
    "sentiment": rng.choice(["negative", "neutral", "positive"], 200),
})
''',
        r'''
y_onehot = keras.utils.to_categorical(reviews["sentiment"].to_numpy(), num_classes=3)
''',
        r'''
label_enc = LabelEncoder()
y_onehot = keras.utils.to_categorical(label_enc.fit_transform(reviews["sentiment"]), num_classes=3)
''',
    ),
    # SHORT: Conv2D on grayscale images declared without a channel axis
    (
        "keras_conv2d_missing_channel_dim",
        r'''
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np
import keras
from keras import layers

rng = np.random.default_rng(12)
digits_x = rng.random((256, 28, 28)).astype("float32")
digits_y = rng.integers(0, 10, 256)
''',
        r'''
cnn = keras.Sequential([
    keras.Input(shape=digits_x.shape[1:]),
    layers.Conv2D(16, 3, activation="relu"),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dense(10, activation="softmax"),
])
''',
        r'''
digits_x = digits_x[..., np.newaxis]
cnn = keras.Sequential([
    keras.Input(shape=digits_x.shape[1:]),
    layers.Conv2D(16, 3, activation="relu"),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dense(10, activation="softmax"),
])
''',
    ),
    # ------------------------------------------------------------------- torch
    # LONG: LSTM hidden state sized with the constant BATCH_SIZE; training uses
    # drop_last=True, the validation loader's last batch is smaller
    (
        "torch_lstm_fixed_batch_hidden",
        r'''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.set_num_threads(1)
torch.manual_seed(0)
rng = np.random.default_rng(0)
SEQ_LEN, N_FEAT, HIDDEN, BATCH_SIZE = 48, 6, 48, 64
series = rng.normal(size=(2600, SEQ_LEN, N_FEAT)).astype("float32")
target = series[:, -5:, 0].mean(axis=1, keepdims=True).astype("float32")
train_ds = TensorDataset(torch.from_numpy(series[:2000]), torch.from_numpy(target[:2000]))
val_ds = TensorDataset(torch.from_numpy(series[2000:]), torch.from_numpy(target[2000:]))   # 600 rows
train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
val_loader = DataLoader(val_ds, batch_size=BATCH_SIZE, shuffle=False)
EPOCHS = 5
''',
        r'''
class LSTMForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(N_FEAT, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, x):
        h0 = torch.zeros(1, BATCH_SIZE, HIDDEN)
        c0 = torch.zeros(1, BATCH_SIZE, HIDDEN)
        out, _ = self.lstm(x, (h0, c0))
        return self.head(out[:, -1])

model = LSTMForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
for epoch in range(EPOCHS):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
model.eval()
with torch.no_grad():
    val_pred = torch.cat([model(xb) for xb, _ in val_loader])
''',
        r'''
class LSTMForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(N_FEAT, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), HIDDEN)
        c0 = torch.zeros(1, x.size(0), HIDDEN)
        out, _ = self.lstm(x, (h0, c0))
        return self.head(out[:, -1])

model = LSTMForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
for epoch in range(EPOCHS):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
model.eval()
with torch.no_grad():
    val_pred = torch.cat([model(xb) for xb, _ in val_loader])
''',
    ),
    # LONG: embedding extraction over a DataLoader; the last review was not
    # truncated, so default_collate cannot stack the final batch
    (
        "torch_embed_loader_ragged_tokens",
        r'''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

torch.set_num_threads(1)
torch.manual_seed(0)
rng = np.random.default_rng(3)
VOCAB, MAX_LEN, N_DOCS = 20_000, 128, 5500
token_ids = [rng.integers(1, VOCAB, MAX_LEN) for _ in range(N_DOCS - 1)]
token_ids.append(rng.integers(1, VOCAB, MAX_LEN + 37))   # last review skipped truncation

class ReviewDataset(Dataset):
    def __init__(self, docs):
        self.docs = docs
    def __len__(self):
        return len(self.docs)
    def __getitem__(self, i):
        return torch.as_tensor(self.docs[i], dtype=torch.long)

class TextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 128)
        self.conv = nn.Conv1d(128, 192, kernel_size=5, padding=2)
        self.proj = nn.Linear(192, 64)
    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        h = torch.relu(self.conv(h)).max(dim=2).values
        return self.proj(h)

encoder = TextEncoder().eval()
review_ds = ReviewDataset(token_ids)
''',
        r'''
loader = DataLoader(review_ds, batch_size=50, shuffle=False)
embeddings = []
with torch.no_grad():
    for batch in loader:
        embeddings.append(encoder(batch))
doc_embeddings = torch.cat(embeddings).numpy()
''',
        r'''
def truncate_collate(items):
    return torch.stack([t[:MAX_LEN] for t in items])

loader = DataLoader(review_ds, batch_size=50, shuffle=False, collate_fn=truncate_collate)
embeddings = []
with torch.no_grad():
    for batch in loader:
        embeddings.append(encoder(batch))
doc_embeddings = torch.cat(embeddings).numpy()
''',
    ),
    # SHORT: CrossEntropyLoss with float class targets
    (
        "torch_crossentropy_float_targets",
        r'''
import numpy as np
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)
rng = np.random.default_rng(0)
X = torch.tensor(rng.normal(size=(128, 10)), dtype=torch.float32)
labels = rng.integers(0, 4, 128).astype(np.float64)   # read from a float CSV column
clf = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
''',
        r'''
y = torch.tensor(labels)
loss = nn.CrossEntropyLoss()(clf(X), y)
loss.backward()
''',
        r'''
y = torch.tensor(labels).long()
loss = nn.CrossEntropyLoss()(clf(X), y)
loss.backward()
''',
    ),
    # SHORT: Linear layer sized before two features were added
    (
        "torch_linear_in_features_mismatch",
        r'''
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)
rng = np.random.default_rng(14)
flights = pd.DataFrame(rng.normal(size=(500, 10)), columns=[f"x{i}" for i in range(10)])
flights["dep_hour_sin"] = np.sin(rng.uniform(0, 2 * np.pi, 500))
flights["dep_hour_cos"] = np.cos(rng.uniform(0, 2 * np.pi, 500))
N_INPUTS = 10
''',
        r'''
X = torch.tensor(flights.to_numpy(), dtype=torch.float32)
delay_net = nn.Sequential(nn.Linear(N_INPUTS, 32), nn.ReLU(), nn.Linear(32, 1))
pred_delay = delay_net(X)
''',
        r'''
X = torch.tensor(flights.to_numpy(), dtype=torch.float32)
delay_net = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
pred_delay = delay_net(X)
''',
    ),
    # -------------------------------------------------------------- matplotlib
    # SHORT: actual values of the full frame against predictions of a subset
    (
        "scatter_actual_vs_pred_length",
        r'''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(15)
homes = pd.DataFrame({"sqft": rng.normal(1800, 400, 300), "lot": rng.normal(6000, 1500, 300)})
homes["price"] = 120 * homes["sqft"] + 3 * homes["lot"] + rng.normal(0, 20000, 300)
homes.loc[rng.choice(300, 12, replace=False), "lot"] = np.nan
complete = homes.dropna()
lr = LinearRegression().fit(complete[["sqft", "lot"]], complete["price"])
pred_price = lr.predict(complete[["sqft", "lot"]])
''',
        r'''
fig, ax = plt.subplots(figsize=(5, 5))
ax.scatter(homes["price"], pred_price, s=8, alpha=0.6)
ax.set_xlabel("actual price")
ax.set_ylabel("predicted price")
''',
        r'''
fig, ax = plt.subplots(figsize=(5, 5))
ax.scatter(complete["price"], pred_price, s=8, alpha=0.6)
ax.set_xlabel("actual price")
ax.set_ylabel("predicted price")
''',
    ),
    # ----------------------------------------------------------------- seaborn
    # SHORT: barplot asks for a column name that is not in the frame
    (
        "seaborn_barplot_wrong_column",
        r'''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(16)
region_rev = pd.DataFrame({
    "region": rng.choice(["EMEA", "APAC", "AMER"], 120),
    "revenue": rng.gamma(3, 1000, 120),
})
''',
        r'''
fig, ax = plt.subplots(figsize=(6, 4))
sns.barplot(data=region_rev, x="region", y="revenue_usd", ax=ax)
''',
        r'''
fig, ax = plt.subplots(figsize=(6, 4))
sns.barplot(data=region_rev, x="region", y="revenue", ax=ax)
''',
    ),
    # ----------------------------------------------------------------- xgboost
    # LONG: monthly retraining; the newest month's discount column is "5%"-style
    # strings, so predict meets an object column
    (
        "xgb_monthly_retrain_object_column",
        r'''
import numpy as np
import pandas as pd
from xgboost import XGBRegressor

rng = np.random.default_rng(23)
ROWS_PER_MONTH = 4000
monthly_frames = []
for m in range(8):
    df = pd.DataFrame({
        "store_size": rng.integers(200, 2000, ROWS_PER_MONTH),
        "promo": rng.integers(0, 2, ROWS_PER_MONTH),
        "discount_pct": rng.choice([0, 5, 10, 15, 20], ROWS_PER_MONTH).astype(float),
        "temp_c": rng.normal(15, 8, ROWS_PER_MONTH),
        "day_of_week": rng.integers(0, 7, ROWS_PER_MONTH),
    })
    df["units_sold"] = 0.02 * df["store_size"] + 8 * df["promo"] + 0.9 * df["discount_pct"] + rng.normal(0, 3, ROWS_PER_MONTH)
    monthly_frames.append(df)
# the latest month came from the new ERP export
monthly_frames[-1]["discount_pct"] = monthly_frames[-1]["discount_pct"].astype(int).astype(str) + "%"
FEATURES = ["store_size", "promo", "discount_pct", "temp_c", "day_of_week"]
N_TREES = 350
''',
        r'''
backtest = []
for i in range(1, len(monthly_frames)):
    hist = pd.concat(monthly_frames[:i], ignore_index=True)
    nxt = monthly_frames[i]
    model = XGBRegressor(n_estimators=N_TREES, max_depth=6, learning_rate=0.1, n_jobs=1)
    model.fit(hist[FEATURES], hist["units_sold"])
    pred = model.predict(nxt[FEATURES])
    backtest.append(np.sqrt(np.mean((pred - nxt["units_sold"].to_numpy()) ** 2)))
''',
        r'''
backtest = []
for i in range(1, len(monthly_frames)):
    hist = pd.concat(monthly_frames[:i], ignore_index=True)
    nxt = monthly_frames[i].copy()
    nxt["discount_pct"] = pd.to_numeric(nxt["discount_pct"].astype(str).str.rstrip("%"))
    model = XGBRegressor(n_estimators=N_TREES, max_depth=6, learning_rate=0.1, n_jobs=1)
    model.fit(hist[FEATURES], hist["units_sold"])
    pred = model.predict(nxt[FEATURES])
    backtest.append(np.sqrt(np.mean((pred - nxt["units_sold"].to_numpy()) ** 2)))
''',
    ),
    # ---------------------------------------------------------------- lightgbm
    # LONG: walk-forward windows one-hot encoded separately; the last test window
    # has a new channel, so it has one more column than the model was trained on
    (
        "lgbm_walkforward_dummies_mismatch",
        r'''
import numpy as np
import pandas as pd
from lightgbm import LGBMClassifier

rng = np.random.default_rng(37)
N_WINDOWS, ROWS = 8, 6000
CHANNELS = ["search", "social", "email", "display", "affiliate"]
windows = []
for w in range(N_WINDOWS + 1):
    chans = CHANNELS + (["tiktok"] if w == N_WINDOWS else [])
    df = pd.DataFrame({
        "channel": rng.choice(chans, ROWS),
        "bid": rng.gamma(2, 0.5, ROWS),
        "ad_position": rng.integers(1, 8, ROWS),
        "hour": rng.integers(0, 24, ROWS),
        "ctr_7d": rng.beta(2, 50, ROWS),
    })
    df["clicked"] = (rng.random(ROWS) < 0.05 + 0.5 * df["ctr_7d"] + 0.02 * (df["ad_position"] < 3)).astype(int)
    windows.append(df)
N_TREES = 220
''',
        r'''
window_auc = []
for w in range(N_WINDOWS):
    train_w, test_w = windows[w], windows[w + 1]
    X_tr = pd.get_dummies(train_w.drop(columns="clicked"), columns=["channel"], dtype=float)
    X_te = pd.get_dummies(test_w.drop(columns="clicked"), columns=["channel"], dtype=float)
    clf = LGBMClassifier(n_estimators=N_TREES, num_leaves=63, learning_rate=0.05, n_jobs=1, verbose=-1)
    clf.fit(X_tr.to_numpy(), train_w["clicked"])
    proba = clf.predict_proba(X_te.to_numpy())[:, 1]
    window_auc.append(float(np.mean(proba[test_w["clicked"] == 1]) - np.mean(proba[test_w["clicked"] == 0])))
''',
        r'''
window_auc = []
for w in range(N_WINDOWS):
    train_w, test_w = windows[w], windows[w + 1]
    X_tr = pd.get_dummies(train_w.drop(columns="clicked"), columns=["channel"], dtype=float)
    X_te = pd.get_dummies(test_w.drop(columns="clicked"), columns=["channel"], dtype=float)
    X_te = X_te.reindex(columns=X_tr.columns, fill_value=0.0)
    clf = LGBMClassifier(n_estimators=N_TREES, num_leaves=63, learning_rate=0.05, n_jobs=1, verbose=-1)
    clf.fit(X_tr.to_numpy(), train_w["clicked"])
    proba = clf.predict_proba(X_te.to_numpy())[:, 1]
    window_auc.append(float(np.mean(proba[test_w["clicked"] == 1]) - np.mean(proba[test_w["clicked"] == 0])))
''',
    ),
    # ------------------------------------------------------------ plain python
    # LONG: generator from setup streams JSON events; the last one has a null
    # duration -> float += None
    (
        "event_stream_null_duration",
        r'''
import json
import random

N_EVENTS = 300_000

def stream_events(n=N_EVENTS, seed=0):
    rnd = random.Random(seed)
    pages = ["home", "search", "product", "cart", "checkout"]
    for i in range(n):
        evt = {
            "user": f"u{rnd.randrange(5000)}",
            "page": rnd.choice(pages),
            "duration_ms": rnd.randint(50, 30_000),
        }
        if i == n - 1:
            evt["duration_ms"] = None   # client closed the tab before the timer fired
        yield json.dumps(evt)
''',
        r'''
time_on_page = {}
page_views = {}
for line in stream_events():
    evt = json.loads(line)
    key = (evt["user"], evt["page"])
    time_on_page[key] = time_on_page.get(key, 0.0) + evt["duration_ms"] / 1000
    page_views[key] = page_views.get(key, 0) + 1
avg_seconds = {k: time_on_page[k] / page_views[k] for k in time_on_page}
''',
        r'''
time_on_page = {}
page_views = {}
for line in stream_events():
    evt = json.loads(line)
    key = (evt["user"], evt["page"])
    time_on_page[key] = time_on_page.get(key, 0.0) + (evt["duration_ms"] or 0) / 1000
    page_views[key] = page_views.get(key, 0) + 1
avg_seconds = {k: time_on_page[k] / page_views[k] for k in time_on_page}
''',
    ),
    # SHORT: sorted() over unique values that include NaN
    (
        "sorted_brands_nan_typeerror",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(18)
catalog = pd.DataFrame({
    "brand": rng.choice(["acme", "zenith", "orbit", "nova"], 300).astype(object),
    "price": rng.uniform(5, 300, 300).round(2),
})
catalog.loc[[12, 140, 251], "brand"] = np.nan
''',
        r'''
brand_order = sorted(catalog["brand"].unique())
brand_to_idx = {b: i for i, b in enumerate(brand_order)}
catalog["brand_idx"] = catalog["brand"].map(brand_to_idx)
''',
        r'''
brand_order = sorted(catalog["brand"].dropna().unique())
brand_to_idx = {b: i for i, b in enumerate(brand_order)}
catalog["brand_idx"] = catalog["brand"].map(brand_to_idx).fillna(-1).astype(int)
''',
    ),
]
