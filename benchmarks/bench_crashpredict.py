"""crashpredict rules engine: prediction latency on the JunoBench sample, extension overhead.

Latency: each sample case's executed cells are replayed once in a real kernel; then, inside
that kernel, ``predict(target, user_ns)`` is timed repeatedly (in-process, no messaging).
The peer is ``rtextract.snapshot`` on the same namespace and cell: the runtime facts an LLM
engine needs before it can even send a prompt.

Overhead: an in-process IPython ``InteractiveShell`` runs a fine cell with and without
``%load_ext crashpredict``.
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / ".." / "shared" / "junobench-sample"
REPEAT = 30

_TIMER = """
def _cp_bench(src, repeat):
    import json, time, crashpredict, rtextract
    ns = get_ipython().user_ns
    verdict = crashpredict.predict(src, ns)
    def timed(fn):
        out = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            out.append((time.perf_counter() - t0) * 1000)
        return out
    rules = timed(lambda: crashpredict.predict(src, ns))
    snap = timed(lambda: rtextract.snapshot(ns, src))
    print(json.dumps({"rules": rules, "snapshot": snap, "crash": verdict.crash,
                      "exception": verdict.exception}))
_cp_bench(SRC, REPEAT)
del _cp_bench
"""


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def _latency_rows() -> tuple[list[str], list[float], list[float], int, int]:
    from crashpredict import KernelSession
    from crashpredict._check import plan_check, read_code_cells

    rows, all_rules, all_snap, right, total = [], [], [], 0, 0
    cases = sorted(p.parent.name for p in SAMPLE.glob("*/case.json"))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for case in cases:
            shutil.copytree(SAMPLE / case, work / case)
        with KernelSession(work, timeout=300) as kernel:
            for case in cases:
                labels = json.loads((work / case / "case.json").read_text())
                for version in ("reproduced", "fixed"):
                    nb = work / case / f"{case}_{version}.ipynb"
                    target, before = plan_check(read_code_cells(nb),
                                                cell=labels["target_cell_id"],
                                                order="history", path=nb)
                    kernel.run("%reset -f")
                    kernel.run(f"import os as _o\n_o.chdir({str(work / case)!r})\ndel _o")
                    failed = next((r for r in map(kernel.run, (c.source for c in before))
                                   if not r.ok), None)
                    if failed is not None:
                        rows.append(f"| {case} | {version} | replay failed: {failed.ename} "
                                    f"| | | |")
                        continue
                    run = kernel.run(_TIMER.replace("SRC", repr(target.source)).replace(
                        "REPEAT", str(REPEAT)))
                    data = json.loads(run.stdout.strip().splitlines()[-1])
                    expected = version == "reproduced"
                    ok = bool(data["crash"]) == expected and (
                        not expected or (data["exception"] or "").lower() == labels["ename"])
                    right += ok
                    total += 1
                    all_rules += data["rules"]
                    all_snap += data["snapshot"]
                    rows.append(
                        f"| {case} | {version} | "
                        f"{'crash ' + data['exception'] if data['crash'] else 'no crash'}"
                        f"{'' if ok else ' (wrong)'} | "
                        f"{statistics.median(data['rules']):.2f} | {_p95(data['rules']):.2f} | "
                        f"{statistics.median(data['snapshot']):.2f} |")
    return rows, all_rules, all_snap, right, total


# Our own crash / near-miss pairs on Kaggle-like code (Titanic-style data made inline).
# The truth is what the cell actually does when run after the setup in the same kernel.
_SETUP = """
import numpy as np, pandas as pd, matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.preprocessing import StandardScaler
rng = np.random.default_rng(0)
df = pd.DataFrame({'Age': rng.integers(18, 80, 300).astype(float),
                   'Fare': rng.normal(30, 10, 300), 'Sex': rng.choice(['male', 'female'], 300),
                   'Embarked': rng.choice(['S', 'C', 'Q'], 300),
                   'Survived': rng.integers(0, 2, 300)})
df.loc[::10, 'Age'] = np.nan
other = pd.DataFrame({'Id': range(300), 'Cabin': 'C85'})
clean = df[['Age', 'Fare']].fillna(0)
"""
PAIRS = [
    ("strings to fit", "X = df.drop('Survived', axis=1)\ny = df['Survived']\n"
     "RandomForestClassifier().fit(X, y)",
     "X = pd.get_dummies(df.drop(columns=['Survived']), columns=['Sex', 'Embarked'])"
     ".fillna(0)\nRandomForestClassifier().fit(X, df['Survived'])"),
    ("missing column", "df['Title'].value_counts()", "df['Sex'].value_counts()"),
    ("NaN to fit", "LogisticRegression().fit(df[['Age', 'Fare']], df['Survived'])",
     "LogisticRegression().fit(df[['Age', 'Fare']].fillna(0), df['Survived'])"),
    ("drop missing column", "df = df.drop(['Cabin'], axis=1)",
     "df = df.drop(['Embarked'], axis=1)"),
    ("feature order", "sc = StandardScaler().fit(clean)\nsc.transform(clean[['Fare', 'Age']])",
     "sc = StandardScaler().fit(clean)\nsc.transform(clean[['Age', 'Fare']])"),
    ("split then fewer features",
     "Xtr, Xte, ytr, yte = train_test_split(clean, df['Survived'], random_state=1)\n"
     "lr = LinearRegression().fit(Xtr, ytr)\nlr.predict(Xte[['Age']])",
     "Xtr, Xte, ytr, yte = train_test_split(clean, df['Survived'], random_state=1)\n"
     "lr = LinearRegression().fit(Xtr, ytr)\nlr.predict(Xte)"),
    ("predict before fit", "m = RandomForestClassifier()\nm.predict(clean)",
     "m = RandomForestClassifier()\nm.fit(clean, df['Survived'])\nm.predict(clean)"),
    ("reshape", "a = np.arange(12)\nb = a.reshape(5, -1)", "a = np.arange(12)\n"
     "b = a.reshape(4, -1)"),
    ("subplot grid", "plt.subplot(1, 2, 3)", "plt.subplot(1, 2, 2)"),
    ("groupby key", "df.groupby('Pclass')['Fare'].mean()", "df.groupby('Sex')['Fare'].mean()"),
    ("merge key", "pd.merge(df, other, on='id')",
     "pd.merge(df.reset_index(), other, left_on='index', right_on='Id')"),
    ("NaN to int", "df['Age'].astype(int)", "df['Age'].fillna(0).astype(int)"),
    ("loop over columns", "for col in ['Age', 'Fare', 'Cabin']:\n"
     "    df[col] = df[col].fillna(df[col].median())",
     "for col in ['Age', 'Fare']:\n    df[col] = df[col].fillna(df[col].median())"),
    ("sort key case", "df.sort_values(by='fare')", "df.sort_values(by='Fare')"),
    ("missing import", "sns.countplot(x='Sex', data=df)",
     "import seaborn as sns\nsns.countplot(x='Sex', data=df)"),
    ("removed append", "df = df.append({'Age': 1.0}, ignore_index=True)",
     "df = pd.concat([df, pd.DataFrame([{'Age': 1.0}])], ignore_index=True)"),
    ("mean of text", "np.mean(df['Sex'])", "np.mean(df['Fare'])"),
    ("wrong keyword", "train_test_split(clean, test_ratio=0.2)",
     "train_test_split(clean, test_size=0.2)"),
    ("DataFrame.plot column", "df.plot(kind='scatter', x='Age', y='Fares')",
     "df.plot(kind='scatter', x='Age', y='Fare')"),
    ("label encoding then .str",
     "df['Sex'] = df['Sex'].map({'male': 0, 'female': 1})\ndf['Sex'].str.upper()",
     "df['Sex'] = df['Sex'].map({'male': 0, 'female': 1})\ndf['Sex'].astype(str).str.upper()"),
    ("matmul", "w = np.ones((3, 2))\nclean.values @ w", "w = np.ones((2, 3))\nclean.values @ w"),
    ("iloc bounds", "df.iloc[300]", "df.iloc[299]"),
    ("loc label", "df.loc[0, 'Fares']", "df.loc[0, 'Fare']"),
    ("concat axis", "np.concatenate([clean.values, np.ones((10, 2))], axis=1)",
     "np.concatenate([clean.values, np.ones((10, 2))], axis=0)"),
]


def _own_pairs(kernel) -> tuple[int, int, int, int, list[str]]:
    """(true positives, false positives, false negatives, true negatives, misses)."""
    tp = fp = fn = tn = 0
    notes = []
    for name, *targets in PAIRS:
        for target in targets:
            kernel.run("%reset -f")
            kernel.run(_SETUP)
            verdict = kernel.predict(target)
            actual = kernel.run(target)
            crashed = not actual.ok
            if verdict.crash and crashed:
                tp += 1
            elif verdict.crash:
                fp += 1
                notes.append(f"false alarm: {name}: {verdict.explanation}")
            elif crashed:
                fn += 1
                notes.append(f"missed: {name} ({actual.ename})")
            else:
                tn += 1
    return tp, fp, fn, tn, notes


def _overhead() -> tuple[float, float]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_cell("import pandas as pd\ndf = pd.DataFrame({'a': range(1000), 'b': 1.0})")
    cell = "total = df['a'].sum() + df['b'].mean()\nlabel = f'{total:.1f}'"

    def timed() -> list[float]:
        out = []
        for _ in range(200):
            t0 = time.perf_counter()
            shell.run_cell(cell, store_history=False)
            out.append((time.perf_counter() - t0) * 1000)
        return out

    timed()  # warm-up
    plain = timed()
    shell.run_cell("%load_ext crashpredict")
    guarded = timed()
    shell.run_cell("%unload_ext crashpredict")
    return statistics.median(plain), statistics.median(guarded)


def main() -> str:
    """Run the benchmark; print and return its Markdown section."""
    lines = ["## crashpredict", ""]
    if SAMPLE.is_dir():
        rows, rules, snap, right, total = _latency_rows()
        lines += [
            f"Rules-engine latency per target cell on the JunoBench sample ({REPEAT} timed "
            f"calls each, inside the kernel after replay). Peer: `rtextract.snapshot` on "
            f"the same namespace and cell.", "",
            "| case | version | verdict | rules median ms | rules p95 ms | snapshot median ms |",
            "|---|---|---|---|---|---|", *rows, "",
            "| all cases | median ms | p95 ms |", "|---|---|---|",
            f"| rules engine | {statistics.median(rules):.2f} | {_p95(rules):.2f} |",
            f"| rtextract.snapshot (peer) | {statistics.median(snap):.2f} | "
            f"{_p95(snap):.2f} |", "",
            f"Ratio rules / snapshot (medians): "
            f"{statistics.median(rules) / statistics.median(snap):.2f}. "
            f"Correct verdicts: {right}/{total} (goal p95 <= 200 ms).", "",
        ]
    else:
        lines += ["(JunoBench sample absent: latency skipped)", ""]
    from crashpredict import KernelSession
    with tempfile.TemporaryDirectory() as tmp, KernelSession(tmp, timeout=300) as kernel:
        tp, fp, fn, tn, notes = _own_pairs(kernel)
    total = tp + fp + fn + tn
    lines += [
        f"Own crash / near-miss pairs ({len(PAIRS)} pairs, truth = running the cell): "
        f"accuracy {(tp + tn) / total:.3f}, precision "
        f"{tp / (tp + fp) if tp + fp else 1.0:.3f}, recall {tp / (tp + fn) if tp + fn else 1.0:.3f} "
        f"(TP {tp}, FP {fp}, FN {fn}, TN {tn}).", "",
        *[f"- {n}" for n in notes], "",
    ]
    plain, guarded = _overhead()
    lines += [
        "Extension overhead on a fine cell (InteractiveShell.run_cell, 200 runs):", "",
        "| run_cell | median ms |", "|---|---|",
        f"| plain (peer) | {plain:.3f} |", f"| with %load_ext crashpredict | {guarded:.3f} |",
        "", f"Ratio with / without: {guarded / plain:.2f} "
            f"(+{guarded - plain:.3f} ms per cell).", "",
    ]
    text = "\n".join(lines)
    print(text)
    return text


if __name__ == "__main__":
    main()
