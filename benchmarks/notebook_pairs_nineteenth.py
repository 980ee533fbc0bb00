r"""Notebook crash/fix pairs -- nineteenth set (unseen evaluation set for the crash predictor).

Fields
------
``PAIRS`` is a list of exactly 30 tuples ``(name, setup, crash, fixed)``; every field is a
plain ``str``.

* ``name``  -- library prefix (pandas_, numpy_, sklearn_, keras_, torch_, matplotlib_,
  seaborn_, xgboost_, lightgbm_, python_) followed by a snake-case slug; names are unique.
* ``setup`` -- the earlier notebook cells joined together, imports included.  It builds
  seeded synthetic data (np.random.default_rng, random.seed, torch.manual_seed,
  keras.utils.set_random_seed) and writes any files it needs under relative paths in the
  current working directory (stations/, logs/, stores/, orders.csv, crm_export.csv,
  bike_rentals.csv).  No network, no downloads, no weights.
* ``crash`` -- the target cell as the author first wrote it.  Executed after ``setup`` in the
  same namespace it raises an exception that comes from a library or from Python itself
  (no raise/assert/print/sleep in any cell).
* ``fixed`` -- the same cell after the author's small, realistic fix.  Executed after a fresh
  run of ``setup`` it runs clean and does the same work.

Layout
------
* The first 15 pairs are LONG: the crash cell does about 2-5 s of real work (file parsing,
  groupbys, FFTs, CV fits, config sweeps, training epochs, per-station/per-store models)
  before the exception, which comes either from data met late in the loop (a late station
  file, chunk, district, sensor, config, store, JSONL file) or from a step after the loop
  that combines what the loop built (pivot, np.stack, score over concatenated folds,
  evaluation/prediction after training).  The fixed cell takes about as long.
  Multithreaded libraries are pinned to one thread (n_jobs=1, torch.set_num_threads(1)).
* The last 15 pairs are SHORT: the crash cell raises in well under 1 s.
* Mix: pandas 7, numpy 3, sklearn 7, keras 3, torch 4, matplotlib 1, seaborn 1, xgboost 1,
  lightgbm 1, python 2.
* Exception classes seen in the crash cells: ValueError (several distinct library input
  checks), MergeError, InvalidParameterError, IntCastingNaNError, JSONDecodeError,
  tensorflow InvalidArgumentError, RuntimeError (torch shape/dtype/stack/view, dict size
  change), AttributeError (.dt accessor, ndarray of Axes), IndexError (to_categorical).

How it was made
---------------
Written by hand, independently of the crash-prediction tool and of the earlier pair sets
(none of them were read).  Every exception, message and timing was probed against the
versions installed in the project venv: Python 3.11.7, pandas 2.3.3, numpy 2.4.6,
scikit-learn 1.9.1, torch 2.13.0+cpu, keras 3.15.1 (TensorFlow backend, CPU),
matplotlib 3.11.2, seaborn 0.13.2, xgboost 3.2.0, lightgbm 4.7.0, on a 2-core machine.

A separate checker ran every pair and both variants, one process at a time, each in a fresh
Python process (the project venv) and a fresh temporary working directory: exec(setup), then
exec(cell) in the same namespace, recording whether the cell raised, the exception type, and
the cell time (cell start to exception or end).  Expected: crash raises, fixed runs clean,
long crash cells raise after 2-5 s, short crash cells in under 1 s.

Checker results (two full rounds; the machine was shared with other jobs while it ran):

* Round 1: 60/60 as expected.  Long crash 2.24-3.28 s, long fixed 2.63-3.89 s,
  short crash 0.00-0.05 s, short fixed 0.00-0.22 s, setup 0.03-6.27 s.
* Round 2: 60/60 as expected.  Long crash 2.33-3.29 s, long fixed 2.63-3.85 s,
  short crash 0.00-0.05 s, short fixed 0.00-0.23 s, setup 0.02-6.50 s.

Setup usually takes 0.02-3.2 s; the 6.3-6.5 s maxima are the first (crash-variant) run of
pandas_monthly_store_summary_pivot_duplicates, which builds a 6M-row frame (its second run
took 2.3-2.6 s).  After round 2 the pair pandas_chunked_csv_amount_placeholder was renamed to
pandas_chunked_csv_amount_thousands_separator (name only; its cells did not change) and
re-checked: crash raises ValueError after about 2.6 s, fixed runs clean.
"""

PAIRS = [
    # ---------------- LONG pairs (crash cell works 2-5 s before raising) ----------------
    (
        'pandas_station_csv_hourly_format_drift',
        # setup
        '''
import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
os.makedirs("stations", exist_ok=True)
station_ids = [f"ST{i:03d}" for i in range(80)]
hours = pd.date_range("2021-01-01", periods=24 * 730, freq="h")
stamp_min = hours.strftime("%Y-%m-%d %H:%M")
stamp_iso = hours.strftime("%Y-%m-%dT%H:%M:%S")
season = 10 + 9 * np.sin((np.arange(len(hours)) / 24 - 100) * 2 * np.pi / 365)
for k, sid in enumerate(station_ids):
    temp = season + rng.normal(0, 2.5, len(hours)) + rng.normal(0, 1.5)
    frame = pd.DataFrame({
        "timestamp": stamp_iso if sid == "ST073" else stamp_min,
        "temp_c": temp.round(2),
        "rh": np.clip(rng.normal(70, 12, len(hours)), 5, 100).round(1),
        "wind_ms": np.abs(rng.normal(3, 1.8, len(hours))).round(2),
    })
    frame.to_csv(f"stations/{sid}.csv", index=False)
''',
        # crash
        '''
daily_tables = {}
for sid in station_ids:
    raw = pd.read_csv(f"stations/{sid}.csv")
    raw["timestamp"] = pd.to_datetime(raw["timestamp"], format="%Y-%m-%d %H:%M")
    raw = raw.set_index("timestamp").sort_index()
    daily = raw.resample("D").agg({"temp_c": ["mean", "min", "max"], "rh": "mean", "wind_ms": "max"})
    daily.columns = ["_".join(c) for c in daily.columns]
    daily["hdd"] = (15.5 - daily["temp_c_mean"]).clip(lower=0)
    daily["temp_7d"] = daily["temp_c_mean"].rolling(7, min_periods=1).mean()
    daily["range"] = daily["temp_c_max"] - daily["temp_c_min"]
    hourly_q = raw["temp_c"].groupby(raw.index.month).quantile([0.05, 0.5, 0.95]).unstack()
    daily["peak_hour"] = raw.groupby(raw.index.date)["temp_c"].apply(lambda s: s.idxmax().hour).to_numpy()
    daily["month"] = daily.index.month
    daily = daily.join(hourly_q.add_prefix("q_"), on="month")
    daily_tables[sid] = daily

station_summary = pd.concat(daily_tables, names=["station", "date"]).groupby("station").agg(
    hdd_total=("hdd", "sum"), mean_range=("range", "mean"), windiest=("wind_ms_max", "max"))
station_summary.sort_values("hdd_total", ascending=False).head(10)
''',
        # fixed
        '''
daily_tables = {}
for sid in station_ids:
    raw = pd.read_csv(f"stations/{sid}.csv")
    raw["timestamp"] = pd.to_datetime(raw["timestamp"], format="ISO8601")
    raw = raw.set_index("timestamp").sort_index()
    daily = raw.resample("D").agg({"temp_c": ["mean", "min", "max"], "rh": "mean", "wind_ms": "max"})
    daily.columns = ["_".join(c) for c in daily.columns]
    daily["hdd"] = (15.5 - daily["temp_c_mean"]).clip(lower=0)
    daily["temp_7d"] = daily["temp_c_mean"].rolling(7, min_periods=1).mean()
    daily["range"] = daily["temp_c_max"] - daily["temp_c_min"]
    hourly_q = raw["temp_c"].groupby(raw.index.month).quantile([0.05, 0.5, 0.95]).unstack()
    daily["peak_hour"] = raw.groupby(raw.index.date)["temp_c"].apply(lambda s: s.idxmax().hour).to_numpy()
    daily["month"] = daily.index.month
    daily = daily.join(hourly_q.add_prefix("q_"), on="month")
    daily_tables[sid] = daily

station_summary = pd.concat(daily_tables, names=["station", "date"]).groupby("station").agg(
    hdd_total=("hdd", "sum"), mean_range=("range", "mean"), windiest=("wind_ms_max", "max"))
station_summary.sort_values("hdd_total", ascending=False).head(10)
''',
    ),
    (
        'pandas_monthly_store_summary_pivot_duplicates',
        # setup
        '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
n = 6_000_000
tx = pd.DataFrame({
    "month": rng.integers(1, 13, n),
    "store_nbr": rng.integers(1, 55, n),
    "channel_id": np.searchsorted([0.3, 0.5], rng.random(n)) + 1,
    "customer_id": rng.integers(0, 120_000, n),
    "amount": np.round(rng.gamma(2.0, 18.0, n), 2),
})
tx["discount"] = np.where(rng.random(n) < 0.15, np.round(tx["amount"] * 0.1, 2), 0.0)
''',
        # crash
        '''
monthly_rows = []
for m in range(1, 13):
    month_tx = tx[tx["month"] == m]
    per_cust = month_tx.groupby("customer_id")["amount"].agg(["size", "sum"])
    repeat_ids = per_cust.index[per_cust["size"] > 1]
    stores_per_cust = month_tx.groupby("customer_id")["store_nbr"].nunique()
    multi_store = stores_per_cust.index[stores_per_cust > 1]
    biggest = month_tx.sort_values(["customer_id", "amount"], ascending=[True, False]).drop_duplicates("customer_id")
    home_store = biggest.set_index("customer_id")["store_nbr"]
    month_tx = month_tx.assign(is_repeat=month_tx["customer_id"].isin(repeat_ids),
                               multi_store=month_tx["customer_id"].isin(multi_store),
                               at_home=month_tx["store_nbr"].to_numpy() == home_store.reindex(month_tx["customer_id"]).to_numpy(),
                               net=month_tx["amount"] - month_tx["discount"])
    summary = month_tx.groupby(["store_nbr", "channel_id"]).agg(
        revenue=("net", "sum"),
        n_tx=("net", "size"),
        customers=("customer_id", "nunique"),
        median_basket=("net", "median"),
        repeat_share=("is_repeat", "mean"),
        multi_store_share=("multi_store", "mean"),
        home_share=("at_home", "mean"),
    ).reset_index()
    summary["month"] = m
    monthly_rows.append(summary)

monthly = pd.concat(monthly_rows, ignore_index=True)
revenue_grid = monthly.pivot(index="store_nbr", columns="month", values="revenue")
revenue_grid.div(revenue_grid.sum(axis=1), axis=0).round(3).head()
''',
        # fixed
        '''
monthly_rows = []
for m in range(1, 13):
    month_tx = tx[tx["month"] == m]
    per_cust = month_tx.groupby("customer_id")["amount"].agg(["size", "sum"])
    repeat_ids = per_cust.index[per_cust["size"] > 1]
    stores_per_cust = month_tx.groupby("customer_id")["store_nbr"].nunique()
    multi_store = stores_per_cust.index[stores_per_cust > 1]
    biggest = month_tx.sort_values(["customer_id", "amount"], ascending=[True, False]).drop_duplicates("customer_id")
    home_store = biggest.set_index("customer_id")["store_nbr"]
    month_tx = month_tx.assign(is_repeat=month_tx["customer_id"].isin(repeat_ids),
                               multi_store=month_tx["customer_id"].isin(multi_store),
                               at_home=month_tx["store_nbr"].to_numpy() == home_store.reindex(month_tx["customer_id"]).to_numpy(),
                               net=month_tx["amount"] - month_tx["discount"])
    summary = month_tx.groupby(["store_nbr", "channel_id"]).agg(
        revenue=("net", "sum"),
        n_tx=("net", "size"),
        customers=("customer_id", "nunique"),
        median_basket=("net", "median"),
        repeat_share=("is_repeat", "mean"),
        multi_store_share=("multi_store", "mean"),
        home_share=("at_home", "mean"),
    ).reset_index()
    summary["month"] = m
    monthly_rows.append(summary)

monthly = pd.concat(monthly_rows, ignore_index=True)
revenue_grid = monthly.pivot_table(index="store_nbr", columns="month", values="revenue", aggfunc="sum")
revenue_grid.div(revenue_grid.sum(axis=1), axis=0).round(3).head()
''',
    ),
    (
        'pandas_chunked_csv_amount_thousands_separator',
        # setup
        '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n = 560_000
amount_values = np.round(rng.lognormal(3.0, 0.8, n), 2)
amount_values[rng.choice(np.arange(506_000, 512_000), 30, replace=False)] += 1000
amount = np.array([f"{v:,.2f}" if 506_000 <= i < 512_000 else f"{v:.2f}" for i, v in enumerate(amount_values)])
fee_rate = {"DE": 0.019, "FR": 0.021, "ES": 0.024, "IT": 0.025, "NL": 0.018, "PL": 0.029}
pd.DataFrame({
    "order_id": np.arange(n),
    "ts": (pd.Timestamp("2023-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 365 * 86400, n)), unit="s")).strftime("%Y-%m-%d %H:%M:%S"),
    "merchant": rng.choice([f"m{i}" for i in range(300)], n),
    "country": rng.choice(["DE", "FR", "ES", "IT", "NL", "PL"], n),
    "amount": amount,
}).to_csv("orders.csv", index=False)
''',
        # crash
        '''
partials = []
for chunk in pd.read_csv("orders.csv", chunksize=40_000):
    chunk["amount"] = chunk["amount"].astype("float64")
    chunk["ts"] = pd.to_datetime(chunk["ts"], format="%Y-%m-%d %H:%M:%S")
    chunk["week"] = chunk["ts"].dt.isocalendar().week.astype(int)
    chunk["hour"] = chunk["ts"].dt.hour
    chunk["night"] = chunk["hour"].isin([0, 1, 2, 3, 4, 5])
    chunk["fee"] = chunk.apply(lambda r: max(0.25, r["amount"] * fee_rate[r["country"]]) if r["amount"] > 15 else 0.25, axis=1)
    part = chunk.groupby(["merchant", "country", "week"]).agg(
        gmv=("amount", "sum"), fees=("fee", "sum"), orders=("order_id", "count"), night_orders=("night", "sum"),
        max_ticket=("amount", "max"))
    partials.append(part)

weekly = pd.concat(partials).groupby(level=[0, 1, 2]).agg(
    {"gmv": "sum", "fees": "sum", "orders": "sum", "night_orders": "sum", "max_ticket": "max"})
weekly["night_share"] = weekly["night_orders"] / weekly["orders"]
weekly.sort_values("gmv", ascending=False).head(10)
''',
        # fixed
        '''
partials = []
for chunk in pd.read_csv("orders.csv", chunksize=40_000, thousands=","):
    chunk["amount"] = chunk["amount"].astype("float64")
    chunk["ts"] = pd.to_datetime(chunk["ts"], format="%Y-%m-%d %H:%M:%S")
    chunk["week"] = chunk["ts"].dt.isocalendar().week.astype(int)
    chunk["hour"] = chunk["ts"].dt.hour
    chunk["night"] = chunk["hour"].isin([0, 1, 2, 3, 4, 5])
    chunk["fee"] = chunk.apply(lambda r: max(0.25, r["amount"] * fee_rate[r["country"]]) if r["amount"] > 15 else 0.25, axis=1)
    part = chunk.groupby(["merchant", "country", "week"]).agg(
        gmv=("amount", "sum"), fees=("fee", "sum"), orders=("order_id", "count"), night_orders=("night", "sum"),
        max_ticket=("amount", "max"))
    partials.append(part)

weekly = pd.concat(partials).groupby(level=[0, 1, 2]).agg(
    {"gmv": "sum", "fees": "sum", "orders": "sum", "night_orders": "sum", "max_ticket": "max"})
weekly["night_share"] = weekly["night_orders"] / weekly["orders"]
weekly.sort_values("gmv", ascending=False).head(10)
''',
    ),
    (
        'pandas_district_zone_merge_validate',
        # setup
        '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
districts = [f"D{i:02d}" for i in range(40)]
households = {}
zone_lookup = {}
for k, d in enumerate(districts):
    n_zones = int(rng.integers(30, 60))
    zones = pd.DataFrame({
        "zone_id": np.arange(n_zones),
        "zone_type": rng.choice(["urban", "suburban", "rural"], n_zones),
        "area_km2": np.round(rng.uniform(0.5, 40, n_zones), 2),
    })
    if d == "D35":
        zones = pd.concat([zones, zones.iloc[[4]].assign(zone_type="urban")], ignore_index=True)
    zone_lookup[d] = zones
    n = int(rng.integers(220_000, 300_000))
    households[d] = pd.DataFrame({
        "hh_id": np.arange(n),
        "zone_id": rng.integers(0, n_zones, n),
        "size": rng.integers(1, 7, n),
        "income": np.round(rng.lognormal(10.4, 0.6, n), -1),
        "cars": rng.poisson(1.1, n),
    })
''',
        # crash
        '''
district_stats = []
for d in districts:
    hh = households[d].merge(zone_lookup[d], on="zone_id", how="left", validate="many_to_one")
    hh["income_pc"] = hh["income"] / hh["size"]
    hh["income_decile"] = pd.qcut(hh["income_pc"], 10, labels=False)
    zone_tab = hh.groupby(["zone_id", "zone_type"]).agg(
        households=("hh_id", "size"), people=("size", "sum"),
        median_income_pc=("income_pc", "median"), cars=("cars", "sum"),
        area=("area_km2", "first")).reset_index()
    zone_tab["density"] = zone_tab["people"] / zone_tab["area"]
    gini_like = hh.groupby("zone_id")["income_pc"].apply(lambda s: (s.quantile(0.9) / s.quantile(0.1)))
    zone_tab["p90_p10"] = zone_tab["zone_id"].map(gini_like)
    by_type = zone_tab.groupby("zone_type")[["households", "people", "cars"]].sum()
    by_type["district"] = d
    by_type["p90_p10_mean"] = zone_tab.groupby("zone_type")["p90_p10"].mean()
    district_stats.append(by_type.reset_index())

district_table = pd.concat(district_stats, ignore_index=True)
district_table.pivot_table(index="district", columns="zone_type", values="people", aggfunc="sum").head()
''',
        # fixed
        '''
district_stats = []
for d in districts:
    lookup = zone_lookup[d].drop_duplicates("zone_id", keep="first")
    hh = households[d].merge(lookup, on="zone_id", how="left", validate="many_to_one")
    hh["income_pc"] = hh["income"] / hh["size"]
    hh["income_decile"] = pd.qcut(hh["income_pc"], 10, labels=False)
    zone_tab = hh.groupby(["zone_id", "zone_type"]).agg(
        households=("hh_id", "size"), people=("size", "sum"),
        median_income_pc=("income_pc", "median"), cars=("cars", "sum"),
        area=("area_km2", "first")).reset_index()
    zone_tab["density"] = zone_tab["people"] / zone_tab["area"]
    gini_like = hh.groupby("zone_id")["income_pc"].apply(lambda s: (s.quantile(0.9) / s.quantile(0.1)))
    zone_tab["p90_p10"] = zone_tab["zone_id"].map(gini_like)
    by_type = zone_tab.groupby("zone_type")[["households", "people", "cars"]].sum()
    by_type["district"] = d
    by_type["p90_p10_mean"] = zone_tab.groupby("zone_type")["p90_p10"].mean()
    district_stats.append(by_type.reset_index())

district_table = pd.concat(district_stats, ignore_index=True)
district_table.pivot_table(index="district", columns="zone_type", values="people", aggfunc="sum").head()
''',
    ),
    (
        'numpy_sensor_window_features_stack',
        # setup
        '''
import numpy as np

rng = np.random.default_rng(5)
fs = 1000
sensors = {}
for k in range(24):
    n = 540_000 if k != 21 else 538_976
    t = np.arange(n) / fs
    sig = (np.sin(2 * np.pi * (50 + k) * t) + 0.4 * np.sin(2 * np.pi * 120 * t)
           + rng.normal(0, 0.8, n))
    sensors[f"acc_{k:02d}"] = sig.astype(np.float32)
bands = [(0, 20), (20, 60), (60, 100), (100, 150), (150, 250), (250, 500)]
''',
        # crash
        '''
win, hop = 1024, 256
features = []
for name, sig in sensors.items():
    frames = np.lib.stride_tricks.sliding_window_view(sig, win)[::hop]
    frames = frames - frames.mean(axis=1, keepdims=True)
    spec = np.abs(np.fft.rfft(frames * np.hanning(win), axis=1)) ** 2
    freqs = np.fft.rfftfreq(win, d=1 / fs)
    band_power = np.stack([spec[:, (freqs >= lo) & (freqs < hi)].sum(axis=1) for lo, hi in bands], axis=1)
    rms = np.sqrt((frames ** 2).mean(axis=1))
    kurt = ((frames - frames.mean(axis=1, keepdims=True)) ** 4).mean(axis=1) / (frames.var(axis=1) ** 2)
    centroid = (spec * freqs).sum(axis=1) / spec.sum(axis=1)
    features.append(np.column_stack([np.log1p(band_power), rms, kurt, centroid]))

feature_cube = np.stack(features)
sensor_corr = np.corrcoef(feature_cube[:, :, -1])
sensor_corr.shape, feature_cube.shape
''',
        # fixed
        '''
win, hop = 1024, 256
n_common = min(len(s) for s in sensors.values())
features = []
for name, sig in sensors.items():
    sig = sig[:n_common]
    frames = np.lib.stride_tricks.sliding_window_view(sig, win)[::hop]
    frames = frames - frames.mean(axis=1, keepdims=True)
    spec = np.abs(np.fft.rfft(frames * np.hanning(win), axis=1)) ** 2
    freqs = np.fft.rfftfreq(win, d=1 / fs)
    band_power = np.stack([spec[:, (freqs >= lo) & (freqs < hi)].sum(axis=1) for lo, hi in bands], axis=1)
    rms = np.sqrt((frames ** 2).mean(axis=1))
    kurt = ((frames - frames.mean(axis=1, keepdims=True)) ** 4).mean(axis=1) / (frames.var(axis=1) ** 2)
    centroid = (spec * freqs).sum(axis=1) / spec.sum(axis=1)
    features.append(np.column_stack([np.log1p(band_power), rms, kurt, centroid]))

feature_cube = np.stack(features)
sensor_corr = np.corrcoef(feature_cube[:, :, -1])
sensor_corr.shape, feature_cube.shape
''',
    ),
    (
        'python_jsonl_event_logs_truncated_tail',
        # setup
        '''
import json
import os
import random
from collections import Counter, defaultdict
from datetime import datetime, timezone
from urllib.parse import urlparse, parse_qs

random.seed(13)
os.makedirs("logs", exist_ok=True)
log_files = []
events = ["view", "click", "add_to_cart", "purchase", "search"]
refs = ["email", "ads", "social", "direct", "partner"]
for day in range(1, 31):
    path = f"logs/events_2024-03-{day:02d}.jsonl"
    ts = 1709251200 + (day - 1) * 86400
    lines = []
    for i in range(14_000):
        ts += random.randint(0, 12)
        rec = {"ts": ts, "user": f"u{random.randint(1, 4000)}", "event": random.choice(events),
               "price": round(random.uniform(1, 300), 2),
               "url": f"https://shop.example.com/p/{random.randint(1, 900)}?ref={random.choice(refs)}&v=2"}
        lines.append(json.dumps(rec))
    text = "\\n".join(lines) + "\\n"
    if day == 27:
        text = text + text[:70]
    with open(path, "w") as fh:
        fh.write(text)
    log_files.append(path)
''',
        # crash
        '''
session_gap = 30 * 60
sessions = Counter()
revenue = defaultdict(float)
funnel = Counter()
by_hour = Counter()
by_ref = Counter()
page_views = Counter()
last_seen = {}
for path in log_files:
    with open(path) as fh:
        for line in fh:
            rec = json.loads(line)
            user, ts = rec["user"], rec["ts"]
            if user not in last_seen or ts - last_seen[user] > session_gap:
                sessions[user] += 1
            last_seen[user] = ts
            url = urlparse(rec["url"])
            ref = parse_qs(url.query).get("ref", ["none"])[0]
            hour = datetime.fromtimestamp(ts, tz=timezone.utc).hour
            by_hour[hour] += 1
            funnel[rec["event"]] += 1
            if rec["event"] == "view":
                page_views[url.path] += 1
            if rec["event"] == "purchase":
                revenue[user] += rec["price"]
                by_ref[ref] += rec["price"]

top_buyers = sorted(revenue.items(), key=lambda kv: kv[1], reverse=True)[:10]
conversion = funnel["purchase"] / funnel["view"]
conversion, top_buyers[:3], by_ref.most_common(3), page_views.most_common(5)
''',
        # fixed
        '''
session_gap = 30 * 60
sessions = Counter()
revenue = defaultdict(float)
funnel = Counter()
by_hour = Counter()
by_ref = Counter()
page_views = Counter()
last_seen = {}
skipped = 0
for path in log_files:
    with open(path) as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                skipped += 1
                continue
            user, ts = rec["user"], rec["ts"]
            if user not in last_seen or ts - last_seen[user] > session_gap:
                sessions[user] += 1
            last_seen[user] = ts
            url = urlparse(rec["url"])
            ref = parse_qs(url.query).get("ref", ["none"])[0]
            hour = datetime.fromtimestamp(ts, tz=timezone.utc).hour
            by_hour[hour] += 1
            funnel[rec["event"]] += 1
            if rec["event"] == "view":
                page_views[url.path] += 1
            if rec["event"] == "purchase":
                revenue[user] += rec["price"]
                by_ref[ref] += rec["price"]

top_buyers = sorted(revenue.items(), key=lambda kv: kv[1], reverse=True)[:10]
conversion = funnel["purchase"] / funnel["view"]
conversion, top_buyers[:3], by_ref.most_common(3), page_views.most_common(5), skipped
''',
    ),
    (
        'sklearn_kfold_onehot_late_region',
        # setup
        '''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(42)
n = 6000
claims = pd.DataFrame({
    "region": rng.choice(["North", "South", "East", "West"], n),
    "product": rng.choice(["basic", "plus", "premium"], n, p=[0.5, 0.3, 0.2]),
    "age": rng.integers(18, 80, n),
    "premium": np.round(rng.gamma(3, 150, n), 2),
    "tenure": rng.integers(0, 25, n),
    "n_prev_claims": rng.poisson(0.6, n),
    "vehicle_age": rng.integers(0, 20, n),
})
claims.loc[n - 120:, "region"] = "Overseas"
logit = -2 + 0.6 * claims["n_prev_claims"] - 0.03 * claims["tenure"] + 0.002 * (claims["premium"] - 450) + 0.05 * claims["vehicle_age"]
claims["fraud"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
cat_cols = ["region", "product"]
num_cols = ["age", "premium", "tenure", "n_prev_claims", "vehicle_age"]
X, y = claims[cat_cols + num_cols], claims["fraud"]
''',
        # crash
        '''
kf = KFold(n_splits=5, shuffle=False)
fold_auc = []
oof = np.zeros(len(X))
for fold, (tr_idx, va_idx) in enumerate(kf.split(X)):
    pre = ColumnTransformer([
        ("cat", OneHotEncoder(), cat_cols),
        ("num", StandardScaler(), num_cols),
    ])
    model = make_pipeline(pre, GradientBoostingClassifier(n_estimators=180, max_depth=3, random_state=fold))
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = model.predict_proba(X.iloc[va_idx])[:, 1]
    fold_auc.append(roc_auc_score(y.iloc[va_idx], oof[va_idx]))

np.mean(fold_auc), roc_auc_score(y, oof)
''',
        # fixed
        '''
kf = KFold(n_splits=5, shuffle=False)
fold_auc = []
oof = np.zeros(len(X))
for fold, (tr_idx, va_idx) in enumerate(kf.split(X)):
    pre = ColumnTransformer([
        ("cat", OneHotEncoder(handle_unknown="ignore"), cat_cols),
        ("num", StandardScaler(), num_cols),
    ])
    model = make_pipeline(pre, GradientBoostingClassifier(n_estimators=180, max_depth=3, random_state=fold))
    model.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    oof[va_idx] = model.predict_proba(X.iloc[va_idx])[:, 1]
    fold_auc.append(roc_auc_score(y.iloc[va_idx], oof[va_idx]))

np.mean(fold_auc), roc_auc_score(y, oof)
''',
    ),
    (
        'sklearn_rf_config_sweep_legacy_max_features',
        # setup
        '''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(8)
n, p = 5000, 20
X = rng.normal(size=(n, p))
y = ((X[:, 0] + 0.5 * X[:, 1] * X[:, 2] - X[:, 3] ** 2 + rng.normal(0, 0.7, n)) > -0.5).astype(int)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
configs = [
    {"n_estimators": 70, "max_depth": 6, "max_features": "sqrt", "min_samples_leaf": 1},
    {"n_estimators": 70, "max_depth": 10, "max_features": "sqrt", "min_samples_leaf": 3},
    {"n_estimators": 70, "max_depth": None, "max_features": 0.5, "min_samples_leaf": 5},
    {"n_estimators": 70, "max_depth": 12, "max_features": "log2", "min_samples_leaf": 2},
    {"n_estimators": 70, "max_depth": 8, "max_features": 0.3, "min_samples_leaf": 1},
    {"n_estimators": 150, "max_depth": 14, "max_features": "auto", "min_samples_leaf": 2},
]
''',
        # crash
        '''
sweep = []
for i, cfg in enumerate(configs):
    rf = RandomForestClassifier(**cfg, random_state=i, n_jobs=1)
    rf.fit(X_tr, y_tr)
    proba = rf.predict_proba(X_va)[:, 1]
    sweep.append({**cfg, "log_loss": log_loss(y_va, proba), "acc": ((proba > 0.5) == y_va).mean()})

pd.DataFrame(sweep).sort_values("log_loss")
''',
        # fixed
        '''
sweep = []
for i, cfg in enumerate(configs):
    cfg = {**cfg, "max_features": "sqrt"} if cfg["max_features"] == "auto" else cfg
    rf = RandomForestClassifier(**cfg, random_state=i, n_jobs=1)
    rf.fit(X_tr, y_tr)
    proba = rf.predict_proba(X_va)[:, 1]
    sweep.append({**cfg, "log_loss": log_loss(y_va, proba), "acc": ((proba > 0.5) == y_va).mean()})

pd.DataFrame(sweep).sort_values("log_loss")
''',
    ),
    (
        'sklearn_per_station_svr_sensor_dropout',
        # setup
        '''
import numpy as np
import pandas as pd
from sklearn.metrics import mean_absolute_error
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

rng = np.random.default_rng(17)
stations = {}
for k in range(16):
    n = 3400
    df = pd.DataFrame({
        "temp": rng.normal(15, 7, n),
        "humidity": rng.uniform(20, 100, n),
        "wind": np.abs(rng.normal(4, 2, n)),
        "hour": rng.integers(0, 24, n),
        "pressure": rng.normal(1013, 8, n),
    })
    df["pm25"] = (30 - 0.8 * df["wind"] + 0.15 * df["humidity"] + 4 * np.sin(df["hour"] / 24 * 2 * np.pi)
                  - 0.05 * (df["pressure"] - 1013) + rng.normal(0, 3, n))
    if k == 14:
        df.loc[rng.choice(n, 40, replace=False), "humidity"] = np.nan
    stations[f"station_{k:02d}"] = df
features = ["temp", "humidity", "wind", "hour", "pressure"]
''',
        # crash
        '''
scores = {}
models = {}
for name, df in stations.items():
    train, test = df.iloc[:2700], df.iloc[2700:]
    model = make_pipeline(StandardScaler(), SVR(C=10.0, epsilon=0.5, gamma="scale"))
    model.fit(train[features], train["pm25"])
    scores[name] = mean_absolute_error(test["pm25"], model.predict(test[features]))
    models[name] = model

pd.Series(scores).sort_values().describe()
''',
        # fixed
        '''
from sklearn.impute import SimpleImputer

scores = {}
models = {}
for name, df in stations.items():
    train, test = df.iloc[:2700], df.iloc[2700:]
    model = make_pipeline(SimpleImputer(strategy="median"), StandardScaler(), SVR(C=10.0, epsilon=0.5, gamma="scale"))
    model.fit(train[features], train["pm25"])
    scores[name] = mean_absolute_error(test["pm25"], model.predict(test[features]))
    models[name] = model

pd.Series(scores).sort_values().describe()
''',
    ),
    (
        'sklearn_timeseries_split_oof_score_length',
        # setup
        '''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import TimeSeriesSplit

rng = np.random.default_rng(29)
days = pd.date_range("2018-01-01", periods=2400, freq="D")
demand = pd.DataFrame({"date": days})
demand["dow"] = demand["date"].dt.dayofweek
demand["doy"] = demand["date"].dt.dayofyear
demand["trend"] = np.arange(len(days)) / 365
demand["temp"] = 12 + 10 * np.sin((demand["doy"] - 110) / 365 * 2 * np.pi) + rng.normal(0, 3, len(days))
demand["load"] = 500 + 40 * demand["trend"] + 30 * (demand["dow"] < 5) + 3 * np.abs(demand["temp"] - 16) + rng.normal(0, 15, len(days))
for lag in (1, 7, 14, 28):
    demand[f"lag_{lag}"] = demand["load"].shift(lag)
for w in (7, 28):
    demand[f"roll_{w}"] = demand["load"].shift(1).rolling(w).mean()
demand = demand.dropna().reset_index(drop=True)
feat_cols = [c for c in demand.columns if c not in ("date", "load")]
X, y = demand[feat_cols], demand["load"]
''',
        # crash
        '''
tscv = TimeSeriesSplit(n_splits=6)
fold_preds = []
fold_mae = []
for fold, (tr_idx, va_idx) in enumerate(tscv.split(X)):
    rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=2, max_features=0.6, random_state=fold, n_jobs=1)
    rf.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    pred = rf.predict(X.iloc[va_idx])
    fold_preds.append(pred)
    fold_mae.append(mean_absolute_error(y.iloc[va_idx], pred))

overall_mae = mean_absolute_error(y, np.concatenate(fold_preds))
overall_mae, np.round(fold_mae, 2)
''',
        # fixed
        '''
tscv = TimeSeriesSplit(n_splits=6)
fold_preds = []
fold_true = []
fold_mae = []
for fold, (tr_idx, va_idx) in enumerate(tscv.split(X)):
    rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=2, max_features=0.6, random_state=fold, n_jobs=1)
    rf.fit(X.iloc[tr_idx], y.iloc[tr_idx])
    pred = rf.predict(X.iloc[va_idx])
    fold_preds.append(pred)
    fold_true.append(y.iloc[va_idx].to_numpy())
    fold_mae.append(mean_absolute_error(y.iloc[va_idx], pred))

overall_mae = mean_absolute_error(np.concatenate(fold_true), np.concatenate(fold_preds))
overall_mae, np.round(fold_mae, 2)
''',
    ),
    (
        'keras_tabular_mlp_evaluate_missing_feature',
        # setup
        '''
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)

def make_frame(n):
    df = pd.DataFrame(rng.normal(size=(n, 10)), columns=[f"f{i}" for i in range(10)])
    df["income"] = rng.lognormal(10, 0.5, n)
    df["debt"] = rng.lognormal(9, 0.8, n)
    df["default"] = ((df["debt"] / df["income"] + 0.3 * df["f0"] - 0.2 * df["f3"] + rng.normal(0, 0.3, n)) > 0.55).astype(int)
    return df

train_df = make_frame(40_000)
test_df = make_frame(8_000)
train_df["debt_ratio"] = train_df["debt"] / train_df["income"]
train_df["log_income"] = np.log(train_df["income"])
test_df["log_income"] = np.log(test_df["income"])
feature_cols = [c for c in train_df.columns if c not in ("default", "income", "debt")]
mu, sd = train_df[feature_cols].mean(), train_df[feature_cols].std()
''',
        # crash
        '''
X_train = ((train_df[feature_cols] - mu) / sd).to_numpy("float32")
y_train = train_df["default"].to_numpy("float32")

model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    layers.Dense(128, activation="relu"),
    layers.Dropout(0.2),
    layers.Dense(64, activation="relu"),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=["AUC"])
history = model.fit(X_train, y_train, validation_split=0.1, epochs=5, batch_size=256, verbose=0)

test_cols = [c for c in test_df.columns if c not in ("default", "income", "debt")]
X_test = ((test_df[test_cols] - mu[test_cols]) / sd[test_cols]).to_numpy("float32")
test_loss, test_auc = model.evaluate(X_test, test_df["default"].to_numpy("float32"), verbose=0)
test_auc
''',
        # fixed
        '''
X_train = ((train_df[feature_cols] - mu) / sd).to_numpy("float32")
y_train = train_df["default"].to_numpy("float32")

model = keras.Sequential([
    keras.Input(shape=(X_train.shape[1],)),
    layers.Dense(128, activation="relu"),
    layers.Dropout(0.2),
    layers.Dense(64, activation="relu"),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=["AUC"])
history = model.fit(X_train, y_train, validation_split=0.1, epochs=5, batch_size=256, verbose=0)

test_df["debt_ratio"] = test_df["debt"] / test_df["income"]
X_test = ((test_df[feature_cols] - mu) / sd).to_numpy("float32")
test_loss, test_auc = model.evaluate(X_test, test_df["default"].to_numpy("float32"), verbose=0)
test_auc
''',
    ),
    (
        'torch_per_station_lstm_extra_sensor',
        # setup
        '''
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)
base_cols = ["temp", "rh", "wind", "pressure", "rain", "load"]
station_frames = {}
for k in range(10):
    n = 1500
    t = np.arange(n)
    df = pd.DataFrame({
        "temp": 10 + 8 * np.sin(t / 24 * 2 * np.pi) + rng.normal(0, 1, n),
        "rh": 60 + 20 * np.cos(t / 24 * 2 * np.pi) + rng.normal(0, 5, n),
        "wind": np.abs(rng.normal(3, 1.5, n)),
        "pressure": 1013 + np.cumsum(rng.normal(0, 0.2, n)),
        "rain": rng.exponential(0.3, n) * (rng.random(n) < 0.2),
    })
    df["load"] = 50 + 2 * df["temp"] - 0.3 * df["rh"] + rng.normal(0, 2, n)
    if k == 8:
        df["solar"] = np.clip(np.sin((t % 24 - 6) / 12 * np.pi), 0, None) * 800
    station_frames[f"st{k}"] = df

class Forecaster(nn.Module):
    def __init__(self, n_features, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)
    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1]).squeeze(-1)

def make_windows(values, target, lookback=24):
    idx = np.arange(lookback, len(values))
    X = np.stack([values[i - lookback:i] for i in idx]).astype(np.float32)
    return torch.from_numpy(X), torch.from_numpy(target[idx].astype(np.float32))
''',
        # crash
        '''
model = Forecaster(n_features=len(base_cols))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
station_loss = {}
for name, df in station_frames.items():
    vals = ((df - df.mean()) / df.std()).to_numpy()
    X_st, y_st = make_windows(vals, vals[:, df.columns.get_loc("load")])
    for epoch in range(6):
        for i in range(0, len(X_st), 128):
            xb, yb = X_st[i:i + 128], y_st[i:i + 128]
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
    with torch.no_grad():
        station_loss[name] = loss_fn(model(X_st), y_st).item()

pd.Series(station_loss).round(4)
''',
        # fixed
        '''
model = Forecaster(n_features=len(base_cols))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
station_loss = {}
for name, df in station_frames.items():
    df = df[base_cols]
    vals = ((df - df.mean()) / df.std()).to_numpy()
    X_st, y_st = make_windows(vals, vals[:, df.columns.get_loc("load")])
    for epoch in range(6):
        for i in range(0, len(X_st), 128):
            xb, yb = X_st[i:i + 128], y_st[i:i + 128]
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
    with torch.no_grad():
        station_loss[name] = loss_fn(model(X_st), y_st).item()

pd.Series(station_loss).round(4)
''',
    ),
    (
        'torch_review_classifier_test_loader_long_sequences',
        # setup
        '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(3)
torch.set_num_threads(1)
rng = np.random.default_rng(3)
vocab_size, max_len = 5000, 64

def fake_reviews(n, max_words):
    lengths = rng.integers(5, max_words, n)
    labels = rng.integers(0, 2, n)
    docs = [list(rng.integers(1 + 2000 * lab, 3000 + 2000 * lab, L)) for L, lab in zip(lengths, labels)]
    return docs, labels

train_docs, train_labels = fake_reviews(24_000, max_len)
test_docs, test_labels = fake_reviews(6_000, max_len)
long_docs, long_labels = fake_reviews(40, 200)
long_docs = [d + list(rng.integers(1, 5000, 80)) for d in long_docs]
test_docs, test_labels = test_docs + long_docs, np.concatenate([test_labels, long_labels])

class ReviewDataset(Dataset):
    def __init__(self, docs, labels):
        self.docs, self.labels = docs, labels
    def __len__(self):
        return len(self.docs)
    def __getitem__(self, i):
        ids = self.docs[i]
        ids = ids + [0] * (max_len - len(ids))
        return torch.tensor(ids, dtype=torch.long), torch.tensor(self.labels[i], dtype=torch.float32)

class BagModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, 64, padding_idx=0)
        self.mlp = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x):
        mask = (x > 0).float().unsqueeze(-1)
        pooled = (self.emb(x) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.mlp(pooled).squeeze(-1)
''',
        # crash
        '''
train_loader = DataLoader(ReviewDataset(train_docs, train_labels), batch_size=128, shuffle=True)
test_loader = DataLoader(ReviewDataset(test_docs, test_labels), batch_size=256)
model = BagModel()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(2):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()

model.eval()
correct = total = 0
with torch.no_grad():
    for xb, yb in test_loader:
        pred = (model(xb) > 0).float()
        correct += (pred == yb).sum().item()
        total += len(yb)
correct / total
''',
        # fixed
        '''
class TruncatingReviewDataset(ReviewDataset):
    def __getitem__(self, i):
        ids = self.docs[i][:max_len]
        ids = ids + [0] * (max_len - len(ids))
        return torch.tensor(ids, dtype=torch.long), torch.tensor(self.labels[i], dtype=torch.float32)

train_loader = DataLoader(TruncatingReviewDataset(train_docs, train_labels), batch_size=128, shuffle=True)
test_loader = DataLoader(TruncatingReviewDataset(test_docs, test_labels), batch_size=256)
model = BagModel()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(2):
    model.train()
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()

model.eval()
correct = total = 0
with torch.no_grad():
    for xb, yb in test_loader:
        pred = (model(xb) > 0).float()
        correct += (pred == yb).sum().item()
        total += len(yb)
correct / total
''',
    ),
    (
        'xgboost_season_ensemble_test_column_order',
        # setup
        '''
import numpy as np
import pandas as pd
import xgboost as xgb

rng = np.random.default_rng(12)
feature_cols = ["home_elo", "away_elo", "home_form", "away_form", "rest_days", "travel_km", "injuries", "odds_implied"]

def season_frame(n):
    df = pd.DataFrame({
        "home_elo": rng.normal(1500, 100, n), "away_elo": rng.normal(1500, 100, n),
        "home_form": rng.uniform(0, 1, n), "away_form": rng.uniform(0, 1, n),
        "rest_days": rng.integers(2, 10, n), "travel_km": rng.uniform(0, 2500, n),
        "injuries": rng.poisson(1.5, n), "odds_implied": rng.uniform(0.2, 0.8, n),
    })
    df["goal_diff"] = (0.01 * (df["home_elo"] - df["away_elo"]) + 1.5 * (df["home_form"] - df["away_form"])
                       - 0.3 * df["injuries"] + 0.4 + rng.normal(0, 1.2, n))
    return df

seasons = {year: season_frame(9000) for year in range(2015, 2023)}
upcoming = season_frame(1500).drop(columns="goal_diff")
upcoming.insert(0, "match_id", np.arange(len(upcoming)))
upcoming = upcoming[["match_id", "away_elo", "home_elo", "odds_implied", "home_form", "away_form", "rest_days", "travel_km", "injuries"]]
''',
        # crash
        '''
season_models = {}
holdout_rmse = {}
for year, df in seasons.items():
    tr, va = df.iloc[:7500], df.iloc[7500:]
    reg = xgb.XGBRegressor(n_estimators=600, max_depth=5, learning_rate=0.05, subsample=0.8,
                           colsample_bytree=0.8, tree_method="hist", n_jobs=1, random_state=year)
    reg.fit(tr[feature_cols], tr["goal_diff"], eval_set=[(va[feature_cols], va["goal_diff"])], verbose=False)
    season_models[year] = reg
    holdout_rmse[year] = reg.evals_result()["validation_0"]["rmse"][-1]

weights = pd.Series({y: 1 / r for y, r in holdout_rmse.items()})
weights = weights / weights.sum()
upcoming["pred_goal_diff"] = sum(w * season_models[y].predict(upcoming.drop(columns="match_id")) for y, w in weights.items())
upcoming.sort_values("pred_goal_diff", ascending=False).head()
''',
        # fixed
        '''
season_models = {}
holdout_rmse = {}
for year, df in seasons.items():
    tr, va = df.iloc[:7500], df.iloc[7500:]
    reg = xgb.XGBRegressor(n_estimators=600, max_depth=5, learning_rate=0.05, subsample=0.8,
                           colsample_bytree=0.8, tree_method="hist", n_jobs=1, random_state=year)
    reg.fit(tr[feature_cols], tr["goal_diff"], eval_set=[(va[feature_cols], va["goal_diff"])], verbose=False)
    season_models[year] = reg
    holdout_rmse[year] = reg.evals_result()["validation_0"]["rmse"][-1]

weights = pd.Series({y: 1 / r for y, r in holdout_rmse.items()})
weights = weights / weights.sum()
upcoming["pred_goal_diff"] = sum(w * season_models[y].predict(upcoming[feature_cols]) for y, w in weights.items())
upcoming.sort_values("pred_goal_diff", ascending=False).head()
''',
    ),
    (
        'lightgbm_per_store_csv_promo_strings',
        # setup
        '''
import os
import numpy as np
import pandas as pd
import lightgbm as lgb

rng = np.random.default_rng(4)
os.makedirs("stores", exist_ok=True)
store_files = []
for s in range(1, 31):
    n = 3000
    df = pd.DataFrame({
        "day": np.arange(n),
        "dow": np.arange(n) % 7,
        "promo": (rng.random(n) < 0.25).astype(int),
        "holiday": (rng.random(n) < 0.03).astype(int),
        "price_idx": np.round(rng.normal(1.0, 0.05, n), 3),
        "competitor_dist": np.round(rng.uniform(0.2, 15, n), 2),
    })
    df["sales"] = np.round(200 + 60 * df["promo"] - 30 * (df["dow"] == 6) + 80 * df["holiday"]
                           - 150 * (df["price_idx"] - 1) + 0.02 * df["day"] + rng.normal(0, 20, n), 1)
    if s == 27:
        df["promo"] = df["promo"].map({1: "yes", 0: "no"})
    path = f"stores/store_{s:02d}.csv"
    df.to_csv(path, index=False)
    store_files.append(path)
features = ["dow", "promo", "holiday", "price_idx", "competitor_dist", "day"]
''',
        # crash
        '''
results = []
for path in store_files:
    df = pd.read_csv(path)
    tr, va = df.iloc[:2600], df.iloc[2600:]
    model = lgb.LGBMRegressor(n_estimators=320, learning_rate=0.05, num_leaves=31,
                              min_child_samples=20, n_jobs=1, verbose=-1, random_state=0)
    model.fit(tr[features], tr["sales"], eval_set=[(va[features], va["sales"])],
              callbacks=[lgb.log_evaluation(0)])
    pred = model.predict(va[features])
    results.append({"store": path, "mape": np.mean(np.abs(pred - va["sales"]) / va["sales"]),
                    "promo_gain": model.feature_importances_[features.index("promo")]})

pd.DataFrame(results).sort_values("mape").tail()
''',
        # fixed
        '''
results = []
for path in store_files:
    df = pd.read_csv(path)
    if df["promo"].dtype == object:
        df["promo"] = df["promo"].map({"yes": 1, "no": 0})
    tr, va = df.iloc[:2600], df.iloc[2600:]
    model = lgb.LGBMRegressor(n_estimators=320, learning_rate=0.05, num_leaves=31,
                              min_child_samples=20, n_jobs=1, verbose=-1, random_state=0)
    model.fit(tr[features], tr["sales"], eval_set=[(va[features], va["sales"])],
              callbacks=[lgb.log_evaluation(0)])
    pred = model.predict(va[features])
    results.append({"store": path, "mape": np.mean(np.abs(pred - va["sales"]) / va["sales"]),
                    "promo_gain": model.feature_importances_[features.index("promo")]})

pd.DataFrame(results).sort_values("mape").tail()
''',
    ),
    # ---------------- SHORT pairs (crash cell raises in well under 1 s) ----------------
    (
        'pandas_titanic_age_astype_int_nan',
        # setup
        '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
n = 891
train = pd.DataFrame({
    "PassengerId": np.arange(1, n + 1),
    "Pclass": rng.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
    "Sex": rng.choice(["male", "female"], n, p=[0.65, 0.35]),
    "Age": np.round(rng.normal(29.7, 14.5, n).clip(0.42, 80), 1),
    "Fare": np.round(rng.lognormal(2.9, 0.9, n), 4),
    "Survived": rng.integers(0, 2, n),
})
train.loc[rng.choice(n, 177, replace=False), "Age"] = np.nan
''',
        # crash
        '''
train["AgeInt"] = train["Age"].astype(int)
train["AgeBand"] = pd.cut(train["AgeInt"], bins=[0, 12, 18, 35, 60, 80], labels=["child", "teen", "adult", "middle", "senior"])
train.groupby(["AgeBand", "Sex"], observed=True)["Survived"].mean().unstack()
''',
        # fixed
        '''
train["AgeInt"] = train["Age"].fillna(train.groupby(["Pclass", "Sex"])["Age"].transform("median")).astype(int)
train["AgeBand"] = pd.cut(train["AgeInt"], bins=[0, 12, 18, 35, 60, 80], labels=["child", "teen", "adult", "middle", "senior"])
train.groupby(["AgeBand", "Sex"], observed=True)["Survived"].mean().unstack()
''',
    ),
    (
        'pandas_merge_customer_id_int_vs_str',
        # setup
        '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1)
orders = pd.DataFrame({
    "order_id": np.arange(5000),
    "customer_id": rng.integers(1000, 1800, 5000),
    "total": np.round(rng.gamma(2, 40, 5000), 2),
})
crm_csv = "customer_id,segment,signup_year\\n" + "\\n".join(
    f"C{cid},{rng.choice(['gold', 'silver', 'bronze'])},{rng.integers(2015, 2024)}" for cid in range(1000, 1800))
with open("crm_export.csv", "w") as fh:
    fh.write(crm_csv)
crm = pd.read_csv("crm_export.csv")
crm["customer_id"] = crm["customer_id"].str.lstrip("C")
''',
        # crash
        '''
enriched = orders.merge(crm, on="customer_id", how="left")
enriched.groupby("segment")["total"].agg(["count", "mean", "sum"])
''',
        # fixed
        '''
crm["customer_id"] = crm["customer_id"].astype("int64")
enriched = orders.merge(crm, on="customer_id", how="left")
enriched.groupby("segment")["total"].agg(["count", "mean", "sum"])
''',
    ),
    (
        'pandas_dt_accessor_on_string_dates',
        # setup
        '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2)
n = 3000
dates = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 730, n), unit="D")
with open("bike_rentals.csv", "w") as fh:
    fh.write("rental_date,station,duration_min\\n")
    for d, s, m in zip(dates.strftime("%d/%m/%Y"), rng.choice(["A", "B", "C", "D"], n), rng.gamma(2, 12, n).round(1)):
        fh.write(f"{d},{s},{m}\\n")
rentals = pd.read_csv("bike_rentals.csv")
''',
        # crash
        '''
rentals["month"] = rentals["rental_date"].dt.month
rentals["weekday"] = rentals["rental_date"].dt.day_name()
rentals.pivot_table(index="weekday", columns="month", values="duration_min", aggfunc="median").round(1)
''',
        # fixed
        '''
rentals["rental_date"] = pd.to_datetime(rentals["rental_date"], format="%d/%m/%Y")
rentals["month"] = rentals["rental_date"].dt.month
rentals["weekday"] = rentals["rental_date"].dt.day_name()
rentals.pivot_table(index="weekday", columns="month", values="duration_min", aggfunc="median").round(1)
''',
    ),
    (
        'numpy_rowwise_standardize_broadcast',
        # setup
        '''
import numpy as np

rng = np.random.default_rng(3)
n_patients, n_genes = 120, 2000
expr = rng.lognormal(mean=2.0, sigma=1.0, size=(n_patients, n_genes))
expr[:, :50] *= rng.uniform(1.5, 3.0, size=(n_patients, 1))
log_expr = np.log2(expr + 1)
''',
        # crash
        '''
z = (log_expr - log_expr.mean(axis=1)) / log_expr.std(axis=1)
top_var = np.argsort(z.var(axis=0))[::-1][:100]
corr = np.corrcoef(z[:, top_var].T)
corr.shape, np.round(z[:, top_var].mean(), 4)
''',
        # fixed
        '''
z = (log_expr - log_expr.mean(axis=1, keepdims=True)) / log_expr.std(axis=1, keepdims=True)
top_var = np.argsort(z.var(axis=0))[::-1][:100]
corr = np.corrcoef(z[:, top_var].T)
corr.shape, np.round(z[:, top_var].mean(), 4)
''',
    ),
    (
        'numpy_int_label_array_nan_fill',
        # setup
        '''
import numpy as np

rng = np.random.default_rng(4)
n_pixels = 50_000
cluster_id = rng.integers(0, 8, n_pixels)
cloud_mask = rng.random(n_pixels) < 0.12
ndvi = np.clip(rng.normal(0.45, 0.2, n_pixels), -1, 1)
''',
        # crash
        '''
labels = cluster_id.copy()
labels[cloud_mask] = np.nan
valid = ~np.isnan(labels)
class_ndvi = np.array([ndvi[valid & (labels == k)].mean() for k in range(8)])
np.round(class_ndvi, 3)
''',
        # fixed
        '''
labels = cluster_id.astype(float)
labels[cloud_mask] = np.nan
valid = ~np.isnan(labels)
class_ndvi = np.array([ndvi[valid & (labels == k)].mean() for k in range(8)])
np.round(class_ndvi, 3)
''',
    ),
    (
        'sklearn_linear_regression_single_column_1d',
        # setup
        '''
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(5)
n = 1460
houses = pd.DataFrame({"GrLivArea": rng.normal(1500, 500, n).clip(400, 5000).round()})
houses["SalePrice"] = 20_000 + 110 * houses["GrLivArea"] + rng.normal(0, 25_000, n)
train_df, valid_df = train_test_split(houses, test_size=0.2, random_state=42)
''',
        # crash
        '''
lr = LinearRegression()
lr.fit(train_df["GrLivArea"], train_df["SalePrice"])
rmse = np.sqrt(np.mean((lr.predict(valid_df["GrLivArea"]) - valid_df["SalePrice"]) ** 2))
lr.coef_, rmse
''',
        # fixed
        '''
lr = LinearRegression()
lr.fit(train_df[["GrLivArea"]], train_df["SalePrice"])
rmse = np.sqrt(np.mean((lr.predict(valid_df[["GrLivArea"]]) - valid_df["SalePrice"]) ** 2))
lr.coef_, rmse
''',
    ),
    (
        'sklearn_stratified_split_singleton_class',
        # setup
        '''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier

rng = np.random.default_rng(6)
n = 2000
species = rng.choice(["oak", "pine", "birch", "maple", "spruce"], n, p=[0.3, 0.3, 0.2, 0.1, 0.1]).astype(object)
species[17] = "ginkgo"
trees = pd.DataFrame({
    "height_m": rng.normal(18, 6, n).clip(2),
    "dbh_cm": rng.normal(40, 15, n).clip(5),
    "crown_m": rng.normal(7, 2.5, n).clip(1),
    "species": species,
})
''',
        # crash
        '''
X_tr, X_te, y_tr, y_te = train_test_split(trees.drop(columns="species"), trees["species"],
                                          test_size=0.2, stratify=trees["species"], random_state=0)
knn = KNeighborsClassifier(n_neighbors=15).fit(X_tr, y_tr)
knn.score(X_te, y_te)
''',
        # fixed
        '''
counts = trees["species"].value_counts()
trees = trees[trees["species"].map(counts) >= 10]
X_tr, X_te, y_tr, y_te = train_test_split(trees.drop(columns="species"), trees["species"],
                                          test_size=0.2, stratify=trees["species"], random_state=0)
knn = KNeighborsClassifier(n_neighbors=15).fit(X_tr, y_tr)
knn.score(X_te, y_te)
''',
    ),
    (
        'sklearn_roc_auc_multiclass_proba',
        # setup
        '''
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(7)
n = 3000
X = rng.normal(size=(n, 8))
y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.7, n), [-0.6, 0.6])
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=0)
clf = LogisticRegression(max_iter=500).fit(X_tr, y_tr)
''',
        # crash
        '''
from sklearn.metrics import roc_auc_score

val_proba = clf.predict_proba(X_va)
val_auc = roc_auc_score(y_va, val_proba)
val_auc
''',
        # fixed
        '''
from sklearn.metrics import roc_auc_score

val_proba = clf.predict_proba(X_va)
val_auc = roc_auc_score(y_va, val_proba, multi_class="ovr", average="macro")
val_auc
''',
    ),
    (
        'keras_to_categorical_one_based_ratings',
        # setup
        '''
import numpy as np
import keras

keras.utils.set_random_seed(8)
rng = np.random.default_rng(8)
n = 4000
review_vecs = rng.normal(size=(n, 32)).astype("float32")
stars = np.clip(np.round(3 + review_vecs[:, 0] * 1.2 + rng.normal(0, 0.5, n)), 1, 5).astype(int)
''',
        # crash
        '''
y_onehot = keras.utils.to_categorical(stars, num_classes=5)
class_weights = y_onehot.sum(axis=0) / len(y_onehot)
y_onehot.shape, np.round(class_weights, 3)
''',
        # fixed
        '''
y_onehot = keras.utils.to_categorical(stars - 1, num_classes=5)
class_weights = y_onehot.sum(axis=0) / len(y_onehot)
y_onehot.shape, np.round(class_weights, 3)
''',
    ),
    (
        'keras_input_shape_plain_int',
        # setup
        '''
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
X_train = rng.normal(size=(2000, 20)).astype("float32")
y_train = (X_train[:, :3].sum(axis=1) > 0).astype("float32")
''',
        # crash
        '''
inputs = keras.Input(shape=X_train.shape[1])
x = layers.Dense(32, activation="relu")(inputs)
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
model.count_params()
''',
        # fixed
        '''
inputs = keras.Input(shape=(X_train.shape[1],))
x = layers.Dense(32, activation="relu")(inputs)
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
model.count_params()
''',
    ),
    (
        'torch_view_after_permute_patches',
        # setup
        '''
import torch
from torch import nn

torch.manual_seed(10)
images = torch.randn(16, 3, 32, 32)
patch = 8
proj = nn.Linear(3 * patch * patch, 64)
''',
        # crash
        '''
b, c, h, w = images.shape
patches = images.unfold(2, patch, patch).unfold(3, patch, patch)
patches = patches.permute(0, 2, 3, 1, 4, 5)
tokens = patches.view(b, (h // patch) * (w // patch), c * patch * patch)
embedded = proj(tokens)
embedded.shape
''',
        # fixed
        '''
b, c, h, w = images.shape
patches = images.unfold(2, patch, patch).unfold(3, patch, patch)
patches = patches.permute(0, 2, 3, 1, 4, 5)
tokens = patches.reshape(b, (h // patch) * (w // patch), c * patch * patch)
embedded = proj(tokens)
embedded.shape
''',
    ),
    (
        'torch_embedding_float_category_codes',
        # setup
        '''
import numpy as np
import pandas as pd
import torch
from torch import nn

torch.manual_seed(11)
rng = np.random.default_rng(11)
df = pd.DataFrame({
    "store": rng.integers(0, 50, 1024),
    "item": rng.integers(0, 300, 1024),
    "price": rng.uniform(1, 20, 1024),
})
df.loc[rng.choice(1024, 5, replace=False), "price"] = np.nan
df["price"] = df["price"].fillna(df["price"].median())
store_emb = nn.Embedding(50, 8)
item_emb = nn.Embedding(300, 16)
''',
        # crash
        '''
batch = torch.tensor(df[["store", "item", "price"]].to_numpy(), dtype=torch.float32)
store_idx, item_idx, price = batch[:, 0], batch[:, 1], batch[:, 2:]
features = torch.cat([store_emb(store_idx), item_emb(item_idx), price], dim=1)
features.shape
''',
        # fixed
        '''
batch = torch.tensor(df[["store", "item", "price"]].to_numpy(), dtype=torch.float32)
store_idx, item_idx, price = batch[:, 0].long(), batch[:, 1].long(), batch[:, 2:]
features = torch.cat([store_emb(store_idx), item_emb(item_idx), price], dim=1)
features.shape
''',
    ),
    (
        'matplotlib_subplots_grid_axes_indexing',
        # setup
        '''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rng = np.random.default_rng(12)
n = 1000
houses = pd.DataFrame({
    "LotArea": rng.lognormal(9.1, 0.4, n),
    "GrLivArea": rng.normal(1500, 500, n),
    "YearBuilt": rng.integers(1900, 2010, n),
    "OverallQual": rng.integers(1, 11, n),
    "GarageArea": rng.normal(470, 210, n).clip(0),
    "SalePrice": rng.lognormal(12, 0.4, n),
})
''',
        # crash
        '''
cols = houses.columns
fig, axes = plt.subplots(2, 3, figsize=(15, 8))
for i, col in enumerate(cols):
    axes[i].hist(houses[col], bins=40, color="steelblue")
    axes[i].set_title(col)
fig.tight_layout()
''',
        # fixed
        '''
cols = houses.columns
fig, axes = plt.subplots(2, 3, figsize=(15, 8))
axes = axes.flatten()
for i, col in enumerate(cols):
    axes[i].hist(houses[col], bins=40, color="steelblue")
    axes[i].set_title(col)
fig.tight_layout()
''',
    ),
    (
        'seaborn_scatter_hue_wrong_case',
        # setup
        '''
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(13)
n = 300
penguins = pd.DataFrame({
    "species": rng.choice(["Adelie", "Chinstrap", "Gentoo"], n),
    "bill_length_mm": rng.normal(44, 5, n),
    "flipper_length_mm": rng.normal(200, 14, n),
    "body_mass_g": rng.normal(4200, 800, n),
})
''',
        # crash
        '''
fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(data=penguins, x="flipper_length_mm", y="body_mass_g", hue="Species", ax=ax)
ax.set_title("Body mass vs flipper length")
''',
        # fixed
        '''
fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(data=penguins, x="flipper_length_mm", y="body_mass_g", hue="species", ax=ax)
ax.set_title("Body mass vs flipper length")
''',
    ),
    (
        'python_vocab_prune_dict_during_iteration',
        # setup
        '''
import random
from collections import Counter

random.seed(14)
words = [f"w{random.randint(0, 3000)}" for _ in range(60_000)]
vocab = dict(Counter(words))
min_count = 15
''',
        # crash
        '''
for token, count in vocab.items():
    if count < min_count:
        del vocab[token]
token_to_id = {tok: i for i, tok in enumerate(sorted(vocab))}
len(token_to_id)
''',
        # fixed
        '''
for token, count in list(vocab.items()):
    if count < min_count:
        del vocab[token]
token_to_id = {tok: i for i, tok in enumerate(sorted(vocab))}
len(token_to_id)
''',
    ),
]
