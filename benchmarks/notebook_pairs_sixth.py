"""A sixth set of crash/fix pairs for the notebook path: (name, setup, crashing cell, fixed cell).

Written by a helper session that did not read the tool's code, docs or tests, nor any
earlier notebook_pairs_*.py set; every pair was made from scratch from memory of common
Kaggle notebook patterns and checked only by running it.

Mix (30 pairs): pandas 6, numpy 3, scikit-learn 6, Keras 4 (Keras 3 via
`from tensorflow import keras`), torch CPU 5, matplotlib/seaborn 2, xgboost 1 + lightgbm 1,
plain Python 2.

Data sets imitated (all synthetic, numpy generators with fixed seeds, built inside the
set-ups): Spaceship Titanic, medical insurance costs, NYC taxi trips (duration and fare),
Telco customer churn, bike sharing demand, stock prices (daily per ticker and minute bars),
CIFAR-like / EuroSAT-like small colour images, wine quality, heart disease, mushrooms,
Spotify tracks, Airbnb NYC listings, disaster tweets, fraud transactions, chest-X-ray-like
scans saved as .npy files.  Set-ups may write small files into the working directory
(Telco CSV, tweets.json, xray/train/*.npy).

Root causes (JunoBench-style):
  * API removed or changed in the installed versions: pandas 2 groupby().mean() on object
    columns, pandas 2 strict datetime format inference, np.float, sklearn
    mean_squared_error(squared=False), Keras 3 Sequential.predict_classes and
    Adam(lr=...), matplotlib style 'seaborn'.
  * data confusion: NaN in some rows (Cabin number cast to int), thousands of rows then a
    different timestamp format in the last rows, None in the last JSON records, wrong axis
    in a broadcast, dummy columns missing from a separately encoded test file, category
    dtype set on train but not test (LightGBM), quality labels 3..8 given to XGBClassifier,
    a neighbourhood seen only in the last CV fold, a recently listed ticker too short for
    a 252-day look-back.
  * model confusion: attribute read from the unfitted estimator passed to GridSearchCV,
    coef_ asked of a Pipeline, Input width taken before one-hot columns were added,
    float64 tensor into nn.Linear, BCELoss target (B,) vs output (B,1), view(BATCH_SIZE, -1)
    in forward, .numpy() on a tensor that requires grad, LSTM hidden state carried across
    chunks without detach (backward through the graph a second time).
  * notebook state: a cleaning cell re-run after its first run (setup holds the first run),
    a helper used before the cell that defines it.
  * off-by-one / last pass: sliding window reads close[i + WINDOW] on the last pass, 3x4
    subplot grid for 13 columns, a reshape to BATCH_SIZE on the smaller last batch (Keras
    train_on_batch loop and torch flatten).
  * file system: writing into an output/ folder that was never created.

Timing, measured on this 2-core machine (other work was running on it), seconds from the
start of the crashing cell to the exception, check run 1 / run 2:

  idx  exception            run1   run2   pair
    0  ValueError           0.01   0.01   pandas: Spaceship Titanic split Cabin into deck, number and side
    1  TypeError            0.00   0.00   pandas: medical insurance average charges per region
    2  ValueError           3.82   4.12   pandas: NYC taxi trip durations and speeds computed row by row
    3  KeyError             0.00   0.00   pandas: Telco churn cleaning cell run a second time
    4  ValueError           0.01   0.01   pandas: bike sharing demand timestamp features
    5  IndexError           3.92   3.35   pandas: stock prices per-ticker technical indicators and 12-month momentum
    6  AttributeError       0.00   0.00   numpy: CIFAR-like images scaled to floats and standardised per channel
    7  ValueError           0.00   0.00   numpy: wine quality standardisation and PCA by hand
    8  IndexError           4.62   4.21   numpy: stock minute bars into normalised sliding windows
    9  NotFittedError       0.00   0.00   sklearn: heart disease feature importances after a random-forest grid search
   10  NameError            4.47   4.75   sklearn: mushrooms comparing classifiers with cross-validation
   11  AttributeError       1.62   2.44   sklearn: Telco churn logistic-regression pipeline tuned with GridSearchCV
   12  ValueError           0.00   0.00   sklearn: Spotify popularity predicted on a separately one-hot-encoded test file
   13  ValueError           3.16   3.86   sklearn: Airbnb price model with per-fold label encoding
   14  TypeError            0.01   0.01   sklearn: NYC taxi fare model evaluated with RMSE
   15  AttributeError       5.11   4.90   keras: CIFAR-like CNN trained and class predictions taken
   16  ValueError           0.11   0.09   keras: disaster tweets bag-of-words MLP compiled with an Adam learning rate
   17  ValueError           0.14   0.15   keras: fraud transactions MLP sized before the one-hot columns were added
   18  ValueError           1.88   2.39   keras: chest X-ray-like scans trained from .npy files batch by batch
   19  RuntimeError         0.00   0.00   torch: heart disease logistic network on a NumPy feature matrix
   20  ValueError           0.01   0.01   torch: Telco churn MLP trained with BCELoss from a DataLoader
   21  RuntimeError         2.96   3.26   torch: EuroSAT-like land-cover CNN with a flatten sized by the batch constant
   22  RuntimeError         3.99   3.82   torch: Spotify popularity regression evaluated on the test tensor
   23  RuntimeError         0.10   0.10   torch: bike sharing hourly demand LSTM with hidden state carried across chunks
   24  OSError              0.00   0.00   seaborn: medical insurance charges plots with an old style name
   25  IndexError           2.52   2.31   matplotlib: Spotify audio-feature histograms on a subplot grid
   26  ValueError           0.00   0.00   xgboost: wine quality multi-class classifier on the raw quality scores
   27  ValueError           2.63   2.62   lightgbm: Spaceship Titanic 5-fold models averaged on the test set
   28  AttributeError       1.56   1.74   python: disaster tweets cleaned and counted from a JSON dump
   29  FileNotFoundError    0.00   0.00   python: fraud transactions flagged list written to an output folder

17 crashing cells raise within 0.16 s; 13 first do 1.5 to 5 s of real work (row loops,
per-ticker feature loops, sliding windows, cross-validation, grid search, fold loops,
Keras/torch training loops, plotting loops); eight of those fail only on the last pass,
last batch, last fold or late rows.  Longest set-up 10.0 s (Keras/torch set-ups spend
most of it importing TensorFlow or torch's optimiser machinery), longest fixed cell 8.0 s.
Torch set-ups call torch.set_num_threads(1) and the LightGBM/XGBoost models use n_jobs=1,
because on 2 busy cores the OpenMP thread pools made timings swing by a factor of ten.

How truth was decided: a checker outside the repository ran every pair, one process at a
time, each in a fresh /work/main/.venv/bin/python process and a fresh temporary working
directory: exec(compile(setup, '<setup>')) then exec(compile(cell, '<cell>')) in one
namespace.  A crash run counts only if the set-up succeeds, the crashing cell raises, and
the traceback passes through '<cell>'; a fix run counts only if set-up and fixed cell both
finish without raising (warnings allowed).  The whole check (30 crash runs + 30 fix runs)
was run twice, sequentially: 60/60 behaved as labelled in run 1 and 60/60 in run 2, with
the same exception type for every crash in both runs.
"""

_PD = "import numpy as np\nimport pandas as pd\n"
_NP = "import numpy as np\n"
_MPL = (
    "import matplotlib\n"
    "matplotlib.use('Agg')\n"
    "import matplotlib.pyplot as plt\n"
    "import seaborn as sns\n"
)
_TORCH = (
    "import numpy as np\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "import torch.nn.functional as F\n"
    "torch.manual_seed(0)\n"
    "torch.set_num_threads(1)\n"
)
_KERAS = (
    "import numpy as np\n"
    "import pandas as pd\n"
    "from tensorflow import keras\n"
    "from tensorflow.keras import layers\n"
    "keras.utils.set_random_seed(42)\n"
)

# --- synthetic data generators, kept as source text so that each set-up is self-contained ---

_SPACESHIP = '''
def make_spaceship(n, seed, with_target=True):
    rng = np.random.default_rng(seed)
    planet = rng.choice(['Earth', 'Europa', 'Mars'], n, p=[0.54, 0.25, 0.21])
    dest = rng.choice(['TRAPPIST-1e', '55 Cancri e', 'PSO J318.5-22'], n, p=[0.69, 0.21, 0.10])
    cryo = rng.random(n) < 0.35
    deck = rng.choice(list('ABCDEFGT'), n, p=[0.03, 0.09, 0.09, 0.06, 0.10, 0.33, 0.29, 0.01])
    num = rng.integers(0, 1890, n)
    side = rng.choice(['P', 'S'], n)
    cabin = np.array([f'{d}/{k}/{s}' for d, k, s in zip(deck, num, side)], dtype=object)
    cabin[rng.random(n) < 0.023] = np.nan
    age = rng.gamma(4.0, 7.0, n).round()
    df = pd.DataFrame({
        'PassengerId': [f'{i // 2 + 1:04d}_{i % 2 + 1:02d}' for i in range(n)],
        'HomePlanet': planet, 'CryoSleep': cryo, 'Cabin': cabin, 'Destination': dest,
        'Age': age, 'VIP': rng.random(n) < 0.02,
    })
    for col, scale in [('RoomService', 220), ('FoodCourt', 450), ('ShoppingMall', 170),
                       ('Spa', 310), ('VRDeck', 300)]:
        df[col] = np.where(cryo, 0.0, rng.exponential(scale, n).round())
    if with_target:
        logit = (1.6 * cryo - 0.002 * (df['Spa'] + df['VRDeck']) + 0.6 * (planet == 'Europa')
                 + 0.4 * (side == 'S') - 0.3 * (deck == 'E') + rng.normal(0, 0.8, n))
        df['Transported'] = logit > 0.1
    return df
'''

_INSURANCE = '''
def make_insurance(n, seed):
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 65, n)
    sex = rng.choice(['female', 'male'], n)
    bmi = rng.normal(30.7, 6.1, n).round(2)
    children = rng.choice([0, 1, 2, 3, 4, 5], n, p=[0.43, 0.24, 0.18, 0.12, 0.02, 0.01])
    smoker = rng.choice(['yes', 'no'], n, p=[0.2, 0.8])
    region = rng.choice(['southwest', 'southeast', 'northwest', 'northeast'], n)
    charges = (260 * age + 330 * bmi + 480 * children + 23800 * (smoker == 'yes')
               + rng.normal(0, 4000, n) - 2500).clip(1100).round(2)
    return pd.DataFrame({'age': age, 'sex': sex, 'bmi': bmi, 'children': children,
                         'smoker': smoker, 'region': region, 'charges': charges})
'''

_TELCO = '''
def make_telco(n, seed):
    rng = np.random.default_rng(seed)
    tenure = rng.integers(0, 73, n)
    contract = rng.choice(['Month-to-month', 'One year', 'Two year'], n, p=[0.55, 0.21, 0.24])
    internet = rng.choice(['DSL', 'Fiber optic', 'No'], n, p=[0.34, 0.44, 0.22])
    payment = rng.choice(['Electronic check', 'Mailed check', 'Bank transfer (automatic)',
                          'Credit card (automatic)'], n)
    monthly = np.round(rng.uniform(18.25, 118.75, n), 2)
    total = np.round(monthly * tenure + rng.normal(0, 15, n).clip(0), 2)
    logit = (-1.2 + 1.3 * (contract == 'Month-to-month') + 0.7 * (internet == 'Fiber optic')
             - 0.035 * tenure + 0.5 * (payment == 'Electronic check') + rng.normal(0, 0.6, n))
    return pd.DataFrame({
        'customerID': [f'{rng.integers(1000, 9999)}-{"".join(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 5))}'
                       for _ in range(n)],
        'gender': rng.choice(['Female', 'Male'], n),
        'SeniorCitizen': (rng.random(n) < 0.16).astype(int),
        'Partner': rng.choice(['Yes', 'No'], n),
        'Dependents': rng.choice(['Yes', 'No'], n, p=[0.3, 0.7]),
        'tenure': tenure,
        'PhoneService': rng.choice(['Yes', 'No'], n, p=[0.9, 0.1]),
        'InternetService': internet,
        'Contract': contract,
        'PaperlessBilling': rng.choice(['Yes', 'No'], n, p=[0.59, 0.41]),
        'PaymentMethod': payment,
        'MonthlyCharges': monthly,
        'TotalCharges': np.where(tenure == 0, ' ', total.astype(str)),
        'Churn': np.where(logit > 0, 'Yes', 'No'),
    })
'''

_HEART = '''
def make_heart(n, seed):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        'age': rng.integers(29, 78, n), 'sex': rng.integers(0, 2, n), 'cp': rng.integers(0, 4, n),
        'trestbps': rng.normal(131, 17, n).round(), 'chol': rng.normal(246, 50, n).round(),
        'fbs': (rng.random(n) < 0.15).astype(int), 'restecg': rng.integers(0, 3, n),
        'thalach': rng.normal(150, 22, n).round(), 'exang': rng.integers(0, 2, n),
        'oldpeak': rng.gamma(1.2, 0.9, n).round(1), 'slope': rng.integers(0, 3, n),
        'ca': rng.integers(0, 4, n), 'thal': rng.integers(1, 4, n),
    })
    logit = (0.8 * df['cp'] - 0.9 * df['exang'] - 0.6 * df['oldpeak'] + 0.03 * (df['thalach'] - 150)
             - 0.7 * df['ca'] - 0.5 * df['sex'] + 0.9 + rng.normal(0, 0.8, n))
    df['target'] = (logit > 0).astype(int)
    return df
'''

_WINE = '''
def make_wine(n, seed):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        'fixed acidity': rng.normal(8.3, 1.7, n).round(1),
        'volatile acidity': rng.normal(0.53, 0.18, n).clip(0.12).round(3),
        'citric acid': rng.beta(1.5, 3, n).round(2),
        'residual sugar': rng.lognormal(0.8, 0.4, n).round(1),
        'chlorides': rng.lognormal(-2.5, 0.3, n).round(3),
        'free sulfur dioxide': rng.gamma(2.5, 6, n).round(),
        'total sulfur dioxide': rng.gamma(2.5, 18, n).round(),
        'density': rng.normal(0.9967, 0.0019, n).round(5),
        'pH': rng.normal(3.31, 0.15, n).round(2),
        'sulphates': rng.normal(0.66, 0.17, n).clip(0.33).round(2),
        'alcohol': rng.normal(10.4, 1.07, n).round(1),
    })
    score = (5.64 + 0.45 * (df['alcohol'] - 10.4) - 1.6 * (df['volatile acidity'] - 0.53)
             + 0.9 * (df['sulphates'] - 0.66) + rng.normal(0, 0.55, n))
    df['quality'] = np.clip(np.round(score), 3, 8).astype(int)
    return df
'''

_TRACKS = '''
GENRES = ['pop', 'rock', 'hip-hop', 'edm', 'jazz', 'classical', 'country', 'latin', 'metal', 'indie', 'opera']
def make_tracks(n, seed, genres=GENRES):
    rng = np.random.default_rng(seed)
    genre = rng.choice(genres, n)
    df = pd.DataFrame({
        'track_id': [f'{seed}{i:06d}' for i in range(n)],
        'track_genre': genre,
        'danceability': rng.beta(5, 3, n).round(3), 'energy': rng.beta(4, 2.5, n).round(3),
        'key': rng.integers(0, 12, n), 'loudness': (-35 + 33 * rng.beta(8, 2, n)).round(2),
        'mode': rng.integers(0, 2, n), 'speechiness': rng.beta(1, 12, n).round(4),
        'acousticness': rng.beta(1, 3, n).round(4), 'instrumentalness': rng.beta(0.3, 3, n).round(4),
        'liveness': rng.beta(2, 8, n).round(3), 'valence': rng.beta(3, 3, n).round(3),
        'tempo': rng.normal(120, 28, n).round(3), 'duration_ms': rng.normal(225000, 50000, n).astype(int),
    })
    boost = pd.Series(genre).map({'pop': 18, 'hip-hop': 12, 'latin': 10, 'edm': 6}).fillna(0).to_numpy()
    df['popularity'] = np.clip(25 + boost + 30 * df['danceability'] + 12 * df['energy']
                               - 10 * df['acousticness'] + rng.normal(0, 8, n), 0, 100).round().astype(int)
    return df
'''

_IMAGES = '''
def make_images(n, seed, size=32, n_classes=10):
    """Small colour images: each class has its own tint and stripe direction, plus noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    palette = np.random.default_rng(123).integers(50, 205, (n_classes, 3))
    yy, xx = np.mgrid[0:size, 0:size]
    X = np.empty((n, size, size, 3), dtype=np.uint8)
    for k in range(n_classes):
        idx = np.where(y == k)[0]
        stripes = 45 * np.sin((xx * np.cos(k) + yy * np.sin(k)) * (0.35 + 0.06 * k))
        img = palette[k][None, None, :] + stripes[:, :, None]
        noise = rng.normal(0, 30, (len(idx), size, size, 3))
        X[idx] = np.clip(img[None] + noise, 0, 255).astype(np.uint8)
    return X, y
'''

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup.strip() + "\n", crash.strip() + "\n", fixed.strip() + "\n"))


# ---------------------------------------------------------------- pandas

_add("pandas: Spaceship Titanic split Cabin into deck, number and side", _PD + _SPACESHIP + """
train = make_spaceship(4000, seed=1)
test = make_spaceship(2000, seed=2, with_target=False)
print(train.shape, test.shape)
print(train.isna().sum())
""", """
train[['Deck', 'Num', 'Side']] = train['Cabin'].str.split('/', expand=True)
train['Num'] = train['Num'].astype(int)
train['Group'] = train['PassengerId'].str[:4].astype(int)
train['CabinBlock'] = train['Num'] // 300
print(train.groupby(['Deck', 'Side'])['Transported'].mean().unstack())
train.groupby('CabinBlock')['Transported'].mean()
""", """
train[['Deck', 'Num', 'Side']] = train['Cabin'].str.split('/', expand=True)
train['Num'] = pd.to_numeric(train['Num']).fillna(-1).astype(int)
train['Group'] = train['PassengerId'].str[:4].astype(int)
train['CabinBlock'] = train['Num'] // 300
print(train.groupby(['Deck', 'Side'])['Transported'].mean().unstack())
train.groupby('CabinBlock')['Transported'].mean()
""")

_add("pandas: medical insurance average charges per region", _PD + _INSURANCE + """
insurance = make_insurance(1338, seed=3)
print(insurance.head())
print(insurance.describe())
""", """
region_stats = insurance.groupby('region').mean()
region_stats = region_stats.sort_values('charges', ascending=False)
print(region_stats[['age', 'bmi', 'charges']])
smoker_share = insurance.groupby('region')['smoker'].apply(lambda s: (s == 'yes').mean())
region_stats.join(smoker_share.rename('smoker_share'))
""", """
region_stats = insurance.groupby('region').mean(numeric_only=True)
region_stats = region_stats.sort_values('charges', ascending=False)
print(region_stats[['age', 'bmi', 'charges']])
smoker_share = insurance.groupby('region')['smoker'].apply(lambda s: (s == 'yes').mean())
region_stats.join(smoker_share.rename('smoker_share'))
""")

_add("pandas: NYC taxi trip durations and speeds computed row by row", _PD + """
import math

rng = np.random.default_rng(7)
n = 30000
start = np.datetime64('2016-06-01T00:00:00')
pickup = np.sort(start + rng.integers(0, 30 * 24 * 3600, n).astype('timedelta64[s]'))
dropoff = pickup + rng.lognormal(6.5, 0.6, n).astype(int).astype('timedelta64[s]')
trips = pd.DataFrame({
    'id': ['id%07d' % i for i in range(n)],
    'vendor_id': rng.integers(1, 3, n),
    'pickup_datetime': pd.Series(pickup).dt.strftime('%Y-%m-%d %H:%M:%S'),
    'dropoff_datetime': pd.Series(dropoff).dt.strftime('%Y-%m-%d %H:%M:%S'),
    'passenger_count': rng.choice([1, 1, 1, 1, 2, 2, 3, 5, 6], n),
    'pickup_longitude': -73.98 + rng.normal(0, 0.03, n),
    'pickup_latitude': 40.75 + rng.normal(0, 0.03, n),
    'dropoff_longitude': -73.98 + rng.normal(0, 0.04, n),
    'dropoff_latitude': 40.75 + rng.normal(0, 0.04, n),
    'store_and_fwd_flag': rng.choice(['N', 'Y'], n, p=[0.995, 0.005]),
})
# the last trips were appended from the July extract, which was exported by another tool
late = trips.index[-20:]
trips.loc[late, 'pickup_datetime'] = pd.to_datetime(trips.loc[late, 'pickup_datetime']).dt.strftime('%m/%d/%Y %H:%M')
trips.loc[late, 'dropoff_datetime'] = pd.to_datetime(trips.loc[late, 'dropoff_datetime']).dt.strftime('%m/%d/%Y %H:%M')


def haversine(lat1, lon1, lat2, lon2):
    lat1, lon1, lat2, lon2 = map(math.radians, (lat1, lon1, lat2, lon2))
    a = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(a))


print(trips.shape)
trips.head()
""", """
from datetime import datetime

durations, hours, weekdays, speeds = [], [], [], []
for idx, row in trips.iterrows():
    pu = datetime.strptime(row['pickup_datetime'], '%Y-%m-%d %H:%M:%S')
    do = datetime.strptime(row['dropoff_datetime'], '%Y-%m-%d %H:%M:%S')
    seconds = (do - pu).total_seconds()
    km = haversine(row['pickup_latitude'], row['pickup_longitude'],
                   row['dropoff_latitude'], row['dropoff_longitude'])
    durations.append(seconds)
    hours.append(pu.hour)
    weekdays.append(pu.weekday())
    speeds.append(km / max(seconds, 1) * 3600)

trips['trip_duration'] = durations
trips['pickup_hour'] = hours
trips['pickup_weekday'] = weekdays
trips['speed_kmh'] = speeds
trips.groupby('pickup_hour')['speed_kmh'].median()
""", """
from datetime import datetime


def parse_ts(s):
    for fmt in ('%Y-%m-%d %H:%M:%S', '%m/%d/%Y %H:%M'):
        try:
            return datetime.strptime(s, fmt)
        except ValueError:
            pass
    raise ValueError(f'unknown timestamp format: {s!r}')


durations, hours, weekdays, speeds = [], [], [], []
for idx, row in trips.iterrows():
    pu = parse_ts(row['pickup_datetime'])
    do = parse_ts(row['dropoff_datetime'])
    seconds = (do - pu).total_seconds()
    km = haversine(row['pickup_latitude'], row['pickup_longitude'],
                   row['dropoff_latitude'], row['dropoff_longitude'])
    durations.append(seconds)
    hours.append(pu.hour)
    weekdays.append(pu.weekday())
    speeds.append(km / max(seconds, 1) * 3600)

trips['trip_duration'] = durations
trips['pickup_hour'] = hours
trips['pickup_weekday'] = weekdays
trips['speed_kmh'] = speeds
trips.groupby('pickup_hour')['speed_kmh'].median()
""")

_add("pandas: Telco churn cleaning cell run a second time", _PD + _TELCO + """
make_telco(3000, seed=4).to_csv('WA_Fn-UseC_-Telco-Customer-Churn.csv', index=False)
df = pd.read_csv('WA_Fn-UseC_-Telco-Customer-Churn.csv')
print(df.dtypes)

# cleaning cell (already executed once in this session)
df.drop(['customerID'], axis=1, inplace=True)
df['TotalCharges'] = pd.to_numeric(df['TotalCharges'], errors='coerce')
df['TotalCharges'] = df['TotalCharges'].fillna(df['TotalCharges'].median())
df['Churn'] = df['Churn'].map({'Yes': 1, 'No': 0})
""", """
df.drop(['customerID'], axis=1, inplace=True)
df['TotalCharges'] = pd.to_numeric(df['TotalCharges'], errors='coerce')
df['TotalCharges'] = df['TotalCharges'].fillna(df['TotalCharges'].median())
df['Churn'] = df['Churn'].map({'Yes': 1, 'No': 0})
print(df['Churn'].value_counts(normalize=True))
df.groupby('Contract')['Churn'].mean()
""", """
df = pd.read_csv('WA_Fn-UseC_-Telco-Customer-Churn.csv')
df.drop(['customerID'], axis=1, inplace=True)
df['TotalCharges'] = pd.to_numeric(df['TotalCharges'], errors='coerce')
df['TotalCharges'] = df['TotalCharges'].fillna(df['TotalCharges'].median())
df['Churn'] = df['Churn'].map({'Yes': 1, 'No': 0})
print(df['Churn'].value_counts(normalize=True))
df.groupby('Contract')['Churn'].mean()
""")

_add("pandas: bike sharing demand timestamp features", _PD + """
rng = np.random.default_rng(8)
stamps = pd.date_range('2011-01-01', '2012-12-19 23:00', freq='h')
hour = stamps.hour.to_numpy()
rush = np.exp(-((hour - 8) ** 2) / 4) + np.exp(-((hour - 17.5) ** 2) / 5)
count = rng.poisson(20 + 260 * rush + 40 * (stamps.year.to_numpy() == 2012))
# the 2012 half of the file came from a spreadsheet that rewrote the dates
text = np.where(stamps.year == 2011, stamps.strftime('%Y-%m-%d %H:%M:%S'), stamps.strftime('%m/%d/%Y %H:%M'))
bike = pd.DataFrame({
    'datetime': text,
    'season': (stamps.month.to_numpy() % 12) // 3 + 1,
    'holiday': (rng.random(len(stamps)) < 0.03).astype(int),
    'workingday': (stamps.dayofweek.to_numpy() < 5).astype(int),
    'weather': rng.choice([1, 2, 3, 4], len(stamps), p=[0.66, 0.26, 0.079, 0.001]),
    'temp': (20 + 10 * np.sin((stamps.dayofyear.to_numpy() - 100) / 58) + rng.normal(0, 3, len(stamps))).round(2),
    'humidity': rng.integers(20, 100, len(stamps)),
    'windspeed': rng.gamma(2, 6, len(stamps)).round(4),
    'count': count,
})
print(bike.shape)
bike.head()
""", """
bike['datetime'] = pd.to_datetime(bike['datetime'])
bike['year'] = bike['datetime'].dt.year
bike['month'] = bike['datetime'].dt.month
bike['hour'] = bike['datetime'].dt.hour
bike['weekday'] = bike['datetime'].dt.dayofweek
bike.pivot_table(index='hour', columns='workingday', values='count', aggfunc='mean').round(1)
""", """
bike['datetime'] = pd.to_datetime(bike['datetime'], format='mixed')
bike['year'] = bike['datetime'].dt.year
bike['month'] = bike['datetime'].dt.month
bike['hour'] = bike['datetime'].dt.hour
bike['weekday'] = bike['datetime'].dt.dayofweek
bike.pivot_table(index='hour', columns='workingday', values='count', aggfunc='mean').round(1)
""")

_add("pandas: stock prices per-ticker technical indicators and 12-month momentum", _PD + """
rng = np.random.default_rng(11)
tickers = ['AAPL', 'AMGN', 'AMZN', 'AXP', 'BA', 'CAT', 'CRM', 'CSCO', 'CVX', 'DIS', 'GS', 'HD', 'HON', 'IBM',
           'INTC', 'JNJ', 'JPM', 'KO', 'MCD', 'MMM', 'MRK', 'MSFT', 'NKE', 'PFE', 'PG', 'TRV', 'UNH', 'V',
           'VZ', 'WMT']
dates = pd.bdate_range('2019-01-02', '2024-08-30')
frames = []
for t in tickers:
    close = 100 * np.exp(np.cumsum(rng.normal(0.0003, 0.017, len(dates))))
    frames.append(pd.DataFrame({'date': dates, 'ticker': t, 'close': close.round(2),
                                'volume': rng.integers(1_000_000, 9_000_000, len(dates))}))
# Zeekr listed in May 2024, so it only has a few months of history
ipo = dates[dates >= '2024-05-10']
frames.append(pd.DataFrame({'date': ipo, 'ticker': 'ZK',
                            'close': (21 * np.exp(np.cumsum(rng.normal(0, 0.04, len(ipo))))).round(2),
                            'volume': rng.integers(500_000, 3_000_000, len(ipo))}))
prices = pd.concat(frames, ignore_index=True).sample(frac=1, random_state=0).reset_index(drop=True)
print(prices.shape, prices['ticker'].nunique())


def rsi(window):
    diff = np.diff(window)
    gain = diff[diff > 0].sum()
    loss = -diff[diff < 0].sum()
    return 100.0 if loss == 0 else 100 - 100 / (1 + gain / loss)
""", """
summary = []
for ticker, g in prices.groupby('ticker'):
    g = g.sort_values('date').copy()
    g['ret'] = g['close'].pct_change()
    g['vol_20d'] = g['ret'].rolling(20).std() * np.sqrt(252)
    g['rsi_14'] = g['close'].rolling(15).apply(rsi, raw=True)
    g['sma_50'] = g['close'].rolling(50).mean()
    g['trend_20'] = g['close'].rolling(20).apply(lambda w: np.polyfit(np.arange(20), w, 1)[0], raw=True)
    g['max_dd_60'] = g['close'].rolling(60).apply(lambda w: (w / np.maximum.accumulate(w) - 1).min(), raw=True)
    summary.append({
        'ticker': ticker,
        'last_close': g['close'].iloc[-1],
        'rsi_14': g['rsi_14'].iloc[-1],
        'vol_20d': g['vol_20d'].iloc[-1],
        'trend_20': g['trend_20'].iloc[-1],
        'max_dd_60': g['max_dd_60'].iloc[-1],
        'mom_12m': g['close'].iloc[-1] / g['close'].iloc[-252] - 1,
    })

summary = pd.DataFrame(summary).set_index('ticker')
summary.sort_values('mom_12m', ascending=False).head(10)
""", """
summary = []
for ticker, g in prices.groupby('ticker'):
    g = g.sort_values('date').copy()
    g['ret'] = g['close'].pct_change()
    g['vol_20d'] = g['ret'].rolling(20).std() * np.sqrt(252)
    g['rsi_14'] = g['close'].rolling(15).apply(rsi, raw=True)
    g['sma_50'] = g['close'].rolling(50).mean()
    g['trend_20'] = g['close'].rolling(20).apply(lambda w: np.polyfit(np.arange(20), w, 1)[0], raw=True)
    g['max_dd_60'] = g['close'].rolling(60).apply(lambda w: (w / np.maximum.accumulate(w) - 1).min(), raw=True)
    summary.append({
        'ticker': ticker,
        'last_close': g['close'].iloc[-1],
        'rsi_14': g['rsi_14'].iloc[-1],
        'vol_20d': g['vol_20d'].iloc[-1],
        'trend_20': g['trend_20'].iloc[-1],
        'max_dd_60': g['max_dd_60'].iloc[-1],
        'mom_12m': g['close'].iloc[-1] / g['close'].iloc[-252] - 1 if len(g) >= 252 else np.nan,
    })

summary = pd.DataFrame(summary).set_index('ticker')
summary.sort_values('mom_12m', ascending=False).head(10)
""")

# ---------------------------------------------------------------- numpy

_add("numpy: CIFAR-like images scaled to floats and standardised per channel", _NP + _IMAGES + """
X_train, y_train = make_images(2000, seed=5)
X_test, y_test = make_images(500, seed=6)
print(X_train.shape, X_train.dtype, np.bincount(y_train))
""", """
X_train = X_train.astype(np.float) / 255.0
X_test = X_test.astype(np.float) / 255.0
channel_mean = X_train.mean(axis=(0, 1, 2))
channel_std = X_train.std(axis=(0, 1, 2))
X_train = (X_train - channel_mean) / channel_std
X_test = (X_test - channel_mean) / channel_std
print(channel_mean, channel_std, X_train.shape)
""", """
X_train = X_train.astype(np.float32) / 255.0
X_test = X_test.astype(np.float32) / 255.0
channel_mean = X_train.mean(axis=(0, 1, 2))
channel_std = X_train.std(axis=(0, 1, 2))
X_train = (X_train - channel_mean) / channel_std
X_test = (X_test - channel_mean) / channel_std
print(channel_mean, channel_std, X_train.shape)
""")

_add("numpy: wine quality standardisation and PCA by hand", _PD + _WINE + """
wine = make_wine(1599, seed=9)
features = [c for c in wine.columns if c != 'quality']
X = wine[features].to_numpy()
y = wine['quality'].to_numpy()
print(X.shape)
""", """
mu = X.mean(axis=1)
sigma = X.std(axis=1)
X_std = (X - mu) / sigma
cov = np.cov(X_std.T)
eigvals, eigvecs = np.linalg.eigh(cov)
order = np.argsort(eigvals)[::-1]
explained = eigvals[order] / eigvals.sum()
X_pca = X_std @ eigvecs[:, order[:2]]
print(np.cumsum(explained).round(3))
""", """
mu = X.mean(axis=0)
sigma = X.std(axis=0)
X_std = (X - mu) / sigma
cov = np.cov(X_std.T)
eigvals, eigvecs = np.linalg.eigh(cov)
order = np.argsort(eigvals)[::-1]
explained = eigvals[order] / eigvals.sum()
X_pca = X_std @ eigvecs[:, order[:2]]
print(np.cumsum(explained).round(3))
""")

_add("numpy: stock minute bars into normalised sliding windows", _NP + """
rng = np.random.default_rng(12)
n_bars = 150_000
close = 180 * np.exp(np.cumsum(rng.normal(0, 0.0006, n_bars)))
print(close[:5], close.shape)
""", """
WINDOW = 30
n_samples = len(close) - WINDOW + 1
X = np.empty((n_samples, WINDOW))
y = np.empty(n_samples)
for i in range(n_samples):
    w = close[i:i + WINDOW]
    X[i] = (w - w.mean()) / (w.std() + 1e-8)
    y[i] = (close[i + WINDOW] - w[-1]) / w[-1]

split = int(0.8 * n_samples)
X_train, X_test, y_train, y_test = X[:split], X[split:], y[:split], y[split:]
print(X_train.shape, X_test.shape, y_train.std())
""", """
WINDOW = 30
n_samples = len(close) - WINDOW
X = np.empty((n_samples, WINDOW))
y = np.empty(n_samples)
for i in range(n_samples):
    w = close[i:i + WINDOW]
    X[i] = (w - w.mean()) / (w.std() + 1e-8)
    y[i] = (close[i + WINDOW] - w[-1]) / w[-1]

split = int(0.8 * n_samples)
X_train, X_test, y_train, y_test = X[:split], X[split:], y[:split], y[split:]
print(X_train.shape, X_test.shape, y_train.std())
""")

# ---------------------------------------------------------------- scikit-learn

_add("sklearn: heart disease feature importances after a random-forest grid search", _PD + _HEART + """
from sklearn.model_selection import train_test_split, GridSearchCV
from sklearn.ensemble import RandomForestClassifier

heart = make_heart(303, seed=13)
X = heart.drop(columns='target')
y = heart['target']
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42, stratify=y)

rf = RandomForestClassifier(random_state=42)
param_grid = {'n_estimators': [50, 100], 'max_depth': [4, None]}
grid = GridSearchCV(rf, param_grid, cv=3, scoring='accuracy')
grid.fit(X_train, y_train)
print(grid.best_params_, round(grid.best_score_, 3))
""", """
importances = pd.Series(rf.feature_importances_, index=X_train.columns).sort_values(ascending=False)
print(importances.head(8))
top_features = importances.index[:6].tolist()
top_features
""", """
best_rf = grid.best_estimator_
importances = pd.Series(best_rf.feature_importances_, index=X_train.columns).sort_values(ascending=False)
print(importances.head(8))
top_features = importances.index[:6].tolist()
top_features
""")

_add("sklearn: mushrooms comparing classifiers with cross-validation", _PD + _MPL + """
from sklearn.model_selection import cross_val_score
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.svm import SVC

rng = np.random.default_rng(14)
n = 2000
cols = {
    'cap-shape': list('bcxfks'), 'cap-surface': list('fgys'), 'cap-color': list('nbcgrpuewy'),
    'bruises': list('tf'), 'odor': list('alcyfmnps'), 'gill-attachment': list('af'),
    'gill-spacing': list('cw'), 'gill-size': list('bn'), 'gill-color': list('knbhgropuewy'),
    'stalk-shape': list('et'), 'ring-type': list('eflnp'), 'spore-print-color': list('knbhrouwy'),
    'population': list('acnsvy'), 'habitat': list('glmpuwd'),
}
mush = pd.DataFrame({c: rng.choice(v, n) for c, v in cols.items()})
poison_score = (mush['odor'].isin(list('cyfmps')) * 2.0 + (mush['gill-size'] == 'n') * 0.8
                + (mush['spore-print-color'] == 'h') * 1.0 + rng.normal(0, 0.9, n))
mush.insert(0, 'class', np.where(poison_score > 1.2, 'p', 'e'))
X = pd.get_dummies(mush.drop(columns='class'), dtype=int)
y = (mush['class'] == 'p').astype(int)
print(X.shape, y.mean())
""", """
models = {
    'LogisticRegression': LogisticRegression(max_iter=1000),
    'KNN': KNeighborsClassifier(n_neighbors=7),
    'DecisionTree': DecisionTreeClassifier(max_depth=8, random_state=0),
    'RandomForest': RandomForestClassifier(n_estimators=100, random_state=0),
    'SVC': SVC(C=1.0),
}
results = {}
for name, model in models.items():
    scores = cross_val_score(model, X, y, cv=5, scoring='accuracy')
    results[name] = scores
    print(f'{name:20s} {scores.mean():.4f} +/- {scores.std():.4f}')

plot_cv_results(results)
""", """
def plot_cv_results(results):
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.boxplot(list(results.values()))
    ax.set_xticks(range(1, len(results) + 1), list(results.keys()))
    ax.set_ylabel('CV accuracy')
    plt.tight_layout()
    return ax


models = {
    'LogisticRegression': LogisticRegression(max_iter=1000),
    'KNN': KNeighborsClassifier(n_neighbors=7),
    'DecisionTree': DecisionTreeClassifier(max_depth=8, random_state=0),
    'RandomForest': RandomForestClassifier(n_estimators=100, random_state=0),
    'SVC': SVC(C=1.0),
}
results = {}
for name, model in models.items():
    scores = cross_val_score(model, X, y, cv=5, scoring='accuracy')
    results[name] = scores
    print(f'{name:20s} {scores.mean():.4f} +/- {scores.std():.4f}')

plot_cv_results(results)
""")

_add("sklearn: Telco churn logistic-regression pipeline tuned with GridSearchCV", _PD + _TELCO + """
from sklearn.model_selection import train_test_split, GridSearchCV
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.linear_model import LogisticRegression

telco = make_telco(3000, seed=15)
telco['TotalCharges'] = pd.to_numeric(telco['TotalCharges'], errors='coerce').fillna(0)
y = (telco.pop('Churn') == 'Yes').astype(int)
X = telco.drop(columns='customerID')
num_cols = ['tenure', 'MonthlyCharges', 'TotalCharges', 'SeniorCitizen']
cat_cols = [c for c in X.columns if c not in num_cols]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)

pipe = Pipeline([
    ('prep', ColumnTransformer([('num', StandardScaler(), num_cols),
                                ('cat', OneHotEncoder(handle_unknown='ignore'), cat_cols)])),
    ('clf', LogisticRegression(solver='liblinear')),
])
""", """
param_grid = {'clf__C': [0.01, 0.1, 1, 10], 'clf__class_weight': [None, 'balanced']}
grid = GridSearchCV(pipe, param_grid, cv=5, scoring='roc_auc')
grid.fit(X_train, y_train)
print(grid.best_params_, round(grid.best_score_, 4))

feature_names = grid.best_estimator_.named_steps['prep'].get_feature_names_out()
coefs = pd.Series(grid.best_estimator_.coef_[0], index=feature_names).sort_values()
coefs.tail(10)
""", """
param_grid = {'clf__C': [0.01, 0.1, 1, 10], 'clf__class_weight': [None, 'balanced']}
grid = GridSearchCV(pipe, param_grid, cv=5, scoring='roc_auc')
grid.fit(X_train, y_train)
print(grid.best_params_, round(grid.best_score_, 4))

feature_names = grid.best_estimator_.named_steps['prep'].get_feature_names_out()
coefs = pd.Series(grid.best_estimator_.named_steps['clf'].coef_[0], index=feature_names).sort_values()
coefs.tail(10)
""")

_add("sklearn: Spotify popularity predicted on a separately one-hot-encoded test file", _PD + _TRACKS + """
from sklearn.linear_model import Ridge

train_df = make_tracks(6000, seed=16)
# the test crawl did not include any opera playlists
test_df = make_tracks(1500, seed=17, genres=[g for g in GENRES if g != 'opera'])

X_train = pd.get_dummies(train_df.drop(columns=['track_id', 'popularity']), columns=['track_genre'], dtype=int)
y_train = train_df['popularity']
model = Ridge(alpha=1.0).fit(X_train, y_train)
print(X_train.shape, round(model.score(X_train, y_train), 3))
""", """
X_test = pd.get_dummies(test_df.drop(columns=['track_id', 'popularity']), columns=['track_genre'], dtype=int)
test_pred = model.predict(X_test)
rmse = np.sqrt(np.mean((test_pred - test_df['popularity']) ** 2))
print(f'test RMSE: {rmse:.2f}')
""", """
X_test = pd.get_dummies(test_df.drop(columns=['track_id', 'popularity']), columns=['track_genre'], dtype=int)
X_test = X_test.reindex(columns=X_train.columns, fill_value=0)
test_pred = model.predict(X_test)
rmse = np.sqrt(np.mean((test_pred - test_df['popularity']) ** 2))
print(f'test RMSE: {rmse:.2f}')
""")

_add("sklearn: Airbnb price model with per-fold label encoding", _PD + """
from sklearn.model_selection import KFold
from sklearn.preprocessing import LabelEncoder
from sklearn.ensemble import RandomForestRegressor

rng = np.random.default_rng(18)
n = 5000
hoods = np.array(['Williamsburg', 'Bedford-Stuyvesant', 'Harlem', 'Bushwick', 'Upper West Side',
                  "Hell's Kitchen", 'East Village', 'Upper East Side', 'Crown Heights', 'Midtown',
                  'East Harlem', 'Greenpoint', 'Chelsea', 'Lower East Side', 'Astoria'], dtype=object)
hood = rng.choice(hoods, n)
# listings are ordered by id; Navy Yard only appears among the newest listings
newest = np.arange(n) >= n - 500
hood[newest & (rng.random(n) < 0.12)] = 'Navy Yard'
room = rng.choice(['Entire home/apt', 'Private room', 'Shared room'], n, p=[0.52, 0.45, 0.03])
listings = pd.DataFrame({
    'id': np.arange(2539, 2539 + n * 7, 7),
    'neighbourhood': hood,
    'room_type': room,
    'latitude': 40.73 + rng.normal(0, 0.05, n),
    'longitude': -73.95 + rng.normal(0, 0.05, n),
    'minimum_nights': rng.choice([1, 2, 3, 5, 7, 30], n),
    'number_of_reviews': rng.negative_binomial(1, 0.04, n),
    'availability_365': rng.integers(0, 366, n),
    'calculated_host_listings_count': rng.choice([1, 1, 1, 2, 3, 8], n),
})
base = np.where(room == 'Entire home/apt', 190, np.where(room == 'Private room', 85, 60))
listings['price'] = (base * np.exp(rng.normal(0, 0.35, n)) * (1 + 0.4 * np.isin(hood, ['Midtown', 'Chelsea']))).round()
features = ['neighbourhood', 'room_type', 'latitude', 'longitude', 'minimum_nights',
            'number_of_reviews', 'availability_365', 'calculated_host_listings_count']
print(listings.shape)
""", """
kf = KFold(n_splits=5)
fold_rmse = []
for fold, (tr_idx, va_idx) in enumerate(kf.split(listings)):
    tr = listings.iloc[tr_idx].copy()
    va = listings.iloc[va_idx].copy()
    for col in ['neighbourhood', 'room_type']:
        le = LabelEncoder()
        tr[col] = le.fit_transform(tr[col])
        va[col] = le.transform(va[col])
    model = RandomForestRegressor(n_estimators=50, min_samples_leaf=3, random_state=fold)
    model.fit(tr[features], np.log1p(tr['price']))
    pred = model.predict(va[features])
    rmse = np.sqrt(np.mean((pred - np.log1p(va['price'])) ** 2))
    fold_rmse.append(rmse)
    print(f'fold {fold}: RMSLE {rmse:.4f}')

print('mean', np.mean(fold_rmse))
""", """
encoded = listings.copy()
for col in ['neighbourhood', 'room_type']:
    encoded[col] = LabelEncoder().fit_transform(encoded[col])

kf = KFold(n_splits=5)
fold_rmse = []
for fold, (tr_idx, va_idx) in enumerate(kf.split(encoded)):
    tr = encoded.iloc[tr_idx]
    va = encoded.iloc[va_idx]
    model = RandomForestRegressor(n_estimators=50, min_samples_leaf=3, random_state=fold)
    model.fit(tr[features], np.log1p(tr['price']))
    pred = model.predict(va[features])
    rmse = np.sqrt(np.mean((pred - np.log1p(va['price'])) ** 2))
    fold_rmse.append(rmse)
    print(f'fold {fold}: RMSLE {rmse:.4f}')

print('mean', np.mean(fold_rmse))
""")

_add("sklearn: NYC taxi fare model evaluated with RMSE", _PD + """
from sklearn.model_selection import train_test_split
from sklearn.ensemble import GradientBoostingRegressor

rng = np.random.default_rng(19)
n = 8000
taxi = pd.DataFrame({
    'pickup_longitude': -73.98 + rng.normal(0, 0.04, n),
    'pickup_latitude': 40.75 + rng.normal(0, 0.03, n),
    'dropoff_longitude': -73.98 + rng.normal(0, 0.05, n),
    'dropoff_latitude': 40.75 + rng.normal(0, 0.04, n),
    'passenger_count': rng.choice([1, 1, 1, 2, 3, 5], n),
    'hour': rng.integers(0, 24, n),
    'weekday': rng.integers(0, 7, n),
})
taxi['dist_km'] = np.hypot((taxi['dropoff_longitude'] - taxi['pickup_longitude']) * 84,
                           (taxi['dropoff_latitude'] - taxi['pickup_latitude']) * 111)
taxi['fare_amount'] = (2.5 + 1.6 * taxi['dist_km'] + 1.0 * taxi['hour'].between(16, 19)
                       + rng.gamma(1.5, 1.2, n)).round(2)
features = ['pickup_longitude', 'pickup_latitude', 'dropoff_longitude', 'dropoff_latitude',
            'passenger_count', 'hour', 'weekday', 'dist_km']
X_train, X_val, y_train, y_val = train_test_split(taxi[features], taxi['fare_amount'], test_size=0.2, random_state=1)
model = GradientBoostingRegressor(n_estimators=100, max_depth=3, random_state=1).fit(X_train, y_train)
""", """
from sklearn.metrics import mean_squared_error, mean_absolute_error

pred = model.predict(X_val)
rmse = mean_squared_error(y_val, pred, squared=False)
mae = mean_absolute_error(y_val, pred)
baseline = mean_squared_error(y_val, np.full(len(y_val), y_train.mean()), squared=False)
print(f'RMSE {rmse:.3f}  MAE {mae:.3f}  baseline RMSE {baseline:.3f}')
""", """
from sklearn.metrics import root_mean_squared_error, mean_absolute_error

pred = model.predict(X_val)
rmse = root_mean_squared_error(y_val, pred)
mae = mean_absolute_error(y_val, pred)
baseline = root_mean_squared_error(y_val, np.full(len(y_val), y_train.mean()))
print(f'RMSE {rmse:.3f}  MAE {mae:.3f}  baseline RMSE {baseline:.3f}')
""")

# ---------------------------------------------------------------- Keras

_add("keras: CIFAR-like CNN trained and class predictions taken", _KERAS + _IMAGES + """
X_train, y_train = make_images(2500, seed=20)
X_test, y_test = make_images(500, seed=21)
X_train = X_train.astype('float32') / 255.0
X_test = X_test.astype('float32') / 255.0
y_train_cat = keras.utils.to_categorical(y_train, 10)

model = keras.Sequential([
    keras.Input(shape=(32, 32, 3)),
    layers.Conv2D(16, 3, activation='relu', padding='same'),
    layers.MaxPooling2D(),
    layers.Conv2D(32, 3, activation='relu', padding='same'),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dense(64, activation='relu'),
    layers.Dense(10, activation='softmax'),
])
model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
""", """
history = model.fit(X_train, y_train_cat, validation_split=0.1, epochs=3, batch_size=64, verbose=0)
print({k: round(v[-1], 3) for k, v in history.history.items()})
y_pred = model.predict_classes(X_test)
print('test accuracy', (y_pred == y_test).mean())
""", """
history = model.fit(X_train, y_train_cat, validation_split=0.1, epochs=3, batch_size=64, verbose=0)
print({k: round(v[-1], 3) for k, v in history.history.items()})
y_pred = np.argmax(model.predict(X_test, verbose=0), axis=1)
print('test accuracy', (y_pred == y_test).mean())
""")

_add("keras: disaster tweets bag-of-words MLP compiled with an Adam learning rate", _KERAS + """
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(22)
disaster = ['fire', 'flood', 'earthquake', 'evacuate', 'storm', 'killed', 'wildfire', 'emergency',
            'collapse', 'rescue', 'hurricane', 'crash', 'burning', 'injured', 'tornado']
casual = ['love', 'lol', 'music', 'game', 'tonight', 'happy', 'video', 'new', 'day', 'friends',
          'coffee', 'movie', 'pizza', 'weekend', 'party', 'like', 'best', 'today', 'summer', 'fun']
filler = ['the', 'a', 'in', 'on', 'my', 'is', 'at', 'this', 'just', 'so', 'we', 'and', 'near', 'after']
n = 6000
target = (rng.random(n) < 0.43).astype(int)
dis_w = rng.choice(disaster, (n, 15))
cas_w = rng.choice(casual, (n, 15))
fil_w = rng.choice(filler, (n, 15))
u = rng.random((n, 15))
p_dis = np.where(target == 1, 0.35, 0.05)[:, None]
grid = np.where(u < p_dis, dis_w, np.where(u < p_dis + (1 - p_dis) / 2, cas_w, fil_w))
lengths = rng.integers(6, 16, n)
texts = [' '.join(row[:k]) for row, k in zip(grid, lengths)]
tweets = pd.DataFrame({'text': texts, 'target': target})
vec = CountVectorizer(binary=True)
X = vec.fit_transform(tweets['text']).toarray().astype('float32')
X_train, X_val, y_train, y_val = train_test_split(X, tweets['target'].to_numpy(), test_size=0.2, random_state=0)
print(X_train.shape)
""", """
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    layers.Dense(64, activation='relu'),
    layers.Dropout(0.3),
    layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(lr=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=4, batch_size=64, verbose=0)
print(round(history.history['val_accuracy'][-1], 4))
""", """
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    layers.Dense(64, activation='relu'),
    layers.Dropout(0.3),
    layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=4, batch_size=64, verbose=0)
print(round(history.history['val_accuracy'][-1], 4))
""")

_add("keras: fraud transactions MLP sized before the one-hot columns were added", _KERAS + """
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(23)
n = 12000
fraud = pd.DataFrame({
    'amount': rng.lognormal(3.5, 1.1, n).round(2),
    'hour': rng.integers(0, 24, n),
    'distance_from_home': rng.lognormal(2.3, 1.2, n),
    'distance_from_last_transaction': rng.lognormal(0.5, 1.3, n),
    'ratio_to_median_purchase_price': rng.lognormal(0, 0.8, n),
    'repeat_retailer': (rng.random(n) < 0.88).astype(int),
    'used_chip': (rng.random(n) < 0.35).astype(int),
    'used_pin_number': (rng.random(n) < 0.1).astype(int),
    'online_order': (rng.random(n) < 0.65).astype(int),
    'merchant_category': rng.choice(['grocery', 'electronics', 'travel', 'fuel', 'restaurants', 'jewelry'], n),
})
logit = (-4 + 1.2 * np.log(fraud['ratio_to_median_purchase_price'] + 0.1) + 0.6 * fraud['online_order']
         - 1.5 * fraud['used_pin_number'] + 0.9 * (fraud['merchant_category'] == 'electronics') + rng.normal(0, 0.5, n))
fraud['is_fraud'] = (logit > -1.8).astype(int)
num_cols = [c for c in fraud.columns if c not in ('merchant_category', 'is_fraud')]
n_features = len(num_cols)
print('numeric features:', n_features)

X = pd.get_dummies(fraud[num_cols + ['merchant_category']], columns=['merchant_category'], dtype=float)
y = fraud['is_fraud'].to_numpy()
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
scaler = StandardScaler().fit(X_train)
X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
print(X_train.shape, y.mean())


def build_model(n_inputs):
    model = keras.Sequential([
        keras.Input(shape=(n_inputs,)),
        layers.Dense(32, activation='relu'),
        layers.Dense(16, activation='relu'),
        layers.Dense(1, activation='sigmoid'),
    ])
    model.compile(optimizer='adam', loss='binary_crossentropy', metrics=[keras.metrics.AUC(name='auc')])
    return model


model = build_model(n_features)
model.summary()
""", """
history = model.fit(X_train, y_train, validation_split=0.2, epochs=3, batch_size=256,
                    class_weight={0: 1.0, 1: 3.0}, verbose=0)
print(model.evaluate(X_test, y_test, verbose=0))
""", """
model = build_model(X_train.shape[1])
history = model.fit(X_train, y_train, validation_split=0.2, epochs=3, batch_size=256,
                    class_weight={0: 1.0, 1: 3.0}, verbose=0)
print(model.evaluate(X_test, y_test, verbose=0))
""")

_add("keras: chest X-ray-like scans trained from .npy files batch by batch", _KERAS + """
import os

rng = np.random.default_rng(24)
IMG_SIZE = 48
BATCH_SIZE = 32
n = 1000
os.makedirs('xray/train', exist_ok=True)
yy, xx = np.mgrid[0:IMG_SIZE, 0:IMG_SIZE]
train_paths, train_labels = [], []
for i in range(n):
    label = int(rng.random() < 0.6)
    img = 90 + 60 * np.exp(-((xx - 14) ** 2 + (yy - 24) ** 2) / 120) + 60 * np.exp(-((xx - 34) ** 2 + (yy - 24) ** 2) / 120)
    if label:
        cx, cy = rng.integers(10, 38, 2)
        img = img + 70 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 40)
    img = np.clip(img + rng.normal(0, 18, img.shape), 0, 255).astype(np.uint8)
    path = f'xray/train/img_{i:04d}.npy'
    np.save(path, img)
    train_paths.append(path)
    train_labels.append(label)
train_labels = np.array(train_labels)

model = keras.Sequential([
    keras.Input(shape=(IMG_SIZE, IMG_SIZE, 1)),
    layers.Conv2D(8, 3, activation='relu'),
    layers.MaxPooling2D(),
    layers.Conv2D(16, 3, activation='relu'),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dense(32, activation='relu'),
    layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
print(len(train_paths), train_labels.mean())
""", """
EPOCHS = 2


def load_batch(step):
    paths = train_paths[step * BATCH_SIZE:(step + 1) * BATCH_SIZE]
    X = np.stack([np.load(p) for p in paths]).astype('float32') / 255.0
    X = X.reshape(BATCH_SIZE, IMG_SIZE, IMG_SIZE, 1)
    y = train_labels[step * BATCH_SIZE:(step + 1) * BATCH_SIZE]
    return X, y


steps = int(np.ceil(len(train_paths) / BATCH_SIZE))
for epoch in range(EPOCHS):
    losses, accs = [], []
    for step in range(steps):
        Xb, yb = load_batch(step)
        loss, acc = model.train_on_batch(Xb, yb)
        losses.append(loss)
        accs.append(acc)
    print(f'epoch {epoch + 1}: loss {np.mean(losses):.4f} acc {np.mean(accs):.4f}')
""", """
EPOCHS = 2


def load_batch(step):
    paths = train_paths[step * BATCH_SIZE:(step + 1) * BATCH_SIZE]
    X = np.stack([np.load(p) for p in paths]).astype('float32') / 255.0
    X = X.reshape(len(paths), IMG_SIZE, IMG_SIZE, 1)
    y = train_labels[step * BATCH_SIZE:(step + 1) * BATCH_SIZE]
    return X, y


steps = int(np.ceil(len(train_paths) / BATCH_SIZE))
for epoch in range(EPOCHS):
    losses, accs = [], []
    for step in range(steps):
        Xb, yb = load_batch(step)
        loss, acc = model.train_on_batch(Xb, yb)
        losses.append(loss)
        accs.append(acc)
    print(f'epoch {epoch + 1}: loss {np.mean(losses):.4f} acc {np.mean(accs):.4f}')
""")

# ---------------------------------------------------------------- torch

_add("torch: heart disease logistic network on a NumPy feature matrix", _TORCH + "import pandas as pd\n" + _HEART + """
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

heart = make_heart(303, seed=25)
X = heart.drop(columns='target').to_numpy()
y = heart['target'].to_numpy()
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42, stratify=y)
scaler = StandardScaler()
X_train = scaler.fit_transform(X_train)
X_test = scaler.transform(X_test)


class HeartNet(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.fc1 = nn.Linear(n_in, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = HeartNet(X_train.shape[1])
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
""", """
X_train_t = torch.from_numpy(X_train)
y_train_t = torch.from_numpy(y_train).float().unsqueeze(1)
X_test_t = torch.from_numpy(X_test)

for epoch in range(200):
    optimizer.zero_grad()
    loss = criterion(model(X_train_t), y_train_t)
    loss.backward()
    optimizer.step()

with torch.no_grad():
    test_acc = ((model(X_test_t) > 0).squeeze(1).numpy() == y_test).mean()
print(f'final loss {loss.item():.4f}, test accuracy {test_acc:.3f}')
""", """
X_train_t = torch.from_numpy(X_train).float()
y_train_t = torch.from_numpy(y_train).float().unsqueeze(1)
X_test_t = torch.from_numpy(X_test).float()

for epoch in range(200):
    optimizer.zero_grad()
    loss = criterion(model(X_train_t), y_train_t)
    loss.backward()
    optimizer.step()

with torch.no_grad():
    test_acc = ((model(X_test_t) > 0).squeeze(1).numpy() == y_test).mean()
print(f'final loss {loss.item():.4f}, test accuracy {test_acc:.3f}')
""")

_add("torch: Telco churn MLP trained with BCELoss from a DataLoader", _TORCH + "import pandas as pd\n" + _TELCO + """
from torch.utils.data import TensorDataset, DataLoader
from sklearn.preprocessing import StandardScaler

telco = make_telco(4000, seed=26)
telco['TotalCharges'] = pd.to_numeric(telco['TotalCharges'], errors='coerce').fillna(0)
y = (telco['Churn'] == 'Yes').astype('float32').to_numpy()
X = pd.get_dummies(telco.drop(columns=['customerID', 'Churn']), drop_first=True, dtype=float)
X = StandardScaler().fit_transform(X).astype('float32')
train_ds = TensorDataset(torch.from_numpy(X[:3200]), torch.from_numpy(y[:3200]))
val_X, val_y = torch.from_numpy(X[3200:]), torch.from_numpy(y[3200:])
loader = DataLoader(train_ds, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))

model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
print(X.shape)
""", """
criterion = nn.BCELoss()
for epoch in range(5):
    model.train()
    running = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        out = model(xb)
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        val_acc = ((model(val_X).squeeze(1) > 0.5).float() == val_y).float().mean().item()
    print(f'epoch {epoch}: loss {running / len(train_ds):.4f} val acc {val_acc:.3f}')
""", """
criterion = nn.BCELoss()
for epoch in range(5):
    model.train()
    running = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        out = model(xb).squeeze(1)
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        val_acc = ((model(val_X).squeeze(1) > 0.5).float() == val_y).float().mean().item()
    print(f'epoch {epoch}: loss {running / len(train_ds):.4f} val acc {val_acc:.3f}')
""")

_add("torch: EuroSAT-like land-cover CNN with a flatten sized by the batch constant", _TORCH + _IMAGES + """
from torch.utils.data import TensorDataset, DataLoader

imgs, labels = make_images(2050, seed=27)
X = torch.from_numpy(imgs).permute(0, 3, 1, 2).float() / 255.0
y = torch.from_numpy(labels).long()
BATCH_SIZE = 64
train_loader = DataLoader(TensorDataset(X, y), batch_size=BATCH_SIZE, shuffle=True,
                          generator=torch.Generator().manual_seed(0))
print(X.shape, len(train_loader))
""", """
class LandCoverCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(32 * 8 * 8, 64)
        self.fc2 = nn.Linear(64, n_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(BATCH_SIZE, -1)
        return self.fc2(F.relu(self.fc1(x)))


model = LandCoverCNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
for epoch in range(2):
    correct, total = 0, 0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        correct += (logits.argmax(1) == yb).sum().item()
        total += len(yb)
    print(f'epoch {epoch}: loss {loss.item():.4f} train acc {correct / total:.3f}')
""", """
class LandCoverCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(32 * 8 * 8, 64)
        self.fc2 = nn.Linear(64, n_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        return self.fc2(F.relu(self.fc1(x)))


model = LandCoverCNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
for epoch in range(2):
    correct, total = 0, 0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        correct += (logits.argmax(1) == yb).sum().item()
        total += len(yb)
    print(f'epoch {epoch}: loss {loss.item():.4f} train acc {correct / total:.3f}')
""")

_add("torch: Spotify popularity regression evaluated on the test tensor", _TORCH + "import pandas as pd\n" + _TRACKS + """
from torch.utils.data import TensorDataset, DataLoader

tracks = make_tracks(20000, seed=28)
num = ['danceability', 'energy', 'key', 'loudness', 'mode', 'speechiness', 'acousticness',
       'instrumentalness', 'liveness', 'valence', 'tempo', 'duration_ms']
Xn = tracks[num].to_numpy(dtype='float32')
Xn = (Xn - Xn.mean(0)) / Xn.std(0)
yn = tracks['popularity'].to_numpy(dtype='float32')
X_train_t, X_test_t = torch.from_numpy(Xn[:16000]), torch.from_numpy(Xn[16000:])
y_train_t, y_test = torch.from_numpy(yn[:16000]), yn[16000:]
loader = DataLoader(TensorDataset(X_train_t, y_train_t), batch_size=128, shuffle=True,
                    generator=torch.Generator().manual_seed(0))
""", """
model = nn.Sequential(nn.Linear(len(num), 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
criterion = nn.MSELoss()
for epoch in range(6):
    model.train()
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb).squeeze(1), yb)
        loss.backward()
        optimizer.step()

model.eval()
test_pred = model(X_test_t).squeeze(1).numpy()
rmse = np.sqrt(np.mean((test_pred - y_test) ** 2))
print(f'test RMSE {rmse:.2f}')
""", """
model = nn.Sequential(nn.Linear(len(num), 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
criterion = nn.MSELoss()
for epoch in range(6):
    model.train()
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb).squeeze(1), yb)
        loss.backward()
        optimizer.step()

model.eval()
with torch.no_grad():
    test_pred = model(X_test_t).squeeze(1).numpy()
rmse = np.sqrt(np.mean((test_pred - y_test) ** 2))
print(f'test RMSE {rmse:.2f}')
""")

_add("torch: bike sharing hourly demand LSTM with hidden state carried across chunks", _TORCH + """
rng = np.random.default_rng(29)
hours = np.arange(24 * 120)
demand = (180 + 120 * np.sin(2 * np.pi * (hours % 24 - 6) / 24) + 40 * np.sin(2 * np.pi * hours / (24 * 7))
          + rng.normal(0, 20, len(hours))).clip(0)
series = torch.tensor((demand - demand.mean()) / demand.std(), dtype=torch.float32)
SEQ_LEN = 48


class DemandLSTM(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, hidden=None):
        out, hidden = self.lstm(x, hidden)
        return self.head(out), hidden


model = DemandLSTM()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.MSELoss()
""", """
for epoch in range(3):
    hidden = None
    total = 0.0
    for start in range(0, len(series) - SEQ_LEN - 1, SEQ_LEN):
        x = series[start:start + SEQ_LEN].view(1, SEQ_LEN, 1)
        target = series[start + 1:start + SEQ_LEN + 1].view(1, SEQ_LEN, 1)
        pred, hidden = model(x, hidden)
        loss = criterion(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f'epoch {epoch}: loss {total:.3f}')
""", """
for epoch in range(3):
    hidden = None
    total = 0.0
    for start in range(0, len(series) - SEQ_LEN - 1, SEQ_LEN):
        x = series[start:start + SEQ_LEN].view(1, SEQ_LEN, 1)
        target = series[start + 1:start + SEQ_LEN + 1].view(1, SEQ_LEN, 1)
        pred, hidden = model(x, hidden)
        hidden = tuple(h.detach() for h in hidden)
        loss = criterion(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f'epoch {epoch}: loss {total:.3f}')
""")

# ---------------------------------------------------------------- matplotlib / seaborn

_add("seaborn: medical insurance charges plots with an old style name", _PD + _MPL + _INSURANCE + """
insurance = make_insurance(1338, seed=30)
print(insurance.shape)
""", """
plt.style.use('seaborn')
fig, axes = plt.subplots(1, 2, figsize=(14, 5))
sns.histplot(insurance['charges'], kde=True, ax=axes[0])
axes[0].set_title('Distribution of charges')
sns.boxplot(x='smoker', y='charges', hue='sex', data=insurance, ax=axes[1])
axes[1].set_title('Charges by smoking status')
plt.tight_layout()
""", """
plt.style.use('seaborn-v0_8')
fig, axes = plt.subplots(1, 2, figsize=(14, 5))
sns.histplot(insurance['charges'], kde=True, ax=axes[0])
axes[0].set_title('Distribution of charges')
sns.boxplot(x='smoker', y='charges', hue='sex', data=insurance, ax=axes[1])
axes[1].set_title('Charges by smoking status')
plt.tight_layout()
""")

_add("matplotlib: Spotify audio-feature histograms on a subplot grid", _PD + _MPL + _TRACKS + """
tracks = make_tracks(4000, seed=31)
numeric_cols = tracks.select_dtypes('number').columns.tolist()
print(len(numeric_cols), numeric_cols)
""", """
fig, axes = plt.subplots(3, 4, figsize=(18, 11))
for i, col in enumerate(numeric_cols):
    ax = axes[i // 4, i % 4]
    sns.histplot(tracks[col], kde=True, bins=40, ax=ax, color='seagreen')
    ax.set_title(col)
plt.tight_layout()
""", """
n_rows = int(np.ceil(len(numeric_cols) / 4))
fig, axes = plt.subplots(n_rows, 4, figsize=(18, 3.7 * n_rows))
for i, col in enumerate(numeric_cols):
    ax = axes[i // 4, i % 4]
    sns.histplot(tracks[col], kde=True, bins=40, ax=ax, color='seagreen')
    ax.set_title(col)
for ax in axes.flat[len(numeric_cols):]:
    ax.set_visible(False)
plt.tight_layout()
""")

# ---------------------------------------------------------------- xgboost / lightgbm

_add("xgboost: wine quality multi-class classifier on the raw quality scores", _PD + _WINE + """
from sklearn.model_selection import train_test_split
from xgboost import XGBClassifier

wine = make_wine(1599, seed=32)
X = wine.drop(columns='quality')
y = wine['quality']
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42)
print(y_train.value_counts().sort_index())
""", """
xgb_clf = XGBClassifier(n_estimators=200, learning_rate=0.05, max_depth=5, n_jobs=1, random_state=42)
xgb_clf.fit(X_train, y_train)
pred = xgb_clf.predict(X_test)
print('accuracy', (pred == y_test).mean())
""", """
from sklearn.preprocessing import LabelEncoder

le = LabelEncoder()
y_train_enc = le.fit_transform(y_train)
xgb_clf = XGBClassifier(n_estimators=200, learning_rate=0.05, max_depth=5, n_jobs=1, random_state=42)
xgb_clf.fit(X_train, y_train_enc)
pred = le.inverse_transform(xgb_clf.predict(X_test))
print('accuracy', (pred == y_test).mean())
""")

_add("lightgbm: Spaceship Titanic 5-fold models averaged on the test set", _PD + _SPACESHIP + """
import lightgbm as lgb
from sklearn.model_selection import StratifiedKFold

train = make_spaceship(8693, seed=33)
test = make_spaceship(4277, seed=34, with_target=False)
for df in (train, test):
    df[['Deck', 'Num', 'Side']] = df['Cabin'].str.split('/', expand=True)
    df['Num'] = pd.to_numeric(df['Num'])
    df['TotalSpend'] = df[['RoomService', 'FoodCourt', 'ShoppingMall', 'Spa', 'VRDeck']].sum(axis=1)
    df['CryoSleep'] = df['CryoSleep'].astype(int)
    df['VIP'] = df['VIP'].astype(int)
y = train['Transported'].astype(int)
features = ['HomePlanet', 'CryoSleep', 'Destination', 'Age', 'VIP', 'RoomService', 'FoodCourt',
            'ShoppingMall', 'Spa', 'VRDeck', 'Deck', 'Num', 'Side', 'TotalSpend']
cat_cols = ['HomePlanet', 'Destination', 'Deck', 'Side']
""", """
for c in cat_cols:
    train[c] = train[c].astype('category')

skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(train))
models = []
for fold, (tr, va) in enumerate(skf.split(train, y)):
    m = lgb.LGBMClassifier(n_estimators=200, learning_rate=0.05, num_leaves=31, n_jobs=1,
                           random_state=fold, verbose=-1)
    m.fit(train.iloc[tr][features], y.iloc[tr])
    oof[va] = m.predict_proba(train.iloc[va][features])[:, 1]
    models.append(m)
    print(f'fold {fold}: acc {((oof[va] > 0.5) == y.iloc[va]).mean():.4f}')

print('OOF accuracy', ((oof > 0.5) == y).mean())
test_pred = np.mean([m.predict_proba(test[features])[:, 1] for m in models], axis=0)
submission = pd.DataFrame({'PassengerId': test['PassengerId'], 'Transported': test_pred > 0.5})
""", """
for c in cat_cols:
    train[c] = train[c].astype('category')
    test[c] = pd.Categorical(test[c], categories=train[c].cat.categories)

skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(train))
models = []
for fold, (tr, va) in enumerate(skf.split(train, y)):
    m = lgb.LGBMClassifier(n_estimators=200, learning_rate=0.05, num_leaves=31, n_jobs=1,
                           random_state=fold, verbose=-1)
    m.fit(train.iloc[tr][features], y.iloc[tr])
    oof[va] = m.predict_proba(train.iloc[va][features])[:, 1]
    models.append(m)
    print(f'fold {fold}: acc {((oof[va] > 0.5) == y.iloc[va]).mean():.4f}')

print('OOF accuracy', ((oof > 0.5) == y).mean())
test_pred = np.mean([m.predict_proba(test[features])[:, 1] for m in models], axis=0)
submission = pd.DataFrame({'PassengerId': test['PassengerId'], 'Transported': test_pred > 0.5})
""")

# ---------------------------------------------------------------- plain Python

_add("python: disaster tweets cleaned and counted from a JSON dump", _NP + """
import json

rng = np.random.default_rng(35)
words = np.array(['fire', 'flood', 'earthquake', 'storm', 'love', 'music', 'game', 'tonight', 'happy', 'video',
                  'the', 'a', 'in', 'on', 'my', 'is', 'at', 'this', 'just', 'so', 'rescue', 'crash', 'pizza', 'summer'])
cities = np.array(['New York', 'London', 'Los Angeles, CA', 'Mumbai', 'Nairobi', 'Toronto', 'USA', 'Worldwide', ''])
n = 100000
word_idx = rng.integers(0, len(words), (n, 14))
lengths = rng.integers(5, 15, n)
has_url = rng.random(n) < 0.5
locations = rng.choice(cities, n)
keywords = rng.choice(words[:4], n)
targets = (rng.random(n) < 0.43).astype(int)
records = []
for i in range(n):
    text = ' '.join(words[word_idx[i, :lengths[i]]]) + (f' http://t.co/{i:x}' if has_url[i] else '') + ' #' + words[word_idx[i, 0]]
    records.append({'id': i, 'keyword': str(keywords[i]), 'location': str(locations[i]),
                    'text': text, 'target': int(targets[i])})
# the last records came from a second scrape where a missing location is null, not ''
for rec in records[-15:]:
    rec['location'] = None
with open('tweets.json', 'w') as f:
    json.dump(records, f)
STOPWORDS = {'the', 'a', 'in', 'on', 'my', 'is', 'at', 'this', 'just', 'so'}
""", """
import re
import string
from collections import Counter

with open('tweets.json') as f:
    tweets = json.load(f)

url_re = re.compile(r'https?://\\S+')
word_counts = {0: Counter(), 1: Counter()}
loc_counts = Counter()
cleaned = []
for t in tweets:
    text = url_re.sub('', t['text'].lower())
    text = text.translate(str.maketrans('', '', string.punctuation))
    tokens = [w for w in text.split() if w not in STOPWORDS]
    word_counts[t['target']].update(tokens)
    loc = t['location'].strip().lower()
    if loc:
        loc_counts[loc] += 1
    cleaned.append(' '.join(tokens))

print(word_counts[1].most_common(5))
print(loc_counts.most_common(5))
""", """
import re
import string
from collections import Counter

with open('tweets.json') as f:
    tweets = json.load(f)

url_re = re.compile(r'https?://\\S+')
word_counts = {0: Counter(), 1: Counter()}
loc_counts = Counter()
cleaned = []
for t in tweets:
    text = url_re.sub('', t['text'].lower())
    text = text.translate(str.maketrans('', '', string.punctuation))
    tokens = [w for w in text.split() if w not in STOPWORDS]
    word_counts[t['target']].update(tokens)
    loc = (t['location'] or '').strip().lower()
    if loc:
        loc_counts[loc] += 1
    cleaned.append(' '.join(tokens))

print(word_counts[1].most_common(5))
print(loc_counts.most_common(5))
""")

_add("python: fraud transactions flagged list written to an output folder", _NP + """
rng = np.random.default_rng(36)
n = 5000
transactions = [
    {'id': f'T{i:06d}', 'amount': round(float(a), 2), 'merchant': str(m)}
    for i, (a, m) in enumerate(zip(rng.lognormal(3.5, 1.1, n), rng.choice(['grocery', 'electronics', 'travel', 'fuel'], n)))
]
scores = {t['id']: float(s) for t, s in zip(transactions, rng.beta(1, 12, n))}
print(len(transactions), sum(s > 0.3 for s in scores.values()))
""", """
import csv

THRESHOLD = 0.3
flagged = sorted((t for t in transactions if scores[t['id']] > THRESHOLD), key=lambda t: -scores[t['id']])
with open('output/flagged_transactions.csv', 'w', newline='') as f:
    writer = csv.DictWriter(f, fieldnames=['id', 'amount', 'merchant', 'score'])
    writer.writeheader()
    for t in flagged:
        writer.writerow({**t, 'score': round(scores[t['id']], 4)})
print(f'wrote {len(flagged)} flagged transactions')
""", """
import csv
import os

THRESHOLD = 0.3
flagged = sorted((t for t in transactions if scores[t['id']] > THRESHOLD), key=lambda t: -scores[t['id']])
os.makedirs('output', exist_ok=True)
with open('output/flagged_transactions.csv', 'w', newline='') as f:
    writer = csv.DictWriter(f, fieldnames=['id', 'amount', 'merchant', 'score'])
    writer.writeheader()
    for t in flagged:
        writer.writerow({**t, 'score': round(scores[t['id']], 4)})
print(f'wrote {len(flagged)} flagged transactions')
""")
