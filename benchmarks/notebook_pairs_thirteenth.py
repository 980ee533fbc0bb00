r"""Notebook crash/fix pairs, thirteenth set: 30 realistic Kaggle-style machine-learning notebook failures, each with the small edit that a Kaggle user would make.

Each entry of PAIRS is a tuple (name, setup, crash, fixed):

- name: short identifier, prefixed with the library the notebook is about
  (pandas_, numpy_, sklearn_, keras_, torch_, matplotlib_, seaborn_, xgboost_,
  lightgbm_, python_).
- setup: the earlier notebook cells joined into one string (imports included).
  It runs clean.
- crash: the target cell, as a Kaggle user wrote it. Executed after setup in the
  same namespace, it raises an exception from a library or from Python itself
  (never from an assert or a raise written by the notebook author).
- fixed: the same cell after the user's small fix. Executed after setup in a
  fresh namespace, it runs clean and does the same work.

Indices below are 0-based positions in PAIRS.

How it was made
---------------
The pairs were written by hand, one notebook story each, modelled on common Kaggle
failure modes (removed/renamed APIs and changed defaults in the installed library
versions, data problems that surface only in a late file, group, row or fold,
train/test mismatches, unfitted objects, NaN, shape/layout and label problems).
All data is synthetic and seeded (numpy.random.default_rng, random.seed,
torch.manual_seed, keras.utils.set_random_seed); nothing is downloaded. Files are
written only under the current working directory with relative paths (CSV, JSONL,
.npy, a torch .pt file, Keras .keras files, PNGs); parquet is not used because
pyarrow is not installed.

A checker script ran every pair as two fresh Python processes, one at a time (never
in parallel), each in its own fresh temporary working directory, with
TF_CPP_MIN_LOG_LEVEL=3: setup + crash in one process and setup + fixed in the
other. Each cell was compiled and run with exec() in a plain namespace dict whose
__name__ is "__main__". For the crash run it recorded the exception type and the
time from the start of the crash cell to the exception; for the fixed run that it
ran clean and how long it took. It also checked with ast that setup, crash and
fixed contain no raise or assert statement, and recorded the setup time and the
peak RSS of each process. The full check ran twice on the final file; all 60 runs
were as expected in both rounds, with the same exception type for every pair in
both rounds. Largest setup time: 5.1 s (pair 28); largest peak RSS of any run:
733 MiB (pair 18). Long torch cells call torch.set_num_threads(1) in setup,
XGBoost and scikit-learn forests use n_jobs=1 and LightGBM num_threads=1, so that
timings are stable on the 2-core machine used; Keras/TensorFlow run with their
default threading.

Checked against:
Python 3.11.7, numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1, scipy 1.17.1,
tensorflow 2.21.0 with keras 3.15.1, torch 2.13.0+cpu, matplotlib 3.11.2,
seaborn 0.13.2, xgboost 3.2.0, lightgbm 4.7.0 (pyarrow and torchvision not installed).

Mix by library (30)
-------------------
- pandas (7): 0, 1, 2, 3, 4, 5, 6
- NumPy (3): 7, 8, 9
- scikit-learn (7): 10, 11, 12, 13, 14, 15, 16
- Keras (3): 17, 18, 19
- PyTorch (4): 20, 21, 22, 23
- Matplotlib (1): 26
- seaborn (1): 27
- XGBoost (1): 24
- LightGBM (1): 25
- plain Python (2): 28, 29

Root causes
-----------
API removed, renamed or default changed in the installed versions:
- 1 pandas_dataframe_append_removed (DataFrame.append was removed in pandas 2.0; the fix collects dict rows and builds the frame once) -> AttributeError
- 2 pandas_groupby_mean_text_columns (groupby().mean() has numeric_only=False by default since pandas 2.0, so the Name/Sex/Embarked text columns make the mean fail; fix: numeric_only=True) -> TypeError
- 6 pandas_to_datetime_dayfirst_inferred (pandas 2 infers one datetime format from the first value (month-first for 01/01/2021) and fails at 13/01/2021; fix: format='%d/%m/%Y') -> ValueError
- 9 numpy_trapz_removed_manual_auc (np.trapz was removed in NumPy 2.4; fix: np.trapezoid) -> AttributeError
- 12 sklearn_rf_max_features_auto_removed (max_features='auto' is no longer accepted by RandomForestClassifier; it is the last value of the sweep, so three forests are fitted before it fails; fix: drop it (it was an alias of 'sqrt')) -> sklearn.utils._param_validation.InvalidParameterError
- 14 sklearn_mse_squared_false_removed (mean_squared_error lost its squared= argument; fix: root_mean_squared_error) -> TypeError
- 17 keras_save_without_extension (Keras 3 model.save() needs a .keras or .h5 file name; the bare SavedModel-style name fails after training; fix: add .keras) -> ValueError
- 19 keras_adam_lr_keyword_removed (Keras 3 optimizers no longer accept lr=; fix: learning_rate=) -> ValueError
- 23 torch_load_full_model_weights_only (torch.load defaults to weights_only=True since torch 2.6 and refuses a pickled nn.Sequential; fix: weights_only=False for this trusted local file) -> _pickle.UnpicklingError
- 25 lightgbm_train_early_stopping_kwarg_removed (lgb.train lost early_stopping_rounds= and verbose_eval= in LightGBM 4; fix: lgb.early_stopping / lgb.log_evaluation callbacks) -> TypeError
- 26 matplotlib_style_seaborn_renamed (the 'seaborn' style was renamed 'seaborn-v0_8' in Matplotlib 3.6 and the old name removed in 3.8) -> OSError
- 27 seaborn_scatterplot_positional_xy (seaborn 0.12+ makes x and y keyword-only; fix: x=..., y=...) -> TypeError

Data problems that appear only in a late file, group or row:
- 0 pandas_monthly_csv_thousands_separator (month 33 of 36 CSV exports writes amounts with thousands separators, so the column is read as text and astype(float) fails; fix: read_csv(thousands=',')) -> ValueError
- 4 pandas_pivot_relocated_store_duplicates (store 1117 was relocated and appears under two regions, so after the per-group resampling loop pivot() sees duplicate (date, store) pairs; fix: pivot_table(aggfunc='sum')) -> ValueError
- 7 numpy_ragged_subject_feature_stack (subject 117 of 120 has a shorter recording, so its feature vector is shorter and np.array on the ragged list fails after all features are built; fix: truncate to the common length) -> ValueError
- 8 numpy_mahalanobis_dead_sensor_singular (machine 37 of 40 has a dead sensor stuck at 0.0, so its covariance matrix is singular and np.linalg.inv fails; fix: np.linalg.pinv) -> numpy.linalg.LinAlgError
- 18 keras_per_region_to_categorical_width (the last of six regions has no class-4 rows, so to_categorical infers 4 columns while the model outputs 5; fix: num_classes=5) -> ValueError
- 22 torch_collate_channels_last_tile (tile 1640 of 1700 was saved channels-last (64, 64, 3), so default_collate cannot stack its batch; fix: transpose HWC tiles in __getitem__) -> RuntimeError
- 28 python_jsonl_blank_line_late_file (log file 18 of 20 contains a blank line in the middle, and json.loads('\n') fails; fix: skip blank lines) -> json.decoder.JSONDecodeError

Train/test mismatch and unfitted objects:
- 11 sklearn_onehot_unknown_test_category (the test set has a payment method ('wallet') never seen in train, and OneHotEncoder defaults to handle_unknown='error'; the forest is fully fitted before predict fails; fix: handle_unknown='ignore') -> ValueError
- 13 sklearn_new_scaler_not_fitted (the test cell creates a new, unfitted StandardScaler instead of reusing the fitted one) -> sklearn.exceptions.NotFittedError
- 24 xgboost_test_columns_reordered_by_merge (the test frame is built by a merge in the other direction, so its columns come in a different order and XGBoost's feature-name check fails after training; fix: X_test[X_train.columns]) -> ValueError

Label and class-distribution problems:
- 10 sklearn_unshuffled_kfold_sorted_labels (KFold without shuffle on a file sorted by label: folds 0-3 train fine, but fold 4's training part holds only class 0 and SGDClassifier refuses it; fix: shuffle=True) -> ValueError
- 16 sklearn_stratify_singleton_class (one category has a single listing, so stratified train_test_split cannot place it; fix: drop classes with fewer than 2 rows) -> ValueError

Missing values:
- 3 pandas_lag_features_int_downcast_nan (lag features made with groupby().shift() are NaN at the start of each series, so the int32 downcast after the heavy lag/rolling work fails; fix: fillna(-1) first) -> pandas.errors.IntCastingNaNError

Shape, layout and batch-size problems:
- 15 sklearn_scaler_single_column_1d (MinMaxScaler().fit_transform(df['Age']) passes a 1-D Series; fix: df[['Age']]) -> ValueError
- 20 torch_batchnorm_holdout_single_row_batch (after 10 training epochs the hold-out predictions are made without model.eval(), and the hold-out set has 256*40+1 rows, so BatchNorm in training mode gets a last batch of one row; fix: model.eval() and torch.no_grad()) -> ValueError

Index and label semantics:
- 5 pandas_filtered_series_label_zero (disaster[0] on a filtered Series looks up the label 0, which was filtered out; fix: .iloc[0]) -> KeyError

Step-count bookkeeping:
- 21 torch_onecycle_steps_per_epoch_short (OneCycleLR gets steps_per_epoch=len(train_ds)//BATCH, but the DataLoader keeps the partial last batch, so the scheduler runs out of steps near the end of the 8th epoch; fix: steps_per_epoch=len(train_loader)) -> ValueError

Plain Python semantics:
- 29 python_dict_pruned_during_iteration (deleting rare tokens from the vocab dict while iterating over it; fix: iterate over list(vocab.items())) -> RuntimeError

Long and short
--------------
15 long pairs: the crash cell does 2-5 s of real work and raises late in it
(crash times, final round 1 / final round 2; fixed-cell times in brackets).
Range of the long crash times over both rounds: 2.59-4.00 s.
- 0 pandas_monthly_csv_thousands_separator: 2.87 s / 3.43 s [fixed 3.44 s / 3.74 s]
- 3 pandas_lag_features_int_downcast_nan: 2.76 s / 3.04 s [fixed 2.78 s / 2.81 s]
- 4 pandas_pivot_relocated_store_duplicates: 3.11 s / 3.27 s [fixed 3.08 s / 3.04 s]
- 7 numpy_ragged_subject_feature_stack: 2.79 s / 2.81 s [fixed 2.83 s / 2.64 s]
- 8 numpy_mahalanobis_dead_sensor_singular: 3.06 s / 3.15 s [fixed 3.43 s / 3.08 s]
- 10 sklearn_unshuffled_kfold_sorted_labels: 3.15 s / 2.70 s [fixed 3.55 s / 3.55 s]
- 11 sklearn_onehot_unknown_test_category: 3.56 s / 3.22 s [fixed 4.04 s / 3.42 s]
- 12 sklearn_rf_max_features_auto_removed: 3.75 s / 3.37 s [fixed 3.44 s / 3.29 s]
- 17 keras_save_without_extension: 4.00 s / 2.59 s [fixed 3.41 s / 3.68 s]
- 18 keras_per_region_to_categorical_width: 3.88 s / 3.67 s [fixed 4.68 s / 4.68 s]
- 20 torch_batchnorm_holdout_single_row_batch: 3.25 s / 3.47 s [fixed 3.10 s / 3.34 s]
- 21 torch_onecycle_steps_per_epoch_short: 2.93 s / 2.83 s [fixed 2.97 s / 2.81 s]
- 22 torch_collate_channels_last_tile: 3.30 s / 2.69 s [fixed 2.84 s / 2.83 s]
- 24 xgboost_test_columns_reordered_by_merge: 3.40 s / 3.22 s [fixed 4.16 s / 3.22 s]
- 28 python_jsonl_blank_line_late_file: 3.52 s / 3.19 s [fixed 3.70 s / 3.68 s]

15 short pairs: the crash cell raises in under 1 s (largest: 0.01 s).
- 1 pandas_dataframe_append_removed: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
- 2 pandas_groupby_mean_text_columns: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
- 5 pandas_filtered_series_label_zero: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
- 6 pandas_to_datetime_dayfirst_inferred: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
- 9 numpy_trapz_removed_manual_auc: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
- 13 sklearn_new_scaler_not_fitted: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
- 14 sklearn_mse_squared_false_removed: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
- 15 sklearn_scaler_single_column_1d: 0.01 s / 0.01 s [fixed 0.01 s / 0.01 s]
- 16 sklearn_stratify_singleton_class: 0.01 s / 0.01 s [fixed 0.02 s / 0.01 s]
- 19 keras_adam_lr_keyword_removed: 0.00 s / 0.00 s [fixed 0.01 s / 0.01 s]
- 23 torch_load_full_model_weights_only: 0.00 s / 0.00 s [fixed 0.00 s / 0.01 s]
- 25 lightgbm_train_early_stopping_kwarg_removed: 0.00 s / 0.00 s [fixed 0.27 s / 0.24 s]
- 26 matplotlib_style_seaborn_renamed: 0.00 s / 0.00 s [fixed 0.06 s / 0.05 s]
- 27 seaborn_scatterplot_positional_xy: 0.01 s / 0.01 s [fixed 0.05 s / 0.05 s]
- 29 python_dict_pruned_during_iteration: 0.00 s / 0.00 s [fixed 0.00 s / 0.00 s]
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup, crash, fixed))


# [0] pandas: monthly transaction exports are aggregated per customer; the month-33 export wrote amounts with thousands separators.
_add("pandas_monthly_csv_thousands_separator", r'''
import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(13)
os.makedirs("transactions", exist_ok=True)
n_rows = 120_000
for m in range(36):
    df = pd.DataFrame({
        "customer_id": rng.integers(0, 5_000, n_rows),
        "merchant": rng.choice(["grocery", "fuel", "online", "travel", "dining", "pharmacy"], n_rows),
        "amount": np.round(rng.lognormal(3.5, 1.2, n_rows), 2),
        "is_fraud": (rng.random(n_rows) < 0.01).astype(int),
    })
    if m == 33:
        # this month came from the new reporting tool
        df["amount"] = df["amount"].map("{:,.2f}".format)
    df.to_csv(f"transactions/month_{m:02d}.csv", index=False)
files = sorted(os.listdir("transactions"))
print(len(files), "monthly files")
''', r'''
monthly_feats = []
for fname in files:
    df = pd.read_csv(os.path.join("transactions", fname))
    df["amount"] = df["amount"].astype(float)
    df["log_amount"] = np.log1p(df["amount"])
    df["amount_rank"] = df.groupby("merchant")["amount"].rank(pct=True)
    df["cust_rank"] = df.groupby("customer_id")["amount"].rank(pct=True)
    agg = df.groupby("customer_id").agg(
        n_tx=("amount", "size"),
        total=("amount", "sum"),
        mean_log=("log_amount", "mean"),
        max_rank=("amount_rank", "max"),
        last_rank=("cust_rank", "last"),
        n_merchants=("merchant", "nunique"),
        fraud_rate=("is_fraud", "mean"),
    )
    df["merchant_share"] = df["amount"] / df.groupby(["customer_id", "merchant"])["amount"].transform("sum")
    df["cust_median"] = df.groupby("customer_id")["amount"].transform("median")
    agg["top_share"] = df.groupby("customer_id")["merchant_share"].max()
    agg["above_median"] = (df["amount"] > df["cust_median"]).groupby(df["customer_id"]).mean()
    agg["p90"] = df.groupby("customer_id")["amount"].quantile(0.9)
    agg = agg.join(df.pivot_table(index="customer_id", columns="merchant", values="amount",
                                  aggfunc="sum", fill_value=0).add_prefix("spend_"))
    agg["month"] = fname[6:8]
    monthly_feats.append(agg.reset_index())
features = pd.concat(monthly_feats, ignore_index=True)
print(features.shape)
''', r'''
monthly_feats = []
for fname in files:
    df = pd.read_csv(os.path.join("transactions", fname), thousands=",")
    df["amount"] = df["amount"].astype(float)
    df["log_amount"] = np.log1p(df["amount"])
    df["amount_rank"] = df.groupby("merchant")["amount"].rank(pct=True)
    df["cust_rank"] = df.groupby("customer_id")["amount"].rank(pct=True)
    agg = df.groupby("customer_id").agg(
        n_tx=("amount", "size"),
        total=("amount", "sum"),
        mean_log=("log_amount", "mean"),
        max_rank=("amount_rank", "max"),
        last_rank=("cust_rank", "last"),
        n_merchants=("merchant", "nunique"),
        fraud_rate=("is_fraud", "mean"),
    )
    df["merchant_share"] = df["amount"] / df.groupby(["customer_id", "merchant"])["amount"].transform("sum")
    df["cust_median"] = df.groupby("customer_id")["amount"].transform("median")
    agg["top_share"] = df.groupby("customer_id")["merchant_share"].max()
    agg["above_median"] = (df["amount"] > df["cust_median"]).groupby(df["customer_id"]).mean()
    agg["p90"] = df.groupby("customer_id")["amount"].quantile(0.9)
    agg = agg.join(df.pivot_table(index="customer_id", columns="merchant", values="amount",
                                  aggfunc="sum", fill_value=0).add_prefix("spend_"))
    agg["month"] = fname[6:8]
    monthly_feats.append(agg.reset_index())
features = pd.concat(monthly_feats, ignore_index=True)
print(features.shape)
''')

# [1] pandas: collecting model scores into a leaderboard with DataFrame.append, which pandas 2 removed.
_add("pandas_dataframe_append_removed", r'''
import numpy as np
import pandas as pd
from sklearn.datasets import make_regression
from sklearn.model_selection import train_test_split
from sklearn.linear_model import Ridge, Lasso
from sklearn.tree import DecisionTreeRegressor
from sklearn.metrics import mean_absolute_error, r2_score

X, y = make_regression(n_samples=2_000, n_features=15, noise=12.0, random_state=7)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=7)
models = {
    "ridge": Ridge(alpha=1.0),
    "lasso": Lasso(alpha=0.5),
    "tree": DecisionTreeRegressor(max_depth=6, random_state=7),
}
fitted = {name: m.fit(X_tr, y_tr) for name, m in models.items()}
''', r'''
leaderboard = pd.DataFrame(columns=["model", "mae", "r2"])
for name, model in fitted.items():
    pred = model.predict(X_va)
    leaderboard = leaderboard.append(
        {"model": name, "mae": mean_absolute_error(y_va, pred), "r2": r2_score(y_va, pred)},
        ignore_index=True,
    )
leaderboard.sort_values("mae")
''', r'''
rows = []
for name, model in fitted.items():
    pred = model.predict(X_va)
    rows.append({"model": name, "mae": mean_absolute_error(y_va, pred), "r2": r2_score(y_va, pred)})
leaderboard = pd.DataFrame(rows, columns=["model", "mae", "r2"])
leaderboard.sort_values("mae")
''')

# [2] pandas: Titanic-style EDA, groupby().mean() over a frame that still has Name/Sex/Embarked text columns (numeric_only default is False in pandas 2).
_add("pandas_groupby_mean_text_columns", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2)
n = 891
train = pd.DataFrame({
    "PassengerId": np.arange(1, n + 1),
    "Survived": rng.integers(0, 2, n),
    "Pclass": rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    "Name": [f"Passenger, Mr. No{i}" for i in range(n)],
    "Sex": rng.choice(["male", "female"], n, p=[0.65, 0.35]),
    "Age": np.where(rng.random(n) < 0.2, np.nan, rng.normal(30, 14, n).clip(0.4, 80).round(1)),
    "SibSp": rng.poisson(0.5, n),
    "Fare": np.round(rng.lognormal(2.9, 1.0, n), 4),
    "Embarked": rng.choice(["S", "C", "Q"], n, p=[0.72, 0.19, 0.09]),
})
''', r'''
class_stats = train.groupby("Pclass").mean()
class_stats[["Survived", "Age", "Fare"]]
''', r'''
class_stats = train.groupby("Pclass").mean(numeric_only=True)
class_stats[["Survived", "Age", "Fare"]]
''')

# [3] pandas: store-item lag/rolling features are built per group, then downcast to int32 to save memory; the shifted lags are NaN at the start of each series.
_add("pandas_lag_features_int_downcast_nan", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
dates = pd.date_range("2022-01-01", periods=730, freq="D")
stores, items = 10, 200
idx = pd.MultiIndex.from_product([range(stores), range(items), dates], names=["store", "item", "date"])
sales = pd.DataFrame(index=idx).reset_index()
base = rng.gamma(2.0, 8.0, stores * items).repeat(len(dates))
season = 1 + 0.3 * np.sin(2 * np.pi * sales["date"].dt.dayofyear.to_numpy() / 365)
sales["sales"] = rng.poisson(base * season).astype("int64")
sales = sales.sort_values(["store", "item", "date"]).reset_index(drop=True)
print(sales.shape)
''', r'''
g = sales.groupby(["store", "item"])["sales"]
for lag in [1, 7, 14, 28]:
    sales[f"lag_{lag}"] = g.shift(lag)
for w in [7, 14, 28, 56]:
    sales[f"rmean_{w}"] = g.transform(lambda s: s.shift(1).rolling(w).mean())
    sales[f"rstd_{w}"] = g.transform(lambda s: s.shift(1).rolling(w).std())
sales["dow"] = sales["date"].dt.dayofweek
sales["month"] = sales["date"].dt.month

lag_cols = [c for c in sales.columns if c.startswith("lag_")]
sales[lag_cols] = sales[lag_cols].astype("int32")
sales.info(memory_usage="deep")
''', r'''
g = sales.groupby(["store", "item"])["sales"]
for lag in [1, 7, 14, 28]:
    sales[f"lag_{lag}"] = g.shift(lag)
for w in [7, 14, 28, 56]:
    sales[f"rmean_{w}"] = g.transform(lambda s: s.shift(1).rolling(w).mean())
    sales[f"rstd_{w}"] = g.transform(lambda s: s.shift(1).rolling(w).std())
sales["dow"] = sales["date"].dt.dayofweek
sales["month"] = sales["date"].dt.month

lag_cols = [c for c in sales.columns if c.startswith("lag_")]
sales[lag_cols] = sales[lag_cols].fillna(-1).astype("int32")
sales.info(memory_usage="deep")
''')

# [4] pandas: per (region, store) daily resampling loop, then pivot to a date x store matrix; store 1117 was relocated and appears under two regions, so pivot sees duplicate (date, store) pairs.
_add("pandas_pivot_relocated_store_duplicates", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4)
rows = []
for store in range(1150):
    region = f"R{store % 6}"
    n = 3_000
    ts = pd.Timestamp("2023-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 365 * 24 * 60, n)), unit="min")
    part = pd.DataFrame({"store": store, "region": region, "ts": ts,
                         "basket": np.round(rng.lognormal(3.0, 0.7, n), 2)})
    if store == 1117:
        # moved to a new region in July; the POS system re-tagged the rows but kept old ones too
        moved = part[part["ts"] >= "2023-07-01"].copy()
        moved["region"] = "R_new"
        part = pd.concat([part, moved])
    rows.append(part)
tx = pd.concat(rows, ignore_index=True)
print(tx.shape)
''', r'''
daily_parts = []
for (region, store), grp in tx.groupby(["region", "store"]):
    d = grp.set_index("ts")["basket"].resample("D").agg(["sum", "count", "mean", "median", "max"])
    d = d.reindex(pd.date_range("2023-01-01", "2023-12-31", freq="D"), fill_value=0)
    d["sum_ewm"] = d["sum"].ewm(span=14).mean()
    d["sum_r28"] = d["sum"].rolling(28, min_periods=1).median()
    d["region"], d["store"] = region, store
    daily_parts.append(d.rename_axis("date").reset_index())
daily = pd.concat(daily_parts, ignore_index=True)
matrix = daily.pivot(index="date", columns="store", values="sum_ewm")
print(matrix.shape)
''', r'''
daily_parts = []
for (region, store), grp in tx.groupby(["region", "store"]):
    d = grp.set_index("ts")["basket"].resample("D").agg(["sum", "count", "mean", "median", "max"])
    d = d.reindex(pd.date_range("2023-01-01", "2023-12-31", freq="D"), fill_value=0)
    d["sum_ewm"] = d["sum"].ewm(span=14).mean()
    d["sum_r28"] = d["sum"].rolling(28, min_periods=1).median()
    d["region"], d["store"] = region, store
    daily_parts.append(d.rename_axis("date").reset_index())
daily = pd.concat(daily_parts, ignore_index=True)
matrix = daily.pivot_table(index="date", columns="store", values="sum_ewm", aggfunc="sum")
print(matrix.shape)
''')

# [5] pandas: peeking at the first positive tweet with [0] on a filtered Series whose index labels no longer include 0.
_add("pandas_filtered_series_label_zero", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
words = ["fire", "flood", "storm", "happy", "sunny", "lunch", "earthquake", "traffic", "concert", "evacuate"]
tweets = pd.DataFrame({
    "id": np.arange(500),
    "text": [" ".join(rng.choice(words, 6)) for _ in range(500)],
    "target": rng.integers(0, 2, 500),
})
tweets.loc[0, "target"] = 0
''', r'''
disaster = tweets[tweets["target"] == 1]["text"]
print("example disaster tweet:", disaster[0])
print("n disaster tweets:", len(disaster))
''', r'''
disaster = tweets[tweets["target"] == 1]["text"]
print("example disaster tweet:", disaster.iloc[0])
print("n disaster tweets:", len(disaster))
''')

# [6] pandas: European-style dd/mm/yyyy dates; pandas 2 infers month-first from the first value and fails at the first day > 12.
_add("pandas_to_datetime_dayfirst_inferred", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6)
days = pd.date_range("2021-01-01", periods=400, freq="D")
orders = pd.DataFrame({
    "order_date": days.strftime("%d/%m/%Y"),
    "units": rng.poisson(20, len(days)),
})
''', r'''
orders["order_date"] = pd.to_datetime(orders["order_date"])
weekly = orders.set_index("order_date")["units"].resample("W").sum()
weekly.tail()
''', r'''
orders["order_date"] = pd.to_datetime(orders["order_date"], format="%d/%m/%Y")
weekly = orders.set_index("order_date")["units"].resample("W").sum()
weekly.tail()
''')

# [7] numpy: per-subject accelerometer band-power features are stacked into one matrix; subject 117's recording was cut short, so its feature vector is shorter and np.array sees a ragged list.
_add("numpy_ragged_subject_feature_stack", r'''
import numpy as np

rng = np.random.default_rng(7)
fs, win = 50, 256
recordings = {}
for subj in range(120):
    n_samples = 3600 * fs if subj != 117 else 3240 * fs   # subject 117 stopped recording early
    t = np.arange(n_samples) / fs
    sig = np.sin(2 * np.pi * rng.uniform(0.8, 2.5) * t)[:, None] + 0.5 * rng.standard_normal((n_samples, 3))
    recordings[subj] = sig.astype(np.float32)
bands = [(0.5, 3), (3, 8), (8, 15), (15, 25)]
freqs = np.fft.rfftfreq(win, 1 / fs)
''', r'''
features, subjects = [], []
for subj, sig in recordings.items():
    n_win = (len(sig) - win) // (win // 2) + 1
    frames = np.stack([sig[i * win // 2: i * win // 2 + win] for i in range(n_win)])   # (n_win, win, 3)
    frames = frames - frames.mean(axis=1, keepdims=True)
    spec = np.abs(np.fft.rfft(frames * np.hanning(win)[None, :, None], axis=1)) ** 2
    bp = np.stack([spec[:, (freqs >= lo) & (freqs < hi)].sum(axis=1) for lo, hi in bands], axis=1)
    p = spec / spec.sum(axis=1, keepdims=True)
    entropy = -(p * np.log(p + 1e-12)).sum(axis=1)                       # (n_win, 3)
    centroid = (p * freqs[None, :, None]).sum(axis=1)                     # (n_win, 3)
    log_bp = np.concatenate([np.log(bp + 1e-8).reshape(n_win, -1), entropy, centroid], axis=1)
    smooth = np.apply_along_axis(lambda x: np.convolve(x, np.ones(5) / 5, mode="same"), 0, log_bp)
    features.append(smooth.ravel())
    subjects.append(subj)
X = np.array(features, dtype=np.float32)
print(X.shape)
''', r'''
features, subjects = [], []
for subj, sig in recordings.items():
    n_win = (len(sig) - win) // (win // 2) + 1
    frames = np.stack([sig[i * win // 2: i * win // 2 + win] for i in range(n_win)])   # (n_win, win, 3)
    frames = frames - frames.mean(axis=1, keepdims=True)
    spec = np.abs(np.fft.rfft(frames * np.hanning(win)[None, :, None], axis=1)) ** 2
    bp = np.stack([spec[:, (freqs >= lo) & (freqs < hi)].sum(axis=1) for lo, hi in bands], axis=1)
    p = spec / spec.sum(axis=1, keepdims=True)
    entropy = -(p * np.log(p + 1e-12)).sum(axis=1)                       # (n_win, 3)
    centroid = (p * freqs[None, :, None]).sum(axis=1)                     # (n_win, 3)
    log_bp = np.concatenate([np.log(bp + 1e-8).reshape(n_win, -1), entropy, centroid], axis=1)
    smooth = np.apply_along_axis(lambda x: np.convolve(x, np.ones(5) / 5, mode="same"), 0, log_bp)
    features.append(smooth.ravel())
    subjects.append(subj)
min_len = min(len(f) for f in features)
X = np.array([f[:min_len] for f in features], dtype=np.float32)
print(X.shape)
''')

# [8] numpy: per-machine Mahalanobis anomaly scores; machine 37 has a dead sensor stuck at 0.0, so its covariance matrix is singular and np.linalg.inv fails.
_add("numpy_mahalanobis_dead_sensor_singular", r'''
import numpy as np

rng = np.random.default_rng(8)
n_machines, n_obs, n_sensors = 40, 55_000, 24
mix = rng.normal(0, 0.4, (n_sensors, n_sensors)) + np.eye(n_sensors)
readings = {}
for m in range(n_machines):
    x = rng.standard_normal((n_obs, n_sensors)) @ mix + rng.normal(0, 2, n_sensors)
    if m == 37:
        x[:, 11] = 0.0          # sensor 11 died on this machine
    readings[m] = x
''', r'''
scores, flagged = {}, {}
for m, x in readings.items():
    mu = x.mean(axis=0)
    xc = x - mu
    cov = (xc.T @ xc) / (len(x) - 1)
    cov_inv = np.linalg.inv(cov)
    d2 = np.einsum("ij,jk,ik->i", xc, cov_inv, xc)
    z = (x - np.median(x, axis=0)) / (np.percentile(x, 75, axis=0) - np.percentile(x, 25, axis=0) + 1e-9)
    scores[m] = np.sqrt(d2)
    flagged[m] = int((scores[m] > np.quantile(scores[m], 0.999)).sum() + (np.abs(z) > 6).any(axis=1).sum())
print(sum(flagged.values()), "flagged readings")
''', r'''
scores, flagged = {}, {}
for m, x in readings.items():
    mu = x.mean(axis=0)
    xc = x - mu
    cov = (xc.T @ xc) / (len(x) - 1)
    cov_inv = np.linalg.pinv(cov)
    d2 = np.einsum("ij,jk,ik->i", xc, cov_inv, xc)
    z = (x - np.median(x, axis=0)) / (np.percentile(x, 75, axis=0) - np.percentile(x, 25, axis=0) + 1e-9)
    scores[m] = np.sqrt(d2)
    flagged[m] = int((scores[m] > np.quantile(scores[m], 0.999)).sum() + (np.abs(z) > 6).any(axis=1).sum())
print(sum(flagged.values()), "flagged readings")
''')

# [9] numpy: hand-rolled ROC AUC with np.trapz, which NumPy 2.4 removed (np.trapezoid is the replacement).
_add("numpy_trapz_removed_manual_auc", r'''
import numpy as np

rng = np.random.default_rng(9)
y_true = rng.integers(0, 2, 3_000)
y_score = np.clip(0.35 * y_true + rng.normal(0.4, 0.25, 3_000), 0, 1)
thresholds = np.linspace(1, 0, 201)
tpr = np.array([((y_score >= t) & (y_true == 1)).sum() / (y_true == 1).sum() for t in thresholds])
fpr = np.array([((y_score >= t) & (y_true == 0)).sum() / (y_true == 0).sum() for t in thresholds])
''', r'''
auc = np.trapz(tpr, fpr)
print(f"manual AUC = {auc:.4f}")
''', r'''
auc = np.trapezoid(tpr, fpr)
print(f"manual AUC = {auc:.4f}")
''')

# [10] scikit-learn: manual 5-fold CV with an unshuffled KFold over a file sorted by the label; the last fold's training part holds only class 0.
_add("sklearn_unshuffled_kfold_sorted_labels", r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, PolynomialFeatures
from sklearn.linear_model import SGDClassifier
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(10)
n, d = 100_000, 12
X = rng.standard_normal((n, d))
logit = X[:, 0] - 0.8 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3]
y = (logit > np.quantile(logit, 0.8)).astype(int)        # 20% positives
df = pd.DataFrame(X, columns=[f"f{i}" for i in range(d)]).assign(target=y)
df = df.sort_values("target", kind="stable").reset_index(drop=True)   # export came sorted by label
features = [c for c in df.columns if c != "target"]
''', r'''
kf = KFold(n_splits=5)
oof = np.zeros(len(df))
for fold, (tr_idx, va_idx) in enumerate(kf.split(df)):
    model = make_pipeline(PolynomialFeatures(degree=2), StandardScaler(),
                          SGDClassifier(loss="log_loss", alpha=1e-4, max_iter=20, tol=None, random_state=0))
    model.fit(df.loc[tr_idx, features], df.loc[tr_idx, "target"])
    oof[va_idx] = model.predict_proba(df.loc[va_idx, features])[:, 1]
    print(f"fold {fold}: done")
print("OOF AUC:", roc_auc_score(df["target"], oof))
''', r'''
kf = KFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(df))
for fold, (tr_idx, va_idx) in enumerate(kf.split(df)):
    model = make_pipeline(PolynomialFeatures(degree=2), StandardScaler(),
                          SGDClassifier(loss="log_loss", alpha=1e-4, max_iter=20, tol=None, random_state=0))
    model.fit(df.loc[tr_idx, features], df.loc[tr_idx, "target"])
    oof[va_idx] = model.predict_proba(df.loc[va_idx, features])[:, 1]
    print(f"fold {fold}: done")
print("OOF AUC:", roc_auc_score(df["target"], oof))
''')

# [11] scikit-learn: a OneHotEncoder + RandomForest pipeline is fitted on train, then the test set brings a payment method that never appeared in train.
_add("sklearn_onehot_unknown_test_category", r'''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.ensemble import RandomForestClassifier

rng = np.random.default_rng(11)
def make_frame(n, payments):
    return pd.DataFrame({
        "payment": rng.choice(payments, n),
        "plan": rng.choice(["basic", "standard", "premium"], n),
        "region": rng.choice(["north", "south", "east", "west"], n),
        "tenure": rng.integers(1, 72, n),
        "monthly": rng.normal(65, 20, n).round(2),
        "tickets": rng.poisson(1.2, n),
    })
train = make_frame(40_000, ["card", "bank", "check"])
train["churn"] = ((train["tenure"] < 12) ^ (rng.random(len(train)) < 0.15)).astype(int)
test = make_frame(8_000, ["card", "bank", "check", "wallet"])   # new payment option launched after the train cut-off
cat_cols, num_cols = ["payment", "plan", "region"], ["tenure", "monthly", "tickets"]
''', r'''
pre = ColumnTransformer([("cat", OneHotEncoder(), cat_cols), ("num", "passthrough", num_cols)])
clf = Pipeline([("pre", pre),
                ("rf", RandomForestClassifier(n_estimators=150, min_samples_leaf=2, n_jobs=1, random_state=0))])
clf.fit(train[cat_cols + num_cols], train["churn"])
test["churn_proba"] = clf.predict_proba(test[cat_cols + num_cols])[:, 1]
test["churn_proba"].describe()
''', r'''
pre = ColumnTransformer([("cat", OneHotEncoder(handle_unknown="ignore"), cat_cols), ("num", "passthrough", num_cols)])
clf = Pipeline([("pre", pre),
                ("rf", RandomForestClassifier(n_estimators=150, min_samples_leaf=2, n_jobs=1, random_state=0))])
clf.fit(train[cat_cols + num_cols], train["churn"])
test["churn_proba"] = clf.predict_proba(test[cat_cols + num_cols])[:, 1]
test["churn_proba"].describe()
''')

# [12] scikit-learn: a max_features sweep copied from an old kernel ends with 'auto' (an old alias of 'sqrt' for classifiers), which RandomForest no longer accepts; the fix drops it.
_add("sklearn_rf_max_features_auto_removed", r'''
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score

X, y = make_classification(n_samples=5_000, n_features=30, n_informative=12, random_state=12)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=12)
''', r'''
results = {}
for mf in [0.5, "sqrt", "log2", "auto"]:
    rf = RandomForestClassifier(n_estimators=80, max_features=mf, n_jobs=1, random_state=0)
    rf.fit(X_tr, y_tr)
    results[mf] = accuracy_score(y_va, rf.predict(X_va))
    print(mf, round(results[mf], 4))
best_mf = max(results, key=results.get)
''', r'''
results = {}
for mf in [0.5, "sqrt", "log2"]:
    rf = RandomForestClassifier(n_estimators=80, max_features=mf, n_jobs=1, random_state=0)
    rf.fit(X_tr, y_tr)
    results[mf] = accuracy_score(y_va, rf.predict(X_va))
    print(mf, round(results[mf], 4))
best_mf = max(results, key=results.get)
''')

# [13] scikit-learn: the test cell creates a brand-new StandardScaler and calls transform on it instead of reusing the fitted one.
_add("sklearn_new_scaler_not_fitted", r'''
import numpy as np
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression

rng = np.random.default_rng(13)
X_train = rng.normal(50, 10, (2_000, 8))
y_train = (X_train[:, 0] + rng.normal(0, 5, 2_000) > 50).astype(int)
X_test = rng.normal(50, 10, (500, 8))
scaler = StandardScaler()
X_train_s = scaler.fit_transform(X_train)
model = LogisticRegression().fit(X_train_s, y_train)
''', r'''
test_scaler = StandardScaler()
X_test_s = test_scaler.transform(X_test)
preds = model.predict(X_test_s)
preds.mean()
''', r'''
X_test_s = scaler.transform(X_test)
preds = model.predict(X_test_s)
preds.mean()
''')

# [14] scikit-learn: RMSE via mean_squared_error(..., squared=False); the squared argument was removed (root_mean_squared_error replaces it).
_add("sklearn_mse_squared_false_removed", r'''
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.metrics import mean_squared_error, root_mean_squared_error

rng = np.random.default_rng(14)
X = rng.standard_normal((3_000, 10))
y = X @ rng.normal(0, 2, 10) + rng.normal(0, 1.5, 3_000)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, random_state=14)
reg = Ridge(alpha=3.0).fit(X_tr, y_tr)
''', r'''
rmse = mean_squared_error(y_va, reg.predict(X_va), squared=False)
print(f"validation RMSE: {rmse:.3f}")
''', r'''
rmse = root_mean_squared_error(y_va, reg.predict(X_va))
print(f"validation RMSE: {rmse:.3f}")
''')

# [15] scikit-learn: scaling a single column with MinMaxScaler().fit_transform(df["Age"]) passes a 1-D Series.
_add("sklearn_scaler_single_column_1d", r'''
import numpy as np
import pandas as pd
from sklearn.preprocessing import MinMaxScaler

rng = np.random.default_rng(15)
df = pd.DataFrame({
    "Age": rng.normal(38, 12, 1_500).clip(18, 90).round(),
    "Income": rng.lognormal(10.5, 0.5, 1_500).round(-2),
    "Score": rng.integers(300, 850, 1_500),
})
''', r'''
age_scaler = MinMaxScaler()
df["Age_scaled"] = age_scaler.fit_transform(df["Age"])
df[["Age", "Age_scaled"]].describe()
''', r'''
age_scaler = MinMaxScaler()
df["Age_scaled"] = age_scaler.fit_transform(df[["Age"]])
df[["Age", "Age_scaled"]].describe()
''')

# [16] scikit-learn: stratified train/test split on a product-category label where one category has a single listing.
_add("sklearn_stratify_singleton_class", r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(16)
cats = ["electronics", "books", "toys", "garden", "kitchen", "sports"]
listings = pd.DataFrame({
    "title_len": rng.integers(10, 120, 2_400),
    "price": rng.lognormal(3, 1, 2_400).round(2),
    "n_images": rng.integers(1, 12, 2_400),
    "category": rng.choice(cats, 2_400, p=[0.3, 0.25, 0.15, 0.1, 0.1, 0.1]),
})
listings.loc[len(listings)] = [55, 1999.0, 3, "musical_instruments"]   # one odd listing
''', r'''
X = listings.drop(columns="category")
y = listings["category"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=16)
y_tr.value_counts(normalize=True).round(3)
''', r'''
listings = listings[listings.groupby("category")["category"].transform("size") > 1]
X = listings.drop(columns="category")
y = listings["category"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=16)
y_tr.value_counts(normalize=True).round(3)
''')

# [17] keras: after training, the model is saved with a bare name as in TF2 SavedModel days; Keras 3 model.save() needs a .keras (or .h5) extension.
_add("keras_save_without_extension", r'''
import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
X = rng.standard_normal((60_000, 40)).astype("float32")
w = rng.normal(0, 1, (40, 3))
y = np.argmax(X @ w + rng.normal(0, 0.5, (60_000, 3)), axis=1)
model = keras.Sequential([
    keras.Input((40,)),
    keras.layers.Dense(256, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dense(3, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
''', r'''
history = model.fit(X, y, validation_split=0.1, epochs=4, batch_size=128, verbose=0)
print("val acc:", history.history["val_accuracy"][-1])
model.save("tabular_mlp_v1")
''', r'''
history = model.fit(X, y, validation_split=0.1, epochs=4, batch_size=128, verbose=0)
print("val acc:", history.history["val_accuracy"][-1])
model.save("tabular_mlp_v1.keras")
''')

# [18] keras: one classifier per region, labels one-hot encoded with to_categorical per region; the last region has no class-4 rows, so its targets are 4 wide while the model outputs 5.
_add("keras_per_region_to_categorical_width", r'''
import numpy as np
import pandas as pd
from tensorflow import keras

keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
regions = ["north", "south", "east", "west", "central", "islands"]
frames = []
for r in regions:
    n = 3_000
    X = rng.standard_normal((n, 20)).astype("float32")
    probs = [0.3, 0.25, 0.2, 0.15, 0.1] if r != "islands" else [0.35, 0.3, 0.2, 0.15, 0.0]
    frames.append(pd.DataFrame(X, columns=[f"x{i}" for i in range(20)]).assign(
        region=r, label=rng.choice(5, n, p=probs)))
data = pd.concat(frames, ignore_index=True)
feat_cols = [f"x{i}" for i in range(20)]
NUM_CLASSES = 5

def build_model():
    m = keras.Sequential([keras.Input((20,)),
                          keras.layers.Dense(128, activation="relu"),
                          keras.layers.Dense(64, activation="relu"),
                          keras.layers.Dense(NUM_CLASSES, activation="softmax")])
    m.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
    return m
''', r'''
region_models = {}
for r in regions:
    part = data[data["region"] == r]
    X_r = part[feat_cols].to_numpy()
    y_r = keras.utils.to_categorical(part["label"].to_numpy())
    m = build_model()
    m.fit(X_r, y_r, epochs=3, batch_size=64, verbose=0)
    region_models[r] = m
    print(r, "trained")
''', r'''
region_models = {}
for r in regions:
    part = data[data["region"] == r]
    X_r = part[feat_cols].to_numpy()
    y_r = keras.utils.to_categorical(part["label"].to_numpy(), num_classes=NUM_CLASSES)
    m = build_model()
    m.fit(X_r, y_r, epochs=3, batch_size=64, verbose=0)
    region_models[r] = m
    print(r, "trained")
''')

# [19] keras: optimizer built with the old lr= keyword; Keras 3 only accepts learning_rate=.
_add("keras_adam_lr_keyword_removed", r'''
import numpy as np
import keras

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
X = rng.standard_normal((1_000, 16)).astype("float32")
y = (X[:, 0] + X[:, 1] > 0).astype("float32")
model = keras.Sequential([keras.Input((16,)), keras.layers.Dense(32, activation="relu"),
                          keras.layers.Dense(1, activation="sigmoid")])
''', r'''
model.compile(optimizer=keras.optimizers.Adam(lr=1e-3), loss="binary_crossentropy", metrics=["accuracy"])
model.summary()
''', r'''
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss="binary_crossentropy", metrics=["accuracy"])
model.summary()
''')

# [20] torch: after training an MLP with BatchNorm, the hold-out predictions are computed without model.eval(); the hold-out set has 256*k + 1 rows, so the last batch has one row and BatchNorm refuses it in training mode.
_add("torch_batchnorm_holdout_single_row_batch", r'''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.set_num_threads(1)
torch.manual_seed(20)
rng = np.random.default_rng(20)
X = rng.standard_normal((40_960 + 10_241, 32)).astype(np.float32)
y = (np.sin(X[:, 0]) + X[:, 1] * X[:, 2] + 0.1 * rng.standard_normal(len(X))).astype(np.float32)
X_tr, y_tr = torch.from_numpy(X[:40_960]), torch.from_numpy(y[:40_960])
X_ho, y_ho = torch.from_numpy(X[40_960:]), torch.from_numpy(y[40_960:])      # 10,241 hold-out rows
train_loader = DataLoader(TensorDataset(X_tr, y_tr), batch_size=256, shuffle=True)
hold_loader = DataLoader(TensorDataset(X_ho, y_ho), batch_size=256, shuffle=False)
model = nn.Sequential(nn.Linear(32, 256), nn.BatchNorm1d(256), nn.ReLU(),
                      nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(),
                      nn.Linear(128, 1))
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
loss_fn = nn.MSELoss()
''', r'''
for epoch in range(10):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: last batch loss {loss.item():.4f}")

preds = []
for xb, yb in hold_loader:
    preds.append(model(xb).squeeze(1).detach())
preds = torch.cat(preds)
print("hold-out MSE:", loss_fn(preds, y_ho).item())
''', r'''
for epoch in range(10):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: last batch loss {loss.item():.4f}")

model.eval()
preds = []
with torch.no_grad():
    for xb, yb in hold_loader:
        preds.append(model(xb).squeeze(1).detach())
preds = torch.cat(preds)
print("hold-out MSE:", loss_fn(preds, y_ho).item())
''')

# [21] torch: OneCycleLR is given steps_per_epoch=len(train_ds)//BATCH, but the DataLoader keeps the partial last batch, so the scheduler runs out of steps near the end of the last epoch.
_add("torch_onecycle_steps_per_epoch_short", r'''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.set_num_threads(1)
torch.manual_seed(21)
rng = np.random.default_rng(21)
N, BATCH, EPOCHS = 30_000, 200, 8
X = torch.from_numpy(rng.standard_normal((N + 77, 64)).astype(np.float32))   # a few extra rows after dedup
y = torch.from_numpy(rng.integers(0, 10, N + 77))
train_ds = TensorDataset(X, y)
train_loader = DataLoader(train_ds, batch_size=BATCH, shuffle=True)
model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Dropout(0.1),
                      nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss(label_smoothing=0.05)
''', r'''
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=EPOCHS,
                                            steps_per_epoch=len(train_ds) // BATCH)
for epoch in range(EPOCHS):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        opt.step()
        sched.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: loss {running / len(train_ds):.4f}, lr {sched.get_last_lr()[0]:.5f}")
''', r'''
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=EPOCHS,
                                            steps_per_epoch=len(train_loader))
for epoch in range(EPOCHS):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        opt.step()
        sched.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: loss {running / len(train_ds):.4f}, lr {sched.get_last_lr()[0]:.5f}")
''')

# [22] torch: CNN embeddings are extracted for a folder of .npy image tiles; tile 1640 was exported channels-last (H, W, C), so default_collate cannot stack its batch.
_add("torch_collate_channels_last_tile", r'''
import os
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

torch.set_num_threads(1)
torch.manual_seed(22)
rng = np.random.default_rng(22)
os.makedirs("tiles", exist_ok=True)
for i in range(1_700):
    img = rng.random((3, 64, 64), dtype=np.float32)
    if i == 1_640:
        img = img.transpose(1, 2, 0)          # re-exported by another script as HWC
    np.save(f"tiles/tile_{i:04d}.npy", img)
tile_files = sorted(os.listdir("tiles"))
encoder = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
).eval()
''', r'''
class TileDataset(Dataset):
    def __init__(self, files):
        self.files = files
    def __len__(self):
        return len(self.files)
    def __getitem__(self, i):
        img = np.load(os.path.join("tiles", self.files[i]))
        return torch.from_numpy(img)

loader = DataLoader(TileDataset(tile_files), batch_size=16, shuffle=False)
embeddings = []
with torch.no_grad():
    for xb in loader:
        embeddings.append(encoder(xb))
embeddings = torch.cat(embeddings).numpy()
print(embeddings.shape)
''', r'''
class TileDataset(Dataset):
    def __init__(self, files):
        self.files = files
    def __len__(self):
        return len(self.files)
    def __getitem__(self, i):
        img = np.load(os.path.join("tiles", self.files[i]))
        if img.shape[-1] == 3:
            img = np.ascontiguousarray(img.transpose(2, 0, 1))
        return torch.from_numpy(img)

loader = DataLoader(TileDataset(tile_files), batch_size=16, shuffle=False)
embeddings = []
with torch.no_grad():
    for xb in loader:
        embeddings.append(encoder(xb))
embeddings = torch.cat(embeddings).numpy()
print(embeddings.shape)
''')

# [23] torch: a whole nn.Sequential was pickled with torch.save(model); since torch 2.6, torch.load defaults to weights_only=True and refuses the module object.
_add("torch_load_full_model_weights_only", r'''
import torch
import torch.nn as nn

torch.manual_seed(23)
net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
torch.save(net, "baseline_model.pt")
x_new = torch.randn(5, 10)
''', r'''
model = torch.load("baseline_model.pt")
model.eval()
with torch.no_grad():
    print(model(x_new).squeeze(1))
''', r'''
model = torch.load("baseline_model.pt", weights_only=False)
model.eval()
with torch.no_grad():
    print(model(x_new).squeeze(1))
''')

# [24] xgboost: the test features are assembled by a merge that puts the columns in a different order than X_train; XGBoost checks feature names at predict time.
_add("xgboost_test_columns_reordered_by_merge", r'''
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(24)
def make_users(n, offset):
    return pd.DataFrame({"user_id": np.arange(offset, offset + n),
                         "age": rng.integers(18, 80, n), "tenure_days": rng.integers(1, 2_000, n),
                         "n_orders": rng.poisson(6, n), "avg_basket": rng.lognormal(3.4, 0.6, n).round(2)})
def make_activity(users):
    n = len(users)
    return pd.DataFrame({"user_id": users["user_id"], "sessions_7d": rng.poisson(4, n),
                         "minutes_7d": rng.gamma(2, 30, n).round(1), "support_calls": rng.poisson(0.3, n)})
train_users, test_users = make_users(80_000, 0), make_users(30_000, 1_000_000)
train = train_users.merge(make_activity(train_users), on="user_id")
train["churn"] = ((train["sessions_7d"] < 2) & (rng.random(len(train)) < 0.7) | (rng.random(len(train)) < 0.08)).astype(int)
X_train = train.drop(columns=["user_id", "churn"])
y_train = train["churn"]
# test activity comes from the events export, merged the other way round
test = make_activity(test_users).merge(test_users, on="user_id")
X_test = test.drop(columns=["user_id"])
''', r'''
clf = xgb.XGBClassifier(n_estimators=140, max_depth=7, learning_rate=0.05, subsample=0.8,
                        colsample_bytree=0.8, tree_method="exact", n_jobs=1, random_state=0)
clf.fit(X_train, y_train)
test["churn_proba"] = clf.predict_proba(X_test)[:, 1]
test[["user_id", "churn_proba"]].head()
''', r'''
clf = xgb.XGBClassifier(n_estimators=140, max_depth=7, learning_rate=0.05, subsample=0.8,
                        colsample_bytree=0.8, tree_method="exact", n_jobs=1, random_state=0)
clf.fit(X_train, y_train)
test["churn_proba"] = clf.predict_proba(X_test[X_train.columns])[:, 1]
test[["user_id", "churn_proba"]].head()
''')

# [25] lightgbm: lgb.train(..., early_stopping_rounds=..., verbose_eval=...) from a LightGBM 3 kernel; 4.x moved both to callbacks.
_add("lightgbm_train_early_stopping_kwarg_removed", r'''
import numpy as np
import lightgbm as lgb

rng = np.random.default_rng(25)
X = rng.standard_normal((4_000, 20))
y = X[:, 0] * 2 + np.sin(X[:, 1] * 3) + rng.normal(0, 0.3, 4_000)
dtrain = lgb.Dataset(X[:3_200], y[:3_200])
dvalid = lgb.Dataset(X[3_200:], y[3_200:], reference=dtrain)
params = {"objective": "regression", "learning_rate": 0.05, "num_leaves": 31,
          "num_threads": 1, "verbose": -1, "seed": 25}
''', r'''
booster = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dvalid],
                    early_stopping_rounds=30, verbose_eval=50)
print("best iteration:", booster.best_iteration)
''', r'''
booster = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dvalid],
                    callbacks=[lgb.early_stopping(30), lgb.log_evaluation(50)])
print("best iteration:", booster.best_iteration)
''')

# [26] matplotlib: plt.style.use("seaborn") from an old EDA template; Matplotlib 3.8+ only knows the renamed "seaborn-v0_8" styles.
_add("matplotlib_style_seaborn_renamed", r'''
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rng = np.random.default_rng(26)
prices = rng.lognormal(12, 0.4, 1_460)
''', r'''
plt.style.use("seaborn")
fig, ax = plt.subplots(figsize=(8, 4))
ax.hist(np.log1p(prices), bins=50)
ax.set_title("log SalePrice")
fig.savefig("saleprice_hist.png", dpi=80)
plt.close(fig)
''', r'''
plt.style.use("seaborn-v0_8")
fig, ax = plt.subplots(figsize=(8, 4))
ax.hist(np.log1p(prices), bins=50)
ax.set_title("log SalePrice")
fig.savefig("saleprice_hist.png", dpi=80)
plt.close(fig)
''')

# [27] seaborn: sns.scatterplot(df["GrLivArea"], df["SalePrice"]) with positional x/y; seaborn 0.12+ makes them keyword-only.
_add("seaborn_scatterplot_positional_xy", r'''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(27)
houses = pd.DataFrame({"GrLivArea": rng.normal(1_500, 500, 1_460).clip(400, 5_000).round()})
houses["SalePrice"] = (houses["GrLivArea"] * 110 + rng.normal(0, 25_000, 1_460)).round(-2)
''', r'''
fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(houses["GrLivArea"], houses["SalePrice"], alpha=0.5, ax=ax)
fig.savefig("area_vs_price.png", dpi=80)
plt.close(fig)
''', r'''
fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(x=houses["GrLivArea"], y=houses["SalePrice"], alpha=0.5, ax=ax)
fig.savefig("area_vs_price.png", dpi=80)
plt.close(fig)
''')

# [28] python: JSON-lines clickstream logs are parsed line by line; log file 18 was concatenated by hand and contains a blank line, which json.loads rejects.
_add("python_jsonl_blank_line_late_file", r'''
import json
import os
import random
from collections import Counter, defaultdict

random.seed(28)
os.makedirs("logs", exist_ok=True)
pages = ["home", "search", "product", "cart", "checkout", "help", "account"]
for f in range(20):
    with open(f"logs/events_{f:02d}.jsonl", "w") as fh:
        for i in range(62_000):
            ev = {"user": random.randint(1, 20_000), "page": random.choice(pages),
                  "ts": 1_700_000_000 + f * 86_400 + i * 4, "ms": round(random.expovariate(1 / 900), 1),
                  "meta": {"ua": random.choice(["ios", "android", "web"]), "ab": random.random() < 0.5}}
            fh.write(json.dumps(ev) + "\n")
            if f == 18 and i == 31_000:
                fh.write("\n")          # someone pasted two partial exports together
log_files = sorted(os.listdir("logs"))
''', r'''
page_views = Counter()
user_pages = defaultdict(set)
dwell = defaultdict(list)
for name in log_files:
    with open(os.path.join("logs", name)) as fh:
        for line in fh:
            ev = json.loads(line)
            page_views[(ev["page"], ev["meta"]["ua"])] += 1
            user_pages[ev["user"]].add(ev["page"])
            dwell[ev["page"]].append(ev["ms"])
funnel = sum(1 for p in user_pages.values() if {"product", "cart", "checkout"} <= p)
print(len(user_pages), "users,", funnel, "completed the funnel")
''', r'''
page_views = Counter()
user_pages = defaultdict(set)
dwell = defaultdict(list)
for name in log_files:
    with open(os.path.join("logs", name)) as fh:
        for line in fh:
            if not line.strip():
                continue
            ev = json.loads(line)
            page_views[(ev["page"], ev["meta"]["ua"])] += 1
            user_pages[ev["user"]].add(ev["page"])
            dwell[ev["page"]].append(ev["ms"])
funnel = sum(1 for p in user_pages.values() if {"product", "cart", "checkout"} <= p)
print(len(user_pages), "users,", funnel, "completed the funnel")
''')

# [29] python: pruning rare tokens from a vocabulary dict while iterating over it.
_add("python_dict_pruned_during_iteration", r'''
import random
from collections import Counter

random.seed(29)
alphabet = "abcdefghijklmnopqrstuvwxyz"
corpus = [" ".join("".join(random.choices(alphabet[:8], k=random.randint(2, 4))) for _ in range(12))
          for _ in range(2_000)]
vocab = Counter(tok for doc in corpus for tok in doc.split())
MIN_COUNT = 3
''', r'''
for tok, cnt in vocab.items():
    if cnt < MIN_COUNT:
        del vocab[tok]
token_to_id = {tok: i for i, tok in enumerate(sorted(vocab), start=2)}
print(len(token_to_id), "tokens kept")
''', r'''
for tok, cnt in list(vocab.items()):
    if cnt < MIN_COUNT:
        del vocab[tok]
token_to_id = {tok: i for i, tok in enumerate(sorted(vocab), start=2)}
print(len(token_to_id), "tokens kept")
''')
