"""The modernization loop: make old ML notebooks run under today's libraries.

Run, classify (timeout, error, score deviation, reproduced), repair with the offline
codemod catalog first and an LLM second, apply the patch with nbpatch, repeat.
The lead re-exports the public names from ``benchkit``.
"""

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

__all__ = [
    # the loop
    "modernize", "modernize_folder", "ModernizeSettings",
    # results
    "ModernizeResult", "FolderResult", "Round", "Classification", "NotebookRun", "CellRun",
    "CodemodApplied", "modernize_html_report",
    # the codemod catalog
    "CODEMODS", "Codemod", "apply_codemods",
]  # fmt: skip
