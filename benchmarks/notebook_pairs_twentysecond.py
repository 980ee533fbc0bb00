r"""Twenty-second set of realistic machine-learning notebook crash/fix pairs.

Thirty ``(name, setup, crash, fixed)`` pairs, written without looking at the
tool under test and each checked by running it: ``setup`` (imports and small,
seeded, in-memory synthetic data) followed by ``crash`` raises a genuine
library or builtin error, while ``setup`` followed by ``fixed`` (the same cell,
minimally repaired the way a data scientist would) runs clean.  Every cell was
executed in a fresh interpreter, two rounds, with the cell alone timed.

Mix by main library: pandas 7, numpy 3, scikit-learn 7, keras (tensorflow,
CPU) 3, torch 4, matplotlib 1, seaborn 1, xgboost 1, lightgbm 1, plain
Python 2.

Fifteen pairs are "long": the crash cell does 2-5 s of real work (per-group
feature loops, chunked parsing, walk-forward training, bagging, batch scoring,
simulations) before it meets the bad item late in the work (a late group,
chunk, batch, fold or task, a middle user) or fails while combining what the
loop built (stack, concat, pivot, final fit/predict); the fixed cell also
takes 2-5 s.  The other fifteen are "short": the crash cell raises well
under a second.

Crash classes covered: string in numeric data, changed datetime format,
duplicate entries on pivot, duplicated index labels on concat, ragged arrays
on stack, missing column (whitespace in header), NaN to int cast, merge key
dtype mismatch, matmul core-dimension mismatch, ufunc output casting, missing
engineered feature at predict, single-class segment, unseen category at
transform, NaN into an estimator, unfitted transformer, 1-D X, continuous
target with a stratified splitter, Keras input-shape / rank mismatch, loss vs
label rank, BatchNorm with a one-sample batch, float class targets, Linear
in_features mismatch, view on a non-contiguous tensor, scatter colour length,
seaborn unknown hue column, xgboost feature order, lightgbm object column,
ZeroDivisionError on an empty record, and sorting None with str.
"""

PAIRS = [
    # ------------------------------------------------------------------ pandas
    (
        "pandas_sensor_groupby_status_string",
        """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n_sensors, n_obs = 1900, 48
sensor_ids = np.repeat([f"S{i:04d}" for i in range(n_sensors)], n_obs)
stamps = np.tile(pd.date_range("2024-03-01", periods=n_obs, freq="h").values, n_sensors)
values = rng.normal(21.0, 2.5, size=n_sensors * n_obs).round(2)
# the gateway export delivers readings as text
readings = pd.DataFrame({"sensor_id": sensor_ids, "ts": stamps,
                         "reading": values.astype(str).astype(object)})
# one late sensor logged a status code instead of a value
bad_row = readings.index[readings["sensor_id"] == "S1790"][17]
readings.loc[bad_row, "reading"] = "ERR:OFFLINE"
""",
        """\
sensor_features = []
for sensor_id, grp in readings.groupby("sensor_id"):
    r = grp.sort_values("ts")["reading"].astype(float)
    smooth = r.rolling(6, min_periods=1).mean()
    sensor_features.append({
        "sensor_id": sensor_id,
        "mean": r.mean(),
        "std": r.std(),
        "max_jump": r.diff().abs().max(),
        "peak_6h": smooth.max(),
        "ewm_last": r.ewm(span=12).mean().iloc[-1],
        "q95": r.quantile(0.95),
    })
sensor_df = pd.DataFrame(sensor_features).set_index("sensor_id")
""",
        """\
sensor_features = []
for sensor_id, grp in readings.groupby("sensor_id"):
    r = pd.to_numeric(grp.sort_values("ts")["reading"], errors="coerce")
    smooth = r.rolling(6, min_periods=1).mean()
    sensor_features.append({
        "sensor_id": sensor_id,
        "mean": r.mean(),
        "std": r.std(),
        "max_jump": r.diff().abs().max(),
        "peak_6h": smooth.max(),
        "ewm_last": r.ewm(span=12).mean().iloc[-1],
        "q95": r.quantile(0.95),
    })
sensor_df = pd.DataFrame(sensor_features).set_index("sensor_id")
""",
    ),
    (
        "pandas_chunked_sessions_iso_timestamp",
        """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
n = 180_000
offsets = np.sort(rng.integers(0, 60 * 86400, size=n))
times = pd.Timestamp("2024-01-01") + pd.to_timedelta(offsets, unit="s")
event_time = pd.Series(times.astype(str), dtype=object)
# after the logging migration the exporter switched to the 'T' separator
cut = int(n * 0.93)
event_time.iloc[cut:] = event_time.iloc[cut:].str.replace(" ", "T", regex=False)
events = pd.DataFrame({
    "user_id": rng.integers(0, 800, size=n),
    "event_time": event_time,
    "amount": rng.gamma(2.0, 15.0, size=n).round(2),
})
""",
        """\
chunk_size = 20_000
pos = 0
session_parts = []
while pos < len(events):
    chunk = events.iloc[pos:pos + chunk_size].copy()
    chunk["event_time"] = pd.to_datetime(chunk["event_time"], format="%Y-%m-%d %H:%M:%S")
    chunk = chunk.sort_values(["user_id", "event_time"])
    chunk["session"] = chunk.groupby("user_id")["event_time"].transform(
        lambda s: (s.diff() > pd.Timedelta(minutes=30)).cumsum()
    )
    session_parts.append(
        chunk.groupby(["user_id", "session"]).agg(
            start=("event_time", "min"), end=("event_time", "max"),
            n_events=("amount", "size"), spend=("amount", "sum"))
    )
    pos += chunk_size
sessions = pd.concat(session_parts, keys=range(len(session_parts)), names=["chunk"])
""",
        """\
chunk_size = 20_000
pos = 0
session_parts = []
while pos < len(events):
    chunk = events.iloc[pos:pos + chunk_size].copy()
    chunk["event_time"] = pd.to_datetime(chunk["event_time"], format="ISO8601")
    chunk = chunk.sort_values(["user_id", "event_time"])
    chunk["session"] = chunk.groupby("user_id")["event_time"].transform(
        lambda s: (s.diff() > pd.Timedelta(minutes=30)).cumsum()
    )
    session_parts.append(
        chunk.groupby(["user_id", "session"]).agg(
            start=("event_time", "min"), end=("event_time", "max"),
            n_events=("amount", "size"), spend=("amount", "sum"))
    )
    pos += chunk_size
sessions = pd.concat(session_parts, keys=range(len(session_parts)), names=["chunk"])
""",
    ),
    (
        "pandas_store_kpis_pivot_duplicate_store",
        """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
days = pd.date_range("2023-01-01", "2023-12-31", freq="D")
store_names = [f"north-{i:03d}" for i in range(235)] + [f"south-{i:03d}" for i in range(235)]
store_frames = {}
for name in store_names:
    store_frames[name] = pd.DataFrame({
        "date": days,
        "revenue": rng.gamma(5.0, 200.0, len(days)).round(2),
        "tickets": rng.poisson(80, len(days)),
    })
# the December re-export sent one store again under a differently written key
store_frames["North-117 "] = store_frames["north-117"].copy()
""",
        """\
kpi_rows = []
for raw_name, frame in store_frames.items():
    store = raw_name.strip().lower()
    daily = frame.set_index("date")
    monthly = daily.resample("MS").agg({"revenue": "sum", "tickets": "sum"})
    monthly["avg_ticket"] = monthly["revenue"] / monthly["tickets"]
    monthly["trend_28d"] = daily["revenue"].rolling(28).mean().resample("MS").last()
    for month, row in monthly.iterrows():
        kpi_rows.append({
            "store": store,
            "month": month.strftime("%Y-%m"),
            "revenue": row["revenue"],
            "avg_ticket": row["avg_ticket"],
            "trend_28d": row["trend_28d"],
        })
kpis = pd.DataFrame(kpi_rows)
revenue_table = kpis.pivot(index="store", columns="month", values="revenue")
""",
        """\
kpi_rows = []
for raw_name, frame in store_frames.items():
    store = raw_name.strip().lower()
    daily = frame.set_index("date")
    monthly = daily.resample("MS").agg({"revenue": "sum", "tickets": "sum"})
    monthly["avg_ticket"] = monthly["revenue"] / monthly["tickets"]
    monthly["trend_28d"] = daily["revenue"].rolling(28).mean().resample("MS").last()
    for month, row in monthly.iterrows():
        kpi_rows.append({
            "store": store,
            "month": month.strftime("%Y-%m"),
            "revenue": row["revenue"],
            "avg_ticket": row["avg_ticket"],
            "trend_28d": row["trend_28d"],
        })
kpis = pd.DataFrame(kpi_rows).drop_duplicates(["store", "month"])
revenue_table = kpis.pivot(index="store", columns="month", values="revenue")
""",
    ),
    (
        "pandas_feature_blocks_concat_duplicate_customer",
        """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n_cust = 1120
cust_ids = np.arange(100000, 100000 + n_cust)
orders = pd.DataFrame({
    "customer_id": rng.choice(cust_ids, 30000),
    "order_date": pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 365, 30000), unit="D"),
    "value": rng.gamma(2.0, 40.0, 30000).round(2),
})
web = pd.DataFrame({"customer_id": rng.choice(cust_ids, 40000),
                    "minutes": rng.exponential(6.0, 40000),
                    "pages": rng.integers(1, 25, 40000)})
support = pd.DataFrame({"customer_id": rng.choice(cust_ids, 9000),
                        "resolved": rng.integers(0, 2, 9000),
                        "wait_h": rng.exponential(10.0, 9000)})
crm = pd.DataFrame({"customer_id": cust_ids, "segment": rng.choice(["smb", "mid", "ent"], n_cust)})
# a re-onboarded customer appears twice in the CRM export
crm = pd.concat([crm, crm.iloc[[734]].assign(segment="ent")], ignore_index=True)


def order_feats(g):
    gaps = g["order_date"].sort_values().diff().dt.days
    return pd.Series({"n": len(g), "aov": g["value"].mean(),
                      "median_gap": gaps.median(), "recency": (pd.Timestamp("2024-01-01") - g["order_date"].max()).days})


def web_feats(g):
    return pd.Series({"visits": len(g), "minutes": g["minutes"].sum(),
                      "pages_per_visit": g["pages"].mean(), "long_share": (g["minutes"] > 10).mean()})


def support_feats(g):
    return pd.Series({"tickets": len(g), "resolved_rate": g["resolved"].mean(), "p90_wait": g["wait_h"].quantile(0.9)})


sources = [("orders", orders, order_feats), ("web", web, web_feats),
           ("support", support, support_feats), ("crm", crm, None)]
""",
        """\
feature_blocks = []
for i, (source_name, table, agg_fn) in enumerate(sources):
    if agg_fn is None:
        block = table.set_index("customer_id")
    else:
        block = table.groupby("customer_id").apply(agg_fn, include_groups=False)
    feature_blocks.append(block.add_prefix(f"{source_name}_"))
customer_features = pd.concat(feature_blocks, axis=1)
""",
        """\
feature_blocks = []
for i, (source_name, table, agg_fn) in enumerate(sources):
    if agg_fn is None:
        block = table.drop_duplicates("customer_id", keep="last").set_index("customer_id")
    else:
        block = table.groupby("customer_id").apply(agg_fn, include_groups=False)
    feature_blocks.append(block.add_prefix(f"{source_name}_"))
customer_features = pd.concat(feature_blocks, axis=1)
""",
    ),
    (
        "pandas_header_whitespace_keyerror",
        """\
import io
import pandas as pd

csv_text = "region, revenue, units\\nnorth,1200.5,14\\nsouth,980.0,11\\nnorth,1530.2,19\\neast,640.8,7\\nsouth,1100.0,12\\n"
sales = pd.read_csv(io.StringIO(csv_text))
""",
        """\
revenue_by_region = sales.groupby("region")["revenue"].sum().sort_values(ascending=False)
""",
        """\
sales.columns = sales.columns.str.strip()
revenue_by_region = sales.groupby("region")["revenue"].sum().sort_values(ascending=False)
""",
    ),
    (
        "pandas_astype_int_with_missing_quantity",
        """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2)
orders = pd.DataFrame({"order_id": np.arange(1, 301), "sku": rng.integers(100, 110, 300)})
stock = pd.DataFrame({"order_id": np.arange(1, 281), "quantity": rng.integers(1, 9, 280)})
# left join: the last orders have no stock record yet
orders = orders.merge(stock, on="order_id", how="left")
""",
        """\
orders["quantity"] = orders["quantity"].astype(int)
units_per_sku = orders.groupby("sku")["quantity"].sum()
""",
        """\
orders["quantity"] = orders["quantity"].fillna(0).astype(int)
units_per_sku = orders.groupby("sku")["quantity"].sum()
""",
    ),
    (
        "pandas_merge_key_dtype_object_vs_int",
        """\
import io
import numpy as np
import pandas as pd

products = pd.DataFrame({"sku": [10023, 10024, 10031, 10047, 10058],
                         "category": ["toys", "toys", "garden", "kitchen", "garden"],
                         "unit_cost": [4.1, 3.9, 12.0, 7.5, 15.2]})
# the POS export stores SKUs as zero-padded text
pos_csv = "sku,qty,price\\n010023,3,7.99\\n010031,1,19.99\\n010058,2,24.50\\n010024,5,6.49\\n"
sales = pd.read_csv(io.StringIO(pos_csv), dtype={"sku": str})
""",
        """\
sales_enriched = sales.merge(products, on="sku", how="left")
sales_enriched["margin"] = sales_enriched["price"] - sales_enriched["unit_cost"]
""",
        """\
sales["sku"] = sales["sku"].astype(int)
sales_enriched = sales.merge(products, on="sku", how="left")
sales_enriched["margin"] = sales_enriched["price"] - sales_enriched["unit_cost"]
""",
    ),
    # ------------------------------------------------------------------- numpy
    (
        "numpy_fund_paths_stack_ragged",
        """\
import numpy as np

rng = np.random.default_rng(42)
n_paths, horizon = 1450, 2500
shocks = rng.standard_normal((n_paths, horizon))
mu, sigma, floor = 0.0001, 0.012, 45.0
""",
        """\
paths = []
for p in range(n_paths):
    value = 100.0
    path = [value]
    for t in range(horizon):
        value *= 1.0 + mu + sigma * shocks[p, t]
        if value < floor:
            break  # fund is wound up
        path.append(value)
    paths.append(np.array(path))
paths = np.stack(paths)
terminal = paths[:, -1]
ruin_prob = (terminal == 0).mean()
""",
        """\
paths = []
for p in range(n_paths):
    value = 100.0
    path = [value]
    for t in range(horizon):
        value *= 1.0 + mu + sigma * shocks[p, t]
        if value < floor:
            path.extend([0.0] * (horizon + 1 - len(path)))  # wound up: value 0 afterwards
            break
        path.append(value)
    paths.append(np.array(path))
paths = np.stack(paths)
terminal = paths[:, -1]
ruin_prob = (terminal == 0).mean()
""",
    ),
    (
        "numpy_matmul_coef_includes_intercept",
        """\
import numpy as np

rng = np.random.default_rng(1)
X_new = rng.normal(size=(500, 5))
# coefficients copied from the model card: intercept first, then 5 slopes
coef = np.array([0.7, 1.2, -0.4, 0.05, 2.1, -1.3])
""",
        """\
y_hat = X_new @ coef
""",
        """\
y_hat = coef[0] + X_new @ coef[1:]
""",
    ),
    (
        "numpy_uint8_image_inplace_normalize",
        """\
import numpy as np

rng = np.random.default_rng(9)
img = rng.integers(0, 256, size=(64, 64, 3), dtype=np.uint8)
""",
        """\
img -= img.mean(axis=(0, 1))
img /= img.std(axis=(0, 1))
""",
        """\
img = img.astype(np.float32)
img -= img.mean(axis=(0, 1))
img /= img.std(axis=(0, 1))
""",
    ),
    # ------------------------------------------------------------ scikit-learn
    (
        "sklearn_cv_ensemble_holdout_missing_feature",
        """\
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold

rng = np.random.default_rng(0)


def make_homes(n):
    df = pd.DataFrame({
        "sqft": rng.normal(1500, 400, n).clip(300),
        "rooms": rng.integers(1, 7, n),
        "age": rng.integers(0, 80, n),
        "lot": rng.normal(6000, 1500, n).clip(500),
        "dist_center": rng.exponential(8.0, n),
    })
    df["price"] = (150 * df["sqft"] - 800 * df["age"]
                   + 20000 * df["rooms"] / (1 + df["dist_center"] / 10)
                   + rng.normal(0, 20000, n))
    return df


train = make_homes(4000)
holdout = make_homes(1000)
""",
        """\
train["sqft_per_room"] = train["sqft"] / train["rooms"]
features = ["sqft", "rooms", "age", "lot", "dist_center", "sqft_per_room"]
X, y = train[features], train["price"]
kf = KFold(n_splits=5, shuffle=True, random_state=0)
models, oof = [], np.zeros(len(train))
for seed, (tr_idx, va_idx) in zip([11, 22, 33, 44, 55], kf.split(X)):
    model = RandomForestRegressor(n_estimators=50, min_samples_leaf=3, random_state=seed)
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = model.predict(X.iloc[va_idx])
    models.append(model)
oof_rmse = float(np.sqrt(np.mean((oof - y.to_numpy()) ** 2)))
holdout_pred = np.mean([m.predict(holdout.drop(columns="price")) for m in models], axis=0)
""",
        """\
train["sqft_per_room"] = train["sqft"] / train["rooms"]
holdout["sqft_per_room"] = holdout["sqft"] / holdout["rooms"]
features = ["sqft", "rooms", "age", "lot", "dist_center", "sqft_per_room"]
X, y = train[features], train["price"]
kf = KFold(n_splits=5, shuffle=True, random_state=0)
models, oof = [], np.zeros(len(train))
for seed, (tr_idx, va_idx) in zip([11, 22, 33, 44, 55], kf.split(X)):
    model = RandomForestRegressor(n_estimators=50, min_samples_leaf=3, random_state=seed)
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = model.predict(X.iloc[va_idx])
    models.append(model)
oof_rmse = float(np.sqrt(np.mean((oof - y.to_numpy()) ** 2)))
holdout_pred = np.mean([m.predict(holdout[features]) for m in models], axis=0)
""",
    ),
    (
        "sklearn_per_segment_logreg_single_class",
        """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(21)
n_seg, per_seg = 390, 300
feature_cols = [f"f{i}" for i in range(8)]
X = rng.normal(size=(n_seg * per_seg, 8))
logits = X[:, 0] - 0.5 * X[:, 1] + 0.3 * X[:, 4] + rng.normal(0, 1, n_seg * per_seg)
df = pd.DataFrame(X, columns=feature_cols)
df["segment"] = np.repeat([f"seg_{i:03d}" for i in range(n_seg)], per_seg)
df["converted"] = (logits > 0).astype(int)
# a newly launched segment has not converted anyone yet
df.loc[df["segment"] == "seg_345", "converted"] = 0
""",
        """\
segment_models, segment_stats = {}, []
for seg_name, g in df.groupby("segment"):
    scaler = StandardScaler().fit(g[feature_cols])
    Xs = scaler.transform(g[feature_cols])
    clf = LogisticRegression(C=0.5, solver="liblinear").fit(Xs, g["converted"])
    proba = clf.predict_proba(Xs)[:, 1]
    segment_models[seg_name] = (scaler, clf)
    segment_stats.append({"segment": seg_name, "base_rate": g["converted"].mean(),
                          "mean_proba": proba.mean(), "top_coef": np.abs(clf.coef_).argmax()})
segment_stats = pd.DataFrame(segment_stats)
""",
        """\
segment_models, segment_stats = {}, []
for seg_name, g in df.groupby("segment"):
    if g["converted"].nunique() < 2:
        continue  # cannot fit a classifier on a single class
    scaler = StandardScaler().fit(g[feature_cols])
    Xs = scaler.transform(g[feature_cols])
    clf = LogisticRegression(C=0.5, solver="liblinear").fit(Xs, g["converted"])
    proba = clf.predict_proba(Xs)[:, 1]
    segment_models[seg_name] = (scaler, clf)
    segment_stats.append({"segment": seg_name, "base_rate": g["converted"].mean(),
                          "mean_proba": proba.mean(), "top_coef": np.abs(clf.coef_).argmax()})
segment_stats = pd.DataFrame(segment_stats)
""",
    ),
    (
        "sklearn_weekly_batch_scoring_unknown_channel",
        """\
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(8)
channels = ["web", "store", "phone"]


def make_orders(n, chans):
    return pd.DataFrame({
        "channel": rng.choice(chans, n),
        "region": rng.choice(["N", "S", "E", "W"], n),
        "basket": rng.gamma(2.0, 30.0, n),
        "items": rng.integers(1, 12, n),
    })


hist = make_orders(20000, channels)
hist["returned"] = (rng.random(20000) < 0.05 + 0.002 * hist["basket"].clip(0, 100)).astype(int)
weeks = list(range(1, 25))
stores = [f"st{i:02d}" for i in range(20)]
batches = {}
for w in weeks:
    for s in stores:
        # store 17 piloted self-service kiosks from week 22 on
        chans = channels + ["kiosk"] if (w >= 22 and s == "st17") else channels
        batches[(w, s)] = make_orders(60, chans)
""",
        """\
pre = ColumnTransformer([
    ("cat", OneHotEncoder(), ["channel", "region"]),
    ("num", StandardScaler(), ["basket", "items"]),
])
model = make_pipeline(pre, LogisticRegression(max_iter=1000))
model.fit(hist.drop(columns="returned"), hist["returned"])
weekly_risk = {}
for w in weeks:
    store_scores = []
    for s in stores:
        p = model.predict_proba(batches[(w, s)])[:, 1]
        store_scores.append((s, p.mean(), int((p > 0.3).sum())))
    weekly_risk[w] = pd.DataFrame(store_scores, columns=["store", "mean_risk", "n_flagged"])
risk_panel = pd.concat(weekly_risk, names=["week"])
""",
        """\
pre = ColumnTransformer([
    ("cat", OneHotEncoder(handle_unknown="ignore"), ["channel", "region"]),
    ("num", StandardScaler(), ["basket", "items"]),
])
model = make_pipeline(pre, LogisticRegression(max_iter=1000))
model.fit(hist.drop(columns="returned"), hist["returned"])
weekly_risk = {}
for w in weeks:
    store_scores = []
    for s in stores:
        p = model.predict_proba(batches[(w, s)])[:, 1]
        store_scores.append((s, p.mean(), int((p > 0.3).sum())))
    weekly_risk[w] = pd.DataFrame(store_scores, columns=["store", "mean_risk", "n_flagged"])
risk_panel = pd.concat(weekly_risk, names=["week"])
""",
    ),
    (
        "sklearn_customer_features_nan_into_ridge",
        """\
import warnings
import numpy as np
from sklearn.impute import SimpleImputer
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline

warnings.filterwarnings("ignore", category=RuntimeWarning)
rng = np.random.default_rng(13)
n_cust = 21000
txn = {cid: rng.gamma(2.0, 25.0, rng.integers(1, 60)) for cid in range(n_cust)}
txn[8812] = np.array([])  # account opened, no purchases yet
next_month_spend = rng.gamma(2.0, 50.0, n_cust)
""",
        """\
customer_ids = sorted(txn)
rows = [[len(a), a.mean(), a.std(), np.median(a), (a > 100).mean()]
        for a in (txn[c] for c in customer_ids)]
for row, c in zip(rows, customer_ids):
    a = txn[c]
    row.append(np.polyfit(np.arange(len(a)), a, 1)[0] if len(a) > 2 else 0.0)
    row.append(np.log1p(a).sum() / max(len(a), 1))
X = np.array(rows)
spend_model = Ridge(alpha=1.0).fit(X, next_month_spend)
""",
        """\
customer_ids = sorted(txn)
rows = [[len(a), a.mean(), a.std(), np.median(a), (a > 100).mean()]
        for a in (txn[c] for c in customer_ids)]
for row, c in zip(rows, customer_ids):
    a = txn[c]
    row.append(np.polyfit(np.arange(len(a)), a, 1)[0] if len(a) > 2 else 0.0)
    row.append(np.log1p(a).sum() / max(len(a), 1))
X = np.array(rows)
spend_model = make_pipeline(SimpleImputer(strategy="median"), Ridge(alpha=1.0)).fit(X, next_month_spend)
""",
    ),
    (
        "sklearn_scaler_not_fitted",
        """\
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

X, y = make_classification(n_samples=800, n_features=10, random_state=0)
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.25, random_state=0)
scaler = StandardScaler()
clf = LogisticRegression(max_iter=500)
""",
        """\
clf.fit(X_train, y_train)
val_acc = clf.score(scaler.transform(X_val), y_val)
""",
        """\
clf.fit(scaler.fit_transform(X_train), y_train)
val_acc = clf.score(scaler.transform(X_val), y_val)
""",
    ),
    (
        "sklearn_linear_regression_1d_feature",
        """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(4)
homes = pd.DataFrame({"sqft": rng.normal(1600, 350, 300)})
homes["price"] = 120 * homes["sqft"] + rng.normal(0, 15000, 300)
""",
        """\
lr = LinearRegression().fit(homes["sqft"], homes["price"])
price_per_sqft = lr.coef_[0]
""",
        """\
lr = LinearRegression().fit(homes[["sqft"]], homes["price"])
price_per_sqft = lr.coef_[0]
""",
    ),
    (
        "sklearn_stratified_kfold_continuous_target",
        """\
import numpy as np
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score

X, y = make_regression(n_samples=600, n_features=12, noise=10.0, random_state=0)
""",
        """\
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
r2_scores = cross_val_score(Ridge(alpha=1.0), X, y, cv=cv, scoring="r2", error_score="raise")
""",
        """\
cv = KFold(n_splits=5, shuffle=True, random_state=0)
r2_scores = cross_val_score(Ridge(alpha=1.0), X, y, cv=cv, scoring="r2", error_score="raise")
""",
    ),
    # ------------------------------------------------------------------- keras
    (
        "keras_config_ensemble_holdout_extra_column",
        """\
import numpy as np
import pandas as pd
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
feature_cols = [f"x{i}" for i in range(12)]


def make_frame(n, start_id):
    df = pd.DataFrame(rng.normal(size=(n, 12)), columns=feature_cols)
    df.insert(0, "customer_id", np.arange(start_id, start_id + n))
    df["label"] = (df["x0"] + df["x3"] * df["x5"] - 0.5 * df["x7"] > 0).astype(int)
    return df


train_df = make_frame(2000, 1)
holdout_df = make_frame(800, 50001)
""",
        """\
configs = [
    {"units": 64, "dropout": 0.1, "lr": 1e-3},
    {"units": 128, "dropout": 0.3, "lr": 3e-4},
]
X_tr = train_df[feature_cols].to_numpy("float32")
y_tr = train_df["label"].to_numpy("float32")
members, val_acc = [], []
for cfg in configs:
    model = keras.Sequential([
        keras.Input(shape=(X_tr.shape[1],)),
        layers.Dense(cfg["units"], activation="relu"),
        layers.Dropout(cfg["dropout"]),
        layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(cfg["lr"]), loss="binary_crossentropy", metrics=["accuracy"])
    hist = model.fit(X_tr, y_tr, validation_split=0.2, epochs=2, batch_size=64, verbose=0)
    val_acc.append(hist.history["val_accuracy"][-1])
    members.append(model)
X_hold = holdout_df.drop(columns=["label"]).to_numpy("float32")
ens_proba = np.mean([m(X_hold, training=False).numpy() for m in members], axis=0).ravel()
""",
        """\
configs = [
    {"units": 64, "dropout": 0.1, "lr": 1e-3},
    {"units": 128, "dropout": 0.3, "lr": 3e-4},
]
X_tr = train_df[feature_cols].to_numpy("float32")
y_tr = train_df["label"].to_numpy("float32")
members, val_acc = [], []
for cfg in configs:
    model = keras.Sequential([
        keras.Input(shape=(X_tr.shape[1],)),
        layers.Dense(cfg["units"], activation="relu"),
        layers.Dropout(cfg["dropout"]),
        layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(cfg["lr"]), loss="binary_crossentropy", metrics=["accuracy"])
    hist = model.fit(X_tr, y_tr, validation_split=0.2, epochs=2, batch_size=64, verbose=0)
    val_acc.append(hist.history["val_accuracy"][-1])
    members.append(model)
X_hold = holdout_df[feature_cols].to_numpy("float32")
ens_proba = np.mean([m(X_hold, training=False).numpy() for m in members], axis=0).ravel()
""",
    ),
    (
        "keras_conv1d_on_2d_input",
        """\
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)
signals = rng.normal(size=(256, 128)).astype("float32")
labels = rng.integers(0, 3, 256)
""",
        """\
model = keras.Sequential([
    keras.Input(shape=(signals.shape[1],)),
    layers.Conv1D(16, 5, activation="relu"),
    layers.GlobalAveragePooling1D(),
    layers.Dense(3, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(signals, labels, epochs=1, batch_size=64, verbose=0)
""",
        """\
model = keras.Sequential([
    keras.Input(shape=(signals.shape[1], 1)),
    layers.Conv1D(16, 5, activation="relu"),
    layers.GlobalAveragePooling1D(),
    layers.Dense(3, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(signals[..., None], labels, epochs=1, batch_size=64, verbose=0)
""",
    ),
    (
        "keras_categorical_loss_integer_labels",
        """\
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

keras.utils.set_random_seed(2)
rng = np.random.default_rng(2)
X = rng.normal(size=(600, 20)).astype("float32")
y = (X[:, :3].argmax(axis=1)).astype("int64")  # integer class ids 0..2
model = keras.Sequential([keras.Input(shape=(20,)), layers.Dense(32, activation="relu"),
                          layers.Dense(3, activation="softmax")])
""",
        """\
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=3, batch_size=64, verbose=0)
""",
        """\
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=3, batch_size=64, verbose=0)
""",
    ),
    # ------------------------------------------------------------------- torch
    (
        "torch_walk_forward_batchnorm_single_sample_batch",
        """\
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)  # small MLP: threading only adds overhead
rng = np.random.default_rng(0)
window = 32
t = np.arange(4129)
series = np.sin(t / 24) + 0.3 * np.sin(t / 168) + rng.normal(0, 0.2, len(t))
X_t = torch.from_numpy(np.lib.stride_tricks.sliding_window_view(series[:-1], window).astype(np.float32))
y_t = torch.from_numpy(series[window:].astype(np.float32))


def make_model():
    return nn.Sequential(nn.Linear(window, 128), nn.BatchNorm1d(128), nn.ReLU(),
                         nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 1))
""",
        """\
def fit_mlp(X, y, epochs=3):
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
    model.train()
    for epoch in range(epochs):
        for xb, yb in loader:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb).squeeze(-1), yb)
            loss.backward()
            opt.step()
    return model.eval()


fold_mse = []
for cutoff in [2048, 2560, 3072, 3584]:
    m = fit_mlp(X_t[:cutoff], y_t[:cutoff])
    with torch.no_grad():
        pred = m(X_t[cutoff:cutoff + 256]).squeeze(-1)
    fold_mse.append(nn.functional.mse_loss(pred, y_t[cutoff:cutoff + 256]).item())
final_model = fit_mlp(X_t, y_t)
""",
        """\
def fit_mlp(X, y, epochs=3):
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True, drop_last=True)
    model.train()
    for epoch in range(epochs):
        for xb, yb in loader:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb).squeeze(-1), yb)
            loss.backward()
            opt.step()
    return model.eval()


fold_mse = []
for cutoff in [2048, 2560, 3072, 3584]:
    m = fit_mlp(X_t[:cutoff], y_t[:cutoff])
    with torch.no_grad():
        pred = m(X_t[cutoff:cutoff + 256]).squeeze(-1)
    fold_mse.append(nn.functional.mse_loss(pred, y_t[cutoff:cutoff + 256]).item())
final_model = fit_mlp(X_t, y_t)
""",
    ),
    (
        "torch_multitask_heads_float_class_targets",
        """\
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(6)


def make_task(n, n_classes):
    X = rng.normal(size=(n, 24)).astype(np.float32)
    y = X[:, :n_classes].argmax(axis=1)
    return X, y


tasks = {}
tasks["churn"] = make_task(6000, 2)
tasks["plan_tier"] = make_task(6000, 4)
X_fraud, y_fraud = make_task(2000, 2)
# fraud labels come from a joined table; unlabeled rows were filled with 0
fraud_labels = pd.Series(y_fraud).where(rng.random(2000) > 0.05)
tasks["fraud"] = (X_fraud, fraud_labels.fillna(0).to_numpy())
""",
        """\
task_heads, task_acc = {}, {}
for task_name, (X_np, y_np) in tasks.items():
    X = torch.from_numpy(X_np)
    y = torch.tensor(y_np)
    n_classes = int(y.max().item()) + 1
    model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(), nn.Linear(128, n_classes))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(17):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            loss = loss_fn(model(X[idx]), y[idx])
            loss.backward()
            opt.step()
    with torch.no_grad():
        task_acc[task_name] = (model(X).argmax(1) == y).float().mean().item()
    task_heads[task_name] = model
""",
        """\
task_heads, task_acc = {}, {}
for task_name, (X_np, y_np) in tasks.items():
    X = torch.from_numpy(X_np)
    y = torch.tensor(y_np).long()
    n_classes = int(y.max().item()) + 1
    model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(), nn.Linear(128, n_classes))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(17):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            loss = loss_fn(model(X[idx]), y[idx])
            loss.backward()
            opt.step()
    with torch.no_grad():
        task_acc[task_name] = (model(X).argmax(1) == y).float().mean().item()
    task_heads[task_name] = model
""",
    ),
    (
        "torch_linear_in_features_after_new_column",
        """\
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(3)
rng = np.random.default_rng(3)
base_cols = [f"f{i}" for i in range(12)]
df = pd.DataFrame(rng.normal(size=(256, 12)), columns=base_cols)
df["tenure_bucket"] = rng.integers(0, 5, 256)
# scorer trained last week on the 12 base features
scorer = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
scorer.eval()
""",
        """\
feature_cols = base_cols + ["tenure_bucket"]
X = torch.tensor(df[feature_cols].to_numpy(), dtype=torch.float32)
with torch.no_grad():
    churn_scores = torch.sigmoid(scorer(X)).squeeze(-1)
""",
        """\
feature_cols = base_cols
X = torch.tensor(df[feature_cols].to_numpy(), dtype=torch.float32)
with torch.no_grad():
    churn_scores = torch.sigmoid(scorer(X)).squeeze(-1)
""",
    ),
    (
        "torch_view_after_permute_non_contiguous",
        """\
import torch
from torch import nn

torch.manual_seed(4)
feats = torch.randn(8, 64, 10, 10)  # backbone output, NCHW
head = nn.Linear(10 * 10 * 64, 5)
""",
        """\
x = feats.permute(0, 2, 3, 1)  # channels-last to match the exported head
x = x.view(x.size(0), -1)
logits = head(x)
""",
        """\
x = feats.permute(0, 2, 3, 1)  # channels-last to match the exported head
x = x.reshape(x.size(0), -1)
logits = head(x)
""",
    ),
    # -------------------------------------------------------------- matplotlib
    (
        "matplotlib_scatter_color_length_mismatch",
        """\
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
emb = pd.DataFrame({"pc1": rng.normal(size=200), "pc2": rng.normal(size=200),
                    "cluster": rng.integers(0, 3, 200).astype(float)})
emb.loc[rng.choice(200, 15, replace=False), "cluster"] = np.nan  # noise points
palette = {0.0: "tab:blue", 1.0: "tab:orange", 2.0: "tab:green"}
point_colors = emb["cluster"].dropna().map(palette)
""",
        """\
fig, ax = plt.subplots(figsize=(5, 4))
ax.scatter(emb["pc1"], emb["pc2"], c=point_colors, s=12)
ax.set_title("PCA embedding by cluster")
""",
        """\
plot_df = emb.dropna(subset=["cluster"])
fig, ax = plt.subplots(figsize=(5, 4))
ax.scatter(plot_df["pc1"], plot_df["pc2"], c=plot_df["cluster"].map(palette), s=12)
ax.set_title("PCA embedding by cluster")
""",
    ),
    # ----------------------------------------------------------------- seaborn
    (
        "seaborn_lineplot_hue_wrong_case",
        """\
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

rng = np.random.default_rng(14)
dates = pd.date_range("2024-01-01", periods=60, freq="D")
daily = pd.DataFrame({
    "date": np.tile(dates, 3),
    "Region": np.repeat(["North", "South", "West"], 60),
    "sales": rng.gamma(4.0, 250.0, 180).round(1),
})
""",
        """\
fig, ax = plt.subplots(figsize=(7, 3))
sns.lineplot(data=daily, x="date", y="sales", hue="region", ax=ax)
""",
        """\
fig, ax = plt.subplots(figsize=(7, 3))
sns.lineplot(data=daily, x="date", y="sales", hue="Region", ax=ax)
""",
    ),
    # ----------------------------------------------------------------- xgboost
    (
        "xgboost_bagged_boosters_score_column_order",
        """\
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(15)
n = 6000
X = pd.DataFrame({
    "tenure": rng.integers(1, 72, n).astype(float),
    "monthly": rng.normal(65, 20, n),
    "tickets": rng.poisson(1.5, n).astype(float),
    "usage_gb": rng.gamma(2.0, 8.0, n),
    "discount": rng.uniform(0, 0.3, n),
    "age": rng.integers(18, 80, n).astype(float),
})
y = ((0.04 * X["tickets"] - 0.02 * X["tenure"] + 0.01 * X["monthly"] + rng.normal(0, 0.5, n)) > 0).astype(int)
# scoring rows arrive from the API as JSON records, keys in the API's own order
records = X.sample(500, random_state=1).to_dict("records")
X_score = pd.DataFrame([{k: r[k] for k in sorted(r)} for r in records])
""",
        """\
params = {"objective": "binary:logistic", "max_depth": 5, "eta": 0.1, "subsample": 0.8,
          "colsample_bytree": 0.8, "eval_metric": "auc", "nthread": 1}
bag_rng = np.random.default_rng(0)
boosters = []
for seed in [3, 7, 11, 19, 23, 29, 31, 37]:
    idx = bag_rng.choice(len(X), len(X), replace=True)
    dtr = xgb.DMatrix(X.iloc[idx], label=y.iloc[idx])
    boosters.append(xgb.train({**params, "seed": seed}, dtr, num_boost_round=440))
dscore = xgb.DMatrix(X_score)
churn_prob = np.mean([b.predict(dscore) for b in boosters], axis=0)
""",
        """\
params = {"objective": "binary:logistic", "max_depth": 5, "eta": 0.1, "subsample": 0.8,
          "colsample_bytree": 0.8, "eval_metric": "auc", "nthread": 1}
bag_rng = np.random.default_rng(0)
boosters = []
for seed in [3, 7, 11, 19, 23, 29, 31, 37]:
    idx = bag_rng.choice(len(X), len(X), replace=True)
    dtr = xgb.DMatrix(X.iloc[idx], label=y.iloc[idx])
    boosters.append(xgb.train({**params, "seed": seed}, dtr, num_boost_round=440))
dscore = xgb.DMatrix(X_score[X.columns])
churn_prob = np.mean([b.predict(dscore) for b in boosters], axis=0)
""",
    ),
    # ---------------------------------------------------------------- lightgbm
    (
        "lightgbm_per_product_object_channel_column",
        """\
import numpy as np
import pandas as pd
import lightgbm as lgb

rng = np.random.default_rng(17)
products = [f"P{i:03d}" for i in range(24)]
product_data = {}
for i, p in enumerate(products):
    n = 1500
    d = pd.DataFrame({
        "price": rng.uniform(5, 50, n),
        "promo": rng.integers(0, 2, n),
        "dow": rng.integers(0, 7, n),
        "temp": rng.normal(15, 8, n),
    })
    if i >= 22:  # products onboarded through the new ERP carry a text channel column
        d["channel"] = rng.choice(["web", "store"], n)
    d["units"] = (50 - 0.6 * d["price"] + 12 * d["promo"] + 0.4 * d["temp"]
                  + rng.normal(0, 4, n)).clip(0).round()
    product_data[p] = d
""",
        """\
product_models, product_mae = {}, {}
for i, p in enumerate(products):
    d = product_data[p]
    X, y = d.drop(columns="units"), d["units"]
    split = int(len(d) * 0.8)
    m = lgb.LGBMRegressor(n_estimators=200, learning_rate=0.05, num_leaves=31,
                          random_state=i, n_jobs=1, verbose=-1)
    m.fit(X.iloc[:split], y.iloc[:split])
    product_mae[p] = float(np.mean(np.abs(m.predict(X.iloc[split:]) - y.iloc[split:])))
    product_models[p] = m
""",
        """\
product_models, product_mae = {}, {}
for i, p in enumerate(products):
    d = product_data[p]
    X, y = d.drop(columns="units"), d["units"]
    X = X.astype({c: "category" for c in X.select_dtypes("object").columns})
    split = int(len(d) * 0.8)
    m = lgb.LGBMRegressor(n_estimators=200, learning_rate=0.05, num_leaves=31,
                          random_state=i, n_jobs=1, verbose=-1)
    m.fit(X.iloc[:split], y.iloc[:split])
    product_mae[p] = float(np.mean(np.abs(m.predict(X.iloc[split:]) - y.iloc[split:])))
    product_models[p] = m
""",
    ),
    # ------------------------------------------------------------ plain Python
    (
        "python_user_engagement_empty_sessions",
        """\
import random

random.seed(3)
users = {}
for u in range(6000):
    # older accounts (lower ids) have accumulated more sessions
    users[f"u{u:05d}"] = [
        {"pages": random.randint(1, 30), "seconds": random.randint(5, 3600),
         "purchases": random.randint(0, 2)}
        for _ in range(random.randint(1, 265 - u // 34))
    ]
users["u04700"] = []  # the bot filter upstream blanked this user's sessions
""",
        """\
pending = sorted(users)
report = {}
while pending:
    uid = pending.pop(0)
    sessions = users[uid]
    total_pages = sum(s["pages"] for s in sessions)
    total_secs = sum(s["seconds"] for s in sessions)
    durations = sorted(s["seconds"] for s in sessions)
    spread = sum(abs(a - b) for i, a in enumerate(durations) for b in durations[i + 1:])
    report[uid] = {
        "pages_per_session": total_pages / len(sessions),
        "conv_rate": sum(s["purchases"] > 0 for s in sessions) / len(sessions),
        "median_secs": durations[len(durations) // 2],
        "secs_per_page": total_secs / total_pages,
        "gini_secs": spread / (len(durations) * total_secs),
    }
""",
        """\
pending = sorted(users)
report = {}
while pending:
    uid = pending.pop(0)
    sessions = users[uid]
    if not sessions:
        continue
    total_pages = sum(s["pages"] for s in sessions)
    total_secs = sum(s["seconds"] for s in sessions)
    durations = sorted(s["seconds"] for s in sessions)
    spread = sum(abs(a - b) for i, a in enumerate(durations) for b in durations[i + 1:])
    report[uid] = {
        "pages_per_session": total_pages / len(sessions),
        "conv_rate": sum(s["purchases"] > 0 for s in sessions) / len(sessions),
        "median_secs": durations[len(durations) // 2],
        "secs_per_page": total_secs / total_pages,
        "gini_secs": spread / (len(durations) * total_secs),
    }
""",
    ),
    (
        "python_sorted_categories_with_none",
        """\
records = [
    {"id": 1, "city": "Lyon", "spend": 120.0},
    {"id": 2, "city": "Paris", "spend": 80.5},
    {"id": 3, "city": None, "spend": 42.0},
    {"id": 4, "city": "Nantes", "spend": 63.2},
    {"id": 5, "city": "Lyon", "spend": 19.9},
]
""",
        """\
cities = sorted({r["city"] for r in records})
city_index = {c: i for i, c in enumerate(cities)}
encoded = [city_index[r["city"]] for r in records if r["city"] in city_index]
""",
        """\
cities = sorted({r["city"] for r in records if r["city"] is not None})
city_index = {c: i for i, c in enumerate(cities)}
encoded = [city_index[r["city"]] for r in records if r["city"] in city_index]
""",
    ),
]
