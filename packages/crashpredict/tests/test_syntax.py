"""Syntax trees copied by their fields alone: a traceback shown by IPython leaves a
``parent`` on the ``Load()`` and ``Store()`` nodes `ast.parse` shares among all trees, and
a deep copy of any tree then copied the tree that ``parent`` points into."""

from __future__ import annotations

import ast
import time

import pytest
from IPython.core.interactiveshell import InteractiveShell

from crashpredict._dryrun import dry_run
from crashpredict._rules._walk._util import as_load
from crashpredict._syntax import clone

LOOP = "x = 0\nwhile True:\n    x += 1"


@pytest.fixture
def shared_nodes_with_a_parent():
    """What ``executing`` leaves after IPython shows a traceback: the shared ``Load()`` and
    ``Store()`` point into a large tree."""
    sample = ast.parse("a = b")
    shared = (sample.body[0].value.ctx, sample.body[0].targets[0].ctx)
    before = [node.__dict__.get("parent", None) for node in shared]
    large = ast.parse("\n".join(f"v{i} = [w{i} for w{i} in range({i})]" for i in range(3000)))
    for node in ast.walk(large):  # as executing marks a tree it reads
        for child in ast.iter_child_nodes(node):
            child.parent = node
    assert all(hasattr(node, "parent") for node in shared)  # shared by every tree
    yield shared
    for node, old in zip(shared, before):
        if old is None:
            node.__dict__.pop("parent", None)
        else:
            node.parent = old


def test_clone_copies_fields_and_positions_and_nothing_else(shared_nodes_with_a_parent) -> None:
    tree = ast.parse("total = 0\nfor i in range(3):\n    total += i")
    copied = clone(tree)
    assert ast.dump(copied, include_attributes=True) == ast.dump(tree, include_attributes=True)
    assert copied is not tree and copied.body[1] is not tree.body[1]
    assert not any(hasattr(node, "parent") for node in ast.walk(copied))
    compile(copied, "<cell>", "exec")
    copied.body[1].body.clear()  # the copy is its own
    assert tree.body[1].body


def test_the_rules_read_an_augmented_target_without_copying_the_rest(
        shared_nodes_with_a_parent) -> None:
    target = ast.parse("df['a'] += 1").body[0].target
    began = time.perf_counter()
    read = as_load(target)
    # a bound on correctness, not a speed figure: the large tree is never copied
    assert time.perf_counter() - began < 0.25
    assert isinstance(read.ctx, ast.Load) and ast.unparse(read) == "df['a']"


class _Uncopyable:
    def __deepcopy__(self, memo: dict) -> None:
        raise RuntimeError("copied through a shared node's parent")


@pytest.fixture
def shared_nodes_with_an_uncopyable_parent(shared_nodes_with_a_parent):
    """The same shared nodes, their ``parent`` one that cannot be copied: a dry run that
    copied through it fails outright, however loaded the machine (the large tree only makes
    it slow, which a budget on a busy machine cannot tell from a slow fork)."""
    for node in shared_nodes_with_a_parent:
        node.parent = _Uncopyable()
    return shared_nodes_with_a_parent


def test_a_dry_run_after_a_shown_traceback_never_copies_the_shown_tree(
        shared_nodes_with_an_uncopyable_parent) -> None:
    result = dry_run(LOOP, {}, budget_s=2.0)
    assert result.line in (2, 3), result.reason  # the loop ran, cut short, and said where


def test_after_ipython_showed_a_traceback_a_dry_run_still_answers_its_alarm() -> None:
    """The real case: a cell that raised in a notebook (IPython's traceback parses the
    sources it shows)."""
    shell = InteractiveShell.instance()
    shell.run_cell("import pandas as pd\n_frame = pd.DataFrame({'a': [1]})\n_frame['b']")
    shell.user_ns.pop("_frame", None)
    result = dry_run(LOOP, {}, budget_s=1.5)
    assert result.line in (2, 3), result.reason
