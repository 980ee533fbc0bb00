r"""Kaggle-style notebook crash/fix pairs, seventeenth set (30 pairs).

Fields
------
``PAIRS`` is a list of 30 tuples ``(name, setup, crash, fixed)``, all strings:

- name: library prefix (pandas_, numpy_, sklearn_, keras_, torch_, matplotlib_,
  seaborn_, xgboost_, lightgbm_, python_) plus a short snake-case slug.
- setup: the earlier notebook cells joined, imports included.  Builds seeded
  synthetic data (np.random.default_rng, random.seed, torch.manual_seed,
  keras.utils.set_random_seed), writes any files it needs under relative paths
  in the current working directory, and runs clean in under 10 s.  Nothing is
  downloaded (no hub data sets, no pretrained weights).
- crash: the target cell as the notebook author wrote it.  Executed after setup
  in the same namespace it raises an exception from a library or from Python.
- fixed: the same cell after the author's small, realistic fix.  Executed after
  setup in a fresh namespace it runs clean and does the same work.
No cell contains a ``raise`` or ``assert`` statement.

How it was made
---------------
Each pair is a separate story from a different domain (retail POS exports,
Airbnb listings, flight delays, insurance claims, taxi fares, franchise CRM
files, pharmacokinetics, wearables, store pricing, mushrooms, plant leaves,
credit default, heart disease, house prices, telco churn, used cars, digits,
building energy, support tickets, tabular MLPs, wine quality, COVID cases,
penguins, warehouse delays, rent prediction, clickstream logs, restaurant
reviews), written in the style Kaggle notebooks use (df names, groupby/agg
chains, fold loops, model dicts, fit/evaluate cells).

Every failure mode was probed against the installed versions before use.
Probed and used (they still fail): DataFrame.append, to_csv(line_terminator=),
np.trapz (deprecated in NumPy 2.0, absent in 2.4.6; np.trapezoid), OneHotEncoder(sparse=),
RandomForest max_features="auto", keras Adam(lr=), Keras 3 save_weights
needing ".weights.h5", torch.load weights_only=True default (2.6+),
plt.style "seaborn-*" names, groupby().mean() on object columns,
merge(validate=), qcut duplicate edges, astype(int) with NaN, .str on an int
column, LinAlgError on singular normal equations, ragged np.stack,
train_test_split stratify with a 1-member class, feature-name order check,
infinity in X, OrdinalEncoder unknown categories, TF sparse label range check,
BatchNorm with a batch of 1, CrossEntropyLoss with float64 targets,
.numpy() on a grad-tracking tensor, xgboost non-contiguous classes,
lightgbm feature-count check, seaborn hue column lookup, json decode errors,
dict size change during iteration.
Probed and NOT used because they no longer fail (or fail differently):
roc_auc_score with a single class in y_true (now warns and returns nan);
DataFrame.fillna(method="ffill"), DataFrame.swapaxes, DataFrame.applymap,
groupby(axis=1), pd.value_counts, Series.first(offset) and
to_datetime(infer_datetime_format=True) (all still run, at most with a
FutureWarning, in pandas 2.3.3); np.row_stack (still present); sns.distplot
(still present in seaborn 0.13.2); plt.get_cmap (works; only
matplotlib.cm.get_cmap is gone); keras Dense(input_dim=) (accepted);
Keras model.save("x.h5") (works).  cross_val_score swallows fit errors
(error_score=nan) and re-raises a generic "All fits failed" ValueError, so
the CV pairs use explicit fold loops.  Other removed APIs that do fail
(np.NaN, np.float, np.in1d, np.product, DataFrame.iteritems/mad,
LogisticRegression(multi_class=), BaggingClassifier(base_estimator=),
OneHotEncoder.get_feature_names, XGBClassifier.fit(early_stopping_rounds=),
lgb.train(early_stopping_rounds=/verbose_eval=), model.predict_classes,
matplotlib.cm.get_cmap) were left for other sets to avoid repeating the
"removed keyword/attribute" mechanism too often.

Checker (/tmp/seventeenth/check.py, with runner.py): parses every cell with
ast and rejects raise/assert; for each pair starts two fresh Python processes,
strictly one at a time, each in its own new temporary working directory, with
TF_CPP_MIN_LOG_LEVEL=3: setup+crash (cells compiled and exec'd in one plain
namespace dict with __name__ == "__main__"; records the exception type and the
seconds from the start of the crash cell to the exception) and setup+fixed
(must run clean; records cell seconds and peak RSS).  A crash must raise; a
long crash must land within 2-5 s and a short one under 1 s; a fixed cell must
not raise.  Timing was tuned by scaling rows, files, chunks, groups, folds,
trees, bootstrap draws and epochs until long crashes landed near 3 s on the
2-core machine; tree models use n_jobs=1 / num_threads=1, torch cells call
torch.set_num_threads(1), and BLAS/OpenMP-sensitive setups set
OPENBLAS_NUM_THREADS / OMP_NUM_THREADS=1 before importing numpy.  Two full
rounds were run on the final file: round 1 60/60 runs as expected, round 2 60/60 runs as expected, same exception type per pair in both rounds: True.  Peak RSS of any run
stayed under 750 MB.

Checked against: Python 3.11.7, numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1,
scipy 1.17.1, matplotlib 3.11.2, seaborn 0.13.2, xgboost 3.2.0,
lightgbm 4.7.0, torch 2.13.0+cpu, keras 3.15.1, tensorflow 2.21.0;
Linux x86_64, 2 CPU cores, CPU only.

Mix by library
--------------
pandas (7): 0, 1, 2, 3, 4, 5, 6
numpy (3): 7, 8, 9
scikit-learn (7): 10, 11, 12, 13, 14, 15, 16
keras (3): 17, 18, 19
torch (4): 20, 21, 22, 23
matplotlib (1): 24
seaborn (1): 25
xgboost (1): 26
lightgbm (1): 27
python (2): 28, 29

Long (15): 0, 4, 6, 8, 9, 12, 15, 16, 18, 19, 20, 21, 26, 27, 28
Short (15): 1, 2, 3, 5, 7, 10, 11, 13, 14, 17, 22, 23, 24, 25, 29

Root causes
-----------
Removed / renamed APIs and changed defaults:
  1  pandas_leaderboard_append_removed (DataFrame.append removed in pandas 2; build rows and use pd.DataFrame/pd.concat) -> AttributeError
  5  pandas_to_csv_line_terminator_removed (to_csv(line_terminator=) renamed; lineterminator=) -> TypeError
  7  numpy_trapz_removed_auc (np.trapz deprecated in NumPy 2.0 and absent in 2.4.6; np.trapezoid) -> AttributeError
 10  sklearn_onehot_sparse_kwarg_removed (OneHotEncoder(sparse=) removed; sparse_output=) -> TypeError
 12  sklearn_model_zoo_max_features_auto (last model in the model dict uses max_features="auto", rejected by param validation after the other models' CV; "sqrt") -> sklearn.utils._param_validation.InvalidParameterError
 17  keras_adam_lr_kwarg_removed (Keras 3 optimizers reject lr=; learning_rate=) -> ValueError
 18  keras_save_weights_h5_suffix (after training, Keras 3 save_weights requires a ".weights.h5" name; rename the file) -> ValueError
 21  torch_load_checkpoint_weights_only (after the training loop, torch.load defaults to weights_only=True and refuses the numpy values in the checkpoint; weights_only=False for the trusted own file) -> _pickle.UnpicklingError
 24  matplotlib_style_seaborn_renamed (style "seaborn-darkgrid" renamed; "seaborn-v0_8-darkgrid") -> OSError
Bad items deep in the data, hit inside a loop:
  0  pandas_chunked_units_intcast (a late CSV chunk holds NaN units, astype(int) fails; fillna(0) first) -> pandas.errors.IntCastingNaNError
  4  pandas_qcut_region_ties (a late region is 75% zero claims so decile edges repeat; duplicates="drop") -> ValueError
  6  pandas_zip_str_accessor_int_column (one late franchise file has plain 5-digit zips, read as int64, .str fails; dtype={"zip": str}) -> AttributeError
  9  numpy_store_elasticity_singular (a late store never ran a promo, zero column makes X'X singular; np.linalg.lstsq) -> numpy.linalg.LinAlgError
 15  sklearn_ratio_feature_infinity (a late candidate feature divides by zero support calls, inf reaches the scaler; replace inf and fill) -> ValueError
 20  torch_batchnorm_last_batch_of_one (n = 64k+1 rows, the last batch of epoch 1 has one row and BatchNorm1d fails; drop_last=True) -> ValueError
 28  python_jsonl_truncated_record (a late day's log has a line cut mid-write; catch JSONDecodeError and skip) -> json.decoder.JSONDecodeError
Results combined or used after the loop:
  8  numpy_ragged_windows_stack (window starts run to len(sig), the tail windows are short and np.stack fails after the feature loop; stop at len(sig) - WIN + 1) -> ValueError
 27  lightgbm_test_leftover_flag_column (after the fold loop, test still carries the is_test flag so the boosters see 8 features instead of 7; predict on test[feats]) -> lightgbm.basic.LightGBMError
Schema / key / train-test mismatches:
  3  pandas_merge_validate_duplicate_airports (airport lookup has duplicate IATA rows from two sources; drop_duplicates before merge) -> pandas.errors.MergeError
 14  sklearn_predict_feature_order_mismatch (new rows built with columns in another order; reindex to X_train.columns) -> ValueError
 16  sklearn_ordinal_encoder_unseen_late_fold (electric cars only in the newest listings, unseen in the last fold's train; handle_unknown="use_encoded_value") -> ValueError
 25  seaborn_hue_after_column_rename (columns were lower-cased earlier, hue="Species" no longer exists; hue="species") -> ValueError
Labels / classes / NaN / dtype problems:
  2  pandas_groupby_mean_object_columns (groupby().mean() over string columns; numeric_only=True) -> TypeError
 11  sklearn_stratify_singleton_class (two diseases have one image each, stratified split fails; fold rare classes into "other") -> ValueError
 19  keras_sparse_label_out_of_range (n_classes from nunique() while an id was retired, the new id 9 appears late in time-ordered data; max()+1) -> tensorflow.python.framework.errors_impl.InvalidArgumentError
 22  torch_cross_entropy_double_targets (labels came from a float64 column after fillna; .long()) -> RuntimeError
 26  xgboost_warehouse_missing_class (a late warehouse never logs class 1, XGBClassifier wants classes 0..k-1; encode per warehouse with np.unique) -> ValueError
Unfitted objects and state:
 13  sklearn_cross_val_then_predict_unfitted (cross_val_score fits clones, the pipeline itself is unfitted; pipe.fit(X, y) before predict) -> sklearn.exceptions.NotFittedError
 23  torch_inference_numpy_requires_grad (.numpy() on an output that tracks gradients; run inference under torch.no_grad()) -> RuntimeError
Plain Python semantics:
 29  python_prune_vocab_dict_while_iterating (deleting from the Counter while iterating it; iterate over list(vocab.items())) -> RuntimeError

Long and short
--------------
Seconds from the start of the crash cell to the exception, and for the fixed
cell to its end; checker round 1 / round 2 (2-core CPU machine).

 idx  kind   crash s (r1 / r2)   fixed s (r1 / r2)  name
   0  long     2.99 /  2.91        3.28 /  3.34     pandas_chunked_units_intcast
   1  short    0.00 /  0.00        0.00 /  0.00     pandas_leaderboard_append_removed
   2  short    0.00 /  0.00        0.00 /  0.00     pandas_groupby_mean_object_columns
   3  short    0.00 /  0.00        0.01 /  0.00     pandas_merge_validate_duplicate_airports
   4  long     2.93 /  2.81        3.26 /  3.11     pandas_qcut_region_ties
   5  short    0.00 /  0.00        0.01 /  0.01     pandas_to_csv_line_terminator_removed
   6  long     3.02 /  2.85        3.30 /  3.28     pandas_zip_str_accessor_int_column
   7  short    0.00 /  0.00        0.00 /  0.00     numpy_trapz_removed_auc
   8  long     2.86 /  3.00        4.14 /  4.06     numpy_ragged_windows_stack
   9  long     3.22 /  3.08        5.17 /  5.14     numpy_store_elasticity_singular
  10  short    0.00 /  0.00        0.02 /  0.02     sklearn_onehot_sparse_kwarg_removed
  11  short    0.01 /  0.01        0.02 /  0.02     sklearn_stratify_singleton_class
  12  long     3.37 /  3.19        4.59 /  4.30     sklearn_model_zoo_max_features_auto
  13  short    0.05 /  0.05        0.06 /  0.05     sklearn_cross_val_then_predict_unfitted
  14  short    0.00 /  0.00        0.00 /  0.00     sklearn_predict_feature_order_mismatch
  15  long     3.10 /  3.11        3.91 /  3.97     sklearn_ratio_feature_infinity
  16  long     3.03 /  3.01        3.88 /  3.71     sklearn_ordinal_encoder_unseen_late_fold
  17  short    0.00 /  0.00        0.78 /  0.78     keras_adam_lr_kwarg_removed
  18  long     2.29 /  2.69        2.35 /  2.45     keras_save_weights_h5_suffix
  19  long     2.64 /  2.81        5.30 /  5.32     keras_sparse_label_out_of_range
  20  long     2.95 /  3.02        6.03 /  6.18     torch_batchnorm_last_batch_of_one
  21  long     2.85 /  3.08        2.83 /  3.02     torch_load_checkpoint_weights_only
  22  short    0.01 /  0.00        0.01 /  0.01     torch_cross_entropy_double_targets
  23  short    0.01 /  0.00        0.01 /  0.01     torch_inference_numpy_requires_grad
  24  short    0.00 /  0.00        0.15 /  0.16     matplotlib_style_seaborn_renamed
  25  short    0.01 /  0.01        0.06 /  0.06     seaborn_hue_after_column_rename
  26  long     3.23 /  3.20        3.26 /  3.24     xgboost_warehouse_missing_class
  27  long     3.05 /  3.01        3.24 /  3.30     lightgbm_test_leftover_flag_column
  28  long     3.03 /  3.07        3.23 /  3.35     python_jsonl_truncated_record
  29  short    0.00 /  0.00        0.00 /  0.00     python_prune_vocab_dict_while_iterating
"""

PAIRS = [
("pandas_chunked_units_intcast",
r'''import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(1701)
n = 480_000
tx = pd.DataFrame({
    "tx_id": np.arange(n),
    "day": rng.integers(0, 730, n),
    "store": rng.integers(1, 55, n),
    "item": rng.integers(1, 3000, n),
    "units": rng.poisson(2.5, n).astype(float),
    "unit_price": rng.gamma(2.0, 3.5, n).round(2),
    "promo_type": rng.choice(["none", "pct10", "bogo", "bulk"], n, p=[0.7, 0.1, 0.1, 0.1]),
})
bad = rng.choice(np.arange(443_000, 447_000), 4, replace=False)   # POS outage late in the export
tx.loc[bad, "units"] = np.nan
tx.to_csv("transactions.csv", index=False)
del tx

def net_amount(row):
    if row["promo_type"] == "pct10":
        return row["units"] * row["unit_price"] * 0.9
    if row["promo_type"] == "bogo":
        return (row["units"] - row["units"] // 2) * row["unit_price"]
    if row["promo_type"] == "bulk" and row["units"] >= 4:
        return row["units"] * row["unit_price"] * 0.8
    return row["units"] * row["unit_price"]
''',
r'''parts = []
for chunk in pd.read_csv("transactions.csv", chunksize=20_000):
    chunk["units"] = chunk["units"].astype(int)
    chunk["net"] = chunk.apply(net_amount, axis=1)
    chunk["week"] = chunk["day"] // 7
    parts.append(chunk.groupby(["store", "week"], as_index=False)
                      .agg(units=("units", "sum"), net=("net", "sum"), baskets=("tx_id", "nunique")))
weekly = pd.concat(parts).groupby(["store", "week"], as_index=False).sum()
weekly.head()
''',
r'''parts = []
for chunk in pd.read_csv("transactions.csv", chunksize=20_000):
    chunk["units"] = chunk["units"].fillna(0).astype(int)
    chunk["net"] = chunk.apply(net_amount, axis=1)
    chunk["week"] = chunk["day"] // 7
    parts.append(chunk.groupby(["store", "week"], as_index=False)
                      .agg(units=("units", "sum"), net=("net", "sum"), baskets=("tx_id", "nunique")))
weekly = pd.concat(parts).groupby(["store", "week"], as_index=False).sum()
weekly.head()
'''),
("pandas_leaderboard_append_removed",
r'''import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
cv_scores = {name: rng.normal(0.81, 0.02, 5).round(4)
             for name in ["ridge", "lasso", "random_forest", "lightgbm", "knn", "svr"]}
leaderboard = pd.DataFrame(columns=["model", "cv_mean", "cv_std"])
''',
r'''for name, scores in cv_scores.items():
    leaderboard = leaderboard.append({"model": name, "cv_mean": scores.mean(), "cv_std": scores.std()},
                                     ignore_index=True)
leaderboard.sort_values("cv_mean", ascending=False)
''',
r'''rows = [{"model": name, "cv_mean": scores.mean(), "cv_std": scores.std()} for name, scores in cv_scores.items()]
leaderboard = pd.DataFrame(rows, columns=leaderboard.columns)
leaderboard.sort_values("cv_mean", ascending=False)
'''),
("pandas_groupby_mean_object_columns",
r'''import numpy as np
import pandas as pd

rng = np.random.default_rng(202)
n = 3000
listings = pd.DataFrame({
    "id": np.arange(n),
    "host_name": rng.choice(["Anna", "Marco", "Li", "Sven", "Priya", "Tom"], n),
    "neighbourhood": rng.choice(["Mitte", "Kreuzberg", "Neukölln", "Pankow"], n),
    "room_type": rng.choice(["Entire home/apt", "Private room", "Shared room"], n, p=[0.55, 0.4, 0.05]),
    "price": rng.gamma(3.0, 30.0, n).round(0),
    "minimum_nights": rng.integers(1, 15, n),
    "number_of_reviews": rng.poisson(20, n),
    "availability_365": rng.integers(0, 366, n),
})
''',
r'''room_stats = listings.groupby("room_type").mean()
room_stats[["price", "minimum_nights", "number_of_reviews"]].round(1)
''',
r'''room_stats = listings.groupby("room_type").mean(numeric_only=True)
room_stats[["price", "minimum_nights", "number_of_reviews"]].round(1)
'''),
("pandas_merge_validate_duplicate_airports",
r'''import numpy as np
import pandas as pd

rng = np.random.default_rng(33)
codes = ["ATL", "ORD", "DFW", "DEN", "LAX", "JFK", "SEA", "SFO", "MIA", "BOS"]
flights = pd.DataFrame({
    "flight_id": np.arange(5000),
    "origin": rng.choice(codes, 5000),
    "dep_delay": rng.normal(8, 20, 5000).round(0),
})
airports = pd.DataFrame({
    "iata": codes + ["JFK", "SFO"],
    "city": ["Atlanta", "Chicago", "Dallas", "Denver", "Los Angeles", "New York", "Seattle",
             "San Francisco", "Miami", "Boston", "New York", "San Francisco"],
    "elevation_ft": [1026, 672, 607, 5434, 125, 13, 433, 13, 8, 20, 13, 13],
    "source": ["faa"] * 10 + ["openflights"] * 2,
})
''',
r'''flights = flights.merge(airports, left_on="origin", right_on="iata", how="left", validate="many_to_one")
flights.groupby("city")["dep_delay"].mean().sort_values()
''',
r'''airports = airports.drop_duplicates(subset="iata", keep="first")
flights = flights.merge(airports, left_on="origin", right_on="iata", how="left", validate="many_to_one")
flights.groupby("city")["dep_delay"].mean().sort_values()
'''),
("pandas_qcut_region_ties",
r'''import numpy as np
import pandas as pd

rng = np.random.default_rng(404)
regions = [f"R{i:04d}" for i in range(1050)]
per = 300
claims = pd.DataFrame({
    "policy_id": np.arange(len(regions) * per),
    "region": np.repeat(regions, per),
    "driver_age": rng.integers(18, 85, len(regions) * per),
    "claim_amount": rng.lognormal(7.0, 1.1, len(regions) * per).round(2),
})
# partner insurer data for one of the last regions: most policies have no claim recorded
mask = (claims["region"] == "R0960") & (rng.random(len(claims)) < 0.75)
claims.loc[mask, "claim_amount"] = 0.0
''',
r'''decile_tables = []
for region, g in claims.groupby("region"):
    g = g.copy()
    g["decile"] = pd.qcut(g["claim_amount"], 10, labels=False)
    t = g.groupby("decile").agg(n=("policy_id", "size"),
                                avg_claim=("claim_amount", "mean"),
                                avg_age=("driver_age", "mean"))
    t["region"] = region
    decile_tables.append(t.reset_index())
deciles = pd.concat(decile_tables, ignore_index=True)
deciles.pivot_table(index="decile", values="avg_claim", aggfunc="median")
''',
r'''decile_tables = []
for region, g in claims.groupby("region"):
    g = g.copy()
    g["decile"] = pd.qcut(g["claim_amount"], 10, labels=False, duplicates="drop")
    t = g.groupby("decile").agg(n=("policy_id", "size"),
                                avg_claim=("claim_amount", "mean"),
                                avg_age=("driver_age", "mean"))
    t["region"] = region
    decile_tables.append(t.reset_index())
deciles = pd.concat(decile_tables, ignore_index=True)
deciles.pivot_table(index="decile", values="avg_claim", aggfunc="median")
'''),
("pandas_to_csv_line_terminator_removed",
r'''import numpy as np
import pandas as pd

rng = np.random.default_rng(55)
test = pd.DataFrame({"key": [f"2015-01-27 13:08:24.00000{i % 10}" for i in range(9914)],
                     "passenger_count": rng.integers(1, 6, 9914)})
pred = rng.gamma(2.2, 5.0, len(test)).round(2)
''',
r'''sub = pd.DataFrame({"key": test["key"], "fare_amount": pred})
sub.to_csv("submission.csv", index=False, line_terminator="\n")
sub.head()
''',
r'''sub = pd.DataFrame({"key": test["key"], "fare_amount": pred})
sub.to_csv("submission.csv", index=False, lineterminator="\n")
sub.head()
'''),
("pandas_zip_str_accessor_int_column",
r'''import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(606)
os.makedirs("franchise_customers", exist_ok=True)
n_files = 20
for k in range(n_files):
    n = 12000
    zip5 = rng.integers(1000, 99999, n)
    plus4 = rng.integers(0, 9999, n)
    if k == 18:   # this franchise exported plain 5-digit zips
        zips = [f"{z:05d}" for z in zip5]
    else:
        zips = [f"{z:05d}-{p:04d}" for z, p in zip(zip5, plus4)]
    pd.DataFrame({
        "customer_id": np.arange(n) + k * 100_000,
        "zip": zips,
        "visits": rng.poisson(4, n),
        "spend": rng.gamma(2.0, 40.0, n).round(2),
        "signup": pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.integers(0, 1000, n), unit="D"),
    }).to_csv(f"franchise_customers/franchise_{k:02d}.csv", index=False)
files = sorted(os.listdir("franchise_customers"))
''',
r'''summaries = []
for fname in files:
    cust = pd.read_csv(f"franchise_customers/{fname}", parse_dates=["signup"])
    cust["zip3"] = cust["zip"].str[:3]
    cust["tenure_days"] = (pd.Timestamp("2023-01-01") - cust["signup"]).dt.days
    s = (cust.groupby("zip3")
             .agg(customers=("customer_id", "nunique"), spend=("spend", "sum"),
                  visits=("visits", "mean"), tenure=("tenure_days", "median"),
                  spend_p90=("spend", lambda s: s.quantile(0.9)))
             .assign(franchise=fname[:-4]))
    summaries.append(s)
zip_summary = pd.concat(summaries).groupby(level=0).sum(numeric_only=True)
zip_summary.sort_values("spend", ascending=False).head()
''',
r'''summaries = []
for fname in files:
    cust = pd.read_csv(f"franchise_customers/{fname}", parse_dates=["signup"], dtype={"zip": str})
    cust["zip3"] = cust["zip"].str[:3]
    cust["tenure_days"] = (pd.Timestamp("2023-01-01") - cust["signup"]).dt.days
    s = (cust.groupby("zip3")
             .agg(customers=("customer_id", "nunique"), spend=("spend", "sum"),
                  visits=("visits", "mean"), tenure=("tenure_days", "median"),
                  spend_p90=("spend", lambda s: s.quantile(0.9)))
             .assign(franchise=fname[:-4]))
    summaries.append(s)
zip_summary = pd.concat(summaries).groupby(level=0).sum(numeric_only=True)
zip_summary.sort_values("spend", ascending=False).head()
'''),
("numpy_trapz_removed_auc",
r'''import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
t = np.array([0, 0.25, 0.5, 1, 2, 4, 6, 8, 12, 24], dtype=float)     # hours after dose
n_subj = 48
ka, ke = rng.uniform(0.8, 1.6, (n_subj, 1)), rng.uniform(0.08, 0.2, (n_subj, 1))
dose = rng.choice([50, 100, 200], n_subj)
conc = (dose[:, None] / 20) * ka / (ka - ke) * (np.exp(-ke * t) - np.exp(-ka * t))
conc *= rng.lognormal(0, 0.08, conc.shape)
''',
r'''auc_0_24 = np.trapz(conc, t, axis=1)
cmax = conc.max(axis=1)
pk = pd.DataFrame({"dose": dose, "auc": auc_0_24, "cmax": cmax})
pk.groupby("dose").agg(["mean", "std"]).round(2)
''',
r'''auc_0_24 = np.trapezoid(conc, t, axis=1)
cmax = conc.max(axis=1)
pk = pd.DataFrame({"dose": dose, "auc": auc_0_24, "cmax": cmax})
pk.groupby("dose").agg(["mean", "std"]).round(2)
'''),
("numpy_ragged_windows_stack",
r'''import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np

rng = np.random.default_rng(808)
fs = 50
sessions = {}
for pid in range(85):
    n = int(rng.integers(90, 130)) * 64 * 4 + int(rng.integers(10, 60))
    t = np.arange(n) / fs
    f = rng.uniform(1.5, 2.5)
    sig = np.stack([np.sin(2 * np.pi * f * t + ph) for ph in (0, 1, 2)], axis=1)
    sessions[f"P{pid:02d}"] = (sig + rng.normal(0, 0.3, sig.shape)).astype(np.float32)
WIN, STEP = 256, 64
''',
r'''windows, feats, owners = [], [], []
for pid, sig in sessions.items():
    for start in range(0, len(sig), STEP):
        w = sig[start:start + WIN]
        spec = np.abs(np.fft.rfft(w, axis=0))
        mag = np.linalg.norm(w, axis=1)
        feats.append(np.concatenate([w.mean(0), w.std(0), spec[1:20].sum(0),
                                     [mag.max(), np.percentile(mag, 90), np.argmax(spec[1:, 0])]]))
        windows.append(w)
        owners.append(pid)
X_raw = np.stack(windows)
X_feat = np.vstack(feats)
X_raw.shape, X_feat.shape
''',
r'''windows, feats, owners = [], [], []
for pid, sig in sessions.items():
    for start in range(0, len(sig) - WIN + 1, STEP):
        w = sig[start:start + WIN]
        spec = np.abs(np.fft.rfft(w, axis=0))
        mag = np.linalg.norm(w, axis=1)
        feats.append(np.concatenate([w.mean(0), w.std(0), spec[1:20].sum(0),
                                     [mag.max(), np.percentile(mag, 90), np.argmax(spec[1:, 0])]]))
        windows.append(w)
        owners.append(pid)
X_raw = np.stack(windows)
X_feat = np.vstack(feats)
X_raw.shape, X_feat.shape
'''),
("numpy_store_elasticity_singular",
r'''import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(909)
n_stores, n_days = 1200, 364
store_ids = np.repeat(np.arange(n_stores), n_days)
price = rng.uniform(2.0, 4.0, n_stores * n_days)
promo = (rng.random(n_stores * n_days) < 0.15).astype(float)
promo[store_ids == 1130] = 0.0          # this outlet never ran a promotion
dow = np.tile(np.arange(n_days) % 7, n_stores)
log_units = 3 - 1.3 * np.log(price) + 0.4 * promo + 0.05 * (dow >= 5) + rng.normal(0, 0.2, len(price))
sales = pd.DataFrame({"store": store_ids, "price": price, "promo": promo, "dow": dow,
                      "units": np.exp(log_units).round()})
B = 150
boot_rng = np.random.default_rng(0)
''',
r'''coefs = {}
for store, g in sales.groupby("store"):
    X = np.column_stack([np.ones(len(g)), np.log(g["price"].to_numpy()), g["promo"].to_numpy(),
                         (g["dow"].to_numpy() >= 5).astype(float)])
    y = np.log1p(g["units"].to_numpy())
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    boot = np.empty(B)
    for b in range(B):
        idx = boot_rng.integers(0, len(y), len(y))
        Xb, yb = X[idx], y[idx]
        boot[b] = np.linalg.solve(Xb.T @ Xb, Xb.T @ yb)[1]
    coefs[store] = {"elasticity": beta[1], "promo_lift": beta[2],
                    "ci_low": np.percentile(boot, 5), "ci_high": np.percentile(boot, 95)}
elasticity = pd.DataFrame.from_dict(coefs, orient="index")
elasticity.describe()
''',
r'''coefs = {}
for store, g in sales.groupby("store"):
    X = np.column_stack([np.ones(len(g)), np.log(g["price"].to_numpy()), g["promo"].to_numpy(),
                         (g["dow"].to_numpy() >= 5).astype(float)])
    y = np.log1p(g["units"].to_numpy())
    beta = np.linalg.lstsq(X, y, rcond=None)[0]
    boot = np.empty(B)
    for b in range(B):
        idx = boot_rng.integers(0, len(y), len(y))
        Xb, yb = X[idx], y[idx]
        boot[b] = np.linalg.lstsq(Xb, yb, rcond=None)[0][1]
    coefs[store] = {"elasticity": beta[1], "promo_lift": beta[2],
                    "ci_low": np.percentile(boot, 5), "ci_high": np.percentile(boot, 95)}
elasticity = pd.DataFrame.from_dict(coefs, orient="index")
elasticity.describe()
'''),
("sklearn_onehot_sparse_kwarg_removed",
r'''import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(1010)
n = 2000
mush = pd.DataFrame({
    "cap_shape": rng.choice(["bell", "conical", "convex", "flat", "knobbed"], n),
    "odor": rng.choice(["almond", "anise", "foul", "none", "pungent", "spicy"], n),
    "gill_color": rng.choice(["black", "brown", "buff", "white", "pink"], n),
    "habitat": rng.choice(["grasses", "leaves", "meadows", "paths", "urban", "woods"], n),
})
mush["poisonous"] = (mush["odor"].isin(["foul", "pungent", "spicy"]) | (rng.random(n) < 0.05)).astype(int)
X_train, X_valid, y_train, y_valid = train_test_split(mush.drop(columns="poisonous"), mush["poisonous"],
                                                      test_size=0.2, random_state=0)
''',
r'''ohe = OneHotEncoder(sparse=False, handle_unknown="ignore")
X_train_ohe = ohe.fit_transform(X_train)
X_valid_ohe = ohe.transform(X_valid)
X_train_ohe.shape, X_valid_ohe.shape
''',
r'''ohe = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
X_train_ohe = ohe.fit_transform(X_train)
X_valid_ohe = ohe.transform(X_valid)
X_train_ohe.shape, X_valid_ohe.shape
'''),
("sklearn_stratify_singleton_class",
r'''import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(1111)
labels = (["healthy"] * 400 + ["rust"] * 180 + ["scab"] * 150 + ["powdery_mildew"] * 60
          + ["black_rot"] * 1 + ["frog_eye"] * 1)
leaves = pd.DataFrame({
    "image_id": [f"leaf_{i:05d}.jpg" for i in range(len(labels))],
    "disease": labels,
    "green_ratio": rng.uniform(0.3, 0.9, len(labels)),
    "spot_count": rng.poisson(5, len(labels)),
})
''',
r'''train_df, valid_df = train_test_split(leaves, test_size=0.2, stratify=leaves["disease"], random_state=42)
train_df["disease"].value_counts(normalize=True).round(3)
''',
r'''counts = leaves["disease"].value_counts()
leaves["disease"] = leaves["disease"].where(leaves["disease"].map(counts) >= 10, "other")
train_df, valid_df = train_test_split(leaves, test_size=0.2, stratify=leaves["disease"], random_state=42)
train_df["disease"].value_counts(normalize=True).round(3)
'''),
("sklearn_model_zoo_max_features_auto",
r'''import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.ensemble import GradientBoostingClassifier, ExtraTreesClassifier, RandomForestClassifier

X, y = make_classification(n_samples=2500, n_features=24, n_informative=10, weights=[0.8, 0.2], random_state=12)
credit = pd.DataFrame(X, columns=[f"f{i:02d}" for i in range(24)])
credit["default"] = y
features = [c for c in credit.columns if c != "default"]
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=12)
''',
r'''models = {
    "logreg": make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=500)),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=25)),
    "tree": DecisionTreeClassifier(max_depth=6, random_state=0),
    "gbm": GradientBoostingClassifier(n_estimators=60, max_depth=3, random_state=0),
    "extra_trees": ExtraTreesClassifier(n_estimators=60, min_samples_leaf=3, n_jobs=1, random_state=0),
    "random_forest": RandomForestClassifier(n_estimators=60, max_features="auto", n_jobs=1, random_state=0),
}
results = {}
for name, model in models.items():
    aucs = []
    for tr_idx, va_idx in skf.split(credit[features], credit["default"]):
        model.fit(credit.loc[tr_idx, features], credit.loc[tr_idx, "default"])
        p = model.predict_proba(credit.loc[va_idx, features])[:, 1]
        aucs.append(roc_auc_score(credit.loc[va_idx, "default"], p))
    results[name] = np.mean(aucs)
pd.Series(results).sort_values(ascending=False)
''',
r'''models = {
    "logreg": make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=500)),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=25)),
    "tree": DecisionTreeClassifier(max_depth=6, random_state=0),
    "gbm": GradientBoostingClassifier(n_estimators=60, max_depth=3, random_state=0),
    "extra_trees": ExtraTreesClassifier(n_estimators=60, min_samples_leaf=3, n_jobs=1, random_state=0),
    "random_forest": RandomForestClassifier(n_estimators=60, max_features="sqrt", n_jobs=1, random_state=0),
}
results = {}
for name, model in models.items():
    aucs = []
    for tr_idx, va_idx in skf.split(credit[features], credit["default"]):
        model.fit(credit.loc[tr_idx, features], credit.loc[tr_idx, "default"])
        p = model.predict_proba(credit.loc[va_idx, features])[:, 1]
        aucs.append(roc_auc_score(credit.loc[va_idx, "default"], p))
    results[name] = np.mean(aucs)
pd.Series(results).sort_values(ascending=False)
'''),
("sklearn_cross_val_then_predict_unfitted",
r'''import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(1313)
n = 900
heart = pd.DataFrame({
    "age": rng.integers(29, 78, n), "trestbps": rng.normal(131, 17, n).round(),
    "chol": rng.normal(246, 50, n).round(), "thalach": rng.normal(150, 22, n).round(),
    "oldpeak": rng.exponential(1.0, n).round(1), "ca": rng.integers(0, 4, n),
})
logit = 0.04 * (heart["age"] - 54) - 0.03 * (heart["thalach"] - 150) + 0.6 * heart["oldpeak"] + 0.5 * heart["ca"] - 1
heart["target"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
test = heart.sample(150, random_state=1).drop(columns="target")
X, y = heart.drop(columns="target"), heart["target"]
pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression(max_iter=1000))])
''',
r'''scores = cross_val_score(pipe, X, y, cv=5, scoring="roc_auc")
print(f"CV AUC: {scores.mean():.4f} +/- {scores.std():.4f}")
test_proba = pipe.predict_proba(test)[:, 1]
test_proba[:5]
''',
r'''scores = cross_val_score(pipe, X, y, cv=5, scoring="roc_auc")
print(f"CV AUC: {scores.mean():.4f} +/- {scores.std():.4f}")
pipe.fit(X, y)
test_proba = pipe.predict_proba(test)[:, 1]
test_proba[:5]
'''),
("sklearn_predict_feature_order_mismatch",
r'''import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge

rng = np.random.default_rng(1414)
n = 1460
houses = pd.DataFrame({
    "LotArea": rng.gamma(4.0, 2500.0, n).round(),
    "OverallQual": rng.integers(1, 11, n),
    "GrLivArea": rng.normal(1500, 450, n).round(),
    "YearBuilt": rng.integers(1880, 2010, n),
    "GarageCars": rng.integers(0, 4, n),
})
houses["SalePrice"] = (20000 * houses["OverallQual"] + 60 * houses["GrLivArea"]
                       + 8000 * houses["GarageCars"] + rng.normal(0, 20000, n))
X_train, y_train = houses.drop(columns="SalePrice"), np.log1p(houses["SalePrice"])
model = Ridge(alpha=1.0).fit(X_train, y_train)
new_listings = pd.DataFrame({
    "GrLivArea": [1710, 1262, 2198], "OverallQual": [7, 6, 8], "YearBuilt": [2003, 1976, 2001],
    "LotArea": [8450, 9600, 11250], "GarageCars": [2, 2, 3],
})
''',
r'''pred_price = np.expm1(model.predict(new_listings))
new_listings.assign(pred_price=pred_price.round(-2))
''',
r'''pred_price = np.expm1(model.predict(new_listings[X_train.columns]))
new_listings.assign(pred_price=pred_price.round(-2))
'''),
("sklearn_ratio_feature_infinity",
r'''import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import log_loss

rng = np.random.default_rng(1515)
n = 150000
churn = pd.DataFrame({
    "tenure": rng.integers(1, 72, n),
    "monthly_charges": rng.uniform(18, 120, n).round(2),
    "support_calls": rng.poisson(1.2, n),
    "data_gb": rng.gamma(2.0, 8.0, n).round(1),
    "dropped_calls": rng.poisson(2.0, n),
    "contract_months": rng.choice([1, 12, 24], n),
    "n_lines": rng.integers(1, 5, n),
})
churn["total_charges"] = (churn["tenure"] * churn["monthly_charges"]).round(2)
logit = -1.5 - 0.03 * churn["tenure"] + 0.4 * churn["support_calls"] + 0.01 * churn["monthly_charges"]
churn["churn"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
base_features = ["tenure", "monthly_charges", "support_calls", "data_gb", "contract_months"]
candidates = {
    "charge_per_line": lambda d: d["monthly_charges"] / d["n_lines"],
    "gb_per_line": lambda d: d["data_gb"] / d["n_lines"],
    "tenure_x_contract": lambda d: d["tenure"] / d["contract_months"],
    "drop_rate": lambda d: d["dropped_calls"] / (d["tenure"] + 1),
    "charges_per_gb": lambda d: d["monthly_charges"] / (d["data_gb"] + 0.1),
    "log_total": lambda d: np.log1p(d["total_charges"]),
    "calls_per_year": lambda d: d["support_calls"] / (d["tenure"] / 12),
    "total_per_call": lambda d: d["total_charges"] / d["support_calls"],
    "lines_per_contract": lambda d: d["n_lines"] / d["contract_months"],
}
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
''',
r'''def cv_logloss(df, feats):
    losses = []
    for tr, va in skf.split(df, df["churn"]):
        clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=300))
        clf.fit(df.iloc[tr][feats], df.iloc[tr]["churn"])
        losses.append(log_loss(df.iloc[va]["churn"], clf.predict_proba(df.iloc[va][feats])[:, 1]))
    return np.mean(losses)

selected = list(base_features)
best = cv_logloss(churn, selected)
for name, fn in candidates.items():
    churn[name] = fn(churn)
    score = cv_logloss(churn, selected + [name])
    if score < best - 1e-4:
        selected.append(name)
        best = score
print(best, selected)
''',
r'''def cv_logloss(df, feats):
    losses = []
    for tr, va in skf.split(df, df["churn"]):
        clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=300))
        clf.fit(df.iloc[tr][feats], df.iloc[tr]["churn"])
        losses.append(log_loss(df.iloc[va]["churn"], clf.predict_proba(df.iloc[va][feats])[:, 1]))
    return np.mean(losses)

selected = list(base_features)
best = cv_logloss(churn, selected)
for name, fn in candidates.items():
    churn[name] = fn(churn).replace([np.inf, -np.inf], np.nan).fillna(0)
    score = cv_logloss(churn, selected + [name])
    if score < best - 1e-4:
        selected.append(name)
        best = score
print(best, selected)
'''),
("sklearn_ordinal_encoder_unseen_late_fold",
r'''import os
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold
from sklearn.preprocessing import OrdinalEncoder
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error

rng = np.random.default_rng(1616)
n = 8000
makes = ["Toyota", "Ford", "BMW", "Honda", "VW", "Kia"]
cars = pd.DataFrame({
    "listed": pd.Timestamp("2019-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 1500, n)), unit="D"),
    "make": rng.choice(makes, n),
    "fuel": rng.choice(["petrol", "diesel", "hybrid"], n, p=[0.6, 0.3, 0.1]),
    "gearbox": rng.choice(["manual", "automatic"], n),
    "year": rng.integers(2005, 2022, n),
    "mileage": rng.gamma(2.0, 30000, n).round(),
    "engine_l": rng.choice([1.0, 1.4, 1.6, 2.0, 3.0], n),
})
# electric cars only show up in the newest listings
late = cars.index[-600:]
cars.loc[rng.choice(late, 80, replace=False), "fuel"] = "electric"
cars["price"] = (25000 - 900 * (2022 - cars["year"]) - 0.05 * cars["mileage"]
                 + 4000 * cars["engine_l"] + rng.normal(0, 1500, n)).clip(800)
cat_cols = ["make", "fuel", "gearbox"]
num_cols = ["year", "mileage", "engine_l"]
kf = KFold(n_splits=5, shuffle=False)
''',
r'''oof = np.zeros(len(cars))
for fold, (tr, va) in enumerate(kf.split(cars)):
    trn, val = cars.iloc[tr], cars.iloc[va]
    enc = OrdinalEncoder()
    X_tr = np.hstack([enc.fit_transform(trn[cat_cols]), trn[num_cols].to_numpy()])
    X_va = np.hstack([enc.transform(val[cat_cols]), val[num_cols].to_numpy()])
    rf = RandomForestRegressor(n_estimators=110, min_samples_leaf=2, n_jobs=1, random_state=fold)
    rf.fit(X_tr, trn["price"])
    oof[va] = rf.predict(X_va)
    print(fold, round(mean_absolute_error(val["price"], oof[va]), 1))
print("OOF MAE", mean_absolute_error(cars["price"], oof))
''',
r'''oof = np.zeros(len(cars))
for fold, (tr, va) in enumerate(kf.split(cars)):
    trn, val = cars.iloc[tr], cars.iloc[va]
    enc = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
    X_tr = np.hstack([enc.fit_transform(trn[cat_cols]), trn[num_cols].to_numpy()])
    X_va = np.hstack([enc.transform(val[cat_cols]), val[num_cols].to_numpy()])
    rf = RandomForestRegressor(n_estimators=110, min_samples_leaf=2, n_jobs=1, random_state=fold)
    rf.fit(X_tr, trn["price"])
    oof[va] = rf.predict(X_va)
    print(fold, round(mean_absolute_error(val["price"], oof[va]), 1))
print("OOF MAE", mean_absolute_error(cars["price"], oof))
'''),
("keras_adam_lr_kwarg_removed",
r'''import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
X_train = rng.random((2000, 28, 28, 1)).astype("float32")
y_train = rng.integers(0, 10, 2000)
model = keras.Sequential([
    keras.Input(shape=(28, 28, 1)),
    layers.Conv2D(8, 3, activation="relu"),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dense(32, activation="relu"),
    layers.Dense(10, activation="softmax"),
])
''',
r'''model.compile(optimizer=keras.optimizers.Adam(lr=1e-3),
              loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=1, batch_size=128, validation_split=0.1, verbose=0)
history.history["val_accuracy"]
''',
r'''model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3),
              loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=1, batch_size=128, validation_split=0.1, verbose=0)
history.history["val_accuracy"]
'''),
("keras_save_weights_h5_suffix",
r'''import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
n = 30000
energy = pd.DataFrame({
    "temp_c": rng.normal(12, 8, n), "humidity": rng.uniform(20, 95, n),
    "hour": rng.integers(0, 24, n), "weekday": rng.integers(0, 7, n),
    "occupancy": rng.integers(0, 300, n), "floor_area": rng.uniform(500, 5000, n),
})
energy["kwh"] = (0.02 * energy["floor_area"] + 0.3 * energy["occupancy"] + 2.5 * np.abs(energy["temp_c"] - 18)
                 + 5 * np.sin(energy["hour"] / 24 * 2 * np.pi) + rng.normal(0, 5, n))
X = ((energy.drop(columns="kwh") - energy.drop(columns="kwh").mean()) / energy.drop(columns="kwh").std()).to_numpy("float32")
y = energy["kwh"].to_numpy("float32")
model = keras.Sequential([keras.Input(shape=(X.shape[1],)), layers.Dense(64, activation="relu"),
                          layers.Dense(32, activation="relu"), layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse", metrics=["mae"])
''',
r'''history = model.fit(X, y, epochs=6, batch_size=128, validation_split=0.2, verbose=0,
                    callbacks=[keras.callbacks.ReduceLROnPlateau(patience=2)])
print("best val_mae", min(history.history["val_mae"]))
model.save_weights("energy_mlp.h5")
''',
r'''history = model.fit(X, y, epochs=6, batch_size=128, validation_split=0.2, verbose=0,
                    callbacks=[keras.callbacks.ReduceLROnPlateau(patience=2)])
print("best val_mae", min(history.history["val_mae"]))
model.save_weights("energy_mlp.weights.h5")
'''),
("keras_sparse_label_out_of_range",
r'''import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
n = 114000
# support tickets in time order; category ids come from an upstream system
tickets = pd.DataFrame(rng.normal(size=(n, 32)).astype("float32"), columns=[f"emb_{i}" for i in range(32)])
cat = rng.choice([0, 1, 2, 3, 4, 5, 6, 8], n)          # id 7 was retired long ago
late = np.arange(int(n * 0.9), n)
cat[rng.choice(late, 300, replace=False)] = 9          # new "billing-v2" queue added recently
tickets["category"] = cat
tickets["date"] = pd.date_range("2021-01-01", periods=n, freq="15min")
X = tickets.filter(like="emb_").to_numpy()
y = tickets["category"].to_numpy()
''',
r'''n_classes = tickets["category"].nunique()
model = keras.Sequential([keras.Input(shape=(32,)), layers.Dense(128, activation="relu"),
                          layers.Dropout(0.2), layers.Dense(64, activation="relu"),
                          layers.Dense(n_classes, activation="softmax")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=2, batch_size=64, shuffle=False, verbose=0)
history.history["accuracy"]
''',
r'''n_classes = int(tickets["category"].max()) + 1
model = keras.Sequential([keras.Input(shape=(32,)), layers.Dense(128, activation="relu"),
                          layers.Dropout(0.2), layers.Dense(64, activation="relu"),
                          layers.Dense(n_classes, activation="softmax")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=2, batch_size=64, shuffle=False, verbose=0)
history.history["accuracy"]
'''),
("torch_batchnorm_last_batch_of_one",
r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(20)
torch.set_num_threads(1)
rng = np.random.default_rng(20)
n = 64 * 2600 + 1            # rows left after dropping duplicates
X = rng.normal(size=(n, 40)).astype("float32")
y = (X[:, :5].sum(1) + rng.normal(0, 1, n) > 0).astype("float32")
train_ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
model = nn.Sequential(nn.Linear(40, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2),
                      nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
loss_fn = nn.BCEWithLogitsLoss()
''',
r'''train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
for epoch in range(2):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: train loss {running / len(train_ds):.4f}")
''',
r'''train_loader = DataLoader(train_ds, batch_size=64, shuffle=True, drop_last=True)
for epoch in range(2):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: train loss {running / len(train_ds):.4f}")
'''),
("torch_load_checkpoint_weights_only",
r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import mean_absolute_error

torch.manual_seed(21)
torch.set_num_threads(1)
rng = np.random.default_rng(21)
n = 46000
X_raw = rng.normal(50, 10, size=(n, 20))
y = (X_raw[:, :4] @ np.array([0.5, -0.2, 0.1, 0.3]) + rng.normal(0, 1, n)).astype("float32")
scaler = StandardScaler().fit(X_raw[:42000])
X = scaler.transform(X_raw).astype("float32")
X_tr, y_tr = torch.from_numpy(X[:42000]), torch.from_numpy(y[:42000])
X_va, y_va = torch.from_numpy(X[42000:]), y[42000:]
model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
''',
r'''best_mae = np.inf
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(X_tr))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X_tr[idx]).squeeze(1), y_tr[idx])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        mae = mean_absolute_error(y_va, model(X_va).squeeze(1).numpy())
    if mae < best_mae:
        best_mae = mae
        torch.save({"model": model.state_dict(), "epoch": epoch, "val_mae": mae,
                    "scaler_mean": scaler.mean_, "scaler_scale": scaler.scale_}, "best.pt")
ckpt = torch.load("best.pt")
model.load_state_dict(ckpt["model"])
print(ckpt["epoch"], ckpt["val_mae"])
''',
r'''best_mae = np.inf
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(X_tr))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X_tr[idx]).squeeze(1), y_tr[idx])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        mae = mean_absolute_error(y_va, model(X_va).squeeze(1).numpy())
    if mae < best_mae:
        best_mae = mae
        torch.save({"model": model.state_dict(), "epoch": epoch, "val_mae": mae,
                    "scaler_mean": scaler.mean_, "scaler_scale": scaler.scale_}, "best.pt")
ckpt = torch.load("best.pt", weights_only=False)
model.load_state_dict(ckpt["model"])
print(ckpt["epoch"], ckpt["val_mae"])
'''),
("torch_cross_entropy_double_targets",
r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(22)
torch.set_num_threads(1)
rng = np.random.default_rng(22)
n = 1200
wine = pd.DataFrame(rng.normal(size=(n, 11)), columns=[f"x{i}" for i in range(11)])
wine["quality_bin"] = rng.integers(0, 3, n).astype(float)
wine.loc[rng.choice(n, 6, replace=False), "quality_bin"] = np.nan
wine["quality_bin"] = wine["quality_bin"].fillna(wine["quality_bin"].mode()[0])
model = nn.Sequential(nn.Linear(11, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
criterion = nn.CrossEntropyLoss()
''',
r'''X_t = torch.tensor(wine.filter(like="x").to_numpy(), dtype=torch.float32)
y_t = torch.from_numpy(wine["quality_bin"].to_numpy())
for step in range(20):
    opt.zero_grad()
    loss = criterion(model(X_t), y_t)
    loss.backward()
    opt.step()
loss.item()
''',
r'''X_t = torch.tensor(wine.filter(like="x").to_numpy(), dtype=torch.float32)
y_t = torch.from_numpy(wine["quality_bin"].to_numpy()).long()
for step in range(20):
    opt.zero_grad()
    loss = criterion(model(X_t), y_t)
    loss.backward()
    opt.step()
loss.item()
'''),
("torch_inference_numpy_requires_grad",
r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(23)
torch.set_num_threads(1)
rng = np.random.default_rng(23)
X_test = rng.normal(size=(500, 16)).astype("float32")
test_ids = np.arange(100000, 100500)

class TabNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 4))
    def forward(self, x):
        return self.body(x)

model = TabNet()
model.eval()
''',
r'''X_test_t = torch.from_numpy(X_test)
probs = model(X_test_t).softmax(dim=1).numpy()
sub = pd.DataFrame(probs, columns=["class_0", "class_1", "class_2", "class_3"])
sub.insert(0, "id", test_ids)
sub.to_csv("submission.csv", index=False)
sub.head()
''',
r'''X_test_t = torch.from_numpy(X_test)
with torch.no_grad():
    probs = model(X_test_t).softmax(dim=1).numpy()
sub = pd.DataFrame(probs, columns=["class_0", "class_1", "class_2", "class_3"])
sub.insert(0, "id", test_ids)
sub.to_csv("submission.csv", index=False)
sub.head()
'''),
("matplotlib_style_seaborn_renamed",
r'''import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rng = np.random.default_rng(24)
days = pd.date_range("2020-03-01", periods=200, freq="D")
covid = pd.DataFrame({"date": days, "new_cases": rng.poisson(np.linspace(50, 900, 200))})
covid["ma7"] = covid["new_cases"].rolling(7).mean()
''',
r'''plt.style.use("seaborn-darkgrid")
fig, ax = plt.subplots(figsize=(10, 4))
ax.bar(covid["date"], covid["new_cases"], alpha=0.4, label="daily")
ax.plot(covid["date"], covid["ma7"], color="crimson", label="7-day average")
ax.legend()
fig.savefig("cases.png", dpi=80)
''',
r'''plt.style.use("seaborn-v0_8-darkgrid")
fig, ax = plt.subplots(figsize=(10, 4))
ax.bar(covid["date"], covid["new_cases"], alpha=0.4, label="daily")
ax.plot(covid["date"], covid["ma7"], color="crimson", label="7-day average")
ax.legend()
fig.savefig("cases.png", dpi=80)
'''),
("seaborn_hue_after_column_rename",
r'''import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(25)
species = np.repeat(["Adelie", "Chinstrap", "Gentoo"], [152, 68, 124])
penguins = pd.DataFrame({
    "Species": species,
    "Bill Length (mm)": np.where(species == "Adelie", 38.8, np.where(species == "Gentoo", 47.5, 48.8)) + rng.normal(0, 2.5, 344),
    "Flipper Length (mm)": np.where(species == "Gentoo", 217, np.where(species == "Adelie", 190, 196)) + rng.normal(0, 6, 344),
})
penguins.columns = penguins.columns.str.lower().str.replace(r"\s*\(mm\)", "", regex=True).str.replace(" ", "_")
''',
r'''fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(data=penguins, x="bill_length", y="flipper_length", hue="Species", ax=ax)
fig.savefig("penguins.png", dpi=80)
''',
r'''fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(data=penguins, x="bill_length", y="flipper_length", hue="species", ax=ax)
fig.savefig("penguins.png", dpi=80)
'''),
("xgboost_warehouse_missing_class",
r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import train_test_split
from sklearn.metrics import accuracy_score

rng = np.random.default_rng(26)
warehouses = [f"WH{i:02d}" for i in range(24)]
per = 4000
orders = pd.DataFrame({
    "warehouse": np.repeat(warehouses, per),
    "distance_km": rng.gamma(2.0, 80.0, 24 * per),
    "weight_kg": rng.gamma(1.5, 4.0, 24 * per),
    "items": rng.integers(1, 20, 24 * per),
    "hour": rng.integers(0, 24, 24 * per),
    "carrier": rng.integers(0, 4, 24 * per),
})
score = orders["distance_km"] / 100 + orders["weight_kg"] / 10 + rng.normal(0, 0.8, len(orders))
orders["delay_class"] = np.digitize(score, [2.0, 3.5])       # 0 on time, 1 late, 2 very late
# the automated hub only logs on-time / very-late (no "late" status)
wh = orders["warehouse"] == "WH21"
orders.loc[wh & (orders["delay_class"] == 1), "delay_class"] = 2
features = ["distance_km", "weight_kg", "items", "hour", "carrier"]
''',
r'''wh_models, wh_acc = {}, {}
for wh_name, g in orders.groupby("warehouse"):
    X_tr, X_va, y_tr, y_va = train_test_split(g[features], g["delay_class"], test_size=0.2, random_state=0)
    clf = xgb.XGBClassifier(n_estimators=250, max_depth=4, learning_rate=0.1, n_jobs=1, random_state=0)
    clf.fit(X_tr, y_tr)
    wh_models[wh_name] = clf
    wh_acc[wh_name] = accuracy_score(y_va, clf.predict(X_va))
pd.Series(wh_acc).describe()
''',
r'''wh_models, wh_acc = {}, {}
for wh_name, g in orders.groupby("warehouse"):
    classes, y_enc = np.unique(g["delay_class"], return_inverse=True)
    X_tr, X_va, y_tr, y_va = train_test_split(g[features], y_enc, test_size=0.2, random_state=0)
    clf = xgb.XGBClassifier(n_estimators=250, max_depth=4, learning_rate=0.1, n_jobs=1, random_state=0)
    clf.fit(X_tr, y_tr)
    wh_models[wh_name] = (clf, classes)
    wh_acc[wh_name] = accuracy_score(y_va, clf.predict(X_va))
pd.Series(wh_acc).describe()
'''),
("lightgbm_test_leftover_flag_column",
r'''import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.model_selection import KFold
from sklearn.metrics import mean_squared_error

rng = np.random.default_rng(27)
n_tr, n_te = 70000, 8000
raw = pd.DataFrame({
    "id": np.arange(n_tr + n_te),
    "sqft": rng.normal(900, 250, n_tr + n_te),
    "bedrooms": rng.integers(0, 5, n_tr + n_te),
    "floor": rng.integers(1, 30, n_tr + n_te),
    "dist_center_km": rng.gamma(2.0, 3.0, n_tr + n_te),
    "age_years": rng.integers(0, 80, n_tr + n_te),
})
raw["rent"] = (1.8 * raw["sqft"] + 120 * raw["bedrooms"] - 40 * raw["dist_center_km"]
               + rng.normal(0, 150, n_tr + n_te))
raw["is_test"] = (np.arange(n_tr + n_te) >= n_tr).astype(int)
raw.loc[raw["is_test"] == 1, "rent"] = np.nan
# joint feature engineering on train+test
raw["sqft_per_bed"] = raw["sqft"] / (raw["bedrooms"] + 1)
raw["high_floor"] = (raw["floor"] > 10).astype(int)
train = raw[raw["is_test"] == 0].drop(columns=["is_test"]).reset_index(drop=True)
test = raw[raw["is_test"] == 1].drop(columns=["rent"]).reset_index(drop=True)
params = {"objective": "regression", "learning_rate": 0.05, "num_leaves": 63,
          "num_threads": 1, "verbose": -1, "seed": 27}
''',
r'''feats = [c for c in train.columns if c not in ("id", "rent")]
kf = KFold(n_splits=5, shuffle=True, random_state=27)
models, oof = [], np.zeros(len(train))
for fold, (tr, va) in enumerate(kf.split(train)):
    dtr = lgb.Dataset(train.loc[tr, feats], train.loc[tr, "rent"])
    dva = lgb.Dataset(train.loc[va, feats], train.loc[va, "rent"])
    booster = lgb.train(params, dtr, num_boost_round=300, valid_sets=[dva],
                        callbacks=[lgb.early_stopping(30, verbose=False)])
    oof[va] = booster.predict(train.loc[va, feats])
    models.append(booster)
print("OOF RMSE", mean_squared_error(train["rent"], oof) ** 0.5)
test_pred = np.mean([m.predict(test.drop(columns=["id"])) for m in models], axis=0)
test_pred[:5]
''',
r'''feats = [c for c in train.columns if c not in ("id", "rent")]
kf = KFold(n_splits=5, shuffle=True, random_state=27)
models, oof = [], np.zeros(len(train))
for fold, (tr, va) in enumerate(kf.split(train)):
    dtr = lgb.Dataset(train.loc[tr, feats], train.loc[tr, "rent"])
    dva = lgb.Dataset(train.loc[va, feats], train.loc[va, "rent"])
    booster = lgb.train(params, dtr, num_boost_round=300, valid_sets=[dva],
                        callbacks=[lgb.early_stopping(30, verbose=False)])
    oof[va] = booster.predict(train.loc[va, feats])
    models.append(booster)
print("OOF RMSE", mean_squared_error(train["rent"], oof) ** 0.5)
test_pred = np.mean([m.predict(test[feats]) for m in models], axis=0)
test_pred[:5]
'''),
("python_jsonl_truncated_record",
r'''import os
import json
import random
from collections import Counter, defaultdict
from datetime import datetime, timezone

random.seed(28)
os.makedirs("clickstream", exist_ok=True)
events = ["view", "add_to_cart", "remove_from_cart", "purchase", "search"]
devices = ["ios", "android", "web"]
N = 38000
for day in range(30):
    ts = [1_600_000_000 + day * 86400 + s for s in random.choices(range(86400), k=N)]
    users = random.choices(range(1, 5001), k=N)
    evs = random.choices(events, weights=[60, 15, 5, 5, 15], k=N)
    items = random.choices(range(1, 20001), k=N)
    devs = random.choices(devices, k=N)
    lines = [f'{{"ts": {t}, "user": "u{u}", "event": "{e}", "item": {i}, "price": {i % 300 + 0.99}, '
             f'"meta": {{"device": "{d}", "ab": {u % 2}}}}}'
             for t, u, e, i, d in zip(ts, users, evs, items, devs)]
    if day == 27:   # the logger was killed mid-write
        lines[30000] = lines[30000][:41]
    with open(f"clickstream/day_{day:02d}.jsonl", "w") as f:
        f.write("\n".join(lines) + "\n")
log_files = sorted(os.listdir("clickstream"))
''',
r'''event_counts = Counter()
hourly = Counter()
user_spend = defaultdict(float)
device_users = defaultdict(set)
for fname in log_files:
    with open(f"clickstream/{fname}") as f:
        for line in f:
            rec = json.loads(line)
            event_counts[rec["event"]] += 1
            hourly[datetime.fromtimestamp(rec["ts"], tz=timezone.utc).hour] += 1
            device_users[rec["meta"]["device"]].add(rec["user"])
            if rec["event"] == "purchase":
                user_spend[rec["user"]] += rec["price"]
top_spenders = sorted(user_spend.items(), key=lambda kv: kv[1], reverse=True)[:10]
event_counts.most_common(), {d: len(u) for d, u in device_users.items()}
''',
r'''event_counts = Counter()
hourly = Counter()
user_spend = defaultdict(float)
device_users = defaultdict(set)
n_bad = 0
for fname in log_files:
    with open(f"clickstream/{fname}") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                n_bad += 1
                continue
            event_counts[rec["event"]] += 1
            hourly[datetime.fromtimestamp(rec["ts"], tz=timezone.utc).hour] += 1
            device_users[rec["meta"]["device"]].add(rec["user"])
            if rec["event"] == "purchase":
                user_spend[rec["user"]] += rec["price"]
top_spenders = sorted(user_spend.items(), key=lambda kv: kv[1], reverse=True)[:10]
event_counts.most_common(), {d: len(u) for d, u in device_users.items()}
'''),
("python_prune_vocab_dict_while_iterating",
r'''import random
import re
from collections import Counter

random.seed(29)
words = ["great", "food", "service", "slow", "tasty", "cold", "friendly", "price", "dirty", "fresh",
         "burger", "pizza", "wait", "staff", "delicious", "rude", "cheap", "portion", "noisy", "cozy"]
rare = [f"typo{i}" for i in range(300)]
reviews = [" ".join(random.choices(words, k=random.randint(5, 30)) + random.sample(rare, 2)) for _ in range(2000)]
vocab = Counter(tok for r in reviews for tok in re.findall(r"[a-z0-9]+", r.lower()))
MIN_COUNT = 20
''',
r'''for tok, cnt in vocab.items():
    if cnt < MIN_COUNT:
        del vocab[tok]
word2idx = {w: i + 1 for i, (w, _) in enumerate(vocab.most_common())}
len(word2idx)
''',
r'''for tok, cnt in list(vocab.items()):
    if cnt < MIN_COUNT:
        del vocab[tok]
word2idx = {w: i + 1 for i, (w, _) in enumerate(vocab.most_common())}
len(word2idx)
'''),
]
