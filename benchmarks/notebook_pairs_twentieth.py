r"""Independent evaluation set ("twentieth"): 30 Jupyter-notebook crash/fix pairs.

Fields
------
``PAIRS`` is a list of 30 tuples ``(name, setup, crash, fixed)``; every field is a
plain ``str``.

* ``name``  -- library prefix (pandas_, numpy_, sklearn_, keras_, torch_,
  matplotlib_, seaborn_, xgboost_, lightgbm_, python_) + snake_case slug; unique.
* ``setup`` -- the earlier notebook cells joined together, imports included.  It
  builds seeded synthetic data (np.random.default_rng, random.seed,
  torch.manual_seed, keras.utils.set_random_seed) and may write the files it needs
  under relative paths in the current working directory.  No network, downloads
  or pretrained weights.  Thread pools are pinned to one thread
  (OMP_NUM_THREADS=1, torch.set_num_threads(1), TF intra/inter-op threads = 1,
  n_jobs=1 / nthread=1).
* ``crash`` -- the target cell as first written; run after ``setup`` in the same
  namespace it raises an exception from a library or from Python itself.
* ``fixed`` -- the same cell after a small, realistic edit (setup unchanged); run
  after a fresh ``setup`` it completes and does the same work.
No cell uses ``raise``, ``assert``, ``print`` or ``time.sleep``.

Layout
------
* Pairs 1-15 are LONG: the crash cell does roughly 2.5-3.5 s of real
  single-threaded work before the exception and the fixed cell takes about as
  long (all within 2-5 s on the authoring machine).  The failure comes from data
  met late (a late monthly file, CSV chunk, CV fold, config, region group, day of
  a replay log, quarter, month of incremental training, validation batch, JSONL
  record, plotted feature) or from a step after the loop that combines or uses
  what the loop built (np.vstack, DataFrame.merge(validate=...), predicting a
  test set after CV/training).
* Pairs 16-30 are SHORT: the crash cell raises in well under 1 s (everyday
  mistakes: wrong dtype, shape/broadcast mismatch, missing/misnamed column,
  unfitted estimator, removed keyword, unparsable text, ...).

Mix (by name prefix)
--------------------
pandas 7, sklearn 7, torch 4, numpy 3, keras 3, python 2, matplotlib 1,
seaborn 1, xgboost 1, lightgbm 1.
Long: pandas 3, sklearn 3, keras 2, torch 2, numpy 1, python 1, xgboost 1,
lightgbm 1, seaborn 1.  Short: pandas 4, sklearn 4, numpy 2, torch 2, keras 1,
matplotlib 1, python 1.

Exception classes seen in the crash cells (pandas 2.3, numpy 2.4, sklearn 1.9,
torch 2.13 CPU, TF 2.21 / Keras 3.15, xgboost 3.2, lightgbm 4.7, seaborn 0.13,
matplotlib 3.11)
----------------------------------------------------------------------------
ValueError (16, incl. pandas/numpy/sklearn/xgboost/lightgbm/keras/matplotlib
checks), RuntimeError (2, torch), TypeError (2), KeyError (2), IndexError (1,
torch embedding), AttributeError (1, pandas .str), and one each of
sklearn.utils._param_validation.InvalidParameterError (ValueError subclass),
sklearn.exceptions.NotFittedError, pandas.errors.MergeError,
tensorflow.errors.InvalidArgumentError, numpy UFuncTypeError (TypeError
subclass, raised inside seaborn.regplot), json.JSONDecodeError.

How it was made
---------------
Written by hand for this evaluation, independently of the crash-prediction tool
(its code, docs, tests and other benchmark files were not consulted).  Every
pair was executed with a standalone checker that runs setup + cell in a fresh
Python process inside a fresh temporary working directory, one run at a time,
timing only the cell; two full rounds gave 60/60 expected outcomes (crash
raises, fixed does not, timing classes as above).
"""

PAIRS = [
    # ---------------- LONG pairs (1-15) ----------------
    (
        "pandas_monthly_exports_amount_locale",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import glob
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
os.makedirs("exports", exist_ok=True)
stores = [f"S{i:03d}" for i in range(80)]
months = pd.period_range("2022-01", periods=18, freq="M")
for k, month in enumerate(months):
    n = 220_000
    df = pd.DataFrame({
        "order_id": np.arange(n) + k * 1_000_000,
        "store": rng.choice(stores, n),
        "ts": month.start_time + pd.to_timedelta(rng.integers(0, 28 * 24 * 3600, n), unit="s"),
        "qty": rng.integers(1, 8, n),
        "amount": np.round(rng.gamma(1.5, 260.0, n), 2),
    })
    if month >= pd.Period("2023-04", freq="M"):
        df["amount"] = df["amount"].map("{:,.2f}".format)
    df.to_csv(f"exports/orders_{month}.csv", index=False)
""",
        """
frames = []
for path in sorted(glob.glob("exports/orders_*.csv")):
    df = pd.read_csv(path, parse_dates=["ts"])
    df["amount"] = df["amount"].astype("float64")
    df["unit_price"] = df["amount"] / df["qty"]
    df["date"] = df["ts"].dt.normalize()
    daily = (df.groupby(["store", "date"])
               .agg(orders=("order_id", "count"), revenue=("amount", "sum"),
                    units=("qty", "sum"), med_price=("unit_price", "median"))
               .reset_index()
               .sort_values(["store", "date"]))
    daily["rev_7d"] = daily.groupby("store")["revenue"].transform(lambda s: s.rolling(7, min_periods=1).mean())
    frames.append(daily)
store_daily = pd.concat(frames, ignore_index=True)
""",
        """
frames = []
for path in sorted(glob.glob("exports/orders_*.csv")):
    df = pd.read_csv(path, parse_dates=["ts"], thousands=",")
    df["amount"] = df["amount"].astype("float64")
    df["unit_price"] = df["amount"] / df["qty"]
    df["date"] = df["ts"].dt.normalize()
    daily = (df.groupby(["store", "date"])
               .agg(orders=("order_id", "count"), revenue=("amount", "sum"),
                    units=("qty", "sum"), med_price=("unit_price", "median"))
               .reset_index()
               .sort_values(["store", "date"]))
    daily["rev_7d"] = daily.groupby("store")["revenue"].transform(lambda s: s.rolling(7, min_periods=1).mean())
    frames.append(daily)
store_daily = pd.concat(frames, ignore_index=True)
""",
    ),
    (
        "sklearn_timeordered_kfold_onehot_unseen_city",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix, hstack
from sklearn.model_selection import KFold
from sklearn.preprocessing import OneHotEncoder
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(3)
n = 24_000
cities = [f"city_{i:02d}" for i in range(25)]
df = pd.DataFrame({
    "signup": pd.Timestamp("2021-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 700, n)), unit="D"),
    "city": rng.choice(cities, n),
    "device": rng.choice(["ios", "android", "web"], n, p=[0.4, 0.4, 0.2]),
    "plan": rng.choice(["free", "basic", "pro"], n, p=[0.6, 0.3, 0.1]),
    "sessions": rng.poisson(12, n),
    "tenure_days": rng.integers(1, 700, n),
    "spend": rng.gamma(2.0, 15.0, n),
})
launched = (df["signup"] >= pd.Timestamp("2022-11-20")) & (rng.random(n) < 0.12)
df.loc[launched, "city"] = "city_porto"
logit = -1.0 - 0.08 * (df["sessions"] - 12) + 0.6 * (df["plan"] == "free") + 0.3 * (df["device"] == "web") - 0.01 * df["spend"]
df["churn"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
""",
        """
cat_cols = ["city", "device", "plan"]
num_cols = ["sessions", "tenure_days", "spend"]
y = df["churn"].to_numpy()
oof = np.zeros(len(df))
fold_auc = []
for fold, (tr, va) in enumerate(KFold(n_splits=5, shuffle=False).split(df)):
    enc = OneHotEncoder()
    X_tr = hstack([enc.fit_transform(df.iloc[tr][cat_cols]), csr_matrix(df.iloc[tr][num_cols].to_numpy(float))]).tocsr()
    X_va = hstack([enc.transform(df.iloc[va][cat_cols]), csr_matrix(df.iloc[va][num_cols].to_numpy(float))]).tocsr()
    clf = GradientBoostingClassifier(n_estimators=50, max_depth=3, subsample=0.8, random_state=fold)
    clf.fit(X_tr, y[tr])
    oof[va] = clf.predict_proba(X_va)[:, 1]
    fold_auc.append(roc_auc_score(y[va], oof[va]))
cv_auc = np.mean(fold_auc)
""",
        """
cat_cols = ["city", "device", "plan"]
num_cols = ["sessions", "tenure_days", "spend"]
y = df["churn"].to_numpy()
oof = np.zeros(len(df))
fold_auc = []
for fold, (tr, va) in enumerate(KFold(n_splits=5, shuffle=False).split(df)):
    enc = OneHotEncoder(handle_unknown="ignore")
    X_tr = hstack([enc.fit_transform(df.iloc[tr][cat_cols]), csr_matrix(df.iloc[tr][num_cols].to_numpy(float))]).tocsr()
    X_va = hstack([enc.transform(df.iloc[va][cat_cols]), csr_matrix(df.iloc[va][num_cols].to_numpy(float))]).tocsr()
    clf = GradientBoostingClassifier(n_estimators=50, max_depth=3, subsample=0.8, random_state=fold)
    clf.fit(X_tr, y[tr])
    oof[va] = clf.predict_proba(X_va)[:, 1]
    fold_auc.append(roc_auc_score(y[va], oof[va]))
cv_auc = np.mean(fold_auc)
""",
    ),
    (
        "keras_monthly_incremental_fit_new_priority",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import tensorflow as tf
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
import keras
from keras import layers

keras.utils.set_random_seed(42)
rng = np.random.default_rng(42)
n_feat = 24
W = rng.normal(size=(n_feat, 5))
tickets = {}
for month in pd.period_range("2023-01", periods=12, freq="M"):
    n = 3500
    X = rng.normal(size=(n, n_feat)).astype("float32")
    prio = np.argmax(X @ W + rng.gumbel(size=(n, 5)), axis=1)
    if month >= pd.Period("2023-11", freq="M"):
        cosmetic = rng.random(n) < 0.04
        prio[cosmetic] = 5
    tickets[str(month)] = (X, prio.astype("int64"))
""",
        """
NUM_CLASSES = 5
model = keras.Sequential([
    keras.Input(shape=(n_feat,)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(NUM_CLASSES, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
monthly_acc = {}
for month, (X, y) in tickets.items():
    hist = model.fit(X, y, epochs=2, batch_size=64, verbose=0)
    monthly_acc[month] = hist.history["accuracy"][-1]
""",
        """
NUM_CLASSES = 1 + max(int(y.max()) for _, y in tickets.values())
model = keras.Sequential([
    keras.Input(shape=(n_feat,)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(NUM_CLASSES, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
monthly_acc = {}
for month, (X, y) in tickets.items():
    hist = model.fit(X, y, epochs=2, batch_size=64, verbose=0)
    monthly_acc[month] = hist.history["accuracy"][-1]
""",
    ),
    (
        "numpy_vibration_spectra_vstack",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np

rng = np.random.default_rng(5)
os.makedirs("vibration", exist_ok=True)
fs = 8192
for i in range(900):
    n = fs * 4
    if i == 871:
        n -= 1375
    t = np.arange(n) / fs
    f0 = 50 + rng.normal(0, 2)
    x = np.sin(2 * np.pi * f0 * t) + 0.3 * np.sin(2 * np.pi * 3 * f0 * t) + rng.normal(0, 0.5, n)
    np.save(f"vibration/machine_{i:03d}.npy", x.astype(np.float32))
""",
        """
spectra, band_feats = [], []
for name in sorted(os.listdir("vibration")):
    x = np.load(os.path.join("vibration", name)).astype(np.float64)
    x = x - x.mean()
    x = x * np.hanning(len(x))
    spec = np.abs(np.fft.rfft(x)) ** 2
    spec = np.convolve(spec, np.ones(9) / 9, mode="same")
    freqs = np.fft.rfftfreq(len(x), d=1 / fs)
    feats = []
    for lo in range(0, 4000, 25):
        band = (freqs >= lo) & (freqs < lo + 25)
        p = spec[band]
        feats += [np.log1p(p.sum()), np.log1p(p.max()), (freqs[band] * p).sum() / p.sum()]
    band_feats.append(feats)
    spectra.append(np.log1p(spec).astype(np.float32))
S = np.vstack(spectra)
F = np.array(band_feats)
mean_spec = S.mean(axis=0)
""",
        """
spectra, band_feats = [], []
for name in sorted(os.listdir("vibration")):
    x = np.load(os.path.join("vibration", name)).astype(np.float64)
    x = np.pad(x, (0, fs * 4 - len(x)))
    x = x - x.mean()
    x = x * np.hanning(len(x))
    spec = np.abs(np.fft.rfft(x)) ** 2
    spec = np.convolve(spec, np.ones(9) / 9, mode="same")
    freqs = np.fft.rfftfreq(len(x), d=1 / fs)
    feats = []
    for lo in range(0, 4000, 25):
        band = (freqs >= lo) & (freqs < lo + 25)
        p = spec[band]
        feats += [np.log1p(p.sum()), np.log1p(p.max()), (freqs[band] * p).sum() / p.sum()]
    band_feats.append(feats)
    spectra.append(np.log1p(spec).astype(np.float32))
S = np.vstack(spectra)
F = np.array(band_feats)
mean_spec = S.mean(axis=0)
""",
    ),
    (
        "torch_val_loader_truncated_window",
        """
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)
WIN = 256

def make_windows(n_rec, per_rec, truncate_last=False):
    out = []
    for r in range(n_rec):
        label = int(rng.integers(0, 4))
        freq = 0.02 + 0.03 * label
        for w in range(per_rec):
            t = np.arange(WIN) + w * WIN
            sig = np.stack([np.sin(2 * np.pi * freq * t + p) for p in (0.0, 1.0, 2.0)])
            sig = sig + rng.normal(0, 0.8, sig.shape)
            if truncate_last and r == n_rec - 3 and w == per_rec - 1:
                sig = sig[:, :201]
            out.append((torch.tensor(sig, dtype=torch.float32), label))
    return out

train_set = make_windows(60, 40)
val_set = make_windows(20, 40, truncate_last=True)
""",
        """
model = nn.Sequential(
    nn.Conv1d(3, 16, 7, padding=3), nn.ReLU(), nn.MaxPool1d(4),
    nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(),
    nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 4),
)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
val_loader = DataLoader(val_set, batch_size=128)
for epoch in range(10):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
model.eval()
correct = 0
with torch.no_grad():
    for xb, yb in val_loader:
        correct += (model(xb).argmax(1) == yb).sum().item()
val_acc = correct / len(val_set)
""",
        """
def pad_collate(batch):
    xs = [nn.functional.pad(x, (0, WIN - x.shape[-1])) for x, _ in batch]
    return torch.stack(xs), torch.tensor([y for _, y in batch])

model = nn.Sequential(
    nn.Conv1d(3, 16, 7, padding=3), nn.ReLU(), nn.MaxPool1d(4),
    nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(),
    nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 4),
)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
val_loader = DataLoader(val_set, batch_size=128, collate_fn=pad_collate)
for epoch in range(10):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
model.eval()
correct = 0
with torch.no_grad():
    for xb, yb in val_loader:
        correct += (model(xb).argmax(1) == yb).sum().item()
val_acc = correct / len(val_set)
""",
    ),
    (
        "python_jsonl_sessionize_renamed_field",
        """
import json
import random
from collections import Counter, defaultdict
from datetime import datetime, timedelta

random.seed(17)
screens = ["home", "search", "product", "cart", "checkout", "profile", "settings"]
events = ["open", "tap", "scroll", "close"]
t = datetime(2024, 3, 1)
with open("app_events.jsonl", "w") as fh:
    for i in range(700_000):
        t += timedelta(seconds=random.randint(1, 40))
        rec = {"ts": t.isoformat(), "user": f"u{random.randint(1, 3000)}",
               "screen": random.choice(screens), "event": random.choice(events),
               "app_version": "1.9.3"}
        if i >= 650_000 and random.random() < 0.3:
            rec["app_version"] = "2.0.0"
            rec["duration"] = round(random.uniform(0.1, 30.0), 2)
        else:
            rec["duration_ms"] = random.randint(100, 30_000)
        fh.write(json.dumps(rec) + "\\n")
""",
        """
sessions = defaultdict(list)
screen_time = defaultdict(float)
event_counts = Counter()
with open("app_events.jsonl") as fh:
    for line in fh:
        rec = json.loads(line)
        ts = datetime.fromisoformat(rec["ts"])
        user_sessions = sessions[rec["user"]]
        if not user_sessions or ts - user_sessions[-1][-1][0] > timedelta(minutes=30):
            user_sessions.append([])
        user_sessions[-1].append((ts, rec["screen"], rec["event"]))
        screen_time[rec["screen"]] += rec["duration_ms"] / 1000
        event_counts[(rec["screen"], rec["event"])] += 1
session_lengths = [len(s) for user_s in sessions.values() for s in user_s]
""",
        """
sessions = defaultdict(list)
screen_time = defaultdict(float)
event_counts = Counter()
with open("app_events.jsonl") as fh:
    for line in fh:
        rec = json.loads(line)
        ts = datetime.fromisoformat(rec["ts"])
        user_sessions = sessions[rec["user"]]
        if not user_sessions or ts - user_sessions[-1][-1][0] > timedelta(minutes=30):
            user_sessions.append([])
        user_sessions[-1].append((ts, rec["screen"], rec["event"]))
        screen_time[rec["screen"]] += rec["duration_ms"] / 1000 if "duration_ms" in rec else rec["duration"]
        event_counts[(rec["screen"], rec["event"])] += 1
session_lengths = [len(s) for user_s in sessions.values() for s in user_s]
""",
    ),
    (
        "sklearn_rf_config_sweep_auto_max_features",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, log_loss

X, y = make_classification(n_samples=8000, n_features=30, n_informative=12, weights=[0.8, 0.2], random_state=0)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
""",
        """
configs = [
    {"n_estimators": 40, "max_depth": 8, "max_features": "sqrt"},
    {"n_estimators": 40, "max_depth": None, "max_features": "sqrt", "min_samples_leaf": 3},
    {"n_estimators": 40, "max_depth": 12, "max_features": 0.3},
    {"n_estimators": 40, "max_depth": 12, "max_features": "log2", "class_weight": "balanced"},
    {"n_estimators": 40, "max_depth": None, "max_features": "auto", "bootstrap": False},
]
results = []
for cfg in configs:
    rf = RandomForestClassifier(random_state=0, n_jobs=1, **cfg)
    rf.fit(X_tr, y_tr)
    proba = rf.predict_proba(X_va)[:, 1]
    results.append({**cfg, "auc": roc_auc_score(y_va, proba), "logloss": log_loss(y_va, proba)})
leaderboard = pd.DataFrame(results).sort_values("auc", ascending=False)
""",
        """
configs = [
    {"n_estimators": 40, "max_depth": 8, "max_features": "sqrt"},
    {"n_estimators": 40, "max_depth": None, "max_features": "sqrt", "min_samples_leaf": 3},
    {"n_estimators": 40, "max_depth": 12, "max_features": 0.3},
    {"n_estimators": 40, "max_depth": 12, "max_features": "log2", "class_weight": "balanced"},
    {"n_estimators": 40, "max_depth": None, "max_features": "sqrt", "bootstrap": False},
]
results = []
for cfg in configs:
    rf = RandomForestClassifier(random_state=0, n_jobs=1, **cfg)
    rf.fit(X_tr, y_tr)
    proba = rf.predict_proba(X_va)[:, 1]
    results.append({**cfg, "auc": roc_auc_score(y_va, proba), "logloss": log_loss(y_va, proba)})
leaderboard = pd.DataFrame(results).sort_values("auc", ascending=False)
""",
    ),
    (
        "pandas_chunked_events_iso_timestamps",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(23)
n = 2_500_000
t0 = pd.Timestamp("2023-01-01")
ts = pd.Series(t0 + pd.to_timedelta(np.sort(rng.integers(0, 180 * 86400, n)), unit="s"))
events = pd.DataFrame({
    "event_time": ts.dt.strftime("%Y-%m-%d %H:%M:%S"),
    "user_id": rng.integers(0, 50_000, n),
    "event_type": rng.choice(["view", "click", "add_to_cart", "purchase"], n, p=[0.7, 0.2, 0.07, 0.03]),
    "value": np.round(rng.exponential(20.0, n), 2),
})
v2 = ts >= t0 + pd.Timedelta(days=166)
events.loc[v2, "event_time"] = events.loc[v2, "event_time"].str.replace(" ", "T", regex=False)
events.to_csv("events.csv", index=False)
del events, ts
""",
        """
chunk_parts, session_stats = {}, []
for i, chunk in enumerate(pd.read_csv("events.csv", chunksize=25_000)):
    chunk["event_time"] = pd.to_datetime(chunk["event_time"], format="%Y-%m-%d %H:%M:%S")
    chunk["day"] = chunk["event_time"].dt.floor("D")
    chunk = chunk.sort_values(["user_id", "event_time"])
    chunk["gap_s"] = chunk.groupby("user_id")["event_time"].diff().dt.total_seconds()
    chunk["new_session"] = chunk["gap_s"].isna() | (chunk["gap_s"] > 1800)
    part = chunk.pivot_table(index="day", columns="event_type", values="value",
                             aggfunc=["count", "sum"], fill_value=0)
    part[("sessions", "all")] = chunk.groupby("day")["new_session"].sum()
    chunk_parts[i] = part
    sess = chunk.groupby(["user_id", chunk["new_session"].cumsum()]).agg(
        start=("event_time", "min"), end=("event_time", "max"), n_events=("event_type", "size"), revenue=("value", "sum"))
    session_stats.append(((sess["end"] - sess["start"]).dt.total_seconds().describe(), sess["revenue"].sum()))
daily = pd.concat(chunk_parts.values()).groupby(level=0).sum()
funnel = daily["count"]["purchase"] / daily["count"]["view"]
""",
        """
chunk_parts, session_stats = {}, []
for i, chunk in enumerate(pd.read_csv("events.csv", chunksize=25_000)):
    chunk["event_time"] = pd.to_datetime(chunk["event_time"], format="ISO8601")
    chunk["day"] = chunk["event_time"].dt.floor("D")
    chunk = chunk.sort_values(["user_id", "event_time"])
    chunk["gap_s"] = chunk.groupby("user_id")["event_time"].diff().dt.total_seconds()
    chunk["new_session"] = chunk["gap_s"].isna() | (chunk["gap_s"] > 1800)
    part = chunk.pivot_table(index="day", columns="event_type", values="value",
                             aggfunc=["count", "sum"], fill_value=0)
    part[("sessions", "all")] = chunk.groupby("day")["new_session"].sum()
    chunk_parts[i] = part
    sess = chunk.groupby(["user_id", chunk["new_session"].cumsum()]).agg(
        start=("event_time", "min"), end=("event_time", "max"), n_events=("event_type", "size"), revenue=("value", "sum"))
    session_stats.append(((sess["end"] - sess["start"]).dt.total_seconds().describe(), sess["revenue"].sum()))
daily = pd.concat(chunk_parts.values()).groupby(level=0).sum()
funnel = daily["count"]["purchase"] / daily["count"]["view"]
""",
    ),
    (
        "xgboost_fold_boosters_test_column_order",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(8)
cols = [f"f{i:02d}" for i in range(20)]
def make(n):
    X = rng.normal(size=(n, 20))
    logit = X[:, 0] - 0.8 * X[:, 3] + 0.5 * X[:, 7] * X[:, 9] + 0.3 * X[:, 12] ** 2 - 0.5
    df = pd.DataFrame(X, columns=cols)
    df.insert(0, "id", np.arange(n))
    return df, (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
tr_df, tr_y = make(20_000)
tr_df["target"] = tr_y
tr_df.to_csv("train.csv", index=False)
te_df, _ = make(5_000)
te_df[["id"] + sorted(cols, key=lambda c: (int(c[1:]) % 4, c))].to_csv("test.csv", index=False)
""",
        """
train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")
features = [c for c in train.columns if c not in ("id", "target")]
params = {"objective": "binary:logistic", "eval_metric": "auc", "max_depth": 5, "eta": 0.1,
          "subsample": 0.8, "colsample_bytree": 0.8, "nthread": 1, "seed": 0}
boosters, oof = [], np.zeros(len(train))
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
for fold, (tr, va) in enumerate(skf.split(train, train["target"])):
    dtr = xgb.DMatrix(train.loc[tr, features], label=train.loc[tr, "target"])
    dva = xgb.DMatrix(train.loc[va, features], label=train.loc[va, "target"])
    bst = xgb.train(params, dtr, num_boost_round=220, evals=[(dva, "valid")], verbose_eval=False)
    oof[va] = bst.predict(dva)
    boosters.append(bst)
cv_auc = roc_auc_score(train["target"], oof)
dtest = xgb.DMatrix(test.drop(columns=["id"]))
test_pred = np.mean([b.predict(dtest) for b in boosters], axis=0)
submission = pd.DataFrame({"id": test["id"], "target": test_pred})
""",
        """
train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")
features = [c for c in train.columns if c not in ("id", "target")]
params = {"objective": "binary:logistic", "eval_metric": "auc", "max_depth": 5, "eta": 0.1,
          "subsample": 0.8, "colsample_bytree": 0.8, "nthread": 1, "seed": 0}
boosters, oof = [], np.zeros(len(train))
skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
for fold, (tr, va) in enumerate(skf.split(train, train["target"])):
    dtr = xgb.DMatrix(train.loc[tr, features], label=train.loc[tr, "target"])
    dva = xgb.DMatrix(train.loc[va, features], label=train.loc[va, "target"])
    bst = xgb.train(params, dtr, num_boost_round=220, evals=[(dva, "valid")], verbose_eval=False)
    oof[va] = bst.predict(dva)
    boosters.append(bst)
cv_auc = roc_auc_score(train["target"], oof)
dtest = xgb.DMatrix(test[features])
test_pred = np.mean([b.predict(dtest) for b in boosters], axis=0)
submission = pd.DataFrame({"id": test["id"], "target": test_pred})
""",
    ),
    (
        "sklearn_region_spline_models_single_class",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, SplineTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(19)
regions = [f"region_{i:02d}" for i in range(30)]
n = 700_000
df = pd.DataFrame({
    "region": rng.choice(regions, n),
    "income": rng.lognormal(10.5, 0.5, n),
    "loan_amount": rng.lognormal(9.5, 0.7, n),
    "age": rng.integers(19, 75, n),
    "utilization": rng.beta(2, 5, n),
    "n_accounts": rng.poisson(4, n),
    "delinquencies": rng.poisson(0.3, n),
})
logit = -3 + 2.5 * df["utilization"] + 0.6 * df["delinquencies"] + 0.8 * np.log(df["loan_amount"] / df["income"] * 10)
df["default"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
df.loc[df["region"] == "region_27", "default"] = 0
""",
        """
feats = ["income", "loan_amount", "age", "utilization", "n_accounts", "delinquencies"]
models = {
    region: make_pipeline(StandardScaler(), SplineTransformer(n_knots=8, degree=3),
                          LogisticRegression(C=0.5, max_iter=1000)).fit(g[feats], g["default"])
    for region, g in df.groupby("region")
}
region_auc = pd.Series({
    region: roc_auc_score(g["default"], models[region].predict_proba(g[feats])[:, 1])
    for region, g in df.groupby("region")
})
""",
        """
feats = ["income", "loan_amount", "age", "utilization", "n_accounts", "delinquencies"]
models = {
    region: make_pipeline(StandardScaler(), SplineTransformer(n_knots=8, degree=3),
                          LogisticRegression(C=0.5, max_iter=1000)).fit(g[feats], g["default"])
    for region, g in df.groupby("region") if g["default"].nunique() > 1
}
region_auc = pd.Series({
    region: roc_auc_score(g["default"], models[region].predict_proba(g[feats])[:, 1])
    for region, g in df.groupby("region") if region in models
})
""",
    ),
    (
        "torch_daily_replay_new_user_embedding",
        """
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(1)
torch.set_num_threads(1)
rng = np.random.default_rng(1)
users = pd.DataFrame({"user_id": np.arange(4000), "segment": rng.integers(0, 5, 4000)})
n = 520_000
day = np.sort(rng.integers(0, 60, n))
uid = rng.integers(0, 4000, n)
signups = (day >= 56) & (rng.random(n) < 0.08)
uid[signups] = rng.integers(4000, 4150, signups.sum())
log = pd.DataFrame({"day": day, "user_id": uid, "item_id": rng.integers(0, 1500, n)})
log["clicked"] = (rng.random(n) < 0.1 + 0.2 * ((log["user_id"] % 7) == (log["item_id"] % 7))).astype("float32")
""",
        """
n_users = users["user_id"].nunique()
n_items = int(log["item_id"].max()) + 1

class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.u = nn.Embedding(n_users, dim)
        self.i = nn.Embedding(n_items, dim)
        self.ub = nn.Embedding(n_users, 1)
        self.ib = nn.Embedding(n_items, 1)
    def forward(self, u, i):
        return (self.u(u) * self.i(i)).sum(1) + self.ub(u).squeeze(1) + self.ib(i).squeeze(1)

model = MF(n_users, n_items)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
loss_fn = nn.BCEWithLogitsLoss()
daily_loss = {}
for d, g in log.groupby("day"):
    u = torch.as_tensor(g["user_id"].to_numpy())
    i = torch.as_tensor(g["item_id"].to_numpy())
    y = torch.as_tensor(g["clicked"].to_numpy())
    losses = []
    for start in range(0, len(g), 256):
        sl = slice(start, start + 256)
        opt.zero_grad()
        loss = loss_fn(model(u[sl], i[sl]), y[sl])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    daily_loss[d] = float(np.mean(losses))
""",
        """
n_users = int(log["user_id"].max()) + 1
n_items = int(log["item_id"].max()) + 1

class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.u = nn.Embedding(n_users, dim)
        self.i = nn.Embedding(n_items, dim)
        self.ub = nn.Embedding(n_users, 1)
        self.ib = nn.Embedding(n_items, 1)
    def forward(self, u, i):
        return (self.u(u) * self.i(i)).sum(1) + self.ub(u).squeeze(1) + self.ib(i).squeeze(1)

model = MF(n_users, n_items)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
loss_fn = nn.BCEWithLogitsLoss()
daily_loss = {}
for d, g in log.groupby("day"):
    u = torch.as_tensor(g["user_id"].to_numpy())
    i = torch.as_tensor(g["item_id"].to_numpy())
    y = torch.as_tensor(g["clicked"].to_numpy())
    losses = []
    for start in range(0, len(g), 256):
        sl = slice(start, start + 256)
        opt.zero_grad()
        loss = loss_fn(model(u[sl], i[sl]), y[sl])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    daily_loss[d] = float(np.mean(losses))
""",
    ),
    (
        "pandas_customer_rfm_merge_validate",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
n_cust = 8000
customers = pd.DataFrame({
    "customer_id": np.arange(100_000, 100_000 + n_cust),
    "email": [f"user{i}@example.com" for i in range(n_cust)],
    "country": rng.choice(["DE", "FR", "NL", "ES", "IT"], n_cust),
    "signup": pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.integers(0, 1000, n_cust), unit="D"),
})
dup = customers.iloc[[6843]].assign(email="new.address@example.com")
customers = pd.concat([customers, dup], ignore_index=True)
n_tx = 200_000
tx = pd.DataFrame({
    "customer_id": rng.choice(customers["customer_id"].unique(), n_tx),
    "ts": pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 730 * 24, n_tx), unit="h"),
    "category": rng.choice(["books", "toys", "garden", "tech", "food", "fashion"], n_tx),
    "amount": np.round(rng.gamma(2.0, 30.0, n_tx), 2),
}).sort_values("ts")
snapshot = pd.Timestamp("2024-01-01")
""",
        """
rows = []
for cid, g in tx.groupby("customer_id"):
    gaps = g["ts"].diff().dt.days.dropna()
    rows.append({
        "customer_id": cid,
        "recency_days": (snapshot - g["ts"].iloc[-1]).days,
        "frequency": len(g),
        "monetary": g["amount"].sum(),
        "avg_gap_days": gaps.mean() if len(gaps) else np.nan,
        "top_category": g["category"].mode().iloc[0],
    })
rfm = pd.DataFrame(rows)
model_df = customers.merge(rfm, on="customer_id", how="left", validate="one_to_one")
model_df["r_score"] = pd.qcut(model_df["recency_days"], 5, labels=False, duplicates="drop")
""",
        """
rows = []
for cid, g in tx.groupby("customer_id"):
    gaps = g["ts"].diff().dt.days.dropna()
    rows.append({
        "customer_id": cid,
        "recency_days": (snapshot - g["ts"].iloc[-1]).days,
        "frequency": len(g),
        "monetary": g["amount"].sum(),
        "avg_gap_days": gaps.mean() if len(gaps) else np.nan,
        "top_category": g["category"].mode().iloc[0],
    })
rfm = pd.DataFrame(rows)
model_df = customers.drop_duplicates("customer_id", keep="last").merge(rfm, on="customer_id", how="left", validate="one_to_one")
model_df["r_score"] = pd.qcut(model_df["recency_days"], 5, labels=False, duplicates="drop")
""",
    ),
    (
        "lightgbm_quarterly_backtest_percent_discount",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.metrics import mean_absolute_error

rng = np.random.default_rng(13)
dates = pd.date_range("2022-01-01", "2023-12-31", freq="D")
stores = np.arange(40)
sales = pd.DataFrame([(s, d) for s in stores for d in dates], columns=["store", "date"])
sales["quarter"] = sales["date"].dt.to_period("Q").astype(str)
sales["dow"] = sales["date"].dt.dayofweek
sales["doy"] = sales["date"].dt.dayofyear
sales["store_size"] = (sales["store"] % 5 + 1) * 100
promos = {}
for q, g in sales.groupby("quarter"):
    p = g[["store", "date"]].copy()
    p["discount_pct"] = rng.choice([0, 0, 0, 5, 10, 15, 20], len(p)).astype(float)
    p["flyer"] = rng.integers(0, 2, len(p))
    promos[q] = p
m = sales.merge(pd.concat(promos.values()), on=["store", "date"])
base = 50 + 0.2 * m["store_size"] + 8 * (m["dow"] >= 5) + 10 * np.sin(m["doy"] / 58)
sales["units"] = (base * (1 + m["discount_pct"] / 40) + 3 * m["flyer"] + rng.normal(0, 5, len(m))).to_numpy()
promos["2023Q3"]["discount_pct"] = promos["2023Q3"]["discount_pct"].map(lambda v: f"{v:.0f}%")
""",
        """
feats = ["store", "dow", "doy", "store_size", "discount_pct", "flyer"]
seen, backtest = [], []
for q in sorted(promos):
    frame = sales[sales["quarter"] == q].merge(promos[q], on=["store", "date"], how="left")
    seen.append(frame)
    if len(seen) < 4:
        continue
    train = pd.concat(seen[:-1], ignore_index=True)
    model = lgb.LGBMRegressor(n_estimators=1300, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1, random_state=0)
    model.fit(train[feats], train["units"])
    pred = model.predict(frame[feats])
    backtest.append({"quarter": q, "mae": mean_absolute_error(frame["units"], pred)})
backtest = pd.DataFrame(backtest)
""",
        """
feats = ["store", "dow", "doy", "store_size", "discount_pct", "flyer"]
seen, backtest = [], []
for q in sorted(promos):
    frame = sales[sales["quarter"] == q].merge(promos[q], on=["store", "date"], how="left")
    frame["discount_pct"] = pd.to_numeric(frame["discount_pct"].astype(str).str.rstrip("%"))
    seen.append(frame)
    if len(seen) < 4:
        continue
    train = pd.concat(seen[:-1], ignore_index=True)
    model = lgb.LGBMRegressor(n_estimators=1300, learning_rate=0.05, num_leaves=31, n_jobs=1, verbose=-1, random_state=0)
    model.fit(train[feats], train["units"])
    pred = model.predict(frame[feats])
    backtest.append({"quarter": q, "mae": mean_absolute_error(frame["units"], pred)})
backtest = pd.DataFrame(backtest)
""",
    ),
    (
        "keras_house_prices_test_dummies_mismatch",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import tensorflow as tf
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
import keras
from keras import layers

keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)
hoods = ["Oakwood", "Riverside", "Hilltop", "Downtown", "Lakeside", "Meadows", "Old Town", "Harbor"]
def make_houses(n, heating_choices, heating_p):
    df = pd.DataFrame({
        "sqft": rng.normal(1600, 450, n).clip(400),
        "bedrooms": rng.integers(1, 6, n),
        "bathrooms": rng.integers(1, 4, n),
        "year_built": rng.integers(1920, 2022, n),
        "lot_size": rng.lognormal(8.5, 0.4, n),
        "neighborhood": rng.choice(hoods, n),
        "heating": rng.choice(heating_choices, n, p=heating_p),
    })
    df["price"] = (50_000 + 140 * df["sqft"] + 9_000 * df["bathrooms"]
                   + 400 * (df["year_built"] - 1920) + rng.normal(0, 25_000, n)).clip(30_000)
    return df
train = make_houses(12_000, ["gas", "electric", "oil", "heat_pump", "geothermal"], [0.5, 0.3, 0.1, 0.08, 0.02])
test = make_houses(3_000, ["gas", "electric", "oil", "heat_pump"], [0.5, 0.3, 0.12, 0.08]).drop(columns="price")
""",
        """
X_train = pd.get_dummies(train.drop(columns="price"), columns=["neighborhood", "heating"], dtype="float32")
y_train = np.log(train["price"]).to_numpy("float32")
norm = layers.Normalization()
norm.adapt(X_train.to_numpy("float32"))
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    norm,
    layers.Dense(128, activation="relu"),
    layers.Dropout(0.1),
    layers.Dense(64, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
history = model.fit(X_train.to_numpy("float32"), y_train, validation_split=0.1, epochs=10, batch_size=64, verbose=0)
X_test = pd.get_dummies(test, columns=["neighborhood", "heating"], dtype="float32")
test_pred = np.exp(model.predict(X_test.to_numpy("float32"), verbose=0).ravel())
""",
        """
X_train = pd.get_dummies(train.drop(columns="price"), columns=["neighborhood", "heating"], dtype="float32")
y_train = np.log(train["price"]).to_numpy("float32")
norm = layers.Normalization()
norm.adapt(X_train.to_numpy("float32"))
model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    norm,
    layers.Dense(128, activation="relu"),
    layers.Dropout(0.1),
    layers.Dense(64, activation="relu"),
    layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
history = model.fit(X_train.to_numpy("float32"), y_train, validation_split=0.1, epochs=10, batch_size=64, verbose=0)
X_test = pd.get_dummies(test, columns=["neighborhood", "heating"], dtype="float32").reindex(columns=X_train.columns, fill_value=0)
test_pred = np.exp(model.predict(X_test.to_numpy("float32"), verbose=0).ravel())
""",
    ),
    (
        "seaborn_ltv_regplot_grid_datetime_feature",
        """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(29)
n = 4000
customers = pd.DataFrame({
    "age": rng.integers(18, 80, n),
    "tenure_months": rng.integers(1, 96, n),
    "monthly_spend": rng.gamma(3.0, 20.0, n),
    "support_tickets": rng.poisson(1.5, n),
    "sessions_per_week": rng.gamma(2.0, 2.0, n),
    "discount_rate": rng.beta(1.5, 8.0, n),
    "nps": rng.integers(0, 11, n),
    "last_login": pd.Timestamp("2024-06-30") - pd.to_timedelta(rng.exponential(20, n).astype(int), unit="D"),
})
customers["ltv"] = (customers["monthly_spend"] * customers["tenure_months"] * (1 - customers["discount_rate"])
                    + rng.normal(0, 300, n))
""",
        """
features = ["age", "tenure_months", "monthly_spend", "support_tickets",
            "sessions_per_week", "discount_rate", "nps", "last_login"]
fig, axes = plt.subplots(2, 4, figsize=(18, 8))
for ax, col in zip(axes.ravel(), features):
    sns.regplot(data=customers, x=col, y="ltv", ax=ax, order=2, n_boot=1600,
                scatter_kws={"s": 4, "alpha": 0.3}, line_kws={"color": "C3"})
    ax.set_title(f"LTV vs {col}")
fig.tight_layout()
fig.savefig("ltv_regplots.png", dpi=80)
""",
        """
customers["days_since_login"] = (customers["last_login"].max() - customers["last_login"]).dt.days
features = ["age", "tenure_months", "monthly_spend", "support_tickets",
            "sessions_per_week", "discount_rate", "nps", "days_since_login"]
fig, axes = plt.subplots(2, 4, figsize=(18, 8))
for ax, col in zip(axes.ravel(), features):
    sns.regplot(data=customers, x=col, y="ltv", ax=ax, order=2, n_boot=1600,
                scatter_kws={"s": 4, "alpha": 0.3}, line_kws={"color": "C3"})
    ax.set_title(f"LTV vs {col}")
fig.tight_layout()
fig.savefig("ltv_regplots.png", dpi=80)
""",
    ),
    # ---------------- SHORT pairs (16-30) ----------------
    (
        "pandas_listing_header_trailing_space",
        """
import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
n = 800
raw = pd.DataFrame({
    "listing_id": np.arange(n),
    "neighbourhood": rng.choice(["Centre", "North", "Docks", "Old Port", "University"], n),
    "price ": rng.gamma(4.0, 30.0, n).round(0),   # exported from a spreadsheet
    "bedrooms": rng.integers(0, 5, n),
})
raw.to_csv("listings.csv", index=False)
listings = pd.read_csv("listings.csv")
""",
        """
price_by_area = listings.groupby("neighbourhood")["price"].median().sort_values()
""",
        """
listings.columns = listings.columns.str.strip()
price_by_area = listings.groupby("neighbourhood")["price"].median().sort_values()
""",
    ),
    (
        "numpy_center_rows_broadcast",
        """
import numpy as np

rng = np.random.default_rng(1)
X = rng.normal(loc=5.0, scale=2.0, size=(300, 12))   # 300 samples x 12 sensors
""",
        """
X_centered = X - X.mean(axis=1)
row_norms = np.linalg.norm(X_centered, axis=1)
""",
        """
X_centered = X - X.mean(axis=1, keepdims=True)
row_norms = np.linalg.norm(X_centered, axis=1)
""",
    ),
    (
        "sklearn_pipeline_predict_before_fit",
        """
import numpy as np
from sklearn.datasets import make_regression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import Ridge

X, y = make_regression(n_samples=500, n_features=8, noise=10.0, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
pipe = Pipeline([("scale", StandardScaler()), ("ridge", Ridge(alpha=1.0))])
""",
        """
y_pred = pipe.predict(X_test)
rmse = np.sqrt(np.mean((y_pred - y_test) ** 2))
""",
        """
pipe.fit(X_train, y_train)
y_pred = pipe.predict(X_test)
rmse = np.sqrt(np.mean((y_pred - y_test) ** 2))
""",
    ),
    (
        "torch_float64_numpy_batch",
        """
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(2)
X = rng.normal(size=(256, 10))
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
""",
        """
xb = torch.from_numpy(X)
with torch.no_grad():
    preds = model(xb).squeeze(1)
""",
        """
xb = torch.from_numpy(X).float()
with torch.no_grad():
    preds = model(xb).squeeze(1)
""",
    ),
    (
        "pandas_merge_int_vs_str_keys",
        """
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
pd.DataFrame({"customer_id": np.arange(1000, 1300), "tier": rng.choice(["gold", "silver", "bronze"], 300)}).to_csv("customers.csv", index=False)
customers = pd.read_csv("customers.csv", dtype={"customer_id": str})   # ids are identifiers, keep them as text
orders = pd.DataFrame({
    "order_id": np.arange(2000),
    "customer_id": rng.integers(1000, 1300, 2000),
    "total": rng.gamma(2.0, 25.0, 2000).round(2),
})
""",
        """
enriched = orders.merge(customers, on="customer_id", how="left")
revenue_by_tier = enriched.groupby("tier")["total"].sum()
""",
        """
enriched = orders.merge(customers.astype({"customer_id": "int64"}), on="customer_id", how="left")
revenue_by_tier = enriched.groupby("tier")["total"].sum()
""",
    ),
    (
        "keras_fit_without_compile",
        """
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(4)
rng = np.random.default_rng(4)
X = rng.normal(size=(400, 16)).astype("float32")
y = (X[:, 0] + X[:, 1] > 0).astype("float32")
model = keras.Sequential([keras.Input(shape=(16,)), layers.Dense(16, activation="relu"), layers.Dense(1, activation="sigmoid")])
""",
        """
history = model.fit(X, y, epochs=1, batch_size=32, verbose=0)
""",
        """
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(X, y, epochs=1, batch_size=32, verbose=0)
""",
    ),
    (
        "sklearn_linear_regression_nan_features",
        """
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(5)
n = 600
houses = pd.DataFrame({
    "sqft": rng.normal(1500, 400, n),
    "age": rng.integers(0, 80, n).astype(float),
    "garage": rng.integers(0, 3, n).astype(float),
})
houses.loc[rng.choice(n, 25, replace=False), "garage"] = np.nan   # not recorded for some listings
houses["price"] = 100 * houses["sqft"] - 500 * houses["age"] + rng.normal(0, 20_000, n)
""",
        """
reg = LinearRegression().fit(houses[["sqft", "age", "garage"]], houses["price"])
coefs = pd.Series(reg.coef_, index=["sqft", "age", "garage"])
""",
        """
from sklearn.pipeline import make_pipeline
from sklearn.impute import SimpleImputer
reg = make_pipeline(SimpleImputer(strategy="median"), LinearRegression()).fit(houses[["sqft", "age", "garage"]], houses["price"])
coefs = pd.Series(reg[-1].coef_, index=["sqft", "age", "garage"])
""",
    ),
    (
        "matplotlib_scatter_color_length_mismatch",
        """
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rng = np.random.default_rng(6)
cars = pd.DataFrame({
    "weight": rng.normal(3000, 500, 200),
    "mpg": rng.normal(28, 6, 200),
    "cylinders": rng.choice([4, 6, 8], 200),
})
heavy = cars[cars["weight"] > 3200]
""",
        """
fig, ax = plt.subplots(figsize=(6, 4))
sc = ax.scatter(heavy["weight"], heavy["mpg"], c=cars["cylinders"], cmap="viridis")
fig.colorbar(sc, ax=ax, label="cylinders")
""",
        """
fig, ax = plt.subplots(figsize=(6, 4))
sc = ax.scatter(heavy["weight"], heavy["mpg"], c=heavy["cylinders"], cmap="viridis")
fig.colorbar(sc, ax=ax, label="cylinders")
""",
    ),
    (
        "pandas_zipcode_str_accessor_on_int",
        """
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
pd.DataFrame({"store": np.arange(150), "zip": rng.integers(1000, 99999, 150)}).to_csv("stores.csv", index=False)
stores = pd.read_csv("stores.csv")
""",
        """
stores["zip"] = stores["zip"].str.zfill(5)
stores["zip3"] = stores["zip"].str[:3]
""",
        """
stores["zip"] = stores["zip"].astype(str).str.zfill(5)
stores["zip3"] = stores["zip"].str[:3]
""",
    ),
    (
        "sklearn_onehot_removed_sparse_kwarg",
        """
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(8)
df = pd.DataFrame({"color": rng.choice(["red", "green", "blue"], 100), "size": rng.choice(["S", "M", "L"], 100)})
""",
        """
enc = OneHotEncoder(sparse=False, handle_unknown="ignore")
onehot = enc.fit_transform(df[["color", "size"]])
""",
        """
enc = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
onehot = enc.fit_transform(df[["color", "size"]])
""",
    ),
    (
        "python_json_loads_python_repr",
        """
import random

random.seed(9)
config = {"model": "gbm", "learning_rate": round(random.uniform(0.01, 0.2), 3), "max_depth": random.randint(3, 8), "features": ["age", "income", "tenure"]}
with open("run_config.txt", "w") as fh:
    fh.write(str(config))   # saved with str() in an earlier run
""",
        """
import json
with open("run_config.txt") as fh:
    cfg = json.loads(fh.read())
n_features = len(cfg["features"])
""",
        """
import ast
with open("run_config.txt") as fh:
    cfg = ast.literal_eval(fh.read())
n_features = len(cfg["features"])
""",
    ),
    (
        "torch_from_numpy_object_frame",
        """
import numpy as np
import pandas as pd
import torch

rng = np.random.default_rng(10)
df = pd.DataFrame({
    "age": rng.integers(18, 90, 300),
    "bmi": rng.normal(26, 4, 300).round(1),
    "smoker": rng.choice(["yes", "no"], 300),
    "charges": rng.gamma(2.0, 5000.0, 300),
})
""",
        """
features = torch.from_numpy(df.drop(columns="charges").values).float()
target = torch.tensor(df["charges"].values, dtype=torch.float32)
""",
        """
features = torch.from_numpy(pd.get_dummies(df.drop(columns="charges"), columns=["smoker"], drop_first=True, dtype=float).values).float()
target = torch.tensor(df["charges"].values, dtype=torch.float32)
""",
    ),
    (
        "numpy_int_array_nan_sentinel",
        """
import numpy as np

rng = np.random.default_rng(11)
readings = rng.integers(0, 500, size=2000)
readings[rng.choice(2000, 40, replace=False)] = -1   # -1 means sensor offline
""",
        """
readings[readings < 0] = np.nan
daily_mean = np.nanmean(readings.reshape(-1, 100), axis=1)
""",
        """
readings = readings.astype(float)
readings[readings < 0] = np.nan
daily_mean = np.nanmean(readings.reshape(-1, 100), axis=1)
""",
    ),
    (
        "pandas_str_contains_nan_mask",
        """
import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
n = 1000
phrases = ["Refund requested for order", "Where is my package", "Change delivery address", "refund not received", "Great service"]
tickets = pd.DataFrame({"ticket_id": np.arange(n), "comment": rng.choice(phrases, n), "priority": rng.integers(1, 4, n)})
tickets.loc[rng.choice(n, 60, replace=False), "comment"] = np.nan   # submitted without a comment
""",
        """
refunds = tickets[tickets["comment"].str.contains("refund", case=False)]
refund_share = len(refunds) / len(tickets)
""",
        """
refunds = tickets[tickets["comment"].str.contains("refund", case=False, na=False)]
refund_share = len(refunds) / len(tickets)
""",
    ),
    (
        "sklearn_fit_on_single_series",
        """
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression

rng = np.random.default_rng(13)
ads = pd.DataFrame({"tv_budget": rng.uniform(0, 300, 200)})
ads["sales"] = 7 + 0.05 * ads["tv_budget"] + rng.normal(0, 1.5, 200)
""",
        """
lr = LinearRegression().fit(ads["tv_budget"], ads["sales"])
slope = lr.coef_[0]
""",
        """
lr = LinearRegression().fit(ads[["tv_budget"]], ads["sales"])
slope = lr.coef_[0]
""",
    ),
]
