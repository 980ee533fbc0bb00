r"""Eighteenth set of Kaggle-style notebook crash/fix pairs (30 pairs).

Fields
------
``PAIRS`` is a list of 30 tuples ``(name, setup, crash, fixed)``, all strings:

* ``name``   -- library prefix (pandas_, numpy_, sklearn_, keras_, torch_,
  matplotlib_, seaborn_, xgboost_, lightgbm_, python_) plus a snake-case slug;
  unique.
* ``setup``  -- the earlier notebook cells joined (imports included).  Builds
  seeded synthetic data (np.random.default_rng, random.seed, torch.manual_seed,
  keras.utils.set_random_seed) and writes any files it needs under relative
  paths in the current working directory.  Runs clean in well under 10 s.
* ``crash``  -- the target cell as the author first wrote it.  Executed after
  ``setup`` in the same namespace it raises an exception from a library or
  from Python.
* ``fixed``  -- the same cell after the author's small fix.  Executed after a
  fresh run of ``setup`` it runs clean and does the same work.

The first 15 pairs are LONG: the crash cell does 2-5 s of real work (files,
sites, months, folds, configs, stations, epochs, districts, days) before the
exception, which comes from data met late in that work or from a step after
the loop that combines what the loop built.  The fixed cell takes about as
long.  The last 15 pairs are SHORT: the crash cell raises in well under 1 s.

How it was made
---------------
Written by hand for this file, independently of the crash-prediction tool and
of earlier pair sets.  Every API-change crash was probed against the installed
versions first (Python 3.11, pandas 2.3.3, numpy 2.4, scikit-learn 1.9,
torch 2.13 CPU, keras 3.15 on TensorFlow, matplotlib 3.11, seaborn 0.13,
xgboost 3.2, lightgbm 4.7).  A checker ran setup + cell for every pair and
variant in a fresh Python process with a fresh temporary working directory,
one process at a time on a 2-core machine, for two rounds: 60/60 runs as
expected in each round, long crash cells raising after 2-5 s, short ones in
under 1 s.  Timings on a shared 2-core machine vary with outside load;
multi-threaded libraries suffered most, so three long pairs use one thread
(xgboost n_jobs=1, lightgbm num_threads=1, torch.set_num_threads(1)), and
one fraud pair uses the single-threaded GradientBoostingClassifier.

Domains (one story each)
------------------------
LONG: container shipping manifests, solar inverter output, hospital stays,
mobile game telemetry, 10-minute weather stations, card fraud, apartment rents,
urban air quality, music streaming skips, bike sharing stations, crop disease
leaf images, bird-call audio features, ad click-through, warehouse demand
forecasting, earthquake building damage.
SHORT: e-commerce returns, exam scores, parking sessions, smart meters, farm
plot yields, motor insurance claims, hotel bookings, support tickets, text
reviews, satellite land cover, taxi fares, retail sales charts, heart disease,
football match events, flight delays.

Failure modes used
------------------
Data-dependent (values met late or in a subset of rows):
  thousands separators in one weekly CSV -> astype(float) ValueError;
  duplicated logger upload -> asfreq "cannot reindex on an axis with duplicate
  labels"; duplicated key in a setup lookup table -> merge(validate=
  'many_to_one') MergeError after the loop; weekday key built in the loop
  repeats -> pivot "Index contains duplicate entries"; one missing 10-minute
  record -> reshape ValueError; category only in the last time-ordered fold ->
  OrdinalEncoder unknown category; NaN gaps in the last screened sensor ->
  cross_val_score "All the 5 fits failed"; new genre in a late month through a
  setup helper using get_dummies -> feature-name mismatch in SGDClassifier predict_proba;
  one station missing a sensor column -> Keras matmul shape error mid-loop;
  one truncated test clip -> DataLoader default_collate stack error after
  training; new ad ids after embedding sized from week one -> IndexError;
  negative net units (recall returns) in the last rolling-origin fold ->
  XGBoost reg:squaredlogerror label error; a 4th damage grade in a late
  district vs num_class=3 from setup -> LightGBMError; mixed timestamp formats
  from two payment channels -> to_datetime ValueError; NaN into an int array;
  unseen test label in LabelEncoder; singleton class with stratify; text
  columns in groupby().mean() and DataFrame.corr() (pandas 2 numeric_only
  default); NHWC images into Conv2d; blank lines in a JSON-lines file;
  missing key in a lookup dict.
API changes still failing with these versions:
  DataFrame.append (pandas 2.0), np.trapz (removed in numpy 2.4),
  OneHotEncoder(sparse=...) (sklearn 1.4), RandomForest max_features='auto'
  (sklearn 1.3), keras.optimizers.Adam(lr=...) and model.save() without a
  .keras/.h5 extension (Keras 3), torch.load weights_only=True default
  (torch 2.6) with a pickled StandardScaler in the checkpoint,
  plt.style.use('seaborn-whitegrid') (matplotlib 3.8).

Also probed and found still failing (not used here): Series.iteritems,
Series.append, read_csv(squeeze=...), to_csv(line_terminator=...), np.float_,
np.NaN, np.in1d, np.product, np.cast, np.msort, matplotlib.cm.get_cmap,
mean_squared_error(squared=False), LogisticRegression(multi_class=...),
LogisticRegression(penalty='none'), AdaBoostClassifier(base_estimator=...),
CountVectorizer.get_feature_names, torch.load of a checkpoint holding a numpy
array (weights_only default), XGBClassifier.fit(early_stopping_rounds=
...), LGBMClassifier.fit(early_stopping_rounds=... / verbose=...).

Probed and found NOT to fail any more (only deprecated, or still accepted):
DataFrame.applymap, DataFrame.swapaxes, read_csv(delim_whitespace=True),
fillna(method='ffill'), groupby(axis=1), np.row_stack, seaborn.distplot,
XGBClassifier(use_label_encoder=False), keras ModelCheckpoint('best.h5') at
construction, keras model.save('model.h5') (legacy HDF5 still accepted).
"""

PAIRS = [
    # ------------------------------------------------------------------ LONG
    (
        "pandas_shipping_manifest_thousands_sep",
        r'''
import glob
import os
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
os.makedirs('manifests', exist_ok=True)
PORTS = ['RTM', 'SGP', 'SHA', 'LAX', 'HAM', 'ANR', 'BUS', 'DXB', 'NYC', 'SAN']
COLD_LANES = {('SGP', 'RTM'), ('BUS', 'LAX'), ('SHA', 'HAM'), ('SAN', 'ANR')}

for week in range(1, 21):
    n = 21000
    wk = pd.DataFrame({
        'container_id': ['MSKU' + str(x) for x in rng.integers(1_000_000, 9_999_999, n)],
        'departure': pd.Timestamp('2024-01-01') + pd.to_timedelta(week * 7 + rng.integers(0, 7, n), unit='D'),
        'origin': rng.choice(PORTS, n),
        'dest': rng.choice(PORTS, n),
        'teu': rng.choice([1, 2], n, p=[0.35, 0.65]),
        'reefer': rng.random(n) < 0.12,
        'gross_weight_kg': rng.gamma(4.0, 3800.0, n).round(1),
        'declared_value_usd': rng.lognormal(10.5, 0.9, n).round(2),
    })
    if week == 18:
        wk['gross_weight_kg'] = wk['gross_weight_kg'].map('{:,.1f}'.format)
    wk.to_csv(f'manifests/week_{week:02d}.csv', index=False)

def classify_route(row):
    if row['origin'] == row['dest']:
        return 'transship'
    if row['reefer'] and (row['origin'], row['dest']) in COLD_LANES:
        return 'cold_chain'
    if row['teu'] == 2 and row['declared_value_usd'] > 60000:
        return 'high_value'
    return 'standard'
''',
        r'''
lane_frames = []
for path in sorted(glob.glob('manifests/week_*.csv')):
    wk = pd.read_csv(path, parse_dates=['departure'])
    wk['route_class'] = wk.apply(classify_route, axis=1)
    wk['lane'] = wk['origin'] + '-' + wk['dest']
    wk['weight_t'] = wk['gross_weight_kg'].astype(float) / 1000
    wk['usd_per_t'] = wk['declared_value_usd'] / wk['weight_t']
    wk['iso_week'] = wk['departure'].dt.isocalendar().week
    lane_frames.append(
        wk.groupby(['iso_week', 'lane', 'route_class'])
          .agg(boxes=('container_id', 'count'), teu=('teu', 'sum'),
               tonnes=('weight_t', 'sum'), usd_per_t=('usd_per_t', 'median'))
          .reset_index()
    )

lanes = pd.concat(lane_frames, ignore_index=True)
top_lanes = lanes.groupby('lane')['tonnes'].sum().nlargest(10)
top_lanes
''',
        r'''
lane_frames = []
for path in sorted(glob.glob('manifests/week_*.csv')):
    wk = pd.read_csv(path, parse_dates=['departure'], thousands=',')
    wk['route_class'] = wk.apply(classify_route, axis=1)
    wk['lane'] = wk['origin'] + '-' + wk['dest']
    wk['weight_t'] = wk['gross_weight_kg'].astype(float) / 1000
    wk['usd_per_t'] = wk['declared_value_usd'] / wk['weight_t']
    wk['iso_week'] = wk['departure'].dt.isocalendar().week
    lane_frames.append(
        wk.groupby(['iso_week', 'lane', 'route_class'])
          .agg(boxes=('container_id', 'count'), teu=('teu', 'sum'),
               tonnes=('weight_t', 'sum'), usd_per_t=('usd_per_t', 'median'))
          .reset_index()
    )

lanes = pd.concat(lane_frames, ignore_index=True)
top_lanes = lanes.groupby('lane')['tonnes'].sum().nlargest(10)
top_lanes
''',
    ),
    (
        "pandas_solar_inverter_duplicate_upload",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
sites = [f'INV-{i:02d}' for i in range(1, 31)]
idx = pd.date_range('2024-05-01', periods=52 * 96, freq='15min')
hour = (idx.hour + idx.minute / 60).to_numpy()
clear_sky = np.clip(np.sin((hour - 6) / 14 * np.pi), 0, None)
parts = []
for site in sites:
    cap = rng.uniform(80, 250)
    cloud = np.clip(1 - rng.beta(2, 5, len(idx)), 0.05, 1)
    power = cap * clear_sky * cloud * rng.normal(1, 0.03, len(idx))
    part = pd.DataFrame({
        'site_id': site,
        'ts': idx,
        'irradiance_wm2': 1000 * clear_sky * cloud,
        'ac_power_kw': power.clip(0),
        'capacity_kw': round(cap, 1),
    })
    part = part[rng.random(len(idx)) > 0.01]
    if site == 'INV-26':
        resent = part[(part['ts'] >= '2024-05-12') & (part['ts'] < '2024-05-13')]
        part = pd.concat([part, resent])
    parts.append(part)
readings = pd.concat(parts, ignore_index=True)
readings.head()
''',
        r'''
site_summary = []
for site, g in readings.groupby('site_id'):
    power = g.set_index('ts')['ac_power_kw'].sort_index().asfreq('15min')
    power = power.interpolate(limit=4)
    p90 = power.rolling('2h').apply(lambda w: np.percentile(w, 90), raw=True)
    cap = g['capacity_kw'].iloc[0]
    daily_kwh = power.resample('D').sum() * 0.25
    site_summary.append({
        'site_id': site,
        'mean_daily_kwh': daily_kwh.mean(),
        'peak_p90_kw': p90.max(),
        'clipped_intervals': int((power >= 0.98 * cap).sum()),
        'specific_yield': daily_kwh.sum() / cap,
    })

summary = pd.DataFrame(site_summary).sort_values('specific_yield')
summary.head()
''',
        r'''
site_summary = []
for site, g in readings.groupby('site_id'):
    g = g.drop_duplicates(subset='ts', keep='last')
    power = g.set_index('ts')['ac_power_kw'].sort_index().asfreq('15min')
    power = power.interpolate(limit=4)
    p90 = power.rolling('2h').apply(lambda w: np.percentile(w, 90), raw=True)
    cap = g['capacity_kw'].iloc[0]
    daily_kwh = power.resample('D').sum() * 0.25
    site_summary.append({
        'site_id': site,
        'mean_daily_kwh': daily_kwh.mean(),
        'peak_p90_kw': p90.max(),
        'clipped_intervals': int((power >= 0.98 * cap).sum()),
        'specific_yield': daily_kwh.sum() / cap,
    })

summary = pd.DataFrame(site_summary).sort_values('specific_yield')
summary.head()
''',
    ),
    (
        "pandas_hospital_ward_lookup_merge_validate",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
n = 8200
admissions = pd.DataFrame({
    'patient_id': rng.integers(10000, 16000, n),
    'admit_date': pd.Timestamp('2023-01-01') + pd.to_timedelta(rng.integers(0, 365, n), unit='D'),
    'ward_id': rng.choice(['W01', 'W02', 'W03', 'W04', 'W05', 'W06', 'W07', 'W08'], n),
    'age': rng.integers(18, 95, n),
    'emergency': rng.random(n) < 0.4,
})
admissions['discharge_date'] = admissions['admit_date'] + pd.to_timedelta(
    rng.gamma(2.0, 2.5, n).round().astype(int), unit='D')
admissions['month'] = admissions['admit_date'].dt.to_period('M')

wards = pd.DataFrame({
    'ward_id': ['W01', 'W02', 'W03', 'W04', 'W05', 'W06', 'W07', 'W08', 'W05'],
    'ward_name': ['Cardiology', 'Oncology', 'Orthopaedics', 'General Surgery', 'Respiratory',
                  'Neurology', 'Geriatrics', 'Maternity', 'Respiratory & Infectious Diseases'],
    'beds': [32, 28, 40, 36, 30, 24, 44, 26, 34],
})

def patient_flags(g):
    g = g.sort_values('admit_date')
    gap = (g['admit_date'] - g['discharge_date'].shift()).dt.days
    return pd.DataFrame({
        'adm_seq': np.arange(1, len(g) + 1),
        'days_since_last': gap.to_numpy(),
        'readmit_30d': (gap <= 30).to_numpy(),
    }, index=g.index)
''',
        r'''
monthly = []
for month, m in admissions.groupby('month'):
    m = m.copy()
    m['los_days'] = (m['discharge_date'] - m['admit_date']).dt.days
    flags = m.groupby('patient_id', group_keys=False)[['admit_date', 'discharge_date']].apply(patient_flags)
    m = m.join(flags)
    m['long_stay'] = m['los_days'] > m.groupby('ward_id')['los_days'].transform('quantile', 0.9)
    monthly.append(m)

stays = pd.concat(monthly, ignore_index=True)
stays = stays.merge(wards, on='ward_id', how='left', validate='many_to_one')
ward_kpis = stays.groupby('ward_name').agg(
    admissions=('patient_id', 'size'),
    mean_los=('los_days', 'mean'),
    readmit_rate=('readmit_30d', 'mean'),
    long_stay_rate=('long_stay', 'mean'),
)
ward_kpis
''',
        r'''
monthly = []
for month, m in admissions.groupby('month'):
    m = m.copy()
    m['los_days'] = (m['discharge_date'] - m['admit_date']).dt.days
    flags = m.groupby('patient_id', group_keys=False)[['admit_date', 'discharge_date']].apply(patient_flags)
    m = m.join(flags)
    m['long_stay'] = m['los_days'] > m.groupby('ward_id')['los_days'].transform('quantile', 0.9)
    monthly.append(m)

stays = pd.concat(monthly, ignore_index=True)
wards = wards.drop_duplicates(subset='ward_id', keep='last')
stays = stays.merge(wards, on='ward_id', how='left', validate='many_to_one')
ward_kpis = stays.groupby('ward_name').agg(
    admissions=('patient_id', 'size'),
    mean_los=('los_days', 'mean'),
    readmit_rate=('readmit_30d', 'mean'),
    long_stay_rate=('long_stay', 'mean'),
)
ward_kpis
''',
    ),
    (
        "pandas_game_telemetry_weekday_pivot",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
n_events = 60000
start = pd.Timestamp('2024-03-04')
events = pd.DataFrame({
    'player_id': rng.integers(1, 216, n_events),
    'ts': start + pd.to_timedelta(rng.integers(0, 14 * 86400, n_events), unit='s'),
    'event': rng.choice(['level_start', 'level_end', 'purchase', 'ad_view', 'death'], n_events,
                        p=[0.3, 0.25, 0.05, 0.15, 0.25]),
    'level': rng.integers(1, 60, n_events),
    'coins': rng.poisson(12, n_events),
}).sort_values('ts', ignore_index=True)
events['date'] = events['ts'].dt.normalize()

def session_stats(g, gap_min=30):
    t = g['ts'].sort_values()
    session_no = t.diff().dt.total_seconds().gt(gap_min * 60).cumsum()
    spans = t.groupby(session_no).agg(['min', 'max'])
    return pd.Series({
        'sessions': len(spans),
        'playtime_min': (spans['max'] - spans['min']).dt.total_seconds().sum() / 60,
        'deaths': int((g['event'] == 'death').sum()),
        'coins': int(g['coins'].sum()),
    })
''',
        r'''
rows = []
for day, d in events.groupby('date'):
    stats = d.groupby('player_id')[['ts', 'event', 'coins']].apply(session_stats)
    stats['weekday'] = day.day_name()
    rows.append(stats.reset_index())

daily = pd.concat(rows, ignore_index=True)
playtime_wide = daily.pivot(index='player_id', columns='weekday', values='playtime_min')
low_engagement = playtime_wide.fillna(0).mean(axis=1).sort_values().head(25)
low_engagement
''',
        r'''
rows = []
for day, d in events.groupby('date'):
    stats = d.groupby('player_id')[['ts', 'event', 'coins']].apply(session_stats)
    stats['weekday'] = day.day_name()
    rows.append(stats.reset_index())

daily = pd.concat(rows, ignore_index=True)
playtime_wide = daily.pivot_table(index='player_id', columns='weekday', values='playtime_min', aggfunc='mean')
low_engagement = playtime_wide.fillna(0).mean(axis=1).sort_values().head(25)
low_engagement
''',
    ),
    (
        "numpy_weather_station_10min_reshape",
        r'''
import glob
import os
import numpy as np

rng = np.random.default_rng(5)
os.makedirs('stations', exist_ok=True)
steps = np.arange(52560)
hours = steps / 6
for sid in range(1, 51):
    temp = (10 + 12 * np.sin(2 * np.pi * (hours / 8760 - 0.3))
            + 5 * np.sin(2 * np.pi * (hours % 24 - 9) / 24) + rng.normal(0, 1.5, 52560))
    rh = np.clip(70 - 1.2 * (temp - 10) + rng.normal(0, 8, 52560), 5, 100)
    pres = 1013 + np.cumsum(rng.normal(0, 0.12, 52560)) * 0.2
    wind = rng.weibull(2, 52560) * 5
    data = np.column_stack([steps, temp, rh, pres, wind])
    if sid == 43:
        data = np.delete(data, 31877, axis=0)
    np.savetxt(f'stations/station_{sid:02d}.csv', data, delimiter=',',
               fmt=['%d', '%.2f', '%.1f', '%.1f', '%.2f'],
               header='step_10min,temp_c,rh_pct,pressure_hpa,wind_ms', comments='')
''',
        r'''
station_files = sorted(glob.glob('stations/station_*.csv'))
daily_tmax, daily_tmin, gdd, calm_days = [], [], [], []
for path in station_files:
    data = np.genfromtxt(path, delimiter=',', skip_header=1)
    temp = data[:, 1].reshape(-1, 144)
    wind = data[:, 4].reshape(-1, 144)
    tmax, tmin = temp.max(axis=1), temp.min(axis=1)
    daily_tmax.append(tmax)
    daily_tmin.append(tmin)
    gdd.append(np.clip((tmax + tmin) / 2 - 10, 0, None).sum())
    calm_days.append(int((wind.mean(axis=1) < 2).sum()))

tmax_matrix = np.vstack(daily_tmax)
hottest_station = int(np.argmax(tmax_matrix.mean(axis=1))) + 1
hottest_station, np.round(gdd, 0)
''',
        r'''
station_files = sorted(glob.glob('stations/station_*.csv'))
daily_tmax, daily_tmin, gdd, calm_days = [], [], [], []
for path in station_files:
    data = np.genfromtxt(path, delimiter=',', skip_header=1)
    n_days = len(data) // 144
    data = data[:n_days * 144]
    temp = data[:, 1].reshape(-1, 144)
    wind = data[:, 4].reshape(-1, 144)
    tmax, tmin = temp.max(axis=1), temp.min(axis=1)
    daily_tmax.append(tmax[:364])
    daily_tmin.append(tmin[:364])
    gdd.append(np.clip((tmax + tmin) / 2 - 10, 0, None).sum())
    calm_days.append(int((wind.mean(axis=1) < 2).sum()))

tmax_matrix = np.vstack(daily_tmax)
hottest_station = int(np.argmax(tmax_matrix.mean(axis=1))) + 1
hottest_station, np.round(gdd, 0)
''',
    ),
    (
        "sklearn_card_fraud_time_folds_unseen_category",
        r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import KFold
from sklearn.preprocessing import OrdinalEncoder

rng = np.random.default_rng(13)
n = 15000
cats = ['grocery', 'fuel', 'restaurants', 'electronics', 'travel', 'online_retail',
        'pharmacy', 'entertainment', 'utilities', 'jewelry']
tx = pd.DataFrame({
    'amount': rng.lognormal(3.5, 1.1, n).round(2),
    'hour': rng.integers(0, 24, n),
    'merchant_category': rng.choice(cats, n),
    'card_type': rng.choice(['debit', 'credit', 'prepaid'], n, p=[0.55, 0.4, 0.05]),
    'country': rng.choice(['US', 'CA', 'GB', 'MX', 'DE'], n, p=[0.7, 0.1, 0.08, 0.07, 0.05]),
    'dist_from_home_km': rng.exponential(15, n).round(1),
    'tx_last_24h': rng.poisson(3, n),
})
recent = np.arange(n) >= n - 800
tx.loc[recent & (rng.random(n) < 0.2), 'merchant_category'] = 'crypto_exchange'
logit = (-5 + 0.6 * np.log1p(tx['amount']) + 0.04 * tx['dist_from_home_km']
         + 1.2 * tx['merchant_category'].isin(['electronics', 'jewelry', 'crypto_exchange'])
         + 0.8 * (tx['card_type'] == 'prepaid') + 0.5 * ((tx['hour'] < 5) | (tx['hour'] > 22)))
tx['is_fraud'] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)

cat_cols = ['merchant_category', 'card_type', 'country']
num_cols = ['amount', 'hour', 'dist_from_home_km', 'tx_last_24h']
tx.is_fraud.mean()
''',
        r'''
kf = KFold(n_splits=5, shuffle=False)
oof = np.zeros(len(tx))
fold_auc = []
for fold, (tr_idx, va_idx) in enumerate(kf.split(tx)):
    tr, va = tx.iloc[tr_idx], tx.iloc[va_idx]
    enc = OrdinalEncoder()
    X_tr = np.hstack([tr[num_cols].to_numpy(), enc.fit_transform(tr[cat_cols])])
    X_va = np.hstack([va[num_cols].to_numpy(), enc.transform(va[cat_cols])])
    clf = GradientBoostingClassifier(n_estimators=100, max_depth=3, subsample=0.8, random_state=fold)
    clf.fit(X_tr, tr['is_fraud'])
    oof[va_idx] = clf.predict_proba(X_va)[:, 1]
    fold_auc.append(roc_auc_score(va['is_fraud'], oof[va_idx]))

np.mean(fold_auc), roc_auc_score(tx['is_fraud'], oof)
''',
        r'''
kf = KFold(n_splits=5, shuffle=False)
oof = np.zeros(len(tx))
fold_auc = []
for fold, (tr_idx, va_idx) in enumerate(kf.split(tx)):
    tr, va = tx.iloc[tr_idx], tx.iloc[va_idx]
    enc = OrdinalEncoder(handle_unknown='use_encoded_value', unknown_value=-1)
    X_tr = np.hstack([tr[num_cols].to_numpy(), enc.fit_transform(tr[cat_cols])])
    X_va = np.hstack([va[num_cols].to_numpy(), enc.transform(va[cat_cols])])
    clf = GradientBoostingClassifier(n_estimators=100, max_depth=3, subsample=0.8, random_state=fold)
    clf.fit(X_tr, tr['is_fraud'])
    oof[va_idx] = clf.predict_proba(X_va)[:, 1]
    fold_auc.append(roc_auc_score(va['is_fraud'], oof[va_idx]))

np.mean(fold_auc), roc_auc_score(tx['is_fraud'], oof)
''',
    ),
    (
        "sklearn_apartment_rent_rf_config_auto",
        r'''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(29)
n = 5000
flats = pd.DataFrame({
    'area_m2': rng.gamma(6, 12, n).round(1),
    'rooms': rng.integers(1, 6, n),
    'floor': rng.integers(0, 20, n),
    'building_age': rng.integers(0, 90, n),
    'dist_center_km': rng.exponential(5, n).round(2),
    'dist_metro_m': rng.exponential(700, n).round(),
    'has_balcony': rng.integers(0, 2, n),
    'has_elevator': rng.integers(0, 2, n),
    'energy_class': rng.integers(1, 8, n),
    'district_code': rng.integers(0, 25, n),
})
flats['rent_eur'] = (8 * flats['area_m2'] * np.exp(-0.05 * flats['dist_center_km'])
                     + 60 * flats['has_elevator'] - 2 * flats['building_age']
                     + 30 * flats['rooms'] + rng.normal(0, 90, n)).round()
X = flats.drop(columns='rent_eur')
y = flats['rent_eur']
X_train, X_valid, y_train, y_valid = train_test_split(X, y, test_size=0.2, random_state=42)
''',
        r'''
configs = [
    {'n_estimators': 190, 'max_depth': 12, 'max_features': 'sqrt', 'min_samples_leaf': 1},
    {'n_estimators': 190, 'max_depth': None, 'max_features': 'sqrt', 'min_samples_leaf': 2},
    {'n_estimators': 190, 'max_depth': 12, 'max_features': 0.5, 'min_samples_leaf': 1},
    {'n_estimators': 190, 'max_depth': None, 'max_features': 0.5, 'min_samples_leaf': 2},
    {'n_estimators': 190, 'max_depth': 16, 'max_features': 'log2', 'min_samples_leaf': 1},
    {'n_estimators': 190, 'max_depth': 14, 'max_features': 'auto', 'min_samples_leaf': 3},
]
results = []
for cfg in configs:
    rf = RandomForestRegressor(random_state=42, n_jobs=-1, **cfg)
    rf.fit(X_train, y_train)
    rmse = np.sqrt(mean_squared_error(y_valid, rf.predict(X_valid)))
    results.append({**cfg, 'rmse': rmse})

results_df = pd.DataFrame(results).sort_values('rmse')
results_df
''',
        r'''
configs = [
    {'n_estimators': 190, 'max_depth': 12, 'max_features': 'sqrt', 'min_samples_leaf': 1},
    {'n_estimators': 190, 'max_depth': None, 'max_features': 'sqrt', 'min_samples_leaf': 2},
    {'n_estimators': 190, 'max_depth': 12, 'max_features': 0.5, 'min_samples_leaf': 1},
    {'n_estimators': 190, 'max_depth': None, 'max_features': 0.5, 'min_samples_leaf': 2},
    {'n_estimators': 190, 'max_depth': 16, 'max_features': 'log2', 'min_samples_leaf': 1},
    {'n_estimators': 190, 'max_depth': 14, 'max_features': 1.0, 'min_samples_leaf': 3},
]
results = []
for cfg in configs:
    rf = RandomForestRegressor(random_state=42, n_jobs=-1, **cfg)
    rf.fit(X_train, y_train)
    rmse = np.sqrt(mean_squared_error(y_valid, rf.predict(X_valid)))
    results.append({**cfg, 'rmse': rmse})

results_df = pd.DataFrame(results).sort_values('rmse')
results_df
''',
    ),
    (
        "sklearn_air_quality_sensor_screening_nan",
        r'''
import numpy as np
import pandas as pd
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(31)
n = 60000
aq = pd.DataFrame({
    'pm10': rng.gamma(3, 12, n),
    'no2': rng.gamma(4, 8, n),
    'o3': rng.gamma(5, 9, n),
    'co_mg': rng.gamma(2, 0.4, n),
    'so2': rng.gamma(2, 3, n),
    'temp_c': rng.normal(14, 8, n),
    'rh_pct': rng.uniform(20, 100, n),
    'wind_ms': rng.weibull(2, n) * 4,
    'pressure_hpa': rng.normal(1013, 7, n),
    'traffic_idx': rng.uniform(0, 1, n),
    'benzene_ugm3': rng.gamma(2, 1.1, n),
})
aq['pm25'] = (0.45 * aq['pm10'] + 0.2 * aq['no2'] - 1.5 * aq['wind_ms']
              + 3 * aq['benzene_ugm3'] + rng.normal(0, 4, n))
aq.loc[rng.random(n) < 0.04, 'benzene_ugm3'] = np.nan
candidate_cols = [c for c in aq.columns if c != 'pm25']
''',
        r'''
def knn_pipe():
    return make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=15))

base_cols = ['pm10', 'no2']
baseline = -cross_val_score(knn_pipe(), aq[base_cols], aq['pm25'], cv=5,
                            scoring='neg_root_mean_squared_error').mean()
gain = {}
for col in candidate_cols:
    if col in base_cols:
        continue
    rmse = -cross_val_score(knn_pipe(), aq[base_cols + [col]], aq['pm25'], cv=5,
                            scoring='neg_root_mean_squared_error').mean()
    gain[col] = baseline - rmse

pd.Series(gain, name='rmse_gain').sort_values(ascending=False)
''',
        r'''
from sklearn.impute import SimpleImputer

def knn_pipe():
    return make_pipeline(SimpleImputer(strategy='median'), StandardScaler(), KNeighborsRegressor(n_neighbors=15))

base_cols = ['pm10', 'no2']
baseline = -cross_val_score(knn_pipe(), aq[base_cols], aq['pm25'], cv=5,
                            scoring='neg_root_mean_squared_error').mean()
gain = {}
for col in candidate_cols:
    if col in base_cols:
        continue
    rmse = -cross_val_score(knn_pipe(), aq[base_cols + [col]], aq['pm25'], cv=5,
                            scoring='neg_root_mean_squared_error').mean()
    gain[col] = baseline - rmse

pd.Series(gain, name='rmse_gain').sort_values(ascending=False)
''',
    ),
    (
        "sklearn_music_streaming_partial_fit_new_genre",
        r'''
import numpy as np
import pandas as pd
from sklearn.metrics import log_loss
from sklearn.linear_model import SGDClassifier

rng = np.random.default_rng(17)
n = 120000
genres = ['pop', 'rock', 'hip_hop', 'electronic', 'jazz', 'classical', 'country', 'latin']
streams = pd.DataFrame({
    'month': rng.integers(1, 13, n),
    'user_id': rng.integers(0, 2000, n),
    'genre': rng.choice(genres, n),
    'device': rng.choice(['mobile', 'desktop', 'smart_speaker', 'tv'], n, p=[0.6, 0.2, 0.15, 0.05]),
    'track_age_days': rng.exponential(400, n).round(),
    'track_popularity': rng.uniform(0, 100, n).round(1),
    'user_tenure_days': rng.exponential(300, n).round(),
    'hour': rng.integers(0, 24, n),
})
kpop = (streams['month'] >= 11) & (rng.random(n) < 0.08)
streams.loc[kpop, 'genre'] = 'k_pop'
streams = streams.sort_values('month', kind='stable', ignore_index=True)
logit = (-0.4 - 0.02 * (streams['track_popularity'] - 50) + 0.3 * (streams['device'] == 'mobile')
         + 0.5 * streams['genre'].isin(['jazz', 'classical']) - 0.001 * streams['user_tenure_days'])
streams['skipped'] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)

def make_features(batch):
    num = batch[['track_age_days', 'track_popularity', 'user_tenure_days', 'hour']].copy()
    num['track_age_days'] = np.log1p(num['track_age_days'])
    num['user_tenure_days'] = np.log1p(num['user_tenure_days'])
    num['track_popularity'] = num['track_popularity'] / 100
    num['hour'] = num['hour'] / 23
    num['user_skip_rate'] = (batch.groupby('user_id')['skipped']
                             .transform(lambda s: s.shift().expanding().mean()).fillna(0.5))
    dummies = pd.get_dummies(batch[['genre', 'device']], dtype=float)
    return pd.concat([num, dummies], axis=1)
''',
        r'''
clf = SGDClassifier(loss='log_loss', alpha=1e-4, random_state=0)
monthly_logloss = {}
for month, batch in streams.groupby('month'):
    X_b = make_features(batch)
    y_b = batch['skipped'].to_numpy()
    if month > 1:
        monthly_logloss[month] = log_loss(y_b, clf.predict_proba(X_b)[:, 1])
    for _ in range(4):
        clf.partial_fit(X_b, y_b, classes=[0, 1])

pd.Series(monthly_logloss, name='next_month_logloss')
''',
        r'''
clf = SGDClassifier(loss='log_loss', alpha=1e-4, random_state=0)
feature_cols = make_features(streams).columns
monthly_logloss = {}
for month, batch in streams.groupby('month'):
    X_b = make_features(batch).reindex(columns=feature_cols, fill_value=0.0)
    y_b = batch['skipped'].to_numpy()
    if month > 1:
        monthly_logloss[month] = log_loss(y_b, clf.predict_proba(X_b)[:, 1])
    for _ in range(4):
        clf.partial_fit(X_b, y_b, classes=[0, 1])

pd.Series(monthly_logloss, name='next_month_logloss')
''',
    ),
    (
        "keras_bike_sharing_station_missing_sensor",
        r'''
import numpy as np
import pandas as pd
import keras
from keras import layers

keras.utils.set_random_seed(8)
rng = np.random.default_rng(8)
feature_cols = ['hour_sin', 'hour_cos', 'is_weekend', 'temp_c', 'humidity', 'wind_kmh', 'rain_mm', 'holiday']
station_frames = {}
for k in range(1, 13):
    n = 2500
    hour = rng.integers(0, 24, n)
    df = pd.DataFrame({
        'station': f'ST-{k:02d}',
        'hour_sin': np.sin(2 * np.pi * hour / 24),
        'hour_cos': np.cos(2 * np.pi * hour / 24),
        'is_weekend': (rng.random(n) < 2 / 7).astype(float),
        'temp_c': rng.normal(16, 7, n),
        'humidity': rng.uniform(25, 95, n),
        'wind_kmh': rng.gamma(2, 6, n),
        'rain_mm': rng.exponential(0.4, n) * (rng.random(n) < 0.2),
        'holiday': (rng.random(n) < 0.03).astype(float),
    })
    df['rentals'] = np.clip(20 + 15 * np.sin(2 * np.pi * (hour - 8) / 24) + 0.8 * df['temp_c']
                            - 6 * df['rain_mm'] - 0.1 * df['humidity'] + rng.normal(0, 4, n), 0, None)
    if k == 9:
        df = df.drop(columns=['humidity'])
    station_frames[f'ST-{k:02d}'] = df

def build_model(n_features):
    model = keras.Sequential([
        keras.Input(shape=(n_features,)),
        layers.Dense(64, activation='relu'),
        layers.Dense(32, activation='relu'),
        layers.Dense(1),
    ])
    model.compile(optimizer='adam', loss='mse', metrics=['mae'])
    return model

model = build_model(len(feature_cols))
''',
        r'''
station_mae = {}
for station, df in station_frames.items():
    X = df.drop(columns=['station', 'rentals']).to_numpy('float32')
    y = df['rentals'].to_numpy('float32')
    hist = model.fit(X, y, epochs=3, batch_size=96, validation_split=0.2, verbose=0)
    station_mae[station] = hist.history['val_mae'][-1]

pd.Series(station_mae).sort_values()
''',
        r'''
station_mae = {}
for station, df in station_frames.items():
    X = df.reindex(columns=feature_cols, fill_value=0.0).to_numpy('float32')
    y = df['rentals'].to_numpy('float32')
    hist = model.fit(X, y, epochs=3, batch_size=96, validation_split=0.2, verbose=0)
    station_mae[station] = hist.history['val_mae'][-1]

pd.Series(station_mae).sort_values()
''',
    ),
    (
        "keras_crop_disease_cnn_save_path",
        r'''
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(12)
rng = np.random.default_rng(12)
CLASSES = ['healthy', 'rust', 'blight', 'mildew']
n = 1600
labels = rng.integers(0, len(CLASSES), n)
images = rng.normal(0.4, 0.1, (n, 32, 32, 3)).astype('float32')
for i, c in enumerate(labels):
    if c > 0:
        cx, cy = rng.integers(4, 28, 2)
        images[i, cx - 3:cx + 3, cy - 3:cy + 3, c - 1] += 0.5
images = np.clip(images, 0, 1)
split = int(0.8 * n)
x_train, x_val = images[:split], images[split:]
y_train, y_val = labels[:split], labels[split:]

model = keras.Sequential([
    keras.Input(shape=(32, 32, 3)),
    layers.Conv2D(16, 3, activation='relu', padding='same'),
    layers.MaxPooling2D(),
    layers.Conv2D(32, 3, activation='relu', padding='same'),
    layers.MaxPooling2D(),
    layers.GlobalAveragePooling2D(),
    layers.Dense(32, activation='relu'),
    layers.Dense(len(CLASSES), activation='softmax'),
])
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
''',
        r'''
history = model.fit(x_train, y_train, validation_data=(x_val, y_val),
                    epochs=8, batch_size=32, verbose=0)
val_loss, val_acc = model.evaluate(x_val, y_val, verbose=0)
model.save('leaf_cnn_v1')
''',
        r'''
history = model.fit(x_train, y_train, validation_data=(x_val, y_val),
                    epochs=8, batch_size=32, verbose=0)
val_loss, val_acc = model.evaluate(x_val, y_val, verbose=0)
model.save('leaf_cnn_v1.keras')
''',
    ),
    (
        "torch_bird_audio_test_clip_collate",
        r'''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
N_MELS, N_FRAMES, N_CLASSES = 40, 128, 6

def make_clip(label, n_frames=N_FRAMES):
    spec = rng.normal(0, 1, (N_MELS, n_frames)).astype('float32')
    spec[label * 6:label * 6 + 6] += 2.0
    return spec

train_clips = [(make_clip(c), int(c)) for c in rng.integers(0, N_CLASSES, 2000)]
test_labels = rng.integers(0, N_CLASSES, 600)
test_clips = [(make_clip(c, 113 if i == 517 else N_FRAMES), int(c)) for i, c in enumerate(test_labels)]

class BirdCallDataset(Dataset):
    def __init__(self, clips):
        self.clips = clips
    def __len__(self):
        return len(self.clips)
    def __getitem__(self, i):
        spec, label = self.clips[i]
        spec = (spec - spec.mean()) / (spec.std() + 1e-6)
        return torch.from_numpy(spec), torch.tensor(label)

train_loader = DataLoader(BirdCallDataset(train_clips), batch_size=64, shuffle=True,
                          generator=torch.Generator().manual_seed(0))
test_loader = DataLoader(BirdCallDataset(test_clips), batch_size=64)

model = nn.Sequential(
    nn.Conv1d(N_MELS, 64, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(64, 64, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
    nn.Flatten(), nn.Linear(64, N_CLASSES),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
''',
        r'''
for epoch in range(8):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()

model.eval()
all_preds, all_true = [], []
with torch.no_grad():
    for xb, yb in test_loader:
        all_preds.append(model(xb).argmax(1))
        all_true.append(yb)
test_acc = (torch.cat(all_preds) == torch.cat(all_true)).float().mean().item()
test_acc
''',
        r'''
for epoch in range(8):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()

def pad_collate(batch):
    specs = [nn.functional.pad(s, (0, N_FRAMES - s.shape[-1])) for s, _ in batch]
    return torch.stack(specs), torch.stack([y for _, y in batch])

test_loader = DataLoader(test_loader.dataset, batch_size=64, collate_fn=pad_collate)
model.eval()
all_preds, all_true = [], []
with torch.no_grad():
    for xb, yb in test_loader:
        all_preds.append(model(xb).argmax(1))
        all_true.append(yb)
test_acc = (torch.cat(all_preds) == torch.cat(all_true)).float().mean().item()
test_acc
''',
    ),
    (
        "torch_ad_clicks_embedding_new_campaign",
        r'''
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(4)
torch.set_num_threads(1)
rng = np.random.default_rng(4)
frames = []
for day in range(1, 15):
    n = 32000
    n_ads_live = 400 if day < 12 else 470
    frames.append(pd.DataFrame({
        'day': day,
        'ad_id': rng.integers(0, n_ads_live, n),
        'site_id': rng.integers(0, 60, n),
        'hour': rng.integers(0, 24, n),
        'position': rng.integers(1, 4, n),
        'bid_cpm': rng.gamma(2, 1.5, n),
    }))
clicks = pd.concat(frames, ignore_index=True)
ctr = 1 / (1 + np.exp(-(-3 + 0.25 * clicks['bid_cpm'] - 0.4 * clicks['position'] + 0.002 * (clicks['ad_id'] % 50))))
clicks['clicked'] = (rng.random(len(clicks)) < ctr).astype('float32')

class CTRModel(nn.Module):
    def __init__(self, n_ads, n_sites, dim=16):
        super().__init__()
        self.ad_emb = nn.Embedding(n_ads, dim)
        self.site_emb = nn.Embedding(n_sites, dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim + 3, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, ad, site, dense):
        return self.mlp(torch.cat([self.ad_emb(ad), self.site_emb(site), dense], dim=1)).squeeze(1)

n_ads = clicks.loc[clicks['day'] <= 7, 'ad_id'].nunique()
n_sites = clicks['site_id'].nunique()
model = CTRModel(n_ads, n_sites)
''',
        r'''
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.BCEWithLogitsLoss()
daily_loss = {}
for day, d in clicks.groupby('day'):
    ad = torch.tensor(d['ad_id'].to_numpy())
    site = torch.tensor(d['site_id'].to_numpy())
    dense = torch.tensor(np.column_stack([d['hour'] / 23, d['position'] / 3, np.log1p(d['bid_cpm'])]), dtype=torch.float32)
    y = torch.tensor(d['clicked'].to_numpy())
    losses = []
    for _ in range(2):
        perm = torch.randperm(len(d))
        for start in range(0, len(d), 256):
            b = perm[start:start + 256]
            optimizer.zero_grad()
            loss = loss_fn(model(ad[b], site[b], dense[b]), y[b])
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    daily_loss[day] = float(np.mean(losses))

pd.Series(daily_loss)
''',
        r'''
model = CTRModel(int(clicks['ad_id'].max()) + 1, n_sites)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.BCEWithLogitsLoss()
daily_loss = {}
for day, d in clicks.groupby('day'):
    ad = torch.tensor(d['ad_id'].to_numpy())
    site = torch.tensor(d['site_id'].to_numpy())
    dense = torch.tensor(np.column_stack([d['hour'] / 23, d['position'] / 3, np.log1p(d['bid_cpm'])]), dtype=torch.float32)
    y = torch.tensor(d['clicked'].to_numpy())
    losses = []
    for _ in range(2):
        perm = torch.randperm(len(d))
        for start in range(0, len(d), 256):
            b = perm[start:start + 256]
            optimizer.zero_grad()
            loss = loss_fn(model(ad[b], site[b], dense[b]), y[b])
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    daily_loss[day] = float(np.mean(losses))

pd.Series(daily_loss)
''',
    ),
    (
        "xgboost_warehouse_demand_rmsle_negative_returns",
        r'''
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.metrics import mean_squared_error

rng = np.random.default_rng(19)
n_sku, n_weeks = 280, 104
sku = np.repeat(np.arange(n_sku), n_weeks)
week = np.tile(np.arange(n_weeks), n_sku)
base = rng.gamma(3, 40, n_sku)[sku]
demand = pd.DataFrame({
    'sku': sku,
    'week': week,
    'price': rng.uniform(5, 60, n_sku)[sku] * rng.normal(1, 0.05, len(sku)),
    'promo': (rng.random(len(sku)) < 0.15).astype(int),
    'warehouse': rng.integers(0, 6, n_sku)[sku],
})
demand['net_units'] = np.round(base * (1 + 0.3 * np.sin(2 * np.pi * week / 52))
                               * (1 + 0.5 * demand['promo']) + rng.normal(0, 8, len(sku))).clip(0)
recalled = (demand['sku'] == 37) & demand['week'].between(89, 95)
demand.loc[recalled, 'net_units'] = -rng.integers(5, 60, recalled.sum())
demand = demand.sort_values(['sku', 'week'], ignore_index=True)
for lag in (1, 2, 4, 8):
    demand[f'lag_{lag}'] = demand.groupby('sku')['net_units'].shift(lag)
demand['roll_mean_4'] = demand.groupby('sku')['net_units'].transform(lambda s: s.shift(1).rolling(4).mean())
demand['week_of_year'] = demand['week'] % 52
features = ['price', 'promo', 'warehouse', 'week_of_year', 'lag_1', 'lag_2', 'lag_4', 'lag_8', 'roll_mean_4']
params = dict(n_estimators=800, max_depth=7, learning_rate=0.05, subsample=0.8,
              colsample_bytree=0.8, objective='reg:squaredlogerror', tree_method='hist', n_jobs=1, random_state=0)
''',
        r'''
cutoffs = [64, 72, 80, 88, 96]
fold_rmse = []
for cutoff in cutoffs:
    tr = demand[(demand['week'] >= 8) & (demand['week'] < cutoff)]
    va = demand[(demand['week'] >= cutoff) & (demand['week'] < cutoff + 8)]
    model = xgb.XGBRegressor(**params)
    model.fit(tr[features], tr['net_units'])
    pred = model.predict(va[features])
    fold_rmse.append(np.sqrt(mean_squared_error(va['net_units'], pred)))

pd.Series(fold_rmse, index=cutoffs, name='rmse_units')
''',
        r'''
cutoffs = [64, 72, 80, 88, 96]
fold_rmse = []
for cutoff in cutoffs:
    tr = demand[(demand['week'] >= 8) & (demand['week'] < cutoff)]
    va = demand[(demand['week'] >= cutoff) & (demand['week'] < cutoff + 8)]
    model = xgb.XGBRegressor(**params)
    model.fit(tr[features], tr['net_units'].clip(lower=0))
    pred = model.predict(va[features])
    fold_rmse.append(np.sqrt(mean_squared_error(va['net_units'], pred)))

pd.Series(fold_rmse, index=cutoffs, name='rmse_units')
''',
    ),
    (
        "lightgbm_earthquake_damage_grade_num_class",
        r'''
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(23)
districts = [f'D{i:02d}' for i in range(1, 21)]
n = 105000
bld = pd.DataFrame({
    'district': rng.choice(districts, n),
    'age_years': rng.integers(0, 120, n),
    'floors': rng.integers(1, 8, n),
    'area_m2': rng.gamma(4, 30, n).round(),
    'foundation': rng.integers(0, 5, n),
    'roof': rng.integers(0, 3, n),
    'mud_mortar': rng.integers(0, 2, n),
    'rc_frame': rng.integers(0, 2, n),
    'pga_g': rng.uniform(0.05, 0.6, n).round(3),
})
score = (0.01 * bld['age_years'] + 0.3 * bld['floors'] + 1.2 * bld['mud_mortar'] - 1.0 * bld['rc_frame']
         + 4 * bld['pga_g'] + rng.normal(0, 0.6, n))
bld['damage_grade'] = pd.cut(score, [-np.inf, 1.4, 2.4, np.inf], labels=[1, 2, 3]).astype(int)
collapsed = (bld['district'] == 'D18') & (score > 3.2)
bld.loc[collapsed, 'damage_grade'] = 4
feature_cols = ['age_years', 'floors', 'area_m2', 'foundation', 'roof', 'mud_mortar', 'rc_frame', 'pga_g']
NUM_GRADES = 3
params = {'objective': 'multiclass', 'num_class': NUM_GRADES, 'learning_rate': 0.05,
          'num_leaves': 31, 'min_data_in_leaf': 20, 'verbose': -1, 'seed': 0, 'num_threads': 1}
''',
        r'''
district_models, district_logloss = {}, {}
for district, d in bld.groupby('district'):
    X_tr, X_va, y_tr, y_va = train_test_split(d[feature_cols], d['damage_grade'] - 1,
                                              test_size=0.25, random_state=0)
    dtrain = lgb.Dataset(X_tr, y_tr, categorical_feature=['foundation', 'roof'])
    dvalid = lgb.Dataset(X_va, y_va, reference=dtrain)
    booster = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dvalid],
                        callbacks=[lgb.early_stopping(30, verbose=False)])
    district_models[district] = booster
    district_logloss[district] = booster.best_score['valid_0']['multi_logloss']

pd.Series(district_logloss).sort_values()
''',
        r'''
params['num_class'] = int(bld['damage_grade'].max())
district_models, district_logloss = {}, {}
for district, d in bld.groupby('district'):
    X_tr, X_va, y_tr, y_va = train_test_split(d[feature_cols], d['damage_grade'] - 1,
                                              test_size=0.25, random_state=0)
    dtrain = lgb.Dataset(X_tr, y_tr, categorical_feature=['foundation', 'roof'])
    dvalid = lgb.Dataset(X_va, y_va, reference=dtrain)
    booster = lgb.train(params, dtrain, num_boost_round=300, valid_sets=[dvalid],
                        callbacks=[lgb.early_stopping(30, verbose=False)])
    district_models[district] = booster
    district_logloss[district] = booster.best_score['valid_0']['multi_logloss']

pd.Series(district_logloss).sort_values()
''',
    ),
    # ----------------------------------------------------------------- SHORT
    (
        "pandas_ecommerce_returns_append_removed",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(101)
n = 2500
returns = pd.DataFrame({
    'order_id': rng.integers(100000, 999999, n),
    'sku': rng.choice(['TSHIRT-M', 'JEANS-32', 'SNEAKER-42', 'HOODIE-L', 'DRESS-S'], n),
    'reason': rng.choice(['size', 'damaged', 'not_as_described', 'changed_mind', 'late'], n),
    'refund_eur': rng.gamma(2, 18, n).round(2),
    'days_after_delivery': rng.integers(0, 31, n),
})
new_requests = [
    {'order_id': 512233, 'sku': 'JEANS-32', 'reason': 'size', 'refund_eur': 49.90, 'days_after_delivery': 3},
    {'order_id': 512871, 'sku': 'HOODIE-L', 'reason': 'damaged', 'refund_eur': 39.00, 'days_after_delivery': 1},
    {'order_id': 513002, 'sku': 'SNEAKER-42', 'reason': 'changed_mind', 'refund_eur': 89.95, 'days_after_delivery': 12},
]
''',
        r'''
for req in new_requests:
    returns = returns.append(req, ignore_index=True)

reason_share = returns['reason'].value_counts(normalize=True)
refund_by_sku = returns.groupby('sku')['refund_eur'].agg(['count', 'sum', 'mean']).sort_values('sum', ascending=False)
refund_by_sku
''',
        r'''
returns = pd.concat([returns, pd.DataFrame(new_requests)], ignore_index=True)

reason_share = returns['reason'].value_counts(normalize=True)
refund_by_sku = returns.groupby('sku')['refund_eur'].agg(['count', 'sum', 'mean']).sort_values('sum', ascending=False)
refund_by_sku
''',
    ),
    (
        "pandas_exam_scores_school_mean_text_columns",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(102)
n = 3000
exams = pd.DataFrame({
    'student_id': np.arange(n),
    'school': rng.choice(['Northfield High', 'Riverside Academy', 'St. Mary', 'Lakeside'], n),
    'gender': rng.choice(['F', 'M'], n),
    'lunch': rng.choice(['standard', 'free/reduced'], n, p=[0.65, 0.35]),
    'math': rng.normal(66, 15, n).clip(0, 100).round(),
    'reading': rng.normal(69, 14, n).clip(0, 100).round(),
    'writing': rng.normal(68, 15, n).clip(0, 100).round(),
})
exams['total'] = exams[['math', 'reading', 'writing']].sum(axis=1)
''',
        r'''
school_summary = exams.drop(columns='student_id').groupby('school').mean()
school_summary = school_summary.sort_values('total', ascending=False)
school_summary.round(1)
''',
        r'''
school_summary = exams.drop(columns='student_id').groupby('school').mean(numeric_only=True)
school_summary = school_summary.sort_values('total', ascending=False)
school_summary.round(1)
''',
    ),
    (
        "pandas_parking_sessions_mixed_timestamp_formats",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(103)
n = 4000
entry = pd.Timestamp('2024-02-01 06:00') + pd.to_timedelta(rng.integers(0, 28 * 24 * 60, n), unit='min')
stay = pd.to_timedelta(rng.gamma(2, 55, n).round(), unit='min')
kiosk = rng.choice(['app', 'machine'], n, p=[0.7, 0.3])
kiosk[0] = 'app'
fmt_entry = np.where(kiosk == 'app', entry.strftime('%Y-%m-%d %H:%M'), entry.strftime('%d/%m/%Y %H:%M'))
fmt_exit = np.where(kiosk == 'app', (entry + stay).strftime('%Y-%m-%d %H:%M'), (entry + stay).strftime('%d/%m/%Y %H:%M'))
parking = pd.DataFrame({
    'session_id': np.arange(n),
    'zone': rng.choice(['A', 'B', 'C', 'D'], n),
    'payment_channel': kiosk,
    'entry_time': fmt_entry,
    'exit_time': fmt_exit,
    'fee_eur': (stay.total_seconds() / 3600 * 2.4).round(2),
})
parking.head()
''',
        r'''
parking['entry_time'] = pd.to_datetime(parking['entry_time'])
parking['exit_time'] = pd.to_datetime(parking['exit_time'])
parking['duration_min'] = (parking['exit_time'] - parking['entry_time']).dt.total_seconds() / 60
parking['entry_hour'] = parking['entry_time'].dt.hour
occupancy = parking.pivot_table(index='entry_hour', columns='zone', values='session_id', aggfunc='count')
occupancy
''',
        r'''
parking['entry_time'] = pd.to_datetime(parking['entry_time'], format='mixed', dayfirst=True)
parking['exit_time'] = pd.to_datetime(parking['exit_time'], format='mixed', dayfirst=True)
parking['duration_min'] = (parking['exit_time'] - parking['entry_time']).dt.total_seconds() / 60
parking['entry_hour'] = parking['entry_time'].dt.hour
occupancy = parking.pivot_table(index='entry_hour', columns='zone', values='session_id', aggfunc='count')
occupancy
''',
    ),
    (
        "numpy_smart_meter_trapz_removed",
        r'''
import numpy as np
import pandas as pd

rng = np.random.default_rng(104)
n_homes, n_days = 200, 30
t = np.arange(96) / 4
profile = 0.3 + 0.5 * np.exp(-((t - 8) ** 2) / 4) + 0.9 * np.exp(-((t - 19) ** 2) / 6)
power_kw = (profile[None, None, :] * rng.gamma(4, 0.25, (n_homes, 1, 1))
            * rng.normal(1, 0.15, (n_homes, n_days, 96))).clip(0)
home_ids = [f'H{i:04d}' for i in range(n_homes)]
''',
        r'''
daily_kwh = np.trapz(power_kw, dx=0.25, axis=2)
monthly_kwh = daily_kwh.sum(axis=1)
peak_share = power_kw[:, :, 68:84].sum(axis=2).sum(axis=1) / power_kw.sum(axis=(1, 2))
usage = pd.DataFrame({'home_id': home_ids, 'monthly_kwh': monthly_kwh, 'peak_share': peak_share})
usage.describe()
''',
        r'''
daily_kwh = np.trapezoid(power_kw, dx=0.25, axis=2)
monthly_kwh = daily_kwh.sum(axis=1)
peak_share = power_kw[:, :, 68:84].sum(axis=2).sum(axis=1) / power_kw.sum(axis=(1, 2))
usage = pd.DataFrame({'home_id': home_ids, 'monthly_kwh': monthly_kwh, 'peak_share': peak_share})
usage.describe()
''',
    ),
    (
        "numpy_farm_plot_yield_int_array_nan",
        r'''
import numpy as np

rng = np.random.default_rng(105)
n_plots = 480
plot_yield = rng.poisson(52, n_plots)
fertilizer = rng.choice(['none', 'organic', 'npk'], n_plots)
irrigated = rng.random(n_plots) < 0.45
hail_damaged = rng.random(n_plots) < 0.06
plot_yield.dtype, hail_damaged.sum()
''',
        r'''
plot_yield[hail_damaged] = np.nan
yield_by_treatment = {}
for treat in ['none', 'organic', 'npk']:
    for irr in (False, True):
        mask = (fertilizer == treat) & (irrigated == irr)
        yield_by_treatment[(treat, irr)] = np.nanmean(plot_yield[mask])
yield_by_treatment
''',
        r'''
plot_yield = plot_yield.astype(float)
plot_yield[hail_damaged] = np.nan
yield_by_treatment = {}
for treat in ['none', 'organic', 'npk']:
    for irr in (False, True):
        mask = (fertilizer == treat) & (irrigated == irr)
        yield_by_treatment[(treat, irr)] = np.nanmean(plot_yield[mask])
yield_by_treatment
''',
    ),
    (
        "sklearn_insurance_claims_onehot_sparse_kwarg",
        r'''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import PoissonRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(106)
n = 3000
policies = pd.DataFrame({
    'driver_age': rng.integers(18, 85, n),
    'vehicle_age': rng.integers(0, 20, n),
    'bonus_malus': rng.integers(50, 150, n),
    'region': rng.choice(['R11', 'R24', 'R52', 'R82', 'R93'], n),
    'vehicle_brand': rng.choice(['B1', 'B2', 'B3', 'B5', 'B12'], n),
    'fuel': rng.choice(['Diesel', 'Regular'], n),
})
policies['claims'] = rng.poisson(np.exp(-2.5 + 0.01 * (policies['bonus_malus'] - 100)))
cat_cols = ['region', 'vehicle_brand', 'fuel']
num_cols = ['driver_age', 'vehicle_age', 'bonus_malus']
''',
        r'''
preprocess = ColumnTransformer([
    ('cat', OneHotEncoder(handle_unknown='ignore', sparse=False), cat_cols),
    ('num', StandardScaler(), num_cols),
])
glm = Pipeline([('prep', preprocess), ('model', PoissonRegressor(alpha=1e-3, max_iter=300))])
glm.fit(policies[cat_cols + num_cols], policies['claims'])
glm.score(policies[cat_cols + num_cols], policies['claims'])
''',
        r'''
preprocess = ColumnTransformer([
    ('cat', OneHotEncoder(handle_unknown='ignore', sparse_output=False), cat_cols),
    ('num', StandardScaler(), num_cols),
])
glm = Pipeline([('prep', preprocess), ('model', PoissonRegressor(alpha=1e-3, max_iter=300))])
glm.fit(policies[cat_cols + num_cols], policies['claims'])
glm.score(policies[cat_cols + num_cols], policies['claims'])
''',
    ),
    (
        "sklearn_hotel_bookings_label_encoder_unseen_test",
        r'''
import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

rng = np.random.default_rng(107)
def make_bookings(n, meal_plans):
    return pd.DataFrame({
        'lead_time': rng.integers(0, 300, n),
        'adr': rng.gamma(5, 20, n).round(2),
        'meal': rng.choice(meal_plans, n),
        'market_segment': rng.choice(['Online TA', 'Offline TA/TO', 'Direct', 'Corporate', 'Groups'], n),
        'deposit_type': rng.choice(['No Deposit', 'Non Refund', 'Refundable'], n, p=[0.85, 0.13, 0.02]),
        'is_canceled': rng.integers(0, 2, n),
    })
train = make_bookings(6000, ['BB', 'HB', 'SC', 'Undefined'])
test = make_bookings(1500, ['BB', 'HB', 'SC', 'FB'])
cat_cols = ['meal', 'market_segment', 'deposit_type']
''',
        r'''
encoders = {}
for col in cat_cols:
    le = LabelEncoder()
    train[col] = le.fit_transform(train[col])
    test[col] = le.transform(test[col])
    encoders[col] = le
train.head()
''',
        r'''
encoders = {}
for col in cat_cols:
    le = LabelEncoder()
    le.fit(pd.concat([train[col], test[col]]))
    train[col] = le.transform(train[col])
    test[col] = le.transform(test[col])
    encoders[col] = le
train.head()
''',
    ),
    (
        "sklearn_support_tickets_stratify_singleton_class",
        r'''
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(108)
words = {
    'billing': ['invoice', 'charge', 'refund', 'payment', 'card'],
    'login': ['password', 'reset', 'locked', 'account', '2fa'],
    'shipping': ['parcel', 'delivery', 'courier', 'tracking', 'late'],
    'bug': ['crash', 'error', 'freeze', 'button', 'page'],
    'legal': ['gdpr', 'lawyer', 'contract', 'erasure', 'complaint'],
}
cats = rng.choice(['billing', 'login', 'shipping', 'bug'], 1800, p=[0.3, 0.25, 0.25, 0.2]).tolist() + ['legal']
texts = [' '.join(rng.choice(words[c], 6)) + ' please help' for c in cats]
tickets = pd.DataFrame({'text': texts, 'category': cats})
tickets['category'].value_counts()
''',
        r'''
X_train, X_test, y_train, y_test = train_test_split(
    tickets['text'], tickets['category'], test_size=0.2, stratify=tickets['category'], random_state=42)
vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2)
clf = LogisticRegression(max_iter=1000).fit(vec.fit_transform(X_train), y_train)
clf.score(vec.transform(X_test), y_test)
''',
        r'''
counts = tickets['category'].value_counts()
tickets = tickets[tickets['category'].map(counts) >= 2]
X_train, X_test, y_train, y_test = train_test_split(
    tickets['text'], tickets['category'], test_size=0.2, stratify=tickets['category'], random_state=42)
vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2)
clf = LogisticRegression(max_iter=1000).fit(vec.fit_transform(X_train), y_train)
clf.score(vec.transform(X_test), y_test)
''',
    ),
    (
        "keras_review_sentiment_adam_lr_kwarg",
        r'''
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(109)
rng = np.random.default_rng(109)
VOCAB, MAXLEN = 2000, 60
n = 2000
sentiment = rng.integers(0, 2, n)
seqs = rng.integers(2, VOCAB, (n, MAXLEN))
seqs[sentiment == 1, :5] = rng.integers(2, 50, (int(sentiment.sum()), 5))
model = keras.Sequential([
    keras.Input(shape=(MAXLEN,)),
    layers.Embedding(VOCAB, 32),
    layers.GlobalAveragePooling1D(),
    layers.Dense(16, activation='relu'),
    layers.Dense(1, activation='sigmoid'),
])
''',
        r'''
model.compile(optimizer=keras.optimizers.Adam(lr=3e-4), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(seqs, sentiment, validation_split=0.2, epochs=2, batch_size=64, verbose=0)
history.history['val_accuracy'][-1]
''',
        r'''
model.compile(optimizer=keras.optimizers.Adam(learning_rate=3e-4), loss='binary_crossentropy', metrics=['accuracy'])
history = model.fit(seqs, sentiment, validation_split=0.2, epochs=2, batch_size=64, verbose=0)
history.history['val_accuracy'][-1]
''',
    ),
    (
        "torch_land_cover_patches_channels_last",
        r'''
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(110)
rng = np.random.default_rng(110)
patches = rng.integers(0, 256, (256, 64, 64, 3), dtype=np.uint8)
labels = rng.integers(0, 5, 256)
CLASSES = ['forest', 'water', 'urban', 'cropland', 'bare']
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(32, len(CLASSES)),
)
''',
        r'''
xb = torch.tensor(patches[:32], dtype=torch.float32) / 255.0
yb = torch.tensor(labels[:32])
logits = model(xb)
loss = nn.functional.cross_entropy(logits, yb)
loss.backward()
loss.item()
''',
        r'''
xb = torch.tensor(patches[:32], dtype=torch.float32).permute(0, 3, 1, 2) / 255.0
yb = torch.tensor(labels[:32])
logits = model(xb)
loss = nn.functional.cross_entropy(logits, yb)
loss.backward()
loss.item()
''',
    ),
    (
        "torch_taxi_fare_checkpoint_weights_only",
        r'''
import numpy as np
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler

torch.manual_seed(111)
rng = np.random.default_rng(111)
X = np.column_stack([rng.exponential(4, 2000), rng.integers(0, 24, 2000), rng.integers(1, 5, 2000)]).astype('float32')
fare = (3 + 2.1 * X[:, 0] + 0.4 * (X[:, 1] > 20) + rng.normal(0, 1, 2000)).astype('float32')
scaler = StandardScaler().fit(X)
net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
Xt, yt = torch.tensor(scaler.transform(X), dtype=torch.float32), torch.tensor(fare)
for _ in range(100):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(Xt).squeeze(1), yt)
    loss.backward()
    opt.step()
torch.save({'state_dict': net.state_dict(), 'scaler': scaler,
            'features': ['trip_km', 'pickup_hour', 'passengers']}, 'fare_model.pt')
''',
        r'''
ckpt = torch.load('fare_model.pt')
reloaded = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
reloaded.load_state_dict(ckpt['state_dict'])
new_trips = np.array([[2.5, 8, 1], [12.0, 23, 2]], dtype='float32')
with torch.no_grad():
    pred = reloaded(torch.tensor(ckpt['scaler'].transform(new_trips), dtype=torch.float32)).squeeze(1)
pred
''',
        r'''
ckpt = torch.load('fare_model.pt', weights_only=False)
reloaded = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
reloaded.load_state_dict(ckpt['state_dict'])
new_trips = np.array([[2.5, 8, 1], [12.0, 23, 2]], dtype='float32')
with torch.no_grad():
    pred = reloaded(torch.tensor(ckpt['scaler'].transform(new_trips), dtype=torch.float32)).squeeze(1)
pred
''',
    ),
    (
        "matplotlib_retail_sales_removed_seaborn_style",
        r'''
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

rng = np.random.default_rng(112)
months = pd.period_range('2022-01', '2024-12', freq='M').to_timestamp()
sales = pd.DataFrame({
    'month': np.tile(months, 3),
    'store': np.repeat(['Downtown', 'Mall', 'Airport'], len(months)),
})
sales['revenue_k'] = (120 + 25 * np.sin(2 * np.pi * sales['month'].dt.month / 12)
                      + rng.normal(0, 8, len(sales))).round(1)
''',
        r'''
plt.style.use('seaborn-whitegrid')
fig, ax = plt.subplots(figsize=(11, 4))
for store, g in sales.groupby('store'):
    ax.plot(g['month'], g['revenue_k'], marker='o', ms=3, label=store)
ax.set_title('Monthly revenue by store (k EUR)')
ax.legend()
plt.tight_layout()
''',
        r'''
plt.style.use('seaborn-v0_8-whitegrid')
fig, ax = plt.subplots(figsize=(11, 4))
for store, g in sales.groupby('store'):
    ax.plot(g['month'], g['revenue_k'], marker='o', ms=3, label=store)
ax.set_title('Monthly revenue by store (k EUR)')
ax.legend()
plt.tight_layout()
''',
    ),
    (
        "seaborn_heart_disease_corr_heatmap_text_column",
        r'''
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns

rng = np.random.default_rng(113)
n = 900
heart = pd.DataFrame({
    'age': rng.integers(29, 78, n),
    'sex': rng.choice(['M', 'F'], n, p=[0.68, 0.32]),
    'chest_pain': rng.choice(['ATA', 'NAP', 'ASY', 'TA'], n),
    'resting_bp': rng.normal(132, 18, n).round(),
    'cholesterol': rng.normal(240, 50, n).round(),
    'max_hr': rng.normal(140, 25, n).round(),
    'oldpeak': rng.exponential(0.9, n).round(1),
})
heart['heart_disease'] = (rng.random(n) < 0.3 + 0.004 * (heart['age'] - 50)).astype(int)
''',
        r'''
plt.figure(figsize=(8, 6))
sns.heatmap(heart.corr(), annot=True, fmt='.2f', cmap='coolwarm', vmin=-1, vmax=1)
plt.title('Feature correlations')
plt.tight_layout()
''',
        r'''
plt.figure(figsize=(8, 6))
sns.heatmap(heart.corr(numeric_only=True), annot=True, fmt='.2f', cmap='coolwarm', vmin=-1, vmax=1)
plt.title('Feature correlations')
plt.tight_layout()
''',
    ),
    (
        "python_football_match_events_jsonl_blank_lines",
        r'''
import json
import random
from collections import Counter

random.seed(114)
players = ['Silva', 'Okafor', 'Muller', 'Haaland', 'Pedri', 'Rice', 'Kane', 'Saka']
with open('match_events.jsonl', 'w') as f:
    for i in range(3000):
        ev = {'match_id': 1000 + i // 150, 'minute': random.randint(1, 95),
              'type': random.choice(['pass', 'shot', 'foul', 'tackle', 'pass', 'pass']),
              'player': random.choice(players), 'xg': round(random.random() * 0.4, 3)}
        f.write(json.dumps(ev) + '\n')
        if (i + 1) % 150 == 0:
            f.write('\n')
''',
        r'''
with open('match_events.jsonl') as f:
    events = [json.loads(line) for line in f]

shots = [e for e in events if e['type'] == 'shot']
xg_by_player = Counter()
for e in shots:
    xg_by_player[e['player']] += e['xg']
xg_by_player.most_common(5)
''',
        r'''
with open('match_events.jsonl') as f:
    events = [json.loads(line) for line in f if line.strip()]

shots = [e for e in events if e['type'] == 'shot']
xg_by_player = Counter()
for e in shots:
    xg_by_player[e['player']] += e['xg']
xg_by_player.most_common(5)
''',
    ),
    (
        "python_flight_delays_airport_region_lookup",
        r'''
import random
import statistics

random.seed(115)
airports = ['ATL', 'ORD', 'DFW', 'DEN', 'LAX', 'JFK', 'SEA', 'MIA', 'BOS', 'PHX']
flights = [{'origin': random.choice(airports), 'dep_delay_min': max(-10, int(random.gauss(12, 25)))}
           for _ in range(5000)]
flights[3721]['origin'] = 'SAV'
hub_region = {'ATL': 'Southeast', 'MIA': 'Southeast', 'ORD': 'Midwest', 'DFW': 'South',
              'DEN': 'Mountain', 'PHX': 'Mountain', 'LAX': 'West', 'SEA': 'West',
              'JFK': 'Northeast', 'BOS': 'Northeast'}
''',
        r'''
delays_by_region = {}
for fl in flights:
    region = hub_region[fl['origin']]
    delays_by_region.setdefault(region, []).append(fl['dep_delay_min'])

summary = {r: (len(d), round(statistics.mean(d), 1), statistics.median(d)) for r, d in delays_by_region.items()}
summary
''',
        r'''
delays_by_region = {}
for fl in flights:
    region = hub_region.get(fl['origin'], 'Other')
    delays_by_region.setdefault(region, []).append(fl['dep_delay_min'])

summary = {r: (len(d), round(statistics.mean(d), 1), statistics.median(d)) for r, d in delays_by_region.items()}
summary
''',
    ),
]
