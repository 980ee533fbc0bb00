r"""Notebook crash/fix pairs, fourteenth set: 30 realistic Kaggle-style machine-learning notebook failures, each with the small edit that a Kaggle user would make.

Fields
------
Each entry of PAIRS is a tuple (name, setup, crash, fixed):
- name: short identifier prefixed with the library (pandas_, numpy_, sklearn_, keras_, torch_,
  matplotlib_, seaborn_, xgboost_, lightgbm_, python_).
- setup: the earlier notebook cells joined into one string, imports included; runs clean.
- crash: the target cell as a Kaggle user wrote it; executed after setup in the same namespace it
  raises an exception from a library or from Python itself (never from an assert or raise written
  by the notebook author).
- fixed: the same cell after the user's small fix; executed after setup in a fresh namespace it
  runs clean and does the same work.

Indices below are 0-based positions in PAIRS.

How it was made
---------------
Each story was written by hand around a failure that Kaggle users hit with current library
versions: APIs removed or renamed (DataFrame.append, np.float, OneHotEncoder(sparse=),
Adam(lr=)), changed defaults (numeric_only in groupby/corr, to_datetime format inference,
torch.load weights_only, Keras 3 save extensions), data problems that surface only in a late
file/group/fold/shard, train/test mismatches, unfitted objects, NaN/inf, dtype, shape and label
problems, and plain Python semantics. All data is synthetic and seeded (numpy default_rng,
torch.manual_seed, keras.utils.set_random_seed); files are written only under the current working
directory with relative paths. No torchvision and no pyarrow/parquet. The exact failure mode of
every API was first probed against the installed versions, then sizes were tuned so that the 15
long crash cells do about 2.5-3.5 s of work on a 2-core machine before failing (tree models use
n_jobs=1, LightGBM num_threads=1, long torch cells torch.set_num_threads(1); three numpy/sklearn
stories set OPENBLAS_NUM_THREADS / OMP_NUM_THREADS to 1 before importing numpy, because
multi-threaded OpenBLAS on tiny matrices was 10-60x slower and erratic on the 2-core box).
A checker (kept outside the repository) ran every pair as two fresh Python processes, one at a
time, each in its own fresh temporary working directory, with TF_CPP_MIN_LOG_LEVEL=3: setup +
crash in one process (each cell compiled and exec'd in a plain namespace dict with
__name__ == "__main__"; exception type and time from the crash cell's start to the exception
recorded), setup + fixed in the other (must run clean; time recorded). It also checked with ast
that no setup/crash/fixed contains a raise or assert statement. The full check was run twice on
the final pairs: all 60 runs were as expected in both rounds, with the same exception type per
pair in both rounds. Peak RSS and setup times are given at the end.

Checked against:
python 3.11.7, numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1, scipy 1.17.1, tensorflow 2.21.0,
keras 3.15.1, torch 2.13.0+cpu, matplotlib 3.11.2, seaborn 0.13.2, xgboost 3.2.0, lightgbm 4.7.0.

Mix by library (30)
-------------------
- pandas (7): 0, 1, 2, 3, 4, 5, 6
- numpy (3): 7, 8, 9
- scikit-learn (7): 10, 11, 12, 13, 14, 15, 16
- keras (3): 17, 18, 19
- torch (4): 20, 21, 22, 23
- matplotlib (1): 24
- seaborn (1): 25
- xgboost (1): 26
- lightgbm (1): 27
- python (2): 28, 29

Root causes
-----------
Removed/renamed APIs and changed defaults:
- 0 pandas_append_leaderboard (DataFrame.append was removed in pandas 2.0; build the row frame and pd.concat) -> AttributeError
- 4 pandas_groupby_mean_text_columns (groupby().mean() no longer drops text columns (numeric_only=False default); mean(numeric_only=True)) -> TypeError
- 6 pandas_to_datetime_mixed_formats (to_datetime infers %Y-%m-%d from the first row, appended rows are dd/mm/yyyy; format='mixed', dayfirst=True) -> ValueError
- 7 numpy_float_alias_removed (np.float alias removed in NumPy 1.24; use np.float64) -> AttributeError
- 10 sklearn_onehot_sparse_kwarg (OneHotEncoder(sparse=...) removed in scikit-learn 1.4; sparse_output=False) -> TypeError
- 18 keras_save_without_extension (Keras 3 model.save needs a .keras or .h5 extension; save to 'churn_model_v1.keras') -> ValueError
- 19 keras_adam_lr_kwarg (Keras 3 optimizers reject the old lr= keyword; learning_rate=) -> ValueError
- 23 torch_load_weights_only_numpy (torch.load defaults to weights_only=True since 2.6 and refuses numpy arrays in the checkpoint; weights_only=False) -> _pickle.UnpicklingError
- 25 seaborn_heatmap_corr_text_columns (DataFrame.corr() no longer skips text columns; corr(numeric_only=True)) -> ValueError
Data problems that show up only in a late file/group/row:
- 1 pandas_idxmax_closed_store (a closed store has all-NaN sales, idxmax returns NaT and g.loc[NaT] fails; drop rows with missing sales first) -> KeyError
- 2 pandas_read_csv_thousands_last_file (the newest export writes amounts as '1,234.50', astype(float) fails on the last file; read_csv(thousands=',')) -> ValueError
- 5 pandas_asfreq_duplicate_timestamp (one sensor has a duplicated (resent) timestamp, asfreq cannot reindex; drop_duplicates on sensor+timestamp) -> ValueError
- 9 numpy_singular_normal_equations (a dead sensor column is all zeros, inv(X'X) is singular; use pinv) -> numpy.linalg.LinAlgError
- 26 xgboost_object_column_late_month (TotalCharges has ' ' blanks in one monthly file and loads as object, XGBoost rejects object dtype; pd.to_numeric(errors='coerce')) -> ValueError
- 27 lightgbm_json_chars_in_dummy_names (get_dummies column from brand 'Smith, Jones & Co' has a comma, LightGBM rejects JSON special characters; sanitize column names) -> lightgbm.basic.LightGBMError
Train/test and schema mismatches:
- 3 pandas_merge_key_dtype_mismatch (item_id read as zero-padded str, train item_id is int64, merge refuses; cast items item_id to int) -> ValueError
- 11 sklearn_ordinal_unknown_last_fold (a product line launched late appears only in the last validation fold, OrdinalEncoder sees an unknown category; handle_unknown='use_encoded_value', unknown_value=-1) -> ValueError
- 15 sklearn_feature_order_test_csv (test.csv has the same columns in another order, predict checks feature names; select test[features]) -> ValueError
Unfitted objects:
- 13 sklearn_predict_after_cross_val_score (cross_val_score fits clones only, pipe.predict on the unfitted pipeline; pipe.fit before predict) -> sklearn.exceptions.NotFittedError
NaN / inf:
- 12 sklearn_nan_last_model_in_zoo (tree models accept NaN, LogisticRegression (last in the zoo) does not; wrap it with SimpleImputer+StandardScaler) -> ValueError
- 24 matplotlib_hist_inf_ratio_feature (clicks_per_view has inf (views == 0), hist cannot compute a finite range; replace inf with NaN and drop before plotting) -> ValueError
dtype problems:
- 20 torch_bce_int64_targets (BCEWithLogitsLoss gets int64 targets, result cannot be cast to Long; yb.float()) -> RuntimeError
Shape / batch-size problems:
- 8 numpy_stack_ragged_last_batch (np.stack of per-batch feature arrays fails because the last batch is smaller; np.concatenate) -> ValueError
- 21 torch_view_hardcoded_batch_size (forward flattens with view(BATCH_SIZE, -1), the last test batch is smaller; view(x.size(0), -1)) -> RuntimeError
Label / class problems:
- 14 sklearn_stratify_singleton_class (one category has a single sample, stratified train_test_split refuses; drop categories with one sample) -> ValueError
- 16 sklearn_single_class_month (a late month has no labelled fraud, LogisticRegression needs 2 classes; skip single-class months) -> ValueError
- 17 keras_int_labels_categorical_ce (integer labels with categorical_crossentropy (shape mismatch); use sparse_categorical_crossentropy) -> ValueError
- 22 torch_target_out_of_bounds_shard (N_CLASSES=10 but shard 16 contains label 10, cross-entropy target out of bounds; derive N_CLASSES from the data) -> IndexError
Plain Python semantics:
- 28 python_dict_changed_during_iteration (deleting keys from the dict while iterating over it; iterate over list(items())) -> RuntimeError
- 29 python_json_dump_numpy_int64 (max_depth taken from np.arange is numpy int64, json.dump cannot serialize it; cast with int()) -> TypeError

Long and short
--------------
Times in seconds: crash = from the start of the crash cell to the exception; fixed = the
whole fixed cell; round 1 / round 2.
LONG (15): crash cell does 2-5 s of work and raises late in it.
- 1 pandas_idxmax_closed_store: crash 2.80 / 3.31, fixed 3.43 / 3.71; failing item or step: store 244 of 300 (81%)
- 2 pandas_read_csv_thousands_last_file: crash 3.02 / 3.65, fixed 3.51 / 3.88; failing item or step: last of 24 monthly files
- 5 pandas_asfreq_duplicate_timestamp: crash 3.38 / 2.75, fixed 2.67 / 2.16; failing item or step: sensor 54 of 60 (90%)
- 8 numpy_stack_ragged_last_batch: crash 3.61 / 2.63, fixed 2.63 / 2.51; failing item or step: after the loop, when batch results are combined
- 9 numpy_singular_normal_equations: crash 2.66 / 2.45, fixed 4.15 / 4.28; failing item or step: site 92 of 120 (77%)
- 11 sklearn_ordinal_unknown_last_fold: crash 2.83 / 2.89, fixed 2.96 / 2.87; failing item or step: last of 5 time-series folds
- 12 sklearn_nan_last_model_in_zoo: crash 3.01 / 2.96, fixed 3.01 / 2.91; failing item or step: last of 4 models
- 13 sklearn_predict_after_cross_val_score: crash 3.32 / 3.47, fixed 4.44 / 4.05; failing item or step: after the CV loop, at the submission step
- 16 sklearn_single_class_month: crash 3.31 / 3.29, fixed 3.83 / 3.77; failing item or step: month 21 of 24 (88%)
- 18 keras_save_without_extension: crash 2.41 / 2.91, fixed 2.34 / 2.99; failing item or step: after training, at model.save
- 21 torch_view_hardcoded_batch_size: crash 3.33 / 3.55, fixed 3.48 / 3.36; failing item or step: after training, last test batch
- 22 torch_target_out_of_bounds_shard: crash 3.08 / 3.02, fixed 3.49 / 3.61; failing item or step: shard 17 of 20 (85%)
- 24 matplotlib_hist_inf_ratio_feature: crash 2.69 / 3.07, fixed 2.92 / 3.22; failing item or step: column 43 of 47 (91%)
- 26 xgboost_object_column_late_month: crash 2.76 / 3.11, fixed 3.27 / 3.70; failing item or step: month file 18 of 20 (90%)
- 27 lightgbm_json_chars_in_dummy_names: crash 2.54 / 2.71, fixed 3.70 / 3.76; failing item or step: category group 11 of 14 (79%)
SHORT (15): crash within 1 s.
- 0 pandas_append_leaderboard: crash 0.01 / 0.02, fixed 0.04 / 0.04
- 3 pandas_merge_key_dtype_mismatch: crash 0.00 / 0.00, fixed 0.01 / 0.01
- 4 pandas_groupby_mean_text_columns: crash 0.00 / 0.00, fixed 0.00 / 0.00
- 6 pandas_to_datetime_mixed_formats: crash 0.00 / 0.00, fixed 0.01 / 0.00
- 7 numpy_float_alias_removed: crash 0.00 / 0.00, fixed 0.01 / 0.01
- 10 sklearn_onehot_sparse_kwarg: crash 0.00 / 0.00, fixed 0.02 / 0.02
- 14 sklearn_stratify_singleton_class: crash 0.02 / 0.02, fixed 0.03 / 0.03
- 15 sklearn_feature_order_test_csv: crash 0.16 / 0.13, fixed 0.13 / 0.13
- 17 keras_int_labels_categorical_ce: crash 0.06 / 0.06, fixed 0.61 / 0.65
- 19 keras_adam_lr_kwarg: crash 0.00 / 0.00, fixed 0.62 / 0.75
- 20 torch_bce_int64_targets: crash 0.01 / 0.00, fixed 0.02 / 0.02
- 23 torch_load_weights_only_numpy: crash 0.00 / 0.00, fixed 0.00 / 0.00
- 25 seaborn_heatmap_corr_text_columns: crash 0.00 / 0.00, fixed 0.16 / 0.18
- 28 python_dict_changed_during_iteration: crash 0.00 / 0.00, fixed 0.00 / 0.00
- 29 python_json_dump_numpy_int64: crash 0.12 / 0.12, fixed 0.13 / 0.11
Long crash times ranged 2.41-3.65 s over both rounds; short crash times
at most 0.16 s. Slowest setup 5.27 s; highest peak RSS 684 MB.
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup, crash, fixed))


# [0] pandas: leaderboard of CV scores built row by row with DataFrame.append (removed in pandas 2)
_add("pandas_append_leaderboard", r'''
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.model_selection import cross_val_score
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier
from sklearn.naive_bayes import GaussianNB
X, y = make_classification(n_samples=600, n_features=12, random_state=0)
models = {
    "logreg": LogisticRegression(max_iter=500),
    "tree": DecisionTreeClassifier(max_depth=4, random_state=0),
    "nb": GaussianNB(),
}
''', r'''
leaderboard = pd.DataFrame(columns=["model", "cv_auc"])
for name, model in models.items():
    score = cross_val_score(model, X, y, cv=3, scoring="roc_auc").mean()
    leaderboard = leaderboard.append({"model": name, "cv_auc": score}, ignore_index=True)
leaderboard.sort_values("cv_auc", ascending=False)
''', r'''
leaderboard = pd.DataFrame(columns=["model", "cv_auc"])
for name, model in models.items():
    score = cross_val_score(model, X, y, cv=3, scoring="roc_auc").mean()
    leaderboard = pd.concat([leaderboard, pd.DataFrame([{"model": name, "cv_auc": score}])], ignore_index=True)
leaderboard.sort_values("cv_auc", ascending=False)
''')

# [1] pandas: per-store time features; one store late in the list never reported sales, idxmax gives NaT and .loc fails
_add("pandas_idxmax_closed_store", r'''
import numpy as np
import pandas as pd
rng = np.random.default_rng(11)
n_stores, n_days = 300, 1825
dates = pd.date_range("2021-01-01", periods=n_days, freq="D")
sales = pd.DataFrame({
    "store": np.repeat(np.arange(n_stores), n_days),
    "date": np.tile(dates, n_stores),
    "sales": rng.gamma(2.0, 50.0, n_stores * n_days).round(2),
    "promo": rng.integers(0, 2, n_stores * n_days),
})
sales.loc[sales["store"] == 243, "sales"] = np.nan
''', r'''
store_stats = []
for store_id, g in sales.groupby("store"):
    g = g.set_index("date").sort_index()
    weekly = g["sales"].resample("W").sum()
    roll28 = g["sales"].rolling(28, min_periods=7).mean()
    ewm14 = g["sales"].ewm(span=14).mean()
    roll_q90 = g["sales"].rolling(28, min_periods=7).quantile(0.9)
    dow_profile = g["sales"].groupby(g.index.dayofweek).mean()
    monthly = g["sales"].resample("MS").agg(["sum", "max", "std"])
    windows = {w: g["sales"].rolling(w, min_periods=1) for w in (7, 14, 28, 56, 91, 182, 364)}
    multi_roll = {f"roll{w}_{stat}": getattr(r, stat)().iloc[-1] for w, r in windows.items() for stat in ("mean", "std", "median", "max", "min", "sum", "skew")}
    peak_day = g["sales"].idxmax()
    store_stats.append({
        "store": store_id,
        "weekly_mean": weekly.mean(),
        "weekly_std": weekly.std(),
        "roll28_last": roll28.iloc[-1],
        "ewm14_last": ewm14.iloc[-1],
        "q90_last": roll_q90.iloc[-1],
        "dow_spread": dow_profile.max() - dow_profile.min(),
        "monthly_cv": (monthly["std"] / monthly["sum"]).mean(),
        **multi_roll,
        "peak_day": peak_day,
        "peak_was_promo": g.loc[peak_day, "promo"],
    })
store_stats = pd.DataFrame(store_stats)
''', r'''
sales = sales.dropna(subset=["sales"])
store_stats = []
for store_id, g in sales.groupby("store"):
    g = g.set_index("date").sort_index()
    weekly = g["sales"].resample("W").sum()
    roll28 = g["sales"].rolling(28, min_periods=7).mean()
    ewm14 = g["sales"].ewm(span=14).mean()
    roll_q90 = g["sales"].rolling(28, min_periods=7).quantile(0.9)
    dow_profile = g["sales"].groupby(g.index.dayofweek).mean()
    monthly = g["sales"].resample("MS").agg(["sum", "max", "std"])
    windows = {w: g["sales"].rolling(w, min_periods=1) for w in (7, 14, 28, 56, 91, 182, 364)}
    multi_roll = {f"roll{w}_{stat}": getattr(r, stat)().iloc[-1] for w, r in windows.items() for stat in ("mean", "std", "median", "max", "min", "sum", "skew")}
    peak_day = g["sales"].idxmax()
    store_stats.append({
        "store": store_id,
        "weekly_mean": weekly.mean(),
        "weekly_std": weekly.std(),
        "roll28_last": roll28.iloc[-1],
        "ewm14_last": ewm14.iloc[-1],
        "q90_last": roll_q90.iloc[-1],
        "dow_spread": dow_profile.max() - dow_profile.min(),
        "monthly_cv": (monthly["std"] / monthly["sum"]).mean(),
        **multi_roll,
        "peak_day": peak_day,
        "peak_was_promo": g.loc[peak_day, "promo"],
    })
store_stats = pd.DataFrame(store_stats)
''')

# [2] pandas: monthly transaction exports; the newest export has "1,234.50" style amounts and astype(float) fails on the last file
_add("pandas_read_csv_thousands_last_file", r'''
import os
import numpy as np
import pandas as pd
rng = np.random.default_rng(2)
os.makedirs("exports", exist_ok=True)
months = pd.period_range("2021-01", periods=24, freq="M")
for i, m in enumerate(months):
    n = 90000
    df = pd.DataFrame({
        "txn_id": np.arange(n) + i * n,
        "timestamp": m.start_time + pd.to_timedelta(rng.integers(0, 28 * 24 * 3600, n), unit="s"),
        "customer": rng.integers(0, 5000, n),
        "category": rng.choice(["food", "fuel", "travel", "retail", "online"], n),
        "amount": rng.gamma(2.0, 600.0, n).round(2),
    })
    if i == len(months) - 1:
        df["amount"] = df["amount"].map("{:,.2f}".format)
    df.to_csv(f"exports/transactions_{m}.csv", index=False)
''', r'''
monthly = []
for path in sorted(os.listdir("exports")):
    df = pd.read_csv(os.path.join("exports", path), parse_dates=["timestamp"])
    df["amount"] = df["amount"].astype(float)
    df["hour"] = df["timestamp"].dt.hour
    df["is_night"] = df["hour"].isin([0, 1, 2, 3, 4, 5])
    df = df.sort_values(["customer", "timestamp"])
    df["secs_since_prev"] = df.groupby("customer")["timestamp"].diff().dt.total_seconds()
    df["amount_rank"] = df.groupby("customer")["amount"].rank(pct=True)
    df["cum_spend"] = df.groupby("customer")["amount"].cumsum()
    hour_profile = df.groupby(["customer", "hour"]).size().unstack(fill_value=0)
    cat_share = df.groupby(["customer", "category"]).size().unstack(fill_value=0)
    cat_share = cat_share.div(cat_share.sum(axis=1), axis=0).add_prefix("share_")
    agg = df.groupby(["customer", "category"]).agg(
        amount_sum=("amount", "sum"), amount_mean=("amount", "mean"), amount_max=("amount", "max"),
        n_txn=("txn_id", "count"), night_share=("is_night", "mean"), gap_median=("secs_since_prev", "median"),
        rank_mean=("amount_rank", "mean"), cum_spend_max=("cum_spend", "max"))
    agg = agg.reset_index().merge(hour_profile.idxmax(axis=1).rename("peak_hour"), left_on="customer", right_index=True)
    agg = agg.merge(cat_share, left_on="customer", right_index=True)
    agg["month"] = path.split("_")[1][:7]
    monthly.append(agg)
features = pd.concat(monthly, ignore_index=True)
''', r'''
monthly = []
for path in sorted(os.listdir("exports")):
    df = pd.read_csv(os.path.join("exports", path), parse_dates=["timestamp"], thousands=",")
    df["amount"] = df["amount"].astype(float)
    df["hour"] = df["timestamp"].dt.hour
    df["is_night"] = df["hour"].isin([0, 1, 2, 3, 4, 5])
    df = df.sort_values(["customer", "timestamp"])
    df["secs_since_prev"] = df.groupby("customer")["timestamp"].diff().dt.total_seconds()
    df["amount_rank"] = df.groupby("customer")["amount"].rank(pct=True)
    df["cum_spend"] = df.groupby("customer")["amount"].cumsum()
    hour_profile = df.groupby(["customer", "hour"]).size().unstack(fill_value=0)
    cat_share = df.groupby(["customer", "category"]).size().unstack(fill_value=0)
    cat_share = cat_share.div(cat_share.sum(axis=1), axis=0).add_prefix("share_")
    agg = df.groupby(["customer", "category"]).agg(
        amount_sum=("amount", "sum"), amount_mean=("amount", "mean"), amount_max=("amount", "max"),
        n_txn=("txn_id", "count"), night_share=("is_night", "mean"), gap_median=("secs_since_prev", "median"),
        rank_mean=("amount_rank", "mean"), cum_spend_max=("cum_spend", "max"))
    agg = agg.reset_index().merge(hour_profile.idxmax(axis=1).rename("peak_hour"), left_on="customer", right_index=True)
    agg = agg.merge(cat_share, left_on="customer", right_index=True)
    agg["month"] = path.split("_")[1][:7]
    monthly.append(agg)
features = pd.concat(monthly, ignore_index=True)
''')

# [3] pandas: item metadata read with item_id as zero-padded strings, merge with integer ids in train fails
_add("pandas_merge_key_dtype_mismatch", r'''
import numpy as np
import pandas as pd
rng = np.random.default_rng(3)
pd.DataFrame({
    "item_id": [f"{i:06d}" for i in range(500)],
    "item_category": rng.choice(["grocery", "toys", "garden", "books"], 500),
    "item_price": rng.gamma(2.0, 10.0, 500).round(2),
}).to_csv("items.csv", index=False)
train = pd.DataFrame({
    "date": pd.date_range("2022-01-01", periods=20000, freq="h"),
    "item_id": rng.integers(0, 500, 20000),
    "units": rng.poisson(3, 20000),
})
items = pd.read_csv("items.csv", dtype={"item_id": str})
''', r'''
train = train.merge(items, on="item_id", how="left")
train["revenue"] = train["units"] * train["item_price"]
train.groupby("item_category")["revenue"].sum()
''', r'''
items["item_id"] = items["item_id"].astype(int)
train = train.merge(items, on="item_id", how="left")
train["revenue"] = train["units"] * train["item_price"]
train.groupby("item_category")["revenue"].sum()
''')

# [4] pandas: Titanic-style per-class means for imputation; groupby().mean() no longer drops text columns
_add("pandas_groupby_mean_text_columns", r'''
import numpy as np
import pandas as pd
rng = np.random.default_rng(4)
n = 891
train = pd.DataFrame({
    "PassengerId": np.arange(1, n + 1),
    "Survived": rng.integers(0, 2, n),
    "Pclass": rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    "Name": [f"Passenger {i}, Mr. X" for i in range(n)],
    "Sex": rng.choice(["male", "female"], n),
    "Age": np.where(rng.random(n) < 0.2, np.nan, rng.normal(30, 14, n).clip(1, 80).round()),
    "Fare": rng.gamma(1.5, 20, n).round(2),
    "Embarked": rng.choice(["S", "C", "Q"], n),
})
''', r'''
class_means = train.groupby("Pclass").mean()
train["Age"] = train["Age"].fillna(train["Pclass"].map(class_means["Age"]))
class_means
''', r'''
class_means = train.groupby("Pclass").mean(numeric_only=True)
train["Age"] = train["Age"].fillna(train["Pclass"].map(class_means["Age"]))
class_means
''')

# [5] pandas: per-sensor regular resampling with asfreq; a sensor near the end has one duplicated timestamp
_add("pandas_asfreq_duplicate_timestamp", r'''
import numpy as np
import pandas as pd
rng = np.random.default_rng(5)
frames = []
for s in range(60):
    ts = pd.date_range("2023-01-01", periods=52000, freq="10min")
    keep = np.sort(rng.choice(len(ts), 47000, replace=False))
    df = pd.DataFrame({
        "sensor": f"S{s:03d}",
        "timestamp": ts[keep],
        "temp": 20 + rng.normal(0, 1, 47000).cumsum() * 0.05,
        "humidity": 50 + rng.normal(0, 1, 47000).cumsum() * 0.1,
    })
    if s == 53:
        df = pd.concat([df, df.iloc[[23000]]]).sort_values("timestamp")
    frames.append(df)
readings = pd.concat(frames, ignore_index=True)
''', r'''
features = []
for sensor, g in readings.groupby("sensor"):
    g = g.set_index("timestamp")[["temp", "humidity"]].asfreq("10min")
    g = g.interpolate(method="time")
    g["temp_roll_6h"] = g["temp"].rolling("6h").mean()
    g["temp_diff"] = g["temp"].diff()
    g["hum_roll_1d"] = g["humidity"].rolling("1D").std()
    g["temp_max_1d"] = g["temp"].rolling("1D").max()
    g["temp_min_1d"] = g["temp"].rolling("1D").min()
    g["temp_q90_1d"] = g["temp"].rolling("1D").quantile(0.9)
    g["hum_roll_6h"] = g["humidity"].rolling("6h").mean()
    g["temp_ewm"] = g["temp"].ewm(halflife="2h", times=g.index).mean()
    daily = g.resample("D").agg({"temp": ["mean", "max", "min"], "humidity": "mean",
                                 "temp_diff": "std", "hum_roll_1d": "mean",
                                 "temp_max_1d": "max", "temp_min_1d": "min", "temp_q90_1d": "mean",
                                 "hum_roll_6h": "max", "temp_ewm": "last"})
    daily.columns = ["_".join(c) for c in daily.columns]
    daily["sensor"] = sensor
    features.append(daily)
features = pd.concat(features)
''', r'''
readings = readings.drop_duplicates(subset=["sensor", "timestamp"])
features = []
for sensor, g in readings.groupby("sensor"):
    g = g.set_index("timestamp")[["temp", "humidity"]].asfreq("10min")
    g = g.interpolate(method="time")
    g["temp_roll_6h"] = g["temp"].rolling("6h").mean()
    g["temp_diff"] = g["temp"].diff()
    g["hum_roll_1d"] = g["humidity"].rolling("1D").std()
    g["temp_max_1d"] = g["temp"].rolling("1D").max()
    g["temp_min_1d"] = g["temp"].rolling("1D").min()
    g["temp_q90_1d"] = g["temp"].rolling("1D").quantile(0.9)
    g["hum_roll_6h"] = g["humidity"].rolling("6h").mean()
    g["temp_ewm"] = g["temp"].ewm(halflife="2h", times=g.index).mean()
    daily = g.resample("D").agg({"temp": ["mean", "max", "min"], "humidity": "mean",
                                 "temp_diff": "std", "hum_roll_1d": "mean",
                                 "temp_max_1d": "max", "temp_min_1d": "min", "temp_q90_1d": "mean",
                                 "hum_roll_6h": "max", "temp_ewm": "last"})
    daily.columns = ["_".join(c) for c in daily.columns]
    daily["sensor"] = sensor
    features.append(daily)
features = pd.concat(features)
''')

# [6] pandas: hotel bookings where a second system appended dd/mm/yyyy dates; to_datetime infers ISO from row 0
_add("pandas_to_datetime_mixed_formats", r'''
import numpy as np
import pandas as pd
rng = np.random.default_rng(6)
d1 = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 700, 9000), unit="D")
d2 = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 700, 1000), unit="D")
pd.DataFrame({
    "booking_date": list(d1.strftime("%Y-%m-%d")) + list(d2.strftime("%d/%m/%Y")),
    "hotel": ["city"] * 9000 + ["resort"] * 1000,
    "adr": rng.gamma(3, 35, 10000).round(2),
}).to_csv("hotel_bookings.csv", index=False)
bookings = pd.read_csv("hotel_bookings.csv")
''', r'''
bookings["booking_date"] = pd.to_datetime(bookings["booking_date"])
bookings["month"] = bookings["booking_date"].dt.month
bookings.groupby(["hotel", "month"])["adr"].mean().unstack(0)
''', r'''
bookings["booking_date"] = pd.to_datetime(bookings["booking_date"], format="mixed", dayfirst=True)
bookings["month"] = bookings["booking_date"].dt.month
bookings.groupby(["hotel", "month"])["adr"].mean().unstack(0)
''')

# [7] numpy: old energy-prediction kernel casts features with the removed np.float alias
_add("numpy_float_alias_removed", r'''
import numpy as np
import pandas as pd
rng = np.random.default_rng(7)
train = pd.DataFrame({
    "building_id": rng.integers(0, 100, 50000),
    "meter_reading": rng.gamma(1.2, 150, 50000),
    "air_temperature": rng.normal(15, 8, 50000).round(1),
    "square_feet": rng.integers(5000, 200000, 50000),
})
''', r'''
X = train[["air_temperature", "square_feet"]].values.astype(np.float)
y = np.log1p(train["meter_reading"].values)
X = (X - X.mean(axis=0)) / X.std(axis=0)
coef, *_ = np.linalg.lstsq(np.c_[np.ones(len(X)), X], y, rcond=None)
coef
''', r'''
X = train[["air_temperature", "square_feet"]].values.astype(np.float64)
y = np.log1p(train["meter_reading"].values)
X = (X - X.mean(axis=0)) / X.std(axis=0)
coef, *_ = np.linalg.lstsq(np.c_[np.ones(len(X)), X], y, rcond=None)
coef
''')

# [8] numpy: hand-made image features per batch; np.stack of the batch results fails because the last batch is smaller
_add("numpy_stack_ragged_last_batch", r'''
import numpy as np
rng = np.random.default_rng(8)
images = rng.random((18000, 64, 64), dtype=np.float32)
batch_size = 256
''', r'''
batch_features = []
for start in range(0, len(images), batch_size):
    batch = images[start:start + batch_size]
    spec = np.abs(np.fft.rfft2(batch))
    radial = spec[:, :32, :32].mean(axis=2)
    gx, gy = np.gradient(batch, axis=(1, 2))
    mag = np.hypot(gx, gy)
    hist = np.stack([np.histogram(m, bins=16, range=(0, 1))[0] for m in mag])
    stats = np.stack([batch.mean(axis=(1, 2)), batch.std(axis=(1, 2)), np.median(batch, axis=(1, 2))], axis=1)
    batch_features.append(np.concatenate([radial, hist, stats], axis=1))
features = np.stack(batch_features).reshape(-1, batch_features[0].shape[1])
features.shape
''', r'''
batch_features = []
for start in range(0, len(images), batch_size):
    batch = images[start:start + batch_size]
    spec = np.abs(np.fft.rfft2(batch))
    radial = spec[:, :32, :32].mean(axis=2)
    gx, gy = np.gradient(batch, axis=(1, 2))
    mag = np.hypot(gx, gy)
    hist = np.stack([np.histogram(m, bins=16, range=(0, 1))[0] for m in mag])
    stats = np.stack([batch.mean(axis=(1, 2)), batch.std(axis=(1, 2)), np.median(batch, axis=(1, 2))], axis=1)
    batch_features.append(np.concatenate([radial, hist, stats], axis=1))
features = np.concatenate(batch_features)
features.shape
''')

# [9] numpy: per-site OLS with bootstrap via normal equations; a site ~75% through has a dead (all-zero) sensor column
_add("numpy_singular_normal_equations", r'''
import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
rng = np.random.default_rng(9)
n_sites, n_obs, n_feat = 120, 3000, 40
sites = []
for s in range(n_sites):
    X = rng.normal(size=(n_obs, n_feat))
    if s == 91:
        X[:, 17] = 0.0
    beta = rng.normal(size=n_feat)
    y = X @ beta + rng.normal(scale=0.5, size=n_obs)
    sites.append((X, y))
''', r'''
def ols(A, b):
    return np.linalg.inv(A.T @ A) @ A.T @ b

n_boot = 32
site_coefs, site_ci = [], []
for X, y in sites:
    Xd = np.c_[np.ones(len(X)), X]
    beta = ols(Xd, y)
    boots = []
    for b in range(n_boot):
        idx = rng.integers(0, len(Xd), len(Xd))
        boots.append(ols(Xd[idx], y[idx]))
    site_coefs.append(beta)
    site_ci.append(np.percentile(np.array(boots), [2.5, 97.5], axis=0))
site_coefs = np.array(site_coefs)
''', r'''
def ols(A, b):
    return np.linalg.pinv(A.T @ A) @ A.T @ b

n_boot = 32
site_coefs, site_ci = [], []
for X, y in sites:
    Xd = np.c_[np.ones(len(X)), X]
    beta = ols(Xd, y)
    boots = []
    for b in range(n_boot):
        idx = rng.integers(0, len(Xd), len(Xd))
        boots.append(ols(Xd[idx], y[idx]))
    site_coefs.append(beta)
    site_ci.append(np.percentile(np.array(boots), [2.5, 97.5], axis=0))
site_coefs = np.array(site_coefs)
''')

# [10] scikit-learn: churn model one-hot encodes with the removed sparse= keyword of OneHotEncoder
_add("sklearn_onehot_sparse_kwarg", r'''
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder
from sklearn.linear_model import LogisticRegression
rng = np.random.default_rng(10)
n = 4000
df = pd.DataFrame({
    "contract": rng.choice(["month", "one_year", "two_year"], n),
    "payment": rng.choice(["card", "bank", "check", "e-check"], n),
    "internet": rng.choice(["dsl", "fiber", "none"], n),
    "tenure": rng.integers(0, 72, n),
})
df["churn"] = ((df["contract"] == "month") & (rng.random(n) < 0.5)).astype(int)
cat_cols = ["contract", "payment", "internet"]
''', r'''
ohe = OneHotEncoder(sparse=False, handle_unknown="ignore")
X_cat = ohe.fit_transform(df[cat_cols])
X = np.hstack([X_cat, df[["tenure"]].to_numpy() / 72])
clf = LogisticRegression(max_iter=1000).fit(X, df["churn"])
pd.Series(clf.coef_[0][:X_cat.shape[1]], index=ohe.get_feature_names_out(cat_cols)).sort_values()
''', r'''
ohe = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
X_cat = ohe.fit_transform(df[cat_cols])
X = np.hstack([X_cat, df[["tenure"]].to_numpy() / 72])
clf = LogisticRegression(max_iter=1000).fit(X, df["churn"])
pd.Series(clf.coef_[0][:X_cat.shape[1]], index=ohe.get_feature_names_out(cat_cols)).sort_values()
''')

# [11] scikit-learn: time-series CV for demand; a product line launched late appears only in the last validation fold
_add("sklearn_ordinal_unknown_last_fold", r'''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OrdinalEncoder
from sklearn.pipeline import make_pipeline
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import TimeSeriesSplit
from sklearn.metrics import mean_absolute_error
rng = np.random.default_rng(12)
n = 12000
dates = pd.date_range("2021-01-01", periods=n, freq="h")
product_line = rng.choice(["basic", "plus", "pro"], n).astype(object)
late = np.arange(n) >= int(n * 0.9)
product_line[late & (rng.random(n) < 0.3)] = "ultra"
df = pd.DataFrame({
    "date": dates,
    "product_line": product_line,
    "region": rng.choice(["north", "south", "east", "west"], n),
    "price": rng.gamma(3, 20, n),
    "discount": rng.random(n) * 0.3,
    "hour": dates.hour,
})
df["demand"] = 50 - 0.2 * df["price"] + 40 * df["discount"] + rng.normal(0, 5, n)
cat_cols = ["product_line", "region"]
num_cols = ["price", "discount", "hour"]
''', r'''
tscv = TimeSeriesSplit(n_splits=5)
pre = ColumnTransformer([("cat", OrdinalEncoder(), cat_cols)], remainder="passthrough")
fold_mae = []
for fold, (tr, va) in enumerate(tscv.split(df)):
    model = make_pipeline(pre, RandomForestRegressor(n_estimators=70, min_samples_leaf=3, n_jobs=1, random_state=0))
    model.fit(df.iloc[tr][cat_cols + num_cols], df.iloc[tr]["demand"])
    pred = model.predict(df.iloc[va][cat_cols + num_cols])
    fold_mae.append(mean_absolute_error(df.iloc[va]["demand"], pred))
    print(f"fold {fold}: MAE={fold_mae[-1]:.3f}")
np.mean(fold_mae)
''', r'''
tscv = TimeSeriesSplit(n_splits=5)
pre = ColumnTransformer([("cat", OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1), cat_cols)], remainder="passthrough")
fold_mae = []
for fold, (tr, va) in enumerate(tscv.split(df)):
    model = make_pipeline(pre, RandomForestRegressor(n_estimators=70, min_samples_leaf=3, n_jobs=1, random_state=0))
    model.fit(df.iloc[tr][cat_cols + num_cols], df.iloc[tr]["demand"])
    pred = model.predict(df.iloc[va][cat_cols + num_cols])
    fold_mae.append(mean_absolute_error(df.iloc[va]["demand"], pred))
    print(f"fold {fold}: MAE={fold_mae[-1]:.3f}")
np.mean(fold_mae)
''')

# [12] scikit-learn: model zoo on data with NaN; the tree models accept NaN, the last model (logistic regression) does not
_add("sklearn_nan_last_model_in_zoo", r'''
import os
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier, ExtraTreesClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
rng = np.random.default_rng(13)
X, y = make_classification(n_samples=6000, n_features=20, n_informative=8, random_state=13)
X[rng.random(X.shape) < 0.03] = np.nan
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=13, stratify=y)
''', r'''
models = {
    "rf": RandomForestClassifier(n_estimators=170, n_jobs=1, random_state=0),
    "et": ExtraTreesClassifier(n_estimators=170, n_jobs=1, random_state=0),
    "hgb": HistGradientBoostingClassifier(max_iter=150, random_state=0),
    "logreg": LogisticRegression(max_iter=1000),
}
scores = {}
for name, model in models.items():
    model.fit(X_tr, y_tr)
    scores[name] = roc_auc_score(y_va, model.predict_proba(X_va)[:, 1])
    print(name, round(scores[name], 4))
''', r'''
from sklearn.pipeline import make_pipeline
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import StandardScaler
models = {
    "rf": RandomForestClassifier(n_estimators=170, n_jobs=1, random_state=0),
    "et": ExtraTreesClassifier(n_estimators=170, n_jobs=1, random_state=0),
    "hgb": HistGradientBoostingClassifier(max_iter=150, random_state=0),
    "logreg": make_pipeline(SimpleImputer(strategy="median"), StandardScaler(), LogisticRegression(max_iter=1000)),
}
scores = {}
for name, model in models.items():
    model.fit(X_tr, y_tr)
    scores[name] = roc_auc_score(y_va, model.predict_proba(X_va)[:, 1])
    print(name, round(scores[name], 4))
''')

# [13] scikit-learn: cross_val_score fits clones, then the submission step predicts with the never-fitted pipeline
_add("sklearn_predict_after_cross_val_score", r'''
import numpy as np
import pandas as pd
from sklearn.datasets import make_regression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import cross_val_score, KFold
X, y = make_regression(n_samples=5000, n_features=15, noise=10.0, random_state=14)
X_train, y_train, X_test = X[:4000], y[:4000], X[4000:]
pipe = Pipeline([("scale", StandardScaler()),
                 ("rf", RandomForestRegressor(n_estimators=40, n_jobs=1, random_state=0))])
''', r'''
cv = KFold(n_splits=5, shuffle=True, random_state=0)
scores = cross_val_score(pipe, X_train, y_train, cv=cv, scoring="neg_root_mean_squared_error")
print("CV RMSE:", -scores.mean())
submission = pd.DataFrame({"id": np.arange(len(X_test)), "target": pipe.predict(X_test)})
submission.to_csv("submission.csv", index=False)
''', r'''
cv = KFold(n_splits=5, shuffle=True, random_state=0)
scores = cross_val_score(pipe, X_train, y_train, cv=cv, scoring="neg_root_mean_squared_error")
print("CV RMSE:", -scores.mean())
pipe.fit(X_train, y_train)
submission = pd.DataFrame({"id": np.arange(len(X_test)), "target": pipe.predict(X_test)})
submission.to_csv("submission.csv", index=False)
''')

# [14] scikit-learn: stratified split of product titles; one category has a single product
_add("sklearn_stratify_singleton_class", r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
rng = np.random.default_rng(15)
vocab = {
    "electronics": "usb cable charger battery screen laptop",
    "kitchen": "pan knife spoon oven plate cup",
    "toys": "lego doll puzzle car robot ball",
    "garden": "hose seed shovel soil plant pot",
    "music": "guitar string drum piano vinyl",
}
rows = []
for cat, words in vocab.items():
    for _ in range(1 if cat == "music" else 400):
        rows.append((" ".join(rng.choice(words.split(), 6)), cat))
products = pd.DataFrame(rows, columns=["title", "category"])
''', r'''
X_tr, X_va, y_tr, y_va = train_test_split(products["title"], products["category"], test_size=0.2,
                                          stratify=products["category"], random_state=0)
vec = TfidfVectorizer()
clf = LogisticRegression(max_iter=1000).fit(vec.fit_transform(X_tr), y_tr)
(clf.predict(vec.transform(X_va)) == y_va).mean()
''', r'''
products = products[products["category"].map(products["category"].value_counts()) > 1]
X_tr, X_va, y_tr, y_va = train_test_split(products["title"], products["category"], test_size=0.2,
                                          stratify=products["category"], random_state=0)
vec = TfidfVectorizer()
clf = LogisticRegression(max_iter=1000).fit(vec.fit_transform(X_tr), y_tr)
(clf.predict(vec.transform(X_va)) == y_va).mean()
''')

# [15] scikit-learn: house prices; test.csv has the same columns in a different order, predict refuses
_add("sklearn_feature_order_test_csv", r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
rng = np.random.default_rng(16)
n = 3000
train = pd.DataFrame({"id": np.arange(n), "sqft": rng.integers(400, 4000, n), "bedrooms": rng.integers(1, 6, n),
                      "age": rng.integers(0, 100, n), "dist_center": rng.gamma(2, 3, n)})
train["price"] = (150 * train["sqft"] + 10000 * train["bedrooms"] - 800 * train["age"]
                  - 5000 * train["dist_center"] + rng.normal(0, 20000, n))
test = pd.DataFrame({"id": np.arange(n, n + 1000), "bedrooms": rng.integers(1, 6, 1000),
                     "sqft": rng.integers(400, 4000, 1000), "dist_center": rng.gamma(2, 3, 1000),
                     "age": rng.integers(0, 100, 1000)})
train.to_csv("train.csv", index=False)
test.to_csv("test.csv", index=False)
train, test = pd.read_csv("train.csv"), pd.read_csv("test.csv")
''', r'''
features = [c for c in train.columns if c not in ("id", "price")]
model = GradientBoostingRegressor(n_estimators=60, random_state=0).fit(train[features], train["price"])
test_features = test.drop(columns=["id"])
submission = pd.DataFrame({"id": test["id"], "price": model.predict(test_features)})
submission.to_csv("submission.csv", index=False)
''', r'''
features = [c for c in train.columns if c not in ("id", "price")]
model = GradientBoostingRegressor(n_estimators=60, random_state=0).fit(train[features], train["price"])
test_features = test[features]
submission = pd.DataFrame({"id": test["id"], "price": model.predict(test_features)})
submission.to_csv("submission.csv", index=False)
''')

# [16] scikit-learn: month-by-month fraud model refits; a late month has no labelled fraud, logistic regression needs 2 classes
_add("sklearn_single_class_month", r'''
import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.inspection import permutation_importance
rng = np.random.default_rng(17)
n_months, per_month = 24, 5000
frames = []
for m in range(n_months):
    X = rng.normal(size=(per_month, 30))
    logit = 1.5 * X[:, 0] - X[:, 1] + 0.5 * X[:, 2] - 4.0
    fraud = (rng.random(per_month) < 1 / (1 + np.exp(-logit))).astype(int)
    if m == 20:
        fraud[:] = 0
    df = pd.DataFrame(X, columns=[f"v{i}" for i in range(30)])
    df["month"], df["is_fraud"] = m, fraud
    frames.append(df)
tx = pd.concat(frames, ignore_index=True)
feature_cols = [f"v{i}" for i in range(30)]
''', r'''
coef_drift, train_auc, perm_imp = {}, {}, {}
for m in range(n_months):
    cur = tx[tx["month"] == m]
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000))
    model.fit(cur[feature_cols], cur["is_fraud"])
    coef_drift[m] = model[-1].coef_[0]
    train_auc[m] = roc_auc_score(cur["is_fraud"], model.predict_proba(cur[feature_cols])[:, 1])
    perm_imp[m] = permutation_importance(model, cur[feature_cols], cur["is_fraud"], scoring="roc_auc",
                                         n_repeats=1, random_state=0).importances_mean
pd.DataFrame(coef_drift).T.std()
''', r'''
coef_drift, train_auc, perm_imp = {}, {}, {}
for m in range(n_months):
    cur = tx[tx["month"] == m]
    if cur["is_fraud"].nunique() < 2:
        continue
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000))
    model.fit(cur[feature_cols], cur["is_fraud"])
    coef_drift[m] = model[-1].coef_[0]
    train_auc[m] = roc_auc_score(cur["is_fraud"], model.predict_proba(cur[feature_cols])[:, 1])
    perm_imp[m] = permutation_importance(model, cur[feature_cols], cur["is_fraud"], scoring="roc_auc",
                                         n_repeats=1, random_state=0).importances_mean
pd.DataFrame(coef_drift).T.std()
''')

# [17] keras: integer class labels trained with categorical_crossentropy
_add("keras_int_labels_categorical_ce", r'''
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import keras
from keras import layers
keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
X = rng.normal(size=(2000, 16)).astype("float32")
y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)
model = keras.Sequential([keras.Input((16,)), layers.Dense(32, activation="relu"),
                          layers.Dense(3, activation="softmax")])
''', r'''
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, validation_split=0.2, epochs=3, batch_size=64, verbose=0)
history.history["val_accuracy"][-1]
''', r'''
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, validation_split=0.2, epochs=3, batch_size=64, verbose=0)
history.history["val_accuracy"][-1]
''')

# [18] keras: training finishes, then model.save("name") without extension is rejected by Keras 3
_add("keras_save_without_extension", r'''
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import keras
from keras import layers
keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
X = rng.normal(size=(20000, 40)).astype("float32")
y = (X[:, :5].sum(axis=1) + rng.normal(0, 0.5, 20000) > 0).astype("float32")
model = keras.Sequential([keras.Input((40,)), layers.Dense(128, activation="relu"), layers.Dropout(0.2),
                          layers.Dense(64, activation="relu"), layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy",
              metrics=[keras.metrics.AUC(name="auc")])
''', r'''
history = model.fit(X, y, validation_split=0.2, epochs=12, batch_size=128, verbose=0,
                    callbacks=[keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True)])
print("best val_auc:", max(history.history["val_auc"]))
model.save("churn_model_v1")
''', r'''
history = model.fit(X, y, validation_split=0.2, epochs=12, batch_size=128, verbose=0,
                    callbacks=[keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True)])
print("best val_auc:", max(history.history["val_auc"]))
model.save("churn_model_v1.keras")
''')

# [19] keras: optimizer built with the old lr= keyword from a Keras 2 tutorial
_add("keras_adam_lr_kwarg", r'''
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import keras
from keras import layers
keras.utils.set_random_seed(20)
rng = np.random.default_rng(20)
X = rng.normal(size=(3000, 10)).astype("float32")
y = (X @ rng.normal(size=10) + rng.normal(0, 0.1, 3000)).astype("float32")
model = keras.Sequential([keras.Input((10,)), layers.Dense(64, activation="relu"), layers.Dense(1)])
''', r'''
model.compile(optimizer=keras.optimizers.Adam(lr=3e-4), loss="mse", metrics=["mae"])
model.fit(X, y, epochs=2, batch_size=64, verbose=0)
model.evaluate(X, y, verbose=0)
''', r'''
model.compile(optimizer=keras.optimizers.Adam(learning_rate=3e-4), loss="mse", metrics=["mae"])
model.fit(X, y, epochs=2, batch_size=64, verbose=0)
model.evaluate(X, y, verbose=0)
''')

# [20] torch: BCEWithLogitsLoss given int64 targets straight from the label column
_add("torch_bce_int64_targets", r'''
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(21)
rng = np.random.default_rng(21)
X = torch.tensor(rng.normal(size=(1024, 12)), dtype=torch.float32)
y = torch.tensor((rng.random(1024) < 0.3).astype(np.int64))
model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
''', r'''
for epoch in range(5):
    for i in range(0, len(X), 128):
        xb, yb = X[i:i + 128], y[i:i + 128]
        logits = model(xb).squeeze(1)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(epoch, loss.item())
''', r'''
for epoch in range(5):
    for i in range(0, len(X), 128):
        xb, yb = X[i:i + 128], y[i:i + 128]
        logits = model(xb).squeeze(1)
        loss = loss_fn(logits, yb.float())
        opt.zero_grad()
        loss.backward()
        opt.step()
print(epoch, loss.item())
''')

# [21] torch: CNN flattens with view(BATCH_SIZE, -1); training used drop_last=True, the test loader's last batch is smaller
_add("torch_view_hardcoded_batch_size", r'''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader
torch.set_num_threads(1)
torch.manual_seed(22)
rng = np.random.default_rng(22)
X = torch.tensor(rng.normal(size=(4000, 1, 28, 28)), dtype=torch.float32)
y = torch.tensor(rng.integers(0, 10, 4000))
X_test = torch.tensor(rng.normal(size=(1000, 1, 28, 28)), dtype=torch.float32)
BATCH_SIZE = 64
train_loader = DataLoader(TensorDataset(X, y), batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
test_loader = DataLoader(TensorDataset(X_test), batch_size=BATCH_SIZE, shuffle=False)
''', r'''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(32 * 7 * 7, 10)

    def forward(self, x):
        x = self.conv(x)
        x = x.view(BATCH_SIZE, -1)
        return self.fc(x)

model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(4):
    model.train()
    for xb, yb in train_loader:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
model.eval()
preds = []
with torch.no_grad():
    for (xb,) in test_loader:
        preds.append(model(xb).argmax(1))
preds = torch.cat(preds).numpy()
''', r'''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(32 * 7 * 7, 10)

    def forward(self, x):
        x = self.conv(x)
        x = x.view(x.size(0), -1)
        return self.fc(x)

model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(4):
    model.train()
    for xb, yb in train_loader:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
model.eval()
preds = []
with torch.no_grad():
    for (xb,) in test_loader:
        preds.append(model(xb).argmax(1))
preds = torch.cat(preds).numpy()
''')

# [22] torch: streaming training over .npz shards with N_CLASSES = 10; shard 16 of 20 contains the rare label 10
_add("torch_target_out_of_bounds_shard", r'''
import os
import numpy as np
import torch
import torch.nn as nn
torch.set_num_threads(1)
torch.manual_seed(23)
rng = np.random.default_rng(23)
os.makedirs("shards", exist_ok=True)
for k in range(20):
    Xs = rng.normal(size=(11000, 64)).astype(np.float32)
    ys = rng.integers(0, 10, 11000)
    if k == 16:
        ys[rng.random(11000) < 0.02] = 10
    np.savez(f"shards/train_{k:02d}.npz", X=Xs, y=ys)
N_CLASSES = 10
''', r'''
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, N_CLASSES))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for path in sorted(os.listdir("shards")):
    shard = np.load(os.path.join("shards", path))
    Xs, ys = torch.from_numpy(shard["X"]), torch.from_numpy(shard["y"])
    for i in range(0, len(Xs), 64):
        loss = loss_fn(model(Xs[i:i + 64]), ys[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(path, round(loss.item(), 4))
''', r'''
N_CLASSES = int(max(np.load(os.path.join("shards", p))["y"].max() for p in os.listdir("shards"))) + 1
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, N_CLASSES))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for path in sorted(os.listdir("shards")):
    shard = np.load(os.path.join("shards", path))
    Xs, ys = torch.from_numpy(shard["X"]), torch.from_numpy(shard["y"])
    for i in range(0, len(Xs), 64):
        loss = loss_fn(model(Xs[i:i + 64]), ys[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(path, round(loss.item(), 4))
''')

# [23] torch: checkpoint with numpy scaler stats; torch.load now defaults to weights_only=True
_add("torch_load_weights_only_numpy", r'''
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(24)
rng = np.random.default_rng(24)
X = rng.normal(5, 2, size=(500, 8))
mean, std = X.mean(axis=0), X.std(axis=0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
torch.save({"state_dict": model.state_dict(), "scaler_mean": mean, "scaler_std": std, "epoch": 12},
           "checkpoint.pt")
''', r'''
ckpt = torch.load("checkpoint.pt")
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
model.load_state_dict(ckpt["state_dict"])
X_new = torch.tensor((X[:10] - ckpt["scaler_mean"]) / ckpt["scaler_std"], dtype=torch.float32)
model(X_new).detach().numpy().ravel()
''', r'''
ckpt = torch.load("checkpoint.pt", weights_only=False)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
model.load_state_dict(ckpt["state_dict"])
X_new = torch.tensor((X[:10] - ckpt["scaler_mean"]) / ckpt["scaler_std"], dtype=torch.float32)
model(X_new).detach().numpy().ravel()
''')

# [24] matplotlib: EDA loop saving a histogram per feature; a ratio feature near the end contains inf
_add("matplotlib_hist_inf_ratio_feature", r'''
import os
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rng = np.random.default_rng(25)
n = 20000
df = pd.DataFrame({f"f{i:02d}": rng.normal(i, 1 + i / 10, n) for i in range(40)})
df["clicks"] = rng.poisson(3, n)
df["views"] = rng.poisson(2, n)
df["clicks_per_view"] = df["clicks"] / df["views"]
df["f40"] = rng.gamma(2, 2, n)
df["f41"] = rng.normal(0, 1, n)
df["f42"] = rng.exponential(3, n)
df["f43"] = rng.uniform(0, 10, n)
os.makedirs("eda", exist_ok=True)
''', r'''
for col in df.columns:
    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    axes[0].hist(df[col], bins=50, color="steelblue")
    axes[1].boxplot(df[col].dropna(), vert=False)
    axes[0].set_title(col)
    fig.savefig(f"eda/{col}.png", dpi=70)
    plt.close(fig)
''', r'''
for col in df.columns:
    values = df[col].replace([np.inf, -np.inf], np.nan).dropna()
    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    axes[0].hist(values, bins=50, color="steelblue")
    axes[1].boxplot(values, vert=False)
    axes[0].set_title(col)
    fig.savefig(f"eda/{col}.png", dpi=70)
    plt.close(fig)
''')

# [25] seaborn: correlation heatmap of a frame that still has text columns; DataFrame.corr() no longer skips them
_add("seaborn_heatmap_corr_text_columns", r'''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns
rng = np.random.default_rng(26)
n = 1460
houses = pd.DataFrame({
    "LotArea": rng.gamma(4, 2500, n).round(),
    "OverallQual": rng.integers(1, 11, n),
    "YearBuilt": rng.integers(1900, 2010, n),
    "GrLivArea": rng.normal(1500, 500, n).clip(400).round(),
    "Neighborhood": rng.choice(["NAmes", "CollgCr", "OldTown", "Edwards", "Somerst"], n),
    "SaleCondition": rng.choice(["Normal", "Abnorml", "Partial"], n),
})
houses["SalePrice"] = (20000 * houses["OverallQual"] + 60 * houses["GrLivArea"]
                       + rng.normal(0, 25000, n)).round()
''', r'''
plt.figure(figsize=(8, 6))
sns.heatmap(houses.corr(), annot=True, fmt=".2f", cmap="coolwarm")
plt.title("Correlation matrix")
plt.savefig("corr.png")
''', r'''
plt.figure(figsize=(8, 6))
sns.heatmap(houses.corr(numeric_only=True), annot=True, fmt=".2f", cmap="coolwarm")
plt.title("Correlation matrix")
plt.savefig("corr.png")
''')

# [26] xgboost: one churn model per monthly CSV; in month 17 of 20 TotalCharges has blanks and loads as object
_add("xgboost_object_column_late_month", r'''
import os
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.metrics import roc_auc_score
rng = np.random.default_rng(27)
os.makedirs("monthly", exist_ok=True)
for m in range(20):
    n = 4000
    tenure = rng.integers(0, 72, n)
    charges = rng.uniform(20, 120, n).round(2)
    df = pd.DataFrame({"tenure": tenure, "MonthlyCharges": charges, "TotalCharges": (tenure * charges).round(2),
                       "SeniorCitizen": rng.integers(0, 2, n), "num_services": rng.integers(1, 9, n),
                       "support_calls": rng.poisson(1.5, n)})
    logit = -0.04 * tenure + 0.015 * charges + 0.4 * df["support_calls"] - 1.0
    df["Churn"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    if m == 17:
        df["TotalCharges"] = df["TotalCharges"].astype(str)
        df.loc[df["tenure"] == 0, "TotalCharges"] = " "
    df.to_csv(f"monthly/churn_{m:02d}.csv", index=False)
feats = ["tenure", "MonthlyCharges", "TotalCharges", "SeniorCitizen", "num_services", "support_calls"]
''', r'''
month_auc = {}
for path in sorted(os.listdir("monthly")):
    df = pd.read_csv(os.path.join("monthly", path))
    tr, va = df.iloc[:3000], df.iloc[3000:]
    clf = xgb.XGBClassifier(n_estimators=600, max_depth=6, learning_rate=0.05, n_jobs=1, random_state=0)
    clf.fit(tr[feats], tr["Churn"])
    month_auc[path] = roc_auc_score(va["Churn"], clf.predict_proba(va[feats])[:, 1])
pd.Series(month_auc).describe()
''', r'''
month_auc = {}
for path in sorted(os.listdir("monthly")):
    df = pd.read_csv(os.path.join("monthly", path))
    df["TotalCharges"] = pd.to_numeric(df["TotalCharges"], errors="coerce")
    tr, va = df.iloc[:3000], df.iloc[3000:]
    clf = xgb.XGBClassifier(n_estimators=600, max_depth=6, learning_rate=0.05, n_jobs=1, random_state=0)
    clf.fit(tr[feats], tr["Churn"])
    month_auc[path] = roc_auc_score(va["Churn"], clf.predict_proba(va[feats])[:, 1])
pd.Series(month_auc).describe()
''')

# [27] lightgbm: per-category models on get_dummies brand columns; one category's brand has a comma in its name
_add("lightgbm_json_chars_in_dummy_names", r'''
import numpy as np
import pandas as pd
import lightgbm as lgb
rng = np.random.default_rng(28)
brands_by_cat = {f"cat_{c:02d}": [f"brand{c}x{b}" for b in range(6)] for c in range(14)}
brands_by_cat["cat_10"] = ["Acme", "Globex", "Smith, Jones & Co", "Initech", "Umbrella"]
frames = []
for cat, brands in brands_by_cat.items():
    n = 36000
    frame = pd.DataFrame({"category": cat, "brand": rng.choice(brands, n), "price": rng.gamma(2, 15, n),
                          "rating": rng.uniform(1, 5, n).round(1), "n_reviews": rng.poisson(40, n)})
    frame["sold"] = (frame["rating"] * 3 - frame["price"] * 0.05 + rng.normal(0, 1, n) > 8).astype(int)
    frames.append(frame)
products = pd.concat(frames, ignore_index=True)
params = {"objective": "binary", "learning_rate": 0.05, "num_leaves": 31, "num_threads": 1, "verbose": -1, "seed": 0}
''', r'''
cat_models = {}
for cat, g in products.groupby("category"):
    X = pd.get_dummies(g[["brand", "price", "rating", "n_reviews"]], columns=["brand"], dtype=float)
    dtrain = lgb.Dataset(X.iloc[:30000], g["sold"].iloc[:30000])
    dvalid = lgb.Dataset(X.iloc[30000:], g["sold"].iloc[30000:], reference=dtrain)
    cat_models[cat] = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dvalid],
                                callbacks=[lgb.early_stopping(50, verbose=False)])
{c: m.best_iteration for c, m in cat_models.items()}
''', r'''
cat_models = {}
for cat, g in products.groupby("category"):
    X = pd.get_dummies(g[["brand", "price", "rating", "n_reviews"]], columns=["brand"], dtype=float)
    X.columns = X.columns.str.replace(r"[^0-9a-zA-Z_]", "_", regex=True)
    dtrain = lgb.Dataset(X.iloc[:30000], g["sold"].iloc[:30000])
    dvalid = lgb.Dataset(X.iloc[30000:], g["sold"].iloc[30000:], reference=dtrain)
    cat_models[cat] = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dvalid],
                                callbacks=[lgb.early_stopping(50, verbose=False)])
{c: m.best_iteration for c, m in cat_models.items()}
''')

# [28] python: pruning low-importance features by deleting from the dict while iterating over it
_add("python_dict_changed_during_iteration", r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.datasets import make_classification
X, y = make_classification(n_samples=1500, n_features=25, n_informative=6, random_state=28)
X = pd.DataFrame(X, columns=[f"feat_{i}" for i in range(25)])
rf = RandomForestClassifier(n_estimators=50, n_jobs=1, random_state=0).fit(X, y)
importances = dict(zip(X.columns, rf.feature_importances_))
''', r'''
for feat, imp in importances.items():
    if imp < 0.02:
        del importances[feat]
selected = list(importances)
X_sel = X[selected]
print(len(selected), "features kept")
''', r'''
for feat, imp in list(importances.items()):
    if imp < 0.02:
        del importances[feat]
selected = list(importances)
X_sel = X[selected]
print(len(selected), "features kept")
''')

# [29] python: best hyperparameters dumped to JSON, but max_depth is a numpy int64 taken from np.arange
_add("python_json_dump_numpy_int64", r'''
import json
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier
X, y = make_classification(n_samples=1000, n_features=10, random_state=29)
''', r'''
depths = np.arange(2, 12)
scores = [cross_val_score(DecisionTreeClassifier(max_depth=d, random_state=0), X, y, cv=3).mean() for d in depths]
best = {"max_depth": depths[int(np.argmax(scores))], "cv_acc": max(scores)}
with open("best_params.json", "w") as f:
    json.dump(best, f, indent=2)
''', r'''
depths = np.arange(2, 12)
scores = [cross_val_score(DecisionTreeClassifier(max_depth=d, random_state=0), X, y, cv=3).mean() for d in depths]
best = {"max_depth": int(depths[int(np.argmax(scores))]), "cv_acc": max(scores)}
with open("best_params.json", "w") as f:
    json.dump(best, f, indent=2)
''')
