"""Importing nbpatch stays light: no kernel machinery, no heavy ML library."""

from __future__ import annotations

import subprocess
import sys


def test_import_does_not_pull_heavy_modules():
    code = (
        "import sys, nbpatch\n"
        "heavy = {'numpy', 'pandas', 'torch', 'tensorflow', 'sklearn', 'scipy', 'nbclient'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_diff_apply_and_writes_do_not_import_the_kernel_machinery(tmp_path):
    # nbclient, jupyter_client and ipykernel are the ``run`` extra: only running needs them
    code = (
        "import sys, nbformat, nbpatch\n"
        "from nbpatch.cli import main\n"
        "nb = nbformat.v4.new_notebook()\n"
        "nb.cells = [nbformat.v4.new_code_cell('x = 1'), nbformat.v4.new_code_cell('y = 2')]\n"
        "new = nbpatch.apply(nb, nbpatch.diff(nb, nb))\n"
        "nbpatch.write_notebook(new, sys.argv[1] + '/a.ipynb')\n"
        "nb.cells[0].source = 'x = 2'\n"
        "nbpatch.write_notebook(nb, sys.argv[1] + '/b.ipynb')\n"
        "main(['diff', sys.argv[1] + '/a.ipynb', sys.argv[1] + '/b.ipynb'])\n"
        "nbpatch.similarity(nb, new)\n"
        "kernel = {'nbclient', 'jupyter_client', 'ipykernel', 'zmq', 'IPython'}\n"
        "print(sorted(kernel & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_running_without_the_extra_names_the_pip_line(tmp_path):
    code = (
        "import sys\n"
        "sys.modules['nbclient'] = None  # as if the run extra were not installed\n"
        "import nbpatch\n"
        "try:\n"
        "    nbpatch.run_notebook({'nbformat': 4, 'nbformat_minor': 5, 'metadata': {}, "
        "'cells': []})\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
        "from nbpatch.cli import main\n"
        "sys.exit(main(['equiv', sys.argv[1], sys.argv[1]]))"
    )
    path = tmp_path / "a.ipynb"
    path.write_text('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}')
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert out.stdout.startswith("MissingExtraError running notebooks needs nbclient")
    assert out.stdout.rstrip().endswith("pip install 'nbpatch[run]'")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("nbpatch equiv: error: running notebooks needs nbclient")


def test_public_names_are_exported():
    import nbpatch

    assert {"diff", "apply", "Patch", "PATCH_SCHEMA", "read_reply", "similarity", "equivalent",
            "write_notebook", "PatchConflict", "ReplyError"} <= set(nbpatch.__all__)
    assert all(hasattr(nbpatch, name) for name in nbpatch.__all__)
