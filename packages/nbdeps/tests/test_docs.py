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


def test_private_modules_import_one_way():
    """No import circle inside the package (issue 18): graph algorithms live in _graph,
    findings in _checks, and neither imports the other."""
    import ast

    root = Path(nbdeps.__file__).parent
    imports = {}
    for path in root.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
        imports[path.stem] = found

    def reaches(start, goal, seen=()):
        return any(m == goal or (m not in seen and reaches(m, goal, (*seen, m))) for m in imports.get(start, ()))

    circles = sorted(m for m in imports if reaches(m, m))
    assert circles == []
    assert "_checks" not in imports["_graph"] and "_graph" not in imports["_checks"]
