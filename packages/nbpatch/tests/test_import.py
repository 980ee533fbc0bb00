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


def test_public_names_are_exported():
    import nbpatch

    assert {"diff", "apply", "Patch", "PATCH_SCHEMA", "read_reply", "similarity", "equivalent",
            "write_notebook", "PatchConflict", "ReplyError"} <= set(nbpatch.__all__)
    assert all(hasattr(nbpatch, name) for name in nbpatch.__all__)
