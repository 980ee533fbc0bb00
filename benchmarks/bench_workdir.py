"""crashpredict's private work copy (issue 19): what replaying in a copy of the folder costs.

A notebook folder holding 1 GB of data (four 256 MiB files, sparse so the disk is not
filled), a few small files and a folder of 200 small CSVs. Measured: building and removing
the private copy (`crashpredict.private_copy`), against the peer `shutil.copytree` of the
same folder (then removed); and the time a whole `check_notebook` takes in the copy against
in place, on a small notebook in that folder (the kernel's start dominates both).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

DATA_FILES = 4
DATA_FILE_BYTES = 256 * 2**20
SMALL_FILES = 200
REPEAT = 7
PEER_REPEAT = 3
CHECKS = 3


def _folder(root: Path) -> Path:
    folder = root / "project"
    (folder / "input").mkdir(parents=True)
    (folder / "parts").mkdir()
    for i in range(DATA_FILES):
        with open(folder / "input" / f"train_{i}.bin", "wb") as f:
            f.truncate(DATA_FILE_BYTES)  # sparse: 256 MiB that take no disk
    for i in range(SMALL_FILES):
        (folder / "parts" / f"part_{i:03}.csv").write_text("a,b\n" + "1,2\n" * 50)
    (folder / "labels.csv").write_text("id,label\n" + "".join(f"{i},{i % 2}\n" for i in range(2000)))
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import os\nsizes = [os.path.getsize(f'input/train_{i}.bin') "
                                  f"for i in range({DATA_FILES})]", execution_count=1),
        nbformat.v4.new_code_cell("open('predictions.csv', 'w').write('id,p\\n')", execution_count=2),
        nbformat.v4.new_code_cell("labels = open('labels.csv').read().splitlines()\nlabels[1]")])
    nbformat.write(nb, folder / "analysis.ipynb")
    return folder


def _timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


# File operations timed in a fresh interpreter, with and without the guard's audit hook.
_GUARD_TIMER = """
import json, os, sys, time
from crashpredict._workdir import install_guard
root = sys.argv[1]
os.chdir(root)
def timed(n=2000):
    t0 = time.perf_counter()
    for i in range(n):
        with open('labels.csv') as f:
            f.read(10)
        with open(f'w{i % 10}.txt', 'w') as f:
            f.write('x')
    return (time.perf_counter() - t0) / n * 1e6
plain = [timed() for _ in range(5)]
install_guard(root)
guarded = [timed() for _ in range(5)]
print(json.dumps({'plain': plain, 'guarded': guarded}))
"""


def _guard_overhead(folder: Path) -> tuple[float, float]:
    """Microseconds per (read open + write open) pair: without and with the guard."""
    from crashpredict import private_copy
    with private_copy(folder) as work:
        out = subprocess.run([sys.executable, "-c", _GUARD_TIMER, str(work.path)],
                             capture_output=True, text=True, check=True).stdout
    data = json.loads(out.strip().splitlines()[-1])
    return statistics.median(data["plain"]), statistics.median(data["guarded"])


def main() -> str:
    """Run the benchmark; print and return its Markdown section."""
    from crashpredict import check_notebook, private_copy

    with tempfile.TemporaryDirectory(prefix="bench-workdir-") as tmp:
        folder = _folder(Path(tmp))
        linked = []

        def ours() -> None:
            with private_copy(folder) as work:
                linked[:] = work.linked

        def peer() -> None:
            target = Path(tmp) / "peer-copy"
            shutil.copytree(folder, target)
            shutil.rmtree(target)

        ours_ms = _timed(ours, REPEAT)
        peer_ms = _timed(peer, PEER_REPEAT)
        plain_us, guarded_us = _guard_overhead(folder)
        nb = folder / "analysis.ipynb"
        in_place, copied = [], []
        for _ in range(CHECKS):  # interleaved, so both see the same machine load
            for flag, out in ((True, in_place), (False, copied)):
                t0 = time.perf_counter()
                check_notebook(nb, engines=("rules",), in_place=flag)
                out.append(time.perf_counter() - t0)
                (folder / "predictions.csv").unlink(missing_ok=True)
    gib = DATA_FILES * DATA_FILE_BYTES / 2**30
    ours_med, peer_med = statistics.median(ours_ms), statistics.median(peer_ms)
    lines = [
        "## workdir (crashpredict's private work copy)", "",
        f"A folder with {gib:g} GiB of data ({DATA_FILES} sparse files of "
        f"{DATA_FILE_BYTES >> 20} MiB), {SMALL_FILES} small CSVs and a notebook. "
        f"`private_copy` copies what fits its {200} MiB budget and links the rest "
        f"(linked here: {', '.join(linked) or 'nothing'}).", "",
        "| build + remove the work copy | median ms | runs |", "|---|---|---|",
        f"| `crashpredict.private_copy` | {ours_med:.1f} | {REPEAT} |",
        f"| `shutil.copytree` + `rmtree` (peer) | {peer_med:.1f} | {PEER_REPEAT} |", "",
        f"Ratio private_copy / copytree (medians): {ours_med / peer_med:.4f}.", "",
        f"The guard on the links (an audit hook in the replay kernel), on a read open plus a "
        f"write open of small files in the copy: {plain_us:.1f} us without, "
        f"{guarded_us:.1f} us with (ratio {guarded_us / plain_us:.2f}; 5 x 2000 pairs, "
        f"medians).", "",
        f"`check_notebook` on the folder's notebook (rules engine, {CHECKS} runs each, "
        f"kernel start included): in place median {statistics.median(in_place):.2f} s, in "
        f"the private copy {statistics.median(copied):.2f} s (ratio "
        f"{statistics.median(copied) / statistics.median(in_place):.2f}).", "",
    ]
    text = "\n".join(lines)
    print(text)
    return text


if __name__ == "__main__":
    main()
