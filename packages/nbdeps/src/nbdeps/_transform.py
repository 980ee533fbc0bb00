"""IPython syntax to Python: magics, shell escapes and help, through IPython itself."""

from __future__ import annotations

import ast
import warnings
from functools import lru_cache

__all__ = ["parse_cell", "ipython_to_python"]


@lru_cache(maxsize=1)
def _manager():  # IPython is imported once, on first need (~0.2 s)
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager()


def ipython_to_python(source: str) -> str:
    """The Python that IPython runs for a cell's source, with the cell's line numbers kept.

    Magics, shell escapes (``!cmd``), help (``x?``) and automagic commands become the calls
    IPython makes for them. IPython drops a cell's leading blank lines; they are put back,
    so a line number in the result is the same line of the cell. This is the one IPython
    transform every package uses, so every engine reports the same line.

    Example:
        >>> ipython_to_python("\n%time x = 1")
        "\nget_ipython().run_line_magic('time', 'x = 1')\n"
    """
    _tree, python, _error = parse_cell(source)
    if python is source:
        return source
    dropped = _leading_blank(source) - _leading_blank(python)
    return "\n" * max(dropped, 0) + python


def _leading_blank(source: str) -> int:
    count = 0
    for line in source.splitlines():
        if line.strip():
            break
        count += 1
    return count


def parse_cell(
    source: str, magics: frozenset[str] = frozenset()
) -> tuple[ast.Module | None, str, SyntaxError | None]:
    """Parse a cell's source into an `ast.Module`, transforming IPython syntax first.

    `magics` are more words that IPython's automagic runs as line magics in this notebook
    (those of an extension it loads, `watermark -iv` after `%load_ext watermark`): a
    top-level line starting with one of them is a magic even when it parses as Python.

    Returns `(tree, python_source, None)` on success and `(None, python_source, error)`
    when the cell does not parse even after the transformation.
    """
    if magics:
        source = with_automagic(source, magics)
    try:
        # Plain Python is the common case; skipping the transformer halves the cost.
        return _parse(source), source, None
    except (SyntaxError, ValueError):
        pass
    transformed = _transform(source)
    try:
        return _parse(transformed), transformed, None
    except SyntaxError as exc:
        error = exc
    except ValueError as exc:  # e.g. "source code string cannot contain null bytes"
        return None, transformed, SyntaxError(str(exc), ("<cell>", 1, 1, ""))
    # IPython's automagic runs `cd data` or `pip install x` without the `%`; the input
    # transformer leaves that to the running shell, so add the `%` and try once more
    patched = with_automagic(source)
    if patched != source:
        try:
            transformed = _transform(patched)
            return _parse(transformed), transformed, None
        except (SyntaxError, ValueError):
            pass
    return None, transformed, error


AUTOMAGIC = frozenset(
    "cd ls ll pwd pip conda env who whos who_ls history hist clear mkdir rmdir cp mv rm cat "
    "less man alias reset load_ext reload_ext matplotlib pylab config store autoreload "
    "precision xmode bookmark dhist dirs popd pushd sx sc load save lsmagic pinfo pinfo2 "
    "psearch recall rerun tb unalias doctest_mode colors automagic quickref gui pycat "
    "time timeit prun run debug".split()
)


def with_automagic(source: str, words: frozenset[str] = AUTOMAGIC) -> str:
    """Prefix `%` to lines that start with an automagic command (one of `words`) and are
    not Python."""
    lines = source.splitlines(keepends=True)
    changed = False
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        word = stripped.split(None, 1)[0] if stripped else ""
        rest = stripped[len(word):].lstrip()
        if word in words and rest[:1] not in ("=", "(", ".", "[", ",", ")", ":") and not rest.startswith(("+=", "-=")):
            if len(line) - len(stripped) == 0:  # only at cell level, as IPython does
                lines[i] = "%" + line
                changed = True
    return "".join(lines) if changed else source


def _parse(source: str) -> ast.Module:
    with warnings.catch_warnings():
        # invalid escape sequences in user strings are the user's business, not ours
        warnings.simplefilter("ignore")
        return ast.parse(source)


def _transform(source: str) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # IPython warns on odd line endings; not the user's concern
            return _manager().transform_cell(source)
    except Exception:  # the transformer is best effort; the parse error then explains
        return source


def parse_snippet(source: str) -> ast.Module | None:
    """Parse code embedded in a magic (`%time x = f()`), or None when it does not parse."""
    try:
        return _parse(_transform(source) if source.lstrip()[:1] in "%!" else source)
    except (SyntaxError, ValueError):
        return None
