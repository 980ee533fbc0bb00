"""PyTorch: tensors, real models, datasets, loaders, optimizers; nothing iterated."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import rtextract  # noqa: E402

# These tests check what the facts say. A loaded CI machine can spend the default
# 30 ms budget on a library's first-use costs (lazy imports), cutting the
# facts short; the budget itself is tested in test_numpy_pandas and test_hostile.
BIG = 10_000.0


def describe(obj, **options):
    return rtextract.describe(obj, **{"budget_ms": BIG, **options})


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, kernel_size=3), nn.ReLU(),
                                      nn.MaxPool2d(2))
        self.head = nn.Linear(8 * 15 * 15, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def test_tensor_facts(check_facts):
    t = torch.tensor([[1.0, float("nan")], [3.0, -4.0]], requires_grad=True)
    facts = describe(t)
    check_facts(facts)
    assert facts.kind == "torch.Tensor"
    assert (facts.get("shape"), facts.get("dtype"), facts.get("device")) == ([2, 2], "float32", "cpu")
    assert facts.get("requires_grad") is True
    assert (facts.get("nan_count"), facts.get("min"), facts.get("max")) == (1, -4.0, 3.0)
    labels = describe(torch.tensor([0, 2, 2, 1]))
    assert labels.get("unique_values") == [0, 1, 2]
    assert describe(torch.Size([2, 3])).get("value") == [2, 3]


def test_large_tensor_is_sampled_without_copy(check_facts):
    t = torch.zeros(50_000_000)  # 200 MB
    facts = describe(t)
    check_facts(facts)
    assert facts.get("numel") == 50_000_000
    assert facts.fact("nan_count").note == "in first 100,000 of 50,000,000 elements"


def test_described_tensor_can_still_be_resized():
    # .numpy() of a tensor's own storage marks the storage not resizable for good
    t = torch.rand(10, 3)
    assert describe(t).get("min") is not None
    t.resize_(20, 3)
    assert t.untyped_storage().resizable()


def test_meta_and_sparse_tensors_give_structure_only(check_facts):
    meta = describe(torch.empty(3, 4, device="meta"))
    check_facts(meta)
    assert meta.get("shape") == [3, 4] and meta.get("nan_count") is None
    sparse = describe(torch.eye(3).to_sparse())
    check_facts(sparse)
    assert sparse.get("layout") == "torch.sparse_coo"


def test_sequential_architecture(check_facts, attribute_ids):
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    model.eval()
    before = attribute_ids(model)
    facts = describe(model)
    assert attribute_ids(model) == before
    check_facts(facts)
    assert facts.kind == "torch.nn.Module"
    assert facts.get("training") is False
    assert facts.get("n_parameters") == 4 * 16 + 16 + 16 * 3 + 3
    assert facts.get("input_features") == 4
    assert facts.get("output_features") == 3
    assert facts.get("layers")[0] == {"name": "0", "type": "Linear", "in_features": 4,
                                      "out_features": 16}
    assert facts.get("layers")[2] == {"name": "2", "type": "Dropout", "p": 0.2}
    assert facts.child("0").get("config") == {"in_features": 4, "out_features": 16}


def test_custom_module_with_conv(check_facts):
    facts = describe(TinyNet())
    check_facts(facts)
    assert facts.get("class") == "TinyNet"
    assert facts.get("input_features") == 3
    assert facts.get("output_features") == 10
    rows = {row["name"]: row for row in facts.get("layers")}
    assert rows["features.0"]["out_channels"] == 8
    assert rows["features.0"]["kernel_size"] == [3, 3]
    assert rows["head"]["in_features"] == 1800
    assert [name for name, _ in facts.children] == ["features", "head"]


def test_loss_module():
    facts = describe(nn.CrossEntropyLoss(ignore_index=0))
    assert facts.kind == "torch.loss"
    assert (facts.get("reduction"), facts.get("ignore_index")) == ("mean", 0)


class RecordingDataset(torch.utils.data.Dataset):
    def __init__(self):
        self.calls = []
        self.x = torch.zeros(10, 3)

    def __len__(self):
        return 10

    def __getitem__(self, i):
        self.calls.append(i)
        return self.x[i]


def test_dataloader_is_not_iterated_and_rng_untouched(check_facts, rng_states):
    torch.manual_seed(0)
    ds = RecordingDataset()
    loader = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True)
    before = rng_states()
    facts = describe(loader)
    check_facts(facts)
    assert rng_states() == before
    assert ds.calls == []
    assert facts.kind == "torch.DataLoader"
    assert (facts.get("batch_size"), facts.get("n_batches"), facts.get("shuffle")) == (4, 3, True)
    child = facts.child("dataset")
    assert child.get("length") == 10
    assert child.get("attributes")["x"] == "Tensor shape [10, 3] torch.float32"
    dropped = describe(torch.utils.data.DataLoader(ds, batch_size=4, drop_last=True))
    assert dropped.get("n_batches") == 2


def test_tensor_dataset_first_item(check_facts):
    ds = torch.utils.data.TensorDataset(torch.zeros(6, 2, 5), torch.arange(6))
    facts = describe(ds)
    check_facts(facts)
    assert facts.get("length") == 6
    assert facts.get("first_item") == [{"shape": [2, 5], "dtype": "float32"},
                                       {"shape": [], "dtype": "int64"}]


def test_iterable_dataset_is_never_iterated():
    class Stream(torch.utils.data.IterableDataset):
        def __iter__(self):
            raise AssertionError("iterated")

    facts = describe(torch.utils.data.DataLoader(Stream(), batch_size=2))
    assert facts.get("n_batches") is None
    assert facts.child("dataset").get("iterable") is True


def test_optimizer_and_scheduler(check_facts):
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    facts = describe(opt)
    check_facts(facts)
    assert (facts.kind, facts.get("lr"), facts.get("n_params")) == ("torch.optim.Optimizer", [0.1], 2)
    assert facts.get("hyperparameters")["momentum"] == 0.9
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
    facts = describe(sched)
    assert (facts.kind, facts.get("base_lrs")) == ("torch.optim.LRScheduler", [0.1])


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_tensor_stays_on_device(check_facts):
    t = torch.zeros(10_000_000, device="cuda")
    facts = describe(t)
    check_facts(facts)
    assert facts.get("device").startswith("cuda")
    assert facts.fact("nan_count").note == "in first 100,000 of 10,000,000 elements"
