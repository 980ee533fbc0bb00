"""A fourth set of crash/fix pairs for the notebook path: (name, setup, crashing cell, fixed cell).

Written on 2026-12-03 by a helper who did not read the tool's code, docs, tests or the
earlier pair sets (only the format header of the third set). Thirty Kaggle-style cells:
pandas (7), numpy (3), scikit-learn (5), Keras through `from tensorflow import keras` (4),
torch on the CPU (5), matplotlib/seaborn (2), xgboost/catboost (2) and plain Python (2).
Data are synthetic (numpy RNG, fixed seeds) but shaped like Titanic, house prices,
MNIST/CIFAR pixels, review text, store sales, movie ratings and price series. Root causes
follow JunoBench: APIs removed or renamed in the installed versions (pandas 2.3, numpy 2.4,
scikit-learn 1.9, Keras 3, matplotlib 3.11, xgboost 3), data confusion (label column left
in the pixels, merge keys of different dtypes, duplicate pivot keys, unseen dummy
columns, NaN in a categorical, 1-based class labels), model confusion (predict before fit,
wrong flatten size, target shape vs. logits, float64 input, tensor that requires grad),
cells that are not idempotent (set-up holds their first run), a function defined in a
later cell, and off-by-one in loops. About half crash within 0.3 s of the cell starting;
about a third first train or loop for 0.5-8 s; five crash only in a loop's last pass
(last row, last model, last batch, last subplot, last sentence).

Truth: each set-up and cell was run in a fresh Python process of the project's virtual
environment, in a fresh temporary directory, twice; every crashing cell raised in the cell
(not in the set-up) and every fixed cell ran clean, in both runs (60 of 60 each time).
"""

_PD = "import numpy as np\nimport pandas as pd\n"
_PLT = ("import numpy as np\nimport pandas as pd\nimport matplotlib\nmatplotlib.use('Agg')\n"
        "import matplotlib.pyplot as plt\nimport seaborn as sns\n")
_TF = ("import os\nos.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')\nimport numpy as np\n"
       "import tensorflow as tf\nfrom tensorflow import keras\ntf.random.set_seed(0)\n")
_TORCH = ("import numpy as np\nimport torch\nimport torch.nn as nn\n"
          "from torch.utils.data import TensorDataset, DataLoader\ntorch.manual_seed(0)\n")

# Titanic-like frame (needs `rng`)
_TITANIC = """
n = 891
titanic = pd.DataFrame({
    'PassengerId': np.arange(1, n + 1),
    'Pclass': rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    'Sex': rng.choice(['male', 'female'], n, p=[0.65, 0.35]),
    'Age': np.where(rng.random(n) < 0.2, np.nan, rng.normal(29.7, 14.5, n).clip(0.4, 80).round()),
    'SibSp': rng.poisson(0.5, n),
    'Parch': rng.poisson(0.4, n),
    'Fare': rng.gamma(1.5, 22, n).round(2),
    'Embarked': rng.choice(['S', 'C', 'Q'], n, p=[0.72, 0.19, 0.09]),
})
titles = rng.choice(['Mr', 'Mrs', 'Miss', 'Master', 'Dr', 'Rev'], n, p=[0.58, 0.14, 0.2, 0.045, 0.02, 0.015])
surnames = rng.choice(['Smith', 'Brown', 'Andersson', 'Kelly', 'Johnson', 'Williams', 'Sage', 'Goodwin'], n)
titanic['Name'] = [f'{s}, {t}. John' for s, t in zip(surnames, titles)]
titanic['Ticket'] = rng.integers(1000, 400000, n).astype(str)
decks = rng.choice(list('ABCDEF'), n)
cabin_no = rng.integers(1, 130, n)
titanic['Cabin'] = [None if r < 0.77 else f'{d}{c}' for r, d, c in zip(rng.random(n), decks, cabin_no)]
logit = 1.5 * (titanic['Sex'] == 'female') - 0.8 * (titanic['Pclass'] - 2) - 0.4
titanic['Survived'] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
"""

# House-prices-like frame (needs `rng`; `n_house` rows)
_HOUSE = """
def make_house(n, zones=('RL', 'RM', 'FV', 'RH', 'C (all)'), p=(0.79, 0.15, 0.04, 0.011, 0.009)):
    df = pd.DataFrame({
        'Id': np.arange(1, n + 1),
        'MSZoning': rng.choice(list(zones), n, p=list(p)),
        'LotArea': rng.lognormal(9.1, 0.5, n).round().astype(int),
        'OverallQual': rng.integers(1, 11, n),
        'YearBuilt': rng.integers(1872, 2011, n),
        'GrLivArea': rng.normal(1515, 525, n).clip(334, 5642).round().astype(int),
        'GarageCars': rng.choice([0, 1, 2, 3, 4], n, p=[0.055, 0.25, 0.565, 0.125, 0.005]),
        'Neighborhood': rng.choice(['NAmes', 'CollgCr', 'OldTown', 'Edwards', 'Somerst', 'Gilbert', 'NridgHt'], n),
        'LotFrontage': np.where(rng.random(n) < 0.18, np.nan, rng.normal(70, 24, n).clip(21, 313).round()),
    })
    df['SalePrice'] = (20000 * df['OverallQual'] + 60 * df['GrLivArea'] + 300 * (df['YearBuilt'] - 1900)
                       + rng.normal(0, 25000, n)).clip(34900).round().astype(int)
    return df

house = make_house(1460)
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup.strip() + "\n", crash.strip() + "\n", fixed.strip() + "\n"))


# ---------------------------------------------------------------- pandas (7)

_add("pandas: DataFrame.append to build a CV leaderboard", _PD + """
rng = np.random.default_rng(11)
cv_scores = {'ridge': 0.1418, 'lasso': 0.1392, 'elasticnet': 0.1395, 'gbr': 0.1263, 'xgb': 0.1241, 'lgbm': 0.1250}
""", """
results = pd.DataFrame(columns=['model', 'rmse'])
for name, rmse in cv_scores.items():
    results = results.append({'model': name, 'rmse': rmse}, ignore_index=True)
results.sort_values('rmse').reset_index(drop=True)
""", """
results = pd.DataFrame(columns=['model', 'rmse'])
for name, rmse in cv_scores.items():
    results = pd.concat([results, pd.DataFrame([{'model': name, 'rmse': rmse}])], ignore_index=True)
results.sort_values('rmse').reset_index(drop=True)
""")

_add("pandas: groupby().mean() over string columns (Titanic survival by sex)", _PD + """
rng = np.random.default_rng(1)
""" + _TITANIC, """
survival = titanic.groupby('Sex').mean()
print(survival[['Survived', 'Age', 'Fare']])
""", """
survival = titanic.groupby('Sex').mean(numeric_only=True)
print(survival[['Survived', 'Age', 'Fare']])
""")

_add("pandas: dropping Titanic columns a second time (cell re-run)", _PD + """
rng = np.random.default_rng(2)
""" + _TITANIC + """
# first run of the cell
titanic = titanic.drop(['Cabin', 'Ticket', 'Name'], axis=1)
""", """
titanic = titanic.drop(['Cabin', 'Ticket', 'Name'], axis=1)
titanic['FamilySize'] = titanic['SibSp'] + titanic['Parch'] + 1
titanic.head()
""", """
titanic = titanic.drop(['Cabin', 'Ticket', 'Name'], axis=1, errors='ignore')
titanic['FamilySize'] = titanic['SibSp'] + titanic['Parch'] + 1
titanic.head()
""")

_add("pandas: next-day target with iloc[i + 1] over every row of a price series", _PD + """
rng = np.random.default_rng(7)
n_days = 3000
prices = pd.DataFrame({
    'Date': pd.bdate_range('2012-01-02', periods=n_days),
    'Close': 100 * np.exp(np.cumsum(rng.normal(0.0003, 0.012, n_days))),
    'Volume': rng.integers(1_000_000, 5_000_000, n_days),
})
""", """
rows = []
for i in range(20, len(prices)):
    window = prices['Close'].iloc[i - 20:i + 1]
    rows.append({
        'Date': prices['Date'].iloc[i],
        'ma20': window.mean(),
        'vol20': window.std(),
        'ret1': window.iloc[-1] / window.iloc[-2] - 1,
        'target': int(prices['Close'].iloc[i + 1] > prices['Close'].iloc[i]),
    })
feat = pd.DataFrame(rows)
feat['target'].mean()
""", """
rows = []
for i in range(20, len(prices) - 1):
    window = prices['Close'].iloc[i - 20:i + 1]
    rows.append({
        'Date': prices['Date'].iloc[i],
        'ma20': window.mean(),
        'vol20': window.std(),
        'ret1': window.iloc[-1] / window.iloc[-2] - 1,
        'target': int(prices['Close'].iloc[i + 1] > prices['Close'].iloc[i]),
    })
feat = pd.DataFrame(rows)
feat['target'].mean()
""")

_add("pandas: merging sales with stores on keys of different dtypes", _PD + """
rng = np.random.default_rng(4)
n = 20000
train = pd.DataFrame({
    'date': pd.to_datetime('2017-01-01') + pd.to_timedelta(rng.integers(0, 365, n), unit='D'),
    'store_nbr': rng.integers(1, 55, n),
    'family': rng.choice(['GROCERY I', 'BEVERAGES', 'PRODUCE', 'CLEANING', 'DAIRY'], n),
    'sales': rng.gamma(2.0, 150.0, n).round(3),
})
# stores.csv came in with the ids as text
stores = pd.DataFrame({
    'store_nbr': [str(i) for i in range(1, 55)],
    'city': rng.choice(['Quito', 'Guayaquil', 'Cuenca', 'Ambato'], 54),
    'type': rng.choice(list('ABCDE'), 54),
    'cluster': rng.integers(1, 18, 54),
})
""", """
df = train.merge(stores, on='store_nbr', how='left')
df.groupby('type')['sales'].mean()
""", """
stores['store_nbr'] = stores['store_nbr'].astype(int)
df = train.merge(stores, on='store_nbr', how='left')
df.groupby('type')['sales'].mean()
""")

_add("pandas: pivot of a ratings table with repeated user/movie pairs", _PD + """
rng = np.random.default_rng(5)
n = 30000
ratings = pd.DataFrame({
    'userId': rng.integers(1, 611, n),
    'movieId': rng.choice(np.arange(1, 401), n, p=np.r_[np.full(40, 0.01), np.full(360, 0.6 / 360)]),
    'rating': rng.choice([0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5], n),
    'timestamp': rng.integers(828124615, 1537799250, n),
})
""", """
user_movie = ratings.pivot(index='userId', columns='movieId', values='rating')
user_movie = user_movie.fillna(0)
user_movie.shape
""", """
user_movie = ratings.pivot_table(index='userId', columns='movieId', values='rating', aggfunc='mean')
user_movie = user_movie.fillna(0)
user_movie.shape
""")

_add("pandas: DataFrame.iteritems to list categorical columns", _PD + """
rng = np.random.default_rng(6)
""" + _HOUSE, """
cat_cols = []
for col, values in house.iteritems():
    if values.dtype == object:
        cat_cols.append(col)
        print(col, values.nunique())
""", """
cat_cols = []
for col, values in house.items():
    if values.dtype == object:
        cat_cols.append(col)
        print(col, values.nunique())
""")

# ---------------------------------------------------------------- numpy (3)

_add("numpy: np.float alias in astype", _PD + """
rng = np.random.default_rng(8)
""" + _HOUSE + """
features = ['LotArea', 'OverallQual', 'YearBuilt', 'GrLivArea', 'GarageCars', 'LotFrontage']
""", """
X = house[features].fillna(0).values.astype(np.float)
y = np.log1p(house['SalePrice'].values)
X = (X - X.mean(axis=0)) / X.std(axis=0)
X.shape, y.shape
""", """
X = house[features].fillna(0).values.astype(float)
y = np.log1p(house['SalePrice'].values)
X = (X - X.mean(axis=0)) / X.std(axis=0)
X.shape, y.shape
""")

_add("numpy: reshaping digit pixels with the label column still in", _PD + """
rng = np.random.default_rng(9)
n = 4200
labels = rng.integers(0, 10, n)
pixels = (rng.random((n, 784)) < 0.19) * rng.integers(0, 256, (n, 784))
train = pd.DataFrame(np.column_stack([labels, pixels]),
                     columns=['label'] + [f'pixel{i}' for i in range(784)])
""", """
X = train.values.reshape(-1, 28, 28, 1).astype('float32') / 255.0
y = train['label'].values
X.shape, y.shape
""", """
X = train.drop('label', axis=1).values.reshape(-1, 28, 28, 1).astype('float32') / 255.0
y = train['label'].values
X.shape, y.shape
""")

_add("numpy: hand-written logistic regression, stacking uneven test batches", _PD + """
rng = np.random.default_rng(10)
n, d = 40000, 40
X = rng.normal(size=(n, d))
true_w = rng.normal(size=d)
y = (rng.random(n) < 1 / (1 + np.exp(-(X @ true_w) / 3))).astype(float)
X_test = rng.normal(size=(5000, d))
""", """
w = np.zeros(X.shape[1])
b = 0.0
lr, bs = 0.1, 256
for epoch in range(60):
    for i in range(0, len(X), bs):
        xb, yb = X[i:i + bs], y[i:i + bs]
        p = 1 / (1 + np.exp(-(xb @ w + b)))
        w -= lr * xb.T @ (p - yb) / len(xb)
        b -= lr * (p - yb).mean()
batch_preds = [1 / (1 + np.exp(-(X_test[i:i + bs] @ w + b))) for i in range(0, len(X_test), bs)]
test_pred = np.stack(batch_preds)
test_pred.shape
""", """
w = np.zeros(X.shape[1])
b = 0.0
lr, bs = 0.1, 256
for epoch in range(60):
    for i in range(0, len(X), bs):
        xb, yb = X[i:i + bs], y[i:i + bs]
        p = 1 / (1 + np.exp(-(xb @ w + b)))
        w -= lr * xb.T @ (p - yb) / len(xb)
        b -= lr * (p - yb).mean()
batch_preds = [1 / (1 + np.exp(-(X_test[i:i + bs] @ w + b))) for i in range(0, len(X_test), bs)]
test_pred = np.concatenate(batch_preds)
test_pred.shape
""")

# ---------------------------------------------------------------- scikit-learn (5)

_add("sklearn: OneHotEncoder(sparse=False)", _PD + """
rng = np.random.default_rng(12)
""" + _TITANIC + """
from sklearn.preprocessing import OneHotEncoder
""", """
ohe = OneHotEncoder(sparse=False, handle_unknown='ignore')
cat = ohe.fit_transform(titanic[['Sex', 'Embarked', 'Pclass']])
cat_df = pd.DataFrame(cat, columns=ohe.get_feature_names_out())
cat_df.head()
""", """
ohe = OneHotEncoder(sparse_output=False, handle_unknown='ignore')
cat = ohe.fit_transform(titanic[['Sex', 'Embarked', 'Pclass']])
cat_df = pd.DataFrame(cat, columns=ohe.get_feature_names_out())
cat_df.head()
""")

_add("sklearn: predicting with a forest that was never fitted", _PD + """
rng = np.random.default_rng(13)
""" + _HOUSE + """
from sklearn.model_selection import train_test_split
from sklearn.metrics import mean_absolute_error
from sklearn.linear_model import LinearRegression
features = ['LotArea', 'OverallQual', 'YearBuilt', 'GrLivArea', 'GarageCars']
X_train, X_valid, y_train, y_valid = train_test_split(house[features], house['SalePrice'], test_size=0.2, random_state=1)
lin = LinearRegression().fit(X_train, y_train)
print('Linear MAE', mean_absolute_error(y_valid, lin.predict(X_valid)))
from sklearn.ensemble import RandomForestRegressor
""", """
rf = RandomForestRegressor(n_estimators=100, random_state=1)
rf_pred = rf.predict(X_valid)
print('RF MAE', mean_absolute_error(y_valid, rf_pred))
""", """
rf = RandomForestRegressor(n_estimators=100, random_state=1)
rf.fit(X_train, y_train)
rf_pred = rf.predict(X_valid)
print('RF MAE', mean_absolute_error(y_valid, rf_pred))
""")

_add("sklearn: model comparison loop whose last model uses l1 with the lbfgs solver", _PD + """
rng = np.random.default_rng(14)
""" + _TITANIC + """
df = titanic.copy()
df['Sex'] = df['Sex'].map({'male': 0, 'female': 1})
df['Embarked'] = df['Embarked'].map({'S': 0, 'C': 1, 'Q': 2})
df['Age'] = df['Age'].fillna(df['Age'].median())
X = df[['Pclass', 'Sex', 'Age', 'SibSp', 'Parch', 'Fare', 'Embarked']]
y = df['Survived']
""", """
from sklearn.ensemble import RandomForestClassifier, GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
models = {
    'RandomForest': RandomForestClassifier(n_estimators=100, max_depth=6, random_state=0),
    'GradientBoosting': GradientBoostingClassifier(n_estimators=100, random_state=0),
    'LogReg-L1': LogisticRegression(penalty='l1', C=0.5, max_iter=1000),
}
for name, model in models.items():
    scores = cross_val_score(model, X, y, cv=5, scoring='accuracy')
    print(f'{name}: {scores.mean():.4f} +/- {scores.std():.4f}')
""", """
from sklearn.ensemble import RandomForestClassifier, GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
models = {
    'RandomForest': RandomForestClassifier(n_estimators=100, max_depth=6, random_state=0),
    'GradientBoosting': GradientBoostingClassifier(n_estimators=100, random_state=0),
    'LogReg-L1': LogisticRegression(penalty='l1', C=0.5, solver='liblinear', max_iter=1000),
}
for name, model in models.items():
    scores = cross_val_score(model, X, y, cv=5, scoring='accuracy')
    print(f'{name}: {scores.mean():.4f} +/- {scores.std():.4f}')
""")

_add("sklearn: get_dummies on train and test separately, test lacks a category", _PD + """
rng = np.random.default_rng(15)
""" + _HOUSE + """
train = house
test = make_house(1459, zones=('RL', 'RM', 'FV', 'RH'), p=(0.8, 0.15, 0.04, 0.01))
test = test.drop(columns=['SalePrice'])
test['Id'] += 1460
y = np.log1p(train['SalePrice'])
""", """
from sklearn.ensemble import RandomForestRegressor
X = pd.get_dummies(train.drop(columns=['Id', 'SalePrice']))
X_test = pd.get_dummies(test.drop(columns=['Id']))
model = RandomForestRegressor(n_estimators=80, random_state=0)
model.fit(X, y)
submission = pd.DataFrame({'Id': test['Id'], 'SalePrice': np.expm1(model.predict(X_test))})
submission.to_csv('submission.csv', index=False)
""", """
from sklearn.ensemble import RandomForestRegressor
X = pd.get_dummies(train.drop(columns=['Id', 'SalePrice']))
X_test = pd.get_dummies(test.drop(columns=['Id']))
X_test = X_test.reindex(columns=X.columns, fill_value=0)
model = RandomForestRegressor(n_estimators=80, random_state=0)
model.fit(X, y)
submission = pd.DataFrame({'Id': test['Id'], 'SalePrice': np.expm1(model.predict(X_test))})
submission.to_csv('submission.csv', index=False)
""")

_add("sklearn: RMSE via mean_squared_error(squared=False) after boosting", _PD + """
rng = np.random.default_rng(16)
""" + _HOUSE + """
from sklearn.model_selection import train_test_split
from sklearn.metrics import mean_squared_error
features = ['LotArea', 'OverallQual', 'YearBuilt', 'GrLivArea', 'GarageCars', 'LotFrontage']
X_train, X_valid, y_train, y_valid = train_test_split(house[features].fillna(-1), house['SalePrice'], test_size=0.2, random_state=0)
""", """
from sklearn.ensemble import GradientBoostingRegressor
gbr = GradientBoostingRegressor(n_estimators=300, learning_rate=0.1, max_depth=3, subsample=0.8, random_state=0)
gbr.fit(X_train, np.log1p(y_train))
pred = gbr.predict(X_valid)
rmse = mean_squared_error(np.log1p(y_valid), pred, squared=False)
print(f'validation RMSLE: {rmse:.4f}')
""", """
from sklearn.ensemble import GradientBoostingRegressor
gbr = GradientBoostingRegressor(n_estimators=300, learning_rate=0.1, max_depth=3, subsample=0.8, random_state=0)
gbr.fit(X_train, np.log1p(y_train))
pred = gbr.predict(X_valid)
rmse = np.sqrt(mean_squared_error(np.log1p(y_valid), pred))
print(f'validation RMSLE: {rmse:.4f}')
""")

# ---------------------------------------------------------------- Keras (4)

_add("keras: Adam(lr=...) for a Titanic MLP", _TF + """
import pandas as pd
rng = np.random.default_rng(17)
""" + _TITANIC + """
df = titanic.copy()
df['Sex'] = (df['Sex'] == 'female').astype(int)
df['Age'] = df['Age'].fillna(df['Age'].median())
X = df[['Pclass', 'Sex', 'Age', 'SibSp', 'Parch', 'Fare']].values.astype('float32')
X = (X - X.mean(axis=0)) / X.std(axis=0)
y = df['Survived'].values
""", """
model = keras.Sequential([
    keras.Input(shape=(X.shape[1],)),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(lr=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X, y, epochs=5, batch_size=32, validation_split=0.2, verbose=0)
""", """
model = keras.Sequential([
    keras.Input(shape=(X.shape[1],)),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X, y, epochs=5, batch_size=32, validation_split=0.2, verbose=0)
""")

_add("keras: to_categorical applied again when the cell is re-run", _TF + """
rng = np.random.default_rng(18)
n = 3000
X_train = (rng.random((n, 784)) < 0.2).astype('float32') * rng.random((n, 784)).astype('float32')
y_train = rng.integers(0, 10, n)
# first run of the cell
y_train = keras.utils.to_categorical(y_train, 10)
""", """
y_train = keras.utils.to_categorical(y_train, 10)
model = keras.Sequential([
    keras.Input(shape=(784,)),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dense(10, activation='softmax'),
])
model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
model.fit(X_train, y_train, epochs=3, batch_size=64, verbose=0)
""", """
if y_train.ndim == 1:
    y_train = keras.utils.to_categorical(y_train, 10)
model = keras.Sequential([
    keras.Input(shape=(784,)),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dense(10, activation='softmax'),
])
model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
model.fit(X_train, y_train, epochs=3, batch_size=64, verbose=0)
""")

_add("keras: predict_classes after training a small digit CNN", _TF + """
rng = np.random.default_rng(19)
n = 2400
y_train = rng.integers(0, 10, n)
X_train = rng.random((n, 28, 28, 1)).astype('float32') * 0.3
for k in range(10):  # give each digit a bright stripe so there is something to learn
    X_train[y_train == k, 2 + 2 * k:4 + 2 * k, :, 0] += 0.7
X_test = rng.random((500, 28, 28, 1)).astype('float32')
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
model.fit(X_train, y_train, epochs=3, batch_size=64, verbose=0)
test_labels = model.predict_classes(X_test)
np.bincount(test_labels, minlength=10)
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
model.fit(X_train, y_train, epochs=3, batch_size=64, verbose=0)
test_labels = np.argmax(model.predict(X_test, verbose=0), axis=1)
np.bincount(test_labels, minlength=10)
""")

_add("keras: plotting history['acc'] after training a review classifier", _TF + """
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
rng = np.random.default_rng(20)
pos = ['great', 'loved', 'excellent', 'wonderful', 'best', 'fun', 'brilliant']
neg = ['boring', 'awful', 'worst', 'waste', 'bad', 'dull', 'terrible']
neutral = ['movie', 'film', 'plot', 'actor', 'the', 'a', 'was', 'and', 'story', 'scene', 'really', 'it']
def review(label):
    words = list(rng.choice(neutral, rng.integers(8, 30)))
    words += list(rng.choice(pos if label else neg, rng.integers(1, 4)))
    rng.shuffle(words)
    return ' '.join(words)
labels = rng.integers(0, 2, 4000)
texts = np.array([review(l) for l in labels])
vectorize = keras.layers.TextVectorization(max_tokens=2000, output_sequence_length=40)
vectorize.adapt(texts[:3200])
X_train, y_train = vectorize(texts[:3200]), labels[:3200]
X_val, y_val = vectorize(texts[3200:]), labels[3200:]
""", """
model = keras.Sequential([
    keras.Input(shape=(40,), dtype='int64'),
    keras.layers.Embedding(2000, 16),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(16, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=8, batch_size=32, verbose=0)
plt.plot(history.history['acc'], label='train')
plt.plot(history.history['val_acc'], label='validation')
plt.legend()
plt.savefig('accuracy.png')
""", """
model = keras.Sequential([
    keras.Input(shape=(40,), dtype='int64'),
    keras.layers.Embedding(2000, 16),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(16, activation='relu'),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, validation_data=(X_val, y_val), epochs=8, batch_size=32, verbose=0)
plt.plot(history.history['accuracy'], label='train')
plt.plot(history.history['val_accuracy'], label='validation')
plt.legend()
plt.savefig('accuracy.png')
""")

# ---------------------------------------------------------------- torch (5)

_add("torch: BCEWithLogitsLoss with (N, 1) logits and (N,) targets", _TORCH + """
rng = np.random.default_rng(21)
n = 891
X = np.column_stack([rng.choice([1, 2, 3], n), rng.integers(0, 2, n), rng.normal(30, 14, n),
                     rng.poisson(0.5, n), rng.gamma(1.5, 22, n)]).astype('float32')
X = (X - X.mean(0)) / X.std(0)
y = (rng.random(n) < 0.38).astype('float32')
loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=64, shuffle=True)
""", """
model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(15):
    for xb, yb in loader:
        optimizer.zero_grad()
        out = model(xb)
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
print(loss.item())
""", """
model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(15):
    for xb, yb in loader:
        optimizer.zero_grad()
        out = model(xb).squeeze(1)
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
print(loss.item())
""")

_add("torch: view(BATCH_SIZE, -1) in forward breaks on the short last batch", _TORCH + """
rng = np.random.default_rng(22)
n = 1041
images = (rng.random((n, 1, 28, 28)) * 0.4).astype('float32')
labels = rng.integers(0, 10, n)
BATCH_SIZE = 64
train_loader = DataLoader(TensorDataset(torch.from_numpy(images), torch.from_numpy(labels)),
                          batch_size=BATCH_SIZE, shuffle=True)
""", """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(16 * 7 * 7, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x)))
        x = x.view(BATCH_SIZE, -1)
        return self.fc2(torch.relu(self.fc1(x)))

net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss()
for epoch in range(2):
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(net(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(epoch, running / len(train_loader))
""", """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(16 * 7 * 7, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        return self.fc2(torch.relu(self.fc1(x)))

net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss()
for epoch in range(2):
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(net(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(epoch, running / len(train_loader))
""")

_add("torch: wrong flatten size in a CIFAR-style CNN (LeNet's 5*5 kept)", _TORCH + """
rng = np.random.default_rng(23)
n = 800
images = rng.random((n, 3, 32, 32)).astype('float32')
labels = rng.integers(0, 10, n)
loader = DataLoader(TensorDataset(torch.from_numpy(images), torch.from_numpy(labels)), batch_size=32, shuffle=True)
classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
""", """
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(32 * 5 * 5, 256), nn.ReLU(), nn.Linear(256, 10))

    def forward(self, x):
        return self.classifier(self.features(x))

model = CNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
model.train()
for xb, yb in loader:
    optimizer.zero_grad()
    loss = criterion(model(xb), yb)
    loss.backward()
    optimizer.step()
print('epoch loss', loss.item())
""", """
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(32 * 8 * 8, 256), nn.ReLU(), nn.Linear(256, 10))

    def forward(self, x):
        return self.classifier(self.features(x))

model = CNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
model.train()
for xb, yb in loader:
    optimizer.zero_grad()
    loss = criterion(model(xb), yb)
    loss.backward()
    optimizer.step()
print('epoch loss', loss.item())
""")

_add("torch: .numpy() on predictions that still require grad after training", _TORCH + """
import pandas as pd
rng = np.random.default_rng(24)
""" + _HOUSE + """
features = ['LotArea', 'OverallQual', 'YearBuilt', 'GrLivArea', 'GarageCars']
Xa = house[features].values.astype('float32')
Xa = (Xa - Xa.mean(0)) / Xa.std(0)
ya = np.log1p(house['SalePrice'].values).astype('float32')
X_train_t, X_valid_t = torch.from_numpy(Xa[:1168]), torch.from_numpy(Xa[1168:])
y_train_t, y_valid = torch.from_numpy(ya[:1168]).unsqueeze(1), ya[1168:]
train_loader = DataLoader(TensorDataset(X_train_t, y_train_t), batch_size=32, shuffle=True)
""", """
model = nn.Sequential(nn.Linear(5, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
for epoch in range(30):
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
preds = model(X_valid_t).numpy().ravel()
rmse = np.sqrt(np.mean((preds - y_valid) ** 2))
print(f'valid RMSLE {rmse:.4f}')
""", """
model = nn.Sequential(nn.Linear(5, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
for epoch in range(30):
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
preds = model(X_valid_t).detach().numpy().ravel()
rmse = np.sqrt(np.mean((preds - y_valid) ** 2))
print(f'valid RMSLE {rmse:.4f}')
""")

_add("torch: float64 windows from numpy into an LSTM forecaster", _TORCH + """
rng = np.random.default_rng(25)
t = np.arange(2000)
series = 10 + np.sin(2 * np.pi * t / 24) * 3 + np.sin(2 * np.pi * t / 168) + rng.normal(0, 0.5, len(t))
series = (series - series.mean()) / series.std()
window = 24
X = np.stack([series[i:i + window] for i in range(len(series) - window)])[..., None]
y = series[window:]
""", """
class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])

ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y).unsqueeze(1))
loader = DataLoader(ds, batch_size=128, shuffle=True)
model = Forecaster()
xb, yb = next(iter(loader))
print(model(xb).shape)  # sanity check before training
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for xb, yb in loader:
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(xb), yb)
    loss.backward()
    opt.step()
print(loss.item())
""", """
class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])

ds = TensorDataset(torch.from_numpy(X).float(), torch.from_numpy(y).float().unsqueeze(1))
loader = DataLoader(ds, batch_size=128, shuffle=True)
model = Forecaster()
xb, yb = next(iter(loader))
print(model(xb).shape)  # sanity check before training
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for xb, yb in loader:
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(xb), yb)
    loss.backward()
    opt.step()
print(loss.item())
""")

# ---------------------------------------------------------------- matplotlib / seaborn (2)

_add("matplotlib: plt.style.use('seaborn')", _PLT + """
rng = np.random.default_rng(26)
""" + _TITANIC, """
plt.style.use('seaborn')
fig, ax = plt.subplots(figsize=(8, 5))
sns.countplot(data=titanic, x='Pclass', hue='Survived', ax=ax)
ax.set_title('Survival by class')
fig.savefig('survival_by_class.png')
""", """
plt.style.use('seaborn-v0_8')
fig, ax = plt.subplots(figsize=(8, 5))
sns.countplot(data=titanic, x='Pclass', hue='Survived', ax=ax)
ax.set_title('Survival by class')
fig.savefig('survival_by_class.png')
""")

_add("seaborn: a 2x3 grid of histograms for seven numeric columns", _PLT + """
rng = np.random.default_rng(27)
""" + _HOUSE, """
num_cols = house.select_dtypes('number').columns.drop('Id')
fig, axes = plt.subplots(2, 3, figsize=(15, 8))
for i, col in enumerate(num_cols):
    sns.histplot(house[col].dropna(), kde=True, ax=axes.flatten()[i])
    axes.flatten()[i].set_title(f'{col} (skew {house[col].skew():.2f})')
plt.tight_layout()
fig.savefig('distributions.png')
""", """
num_cols = house.select_dtypes('number').columns.drop('Id')
fig, axes = plt.subplots(3, 3, figsize=(15, 12))
for i, col in enumerate(num_cols):
    sns.histplot(house[col].dropna(), kde=True, ax=axes.flatten()[i])
    axes.flatten()[i].set_title(f'{col} (skew {house[col].skew():.2f})')
plt.tight_layout()
fig.savefig('distributions.png')
""")

# ---------------------------------------------------------------- gradient boosting (2)

_add("xgboost: wine-quality classes that start at 3", _PD + """
rng = np.random.default_rng(28)
n = 1599
wine = pd.DataFrame({
    'fixed acidity': rng.normal(8.3, 1.7, n), 'volatile acidity': rng.normal(0.53, 0.18, n),
    'citric acid': rng.random(n) * 0.8, 'residual sugar': rng.gamma(2, 1.3, n),
    'chlorides': rng.normal(0.087, 0.047, n).clip(0.01), 'sulphates': rng.normal(0.66, 0.17, n),
    'alcohol': rng.normal(10.4, 1.07, n),
})
wine['quality'] = rng.choice([3, 4, 5, 6, 7, 8], n, p=[0.006, 0.033, 0.426, 0.399, 0.124, 0.012])
from sklearn.model_selection import train_test_split
X_train, X_test, y_train, y_test = train_test_split(wine.drop(columns='quality'), wine['quality'], test_size=0.2, random_state=0)
from xgboost import XGBClassifier
""", """
clf = XGBClassifier(n_estimators=100, max_depth=4, learning_rate=0.1, random_state=0)
clf.fit(X_train, y_train)
print('accuracy', (clf.predict(X_test) == y_test).mean())
""", """
clf = XGBClassifier(n_estimators=100, max_depth=4, learning_rate=0.1, random_state=0)
clf.fit(X_train, y_train - 3)
print('accuracy', (clf.predict(X_test) + 3 == y_test).mean())
""")

_add("catboost: predicting on a test set whose Embarked still has NaN", _PD + """
rng = np.random.default_rng(29)
""" + _TITANIC + """
train = titanic.iloc[:700].copy()
test = titanic.iloc[700:].drop(columns='Survived').copy()
train.loc[[61, 629], 'Embarked'] = np.nan
test.loc[[829, 852], 'Embarked'] = np.nan
train['Embarked'] = train['Embarked'].fillna('S')
features = ['Pclass', 'Sex', 'Age', 'SibSp', 'Parch', 'Fare', 'Embarked']
cat_features = ['Sex', 'Embarked']
""", """
from catboost import CatBoostClassifier
cb = CatBoostClassifier(iterations=400, depth=6, learning_rate=0.05, random_seed=0, verbose=0)
cb.fit(train[features], train['Survived'], cat_features=cat_features)
test['Survived'] = cb.predict(test[features])
test[['PassengerId', 'Survived']].to_csv('submission.csv', index=False)
""", """
from catboost import CatBoostClassifier
cb = CatBoostClassifier(iterations=400, depth=6, learning_rate=0.05, random_seed=0, verbose=0)
cb.fit(train[features], train['Survived'], cat_features=cat_features)
test['Embarked'] = test['Embarked'].fillna('S')
test['Survived'] = cb.predict(test[features])
test[['PassengerId', 'Survived']].to_csv('submission.csv', index=False)
""")

# ---------------------------------------------------------------- plain Python (2)

_add("python: clean_text used before the cell that defines it", _PD + """
rng = np.random.default_rng(30)
words = ['This', 'movie', 'was', 'GREAT!!', 'terrible...', 'plot', '<br />', 'acting', 'loved', 'it', '10/10', 'boring']
reviews = pd.DataFrame({
    'review': [' '.join(rng.choice(words, rng.integers(5, 40))) for _ in range(5000)],
    'sentiment': rng.choice(['positive', 'negative'], 5000),
})
""", """
reviews['clean'] = reviews['review'].apply(clean_text)
reviews['n_words'] = reviews['clean'].str.split().str.len()
reviews.groupby('sentiment')['n_words'].describe()
""", """
import re

def clean_text(text):
    text = re.sub(r'<.*?>', ' ', text)
    text = re.sub(r'[^a-z0-9 ]', ' ', text.lower())
    return ' '.join(text.split())

reviews['clean'] = reviews['review'].apply(clean_text)
reviews['n_words'] = reviews['clean'].str.split().str.len()
reviews.groupby('sentiment')['n_words'].describe()
""")

_add("python: next-sentence pairs with sentences[i + 1] over the whole corpus", """
import random
random.seed(31)
vocab = ("the a movie film story was is and but it this that great bad plot actor scene ending "
         "music camera director really very not so too much long short funny sad").split()
sentences = [' '.join(random.choice(vocab) for _ in range(random.randint(6, 25))).capitalize() + '.'
             for _ in range(60000)]
""", """
import re
pairs = []
for i in range(len(sentences)):
    a = re.findall(r"[a-z']+", sentences[i].lower())
    b = re.findall(r"[a-z']+", sentences[i + 1].lower())
    pairs.append((a, b, len(set(a) & set(b)) / len(set(a) | set(b))))
print(len(pairs), sum(p[2] for p in pairs) / len(pairs))
""", """
import re
pairs = []
for i in range(len(sentences) - 1):
    a = re.findall(r"[a-z']+", sentences[i].lower())
    b = re.findall(r"[a-z']+", sentences[i + 1].lower())
    pairs.append((a, b, len(set(a) & set(b)) / len(set(a) | set(b))))
print(len(pairs), sum(p[2] for p in pairs) / len(pairs))
""")
