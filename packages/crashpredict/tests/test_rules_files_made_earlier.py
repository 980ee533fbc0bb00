"""No rule claims a missing file that an earlier statement of the same cell may create.

The false-alarm class found on unseen pairs: a file-existence rule said a file is missing
although a call before it (into the notebook's own code, a library writer, a process)
writes it. Each cell here reads a file that does not exist yet but that its first
statement makes; the rules must not predict FileNotFoundError for any of them, and must
still predict it where nothing could have made the file.
"""

from __future__ import annotations

import os

import pytest

from crashpredict._rules import rules_engine

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

DEFINITIONS = '''
import os, json, shutil, subprocess

def save_results(frame):
    frame.to_csv("results.csv")

def make_report():
    with open(os.path.join("reports", "r.json"), "w") as fh:
        json.dump({}, fh)

class Trainer:
    def export(self, path):
        pd.DataFrame({"a": [1]}).to_csv(path)

trainer = Trainer()
'''

MADE_EARLIER = [
    'save_results(df)\nback = pd.read_csv("results.csv")',                # the notebook's function
    'trainer.export("exp.csv")\nback = pd.read_csv("exp.csv")',           # a method of its class
    'df.to_csv("out.csv")\nback = pd.read_csv("out.csv")',                # pandas' writer
    'np.save("a.npy", x)\ny = np.load("a.npy")',                          # numpy's
    'os.makedirs("d", exist_ok=True)\nopen("d/x.txt", "w").write("1")',   # a folder made first
    'with open("notes.txt", "w") as fh:\n    fh.write("x")\nprint(open("notes.txt").read())',
    'os.makedirs("reports")\nmake_report()',
    'subprocess.run(["touch", "t.csv"])\nback = pd.read_csv("t.csv")',    # a process
    'os.system("echo a > s.csv")\nback = pd.read_csv("s.csv")',
    'shutil.copy("results.csv", "copy.csv")\nback = pd.read_csv("copy.csv")',
]


@pytest.fixture
def namespace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ns = {"np": np, "pd": pd, "df": pd.DataFrame({"a": [1, 2]}), "x": np.arange(3)}
    exec(DEFINITIONS, ns)  # noqa: S102
    return ns


@pytest.mark.parametrize("cell", MADE_EARLIER)
def test_a_file_an_earlier_statement_may_make_is_never_claimed_missing(namespace, cell):
    verdict = rules_engine(cell, namespace)
    assert not (verdict.crash and verdict.exception == "FileNotFoundError"), verdict
    assert sorted(os.listdir(".")) == []  # the rules ran none of it


def test_a_file_nothing_makes_is_still_claimed_missing(namespace):
    verdict = rules_engine('back = pd.read_csv("nothere.csv")', namespace)
    assert (verdict.crash, verdict.exception) == (True, "FileNotFoundError")
