"""What every command-line tool of the workspace offers a new user."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = ("nbdeps", "rtextract", "nbpatch", "crashpredict", "benchkit")
BIN = Path(sys.executable).parent


@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_says_its_version(tool):
    done = subprocess.run([str(BIN / tool), "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(rf"{tool} \d+\.\d+\.\d+\S*\n", done.stdout)


@pytest.mark.parametrize("tool", TOOLS)
def test_help_has_no_rst_markup(tool):
    done = subprocess.run([str(BIN / tool), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "``" not in done.stdout and ":func:" not in done.stdout and ":class:" not in done.stdout
