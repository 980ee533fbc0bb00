"""benchkit: run crash/fix notebook benchmarks in the JunoBench layout.

    >>> import benchkit
    >>> records = benchkit.verify("cases/", "out/verify", jobs=2)
    >>> records = benchkit.detect("cases/", "out/detect", engines=("rules",))
    >>> benchkit.detection_metrics(records)["overall"]["accuracy"]

    >>> result = benchkit.modernize("old.ipynb", "out/modernize")   # codemods, then an LLM if set

Command line: ``benchkit verify|detect|compare|report|modernize`` (see ``benchkit --help``).
"""

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
from benchkit.errors import BenchkitError, CaseError, ResultsError

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
