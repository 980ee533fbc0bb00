"""A typical, working Kaggle-style notebook walked in a real kernel: no false alarm.

Each cell is predicted inside the kernel before it runs; every prediction must be "no
crash" since every cell succeeds. Data is generated inline.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from crashpredict import walk_notebook

pytestmark = [pytest.mark.kernel, pytest.mark.slow]

CELLS = [
"""%matplotlib inline
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns
from sklearn.model_selection import train_test_split, GridSearchCV
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, confusion_matrix
import warnings
warnings.filterwarnings('ignore')""",
"""rng = np.random.default_rng(1)
n = 200
df = pd.DataFrame({'PassengerId': range(n), 'Pclass': rng.integers(1, 4, n), 'Sex': rng.choice(['male', 'female'], n),
                   'Age': rng.normal(30, 10, n), 'SibSp': rng.integers(0, 3, n), 'Parch': rng.integers(0, 3, n),
                   'Fare': rng.gamma(2, 10, n), 'Embarked': rng.choice(['S', 'C', 'Q'], n), 'Survived': rng.integers(0, 2, n)})
df.loc[::7, 'Age'] = np.nan
df.loc[::50, 'Embarked'] = np.nan""",
"df.head()",
"df.info()\ndf.describe()",
"df.isnull().sum()",
"df['Age'] = df['Age'].fillna(df['Age'].median())\ndf['Embarked'].fillna(df['Embarked'].mode()[0], inplace=True)",
"df['FamilySize'] = df['SibSp'] + df['Parch'] + 1\ndf['IsAlone'] = (df['FamilySize'] == 1).astype(int)\ndf[['FamilySize', 'IsAlone']].describe()",
"sns.countplot(x='Survived', hue='Sex', data=df)\nplt.title('Survival by sex')\nplt.show()",
"fig, axes = plt.subplots(1, 2, figsize=(10, 4))\naxes[0].hist(df['Age'], bins=20)\naxes[1].hist(df['Fare'], bins=20)\nplt.show()",
"df = pd.get_dummies(df, columns=['Sex', 'Embarked'], drop_first=True)\ndf.columns",
"plt.figure(figsize=(8, 6))\nsns.heatmap(df.corr(), annot=False)\nplt.show()",
"X = df.drop(['Survived', 'PassengerId'], axis=1)\ny = df['Survived']\nX.shape, y.shape",
"X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42)",
"scaler = StandardScaler()\nX_train_s = scaler.fit_transform(X_train)\nX_test_s = scaler.transform(X_test)",
"""models = {'lr': LogisticRegression(max_iter=500), 'rf': RandomForestClassifier(n_estimators=30, random_state=0)}
scores = {}
for name, model in models.items():
    model.fit(X_train_s, y_train)
    scores[name] = accuracy_score(y_test, model.predict(X_test_s))
    print(name, scores[name])""",
"""rf = models['rf']
importances = pd.Series(rf.feature_importances_, index=X.columns).sort_values()
importances.plot(kind='barh')
plt.show()""",
"cm = confusion_matrix(y_test, rf.predict(X_test_s))\nsns.heatmap(cm, annot=True, fmt='d')\nplt.show()",
"param_grid = {'n_estimators': [10, 20], 'max_depth': [3, None]}\ngs = GridSearchCV(RandomForestClassifier(random_state=0), param_grid, cv=3)\ngs.fit(X_train_s, y_train)\ngs.best_params_",
"preds = gs.predict(X_test_s)\nsubmission = pd.DataFrame({'PassengerId': X_test.index, 'Survived': preds})\nsubmission.to_csv('submission.csv', index=False)",
"sub = pd.read_csv('submission.csv')\nsub.head()",
"""def add_ratio(d, col='Fare'):
    d = d.copy()
    d['Ratio'] = d[col] / d['FamilySize']
    return d
df2 = add_ratio(df)
df2['Ratio'].describe()""",
"""import torch
from torch import nn
t = torch.tensor(X_train_s, dtype=torch.float32)
target = torch.tensor(y_train.values)
net = nn.Sequential(nn.Linear(t.shape[1], 16), nn.ReLU(), nn.Linear(16, 2))
out = net(t)
loss = nn.CrossEntropyLoss()(out, target)
loss.backward()
loss.item()""",
"for col in ['Age', 'Fare', 'FamilySize']:\n    print(col, round(df[col].mean(), 2))",
"""class Summary:
    def __init__(self, frame):
        self.frame = frame
        self.rows = len(frame)
    def describe(self):
        return f'{self.rows} rows'
s = Summary(df)
s.describe(), s.rows""",
"df.groupby('Pclass')['Survived'].mean().plot.bar()\nplt.show()",
"acc = scores['rf']\nprint(f'Accuracy: {acc:.2f}')\nprint('Accuracy: %.2f' % acc)\nprint('Accuracy: ' + str(acc))",
"arr = np.array(df['Fare']).reshape(-1, 1)\narr.shape",
"df.loc[df['Age'] > 40, 'Old'] = 1\ndf['Old'] = df['Old'].fillna(0)\ndf['Old'].sum()",
"del df2\ndf['Fare'].apply(lambda v: v * 2).head()",
"cfg = {'lr': 0.01}\ncfg['epochs'] = 5\ncfg['epochs'] * cfg['lr']",
"!ls | head -3",
"results = pd.DataFrame(list(scores.items()), columns=['model', 'acc'])\nresults.sort_values('acc', ascending=False)",
"x_vals = np.linspace(0, 1, 10)\ny_vals = x_vals ** 2\nplt.plot(x_vals, y_vals)\nplt.subplot(1, 2, 1)\nplt.show()",
"df.drop(columns=['Old'], inplace=True)\n'Old' in df.columns",
"merged = df.merge(sub, on='PassengerId', how='left')\nmerged.shape",
]


# A deep-learning and pipeline notebook: values computed in the cells (random arrays,
# layer outputs, transforms, predictions) flow through the propagation layer.
DL_CELLS = [
"""import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
rng = np.random.default_rng(0)""",
"""X = rng.normal(size=(256, 1, 28, 28)).astype('float32')
y = rng.integers(0, 10, 256)
X_t, y_t = torch.from_numpy(X), torch.from_numpy(y)
loader = DataLoader(TensorDataset(X_t, y_t), batch_size=32, shuffle=True)
X_t.shape, y_t.dtype""",
"""class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(16 * 6 * 6, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = CNN().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
out = model(X_t[:4].to(device))
out.shape""",
"""for epoch in range(2):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
    print(epoch, loss.item())""",
"""model.eval()
with torch.no_grad():
    logits = model(X_t.to(device))
    preds = logits.argmax(dim=1).cpu().numpy()
acc = (preds == y).mean()
probs = F.softmax(logits, dim=1)
probs.sum(dim=1)[:3]""",
"""head = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 32), nn.ReLU(), nn.Dropout(0.1),
                     nn.Linear(32, 10))
emb = nn.Embedding(10, 4)
vecs = emb(y_t[:8])
seq = nn.LSTM(4, 6, batch_first=True)
seq_out, (h, c) = seq(vecs.unsqueeze(0))
h.shape, head(X_t[:2]).shape""",
"""W = np.random.randn(4, 3)
A = rng.normal(size=(50, 4))
B = A @ W + np.random.rand(3)
Z = (B - B.mean(axis=0)) / B.std(axis=0)
np.concatenate([Z, A], axis=1).shape, Z.T.dot(Z).shape""",
"""fig, axes = plt.subplots(2, 3, figsize=(9, 5))
for i, ax in enumerate(axes.flat):
    ax.imshow(X[i, 0], cmap='gray')
    ax.set_title(str(y[i]))
axes[1, 2].axis('off')
fig2, ax = plt.subplots()
ax.plot(np.arange(10), np.random.rand(10))
plt.close('all')""",
"""from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.decomposition import PCA
from sklearn.metrics import accuracy_score, f1_score, r2_score, roc_auc_score
df = pd.DataFrame({'num1': rng.normal(size=300), 'num2': rng.normal(size=300),
                   'cat': rng.choice(['a', 'b', 'c'], 300), 'target': rng.integers(0, 2, 300)})
df.loc[::13, 'num2'] = np.nan
pre = ColumnTransformer([('num', Pipeline([('imp', SimpleImputer()), ('sc', StandardScaler())]),
                          ['num1', 'num2']), ('cat', OneHotEncoder(handle_unknown='ignore'), ['cat'])])
clf = Pipeline([('pre', pre), ('lr', LogisticRegression())]).fit(df.drop(columns='target'), df['target'])""",
"""p = clf.predict(df.drop(columns='target'))
proba = clf.predict_proba(df.drop(columns='target'))[:, 1]
print(accuracy_score(df['target'], p), f1_score(df['target'], p), roc_auc_score(df['target'], proba))
Xp = pre.transform(df.drop(columns='target'))
Z2 = PCA(n_components=3).fit_transform(Xp)
reg = Ridge().fit(Z2, df['num1'])
r2_score(df['num1'], reg.predict(Z2))""",
"""import keras
km = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation='relu'),
                       keras.layers.Dense(3, activation='softmax')])
km.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
Xk = rng.normal(size=(64, 5)).astype('float32')
yk = rng.integers(0, 3, 64)
km.fit(Xk, yk, epochs=1, verbose=0)
pk = km.predict(Xk, verbose=0)
(pk.argmax(1) == yk).mean(), km.evaluate(Xk, yk, verbose=0)""",
]


@pytest.mark.parametrize("cells", [pytest.param(CELLS, id="kaggle"),
                                   pytest.param(DL_CELLS, id="deep-learning")])
def test_typical_notebook_has_no_false_alarm(tmp_path: Path, cells: list[str]) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbformat.write(nb, tmp_path / "typical.ipynb")
    result = walk_notebook(tmp_path / "typical.ipynb", timeout=300)
    failed = [(s.index, s.actual.ename, s.actual.evalue) for s in result.steps if not s.actual.ok]
    assert failed == []
    alarms = [(s.index, s.verdict.explanation) for s in result.steps if s.verdict.crash]
    assert alarms == []
