"""numpy and PyTorch shape, dtype and module-input rules: crashes and near misses."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from crashpredict import predict


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        """Two layers."""
        x = torch.relu(self.fc1(x))
        return self.fc2(x)


class Reshaping(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 8)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return self.fc1(x)


def ns() -> dict:
    torch.manual_seed(0)
    return {
        "np": np, "torch": torch, "nn": nn, "prep": lambda x: x,
        "a": np.ones((3, 4)), "b": np.ones((5,)), "c": np.ones((4, 2)), "d": np.ones((2, 4)),
        "t": torch.ones(8, 10), "t3": torch.ones(8, 3, 28, 28), "t1": torch.ones(8, 1, 28, 28),
        "td": torch.ones(8, 20, dtype=torch.float64), "idx": torch.tensor([0, 1, 2]),
        "lin": nn.Linear(20, 2), "conv": nn.Conv2d(1, 4, 3),
        "net": nn.Sequential(nn.Flatten(), nn.Linear(784, 10)),
        "ce": nn.CrossEntropyLoss(), "bce": nn.BCELoss(), "logits": torch.zeros(3, 5),
        "ftarget": torch.zeros(3), "probs": torch.full((4, 1), 0.5), "flat": torch.ones(4),
        "x_np": np.ones((8, 20), dtype=np.float32), "emb": nn.Embedding(10, 3),
        "user_net": Net(), "reshaping": Reshaping(), "x20": torch.ones(8, 20),
        # rows of a list made of arrays (numpy's numbers): one of another length
        "sessions": [list(np.arange(float(n))) for n in [3] * 99 + [5]],
        "even": [list(np.arange(3.0)) for _ in range(100)],
        # a frame's values with a text column: an object array
        "objs": np.array([[1.0, "north"], [2.5, "south"]], dtype=object),
    }


CRASHES = [
    ("numpy broadcast", "a + b", ("ValueError", "unsupported broadcast", "numpy")),
    ("numpy matmul", "a @ d", ("ValueError", "tensor shape mismatch", "numpy")),
    ("np.dot", "np.dot(a, d)", ("ValueError", "tensor shape mismatch", "numpy")),
    ("reshape size", "a.reshape(5, 3)", ("ValueError", "tensor shape mismatch", "numpy")),
    ("reshape with -1", "np.reshape(a, (-1, 5))", ("ValueError", "tensor shape mismatch",
                                                   "numpy")),
    ("concatenate", "np.concatenate([a, d], axis=1)",
     ("ValueError", "tensor shape mismatch", "numpy")),
    ("torch broadcast", "t + torch.ones(8, 3)",
     ("RuntimeError", "unsupported broadcast", "torch")),
    ("torch view", "t.view(3, -1)", ("RuntimeError", "tensor shape mismatch", "torch")),
    ("torch stack", "torch.stack([t, torch.ones(8, 11)])",
     ("RuntimeError", "tensor shape mismatch", "torch")),
    ("Linear in_features", "out = lin(t)", ("RuntimeError", "tensor shape mismatch", "torch")),
    ("Conv2d channels", "conv(t3)", ("RuntimeError", "tensor shape mismatch", "torch")),
    ("Sequential after Flatten", "net(t3)", ("RuntimeError", "tensor shape mismatch", "torch")),
    ("user module reshapes, then its Linear", "reshaping(t3)",
     ("RuntimeError", "tensor shape mismatch", "torch")),
    ("dtype", "lin(td)", ("RuntimeError", "type error", "torch")),
    ("numpy into a layer", "lin(x_np)", ("TypeError", "type error", "torch")),
    ("float class targets", "ce(logits, ftarget)", ("RuntimeError", "type error", "torch")),
    ("BCE target size", "bce(probs, flat)", ("ValueError", "tensor shape mismatch", "torch")),
    ("Embedding float indices", "emb(t)", ("RuntimeError", "type error", "torch")),
    ("user module's first layer", "out = user_net(t)",
     ("RuntimeError", "tensor shape mismatch", "torch")),
]

CRASHES += [
    ("ragged rows of numpy's numbers", "X = np.array(sessions, dtype=np.float32)",
     ("ValueError", "tensor shape mismatch", "numpy")),
    ("object array to a float tensor", "X = torch.tensor(objs, dtype=torch.float32)",
     ("TypeError", "type error", "torch")),
]

NEAR_MISSES = [
    ("rows of one length", "X = np.array(even, dtype=np.float32)"),
    ("numbers taken first", "X = torch.tensor(objs[:, :1].astype(np.float32), "
                            "dtype=torch.float32)"),
    ("broadcastable", "a + np.ones((1, 4))"),
    ("matmul fits", "a @ c"),
    ("reshape fits", "a.reshape(2, -1)"),
    ("concatenate on the right axis", "np.concatenate([a, np.ones((3, 2))], axis=1)"),
    ("Linear fits", "lin(td.float())"),
    ("Conv fits", "conv(t1)"),
    ("Sequential fits", "net(t1)"),
    ("rebound tensor", "t = prep(t)\nlin(t)"),
    ("class-index targets", "ce(logits, idx)"),
    ("user module fits", "user_net(x20)"),
    ("user module reshapes first", "reshaping(torch.ones(8, 4, 5))"),
    ("user module forward may convert", "class M(nn.Module):\n    def forward(self, x):\n"
                                        "        return x\nM()(x_np)"),
]


@pytest.mark.parametrize(("source", "expected"), [pytest.param(s, e, id=i) for i, s, e in CRASHES])
def test_array_crash_is_predicted(source: str, expected: tuple) -> None:
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception, verdict.crash_type, verdict.library) == (
        True, *expected), verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES])
def test_array_near_miss_is_not_flagged(source: str) -> None:
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation


def test_linear_explanation_names_features() -> None:
    verdict = predict("lin(t)", ns())
    assert "t has 10 features, the Linear layer expects 20" in verdict.explanation


def test_plain_data_is_read_within_a_bound() -> None:
    # a list of lists of numpy's numbers is plain data a trial may take; a nest of more
    # values than PLAIN_MOST is not read whole (the rules' walk runs before the cell)
    from crashpredict._rules._walk import _pure

    assert _pure._plain([list(np.arange(3.0)), [np.int64(1), np.bool_(True)]])
    assert not _pure._plain([[0.0] * 1_000] * (_pure.PLAIN_MOST // 1_000 + 1))
    assert not _pure._plain([np.str_("a")]) and not _pure._plain([object()])
    assert _pure._plain([[[[1]]]]) and not _pure._plain([[[[[1]]]]])

    class Strange:  # what isinstance would ask it: never asked
        @property
        def __class__(self):
            raise RuntimeError("asked")

    assert not _pure._plain([Strange()]) and not _pure._numpy_number(Strange())
