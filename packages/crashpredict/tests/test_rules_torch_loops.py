"""A loop over a torch DataLoader walked on its first batch and on its last, smaller one
(the rows left over), and the training mode a cell puts a module in. Each cell's truth is
decided by running it first, on a fresh namespace; the rules then judge another."""

from __future__ import annotations

import pytest
import torch
from torch import nn
from torch.nn import functional as F
from torch.utils.data import DataLoader, TensorDataset

from crashpredict._rules import rules_engine


def namespace() -> dict:
    torch.manual_seed(0)
    X, y = torch.randn(13, 20), torch.randint(0, 2, (13,)).float()
    data = TensorDataset(X, y)
    bn_net = nn.Sequential(nn.Linear(20, 8), nn.BatchNorm1d(8))
    return {
        "torch": torch, "nn": nn, "F": F, "X": X,
        "loader": DataLoader(data, batch_size=6),  # batches of 6, 6 and 1
        "shuffled": DataLoader(data, batch_size=6, shuffle=True),
        "dropped": DataLoader(data, batch_size=6, drop_last=True),
        "even": DataLoader(TensorDataset(X[:12], y[:12]), batch_size=6),
        "head": nn.Linear(20, 1),
        "bn_net": bn_net, "lin": bn_net[0], "bn": bn_net[1],
    }


def truth(cell: str, ns: dict | None = None) -> str | None:
    """What the cell raises when it runs (None: it runs clean), on a copy of ``ns``."""
    try:
        exec(cell, dict(ns) if ns is not None else namespace())
    except Exception as exc:
        return type(exc).__name__
    return None


CRASHES = [  # (cell, exception)
    ("for xb, yb in loader:\n    out = head(xb).view(6)\n"
     "    loss = F.binary_cross_entropy_with_logits(out, yb)", "RuntimeError"),
    ("for epoch in range(2):\n    total = 0.0\n    for xb, yb in shuffled:\n"
     "        out = head(xb).squeeze()\n        loss = nn.BCEWithLogitsLoss()(out, yb)\n"
     "        total += loss.item()", "ValueError"),
    ("bn_net.train()\nfor i, (xb, yb) in enumerate(loader):\n    out = bn_net(xb)",
     "ValueError"),  # a batch of one in training mode
    ("bn_net.eval()\nbn_net.train()\nfor xb, yb in loader:\n    out = bn_net(xb)",
     "ValueError"),
    ("for step, (xb, yb) in enumerate(loader, start=1):\n    out = head(xb).view(6)",
     "RuntimeError"),  # batches counted from 1
    ("for step, (xb, yb) in enumerate(loader, start=1):\n    tag = ['a', 'b', 'c'][step]",
     "IndexError"),  # the last count is 3
]

WORKING = [
    "for xb, yb in loader:\n    out = head(xb).view(-1)\n"
    "    loss = F.binary_cross_entropy_with_logits(out, yb)",
    "for xb, yb in dropped:\n    out = head(xb).view(6)\n"
    "    loss = F.binary_cross_entropy_with_logits(out, yb)",
    "for xb, yb in even:\n    out = head(xb).view(6)",
    "for epoch in range(2):\n    for xb, yb in shuffled:\n        out = head(xb).squeeze(1)\n"
    "        loss = nn.BCEWithLogitsLoss()(out, yb)",
    "bn_net.eval()\nfor xb, yb in loader:\n    out = bn_net(xb)",
    "bn_net.train(False)\nfor xb, yb in loader:\n    out = bn_net(xb)",
    # a mode set on a module inside the one called, or around it: not followed
    "bn_net[1].eval()\nfor xb, yb in loader:\n    out = bn_net(xb)",
    "bn_net.eval()\nfor xb, yb in loader:\n    out = bn_net[1](bn_net[0](xb))",
    "bn.eval()\nfor xb, yb in loader:\n    out = bn_net(xb)",
    "bn_net.eval()\nfor xb, yb in loader:\n    out = bn(lin(xb))",
    # the body may leave the loop before its last pass
    "for xb, yb in loader:\n    if len(xb) < 6:\n        break\n    out = head(xb).view(6)",
    "for i, (xb, yb) in enumerate(loader):\n    out = head(xb).view(6)\n    if i == 1:\n"
    "        break",  # ...in a pass before it
    # the last batch, counted from 1, is skipped by its count
    "for step, (xb, yb) in enumerate(loader, 1):\n    if step == 3:\n        continue\n"
    "    out = head(xb).view(6)",
    "for step, (xb, yb) in enumerate(loader, start=1):\n    tag = ['-', 'a', 'b', 'c'][step]",
]


@pytest.mark.parametrize(("cell", "exception"), CRASHES)
def test_the_last_batch_crash_is_predicted(cell: str, exception: str) -> None:
    assert truth(cell) == exception
    verdict = rules_engine(cell, namespace())
    assert verdict.crash is True and verdict.exception == exception, verdict.explanation


@pytest.mark.parametrize("cell", WORKING)
def test_working_loops_draw_no_warning(cell: str) -> None:
    assert truth(cell) is None
    verdict = rules_engine(cell, namespace())
    assert verdict.crash is False, verdict.explanation


def test_a_module_whose_class_overrides_train_is_not_followed() -> None:
    class Frozen(nn.Sequential):
        def train(self, mode: bool = True):  # keeps batch norm in evaluation mode
            super().train(mode)
            self[1].eval()
            return self

    ns = namespace()
    ns["frozen"] = Frozen(nn.Linear(20, 8), nn.BatchNorm1d(8))
    cell = "frozen.train()\nfor xb, yb in loader:\n    out = frozen(xb)"
    assert truth(cell, ns) is None
    assert rules_engine(cell, ns).crash is False

