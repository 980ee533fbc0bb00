"""Matrix products too costly to run before the cell: the rules read their result's shape
and dtype from one row by one column, and still see what the product's result is misused
for; products of shapes that do not fit still raise as the library raises."""

from __future__ import annotations

import ast

import numpy as np
import pytest
import torch

from crashpredict import predict
from crashpredict._rules import _propagate
from crashpredict._rules._facts import is_abstract


class _Walker:
    """What `_costly_matmul` asks of the walker: the text of a node."""

    def text(self, node: ast.AST) -> str:
        return "left @ right"


SHAPES = [  # (left, right): 2-D, vector on either side, batched, broadcast batches
    ((70, 30), (30, 40)),
    ((40, 50), (50,)),
    ((50,), (50, 70)),
    ((3, 20, 30), (30, 20)),
    ((2, 1, 20, 30), (4, 30, 20)),
]


@pytest.mark.parametrize("left_shape,right_shape", SHAPES)
@pytest.mark.parametrize("library", ["numpy", "torch"])
def test_the_shape_and_dtype_of_a_costly_product_are_the_real_ones(
        left_shape, right_shape, library, monkeypatch) -> None:
    monkeypatch.setattr(_propagate, "MAX_MATMUL_WORK", 10)  # small operands count as costly
    if library == "numpy":
        left = np.ones(left_shape, dtype=np.float32)
        right = np.ones(right_shape, dtype=np.int64)
    else:
        left = torch.ones(left_shape)
        right = torch.ones(right_shape)
    real = left @ right
    sliced = _propagate._sliced_matmul(left, right)
    assert sliced is not None  # past MAX_MATMUL_WORK
    out = _propagate._costly_matmul(sliced, ast.parse("x").body[0], _Walker())
    kind = "ndarray" if library == "numpy" else "tensor"
    assert is_abstract(out, kind), out
    assert tuple(out.shape) == tuple(real.shape)
    assert out.dtype == real.dtype


def test_a_cheap_product_is_left_to_run_and_one_that_does_not_fit_too() -> None:
    assert _propagate._sliced_matmul(np.ones((50, 50)), np.ones((50, 50))) is None
    # the inner sizes differ: the real product raises at once, before it computes
    assert _propagate._sliced_matmul(np.ones((900, 900)), np.ones((800, 900))) is None
    assert _propagate._sliced_matmul(np.float64(2.0) * np.ones(()), np.ones((3, 3))) is None
    assert _propagate._sliced_matmul(2.0, np.ones((3000, 3000))) is None  # a plain scalar


def _namespace() -> dict:
    rng = np.random.default_rng(0)
    return {"np": np, "torch": torch, "a": rng.random((900, 900)),
            "c": rng.random((800, 900)), "t": torch.randn(1200, 1200),
            "w": torch.randn(1100, 1200)}


@pytest.mark.parametrize("cell,exception", [
    ("for _ in range(12):\n    b = a @ a", None),
    ("for _ in range(10):\n    u = t @ t", None),
    ("b = (a @ a).reshape(3, -1)", None),
    ("b = a @ c", "ValueError"),  # (900, 900) @ (800, 900)
    ("u = t @ w", "RuntimeError"),  # (1200, 1200) @ (1100, 1200)
    ("b = (a @ a)[:, :5] + c", "ValueError"),  # (900, 5) + (800, 900)
    ("b = (a @ a).reshape(7, 7)", "ValueError"),
    ("u = (t @ t).view(7, 7)", "RuntimeError"),
    ("b = (a @ a)\nb[950, 0]", "IndexError"),
])
def test_the_rules_still_see_what_a_costly_products_result_is_used_for(cell, exception) -> None:
    verdict = predict(cell, _namespace(), engines=("rules",))
    if exception is None:
        assert verdict.crash is False, verdict.summary
    else:
        assert verdict.crash is True and verdict.exception == exception, verdict.summary


def test_a_costly_product_the_library_refuses_gives_no_abstract_value(monkeypatch) -> None:
    monkeypatch.setattr(_propagate, "MAX_MATMUL_WORK", 10)
    left = np.array([["x"] * 30] * 20, dtype=object)  # str * float: TypeError
    right = np.ones((30, 20))
    node = ast.parse("x").body[0]
    sliced = _propagate._sliced_matmul(left, right)
    assert sliced is not None
    assert _propagate._costly_matmul(sliced, node, _Walker()) is None
    tensors = (torch.ones(20, 30, dtype=torch.float64), torch.ones(30, 20))  # two dtypes
    sliced = _propagate._sliced_matmul(*tensors)
    assert sliced is not None
    assert _propagate._costly_matmul(sliced, node, _Walker()) is None
