"""API drift: whether an error names a removed or renamed library API, and its repair command.

The repair is ``benchkit modernize``, whose codemods and drift knowledge base rewrite
removed APIs. benchkit builds on crashpredict, so crashpredict never imports it (the
dependencies run one way; ``tests/test_layout.py``): what recognises drift here is
crashpredict's own table of removed APIs (`crashpredict._rules._names.REMOVED`, the one
the rules explain a missing attribute with) and the words a library's error uses for a
name it no longer has. Whether benchkit is installed is only looked up, to say how to get
it.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
from collections.abc import Sequence

__all__ = ["DRIFT_ERRORS", "repair_hint", "removed_api"]

#: The exceptions a removed, moved or renamed library API raises.
DRIFT_ERRORS = frozenset({"AttributeError", "ImportError", "ModuleNotFoundError", "TypeError"})

_OBJECT_ATTR = re.compile(r"'(\w+)' object has no attribute '(\w+)'")
_MODULE_ATTR = re.compile(r"module '([\w.]+)' has no attribute '(\w+)'")
# a library's words for a name it no longer has: a module's missing attribute, a name a
# library module no longer exports, a keyword or positional argument a callable lost
_LIBRARY_API = re.compile(
    r"module '[\w.]+' has no attribute|cannot import name '\w+' from '[\w.]+'|"
    r"got an unexpected keyword argument|takes (?:from \d+ to )?\d+ positional arguments? but")
# the libraries whose APIs drift (a user's own module is not one)
_LIBRARIES = ("numpy", "pandas", "sklearn", "scipy", "matplotlib", "seaborn", "keras",
              "tensorflow", "torch", "torchvision", "xgboost", "lightgbm", "statsmodels")


def removed_api(text: str) -> str:
    """The advice of crashpredict's removed-API table that ``text`` (an error message, or
    a verdict's explanation) is about, else ''.

    Example:
        >>> removed_api("module 'numpy' has no attribute 'float'")
        'np.float was removed in NumPy 1.24; use float'
    """
    from ._rules._names import REMOVED

    for advice in REMOVED.values():
        if advice in text:  # the rules already explained it with the table
            return advice
    module = _MODULE_ATTR.search(text)
    if module:
        root, attr = module.group(1).split(".")[0], module.group(2)
        return next((a for (lib, owner, name), a in REMOVED.items()
                     if lib == root and owner == f"module:{root}" and name == attr), "")
    obj = _OBJECT_ATTR.search(text)
    if obj:  # a class the table names; "*" entries need the live object's library
        return next((a for (_lib, owner, name), a in REMOVED.items()
                     if owner == obj.group(1) and name == obj.group(2)), "")
    return ""


def _names_a_library(text: str) -> bool:
    if not _LIBRARY_API.search(text):
        return False
    modules = re.findall(r"(?:module|from) '([\w.]+)'", text)
    # a keyword or positional argument error names a callable, not its module
    return not modules or any(m.split(".")[0] in _LIBRARIES for m in modules)


def repair_hint(notebook: str, ename: str | None, evalue: str | None,
                traceback: Sequence[str] = ()) -> str:
    """The ``benchkit modernize`` command that may repair this failure, with why; '' if it
    is not API drift.

    Args:
        notebook: the notebook's path as the user gave it (the command's argument).
        ename, evalue: the exception (``evalue`` may be a verdict's explanation).
        traceback: the kernel's traceback; a keyword or positional-argument error counts
            only when its last frame is a library's.

    Returns:
        One sentence: the removed API when crashpredict's table knows it ("API drift:
        np.float was removed ..."), else "this looks like API drift" for an error that
        names a library module's missing name; '' otherwise.
    """
    if ename not in DRIFT_ERRORS:
        return ""
    text = evalue or ""
    known = removed_api(text)
    if known:
        what = f"API drift ({known})"
    elif _moved_module(text) or _names_a_library(text) and (
            _MODULE_ATTR.search(text) or "import name" in text
            or _raised_in_a_library(traceback)):
        what = "this looks like API drift (a library API removed or renamed)"
    else:
        return ""
    install = "" if importlib.util.find_spec("benchkit") is not None else \
        " (pip install benchkit)"
    return (f"{what}: `benchkit modernize {shlex.quote(notebook)}`{install} rewrites removed "
            f"library APIs with its codemods; it writes the repaired notebook under "
            f"benchkit-out/modernize/{_stem(notebook)}/ and leaves this one as it is")


def _moved_module(text: str) -> bool:
    """``No module named 'sklearn.externals.joblib'``: a library's submodule gone (a
    library not installed at all is no drift)."""
    match = re.search(r"No module named '(\w+)\.[\w.]+'", text)
    return bool(match) and match.group(1) in _LIBRARIES and \
        importlib.util.find_spec(match.group(1)) is not None


def _raised_in_a_library(traceback: Sequence[str]) -> bool:
    frames = re.findall(r"site-packages/(\w+)/", "\n".join(traceback))
    return bool(frames) and frames[-1] in _LIBRARIES


def _stem(notebook: str) -> str:
    name = notebook.replace("\\", "/").rsplit("/", 1)[-1]
    return name[: -len(".ipynb")] if name.endswith(".ipynb") else name
