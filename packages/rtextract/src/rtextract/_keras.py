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
import types
from typing import Any

from rtextract._builder import (
    Builder,
    dict_of,
    head_index,
    jsonable,
    short_name,
    static_attr,
    top_module,
    type_name,
)
from rtextract._trust import library_attr, user_classes
from rtextract._views import library_class

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
    names = {(top_module(k), short_name(k)) for k in _mro(type(obj))}
    tops = {top for top, _ in names}
    plain = {name for _, name in names}
    guard = _user_code(obj)
    if guard is not None:
        b.note(f"{guard}: Keras runs its code, so its properties are read under a time bound")
    if "Model" in plain and tops & {"keras", "tf_keras", "tensorflow"}:
        _model(obj, b, guard)
    elif "Layer" in plain and "Variable" not in plain:
        _layer(obj, b, "keras.Layer", guard)
    elif "KerasTensor" in plain:
        b.kind = "keras.KerasTensor"
        b.add("shape", jsonable(tuple(library_attr(obj, "shape"))), "S")
        b.add("dtype", str(library_attr(obj, "dtype")), "R")
        b.add("symbolic", True, "R")
    elif "Variable" in plain or "BaseResourceVariable" in plain:
        _variable(obj, b, "keras.Variable" if "keras" in tops else "tf.Variable", guard)
    elif "_EagerTensorBase" in plain or "EagerTensor" in plain:
        _tensor(obj, b, guard)
    elif "DatasetV2" in plain:
        _dataset(obj, b, guard)
    elif "ImageDataGenerator" in plain:
        _image_generator(obj, b)
    elif "Iterator" in plain and any("image" in _module(k) for k in _mro(type(obj))):
        _image_iterator(obj, b)
    elif "Optimizer" in plain and "keras" in tops:
        _optimizer(obj, b, guard)
    elif ("RaggedTensor" in plain or "SparseTensor" in plain or "Tensor" in plain) and "tensorflow" in tops:
        b.kind = "tf.RaggedTensor" if "RaggedTensor" in plain else (
            "tf.SparseTensor" if "SparseTensor" in plain else "tf.Tensor")
        b.add("shape", _dims(library_attr(obj, "shape")), "S")
        b.add("dtype", library_attr(obj, "dtype").name, "R")
        b.add("symbolic", "SparseTensor" not in plain and "RaggedTensor" not in plain, "R")
    else:
        return False
    return True


def _mro(tp: type) -> tuple[type, ...]:
    return type.__getattribute__(tp, "__mro__")


def _module(klass: type) -> str:
    module = type.__getattribute__(klass, "__module__")
    return module if type(module) is str else ""


def _user_code(obj: Any) -> str | None:
    """Why Keras's own properties of ``obj`` may run user code: a user class in its MRO
    or among its layers (their ``call``, ``build``, ``compute_output_shape``, a learning
    rate schedule's ``__call__``...), or None."""
    for value in (obj, *_sublayers(obj)):
        found = user_classes(type(value))
        if found:
            return f"user class {type_name(found[0])}"
    return None


def _sublayers(obj: Any) -> list[Any]:
    """The layers a model or layer tracks, from its instance dict (a Keras TrackedList)."""
    layers = dict_of(obj).get("_layers")
    if type(layers) is list or issubclass(type(layers), list) and library_class(type(layers)):
        return list.__getitem__(layers, slice(0, 1000))
    return []


def _dims(shape: Any) -> Any:
    try:
        return shape.as_list()  # TensorShape; fails for unknown rank
    except (AttributeError, ValueError):
        pass
    try:
        return [d if d is None else int(d) for d in tuple(shape)]
    except (TypeError, ValueError):
        return None


def _model(m: Any, b: Builder, guard: str | None) -> None:
    b.kind = "keras.Model"
    state = dict_of(m)
    b.add("class", short_name(type(m)), "R")
    b.add("name", jsonable(state.get("name", state.get("_name"))), "R")
    built = state.get("built", False) is True
    b.add("built", built, "V")
    b.step("layers", _model_layers, m, b, user_code=guard)
    if built:
        for key in ("input_shape", "output_shape"):
            b.step(key.replace("_", " "), _add_shape, m, key, b, user_code=guard)
        b.step("parameters", lambda: b.add(
            "n_parameters", int(library_attr(m, "count_params")()), "S"), user_code=guard)
    else:
        b.note("model not built: input/output shapes and parameter count unknown")
    b.step("compile state", _compile_state, m, state, b, guard, user_code=guard)


def _add_shape(m: Any, key: str, b: Builder) -> None:
    b.add(key, _shape_of(library_attr(m, key)), "S")


def _shape_of(shape: Any) -> Any:
    if type(shape) is list:
        return [_shape_of(s) for s in shape]
    if type(shape) is tuple and all(d is None or type(d) is int for d in shape):
        return list(shape)
    return jsonable(shape)


def _model_layers(m: Any, b: Builder) -> None:
    layers = list(library_attr(m, "layers"))
    b.add("n_layers", len(layers), "S")
    rows = [_layer_row(layer) for layer in layers[: b.max_items]]
    b.add("layers", rows, "R", None if len(layers) <= b.max_items else
          f"first {b.max_items} of {len(layers)} layers")
    for layer in layers[: b.max_items]:
        b.child(str(jsonable(dict_of(layer).get("name", short_name(type(layer))))), layer)


def _layer_row(layer: Any) -> dict[str, Any]:
    state = dict_of(layer)
    row: dict[str, Any] = {"name": jsonable(state.get("name", state.get("_name"))),
                           "type": short_name(type(layer))}
    for field in _LAYER_FIELDS:
        value = state.get(field)
        if value is not None and type(value) in (int, float, bool, str, tuple, list):
            row[field] = jsonable(value)
    activation = state.get("activation")
    if callable(activation):
        row["activation"] = _name_of(activation)
    if state.get("built") is True:
        try:
            output = library_attr(layer, "output")
            row["output_shape"] = _shape_of(tuple(library_attr(output, "shape")))
        except Exception:  # a layer never called symbolically has no output yet
            pass
    return row


def _compile_state(m: Any, state: dict[str, Any], b: Builder, guard: str | None) -> None:
    compiled = state.get("compiled", state.get("_is_compiled", False)) is True
    b.add("compiled", compiled, "V")
    if not compiled:
        return
    loss = state.get("loss")
    b.add("loss", _named(loss), "R")
    optimizer = state.get("optimizer")
    if optimizer is not None:
        b.add("optimizer", short_name(type(optimizer)), "R")
        b.step("learning rate", lambda: b.add(
            "learning_rate", float(library_attr(optimizer, "learning_rate")), "V"),
            user_code=guard or _user_code(optimizer) or _schedule(optimizer))
    metrics = dict_of(state.get("_compile_metrics")).get("_user_metrics")
    if metrics is None:
        metrics = state.get("compiled_metrics") if type(state.get("compiled_metrics")) is list \
            else None
    if metrics is not None:
        b.add("metrics", _named(metrics), "R")


def _schedule(optimizer: Any) -> str | None:
    """A learning-rate schedule of the user's: reading the rate calls it."""
    for value in dict_of(optimizer).values():
        found = user_classes(type(value))
        if found and callable(value):
            return f"user class {type_name(found[0])}"
    return None


def _named(value: Any, depth: int = 0) -> Any:
    if value is None or type(value) in (str, int, float, bool):
        return value
    if depth > 4:
        return short_name(type(value))
    if type(value) in (list, tuple):
        return [_named(v, depth + 1) for v in value]
    if type(value) is dict:
        return {str(jsonable(k)): _named(v, depth + 1) for k, v in value.items()}
    return _name_of(value)


def _name_of(value: Any) -> str:
    """A function's ``__name__`` (a C getter of a final type), a class's, or the type's
    name: never a ``__getattr__`` or property of the user's."""
    if type(value) in (types.FunctionType, types.BuiltinFunctionType):
        return value.__name__
    if issubclass(type(value), type):
        return short_name(value)
    name = static_attr(value, "__name__")
    return name if type(name) is str else short_name(type(value))


def _layer(layer: Any, b: Builder, kind: str, guard: str | None) -> None:
    b.kind = kind
    state = dict_of(layer)
    row = b.step("layer", _layer_row, layer, bounded=True, user_code=guard) or {
        "name": jsonable(state.get("name", state.get("_name"))), "type": short_name(type(layer))}
    b.add("class", row.pop("type"), "R")
    b.add("name", row.pop("name"), "R")
    b.add("built", state.get("built", False) is True, "V")
    trainable = state.get("_trainable", state.get("trainable"))
    if type(trainable) is bool:
        b.add("trainable", trainable, "R")
    b.add("config", row, "R")
    if state.get("built") is True:
        b.step("weights", lambda: b.add("weight_shapes", [
            list(_dims(w.shape) or []) for w in library_attr(layer, "weights")], "S"),
            user_code=guard)


def _variable(v: Any, b: Builder, kind: str, guard: str | None) -> None:
    b.kind = kind
    b.step("variable", _variable_facts, v, b, kind, bounded=True, user_code=guard)


def _variable_facts(v: Any, b: Builder, kind: str) -> None:
    b.add("shape", _dims(library_attr(v, "shape")), "S")
    dtype = library_attr(v, "dtype")
    name = static_attr(dtype, "name")
    b.add("dtype", name if type(name) is str else str(dtype), "R")
    b.add("name", jsonable(library_attr(v, "name")), "R")
    b.add("trainable", bool(library_attr(v, "trainable")), "R")
    value = library_attr(v, "value") if kind == "keras.Variable" else v
    value = value() if callable(value) else value
    b.step("values", _values, value, b)


def _tensor(t: Any, b: Builder, guard: str | None) -> None:
    b.kind = "tf.Tensor"
    b.add("shape", _dims(library_attr(t, "shape")), "S")
    b.add("dtype", library_attr(t, "dtype").name, "R")
    b.add("device", library_attr(t, "device"), "R")
    b.step("values", _values, t, b, user_code=guard)


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
        block = block.detach().cpu().clone().numpy()  # a copy: see _torch._tensor_values
    note = None if taken == total else f"in first {taken:,} of {total:,} elements"
    from rtextract._numpy import summarise_values

    summarise_values(np, np.asarray(block), b, note)


def _dataset(ds: Any, b: Builder, guard: str | None) -> None:
    b.kind = "tf.data.Dataset"
    b.add("class", short_name(type(ds)), "R")
    b.step("element_spec", lambda: b.add(
        "element_spec", _spec(library_attr(ds, "element_spec")), "R"), user_code=guard)
    b.step("cardinality", _cardinality, ds, b, user_code=guard)
    state = dict_of(ds)
    if type(state.get("class_names")) is list:
        b.add("class_names", state["class_names"], "V")
        b.add("n_classes", len(state["class_names"]), "S")
    if type(state.get("file_paths")) is list:
        b.add("n_files", len(state["file_paths"]), "S")
    b.note("datasets are never iterated: cardinality only")


def _cardinality(ds: Any, b: Builder) -> None:
    n = int(library_attr(ds, "cardinality")())
    b.add("cardinality", {-1: "infinite", -2: "unknown"}.get(n, n), "S")


def _spec(spec: Any, depth: int = 0) -> Any:
    if depth > 6:
        return short_name(type(spec))
    if type(spec) in (tuple, list):
        return [_spec(s, depth + 1) for s in spec]
    if type(spec) is dict:
        return {str(jsonable(k)): _spec(v, depth + 1) for k, v in
                sorted(spec.items(), key=lambda kv: str(jsonable(kv[0])))}
    if not library_class(type(spec)):  # a spec of the user's: its properties are its code
        return short_name(type(spec))
    shape = getattr(spec, "shape", None)
    dtype = getattr(spec, "dtype", None)
    if shape is not None and dtype is not None:
        return {"shape": _dims(shape), "dtype": getattr(dtype, "name", str(dtype))}
    return short_name(type(spec))


def _image_iterator(it: Any, b: Builder) -> None:
    b.kind = "keras.ImageIterator"
    state = dict_of(it)
    b.add("class", short_name(type(it)), "R")
    indices = state.get("class_indices")
    if type(indices) is dict and all(type(v) is int for v in indices.values()):
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


def _optimizer(opt: Any, b: Builder, guard: str | None) -> None:
    b.kind = "keras.Optimizer"
    b.add("class", short_name(type(opt)), "R")
    b.step("learning rate", lambda: b.add(
        "learning_rate", float(library_attr(opt, "learning_rate")), "V"),
        user_code=guard or _schedule(opt))
