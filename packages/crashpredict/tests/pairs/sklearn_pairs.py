"""scikit-learn crash / fix pairs: NaN/inf/strings to estimators, sample counts, target types
for classifiers and metrics, feature counts after transforms."""

SETUP = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression, LinearRegression
from sklearn.ensemble import RandomForestClassifier
from sklearn.preprocessing import StandardScaler, OneHotEncoder, MinMaxScaler, LabelEncoder
from sklearn.decomposition import PCA
from sklearn.compose import ColumnTransformer
from sklearn.model_selection import train_test_split
from sklearn.metrics import accuracy_score, f1_score, precision_score, confusion_matrix
from sklearn.impute import SimpleImputer
rng = np.random.default_rng(0)
n = 200
df = pd.DataFrame({'age': rng.normal(40, 12, n), 'income': rng.normal(50, 15, n),
                   'city': rng.choice(['a', 'b', 'c'], n), 'score': rng.normal(size=n),
                   'label': rng.integers(0, 2, n), 'grade': rng.integers(0, 4, n)})
df.loc[::17, 'income'] = np.nan
test_df = df.sample(40, random_state=1)
enc = OneHotEncoder(sparse_output=False).fit(df[['city']])
clf_city = LogisticRegression().fit(enc.transform(df[['city']]), df['label'])
lr3 = LinearRegression().fit(df[['age', 'score', 'grade']].values, df['label'])
ct = ColumnTransformer([('num', StandardScaler(), ['age', 'score']),
                        ('cat', OneHotEncoder(), ['city'])]).fit(df)
clf_ct = LogisticRegression().fit(ct.transform(df), df['label'])
"""

PAIRS = [
    ("NaN reaching LogisticRegression",
     "model = LogisticRegression().fit(df[['age', 'income']], df['label'])",
     "model = LogisticRegression().fit(df[['age', 'income']].fillna(0), df['label'])"),
    ("a text column reaching a random forest",
     "rf = RandomForestClassifier(n_estimators=10).fit(df.drop(columns='label'), df['label'])",
     "rf = RandomForestClassifier(n_estimators=10).fit(df.drop(columns=['label', 'city']),"
     " df['label'])"),
    ("labels cut short",
     "reg = LinearRegression().fit(df[['age']], df['score'][:150])",
     "reg = LinearRegression().fit(df[['age']], df['score'])"),
    ("a continuous target for a classifier",
     "clf = LogisticRegression().fit(df[['age']], df['score'])",
     "clf = LogisticRegression().fit(df[['age']], df['label'])"),
    ("accuracy of a regressor's continuous predictions",
     "reg = LinearRegression().fit(df[['age']], df['label'])\n"
     "acc = accuracy_score(df['label'], reg.predict(df[['age']]))",
     "reg = LinearRegression().fit(df[['age']], df['label'])\n"
     "acc = accuracy_score(df['label'], (reg.predict(df[['age']]) > 0.5).astype(int))"),
    ("binary F1 on a four-class target",
     "clf = LogisticRegression(max_iter=500).fit(df[['age', 'score']], df['grade'])\n"
     "f1 = f1_score(df['grade'], clf.predict(df[['age', 'score']]))",
     "clf = LogisticRegression(max_iter=500).fit(df[['age', 'score']], df['grade'])\n"
     "f1 = f1_score(df['grade'], clf.predict(df[['age', 'score']]), average='macro')"),
    ("one-hot columns stacked with an extra feature",
     "X_new = np.hstack([enc.transform(test_df[['city']]), test_df[['age']].values])\n"
     "pred = clf_city.predict(X_new)",
     "X_new = enc.transform(test_df[['city']])\npred = clf_city.predict(X_new)"),
    ("PCA to fewer components than the model was fitted on",
     "Z = PCA(n_components=2).fit_transform(df[['age', 'score', 'grade']])\npred = lr3.predict(Z)",
     "Z = PCA(n_components=3).fit_transform(df[['age', 'score', 'grade']])\npred = lr3.predict(Z)"),
    ("raw columns instead of the ColumnTransformer's output",
     "pred = clf_ct.predict(test_df[['age', 'score']])",
     "pred = clf_ct.predict(ct.transform(test_df))"),
    ("scaled training data, unscaled wider test data",
     "X_s = StandardScaler().fit_transform(df[['age', 'score']])\n"
     "clf = LogisticRegression().fit(X_s, df['label'])\n"
     "pred = clf.predict(df[['age', 'score', 'grade']].values)",
     "X_s = StandardScaler().fit_transform(df[['age', 'score']])\n"
     "clf = LogisticRegression().fit(X_s, df['label'])\npred = clf.predict(X_s)"),
    ("a ratio with division by zero reaching a regression",
     "ratio = df[['age']].values / df[['grade']].values\n"
     "reg = LinearRegression().fit(ratio, df['label'])",
     "ratio = df[['age']].values / (df[['grade']].values + 1)\n"
     "reg = LinearRegression().fit(ratio, df['label'])"),
    ("an unknown category at transform time",
     "codes = enc.transform(pd.DataFrame({'city': ['a', 'zz']}))",
     "codes = enc.transform(pd.DataFrame({'city': ['a', 'b']}))"),
    ("a scaler fitted on two columns given three",
     "sc = StandardScaler().fit(df[['age', 'score']])\n"
     "out = sc.transform(df[['age', 'score', 'grade']].values)",
     "sc = StandardScaler().fit(df[['age', 'score']])\n"
     "out = sc.transform(df[['age', 'score']].values)"),
    ("training features with test labels after a split",
     "X_tr, X_te, y_tr, y_te = train_test_split(df[['age', 'score']], df['label'],"
     " test_size=0.25, random_state=0)\nclf = LogisticRegression().fit(X_tr, y_te)",
     "X_tr, X_te, y_tr, y_te = train_test_split(df[['age', 'score']], df['label'],"
     " test_size=0.25, random_state=0)\nclf = LogisticRegression().fit(X_tr, y_tr)"),
    ("predict before fit",
     "model = RandomForestClassifier()\npred = model.predict(df[['age', 'score']])",
     "model = RandomForestClassifier()\nmodel.fit(df[['age', 'score']], df['label'])\n"
     "pred = model.predict(df[['age', 'score']])"),
    ("MinMaxScaler over the text column",
     "scaled = MinMaxScaler().fit_transform(df[['age', 'city']])",
     "scaled = MinMaxScaler().fit_transform(df[['age', 'score']])"),
    ("imputed income still stacked with a NaN column",
     "filled = SimpleImputer().fit_transform(df[['income']])\n"
     "X2 = np.hstack([filled, df[['income']].values])\n"
     "reg = LinearRegression().fit(X2, df['score'])",
     "filled = SimpleImputer().fit_transform(df[['income']])\n"
     "X2 = np.hstack([filled, df[['age']].values])\n"
     "reg = LinearRegression().fit(X2, df['score'])"),
    ("precision on string labels without pos_label",
     "y_true = np.where(df['label'] == 1, 'yes', 'no')\n"
     "p = precision_score(y_true, y_true)",
     "y_true = np.where(df['label'] == 1, 'yes', 'no')\n"
     "p = precision_score(y_true, y_true, pos_label='yes')"),
    ("accuracy of a fitted regression's raw predictions",
     "raw = lr3.predict(df[['age', 'score', 'grade']].values)\nacc = accuracy_score(df['label'], raw)",
     "raw = lr3.predict(df[['age', 'score', 'grade']].values)\n"
     "acc = accuracy_score(df['label'], (raw > 0.5).astype(int))"),
    ("accuracy of class probabilities",
     "probs = clf_ct.predict_proba(ct.transform(test_df))\nacc = accuracy_score(test_df['label'], probs)",
     "probs = clf_ct.predict_proba(ct.transform(test_df))\n"
     "acc = accuracy_score(test_df['label'], probs.argmax(axis=1))"),
    ("one-hot codes given to the model fitted on the full transform",
     "X_enc = enc.transform(test_df[['city']])\npred = clf_ct.predict(X_enc)",
     "X_enc = enc.transform(test_df[['city']])\npred = clf_city.predict(X_enc)"),
    ("the codes of an ignored unknown category indexed past their width",
     "enc2 = OneHotEncoder(handle_unknown='ignore').fit(df[['city']])\n"
     "codes = enc2.transform(pd.DataFrame({'city': ['zz']}))\nfirst = codes[0, 3]",
     "enc2 = OneHotEncoder(handle_unknown='ignore').fit(df[['city']])\n"
     "codes = enc2.transform(pd.DataFrame({'city': ['zz']}))\nfirst = codes[0, 2]"),
    ("refitting on the stacked features, then predicting on the narrow ones",
     "X_new = np.hstack([enc.transform(test_df[['city']]), test_df[['age']].values])\n"
     "m = LogisticRegression().fit(X_new, test_df['label'])\npred = m.predict(X_new[:, :3])",
     "X_new = np.hstack([enc.transform(test_df[['city']]), test_df[['age']].values])\n"
     "m = LogisticRegression().fit(X_new, test_df['label'])\npred = m.predict(X_new)"),
    ("scaled features predicted by a model fitted on raw columns with names",
     "X_s = MinMaxScaler().fit_transform(test_df[['age', 'score', 'grade']])\n"
     "pred = lr3.predict(X_s[:, 1:])",
     "X_s = MinMaxScaler().fit_transform(test_df[['age', 'score', 'grade']])\n"
     "pred = lr3.predict(X_s)"),
    ("test-set predictions stored in the training frame",
     "df['pred'] = clf_ct.predict(ct.transform(test_df))",
     "test_df['pred'] = clf_ct.predict(ct.transform(test_df))"),
    ("a scaler given the text labels an encoder would take",
     "codes = StandardScaler().fit_transform(df[['city']].values)",
     "codes = LabelEncoder().fit_transform(df['city'].values)"),
    ("the mean of a text column imputed",
     "filled = SimpleImputer().fit_transform(df[['city']])",
     "filled = SimpleImputer(strategy='most_frequent').fit_transform(df[['city']])"),
    ("one-hot codes of predicted labels, then a model fitted on them and the text",
     "p = clf_city.predict(enc.transform(test_df[['city']]))\n"
     "Z = np.column_stack([p, test_df['city'].values])\nm = LinearRegression().fit(Z, test_df['score'])",
     "p = clf_city.predict(enc.transform(test_df[['city']]))\n"
     "Z = np.column_stack([p, test_df['age'].values])\nm = LinearRegression().fit(Z, test_df['score'])"),
    ("a scaled array used like a DataFrame",
     "X_s = StandardScaler().fit_transform(df[['age', 'score']])\nprint(X_s.head())",
     "X_s = StandardScaler().fit_transform(df[['age', 'score']])\n"
     "print(pd.DataFrame(X_s, columns=['age', 'score']).head())"),
    ("predictions treated as a Series",
     "pred = clf_city.predict(enc.transform(test_df[['city']]))\ncounts = pred.value_counts()",
     "pred = clf_city.predict(enc.transform(test_df[['city']]))\n"
     "counts = pd.Series(pred).value_counts()"),
    ("an unseeded split of arrays, fitted on the test labels",
     "Xa, ya = df[['age', 'score']].values, df['label'].values\n"
     "X_tr, X_te, y_tr, y_te = train_test_split(Xa, ya, test_size=0.2)\n"
     "clf = LogisticRegression().fit(X_tr, y_te)",
     "Xa, ya = df[['age', 'score']].values, df['label'].values\n"
     "X_tr, X_te, y_tr, y_te = train_test_split(Xa, ya, test_size=0.2)\n"
     "clf = LogisticRegression().fit(X_tr, y_tr)"),
    ("an unseeded split, then predicting on one column",
     "Xa = df[['age', 'score']].values\nX_tr, X_te = train_test_split(Xa, test_size=0.3)\n"
     "m = LinearRegression().fit(X_tr, X_tr[:, 0] * 2)\npred = m.predict(X_te[:, :1])",
     "Xa = df[['age', 'score']].values\nX_tr, X_te = train_test_split(Xa, test_size=0.3)\n"
     "m = LinearRegression().fit(X_tr, X_tr[:, 0] * 2)\npred = m.predict(X_te)"),
    ("a test size larger than the data",
     "parts = train_test_split(df[['age']].values, test_size=500)",
     "parts = train_test_split(df[['age']].values, test_size=50)"),
    ("a dense encoder fitted in the cell, its codes widened before predicting",
     "enc3 = OneHotEncoder(sparse_output=False).fit(df[['city']])\n"
     "X3 = np.hstack([enc3.transform(test_df[['city']]), test_df[['age']].values])\n"
     "pred = clf_city.predict(X3)",
     "enc3 = OneHotEncoder(sparse_output=False).fit(df[['city']])\n"
     "X3 = enc3.transform(test_df[['city']])\npred = clf_city.predict(X3)"),
    ("get_feature_names after fitting the encoder in the cell",
     "enc2 = OneHotEncoder(handle_unknown='ignore')\nenc2.fit(df[['city']])\n"
     "names = enc2.get_feature_names()",
     "enc2 = OneHotEncoder(handle_unknown='ignore')\nenc2.fit(df[['city']])\n"
     "names = enc2.get_feature_names_out()"),
    ("get_feature_names of a scaler fitted in the cell (its fitted scale_ is read clean)",
     "scaler = StandardScaler()\nscaler.fit(df[['age', 'score']])\nscaler.get_feature_names()",
     "scaler = StandardScaler()\nscaler.fit(df[['age', 'score']])\nscale = scaler.scale_"),
]
