"""Reports of the modernization loop: per notebook and folder totals, as text tables and HTML."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ._model import ModernizeResult

__all__ = ["summary", "result_text", "summary_text", "html_report", "equivalence_text"]


def summary(results: Sequence[ModernizeResult]) -> dict[str, Any]:
    """Totals over notebooks: how many reproduced, by final class, rounds, tokens, cost."""
    done = [r for r in results if r.error is None]
    rounds = [len(r.rounds) for r in done]
    return {
        "notebooks": len(results),
        "reproduced": sum(r.reproduced for r in done),
        "reproduced_first_round": sum(r.reproduced and len(r.rounds) == 1 for r in done),
        "failed_to_start": len(results) - len(done),
        "final_kind": dict(Counter(r.final_kind for r in done)),
        "equivalence": dict(Counter(r.equivalence for r in done)),
        "rounds_total": sum(rounds),
        "rounds_mean": (sum(rounds) / len(rounds)) if rounds else 0.0,
        "codemod_rounds": sum(1 for r in done for x in r.rounds if x.repair == "codemod"),
        "llm_rounds": sum(1 for r in done for x in r.rounds if x.repair == "llm"),
        "resolver_rounds": sum(1 for r in done for x in r.rounds if x.repair == "resolver"),
        "codemods": dict(Counter(c for r in done for c in r.codemods)),
        "prompt_tokens": sum(r.prompt_tokens for r in done),
        "completion_tokens": sum(r.completion_tokens for r in done),
        "cost_usd": round(sum(r.cost_usd for r in done), 6),
        "elapsed_s": round(sum(r.elapsed_s for r in results), 2),
        # the notebooks that saved outputs: how many print them again, the deviations
        "with_saved_outputs": sum(r.saved_cells > 0 for r in done),
        "outputs_match": sum(bool(r.outputs_match) for r in done),
        "deviations_found": sum(len(r.deviations_found) for r in done),
        "deviations_repaired": sum(len(r.deviations_found) - len(r.deviations_left)
                                   for r in done),
        "unfaithful": sum(len(r.unfaithful) for r in done),
    }


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[k]) for row in cells) for k in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def result_text(result: ModernizeResult) -> str:
    """One notebook's rounds as a table, then its verdict."""
    if result.error:
        return f"{result.notebook}: not run ({result.error})"
    rows = []
    for r in result.rounds:
        c = r.classification
        what = c.message[:70]
        repair = r.repair or (f"none ({r.llm_error[:40]})" if r.llm_error else "-")
        if r.codemods:
            repair += " " + ",".join(dict.fromkeys(a.rule for a in r.codemods))
        rows.append((r.number, _kind(c.kind), _cell(c), what, repair,
                     r.prompt_tokens + r.completion_tokens, f"{r.elapsed_s:.1f}"))
    table = _table(("round", "class", "cell [n]", "problem", "repair", "tokens", "s"), rows)
    # "reproduced" is the data's word (JunoBench's); a user reads whether it runs now
    verdict = "runs now" if result.reproduced else f"does NOT run yet ({result.stop_reason})"
    last = result.rounds[-1].classification if result.rounds else None
    still = (f"; the last run still stops at {last.message}"
             if last is not None and not result.reproduced and last.kind in ("error", "timeout")
             else "")
    return (f"{result.notebook}: {verdict} after {len(result.rounds)} round(s){still}; similarity "
            f"{result.similarity:.3f}; equivalence: {equivalence_text(result)}; cost "
            f"${result.cost_usd:.4f}\n{table}\n{spec_text(result)}"
            f"final notebook: {result.final_notebook}")


def spec_text(result: ModernizeResult) -> str:
    """Lines on the saved outputs (what was found, repaired, left) and on the drifts with
    no faithful repair; empty when there is nothing to say."""
    lines = []
    if result.saved_cells:
        match = "yes" if result.outputs_match else "no"
        lines.append(f"saved outputs: {result.saved_cells} code cell(s); the final run prints "
                     f"them again: {match}")
        left = set(result.deviations_left)
        for d in result.deviations_found:
            lines.append(f"  deviation {'left' if d in left else 'repaired'}: {d}")
        lines += [f"  deviation left: {d}" for d in result.deviations_left
                  if d not in result.deviations_found]
    lines += [f"no faithful repair: {n}" for n in result.unfaithful]
    lines += [f"saved outputs skipped: {n}" for n in result.saved_skipped]
    return "".join(f"{line}\n" for line in lines)


def _kind(kind: str) -> str:
    """A round's class as the table shows it: ``runs`` for the data's ``reproduced``."""
    return "runs" if kind == "reproduced" else kind


def _cell(c: Any) -> str:
    """The table's cell column: ``59 [17]`` (1-based position, execution count)."""
    if c.cell is None:
        return ""
    return f"{c.cell + 1}" + (f" [{c.execution_count}]" if c.execution_count is not None else "")


def equivalence_text(result: ModernizeResult) -> str:
    """What the equivalence check found, worded as what it compared.

    When the original failed, only the cells before its failing cell have outputs to
    compare: "equivalent" then says those cells match, never that the notebook runs.
    """
    before = result.compared_before
    scope = f"the cells before cell {before} (where the original failed)" if before else ""
    if result.equivalence == "equivalent":
        return (f"{scope} match the original's; the rest has no original outputs to compare"
                if scope else "equivalent (every cell's outputs match the original's)")
    if result.equivalence == "different":
        return f"different from the original in {scope}" if scope else "different from the original"
    if result.equivalence == "identical":
        return "identical (no cell was changed)"
    why = f" ({result.differences[0]})" if result.differences else ""
    return f"not compared{why}"


def summary_text(results: Sequence[ModernizeResult]) -> str:
    """The folder table (one row per notebook) and the totals."""
    rows = [(r.notebook, "yes" if r.reproduced else "no", _kind(r.final_kind) if not r.error else "not run",
             len(r.rounds), f"{r.similarity:.3f}",
             f"{r.equivalence} before cell {r.compared_before}" if r.compared_before
             else r.equivalence,
             ",".join(r.codemods) or "-", r.prompt_tokens + r.completion_tokens,
             f"{r.cost_usd:.4f}", f"{r.elapsed_s:.1f}") for r in results]
    table = _table(("notebook", "runs now", "final", "rounds", "similarity", "equivalence",
                    "codemods", "tokens", "cost $", "s"), rows)
    s = summary(results)
    saved = (f"; with saved outputs {s['with_saved_outputs']}, printing them again "
             f"{s['outputs_match']}; deviations found {s['deviations_found']}, repaired "
             f"{s['deviations_repaired']}" if s["with_saved_outputs"] else "")
    totals = (f"runs now {s['reproduced']}/{s['notebooks']} (after the first round "
              f"{s['reproduced_first_round']}){saved}; "
              f"rounds {s['rounds_total']} (codemod {s['codemod_rounds']}, llm {s['llm_rounds']}); "
              f"tokens {s['prompt_tokens'] + s['completion_tokens']}; cost ${s['cost_usd']:.4f}")
    return f"{table}\n{totals}"


_STYLE = ("body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
          "padding:.25em .6em;text-align:left;vertical-align:top}th{background:#f3f3f3}"
          ".yes{color:#176317;font-weight:600}.no{color:#a11;font-weight:600}"
          "code{font-size:90%}details{margin:.3em 0}")


def _html_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _rounds_html(result: ModernizeResult) -> str:
    rows = []
    for r in result.rounds:
        c = r.classification
        problem = html.escape(f"{c.ename}: {c.evalue}" if c.kind == "error" else c.message)
        repair = html.escape(r.repair or (r.llm_error or "-"))
        if r.codemods:
            repair += " <code>" + html.escape(", ".join(dict.fromkeys(a.rule for a in r.codemods))) + "</code>"
        cost = "?" if r.cost_usd is None else f"{r.cost_usd:.4f}"
        rows.append((r.number, _kind(c.kind), _cell(c), problem, repair,
                     r.prompt_tokens, r.completion_tokens, cost, f"{r.elapsed_s:.1f}"))
    return _html_table(("round", "class", "cell [n]", "problem", "repair", "prompt tok",
                        "completion tok", "cost $", "s"), rows)


def html_report(results: Sequence[ModernizeResult], *, title: str = "benchkit modernize") -> str:
    """A self-contained HTML page: totals, one row per notebook, each notebook's rounds."""
    s = summary(results)
    totals = _html_table(("notebooks", "run now", "after the first round", "rounds", "codemod rounds",
                          "llm rounds", "tokens", "cost $", "time s"),
                         [(s["notebooks"], s["reproduced"], s["reproduced_first_round"],
                           s["rounds_total"], s["codemod_rounds"], s["llm_rounds"],
                           s["prompt_tokens"] + s["completion_tokens"], f"{s['cost_usd']:.4f}",
                           f"{s['elapsed_s']:.1f}")])
    rows = []
    for r in results:
        ok = "<span class=yes>yes</span>" if r.reproduced else "<span class=no>no</span>"
        rows.append((html.escape(r.notebook), ok, html.escape(r.error or r.stop_reason),
                     len(r.rounds), f"{r.similarity:.3f}",
                     html.escape(equivalence_text(r) if not r.error else r.equivalence),
                     html.escape(", ".join(r.codemods) or "-"), f"{r.cost_usd:.4f}"))
    table = _html_table(("notebook", "runs now", "stopped", "rounds", "similarity",
                         "equivalence", "codemods", "cost $"), rows)
    details = "".join(
        f"<details><summary>{html.escape(r.notebook)}</summary>{_rounds_html(r)}"
        + ("<p>Differences from the original: " + html.escape("; ".join(r.differences)) + "</p>"
           if r.differences else "")
        + (f"<pre>{html.escape(spec_text(r))}</pre>" if spec_text(r) else "")
        + "</details>" for r in results if not r.error)
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<h2>Totals</h2>{totals}<h2>Notebooks</h2>{table}<h2>Rounds</h2>{details}"
            "</body></html>\n")
