"""The modernization loop: make old ML notebooks run under today's libraries.

Run, classify (timeout, error, score deviation, reproduced), repair with the offline
codemod catalog first and an LLM second, apply the patch with nbpatch, repeat.
The lead re-exports the public names from ``benchkit``.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded on first use: `benchkit --help` needs none of it (libcst, nbformat)
    from ._codemods import CODEMODS, apply_codemods
    from ._codemods._base import Rule as Codemod
    from ._folder import modernize_folder
    from ._loop import modernize
    from ._model import (
        CellRun,
        Classification,
        CodemodApplied,
        FolderResult,
        ModernizeResult,
        ModernizeSettings,
        NotebookRun,
        Round,
    )
    from ._report import html_report as modernize_html_report

_LAZY = {
    **dict.fromkeys(("CODEMODS", "apply_codemods"), ("_codemods", None)),
    "Codemod": ("_codemods._base", "Rule"),
    "modernize_folder": ("_folder", None),
    "modernize": ("_loop", None),
    **dict.fromkeys(("CellRun", "Classification", "CodemodApplied", "FolderResult",
                     "ModernizeResult", "ModernizeSettings", "NotebookRun", "Round"),
                    ("_model", None)),
    "modernize_html_report": ("_report", "html_report"),
}


def __getattr__(name: str):
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{where[0]}", __name__), where[1] or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    # the loop
    "modernize", "modernize_folder", "ModernizeSettings",
    # results
    "ModernizeResult", "FolderResult", "Round", "Classification", "NotebookRun", "CellRun",
    "CodemodApplied", "modernize_html_report",
    # the codemod catalog
    "CODEMODS", "Codemod", "apply_codemods",
]  # fmt: skip
