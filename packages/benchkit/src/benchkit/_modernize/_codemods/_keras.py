"""TensorFlow / Keras: what Keras 3 and TF 2 removed or renamed."""

from __future__ import annotations

import re

import libcst as cst

from ._base import (Rule, RuleTransformer, dotted, kwarg, qualified, rename_kwarg,
                    same_quotes, string_value)

_OPTIMIZERS = {"Adam", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl",
               "AdamW", "Lion"}
_GENERATOR_METHODS = {"fit_generator": "fit", "evaluate_generator": "evaluate",
                      "predict_generator": "predict"}
_LAYER_MODULES = {"core", "convolutional", "pooling", "normalization", "recurrent",
                  "embeddings", "merge", "advanced_activations", "wrappers", "noise",
                  "local", "convolutional_recurrent"}
_ACC = {"acc": "accuracy", "val_acc": "val_accuracy"}
_MONITOR_OWNERS = {"ReduceLROnPlateau", "EarlyStopping", "ModelCheckpoint"}


def _is_keras(name: str | None) -> bool:
    return bool(name) and name.split(".")[0] in ("keras", "tensorflow")  # type: ignore[union-attr]


class _PredictClasses(RuleTransformer):
    """``m.predict_classes(X)`` -> ``np.argmax(m.predict(X), axis=-1)``.

    This is the softmax reading of the removed method; for a single sigmoid unit the
    old method thresholded at 0.5 instead, which this rule does not try to detect.
    """

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "predict_classes"):
            return updated
        np = self.scope.alias_for("numpy", "np")
        predict = updated.with_changes(func=func.with_changes(attr=cst.Name("predict")))
        axis = cst.Arg(keyword=cst.Name("axis"), value=cst.parse_expression("-1"),
                       equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
        first = cst.Arg(predict, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return self.mark(cst.Call(func=cst.parse_expression(f"{np}.argmax"), args=[first, axis]))


class _GeneratorMethods(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = updated.func
        if isinstance(func, cst.Attribute) and func.attr.value in _GENERATOR_METHODS:
            new = func.with_changes(attr=cst.Name(_GENERATOR_METHODS[func.attr.value]))
            return self.mark(updated.with_changes(func=new))
        return updated


class _OptimizerLr(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        name = qualified(updated.func, self.scope.aliases)
        if (_is_keras(name) and name.rsplit(".", 1)[-1] in _OPTIMIZERS  # type: ignore[union-attr]
                and kwarg(updated, "lr") and not kwarg(updated, "learning_rate")):
            return self.mark(rename_kwarg(updated, "lr", "learning_rate"))
        return updated


class _AccuracyNames(RuleTransformer):
    """'acc'/'val_acc' -> 'accuracy'/'val_accuracy' in metrics=, monitor= and history keys."""

    def _keras_notebook(self) -> bool:
        return any(_is_keras(m) for m in self.scope.aliases.values())

    def _renamed(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        value = string_value(node)
        if value in _ACC and isinstance(node, cst.SimpleString):
            return same_quotes(node, _ACC[value])
        return None

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg):
        if not (self._keras_notebook() and updated.keyword is not None):
            return updated
        if updated.keyword.value == "monitor":
            new = self._renamed(updated.value)
            return self.mark(updated.with_changes(value=new)) if new is not None else updated
        if updated.keyword.value == "metrics" and isinstance(updated.value, (cst.List, cst.Tuple)):
            elements = [e.with_changes(value=self._renamed(e.value) or e.value)
                        for e in updated.value.elements]
            if any(self._renamed(e.value) is not None for e in updated.value.elements):
                return self.mark(updated.with_changes(value=updated.value.with_changes(
                    elements=elements)))
        return updated

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript):
        owner = dotted(updated.value) or ""
        if not (self._keras_notebook() and owner.split(".")[-1] == "history"
                and len(updated.slice) == 1 and isinstance(updated.slice[0].slice, cst.Index)):
            return updated
        new = self._renamed(updated.slice[0].slice.value)
        if new is None:
            return updated
        index = updated.slice[0].slice.with_changes(value=new)
        return self.mark(updated.with_changes(slice=[updated.slice[0].with_changes(slice=index)]))


class _LayerModules(RuleTransformer):
    """``from keras.layers.convolutional import Conv2D`` -> ``from keras.layers import Conv2D``."""

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        module = dotted(updated.module) if updated.module is not None else None
        if module is None:
            return updated
        parts = module.split(".")
        if len(parts) >= 3 and parts[-2] == "layers" and parts[-1] in _LAYER_MODULES and (
                _is_keras(module)):
            return self.mark(updated.with_changes(module=cst.parse_expression(".".join(parts[:-1]))))
        if parts[-2:] == ["utils", "np_utils"] and _is_keras(module):
            return self.mark(updated.with_changes(module=cst.parse_expression(".".join(parts[:-1]))))
        return updated


class _RandomSeed(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        name = qualified(updated.func, self.scope.aliases)
        if name in ("tensorflow.set_random_seed", "tensorflow.random.set_random_seed"):
            text = dotted(updated.func) or ""
            head = text.split(".")[0]
            return self.mark(updated.with_changes(
                func=cst.parse_expression(f"{head}.random.set_seed")))
        return updated


RULES = (
    Rule(id="keras-predict-classes", library="keras",
         hint=re.compile(r"predict_classes"),
         rewrites="m.predict_classes(X) -> np.argmax(m.predict(X), axis=-1) (softmax reading; "
                  "a single sigmoid unit needs (m.predict(X) > 0.5).astype('int32') instead)",
         applies="static: any .predict_classes( call (removed in TF 2.6 / Keras 3)",
         make=_PredictClasses, example=("y = model.predict_classes(X)",
                                        "y = np.argmax(model.predict(X), axis=-1)")),
    Rule(id="keras-generator-methods", library="keras",
         hint=re.compile(r"_generator\b"),
         rewrites="fit_generator / evaluate_generator / predict_generator -> fit / evaluate / "
                  "predict",
         applies="static: any call of those methods (removed in Keras 3)",
         make=_GeneratorMethods, example=("model.fit_generator(gen, epochs=2)",
                                          "model.fit(gen, epochs=2)")),
    Rule(id="keras-optimizer-lr", library="keras",
         hint=re.compile(r"\blr\s*="),
         rewrites="Adam(lr=...) and the other Keras optimizers -> learning_rate=",
         applies="static: a Keras optimizer class (resolved through the imports, so "
                 "torch.optim.Adam(lr=) is left alone) called with lr= (removed in Keras 3)",
         make=_OptimizerLr, example=("opt = Adam(lr=0.01)", "opt = Adam(learning_rate=0.01)")),
    Rule(id="keras-accuracy-names", library="keras",
         hint=re.compile(r"""['"](val_)?acc['"]"""),
         rewrites="'acc'/'val_acc' -> 'accuracy'/'val_accuracy' in metrics=[...], monitor=... "
                  "and history.history[...] together",
         applies="static: a notebook that imports keras or tensorflow",
         make=_AccuracyNames, example=("cb = ReduceLROnPlateau(monitor='val_acc')",
                                       "cb = ReduceLROnPlateau(monitor='val_accuracy')")),
    Rule(id="keras-layer-modules", library="keras",
         hint=re.compile(r"\blayers\.\w+|np_utils"),
         rewrites="from keras.layers.<core|convolutional|pooling|...> import X -> from "
                  "keras.layers import X; keras.utils.np_utils -> keras.utils",
         applies="static: imports of those submodules (gone in Keras 3)",
         make=_LayerModules, example=("from keras.layers.core import Dense",
                                      "from keras.layers import Dense")),
    Rule(id="tf-random-seed", library="tensorflow",
         hint=re.compile(r"set_random_seed"),
         rewrites="tf.set_random_seed(s) / tf.random.set_random_seed(s) -> tf.random.set_seed(s)",
         applies="static: those functions of a name imported as tensorflow (removed in TF 2)",
         make=_RandomSeed, example=("tf.set_random_seed(0)", "tf.random.set_seed(0)")),
)
