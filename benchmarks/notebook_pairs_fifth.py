"""A fifth set of crash/fix pairs for the notebook path: (name, setup, crashing cell, fixed cell).

Written on 2026-12-03 by a helper who did not read the tool's code, docs, tests or the earlier
pair sets. Thirty pairs of Kaggle-style cells: pandas 6, numpy 3, scikit-learn 6, Keras 3 (through
`from tensorflow import keras`) 4, torch on CPU 5, matplotlib 1, seaborn 1, xgboost 1, lightgbm 1,
plain Python 2. All data are synthetic (numpy generators with fixed seeds) built in the set-ups and
shaped like well-known competition data: Titanic passengers, Ames house prices, Taiwan-style credit
default clients, digit-recognizer pixel rows, clothing-review text, store/daily sales, hourly energy
load; two set-ups write CSV files into the working directory. Nothing is downloaded.

Root causes: APIs removed or changed in the installed versions (DataFrame.append, groupby-mean over a
text column, np.NaN, OneHotEncoder(sparse=...), get_feature_names, Adam(lr=...), positional x/y in
seaborn, early_stopping_rounds in XGBoost's fit); data confusion (merge keys of different dtypes, NaN
titles in late rows, axis mix-up in broadcasting, a label unseen in training, train-only engineered
features at predict time, an id column fed to a network, out-of-fold predictions put in a test-sized
submission, a missing month file); model confusion (an estimator never fitted, MultinomialNB on scaled
negative data inside cross-validation, integer labels with categorical cross-entropy, float64 tensors
into a float32 layer, BCE target shape, numpy() on a tensor that requires grad, a recurrent state
carried across batches without detach, a save path without extension); cells that are not idempotent
(the set-up holds the cell's first run: dropping columns, list.remove); a name defined in a later
cell; off-by-one and last-pass errors (window targets past the series end, a hard-coded batch size
that breaks on the smaller last batch, more columns than subplot slots, a month range one past the
files on disk).

Timing (measured on a 2-core machine, cell time only): 18 crashing cells raise within 0.3 s of the
cell starting; 2 after about 0.3-0.7 s (a Keras fit that fails while tracing, a subplot grid that
fails on its last column); 10 first do about 1-7 s of real work (row loops, window loops, TF-IDF +
logistic regression, random forest, 5-fold model comparison, Keras and torch training, 5-fold
LightGBM, parsing CSV files) before raising, four of them only in a loop's last pass (last window,
last model, last batch, last file) and one in the last few thousand rows. No set-up or cell took
more than about 11 s; the Keras set-ups spend most of theirs importing TensorFlow.

How truth was decided: a checker ran every pair in fresh processes of the project's Python 3.11
virtual environment (pandas 2.3, numpy 2.4, scikit-learn 1.9, Keras 3.15 on TensorFlow 2.21, torch
2.13 CPU, xgboost 3.2, lightgbm 4.7, matplotlib 3.11 with the Agg backend, seaborn 0.13), each in a
fresh temporary directory: set-up then crashing cell (the set-up must succeed and the cell must raise,
with the cell's own code in the traceback), and set-up then fixed cell (both must run without raising;
warnings allowed). The whole check was run twice, sequentially; all 60 of 60 runs passed both times.
"""

_PD = "import numpy as np\nimport pandas as pd\n"
_PLT = "import matplotlib\nimport matplotlib.pyplot as plt\n"
_TORCH = "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
_KERAS = "from tensorflow import keras\nkeras.utils.set_random_seed(0)\n"

# Titanic-like passengers (891 train rows / 418 test rows in the real competition).
_TITANIC = '''
def make_titanic(n, seed, start_id=1, labelled=True):
    rng = np.random.default_rng(seed)
    pclass = rng.choice([1, 2, 3], size=n, p=[0.24, 0.21, 0.55])
    sex = rng.choice(['male', 'female'], size=n, p=[0.65, 0.35])
    title = np.where(sex == 'male',
                     rng.choice(['Mr', 'Master', 'Dr', 'Rev'], size=n, p=[0.9, 0.06, 0.02, 0.02]),
                     rng.choice(['Miss', 'Mrs', 'Ms'], size=n, p=[0.5, 0.48, 0.02]))
    age = np.round(rng.normal(30, 14, size=n).clip(0.4, 80), 1)
    boys = title == 'Master'
    age[boys] = np.round(rng.uniform(0.4, 12, size=boys.sum()), 1)
    age[rng.random(n) < 0.2] = np.nan
    sibsp = rng.choice([0, 1, 2, 3, 4], size=n, p=[0.68, 0.23, 0.05, 0.02, 0.02])
    parch = rng.choice([0, 1, 2, 3], size=n, p=[0.76, 0.13, 0.09, 0.02])
    fare = np.round(rng.lognormal(2.6, 0.9, size=n) * (4 - pclass), 4)
    embarked = rng.choice(['S', 'C', 'Q'], size=n, p=[0.72, 0.19, 0.09]).astype(object)
    embarked[rng.random(n) < 0.004] = np.nan
    surname = rng.choice(['Smith', 'Brown', 'Andersson', 'Kelly', 'Sage', 'Goodwin',
                          'Rice', 'Baxter', 'Palsson', 'Carter'], size=n)
    first = rng.choice(['John', 'Mary', 'William', 'Anna', 'James', 'Elin', 'Thomas', 'Margaret'], size=n)
    name = [f'{s}, {t}. {f}' for s, t, f in zip(surname, title, first)]
    cabin = np.array([f'{d}{k}' for d, k in zip(rng.choice(list('ABCDEF'), size=n),
                                                 rng.integers(1, 130, size=n))], dtype=object)
    cabin[rng.random(n) < 0.77] = np.nan
    df = pd.DataFrame({'PassengerId': np.arange(start_id, start_id + n), 'Pclass': pclass,
                       'Name': name, 'Sex': sex, 'Age': age, 'SibSp': sibsp, 'Parch': parch,
                       'Ticket': [f'PC {t}' for t in rng.integers(1000, 99999, size=n)],
                       'Fare': fare, 'Cabin': cabin, 'Embarked': embarked})
    if labelled:
        logit = (2.4 * (sex == 'female') - 0.9 * (pclass - 2)
                 - 0.02 * (np.nan_to_num(age, nan=30.0) - 30) - 0.3 * (sibsp > 2) - 0.9)
        df.insert(1, 'Survived', (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int))
    return df
'''

# Ames-like house prices (a handful of the real columns).
_HOUSES = '''
def make_houses(n, seed, start_id=1, labelled=True):
    rng = np.random.default_rng(seed)
    hood = rng.choice(['NAmes', 'CollgCr', 'OldTown', 'Edwards', 'Somerst', 'Gilbert',
                       'NridgHt', 'Sawyer', 'NWAmes', 'BrkSide'], size=n)
    qual = rng.integers(2, 11, size=n)
    area = rng.normal(1000 + 110 * qual, 350).clip(350, 5000).round()
    year = rng.integers(1880, 2011, size=n)
    garage = rng.choice([0, 1, 2, 3], size=n, p=[0.05, 0.25, 0.56, 0.14])
    lot = rng.lognormal(9.1, 0.45, size=n).round()
    bsmt = (area * rng.uniform(0.0, 1.1, size=n)).round()
    bath = rng.choice([1, 2, 3], size=n, p=[0.45, 0.5, 0.05])
    bed = rng.choice([1, 2, 3, 4, 5], size=n, p=[0.04, 0.25, 0.55, 0.14, 0.02])
    masvnr = np.where(rng.random(n) < 0.6, 0.0, rng.gamma(2, 120, size=n).round())
    masvnr[rng.random(n) < 0.006] = np.nan
    cond = rng.choice(['Normal', 'Abnorml', 'Partial', 'Family', 'Alloca'], size=n,
                      p=[0.82, 0.07, 0.085, 0.015, 0.01])
    df = pd.DataFrame({'Id': np.arange(start_id, start_id + n), 'Neighborhood': hood,
                       'OverallQual': qual, 'GrLivArea': area, 'YearBuilt': year,
                       'GarageCars': garage, 'LotArea': lot, 'TotalBsmtSF': bsmt,
                       'FullBath': bath, 'BedroomAbvGr': bed, 'MasVnrArea': masvnr,
                       'SaleCondition': cond})
    if labelled:
        price = (20000 + 55 * area + 16000 * qual + 420 * (year - 1880) + 8000 * garage
                 + 0.8 * lot + 25 * bsmt)
        df['SalePrice'] = (price * rng.lognormal(0, 0.12, size=n)).round()
    return df
'''

# Taiwan-credit-default-like clients: limit, demographics, 6 months of repayment status/bills/payments.
_CREDIT = '''
def make_credit(n, seed, start_id=1, labelled=True):
    rng = np.random.default_rng(seed)
    limit = rng.choice(np.arange(10000, 500001, 10000), size=n)
    df = pd.DataFrame({'ID': np.arange(start_id, start_id + n), 'LIMIT_BAL': limit,
                       'SEX': rng.integers(1, 3, size=n), 'EDUCATION': rng.integers(1, 5, size=n),
                       'MARRIAGE': rng.integers(1, 4, size=n), 'AGE': rng.integers(21, 75, size=n)})
    pay = rng.choice([-1, 0, 1, 2, 3], size=(n, 6), p=[0.2, 0.55, 0.12, 0.1, 0.03])
    bill = rng.gamma(2.0, 20000, size=(n, 6)).round()
    paid = (bill * rng.uniform(0, 0.3, size=(n, 6))).round()
    for k in range(6):
        df[f'PAY_{k}'] = pay[:, k]
    for k in range(6):
        df[f'BILL_AMT{k + 1}'] = bill[:, k]
    for k in range(6):
        df[f'PAY_AMT{k + 1}'] = paid[:, k]
    if labelled:
        logit = -1.6 + 0.6 * pay[:, 0] + 0.3 * (pay[:, 1] > 0) - limit / 400000
        df['default'] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return df
'''

# Digit-recognizer-like pixels: a 'label' column then pixel0..pixel783 (uint8).
_DIGITS = '''
def make_digits(n, seed):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:28, 0:28]
    templates = []
    for d in range(10):
        cx, cy = 14 + 6 * np.cos(d), 14 + 6 * np.sin(d)
        ring = np.abs(np.hypot(xx - cx, yy - cy) - 3 - d % 4) < 1.6
        bar = (np.abs(xx - 8 - 1.2 * d) < 1.5) & (yy > 4) & (yy < 24)
        templates.append(ring | bar)
    templates = np.array(templates, dtype=float)
    labels = rng.integers(0, 10, size=n)
    imgs = templates[labels] * rng.uniform(150, 255, size=(n, 1, 1)) + rng.normal(0, 30, size=(n, 28, 28))
    pixels = imgs.clip(0, 255).astype(np.uint8).reshape(n, 784)
    df = pd.DataFrame(pixels, columns=[f'pixel{i}' for i in range(784)])
    df.insert(0, 'label', labels)
    return df
'''

# Women's-clothing-reviews-like text: Title, Review Text, Rating.
_REVIEWS = '''
POS = ['great', 'love', 'perfect', 'excellent', 'comfortable', 'beautiful', 'recommend', 'soft', 'flattering']
NEG = ['poor', 'cheap', 'tight', 'return', 'disappointed', 'broke', 'itchy', 'wrinkled', 'unflattering']
NEUTRAL = ['dress', 'fit', 'fabric', 'color', 'size', 'top', 'jeans', 'order', 'really', 'the',
           'and', 'a', 'is', 'it', 'was', 'this', 'i', 'very', 'bit', 'length']

def make_reviews(n, seed, missing_title=0.0):
    rng = np.random.default_rng(seed)
    rating = rng.choice([1, 2, 3, 4, 5], size=n, p=[0.04, 0.07, 0.12, 0.22, 0.55])
    good = (rating >= 4)[:, None]
    mood = np.where(good, rng.choice(POS, size=(n, 4)), rng.choice(NEG, size=(n, 4)))
    other = np.where(good, rng.choice(NEG, size=(n, 4)), rng.choice(POS, size=(n, 4)))
    mood = np.where(rng.random((n, 4)) < 0.2, other, mood)
    words = rng.permuted(np.concatenate([rng.choice(NEUTRAL, size=(n, 18)), mood], axis=1), axis=1)
    texts = [' '.join(w) + '.' for w in words]
    title_words = np.where(good, rng.choice(POS, size=(n, 2)), rng.choice(NEG, size=(n, 2)))
    titles = [(a + ' ' + b).title() + '!' for a, b in title_words]
    df = pd.DataFrame({'Clothing ID': rng.integers(0, 1200, size=n), 'Age': rng.integers(18, 80, size=n),
                       'Title': titles, 'Review Text': texts, 'Rating': rating})
    df.loc[rng.random(n) < missing_title, 'Title'] = np.nan
    return df
'''

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup.strip() + "\n", crash.strip() + "\n", fixed.strip() + "\n"))


# ----------------------------------------------------------------------------------------- pandas

_add("pandas: stacking monthly sales summaries into one table", _PD + """
rng = np.random.default_rng(7)
dates = pd.date_range('2019-01-01', '2019-12-31', freq='D')
sales = pd.DataFrame({'date': np.repeat(dates, 10), 'store': np.tile(np.arange(1, 11), len(dates))})
season = 1 + 0.3 * np.sin(sales['date'].dt.dayofyear / 58)
sales['sales'] = (rng.gamma(5, 800, size=len(sales)) * season).round(2)
sales['customers'] = rng.poisson(600, size=len(sales))
sales['month'] = sales['date'].dt.month
sales.head()
""", """
summary = pd.DataFrame()
for m in range(1, 13):
    part = sales[sales['month'] == m]
    row = {'month': m,
           'total_sales': part['sales'].sum(),
           'avg_customers': part['customers'].mean(),
           'best_store': part.groupby('store')['sales'].sum().idxmax()}
    summary = summary.append(row, ignore_index=True)
summary
""", """
rows = []
for m in range(1, 13):
    part = sales[sales['month'] == m]
    row = {'month': m,
           'total_sales': part['sales'].sum(),
           'avg_customers': part['customers'].mean(),
           'best_store': part.groupby('store')['sales'].sum().idxmax()}
    rows.append(row)
summary = pd.DataFrame(rows)
summary
""")

_add("pandas: average house features per neighbourhood", _PD + _HOUSES + """
train = make_houses(1460, 0)
train.info()
""", """
hood_stats = train.groupby('Neighborhood').mean().sort_values('SalePrice', ascending=False)
hood_stats[['SalePrice', 'OverallQual', 'GrLivArea', 'YearBuilt']].head(10)
""", """
hood_stats = train.groupby('Neighborhood').mean(numeric_only=True).sort_values('SalePrice', ascending=False)
hood_stats[['SalePrice', 'OverallQual', 'GrLivArea', 'YearBuilt']].head(10)
""")

_add("pandas: joining store metadata onto the daily sales", _PD + """
rng = np.random.default_rng(11)
n_stores = 50
dates = pd.date_range('2015-01-01', periods=180, freq='D')
raw = pd.DataFrame({'Store': np.repeat(np.arange(1, n_stores + 1), len(dates)),
                    'Date': np.tile(dates, n_stores)})
raw['Sales'] = rng.poisson(5500, size=len(raw))
raw['Promo'] = rng.integers(0, 2, size=len(raw))
raw.to_csv('train.csv', index=False)
pd.DataFrame({'Store': np.arange(1, n_stores + 1),
              'StoreType': rng.choice(list('abcd'), size=n_stores),
              'Assortment': rng.choice(list('abc'), size=n_stores),
              'CompetitionDistance': rng.integers(20, 20000, size=n_stores),
              'PostCode': [f'{z:05d}' for z in rng.integers(1000, 99999, size=n_stores)]}).to_csv('store.csv', index=False)

train = pd.read_csv('train.csv', parse_dates=['Date'])
# read everything as text so the post codes keep their leading zeros
store = pd.read_csv('store.csv', dtype=str)
train.shape, store.shape
""", """
df = train.merge(store, on='Store', how='left')
df['CompetitionDistance'] = df['CompetitionDistance'].astype(float)
df.groupby('StoreType')['Sales'].mean()
""", """
store['Store'] = store['Store'].astype(int)
df = train.merge(store, on='Store', how='left')
df['CompetitionDistance'] = df['CompetitionDistance'].astype(float)
df.groupby('StoreType')['Sales'].mean()
""")

_add("pandas: family-size features for the Titanic data", _PD + _TITANIC + """
train_raw = make_titanic(891, 1)
train = train_raw.copy()

# first run of the feature cell
train['FamilySize'] = train['SibSp'] + train['Parch'] + 1
train['IsAlone'] = (train['FamilySize'] == 1).astype(int)
train['FarePerPerson'] = train['Fare'] / train['FamilySize']
train = train.drop(columns=['SibSp', 'Parch', 'Ticket', 'Cabin'])
""", """
train['FamilySize'] = train['SibSp'] + train['Parch'] + 1
train['IsAlone'] = (train['FamilySize'] == 1).astype(int)
train['FarePerPerson'] = train['Fare'] / train['FamilySize']
train = train.drop(columns=['SibSp', 'Parch', 'Ticket', 'Cabin'])
train.groupby('IsAlone')['Survived'].mean()
""", """
train = train_raw.copy()
train['FamilySize'] = train['SibSp'] + train['Parch'] + 1
train['IsAlone'] = (train['FamilySize'] == 1).astype(int)
train['FarePerPerson'] = train['Fare'] / train['FamilySize']
train = train.drop(columns=['SibSp', 'Parch', 'Ticket', 'Cabin'])
train.groupby('IsAlone')['Survived'].mean()
""")

_add("pandas: cleaning review titles row by row", _PD + _REVIEWS + """
# the original dump plus the reviews scraped last month
reviews = pd.concat([make_reviews(60000, 1), make_reviews(3000, 2, missing_title=0.05)], ignore_index=True)
reviews.shape
""", """
import re
clean_titles = []
for idx, row in reviews.iterrows():
    t = row['Title'].lower()
    t = re.sub('[^a-z ]', '', t)
    clean_titles.append(t.strip())
reviews['clean_title'] = clean_titles
reviews['clean_title'].value_counts().head(10)
""", """
import re
reviews['Title'] = reviews['Title'].fillna('')
clean_titles = []
for idx, row in reviews.iterrows():
    t = row['Title'].lower()
    t = re.sub('[^a-z ]', '', t)
    clean_titles.append(t.strip())
reviews['clean_title'] = clean_titles
reviews['clean_title'].value_counts().head(10)
""")

_add("pandas: filling missing ages from passenger titles", _PD + _TITANIC + """
train = make_titanic(891, 3)
train['Title'] = train['Name'].str.split(', ').str[1].str.split('.').str[0]
train['Title'] = train['Title'].replace({'Ms': 'Miss', 'Dr': 'Rare', 'Rev': 'Rare'})
train['Title'].value_counts()
""", """
train['Age'] = train['Age'].fillna(train['Title'].map(title_age_median))
train['AgeBand'] = pd.cut(train['Age'], bins=[0, 12, 18, 35, 60, 80],
                          labels=['child', 'teen', 'adult', 'middle', 'senior'])
train[['Title', 'Age', 'AgeBand']].head()
""", """
title_age_median = train.groupby('Title')['Age'].median()
train['Age'] = train['Age'].fillna(train['Title'].map(title_age_median))
train['AgeBand'] = pd.cut(train['Age'], bins=[0, 12, 18, 35, 60, 80],
                          labels=['child', 'teen', 'adult', 'middle', 'senior'])
train[['Title', 'Age', 'AgeBand']].head()
""")

# ------------------------------------------------------------------------------------------ numpy

_add("numpy: replacing sentinel codes with NaN in the credit feature matrix", _PD + _CREDIT + """
train = make_credit(30000, 9)
features = [c for c in train.columns if c not in ('ID', 'default')]
X = train[features].to_numpy()
# the bureau export writes -999 where a value was not reported
rng = np.random.default_rng(99)
mask = rng.random(X.shape) < 0.01
mask[:, :5] = False
X[mask] = -999
(X == -999).sum(axis=0)
""", """
X = X.astype(float)
X[X == -999] = np.NaN
col_means = np.nanmean(X, axis=0)
rows, cols = np.where(np.isnan(X))
X[rows, cols] = col_means[cols]
print('missing after imputation:', np.isnan(X).sum())
""", """
X = X.astype(float)
X[X == -999] = np.nan
col_means = np.nanmean(X, axis=0)
rows, cols = np.where(np.isnan(X))
X[rows, cols] = col_means[cols]
print('missing after imputation:', np.isnan(X).sum())
""")

_add("numpy: standardizing the house-price feature matrix", _PD + _HOUSES + """
train = make_houses(1460, 4)
num_cols = ['OverallQual', 'GrLivArea', 'YearBuilt', 'GarageCars', 'LotArea',
            'TotalBsmtSF', 'FullBath', 'BedroomAbvGr', 'MasVnrArea']
X = train[num_cols].fillna(0).to_numpy(dtype=float)
y = np.log1p(train['SalePrice'].to_numpy())
X.shape
""", """
mu = X.mean(axis=1)
sd = X.std(axis=1)
X_std = (X - mu) / sd
w, *_ = np.linalg.lstsq(np.c_[np.ones(len(X_std)), X_std], y, rcond=None)
print('coefficients:', np.round(w, 3))
""", """
mu = X.mean(axis=0)
sd = X.std(axis=0)
X_std = (X - mu) / sd
w, *_ = np.linalg.lstsq(np.c_[np.ones(len(X_std)), X_std], y, rcond=None)
print('coefficients:', np.round(w, 3))
""")

_add("numpy: building 48-hour windows from the hourly energy series", _PD + """
rng = np.random.default_rng(8)
hours = pd.date_range('2002-01-01', periods=145366, freq='h')
h = np.arange(len(hours))
load = (32000 + 5000 * np.sin(2 * np.pi * h / 24 - 1.5)
        + 4000 * np.cos(2 * np.pi * h / (24 * 365.25)) ** 2 + rng.normal(0, 900, size=len(h)))
energy = pd.DataFrame({'Datetime': hours, 'PJME_MW': load.round(1)})
series = energy['PJME_MW'].to_numpy()
WINDOW = 48
""", """
n_samples = len(series) - WINDOW + 1
X = np.zeros((n_samples, WINDOW), dtype=np.float32)
y = np.zeros(n_samples, dtype=np.float32)
for i in range(n_samples):
    w = series[i:i + WINDOW]
    mu, sd = w.mean(), w.std()
    X[i] = (w - mu) / sd
    y[i] = (series[i + WINDOW] - mu) / sd
print(X.shape, y.shape)
""", """
n_samples = len(series) - WINDOW
X = np.zeros((n_samples, WINDOW), dtype=np.float32)
y = np.zeros(n_samples, dtype=np.float32)
for i in range(n_samples):
    w = series[i:i + WINDOW]
    mu, sd = w.mean(), w.std()
    X[i] = (w - mu) / sd
    y[i] = (series[i + WINDOW] - mu) / sd
print(X.shape, y.shape)
""")

# ---------------------------------------------------------------------------------------- sklearn

_add("sklearn: one-hot encoding the Titanic categorical columns", _PD + _TITANIC + """
from sklearn.preprocessing import OneHotEncoder
train = make_titanic(891, 5)
test = make_titanic(418, 6, start_id=892, labelled=False)
""", """
cat_cols = ['Sex', 'Embarked', 'Pclass']
ohe = OneHotEncoder(sparse=False, handle_unknown='ignore')
train_cat = ohe.fit_transform(train[cat_cols].astype(str))
test_cat = ohe.transform(test[cat_cols].astype(str))
cat_names = ohe.get_feature_names_out(cat_cols)
train_enc = pd.concat([train.drop(columns=cat_cols),
                       pd.DataFrame(train_cat, columns=cat_names, index=train.index)], axis=1)
test_enc = pd.concat([test.drop(columns=cat_cols),
                      pd.DataFrame(test_cat, columns=cat_names, index=test.index)], axis=1)
train_enc.shape, test_enc.shape
""", """
cat_cols = ['Sex', 'Embarked', 'Pclass']
ohe = OneHotEncoder(sparse_output=False, handle_unknown='ignore')
train_cat = ohe.fit_transform(train[cat_cols].astype(str))
test_cat = ohe.transform(test[cat_cols].astype(str))
cat_names = ohe.get_feature_names_out(cat_cols)
train_enc = pd.concat([train.drop(columns=cat_cols),
                       pd.DataFrame(train_cat, columns=cat_names, index=train.index)], axis=1)
test_enc = pd.concat([test.drop(columns=cat_cols),
                      pd.DataFrame(test_cat, columns=cat_names, index=test.index)], axis=1)
train_enc.shape, test_enc.shape
""")

_add("sklearn: TF-IDF sentiment model and its most telling words", _PD + _REVIEWS + """
reviews = make_reviews(40000, 3)
reviews = reviews.dropna(subset=['Review Text'])
y = (reviews['Rating'] >= 4).astype(int)
y.mean()
""", """
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
vec = TfidfVectorizer(ngram_range=(1, 2), min_df=3, sublinear_tf=True)
X_text = vec.fit_transform(reviews['Review Text'])
clf = LogisticRegression(max_iter=1000, C=2.0)
clf.fit(X_text, y)
words = np.array(vec.get_feature_names())
order = np.argsort(clf.coef_[0])
print('most negative:', words[order[:15]])
print('most positive:', words[order[-15:]])
""", """
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
vec = TfidfVectorizer(ngram_range=(1, 2), min_df=3, sublinear_tf=True)
X_text = vec.fit_transform(reviews['Review Text'])
clf = LogisticRegression(max_iter=1000, C=2.0)
clf.fit(X_text, y)
words = np.array(vec.get_feature_names_out())
order = np.argsort(clf.coef_[0])
print('most negative:', words[order[:15]])
print('most positive:', words[order[-15:]])
""")

_add("sklearn: label-encoding the categorical columns of train and test", _PD + _HOUSES + """
from sklearn.preprocessing import LabelEncoder
train = make_houses(1460, 0)
test = make_houses(1459, 1, start_id=1461, labelled=False)
# the test period contains sales from a neighbourhood that had none in the training years
test.loc[[17, 402, 1210], 'Neighborhood'] = 'Blueste'
""", """
for col in ['Neighborhood', 'SaleCondition']:
    le = LabelEncoder()
    train[col] = le.fit_transform(train[col])
    test[col] = le.transform(test[col])
train[['Neighborhood', 'SaleCondition']].nunique()
""", """
for col in ['Neighborhood', 'SaleCondition']:
    le = LabelEncoder()
    le.fit(pd.concat([train[col], test[col]]))
    train[col] = le.transform(train[col])
    test[col] = le.transform(test[col])
train[['Neighborhood', 'SaleCondition']].nunique()
""")

_add("sklearn: random forest on the credit data and test-set predictions", _PD + _CREDIT + """
train = make_credit(12000, 3)
test = make_credit(5000, 4, start_id=12001, labelled=False)
train['UTIL_RATIO'] = train['BILL_AMT1'] / train['LIMIT_BAL']
train['PAY_RATIO'] = train['PAY_AMT1'] / (train['BILL_AMT1'] + 1)
features = [c for c in train.columns if c not in ('ID', 'default')]
len(features)
""", """
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
X_tr, X_va, y_tr, y_va = train_test_split(train[features], train['default'], test_size=0.2,
                                          random_state=0, stratify=train['default'])
rf = RandomForestClassifier(n_estimators=60, max_depth=10, min_samples_leaf=5, n_jobs=-1, random_state=0)
rf.fit(X_tr, y_tr)
print('valid AUC', round(roc_auc_score(y_va, rf.predict_proba(X_va)[:, 1]), 4))
test_pred = rf.predict_proba(test.drop(columns=['ID']))[:, 1]
pd.DataFrame({'ID': test['ID'], 'default': test_pred}).to_csv('submission.csv', index=False)
""", """
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
X_tr, X_va, y_tr, y_va = train_test_split(train[features], train['default'], test_size=0.2,
                                          random_state=0, stratify=train['default'])
rf = RandomForestClassifier(n_estimators=60, max_depth=10, min_samples_leaf=5, n_jobs=-1, random_state=0)
rf.fit(X_tr, y_tr)
print('valid AUC', round(roc_auc_score(y_va, rf.predict_proba(X_va)[:, 1]), 4))
test['UTIL_RATIO'] = test['BILL_AMT1'] / test['LIMIT_BAL']
test['PAY_RATIO'] = test['PAY_AMT1'] / (test['BILL_AMT1'] + 1)
test_pred = rf.predict_proba(test[features])[:, 1]
pd.DataFrame({'ID': test['ID'], 'default': test_pred}).to_csv('submission.csv', index=False)
""")

_add("sklearn: comparing five classifiers with 5-fold cross-validation", _PD + _CREDIT + """
from sklearn.preprocessing import StandardScaler
train = make_credit(3000, 12)
features = [c for c in train.columns if c not in ('ID', 'default')]
X_scaled = StandardScaler().fit_transform(train[features])
y = train['default'].to_numpy()
""", """
from sklearn.model_selection import cross_val_score, StratifiedKFold
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.naive_bayes import MultinomialNB
models = {'logreg': LogisticRegression(max_iter=1000),
          'knn': KNeighborsClassifier(n_neighbors=15),
          'tree': DecisionTreeClassifier(max_depth=6, random_state=0),
          'forest': RandomForestClassifier(n_estimators=50, n_jobs=-1, random_state=0),
          'naive_bayes': MultinomialNB()}
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
results = {}
for name, model in models.items():
    scores = cross_val_score(model, X_scaled, y, cv=cv, scoring='roc_auc')
    results[name] = scores.mean()
    print(f'{name:12s} AUC {scores.mean():.4f} +/- {scores.std():.4f}')
""", """
from sklearn.model_selection import cross_val_score, StratifiedKFold
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.naive_bayes import GaussianNB
models = {'logreg': LogisticRegression(max_iter=1000),
          'knn': KNeighborsClassifier(n_neighbors=15),
          'tree': DecisionTreeClassifier(max_depth=6, random_state=0),
          'forest': RandomForestClassifier(n_estimators=50, n_jobs=-1, random_state=0),
          'naive_bayes': GaussianNB()}
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
results = {}
for name, model in models.items():
    scores = cross_val_score(model, X_scaled, y, cv=cv, scoring='roc_auc')
    results[name] = scores.mean()
    print(f'{name:12s} AUC {scores.mean():.4f} +/- {scores.std():.4f}')
""")

_add("sklearn: submission probabilities from the tuned logistic regression", _PD + _TITANIC + """
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
train = make_titanic(891, 7)
test = make_titanic(418, 8, start_id=892, labelled=False)

def prepare(df):
    out = pd.DataFrame(index=df.index)
    out['Pclass'] = df['Pclass']
    out['Sex'] = (df['Sex'] == 'female').astype(int)
    out['Age'] = df['Age'].fillna(28.0)
    out['Fare'] = np.log1p(df['Fare'].fillna(14.45))
    out['FamilySize'] = df['SibSp'] + df['Parch'] + 1
    for port in ['C', 'Q', 'S']:
        out['Emb_' + port] = (df['Embarked'] == port).astype(int)
    return out

X, y = prepare(train), train['Survived']
X_test = prepare(test)
grid = GridSearchCV(LogisticRegression(max_iter=1000), {'C': [0.01, 0.1, 1.0, 10.0]}, cv=5, scoring='accuracy')
grid.fit(X, y)
print(grid.best_params_, round(grid.best_score_, 4))
""", """
final_model = LogisticRegression(max_iter=1000, **grid.best_params_)
test_proba = final_model.predict_proba(X_test)[:, 1]
submission = pd.DataFrame({'PassengerId': test['PassengerId'], 'Survived': (test_proba > 0.5).astype(int)})
submission.to_csv('submission.csv', index=False)
submission['Survived'].mean()
""", """
final_model = LogisticRegression(max_iter=1000, **grid.best_params_)
final_model.fit(X, y)
test_proba = final_model.predict_proba(X_test)[:, 1]
submission = pd.DataFrame({'PassengerId': test['PassengerId'], 'Survived': (test_proba > 0.5).astype(int)})
submission.to_csv('submission.csv', index=False)
submission['Survived'].mean()
""")

# ------------------------------------------------------------------------------------------ keras

_add("keras: compiling a dense network for credit default", _PD + _KERAS + _CREDIT + """
from sklearn.preprocessing import StandardScaler
train = make_credit(16000, 13)
features = [c for c in train.columns if c not in ('ID', 'default')]
X_train = StandardScaler().fit_transform(train[features]).astype('float32')
y_train = train['default'].to_numpy()
""", """
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(lr=1e-3), loss='binary_crossentropy', metrics=['AUC'])
history = model.fit(X_train, y_train, validation_split=0.2, epochs=3, batch_size=256, verbose=0)
print('val loss', round(history.history['val_loss'][-1], 4))
""", """
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='binary_crossentropy', metrics=['AUC'])
history = model.fit(X_train, y_train, validation_split=0.2, epochs=3, batch_size=256, verbose=0)
print('val loss', round(history.history['val_loss'][-1], 4))
""")

_add("keras: training a small CNN on the digit pixels", _PD + _KERAS + _DIGITS + """
train = make_digits(4000, 14)
X = (train.drop(columns='label').to_numpy().reshape(-1, 28, 28, 1) / 255.0).astype('float32')
y = train['label'].to_numpy()
X.shape, np.bincount(y)
""", """
model = keras.Sequential([
    keras.Input(shape=(28, 28, 1)),
    keras.layers.Conv2D(16, 3, activation='relu'),
    keras.layers.MaxPooling2D(),
    keras.layers.Conv2D(32, 3, activation='relu'),
    keras.layers.MaxPooling2D(),
    keras.layers.Flatten(),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(10, activation='softmax'),
])
model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
history = model.fit(X, y, validation_split=0.1, epochs=2, batch_size=64, verbose=0)
print('val accuracy', history.history['val_accuracy'][-1])
""", """
model = keras.Sequential([
    keras.Input(shape=(28, 28, 1)),
    keras.layers.Conv2D(16, 3, activation='relu'),
    keras.layers.MaxPooling2D(),
    keras.layers.Conv2D(32, 3, activation='relu'),
    keras.layers.MaxPooling2D(),
    keras.layers.Flatten(),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(10, activation='softmax'),
])
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
history = model.fit(X, y, validation_split=0.1, epochs=2, batch_size=64, verbose=0)
print('val accuracy', history.history['val_accuracy'][-1])
""")

_add("keras: training the house-price regressor and saving it", _PD + _KERAS + _HOUSES + """
train = make_houses(1460, 15)
num_cols = ['OverallQual', 'GrLivArea', 'YearBuilt', 'GarageCars', 'LotArea',
            'TotalBsmtSF', 'FullBath', 'BedroomAbvGr', 'MasVnrArea']
Xdf = train[num_cols].fillna(0)
X_train = ((Xdf - Xdf.mean()) / Xdf.std()).to_numpy(dtype='float32')
y_train = np.log1p(train['SalePrice']).to_numpy(dtype='float32')
""", """
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='mse', metrics=['mae'])
history = model.fit(X_train, y_train, validation_split=0.2, epochs=10, batch_size=32, verbose=0)
print('val MAE', history.history['val_mae'][-1])
model.save('house_price_model')
""", """
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='mse', metrics=['mae'])
history = model.fit(X_train, y_train, validation_split=0.2, epochs=10, batch_size=32, verbose=0)
print('val MAE', history.history['val_mae'][-1])
model.save('house_price_model.keras')
""")

_add("keras: predicting test probabilities for the submission", _PD + _KERAS + _CREDIT + """
train = make_credit(8000, 16)
test = make_credit(3000, 17, start_id=8001, labelled=False)
features = [c for c in train.columns if c not in ('ID', 'default')]
norm = keras.layers.Normalization()
norm.adapt(train[features].to_numpy(dtype='float32'))
model = keras.Sequential([keras.Input(shape=(len(features),)), norm,
                          keras.layers.Dense(32, activation='relu'),
                          keras.layers.Dense(1, activation='sigmoid')])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['AUC'])
model.fit(train[features].to_numpy(dtype='float32'), train['default'].to_numpy(),
          epochs=2, batch_size=256, verbose=0)
""", """
test_proba = model.predict(test.to_numpy(dtype='float32'), verbose=0).ravel()
submission = pd.DataFrame({'ID': test['ID'], 'default': test_proba})
submission.to_csv('submission.csv', index=False)
submission.describe()
""", """
test_proba = model.predict(test[features].to_numpy(dtype='float32'), verbose=0).ravel()
submission = pd.DataFrame({'ID': test['ID'], 'default': test_proba})
submission.to_csv('submission.csv', index=False)
submission.describe()
""")

# ------------------------------------------------------------------------------------------ torch

_add("torch: full-batch training of an MLP on house-price features", _PD + _TORCH + _HOUSES + """
train = make_houses(1460, 18)
num_cols = ['OverallQual', 'GrLivArea', 'YearBuilt', 'GarageCars', 'LotArea',
            'TotalBsmtSF', 'FullBath', 'BedroomAbvGr', 'MasVnrArea']
X = train[num_cols].fillna(0)
X = (X - X.mean()) / X.std()
y = np.log1p(train['SalePrice'])
y = (y - y.mean()) / y.std()
model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()
""", """
X_t = torch.tensor(X.values)
y_t = torch.tensor(y.values).view(-1, 1)
for epoch in range(200):
    opt.zero_grad()
    loss = loss_fn(model(X_t), y_t)
    loss.backward()
    opt.step()
print('final MSE', loss.item())
""", """
X_t = torch.tensor(X.values, dtype=torch.float32)
y_t = torch.tensor(y.values, dtype=torch.float32).view(-1, 1)
for epoch in range(200):
    opt.zero_grad()
    loss = loss_fn(model(X_t), y_t)
    loss.backward()
    opt.step()
print('final MSE', loss.item())
""")

_add("torch: mini-batch training loop for the credit classifier", _PD + _TORCH + _CREDIT + """
train = make_credit(30000, 19)
features = [c for c in train.columns if c not in ('ID', 'default')]
Xn = train[features]
Xn = (Xn - Xn.mean()) / Xn.std()
X_t = torch.tensor(Xn.to_numpy(), dtype=torch.float32)
y_t = torch.tensor(train['default'].to_numpy(), dtype=torch.float32)
model = nn.Sequential(nn.Linear(len(features), 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
BATCH_SIZE = 64
""", """
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
n = X_t.shape[0]
for epoch in range(3):
    perm = torch.randperm(n)
    total = 0.0
    for start in range(0, n, BATCH_SIZE):
        idx = perm[start:start + BATCH_SIZE]
        xb, yb = X_t[idx], y_t[idx]
        logits = model(xb).view(BATCH_SIZE)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f'epoch {epoch}: loss {total / n:.4f}')
""", """
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
n = X_t.shape[0]
for epoch in range(3):
    perm = torch.randperm(n)
    total = 0.0
    for start in range(0, n, BATCH_SIZE):
        idx = perm[start:start + BATCH_SIZE]
        xb, yb = X_t[idx], y_t[idx]
        logits = model(xb).view(-1)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f'epoch {epoch}: loss {total / n:.4f}')
""")

_add("torch: one training step of the credit-default network", _PD + _TORCH + _CREDIT + """
train = make_credit(5000, 20)
features = [c for c in train.columns if c not in ('ID', 'default')]
Xn = train[features]
Xn = (Xn - Xn.mean()) / Xn.std()
X_t = torch.tensor(Xn.to_numpy(), dtype=torch.float32)
y_t = torch.tensor(train['default'].to_numpy(), dtype=torch.float32)
model = nn.Sequential(nn.Linear(len(features), 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
""", """
model.train()
optimizer.zero_grad()
out = model(X_t)
loss = criterion(out, y_t)
loss.backward()
optimizer.step()
print(f'loss after one step: {loss.item():.4f}')
""", """
model.train()
optimizer.zero_grad()
out = model(X_t).squeeze(1)
loss = criterion(out, y_t)
loss.backward()
optimizer.step()
print(f'loss after one step: {loss.item():.4f}')
""")

_add("torch: training a price regressor and plotting its predictions", _PD + _PLT + _TORCH + _HOUSES + """
train = make_houses(1460, 21)
num_cols = ['OverallQual', 'GrLivArea', 'YearBuilt', 'GarageCars', 'LotArea',
            'TotalBsmtSF', 'FullBath', 'BedroomAbvGr', 'MasVnrArea']
Xdf = train[num_cols].fillna(0)
X = torch.tensor(((Xdf - Xdf.mean()) / Xdf.std()).to_numpy(), dtype=torch.float32)
y = torch.tensor(np.log1p(train['SalePrice']).to_numpy(), dtype=torch.float32).view(-1, 1)
X_tr, X_va, y_tr, y_va = X[:1168], X[1168:], y[:1168], y[1168:]
n_feat = X.shape[1]
""", """
model = nn.Sequential(nn.Linear(n_feat, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
for epoch in range(600):
    opt.zero_grad()
    loss = loss_fn(model(X_tr), y_tr)
    loss.backward()
    opt.step()
pred = model(X_va)
plt.figure(figsize=(6, 6))
plt.scatter(y_va.numpy(), pred.numpy(), s=5, alpha=0.5)
plt.xlabel('log price')
plt.ylabel('predicted')
plt.show()
""", """
model = nn.Sequential(nn.Linear(n_feat, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
for epoch in range(600):
    opt.zero_grad()
    loss = loss_fn(model(X_tr), y_tr)
    loss.backward()
    opt.step()
with torch.no_grad():
    pred = model(X_va)
plt.figure(figsize=(6, 6))
plt.scatter(y_va.numpy(), pred.numpy(), s=5, alpha=0.5)
plt.xlabel('log price')
plt.ylabel('predicted')
plt.show()
""")

_add("torch: LSTM forecaster over consecutive sales windows", _PD + _TORCH + """
rng = np.random.default_rng(21)
t = np.arange(1826)
daily = (200 + 0.05 * t + 30 * np.sin(2 * np.pi * t / 7) + 50 * np.sin(2 * np.pi * t / 365.25)
         + rng.normal(0, 12, size=len(t)))
s = (daily - daily.mean()) / daily.std()
SEQ = 28
X = np.stack([s[i:i + SEQ] for i in range(len(s) - SEQ)])[:, :, None].astype(np.float32)
y = s[SEQ:].astype(np.float32)[:, None]
X_t, y_t = torch.from_numpy(X), torch.from_numpy(y)

class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, state):
        out, state = self.lstm(x, state)
        return self.head(out[:, -1]), state

model = Forecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
""", """
B = 32
n_batches = len(X_t) // B
for epoch in range(5):
    state = (torch.zeros(1, B, 32), torch.zeros(1, B, 32))
    epoch_loss = 0.0
    for b in range(n_batches):
        xb, yb = X_t[b * B:(b + 1) * B], y_t[b * B:(b + 1) * B]
        pred, state = model(xb, state)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
    print(f'epoch {epoch}: {epoch_loss / n_batches:.4f}')
""", """
B = 32
n_batches = len(X_t) // B
for epoch in range(5):
    state = (torch.zeros(1, B, 32), torch.zeros(1, B, 32))
    epoch_loss = 0.0
    for b in range(n_batches):
        xb, yb = X_t[b * B:(b + 1) * B], y_t[b * B:(b + 1) * B]
        pred, state = model(xb, state)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        state = tuple(h.detach() for h in state)
        epoch_loss += loss.item()
    print(f'epoch {epoch}: {epoch_loss / n_batches:.4f}')
""")

# ------------------------------------------------------------------------------- matplotlib/seaborn

_add("matplotlib: histograms of the numeric house-price columns", _PD + _PLT + _HOUSES + """
train = make_houses(1460, 22)
train.describe()
""", """
num_cols = train.select_dtypes('number').columns.drop('Id')
fig, axes = plt.subplots(3, 3, figsize=(15, 12))
for i, col in enumerate(num_cols):
    ax = axes[i // 3, i % 3]
    ax.hist(train[col].dropna(), bins=40, color='steelblue', edgecolor='white')
    ax.set_title(f'{col} (skew {train[col].skew():.2f})')
plt.tight_layout()
plt.show()
""", """
num_cols = train.select_dtypes('number').columns.drop('Id')
n_rows = int(np.ceil(len(num_cols) / 3))
fig, axes = plt.subplots(n_rows, 3, figsize=(15, 4 * n_rows))
for i, col in enumerate(num_cols):
    ax = axes[i // 3, i % 3]
    ax.hist(train[col].dropna(), bins=40, color='steelblue', edgecolor='white')
    ax.set_title(f'{col} (skew {train[col].skew():.2f})')
for ax in axes.flat[len(num_cols):]:
    ax.set_visible(False)
plt.tight_layout()
plt.show()
""")

_add("seaborn: scatter of sale price against living area", _PD + _PLT + _HOUSES + """
import seaborn as sns
train = make_houses(1460, 23)
""", """
plt.figure(figsize=(8, 6))
sns.scatterplot(train['GrLivArea'], train['SalePrice'], hue=train['OverallQual'], palette='viridis')
plt.title('SalePrice vs GrLivArea')
plt.show()
""", """
plt.figure(figsize=(8, 6))
sns.scatterplot(x=train['GrLivArea'], y=train['SalePrice'], hue=train['OverallQual'], palette='viridis')
plt.title('SalePrice vs GrLivArea')
plt.show()
""")

# ---------------------------------------------------------------------------------- xgboost/lightgbm

_add("xgboost: early-stopped regressor on log sale prices", _PD + _HOUSES + """
import xgboost as xgb
from sklearn.model_selection import train_test_split
train = make_houses(1460, 24)
feats = ['OverallQual', 'GrLivArea', 'YearBuilt', 'GarageCars', 'LotArea',
         'TotalBsmtSF', 'FullBath', 'BedroomAbvGr', 'MasVnrArea']
X, y = train[feats], np.log1p(train['SalePrice'])
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=0)
""", """
reg = xgb.XGBRegressor(n_estimators=2000, learning_rate=0.03, max_depth=4, subsample=0.8,
                       colsample_bytree=0.8, random_state=0)
reg.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], early_stopping_rounds=100, verbose=False)
print('best iteration', reg.best_iteration)
rmse = np.sqrt(np.mean((reg.predict(X_va) - y_va) ** 2))
print('valid RMSE (log)', round(rmse, 4))
""", """
reg = xgb.XGBRegressor(n_estimators=2000, learning_rate=0.03, max_depth=4, subsample=0.8,
                       colsample_bytree=0.8, random_state=0, early_stopping_rounds=100)
reg.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], verbose=False)
print('best iteration', reg.best_iteration)
rmse = np.sqrt(np.mean((reg.predict(X_va) - y_va) ** 2))
print('valid RMSE (log)', round(rmse, 4))
""")

_add("lightgbm: 5-fold out-of-fold predictions for credit default", _PD + _CREDIT + """
import lightgbm as lgb
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import roc_auc_score
train = make_credit(12000, 25)
test = make_credit(4000, 26, start_id=12001, labelled=False)
features = [c for c in train.columns if c not in ('ID', 'default')]
X, y = train[features], train['default']
""", """
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(train))
test_pred = np.zeros(len(test))
for fold, (tr_idx, va_idx) in enumerate(skf.split(X, y)):
    model = lgb.LGBMClassifier(n_estimators=300, learning_rate=0.05, num_leaves=31, subsample=0.8,
                               subsample_freq=1, colsample_bytree=0.8, random_state=fold, verbose=-1)
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx], eval_set=[(X.iloc[va_idx], y.iloc[va_idx])],
              eval_metric='auc', callbacks=[lgb.early_stopping(30, verbose=False)])
    oof[va_idx] = model.predict_proba(X.iloc[va_idx])[:, 1]
    test_pred += model.predict_proba(test[features])[:, 1] / skf.n_splits
    print(f'fold {fold}: AUC {roc_auc_score(y.iloc[va_idx], oof[va_idx]):.4f} ({model.best_iteration_} trees)')
print('OOF AUC', round(roc_auc_score(y, oof), 4))
submission = pd.DataFrame({'ID': test['ID'], 'default': oof})
submission.to_csv('submission.csv', index=False)
""", """
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
oof = np.zeros(len(train))
test_pred = np.zeros(len(test))
for fold, (tr_idx, va_idx) in enumerate(skf.split(X, y)):
    model = lgb.LGBMClassifier(n_estimators=300, learning_rate=0.05, num_leaves=31, subsample=0.8,
                               subsample_freq=1, colsample_bytree=0.8, random_state=fold, verbose=-1)
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx], eval_set=[(X.iloc[va_idx], y.iloc[va_idx])],
              eval_metric='auc', callbacks=[lgb.early_stopping(30, verbose=False)])
    oof[va_idx] = model.predict_proba(X.iloc[va_idx])[:, 1]
    test_pred += model.predict_proba(test[features])[:, 1] / skf.n_splits
    print(f'fold {fold}: AUC {roc_auc_score(y.iloc[va_idx], oof[va_idx]):.4f} ({model.best_iteration_} trees)')
print('OOF AUC', round(roc_auc_score(y, oof), 4))
submission = pd.DataFrame({'ID': test['ID'], 'default': test_pred})
submission.to_csv('submission.csv', index=False)
""")

# ----------------------------------------------------------------------------------------- python

_add("python: picking the feature columns for the Titanic model", _PD + _TITANIC + """
train = make_titanic(891, 27)
train['Sex'] = (train['Sex'] == 'female').astype(int)
train['Embarked'] = train['Embarked'].fillna('S').map({'S': 0, 'C': 1, 'Q': 2})
train['Age'] = train['Age'].fillna(train['Age'].median())
train = train.drop(columns=['Cabin'])
features = list(train.columns)

# first run of the feature-list cell
features.remove('Survived')
features.remove('PassengerId')
features.remove('Name')
features.remove('Ticket')
X = train[features]
y = train['Survived']
""", """
features.remove('Survived')
features.remove('PassengerId')
features.remove('Name')
features.remove('Ticket')
X = train[features]
y = train['Survived']
print(len(features), 'features:', features)
""", """
features = [c for c in train.columns if c not in ('Survived', 'PassengerId', 'Name', 'Ticket')]
X = train[features]
y = train['Survived']
print(len(features), 'features:', features)
""")

_add("python: totalling monthly sales per store from the raw CSV files", _PD + """
# the competition's data folder: one file of transactions per month of 2019 released so far
rng = np.random.default_rng(30)
for month in range(1, 12):
    n = 40000
    pd.DataFrame({'date': pd.Timestamp(2019, month, 1) + pd.to_timedelta(rng.integers(0, 28, size=n), unit='D'),
                  'store': rng.integers(1, 11, size=n),
                  'item': rng.integers(1, 51, size=n),
                  'qty': rng.integers(1, 6, size=n),
                  'price': rng.choice([2.99, 4.5, 9.99, 12.0, 19.95], size=n)}).to_csv(f'sales_2019_{month:02d}.csv', index=False)
""", """
import csv
from collections import defaultdict
totals = defaultdict(float)
for month in range(1, 13):
    with open(f'sales_2019_{month:02d}.csv', newline='') as fh:
        for row in csv.DictReader(fh):
            totals[(month, int(row['store']))] += float(row['qty']) * float(row['price'])
print(len(totals), 'store-months')
best = max(totals, key=totals.get)
print('best store-month', best, round(totals[best], 2))
""", """
import csv
import glob
from collections import defaultdict
totals = defaultdict(float)
for path in sorted(glob.glob('sales_2019_*.csv')):
    month = int(path[-6:-4])
    with open(path, newline='') as fh:
        for row in csv.DictReader(fh):
            totals[(month, int(row['store']))] += float(row['qty']) * float(row['price'])
print(len(totals), 'store-months')
best = max(totals, key=totals.get)
print('best store-month', best, round(totals[best], 2))
""")
