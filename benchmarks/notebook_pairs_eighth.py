"""Notebook crash/fix pairs, eighth set: 30 realistic Kaggle-style machine-learning
notebook failures, each with the small edit that a Kaggle user would make.

Every entry of PAIRS is (name, setup, crash, fixed):
  setup  - the earlier notebook cells as one string (imports included); runs clean.
  crash  - the target cell; run after setup in the same namespace it raises.
  fixed  - the same cell after the user's fix; run after setup in a fresh
           namespace it runs clean and does the same work.

How it was made: written from scratch, without looking at the tool the set is
meant to judge. All data is synthetic, generated with numpy Generators and
fixed seeds inside the set-up code; nothing is downloaded. Some set-ups write
small CSV files into the current working directory (and read them back, as a
notebook would read a Kaggle CSV); nothing is written anywhere else.
Written against: Python 3.11, numpy 2.4, pandas 2.3, scikit-learn 1.9,
TensorFlow 2.21 / Keras 3.15 (`from tensorflow import keras`), torch 2.13 (CPU),
matplotlib 3.11, seaborn 0.13, xgboost 3.2, lightgbm 4.7.

Mix by library (30): pandas 7, numpy 3, scikit-learn 7, Keras 3, torch 4,
matplotlib/seaborn 2, xgboost/lightgbm 2, plain Python 2.

Root causes (30): API change in the installed versions 9 (idx 0, 1, 7, 11, 15,
17, 19, 24, 27); data confusion - wrong dtype, NaN, text in numeric data,
unseen category, mixed formats, shape/columns 10 (2, 3, 4, 6, 8, 10, 12, 14,
21, 26); model confusion - unfitted model, wrong input layout 3 (13, 16, 18);
off-by-one / last batch 4 (9, 20, 23, 25); notebook state - a cell re-run, a
shadowed builtin 2 (5, 29); file system - missing folder 2 (22, 28).

Long versus immediate: 15 crashing cells do real work first (row-wise apply,
group-bys over 1.5M rows, gradient descent, cross-validation, grid search,
model fits, training loops, KDE plots, tokenising 150k texts) and raise after
about 1.5-10 s (idx 0, 2, 6, 8, 10, 12, 13, 15, 17, 19, 20, 22, 25, 26, 28);
the other 15 raise at once (under 0.1 s).

Fixed cells that look risky but are fine, on purpose: 2 (try/except returns
NaN for text prices), 3 (two coerced parses joined with fillna), 4 (fillna
before the int cast), 5 (drop with errors="ignore"), 10 (reindex to the
training columns with fill_value=0), 12 (HistGradientBoosting and
RandomForest are still fed NaN, which both support natively), 14 (unknown
cities mapped to -1), 25 (more axes than plots, extras hidden), 26 (text
coerced to NaN and passed to XGBoost, which handles missing values), 29 (the
shadowed name `list` is still in the namespace, the fix just avoids it).

Checking: /tmp/eighth/check.py ran each pair in FRESH python processes (one
for setup + crashing cell, another for setup + fixed cell), each with a fresh
temporary directory as cwd, one process at a time on a 2-core machine with
default thread settings. Two full sequential runs: 30/30 crashes raised and
30/30 fixed cells ran clean in both runs (60/60 and 60/60); the exception type
was the same in both runs for every pair. Slowest set-up 6.2 s (Keras), slowest
fixed cell 10.6 s. Another job shared the machine during the runs, so the
timings of multi-threaded cells (sklearn n_jobs=-1, Keras, torch) vary between
runs.

Timing table: idx, exception type, seconds from the start of the crashing
cell to its exception in run 1 and run 2, pair name, root cause.

idx  exception            run1   run2  name
  0  AttributeError        4.33   5.62  pandas: DataFrame.append removed in pandas 2 (train+test stacking after date features)
                                 cause: API change: DataFrame.append removed in pandas 2.0
  1  TypeError             0.00   0.00  pandas: groupby().mean() on a frame that still has text columns
                                 cause: API change + data: groupby mean no longer drops text columns (numeric_only=False)
  2  ValueError            2.05   1.62  pandas: row-wise apply parsing a price column that has text in newer rows
                                 cause: data: text ('Price on request') in a numeric-looking column, only in late rows
  3  ValueError            0.00   0.00  pandas: to_datetime on a column mixing ISO and day-first dates
                                 cause: data: mixed date formats; pandas 2 infers one format from the first value
  4  IntCastingNaNError    0.00   0.00  pandas: astype(int) on the Age column that still has NaN
                                 cause: data: NaN in a column cast to int
  5  KeyError              0.00   0.00  pandas: drop-columns cell run a second time (columns already gone)
                                 cause: notebook state: drop cell re-run, columns already dropped
  6  ValueError            3.65   2.98  pandas: merge on customer_id read as str against int64 key after heavy aggregation
                                 cause: data: merge key int64 vs object (CSV read with dtype=str)
  7  AttributeError        0.00   0.00  numpy: np.float alias removed (astype(np.float))
                                 cause: API change: np.float alias removed (numpy 1.24)
  8  ValueError            5.31   5.02  numpy: gradient descent from scratch, test matrix lacks the bias column
                                 cause: data/shape: test matrix lacks the bias column used in training
  9  IndexError            0.00   0.00  numpy: sliding-window targets, loop runs one step past the end
                                 cause: off-by-one: window loop reads one element past the end
 10  ValueError            6.76   5.81  sklearn: test set one-hot encoded separately, columns differ from training
                                 cause: data: train/test one-hot encoded separately, feature names differ
 11  TypeError             0.00   0.00  sklearn: OneHotEncoder(sparse=False) keyword removed
                                 cause: API change: OneHotEncoder sparse= removed (sklearn 1.4), now sparse_output=
 12  ValueError            4.91  10.15  sklearn: model comparison loop, NaN features reach LogisticRegression
                                 cause: data: NaN features reach an estimator without NaN support
 13  NotFittedError        7.62   9.04  sklearn: GridSearchCV fitted, then predict with the unfitted base estimator
                                 cause: model confusion: predict with the unfitted estimator given to GridSearchCV
 14  ValueError            0.00   0.00  sklearn: LabelEncoder.transform on test with a city unseen in training
                                 cause: data: unseen category at LabelEncoder.transform
 15  TypeError             6.17   5.28  sklearn: mean_squared_error(squared=False) keyword removed, after a GBM fit
                                 cause: API change: mean_squared_error(squared=) removed (sklearn 1.6)
 16  ValueError            0.02   0.01  sklearn: LinearRegression fitted on a single column passed as a 1-D Series
                                 cause: model confusion (input layout): 1-D Series where a 2-D X is required
 17  AttributeError       10.00   3.78  keras: Sequential.predict_classes removed, called after training
                                 cause: API change: Sequential.predict_classes removed (TF 2.6 / Keras 3)
 18  ValueError            0.09   0.06  keras: Conv2D model fed the flat 784-pixel rows of the digit CSV
                                 cause: model confusion (input layout): flat 784-pixel rows into a (28, 28, 1) Conv2D model
 19  ValueError            5.42   4.12  keras: model.save to a path without extension (Keras 3), after training
                                 cause: API change: Keras 3 model.save needs a .keras / .h5 extension
 20  RuntimeError          1.95   1.99  torch: forward() views with the fixed BATCH_SIZE, last smaller batch breaks
                                 cause: last batch: forward() views with the hard-coded BATCH_SIZE
 21  RuntimeError          0.00   0.00  torch: float64 tensor from pandas/numpy fed to a float32 model
                                 cause: data: float64 tensor into float32 weights
 22  RuntimeError          4.29   3.01  torch: torch.save of the trained weights into a folder that does not exist
                                 cause: file system: parent folder of the checkpoint does not exist
 23  IndexError            0.01   0.00  torch: CrossEntropyLoss with star ratings 1..5 as class labels
                                 cause: off-by-one: class labels 1..5 for a 5-way CrossEntropyLoss
 24  OSError               0.00   0.00  matplotlib: plt.style.use('seaborn') style renamed in matplotlib 3.6
                                 cause: API change: 'seaborn' style renamed to 'seaborn-v0_8' (matplotlib 3.6)
 25  IndexError            3.43   3.39  seaborn: seven KDE histograms drawn into a 2x3 axes grid
                                 cause: off-by-one: 7 plots into a 2x3 axes grid
 26  ValueError            2.46   2.00  xgboost: predict on a test CSV whose numeric column was read as object ('-' placeholders)
                                 cause: data: '-' placeholders make a numeric test column object dtype
 27  TypeError             0.00   0.00  lightgbm: lgb.train early_stopping_rounds / verbose_eval keywords removed in 4.x
                                 cause: API change: lgb.train early_stopping_rounds/verbose_eval removed (LightGBM 4)
 28  FileNotFoundError     2.62   1.55  python: vocabulary built over all reviews, json.dump into a missing folder
                                 cause: file system: output folder does not exist
 29  TypeError             0.00   0.00  python: builtin list shadowed by a variable from an earlier cell
                                 cause: notebook state: builtin list shadowed by an earlier cell
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup.strip() + "\n", crash.strip() + "\n", fixed.strip() + "\n"))


# ---------------------------------------------------------------------------
# Shared set-ups
# ---------------------------------------------------------------------------

_STORE_SALES = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
stores, items, days = 10, 20, 730
dates = pd.date_range("2016-01-01", periods=days, freq="D")
grid = pd.MultiIndex.from_product(
    [range(1, stores + 1), range(1, items + 1), dates], names=["store", "item", "date"]
).to_frame(index=False)
base = rng.gamma(2.0, 10.0, stores * items).repeat(days)
season = 1 + 0.3 * np.sin(2 * np.pi * grid["date"].dt.dayofyear.to_numpy() / 365.25)
grid["sales"] = rng.poisson(base * season).astype(float)
grid.to_csv("train.csv", index=False)

test_dates = pd.date_range("2018-01-01", periods=90, freq="D")
test = pd.MultiIndex.from_product(
    [range(1, stores + 1), range(1, items + 1), test_dates], names=["store", "item", "date"]
).to_frame(index=False)
test.insert(0, "id", np.arange(len(test)))
test.to_csv("test.csv", index=False)

train = pd.read_csv("train.csv", parse_dates=["date"])
test = pd.read_csv("test.csv", parse_dates=["date"])
print(train.shape, test.shape)
"""

_HOUSES = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(42)
n = 1460
raw = pd.DataFrame({
    "Id": np.arange(1, n + 1),
    "MSZoning": rng.choice(["RL", "RM", "FV", "RH"], n, p=[0.78, 0.15, 0.05, 0.02]),
    "Neighborhood": rng.choice(["NAmes", "CollgCr", "OldTown", "Edwards", "Somerst",
                                "Gilbert", "NridgHt", "Sawyer"], n),
    "LotFrontage": np.where(rng.random(n) < 0.18, np.nan, rng.normal(70, 20, n).round()),
    "LotArea": rng.lognormal(9.1, 0.4, n).round(),
    "OverallQual": rng.integers(1, 11, n),
    "YearBuilt": rng.integers(1900, 2010, n),
    "GrLivArea": rng.normal(1500, 500, n).clip(400).round(),
    "GarageCars": rng.integers(0, 4, n),
    "CentralAir": rng.choice(["Y", "N"], n, p=[0.93, 0.07]),
})
raw["SalePrice"] = (20000 + 18000 * raw["OverallQual"] + 55 * raw["GrLivArea"]
                    + 300 * (raw["YearBuilt"] - 1900) + 9000 * raw["GarageCars"]
                    + rng.normal(0, 25000, n)).round()
raw.to_csv("train.csv", index=False)

df = pd.read_csv("train.csv")
print(df.shape)
df.head()
"""

_TITANIC = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n = 891
pclass = rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55])
sex = rng.choice(["male", "female"], n, p=[0.65, 0.35])
age = rng.normal(30, 14, n).clip(0.5, 80).round(1)
age[rng.random(n) < 0.2] = np.nan
fare = (rng.lognormal(2.5, 0.9, n) * (4 - pclass)).round(2)
surv = (rng.random(n) < 0.2 + 0.5 * (sex == "female") + 0.1 * (pclass == 1)).astype(int)
cabin = np.where(rng.random(n) < 0.77, None,
                 [f"{c}{k}" for c, k in zip(rng.choice(list("ABCDE"), n), rng.integers(1, 120, n))])
pd.DataFrame({
    "PassengerId": np.arange(1, n + 1), "Survived": surv, "Pclass": pclass,
    "Name": [f"Passenger {i}" for i in range(n)], "Sex": sex, "Age": age,
    "SibSp": rng.poisson(0.5, n), "Parch": rng.poisson(0.4, n),
    "Ticket": [f"A/{t}" for t in rng.integers(1000, 99999, n)], "Fare": fare,
    "Cabin": cabin, "Embarked": rng.choice(["S", "C", "Q"], n, p=[0.72, 0.19, 0.09]),
}).to_csv("train.csv", index=False)

train = pd.read_csv("train.csv")
print(train.shape)
train.head()
"""

_CHURN = """
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(11)
n = 40000
df = pd.DataFrame({
    "tenure": rng.integers(0, 72, n).astype(float),
    "monthly_charges": rng.normal(65, 30, n).clip(18),
    "total_charges": rng.normal(2200, 2000, n).clip(18),
    "support_calls": rng.poisson(1.5, n).astype(float),
    "num_products": rng.integers(1, 6, n).astype(float),
    "age": rng.normal(45, 15, n).clip(18, 90),
    "last_login_days": rng.exponential(20, n),
    "discount_pct": rng.uniform(0, 30, n),
})
logit = (-1.5 - 0.04 * df["tenure"] + 0.02 * df["monthly_charges"]
         + 0.35 * df["support_calls"] + 0.02 * df["last_login_days"])
df["churn"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
for col in ["total_charges", "age", "last_login_days", "discount_pct"]:
    df.loc[rng.random(n) < 0.06, col] = np.nan

features = [c for c in df.columns if c != "churn"]
X_train, X_val, y_train, y_val = train_test_split(
    df[features], df["churn"], test_size=0.25, random_state=0, stratify=df["churn"])
print(X_train.isna().mean().round(3))
"""

_REGRESSION = """
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(5)
n = 20000
X = pd.DataFrame(rng.normal(size=(n, 12)), columns=[f"f{i}" for i in range(12)])
X["f3"] = rng.integers(0, 10, n)
X["f7"] = rng.exponential(2.0, n)
y = (3 * X["f0"] - 2 * X["f1"] ** 2 + np.sin(3 * X["f2"]) + 0.5 * X["f3"]
     + X["f4"] * X["f5"] + np.log1p(X["f7"]) + rng.normal(0, 0.5, n))
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=42)
print(X_train.shape, X_val.shape)
"""

# ---------------------------------------------------------------------------
# pandas (7)
# ---------------------------------------------------------------------------

_add(
    "pandas: DataFrame.append removed in pandas 2 (train+test stacking after date features)",
    _STORE_SALES,
    """
holidays = pd.to_datetime(["2016-01-01", "2016-05-30", "2016-07-04", "2016-11-24", "2016-12-25",
                           "2017-01-01", "2017-05-29", "2017-07-04", "2017-11-23", "2017-12-25",
                           "2018-01-01"])

def add_features(frame):
    frame = frame.copy()
    frame["dow"] = frame["date"].dt.dayofweek
    frame["month"] = frame["date"].dt.month
    frame["is_weekend"] = (frame["dow"] >= 5).astype(int)
    frame["days_to_holiday"] = frame["date"].apply(lambda d: min(abs((d - h).days) for h in holidays))
    return frame

train = add_features(train)
test = add_features(test)

full = train.append(test, ignore_index=True)
full = pd.get_dummies(full, columns=["store", "dow", "month"])
print(full.shape)
""",
    """
holidays = pd.to_datetime(["2016-01-01", "2016-05-30", "2016-07-04", "2016-11-24", "2016-12-25",
                           "2017-01-01", "2017-05-29", "2017-07-04", "2017-11-23", "2017-12-25",
                           "2018-01-01"])

def add_features(frame):
    frame = frame.copy()
    frame["dow"] = frame["date"].dt.dayofweek
    frame["month"] = frame["date"].dt.month
    frame["is_weekend"] = (frame["dow"] >= 5).astype(int)
    frame["days_to_holiday"] = frame["date"].apply(lambda d: min(abs((d - h).days) for h in holidays))
    return frame

train = add_features(train)
test = add_features(test)

full = pd.concat([train, test], ignore_index=True)
full = pd.get_dummies(full, columns=["store", "dow", "month"])
print(full.shape)
""",
)

_add(
    "pandas: groupby().mean() on a frame that still has text columns",
    _HOUSES,
    """
neigh_stats = df.groupby("Neighborhood").mean()
neigh_stats.sort_values("SalePrice", ascending=False)[["SalePrice", "GrLivArea"]].head()
""",
    """
neigh_stats = df.groupby("Neighborhood").mean(numeric_only=True)
neigh_stats.sort_values("SalePrice", ascending=False)[["SalePrice", "GrLivArea"]].head()
""",
)

_add(
    "pandas: row-wise apply parsing a price column that has text in newer rows",
    """
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
n = 300000
sqft = rng.normal(900, 300, n).clip(250).round()
price = (sqft * rng.normal(4.5, 1.0, n)).clip(300).round(2)
listings = pd.DataFrame({
    "listing_id": np.arange(n),
    "scraped": pd.Timestamp("2019-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 1400, n)), unit="D"),
    "neighbourhood": rng.choice(["Centre", "North", "Harbour", "Old Town", "East"], n),
    "room_type": rng.choice(["Entire home/apt", "Private room", "Shared room"], n, p=[0.6, 0.35, 0.05]),
    "sqft": sqft,
    "price": [f"${p:,.2f}" for p in price],
})
# the last scrape batch lists some flats without a price
late = listings.index[-3000:]
listings.loc[rng.choice(late, 40, replace=False), "price"] = "Price on request"
listings.to_csv("listings.csv", index=False)

listings = pd.read_csv("listings.csv", parse_dates=["scraped"])
print(listings.dtypes)
""",
    """
def price_per_sqft(row):
    price = float(row["price"].replace("$", "").replace(",", ""))
    return price / row["sqft"]

listings["price_per_sqft"] = listings.apply(price_per_sqft, axis=1)
listings.groupby(["neighbourhood", "room_type"])["price_per_sqft"].median().unstack()
""",
    """
def price_per_sqft(row):
    try:
        price = float(str(row["price"]).replace("$", "").replace(",", ""))
    except ValueError:
        return np.nan
    return price / row["sqft"]

listings["price_per_sqft"] = listings.apply(price_per_sqft, axis=1)
listings.groupby(["neighbourhood", "room_type"])["price_per_sqft"].median().unstack()
""",
)

_add(
    "pandas: to_datetime on a column mixing ISO and day-first dates",
    """
import numpy as np
import pandas as pd

rng = np.random.default_rng(8)
n = 50000
d = pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 700, n), unit="D")
iso = d.strftime("%Y-%m-%d")
eu = d.strftime("%d/%m/%Y")
# orders entered through the EU shop front use a day-first format
is_eu = rng.random(n) < 0.3
is_eu[:100] = False
orders = pd.DataFrame({
    "order_id": np.arange(n),
    "order_date": np.where(is_eu, eu, iso),
    "amount": rng.gamma(2, 30, n).round(2),
})
orders.to_csv("orders.csv", index=False)
orders = pd.read_csv("orders.csv")
orders.head()
""",
    """
orders["order_date"] = pd.to_datetime(orders["order_date"])
monthly = orders.set_index("order_date")["amount"].resample("MS").sum()
monthly.tail()
""",
    """
iso_dates = pd.to_datetime(orders["order_date"], format="%Y-%m-%d", errors="coerce")
eu_dates = pd.to_datetime(orders["order_date"], format="%d/%m/%Y", errors="coerce")
orders["order_date"] = iso_dates.fillna(eu_dates)
monthly = orders.set_index("order_date")["amount"].resample("MS").sum()
monthly.tail()
""",
)

_add(
    "pandas: astype(int) on the Age column that still has NaN",
    _TITANIC,
    """
train["Age"] = train["Age"].astype(int)
train["AgeBand"] = pd.cut(train["Age"], bins=[0, 12, 18, 35, 60, 80])
train.groupby("AgeBand", observed=True)["Survived"].mean()
""",
    """
train["Age"] = train["Age"].fillna(train["Age"].median()).astype(int)
train["AgeBand"] = pd.cut(train["Age"], bins=[0, 12, 18, 35, 60, 80])
train.groupby("AgeBand", observed=True)["Survived"].mean()
""",
)

_add(
    "pandas: drop-columns cell run a second time (columns already gone)",
    _TITANIC + """
train = train.drop(["PassengerId", "Ticket", "Cabin"], axis=1)
train.head()
""",
    """
train = train.drop(["PassengerId", "Ticket", "Cabin"], axis=1)
train.head()
""",
    """
train = train.drop(["PassengerId", "Ticket", "Cabin"], axis=1, errors="ignore")
train.head()
""",
)

_add(
    "pandas: merge on customer_id read as str against int64 key after heavy aggregation",
    """
import numpy as np
import pandas as pd

rng = np.random.default_rng(13)
n_cust, n_tx = 60000, 1500000
tx = pd.DataFrame({
    "customer_id": rng.integers(100000, 100000 + n_cust, n_tx),
    "ts": pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 3600, n_tx), unit="s"),
    "amount": rng.gamma(2.0, 25.0, n_tx).round(2),
    "category": rng.choice(["grocery", "fuel", "travel", "online", "dining", "health"], n_tx),
})
pd.DataFrame({
    "customer_id": np.arange(100000, 100000 + n_cust),
    "postcode": [f"{p:05d}" for p in rng.integers(501, 99950, n_cust)],
    "segment": rng.choice(["retail", "premium", "business"], n_cust, p=[0.7, 0.2, 0.1]),
    "defaulted": (rng.random(n_cust) < 0.08).astype(int),
}).to_csv("customers.csv", index=False)
# read everything as text so that postcodes keep their leading zeros
customers = pd.read_csv("customers.csv", dtype=str)
customers["defaulted"] = customers["defaulted"].astype(int)
print(tx.shape, customers.shape)
""",
    """
snapshot = tx["ts"].max()
tx["hour"] = tx["ts"].dt.hour
tx["night"] = tx["hour"].isin([0, 1, 2, 3, 4, 5]).astype(int)
agg = tx.groupby("customer_id").agg(
    n_tx=("amount", "size"),
    total=("amount", "sum"),
    mean_amt=("amount", "mean"),
    max_amt=("amount", "max"),
    std_amt=("amount", "std"),
    night_share=("night", "mean"),
    n_categories=("category", "nunique"),
    last_ts=("ts", "max"),
    first_ts=("ts", "min"),
)
agg["recency_days"] = (snapshot - agg["last_ts"]).dt.days
agg["active_days"] = (agg["last_ts"] - agg["first_ts"]).dt.days
cat_share = pd.crosstab(tx["customer_id"], tx["category"], normalize="index").add_prefix("share_")
cust_feats = agg.join(cat_share).reset_index()

model_df = cust_feats.merge(customers, on="customer_id", how="left")
print(model_df.shape)
model_df.groupby("segment")["total"].mean()
""",
    """
snapshot = tx["ts"].max()
tx["hour"] = tx["ts"].dt.hour
tx["night"] = tx["hour"].isin([0, 1, 2, 3, 4, 5]).astype(int)
agg = tx.groupby("customer_id").agg(
    n_tx=("amount", "size"),
    total=("amount", "sum"),
    mean_amt=("amount", "mean"),
    max_amt=("amount", "max"),
    std_amt=("amount", "std"),
    night_share=("night", "mean"),
    n_categories=("category", "nunique"),
    last_ts=("ts", "max"),
    first_ts=("ts", "min"),
)
agg["recency_days"] = (snapshot - agg["last_ts"]).dt.days
agg["active_days"] = (agg["last_ts"] - agg["first_ts"]).dt.days
cat_share = pd.crosstab(tx["customer_id"], tx["category"], normalize="index").add_prefix("share_")
cust_feats = agg.join(cat_share).reset_index()

customers["customer_id"] = customers["customer_id"].astype("int64")
model_df = cust_feats.merge(customers, on="customer_id", how="left")
print(model_df.shape)
model_df.groupby("segment")["total"].mean()
""",
)

# ---------------------------------------------------------------------------
# numpy (3)
# ---------------------------------------------------------------------------

_add(
    "numpy: np.float alias removed (astype(np.float))",
    _HOUSES,
    """
num_cols = ["LotArea", "OverallQual", "YearBuilt", "GrLivArea", "GarageCars"]
X = df[num_cols].values.astype(np.float)
y = np.log1p(df["SalePrice"].values)
X = (X - X.mean(axis=0)) / X.std(axis=0)
print(X.shape, y.shape)
""",
    """
num_cols = ["LotArea", "OverallQual", "YearBuilt", "GrLivArea", "GarageCars"]
X = df[num_cols].values.astype(float)
y = np.log1p(df["SalePrice"].values)
X = (X - X.mean(axis=0)) / X.std(axis=0)
print(X.shape, y.shape)
""",
)

_add(
    "numpy: gradient descent from scratch, test matrix lacks the bias column",
    """
import numpy as np

rng = np.random.default_rng(1)
n_train, n_test, d = 300000, 60000, 30
true_w = rng.normal(size=d)
X_train = rng.normal(size=(n_train, d))
y_train = X_train @ true_w + 4.0 + rng.normal(0, 1.0, n_train)
X_test = rng.normal(size=(n_test, d))
mu, sd = X_train.mean(axis=0), X_train.std(axis=0)
X_train = (X_train - mu) / sd
X_test = (X_test - mu) / sd
print(X_train.shape, X_test.shape)
""",
    """
Xb = np.hstack([np.ones((X_train.shape[0], 1)), X_train])
w = np.zeros(Xb.shape[1])
lr = 0.05
losses = []
for epoch in range(300):
    err = Xb @ w - y_train
    losses.append((err ** 2).mean())
    w -= lr * (Xb.T @ err) / len(y_train)
print("final mse:", losses[-1])

test_pred = X_test @ w
print(test_pred[:5])
""",
    """
Xb = np.hstack([np.ones((X_train.shape[0], 1)), X_train])
w = np.zeros(Xb.shape[1])
lr = 0.05
losses = []
for epoch in range(300):
    err = Xb @ w - y_train
    losses.append((err ** 2).mean())
    w -= lr * (Xb.T @ err) / len(y_train)
print("final mse:", losses[-1])

test_pred = np.hstack([np.ones((X_test.shape[0], 1)), X_test]) @ w
print(test_pred[:5])
""",
)

_add(
    "numpy: sliding-window targets, loop runs one step past the end",
    """
import numpy as np

rng = np.random.default_rng(2)
t = np.arange(3000)
series = 10 + np.sin(2 * np.pi * t / 24) + 0.3 * np.sin(2 * np.pi * t / 168) + rng.normal(0, 0.1, t.size)
window = 48
print(series.shape)
""",
    """
X, y = [], []
for i in range(len(series) - window + 1):
    X.append(series[i:i + window])
    y.append(series[i + window])
X, y = np.array(X), np.array(y)
print(X.shape, y.shape)
""",
    """
X, y = [], []
for i in range(len(series) - window):
    X.append(series[i:i + window])
    y.append(series[i + window])
X, y = np.array(X), np.array(y)
print(X.shape, y.shape)
""",
)

# ---------------------------------------------------------------------------
# scikit-learn (7)
# ---------------------------------------------------------------------------

_add(
    "sklearn: test set one-hot encoded separately, columns differ from training",
    """
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(4)

def make(n, vehicle_levels, p):
    out = pd.DataFrame({
        "age": rng.integers(18, 80, n),
        "annual_premium": rng.gamma(3, 10000, n).round(),
        "vintage": rng.integers(10, 300, n),
        "gender": rng.choice(["Male", "Female"], n),
        "vehicle_age": rng.choice(vehicle_levels, n, p=p),
        "vehicle_damage": rng.choice(["Yes", "No"], n),
        "channel": rng.choice(["26", "124", "152", "160", "other"], n),
    })
    return out

train = make(30000, ["< 1 Year", "1-2 Year", "> 2 Years"], [0.45, 0.5, 0.05])
train["response"] = ((train["vehicle_damage"] == "Yes") & (rng.random(len(train)) < 0.3)).astype(int)
test = make(8000, ["< 1 Year", "1-2 Year"], [0.5, 0.5])
features = ["age", "annual_premium", "vintage", "gender", "vehicle_age", "vehicle_damage", "channel"]
print(train.shape, test.shape)
""",
    """
X = pd.get_dummies(train[features])
y = train["response"]
rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, random_state=0, n_jobs=-1)
scores = cross_val_score(rf, X, y, cv=3, scoring="roc_auc")
print("CV AUC: %.4f" % scores.mean())
rf.fit(X, y)

X_test = pd.get_dummies(test[features])
test["response"] = rf.predict_proba(X_test)[:, 1]
test[["response"]].head()
""",
    """
X = pd.get_dummies(train[features])
y = train["response"]
rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, random_state=0, n_jobs=-1)
scores = cross_val_score(rf, X, y, cv=3, scoring="roc_auc")
print("CV AUC: %.4f" % scores.mean())
rf.fit(X, y)

X_test = pd.get_dummies(test[features]).reindex(columns=X.columns, fill_value=0)
test["response"] = rf.predict_proba(X_test)[:, 1]
test[["response"]].head()
""",
)

_add(
    "sklearn: OneHotEncoder(sparse=False) keyword removed",
    _TITANIC + """
from sklearn.preprocessing import OneHotEncoder
""",
    """
cat_cols = ["Sex", "Embarked", "Pclass"]
train["Embarked"] = train["Embarked"].fillna("S")
ohe = OneHotEncoder(sparse=False, handle_unknown="ignore")
encoded = ohe.fit_transform(train[cat_cols])
encoded_df = pd.DataFrame(encoded, columns=ohe.get_feature_names_out(cat_cols))
encoded_df.head()
""",
    """
cat_cols = ["Sex", "Embarked", "Pclass"]
train["Embarked"] = train["Embarked"].fillna("S")
ohe = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
encoded = ohe.fit_transform(train[cat_cols])
encoded_df = pd.DataFrame(encoded, columns=ohe.get_feature_names_out(cat_cols))
encoded_df.head()
""",
)

_add(
    "sklearn: model comparison loop, NaN features reach LogisticRegression",
    _CHURN,
    """
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import roc_auc_score

models = {
    "hist_gb": HistGradientBoostingClassifier(max_iter=150, learning_rate=0.05, random_state=0),
    "random_forest": RandomForestClassifier(n_estimators=100, min_samples_leaf=3, n_jobs=-1, random_state=0),
    "log_reg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
}
results = {}
for name, model in models.items():
    model.fit(X_train, y_train)
    results[name] = roc_auc_score(y_val, model.predict_proba(X_val)[:, 1])
    print(f"{name}: AUC = {results[name]:.4f}")
""",
    """
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.impute import SimpleImputer
from sklearn.metrics import roc_auc_score

models = {
    "hist_gb": HistGradientBoostingClassifier(max_iter=150, learning_rate=0.05, random_state=0),
    "random_forest": RandomForestClassifier(n_estimators=100, min_samples_leaf=3, n_jobs=-1, random_state=0),
    "log_reg": make_pipeline(SimpleImputer(strategy="median"), StandardScaler(), LogisticRegression(max_iter=1000)),
}
results = {}
for name, model in models.items():
    model.fit(X_train, y_train)
    results[name] = roc_auc_score(y_val, model.predict_proba(X_val)[:, 1])
    print(f"{name}: AUC = {results[name]:.4f}")
""",
)

_add(
    "sklearn: GridSearchCV fitted, then predict with the unfitted base estimator",
    _REGRESSION,
    """
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import GridSearchCV
from sklearn.metrics import mean_absolute_error

rf = RandomForestRegressor(random_state=0)
param_grid = {"n_estimators": [20], "max_depth": [6, 10], "min_samples_leaf": [5]}
grid = GridSearchCV(rf, param_grid, cv=3, scoring="neg_mean_absolute_error", n_jobs=-1)
grid.fit(X_train, y_train)
print(grid.best_params_, -grid.best_score_)

val_pred = rf.predict(X_val)
print("val MAE:", mean_absolute_error(y_val, val_pred))
""",
    """
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import GridSearchCV
from sklearn.metrics import mean_absolute_error

rf = RandomForestRegressor(random_state=0)
param_grid = {"n_estimators": [20], "max_depth": [6, 10], "min_samples_leaf": [5]}
grid = GridSearchCV(rf, param_grid, cv=3, scoring="neg_mean_absolute_error", n_jobs=-1)
grid.fit(X_train, y_train)
print(grid.best_params_, -grid.best_score_)

val_pred = grid.best_estimator_.predict(X_val)
print("val MAE:", mean_absolute_error(y_val, val_pred))
""",
)

_add(
    "sklearn: LabelEncoder.transform on test with a city unseen in training",
    """
import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

rng = np.random.default_rng(17)
cities = ["Mumbai", "Delhi", "Bangalore", "Chennai", "Pune", "Kolkata", "Hyderabad"]
train = pd.DataFrame({"city": rng.choice(cities, 5000), "rooms": rng.integers(1, 5, 5000)})
test = pd.DataFrame({"city": rng.choice(cities + ["Jaipur"], 1200), "rooms": rng.integers(1, 5, 1200)})

le = LabelEncoder()
train["city"] = le.fit_transform(train["city"])
train.head()
""",
    """
test["city"] = le.transform(test["city"])
test.head()
""",
    """
city_map = {c: i for i, c in enumerate(le.classes_)}
test["city"] = test["city"].map(city_map).fillna(-1).astype(int)
test.head()
""",
)

_add(
    "sklearn: mean_squared_error(squared=False) keyword removed, after a GBM fit",
    _REGRESSION,
    """
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_squared_error

gbr = GradientBoostingRegressor(n_estimators=120, max_depth=4, learning_rate=0.05, subsample=0.8, random_state=0)
gbr.fit(X_train, y_train)
val_pred = gbr.predict(X_val)
rmse = mean_squared_error(y_val, val_pred, squared=False)
print(f"validation RMSE: {rmse:.4f}")
""",
    """
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_squared_error

gbr = GradientBoostingRegressor(n_estimators=120, max_depth=4, learning_rate=0.05, subsample=0.8, random_state=0)
gbr.fit(X_train, y_train)
val_pred = gbr.predict(X_val)
rmse = np.sqrt(mean_squared_error(y_val, val_pred))
print(f"validation RMSE: {rmse:.4f}")
""",
)

_add(
    "sklearn: LinearRegression fitted on a single column passed as a 1-D Series",
    _HOUSES + """
from sklearn.linear_model import LinearRegression
""",
    """
lr = LinearRegression()
lr.fit(df["GrLivArea"], df["SalePrice"])
print(lr.coef_, lr.intercept_)
""",
    """
lr = LinearRegression()
lr.fit(df[["GrLivArea"]], df["SalePrice"])
print(lr.coef_, lr.intercept_)
""",
)

# ---------------------------------------------------------------------------
# Keras (3)
# ---------------------------------------------------------------------------

_add(
    "keras: Sequential.predict_classes removed, called after training",
    """
import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
n = 30000
X = rng.normal(size=(n, 24)).astype("float32")
W = rng.normal(size=(24, 5))
y = np.argmax(X @ W + rng.normal(scale=2.0, size=(n, 5)), axis=1)
X_train, X_test, y_train, y_test = X[:24000], X[24000:], y[:24000], y[24000:]

model = keras.Sequential([
    keras.Input(shape=(24,)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(5, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.summary()
""",
    """
history = model.fit(X_train, y_train, validation_split=0.2, epochs=8, batch_size=64, verbose=0)
print("val acc:", history.history["val_accuracy"][-1])
y_pred = model.predict_classes(X_test)
print("test acc:", (y_pred == y_test).mean())
""",
    """
history = model.fit(X_train, y_train, validation_split=0.2, epochs=8, batch_size=64, verbose=0)
print("val acc:", history.history["val_accuracy"][-1])
y_pred = np.argmax(model.predict(X_test, verbose=0), axis=1)
print("test acc:", (y_pred == y_test).mean())
""",
)

_add(
    "keras: Conv2D model fed the flat 784-pixel rows of the digit CSV",
    """
import numpy as np
import pandas as pd
from tensorflow import keras

keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)
n = 3000
labels = rng.integers(0, 10, n)
yy, xx = np.mgrid[0:28, 0:28]
centers = rng.uniform(6, 22, size=(10, 2))
imgs = np.stack([
    np.exp(-((yy - centers[c, 0]) ** 2 + (xx - centers[c, 1]) ** 2) / 20.0) for c in labels
])
imgs = np.clip(imgs * 255 + rng.normal(0, 20, imgs.shape), 0, 255).astype(int)
train = pd.DataFrame(imgs.reshape(n, 784), columns=[f"pixel{i}" for i in range(784)])
train.insert(0, "label", labels)

X_train = train.drop(columns="label").values / 255.0
y_train = train["label"].values
print(X_train.shape)

model = keras.Sequential([
    keras.Input(shape=(28, 28, 1)),
    keras.layers.Conv2D(16, 3, activation="relu"),
    keras.layers.MaxPooling2D(),
    keras.layers.Flatten(),
    keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
""",
    """
history = model.fit(X_train, y_train, epochs=2, batch_size=128, validation_split=0.1, verbose=0)
print(history.history["val_accuracy"])
""",
    """
X_train = X_train.reshape(-1, 28, 28, 1)
history = model.fit(X_train, y_train, epochs=2, batch_size=128, validation_split=0.1, verbose=0)
print(history.history["val_accuracy"])
""",
)

_add(
    "keras: model.save to a path without extension (Keras 3), after training",
    """
import numpy as np
import pandas as pd
from tensorflow import keras

keras.utils.set_random_seed(2)
rng = np.random.default_rng(2)
n = 20000
X = rng.normal(size=(n, 16)).astype("float32")
y = (X[:, 0] * 3 + X[:, 1] ** 2 - X[:, 2] * X[:, 3] + rng.normal(0, 0.3, n)).astype("float32")
X_train, X_val, y_train, y_val = X[:16000], X[16000:], y[:16000], y[16000:]

model = keras.Sequential([
    keras.Input(shape=(16,)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse", metrics=["mae"])
""",
    """
early = keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True)
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=10,
                    batch_size=64, callbacks=[early], verbose=0)
print("best val mae:", min(history.history["val_mae"]))
model.save("house_price_model")
""",
    """
early = keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True)
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=10,
                    batch_size=64, callbacks=[early], verbose=0)
print("best val mae:", min(history.history["val_mae"]))
model.save("house_price_model.keras")
""",
)

# ---------------------------------------------------------------------------
# torch (4)
# ---------------------------------------------------------------------------

_add(
    "torch: forward() views with the fixed BATCH_SIZE, last smaller batch breaks",
    """
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
rng = np.random.default_rng(0)
n = 36000
X = rng.normal(size=(n, 20, 6)).astype("float32")
y = (X[:, :, 0].mean(1) + 0.5 * X[:, -5:, 3].mean(1) > 0).astype("int64")
BATCH_SIZE = 64
train_ds = TensorDataset(torch.from_numpy(X[:30000]), torch.from_numpy(y[:30000]))
val_ds = TensorDataset(torch.from_numpy(X[30000:]), torch.from_numpy(y[30000:]))
train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=BATCH_SIZE)
print(len(train_ds), len(train_loader))
""",
    """
class SensorNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20 * 6, 256)
        self.fc2 = nn.Linear(256, 128)
        self.out = nn.Linear(128, 2)

    def forward(self, x):
        x = x.view(BATCH_SIZE, 20 * 6)
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.out(x)

model = SensorNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(3):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: loss {running / len(train_ds):.4f}")
""",
    """
class SensorNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20 * 6, 256)
        self.fc2 = nn.Linear(256, 128)
        self.out = nn.Linear(128, 2)

    def forward(self, x):
        x = x.view(x.size(0), 20 * 6)
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.out(x)

model = SensorNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(3):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: loss {running / len(train_ds):.4f}")
""",
)

_add(
    "torch: float64 tensor from pandas/numpy fed to a float32 model",
    _HOUSES + """
import torch
import torch.nn as nn

num_cols = ["LotArea", "OverallQual", "YearBuilt", "GrLivArea", "GarageCars"]
X_np = df[num_cols].to_numpy()
X_np = (X_np - X_np.mean(axis=0)) / X_np.std(axis=0)
y_np = np.log1p(df["SalePrice"].to_numpy())
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
""",
    """
X_t = torch.from_numpy(X_np)
y_t = torch.from_numpy(y_np).unsqueeze(1)
for step in range(200):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(X_t), y_t)
    loss.backward()
    opt.step()
print(loss.item())
""",
    """
X_t = torch.from_numpy(X_np).float()
y_t = torch.from_numpy(y_np).float().unsqueeze(1)
for step in range(200):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(X_t), y_t)
    loss.backward()
    opt.step()
print(loss.item())
""",
)

_add(
    "torch: torch.save of the trained weights into a folder that does not exist",
    """
import os
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(1)
rng = np.random.default_rng(1)
n = 40000
X = rng.normal(size=(n, 32)).astype("float32")
y = (np.tanh(X[:, :8].sum(1) / 3) + 0.1 * rng.normal(size=n)).astype("float32")
train_loader = DataLoader(TensorDataset(torch.from_numpy(X[:32000]), torch.from_numpy(y[:32000])),
                          batch_size=128, shuffle=True)
X_val, y_val = torch.from_numpy(X[32000:]), torch.from_numpy(y[32000:])
model = nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 1))
print(os.listdir("."))
""",
    """
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
best_val = float("inf")
best_state = None
for epoch in range(6):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val_loss = nn.functional.mse_loss(model(X_val).squeeze(1), y_val).item()
    if val_loss < best_val:
        best_val = val_loss
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
print("best val mse:", best_val)
torch.save(best_state, "models/mlp_fold0.pt")
""",
    """
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
best_val = float("inf")
best_state = None
for epoch in range(6):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val_loss = nn.functional.mse_loss(model(X_val).squeeze(1), y_val).item()
    if val_loss < best_val:
        best_val = val_loss
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
print("best val mse:", best_val)
os.makedirs("models", exist_ok=True)
torch.save(best_state, "models/mlp_fold0.pt")
""",
)

_add(
    "torch: CrossEntropyLoss with star ratings 1..5 as class labels",
    """
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(3)
rng = np.random.default_rng(3)
n = 8000
reviews = pd.DataFrame(rng.normal(size=(n, 50)).astype("float32"), columns=[f"emb_{i}" for i in range(50)])
reviews["rating"] = np.clip(np.round(3 + reviews["emb_0"] * 1.2 + rng.normal(0, 0.5, n)), 1, 5).astype(int)
print(reviews["rating"].value_counts().sort_index())

X_t = torch.tensor(reviews.filter(like="emb_").to_numpy())
y_t = torch.tensor(reviews["rating"].to_numpy())
clf = nn.Sequential(nn.Linear(50, 64), nn.ReLU(), nn.Linear(64, 5))
opt = torch.optim.Adam(clf.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
""",
    """
for epoch in range(30):
    opt.zero_grad()
    loss = loss_fn(clf(X_t), y_t)
    loss.backward()
    opt.step()
print(loss.item())
""",
    """
for epoch in range(30):
    opt.zero_grad()
    loss = loss_fn(clf(X_t), y_t - 1)
    loss.backward()
    opt.step()
print(loss.item())
""",
)

# ---------------------------------------------------------------------------
# matplotlib / seaborn (2)
# ---------------------------------------------------------------------------

_add(
    "matplotlib: plt.style.use('seaborn') style renamed in matplotlib 3.6",
    _HOUSES + """
import matplotlib.pyplot as plt
""",
    """
plt.style.use("seaborn")
fig, ax = plt.subplots(figsize=(8, 5))
ax.scatter(df["GrLivArea"], df["SalePrice"], alpha=0.4)
ax.set_xlabel("GrLivArea")
ax.set_ylabel("SalePrice")
plt.show()
""",
    """
plt.style.use("seaborn-v0_8")
fig, ax = plt.subplots(figsize=(8, 5))
ax.scatter(df["GrLivArea"], df["SalePrice"], alpha=0.4)
ax.set_xlabel("GrLivArea")
ax.set_ylabel("SalePrice")
plt.show()
""",
)

_add(
    "seaborn: seven KDE histograms drawn into a 2x3 axes grid",
    """
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(9)
n = 150000
credit = pd.DataFrame({
    "income": rng.lognormal(10.8, 0.5, n),
    "loan_amount": rng.lognormal(9.5, 0.7, n),
    "credit_score": rng.normal(680, 60, n).clip(300, 850),
    "age": rng.normal(42, 12, n).clip(18, 90),
    "dti": rng.beta(2, 5, n) * 60,
    "n_accounts": rng.poisson(6, n),
    "utilization": rng.beta(2, 3, n),
})
credit.describe()
""",
    """
num_cols = ["income", "loan_amount", "credit_score", "age", "dti", "n_accounts", "utilization"]
fig, axes = plt.subplots(2, 3, figsize=(18, 10))
axes = axes.flatten()
for i, col in enumerate(num_cols):
    sns.histplot(credit[col], kde=True, bins=60, ax=axes[i])
    axes[i].set_title(f"{col} (skew={credit[col].skew():.2f})")
plt.tight_layout()
plt.show()
""",
    """
num_cols = ["income", "loan_amount", "credit_score", "age", "dti", "n_accounts", "utilization"]
n_rows = int(np.ceil(len(num_cols) / 3))
fig, axes = plt.subplots(n_rows, 3, figsize=(18, 5 * n_rows))
axes = axes.flatten()
for i, col in enumerate(num_cols):
    sns.histplot(credit[col], kde=True, bins=60, ax=axes[i])
    axes[i].set_title(f"{col} (skew={credit[col].skew():.2f})")
for ax in axes[len(num_cols):]:
    ax.set_visible(False)
plt.tight_layout()
plt.show()
""",
)

# ---------------------------------------------------------------------------
# xgboost / lightgbm (2)
# ---------------------------------------------------------------------------

_add(
    "xgboost: predict on a test CSV whose numeric column was read as object ('-' placeholders)",
    """
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(19)

def make(n):
    out = pd.DataFrame({
        "year": rng.integers(2000, 2021, n),
        "mileage": rng.gamma(2, 30000, n).round(),
        "engine_size": rng.choice([1.0, 1.2, 1.4, 1.6, 2.0, 2.5, 3.0], n),
        "mpg": rng.normal(50, 10, n).round(1),
        "tax": rng.choice([0, 20, 125, 145, 200], n),
        "owners": rng.integers(1, 5, n),
    })
    out["price"] = (30000 - 900 * (2021 - out["year"]) - 0.05 * out["mileage"]
                    + 4000 * out["engine_size"] + rng.normal(0, 1500, n)).clip(500).round()
    return out

make(100000).to_csv("train.csv", index=False)
test_raw = make(10000).drop(columns="price").astype({"engine_size": object})
test_raw.loc[rng.random(len(test_raw)) < 0.02, "engine_size"] = "-"
test_raw.to_csv("test.csv", index=False)

train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")
features = ["year", "mileage", "engine_size", "mpg", "tax", "owners"]
print(train.dtypes)
""",
    """
model = xgb.XGBRegressor(n_estimators=500, max_depth=8, learning_rate=0.05,
                         subsample=0.8, colsample_bytree=0.8, random_state=0)
model.fit(train[features], train["price"])
print("train r2:", model.score(train[features], train["price"]))
test["price"] = model.predict(test[features])
test[["price"]].to_csv("submission.csv")
""",
    """
model = xgb.XGBRegressor(n_estimators=500, max_depth=8, learning_rate=0.05,
                         subsample=0.8, colsample_bytree=0.8, random_state=0)
model.fit(train[features], train["price"])
print("train r2:", model.score(train[features], train["price"]))
test["engine_size"] = pd.to_numeric(test["engine_size"], errors="coerce")
test["price"] = model.predict(test[features])
test[["price"]].to_csv("submission.csv")
""",
)

_add(
    "lightgbm: lgb.train early_stopping_rounds / verbose_eval keywords removed in 4.x",
    _CHURN + """
import lightgbm as lgb
""",
    """
params = {"objective": "binary", "metric": "auc", "learning_rate": 0.05,
          "num_leaves": 31, "feature_fraction": 0.8, "verbose": -1}
dtrain = lgb.Dataset(X_train, label=y_train)
dval = lgb.Dataset(X_val, label=y_val, reference=dtrain)
booster = lgb.train(params, dtrain, num_boost_round=1000, valid_sets=[dval],
                    early_stopping_rounds=50, verbose_eval=100)
print(booster.best_iteration)
""",
    """
params = {"objective": "binary", "metric": "auc", "learning_rate": 0.05,
          "num_leaves": 31, "feature_fraction": 0.8, "verbose": -1}
dtrain = lgb.Dataset(X_train, label=y_train)
dval = lgb.Dataset(X_val, label=y_val, reference=dtrain)
booster = lgb.train(params, dtrain, num_boost_round=1000, valid_sets=[dval],
                    callbacks=[lgb.early_stopping(50), lgb.log_evaluation(100)])
print(booster.best_iteration)
""",
)

# ---------------------------------------------------------------------------
# plain Python (2)
# ---------------------------------------------------------------------------

_add(
    "python: vocabulary built over all reviews, json.dump into a missing folder",
    """
import json
import re
import numpy as np
from collections import Counter

rng = np.random.default_rng(23)
words = np.array(["good", "bad", "great", "movie", "film", "plot", "acting", "boring", "loved",
                  "hated", "the", "a", "and", "was", "is", "it", "this", "not", "very", "story",
                  "characters", "ending", "music", "scenes", "director", "actor", "script", "funny",
                  "sad", "long", "short", "brilliant", "awful", "cast", "watch", "again", "never"]
                 + [f"word{i}" for i in range(3000)])
p = 1.0 / np.arange(1, len(words) + 1)
p /= p.sum()
word_ids = rng.choice(len(words), size=(150000, 60), p=p)
reviews = [" ".join(words[row]).capitalize() + "!" for row in word_ids]
print(len(reviews), reviews[0][:80])
""",
    """
counter = Counter()
for text in reviews:
    tokens = re.findall(r"[a-z']+", text.lower())
    counter.update(tokens)
vocab = {w: i + 2 for i, (w, c) in enumerate(counter.most_common()) if c >= 5}
vocab["<pad>"], vocab["<unk>"] = 0, 1
print(len(vocab))
with open("artifacts/vocab.json", "w") as f:
    json.dump(vocab, f)
""",
    """
import os

counter = Counter()
for text in reviews:
    tokens = re.findall(r"[a-z']+", text.lower())
    counter.update(tokens)
vocab = {w: i + 2 for i, (w, c) in enumerate(counter.most_common()) if c >= 5}
vocab["<pad>"], vocab["<unk>"] = 0, 1
print(len(vocab))
os.makedirs("artifacts", exist_ok=True)
with open("artifacts/vocab.json", "w") as f:
    json.dump(vocab, f)
""",
)

_add(
    "python: builtin list shadowed by a variable from an earlier cell",
    _TITANIC + """
# columns with missing values, kept for later
list = train.columns[train.isna().any()]
print(list)
""",
    """
num_cols = list(train.select_dtypes("number").columns)
num_cols.remove("PassengerId")
train[num_cols].describe()
""",
    """
num_cols = train.select_dtypes("number").columns.tolist()
num_cols.remove("PassengerId")
train[num_cols].describe()
""",
)
