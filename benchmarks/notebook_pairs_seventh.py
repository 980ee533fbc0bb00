"""A seventh set of crash/fix pairs for the notebook path: (name, setup, crashing cell, fixed cell).

Written from scratch by a helper session that read none of the tool's code, docs, tests or
earlier pair sets; every pair comes from general knowledge of Kaggle notebook code and of the
crashes people hit with the installed library versions (numpy 2.4, pandas 2.3, scikit-learn 1.9,
Keras 3 on TensorFlow 2.21, torch 2.13 CPU, matplotlib 3.11, seaborn 0.13, xgboost 3.2,
lightgbm 4.7). Each pair is (name, set-up = the earlier notebook cells, crashing target cell,
fixed target cell); the fixed cell is the small edit a Kaggle user would make, and it does the
same work as the crashing cell. All data is synthetic, made with numpy generators and fixed seeds
inside the set-up; nothing is downloaded. Some set-ups write small files into the working
directory (CSV sensor logs, a JSON file of reviews).

Emphasis of this set: long cells over bigger data. 17 of the 30 crashing cells are built to do
about 2 to 10 s of real work on a 2-core machine before they raise; 16 of them took 2 s or more in
both checker runs (the KMeans elbow loop, idx 14, took 2.85 s in run 1 but 1.57 s in run 2).
The work: row-wise apply over 600k rows, string parsing of 2.5M x 6 cells, store/item rolling
features over 730k rows, per-image loops over 150k digits,
sliding-window FFT over 1.6M samples, grid search / cross-validation / KMeans elbow loops, Keras
fits, torch training loops, seaborn panels with KDE over 1.5M flights, an xgboost fit, a loop over
30 CSV log files. The other 13 crash at once.

Mix by library (30): pandas 7, numpy 3, scikit-learn 7, Keras 3 (via `from tensorflow import
keras`) 3, torch 4, matplotlib 1 + seaborn 1, xgboost 1 + lightgbm 1, plain Python 2.

Data sets imitated: Ames house prices, Taiwan credit card default, store-item demand (retail
sales), hotel bookings, minute sensor readings, flight delays, ASHRAE-style building energy,
MNIST-like digits, vibration signals, bike sharing demand, mall customer segmentation, movie
reviews (tf-idf and JSON ratings), Titanic, energy load regression, daily sensor CSV logs.

Root causes (JunoBench-style):
  API changes in installed versions: 10 (DataFrame.append, groupby numeric_only default, np.float,
    OneHotEncoder sparse=, mean_squared_error squared=, get_feature_names, predict_classes,
    Adam(lr=), seaborn style names, LightGBM fit() early_stopping_rounds/verbose).
  Data confusion: 11 (misspelt column, text in later rows, key dtype mismatch, NaN after shift,
    1-D vs 2-D, unseen test category, NaN in features, float labels, float64 input, column order,
    a rating stored as text).
  Model confusion: 3 (Pipeline vs final step, KMeans.predict on the raw frame, numpy() on an
    output that tracks gradients).
  Off-by-one / last pass: 3 (short final FFT windows, short final DataLoader batch, a 2x3 grid
    for seven airlines).
  Notebook state: 1 (re-running a cell that already dropped a column).
  File system: 2 (saving into a folder that does not exist).

Timing table: seconds from the start of the crashing cell to its exception, measured by the
checker in two sequential full runs (other heavy work was running on the machine, so times vary).

    idx  exception            run1   run2  pair name
      0  KeyError              4.09   3.65  pandas: house-price row-wise apply then groupby on a misspelt engineered column
                            root cause: data confusion: misspelt engineered column
      1  ValueError            4.04   4.67  pandas: credit statements parsed with float(), later batch holds 'n/a' text
                            root cause: data confusion: text in later rows
      2  AttributeError        2.88   2.81  pandas: store-item rolling features then DataFrame.append (removed in pandas 2)
                            root cause: API change: DataFrame.append removed
      3  TypeError             0.00   0.00  pandas: hotel bookings groupby().mean() over text columns
                            root cause: API change: numeric_only default
      4  KeyError              0.00   0.00  pandas: re-running a cell that already dropped the reading_id column
                            root cause: notebook state: cell re-run
      5  ValueError            0.00   0.00  pandas: flight delays merged with airport table whose id column is text
                            root cause: data confusion: key dtypes differ
      6  IntCastingNaNError    3.49   2.96  pandas: energy meter time features, lag columns downcast to int32 while holding NaN
                            root cause: data confusion: NaN from shift
      7  AttributeError        3.31   3.06  numpy: per-image digit features in a loop, then np.float (removed alias)
                            root cause: API change: np.float removed
      8  ValueError            0.00   0.00  numpy: hstack of a 2-D feature matrix with a 1-D target
                            root cause: data confusion: 1-D vs 2-D
      9  ValueError            3.41   2.55  numpy: vibration-sensor sliding-window FFT, last windows run past the signal
                            root cause: off-by-one: last windows short
     10  AttributeError        7.43   9.62  sklearn: GridSearchCV over a Pipeline, then coef_ read off the Pipeline
                            root cause: model confusion: Pipeline vs estimator
     11  ValueError            4.35   3.17  sklearn: random forest on one-hot neighbourhoods, test set has an unseen neighbourhood
                            root cause: data confusion: unseen test category
     12  TypeError             0.00   0.00  sklearn: OneHotEncoder(sparse=False) keyword removed
                            root cause: API change: sparse -> sparse_output
     13  TypeError             4.75   3.99  sklearn: out-of-fold forest predictions, then mean_squared_error(squared=False)
                            root cause: API change: squared= removed
     14  ValueError            2.85   1.57  sklearn: KMeans elbow loop on scaled customers, then predict on the raw frame
                            root cause: model confusion: predict on raw frame
     15  AttributeError        0.02   0.01  sklearn: TfidfVectorizer.get_feature_names (removed, now get_feature_names_out)
                            root cause: API change: get_feature_names removed
     16  ValueError            0.01   0.01  sklearn: LogisticRegression fitted on Titanic columns with missing Age
                            root cause: data confusion: NaN in Age
     17  AttributeError        3.13   2.29  keras: digit classifier trained, then model.predict_classes (removed)
                            root cause: API change: predict_classes removed
     18  ValueError            0.00   0.00  keras: Adam(lr=...) keyword no longer recognised
                            root cause: API change: lr -> learning_rate
     19  FileNotFoundError     3.28   3.49  keras: hotel-cancellation net trained, then saved into a models/ folder that does not exist
                            root cause: file system: missing folder
     20  RuntimeError          4.65   3.14  torch: energy-load MLP trained, then .numpy() on an output that requires grad
                            root cause: model confusion: grad-tracking output
     21  RuntimeError          0.00   0.00  torch: CrossEntropyLoss given float class labels from a pandas column
                            root cause: data confusion: float labels
     22  RuntimeError          4.37   3.32  torch: DataLoader loop with a hard-coded batch size in view(), last short batch fails
                            root cause: last pass: short final batch
     23  RuntimeError          0.00   0.00  torch: float64 tensor from numpy fed to a float32 Linear layer
                            root cause: data confusion: float64 vs float32
     24  OSError               0.00   0.00  matplotlib: plt.style.use('seaborn-whitegrid') style renamed
                            root cause: API change: style renamed
     25  IndexError            4.20   4.60  seaborn: per-airline delay panels on a 2x3 grid, seventh airline indexes past the axes
                            root cause: last pass: grid too small
     26  ValueError            3.52   4.12  xgboost: demand regressor fitted, test frame built with columns in another order
                            root cause: data confusion: column order
     27  TypeError             0.00   0.00  lightgbm: early_stopping_rounds and verbose passed to fit() (removed in 4.x)
                            root cause: API change: fit() kwargs removed
     28  FileNotFoundError     4.50   2.88  python: loop over daily sensor CSV logs, summary written into a missing results/ folder
                            root cause: file system: missing folder
     29  TypeError             0.00   0.00  python: averaging review ratings where one record stores the rating as text
                            root cause: data confusion: rating stored as text

How truth was decided: a checker (kept outside the repository) ran every pair, one process at a
time, each variant in a fresh `.venv/bin/python` process and a fresh temporary working directory:
exec(compile(setup, '<setup>', 'exec'), ns) then exec(compile(cell, '<cell>', 'exec'), ns) in one
namespace dict. A crash variant counts only if the set-up succeeds and the cell raises with a
traceback passing through '<cell>'; a fixed variant only if set-up and cell both finish without
raising (warnings allowed). The whole check was run twice, sequentially: run 1 60/60, run 2
60/60, same exception type for every crash in both runs; 16 crashing cells took 2 s or more
in both runs. Longest fixed cell 11.0 s, longest set-up 6.4 s, peak resident memory of
any process 840 MB.
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup.strip() + "\n", crash.strip() + "\n", fixed.strip() + "\n"))


# ---------------------------------------------------------------- shared data generators (kept as text)

_HOUSES = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n = 600_000
neigh = np.array(['NAmes', 'CollgCr', 'OldTown', 'Edwards', 'Somerst', 'Gilbert', 'NridgHt', 'Sawyer'])
houses = pd.DataFrame({
    'Id': np.arange(1, n + 1),
    'GrLivArea': rng.integers(500, 4500, n),
    'TotalBsmtSF': rng.integers(0, 2500, n),
    'YearBuilt': rng.integers(1880, 2010, n),
    'YrSold': rng.integers(2006, 2011, n),
    'OverallQual': rng.integers(1, 11, n),
    'Neighborhood': rng.choice(neigh, n),
})
houses['SalePrice'] = (40_000 + 55 * houses['GrLivArea'] + 20 * houses['TotalBsmtSF']
                       + 9_000 * houses['OverallQual'] + rng.normal(0, 15_000, n)).round(0)
"""

_CREDIT = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
n = 30_000
credit = pd.DataFrame({
    'LIMIT_BAL': rng.integers(10, 800, n) * 1000.0,
    'SEX': rng.integers(1, 3, n),
    'EDUCATION': rng.integers(1, 5, n),
    'MARRIAGE': rng.integers(1, 4, n),
    'AGE': rng.integers(21, 75, n),
})
for k in range(1, 7):
    credit[f'PAY_{k}'] = rng.integers(-2, 9, n)
    credit[f'BILL_AMT{k}'] = rng.normal(50_000, 30_000, n).round(0)
    credit[f'PAY_AMT{k}'] = rng.exponential(5_000, n).round(0)
logit = 0.35 * credit['PAY_1'] - credit['LIMIT_BAL'] / 400_000 - 1.2
credit['default.payment.next.month'] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
"""

_SALES = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
dates = pd.date_range('2013-01-01', periods=1461, freq='D')
stores, items = np.arange(1, 11), np.arange(1, 51)
idx = pd.MultiIndex.from_product([stores, items, dates], names=['store', 'item', 'date'])
sales = idx.to_frame(index=False)
season = 1 + 0.3 * np.sin(2 * np.pi * sales['date'].dt.dayofyear.to_numpy() / 365.0)
sales['sales'] = rng.poisson(20 * season * (1 + sales['item'].to_numpy() / 50.0))
"""

_FLIGHTS = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n = 1_500_000
airlines = np.array(['AA', 'DL', 'UA', 'WN', 'B6', 'AS', 'NK'])
flights = pd.DataFrame({
    'AIRLINE': rng.choice(airlines, n),
    'ORIGIN_AIRPORT_ID': rng.choice([10397, 11298, 12892, 13930, 14107, 14771], n),
    'DEP_HOUR': rng.integers(5, 24, n),
    'DISTANCE': rng.integers(100, 2800, n),
})
flights['DEP_DELAY'] = (rng.gamma(1.5, 9, n) - 8 + 0.8 * flights['DEP_HOUR']).round(0)
"""

# ---------------------------------------------------------------- pandas (7)

_add("pandas: house-price row-wise apply then groupby on a misspelt engineered column", _HOUSES, """
def price_per_sf(row):
    total_sf = row['GrLivArea'] + row['TotalBsmtSF']
    return row['SalePrice'] / total_sf

houses['price_per_sf'] = houses.apply(price_per_sf, axis=1)
houses['house_age'] = houses['YrSold'] - houses['YearBuilt']
nbhd_stats = houses.groupby('Neighborhood')['PricePerSF'].agg(['median', 'mean', 'count'])
nbhd_stats.sort_values('median', ascending=False)
""", """
def price_per_sf(row):
    total_sf = row['GrLivArea'] + row['TotalBsmtSF']
    return row['SalePrice'] / total_sf

houses['price_per_sf'] = houses.apply(price_per_sf, axis=1)
houses['house_age'] = houses['YrSold'] - houses['YearBuilt']
nbhd_stats = houses.groupby('Neighborhood')['price_per_sf'].agg(['median', 'mean', 'count'])
nbhd_stats.sort_values('median', ascending=False)
""")

_add("pandas: credit statements parsed with float(), later batch holds 'n/a' text", """
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
n = 2_520_000
amount_cols = ['BILL_AMT1', 'BILL_AMT2', 'BILL_AMT3', 'PAY_AMT1', 'PAY_AMT2', 'PAY_AMT3']
stmt = pd.DataFrame({'ID': np.arange(n), 'month': np.repeat(np.arange(1, 10), n // 9)})
pool = np.array([f'{v:,.2f} ' for v in rng.exponential(20_000, 50_000)], dtype=object)
for col in amount_cols:
    stmt[col] = pool[rng.integers(0, pool.size, n)]
# the September export came out of another system: blank amounts written as 'n/a'
late = np.flatnonzero(stmt['month'].to_numpy() == 9)
bad = late[rng.random(late.size) < 0.02]
stmt.loc[bad, 'PAY_AMT3'] = 'n/a'
""", """
def to_amount(s):
    s = s.strip().replace(',', '')
    return float(s)

for col in amount_cols:
    stmt[col] = stmt[col].apply(to_amount)
stmt['pay_ratio'] = stmt['PAY_AMT1'] / stmt['BILL_AMT1'].clip(lower=1)
stmt.groupby('month')['pay_ratio'].median()
""", """
def to_amount(s):
    s = s.strip().replace(',', '')
    try:
        return float(s)
    except ValueError:
        return np.nan

for col in amount_cols:
    stmt[col] = stmt[col].apply(to_amount)
stmt['pay_ratio'] = stmt['PAY_AMT1'] / stmt['BILL_AMT1'].clip(lower=1)
stmt.groupby('month')['pay_ratio'].median()
""")

_add("pandas: store-item rolling features then DataFrame.append (removed in pandas 2)", _SALES, """
sales = sales.sort_values(['store', 'item', 'date'])
holidays = {(1, 1), (7, 4), (11, 24), (12, 25), (12, 31)}
sales['is_holiday'] = sales['date'].apply(lambda d: (d.month, d.day) in holidays)
sales['weekday'] = sales['date'].apply(lambda d: d.day_name())
sales['roll_7'] = sales.groupby(['store', 'item'])['sales'].transform(lambda s: s.rolling(7, min_periods=1).mean())
sales['roll_28'] = sales.groupby(['store', 'item'])['sales'].transform(lambda s: s.rolling(28, min_periods=1).mean())
sales['lag_7'] = sales.groupby(['store', 'item'])['sales'].shift(7)

summary = pd.DataFrame()
for store_id, g in sales.groupby('store'):
    row = {'store': store_id, 'total': g['sales'].sum(), 'mean_roll_28': g['roll_28'].mean()}
    summary = summary.append(row, ignore_index=True)
summary.sort_values('total', ascending=False)
""", """
sales = sales.sort_values(['store', 'item', 'date'])
holidays = {(1, 1), (7, 4), (11, 24), (12, 25), (12, 31)}
sales['is_holiday'] = sales['date'].apply(lambda d: (d.month, d.day) in holidays)
sales['weekday'] = sales['date'].apply(lambda d: d.day_name())
sales['roll_7'] = sales.groupby(['store', 'item'])['sales'].transform(lambda s: s.rolling(7, min_periods=1).mean())
sales['roll_28'] = sales.groupby(['store', 'item'])['sales'].transform(lambda s: s.rolling(28, min_periods=1).mean())
sales['lag_7'] = sales.groupby(['store', 'item'])['sales'].shift(7)

rows = []
for store_id, g in sales.groupby('store'):
    row = {'store': store_id, 'total': g['sales'].sum(), 'mean_roll_28': g['roll_28'].mean()}
    rows.append(row)
summary = pd.DataFrame(rows)
summary.sort_values('total', ascending=False)
""")

_add("pandas: hotel bookings groupby().mean() over text columns", """
import numpy as np
import pandas as pd

rng = np.random.default_rng(8)
n = 5_000
bookings = pd.DataFrame({
    'hotel': rng.choice(['Resort Hotel', 'City Hotel'], n),
    'lead_time': rng.integers(0, 400, n),
    'adr': rng.normal(100, 30, n).round(2),
    'country': rng.choice(['PRT', 'GBR', 'FRA', 'ESP', 'DEU'], n),
    'meal': rng.choice(['BB', 'HB', 'FB', 'SC'], n),
    'is_canceled': rng.integers(0, 2, n),
})
""", """
by_hotel = bookings.groupby('hotel').mean()
by_hotel[['lead_time', 'adr', 'is_canceled']]
""", """
by_hotel = bookings.groupby('hotel').mean(numeric_only=True)
by_hotel[['lead_time', 'adr', 'is_canceled']]
""")

_add("pandas: re-running a cell that already dropped the reading_id column", """
import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
idx = pd.date_range('2023-03-01', periods=2_000, freq='min')
sensors = pd.DataFrame(rng.normal(20, 2, (2_000, 4)), index=idx,
                       columns=['temp_c', 'humidity', 'pressure', 'co2'])
sensors.insert(0, 'reading_id', np.arange(2_000))

# the cleaning cell below was already run once in this session
sensors = sensors.drop(columns=['reading_id'])
sensors['temp_f'] = sensors['temp_c'] * 9 / 5 + 32
""", """
sensors = sensors.drop(columns=['reading_id'])
sensors['temp_f'] = sensors['temp_c'] * 9 / 5 + 32
sensors.resample('h').mean().describe()
""", """
sensors = sensors.drop(columns=['reading_id'], errors='ignore')
sensors['temp_f'] = sensors['temp_c'] * 9 / 5 + 32
sensors.resample('h').mean().describe()
""")

_add("pandas: flight delays merged with airport table whose id column is text", """
import numpy as np
import pandas as pd

rng = np.random.default_rng(4)
flights = pd.DataFrame({
    'ORIGIN_AIRPORT_ID': rng.choice([10397, 11298, 12892, 13930], 3_000),
    'DEP_DELAY': rng.normal(10, 25, 3_000).round(0),
})
airports = pd.DataFrame({'AIRPORT_ID': ['10397', '11298', '12892', '13930'],
                         'CITY': ['Atlanta', 'Dallas', 'Los Angeles', 'Chicago']})
""", """
flights_city = flights.merge(airports, left_on='ORIGIN_AIRPORT_ID', right_on='AIRPORT_ID', how='left')
flights_city.groupby('CITY')['DEP_DELAY'].mean()
""", """
airports['AIRPORT_ID'] = airports['AIRPORT_ID'].astype(int)
flights_city = flights.merge(airports, left_on='ORIGIN_AIRPORT_ID', right_on='AIRPORT_ID', how='left')
flights_city.groupby('CITY')['DEP_DELAY'].mean()
""")

_add("pandas: energy meter time features, lag columns downcast to int32 while holding NaN", """
import numpy as np
import pandas as pd

rng = np.random.default_rng(9)
ts = pd.date_range('2016-01-01', periods=7_000, freq='h')
n_b = 200
energy = pd.DataFrame({
    'building_id': np.repeat(np.arange(n_b), ts.size),
    'timestamp': np.tile(ts, n_b),
})
energy['meter_reading'] = rng.gamma(2.0, 150.0, len(energy)).round(0)
""", """
energy['hour'] = energy['timestamp'].apply(lambda t: t.hour)
energy['is_weekend'] = energy['timestamp'].apply(lambda t: t.weekday() >= 5)
energy['lag_1'] = energy.groupby('building_id')['meter_reading'].shift(1)
energy['lag_24'] = energy.groupby('building_id')['meter_reading'].shift(24)
for col in ['meter_reading', 'lag_1', 'lag_24']:
    energy[col] = energy[col].astype('int32')
energy.memory_usage(deep=True).sum() / 1e6
""", """
energy['hour'] = energy['timestamp'].apply(lambda t: t.hour)
energy['is_weekend'] = energy['timestamp'].apply(lambda t: t.weekday() >= 5)
energy['lag_1'] = energy.groupby('building_id')['meter_reading'].shift(1)
energy['lag_24'] = energy.groupby('building_id')['meter_reading'].shift(24)
for col in ['meter_reading', 'lag_1', 'lag_24']:
    energy[col] = energy[col].fillna(-1).astype('int32')
energy.memory_usage(deep=True).sum() / 1e6
""")

# ---------------------------------------------------------------- numpy (3)

_add("numpy: per-image digit features in a loop, then np.float (removed alias)", """
import numpy as np

rng = np.random.default_rng(0)
n_img = 150_000
images = np.zeros((n_img, 28, 28), dtype=np.uint8)
rows = rng.integers(4, 20, n_img)
cols = rng.integers(4, 20, n_img)
for k in range(8):
    images[np.arange(n_img), rows + k, cols] = 255
    images[np.arange(n_img), rows, cols + k] = 200
labels = rng.integers(0, 10, n_img)
""", """
feats = []
for img in images:
    ink = img > 64
    ys, xs = np.nonzero(ink)
    feats.append([
        ink.mean(),
        ys.mean() if ys.size else 0.0,
        xs.mean() if xs.size else 0.0,
        ink.sum(axis=0).max(),
        ink.sum(axis=1).max(),
        np.abs(np.diff(ink.astype(np.int8), axis=1)).sum(),
    ])
X = np.array(feats).astype(np.float)
X.shape
""", """
feats = []
for img in images:
    ink = img > 64
    ys, xs = np.nonzero(ink)
    feats.append([
        ink.mean(),
        ys.mean() if ys.size else 0.0,
        xs.mean() if xs.size else 0.0,
        ink.sum(axis=0).max(),
        ink.sum(axis=1).max(),
        np.abs(np.diff(ink.astype(np.int8), axis=1)).sum(),
    ])
X = np.array(feats).astype(np.float32)
X.shape
""")

_add("numpy: hstack of a 2-D feature matrix with a 1-D target", """
import numpy as np

rng = np.random.default_rng(1)
X_train = rng.normal(size=(1_000, 8))
y_train = rng.integers(0, 2, 1_000)
""", """
train_arr = np.hstack([X_train, y_train])
np.savetxt('train_with_target.csv', train_arr, delimiter=',')
""", """
train_arr = np.hstack([X_train, y_train[:, None]])
np.savetxt('train_with_target.csv', train_arr, delimiter=',')
""")

_add("numpy: vibration-sensor sliding-window FFT, last windows run past the signal", """
import numpy as np

rng = np.random.default_rng(2)
fs = 1_000
t = np.arange(1_600_000) / fs
signal = np.sin(2 * np.pi * 50 * t) + 0.3 * np.sin(2 * np.pi * 120 * t) + rng.normal(0, 0.5, t.size)
W, step = 256, 8
""", """
starts = range(0, len(signal), step)
spec = np.zeros((len(starts), W // 2))
for j, s in enumerate(starts):
    w = signal[s:s + W] * np.hanning(W)
    spec[j] = np.abs(np.fft.rfft(w))[:W // 2]
band_energy = spec[:, 10:20].sum(axis=1)
band_energy.mean()
""", """
starts = range(0, len(signal) - W + 1, step)
spec = np.zeros((len(starts), W // 2))
for j, s in enumerate(starts):
    w = signal[s:s + W] * np.hanning(W)
    spec[j] = np.abs(np.fft.rfft(w))[:W // 2]
band_energy = spec[:, 10:20].sum(axis=1)
band_energy.mean()
""")

# ---------------------------------------------------------------- scikit-learn (7)

_add("sklearn: GridSearchCV over a Pipeline, then coef_ read off the Pipeline", _CREDIT + """
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV

X = credit.drop(columns=['default.payment.next.month'])
y = credit['default.payment.next.month']
pipe = Pipeline([('scaler', StandardScaler()), ('logreg', LogisticRegression(max_iter=500))])
""", """
grid = GridSearchCV(pipe, {'logreg__C': [0.001, 0.01, 0.1, 1, 10, 100],
                                  'logreg__class_weight': [None, 'balanced']}, cv=5, scoring='roc_auc', n_jobs=1)
grid.fit(X, y)
print(grid.best_params_, round(grid.best_score_, 4))
coefs = pd.Series(grid.best_estimator_.coef_[0], index=X.columns).sort_values()
coefs.tail(10)
""", """
grid = GridSearchCV(pipe, {'logreg__C': [0.001, 0.01, 0.1, 1, 10, 100],
                                  'logreg__class_weight': [None, 'balanced']}, cv=5, scoring='roc_auc', n_jobs=1)
grid.fit(X, y)
print(grid.best_params_, round(grid.best_score_, 4))
coefs = pd.Series(grid.best_estimator_.named_steps['logreg'].coef_[0], index=X.columns).sort_values()
coefs.tail(10)
""")

_add("sklearn: random forest on one-hot neighbourhoods, test set has an unseen neighbourhood", _HOUSES + """
from sklearn.preprocessing import OneHotEncoder
from sklearn.ensemble import RandomForestRegressor

train = houses.iloc[:20_000].copy()
test = houses.iloc[20_000:25_000].copy()
test.loc[test.index[::50], 'Neighborhood'] = 'Blueste'   # a neighbourhood only present in test.csv
num_cols = ['GrLivArea', 'TotalBsmtSF', 'YearBuilt', 'OverallQual']
""", """
enc = OneHotEncoder(sparse_output=False)
X_train = np.hstack([train[num_cols].to_numpy(), enc.fit_transform(train[['Neighborhood']])])
rf = RandomForestRegressor(n_estimators=90, max_depth=14, random_state=0, n_jobs=1)
rf.fit(X_train, np.log1p(train['SalePrice']))
X_test = np.hstack([test[num_cols].to_numpy(), enc.transform(test[['Neighborhood']])])
pred = np.expm1(rf.predict(X_test))
pred[:5]
""", """
enc = OneHotEncoder(sparse_output=False, handle_unknown='ignore')
X_train = np.hstack([train[num_cols].to_numpy(), enc.fit_transform(train[['Neighborhood']])])
rf = RandomForestRegressor(n_estimators=90, max_depth=14, random_state=0, n_jobs=1)
rf.fit(X_train, np.log1p(train['SalePrice']))
X_test = np.hstack([test[num_cols].to_numpy(), enc.transform(test[['Neighborhood']])])
pred = np.expm1(rf.predict(X_test))
pred[:5]
""")

_add("sklearn: OneHotEncoder(sparse=False) keyword removed", """
import numpy as np
import pandas as pd

rng = np.random.default_rng(6)
bookings = pd.DataFrame({
    'hotel': rng.choice(['Resort Hotel', 'City Hotel'], 2_000),
    'meal': rng.choice(['BB', 'HB', 'FB', 'SC'], 2_000),
    'market_segment': rng.choice(['Online TA', 'Offline TA/TO', 'Direct', 'Groups'], 2_000),
})
from sklearn.preprocessing import OneHotEncoder
""", """
enc = OneHotEncoder(sparse=False, handle_unknown='ignore')
cat_matrix = enc.fit_transform(bookings[['hotel', 'meal', 'market_segment']])
cat_matrix.shape
""", """
enc = OneHotEncoder(sparse_output=False, handle_unknown='ignore')
cat_matrix = enc.fit_transform(bookings[['hotel', 'meal', 'market_segment']])
cat_matrix.shape
""")

_add("sklearn: out-of-fold forest predictions, then mean_squared_error(squared=False)", """
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.metrics import mean_squared_error, root_mean_squared_error

rng = np.random.default_rng(13)
n = 24_000
bike = pd.DataFrame({
    'hour': rng.integers(0, 24, n),
    'temp': rng.normal(18, 8, n),
    'humidity': rng.uniform(20, 100, n),
    'windspeed': rng.gamma(2, 6, n),
    'workingday': rng.integers(0, 2, n),
    'season': rng.integers(1, 5, n),
})
bike['count'] = (60 + 12 * bike['temp'] + 80 * np.exp(-((bike['hour'] - 17) ** 2) / 6)
                 + 40 * bike['workingday'] - 0.8 * bike['humidity'] + rng.normal(0, 25, n)).clip(lower=0)
X, y = bike.drop(columns='count'), bike['count']
""", """
rf = RandomForestRegressor(n_estimators=30, min_samples_leaf=3, random_state=0, n_jobs=1)
oof = cross_val_predict(rf, X, y, cv=KFold(4, shuffle=True, random_state=0))
rmse = mean_squared_error(y, oof, squared=False)
print(f'OOF RMSE: {rmse:.2f}')
""", """
rf = RandomForestRegressor(n_estimators=30, min_samples_leaf=3, random_state=0, n_jobs=1)
oof = cross_val_predict(rf, X, y, cv=KFold(4, shuffle=True, random_state=0))
rmse = root_mean_squared_error(y, oof)
print(f'OOF RMSE: {rmse:.2f}')
""")

_add("sklearn: KMeans elbow loop on scaled customers, then predict on the raw frame", """
import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler
from sklearn.cluster import KMeans

rng = np.random.default_rng(17)
n = 150_000
centers = np.array([[25, 30, 80], [45, 85, 20], [35, 60, 50], [55, 30, 30], [30, 90, 85]])
grp = rng.integers(0, 5, n)
vals = centers[grp] + rng.normal(0, 6, (n, 3))
customers = pd.DataFrame({
    'CustomerID': np.arange(1, n + 1),
    'Gender': rng.choice(['Male', 'Female'], n),
    'Age': vals[:, 0].round(0),
    'Annual Income (k$)': vals[:, 1].round(0),
    'Spending Score (1-100)': vals[:, 2].clip(1, 100).round(0),
})
features = ['Age', 'Annual Income (k$)', 'Spending Score (1-100)']
X_scaled = StandardScaler().fit_transform(customers[features])
""", """
inertias = {}
for k in range(2, 9):
    km = KMeans(n_clusters=k, n_init=2, random_state=42)
    km.fit(X_scaled)
    inertias[k] = km.inertia_
km = KMeans(n_clusters=5, n_init=2, random_state=42).fit(X_scaled)
customers['cluster'] = km.predict(customers)
customers.groupby('cluster')[features].mean()
""", """
inertias = {}
for k in range(2, 9):
    km = KMeans(n_clusters=k, n_init=2, random_state=42)
    km.fit(X_scaled)
    inertias[k] = km.inertia_
km = KMeans(n_clusters=5, n_init=2, random_state=42).fit(X_scaled)
customers['cluster'] = km.predict(X_scaled)
customers.groupby('cluster')[features].mean()
""")

_add("sklearn: TfidfVectorizer.get_feature_names (removed, now get_feature_names_out)", """
import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

rng = np.random.default_rng(10)
words = np.array(['great', 'awful', 'plot', 'acting', 'boring', 'brilliant', 'movie', 'film',
                  'loved', 'hated', 'script', 'cast', 'slow', 'funny', 'sequel'])
reviews = [' '.join(rng.choice(words, 12)) for _ in range(500)]
""", """
vec = TfidfVectorizer(min_df=2, ngram_range=(1, 2))
X_text = vec.fit_transform(reviews)
vocab = vec.get_feature_names()
len(vocab), X_text.shape
""", """
vec = TfidfVectorizer(min_df=2, ngram_range=(1, 2))
X_text = vec.fit_transform(reviews)
vocab = vec.get_feature_names_out()
len(vocab), X_text.shape
""")

_add("sklearn: LogisticRegression fitted on Titanic columns with missing Age", """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

rng = np.random.default_rng(14)
n = 891
titanic = pd.DataFrame({
    'Pclass': rng.integers(1, 4, n),
    'Age': rng.normal(30, 14, n).clip(1, 80).round(0),
    'SibSp': rng.integers(0, 4, n),
    'Fare': rng.exponential(30, n).round(2),
    'Survived': rng.integers(0, 2, n),
})
titanic.loc[rng.random(n) < 0.2, 'Age'] = np.nan
""", """
X = titanic[['Pclass', 'Age', 'SibSp', 'Fare']]
clf = LogisticRegression(max_iter=1000).fit(X, titanic['Survived'])
clf.score(X, titanic['Survived'])
""", """
X = titanic[['Pclass', 'Age', 'SibSp', 'Fare']].fillna({'Age': titanic['Age'].median()})
clf = LogisticRegression(max_iter=1000).fit(X, titanic['Survived'])
clf.score(X, titanic['Survived'])
""")

# ---------------------------------------------------------------- Keras 3 (3)

_KERAS_IMPORTS = """
import os
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
import numpy as np
import pandas as pd
import tensorflow as tf
from tensorflow import keras
keras.utils.set_random_seed(0)
"""

_add("keras: digit classifier trained, then model.predict_classes (removed)", _KERAS_IMPORTS + """
rng = np.random.default_rng(0)
n = 24_000
y_all = rng.integers(0, 10, n)
protos = rng.random((10, 784)).astype('float32')
X_all = (protos[y_all] + rng.normal(0, 0.6, (n, 784))).astype('float32')
X_train, X_test = X_all[:20_000], X_all[20_000:]
y_train, y_test = y_all[:20_000], y_all[20_000:]
model = keras.Sequential([
    keras.Input(shape=(784,)),
    keras.layers.Dense(256, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dense(10, activation='softmax'),
])
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
""", """
history = model.fit(X_train, y_train, epochs=3, batch_size=128, validation_split=0.1, verbose=0)
pred_labels = model.predict_classes(X_test)
(pred_labels == y_test).mean()
""", """
history = model.fit(X_train, y_train, epochs=3, batch_size=128, validation_split=0.1, verbose=0)
pred_labels = np.argmax(model.predict(X_test, verbose=0), axis=1)
(pred_labels == y_test).mean()
""")

_add("keras: Adam(lr=...) keyword no longer recognised", _KERAS_IMPORTS + """
model = keras.Sequential([
    keras.Input(shape=(12,)),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
""", """
opt = keras.optimizers.Adam(lr=1e-3)
model.compile(optimizer=opt, loss='binary_crossentropy', metrics=['AUC'])
model.summary()
""", """
opt = keras.optimizers.Adam(learning_rate=1e-3)
model.compile(optimizer=opt, loss='binary_crossentropy', metrics=['AUC'])
model.summary()
""")

_add("keras: hotel-cancellation net trained, then saved into a models/ folder that does not exist", _KERAS_IMPORTS + """
rng = np.random.default_rng(15)
n = 60_000
Xh = np.column_stack([
    rng.integers(0, 400, n) / 400.0,
    rng.normal(100, 30, n) / 100.0,
    rng.integers(0, 2, n),
    rng.integers(0, 5, n) / 5.0,
    rng.integers(0, 3, n) / 3.0,
    rng.random((n, 11)),
]).astype('float32')
yh = (rng.random(n) < 0.2 + 0.5 * Xh[:, 0]).astype('float32')
model = keras.Sequential([
    keras.Input(shape=(16,)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='binary_crossentropy')
""", """
model.fit(Xh, yh, epochs=10, batch_size=256, validation_split=0.2, verbose=0)
model.save('models/hotel_cancel_v1.keras')
print('saved')
""", """
model.fit(Xh, yh, epochs=10, batch_size=256, validation_split=0.2, verbose=0)
os.makedirs('models', exist_ok=True)
model.save('models/hotel_cancel_v1.keras')
print('saved')
""")

# ---------------------------------------------------------------- torch (4)

_TORCH_IMPORTS = """
import numpy as np
import torch
import torch.nn as nn
torch.set_num_threads(1)
torch.manual_seed(0)
"""

_add("torch: energy-load MLP trained, then .numpy() on an output that requires grad", _TORCH_IMPORTS + """
rng = np.random.default_rng(16)
n = 100_000
X_np = rng.normal(size=(n, 10)).astype('float32')
y_np = (X_np[:, 0] * 2 + np.sin(X_np[:, 1]) + 0.1 * rng.normal(size=n)).astype('float32')
X_t, y_t = torch.from_numpy(X_np), torch.from_numpy(y_np).unsqueeze(1)
X_test = torch.from_numpy(rng.normal(size=(5_000, 10)).astype('float32'))
model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
""", """
for epoch in range(12):
    perm = torch.randperm(n)
    for i in range(0, n, 128):
        idx = perm[i:i + 128]
        opt.zero_grad()
        loss = loss_fn(model(X_t[idx]), y_t[idx])
        loss.backward()
        opt.step()
preds = model(X_test).numpy().ravel()
preds[:5]
""", """
for epoch in range(12):
    perm = torch.randperm(n)
    for i in range(0, n, 128):
        idx = perm[i:i + 128]
        opt.zero_grad()
        loss = loss_fn(model(X_t[idx]), y_t[idx])
        loss.backward()
        opt.step()
with torch.no_grad():
    preds = model(X_test).numpy().ravel()
preds[:5]
""")

_add("torch: CrossEntropyLoss given float class labels from a pandas column", _TORCH_IMPORTS + """
import pandas as pd
rng = np.random.default_rng(18)
df = pd.DataFrame(rng.normal(size=(512, 6)), columns=[f'f{i}' for i in range(6)])
df['label'] = rng.integers(0, 3, 512).astype(float)   # came back as float after a fillna
X_b = torch.tensor(df.drop(columns='label').values, dtype=torch.float32)
y_b = torch.tensor(df['label'].values, dtype=torch.float32)
clf = nn.Linear(6, 3)
criterion = nn.CrossEntropyLoss()
""", """
logits = clf(X_b)
loss = criterion(logits, y_b)
loss.backward()
loss.item()
""", """
logits = clf(X_b)
loss = criterion(logits, y_b.long())
loss.backward()
loss.item()
""")

_add("torch: DataLoader loop with a hard-coded batch size in view(), last short batch fails", _TORCH_IMPORTS + """
from torch.utils.data import TensorDataset, DataLoader
rng = np.random.default_rng(19)
n = 640_032   # not a multiple of 64: the last batch has 32 rows
Xc = torch.from_numpy(rng.normal(size=(n, 20)).astype('float32'))
yc = torch.from_numpy((rng.random(n) < 0.3).astype('float32'))
BATCH_SIZE = 64
loader = DataLoader(TensorDataset(Xc, yc), batch_size=BATCH_SIZE, shuffle=True)
net = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
criterion = nn.BCEWithLogitsLoss()
""", """
for epoch in range(2):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        out = net(xb).view(BATCH_SIZE)
        loss = criterion(out, yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total / len(loader))
""", """
for epoch in range(2):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        out = net(xb).view(-1)
        loss = criterion(out, yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total / len(loader))
""")

_add("torch: float64 tensor from numpy fed to a float32 Linear layer", _TORCH_IMPORTS + """
rng = np.random.default_rng(20)
X_np = rng.normal(size=(256, 8))          # float64 by default
reg = nn.Linear(8, 1)
""", """
X_in = torch.from_numpy(X_np)
out = reg(X_in)
out.shape
""", """
X_in = torch.from_numpy(X_np).float()
out = reg(X_in)
out.shape
""")

# ---------------------------------------------------------------- matplotlib / seaborn (2)

_add("matplotlib: plt.style.use('seaborn-whitegrid') style renamed", """
import numpy as np
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

rng = np.random.default_rng(22)
temps = rng.normal(15, 7, 365)
""", """
plt.style.use('seaborn-whitegrid')
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(temps)
ax.set_title('Daily mean temperature')
""", """
plt.style.use('seaborn-v0_8-whitegrid')
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(temps)
ax.set_title('Daily mean temperature')
""")

_add("seaborn: per-airline delay panels on a 2x3 grid, seventh airline indexes past the axes", _FLIGHTS + """
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import seaborn as sns
""", """
flights['late_15'] = flights['DEP_DELAY'] > 15
hourly = flights.groupby(['AIRLINE', 'DEP_HOUR']).agg(p90=('DEP_DELAY', lambda s: s.quantile(0.9)),
                                                     late_rate=('late_15', 'mean')).reset_index()
fig, axes = plt.subplots(2, 3, figsize=(15, 8))
for i, (airline, g) in enumerate(flights.groupby('AIRLINE')):
    ax = axes.flat[i]
    sns.histplot(g['DEP_DELAY'].clip(-20, 120), bins=60, kde=True, ax=ax)
    ax.set_title(airline)
plt.tight_layout()
""", """
flights['late_15'] = flights['DEP_DELAY'] > 15
hourly = flights.groupby(['AIRLINE', 'DEP_HOUR']).agg(p90=('DEP_DELAY', lambda s: s.quantile(0.9)),
                                                     late_rate=('late_15', 'mean')).reset_index()
fig, axes = plt.subplots(3, 3, figsize=(15, 12))
for i, (airline, g) in enumerate(flights.groupby('AIRLINE')):
    ax = axes.flat[i]
    sns.histplot(g['DEP_DELAY'].clip(-20, 120), bins=60, kde=True, ax=ax)
    ax.set_title(airline)
plt.tight_layout()
""")

# ---------------------------------------------------------------- xgboost / lightgbm (2)

_add("xgboost: demand regressor fitted, test frame built with columns in another order", _SALES + """
import xgboost as xgb

sales['dow'] = sales['date'].dt.dayofweek
sales['month'] = sales['date'].dt.month
sales['dayofyear'] = sales['date'].dt.dayofyear
feat_cols = ['store', 'item', 'dow', 'month', 'dayofyear']
train = sales[sales['date'] >= '2015-01-01']
X_train, y_train = train[feat_cols], train['sales']
future = pd.date_range('2017-01-01', periods=30, freq='D')
grid = pd.MultiIndex.from_product([np.arange(1, 11), np.arange(1, 51), future],
                                  names=['store', 'item', 'date']).to_frame(index=False)
X_test = pd.DataFrame({'dayofyear': grid['date'].dt.dayofyear, 'month': grid['date'].dt.month,
                       'dow': grid['date'].dt.dayofweek, 'store': grid['store'], 'item': grid['item']})
""", """
model = xgb.XGBRegressor(n_estimators=500, max_depth=7, learning_rate=0.1, n_jobs=1, random_state=0)
model.fit(X_train, y_train)
test_pred = model.predict(X_test)
test_pred.mean()
""", """
model = xgb.XGBRegressor(n_estimators=500, max_depth=7, learning_rate=0.1, n_jobs=1, random_state=0)
model.fit(X_train, y_train)
test_pred = model.predict(X_test[X_train.columns])
test_pred.mean()
""")

_add("lightgbm: early_stopping_rounds and verbose passed to fit() (removed in 4.x)", _CREDIT + """
import lightgbm as lgb
from sklearn.model_selection import train_test_split

X = credit.drop(columns=['default.payment.next.month'])
y = credit['default.payment.next.month']
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
""", """
clf = lgb.LGBMClassifier(n_estimators=2000, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1)
clf.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], eval_metric='auc',
        early_stopping_rounds=100, verbose=200)
clf.best_iteration_
""", """
clf = lgb.LGBMClassifier(n_estimators=2000, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1)
clf.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], eval_metric='auc',
        callbacks=[lgb.early_stopping(100, verbose=False), lgb.log_evaluation(200)])
clf.best_iteration_
""")

# ---------------------------------------------------------------- plain Python (2)

_add("python: loop over daily sensor CSV logs, summary written into a missing results/ folder", """
import os
import csv
import json
from datetime import datetime
import numpy as np
import pandas as pd

rng = np.random.default_rng(23)
os.makedirs('sensor_logs', exist_ok=True)
m = 17_000
for day in range(1, 31):
    ts = pd.date_range(f'2023-06-{day:02d}', periods=m, freq='7s').strftime('%Y-%m-%d %H:%M:%S')
    pd.DataFrame({'ts': ts, 'sensor_id': rng.integers(0, 8, m), 'temp': rng.normal(21, 3, m).round(3),
                  'humidity': rng.normal(45, 10, m).round(3)}).to_csv(f'sensor_logs/day_{day:02d}.csv', index=False)
""", """
stats = {}
for fname in sorted(os.listdir('sensor_logs')):
    with open(os.path.join('sensor_logs', fname)) as fh:
        for rec in csv.DictReader(fh):
            s = stats.setdefault(rec['sensor_id'], {'n': 0, 'temp_sum': 0.0, 'max_hum': -1e9, 'night': 0})
            when = datetime.strptime(rec['ts'], '%Y-%m-%d %H:%M:%S')
            s['night'] += when.hour < 6
            s['n'] += 1
            s['temp_sum'] += float(rec['temp'])
            s['max_hum'] = max(s['max_hum'], float(rec['humidity']))
summary = {k: {'mean_temp': v['temp_sum'] / v['n'], 'max_hum': v['max_hum']} for k, v in stats.items()}
with open('results/sensor_summary.json', 'w') as fh:
    json.dump(summary, fh, indent=2)
""", """
stats = {}
for fname in sorted(os.listdir('sensor_logs')):
    with open(os.path.join('sensor_logs', fname)) as fh:
        for rec in csv.DictReader(fh):
            s = stats.setdefault(rec['sensor_id'], {'n': 0, 'temp_sum': 0.0, 'max_hum': -1e9, 'night': 0})
            when = datetime.strptime(rec['ts'], '%Y-%m-%d %H:%M:%S')
            s['night'] += when.hour < 6
            s['n'] += 1
            s['temp_sum'] += float(rec['temp'])
            s['max_hum'] = max(s['max_hum'], float(rec['humidity']))
summary = {k: {'mean_temp': v['temp_sum'] / v['n'], 'max_hum': v['max_hum']} for k, v in stats.items()}
os.makedirs('results', exist_ok=True)
with open('results/sensor_summary.json', 'w') as fh:
    json.dump(summary, fh, indent=2)
""")

_add("python: averaging review ratings where one record stores the rating as text", """
import json

reviews = [{'movie_id': i % 50, 'rating': (i * 7) % 10 + 1, 'text': 'ok'} for i in range(2_000)]
reviews[1_234]['rating'] = '8'   # one record from the JSON scrape kept the rating as a string
with open('reviews.json', 'w') as fh:
    json.dump(reviews, fh)
""", """
with open('reviews.json') as fh:
    reviews = json.load(fh)
by_movie = {}
for r in reviews:
    by_movie.setdefault(r['movie_id'], []).append(r['rating'])
avg = {m: sum(v) / len(v) for m, v in by_movie.items()}
sorted(avg.items(), key=lambda kv: -kv[1])[:5]
""", """
with open('reviews.json') as fh:
    reviews = json.load(fh)
by_movie = {}
for r in reviews:
    by_movie.setdefault(r['movie_id'], []).append(float(r['rating']))
avg = {m: sum(v) / len(v) for m, v in by_movie.items()}
sorted(avg.items(), key=lambda kv: -kv[1])[:5]
""")
