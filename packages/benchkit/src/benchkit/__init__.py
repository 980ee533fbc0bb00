"""benchkit: run crash/fix notebook benchmarks in the JunoBench layout.

    >>> import benchkit
    >>> records = benchkit.verify("cases/", "out/verify", jobs=2)
    >>> records = benchkit.detect("cases/", "out/detect", engines=("rules",))
    >>> benchkit.detection_metrics(records)["overall"]["accuracy"]

    >>> result = benchkit.modernize("old.ipynb", "out/modernize")   # codemods, then an LLM if set

Command line: ``benchkit verify|detect|compare|report|modernize`` (see ``benchkit --help``).
"""

from typing import TYPE_CHECKING

from benchkit.errors import BenchkitError, CaseError, ResultsError

if TYPE_CHECKING:  # the names below load on first use: `benchkit --version` pays for none
    from benchkit._bench import detect, verify
    from benchkit._cases import Case, Labels, ReplayPlan, load_cases, replay_plan
    from benchkit._compare import Run, compare, load_baseline, load_run
    from benchkit._executor import DaskExecutor, Executor, LocalExecutor
    from benchkit._metrics import Confusion, confusion, detection_metrics, verify_summary
    from benchkit._model import Record
    from benchkit._modernize import (
        CODEMODS,
        Codemod,
        FolderResult,
        ModernizeResult,
        ModernizeSettings,
        Round,
        apply_codemods,
        modernize,
        modernize_folder,
        modernize_html_report,
    )
    from benchkit._report import html_report
    from benchkit._store import ResultStore, read_records

#: where each public name lives; imported when first asked for (nbformat, libcst and the
#: kernels' libraries take seconds to import)
_LAZY = {
    **dict.fromkeys(("detect", "verify"), "_bench"),
    **dict.fromkeys(("Case", "Labels", "ReplayPlan", "load_cases", "replay_plan"), "_cases"),
    **dict.fromkeys(("Run", "compare", "load_baseline", "load_run"), "_compare"),
    **dict.fromkeys(("DaskExecutor", "Executor", "LocalExecutor"), "_executor"),
    **dict.fromkeys(("Confusion", "confusion", "detection_metrics", "verify_summary"), "_metrics"),
    "Record": "_model",
    **dict.fromkeys(("CODEMODS", "Codemod", "FolderResult", "ModernizeResult", "ModernizeSettings",
                     "Round", "apply_codemods", "modernize", "modernize_folder",
                     "modernize_html_report"), "_modernize"),
    "html_report": "_report",
    **dict.fromkeys(("ResultStore", "read_records"), "_store"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benchkit' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"benchkit.{module}"), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    # running benchmarks
    "verify", "detect",
    # cases
    "Case", "Labels", "ReplayPlan", "load_cases", "replay_plan",
    # results and metrics
    "Record", "ResultStore", "read_records", "Confusion", "confusion",
    "detection_metrics", "verify_summary", "Run", "load_run", "load_baseline", "compare",
    "html_report",
    # the modernization loop
    "modernize", "modernize_folder", "ModernizeSettings", "ModernizeResult", "FolderResult",
    "Round", "modernize_html_report", "CODEMODS", "Codemod", "apply_codemods",
    # where the work runs
    "Executor", "LocalExecutor", "DaskExecutor",
    # errors
    "BenchkitError", "CaseError", "ResultsError",
    "__version__",
]
