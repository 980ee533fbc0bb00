"""read_reply: the reply formats LLMs and tools hand back, including broken ones."""

from __future__ import annotations

import json

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbpatch
from nbpatch import ReplyError

BASE = (
    "# Load the data",
    "import pandas as pd\n# the csv has a header row\ndf = pd.read_csv('train.csv')",
    "# Clean",
    "df = df.dropna()  # drop incomplete rows\nX = df.drop(columns='y')",
    "model.fit(X, df.y)",
)


@pytest.fixture
def base(nb):
    return nb(*BASE)


def make_notebook(*specs):
    """BASE-style specs as a notebook with ids c0, c1, ... (hypothesis cannot take fixtures)."""
    nb = nbformat.v4.new_notebook()
    for k, spec in enumerate(specs):
        cell = (nbformat.v4.new_markdown_cell(spec[2:]) if spec.startswith("# ")
                else nbformat.v4.new_code_cell(spec))
        cell.id = f"c{k}"
        nb.cells.append(cell)
    return nb


def _applied(base, reply, **kw):
    return nbpatch.apply(base, nbpatch.read_reply(reply, base, **kw))


def _sources(nb):
    return [c.source for c in nb.cells]


def test_fenced_block_for_a_named_cell_keeps_its_comments_and_id(base):
    reply = "Here is the fix:\n```python\nimport pandas as pd\ndf = pd.read_csv('train.csv', sep=';')\n```\nDone."
    result = _applied(base, reply, cell="c1")
    assert result.cells[1].source == (
        "import pandas as pd\n# the csv has a header row\ndf = pd.read_csv('train.csv', sep=';')")
    assert [c.id for c in result.cells] == [c.id for c in base.cells]
    assert _sources(result)[2:] == _sources(base)[2:]


def test_named_cell_by_position_and_inline_comment_kept(base):
    reply = "```\ndf = df.dropna()\nX = df.drop(columns=['y'])\n```"
    result = _applied(base, reply, cell=3)
    assert result.cells[3].source == (
        "df = df.dropna()  # drop incomplete rows\nX = df.drop(columns=['y'])")


def test_keep_comments_can_be_turned_off(base):
    reply = "```\ndf = df.dropna()\nX = df.drop(columns=['y'])\n```"
    result = _applied(base, reply, cell=3, keep_comments=False)
    assert result.cells[3].source == "df = df.dropna()\nX = df.drop(columns=['y'])"


def test_numbered_cell_blocks_replace_code_cells_and_keep_markdown(base):
    reply = (
        "## === cell 1 ===\nimport pandas as pd\ndf = pd.read_csv('train.csv')\n\n"
        "## === cell 3 ===\nmodel.fit(X.to_numpy(), df.y.to_numpy())\n"
    )
    result = _applied(base, reply)
    assert _sources(result) == [
        "Load the data", BASE[1], "Clean", BASE[3], "model.fit(X.to_numpy(), df.y.to_numpy())"]
    assert [c.id for c in result.cells] == [c.id for c in base.cells]


def test_numbered_blocks_may_count_from_zero(base):
    result = _applied(base, "## === cell 0\nimport pandas as pd\ndf = pd.read_csv('t.csv')\n")
    assert result.cells[1].source.endswith("pd.read_csv('t.csv')")


def test_percent_script_of_code_only_keeps_markdown_and_adds_cells(base):
    reply = (
        "# %%\nimport pandas as pd\ndf = pd.read_csv('train.csv')\n\n"
        "# %%\ndf = df.dropna()\nX = df.drop(columns='y')\n\n"
        "# %%\nfrom sklearn.linear_model import LinearRegression\nmodel = LinearRegression()\n\n"
        "# %%\nmodel.fit(X, df.y)\n"
    )
    result = _applied(base, reply)
    assert [c.cell_type for c in result.cells] == [
        "markdown", "code", "markdown", "code", "code", "code"]
    assert result.cells[1].source == BASE[1]  # the dropped comment came back
    assert result.cells[3].source == BASE[3]
    assert result.cells[4].source.startswith("from sklearn")
    assert [c.id for c in result.cells if c.id in {"c0", "c1", "c2", "c3", "c4"}] == [
        "c0", "c1", "c2", "c3", "c4"]
    nbformat.validate(result)


def test_jupytext_percent_script_with_markdown_is_the_whole_notebook(base):
    reply = (
        "# ---\n# jupyter:\n#   jupytext:\n#     formats: ipynb,py:percent\n# ---\n\n"
        "# %% [markdown]\n# # Load the data, then fit\n\n"
        "# %%\nimport pandas as pd\n# the csv has a header row\ndf = pd.read_csv('train.csv')\n\n"
        "# %%\nmodel.fit(X, df.y)\n"
    )
    result = _applied(base, reply)
    assert _sources(result) == ["# Load the data, then fit", BASE[1], "model.fit(X, df.y)"]
    assert [c.id for c in result.cells] == ["c0", "c1", "c4"]


def test_whole_notebook_json_keeps_ids_of_cells_that_still_exist(base, nb):
    reply_nb = nb(*BASE, ids=False)
    reply_nb.cells[4].source = "model.fit(X.values, df.y.values)"
    reply = "```json\n" + nbformat.writes(reply_nb) + "\n```"
    result = _applied(base, reply)
    assert _sources(result) == [*_sources(base)[:4], "model.fit(X.values, df.y.values)"]
    assert [c.id for c in result.cells] == [c.id for c in base.cells]


def test_whole_notebook_json_of_code_only_keeps_the_markdown(base, nb):
    reply_nb = nb(BASE[1], BASE[3], "model.fit(X, df.y)\nprint(model.score(X, df.y))")
    result = _applied(base, nbformat.writes(reply_nb))
    assert [c.cell_type for c in result.cells] == [c.cell_type for c in base.cells]
    assert result.cells[4].source.endswith("print(model.score(X, df.y))")


def test_bare_code_for_a_notebook_with_one_code_cell(nb):
    base = nb("# T", "x = 1")
    assert _applied(base, "x = 2\n").cells[1].source == "x = 2"


@pytest.mark.parametrize(
    ("reply", "kw", "message"),
    [
        ("", {}, "reply is empty"),
        ("Sorry, I cannot help with that.", {}, "no cell structure"),
        ("```python\n\n```", {"cell": 1}, "reply contains no code"),
        ("```python\nx = 1\n```\n```python\ny = 2\n```", {"cell": 1}, "2 code blocks"),
        ("```python\nx = 1\n```", {"cell": "nope"}, "cell 'nope': no such cell"),
        ("```python\nx = 1\n```", {"cell": 9}, "cell 9: the notebook has 5 cells"),
        ("## === cell 7 ===\nx = 1\n", {}, r"reply line 1: cell header numbering does not "
                                          r"match the notebook: cell 7, but it has 3 code cells"),
        ("## === cell 1\nx = 1\n## === cell 1\ny = 2\n", {}, r"reply line 3: cell 1 appears twice"),
        ("## === cell two\nx = 1\n", {}, "has no number"),
        ("x = 1\n## === cell 1\ny = 2\n", {}, "code before the first"),
        ("## === cell 1\n\n## === cell 2\n", {}, "reply contains no code"),
        ("# %%\n\n# %%\n", {}, "reply contains no code"),
        ('{"cells": [1, 2', {}, "looks like JSON but does not parse"),
        ('{"metadata": {}}', {}, "not a Jupyter notebook"),
        ('```json\n{"cells": [], "metadata": {}}\n```', {}, "reply contains no code"),
    ],
)
def test_unusable_replies_raise_a_clear_reply_error(base, reply, kw, message):
    with pytest.raises(ReplyError, match=message):
        nbpatch.read_reply(reply, base, **kw)


def test_reply_patch_refuses_a_changed_base(base):
    patch = nbpatch.read_reply("```\nmodel.fit(X, df.y, epochs=3)\n```", base, cell="c4")
    base.cells[4].source = "model.fit(X, y)"
    with pytest.raises(nbpatch.PatchConflict, match=r"cell 5 \(id c4\)"):
        nbpatch.apply(base, patch)


def test_reply_patch_is_valid_json(base):
    patch = nbpatch.read_reply("# %%\nimport os\n", base)
    assert nbpatch.Patch.from_json(json.dumps(patch.to_dict())) == patch


PIECES = st.sampled_from([
    "```python\n", "```\n", "```json\n", "# %%\n", "# %% [markdown]\n", "## === cell 1 ===\n",
    "## === cell 2\n", "## === cell 0\n", "## === cell x\n", "x = 1\n", "# note\n",
    "print(x)\n", "Here you go:\n", "{", '{"cells": []}', "\n", "    y = 2\n", "~~~\n",
])


@settings(max_examples=80, deadline=None)
@given(st.lists(PIECES, max_size=10).map("".join), st.sampled_from([None, 1, "c3", 0]))
def test_any_reply_gives_an_applicable_patch_or_a_reply_error(text, cell):
    base = make_notebook(*BASE)
    try:
        patch = nbpatch.read_reply(text, base, cell=cell)
    except ReplyError:
        return
    result = nbpatch.apply(base, patch)
    nbformat.validate(result)
    assert {c.id for c in base.cells if c.cell_type == "markdown"} <= {
        c.id for c in result.cells} or "# %% [markdown]" in text or '"cells"' in text
