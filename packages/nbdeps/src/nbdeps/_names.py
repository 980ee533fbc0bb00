"""Names that exist in every IPython kernel without any cell defining them."""

from __future__ import annotations

import builtins

__all__ = ["ALWAYS_DEFINED", "PYTHON2_BUILTINS", "defined_by_kernel", "is_always_defined"]

_IPYTHON = frozenset(
    "get_ipython display In Out exit quit _ __ ___ _i _ii _iii _ih _oh _dh "
    "__name__ __doc__ __builtins__ __builtin__ __spec__ __loader__ __package__".split()
)
ALWAYS_DEFINED = frozenset(dir(builtins)) | _IPYTHON


def is_always_defined(name: str) -> bool:
    """True for builtins and IPython's own names (`In`, `Out`, `_3`, `_i3`, `display`)."""
    if name in ALWAYS_DEFINED:
        return True
    # output history: _3, _i3
    return (name.startswith("_i") and name[2:].isdigit()) or (name[:1] == "_" and name[1:].isdigit())

# Builtins of Python 2 that Python 3 dropped: defined in a Python 2 notebook's kernel.
PYTHON2_BUILTINS = frozenset(
    "xrange raw_input unicode basestring long unichr reduce file execfile cmp reload "
    "buffer apply intern coerce StandardError".split()
)


def defined_by_kernel(name: str, predefined: frozenset[str] = frozenset(), python2: bool = False) -> bool:
    """`is_always_defined`, plus the names a notebook's kernel defines itself (`spark` on
    PySpark, `dbutils` on Databricks) and Python 2's builtins in a Python 2 notebook."""
    return is_always_defined(name) or name in predefined or (python2 and name in PYTHON2_BUILTINS)
