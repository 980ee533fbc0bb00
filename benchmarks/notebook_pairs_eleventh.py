"""Notebook crash/fix pairs, eleventh set: 30 realistic Kaggle-style machine-learning notebook failures, each with the small edit that a Kaggle user would make.

Each entry of PAIRS is a tuple (name, setup, crash, fixed):

- name: short identifier, prefixed with the library the notebook is about.
- setup: the earlier notebook cells joined into one string (imports included).
  It runs clean.
- crash: the target cell. Executed after setup in the same namespace, it raises
  an exception from the library or from Python itself (never an `assert` or a
  `raise` written by the notebook author).
- fixed: the same cell after the user's fix. Executed after setup in a fresh
  namespace, it runs clean and does the same work.

Indices below are 0-based positions in PAIRS.

How it was made
---------------
Written from scratch from knowledge of how Kaggle notebooks crash, without
looking at the crash-prediction tool. All data is synthetic, made with
numpy.random.default_rng(seed) or random.seed with fixed seeds (plus
torch.manual_seed / keras.utils.set_random_seed for the model code); nothing is
downloaded, no pretrained weights. Files are written only under the current
working directory (relative paths). Everything runs on CPU. Each pair was
checked in fresh Python processes (setup+crash in one process, setup+fixed in
another), each in a fresh temporary working directory, one pair at a time, with
TF_CPP_MIN_LOG_LEVEL=3; the full check was run twice, and all 60 runs were as
expected both times (crash raised from the library/Python, fixed ran clean).

Checked against: Python 3.11.7, numpy 2.4.6, pandas 2.3.3, scikit-learn 1.9.1,
tensorflow 2.21.0 with keras 3.15.1, torch 2.13.0+cpu, matplotlib 3.11.2,
seaborn 0.13.2, xgboost 3.2.0, lightgbm 4.7.0, scipy 1.17.1.

Mix by library (30)
-------------------
- pandas (7): 0, 1, 2, 3, 4, 5, 6
- numpy (3): 7, 8, 9
- scikit-learn (7): 10, 11, 12, 13, 14, 15, 16
- Keras, `from tensorflow import keras` (3): 17, 18, 19
- torch (4): 20, 21, 22, 23
- matplotlib / seaborn (2): 24 (matplotlib), 25 (seaborn)
- xgboost / lightgbm (2): 26 (xgboost), 27 (lightgbm)
- plain Python (2): 28, 29

Root causes
-----------
- API removed or changed in the installed versions:
  0 (DataFrame.append removed in pandas 2.0),
  1 (groupby().mean() no longer drops text columns; numeric_only=False default),
  7 (np.NaN alias removed in NumPy 2.0),
  10 (OneHotEncoder(sparse=...) removed; sparse_output),
  11 (mean_squared_error(squared=False) removed; root_mean_squared_error),
  17 (keras.optimizers.Adam(lr=...) rejected by Keras 3),
  18 (Keras 3 model.save() needs a .keras/.h5 extension),
  19 (Sequential.predict_classes removed),
  23 (torch.load weights_only=True by default rejects numpy arrays in a checkpoint),
  24 (matplotlib style 'seaborn' renamed 'seaborn-v0_8'),
  25 (DataFrame.corr() numeric_only=False default, hit through sns.heatmap),
  27 (lgb.train early_stopping_rounds / verbose_eval removed; callbacks).
- Data problems only visible in later rows / later files of big data:
  2 (NaN years only in the test rows at the end of a concatenated frame),
  4 (timestamp format changes in the last log files),
  8 (a few late image files are grayscale (H, W) instead of (H, W, 3)),
  28 (the last CSV exports write counts as '12.0').
- Train/test mismatch:
  12 (category present only in the test set, OneHotEncoder handle_unknown='error'),
  15 (test features built in a different column order),
  26 (a test column parsed as object because of a 'ground' value).
- dtype / type errors:
  3 (merge on int64 key vs key parsed from file names as str),
  20 (labels downcast to int8 by reduce_mem_usage fed to CrossEntropyLoss).
- Shape / dimension / memory-layout errors:
  9 (np.eye one-hot indexed with 1-based ratings),
  21 (BatchNorm left in training mode at inference, last test batch of size 1),
  22 (.view() on a permuted, non-contiguous tensor).
- Index / label / column-name errors:
  5 (column used after get_dummies replaced it),
  6 (groupby().rolling() result with a MultiIndex assigned as a column).
- Unfitted estimator: 14 (predicting with the estimator given to cross_val_score).
- Numerical: 13 (ratio features divide by zero -> inf rejected by RandomForest).
- Too few samples per class: 16 (stratified split with a one-member class).
- Python semantics: 29 (deleting dict keys while iterating over the dict).

Long and short pairs
--------------------
- Long (15): 0, 2, 4, 8, 11, 12, 13, 14, 18, 21, 23, 25, 26, 28, 29.
  The crash cell does about 2-5 s of real work on a 2-core CPU (feature
  loops over big frames, many files, CV folds, training loops) before it
  raises at the end or late in the cell; the fixed cell does the same work.
- Short (15): 1, 3, 5, 6, 7, 9, 10, 15, 16, 17, 19, 20, 22, 24, 27.
  The crash cell raises well under a second.

Setup cost: every setup runs in under about 6 s (the Keras ones include the
TensorFlow import) and each process stays well under 2 GB of memory (peak
about 0.8 GB, pair 2).
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup, crash, fixed))


# ---------------------------------------------------------------------------
# [0] pandas: DataFrame.append (removed in pandas 2.0) used for a totals row
#     after a long per-store feature loop
# ---------------------------------------------------------------------------
_add(
    "pandas_append_totals_row_after_store_loop",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
n_rows = 1_200_000
n_stores, n_items = 54, 400
dates = pd.date_range("2016-01-01", periods=730, freq="D")

sales = pd.DataFrame({
    "store_nbr": rng.integers(1, n_stores + 1, n_rows),
    "item_nbr": rng.integers(100000, 100000 + n_items, n_rows),
    "date": dates[rng.integers(0, len(dates), n_rows)],
    "unit_sales": rng.gamma(2.0, 3.0, n_rows).round(2),
    "onpromotion": rng.random(n_rows) < 0.12,
})
sales["unit_price"] = (rng.lognormal(1.2, 0.5, n_rows)).round(2)
sales = sales.sort_values(["store_nbr", "date"]).reset_index(drop=True)
print(sales.shape)
sales.head()
''',
    r'''
store_rows = []
for store, g in sales.groupby("store_nbr"):
    g = g.copy()
    g["revenue"] = g["unit_sales"] * g["unit_price"]
    daily = g.groupby("date").agg(revenue=("revenue", "sum"),
                                  units=("unit_sales", "sum"),
                                  promo_share=("onpromotion", "mean"))
    daily["rev_roll7"] = daily["revenue"].rolling(7, min_periods=1).mean()
    daily["rev_roll28"] = daily["revenue"].rolling(28, min_periods=1).mean()
    daily["dow"] = daily.index.dayofweek
    item_stats = g.groupby("item_nbr")["unit_sales"].agg(["mean", "std", "max"])
    item_stats["ewm7_last"] = g.groupby("item_nbr")["unit_sales"].apply(lambda s: s.ewm(span=7).mean().iloc[-1])
    g["item_roll14"] = g.groupby("item_nbr")["unit_sales"].transform(lambda s: s.rolling(14, min_periods=1).mean())
    top_items = item_stats.sort_values("mean", ascending=False).head(20)
    q = g["unit_sales"].quantile([0.1, 0.5, 0.9]).values
    store_rows.append({
        "store_nbr": store,
        "total_revenue": daily["revenue"].sum(),
        "mean_daily_units": daily["units"].mean(),
        "weekend_uplift": daily.loc[daily["dow"] >= 5, "revenue"].mean() / daily.loc[daily["dow"] < 5, "revenue"].mean(),
        "promo_share": g["onpromotion"].mean(),
        "roll28_last": daily["rev_roll28"].iloc[-1],
        "top20_mean": top_items["mean"].mean(),
        "q10": q[0], "q50": q[1], "q90": q[2],
    })

store_summary = pd.DataFrame(store_rows)
totals = store_summary.drop(columns="store_nbr").mean().to_dict()
totals["store_nbr"] = "ALL"
store_summary = store_summary.append(totals, ignore_index=True)
store_summary.tail()
''',
    r'''
store_rows = []
for store, g in sales.groupby("store_nbr"):
    g = g.copy()
    g["revenue"] = g["unit_sales"] * g["unit_price"]
    daily = g.groupby("date").agg(revenue=("revenue", "sum"),
                                  units=("unit_sales", "sum"),
                                  promo_share=("onpromotion", "mean"))
    daily["rev_roll7"] = daily["revenue"].rolling(7, min_periods=1).mean()
    daily["rev_roll28"] = daily["revenue"].rolling(28, min_periods=1).mean()
    daily["dow"] = daily.index.dayofweek
    item_stats = g.groupby("item_nbr")["unit_sales"].agg(["mean", "std", "max"])
    item_stats["ewm7_last"] = g.groupby("item_nbr")["unit_sales"].apply(lambda s: s.ewm(span=7).mean().iloc[-1])
    g["item_roll14"] = g.groupby("item_nbr")["unit_sales"].transform(lambda s: s.rolling(14, min_periods=1).mean())
    top_items = item_stats.sort_values("mean", ascending=False).head(20)
    q = g["unit_sales"].quantile([0.1, 0.5, 0.9]).values
    store_rows.append({
        "store_nbr": store,
        "total_revenue": daily["revenue"].sum(),
        "mean_daily_units": daily["units"].mean(),
        "weekend_uplift": daily.loc[daily["dow"] >= 5, "revenue"].mean() / daily.loc[daily["dow"] < 5, "revenue"].mean(),
        "promo_share": g["onpromotion"].mean(),
        "roll28_last": daily["rev_roll28"].iloc[-1],
        "top20_mean": top_items["mean"].mean(),
        "q10": q[0], "q50": q[1], "q90": q[2],
    })

store_summary = pd.DataFrame(store_rows)
totals = store_summary.drop(columns="store_nbr").mean().to_dict()
totals["store_nbr"] = "ALL"
store_summary = pd.concat([store_summary, pd.DataFrame([totals])], ignore_index=True)
store_summary.tail()
''',
)

# ---------------------------------------------------------------------------
# [1] pandas: groupby().mean() over a frame with text columns (pandas 2
#     no longer drops non-numeric columns silently)
# ---------------------------------------------------------------------------
_add(
    "pandas_groupby_mean_with_text_columns",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n = 891
first = np.array(["John", "Mary", "William", "Anna", "James", "Elizabeth", "George", "Margaret"])
last = np.array(["Smith", "Brown", "Johnson", "Williams", "Jones", "Miller", "Davis", "Wilson"])
train = pd.DataFrame({
    "PassengerId": np.arange(1, n + 1),
    "Survived": rng.integers(0, 2, n),
    "Pclass": rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    "Name": [f"{l}, Mr. {f}" for f, l in zip(rng.choice(first, n), rng.choice(last, n))],
    "Sex": rng.choice(["male", "female"], n, p=[0.65, 0.35]),
    "Age": np.where(rng.random(n) < 0.2, np.nan, rng.normal(29.7, 14.5, n).clip(0.4, 80).round(1)),
    "SibSp": rng.integers(0, 4, n),
    "Parch": rng.integers(0, 3, n),
    "Ticket": [f"A/5 {t}" for t in rng.integers(10000, 99999, n)],
    "Fare": rng.lognormal(2.7, 0.9, n).round(4),
    "Embarked": rng.choice(["S", "C", "Q"], n, p=[0.72, 0.19, 0.09]),
})
train.info()
''',
    r'''
class_stats = train.groupby("Pclass").mean().sort_values("Survived", ascending=False)
class_stats[["Survived", "Age", "Fare"]]
''',
    r'''
class_stats = train.groupby("Pclass").mean(numeric_only=True).sort_values("Survived", ascending=False)
class_stats[["Survived", "Age", "Fare"]]
''',
)

# ---------------------------------------------------------------------------
# [2] pandas: astype(int) on a year column whose NaNs only appear in the test
#     rows at the end of the concatenated frame, after long feature work
# ---------------------------------------------------------------------------
_add(
    "pandas_astype_int_nan_in_test_rows",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
hoods = np.array(["NAmes", "CollgCr", "OldTown", "Edwards", "Somerst", "NridgHt",
                  "Gilbert", "Sawyer", "NWAmes", "SawyerW", "BrkSide", "Crawfor"])

def make_houses(n, start_id, with_missing_garage):
    year_built = rng.integers(1880, 2010, n)
    garage = (year_built + rng.integers(0, 15, n)).clip(max=2010).astype(float)
    if with_missing_garage:
        garage[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame({
        "Id": np.arange(start_id, start_id + n),
        "Neighborhood": rng.choice(hoods, n),
        "YearBuilt": year_built,
        "YearRemodAdd": np.maximum(year_built, rng.integers(1950, 2011, n)),
        "GarageYrBlt": garage,
        "GrLivArea": rng.normal(1500, 500, n).clip(300, 5600).round(),
        "TotalBsmtSF": rng.normal(1050, 420, n).clip(0, 6000).round(),
        "LotArea": rng.lognormal(9.1, 0.5, n).round(),
        "OverallQual": rng.integers(1, 11, n),
        "SaleCondition": rng.choice(["Normal", "Partial", "Abnorml", "Family"], n),
    })

train = make_houses(300_000, 1, with_missing_garage=False)
test = make_houses(300_000, 300_001, with_missing_garage=True)
train["SalePrice"] = (train["GrLivArea"] * 110 + train["OverallQual"] * 9000
                      + rng.normal(0, 20000, len(train))).round()
full = pd.concat([train, test], ignore_index=True)
print(train.shape, test.shape, full.shape)
''',
    r'''
full["HouseAge"] = 2011 - full["YearBuilt"]
full["RemodAge"] = 2011 - full["YearRemodAdd"]
full["TotalSF"] = full["GrLivArea"] + full["TotalBsmtSF"]
full["LogLotArea"] = np.log1p(full["LotArea"])
full["QualSF"] = full["OverallQual"] * full["TotalSF"]
full["HoodMedianSF"] = full.groupby("Neighborhood")["TotalSF"].transform("median")
full["HoodQualRank"] = full.groupby("Neighborhood")["OverallQual"].rank(pct=True)
full["SizeBand"] = pd.qcut(full["TotalSF"], 10, labels=False)
full["HoodSize"] = full["Neighborhood"] + "_" + full["SizeBand"].astype(str)
full["Era"] = full["YearBuilt"].apply(lambda y: "pre-war" if y < 1945 else ("post-war" if y < 1980 else "modern"))
full["RemodFlag"] = full.apply(lambda r: int(r["YearRemodAdd"] != r["YearBuilt"]), axis=1)
full["HoodEra"] = full["Neighborhood"].str.lower() + "-" + full["Era"].str.replace("-", "")
full["GarageYrBlt"] = full["GarageYrBlt"].astype(int)
full["GarageAge"] = 2011 - full["GarageYrBlt"]
full.head()
''',
    r'''
full["HouseAge"] = 2011 - full["YearBuilt"]
full["RemodAge"] = 2011 - full["YearRemodAdd"]
full["TotalSF"] = full["GrLivArea"] + full["TotalBsmtSF"]
full["LogLotArea"] = np.log1p(full["LotArea"])
full["QualSF"] = full["OverallQual"] * full["TotalSF"]
full["HoodMedianSF"] = full.groupby("Neighborhood")["TotalSF"].transform("median")
full["HoodQualRank"] = full.groupby("Neighborhood")["OverallQual"].rank(pct=True)
full["SizeBand"] = pd.qcut(full["TotalSF"], 10, labels=False)
full["HoodSize"] = full["Neighborhood"] + "_" + full["SizeBand"].astype(str)
full["Era"] = full["YearBuilt"].apply(lambda y: "pre-war" if y < 1945 else ("post-war" if y < 1980 else "modern"))
full["RemodFlag"] = full.apply(lambda r: int(r["YearRemodAdd"] != r["YearBuilt"]), axis=1)
full["HoodEra"] = full["Neighborhood"].str.lower() + "-" + full["Era"].str.replace("-", "")
full["GarageYrBlt"] = full["GarageYrBlt"].fillna(full["YearBuilt"]).astype(int)
full["GarageAge"] = 2011 - full["GarageYrBlt"]
full.head()
''',
)

# ---------------------------------------------------------------------------
# [3] pandas: merge on an id parsed from file names (object) vs int64 id
# ---------------------------------------------------------------------------
_add(
    "pandas_merge_int_key_with_parsed_str_key",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n_patients = 2000
labels = pd.DataFrame({
    "patient_id": np.arange(10000, 10000 + n_patients),
    "target": rng.integers(0, 2, n_patients),
    "age_approx": rng.integers(20, 85, n_patients),
    "sex": rng.choice(["male", "female"], n_patients),
})
files = [f"{pid}_{side}_{k:03d}.png" for pid in labels["patient_id"] for side, k in [("L", 0), ("R", 1)]]
images = pd.DataFrame({"image_name": files})
images["patient_id"] = images["image_name"].str.split("_").str[0]
images["side"] = images["image_name"].str.split("_").str[1]
images["width"] = rng.integers(640, 6000, len(images))
images["height"] = rng.integers(480, 4000, len(images))
print(labels.dtypes, images.dtypes, sep="\n")
''',
    r'''
df = images.merge(labels, on="patient_id", how="left")
df["aspect"] = df["width"] / df["height"]
df.groupby("side")["target"].mean()
''',
    r'''
images["patient_id"] = images["patient_id"].astype(int)
df = images.merge(labels, on="patient_id", how="left")
df["aspect"] = df["width"] / df["height"]
df.groupby("side")["target"].mean()
''',
)

# ---------------------------------------------------------------------------
# [4] pandas: to_datetime infers the format from the first row; the log files
#     written after a logger upgrade use ISO 'T' timestamps with milliseconds
# ---------------------------------------------------------------------------
_add(
    "pandas_to_datetime_format_changes_in_late_files",
    r'''
import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(42)
os.makedirs("input/meter_logs", exist_ok=True)
base = pd.Timestamp("2019-01-01")
for m in range(40):
    n = 30_000
    start = base + pd.DateOffset(months=m)
    ts = start + pd.to_timedelta(np.sort(rng.integers(0, 28 * 24 * 3600, n)), unit="s")
    if m < 37:
        ts_str = ts.strftime("%Y-%m-%d %H:%M:%S")
    else:  # new logger firmware
        ts_str = ts.strftime("%Y-%m-%dT%H:%M:%S.000")
    pd.DataFrame({
        "timestamp": ts_str,
        "building_id": rng.integers(0, 120, n),
        "meter": rng.integers(0, 4, n),
        "meter_reading": rng.gamma(2.0, 80.0, n).round(3),
        "air_temperature": rng.normal(15, 9, n).round(1),
    }).to_csv(f"input/meter_logs/readings_{m:02d}.csv", index=False)
print(sorted(os.listdir("input/meter_logs"))[:3], len(os.listdir("input/meter_logs")))
''',
    r'''
import glob

frames = []
for path in sorted(glob.glob("input/meter_logs/*.csv")):
    chunk = pd.read_csv(path)
    chunk = chunk[chunk["meter_reading"] >= 0]
    chunk["log_reading"] = np.log1p(chunk["meter_reading"])
    chunk["temp_bin"] = pd.cut(chunk["air_temperature"], bins=[-50, 0, 10, 20, 30, 60], labels=False)
    chunk["bld_meter"] = chunk["building_id"].astype(str) + "_" + chunk["meter"].astype(str)
    chunk["bld_mean"] = chunk.groupby("bld_meter")["log_reading"].transform("mean")
    chunk["bld_roll24"] = chunk.groupby("bld_meter")["log_reading"].transform(lambda s: s.rolling(24, min_periods=1).mean())
    chunk["source_file"] = os.path.basename(path)
    frames.append(chunk)

readings = pd.concat(frames, ignore_index=True)
readings["timestamp"] = pd.to_datetime(readings["timestamp"])
readings["hour"] = readings["timestamp"].dt.hour
readings["weekday"] = readings["timestamp"].dt.weekday
readings.groupby("hour")["log_reading"].mean().head()
''',
    r'''
import glob

frames = []
for path in sorted(glob.glob("input/meter_logs/*.csv")):
    chunk = pd.read_csv(path)
    chunk = chunk[chunk["meter_reading"] >= 0]
    chunk["log_reading"] = np.log1p(chunk["meter_reading"])
    chunk["temp_bin"] = pd.cut(chunk["air_temperature"], bins=[-50, 0, 10, 20, 30, 60], labels=False)
    chunk["bld_meter"] = chunk["building_id"].astype(str) + "_" + chunk["meter"].astype(str)
    chunk["bld_mean"] = chunk.groupby("bld_meter")["log_reading"].transform("mean")
    chunk["bld_roll24"] = chunk.groupby("bld_meter")["log_reading"].transform(lambda s: s.rolling(24, min_periods=1).mean())
    chunk["source_file"] = os.path.basename(path)
    frames.append(chunk)

readings = pd.concat(frames, ignore_index=True)
readings["timestamp"] = pd.to_datetime(readings["timestamp"], format="ISO8601")
readings["hour"] = readings["timestamp"].dt.hour
readings["weekday"] = readings["timestamp"].dt.weekday
readings.groupby("hour")["log_reading"].mean().head()
''',
)

# ---------------------------------------------------------------------------
# [5] pandas: column used after get_dummies replaced it ('Sex' -> 'Sex_male')
# ---------------------------------------------------------------------------
_add(
    "pandas_keyerror_column_after_get_dummies",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n = 891
train = pd.DataFrame({
    "Survived": rng.integers(0, 2, n),
    "Pclass": rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    "Sex": rng.choice(["male", "female"], n, p=[0.65, 0.35]),
    "Age": rng.normal(29.7, 14.5, n).clip(0.4, 80).round(1),
    "SibSp": rng.integers(0, 4, n),
    "Parch": rng.integers(0, 3, n),
    "Fare": rng.lognormal(2.7, 0.9, n).round(4),
    "Embarked": rng.choice(["S", "C", "Q"], n, p=[0.72, 0.19, 0.09]),
})
train["FamilySize"] = train["SibSp"] + train["Parch"] + 1
train = pd.get_dummies(train, columns=["Sex", "Embarked"], drop_first=True)
train.columns.tolist()
''',
    r'''
survival_by_sex_class = train.pivot_table(index="Sex", columns="Pclass", values="Survived", aggfunc="mean")
train["IsAlone"] = (train["FamilySize"] == 1).astype(int)
survival_by_sex_class
''',
    r'''
survival_by_sex_class = train.pivot_table(index="Sex_male", columns="Pclass", values="Survived", aggfunc="mean")
train["IsAlone"] = (train["FamilySize"] == 1).astype(int)
survival_by_sex_class
''',
)

# ---------------------------------------------------------------------------
# [6] pandas: assigning groupby().rolling() output (MultiIndex) as a column
# ---------------------------------------------------------------------------
_add(
    "pandas_groupby_rolling_assign_multiindex",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(17)
stores = np.arange(1, 46)
days = pd.date_range("2011-02-05", periods=143, freq="W-FRI")
weekly = pd.DataFrame([(s, d) for s in stores for d in days], columns=["Store", "Date"])
weekly["Weekly_Sales"] = rng.gamma(5.0, 4000.0, len(weekly)).round(2)
weekly["IsHoliday"] = weekly["Date"].dt.isocalendar().week.isin([6, 36, 47, 52]).values
weekly = weekly.sort_values(["Store", "Date"]).reset_index(drop=True)
weekly.shape
''',
    r'''
weekly["sales_roll4"] = weekly.groupby("Store")["Weekly_Sales"].rolling(4, min_periods=1).mean()
weekly["sales_lag1"] = weekly.groupby("Store")["Weekly_Sales"].shift(1)
weekly[["Store", "Date", "Weekly_Sales", "sales_roll4", "sales_lag1"]].head(8)
''',
    r'''
weekly["sales_roll4"] = (weekly.groupby("Store")["Weekly_Sales"].rolling(4, min_periods=1).mean()
                         .reset_index(level=0, drop=True))
weekly["sales_lag1"] = weekly.groupby("Store")["Weekly_Sales"].shift(1)
weekly[["Store", "Date", "Weekly_Sales", "sales_roll4", "sales_lag1"]].head(8)
''',
)

# ---------------------------------------------------------------------------
# [7] numpy: np.NaN alias (removed in NumPy 2.0) in a cleaning cell
# ---------------------------------------------------------------------------
_add(
    "numpy_np_NaN_alias_removed",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(19)
n = 32_561
adult = pd.DataFrame({
    "age": rng.integers(17, 90, n),
    "workclass": rng.choice(["Private", "Self-emp-not-inc", "Local-gov", "?", "State-gov"], n,
                            p=[0.70, 0.08, 0.06, 0.06, 0.10]),
    "education_num": rng.integers(1, 17, n),
    "occupation": rng.choice(["Prof-specialty", "Craft-repair", "Exec-managerial", "Sales", "?"], n),
    "hours_per_week": rng.integers(1, 99, n),
    "native_country": rng.choice(["United-States", "Mexico", "?", "Philippines", "Germany"], n,
                                 p=[0.90, 0.03, 0.02, 0.03, 0.02]),
    "income": rng.choice(["<=50K", ">50K"], n, p=[0.76, 0.24]),
})
adult.head()
''',
    r'''
adult = adult.replace("?", np.NaN)
print(adult.isnull().sum())
for col in ["workclass", "occupation", "native_country"]:
    adult[col] = adult[col].fillna(adult[col].mode()[0])
adult["income"] = (adult["income"] == ">50K").astype(int)
''',
    r'''
adult = adult.replace("?", np.nan)
print(adult.isnull().sum())
for col in ["workclass", "occupation", "native_country"]:
    adult[col] = adult[col].fillna(adult[col].mode()[0])
adult["income"] = (adult["income"] == ">50K").astype(int)
''',
)

# ---------------------------------------------------------------------------
# [8] numpy: np.stack over images when a few late files are grayscale (H, W)
# ---------------------------------------------------------------------------
_add(
    "numpy_stack_images_late_grayscale_files",
    r'''
import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(101)
os.makedirs("train_images", exist_ok=True)
n_images = 1500
records = []
for i in range(n_images):
    if i >= 1400 and i % 7 == 0:      # a handful of scans saved without colour channels
        img = rng.integers(0, 256, (96, 96), dtype=np.uint8)
    else:
        img = rng.integers(0, 256, (96, 96, 3), dtype=np.uint8)
    fname = f"img_{i:05d}.npy"
    np.save(os.path.join("train_images", fname), img)
    records.append((fname, int(rng.integers(0, 5))))
train_df = pd.DataFrame(records, columns=["image_id", "label"])
train_df.head()
''',
    r'''
def extract_features(img):
    img = img.astype(np.float32) / 255.0
    gray = img.mean(axis=-1) if img.ndim == 3 else img
    gx = np.diff(gray, axis=1, prepend=gray[:, :1])
    gy = np.diff(gray, axis=0, prepend=gray[:1, :])
    grad = np.sqrt(gx ** 2 + gy ** 2)
    hist = np.concatenate([np.histogram(img[..., c], bins=32, range=(0, 1))[0] for c in range(img.shape[-1])])
    blocks = gray.reshape(12, 8, 12, 8).mean(axis=(1, 3)).ravel()
    return np.concatenate([hist / hist.sum(), blocks, [grad.mean(), grad.std(), gray.std()]])

images, feats = [], []
for fname in train_df["image_id"]:
    img = np.load(os.path.join("train_images", fname))
    for k in range(4):   # rotation TTA features
        feats.append(extract_features(np.rot90(img, k)))
    images.append(img.astype(np.float32) / 255.0)

X_img = np.stack(images)
X_feat = np.array(feats).reshape(len(images), -1)
print(X_img.shape, X_feat.shape)
''',
    r'''
def extract_features(img):
    img = img.astype(np.float32) / 255.0
    gray = img.mean(axis=-1) if img.ndim == 3 else img
    gx = np.diff(gray, axis=1, prepend=gray[:, :1])
    gy = np.diff(gray, axis=0, prepend=gray[:1, :])
    grad = np.sqrt(gx ** 2 + gy ** 2)
    hist = np.concatenate([np.histogram(img[..., c], bins=32, range=(0, 1))[0] for c in range(img.shape[-1])])
    blocks = gray.reshape(12, 8, 12, 8).mean(axis=(1, 3)).ravel()
    return np.concatenate([hist / hist.sum(), blocks, [grad.mean(), grad.std(), gray.std()]])

images, feats = [], []
for fname in train_df["image_id"]:
    img = np.load(os.path.join("train_images", fname))
    if img.ndim == 2:
        img = np.repeat(img[..., None], 3, axis=-1)
    for k in range(4):   # rotation TTA features
        feats.append(extract_features(np.rot90(img, k)))
    images.append(img.astype(np.float32) / 255.0)

X_img = np.stack(images)
X_feat = np.array(feats).reshape(len(images), -1)
print(X_img.shape, X_feat.shape)
''',
)

# ---------------------------------------------------------------------------
# [9] numpy: one-hot with np.eye indexed by 1-based star ratings
# ---------------------------------------------------------------------------
_add(
    "numpy_eye_onehot_one_based_ratings",
    r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(23)
n = 50_000
reviews = pd.DataFrame({
    "review_id": np.arange(n),
    "stars": rng.choice([1, 2, 3, 4, 5], n, p=[0.10, 0.08, 0.12, 0.25, 0.45]),
    "n_words": rng.integers(5, 400, n),
})
X = np.column_stack([np.log1p(reviews["n_words"].values), rng.normal(size=(n, 31))]).astype(np.float32)
y = reviews["stars"].values
num_classes = 5
print(X.shape, np.bincount(y))
''',
    r'''
Y = np.eye(num_classes, dtype=np.float32)[y]
class_weights = Y.shape[0] / (num_classes * Y.sum(axis=0))
print(Y.shape, class_weights.round(3))
''',
    r'''
Y = np.eye(num_classes, dtype=np.float32)[y - 1]
class_weights = Y.shape[0] / (num_classes * Y.sum(axis=0))
print(Y.shape, class_weights.round(3))
''',
)

# ---------------------------------------------------------------------------
# [10] scikit-learn: OneHotEncoder(sparse=False) (renamed sparse_output, old
#      name removed in 1.4)
# ---------------------------------------------------------------------------
_add(
    "sklearn_onehotencoder_sparse_kwarg_removed",
    r'''
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(31)
n = 20_000
df = pd.DataFrame({
    "MSZoning": rng.choice(["RL", "RM", "FV", "RH", "C (all)"], n),
    "Street": rng.choice(["Pave", "Grvl"], n, p=[0.98, 0.02]),
    "HouseStyle": rng.choice(["1Story", "2Story", "1.5Fin", "SLvl", "SFoyer"], n),
    "GrLivArea": rng.normal(1500, 500, n).clip(300, 5600),
})
cat_cols = ["MSZoning", "Street", "HouseStyle"]
''',
    r'''
ohe = OneHotEncoder(sparse=False, handle_unknown="ignore")
cat_arr = ohe.fit_transform(df[cat_cols])
cat_df = pd.DataFrame(cat_arr, columns=ohe.get_feature_names_out(cat_cols), index=df.index)
df_enc = pd.concat([df.drop(columns=cat_cols), cat_df], axis=1)
df_enc.shape
''',
    r'''
ohe = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
cat_arr = ohe.fit_transform(df[cat_cols])
cat_df = pd.DataFrame(cat_arr, columns=ohe.get_feature_names_out(cat_cols), index=df.index)
df_enc = pd.concat([df.drop(columns=cat_cols), cat_df], axis=1)
df_enc.shape
''',
)

# ---------------------------------------------------------------------------
# [11] scikit-learn: mean_squared_error(..., squared=False) (removed in 1.6)
#      for the OOF RMSE after a 5-fold training loop
# ---------------------------------------------------------------------------
_add(
    "sklearn_mse_squared_false_after_kfold",
    r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_squared_error, mean_absolute_error

rng = np.random.default_rng(8)
n, p = 4_000, 20
X = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"cont{i}" for i in range(p)])
y = (3 * np.sin(X["cont0"]) + X["cont1"] * X["cont2"] + 0.5 * X["cont3"] ** 2
     + rng.normal(0, 0.7, n))
print(X.shape, y.mean())
''',
    r'''
kf = KFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(X))
models = []
for fold, (tr_idx, va_idx) in enumerate(kf.split(X)):
    model = GradientBoostingRegressor(n_estimators=60, max_depth=3, learning_rate=0.1,
                                      subsample=0.8, random_state=fold)
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = model.predict(X.iloc[va_idx])
    models.append(model)
    print(f"fold {fold}: MAE {mean_absolute_error(y.iloc[va_idx], oof[va_idx]):.4f}")

oof_rmse = mean_squared_error(y, oof, squared=False)
print(f"OOF RMSE: {oof_rmse:.4f}")
''',
    r'''
from sklearn.metrics import root_mean_squared_error

kf = KFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(X))
models = []
for fold, (tr_idx, va_idx) in enumerate(kf.split(X)):
    model = GradientBoostingRegressor(n_estimators=60, max_depth=3, learning_rate=0.1,
                                      subsample=0.8, random_state=fold)
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = model.predict(X.iloc[va_idx])
    models.append(model)
    print(f"fold {fold}: MAE {mean_absolute_error(y.iloc[va_idx], oof[va_idx]):.4f}")

oof_rmse = root_mean_squared_error(y, oof)
print(f"OOF RMSE: {oof_rmse:.4f}")
''',
)

# ---------------------------------------------------------------------------
# [12] scikit-learn: OneHotEncoder default handle_unknown='error' meets a
#      category that only exists in the test set, after a long pipeline fit
# ---------------------------------------------------------------------------
_add(
    "sklearn_pipeline_unknown_category_in_test",
    r'''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.ensemble import GradientBoostingClassifier

rng = np.random.default_rng(12)
def make_policies(n, channels):
    return pd.DataFrame({
        "Gender": rng.choice(["Male", "Female"], n),
        "Age": rng.integers(20, 85, n),
        "Region_Code": rng.choice([f"R{i:02d}" for i in range(30)], n),
        "Vehicle_Age": rng.choice(["< 1 Year", "1-2 Year", "> 2 Years"], n),
        "Vehicle_Damage": rng.choice(["Yes", "No"], n),
        "Annual_Premium": rng.lognormal(10.3, 0.5, n),
        "Policy_Sales_Channel": rng.choice(channels, n),
        "Vintage": rng.integers(10, 300, n),
    })

train = make_policies(30_000, ["ch26", "ch124", "ch152", "ch160", "ch156"])
train["Response"] = ((train["Vehicle_Damage"] == "Yes") & (rng.random(len(train)) < 0.3)).astype(int)
test = make_policies(10_000, ["ch26", "ch124", "ch152", "ch160", "ch156", "ch163"])
cat_cols = ["Gender", "Region_Code", "Vehicle_Age", "Vehicle_Damage", "Policy_Sales_Channel"]
num_cols = ["Age", "Annual_Premium", "Vintage"]
print(train.shape, test.shape)
''',
    r'''
preprocess = ColumnTransformer([
    ("cat", OneHotEncoder(), cat_cols),
    ("num", StandardScaler(), num_cols),
])
clf = Pipeline([
    ("prep", preprocess),
    ("gbm", GradientBoostingClassifier(n_estimators=150, max_depth=3, random_state=0)),
])
clf.fit(train[cat_cols + num_cols], train["Response"])
print("train acc", clf.score(train[cat_cols + num_cols], train["Response"]))
test_pred = clf.predict_proba(test[cat_cols + num_cols])[:, 1]
submission = pd.DataFrame({"id": np.arange(len(test)), "Response": test_pred})
''',
    r'''
preprocess = ColumnTransformer([
    ("cat", OneHotEncoder(handle_unknown="ignore"), cat_cols),
    ("num", StandardScaler(), num_cols),
])
clf = Pipeline([
    ("prep", preprocess),
    ("gbm", GradientBoostingClassifier(n_estimators=150, max_depth=3, random_state=0)),
])
clf.fit(train[cat_cols + num_cols], train["Response"])
print("train acc", clf.score(train[cat_cols + num_cols], train["Response"]))
test_pred = clf.predict_proba(test[cat_cols + num_cols])[:, 1]
submission = pd.DataFrame({"id": np.arange(len(test)), "Response": test_pred})
''',
)

# ---------------------------------------------------------------------------
# [13] scikit-learn: ratio features divide by zero -> inf -> RandomForest fit
#      rejects X, after long bureau aggregation feature engineering
# ---------------------------------------------------------------------------
_add(
    "sklearn_random_forest_inf_from_ratio_features",
    r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

rng = np.random.default_rng(77)
n_app = 40_000
app = pd.DataFrame({
    "SK_ID_CURR": np.arange(100000, 100000 + n_app),
    "AMT_INCOME_TOTAL": rng.lognormal(11.9, 0.5, n_app).round(),
    "AMT_CREDIT": rng.lognormal(13.0, 0.6, n_app).round(),
    "AMT_ANNUITY": rng.lognormal(10.1, 0.5, n_app).round(),
    "DAYS_BIRTH": -rng.integers(7000, 25000, n_app),
    "DAYS_EMPLOYED": -rng.integers(0, 15000, n_app),
    "TARGET": (rng.random(n_app) < 0.08).astype(int),
})
n_bur = 900_000
bureau = pd.DataFrame({
    "SK_ID_CURR": rng.integers(100000, 100000 + n_app, n_bur),
    "CREDIT_ACTIVE": rng.choice(["Closed", "Active", "Sold", "Bad debt"], n_bur, p=[0.62, 0.36, 0.015, 0.005]),
    "DAYS_CREDIT": -rng.integers(0, 2900, n_bur),
    "AMT_CREDIT_SUM": np.where(rng.random(n_bur) < 0.25, 0.0, rng.lognormal(12.0, 1.0, n_bur).round()),
    "AMT_CREDIT_SUM_DEBT": rng.lognormal(10.5, 1.2, n_bur).round(),
    "AMT_CREDIT_SUM_OVERDUE": np.where(rng.random(n_bur) < 0.97, 0.0, rng.lognormal(8, 1, n_bur)),
    "CNT_CREDIT_PROLONG": rng.poisson(0.05, n_bur),
})
print(app.shape, bureau.shape)
''',
    r'''
bureau["DEBT_CREDIT_RATIO"] = bureau["AMT_CREDIT_SUM_DEBT"] / bureau["AMT_CREDIT_SUM"]
bureau["IS_ACTIVE"] = (bureau["CREDIT_ACTIVE"] == "Active").astype(int)
bureau["IS_BAD"] = bureau["CREDIT_ACTIVE"].isin(["Sold", "Bad debt"]).astype(int)
bureau["YEARS_CREDIT"] = (-bureau["DAYS_CREDIT"] // 365).astype(int)
bureau_agg = bureau.groupby("SK_ID_CURR").agg(
    BUR_CNT=("DAYS_CREDIT", "size"),
    BUR_DAYS_MEAN=("DAYS_CREDIT", "mean"),
    BUR_DAYS_MIN=("DAYS_CREDIT", "min"),
    BUR_CREDIT_SUM=("AMT_CREDIT_SUM", "sum"),
    BUR_DEBT_SUM=("AMT_CREDIT_SUM_DEBT", "sum"),
    BUR_DEBT_RATIO_MAX=("DEBT_CREDIT_RATIO", "max"),
    BUR_DEBT_RATIO_MEAN=("DEBT_CREDIT_RATIO", "mean"),
    BUR_OVERDUE_SUM=("AMT_CREDIT_SUM_OVERDUE", "sum"),
    BUR_ACTIVE_SHARE=("IS_ACTIVE", "mean"),
    BUR_BAD_CNT=("IS_BAD", "sum"),
    BUR_PROLONG_SUM=("CNT_CREDIT_PROLONG", "sum"),
)
bureau_agg["BUR_MAIN_STATUS"] = bureau.groupby("SK_ID_CURR")["CREDIT_ACTIVE"].agg(lambda s: s.value_counts().index[0])
bureau_agg["BUR_YEARS_NUNIQUE"] = bureau.groupby("SK_ID_CURR")["YEARS_CREDIT"].agg(lambda s: len(set(s)))
bureau_agg = pd.get_dummies(bureau_agg, columns=["BUR_MAIN_STATUS"], dtype=int)

df = app.merge(bureau_agg, on="SK_ID_CURR", how="left").fillna(0)
df["CREDIT_INCOME_PERC"] = df["AMT_CREDIT"] / df["AMT_INCOME_TOTAL"]
df["ANNUITY_INCOME_PERC"] = df["AMT_ANNUITY"] / df["AMT_INCOME_TOTAL"]
df["DAYS_EMPLOYED_PERC"] = df["DAYS_EMPLOYED"] / df["DAYS_BIRTH"]
df["BUR_DEBT_CREDIT"] = df["BUR_DEBT_SUM"] / df["BUR_CREDIT_SUM"]

features = [c for c in df.columns if c not in ("SK_ID_CURR", "TARGET")]
rf = RandomForestClassifier(n_estimators=12, max_depth=8, min_samples_leaf=50, random_state=0)
rf.fit(df[features], df["TARGET"])
imp = pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False)
imp.head(10)
''',
    r'''
bureau["DEBT_CREDIT_RATIO"] = bureau["AMT_CREDIT_SUM_DEBT"] / bureau["AMT_CREDIT_SUM"]
bureau["IS_ACTIVE"] = (bureau["CREDIT_ACTIVE"] == "Active").astype(int)
bureau["IS_BAD"] = bureau["CREDIT_ACTIVE"].isin(["Sold", "Bad debt"]).astype(int)
bureau["YEARS_CREDIT"] = (-bureau["DAYS_CREDIT"] // 365).astype(int)
bureau_agg = bureau.groupby("SK_ID_CURR").agg(
    BUR_CNT=("DAYS_CREDIT", "size"),
    BUR_DAYS_MEAN=("DAYS_CREDIT", "mean"),
    BUR_DAYS_MIN=("DAYS_CREDIT", "min"),
    BUR_CREDIT_SUM=("AMT_CREDIT_SUM", "sum"),
    BUR_DEBT_SUM=("AMT_CREDIT_SUM_DEBT", "sum"),
    BUR_DEBT_RATIO_MAX=("DEBT_CREDIT_RATIO", "max"),
    BUR_DEBT_RATIO_MEAN=("DEBT_CREDIT_RATIO", "mean"),
    BUR_OVERDUE_SUM=("AMT_CREDIT_SUM_OVERDUE", "sum"),
    BUR_ACTIVE_SHARE=("IS_ACTIVE", "mean"),
    BUR_BAD_CNT=("IS_BAD", "sum"),
    BUR_PROLONG_SUM=("CNT_CREDIT_PROLONG", "sum"),
)
bureau_agg["BUR_MAIN_STATUS"] = bureau.groupby("SK_ID_CURR")["CREDIT_ACTIVE"].agg(lambda s: s.value_counts().index[0])
bureau_agg["BUR_YEARS_NUNIQUE"] = bureau.groupby("SK_ID_CURR")["YEARS_CREDIT"].agg(lambda s: len(set(s)))
bureau_agg = pd.get_dummies(bureau_agg, columns=["BUR_MAIN_STATUS"], dtype=int)

df = app.merge(bureau_agg, on="SK_ID_CURR", how="left").fillna(0)
df["CREDIT_INCOME_PERC"] = df["AMT_CREDIT"] / df["AMT_INCOME_TOTAL"]
df["ANNUITY_INCOME_PERC"] = df["AMT_ANNUITY"] / df["AMT_INCOME_TOTAL"]
df["DAYS_EMPLOYED_PERC"] = df["DAYS_EMPLOYED"] / df["DAYS_BIRTH"]
df["BUR_DEBT_CREDIT"] = df["BUR_DEBT_SUM"] / df["BUR_CREDIT_SUM"]
df = df.replace([np.inf, -np.inf], np.nan).fillna(-1)

features = [c for c in df.columns if c not in ("SK_ID_CURR", "TARGET")]
rf = RandomForestClassifier(n_estimators=12, max_depth=8, min_samples_leaf=50, random_state=0)
rf.fit(df[features], df["TARGET"])
imp = pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False)
imp.head(10)
''',
)

# ---------------------------------------------------------------------------
# [14] scikit-learn: predicting with the estimator passed to cross_val_score
#      (it only fits clones) -> NotFittedError after the slow CV
# ---------------------------------------------------------------------------
_add(
    "sklearn_predict_after_cross_val_score_not_fitted",
    r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import cross_val_score, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

rng = np.random.default_rng(64)
n, p = 6_000, 24
X = rng.normal(size=(n, p))
y = ((X[:, 0] ** 2 + X[:, 1] * X[:, 2] - X[:, 3] + rng.normal(0, 0.8, n)) > 0.5).astype(int)
X_test = rng.normal(size=(2_000, p))
print(X.shape, y.mean().round(3), X_test.shape)
''',
    r'''
model = make_pipeline(StandardScaler(), SVC(C=3.0, gamma="scale"))
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
scores = cross_val_score(model, X, y, cv=skf, scoring="accuracy")
print("CV accuracy: %.4f +/- %.4f" % (scores.mean(), scores.std()))

test_pred = model.predict(X_test)
submission = pd.DataFrame({"id": np.arange(len(X_test)), "target": test_pred})
submission.head()
''',
    r'''
model = make_pipeline(StandardScaler(), SVC(C=3.0, gamma="scale"))
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
scores = cross_val_score(model, X, y, cv=skf, scoring="accuracy")
print("CV accuracy: %.4f +/- %.4f" % (scores.mean(), scores.std()))

model.fit(X, y)
test_pred = model.predict(X_test)
submission = pd.DataFrame({"id": np.arange(len(X_test)), "target": test_pred})
submission.head()
''',
)

# ---------------------------------------------------------------------------
# [15] scikit-learn: test DataFrame has the same features in another order
# ---------------------------------------------------------------------------
_add(
    "sklearn_feature_names_order_mismatch_at_predict",
    r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier

rng = np.random.default_rng(90)
def raw_frame(n):
    return pd.DataFrame({
        "id": np.arange(n),
        "tenure": rng.integers(0, 72, n),
        "MonthlyCharges": rng.uniform(18, 120, n).round(2),
        "SeniorCitizen": rng.integers(0, 2, n),
        "num_services": rng.integers(1, 9, n),
    })

train = raw_frame(5_000)
train["TotalCharges"] = (train["tenure"] * train["MonthlyCharges"]).round(2)
train["charges_per_service"] = train["MonthlyCharges"] / train["num_services"]
train["Churn"] = ((train["tenure"] < 12) & (rng.random(len(train)) < 0.6)).astype(int)
features = [c for c in train.columns if c not in ("id", "Churn")]
gbc = GradientBoostingClassifier(n_estimators=60, max_depth=3, random_state=0)
gbc.fit(train[features], train["Churn"])

test = raw_frame(2_000)
print(features)
''',
    r'''
test["charges_per_service"] = test["MonthlyCharges"] / test["num_services"]
test["TotalCharges"] = (test["tenure"] * test["MonthlyCharges"]).round(2)
X_test = test.drop(columns=["id"])
test["Churn_proba"] = gbc.predict_proba(X_test)[:, 1]
test[["id", "Churn_proba"]].head()
''',
    r'''
test["charges_per_service"] = test["MonthlyCharges"] / test["num_services"]
test["TotalCharges"] = (test["tenure"] * test["MonthlyCharges"]).round(2)
X_test = test[features]
test["Churn_proba"] = gbc.predict_proba(X_test)[:, 1]
test[["id", "Churn_proba"]].head()
''',
)

# ---------------------------------------------------------------------------
# [16] scikit-learn: stratified split with a class that has one sample
# ---------------------------------------------------------------------------
_add(
    "sklearn_stratify_split_singleton_class",
    r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(4)
species = ["Acer", "Quercus", "Betula", "Pinus", "Fagus", "Salix", "Ulmus", "Tilia"]
counts = [420, 380, 300, 260, 140, 60, 12, 1]
leaf = pd.DataFrame({"species": np.repeat(species, counts)})
for i in range(64):
    leaf[f"margin{i}"] = rng.random(len(leaf))
leaf = leaf.sample(frac=1.0, random_state=0).reset_index(drop=True)
leaf["species"].value_counts()
''',
    r'''
X = leaf.drop(columns="species")
y = leaf["species"]
X_train, X_valid, y_train, y_valid = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)
print(X_train.shape, X_valid.shape)
''',
    r'''
vc = leaf["species"].value_counts()
leaf["species"] = leaf["species"].where(leaf["species"].map(vc) >= 2, "Other")
leaf = leaf[leaf["species"].map(leaf["species"].value_counts()) >= 2].reset_index(drop=True)
X = leaf.drop(columns="species")
y = leaf["species"]
X_train, X_valid, y_train, y_valid = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)
print(X_train.shape, X_valid.shape)
''',
)

# ---------------------------------------------------------------------------
# [17] Keras: Adam(lr=...) (the old 'lr' alias is rejected by Keras 3)
# ---------------------------------------------------------------------------
_add(
    "keras_adam_lr_alias_rejected",
    r'''
import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(42)
rng = np.random.default_rng(42)
X_train = rng.normal(size=(8_000, 40)).astype("float32")
y_train = (X_train[:, :5].sum(axis=1) > 0).astype("float32")

model = keras.Sequential([
    keras.Input(shape=(40,)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dropout(0.3),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
''',
    r'''
optimizer = keras.optimizers.Adam(lr=3e-4)
model.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=["accuracy", keras.metrics.AUC(name="auc")])
model.summary()
''',
    r'''
optimizer = keras.optimizers.Adam(learning_rate=3e-4)
model.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=["accuracy", keras.metrics.AUC(name="auc")])
model.summary()
''',
)

# ---------------------------------------------------------------------------
# [18] Keras: model.save() to a path without extension (SavedModel dir in
#      TF2/Keras 2, rejected by Keras 3) at the end of training
# ---------------------------------------------------------------------------
_add(
    "keras_save_without_extension_after_fit",
    r'''
import os
import numpy as np
import pandas as pd
from tensorflow import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
n, p = 60_000, 30
X = rng.normal(size=(n, p)).astype("float32")
logit = X[:, 0] * 1.5 - X[:, 1] + 0.8 * X[:, 2] * X[:, 3] - 3.0
y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype("float32")
X_train, X_valid = X[:48_000], X[48_000:]
y_train, y_valid = y[:48_000], y[48_000:]
os.makedirs("models", exist_ok=True)
print(X_train.shape, y_train.mean())
''',
    r'''
model = keras.Sequential([
    keras.Input(shape=(p,)),
    keras.layers.Dense(256, activation="relu"),
    keras.layers.BatchNormalization(),
    keras.layers.Dropout(0.3),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy",
              metrics=[keras.metrics.AUC(name="auc")])
history = model.fit(X_train, y_train, validation_data=(X_valid, y_valid),
                    epochs=5, batch_size=256, verbose=2)
print("best val auc:", max(history.history["val_auc"]))
model.save("models/fraud_mlp")
''',
    r'''
model = keras.Sequential([
    keras.Input(shape=(p,)),
    keras.layers.Dense(256, activation="relu"),
    keras.layers.BatchNormalization(),
    keras.layers.Dropout(0.3),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy",
              metrics=[keras.metrics.AUC(name="auc")])
history = model.fit(X_train, y_train, validation_data=(X_valid, y_valid),
                    epochs=5, batch_size=256, verbose=2)
print("best val auc:", max(history.history["val_auc"]))
model.save("models/fraud_mlp.keras")
''',
)

# ---------------------------------------------------------------------------
# [19] Keras: Sequential.predict_classes (removed in TF 2.6 / Keras 3)
# ---------------------------------------------------------------------------
_add(
    "keras_predict_classes_removed",
    r'''
import numpy as np
from tensorflow import keras
from sklearn.metrics import confusion_matrix

keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)
n_classes = 10
X_train = rng.normal(size=(6_000, 64)).astype("float32")
y_train = (np.abs(X_train[:, :10]).argmax(axis=1)).astype("int64")
X_val = rng.normal(size=(1_500, 64)).astype("float32")
y_val = (np.abs(X_val[:, :10]).argmax(axis=1)).astype("int64")

model = keras.Sequential([
    keras.Input(shape=(64,)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dense(n_classes, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(X_train, y_train, epochs=3, batch_size=128, verbose=0)
''',
    r'''
y_pred = model.predict_classes(X_val)
cm = confusion_matrix(y_val, y_pred)
print("val accuracy:", np.trace(cm) / cm.sum())
cm
''',
    r'''
y_pred = np.argmax(model.predict(X_val, verbose=0), axis=1)
cm = confusion_matrix(y_val, y_pred)
print("val accuracy:", np.trace(cm) / cm.sum())
cm
''',
)

# ---------------------------------------------------------------------------
# [20] torch: labels downcast to int8 by reduce_mem_usage -> CrossEntropyLoss
#      target dtype error on the first batch
# ---------------------------------------------------------------------------
_add(
    "torch_cross_entropy_int8_labels_from_reduce_mem",
    r'''
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

def reduce_mem_usage(df):
    for col in df.columns:
        c_min, c_max = df[col].min(), df[col].max()
        if str(df[col].dtype).startswith("int"):
            if c_min > np.iinfo(np.int8).min and c_max < np.iinfo(np.int8).max:
                df[col] = df[col].astype(np.int8)
            elif c_min > np.iinfo(np.int16).min and c_max < np.iinfo(np.int16).max:
                df[col] = df[col].astype(np.int16)
            else:
                df[col] = df[col].astype(np.int32)
        else:
            if c_min > np.finfo(np.float16).min and c_max < np.finfo(np.float16).max:
                df[col] = df[col].astype(np.float16)
            else:
                df[col] = df[col].astype(np.float32)
    return df

torch.manual_seed(0)
rng = np.random.default_rng(0)
n, p, n_classes = 6_000, 50, 9
train = pd.DataFrame(rng.poisson(1.5, size=(n, p)), columns=[f"feat_{i}" for i in range(1, p + 1)])
train["target"] = (train["feat_1"] + train["feat_2"] * 2 + rng.integers(0, 3, n)) % n_classes
train = reduce_mem_usage(train)
features = [c for c in train.columns if c != "target"]
X = torch.tensor(train[features].values.astype(np.float32))
y = torch.tensor(train["target"].values)
loader = DataLoader(TensorDataset(X, y), batch_size=256, shuffle=True)
model = nn.Sequential(nn.Linear(p, 128), nn.ReLU(), nn.Linear(128, n_classes))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
print(train.dtypes.value_counts())
''',
    r'''
for epoch in range(3):
    model.train()
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: loss {total / len(loader.dataset):.4f}")
''',
    r'''
for epoch in range(3):
    model.train()
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb.long())
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: loss {total / len(loader.dataset):.4f}")
''',
)

# ---------------------------------------------------------------------------
# [21] torch: inference without model.eval(); BatchNorm in training mode
#      fails on the size-1 last test batch after the whole training run
# ---------------------------------------------------------------------------
_add(
    "torch_batchnorm_train_mode_last_test_batch_of_one",
    r'''
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(2021)
rng = np.random.default_rng(2021)
n_train, n_test, p = 65_536, 4 * 1024 + 1, 64
X_train = rng.normal(size=(n_train, p)).astype(np.float32)
y_train = (X_train[:, :8].sum(axis=1) + rng.normal(0, 1, n_train) > 0).astype(np.float32)
X_test = rng.normal(size=(n_test, p)).astype(np.float32)

train_loader = DataLoader(TensorDataset(torch.from_numpy(X_train), torch.from_numpy(y_train)),
                          batch_size=512, shuffle=True)
test_loader = DataLoader(TensorDataset(torch.from_numpy(X_test)), batch_size=1024, shuffle=False)

class TabularNet(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(p, 512), nn.BatchNorm1d(512), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(512, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(256, 1),
        )
    def forward(self, x):
        return self.net(x).squeeze(-1)

model = TabularNet(p)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
criterion = nn.BCEWithLogitsLoss()
print(len(train_loader), len(test_loader))
''',
    r'''
for epoch in range(3):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch + 1}: train loss {running / n_train:.4f}")

preds = []
with torch.no_grad():
    for (xb,) in test_loader:
        preds.append(torch.sigmoid(model(xb)).numpy())
preds = np.concatenate(preds)
submission = pd.DataFrame({"id": np.arange(n_test), "target": preds})
submission.head()
''',
    r'''
for epoch in range(3):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch + 1}: train loss {running / n_train:.4f}")

model.eval()
preds = []
with torch.no_grad():
    for (xb,) in test_loader:
        preds.append(torch.sigmoid(model(xb)).numpy())
preds = np.concatenate(preds)
submission = pd.DataFrame({"id": np.arange(n_test), "target": preds})
submission.head()
''',
)

# ---------------------------------------------------------------------------
# [22] torch: .view() on a permuted (non-contiguous) conv output in forward
# ---------------------------------------------------------------------------
_add(
    "torch_view_on_permuted_tensor_in_forward",
    r'''
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(3)
rng = np.random.default_rng(3)
n_series, seq_len, n_sensors, n_events = 256, 512, 3, 4
acc = torch.tensor(rng.normal(size=(n_series, seq_len, n_sensors)), dtype=torch.float32)
events = torch.tensor(rng.integers(0, n_events, size=(n_series, seq_len)))
print(acc.shape, events.shape)
''',
    r'''
class GaitNet(nn.Module):
    def __init__(self, n_in, hidden, n_out):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_in, hidden, kernel_size=7, padding=3), nn.ReLU(),
            nn.Conv1d(hidden, hidden, kernel_size=7, padding=3), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, n_out)

    def forward(self, x):                      # x: (batch, time, sensors)
        h = self.conv(x.permute(0, 2, 1))      # (batch, hidden, time)
        h = h.permute(0, 2, 1).view(-1, h.size(1))   # (batch * time, hidden)
        return self.head(h)

model = GaitNet(n_sensors, 32, n_events)
logits = model(acc[:16])
loss = nn.CrossEntropyLoss()(logits, events[:16].reshape(-1))
print(logits.shape, loss.item())
''',
    r'''
class GaitNet(nn.Module):
    def __init__(self, n_in, hidden, n_out):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_in, hidden, kernel_size=7, padding=3), nn.ReLU(),
            nn.Conv1d(hidden, hidden, kernel_size=7, padding=3), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, n_out)

    def forward(self, x):                      # x: (batch, time, sensors)
        h = self.conv(x.permute(0, 2, 1))      # (batch, hidden, time)
        h = h.permute(0, 2, 1).reshape(-1, h.size(1))   # (batch * time, hidden)
        return self.head(h)

model = GaitNet(n_sensors, 32, n_events)
logits = model(acc[:16])
loss = nn.CrossEntropyLoss()(logits, events[:16].reshape(-1))
print(logits.shape, loss.item())
''',
)

# ---------------------------------------------------------------------------
# [23] torch: torch.load of a checkpoint holding numpy arrays (weights_only
#      default is True since torch 2.6) after the training loop
# ---------------------------------------------------------------------------
_add(
    "torch_load_checkpoint_numpy_weights_only_default",
    r'''
import os
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score

torch.manual_seed(11)
rng = np.random.default_rng(11)
n, p = 40_000, 40
X = rng.normal(size=(n, p)).astype(np.float32) * rng.uniform(0.5, 20, p).astype(np.float32)
y = ((X[:, 0] / 10 + X[:, 1] / 5 - X[:, 2] / 7 + rng.normal(0, 1, n)) > 0).astype(np.float32)
X_tr, X_va, y_tr, y_va = X[:32_000], X[32_000:], y[:32_000], y[32_000:]
feat_mean, feat_std = X_tr.mean(axis=0), X_tr.std(axis=0)
Xt = torch.from_numpy((X_tr - feat_mean) / feat_std)
Xv = torch.from_numpy((X_va - feat_mean) / feat_std)
yt = torch.from_numpy(y_tr)
os.makedirs("checkpoints", exist_ok=True)
''',
    r'''
model = nn.Sequential(nn.Linear(p, 256), nn.SiLU(), nn.Dropout(0.1),
                      nn.Linear(256, 128), nn.SiLU(), nn.Linear(128, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.BCEWithLogitsLoss()
best_auc = 0.0
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(Xt))
    for i in range(0, len(Xt), 128):
        idx = perm[i:i + 128]
        optimizer.zero_grad()
        loss = criterion(model(Xt[idx]).squeeze(-1), yt[idx])
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        val_pred = torch.sigmoid(model(Xv).squeeze(-1)).numpy()
    auc = roc_auc_score(y_va, val_pred)
    if auc > best_auc:
        best_auc = auc
        torch.save({"epoch": epoch, "model_state": model.state_dict(), "val_auc": auc,
                    "feat_mean": feat_mean, "feat_std": feat_std}, "checkpoints/best_model.pt")
    print(f"epoch {epoch}: val auc {auc:.4f}")

ckpt = torch.load("checkpoints/best_model.pt")
model.load_state_dict(ckpt["model_state"])
print("restored epoch", ckpt["epoch"], "auc", ckpt["val_auc"])
''',
    r'''
model = nn.Sequential(nn.Linear(p, 256), nn.SiLU(), nn.Dropout(0.1),
                      nn.Linear(256, 128), nn.SiLU(), nn.Linear(128, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.BCEWithLogitsLoss()
best_auc = 0.0
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(Xt))
    for i in range(0, len(Xt), 128):
        idx = perm[i:i + 128]
        optimizer.zero_grad()
        loss = criterion(model(Xt[idx]).squeeze(-1), yt[idx])
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        val_pred = torch.sigmoid(model(Xv).squeeze(-1)).numpy()
    auc = roc_auc_score(y_va, val_pred)
    if auc > best_auc:
        best_auc = auc
        torch.save({"epoch": epoch, "model_state": model.state_dict(), "val_auc": auc,
                    "feat_mean": feat_mean, "feat_std": feat_std}, "checkpoints/best_model.pt")
    print(f"epoch {epoch}: val auc {auc:.4f}")

ckpt = torch.load("checkpoints/best_model.pt", weights_only=False)
model.load_state_dict(ckpt["model_state"])
print("restored epoch", ckpt["epoch"], "auc", ckpt["val_auc"])
''',
)

# ---------------------------------------------------------------------------
# [24] matplotlib: plt.style.use('seaborn') (style renamed seaborn-v0_8 in
#      3.6, old name removed in 3.8)
# ---------------------------------------------------------------------------
_add(
    "matplotlib_style_seaborn_name_removed",
    r'''
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

rng = np.random.default_rng(13)
n = 5_000
df = pd.DataFrame({
    "SalePrice": rng.lognormal(12.0, 0.4, n),
    "GrLivArea": rng.normal(1500, 500, n).clip(300, 5600),
    "LotArea": rng.lognormal(9.1, 0.5, n),
    "YearBuilt": rng.integers(1880, 2010, n),
})
''',
    r'''
plt.style.use("seaborn")
fig, axes = plt.subplots(2, 2, figsize=(12, 8))
for ax, col in zip(axes.ravel(), df.columns):
    ax.hist(df[col], bins=50, color="steelblue", alpha=0.8)
    ax.set_title(f"Distribution of {col}")
plt.tight_layout()
plt.show()
''',
    r'''
plt.style.use("seaborn-v0_8")
fig, axes = plt.subplots(2, 2, figsize=(12, 8))
for ax, col in zip(axes.ravel(), df.columns):
    ax.hist(df[col], bins=50, color="steelblue", alpha=0.8)
    ax.set_title(f"Distribution of {col}")
plt.tight_layout()
plt.show()
''',
)

# ---------------------------------------------------------------------------
# [25] seaborn: EDA grid of KDE histograms, then sns.heatmap(df.corr()) on a
#      frame that still has text columns (pandas 2: numeric_only=False)
# ---------------------------------------------------------------------------
_add(
    "seaborn_heatmap_corr_with_text_columns_after_eda",
    r'''
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(99)
n = 60_000
df = pd.DataFrame({
    "age": rng.integers(18, 80, n),
    "gender": rng.choice(["Male", "Female"], n),
    "bmi": rng.normal(28, 6, n).clip(12, 60),
    "avg_glucose_level": rng.lognormal(4.6, 0.3, n),
    "smoking_status": rng.choice(["never smoked", "formerly smoked", "smokes", "Unknown"], n),
    "work_type": rng.choice(["Private", "Self-employed", "Govt_job", "children"], n),
    "hypertension": rng.integers(0, 2, n),
    "heart_disease": rng.integers(0, 2, n),
    "sleep_hours": rng.normal(7, 1.2, n),
    "steps_per_day": rng.gamma(4, 2000, n),
    "resting_hr": rng.normal(70, 9, n),
    "cholesterol": rng.normal(200, 35, n),
})
df["stroke"] = (rng.random(n) < 0.05).astype(int)
num_cols = df.select_dtypes("number").columns.tolist()
print(len(num_cols), "numeric columns")
''',
    r'''
fig, axes = plt.subplots(4, 3, figsize=(18, 16))
for ax, col in zip(axes.ravel(), num_cols):
    sns.histplot(data=df, x=col, hue="stroke", kde=True, stat="density", common_norm=False, ax=ax)
    ax.set_title(col)
plt.tight_layout()
plt.show()

plt.figure(figsize=(12, 10))
sns.heatmap(df.corr(), annot=True, fmt=".2f", cmap="coolwarm")
plt.title("Correlation matrix")
plt.show()
''',
    r'''
fig, axes = plt.subplots(4, 3, figsize=(18, 16))
for ax, col in zip(axes.ravel(), num_cols):
    sns.histplot(data=df, x=col, hue="stroke", kde=True, stat="density", common_norm=False, ax=ax)
    ax.set_title(col)
plt.tight_layout()
plt.show()

plt.figure(figsize=(12, 10))
sns.heatmap(df.corr(numeric_only=True), annot=True, fmt=".2f", cmap="coolwarm")
plt.title("Correlation matrix")
plt.show()
''',
)

# ---------------------------------------------------------------------------
# [26] xgboost: test CSV column parsed as object ('ground' floor) -> predict
#      fails after the model has trained
# ---------------------------------------------------------------------------
_add(
    "xgboost_object_column_in_test_at_predict",
    r'''
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(55)
def listings(n, ground_as_text):
    floor = rng.integers(0, 25, n)
    df = pd.DataFrame({
        "full_sq": rng.normal(55, 20, n).clip(12, 250).round(1),
        "life_sq": rng.normal(35, 15, n).clip(8, 180).round(1),
        "floor": floor,
        "max_floor": floor + rng.integers(0, 15, n),
        "build_year": rng.integers(1950, 2016, n),
        "num_room": rng.integers(1, 6, n),
        "kremlin_km": rng.gamma(3, 4, n),
        "metro_min_walk": rng.gamma(2, 10, n),
    })
    for i in range(20):
        df[f"raion_feat_{i}"] = rng.normal(size=n)
    if ground_as_text:
        df["floor"] = df["floor"].astype(object)
        df.loc[df["floor"] == 0, "floor"] = "ground"
    return df

train = listings(60_000, ground_as_text=False)
y = np.log1p(train["full_sq"] * 150_000 * (1 + 0.02 * train["num_room"]) / (1 + train["kremlin_km"] / 20))
test = listings(20_000, ground_as_text=True)
features = train.columns.tolist()
print(train.shape, test.shape, test["floor"].dtype)
''',
    r'''
model = xgb.XGBRegressor(n_estimators=400, max_depth=7, learning_rate=0.05, subsample=0.8,
                         colsample_bytree=0.8, tree_method="hist", random_state=0)
model.fit(train[features], y, eval_set=[(train[features], y)], verbose=100)
test_pred = np.expm1(model.predict(test[features]))
submission = pd.DataFrame({"id": np.arange(len(test)), "price_doc": test_pred})
submission.head()
''',
    r'''
model = xgb.XGBRegressor(n_estimators=400, max_depth=7, learning_rate=0.05, subsample=0.8,
                         colsample_bytree=0.8, tree_method="hist", random_state=0)
model.fit(train[features], y, eval_set=[(train[features], y)], verbose=100)
test["floor"] = pd.to_numeric(test["floor"].replace("ground", 0))
test_pred = np.expm1(model.predict(test[features]))
submission = pd.DataFrame({"id": np.arange(len(test)), "price_doc": test_pred})
submission.head()
''',
)

# ---------------------------------------------------------------------------
# [27] lightgbm: lgb.train(early_stopping_rounds=..., verbose_eval=...)
#      (removed in LightGBM 4.0, use callbacks)
# ---------------------------------------------------------------------------
_add(
    "lightgbm_train_early_stopping_kwargs_removed",
    r'''
import numpy as np
import pandas as pd
import lightgbm as lgb

rng = np.random.default_rng(21)
n, p = 8_000, 25
X = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"var_{i}" for i in range(p)])
y = ((X["var_0"] + 0.5 * X["var_1"] - X["var_2"] * X["var_3"] + rng.normal(0, 1, n)) > 0).astype(int)
X_tr, X_va, y_tr, y_va = X.iloc[:6_400], X.iloc[6_400:], y.iloc[:6_400], y.iloc[6_400:]
params = {"objective": "binary", "metric": "auc", "learning_rate": 0.05, "num_leaves": 31,
          "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "verbose": -1, "seed": 0}
''',
    r'''
dtrain = lgb.Dataset(X_tr, label=y_tr)
dvalid = lgb.Dataset(X_va, label=y_va, reference=dtrain)
booster = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dtrain, dvalid],
                    early_stopping_rounds=50, verbose_eval=100)
print("best iteration:", booster.best_iteration)
''',
    r'''
dtrain = lgb.Dataset(X_tr, label=y_tr)
dvalid = lgb.Dataset(X_va, label=y_va, reference=dtrain)
booster = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dtrain, dvalid],
                    callbacks=[lgb.early_stopping(50), lgb.log_evaluation(100)])
print("best iteration:", booster.best_iteration)
''',
)

# ---------------------------------------------------------------------------
# [28] plain Python: csv parsing loop over many log files; the last files
#      were exported with float-formatted counts ('12.0') -> int() fails
# ---------------------------------------------------------------------------
_add(
    "python_int_parse_float_strings_in_late_csv_files",
    r'''
import csv
import os
import random
from datetime import datetime, timedelta

random.seed(1234)
os.makedirs("data/device_logs", exist_ok=True)
start = datetime(2022, 1, 1)
for day in range(60):
    with open(f"data/device_logs/log_{day:03d}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["timestamp", "device_id", "event", "count", "latency_ms"])
        for k in range(9_000):
            ts = start + timedelta(days=day, seconds=random.randint(0, 86_399))
            cnt = random.randint(0, 40)
            w.writerow([ts.strftime("%Y-%m-%d %H:%M:%S"), f"dev_{random.randint(1, 500):04d}",
                        random.choice(["click", "view", "purchase", "error"]),
                        f"{cnt}.0" if day >= 57 else cnt,
                        round(random.expovariate(1 / 120), 2)])
print(len(os.listdir("data/device_logs")), "files")
''',
    r'''
from collections import defaultdict

stats = defaultdict(lambda: {"events": 0, "total": 0, "errors": 0, "lat_sum": 0.0, "hours": set()})
daily_totals = {}
for fname in sorted(os.listdir("data/device_logs")):
    day_total = 0
    with open(os.path.join("data/device_logs", fname), newline="") as f:
        for row in csv.DictReader(f):
            ts = datetime.strptime(row["timestamp"], "%Y-%m-%d %H:%M:%S")
            s = stats[row["device_id"]]
            cnt = int(row["count"])
            s["events"] += 1
            s["total"] += cnt
            s["errors"] += row["event"] == "error"
            s["lat_sum"] += float(row["latency_ms"])
            s["hours"].add(ts.hour)
            day_total += cnt
    daily_totals[fname] = day_total

device_table = sorted(((d, v["total"], v["errors"], v["lat_sum"] / v["events"], len(v["hours"]))
                       for d, v in stats.items()), key=lambda t: -t[1])
print(len(daily_totals), device_table[:3])
''',
    r'''
from collections import defaultdict

stats = defaultdict(lambda: {"events": 0, "total": 0, "errors": 0, "lat_sum": 0.0, "hours": set()})
daily_totals = {}
for fname in sorted(os.listdir("data/device_logs")):
    day_total = 0
    with open(os.path.join("data/device_logs", fname), newline="") as f:
        for row in csv.DictReader(f):
            ts = datetime.strptime(row["timestamp"], "%Y-%m-%d %H:%M:%S")
            s = stats[row["device_id"]]
            cnt = int(float(row["count"]))
            s["events"] += 1
            s["total"] += cnt
            s["errors"] += row["event"] == "error"
            s["lat_sum"] += float(row["latency_ms"])
            s["hours"].add(ts.hour)
            day_total += cnt
    daily_totals[fname] = day_total

device_table = sorted(((d, v["total"], v["errors"], v["lat_sum"] / v["events"], len(v["hours"]))
                       for d, v in stats.items()), key=lambda t: -t[1])
print(len(daily_totals), device_table[:3])
''',
)

# ---------------------------------------------------------------------------
# [29] plain Python: deleting rare words from the vocabulary dict while
#      iterating over it, after tokenising the whole corpus
# ---------------------------------------------------------------------------
_add(
    "python_dict_changed_size_pruning_vocab",
    r'''
import random
import re
from collections import Counter

random.seed(2023)
syll = ["ka", "lo", "mi", "ra", "te", "su", "ne", "po", "vi", "da", "ze", "qu"]
vocab_words = sorted({"".join(random.choices(syll, k=random.randint(2, 5))) for _ in range(40_000)})
weights = [1.0 / (r + 1) ** 1.1 for r in range(len(vocab_words))]
stream = random.choices(vocab_words, weights=weights, k=3_500_000)
punct = [",", ".", "!", "?", ""]
reviews = []
for i in range(0, len(stream), 30):
    words = stream[i:i + 30]
    reviews.append(" ".join(w.capitalize() + random.choice(punct) if j % 9 == 0 else w
                            for j, w in enumerate(words)))
STOPWORDS = set(vocab_words[:15])
print(len(reviews), "reviews,", len(vocab_words), "candidate words")
''',
    r'''
token_re = re.compile(r"[a-z]+")
word_counts = Counter()
bigram_counts = Counter()
doc_freq = Counter()
tokenized = []
for text in reviews:
    tokens = [t for t in token_re.findall(text.lower()) if t not in STOPWORDS]
    tokenized.append(tokens)
    word_counts.update(tokens)
    bigram_counts.update(zip(tokens, tokens[1:]))
    doc_freq.update(set(tokens))

vocab = dict(word_counts)
MIN_COUNT = 20
for word in vocab:
    if vocab[word] < MIN_COUNT or doc_freq[word] < 3:
        del vocab[word]
word2idx = {w: i + 1 for i, w in enumerate(sorted(vocab, key=vocab.get, reverse=True))}
print(len(word2idx), "words kept of", len(word_counts))
''',
    r'''
token_re = re.compile(r"[a-z]+")
word_counts = Counter()
bigram_counts = Counter()
doc_freq = Counter()
tokenized = []
for text in reviews:
    tokens = [t for t in token_re.findall(text.lower()) if t not in STOPWORDS]
    tokenized.append(tokens)
    word_counts.update(tokens)
    bigram_counts.update(zip(tokens, tokens[1:]))
    doc_freq.update(set(tokens))

vocab = dict(word_counts)
MIN_COUNT = 20
for word in list(vocab):
    if vocab[word] < MIN_COUNT or doc_freq[word] < 3:
        del vocab[word]
word2idx = {w: i + 1 for i, w in enumerate(sorted(vocab, key=vocab.get, reverse=True))}
print(len(word2idx), "words kept of", len(word_counts))
''',
)
