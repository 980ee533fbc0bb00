"""torch's autograd state and memory layout in the rules: ``numpy()`` of a tensor that
requires grad, ``view`` of a tensor whose strides no longer allow it. Each cell's truth is
decided by running it first, on a fresh namespace; the rules then judge another."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
import torch
from torch import nn

from crashpredict._rules import rules_engine
from crashpredict._rules._meta import warm_meta
from crashpredict._rules._walk import _walker


@contextlib.contextmanager
def evaluating(model):
    """A notebook's own manager that turns autograd off (the rules cannot read it)."""
    model.eval()
    with torch.no_grad():
        yield model


class NoGrad:
    """A notebook's own manager object that turns autograd off for its body."""

    def __enter__(self):
        self.before = torch.is_grad_enabled()
        torch.set_grad_enabled(False)

    def __exit__(self, *exc):
        torch.set_grad_enabled(self.before)


def namespace() -> dict:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2))
    return {"torch": torch, "nn": nn, "model": model, "X": torch.randn(5, 6),
            "evaluating": evaluating, "frozen": nn.Linear(6, 2).requires_grad_(False),
            "images": torch.randn(4, 8, 8, 3), "quietly": NoGrad(),
            "weights": torch.zeros(3, requires_grad=True),
            "X_np": np.random.default_rng(0).normal(size=(5, 6)).astype("float32")}


def truth(cell: str, grad: bool = True) -> str | None:
    """What the cell raises when it runs (None: it runs clean), in autograd mode ``grad``."""
    try:
        with torch.set_grad_enabled(grad):  # restored after: a cell may turn it off
            exec(cell, namespace())
    except Exception as exc:
        return type(exc).__name__
    return None


@pytest.fixture(autouse=True, scope="module")
def _warm():
    warm_meta()  # what the extension does between cells


@pytest.fixture(autouse=True)
def _propagation_in_time(monkeypatch):
    """With no trials (the notebook's rules where a dry run has the cell) propagation still
    runs, for at least a floor of time: a loaded machine must not turn that into a miss
    here (what is tested is that it runs, not how fast)."""
    monkeypatch.setattr(_walker, "_PROPAGATION_FLOOR_S", 5.0)


CRASHES = [
    "preds = model(X).numpy()",
    "out = model(X)\nout.sum().backward()\nscores = out.numpy()",
    "with torch.no_grad():\n    reference = model(X)\nout = model(X)\nvalues = out.cpu().numpy()",
    "with torch.no_grad():\n    pass\nprobs = torch.softmax(model(X), dim=1).numpy()",
    "w = torch.zeros(3, requires_grad=True)\n(w * 2).numpy()",
    "scaled = (weights * 2).numpy()",
    # a live array made a tensor in the cell: known without a trial
    "X_t = torch.from_numpy(X_np)\nprobs = model(X_t).softmax(dim=1).numpy()",
    "preds = model(torch.tensor(X_np)).numpy()",
    "x = images.permute(0, 3, 1, 2)\nx = (x - x.mean()) / x.std()\nflat = x.view(4, -1)",
    "y = images.permute(0, 3, 1, 2).abs()\ny.view(4, -1)",
]

WORKING = [
    "with torch.no_grad():\n    preds = model(X).numpy()",
    "preds = model(X).detach().numpy()",
    "with torch.inference_mode():\n    preds = model(X).numpy()",
    "with torch.set_grad_enabled(False):\n    preds = model(X).numpy()",
    "torch.set_grad_enabled(False)\npreds = model(X).numpy()",  # off for the rest
    "with evaluating(model):\n    preds = model(X).numpy()",  # the notebook's own manager
    "with quietly:\n    preds = model(X).numpy()",  # ...and a live one
    "preds = frozen(X).numpy()",  # no weight requires grad
    "x = images.permute(0, 3, 1, 2)\nx = (x - x.mean()) / x.std()\nflat = x.reshape(4, -1)",
    "y = images.permute(0, 3, 1, 2).contiguous().abs()\ny.view(4, -1)",
    "y = images.permute(0, 3, 1, 2).std(dim=1)\ny.view(4, -1)",  # a reduction: contiguous
    "with torch.no_grad():\n    out = model(X)\nout.numpy()",
    "X_t = torch.from_numpy(X_np)\nwith torch.no_grad():\n    probs = model(X_t).numpy()",
    "X_t = torch.as_tensor(X_np, dtype=torch.float32)\nback = (X_t * 2).numpy()",
]


@pytest.mark.parametrize("cell", CRASHES)
@pytest.mark.parametrize("budget", [None, 0.0])  # the CLI's rules, the notebook's
def test_the_crash_is_predicted_with_its_error(cell: str, budget: float | None) -> None:
    raised = truth(cell)
    assert raised == "RuntimeError", raised
    verdict = rules_engine(cell, namespace(), trial_budget_s=budget)
    assert verdict.crash is True and verdict.exception == "RuntimeError", verdict.explanation


@pytest.mark.parametrize("cell", WORKING)
@pytest.mark.parametrize("budget", [None, 0.0])
def test_working_code_draws_no_warning(cell: str, budget: float | None) -> None:
    assert truth(cell) is None
    verdict = rules_engine(cell, namespace(), trial_budget_s=budget)
    assert verdict.crash is False, verdict.explanation
    assert torch.is_grad_enabled()  # the walk left this thread's mode as it found it


def test_the_explanation_names_the_value_and_the_fix() -> None:
    verdict = rules_engine("preds = model(X).numpy()", namespace())
    assert "requires grad" in verdict.explanation and "`model(X)`" in verdict.explanation
    assert ".detach().numpy()" in verdict.explanation and "torch.no_grad()" in verdict.explanation


def test_a_kernel_with_autograd_off_draws_no_warning() -> None:
    assert truth("preds = model(X).numpy()", grad=False) is None
    with torch.no_grad():  # an earlier cell ran torch.set_grad_enabled(False)
        assert rules_engine("preds = model(X).numpy()", namespace()).crash is False


def test_from_another_thread_the_mode_is_not_trusted() -> None:
    import threading

    found = []
    thread = threading.Thread(target=lambda: found.append(
        rules_engine("preds = model(X).numpy()", namespace())))
    thread.start()
    thread.join()
    assert found[0].crash is False  # a thread's mode is not the kernel's main thread's
