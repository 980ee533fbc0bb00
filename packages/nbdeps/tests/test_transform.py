"""ipython_to_python: the one IPython->Python transform every package uses."""

import ast

import pytest

from nbdeps import ipython_to_python


@pytest.mark.parametrize("source", [
    "x = 1\ny = x",
    "\n\nx = undefined_thing",
    "\n%time x = 1\n",
    "\n\n!ls\nx?\n",
    "%%capture\nprint(1)",
    "cd data",  # automagic
])
def test_result_is_python(source):
    ast.parse(ipython_to_python(source))


@pytest.mark.parametrize(("source", "line"), [
    ("\n\nx = undefined_thing", 3),
    ("\n\n%time y = 1\nx = undefined_thing", 4),
    ("\n!pip list\n\nx = undefined_thing", 4),
])
def test_lines_are_the_cells_lines(source, line):
    tree = ast.parse(ipython_to_python(source))
    [assign] = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and
                isinstance(n.value, ast.Name) and n.value.id == "undefined_thing"]
    assert assign.lineno == line


def test_plain_python_is_returned_as_is():
    source = "\n\nx = 1\n"
    assert ipython_to_python(source) is source


def test_magics_become_ipython_calls():
    assert ipython_to_python("%matplotlib inline") == \
        "get_ipython().run_line_magic('matplotlib', 'inline')\n"
