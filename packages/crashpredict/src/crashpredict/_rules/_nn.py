"""PyTorch and Keras rules: module input features/channels, dtypes, devices, losses, shapes."""

from __future__ import annotations

import ast
import inspect
import math
import os
import sys
import textwrap
from typing import Any

from ._finding import Finding
from ._model_facts import record_compiled_loss
from ._values import (
    Changed,
    is_abstract,
    is_frame,
    is_keras_model,
    is_known,
    is_ndarray,
    is_series,
    is_tensor,
    is_torch_module,
    attr_or,
    meta_attr,
    safe_message,
    shape_of,
    text_value,
)
from ._walk._types import COMPILED_IN_CELL, CallSite

__all__ = ["torch_call", "keras_call"]

_PASS_THROUGH = frozenset({"ReLU", "Dropout", "Tanh", "Sigmoid", "LeakyReLU", "GELU",
                           "Identity", "ELU", "SiLU", "Softmax", "LogSoftmax", "Dropout2d"})


def _torch(exc: str, crash: str, text: str, evidence: tuple[str, ...] = ()) -> Finding:
    return Finding(exception=exc, crash_type=crash, library="torch", explanation=text,
                   evidence=evidence, confidence=0.95, rule="torch")


def _first_layer(module: Any, shape: tuple[int, ...]) -> tuple[Any, tuple[int, ...]] | None:
    """The first parameterised layer the input reaches, with the input shape it sees."""
    name = type(module).__name__
    if not type(module).__module__.startswith("torch.nn"):
        return None
    if name == "Sequential":
        for child in module._modules.values():
            cname = type(child).__name__
            if cname in _PASS_THROUGH:
                continue
            if cname == "Flatten":
                start = child.start_dim % len(shape) if shape else 0
                end = child.end_dim % len(shape) if shape else 0
                shape = (*shape[:start], math.prod(shape[start:end + 1]), *shape[end + 1:])
                continue
            return _first_layer(child, shape)
        return None
    return module, shape


def torch_call(site: CallSite) -> Finding | None:
    """Calling a torch layer or loss on a live tensor that cannot fit it."""
    module = site.func
    if site.method is not None and site.method == "forward":
        module = site.receiver
    if not is_known(module) or not is_torch_module(module) or site.starred or not site.args:
        return None
    x = site.args[0]
    x_name = site.text(site.node.args[0])
    if not type(module).__module__.startswith("torch.nn"):
        entry = _forward_entry(module) if is_tensor(x) and len(site.args) == 1 and \
            not site.kwargs else None
        if entry is None:
            return None
        reached = _first_layer(entry, tuple(x.shape))
        return _layer_input(reached[0], x, reached[1], x_name) if reached else None
    if is_ndarray(x):
        return _torch("TypeError", "type error",
                      f"{type(module).__name__} expects a torch.Tensor but {x_name} is a "
                      f"numpy.ndarray (convert it with torch.from_numpy / torch.tensor)")
    if not is_tensor(x):
        return None
    if type(module).__name__.endswith("Loss") and len(site.args) >= 2:
        return _loss(module, x, site.args[1])
    reached = _first_layer(module, tuple(x.shape))
    if reached is None:
        return None
    layer, shape = reached
    return _layer_input(layer, x, shape, x_name)


def _forward_entry(module: Any) -> Any:
    """The child layer a user module's forward() hands its input to unchanged, if any.

    Only the simple, common shape is accepted: the first statement of forward that mentions
    the input passes it, as the only argument, to ``self.<child>(x)``, and nothing before it
    can return or branch. Hooks that could change the input rule it out.
    """
    hooks = sys.modules.get("torch.nn.modules.module")
    if module._forward_pre_hooks or getattr(hooks, "_global_forward_pre_hooks", None):
        return None
    forward = getattr(type(module), "forward", None)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(forward)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, ast.FunctionDef) or len(fn.args.args) < 2 or fn.args.vararg:
        return None
    name = fn.args.args[1].arg
    for stmt in fn.body:
        uses = [n for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == name
                and isinstance(n.ctx, ast.Load)]
        if not uses:
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(stmt)):
                return None  # the input is rebound before it is used
            if any(isinstance(n, (ast.Return, ast.Raise, ast.If, ast.For, ast.While, ast.Try,
                                  ast.With)) for n in ast.walk(stmt)):
                return None
            continue
        if len(uses) != 1:
            return None
        for call in ast.walk(stmt):
            if isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords and \
                    call.args[0] is uses[0] and isinstance(call.func, ast.Attribute) and \
                    isinstance(call.func.value, ast.Name) and call.func.value.id == "self":
                child = module._modules.get(call.func.attr)
                return child if type(child).__module__.startswith("torch.nn") else None
        return None
    return None


def _layer_input(layer: Any, x: Any, shape: tuple[int, ...], x_name: str) -> Finding | None:
    name = type(layer).__name__
    weight = layer._parameters.get("weight") if hasattr(layer, "_parameters") else None
    if name == "Linear":
        if shape and shape[-1] != layer.in_features:
            rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
            return _torch("RuntimeError", "tensor shape mismatch",
                          f"mat1 and mat2 shapes cannot be multiplied ({rows}x{shape[-1]} and "
                          f"{layer.in_features}x{layer.out_features}): {x_name} has "
                          f"{shape[-1]} features, the Linear layer expects "
                          f"{layer.in_features}", (f"{x_name}.shape = {tuple(x.shape)}",))
    elif name in ("Conv1d", "Conv2d", "Conv3d"):
        dims = int(name[-2])
        if len(shape) not in (dims + 1, dims + 2):
            return _torch("RuntimeError", "tensor shape mismatch",
                          f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                          f"{name.lower()}, but {x_name} has shape {list(shape)}")
        channels = shape[-(dims + 1)]
        if channels != layer.in_channels * 1 and layer.groups == 1:
            return _torch("RuntimeError", "tensor shape mismatch",
                          f"{name} expects input with {layer.in_channels} channels, but "
                          f"{x_name} (shape {list(shape)}) has {channels} channels")
    elif name == "Embedding":
        if x.is_floating_point():
            return _torch("RuntimeError", "type error",
                          f"Embedding expects integer indices (Long or Int); {x_name} has "
                          f"dtype {x.dtype}")
        return None
    else:
        return None
    if weight is not None and x.dtype != weight.dtype:
        return _torch("RuntimeError", "type error",
                      f"{x_name} has dtype {x.dtype} but the {name} weights are "
                      f"{weight.dtype} (mat1 and mat2 must have the same dtype)")
    if weight is not None and x.device != weight.device:
        return _torch("RuntimeError", "type error",
                      f"Expected all tensors to be on the same device: {x_name} is on "
                      f"{x.device}, the {name} weights on {weight.device}")
    return None


def _loss(loss: Any, out: Any, target: Any) -> Finding | None:
    if not is_tensor(target):
        return None
    name = type(loss).__name__
    if name in ("CrossEntropyLoss", "NLLLoss") and out.ndim >= 2:
        if target.ndim == out.ndim - 1:
            if target.is_floating_point():
                return _torch("RuntimeError", "type error",
                              f"{name} with class-index targets needs Long targets; the target "
                              f"has dtype {target.dtype}")
            if target.shape[0] != out.shape[0]:
                return _torch("ValueError", "tensor shape mismatch",
                              f"Expected input batch_size ({out.shape[0]}) to match target "
                              f"batch_size ({target.shape[0]})")
    if name in ("BCELoss", "BCEWithLogitsLoss") and tuple(target.shape) != tuple(out.shape):
        return _torch("ValueError", "tensor shape mismatch",
                      f"Using a target size ({tuple(target.shape)}) that is different to the "
                      f"input size ({tuple(out.shape)}) is not allowed in {name}")
    return None


# ----- Keras ---------------------------------------------------------------------------
_KERAS_DATA_METHODS = frozenset({"fit", "predict", "evaluate", "train_on_batch",
                                 "predict_on_batch", "test_on_batch"})


def _keras(text: str, crash: str = "tensor shape mismatch",
           evidence: tuple[str, ...] = ()) -> Finding:
    return Finding(exception="ValueError", crash_type=crash, library="tensorflow",
                   explanation=text, evidence=evidence, confidence=0.93, rule="keras")


def _input_shape(model: Any) -> tuple | None:
    try:
        shape = model.input_shape
    except Exception:
        return None
    if isinstance(shape, tuple) and all(d is None or type(d) is int for d in shape):
        return shape
    return None


def keras_call(site: CallSite) -> Finding | None:
    """model.fit/predict/evaluate with data whose shape the built model cannot take; a
    model saved to a path Keras 3 refuses."""
    if isinstance(site.func, type):
        return _optimizer_arguments(site)
    model, func = site.receiver, site.func
    if isinstance(model, Changed) and site.method:  # trained earlier in the cell: its
        model = model.obj  # class is certain, and with it the method
        func = inspect.getattr_static(type(model), site.method, None)
    keras_code = is_known(func) and str(meta_attr(func, "__module__") or "").startswith(
        "keras.")
    if keras_code and meta_attr(func, "__name__") == "save_model":
        return _keras_save(site, "save", 1)  # keras.models.save_model(model, path)
    if site.method in ("save", "save_weights") and (is_abstract(model, "keras") or (
            keras_code and is_keras_model(model))):
        return _keras_save(site, site.method, 0)  # Keras' own method, not a subclass's
    model = site.receiver
    if is_abstract(model, "keras"):
        if site.method == "compile":
            return _compile_arguments(site)
        model = model.meta  # the facts of a Sequential built in this cell
    elif site.method == "compile" and is_known(model) and is_keras_model(model):
        record_compiled_loss(site)  # what fit is checked against from here on
        return _compile_arguments(site)
    elif not is_known(model) or not is_keras_model(model):
        return None
    if site.method not in _KERAS_DATA_METHODS or site.starred:
        return None
    x = site.args[0] if site.args else site.kwargs.get("x")
    if is_abstract(x) and shape_of(x):
        return _abstract_input(model, x, site)
    if x is None or not is_known(x) or not (is_ndarray(x) or is_tensor(x) or is_frame(x)):
        return None
    x_name = site.text(site.node.args[0]) if site.node.args else "x"
    found = _keras_dtype(x, x_name)
    if found is not None:
        return found
    y = site.args[1] if len(site.args) > 1 else site.kwargs.get("y")
    if is_series(y) or is_frame(y):
        y = y.to_numpy()
    if site.method in ("fit", "evaluate", "train_on_batch") and y is not None and is_known(
            y) and is_ndarray(y) and len(y) != len(x):
        return _keras(f"Data cardinality is ambiguous: {x_name} has {len(x)} samples and the "
                      f"labels have {len(y)}", "value error")
    expected = _input_shape(model)
    if expected is None:
        return None
    shape = tuple(int(d) for d in x.shape)
    adjusted = _adjust_rank(shape, expected)
    if adjusted is None:
        return _keras(f"Invalid input shape: {_kind(model)} expects "
                      f"{expected} but {x_name} has shape {shape}",
                      evidence=(f"model.input_shape = {expected}",))
    for axis, (want, got) in enumerate(zip(expected, adjusted)):
        if axis and want is not None and want != got:
            return _keras(f"Input 0 of {_kind(model)} is incompatible: expected "
                          f"shape {expected}, but {x_name} has shape {shape} (axis {axis}: "
                          f"{got} != {want})", evidence=(f"model.input_shape = {expected}",))
    if site.method == "fit" and y is not None and is_known(y) and is_ndarray(y):
        return _loss_labels(model, y, site.walker.scratch.get(COMPILED_IN_CELL, {}))
    if site.method == "fit" and is_abstract(y, "ndarray") and y.shape is not None:
        return _loss_labels(model, y, site.walker.scratch.get(COMPILED_IN_CELL, {}))
    return None


#: What Keras 3's ``save`` takes besides the path (the rest it refuses).
_SAVE_ARGUMENTS = frozenset({"filepath", "overwrite", "zipped", "include_optimizer",
                             "save_format"})


def _keras_save(site: CallSite, method: str, position: int) -> Finding | None:
    """Keras 3 saves a model only to a ``.keras`` or ``.h5`` file (the SavedModel folder of
    ``model.save('model')`` is gone: ``export`` makes it), and weights only to a
    ``.weights.h5`` file; it refuses ``save_format`` with any other path. Checked where
    the installed Keras is 3 or later and the path is a known text or path."""
    keras = sys.modules.get("keras")
    try:
        major = int(str(getattr(keras, "__version__", "0")).split(".")[0])
    except ValueError:
        return None
    if major < 3 or site.starred or "tf_keras" in sys.modules:
        return None
    path = site.args[position] if len(site.args) > position else site.kwargs.get("filepath")
    if is_known(path) and isinstance(path, os.PathLike):
        try:
            path = os.fspath(path)
        except Exception:  # noqa: BLE001 - a strange path object: not this rule's
            return None
    if type(path) is not str or not path or path.startswith("hf://"):
        return None
    if method == "save_weights":
        if site.kwargs.get("max_shard_size") is not None or path.endswith(".weights.h5"):
            return None
        return _keras(f"The filename must end in `.weights.h5`. Received: filepath={path} "
                      f"(Keras {keras.__version__} saves weights only to a .weights.h5 file)",
                      "value error")
    if set(site.kwargs) - _SAVE_ARGUMENTS or site.kwargs.get("zipped") is not None:
        return None  # refused for another reason, or an unzipped folder: not this rule's
    if path.endswith((".keras", ".h5", ".hdf5")):
        return None
    if site.kwargs.get("save_format"):
        return _keras("The `save_format` argument is deprecated in Keras 3. Please remove "
                      "this argument and pass a file path with either `.keras` or `.h5` "
                      f"extension. Received: save_format={site.kwargs['save_format']}",
                      "value error")
    return _keras(f"Invalid filepath extension for saving: {path!r}. Keras "
                  f"{keras.__version__} saves a model only to a `.keras` file (or a "
                  f"legacy `.h5` one); `model.export({path!r})` makes a SavedModel folder",
                  "value error")


def _kind(model: Any) -> str:
    """The model's class name; a Sequential built in the cell is known by its facts."""
    name = type(model).__name__
    return "Sequential" if name == "KerasFacts" else name


def _keras_dtype(x: Any, x_name: str) -> Finding | None:
    """Keras converts the data to a float tensor: object or text arrays, and frames with
    text columns, are rejected before any layer runs."""
    if is_ndarray(x) and x.dtype.kind in "OUS" and x.size:
        return _keras(f"Invalid dtype: {x.dtype}: {x_name} is an array of {x.dtype} values; "
                      f"Keras needs numbers (convert with .astype('float32'), or encode the "
                      f"text first)", "value error")
    if is_frame(x) and x.size <= 5_000_000:
        for column in x.columns[(x.dtypes == object).to_numpy()][:50]:
            for value in x[column].dropna().iloc[:200]:
                if text_value(value):
                    try:
                        float(value)
                    except ValueError:
                        return _keras(f"could not convert string to float: {value!r}: column "
                                      f"{column!r} of {x_name} holds text", "value error")
    return None


def _abstract_input(model: Any, x: Any, site: CallSite) -> Finding | None:
    """An input computed in the cell: only its shape is checked against the model's."""
    expected = _input_shape(model)
    shape = shape_of(x) or ()
    x_name = site.text(site.node.args[0]) if site.node.args else "x"
    if expected is None:
        return None
    adjusted = _adjust_rank(shape, expected)
    if adjusted is None:
        return _keras(f"Invalid input shape: {_kind(model)} expects {expected} but "
                      f"{x_name} has shape {shape}", evidence=(f"model.input_shape = "
                                                                f"{expected}",))
    for axis, (want, got) in enumerate(zip(expected, adjusted)):
        if axis and want is not None and want != got:
            return _keras(f"Input 0 of {_kind(model)} is incompatible: expected "
                          f"shape {expected}, but {x_name} has shape {shape} (axis {axis}: "
                          f"{got} != {want})", evidence=(f"model.input_shape = {expected}",))
    return None


#: Keywords Keras 3's optimizers take and drop (with a warning).
_DROPPED_OPTIMIZER_KEYWORDS = frozenset({"decay"})
#: What a keyword Keras 3 does not take was renamed to.
_RENAMED_OPTIMIZER_KEYWORDS = {"lr": "learning_rate"}


def _optimizer_arguments(site: CallSite) -> Finding | None:
    """``keras.optimizers.Adam(lr=1e-3)``: Keras 3's own optimizers pass the keywords their
    ``__init__`` does not name down to the base optimizer, which rejects any left
    (``ValueError: Argument(s) not recognized``). Read from the signatures, without
    building one (that makes variables)."""
    cls = site.func
    base = getattr(sys.modules.get("keras.src.optimizers.base_optimizer"), "BaseOptimizer", None)
    if base is None or site.starred or not site.kwargs:
        return None
    try:
        mro = type.__getattribute__(cls, "__mro__")
        at = next((k for k, c in enumerate(mro) if c is base), None)  # by identity: a
        if at is None:  # metaclass's __eq__ is the notebook's code
            return None
        named: set[str] = set()
        for klass in mro[:at + 1]:
            init = vars(klass).get("__init__")
            if init is None:
                continue
            if not klass.__module__.startswith("keras."):
                return None  # a subclass of the notebook's or another library's may take them
            parameters = inspect.signature(init).parameters.values()
            named |= {p.name for p in parameters if p.kind in (
                p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
            if not any(p.kind is p.VAR_KEYWORD for p in parameters):
                break  # what it does not name goes no further: Python rejects it itself
    except (TypeError, ValueError, AttributeError):
        return None
    unknown = [k for k in site.kwargs if k not in named and k not in _DROPPED_OPTIMIZER_KEYWORDS]
    if not unknown or klass is not base:
        return None
    renamed = [f"`{k}` is now `{_RENAMED_OPTIMIZER_KEYWORDS[k]}`" for k in unknown
               if k in _RENAMED_OPTIMIZER_KEYWORDS]
    advice = f" ({'; '.join(renamed)})" if renamed else ""
    return Finding(exception="ValueError", crash_type="invalid argument", library="tensorflow",
                   confidence=0.95, rule="keras",
                   explanation=f"Argument(s) not recognized: {cls.__name__} takes no "
                               f"{', '.join(map(repr, unknown))}{advice}")


def _compile_arguments(site: CallSite) -> Finding | None:
    """``model.compile(optimizer='adamw2')``: Keras looks a string optimizer up at once."""
    optimizer = site.kwargs.get("optimizer", site.args[0] if site.args else None)
    if not isinstance(optimizer, str) or site.starred:
        return None
    module = sys.modules.get("keras.optimizers") or sys.modules.get(
        "tensorflow.keras.optimizers")
    get = getattr(module, "get", None)
    if get is None:
        return None
    known = getattr(sys.modules.get(getattr(get, "__module__", "") or ""), "ALL_OBJECTS_DICT", None)
    if isinstance(known, dict) and optimizer.lower() in known:
        return None  # a built-in name (Keras 3 looks them up so): no optimizer built to check
    try:
        get(optimizer)
    except ValueError as exc:
        message = safe_message(exc)
        if "optimizer" not in message:
            return None
        return _keras(f"{message}: Keras has no optimizer named {optimizer!r}",
                      "invalid argument")
    except Exception:
        return None
    return None


def _adjust_rank(shape: tuple[int, ...], expected: tuple) -> tuple[int, ...] | None:
    # Keras 3 squeezes or expands a trailing axis of size 1 when the rank is off by one.
    if len(shape) == len(expected):
        return shape
    if len(shape) == len(expected) + 1 and shape[-1] == 1:
        return shape[:-1]
    if len(shape) == len(expected) - 1 and expected[-1] == 1:
        return (*shape, 1)
    return None


def _loss_name(loss: Any) -> str | None:
    if isinstance(loss, str):
        return loss
    name = meta_attr(loss, "name") or meta_attr(loss, "__name__")
    return name if isinstance(name, str) else None


def _loss_labels(model: Any, y: Any, compiled: dict[int, tuple[Any, Any]]) -> Finding | None:
    """The compiled loss against the labels and the last layer's units; ``y`` a live array,
    or an `Abstract` one computed in the cell (its shape only)."""
    # the facts of a Sequential built in the cell (our own class), or a live model: the loss
    # the cell compiled it with, else its `loss` read statically (a user model's property is
    # not run)
    facts = type(model).__name__ == "KerasFacts"
    name = _loss_name(model.loss if facts else compiled[id(model)][0] if id(model) in compiled
                      else attr_or(model, "loss", None))
    try:
        units = model.output_shape[-1]
    except Exception:
        return None
    if name is None or type(units) is not int:
        return None
    width = y.shape[1] if y.ndim == 2 else None
    try:
        rank = len(model.output_shape)
    except Exception:
        rank = None
    if name in ("categorical_crossentropy", "binary_crossentropy") and rank is not None and \
            y.ndim > rank and not (y.ndim == rank + 1 and y.shape[-1] == 1):
        return _keras(f"Arguments `target` and `output` must have the same rank (ndim): the "
                      f"labels have shape {tuple(y.shape)}, the model's output "
                      f"{tuple(model.output_shape)} ({name}; labels one-hot encoded twice?)",
                      "value error")
    if name == "categorical_crossentropy" and units > 1 and (
            y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1)):
        return _keras(f"Arguments `target` and `output` must have the same shape: loss "
                      f"categorical_crossentropy needs one-hot labels of width {units}, but "
                      f"the labels have shape {tuple(y.shape)} (use "
                      f"sparse_categorical_crossentropy or to_categorical)", "value error")
    if name in ("categorical_crossentropy", "binary_crossentropy") and width is not None \
            and width != units:
        return _keras(f"Arguments `target` and `output` must have the same shape: the labels "
                      f"have width {width}, the last layer has {units} units ({name})",
                      "value error")
    if name == "binary_crossentropy" and y.ndim == 1 and units > 1:
        return _keras(f"Arguments `target` and `output` must have the same rank: 1-D labels "
                      f"against a last layer of {units} units (binary_crossentropy)",
                      "value error")
    if name == "sparse_categorical_crossentropy" and y.ndim == 2 and y.shape[1] > 1:
        return _keras(f"Argument `output` must have rank (ndim) `target.ndim - 1`: loss "
                      f"sparse_categorical_crossentropy takes class indices, but the labels "
                      f"have shape {tuple(y.shape)} (one-hot? use categorical_crossentropy, "
                      f"or pass the indices)", "value error")
    if name == "sparse_categorical_crossentropy" and y.ndim == 1 and is_ndarray(y) and \
            y.dtype.kind in "iu" and y.size:  # the values of live labels only
        top = int(y.max())
        if top >= units or int(y.min()) < 0:
            return Finding(exception="InvalidArgumentError", crash_type="invalid argument",
                           library="tensorflow", confidence=0.92, rule="keras",
                           explanation=f"Received a label value of {top} which is outside the "
                                       f"valid range of [0, {units}): the last layer has "
                                       f"{units} units")
    return None
