r"""Twenty-fourth set of notebook crash/fix pairs (thirty pairs).

Each entry of PAIRS is a tuple (name, setup, crash, fixed) of four strings:

- name: snake_case, prefixed by the main library of the failing cell
  (pandas_, numpy_, sklearn_, keras_, torch_, matplotlib_, seaborn_, xgboost_,
  lightgbm_, python_).
- setup: the notebook cells before the target cell: imports plus small,
  seeded, synthetic data built in memory (no downloads, no files, no network).
- crash: the target cell.  Run after setup it raises a genuine error from the
  library (or from a builtin doing its normal work on the data).  Nothing is
  raised on purpose: no raise, assert, print, sleep or sys.exit.
- fixed: the same cell minimally repaired the way a data scientist would (a
  cleaning line, a dtype, a column selection, a parser option, an encoder
  option, a label encoding...).  It runs clean and keeps all the work: same
  loop, same outputs.

How they were checked: a checker script imported this file by path and, for
every pair and both variants (crash, fixed), started a fresh Python process
(one at a time, never in parallel) that ran exec(setup, ns) and then timed
exec(variant, ns) with time.perf_counter around the target cell alone,
recording whether it raised and the exception type (TF_CPP_MIN_LOG_LEVEL=2,
MPLBACKEND=Agg, CPU only, 2 cores).  It required: crash raises the intended
type listed below; fixed runs clean; for LONG pairs both variants take
1.8-5.5 s of target-cell time; short crashes raise in well under 1 s (checked
< 0.5 s).  Timings on the 2-core checking machine were noisy (often 1.5x
run to run, with occasional stalls), so the long pairs aim at about 3 s;
boosters are pinned to n_jobs=1 and the two torch long pairs to one thread,
because OpenMP spin-waits on the shared cores made their timings erratic.

Result: 29 of the 30 pairs passed three consecutive clean full rounds with
their final code (the round before those saw one stall push
sklearn_ticket_stream_partial_fit_new_category to 5.95 s).  The exception is
sklearn_country_segmentation_pca_tiny_new_market: its KMeans version had
OpenMP timing spikes (up to 19 s), and a GaussianMixture version once
crashed in 1.79 s, so when the 60-minute work budget ran out it was
reworked (diagonal GaussianMixture, the fix min(15, len(g)), larger
countries).  That final version passed three runs of the checker on that
pair alone (crash 2.1-3.1 s, fixed 2.4-3.3 s) but has not been through a
full round.

Mix by main library: pandas 7, numpy 3, scikit-learn 7, keras (TensorFlow
CPU) 3, torch 4, matplotlib 1, seaborn 1, xgboost 1, lightgbm 1, plain
Python 2.  Fifteen LONG pairs, fifteen short pairs.

The long pairs (target cell 1.8-5.5 s, failure late):
- pandas monthly customer features: for over dict items (twelve monthly
  frames): sort, per-customer gaps and ranks, named aggregation, category
  shares by crosstab; the December frame (last) holds amounts as formatted
  text and the mean aggregation rejects it.
- pandas store daily lags: for over groupby (260 stores): asfreq to a daily
  calendar, lags, rolling and ewm features, day-of-week expanding means; the
  last store has a double-loaded month, so asfreq meets duplicate dates.
- pandas clickstream sessionizing: while loop draining a deque of 24 hourly
  log frames: strict-format timestamp parsing, gap-based sessions, session
  aggregation; the last two hours come from an upgraded logger writing ISO
  'T' timestamps.
- pandas regional exports: enumerate over a list of ten region frames, with a
  nested loop over products (log-log price elasticity by np.polyfit) and a
  monthly pivot; the last region's file has Title_Case headers.
- numpy portfolio VaR: nested loop, dict items of ten portfolios x monthly
  rebalancing windows: covariance, Cholesky, Monte Carlo paths, 1 % VaR; the
  last portfolio holds a suspended stock whose frozen price gives a zero
  variance row late in the windows.
- sklearn walk-forward fraud model: for over month indices (nine folds):
  OneHotEncoder + GradientBoostingClassifier per rolling window; a new payment
  channel appears only in the last test month.
- sklearn weekly sensor features: zip over three parallel lists (52 weeks of
  raw readings, labels, week ids): groupby aggregates, quantiles, per-machine
  trend fits; the final LogisticRegression fit on the accumulated rows meets
  the NaN left by a late-week sensor outage.
- sklearn country segmentation: a dict comprehension calling a function
  defined in the cell (scaler, PCA, diagonal GaussianMixture, silhouette per country); the last
  country is a 12-customer new market, too small for 15 PCA components.
- sklearn ticket stream: while loop with a counter over 28 text batches,
  HashingVectorizer + progressive validation + SGD partial_fit; a new ticket
  category appears in the last two batches.
- keras star-rating classifier: epochs x batches loop of train_on_batch, then
  a final evaluate on a hold-out whose labels are raw 1-5 stars instead of
  the encoded 0-4.
- keras walk-forward regression: enumerate over zip of consecutive monthly
  frames (fit two epochs, evaluate on the next month); the last month has an
  extra sensor column, so the final evaluate feeds 9 features to an 8-input
  network.
- torch tabular regressor: a training function defined in the cell (epochs x
  DataLoader batches, AdamW, cosine schedule), then a final validation pass on
  a float64 array straight from pandas.
- torch review classifier: epochs x shuffled mini-batches for an embedding-bag
  model, then a test loop over batches; test reviews carry the <unk> id,
  which lies outside an embedding table sized only for words + padding.
- xgboost per-region plan model: for over groupby (eight regions), stratified
  split, XGBClassifier, accuracy / log loss / top feature; the last region
  sells no basic plan, so its labels are {1, 2}.
- lightgbm per-department demand model: for over groupby (five departments),
  get_dummies of brand, LGBMRegressor, MAPE; the last department has a brand
  named "Hasbro, Inc." whose dummy column carries a comma.

LONG  pandas_monthly_customer_features_formatted_amounts -- TypeError: groupby mean refuses the object column of "1,234.56" text amounts in the last month (fix: pd.to_numeric on the comma-stripped column inside the loop)
LONG  pandas_store_daily_lags_double_loaded_batch -- ValueError: asfreq cannot reindex on an axis with duplicate dates for the last store (fix: drop_duplicates on store/date in the loop)
LONG  pandas_clickstream_sessionize_queue_iso_timestamps -- ValueError: to_datetime with a fixed format rejects the late ISO "T" timestamps (fix: format="ISO8601")
LONG  pandas_region_exports_elasticity_title_case_headers -- KeyError: 'order_date' is missing from the last region's Title_Case headers (fix: lower-case the columns in the loop)
LONG  numpy_portfolio_var_simulation_suspended_stock -- LinAlgError: Cholesky finds the late-window covariance not positive definite because of a zero-variance asset (fix: add a 1e-10 jitter on the diagonal)
LONG  sklearn_walk_forward_fraud_onehot_new_channel -- ValueError: OneHotEncoder.transform finds an unknown channel in the last month (fix: handle_unknown="ignore")
LONG  sklearn_weekly_sensor_features_final_fit_outage_nan -- ValueError: LogisticRegression rejects input X containing NaN after the loop (fix: SimpleImputer(strategy="median") first in the pipeline)
LONG  sklearn_country_segmentation_pca_tiny_new_market -- ValueError: PCA n_components=15 exceeds min(n_samples, n_features) for the 12-row last country (fix: n_components=min(15, len(g)))
LONG  sklearn_ticket_stream_partial_fit_new_category -- ValueError: partial_fit meets a label outside the classes given on the first call (fix: pass the full ticket taxonomy as classes)
LONG  keras_star_rating_epochs_batches_raw_test_labels -- InvalidArgumentError: sparse categorical cross-entropy gets label 5 outside [0, 5) in the final evaluate (fix: le.transform the test stars)
LONG  keras_walk_forward_months_new_sensor_column -- InvalidArgumentError: the Dense matmul gets 9 input columns instead of 8 in the last month (fix: select sensor_cols instead of dropping the target)
LONG  torch_train_function_then_validate_float64_frame -- RuntimeError: Linear gets a Double input against Float weights in the final validation (fix: .float() on the validation tensor)
LONG  torch_review_classifier_unk_id_outside_embedding -- IndexError: nn.Embedding index out of range in self for the <unk> id at test time (fix: size the table len(vocab) + 2)
LONG  xgboost_per_region_plan_model_missing_basic_tier -- ValueError: XGBClassifier wants classes [0 1] but the last region has [1 2] (fix: LabelEncoder on the region's labels)
LONG  lightgbm_per_department_dummies_comma_brand_name -- LightGBMError: feature names with special JSON characters (a comma) in the last department (fix: replace those characters in the column names)
short pandas_merge_customer_id_int_vs_text -- ValueError: merge on int64 and object key columns (fix: astype("int64") on the CRM ids)
short pandas_astype_int_age_with_missing -- IntCastingNaNError: non-finite values cannot be cast to int (fix: nullable "Int64")
short pandas_zfill_zipcode_parsed_as_int -- AttributeError: .str accessor used on an integer column (fix: astype(str) first)
short numpy_standardize_features_row_axis_broadcast -- ValueError: (500,12) and (500,) cannot be broadcast when scaling with axis=1 stats (fix: axis=0)
short numpy_time_split_float_slice_index -- TypeError: slice indices must be integers, len(X) * 0.8 is a float (fix: int(...))
short sklearn_scaler_transform_before_fit -- NotFittedError: transform on the StandardScaler instance that was never fitted (fix: fit_transform on that same instance)
short sklearn_onehot_sparse_keyword_removed -- TypeError: OneHotEncoder no longer accepts sparse= (fix: sparse_output=False)
short sklearn_linear_regression_single_series_feature -- ValueError: expected 2D array, got a 1D Series (fix: double brackets)
short keras_categorical_crossentropy_integer_labels -- ValueError: target and output shapes differ for categorical_crossentropy with integer labels (fix: sparse_categorical_crossentropy)
short torch_cross_entropy_targets_from_float_column -- RuntimeError: CrossEntropyLoss wants Long class indices, gets Double (fix: dtype=torch.long)
short torch_bce_logits_target_missing_dim -- ValueError: BCEWithLogitsLoss target size (64) differs from input size (64, 1) (fix: squeeze(1) the logits)
short matplotlib_single_row_subplots_two_index -- IndexError: too many indices for the 1-D axes array of a one-row subplots grid (fix: axes[i])
short seaborn_boxplot_capitalised_column_name -- ValueError: could not interpret value `Segment` for x (fix: the real column name "segment")
short python_per_class_precision_never_predicted -- ZeroDivisionError: tp + fp is zero for the class the model never predicts (fix: guard the division with 0.0)
short python_json_loads_python_repr_attributes -- JSONDecodeError: json.loads rejects single-quoted Python dict reprs (fix: ast.literal_eval)
"""

PAIRS = [
# ---------------------------------------------------------------- pandas LONG
(
"pandas_monthly_customer_features_formatted_amounts",
r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(24)
monthly = {}
for m in pd.period_range("2023-01", "2023-12", freq="M"):
    n = 40_000
    day = rng.integers(0, m.days_in_month, n)
    sec = rng.integers(0, 86_400, n)
    monthly[str(m)] = pd.DataFrame({
        "customer_id": rng.integers(0, 4000, n),
        "ts": m.start_time + pd.to_timedelta(day, unit="D") + pd.to_timedelta(sec, unit="s"),
        "amount": rng.gamma(2.0, 35.0, n).round(2),
        "category": rng.choice(["grocery", "fuel", "travel", "online", "dining"], n),
    })
# December came from the new billing system, which exports amounts as formatted text
monthly["2023-12"]["amount"] = monthly["2023-12"]["amount"].map("{:,.2f}".format)
''',
r'''
features = []
for month, df in monthly.items():
    df = df.sort_values(["customer_id", "ts"])
    g = df.groupby("customer_id")
    df["gap_h"] = g["ts"].diff().dt.total_seconds() / 3600
    df["txn_rank"] = g.cumcount()
    per_cust = df.groupby("customer_id").agg(
        n_txn=("amount", "size"),
        spend=("amount", "sum"),
        avg_ticket=("amount", "mean"),
        max_ticket=("amount", "max"),
        mean_gap_h=("gap_h", "mean"),
    )
    share = pd.crosstab(df["customer_id"], df["category"], normalize="index").add_prefix("share_")
    per_cust = per_cust.join(share)
    per_cust["month"] = month
    features.append(per_cust.reset_index())
feat = pd.concat(features, ignore_index=True)
''',
r'''
features = []
for month, df in monthly.items():
    df = df.sort_values(["customer_id", "ts"])
    df["amount"] = pd.to_numeric(df["amount"].replace(",", "", regex=True))
    g = df.groupby("customer_id")
    df["gap_h"] = g["ts"].diff().dt.total_seconds() / 3600
    df["txn_rank"] = g.cumcount()
    per_cust = df.groupby("customer_id").agg(
        n_txn=("amount", "size"),
        spend=("amount", "sum"),
        avg_ticket=("amount", "mean"),
        max_ticket=("amount", "max"),
        mean_gap_h=("gap_h", "mean"),
    )
    share = pd.crosstab(df["customer_id"], df["category"], normalize="index").add_prefix("share_")
    per_cust = per_cust.join(share)
    per_cust["month"] = month
    features.append(per_cust.reset_index())
feat = pd.concat(features, ignore_index=True)
''',
),
(
"pandas_store_daily_lags_double_loaded_batch",
r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
dates = pd.date_range("2022-01-01", "2023-12-31", freq="D")
season = 1 + 0.25 * np.sin(2 * np.pi * dates.dayofyear.to_numpy() / 365.25)
frames = []
for s in range(1, 261):
    sales = rng.poisson(rng.uniform(80, 400) * season)
    keep = rng.random(len(dates)) > 0.03          # closed days have no row
    frames.append(pd.DataFrame({
        "store": f"S{s:03d}",
        "date": dates[keep],
        "sales": sales[keep],
        "promo": rng.random(keep.sum()) < 0.1,
    }))
sales = pd.concat(frames, ignore_index=True)
# the November 2023 batch of store S260 was loaded twice by the ETL job
late = sales[(sales["store"] == "S260") & (sales["date"] >= "2023-11-01") & (sales["date"] < "2023-12-01")]
sales = pd.concat([sales, late], ignore_index=True)
''',
r'''
store_feats = {}
for store, g in sales.groupby("store"):
    s = g.set_index("date").sort_index()
    s = s.asfreq("D")
    s["open"] = s["sales"].notna()
    s["sales"] = s["sales"].fillna(0)
    s["promo"] = s["promo"].eq(True)
    for lag in (1, 7, 14, 28):
        s[f"lag_{lag}"] = s["sales"].shift(lag)
    past = s["sales"].shift(1)
    for w in (7, 28, 91):
        s[f"roll_mean_{w}"] = past.rolling(w).mean()
        s[f"roll_std_{w}"] = past.rolling(w).std()
    s["ewm_14"] = past.ewm(span=14).mean()
    s["dow_mean"] = s.groupby(s.index.dayofweek)["sales"].transform(lambda x: x.shift(1).expanding().mean())
    store_feats[store] = s
panel = pd.concat(store_feats, names=["store", "date"])
''',
r'''
store_feats = {}
for store, g in sales.groupby("store"):
    g = g.drop_duplicates(subset=["store", "date"])
    s = g.set_index("date").sort_index()
    s = s.asfreq("D")
    s["open"] = s["sales"].notna()
    s["sales"] = s["sales"].fillna(0)
    s["promo"] = s["promo"].eq(True)
    for lag in (1, 7, 14, 28):
        s[f"lag_{lag}"] = s["sales"].shift(lag)
    past = s["sales"].shift(1)
    for w in (7, 28, 91):
        s[f"roll_mean_{w}"] = past.rolling(w).mean()
        s[f"roll_std_{w}"] = past.rolling(w).std()
    s["ewm_14"] = past.ewm(span=14).mean()
    s["dow_mean"] = s.groupby(s.index.dayofweek)["sales"].transform(lambda x: x.shift(1).expanding().mean())
    store_feats[store] = s
panel = pd.concat(store_feats, names=["store", "date"])
''',
),
(
"pandas_clickstream_sessionize_queue_iso_timestamps",
r'''
from collections import deque

import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
pages = [f"/product/{i}" for i in range(400)] + ["/", "/cart", "/checkout", "/search", "/account"]
queue = deque()
day = pd.Timestamp("2024-03-01")
for hour in range(24):                     # one raw log file per hour
    n = 100_000
    ts = day + pd.Timedelta(hours=hour) + pd.to_timedelta(np.sort(rng.integers(0, 3600, n)), unit="s")
    fmt = "%Y-%m-%dT%H:%M:%S" if hour >= 22 else "%Y-%m-%d %H:%M:%S"   # logger upgraded at 22:00
    queue.append(pd.DataFrame({
        "user_id": rng.integers(0, 6000, n),
        "ts": ts.strftime(fmt),
        "page": rng.choice(pages, n),
        "event": rng.choice(["view", "click", "add_to_cart", "purchase"], n, p=[0.7, 0.2, 0.07, 0.03]),
    }))
''',
r'''
session_tables = []
while queue:
    chunk = queue.popleft()
    chunk["ts"] = pd.to_datetime(chunk["ts"], format="%Y-%m-%d %H:%M:%S")
    chunk = chunk.sort_values(["user_id", "ts"])
    gap = chunk.groupby("user_id")["ts"].diff()
    chunk["session_id"] = (gap.isna() | (gap > pd.Timedelta(minutes=30))).cumsum()
    chunk["is_purchase"] = chunk["event"].eq("purchase")
    sess = chunk.groupby("session_id").agg(
        user_id=("user_id", "first"),
        start=("ts", "min"),
        end=("ts", "max"),
        n_events=("event", "size"),
        n_pages=("page", "nunique"),
        converted=("is_purchase", "max"),
    )
    sess["duration_min"] = (sess["end"] - sess["start"]).dt.total_seconds() / 60
    session_tables.append(sess)
sessions = pd.concat(session_tables, ignore_index=True)
''',
r'''
session_tables = []
while queue:
    chunk = queue.popleft()
    chunk["ts"] = pd.to_datetime(chunk["ts"], format="ISO8601")
    chunk = chunk.sort_values(["user_id", "ts"])
    gap = chunk.groupby("user_id")["ts"].diff()
    chunk["session_id"] = (gap.isna() | (gap > pd.Timedelta(minutes=30))).cumsum()
    chunk["is_purchase"] = chunk["event"].eq("purchase")
    sess = chunk.groupby("session_id").agg(
        user_id=("user_id", "first"),
        start=("ts", "min"),
        end=("ts", "max"),
        n_events=("event", "size"),
        n_pages=("page", "nunique"),
        converted=("is_purchase", "max"),
    )
    sess["duration_min"] = (sess["end"] - sess["start"]).dt.total_seconds() / 60
    session_tables.append(sess)
sessions = pd.concat(session_tables, ignore_index=True)
''',
),
(
"pandas_region_exports_elasticity_title_case_headers",
r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(17)
regions = ["Nordics", "DACH", "Benelux", "France", "Iberia", "Italy", "UK", "Poland", "Baltics", "Balkans"]
products = [f"P{i:03d}" for i in range(400)]
ref_price = dict(zip(products, rng.uniform(5, 120, len(products))))
elastic = dict(zip(products, rng.uniform(-2.0, -0.4, len(products))))
region_frames = []
for r in regions:
    n = 150_000
    prod = rng.choice(products, n)
    ref = np.array([ref_price[p] for p in prod])
    price = ref * rng.uniform(0.7, 1.3, n)
    el = np.array([elastic[p] for p in prod])
    units = rng.poisson(np.exp(2.0 + el * np.log(price / ref))) + 1
    region_frames.append(pd.DataFrame({
        "order_date": pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 730, n), unit="D"),
        "product": prod,
        "units": units,
        "unit_price": price.round(2),
        "revenue": (units * price).round(2),
        "discount": rng.choice([0.0, 0.05, 0.1, 0.2], n),
    }))
# the Balkans file comes out of the new ERP, which writes Title_Case headers
region_frames[-1] = region_frames[-1].rename(columns=str.title)
''',
r'''
summaries = []
for i, df in enumerate(region_frames):
    df = df.copy()
    df["month"] = df["order_date"].dt.to_period("M")
    df["net"] = df["revenue"] * (1 - df["discount"])
    monthly = df.pivot_table(index="month", columns="product", values="net", aggfunc="sum", fill_value=0)
    yoy = monthly.iloc[-1] / monthly.iloc[-13] - 1
    elasticity = {}
    for prod, g in df.groupby("product"):
        elasticity[prod] = np.polyfit(np.log(g["unit_price"]), np.log(g["units"]), 1)[0]
    summaries.append(pd.DataFrame({"region": regions[i], "yoy": yoy, "elasticity": pd.Series(elasticity)}))
report = pd.concat(summaries)
''',
r'''
summaries = []
for i, df in enumerate(region_frames):
    df = df.copy()
    df.columns = df.columns.str.lower()
    df["month"] = df["order_date"].dt.to_period("M")
    df["net"] = df["revenue"] * (1 - df["discount"])
    monthly = df.pivot_table(index="month", columns="product", values="net", aggfunc="sum", fill_value=0)
    yoy = monthly.iloc[-1] / monthly.iloc[-13] - 1
    elasticity = {}
    for prod, g in df.groupby("product"):
        elasticity[prod] = np.polyfit(np.log(g["unit_price"]), np.log(g["units"]), 1)[0]
    summaries.append(pd.DataFrame({"region": regions[i], "yoy": yoy, "elasticity": pd.Series(elasticity)}))
report = pd.concat(summaries)
''',
),
# ---------------------------------------------------------------- numpy LONG
(
"numpy_portfolio_var_simulation_suspended_stock",
r'''
import numpy as np

rng = np.random.default_rng(99)
rng_sim = np.random.default_rng(2024)
n_days, n_assets = 1000, 25
portfolios = {}
for name in ["growth", "value", "dividend", "tech", "healthcare", "energy", "emerging", "small_cap", "esg", "momentum"]:
    factors = rng.normal(size=(n_days, 3))
    betas = rng.normal(0.5, 0.2, (n_assets, 3))
    vol = rng.uniform(0.01, 0.03, n_assets)
    rets = 0.01 * factors @ betas.T + rng.normal(size=(n_days, n_assets)) * vol
    prices = 100 * np.exp(np.cumsum(rets, axis=0))
    weights = rng.dirichlet(np.ones(n_assets))
    portfolios[name] = (prices, weights)
# trading in one momentum holding has been suspended since day 700: its price is frozen
portfolios["momentum"][0][700:, 4] = portfolios["momentum"][0][699, 4]
''',
r'''
horizon, n_paths, lookback = 10, 1300, 250
var_table = {}
for name, (prices, w) in portfolios.items():
    rets = np.diff(np.log(prices), axis=0)
    var_path = []
    for t in range(lookback, len(rets), 21):
        window = rets[t - lookback:t]
        mu = window.mean(axis=0)
        cov = np.cov(window, rowvar=False)
        L = np.linalg.cholesky(cov)
        z = rng_sim.standard_normal((n_paths, horizon, len(w)))
        sim = mu + z @ L.T
        pnl = np.exp(sim.sum(axis=1)) @ w - 1
        var_path.append(-np.quantile(pnl, 0.01))
    var_table[name] = np.array(var_path)
''',
r'''
horizon, n_paths, lookback = 10, 1300, 250
var_table = {}
for name, (prices, w) in portfolios.items():
    rets = np.diff(np.log(prices), axis=0)
    var_path = []
    for t in range(lookback, len(rets), 21):
        window = rets[t - lookback:t]
        mu = window.mean(axis=0)
        cov = np.cov(window, rowvar=False)
        L = np.linalg.cholesky(cov + 1e-10 * np.eye(len(w)))
        z = rng_sim.standard_normal((n_paths, horizon, len(w)))
        sim = mu + z @ L.T
        pnl = np.exp(sim.sum(axis=1)) @ w - 1
        var_path.append(-np.quantile(pnl, 0.01))
    var_table[name] = np.array(var_path)
''',
),
# ---------------------------------------------------------------- sklearn LONG
(
"sklearn_walk_forward_fraud_onehot_new_channel",
r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(42)
merchants = ["grocery", "fuel", "electronics", "travel", "gaming", "pharmacy", "restaurants", "fashion"]
parts = []
for m in pd.period_range("2023-01", "2023-12", freq="M"):
    n = 5000
    channels = ["pos", "online", "atm", "phone"] + (["crypto_wallet"] if m.month == 12 else [])
    df = pd.DataFrame({
        "month": str(m),
        "channel": rng.choice(channels, n),
        "merchant_type": rng.choice(merchants, n),
        "card_type": rng.choice(["debit", "credit", "prepaid"], n, p=[0.5, 0.4, 0.1]),
        "amount": rng.lognormal(3.5, 1.0, n),
        "hour": rng.integers(0, 24, n),
        "dist_home_km": rng.exponential(15, n),
        "n_tx_24h": rng.poisson(3, n),
    })
    logit = (-4 + 0.6 * (df["channel"] != "pos") + 0.8 * df["card_type"].eq("prepaid")
             + 0.004 * df["dist_home_km"] + 0.15 * df["n_tx_24h"] + 0.5 * df["hour"].isin([1, 2, 3, 4]))
    df["fraud"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    parts.append(df)
tx = pd.concat(parts, ignore_index=True)
cat_cols = ["channel", "merchant_type", "card_type"]
num_cols = ["amount", "hour", "dist_home_km", "n_tx_24h"]
months = sorted(tx["month"].unique())
''',
r'''
scores = {}
for i in range(3, len(months)):
    train = tx[tx["month"].isin(months[i - 3:i])]
    test = tx[tx["month"] == months[i]]
    enc = OneHotEncoder()
    X_tr = np.hstack([enc.fit_transform(train[cat_cols]).toarray(), train[num_cols].to_numpy()])
    X_te = np.hstack([enc.transform(test[cat_cols]).toarray(), test[num_cols].to_numpy()])
    model = GradientBoostingClassifier(n_estimators=25, max_depth=3, subsample=0.5, random_state=0)
    model.fit(X_tr, train["fraud"])
    scores[months[i]] = roc_auc_score(test["fraud"], model.predict_proba(X_te)[:, 1])
scores = pd.Series(scores)
''',
r'''
scores = {}
for i in range(3, len(months)):
    train = tx[tx["month"].isin(months[i - 3:i])]
    test = tx[tx["month"] == months[i]]
    enc = OneHotEncoder(handle_unknown="ignore")
    X_tr = np.hstack([enc.fit_transform(train[cat_cols]).toarray(), train[num_cols].to_numpy()])
    X_te = np.hstack([enc.transform(test[cat_cols]).toarray(), test[num_cols].to_numpy()])
    model = GradientBoostingClassifier(n_estimators=25, max_depth=3, subsample=0.5, random_state=0)
    model.fit(X_tr, train["fraud"])
    scores[months[i]] = roc_auc_score(test["fraud"], model.predict_proba(X_te)[:, 1])
scores = pd.Series(scores)
''',
),
(
"sklearn_weekly_sensor_features_final_fit_outage_nan",
r'''
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(8)
machines = [f"M{i:03d}" for i in range(250)]
wear = pd.Series(rng.uniform(0, 1, len(machines)), index=machines)
week_ids = list(range(1, 53))
raw_frames, label_series = [], []
per = 120
for wk in week_ids:
    w = np.repeat(wear.to_numpy(), per)
    raw = pd.DataFrame({
        "machine": np.repeat(machines, per),
        "temp": 60 + 8 * w + rng.normal(0, 2, len(w)),
        "vib": 0.5 + w * np.tile(np.linspace(0, 1, per), len(machines)) + rng.normal(0, 0.1, len(w)),
        "pressure": 3 + rng.normal(0, 0.2, len(w)),
        "rpm": 1500 + rng.normal(0, 40, len(w)),
    })
    if wk == 50:   # pressure sensors of two machines were offline the whole week
        raw.loc[raw["machine"].isin(["M017", "M142"]), "pressure"] = np.nan
    raw_frames.append(raw)
    label_series.append(pd.Series(rng.random(len(machines)) < 0.05 + 0.3 * wear.to_numpy(), index=machines))
''',
r'''
rows, labels = [], []
for wk, raw, lab in zip(week_ids, raw_frames, label_series):
    g = raw.groupby("machine")
    feats = g[["temp", "vib", "pressure", "rpm"]].agg(["mean", "std", "min", "max"])
    feats.columns = ["_".join(c) for c in feats.columns]
    q = g[["temp", "vib"]].quantile(0.95).add_suffix("_p95")
    feats = feats.join(q)
    feats["vib_trend"] = g["vib"].apply(lambda v: np.polyfit(np.arange(len(v)), v.to_numpy(), 1)[0])
    feats["week"] = wk
    rows.append(feats)
    labels.append(lab.loc[feats.index])
X = pd.concat(rows)
y = pd.concat(labels).astype(int)
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
clf.fit(X, y)
train_auc = roc_auc_score(y, clf.predict_proba(X)[:, 1])
''',
r'''
rows, labels = [], []
for wk, raw, lab in zip(week_ids, raw_frames, label_series):
    g = raw.groupby("machine")
    feats = g[["temp", "vib", "pressure", "rpm"]].agg(["mean", "std", "min", "max"])
    feats.columns = ["_".join(c) for c in feats.columns]
    q = g[["temp", "vib"]].quantile(0.95).add_suffix("_p95")
    feats = feats.join(q)
    feats["vib_trend"] = g["vib"].apply(lambda v: np.polyfit(np.arange(len(v)), v.to_numpy(), 1)[0])
    feats["week"] = wk
    rows.append(feats)
    labels.append(lab.loc[feats.index])
X = pd.concat(rows)
y = pd.concat(labels).astype(int)
clf = make_pipeline(SimpleImputer(strategy="median"), StandardScaler(), LogisticRegression(max_iter=2000))
clf.fit(X, y)
train_auc = roc_auc_score(y, clf.predict_proba(X)[:, 1])
''',
),
(
"sklearn_country_segmentation_pca_tiny_new_market",
r'''
import numpy as np
import pandas as pd
from sklearn.mixture import GaussianMixture
from sklearn.decomposition import PCA
from sklearn.metrics import silhouette_score
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(13)
sizes = {"BR": 21000, "DE": 19500, "ES": 14500, "FR": 21000, "IN": 22500, "IT": 12500,
         "MX": 10000, "NL": 7500, "PL": 6000, "US": 29000, "UY": 12}   # UY launched last week
feature_cols = [f"b{i:02d}" for i in range(20)]
centers = rng.normal(0, 2, (6, 20))
parts = []
for country, n in sizes.items():
    seg = rng.integers(0, 6, n)
    X = centers[seg] + rng.normal(0, 1.5, (n, 20))
    df = pd.DataFrame(X, columns=feature_cols)
    df["country"] = country
    parts.append(df)
customers = pd.concat(parts, ignore_index=True)
''',
r'''
def profile_segment(g, k=6):
    X = StandardScaler().fit_transform(g[feature_cols])
    Z = PCA(n_components=15, random_state=0).fit_transform(X)
    gm = GaussianMixture(n_components=k, covariance_type="diag", n_init=3, random_state=0).fit(Z)
    labels = gm.predict(Z)
    sil = silhouette_score(Z, labels, sample_size=min(2000, len(Z)), random_state=0)
    shares = np.bincount(labels, minlength=k) / len(Z)
    return {"n": len(g), "silhouette": sil, "largest_share": shares.max(), "bic": gm.bic(Z)}

profiles = {country: profile_segment(g) for country, g in customers.groupby("country")}
profile_df = pd.DataFrame(profiles).T
''',
r'''
def profile_segment(g, k=6):
    X = StandardScaler().fit_transform(g[feature_cols])
    Z = PCA(n_components=min(15, len(g)), random_state=0).fit_transform(X)
    gm = GaussianMixture(n_components=k, covariance_type="diag", n_init=3, random_state=0).fit(Z)
    labels = gm.predict(Z)
    sil = silhouette_score(Z, labels, sample_size=min(2000, len(Z)), random_state=0)
    shares = np.bincount(labels, minlength=k) / len(Z)
    return {"n": len(g), "silhouette": sil, "largest_share": shares.max(), "bic": gm.bic(Z)}

profiles = {country: profile_segment(g) for country, g in customers.groupby("country")}
profile_df = pd.DataFrame(profiles).T
''',
),
(
"sklearn_ticket_stream_partial_fit_new_category",
r'''
import numpy as np
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.linear_model import SGDClassifier

rng = np.random.default_rng(21)
topic_words = {
    "billing": ["invoice", "charge", "charged", "payment", "card", "bill", "twice", "fee", "vat", "receipt"],
    "tech": ["error", "crash", "app", "login", "bug", "update", "screen", "loading", "sync", "password"],
    "account": ["profile", "email", "username", "delete", "settings", "verify", "address", "phone", "close", "name"],
    "shipping": ["delivery", "parcel", "courier", "tracking", "late", "shipped", "warehouse", "lost", "box", "arrive"],
    "refund": ["refund", "return", "money", "back", "reimburse", "cancelled", "credit", "policy", "days", "owed"],
}
filler = np.array([f"w{i}" for i in range(1500)] + ["the", "my", "is", "not", "please", "help", "i", "order", "it", "a"])
topic_arr = {k: np.array(v) for k, v in topic_words.items()}

def ticket(label):
    words = np.concatenate([rng.choice(topic_arr[label], 5), rng.choice(filler, 20)])
    rng.shuffle(words)
    return " ".join(words)

batches = []
for b in range(28):
    labels = ["account", "billing", "shipping", "tech"] + (["refund"] if b >= 26 else [])   # refund queue opened late
    y = rng.choice(labels, 2000)
    batches.append(([ticket(l) for l in y], y))
''',
r'''
vec = HashingVectorizer(n_features=2**18, ngram_range=(1, 2), alternate_sign=False)
clf = SGDClassifier(loss="log_loss", alpha=1e-5, random_state=0)
classes = np.unique(batches[0][1])
history = []
batch_no = 0
while batch_no < len(batches):
    texts, labels = batches[batch_no]
    X = vec.transform(texts)
    if batch_no > 0:
        history.append(clf.score(X, labels))      # progressive validation
    clf.partial_fit(X, labels, classes=classes)
    batch_no += 1
''',
r'''
vec = HashingVectorizer(n_features=2**18, ngram_range=(1, 2), alternate_sign=False)
clf = SGDClassifier(loss="log_loss", alpha=1e-5, random_state=0)
classes = np.array(["account", "billing", "refund", "shipping", "tech"])   # full ticket taxonomy
history = []
batch_no = 0
while batch_no < len(batches):
    texts, labels = batches[batch_no]
    X = vec.transform(texts)
    if batch_no > 0:
        history.append(clf.score(X, labels))      # progressive validation
    clf.partial_fit(X, labels, classes=classes)
    batch_no += 1
''',
),
# ---------------------------------------------------------------- keras LONG
(
"keras_star_rating_epochs_batches_raw_test_labels",
r'''
import numpy as np
import pandas as pd
import keras
from keras import layers
from sklearn.preprocessing import LabelEncoder

keras.utils.set_random_seed(24)
rng = np.random.default_rng(24)
n = 24_000
X = rng.normal(size=(n, 20)).astype("float32")
W = rng.normal(size=(20, 5))
stars = (X @ W + rng.normal(scale=2.0, size=(n, 5))).argmax(1) + 1      # 1..5 stars
reviews = pd.DataFrame(X, columns=[f"emb_{i}" for i in range(20)]).assign(stars=stars)
train_df, test_df = reviews.iloc[:20_000], reviews.iloc[20_000:]
feature_cols = [c for c in reviews.columns if c.startswith("emb_")]
X_train = train_df[feature_cols].to_numpy("float32")
X_test = test_df[feature_cols].to_numpy("float32")
le = LabelEncoder()
y_train = le.fit_transform(train_df["stars"])
model = keras.Sequential([
    layers.Input(shape=(20,)),
    layers.Dense(64, activation="relu"),
    layers.Dropout(0.2),
    layers.Dense(32, activation="relu"),
    layers.Dense(5, activation="softmax"),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
''',
r'''
batch_size = 128
epoch_loss = []
for epoch in range(3):
    perm = np.random.default_rng(epoch).permutation(len(X_train))
    losses = []
    for start in range(0, len(perm), batch_size):
        idx = perm[start:start + batch_size]
        logs = model.train_on_batch(X_train[idx], y_train[idx], return_dict=True)
        losses.append(logs["loss"])
    epoch_loss.append(float(np.mean(losses)))
test_loss, test_acc = model.evaluate(X_test, test_df["stars"].to_numpy(), verbose=0)
''',
r'''
batch_size = 128
epoch_loss = []
for epoch in range(3):
    perm = np.random.default_rng(epoch).permutation(len(X_train))
    losses = []
    for start in range(0, len(perm), batch_size):
        idx = perm[start:start + batch_size]
        logs = model.train_on_batch(X_train[idx], y_train[idx], return_dict=True)
        losses.append(logs["loss"])
    epoch_loss.append(float(np.mean(losses)))
test_loss, test_acc = model.evaluate(X_test, le.transform(test_df["stars"]), verbose=0)
''',
),
(
"keras_walk_forward_months_new_sensor_column",
r'''
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)
sensor_cols = [f"s{i}" for i in range(8)]
coef = rng.normal(size=8)
frames = []
for month in range(7):
    n = 1000
    df = pd.DataFrame(rng.normal(size=(n, 8)), columns=sensor_cols)
    df["target"] = np.tanh(df[sensor_cols].to_numpy() @ coef / 3) * 10 + rng.normal(0, 0.5, n)
    if month == 6:     # a vibration sensor was added to the line in the last month
        df.insert(8, "s8_vibration", rng.normal(size=n))
    frames.append(df)
model = keras.Sequential([
    layers.Input(shape=(8,)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
''',
r'''
next_month_mae = []
for i, (train_df, next_df) in enumerate(zip(frames[:-1], frames[1:])):
    X_tr = train_df.drop(columns="target").to_numpy("float32")
    y_tr = train_df["target"].to_numpy("float32")
    model.fit(X_tr, y_tr, epochs=2, batch_size=64, verbose=0)
    X_nx = next_df.drop(columns="target").to_numpy("float32")
    loss, mae = model.evaluate(X_nx, next_df["target"].to_numpy("float32"), verbose=0)
    next_month_mae.append(mae)
''',
r'''
next_month_mae = []
for i, (train_df, next_df) in enumerate(zip(frames[:-1], frames[1:])):
    X_tr = train_df[sensor_cols].to_numpy("float32")
    y_tr = train_df["target"].to_numpy("float32")
    model.fit(X_tr, y_tr, epochs=2, batch_size=64, verbose=0)
    X_nx = next_df[sensor_cols].to_numpy("float32")
    loss, mae = model.evaluate(X_nx, next_df["target"].to_numpy("float32"), verbose=0)
    next_month_mae.append(mae)
''',
),
# ---------------------------------------------------------------- torch LONG
(
"torch_train_function_then_validate_float64_frame",
r'''
import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)      # tiny MLP: one thread beats two on this 2-core box
rng = np.random.default_rng(0)
n = 30_000
df = pd.DataFrame(rng.normal(size=(n, 16)), columns=[f"f{i}" for i in range(16)])
df["price"] = np.exp(0.3 * df["f0"] - 0.2 * df["f3"] + 0.1 * df["f5"] * df["f7"] + rng.normal(0, 0.1, n))
feat = [c for c in df.columns if c != "price"]
train_df, val_df = df.iloc[:24_000], df.iloc[24_000:]
X_tr = torch.tensor(train_df[feat].to_numpy(), dtype=torch.float32)
y_tr = torch.tensor(np.log(train_df["price"].to_numpy()), dtype=torch.float32).unsqueeze(1)
X_val = val_df[feat].to_numpy()
y_val = np.log(val_df["price"].to_numpy())
loader = DataLoader(TensorDataset(X_tr, y_tr), batch_size=128, shuffle=True)
''',
r'''
def train(model, loader, epochs, lr=1e-3):
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    loss_fn = nn.MSELoss()
    hist = []
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        sched.step()
        hist.append(total / len(loader.dataset))
    return hist

model = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
history = train(model, loader, epochs=4)
model.eval()
with torch.no_grad():
    val_pred = model(torch.from_numpy(X_val)).squeeze(1).numpy()
val_rmse = float(np.sqrt(np.mean((val_pred - y_val) ** 2)))
''',
r'''
def train(model, loader, epochs, lr=1e-3):
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    loss_fn = nn.MSELoss()
    hist = []
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        sched.step()
        hist.append(total / len(loader.dataset))
    return hist

model = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
history = train(model, loader, epochs=4)
model.eval()
with torch.no_grad():
    val_pred = model(torch.from_numpy(X_val).float()).squeeze(1).numpy()
val_rmse = float(np.sqrt(np.mean((val_pred - y_val) ** 2)))
''',
),
(
"torch_review_classifier_unk_id_outside_embedding",
r'''
import numpy as np
import torch
from torch import nn

torch.manual_seed(1)
torch.set_num_threads(1)
rng = np.random.default_rng(1)
pos = [f"good{i}" for i in range(120)]
neg = [f"bad{i}" for i in range(120)]
neutral = [f"w{i}" for i in range(3000)]
slang = [f"new{i}" for i in range(200)]          # words that only show up in the newer reviews

def review(label, extra=()):
    sentiment = rng.choice(pos if label else neg, 6)
    words = list(sentiment) + list(rng.choice(neutral, rng.integers(20, 50))) + list(extra)
    rng.shuffle(words)
    return words

y_all = rng.integers(0, 2, 24_000)
train_tokens = [review(l) for l in y_all[:20_000]]
test_tokens = [review(l, rng.choice(slang, 3)) for l in y_all[20_000:]]
vocab = {w: i + 1 for i, w in enumerate(sorted({w for toks in train_tokens for w in toks}))}   # 0 = padding
UNK = len(vocab) + 1

def encode(tokens, max_len=60):
    ids = [vocab.get(w, UNK) for w in tokens][:max_len]
    return ids + [0] * (max_len - len(ids))

X_train = torch.tensor([encode(t) for t in train_tokens])
X_test = torch.tensor([encode(t) for t in test_tokens])
y_train = torch.tensor(y_all[:20_000])
y_test = torch.tensor(y_all[20_000:])
''',
r'''
class BagClassifier(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.head = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        mask = (x != 0).unsqueeze(-1).float()
        pooled = (self.emb(x) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.head(pooled)

model = BagClassifier(len(vocab) + 1)          # +1 for padding
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(2):
    model.train()
    perm = torch.randperm(len(X_train))
    for i in range(0, len(perm), 128):
        idx = perm[i:i + 128]
        opt.zero_grad()
        loss = loss_fn(model(X_train[idx]), y_train[idx])
        loss.backward()
        opt.step()
model.eval()
correct = 0
with torch.no_grad():
    for i in range(0, len(X_test), 512):
        correct += (model(X_test[i:i + 512]).argmax(1) == y_test[i:i + 512]).sum().item()
test_acc = correct / len(X_test)
''',
r'''
class BagClassifier(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.head = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        mask = (x != 0).unsqueeze(-1).float()
        pooled = (self.emb(x) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.head(pooled)

model = BagClassifier(len(vocab) + 2)          # +1 for padding, +1 for <unk>
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(2):
    model.train()
    perm = torch.randperm(len(X_train))
    for i in range(0, len(perm), 128):
        idx = perm[i:i + 128]
        opt.zero_grad()
        loss = loss_fn(model(X_train[idx]), y_train[idx])
        loss.backward()
        opt.step()
model.eval()
correct = 0
with torch.no_grad():
    for i in range(0, len(X_test), 512):
        correct += (model(X_test[i:i + 512]).argmax(1) == y_test[i:i + 512]).sum().item()
test_acc = correct / len(X_test)
''',
),
# ---------------------------------------------------------------- xgboost LONG
(
"xgboost_per_region_plan_model_missing_basic_tier",
r'''
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import LabelEncoder

rng = np.random.default_rng(11)
feature_cols = ["tenure_m", "monthly_usage_gb", "support_calls", "age", "n_devices", "contract", "household", "night_share"]
parts = []
for region in ["central", "coastal", "east", "islands", "mountain", "north", "south", "west"]:
    n = 5000
    df = pd.DataFrame({
        "tenure_m": rng.integers(1, 120, n),
        "monthly_usage_gb": rng.gamma(2, 20, n),
        "support_calls": rng.poisson(1.5, n),
        "age": rng.integers(18, 85, n),
        "n_devices": rng.integers(1, 8, n),
        "contract": rng.integers(0, 3, n),
        "household": rng.integers(1, 6, n),
        "night_share": rng.uniform(0, 1, n),
    })
    score = 0.03 * df["monthly_usage_gb"] + 0.4 * df["n_devices"] + 0.5 * df["contract"] + rng.normal(0, 1, n)
    df["plan"] = pd.qcut(score, 3, labels=False)             # 0 basic, 1 plus, 2 premium
    if region == "west":                                        # basic plan is not sold in the west
        df["plan"] = df["plan"].clip(lower=1)
    df["region"] = region
    parts.append(df)
customers = pd.concat(parts, ignore_index=True)
''',
r'''
results = {}
for region, g in customers.groupby("region"):
    X = g[feature_cols]
    y = g["plan"]
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
    clf = xgb.XGBClassifier(n_estimators=200, max_depth=5, learning_rate=0.05, subsample=0.8,
                            colsample_bytree=0.8, tree_method="hist", n_jobs=1, random_state=0)
    clf.fit(X_tr, y_tr)
    proba = clf.predict_proba(X_te)
    results[region] = {
        "acc": accuracy_score(y_te, proba.argmax(1)),
        "logloss": log_loss(y_te, proba),
        "top_feature": feature_cols[int(np.argmax(clf.feature_importances_))],
    }
results = pd.DataFrame(results).T
''',
r'''
results = {}
for region, g in customers.groupby("region"):
    X = g[feature_cols]
    y = LabelEncoder().fit_transform(g["plan"])
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
    clf = xgb.XGBClassifier(n_estimators=200, max_depth=5, learning_rate=0.05, subsample=0.8,
                            colsample_bytree=0.8, tree_method="hist", n_jobs=1, random_state=0)
    clf.fit(X_tr, y_tr)
    proba = clf.predict_proba(X_te)
    results[region] = {
        "acc": accuracy_score(y_te, proba.argmax(1)),
        "logloss": log_loss(y_te, proba),
        "top_feature": feature_cols[int(np.argmax(clf.feature_importances_))],
    }
results = pd.DataFrame(results).T
''',
),
# ---------------------------------------------------------------- lightgbm LONG
(
"lightgbm_per_department_dummies_comma_brand_name",
r'''
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.metrics import mean_absolute_percentage_error
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(5)
brands = {
    "appliances": ["Bosch", "Whirlpool", "LG", "Samsung", "Miele"],
    "electronics": ["Sony", "Apple", "Anker", "JBL", "Philips"],
    "garden": ["Gardena", "Husqvarna", "Fiskars", "Stihl"],
    "kitchen": ["Tefal", "KitchenAid", "Zwilling", "OXO"],
    "toys": ["Lego", "Mattel", "Hasbro, Inc.", "Spin Master", "Ravensburger"],
}
parts = []
for dept, bl in brands.items():
    n = 10_000
    df = pd.DataFrame({
        "department": dept,
        "brand": rng.choice(bl, n),
        "list_price": rng.lognormal(3.5, 0.6, n),
        "rating": rng.uniform(2.5, 5, n).round(1),
        "n_reviews": rng.poisson(120, n),
        "weight_kg": rng.gamma(2, 1.5, n),
        "days_listed": rng.integers(1, 900, n),
    })
    df["units_sold"] = rng.poisson(np.exp(1 + 0.6 * df["rating"] - 0.3 * np.log(df["list_price"]) + 0.002 * df["n_reviews"])) + 1
    parts.append(df)
products = pd.concat(parts, ignore_index=True)
num_cols = ["list_price", "rating", "n_reviews", "weight_kg", "days_listed"]
''',
r'''
dept_scores = {}
for dept, g in products.groupby("department"):
    X = pd.get_dummies(g[num_cols + ["brand"]], columns=["brand"], dtype=float)
    y = g["units_sold"]
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=0)
    model = lgb.LGBMRegressor(n_estimators=500, learning_rate=0.05, num_leaves=31, subsample=0.8,
                              subsample_freq=1, colsample_bytree=0.9, n_jobs=1, verbose=-1, random_state=0)
    model.fit(X_tr, y_tr)
    dept_scores[dept] = mean_absolute_percentage_error(y_te, model.predict(X_te))
dept_scores = pd.Series(dept_scores)
''',
r'''
dept_scores = {}
for dept, g in products.groupby("department"):
    X = pd.get_dummies(g[num_cols + ["brand"]], columns=["brand"], dtype=float)
    X.columns = X.columns.str.replace(r'[",:\[\]{}]', "_", regex=True)
    y = g["units_sold"]
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=0)
    model = lgb.LGBMRegressor(n_estimators=500, learning_rate=0.05, num_leaves=31, subsample=0.8,
                              subsample_freq=1, colsample_bytree=0.9, n_jobs=1, verbose=-1, random_state=0)
    model.fit(X_tr, y_tr)
    dept_scores[dept] = mean_absolute_percentage_error(y_te, model.predict(X_te))
dept_scores = pd.Series(dept_scores)
''',
),
# ---------------------------------------------------------------- short pairs
(
"pandas_merge_customer_id_int_vs_text",
r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1)
orders = pd.DataFrame({
    "order_id": np.arange(5000),
    "customer_id": rng.integers(1000, 1500, 5000),
    "amount": rng.gamma(2, 40, 5000).round(2),
})
# the CRM extract keeps ids as text
customers = pd.DataFrame({
    "customer_id": [str(i) for i in range(1000, 1500)],
    "segment": rng.choice(["consumer", "corporate", "home_office"], 500),
    "signup_year": rng.integers(2015, 2024, 500),
})
''',
r'''
enriched = orders.merge(customers, on="customer_id", how="left")
seg_revenue = enriched.groupby("segment")["amount"].sum()
''',
r'''
customers["customer_id"] = customers["customer_id"].astype("int64")
enriched = orders.merge(customers, on="customer_id", how="left")
seg_revenue = enriched.groupby("segment")["amount"].sum()
''',
),
(
"pandas_astype_int_age_with_missing",
r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2)
passengers = pd.DataFrame({
    "age": rng.integers(1, 80, 900).astype(float),
    "fare": rng.gamma(2, 15, 900).round(2),
    "pclass": rng.integers(1, 4, 900),
})
passengers.loc[rng.choice(900, 170, replace=False), "age"] = np.nan
''',
r'''
passengers["age"] = passengers["age"].astype(int)
passengers["age_band"] = pd.cut(passengers["age"], bins=[0, 12, 18, 35, 60, 100])
''',
r'''
passengers["age"] = passengers["age"].astype("Int64")
passengers["age_band"] = pd.cut(passengers["age"], bins=[0, 12, 18, 35, 60, 100])
''',
),
(
"pandas_zfill_zipcode_parsed_as_int",
r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
# zip codes were parsed as integers, so leading zeros are gone (02134 -> 2134)
homes = pd.DataFrame({
    "zipcode": rng.choice([2134, 2139, 10001, 60614, 94110, 1002], 2000),
    "sqft": rng.integers(500, 4000, 2000),
    "price": rng.normal(450_000, 120_000, 2000).round(-3),
})
''',
r'''
homes["zipcode"] = homes["zipcode"].str.zfill(5)
homes["zip3"] = homes["zipcode"].str[:3]
median_by_zip3 = homes.groupby("zip3")["price"].median()
''',
r'''
homes["zipcode"] = homes["zipcode"].astype(str).str.zfill(5)
homes["zip3"] = homes["zipcode"].str[:3]
median_by_zip3 = homes.groupby("zip3")["price"].median()
''',
),
(
"numpy_standardize_features_row_axis_broadcast",
r'''
import numpy as np

rng = np.random.default_rng(4)
X = rng.normal(loc=rng.uniform(0, 100, 12), scale=rng.uniform(1, 20, 12), size=(500, 12))
''',
r'''
X_std = (X - X.mean(axis=1)) / X.std(axis=1)
cov = X_std.T @ X_std / (len(X_std) - 1)
''',
r'''
X_std = (X - X.mean(axis=0)) / X.std(axis=0)
cov = X_std.T @ X_std / (len(X_std) - 1)
''',
),
(
"numpy_time_split_float_slice_index",
r'''
import numpy as np

rng = np.random.default_rng(5)
X = rng.normal(size=(1250, 8))
y = X @ rng.normal(size=8) + rng.normal(0, 0.3, 1250)
''',
r'''
split = len(X) * 0.8
X_train, X_test = X[:split], X[split:]
y_train, y_test = y[:split], y[split:]
beta, *_ = np.linalg.lstsq(X_train, y_train, rcond=None)
test_rmse = np.sqrt(np.mean((X_test @ beta - y_test) ** 2))
''',
r'''
split = int(len(X) * 0.8)
X_train, X_test = X[:split], X[split:]
y_train, y_test = y[:split], y[split:]
beta, *_ = np.linalg.lstsq(X_train, y_train, rcond=None)
test_rmse = np.sqrt(np.mean((X_test @ beta - y_test) ** 2))
''',
),
(
"sklearn_scaler_transform_before_fit",
r'''
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(6)
X = rng.normal(size=(2000, 10)) * rng.uniform(1, 50, 10)
y = (X[:, 0] / 50 + X[:, 3] / 20 + rng.normal(0, 1, 2000) > 0).astype(int)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
''',
r'''
scaler = StandardScaler()
X_train_s = StandardScaler().fit_transform(X_train)
X_test_s = scaler.transform(X_test)
clf = LogisticRegression().fit(X_train_s, y_train)
acc = clf.score(X_test_s, y_test)
''',
r'''
scaler = StandardScaler()
X_train_s = scaler.fit_transform(X_train)
X_test_s = scaler.transform(X_test)
clf = LogisticRegression().fit(X_train_s, y_train)
acc = clf.score(X_test_s, y_test)
''',
),
(
"sklearn_onehot_sparse_keyword_removed",
r'''
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(7)
cars = pd.DataFrame({
    "fuel": rng.choice(["petrol", "diesel", "hybrid", "electric"], 3000),
    "gearbox": rng.choice(["manual", "automatic"], 3000),
    "body": rng.choice(["sedan", "suv", "hatchback", "van"], 3000),
})
''',
r'''
enc = OneHotEncoder(sparse=False, handle_unknown="ignore")
onehot = pd.DataFrame(enc.fit_transform(cars), columns=enc.get_feature_names_out())
''',
r'''
enc = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
onehot = pd.DataFrame(enc.fit_transform(cars), columns=enc.get_feature_names_out())
''',
),
(
"sklearn_linear_regression_single_series_feature",
r'''
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(8)
houses = pd.DataFrame({"sqft": rng.integers(400, 4000, 1500)})
houses["price"] = 50_000 + 180 * houses["sqft"] + rng.normal(0, 30_000, 1500)
''',
r'''
reg = LinearRegression().fit(houses["sqft"], houses["price"])
price_per_sqft = reg.coef_[0]
''',
r'''
reg = LinearRegression().fit(houses[["sqft"]], houses["price"])
price_per_sqft = reg.coef_[0]
''',
),
(
"keras_categorical_crossentropy_integer_labels",
r'''
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
X = rng.normal(size=(3000, 12)).astype("float32")
y = (X[:, :4] @ rng.normal(size=(4, 4))).argmax(1)          # integer class ids 0..3
model = keras.Sequential([layers.Input(shape=(12,)), layers.Dense(32, activation="relu"), layers.Dense(4, activation="softmax")])
''',
r'''
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=3, batch_size=64, validation_split=0.2, verbose=0)
''',
r'''
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=3, batch_size=64, validation_split=0.2, verbose=0)
''',
),
(
"torch_cross_entropy_targets_from_float_column",
r'''
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(10)
rng = np.random.default_rng(10)
df = pd.DataFrame(rng.normal(size=(1024, 6)), columns=[f"x{i}" for i in range(6)])
df["label"] = (df["x0"] + df["x1"] > 0).astype(int) + (df["x2"] > 1).astype(int)
df.loc[::97, "label"] = np.nan          # a few unlabeled rows in the raw table
df["label"] = df["label"].fillna(0)     # ... filled, which left the column as float64
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
X = torch.tensor(df[[f"x{i}" for i in range(6)]].to_numpy(), dtype=torch.float32)
''',
r'''
y = torch.tensor(df["label"].to_numpy())
loss = nn.CrossEntropyLoss()(model(X), y)
loss.backward()
opt.step()
''',
r'''
y = torch.tensor(df["label"].to_numpy(), dtype=torch.long)
loss = nn.CrossEntropyLoss()(model(X), y)
loss.backward()
opt.step()
''',
),
(
"torch_bce_logits_target_missing_dim",
r'''
import numpy as np
import torch
from torch import nn

torch.manual_seed(11)
X = torch.randn(512, 20)
y = (X[:, 0] - X[:, 5] > 0).float()           # shape (512,)
model = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.BCEWithLogitsLoss()
''',
r'''
for xb, yb in zip(X.split(64), y.split(64)):
    opt.zero_grad()
    loss = loss_fn(model(xb), yb)
    loss.backward()
    opt.step()
''',
r'''
for xb, yb in zip(X.split(64), y.split(64)):
    opt.zero_grad()
    loss = loss_fn(model(xb).squeeze(1), yb)
    loss.backward()
    opt.step()
''',
),
(
"matplotlib_single_row_subplots_two_index",
r'''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rng = np.random.default_rng(12)
df = pd.DataFrame({
    "age": rng.integers(18, 90, 800),
    "bmi": rng.normal(27, 5, 800),
    "glucose": rng.normal(110, 25, 800),
    "blood_pressure": rng.normal(80, 12, 800),
})
cols = ["age", "bmi", "glucose", "blood_pressure"]
''',
r'''
fig, axes = plt.subplots(1, 4, figsize=(16, 3.5))
for i, col in enumerate(cols):
    axes[0, i].hist(df[col], bins=30, color="steelblue")
    axes[0, i].set_title(col)
fig.tight_layout()
''',
r'''
fig, axes = plt.subplots(1, 4, figsize=(16, 3.5))
for i, col in enumerate(cols):
    axes[i].hist(df[col], bins=30, color="steelblue")
    axes[i].set_title(col)
fig.tight_layout()
''',
),
(
"seaborn_boxplot_capitalised_column_name",
r'''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import seaborn as sns

rng = np.random.default_rng(13)
spend = pd.DataFrame({
    "segment": rng.choice(["new", "returning", "vip"], 1200),
    "spend": rng.gamma(2, 50, 1200),
})
''',
r'''
ax = sns.boxplot(data=spend, x="Segment", y="spend", order=["new", "returning", "vip"])
ax.set_yscale("log")
''',
r'''
ax = sns.boxplot(data=spend, x="segment", y="spend", order=["new", "returning", "vip"])
ax.set_yscale("log")
''',
),
(
"python_per_class_precision_never_predicted",
r'''
import numpy as np

rng = np.random.default_rng(14)
classes = ["cat", "dog", "fox", "owl"]
y_true = list(rng.choice(classes, 600, p=[0.4, 0.4, 0.15, 0.05]))
# the model collapsed onto the frequent classes and never predicts "owl"
y_pred = [t if (t != "owl" and rng.random() < 0.8) else str(rng.choice(["cat", "dog", "fox"])) for t in y_true]
''',
r'''
precision = {}
for c in classes:
    tp = sum(p == c and t == c for p, t in zip(y_pred, y_true))
    fp = sum(p == c and t != c for p, t in zip(y_pred, y_true))
    precision[c] = tp / (tp + fp)
macro_precision = sum(precision.values()) / len(precision)
''',
r'''
precision = {}
for c in classes:
    tp = sum(p == c and t == c for p, t in zip(y_pred, y_true))
    fp = sum(p == c and t != c for p, t in zip(y_pred, y_true))
    precision[c] = tp / (tp + fp) if (tp + fp) else 0.0
macro_precision = sum(precision.values()) / len(precision)
''',
),
(
"python_json_loads_python_repr_attributes",
r'''
import ast
import json

import numpy as np
import pandas as pd

rng = np.random.default_rng(15)
attrs = [{"color": str(rng.choice(["red", "blue", "black"])), "size": str(rng.choice(["S", "M", "L"])), "stock": int(rng.integers(0, 50))}
         for _ in range(1500)]
# the column was written with str(dict), not json.dumps
listings = pd.DataFrame({"sku": [f"SKU{i:05d}" for i in range(1500)], "attributes": [str(a) for a in attrs]})
''',
r'''
parsed = listings["attributes"].apply(json.loads)
attr_df = pd.json_normalize(parsed.tolist())
listings = listings.join(attr_df)
''',
r'''
parsed = listings["attributes"].apply(ast.literal_eval)
attr_df = pd.json_normalize(parsed.tolist())
listings = listings.join(attr_df)
''',
),
]
