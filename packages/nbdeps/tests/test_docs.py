"""Docs and code agree: the findings table, the docstring examples, lazy imports."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nbdeps
from nbdeps import _cellinfo, _checks, _load

DOCS = Path(__file__).resolve().parents[3] / "docs" / "nbdeps.md"


def test_findings_table_lists_every_code_with_its_severity():
    if not DOCS.is_file():
        pytest.skip("docs/nbdeps.md not present")
    rows = re.findall(r"^\| (ND\d{3}) \| (\w+) \| ([\w-]+) \|", DOCS.read_text(), re.M)
    assert {code: (sev, name) for code, sev, name in rows} == {
        code: (sev, name) for code, (sev, name, _) in nbdeps.CODES.items()}


@pytest.mark.parametrize("module", [nbdeps, _load, _cellinfo, _checks])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_import_is_light():
    code = ("import sys, nbdeps; heavy = [m for m in ('IPython', 'pandas', 'matplotlib', 'networkx', "
            "'nbformat', 'libcst') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
