"""Value fingerprints, computed inside the user's kernel (this file's source is sent there).

A fingerprint is a small JSON value that stands for a value's full contents, so that two
runs can be compared without shipping the data: exact parts (types, shapes, dtypes, column
labels, index, integer / string / object values) as SHA-256 digests, and float values
either whole (zlib-compressed float64, up to a budget, compared elementwise with a
tolerance on our side) or, beyond it, as sums of contiguous blocks with their absolute
sums (compared within the tolerance relative to each block's size).

Rules for this file: standard library only at import time; numpy, pandas and torch are
touched only through values whose type comes from them (so they are already imported);
nothing here may raise into the user's kernel: every public entry catches ``Exception``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import sys
import zlib

MARK = "__NBPATCH_PROBE__"
MIME = "application/vnd.nbpatch.fingerprint+json"
FLOAT_BUDGET = 65_536  # float values shipped whole per fingerprint; block sums beyond
BLOCKS = 1024  # blocks of a float array beyond the budget
MAX_ITEMS = 2_000  # container items fingerprinted one by one; a digest beyond
MAX_DEPTH = 12
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")


def _type_name(value):
    t = type(value)
    return f"{t.__module__}.{t.__qualname__}"


def _is(value, module, name):
    """True when ``value``'s class (or a base) is ``module``'s ``name``, without importing it."""
    if module.split(".")[0] not in sys.modules:
        return False
    return any(c.__name__ == name and (c.__module__ or "").startswith(module)
               for c in type(value).__mro__)


def _digest(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else str(part).encode("utf-8", "replace"))
        h.update(b"\0")
    return h.hexdigest()


def _repr(value):
    try:
        return _ADDRESS.sub("0x?", repr(value))
    except Exception as exc:  # a hostile __repr__
        return f"<unrepresentable {_type_name(value)}: {type(exc).__name__}>"


def _floats(flat, np, budget):
    """The code of a 1-d float64 array: whole up to ``budget`` values, else block sums."""
    finite = np.isfinite(flat)
    out = {"n": int(flat.size)}
    if not finite.all():
        kinds = np.where(np.isnan(flat), 1, np.where(flat > 0, 2, 3)) * ~finite
        out["nonfinite"] = _digest(kinds.astype(np.uint8).tobytes())
        flat = np.where(finite, flat, 0.0)
    if flat.size <= budget:
        raw = np.ascontiguousarray(flat, dtype="<f8").tobytes()
        out["z"] = base64.b64encode(zlib.compress(raw, 1)).decode("ascii")
        return out
    starts = np.linspace(0, flat.size, min(BLOCKS, flat.size) + 1).astype(np.int64)[:-1]
    out["block_starts"] = [int(s) for s in starts]
    out["sums"] = [float(s) for s in np.add.reduceat(flat, starts)]
    out["scales"] = [float(s) for s in np.add.reduceat(np.abs(flat), starts)]
    return out


def _array_values(arr, np, budget):
    """Values of a numpy array: floats as a float code, everything else by digest."""
    kind = arr.dtype.kind
    if kind in "fc":
        flat = np.asarray(arr, dtype=np.complex128 if kind == "c" else np.float64).ravel()
        if kind == "c":
            flat = np.ascontiguousarray(flat).view(np.float64)
        return {"floats": _floats(flat, np, budget)}
    if kind in "biuSUMm?":
        return {"sha256": _digest(arr.dtype.str, arr.shape, np.ascontiguousarray(arr).tobytes())}
    # object (strings, mixed), structured: element reprs, addresses blanked
    return {"sha256": _digest(arr.shape, *(_repr(x) for x in arr.ravel().tolist()))}


def _index(index, np):
    values = index.to_numpy() if hasattr(index, "to_numpy") else np.asarray(index)
    labels = {"type": _type_name(index), "n": int(len(index)),
              "names": [_repr(n) for n in getattr(index, "names", [None])]}
    labels.update(_array_values(values, np, FLOAT_BUDGET))
    return labels


def _frame(df, np):
    columns = list(df.columns)
    out = {"type": _type_name(df), "shape": [int(s) for s in df.shape],
           "columns": [_repr(c) for c in columns], "dtypes": [str(d) for d in df.dtypes],
           "index": _index(df.index, np), "data": []}
    floats = sum(1 for d in df.dtypes if getattr(d, "kind", "O") in "fc") or 1
    budget = max(1024, FLOAT_BUDGET // floats)
    for position in range(len(columns)):
        column = df.iloc[:, position]
        out["data"].append(_array_values(column.to_numpy(), np, budget))
    return out


def _array_like(value, depth):
    np = sys.modules.get("numpy")
    if np is None:
        return None
    if _is(value, "pandas", "DataFrame"):
        return _frame(value, np)
    if _is(value, "pandas", "Series"):
        return {"type": _type_name(value), "shape": [int(len(value))], "dtype": str(value.dtype),
                "name": _repr(value.name), "index": _index(value.index, np),
                **_array_values(value.to_numpy(), np, FLOAT_BUDGET)}
    if _is(value, "pandas", "Index"):
        return _index(value, np)
    if _is(value, "torch", "Tensor"):
        t = value.detach()
        t = t.to_dense() if getattr(t, "is_sparse", False) else t
        t = t.cpu()
        if str(t.dtype) in ("torch.bfloat16", "torch.float16") or "float8" in str(t.dtype):
            t = t.float()
        return {"type": _type_name(value), "shape": [int(s) for s in value.shape],
                "dtype": str(value.dtype), **_array_values(t.numpy(), np, FLOAT_BUDGET)}
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        return {"type": _type_name(value), "shape": [int(s) for s in arr.shape],
                "dtype": str(arr.dtype), **_array_values(arr, np, FLOAT_BUDGET)}
    return None


def _container(value, depth):
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: _repr(kv[0]))
        out = {"type": _type_name(value), "len": len(value)}
        if len(items) > MAX_ITEMS or depth >= MAX_DEPTH:
            out["sha256"] = _digest(*(f"{_repr(k)}={_repr(v)}" for k, v in items))
        else:
            out["keys"] = [_repr(k) for k, _ in items]
            out["items"] = [fingerprint(v, depth + 1) for _, v in items]
        return out
    seq = sorted(value, key=_repr) if isinstance(value, (set, frozenset)) else list(value)
    out = {"type": _type_name(value), "len": len(seq)}
    if (len(seq) > MAX_ITEMS and all(type(x) in (int, float) for x in seq)
            and "numpy" in sys.modules):
        np = sys.modules["numpy"]
        out.update(_array_values(np.asarray(seq, dtype=np.float64), np, FLOAT_BUDGET))
    elif len(seq) > MAX_ITEMS or depth >= MAX_DEPTH:
        out["sha256"] = _digest(*(_repr(x) for x in seq))
    else:
        out["items"] = [fingerprint(x, depth + 1) for x in seq]
    return out


def fingerprint(value, depth=0):
    """The fingerprint of ``value`` (a JSON-ready dict); never raises."""
    try:
        if value is None or type(value) in (bool, int):
            return {"type": _type_name(value), "value": value}
        if type(value) is str:
            return {"type": "builtins.str",
                    "value": value if len(value) <= 2000 else "sha256:" + _digest(value)}
        if isinstance(value, float) and type(value).__module__ == "builtins":
            return {"type": _type_name(value),
                    "float": value if math.isfinite(value) else repr(value)}
        array = _array_like(value, depth)
        if array is not None:
            return array
        if type(value) in (list, tuple, dict, set, frozenset):
            return _container(value, depth)
        if hasattr(type(value), "get_params"):
            params = value.get_params(deep=False)
            return {"type": _type_name(value),
                    "params": {k: _repr(p) for k, p in sorted(params.items())}}
        return {"type": _type_name(value), "repr": _repr(value)[:2000]}
    except Exception as exc:
        return {"type": _type_name(value), "error": f"{type(exc).__name__}: {exc}"[:500]}


def install_formatter(ip):
    """Add the fingerprint to every rich display of a frame, series, array, tensor or container."""
    from IPython.core.formatters import BaseFormatter

    class FingerprintFormatter(BaseFormatter):
        format_type = MIME
        _return_type = (dict,)
        print_method = "_repr_nbpatch_fingerprint_"

    formatter = FingerprintFormatter(parent=ip.display_formatter)
    for module, name in (("pandas.core.frame", "DataFrame"), ("pandas.core.series", "Series"),
                         ("numpy", "ndarray"), ("torch", "Tensor")):
        formatter.for_type_by_name(module, name, fingerprint)
    for kind in (list, tuple, dict):
        formatter.for_type(kind, fingerprint)
    ip.display_formatter.formatters[MIME] = formatter


def probe(names, score, namespace):
    """Print the fingerprints of ``names`` and the value of ``score`` after the MARK."""
    out = {"variables": {}, "score": None, "score_error": None}
    for name in names:
        out["variables"][name] = (fingerprint(namespace[name]) if name in namespace
                                  else {"missing": True})
    if score:
        try:
            value = float(eval(score, namespace))
            if math.isfinite(value):
                out["score"] = value
            else:
                out["score_error"] = f"score is {value!r}"
        except Exception as exc:
            out["score_error"] = f"{type(exc).__name__}: {exc}"[:500]
    print(MARK + json.dumps(out, default=repr))
