r"""Twenty-third set of notebook crash/fix pairs (thirty pairs).

Each entry of PAIRS is (name, setup, crash, fixed):
  setup  - the notebook cells before the target cell: imports plus small,
           seeded, synthetic data built in memory (no downloads, no files).
  crash  - the target cell; running it after setup raises a genuine error
           from the library or from a builtin doing its normal work on the
           data (no raise/assert/print/sleep, nothing triggered on purpose).
  fixed  - the same cell minimally repaired the way a data scientist would
           (a cleaning line, a dtype, a reshape, a column name, a parser
           option, an encoder option, ...); it runs clean and keeps all the work.

How they were checked: a checker ran every pair as setup+crash and as
setup+fixed, each in a fresh Python process, one process at a time, timing
the target cell alone (time.perf_counter around exec of the cell, after exec
of setup in the same namespace). It required that crash raises (exception
type recorded), that fixed runs clean, that both variants of a LONG pair take
1.8-5.5 s and that a short crash cell raises in well under 1 s. Two
consecutive full rounds were clean on a 2-core CPU machine (torch CPU build,
TensorFlow CPU; no GPU settings are used anywhere).

Mix by main library: pandas 7, numpy 3, scikit-learn 7, keras (TensorFlow
CPU backend) 3, torch 4, matplotlib 1, seaborn 1, xgboost 1, lightgbm 1,
plain Python 2.

Fifteen LONG pairs do about 2-5 s of real work in the target cell before the
failure, which comes either from data met late in the loop (a late chunk,
month, user, fold, segment, store, quarter or scoring file) or from combining
what the loop built once it is over (stack, pivot, concat + final fit).
Loop shapes vary: enumerate over a chunked reader, for over groupby, a list
comprehension calling a function defined in the cell, dict items, a while
loop with a counter, range over walk-forward cutoffs, nested loops
(segment x degree x C), zip over parallel lists, a while loop draining a
deque, and training loops inside a function the cell defines.
The fifteen short pairs raise almost at once.

Pairs (kind, name -- error raised: what the library rejects):
LONG  pandas_chunked_csv_thousands_separator -- ValueError: late chunks hold "4,083.48"-style amounts, astype(float) fails (fix: thousands=",")
LONG  pandas_store_features_pivot_duplicate_dates -- ValueError: a late store's month was ingested twice, pivot after the per-store loop finds duplicate entries (fix: drop_duplicates)
short pandas_merge_customer_id_int_vs_str -- ValueError: merge on int64 vs object key (fix: astype(int))
LONG  pandas_sessionize_users_timestamp_format -- ValueError: late users log ISO 'T' timestamps, explicit to_datetime format fails (fix: format="ISO8601")
short pandas_age_nan_astype_int -- IntCastingNaNError: NaN ages cast to int (fix: fillna median first)
LONG  pandas_monthly_exports_renamed_column -- KeyError: the last export months use Title_Case headers (fix: lower-case the columns)
short pandas_groupby_mean_text_columns -- TypeError: groupby().mean() over text columns (fix: numeric_only=True)
LONG  numpy_mc_batches_stack_partial_last_batch -- ValueError: np.stack of per-batch results where the last batch is partial (fix: np.concatenate)
short numpy_gradient_descent_bias_column -- ValueError: matmul core dimension mismatch after adding a bias column (fix: size w from X_b)
short numpy_normal_equations_duplicate_feature -- LinAlgError: singular X'X from a feature listed twice (fix: de-duplicate the feature list)
LONG  sklearn_walkforward_onehot_new_region -- ValueError: OneHotEncoder meets a region that first appears in a late fold (fix: handle_unknown="ignore")
LONG  sklearn_user_features_nan_logistic -- ValueError: per-user features are NaN for late single-order users, LogisticRegression rejects NaN (fix: fillna(0))
LONG  sklearn_segment_models_single_class -- ValueError: SVC gets a single class in the last segment (fix: skip single-class segments)
short sklearn_classifier_on_continuous_target -- ValueError: classifier on a continuous target (fix: regressor)
short sklearn_predict_after_cross_val_unfitted -- NotFittedError: predict after cross_val_score, which fits clones only (fix: fit first)
short sklearn_predict_test_with_id_column -- ValueError: predict on a frame with an id column unseen at fit (fix: select the fit features)
short sklearn_stratify_singleton_class -- ValueError: stratified split with classes of one member (fix: fold rare classes into "other")
short keras_hardcoded_input_dim_after_dummies -- ValueError: Input(shape=(6,)) but get_dummies gave 10 columns (fix: X.shape[1])
LONG  keras_quarterly_update_priority_code_gap -- InvalidArgumentError: label 4 outside [0, 4) when the new code arrives in the last quarter (fix: max()+1 classes)
LONG  keras_store_windows_dropna_cardinality -- ValueError: a late hold-out store's dropna shortens X but not y; after the loop and the fit, evaluate sees ambiguous data cardinality (fix: align target to features)
short torch_float64_numpy_features_into_linear -- RuntimeError: float64 input into a float32 Linear (fix: .float())
short torch_embedding_one_based_ids -- IndexError: 1-based ids sized by nunique overflow the Embedding (fix: max()+1)
LONG  torch_walkforward_squeeze_singleton_batch -- ValueError: squeeze() of a size-1 last batch in a late fold gives a 0-d output vs target [1] (fix: squeeze(1))
LONG  torch_daily_scoring_dummies_columns -- RuntimeError: a late scoring file has an extra dummy column, Linear in_features mismatch (fix: reindex to train columns)
short matplotlib_rolling_mean_dropna_length -- ValueError: x and y lengths differ after dropna (fix: plot the rolling mean without dropna)
short seaborn_barplot_palette_missing_tier -- ValueError: palette dict lacks a hue level (fix: add the missing key)
LONG  xgboost_per_store_log_sales_zero_days -- XGBoostError: log(0) = -inf labels for a late store closed a month (fix: log1p/expm1)
LONG  lightgbm_concat_monthly_categories_object -- ValueError: concat of monthly categoricals with different categories gives object dtype for the final fit (fix: re-cast to category)
LONG  python_user_queue_avg_gap_zero_division -- ZeroDivisionError: late single-event users have no gaps (fix: guard the empty list)
short python_json_records_null_price -- TypeError: None * int for delisted items (fix: drop records with null price)

Crash classes covered: strings in numeric data, NaN to int, key/merge dtype
mismatch, datetime format parsing, missing/renamed columns, aggregation over
object columns, duplicate labels in reshape, stacking ragged arrays, matmul
shape mismatch, singular matrix, unseen categories, NaN into an estimator,
single-class target for SVC, wrong target type, unfitted estimator, feature-name
mismatch, impossible stratification, Keras input shape, sparse label out of
range, X/y cardinality mismatch, torch float64 vs float32, embedding index
out of range, loss input vs target shape, Linear in_features mismatch, plot
x/y length, missing palette keys, infinite labels, object dtype rejected by
LightGBM, division by zero, None arithmetic.
"""

PAIRS = [
(
"pandas_chunked_csv_thousands_separator",
r"""import io
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
n_rows = 160_000
customer = rng.integers(10_000, 10_420, n_rows)
day = np.sort(rng.integers(0, 365, n_rows))
category = rng.choice(["grocery", "fuel", "travel", "online", "dining", "health"], n_rows)
amount = np.round(rng.gamma(2.0, 45.0, n_rows), 2)
amount_txt = amount.astype(str).astype(object)
# from late November the export came from the new billing system, which writes big amounts as "1,234.50"
new_system_big = (day >= 330) & (amount > 150)
amount_txt[new_system_big] = ['"{:,.2f}"'.format(a * 12) for a in amount[new_system_big]]
rows = [f"{c},{d},{k},{a}" for c, d, k, a in zip(customer, day, category, amount_txt)]
csv_text = "customer_id,day,category,amount\n" + "\n".join(rows)
""",
r"""chunk_features = []
for i, chunk in enumerate(pd.read_csv(io.StringIO(csv_text), chunksize=16_000)):
    chunk["amount"] = chunk["amount"].astype(float)
    chunk["week"] = chunk["day"] // 7
    per_customer = chunk.groupby("customer_id").apply(
        lambda g: pd.Series({
            "spend": g["amount"].sum(),
            "n_tx": len(g),
            "max_tx": g["amount"].max(),
            "active_weeks": g["week"].nunique(),
            "top_category": g["category"].mode().iat[0],
        }),
        include_groups=False,
    )
    per_customer["chunk"] = i
    chunk_features.append(per_customer)

features = pd.concat(chunk_features)
customer_profile = features.groupby(level=0).agg(
    spend=("spend", "sum"), n_tx=("n_tx", "sum"), max_tx=("max_tx", "max"), active_weeks=("active_weeks", "sum")
)
customer_profile.sort_values("spend", ascending=False).head()
""",
r"""chunk_features = []
for i, chunk in enumerate(pd.read_csv(io.StringIO(csv_text), chunksize=16_000, thousands=",")):
    chunk["amount"] = chunk["amount"].astype(float)
    chunk["week"] = chunk["day"] // 7
    per_customer = chunk.groupby("customer_id").apply(
        lambda g: pd.Series({
            "spend": g["amount"].sum(),
            "n_tx": len(g),
            "max_tx": g["amount"].max(),
            "active_weeks": g["week"].nunique(),
            "top_category": g["category"].mode().iat[0],
        }),
        include_groups=False,
    )
    per_customer["chunk"] = i
    chunk_features.append(per_customer)

features = pd.concat(chunk_features)
customer_profile = features.groupby(level=0).agg(
    spend=("spend", "sum"), n_tx=("n_tx", "sum"), max_tx=("max_tx", "max"), active_weeks=("active_weeks", "sum")
)
customer_profile.sort_values("spend", ascending=False).head()
""",
),
(
"pandas_store_features_pivot_duplicate_dates",
r"""import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
dates = pd.date_range("2022-01-01", periods=365, freq="D")
weekly = 1 + 0.25 * np.sin(np.arange(365) * 2 * np.pi / 7)
frames = []
for s in range(1, 251):
    base = rng.uniform(50, 400)
    frames.append(pd.DataFrame({
        "store": s,
        "date": dates,
        "sales": rng.poisson(base * weekly),
        "promo": rng.integers(0, 2, 365),
    }))
sales = pd.concat(frames, ignore_index=True)
# store 237's March feed was loaded twice by the ingestion job
dup = sales[(sales["store"] == 237) & (sales["date"].dt.month == 3)]
sales = pd.concat([sales, dup], ignore_index=True)
""",
r"""store_feats = []
for store, g in sales.groupby("store"):
    g = g.sort_values("date")
    feats = pd.DataFrame({"store": store, "date": g["date"].values})
    feats["roll7"] = g["sales"].rolling(7, min_periods=1).mean().values
    feats["roll28"] = g["sales"].rolling(28, min_periods=1).mean().values
    feats["ewm14"] = g["sales"].ewm(span=14).mean().values
    feats["lag7"] = g["sales"].shift(7).values
    feats["promo_rate28"] = g["promo"].rolling(28, min_periods=1).mean().values
    feats["above_avg_share14"] = g["sales"].rolling(14, min_periods=1).apply(
        lambda w: (w > w.mean()).mean(), raw=True
    ).values
    store_feats.append(feats)

store_feats = pd.concat(store_feats, ignore_index=True)
roll7_wide = store_feats.pivot(index="date", columns="store", values="roll7")
roll7_wide.iloc[:5, :5]
""",
r"""sales = sales.drop_duplicates(["store", "date"])
store_feats = []
for store, g in sales.groupby("store"):
    g = g.sort_values("date")
    feats = pd.DataFrame({"store": store, "date": g["date"].values})
    feats["roll7"] = g["sales"].rolling(7, min_periods=1).mean().values
    feats["roll28"] = g["sales"].rolling(28, min_periods=1).mean().values
    feats["ewm14"] = g["sales"].ewm(span=14).mean().values
    feats["lag7"] = g["sales"].shift(7).values
    feats["promo_rate28"] = g["promo"].rolling(28, min_periods=1).mean().values
    feats["above_avg_share14"] = g["sales"].rolling(14, min_periods=1).apply(
        lambda w: (w > w.mean()).mean(), raw=True
    ).values
    store_feats.append(feats)

store_feats = pd.concat(store_feats, ignore_index=True)
roll7_wide = store_feats.pivot(index="date", columns="store", values="roll7")
roll7_wide.iloc[:5, :5]
""",
),
(
"pandas_merge_customer_id_int_vs_str",
r"""import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
orders = pd.DataFrame({
    "order_id": np.arange(5000),
    "customer_id": rng.integers(1000, 1400, 5000),
    "amount": rng.gamma(2.0, 30.0, 5000).round(2),
})
# the CRM export was read with dtype=str, so its ids are text
customers = pd.DataFrame({
    "customer_id": np.arange(1000, 1400).astype(str),
    "segment": rng.choice(["consumer", "corporate", "home_office"], 400),
    "signup_year": rng.integers(2015, 2024, 400),
})
""",
r"""enriched = orders.merge(customers, on="customer_id", how="left")
segment_revenue = enriched.groupby("segment")["amount"].agg(["sum", "mean", "count"])
segment_revenue
""",
r"""customers["customer_id"] = customers["customer_id"].astype(int)
enriched = orders.merge(customers, on="customer_id", how="left")
segment_revenue = enriched.groupby("segment")["amount"].agg(["sum", "mean", "count"])
segment_revenue
""",
),
(
"pandas_sessionize_users_timestamp_format",
r"""import numpy as np
import pandas as pd

rng = np.random.default_rng(4)
start = pd.Timestamp("2023-03-01")
parts = []
for uid in range(1, 241):
    n = int(rng.integers(20, 60))
    offsets = np.sort(rng.integers(0, 60 * 24 * 30, n))
    ts = start + pd.to_timedelta(offsets, unit="m")
    # users migrated to app v2 (the newest ids) log ISO timestamps with a 'T'
    fmt = "%Y-%m-%dT%H:%M:%S" if uid > 205 else "%Y-%m-%d %H:%M:%S"
    parts.append(pd.DataFrame({
        "user_id": uid,
        "ts": ts.strftime(fmt),
        "event": rng.choice(["view", "cart", "buy"], n, p=[0.8, 0.15, 0.05]),
    }))
events = pd.concat(parts, ignore_index=True)
""",
r"""def sessionize(user_events, gap_minutes=30):
    ev = user_events.copy()
    ev["ts"] = pd.to_datetime(ev["ts"], format="%Y-%m-%d %H:%M:%S")
    ev = ev.sort_values("ts")
    ev["session"] = ev["ts"].diff().gt(pd.Timedelta(minutes=gap_minutes)).cumsum()
    sessions = ev.groupby("session").agg(
        start=("ts", "min"), end=("ts", "max"), n_events=("event", "size"),
        bought=("event", lambda e: (e == "buy").any()),
    )
    sessions["minutes"] = (sessions["end"] - sessions["start"]).dt.total_seconds() / 60
    return pd.Series({
        "user_id": ev["user_id"].iat[0],
        "n_sessions": len(sessions),
        "avg_minutes": sessions["minutes"].mean(),
        "conv_rate": sessions["bought"].mean(),
    })

user_stats = pd.DataFrame([sessionize(g) for _, g in events.groupby("user_id")])
user_stats.describe()
""",
r"""def sessionize(user_events, gap_minutes=30):
    ev = user_events.copy()
    ev["ts"] = pd.to_datetime(ev["ts"], format="ISO8601")
    ev = ev.sort_values("ts")
    ev["session"] = ev["ts"].diff().gt(pd.Timedelta(minutes=gap_minutes)).cumsum()
    sessions = ev.groupby("session").agg(
        start=("ts", "min"), end=("ts", "max"), n_events=("event", "size"),
        bought=("event", lambda e: (e == "buy").any()),
    )
    sessions["minutes"] = (sessions["end"] - sessions["start"]).dt.total_seconds() / 60
    return pd.Series({
        "user_id": ev["user_id"].iat[0],
        "n_sessions": len(sessions),
        "avg_minutes": sessions["minutes"].mean(),
        "conv_rate": sessions["bought"].mean(),
    })

user_stats = pd.DataFrame([sessionize(g) for _, g in events.groupby("user_id")])
user_stats.describe()
""",
),
(
"pandas_age_nan_astype_int",
r"""import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n = 891
passengers = pd.DataFrame({
    "pclass": rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    "sex": rng.choice(["male", "female"], n, p=[0.65, 0.35]),
    "age": rng.normal(30, 14, n).clip(0.5, 80).round(1),
    "fare": rng.gamma(1.5, 22.0, n).round(2),
    "survived": rng.integers(0, 2, n),
})
passengers.loc[rng.choice(n, 177, replace=False), "age"] = np.nan
""",
r"""passengers["age"] = passengers["age"].astype(int)
passengers["age_band"] = pd.cut(
    passengers["age"], [0, 12, 18, 35, 60, 100], labels=["child", "teen", "young", "adult", "senior"]
)
passengers.groupby("age_band", observed=True)["survived"].mean()
""",
r"""passengers["age"] = passengers["age"].fillna(passengers["age"].median()).astype(int)
passengers["age_band"] = pd.cut(
    passengers["age"], [0, 12, 18, 35, 60, 100], labels=["child", "teen", "young", "adult", "senior"]
)
passengers.groupby("age_band", observed=True)["survived"].mean()
""",
),
(
"pandas_monthly_exports_renamed_column",
r"""import numpy as np
import pandas as pd

rng = np.random.default_rng(6)
monthly = {}
for m in range(1, 13):
    n = 8000
    df = pd.DataFrame({
        "invoice": rng.integers(m * 100_000, m * 100_000 + 3000, n),
        "customer_id": rng.integers(0, 380, n),
        "quantity": rng.integers(1, 20, n),
        "unit_price": rng.gamma(2.0, 4.0, n).round(2),
        "country": rng.choice(["UK", "France", "Germany", "Spain", "Netherlands"], n, p=[0.6, 0.1, 0.1, 0.1, 0.1]),
        "day": rng.integers(1, 29, n),
    })
    if m >= 11:
        # the new ERP system (live from November) exports Title_Case headers
        df = df.rename(columns={"quantity": "Quantity", "unit_price": "Unit_Price"})
    monthly[f"2023-{m:02d}"] = df
""",
r"""rfm_parts = []
for month, df in monthly.items():
    df = df.copy()
    df["revenue"] = df["quantity"] * df["unit_price"]
    rfm = df.groupby("customer_id").apply(
        lambda g: pd.Series({
            "recency": 28 - g["day"].max(),
            "frequency": g["invoice"].nunique(),
            "monetary": g["revenue"].sum(),
            "top_country": g["country"].mode().iat[0],
        }),
        include_groups=False,
    )
    rfm["month"] = month
    rfm_parts.append(rfm)

rfm_all = pd.concat(rfm_parts)
rfm_all.groupby("month")["monetary"].sum()
""",
r"""rfm_parts = []
for month, df in monthly.items():
    df = df.copy()
    df.columns = df.columns.str.lower()
    df["revenue"] = df["quantity"] * df["unit_price"]
    rfm = df.groupby("customer_id").apply(
        lambda g: pd.Series({
            "recency": 28 - g["day"].max(),
            "frequency": g["invoice"].nunique(),
            "monetary": g["revenue"].sum(),
            "top_country": g["country"].mode().iat[0],
        }),
        include_groups=False,
    )
    rfm["month"] = month
    rfm_parts.append(rfm)

rfm_all = pd.concat(rfm_parts)
rfm_all.groupby("month")["monetary"].sum()
""",
),
(
"pandas_groupby_mean_text_columns",
r"""import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n = 2000
superstore = pd.DataFrame({
    "region": rng.choice(["Central", "East", "South", "West"], n),
    "product_name": rng.choice(["Stapler", "Desk Lamp", "Binder", "Office Chair", "Printer Paper"], n),
    "ship_mode": rng.choice(["Standard", "Second Class", "First Class"], n),
    "sales": rng.gamma(2.0, 110.0, n).round(2),
    "quantity": rng.integers(1, 10, n),
    "discount": rng.choice([0.0, 0.1, 0.2, 0.3], n),
})
superstore["profit"] = (superstore["sales"] * (0.25 - superstore["discount"]) + rng.normal(0, 15, n)).round(2)
""",
r"""region_summary = superstore.groupby("region").mean()
region_summary.sort_values("profit", ascending=False)
""",
r"""region_summary = superstore.groupby("region").mean(numeric_only=True)
region_summary.sort_values("profit", ascending=False)
""",
),
(
"numpy_mc_batches_stack_partial_last_batch",
r"""import numpy as np

rng = np.random.default_rng(8)
n_sims = 300_000
batch_size = 1024
n_days = 252
s0, mu, sigma = 100.0, 0.07, 0.22
dt = 1 / 252
""",
r"""batch_results = []
done = 0
while done < n_sims:
    b = min(batch_size, n_sims - done)
    z = rng.standard_normal((b, n_days))
    log_paths = np.cumsum((mu - 0.5 * sigma**2) * dt + sigma * np.sqrt(dt) * z, axis=1)
    paths = s0 * np.exp(log_paths)
    running_max = np.maximum.accumulate(paths, axis=1)
    max_drawdown = (paths / running_max - 1).min(axis=1)
    asian_payoff = np.maximum(paths.mean(axis=1) - s0, 0)
    batch_results.append(np.column_stack([paths[:, -1], max_drawdown, asian_payoff]))
    done += b

sim = np.stack(batch_results)
var_95 = np.percentile(sim[..., 0], 5)
asian_price = np.exp(-mu) * sim[..., 2].mean()
""",
r"""batch_results = []
done = 0
while done < n_sims:
    b = min(batch_size, n_sims - done)
    z = rng.standard_normal((b, n_days))
    log_paths = np.cumsum((mu - 0.5 * sigma**2) * dt + sigma * np.sqrt(dt) * z, axis=1)
    paths = s0 * np.exp(log_paths)
    running_max = np.maximum.accumulate(paths, axis=1)
    max_drawdown = (paths / running_max - 1).min(axis=1)
    asian_payoff = np.maximum(paths.mean(axis=1) - s0, 0)
    batch_results.append(np.column_stack([paths[:, -1], max_drawdown, asian_payoff]))
    done += b

sim = np.concatenate(batch_results)
var_95 = np.percentile(sim[..., 0], 5)
asian_price = np.exp(-mu) * sim[..., 2].mean()
""",
),
(
"numpy_gradient_descent_bias_column",
r"""import numpy as np

rng = np.random.default_rng(9)
n, d = 500, 5
X = rng.normal(size=(n, d))
true_w = np.array([1.5, -2.0, 0.7, 0.0, 3.1])
y = 4.0 + X @ true_w + rng.normal(0, 0.5, n)
""",
r"""X_b = np.hstack([np.ones((X.shape[0], 1)), X])
w = np.zeros(X.shape[1])
lr = 0.05
for step in range(500):
    grad = X_b.T @ (X_b @ w - y) / len(y)
    w -= lr * grad
w
""",
r"""X_b = np.hstack([np.ones((X.shape[0], 1)), X])
w = np.zeros(X_b.shape[1])
lr = 0.05
for step in range(500):
    grad = X_b.T @ (X_b @ w - y) / len(y)
    w -= lr * grad
w
""",
),
(
"numpy_normal_equations_duplicate_feature",
r"""import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
n = 800
houses = pd.DataFrame({
    "sqft": rng.integers(600, 3500, n),
    "bedrooms": rng.integers(1, 6, n),
    "age": rng.integers(0, 80, n),
    "garage": rng.integers(0, 3, n),
})
houses["price"] = 120 * houses["sqft"] + 8000 * houses["bedrooms"] - 500 * houses["age"] + rng.normal(0, 20000, n)
base_features = ["sqft", "bedrooms", "age"]
engineered_features = ["garage", "sqft"]
""",
r"""features = base_features + engineered_features
X = np.column_stack([np.ones(len(houses)), houses[features].to_numpy(dtype=float)])
y = houses["price"].to_numpy()
beta = np.linalg.inv(X.T @ X) @ X.T @ y
dict(zip(["intercept"] + features, beta.round(2)))
""",
r"""features = list(dict.fromkeys(base_features + engineered_features))
X = np.column_stack([np.ones(len(houses)), houses[features].to_numpy(dtype=float)])
y = houses["price"].to_numpy()
beta = np.linalg.inv(X.T @ X) @ X.T @ y
dict(zip(["intercept"] + features, beta.round(2)))
""",
),
(
"sklearn_walkforward_onehot_new_region",
r"""import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder
from sklearn.pipeline import Pipeline
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error

rng = np.random.default_rng(11)
n = 6000
month = np.sort(rng.integers(0, 24, n))
region = rng.choice(["north", "south", "east", "west"], n)
# a new sales region opened in month 21
region = np.where((month >= 21) & (rng.random(n) < 0.15), "central", region)
df = pd.DataFrame({
    "month": month,
    "region": region,
    "price": rng.uniform(5, 25, n).round(2),
    "promo": rng.integers(0, 2, n),
    "temp": rng.normal(15, 8, n).round(1),
    "competitor_price": rng.uniform(5, 25, n).round(2),
})
df["units"] = (200 - 6 * df["price"] + 40 * df["promo"] + 1.5 * df["temp"]
               + 3 * (df["competitor_price"] - df["price"]) + rng.normal(0, 15, n)).round()
features = ["region", "price", "promo", "temp", "competitor_price"]
""",
r"""pre = ColumnTransformer([("cat", OneHotEncoder(), ["region"])], remainder="passthrough")
fold_mae = {}
for cutoff in range(14, 24):
    train = df[df["month"] < cutoff]
    test = df[df["month"] == cutoff]
    model = Pipeline([
        ("pre", pre),
        ("gbr", GradientBoostingRegressor(n_estimators=60, max_depth=3, random_state=0)),
    ])
    model.fit(train[features], train["units"])
    fold_mae[cutoff] = mean_absolute_error(test["units"], model.predict(test[features]))

pd.Series(fold_mae)
""",
r"""pre = ColumnTransformer([("cat", OneHotEncoder(handle_unknown="ignore"), ["region"])], remainder="passthrough")
fold_mae = {}
for cutoff in range(14, 24):
    train = df[df["month"] < cutoff]
    test = df[df["month"] == cutoff]
    model = Pipeline([
        ("pre", pre),
        ("gbr", GradientBoostingRegressor(n_estimators=60, max_depth=3, random_state=0)),
    ])
    model.fit(train[features], train["units"])
    fold_mae[cutoff] = mean_absolute_error(test["units"], model.predict(test[features]))

pd.Series(fold_mae)
""",
),
(
"sklearn_user_features_nan_logistic",
r"""import numpy as np
import pandas as pd
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression

rng = np.random.default_rng(12)
n_users = 2600
parts = []
for uid in range(n_users):
    # users who signed up in the last week (the highest ids) have a single order so far
    n = 1 if (uid >= 2300 and uid % 7 == 0) else int(rng.integers(2, 30))
    parts.append(pd.DataFrame({
        "user_id": uid,
        "day": rng.integers(0, 365, n),
        "amount": rng.gamma(2.0, 25.0, n).round(2),
    }))
purchases = pd.concat(parts, ignore_index=True)
last_day = purchases.groupby("user_id")["day"].max()
labels = ((365 - last_day) / 365 + rng.normal(0, 0.2, n_users) > 0.3).astype(int).rename("churned")
""",
r"""feature_rows = []
for uid, g in purchases.groupby("user_id"):
    days = g["day"].sort_values()
    gaps = days.diff().dropna()
    feature_rows.append({
        "user_id": uid,
        "n_orders": len(g),
        "total": g["amount"].sum(),
        "avg_amount": g["amount"].mean(),
        "std_amount": g["amount"].std(),
        "p90_amount": g["amount"].quantile(0.9),
        "mean_gap": gaps.mean(),
        "recency": 365 - days.iloc[-1],
    })

feats = pd.DataFrame(feature_rows).set_index("user_id").join(labels)
X = feats.drop(columns="churned")
y = feats["churned"]
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
clf.fit(X, y)
clf.score(X, y)
""",
r"""feature_rows = []
for uid, g in purchases.groupby("user_id"):
    days = g["day"].sort_values()
    gaps = days.diff().dropna()
    feature_rows.append({
        "user_id": uid,
        "n_orders": len(g),
        "total": g["amount"].sum(),
        "avg_amount": g["amount"].mean(),
        "std_amount": g["amount"].std(),
        "p90_amount": g["amount"].quantile(0.9),
        "mean_gap": gaps.mean(),
        "recency": 365 - days.iloc[-1],
    })

feats = pd.DataFrame(feature_rows).set_index("user_id").join(labels)
X = feats.drop(columns="churned").fillna(0)
y = feats["churned"]
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
clf.fit(X, y)
clf.score(X, y)
""",
),
(
"sklearn_segment_models_single_class",
r"""import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(13)
segments = ["consumer", "small_business", "student", "family", "premium", "wholesale"]
parts = []
for seg in segments:
    n = 3000
    X = rng.normal(size=(n, 8))
    score = X[:, 0] - 0.8 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + rng.normal(0, 1, n)
    # wholesale accounts are on multi-year contracts: nobody churned in the observation window
    churn = np.zeros(n, dtype=int) if seg == "wholesale" else (score > 1.0).astype(int)
    part = pd.DataFrame(X, columns=[f"f{i}" for i in range(8)])
    part["segment"] = seg
    part["churn"] = churn
    parts.append(part)
data = pd.concat(parts, ignore_index=True)
features = [f"f{i}" for i in range(8)]
""",
r"""results = {}
for seg in segments:
    d = data[data["segment"] == seg]
    X_tr, X_te, y_tr, y_te = train_test_split(d[features], d["churn"], test_size=0.25, random_state=0)
    for C in [0.5, 2.0]:
        for gamma in ["scale", 0.05]:
            model = make_pipeline(StandardScaler(), SVC(C=C, gamma=gamma))
            model.fit(X_tr, y_tr)
            results[(seg, C, gamma)] = roc_auc_score(y_te, model.decision_function(X_te))

pd.Series(results).unstack([1, 2]).round(3)
""",
r"""results = {}
for seg in segments:
    d = data[data["segment"] == seg]
    if d["churn"].nunique() < 2:
        continue
    X_tr, X_te, y_tr, y_te = train_test_split(d[features], d["churn"], test_size=0.25, random_state=0)
    for C in [0.5, 2.0]:
        for gamma in ["scale", 0.05]:
            model = make_pipeline(StandardScaler(), SVC(C=C, gamma=gamma))
            model.fit(X_tr, y_tr)
            results[(seg, C, gamma)] = roc_auc_score(y_te, model.decision_function(X_te))

pd.Series(results).unstack([1, 2]).round(3)
""",
),
(
"sklearn_classifier_on_continuous_target",
r"""import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier

rng = np.random.default_rng(14)
n = 1500
listings = pd.DataFrame({
    "sqft": rng.integers(400, 4000, n),
    "bedrooms": rng.integers(1, 6, n),
    "bathrooms": rng.integers(1, 4, n),
    "year_built": rng.integers(1950, 2022, n),
    "lot_size": rng.gamma(2.0, 3000.0, n).round(),
})
listings["sale_price"] = (150 * listings["sqft"] + 10_000 * listings["bathrooms"]
                          + 900 * (listings["year_built"] - 1950) + rng.normal(0, 25_000, n)).round(2)
X_train, X_test, y_train, y_test = train_test_split(
    listings.drop(columns="sale_price"), listings["sale_price"], test_size=0.2, random_state=0
)
""",
r"""model = RandomForestClassifier(n_estimators=200, random_state=0)
model.fit(X_train, y_train)
model.score(X_test, y_test)
""",
r"""from sklearn.ensemble import RandomForestRegressor

model = RandomForestRegressor(n_estimators=200, random_state=0)
model.fit(X_train, y_train)
model.score(X_test, y_test)
""",
),
(
"sklearn_predict_after_cross_val_unfitted",
r"""import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression

X, y = make_classification(n_samples=3000, n_features=20, n_informative=8, random_state=15)
X_train, y_train = X[:2500], y[:2500]
X_test = X[2500:]
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
cv_scores = cross_val_score(model, X_train, y_train, cv=5, scoring="roc_auc")
""",
r"""test_proba = model.predict_proba(X_test)[:, 1]
submission = np.column_stack([np.arange(len(test_proba)), test_proba])
submission[:5]
""",
r"""model.fit(X_train, y_train)
test_proba = model.predict_proba(X_test)[:, 1]
submission = np.column_stack([np.arange(len(test_proba)), test_proba])
submission[:5]
""",
),
(
"sklearn_predict_test_with_id_column",
r"""import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier

rng = np.random.default_rng(16)
def make(n, with_target):
    df = pd.DataFrame({
        "PassengerId": np.arange(n) + (0 if with_target else 10_000),
        "age": rng.normal(30, 12, n).round(),
        "fare": rng.gamma(1.5, 20.0, n).round(2),
        "pclass": rng.integers(1, 4, n),
        "sibsp": rng.integers(0, 4, n),
    })
    if with_target:
        df["survived"] = (rng.random(n) < 0.4).astype(int)
    return df

train = make(900, True)
test = make(400, False)
features = ["age", "fare", "pclass", "sibsp"]
model = GradientBoostingClassifier(random_state=0).fit(train[features], train["survived"])
""",
r"""test["survived"] = model.predict(test)
test[["PassengerId", "survived"]].head()
""",
r"""test["survived"] = model.predict(test[features])
test[["PassengerId", "survived"]].head()
""",
),
(
"sklearn_stratify_singleton_class",
r"""import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(17)
n = 1200
common = ["electronics", "clothing", "home", "toys", "sports"]
category = list(rng.choice(common, n - 3)) + ["pet_insurance", "gift_cards", "vinyl_records"]
products = pd.DataFrame({
    "price": rng.gamma(2.0, 20.0, n).round(2),
    "weight_kg": rng.gamma(1.5, 1.2, n).round(2),
    "n_reviews": rng.poisson(40, n),
    "category": category,
})
""",
r"""X = products.drop(columns="category")
y = products["category"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
y_train.value_counts(normalize=True).round(3)
""",
r"""X = products.drop(columns="category")
y = products["category"].where(products["category"].map(products["category"].value_counts()) > 1, "other")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
y_train.value_counts(normalize=True).round(3)
""",
),
(
"keras_hardcoded_input_dim_after_dummies",
r"""import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
n = 2000
telco = pd.DataFrame({
    "tenure": rng.integers(1, 72, n),
    "monthly_charges": rng.uniform(20, 120, n).round(2),
    "support_calls": rng.poisson(1.5, n),
    "age": rng.integers(18, 80, n),
    "contract": rng.choice(["month", "one_year", "two_year"], n),
    "payment": rng.choice(["card", "bank", "check"], n),
})
telco["churn"] = ((telco["contract"] == "month") & (telco["support_calls"] > 1)).astype("float32")
X = pd.get_dummies(telco.drop(columns="churn"), columns=["contract", "payment"], dtype="float32").to_numpy()
X = (X - X.mean(axis=0)) / X.std(axis=0)
y = telco["churn"].to_numpy()
""",
r"""model = keras.Sequential([
    layers.Input(shape=(6,)),
    layers.Dense(32, activation="relu"),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=5, batch_size=64, validation_split=0.2, verbose=0)
history.history["val_accuracy"][-1]
""",
r"""model = keras.Sequential([
    layers.Input(shape=(X.shape[1],)),
    layers.Dense(32, activation="relu"),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=5, batch_size=64, validation_split=0.2, verbose=0)
history.history["val_accuracy"][-1]
""",
),
(
"keras_quarterly_update_priority_code_gap",
r"""import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
n = 6000
quarter = np.repeat(np.arange(8), n // 8)
X = rng.normal(size=(n, 12)).astype("float32")
scores = X[:, :4] @ rng.normal(size=(4, 4))
# ticket priority codes: code 3 was retired years ago, and code 4 ("critical")
# only exists since the new triage process went live in the last quarter
priority = np.array([0, 1, 2, 4])[scores.argmax(axis=1)]
priority = np.where((priority == 4) & (quarter < 7), 2, priority)
""",
r"""n_classes = len(np.unique(priority))
model = keras.Sequential([
    layers.Input(shape=(X.shape[1],)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(n_classes, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])

# the model is updated incrementally as each quarter's tickets arrive
quarter_loss = {}
for q in range(8):
    X_q, y_q = X[quarter == q], priority[quarter == q]
    hist = model.fit(X_q, y_q, epochs=2, batch_size=64, verbose=0)
    quarter_loss[q] = hist.history["loss"][-1]

quarter_loss
""",
r"""n_classes = int(priority.max()) + 1
model = keras.Sequential([
    layers.Input(shape=(X.shape[1],)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(n_classes, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])

# the model is updated incrementally as each quarter's tickets arrive
quarter_loss = {}
for q in range(8):
    X_q, y_q = X[quarter == q], priority[quarter == q]
    hist = model.fit(X_q, y_q, epochs=2, batch_size=64, verbose=0)
    quarter_loss[q] = hist.history["loss"][-1]

quarter_loss
""",
),
(
"keras_store_windows_dropna_cardinality",
r"""import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(20)
rng = np.random.default_rng(20)
n_stores, n_days = 70, 200
day = np.arange(n_days)
parts = []
for s in range(n_stores):
    temp = 15 + 10 * np.sin(2 * np.pi * day / 365) + rng.normal(0, 2, n_days)
    if s == 63:
        temp[120:127] = np.nan  # the store's weather sensor was offline for a week
    parts.append(pd.DataFrame({
        "store": s,
        "day": day,
        "temp": temp,
        "promo": rng.integers(0, 2, n_days),
        "sales": rng.poisson(rng.uniform(50, 300) * (1 + 0.3 * np.sin(2 * np.pi * day / 7))).astype("float32"),
    }))
sales = pd.concat(parts, ignore_index=True)
holdout_stores = set(range(55, n_stores))  # newer stores, kept aside to test cold-start generalisation
""",
r"""X_parts = {"train": [], "test": []}
y_parts = {"train": [], "test": []}
for store, g in sales.groupby("store"):
    g = g.sort_values("day")
    level = g["sales"].rolling(28, min_periods=1).mean()
    feats = pd.DataFrame({f"lag{k}": g["sales"].shift(k) / level for k in range(1, 8)})
    feats["roll7"] = g["sales"].rolling(7).mean() / level
    feats["trend14"] = g["sales"].rolling(14).apply(lambda w: np.polyfit(np.arange(14), w, 1)[0], raw=True) / level
    feats["temp"] = (g["temp"] - 15) / 10
    feats["promo"] = g["promo"]
    feats = feats.iloc[14:]
    target = (g["sales"] / level).iloc[14:]
    feats = feats.dropna()
    split = "test" if store in holdout_stores else "train"
    X_parts[split].append(feats.to_numpy("float32"))
    y_parts[split].append(target.to_numpy("float32"))

X_train, y_train = np.concatenate(X_parts["train"]), np.concatenate(y_parts["train"])
X_test, y_test = np.concatenate(X_parts["test"]), np.concatenate(y_parts["test"])
model = keras.Sequential([
    layers.Input(shape=(X_train.shape[1],)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer="adam", loss="mse")
model.fit(X_train, y_train, epochs=2, batch_size=512, verbose=0)
test_mse = model.evaluate(X_test, y_test, verbose=0)
test_mse
""",
r"""X_parts = {"train": [], "test": []}
y_parts = {"train": [], "test": []}
for store, g in sales.groupby("store"):
    g = g.sort_values("day")
    level = g["sales"].rolling(28, min_periods=1).mean()
    feats = pd.DataFrame({f"lag{k}": g["sales"].shift(k) / level for k in range(1, 8)})
    feats["roll7"] = g["sales"].rolling(7).mean() / level
    feats["trend14"] = g["sales"].rolling(14).apply(lambda w: np.polyfit(np.arange(14), w, 1)[0], raw=True) / level
    feats["temp"] = (g["temp"] - 15) / 10
    feats["promo"] = g["promo"]
    feats = feats.iloc[14:]
    target = (g["sales"] / level).iloc[14:]
    feats = feats.dropna()
    target = target.loc[feats.index]
    split = "test" if store in holdout_stores else "train"
    X_parts[split].append(feats.to_numpy("float32"))
    y_parts[split].append(target.to_numpy("float32"))

X_train, y_train = np.concatenate(X_parts["train"]), np.concatenate(y_parts["train"])
X_test, y_test = np.concatenate(X_parts["test"]), np.concatenate(y_parts["test"])
model = keras.Sequential([
    layers.Input(shape=(X_train.shape[1],)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer="adam", loss="mse")
model.fit(X_train, y_train, epochs=2, batch_size=512, verbose=0)
test_mse = model.evaluate(X_test, y_test, verbose=0)
test_mse
""",
),
(
"torch_float64_numpy_features_into_linear",
r"""import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(21)
rng = np.random.default_rng(21)
n = 1000
features = ["crim", "rooms", "age", "dist", "tax", "ptratio"]
housing = pd.DataFrame(rng.normal(size=(n, 6)), columns=features)
housing["medv"] = 22 + 4 * housing["rooms"] - 2 * housing["crim"] - 1.5 * housing["ptratio"] + rng.normal(0, 1, n)
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
""",
r"""X_t = torch.from_numpy(housing[features].to_numpy())
y_t = torch.from_numpy(housing["medv"].to_numpy()).float().unsqueeze(1)
for epoch in range(100):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X_t), y_t)
    loss.backward()
    opt.step()
loss.item()
""",
r"""X_t = torch.from_numpy(housing[features].to_numpy()).float()
y_t = torch.from_numpy(housing["medv"].to_numpy()).float().unsqueeze(1)
for epoch in range(100):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X_t), y_t)
    loss.backward()
    opt.step()
loss.item()
""",
),
(
"torch_embedding_one_based_ids",
r"""import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(22)
rng = np.random.default_rng(22)
n = 20_000
# MovieLens-style ids start at 1
ratings = pd.DataFrame({
    "user_id": rng.integers(1, 501, n),
    "item_id": rng.integers(1, 301, n),
    "rating": rng.integers(1, 6, n).astype("float32"),
})

class MatrixFactorization(nn.Module):
    def __init__(self, n_users, n_items, dim=16):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(dim=1)
""",
r"""n_users = ratings["user_id"].nunique()
n_items = ratings["item_id"].nunique()
mf = MatrixFactorization(n_users, n_items)
u = torch.tensor(ratings["user_id"].to_numpy())
i = torch.tensor(ratings["item_id"].to_numpy())
r = torch.tensor(ratings["rating"].to_numpy())
initial_loss = nn.functional.mse_loss(mf(u, i), r).item()
opt = torch.optim.Adam(mf.parameters(), lr=0.05)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(mf(u, i), r)
    loss.backward()
    opt.step()
initial_loss, loss.item()
""",
r"""n_users = int(ratings["user_id"].max()) + 1
n_items = int(ratings["item_id"].max()) + 1
mf = MatrixFactorization(n_users, n_items)
u = torch.tensor(ratings["user_id"].to_numpy())
i = torch.tensor(ratings["item_id"].to_numpy())
r = torch.tensor(ratings["rating"].to_numpy())
initial_loss = nn.functional.mse_loss(mf(u, i), r).item()
opt = torch.optim.Adam(mf.parameters(), lr=0.05)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(mf(u, i), r)
    loss.backward()
    opt.step()
initial_loss, loss.item()
""",
),
(
"torch_walkforward_squeeze_singleton_batch",
r"""import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(23)
torch.set_num_threads(1)
rng = np.random.default_rng(23)
rows_per_month = [700, 810, 765, 690, 745, 720, 833, 760, 705, 744, 785, 790]
month = np.repeat(np.arange(12), rows_per_month)
n = len(month)
X = rng.normal(size=(n, 20)).astype(np.float32)
w = rng.normal(size=20)
y = ((X @ w + rng.normal(0, 2, n)) > 0).astype(np.float32)

# baseline from an earlier cell: full-batch logistic regression on the first half year
baseline = nn.Linear(20, 1)
base_opt = torch.optim.Adam(baseline.parameters(), lr=0.05)
X_half, y_half = torch.from_numpy(X[month < 6]), torch.from_numpy(y[month < 6])
for _ in range(50):
    base_opt.zero_grad()
    base_loss = nn.functional.binary_cross_entropy_with_logits(baseline(X_half).squeeze(1), y_half)
    base_loss.backward()
    base_opt.step()
""",
r"""def train_fold(X_tr, y_tr, epochs=3):
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    loader = DataLoader(TensorDataset(torch.from_numpy(X_tr), torch.from_numpy(y_tr)), batch_size=64, shuffle=True)
    for epoch in range(epochs):
        for xb, yb in loader:
            opt.zero_grad()
            logits = model(xb).squeeze()
            loss = loss_fn(logits, yb)
            loss.backward()
            opt.step()
    return model

fold_acc = {}
for m in range(6, 12):
    tr, te = month < m, month == m
    model = train_fold(X[tr], y[tr])
    with torch.no_grad():
        pred = (model(torch.from_numpy(X[te])).squeeze(1) > 0).float().numpy()
    fold_acc[m] = float((pred == y[te]).mean())

fold_acc
""",
r"""def train_fold(X_tr, y_tr, epochs=3):
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    loader = DataLoader(TensorDataset(torch.from_numpy(X_tr), torch.from_numpy(y_tr)), batch_size=64, shuffle=True)
    for epoch in range(epochs):
        for xb, yb in loader:
            opt.zero_grad()
            logits = model(xb).squeeze(1)
            loss = loss_fn(logits, yb)
            loss.backward()
            opt.step()
    return model

fold_acc = {}
for m in range(6, 12):
    tr, te = month < m, month == m
    model = train_fold(X[tr], y[tr])
    with torch.no_grad():
        pred = (model(torch.from_numpy(X[te])).squeeze(1) > 0).float().numpy()
    fold_acc[m] = float((pred == y[te]).mean())

fold_acc
""",
),
(
"torch_daily_scoring_dummies_columns",
r"""import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(24)
torch.set_num_threads(1)
rng = np.random.default_rng(24)

def make_frame(n, plans):
    return pd.DataFrame({
        "usage": rng.gamma(2.0, 10.0, n).round(1),
        "tenure": rng.integers(1, 72, n),
        "tickets": rng.poisson(1.0, n),
        "plan": rng.choice(plans, n),
        "region": rng.choice(["eu", "us", "apac"], n),
    })

base_plans = ["basic", "plus", "pro"]
train_df = make_frame(20_000, base_plans)
train_df["churn"] = ((train_df["tickets"] > 1) & (train_df["tenure"] < 24)).astype(np.float32)
# daily scoring files; the "enterprise" plan launched on the 26th
day_names = [f"2024-05-{d:02d}" for d in range(1, 31)]
day_frames = [make_frame(3000, base_plans if d < 26 else base_plans + ["enterprise"]) for d in range(1, 31)]
num_cols = ["usage", "tenure", "tickets"]
mu, sd = train_df[num_cols].mean(), train_df[num_cols].std()

# baseline from an earlier cell: logistic regression on the numeric columns only
baseline = nn.Linear(3, 1)
base_opt = torch.optim.Adam(baseline.parameters(), lr=0.05)
Xn = torch.tensor(((train_df[num_cols] - mu) / sd).to_numpy(np.float32))
yn = torch.tensor(train_df["churn"].to_numpy()).unsqueeze(1)
for _ in range(50):
    base_opt.zero_grad()
    base_loss = nn.functional.binary_cross_entropy_with_logits(baseline(Xn), yn)
    base_loss.backward()
    base_opt.step()
""",
r"""def encode(frame):
    out = frame.copy()
    out[num_cols] = (out[num_cols] - mu) / sd
    return pd.get_dummies(out, columns=["plan", "region"], dtype=np.float32)

X_train = encode(train_df.drop(columns="churn"))
train_cols = X_train.columns
Xt = torch.tensor(X_train.to_numpy(np.float32))
yt = torch.tensor(train_df["churn"].to_numpy()).unsqueeze(1)
model = nn.Sequential(nn.Linear(Xt.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(18):
    perm = torch.randperm(len(Xt))
    for start in range(0, len(Xt), 128):
        idx = perm[start:start + 128]
        opt.zero_grad()
        loss = loss_fn(model(Xt[idx]), yt[idx])
        loss.backward()
        opt.step()

model.eval()
daily_scores = {}
with torch.no_grad():
    for day, frame in zip(day_names, day_frames):
        Xd = encode(frame)
        probs = torch.sigmoid(model(torch.tensor(Xd.to_numpy(np.float32)))).squeeze(1)
        daily_scores[day] = float((probs > 0.5).float().mean())

pd.Series(daily_scores).tail()
""",
r"""def encode(frame):
    out = frame.copy()
    out[num_cols] = (out[num_cols] - mu) / sd
    return pd.get_dummies(out, columns=["plan", "region"], dtype=np.float32)

X_train = encode(train_df.drop(columns="churn"))
train_cols = X_train.columns
Xt = torch.tensor(X_train.to_numpy(np.float32))
yt = torch.tensor(train_df["churn"].to_numpy()).unsqueeze(1)
model = nn.Sequential(nn.Linear(Xt.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(18):
    perm = torch.randperm(len(Xt))
    for start in range(0, len(Xt), 128):
        idx = perm[start:start + 128]
        opt.zero_grad()
        loss = loss_fn(model(Xt[idx]), yt[idx])
        loss.backward()
        opt.step()

model.eval()
daily_scores = {}
with torch.no_grad():
    for day, frame in zip(day_names, day_frames):
        Xd = encode(frame).reindex(columns=train_cols, fill_value=0)
        probs = torch.sigmoid(model(torch.tensor(Xd.to_numpy(np.float32)))).squeeze(1)
        daily_scores[day] = float((probs > 0.5).float().mean())

pd.Series(daily_scores).tail()
""",
),
(
"matplotlib_rolling_mean_dropna_length",
r"""import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rng = np.random.default_rng(25)
daily = pd.DataFrame({"date": pd.date_range("2024-01-01", periods=180, freq="D")})
daily["sales"] = (500 + 80 * np.sin(np.arange(180) * 2 * np.pi / 7) + rng.normal(0, 40, 180)).round()
""",
r"""fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(daily["date"], daily["sales"], alpha=0.4, label="daily")
ax.plot(daily["date"], daily["sales"].rolling(7).mean().dropna(), label="7-day mean")
ax.set_title("Daily sales")
ax.legend()
""",
r"""fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(daily["date"], daily["sales"], alpha=0.4, label="daily")
ax.plot(daily["date"], daily["sales"].rolling(7).mean(), label="7-day mean")
ax.set_title("Daily sales")
ax.legend()
""",
),
(
"seaborn_barplot_palette_missing_tier",
r"""import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(26)
n = 1200
members = pd.DataFrame({
    "region": rng.choice(["North", "South", "East", "West"], n),
    "tier": rng.choice(["Bronze", "Silver", "Gold", "Platinum"], n, p=[0.5, 0.3, 0.15, 0.05]),
    "annual_spend": rng.gamma(2.0, 400.0, n).round(2),
})
""",
r"""tier_colors = {"Bronze": "#cd7f32", "Silver": "#c0c0c0", "Gold": "#ffd700"}
fig, ax = plt.subplots(figsize=(8, 4))
sns.barplot(data=members, x="region", y="annual_spend", hue="tier", palette=tier_colors, errorbar=None, ax=ax)
ax.set_ylabel("Average annual spend")
""",
r"""tier_colors = {"Bronze": "#cd7f32", "Silver": "#c0c0c0", "Gold": "#ffd700", "Platinum": "#6a5acd"}
fig, ax = plt.subplots(figsize=(8, 4))
sns.barplot(data=members, x="region", y="annual_spend", hue="tier", palette=tier_colors, errorbar=None, ax=ax)
ax.set_ylabel("Average annual spend")
""",
),
(
"xgboost_per_store_log_sales_zero_days",
r"""import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(27)
n_days = 730
d = np.arange(n_days)
store_ids, store_frames = [], []
for s in range(12):
    promo = rng.integers(0, 2, n_days)
    level = rng.uniform(150, 600)
    sales = rng.poisson(level * (1 + 0.3 * np.sin(2 * np.pi * d / 7)) * (1 + 0.4 * promo)).astype(float)
    if s == 10:
        sales[300:330] = 0.0  # store 10 was closed for a month of renovation
    frame = pd.DataFrame({
        "dow": d % 7, "month": (d // 30) % 12, "promo": promo,
        "trend": d, "temp": 15 + 10 * np.sin(2 * np.pi * d / 365) + rng.normal(0, 2, n_days),
        "sales": sales,
    })
    store_ids.append(f"store_{s:02d}")
    store_frames.append(frame)
feats = ["dow", "month", "promo", "trend", "temp"]
""",
r"""store_rmse = {}
for store_id, frame in zip(store_ids, store_frames):
    train, valid = frame.iloc[:-90], frame.iloc[-90:]
    model = xgb.XGBRegressor(n_estimators=320, max_depth=6, learning_rate=0.05, subsample=0.8,
                             n_jobs=1, random_state=0)
    model.fit(train[feats], np.log(train["sales"]),
              eval_set=[(valid[feats], np.log(valid["sales"]))], verbose=False)
    pred = np.exp(model.predict(valid[feats]))
    store_rmse[store_id] = float(np.sqrt(np.mean((pred - valid["sales"]) ** 2)))

pd.Series(store_rmse).round(1)
""",
r"""store_rmse = {}
for store_id, frame in zip(store_ids, store_frames):
    train, valid = frame.iloc[:-90], frame.iloc[-90:]
    model = xgb.XGBRegressor(n_estimators=320, max_depth=6, learning_rate=0.05, subsample=0.8,
                             n_jobs=1, random_state=0)
    model.fit(train[feats], np.log1p(train["sales"]),
              eval_set=[(valid[feats], np.log1p(valid["sales"]))], verbose=False)
    pred = np.expm1(model.predict(valid[feats]))
    store_rmse[store_id] = float(np.sqrt(np.mean((pred - valid["sales"]) ** 2)))

pd.Series(store_rmse).round(1)
""",
),
(
"lightgbm_concat_monthly_categories_object",
r"""import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(28)
month_frames = {}
for m in range(1, 13):
    # the "tiktok" channel was added to the campaign mix in October
    channels = ["search", "social", "email", "display"] + (["tiktok"] if m >= 10 else [])
    n = 5000
    df = pd.DataFrame({
        "channel": rng.choice(channels, n),
        "bid": rng.uniform(0.1, 3.0, n),
        "ad_position": rng.integers(1, 8, n),
        "hour": rng.integers(0, 24, n),
        "past_ctr": rng.beta(2, 30, n),
    })
    logit = -2 + 0.8 * df["bid"] - 0.3 * df["ad_position"] + 20 * df["past_ctr"] + (df["channel"] == "email") * 0.7
    df["converted"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df["channel"] = df["channel"].astype("category")
    month_frames[m] = df
feats = ["channel", "bid", "ad_position", "hour", "past_ctr"]
""",
r"""monthly_auc = {}
for m in range(2, 13):
    prev, cur = month_frames[m - 1], month_frames[m]
    clf = lgb.LGBMClassifier(n_estimators=150, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1, random_state=0)
    clf.fit(prev[feats], prev["converted"])
    monthly_auc[m] = roc_auc_score(cur["converted"], clf.predict_proba(cur[feats])[:, 1])

full = pd.concat(month_frames.values(), ignore_index=True)
final_model = lgb.LGBMClassifier(n_estimators=150, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1, random_state=0)
final_model.fit(full[feats], full["converted"])
pd.Series(monthly_auc).round(3)
""",
r"""monthly_auc = {}
for m in range(2, 13):
    prev, cur = month_frames[m - 1], month_frames[m]
    clf = lgb.LGBMClassifier(n_estimators=150, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1, random_state=0)
    clf.fit(prev[feats], prev["converted"])
    monthly_auc[m] = roc_auc_score(cur["converted"], clf.predict_proba(cur[feats])[:, 1])

full = pd.concat(month_frames.values(), ignore_index=True)
full["channel"] = full["channel"].astype("category")
final_model = lgb.LGBMClassifier(n_estimators=150, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1, random_state=0)
final_model.fit(full[feats], full["converted"])
pd.Series(monthly_auc).round(3)
""",
),
(
"python_user_queue_avg_gap_zero_division",
r"""import random
from collections import Counter, defaultdict, deque

random.seed(29)
kinds = ("view", "view", "view", "search", "cart", "buy")
event_log = defaultdict(list)
for uid in range(6000):
    # part of the accounts created on the last day (ids >= 5000) have a single event so far
    n = 1 if (uid >= 5000 and uid % 5 == 0) else random.randint(60, 390)
    t = random.randint(0, 86_400)
    for _ in range(n):
        t += int(random.expovariate(1 / 600))
        event_log[uid].append((t, random.choice(kinds)))
""",
r"""queue = deque(sorted(event_log))
profiles = {}
funnel = Counter()
while queue:
    uid = queue.popleft()
    events = sorted(event_log[uid])
    times = [t for t, _ in events]
    seq = [k for _, k in events]
    gaps = [b - a for a, b in zip(times, times[1:])]
    sessions, current = [], [events[0]]
    for (t_prev, _), ev in zip(events, events[1:]):
        if ev[0] - t_prev > 1800:
            sessions.append(current)
            current = []
        current.append(ev)
    sessions.append(current)
    funnel.update(zip(seq, seq[1:], seq[2:]))
    # burstiness: most events inside any 1-hour window (two pointers)
    burst, lo = 0, 0
    for hi, t in enumerate(times):
        while t - times[lo] > 3600:
            lo += 1
        burst = max(burst, hi - lo + 1)
    # seconds from each cart event to the next buy in the same session
    cart_to_buy = []
    for s in sessions:
        for j, (t_cart, kind) in enumerate(s):
            if kind == "cart":
                nxt = next((t_b for t_b, k in s[j + 1:] if k == "buy"), None)
                if nxt is not None:
                    cart_to_buy.append(nxt - t_cart)
    hours = [0] * 24
    for t in times:
        hours[(t // 3600) % 24] += 1
    profiles[uid] = {
        "n_events": len(events),
        "sessions": len(sessions),
        "burst_1h": burst,
        "avg_cart_to_buy": sum(cart_to_buy) / len(cart_to_buy) if cart_to_buy else None,
        "avg_session_min": sum((s[-1][0] - s[0][0]) / 60 for s in sessions) / len(sessions),
        "avg_gap": sum(gaps) / len(gaps),
        "longest_gap": max(gaps, default=0),
        "peak_hour": hours.index(max(hours)),
        "buy_rate": seq.count("buy") / len(seq),
    }

funnel.most_common(5)
""",
r"""queue = deque(sorted(event_log))
profiles = {}
funnel = Counter()
while queue:
    uid = queue.popleft()
    events = sorted(event_log[uid])
    times = [t for t, _ in events]
    seq = [k for _, k in events]
    gaps = [b - a for a, b in zip(times, times[1:])]
    sessions, current = [], [events[0]]
    for (t_prev, _), ev in zip(events, events[1:]):
        if ev[0] - t_prev > 1800:
            sessions.append(current)
            current = []
        current.append(ev)
    sessions.append(current)
    funnel.update(zip(seq, seq[1:], seq[2:]))
    # burstiness: most events inside any 1-hour window (two pointers)
    burst, lo = 0, 0
    for hi, t in enumerate(times):
        while t - times[lo] > 3600:
            lo += 1
        burst = max(burst, hi - lo + 1)
    # seconds from each cart event to the next buy in the same session
    cart_to_buy = []
    for s in sessions:
        for j, (t_cart, kind) in enumerate(s):
            if kind == "cart":
                nxt = next((t_b for t_b, k in s[j + 1:] if k == "buy"), None)
                if nxt is not None:
                    cart_to_buy.append(nxt - t_cart)
    hours = [0] * 24
    for t in times:
        hours[(t // 3600) % 24] += 1
    profiles[uid] = {
        "n_events": len(events),
        "sessions": len(sessions),
        "burst_1h": burst,
        "avg_cart_to_buy": sum(cart_to_buy) / len(cart_to_buy) if cart_to_buy else None,
        "avg_session_min": sum((s[-1][0] - s[0][0]) / 60 for s in sessions) / len(sessions),
        "avg_gap": sum(gaps) / len(gaps) if gaps else 0.0,
        "longest_gap": max(gaps, default=0),
        "peak_hour": hours.index(max(hours)),
        "buy_rate": seq.count("buy") / len(seq),
    }

funnel.most_common(5)
""",
),
(
"python_json_records_null_price",
r"""import json
import random

random.seed(30)
skus = [f"SKU-{i:04d}" for i in range(200)]
records = []
for order_id in range(3000):
    records.append({
        "order_id": order_id,
        "sku": random.choice(skus),
        "qty": random.randint(1, 5),
        # the storefront API sends null for prices of items that were delisted
        "price": None if random.random() < 0.01 else round(random.uniform(2, 80), 2),
    })
payload = json.dumps(records)
""",
r"""orders = json.loads(payload)
revenue_by_sku = {}
for r in orders:
    revenue_by_sku[r["sku"]] = revenue_by_sku.get(r["sku"], 0.0) + r["price"] * r["qty"]
top_skus = sorted(revenue_by_sku.items(), key=lambda kv: kv[1], reverse=True)[:10]
top_skus
""",
r"""orders = [r for r in json.loads(payload) if r["price"] is not None]
revenue_by_sku = {}
for r in orders:
    revenue_by_sku[r["sku"]] = revenue_by_sku.get(r["sku"], 0.0) + r["price"] * r["qty"]
top_skus = sorted(revenue_by_sku.items(), key=lambda kv: kv[1], reverse=True)[:10]
top_skus
""",
),
]
