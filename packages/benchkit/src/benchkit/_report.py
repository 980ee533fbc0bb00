"""Reports for people: terminal tables and one self-contained HTML file.

The HTML has no scripts and loads nothing: tables, inline SVG bars per label group,
confusion matrices and the latency distribution, so it opens anywhere, offline.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from benchkit._metrics import BREAKDOWNS
from benchkit._model import Record


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A plain aligned text table."""
    cells = [[str(h) for h in header]] + [[_fmt(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


_METRIC_COLUMNS = ("n", "accuracy", "precision", "recall", "f1", "tp", "fp", "tn", "fn")


def metrics_text(metrics: dict[str, Any], *, title: str = "detect") -> str:
    o = metrics["overall"]
    lat = metrics["latency_s"]
    parts = [
        f"{title}: {metrics['cases']} cases, {o['n']} targets",
        table(_METRIC_COLUMNS, [[o[k] for k in _METRIC_COLUMNS]]),
        "",
        table(
            ("pairs fully right", "diagnosis accuracy", "unanswered", "failed runs",
             "latency median s", "latency p95 s"),
            [[f"{metrics['pairs_fully_right']}/{metrics['pairs']}", metrics["diagnosis_accuracy"],
              metrics["unanswered"], metrics["failed_runs"], lat["median"], lat["p95"]]],
        ),
    ]
    for label in BREAKDOWNS:
        groups = metrics["breakdown"][label]
        parts += ["", f"by {label.replace('_', ' ')}:",
                  table((label, *_METRIC_COLUMNS),
                        [[g, *(m[k] for k in _METRIC_COLUMNS)] for g, m in groups.items()])]
    return "\n".join(parts)


# what a run that could not finish shows instead of an outcome (its reason says why)
_NOT_RUN = {"malformed": "not run: malformed case", "replay-failed": "not reached: replay failed",
            "timeout": "timed out", "kernel-died": "kernel died", "error": "run failed"}


def _outcome(r: Record) -> tuple[bool, str, str]:
    """(as expected?, what happened or was predicted, the reason or explanation) of a record."""
    if r.status != "ok":
        return False, _NOT_RUN.get(r.status, r.status), r.reason
    if r.task == "verify":
        if r.actual_ename is None:
            happened = f"{_target(r)} ran clean"
        else:
            line = f" at line {r.error_line}" if r.error_line else ""
            happened = f"{r.actual_ename}{line} of {_target(r)}"
        return bool(r.passed), happened, r.reason
    v = r.verdict or {}
    ok = (r.predicted_crash is True) == r.expected_crash
    said = {True: "crash", False: "no crash"}.get(r.predicted_crash, "unknown")
    return ok, f"{said} {v.get('exception') or ''}".strip(), r.reason or v.get("explanation", "")


def _target(r: Record) -> str:
    """The target cell as every tool names it."""
    position = r.cell_position
    if position is None:
        return "the target"
    return f"cell {position}" + (f" (id {r.cell_id})" if r.cell_id else "")


def _verdict_word(r: Record, ok: bool) -> str:
    if r.status == "malformed":
        return "MALFORMED"
    if r.task == "verify":
        return "pass" if ok else "FAIL"
    return "right" if ok else "WRONG"


def records_text(records: Sequence[Record]) -> str:
    rows = []
    for r in sorted(records, key=lambda r: (r.case, r.version)):
        ok, outcome, detail = _outcome(r)
        rows.append([r.case, r.version, r.status, _verdict_word(r, ok), outcome, _clip(str(detail), 110)])
    return table(("case", "version", "status", "result", "outcome", "reason"), rows)


def verify_text(summary: dict[str, Any]) -> str:
    return (
        f"verify: {summary['cases_passed']}/{summary['cases']} cases as labelled, "
        f"{summary['versions_passed']}/{summary['versions']} versions; statuses "
        + ", ".join(f"{k}={v}" for k, v in summary["statuses"].items())
        + (f"\nnot as labelled: {', '.join(summary['failed'])}" if summary["failed"] else "")
        + (f"\nmalformed (not run; see the reasons above): {', '.join(summary['malformed'])}"
           if summary.get("malformed") else "")
    )


def compare_text(comparison: dict[str, Any]) -> str:
    runs = comparison["runs"]
    rows = [[name, m["overall"]["n"], m["overall"]["accuracy"], m["overall"]["precision"],
             m["overall"]["recall"], m["overall"]["f1"],
             f"{m['pairs_fully_right']}/{m['pairs']}", m["latency_s"]["median"]]
            for name, m in runs.items()]
    out = [table(("run", "n", "accuracy", "precision", "recall", "f1", "pairs right",
                  "latency median s"), rows)]
    diffs = comparison["differences"]
    if diffs:
        names = list(runs)
        show = {True: "crash", False: "no crash", None: "-"}
        out += ["", f"{len(diffs)} targets where the runs differ:",
                table(("case", "version", "truth", *names),
                      [[d["case"], d["version"], "crash" if d["expected_crash"] else "no crash",
                        *(show[d["predictions"].get(n)] for n in names)] for d in diffs])]
    return "\n".join(out)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------- HTML

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums}
.bad{color:#b00020;font-weight:600}.good{color:#1b5e20}
.cm td{width:90px;height:40px;text-align:center}.muted{color:#777}
"""


def _esc(value: Any) -> str:
    return html.escape(_fmt(value))


def _html_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = []
    for row in rows:
        tds = "".join(
            f'<td class="num">{_esc(v)}</td>' if isinstance(v, (int, float)) and not isinstance(v, bool)
            else f"<td>{v if isinstance(v, _Raw) else _esc(v)}</td>"
            for v in row
        )
        body.append(f"<tr>{tds}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


class _Raw(str):
    """Already-escaped HTML inside a table cell."""


_METRIC_MEANING = {
    "accuracy": "share of targets predicted right",
    "precision": "share of predicted crashes that crash",
    "recall": "share of crashes predicted",
    "f1": "harmonic mean of precision and recall",
}


def _bars(groups: dict[str, dict[str, Any]], metric: str = "accuracy", *, per: str = "group") -> str:
    """Horizontal bars of one metric per group (0 to 1), each with its value and size;
    a caption above says which metric they show."""
    items = [(g, m.get(metric), m.get("n", 0)) for g, m in groups.items()]
    row_h, label_w, bar_w, top = 22, 220, 360, 24
    height = top + row_h * len(items) + 10
    caption = f"{metric} per {per} ({_METRIC_MEANING.get(metric, metric)}; n = targets)"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 120}" height="{height}" '
             f'role="img" aria-label="{html.escape(caption)}">',
             f'<text x="{label_w}" y="15" font-size="12" font-weight="600">{html.escape(caption)}</text>']
    for i, (group, value, n) in enumerate(items):
        y = top + i * row_h
        width = 0 if value is None else value * bar_w
        parts.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end" font-size="12">'
                     f"{html.escape(_clip(group, 32))}</text>")
        parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{bar_w}" height="{row_h - 6}" fill="#eee"/>')
        parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{width:.1f}" height="{row_h - 6}" fill="#3f7fbf">'
                     f"<title>{html.escape(group)}: {metric} {_fmt(value)}, n={n}</title></rect>")
        parts.append(f'<text x="{label_w + bar_w + 6}" y="{y + 15}" font-size="12">'
                     f"{metric} {_fmt(value)} (n={n})</text>")
    parts.append("</svg>")
    return "".join(parts)


def _confusion_html(o: dict[str, Any]) -> str:
    return (
        '<table class="cm"><tr><th></th><th>predicted crash</th><th>predicted no crash</th></tr>'
        f'<tr><th>crashes</th><td class="good">TP {o["tp"]}</td><td class="bad">FN {o["fn"]}</td></tr>'
        f'<tr><th>runs clean</th><td class="bad">FP {o["fp"]}</td><td class="good">TN {o["tn"]}</td></tr>'
        "</table>"
    )


def latency_bins(latencies: Sequence[float], bins: int = 20) -> list[tuple[float, float, int]]:
    """(low s, high s, count) per equal-width bin from the fastest to the slowest latency."""
    lo, hi = min(latencies), max(latencies)
    width = (hi - lo) / bins or 1.0 / bins
    counts = [0] * bins
    for v in latencies:
        counts[min(int((v - lo) / width), bins - 1)] += 1
    return [(lo + i * width, lo + (i + 1) * width, c) for i, c in enumerate(counts)]


def _latency_svg(latencies: Sequence[float]) -> str:
    """A histogram of prediction latencies: the count above each bar, axes labelled."""
    if not latencies:
        return '<p class="muted">no latencies recorded</p>'
    bins = latency_bins(latencies)
    top = max(c for _, _, c in bins)
    left, h, bw, head = 40, 140, 24, 20
    w = left + len(bins) * (bw + 1) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{head + h + 48}" role="img" '
             f'aria-label="prediction latency: targets per bin">',
             f'<text x="{left}" y="13" font-size="12" font-weight="600">targets per latency bin '
             f"({len(latencies)} targets, bins of {(bins[0][1] - bins[0][0]) * 1000:.1f} ms)</text>",
             f'<text x="{left - 6}" y="{head + 10}" font-size="11" text-anchor="end">{top}</text>',
             f'<text x="{left - 6}" y="{head + h}" font-size="11" text-anchor="end">0</text>',
             f'<line x1="{left - 2}" y1="{head + h}" x2="{w - 10}" y2="{head + h}" stroke="#999"/>']
    for i, (low, high, c) in enumerate(bins):
        bh = c / top * h
        x = left + i * (bw + 1)
        parts.append(f'<rect x="{x}" y="{head + h - bh:.1f}" width="{bw}" height="{bh:.1f}" fill="#7a5ea8">'
                     f"<title>{c} targets, {low * 1000:.1f}-{high * 1000:.1f} ms</title></rect>")
        if c:
            parts.append(f'<text x="{x + bw / 2}" y="{head + h - bh - 3:.1f}" font-size="11" '
                         f'text-anchor="middle">{c}</text>')
    lo, hi = bins[0][0], bins[-1][1]
    parts.append(f'<text x="{left}" y="{head + h + 16}" font-size="12">{lo * 1000:.1f} ms</text>')
    parts.append(f'<text x="{w - 10}" y="{head + h + 16}" font-size="12" text-anchor="end">'
                 f"{hi * 1000:.1f} ms</text>")
    parts.append(f'<text x="{(left + w) / 2}" y="{head + h + 36}" font-size="12" text-anchor="middle">'
                 "prediction latency per target (replay not included)</text></svg>")
    return "".join(parts)


def html_report(*, title: str, records: Sequence[Record], metrics: dict[str, Any] | None = None,
                verify: dict[str, Any] | None = None, comparison: dict[str, Any] | None = None) -> str:
    """One self-contained HTML page for a verify run, a detect run or a comparison."""
    body = [f"<h1>{html.escape(title)}</h1>"]
    if verify is not None:
        body.append(f"<p>{html.escape(verify_text(verify))}</p>")
    if metrics is not None:
        o = metrics["overall"]
        body += ["<h2>Detection</h2>",
                 _html_table(_METRIC_COLUMNS, [[o[k] for k in _METRIC_COLUMNS]]),
                 _confusion_html(o),
                 _html_table(("pairs fully right", "diagnosis accuracy", "unanswered", "failed runs"),
                             [[f"{metrics['pairs_fully_right']}/{metrics['pairs']}",
                               metrics["diagnosis_accuracy"], metrics["unanswered"], metrics["failed_runs"]]]),
                 "<h2>Latency</h2>",
                 _html_table(("n", "median s", "p95 s"),
                             [[metrics["latency_s"]["n"], metrics["latency_s"]["median"], metrics["latency_s"]["p95"]]]),
                 _latency_svg([r.latency_s for r in records if r.latency_s is not None])]
        for label in BREAKDOWNS:
            groups = metrics["breakdown"][label]
            body += [f"<h2>By {html.escape(label.replace('_', ' '))}</h2>",
                     _bars(groups, per=label.replace("_", " ")),
                     _html_table((label, *_METRIC_COLUMNS),
                                 [[g, *(m[k] for k in _METRIC_COLUMNS)] for g, m in groups.items()])]
    if comparison is not None:
        body.append("<h2>Runs compared</h2>")
        runs = comparison["runs"]
        body.append(_html_table(
            ("run", "n", "accuracy", "precision", "recall", "f1", "pairs right"),
            [[n, m["overall"]["n"], m["overall"]["accuracy"], m["overall"]["precision"],
              m["overall"]["recall"], m["overall"]["f1"], f"{m['pairs_fully_right']}/{m['pairs']}"]
             for n, m in runs.items()]))
        body.append(_bars({n: {**m["overall"]} for n, m in runs.items()}, per="run"))
        if comparison["differences"]:
            names = list(runs)
            show = {True: "crash", False: "no crash", None: "-"}
            body += [f"<h2>Where the runs differ ({len(comparison['differences'])})</h2>",
                     _html_table(("case", "version", "truth", *names),
                                 [[d["case"], d["version"], "crash" if d["expected_crash"] else "no crash",
                                   *(show[d["predictions"].get(n)] for n in names)]
                                  for d in comparison["differences"]])]
    if records:
        body.append("<h2>Per target</h2>")
        body.append(_records_html(records))
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")


def _records_html(records: Sequence[Record]) -> str:
    rows = []
    for r in sorted(records, key=lambda r: (r.case, r.version)):
        ok, outcome, detail = _outcome(r)
        mark = _Raw(f'<span class="{"good" if ok else "bad"}">{_verdict_word(r, ok)}</span>')
        rows.append([r.case, r.version, r.status, mark, outcome, detail,
                     r.latency_s if r.latency_s is not None else r.elapsed_s])
    return _html_table(("case", "version", "status", "result", "outcome", "detail", "seconds"), rows)
