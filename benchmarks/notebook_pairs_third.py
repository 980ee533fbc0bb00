"""A third set of crash/fix pairs for the notebook path: (name, setup, crashing cell, fixed cell).

Written on 2026-12-03 by a helper who did not read the tool's code, docs or tests:
Kaggle-style cells across pandas, numpy, scikit-learn, Keras, torch, matplotlib/seaborn,
the gradient boosting libraries and plain Python, with JunoBench's root causes (APIs
removed or renamed in the installed versions, data confusion, model confusion, cells that
are not idempotent, a name defined in a later cell, off-by-one). About half crash within
0.3 s; a third first train or loop for 0.5-6 s; three crash in a loop's last pass. The
truth of each pair was decided by running set-up and cell in a fresh Python process (60
runs: every crashing cell raises in the cell, every fixed one runs clean).

No change was made after seeing them before their first run (`bench_longcells.third_pairs`),
so that run is a measure on unseen cases.
"""

_PD = "import numpy as np\nimport pandas as pd\n"
_PLT = ("import numpy as np\nimport pandas as pd\nimport matplotlib\nmatplotlib.use('Agg')\n"
        "import matplotlib.pyplot as plt\nimport seaborn as sns\n")
_TF = ("import os\nos.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')\nimport numpy as np\n"
       "import tensorflow as tf\nfrom tensorflow import keras\ntf.random.set_seed(0)\n")
_TORCH = ("import numpy as np\nimport torch\nimport torch.nn as nn\n"
          "from torch.utils.data import TensorDataset, DataLoader\ntorch.manual_seed(0)\n")

# Titanic-like frame used by a few set-ups
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
logit = 1.5 * (titanic['Sex'] == 'female') - 0.8 * (titanic['Pclass'] - 2) - 0.4
titanic['Survived'] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
"""

PAIRS = []


def _add(name, setup, crash, fixed):
    PAIRS.append((name, setup.strip() + "\n", crash.strip() + "\n", fixed.strip() + "\n"))


# ---------------------------------------------------------------- pandas ----
_add("set_index rerun on a frame already indexed by id",
     _PD + """
rng = np.random.default_rng(11)
n = 1460
train = pd.DataFrame({
    'Id': np.arange(1, n + 1),
    'LotArea': rng.integers(1300, 21000, n),
    'OverallQual': rng.integers(1, 11, n),
    'YearBuilt': rng.integers(1880, 2010, n),
    'SalePrice': rng.normal(180000, 60000, n).round(),
})
train.set_index('Id', inplace=True)
train['HouseAge'] = 2010 - train['YearBuilt']
""", """
train.set_index('Id', inplace=True)
train['LogPrice'] = np.log1p(train['SalePrice'].clip(lower=1))
train.head()
""", """
if 'Id' in train.columns:
    train.set_index('Id', inplace=True)
train['LogPrice'] = np.log1p(train['SalePrice'].clip(lower=1))
train.head()
""")

_add("assign back from concat of train and test with duplicated index",
     _PD + "rng = np.random.default_rng(12)\n" + _TITANIC + """
train = titanic.copy()
m = 418
test = pd.DataFrame({
    'PassengerId': np.arange(892, 892 + m),
    'Pclass': rng.choice([1, 2, 3], m),
    'Sex': rng.choice(['male', 'female'], m),
    'Age': np.where(rng.random(m) < 0.2, np.nan, rng.normal(30, 14, m).clip(1, 76).round()),
    'SibSp': rng.poisson(0.5, m), 'Parch': rng.poisson(0.4, m),
    'Fare': rng.gamma(1.5, 22, m).round(2),
    'Embarked': rng.choice(['S', 'C', 'Q'], m),
})
full = pd.concat([train.drop(columns='Survived'), test])
full['Age'] = full['Age'].fillna(full.groupby(['Pclass', 'Sex'])['Age'].transform('median'))
""", """
train['Age'] = full.loc[train.index, 'Age']
test['Age'] = full.loc[test.index, 'Age']
train['Age'].isna().sum(), test['Age'].isna().sum()
""", """
train['Age'] = full['Age'].iloc[:len(train)].values
test['Age'] = full['Age'].iloc[len(train):].values
train['Age'].isna().sum(), test['Age'].isna().sum()
""")

_add("merge store means on a partial key then assign values",
     _PD + """
rng = np.random.default_rng(13)
n = 6000
sales = pd.DataFrame({
    'Store': rng.integers(1, 46, n),
    'Dept': rng.integers(1, 11, n),
    'Week': rng.integers(1, 53, n),
    'Weekly_Sales': rng.gamma(2, 8000, n).round(2),
})
dept_stats = (sales.groupby(['Store', 'Dept'])['Weekly_Sales']
              .mean().rename('dept_mean').reset_index())
""", """
sales['dept_mean'] = sales.merge(dept_stats, on='Store', how='left')['dept_mean'].values
sales['sales_ratio'] = sales['Weekly_Sales'] / sales['dept_mean']
sales.head()
""", """
sales['dept_mean'] = sales.merge(dept_stats, on=['Store', 'Dept'], how='left')['dept_mean'].values
sales['sales_ratio'] = sales['Weekly_Sales'] / sales['dept_mean']
sales.head()
""")

_add("row loop parsing total_sqft fails on a range in the last row",
     _PD + """
rng = np.random.default_rng(14)
n = 30000
bhk = rng.integers(1, 6, n)
houses = pd.DataFrame({
    'location': rng.choice(['Whitefield', 'Sarjapur Road', 'Electronic City', 'Kanakpura Road', 'Thanisandra'], n),
    'size': [f"{b} BHK" if rng.random() < 0.8 else f"{b} Bedroom" for b in bhk],
    'total_sqft': (bhk * rng.normal(550, 90, n)).round().astype(int).astype(str),
    'price': (bhk * rng.normal(28, 6, n)).round(2),
})
houses.loc[n - 1, 'total_sqft'] = '2100 - 2850'
""", """
sqft_per_bhk = []
for idx, row in houses.iterrows():
    n_bhk = int(row['size'].split(' ')[0])
    sqft = float(row['total_sqft'])
    sqft_per_bhk.append(sqft / n_bhk)
houses['sqft_per_bhk'] = sqft_per_bhk
houses['sqft_per_bhk'].describe()
""", """
def to_sqft(x):
    parts = str(x).split(' - ')
    return sum(float(p) for p in parts) / len(parts)

sqft_per_bhk = []
for idx, row in houses.iterrows():
    n_bhk = int(row['size'].split(' ')[0])
    sqft = to_sqft(row['total_sqft'])
    sqft_per_bhk.append(sqft / n_bhk)
houses['sqft_per_bhk'] = sqft_per_bhk
houses['sqft_per_bhk'].describe()
""")

_add("dt accessor on a date column read from csv as text",
     _PD + """
rng = np.random.default_rng(15)
n = 3000
dates = pd.Timestamp('2013-01-01') + pd.to_timedelta(rng.integers(0, 1500, n), unit='D')
pd.DataFrame({
    'date': dates.strftime('%Y-%m-%d'),
    'store': rng.integers(1, 11, n),
    'item': rng.integers(1, 51, n),
    'sales': rng.poisson(40, n),
}).to_csv('train.csv', index=False)
df = pd.read_csv('train.csv')
df.head()
""", """
df['year'] = df['date'].dt.year
df['month'] = df['date'].dt.month
df['dayofweek'] = df['date'].dt.dayofweek
df.groupby('month')['sales'].mean()
""", """
df['date'] = pd.to_datetime(df['date'])
df['year'] = df['date'].dt.year
df['month'] = df['date'].dt.month
df['dayofweek'] = df['date'].dt.dayofweek
df.groupby('month')['sales'].mean()
""")

_add("seaborn heatmap of corr on a frame with text columns",
     _PLT + "rng = np.random.default_rng(16)\n" + _TITANIC + """
df = titanic.drop(columns=['PassengerId'])
df['Age'] = df['Age'].fillna(df['Age'].median())
""", """
plt.figure(figsize=(8, 6))
sns.heatmap(df.corr(), annot=True, fmt='.2f', cmap='coolwarm')
plt.title('Feature correlation')
plt.show()
""", """
plt.figure(figsize=(8, 6))
sns.heatmap(df.corr(numeric_only=True), annot=True, fmt='.2f', cmap='coolwarm')
plt.title('Feature correlation')
plt.show()
""")

# ----------------------------------------------------------------- numpy ----
_add("replace placeholder with np.NaN removed in numpy 2",
     _PD + """
rng = np.random.default_rng(21)
n = 2000
adult = pd.DataFrame({
    'age': rng.integers(17, 90, n),
    'workclass': rng.choice(['Private', 'Self-emp', 'Federal-gov', '?'], n, p=[0.7, 0.15, 0.1, 0.05]),
    'occupation': rng.choice(['Sales', 'Tech-support', 'Craft-repair', '?'], n, p=[0.4, 0.3, 0.25, 0.05]),
    'hours_per_week': rng.integers(1, 99, n),
    'income': rng.choice(['<=50K', '>50K'], n, p=[0.76, 0.24]),
})
""", """
adult = adult.replace('?', np.NaN)
adult.isnull().sum()
""", """
adult = adult.replace('?', np.nan)
adult.isnull().sum()
""")

_add("reshape digit pixels with the label column still in",
     _PD + """
rng = np.random.default_rng(22)
n = 2000
pixels = (rng.random((n, 784)) < 0.2) * rng.integers(0, 256, (n, 784))
train = pd.DataFrame(pixels.astype(np.int64), columns=[f'pixel{i}' for i in range(784)])
train.insert(0, 'label', rng.integers(0, 10, n))
""", """
X = train.values.reshape(-1, 28, 28, 1) / 255.0
y = train['label'].values
X.shape, y.shape
""", """
X = train.drop(columns='label').values.reshape(-1, 28, 28, 1) / 255.0
y = train['label'].values
X.shape, y.shape
""")

_add("standardize features with row statistics instead of column",
     "import numpy as np\n" + """
rng = np.random.default_rng(23)
X = rng.normal(loc=rng.uniform(-5, 50, 12), scale=rng.uniform(0.5, 20, 12), size=(500, 12))
w_true = rng.normal(size=12)
y = X @ w_true + rng.normal(scale=2.0, size=500)
""", """
X_std = (X - X.mean(axis=1)) / X.std(axis=1)
w = np.linalg.lstsq(np.c_[np.ones(len(X_std)), X_std], y, rcond=None)[0]
w[:5]
""", """
X_std = (X - X.mean(axis=0)) / X.std(axis=0)
w = np.linalg.lstsq(np.c_[np.ones(len(X_std)), X_std], y, rcond=None)[0]
w[:5]
""")

# ---------------------------------------------------------- scikit-learn ----
_add("onehot encoder with sparse= keyword",
     _PD + "rng = np.random.default_rng(31)\n" + _TITANIC + """
from sklearn.preprocessing import OneHotEncoder
df = titanic.copy()
cat_cols = ['Sex', 'Embarked', 'Pclass']
""", """
ohe = OneHotEncoder(sparse=False, handle_unknown='ignore')
X_cat = ohe.fit_transform(df[cat_cols])
X_cat = pd.DataFrame(X_cat, columns=ohe.get_feature_names_out(cat_cols), index=df.index)
X_cat.head()
""", """
ohe = OneHotEncoder(sparse_output=False, handle_unknown='ignore')
X_cat = ohe.fit_transform(df[cat_cols])
X_cat = pd.DataFrame(X_cat, columns=ohe.get_feature_names_out(cat_cols), index=df.index)
X_cat.head()
""")

_add("gradient boosting fit then rmse via squared=False",
     "import numpy as np\n" + """
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(32)
X = rng.normal(size=(3000, 10))
y = 3 * X[:, 0] - 2 * X[:, 1] ** 2 + np.sin(3 * X[:, 2]) + rng.normal(scale=0.5, size=3000)
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=42)
""", """
gbr = GradientBoostingRegressor(n_estimators=300, max_depth=3, learning_rate=0.05, random_state=0)
gbr.fit(X_train, y_train)
pred = gbr.predict(X_val)
print('Validation RMSE:', mean_squared_error(y_val, pred, squared=False))
""", """
gbr = GradientBoostingRegressor(n_estimators=300, max_depth=3, learning_rate=0.05, random_state=0)
gbr.fit(X_train, y_train)
pred = gbr.predict(X_val)
print('Validation RMSE:', np.sqrt(mean_squared_error(y_val, pred)))
""")

_add("imputer drops an all-nan column then wrap in a dataframe",
     _PD + """
from sklearn.impute import SimpleImputer
rng = np.random.default_rng(33)
n = 1460
houses = pd.DataFrame({
    'Neighborhood': rng.choice(['NAmes', 'CollgCr', 'OldTown', 'Edwards'], n),
    'LotFrontage': np.where(rng.random(n) < 0.18, np.nan, rng.normal(70, 22, n).round()),
    'MasVnrArea': np.where(rng.random(n) < 0.01, np.nan, rng.gamma(1, 100, n).round()),
    'GarageYrBlt': np.where(rng.random(n) < 0.06, np.nan, rng.integers(1900, 2010, n)),
    'SalePrice': rng.normal(180000, 60000, n).round(),
})
# pools only in some neighbourhoods; the area is missing when there is no pool
has_pool = houses['Neighborhood'].isin(['CollgCr', 'Edwards']) & (rng.random(n) < 0.05)
houses['PoolArea'] = np.where(has_pool, rng.integers(300, 700, n), np.nan)
train = houses[houses['Neighborhood'].isin(['NAmes', 'OldTown'])].copy()
num_cols = ['LotFrontage', 'MasVnrArea', 'GarageYrBlt', 'PoolArea']
""", """
imp = SimpleImputer(strategy='median')
train_num = pd.DataFrame(imp.fit_transform(train[num_cols]), columns=num_cols, index=train.index)
train_num.isna().sum()
""", """
imp = SimpleImputer(strategy='median', keep_empty_features=True)
train_num = pd.DataFrame(imp.fit_transform(train[num_cols]), columns=num_cols, index=train.index)
train_num.isna().sum()
""")

_add("pca with more components than features left by model selection",
     "import numpy as np\n" + """
from sklearn.decomposition import PCA
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import SelectFromModel
rng = np.random.default_rng(34)
n = 1500
X = rng.normal(size=(n, 60))
y = (X[:, :8] @ rng.normal(size=8) + rng.normal(scale=1.0, size=n) > 0).astype(int)
""", """
selector = SelectFromModel(RandomForestClassifier(n_estimators=150, random_state=0), threshold='mean')
X_sel = selector.fit_transform(X, y)
pca = PCA(n_components=30)
X_pca = pca.fit_transform(X_sel)
pca.explained_variance_ratio_.cumsum()[-1]
""", """
selector = SelectFromModel(RandomForestClassifier(n_estimators=150, random_state=0), threshold='mean')
X_sel = selector.fit_transform(X, y)
pca = PCA(n_components=min(30, X_sel.shape[1]))
X_pca = pca.fit_transform(X_sel)
pca.explained_variance_ratio_.cumsum()[-1]
""")

_add("random forest then roc auc on both probability columns",
     "import numpy as np\n" + """
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(35)
n = 4000
X = rng.normal(size=(n, 20))
y = ((X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=1.0, size=n)) > 0.5).astype(int)
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
""", """
rf = RandomForestClassifier(n_estimators=250, min_samples_leaf=2, random_state=0)
rf.fit(X_train, y_train)
val_proba = rf.predict_proba(X_val)
print('Validation AUC:', roc_auc_score(y_val, val_proba))
""", """
rf = RandomForestClassifier(n_estimators=250, min_samples_leaf=2, random_state=0)
rf.fit(X_train, y_train)
val_proba = rf.predict_proba(X_val)[:, 1]
print('Validation AUC:', roc_auc_score(y_val, val_proba))
""")

_add("predict on scaled test features defined only in a later cell",
     _PD + """
from sklearn.ensemble import RandomForestRegressor
from sklearn.preprocessing import StandardScaler
rng = np.random.default_rng(36)
n_tr, n_te = 2500, 800
cols = [f'f{i}' for i in range(12)]
X_train = pd.DataFrame(rng.normal(size=(n_tr, 12)), columns=cols)
X_test = pd.DataFrame(rng.normal(size=(n_te, 12)), columns=cols)
y_train = X_train['f0'] * 2 + X_train['f3'] ** 2 + rng.normal(scale=0.3, size=n_tr)
scaler = StandardScaler()
X_train_scaled = scaler.fit_transform(X_train)
""", """
model = RandomForestRegressor(n_estimators=200, max_depth=12, random_state=0)
model.fit(X_train_scaled, y_train)
test_pred = model.predict(X_test_scaled)
submission = pd.DataFrame({'id': np.arange(len(test_pred)), 'target': test_pred})
""", """
model = RandomForestRegressor(n_estimators=200, max_depth=12, random_state=0)
model.fit(X_train_scaled, y_train)
X_test_scaled = scaler.transform(X_test)
test_pred = model.predict(X_test_scaled)
submission = pd.DataFrame({'id': np.arange(len(test_pred)), 'target': test_pred})
""")

# ------------------------------------------------------ tensorflow / keras ----
_add("keras adam optimizer with the old lr= keyword",
     _TF + """
rng = np.random.default_rng(41)
X_train = rng.normal(size=(1000, 15)).astype('float32')
y_train = (X_train[:, 0] - X_train[:, 1] > 0).astype('float32')
model = keras.Sequential([
    keras.Input(shape=(15,)),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(1, activation='sigmoid'),
])
""", """
model.compile(optimizer=keras.optimizers.Adam(lr=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, epochs=3, batch_size=64, verbose=0)
""", """
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(X_train, y_train, epochs=3, batch_size=64, verbose=0)
""")

_add("keras categorical crossentropy with integer class labels",
     _TF + """
rng = np.random.default_rng(42)
n = 2000
X = rng.normal(size=(n, 10)).astype('float32')
y = np.digitize(X[:, 0] + 0.5 * X[:, 1], [-1.0, -0.3, 0.3, 1.0])   # 5 classes 0..4
model = keras.Sequential([
    keras.Input(shape=(10,)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(5, activation='softmax'),
])
""", """
model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
history = model.fit(X, y, epochs=3, batch_size=64, validation_split=0.2, verbose=0)
""", """
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
history = model.fit(X, y, epochs=3, batch_size=64, validation_split=0.2, verbose=0)
""")

_add("keras lstm fed 2-d windows without a feature axis",
     _TF + """
rng = np.random.default_rng(43)
series = np.cumsum(rng.normal(size=1600)).astype('float32')
series = (series - series.mean()) / series.std()
window = 30
X_train = np.stack([series[i:i + window] for i in range(len(series) - window)])
y_train = series[window:]
""", """
model = keras.Sequential([
    keras.layers.LSTM(32),
    keras.layers.Dense(1),
])
model.compile(optimizer='adam', loss='mse')
model.fit(X_train, y_train, epochs=2, batch_size=64, verbose=0)
""", """
X_train = X_train.reshape(X_train.shape[0], X_train.shape[1], 1)
model = keras.Sequential([
    keras.layers.LSTM(32),
    keras.layers.Dense(1),
])
model.compile(optimizer='adam', loss='mse')
model.fit(X_train, y_train, epochs=2, batch_size=64, verbose=0)
""")

_add("keras training then removed predict_classes",
     _TF + """
rng = np.random.default_rng(44)
n = 4000
X = rng.normal(size=(n, 20)).astype('float32')
y = np.argmax(X[:, :4] + 0.3 * rng.normal(size=(n, 4)), axis=1)
X_train, X_test, y_train = X[:3200], X[3200:], y[:3200]
model = keras.Sequential([
    keras.Input(shape=(20,)),
    keras.layers.Dense(64, activation='relu'),
    keras.layers.Dense(32, activation='relu'),
    keras.layers.Dense(4, activation='softmax'),
])
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
""", """
history = model.fit(X_train, y_train, epochs=6, batch_size=32, validation_split=0.1, verbose=0)
y_pred = model.predict_classes(X_test)
np.bincount(y_pred)
""", """
history = model.fit(X_train, y_train, epochs=6, batch_size=32, validation_split=0.1, verbose=0)
y_pred = np.argmax(model.predict(X_test, verbose=0), axis=1)
np.bincount(y_pred)
""")

# ----------------------------------------------------------------- torch ----
_add("torch squeeze on a last batch of one sample",
     _TORCH + """
rng = np.random.default_rng(51)
n = 64 * 600 + 1
X = rng.normal(size=(n, 16)).astype(np.float32)
y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(np.float32)
loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=64, shuffle=False)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
""", """
for epoch in range(3):
    model.train()
    running = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        out = model(xb).squeeze()
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(f'epoch {epoch}: loss {running / len(loader):.4f}')
""", """
for epoch in range(3):
    model.train()
    running = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        out = model(xb).squeeze(1)
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(f'epoch {epoch}: loss {running / len(loader):.4f}')
""")

_add("torch backward twice through precomputed encoder features",
     _TORCH + """
rng = np.random.default_rng(52)
X_train = torch.from_numpy(rng.normal(size=(2000, 48)).astype(np.float32))
y_train = torch.from_numpy(rng.integers(0, 3, 2000))
encoder = nn.Sequential(nn.Linear(48, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
criterion = nn.CrossEntropyLoss()
""", """
feats = encoder(X_train)          # features from the pretrained encoder, computed once
head = nn.Linear(32, 3)
opt = torch.optim.Adam(head.parameters(), lr=1e-2)
for epoch in range(100):
    opt.zero_grad()
    loss = criterion(head(feats), y_train)
    loss.backward()
    opt.step()
print(loss.item())
""", """
with torch.no_grad():
    feats = encoder(X_train)      # features from the pretrained encoder, computed once
head = nn.Linear(32, 3)
opt = torch.optim.Adam(head.parameters(), lr=1e-2)
for epoch in range(100):
    opt.zero_grad()
    loss = criterion(head(feats), y_train)
    loss.backward()
    opt.step()
print(loss.item())
""")

_add("torch training then numpy on predictions that require grad",
     _TORCH + """
rng = np.random.default_rng(53)
X = rng.normal(size=(6000, 20)).astype(np.float32)
y = (X[:, :5].sum(axis=1) + np.sin(X[:, 5]) + rng.normal(scale=0.1, size=6000)).astype(np.float32)
X_train, y_train = torch.from_numpy(X[:5000]), torch.from_numpy(y[:5000]).unsqueeze(1)
X_val, y_val = torch.from_numpy(X[5000:]), y[5000:]
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
loss_fn = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
""", """
for epoch in range(150):
    opt.zero_grad()
    loss = loss_fn(model(X_train), y_train)
    loss.backward()
    opt.step()
preds = model(X_val).numpy().ravel()
print('val rmse', np.sqrt(np.mean((preds - y_val) ** 2)))
""", """
for epoch in range(150):
    opt.zero_grad()
    loss = loss_fn(model(X_train), y_train)
    loss.backward()
    opt.step()
model.eval()
with torch.no_grad():
    preds = model(X_val).numpy().ravel()
print('val rmse', np.sqrt(np.mean((preds - y_val) ** 2)))
""")

_add("torch view after permute of image batch",
     _TORCH + """
rng = np.random.default_rng(54)
images = rng.integers(0, 256, size=(512, 32, 32, 3), dtype=np.uint8)   # N, H, W, C as loaded with PIL
labels = torch.from_numpy(rng.integers(0, 10, 512))
clf = nn.Linear(3 * 32 * 32, 10)
""", """
imgs = torch.from_numpy(images).float() / 255.0
imgs = imgs.permute(0, 3, 1, 2)                      # to N, C, H, W
imgs = (imgs - imgs.mean(dim=(0, 2, 3), keepdim=True)) / imgs.std(dim=(0, 2, 3), keepdim=True)
flat = imgs.view(imgs.size(0), -1)
logits = clf(flat)
nn.functional.cross_entropy(logits, labels).item()
""", """
imgs = torch.from_numpy(images).float() / 255.0
imgs = imgs.permute(0, 3, 1, 2)                      # to N, C, H, W
imgs = (imgs - imgs.mean(dim=(0, 2, 3), keepdim=True)) / imgs.std(dim=(0, 2, 3), keepdim=True)
flat = imgs.reshape(imgs.size(0), -1)
logits = clf(flat)
nn.functional.cross_entropy(logits, labels).item()
""")

# ------------------------------------------------------ matplotlib/seaborn ----
_add("matplotlib style 'seaborn' renamed",
     _PLT + """
rng = np.random.default_rng(61)
df = pd.DataFrame({'price': rng.lognormal(12, 0.4, 1500), 'rooms': rng.integers(1, 8, 1500)})
""", """
plt.style.use('seaborn')
fig, ax = plt.subplots(figsize=(8, 4))
ax.hist(np.log(df['price']), bins=50)
ax.set_title('log price')
plt.show()
""", """
plt.style.use('seaborn-v0_8')
fig, ax = plt.subplots(figsize=(8, 4))
ax.hist(np.log(df['price']), bins=50)
ax.set_title('log price')
plt.show()
""")

_add("subplot grid one panel short for the numeric columns",
     _PLT + """
rng = np.random.default_rng(62)
n = 3000
df = pd.DataFrame({
    'age': rng.integers(18, 90, n),
    'sex': rng.choice(['M', 'F'], n),
    'bmi': rng.normal(28, 5, n),
    'children': rng.poisson(1.1, n),
    'smoker': rng.choice(['yes', 'no'], n),
    'bp': rng.normal(120, 15, n),
    'glucose': rng.gamma(9, 11, n),
    'cholesterol': rng.normal(200, 35, n),
    'charges': rng.lognormal(9.2, 0.9, n),
})
num_cols = df.select_dtypes('number').columns.tolist()
""", """
fig, axes = plt.subplots(2, 3, figsize=(15, 8))
for i, col in enumerate(num_cols):
    sns.histplot(df[col], kde=True, ax=axes.flatten()[i])
    axes.flatten()[i].set_title(col)
plt.tight_layout()
plt.show()
""", """
nrows = int(np.ceil(len(num_cols) / 3))
fig, axes = plt.subplots(nrows, 3, figsize=(15, 4 * nrows))
for i, col in enumerate(num_cols):
    sns.histplot(df[col], kde=True, ax=axes.flatten()[i])
    axes.flatten()[i].set_title(col)
plt.tight_layout()
plt.show()
""")

# ------------------------------------------------ xgboost/lightgbm/catboost ----
_add("xgboost early_stopping_rounds passed to fit",
     "import numpy as np\n" + """
import xgboost as xgb
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(71)
X = rng.normal(size=(3000, 15))
y = X[:, 0] * 3 + X[:, 1] * X[:, 2] + rng.normal(scale=0.5, size=3000)
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=0)
""", """
model = xgb.XGBRegressor(n_estimators=1000, learning_rate=0.05, max_depth=5, n_jobs=1)
model.fit(X_train, y_train, eval_set=[(X_val, y_val)], early_stopping_rounds=50, verbose=False)
print(model.best_iteration)
""", """
model = xgb.XGBRegressor(n_estimators=1000, learning_rate=0.05, max_depth=5, n_jobs=1,
                         early_stopping_rounds=50)
model.fit(X_train, y_train, eval_set=[(X_val, y_val)], verbose=False)
print(model.best_iteration)
""")

_add("lightgbm on a frame with a raw object column",
     _PD + """
import lightgbm as lgb
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(72)
n = 4000
df = pd.DataFrame({
    'tenure': rng.integers(0, 72, n),
    'monthly_charges': rng.normal(65, 30, n).clip(18, 120),
    'contract': rng.choice(['Month-to-month', 'One year', 'Two year'], n, p=[0.55, 0.25, 0.2]),
    'senior': rng.integers(0, 2, n),
    'support_calls': rng.poisson(1.5, n),
})
df['churn'] = ((df['contract'] == 'Month-to-month') & (rng.random(n) < 0.45) | (rng.random(n) < 0.08)).astype(int)
X = df.drop(columns='churn')
y = df['churn']
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=0)
""", """
clf = lgb.LGBMClassifier(n_estimators=300, learning_rate=0.05, num_leaves=31, verbose=-1, n_jobs=1)
clf.fit(X_train, y_train, eval_set=[(X_val, y_val)])
print(clf.score(X_val, y_val))
""", """
X_train, X_val = X_train.copy(), X_val.copy()
for c in X_train.select_dtypes('object').columns:
    X_train[c] = X_train[c].astype('category')
    X_val[c] = pd.Categorical(X_val[c], categories=X_train[c].cat.categories)
clf = lgb.LGBMClassifier(n_estimators=300, learning_rate=0.05, num_leaves=31, verbose=-1, n_jobs=1)
clf.fit(X_train, y_train, eval_set=[(X_val, y_val)])
print(clf.score(X_val, y_val))
""")

_add("catboost fit then predict on test with nan in a categorical column",
     _PD + "rng = np.random.default_rng(73)\n" + _TITANIC + """
from catboost import CatBoostClassifier
train = titanic.copy()
train['Age'] = train['Age'].fillna(train['Age'].median())
m = 418
test = pd.DataFrame({
    'Pclass': rng.choice([1, 2, 3], m),
    'Sex': rng.choice(['male', 'female'], m),
    'Age': rng.normal(30, 14, m).clip(1, 76).round(),
    'SibSp': rng.poisson(0.5, m), 'Parch': rng.poisson(0.4, m),
    'Fare': rng.gamma(1.5, 22, m).round(2),
    'Embarked': rng.choice(['S', 'C', 'Q'], m).astype(object),
})
test.loc[[61, 829 % m], 'Embarked'] = np.nan
features = ['Pclass', 'Sex', 'Age', 'SibSp', 'Parch', 'Fare', 'Embarked']
cat_cols = ['Sex', 'Embarked']
""", """
model = CatBoostClassifier(iterations=400, depth=6, learning_rate=0.05, random_seed=0, verbose=0, thread_count=1)
model.fit(train[features], train['Survived'], cat_features=cat_cols)
test_pred = model.predict_proba(test[features])[:, 1]
(test_pred > 0.5).mean()
""", """
model = CatBoostClassifier(iterations=400, depth=6, learning_rate=0.05, random_seed=0, verbose=0, thread_count=1)
model.fit(train[features], train['Survived'], cat_features=cat_cols)
test[cat_cols] = test[cat_cols].fillna('missing')
test_pred = model.predict_proba(test[features])[:, 1]
(test_pred > 0.5).mean()
""")

# ------------------------------------------------------- python / files ----
_add("sort images into class folders run a second time",
     """
import os
import shutil
for i in range(300):
    for c in ('cat', 'dog'):
        os.makedirs('train', exist_ok=True)
        with open(os.path.join('train', f'{c}.{i}.jpg'), 'wb') as fh:
            fh.write(b'\\xff\\xd8\\xff' + bytes(64))
# earlier run of the "organise" cell
for f in os.listdir('train'):
    label = f.split('.')[0]
    os.makedirs(os.path.join('train', label), exist_ok=True)
    shutil.move(os.path.join('train', f), os.path.join('train', label, f))
""", """
for f in os.listdir('train'):
    label = f.split('.')[0]
    os.makedirs(os.path.join('train', label), exist_ok=True)
    shutil.move(os.path.join('train', f), os.path.join('train', label, f))
print({c: len(os.listdir(os.path.join('train', c))) for c in ('cat', 'dog')})
""", """
for f in os.listdir('train'):
    src = os.path.join('train', f)
    if not os.path.isfile(src):
        continue
    label = f.split('.')[0]
    os.makedirs(os.path.join('train', label), exist_ok=True)
    shutil.move(src, os.path.join('train', label, f))
print({c: len(os.listdir(os.path.join('train', c))) for c in ('cat', 'dog')})
""")

_add("json dump of best params holding numpy ints after a tuning loop",
     "import json\nimport numpy as np\n" + """
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier
rng = np.random.default_rng(82)
n = 3000
X = rng.normal(size=(n, 12))
y = ((X[:, 0] > 0) ^ (X[:, 1] * X[:, 2] > 0.3)).astype(int)
""", """
results = {}
for depth in np.arange(2, 12):
    for leaf in (1, 5, 20):
        clf = DecisionTreeClassifier(max_depth=depth, min_samples_leaf=leaf, random_state=0)
        results[(depth, leaf)] = cross_val_score(clf, X, y, cv=5).mean()
best_depth, best_leaf = max(results, key=results.get)
best = {'max_depth': best_depth, 'min_samples_leaf': best_leaf, 'cv_acc': results[(best_depth, best_leaf)]}
with open('best_params.json', 'w') as f:
    json.dump(best, f, indent=2)
print(best)
""", """
results = {}
for depth in np.arange(2, 12):
    for leaf in (1, 5, 20):
        clf = DecisionTreeClassifier(max_depth=depth, min_samples_leaf=leaf, random_state=0)
        results[(depth, leaf)] = cross_val_score(clf, X, y, cv=5).mean()
best_depth, best_leaf = max(results, key=results.get)
best = {'max_depth': int(best_depth), 'min_samples_leaf': int(best_leaf),
        'cv_acc': float(results[(best_depth, best_leaf)])}
with open('best_params.json', 'w') as f:
    json.dump(best, f, indent=2)
print(best)
""")

assert len(PAIRS) == len({p[0] for p in PAIRS})
