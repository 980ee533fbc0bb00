r"""Twenty-seventh set of notebook crash/fix pairs.

30 realistic ML-notebook cells (pandas, numpy, scikit-learn, keras, torch,
matplotlib, seaborn, xgboost, lightgbm, plain python).  15 are LONG: the crash
cell does ~3 s of genuine work before failing on data met late or on combining
what a loop collected.  15 are SHORT (< 0.5 s).  Each tuple is
(name, setup, crash, fixed); `fixed` is the minimal fix a user would make.
"""

PAIRS = [
    # ------------------------------------------------------------------ LONG
    (
        "pandas_sensor_rolling_text_values",
        r"""
import numpy as np
import pandas as pd
rng = np.random.default_rng(0)
N_SENSORS = 48
n = 60_000
idx = pd.date_range('2024-01-01', periods=n, freq='min')
sensor_frames = []
for i in range(N_SENSORS):
    sensor_frames.append(pd.DataFrame({'ts': idx, 'value': rng.normal(20 + i, 2, n).round(3)}))
# the last logger export writes 'ERR' for dropouts, so the column came in as text
last = sensor_frames[-1].copy()
last['value'] = last['value'].astype(str)
last.loc[last.index[::997], 'value'] = 'ERR'
sensor_frames[-1] = last
""",
        r"""
features = []
for i in range(N_SENSORS):
    s = sensor_frames[i].set_index('ts')['value']
    roll = s.rolling('30min')
    feat = pd.DataFrame({
        'mean_30m': roll.mean(),
        'std_30m': roll.std(),
        'max_30m': roll.max(),
        'ewm_2h': s.ewm(halflife='2h', times=s.index).mean(),
        'q90_6h': s.rolling('6h').quantile(0.9),
    })
    feat['sensor'] = i
    features.append(feat.resample('15min').last())
features = pd.concat(features)
""",
        r"""
features = []
for i in range(N_SENSORS):
    s = pd.to_numeric(sensor_frames[i].set_index('ts')['value'], errors='coerce')
    roll = s.rolling('30min')
    feat = pd.DataFrame({
        'mean_30m': roll.mean(),
        'std_30m': roll.std(),
        'max_30m': roll.max(),
        'ewm_2h': s.ewm(halflife='2h', times=s.index).mean(),
        'q90_6h': s.rolling('6h').quantile(0.9),
    })
    feat['sensor'] = i
    features.append(feat.resample('15min').last())
features = pd.concat(features)
""",
    ),
    (
        "pandas_monthly_summary_pivot_duplicates",
        r"""
import numpy as np
import pandas as pd
rng = np.random.default_rng(1)
n = 3_300_000
tx = pd.DataFrame({
    'date': pd.Timestamp('2023-01-01') + pd.to_timedelta(rng.integers(0, 365 * 24 * 60, n), unit='min'),
    'store': rng.integers(0, 40, n),
    'category': rng.choice(['grocery', 'electronics', 'apparel', 'home'], n),
    'customer': rng.integers(0, 50_000, n),
    'amount': rng.gamma(2.0, 30.0, n).round(2),
})
""",
        r"""
monthly = []
for month, grp in tx.groupby(tx['date'].dt.to_period('M')):
    g = grp.groupby(['store', 'category'])
    summ = g.agg(revenue=('amount', 'sum'), basket=('amount', 'median'),
                 customers=('customer', 'nunique')).reset_index()
    p95 = g['amount'].quantile(0.95).rename('p95').reset_index()
    summ = summ.merge(p95, on=['store', 'category'])
    summ['month'] = str(month)
    monthly.append(summ)
monthly = pd.concat(monthly, ignore_index=True)
revenue_table = monthly.pivot(index='store', columns='month', values='revenue')
""",
        r"""
monthly = []
for month, grp in tx.groupby(tx['date'].dt.to_period('M')):
    g = grp.groupby(['store', 'category'])
    summ = g.agg(revenue=('amount', 'sum'), basket=('amount', 'median'),
                 customers=('customer', 'nunique')).reset_index()
    p95 = g['amount'].quantile(0.95).rename('p95').reset_index()
    summ = summ.merge(p95, on=['store', 'category'])
    summ['month'] = str(month)
    monthly.append(summ)
monthly = pd.concat(monthly, ignore_index=True)
revenue_table = monthly.pivot_table(index='store', columns='month', values='revenue', aggfunc='sum')
""",
    ),
    (
        "pandas_daily_exports_renamed_column",
        r"""
import numpy as np
import pandas as pd
rng = np.random.default_rng(2)
raw_files = {}
for d in range(30):
    n = 100_000
    day = pd.Timestamp('2024-03-01') + pd.Timedelta(days=d)
    raw_files[f'orders_{day:%Y%m%d}.csv'] = pd.DataFrame({
        'order_id': np.arange(d * n, (d + 1) * n),
        'ts': day + pd.to_timedelta(rng.integers(0, 86_400, n), unit='s'),
        'customer_id': rng.integers(0, 8_000, n),
        'amount': rng.lognormal(3, 0.8, n).round(2),
        'channel': rng.choice(['web', 'app', 'store'], n),
    })
# the export tool was upgraded on the last day and now capitalises headers
last_name = list(raw_files)[-1]
raw_files[last_name] = raw_files[last_name].rename(columns={'amount': 'Amount', 'channel': 'Channel'})
""",
        r"""
pending = list(raw_files)
daily_features = []
while pending:
    fname = pending.pop(0)
    df = raw_files[fname]
    df = df.sort_values('ts')
    df['cum_spend'] = df.groupby('customer_id')['amount'].cumsum()
    df['gap_s'] = df.groupby('customer_id')['ts'].diff().dt.total_seconds()
    agg = df.groupby('customer_id').agg(
        n_orders=('order_id', 'count'), spend=('amount', 'sum'), max_cum=('cum_spend', 'max'),
        med_gap=('gap_s', 'median'), n_channels=('channel', 'nunique'))
    agg['file'] = fname
    daily_features.append(agg)
daily_features = pd.concat(daily_features)
""",
        r"""
pending = list(raw_files)
daily_features = []
while pending:
    fname = pending.pop(0)
    df = raw_files[fname].rename(columns=str.lower)
    df = df.sort_values('ts')
    df['cum_spend'] = df.groupby('customer_id')['amount'].cumsum()
    df['gap_s'] = df.groupby('customer_id')['ts'].diff().dt.total_seconds()
    agg = df.groupby('customer_id').agg(
        n_orders=('order_id', 'count'), spend=('amount', 'sum'), max_cum=('cum_spend', 'max'),
        med_gap=('gap_s', 'median'), n_channels=('channel', 'nunique'))
    agg['file'] = fname
    daily_features.append(agg)
daily_features = pd.concat(daily_features)
""",
    ),
    (
        "numpy_window_spectra_ragged_tail",
        r"""
import numpy as np
rng = np.random.default_rng(3)
t = np.arange(2_400_000) / 100.0
signal = np.column_stack([np.sin(2 * np.pi * f * t) for f in (1.0, 2.5, 4.0, 7.0, 11.0, 13.0)])
signal += rng.normal(0, 0.3, signal.shape)
WIN, STEP = 256, 64

def window_spectrum(w):
    w = w - w.mean(axis=0)
    spec = np.abs(np.fft.rfft(w, axis=0)) ** 2
    return np.log1p(spec / spec.sum(axis=0, keepdims=True))
""",
        r"""
spectra = [window_spectrum(signal[s:s + WIN]) for s in range(0, len(signal), STEP)]
X_spec = np.stack(spectra)
band_power = X_spec.reshape(len(X_spec), -1).mean(axis=1)
""",
        r"""
spectra = [window_spectrum(signal[s:s + WIN]) for s in range(0, len(signal) - WIN + 1, STEP)]
X_spec = np.stack(spectra)
band_power = X_spec.reshape(len(X_spec), -1).mean(axis=1)
""",
    ),
    (
        "numpy_block_covariance_singular",
        r"""
import numpy as np
from collections import deque
from threadpoolctl import threadpool_limits
threadpool_limits(1)  # shared 2-core box: keep BLAS single-threaded
rng = np.random.default_rng(4)
N_ASSETS = 120
blocks = deque()
for k in range(40):
    mix = rng.normal(size=(N_ASSETS, N_ASSETS)) / np.sqrt(N_ASSETS)
    returns = rng.normal(size=(3000, N_ASSETS)) @ mix * 0.01
    blocks.append((f'portfolio_{k:02d}', returns))
# a newly listed asset in the last portfolio has no trades yet: constant returns
name, r = blocks[-1]
r[:, 17] = 0.0
""",
        r"""
weights, distances = {}, {}
while blocks:
    name, R = blocks.popleft()
    cov = np.cov(R, rowvar=False)
    prec = np.linalg.inv(cov)
    ones = np.ones(len(cov))
    w = prec @ ones
    weights[name] = w / w.sum()
    centred = R - R.mean(axis=0)
    distances[name] = np.sqrt(np.einsum('ij,jk,ik->i', centred, prec, centred))
""",
        r"""
weights, distances = {}, {}
while blocks:
    name, R = blocks.popleft()
    cov = np.cov(R, rowvar=False)
    prec = np.linalg.pinv(cov)
    ones = np.ones(len(cov))
    w = prec @ ones
    weights[name] = w / w.sum()
    centred = R - R.mean(axis=0)
    distances[name] = np.sqrt(np.einsum('ij,jk,ik->i', centred, prec, centred))
""",
    ),
    (
        "sklearn_walk_forward_unseen_plan",
        r"""
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.pipeline import Pipeline
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
rng = np.random.default_rng(5)
n = 12_000
df = pd.DataFrame({
    'month': np.repeat(np.arange(1, 13), n // 12),
    'plan': rng.choice(['basic', 'plus', 'pro'], n),
    'region': rng.choice(['na', 'eu', 'apac'], n),
    'tenure': rng.integers(1, 60, n),
    'monthly_fee': rng.normal(30, 8, n).round(2),
    'tickets': rng.poisson(1.5, n),
})
# a new plan launched in December
dec = df['month'] == 12
df.loc[dec & (rng.random(n) < 0.15), 'plan'] = 'enterprise'
df['churn'] = (rng.random(n) < 0.15 + 0.05 * df['tickets'].clip(0, 4) - 0.002 * df['tenure']).astype(int)
num_cols = ['tenure', 'monthly_fee', 'tickets']
feature_cols = ['plan', 'region'] + num_cols
""",
        r"""
scores = {}
for test_month in range(7, 13):
    train, test = df[df.month < test_month], df[df.month == test_month]
    pre = ColumnTransformer([('cat', OneHotEncoder(), ['plan', 'region']),
                             ('num', StandardScaler(), num_cols)])
    model = Pipeline([('pre', pre),
                      ('clf', RandomForestClassifier(n_estimators=45, min_samples_leaf=3, n_jobs=1, random_state=0))])
    model.fit(train[feature_cols], train['churn'])
    scores[test_month] = roc_auc_score(test['churn'], model.predict_proba(test[feature_cols])[:, 1])
""",
        r"""
scores = {}
for test_month in range(7, 13):
    train, test = df[df.month < test_month], df[df.month == test_month]
    pre = ColumnTransformer([('cat', OneHotEncoder(handle_unknown='ignore'), ['plan', 'region']),
                             ('num', StandardScaler(), num_cols)])
    model = Pipeline([('pre', pre),
                      ('clf', RandomForestClassifier(n_estimators=45, min_samples_leaf=3, n_jobs=1, random_state=0))])
    model.fit(train[feature_cols], train['churn'])
    scores[test_month] = roc_auc_score(test['churn'], model.predict_proba(test[feature_cols])[:, 1])
""",
    ),
    (
        "sklearn_per_store_gbr_nan_weather",
        r"""
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
rng = np.random.default_rng(6)
rows = []
for store in range(12):
    n = 1500
    rows.append(pd.DataFrame({
        'store': store,
        'dow': rng.integers(0, 7, n),
        'promo': rng.integers(0, 2, n),
        'temperature': rng.normal(15, 8, n).round(1),
        'price_idx': rng.normal(1.0, 0.1, n),
    }))
sales = pd.concat(rows, ignore_index=True)
sales['units'] = (50 + 8 * sales['promo'] - 20 * (sales['price_idx'] - 1) + 0.4 * sales['temperature']
                  + rng.normal(0, 5, len(sales)))
# the weather feed for the newest store has gaps
last = sales['store'] == 11
sales.loc[last & (rng.random(len(sales)) < 0.05), 'temperature'] = np.nan
FEATURES = ['dow', 'promo', 'temperature', 'price_idx']
""",
        r"""
store_models, store_r2 = {}, {}
for store, grp in sales.groupby('store'):
    model = GradientBoostingRegressor(n_estimators=120, max_depth=3, random_state=0)
    model.fit(grp[FEATURES], grp['units'])
    store_models[store] = model
    store_r2[store] = model.score(grp[FEATURES], grp['units'])
""",
        r"""
store_models, store_r2 = {}, {}
for store, grp in sales.groupby('store'):
    model = make_pipeline(SimpleImputer(strategy='median'),
                          GradientBoostingRegressor(n_estimators=120, max_depth=3, random_state=0))
    model.fit(grp[FEATURES], grp['units'])
    store_models[store] = model
    store_r2[store] = model.score(grp[FEATURES], grp['units'])
""",
    ),
    (
        "sklearn_partial_fit_chunk_schema_drift",
        r"""
import numpy as np
import pandas as pd
from sklearn.neural_network import MLPClassifier
rng = np.random.default_rng(7)
feature_cols = [f'f{i}' for i in range(20)]
W = rng.normal(size=20)
N_CHUNKS = 140

def load_chunk(i):
    r = np.random.default_rng(100 + i)
    X = r.normal(size=(2000, 20))
    chunk = pd.DataFrame(X, columns=feature_cols)
    chunk['label'] = (X @ W + r.normal(0, 0.5, 2000) > 0).astype(int)
    if i == N_CHUNKS - 1:
        # upstream added a new column in the latest batch
        chunk['session_len'] = r.exponential(30, 2000)
    return chunk

clf = MLPClassifier(hidden_layer_sizes=(64, 32), random_state=0)
""",
        r"""
i = 0
losses = []
while i < N_CHUNKS:
    chunk = load_chunk(i)
    X = chunk.drop(columns='label')
    clf.partial_fit(X, chunk['label'], classes=[0, 1])
    losses.append(clf.loss_)
    i += 1
""",
        r"""
i = 0
losses = []
while i < N_CHUNKS:
    chunk = load_chunk(i)
    X = chunk[feature_cols]
    clf.partial_fit(X, chunk['label'], classes=[0, 1])
    losses.append(clf.loss_)
    i += 1
""",
    ),
    (
        "sklearn_model_zoo_no_predict_proba",
        r"""
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
from sklearn.ensemble import RandomForestClassifier, GradientBoostingClassifier
from sklearn.svm import LinearSVC
from sklearn.calibration import CalibratedClassifierCV
from sklearn.metrics import roc_auc_score
X, y = make_classification(n_samples=3000, n_features=30, n_informative=12, random_state=8)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=8)
""",
        r"""
candidates = [
    ('logreg', LogisticRegression(max_iter=2000)),
    ('random_forest', RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0)),
    ('grad_boost', GradientBoostingClassifier(n_estimators=80, random_state=0)),
    ('linear_svm', LinearSVC(C=0.5)),
]
auc = {}
for name, model in candidates:
    model.fit(X_tr, y_tr)
    auc[name] = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
""",
        r"""
candidates = [
    ('logreg', LogisticRegression(max_iter=2000)),
    ('random_forest', RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0)),
    ('grad_boost', GradientBoostingClassifier(n_estimators=80, random_state=0)),
    ('linear_svm', CalibratedClassifierCV(LinearSVC(C=0.5))),
]
auc = {}
for name, model in candidates:
    model.fit(X_tr, y_tr)
    auc[name] = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
""",
    ),
    (
        "keras_multitask_label_out_of_range",
        r"""
import os
os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
NUM_CLASSES = 3
tasks = {}
for name, k in [('intent_en', 3), ('intent_de', 4)]:
    X = rng.normal(size=(2000, 24)).astype('float32')
    y = np.argmax(X[:, :k] + rng.normal(0, 0.5, (2000, k)), axis=1)
    tasks[name] = (X, y)
""",
        r"""
histories = {}
for task, (X, y) in tasks.items():
    model = keras.Sequential([
        keras.Input(shape=(X.shape[1],)),
        layers.Dense(64, activation='relu'),
        layers.Dense(32, activation='relu'),
        layers.Dense(NUM_CLASSES, activation='softmax'),
    ])
    model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
    histories[task] = model.fit(X, y, epochs=2, batch_size=64, verbose=0).history
""",
        r"""
histories = {}
for task, (X, y) in tasks.items():
    model = keras.Sequential([
        keras.Input(shape=(X.shape[1],)),
        layers.Dense(64, activation='relu'),
        layers.Dense(32, activation='relu'),
        layers.Dense(len(np.unique(y)), activation='softmax'),
    ])
    model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
    histories[task] = model.fit(X, y, epochs=2, batch_size=64, verbose=0).history
""",
    ),
    (
        "keras_conv1d_flat_sequences",
        r"""
import os
os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
keras.utils.set_random_seed(10)
rng = np.random.default_rng(10)
T, C = 32, 3
device_windows = {}
for device in ['watch_a', 'watch_b', 'phone_a', 'phone_b']:
    Xd = rng.normal(size=(1500, T, C)).astype('float32')   # 3-axis accelerometer windows
    yd = (np.abs(np.fft.rfft(Xd[:, :, 0], axis=1))[:, 3:6].sum(axis=1) > 9).astype('float32')
    device_windows[device] = (Xd, yd)
# the phone_b export pipeline stores each window flattened to T*C values
Xb, yb = device_windows['phone_b']
device_windows['phone_b'] = (Xb.reshape(len(Xb), -1), yb)
""",
        r"""
model = keras.Sequential([keras.Input(shape=(T, C)), layers.Conv1D(16, 5, activation='relu'),
                          layers.GlobalAveragePooling1D(), layers.Dense(1, activation='sigmoid')])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
acc_after = {}
for device, (Xd, yd) in device_windows.items():
    hist = model.fit(Xd, yd, epochs=3, batch_size=64, verbose=0)
    acc_after[device] = hist.history['accuracy'][-1]
""",
        r"""
model = keras.Sequential([keras.Input(shape=(T, C)), layers.Conv1D(16, 5, activation='relu'),
                          layers.GlobalAveragePooling1D(), layers.Dense(1, activation='sigmoid')])
model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
acc_after = {}
for device, (Xd, yd) in device_windows.items():
    hist = model.fit(Xd.reshape(-1, T, C), yd, epochs=3, batch_size=64, verbose=0)
    acc_after[device] = hist.history['accuracy'][-1]
""",
    ),
    (
        "torch_autoencoder_stack_ragged_embeddings",
        r"""
import numpy as np
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader
torch.set_num_threads(1)
torch.manual_seed(11)
rng = np.random.default_rng(11)
X = torch.tensor(rng.normal(size=(10_000, 48)), dtype=torch.float32)
loader = DataLoader(TensorDataset(X), batch_size=256, shuffle=False)
encoder = nn.Sequential(nn.Linear(48, 128), nn.ReLU(), nn.Linear(128, 16))
decoder = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 48))
opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-3)
loss_fn = nn.MSELoss()
""",
        r"""
for epoch in range(20):
    for (xb,) in loader:
        opt.zero_grad()
        loss = loss_fn(decoder(encoder(xb)), xb)
        loss.backward()
        opt.step()

embeddings = []
with torch.no_grad():
    for (xb,) in loader:
        embeddings.append(encoder(xb))
Z = torch.stack(embeddings)
""",
        r"""
for epoch in range(20):
    for (xb,) in loader:
        opt.zero_grad()
        loss = loss_fn(decoder(encoder(xb)), xb)
        loss.backward()
        opt.step()

embeddings = []
with torch.no_grad():
    for (xb,) in loader:
        embeddings.append(encoder(xb))
Z = torch.cat(embeddings)
""",
    ),
    (
        "torch_gru_fixed_batch_hidden",
        r"""
import numpy as np
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader
torch.set_num_threads(1)
torch.manual_seed(12)
rng = np.random.default_rng(12)
BATCH_SIZE, HIDDEN = 128, 32
Xs = rng.normal(size=(5000, 30, 4)).astype('float32')
ys = (Xs[:, -5:, 0].sum(axis=1) > 0).astype('int64')
train_loader = DataLoader(TensorDataset(torch.from_numpy(Xs[:4000]), torch.from_numpy(ys[:4000])),
                          batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
test_loader = DataLoader(TensorDataset(torch.from_numpy(Xs[4000:]), torch.from_numpy(ys[4000:])),
                         batch_size=BATCH_SIZE)

class GRUClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, 2)
    def forward(self, x, h0):
        out, h = self.gru(x, h0)
        return self.head(out[:, -1])

model = GRUClassifier()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()
""",
        r"""
def init_hidden(batch):
    return torch.zeros(1, BATCH_SIZE, HIDDEN)

for epoch in range(6):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb, init_hidden(xb)), yb)
        loss.backward()
        opt.step()

model.eval()
correct = 0
with torch.no_grad():
    for xb, yb in test_loader:
        correct += (model(xb, init_hidden(xb)).argmax(1) == yb).sum().item()
test_acc = correct / len(test_loader.dataset)
""",
        r"""
def init_hidden(batch):
    return torch.zeros(1, batch.size(0), HIDDEN)

for epoch in range(6):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb, init_hidden(xb)), yb)
        loss.backward()
        opt.step()

model.eval()
correct = 0
with torch.no_grad():
    for xb, yb in test_loader:
        correct += (model(xb, init_hidden(xb)).argmax(1) == yb).sum().item()
test_acc = correct / len(test_loader.dataset)
""",
    ),
    (
        "xgboost_region_models_text_promo",
        r"""
import numpy as np
import pandas as pd
import xgboost as xgb
rng = np.random.default_rng(13)
FEATURES = ['dow', 'week', 'promo', 'price', 'competitor_price']
region_data = {}
for region in ['north', 'south', 'east', 'west', 'central', 'coastal']:
    n = 8000
    df = pd.DataFrame({
        'dow': rng.integers(0, 7, n), 'week': rng.integers(1, 53, n),
        'promo': rng.integers(0, 2, n), 'price': rng.normal(10, 1.5, n),
        'competitor_price': rng.normal(10, 1.5, n),
    })
    df['units'] = 100 + 25 * df['promo'] - 6 * (df['price'] - df['competitor_price']) + rng.normal(0, 8, n)
    region_data[region] = df
# the coastal region's extract came through a text-only CSV export
region_data['coastal']['promo'] = region_data['coastal']['promo'].astype(str)
""",
        r"""
region_models, region_rmse = {}, {}
for region, frame in region_data.items():
    X, y = frame[FEATURES], frame['units']
    model = xgb.XGBRegressor(n_estimators=350, max_depth=6, learning_rate=0.05, n_jobs=1, random_state=0)
    model.fit(X, y)
    region_models[region] = model
    region_rmse[region] = float(np.sqrt(np.mean((model.predict(X) - y) ** 2)))
""",
        r"""
region_models, region_rmse = {}, {}
for region, frame in region_data.items():
    X, y = frame[FEATURES].apply(pd.to_numeric), frame['units']
    model = xgb.XGBRegressor(n_estimators=350, max_depth=6, learning_rate=0.05, n_jobs=1, random_state=0)
    model.fit(X, y)
    region_models[region] = model
    region_rmse[region] = float(np.sqrt(np.mean((model.predict(X) - y) ** 2)))
""",
    ),
    (
        "python_event_records_missing_key",
        r"""
import random
from collections import Counter, defaultdict
random.seed(14)
WORDS = ('error timeout retry login logout payment refund cart search click view share '
         'upload download sync cache miss hit slow fast crash restart deploy rollback').split()
batches = []
for b in range(120):
    batch = []
    for i in range(1500):
        rec = {'user': f'u{random.randrange(3000)}',
               'text': ' '.join(random.choices(WORDS, k=random.randint(8, 30))),
               'tags': random.sample(WORDS, 3)}
        batch.append(rec)
    batches.append(batch)
# records from the new API version (last batch) carry 'labels' instead of 'tags'
for rec in batches[-1][-300:]:
    rec['labels'] = rec.pop('tags')
""",
        r"""
bigrams = Counter()
tag_counts = Counter()
user_len = defaultdict(list)
for batch in batches:
    for rec in batch:
        toks = rec['text'].lower().split()
        bigrams.update(zip(toks, toks[1:]))
        user_len[rec['user']].append(len(toks))
        for tag in rec['tags']:
            tag_counts[tag] += sum(1 for t in toks if t == tag)
top_bigrams = bigrams.most_common(20)
avg_len = {u: sum(v) / len(v) for u, v in user_len.items()}
""",
        r"""
bigrams = Counter()
tag_counts = Counter()
user_len = defaultdict(list)
for batch in batches:
    for rec in batch:
        toks = rec['text'].lower().split()
        bigrams.update(zip(toks, toks[1:]))
        user_len[rec['user']].append(len(toks))
        for tag in rec.get('tags', rec.get('labels', [])):
            tag_counts[tag] += sum(1 for t in toks if t == tag)
top_bigrams = bigrams.most_common(20)
avg_len = {u: sum(v) / len(v) for u, v in user_len.items()}
""",
    ),
    # ----------------------------------------------------------------- SHORT
    (
        "pandas_merge_int_vs_str_customer_id",
        r"""
import numpy as np
import pandas as pd
rng = np.random.default_rng(20)
orders = pd.DataFrame({'order_id': range(500), 'customer_id': rng.integers(1000, 1100, 500),
                       'amount': rng.gamma(2, 20, 500).round(2)})
# customer master data came from a spreadsheet, ids stored as text
customers = pd.DataFrame({'customer_id': [str(i) for i in range(1000, 1100)],
                          'segment': rng.choice(['smb', 'mid', 'ent'], 100)})
""",
        r"""
enriched = orders.merge(customers, on='customer_id', how='left')
revenue_by_segment = enriched.groupby('segment')['amount'].sum()
""",
        r"""
customers['customer_id'] = customers['customer_id'].astype('int64')
enriched = orders.merge(customers, on='customer_id', how='left')
revenue_by_segment = enriched.groupby('segment')['amount'].sum()
""",
    ),
    (
        "pandas_str_accessor_on_int_zip",
        r"""
import pandas as pd
addresses = pd.DataFrame({'city': ['Boston', 'Newark', 'Hartford', 'Portland'],
                          'zip': [2108, 7102, 6103, 4101]})
""",
        r"""
addresses['zip5'] = addresses['zip'].str.zfill(5)
""",
        r"""
addresses['zip5'] = addresses['zip'].astype(str).str.zfill(5)
""",
    ),
    (
        "pandas_to_datetime_mixed_formats",
        r"""
import pandas as pd
events = pd.DataFrame({
    'date': ['2024-01-05', '2024-01-06', '2024-01-07', '01/08/2024', '2024-01-09'],
    'signups': [12, 15, 9, 22, 17],
})
""",
        r"""
events['date'] = pd.to_datetime(events['date'], format='%Y-%m-%d')
weekly = events.set_index('date')['signups'].resample('W').sum()
""",
        r"""
events['date'] = pd.to_datetime(events['date'], format='mixed')
weekly = events.set_index('date')['signups'].resample('W').sum()
""",
    ),
    (
        "pandas_groupby_mean_text_column",
        r"""
import pandas as pd
stats = pd.DataFrame({
    'team': ['A', 'A', 'B', 'B', 'C', 'C'],
    'player': ['ann', 'bo', 'cy', 'di', 'ed', 'flo'],
    'points': [12, 7, 20, 3, 9, 14],
    'assists': [3, 5, 1, 8, 4, 2],
})
""",
        r"""
team_avg = stats.groupby('team').mean()
""",
        r"""
team_avg = stats.groupby('team').mean(numeric_only=True)
""",
    ),
    (
        "numpy_row_centering_broadcast",
        r"""
import numpy as np
rng = np.random.default_rng(21)
X = rng.normal(5, 2, size=(200, 6))
""",
        r"""
X_centered = X - X.mean(axis=1)
X_scaled = X_centered / X.std(axis=1, keepdims=True)
""",
        r"""
X_centered = X - X.mean(axis=1, keepdims=True)
X_scaled = X_centered / X.std(axis=1, keepdims=True)
""",
    ),
    (
        "sklearn_scaler_transform_before_fit",
        r"""
import numpy as np
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
rng = np.random.default_rng(22)
X_train, X_test = rng.normal(size=(400, 5)), rng.normal(size=(100, 5))
y_train = (X_train[:, 0] > 0).astype(int)
scaler = StandardScaler()
""",
        r"""
X_train_s = scaler.transform(X_train)
X_test_s = scaler.transform(X_test)
clf = LogisticRegression().fit(X_train_s, y_train)
""",
        r"""
X_train_s = scaler.fit_transform(X_train)
X_test_s = scaler.transform(X_test)
clf = LogisticRegression().fit(X_train_s, y_train)
""",
    ),
    (
        "sklearn_single_feature_1d",
        r"""
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
rng = np.random.default_rng(23)
houses = pd.DataFrame({'sqft': rng.integers(600, 3500, 300)})
houses['price'] = 150 * houses['sqft'] + rng.normal(0, 20_000, 300)
""",
        r"""
reg = LinearRegression().fit(houses['sqft'], houses['price'])
slope = reg.coef_[0]
""",
        r"""
reg = LinearRegression().fit(houses[['sqft']], houses['price'])
slope = reg.coef_[0]
""",
    ),
    (
        "sklearn_scaler_on_text_column",
        r"""
import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler
rng = np.random.default_rng(24)
customers = pd.DataFrame({
    'age': rng.integers(18, 80, 300), 'income': rng.normal(55_000, 12_000, 300),
    'region': rng.choice(['north', 'south', 'west'], 300), 'visits': rng.poisson(4, 300),
})
""",
        r"""
scaled = StandardScaler().fit_transform(customers)
""",
        r"""
scaled = StandardScaler().fit_transform(customers.select_dtypes('number'))
""",
    ),
    (
        "keras_predict_extra_columns",
        r"""
import os
os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'
import numpy as np
import pandas as pd
from tensorflow import keras
from tensorflow.keras import layers
keras.utils.set_random_seed(25)
rng = np.random.default_rng(25)
feature_cols = [f'x{i}' for i in range(10)]
train = pd.DataFrame(rng.normal(size=(800, 10)), columns=feature_cols)
train['target'] = train['x0'] * 2 - train['x3'] + rng.normal(0, 0.1, 800)
model = keras.Sequential([keras.Input(shape=(10,)), layers.Dense(16, activation='relu'), layers.Dense(1)])
model.compile(optimizer='adam', loss='mse')
model.fit(train[feature_cols].values, train['target'].values, epochs=2, verbose=0)
new_batch = pd.DataFrame(rng.normal(size=(200, 10)), columns=feature_cols)
new_batch.insert(0, 'customer_id', np.arange(200))
new_batch['target'] = np.nan
model.predict(new_batch[feature_cols].values, verbose=0)
""",
        r"""
preds = model.predict(new_batch.values, verbose=0)
""",
        r"""
preds = model.predict(new_batch[feature_cols].values, verbose=0)
""",
    ),
    (
        "torch_float64_numpy_input",
        r"""
import numpy as np
import torch
from torch import nn
torch.set_num_threads(1)
torch.manual_seed(26)
X_np = np.random.default_rng(26).normal(size=(256, 12))
net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
""",
        r"""
with torch.no_grad():
    scores = net(torch.from_numpy(X_np)).squeeze(1)
""",
        r"""
with torch.no_grad():
    scores = net(torch.from_numpy(X_np).float()).squeeze(1)
""",
    ),
    (
        "torch_cross_entropy_column_target",
        r"""
import numpy as np
import torch
from torch import nn
torch.set_num_threads(1)
torch.manual_seed(27)
rng = np.random.default_rng(27)
X = torch.tensor(rng.normal(size=(128, 8)), dtype=torch.float32)
y = torch.tensor(rng.integers(0, 3, size=(128, 1)))  # labels read as a column vector
clf = nn.Linear(8, 3)
loss_fn = nn.CrossEntropyLoss()
""",
        r"""
loss = loss_fn(clf(X), y)
loss.backward()
""",
        r"""
loss = loss_fn(clf(X), y.squeeze(1))
loss.backward()
""",
    ),
    (
        "matplotlib_plot_diff_length",
        r"""
import numpy as np
import matplotlib
import matplotlib.pyplot as plt
days = np.arange(60)
cum_cases = np.cumsum(np.random.default_rng(28).poisson(20, 60))
""",
        r"""
fig, ax = plt.subplots(figsize=(6, 3))
ax.plot(days, np.diff(cum_cases), marker='.')
ax.set_xlabel('day'); ax.set_ylabel('new cases')
""",
        r"""
fig, ax = plt.subplots(figsize=(6, 3))
ax.plot(days[1:], np.diff(cum_cases), marker='.')
ax.set_xlabel('day'); ax.set_ylabel('new cases')
""",
    ),
    (
        "seaborn_barplot_wrong_column",
        r"""
import numpy as np
import pandas as pd
import matplotlib
import matplotlib.pyplot as plt
import seaborn as sns
rng = np.random.default_rng(29)
sales = pd.DataFrame({'region': rng.choice(['north', 'south', 'east', 'west'], 200),
                      'revenue': rng.gamma(3, 100, 200).round(2)})
""",
        r"""
ax = sns.barplot(data=sales, x='region', y='revenue_usd', errorbar=None)
""",
        r"""
ax = sns.barplot(data=sales, x='region', y='revenue', errorbar=None)
""",
    ),
    (
        "lightgbm_object_city_column",
        r"""
import numpy as np
import pandas as pd
import lightgbm as lgb
rng = np.random.default_rng(30)
n = 600
df = pd.DataFrame({'city': rng.choice(['paris', 'lyon', 'nice', 'lille'], n),
                   'age': rng.integers(18, 70, n), 'spend': rng.gamma(2, 50, n)})
df['converted'] = ((df['spend'] > 100) ^ (rng.random(n) < 0.1)).astype(int)
X, y = df[['city', 'age', 'spend']], df['converted']
""",
        r"""
clf = lgb.LGBMClassifier(n_estimators=30, n_jobs=1, verbose=-1)
clf.fit(X, y)
""",
        r"""
X = X.astype({'city': 'category'})
clf = lgb.LGBMClassifier(n_estimators=30, n_jobs=1, verbose=-1)
clf.fit(X, y)
""",
    ),
    (
        "python_prune_vocab_during_iteration",
        r"""
from collections import Counter
corpus = ['the model overfits the training data', 'the loss went down slowly',
          'training data leakage inflated the score', 'tune the learning rate',
          'the validation loss plateaued early']
vocab = Counter(w for line in corpus for w in line.split())
""",
        r"""
for word, count in vocab.items():
    if count < 2:
        del vocab[word]
""",
        r"""
for word, count in list(vocab.items()):
    if count < 2:
        del vocab[word]
""",
    ),
]
