"""Propagation under the rules: the facts it carries, and what it must never do.

It never runs user code (a module's forward, a FunctionTransformer's function), never
changes the user's objects (torch modules, random generators), and an object whose
attribute lookup misbehaves makes the engine abstain quietly.
"""

from __future__ import annotations

import ast
import linecache

import numpy as np
import pandas as pd
import pytest

from crashpredict._rules import RULES, rules_engine
from crashpredict._rules._meta import warm_meta
from crashpredict._rules._values import Abstract
from crashpredict._rules._walk import CellWalker

torch = pytest.importorskip("torch")
nn = torch.nn


@pytest.fixture(autouse=True, scope="module")
def _meta_kernels_loaded() -> None:
    """The first meta run in a process imports torch's meta kernels (seconds on a loaded
    machine), which can outlast the walker's 1 s budget; the tests judge the steady state.
    `warm_meta` also marks the meta device ready for layers (as the full rules do before
    they walk): without it a layer runs on meta only once something else in the process
    imported torch._dynamo, and this file's results would depend on the tests before it."""
    torch.nn.functional.conv2d(torch.empty(1, 1, 4, 4, device="meta"),
                               torch.empty(1, 1, 3, 3, device="meta"))
    assert warm_meta()


def _env(source: str, ns: dict) -> dict:
    walker = CellWalker(source, ns, RULES)
    assert walker.run(ast.parse(source)) is None
    return walker.env


def _define(source: str, ns: dict, name: str) -> None:
    """Run setup code as IPython would, keeping its source for inspect.getsource."""
    filename = f"<propagation-{name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), ns)


def test_numpy_random_calls_carry_shape_and_dtype_without_drawing() -> None:
    rng = np.random.default_rng(3)
    before_rng, before_global = rng.bit_generator.state, np.random.get_state()[1].copy()
    env = _env("W = np.random.randn(3, 5)\nk = rng.integers(0, 4, size=(7,))\n"
               "Z = (W.T @ W)[:, :2]", {"np": np, "rng": rng})
    assert (env["W"].shape, env["W"].dtype) == ((3, 5), np.dtype("float64"))
    assert (env["k"].shape, env["k"].dtype.kind) == ((7,), "i")
    assert env["Z"].shape == (5, 2)
    assert rng.bit_generator.state == before_rng
    assert (np.random.get_state()[1] == before_global).all()


def test_torch_layers_built_in_the_cell_live_on_meta_and_draw_nothing() -> None:
    state = torch.random.get_rng_state()
    env = _env("x = torch.randn(4, 1, 28, 28)\n"
               "m = nn.Sequential(nn.Conv2d(1, 8, 3), nn.MaxPool2d(2), nn.Flatten())\n"
               "y = m(x)", {"torch": torch, "nn": nn})
    assert isinstance(env["y"], Abstract)
    assert (env["y"].shape, env["y"].dtype, env["y"].device) == ((4, 1352), torch.float32,
                                                                 "cpu")
    assert torch.equal(state, torch.random.get_rng_state())


def test_a_users_module_is_never_changed() -> None:
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    weights = {k: v.clone() for k, v in model.state_dict().items()}
    ids = [id(p) for p in model.parameters()]
    verdict = rules_engine("out = model(torch.zeros(3, 5))", {"torch": torch, "model": model})
    assert verdict.crash is True and verdict.exception == "RuntimeError"
    assert [id(p) for p in model.parameters()] == ids
    assert all(p.device.type == "cpu" and p.grad is None for p in model.parameters())
    assert all(torch.equal(v, weights[k]) for k, v in model.state_dict().items())


_FORWARDS = '''
import torch.nn as nn
calls = []

class Chain(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 2)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return self.fc(x)

class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 2)

    def forward(self, x):
        calls.append(x)
        return self.fc(x)
'''


def test_a_straight_chain_forward_is_followed_from_its_source() -> None:
    ns: dict = {"torch": torch}
    _define(_FORWARDS, ns, "chain")
    ns["chain"] = ns["Chain"]()
    crash = rules_engine("out = chain(torch.zeros(2, 7))", ns)
    assert crash.crash is True and "mat1 and mat2" in crash.explanation
    assert rules_engine("out = chain(torch.zeros(2, 2, 3))", ns).crash is False


def test_a_forward_with_other_statements_is_never_called_nor_judged() -> None:
    ns: dict = {"torch": torch}
    _define(_FORWARDS, ns, "noisy")
    ns["noisy"] = ns["Noisy"]()
    verdict = rules_engine("out = noisy(torch.zeros(2, 7))", ns)
    assert verdict.crash is False
    assert ns["calls"] == []


def test_a_function_transformer_is_never_run_on_sample_rows() -> None:
    from sklearn.preprocessing import FunctionTransformer
    seen = []

    def spy(x):
        seen.append(len(x))
        return x

    ft = FunctionTransformer(spy).fit(np.ones((5, 2)))
    seen.clear()
    env = _env("out = ft.transform(X)", {"ft": ft, "X": np.ones((5, 2))})
    assert seen == [] and not isinstance(env["out"], Abstract)


def test_sklearn_outputs_carry_width_and_sample_rows() -> None:
    from sklearn.decomposition import PCA
    from sklearn.preprocessing import OneHotEncoder
    df = pd.DataFrame({"c": list("abcab"), "v": [1.0, 2.0, 3.0, 4.0, 5.0]})
    enc = OneHotEncoder(sparse_output=False).fit(df[["c"]])
    env = _env("codes = enc.transform(df[['c']])\n"
               "both = np.hstack([codes, df[['v']].values])\n"
               "low = PCA(n_components=2).fit_transform(both)",
               {"enc": enc, "df": df, "np": np, "PCA": PCA})
    assert env["codes"].shape == (5, 3) and env["codes"].sample.shape == (5, 3)
    assert env["both"].shape == (5, 4)
    assert env["low"].shape == (5, 2)


class _Hostile:
    def __getattribute__(self, name):
        raise RuntimeError("boom")


class _Meta(type):
    def __getattribute__(cls, name):
        raise RuntimeError("meta boom")


class _HostileClass(metaclass=_Meta):
    pass


@pytest.mark.parametrize("source", [
    "h.x", "h.fit(1)", "h[0]", "h + 1", "len(h)", "np.hstack([h, h])", "torch.from_numpy(h)",
    "lin(h)", "for a in h:\n    pass", "h.shape[0]", "x = h\nx.y = 1", "del h.x", "f'{h}'",
    "X @ h", "X + h", "h == 1", "h in [1]", "df[h]", "df.loc[h]", "h(X)", "[h] * 3",
    "X[h]", "a, b = h", "H.x", "H()", "H[0]", "if h:\n    pass", "with h:\n    pass",
])
def test_an_object_whose_lookup_raises_makes_the_engine_abstain(source: str) -> None:
    ns = {"np": np, "torch": torch, "h": _Hostile(), "H": _HostileClass,
          "lin": nn.Linear(3, 2), "X": np.ones((4, 3)), "df": pd.DataFrame({"a": [1, 2]})}
    verdict = rules_engine(source, ns)
    assert verdict.crash is False, verdict.explanation
    assert "rule engine failed" not in verdict.explanation


# Working uses of built-in layers, losses and ops on tensors computed in the cell: torch
# runs each of them, so the meta-device propagation must never flag one.
VALID_TORCH = [
    "out = nn.MultiheadAttention(16, 4, batch_first=True)(q, q, q)[0]",
    "out = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, batch_first=True), 2)(q)",
    "out = nn.GRU(16, 8, num_layers=2, bidirectional=True, batch_first=True)(q)[0]",
    "out = nn.RNN(16, 8)(q.transpose(0, 1))[0]",
    "out = nn.LSTM(16, 8, batch_first=True)(q)[1][0]",
    "out = nn.Conv1d(16, 4, 3, padding='same')(q.transpose(1, 2))",
    "out = nn.ConvTranspose2d(3, 2, 2, stride=2)(img)",
    "out = nn.Upsample(scale_factor=2)(img)",
    "out = nn.Sequential(nn.BatchNorm2d(3), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())(img)",
    "out = nn.LayerNorm(16)(q)",
    "out = nn.GroupNorm(1, 3)(img)",
    "out = nn.InstanceNorm2d(3)(img)",
    "out = nn.Embedding(10, 4, padding_idx=0)(idx)",
    "out = nn.EmbeddingBag(10, 4, mode='mean')(idx)",
    "out = nn.PixelShuffle(2)(torch.randn(2, 8, 4, 4))",
    "out = nn.Unfold(kernel_size=2)(img)",
    "loss = nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=-100)(logits, idx[:, 0])",
    "loss = nn.CrossEntropyLoss()(logits, torch.softmax(torch.randn(4, 10), dim=1))",
    "loss = nn.NLLLoss(weight=torch.ones(10))(F.log_softmax(logits, dim=1), idx[:, 0])",
    "loss = nn.BCEWithLogitsLoss(pos_weight=torch.ones(10))(logits, torch.rand(4, 10))",
    "loss = nn.KLDivLoss(reduction='batchmean')(F.log_softmax(logits, 1), F.softmax(logits, 1))",
    "loss = nn.HuberLoss()(logits, torch.zeros(4, 10))",
    "loss = nn.MSELoss()(logits[:, :1], torch.randn(4, 1))",
    "loss = nn.CosineEmbeddingLoss()(logits, logits, torch.ones(4))",
    "loss = nn.TripletMarginLoss()(logits, logits, logits)",
    "oh = F.one_hot(idx[:, 0], num_classes=10).float() @ torch.randn(10, 3)",
    "oh = F.one_hot(idx[:, 0]).sum()",
    "w = torch.where(logits > 0, logits, torch.zeros_like(logits)).sum(dim=1)",
    "top = torch.topk(logits, 3, dim=1).values.mean()",
    "m = torch.max(logits, dim=1)[1].float().mean()",
    "s = torch.stack([logits, logits]).permute(1, 0, 2).reshape(4, -1)",
    "c = torch.cat([logits, torch.randn(4, 16)], dim=1) @ torch.randn(26, 2)",
    "e = torch.einsum('bij,bkj->bik', q, q).softmax(-1)",
    "n = torch.linalg.norm(logits, dim=1) / logits.norm(dim=1)",
    "i = F.interpolate(img, size=(16, 16), mode='bilinear', align_corners=False)",
    "p = F.pad(img, (1, 1, 2, 2)).mean()",
    "d = F.dropout(logits, p=0.5, training=True).shape",
    "g = torch.gather(logits, 1, idx[:, :1]).squeeze(1)",
    "x = img.view(img.size(0), -1)\nout = nn.Linear(3 * 8 * 8, 5)(x.float())",
    "x = img.flatten(1).unsqueeze(1).expand(-1, 3, -1).contiguous().sum(dim=1)",
    "mask = logits > 0\nz = logits.masked_fill(mask, 0.0).sum()",
    "h = nn.Sequential(nn.Linear(10, 10), nn.Tanh(), nn.Linear(10, 1), nn.Sigmoid())"
    "(logits).squeeze(-1)\nloss = nn.BCELoss()(h, torch.rand(4))",
]


def _torch_ns() -> dict:
    torch.manual_seed(0)
    return {"torch": torch, "nn": nn, "F": torch.nn.functional,
            "q": torch.randn(2, 5, 16), "img": torch.randn(2, 3, 8, 8),
            "idx": torch.randint(1, 10, (4, 3)), "logits": torch.randn(4, 10)}


@pytest.mark.parametrize("source", VALID_TORCH)
def test_working_torch_code_is_never_flagged(source: str) -> None:
    ns = _torch_ns()
    exec(compile(source, "<cell>", "exec"), dict(ns))  # the truth: it runs
    cell = f"logits = logits * torch.randn(4, 10)\n{source}"  # abstract logits too
    exec(compile(cell, "<cell>", "exec"), dict(ns))
    for text in (source, cell):
        verdict = rules_engine(text, _torch_ns())
        assert verdict.crash is False, verdict.explanation


PATCHES = """
b, c, h, w = images.shape
patches = images.unfold(2, patch, patch).unfold(3, patch, patch)
patches = patches.permute(0, 2, 3, 1, 4, 5)
tokens = patches.{flatten}(b, (h // patch) * (w // patch), c * patch * patch)
embedded = proj(tokens)
"""


def _patch_ns() -> dict:
    torch.manual_seed(0)
    return {"torch": torch, "images": torch.randn(4, 3, 16, 16), "patch": 4,
            "proj": nn.Linear(3 * 4 * 4, 8)}


def test_a_view_of_permuted_patches_is_tried_on_the_live_tensor() -> None:
    """The patches of an image batch (``unfold`` twice, then ``permute``) are not
    contiguous: ``view`` refuses them, ``reshape`` copies. The shape unpacked from
    ``images.shape`` (a ``torch.Size``) gives the sizes."""
    crash, fixed = PATCHES.format(flatten="view"), PATCHES.format(flatten="reshape")
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        exec(compile(crash, "<cell>", "exec"), _patch_ns())
    exec(compile(fixed, "<cell>", "exec"), _patch_ns())  # the truth: it runs
    ns = _patch_ns()
    before = ns["images"].clone()
    verdict = rules_engine(crash, ns, trial_budget_s=0.05)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 5), verdict
    assert "view size is not compatible" in verdict.explanation
    assert torch.equal(ns["images"], before)
    assert rules_engine(fixed, _patch_ns(), trial_budget_s=0.05).crash is False


@pytest.mark.parametrize("source", [
    "x = logits.masked_fill(logits > 0, 0.0).softmax(-1).topk(2, dim=1).values.sum()",
    "a, b = logits.chunk(2, dim=1)\nz = (a - b).abs().clamp(max=1.0).sqrt().mean()",
    "parts = logits.split([4, 6], dim=1)\nz = torch.cat(parts, dim=1).view(-1)",
    "z = img.flip(-1).roll(1, dims=2).movedim(1, -1).reshape(2, -1).std(dim=0)",
    "z = img.narrow(2, 0, 4).index_select(1, torch.tensor([0, 2])).unflatten(-1, (2, 4))",
    "z = logits.tril().triu(-1).diagonal().repeat_interleave(2).eq(0).all()",
    "z = torch.where(logits > 0, logits.exp(), logits.log_softmax(-1)).cumsum(1).sort(1)",
])
def test_working_tensor_methods_tried_on_live_values_are_never_flagged(source: str) -> None:
    ns = _torch_ns()
    exec(compile(source, "<cell>", "exec"), dict(ns))  # the truth: it runs
    ns = _torch_ns()
    before = {k: v.clone() for k, v in ns.items() if isinstance(v, torch.Tensor)}
    verdict = rules_engine(source, ns, trial_budget_s=0.05)
    assert verdict.crash is False, verdict.explanation
    assert all(torch.equal(ns[k], v) for k, v in before.items())


def test_no_override_of_a_users_subclass_runs() -> None:
    """A user's subclass of a library class is not recognised: its properties never run."""
    seen: list[str] = []

    class Frame(pd.DataFrame):
        @property
        def columns(self):
            seen.append("columns")
            return pd.DataFrame.columns.fget(self)

    class Net(nn.Sequential):
        def parameters(self, recurse=True):
            seen.append("parameters")
            return super().parameters(recurse)

    class Array(np.ndarray):
        @property
        def shape(self):
            seen.append("shape")
            return np.ndarray.shape.fget(self)

    ns = {"frame": Frame({"a": [1, 2]}), "net": Net(nn.Linear(3, 2)), "torch": torch,
          "arr": np.ones((2, 3)).view(Array), "np": np}
    for source in ("frame['zzz']", "net(torch.zeros(4, 3))", "arr.reshape(7)",
                   "np.concatenate([arr, np.ones((2, 2))])"):
        rules_engine(source, ns)
    assert seen == []


def test_results_too_large_are_never_computed() -> None:
    """A (1e6, 1) by (1, 1e6) product would allocate a trillion elements: skipped at once."""
    import tracemalloc
    ns = {"np": np, "a": np.ones((1_000_000, 1)), "b": np.ones((1, 1_000_000))}
    tracemalloc.start()  # numpy reports its buffers to tracemalloc
    try:
        for source in ("c = a @ b", "c = a + b", "c = a == b", "c = np.dot(a, b)",
                       "x = np.random.rand(1000000, 1)\ny = np.random.rand(1, 1000000)\n"
                       "z = x * y\nw = np.matmul(x, y)"):
            assert rules_engine(source, ns).crash is False
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000_000


def test_calls_that_write_into_their_arguments_are_not_tried() -> None:
    X = np.array([1.0, np.nan])
    rules_engine("np.nan_to_num(X, copy=False)\nnp.clip(X, 0, 0.5, out=X)", {"np": np, "X": X})
    assert X[0] == 1.0 and np.isnan(X[1])


@pytest.mark.parametrize("source", [
    "x = f(a,\n      b)\ny = 'é' + g(x)\n",
    "a = 1\r\nb = (a +\r\n     2)\rc = [d for d in 'αβ']\n",
    "s = '\\x0c'\n\x0cq = s * 2\n\n\nr = (q\n  + q)",
])
def test_the_walkers_source_text_is_asts_own(source):
    """`text` reads lines split once per walk; it says what ``ast.get_source_segment``
    says for every node, line ends, form feeds and non-ASCII text included."""
    walker = CellWalker(source, {}, RULES)
    for node in ast.walk(ast.parse(source)):
        expected = ast.get_source_segment(source, node)
        assert walker.text(node) == (expected or ast.unparse(node)), ast.dump(node)
