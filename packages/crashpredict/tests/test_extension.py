"""The IPython extension in an in-process InteractiveShell."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

import crashpredict


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    sh.run_cell("%load_ext crashpredict")
    sh.run_cell("import pandas as pd\ndf = pd.DataFrame({'a': [1]})")
    yield sh
    sh.run_cell("%unload_ext crashpredict")
    sh.user_ns.pop("df", None)


def test_warns_before_a_crashing_cell(shell, capsys) -> None:
    result = shell.run_cell("df['b']")
    assert type(result.error_in_exec).__name__ == "KeyError"
    err = capsys.readouterr().err
    assert "crashpredict: this cell will likely raise KeyError at line 1" in err
    assert "df has no column 'b'" in err


def test_says_nothing_for_a_fine_cell(shell, capsys) -> None:
    assert shell.run_cell("total = df['a'].sum()").success
    assert "crashpredict" not in capsys.readouterr().err


def test_strict_refuses_and_does_not_run_the_cell(shell) -> None:
    shell.run_cell("%crashpredict strict")
    result = shell.run_cell("marker = 1\ndf['b']")
    assert type(result.error_in_exec).__name__ == "CellRefused"
    assert "marker" not in shell.user_ns
    assert shell.run_cell("ok = df['a']").success and "ok" in shell.user_ns


def test_off_and_on(shell, capsys) -> None:
    shell.run_cell("%crashpredict off")
    shell.run_cell("df['b']")
    assert "likely raise" not in capsys.readouterr().err
    shell.run_cell("%crashpredict on")
    shell.run_cell("df['b']")
    assert "likely raise" in capsys.readouterr().err


def test_unknown_mode_is_reported(shell, capsys) -> None:
    shell.run_cell("%crashpredict loud")
    assert "unknown mode 'loud'" in capsys.readouterr().err


def test_extension_entry_points_are_exported() -> None:
    assert callable(crashpredict.load_ipython_extension)
    assert callable(crashpredict.unload_ipython_extension)
