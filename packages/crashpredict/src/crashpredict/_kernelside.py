"""The entry the client calls inside the kernel: predict over the live user namespace.

It is evaluated as a ``user_expressions`` entry of a silent execute request, so it binds
no names in the user namespace and leaves the visible history untouched.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ._engines import predict
from ._model import Verdict

__all__ = ["predict_json", "expression"]


def predict_json(source: str, engines: Sequence[str] = ("rules",), options: str = "{}") -> str:
    """Predict ``source`` against ``get_ipython().user_ns`` and return the verdict as JSON.

    ``options`` is the per-engine options as JSON (only plain data crosses into the kernel).
    """
    try:
        from IPython import get_ipython
        shell = get_ipython()
        namespace = shell.user_ns if shell is not None else {}
        return predict(source, namespace, engines=tuple(engines),
                       options=json.loads(options)).to_json()
    except Exception as exc:  # never raise into the user's kernel
        return Verdict(crash=None, confidence=0.0,
                       explanation=f"kernel-side prediction failed: {type(exc).__name__}: "
                                   f"{exc}").to_json()


def expression(source: str, engines: Sequence[str] = ("rules",),
               options: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The user expression that runs `predict_json` in the kernel without binding names."""
    return (f"__import__('crashpredict._kernelside', fromlist=['predict_json'])"
            f".predict_json({source!r}, {tuple(engines)!r}, {json.dumps(options or {})!r})")
