r"""Thirty Kaggle-style notebook crash/fix pairs (sixteenth set), for the notebook crash-prediction benchmark.

Fields
------
PAIRS is a list of 30 tuples (name, setup, crash, fixed):
  name   library prefix (pandas_, numpy_, sklearn_, keras_, torch_, matplotlib_, seaborn_, xgboost_,
         lightgbm_, python_) plus a short slug.
  setup  the earlier notebook cells joined, imports included. Builds seeded synthetic data
         (np.random.default_rng, random.seed, torch.manual_seed, keras.utils.set_random_seed), writes the files
         it needs under relative paths in the current working directory, and runs clean. Nothing is
         downloaded: no hub data sets, no pretrained weights.
  crash  the target cell as the notebook author wrote it. Executed after setup in the same namespace, it
         raises an exception from a library or from Python itself. No cell contains a raise or assert.
  fixed  the same cell after the author's small, realistic fix. Executed after setup in a fresh namespace,
         it runs clean and does the same work.

How it was made
---------------
Stories: one fresh story per pair from a different domain (retail POS, factory sensors, card fraud, smart
meters, lung CT, wind turbines, ECG, insurance, telecom churn, lending, bike sharing, heart disease, house
prices, used cars, reviews, credit scoring, crop yield, electricity load, diabetes, weather, box office,
network intrusion, retail demand, clickstream, hyper-parameter sweeps), written in the code style Kaggle
notebooks use (df names, groupby/agg chains, fold loops, model dicts, fit/evaluate cells).
Probing: every failure mode was first reproduced in isolation against the installed versions, recording
the exception type and message (for example DataFrame.append, groupby().mean() on text columns,
OneHotEncoder(sparse=), mean_squared_error(squared=), ModelCheckpoint .h5 suffix, torch.load weights_only,
plt.style 'seaborn', positional sns.barplot, XGBoost non-consecutive classes, LightGBM early_stopping_rounds,
NumPy 2 uint16 + negative Python int). Probing also showed modes that no longer fail and were therefore
not used: roc_auc_score with a single class now returns nan with a warning, fillna(method=) and
applymap only warn, and RandomForest/ExtraTrees/DecisionTree now accept NaN (which is why pair 12 only
fails at GradientBoosting).
Checker: /tmp/sixteenth/check.py parses every setup/crash/fixed with ast and rejects raise/assert
statements, then for each pair starts two fresh Python processes, strictly one at a time, each in its own
new temporary working directory, with TF_CPP_MIN_LOG_LEVEL=3: setup+crash (each cell compiled and exec'd in
one plain namespace dict with __name__ == "__main__"; the exception type and the seconds from the start of
the crash cell to the exception are recorded) and setup+fixed (must run clean; cell time and peak RSS
recorded). A crash must raise, a long crash must land within 2-5 s and a short one under 1 s; a fixed
cell must not raise. Two full rounds were run on this final file; all 60 runs were as expected in both
rounds with the same exception type per pair. Only the timing numbers below were filled in afterwards.
Timing: long cells were tuned by changing rows per file, number of files/months, chunk size, window
step, rows per region, estimators, epochs and training rows until the crash landed near 2.5-3.5 s on
this machine. Tree models use n_jobs=1 / num_threads=1, long torch cells call torch.set_num_threads(1)
(the small torch setups too), and setups whose timing depends on BLAS or OpenMP set OPENBLAS_NUM_THREADS /
OMP_NUM_THREADS=1 before importing numpy. Peak memory stays under 1 GB per run, setups under 10 s.

Checked against:
  Python 3.11.7; numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1, scipy 1.17.1, matplotlib 3.11.2
  (Agg backend), seaborn 0.13.2, xgboost 3.2.0, lightgbm 4.7.0, torch 2.13.0+cpu, keras 3.15.1 on
  tensorflow 2.21.0. Linux x86_64 VM, 2 cores (Intel Xeon), 23 GiB RAM, CPU only, no GPU.

Mix by library (30)
-------------------
  pandas 7:       0, 1, 2, 3, 4, 5, 6
  numpy 3:        7, 8, 9
  scikit-learn 7: 10, 11, 12, 13, 14, 15, 16
  keras 3:        17, 18, 19   (keras 3 on TensorFlow)
  torch 4:        20, 21, 22, 23
  matplotlib 1:   24
  seaborn 1:      25
  xgboost 1:      26
  lightgbm 1:     27
  python 2:       28, 29

Long (15): 0, 2, 4, 6, 8, 9, 11, 12, 16, 17, 19, 20, 22, 26, 28
Short (15): 1, 3, 5, 7, 10, 13, 14, 15, 18, 21, 23, 24, 25, 27, 29

Root causes
-----------
Removed or renamed APIs and changed defaults (11):
   1  pandas_lead_channel_summary_append (DataFrame.append removed in pandas 2; collect dicts, build once) -> AttributeError
   3  pandas_dev_survey_groupby_mean (groupby().mean() no longer drops text columns; numeric_only=True) -> TypeError
   7  numpy_ct_hounsfield_uint16_overflow (NumPy 2 promotion: uint16 pixels + int intercept -1024; cast to int16 first) -> OverflowError
  10  sklearn_onehot_sparse_kwarg (OneHotEncoder sparse= removed; sparse_output=False) -> TypeError
  13  sklearn_rmse_squared_kwarg (mean_squared_error squared= removed; root_mean_squared_error) -> TypeError
  17  keras_house_mlp_save_without_extension (Keras 3 model.save needs .keras/.h5, fails after training; add .keras) -> ValueError
  18  keras_checkpoint_weights_h5_suffix (weights-only ModelCheckpoint needs .weights.h5; rename the file) -> ValueError
  21  torch_load_checkpoint_weights_only (torch.load weights_only=True default rejects numpy arrays in the checkpoint; weights_only=False for own file) -> _pickle.UnpicklingError
  24  matplotlib_removed_seaborn_style (style 'seaborn' removed in Matplotlib 3.8; 'seaborn-v0_8') -> OSError
  25  seaborn_barplot_positional_args (seaborn >= 0.12 keyword-only x/y; barplot(x=..., y=...)) -> TypeError
  27  lightgbm_train_removed_early_stopping_kwargs (lgb.train early_stopping_rounds/verbose_eval removed; callbacks) -> TypeError
Bad item deep in the data, hit inside the loop (6):
   0  pandas_daily_pos_exports_blank_units (day 17 export has blank units, astype(int) on NaN; fillna(0) first) -> pandas.errors.IntCastingNaNError
   4  pandas_transaction_chunks_mixed_datetime (migrated terminals write dd/mm/yyyy HH:MM in chunk 3; coerce + second format) -> ValueError
   8  numpy_rolling_ols_singular_window (pitch channel exactly 0 in a late window, inv(X'X) singular; np.linalg.lstsq) -> numpy.linalg.LinAlgError
  11  sklearn_region_churn_single_class (new region has no churners, LogisticRegression needs 2 classes; skip one-class regions) -> ValueError
  26  xgboost_kfold_missing_class_in_fold (unshuffled KFold on time-ordered logs, fold 3 train lacks class 2 so classes are [0 1 3]; StratifiedKFold(shuffle=True)) -> ValueError
  28  python_clickstream_jsonl_truncated_last_line (collector killed mid-write of the last line; skip undecodable lines) -> json.JSONDecodeError
Results combined or used after the loop (5):
   2  pandas_sensor_rolling_features_concat (TMP-14 block re-sent at the end, duplicate unsorted timestamps, concat(axis=1) cannot align; drop_duplicates("timestamp")) -> pandas.errors.InvalidIndexError
   6  pandas_smart_meter_monthly_pivot (re-sent July file gives duplicate meter/month pairs, pivot fails; drop_duplicates keep="last") -> ValueError
   9  numpy_ecg_window_features_ragged (one recording 11 min instead of 15, np.array of ragged window lists; truncate to the shortest) -> ValueError
  16  sklearn_oof_rmsle_negative_preds (polynomial ridge predicts prices <= -1, OOF RMSLE rejects them; clip predictions at 0) -> ValueError
  22  torch_gru_forecast_numpy_requires_grad (test predictions collected without no_grad, .numpy() on a grad tensor; torch.no_grad()) -> RuntimeError
Schema, key and train/test mismatches (2):
   5  pandas_catalog_merge_key_dtype (zero-padded str product_code vs int64 from the sales export; astype(str).str.zfill(6)) -> ValueError
  15  sklearn_test_feature_order_mismatch (test features engineered in another order; test[X_train.columns]) -> ValueError
Labels, classes, NaN and dtype (3):
  12  sklearn_model_zoo_nan_inputs (NaN income/emp_length passes the first 3 models, GradientBoosting rejects NaN; SimpleImputer in each pipeline) -> ValueError
  19  keras_review_stars_val_label_range (train stars shifted to 0-4, validation left 1-5, label 5 out of range at epoch-1 validation; subtract 1) -> tensorflow.errors.InvalidArgumentError
  23  torch_float64_inputs_dtype_mismatch (torch.from_numpy keeps float64, Linear weights are float32; .float()) -> RuntimeError
Unfitted objects (1):
  14  sklearn_pipeline_unfitted_after_cv (cross_val_score fits clones only, pipe.predict_proba unfitted; pipe.fit(X, y) first) -> sklearn.exceptions.NotFittedError
Shape and batch size (1):
  20  torch_batchnorm_last_batch_of_one (70,401 rows / batch 64 leaves a last batch of 1, BatchNorm1d in train mode; drop_last=True) -> ValueError
Plain Python semantics (1):
  29  python_sweep_leaderboard_sort_none (failed runs have val_auc None, sorted() compares None with float; filter them out) -> TypeError

Long and short
--------------
Seconds from the start of the crash/fixed cell, round 1 / round 2 (2-core machine above).
 idx | kind  | crash s r1/r2 | fixed s r1/r2 | exception                              | where it fails
   0 | long  |  2.78/ 2.75   |  3.36/ 3.34   | pandas.errors.IntCastingNaNError       | fails at file 17 of 20
   1 | short |  0.00/ 0.00   |  0.01/ 0.00   | AttributeError                         | -
   2 | long  |  2.91/ 2.90   |  2.76/ 2.65   | pandas.errors.InvalidIndexError        | fails after the loop over 22 sensors (concat)
   3 | short |  0.00/ 0.00   |  0.00/ 0.00   | TypeError                              | -
   4 | long  |  2.72/ 2.71   | 14.54/14.03   | ValueError                             | fails at chunk 3 of 10 (80k-row chunks)
   5 | short |  0.00/ 0.00   |  0.02/ 0.02   | ValueError                             | -
   6 | long  |  2.64/ 2.63   |  2.65/ 2.76   | ValueError                             | fails after the comprehension over 49 files (pivot)
   7 | short |  0.00/ 0.00   |  0.01/ 0.01   | OverflowError                          | -
   8 | long  |  2.83/ 2.90   |  5.63/ 5.80   | numpy.linalg.LinAlgError               | fails at window 50,001 of 55,281
   9 | long  |  2.85/ 2.89   |  2.85/ 2.85   | ValueError                             | fails after the loops over 30 recordings
  10 | short |  0.00/ 0.00   |  0.04/ 0.03   | TypeError                              | -
  11 | long  |  2.67/ 2.70   |  3.07/ 3.19   | ValueError                             | fails at region 15 of 18
  12 | long  |  2.79/ 2.86   |  7.33/ 7.25   | ValueError                             | fails at model 4 of 6 (grad_boost)
  13 | short |  0.00/ 0.00   |  0.00/ 0.00   | TypeError                              | -
  14 | short |  0.00/ 0.00   |  0.07/ 0.07   | sklearn.exceptions.NotFittedError      | -
  15 | short |  0.00/ 0.00   |  0.01/ 0.01   | ValueError                             | -
  16 | long  |  2.82/ 2.88   |  2.63/ 2.64   | ValueError                             | fails after the loop over 5 folds (RMSLE)
  17 | long  |  2.62/ 2.50   |  2.40/ 2.63   | ValueError                             | fails after 3 epochs (model.save)
  18 | short |  0.00/ 0.00   |  2.43/ 2.24   | ValueError                             | -
  19 | long  |  2.56/ 2.80   |  7.80/ 7.33   | tensorflow.errors.InvalidArgumentError | fails at end of epoch 1 of 3 (validation)
  20 | long  |  2.99/ 3.05   |  8.76/ 9.01   | ValueError                             | fails at batch 1,101 of 1,101, epoch 1
  21 | short |  0.00/ 0.00   |  0.01/ 0.00   | _pickle.UnpicklingError                | -
  22 | long  |  2.98/ 2.72   |  2.87/ 2.72   | RuntimeError                           | fails after 3 epochs + 6 test batches
  23 | short |  0.01/ 0.00   |  0.12/ 0.13   | RuntimeError                           | -
  24 | short |  0.00/ 0.00   |  0.30/ 0.28   | OSError                                | -
  25 | short |  0.00/ 0.00   |  0.15/ 0.14   | TypeError                              | -
  26 | long  |  2.88/ 2.88   |  7.06/ 7.16   | ValueError                             | fails at fold 3 of 5
  27 | short |  0.00/ 0.00   |  0.16/ 0.17   | TypeError                              | -
  28 | long  |  2.60/ 2.62   |  2.89/ 2.75   | json.JSONDecodeError                   | fails at record 480,001 of 480,001
  29 | short |  0.00/ 0.00   |  0.00/ 0.00   | TypeError                              | -

Long crash times (both rounds): 2.50 - 3.05 s.
Max short crash time (both rounds): 0.006 s (pair 23).
Slowest setup: 7.35 s (pair 0).
Highest peak RSS: 804 MB (pair 19).
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup, crash, fixed))


# [0] pandas: regional grocery chain, 20 daily POS exports concatenated; day 17's export has blank units for voided baskets
_add("pandas_daily_pos_exports_blank_units", r'''
import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
os.makedirs("data/pos_exports", exist_ok=True)

stores = [f"ST{n:03d}" for n in range(1, 61)]
skus = [f"SKU{n:05d}" for n in range(1, 3001)]
categories = np.array(["dairy", "bakery", "produce", "frozen", "snacks", "beverages", "household"])

for day in range(1, 21):
    n = 180_000
    export = pd.DataFrame({
        "date": f"2024-03-{day:02d}",
        "store_id": rng.choice(stores, n),
        "sku": rng.choice(skus, n),
        "category": rng.choice(categories, n),
        "units": rng.poisson(2.5, n) + 1,
        "unit_price": np.round(rng.gamma(2.0, 3.2, n), 2),
        "promo_flag": rng.random(n) < 0.12,
    })
    if day == 17:
        # POS firmware update: voided baskets exported with an empty units field
        export["units"] = export["units"].astype("Int64")
        export.loc[rng.choice(n, 35, replace=False), "units"] = pd.NA
    export.to_csv(f"data/pos_exports/pos_2024-03-{day:02d}.csv", index=False)

print(sorted(os.listdir("data/pos_exports"))[:3], "...")
''', r'''
from glob import glob

daily_summaries, sku_daily = [], []
for path in sorted(glob("data/pos_exports/pos_*.csv")):
    pos = pd.read_csv(path, parse_dates=["date"])
    pos["units"] = pos["units"].astype(int)
    pos["revenue"] = pos["units"] * pos["unit_price"]
    pos.loc[pos["promo_flag"], "revenue"] *= 0.85
    pos["price_band"] = pd.cut(pos["unit_price"], bins=[0, 2, 5, 10, 20, 50, np.inf],
                               labels=["<2", "2-5", "5-10", "10-20", "20-50", "50+"])
    summary = (pos.groupby(["date", "store_id", "category"])
                  .agg(units=("units", "sum"),
                       revenue=("revenue", "sum"),
                       n_skus=("sku", "nunique"),
                       promo_share=("promo_flag", "mean"),
                       n_price_bands=("price_band", "nunique"))
                  .reset_index())
    daily_summaries.append(summary)
    sku_daily.append(pos.groupby("sku").agg(units=("units", "sum"), n_stores=("store_id", "nunique"),
                                            avg_price=("unit_price", "mean")).assign(date=pos["date"].iloc[0]))
    print(path, len(pos), round(summary["revenue"].sum(), 2))

store_daily = pd.concat(daily_summaries, ignore_index=True)
sku_daily = pd.concat(sku_daily)
store_daily.head()
''', r'''
from glob import glob

daily_summaries, sku_daily = [], []
for path in sorted(glob("data/pos_exports/pos_*.csv")):
    pos = pd.read_csv(path, parse_dates=["date"])
    pos["units"] = pos["units"].fillna(0).astype(int)
    pos["revenue"] = pos["units"] * pos["unit_price"]
    pos.loc[pos["promo_flag"], "revenue"] *= 0.85
    pos["price_band"] = pd.cut(pos["unit_price"], bins=[0, 2, 5, 10, 20, 50, np.inf],
                               labels=["<2", "2-5", "5-10", "10-20", "20-50", "50+"])
    summary = (pos.groupby(["date", "store_id", "category"])
                  .agg(units=("units", "sum"),
                       revenue=("revenue", "sum"),
                       n_skus=("sku", "nunique"),
                       promo_share=("promo_flag", "mean"),
                       n_price_bands=("price_band", "nunique"))
                  .reset_index())
    daily_summaries.append(summary)
    sku_daily.append(pos.groupby("sku").agg(units=("units", "sum"), n_stores=("store_id", "nunique"),
                                            avg_price=("unit_price", "mean")).assign(date=pos["date"].iloc[0]))
    print(path, len(pos), round(summary["revenue"].sum(), 2))

store_daily = pd.concat(daily_summaries, ignore_index=True)
sku_daily = pd.concat(sku_daily)
store_daily.head()
''')

# [1] pandas: B2B marketing lead-conversion summary per channel built with the removed DataFrame.append
_add("pandas_lead_channel_summary_append", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
n = 6000
leads = pd.DataFrame({
    "lead_id": np.arange(100000, 100000 + n),
    "channel": rng.choice(["organic", "paid_search", "webinar", "referral", "trade_show", "cold_email"], n,
                          p=[0.3, 0.25, 0.1, 0.1, 0.05, 0.2]),
    "company_size": rng.choice(["1-10", "11-50", "51-200", "201-1000", "1000+"], n),
    "days_to_close": rng.integers(3, 120, n),
})
leads["converted"] = rng.random(n) < leads["channel"].map(
    {"organic": 0.08, "paid_search": 0.05, "webinar": 0.15, "referral": 0.22, "trade_show": 0.12, "cold_email": 0.02})
leads["deal_size"] = np.where(leads["converted"], np.round(rng.lognormal(9, 0.6, n), -1), 0.0)
leads.head()
''', r'''
channel_summary = pd.DataFrame(columns=["channel", "n_leads", "conversion_rate", "avg_deal", "median_days"])
for channel, grp in leads.groupby("channel"):
    won = grp[grp["converted"]]
    channel_summary = channel_summary.append({
        "channel": channel,
        "n_leads": len(grp),
        "conversion_rate": grp["converted"].mean(),
        "avg_deal": won["deal_size"].mean(),
        "median_days": won["days_to_close"].median(),
    }, ignore_index=True)

channel_summary.sort_values("conversion_rate", ascending=False)
''', r'''
rows = []
for channel, grp in leads.groupby("channel"):
    won = grp[grp["converted"]]
    rows.append({
        "channel": channel,
        "n_leads": len(grp),
        "conversion_rate": grp["converted"].mean(),
        "avg_deal": won["deal_size"].mean(),
        "median_days": won["days_to_close"].median(),
    })
channel_summary = pd.DataFrame(rows, columns=["channel", "n_leads", "conversion_rate", "avg_deal", "median_days"])

channel_summary.sort_values("conversion_rate", ascending=False)
''')

# [2] pandas: factory predictive maintenance, rolling features per sensor via groupby, joined wide after the loop; one gateway re-sent a block late
_add("pandas_sensor_rolling_features_concat", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n_obs = 120_000
timestamps = pd.Timestamp("2024-02-01") + pd.to_timedelta(np.arange(n_obs) * 15, unit="s")

frames = []
for s in range(1, 23):
    base = rng.uniform(55, 75)
    frames.append(pd.DataFrame({
        "sensor_id": f"TMP-{s:02d}",
        "timestamp": timestamps,
        "temperature": base + np.cumsum(rng.normal(0, 0.04, n_obs)) + rng.normal(0, 0.3, n_obs),
        "vibration": np.abs(rng.normal(0.8, 0.25, n_obs)),
        "current_a": rng.normal(12, 1.5, n_obs),
    }))

# rows are stored in arrival order
readings = pd.concat(frames, ignore_index=True).sort_values("timestamp", kind="stable", ignore_index=True)
# TMP-14's gateway rebooted and re-sent its buffer of readings at the end of the export
resent = readings[(readings["sensor_id"] == "TMP-14")].iloc[91_000:91_040]
readings = pd.concat([readings, resent], ignore_index=True)
print(readings.shape)
readings.head()
''', r'''
WINDOW = 120  # 120 readings x 15 s = 30 minutes

sensor_features = {}
for sensor_id, g in readings.groupby("sensor_id"):
    g = g.set_index("timestamp")
    temp_roll = g["temperature"].rolling(WINDOW, min_periods=20)
    vib_roll = g["vibration"].rolling(WINDOW, min_periods=20)
    sensor_features[sensor_id] = pd.DataFrame({
        f"{sensor_id}_temp_mean": temp_roll.mean(),
        f"{sensor_id}_temp_std": temp_roll.std(),
        f"{sensor_id}_temp_slope": g["temperature"].diff(WINDOW) / WINDOW,
        f"{sensor_id}_vib_p95": vib_roll.quantile(0.95),
        f"{sensor_id}_vib_median": vib_roll.median(),
        f"{sensor_id}_vib_kurt": vib_roll.kurt(),
        f"{sensor_id}_current_ewm": g["current_a"].ewm(span=WINDOW).mean(),
    })
print(len(sensor_features), "sensors processed")

wide_features = pd.concat(sensor_features.values(), axis=1)
wide_features.shape
''', r'''
WINDOW = 120  # 120 readings x 15 s = 30 minutes

sensor_features = {}
for sensor_id, g in readings.groupby("sensor_id"):
    g = g.drop_duplicates("timestamp").set_index("timestamp")
    temp_roll = g["temperature"].rolling(WINDOW, min_periods=20)
    vib_roll = g["vibration"].rolling(WINDOW, min_periods=20)
    sensor_features[sensor_id] = pd.DataFrame({
        f"{sensor_id}_temp_mean": temp_roll.mean(),
        f"{sensor_id}_temp_std": temp_roll.std(),
        f"{sensor_id}_temp_slope": g["temperature"].diff(WINDOW) / WINDOW,
        f"{sensor_id}_vib_p95": vib_roll.quantile(0.95),
        f"{sensor_id}_vib_median": vib_roll.median(),
        f"{sensor_id}_vib_kurt": vib_roll.kurt(),
        f"{sensor_id}_current_ewm": g["current_a"].ewm(span=WINDOW).mean(),
    })
print(len(sensor_features), "sensors processed")

wide_features = pd.concat(sensor_features.values(), axis=1)
wide_features.shape
''')

# [3] pandas: developer-survey EDA, salary by country with groupby().mean() over a frame that still has text columns
_add("pandas_dev_survey_groupby_mean", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n = 8000
survey = pd.DataFrame({
    "respondent": np.arange(1, n + 1),
    "country": rng.choice(["Germany", "India", "United States", "Brazil", "Poland", "Canada", "Nigeria"], n),
    "ed_level": rng.choice(["Bachelor's", "Master's", "PhD", "Self-taught", "Bootcamp"], n),
    "remote_work": rng.choice(["Remote", "Hybrid", "In-person"], n),
    "years_code": rng.integers(0, 35, n),
    "salary_usd": np.round(rng.lognormal(10.9, 0.55, n), -2),
    "job_sat": rng.integers(1, 11, n),
})
survey.info()
''', r'''
by_country = survey.groupby("country").mean().sort_values("salary_usd", ascending=False)
by_country[["salary_usd", "years_code", "job_sat"]].round(1)
''', r'''
by_country = survey.groupby("country").mean(numeric_only=True).sort_values("salary_usd", ascending=False)
by_country[["salary_usd", "years_code", "job_sat"]].round(1)
''')

# [4] pandas: card-transaction log read in chunks; one block from migrated terminals uses dd/mm/yyyy timestamps
_add("pandas_transaction_chunks_mixed_datetime", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(99)
card_pool = rng.integers(4_000_000_000_000_000, 4_999_999_999_999_999, 60_000).astype(str)

def make_block(n, start, days):
    ts = pd.Timestamp(start) + pd.to_timedelta(np.sort(rng.integers(0, 86400 * days, n)), unit="s")
    return pd.DataFrame({
        "transaction_id": rng.integers(10**9, 10**10, n),
        "timestamp": ts,
        "terminal_id": rng.integers(1000, 1400, n),
        "card_number": rng.choice(card_pool, n),
        "mcc": rng.choice(["5411", "5812", "5541", "5999", "4121", "5732"], n),
        "amount": np.round(rng.lognormal(3.2, 1.0, n), 2),
    })

block_a = make_block(170_000, "2024-05-01", 5)
block_b = make_block(25_000, "2024-05-06", 1)          # terminals migrated from the legacy acquirer
block_c = make_block(605_000, "2024-05-07", 14)
block_b["timestamp"] = block_b["timestamp"].dt.strftime("%d/%m/%Y %H:%M")

block_a.to_csv("transactions.csv", index=False)
block_b.to_csv("transactions.csv", index=False, header=False, mode="a")
block_c.to_csv("transactions.csv", index=False, header=False, mode="a")
del block_a, block_b, block_c
print(open("transactions.csv").readline())
''', r'''
terminal_hourly = []
for i, chunk in enumerate(pd.read_csv("transactions.csv", chunksize=80_000, dtype={"card_number": str, "mcc": str})):
    chunk["timestamp"] = pd.to_datetime(chunk["timestamp"], format="%Y-%m-%d %H:%M:%S")
    chunk = chunk.sort_values(["card_number", "timestamp"])
    chunk["secs_since_prev"] = chunk.groupby("card_number")["timestamp"].diff().dt.total_seconds()
    chunk["amount_z_terminal"] = chunk.groupby("terminal_id")["amount"].transform(lambda s: (s - s.mean()) / s.std())
    chunk["tx_last_hour"] = chunk.groupby("card_number").rolling("1h", on="timestamp")["amount"].count().values
    chunk["hour"] = chunk["timestamp"].dt.floor("h")
    chunk["card_bin"] = chunk["card_number"].str[:6]
    chunk["is_fuel"] = chunk["mcc"].eq("5541")
    agg = (chunk.groupby(["terminal_id", "hour"])
                .agg(n_tx=("amount", "size"), amount=("amount", "sum"),
                     n_cards=("card_number", "nunique"), n_bins=("card_bin", "nunique"),
                     fuel_share=("is_fuel", "mean"), min_gap=("secs_since_prev", "min"),
                     max_z=("amount_z_terminal", "max"), max_tx_last_hour=("tx_last_hour", "max")))
    terminal_hourly.append(agg)
    print(f"chunk {i}: {len(chunk)} rows")

terminal_hourly = pd.concat(terminal_hourly).groupby(level=[0, 1]).sum()
terminal_hourly.describe()
''', r'''
terminal_hourly = []
for i, chunk in enumerate(pd.read_csv("transactions.csv", chunksize=80_000, dtype={"card_number": str, "mcc": str})):
    ts = pd.to_datetime(chunk["timestamp"], format="%Y-%m-%d %H:%M:%S", errors="coerce")
    chunk["timestamp"] = ts.fillna(pd.to_datetime(chunk["timestamp"], format="%d/%m/%Y %H:%M", errors="coerce"))
    chunk = chunk.sort_values(["card_number", "timestamp"])
    chunk["secs_since_prev"] = chunk.groupby("card_number")["timestamp"].diff().dt.total_seconds()
    chunk["amount_z_terminal"] = chunk.groupby("terminal_id")["amount"].transform(lambda s: (s - s.mean()) / s.std())
    chunk["tx_last_hour"] = chunk.groupby("card_number").rolling("1h", on="timestamp")["amount"].count().values
    chunk["hour"] = chunk["timestamp"].dt.floor("h")
    chunk["card_bin"] = chunk["card_number"].str[:6]
    chunk["is_fuel"] = chunk["mcc"].eq("5541")
    agg = (chunk.groupby(["terminal_id", "hour"])
                .agg(n_tx=("amount", "size"), amount=("amount", "sum"),
                     n_cards=("card_number", "nunique"), n_bins=("card_bin", "nunique"),
                     fuel_share=("is_fuel", "mean"), min_gap=("secs_since_prev", "min"),
                     max_z=("amount_z_terminal", "max"), max_tx_last_hour=("tx_last_hour", "max")))
    terminal_hourly.append(agg)
    print(f"chunk {i}: {len(chunk)} rows")

terminal_hourly = pd.concat(terminal_hourly).groupby(level=[0, 1]).sum()
terminal_hourly.describe()
''')

# [5] pandas: e-commerce catalog kept as zero-padded string codes, sales export parsed them as integers; merge fails
_add("pandas_catalog_merge_key_dtype", r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
codes = np.arange(1, 2501)
catalog = pd.DataFrame({
    "product_code": [f"{c:06d}" for c in codes],
    "product_name": [f"Item {c}" for c in codes],
    "department": rng.choice(["Home", "Garden", "Toys", "Sports", "Beauty"], len(codes)),
    "list_price": np.round(rng.uniform(2, 250, len(codes)), 2),
})
catalog.to_csv("catalog.csv", index=False)

n = 40_000
pd.DataFrame({
    "order_id": np.arange(n) // 3 + 500000,
    "product_code": [f"{c:06d}" for c in rng.choice(codes, n)],
    "qty": rng.integers(1, 6, n),
}).to_csv("order_lines.csv", index=False)

catalog = pd.read_csv("catalog.csv", dtype={"product_code": str})
order_lines = pd.read_csv("order_lines.csv")
order_lines.head()
''', r'''
lines = order_lines.merge(catalog, on="product_code", how="left")
lines["line_value"] = lines["qty"] * lines["list_price"]
dept_revenue = lines.groupby("department")["line_value"].sum().sort_values(ascending=False)
dept_revenue
''', r'''
order_lines["product_code"] = order_lines["product_code"].astype(str).str.zfill(6)
lines = order_lines.merge(catalog, on="product_code", how="left")
lines["line_value"] = lines["qty"] * lines["list_price"]
dept_revenue = lines.groupby("department")["line_value"].sum().sort_values(ascending=False)
dept_revenue
''')

# [6] pandas: smart-meter monthly files read in a comprehension; a re-sent July file duplicates meter/month pairs at the pivot
_add("pandas_smart_meter_monthly_pivot", r'''
import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
os.makedirs("meters", exist_ok=True)
meter_ids = [f"MTR{n:05d}" for n in range(1, 3401)]
base_load = rng.gamma(3.0, 3.0, len(meter_ids))

for month_start in pd.date_range("2020-01-01", "2023-12-01", freq="MS"):
    days = pd.date_range(month_start, month_start + pd.offsets.MonthEnd(0), freq="D")
    m = pd.DataFrame({
        "meter_id": np.repeat(meter_ids, len(days)),
        "date": np.tile(days.strftime("%Y-%m-%d"), len(meter_ids)),
        "kwh": np.round(np.repeat(base_load, len(days)) * rng.lognormal(0, 0.25, len(days) * len(meter_ids)), 3),
    })
    m.to_csv(f"meters/readings_{month_start:%Y_%m}.csv", index=False)
    if month_start == pd.Timestamp("2022-07-01"):
        # utility re-sent corrected July data for part of the meters
        m[m["meter_id"] < "MTR00800"].to_csv("meters/readings_2022_07_resend.csv", index=False)

print(len(os.listdir("meters")), "files")
''', r'''
from glob import glob

files = sorted(glob("meters/readings_*.csv"))
monthly = [
    pd.read_csv(f, parse_dates=["date"])
      .assign(weekend_kwh=lambda d: d["kwh"].where(d["date"].dt.dayofweek >= 5, 0.0))
      .groupby("meter_id", as_index=False)
      .agg(kwh=("kwh", "sum"), weekend_kwh=("weekend_kwh", "sum"), peak_day=("kwh", "max"),
           median_day=("kwh", "median"), std_day=("kwh", "std"), n_days=("date", "nunique"))
      .assign(month=os.path.basename(f)[9:16].replace("_", "-"))
    for f in files
]
energy = pd.concat(monthly, ignore_index=True)
wide = energy.pivot(index="meter_id", columns="month", values="kwh")
wide.iloc[:5, -6:]
''', r'''
from glob import glob

files = sorted(glob("meters/readings_*.csv"))
monthly = [
    pd.read_csv(f, parse_dates=["date"])
      .assign(weekend_kwh=lambda d: d["kwh"].where(d["date"].dt.dayofweek >= 5, 0.0))
      .groupby("meter_id", as_index=False)
      .agg(kwh=("kwh", "sum"), weekend_kwh=("weekend_kwh", "sum"), peak_day=("kwh", "max"),
           median_day=("kwh", "median"), std_day=("kwh", "std"), n_days=("date", "nunique"))
      .assign(month=os.path.basename(f)[9:16].replace("_", "-"))
    for f in files
]
energy = pd.concat(monthly, ignore_index=True)
energy = energy.drop_duplicates(["meter_id", "month"], keep="last")
wide = energy.pivot(index="meter_id", columns="month", values="kwh")
wide.iloc[:5, -6:]
''')

# [7] numpy: lung-CT preprocessing, raw uint16 slices rescaled to Hounsfield units with the DICOM header's integer intercept
_add("numpy_ct_hounsfield_uint16_overflow", r'''
import json
import numpy as np

rng = np.random.default_rng(17)
n_slices = 24
scans = rng.integers(0, 2600, size=(n_slices, 256, 256), dtype=np.uint16)
headers = [{"SliceLocation": -300.0 + 2.5 * i, "RescaleSlope": 1, "RescaleIntercept": -1024, "WindowCenter": -600}
           for i in range(n_slices)]
with open("ct_headers.json", "w") as f:
    json.dump(headers, f)

with open("ct_headers.json") as f:
    headers = json.load(f)
print(scans.dtype, scans.shape, headers[0])
''', r'''
def to_hu(pixels, header):
    hu = pixels * header["RescaleSlope"] + header["RescaleIntercept"]
    return np.clip(hu, -1000, 400)

volume_hu = np.stack([to_hu(px, h) for px, h in zip(scans, headers)])
lung_mask = (volume_hu > -950) & (volume_hu < -400)
print(volume_hu.dtype, volume_hu.min(), volume_hu.max(), round(lung_mask.mean(), 3))
''', r'''
def to_hu(pixels, header):
    hu = pixels.astype(np.int16) * header["RescaleSlope"] + header["RescaleIntercept"]
    return np.clip(hu, -1000, 400)

volume_hu = np.stack([to_hu(px, h) for px, h in zip(scans, headers)])
lung_mask = (volume_hu > -950) & (volume_hu < -400)
print(volume_hu.dtype, volume_hu.min(), volume_hu.max(), round(lung_mask.mean(), 3))
''')

# [8] numpy: wind-farm power curve, rolling OLS of power on 12 SCADA channels; the pitch sensor reads exactly 0 during a late outage
_add("numpy_rolling_ols_singular_window", r'''
import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np

rng = np.random.default_rng(8)
T = 56_000
channels = ["wind_speed", "wind_dir_sin", "wind_dir_cos", "rotor_rpm", "pitch_angle", "nacelle_temp",
            "ambient_temp", "gen_temp", "yaw_error", "air_density", "turbulence", "gearbox_temp"]
X = rng.normal(size=(T, len(channels))).cumsum(axis=0) * 0.02 + rng.normal(size=(T, len(channels)))
true_beta = rng.normal(0, 1, len(channels))
power = 1500 + X @ true_beta * 40 + rng.normal(0, 25, T)
# SCADA outage: pitch channel logged as exactly 0.0 for ~3 hours (1 s resolution)
pitch_idx = channels.index("pitch_angle")
X[50_000:53_000, pitch_idx] = 0.0
print(X.shape, power.shape)
''', r'''
window, step = 720, 1
coefs, resid_sd = [], []
for start in range(0, T - window + 1, step):
    Xw = np.column_stack([np.ones(window), X[start:start + window]])
    yw = power[start:start + window]
    beta = np.linalg.inv(Xw.T @ Xw) @ Xw.T @ yw
    coefs.append(beta)
    resid_sd.append(np.std(yw - Xw @ beta))

coefs = np.array(coefs)
print(coefs.shape, np.mean(resid_sd))
''', r'''
window, step = 720, 1
coefs, resid_sd = [], []
for start in range(0, T - window + 1, step):
    Xw = np.column_stack([np.ones(window), X[start:start + window]])
    yw = power[start:start + window]
    beta = np.linalg.lstsq(Xw, yw, rcond=None)[0]
    coefs.append(beta)
    resid_sd.append(np.std(yw - Xw @ beta))

coefs = np.array(coefs)
print(coefs.shape, np.mean(resid_sd))
''')

# [9] numpy: ECG arrhythmia screening, while-loop windowing per patient; one recording ended early so the 3-D stack is ragged
_add("numpy_ecg_window_features_ragged", r'''
import os
import numpy as np

rng = np.random.default_rng(12)
fs = 250
os.makedirs("ecg", exist_ok=True)
t_beat = np.arange(int(0.7 * fs)) / fs
beat = 1.2 * np.exp(-((t_beat - 0.2) ** 2) / 0.0002) - 0.15 * np.exp(-((t_beat - 0.25) ** 2) / 0.001) \
       + 0.3 * np.exp(-((t_beat - 0.45) ** 2) / 0.003)
for pid in range(1, 31):
    minutes = 15 if pid != 23 else 11          # patient 23: electrode detached after 11 minutes
    n = minutes * 60 * fs
    sig = np.zeros(n)
    pos = 0
    while pos + len(beat) < n:
        sig[pos:pos + len(beat)] += beat
        pos += int(fs * rng.normal(0.85, 0.05))
    sig += 0.05 * rng.normal(size=n) + 0.1 * np.sin(2 * np.pi * 0.3 * np.arange(n) / fs)
    np.save(f"ecg/patient_{pid:02d}.npy", sig.astype(np.float32))
print(len(os.listdir("ecg")), "recordings")
''', r'''
from glob import glob

win = 10 * fs
hop = win // 10
freqs = np.fft.rfftfreq(win, 1 / fs)

def band_power(spec, lo, hi):
    return spec[(freqs >= lo) & (freqs < hi)].sum()

all_feats = []
for path in sorted(glob("ecg/patient_*.npy")):
    sig = np.load(path).astype(np.float64)
    feats = []
    pos = 0
    while pos + win <= len(sig):
        seg = sig[pos:pos + win] - sig[pos:pos + win].mean()
        spec = np.abs(np.fft.rfft(seg * np.hanning(win))) ** 2
        thr = 0.6 * seg.max()
        peaks = np.flatnonzero((seg[1:-1] > seg[:-2]) & (seg[1:-1] >= seg[2:]) & (seg[1:-1] > thr)) + 1
        rr = np.diff(peaks) / fs
        feats.append([seg.std(), band_power(spec, 0.5, 4), band_power(spec, 4, 15), band_power(spec, 15, 40),
                      60 / rr.mean(), rr.std(), np.sqrt(np.mean(np.diff(rr) ** 2))])
        pos += hop
    all_feats.append(feats)
    print(os.path.basename(path), len(feats), "windows")

features = np.array(all_feats)          # (patients, windows, features)
print(features.shape)
''', r'''
from glob import glob

win = 10 * fs
hop = win // 10
freqs = np.fft.rfftfreq(win, 1 / fs)

def band_power(spec, lo, hi):
    return spec[(freqs >= lo) & (freqs < hi)].sum()

all_feats = []
for path in sorted(glob("ecg/patient_*.npy")):
    sig = np.load(path).astype(np.float64)
    feats = []
    pos = 0
    while pos + win <= len(sig):
        seg = sig[pos:pos + win] - sig[pos:pos + win].mean()
        spec = np.abs(np.fft.rfft(seg * np.hanning(win))) ** 2
        thr = 0.6 * seg.max()
        peaks = np.flatnonzero((seg[1:-1] > seg[:-2]) & (seg[1:-1] >= seg[2:]) & (seg[1:-1] > thr)) + 1
        rr = np.diff(peaks) / fs
        feats.append([seg.std(), band_power(spec, 0.5, 4), band_power(spec, 4, 15), band_power(spec, 15, 40),
                      60 / rr.mean(), rr.std(), np.sqrt(np.mean(np.diff(rr) ** 2))])
        pos += hop
    all_feats.append(feats)
    print(os.path.basename(path), len(feats), "windows")

n_win = min(len(f) for f in all_feats)
features = np.array([f[:n_win] for f in all_feats])          # (patients, windows, features)
print(features.shape)
''')

# [10] sklearn: car-insurance claim model, one-hot encoding with the removed `sparse=` keyword
_add("sklearn_onehot_sparse_kwarg", r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import OneHotEncoder
from sklearn.linear_model import LogisticRegression

rng = np.random.default_rng(10)
n = 12_000
policies = pd.DataFrame({
    "vehicle_class": rng.choice(["hatchback", "sedan", "suv", "van", "sports"], n),
    "region": rng.choice([f"R{i}" for i in range(1, 13)], n),
    "fuel": rng.choice(["petrol", "diesel", "hybrid", "ev"], n),
    "driver_age": rng.integers(18, 85, n),
    "vehicle_age": rng.integers(0, 20, n),
    "annual_km": rng.gamma(4, 3500, n).round(),
})
logit = -2.2 + 0.9 * (policies["driver_age"] < 25) + 0.6 * (policies["vehicle_class"] == "sports") + 0.00002 * policies["annual_km"]
policies["claim"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)

cat_cols = ["vehicle_class", "region", "fuel"]
num_cols = ["driver_age", "vehicle_age", "annual_km"]
train, test = train_test_split(policies, test_size=0.2, random_state=42, stratify=policies["claim"])
train.shape, test.shape
''', r'''
ohe = OneHotEncoder(sparse=False, handle_unknown="ignore")
X_train = np.hstack([ohe.fit_transform(train[cat_cols]), train[num_cols].to_numpy() / train[num_cols].max().to_numpy()])
X_test = np.hstack([ohe.transform(test[cat_cols]), test[num_cols].to_numpy() / train[num_cols].max().to_numpy()])

clf = LogisticRegression(max_iter=1000).fit(X_train, train["claim"])
print("test accuracy:", round(clf.score(X_test, test["claim"]), 4))
''', r'''
ohe = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
X_train = np.hstack([ohe.fit_transform(train[cat_cols]), train[num_cols].to_numpy() / train[num_cols].max().to_numpy()])
X_test = np.hstack([ohe.transform(test[cat_cols]), test[num_cols].to_numpy() / train[num_cols].max().to_numpy()])

clf = LogisticRegression(max_iter=1000).fit(X_train, train["claim"])
print("test accuracy:", round(clf.score(X_test, test["claim"]), 4))
''')

# [11] sklearn: telecom churn, one logistic model per region; a newly launched region has no churners yet
_add("sklearn_region_churn_single_class", r'''
import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, PolynomialFeatures
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(21)
regions = ["North", "Northeast", "East", "Southeast", "South", "Southwest", "West", "Northwest", "Central",
           "Capital", "Coastal", "Highlands", "Lakes", "Valley", "Islands", "Delta", "Plains", "Frontier"]
n_per = 48_000
frames = []
for r in regions:
    d = pd.DataFrame({
        "tenure_months": rng.integers(1, 72, n_per),
        "monthly_charges": rng.normal(65, 20, n_per).clip(15, 150),
        "support_calls": rng.poisson(1.2, n_per),
        "data_gb": rng.gamma(2, 6, n_per),
        "contract_len": rng.choice([1, 12, 24], n_per),
        "dropped_calls": rng.poisson(0.8, n_per),
        "late_payments": rng.poisson(0.4, n_per),
        "age": rng.integers(18, 80, n_per),
        "roaming_min": rng.gamma(1.5, 20, n_per),
        "sms_count": rng.poisson(40, n_per),
        "device_age_m": rng.integers(0, 60, n_per),
        "family_lines": rng.integers(1, 6, n_per),
    })
    logit = -1.5 - 0.03 * d["tenure_months"] + 0.4 * d["support_calls"] + 0.3 * d["late_payments"]
    d["churned"] = (rng.random(n_per) < 1 / (1 + np.exp(-logit))).astype(int)
    if r == "Islands":
        # launched 3 months ago: nobody has churned yet
        d["tenure_months"] = rng.integers(1, 4, n_per)
        d["churned"] = 0
    d["region"] = r
    frames.append(d)
customers = pd.concat(frames, ignore_index=True)
feature_cols = ["tenure_months", "monthly_charges", "support_calls", "data_gb", "contract_len",
                "dropped_calls", "late_payments", "age", "roaming_min", "sms_count", "device_age_m", "family_lines"]
customers.groupby("region")["churned"].mean().round(3)
''', r'''
region_auc = {}
for region in regions:
    d = customers[customers["region"] == region]
    X_tr, X_va, y_tr, y_va = train_test_split(d[feature_cols], d["churned"], test_size=0.25, random_state=42)
    model = make_pipeline(StandardScaler(), PolynomialFeatures(degree=2), LogisticRegression(C=0.3, max_iter=3000))
    model.fit(X_tr, y_tr)
    region_auc[region] = roc_auc_score(y_va, model.predict_proba(X_va)[:, 1])
    print(f"{region:10s} AUC={region_auc[region]:.3f}")

pd.Series(region_auc).sort_values()
''', r'''
region_auc = {}
for region in regions:
    d = customers[customers["region"] == region]
    if d["churned"].nunique() < 2:
        print(f"{region:10s} skipped: only one class")
        continue
    X_tr, X_va, y_tr, y_va = train_test_split(d[feature_cols], d["churned"], test_size=0.25, random_state=42)
    model = make_pipeline(StandardScaler(), PolynomialFeatures(degree=2), LogisticRegression(C=0.3, max_iter=3000))
    model.fit(X_tr, y_tr)
    region_auc[region] = roc_auc_score(y_va, model.predict_proba(X_va)[:, 1])
    print(f"{region:10s} AUC={region_auc[region]:.3f}")

pd.Series(region_auc).sort_values()
''')

# [12] sklearn: loan-default model zoo in a dict; the tree models tolerate NaN income/employment, GradientBoosting does not
_add("sklearn_model_zoo_nan_inputs", r'''
import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.ensemble import (HistGradientBoostingClassifier, RandomForestClassifier, ExtraTreesClassifier,
                              GradientBoostingClassifier)
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(12)
n = 20_000
loans = pd.DataFrame({
    "loan_amnt": rng.gamma(3, 5000, n),
    "int_rate": rng.normal(13, 4, n).clip(5, 30),
    "annual_inc": rng.lognormal(11, 0.5, n),
    "dti": rng.gamma(2, 8, n),
    "emp_length": rng.integers(0, 11, n).astype(float),
    "revol_util": rng.uniform(0, 100, n),
    "open_acc": rng.poisson(10, n),
    "delinq_2yrs": rng.poisson(0.3, n),
    "inq_last_6mths": rng.poisson(0.8, n),
    "fico": rng.normal(700, 35, n),
})
logit = -3 + 0.12 * loans["int_rate"] - 0.01 * (loans["fico"] - 700) + 0.02 * loans["dti"]
loans["default"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
loans.loc[rng.random(n) < 0.07, "annual_inc"] = np.nan     # self-employed applicants
loans.loc[rng.random(n) < 0.05, "emp_length"] = np.nan
X_train, X_valid, y_train, y_valid = train_test_split(loans.drop(columns="default"), loans["default"],
                                                      test_size=0.25, random_state=0, stratify=loans["default"])
X_train.isna().mean().round(3)
''', r'''
models = {
    "hist_gb": HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, random_state=0),
    "random_forest": RandomForestClassifier(n_estimators=80, min_samples_leaf=5, n_jobs=1, random_state=0),
    "extra_trees": ExtraTreesClassifier(n_estimators=80, min_samples_leaf=5, n_jobs=1, random_state=0),
    "grad_boost": GradientBoostingClassifier(n_estimators=150, random_state=0),
    "log_reg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=50)),
}
scores = {}
for name, model in models.items():
    model.fit(X_train, y_train)
    scores[name] = roc_auc_score(y_valid, model.predict_proba(X_valid)[:, 1])
    print(f"{name:14s} AUC={scores[name]:.4f}")

pd.Series(scores).sort_values(ascending=False)
''', r'''
models = {
    "hist_gb": HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, random_state=0),
    "random_forest": RandomForestClassifier(n_estimators=80, min_samples_leaf=5, n_jobs=1, random_state=0),
    "extra_trees": ExtraTreesClassifier(n_estimators=80, min_samples_leaf=5, n_jobs=1, random_state=0),
    "grad_boost": GradientBoostingClassifier(n_estimators=150, random_state=0),
    "log_reg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=50)),
}
scores = {}
for name, model in models.items():
    model = make_pipeline(SimpleImputer(strategy="median"), model)
    model.fit(X_train, y_train)
    scores[name] = roc_auc_score(y_valid, model.predict_proba(X_valid)[:, 1])
    print(f"{name:14s} AUC={scores[name]:.4f}")

pd.Series(scores).sort_values(ascending=False)
''')

# [13] sklearn: bike-sharing demand regression, RMSE via the removed `squared=False` argument
_add("sklearn_rmse_squared_kwarg", r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_squared_error, mean_absolute_error

rng = np.random.default_rng(13)
n = 5000
hours = pd.DataFrame({
    "hour": rng.integers(0, 24, n),
    "weekday": rng.integers(0, 7, n),
    "temp": rng.normal(18, 8, n),
    "humidity": rng.uniform(20, 100, n),
    "windspeed": rng.gamma(2, 6, n),
    "holiday": rng.random(n) < 0.03,
})
rush = hours["hour"].isin([8, 17, 18]) & (hours["weekday"] < 5)
hours["count"] = (40 + 250 * rush + 6 * hours["temp"].clip(0, None) - 0.8 * hours["humidity"]
                  + rng.normal(0, 30, n)).clip(0).round()
X_tr, X_va, y_tr, y_va = train_test_split(hours.drop(columns="count"), hours["count"], test_size=0.2, random_state=1)
rf = RandomForestRegressor(n_estimators=60, max_depth=12, n_jobs=1, random_state=1).fit(X_tr, y_tr)
pred_va = rf.predict(X_va)
''', r'''
rmse = mean_squared_error(y_va, pred_va, squared=False)
mae = mean_absolute_error(y_va, pred_va)
print(f"RMSE {rmse:.2f} | MAE {mae:.2f}")
''', r'''
from sklearn.metrics import root_mean_squared_error

rmse = root_mean_squared_error(y_va, pred_va)
mae = mean_absolute_error(y_va, pred_va)
print(f"RMSE {rmse:.2f} | MAE {mae:.2f}")
''')

# [14] sklearn: heart-disease pipeline scored with cross_val_score, then used for the submission without ever being fitted
_add("sklearn_pipeline_unfitted_after_cv", r'''
import numpy as np
import pandas as pd
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.model_selection import cross_val_score, StratifiedKFold

rng = np.random.default_rng(14)
n = 900
heart = pd.DataFrame({
    "age": rng.integers(29, 78, n),
    "resting_bp": rng.normal(132, 17, n).round(),
    "cholesterol": rng.normal(240, 50, n).round(),
    "max_hr": rng.normal(150, 22, n).round(),
    "oldpeak": rng.gamma(1.2, 0.9, n).round(1),
    "exercise_angina": rng.integers(0, 2, n),
})
logit = -4 + 0.05 * heart["age"] + 0.9 * heart["exercise_angina"] + 0.6 * heart["oldpeak"] - 0.01 * (heart["max_hr"] - 150)
heart["target"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
test_df = heart.sample(200, random_state=3).drop(columns="target").reset_index(drop=True)
X, y = heart.drop(columns="target"), heart["target"]

pipe = Pipeline([("scaler", StandardScaler()), ("svc", SVC(C=1.0, probability=True, random_state=0))])
cv_scores = cross_val_score(pipe, X, y, cv=StratifiedKFold(5, shuffle=True, random_state=0), scoring="roc_auc")
print("CV AUC: %.3f +/- %.3f" % (cv_scores.mean(), cv_scores.std()))
''', r'''
submission = pd.DataFrame({"id": test_df.index, "target": pipe.predict_proba(test_df)[:, 1]})
submission.to_csv("submission.csv", index=False)
submission.head()
''', r'''
pipe.fit(X, y)
submission = pd.DataFrame({"id": test_df.index, "target": pipe.predict_proba(test_df)[:, 1]})
submission.to_csv("submission.csv", index=False)
submission.head()
''')

# [15] sklearn: house-price competition, engineered test features created in a different order than train
_add("sklearn_test_feature_order_mismatch", r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor

rng = np.random.default_rng(15)

def make_houses(n):
    return pd.DataFrame({
        "LotArea": rng.gamma(4, 2500, n).round(),
        "GrLivArea": rng.normal(1500, 450, n).clip(400).round(),
        "YearBuilt": rng.integers(1900, 2010, n),
        "YrSold": rng.integers(2006, 2011, n),
        "TotalBsmtSF": rng.normal(1000, 400, n).clip(0).round(),
        "FullBath": rng.integers(1, 4, n),
        "BedroomAbvGr": rng.integers(1, 6, n),
        "OverallQual": rng.integers(1, 11, n),
    })

train = make_houses(1460)
train["SalePrice"] = (30000 + 60 * train["GrLivArea"] + 18000 * train["OverallQual"]
                      + 300 * (train["YearBuilt"] - 1900) + rng.normal(0, 20000, 1460)).round()
test = make_houses(1459)

train["HouseAge"] = train["YrSold"] - train["YearBuilt"]
train["TotalSF"] = train["GrLivArea"] + train["TotalBsmtSF"]
train["BathPerBed"] = train["FullBath"] / train["BedroomAbvGr"]
X_train = train.drop(columns="SalePrice")
y_train = np.log1p(train["SalePrice"])
gbr = GradientBoostingRegressor(n_estimators=200, max_depth=3, random_state=0).fit(X_train, y_train)
''', r'''
test["TotalSF"] = test["GrLivArea"] + test["TotalBsmtSF"]
test["HouseAge"] = test["YrSold"] - test["YearBuilt"]
test["BathPerBed"] = test["FullBath"] / test["BedroomAbvGr"]

preds = np.expm1(gbr.predict(test))
pd.DataFrame({"Id": np.arange(1461, 1461 + len(test)), "SalePrice": preds}).to_csv("submission.csv", index=False)
preds[:5]
''', r'''
test["TotalSF"] = test["GrLivArea"] + test["TotalBsmtSF"]
test["HouseAge"] = test["YrSold"] - test["YearBuilt"]
test["BathPerBed"] = test["FullBath"] / test["BedroomAbvGr"]

preds = np.expm1(gbr.predict(test[X_train.columns]))
pd.DataFrame({"Id": np.arange(1461, 1461 + len(test)), "SalePrice": preds}).to_csv("submission.csv", index=False)
preds[:5]
''')

# [16] sklearn: used-car price regression, 5-fold polynomial ridge; the overall OOF RMSLE fails on negative predictions
_add("sklearn_oof_rmsle_negative_preds", r'''
import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, PolynomialFeatures
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_squared_log_error, root_mean_squared_error

rng = np.random.default_rng(16)
n = 34_000
cars = pd.DataFrame({
    "model_year": rng.integers(1995, 2024, n),
    "milage": rng.gamma(2, 30000, n),
    "engine_hp": rng.normal(250, 80, n).clip(70, 700),
    "engine_l": rng.normal(3.0, 0.9, n).clip(1.0, 6.5),
    "cylinders": rng.choice([4, 6, 8, 10, 12], n, p=[0.45, 0.3, 0.2, 0.03, 0.02]),
    "accident": rng.integers(0, 2, n),
    "clean_title": rng.integers(0, 2, n),
    "brand_tier": rng.integers(1, 6, n),
    "automatic": rng.integers(0, 2, n),
    "owners": rng.integers(1, 6, n),
    "ext_dark": rng.integers(0, 2, n),
    "int_leather": rng.integers(0, 2, n),
    "awd": rng.integers(0, 2, n),
    "turbo": rng.integers(0, 2, n),
})
log_price = (9.5 + 0.07 * (cars["model_year"] - 2010) - 0.000006 * cars["milage"] + 0.002 * cars["engine_hp"]
             + 0.15 * cars["brand_tier"] - 0.2 * cars["accident"] + rng.normal(0, 0.35, n))
cars["price"] = np.exp(log_price).round(-1)
X, y = cars.drop(columns="price"), cars["price"]
y.describe()
''', r'''
kf = KFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(X))
for fold, (tr_idx, va_idx) in enumerate(kf.split(X)):
    model = make_pipeline(StandardScaler(), PolynomialFeatures(degree=3, include_bias=False), Ridge(alpha=30.0))
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = model.predict(X.iloc[va_idx])
    print(f"fold {fold}: RMSE = {root_mean_squared_error(y.iloc[va_idx], oof[va_idx]):,.0f}")

print("OOF RMSLE:", np.sqrt(mean_squared_log_error(y, oof)))
''', r'''
kf = KFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(X))
for fold, (tr_idx, va_idx) in enumerate(kf.split(X)):
    model = make_pipeline(StandardScaler(), PolynomialFeatures(degree=3, include_bias=False), Ridge(alpha=30.0))
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = np.clip(model.predict(X.iloc[va_idx]), 0, None)
    print(f"fold {fold}: RMSE = {root_mean_squared_error(y.iloc[va_idx], oof[va_idx]):,.0f}")

print("OOF RMSLE:", np.sqrt(mean_squared_log_error(y, oof)))
''')

# [17] keras: tabular house-price MLP trained for a few epochs, then saved with a bare directory name (TF2-era habit)
_add("keras_house_mlp_save_without_extension", r'''
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
n, n_feat = 44_000, 40
X = rng.normal(size=(n, n_feat)).astype("float32")
w = rng.normal(size=n_feat)
y = (12.0 + 0.15 * X @ w + 0.1 * np.sin(X[:, 0] * 2) + rng.normal(0, 0.1, n)).astype("float32")   # log price
X_train, X_valid = X[:36_000], X[36_000:]
y_train, y_valid = y[:36_000], y[36_000:]
print(X_train.shape, X_valid.shape)
''', r'''
model = keras.Sequential([
    keras.Input(shape=(n_feat,)),
    layers.Dense(256, activation="relu"),
    layers.Dropout(0.1),
    layers.Dense(128, activation="relu"),
    layers.Dense(64, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse", metrics=["mae"])
history = model.fit(X_train, y_train, validation_data=(X_valid, y_valid), epochs=3, batch_size=256, verbose=2)

model.save("house_price_mlp")
pd.DataFrame(history.history).tail(3)
''', r'''
model = keras.Sequential([
    keras.Input(shape=(n_feat,)),
    layers.Dense(256, activation="relu"),
    layers.Dropout(0.1),
    layers.Dense(128, activation="relu"),
    layers.Dense(64, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse", metrics=["mae"])
history = model.fit(X_train, y_train, validation_data=(X_valid, y_valid), epochs=3, batch_size=256, verbose=2)

model.save("house_price_mlp.keras")
pd.DataFrame(history.history).tail(3)
''')

# [18] keras: plant-disease tabular classifier, ModelCheckpoint for weights-only with a plain .h5 filename
_add("keras_checkpoint_weights_h5_suffix", r'''
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
n = 3000
X = rng.normal(size=(n, 24)).astype("float32")                 # leaf spectral band features
y = (X[:, :4].sum(axis=1) > 0).astype("int32") + (X[:, 4] > 1).astype("int32")
X_train, X_valid, y_train, y_valid = X[:2400], X[2400:], y[:2400], y[2400:]

model = keras.Sequential([
    keras.Input(shape=(24,)),
    layers.Dense(64, activation="relu"),
    layers.BatchNormalization(),
    layers.Dense(32, activation="relu"),
    layers.Dense(3, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.summary()
''', r'''
callbacks = [
    keras.callbacks.EarlyStopping(monitor="val_accuracy", patience=3, restore_best_weights=True),
    keras.callbacks.ModelCheckpoint("best_leaf_model.h5", monitor="val_accuracy", save_best_only=True,
                                    save_weights_only=True),
]
history = model.fit(X_train, y_train, validation_data=(X_valid, y_valid), epochs=8, batch_size=64,
                    callbacks=callbacks, verbose=0)
print("best val acc:", max(history.history["val_accuracy"]))
''', r'''
callbacks = [
    keras.callbacks.EarlyStopping(monitor="val_accuracy", patience=3, restore_best_weights=True),
    keras.callbacks.ModelCheckpoint("best_leaf_model.weights.h5", monitor="val_accuracy", save_best_only=True,
                                    save_weights_only=True),
]
history = model.fit(X_train, y_train, validation_data=(X_valid, y_valid), epochs=8, batch_size=64,
                    callbacks=callbacks, verbose=0)
print("best val acc:", max(history.history["val_accuracy"]))
''')

# [19] keras: 1-5 star review classifier; train labels shifted to 0-4 but the validation labels were left as 1-5
_add("keras_review_stars_val_label_range", r'''
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
vocab_size, seq_len = 20_000, 120
n = 28_000
stars = rng.choice([1, 2, 3, 4, 5], n, p=[0.1, 0.08, 0.12, 0.25, 0.45])
# token ids: each star level prefers its own slice of the vocabulary
tokens = rng.integers(1, vocab_size, size=(n, seq_len))
hint = rng.random((n, seq_len)) < 0.15
tokens[hint] = (stars[:, None] * 1000 + rng.integers(0, 1000, size=(n, seq_len)))[hint]
reviews = pd.DataFrame({"stars": stars})
train_idx, valid_idx = np.arange(21_000), np.arange(21_000, n)
train_df, valid_df = reviews.iloc[train_idx], reviews.iloc[valid_idx]
X_tr, X_va = tokens[train_idx], tokens[valid_idx]
train_df["stars"].value_counts().sort_index()
''', r'''
y_tr = train_df["stars"].to_numpy() - 1
y_va = valid_df["stars"].to_numpy()

model = keras.Sequential([
    keras.Input(shape=(seq_len,)),
    layers.Embedding(vocab_size, 64),
    layers.GlobalAveragePooling1D(),
    layers.Dense(64, activation="relu"),
    layers.Dropout(0.3),
    layers.Dense(5, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X_tr, y_tr, validation_data=(X_va, y_va), epochs=3, batch_size=128, verbose=2)
''', r'''
y_tr = train_df["stars"].to_numpy() - 1
y_va = valid_df["stars"].to_numpy() - 1

model = keras.Sequential([
    keras.Input(shape=(seq_len,)),
    layers.Embedding(vocab_size, 64),
    layers.GlobalAveragePooling1D(),
    layers.Dense(64, activation="relu"),
    layers.Dropout(0.3),
    layers.Dense(5, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X_tr, y_tr, validation_data=(X_va, y_va), epochs=3, batch_size=128, verbose=2)
''')

# [20] torch: credit-default MLP with BatchNorm; 70,401 training rows leave a last batch of one sample
_add("torch_batchnorm_last_batch_of_one", r'''
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(20)
rng = np.random.default_rng(20)
n_train, n_feat = 70_401, 48
X = rng.normal(size=(n_train, n_feat)).astype(np.float32)
y = (X[:, :6].sum(axis=1) + rng.normal(0, 1, n_train) > 1.5).astype(np.float32)
train_ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
print(len(train_ds), "rows, default rate", y.mean().round(3))
''', r'''
torch.set_num_threads(1)

class CreditMLP(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(128, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)

train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
model = CreditMLP(n_feat)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
criterion = nn.BCEWithLogitsLoss()

for epoch in range(4):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch + 1}: train loss {running / len(train_ds):.4f}")
''', r'''
torch.set_num_threads(1)

class CreditMLP(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(128, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)

train_loader = DataLoader(train_ds, batch_size=64, shuffle=True, drop_last=True)
model = CreditMLP(n_feat)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
criterion = nn.BCEWithLogitsLoss()

for epoch in range(4):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch + 1}: train loss {running / len(train_ds):.4f}")
''')

# [21] torch: resuming a crop-yield regressor from a checkpoint that also stores numpy scaler stats (weights_only default)
_add("torch_load_checkpoint_weights_only", r'''
import os
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(21)
torch.set_num_threads(1)
rng = np.random.default_rng(21)
X = rng.normal(size=(2000, 10)).astype(np.float32)
y = (X @ rng.normal(size=10) + rng.normal(0, 0.3, 2000)).astype(np.float32)
feat_mean, feat_std = X.mean(axis=0), X.std(axis=0)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
Xt, yt = torch.from_numpy((X - feat_mean) / feat_std), torch.from_numpy(y)
for step in range(200):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(Xt).squeeze(-1), yt)
    loss.backward()
    opt.step()

os.makedirs("checkpoints", exist_ok=True)
torch.save({"epoch": 200, "model_state": model.state_dict(), "optimizer_state": opt.state_dict(),
            "feat_mean": feat_mean, "feat_std": feat_std, "val_rmse": float(loss.item()) ** 0.5},
           "checkpoints/yield_model_best.pt")
print("saved, loss", round(loss.item(), 4))
''', r'''
ckpt = torch.load("checkpoints/yield_model_best.pt")
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
model.load_state_dict(ckpt["model_state"])
model.eval()
X_new = rng.normal(size=(5, 10)).astype(np.float32)
with torch.no_grad():
    print(model(torch.from_numpy((X_new - ckpt["feat_mean"]) / ckpt["feat_std"])).squeeze(-1))
''', r'''
ckpt = torch.load("checkpoints/yield_model_best.pt", weights_only=False)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
model.load_state_dict(ckpt["model_state"])
model.eval()
X_new = rng.normal(size=(5, 10)).astype(np.float32)
with torch.no_grad():
    print(model(torch.from_numpy((X_new - ckpt["feat_mean"]) / ckpt["feat_std"])).squeeze(-1))
''')

# [22] torch: electricity-load GRU forecaster; test predictions collected without no_grad, .numpy() after the loop fails
_add("torch_gru_forecast_numpy_requires_grad", r'''
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(22)
rng = np.random.default_rng(22)
hours = np.arange(24 * 365)
load = (500 + 120 * np.sin(2 * np.pi * hours / 24) + 60 * np.sin(2 * np.pi * hours / (24 * 7))
        + 80 * np.sin(2 * np.pi * hours / (24 * 365)) + rng.normal(0, 15, len(hours))).astype(np.float32)
load_z = (load - load.mean()) / load.std()
lookback = 48
windows = np.lib.stride_tricks.sliding_window_view(load_z[:-1], lookback)
targets = load_z[lookback:]
split = int(0.85 * len(targets))
train_ds = TensorDataset(torch.from_numpy(windows[:split].copy()).unsqueeze(-1), torch.from_numpy(targets[:split]))
test_ds = TensorDataset(torch.from_numpy(windows[split:].copy()).unsqueeze(-1), torch.from_numpy(targets[split:]))
print(len(train_ds), len(test_ds))
''', r'''
torch.set_num_threads(1)

class LoadGRU(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1]).squeeze(-1)

model = LoadGRU()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
train_loader = DataLoader(train_ds, batch_size=128, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=256)

for epoch in range(3):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: last batch mse {loss.item():.4f}")

model.eval()
preds = []
for xb, _ in test_loader:
    preds.append(model(xb))
preds = torch.cat(preds).numpy() * load.std() + load.mean()
actual = targets[split:] * load.std() + load.mean()
print("test MAPE: %.2f%%" % (100 * np.mean(np.abs(preds - actual) / actual)))
''', r'''
torch.set_num_threads(1)

class LoadGRU(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1]).squeeze(-1)

model = LoadGRU()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
train_loader = DataLoader(train_ds, batch_size=128, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=256)

for epoch in range(3):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: last batch mse {loss.item():.4f}")

model.eval()
preds = []
with torch.no_grad():
    for xb, _ in test_loader:
        preds.append(model(xb))
preds = torch.cat(preds).numpy() * load.std() + load.mean()
actual = targets[split:] * load.std() + load.mean()
print("test MAPE: %.2f%%" % (100 * np.mean(np.abs(preds - actual) / actual)))
''')

# [23] torch: diabetes-progression regressor fed float64 arrays straight from pandas
_add("torch_float64_inputs_dtype_mismatch", r'''
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(23)
torch.set_num_threads(1)
rng = np.random.default_rng(23)
n = 442
patients = pd.DataFrame(rng.normal(size=(n, 10)), columns=["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"])
patients["progression"] = 150 + 40 * patients["bmi"] + 25 * patients["s5"] + rng.normal(0, 30, n)
X_train = patients.drop(columns="progression").to_numpy()
y_train = patients["progression"].to_numpy()
X_train = (X_train - X_train.mean(axis=0)) / X_train.std(axis=0)
y_mean, y_std = y_train.mean(), y_train.std()

model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
model
''', r'''
X_t = torch.from_numpy(X_train)
y_t = torch.from_numpy((y_train - y_mean) / y_std)

for step in range(300):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X_t).squeeze(-1), y_t)
    loss.backward()
    optimizer.step()
print("train RMSE:", (loss.item() ** 0.5) * y_std)
''', r'''
X_t = torch.from_numpy(X_train).float()
y_t = torch.from_numpy((y_train - y_mean) / y_std).float()

for step in range(300):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X_t).squeeze(-1), y_t)
    loss.backward()
    optimizer.step()
print("train RMSE:", (loss.item() ** 0.5) * y_std)
''')

# [24] matplotlib: city weather EDA dashboard using the old 'seaborn' style name removed in Matplotlib 3.8
_add("matplotlib_removed_seaborn_style", r'''
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

rng = np.random.default_rng(24)
days = pd.date_range("2023-01-01", "2023-12-31", freq="D")
weather = pd.DataFrame({
    "date": days,
    "temp_c": 12 + 10 * np.sin(2 * np.pi * (days.dayofyear - 110) / 365) + rng.normal(0, 2.5, len(days)),
    "precip_mm": rng.gamma(0.6, 4, len(days)).round(1),
    "wind_kmh": rng.gamma(3, 5, len(days)).round(1),
})
weather["month"] = weather["date"].dt.month
''', r'''
plt.style.use("seaborn")
fig, axes = plt.subplots(1, 3, figsize=(16, 4))
axes[0].plot(weather["date"], weather["temp_c"].rolling(7).mean())
axes[0].set_title("Temperature (7-day mean)")
weather.groupby("month")["precip_mm"].sum().plot.bar(ax=axes[1], title="Monthly precipitation")
axes[2].hist(weather["wind_kmh"], bins=30)
axes[2].set_title("Wind speed distribution")
fig.tight_layout()
fig.savefig("weather_overview.png", dpi=80)
''', r'''
plt.style.use("seaborn-v0_8")
fig, axes = plt.subplots(1, 3, figsize=(16, 4))
axes[0].plot(weather["date"], weather["temp_c"].rolling(7).mean())
axes[0].set_title("Temperature (7-day mean)")
weather.groupby("month")["precip_mm"].sum().plot.bar(ax=axes[1], title="Monthly precipitation")
axes[2].hist(weather["wind_kmh"], bins=30)
axes[2].set_title("Wind speed distribution")
fig.tight_layout()
fig.savefig("weather_overview.png", dpi=80)
''')

# [25] seaborn: box-office EDA, barplot called with positional x/y as in seaborn < 0.12 tutorials
_add("seaborn_barplot_positional_args", r'''
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns
import numpy as np
import pandas as pd

rng = np.random.default_rng(25)
n = 1500
movies = pd.DataFrame({
    "title": [f"Movie {i}" for i in range(n)],
    "genre": rng.choice(["Action", "Comedy", "Drama", "Horror", "Animation", "Sci-Fi", "Romance"], n),
    "budget_musd": rng.gamma(2, 20, n).round(1),
})
movies["revenue_musd"] = (movies["budget_musd"] * rng.lognormal(0.6, 0.7, n)).round(1)
genre_rev = movies.groupby("genre")["revenue_musd"].median().sort_values(ascending=False)
genre_rev
''', r'''
plt.figure(figsize=(10, 5))
sns.barplot(genre_rev.index, genre_rev.values, color="steelblue")
plt.title("Median box-office revenue by genre (M USD)")
plt.xticks(rotation=45)
plt.tight_layout()
plt.savefig("genre_revenue.png", dpi=80)
''', r'''
plt.figure(figsize=(10, 5))
sns.barplot(x=genre_rev.index, y=genre_rev.values, color="steelblue")
plt.title("Median box-office revenue by genre (M USD)")
plt.xticks(rotation=45)
plt.tight_layout()
plt.savefig("genre_revenue.png", dpi=80)
''')

# [26] xgboost: network-intrusion multiclass CV with unshuffled KFold on time-ordered logs; the 'probe' attacks sit in one week
_add("xgboost_kfold_missing_class_in_fold", r'''
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.metrics import log_loss

rng = np.random.default_rng(26)
n, n_feat = 40_000, 30
label_names = {0: "normal", 1: "dos", 2: "probe", 3: "r2l"}
y = rng.choice([0, 1, 3], n, p=[0.7, 0.2, 0.1])
# logs are time-ordered; the port-scan campaign happened during one week (rows 19,000-21,500)
campaign = np.arange(19_000, 21_500)
y[campaign[rng.random(len(campaign)) < 0.6]] = 2
X = rng.normal(size=(n, n_feat)) + y[:, None] * rng.normal(0.15, 0.05, n_feat)
flows = pd.DataFrame(X, columns=[f"f{i:02d}" for i in range(n_feat)])
flows["attack"] = y
pd.Series(y).map(label_names).value_counts()
''', r'''
X, y = flows.drop(columns="attack"), flows["attack"]
oof = np.zeros((len(flows), 4))
kf = KFold(n_splits=5)
for fold, (tr_idx, va_idx) in enumerate(kf.split(X)):
    clf = xgb.XGBClassifier(n_estimators=40, max_depth=6, learning_rate=0.1, tree_method="hist",
                            objective="multi:softprob", n_jobs=1, random_state=fold)
    clf.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = clf.predict_proba(X.iloc[va_idx])
    print(f"fold {fold}: logloss {log_loss(y.iloc[va_idx], oof[va_idx], labels=[0, 1, 2, 3]):.4f}")

print("OOF logloss:", log_loss(y, oof))
''', r'''
X, y = flows.drop(columns="attack"), flows["attack"]
oof = np.zeros((len(flows), 4))
kf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
for fold, (tr_idx, va_idx) in enumerate(kf.split(X, y)):
    clf = xgb.XGBClassifier(n_estimators=40, max_depth=6, learning_rate=0.1, tree_method="hist",
                            objective="multi:softprob", n_jobs=1, random_state=fold)
    clf.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = clf.predict_proba(X.iloc[va_idx])
    print(f"fold {fold}: logloss {log_loss(y.iloc[va_idx], oof[va_idx], labels=[0, 1, 2, 3]):.4f}")

print("OOF logloss:", log_loss(y, oof))
''')

# [27] lightgbm: retail-demand regressor trained with the early_stopping_rounds / verbose_eval kwargs removed in LightGBM 4
_add("lightgbm_train_removed_early_stopping_kwargs", r'''
import numpy as np
import pandas as pd
import lightgbm as lgb

rng = np.random.default_rng(27)
n = 8000
demand = pd.DataFrame({
    "store": rng.integers(1, 11, n),
    "item": rng.integers(1, 51, n),
    "dayofweek": rng.integers(0, 7, n),
    "month": rng.integers(1, 13, n),
    "lag_7": rng.gamma(3, 10, n),
    "lag_28": rng.gamma(3, 10, n),
    "rolling_mean_14": rng.gamma(3, 10, n),
})
demand["sales"] = (0.5 * demand["lag_7"] + 0.3 * demand["rolling_mean_14"] + 3 * (demand["dayofweek"] >= 5)
                   + rng.normal(0, 4, n)).clip(0)
train, valid = demand.iloc[:6500], demand.iloc[6500:]
features = [c for c in demand.columns if c != "sales"]
dtrain = lgb.Dataset(train[features], train["sales"], categorical_feature=["store", "item"])
dvalid = lgb.Dataset(valid[features], valid["sales"], reference=dtrain)
params = {"objective": "regression", "metric": "rmse", "learning_rate": 0.05, "num_leaves": 31,
          "feature_fraction": 0.8, "num_threads": 1, "verbose": -1, "seed": 27}
''', r'''
booster = lgb.train(params, dtrain, num_boost_round=2000, valid_sets=[dtrain, dvalid],
                    valid_names=["train", "valid"], early_stopping_rounds=100, verbose_eval=100)
print("best iteration:", booster.best_iteration)
''', r'''
booster = lgb.train(params, dtrain, num_boost_round=2000, valid_sets=[dtrain, dvalid],
                    valid_names=["train", "valid"],
                    callbacks=[lgb.early_stopping(100), lgb.log_evaluation(100)])
print("best iteration:", booster.best_iteration)
''')

# [28] python: web-shop clickstream JSONL parsed record by record; the collector crashed mid-write of the final line
_add("python_clickstream_jsonl_truncated_last_line", r'''
import os
import json
import random

random.seed(28)
os.makedirs("logs", exist_ok=True)
events = ["page_view", "search", "add_to_cart", "remove_from_cart", "checkout", "purchase"]
weights = [60, 15, 12, 3, 6, 4]
lines = []
ts = 1_700_000_000
for i in range(480_000):
    ts += random.randint(0, 3)
    rec = {"ts": ts, "session_id": f"s{random.randint(1, 60_000)}", "user_id": random.randint(1, 9000),
           "event": random.choices(events, weights)[0], "page": f"/p/{random.randint(1, 400)}",
           "device": random.choice(["mobile", "desktop", "tablet"])}
    if rec["event"] in ("add_to_cart", "purchase"):
        rec["price"] = round(random.uniform(3, 250), 2)
    lines.append(json.dumps(rec))
with open("logs/events.jsonl", "w") as f:
    f.write("\n".join(lines) + "\n")
    f.write('{"ts": %d, "session_id": "s1042", "user_id": 77, "event": "che' % (ts + 1))   # collector killed here
print(os.path.getsize("logs/events.jsonl") // 1024, "KB")
''', r'''
from collections import Counter, defaultdict
from datetime import datetime, timezone

event_counts = Counter()
sessions = defaultdict(list)
revenue_by_device = defaultdict(float)
hour_counts, product_views = Counter(), Counter()
user_devices = defaultdict(set)
with open("logs/events.jsonl") as f:
    for line in f:
        rec = json.loads(line)
        event_counts[rec["event"]] += 1
        sessions[rec["session_id"]].append((rec["ts"], rec["event"], rec["page"]))
        hour_counts[datetime.fromtimestamp(rec["ts"], tz=timezone.utc).hour] += 1
        product_views[rec["page"].rsplit("/", 1)[-1]] += rec["event"] == "page_view"
        user_devices[rec["user_id"]].add(rec["device"])
        if rec["event"] == "purchase":
            revenue_by_device[rec["device"]] += rec.get("price", 0.0)

funnel = {e: event_counts[e] for e in ["page_view", "add_to_cart", "checkout", "purchase"]}
converted = sum(any(ev == "purchase" for _, ev, _ in evs) for evs in sessions.values())
print(funnel, f"session conversion {converted / len(sessions):.2%}", dict(revenue_by_device))
''', r'''
from collections import Counter, defaultdict
from datetime import datetime, timezone

event_counts = Counter()
sessions = defaultdict(list)
revenue_by_device = defaultdict(float)
hour_counts, product_views = Counter(), Counter()
user_devices = defaultdict(set)
bad_lines = 0
with open("logs/events.jsonl") as f:
    for line in f:
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            bad_lines += 1
            continue
        event_counts[rec["event"]] += 1
        sessions[rec["session_id"]].append((rec["ts"], rec["event"], rec["page"]))
        hour_counts[datetime.fromtimestamp(rec["ts"], tz=timezone.utc).hour] += 1
        product_views[rec["page"].rsplit("/", 1)[-1]] += rec["event"] == "page_view"
        user_devices[rec["user_id"]].add(rec["device"])
        if rec["event"] == "purchase":
            revenue_by_device[rec["device"]] += rec.get("price", 0.0)

funnel = {e: event_counts[e] for e in ["page_view", "add_to_cart", "checkout", "purchase"]}
converted = sum(any(ev == "purchase" for _, ev, _ in evs) for evs in sessions.values())
print(funnel, f"session conversion {converted / len(sessions):.2%}", dict(revenue_by_device), "bad lines:", bad_lines)
''')

# [29] python: hyper-parameter sweep leaderboard; crashed runs logged val_auc=None and break sorted()
_add("python_sweep_leaderboard_sort_none", r'''
import random

random.seed(29)
runs = []
for run_id in range(48):
    lr = 10 ** random.uniform(-4, -1)
    depth = random.choice([4, 6, 8, 10])
    status = "failed" if run_id in (7, 31) else "finished"      # OOM on the largest configs
    runs.append({"run_id": run_id, "lr": round(lr, 6), "max_depth": depth, "status": status,
                 "val_auc": None if status == "failed" else round(random.uniform(0.78, 0.86), 4)})
len(runs)
''', r'''
leaderboard = sorted(runs, key=lambda r: r["val_auc"], reverse=True)
for r in leaderboard[:5]:
    print(f'run {r["run_id"]:3d}  lr={r["lr"]:.5f}  depth={r["max_depth"]:2d}  auc={r["val_auc"]:.4f}')
best = leaderboard[0]
''', r'''
leaderboard = sorted((r for r in runs if r["val_auc"] is not None), key=lambda r: r["val_auc"], reverse=True)
for r in leaderboard[:5]:
    print(f'run {r["run_id"]:3d}  lr={r["lr"]:.5f}  depth={r["max_depth"]:2d}  auc={r["val_auc"]:.4f}')
best = leaderboard[0]
''')

