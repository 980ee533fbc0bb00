"""``modernize_folder``: every notebook of a folder, ``jobs`` at a time, and the totals."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nbdeps import replace_file

from benchkit._executor import make_executor
from benchkit.errors import BenchkitError, CaseError

from ._loop import modernize
from ._model import FolderResult, ModernizeResult, ModernizeSettings
from ._report import html_report, summary, summary_text

__all__ = ["modernize_folder", "find_notebooks", "run_task"]


def find_notebooks(folder: Path, out_dir: Path) -> list[Path]:
    """The ``.ipynb`` files below ``folder``, sorted, without checkpoints or ``out_dir``."""
    out = out_dir.resolve()
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        parts = path.relative_to(folder).parts
        if any(p.startswith(".") for p in parts) or out in path.resolve().parents:
            continue
        found.append(path)
    return found


def _slug(relative: Path) -> str:
    text = str(relative.with_suffix("")).replace(os.sep, "__")
    return re.sub(r"[^\w.-]+", "_", text)


def _encode(settings: ModernizeSettings) -> dict[str, Any]:
    """Settings as plain data for a worker (LLMSettings holds read-only mappings)."""
    data = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}
    llm = settings.llm
    if llm is not None:
        fields = {f.name: getattr(llm, f.name) for f in dataclasses.fields(llm)}
        prices = fields.pop("prices")
        fields["cache_dir"] = str(fields["cache_dir"]) if fields["cache_dir"] else None
        data["llm"] = {"fields": fields, "prices": {
            m: [p.input_per_mtok, p.output_per_mtok] for m, p in prices.prices.items()}}
    return data


def _decode(data: dict[str, Any]) -> ModernizeSettings:
    data = dict(data)
    if data.get("llm") is not None:
        from crashpredict.llm import LLMSettings, PriceTable

        llm = data["llm"]
        data["llm"] = LLMSettings(**llm["fields"], prices=PriceTable.from_mapping(llm["prices"]))
    return ModernizeSettings(**data)


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """One notebook in a worker: plain dict in, the result as a plain dict out."""
    result = modernize(task["notebook"], task["out"], settings=_decode(task["settings"]))
    return result.to_dict()


def _failed(task: dict[str, Any], exc: BaseException) -> dict[str, Any]:
    return ModernizeResult(notebook=task["notebook"], out_dir=task["out"], final_notebook="",
                           reproduced=False, final_kind="error", stop_reason="not run",
                           rounds=(), similarity=1.0, equivalence="not-compared",
                           error=f"{type(exc).__name__}: {exc}").to_dict()


def modernize_folder(folder: str | os.PathLike[str], out_dir: str | os.PathLike[str], *,
                     settings: ModernizeSettings | None = None, jobs: int = 1,
                     scheduler: Any = None,
                     progress: Callable[[int, int, ModernizeResult], None] | None = None
                     ) -> FolderResult:
    """Modernize every notebook below ``folder``; ``jobs`` notebooks (kernels) at a time.

    Each notebook gets ``out_dir/<relative path, '/' as '__'>/`` (see ``modernize``); the
    totals go to ``out_dir/summary.json``, ``summary.txt`` and ``report.html``. A notebook
    that cannot be run at all becomes a result with ``error`` set, not an exception.

    Raises:
        CaseError: ``folder`` is not a folder or holds no notebooks.
        BenchkitError: ``jobs < 1`` or bad settings.

    Example:
        >>> res = modernize_folder("notebooks/", "out/modernize", jobs=2)  # doctest: +SKIP
        >>> res.summary["reproduced"], res.report_html  # doctest: +SKIP
    """
    settings = settings or ModernizeSettings()
    root, out = Path(folder), Path(out_dir)
    if not root.is_dir():
        raise CaseError(f"{root}: not a folder")
    notebooks = find_notebooks(root, out)
    if not notebooks:
        raise CaseError(f"{root}: no .ipynb notebooks in this folder")
    executor = make_executor(jobs, scheduler)
    encoded = _encode(settings)
    tasks = [{"notebook": str(p), "out": str(out / _slug(p.relative_to(root))),
              "settings": encoded} for p in notebooks]
    order = {t["notebook"]: k for k, t in enumerate(tasks)}
    results: list[ModernizeResult] = []
    for task, data in executor.run(run_task, tasks, _failed):
        result = ModernizeResult.from_dict(data)
        results.append(result)
        if progress is not None:
            progress(len(results), len(tasks), result)
    results.sort(key=lambda r: order[r.notebook])
    out.mkdir(parents=True, exist_ok=True)
    totals = summary(results)
    # whole or not at all, and never over a FIFO or a device left in the output folder
    replace_file(out / "summary.json", (json.dumps(
        {"summary": totals, "notebooks": [r.to_dict() for r in results]}, indent=1) + "\n"
        ).encode("utf-8"), error=BenchkitError)
    replace_file(out / "summary.txt", (summary_text(results) + "\n").encode("utf-8"),
                 error=BenchkitError)
    report = out / "report.html"
    replace_file(report, html_report(results, title=f"benchkit modernize: {root}").encode("utf-8"),
                 error=BenchkitError)
    return FolderResult(results=tuple(results), out_dir=str(out), report_html=str(report),
                        summary=totals)


