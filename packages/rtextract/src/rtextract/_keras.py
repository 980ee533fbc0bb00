"""Adapter for TensorFlow and Keras (keras 3, tf.keras, and keras 2 / tf_keras by class
name): models, layers, tensors, variables, tf.data datasets, optimizers and the legacy
image iterators.

Classes are recognised by the names in their MRO, so the same code serves ``keras.src...``
and ``tensorflow.python...`` objects. Datasets are never iterated (cardinality only);
image iterators are read from their instance ``__dict__`` and never advanced.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from rtextract._builder import Builder, dict_of, head_index, jsonable

__all__ = ["SAMPLE_ELEMENTS", "describe"]

SAMPLE_ELEMENTS = 100_000
_LAYER_FIELDS = ("units", "filters", "kernel_size", "strides", "padding", "rate", "pool_size",
                 "input_dim", "output_dim", "target_shape", "axis", "return_sequences")
_ITERATOR_FIELDS = ("samples", "n", "batch_size", "image_shape", "target_size", "color_mode",
                    "class_mode", "num_classes", "shuffle", "seed")
_GENERATOR_FIELDS = ("rescale", "rotation_range", "width_shift_range", "height_shift_range",
                     "zoom_range", "horizontal_flip", "vertical_flip", "validation_split",
                     "featurewise_center", "samplewise_center", "data_format")


def describe(obj: Any, b: Builder) -> bool:
    names = {(k.__module__.partition(".")[0], k.__name__) for k in type(obj).__mro__}
    tops = {top for top, _ in names}
    plain = {name for _, name in names}
    if "Model" in plain and tops & {"keras", "tf_keras", "tensorflow"}:
        _model(obj, b)
    elif "Layer" in plain and "Variable" not in plain:
        _layer(obj, b, "keras.Layer")
    elif "KerasTensor" in plain:
        b.kind = "keras.KerasTensor"
        b.add("shape", jsonable(tuple(obj.shape)), "S")
        b.add("dtype", str(obj.dtype), "R")
        b.add("symbolic", True, "R")
    elif "Variable" in plain or "BaseResourceVariable" in plain:
        _variable(obj, b, "keras.Variable" if "keras" in tops else "tf.Variable")
    elif "_EagerTensorBase" in plain or "EagerTensor" in plain:
        _tensor(obj, b)
    elif "DatasetV2" in plain:
        _dataset(obj, b)
    elif "ImageDataGenerator" in plain:
        _image_generator(obj, b)
    elif "Iterator" in plain and any("image" in k.__module__ for k in type(obj).__mro__):
        _image_iterator(obj, b)
    elif "Optimizer" in plain and "keras" in tops:
        _optimizer(obj, b)
    elif ("RaggedTensor" in plain or "SparseTensor" in plain or "Tensor" in plain) and "tensorflow" in tops:
        b.kind = "tf.RaggedTensor" if "RaggedTensor" in plain else (
            "tf.SparseTensor" if "SparseTensor" in plain else "tf.Tensor")
        b.add("shape", _dims(obj.shape), "S")
        b.add("dtype", obj.dtype.name, "R")
        b.add("symbolic", "SparseTensor" not in plain and "RaggedTensor" not in plain, "R")
    else:
        return False
    return True


def _dims(shape: Any) -> Any:
    try:
        return shape.as_list()  # TensorShape; fails for unknown rank
    except (AttributeError, ValueError):
        pass
    try:
        return [d if d is None else int(d) for d in tuple(shape)]
    except (TypeError, ValueError):
        return None


def _model(m: Any, b: Builder) -> None:
    b.kind = "keras.Model"
    state = dict_of(m)
    b.add("class", type(m).__name__, "R")
    b.add("name", state.get("name", state.get("_name")), "R")
    built = bool(state.get("built", False))
    b.add("built", built, "V")
    b.step("layers", _model_layers, m, b)
    if built:
        b.step("input shape", lambda: b.add("input_shape", _shape_of(m.input_shape), "S"))
        b.step("output shape", lambda: b.add("output_shape", _shape_of(m.output_shape), "S"))
        b.step("parameters", lambda: b.add("n_parameters", int(m.count_params()), "S"))
    else:
        b.note("model not built: input/output shapes and parameter count unknown")
    b.step("compile state", _compile_state, m, state, b)


def _shape_of(shape: Any) -> Any:
    if isinstance(shape, list):
        return [_shape_of(s) for s in shape]
    if isinstance(shape, tuple) and all(d is None or type(d) is int for d in shape):
        return list(shape)
    return jsonable(shape)


def _model_layers(m: Any, b: Builder) -> None:
    layers = list(m.layers)
    b.add("n_layers", len(layers), "S")
    rows = [_layer_row(layer) for layer in layers[: b.max_items]]
    b.add("layers", rows, "R", None if len(layers) <= b.max_items else
          f"first {b.max_items} of {len(layers)} layers")
    for layer in layers[: b.max_items]:
        b.child(str(dict_of(layer).get("name", type(layer).__name__)), layer)


def _layer_row(layer: Any) -> dict[str, Any]:
    state = dict_of(layer)
    row: dict[str, Any] = {"name": state.get("name", state.get("_name")), "type": type(layer).__name__}
    for field in _LAYER_FIELDS:
        value = state.get(field)
        if value is not None and type(value) in (int, float, bool, str, tuple, list):
            row[field] = jsonable(value)
    activation = state.get("activation")
    if callable(activation):
        row["activation"] = getattr(activation, "__name__", type(activation).__name__)
    if state.get("built"):
        try:
            row["output_shape"] = _shape_of(tuple(layer.output.shape))
        except Exception:  # a layer never called symbolically has no output yet
            pass
    return row


def _compile_state(m: Any, state: dict[str, Any], b: Builder) -> None:
    compiled = bool(state.get("compiled", state.get("_is_compiled", False)))
    b.add("compiled", compiled, "V")
    if not compiled:
        return
    loss = state.get("loss")
    b.add("loss", _named(loss), "R")
    optimizer = state.get("optimizer")
    if optimizer is not None:
        b.add("optimizer", type(optimizer).__name__, "R")
        b.step("learning rate", lambda: b.add("learning_rate", float(optimizer.learning_rate), "V"))
    metrics = dict_of(state.get("_compile_metrics")).get("_user_metrics")
    if metrics is None:
        metrics = state.get("compiled_metrics") if isinstance(state.get("compiled_metrics"), list) else None
    if metrics is not None:
        b.add("metrics", _named(metrics), "R")


def _named(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [_named(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _named(v) for k, v in value.items()}
    name = getattr(value, "__name__", None)
    return name if isinstance(name, str) else type(value).__name__


def _layer(layer: Any, b: Builder, kind: str) -> None:
    b.kind = kind
    state = dict_of(layer)
    row = _layer_row(layer)
    b.add("class", row.pop("type"), "R")
    b.add("name", row.pop("name"), "R")
    b.add("built", bool(state.get("built", False)), "V")
    trainable = state.get("_trainable", state.get("trainable"))
    if type(trainable) is bool:
        b.add("trainable", trainable, "R")
    b.add("config", row, "R")
    if state.get("built"):
        b.step("weights", lambda: b.add(
            "weight_shapes", [list(_dims(w.shape) or []) for w in layer.weights], "S"))


def _variable(v: Any, b: Builder, kind: str) -> None:
    b.kind = kind
    b.add("shape", _dims(v.shape), "S")
    dtype = v.dtype
    b.add("dtype", getattr(dtype, "name", str(dtype)), "R")
    b.add("name", jsonable(getattr(v, "name", None)), "R")
    b.add("trainable", bool(v.trainable), "R")
    value = v.value if kind == "keras.Variable" else v
    value = value() if callable(value) else value
    b.step("values", _values, value, b)


def _tensor(t: Any, b: Builder) -> None:
    b.kind = "tf.Tensor"
    b.add("shape", _dims(t.shape), "S")
    b.add("dtype", t.dtype.name, "R")
    b.add("device", t.device, "R")
    b.step("values", _values, t, b)


def _values(t: Any, b: Builder) -> None:
    """Value facts of a tf/keras tensor from a leading block converted to numpy.

    Works for any Keras backend: the block is indexed with the backend's own slicing and
    only that block is converted (a torch block is moved to the CPU, never the tensor).
    """
    np = sys.modules.get("numpy")
    shape = _dims(t.shape)
    if np is None or shape is None or None in shape or math.prod(shape) == 0:
        return
    try:
        kind = np.dtype(getattr(t.dtype, "name", str(t.dtype)).removeprefix("torch.")).kind
    except TypeError:  # string, resource or variant tensors have no numeric summary
        return
    if kind not in "biuf":
        return
    index, taken = head_index(tuple(shape), SAMPLE_ELEMENTS)
    total = math.prod(shape)
    block = t[index] if shape else t
    if hasattr(block, "numpy") and not hasattr(block, "detach"):
        block = block.numpy()
    elif hasattr(block, "detach"):
        block = block.detach().cpu().numpy()
    note = None if taken == total else f"in first {taken:,} of {total:,} elements"
    from rtextract._numpy import summarise_values

    summarise_values(np, np.asarray(block), b, note)


def _dataset(ds: Any, b: Builder) -> None:
    b.kind = "tf.data.Dataset"
    b.add("class", type(ds).__name__, "R")
    b.step("element_spec", lambda: b.add("element_spec", _spec(ds.element_spec), "R"))
    b.step("cardinality", _cardinality, ds, b)
    state = dict_of(ds)
    if isinstance(state.get("class_names"), list):
        b.add("class_names", state["class_names"], "V")
        b.add("n_classes", len(state["class_names"]), "S")
    if isinstance(state.get("file_paths"), list):
        b.add("n_files", len(state["file_paths"]), "S")
    b.note("datasets are never iterated: cardinality only")


def _cardinality(ds: Any, b: Builder) -> None:
    n = int(ds.cardinality())
    b.add("cardinality", {-1: "infinite", -2: "unknown"}.get(n, n), "S")


def _spec(spec: Any) -> Any:
    if isinstance(spec, (tuple, list)):
        return [_spec(s) for s in spec]
    if isinstance(spec, dict):
        return {str(k): _spec(v) for k, v in sorted(spec.items(), key=lambda kv: str(kv[0]))}
    shape = getattr(spec, "shape", None)
    dtype = getattr(spec, "dtype", None)
    if shape is not None and dtype is not None:
        return {"shape": _dims(shape), "dtype": getattr(dtype, "name", str(dtype))}
    return type(spec).__name__


def _image_iterator(it: Any, b: Builder) -> None:
    b.kind = "keras.ImageIterator"
    state = dict_of(it)
    b.add("class", type(it).__name__, "R")
    indices = state.get("class_indices")
    if isinstance(indices, dict):
        b.add("class_indices", dict(sorted(indices.items(), key=lambda kv: kv[1])), "V")
        b.add("n_classes", len(indices), "S")
    for field in _ITERATOR_FIELDS:
        if field in state:
            b.add(field, jsonable(state[field]), "V" if field in ("shuffle", "seed") else "S")
    n, size = state.get("n"), state.get("batch_size")
    if type(n) is int and type(size) is int and size > 0:
        b.add("n_batches", math.ceil(n / size), "S", "computed; the iterator is never advanced")
    b.note("image iterators are never advanced")


def _image_generator(gen: Any, b: Builder) -> None:
    b.kind = "keras.ImageDataGenerator"
    state = dict_of(gen)
    config = {f: jsonable(state[f]) for f in _GENERATOR_FIELDS if f in state}
    b.add("config", config, "R")


def _optimizer(opt: Any, b: Builder) -> None:
    b.kind = "keras.Optimizer"
    b.add("class", type(opt).__name__, "R")
    b.step("learning rate", lambda: b.add("learning_rate", float(opt.learning_rate), "V"))
