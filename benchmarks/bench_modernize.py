"""benchkit modernize: the codemod catalog's cost per cell against a bare libcst round trip,
the offline loop on a bundled notebook against one plain nbclient run of its fixed form, and
the offline repair of the old-notebook corpus (benchmarks/modernize_corpus/) with the drift
knowledge base and the resolvers against the codemod catalog alone: the one-removal
notebooks, and the multi-drift ones in multidrift/, which saved their outputs (how many
print them again; how many silent deviations were found and repaired).

The libcst round trip (parse, then render) is the floor every libcst codemod pays; the
ratio says what the 24 rules add on top. The loop runs a fresh kernel per round, so its
peer is the cost of one such run of the notebook it ends with.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "modernize"
CORPUS = ROOT / "benchmarks" / "modernize_corpus"
CORPUS_ROUNDS = 8
CORPUS_SIMILARITY = 0.8
CODEMOD_REPEATS = 5
LOOP_REPEATS = 3


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _cells() -> list[str]:
    from benchkit._modernize import CODEMODS

    cells = []
    for path in sorted(EXAMPLES.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cells += [c.source for c in nb.cells if c.cell_type == "code"]
    imports = "import numpy as np\nimport pandas as pd\nimport seaborn as sns\n"
    cells += [imports + rule.example[0] for rule in CODEMODS.values()]
    return cells * 10


def _codemod_section() -> list[str]:
    from benchkit._modernize import apply_codemods
    from benchkit._modernize._codemods import parse_cell, render_cell

    cells = _cells()
    ours, peer = [], []
    for _ in range(CODEMOD_REPEATS):
        t0 = time.perf_counter()
        for source in cells:
            apply_codemods(source)
        ours.append((time.perf_counter() - t0) / len(cells) * 1e3)
        t0 = time.perf_counter()
        for source in cells:
            module, magics = parse_cell(source)  # type: ignore[misc]
            render_cell(module, magics)
        peer.append((time.perf_counter() - t0) / len(cells) * 1e3)
    mo, mp = statistics.median(ours), statistics.median(peer)
    return [f"Codemod catalog over {len(cells)} code cells (bundled examples and rule examples), "
            f"{CODEMOD_REPEATS} repeats, ms per cell:", "",
            "| what | median ms/cell | p95 ms/cell |", "|---|---:|---:|",
            f"| `apply_codemods` (all rules) | {mo:.2f} | {_p95(ours):.2f} |",
            f"| peer: libcst parse + render (magics masked) | {mp:.2f} | {_p95(peer):.2f} |",
            f"| ratio catalog / round trip | {mo / mp:.1f}x | |", ""]


def _plain_run(nb_path: Path, cwd: Path) -> float:
    from nbclient import NotebookClient

    nb = nbformat.read(nb_path, as_version=4)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(cwd)}}).execute()
    return time.perf_counter() - t0


def _loop_section(name: str) -> list[str]:
    from benchkit._modernize import ModernizeSettings, modernize

    loop, plain, rounds = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(LOOP_REPEATS):
            out = Path(tmp) / f"run{k}"
            t0 = time.perf_counter()
            result = modernize(EXAMPLES / f"{name}.ipynb", out,
                               settings=ModernizeSettings(timeout=120, check_equivalence=False))
            loop.append(time.perf_counter() - t0)
            rounds.append(len(result.rounds))
            assert result.reproduced, result.stop_reason
            plain.append(_plain_run(Path(result.final_notebook), out / "work"))
    ml, mp = statistics.median(loop), statistics.median(plain)
    return [f"Offline loop on `examples/modernize/{name}.ipynb` ({LOOP_REPEATS} repeats, "
            f"{statistics.median(rounds):.0f} rounds, reproduced each time), seconds:", "",
            "| what | median s | p95 s |", "|---|---:|---:|",
            f"| `modernize` (runs, codemods, trajectory) | {ml:.2f} | {_p95(loop):.2f} |",
            f"| peer: one nbclient run of the fixed notebook | {mp:.2f} | {_p95(plain):.2f} |",
            f"| ratio loop / one run | {ml / mp:.1f}x | |", ""]


def _corpus_run(out: Path, **flags) -> tuple[list, float]:
    from benchkit._modernize import ModernizeSettings, modernize_folder

    settings = ModernizeSettings(max_iter=CORPUS_ROUNDS, timeout=180, check_equivalence=False,
                                 **flags)
    t0 = time.perf_counter()
    folder = modernize_folder(CORPUS, out, settings=settings, jobs=2)
    return list(folder.results), time.perf_counter() - t0


def _good(r) -> bool:
    return r.reproduced and r.similarity >= CORPUS_SIMILARITY and len(r.rounds) <= CORPUS_ROUNDS


def _why(r) -> str:
    """Where a notebook that does not run again stopped (or why it was not run at all)."""
    return r.rounds[-1].classification.message if r.rounds else f"not run: {r.error}"


def _group(r) -> str:
    parts = Path(r.notebook).parts
    return "heldout" if "heldout" in parts else "multidrift" if "multidrift" in parts else "developed"


def _share(results: list, held_out: bool) -> tuple[int, int]:
    chosen = [r for r in results if _group(r) == ("heldout" if held_out else "developed")]
    return sum(map(_good, chosen)), len(chosen)


def _multidrift_section(ours: list, peer: list) -> list[str]:
    """The notebooks with several drifts and saved outputs: run again, print their old
    outputs again, deviations found and repaired."""
    table = ["| what | run again (similarity >= 0.8) | print their saved outputs again | "
             "deviations found | repaired | no faithful repair noted |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, results in (("codemods + knowledge bases + resolvers", ours),
                          ("peer: the codemod catalog alone", peer)):
        chosen = [r for r in results if _group(r) == "multidrift"]
        found = sum(len(r.deviations_found) for r in chosen)
        left = sum(len(r.deviations_left) for r in chosen)
        table.append(f"| {name} | {sum(map(_good, chosen))}/{len(chosen)} | "
                     f"{sum(bool(r.outputs_match) for r in chosen)}/{len(chosen)} | {found} | "
                     f"{found - left} | {sum(len(r.unfaithful) for r in chosen)} |")
    rows = []
    for r in sorted((r for r in ours if _group(r) == "multidrift"), key=lambda r: r.notebook):
        why = "" if r.reproduced else f" ({_why(r)[:60]})"
        kinds = sorted({x.repair for x in r.rounds if x.repair})
        rows.append(f"| `{Path(r.notebook).stem}` | {'yes' if r.reproduced else 'no'}{why} | "
                    f"{'yes' if r.outputs_match else 'no'} | {len(r.rounds)} | "
                    f"{r.similarity:.3f} | {len(r.deviations_found)} / "
                    f"{len(r.deviations_found) - len(r.deviations_left)} | "
                    f"{', '.join(kinds) or '-'} | {r.elapsed_s:.0f} |")
    return [f"Multi-drift old notebooks in `benchmarks/modernize_corpus/multidrift/` (2-4 drifts "
            f"each, chained, some silent; each saved the outputs its old libraries printed, "
            f"see its README). A notebook prints its saved outputs again when every code cell's "
            f"output matches the saved one (numbers within 1%, integers and text equal):", "",
            *table, "", "| notebook | runs | saved outputs again | rounds | similarity | "
            "deviations found / repaired | repairs | s |", "|---|---|---|---:|---:|---|---|---:|",
            *rows, ""]


def _corpus_section() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        ours, t_ours = _corpus_run(Path(tmp) / "kb")
        peer, t_peer = _corpus_run(Path(tmp) / "catalog", knowledge_base=False, resolvers=False)
    # the wall time covers every notebook of the corpus, the multi-drift ones included
    table = ["| what | developed with (20) | held out (10) | all | wall s |",
             "|---|---:|---:|---:|---:|"]
    for name, results, wall in (("codemods + drift knowledge base + resolvers", ours, t_ours),
                                ("peer: the codemod catalog alone", peer, t_peer)):
        (dg, dn), (hg, hn) = _share(results, False), _share(results, True)
        table.append(f"| {name} | {dg}/{dn} ({dg / max(dn, 1):.0%}) | {hg}/{hn} "
                     f"({hg / max(hn, 1):.0%}) | {dg + hg}/{dn + hn} | {wall:.0f} |")
    multidrift = _multidrift_section(ours, peer)
    ours = [r for r in ours if _group(r) != "multidrift"]
    peer = [r for r in peer if _group(r) != "multidrift"]
    good, good_peer = sum(map(_good, ours)), sum(map(_good, peer))
    rows = []
    for r in sorted(ours, key=lambda r: ("heldout" in Path(r.notebook).parts, r.notebook)):
        kinds = {x.repair for x in r.rounds if x.repair}
        held = " (held out)" if "heldout" in Path(r.notebook).parts else ""
        why = "" if r.reproduced else f" ({_why(r)[:70]})"
        rows.append(f"| `{Path(r.notebook).stem}`{held} | {'yes' if r.reproduced else 'no'}{why} | "
                    f"{len(r.rounds)} | {r.similarity:.3f} | {', '.join(sorted(kinds)) or '-'} | "
                    f"{r.elapsed_s:.0f} |")
    done = [r for r in ours if r.reproduced]
    med_rounds = statistics.median(len(r.rounds) for r in done) if done else 0
    med_sim = statistics.median(r.similarity for r in done) if done else 0
    return [f"Offline repair of the old notebooks in `benchmarks/modernize_corpus/` (no LLM; at "
            f"most {CORPUS_ROUNDS} rounds; 2 at a time; equivalence not checked). A notebook "
            f"counts as repaired when it runs to the end with edit similarity >= "
            f"{CORPUS_SIMILARITY}. The 10 in `heldout/` were written after the knowledge base "
            f"and the resolvers were frozen and never used to tune them:", "",
            *table, f"| ratio ours / peer (all) | | | {good / max(good_peer, 1):.1f}x | |", "",
            f"Median rounds of the notebooks that ran again: {med_rounds:.0f}; median "
            f"similarity {med_sim:.3f}. Per notebook:", "",
            "| notebook | runs | rounds | similarity | repairs | s |",
            "|---|---|---:|---:|---|---:|", *rows, "", *multidrift]


def main() -> str:
    """Run the modernize benchmark; print and return its Markdown section."""
    lines = ["## modernize", ""]
    lines += _codemod_section()
    lines += _loop_section("pandas_numpy_legacy")
    lines += _corpus_section()
    text = "\n".join(lines)
    print(text)
    return text


if __name__ == "__main__":
    main()
