"""From torch 2.6 ``torch.load`` reads with ``weights_only=True`` unless told otherwise: a
checkpoint that holds a numpy array or scalar beside its tensors, or a whole module, is refused
(``UnpicklingError``). The rules say so before the cell runs, from the file on disk (its
pickle read without running it) or from what the cell's own ``torch.save`` writes there
first (after a training loop, the load comes last); a load that works is never flagged.

The truth of each case is decided by running the cell for real (in a temporary working
directory) after the rules have answered.
"""

from __future__ import annotations

import pytest

from crashpredict._rules import rules_engine

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
if not hasattr(torch.serialization, "get_unsafe_globals_in_checkpoint") or \
        tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2]) < (2, 6):
    pytest.skip("torch.load reads with weights_only=False by default", allow_module_level=True)

TRAIN = """
best = 0.0
for epoch in range(3):
    opt.zero_grad()
    loss = ((net(X) - y) ** 2).mean()
    loss.backward()
    opt.step()
    score = 1.0 / (1.0 + loss.item())
    if score > best:
        best = score
        torch.save({SAVED}, 'checkpoints/best.pt')
"""

CRASHES = [
    # a checkpoint an earlier cell saved with the scaler's statistics
    "ckpt = torch.load('with_stats.pt')\nnet.load_state_dict(ckpt['model'])",
    "ckpt = torch.load('with_scalar.pt', map_location='cpu')",
    # saved by the cell itself, after training
    TRAIN.replace("{SAVED}", "{'epoch': epoch, 'model': net.state_dict(), 'mean': mean}")
    + "ckpt = torch.load('checkpoints/best.pt')\nnet.load_state_dict(ckpt['model'])",
    "torch.save({'model': net.state_dict(), 'mean': mean, 'std': std}, 'final.pt')\n"
    "restored = torch.load('final.pt')",
    # the whole module, after training: its class is pickled by name
    TRAIN.replace("{SAVED}", "{'epoch': epoch}") + "torch.save(net, 'net_full.pt')\n"
    "reloaded = torch.load('net_full.pt')\nreloaded.eval()",
    "torch.save({'net': net, 'epoch': 3}, 'bundle.pt')\nckpt = torch.load('bundle.pt')",
    # a frame of the features' statistics beside the weights
    "torch.save({'model': net.state_dict(), 'stats': stats}, 'final.pt')\n"
    "ckpt = torch.load('final.pt')",
    # the fitted scaler's statistics, attributes of an object of the namespace
    TRAIN.replace("{SAVED}", "{'model': net.state_dict(), 'epoch': epoch, "
                             "'scaler_mean': scaler.mean_, 'scaler_scale': scaler.scale_}")
    + "ckpt = torch.load('checkpoints/best.pt')\nnet.load_state_dict(ckpt['model'])",
]

LEFT_ALONE = [
    "ckpt = torch.load('with_stats.pt', weights_only=False)",
    "state = torch.load('weights_only.pt')\nnet.load_state_dict(state)",
    # the cell writes a checkpoint of tensors and plain values over the old one
    "torch.save({'model': net.state_dict(), 'epoch': 3}, 'with_stats.pt')\n"
    "ckpt = torch.load('with_stats.pt')",
    TRAIN.replace("{SAVED}", "{'epoch': epoch, 'model': net.state_dict(), "
                             "'mean': torch.from_numpy(mean)}")
    + "ckpt = torch.load('checkpoints/best.pt')",
    # the statistics made tensors in the cell before the save
    "mean = torch.from_numpy(mean)\ntorch.save({'model': net.state_dict(), 'mean': mean}, "
    "'final.pt')\nckpt = torch.load('final.pt')",
    # numpy's classes allowed by the user
    "torch.serialization.add_safe_globals(NUMPY_GLOBALS)\nckpt = torch.load('with_stats.pt')",
    "with torch.serialization.safe_globals(NUMPY_GLOBALS):\n"
    "    ckpt = torch.load('with_stats.pt')",
    # the whole module, loaded as the fix says; its weights only
    "torch.save(net, 'net_full.pt')\nreloaded = torch.load('net_full.pt', weights_only=False)",
    "torch.save(net.state_dict(), 'net.pt')\nnet.load_state_dict(torch.load('net.pt'))",
    # the scaler's statistics made tensors in the cell before the save
    "scaler.mean_ = torch.from_numpy(scaler.mean_)\n"
    "torch.save({'model': net.state_dict(), 'mean': scaler.mean_}, 'final.pt')\n"
    "ckpt = torch.load('final.pt')",
    "torch.save({'model': net.state_dict(), 'mean': torch.from_numpy(scaler.mean_)}, "
    "'final.pt')\nckpt = torch.load('final.pt')",
    # an attribute that holds a plain value
    "torch.save({'model': net.state_dict(), 'n': scaler.n_features_in_}, 'final.pt')\n"
    "ckpt = torch.load('final.pt')",
    # a module's classes allowed
    "with torch.serialization.safe_globals([torch.nn.Linear]):\n"
    "    torch.save(net, 'net_full.pt')\n    reloaded = torch.load('net_full.pt')",
]

#: allowed by an earlier cell: the checkpoints the cell saves load
ALLOWED_BEFORE = [
    "torch.save({'model': net.state_dict(), 'mean': mean}, 'final.pt')\n"
    "ckpt = torch.load('final.pt')",
    "ckpt = torch.load('with_stats.pt')",
]


@pytest.fixture
def namespace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "checkpoints").mkdir()
    torch.manual_seed(0)
    net = torch.nn.Linear(4, 1)
    rng = np.random.default_rng(0)
    mean, std = rng.normal(size=4), rng.uniform(1, 2, size=4)
    torch.save({"model": net.state_dict(), "mean": mean, "std": std}, "with_stats.pt")
    torch.save({"model": net.state_dict(), "auc": np.float64(0.91)}, "with_scalar.pt")
    torch.save(net.state_dict(), "weights_only.pt")
    pd = pytest.importorskip("pandas")
    from sklearn.preprocessing import StandardScaler

    ns = {"torch": torch, "np": np, "net": net, "mean": mean, "std": std,
          "scaler": StandardScaler().fit(rng.normal(size=(20, 4))),
          "stats": pd.DataFrame({"mean": mean, "std": std}),
          "X": torch.randn(32, 4), "y": torch.randn(32, 1),
          "opt": torch.optim.SGD(net.parameters(), lr=0.1)}
    ns["NUMPY_GLOBALS"] = [np.ndarray, np.dtype, type(np.dtype("float64")),
                           np._core.multiarray._reconstruct]
    allowed = torch.serialization.get_safe_globals()
    yield ns
    torch.serialization.clear_safe_globals()  # what a case allowed, for real
    torch.serialization.add_safe_globals(allowed)


def _real_run(cell: str, ns: dict) -> str | None:
    try:
        exec(cell, ns)  # noqa: S102
    except Exception as exc:  # noqa: BLE001 - the truth
        return type(exc).__name__
    return None


@pytest.mark.parametrize("cell", CRASHES)
def test_a_checkpoint_the_weights_only_load_refuses_is_predicted(namespace, cell):
    verdict = rules_engine(cell, namespace)
    assert (verdict.crash, verdict.exception) == (True, "UnpicklingError"), verdict
    assert "weights_only" in verdict.explanation
    assert _real_run(cell, namespace) == "UnpicklingError"


@pytest.mark.parametrize("cell", LEFT_ALONE)
def test_a_load_that_works_is_never_flagged(namespace, cell):
    verdict = rules_engine(cell, namespace)
    assert verdict.crash is not True, verdict
    assert _real_run(cell, namespace) is None


@pytest.mark.parametrize("cell", ALLOWED_BEFORE)
def test_classes_an_earlier_cell_allowed_are_never_flagged(namespace, cell):
    torch.serialization.add_safe_globals(namespace["NUMPY_GLOBALS"])  # an earlier cell
    verdict = rules_engine(cell, namespace)
    assert verdict.crash is not True, verdict
    assert _real_run(cell, namespace) is None
