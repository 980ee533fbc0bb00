"""TensorFlow / Keras 3: models built and unbuilt, functional, compiled, tensors,
variables, tf.data and image iterators. Importing tensorflow is slow: one module only."""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

import rtextract  # noqa: E402

# These tests check what the facts say. A loaded CI machine can spend the default
# 30 ms budget on a library's first-use costs (lazy imports), cutting the
# facts short; the budget itself is tested in test_numpy_pandas and test_hostile.
BIG = 10_000.0


def describe(obj, **options):
    return rtextract.describe(obj, **{"budget_ms": BIG, **options})


def test_unbuilt_sequential(check_facts):
    model = keras.Sequential([keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
    facts = describe(model)
    check_facts(facts)
    assert facts.kind == "keras.Model"
    assert facts.get("built") is False
    assert facts.get("n_layers") == 2
    assert facts.get("layers")[0]["units"] == 8
    assert facts.get("layers")[0]["activation"] == "relu"
    assert facts.get("input_shape") is None
    assert facts.get("compiled") is False


def test_built_compiled_sequential(check_facts, attribute_ids):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(2)])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    before = attribute_ids(model)
    facts = describe(model)
    assert attribute_ids(model) == before
    check_facts(facts)
    assert facts.get("built") is True
    assert (facts.get("input_shape"), facts.get("output_shape")) == ([None, 3], [None, 2])
    assert facts.get("n_parameters") == 3 * 4 + 4 + 4 * 2 + 2
    assert facts.get("compiled") is True
    assert facts.get("loss") == "sparse_categorical_crossentropy"
    assert facts.get("optimizer") == "Adam"
    assert facts.get("learning_rate") == pytest.approx(0.01)
    assert facts.get("metrics") == ["accuracy"]
    assert facts.get("layers")[1]["output_shape"] == [None, 2]
    dense = facts.children[0][1]
    assert dense.kind == "keras.Layer" and dense.get("weight_shapes") == [[3, 4], [4]]


def test_functional_model(check_facts):
    inp = keras.Input((5,), name="features")
    out = keras.layers.Dense(2, name="logits")(keras.layers.Dense(3)(inp))
    facts = describe(keras.Model(inp, out))
    check_facts(facts)
    assert facts.get("class") == "Functional"
    assert (facts.get("input_shape"), facts.get("output_shape")) == ([None, 5], [None, 2])
    symbolic = describe(inp)
    assert (symbolic.kind, symbolic.get("shape")) == ("keras.KerasTensor", [None, 5])


def test_tensors_and_variables(check_facts):
    t = tf.constant([[1.0, float("nan")], [3.0, 4.0]])
    facts = describe(t)
    check_facts(facts)
    assert (facts.kind, facts.get("shape"), facts.get("dtype")) == ("tf.Tensor", [2, 2], "float32")
    assert facts.get("nan_count") == 1
    v = tf.Variable(tf.zeros((3, 2)), name="w")
    facts = describe(v)
    check_facts(facts)
    assert (facts.kind, facts.get("shape"), facts.get("trainable")) == ("tf.Variable", [3, 2], True)
    assert describe(tf.constant(["a", "b"])).get("dtype") == "string"
    kv = describe(keras.Variable([[1.0, 2.0], [3.0, 4.0]]))
    assert (kv.kind, kv.get("shape"), kv.get("max")) == ("keras.Variable", [2, 2], 4.0)


def test_tf_data_is_never_iterated(check_facts):
    ds = tf.data.Dataset.from_tensor_slices((np.zeros((10, 3), "float32"), np.arange(10))).batch(4)
    facts = describe(ds)
    check_facts(facts)
    assert facts.kind == "tf.data.Dataset"
    assert facts.get("cardinality") == 3
    assert facts.get("element_spec") == [{"shape": [None, 3], "dtype": "float32"},
                                         {"shape": [None], "dtype": "int64"}]
    assert describe(ds.repeat()).get("cardinality") == "infinite"
    calls = []

    def record(x):
        calls.append(1)
        return x

    mapped = tf.data.Dataset.range(5).map(lambda x: tf.py_function(record, [x], tf.int64))
    assert describe(mapped).get("cardinality") == 5
    assert calls == []
    assert describe(ds.unbatch().filter(lambda x, y: y > 2)).get("cardinality") == "unknown"


@pytest.fixture
def image_dir(tmp_path):
    from PIL import Image

    for label in ("cats", "dogs"):
        (tmp_path / label).mkdir()
        for i in range(3):
            Image.new("RGB", (8, 6), (i * 40, 0, 0)).save(tmp_path / label / f"{i}.png")
    return tmp_path


def test_image_dataset_from_directory_class_names(image_dir, check_facts):
    ds = keras.utils.image_dataset_from_directory(image_dir, image_size=(6, 8), batch_size=2,
                                                  shuffle=False)
    facts = describe(ds)
    check_facts(facts)
    assert facts.get("class_names") == ["cats", "dogs"]
    assert facts.get("element_spec")[0] == {"shape": [None, 6, 8, 3], "dtype": "float32"}


def test_legacy_directory_iterator_is_not_advanced(image_dir, check_facts):
    from keras.src.legacy.preprocessing.image import ImageDataGenerator

    gen = ImageDataGenerator(rescale=1 / 255)
    it = gen.flow_from_directory(image_dir, target_size=(6, 8), batch_size=4)
    before = (it.batch_index, it.total_batches_seen)
    facts = describe(it)
    check_facts(facts)
    assert (it.batch_index, it.total_batches_seen) == before
    assert facts.kind == "keras.ImageIterator"
    assert facts.get("class_indices") == {"cats": 0, "dogs": 1}
    assert (facts.get("samples"), facts.get("batch_size"), facts.get("n_batches")) == (6, 4, 2)
    assert facts.get("image_shape") == [6, 8, 3]
    assert describe(gen).get("config")["rescale"] == pytest.approx(1 / 255)
