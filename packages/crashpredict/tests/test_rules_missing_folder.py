"""A writer given a path in a folder that does not exist: predicted before the cell runs,
named as the library raises it, and never where something before it in the cell may make
the folder.

The truth of each case is decided by running the cell for real (in a temporary working
directory) after the rules have answered: a crash case must raise the exception the rule
names, and a case the rule leaves alone must either run clean or be one where the folder
may be made first.
"""

from __future__ import annotations

import os

import pytest

from crashpredict._rules import rules_engine

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")
torch = pytest.importorskip("torch")
joblib = pytest.importorskip("joblib")
plt = pytest.importorskip("matplotlib.pyplot")

DEFINITIONS = '''
import os, pathlib, subprocess

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)

def train_step(model, x):
    return model(x).sum()

def prepare_folders():
    os.makedirs("models", exist_ok=True)

def make_output():
    pathlib.Path(OUT_DIR).mkdir()

OUT_DIR = "reports"
net = Net()
model = torch.nn.Linear(4, 2)
x = torch.randn(8, 4)
df = pd.DataFrame({"a": [1, 2, 3]})
arr = np.arange(6.0)
'''

#: (cell, the exception the real run raises): nothing before the writer makes the folder
CRASHES = [
    ("for _ in range(3):\n    loss = model(x).sum()\n    loss.backward()\n"
     "torch.save(model.state_dict(), 'models/net.pt')", "RuntimeError"),
    ("out = net(x)\ntrain_step(net, x)\ntorch.save(net, 'checkpoints/net.pt')",
     "RuntimeError"),  # a model of the notebook's own class: its code makes no folder
    ("np.save('arrays/a.npy', arr)", "FileNotFoundError"),
    ("np.savetxt('out/a.txt', arr)", "FileNotFoundError"),
    ("df['b'] = df.a * 2\ndf.to_csv('submission/sub.csv', index=False)", "OSError"),
    ("df.a.to_json('exports/a.json')", "OSError"),
    ("plt.plot(arr)\nplt.savefig('figures/plot.png')", "FileNotFoundError"),
    ("joblib.dump(model, 'artifacts/model.joblib')", "FileNotFoundError"),
    ("with open('logs/run.txt', 'w') as fh:\n    fh.write('done')", "FileNotFoundError"),
    ("torch.save(model, os.path.join('weights', 'm.pt'))", "RuntimeError"),
]

#: cells that run clean, or where something before the writer makes the folder
LEFT_ALONE = [
    "os.makedirs('models', exist_ok=True)\ntorch.save(model, 'models/net.pt')",
    "pathlib.Path('models').mkdir()\ntorch.save(model, 'models/net.pt')",
    "prepare_folders()\ntorch.save(model, 'models/net.pt')",  # the notebook's function
    "make_output()\ndf.to_csv('reports/r.csv')",  # ...through a setting it reads
    "folder = 'models'\nos.makedirs(folder)\ntorch.save(model, f'{folder}/net.pt')",
    "subprocess.run(['mkdir', 'models'])\ntorch.save(model, 'models/net.pt')",
    "torch.save(model, 'net.pt')",  # the working directory
    "np.save('arr.npy', arr)",
    "df.to_csv('sub.csv')",
    "try:\n    torch.save(model, 'models/net.pt')\nexcept RuntimeError:\n    pass",
    "if len(df) > 10:\n    df.to_csv('out/x.csv')",  # a branch that does not run
]


@pytest.fixture
def namespace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ns = {"np": np, "pd": pd, "torch": torch, "joblib": joblib, "plt": plt}
    exec(DEFINITIONS, ns)  # noqa: S102
    return ns


def _real_run(cell: str, ns: dict) -> str | None:
    try:
        exec(cell, ns)  # noqa: S102
    except Exception as exc:  # noqa: BLE001 - the truth
        return type(exc).__name__
    finally:
        plt.close("all")
    return None


@pytest.mark.parametrize("cell, raised", CRASHES)
def test_a_writer_into_a_missing_folder_is_predicted(namespace, cell, raised):
    verdict = rules_engine(cell, namespace)
    assert os.listdir(".") == []  # the rules wrote nothing
    assert (verdict.crash, verdict.exception) == (True, raised), verdict
    assert "does not exist" in verdict.explanation or "No such file" in verdict.explanation
    assert _real_run(cell, namespace) == raised  # the truth, by running it


@pytest.mark.parametrize("cell", LEFT_ALONE)
def test_a_folder_the_cell_may_make_first_is_never_claimed_missing(namespace, cell):
    verdict = rules_engine(cell, namespace)
    assert not (verdict.crash and verdict.evidence and "missing-folder" in str(verdict)), verdict
    assert verdict.crash is not True or verdict.exception not in (
        "RuntimeError", "OSError", "FileNotFoundError"), verdict
    assert _real_run(cell, namespace) is None


def test_keras_h5_files_make_their_folder_and_are_left_alone(namespace):
    keras = pytest.importorskip("tensorflow").keras
    namespace["m"] = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    assert rules_engine("m.save('legacy/m.h5')", namespace).crash is not True
    verdict = rules_engine("m.save('models/m.keras')", namespace)
    assert (verdict.crash, verdict.exception) == (True, "FileNotFoundError"), verdict
    assert _real_run("m.save('models/m.keras')", namespace) == "FileNotFoundError"
