"""API drift: whether an error names a removed or renamed library API, and its repair command.

The knowledge lives in benchkit's modernize codemods and drift knowledge base
(``benchkit._modernize._codemods``). benchkit builds on crashpredict, so crashpredict never
depends on it: the codemods are imported only when a failure looks like drift, and only
if benchkit is installed. Without it, an error that names a library module's missing name
still gets a hint, worded as a maybe, with the install line.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

__all__ = ["DRIFT_ERRORS", "repair_hint"]

#: The exceptions a removed, moved or renamed library API raises.
DRIFT_ERRORS = frozenset({"AttributeError", "ImportError", "ModuleNotFoundError", "TypeError"})

# what an error says when it names a library's API (not a user's object): a module's
# missing attribute, a name a module no longer exports, a keyword a callable lost
_LIBRARY_API = re.compile(
    r"module '[\w.]+' has no attribute|cannot import name '\w+' from '[\w.]+'|"
    r"No module named '[\w.]+'|got an unexpected keyword argument|"
    r"takes (?:from \d+ to )?\d+ positional arguments? but")


def repair_hint(notebook: str, source: str, ename: str | None, evalue: str | None,
                lines: Sequence[int] = (), context: Sequence[str] = ()) -> str:
    """The ``benchkit modernize`` command that repairs this failure, with why; '' if none.

    Args:
        notebook: the notebook's path as the user gave it (the command's argument).
        source: the failing cell's code.
        ename, evalue: the exception the cell raised.
        lines: the cell's lines (1-based) the traceback points to.
        context: the notebook's other code cells (their imports name the libraries, as
            they do for ``benchkit modernize``).

    Returns:
        One sentence, or '' when the error is not one a library's API change raises or
        no codemod rewrites the cell for it.

    Example:
        >>> repair_hint("nb.ipynb", "df = df.append(row)", "AttributeError",
        ...             "'DataFrame' object has no attribute 'append'")  # doctest: +SKIP
        'API drift: `benchkit modernize nb.ipynb` repairs it (codemod pandas-append; ...)'
    """
    if ename not in DRIFT_ERRORS:
        return ""
    command = f"`benchkit modernize {shlex.quote(notebook)}`"
    where = ("it writes the repaired notebook under benchkit-out/modernize/"
             f"{_stem(notebook)}/ and leaves this one as it is")
    try:
        from benchkit._modernize._codemods import (aliases_of, default_rules, rewrite_cell,
                                                   triggered)
        from benchkit._modernize._codemods._base import Scope
    except ImportError:
        if _LIBRARY_API.search(evalue or ""):
            return (f"this looks like API drift (a library API removed or renamed): "
                    f"{command} (pip install benchkit) may repair it; {where}")
        return ""
    error = f"{ename}: {evalue or ''}"
    try:  # as the modernize loop rewrites the failing cell: the notebook's imports in scope
        scope = Scope(aliases=aliases_of([*context, source]), error=error,
                      error_lines=frozenset(lines))
        _new, applied = rewrite_cell(
            source, [r for r in default_rules() if triggered(r, error)], scope)
    except Exception:  # a codemod that meets code it does not expect is no reason to fail
        return ""
    if not applied:
        return ""
    known = ", ".join(a.removeprefix("kb:") for a in applied[:3])
    return (f"API drift (a library API removed or renamed; benchkit's codemods know it: "
            f"{known}): {command} repairs it; {where}")


def _stem(notebook: str) -> str:
    name = notebook.replace("\\", "/").rsplit("/", 1)[-1]
    return name[: -len(".ipynb")] if name.endswith(".ipynb") else name
